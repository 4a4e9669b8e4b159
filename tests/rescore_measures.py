#!/usr/bin/env python3
"""Independent re-scoring of cetune's `bow` and `shingle4` measures from an ids-json dump.

Written from the definitions in the README (not from cetune's Rust code):
- bow: words are maximal runs of Unicode letters and digits, lower-cased, taken as multisets;
  P = |common|/|extract|, R = |common|/|gold|, F1 = 2PR/(P+R); both empty -> 1, one empty -> 0.
- shingle4: tokens are the runs of \\w (case kept); shingles are the 4-token windows (a text of
  1-3 tokens is one shingle), as multisets; P = TP/(TP+FP) when TP+FP > 0, else undefined;
  R = TP/(TP+FN) when TP+FN > 0, else undefined.

usage: rescore_measures.py MEASURE GOLDSET DUMP.json PER_DOCUMENT_CSV [TOLERANCE]
Compares precision, recall (and for bow F1) per document with cetune's per-document.csv and
exits 1 on any difference larger than TOLERANCE (default 0.001) or an undefined value that
cetune defines (or the reverse).
"""
import csv
import json
import os
import re
import sys
from collections import Counter

WORD = re.compile(r"[^\W_]+")
SHINGLE_TOKEN = re.compile(r"\w+")


def bow(extract, gold):
    e, g = Counter(w.lower() for w in WORD.findall(extract)), Counter(w.lower() for w in WORD.findall(gold))
    ne, ng, common = sum(e.values()), sum(g.values()), sum((e & g).values())
    if ne == 0 and ng == 0:
        return 1.0, 1.0, 1.0
    if ne == 0 or ng == 0:
        return 0.0, 0.0, 0.0
    p, r = common / ne, common / ng
    return p, r, (2 * p * r / (p + r) if p + r > 0 else 0.0)


def shingles(text):
    t = SHINGLE_TOKEN.findall(text)
    if not t:
        return Counter()
    if len(t) < 4:
        return Counter([tuple(t)])
    return Counter(tuple(t[i:i + 4]) for i in range(len(t) - 3))


def shingle4(extract, gold):
    e, g = shingles(extract), shingles(gold)
    tp = sum((e & g).values())
    fp, fn = sum(e.values()) - tp, sum(g.values()) - tp
    p = tp / (tp + fp) if tp + fp > 0 else None
    r = tp / (tp + fn) if tp + fn > 0 else None
    return p, r, None


def main():
    measure, goldset, dump, per_doc = sys.argv[1:5]
    tol = float(sys.argv[5]) if len(sys.argv) > 5 else 0.001
    score = {"bow": bow, "shingle4": shingle4}[measure]
    texts = json.load(open(dump, encoding="utf-8"))
    rows = list(csv.DictReader(open(per_doc, encoding="utf-8")))
    ids = [r["id"] for r in rows]
    shared = len(set(ids)) < len(ids)
    bad = 0
    for r in rows:
        key = f"{r['package']}/{r['id']}" if shared else r["id"]
        gold = open(os.path.join(goldset, r["package"], r["id"] + ".txt"), encoding="utf-8").read()
        mine = score(texts[key], gold)
        for name, want in zip(("precision", "recall", "f1"), mine):
            if want is None and name == "f1":
                continue
            got = float(r[name]) if r[name] != "" else None
            if (got is None) != (want is None) or (got is not None and abs(got - want) > tol):
                bad += 1
                print(f"{key}: {measure} {name}: cetune {got}, re-scored {want}")
    print(f"{measure}: {len(rows)} documents re-scored, {bad} differences beyond {tol}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
