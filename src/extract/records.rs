//! # Records
//!
//! Keeps multi-record content: the region(s) of the page made of repeated sibling records
//! (listings, product grids, search results, forum threads, comment lists), all records of the
//! chosen region(s) rather than one main block.
//!
//! ## References
//! B. Liu, R. Grossman, Y. Zhai, *Mining Data Records in Web Pages* (MDR), KDD 2003,
//! doi:10.1145/956750.956826: data regions are groups of adjacent sibling subtrees of similar
//! structure. Here the similarity is exact equality of a shallow signature.
//!
//! ## Parameters
//! - `min_records`: the fewest records a region needs (4).
//! - `min_chars`: the fewest text characters a record needs (20).
//! - `max_link_density`: regions whose text is more link text than this are skipped (1: none).
//! - `min_share`: regions holding less than this share of the page's text are skipped (0.1).
//! - `regions`: how many regions to keep, largest text first, not nested in each other (1).
//!
//! ## Interpretation
//! A record's signature is its tag and the ordered tags of its element children
//! (`document::page_features::signature`); a region is the set of children of one element
//! that share a signature and hold text (MDR compares whole subtrees by edit distance; this is
//! the cheap exact version, computed once per page and parameter setting). docs/combinations.md, "Page kinds".

use super::Extractor;
use crate::document::page_features::record_groups;
use crate::document::{Document, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;

/// A configured record-region extractor.
pub struct Records {
    min_records: usize,
    min_chars: u64,
    max_link_density: f64,
    min_share: f64,
    regions: usize,
}

impl Records {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(Records {
            min_records: r.int("min_records")?.max(2) as usize,
            min_chars: r.int("min_chars")?.max(0) as u64,
            max_link_density: r.float("max_link_density")?,
            min_share: r.float("min_share")?,
            regions: r.int("regions")?.max(1) as usize,
        }))
    }
}

impl Extractor for Records {
    fn view(&self) -> View {
        View::Dom
    }
    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::DOM
    }
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let dom = &doc.dom;
        let total: u64 = dom.info.iter().map(|i| u64::from(i.chars)).sum::<u64>().max(1);
        let mut groups: Vec<_> = record_groups(dom, self.min_records, self.min_chars)
            .into_iter()
            .filter(|g| g.chars as f64 / total as f64 >= self.min_share)
            .filter(|g| g.linked as f64 <= self.max_link_density * g.chars as f64 + 1e-9)
            .collect();
        groups.sort_by(|a, b| b.chars.cmp(&a.chars).then(a.parent.cmp(&b.parent)));
        let mut chosen: Vec<(usize, usize)> = Vec::new();
        let mut keep = vec![false; dom.texts.len()];
        for g in groups {
            if chosen.len() >= self.regions {
                break;
            }
            let (a, b) = (g.parent, dom.nodes[g.parent].end as usize);
            if chosen.iter().any(|&(x, y)| (a >= x && a < y) || (x >= a && x < b)) {
                continue;
            }
            chosen.push((a, b));
            for r in g.records {
                dom.units_in(r).for_each(|u| keep[u as usize] = true);
            }
        }
        out.units.extend(keep.iter().enumerate().filter(|(_, k)| **k).map(|(u, _)| u as u32));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;

    #[test]
    fn keeps_every_record_of_a_listing_and_drops_the_rest() {
        let items: String = (0..6)
            .map(|i| format!("<div class=r><h3><a href=/p{i}>Product {i}</a></h3><p>Description of product {i}, in short.</p></div>"))
            .collect();
        let nav = "<ul><li><a href=/a>Home</a></li><li><a href=/b>About</a></li><li><a href=/c>Contact</a></li></ul>";
        let html = format!("<body>{nav}<div id=grid>{items}</div><footer>Copyright notice of the shop</footer></body>");
        let t = run("records", &[], &html);
        for i in 0..6 {
            assert!(t.contains(&format!("Description of product {i}")), "{t}");
        }
        assert!(!t.contains("Home") && !t.contains("Copyright"), "{t}");
        // Records need min_chars each: the navigation's are too short to form a region alone.
        assert_eq!(run("records", &["min_records=7"], &html), "");
    }
}
