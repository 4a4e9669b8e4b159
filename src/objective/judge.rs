//! The confidence models of a route's fallback while a search scores it (issue 40): a page's
//! confidence must come from a model that did not see the page, so the primary branch's
//! confidence is fitted once per run, k times over the corpus (fold `k` is judged by the model
//! fitted on the other folds), from one pass of the primary over the pages. Each individual then
//! only applies them: the primary's output and signals are cached with the branch's output.
//!
//! The primary is the `otherwise` branch of the search's base setting (the description's
//! values): a description whose primary is fixed (a settings file, or `tune: false`) is judged
//! by exactly the model of its primary; a primary that evolves is judged by its base's model.

use super::corpus::Corpus;
use super::score::score_subset;
use crate::error::{Error, Result};
use crate::eval::Measure;
use crate::extract::blocktrees::trees::{self, Rows};
use crate::extract::fitted::Models;
use crate::extract::judge::{Model, N_SIGNALS, Signals, extract_with_signals, hyper};
use crate::params::Setting;
use rayon::prelude::*;
use std::sync::Arc;

/// Folds of the out-of-fold confidence.
pub const FOLDS: usize = 5;

/// Fewest scored pages a fallback's confidence is fitted on.
pub const MIN_PAGES: usize = 10;

/// The out-of-fold confidence models of one run.
pub struct Judges {
    /// The fold of each corpus entry (the model that judges it).
    pub fold: Vec<usize>,
    /// One model per fold.
    pub models: Vec<Arc<Model>>,
}

impl Judges {
    /// The models a route built for the pages of fold `k` applies.
    pub fn models(&self, k: usize) -> Models {
        Models(Vec::new(), Some(self.models[k].clone()))
    }
}

/// The primary branch's own setting of a route setting with a fallback.
pub fn primary(s: &Setting) -> Result<Setting> {
    let alias = match s.get("otherwise") {
        Some(crate::params::Value::Cat(a)) => a.clone(),
        _ => return Err(Error::config(format!("route '{}': no 'otherwise' branch", s.extractor))),
    };
    let ex = match s.get(&format!("{alias}{}extractor", crate::params::compose::SEP)) {
        Some(crate::params::Value::Cat(e)) => e.clone(),
        _ => return Err(Error::config(format!("route '{}': branch '{alias}' names no extractor", s.extractor))),
    };
    let mut own = s.scoped(&alias, &ex);
    own.values.retain(|(n, _)| n != "extractor");
    own.model = None;
    Ok(own)
}

/// Each page's signals and F1 under the primary of `base` (None: not scored or failed).
fn pages(corpus: &Corpus, base: &Setting, measure: Measure) -> Result<Vec<Option<(Signals, f64)>>> {
    let own = primary(base)?;
    if crate::extract::fitted::needs_fit(&own) {
        return Err(Error::config(
            "a fallback whose primary branch is fitted on gold (blocktrees) is not tuned yet: make the primary a settings file with its model, or another branch",
        ));
    }
    let ex = crate::extract::build(&own)?;
    let all: Vec<usize> = (0..corpus.entries.len()).collect();
    let scores = score_subset(corpus, ex.as_ref(), measure, &all);
    let ex = ex.as_ref();
    Ok(corpus
        .entries
        .par_iter()
        .zip(&scores)
        .map(|(e, s)| {
            let doc = e.doc.as_ref().filter(|_| s.error.is_none())?;
            let run = std::panic::AssertUnwindSafe(|| extract_with_signals(ex, doc).1);
            let sig = std::panic::catch_unwind(run).ok()?;
            Some((sig, s.prf.f1))
        })
        .collect())
}

/// Trees on the pages `sel` of `pages`.
fn fit_on(pages: &[Option<(Signals, f64)>], sel: impl Iterator<Item = usize>) -> Model {
    let mut r = Rows { f: N_SIGNALS, ..Rows::default() };
    for i in sel {
        if let Some((x, y)) = &pages[i] {
            r.x.extend_from_slice(x);
            r.y.push(y.clamp(0.0, 1.0) as f32);
            r.w.push(1.0);
        }
    }
    Model { forest: trees::fit(&r, &hyper()), setting: String::new(), threshold: 0.0, about: serde_json::Value::Null }
}

/// The out-of-fold confidence models of the primary of `base` on `corpus` (folds as the block
/// model's, [`super::fit::folds_of`]); with `source`, one model fitted on those pages judges
/// every page of `corpus` (a held-out validation set).
pub fn fit(corpus: &Corpus, base: &Setting, measure: Measure, source: Option<&Corpus>) -> Result<Judges> {
    let on = source.unwrap_or(corpus);
    let p = pages(on, base, measure)?;
    let n = p.iter().flatten().count();
    if n < MIN_PAGES {
        return Err(Error::input(format!(
            "the fallback's confidence is fitted on the scored pages of the primary branch: {n} pages, fewer than {MIN_PAGES}"
        )));
    }
    if source.is_some() {
        let m = Arc::new(fit_on(&p, 0..p.len()));
        return Ok(Judges { fold: vec![0; corpus.entries.len()], models: vec![m] });
    }
    let fold = super::fit::folds_of(corpus, FOLDS);
    let models =
        (0..FOLDS).into_par_iter().map(|k| Arc::new(fit_on(&p, (0..p.len()).filter(|&i| fold[i] != k)))).collect();
    Ok(Judges { fold, models })
}
