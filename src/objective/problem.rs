//! The optimisation problem: a parameter space and a corpus seen through `evolve::Problem`.
//! Each genome becomes a setting, the setting an extractor, and the extractor is scored over the
//! corpus (in parallel over documents); the objective turns the scores into a fitness.

use super::corpus::Corpus;
use super::score::{DocScore, score_subset};
use crate::error::{Error, Result};
use crate::evolve::{Condition, Fitness, Gene, Genome, Problem, Space};
use crate::params::{ParamSpace, Setting, Spec};
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
}

/// Smallest beta of `fbeta:B` (F-beta is then precision to within 1e-6).
const MIN_BETA: f64 = 0.001;

/// Largest beta of `fbeta:B` (F-beta is then recall to within 1e-6).
const MAX_BETA: f64 = 1000.0;

impl std::str::FromStr for Objective {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let bad = || {
            Error::config(format!("unknown objective '{s}' (expected f1, macro-f1, fbeta:B or recall-at-precision:P)"))
        };
        match s {
            "f1" => return Ok(Objective::F1),
            "macro-f1" => return Ok(Objective::MacroF1),
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
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for Objective {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Objective::F1 => write!(f, "f1"),
            Objective::MacroF1 => write!(f, "macro-f1"),
            Objective::FBeta(b) => write!(f, "fbeta:{b}"),
            Objective::RecallAtPrecision(p) => write!(f, "recall-at-precision:{p}"),
        }
    }
}

impl Objective {
    /// The fitness of scored documents (means in document order); `packages[i]` is the package
    /// of `scores[i]`.
    pub fn fitness(&self, scores: &[DocScore], packages: &[usize], ms: f64) -> Fitness {
        let n = scores.len().max(1) as f64;
        let p = scores.iter().map(|s| s.prf.precision).sum::<f64>() / n;
        let r = scores.iter().map(|s| s.prf.recall).sum::<f64>() / n;
        let f1 = scores.iter().map(|s| s.prf.f1).sum::<f64>() / n;
        let (value, feasible) = match *self {
            Objective::F1 => (f1, true),
            Objective::MacroF1 => (macro_f1(scores, packages), true),
            Objective::FBeta(b) => {
                let b2 = b * b;
                let v = scores
                    .iter()
                    .map(|s| {
                        let d = b2 * s.prf.precision + s.prf.recall;
                        if d > 0.0 { (1.0 + b2) * s.prf.precision * s.prf.recall / d } else { 0.0 }
                    })
                    .sum::<f64>()
                    / n;
                (v, true)
            }
            Objective::RecallAtPrecision(bound) if p >= bound => (r, true),
            Objective::RecallAtPrecision(_) => (p, false),
        };
        Fitness { value, feasible, precision: p, recall: r, ms, partial: None }
    }
}

/// Mean over the packages present of the mean F1 within each package.
fn macro_f1(scores: &[DocScore], packages: &[usize]) -> f64 {
    let n = packages.iter().max().map_or(0, |m| m + 1);
    let mut sum = vec![0.0; n];
    let mut count = vec![0usize; n];
    for (s, &p) in scores.iter().zip(packages) {
        sum[p] += s.prf.f1;
        count[p] += 1;
    }
    let means: Vec<f64> = sum.iter().zip(&count).filter(|(_, c)| **c > 0).map(|(s, c)| s / *c as f64).collect();
    means.iter().sum::<f64>() / means.len().max(1) as f64
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
            Some(when) => conditions.push(Condition { gene, when: Some(when), values: vec![sw.spec.to_internal(&v)] }),
            None if base.get(&sw.name).unwrap_or(&sw.default) != &v => {
                conditions.push(Condition { gene, when: None, values: vec![] });
            }
            None => {}
        }
    }
    Space { genes, correlated, conditions }
}

/// A parameter space scored on a corpus.
pub struct ExtractionProblem<'a> {
    corpus: &'a Corpus,
    space: &'a ParamSpace,
    base: Setting,
    genes: Space,
    objective: Objective,
}

impl<'a> ExtractionProblem<'a> {
    /// Tunes the genes of `space` starting from `base` (which fixes the other parameters).
    pub fn new(corpus: &'a Corpus, space: &'a ParamSpace, base: Setting, objective: Objective) -> Self {
        let genes = gene_space_from(space, &base);
        ExtractionProblem { corpus, space, base, genes, objective }
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
        let ex = crate::extract::build(s)?;
        let t0 = Instant::now();
        let scores = score_subset(self.corpus, ex.as_ref(), subset);
        let packages: Vec<usize> = subset.iter().map(|&i| self.corpus.entries[i].package).collect();
        Ok(self.objective.fitness(&scores, &packages, t0.elapsed().as_secs_f64() * 1000.0))
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
    fn evaluate_subset(&mut self, genomes: &[Genome], subset: &[usize]) -> Result<Vec<Fitness>> {
        if let Some(&bad) = subset.iter().find(|&&i| i >= self.corpus.entries.len()) {
            return Err(Error::bug(format!("document {bad} is not in the corpus")));
        }
        genomes.iter().map(|g| self.score_on(&self.setting(g), subset)).collect()
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
        assert!("recall:1".parse::<Objective>().is_err());
        let s = |p: f64, r: f64| DocScore {
            prf: crate::eval::Prf { precision: p, recall: r, f1: 2.0 * p * r / (p + r) },
            ..Default::default()
        };
        let scores = [s(0.5, 1.0), s(0.7, 0.9)];
        let pk = [0, 0];
        let f = Objective::RecallAtPrecision(0.8).fitness(&scores, &pk, 1.0);
        // Infeasible: ranked by its mean precision (0.6), not by its recall (0.95).
        assert!(!f.feasible && (f.value - 0.6).abs() < 1e-12);
        let ok = Objective::RecallAtPrecision(0.6).fitness(&scores, &pk, 1.0);
        assert!(ok.feasible && (ok.value - 0.95).abs() < 1e-12);
        let f2 = Objective::FBeta(1.0).fitness(&scores, &pk, 1.0);
        assert!((f2.value - Objective::F1.fitness(&scores, &pk, 1.0).value).abs() < 1e-12);
    }

    #[test]
    fn macro_f1_weighs_packages_equally() {
        assert_eq!("macro-f1".parse::<Objective>().unwrap(), Objective::MacroF1);
        assert_eq!(Objective::MacroF1.to_string(), "macro-f1");
        let s = |f1: f64| DocScore { prf: crate::eval::Prf { precision: f1, recall: f1, f1 }, ..Default::default() };
        // Package 0 has three documents at 0.9, package 2 one at 0.1; package 1 has none.
        let scores = [s(0.9), s(0.9), s(0.9), s(0.1)];
        let f = Objective::MacroF1.fitness(&scores, &[0, 0, 0, 2], 1.0);
        assert!((f.value - 0.5).abs() < 1e-12, "{}", f.value);
        let mean = Objective::F1.fitness(&scores, &[0, 0, 0, 2], 1.0);
        assert!((mean.value - 0.7).abs() < 1e-12);
    }

    #[test]
    fn gene_space_follows_the_tuned_parameters() {
        let space = crate::extract::space("accb").unwrap();
        let g = gene_space(&space);
        assert_eq!(g.genes.len(), 2);
        assert_eq!(g.correlated, vec![vec![0, 1]]);
    }
}
