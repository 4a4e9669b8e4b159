#!/usr/bin/env python3
"""trafilatura's text of every page of an imported gold set, as `cetune score` reads it: a
folder of `<package>/<id>.txt` (default settings, `trafilatura.extract(html)`; an empty file
where it returns nothing). Usage: run_trafilatura.py GOLDSET OUT"""
import gzip
import os
import sys

import trafilatura

root, out = sys.argv[1], sys.argv[2]
n = 0
for folder, _, files in os.walk(root):
    for f in sorted(files):
        if not (f.endswith(".html") or f.endswith(".html.gz")):
            continue
        path = os.path.join(folder, f)
        raw = gzip.open(path, "rb").read() if f.endswith(".gz") else open(path, "rb").read()
        html = raw.decode("utf-8", errors="replace")
        text = trafilatura.extract(html) or ""
        rel = os.path.relpath(folder, root)
        name = f[: -len(".html.gz")] if f.endswith(".gz") else f[: -len(".html")]
        os.makedirs(os.path.join(out, rel), exist_ok=True)
        with open(os.path.join(out, rel, name + ".txt"), "w", encoding="utf-8") as o:
            o.write(text)
        n += 1
print(f"{n} pages of {root} with trafilatura {trafilatura.__version__}", file=sys.stderr)
