#!/usr/bin/env python3
"""Generates cetune's embedded default gold set: pages rendered through several invented site
templates from generated article content, and the gold text of each page from the same data."""
import html, os, random, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "default")
rng = random.Random(2026)

NAMES = ["Mara Lindqvist", "Tomas Okafor", "Helen Achterberg", "Ravi Menon", "Clara Weiss", "Jonas Berg", "Aiko Tanaka", "Luis Ortega", "Nadia Petrova", "Owen Price"]
TOWNS = ["Eastbrook", "Millhaven", "Norrwick", "Caldmoor", "Westerby", "Alderford", "Port Lenning", "Greyhollow"]
THINGS = ["the old ferry terminal", "the river bridge", "the central library", "the tram depot", "the harbour market", "the municipal pool", "the north reservoir", "the railway viaduct"]
EN = [
    "The council of {town} voted on Tuesday to reopen {thing}, which had been closed for almost three years.",
    "{name}, who chairs the planning committee, said the decision was the result of long talks with residents and local businesses.",
    "Engineers had warned that the structure needed repairs before it could safely be used again.",
    "The work is expected to cost about {n} million and should be finished before the end of next year.",
    "Several neighbours told reporters that they had waited a long time for this news and were relieved that a plan was finally in place.",
    "Critics argued that the money would have been better spent on schools and on the bus network in the outer districts.",
    "According to the latest survey, {p} percent of the people in {town} use the area at least once a week.",
    "The mayor promised that the town would publish regular updates so that everyone could follow the progress of the project.",
    "Local shop owners hope that the reopening will bring more visitors to the streets around {thing}.",
    "A first public meeting about the details of the plan will take place in the town hall next month.",
    "Some of the original stone work will be kept, while the roof and the stairs will be replaced completely.",
    "It is not the first time that the future of {thing} has divided opinion in {town}.",
    "In the nineteenth century it was one of the busiest places in the region, and many families still have stories about it.",
    "{name} added that the town would look for grants from the regional government to cover part of the cost.",
    "The opposition said it would support the plan as long as the budget was checked by an independent office.",
    "Traffic in the centre will be diverted for several weeks while the heavy machines are brought in.",
    "Volunteers from the historical society have offered to guide visitors through the site once it is safe.",
    "The last major renovation took place more than forty years ago, when the town was much smaller than it is today.",
    "Experts say that projects of this kind often take longer than planned, because old buildings hide many surprises.",
    "For now, the fences around {thing} will stay in place, and people are asked to keep away from the site.",
]
DE = [
    "Der Stadtrat von {town} hat am Dienstag beschlossen, {thing_de} nach fast drei Jahren wieder zu öffnen.",
    "{name}, die den Bauausschuss leitet, sagte, die Entscheidung sei das Ergebnis langer Gespräche mit den Anwohnern.",
    "Die Ingenieure hatten gewarnt, dass das Gebäude vor einer neuen Nutzung dringend repariert werden muss.",
    "Die Arbeiten sollen etwa {n} Millionen Euro kosten und bis zum Ende des nächsten Jahres abgeschlossen sein.",
    "Viele Nachbarn sagten, dass sie lange auf diese Nachricht gewartet hätten und froh seien, dass es nun einen Plan gibt.",
    "Kritiker meinen, dass das Geld besser für die Schulen und für den Busverkehr in den Außenbezirken ausgegeben worden wäre.",
    "Nach einer aktuellen Umfrage nutzen {p} Prozent der Menschen in {town} den Ort mindestens einmal in der Woche.",
    "Der Bürgermeister versprach, dass die Stadt regelmäßig über den Stand der Arbeiten informieren wird.",
    "Die Geschäftsleute in der Nähe hoffen, dass durch die Öffnung wieder mehr Besucher in die Straßen kommen.",
    "Eine erste Bürgerversammlung zu den Einzelheiten des Plans findet im nächsten Monat im Rathaus statt.",
    "Ein Teil der alten Mauern wird erhalten, während das Dach und die Treppen vollständig ersetzt werden.",
    "Es ist nicht das erste Mal, dass die Zukunft des Gebäudes in der Stadt für Streit sorgt.",
]
IT = [
    "Il consiglio comunale di {town} ha deciso martedì di riaprire {thing_it}, che era chiuso da quasi tre anni.",
    "{name}, che presiede la commissione urbanistica, ha detto che la decisione è il risultato di lunghi incontri con i residenti.",
    "Gli ingegneri avevano avvertito che la struttura aveva bisogno di lavori prima di poter essere usata di nuovo.",
    "I lavori dovrebbero costare circa {n} milioni di euro e finire prima della fine del prossimo anno.",
    "Molti vicini hanno detto di aver aspettato a lungo questa notizia e di essere contenti che ci sia finalmente un piano.",
    "I critici sostengono che il denaro sarebbe stato speso meglio per le scuole e per gli autobus nelle zone periferiche.",
    "Secondo un recente sondaggio, il {p} per cento degli abitanti di {town} frequenta la zona almeno una volta alla settimana.",
    "Il sindaco ha promesso che il comune pubblicherà aggiornamenti regolari sullo stato dei lavori.",
    "I commercianti della zona sperano che la riapertura porti più visitatori nelle strade del centro.",
    "Una prima assemblea pubblica sui dettagli del progetto si terrà il mese prossimo nel municipio.",
    "Una parte delle vecchie mura sarà conservata, mentre il tetto e le scale saranno sostituiti del tutto.",
    "Non è la prima volta che il futuro di questo luogo divide l'opinione della città.",
]
THING_DE = ["das alte Fährhaus", "die Flussbrücke", "die Stadtbibliothek", "das Straßenbahndepot", "die Markthalle am Hafen"]
THING_IT = ["il vecchio terminal dei traghetti", "il ponte sul fiume", "la biblioteca civica", "il deposito dei tram", "il mercato del porto"]
COMMENTS = [
    "Great post, thanks for sharing all these details. I tried the same thing last summer and it worked for me too.",
    "I am not sure I agree with the last part. In my experience it depends a lot on the weather and on the tools you have.",
    "This is exactly what I was looking for. Could you write a follow up with more pictures of the result?",
    "We did something similar in our garden, but we used cheaper wood and regretted it after one winter.",
    "Thanks! Bookmarked for the weekend.",
]
PRODUCTS = [("Trailhead 40 Backpack", "backpack"), ("Lumen Desk Lamp", "desk lamp"), ("Fjord Rain Jacket", "rain jacket"), ("Brewmate Kettle", "kettle"), ("Quietstep Running Shoe", "running shoe"), ("Atlas Folding Table", "folding table")]
WIKI = ["Millhaven Canal", "Alder Moth", "Greyhollow Castle", "Norrwick Dialect", "Caldmoor Railway", "Westerby Cheese", "Port Lenning Lighthouse", "Eastbrook Festival"]

def fill(s, lang):
    return s.format(town=rng.choice(TOWNS), thing=rng.choice(THINGS), name=rng.choice(NAMES), n=rng.randint(2, 40), p=rng.randint(20, 80),
                    thing_de=rng.choice(THING_DE), thing_it=rng.choice(THING_IT))

def paragraphs(lang, n_par, per=(2, 4)):
    pool = {"en": EN, "de": DE, "it": IT}[lang]
    out = []
    for _ in range(n_par):
        k = rng.randint(*per)
        out.append(" ".join(fill(s, lang) for s in rng.sample(pool, k)))
    return out

def linkify(p):
    """Puts an inline link around a few words of a paragraph; the text stays the same."""
    words = p.split(" ")
    if len(words) < 8:
        return html.escape(p)
    i = rng.randint(1, len(words) - 4)
    return html.escape(" ".join(words[:i])) + ' <a href="/topic/%d">' % rng.randint(1, 999) + html.escape(" ".join(words[i:i + 2])) + "</a> " + html.escape(" ".join(words[i + 2:]))

NAV = {"en": ["Home", "World", "Politics", "Business", "Sport", "Culture", "Science", "Travel", "Opinion", "Video"],
       "de": ["Startseite", "Politik", "Wirtschaft", "Sport", "Kultur", "Wissen", "Reisen", "Meinung"],
       "it": ["Home", "Cronaca", "Politica", "Economia", "Sport", "Cultura", "Viaggi", "Opinioni"]}
TEASERS = ["Storm closes mountain pass for the weekend", "New cycle lanes divide the old town", "Local team wins the regional cup",
           "Museum shows forgotten maps of the coast", "Prices for bread rise again", "School opens a rooftop garden", "Night trains return to the valley"]

def nav(lang, long=False):
    items = NAV[lang] * (5 if long else 1)
    return "<ul class=\"nav\">" + "".join('<li><a href="/%s%d">%s</a></li>' % (x.lower(), i, x) for i, x in enumerate(items)) + "</ul>"

def boiler_top(lang, title, tpl):
    head = ("<!DOCTYPE html>\n<html lang=\"%s\"><head><meta charset=\"utf-8\"><title>%s</title>"
            "<style>body{font-family:sans-serif} .ad{background:#eee}</style>"
            "<script>window.dataLayer=[];function track(e){dataLayer.push({event:e, page:'article'});}</script></head>\n<body>\n") % (lang, html.escape(title))
    cookie = '<div class="cookie">We use cookies to improve your experience. <a href="/privacy">Privacy policy</a> <button>Accept</button></div>\n'
    if tpl == 0:
        return head + cookie + '<header><a href="/" class="logo">The Daily Ledger</a>' + nav(lang) + "</header>\n"
    if tpl == 1:
        return head + "<!-- header start -->\n<div id=\"top\"><div class=\"brand\">Coastline Courier</div>" + nav(lang, long=True) + '<form class="search"><input type="text" name="q"><button>Search</button></form></div>\n' + cookie
    return head + '<table width="100%"><tr><td colspan="2" class="masthead">Valley Gazette &nbsp;|&nbsp; <a href="/">Front page</a> &nbsp; <a href="/archive">Archive</a> &nbsp; <a href="/contact">Contact</a></td></tr><tr><td class="menu" valign="top">' + nav(lang) + "</td><td>\n"

def boiler_bottom(lang, tpl):
    teasers = "".join('<li><a href="/story/%d">%s</a></li>' % (i, t) for i, t in enumerate(rng.sample(TEASERS, 4)))
    side = '<aside class="side"><h3>Most read</h3><ul>%s</ul><div class="ad">Advertisement: Fresh coffee delivered every morning. <a href="/ad">Order now</a></div></aside>\n' % teasers
    share = '<div class="share"><a href="/share/fb">Share</a> <a href="/share/tw">Post</a> <a href="/share/mail">Email</a></div>\n'
    news = '<form class="newsletter"><p>Get our newsletter every Friday.</p><input type="email"><button>Sign up</button></form>\n'
    foot = '<footer><p>&copy; 2026 Example Media. All rights reserved.</p><a href="/imprint">Imprint</a> | <a href="/privacy">Privacy</a> | <a href="/terms">Terms</a> | <a href="/jobs">Jobs</a> | <a href="/ads">Advertise</a></footer>\n<noscript>Please enable JavaScript for comments.</noscript>\n'
    end = "<script>track('view');</script>\n</body></html>\n"
    if tpl == 2:
        return share + "</td></tr></table>\n" + side + foot + end
    return share + side + news + foot + end

def page(lang, title, blocks, tpl, extra_after="", byline=None, style=0):
    """blocks: list of (kind, text) with kind h1/h2/p/caption; returns (html, gold)."""
    out, gold = [], []
    for kind, text in blocks:
        gold.append(text)
        if kind == "p":
            body = linkify(text) if rng.random() < 0.4 else html.escape(text)
            if style == 1:
                out.append("<p>" + body + "\n")            # unclosed <p>
            elif style == 2:
                out.append(body + "<br><br>\n")              # <br><br> paragraphs
            elif style == 3:
                out.append("<P>" + body + "</P>\n")          # upper-case tags
            else:
                out.append("<p>" + body + "</p>\n")
        elif kind == "caption":
            out.append('<figure><img src="/img/%d.jpg" alt=""><figcaption>%s</figcaption></figure>\n' % (rng.randint(1, 99), html.escape(text)))
        else:
            out.append("<%s>%s</%s>\n" % (kind, html.escape(text), kind))
    crumbs = '<div class="breadcrumb"><a href="/">Home</a> &gt; <a href="/section">Section</a></div>\n'
    body = "".join(out)
    if style == 4:  # article split by an inline ad
        half = len(out) // 2
        body = '<div class="part">' + "".join(out[:half]) + '</div><div class="ad">Advertisement <a href="/ad2">Win a trip</a></div><div class="part">' + "".join(out[half:]) + "</div>"
    doc = boiler_top(lang, title, tpl) + crumbs + '<main><article>\n' + body + "</article>" + extra_after + "</main>\n" + boiler_bottom(lang, tpl)
    return doc, "\n\n".join(gold)

def write(pkg, i, lang, doc, gold, url):
    d = os.path.join(OUT, pkg)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "%02d.html" % i), "w", encoding="utf-8").write(doc)
    open(os.path.join(d, "%02d.txt" % i), "w", encoding="utf-8").write(gold + "\n")
    return "  %s/%02d: {url: \"%s\", lang: %s}\n" % (pkg, i, url, lang)

meta = []
# news: 12 (2 de, 2 it); one brief, varied styles
langs = ["en"] * 8 + ["de", "de", "it", "it"]
for i, lang in enumerate(langs, 1):
    n_par = 1 if i == 5 else rng.randint(4, 8)
    title = {"en": "Council votes to reopen %s" % rng.choice(THINGS), "de": "Stadtrat stimmt für die Öffnung", "it": "Il comune approva la riapertura"}[lang]
    by = {"en": "By %s, %s" % (rng.choice(NAMES), "12 March 2026"), "de": "Von %s, 12. März 2026" % rng.choice(NAMES), "it": "Di %s, 12 marzo 2026" % rng.choice(NAMES)}[lang]
    blocks = [("h1", title), ("p", by)] + [("p", p) for p in paragraphs(lang, n_par)]
    if i % 4 == 0:
        blocks.insert(3, ("caption", "The site as it looks today, photographed from the street."))
    doc, gold = page(lang, title, blocks, tpl=i % 3, style=[0, 1, 0, 3, 0, 4, 0, 0, 2, 0, 0, 0][i - 1])
    meta.append(write("news", i, lang, doc, gold, "https://news-%d.test/2026/%02d/story" % (i % 3, i)))
# blog: 10 (1 it, 1 de), with comments
for i, lang in enumerate(["en"] * 8 + ["it", "de"], 1):
    title = {"en": "What I learned restoring %s" % rng.choice(THINGS).replace("the ", "an "), "de": "Was ich beim Renovieren gelernt habe", "it": "Cosa ho imparato restaurando casa"}[lang]
    blocks = [("h1", title)] + [("p", p) for p in paragraphs(lang, rng.randint(4, 7))]
    comments = '<section class="comments"><h3>%d comments</h3>' % 4 + "".join(
        '<div class="comment"><span class="author">%s</span> <span class="date">2 days ago</span><p>%s</p><a href="#reply">Reply</a></div>' % (rng.choice(NAMES), html.escape(c))
        for c in rng.sample(COMMENTS, 4)) + "</section>"
    doc, gold = page(lang, title, blocks, tpl=(i + 1) % 3, extra_after=comments)
    meta.append(write("blog", i, lang, doc, gold, "https://blog-%d.test/posts/%d" % (i % 3, i)))
# forum: 10 (1 de, 1 it): gold = title + posts
for i, lang in enumerate(["en"] * 8 + ["de", "it"], 1):
    title = {"en": "Anyone else following the plans for %s?" % rng.choice(THINGS), "de": "Verfolgt noch jemand die Pläne der Stadt?", "it": "Qualcuno segue i piani del comune?"}[lang]
    posts = [" ".join(fill(s, lang) for s in rng.sample({"en": EN, "de": DE, "it": IT}[lang], rng.randint(1, 3))) for _ in range(rng.randint(4, 8))]
    out = ['<h1 class="thread">%s</h1>' % html.escape(title)]
    for k, p in enumerate(posts):
        out.append('<div class="post"><div class="userinfo"><a href="/u/%d">%s</a><br>Posts: %d<br>Joined: 2019</div><div class="msg">%s</div><div class="sig">-- sent from my garden shed</div><div class="tools"><a href="#q">Quote</a> <a href="#r">Reply</a></div></div>\n'
                   % (k, rng.choice(NAMES).split()[0].lower(), rng.randint(3, 900), html.escape(p)))
    pager = '<div class="pager"><a href="?p=1">1</a> <a href="?p=2">2</a> <a href="?p=3">Next</a></div>'
    doc = boiler_top(lang, title, i % 3) + "<main>" + "".join(out) + pager + "</main>\n" + boiler_bottom(lang, i % 3)
    meta.append(write("forum", i, lang, doc, "\n\n".join([title] + posts), "https://forum-%d.test/t/%d" % (i % 3, i)))
# wiki: 10 (1 de, 1 it): title + sections
for i, lang in enumerate(["en"] * 8 + ["de", "it"], 1):
    title = WIKI[(i - 1) % len(WIKI)] + ("" if lang == "en" else {"de": " (Deutsch)", "it": " (italiano)"}[lang])
    heads = {"en": ["History", "Description", "Reception", "Today"], "de": ["Geschichte", "Beschreibung", "Heute"], "it": ["Storia", "Descrizione", "Oggi"]}[lang]
    blocks = [("h1", title)] + [("p", paragraphs(lang, 1, (3, 5))[0])]
    for h in heads:
        blocks.append(("h2", h))
        blocks += [("p", p) for p in paragraphs(lang, rng.randint(1, 3))]
    toc = '<div class="toc"><b>Contents</b><ol>' + "".join('<li><a href="#%s">%s</a></li>' % (h, h) for h in heads) + "</ol></div>"
    edit = '<div class="catlinks">Categories: <a href="/c/1">Places</a> | <a href="/c/2">History</a> | <a href="/c/3">Stubs</a></div>'
    doc, gold = page(lang, title, blocks, tpl=i % 3, extra_after=edit)
    doc = doc.replace("<main><article>", "<main>" + toc + "<article>", 1)
    meta.append(write("wiki", i, lang, doc, gold, "https://wiki-%d.test/wiki/%d" % (i % 3, i)))
# shop: 6
for i, (name, kind) in enumerate(PRODUCTS, 1):
    desc = ["The %s is built for everyday use and for long trips alike." % name,
            "It is made from recycled materials and weighs less than most models in its class.",
            "Every %s is tested in our workshop before it leaves the warehouse, and we offer a two year warranty." % kind,
            "Care: wipe with a damp cloth and let it dry at room temperature."]
    blocks = [("h1", name), ("p", " ".join(desc[:2])), ("p", " ".join(desc[2:]))]
    reviews = '<section class="reviews"><h3>Customer reviews</h3><p>4.5 of 5 stars</p><div class="review">Great value, arrived quickly.</div><div class="review">Smaller than I expected.</div></section>'
    related = '<section class="related"><h3>You may also like</h3><ul>' + "".join('<li><a href="/p/%d">%s</a> <span class="price">%d.99</span></li>' % (k, p[0], 20 + k) for k, p in enumerate(PRODUCTS)) + "</ul></section>"
    doc, gold = page("en", name, blocks, tpl=i % 3, extra_after='<div class="buy"><span class="price">49.99</span> <button>Add to cart</button></div>' + reviews + related)
    meta.append(write("shop", i, "en", doc, gold, "https://shop-%d.test/p/%d" % (i % 3, i)))

open(os.path.join(OUT, "goldset.yaml"), "w", encoding="utf-8").write(
    "name: cetune-default\n"
    "description: \"Embedded default gold set of cetune: 48 pages generated for the project (no copied pages) from invented text in English, German and Italian, rendered through several invented site templates with navigation, cookie banners, ads, teasers, comments, signatures and footers; the gold text comes from the same data as the page.\"\n"
    "licence: \"CC0-1.0 (generated for cetune)\"\n"
    "source: \"generated by goldsets/make_default.py\"\n"
    "documents:\n" + "".join(meta))
