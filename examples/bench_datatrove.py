"""The datatrove step against datatrove's trafilatura step and against `cetune extract`
(issue 43's targets), on one WARC built from a gold set's pages.

    python examples/bench_datatrove.py GOLDSET BEST_YAML [PAGES] [RUNS] [CETUNE_BINARY]

Writes a WARC of the first PAGES pages (default 500, in id order across packages) of the native
gold set GOLDSET, then runs three pipelines on it with the same executor (datatrove's local
executor, one task; WarcReader, then the step, then JsonlWriter): `cetune.datatrove.Cetune(params=
BEST_YAML)`, datatrove's `Trafilatura()` and none (reader and writer alone). Each run is a process
of its own, measured in CPU seconds (user + system of it and every process it started and waited
for, from wait4): on a shared machine the wall clock mostly measures the other processes. Prints
pages per CPU second of the whole pipeline and net of the reader-and-writer-only run (median of
RUNS, default 3, alternated), then checks that the cetune pipeline's text is, record by record,
what `cetune extract --params BEST_YAML` (CETUNE_BINARY, default target/release/cetune) gives on the
same WARC. Needs cetune[datatrove], trafilatura and lxml_html_clean.
"""

import gzip
import io
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile


def write_warc(goldset: pathlib.Path, n: int, path: pathlib.Path) -> int:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    pages = sorted((p for p in goldset.glob("*/*") if p.name.endswith((".html", ".html.gz"))), key=lambda p: (p.name, p.parent.name))
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=True)
        for p in pages[:n]:
            raw = p.read_bytes()
            body = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            stem = p.name.split(".")[0]
            w.write_record(
                w.create_warc_record(
                    f"https://{p.parent.name}.example/{stem}",
                    "response",
                    payload=io.BytesIO(body),
                    http_headers=http,
                    warc_headers_dict={"WARC-Identified-Payload-Type": "text/html"},
                )
            )
    return min(n, len(pages))


def run(kind: str, crawl: str, out: str, best: str) -> None:
    """One pipeline, in this process (the parent measures it)."""
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter

    step = []
    if kind == "cetune":
        from cetune.datatrove import Cetune

        step = [Cetune(params=best)]
    elif kind == "trafilatura":
        from datatrove.pipeline.extractors import Trafilatura

        step = [Trafilatura()]
    pipeline = [WarcReader(crawl), *step, JsonlWriter(out, compression=None)]
    LocalPipelineExecutor(pipeline=pipeline, tasks=1, logging_dir=out + "-logs", skip_completed=False).run()


def measured(kind: str, crawl: str, out: str, best: str) -> float:
    proc = subprocess.Popen([sys.executable, __file__, "--run", kind, crawl, out, best], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        sys.exit(f"the {kind} pipeline failed (status {status}); run it alone: {sys.executable} {__file__} --run {kind} {crawl} {out} {best}")
    return usage.ru_utime + usage.ru_stime


def records(out: pathlib.Path) -> dict:
    got = {}
    for f in sorted(out.glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            got[r["id"].strip("<>")] = r["text"]
    return got


def main() -> None:
    if sys.argv[1] == "--run":
        run(*sys.argv[2:6])
        return
    goldset, best = pathlib.Path(sys.argv[1]), os.path.abspath(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 500
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    binary = sys.argv[5] if len(sys.argv) > 5 else "target/release/cetune"
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench-datatrove-"))
    crawl = work / "crawl"
    crawl.mkdir()
    pages = write_warc(goldset, n, crawl / "pages.warc.gz")
    cpu: dict[str, list[float]] = {"none": [], "cetune": [], "trafilatura": []}
    for i in range(runs):
        for kind in cpu:
            cpu[kind].append(measured(kind, str(crawl), str(work / f"{kind}-{i}"), best))
    median = {k: statistics.median(v) for k, v in cpu.items()}
    print(f"{pages} pages; CPU seconds per run (median of {runs}): " + ", ".join(f"{k} {v:.2f}" for k, v in median.items()))
    whole = {k: pages / median[k] for k in ("cetune", "trafilatura")}
    net = {k: pages / max(median[k] - median["none"], 1e-9) for k in ("cetune", "trafilatura")}
    print(f"pages per CPU second, whole pipeline: cetune {whole['cetune']:.1f}, trafilatura {whole['trafilatura']:.1f}: {whole['cetune'] / whole['trafilatura']:.1f}x")
    print(f"pages per CPU second, net of reader and writer: cetune {net['cetune']:.1f}, trafilatura {net['trafilatura']:.1f}: {net['cetune'] / net['trafilatura']:.1f}x")
    cli = subprocess.run([binary, "extract", "--params", best, "--format", "jsonl", "-q", str(crawl / "pages.warc.gz")], capture_output=True, text=True, check=True)
    want = {r["id"]: r["text"] for r in map(json.loads, cli.stdout.splitlines())}
    got = records(work / "cetune-0")
    same = sum(got[k] == want.get(k) for k in got)
    empty = sum(1 for t in want.values() if not t)
    print(f"cetune step vs cetune extract: {same} of {len(got)} records identical ({len(want)} pages extracted by the CLI, {empty} empty there, which the step drops as datatrove's extractors do)")


if __name__ == "__main__":
    main()
