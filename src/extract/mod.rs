//! The extractor families. Every family implements [`Extractor`]: a parsed [`Document`] in, the
//! kept text units out (a [`Selection`] of one of the document's views). One file per family;
//! [`build`] is the registry that turns a [`Setting`] into a configured extractor.
//!
//! Imports from the crate: `document`, `params` and `error`.

pub mod bte;
pub mod ccb;
pub mod crunch;
pub mod density;
pub mod full;
pub mod lqf;
pub mod stopwords;

use crate::document::{Document, Selection, View};
use crate::error::Result;
use crate::params::{Setting, SettingReader};

/// A configured content extractor. Implementations are immutable and shared across threads;
/// `extract` may be called concurrently on different documents.
pub trait Extractor: Send + Sync {
    /// The view whose units this extractor selects.
    fn view(&self) -> View;
    /// Fills `out.units` (cleared first) with the kept units of `doc`, in increasing order.
    fn extract(&self, doc: &Document, out: &mut Selection);
}

/// Registry: extractor name → constructor from a setting.
type Ctor = fn(&mut SettingReader) -> Result<Box<dyn Extractor>>;

const REGISTRY: &[(&str, Ctor)] = &[
    ("full", full::Full::build),
    ("lqf", lqf::Lqf::build),
    ("ccb", ccb::Ccb::build_ccb),
    ("accb", ccb::Ccb::build_accb),
    ("tccb", ccb::Ccb::build_tccb),
    ("sw", stopwords::StopWords::build),
    ("density", density::Density::build),
    ("bte", bte::Bte::build),
    ("crunch", crunch::Crunch::build),
];

/// Names of every registered extractor.
pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|(n, _)| *n).collect()
}

/// Builds the extractor a setting names, reading every parameter exactly once.
pub fn build(setting: &Setting) -> Result<Box<dyn Extractor>> {
    let ctor = REGISTRY.iter().find(|(n, _)| *n == setting.extractor).map(|(_, c)| *c).ok_or_else(|| {
        crate::error::Error::config(format!(
            "unknown extractor '{}' (known: {})",
            setting.extractor,
            names().join(", ")
        ))
    })?;
    let mut reader = setting.reader();
    let ex = ctor(&mut reader)?;
    reader.finish()?;
    Ok(ex)
}

/// Runs an extractor on a document and renders the kept text.
pub fn extract_text(ex: &dyn Extractor, doc: &Document) -> String {
    let mut sel = Selection::new(ex.view());
    ex.extract(doc, &mut sel);
    doc.render(&sel)
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Helpers for the families' unit tests.
    use super::*;
    use crate::params::builtin;

    /// Builds `name` from its built-in defaults with `k=v` overrides.
    pub fn with(name: &str, sets: &[&str]) -> Box<dyn Extractor> {
        let space = builtin(name).unwrap();
        let s =
            space.with_assignments(&space.defaults(), &sets.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
        build(&s).unwrap()
    }

    /// Extracted text of `html` with `name` at its defaults plus overrides.
    pub fn run(name: &str, sets: &[&str], html: &str) -> String {
        extract_text(with(name, sets).as_ref(), &Document::parse(html))
    }
}
