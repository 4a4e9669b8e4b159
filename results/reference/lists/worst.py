#!/usr/bin/env python3
"""Error analysis: the worst pages of some kinds, what was kept and what the gold wanted.

    worst.py PER_DOCUMENT.csv[.gz] DUMP GOLDSET [--kinds collection,listing,product,service] [--n 30]

PER_DOCUMENT is `cetune evaluate`'s per-document table, DUMP the texts of the same setting
(`cetune extract --goldset GOLDSET --dump DUMP`), GOLDSET an imported gold set (KIND/ID.txt).
For each of the N pages of the kinds with the lowest F1: precision, recall, words kept and in
the gold, a failure class, and the start of the longest run of extra (kept, not gold) and of
missed (gold, not kept) words. Words are aligned with difflib's matching blocks: an approximate
reading for a person, not the measure (the scores are cetune's). Standard library only.
"""
import difflib, os, sys

from tables import emit, flag, rows


def words(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().split()
    except FileNotFoundError:
        return []


def longest_gap(a, blocks, side):
    """The longest run of `a` outside the matching blocks (side 0: a, 1: b)."""
    best, at = (0, 0), 0
    for m in blocks:
        start = m[side]
        if start - at > best[1] - best[0]:
            best = (at, start)
        at = start + m[2]
    return " ".join(a[best[0] : best[1]][:14]), best[1] - best[0]


def kind_of(p, r, kept):
    if kept == 0:
        return "empty"
    if p < 0.3 and r < 0.3:
        return "wrong part"
    if p < 0.3:
        return "too much"
    if r < 0.3:
        return "too little"
    return "partly"


def main():
    args = sys.argv[1:]
    kinds = flag(args, "--kinds", "collection,listing,product,service").split(",")
    n = int(flag(args, "--n", "30"))
    if len(args) != 3:
        sys.exit(__doc__)
    table, dump, gold = args
    pages = [r for r in rows(table) if r["package"] in kinds and not r.get("error")]
    pages.sort(key=lambda r: float(r["f1"]))
    out = [
        f"The {n} pages of {', '.join(kinds)} with the lowest F1 ({len(pages)} such pages; "
        f"{sum(float(r['f1']) < 0.25 for r in pages)} below 0.25).",
        "",
        "| kind | id | P | R | F1 | kept | gold | failure | longest extra run (kept, not gold) | longest missed run (gold, not kept) |",
        "|---|---|---:|---:|---:|---:|---:|---|---|---|",
    ]
    counts = {}
    for r in pages[:n]:
        k, i = r["package"], r["id"]
        got, want = words(os.path.join(dump, k, i + ".txt")), words(os.path.join(gold, k, i + ".txt"))
        blocks = difflib.SequenceMatcher(None, got, want, autojunk=False).get_matching_blocks()
        extra, ne = longest_gap(got, blocks, 0)
        missed, nm = longest_gap(want, blocks, 1)
        p, rc = float(r["precision"]), float(r["recall"])
        cls = kind_of(p, rc, len(got))
        counts[cls] = counts.get(cls, 0) + 1
        esc = lambda s: s.replace("|", "\\|")
        out.append(
            f"| {k} | {i} | {p:.2f} | {rc:.2f} | {float(r['f1']):.2f} | {len(got)} | {len(want)} | {cls} | "
            f"{ne} words: {esc(extra)} | {nm} words: {esc(missed)} |"
        )
    out += ["", "Failure classes: " + ", ".join(f"{c} {k}" for k, c in sorted(counts.items(), key=lambda x: -x[1])) + "."]
    emit(out)


if __name__ == "__main__":
    main()
