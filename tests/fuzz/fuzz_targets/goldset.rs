//! Any bytes as a gold-set file: the page reader (size budget, gzip, BOM and charset detection,
//! the budget pre-scan, the budgeted parse) and the native gold-text reader. Nothing may panic
//! or hang, and no output may exceed its budget.
#![no_main]

use cetune::document::{Document, budget};
use cetune::goldset::{decode, native};
use cetune::limits::Limits;
use libfuzzer_sys::fuzz_target;

const MAX: u64 = 1 << 20;

fuzz_target!(|data: &[u8]| {
    let limits = Limits { max_page_bytes: MAX, max_attrs: 4, max_markup: 256, ..Limits::default() };
    if let Ok(bytes) = decode::unpack(data.to_vec(), MAX) {
        assert!(bytes.len() as u64 <= MAX);
        let _ = decode::declared_charset(&bytes);
        let (html, _) = decode::decode_html(&bytes);
        let (kept, _) = budget::apply(&html, &limits);
        assert!(kept.len() <= html.len());
        assert!(kept.bytes().filter(|&c| c == b'<' || c == b'&').count() <= limits.max_markup);
        let (doc, _) = Document::parse_limited(&html, &limits);
        let _ = doc.dom.texts.len() + doc.source.words.len();
    }
    if let Ok(gold) = native::gold_text(data.to_vec(), MAX) {
        let _ = gold.chars().any(char::is_alphanumeric);
    }
});
