"""How much gold text the blocks of structured data hold: `full_hidden` (every block of the
page, the block view's ceiling) with and without `structured: true`, page by page. A page's
structured blocks add `extract_words` words; the gold words they add to the LCS alignment are
(recall with - recall without) x gold words (the LCS of the page's text followed by them).

usage: python3 census.py WITHOUT/per-document.csv WITH/per-document.csv > census.md
"""
import csv
import sys
from collections import defaultdict


def rows(path):
    return {(r["package"], r["id"]): r for r in csv.DictReader(open(path))}


def main(without, with_):
    a, b = rows(without), rows(with_)
    kinds = defaultdict(lambda: [0, 0, 0, 0.0, 0])
    gains = []
    for key, r in sorted(a.items()):
        s = b[key]
        added = int(s["extract_words"]) - int(r["extract_words"])
        gold = (float(s["recall"]) - float(r["recall"])) * int(r["gold_words"])
        for k in (key[0], "all"):
            t = kinds[k]
            t[0] += 1
            if added > 0:
                t[1] += 1
                t[2] += added
                t[3] += gold
                t[4] += gold >= 10
        if added > 0 and gold >= 10:
            gains.append((key, added, gold, float(r["recall"]), float(s["recall"])))
    print("# Structured data's blocks on the page's gold\n")
    print(f"`full_hidden` with `structured: true` against without it, {len(a)} pages.\n")
    print("| kind | pages | with structured blocks | their words | gold words they add | pages gaining ≥ 10 gold words |")
    print("|---|---:|---:|---:|---:|---:|")
    # Sets packaged by site (one package per host) show their total only.
    shown = sorted(kinds, key=lambda k: (k == "all", k)) if len(kinds) <= 13 else ["all"]
    for k in shown:
        t = kinds[k]
        print(f"| {k} | {t[0]} | {t[1]} | {t[2]} | {t[3]:.0f} | {t[4]} |")
    print("\nPages gaining at least 10 gold words (recall of every block, without and with them):\n")
    if not gains:
        print("none")
    for (kind, id_), added, gold, r0, r1 in gains:
        print(f"- {kind}/{id_}: {added} words added, {gold:.0f} of them gold; recall {r0:.3f} -> {r1:.3f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
