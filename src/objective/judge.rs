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
use crate::extract::fitted::Models;
use crate::extract::judge::{Model, N_SIGNALS, Signals, extract_with_signals, hyper};
use crate::extract::trees::{self, Rows};
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
    let Some(branch) = s.member_named(&alias) else {
        return Err(Error::config(format!("route '{}': no branch '{alias}'", s.extractor)));
    };
    let mut own = s.member(branch);
    own.values.retain(|(n, _)| n != "extractor");
    own.model = None;
    Ok(own)
}

/// Each page's signals and F1 under the primary of `base` (None: not scored or failed).
fn pages(
    engine: &crate::extract::Engine,
    corpus: &Corpus,
    base: &Setting,
    measure: Measure,
) -> Result<Vec<Option<(Signals, f64)>>> {
    let own = primary(base)?;
    if crate::extract::fitted::needs_fit(&own) {
        return Err(Error::config(
            "a fallback whose primary branch is fitted on gold is not tuned yet: make the primary a settings file with its model, or another branch",
        ));
    }
    let ex = crate::extract::build(engine, &own)?;
    let all: Vec<usize> = (0..corpus.entries.len()).collect();
    let scores = score_subset(corpus, ex.as_ref(), measure, &all);
    let ex = ex.as_ref();
    Ok(corpus
        .entries
        .par_iter()
        .zip(&scores)
        .map(|(e, s)| {
            let doc = e.doc.as_ref().filter(|_| s.error.is_none())?;
            let sig = crate::error::isolate(|| extract_with_signals(ex, doc)).ok()?.ok()?.1;
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
pub fn fit(
    engine: &crate::extract::Engine,
    corpus: &Corpus,
    base: &Setting,
    measure: Measure,
    source: Option<&Corpus>,
) -> Result<Judges> {
    let on = source.unwrap_or(corpus);
    let p = pages(engine, on, base, measure)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goldset::{GoldDoc, GoldSet};
    use crate::objective::problem::{ExtractionProblem, Objective};

    /// `n` pages of a navigation list and one paragraph of gold, in two packages.
    fn set(dir: &std::path::Path, n: usize) -> GoldSet {
        std::fs::create_dir_all(dir).unwrap();
        let docs = (0..n)
            .map(|k| {
                let body = format!("Story {k} tells of rivers, mountains and the {} people living there.", k * 7);
                let nav: String = (0..k % 5 * 3).map(|i| format!("<li><a href=/{i}>Link {i}</a></li>")).collect();
                let path = dir.join(format!("{k}.html"));
                std::fs::write(&path, format!("<body><ul>{nav}</ul><p>{body}</p></body>")).unwrap();
                GoldDoc {
                    package: k % 2,
                    id: format!("{k}"),
                    page: path,
                    gold: body.into(),
                    url: None,
                    lang: None,
                    fields: Default::default(),
                }
            })
            .collect();
        GoldSet {
            name: "judge".into(),
            root: dir.to_path_buf(),
            packages: vec!["a".into(), "b".into()],
            docs,
            trainers: Vec::new(),
            token_rule: Default::default(),
            skipped: vec![],
            credit: None,
            limits: Default::default(),
        }
    }

    #[test]
    fn a_fallback_is_scored_out_of_fold_page_by_page_and_its_extremes_are_its_branches() {
        let dir = std::env::temp_dir().join(format!("cetune-judge-{}", std::process::id()));
        let gs = set(&dir, 30);
        std::fs::write(dir.join("c.json"), "{}").unwrap();
        let text = "extractor: fb\nbranches: [main=lqf, alt=full]\nrules: 0\nparameters:\n  - {name: fallback, type: categorical, choices: [none, alt], default: alt}\n  - {name: confidence, type: categorical, choices: [c.json], default: c.json}\n";
        let space = crate::params::parse_str(text, &dir.join("fb.yaml"), &crate::extract::space).unwrap().space;
        let docs: Vec<&GoldDoc> = gs.docs.iter().collect();
        let corpus = Corpus::load(&gs, &docs, &|| ());
        let base = space.with_assignments(&space.defaults(), &["otherwise=main".into()]).unwrap();
        let problem = ExtractionProblem::new(
            &crate::extract::Engine::default(),
            &corpus,
            &space,
            base.clone(),
            Objective::F1,
            Measure::Lcs,
        );
        let f1 = |sets: &[&str]| {
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            problem.scores(&space.with_assignments(&base, &sets).unwrap(), &(0..30).collect::<Vec<_>>()).unwrap()
        };
        let alone = |name: &str| {
            let ex = crate::extract::build(
                &crate::extract::Engine::default(),
                &crate::extract::space(name).unwrap().defaults(),
            )
            .unwrap();
            score_subset(&corpus, ex.as_ref(), Measure::Lcs, &(0..30).collect::<Vec<_>>())
        };
        let same = |a: &[crate::objective::DocScore], b: &[crate::objective::DocScore]| {
            a.iter().zip(b).all(|(x, y)| (x.prf.f1 - y.prf.f1).abs() < 1e-12)
        };
        // Every confidence is below 1 and at least 0: the fallback's, then the primary's output.
        assert!(same(&f1(&["below=1"]), &alone("full")));
        assert!(same(&f1(&["below=0"]), &alone("lqf")));
        assert!(same(&f1(&["fallback=none"]), &alone("lqf")));
        // A subset in any order scores each page as the whole corpus does.
        let all = f1(&["below=0.9"]);
        let s = space.with_assignments(&base, &["below=0.9".to_string()]).unwrap();
        let back = problem.scores(&s, &[29, 3, 17]).unwrap();
        assert!(same(&back, &[all[29].clone(), all[3].clone(), all[17].clone()]));
        // Fitted once, 5 folds, every fold judged by a model that did not see it.
        let j = fit(&crate::extract::Engine::default(), &corpus, &base, Measure::Lcs, None).unwrap();
        assert_eq!((j.models.len(), j.fold.len()), (FOLDS, 30));
        assert!((0..FOLDS).all(|k| j.fold.iter().filter(|&&f| f == k).count() == 6));
        // Too few pages: one clear error.
        let few = set(&dir.join("few"), 5);
        let docs: Vec<&GoldDoc> = few.docs.iter().collect();
        let small = Corpus::load(&few, &docs, &|| ());
        let e = fit(&crate::extract::Engine::default(), &small, &base, Measure::Lcs, None).err().unwrap();
        assert!(e.message.contains("5 pages, fewer than 10"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
