//! The page's metadata: title, author, date, language, canonical URL and site name, each with
//! where it was read from. One pass over the page's tags reads the `<head>`'s meta tags (Open
//! Graph, Dublin Core, the usual names), JSON-LD (`<script type="application/ld+json">`, `@graph`
//! included), microdata `itemprop`, the first `<time datetime>`, `<title>` and the first `<h1>`;
//! each field takes the first source of its order below that gives a value. Dates are written
//! `YYYY-MM-DD` by the reading of RFC 822 and ISO 8601 that feeds share ([`iso_date`]) or, in
//! the visible text, by [`human_date`] (`February 8, 2022`, `8 Feb 2022`, `08.02.2022`); text
//! values are HTML-decoded on one line ([`html_text`]) as the feeds' titles are. The visible-text sources come
//! after the page's own statements (meta tags, JSON-LD), as htmldate orders them.
//!
//! | field | sources, in order |
//! |---|---|
//! | title | JSON-LD `headline`, `og:title`, `twitter:title`, `<h1>`, `<title>` (all but `<h1>` without their site-name parts) |
//! | author | JSON-LD `author` (`name`, or the `@id` of a person elsewhere in the page's JSON-LD), `meta name=author`, `article:author`, `dc.creator`, `itemprop=author`, `meta name=byl`, the text of an element marked as the author (`rel=author`, `itemprop=author`, a class or id naming the author or byline), `by NAME` in the `<title>` |
//! | date | JSON-LD `datePublished`, `article:published_time`, `itemprop=datePublished`, date meta names, `<time datetime>`, a date written for readers in a `<time>` or in an element whose class or id names a date, a publication date in the page's script data, `/YYYY/MM/DD/` in the canonical URL, JSON-LD `dateModified` |
//! | language | `<html lang>`, `content-language`, `og:locale`, detected from the text |
//! | url | `<link rel=canonical>`, `og:url` |
//! | sitename | `og:site_name`, JSON-LD `publisher` (`name`), `application-name` |

use crate::document::hidden::attr_in;
use crate::document::{Document, Needs, Selection, View};
use crate::limits::Limits;

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
    /// JSON-LD authors given by `@id` (rank, id), resolved once every object is read.
    author_ids: Vec<(u8, String)>,
    /// JSON-LD names by `@id`.
    names: Vec<(String, String)>,
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
    let t = if s.contains('<') || s.contains('&') { html_text(s) } else { s.to_string() };
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The metadata of a page (`detected`: the language detected from its text, the last resort;
/// `url`: where the page was fetched, for a date in its path).
pub fn read(html: &str, detected: Option<&str>, url: Option<&str>) -> Metadata {
    let mut end = html.len().min(MAX_SCAN);
    while !html.is_char_boundary(end) {
        end -= 1;
    }
    let page = &html[..end];
    let lower = page.to_ascii_lowercase();
    let mut f = Found::default();
    let mut title_tag = None;
    let mut seen_h1 = false;
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
            "h1" => {
                seen_h1 = true;
                if f.fields[TITLE].iter().all(|(r, _)| *r > 3)
                    && let Some(c) = content("h1")
                {
                    f.add(TITLE, 3, c, "h1");
                }
            }
            "time" => {
                if let Some(d) = attr("datetime").and_then(iso_date) {
                    f.add(DATE, 4, &d, "time");
                } else if let Some(d) = content("time").and_then(|c| human_date(&one_line(short(c)))) {
                    f.add(DATE, 5, &d, "time text");
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
        if !matches!(name, "meta" | "link" | "script" | "style" | "title" | "img" | "html" | "head" | "body") {
            marked(&mut f, name, attrs, || content(name));
            // A date alone in an element (`<p>January 31, 2024</p>`, `Published on Oct 31,
            // 2025`): the first after the page's <h1>, else the first before it.
            let rank = if seen_h1 { 7 } else { 9 };
            if !matches!(name, "a" | "option" | "textarea" | "noscript" | "svg" | "path")
                && f.fields[DATE].iter().all(|(r, _)| *r > rank)
                && let Some(d) = lone_date(&page[(at + 1 + tag_end).min(page.len())..])
            {
                f.add(DATE, rank, &d, if seen_h1 { "date alone" } else { "date alone before h1" });
            }
        }
        if let Some(p) = attr("itemprop") {
            // `<abbr itemprop=datePublished title=…>` (Blogger's templates) gives it in `title`.
            let value = attr("content")
                .or_else(|| attr("datetime"))
                .or_else(|| if name == "abbr" { attr("title") } else { None });
            match (p.trim(), value) {
                ("datePublished", Some(v)) => {
                    if let Some(d) = iso_date(v) {
                        f.add(DATE, 2, &d, "itemprop datePublished");
                    }
                }
                ("author", Some(v)) => f.add(AUTHOR, 4, v, "itemprop author"),
                ("headline", Some(v)) => f.add(TITLE, 2, v, "itemprop headline"),
                _ => {}
            }
        }
    }
    for (rank, id) in std::mem::take(&mut f.author_ids) {
        if let Some((_, n)) = f.names.iter().find(|(i, _)| *i == id) {
            let n = n.clone();
            f.add(AUTHOR, rank, &n, "json-ld");
        }
    }
    if let Some(d) = script_date(&lower) {
        f.add(DATE, 8, &d, "script data");
    }
    if let Some(d) = url.and_then(url_date) {
        f.add(DATE, 8, &d, "url");
    } else if let Some(d) = f.fields[URL].iter().min_by_key(|(r, _)| *r).and_then(|(_, u)| url_date(&u.value)) {
        f.add(DATE, 8, &d, "canonical url");
    }
    if let Some(d) = script_key_date(&lower, "\"date\"") {
        f.add(DATE, 9, &d, "script data date");
    }
    let sitename = f.best(SITENAME);
    if let Some(t) = title_tag {
        if let Some(a) = by_in_title(&t) {
            f.add(AUTHOR, 8, &a, "title by");
        }
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
        if let Some(d) = iso_date(content).or_else(|| human_date(content)) {
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
        "article:modified_time" | "og:updated_time" => date(f, 10, "article:modified_time"),
        k if (k.contains("publish") || k.ends_with("date"))
            && !["modif", "updat", "expir", "valid", "creat"].iter().any(|w| k.contains(w)) =>
        {
            date(f, 4, "meta date")
        }
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
            if let (Some(id), Some(n)) = (o.get("@id").and_then(|x| x.as_str()), o.get("name").and_then(name_of)) {
                f.names.push((id.to_string(), n));
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
            if let Some(a) = o.get("author") {
                match (name_of(a), id_of(a)) {
                    (Some(n), _) => f.add(AUTHOR, rank, &n, "json-ld"),
                    (None, Some(id)) => f.author_ids.push((rank, id)),
                    (None, None) => {}
                }
            }
            if let Some(d) = text("datePublished").and_then(iso_date) {
                f.add(DATE, rank, &d, "json-ld");
            }
            if let Some(d) = text("dateModified").and_then(iso_date) {
                f.add(DATE, 11, &d, "json-ld dateModified");
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

/// The `@id` an author is given by (an object with no name, or the first of a list's).
fn id_of(v: &serde_json::Value) -> Option<String> {
    match v {
        serde_json::Value::Object(o) => o.get("@id").and_then(|x| x.as_str()).map(String::from),
        serde_json::Value::Array(a) => a.iter().find_map(id_of),
        _ => None,
    }
}

/// The start of an element's inner markup: what a byline or a date line holds.
fn short(c: &str) -> &str {
    let mut end = c.len().min(600);
    while !c.is_char_boundary(end) {
        end -= 1;
    }
    &c[..end]
}

/// An element the page marks as its author or its date: `rel=author` or `itemprop=author` on
/// an element with text, or a class or id naming the author, the byline or the date. Its text
/// (only the start of it is read) gives the author when it reads as a name, the date when it
/// holds one.
fn marked<'a>(f: &mut Found, tag: &str, attrs: &str, content: impl Fn() -> Option<&'a str>) {
    let attr = |n: &'static str| attr_in(attrs, n);
    let names = format!("{} {}", attr("class").unwrap_or(""), attr("id").unwrap_or("")).to_ascii_lowercase();
    let rel_author = attr("rel").is_some_and(|r| r.eq_ignore_ascii_case("author"))
        || (attr("itemprop").is_some_and(|p| p.trim() == "author") && attr("content").is_none());
    // A class naming the author's name, or the author and nothing else (not its picture, bio
    // or the date beside it).
    let author_class = names.split_whitespace().any(|t| {
        (t.contains("author") || t.contains("byline"))
            && (t.contains("name")
                || ![
                    "avatar", "img", "image", "photo", "bio", "desc", "date", "time", "social", "share", "label",
                    "wrap",
                ]
                .iter()
                .any(|w| t.contains(w)))
    });
    let date_class =
        ["date", "publish", "posted", "dateline", "byline", "meta", "time"].iter().any(|w| names.contains(w))
            && !["update", "modif", "reading", "read-time", "readtime"].iter().any(|w| names.contains(w));
    let author = rel_author || author_class;
    // A link is read for its author only (a date in a link is an archive's, not the page's).
    if !(author || (date_class && tag != "a")) {
        return;
    }
    // The element's text, read (and decoded) once for both fields.
    let mut text: Option<Option<String>> = None;
    let mut text = || text.get_or_insert_with(|| content().map(|c| one_line(short(c)))).clone();
    if author
        && f.fields[AUTHOR].iter().all(|(r, _)| *r > 6)
        && let Some(n) = text().and_then(|t| person(&t))
    {
        f.add(AUTHOR, if rel_author { 6 } else { 7 }, &n, if rel_author { "rel author" } else { "byline" });
    }
    if date_class
        && tag != "a"
        && f.fields[DATE].iter().all(|(r, _)| *r > 6)
        && let Some(d) = text().and_then(|t| human_date(&t))
    {
        f.add(DATE, 6, &d, "date text");
    }
}

/// A byline's text as a person's name: without `By`, `Written by`, `Author:`, at most six words,
/// no digits, none of the words a label or a date line has.
fn person(text: &str) -> Option<String> {
    let mut t = text.trim();
    for p in ["written by", "posted by", "authored by", "author:", "by:", "by", "von"] {
        if t.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p))
            && t.as_bytes().get(p.len()).is_some_and(|b| !b.is_ascii_alphanumeric())
        {
            t = t[p.len()..].trim_start_matches([':', ' ']);
            break;
        }
    }
    let t = t.trim().trim_end_matches([',', '|', '·', '•', '-']).trim();
    let words = t.split_whitespace().count();
    let bad =
        ["published", "updated", "posted", "share", "follow", "min read", "comments", "avatar", "view all", "about"];
    (!t.is_empty()
        && words <= 6
        && t.chars().count() <= 60
        && !t.chars().any(|c| c.is_ascii_digit() || matches!(c, '@' | '/' | '{' | '<' | '>'))
        && t.chars().next().is_some_and(char::is_alphabetic)
        && !bad.iter().any(|b| t.to_lowercase().contains(b)))
    .then(|| t.to_string())
}

/// `by NAME` between separators in a title (`A post | by Ann Lee | Blog`).
fn by_in_title(title: &str) -> Option<String> {
    title.split(" | ").chain(title.split(" - ")).find_map(|part| {
        let p = part.trim();
        p.get(..3).is_some_and(|b| b.eq_ignore_ascii_case("by ")).then(|| person(p)).flatten()
    })
}

/// The first publication date in the page's script data (a site's own state: `"publishedDate":
/// "2019-08-16T…"`), read in the lower-cased page.
fn script_date(lower: &str) -> Option<String> {
    const KEYS: [&str; 10] = [
        "\"datepublished\"",
        "publisheddate",
        "published_on",
        "first_publication_date",
        "publishdate",
        "published_at",
        "publicationdate",
        "date_published",
        "publishedat",
        "\"pubdate\"",
    ];
    KEYS.iter()
        .filter_map(|k| {
            let at = lower.find(k)?;
            script_key_date(&lower[at..], k).map(|d| (at, d))
        })
        .min_by_key(|(at, _)| *at)
        .map(|(_, d)| d)
}

/// The ISO date given to the first `key` of `lower` that has one, within its first ten uses.
fn script_key_date(lower: &str, key: &str) -> Option<String> {
    lower.match_indices(key).take(10).find_map(|(at, _)| {
        let rest = &lower[at + key.len()..];
        let rest = rest.trim_start_matches(['"', '\\', ' ']).strip_prefix(':')?;
        let rest = rest.trim_start_matches(['"', '\\', ' ']);
        let mut end = rest.len().min(30);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        iso_date(rest[..end].split(['"', '\\']).next()?)
    })
}

/// A date that is all an element's first text says, but for a label (`Published on`, `Last
/// updated:`, `-`): read from the text after the element's start tag up to the next tag.
fn lone_date(after: &str) -> Option<String> {
    let end = after.find('<').unwrap_or(after.len()).min(120);
    let mut cut = end;
    while !after.is_char_boundary(cut) {
        cut -= 1;
    }
    let text = &after[..cut];
    if !text.bytes().any(|b| b.is_ascii_digit()) || text.split_whitespace().count() > 8 {
        return None;
    }
    human_date(text.trim())
}

/// A date in a URL's path: `/2025/09/04/`.
fn url_date(url: &str) -> Option<String> {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let parts: Vec<&str> = path.split('/').collect();
    // A segment that starts `2025-12-17-`.
    if let Some(d) = parts.iter().skip(3).find_map(|p| {
        let b = p.as_bytes();
        (b.len() >= 10 && b[4] == b'-' && b[7] == b'-' && (b.len() == 10 || !b[10].is_ascii_digit()))
            .then(|| iso_date(&p[..10]))
            .flatten()
    }) {
        return Some(d);
    }
    parts.windows(3).find_map(|w| {
        let ok = w[0].len() == 4 && (1..=2).contains(&w[1].len()) && (1..=2).contains(&w[2].len());
        let all_digits = w.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()));
        if !(ok && all_digits) {
            return None;
        }
        valid_date(w[0].parse().ok()?, w[1].parse().ok()?, w[2].parse().ok()?)
    })
}

fn valid_date(y: u32, m: u32, d: u32) -> Option<String> {
    ((1990..=2100).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d))
        .then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// English month names, matched by their first three letters (`Sept.` and `September` too).
const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/// Month names of other languages written in full (German, French, Spanish, Italian,
/// Portuguese, Dutch, Indonesian), by month.
const MONTH_NAMES: [&[&str]; 12] = [
    &["januar", "janvier", "enero", "gennaio", "janeiro", "januari"],
    &["februar", "février", "fevrier", "febrero", "febbraio", "fevereiro", "februari"],
    &["märz", "maerz", "mars", "marzo", "março", "marco", "maart", "maret"],
    &["avril", "abril", "aprile", "april"],
    &["mai", "mayo", "maggio", "maio", "mei"],
    &["juni", "juin", "junio", "giugno", "junho"],
    &["juli", "juillet", "julio", "luglio", "julho"],
    &["august", "août", "aout", "agosto", "augustus", "agustus"],
    &["september", "septembre", "septiembre", "setiembre", "settembre", "setembro"],
    &["oktober", "octobre", "octubre", "ottobre", "outubro"],
    &["november", "novembre", "noviembre", "novembro", "nopember"],
    &["dezember", "décembre", "decembre", "diciembre", "dicembre", "dezembro", "desember"],
];

/// The first calendar date written for readers in `text`: `February 8, 2022`, `Feb. 8th, 2022`,
/// `8 February 2022`, `9 de septiembre de 2013`, `2022-02-08`, `2022/02/08` or `08.02.2022` (day
/// first), as `YYYY-MM-DD`.
pub(crate) fn human_date(text: &str) -> Option<String> {
    // Runs of letters or digits, with the character after each.
    let mut runs: Vec<(&str, char)> = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                runs.push((&text[s..i], c));
                start = None;
            }
            _ => {}
        }
    }
    // Words between a day, its month and its year: `9 de septiembre de 2013`, `3rd of May`.
    runs.retain(|(w, _)| !["de", "del", "di", "of", "den", "der"].iter().any(|c| w.eq_ignore_ascii_case(c)));
    let month = |w: &str| {
        let l = w.to_lowercase();
        if let Some(m) = MONTH_NAMES.iter().position(|names| names.contains(&l.as_str())) {
            return Some(m as u32 + 1);
        }
        let full = [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ];
        (l.len() >= 3 && l.chars().all(|c| c.is_ascii_alphabetic()))
            .then(|| MONTHS.iter().position(|m| l.starts_with(m) && (l.len() <= 4 || full.iter().any(|f| *f == l))))
            .flatten()
            .map(|m| m as u32 + 1)
    };
    let day = |w: &str| {
        let d = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let suffix = &w[d.len()..];
        (matches!(suffix, "" | "st" | "nd" | "rd" | "th") && (1..=2).contains(&d.len()))
            .then(|| d.parse::<u32>().ok())
            .flatten()
    };
    let year = |w: &str| (w.len() == 4).then(|| w.parse::<u32>().ok()).flatten();
    for i in 0..runs.len() {
        let (a, sa) = runs[i];
        let (Some(&(b, sb)), Some(&(c, _))) = (runs.get(i + 1), runs.get(i + 2)) else { break };
        let found = if let (Some(m), Some(d), Some(y)) = (month(a), day(b), year(c)) {
            valid_date(y, m, d)
        } else if let (Some(d), Some(m), Some(y)) = (day(a), month(b), year(c)) {
            valid_date(y, m, d)
        } else if let (Some(y), true) = (year(a), sa == sb && matches!(sa, '-' | '/' | '.')) {
            let digits = |w: &str| ((1..=2).contains(&w.len())).then(|| w.parse::<u32>().ok()).flatten();
            digits(b).zip(digits(c)).and_then(|(m, d)| valid_date(y, m, d))
        } else if let (Some(y), true) = (year(c), sa == '.' && sb == '.') {
            let digits = |w: &str| ((1..=2).contains(&w.len())).then(|| w.parse::<u32>().ok()).flatten();
            digits(a).zip(digits(b)).and_then(|(d, m)| valid_date(y, m, d))
        } else {
            None
        };
        if found.is_some() {
            return found;
        }
    }
    None
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

/// The rendered text of an HTML fragment: the DOM parser's text units, a newline at each block
/// boundary (the content's own `p`, headings, list items, `br`).
pub fn html_text(html: &str) -> String {
    let doc = Document::parse_for(html, &Limits::default(), Needs::DOM).0;
    let sel = Selection { view: View::Dom, units: (0..doc.dom.texts.len() as u32).collect() };
    doc.dom.texts.render(&sel.units)
}

/// The date `YYYY-MM-DD` of an RFC 822 (`Mon, 28 May 2012 09:00:00 +0000`) or ISO 8601
/// (`2011-03-03T11:32:00-08:00`) timestamp, as written (no time-zone conversion: the page shows
/// the local date).
pub fn iso_date(s: &str) -> Option<String> {
    let s = s.trim();
    let valid = |y: u32, m: u32, d: u32| (1900..=2200).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d);
    if s.len() >= 10 && s.as_bytes()[4] == b'-' && s.as_bytes()[7] == b'-' {
        let y = s[..4].parse().ok()?;
        let m = s[5..7].parse().ok()?;
        let d = s[8..10].parse().ok()?;
        return valid(y, m, d).then(|| format!("{y:04}-{m:02}-{d:02}"));
    }
    let rest = s.split_once(',').map_or(s, |(_, r)| r);
    let mut parts = rest.split_whitespace();
    let d: u32 = parts.next()?.parse().ok()?;
    let mon = parts.next()?.to_ascii_lowercase();
    let m = MONTHS.iter().position(|x| mon.starts_with(x))? as u32 + 1;
    let mut y: u32 = parts.next()?.parse().ok()?;
    if y < 100 {
        y += if y < 70 { 2000 } else { 1900 };
    }
    valid(y, m, d).then(|| format!("{y:04}-{m:02}-{d:02}"))
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
        let m = read(page, Some("de"), None);
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
        let m = read(ld, Some("sv"), None);
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
        assert_eq!(read("<p>nothing</p>", None, None), Metadata::default());
    }

    #[test]
    fn dates_written_for_readers_are_read_in_their_usual_forms() {
        for (text, want) in [
            ("Published on Oct 31, 2025", "2025-10-31"),
            ("February 8th, 2022 •", "2022-02-08"),
            ("Monday, 3 March 2008", "2008-03-03"),
            ("9 de septiembre de 2013, 20:00", "2013-09-09"),
            ("jueves, septiembre 05, 2013", "2013-09-05"),
            ("Sept. 4, 2025", "2025-09-04"),
            ("23.07.2025", "2025-07-23"),
            ("2024/04/08", "2024-04-08"),
        ] {
            assert_eq!(human_date(text).as_deref(), Some(want), "{text}");
        }
        for text in ["May 2022", "5 min read", "31.13.2024", "Mayday 5, 2020", "1,200 people in 2021", "12/05/2024"] {
            assert_eq!(human_date(text), None, "{text}");
        }
        assert_eq!(url_date("https://a.example/2025/09/04/post/").as_deref(), Some("2025-09-04"));
        assert_eq!(url_date("https://lmsys.org/blog/2025-12-17-minisgl").as_deref(), Some("2025-12-17"));
        assert_eq!(url_date("https://a.example/2013/09/post.html"), None);
        assert_eq!(lone_date(" Last updated: November 13, 2025</p>").as_deref(), Some("2025-11-13"));
        assert_eq!(lone_date("In 2025, on May 3, 2025, a long sentence of many words went by</p>"), None);
    }

    #[test]
    fn the_author_comes_from_a_byline_an_id_or_the_title_when_no_meta_says() {
        fn author(page: &str) -> Option<(String, &'static str)> {
            read(page, None, None).author.map(|f| (f.value, f.source))
        }
        let s = |v: &str, src: &'static str| Some((v.to_string(), src));
        assert_eq!(
            author(r#"<h1>T</h1><div class="authorDateBlock_authorName__x">By Reyan Perumal</div>"#),
            s("Reyan Perumal", "byline")
        );
        assert_eq!(
            author(r#"<div>Written by </div><div rel="author">David Jackson</div>"#),
            s("David Jackson", "rel author")
        );
        // A byline class on a picture or a label is not the name.
        assert_eq!(
            author(r#"<img class="author-avatar" alt="x"><span class="author-bio">Writes a lot since 2001</span>"#),
            None
        );
        let ld = r#"<script type="application/ld+json">{"@graph":[{"@type":"Article","headline":"H",
            "author":{"@id":"https://k.example/#/person/1"}},{"@type":"Person","@id":"https://k.example/#/person/1",
            "name":"Nirmita Panchal"}]}</script>"#;
        assert_eq!(author(ld), s("Nirmita Panchal", "json-ld"));
        assert_eq!(author("<title>Have an idea? | by Summer Swann | AI | Yeti</title>"), s("Summer Swann", "title by"));
        // Meta tags come first.
        assert_eq!(
            author(r#"<meta name="author" content="Ann Lee"><span class="author">Bo Ek</span>"#),
            s("Ann Lee", "meta author")
        );
        let m = read(
            r#"<abbr class='published' itemprop='datePublished' title='2013-09-05T21:14:00+02:00'>jueves</abbr>"#,
            None,
            None,
        );
        assert_eq!(m.date.map(|f| (f.value, f.source)), s("2013-09-05", "itemprop datePublished"));
        let m = read("<p>Recent: Jan 2, 2020</p><h1>T</h1><p>January 31, 2024</p>", None, Some("https://x.example/a"));
        assert_eq!(m.date.map(|f| (f.value, f.source)), s("2024-01-31", "date alone"));
        let m = read("<h1>T</h1>", None, Some("https://x.example/2021/03/04/a"));
        assert_eq!(m.date.map(|f| (f.value, f.source)), s("2021-03-04", "url"));
    }
}
