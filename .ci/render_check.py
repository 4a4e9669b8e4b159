#!/usr/bin/env python3
"""Independent reading of rendered text: pages rendered to words by the browser's rules, against
`cetune extract --extractor full`.

Written apart from cetune's Rust code: html5lib builds the tree as the HTML standard's parser
does (the same algorithm html5ever implements), and the text is taken by the rendering rules of
the HTML standard (section 15, "Rendering") and CSS `white-space: normal`:
- elements the standard does not render (`head`, `script`, `style`, `template`, `title`,
  `noscript` with scripting on, `iframe` content, `hidden`, `display: none`, `input type=hidden`)
  give no text;
- an element whose default display is not inline (15.3: `div`, `p`, `li`, headings, table parts,
  ...) and `<br>` break the line; every other element (`a`, `b`, `span`, `em`, `font`, `sup`, ...,
  the phrasing content of 3.2.5.2.5) joins its text with its neighbours' without a separator;
- replaced and form elements (`img`, `input`, `button`, `select`, `video`, ...) stand between the
  words around them like a word (they occupy a box of their own on the line);
- whitespace runs collapse; `pre` keeps them (neither changes the word sequence).
Words are the measure's (maximal runs of Unicode letters and digits, lower-cased).

usage: render_check.py GOLDSET DUMP
  GOLDSET is a native gold set (pages as <package>/<id>.html[.gz]); DUMP is the folder written by
  `cetune extract --extractor full --goldset GOLDSET --dump DUMP`.
Exits 1 when any page's two readings fall below word F1 0.995, printing the page and the first
differing words; pages named in EXCEPTIONS are reported with their reason and not counted.
"""
import gzip
import os
import re
import sys

import warnings

import html5lib

warnings.simplefilter("ignore")  # html5lib coerces non-XML names (o:p, xml:lang): harmless here

THRESHOLD = 0.995
TOKEN = re.compile(r"[^\W_]+")

# "<package>/<id>" -> reason. Only pages whose readings disagree for a good reason.
EXCEPTIONS = {}

NOT_RENDERED = {"head", "script", "style", "template", "title", "noscript", "iframe", "noembed", "noframes"}
BLOCKS = set(
    """html body address blockquote center dialog div figure figcaption footer form header hr legend
    listing main p plaintext pre search xmp article aside h1 h2 h3 h4 h5 h6 hgroup nav section dir dd dl
    dt menu ol ul li table caption colgroup col thead tbody tfoot tr td th fieldset details summary
    optgroup option frameset frame""".split()
)
SPACED = {"img", "input", "button", "select", "textarea", "video", "audio", "canvas", "embed", "object", "label"}
SPACED |= {"area", "optgroup", "option", "wbr"}


def words(text):
    return TOKEN.findall(text.lower())


def lcs_len(a, b):
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
    return 0.0 if l == 0 else 2 * l / (len(a) + len(b))


def local(tag):
    return tag.rsplit("}", 1)[-1].lower() if isinstance(tag, str) else None


def hidden(el):
    tag = local(el.tag)
    if tag is None or tag in NOT_RENDERED or el.get("hidden") is not None:
        return True
    if tag == "input" and (el.get("type") or "").strip().lower() == "hidden":
        return True
    style = re.sub(r"\s+", "", (el.get("style") or "").lower())
    return "display:none" in style or "visibility:hidden" in style


def parse(page):
    return html5lib.parse(page, treebuilder="lxml", namespaceHTMLElements=False)


def render(page):
    return render_tree(parse(page))


def render_tree(root):
    """The rendered text of a parsed page or of one element of it (markdown_check.py reads
    headings and table cells with it)."""
    out = []
    # An explicit stack instead of recursion: real pages nest deeper than Python's limit.
    stack = [("open", root.getroot() if hasattr(root, "getroot") else root)]
    while stack:
        what, el = stack.pop()
        if what == "text":
            out.append(el)
            continue
        tag = local(el.tag)
        if what == "close":
            if tag in BLOCKS:
                out.append("\n")
            continue
        if tag in BLOCKS or tag == "br":
            out.append("\n")
        elif tag in SPACED:
            out.append(" ")
        if el.text:
            out.append(el.text)
        todo = [("close", el)]
        for child in reversed(list(el)):
            if child.tail:
                todo.append(("text", child.tail))
            if not hidden(child):
                todo.append(("open", child))
        # reversed above, so pop() visits children in order; the close marker comes last
        stack.extend(todo)
    return "".join(out)


def pages(goldset):
    for dirpath, _, files in os.walk(goldset):
        for name in files:
            for ext in (".html", ".html.gz"):
                if name.endswith(ext):
                    package = os.path.relpath(dirpath, goldset)
                    yield package, name[: -len(ext)], os.path.join(dirpath, name)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    goldset, dump = sys.argv[1:]
    failures = checked = differ = 0
    worst = (1.0, None)
    for package, doc_id, path in sorted(pages(goldset)):
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as f:
            page = f.read().decode("utf-8")
        extracted = os.path.join(dump, package, doc_id + ".txt")
        if not os.path.exists(extracted):
            print(f"{package}/{doc_id}: no extract in {dump}")
            failures += 1
            continue
        with open(extracted, encoding="utf-8") as f:
            b = words(f.read())
        a = words(render(page))
        score = f1(a, b)
        checked += 1
        differ += score < 1.0
        key = f"{package}/{doc_id}"
        if score < worst[0]:
            worst = (score, key)
        if score < THRESHOLD:
            if key in EXCEPTIONS:
                print(f"{key}: F1 {score:.4f}, named exception: {EXCEPTIONS[key]}")
                continue
            i = 0
            while i < len(a) and i < len(b) and a[i] == b[i]:
                i += 1
            lo = max(0, i - 3)
            print(
                f"{key}: F1 {score:.4f} ({len(a)} vs {len(b)} words); rendered: '{' '.join(a[lo:i + 6])}'"
                f" / cetune: '{' '.join(b[lo:i + 6])}'"
            )
            failures += 1
    print(
        f"{goldset}: {checked} pages compared, {differ} differ at all, worst F1 {worst[0]:.4f} ({worst[1]}),"
        f" {failures} below {THRESHOLD}"
    )
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
