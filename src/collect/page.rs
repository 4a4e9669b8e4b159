//! One page of a collection, from its [`Item`] to its [`Outcome`]: read (and gunzip) within the
//! size budget, decode, refuse binary data, parse within the page budgets, extract. Never panics
//! and never fails the run: whatever goes wrong is the outcome's `error`.

use super::item::{Item, Payload};
use crate::document::{Document, Needs};
use crate::error::isolate;
use crate::eval::words::{TokenRule, for_each_token};
use crate::extract::Extractor;
use crate::goldset::decode;
use crate::goldset::url::head_url;
use crate::limits::Limits;
use crate::structure::Layout;
use std::path::PathBuf;
use std::time::Instant;

/// What one page gave.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// The page's id (see [`Item::id`]).
    pub id: String,
    /// Its URL, when known: the input's (JSONL `url`, WARC target URI), else the one the page
    /// declares (`<link rel=canonical>`, else `og:url`; absolute http(s) only).
    pub url: Option<String>,
    /// Its place in an output folder, without `.txt`.
    pub rel: PathBuf,
    /// The extracted main text (empty on error).
    pub text: String,
    /// Evaluation words of the text (Gottron's tokens: runs of letters and digits).
    pub words: usize,
    /// The page's language (ISO 639-1), detected.
    pub language: Option<String>,
    /// Milliseconds spent on the page (read, decode, parse, extract).
    pub ms: f64,
    /// Why the page failed, if it did.
    pub error: Option<String>,
    /// The page's confidence (an estimate of its F1) when a confidence model is given.
    pub confidence: Option<f64>,
    /// Fewer words than the run's `--min-words` (set by the run: [`super::Marks`]).
    pub empty: bool,
    /// A confidence below the run's `--min-confidence` (set by the run: [`super::Marks`]).
    pub low_confidence: bool,
    /// What the page budgets cut (the page was extracted all the same).
    pub notes: Vec<String>,
    /// The posts of the page with their fields, one JSON object each, when the extractor
    /// segments pages (`Extractor::segments`).
    pub segments: Option<Vec<serde_json::Value>>,
    /// The Markdown of the kept elements, when the run asks for it ([`crate::structure`]).
    pub markdown: Option<String>,
    /// The clean HTML fragment of the kept elements, when the run asks for it.
    pub html: Option<String>,
    /// The page's metadata, when the run asks for it.
    pub metadata: Option<crate::structure::meta::Metadata>,
}

/// Reads, parses and extracts one page; the parse builds what `ex` needs and `more` (the
/// language is detected only when `more` asks for it).
pub fn process(item: Item, ex: &dyn Extractor, limits: &Limits, more: Needs) -> Outcome {
    process_with(item, ex, limits, more, Layout::default(), None)
}

/// [`process`], with the structured outputs of `layout` (the page is then parsed with
/// [`crate::structure::NEEDS`] too) and the page's confidence from `model` when one is given.
pub fn process_with(
    item: Item,
    ex: &dyn Extractor,
    limits: &Limits,
    more: Needs,
    layout: Layout,
    model: Option<&crate::objective::confidence::Model>,
) -> Outcome {
    let more = if layout.any() { more | crate::structure::NEEDS } else { more };
    let more = if layout.metadata { more | Needs::LANG } else { more };
    let started = Instant::now();
    let mut out = Outcome { id: item.id, url: item.url, rel: item.rel, ..Default::default() };
    let html = match item.payload {
        Payload::File(p) => decode::read_bytes(&p, limits.max_page_bytes).map(|b| decode::decode_html(&b).0),
        Payload::Bytes(b) => {
            decode::unpack(b, limits.max_page_bytes).map(|b| decode::decode_html(&b).0).map_err(|e| e.with_id(&out.id))
        }
        Payload::Http(b, charset) => {
            decode::unpack(b, limits.max_page_bytes).map(|b| decode_http(&b, charset)).map_err(|e| e.with_id(&out.id))
        }
        Payload::JsonLine(line) => {
            json_page(&line, &mut out).map_err(|e| crate::error::Error::input(e).with_id(&out.id))
        }
        Payload::Error(e) => Err(crate::error::Error::input(e).with_id(&out.id)),
    };
    if out.url.is_none()
        && let Ok(html) = &html
    {
        out.url = head_url(html);
    }
    match html {
        Ok(html) if looks_binary(&html) => out.error = Some(format!("{}: binary data, not an HTML page", out.id)),
        Ok(html) => extract(&html, ex, limits, more, layout, model, &mut out),
        Err(e) => out.error = Some(e.to_string()),
    }
    out.ms = started.elapsed().as_secs_f64() * 1000.0;
    out
}

impl crate::error::Error {
    /// Names the page in the message when the error names no file.
    fn with_id(self, id: &str) -> Self {
        if self.path.is_some() { self } else { self.with_path(std::path::Path::new(id)) }
    }
}

fn extract(
    html: &str,
    ex: &dyn Extractor,
    limits: &Limits,
    more: Needs,
    layout: Layout,
    model: Option<&crate::objective::confidence::Model>,
    out: &mut Outcome,
) {
    let needs = ex.needs() | more;
    let Ok((mut doc, notes)) = isolate(|| Document::parse_for(html, limits, needs)) else {
        out.error = Some(format!("{}: the HTML parser failed on this page", out.id));
        return;
    };
    doc.url = out.url.as_deref().map(Into::into);
    doc.origin = Some(out.url.clone().unwrap_or_else(|| out.id.clone()));
    out.notes = notes;
    out.language = doc.lang.clone();
    // One extraction gives the text, the structured outputs and the confidence signals.
    let run = || {
        let sel = crate::extract::extract_selection(ex, &doc)?;
        let text = doc.render(&sel);
        let confidence = model.map(|m| m.predict(&crate::objective::confidence::signals(&doc, &sel, &text)));
        Ok::<_, crate::extract::Failure>((sel, text, confidence))
    };
    match isolate(run) {
        Ok(Ok((sel, text, confidence))) => {
            out.confidence = confidence;
            for_each_token(&text, TokenRule::default(), |_| out.words += 1);
            out.text = text;
            if layout.markdown {
                out.markdown = Some(crate::structure::markdown(&doc, &sel, layout.opts));
            }
            if layout.html {
                out.html = Some(crate::structure::html(&doc, &sel, layout.opts));
            }
            if layout.metadata {
                out.metadata = Some(crate::structure::meta::read(html, doc.lang.as_deref(), doc.url.as_deref()));
            }
            out.segments =
                isolate(|| ex.segments(&doc).map(|s| s.map(|s| s.to_json(&doc)))).ok().and_then(|r| r.ok()).flatten();
        }
        Ok(Err(failure)) => out.error = Some(format!("{}: {failure}", out.id)),
        Err(_) => out.error = Some(format!("{}: the extractor failed on this page", out.id)),
    }
}

/// The page of a JSONL line: an object with an `html` string and optional `id` and `url`
/// (strings or numbers), which replace the item's.
fn json_page(line: &[u8], out: &mut Outcome) -> std::result::Result<String, String> {
    let (id, url, html) = json_line(line)?;
    if let Some(id) = id {
        out.rel = out.rel.join(crate::paths::component(&id));
        out.id = id;
    } else if let Some(line_no) = out.id.rsplit(':').next() {
        out.rel = out.rel.join(line_no);
    }
    if let Some(url) = url {
        out.url = Some(url);
    }
    html
}

/// A JSONL line's optional `id` and `url` (strings or numbers) and its `html` (newlines
/// normalised, or why there is none), or why the line is not a JSON object.
pub fn json_line(line: &[u8]) -> JsonPage {
    let v: serde_json::Value = decode::json_lossy(line).map_err(|e| format!("not a JSON object: {e}"))?;
    let obj = v.as_object().ok_or("not a JSON object")?;
    let text = |k: &str| match obj.get(k) {
        Some(serde_json::Value::String(s)) => Some(s.clone()),
        Some(n @ serde_json::Value::Number(_)) => Some(n.to_string()),
        _ => None,
    };
    let html = match obj.get("html") {
        Some(serde_json::Value::String(s)) => Ok(decode::normalise_newlines(s.clone())),
        Some(_) => Err("\"html\" is not a string".into()),
        None => Err("no \"html\" field".into()),
    };
    Ok((text("id"), text("url"), html))
}

/// A JSONL line: its `id`, `url` and `html` (or why there is no page), or why it is no object.
pub type JsonPage = std::result::Result<(Option<String>, Option<String>, std::result::Result<String, String>), String>;

/// A WARC page: the HTTP header's charset decides only when the page itself gives no evidence
/// (no BOM, not valid UTF-8, no declared charset); otherwise the usual order of `decode_html`.
pub fn decode_http(bytes: &[u8], charset: Option<&'static encoding_rs::Encoding>) -> String {
    match charset {
        Some(enc)
            if encoding_rs::Encoding::for_bom(bytes).is_none()
                && std::str::from_utf8(bytes).is_err()
                && decode::declared_charset(bytes).is_none() =>
        {
            decode::normalise_newlines(enc.decode_without_bom_handling(bytes).0.into_owned())
        }
        _ => decode::decode_html(bytes).0,
    }
}

/// Binary data decoded as text (the rule gold texts are checked by too).
pub use crate::goldset::decode::looks_binary;

#[cfg(test)]
mod tests {
    use super::*;

    fn item(payload: Payload) -> Item {
        Item { id: "d.jsonl:3".into(), url: None, rel: PathBuf::from("d"), payload }
    }

    #[test]
    fn a_json_line_gives_text_words_language_and_ids() {
        let ex = crate::extract::build(
            &crate::extract::Engine::default(),
            &crate::extract::space("full").unwrap().defaults(),
        )
        .unwrap();
        let line = br#"{"id": 7, "url": "http://x/", "html": "<p>The cat sat on the mat with the hat.</p>"}"#;
        let o = process(item(Payload::JsonLine(line.to_vec())), ex.as_ref(), &Limits::default(), Needs::LANG);
        assert_eq!(o.error, None);
        assert_eq!((o.id.as_str(), o.url.as_deref(), o.rel.to_str()), ("7", Some("http://x/"), Some("d/7")));
        assert_eq!(o.text, "The cat sat on the mat with the hat.");
        assert_eq!((o.words, o.language.as_deref()), (9, Some("en")));
    }

    #[test]
    fn bad_lines_and_binary_data_are_page_errors() {
        let ex = crate::extract::build(
            &crate::extract::Engine::default(),
            &crate::extract::space("full").unwrap().defaults(),
        )
        .unwrap();
        let l = Limits::default();
        for (line, why) in [
            (&b"not json"[..], "not a JSON object"),
            (b"[1,2]", "not a JSON object"),
            (b"{\"id\":\"a\"}", "no \"html\" field"),
            (b"{\"html\":5}", "\"html\" is not a string"),
        ] {
            let o = process(item(Payload::JsonLine(line.to_vec())), ex.as_ref(), &l, Needs::LANG);
            let e = o.error.unwrap();
            assert!(e.contains(why) && e.starts_with("d.jsonl:3: ") || e.starts_with("a: "), "{e}");
        }
        let png: Vec<u8> = (0..4000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        let o = process(item(Payload::Bytes(png)), ex.as_ref(), &l, Needs::LANG);
        assert!(o.error.unwrap().contains("binary data"));
        let o = process(item(Payload::Bytes(b"<p>caf\xe9 ok</p>".to_vec())), ex.as_ref(), &l, Needs::LANG);
        assert_eq!((o.error, o.text.as_str()), (None, "café ok"));
    }

    #[test]
    fn the_http_charset_decides_only_when_the_page_says_nothing() {
        let ex = crate::extract::build(
            &crate::extract::Engine::default(),
            &crate::extract::space("full").unwrap().defaults(),
        )
        .unwrap();
        let l = Limits::default();
        let cp1251 = encoding_rs::Encoding::for_label(b"windows-1251");
        // "привет" in windows-1251, no declaration in the page: the header's charset.
        let page = b"<p>\xef\xf0\xe8\xe2\xe5\xf2</p>".to_vec();
        let o = process(item(Payload::Http(page.clone(), cp1251)), ex.as_ref(), &l, Needs::LANG);
        assert_eq!(o.text, "привет");
        // Without the header: chardetng's guess (no longer a fixed windows-1252 fallback).
        let o = process(item(Payload::Http(page, None)), ex.as_ref(), &l, Needs::LANG);
        assert_eq!(o.text, "привет");
        // Valid UTF-8 wins over a wrong header.
        let o = process(item(Payload::Http("<p>привет</p>".as_bytes().to_vec(), cp1251)), ex.as_ref(), &l, Needs::LANG);
        assert_eq!(o.text, "привет");
    }

    #[test]
    fn a_page_without_an_input_url_gets_the_one_it_declares_in_its_head() {
        let dir = std::env::temp_dir().join(format!("cetune-page-url-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ex = crate::extract::build(
            &crate::extract::Engine::default(),
            &crate::extract::space("full").unwrap().defaults(),
        )
        .unwrap();
        let page = |name: &str, html: &str| {
            let p = dir.join(name);
            std::fs::write(&p, html).unwrap();
            let item = Item { id: name.into(), url: None, rel: PathBuf::from(name), payload: Payload::File(p) };
            process(item, ex.as_ref(), &Limits::default(), Needs::default()).url
        };
        let body = "<body><p>The cat sat on the mat with the hat.</p></body>";
        let og = format!("<head><meta property=og:url content='https://x.org/og'></head>{body}");
        assert_eq!(page("og.html", &og).as_deref(), Some("https://x.org/og"));
        // A canonical link in the body is not the page's declaration; a relative one is no URL.
        let late = format!("<head></head><body><link rel=canonical href='https://x.org/late'>{body}");
        assert_eq!(page("late.html", &late), None);
        assert_eq!(page("rel.html", &format!("<head><link rel=canonical href=/a></head>{body}")), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
