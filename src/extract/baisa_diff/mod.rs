//! # Baisa's multi-file cleaner (reference-page diff)
//!
//! A page's template (navigation, footers, boxes) recurs on the other pages of its site; its
//! main text does not. Blocks whose normalised text recurs in at least `m` of the page's `k`
//! reference pages are removed; the density descent (`density.rs`) can run before or after.
//!
//! ## References
//! V. Baisa, *Web Content Cleaning*, Master's thesis, Masaryk University, Brno, 2009.
//!
//! ## Parameters
//! - `k`: reference pages used (3); `m`: how many of them must hold a block (1);
//! - `mode`: `set` (the text occurs anywhere in the reference) or `diff` (matched by the LCS
//!   alignment of the block sequences);
//! - `chain`: `none`, `before` (density descent, then the diff inside its target) or `after` (the
//!   diff, then the descent over what remains);
//! - `p`, `any_majority_child`: the density descent's (chained step and fallback).
//!
//! ## Interpretation
//! `algorithms.md` §5b. Blocks are §3a's, hashed at parse time; the loader chooses each page's
//! references among the other pages of its package (same URL directory, then same host, then the
//! rest, each in id order, at most 10) and stores per block which of them hold it
//! ([`blocks::Blocks`], this family's fact), so an individual only counts bits. `m` is read as at most the number of
//! references used (`min(k, available)`). A page without any reference (a package of one page,
//! a loose page) falls back to the density descent. `k = 0` removes nothing.

pub mod blocks;

use super::Extractor;
use super::density::Density;
use crate::document::{Document, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;
use blocks::Blocks;
use std::cell::RefCell;

crate::params::choices! {
    /// How a block is matched in a reference page.
    enum Mode { Set = "set", Diff = "diff" }
}

crate::params::choices! {
    /// Where the density descent runs.
    enum Chain { None = "none", Before = "before", After = "after" }
}

/// A configured multi-file cleaner.
pub struct BaisaDiff {
    k: u32,
    m: u32,
    mode: Mode,
    chain: Chain,
    density: Density,
}

impl BaisaDiff {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        let k = r.int("k")?.clamp(0, blocks::MAX_REFS as i64) as u32;
        let m = r.int("m")?.max(1) as u32;
        let mode = r.choice::<Mode>("mode")?;
        let chain = r.choice::<Chain>("chain")?;
        let density = Density::new(r.float("p")?, r.bool("any_majority_child")?);
        Ok(Box::new(BaisaDiff { k, m, mode, chain, density }))
    }
}

thread_local! {
    /// Per DOM text unit: its block is template (reused across calls).
    static REMOVED: RefCell<Vec<bool>> = const { RefCell::new(Vec::new()) };
}

impl Extractor for BaisaDiff {
    fn view(&self) -> View {
        View::Dom
    }

    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::fact(&blocks::FACT)
    }

    fn needs_package(&self) -> bool {
        true
    }

    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let Some(b) = doc.facts.get::<Blocks>() else {
            return self.density.extract(doc, out);
        };
        if b.refs == 0 || b.of_unit.len() != doc.dom.texts.len() {
            return self.density.extract(doc, out);
        }
        let k = self.k.min(u32::from(b.refs));
        let m = self.m.min(k);
        let masks = if self.mode == Mode::Set { &b.in_ref } else { &b.matched };
        let used = ((1u32 << k) - 1) as u16;
        let template = |u: usize| k > 0 && (masks[b.of_unit[u] as usize] & used).count_ones() >= m;
        REMOVED.with(|cell| {
            let mut removed = cell.borrow_mut();
            removed.clear();
            removed.extend((0..doc.dom.texts.len()).map(template));
            let node = match self.chain {
                Chain::None => Some(0),
                Chain::Before => self.density.target(doc, None),
                Chain::After => self.density.target(doc, Some(&removed)),
            };
            if let Some(node) = node {
                out.units.extend(doc.dom.units_in(node).filter(|&u| !removed[u as usize]));
            }
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::extract_text;
    use super::super::testutil::{run, with};
    use super::blocks::{Blocks, FACT};
    use crate::document::{Document, Needs};

    fn page(article: &str) -> String {
        format!(
            "<body><div id=nav><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li><li><a href=/s>Sport 2024</a></li></ul></div>\
             <div id=main><h1>{article}</h1><p>{article} is the story of the day, told in a paragraph of its own.</p>\
             <p>Share this story</p></div><div id=foot>Copyright 2024 The Site</div></body>"
        )
    }

    /// The page `html` with the given reference pages, as the loader would prepare it.
    fn with_refs(html: &str, refs: &[String]) -> Document {
        let parse = |html: &str| Document::parse_for(html, &Default::default(), Needs::ALL | Needs::fact(&FACT)).0;
        let mut doc = parse(html);
        let hashes: Vec<Vec<u64>> =
            refs.iter().map(|r| parse(r).facts.get::<Blocks>().unwrap().hashes.clone()).collect();
        let mut blocks = doc.facts.get::<Blocks>().unwrap().clone();
        blocks.set_references(&hashes.iter().map(Vec::as_slice).collect::<Vec<_>>());
        doc.facts.insert(blocks);
        doc
    }

    fn text(sets: &[&str], doc: &Document) -> String {
        extract_text(with("baisa_diff", sets).as_ref(), doc).unwrap()
    }

    #[test]
    fn removes_the_blocks_the_other_pages_of_the_site_share() {
        let refs = [page("Bridge"), page("Election").replace("Sport 2024", "Sport 2025")];
        let doc = with_refs(&page("Flood"), &refs);
        let t = text(&[], &doc);
        assert_eq!(t, "Flood\nFlood is the story of the day, told in a paragraph of its own.");
        // Digits are normalised: "Sport 2025" is the same block as "Sport 2024".
        assert!(!text(&["k=1"], &doc).contains("Sport"));
        // m = 2: only blocks both references hold (all template blocks here).
        assert_eq!(text(&["m=2"], &doc), t);
        // k = 0 removes nothing.
        assert!(text(&["k=0"], &doc).starts_with("Home\nNews\nSport 2024\nFlood"));
    }

    #[test]
    fn m_counts_references_and_diff_mode_needs_the_order() {
        // The second reference holds the footer only.
        let refs = [page("Bridge"), "<body><div>Copyright 2024 The Site</div></body>".to_string()];
        let doc = with_refs(&page("Flood"), &refs);
        assert!(!text(&["m=1"], &doc).contains("Home"));
        let two = text(&["m=2"], &doc);
        assert!(two.contains("Home") && !two.contains("Copyright"), "{two}");
        // A reference with the shared blocks in reverse order: the LCS matches one of them.
        let rev = "<body><div>Copyright 2024 The Site</div><p>Share this story</p></body>".to_string();
        let doc = with_refs(&page("Flood"), &[rev]);
        assert!(!text(&["mode=set"], &doc).contains("Share"));
        let diff = text(&["mode=diff"], &doc);
        assert_eq!(diff.contains("Share") as u8 + diff.contains("Copyright") as u8, 1, "{diff}");
    }

    #[test]
    fn chains_with_the_density_descent() {
        let page = |title: &str, aside: &str| {
            format!(
                "<body><div id=nav><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul></div>\
                 <div id=main><h1>{title}</h1><p>{title} came after three days of rain, the river rose by two metres.</p>\
                 <p>The city opened two shelters and closed the old bridge until the {title} is over.</p><p>Schools stay closed on Monday while the {title} lasts, the mayor said.</p><p>Share this story</p></div>\
                 <div id=side><a href=/x>{aside}</a></div></body>"
            )
        };
        let doc = with_refs(&page("Flood", "Flood pictures"), &[page("Bridge", "Bridge pictures")]);
        let article = "Flood\nFlood came after three days of rain, the river rose by two metres.\n\
            The city opened two shelters and closed the old bridge until the Flood is over.\n\
            Schools stay closed on Monday while the Flood lasts, the mayor said.";
        // The diff alone keeps the page's own side box; the descent (before or after) leaves it out.
        assert_eq!(text(&[], &doc), format!("{article}\nFlood pictures"));
        assert_eq!(text(&["chain=before"], &doc), article);
        assert_eq!(text(&["chain=after"], &doc), article);
    }

    #[test]
    fn falls_back_to_the_density_descent_without_references() {
        let html = page("Flood");
        assert_eq!(run("baisa_diff", &[], &html), run("density", &[], &html));
        assert_eq!(run("baisa_diff", &["chain=after", "p=0.9"], &html), run("density", &["p=0.9"], &html));
    }

    #[test]
    fn a_page_that_is_all_template_or_empty_gives_an_empty_extract() {
        let doc = with_refs(&page("Bridge"), &[page("Bridge")]);
        assert_eq!(text(&[], &doc), "");
        assert_eq!(text(&["chain=after"], &doc), "");
        assert_eq!(run("baisa_diff", &[], ""), "");
        let empty = with_refs("", &[page("Bridge")]);
        assert_eq!(text(&["chain=before"], &empty), "");
    }
}
