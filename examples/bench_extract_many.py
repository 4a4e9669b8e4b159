"""extract_many against the CLI on the same pages (issue 27's target: >= 0.8x the CLI's pages/s).

    python examples/bench_extract_many.py PAGES_DIR [EXTRACTOR] [CETUNE_BINARY] [RUNS]

PAGES_DIR holds decoded .html pages. Both sides use every core; the Python side's time is
extract_many alone (the pages are read into memory first, as a dataset's batch is), the CLI's is
the whole `cetune extract` process (it reads the files itself). Median of RUNS (default 5) runs
each, alternated. Besides wall-clock pages/s it gives pages per CPU second (user + system, all
threads): on a shared machine the wall clock mostly measures the other processes, CPU time much
less so.
"""

import os
import pathlib
import resource
import statistics
import subprocess
import sys
import time

import cetune

pages_dir = pathlib.Path(sys.argv[1])
name = sys.argv[2] if len(sys.argv) > 2 else "lqf"
binary = sys.argv[3] if len(sys.argv) > 3 else "target/release/cetune"
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
files = sorted(pages_dir.glob("*.html"))
pages = [f.read_bytes() for f in files]
ex = cetune.Extractor(name)


def cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def measured(work, who: int) -> tuple[float, float]:
    c, t = cpu(who), time.perf_counter()
    work()
    return time.perf_counter() - t, cpu(who) - c


def py_run() -> tuple[float, float]:
    return measured(lambda: ex.extract_many(pages), resource.RUSAGE_SELF)


def cli_run() -> tuple[float, float]:
    command = [binary, "extract", "-e", name, "-q", str(pages_dir)]
    return measured(lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL), resource.RUSAGE_CHILDREN)


# Alternated, so that a change of the machine's load falls on both sides alike.
both = [(py_run(), cli_run()) for _ in range(runs)]
n = len(pages)
py_wall, py_cpu = (statistics.median(p[i] for p, _ in both) for i in (0, 1))
cli_wall, cli_cpu = (statistics.median(c[i] for _, c in both) for i in (0, 1))
print(f"load {os.getloadavg()[0]:.1f}; {n} pages, {sum(map(len, pages)) / 2**20:.0f} MB, extractor {name}, {runs} runs")
print("| | pages/s (wall) | pages per CPU second |")
print("|---|---|---|")
print(f"| extract_many | {n / py_wall:.1f} | {n / py_cpu:.1f} |")
print(f"| cetune extract (CLI) | {n / cli_wall:.1f} | {n / cli_cpu:.1f} |")
print(f"| ratio | {cli_wall / py_wall:.2f}x | {cli_cpu / py_cpu:.2f}x |")
