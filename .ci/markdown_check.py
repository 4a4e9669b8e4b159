#!/usr/bin/env python3
"""Independent reading of cetune's Markdown output (`extract --format markdown`), written apart
from the Rust code: markdown-it-py (CommonMark with GitHub tables) reads each page's Markdown,
and the source page is read with render_check.py's walk (html5lib, the browser's rendering rules).

For every page of the gold set it checks:
- the Markdown parses into CommonMark blocks without raw HTML (cetune writes none: a raw HTML
  token means text was not escaped);
- its words (the text of the parsed Markdown: text, code spans, code blocks; link destinations
  and images left out) are the words of the plain-text output of the same setting, in order
  (whitespace-separated, exactly);
- every Markdown heading of level N holds a run of the words of an <hN> of the source page;
- every Markdown table has the rows x columns of the source table it came from: each of its rows
  is a row of one source table (in order), cell by cell (a cell holding its source cell's
  words in order, all or some: a setting may keep parts of a cell), a cell's colspan expanded with empty cells,
  and its width is the widest of those rows.

usage: markdown_check.py GOLDSET TXT_DUMP MD_DUMP
  GOLDSET is a native gold set; TXT_DUMP and MD_DUMP are `cetune extract ... --goldset GOLDSET
  --dump DIR` with the same setting, the second with `--format markdown`.
Prints the share of pages whose words agree, of tables and of headings that match, and exits 1
when a page's words differ or its Markdown holds raw HTML, or fewer than 99 % of the tables or
headings match.
"""
import gzip
import os
import re
import sys

from markdown_it import MarkdownIt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render_check import hidden, local, pages, parse, render_tree, words  # noqa: E402

MD = MarkdownIt("commonmark").enable("table")
CONTROL = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
TARGET = 0.99


def md_blocks(md):
    """The parsed Markdown: its text, its headings [(level, text)], its tables [[row cells]],
    and the raw HTML tokens it holds."""
    tokens = MD.parse(md)
    text, headings, tables, raw = [], [], [], []
    heading = table = row = None
    for t in tokens:
        if t.type == "heading_open":
            heading = int(t.tag[1])
        elif t.type == "heading_close":
            heading = None
        elif t.type == "table_open":
            table = []
        elif t.type == "table_close":
            tables.append(table)
            table = None
        elif t.type == "tr_open":
            row = []
        elif t.type == "tr_close":
            table.append(row)
            row = None
        elif t.type in ("fence", "code_block"):
            text.append(t.content)
        elif t.type in ("html_block",):
            raw.append(t.content)
        elif t.type == "inline":
            s = inline_text(t.children, raw)
            text.append(s)
            if heading is not None:
                headings.append((heading, s))
            if row is not None:
                row.append(s)
        text.append("\n")
    return "".join(text), headings, tables, raw


def inline_text(children, raw):
    out = []
    for c in children or []:
        if c.type == "image":
            continue  # an image's alt text is no word of the page's text
        if c.type in ("text", "text_special", "code_inline"):
            out.append(c.content)
        elif c.type in ("softbreak", "hardbreak"):
            out.append("\n")
        elif c.type == "html_inline":
            raw.append(c.content)
    return "".join(out)


def source_facts(page):
    """The source page's headings {level: [words]} and tables [[(cell words, colspan)]] (rows
    of each table, nested tables' rows not counted in the outer one)."""
    # lxml refuses characters XML does not allow (in an attribute, say); they hold no words.
    root = parse(CONTROL.sub("", page))
    root = root.getroot() if hasattr(root, "getroot") else root
    headings = {n: [] for n in range(1, 7)}
    tables = []
    for el in root.iter():
        tag = local(el.tag)
        if tag is None or any(hidden(a) for a in [el, *el.iterancestors()]):
            continue
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            headings[int(tag[1])].append(words(render_tree(el)))
        elif tag == "table":
            rows = []
            for tr in el.iter():
                if local(tr.tag) != "tr" or nearest_table(tr) is not el:
                    continue
                cells = []
                for td in tr:
                    if local(td.tag) in ("td", "th") and not hidden(td):
                        try:
                            span = max(1, min(1000, int((td.get("colspan") or "1").strip())))
                        except ValueError:
                            span = 1
                        cells.append((words(render_tree(td)), span))
                rows.append(cells)
            tables.append(rows)
    return headings, tables


def nearest_table(el):
    for a in el.iterancestors():
        if local(a.tag) == "table":
            return a
    return None


def contiguous(run, seq):
    n = len(run)
    return n == 0 or any(seq[i : i + n] == run for i in range(len(seq) - n + 1))


def within(kept, seq):
    """True when `kept` is `seq` with some words left out, the rest in order (a setting may drop
    part of a cell, such as a dateline between a byline and the text)."""
    it = iter(seq)
    return all(any(w == s for s in it) for w in kept)


def expand(row, width):
    cells = []
    for w, span in row:
        cells.append(w)
        cells.extend([[]] * (span - 1))
    return cells + [[]] * (width - len(cells)) if len(cells) <= width else None


def table_matches(md_rows, src_tables):
    """True when a source table holds every Markdown row in order, cell by cell, and the
    Markdown's width is the widest of those rows."""
    width = max(len(r) for r in md_rows)
    want = [[words(c) for c in r] for r in md_rows]
    for rows in src_tables:
        at, widest = 0, 0
        for r in want:
            while at < len(rows):
                cells = expand(rows[at], width)
                at += 1
                # A cell keeps its source cell's words in order, all, some or none (a setting
                # may keep parts of a cell); a row keeps some words.
                if cells is not None and any(r) and all(within(m, c) for m, c in zip(r, cells)):
                    widest = max(widest, sum(s for _, s in rows[at - 1]))
                    break
            else:
                break
        else:
            if widest == width:
                return True
    return False


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    goldset, txt_dump, md_dump = sys.argv[1:]
    checked = same = failures = 0
    tables = tables_ok = heads = heads_ok = unreadable = 0
    for package, doc_id, path in sorted(pages(goldset)):
        key = f"{package}/{doc_id}"
        txt_path = os.path.join(txt_dump, package, doc_id + ".txt")
        md_path = os.path.join(md_dump, package, doc_id + ".md")
        if not (os.path.exists(txt_path) and os.path.exists(md_path)):
            print(f"{key}: no output in {txt_dump} or {md_dump}")
            failures += 1
            continue
        with open(txt_path, encoding="utf-8") as f:
            want = f.read().split()
        with open(md_path, encoding="utf-8") as f:
            md = f.read()
        text, headings, md_tables, raw = md_blocks(md)
        checked += 1
        got = text.split()
        if raw:
            print(f"{key}: raw HTML in the Markdown: {raw[0][:60]!r}")
            failures += 1
        if got == want:
            same += 1
        else:
            i = 0
            while i < len(got) and i < len(want) and got[i] == want[i]:
                i += 1
            lo = max(0, i - 3)
            print(f"{key}: words differ ({len(got)} vs {len(want)}) at {i}: {got[lo:i + 4]} / {want[lo:i + 4]}")
            failures += 1
        if not (headings or md_tables):
            continue
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as f:
            try:
                src_heads, src_tables = source_facts(f.read().decode("utf-8"))
            except ValueError as e:  # lxml refuses a character an entity gives (`&#1;`)
                print(f"{key}: source not readable by lxml ({e}); its headings and tables not checked")
                unreadable += 1
                continue
        for level, h in headings:
            heads += 1
            if any(contiguous(words(h), s) for s in src_heads[level]):
                heads_ok += 1
            else:
                print(f"{key}: heading h{level} {h[:60]!r} is no run of a source h{level}")
        for t in md_tables:
            tables += 1
            if table_matches(t, src_tables):
                tables_ok += 1
            else:
                print(f"{key}: a {len(t)} x {max(len(r) for r in t)} table matches no source table's rows")
    share = lambda a, b: 100.0 * a / b if b else 100.0  # noqa: E731
    print(
        f"{md_dump}: {checked} pages, words identical on {same} ({share(same, checked):.1f} %); "
        f"tables {tables_ok}/{tables} ({share(tables_ok, tables):.1f} %); "
        f"headings {heads_ok}/{heads} ({share(heads_ok, heads):.1f} %); sources lxml cannot hold: {unreadable}"
    )
    bad = failures or share(tables_ok, tables) < 100 * TARGET or share(heads_ok, heads) < 100 * TARGET
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
