//! CleanEval and CleanPortalEval: `input/<stem>.html` (the page wrapped in a `<text id="URL" ...>`
//! element) beside `GoldStandard/<stem>.txt` (a `URL:` header, then text blocks introduced by
//! `<p>`, `<h>` or `<l>` markers). Package: the portal for `<site>_<section>_<n>` stems
//! (CleanPortalEval), else `cleaneval`.

use super::{Item, bytes, files_with};
use crate::document::entities::decode_into;
use crate::error::Result;
use std::path::Path;

/// The CleanEval layout (also CleanPortalEval).
pub const IMPORTER: super::Importer = super::Importer {
    name: "cleaneval",
    layout: "input/<stem>.html and GoldStandard/<stem>.txt with plain-text gold (URL: header, <p>/<h>/<l> markers)",
    looks_like: |src| super::input_and_gold(src) == Some(false) && !src.join("url-mapping.txt").is_file(),
    read,
    credit: |name| format!("{name}: CLEANEVAL-format gold standard (licence not stated)"),
    latin1_gold: false,
    gz: false,
};

/// Reads every document.
pub fn read(src: &Path) -> Result<Vec<Item>> {
    let mut out = Vec::new();
    for (stem, path) in files_with(&src.join("input"), ".html")? {
        let raw = bytes(&path)?;
        let (page, url) = unwrap(&raw);
        let gold_path = src.join("GoldStandard").join(format!("{stem}.txt"));
        let gold = if gold_path.exists() { Some(clean_gold(&super::gold_file(&gold_path)?)) } else { None };
        let package = match stem.split_once('_') {
            Some((site, _)) if stem.matches('_').count() >= 2 => site.to_string(),
            _ => "cleaneval".to_string(),
        };
        out.push(Item { package, id: stem, page, gold, url, fields: Default::default() });
    }
    Ok(out)
}

/// Removes the `<text ...>` wrapper; returns the page bytes and the `id` attribute (the URL).
pub fn unwrap(raw: &[u8]) -> (Vec<u8>, Option<String>) {
    let start = raw.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(0);
    if !raw[start..].starts_with(b"<text") {
        return (raw.to_vec(), None);
    }
    // The wrapper tag ends at the first `>` outside a double-quoted value.
    let mut quote = false;
    let mut end = raw.len();
    for (i, &b) in raw.iter().enumerate().skip(start) {
        match b {
            b'"' => quote = !quote,
            b'>' if !quote => {
                end = i + 1;
                break;
            }
            _ => {}
        }
    }
    let tag = String::from_utf8_lossy(&raw[start..end]).into_owned();
    let url = tag.find("id=\"").and_then(|k| tag[k + 4..].find('"').map(|e| tag[k + 4..k + 4 + e].to_string()));
    let mut body = &raw[end.min(raw.len())..];
    let trimmed = body.len() - body.iter().rev().take_while(|b| b.is_ascii_whitespace()).count();
    body = &body[..trimmed];
    if body.ends_with(b"</text>") {
        body = &body[..body.len() - 7];
    }
    (body.to_vec(), url)
}

/// Gold text without the `URL:` header, the block markers and character references.
pub fn clean_gold(text: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    // Header: optional empty line, `URL: <url>`, and the URL wrapped onto the next line.
    while lines.first().is_some_and(|l| l.trim().is_empty()) {
        lines.remove(0);
    }
    if lines.first().is_some_and(|l| l.trim_start().starts_with("URL:")) {
        let only_label = lines[0].trim() == "URL:";
        lines.remove(0);
        if only_label && lines.first().is_some_and(|l| !l.trim().is_empty() && !l.trim_start().starts_with('<')) {
            lines.remove(0);
        }
    }
    let mut body = lines.join("\n");
    for marker in ["<p>", "<h>", "<l>", "</p>"] {
        body = body.replace(marker, "\n");
    }
    let mut out = String::with_capacity(body.len());
    decode_into(&body, &mut out);
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unwraps_the_text_element_with_odd_urls() {
        let (page, url) = unwrap(b"<text id=\"http://x.org/a?b=1&c=>2\" title=\"T\" encoding=\"unset\">\r\n<html><p>Hi</p></html>\r\n</text>\r\n");
        assert_eq!(url.as_deref(), Some("http://x.org/a?b=1&c=>2"));
        assert_eq!(String::from_utf8(page).unwrap(), "\r\n<html><p>Hi</p></html>\r\n");
    }

    #[test]
    fn gold_loses_header_and_markers_but_keeps_other_angle_text() {
        assert_eq!(
            clean_gold("URL: http://a\n\n<h>Title\n   <p>Some <jefferai> text\n<l>item"),
            "Title\n   \nSome <jefferai> text\n\nitem"
        );
        // The URL wrapped onto line 2.
        assert_eq!(clean_gold("URL: \nhttp://very/long\n<p>Body"), "Body");
        // CleanPortalEval: empty first line, references not decoded upstream, stray </p>.
        assert_eq!(clean_gold("\nURL: http://b\n<p>It&#8217;s &rsquo;ok&rsquo;</p>"), "It’s ’ok’");
    }

    #[test]
    fn packages_come_from_portal_stems() {
        let d = crate::goldset::import::tmp("ce");
        for (stem, gold) in [("17", "URL: u\n<p>Seventeen words"), ("bbc.co.uk_news_01", "\nURL: u\n<p>News")] {
            std::fs::create_dir_all(d.join("input")).unwrap();
            std::fs::create_dir_all(d.join("GoldStandard")).unwrap();
            std::fs::write(d.join(format!("input/{stem}.html")), "<text id=\"u\"><p>x</p></text>").unwrap();
            std::fs::write(d.join(format!("GoldStandard/{stem}.txt")), gold).unwrap();
        }
        let items = read(&d).unwrap();
        let pk: Vec<(&str, &str)> = items.iter().map(|i| (i.package.as_str(), i.id.as_str())).collect();
        assert_eq!(pk, [("cleaneval", "17"), ("bbc.co.uk", "bbc.co.uk_news_01")]);
        assert_eq!(items[1].gold.as_deref(), Some("News"));
        std::fs::remove_dir_all(&d).unwrap();
    }
}
