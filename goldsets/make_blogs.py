#!/usr/bin/env python3
"""Generates cetune's synthetic blog gold set (goldsets/blogs/): twelve invented blog sites, each of
ten post pages and one front page, in the markup of common blog templates (written from the public
theme structure, no copied text), plus a non-blog control page; each site with an RSS feed with
full content (feed.rss), an Atom feed (feed.atom) and a summary-only feed (feed-summary.rss).
The text comes from the invented pools of make_default.py; the gold text (the posts' bodies) and
the fields (title, author, date, comments, url, lang; on a front page each post's title, author and
date under `posts:`) come from the same data as the pages, so they are exact by construction. Deterministic: two runs write identical bytes. Licence CC0-1.0."""
import html, os, random, sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "blogs")
# The same invented text pools as the default set: the part of make_default.py before its first
# function, executed without generating anything.
_src = open(os.path.join(HERE, "make_default.py"), encoding="utf-8").read()
POOLS = {}
exec(_src[_src.index("NAMES = "):_src.index("\ndef fill")], POOLS)
NAMES, TOWNS, THINGS, EN, DE, IT, COMMENTS = (POOLS[k] for k in ["NAMES", "TOWNS", "THINGS", "EN", "DE", "IT", "COMMENTS"])
THING_DE, THING_IT = POOLS["THING_DE"], POOLS["THING_IT"]
rng = random.Random(2810)

MONTHS = {"en": ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
          "de": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
          "it": ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"]}
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
RFC_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def weekday(y, m, d):
    """Zeller-free weekday (0 = Monday) by counting days from 2000-01-03, a Monday."""
    import datetime
    return datetime.date(y, m, d).weekday()


def render_date(fmt, y, m, d, lang):
    mon = MONTHS[lang][m - 1]
    if fmt == "long":        # Friday, May 11, 2012 (Blogger's date header)
        return "%s, %s %d, %d" % (DAYS[weekday(y, m, d)], mon, d, y)
    if fmt == "us":          # May 11, 2012
        return "%s %d, %d" % (mon, d, y)
    if fmt == "eu":          # 11 May 2012 / 11. Mai 2012 / 11 maggio 2012
        return ("%d. %s %d" if lang == "de" else "%d %s %d") % (d, mon, y)
    if fmt == "num":         # 11.05.2012
        return "%02d.%02d.%d" % (d, m, y)
    return "%d-%02d-%02d" % (y, m, d)


def fill(s):
    return s.format(town=rng.choice(TOWNS), thing=rng.choice(THINGS), name=rng.choice(NAMES), n=rng.randint(2, 40), p=rng.randint(20, 80),
                    thing_de=rng.choice(THING_DE), thing_it=rng.choice(THING_IT))


def paragraphs(lang, n):
    pool = {"en": EN, "de": DE, "it": IT}[lang]
    return [" ".join(fill(s) for s in rng.sample(pool, rng.randint(2, 4))) for _ in range(n)]


TITLES = {"en": ["Notes from a week at {thing}", "Why {town} should keep {thing}", "A walk past {thing} in the rain", "What the plans for {thing} mean for us",
                 "Ten years of living near {thing}", "My first meeting at the town hall of {town}", "Photos and thoughts from {town}", "The long story of {thing}",
                 "Questions nobody asked about {thing}", "A letter to the council of {town}", "Small changes in {town} this spring", "Back in {town} after a year"],
          "de": ["Notizen aus {town}", "Ein Spaziergang durch {town}", "Was die Pläne für {town} bedeuten", "Zehn Jahre in {town}", "Fragen an den Stadtrat von {town}"],
          "it": ["Appunti da {town}", "Una passeggiata a {town}", "Cosa significano i piani per {town}", "Dieci anni a {town}", "Domande al comune di {town}"]}


def title_for(lang, used):
    while True:
        t = rng.choice(TITLES[lang]).format(thing=rng.choice(THINGS), town=rng.choice(TOWNS))
        t = t[0].upper() + t[1:]
        if t not in used:
            used.add(t)
            return t


e = html.escape

# One template per site: (package, template, language, date format, shows author, title on some posts missing)
SITES = [
    ("blogger-classic", "blogger_classic", "en", "long", True, False),
    ("blogger-layouts", "blogger_layouts", "en", "long", True, False),
    ("blogger-layouts-it", "blogger_layouts", "it", "eu", True, False),
    ("wp-kubrick", "kubrick", "en", "us", True, False),
    ("wp-twentyten", "twentyten", "en", "us", True, False),
    ("wp-twentytwenty-de", "twentytwenty", "de", "eu", True, False),
    ("wordpress-com", "wpcom", "en", "us", True, True),
    ("typepad", "typepad", "en", "us", True, False),
    ("octopress", "octopress", "en", "iso", True, False),
    ("ghost", "ghost", "en", "eu", True, False),
    ("hugo", "hugo", "en", "num", False, False),
    ("medium-like", "medium", "en", "us", True, False),
]


def post_block(tpl, p, single, k):
    """The markup of one post (with its comments on a post page)."""
    t, d, a, body, pid = p["title"], p["date_text"], p["author"], p["body"], p["pid"]
    paras = "".join("<p>%s</p>\n" % e(x) for x in body)
    by = e(a) if a else ""
    ncom = len(p["comments"])
    if tpl == "blogger_classic":
        title = '<h3 class="post-title"><a href="%s">%s</a></h3>\n' % (p["path"], e(t)) if t else ""
        return ('<h2 class="date-header">%s</h2>\n<div class="post">\n%s<div class="post-body">\n%s<div style="clear:both;"></div></div>\n'
                '<p class="post-footer"><em>posted by %s at 9:%02d AM</em> <a href="%s#comments">%d comments</a></p>\n</div>\n') % (e(d), title, paras, by, k, p["path"], ncom)
    if tpl == "blogger_layouts":
        title = '<h3 class="post-title entry-title"><a href="%s">%s</a></h3>\n' % (p["path"], e(t)) if t else ""
        return ('<div class="date-outer"><h2 class="date-header"><span>%s</span></h2>\n<div class="date-posts"><div class="post-outer">\n'
                '<div class="post hentry"><a name="%d"></a>\n%s<div class="post-header"><div class="post-header-line-1"></div></div>\n'
                '<div class="post-body entry-content" id="post-body-%d">\n%s<div style="clear: both;"></div></div>\n'
                '<div class="post-footer"><div class="post-footer-line post-footer-line-1"><span class="post-author vcard">Posted by <span class="fn">%s</span></span> '
                '<span class="post-comment-link"><a class="comment-link" href="%s#comments">%d comments</a></span></div></div>\n</div></div></div></div>\n') % (
            e(d), pid, title, pid, paras, by, p["path"], ncom)
    if tpl == "kubrick":
        return ('<div class="post" id="post-%d">\n<h2><a href="%s" rel="bookmark" title="Permanent Link to %s">%s</a></h2>\n<small>%s <!-- by %s --></small>\n'
                '<div class="entry">\n%s</div>\n<p class="postmetadata">Posted in <a href="/category/town">Town</a> | <a href="%s#comments">%d Comments &#187;</a></p>\n</div>\n') % (
            pid, p["path"], e(t), e(t), e(d), by, paras, p["path"], ncom)
    if tpl == "twentyten":
        h = "h1" if single else "h2"
        return ('<div id="post-%d" class="post-%d post type-post status-publish format-standard hentry category-town">\n<%s class="entry-title"><a href="%s" rel="bookmark">%s</a></%s>\n'
                '<div class="entry-meta"><span class="meta-prep meta-prep-author">Posted on</span> <a href="%s" rel="bookmark"><span class="entry-date">%s</span></a> '
                '<span class="meta-sep">by</span> <span class="author vcard"><a class="url fn n" href="/author/x">%s</a></span></div>\n'
                '<div class="entry-content">\n%s</div>\n<div class="entry-utility">This entry was posted in <a href="/category/town">Town</a>. '
                '<span class="comments-link"><a href="%s#comments">%d Comments</a></span></div>\n</div>\n') % (
            pid, pid, h, p["path"], e(t), h, p["path"], e(d), by, paras, p["path"], ncom)
    if tpl == "twentytwenty":
        return ('<article class="post-%d post type-post status-publish format-standard hentry" id="post-%d">\n<header class="entry-header has-text-align-center">\n'
                '<h1 class="entry-title"><a href="%s">%s</a></h1>\n<div class="post-meta-wrapper"><ul class="post-meta"><li class="post-author meta-wrapper">Von %s</li>'
                '<li class="post-date meta-wrapper"><a href="%s">%s</a></li><li class="post-comment-link">%d Kommentare</li></ul></div>\n</header>\n'
                '<div class="post-inner thin"><div class="entry-content">\n%s</div></div>\n</article>\n') % (pid, pid, p["path"], e(t), by, p["path"], e(d), ncom, paras)
    if tpl == "wpcom":
        title = '<h2><a href="%s" rel="bookmark">%s</a></h2>\n' % (p["path"], e(t)) if t else ""
        return ('<div class="post" id="post-%d">\n%s<div class="postinfo"><small class="postdate">%s</small> by %s</div>\n'
                '<div class="snap_preview">\n%s</div>\n<div class="postmeta">Filed under: <a href="/category/town">Town</a> | %d Comments</div>\n</div>\n') % (
            pid, title, e(d), by, paras, ncom)
    if tpl == "typepad":
        return ('<h2 class="date-header">%s</h2>\n<div class="entry-category-town entry-author-x entry-type-post entry" id="entry-%d">\n<h3 class="entry-header"><a href="%s">%s</a></h3>\n'
                '<div class="entry-content"><div class="entry-body">\n%s</div></div>\n'
                '<p class="entry-footer"><span class="post-footers">Posted by %s on %s</span> | <a href="%s#comments">Comments (%d)</a></p>\n</div>\n') % (
            e(d), pid, p["path"], e(t), paras, by, e(d), p["path"], ncom)
    if tpl == "octopress":
        return ('<article class="hentry" role="article">\n<header><h1 class="entry-title"><a href="%s">%s</a></h1>\n'
                '<p class="meta"><time datetime="%sT09:00:00+00:00" pubdate>%s</time> | <span class="byline author vcard">Posted by <span class="fn">%s</span></span></p></header>\n'
                '<div class="entry-content">\n%s</div>\n<footer><p class="meta">%d comments</p></footer>\n</article>\n') % (p["path"], e(t), p["iso"], e(d), by, paras, ncom)
    if tpl == "ghost":
        return ('<article class="post-full post tag-town">\n<header class="post-full-header"><section class="post-full-meta"><time class="post-full-meta-date" datetime="%s">%s</time></section>\n'
                '<h1 class="post-full-title">%s</h1></header>\n<section class="post-full-content"><div class="post-content">\n%s</div></section>\n'
                '<footer class="post-full-footer"><section class="author-card"><h4 class="author-card-name"><a href="/author/x">%s</a></h4></section></footer>\n</article>\n') % (
            p["iso"], e(d), e(t), paras, by)
    if tpl == "hugo":
        return '<article>\n<h1><a href="%s">%s</a></h1>\n<time>%s</time>\n<div class="content">\n%s</div>\n</article>\n' % (p["path"], e(t), e(d), paras)
    if tpl == "medium":
        return '<article><div><section><h1>%s</h1><div><span>%s</span> · <span>%s</span></div>\n%s</section></div></article>\n' % (e(t), by, e(d), paras)
    raise ValueError(tpl)


def comments_block(tpl, p):
    cs = p["comments"]
    if not cs:
        return ""
    if tpl == "blogger_classic" or tpl == "blogger_layouts":
        return ('<div id="comments"><h4>%d comments:</h4><dl id="comments-block">\n' % len(cs) + "".join(
            '<dt class="comment-author" id="c%d"><a href="/profile/%d">%s</a> said...</dt>\n<dd class="comment-body"><p>%s</p></dd>\n<dd class="comment-footer"><span class="comment-timestamp">%s</span></dd>\n'
            % (k, k, e(who), e(txt), e(p["date_text"])) for k, (who, txt) in enumerate(cs)) + "</dl></div>\n")
    if tpl in ("kubrick", "twentyten", "wpcom", "twentytwenty"):
        return ('<h3 id="comments">%d Responses to &#8220;%s&#8221;</h3>\n<ol class="commentlist">\n' % (len(cs), e(p["title"] or "")) + "".join(
            '<li class="comment" id="comment-%d"><div class="comment-author vcard"><cite class="fn">%s</cite> <span class="says">says:</span></div>'
            '<div class="comment-meta commentmetadata">%s</div><div class="comment-body"><p>%s</p></div></li>\n' % (p["pid"] * 10 + k, e(who), e(p["date_text"]), e(txt))
            for k, (who, txt) in enumerate(cs)) + "</ol>\n")
    return ('<section class="comments"><h3>Comments</h3>' + "".join(
        '<div class="comment"><b>%s</b><p>%s</p></div>' % (e(who), e(txt)) for who, txt in cs) + "</section>\n")


def page(site, posts, single, others):
    """A whole page: head, header, breadcrumbs, the posts, a sidebar of recent posts (the titles
    again), related-post teasers quoting other posts' first sentences, footer."""
    pkg, tpl, lang = site[0], site[1], site[2]
    head_title = ("%s | %s" % (posts[0]["title"] or "Untitled", site[6])) if single else site[6]
    recent = "".join('<li><a href="%s">%s</a></li>' % (o["path"], e(o["title"] or "(untitled)")) for o in others[:5])
    teasers = ""
    if single:
        rel = [o for o in others if o is not posts[0]][:3]
        teasers = '<div class="related"><h4>Related</h4><ul>' + "".join(
            '<li><a href="%s">%s</a> &#8212; %s</li>' % (o["path"], e(o["title"] or ""), e(o["body"][0].split(". ")[0] + ".")) for o in rel) + "</ul></div>\n"
    crumbs = '<div class="breadcrumbs"><a href="/">Home</a> &#187; %s</div>\n' % e(posts[0]["title"] or "") if single else ""
    body = "".join(post_block(tpl, p, single, k) for k, p in enumerate(posts))
    if single:
        body += teasers + comments_block(tpl, posts[0])
        if posts[0]["author"]:
            body += '<div class="signature">&#8212; %s, writing from %s</div>\n' % (e(posts[0]["author"]), e(site[7]))
    wrap_open, wrap_close = {
        "blogger_classic": ('<div id="outer-wrapper"><div id="main">\n', "</div></div>\n"),
        "blogger_layouts": ('<div class="content-outer"><div class="main-inner"><div class="blog-posts hfeed">\n', "</div></div></div>\n"),
        "kubrick": ('<div id="page"><div id="content" class="narrowcolumn">\n', "</div></div>\n"),
        "twentyten": ('<div id="wrapper" class="hfeed"><div id="container"><div id="content" role="main">\n', "</div></div></div>\n"),
        "twentytwenty": ('<main id="site-content" role="main">\n', "</main>\n"),
        "wpcom": ('<div id="rap"><div id="content">\n', "</div></div>\n"),
        "typepad": ('<div id="container"><div id="alpha"><div id="alpha-inner">\n', "</div></div></div>\n"),
        "octopress": ('<div id="main"><div id="content"><div class="blog-index">\n', "</div></div></div>\n"),
        "ghost": ('<main id="site-main" class="site-main outer"><div class="inner">\n', "</div></main>\n"),
        "hugo": ("<main>\n", "</main>\n"),
        "medium": ("<main>\n", "</main>\n"),
    }[tpl]
    side = '<div id="sidebar"><h2>Recent Posts</h2><ul>%s</ul><h2>Archives</h2><ul><li><a href="/2012/05/">May 2012</a></li><li><a href="/2012/04/">April 2012</a></li></ul></div>\n' % recent
    return ('<!DOCTYPE html>\n<html lang="%s"><head><meta charset="utf-8"><title>%s</title>\n<link rel="alternate" type="application/rss+xml" title="RSS" href="/feed.rss">\n'
            '<link rel="alternate" type="application/atom+xml" title="Atom" href="/feed.atom">\n</head>\n<body>\n<div id="header"><h1 class="blog-title"><a href="/">%s</a></h1><p class="description">Notes on a small town</p></div>\n'
            '%s%s%s%s%s<div id="footer"><p>Powered by an invented engine. Content CC0.</p></div>\n</body></html>\n') % (
        lang, e(head_title), e(site[6]), crumbs, wrap_open, body, wrap_close, side)


def rfc822(p):
    y, m, d = p["ymd"]
    return "%s, %02d %s %d 09:00:00 +0000" % (RFC_DAYS[weekday(y, m, d)], d, MONTHS["en"][m - 1][:3], y)


def feeds(site, posts, base):
    name = site[6]
    items, entries, summaries = [], [], []
    for p in posts:
        full = "".join("<p>%s</p>" % e(x) for x in p["body"])
        words = " ".join(p["body"]).split()
        summary = " ".join(words[:55]) + " [&#8230;]"
        author = p["author"] or ""
        items.append("<item><title>%s</title><link>%s</link><guid>%s</guid><pubDate>%s</pubDate>%s<description>%s</description><content:encoded><![CDATA[%s]]></content:encoded></item>\n" % (
            e(p["title"] or ""), base + p["path"], base + p["path"], rfc822(p), "<dc:creator>%s</dc:creator>" % e(author) if author else "", e(summary), full))
        summaries.append("<item><title>%s</title><link>%s</link><guid>%s</guid><pubDate>%s</pubDate>%s<description>%s</description></item>\n" % (
            e(p["title"] or ""), base + p["path"], base + p["path"], rfc822(p), "<dc:creator>%s</dc:creator>" % e(author) if author else "", e(summary)))
        entries.append('<entry><title>%s</title><link rel="alternate" type="text/html" href="%s"/><id>%s</id><published>%sT09:00:00Z</published><updated>%sT09:00:00Z</updated>%s<content type="html">%s</content></entry>\n' % (
            e(p["title"] or ""), base + p["path"], base + p["path"], p["iso"], p["iso"], "<author><name>%s</name></author>" % e(author) if author else "", e(full)))
    rss = lambda its: ('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
                       "<channel><title>%s</title><link>%s/</link><description>Notes on a small town</description>\n%s</channel></rss>\n") % (e(name), base, "".join(its))
    atom = ('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>%s</title><link href="%s/"/><id>%s/</id><updated>%sT09:00:00Z</updated>\n%s</feed>\n') % (
        e(name), base, base, posts[0]["iso"], "".join(entries))
    return rss(items), atom, rss(summaries)


def yq(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def main():
    meta = []
    for si, site in enumerate(SITES):
        pkg, tpl, lang, fmt, shows_author, untitled = site
        author = rng.choice(NAMES)
        blog_name = "%s's notebook" % author.split()[0] if shows_author else "Notes from %s" % rng.choice(TOWNS)
        site = site + (blog_name, rng.choice(TOWNS))
        host = "%s.example" % pkg
        base = "https://" + host
        used, posts = set(), []
        for k in range(10):
            y, m, d = 2012, 5 - k // 4, 28 - 2 * k  # newest first, distinct days
            t = title_for(lang, used)
            if untitled and k in (3, 7):
                t = ""  # posts without a title (the paper: titles are not always there)
            body = paragraphs(lang, rng.randint(3, 6))
            n_com = rng.randint(0, 3) if k % 4 else 2
            cs = [(rng.choice([x for x in NAMES if x != author]), rng.choice(COMMENTS)) for _ in range(n_com)]
            if k % 4 == 0 and cs:
                cs[-1] = (author, "Thanks for reading! I will write more about this soon.")  # the author as a comment author
            pid = 100 + si * 37 + k * 3  # auto-incrementing ids
            posts.append({"title": t, "author": author if shows_author else None, "body": body, "comments": cs, "pid": pid,
                          "ymd": (y, m, d), "iso": "%d-%02d-%02d" % (y, m, d), "date_text": render_date(fmt, y, m, d, lang),
                          "path": "/%d/%02d/post-%d.html" % (y, m, pid)})
        d = os.path.join(OUT, pkg)
        os.makedirs(d, exist_ok=True)
        for k, p in enumerate(posts):
            pid = "%02d" % (k + 1)
            others = [o for o in posts if o is not p]
            open(os.path.join(d, pid + ".html"), "w", encoding="utf-8").write(page(site, [p], True, [p] + others))
            open(os.path.join(d, pid + ".txt"), "w", encoding="utf-8").write("\n".join(p["body"]) + "\n")
            fields = ["url: %s" % yq(base + p["path"]), "lang: %s" % lang]
            if p["title"]:
                fields.append("title: %s" % yq(p["title"]))
            if p["author"]:
                fields.append("author: %s" % yq(p["author"]))
            fields.append("date: %s" % p["iso"])
            if p["comments"]:
                fields.append("comments: %s" % yq("\n".join(txt for _, txt in p["comments"])))
            meta.append("  %s/%s: {%s}\n" % (pkg, pid, ", ".join(fields)))
        # The front page: the three newest posts; gold = their bodies.
        front = posts[:3]
        open(os.path.join(d, "front.html"), "w", encoding="utf-8").write(page(site, front, False, posts))
        open(os.path.join(d, "front.txt"), "w", encoding="utf-8").write("\n".join(x for p in front for x in p["body"]) + "\n")
        # Its fields are each post's, in page order (the paper's unit is the front page).
        posts_meta = []
        for p in front:
            pf = (["title: %s" % yq(p["title"])] if p["title"] else []) + (["author: %s" % yq(p["author"])] if p["author"] else []) + ["date: %s" % p["iso"]]
            posts_meta.append("{%s}" % ", ".join(pf))
        meta.append("  %s/front: {url: %s, lang: %s, posts: [%s]}\n" % (pkg, yq(base + "/"), lang, ", ".join(posts_meta)))
        rss, atom, summary = feeds(site, posts, base)
        for name, text in [("feed.rss", rss), ("feed.atom", atom), ("feed-summary.rss", summary)]:
            open(os.path.join(d, name), "w", encoding="utf-8").write(text)
    # The control: a news page (no blog markup): a rule family for blogs must not fire here.
    d = os.path.join(OUT, "control-news")
    os.makedirs(d, exist_ok=True)
    for k in range(1, 4):
        title = "Council votes on the future of %s" % rng.choice(THINGS)
        body = paragraphs("en", rng.randint(4, 6))
        doc = ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>%s - The Ledger</title></head>\n<body>\n<header class="masthead"><a href="/">The Ledger</a>'
               '<nav><a href="/world">World</a> <a href="/town">Town</a></nav></header>\n<main><div class="story"><h1 class="headline">%s</h1>\n<p class="byline">By %s, 12 March 2026</p>\n'
               '<div class="story-body">\n%s</div></div>\n<aside class="most-read"><h3>Most read</h3><ul><li><a href="/s/1">Storm closes mountain pass</a></li></ul></aside></main>\n'
               '<footer>&copy; 2026 The Ledger</footer>\n</body></html>\n') % (e(title), e(title), e(rng.choice(NAMES)), "".join("<p>%s</p>\n" % e(x) for x in body))
        open(os.path.join(d, "%02d.html" % k), "w", encoding="utf-8").write(doc)
        open(os.path.join(d, "%02d.txt" % k), "w", encoding="utf-8").write("\n".join(body) + "\n")
        meta.append("  control-news/%02d: {url: \"https://ledger.example/story/%d\", lang: en, title: %s}\n" % (k, k, yq(title)))
    meta.sort()
    open(os.path.join(OUT, "goldset.yaml"), "w", encoding="utf-8").write(
        "name: cetune-blogs\n"
        "description: \"Synthetic blog set of cetune: 12 invented blog sites (Blogger classic and layouts, WordPress Kubrick, Twenty Ten, Twenty Twenty, WordPress.com, TypePad, Octopress, Ghost, Hugo, a page without classes), 10 post pages and a front page each, and 3 non-blog control pages; text from the invented pools of make_default.py; gold = the posts' bodies, fields title/author/date/comments exact by construction (front pages: each post's title/author/date under posts); each site folder holds feed.rss (full content), feed.atom and feed-summary.rss.\"\n"
        "licence: \"CC0-1.0 (generated for cetune)\"\n"
        "source: \"generated by goldsets/make_blogs.py\"\n"
        "documents:\n" + "".join(meta))


main()
