//! Any bytes: decode, parse into the document model, run every extractor at its defaults and
//! render the text. Nothing may panic, hang or overflow the stack.
#![no_main]

use cetune::document::Document;
use cetune::extract::{self, Extractor};
use cetune::goldset::decode::decode_html;
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

static EXTRACTORS: LazyLock<Vec<Box<dyn Extractor>>> = LazyLock::new(|| {
    let engine = extract::Engine::default();
    extract::names()
        .into_iter()
        .map(|n| extract::build(&engine, &cetune::extract::space(n).unwrap().defaults()).unwrap())
        .collect()
});

fuzz_target!(|data: &[u8]| {
    let (html, _) = decode_html(data);
    let doc = Document::parse(&html);
    for ex in EXTRACTORS.iter() {
        let text = extract::extract_text(ex.as_ref(), &doc).unwrap_or_default();
        let _ = cetune::eval::tokens(&text, Default::default());
    }
});
