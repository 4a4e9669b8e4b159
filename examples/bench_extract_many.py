"""extract_many against the CLI on the same pages (issue 27's target: >= 0.8x the CLI's pages/s).

    python examples/bench_extract_many.py PAGES_DIR [EXTRACTOR] [CETUNE_BINARY]

PAGES_DIR holds decoded .html pages. Both sides use every core; the Python side's time is
extract_many alone (the pages are read into memory first, as a dataset's batch is), the CLI's is
the whole `cetune extract` process (it reads the files itself). Median of 3 runs each, alternated.
"""

import os
import pathlib
import statistics
import subprocess
import sys
import time

import cetune

pages_dir = pathlib.Path(sys.argv[1])
name = sys.argv[2] if len(sys.argv) > 2 else "lqf"
binary = sys.argv[3] if len(sys.argv) > 3 else "target/release/cetune"
files = sorted(pages_dir.glob("*.html"))
pages = [f.read_bytes() for f in files]
ex = cetune.Extractor(name)


def py_run() -> float:
    t = time.perf_counter()
    ex.extract_many(pages)
    return time.perf_counter() - t


def cli_run() -> float:
    t = time.perf_counter()
    subprocess.run([binary, "extract", "-e", name, "-q", str(pages_dir)], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


# Alternated, so that a change of the machine's load falls on both sides alike.
runs = [(py_run(), cli_run()) for _ in range(3)]
py = statistics.median(p for p, _ in runs)
cli = statistics.median(c for _, c in runs)
n = len(pages)
print(f"load {os.getloadavg()[0]:.1f}; {n} pages, {sum(map(len, pages)) / 2**20:.0f} MB, extractor {name}")
print(f"| extract_many | {n / py:.1f} pages/s |")
print(f"| cetune extract (CLI) | {n / cli:.1f} pages/s |")
print(f"| ratio | {cli / py:.2f}x |")
