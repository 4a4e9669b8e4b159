//! Feeds as `goldset from-feed` (and so wrapper learning) reads them (`blogs.md` §13.2): RSS 2.0
//! (`item`: `title`, `link`, `dc:creator`/`author`, `pubDate`, `content:encoded`,
//! `description`), Atom 1.0 (`entry`: `title`, `link rel=alternate`, `author/name`,
//! `published` else `updated`, `content` else `summary`) and RSS 1.0/RDF (`item`, `dc:date`,
//! `dc:creator`), read by the entity-safe [`super::xml`] reader, whatever the file is called.
//! HTML inside `content`/`description` is parsed with the DOM parser and its rendered text,
//! block boundaries as newlines, is the entry's text. An entry is `full` when it has full content
//! (`content:encoded`, Atom `content`) of at least `min_full_words` words that does not end in a
//! truncation marker; else it is a summary.

use super::xml::{self, Element, Xml, local};

use crate::structure::meta::{html_text, iso_date};

/// The feed formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// RSS 2.0 (and 0.9x).
    Rss2,
    /// RSS 1.0 (RDF).
    Rdf,
    /// Atom 1.0.
    Atom,
}

impl Kind {
    /// Its name in reports (`rss`, `rdf`, `atom`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Rss2 => "rss",
            Kind::Rdf => "rdf",
            Kind::Atom => "atom",
        }
    }
}

/// One feed entry.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entry {
    /// Title (text; HTML in it rendered).
    pub title: Option<String>,
    /// Permalink as written (maybe relative).
    pub link: Option<String>,
    /// Author name.
    pub author: Option<String>,
    /// Publication date as written.
    pub date_raw: Option<String>,
    /// Publication date `YYYY-MM-DD`, when it could be read (the local date as written).
    pub date: Option<String>,
    /// The full content's HTML (`content:encoded`, Atom `content`).
    pub content_html: Option<String>,
    /// The summary's HTML (`description`, Atom `summary`).
    pub summary_html: Option<String>,
    /// The entry's text: the full content's when there is one, else the summary's.
    pub text: String,
    /// Words of [`Entry::text`].
    pub words: usize,
    /// The text is the whole post (see the module documentation).
    pub full: bool,
    /// A comment, not a post: a `thr:in-reply-to` element, or a link to a comment anchor
    /// (`#comment-12`, Blogger's `#c123`).
    pub reply: bool,
}

/// A parsed feed.
#[derive(Debug, Clone, PartialEq)]
pub struct Feed {
    /// Its format.
    pub kind: Kind,
    /// The channel's title.
    pub title: Option<String>,
    /// The channel's language (`language`, `xml:lang`).
    pub lang: Option<String>,
    /// The site's address: the channel's `link` (RSS), the feed's `link rel=alternate` (Atom).
    pub link: Option<String>,
    /// A comment feed (Blogger's `feeds/<post>/comments/default`, WordPress's `<post>/feed/`):
    /// its id ends in `.comments`, its own links name a `comments` feed, or its title starts
    /// with "Comments on".
    pub comments: bool,
    /// Entries in feed order.
    pub entries: Vec<Entry>,
    /// What the reader repaired.
    pub notes: Vec<String>,
}

/// Endings that mark a clipped entry.
const TRUNCATION: &[&str] = &["[…]", "[...]", "…", "...", "read more", "continue reading", "(more…)", "(more...)"];

/// Words of the content below which an entry is a summary (`min_full_words`).
pub const MIN_FULL_WORDS: usize = 50;

/// True when the text (start of) looks like a feed: an XML root `rss`, `feed` or `rdf:RDF`.
pub fn looks_like_feed(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}');
    let mut rest = t.trim_start();
    // Skip the XML declaration, comments, processing instructions and the DOCTYPE.
    for _ in 0..16 {
        if let Some(r) = rest.strip_prefix("<?") {
            rest = r.split_once("?>").map_or("", |x| x.1).trim_start();
        } else if let Some(r) = rest.strip_prefix("<!--") {
            rest = r.split_once("-->").map_or("", |x| x.1).trim_start();
        } else if let Some(r) = rest.strip_prefix("<!") {
            // A DOCTYPE's internal subset (`[<!ENTITY ...>]`) holds '>' of its own.
            let end = match (r.find('['), r.find('>')) {
                (Some(b), Some(g)) if b < g => r[b..].find("]").map_or(r.len(), |e| b + e),
                _ => 0,
            };
            rest = r[end..].split_once('>').map_or("", |x| x.1).trim_start();
        } else {
            break;
        }
    }
    let Some(r) = rest.strip_prefix('<') else { return false };
    let name: String = r.chars().take_while(|c| !c.is_whitespace() && *c != '>' && *c != '/').collect();
    matches!(local(&name), "rss" | "feed" | "RDF")
}

/// Parses a feed; `None` when the text is not one (its root is not `rss`, `feed` or `RDF`).
pub fn parse(text: &str, min_full_words: usize) -> Option<Feed> {
    if !looks_like_feed(text) {
        return None;
    }
    let x = xml::parse(text);
    let root = x.root()?;
    let kind = match local(&root.name) {
        "rss" => Kind::Rss2,
        "RDF" => Kind::Rdf,
        "feed" => Kind::Atom,
        _ => return None,
    };
    let mut feed = Feed {
        kind,
        title: None,
        lang: None,
        link: None,
        comments: false,
        entries: Vec::new(),
        notes: x.notes.clone(),
    };
    let channel = if kind == Kind::Atom { Some(root) } else { find_local(&x, root, "channel") };
    if let Some(ch) = channel {
        feed.title = find_local(&x, ch, "title").map(|t| plain(&t.text));
        feed.lang = find_local(&x, ch, "language").map(|l| l.text.trim().to_string()).filter(|l| !l.is_empty());
        let links: Vec<&Element> = x.children(ch).filter(|c| local(&c.name) == "link").collect();
        feed.link = links
            .iter()
            .find_map(|l| match l.attr("href") {
                Some(h) if l.attr("rel").is_none_or(|r| r == "alternate") => Some(h.trim().to_string()),
                Some(_) => None,
                None => Some(l.text.trim().to_string()).filter(|t| !t.is_empty()),
            })
            .filter(|l| !l.is_empty());
        let id = find_local(&x, ch, "id").map(|i| i.text.trim().to_string()).unwrap_or_default();
        let own = links.iter().filter(|l| l.attr("rel").is_some_and(|r| r != "alternate"));
        feed.comments = id.ends_with(".comments")
            || own.filter_map(|l| l.attr("href")).any(|h| h.contains("/comments/"))
            || feed.title.as_deref().is_some_and(|t| t.to_lowercase().starts_with("comments on"));
    }
    if feed.lang.is_none() {
        feed.lang = root.attr("lang").map(str::to_string);
    }
    let items: Vec<&Element> = match kind {
        Kind::Atom => x.children(root).filter(|c| local(&c.name) == "entry").collect(),
        // RSS 2.0: items in the channel; RSS 1.0: items beside it (some feeds put them inside).
        _ => x.descendants(root).into_iter().filter(|c| local(&c.name) == "item").collect(),
    };
    for it in items {
        feed.entries.push(entry(&x, it, kind, min_full_words));
    }
    Some(feed)
}

/// The first child of `e` whose local name is `name`.
fn find_local<'a>(x: &'a Xml, e: &'a Element, name: &str) -> Option<&'a Element> {
    x.children(e).find(|c| local(&c.name) == name)
}

/// A child's text by qualified name (`content:encoded`) or local name, trimmed, non-empty.
fn text_of(x: &Xml, e: &Element, names: &[&str]) -> Option<String> {
    for n in names {
        let c = if n.contains(':') { x.child(e, n) } else { find_local(x, e, n) };
        if let Some(c) = c {
            let t = c.text.trim();
            if !t.is_empty() {
                return Some(t.to_string());
            }
        }
    }
    None
}

fn entry(x: &Xml, it: &Element, kind: Kind, min_full_words: usize) -> Entry {
    let mut e = Entry { title: text_of(x, it, &["title"]).map(|t| plain(&t)), ..Entry::default() };
    match kind {
        Kind::Atom => {
            let links: Vec<&Element> = x.children(it).filter(|c| local(&c.name) == "link").collect();
            e.link = links
                .iter()
                .find(|l| l.attr("rel").is_none_or(|r| r == "alternate"))
                .or(links.first())
                .and_then(|l| l.attr("href"))
                .map(str::to_string);
            e.author = find_local(x, it, "author").and_then(|a| text_of(x, a, &["name"]));
            e.date_raw = text_of(x, it, &["published", "updated", "issued"]);
            e.content_html = find_local(x, it, "content").and_then(|c| atom_html(x, c));
            e.summary_html = find_local(x, it, "summary").and_then(|c| atom_html(x, c));
        }
        _ => {
            e.link = text_of(x, it, &["link"]).or_else(|| it.attr("about").map(str::to_string)).or_else(|| {
                find_local(x, it, "guid")
                    .filter(|g| g.attr("isPermaLink").is_none_or(|p| p == "true"))
                    .map(|g| g.text.trim().to_string())
            });
            e.author = text_of(x, it, &["dc:creator", "creator", "author"]);
            e.date_raw = text_of(x, it, &["pubDate", "dc:date", "date"]);
            e.content_html = text_of(x, it, &["content:encoded", "encoded"]);
            e.summary_html = text_of(x, it, &["description"]);
        }
    }
    e.date = e.date_raw.as_deref().and_then(iso_date);
    let anchor = e.link.as_deref().and_then(|l| l.split_once('#')).map(|(_, f)| f.to_ascii_lowercase());
    e.reply = x.children(it).any(|c| local(&c.name) == "in-reply-to")
        || anchor.is_some_and(|f| {
            f.starts_with("comment")
                || (f.len() > 1 && f.starts_with('c') && f[1..].bytes().all(|b| b.is_ascii_digit()))
        });
    let content_text = e.content_html.as_deref().map(html_text).filter(|t| !t.is_empty());
    let words = |t: &str| t.split_whitespace().count();
    match content_text {
        Some(t) => {
            e.words = words(&t);
            e.full = e.words >= min_full_words && !truncated(&t);
            e.text = t;
        }
        None => {
            e.text = e.summary_html.as_deref().map(html_text).unwrap_or_default();
            e.words = words(&e.text);
        }
    }
    e
}

/// An Atom text construct's HTML: `type="xhtml"` content is the markup of its children (read
/// back from the tree as the reader keeps it: text only), `html` and `text` are their text.
fn atom_html(x: &Xml, c: &Element) -> Option<String> {
    let mut s = c.text.trim().to_string();
    if s.is_empty() && !c.children.is_empty() {
        // xhtml: a div holding the markup; keep its text with block boundaries between children.
        let parts: Vec<String> =
            x.descendants(c).iter().map(|d| d.text.trim().to_string()).filter(|t| !t.is_empty()).collect();
        s = parts.iter().map(|p| format!("<p>{}</p>", escape(p))).collect();
    } else if c.attr("type").is_some_and(|t| t == "text") {
        s = escape(&s);
    }
    (!s.is_empty()).then_some(s)
}

/// Escapes text for HTML.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// True when a text ends in a truncation marker.
pub fn truncated(text: &str) -> bool {
    let t = text.trim_end().to_lowercase();
    TRUNCATION.iter().any(|m| t.ends_with(m))
}

/// A title or name: HTML decoded and rendered on one line.
fn plain(s: &str) -> String {
    let t = if s.contains('<') || s.contains('&') { html_text(s) } else { s.to_string() };
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(n: usize) -> String {
        (0..n).map(|i| format!("word{i}")).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn rss2_with_full_content_and_summary() {
        let f = format!(
            r#"<?xml version="1.0"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>B&#x27;s</title><language>en-us</language>
<item><title>One &amp; two</title><link>https://b.example/1</link><pubDate>Mon, 28 May 2012 09:00:00 +0000</pubDate><dc:creator>Ann Lee</dc:creator><description>Short [&amp;#8230;]</description><content:encoded><![CDATA[<p>{}</p><p>Second &eacute; para</p>]]></content:encoded></item>
<item><title>Two</title><link>https://b.example/2</link><pubDate>Sun, 27 May 2012 09:00:00 +0000</pubDate><description>Only a summary [&amp;#8230;]</description></item>
</channel></rss>"#,
            body(60)
        );
        let feed = parse(&f, MIN_FULL_WORDS).unwrap();
        assert_eq!((feed.kind, feed.title.as_deref(), feed.lang.as_deref()), (Kind::Rss2, Some("B's"), Some("en-us")));
        let e = &feed.entries[0];
        assert_eq!(e.title.as_deref(), Some("One & two"));
        assert_eq!((e.author.as_deref(), e.date.as_deref()), (Some("Ann Lee"), Some("2012-05-28")));
        assert!(e.full);
        assert!(e.text.ends_with("\nSecond é para"), "{}", e.text);
        assert_eq!(e.words, 63);
        let s = &feed.entries[1];
        assert!(!s.full);
        assert_eq!(s.text, "Only a summary […]");
    }

    #[test]
    fn atom_entries_with_html_text_and_xhtml_content() {
        let f = format!(
            r#"<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="es"><title>T</title>
<entry><title type="html">Caf&amp;eacute;</title><link rel="replies" href="https://x.example/c"/><link rel="alternate" type="text/html" href="https://x.example/2011/03/a.html"/><author><name>Jorge</name></author><published>2011-03-03T11:32:00-08:00</published><content type="html">&lt;p&gt;{}&lt;/p&gt;</content></entry>
<entry><title>Sum</title><link href="/b.html"/><updated>2011-03-01T00:00:00Z</updated><summary type="text">a &lt; b</summary></entry>
<entry><title>X</title><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>first</p><p>second</p></div></content></entry>
</feed>"#,
            body(55)
        );
        let feed = parse(&f, MIN_FULL_WORDS).unwrap();
        assert_eq!((feed.kind, feed.lang.as_deref()), (Kind::Atom, Some("es")));
        let e = &feed.entries[0];
        assert_eq!(e.title.as_deref(), Some("Café"));
        assert_eq!(e.link.as_deref(), Some("https://x.example/2011/03/a.html"));
        assert_eq!((e.author.as_deref(), e.date.as_deref(), e.full), (Some("Jorge"), Some("2011-03-03"), true));
        let s = &feed.entries[1];
        assert_eq!((s.link.as_deref(), s.text.as_str(), s.full), (Some("/b.html"), "a < b", false));
        assert_eq!(feed.entries[2].text, "first\nsecond");
    }

    #[test]
    fn rdf_items_beside_the_channel() {
        let f = r#"<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel rdf:about="x"><title>R</title></channel>
<item rdf:about="https://r.example/p1"><title>P1</title><link>https://r.example/p1</link><dc:date>2004-02-01T10:00:00+01:00</dc:date><dc:creator>Kim</dc:creator><description>Hello world</description></item></rdf:RDF>"#;
        let feed = parse(f, MIN_FULL_WORDS).unwrap();
        assert_eq!(feed.kind, Kind::Rdf);
        let e = &feed.entries[0];
        assert_eq!(
            (e.title.as_deref(), e.link.as_deref(), e.author.as_deref(), e.date.as_deref()),
            (Some("P1"), Some("https://r.example/p1"), Some("Kim"), Some("2004-02-01"))
        );
        assert_eq!((e.text.as_str(), e.full), ("Hello world", false));
    }

    #[test]
    fn not_a_feed_and_truncated_feeds() {
        assert!(parse("<!DOCTYPE html><html><body>x</body></html>", 50).is_none());
        assert!(looks_like_feed("\u{feff}<?xml version='1.0'?>\n<!-- x --><rss>"));
        assert!(looks_like_feed("<?xml version='1.0'?><!DOCTYPE rss [<!ENTITY a \"b\"><!ENTITY c \"&a;\">]><rss>"));
        let cut = "<rss><channel><item><title>A</title><link>https://a/1</link></item><item><title>B</ti";
        let feed = parse(cut, 50).unwrap();
        assert_eq!(feed.entries.len(), 2);
        assert!(!feed.notes.is_empty());
        // A full-content entry that ends in a truncation marker is a summary.
        let f = format!(
            "<rss><channel><item><content:encoded>{} Read more</content:encoded></item></channel></rss>",
            body(80)
        );
        assert!(!parse(&f, 50).unwrap().entries[0].full);
    }

    #[test]
    fn dates() {
        assert_eq!(iso_date("Thu, 03 Mar 2011 19:32:00 +0000").as_deref(), Some("2011-03-03"));
        assert_eq!(iso_date("3 Mar 11 19:32 GMT").as_deref(), Some("2011-03-03"));
        assert_eq!(iso_date("2011-03-03T11:32:00.001-08:00").as_deref(), Some("2011-03-03"));
        assert_eq!(iso_date("yesterday"), None);
    }
}
