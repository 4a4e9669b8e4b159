#!/usr/bin/env python3
"""One markdown table of `cetune model build` grids (means.csv): a row per build and grid point,
the held-out mean F1 per set and their macro mean. Standard library only.

    grid.py LABEL=DIR/means.csv ... [--out FILE.md]
"""
import sys

from tables import emit, flag, rows

args = sys.argv[1:]
out = flag(args, "--out")
if not args:
    sys.exit(__doc__)
table, sets = [], []
for arg in args:
    label, path = arg.split("=", 1)
    points = {}
    for r in rows(path):
        points.setdefault(r["grid"], {})[r["set"]] = float(r["f1"])
        if r["set"] not in sets:
            sets.append(r["set"])
    for grid, by_set in points.items():
        table.append((label, grid, by_set))
lines = [
    "| build | grid point | " + " | ".join(sets) + " | macro |",
    "|---|---|" + "---:|" * (len(sets) + 1),
]
for label, grid, by_set in table:
    macro = sum(by_set[s] for s in sets) / len(sets)
    lines.append(f"| {label} | {grid} | " + " | ".join(f"{by_set[s]:.3f}" for s in sets) + f" | {macro:.4f} |")
emit(lines, out)
