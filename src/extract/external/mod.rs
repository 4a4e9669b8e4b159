//! # External
//!
//! An extractor that runs in another process: a parameter file with `extractor: external` and a
//! `command:` starts that command as a worker speaking JSON lines (`worker.rs`), one per thread
//! that uses it, kept running between pages and individuals (in the pools of the
//! [`super::Engine`] that built it). Its `parameters:` are ordinary genes,
//! sent with every page; the worker's text becomes a selection of the page's words by the LCS
//! alignment of `align.rs`, so everything that scores, caches, races or combines a family works on
//! it unchanged. A page the worker fails on (an `error` reply, a crash, a timeout, garbage) is an
//! error row ([`super::Failure::Worker`], with the [`worker::Fault`] that says which).
//!
//! Imports from the crate: `document`, `params`, `error`, `eval` (tokens and the LCS
//! trace-back of the alignment), `goldset` (its decoder's JSON reader, which takes a lone
//! surrogate) and `yaml` (the commands a named file declares, `trust.rs`).
//!
//! ## References
//!
//! The JSON-lines protocol is cetune's own (docs/external.md); the alignment is the
//! LCS of Gottron (2009) as `annotate` uses it.
//!
//! ## Parameters
//!
//! - `command`: the worker's command line (fixed; run by `sh -c 'exec …'` in the current folder).
//! - `timeout`: seconds a page may take; then the worker is stopped and restarted (fixed, 30).
//! - `startup`: seconds a worker may take to answer its handshake (fixed, 60).
//! - every other parameter: the worker's own, sent to it as `params`.
//!
//! ## Interpretation
//!
//! The score is that of the part of the worker's text that the page holds in page order (see
//! `align.rs`); a worker that invents or reorders words is scored on what remains.

pub mod align;
pub mod trust;
pub mod worker;

use super::{Extractor, Failure, Fallible};
use crate::document::{Document, Needs, Selection, View};
use crate::error::{Error, Result};
use crate::params::external::{COMMAND, RESERVED, STARTUP, TIMEOUT};
use crate::params::{Setting, Value};
use std::sync::Arc;
use std::time::Duration;

/// A configured external extractor: its worker pool and the parameters it sends.
pub struct External {
    pool: Arc<worker::Pool>,
    params: serde_json::Value,
    timeout: Duration,
}

/// Seconds as a duration (the parameter's range keeps them positive and finite).
fn seconds(setting: &Setting, name: &str) -> Result<Duration> {
    match setting.get(name) {
        Some(Value::Float(x)) if *x > 0.0 && x.is_finite() => Ok(Duration::from_secs_f64(*x)),
        Some(Value::Int(i)) if *i > 0 => Ok(Duration::from_secs(*i as u64)),
        Some(v) => Err(Error::config(format!("parameter '{name}': must be a positive number of seconds, got {v}"))),
        None => Err(Error::config(format!("an external extractor's setting lacks parameter '{name}'"))),
    }
}

/// Builds the external extractor a setting names if `engine`'s trust policy lets its command run:
/// starts (or reuses) the engine's pool of its workers; a worker that cannot start or does not
/// answer its handshake is a configuration error.
pub fn build(engine: &super::Engine, setting: &Setting) -> Result<Box<dyn Extractor>> {
    let Some(Value::Cat(command)) = setting.get(COMMAND) else {
        return Err(Error::config(format!("an external extractor's setting lacks parameter '{COMMAND}'")));
    };
    engine.trust().check(command)?;
    let (timeout, startup) = (seconds(setting, TIMEOUT)?, seconds(setting, STARTUP)?);
    let params: serde_json::Map<String, serde_json::Value> = setting
        .values
        .iter()
        .filter(|(n, _)| !RESERVED.contains(&n.as_str()))
        .map(|(n, v)| {
            let v = match v {
                Value::Float(x) => serde_json::json!(x),
                Value::Int(i) => serde_json::json!(i),
                Value::Bool(b) => serde_json::json!(b),
                Value::Cat(c) => serde_json::json!(c),
            };
            (n.clone(), v)
        })
        .collect();
    let pool = engine
        .pools()
        .pool(command, startup)
        .map_err(|m| Error::config(format!("external extractor `{command}`: {m}")))?;
    Ok(Box::new(External { pool, params: serde_json::Value::Object(params), timeout }))
}

impl External {
    /// The worker's text for a page, or why there is none (the message names the worker).
    pub fn text(&self, html: &str, url: Option<&str>) -> std::result::Result<String, worker::Failure> {
        let h = self.pool.hello();
        self.pool
            .run(html, url, &self.params, self.timeout)
            .map_err(|f| worker::Failure { message: format!("{} {}: {}", h.name, h.version, f.message), ..f })
    }
}

impl Extractor for External {
    fn view(&self) -> View {
        View::Source
    }

    fn needs(&self) -> Needs {
        Needs::SOURCE | Needs::HTML
    }

    fn extract(&self, doc: &Document, out: &mut Selection) -> Fallible {
        let Some(html) = doc.html.as_deref() else { return Err(Failure::NoHtml) };
        let text = self.text(html, doc.url.as_deref()).map_err(Failure::Worker)?;
        doc.select_words(&align::mask(doc, &text), out);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::worker::Fault;
    use crate::document::{Document, Selection};
    use crate::extract::testutil::{refusing_worker, with_external_member};
    use crate::extract::{Failure, extract_text};

    #[test]
    fn a_members_failure_is_the_combinations_and_its_kind_is_matched_by_type() {
        let dir = std::env::temp_dir().join(format!("cetune-external-kinds-{}", std::process::id()));
        let command = refusing_worker(&dir);
        let ex = with_external_member(&command, "intersection");
        // The page as the corpus prepares it for this extractor: with its HTML.
        let page = |p: &str| {
            let html = format!("<body><p>Menu</p><p>{p} the story</p></body>");
            Document::parse_for(&html, &Default::default(), ex.needs()).0
        };
        assert_eq!(extract_text(ex.as_ref(), &page("one")), Ok("the story".to_string()));
        let mut sel = Selection::new(ex.view());
        match ex.extract(&page("REFUSE"), &mut sel) {
            Err(Failure::Worker(w)) => {
                assert_eq!(w.fault, Fault::Refused);
                // The page's error row, word for word as it was when the failure unwound.
                assert_eq!(w.message, "refuser 1: the worker failed on this page: no article here");
            }
            other => panic!("expected the worker's refusal, got {other:?}"),
        }
        // The worker stays for the next page.
        assert_eq!(extract_text(ex.as_ref(), &page("two")), Ok("the story".to_string()));
        // In a pipeline, the external member sees the reduced page, which has no HTML.
        let serial = with_external_member(&command, "serial");
        assert_eq!(extract_text(serial.as_ref(), &page("three")), Err(Failure::NoHtml));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
