//! Fitting on gold as a trait. A family whose extractor applies a model fitted on the user's gold
//! names a [`Fit`] in its row of the family table ([`super::Family::fit`]); everything else —
//! out-of-fold fitness while tuning, the model file a run writes beside `best.yaml`, the refit
//! after `report --pick`, the model at a route's branch or a combination's member, the general
//! model's pooled build — calls the trait and never names the family.
//!
//! What a fit reads of a gold page is a [`Page`]: its parsed document and, for each unit of a
//! view, how many of its evaluation tokens the LCS alignment with the gold keeps. The scoring
//! layer's corpus entries implement it, so the extractor layer fits without importing the layer
//! above it.

use super::Extractor;
use crate::document::{Document, View};
use crate::error::{Error, Result};
use crate::params::Setting;
use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// What a fit reads of one gold page.
pub trait Page: Sync {
    /// The page's package (folds are dealt within each package, [`folds_of`]).
    fn package(&self) -> usize;
    /// The parsed page (`None` when it could not be read).
    fn doc(&self) -> Option<&Document>;
    /// For each unit of `view` of the page: its evaluation tokens and how many of them one
    /// longest common subsequence with the gold pairs.
    fn kept(&self, view: View) -> Vec<(u32, u32)>;
}

/// A model fitted on gold pages.
pub trait Model: std::fmt::Debug + Send + Sync {
    /// The [`Fit::key`] of the setting it was fitted with.
    fn key(&self) -> &str;
    /// The text of its model file: its key on line 3 (where a stale model is pointed at), its
    /// last line `end`.
    fn write(&self) -> String;
    /// The model as `Any`, for its own family to take back ([`take`]).
    fn into_any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync>;
}

/// A family fitted on gold: what the rest of cetune asks of it.
pub trait Fit: Sync + std::fmt::Debug {
    /// The parameters of `s` that decide a fit, as text: a model fitted with another key is
    /// stale for `s`, one with the same key applies to it.
    fn key(&self, s: &Setting) -> String;
    /// Reads a model file's text; an error names the line (the caller adds the file).
    fn read(&self, text: &str) -> Result<Arc<dyn Model>>;
    /// The extractor of `s` applying `model` (fitted with `s`'s key); `engine` builds what it
    /// runs besides the model (a block model's stacked members).
    fn apply(&self, engine: &super::Engine, s: &Setting, model: Arc<dyn Model>) -> Result<Box<dyn Extractor>>;
    /// The model of `s` fitted on every page of `pages` (what a run writes beside its
    /// `best.yaml`).
    fn fit_all(&self, engine: &super::Engine, pages: &[&dyn Page], s: &Setting) -> Result<Arc<dyn Model>>;
    /// A fitter for one page set, with its caches (a search keeps one for its corpus).
    fn fitter(&self, engine: &super::Engine) -> Box<dyn Fitter>;
    /// What a cheaper evaluation of `s` can leave out: a multi-fidelity search or racing scores
    /// whole folds (each fits one model), or single pages when the family says so.
    fn fidelity(&self, s: &Setting) -> Fidelity;
}

/// The fidelities a fitted family offers a search ([`Fit::fidelity`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fidelity {
    /// Any subset of the pages (what a hand-written family offers: each page costs alone).
    Documents,
    /// Whole folds of the `k` of [`folds_of`]: scoring a fold's pages fits that fold's model only.
    Folds(usize),
}

/// The models of one setting, one per fold: `None` for a fold whose pages were not asked for.
pub type FoldModels = Arc<Vec<Option<Arc<dyn Model>>>>;

/// The fits of one page set (a search's corpus): what its settings share is fitted once.
pub trait Fitter: Send + Sync {
    /// The models of `s` that score the pages `need` of `pages`: one per fold (fitted on the other
    /// folds; `None` for a fold none of `need` is in) and the fold of each page; with `source`,
    /// one model fitted on all of `source` for every page.
    fn models(
        &self,
        pages: &[&dyn Page],
        s: &Setting,
        source: Option<&[&dyn Page]>,
        need: &[usize],
    ) -> Result<(Vec<usize>, FoldModels)>;
    /// The model of `s` fitted on the pages `train` of `pages` (folds the caller chose).
    fn fit_on(&self, pages: &[&dyn Page], s: &Setting, train: &[usize]) -> Result<Arc<dyn Model>>;
}

/// The fold of each page, given each page's package: dealt round-robin within each package, in
/// page order, so every fold holds every package and the split depends neither on a seed nor on
/// the number of threads.
pub fn folds_of(packages: &[usize], k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..packages.len()).collect();
    order.sort_by_key(|&i| (packages[i], i));
    let mut fold = vec![0; order.len()];
    for (c, &i) in order.iter().enumerate() {
        fold[i] = c % k.max(1);
    }
    fold
}

/// Takes a model back as its family's own type `M`; a model of another family is an error.
pub fn take<M: Any + Send + Sync>(m: Arc<dyn Model>) -> Result<Arc<M>> {
    m.into_any().downcast::<M>().map_err(|_| Error::config("the model is another family's"))
}

/// The models read, by path: a field of an [`super::Engine`], so a command that builds the
/// extractor many times reads each model file once, and two engines (two programs' uses of the
/// library) never see each other's models.
#[derive(Default)]
pub struct ModelCache(Mutex<Vec<(PathBuf, Arc<dyn Model>)>>);

impl std::fmt::Debug for ModelCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let paths: Vec<PathBuf> = self.lock().iter().map(|(p, _)| p.clone()).collect();
        f.debug_tuple("ModelCache").field(&paths).finish()
    }
}

impl ModelCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(PathBuf, Arc<dyn Model>)>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets the model read from `path` (after it was rewritten).
    pub fn forget(&self, path: &Path) {
        self.lock().retain(|(p, _)| p != path);
    }

    /// Reads the model file `path` with `fit`, once: later calls get the model read first. The
    /// compiled-in general model is found by the path its settings name
    /// ([`super::general::builtin`]), like a file.
    pub fn read(&self, fit: &dyn Fit, path: &Path) -> Result<Arc<dyn Model>> {
        if let Some(m) = super::general::builtin(path) {
            return m;
        }
        let cached = self.lock().iter().find(|(p, _)| p == path).map(|(_, m)| m.clone());
        if let Some(m) = cached {
            return Ok(m);
        }
        // A settings file that names a missing or unreadable model is a configuration error.
        let text =
            crate::params::read_model_file(path).map_err(|e| Error { kind: crate::error::ErrorKind::Config, ..e })?;
        let m = fit.read(&text).map_err(|e| e.with_path(path))?;
        self.lock().push((path.to_path_buf(), m.clone()));
        Ok(m)
    }

    /// Reads the model file `path` with `fit` ([`Self::read`]) and checks it was fitted with
    /// `key`.
    pub fn load(&self, fit: &dyn Fit, path: &Path, key: &str) -> Result<Arc<dyn Model>> {
        let m = self.read(fit, path)?;
        check(m.as_ref(), key, path)?;
        Ok(m)
    }
}

/// Refuses a model (read from `path`) that was not fitted with `key`, naming the fit line.
pub fn check(m: &dyn Model, key: &str, path: &Path) -> Result<()> {
    if m.key() != key {
        return Err(Error::config(format!(
            "the model was fitted with {}, but the setting says {key}: refit it (cetune optimise) or use its own best.yaml",
            m.key()
        ))
        .with_cause(crate::error::Cause::StaleModel)
        .with_path(path)
        .with_line(3, None));
    }
    Ok(())
}
