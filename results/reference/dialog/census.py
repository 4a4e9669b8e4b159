#!/usr/bin/env python3
"""How much text of a gold set's pages sits inside dialogs and aria-hidden subtrees, and how
much of it the gold holds. A dialog is a `<dialog>` or an element with role dialog/alertdialog
or aria-modal="true" (the outermost one counts); script, style, noscript and template are
dropped first. "In the gold" is a bag-of-words overlap (each word counted at most as often as
the gold has it), so it also counts words that occur in the gold by chance: an upper bound.
Usage: census.py GOLDSET... (imported gold sets: <package>/<id>.html[.gz] beside <id>.txt).
Needs lxml (installed with readability-lxml)."""
import glob
import gzip
import os
import re
import sys
from collections import Counter

from lxml import html as LH


def words(t):
    return re.findall(r"\w+", t.lower())


def outer_words(doc, xpath):
    found = doc.xpath(xpath)
    inside = set(found)
    w = []
    for e in found:
        if not any(a in inside for a in e.iterancestors()):
            w += words(e.text_content())
    return w


print("| set | pages | pages with ≥ 10 words in dialogs | their words | share in the gold (upper bound) | pages with ≥ 10 words aria-hidden | their words | share in the gold (upper bound) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for root in sys.argv[1:]:
    pages = 0
    stats = {"d": [0, 0, 0], "a": [0, 0, 0]}
    for f in sorted(glob.glob(os.path.join(root, "**", "*.html*"), recursive=True)):
        gf = re.sub(r"\.html(\.gz)?$", "", f) + ".txt"
        if not os.path.exists(gf):
            continue
        raw = gzip.open(f, "rb").read() if f.endswith(".gz") else open(f, "rb").read()
        try:
            doc = LH.fromstring(raw)
        except Exception:
            continue
        for bad in doc.xpath("//script|//style|//noscript|//template"):
            bad.drop_tree()
        gold = Counter(words(open(gf, encoding="utf-8", errors="replace").read()))
        pages += 1
        for key, xpath in [
            ("d", '//dialog|//*[@role="dialog" or @role="alertdialog" or @aria-modal="true"]'),
            ("a", '//*[@aria-hidden="true"]'),
        ]:
            w = outer_words(doc, xpath)
            if len(w) >= 10:
                s = stats[key]
                s[0] += 1
                s[1] += len(w)
                s[2] += sum(min(c, gold[k]) for k, c in Counter(w).items())
    d, a = stats["d"], stats["a"]
    share = lambda s: f"{s[2] / s[1]:.3f}" if s[1] else "—"
    name = os.path.basename(os.path.normpath(root))
    print(f"| {name} | {pages} | {d[0]} | {d[1]} | {share(d)} | {a[0]} | {a[1]} | {share(a)} |")
