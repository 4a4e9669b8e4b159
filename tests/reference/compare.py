#!/usr/bin/env python3
"""Compares cetune's families with their reference implementations, per document.

For each pair (cetune family at its published default, reference package at its defaults) it
writes both outputs as dump folders OUT/<tool>/<package>/<id>.txt, scores them with the
independent measure of tests/rescore.py (the same measure cetune uses), and prints the mean F1
over documents of each, the mean absolute difference, and the documents where they disagree
most. It is not part of `cargo test`: it needs the reference packages, e.g.

    python3 -m venv /tmp/ref-venv
    /tmp/ref-venv/bin/pip install justext boilerpy3 readability-lxml lxml_html_clean
    /tmp/ref-venv/bin/python tests/reference/compare.py GOLDSET OUT [--cetune target/release/cetune]

GOLDSET is a native gold set (`cetune goldset import`). jusText gets, per page, the stop list
cetune used for it (OUT/cetune-justext/languages.csv, written by `cetune extract --dump`): the
page language from goldset.yaml or whatlang, English when there is none or jusText has no list.
Pairs whose cetune family is unknown, or whose package is not installed, are skipped.
"""
import argparse
import csv
import gzip
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import rescore  # noqa: E402  (tests/rescore.py: the independent measure)

# (name, cetune extract arguments, reference tool)
PAIRS = [
    ("justext", ["-e", "justext"], "justext"),
    ("boilerpipe (DefaultExtractor)", ["-e", "boilerpipe"], "boilerpy3-default"),
    ("boilerpipe (ArticleExtractor)", ["-e", "boilerpipe", "--set", "variant=words", "--set", "t_curr=16",
                                       "--set", "t_next_low=15", "--set", "t_next_high=17",
                                       "--set", "post_filters=article"], "boilerpy3-article"),
    ("readability", ["-e", "readability"], "readability-lxml"),
]

# Elements whose start and end separate text, when readability-lxml's HTML becomes text.
BLOCKS = {
    "address", "article", "aside", "blockquote", "body", "br", "caption", "center", "dd", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "html", "legend", "li", "main", "nav", "ol", "option", "p", "pre", "section", "select", "table", "tbody",
    "td", "th", "tr", "ul",
}


def html_text(html):
    """The text of an HTML fragment: text nodes in order, a line break at every block."""
    import lxml.html

    if not html.strip():
        return ""
    out = []

    def walk(e):
        block = isinstance(e.tag, str) and e.tag.lower() in BLOCKS
        out.append("\n" if block else "")
        if isinstance(e.tag, str) and e.text:
            out.append(e.text)
        for c in e:
            walk(c)
        out.append("\n" if block else "")
        if e.tail:
            out.append(e.tail)

    walk(lxml.html.document_fromstring(html))
    return "\n".join(" ".join(l.split()) for l in "".join(out).split("\n") if l.strip())


def decode(data):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def documents(goldset):
    """(package, id, page path) of every document, sorted."""
    out = []
    for pkg in sorted(os.listdir(goldset)):
        d = os.path.join(goldset, pkg)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            for ext in (".html", ".html.gz", ".htm"):
                if f.endswith(ext) and os.path.exists(os.path.join(d, f[: -len(ext)] + ".txt")):
                    out.append((pkg, f[: -len(ext)], os.path.join(d, f)))
                    break
    return out


def read_page(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    return decode(data)


def run_reference(job):
    tool, page, stoplist = job
    html = read_page(page)
    try:
        if tool == "justext":
            import justext

            paras = justext.justext(html, justext.get_stoplist(stoplist))
            return "\n".join(p.text for p in paras if not p.is_boilerplate), None
        if tool == "readability-lxml":
            import logging

            from readability import Document

            logging.getLogger("readability").setLevel(logging.CRITICAL)
            return html_text(Document(html).summary()), None
        import logging

        from boilerpy3 import extractors

        logging.getLogger("boilerpy3").setLevel(logging.CRITICAL)
        # raise_on_failure=False: boilerpy3 recovers from unbalanced end tags instead of failing.
        kind = extractors.DefaultExtractor if tool == "boilerpy3-default" else extractors.ArticleExtractor
        ex = kind(raise_on_failure=False)
        return ex.get_content(html), None
    except Exception as e:  # the reference failed on this page: an empty extract, counted
        return "", f"{type(e).__name__}: {e}"


def available(tool):
    try:
        __import__({"justext": "justext", "readability-lxml": "readability"}.get(tool, "boilerpy3"))
        return True
    except ImportError:
        return False


def score_dump(goldset, dump, docs, latin1):
    scores = {}
    for pkg, doc, _ in docs:
        gold = rescore.tokens(rescore.read_text(os.path.join(goldset, pkg, doc + ".txt")))
        path = os.path.join(dump, pkg, doc + ".txt")
        text = rescore.read_text(path) if os.path.exists(path) else ""
        scores[(pkg, doc)] = rescore.f1(gold, rescore.tokens(text, latin1))
    return scores


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("goldset")
    ap.add_argument("out")
    ap.add_argument("--cetune", default="target/release/cetune")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--show", type=int, default=5, help="disagreements shown per pair")
    ap.add_argument("--reuse", action="store_true", help="re-score the dumps already in OUT, run nothing")
    ap.add_argument("--only", action="append", help="reference tools to run (e.g. readability-lxml); default all")
    a = ap.parse_args()
    docs = documents(a.goldset)
    manifest = os.path.join(a.goldset, "goldset.yaml")
    latin1 = os.path.exists(manifest) and any(
        l.strip() == "latin1_gold: true" for l in open(manifest, encoding="utf-8")
    )
    name = os.path.basename(os.path.normpath(a.goldset))
    rows = []
    for label, args, tool in PAIRS:
        if a.only and tool not in a.only:
            continue
        if subprocess.run([a.cetune, "extractors", args[1]], capture_output=True).returncode != 0:
            print(f"skip {label}: cetune has no family {args[1]}")
            continue
        if not available(tool):
            print(f"skip {label}: {tool} is not installed")
            continue
        mine = os.path.join(a.out, "cetune-" + tool)
        if not a.reuse:
            subprocess.run([a.cetune, "extract", *args, "--goldset", a.goldset, "--dump", mine, "--force", "-q"], check=True)
        lists = {}
        with open(os.path.join(mine, "languages.csv"), newline="", encoding="utf-8") as f:
            for r in csv.DictReader(f):
                lists[(r["package"], r["id"])] = r["justext_stoplist"] or "English"
        ref = os.path.join(a.out, tool)
        jobs = [(tool, page, lists.get((pkg, doc), "English")) for pkg, doc, page in docs]
        failed = 0
        with ProcessPoolExecutor(a.jobs) as pool:
            if a.reuse:
                jobs = []
            for (pkg, doc, _), (text, err) in zip(docs, pool.map(run_reference, jobs, chunksize=8)):
                os.makedirs(os.path.join(ref, pkg), exist_ok=True)
                with open(os.path.join(ref, pkg, doc + ".txt"), "w", encoding="utf-8") as f:
                    f.write(text)
                failed += err is not None
        s_mine, s_ref = score_dump(a.goldset, mine, docs, latin1), score_dump(a.goldset, ref, docs, latin1)
        # Documents where the reference returned no text at all (its parser's failures).
        empty = {
            (pkg, doc)
            for pkg, doc, _ in docs
            if not rescore.tokens(rescore.read_text(os.path.join(ref, pkg, doc + ".txt")))
        }
        rest = [k for k in s_mine if k not in empty]
        m_rest = (sum(s_mine[k] for k in rest) / len(rest), sum(s_ref[k] for k in rest) / len(rest)) if rest else (0, 0)
        n = len(docs)
        m_mine, m_ref = sum(s_mine.values()) / n, sum(s_ref.values()) / n
        diffs = sorted(((s_mine[k] - s_ref[k], k) for k in s_mine), key=lambda x: -abs(x[0]))
        mad = sum(abs(d) for d, _ in diffs) / n
        apart = sum(abs(d) > 0.1 for d, _ in diffs)
        stops = sorted({v for v in lists.values()})
        print(f"\n{label} on {name} ({n} documents; stop lists: {', '.join(stops)}; reference failed on {failed})")
        print(f"  cetune {m_mine:.3f}  reference {m_ref:.3f}  difference {m_mine - m_ref:+.3f}  "
              f"mean |per-doc diff| {mad:.3f}  docs apart by > 0.1: {apart}")
        print(f"  reference extract empty on {len(empty)}; on the other {len(rest)}: "
              f"cetune {m_rest[0]:.3f}  reference {m_rest[1]:.3f}")
        for d, (pkg, doc) in diffs[: a.show]:
            print(f"    {pkg}/{doc}: cetune {s_mine[(pkg, doc)]:.3f}  reference {s_ref[(pkg, doc)]:.3f}")
        rows.append((label, name, n, m_mine, m_ref, mad, apart, len(empty), m_rest))
    print("\n| pair | set | documents | cetune mean F1 | reference mean F1 | difference | mean abs. per-doc difference "
          "| docs apart by > 0.1 | reference empty | cetune / reference on the others |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for label, name, n, m, r, mad, apart, e, (rm, rr) in rows:
        print(f"| {label} | {name} | {n} | {m:.3f} | {r:.3f} | {m - r:+.3f} | {mad:.3f} | {apart} | {e} | {rm:.3f} / {rr:.3f} |")


if __name__ == "__main__":
    main()
