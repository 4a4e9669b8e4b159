//! # Density target node (Baisa)
//!
//! Main text sits in one subtree that holds most of the page's characters at a high density of
//! characters per structural tag. From `<body>`, descend into the densest child while it holds
//! more than a share `p` of the current node's characters; the node where the descent stops is
//! the target, and its text the extract.
//!
//! ## References
//! V. Baisa, *Web Content Cleaning*, Master's thesis, Masaryk University, Brno, 2009.
//!
//! ## Parameters
//! - `p`: share of the current node's characters a child must exceed (0.5);
//! - `min_chars`: never descend into a child with fewer characters (0);
//! - `any_majority_child`: descend into whichever child holds more than `p`, densest or not (false);
//! - `structural`: structural tags: block-level set plus `<br>` (`block_br`), or `block`;
//! - `sparse_rule`, `sparse_density`: return nothing for pages whose body density is below the
//!   constant (off; 10).
//!
//! ## Interpretation
//! `algorithms.md` §5a and D.1.4. Characters are non-whitespace characters of rendered text;
//! `s(x)` counts structural elements in the subtree, `x` included, or 1 when there is none; ties
//! go to more characters, then the earlier child.

use super::Extractor;
use crate::document::parse::NONE;
use crate::document::tags::tag;
use crate::document::{Document, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;

/// A configured density target-node extractor.
pub struct Density {
    p: f64,
    min_chars: u64,
    any_majority: bool,
    with_br: bool,
    sparse_rule: bool,
    sparse_density: f64,
}

crate::params::choices! {
    /// Which elements are structural (the `structural` option).
    pub enum Structural {
        /// The block-level elements.
        Block = "block",
        /// The block-level elements and `<br>` (Baisa 2009).
        BlockBr = "block_br",
    }
}

impl Density {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(Density {
            p: r.float("p")?,
            min_chars: r.int("min_chars")?.max(0) as u64,
            any_majority: r.bool("any_majority_child")?,
            with_br: r.choice::<Structural>("structural")? == Structural::BlockBr,
            sparse_rule: r.bool("sparse_rule")?,
            sparse_density: r.float("sparse_density")?,
        }))
    }
}

impl Extractor for Density {
    fn view(&self) -> View {
        View::Dom
    }

    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::WORDS
    }
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        if let Some(node) = self.target(doc, None) {
            out.units.extend(doc.dom.units_in(node));
        }
        Ok(())
    }

    /// The soft vote: how far the descent kept a word. The target's words get 1; a word that
    /// the descent left at step `i` of `L` (it lies in the `i`-th node of the path from
    /// `<body>`, but not in the next) gets `0.5 · i / L`; words outside `<body>`, or of a page
    /// the sparse rule drops, 0. Each step of the descent is one decision that the rest of the
    /// page is less content than the child it enters; a word that stayed in for more steps was
    /// judged content more often. A word is kept exactly when its confidence reaches 0.5.
    fn confidence(&self, doc: &Document, out: &mut Vec<f32>) -> bool {
        out.clear();
        out.resize(doc.source.words.len(), 0.0);
        let path = self.descent(doc, None);
        let last = path.len().saturating_sub(1);
        for (i, &node) in path.iter().enumerate() {
            let c = if i == last { 1.0 } else { 0.5 * i as f32 / last as f32 };
            for u in doc.dom.units_in(node) {
                doc.words.words_of(u as usize).iter().for_each(|&w| out[w as usize] = c);
            }
        }
        true
    }
}

impl Density {
    /// The descent with Baisa's defaults for `p` and `any_majority_child` (no `min_chars`,
    /// structural tags `block_br`, no sparse rule): the multi-file cleaner's chained step.
    pub(crate) fn new(p: f64, any_majority: bool) -> Density {
        Density { p, min_chars: 0, any_majority, with_br: true, sparse_rule: false, sparse_density: 10.0 }
    }

    /// The target node of the descent, or `None` for an empty page (or one the sparse rule
    /// drops). Text units flagged in `removed` (one flag per DOM unit) count no characters.
    pub(crate) fn target(&self, doc: &Document, removed: Option<&[bool]>) -> Option<usize> {
        self.descent(doc, removed).last().copied()
    }

    /// The nodes of the descent, from `<body>` to the target node (empty for an empty page or
    /// one the sparse rule drops). Text units flagged in `removed` count no characters.
    fn descent(&self, doc: &Document, removed: Option<&[bool]>) -> Vec<usize> {
        let nodes = &doc.dom.nodes;
        if nodes.is_empty() {
            return Vec::new();
        }
        let br = tag("br");
        // Bottom-up sums: children have larger indices than their parents.
        let mut chars = vec![0u64; nodes.len()];
        let mut structural = vec![0u64; nodes.len()];
        for i in (0..nodes.len()).rev() {
            let n = &nodes[i];
            if n.is_text() {
                if !removed.is_some_and(|r| r[n.text as usize]) {
                    chars[i] += u64::from(doc.dom.info[n.text as usize].chars);
                }
            } else if n.tag.is_block() || (self.with_br && n.tag == br) {
                structural[i] += 1;
            }
            if n.parent != NONE {
                let p = n.parent as usize;
                chars[p] += chars[i];
                structural[p] += structural[i];
            }
        }
        let dens = |i: usize| chars[i] as f64 / structural[i].max(1) as f64;
        let mut node = doc.dom.body as usize;
        if self.sparse_rule && dens(node) < self.sparse_density {
            return Vec::new();
        }
        let mut path = vec![node];
        loop {
            let end = nodes[node].end as usize;
            let mut best: Option<usize> = None;
            let mut k = node + 1;
            while k < end {
                let child = &nodes[k];
                if !child.is_text() && chars[k] > 0 && chars[k] >= self.min_chars {
                    let better = match best {
                        None => true,
                        Some(b) if self.any_majority => chars[k] > chars[b],
                        Some(b) => dens(k).total_cmp(&dens(b)).then(chars[k].cmp(&chars[b])).is_gt(),
                    };
                    if better {
                        best = Some(k);
                    }
                }
                k = child.end.max(k as u32 + 1) as usize;
            }
            match best {
                Some(b) if chars[b] as f64 > self.p * chars[node] as f64 => {
                    node = b;
                    path.push(node);
                }
                _ => break,
            }
        }
        path
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;

    const PAGE: &str = "<body><div id=nav><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul></div>\
        <div id=wrap><div id=article><h1>Bridge closed</h1><p>The old bridge over the river will be closed for repairs from Monday, the city said.</p>\
        <p>Engineers found cracks in two of the pillars during an inspection last month.</p>\
        <p>The repairs will take about a year and cost the city more than two million euros.</p></div>\
        <div id=side><ul><li><a href=/a>Weather</a></li><li><a href=/b>Traffic</a></li></ul></div></div>\
        <div id=foot>Imprint</div></body>";

    #[test]
    fn descends_into_the_article_container() {
        let t = run("density", &[], PAGE);
        assert!(t.starts_with("Bridge closed\nThe old bridge"), "{t}");
        assert!(!t.contains("Home") && !t.contains("Weather") && !t.contains("Imprint"), "{t}");
    }

    #[test]
    fn any_majority_child_descends_past_a_denser_small_child() {
        // The short dense line beats the long list-shaped article on density, so the paper's
        // rule stops at body; any_majority_child follows the child holding most characters.
        let page = "<body><div>A dense line of plain text without any structure, long enough to be the densest child of the body by far.</div>\
            <div>".to_string() + &"<p>Para with words one two three.</p>".repeat(12) + "</div></body>";
        let paper = run("density", &[], &page);
        assert!(paper.starts_with("A dense line"), "{paper}");
        let any = run("density", &["any_majority_child=true"], &page);
        assert!(any.starts_with("Para with words"), "{any}");
    }

    #[test]
    fn the_soft_confidence_follows_the_descent() {
        let doc = crate::document::Document::parse(PAGE);
        let ex = super::super::testutil::with("density", &[]);
        let mut c = Vec::new();
        assert!(ex.confidence(&doc, &mut c));
        let at = |w: &str| c[(0..doc.source.words.len()).find(|&i| doc.source.words.get(i) == w).unwrap()];
        // body ▷ wrap ▷ article: the article's words 1, the sidebar inside wrap 0.25, the
        // navigation and footer beside wrap 0.
        assert_eq!((at("Bridge"), at("Engineers")), (1.0, 1.0));
        assert!((at("Weather") - 0.25).abs() < 1e-6);
        assert_eq!((at("Home"), at("Imprint")), (0.0, 0.0));
        let mut sel = crate::document::Selection::new(ex.view());
        ex.extract(&doc, &mut sel).unwrap();
        let keep = doc.mask(&sel);
        assert!(keep.iter().zip(&c).all(|(&k, &x)| k == (x >= 0.5)));
    }

    #[test]
    fn edge_cases() {
        assert_eq!(run("density", &[], ""), "");
        assert_eq!(run("density", &["sparse_rule=true", "sparse_density=100"], PAGE), "");
    }
}
