//! # Crunch: link-list remover and empty-table remover
//!
//! Crunch is a chain of DOM filters. Its link-list remover deletes containers where links
//! outnumber the words around them (links per estimated non-link word above the link/text
//! removal ratio); the empty-table remover then deletes tables left with too little text.
//!
//! ## References
//! S. Gupta, G. Kaiser, D. Neistadt, P. Grimm, *DOM-based Content Extraction of HTML Documents*,
//! WWW 2003, doi:10.1145/775152.775182.
//!
//! ## Parameters
//! - `rho`: link/text removal ratio (0.35, interpretation);
//! - `divisor`: characters per word when estimating non-link words (5);
//! - `table_min_chars`: tables left with fewer non-whitespace characters are removed (10; 0 off).
//!
//! ## Interpretation
//! `algorithms.md` §2b and A.6: containers `td th div ul ol dl li table tr p`, judged bottom-up
//! on what remains of their subtree; `L` counts `a[href]` elements; non-link characters are the
//! whitespace-collapsed text outside links, one space counted between text nodes.

use super::Extractor;
use crate::document::parse::NONE;
use crate::document::tags::{Tag, tag};
use crate::document::{Document, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;
use std::sync::LazyLock;

static CONTAINERS: LazyLock<Vec<Tag>> =
    LazyLock::new(|| ["td", "th", "div", "ul", "ol", "dl", "li", "table", "tr", "p"].into_iter().map(tag).collect());

/// A configured Crunch filter chain.
pub struct Crunch {
    rho: f64,
    divisor: f64,
    table_min_chars: u64,
}

impl Crunch {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(Crunch {
            rho: r.float("rho")?,
            divisor: r.float("divisor")?,
            table_min_chars: r.int("table_min_chars")?.max(0) as u64,
        }))
    }
}

impl Extractor for Crunch {
    fn view(&self) -> View {
        View::Dom
    }

    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::DOM
    }
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let nodes = &doc.dom.nodes;
        let n = nodes.len();
        let (mut links, mut nonlink, mut text) = (vec![0u64; n], vec![0u64; n], vec![0u64; n]);
        let mut removed = vec![false; n];
        let table = tag("table");
        // Bottom-up: a removed subtree contributes nothing to its parent.
        for i in (0..n).rev() {
            let node = &nodes[i];
            if node.is_text() {
                let info = &doc.dom.info[node.text as usize];
                let len = doc.dom.texts.get(node.text as usize).chars().count() as u64;
                text[i] = u64::from(info.chars);
                if !info.in_a {
                    nonlink[i] = len + 1; // one separating space
                }
            } else {
                if node.tag.is_anchor() && node.href {
                    links[i] += 1;
                }
                if CONTAINERS.contains(&node.tag) {
                    let words = nonlink[i] as f64 / self.divisor;
                    let ratio = if links[i] == 0 {
                        0.0
                    } else if words == 0.0 {
                        f64::INFINITY
                    } else {
                        links[i] as f64 / words
                    };
                    removed[i] = ratio > self.rho;
                }
                if !removed[i] && node.tag == table && self.table_min_chars > 0 && text[i] < self.table_min_chars {
                    removed[i] = true;
                }
            }
            if !removed[i] && node.parent != NONE {
                let p = node.parent as usize;
                links[p] += links[i];
                nonlink[p] += nonlink[i];
                text[p] += text[i];
            }
        }
        // Keep text units with no removed ancestor (top-down over the pre-order array).
        let mut gone = vec![false; n];
        for i in 0..n {
            let parent_gone = nodes[i].parent != NONE && gone[nodes[i].parent as usize];
            gone[i] = removed[i] || parent_gone;
            if !gone[i] && nodes[i].is_text() {
                out.units.push(nodes[i].text);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;

    #[test]
    fn removes_a_link_list_cell_but_keeps_the_text_cell() {
        let page = "<body><table><tr><td><a href=/a>Home</a><br><a href=/b>World</a><br><a href=/c>Sport</a></td>\
            <td><p>The museum reopened on Sunday after two years of renovation, and the first visitors queued in the rain.</p></td></tr></table></body>";
        let t = run("crunch", &[], page);
        assert_eq!(
            t,
            "The museum reopened on Sunday after two years of renovation, and the first visitors queued in the rain."
        );
        // One link in a cell of text is far below the ratio: kept.
        let mixed = "<body><table><tr><td>Read the <a href=/r>full report</a> of the council, which was published this week after long delays.</td></tr></table></body>";
        assert!(run("crunch", &[], mixed).contains("full report"));
        assert_eq!(run("crunch", &["rho=0.01"], mixed), "");
    }

    #[test]
    fn empty_tables_go_and_edges_hold() {
        let page = "<body><table><tr><td>x</td></tr></table><p>Body text that stays where it is.</p></body>";
        assert_eq!(run("crunch", &[], page), "Body text that stays where it is.");
        assert!(run("crunch", &["table_min_chars=0"], page).starts_with('x'));
        assert_eq!(run("crunch", &[], ""), "");
    }
}
