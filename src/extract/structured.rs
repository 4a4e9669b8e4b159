//! # Structured data
//!
//! Keeps the page's words that its structured data vouches for: the text fields of its JSON-LD
//! (`description`, `articleBody`, `text`, `reviewBody`, answers; read once per page by
//! `document::page_features`) are aligned with the page's canonical words, and a word is kept
//! when it lies in a run of `n` consecutive page words that also occurs in that text. Product
//! pages, Q&A and FAQ pages often state their content there.
//!
//! ## References
//! schema.org vocabulary (https://schema.org/Product, /Article, /QAPage, /FAQPage) and the
//! W3C JSON-LD 1.1 recommendation (https://www.w3.org/TR/json-ld11/); the n-gram alignment of
//! text with a page's tokens is the one Bevendorff et al. use to bring text-only extractors
//! into a token vote (*An Empirical Comparison of Web Content Extraction Algorithms*, SIGIR
//! 2023, doi:10.1145/3539618.3591920).
//!
//! ## Parameters
//! - `n`: the length of the word runs that must match (4).
//! - `min_words`: structured text with fewer words is ignored (10).
//!
//! ## Interpretation
//! The word space stays the page's visible canonical words (docs/combinations.md, "Page kinds": how
//! structured data enters the word space): text that is only in the JSON-LD and nowhere on
//! the page is not output, because a combination votes over one word sequence and the gold
//! is scored against the extract's words in page order.

use super::Extractor;
use crate::document::{Document, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

/// A configured structured-data aligner.
pub struct Structured {
    n: usize,
    min_words: usize,
}

impl Structured {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(Structured { n: r.int("n")?.max(1) as usize, min_words: r.int("min_words")?.max(0) as usize }))
    }
}

/// Lower-cased letters and digits of a word (the measure's tokens), `None` when it has none.
fn norm(w: &str) -> Option<String> {
    let s: String = w.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect();
    (!s.is_empty()).then_some(s)
}

fn gram_hash(ws: &[String]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    ws.hash(&mut h);
    h.finish()
}

impl Extractor for Structured {
    fn view(&self) -> View {
        View::Source
    }
    /// The page features' JSON-LD text and the source view's words.
    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::SOURCE | crate::document::Needs::FEATURES
    }
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let text: Vec<String> = doc
            .features
            .structured_text
            .iter()
            .flat_map(|t| t.split(|c: char| !c.is_alphanumeric()).filter_map(norm).collect::<Vec<_>>())
            .collect();
        if text.len() < self.min_words.max(1) || text.len() < self.n {
            return Ok(());
        }
        let grams: HashSet<u64> = text.windows(self.n).map(gram_hash).collect();
        let words = &doc.source.words;
        let page: Vec<(usize, String)> = (0..words.len()).filter_map(|i| norm(words.get(i)).map(|w| (i, w))).collect();
        let mut keep = vec![false; words.len()];
        let ws: Vec<String> = page.iter().map(|(_, w)| w.clone()).collect();
        for (k, g) in ws.windows(self.n).enumerate() {
            if grams.contains(&gram_hash(g)) {
                page[k..k + self.n].iter().for_each(|(i, _)| keep[*i] = true);
            }
        }
        out.units.extend(keep.iter().enumerate().filter(|(_, k)| **k).map(|(i, _)| i as u32));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;

    #[test]
    fn keeps_the_product_description_its_json_ld_states() {
        let html = r#"<html><head><script type="application/ld+json">{"@type":"Product","name":"Kettle","description":"A steel kettle that boils a litre of water in two minutes."}</script></head>
            <body><nav><a href=/>Home</a> <a href=/shop>Shop</a></nav><h1>Kettle</h1>
            <p>A steel kettle that boils a litre of water in two minutes.</p>
            <div>Customers also bought: a teapot, two mugs.</div></body></html>"#;
        let t = run("structured", &[], html);
        assert_eq!(t, "A steel kettle that boils a litre of water in two minutes.");
        assert_eq!(run("structured", &["min_words=50"], html), "");
    }
}
