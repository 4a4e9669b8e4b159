#!/usr/bin/env python3
"""Independent re-scoring of a `cetune extract --dump` folder against a native gold set.

Written separately from cetune's Rust code (only the definition of the measure is shared):
words are maximal runs of Unicode letters and digits, lower-cased; overlap is the LCS of the
word sequences; P = lcs/|extract|, R = lcs/|gold|, F1 = 2PR/(P+R); both empty -> 1, one empty -> 0.

usage: rescore.py GOLDSET DUMP PER_DOCUMENT_CSV [TOLERANCE]
Compares its F1 per document with cetune's per-document.csv and exits 1 on any difference
larger than TOLERANCE (default 0.001).
"""
import csv
import os
import random
import re
import sys

TOKEN = re.compile(r"[^\W_]+")


def tokens(text, latin1_only=False):
    if latin1_only:
        text = "".join(c if ord(c) <= 0xFF else " " for c in text)
    return TOKEN.findall(text.lower())


def lcs_len(gold, extract):
    """Bit-parallel LCS length (Allison-Dix / Hyyro) on Python integers."""
    m = len(gold)
    if m == 0 or not extract:
        return 0
    match = {}
    for i, t in enumerate(gold):
        match[t] = match.get(t, 0) | (1 << i)
    mask = (1 << m) - 1
    v = mask
    for t in extract:
        u = v & match.get(t, 0)
        v = ((v + u) | (v - u)) & mask
    return m - bin(v).count("1")


def lcs_naive(a, b):
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def f1(gold, extract):
    if not gold and not extract:
        return 1.0
    if not gold or not extract:
        return 0.0
    l = lcs_len(gold, extract)
    if l == 0:
        return 0.0
    p, r = l / len(extract), l / len(gold)
    return 2 * p * r / (p + r)


def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    for enc in ("utf-8-sig",):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            pass
    return data.decode("utf-8", errors="replace")


def main():
    goldset, dump, per_doc = sys.argv[1:4]
    tol = float(sys.argv[4]) if len(sys.argv) > 4 else 0.001
    rng = random.Random(1)
    for _ in range(200):  # self-check of the fast LCS
        a = [rng.randrange(5) for _ in range(rng.randrange(40))]
        b = [rng.randrange(5) for _ in range(rng.randrange(40))]
        assert lcs_len(a, b) == lcs_naive(a, b)
    latin1 = False
    manifest = os.path.join(goldset, "goldset.yaml")
    if os.path.exists(manifest):
        latin1 = any(l.strip() == "latin1_gold: true" for l in open(manifest, encoding="utf-8"))
    worst, n, bad = 0.0, 0, 0
    with open(per_doc, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            pkg, doc = row["package"], row["id"]
            gold = tokens(read_text(os.path.join(goldset, pkg, doc + ".txt")))
            extract = tokens(read_text(os.path.join(dump, pkg, doc + ".txt")), latin1)
            mine, theirs = f1(gold, extract), float(row["f1"])
            diff = abs(mine - theirs)
            worst = max(worst, diff)
            n += 1
            if diff > tol:
                bad += 1
                print(f"{pkg}/{doc}: cetune {theirs:.6f}, independent {mine:.6f}")
    print(f"re-scored {n} documents: largest difference {worst:.6f}; {bad} above {tol}")
    print(f"rescore: {n - bad} passed, {bad} failed")
    sys.exit(1 if bad or n == 0 else 0)


if __name__ == "__main__":
    main()
