//! Fitting on a corpus, for every family fitted on gold ([`crate::extract::fit::Fit`]): the
//! corpus's entries are the training pages ([`Page`]), a search keeps one fitter per family for
//! its corpus ([`Fits`]) and scores a setting with the models of the other folds at every place
//! where a fitted family sits, and a run writes the model file of its winner fitted on the whole
//! sample ([`fit_file`]). Nothing here names a family: the family table says which ones fit.

use super::corpus::{Corpus, Entry};
use super::score::{DocScore, score_subset};
use crate::document::{Document, View};
use crate::error::{Error, Result};
use crate::eval::Measure;
use crate::extract::Extractor;
use crate::extract::fit::{Fidelity, Fit, Fitter, FoldModels, Model, Page};
use crate::params::Setting;
use std::sync::{Arc, Mutex};

/// True when `s` must be fitted on a corpus before it can score: a family fitted on gold
/// without a model file, alone or at a place of a route or a combination
/// ([`crate::extract::fitted::places`]).
pub fn needs_fit(s: &Setting) -> bool {
    crate::extract::fitted::needs_fit(s)
}

impl Page for Entry {
    fn package(&self) -> usize {
        self.package
    }

    fn doc(&self) -> Option<&Document> {
        self.doc.as_ref()
    }

    fn kept(&self, view: View) -> Vec<(u32, u32)> {
        let rows = self.rows(view);
        let matched = self.gold.matched_rows(&rows.rows);
        (0..rows.tok_starts.len().saturating_sub(1))
            .map(|u| {
                let toks = rows.tok_starts[u + 1] - rows.tok_starts[u];
                let span = rows.row_starts[u] as usize..rows.row_starts[u + 1] as usize;
                (toks, matched[span].iter().filter(|m| **m).count() as u32)
            })
            .collect()
    }
}

/// The entries of `corpus` as training pages.
pub fn pages(corpus: &Corpus) -> Vec<&dyn Page> {
    corpus.entries.iter().map(|e| e as &dyn Page).collect()
}

/// The fold of each entry: dealt round-robin within each package, in corpus order
/// ([`crate::extract::fit::folds_of`]).
pub fn folds_of(corpus: &Corpus, k: usize) -> Vec<usize> {
    let packages: Vec<usize> = corpus.entries.iter().map(|e| e.package).collect();
    crate::extract::fit::folds_of(&packages, k)
}

/// How the family of `own` (a fitted place's setting) is fitted.
fn fit_of(own: &Setting) -> Result<&'static dyn Fit> {
    crate::extract::fit_of(&own.extractor)
        .ok_or_else(|| Error::config(format!("'{}' is not fitted on gold", own.extractor)))
}

/// The fitters of a search's corpus, one per family fitted on gold that its settings hold; each
/// keeps what the settings it fits share (labelled pages, boostings) for the whole search.
#[derive(Default)]
pub struct Fits {
    fitters: Mutex<Vec<(String, Arc<dyn Fitter>)>>,
}

impl Fits {
    /// The fitter of the family of `own`, made the first time it is asked for.
    fn fitter(&self, engine: &crate::extract::Engine, own: &Setting) -> Result<Arc<dyn Fitter>> {
        let fit = fit_of(own)?;
        let mut v = self.fitters.lock().map_err(|_| Error::config("a fit failed in another thread"))?;
        if let Some((_, f)) = v.iter().find(|(n, _)| *n == own.extractor) {
            return Ok(f.clone());
        }
        let f: Arc<dyn Fitter> = Arc::from(fit.fitter(engine));
        v.push((own.extractor.clone(), f.clone()));
        Ok(f)
    }

    /// The models of `own` (a fitted place's setting) that score the entries `need`: one per
    /// fold of `corpus` (fitted on the other folds; `None` for a fold none of `need` is in) and
    /// the fold of each entry; with `source`, one model fitted on all of `source` for every entry.
    pub fn models(
        &self,
        engine: &crate::extract::Engine,
        corpus: &Corpus,
        own: &Setting,
        source: Option<&Corpus>,
        need: &[usize],
    ) -> Result<(Vec<usize>, FoldModels)> {
        let src = source.map(pages);
        self.fitter(engine, own)?.models(&pages(corpus), own, src.as_deref(), need)
    }

    /// The scores of `s` on `subset` (in that order), each page scored by the models of its fold
    /// (or of `source`) at every place of `s` where a fitted family sits
    /// ([`crate::extract::fitted::places`]; each place's models are cached by its own fit
    /// parameters, so changing anything else refits nothing); `wrap` turns the extractor into the
    /// one scored (a field view); `engine` builds it.
    #[allow(clippy::too_many_arguments)]
    pub fn scores(
        &self,
        engine: &crate::extract::Engine,
        corpus: &Corpus,
        s: &Setting,
        measure: Measure,
        subset: &[usize],
        source: Option<&Corpus>,
        wrap: &dyn Fn(Box<dyn Extractor>) -> Result<Box<dyn Extractor>>,
    ) -> Result<Vec<DocScore>> {
        use crate::extract::fitted::{Models, Placed, places};
        let places = places(s)?;
        let fitted: Vec<(Vec<usize>, FoldModels)> =
            places.iter().map(|(_, own)| self.models(engine, corpus, own, source, subset)).collect::<Result<_>>()?;
        // The pages that share a fold at every place are scored by one extractor.
        let mut groups: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
        for (p, &d) in subset.iter().enumerate() {
            let key: Vec<usize> = fitted.iter().map(|(folds, _)| folds[d]).collect();
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, at)) => at.push(p),
                None => groups.push((key, vec![p])),
            }
        }
        let mut out = vec![DocScore::default(); subset.len()];
        for (key, at) in groups {
            let models = Models(
                places
                    .iter()
                    .zip(&fitted)
                    .zip(&key)
                    .map(|(((place, own), (_, ms)), &j)| {
                        Ok(Placed {
                            place: place.clone(),
                            model: ms[j].clone().ok_or_else(|| Error::bug("a scored page's fold has no model"))?,
                            // A fit depends only on its pages and parameters: this names it.
                            tag: crate::extract::combine::hash_of((
                                "fold",
                                fit_of(own)?.key(own),
                                ms.len(),
                                j,
                                source.is_some(),
                            )),
                        })
                    })
                    .collect::<Result<_>>()?,
                None,
            );
            let ex = wrap(crate::extract::build_with(engine, s, &models)?)?;
            let docs: Vec<usize> = at.iter().map(|&p| subset[p]).collect();
            for (p, sc) in at.into_iter().zip(score_subset(corpus, ex.as_ref(), measure, &docs)) {
                out[p] = sc;
            }
        }
        Ok(out)
    }
}

/// The fold of each entry of `corpus` when the setting `s` is scored out of fold and one model
/// of each fold scores its pages (the first place of a family fitted on gold that offers
/// [`Fidelity::Folds`]): a search then scores whole folds first. `None` when every page costs
/// alone.
pub fn groups(corpus: &Corpus, s: &Setting) -> Option<Vec<usize>> {
    if !needs_fit(s) {
        return None;
    }
    let places = crate::extract::fitted::places(s).ok()?;
    places.iter().find_map(|(_, own)| match fit_of(own).ok()?.fidelity(own) {
        Fidelity::Folds(k) => Some(folds_of(corpus, k)),
        Fidelity::Documents => None,
    })
}

/// The model of `own` (a fitted place's setting) fitted on every page of `corpus`.
pub fn fit_all(engine: &crate::extract::Engine, corpus: &Corpus, own: &Setting) -> Result<Arc<dyn Model>> {
    fit_of(own)?.fit_all(engine, &pages(corpus), own)
}

/// The model file of `s` fitted on every page of `corpus` (what a run writes as `best.model`):
/// the family's own file for the family alone, a model per place for a route or a combination
/// ([`crate::extract::fitted::write`]).
pub fn fit_file(engine: &crate::extract::Engine, corpus: &Corpus, s: &Setting) -> Result<String> {
    let places = crate::extract::fitted::places(s)?;
    if let [(place, own)] = places.as_slice()
        && place.is_empty()
    {
        return Ok(fit_all(engine, corpus, own)?.write());
    }
    let models =
        places.into_iter().map(|(p, own)| Ok((p, fit_all(engine, corpus, &own)?))).collect::<Result<Vec<_>>>()?;
    Ok(crate::extract::fitted::write(&models))
}
