//! # External
//!
//! An extractor that runs in another process: a parameter file with `extractor: external` and a
//! `command:` starts that command as a worker speaking JSON lines (`worker.rs`), one per thread
//! that uses it, kept running between pages and individuals. Its `parameters:` are ordinary genes,
//! sent with every page; the worker's text becomes a selection of the page's words by the LCS
//! alignment of `align.rs`, so everything that scores, caches, races or combines a family works on
//! it unchanged. A page the worker fails on (an `error` reply, a crash, a timeout, garbage) is an
//! error row ([`super::Failed`]).
//!
//! Imports from the crate: `document`, `params`, `error`, `eval` (tokens and the LCS
//! trace-back of the alignment), `goldset` (its decoder's JSON reader, which takes a lone
//! surrogate) and `yaml` (the commands a named file declares, `trust.rs`).
//!
//! ## References
//!
//! The JSON-lines protocol is cetune's own (README, "External extractors"); the alignment is the
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

use super::{Extractor, fail};
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

/// Builds the external extractor a setting names: starts (or reuses) its workers; a worker that
/// cannot start or does not answer its handshake is a configuration error.
pub fn build(setting: &Setting) -> Result<Box<dyn Extractor>> {
    let Some(Value::Cat(command)) = setting.get(COMMAND) else {
        return Err(Error::config(format!("an external extractor's setting lacks parameter '{COMMAND}'")));
    };
    trust::check(command)?;
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
    let pool =
        worker::pool(command, startup).map_err(|m| Error::config(format!("external extractor `{command}`: {m}")))?;
    Ok(Box::new(External { pool, params: serde_json::Value::Object(params), timeout }))
}

impl External {
    /// The worker's text for a page, or why there is none.
    pub fn text(&self, html: &str, url: Option<&str>) -> std::result::Result<String, String> {
        let h = self.pool.hello();
        self.pool.run(html, url, &self.params, self.timeout).map_err(|m| format!("{} {}: {m}", h.name, h.version))
    }
}

impl Extractor for External {
    fn view(&self) -> View {
        View::Source
    }

    fn needs(&self) -> Needs {
        Needs::SOURCE | Needs::HTML
    }

    fn extract(&self, doc: &Document, out: &mut Selection) {
        let Some(html) = doc.html.as_deref() else {
            fail("an external extractor reads the page's HTML, and this page has none (a serial pipeline's reduced page)".into())
        };
        match self.text(html, doc.url.as_deref()) {
            Ok(text) => doc.select_words(&align::mask(doc, &text), out),
            Err(m) => fail(m),
        }
    }
}
