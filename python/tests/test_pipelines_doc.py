"""docs/pipelines.md's datatrove pipeline, run as printed (`python pipeline.py`: the local
executor, 2 tasks) on two small WARC files the test writes: every record it keeps has the text
`cetune extract --params best.yaml` gives for that record, it keeps exactly the pages of at
least 50 words, and the records that are no HTML page, or whose text is empty or short, are
gone. Needs the package's `datatrove` extra and the CLI (target/release/cetune); .ci/python.sh
provides them, and the test fails, never skips, without them."""

import io
import json
import re
import subprocess
import sys

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

def doc_block(repo, marker: str) -> str:
    text = (repo / "docs/pipelines.md").read_text(encoding="utf-8")
    found = re.search(rf"<!-- {marker} -->\n```python\n(.*?)```", text, re.S)
    assert found, f"docs/pipelines.md has no python block marked <!-- {marker} -->"
    return found.group(1)


def write_warc(path, records):
    """records: (url, content type, payload) of response records, after a warcinfo record."""
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=True)
        w.write_record(w.create_warcinfo_record(path.name, {"software": "cetune tests"}))
        for url, ctype, payload in records:
            http = StatusAndHeaders("200 OK", [("Content-Type", ctype)], protocol="HTTP/1.1")
            head = {"WARC-Identified-Payload-Type": ctype.split(";")[0]}
            w.write_record(w.create_warc_record(url, "response", payload=io.BytesIO(payload), http_headers=http, warc_headers_dict=head))


def test_the_documented_datatrove_pipeline_runs_as_printed_and_gives_cetune_extracts_text(repo, tmp_path):
    pages = sorted((repo / "goldsets/default").rglob("*.html"))
    assert len(pages) == 48
    html = [(f"https://{p.parent.name}.test/{p.stem}", "text/html; charset=utf-8", p.read_bytes()) for p in pages]
    short = ("https://short.test/", "text/html", b"<html><body><p>Not found. Try the home page.</p></body></html>")
    empty = ("https://empty.test/", "text/html", b"<html><body><nav><a href=/>Home</a></nav></body></html>")
    image = ("https://img.test/logo.png", "image/png", b"\x89PNG\r\n\x1a\n" + bytes(64))
    crawl = tmp_path / "crawl"
    crawl.mkdir()
    write_warc(crawl / "a.warc.gz", html[:24] + [short, image])
    write_warc(crawl / "b.warc.gz", html[24:] + [empty])
    (tmp_path / "best.yaml").write_bytes((repo / "results/reference/lqf/best.yaml").read_bytes())
    (tmp_path / "pipeline.py").write_text(doc_block(repo, "pipelines-datatrove"), encoding="utf-8")

    run = subprocess.run([sys.executable, "pipeline.py"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]

    cli = repo / "target/release/cetune"
    assert cli.is_file(), f"{cli}: build the CLI first (cargo build --release)"
    extract = [str(cli), "extract", "--params", "best.yaml", "--format", "jsonl", "-q", "crawl/a.warc.gz", "crawl/b.warc.gz"]
    want = {r["id"]: r for r in map(json.loads, subprocess.run(extract, cwd=tmp_path, capture_output=True, text=True, check=True).stdout.splitlines())}
    assert len(want) == 50  # 48 pages, the short one, the empty one; the image is no page

    got = {}
    for f in sorted((tmp_path / "out").glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            got[r["id"].strip("<>")] = r
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["00000.jsonl", "00001.jsonl"]  # both tasks wrote
    kept = {i for i, r in want.items() if len(r["text"].split()) >= 50}
    assert len(kept) >= 40 and set(got) == kept
    assert all(got[i]["text"] == want[i]["text"] for i in got), "the pipeline's text differs from cetune extract's"
    assert all(got[i]["metadata"]["url"] == want[i]["url"] for i in got)
    short_id = next(i for i, r in want.items() if r["url"] == short[0])
    assert want[short_id]["text"] and short_id not in got  # extracted, then filtered out

    # The cetune step's own counts, summed over both tasks.
    stats = json.loads((tmp_path / "logs/stats.json").read_text(encoding="utf-8"))
    step = next(s for s in stats if "cetune" in s["name"])["stats"]
    total = lambda k: step[k] if isinstance(step[k], int) else step[k]["total"]
    assert (total("total"), total("extracted"), total("forwarded"), total("dropped")) == (50, 50, 49, 1)
