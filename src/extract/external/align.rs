//! An external extractor's text as a keep-mask over the page's canonical words: the text's
//! evaluation tokens and the page's words are aligned by one longest common subsequence (the LCS
//! trace-back of `annotate` and of the LCS F1 measure), and a word is kept when at least half of
//! its tokens are in it. Words of the text that the page does not hold in that order are lost,
//! so the mask renders the part of the text that is the page's own.

use crate::document::Document;
use crate::eval::words::TokenRule;
use crate::eval::{GoldIndex, for_each_token};

/// The keep-mask of `text` over the canonical words of `doc` (its source view's words).
pub fn mask(doc: &Document, text: &str) -> Vec<bool> {
    let rule = TokenRule::default();
    let mut tokens = Vec::new();
    for_each_token(text, rule, |t| tokens.push(t.to_string()));
    let words = &doc.source.words;
    let n = words.len();
    if tokens.is_empty() {
        return vec![false; n];
    }
    let index = GoldIndex::new(&tokens);
    let (mut rows, mut owner) = (Vec::new(), Vec::new());
    for w in 0..n {
        for_each_token(words.get(w), rule, |t| {
            rows.push(index.row(t));
            owner.push(w);
        });
    }
    let matched = index.matched_rows(&rows);
    let (mut hits, mut all) = (vec![0u32; n], vec![0u32; n]);
    for (&w, &m) in owner.iter().zip(&matched) {
        all[w] += 1;
        hits[w] += u32::from(m);
    }
    hits.iter().zip(&all).map(|(&h, &a)| a > 0 && 2 * h >= a).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{Selection, View};

    fn kept(html: &str, text: &str) -> String {
        let doc = Document::parse(html);
        let mut sel = Selection::new(View::Source);
        doc.select_words(&mask(&doc, text), &mut sel);
        doc.render(&sel)
    }

    #[test]
    fn the_text_is_found_in_page_order_and_foreign_words_are_dropped() {
        let html = "<p>Menu Home About</p><p>The quick brown fox jumps.</p><p>Share this page</p>";
        assert_eq!(kept(html, "The quick brown fox jumps."), "The quick brown fox jumps.");
        // Case and punctuation do not matter; words the page lacks are lost; order is the page's.
        assert_eq!(kept(html, "THE QUICK, brown — lazy fox"), "The quick brown fox");
        assert_eq!(kept(html, ""), "");
        // A repeated word is taken once, at the place the alignment chooses.
        assert_eq!(kept("<p>home a home b</p>", "home b"), "home b");
    }
}
