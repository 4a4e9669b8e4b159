//! L3S-GN1: `input/<uuid>.html` beside `GoldStandard/<uuid>.txt`, an annotated copy of the page
//! (HTML despite the extension) in which text is wrapped in elements of class `x-nc-sel0` ...
//! `x-nc-sel5`. The gold is the text whose innermost annotated ancestor is `x-nc-sel1` (headline)
//! or `x-nc-sel2` (full text). Package: the news site, from `url-mapping.txt`.

use super::{Item, bytes, files_with};
use crate::document::hidden::never_text;
use crate::document::tags::Tag;
use crate::error::{Error, Result};
use scraper::Html;
use scraper::node::Node;
use std::collections::HashMap;
use std::path::Path;

/// Licence and credit line.
pub const CREDIT: &str = "L3S-GN1 (Kohlschütter, Fankhauser & Nejdl, Boilerplate Detection using Shallow Text Features, WSDM 2010), L3S Research Center; research use only";

/// The L3S-GN1 layout.
pub const IMPORTER: super::Importer = super::Importer {
    name: "l3s",
    layout: "input/<id>.html, GoldStandard/<id>.txt with annotated-HTML gold, and url-mapping.txt",
    looks_like: |src| super::input_and_gold(src).is_some_and(|html| html || src.join("url-mapping.txt").is_file()),
    read,
    credit: |_| CREDIT.to_string(),
    latin1_gold: true,
    gz: false,
};

/// Reads every document.
pub fn read(src: &Path) -> Result<Vec<Item>> {
    let urls = url_mapping(&src.join("url-mapping.txt"))?;
    let mut out = Vec::new();
    for (stem, path) in files_with(&src.join("input"), ".html")? {
        let page = bytes(&path)?;
        let gold_path = src.join("GoldStandard").join(format!("{stem}.txt"));
        let annotated = if gold_path.exists() { Some(super::gold_file(&gold_path)?) } else { None };
        let gold = annotated.as_deref().map(gold_text);
        let fields = annotated.as_deref().map(fields_of).unwrap_or_default();
        let url = urls.get(&stem).cloned();
        let package = url.as_deref().map(host).unwrap_or_else(|| "unknown".to_string());
        out.push(Item { package, id: stem, page, gold, url, fields });
    }
    Ok(out)
}

fn url_mapping(path: &Path) -> Result<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, "read", e))?;
    let mut m = HashMap::new();
    for line in text.lines() {
        if let Some((urn, url)) = line.split_once('\t') {
            let id = urn.trim().trim_start_matches("<urn:uuid:").trim_end_matches('>');
            m.insert(id.to_string(), url.trim().to_string());
        }
    }
    Ok(m)
}

/// The host of a URL without a leading `www.`.
pub fn host(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let h = rest.split(['/', '?', '#', ':']).next().unwrap_or("").to_ascii_lowercase();
    h.strip_prefix("www.").map(str::to_string).unwrap_or(h)
}

/// The annotation class of an element: `Some(n)` for `x-nc-selN`, `None` otherwise.
fn sel_class(el: &scraper::node::Element) -> Option<u8> {
    el.attr("class")?.split_whitespace().find_map(|c| {
        let c = c.to_ascii_lowercase();
        c.strip_prefix("x-nc-sel").and_then(|n| n.parse::<u8>().ok())
    })
}

/// Annotated invisible, or never text by the rule both document views use.
fn invisible(el: &scraper::node::Element) -> bool {
    el.attr("class").is_some_and(|c| c.split_whitespace().any(|c| c.eq_ignore_ascii_case("x-nc-invisible")))
        || never_text(el.name(), |a| el.attr(a))
}

/// The gold text of an annotated page: headline and full-text nodes, a newline at block
/// boundaries and `<br>`, a space where any other text (whitespace between inline elements
/// included) or a spaced element (`img`, `input`, ...) lies between two gold text nodes, and
/// nothing between gold text nodes that touch (`<b>bold</b>word` stays one word).
pub fn gold_text(annotated: &str) -> String {
    let doc = Html::parse_document(annotated);
    let mut labels: Vec<Option<u8>> = Vec::new(); // per open element: its class, if any
    let mut skip: Option<ego_tree::NodeId> = None;
    let mut out = String::new();
    let mut pending = "";
    for edge in doc.tree.root().traverse() {
        match edge {
            ego_tree::iter::Edge::Open(n) => {
                if skip.is_some() {
                    continue;
                }
                match n.value() {
                    Node::Element(el) => {
                        if invisible(el) {
                            skip = Some(n.id());
                            continue;
                        }
                        let t = Tag::from_any_case(el.name());
                        if t.is_block() || t.name() == "br" {
                            pending = "\n";
                        } else if t.is_spaced() && pending.is_empty() {
                            pending = " ";
                        }
                        labels.push(sel_class(el));
                    }
                    Node::Text(txt) => {
                        let innermost = labels.iter().rev().find_map(|l| *l);
                        if matches!(innermost, Some(1 | 2)) && !txt.trim().is_empty() {
                            if !out.is_empty() {
                                out.push_str(pending);
                            }
                            out.push_str(txt);
                            pending = "";
                        } else if pending.is_empty() && !txt.is_empty() {
                            // Whitespace between inline elements, or text that is not gold, still
                            // separates the gold words around it; only adjacent gold text joins.
                            pending = " ";
                        }
                    }
                    _ => {}
                }
            }
            ego_tree::iter::Edge::Close(n) => {
                if let Some(id) = skip {
                    if id == n.id() {
                        skip = None;
                    }
                    continue;
                }
                if let Node::Element(el) = n.value() {
                    labels.pop();
                    if Tag::from_any_case(el.name()).is_block() {
                        pending = "\n";
                    }
                }
            }
        }
    }
    out.trim().to_string()
}

/// The gold fields of an annotated page: `title` = the text of the headline selection
/// (`x-nc-sel1`), `comments` = the text of the comment selection (`x-nc-sel5`) where the page
/// marks one; text nodes whose innermost annotation is that class, whitespace collapsed.
pub fn fields_of(annotated: &str) -> crate::goldset::fields::Fields {
    let doc = Html::parse_document(annotated);
    let mut parts: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    for n in doc.tree.root().descendants() {
        let Node::Text(txt) = n.value() else { continue };
        let mut innermost = None;
        let mut hidden = false;
        for a in n.ancestors() {
            if let Node::Element(el) = a.value() {
                hidden |= invisible(el);
                innermost = innermost.or(sel_class(el));
            }
        }
        let slot = match innermost {
            Some(1) => 0,
            Some(5) => 1,
            _ => continue,
        };
        let t = txt.split_whitespace().collect::<Vec<_>>().join(" ");
        if !hidden && !t.is_empty() {
            parts[slot].push(t);
        }
    }
    let joined = |v: &[String]| Some(v.join(" ")).filter(|s| !s.is_empty());
    crate::goldset::fields::Fields { title: joined(&parts[0]), comments: joined(&parts[1]), ..Default::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn innermost_annotation_decides() {
        let page = "<html><head><style>.x-nc-sel1{}</style></head><body>\
            <div class=\"x-nc-sel0\">Share this <span class=\"x-nc-sel2\">Body inside nav</span></div>\
            <h1><SPAN CLASS=\"x-nc-sel1\">Big Headline</SPAN></h1>\
            <p><span class=\"x-nc-sel2\">First para <b>bold</b> end <span class=\"x-nc-sel0\">not this</span></span></p>\
            <p><span class=\"x-nc-sel3\">By a reporter</span> <span class=\"x-nc-sel5\">comment</span></p>\
            <div class=\"x-nc-sel2 x-nc-invisible\">hidden</div><p>unlabelled</p></body></html>";
        assert_eq!(gold_text(page), "Body inside nav\nBig Headline\nFirst para bold end");
        let f = fields_of(page);
        assert_eq!((f.get("title"), f.get("comments"), f.get("author")), (Some("Big Headline"), Some("comment"), None));
    }

    #[test]
    fn hidden_annotated_text_is_not_gold() {
        // The same never-text rule as the document views: `hidden`, `display:none`, iframes.
        let page = "<body><p class=\"x-nc-sel2\">Kept <span hidden>secret</span>\
            <span style=\"display: none\">gone</span><iframe>frame</iframe> text</p></body>";
        assert_eq!(gold_text(page), "Kept  text");
    }

    #[test]
    fn whitespace_between_inline_elements_separates_words() {
        // The shape of L3S-GN1's annotated pages: one span per text run, newlines between them.
        let page = "<body><p><span class=\"x-nc-sel2\">For</span>\n<a href=x><span class=\"x-nc-sel2\">child</span></a>\n\
            <span class=\"x-nc-sel2\">stars</span><span class=\"x-nc-sel0\">ad</span><span class=\"x-nc-sel2\">end</span>\
            <span class=\"x-nc-sel2\">s<b>bold</b>word &amp;<br>next</span></p></body>";
        assert_eq!(gold_text(page), "For child stars endsboldword &\nnext");
    }

    #[test]
    fn hosts_drop_www() {
        assert_eq!(host("http://www.Example.com:80/a/b"), "example.com");
        assert_eq!(host("https://news.bbc.co.uk/x"), "news.bbc.co.uk");
    }
}
