//! Making gold sets for one's own pages: `goldset new` (a gold-set folder from a collection of
//! pages, `new.rs`), `annotate` (a local web page where the user keeps or drops each text block
//! of a page, pre-filled by an extractor, `server.rs`) and the effort measure (how many block
//! toggles a pre-fill leaves to the user, `effort.rs`).
//!
//! The annotator's blocks are the document model's text blocks: runs of DOM text units with one
//! segment number (`TextInfo::segment`: a block-level start or end tag, or a second `<br>`,
//! starts a new one). A saved gold text is the kept blocks' text, blocks separated by a blank
//! line. Imports from the crate: `document`, `extract`, `eval`, `goldset`, `collect` (the
//! inputs of `goldset new`), `objective` (parsing gold documents for the effort measure),
//! `report` (atomic writes), `store` (time stamps), `yaml`, `limits`, `paths` and `error`.

pub mod effort;
pub mod http;
pub mod new;
#[cfg(feature = "cli")]
pub mod server;

use crate::document::{Document, Selection};
use crate::eval::lcs::GoldIndex;
use crate::eval::words::{TokenRule, for_each_token};
use crate::extract::Extractor;

/// One text block of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Its text: the units joined by a space (a newline where a single `<br>` lies between).
    pub text: String,
    /// Its first DOM text unit.
    pub first: u32,
    /// One past its last unit.
    pub end: u32,
    /// Evaluation tokens (runs of letters and digits) in its text.
    pub tokens: u32,
}

/// The text blocks of a parsed page, in document order.
pub fn blocks(doc: &Document) -> Vec<Block> {
    let texts = &doc.dom.texts;
    let mut out: Vec<Block> = Vec::new();
    let mut start = 0usize;
    let n = texts.len();
    while start < n {
        let seg = doc.dom.info[start].segment;
        let mut end = start + 1;
        while end < n && doc.dom.info[end].segment == seg {
            end += 1;
        }
        let units: Vec<u32> = (start as u32..end as u32).collect();
        let text = texts.render(&units);
        let mut tokens = 0;
        for_each_token(&text, TokenRule::default(), |_| tokens += 1);
        out.push(Block { text, first: start as u32, end: end as u32, tokens });
        start = end;
    }
    out
}

/// The block of each DOM text unit.
pub fn block_of_units(blocks: &[Block]) -> Vec<u32> {
    let mut out = Vec::new();
    for (b, bl) in blocks.iter().enumerate() {
        out.extend(std::iter::repeat_n(b as u32, (bl.end - bl.first) as usize));
    }
    out
}

/// The blocks an extractor keeps: a block is kept when more than half of its canonical words are
/// in the extractor's keep-mask (a block without canonical words is dropped).
pub fn prefill(doc: &Document, blocks: &[Block], ex: &dyn Extractor) -> crate::extract::Fallible<Vec<bool>> {
    let mut sel = Selection::new(ex.view());
    ex.extract(doc, &mut sel)?;
    let mask = doc.mask(&sel);
    Ok(blocks
        .iter()
        .map(|b| {
            let (mut all, mut kept) = (0usize, 0usize);
            for u in b.first..b.end {
                for &w in doc.words.words_of(u as usize) {
                    all += 1;
                    kept += usize::from(mask.get(w as usize).copied().unwrap_or(false));
                }
            }
            kept * 2 > all
        })
        .collect())
}

/// The blocks a gold text keeps: the page's evaluation tokens, block after block, are aligned
/// with the gold's by one longest common subsequence (the alignment the LCS F1 measure scores),
/// and a block is gold when more than half of its tokens are in it. A block without tokens is
/// not gold.
pub fn gold_blocks(blocks: &[Block], gold: &str, rule: TokenRule) -> Vec<bool> {
    let mut gold_tokens = Vec::new();
    for_each_token(gold, rule, |t| gold_tokens.push(t.to_string()));
    let index = GoldIndex::new(&gold_tokens);
    gold_blocks_indexed(blocks, &index, rule)
}

/// [`gold_blocks`] with the gold already indexed.
pub fn gold_blocks_indexed(blocks: &[Block], index: &GoldIndex, rule: TokenRule) -> Vec<bool> {
    let mut rows = Vec::new();
    let mut owner = Vec::new();
    for (b, bl) in blocks.iter().enumerate() {
        for_each_token(&bl.text, rule, |t| {
            rows.push(index.row(t));
            owner.push(b);
        });
    }
    let matched = index.matched_rows(&rows);
    let mut hits = vec![0usize; blocks.len()];
    let mut all = vec![0usize; blocks.len()];
    for (&b, &m) in owner.iter().zip(&matched) {
        all[b] += 1;
        hits[b] += usize::from(m);
    }
    hits.iter().zip(&all).map(|(&h, &a)| a > 0 && h * 2 > a).collect()
}

/// The gold text of a selection of blocks: the kept blocks' text, separated by blank lines,
/// with a final newline (empty when nothing is kept).
pub fn gold_text(blocks: &[Block], keep: &[bool]) -> String {
    let kept: Vec<&str> = blocks.iter().zip(keep).filter(|(_, k)| **k).map(|(b, _)| b.text.as_str()).collect();
    if kept.is_empty() { String::new() } else { format!("{}\n", kept.join("\n\n")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<html><body><div id=nav><a href=/>Home</a> <a href=/x>News</a></div>\
        <h1>A title here</h1><p>The first paragraph has quite a few words in it.<br>Second line.</p>\
        <p>Another paragraph follows with words.</p><div>Copyright 2024 nobody</div></body></html>";

    #[test]
    fn blocks_are_the_segments_in_order_and_the_text_is_blank_line_separated() {
        let doc = Document::parse(PAGE);
        let b = blocks(&doc);
        let texts: Vec<&str> = b.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Home News",
                "A title here",
                "The first paragraph has quite a few words in it.\nSecond line.",
                "Another paragraph follows with words.",
                "Copyright 2024 nobody"
            ]
        );
        assert_eq!(block_of_units(&b).len(), doc.dom.texts.len());
        let text = gold_text(&b, &[false, true, true, false, false]);
        assert_eq!(text, "A title here\n\nThe first paragraph has quite a few words in it.\nSecond line.\n");
        assert_eq!(gold_text(&b, &[false; 5]), "");
    }

    #[test]
    fn gold_blocks_follow_the_alignment_and_a_saved_text_gives_back_its_blocks() {
        let doc = Document::parse(PAGE);
        let b = blocks(&doc);
        let keep = [false, true, true, false, false];
        assert_eq!(gold_blocks(&b, &gold_text(&b, &keep), TokenRule::default()), keep);
        // A gold text that has most of a block's words, with typos elsewhere.
        let g = "a title HERE. The first paragraph has quite few words in it Second line another";
        assert_eq!(gold_blocks(&b, g, TokenRule::default()), keep);
        let full = crate::extract::build(
            &crate::extract::Engine::default(),
            &crate::extract::space("full").unwrap().defaults(),
        )
        .unwrap();
        assert_eq!(prefill(&doc, &b, full.as_ref()).unwrap(), [true; 5]);
    }
}
