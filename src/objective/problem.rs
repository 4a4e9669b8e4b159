//! The optimisation problem: a parameter space and a corpus seen through `evolve::Problem`.
//! Each genome becomes a setting, the setting an extractor, and the extractor is scored over the
//! corpus (in parallel over documents); the objective turns the scores into a fitness.

use super::corpus::Corpus;
use super::score::{DocScore, score_subset};
use crate::error::{Error, Result};
use crate::eval::Measure;
use crate::evolve::{Condition, Fitness, Gene, Genome, Problem, Space};
use crate::params::{ParamSpace, Setting, Spec};
use std::collections::HashMap;
use std::time::Instant;

/// What the optimiser maximises.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Objective {
    /// Mean F1 over the documents (Gottron 2009).
    F1,
    /// Mean over packages of the mean F1 of each package's documents: the paper's Table 3
    /// measure, which gives every site or page type the same weight however many documents it has.
    MacroF1,
    /// Mean F-beta over the documents: beta > 1 favours recall.
    FBeta(f64),
    /// Mean recall, subject to mean precision >= the bound. Infeasible settings rank below
    /// feasible ones and among themselves by mean precision, i.e. by how close they come to the
    /// bound (Deb's feasibility rules), so the search climbs towards feasibility first.
    RecallAtPrecision(f64),
    /// Two objectives, mean precision and mean recall (NSGA-II keeps their Pareto front); the
    /// fitness value, which ranks Table 2, is the mean F1.
    Pareto,
}

/// Smallest beta of `fbeta:B` (F-beta is then precision to within 1e-6).
const MIN_BETA: f64 = 0.001;

/// Largest beta of `fbeta:B` (F-beta is then recall to within 1e-6).
const MAX_BETA: f64 = 1000.0;

impl std::str::FromStr for Objective {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let bad = || {
            Error::config(format!(
                "unknown objective '{s}' (expected f1, macro-f1, fbeta:B, recall-at-precision:P or pareto)"
            ))
        };
        match s {
            "f1" => return Ok(Objective::F1),
            "macro-f1" => return Ok(Objective::MacroF1),
            "pareto" => return Ok(Objective::Pareto),
            _ => {}
        }
        let (name, arg) = s.split_once(':').ok_or_else(bad)?;
        let x: f64 = arg.parse().map_err(|_| bad())?;
        match name {
            // Beyond these bounds beta squared under- or overflows and F-beta becomes NaN.
            "fbeta" if !(MIN_BETA..=MAX_BETA).contains(&x) => {
                Err(Error::config(format!("objective '{s}': beta must lie in [{MIN_BETA}, {MAX_BETA}], got {arg}")))
            }
            "fbeta" => Ok(Objective::FBeta(x)),
            "recall-at-precision" if (0.0..=1.0).contains(&x) => Ok(Objective::RecallAtPrecision(x)),
            "recall-at-precision" => {
                Err(Error::config(format!("objective '{s}': the precision P must lie in [0, 1], got {arg}")))
            }
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for Objective {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Objective::F1 => write!(f, "f1"),
            Objective::MacroF1 => write!(f, "macro-f1"),
            Objective::Pareto => write!(f, "pareto"),
            Objective::FBeta(b) => write!(f, "fbeta:{b}"),
            Objective::RecallAtPrecision(p) => write!(f, "recall-at-precision:{p}"),
        }
    }
}

impl Objective {
    /// Whether the objective is a mean of one term per document (f1, fbeta:B), so that two
    /// settings can be compared document by document (racing's paired test).
    pub fn per_document(&self) -> bool {
        matches!(self, Objective::F1 | Objective::FBeta(_))
    }

    /// The term of one document whose mean over documents is the objective (for
    /// [`Objective::per_document`] objectives; other objectives give the document's F1).
    pub fn term(&self, s: &DocScore) -> f64 {
        let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
        match *self {
            Objective::FBeta(b) => {
                let d = b * b * s.prf.precision + s.prf.recall;
                finite(if d > 0.0 { (1.0 + b * b) * s.prf.precision * s.prf.recall / d } else { 0.0 })
            }
            _ => finite(s.prf.f1),
        }
    }

    /// The fitness of documents scored by `measure` (means in document order, as the measure
    /// averages: for `shingle4` F1 and F-beta come from the mean precision and recall);
    /// `packages[i]` is the package of `scores[i]`.
    pub fn fitness(&self, scores: &[DocScore], packages: &[usize], measure: Measure, ms: f64) -> Fitness {
        let n = scores.len().max(1) as f64;
        let m = measure.mean(scores.iter().map(|s| s.prf));
        // An undefined shingle4 average (no page extracted anything) counts as 0 for the search.
        let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
        let (p, r, f1) = (finite(m.precision), finite(m.recall), finite(m.f1));
        let per_doc = |f: &dyn Fn(&DocScore) -> f64| scores.iter().map(f).map(finite).collect::<Vec<f64>>();
        // Each arm gives the value and the per-document (for macro-f1: per-package) terms whose
        // spread is the fitness's standard error.
        let (value, feasible, terms) = match *self {
            Objective::F1 | Objective::Pareto => (f1, true, per_doc(&|s| s.prf.f1)),
            Objective::MacroF1 => (macro_f1(scores, packages, measure), true, package_means(scores, packages)),
            Objective::FBeta(b) if measure == Measure::Shingle4 => {
                let d = b * b * p + r;
                (if d > 0.0 { (1.0 + b * b) * p * r / d } else { 0.0 }, true, per_doc(&|s| s.prf.f1))
            }
            Objective::FBeta(b) => {
                let b2 = b * b;
                let t = per_doc(&|s| {
                    let d = b2 * s.prf.precision + s.prf.recall;
                    if d > 0.0 { (1.0 + b2) * s.prf.precision * s.prf.recall / d } else { 0.0 }
                });
                (t.iter().sum::<f64>() / n, true, t)
            }
            Objective::RecallAtPrecision(bound) if p >= bound => (r, true, per_doc(&|s| s.prf.recall)),
            Objective::RecallAtPrecision(_) => (p, false, per_doc(&|s| s.prf.precision)),
        };
        Fitness { value, feasible, precision: p, recall: r, ms, partial: None, sem: standard_error(&terms) }
    }
}

/// The macro average over the packages present of each package's figure (as the measure
/// averages; for `lcs` the mean over packages of the mean F1 within each package).
fn macro_f1(scores: &[DocScore], packages: &[usize], measure: Measure) -> f64 {
    let n = packages.iter().max().map_or(0, |m| m + 1);
    let pairs: Vec<(usize, crate::eval::Prf)> = packages.iter().zip(scores).map(|(&p, s)| (p, s.prf)).collect();
    let f1 = crate::eval::measure::averages(&pairs, n, measure).0.macro_avg.f1;
    if f1.is_finite() { f1 } else { 0.0 }
}

/// The standard error of the mean of `x`: the sample standard deviation over `sqrt(n)`; 0 for
/// fewer than two values.
pub fn standard_error(x: &[f64]) -> f64 {
    if x.len() < 2 {
        return 0.0;
    }
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0);
    (var / n).sqrt()
}

/// The mean F1 within each package present, in package order.
fn package_means(scores: &[DocScore], packages: &[usize]) -> Vec<f64> {
    let n = packages.iter().max().map_or(0, |m| m + 1);
    let mut sum = vec![0.0; n];
    let mut count = vec![0usize; n];
    for (s, &p) in scores.iter().zip(packages) {
        sum[p] += s.prf.f1;
        count[p] += 1;
    }
    sum.iter().zip(&count).filter(|(_, c)| **c > 0).map(|(s, c)| s / *c as f64).collect()
}

/// The optimiser's view of a parameter space: one gene per tuned parameter.
pub fn gene_space(space: &ParamSpace) -> Space {
    gene_space_from(space, &space.defaults())
}

/// [`gene_space`] with the fixed parameters of `base`, which decide the conditions on switches
/// that are not genes (a member fixed off: its genes never count).
pub fn gene_space_from(space: &ParamSpace, base: &Setting) -> Space {
    let genes_idx = space.genes();
    let genes = genes_idx
        .iter()
        .map(|&i| match &space.params[i].spec {
            Spec::Float { min, max, step } => Gene::Real { lo: *min, hi: *max, step: *step },
            Spec::Int { min, max } => Gene::Int { lo: *min, hi: *max },
            Spec::Categorical { choices } => Gene::Cat { n: choices.len() },
            Spec::Bool => Gene::Bool,
        })
        .collect();
    let correlated = space
        .correlated
        .iter()
        .map(|g| {
            g.iter().filter_map(|n| genes_idx.iter().position(|&i| space.params[i].name == *n)).collect::<Vec<_>>()
        })
        .filter(|g: &Vec<usize>| g.len() >= 2)
        .collect();
    let gene_of = |i: usize| genes_idx.iter().position(|&g| g == i);
    let mut conditions = Vec::new();
    for (i, k, v) in crate::params::combine::dependencies(space) {
        let Some(gene) = gene_of(i) else { continue };
        let sw = &space.params[k];
        match gene_of(k) {
            Some(when) => {
                conditions.push(Condition { gene, when: Some(when), values: vec![sw.spec.to_internal(&v)], or: vec![] })
            }
            None if base.get(&sw.name).unwrap_or(&sw.default) != &v => {
                conditions.push(Condition { gene, when: None, values: vec![], or: vec![] });
            }
            None => {}
        }
    }
    // A route's branch counts only while `otherwise` or a rule that is on names it: its genes
    // are active under any of those alternatives (tests on fixed parameters decided here).
    if crate::params::route::is_route(space) {
        for branch in &space.members {
            let alias = branch.name.as_str();
            let mut alts: Vec<Vec<(usize, Vec<f64>)>> = Vec::new();
            let mut always = false;
            for alt in crate::params::route::branch_used_when(space, alias) {
                let mut tests = Vec::new();
                let mut possible = true;
                for (k, v) in alt {
                    let p = &space.params[k];
                    match gene_of(k) {
                        Some(w) => tests.push((w, vec![p.spec.to_internal(&v)])),
                        None => possible &= base.get(&p.name).unwrap_or(&p.default) == &v,
                    }
                }
                if possible && tests.is_empty() {
                    always = true;
                }
                if possible {
                    alts.push(tests);
                }
            }
            if always {
                continue;
            }
            for (i, p) in space.params.iter().enumerate() {
                if let Some(gene) = gene_of(i)
                    && branch.own(&p.name).is_some()
                {
                    conditions.push(Condition { gene, when: None, values: vec![], or: alts.clone() });
                }
            }
        }
    }
    // A pipeline is its members in `order`: when every member's order is a gene, genomes with
    // the same ranks form the same pipeline (a fixed order among them would interleave).
    let orders: Vec<Option<usize>> = space
        .members
        .iter()
        .map(|m| {
            space
                .params
                .iter()
                .position(|p| p.name == format!("{}{}order", m.name, crate::params::compose::SEP))
                .and_then(gene_of)
        })
        .collect();
    let ranks = if !orders.is_empty() && orders.iter().all(Option::is_some) {
        vec![orders.into_iter().flatten().collect()]
    } else {
        vec![]
    };
    Space { genes, correlated, conditions, ranks }
}

/// A parameter space scored on a corpus.
pub struct ExtractionProblem<'a> {
    corpus: &'a Corpus,
    space: &'a ParamSpace,
    base: Setting,
    genes: Space,
    objective: Objective,
    measure: Measure,
    /// The gold field scored (`--field`), through the extractor's segments; `None`: the body.
    field: Option<String>,
    /// Per-document scores of the genomes racing evaluates on subsets (by the genome's bits),
    /// so that a survivor moving on to more documents is scored only on the new ones.
    memo: HashMap<Vec<u64>, Vec<Option<DocScore>>>,
    /// The models of the settings tried, for the families fitted on gold that they hold.
    fits: super::fit::Fits,
    /// Where fitted settings are fitted: `None`, out of fold on this corpus; `Some`, on that
    /// corpus (a held-out validation set is scored by the model of the training pages).
    fit_source: Option<&'a Corpus>,
    /// The out-of-fold confidence models of a route's fallback, fitted on the first setting
    /// with a fallback (`super::judge`).
    judges: std::sync::OnceLock<super::judge::Judges>,
    /// Builds the settings' extractors (their model files, external workers and trust policy).
    engine: crate::extract::Engine,
}

impl<'a> ExtractionProblem<'a> {
    /// Tunes the genes of `space` starting from `base` (which fixes the other parameters),
    /// scoring pages by `measure`, building extractors with `engine`.
    pub fn new(
        engine: &crate::extract::Engine,
        corpus: &'a Corpus,
        space: &'a ParamSpace,
        base: Setting,
        objective: Objective,
        measure: Measure,
    ) -> Self {
        let genes = gene_space_from(space, &base);
        ExtractionProblem {
            corpus,
            space,
            base,
            genes,
            objective,
            measure,
            field: None,
            memo: HashMap::new(),
            fits: super::fit::Fits::default(),
            fit_source: None,
            judges: std::sync::OnceLock::new(),
            engine: engine.clone(),
        }
    }

    /// Fitted settings are fitted on `source` (the training pages) instead of out of fold.
    pub fn with_fit_source(mut self, source: &'a Corpus) -> Self {
        self.fit_source = Some(source);
        self
    }

    /// The per-document scores of `s` on `subset` (in that order). A setting fitted on gold
    /// ([`super::fit::needs_fit`]) scores each page with the model of the other folds.
    pub fn scores(&self, s: &Setting, subset: &[usize]) -> Result<Vec<DocScore>> {
        if crate::params::route::fallback_of(s).is_some() {
            if super::fit::needs_fit(s) {
                return Err(Error::config(
                    "a route with a fallback and a branch fitted on gold is not tuned yet: choose other branches",
                ));
            }
            return self.judged_scores(s, subset);
        }
        if super::fit::needs_fit(s) {
            let wrap = |ex: Box<dyn crate::extract::Extractor>| match &self.field {
                Some(f) => crate::extract::segments::FieldView::wrap(ex, f),
                None => Ok(ex),
            };
            return self.fits.scores(&self.engine, self.corpus, s, self.measure, subset, self.fit_source, &wrap);
        }
        let ex = self.build(s)?;
        Ok(score_subset(self.corpus, ex.as_ref(), self.measure, subset))
    }

    /// [`Self::scores`] of a route with a fallback: each page judged by the confidence model
    /// of the other folds (fitted once, on the base setting's primary branch).
    fn judged_scores(&self, s: &Setting, subset: &[usize]) -> Result<Vec<DocScore>> {
        let judges = match self.judges.get() {
            Some(j) => j,
            None => {
                let j = super::judge::fit(&self.engine, self.corpus, &self.base, self.measure, self.fit_source)?;
                self.judges.get_or_init(|| j)
            }
        };
        let mut out = vec![DocScore::default(); subset.len()];
        for k in 0..judges.models.len() {
            let at: Vec<usize> = (0..subset.len()).filter(|&p| judges.fold[subset[p]] == k).collect();
            if at.is_empty() {
                continue;
            }
            let ex = crate::extract::build_with(&self.engine, s, &judges.models(k))?;
            let ex = match &self.field {
                Some(f) => crate::extract::segments::FieldView::wrap(ex, f)?,
                None => ex,
            };
            let docs: Vec<usize> = at.iter().map(|&p| subset[p]).collect();
            for (p, sc) in at.into_iter().zip(score_subset(self.corpus, ex.as_ref(), self.measure, &docs)) {
                out[p] = sc;
            }
        }
        Ok(out)
    }

    /// Scores gold field `field` (the corpus holds that field's gold) through each setting's
    /// segments ([`crate::extract::segments::FieldView`]) instead of its keep-mask.
    pub fn with_field(mut self, field: Option<String>) -> Self {
        self.field = field.filter(|f| f != "body");
        self
    }

    /// The extractor of a setting, seen through the field when one is scored.
    fn build(&self, s: &Setting) -> Result<Box<dyn crate::extract::Extractor>> {
        let ex = crate::extract::build(&self.engine, s)?;
        match &self.field {
            Some(f) => crate::extract::segments::FieldView::wrap(ex, f),
            None => Ok(ex),
        }
    }

    /// What builds the settings' extractors.
    pub fn engine(&self) -> &crate::extract::Engine {
        &self.engine
    }

    /// The setting a genome stands for.
    pub fn setting(&self, g: &Genome) -> Setting {
        self.space.from_genome(&self.base, g)
    }

    /// Scores one setting on the whole corpus.
    pub fn score(&self, s: &Setting) -> Result<Fitness> {
        let all: Vec<usize> = (0..self.corpus.entries.len()).collect();
        self.score_on(s, &all)
    }

    /// Scores one setting on the corpus entries `subset` (in that order).
    pub fn score_on(&self, s: &Setting, subset: &[usize]) -> Result<Fitness> {
        let t0 = Instant::now();
        let scores = self.scores(s, subset)?;
        let packages: Vec<usize> = subset.iter().map(|&i| self.corpus.entries[i].package).collect();
        Ok(self.objective.fitness(&scores, &packages, self.measure, t0.elapsed().as_secs_f64() * 1000.0))
    }

    /// The scores of each of `genomes` on `subset` (in that order), scoring only the documents
    /// not yet in the memo, the genomes in parallel (a fitted family's fold fits are one per
    /// genome); returns them with the milliseconds spent on each genome.
    fn memo_scores(&mut self, genomes: &[Genome], subset: &[usize]) -> Result<Vec<(Vec<DocScore>, f64)>> {
        use rayon::prelude::*;
        if let Some(&bad) = subset.iter().find(|&&i| i >= self.corpus.entries.len()) {
            return Err(Error::bug(format!("document {bad} is not in the corpus")));
        }
        let n = self.corpus.entries.len();
        let bits: Vec<Vec<u64>> = genomes.iter().map(|g| g.iter().map(|x| x.to_bits()).collect()).collect();
        let missing: Vec<Vec<usize>> = bits
            .iter()
            .map(|b| {
                let known = self.memo.entry(b.clone()).or_insert_with(|| vec![None; n]);
                subset.iter().copied().filter(|&i| known[i].is_none()).collect()
            })
            .collect();
        let this = &*self;
        let scored: Vec<Result<(Vec<DocScore>, f64)>> = genomes
            .par_iter()
            .zip(&missing)
            .map(|(g, miss)| {
                let t0 = Instant::now();
                let s = if miss.is_empty() {
                    Vec::new()
                } else {
                    this.scores(&this.space.from_genome(&this.base, g), miss)?
                };
                Ok((s, t0.elapsed().as_secs_f64() * 1000.0))
            })
            .collect();
        let mut out = Vec::with_capacity(genomes.len());
        for ((b, miss), r) in bits.iter().zip(missing).zip(scored) {
            let (scores, ms) = r?;
            let known = self.memo.get_mut(b).ok_or_else(|| Error::bug("memo entry vanished"))?;
            for (i, s) in miss.into_iter().zip(scores) {
                known[i] = Some(s);
            }
            let known = &self.memo[b];
            out.push((subset.iter().map(|&i| known[i].clone().unwrap_or_default()).collect(), ms));
        }
        Ok(out)
    }
}

impl Problem for ExtractionProblem<'_> {
    fn space(&self) -> &Space {
        &self.genes
    }
    fn evaluate_batch(&mut self, genomes: &[Genome]) -> Result<Vec<Fitness>> {
        genomes.iter().map(|g| self.score(&self.setting(g))).collect()
    }
    fn instances(&self) -> usize {
        self.corpus.entries.len()
    }
    /// Scores on `subset` through the memo: documents already scored for a genome are not
    /// scored again. The fitness is computed from the scores in the order of `subset`, so a
    /// subset listing every document in order gives exactly [`Problem::evaluate_batch`]'s value.
    fn evaluate_subset(&mut self, genomes: &[Genome], subset: &[usize]) -> Result<Vec<Fitness>> {
        let packages: Vec<usize> = subset.iter().map(|&i| self.corpus.entries[i].package).collect();
        let scored = self.memo_scores(genomes, subset)?;
        Ok(scored
            .into_iter()
            .map(|(scores, ms)| self.objective.fitness(&scores, &packages, self.measure, ms))
            .collect())
    }
    fn strata(&self) -> Vec<usize> {
        self.corpus.entries.iter().map(|e| e.package).collect()
    }
    /// The folds of a setting fitted out of fold on this corpus: each fold's pages are scored by
    /// one model, so a cheaper evaluation scores whole folds and fits only theirs.
    fn groups(&self) -> Option<Vec<usize>> {
        match self.fit_source {
            None => super::fit::groups(self.corpus, &self.base),
            Some(_) => None,
        }
    }
    fn instance_terms(&mut self, genome: &Genome, subset: &[usize]) -> Result<Option<Vec<f64>>> {
        if !self.objective.per_document() {
            return Ok(None);
        }
        let scored = self.memo_scores(std::slice::from_ref(genome), subset)?;
        Ok(scored.first().map(|(scores, _)| scores.iter().map(|s| self.objective.term(s)).collect()))
    }
    fn forget(&mut self, keep: &[Genome]) {
        let keep: Vec<Vec<u64>> = keep.iter().map(|g| g.iter().map(|x| x.to_bits()).collect()).collect();
        self.memo.retain(|k, _| keep.contains(k));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objectives_parse_and_rank() {
        assert_eq!("f1".parse::<Objective>().unwrap(), Objective::F1);
        assert_eq!("fbeta:2".parse::<Objective>().unwrap(), Objective::FBeta(2.0));
        for bad in ["fbeta:1e300", "fbeta:1e-300", "fbeta:0", "fbeta:-1", "fbeta:NaN", "fbeta:inf"] {
            let e = bad.parse::<Objective>().unwrap_err();
            assert!(e.message.contains("beta must lie in [0.001, 1000]"), "{bad}: {e}");
            assert_eq!(e.exit_code(), 2);
        }
        assert_eq!("recall-at-precision:0.8".parse::<Objective>().unwrap(), Objective::RecallAtPrecision(0.8));
        // Issue 35: a P out of range named the objective unknown.
        let e = "recall-at-precision:2".parse::<Objective>().unwrap_err().to_string();
        assert!(e.contains("P must lie in [0, 1], got 2"), "{e}");
        assert!("recall:1".parse::<Objective>().is_err());
        let s = |p: f64, r: f64| DocScore {
            prf: crate::eval::Prf { precision: p, recall: r, f1: 2.0 * p * r / (p + r) },
            ..Default::default()
        };
        let scores = [s(0.5, 1.0), s(0.7, 0.9)];
        let pk = [0, 0];
        let f = Objective::RecallAtPrecision(0.8).fitness(&scores, &pk, Measure::Lcs, 1.0);
        // Infeasible: ranked by its mean precision (0.6), not by its recall (0.95).
        assert!(!f.feasible && (f.value - 0.6).abs() < 1e-12);
        let ok = Objective::RecallAtPrecision(0.6).fitness(&scores, &pk, Measure::Lcs, 1.0);
        assert!(ok.feasible && (ok.value - 0.95).abs() < 1e-12);
        let f2 = Objective::FBeta(1.0).fitness(&scores, &pk, Measure::Lcs, 1.0);
        assert!((f2.value - Objective::F1.fitness(&scores, &pk, Measure::Lcs, 1.0).value).abs() < 1e-12);
    }

    #[test]
    fn macro_f1_weighs_packages_equally() {
        assert_eq!("macro-f1".parse::<Objective>().unwrap(), Objective::MacroF1);
        assert_eq!(Objective::MacroF1.to_string(), "macro-f1");
        let s = |f1: f64| DocScore { prf: crate::eval::Prf { precision: f1, recall: f1, f1 }, ..Default::default() };
        // Package 0 has three documents at 0.9, package 2 one at 0.1; package 1 has none.
        let scores = [s(0.9), s(0.9), s(0.9), s(0.1)];
        let f = Objective::MacroF1.fitness(&scores, &[0, 0, 0, 2], Measure::Lcs, 1.0);
        assert!((f.value - 0.5).abs() < 1e-12, "{}", f.value);
        let mean = Objective::F1.fitness(&scores, &[0, 0, 0, 2], Measure::Lcs, 1.0);
        assert!((mean.value - 0.7).abs() < 1e-12);
    }

    #[test]
    fn under_shingle4_every_objective_takes_f1_from_the_averaged_precision_and_recall() {
        let s = |p: f64, r: f64| DocScore {
            prf: crate::eval::Prf { precision: p, recall: r, f1: 0.0 },
            ..Default::default()
        };
        // Page 2 extracted nothing: its precision is undefined and left out of the average.
        let scores = [s(1.0, 0.5), s(f64::NAN, 0.0)];
        let f = Objective::F1.fitness(&scores, &[0, 1], Measure::Shingle4, 1.0);
        // P = 1, R = 0.25: F1 = 0.4 (the mean of per-page F1s would be 1/3).
        assert!((f.precision - 1.0).abs() < 1e-12 && (f.recall - 0.25).abs() < 1e-12);
        assert!((f.value - 0.4).abs() < 1e-12, "{}", f.value);
        let m = Objective::MacroF1.fitness(&scores, &[0, 1], Measure::Shingle4, 1.0);
        // Package 0: P 1, R 0.5; package 1: P undefined, R 0 → macro P 1, R 0.25, F1 0.4.
        assert!((m.value - 0.4).abs() < 1e-12, "{}", m.value);
        let b = Objective::FBeta(1.0).fitness(&scores, &[0, 1], Measure::Shingle4, 1.0);
        assert!((b.value - 0.4).abs() < 1e-12, "{}", b.value);
    }

    #[test]
    fn fitness_carries_the_standard_error_over_documents() {
        let s = |f1: f64| DocScore { prf: crate::eval::Prf { precision: f1, recall: f1, f1 }, ..Default::default() };
        let scores = [s(0.2), s(0.4), s(0.6), s(0.8)];
        let f = Objective::F1.fitness(&scores, &[0, 0, 1, 1], Measure::Lcs, 1.0);
        // Sample sd of 0.2..0.8 is sqrt(0.0666..), divided by sqrt(4).
        let expected = (0.2f64 / 3.0).sqrt() / 2.0;
        assert!((f.sem - expected).abs() < 1e-12, "{}", f.sem);
        // macro-f1: the spread of the two package means 0.3 and 0.7.
        let m = Objective::MacroF1.fitness(&scores, &[0, 0, 1, 1], Measure::Lcs, 1.0);
        assert!((m.sem - 0.2).abs() < 1e-12, "{}", m.sem);
        assert!(Objective::F1.fitness(&scores[..1], &[0], Measure::Lcs, 1.0).sem.abs() < 1e-300);
        assert!(standard_error(&[0.5; 10]).abs() < 1e-300);
    }

    #[test]
    fn gene_space_follows_the_tuned_parameters() {
        let space = crate::extract::space("accb").unwrap();
        let g = gene_space(&space);
        assert_eq!(g.genes.len(), 2);
        assert_eq!(g.correlated, vec![vec![0, 1]]);
        assert!(g.ranks.is_empty());
    }

    #[test]
    fn unused_route_branches_do_not_enter_the_cache_key() {
        let space = crate::extract::space("route").unwrap();
        let g = gene_space(&space);
        let at = |s: &Setting, sets: &[&str]| {
            let sets: Vec<String> = sets.iter().map(|x| x.to_string()).collect();
            space.with_assignments(s, &sets).unwrap()
        };
        let key = |s: &Setting| crate::evolve::key(&g, &space.to_genome(s));
        let gene = |n: &str| space.genes().iter().position(|&i| space.params[i].name == n).unwrap();
        let count = |s: &Setting| g.active(&space.to_genome(s)).iter().filter(|&&a| a).count();
        // Every page goes to `main` (combine): the `soft` and `pages` genes do not count.
        let base = at(&space.defaults(), &["otherwise=main", "if1.on=false", "if2.on=false"]);
        let other = at(&base, &["soft.v=3.5", "pages.density.p=0.7", "if1.at=0.9"]);
        assert_eq!(key(&base), key(&other));
        assert!(!g.active(&space.to_genome(&base))[gene("soft.v")]);
        // A change of the used branch does count.
        assert_ne!(key(&base), key(&at(&base, &["main.ccb.r=150"])));
        // A rule that is on and sends pages to `soft` makes its genes count; switched off, not.
        let routed = at(&base, &["if1.on=true", "if1.then=soft"]);
        assert!(g.active(&space.to_genome(&routed))[gene("soft.v")]);
        assert_ne!(key(&routed), key(&at(&routed, &["soft.v=3.5"])));
        assert!(count(&routed) > count(&base));
        assert_eq!(key(&at(&routed, &["if1.on=false"])), key(&base));
        // The active genes agree with the setting-level activity (report, Table 2).
        let act = crate::params::combine::activity(&space, &routed);
        let genes_act = g.active(&space.to_genome(&routed));
        for (k, &i) in space.genes().iter().enumerate() {
            assert_eq!(act[i], genes_act[k], "{}", space.params[i].name);
        }
    }

    #[test]
    fn serial_orders_that_form_the_same_pipeline_share_a_cache_key() {
        let space = crate::extract::space("combine").unwrap();
        let g = gene_space(&space);
        assert_eq!(g.ranks.len(), 1);
        assert_eq!(g.ranks[0].len(), 6);
        let serial = ["combinator=serial".to_string()];
        let a = space.with_assignments(&space.defaults(), &serial).unwrap();
        let genome = |s: &Setting| space.to_genome(s);
        let orders = |o: [i64; 6]| {
            let sets: Vec<String> =
                space.members.iter().zip(o).map(|(m, k)| format!("{}.order={k}", m.name)).collect::<Vec<_>>();
            space.with_assignments(&a, &sets).unwrap()
        };
        // Members ccb, tccb, lqf, bte, crunch, density: orders 0..5 and (0, 0, 1, 2, 5, 5) (ties
        // go to the earlier member) form the same pipeline; ccb moved last does not.
        let c = orders([0, 0, 1, 2, 5, 5]);
        assert_ne!(genome(&a), genome(&c));
        let b = orders([5, 0, 1, 2, 3, 4]);
        assert_ne!(crate::evolve::key(&g, &genome(&a)), crate::evolve::key(&g, &genome(&b)));
        assert_eq!(crate::evolve::key(&g, &genome(&a)), crate::evolve::key(&g, &genome(&c)));
    }
}
