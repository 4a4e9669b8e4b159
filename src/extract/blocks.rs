//! # Blocks (learned block scorer)
//!
//! Every block of the block view (`document/segments.rs`) carries a fixed feature vector
//! computed at parse time (text and link statistics, DOM position and tag, semantic ancestors,
//! the word share and link ratio of three ancestors, repetition, class/id/role tokens, how it is
//! hidden, code, neighbours, page-level facts). A linear scorer turns it into a probability,
//! optionally smoothed with the neighbouring blocks, and keeps the blocks at or above `t`. The
//! weights are genes: the optimiser (CMA-ES, `--strategy cmaes`) fits them directly on the
//! LCS-F1 fitness, with no labels (the evolved mode of issue 23).
//!
//! ## References
//! Kohlschütter, Fankhauser & Nejdl, *Boilerplate Detection using Shallow Text Features*, WSDM
//! 2010 (block features + classifier); Peters & Lecocq, *Content Extraction Using Diverse Feature
//! Sets*, WWW 2013 (Dragnet); Hansen & Ostermeier, *Completely Derandomized Self-Adaptation in
//! Evolution Strategies*, Evolutionary Computation 9(2), 2001 (CMA-ES).
//!
//! ## Parameters
//! - `hidden_text`: which hidden blocks are candidates (`none`, `noscript`, `streaming`, `all`);
//! - `t`: keep a block whose probability is at least `t` (0.5);
//! - `smooth`: share of a block's score taken from the mean of its two neighbours (0);
//! - `w_bias` and `w_<feature>`: the scorer's weights, one per feature of
//!   `segments::FEATURES` (the feature table in docs/families.md);
//! - `group_<group>`: the feature group is on (true); off, its weights count as 0.
//!
//! ## Interpretation
//! No published default: the defaults are a hand-set prior (long, sentence-like text in
//! `article`/`main` counts for a block; links, `nav`/`footer`/`aside`/`form`, boilerplate
//! class names and repeated tag paths against it) from which the search starts.

use super::Extractor;
use crate::document::segments::{FEATURES, HiddenText, N_LINEAR, linear_groups};
use crate::document::{Document, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;

/// A configured linear block scorer.
pub struct Blocks {
    hidden_text: HiddenText,
    t: f64,
    smooth: f64,
    bias: f64,
    weights: [f64; N_LINEAR],
}

impl Blocks {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        let mut weights = [0.0; N_LINEAR];
        for (w, (name, _)) in weights.iter_mut().zip(FEATURES) {
            *w = r.float(&format!("w_{name}"))?;
        }
        for g in linear_groups() {
            if !r.bool(&format!("group_{g}"))? {
                FEATURES.iter().zip(weights.iter_mut()).filter(|((_, fg), _)| *fg == g).for_each(|(_, w)| *w = 0.0);
            }
        }
        Ok(Box::new(Blocks {
            hidden_text: r.choice("hidden_text")?,
            t: r.float("t")?,
            smooth: r.float("smooth")?,
            bias: r.float("w_bias")?,
            weights,
        }))
    }

    /// The candidate blocks and their (smoothed) probabilities.
    fn scores(&self, doc: &Document) -> (Vec<u32>, Vec<f64>) {
        let s = &doc.segments;
        let cand: Vec<u32> = (0..s.len() as u32).filter(|&b| self.hidden_text.admits(s.hidden[b as usize])).collect();
        let z: Vec<f64> = cand
            .iter()
            .map(|&b| {
                self.bias + s.row(b as usize).iter().zip(&self.weights).map(|(x, w)| f64::from(*x) * w).sum::<f64>()
            })
            .collect();
        (cand, smoothed(&z, self.smooth))
    }
}

/// Probabilities of raw scores `z` (log-odds, in block order), each first moved by the share
/// `smooth` towards the mean of its two neighbours.
pub fn smoothed(z: &[f64], smooth: f64) -> Vec<f64> {
    (0..z.len())
        .map(|i| {
            let near = match (i.checked_sub(1).map(|j| z[j]), z.get(i + 1)) {
                (Some(a), Some(&b)) => (a + b) / 2.0,
                (Some(a), None) => a,
                (None, Some(&b)) => b,
                (None, None) => z[i],
            };
            let v = (1.0 - smooth) * z[i] + smooth * near;
            1.0 / (1.0 + (-v).exp())
        })
        .collect()
}

impl Extractor for Blocks {
    fn view(&self) -> View {
        View::Blocks
    }

    /// The block view (its blocks carry their features). The confidence's canonical words are
    /// the word map a combination builds for every member that is not of the source view.
    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::SEGMENTS
    }

    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let (cand, p) = self.scores(doc);
        out.units.extend(cand.iter().zip(&p).filter(|(_, p)| **p >= self.t).map(|(b, _)| *b));
        Ok(())
    }

    /// The probability of each visible word's block (hidden blocks hold no canonical word).
    fn confidence(&self, doc: &Document, out: &mut Vec<f32>) -> bool {
        out.clear();
        out.resize(doc.source.words.len(), 0.0);
        let (cand, p) = self.scores(doc);
        for (&b, &p) in cand.iter().zip(&p) {
            doc.block_words(b as usize).for_each(|w| out[w as usize] = p as f32);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{run, with};
    use crate::document::Document;

    const PAGE: &str = "<body><nav><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul></nav>\
        <article><h1>Title</h1><p>This is the first paragraph of the story. It has several sentences, and commas.</p>\
        <p>The second paragraph is just as long as the first one, and it ends with a full stop.</p></article>\
        <noscript><p>A reply in the thread that only shows without scripts, long enough to be kept.</p></noscript>\
        <footer><p>Copyright <a href=/c>Company</a></p></footer></body>";

    #[test]
    fn the_prior_keeps_the_article_and_drops_the_navigation() {
        let t = run("blocks", &[], PAGE);
        assert!(t.contains("first paragraph") && t.contains("second paragraph"), "{t}");
        assert!(!t.contains("Home") && !t.contains("Copyright"), "{t}");
        assert!(t.contains("A reply in the thread"), "{t}");
        assert!(!run("blocks", &["hidden_text=none"], PAGE).contains("A reply"));
    }

    #[test]
    fn the_threshold_and_weights_decide() {
        assert_eq!(run("blocks", &["t=0.05", "w_bias=8"], PAGE), run("full_hidden", &[], PAGE));
        assert_eq!(run("blocks", &["t=0.95", "w_bias=-8"], PAGE), "");
        // A weight that outweighs the rest keeps the navigation.
        assert!(run("blocks", &["w_in_nav=8", "w_link_ratio=8"], PAGE).contains("Home"));
        // A group switched off counts for nothing.
        let off: Vec<String> =
            crate::document::segments::linear_groups().iter().map(|g| format!("group_{g}=false")).collect();
        let off: Vec<&str> = off.iter().map(String::as_str).collect();
        assert_eq!(run("blocks", &[&off[..], &["w_bias=1"]].concat(), PAGE), run("full_hidden", &[], PAGE));
    }

    #[test]
    fn confidence_is_the_block_probability_of_each_word() {
        let doc = Document::parse(PAGE);
        let mut c = Vec::new();
        assert!(with("blocks", &[]).confidence(&doc, &mut c));
        assert_eq!(c.len(), doc.source.words.len());
        assert!(c[0] < 0.5 && c.iter().any(|&x| x > 0.5));
    }
}
