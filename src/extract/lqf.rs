//! # Link Quota Filter (LQF)
//!
//! Removes block-level elements whose own text is mostly link anchor text: navigation lists,
//! link farms, teaser columns.
//!
//! ## References
//! C. Mantratzis, M. Orgun, S. Cassidy, *Separating XHTML content from navigation clutter using
//! DOM-structure block analysis*, Hypertext 2005, doi:10.1145/1083356.1083384; as adapted by
//! T. Gottron, *An Evolutionary Approach to Automatically Optimise Web Content Extraction*, 2009.
//!
//! ## Parameters
//! - `t`: link quota threshold; a block whose link share is above `t` is removed (0.25).
//! - `min_chars`: blocks with fewer own characters are never removed (0).
//! - `href_only`: link text is text inside `<a href>` only (true).
//!
//! ## Interpretation
//! `algorithms.md` §2a: a block's *own text* is the text reachable without entering another
//! block-level element, so nested blocks are judged on their own.

use super::Extractor;
use crate::document::parse::NONE;
use crate::document::{Document, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;

/// A configured link quota filter.
pub struct Lqf {
    t: f64,
    min_chars: u32,
    href_only: bool,
}

impl Lqf {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(Lqf {
            t: r.float("t")?,
            min_chars: r.int("min_chars")?.max(0) as u32,
            href_only: r.bool("href_only")?,
        }))
    }
}

impl Extractor for Lqf {
    fn view(&self) -> View {
        View::Dom
    }

    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::WORDS
    }
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        for (i, q) in self.quotas(doc).into_iter().enumerate() {
            if q.is_none_or(|q| q <= self.t) {
                out.units.push(i as u32);
            }
        }
        Ok(())
    }

    /// The soft vote: each word's confidence is one minus its block's link quota (1 for a block
    /// protected by `min_chars` or outside any block).
    fn confidence(&self, doc: &Document, out: &mut Vec<f32>) -> bool {
        out.clear();
        out.resize(doc.source.words.len(), 0.0);
        for (u, q) in self.quotas(doc).into_iter().enumerate() {
            let c = 1.0 - q.unwrap_or(0.0) as f32;
            doc.words.words_of(u).iter().for_each(|&w| out[w as usize] = c);
        }
        true
    }
}

impl Lqf {
    /// The link quota of each DOM text unit's block; `None` where the filter never removes
    /// (no block, an empty block, or one protected by `min_chars`).
    fn quotas(&self, doc: &Document) -> Vec<Option<f64>> {
        let dom = &doc.dom;
        // own and link characters per owner block, accumulated in a map keyed by node index.
        let mut own = std::collections::HashMap::<u32, (u32, u32)>::new();
        for info in &dom.info {
            if info.block == NONE {
                continue;
            }
            let e = own.entry(info.block).or_default();
            e.0 += info.chars;
            if if self.href_only { info.in_href } else { info.in_a } {
                e.1 += info.chars;
            }
        }
        dom.info
            .iter()
            .map(|info| {
                let o = info.block;
                own.get(&o)
                    .filter(|&&(total, _)| o != NONE && total > 0 && total >= self.min_chars)
                    .map(|&(total, link)| f64::from(link) / f64::from(total))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;

    const PAGE: &str = "<body><ul><li><a href=/a>Home</a></li><li><a href=/b>Sport</a></li></ul>\
        <div><p>The council met on Monday and, after a <a href=/x>long debate</a>, approved the new budget for schools and roads.</p>\
        <ul><li><a href=/c>Related story</a></li></ul></div><footer><a href=/i>Imprint</a> | <a href=/p>Privacy</a></footer></body>";

    #[test]
    fn drops_navigation_keeps_paragraph_with_inline_links() {
        let t = run("lqf", &[], PAGE);
        assert!(t.contains("The council met on Monday"), "{t}");
        assert!(t.contains("long debate"), "{t}");
        assert!(!t.contains("Home") && !t.contains("Sport") && !t.contains("Related") && !t.contains("Imprint"), "{t}");
    }

    #[test]
    fn the_soft_confidence_is_one_minus_the_link_quota() {
        let doc = crate::document::Document::parse(PAGE);
        let ex = super::super::testutil::with("lqf", &[]);
        let mut c = Vec::new();
        assert!(ex.confidence(&doc, &mut c));
        let at = |w: &str| c[(0..doc.source.words.len()).find(|&i| doc.source.words.get(i) == w).unwrap()];
        assert!((at("Home") - 0.0).abs() < 1e-6, "a navigation item is all link");
        let council = at("council");
        assert!(council > 0.75 && council < 1.0, "{council}");
    }

    #[test]
    fn threshold_one_keeps_everything_and_min_chars_protects_small_blocks() {
        let t = run("lqf", &["t=1.0"], PAGE);
        assert!(t.contains("Home") && t.contains("Imprint"));
        let t = run("lqf", &["min_chars=200"], PAGE);
        assert!(t.contains("Home"), "{t}");
    }
}
