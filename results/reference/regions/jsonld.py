#!/usr/bin/env python3
"""Census for structured data as candidate blocks (issue 38, item 4).

    jsonld.py GOLDSET

For every page of an imported gold set (KIND/ID.html[.gz] beside KIND/ID.txt), the texts of its
JSON-LD (`<script type="application/ld+json">`) fields `description`, `articleBody`, `text` and
`reviewBody`; a page counts when they hold at least 10 words. For each such page: the share of
those words the gold holds, and the share the page's visible text holds (tags stripped, scripts
and styles removed). A page where JSON-LD would add gold text no visible block holds has most of
its JSON-LD words in the gold (> 0.7) and fewer in the visible text (< 0.7). Word sets, not an
alignment: an approximate reading for a person, not the measure. Standard library only.
"""
import gzip, html, json, os, re, sys

FIELDS = ("description", "articleBody", "text", "reviewBody")


def texts(v, out, key=None):
    if isinstance(v, dict):
        for k, x in v.items():
            texts(x, out, k)
    elif isinstance(v, list):
        for x in v:
            texts(x, out, key)
    elif isinstance(v, str) and key in FIELDS:
        out.append(html.unescape(re.sub(r"<[^>]+>", " ", v)))


def page(path):
    raw = gzip.open(path).read() if path.endswith(".gz") else open(path, "rb").read()
    return raw.decode("utf-8", "replace")


def main(root):
    rows, pages = [], 0
    for kind in sorted(os.listdir(root)):
        folder = os.path.join(root, kind)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if not (name.endswith(".html") or name.endswith(".html.gz")):
                continue
            pages += 1
            doc = page(os.path.join(folder, name))
            stem = name[: name.index(".html")]
            with open(os.path.join(folder, stem + ".txt"), encoding="utf-8", errors="replace") as f:
                gold = set(f.read().lower().split())
            found = []
            for m in re.finditer(r"<script[^>]*ld\+json[^>]*>(.*?)</script>", doc, re.S | re.I):
                try:
                    texts(json.loads(m.group(1)), found)
                except ValueError:
                    pass
            words = " ".join(found).lower().split()
            if len(words) < 10:
                continue
            body = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", " ", doc, flags=re.S | re.I)
            visible = set(html.unescape(re.sub(r"<[^>]+>", " ", body)).lower().split())
            in_gold = sum(w in gold for w in words) / len(words)
            in_visible = sum(w in visible for w in words) / len(words)
            rows.append((kind, stem, len(words), in_gold, in_visible))
    print(f"# JSON-LD descriptions on `{os.path.basename(os.path.normpath(root))}`\n")
    print(f"{pages} pages; {len(rows)} carry at least 10 words of JSON-LD text "
          f"({', '.join(FIELDS)}).\n")
    print("| kind | pages with JSON-LD text | most of it in the gold | ... and not visible |")
    print("|---|---:|---:|---:|")
    kinds = sorted({r[0] for r in rows})
    for kind in kinds + ["all"]:
        sel = [r for r in rows if kind in ("all", r[0])]
        gold = [r for r in sel if r[3] > 0.7]
        hidden = [r for r in gold if r[4] < 0.7]
        print(f"| {kind} | {len(sel)} | {len(gold)} | {len(hidden)} |")
    hidden = [r for r in rows if r[3] > 0.7 and r[4] < 0.7]
    if hidden:
        print("\nPages where JSON-LD holds gold text the visible text lacks:\n")
        for kind, stem, n, g, v in hidden:
            print(f"- {kind}/{stem}: {n} words, {g:.2f} in the gold, {v:.2f} visible")


if __name__ == "__main__":
    main(sys.argv[1])
