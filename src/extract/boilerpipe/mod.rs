//! # boilerpipe shallow-text classifiers
//!
//! Splits the page into text blocks at every tag that is not inline, and classifies each block
//! from its own, its predecessor's and its successor's shallow features: link density and
//! either text density (words per line wrapped at 80 characters) or the number of words.
//!
//! ## References
//! C. Kohlschütter, P. Fankhauser, W. Nejdl, *Boilerplate Detection using Shallow Text
//! Features*, WSDM 2010; the reference implementation is boilerpipe, here its Python port
//! `boilerpy3` (`DefaultExtractor`, `ArticleExtractor`).
//!
//! ## Parameters
//! - `ld_curr` (0.333333), `ld_prev` (0.555556): link-density thresholds of the block and its
//!   predecessor;
//! - `t_curr` (9), `t_next_low` (10), `t_prev` (4), `t_next_high` (11): the thresholds of the
//!   decision tree on text density (`variant: density`, `DensityRulesClassifier`), or on word
//!   counts (`variant: words`, `NumWordsRulesClassifier`, published values 16, 15, 4, 17; its
//!   fixed 40-word limit after a link-heavy predecessor stays);
//! - `variant`: `density` or `words`;
//! - `post_filters`: `none` (the classifier alone), `default` (`DefaultExtractor`: blocks of
//!   equal text density are fused first) or `article` (`ArticleExtractor`: end-of-article
//!   markers, fusion of neighbouring content, and only the largest content block is kept).
//!
//! ## Interpretation
//! `algorithms.md` §6a. Blocks, their words, linked words, wrapped lines and end-of-article
//! markers are computed once per page at parse time (`blocks.rs`, from the flattened DOM). The `article`
//! filters follow boilerpy3's chain except the two that match blocks against the page's
//! `<title>` (which is never text here): `DocumentTitleMatchClassifier` and
//! `ExpandTitleToContentFilter`.

pub mod blocks;

use super::Extractor;
use crate::document::parse::NONE;
use crate::document::{Document, Needs, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;
use blocks::{BpBlock, TextBlocks};

crate::params::choices! {
    /// Which decision tree classifies a block.
    enum Variant { Density = "density", Words = "words" }
}

crate::params::choices! {
    /// Which of boilerpipe's extractor pipelines surrounds the classifier.
    enum PostFilters { None = "none", Default = "default", Article = "article" }
}

/// A configured boilerpipe classifier and pipeline.
pub struct Boilerpipe {
    ld_curr: f64,
    ld_prev: f64,
    t_curr: f64,
    t_next_low: f64,
    t_prev: f64,
    t_next_high: f64,
    variant: Variant,
    post: PostFilters,
}

/// The fixed word limit of the word-count tree after a link-heavy predecessor.
const WORDS_AFTER_LINKS: f64 = 40.0;

/// Minimum full-text words before an end-of-article marker counts (`IgnoreBlocksAfterContentFilter`).
const MIN_WORDS_BEFORE_END: u32 = 60;

impl Boilerpipe {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        let b = Boilerpipe {
            ld_curr: r.float("ld_curr")?,
            ld_prev: r.float("ld_prev")?,
            t_curr: r.float("t_curr")?,
            t_next_low: r.float("t_next_low")?,
            t_prev: r.float("t_prev")?,
            t_next_high: r.float("t_next_high")?,
            variant: r.choice("variant")?,
            post: r.choice("post_filters")?,
        };
        Ok(Box::new(b))
    }

    /// The block's measure for the tree: text density or words.
    fn measure(&self, b: &BpBlock) -> f64 {
        match self.variant {
            Variant::Density => b.text_density(),
            Variant::Words => f64::from(b.words),
        }
    }

    /// Content or not, from the block and its neighbours (an empty block at the page ends).
    fn classify(&self, p: &BpBlock, c: &BpBlock, n: &BpBlock) -> bool {
        if c.link_density() > self.ld_curr {
            return false;
        }
        let (mp, mc, mn) = (self.measure(p), self.measure(c), self.measure(n));
        if p.link_density() <= self.ld_prev {
            if mc <= self.t_curr {
                if mn <= self.t_next_low { mp > self.t_prev } else { true }
            } else {
                match self.variant {
                    Variant::Density => mn != 0.0,
                    Variant::Words => true,
                }
            }
        } else {
            match self.variant {
                Variant::Density => mn > self.t_next_high,
                Variant::Words => mc > WORDS_AFTER_LINKS || mn > self.t_next_high,
            }
        }
    }

    /// Classifies every block of `blocks`.
    fn classify_all(&self, blocks: &[BpBlock]) -> Vec<bool> {
        let empty = BpBlock::default();
        (0..blocks.len())
            .map(|i| {
                let p = if i > 0 { &blocks[i - 1] } else { &empty };
                let n = blocks.get(i + 1).unwrap_or(&empty);
                self.classify(p, &blocks[i], n)
            })
            .collect()
    }

    /// Which of the page's blocks are content.
    // boilerpipe fuses blocks whose densities are exactly equal (a ratio of the same counts),
    // so the comparison is exact on purpose.
    #[allow(clippy::float_cmp)]
    pub(crate) fn content(&self, blocks: &[BpBlock]) -> Vec<bool> {
        match self.post {
            PostFilters::None => self.classify_all(blocks),
            PostFilters::Default => {
                // SimpleBlockFusionProcessor: a block whose text density equals that of the
                // (fused) block before it joins it; the fused blocks are classified.
                let mut fused: Vec<BpBlock> = Vec::new();
                let mut group = Vec::with_capacity(blocks.len());
                for b in blocks {
                    match fused.last_mut() {
                        Some(last) if last.same_density(b) => *last = last.merged(b),
                        _ => fused.push(*b),
                    }
                    group.push(fused.len() - 1);
                }
                let content = self.classify_all(&fused);
                group.into_iter().map(|g| content[g]).collect()
            }
            PostFilters::Article => self.article(blocks),
        }
    }

    /// ArticleExtractor's chain (without the title filters): classify; after 60 full-text
    /// content words an end-of-article marker ends the content; each run of content blocks
    /// fuses with the block before it; fused blocks at most one block apart fuse; the one with
    /// the most words is kept.
    fn article(&self, blocks: &[BpBlock]) -> Vec<bool> {
        let n = blocks.len();
        let mut content = self.classify_all(blocks);
        let mut words = 0;
        let mut ended = false;
        for (i, b) in blocks.iter().enumerate() {
            if content[i] && b.text_density() >= 9.0 {
                words += b.words;
            }
            ended |= b.terminating && words >= MIN_WORDS_BEFORE_END;
            if ended {
                content[i] = false;
            }
        }
        // Groups (first block, last block, words) of fused content.
        let mut groups: Vec<(usize, usize, u32)> = Vec::new();
        let mut i = 0;
        while i < n {
            if !content[i] {
                i += 1;
                continue;
            }
            let mut e = i;
            while e + 1 < n && content[e + 1] {
                e += 1;
            }
            let s = i.saturating_sub(1);
            let w = blocks[s..=e].iter().map(|b| b.words).sum::<u32>();
            match groups.last_mut() {
                Some(g) if s <= g.1 + 2 => (g.1, g.2) = (e, g.2 + w),
                _ => groups.push((s, e, w)),
            }
            i = e + 1;
        }
        let mut keep = vec![false; n];
        let mut best: Option<(usize, usize, u32)> = None;
        for g in groups {
            if best.is_none_or(|b| g.2 > b.2) {
                best = Some(g);
            }
        }
        if let Some((s, e, _)) = best {
            keep[s..=e].iter_mut().for_each(|k| *k = true);
        }
        keep
    }
}

impl Extractor for Boilerpipe {
    fn view(&self) -> View {
        View::Dom
    }

    fn needs(&self) -> Needs {
        Needs::fact(&blocks::FACT)
    }

    /// A page parsed without the blocks (no reader asked for them) has none to keep.
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let Some(t) = doc.facts.get::<TextBlocks>() else { return Ok(()) };
        let content = self.content(&t.blocks);
        for (u, &k) in t.of_unit.iter().enumerate() {
            if k != NONE && content[k as usize] {
                out.units.push(u as u32);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;

    const PROSE: &str = "The council met on Monday and after a long debate it was agreed that the new budget for the schools and the roads of the town would be approved by the end of this year, so that the work on all of them can start in the spring.";

    fn page() -> String {
        format!(
            "<body><div><a href=/a>Home</a> <a href=/b>Sport</a> <a href=/c>World</a></div>\
             <h1>Budget approved</h1><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p>\
             <div>Add your comment</div><p>{PROSE}</p>\
             <div><a href=/i>Imprint</a> <a href=/p>Privacy</a></div></body>"
        )
    }

    #[test]
    fn density_classifier_keeps_prose_and_drops_link_blocks() {
        for post in ["none", "default"] {
            let t = run("boilerpipe", &[&format!("post_filters={post}")], &page());
            assert!(t.contains("The council met"), "{post}: {t}");
            assert!(!t.contains("Home") && !t.contains("Imprint"), "{post}: {t}");
        }
        // A link-density threshold of 1 keeps link blocks next to prose.
        let t = run("boilerpipe", &["ld_curr=1", "ld_prev=1"], &page());
        assert!(t.contains("Imprint"), "{t}");
    }

    #[test]
    fn article_filters_stop_at_the_end_marker_and_keep_one_block() {
        let sets =
            ["variant=words", "t_curr=16", "t_next_low=15", "t_prev=4", "t_next_high=17", "post_filters=article"];
        let t = run("boilerpipe", &sets, &page());
        assert!(t.contains("Budget approved") && t.contains("The council met"), "{t}");
        assert_eq!(t.matches("The council met").count(), 3, "the prose after 'Add your comment' is cut: {t}");
        assert!(!t.contains("Imprint"), "{t}");
        let words = run("boilerpipe", &["variant=words", "post_filters=none"], &page());
        assert_eq!(words.matches("The council met").count(), 4, "{words}");
    }

    #[test]
    fn a_page_without_blocks_gives_an_empty_extract() {
        for post in ["none", "default", "article"] {
            assert_eq!(run("boilerpipe", &[&format!("post_filters={post}")], ""), "");
            assert_eq!(
                run(
                    "boilerpipe",
                    &[&format!("post_filters={post}")],
                    "<p>| · |</p><select><option>x</option></select>"
                ),
                ""
            );
        }
    }
}
