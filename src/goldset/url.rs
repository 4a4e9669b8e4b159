//! The URL of a page: the host of a URL, and the URL a page declares for itself in its head
//! (canonical link, `og:url`), read without parsing the page. Gold sets (a document without a
//! URL), collections and the annotation tool all ask. Imports from the crate: `document` (the
//! attribute reader and the host's normal form).

use crate::document::hidden::attr_in;
use crate::document::norm_host;

/// The host of an absolute `http(s)` URL, lower case, without `www.` and port.
pub fn host_of(url: &str) -> Option<String> {
    let rest = url
        .trim()
        .split_once("://")
        .filter(|(s, _)| s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https"))?
        .1;
    let host = norm_host(rest.split(['/', '?', '#']).next()?);
    (!host.is_empty() && host.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')).then_some(host)
}

/// The page's own URL: `<link rel=canonical href>`, else `<meta property=og:url content>`
/// (absolute http(s) URLs only), from the first 256 kB of the page.
pub fn declared_url(html: &str) -> Option<String> {
    let mut end = html.len().min(256 * 1024);
    while !html.is_char_boundary(end) {
        end -= 1;
    }
    let head = &html[..end];
    let lower = head.to_ascii_lowercase();
    let mut canonical = None;
    let mut og = None;
    for (at, _) in lower.match_indices('<') {
        let rest = &head[at + 1..];
        let lrest = &lower[at + 1..];
        let tag_end = lrest.find('>').map_or(lrest.len(), |e| e + 1);
        if lrest.starts_with("link") && canonical.is_none() {
            let attrs = &rest[4..tag_end];
            if attr_in(attrs, "rel").is_some_and(|r| r.split_whitespace().any(|w| w.eq_ignore_ascii_case("canonical")))
            {
                canonical = attr_in(attrs, "href").map(str::to_string).filter(|u| host_of(u).is_some());
            }
        } else if lrest.starts_with("meta") && og.is_none() {
            let attrs = &rest[4..tag_end];
            let prop = attr_in(attrs, "property").or_else(|| attr_in(attrs, "name"));
            if prop.is_some_and(|p| p.eq_ignore_ascii_case("og:url")) {
                og = attr_in(attrs, "content").map(str::to_string).filter(|u| host_of(u).is_some());
            }
        }
    }
    canonical.or(og)
}

/// The URL a page declares in its head ([`declared_url`] of the part before `<body`).
pub fn head_url(html: &str) -> Option<String> {
    declared_url(head_of(html))
}

/// The part of a page before its `<body` or `</head` (at most 256 kB): where a page declares its
/// own URL, found without a pass over the whole page.
fn head_of(html: &str) -> &str {
    let b = html.as_bytes();
    let limit = b.len().min(256 * 1024);
    let mut at = 0;
    while let Some(k) = b[at..limit].iter().position(|&c| c == b'<') {
        let i = at + k;
        let rest = &b[i + 1..];
        let starts = |w: &[u8]| rest.len() >= w.len() && rest[..w.len()].eq_ignore_ascii_case(w);
        if starts(b"body") || starts(b"/head") {
            return &html[..i];
        }
        at = i + 1;
    }
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_ends_at_the_body_or_the_end_of_the_head() {
        assert_eq!(head_of("<html><HEAD><title>t</title></Head><body><p>x"), "<html><HEAD><title>t</title>");
        assert_eq!(head_of("<p>no head</p>"), "<p>no head</p>");
    }
}
