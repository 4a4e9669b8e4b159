//! Fitting the block model on gold pages ([`super::super::fit::Fit`]): block labels from the LCS
//! alignment with the gold, k-fold out-of-fold models while tuning, and the fit on the whole
//! sample that a run writes beside its `best.yaml`.
//!
//! A block's label is the share of its evaluation tokens that one longest common subsequence
//! with the gold pairs ([`Page::kept`], the alignment `annotate` uses), its weight the square
//! root of its token count (the prototype's choice). Folds are dealt round-robin within each
//! package, in page order ([`folds_of`]), so every fold holds every package and the split does
//! not depend on the seed or the number of threads.
//!
//! With `regions`, each page's candidate regions are labelled with their own F1 against the gold
//! and scored by a forest of their own ([`super::regions`]), out of fold like the second stage.

use super::context::{N_CONTEXT, context};
use super::members::{self, Member};
use super::regions::{self, N_BLOCK, N_REGION};
use super::{Blocktrees, Model, boost_key, fit_key, hyper, regional, row_of, stacked, stage_two};
use crate::document::View;
use crate::document::segments::{Admit, N_FEATURES};
use crate::error::{Error, Result};
use crate::extract::fit::{self, FoldModels, Page, folds_of};
use crate::extract::trees::{self, Boosted, Forest, Rows};
use crate::extract::{Engine, Extractor};
use crate::params::Setting;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Most boostings kept (each holds k forests of up to a few MB).
const KEEP: usize = 48;

/// The block family's fitting: the row of the family table names it.
#[derive(Debug)]
pub struct Fitting;

/// The one [`Fitting`].
pub static FIT: Fitting = Fitting;

impl fit::Model for Model {
    fn key(&self) -> &str {
        &self.fit
    }

    fn write(&self) -> String {
        Model::write(self)
    }

    fn into_any(self: Arc<Self>) -> Arc<dyn std::any::Any + Send + Sync> {
        self
    }
}

impl fit::Fit for Fitting {
    fn key(&self, s: &Setting) -> String {
        fit_key(s)
    }

    fn read(&self, text: &str) -> Result<Arc<dyn fit::Model>> {
        Ok(Arc::new(Model::read(text)?))
    }

    fn apply(&self, engine: &Engine, s: &Setting, model: Arc<dyn fit::Model>) -> Result<Box<dyn Extractor>> {
        Blocktrees::from_model(engine, s, fit::take(model)?)
    }

    fn fit_all(&self, engine: &Engine, pages: &[&dyn Page], s: &Setting) -> Result<Arc<dyn fit::Model>> {
        Ok(Arc::new(fit_all(engine, pages, s)?))
    }

    fn fitter(&self, engine: &Engine) -> Box<dyn fit::Fitter> {
        Box::new(Fits { engine: engine.clone(), ..Fits::default() })
    }

    /// Whole folds, except for a stacked setting: its second stage reads every page's context in
    /// the first-stage trees of the page's own fold, so any fold needs all first stages.
    fn fidelity(&self, s: &Setting) -> fit::Fidelity {
        match folds(s) {
            Ok(k) if !stacked(s) => fit::Fidelity::Folds(k),
            _ => fit::Fidelity::Documents,
        }
    }
}

/// The training rows of one page: its candidate blocks with at least one token.
pub fn page_rows(page: &dyn Page, hidden: Admit) -> Rows {
    let p = page_labels(page, hidden, None, &[]);
    let mut r = Rows { f: N_FEATURES, y: p.y, w: p.w, ..Rows::default() };
    if let Some(doc) = page.doc() {
        p.blocks.iter().for_each(|&b| r.x.extend_from_slice(doc.segments.row(b as usize)));
    }
    r
}

/// One page's training rows without their features (which the page's block view holds): the
/// candidate blocks with at least one token, their labels and weights, the stacked members'
/// votes ([`members`], one per member) and, for a second stage, their context.
#[derive(Default)]
struct PageLabels {
    blocks: Vec<u32>,
    y: Vec<f32>,
    w: Vec<f32>,
    votes: Vec<f32>,
    /// Each member's failure on the page (a page it failed on holds no vote of it).
    failed: Vec<Option<String>>,
    ctx: Vec<[f32; N_CONTEXT]>,
    /// With a region forest, each row's region features ([`regions::BLOCK`]).
    reg: Vec<[f32; N_BLOCK]>,
}

/// A page's candidate blocks and their stacked members' votes (`m` per block) and failures.
fn candidates(
    doc: &crate::document::Document,
    hidden: Admit,
    members: &[Member],
) -> (Vec<u32>, Vec<f32>, Vec<Option<String>>) {
    let seg = &doc.segments;
    let cand: Vec<u32> = (0..seg.len() as u32).filter(|&b| hidden.admits(seg.hidden[b as usize])).collect();
    let (votes, failed) =
        if members.is_empty() { Default::default() } else { members::votes_or_none(doc, &cand, members) };
    (cand, votes, failed)
}

/// The first stage's raw scores of a page's candidate blocks `cand` (with their members' votes).
fn first_raw(
    seg: &crate::document::segments::Segments,
    cand: &[u32],
    votes: &[f32],
    m: usize,
    forest: &Forest,
) -> Vec<f64> {
    let mut row = Vec::with_capacity(N_FEATURES + m);
    (0..cand.len())
        .map(|k| forest.raw(row_of(&mut row, seg.row(cand[k] as usize), &votes[k * m..(k + 1) * m], &[], &[])))
        .collect()
}

/// The training rows of one page with the votes of `members`; with `first`, each row's context
/// in that first-stage forest's scores (a second stage's rows, [`context`]) and, with its region
/// forest, each row's region features.
fn page_labels(
    page: &dyn Page,
    hidden: Admit,
    first: Option<(&Forest, Option<&Forest>)>,
    members: &[Member],
) -> PageLabels {
    let mut r = PageLabels::default();
    let Some(doc) = page.doc() else { return r };
    let seg = &doc.segments;
    let m = members.len();
    let (cand, votes, failed) = candidates(doc, hidden, members);
    r.failed = failed;
    let second = first.map(|(forest, reg)| {
        let raw = first_raw(seg, &cand, &votes, m, forest);
        (context(seg, &cand, &raw), reg.map(|f| regions::decide(seg, &cand, &raw, f)))
    });
    let kept = page.kept(View::Blocks);
    for (k, &b) in cand.iter().enumerate() {
        let (toks, hits) = kept[b as usize];
        if toks == 0 {
            continue;
        }
        r.blocks.push(b);
        r.votes.extend_from_slice(&votes[k * m..(k + 1) * m]);
        if let Some((c, reg)) = &second {
            r.ctx.push(c[k]);
            if let Some(reg) = reg {
                r.reg.push(reg[k]);
            }
        }
        r.y.push(hits as f32 / toks as f32);
        r.w.push((toks as f32).sqrt());
    }
    r
}

/// The region rows of every page of `pages` ([`regions`]): page `p`'s candidate regions described
/// in the first-stage scores of `forests[fold[p]]` (out of fold), labelled with their F1.
struct RegionRows {
    /// Every page's regions, one after the other.
    rows: Rows,
    /// Page `p`'s regions are `starts[p]..starts[p + 1]`.
    starts: Vec<usize>,
}

impl RegionRows {
    fn of(pages: &[&dyn Page], hidden: Admit, fold: &[usize], forests: &[Forest], voters: &Voters) -> RegionRows {
        let per: Vec<(Vec<[f32; N_REGION]>, Vec<f32>)> = pages
            .par_iter()
            .enumerate()
            .map(|(p, e)| {
                let Some(doc) = e.doc() else { return Default::default() };
                let seg = &doc.segments;
                let (cand, votes, _) = candidates(doc, hidden, voters.at(p));
                let raw = first_raw(seg, &cand, &votes, voters.len(), &forests[fold[p]]);
                let probs: Vec<f64> = raw.iter().map(|z| regions::sigmoid(*z)).collect();
                let r = regions::regions(seg, &cand, &probs);
                let y = regions::labels(&r.spans, &e.kept(View::Blocks));
                (r.rows, y)
            })
            .collect();
        let mut rows = Rows { f: N_REGION, ..Rows::default() };
        let mut starts = vec![0];
        for (x, y) in per {
            // Each of a page's n regions weighs 1/√n: a page of many regions counts more than one
            // of few, not n times more.
            let w = 1.0 / (y.len().max(1) as f32).sqrt();
            rows.x.extend(x.iter().flatten());
            rows.w.extend(std::iter::repeat_n(w, y.len()));
            rows.y.extend(y);
            starts.push(rows.y.len());
        }
        RegionRows { rows, starts }
    }

    /// The region forest fitted on the regions of the pages `pages`.
    fn forest(&self, pages: &[usize]) -> Forest {
        let mut sel = Rows { f: N_REGION, ..Rows::default() };
        for &p in pages {
            let (a, z) = (self.starts[p], self.starts[p + 1]);
            sel.x.extend_from_slice(&self.rows.x[a * N_REGION..z * N_REGION]);
            sel.y.extend_from_slice(&self.rows.y[a..z]);
            sel.w.extend_from_slice(&self.rows.w[a..z]);
        }
        trees::fit(&sel, &regions::hyper())
    }

    /// The region forest of each of the `k` folds of `fold`, fitted on the other folds' regions.
    fn folded(&self, fold: &[usize], k: usize) -> Vec<Forest> {
        (0..k).into_par_iter().map(|j| self.forest(&outside(fold, j))).collect()
    }
}

/// The package of each page.
fn packages(pages: &[&dyn Page]) -> Vec<usize> {
    pages.iter().map(|p| p.package()).collect()
}

/// The stacked members a fit's pages vote with: the same for every page, or, with members fitted
/// on gold, page `p`'s from the members fitted on the pages outside `p`'s fold ([`members::fit`]).
pub struct Voters {
    /// One member list, or one per fold.
    sets: Vec<Vec<Member>>,
    /// Each page's fold (read with one list per fold).
    fold: Vec<usize>,
    /// With fitted members, the fits of each fold's list (what that fold's model applies).
    fits: Vec<members::Fits>,
}

impl Voters {
    /// The voters of `s` on `pages`: its members fitted on gold are fitted once per fold of
    /// `fold` (`k` folds) on the other folds' pages.
    fn of(engine: &Engine, s: &Setting, pages: &[&dyn Page], fold: &[usize], k: usize) -> Result<Voters> {
        if !members::any_fitted(engine, s)? {
            return Ok(Voters { sets: vec![members::build(engine, s, &[])?], fold: Vec::new(), fits: Vec::new() });
        }
        let fits: Vec<members::Fits> =
            (0..k).map(|j| members::fit(engine, s, pages, &outside(fold, j))).collect::<Result<_>>()?;
        let sets = fits.iter().map(|f| members::build(engine, s, f)).collect::<Result<_>>()?;
        Ok(Voters { sets, fold: fold.to_vec(), fits })
    }

    /// Page `p`'s members.
    fn at(&self, p: usize) -> &[Member] {
        match self.sets.len() {
            1 => &self.sets[0],
            _ => &self.sets[self.fold[p]],
        }
    }

    /// The number of members.
    fn len(&self) -> usize {
        self.sets.first().map_or(0, Vec::len)
    }

    /// The fitted members' fits that fold `j`'s model applies (none without fitted members).
    fn fits(&self, j: usize) -> members::Fits {
        self.fits.get(j).cloned().unwrap_or_default()
    }
}

/// The training rows of a page set under one `hidden_text`, binned once for every fit on them.
pub struct Labelled {
    /// Every page's rows, one after the other: their labels and weights (`rows.x` is empty:
    /// a fit reads only the bins).
    pub rows: Rows,
    /// Page `p`'s rows are `starts[p]..starts[p + 1]`.
    pub starts: Vec<u32>,
    /// The rows' features cut into bins at the quantiles of all of them (features only: the
    /// labels of a held-out fold never enter a fit).
    pub binned: trees::Binned,
    /// With `start=general`, the forest fits continue from and its raw score of every row.
    start: Option<(Arc<Forest>, Vec<f64>)>,
    /// The stacked members whose votes follow each row's block features.
    members: usize,
    /// The members the rows' votes came from (what a second stage's rows and each fold's model
    /// read again).
    voters: Option<Arc<Voters>>,
}

impl Labelled {
    /// The labelled rows of every page of `pages`; with `start`, fits on them continue from
    /// that forest's scores ([`start_of`]).
    /// A member that fails on every page is an error.
    pub fn of(
        s: &Setting,
        pages: &[&dyn Page],
        hidden: Admit,
        start: Option<Arc<Forest>>,
        voters: Arc<Voters>,
    ) -> Result<Labelled> {
        let labels: Vec<PageLabels> =
            pages.par_iter().enumerate().map(|(p, e)| page_labels(*e, hidden, None, voters.at(p))).collect();
        let failed: Vec<&[Option<String>]> =
            labels.iter().zip(pages).filter(|(_, p)| p.doc().is_some()).map(|(l, _)| l.failed.as_slice()).collect();
        members::check_failures(s, &failed)?;
        let init = start.as_ref().map(|forest| {
            let raw: Vec<Vec<f64>> = pages
                .par_iter()
                .zip(&labels)
                .map(|(e, p)| match e.doc() {
                    Some(doc) => p.blocks.iter().map(|&b| forest.raw(doc.segments.row(b as usize))).collect(),
                    None => Vec::new(),
                })
                .collect();
            raw.concat()
        });
        let mut l = Labelled::from_pages(pages, labels, voters.len(), false, false);
        l.start = start.zip(init);
        l.voters = Some(voters);
        Ok(l)
    }

    /// The second-stage rows of every page of `pages`: page `p`'s blocks in the context of the
    /// first-stage scores of `forests[fold[p]]` (out of fold: a page's context comes from trees
    /// that did not see it) and, with `regions`, in the decision of the region forest
    /// `regions[fold[p]]`.
    fn context(
        pages: &[&dyn Page],
        hidden: Admit,
        fold: &[usize],
        forests: &[Forest],
        regions: Option<&[Forest]>,
        voters: &Voters,
    ) -> Labelled {
        let labels = pages
            .par_iter()
            .enumerate()
            .map(|(p, e)| {
                page_labels(*e, hidden, Some((&forests[fold[p]], regions.map(|r| &r[fold[p]]))), voters.at(p))
            })
            .collect();
        Labelled::from_pages(pages, labels, voters.len(), true, regions.is_some())
    }

    /// Bins the pages' rows, their features read from each page's block view and context where
    /// they lie: the raw features of a whole sample are never copied (four times the bins).
    fn from_pages(pages: &[&dyn Page], labels: Vec<PageLabels>, m: usize, ctx: bool, reg: bool) -> Labelled {
        let c = N_FEATURES + m + if ctx { N_CONTEXT } else { 0 };
        let f = c + if reg { N_BLOCK } else { 0 };
        let mut rows = Rows { f, ..Rows::default() };
        let mut starts = vec![0u32];
        for r in &labels {
            rows.y.extend_from_slice(&r.y);
            rows.w.extend_from_slice(&r.w);
            starts.push(rows.y.len() as u32);
        }
        let sizes: Vec<usize> = labels.iter().map(|r| r.blocks.len()).collect();
        let segs: Vec<Option<&crate::document::segments::Segments>> =
            pages.iter().map(|e| e.doc().map(|d| &*d.segments)).collect();
        let binned = trees::Binned::of_rows(&sizes, f, |p, k, j| match j {
            j if j < N_FEATURES => segs[p].map_or(0.0, |s| s.row(labels[p].blocks[k] as usize)[j]),
            j if j < N_FEATURES + m => labels[p].votes[k * m + j - N_FEATURES],
            j if j < c => labels[p].ctx[k][j - N_FEATURES - m],
            j => labels[p].reg[k][j - c],
        });
        Labelled { rows, starts, binned, start: None, members: m, voters: None }
    }

    /// The rows of the pages `pages`.
    fn rows_of(&self, pages: &[usize]) -> Vec<u32> {
        pages.iter().flat_map(|&p| self.starts[p]..self.starts[p + 1]).collect()
    }

    /// Boosts `h.trees` trees on the pages `pages`, continuing `from` (the same hyperparameters
    /// with fewer trees) when given.
    fn boost(&self, pages: &[usize], h: &trees::Hyper, from: Option<&Boosted>) -> Boosted {
        let init = self.start.as_ref().map(|(_, raw)| raw.as_slice());
        trees::boost(&self.binned, &self.rows_of(pages), &self.rows.y, &self.rows.w, h, from, init)
    }

    /// The forest of the first `trees` trees of `b` (a boosting on these rows): with a start
    /// forest, its trees then these.
    fn finish(&self, b: &Boosted, trees: usize) -> Forest {
        let own = b.forest(trees, self.rows.f);
        match &self.start {
            Some((start, _)) => start.then(&own),
            None => own,
        }
    }

    /// The forest of `h` fitted on the pages `pages`.
    pub fn forest(&self, pages: &[usize], h: &trees::Hyper) -> Forest {
        self.finish(&self.boost(pages, h, None), h.trees)
    }
}

/// The forest a fit of `s` continues from: the general model's first stage with `start:
/// general` ([`crate::extract::general`]), else none. With `stack`, the first stage continues
/// from it and the second is fitted on that stage's scores as always.
pub fn start_of(s: &Setting) -> Result<Option<Arc<Forest>>> {
    match s.get("start") {
        Some(crate::params::Value::Cat(c)) if c == "general" => {
            let general: Arc<Model> = fit::take(crate::extract::general::model()?)?;
            Ok(Some(Arc::new(general.forest.clone())))
        }
        _ => Ok(None),
    }
}

/// The pages outside fold `j`.
fn outside(folds: &[usize], j: usize) -> Vec<usize> {
    (0..folds.len()).filter(|&i| folds[i] != j).collect()
}

/// The number of folds of `s` (`folds`, at least 2).
fn folds(s: &Setting) -> Result<usize> {
    match s.get("folds") {
        Some(crate::params::Value::Int(k)) if *k >= 2 => Ok(*k as usize),
        _ => Err(Error::config("blocktrees: 'folds' must be an integer of at least 2")),
    }
}

/// Fits the model of `s` on every page of `pages` (what a run writes as `best.model`). A
/// stacked setting's second stage is fitted on every page's context in the scores of the
/// first-stage trees of the other folds (as while tuning), its first stage on every page.
pub fn fit_all(engine: &Engine, pages: &[&dyn Page], s: &Setting) -> Result<Model> {
    let (h, hidden) = hyper(s)?;
    let all: Vec<usize> = (0..pages.len()).collect();
    let k = folds(s)?;
    let fold = folds_of(&packages(pages), k);
    // Members fitted on gold vote on each page as fitted on the other folds' pages.
    let voters = Arc::new(Voters::of(engine, s, pages, &fold, k)?);
    let labelled = Labelled::of(s, pages, hidden, start_of(s)?, voters.clone())?;
    let forest = labelled.forest(&all, &h);
    let (stack, regions) = if stacked(s) {
        let firsts: Vec<Forest> = (0..k).into_par_iter().map(|j| labelled.forest(&outside(&fold, j), &h)).collect();
        // The region forest the model applies is fitted on every page's regions; the second
        // stage is fitted on decisions of region forests that did not see the page.
        let (whole, folded) = match regional(s) {
            true => {
                let rows = RegionRows::of(pages, hidden, &fold, &firsts, &voters);
                (Some(rows.forest(&all)), Some(rows.folded(&fold, k)))
            }
            false => (None, None),
        };
        let ctx = Labelled::context(pages, hidden, &fold, &firsts, folded.as_deref(), &voters);
        (Some(ctx.forest(&all, &stage_two(&h, whole.is_some()))), whole)
    } else {
        (None, None)
    };
    // What extraction applies: each fitted member fitted on every page.
    let fitted = if voters.fits.is_empty() { Vec::new() } else { members::fit(engine, s, pages, &all)? };
    Ok(Model { forest, stack, fit: fit_key(s), members: voters.len(), regions, fitted })
}

/// The boostings of one setting without its tree count, one per fold (`None`: not fitted yet).
type FoldBoosts = Arc<Vec<Option<Boosted>>>;

/// The fitted models of the settings a search has tried, and the labelled pages they share.
/// A setting that differs from a fitted one only in `trees` is cut from it or grown on from it
/// ([`Boosted`]), so a search over `trees` costs no more than its largest value; a fold is fitted
/// the first time a page of it is scored (a multi-fidelity search scores a few folds first).
#[derive(Default)]
pub struct Fits {
    /// Builds the settings' stacked members.
    engine: Engine,
    labelled: Mutex<HashMap<String, Arc<Labelled>>>,
    boosts: Mutex<Vec<(String, FoldBoosts)>>,
    stacked: Mutex<Vec<(String, FoldModels)>>,
}

impl Fits {
    /// The labelled rows of `pages` (the tuning pages, or with `source` the pages a held-out
    /// set's model is fitted on).
    fn labelled(&self, pages: &[&dyn Page], s: &Setting, source: bool) -> Result<Arc<Labelled>> {
        let (_, hidden) = hyper(s)?;
        let start = start_of(s)?;
        let k = folds(s)?;
        let key = format!("{hidden:?}|{source}|{}|{}|{k}", start.is_some(), members::names(s).join(";"));
        if let Some(l) = self.labelled.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return Ok(l);
        }
        if source && members::any_fitted(&self.engine, s)? {
            return Err(Error::config(
                "a blocktrees member fitted on gold is fitted out of fold on the pages it votes on, \
                 not on another page set: fit the block model on these pages",
            ));
        }
        let voters = Voters::of(&self.engine, s, pages, &folds_of(&packages(pages), k), k)?;
        let l = Arc::new(Labelled::of(s, pages, hidden, start, Arc::new(voters))?);
        if let Ok(mut m) = self.labelled.lock() {
            m.insert(key, l.clone());
        }
        Ok(l)
    }

    /// The first-stage boostings of `s`, one per fold of `pages` (fitted on the other folds) for
    /// the folds `need` says; with `source`, one on all of `source`. Cached without the tree
    /// count: a setting with fewer trees than a cached one is cut from it, one with more grown on
    /// from it.
    fn boosts(
        &self,
        pages: &[&dyn Page],
        s: &Setting,
        source: Option<&[&dyn Page]>,
        folds: &[usize],
        need: &[bool],
    ) -> Result<FoldBoosts> {
        let (h, _) = hyper(s)?;
        let key = format!("{}|{}", boost_key(s), source.is_some());
        let cached = self.boosts.lock().ok().and_then(|v| v.iter().find(|(c, _)| *c == key).map(|(_, b)| b.clone()));
        let ready = |b: &Boosted| b.trees.len() >= h.trees;
        let k = match source {
            Some(_) => 1,
            None => folds.iter().max().map_or(1, |m| m + 1),
        };
        let wanted = |j: usize| source.is_some() || need.get(j).copied().unwrap_or(true);
        if let Some(b) = &cached
            && (0..k).all(|j| !wanted(j) || b.get(j).is_some_and(|x| x.as_ref().is_some_and(ready)))
        {
            return Ok(b.clone());
        }
        let old = |j: usize| cached.as_ref().and_then(|b| b.get(j).cloned().flatten());
        let fitted: Vec<Option<Boosted>> = match source {
            Some(src) => {
                let all: Vec<usize> = (0..src.len()).collect();
                vec![Some(self.labelled(src, s, true)?.boost(&all, &h, old(0).as_ref()))]
            }
            None => {
                let labelled = self.labelled(pages, s, false)?;
                (0..k)
                    .into_par_iter()
                    .map(|j| match old(j) {
                        Some(b) if !wanted(j) || ready(&b) => Some(b),
                        from if wanted(j) => Some(labelled.boost(&outside(folds, j), &h, from.as_ref())),
                        from => from,
                    })
                    .collect()
            }
        };
        let fitted = Arc::new(fitted);
        if let Ok(mut v) = self.boosts.lock() {
            v.retain(|(c, _)| *c != key);
            if v.len() >= KEEP {
                v.remove(0);
            }
            v.push((key, fitted.clone()));
        }
        Ok(fitted)
    }
}

impl fit::Fitter for Fits {
    fn models(
        &self,
        pages: &[&dyn Page],
        s: &Setting,
        source: Option<&[&dyn Page]>,
        need: &[usize],
    ) -> Result<(Vec<usize>, FoldModels)> {
        let k = folds(s)?;
        let (h, hidden) = hyper(s)?;
        let folds = match source {
            Some(_) => vec![0; pages.len()],
            None => folds_of(&packages(pages), k),
        };
        let fit = fit_key(s);
        let m = members::names(s).len();
        let key = format!("{fit}|{}", source.is_some());
        let cached =
            || self.stacked.lock().ok().and_then(|v| v.iter().find(|(c, _)| *c == key).map(|(_, m)| m.clone()));
        if stacked(s)
            && let Some(m) = cached()
        {
            return Ok((folds, m));
        }
        // The folds the pages `need` are in; a stacked setting needs every first stage.
        let mut wanted = vec![stacked(s); k];
        for &p in need {
            if let Some(w) = folds.get(p).and_then(|&j| wanted.get_mut(j)) {
                *w = true;
            }
        }
        let forests: Vec<Option<Forest>> = match (source, stacked(s)) {
            // A stacked model fitted on other pages needs their folds: fitted whole below.
            (Some(_), true) => Vec::new(),
            _ => {
                let rows = self.labelled(source.unwrap_or(pages), s, source.is_some())?;
                let boosts = self.boosts(pages, s, source, &folds, &wanted)?;
                let take = |j: usize| source.is_some() || wanted[j];
                boosts
                    .iter()
                    .enumerate()
                    .map(|(j, b)| b.as_ref().filter(|_| take(j)).map(|b| rows.finish(b, h.trees)))
                    .collect()
            }
        };
        // Fold `j`'s model applies the members fitted without fold `j` (none fitted: none).
        let voters = match source {
            Some(_) => None,
            None => self.labelled(pages, s, false)?.voters.clone(),
        };
        let fits = |j: usize| voters.as_ref().map(|v| v.fits(j)).unwrap_or_default();
        let models: Vec<Option<Arc<dyn fit::Model>>> = match (source, stacked(s)) {
            (_, false) => forests
                .into_iter()
                .enumerate()
                .map(|(j, forest)| {
                    forest.map(|forest| {
                        let fitted = fits(j);
                        Arc::new(Model { forest, stack: None, fit: fit.clone(), members: m, regions: None, fitted })
                            as Arc<dyn fit::Model>
                    })
                })
                .collect(),
            (Some(src), true) => vec![Some(Arc::new(fit_all(&self.engine, src, s)?))],
            (None, true) => {
                let forests: Vec<Forest> = forests
                    .into_iter()
                    .map(|f| f.ok_or_else(|| Error::bug("a stacked setting's first stage lacks a fold")))
                    .collect::<Result<_>>()?;
                let voters = voters.ok_or_else(|| Error::bug("a stacked fit's pages have no voters"))?;
                // Fold `j`'s region forest sees the regions of the other folds only.
                let regions: Option<Vec<Forest>> =
                    regional(s).then(|| RegionRows::of(pages, hidden, &folds, &forests, &voters).folded(&folds, k));
                let ctx = Labelled::context(pages, hidden, &folds, &forests, regions.as_deref(), &voters);
                let h2 = stage_two(&h, regions.is_some());
                let seconds: Vec<Forest> =
                    (0..k).into_par_iter().map(|j| ctx.forest(&outside(&folds, j), &h2)).collect();
                let mut regions = regions.map(|r| r.into_iter());
                forests
                    .into_iter()
                    .zip(seconds)
                    .enumerate()
                    .map(|(j, (forest, second))| {
                        let regions = regions.as_mut().and_then(|r| r.next());
                        let fitted = voters.fits(j);
                        Some(Arc::new(Model {
                            forest,
                            stack: Some(second),
                            fit: fit.clone(),
                            members: m,
                            regions,
                            fitted,
                        }) as Arc<dyn fit::Model>)
                    })
                    .collect()
            }
        };
        let models = Arc::new(models);
        if stacked(s)
            && let Ok(mut v) = self.stacked.lock()
        {
            if v.len() >= KEEP / 4 {
                v.remove(0);
            }
            v.push((key, models.clone()));
        }
        Ok((folds, models))
    }

    /// The caller's folds decide which pages a model sees; a second stage's context (and the
    /// region decision) needs folds of its own inside them: the training pages are folded again,
    /// as a whole fit folds its pages ([`fit_all`]).
    fn fit_on(&self, pages: &[&dyn Page], s: &Setting, train: &[usize]) -> Result<Arc<dyn fit::Model>> {
        // So do members fitted on gold: fitted on the training pages' folds, never on the caller's.
        if stacked(s) || members::any_fitted(&self.engine, s)? {
            let inside: Vec<&dyn Page> = train.iter().map(|&i| pages[i]).collect();
            return Ok(Arc::new(fit_all(&self.engine, &inside, s)?));
        }
        let (h, _) = hyper(s)?;
        let rows = self.labelled(pages, s, false)?;
        Ok(Arc::new(Model {
            forest: rows.forest(train, &h),
            stack: None,
            fit: fit_key(s),
            members: rows.members,
            regions: None,
            fitted: Vec::new(),
        }))
    }
}
