//! # Code blocks
//!
//! Keeps the text of code blocks (`pre`, and with `inline` also `code` elsewhere): on
//! documentation pages code is content, and the one-region families often drop it. Meant as a
//! member beside a main-region family (a union or a vote), not alone.
//!
//! ## References
//! The WCXB dev error analysis (`docs/wcxb-dev-error-analysis.md`, "Code blocks"): the tuned
//! combination keeps 0.73 of the gold words inside `pre`/`code`, trafilatura 0.96.
//! trafilatura keeps `pre`/`code` as content by default (A. Barbaresi, *Trafilatura*, ACL 2021
//! demos, doi:10.18653/v1/2021.acl-demo.15).
//!
//! ## Parameters
//! - `min_chars`: a code block needs at least this many text characters (10).
//! - `inline`: also keep `code` elements outside `pre` (false).
//!
//! ## Interpretation
//! A text unit is code when it has a `pre` ancestor (or, with `inline`, a `code` one); a
//! block's characters are those of its outermost such ancestor's subtree.

use super::Extractor;
use crate::document::page_features::subtree_chars;
use crate::document::parse::NONE;
use crate::document::tags::tag;
use crate::document::{Document, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;

/// A configured code-block keeper.
pub struct Code {
    min_chars: u64,
    inline: bool,
}

impl Code {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(Code { min_chars: r.int("min_chars")?.max(0) as u64, inline: r.bool("inline")? }))
    }
}

impl Extractor for Code {
    fn view(&self) -> View {
        View::Dom
    }
    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::DOM
    }
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let dom = &doc.dom;
        let (pre, code) = (tag("pre"), tag("code"));
        let (chars, _) = subtree_chars(dom);
        for (u, info) in dom.info.iter().enumerate() {
            let mut a = dom.nodes[info.node as usize].parent;
            let mut outer = None;
            while a != NONE {
                let t = dom.nodes[a as usize].tag;
                if t == pre || (self.inline && t == code) {
                    outer = Some(a as usize);
                }
                a = dom.nodes[a as usize].parent;
            }
            if outer.is_some_and(|o| chars[o] >= self.min_chars.max(1)) {
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
    fn keeps_code_blocks_only() {
        let html = "<body><nav><a href=/x>Docs</a></nav><p>Call <code>f()</code> like this:</p><pre><code>let x = f();\nprint(x)</code></pre></body>";
        assert_eq!(run("code", &[], html), "let x = f(); print(x)");
        assert!(run("code", &["inline=true", "min_chars=1"], html).starts_with("f()"));
        assert_eq!(run("code", &["min_chars=100"], html), "");
    }
}
