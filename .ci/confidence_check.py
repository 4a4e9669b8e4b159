#!/usr/bin/env python3
"""Independent reading of `cetune evaluate --confidence`: the figures of its summary.md recomputed
from its confidence.csv, written apart from cetune's Rust code (src/objective/confidence.rs).

- Spearman's rho: Pearson's correlation of the ranks, tied values sharing their mean rank;
- the low-confidence pages: confidence strictly below the threshold summary.md names, with the
  mean F1 of the pages below it and of the pages at or above it;
- bad pages: F1 below 0.25; flagged: the pages of lowest confidence, at most 15 % of the pages,
  a group of tied confidences flagged whole or not at all; caught: bad pages among the flagged.

usage: confidence_check.py EVALUATE_OUT
Exits 1 when a figure of summary.md disagrees with the recomputed one (printing both).
"""
import csv
import math
import os
import re
import sys


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in order[i:j + 1]:
            r[k] = (i + j) / 2 + 1
        i = j + 1
    return r


def pearson(a, b):
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    return cov / math.sqrt(sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b))


def main(out):
    rows = list(csv.DictReader(open(os.path.join(out, "confidence.csv"), encoding="utf-8")))
    f1 = [float(r["f1"]) for r in rows]
    conf = [float(r["confidence"]) for r in rows]
    md = open(os.path.join(out, "summary.md"), encoding="utf-8").read()
    m1 = re.search(r"Spearman\(confidence, page F1\) (\S+) over (\d+) pages", md)
    m2 = re.search(r"pages below confidence (\S+): (\d+) \(\S+ %\), mean F1 (\S+); at or above: mean F1 (\S+)", md)
    m3 = re.search(r"pages with F1 < 0.25: (\d+); caught among the (\d+) pages of lowest confidence "
                   r"\(<= 15 % flagged\): (\d+)", md)
    if not (m1 and m2 and m3):
        print("summary.md has no confidence report")
        return 1
    threshold = float(m2.group(1))
    below = [f for c, f in zip(conf, f1) if c < threshold]
    above = [f for c, f in zip(conf, f1) if c >= threshold]
    k = math.floor(0.15 * len(conf) + 1e-9)
    srt = sorted(conf)
    cut = srt[k] if k < len(srt) else math.inf
    flagged = [i for i, c in enumerate(conf) if c < cut]
    mine = {
        "spearman": round(pearson(ranks(conf), ranks(f1)), 3),
        "pages": len(rows),
        "below": len(below),
        "mean_below": round(sum(below) / len(below), 3) if below else math.nan,
        "mean_above": round(sum(above) / len(above), 3) if above else math.nan,
        "bad": sum(1 for f in f1 if f < 0.25),
        "flagged": len(flagged),
        "caught": sum(1 for i in flagged if f1[i] < 0.25),
    }
    theirs = {
        "spearman": float(m1.group(1)),
        "pages": int(m1.group(2)),
        "below": int(m2.group(2)),
        "mean_below": float(m2.group(3)),
        "mean_above": float(m2.group(4)),
        "bad": int(m3.group(1)),
        "flagged": int(m3.group(2)),
        "caught": int(m3.group(3)),
    }
    bad = []
    for key, want in mine.items():
        got = theirs[key]
        same = (math.isnan(want) and math.isnan(got)) or abs(want - got) <= 0.0011
        if not same:
            bad.append(f"{key}: summary.md {got}, recomputed {want}")
    for b in bad:
        print(b)
    print(f"confidence_check: {len(rows)} pages, {'DISAGREES' if bad else 'agrees'}: {mine}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
