#!/usr/bin/env python3
"""Independent reading of every gold text of the shared sets, against what cetune imported.

Written apart from cetune's Rust code and sharing none of its rules: each gold file is read here
from the layout its publisher distributes (../shared/goldsets/README.md describes the layouts),
with Python's own decoding, lxml's HTML parser and the browser's rendering rules, and the word
sequence is compared with the `.txt` that `cetune goldset import` wrote for the same document.
Words are the measure's (maximal runs of Unicode letters and digits, lower-cased).

usage: gold_check.py FORMAT ORIGINAL_DIR IMPORTED_DIR
  FORMAT is cleaneval, cleanportaleval, l3s or wcxb.
Exits 1 when any document's two readings fall below word F1 0.995 (printing its id and the first
differing words), or when a document with gold words is missing from the import; documents named
in EXCEPTIONS are reported and not counted, each with its reason.
"""
import gzip
import html
import json
import os
import re
import sys

THRESHOLD = 0.995
TOKEN = re.compile(r"[^\W_]+")

# (format, id) -> reason. Only documents whose two readings disagree for a good reason.
EXCEPTIONS = {}


def words(text):
    return TOKEN.findall(text.lower())


def lcs_len(a, b):
    """Bit-parallel LCS length (Allison-Dix / Hyyro) on Python integers."""
    if not a or not b:
        return 0
    match = {}
    for i, t in enumerate(a):
        match[t] = match.get(t, 0) | (1 << i)
    mask = (1 << len(a)) - 1
    v = mask
    for t in b:
        u = v & match.get(t, 0)
        v = ((v + u) | (v - u)) & mask
    return len(a) - bin(v).count("1")


def f1(a, b):
    if not a and not b:
        return 1.0
    l = lcs_len(a, b)
    if l == 0:
        return 0.0
    return 2 * l / (len(a) + len(b))


def first_difference(a, b):
    i = 0
    while i < len(a) and i < len(b) and a[i] == b[i]:
        i += 1
    lo = max(0, i - 3)
    return " ".join(a[lo : i + 5]), " ".join(b[lo : i + 5])


def decode(raw):
    """A gold file's bytes: BOM stripped, UTF-8 when valid, else windows-1252 (Latin-1 for the
    five bytes windows-1252 leaves undefined)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return "".join(
            bytes([b]).decode("cp1252", errors="strict") if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D) else chr(b)
            for b in raw
        )


# --- CleanEval and CleanPortalEval: plain text with a URL header and <p>/<h>/<l> markers ---------

MARKER = re.compile(r"</?[phlPHL]>")


def cleaneval_gold(raw, entities):
    text = decode(raw).replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    if lines and lines[0].startswith("URL:"):
        rest = lines.pop(0)[4:].strip()
        if not rest and lines:
            lines.pop(0)  # the URL wrapped onto the next line (CleanEval 22, 28, 29)
    body = MARKER.sub("\n", "\n".join(lines))
    if entities:
        body = html.unescape(body)
    return body


def cleaneval_originals(src, entities):
    gold_dir = os.path.join(src, "GoldStandard")
    for name in sorted(os.listdir(gold_dir)):
        if name.endswith(".txt"):
            with open(os.path.join(gold_dir, name), "rb") as f:
                yield name[:-4], cleaneval_gold(f.read(), entities)


# --- L3S-GN1: the annotated page; gold is text whose innermost x-nc-sel ancestor is sel1 or sel2 --

NOT_RENDERED = {"head", "script", "style", "template", "title", "noscript", "iframe", "noembed", "noframes"}
# Elements whose CSS default display is not inline (HTML Living Standard, "Rendering", 15.3), so a
# line starts before and after them; anything else (a, b, span, em, font, ...) joins its text with
# its neighbours'.
BLOCKS = set(
    """html body address blockquote center dialog div figure figcaption footer form header hr legend
    listing main p plaintext pre search xmp article aside h1 h2 h3 h4 h5 h6 hgroup nav section dir dd dl
    dt menu ol ul li table caption colgroup col thead tbody tfoot tr td th fieldset details summary
    optgroup option frameset frame""".split()
)
# Replaced or form elements that stand between words like a word of their own.
SPACED = {"img", "input", "button", "select", "textarea", "video", "audio", "canvas", "embed", "object", "iframe"}
SEL = re.compile(r"^x-nc-sel(\d)$", re.I)


def hidden(el):
    if not isinstance(el.tag, str):
        return True  # comments, processing instructions
    if el.tag.lower() in NOT_RENDERED or el.get("hidden") is not None:
        return True
    if el.tag.lower() == "input" and (el.get("type") or "").strip().lower() == "hidden":
        return True
    style = re.sub(r"\s+", "", (el.get("style") or "").lower())
    if "display:none" in style or "visibility:hidden" in style:
        return True
    return any(c.lower() == "x-nc-invisible" for c in (el.get("class") or "").split())


def label_of(el, inherited):
    for c in (el.get("class") or "").split():
        m = SEL.match(c)
        if m:
            return int(m.group(1))
    return inherited


def l3s_gold(raw):
    import lxml.html

    root = lxml.html.document_fromstring(decode(raw))
    pieces = []  # strings for gold text, None for a break between gold runs

    def gap():
        if pieces and pieces[-1] is not None:
            pieces.append(None)

    def run(text, label):
        if not text:
            return
        if label in (1, 2) and text.strip():
            pieces.append(text)
        else:
            gap()  # whitespace or text that is not gold separates the gold on either side

    def walk(el, label):
        tag = el.tag.lower()
        if tag in BLOCKS or tag == "br" or tag in SPACED:
            gap()
        mine = label_of(el, label)
        run(el.text, mine)
        for child in el:
            if not hidden(child):
                walk(child, mine)
            run(child.tail, mine)
        if tag in BLOCKS:
            gap()

    walk(root, None)
    out = []
    for p in pieces:
        out.append(" " if p is None else p)
    return "".join(out)


def l3s_originals(src):
    gold_dir = os.path.join(src, "GoldStandard")
    for name in sorted(os.listdir(gold_dir)):
        if name.endswith(".txt"):
            with open(os.path.join(gold_dir, name), "rb") as f:
                yield name[:-4], l3s_gold(f.read())


# --- WCXB: ground-truth/NNNN.json, field ground_truth.main_content --------------------------------


def wcxb_originals(src):
    gold_dir = os.path.join(src, "ground-truth")
    for name in sorted(os.listdir(gold_dir)):
        if name.endswith(".json"):
            with open(os.path.join(gold_dir, name), "rb") as f:
                doc = json.loads(f.read().decode("utf-8"))
            yield name[:-5], (doc.get("ground_truth") or {}).get("main_content") or ""


def imported(dst):
    """id -> gold text, from the native layout (<package>/<id>.txt, gzip allowed)."""
    out = {}
    for dirpath, _, files in os.walk(dst):
        for name in files:
            path = os.path.join(dirpath, name)
            if name.endswith(".txt"):
                with open(path, "rb") as f:
                    out[name[:-4]] = f.read().decode("utf-8")
            elif name.endswith(".txt.gz"):
                with gzip.open(path, "rb") as f:
                    out[name[:-7]] = f.read().decode("utf-8")
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    fmt, src, dst = sys.argv[1:]
    readers = {
        "cleaneval": lambda: cleaneval_originals(src, False),
        "cleanportaleval": lambda: cleaneval_originals(src, True),
        "l3s": lambda: l3s_originals(src),
        "wcxb": lambda: wcxb_originals(src),
    }
    if fmt not in readers:
        sys.exit(f"unknown format {fmt}; expected one of {', '.join(readers)}")
    ours = imported(dst)
    failures = 0
    checked = 0
    below_one = 0
    worst = (1.0, None)
    for doc_id, text in readers[fmt]():
        a = words(text)
        if doc_id not in ours:
            if a:
                print(f"{fmt} {doc_id}: {len(a)} gold words in the original, missing from the import")
                failures += 1
            continue
        b = words(ours[doc_id])
        score = f1(a, b)
        checked += 1
        below_one += score < 1.0
        if score < worst[0]:
            worst = (score, doc_id)
        if score < THRESHOLD:
            if (fmt, doc_id) in EXCEPTIONS:
                print(f"{fmt} {doc_id}: F1 {score:.4f}, named exception: {EXCEPTIONS[(fmt, doc_id)]}")
                continue
            x, y = first_difference(a, b)
            print(f"{fmt} {doc_id}: F1 {score:.4f} ({len(a)} vs {len(b)} words); original: '{x}' / imported: '{y}'")
            failures += 1
    print(
        f"{fmt}: {checked} documents compared, {below_one} differ at all, worst F1 {worst[0]:.4f}"
        f" ({worst[1]}), {failures} below {THRESHOLD}"
    )
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
