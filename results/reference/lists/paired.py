#!/usr/bin/env python3
"""Paired per-page comparison of two out-of-fold page tables (`cetune model build`'s pages.csv,
or `cetune evaluate`'s per-document.csv.gz): mean F1 by set and page kind of each, their
difference with a 95 % bootstrap interval over pages (2,000 resamples, seed 1), and the pages
below F1 0.25. Standard library only.

    paired.py BASE NEW [--out FILE.md]
"""
import random, sys

from tables import emit, flag, rows


def read(path):
    out = {}
    for r in rows(path):
        if r.get("error"):
            continue
        # pages.csv: set, package (set/kind), id; per-document.csv: package (kind), id
        s = r.get("set", "")
        kind = r["package"].split("/")[-1]
        out[(s, kind, r["id"])] = float(r["f1"])
    return out


def interval(d, rng):
    n = len(d)
    means = sorted(sum(d[rng.randrange(n)] for _ in range(n)) / n for _ in range(2000))
    return means[49], means[1949]


def main():
    args = sys.argv[1:]
    out = flag(args, "--out")
    if len(args) != 2:
        sys.exit("usage: paired.py BASE NEW [--out FILE.md]")
    base, new = read(args[0]), read(args[1])
    keys = sorted(set(base) & set(new))
    # Kinds of page where a set's packages are few (WCXB's seven); hosts (L3S-GN1) are not kinds.
    packages = {}
    for k in keys:
        packages.setdefault(k[0], set()).add(k[1])
    groups = {}
    for k in keys:
        if len(packages[k[0]]) <= 10:
            groups.setdefault((k[0], k[1]), []).append(k)
        groups.setdefault((k[0], "all"), []).append(k)
    lines = [
        f"Paired by page: base `{args[0]}`, new `{args[1]}` ({len(keys)} pages in both).",
        "",
        "| set | kind | pages | base F1 | new F1 | new − base [95 % CI] | base < 0.25 | new < 0.25 |",
        "|---|---|---:|---:|---:|---|---:|---:|",
    ]
    rng = random.Random(1)
    for (s, kind), ks in sorted(groups.items(), key=lambda x: (x[0][0], x[0][1] == "all", x[0][1])):
        b = [base[k] for k in ks]
        n = [new[k] for k in ks]
        d = [y - x for x, y in zip(b, n)]
        lo, hi = interval(d, rng)
        lines.append(
            f"| {s or '-'} | {kind} | {len(ks)} | {sum(b)/len(b):.3f} | {sum(n)/len(n):.3f} | "
            f"{sum(d)/len(d):+.3f} [{lo:+.3f}, {hi:+.3f}] | {sum(x < 0.25 for x in b)} | {sum(x < 0.25 for x in n)} |"
        )
    emit(lines, out)


if __name__ == "__main__":
    main()
