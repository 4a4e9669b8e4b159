//! # Full text with hidden text
//!
//! `full`'s sibling that shows the ceiling of the block view: every block of the page,
//! including the text a browser hides (`<noscript>`, `hidden`, `display:none`,
//! `visibility:hidden`, streaming placeholders) as far as `hidden_text` lets it in.
//!
//! ## References
//! Gottron, *Evaluating Content Extraction on HTML Documents*, ITA 2007 (the "plain" baseline);
//! the hidden-text kinds follow the WCXB dev error analysis (`wcxb-dev-error-analysis.md`).
//!
//! ## Parameters
//! - `hidden_text`: `none` (the visible blocks: `full`'s text, cut into blocks), `noscript`,
//!   `streaming` or `all` (default) hidden text let in;
//! - `structured`: also the blocks of the page's structured data that the page does not show
//!   (after the page's own; false by default).
//!
//! ## Interpretation
//! The block view (`document/segments.rs`); `full` keeps its meaning (all rendered text).

use super::Extractor;
use crate::document::segments::Admit;
use crate::document::{Document, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;

/// Keeps every block that `hidden_text` (and `structured`) admits.
pub struct FullHidden {
    admit: Admit,
}

impl FullHidden {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(FullHidden {
            admit: Admit { hidden: r.choice("hidden_text")?, structured: r.bool("structured")? },
        }))
    }
}

impl Extractor for FullHidden {
    fn view(&self) -> View {
        View::Blocks
    }
    fn needs(&self) -> crate::document::Needs {
        use crate::document::Needs;
        Needs::SEGMENTS | if self.admit.structured { Needs::STRUCTURED } else { Needs::NONE }
    }
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let s = &doc.segments;
        out.units.extend((0..s.len() as u32).filter(|&b| self.admit.admits(s.hidden[b as usize])));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;

    const PAGE: &str = "<p>Hello <b>world</b></p><noscript><p>thread</p></noscript><div hidden>tab</div>\
                        <div hidden id=S:0>streamed</div><script>no</script>";

    #[test]
    fn keeps_what_hidden_text_lets_in() {
        assert_eq!(run("full_hidden", &[], PAGE), "Hello world\nthread\ntab\nstreamed");
        assert_eq!(run("full_hidden", &["hidden_text=none"], PAGE), run("full", &[], PAGE));
        let ld = r#"<script type="application/ld+json">{"@type":"Product","description":"A kettle that boils a litre of water in two minutes flat."}</script>"#;
        let page = format!("{PAGE}{ld}");
        assert_eq!(run("full_hidden", &[], &page), run("full_hidden", &[], PAGE));
        let with = run("full_hidden", &["structured=true"], &page);
        assert_eq!(
            with,
            format!("{}\nA kettle that boils a litre of water in two minutes flat.", run("full_hidden", &[], PAGE))
        );
        assert_eq!(run("full_hidden", &["hidden_text=noscript"], PAGE), "Hello world\nthread");
        assert_eq!(run("full_hidden", &["hidden_text=streaming"], PAGE), "Hello world\nstreamed");
    }
}
