//! # Full text
//!
//! The floor every real extractor must beat: all rendered text of the page.
//!
//! ## References
//! Gottron, *Evaluating Content Extraction on HTML Documents*, ITA 2007 (the "plain" baseline).
//!
//! ## Parameters
//! None.
//!
//! ## Interpretation
//! Rendered text is the DOM view's text (`algorithms.md` §0.2: scripts, styles, comments, head,
//! noscript and templates excluded).

use super::Extractor;
use crate::document::{Document, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;

/// Keeps every text unit.
pub struct Full;

impl Full {
    /// Registry constructor (no parameters).
    pub fn build(_: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(Full))
    }
}

impl Extractor for Full {
    fn view(&self) -> View {
        View::Dom
    }

    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::DOM
    }
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        out.units.extend(0..doc.dom.texts.len() as u32);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;

    #[test]
    fn keeps_all_rendered_text() {
        let t = run("full", &[], "<title>x</title><p>Hello <b>world</b></p><script>no</script><div>again</div>");
        assert_eq!(t, "Hello world\nagain");
    }
}
