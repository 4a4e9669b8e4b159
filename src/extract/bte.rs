//! # Body Text Extraction (BTE)
//!
//! The page is a sequence of tokens, 1 for a tag and 0 for a word; BTE takes the single span
//! that maximises the words inside plus the tags outside, i.e. the maximum-sum segment with +1
//! per word and −1 per tag. The classic parameter-free baseline.
//!
//! ## References
//! A. Finn, N. Kushmerick, B. Smyth, *Fact or Fiction: Content Classification for Digital
//! Libraries*, DELOS Workshop 2001; as described by V. Baisa, *Web Content Cleaning*, 2009.
//!
//! ## Parameters
//! - `start_at_body`: search from the first token after the head (true), as the ports do; the
//!   head ends where an HTML5 parser ends it (D.1.1), so a page without `<body>` still has one.
//!
//! ## Interpretation
//! `algorithms.md` §4a: every tag and every opaque segment (comment, script/style/title body)
//! scores −1, every word +1, whitespace is not a token; the maximum-sum segment is found by
//! Kadane's algorithm in O(N). Ties prefer the earliest start, then the longest span. No words →
//! empty extract; no tags → every word.

use super::Extractor;
use crate::document::{Document, Kind, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;

/// Body Text Extraction.
pub struct Bte {
    start_at_body: bool,
}

impl Bte {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(Bte { start_at_body: r.bool("start_at_body")? }))
    }
}

/// The maximum-sum segment of `(position, score)` pairs, as the positions of its first and last
/// pair: the earliest start among the maxima, then the longest span. `None` when no segment has
/// a positive sum. Kadane's algorithm, O(N): the running sum restarts only when it turns
/// negative, so the start it carries is the earliest one reaching the maximum ending here.
fn max_segment(scores: impl Iterator<Item = (usize, i64)>) -> Option<(usize, usize)> {
    let (mut best, mut best_span) = (0i64, None::<(usize, usize)>);
    let (mut cur, mut start) = (-1i64, 0usize);
    for (k, s) in scores {
        if cur < 0 {
            cur = 0;
            start = k;
        }
        cur += s;
        // A later equal maximum has a start no earlier than the best one: extend it only when the
        // start is the same (longest span), never move to a later start.
        if cur > best || (cur == best && best_span.is_some_and(|(i, _)| i == start)) {
            best = cur;
            best_span = Some((start, k));
        }
    }
    best_span
}

impl Extractor for Bte {
    fn view(&self) -> View {
        View::Source
    }

    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::SOURCE
    }
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let tokens = &doc.source.tokens;
        let from = if self.start_at_body { doc.source.body_start.min(tokens.len()) } else { 0 };
        // Whitespace is not a token: Space entries are skipped, not scored 0.
        let scores = tokens
            .iter()
            .enumerate()
            .skip(from)
            .filter(|(_, t)| t.kind != Kind::Space)
            .map(|(k, t)| (k, if t.kind == Kind::Word { 1 } else { -1 }));
        if let Some((i, j)) = max_segment(scores) {
            out.units.extend(tokens[i..=j].iter().filter(|t| t.kind == Kind::Word).map(|t| t.word));
            out.units.dedup(); // a word split by inline tags has several tokens
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;
    use super::*;

    fn seg(scores: &[i64]) -> Option<(usize, usize)> {
        max_segment(scores.iter().copied().enumerate())
    }

    #[test]
    fn returns_the_one_text_dense_span() {
        let page = "<html><head><title>Site name</title><script>var words = 'a b c d e f';</script></head><body>\
            <ul><li><a href=/>Home</a></li><li><a href=/n>Latest news</a></li><li><a href=/c>Contact us</a></li></ul>\
            <div><p>The long article text has many words in a row and only <b>one</b> inline tag inside it so it wins.</p></div>\
            <div class=foot><a href=/i>Imprint</a> <a href=/p>Privacy</a></div></body></html>";
        let want = "The long article text has many words in a row and only one inline tag inside it so it wins.";
        assert_eq!(run("bte", &[], page), want);
        // The head holds no words (D.1.1), and a best span never starts with a run of code, so
        // starting the search at token 0 changes nothing.
        assert_eq!(run("bte", &["start_at_body=false"], page), want);
    }

    #[test]
    fn segment_ties_and_edges() {
        assert_eq!(seg(&[1, 1, -5, 1, 1]), Some((0, 1)), "equal sums: earliest start");
        assert_eq!(seg(&[-1, -1]), None);
        assert_eq!(seg(&[]), None);
        assert_eq!(seg(&[1, -1, 1]), Some((0, 2)), "same start: longest span");
        assert_eq!(seg(&[-1, 1, 1, -1, -1, 1, 1, -1]), Some((1, 6)));
        assert_eq!(seg(&[-1, -1, 1, -1]), Some((2, 2)));
        assert_eq!(seg(&[1, -2, 3]), Some((2, 2)));
        // Positions are the caller's (Space tokens are skipped, not scored).
        assert_eq!(max_segment([(3, -1), (5, 1), (9, 1), (12, -1)].into_iter()), Some((5, 9)));
    }

    #[test]
    fn edge_cases() {
        assert_eq!(run("bte", &[], ""), "");
        assert_eq!(run("bte", &[], "<html><head><title>t</title></head><body><hr><br></body></html>"), "");
        assert_eq!(run("bte", &[], "just   text\nwithout tags"), "just text without tags");
        assert_eq!(run("bte", &["start_at_body=false"], "just text"), "just text");
    }
}
