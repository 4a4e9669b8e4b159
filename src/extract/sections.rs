//! # Sections
//!
//! Keeps every sufficiently dense section of the page instead of one target node: service,
//! landing and documentation pages hold their content in several sibling sections (hero,
//! features, pricing, FAQ), each led by a heading.
//!
//! ## References
//! Heading-based segmentation of a page into sections: the HTML outline algorithm (WHATWG HTML,
//! "headings and outlines", https://html.spec.whatwg.org/#headings-and-outlines), and the
//! block-level link density of Kohlschütter, Fankhauser & Nejdl, *Boilerplate Detection using
//! Shallow Text Features*, WSDM 2010, doi:10.1145/1718487.1718542.
//!
//! ## Parameters
//! - `max_level`: headings of this level or higher (h1..h`max_level`) start a section (3).
//! - `min_chars`: a section needs at least this many text characters (200).
//! - `max_link_density`: a section whose text is more link text than this is dropped (0.33).
//! - `block_link_density`: inside a kept section, a block whose text is more link text than
//!   this is dropped (0.5; 1 keeps every block).
//!
//! ## Interpretation
//! A section is the run of text units from one heading to the next (the text before the first
//! heading is a section too); its density is measured on its characters
//! (`document::page_features::section_of_units`). docs/combinations.md, "Page kinds".

use super::Extractor;
use crate::document::page_features::section_of_units;
use crate::document::parse::NONE;
use crate::document::{Document, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;
use std::collections::HashMap;

/// A configured section keeper.
pub struct Sections {
    max_level: u8,
    min_chars: u64,
    max_link_density: f64,
    block_link_density: f64,
}

impl Sections {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(Sections {
            max_level: r.int("max_level")?.clamp(1, 6) as u8,
            min_chars: r.int("min_chars")?.max(0) as u64,
            max_link_density: r.float("max_link_density")?,
            block_link_density: r.float("block_link_density")?,
        }))
    }
}

impl Extractor for Sections {
    fn view(&self) -> View {
        View::Dom
    }
    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::DOM
    }
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let dom = &doc.dom;
        let of = section_of_units(dom, self.max_level);
        let n = of.iter().copied().max().map_or(0, |m| m as usize + 1);
        let (mut chars, mut linked) = (vec![0u64; n], vec![0u64; n]);
        let mut blocks: HashMap<u32, (u64, u64)> = HashMap::new();
        for (u, info) in dom.info.iter().enumerate() {
            let (c, l) = (u64::from(info.chars), if info.in_href { u64::from(info.chars) } else { 0 });
            chars[of[u] as usize] += c;
            linked[of[u] as usize] += l;
            let b = blocks.entry(info.block).or_default();
            b.0 += c;
            b.1 += l;
        }
        let dense =
            |s: usize| chars[s] >= self.min_chars && linked[s] as f64 <= self.max_link_density * chars[s] as f64;
        for (u, info) in dom.info.iter().enumerate() {
            if !dense(of[u] as usize) {
                continue;
            }
            let (c, l) = blocks.get(&info.block).copied().unwrap_or((0, 0));
            if info.block == NONE || l as f64 <= self.block_link_density * c as f64 + 1e-9 {
                out.units.push(u as u32);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;

    #[test]
    fn keeps_each_dense_section_and_drops_link_sections() {
        let long = "This service helps teams ship faster with fewer mistakes every day.";
        let html = format!(
            "<body><h2>Menu</h2><ul><li><a href=/a>Home page</a></li><li><a href=/b>Pricing page</a></li></ul>\
             <h2>Features</h2><p>{long}</p><h2>Pricing</h2><p>{long}</p><p><a href=/buy>Buy now</a></p>\
             <h2>FAQ</h2><p>{long}</p></body>"
        );
        let t = run("sections", &["min_chars=50"], &html);
        assert!(t.contains("Features") && t.contains("Pricing\n") && t.contains("FAQ"), "{t}");
        assert!(!t.contains("Home page") && !t.contains("Buy now"), "{t}");
        assert!(run("sections", &["min_chars=50", "block_link_density=1"], &html).contains("Buy now"));
    }
}
