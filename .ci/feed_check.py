#!/usr/bin/env python3
"""Independent reading of site feeds, against the gold set `cetune goldset from-feed` wrote.

Written from the formats (RSS 2.0, RSS 1.0/RDF, Atom 1.0; blogs.md §13.2 and §14.2), not from
cetune's Rust code: feeds are found here by their root element, parsed with lxml's XML parser
(recovering, no entity resolution, no network), entry content is rendered with lxml's HTML parser
and the browser's block rules, and each entry's link is resolved to a file of the mirror by this
script's own rules. For every entry whose page is in the mirror, the page written into the gold
set (found by its bytes) must carry the entry's text (word LCS F1 >= 0.999) when the entry is full,
and the entry's title, author and date. Words are the measure's (runs of letters and digits,
lower-cased).

usage: feed_check.py MIRROR... --gold DIR [--max-items 10] [--min-full-words 50]
       feed_check.py --make-mirror GOLDSET OUT   (the synthetic blog set as a site mirror)
Exits 1 on any difference, printing the page and the first differing words.
"""
import hashlib
import os
import posixpath
import re
import shutil
import sys
import urllib.parse
from email.utils import parsedate_tz

import lxml.etree
import lxml.html
import yaml

THRESHOLD = 0.999
TOKEN = re.compile(r"[^\W_]+")
BLOCK = {"address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure",
         "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre",
         "section", "table", "td", "th", "tr", "ul"}
ENDINGS = ("[…]", "[...]", "…", "...", "read more", "continue reading", "(more…)", "(more...)")


def words(text):
    return TOKEN.findall(text.lower())


def f1(a, b):
    """LCS F1 of two word sequences (the measure's, order included)."""
    if not a and not b:
        return 1.0
    if not a or not b:
        return 0.0
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    common = prev[-1]
    if common == 0:
        return 0.0
    p, r = common / len(a), common / len(b)
    return 2 * p * r / (p + r)


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "word %d: %r vs %r (%s | %s)" % (i, x, y, " ".join(a[max(0, i - 3):i + 4]), " ".join(b[max(0, i - 3):i + 4]))
    return "lengths %d vs %d" % (len(a), len(b))


def html_text(fragment):
    """The rendered text of an HTML fragment: text nodes, a line break at each block element."""
    if not fragment or not fragment.strip():
        return ""
    root = lxml.html.fragment_fromstring(fragment, create_parent="div")
    out = []

    def walk(e):
        tag = e.tag if isinstance(e.tag, str) else ""
        if tag in ("script", "style", "template"):
            if e.tail:
                out.append(e.tail)
            return
        if tag in BLOCK:
            out.append("\n")
        if e.text and isinstance(e.tag, str):
            out.append(e.text)
        for c in e:
            walk(c)
        if tag in BLOCK:
            out.append("\n")
        if e.tail:
            out.append(e.tail)

    walk(root)
    return "".join(out)


def local(tag):
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def child(e, name):
    for c in e:
        if local(c.tag) == name:
            return c
    return None


def text_of(e):
    return "".join(e.itertext()).strip() if e is not None else ""


def content_html(e):
    """An Atom text construct or RSS element as HTML."""
    if e is None:
        return ""
    kind = e.get("type", "")
    if kind == "xhtml":
        return "".join(lxml.etree.tostring(c, encoding="unicode") for c in e)
    raw = e.text or ""
    if kind == "text":
        return "<p>%s</p>" % raw.replace("&", "&amp;").replace("<", "&lt;")
    return raw


def iso_date(raw):
    raw = (raw or "").strip()
    if re.match(r"\d{4}-\d{2}-\d{2}", raw):
        return raw[:10]
    t = parsedate_tz(raw)
    return "%04d-%02d-%02d" % t[:3] if t else None


def read_feed(path):
    """(kind, entries) of a feed file, or None when the file is no feed."""
    with open(path, "rb") as f:
        head = f.read(4096)
    probe = re.sub(rb"<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^\[>]*(\[.*?\])?\s*>", b"", head, flags=re.S).lstrip()
    if not re.match(rb"<(rss|feed|([\w-]+:)?RDF)[\s>]", probe):
        return None
    parser = lxml.etree.XMLParser(recover=True, resolve_entities=False, no_network=True, huge_tree=False)
    root = lxml.etree.parse(path, parser).getroot()
    if root is None:
        return None
    kind = local(root.tag)
    channel = root if kind == "feed" else child(root, "channel")
    if channel is not None:
        title = text_of(child(channel, "title")).lower()
        ident = text_of(child(channel, "id"))
        hrefs = [l.get("href", "") for l in channel if local(l.tag) == "link" and l.get("rel", "alternate") != "alternate"]
        if title.startswith("comments on") or ident.endswith(".comments") or any("/comments/" in h for h in hrefs):
            return (kind, [])
    items = [e for e in root if local(e.tag) == "entry"] if kind == "feed" else [e for e in root.iter() if local(e.tag) == "item"]
    entries = []
    for it in items:
        title = child(it, "title")
        e = {"title": " ".join(html_text(text_of(title)).split()) if title is not None else None}
        if kind == "feed":
            links = [l for l in it if local(l.tag) == "link"]
            alt = [l for l in links if l.get("rel", "alternate") == "alternate"] or links
            e["link"] = alt[0].get("href") if alt else None
            author = child(it, "author")
            e["author"] = text_of(child(author, "name")) if author is not None else None
            e["date"] = iso_date(text_of(child(it, "published")) or text_of(child(it, "updated")))
            full = content_html(child(it, "content"))
            summary = content_html(child(it, "summary"))
        else:
            e["link"] = text_of(child(it, "link")) or it.get("{http://www.w3.org/1999/02/22-rdf-syntax-ns#}about")
            e["author"] = text_of(child(it, "creator")) or text_of(child(it, "author")) or None
            e["date"] = iso_date(text_of(child(it, "pubDate")) or text_of(child(it, "date")))
            full = text_of(child(it, "encoded"))
            summary = text_of(child(it, "description"))
        reply = any(local(c.tag) == "in-reply-to" for c in it)
        frag = urllib.parse.urldefrag(e["link"] or "")[1].lower()
        if reply or frag.startswith("comment") or re.fullmatch(r"c\d+", frag):
            continue
        text = html_text(full)
        e["text"] = text if text.strip() else html_text(summary)
        e["full"] = bool(text.strip()) and len(text.split()) >= MIN_FULL and not text.strip().lower().endswith(ENDINGS)
        if e["link"]:
            entries.append(e)
    return (kind, entries)


def page_file(root, feed_path, link):
    """The mirror file a link names, by this script's rules (None when not in the mirror)."""
    parts = urllib.parse.urlsplit(link.strip())
    if parts.scheme in ("http", "https") or link.startswith("//"):
        host = parts.netloc.lower().split(":")[0]
        bases = [os.path.join(root, h) for h in (host, host[4:] if host.startswith("www.") else "www." + host)]
        base = next((b for b in bases if os.path.isdir(b)), root)
        path = urllib.parse.unquote(parts.path).lstrip("/")
    else:
        rel = posixpath.normpath(posixpath.join(posixpath.dirname(os.path.relpath(feed_path, root)), urllib.parse.unquote(parts.path)))
        base, path = root, rel.lstrip("/") if rel != "." else ""
        if parts.path.endswith("/"):
            path += "/"
    query = "?" + parts.query if parts.query else ""
    cands = []
    if path.endswith("/") or path == "":
        cands.append(path + "index.html")
    else:
        cands += [path + query, path + query + ".html", path + "/index.html"]
    for c in cands:
        f = os.path.join(base, c)
        if os.path.isfile(f):
            return f
    return None


def check(mirrors, gold, max_items):
    pages = {}
    for dirpath, _, files in os.walk(gold):
        for name in files:
            if name.endswith(".html"):
                p = os.path.join(dirpath, name)
                pages[hashlib.sha1(open(p, "rb").read()).hexdigest()] = p[:-5]
    manifest = yaml.safe_load(open(os.path.join(gold, "goldset.yaml"), encoding="utf-8"))["documents"]
    # Each page's entry over every feed of the mirror (RSS and Atom of the same posts): a full
    # entry wins over a summary.
    best = {}
    for root in mirrors:
        for dirpath, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                feed_path = os.path.join(dirpath, name)
                got = read_feed(feed_path)
                for e in (got[1][:max_items] if got else []):
                    f = page_file(root, feed_path, e["link"])
                    if f is not None and (f not in best or (e["full"] and not best[f]["full"])):
                        best[f] = e
    bad, checked = 0, 0
    for f, e in sorted(best.items()):
        key = pages.get(hashlib.sha1(open(f, "rb").read()).hexdigest())
        if key is None:
            if e["full"]:
                print("feed_check: %s: the full entry's page %s is not in the gold set" % (e["link"], f))
                bad += 1
            continue
        checked += 1
        doc = manifest.get(os.path.relpath(key, gold).replace(os.sep, "/"), {})
        txt = key + ".txt"
        if e["full"]:
            a, b = words(open(txt, encoding="utf-8").read()) if os.path.isfile(txt) else [], words(e["text"])
            score = f1(a, b)
            if score < THRESHOLD:
                print("feed_check: %s: gold text F1 %.4f, %s" % (txt, score, first_difference(a, b)))
                bad += 1
        elif os.path.isfile(txt):
            print("feed_check: %s: a gold text for a summary entry" % txt)
            bad += 1
        for field in ("title", "author", "date"):
            want = e[field] or None
            have = doc.get(field)
            have = str(have) if have is not None else None
            if want != have:
                print("feed_check: %s: %s %r, the feed says %r" % (key, field, have, want))
                bad += 1
    print("feed_check: %d pages checked against their feed entries, %d differences" % (checked, bad))
    return bad == 0 and checked > 0


def make_mirror(goldset, out):
    """The synthetic set as a mirror: host/path pages (front pages as host/index.html), and the
    three feeds of each site at host/."""
    docs = yaml.safe_load(open(os.path.join(goldset, "goldset.yaml"), encoding="utf-8"))["documents"]
    for key, meta in docs.items():
        pkg, ident = key.split("/")
        parts = urllib.parse.urlsplit(meta["url"])
        if pkg == "control-news":
            continue
        path = parts.path + ("index.html" if parts.path.endswith("/") else "")
        dest = os.path.join(out, parts.netloc, path.lstrip("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(os.path.join(goldset, pkg, ident + ".html"), dest)
        for feed in ("feed.rss", "feed.atom", "feed-summary.rss"):
            shutil.copyfile(os.path.join(goldset, pkg, feed), os.path.join(out, parts.netloc, feed))


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--make-mirror"]:
        make_mirror(args[1], args[2])
        sys.exit(0)
    gold = args[args.index("--gold") + 1]
    max_items = int(args[args.index("--max-items") + 1]) if "--max-items" in args else 10
    MIN_FULL = int(args[args.index("--min-full-words") + 1]) if "--min-full-words" in args else 50
    mirrors = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or not args[i - 1].startswith("--"))]
    sys.exit(0 if check(mirrors, gold, max_items) else 1)
