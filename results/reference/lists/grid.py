#!/usr/bin/env python3
"""One markdown table of `cetune model build` grids (means.csv): a row per build and grid point,
the held-out mean F1 per set and their macro mean. Standard library only.

    grid.py LABEL=DIR/means.csv ... [--out FILE.md]
"""
import csv, sys

args = sys.argv[1:]
out = None
if "--out" in args:
    i = args.index("--out")
    out = args[i + 1]
    del args[i : i + 2]
if not args:
    sys.exit(__doc__)
rows, sets = [], []
for arg in args:
    label, path = arg.split("=", 1)
    points = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            points.setdefault(r["grid"], {})[r["set"]] = float(r["f1"])
            if r["set"] not in sets:
                sets.append(r["set"])
    for grid, by_set in points.items():
        rows.append((label, grid, by_set))
lines = [
    "| build | grid point | " + " | ".join(sets) + " | macro |",
    "|---|---|" + "---:|" * (len(sets) + 1),
]
for label, grid, by_set in rows:
    macro = sum(by_set[s] for s in sets) / len(sets)
    lines.append(f"| {label} | {grid} | " + " | ".join(f"{by_set[s]:.3f}" for s in sets) + f" | {macro:.4f} |")
text = "\n".join(lines) + "\n"
if out:
    with open(out, "w") as f:
        f.write(text)
sys.stdout.write(text)
