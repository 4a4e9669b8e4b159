//! # Page features
//!
//! Facts that describe a whole page, computed once per page when it is parsed (one pass over
//! the flattened DOM plus one scan of the raw HTML for structured data), for the `route`
//! combinator's conditions and for any page-level model. Every feature describes any page; none
//! is a rule about a particular site or gold set. [`FEATURES`] is the one table of their names,
//! meanings and scales (docs/combinations.md, "Page kinds").
//!
//! Structured data (JSON-LD `<script type="application/ld+json">` and microdata `itemtype`) is
//! read here from the raw HTML, because scripts never count as text in either view: its types
//! are features, and its text fields ([`PageFeatures::structured_text`]) are what the
//! `structured` family aligns with the page's words.
//!
//! Imports from the crate: nothing (only sibling modules of `document`).

use super::parse::Dom;
use super::tags::{Tag, tag};

/// One page feature: its name (as conditions name it), what it measures, and the top of the
/// range a route's threshold gene spans (`threshold = at · max`; integer features are rounded).
#[derive(Debug, Clone, Copy)]
pub struct Feature {
    /// The name conditions use (`records`).
    pub name: &'static str,
    /// What it measures.
    pub meaning: &'static str,
    /// The top of the threshold range.
    pub max: f64,
    /// Whether it is a count (thresholds are whole numbers).
    pub integer: bool,
}

macro_rules! feature {
    ($name:literal, $max:expr, $int:expr, $meaning:literal) => {
        Feature { name: $name, meaning: $meaning, max: $max, integer: $int }
    };
}

/// The page features, in the order of [`PageFeatures::values`].
pub const FEATURES: &[Feature] = &[
    feature!("words", 5000.0, true, "words on the page (canonical words of the source view)"),
    feature!("link_density", 1.0, false, "share of the page's text characters inside links (a[href])"),
    feature!("p_share", 1.0, false, "share of the text characters inside <p>"),
    feature!("list_share", 1.0, false, "share of the text characters inside li, td, th, dd, dt"),
    feature!("code_share", 1.0, false, "share of the text characters inside pre or code"),
    feature!(
        "records",
        60.0,
        true,
        "size of the largest group of repeated sibling records (same tag and child-tag signature, text in each, at least 3)"
    ),
    feature!("record_share", 1.0, false, "share of the text characters inside that group"),
    feature!("record_link_density", 1.0, false, "share of that group's characters inside links"),
    feature!("headings", 60.0, true, "number of h1-h6 elements"),
    feature!("sections", 20.0, true, "number of heading-led sections holding at least 200 text characters"),
    feature!("forms", 40.0, true, "number of form controls (input, select, textarea, button)"),
    feature!("prices", 40.0, true, "number of text units with a currency sign or code beside a digit"),
    feature!("ld_product", 1.0, true, "1 when JSON-LD or microdata declares a Product or Offer"),
    feature!("ld_article", 1.0, true, "1 when it declares an Article, NewsArticle, BlogPosting or TechArticle"),
    feature!("ld_discussion", 1.0, true, "1 when it declares a DiscussionForumPosting, QAPage or Question"),
    feature!("ld_faq", 1.0, true, "1 when it declares an FAQPage"),
    feature!("ld_itemlist", 1.0, true, "1 when it declares an ItemList, CollectionPage or SearchResultsPage"),
    feature!(
        "structured_words",
        2000.0,
        true,
        "words in the text fields of the page's JSON-LD (description, articleBody, text, ...)"
    ),
];

/// The index of feature `name` in [`FEATURES`].
pub fn index(name: &str) -> Option<usize> {
    FEATURES.iter().position(|f| f.name == name)
}

/// The features of one page, and the structured-data text they were partly read from.
#[derive(Debug, Clone, Default)]
pub struct PageFeatures {
    /// One value per row of [`FEATURES`].
    pub values: Vec<f64>,
    /// The text fields of the page's JSON-LD, one string per field, in document order.
    pub structured_text: Vec<String>,
}

impl PageFeatures {
    /// The value of feature `name` (0 for an unknown name or an empty page).
    pub fn get(&self, name: &str) -> f64 {
        index(name).and_then(|i| self.values.get(i)).copied().unwrap_or(0.0)
    }
}

/// Computes a page's features from its DOM view, its number of words and its raw HTML.
pub fn compute(dom: &Dom, words: usize, html: &str) -> PageFeatures {
    let shares = Shares::of(dom);
    let (records, record_chars, record_linked) = largest_record_group(dom);
    let sd = structured(html);
    let total = shares.total.max(1) as f64;
    let prices = (0..dom.texts.len()).filter(|&u| has_price(dom.texts.get(u))).count();
    let controls = [tag("input"), tag("select"), tag("textarea"), tag("button")];
    let forms = dom.nodes.iter().filter(|n| !n.is_text() && controls.contains(&n.tag)).count();
    let headings = dom.nodes.iter().filter(|n| !n.is_text() && heading_level(n.tag).is_some()).count();
    let sd_words: usize = sd.text.iter().map(|t| t.text.split_whitespace().count()).sum();
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    let values = vec![
        words as f64,
        shares.linked as f64 / total,
        shares.p as f64 / total,
        shares.list as f64 / total,
        shares.code as f64 / total,
        records as f64,
        record_chars as f64 / total,
        if record_chars == 0 { 0.0 } else { record_linked as f64 / record_chars as f64 },
        headings as f64,
        dense_sections(dom, 200) as f64,
        forms as f64,
        prices as f64,
        flag(sd.has(&["Product", "Offer", "AggregateOffer"])),
        flag(sd.has(&["Article", "NewsArticle", "BlogPosting", "TechArticle", "Report", "ScholarlyArticle"])),
        flag(sd.has(&["DiscussionForumPosting", "QAPage", "Question", "SocialMediaPosting"])),
        flag(sd.has(&["FAQPage"])),
        flag(sd.has(&["ItemList", "CollectionPage", "SearchResultsPage", "OfferCatalog"])),
        sd_words as f64,
    ];
    debug_assert_eq!(values.len(), FEATURES.len());
    PageFeatures { values, structured_text: sd.text.into_iter().map(|t| t.text).collect() }
}

/// The heading level of `t` (1..6), if it is a heading.
pub fn heading_level(t: Tag) -> Option<u8> {
    ["h1", "h2", "h3", "h4", "h5", "h6"].iter().position(|h| tag(h) == t).map(|i| i as u8 + 1)
}

/// Text characters of the page and, of them, those inside links, `p`, list cells and code.
struct Shares {
    total: u64,
    linked: u64,
    p: u64,
    list: u64,
    code: u64,
}

impl Shares {
    fn of(dom: &Dom) -> Shares {
        let (p, pre, code) = (tag("p"), tag("pre"), tag("code"));
        let list = [tag("li"), tag("td"), tag("th"), tag("dd"), tag("dt")];
        let mut s = Shares { total: 0, linked: 0, p: 0, list: 0, code: 0 };
        for info in &dom.info {
            let c = u64::from(info.chars);
            s.total += c;
            if info.in_href {
                s.linked += c;
            }
            let (mut in_p, mut in_list, mut in_code) = (false, false, false);
            let mut a = dom.nodes[info.node as usize].parent;
            while a != super::parse::NONE {
                let t = dom.nodes[a as usize].tag;
                in_p |= t == p;
                in_list |= list.contains(&t);
                in_code |= t == pre || t == code;
                a = dom.nodes[a as usize].parent;
            }
            s.p += if in_p { c } else { 0 };
            s.list += if in_list { c } else { 0 };
            s.code += if in_code { c } else { 0 };
        }
        s
    }
}

/// For every node, the text characters and linked text characters of its subtree.
pub fn subtree_chars(dom: &Dom) -> (Vec<u64>, Vec<u64>) {
    // Prefix sums over the pre-order array: a subtree is the range i..end.
    let mut cum = vec![0u64; dom.nodes.len() + 1];
    let mut cum_l = vec![0u64; dom.nodes.len() + 1];
    for (i, n) in dom.nodes.iter().enumerate() {
        let (c, l) = if n.is_text() {
            let info = &dom.info[n.text as usize];
            (u64::from(info.chars), if info.in_href { u64::from(info.chars) } else { 0 })
        } else {
            (0, 0)
        };
        cum[i + 1] = cum[i] + c;
        cum_l[i + 1] = cum_l[i] + l;
    }
    let chars = dom.nodes.iter().enumerate().map(|(i, n)| cum[n.end as usize] - cum[i]).collect();
    let linked = dom.nodes.iter().enumerate().map(|(i, n)| cum_l[n.end as usize] - cum_l[i]).collect();
    (chars, linked)
}

/// The element children of node `i`.
pub fn children(dom: &Dom, i: usize) -> impl Iterator<Item = usize> + '_ {
    let end = dom.nodes[i].end as usize;
    let mut j = i + 1;
    std::iter::from_fn(move || {
        while j < end {
            let k = j;
            j = dom.nodes[k].end as usize;
            if !dom.nodes[k].is_text() {
                return Some(k);
            }
        }
        None
    })
}

/// A record's signature: its tag and the tags of its element children, in order.
pub fn signature(dom: &Dom, i: usize) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    dom.nodes[i].tag.hash(&mut h);
    for c in children(dom, i) {
        dom.nodes[c].tag.hash(&mut h);
    }
    h.finish()
}

/// A group of repeated sibling records: the parent and its record children.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordGroup {
    /// The parent element.
    pub parent: usize,
    /// The records (element children of `parent` with the same signature and text in each).
    pub records: Vec<usize>,
    /// Their text characters together.
    pub chars: u64,
    /// Of them, inside links.
    pub linked: u64,
}

/// Every group of at least `min_records` sibling records of one signature, each record holding
/// at least `min_chars` text characters (one group per parent and signature).
pub fn record_groups(dom: &Dom, min_records: usize, min_chars: u64) -> Vec<RecordGroup> {
    let (chars, linked) = subtree_chars(dom);
    let mut out = Vec::new();
    let mut by_sig: Vec<(u64, Vec<usize>)> = Vec::new();
    for (i, n) in dom.nodes.iter().enumerate() {
        if n.is_text() || chars[i] == 0 {
            continue;
        }
        by_sig.clear();
        for c in children(dom, i) {
            if chars[c] < min_chars.max(1) {
                continue;
            }
            let s = signature(dom, c);
            match by_sig.iter_mut().find(|(k, _)| *k == s) {
                Some((_, v)) => v.push(c),
                None => by_sig.push((s, vec![c])),
            }
        }
        for (_, recs) in by_sig.drain(..) {
            if recs.len() >= min_records.max(2) {
                let c = recs.iter().map(|&r| chars[r]).sum();
                let l = recs.iter().map(|&r| linked[r]).sum();
                out.push(RecordGroup { parent: i, records: recs, chars: c, linked: l });
            }
        }
    }
    out
}

/// The largest record group by text (at least 3 records): (records, chars, linked chars).
fn largest_record_group(dom: &Dom) -> (usize, u64, u64) {
    record_groups(dom, 3, 1)
        .into_iter()
        .max_by_key(|g| (g.chars, g.records.len()))
        .map_or((0, 0, 0), |g| (g.records.len(), g.chars, g.linked))
}

/// The heading-led sections of the page: for each text unit, the number of the section it is
/// in (0 before the first heading of level `max_level` or higher; a heading starts a section).
pub fn section_of_units(dom: &Dom, max_level: u8) -> Vec<u32> {
    let mut out = vec![0u32; dom.texts.len()];
    let mut section = 0u32;
    let mut open_heading_end = 0usize;
    for (i, n) in dom.nodes.iter().enumerate() {
        if !n.is_text() {
            if i >= open_heading_end && heading_level(n.tag).is_some_and(|l| l <= max_level) {
                section += 1;
                open_heading_end = n.end as usize;
            }
        } else if let Some(slot) = out.get_mut(n.text as usize) {
            *slot = section;
        }
    }
    out
}

/// Number of heading-led sections (h1-h3) holding at least `min_chars` text characters.
fn dense_sections(dom: &Dom, min_chars: u64) -> usize {
    let of = section_of_units(dom, 3);
    let n = of.iter().copied().max().map_or(0, |m| m as usize + 1);
    let mut chars = vec![0u64; n];
    for (u, &s) in of.iter().enumerate() {
        chars[s as usize] += u64::from(dom.info[u].chars);
    }
    chars.iter().filter(|&&c| c >= min_chars).count()
}

/// Whether a text holds a price: a currency sign or code next to a digit (also a block feature).
pub(super) fn has_price(text: &str) -> bool {
    const SIGNS: &[char] = &['$', '€', '£', '¥', '₹', '₽'];
    // Most texts (every block of a page) hold no sign: no char vector for them.
    let b: Vec<char> = if text.contains(SIGNS) { text.chars().collect() } else { Vec::new() };
    for (i, c) in b.iter().enumerate() {
        let digit_near = |j: Option<usize>| j.and_then(|j| b.get(j)).is_some_and(|c| c.is_ascii_digit());
        let sign = SIGNS.contains(c);
        if sign
            && ([i.checked_add(1), i.checked_sub(1), i.checked_add(2), i.checked_sub(2)].into_iter().any(digit_near))
        {
            return true;
        }
    }
    ["USD", "EUR", "GBP", "CHF"].iter().any(|code| {
        text.match_indices(code).any(|(k, _)| {
            let after = text[k + 3..].trim_start().chars().next();
            let before = text[..k].trim_end().chars().last();
            after.is_some_and(|c| c.is_ascii_digit()) || before.is_some_and(|c| c.is_ascii_digit())
        })
    })
}

/// The structured data of a page: its declared types and its JSON-LD text fields.
#[derive(Debug, Default)]
struct Structured {
    types: Vec<String>,
    text: Vec<LdText>,
}

/// One text field of a page's JSON-LD: its text (markup stripped), whether it is a body
/// (`articleBody`, `text`, `reviewBody`, an answer) rather than a summary (`description`,
/// `abstract`), and whether the object that holds it describes the site rather than the page's
/// item ([`SITE_TYPES`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LdText {
    /// The text.
    pub text: String,
    /// A body field.
    pub body: bool,
    /// Held by a site-level object (`Organization`, `WebSite`, …).
    pub site: bool,
}

/// schema.org types that describe the site, its owner or the page's frame rather than its item:
/// their descriptions are the site's, on every page of it.
pub const SITE_TYPES: &[&str] = &[
    "WebSite",
    "WebPage",
    "Organization",
    "Corporation",
    "NewsMediaOrganization",
    "LocalBusiness",
    "Person",
    "Brand",
    "ImageObject",
    "BreadcrumbList",
    "SiteNavigationElement",
    "WPHeader",
    "WPFooter",
    "WPSideBar",
    "ContactPoint",
    "Place",
    "PostalAddress",
];

/// JSON-LD keys whose text is a body (the others of [`TEXT_KEYS`] are summaries).
const BODY_KEYS: &[&str] = &["articleBody", "text", "reviewBody", "acceptedAnswer", "suggestedAnswer"];

/// The text fields of one JSON-LD block (the content of a `<script type="application/ld+json">`),
/// in document order; none when it is not JSON.
pub fn json_ld_texts(json: &str) -> Vec<LdText> {
    let mut out = Structured::default();
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(json.trim()) {
        walk_json(&v, None, None, &mut out);
    }
    out.text
}

impl Structured {
    fn has(&self, types: &[&str]) -> bool {
        self.types.iter().any(|t| types.contains(&t.as_str()))
    }
}

/// JSON-LD keys whose string values are content text (schema.org).
const TEXT_KEYS: &[&str] =
    &["description", "articleBody", "text", "reviewBody", "abstract", "acceptedAnswer", "suggestedAnswer"];

/// Reads the JSON-LD blocks and microdata types of raw HTML.
fn structured(html: &str) -> Structured {
    let mut out = Structured::default();
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(k) = lower[from..].find("<script") {
        let start = from + k;
        let Some(gt) = lower[start..].find('>') else { break };
        let open = &lower[start..start + gt];
        let body_start = start + gt + 1;
        let Some(close) = lower[body_start..].find("</script") else { break };
        let body_end = body_start + close;
        from = body_end;
        if !open.contains("ld+json") {
            continue;
        }
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(html[body_start..body_end].trim()) {
            walk_json(&v, None, None, &mut out);
        }
    }
    // Microdata: itemtype="https://schema.org/Product".
    for (k, _) in lower.match_indices("itemtype=") {
        let rest = &html[k + 9..];
        let rest = rest.trim_start_matches(['"', '\'']);
        let end = rest.find(['"', '\'', ' ', '>']).unwrap_or(rest.len());
        if let Some(t) = rest[..end].rsplit('/').next().filter(|t| !t.is_empty()) {
            out.types.push(t.to_string());
        }
    }
    out
}

/// Walks a JSON-LD value: types into `out.types`, text fields into `out.text` (`key`: the text
/// key above, `item`: the type of the nearest object that declares one).
fn walk_json(v: &serde_json::Value, key: Option<&str>, item: Option<&str>, out: &mut Structured) {
    use serde_json::Value as J;
    match v {
        J::Object(m) => {
            let own: Vec<&str> = match m.get("@type") {
                Some(J::String(t)) => vec![t.as_str()],
                Some(J::Array(ts)) => ts.iter().filter_map(J::as_str).collect(),
                _ => Vec::new(),
            };
            out.types.extend(own.iter().map(|t| t.to_string()));
            let item = own.first().copied().or(item);
            for (k, x) in m {
                // A text key's object (an answer) passes its key down to its own `text`.
                let inner = if TEXT_KEYS.contains(&k.as_str()) { Some(k.as_str()) } else { None };
                walk_json(x, inner.or(if k == "text" { key } else { None }), item, out);
            }
        }
        J::Array(xs) => xs.iter().for_each(|x| walk_json(x, key, item, out)),
        J::String(s) if key.is_some() && !s.trim().is_empty() => {
            let site = item.is_some_and(|t| SITE_TYPES.contains(&t));
            out.text.push(LdText { text: strip_tags(s), body: key.is_some_and(|k| BODY_KEYS.contains(&k)), site });
        }
        _ => {}
    }
}

/// Text with markup removed (JSON-LD descriptions often hold escaped HTML).
fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;

    #[test]
    fn a_listing_has_records_and_a_product_page_its_structured_data() {
        let items: String = (0..8)
            .map(|i| format!("<li><a href=/p{i}>Item number {i}</a><span>Some detail text {i}</span></li>"))
            .collect();
        let html =
            format!("<html><body><h1>Shop</h1><ul>{items}</ul><p>About this shop, a paragraph.</p></body></html>");
        let d = Document::parse(&html);
        let f = &d.features;
        assert_eq!(f.get("records").round() as i64, 8);
        assert!(f.get("record_share") > 0.7, "{}", f.get("record_share"));
        assert_eq!(f.get("headings").round() as i64, 1);
        assert_eq!(f.get("ld_product").round() as i64, 0);
        let product = r#"<html><head><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Kettle","description":"A <b>steel</b> kettle that boils water fast.","offers":{"@type":"Offer","price":"20"}}</script></head><body><p>Kettle for $20 only</p></body></html>"#;
        let d = Document::parse(product);
        assert_eq!(d.features.get("ld_product").round() as i64, 1);
        assert_eq!(d.features.get("prices").round() as i64, 1);
        assert_eq!(d.features.structured_text, vec!["A  steel  kettle that boils water fast.".to_string()]);
        assert_eq!(d.features.get("structured_words").round() as i64, 7);
    }

    #[test]
    fn shares_and_sections_are_measured_on_the_text() {
        let html =
            "<body><h2>One</h2><p>aaaa</p><pre>bbbb</pre><h2>Two</h2><ul><li><a href=/x>cccc</a></li></ul></body>";
        let d = Document::parse(html);
        let f = &d.features;
        // 6 + 4 + 4 + 4 characters (the headings count).
        assert!((f.get("code_share") - 4.0 / 18.0).abs() < 1e-9);
        assert!((f.get("link_density") - 4.0 / 18.0).abs() < 1e-9);
        assert!((f.get("p_share") - 4.0 / 18.0).abs() < 1e-9);
        assert_eq!(section_of_units(&d.dom, 3), vec![1, 1, 1, 2, 2]);
        assert!(has_price("EUR 12") && has_price("12,50 €") && !has_price("in 2024"));
    }
}
