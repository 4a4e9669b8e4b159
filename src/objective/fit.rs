//! Fitting the supervised block model (`blocktrees`) on a corpus: block labels from the LCS
//! alignment with the gold, k-fold out-of-fold scoring while tuning, and the final fit on the
//! whole sample that a run writes beside its `best.yaml`.
//!
//! A block's label is the share of its evaluation tokens that one longest common subsequence
//! with the gold pairs (`GoldIndex::matched_rows`, the alignment `annotate` uses), its weight
//! the square root of its token count (the prototype's choice). Folds are dealt round-robin
//! within each package, in corpus order, so every fold holds every package and the split does
//! not depend on the seed or the number of threads.

use super::corpus::{Corpus, Entry};
use super::score::{DocScore, score_subset};
use crate::document::View;
use crate::document::segments::{HiddenText, N_FEATURES};
use crate::error::{Error, Result};
use crate::eval::Measure;
use crate::extract::Extractor;
use crate::extract::blocktrees::context::{N_CONTEXT, context};
use crate::extract::blocktrees::{Model, boost_key, fit_key, hyper, stacked, stage_two};
use crate::extract::trees::{self, Boosted, Forest, Hyper, Rows};
use crate::params::Setting;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The family fitted here.
pub const FAMILY: &str = "blocktrees";

/// Most boostings kept (each holds k forests of up to a few MB).
const KEEP: usize = 48;

/// True when `s` must be fitted on a corpus before it can score: `blocktrees` without a model
/// file, alone or at a place of a route or a combination ([`crate::extract::fitted::places`]).
pub fn needs_fit(s: &Setting) -> bool {
    crate::extract::fitted::needs_fit(s)
}

/// The training rows of one page: its candidate blocks with at least one token.
pub fn page_rows(e: &Entry, hidden: HiddenText) -> Rows {
    let p = page_labels(e, hidden, None);
    let mut r = Rows { f: N_FEATURES, y: p.y, w: p.w, ..Rows::default() };
    if let Some(doc) = &e.doc {
        p.blocks.iter().for_each(|&b| r.x.extend_from_slice(doc.segments.row(b as usize)));
    }
    r
}

/// One page's training rows without their features (which the page's block view holds): the
/// candidate blocks with at least one token, their labels and weights and, for a second stage,
/// their context.
#[derive(Default)]
struct PageLabels {
    blocks: Vec<u32>,
    y: Vec<f32>,
    w: Vec<f32>,
    ctx: Vec<[f32; N_CONTEXT]>,
}

/// The training rows of one page; with `first`, each row's context in that forest's scores (a
/// second stage's rows, [`context`]).
fn page_labels(e: &Entry, hidden: HiddenText, first: Option<&Forest>) -> PageLabels {
    let mut r = PageLabels::default();
    let Some(doc) = &e.doc else { return r };
    let seg = &doc.segments;
    let cand: Vec<u32> = (0..seg.len() as u32).filter(|&b| hidden.admits(seg.hidden[b as usize])).collect();
    let ctx = first.map(|forest| {
        let raw: Vec<f64> = cand.iter().map(|&b| forest.raw(seg.row(b as usize))).collect();
        context(seg, &cand, &raw)
    });
    let rows = e.rows(View::Blocks);
    let matched = e.gold.matched_rows(&rows.rows);
    for (k, &b) in cand.iter().enumerate() {
        let b = b as usize;
        let toks = (rows.tok_starts[b + 1] - rows.tok_starts[b]) as usize;
        if toks == 0 {
            continue;
        }
        let hits = matched[rows.row_starts[b] as usize..rows.row_starts[b + 1] as usize].iter().filter(|m| **m).count();
        r.blocks.push(b as u32);
        if let Some(c) = &ctx {
            r.ctx.push(c[k]);
        }
        r.y.push(hits as f32 / toks as f32);
        r.w.push((toks as f32).sqrt());
    }
    r
}

/// The fold of each entry: dealt round-robin within each package, in corpus order.
pub fn folds_of(corpus: &Corpus, k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..corpus.entries.len()).collect();
    order.sort_by_key(|&i| (corpus.entries[i].package, i));
    let mut fold = vec![0; order.len()];
    for (c, &i) in order.iter().enumerate() {
        fold[i] = c % k.max(1);
    }
    fold
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
}

impl Labelled {
    /// The labelled rows of every entry of `corpus`; with `start`, fits on them continue from
    /// that forest's scores ([`start_of`]).
    pub fn of(corpus: &Corpus, hidden: HiddenText, start: Option<Arc<Forest>>) -> Labelled {
        let pages: Vec<PageLabels> = corpus.entries.par_iter().map(|e| page_labels(e, hidden, None)).collect();
        let init = start.as_ref().map(|forest| {
            let raw: Vec<Vec<f64>> = corpus
                .entries
                .par_iter()
                .zip(&pages)
                .map(|(e, p)| match &e.doc {
                    Some(doc) => p.blocks.iter().map(|&b| forest.raw(doc.segments.row(b as usize))).collect(),
                    None => Vec::new(),
                })
                .collect();
            raw.concat()
        });
        let mut l = Labelled::from_pages(corpus, pages, N_FEATURES);
        l.start = start.zip(init);
        l
    }

    /// The second-stage rows of every entry of `corpus`: page `p`'s blocks in the context of the
    /// first-stage scores of `forests[fold[p]]` (out of fold: a page's context comes from trees
    /// that did not see it).
    fn context(corpus: &Corpus, hidden: HiddenText, fold: &[usize], forests: &[Forest]) -> Labelled {
        let pages = corpus
            .entries
            .par_iter()
            .enumerate()
            .map(|(p, e)| page_labels(e, hidden, Some(&forests[fold[p]])))
            .collect();
        Labelled::from_pages(corpus, pages, N_FEATURES + N_CONTEXT)
    }

    /// Bins the pages' rows, their features read from each page's block view and context where
    /// they lie: the raw features of a whole sample are never copied (four times the bins).
    fn from_pages(corpus: &Corpus, pages: Vec<PageLabels>, f: usize) -> Labelled {
        let mut rows = Rows { f, ..Rows::default() };
        let mut starts = vec![0u32];
        for r in &pages {
            rows.y.extend_from_slice(&r.y);
            rows.w.extend_from_slice(&r.w);
            starts.push(rows.y.len() as u32);
        }
        let sizes: Vec<usize> = pages.iter().map(|r| r.blocks.len()).collect();
        let segs: Vec<Option<&crate::document::segments::Segments>> =
            corpus.entries.iter().map(|e| e.doc.as_ref().map(|d| &*d.segments)).collect();
        let binned = trees::Binned::of_rows(&sizes, f, |p, k, j| match j < N_FEATURES {
            true => segs[p].map_or(0.0, |s| s.row(pages[p].blocks[k] as usize)[j]),
            false => pages[p].ctx[k][j - N_FEATURES],
        });
        Labelled { rows, starts, binned, start: None }
    }

    /// The rows of the pages `pages`.
    fn rows_of(&self, pages: &[usize]) -> Vec<u32> {
        pages.iter().flat_map(|&p| self.starts[p]..self.starts[p + 1]).collect()
    }

    /// Boosts `h.trees` trees on the pages `pages`, continuing `from` (the same hyperparameters
    /// with fewer trees) when given.
    fn boost(&self, pages: &[usize], h: &Hyper, from: Option<&Boosted>) -> Boosted {
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
    pub fn forest(&self, pages: &[usize], h: &Hyper) -> Forest {
        self.finish(&self.boost(pages, h, None), h.trees)
    }
}

/// The forest a fit of `s` continues from: the general model's first stage with `start:
/// general` ([`crate::extract::general`]), else none. With `stack`, the first stage continues
/// from it and the second is fitted on that stage's scores as always.
pub fn start_of(s: &Setting) -> Result<Option<Arc<Forest>>> {
    match s.get("start") {
        Some(crate::params::Value::Cat(c)) if c == "general" => {
            Ok(Some(Arc::new(crate::extract::general::model()?.forest.clone())))
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

/// Fits the model of `s` on every page of `corpus` (what a run writes as `best.model`). A
/// stacked setting's second stage is fitted on every page's context in the scores of the
/// first-stage trees of the other folds (as while tuning), its first stage on every page.
pub fn fit_all(corpus: &Corpus, s: &Setting) -> Result<Model> {
    let (h, hidden) = hyper(s)?;
    let all: Vec<usize> = (0..corpus.entries.len()).collect();
    let labelled = Labelled::of(corpus, hidden, start_of(s)?);
    let forest = labelled.forest(&all, &h);
    let stack = if stacked(s) {
        let fold = folds_of(corpus, folds(s)?);
        let k = folds(s)?;
        let firsts: Vec<Forest> = (0..k).into_par_iter().map(|j| labelled.forest(&outside(&fold, j), &h)).collect();
        Some(Labelled::context(corpus, hidden, &fold, &firsts).forest(&all, &stage_two(&h)))
    } else {
        None
    };
    Ok(Model { forest, stack, fit: fit_key(s) })
}

/// The models of one setting, one per fold.
pub type FoldModels = Arc<Vec<Arc<Model>>>;

/// The boostings of one setting without its tree count, one per fold.
type FoldBoosts = Arc<Vec<Boosted>>;

/// The fitted models of the settings a search has tried, and the labelled pages they share.
/// A setting that differs from a fitted one only in `trees` is cut from it or grown on from it
/// ([`Boosted`]), so a search over `trees` costs no more than its largest value.
#[derive(Default)]
pub struct Fits {
    labelled: Mutex<HashMap<String, Arc<Labelled>>>,
    boosts: Mutex<Vec<(String, FoldBoosts)>>,
    stacked: Mutex<Vec<(String, FoldModels)>>,
}

impl Fits {
    /// The labelled rows of `corpus` (the tuning pages, or with `source` the pages a held-out
    /// set's model is fitted on).
    fn labelled(&self, corpus: &Corpus, s: &Setting, source: bool) -> Result<Arc<Labelled>> {
        let (_, hidden) = hyper(s)?;
        let start = start_of(s)?;
        let key = format!("{hidden:?}|{source}|{}", start.is_some());
        if let Some(l) = self.labelled.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return Ok(l);
        }
        let l = Arc::new(Labelled::of(corpus, hidden, start));
        if let Ok(mut m) = self.labelled.lock() {
            m.insert(key, l.clone());
        }
        Ok(l)
    }

    /// The models of `s`: one per fold of `corpus` (fitted on the other folds) and the fold of
    /// each entry; with `source`, one model fitted on all of `source` for every entry.
    pub fn models(&self, corpus: &Corpus, s: &Setting, source: Option<&Corpus>) -> Result<(Vec<usize>, FoldModels)> {
        let k = folds(s)?;
        let (h, hidden) = hyper(s)?;
        let folds = match source {
            Some(_) => vec![0; corpus.entries.len()],
            None => folds_of(corpus, k),
        };
        let fit = fit_key(s);
        let key = format!("{fit}|{}", source.is_some());
        let cached =
            || self.stacked.lock().ok().and_then(|v| v.iter().find(|(c, _)| *c == key).map(|(_, m)| m.clone()));
        if stacked(s)
            && let Some(m) = cached()
        {
            return Ok((folds, m));
        }
        let forests: Vec<Forest> = match (source, stacked(s)) {
            // A stacked model fitted on other pages needs their folds: fitted whole below.
            (Some(_), true) => Vec::new(),
            _ => {
                let rows = self.labelled(source.unwrap_or(corpus), s, source.is_some())?;
                self.boosts(corpus, s, source, &folds)?.iter().map(|b| rows.finish(b, h.trees)).collect()
            }
        };
        let models: Vec<Arc<Model>> = match (source, stacked(s)) {
            (_, false) => {
                forests.into_iter().map(|forest| Arc::new(Model { forest, stack: None, fit: fit.clone() })).collect()
            }
            (Some(src), true) => vec![Arc::new(fit_all(src, s)?)],
            (None, true) => {
                let ctx = Labelled::context(corpus, hidden, &folds, &forests);
                let h2 = stage_two(&h);
                let seconds: Vec<Forest> =
                    (0..k).into_par_iter().map(|j| ctx.forest(&outside(&folds, j), &h2)).collect();
                forests
                    .into_iter()
                    .zip(seconds)
                    .map(|(forest, second)| Arc::new(Model { forest, stack: Some(second), fit: fit.clone() }))
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

    /// The first-stage boostings of `s`, one per fold of `corpus` (fitted on the other folds);
    /// with `source`, one on all of `source`. Cached without the tree count: a setting with
    /// fewer trees than a cached one is cut from it, one with more grown on from it.
    fn boosts(&self, corpus: &Corpus, s: &Setting, source: Option<&Corpus>, folds: &[usize]) -> Result<FoldBoosts> {
        let (h, _) = hyper(s)?;
        let key = format!("{}|{}", boost_key(s), source.is_some());
        let cached = self.boosts.lock().ok().and_then(|v| v.iter().find(|(c, _)| *c == key).map(|(_, b)| b.clone()));
        if let Some(b) = &cached
            && b.iter().all(|x| x.trees.len() >= h.trees)
        {
            return Ok(b.clone());
        }
        let from = |j: usize| cached.as_ref().map(|b| &b[j]);
        let fitted: Vec<Boosted> = match source {
            Some(src) => {
                let all: Vec<usize> = (0..src.entries.len()).collect();
                vec![self.labelled(src, s, true)?.boost(&all, &h, from(0))]
            }
            None => {
                let labelled = self.labelled(corpus, s, false)?;
                let k = folds.iter().max().map_or(1, |m| m + 1);
                (0..k).into_par_iter().map(|j| labelled.boost(&outside(folds, j), &h, from(j))).collect()
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

    /// The scores of `s` on `subset` (in that order), each page scored by the models of its fold
    /// (or of `source`) at every place of `s` where a fitted family sits
    /// ([`crate::extract::fitted::places`]; each place's models are cached by its own fit
    /// parameters, so changing anything else refits nothing); `wrap` turns the extractor into the
    /// one scored (a field view).
    pub fn scores(
        &self,
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
            places.iter().map(|(_, own)| self.models(corpus, own, source)).collect::<Result<_>>()?;
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
                    .map(|(((place, own), (_, ms)), &j)| Placed {
                        place: place.clone(),
                        model: ms[j].clone(),
                        // A fit depends only on its pages and parameters: this names it.
                        tag: crate::extract::combine::hash_of(("fold", fit_key(own), ms.len(), j, source.is_some())),
                    })
                    .collect(),
                None,
            );
            let ex = wrap(crate::extract::build_with(s, &models)?)?;
            let docs: Vec<usize> = at.iter().map(|&p| subset[p]).collect();
            for (p, sc) in at.into_iter().zip(score_subset(corpus, ex.as_ref(), measure, &docs)) {
                out[p] = sc;
            }
        }
        Ok(out)
    }
}

/// The model file of `s` fitted on every page of `corpus` (what a run writes as `best.model`):
/// `blocktrees`' own file for the family alone, a model per place for a route or a combination
/// ([`crate::extract::fitted::write`]).
pub fn fit_file(corpus: &Corpus, s: &Setting) -> Result<String> {
    let places = crate::extract::fitted::places(s)?;
    if let [(place, own)] = places.as_slice()
        && place.is_empty()
    {
        return Ok(fit_all(corpus, own)?.write());
    }
    let models = places.into_iter().map(|(p, own)| Ok((p, fit_all(corpus, &own)?))).collect::<Result<Vec<_>>>()?;
    Ok(crate::extract::fitted::write(&models))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Measure;
    use crate::goldset::{GoldDoc, GoldSet};
    use crate::objective::problem::{ExtractionProblem, Objective};

    /// A deterministic stream of numbers in 0..n.
    struct Lcg(u64);
    impl Lcg {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
        fn words(&mut self, n: u64) -> String {
            (0..n).map(|_| format!("w{}", self.below(5000))).collect::<Vec<_>>().join(" ")
        }
    }

    /// `pages` pages written under a fresh folder; `page(rng)` gives each page's HTML and gold.
    fn set(name: &str, pages: usize, page: &dyn Fn(&mut Lcg) -> (String, String)) -> (GoldSet, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("cetune-fit-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut rng = Lcg(7);
        let docs = (0..pages)
            .map(|k| {
                let (html, gold) = page(&mut rng);
                let path = dir.join(format!("{k}.html"));
                std::fs::write(&path, html).unwrap();
                GoldDoc {
                    package: k % 2,
                    id: format!("{k}"),
                    page: path,
                    gold: gold.into(),
                    url: None,
                    lang: None,
                    fields: Default::default(),
                }
            })
            .collect();
        let set = GoldSet {
            name: name.into(),
            root: dir.clone(),
            packages: vec!["a".into(), "b".into()],
            docs,
            trainers: Vec::new(),
            token_rule: Default::default(),
            skipped: vec![],
            credit: None,
            limits: Default::default(),
        };
        (set, dir)
    }

    /// 30 pages of 8 paragraphs in which which paragraphs are gold is a coin toss: nothing
    /// generalises, and deep trees memorise.
    fn memorised(name: &str) -> (GoldSet, std::path::PathBuf) {
        set(name, 30, &|r| {
            let (mut html, mut gold) = (String::from("<body><div>"), String::new());
            for _ in 0..8 {
                let n = 3 + r.below(40);
                let text = r.words(n);
                html.push_str(&format!("<p>{text}</p>"));
                if r.below(2) == 0 {
                    gold.push_str(&format!("{text}\n"));
                }
            }
            (format!("{html}</div></body>"), gold)
        })
    }

    /// Mean F1 of `values` over `corpus`: out of fold, or (with `source`) fitted on `source`.
    fn fitness(corpus: &Corpus, values: &[&str], source: Option<&Corpus>) -> f64 {
        let vals: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        fitness_of(corpus, &crate::extract::space(FAMILY).unwrap(), &vals, source)
    }

    /// [`fitness`] of a setting of `space` (a route or a combination holding `blocktrees`).
    fn fitness_of(corpus: &Corpus, space: &crate::params::ParamSpace, vals: &[String], source: Option<&Corpus>) -> f64 {
        let s = space.with_assignments(&space.defaults(), vals).unwrap();
        let p = ExtractionProblem::new(corpus, space, s.clone(), Objective::F1, Measure::Lcs);
        let p = match source {
            Some(src) => p.with_fit_source(src),
            None => p,
        };
        p.score(&s).unwrap().value
    }

    #[test]
    fn the_fitted_model_finds_the_feature_only_content_carries() {
        // Content and boilerplate paragraphs look alike, in random order; only the content sits
        // inside <main> (one <main> per paragraph, so position says nothing).
        let (gs, dir) = set("find", 30, &|r| {
            let (mut html, mut gold) = (String::from("<body>"), String::new());
            for _ in 0..8 {
                let n = 8 + r.below(20);
                let text = r.words(n);
                if r.below(2) == 0 {
                    html.push_str(&format!("<main><p>{text}.</p></main>"));
                    gold.push_str(&format!("{text}\n"));
                } else {
                    html.push_str(&format!("<div><p>{text}.</p></div>"));
                }
            }
            (format!("{html}</body>"), gold)
        });
        let docs: Vec<&GoldDoc> = gs.docs.iter().collect();
        let corpus = Corpus::load(&gs, &docs, &|| ());
        let fitted = fitness(&corpus, &["t=0.5", "t_rel=0"], None);
        let all = fitness(&corpus, &["t=0.05", "t_rel=0", "group_semantic=false", "trees=20", "depth=2"], None);
        assert!(fitted > 0.97, "out-of-fold F1 {fitted}");
        assert!(all < 0.85, "without the semantic group {all}");
        // A second stage over the first stage's context keeps what the first found.
        let stacked = fitness(&corpus, &["t=0.5", "t_rel=0", "stack=true"], None);
        assert!(stacked > 0.97, "stacked out-of-fold F1 {stacked}");
        // The whole-sample fit of a stacked setting has both stages.
        let space = crate::extract::space(FAMILY).unwrap();
        let s = space.with_assignments(&space.defaults(), &["stack=true".to_string()]).unwrap();
        let m = fit_all(&corpus, &s).unwrap();
        assert!(m.stack.is_some() && !m.forest.trees.is_empty());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn out_of_fold_fitness_is_lower_than_in_fold_on_a_set_built_to_be_memorised() {
        // Which paragraphs are gold is a coin toss: nothing generalises, deep trees memorise.
        let (gs, dir) = memorised("memo");
        let docs: Vec<&GoldDoc> = gs.docs.iter().collect();
        let corpus = Corpus::load(&gs, &docs, &|| ());
        let deep = ["trees=200", "depth=5", "min_leaf=1", "learning_rate=0.5", "t=0.5", "t_rel=0"];
        let in_fold = fitness(&corpus, &deep, Some(&corpus));
        let out_of_fold = fitness(&corpus, &deep, None);
        assert!(in_fold > 0.9, "in fold {in_fold}");
        assert!(out_of_fold < in_fold - 0.2, "out of fold {out_of_fold}, in fold {in_fold}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_route_branch_and_a_combination_member_are_fitted_out_of_fold_as_the_family_alone_is() {
        // The memorisation set: only out-of-fold fitting tells what generalises.
        let (gs, dir) = memorised("placed");
        let docs: Vec<&GoldDoc> = gs.docs.iter().collect();
        let corpus = Corpus::load(&gs, &docs, &|| ());
        let deep = ["trees=200", "depth=5", "min_leaf=1", "learning_rate=0.5", "t=0.5", "t_rel=0"];
        let (alone_out, alone_in) = (fitness(&corpus, &deep, None), fitness(&corpus, &deep, Some(&corpus)));
        assert!(alone_out < alone_in - 0.2, "{alone_out} {alone_in}");
        let parse = |text: &str| {
            crate::params::parse_str(text, std::path::Path::new("r.yaml"), &crate::extract::space).unwrap().space
        };
        let under = |ns: &str, more: &[&str]| -> Vec<String> {
            deep.iter().map(|v| format!("{ns}.{v}")).chain(more.iter().map(|v| v.to_string())).collect()
        };
        let route = parse("extractor: r\nbranches: [learned=blocktrees, lqf]\nrules: 1\nparameters: []\n");
        let every = under("learned", &["otherwise=learned"]);
        assert!((fitness_of(&corpus, &route, &every, None) - alone_out).abs() < 1e-12);
        assert!((fitness_of(&corpus, &route, &every, Some(&corpus)) - alone_in).abs() < 1e-12);
        // A rule sending every page to the branch is the same route; no page there fits nothing.
        let ruled =
            under("learned", &["otherwise=lqf", "if1.on=true", "if1.feature=words", "if1.at=0", "if1.then=learned"]);
        assert!((fitness_of(&corpus, &route, &ruled, None) - alone_out).abs() < 1e-12);
        let s = route.with_assignments(&route.defaults(), &under("learned", &["otherwise=lqf"])).unwrap();
        assert!(!needs_fit(&s));
        let union = parse("extractor: c\nmembers: [blocktrees, lqf]\nparameters: []\n");
        let alone = under("blocktrees", &["combinator=union", "lqf.on=false", "min_run=0", "max_gap=0"]);
        assert!((fitness_of(&corpus, &union, &alone, None) - alone_out).abs() < 1e-12);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn labels_are_the_share_of_a_blocks_tokens_in_the_alignment_and_folds_hold_every_package() {
        let (gs, dir) = set("labels", 4, &|_| {
            ("<body><p>alpha beta gamma delta</p><p>one two</p></body>".into(), "alpha beta x delta one".into())
        });
        let docs: Vec<&GoldDoc> = gs.docs.iter().collect();
        let corpus = Corpus::load(&gs, &docs, &|| ());
        let r = page_rows(&corpus.entries[0], HiddenText::All);
        assert_eq!(r.y, vec![0.75, 0.5]);
        assert_eq!(r.w, vec![2.0, 2f32.sqrt()]);
        assert_eq!(folds_of(&corpus, 2), vec![0, 0, 1, 1]);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
