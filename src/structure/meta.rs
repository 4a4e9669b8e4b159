//! The page's metadata: title, author, date, language, canonical URL and site name, each with
//! where it was read from. One pass over the page's tags reads the `<head>`'s meta tags (Open
//! Graph, Dublin Core, the usual names), JSON-LD (`<script type="application/ld+json">`, `@graph`
//! included), microdata `itemprop`, the first `<time datetime>`, `<title>` and the first `<h1>`;
//! each field takes the first source of its order below that gives a value. Dates are written
//! `YYYY-MM-DD` by the feeds' reading of RFC 822 and ISO 8601 (`feeds::feed::iso_date`), text
//! values are HTML-decoded on one line as the feeds' titles are.
//!
//! | field | sources, in order |
//! |---|---|
//! | title | JSON-LD `headline`, `og:title`, `twitter:title`, `<h1>`, `<title>` (all but `<h1>` without their site-name parts) |
//! | author | JSON-LD `author` (`name`), `meta name=author`, `article:author`, `dc.creator`, `itemprop=author`, `meta name=byl` |
//! | date | JSON-LD `datePublished`, `article:published_time`, `itemprop=datePublished`, date meta names, `<time datetime>`, JSON-LD `dateModified` |
//! | language | `<html lang>`, `content-language`, `og:locale`, detected from the text |
//! | url | `<link rel=canonical>`, `og:url` |
//! | sitename | `og:site_name`, JSON-LD `publisher` (`name`), `application-name` |

use crate::document::hidden::attr_in;

/// One field's value and where it came from (`og:title`, `json-ld`, `title`, ...).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Field {
    /// The value.
    pub value: String,
    /// Where it was read.
    pub source: &'static str,
}

/// A page's metadata; absent fields are `None` (JSON `null`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Metadata {
    /// The title of the page's main content.
    pub title: Option<Field>,
    /// Its author.
    pub author: Option<Field>,
    /// Its publication date, `YYYY-MM-DD`.
    pub date: Option<Field>,
    /// Its language (ISO 639-1).
    pub language: Option<Field>,
    /// Its canonical URL.
    pub url: Option<Field>,
    /// The name of its site.
    pub sitename: Option<Field>,
}

/// How much of a page is read for its metadata.
const MAX_SCAN: usize = 2 << 20;

/// Candidates by (field, rank): the lowest rank wins.
#[derive(Default)]
struct Found {
    fields: [Vec<(u8, Field)>; 6],
}

const TITLE: usize = 0;
const AUTHOR: usize = 1;
const DATE: usize = 2;
const LANGUAGE: usize = 3;
const URL: usize = 4;
const SITENAME: usize = 5;

impl Found {
    fn add(&mut self, field: usize, rank: u8, value: &str, source: &'static str) {
        let value = one_line(value);
        if value.is_empty() || value.chars().count() > 500 {
            return;
        }
        if self.fields[field].iter().any(|(r, _)| *r <= rank) {
            return;
        }
        self.fields[field].push((rank, Field { value, source }));
    }
    fn best(&mut self, field: usize) -> Option<Field> {
        let v = std::mem::take(&mut self.fields[field]);
        v.into_iter().min_by_key(|(r, _)| *r).map(|(_, f)| f)
    }
}

/// A value HTML-decoded (when it holds markup or an entity) on one line.
fn one_line(s: &str) -> String {
    let t = if s.contains('<') || s.contains('&') { crate::feeds::feed::html_text(s) } else { s.to_string() };
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The metadata of a page (`detected`: the language detected from its text, the last resort).
pub fn read(html: &str, detected: Option<&str>) -> Metadata {
    let mut end = html.len().min(MAX_SCAN);
    while !html.is_char_boundary(end) {
        end -= 1;
    }
    let page = &html[..end];
    let lower = page.to_ascii_lowercase();
    let mut f = Found::default();
    let mut title_tag = None;
    let mut pos = 0;
    while let Some(k) = lower[pos..].find('<') {
        let at = pos + k;
        pos = at + 1;
        let lrest = &lower[at + 1..];
        let name_len = lrest.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'-').count();
        if name_len == 0 {
            continue;
        }
        let name = &lrest[..name_len];
        let tag_end = lrest.find('>').map_or(lrest.len(), |e| e + 1);
        let attrs = &page[at + 1 + name_len..at + 1 + tag_end];
        let attr = |n: &'static str| attr_in(attrs, n);
        let content = |n: &str| {
            lower[at + 1 + tag_end..].find(&format!("</{n}")).map(|e| &page[at + 1 + tag_end..at + 1 + tag_end + e])
        };
        match name {
            "html" => {
                if let Some(l) = attr("lang").or_else(|| attr("xml:lang")) {
                    f.add(LANGUAGE, 0, &lang_code(l), "html lang");
                }
            }
            "meta" => meta(&mut f, attrs),
            "link" => {
                if attr("rel").is_some_and(|r| r.split_whitespace().any(|w| w.eq_ignore_ascii_case("canonical")))
                    && let Some(h) = attr("href").filter(|h| is_http(h))
                {
                    f.add(URL, 0, h, "link canonical");
                }
            }
            "title" if title_tag.is_none() => title_tag = content("title").map(one_line),
            "h1" if f.fields[TITLE].iter().all(|(r, _)| *r > 3) => {
                if let Some(c) = content("h1") {
                    f.add(TITLE, 3, c, "h1");
                }
            }
            "time" => {
                if let Some(d) = attr("datetime").and_then(crate::feeds::feed::iso_date) {
                    f.add(DATE, 4, &d, "time");
                }
            }
            "script" if attr("type").is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json")) => {
                if let Some(c) = content("script")
                    && let Ok(v) = serde_json::from_str::<serde_json::Value>(c.trim())
                {
                    json_ld(&mut f, &v, 0);
                }
            }
            _ => {}
        }
        if let Some(p) = attr("itemprop") {
            let value = attr("content").or_else(|| attr("datetime"));
            match (p.trim(), value) {
                ("datePublished", Some(v)) => {
                    if let Some(d) = crate::feeds::feed::iso_date(v) {
                        f.add(DATE, 2, &d, "itemprop datePublished");
                    }
                }
                ("author", Some(v)) => f.add(AUTHOR, 4, v, "itemprop author"),
                ("headline", Some(v)) => f.add(TITLE, 2, v, "itemprop headline"),
                _ => {}
            }
        }
    }
    let sitename = f.best(SITENAME);
    if let Some(t) = title_tag {
        f.add(TITLE, 5, &t, "title");
    }
    // Titles written for sharing or the browser's tab carry the site's name too; a page's own
    // heading does not.
    for (_, t) in &mut f.fields[TITLE] {
        if t.source != "h1" {
            t.value = without_site(&t.value, sitename.as_ref().map(|s| s.value.as_str()));
        }
    }
    if let Some(l) = detected {
        f.add(LANGUAGE, 3, l, "detected");
    }
    Metadata {
        title: f.best(TITLE),
        author: f.best(AUTHOR),
        date: f.best(DATE),
        language: f.best(LANGUAGE),
        url: f.best(URL),
        sitename,
    }
}

/// An absolute `http(s)` URL.
fn is_http(u: &str) -> bool {
    let u = u.trim().to_ascii_lowercase();
    (u.starts_with("http://") || u.starts_with("https://")) && u.len() > 8
}

/// A language tag's primary subtag, lower case (`en-US` → `en`).
fn lang_code(l: &str) -> String {
    l.trim().split(['-', '_']).next().unwrap_or("").to_ascii_lowercase()
}

/// A title without its site-name parts: `A | Site`, `A - Site | Brand`, `Site: A` lose the
/// parts that are the site's name or, at the end, of at most four words (a brand).
fn without_site(title: &str, site: Option<&str>) -> String {
    const SEPS: [&str; 7] = [" | ", " - ", " – ", " — ", " :: ", " « ", " » "];
    let site = site.map(|s| s.trim().to_lowercase());
    let is_site = |p: &str| site.as_deref().is_some_and(|s| p.trim().to_lowercase() == s);
    let mut t = title.trim().to_string();
    loop {
        let cut = SEPS.iter().find_map(|sep| {
            let (head, tail) = t.rsplit_once(sep)?;
            if !head.trim().is_empty() && (is_site(tail) || tail.split_whitespace().count() <= 4) {
                return Some(head.trim().to_string());
            }
            let (head, tail) = t.split_once(sep)?;
            (is_site(head) && !tail.trim().is_empty()).then(|| tail.trim().to_string())
        });
        match cut {
            Some(c) => t = c,
            None => return t,
        }
    }
}

fn meta(f: &mut Found, attrs: &str) {
    let attr = |n: &'static str| attr_in(attrs, n);
    let Some(content) = attr("content") else { return };
    let key = attr("property").or_else(|| attr("name")).or_else(|| attr("http-equiv")).unwrap_or("");
    let key = key.trim().to_ascii_lowercase();
    let date = |f: &mut Found, rank: u8, source: &'static str| {
        if let Some(d) = crate::feeds::feed::iso_date(content) {
            f.add(DATE, rank, &d, source);
        }
    };
    let is_url = content.trim_start().starts_with("http");
    match key.as_str() {
        "og:title" => f.add(TITLE, 1, content, "og:title"),
        "twitter:title" => f.add(TITLE, 2, content, "twitter:title"),
        "author" if !is_url => f.add(AUTHOR, 1, content, "meta author"),
        "article:author" if !is_url => f.add(AUTHOR, 2, content, "article:author"),
        "dc.creator" | "dcterms.creator" if !is_url => f.add(AUTHOR, 3, content, "dc.creator"),
        "byl" => f.add(AUTHOR, 5, content.trim().trim_start_matches("By ").trim_start_matches("by "), "meta byl"),
        "article:published_time" | "og:published_time" | "og:article:published_time" => {
            date(f, 1, "article:published_time")
        }
        "date" | "pubdate" | "publishdate" | "publish-date" | "dc.date" | "dc.date.issued" | "dcterms.date"
        | "dcterms.created" | "sailthru.date" | "parsely-pub-date" | "article.published" | "published_time"
        | "datepublished" | "release_date" => date(f, 3, "meta date"),
        "article:modified_time" | "og:updated_time" => date(f, 6, "article:modified_time"),
        "content-language" => f.add(LANGUAGE, 1, &lang_code(content), "content-language"),
        "og:locale" => f.add(LANGUAGE, 2, &lang_code(content), "og:locale"),
        "og:url" if is_http(content) => f.add(URL, 1, content, "og:url"),
        "og:site_name" => f.add(SITENAME, 0, content, "og:site_name"),
        "application-name" => f.add(SITENAME, 2, content, "application-name"),
        _ => {}
    }
}

/// The fields of a JSON-LD value: its objects (in `@graph` and lists too), the first of a type
/// that describes a page's content giving the title, author and dates.
fn json_ld(f: &mut Found, v: &serde_json::Value, depth: u32) {
    if depth > 6 {
        return;
    }
    match v {
        serde_json::Value::Array(a) => a.iter().for_each(|x| json_ld(f, x, depth + 1)),
        serde_json::Value::Object(o) => {
            if let Some(g) = o.get("@graph") {
                json_ld(f, g, depth + 1);
            }
            let types: Vec<&str> = match o.get("@type") {
                Some(serde_json::Value::String(s)) => vec![s.as_str()],
                Some(serde_json::Value::Array(a)) => a.iter().filter_map(|t| t.as_str()).collect(),
                _ => Vec::new(),
            };
            let content = types.iter().any(|t| {
                t.ends_with("Article")
                    || matches!(
                        *t,
                        "BlogPosting"
                            | "Report"
                            | "Review"
                            | "Recipe"
                            | "Product"
                            | "QAPage"
                            | "Question"
                            | "DiscussionForumPosting"
                            | "TechArticle"
                            | "HowTo"
                            | "Blog"
                            | "LiveBlogPosting"
                            | "VideoObject"
                    )
            });
            let page = types.iter().any(|t| matches!(*t, "WebPage" | "ItemPage" | "AboutPage" | "CollectionPage"));
            let rank = if content {
                0
            } else if page {
                1
            } else {
                return;
            };
            let text = |k: &str| o.get(k).and_then(|x| x.as_str());
            if let Some(h) = text("headline").or_else(|| if content { text("name") } else { None }) {
                f.add(TITLE, rank, h, "json-ld");
            }
            if let Some(a) = o.get("author").and_then(name_of) {
                f.add(AUTHOR, rank, &a, "json-ld");
            }
            if let Some(d) = text("datePublished").and_then(crate::feeds::feed::iso_date) {
                f.add(DATE, rank, &d, "json-ld");
            }
            if let Some(d) = text("dateModified").and_then(crate::feeds::feed::iso_date) {
                f.add(DATE, 7, &d, "json-ld dateModified");
            }
            if let Some(p) = o.get("publisher").and_then(name_of) {
                f.add(SITENAME, 1, &p, "json-ld");
            }
            if let Some(l) = text("inLanguage") {
                f.add(LANGUAGE, 1, &lang_code(l), "json-ld");
            }
        }
        _ => {}
    }
}

/// A person's or organisation's name: a string, an object's `name`, the first of a list's.
fn name_of(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::String(s) if !s.trim_start().starts_with("http") => Some(s.clone()),
        serde_json::Value::Object(o) => o.get("name").and_then(name_of),
        serde_json::Value::Array(a) => a.iter().find_map(name_of),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_field_comes_from_its_first_source_and_says_which() {
        let page = r#"<html lang="en-GB"><head><title>Storm hits the coast | The Daily Bugle</title>
            <meta property="og:site_name" content="The Daily Bugle"><meta name="author" content="Ann Lee">
            <meta property="article:published_time" content="2021-03-04T10:00:00Z">
            <link rel="canonical" href="https://bugle.example/storm"></head>
            <body><h1>Storm &amp; coast</h1><time datetime="2020-01-01">old</time></body></html>"#;
        let m = read(page, Some("de"));
        fn get(f: &Option<Field>) -> Option<(&str, &'static str)> {
            f.as_ref().map(|f| (f.value.as_str(), f.source))
        }
        assert_eq!(get(&m.title), Some(("Storm & coast", "h1")));
        assert_eq!(get(&m.author), Some(("Ann Lee", "meta author")));
        assert_eq!(get(&m.date), Some(("2021-03-04", "article:published_time")));
        assert_eq!(get(&m.language), Some(("en", "html lang")));
        assert_eq!(get(&m.url), Some(("https://bugle.example/storm", "link canonical")));
        assert_eq!(get(&m.sitename), Some(("The Daily Bugle", "og:site_name")));
        // JSON-LD wins for the title, author and date; the <title> loses its site part.
        let ld = r#"<head><title>A post - My blog</title><script type="application/ld+json">
            {"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"My blog"},
            {"@type":"BlogPosting","headline":"A post","author":[{"@type":"Person","name":"Bo Ek"}],
            "datePublished":"2019-12-31T23:00:00+01:00","publisher":{"name":"My blog"}}]}</script></head><p>x</p>"#;
        let m = read(ld, Some("sv"));
        assert_eq!(get(&m.title), Some(("A post", "json-ld")));
        assert_eq!(get(&m.author), Some(("Bo Ek", "json-ld")));
        assert_eq!(get(&m.date), Some(("2019-12-31", "json-ld")));
        assert_eq!(get(&m.language), Some(("sv", "detected")));
        assert_eq!(get(&m.sitename), Some(("My blog", "json-ld")));
        assert_eq!(without_site("A post - My blog", None), "A post");
        assert_eq!(
            without_site("Guide to gyms: all you need - Urge Fitness | Afford", None),
            "Guide to gyms: all you need"
        );
        assert_eq!(
            without_site("The Bugle: Storm hits the coast at night", Some("The Bugle")),
            "The Bugle: Storm hits the coast at night"
        );
        assert_eq!(
            without_site("The Bugle | Storm hits the coast at night today", Some("the bugle")),
            "Storm hits the coast at night today"
        );
        assert_eq!(read("<p>nothing</p>", None), Metadata::default());
    }
}
