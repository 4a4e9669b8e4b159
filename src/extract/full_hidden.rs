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
//!   `streaming` or `all` (default) hidden text let in.
//!
//! ## Interpretation
//! The block view (`document/segments.rs`); `full` keeps its meaning (all rendered text).

use super::Extractor;
use crate::document::segments::HiddenText;
use crate::document::{Document, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;

/// Keeps every block that `hidden_text` admits.
pub struct FullHidden {
    hidden_text: HiddenText,
}

impl FullHidden {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(FullHidden { hidden_text: r.choice("hidden_text")? }))
    }
}

impl Extractor for FullHidden {
    fn view(&self) -> View {
        View::Blocks
    }
    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::SEGMENTS
    }
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let s = &doc.segments;
        out.units.extend((0..s.len() as u32).filter(|&b| self.hidden_text.admits(s.hidden[b as usize])));
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
        assert_eq!(run("full_hidden", &["hidden_text=noscript"], PAGE), "Hello world\nthread");
        assert_eq!(run("full_hidden", &["hidden_text=streaming"], PAGE), "Hello world\nstreamed");
    }
}
