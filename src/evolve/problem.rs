//! What the optimiser optimises: a [`Problem`] (a space and a batch evaluator) and the
//! [`Fitness`] it returns. The direction is fixed: larger values are better (maximise).

use super::genome::{Genome, Space};
use crate::error::Result;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// The result of evaluating one genome.
///
/// Ranking (see [`Fitness::rank_cmp`]): feasible before infeasible, then larger `value`; a NaN
/// value ranks below every number.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Fitness {
    /// The objective to maximise (e.g. mean F1).
    pub value: f64,
    /// Whether the constraints hold (e.g. mean precision at least a bound).
    pub feasible: bool,
    /// Mean precision, for reports.
    pub precision: f64,
    /// Mean recall, for reports.
    pub recall: f64,
    /// Time the evaluation took, in milliseconds.
    pub ms: f64,
    /// The standard error of `value` over the instances (documents) it averages: the noise of
    /// the estimate, 0 for a problem without instances.
    #[serde(default)]
    pub sem: f64,
    /// `Some(n)`: a partial evaluation on `n` instances (documents) only, which never ranks
    /// against full ones; `None`: a full evaluation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<usize>,
}

impl Fitness {
    /// A feasible fitness with only a value (precision, recall and time zero).
    pub fn of(value: f64) -> Self {
        Fitness { value, feasible: true, ..Fitness::default() }
    }

    /// Compares by rank: `Greater` means `self` is better than `other`. A partial evaluation (a
    /// setting racing dropped) ranks below every full one of the same feasibility: only full
    /// evaluations compete for the best.
    pub fn rank_cmp(&self, other: &Fitness) -> Ordering {
        self.feasible
            .cmp(&other.feasible)
            .then_with(|| other.partial.is_some().cmp(&self.partial.is_some()))
            .then_with(|| self.score().total_cmp(&other.score()))
    }

    /// Whether `self` ranks strictly better than `other`.
    pub fn better_than(&self, other: &Fitness) -> bool {
        self.rank_cmp(other) == Ordering::Greater
    }

    /// Whether `self` improves on `reference` by more than `epsilon`: it became feasible, or it
    /// has the same feasibility and a value larger by more than `epsilon`.
    pub fn improves_on(&self, reference: &Fitness, epsilon: f64) -> bool {
        match (self.feasible, reference.feasible) {
            (true, false) => true,
            (false, true) => false,
            _ => self.score() > reference.score() + epsilon,
        }
    }

    /// The value used for ranking: NaN becomes negative infinity.
    fn score(&self) -> f64 {
        if self.value.is_nan() { f64::NEG_INFINITY } else { self.value }
    }
}

/// A problem to optimise (argmin's `CostFunction` + `bulk_cost`): the optimiser proposes
/// genomes, the problem scores them. Evaluation takes no randomness, so results cannot depend
/// on the order in which a parallel implementation runs its jobs.
pub trait Problem {
    /// The genes.
    fn space(&self) -> &Space;

    /// Evaluates genomes fully (on every instance); one fitness per genome, in order.
    fn evaluate_batch(&mut self, genomes: &[Genome]) -> Result<Vec<Fitness>>;

    /// How many instances (documents) a full evaluation covers; 1 for a problem without
    /// instances, which can only be evaluated fully.
    fn instances(&self) -> usize {
        1
    }

    /// Evaluates genomes on the instances `subset` (indices below [`Problem::instances`]) only:
    /// the fidelity hook for racing. Each fitness says so in [`Fitness::partial`]; a subset that
    /// covers every instance is a full evaluation. The default evaluates fully.
    fn evaluate_subset(&mut self, genomes: &[Genome], subset: &[usize]) -> Result<Vec<Fitness>> {
        let _ = subset;
        self.evaluate_batch(genomes)
    }

    /// The stratum (e.g. package) of each instance, for stratified subsets; one stratum by default.
    fn strata(&self) -> Vec<usize> {
        vec![0; self.instances()]
    }

    /// Instances whose evaluation shares a cost, one group id per instance (e.g. the pages one
    /// fold model of a family fitted on gold scores: scoring any of them fits that model): racing
    /// and a multi-fidelity strategy then score whole groups. `None` (the default): every
    /// instance costs alone.
    fn groups(&self) -> Option<Vec<usize>> {
        None
    }

    /// The per-instance terms of the objective (e.g. F1 of each document) of `genome` on `subset`,
    /// in the order of `subset`: what racing's paired test compares. `Ok(None)` when the
    /// objective is no mean over instances (the default).
    fn instance_terms(&mut self, genome: &Genome, subset: &[usize]) -> Result<Option<Vec<f64>>> {
        let _ = (genome, subset);
        Ok(None)
    }

    /// Racing is done with a generation: per-instance results kept for [`Problem::evaluate_subset`]
    /// and [`Problem::instance_terms`] may be released, except those of `keep`.
    fn forget(&mut self, keep: &[Genome]) {
        let _ = keep;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feasible_ranks_before_value_and_nan_is_worst() {
        let infeasible = Fitness { value: 0.9, feasible: false, ..Fitness::default() };
        assert!(Fitness::of(0.1).better_than(&infeasible));
        assert!(Fitness::of(0.2).better_than(&Fitness::of(0.1)));
        assert!(Fitness::of(-1e300).better_than(&Fitness::of(f64::NAN)));
        assert!(!Fitness::of(0.2).better_than(&Fitness::of(0.2)));
    }

    #[test]
    fn improvement_needs_more_than_epsilon() {
        let eps = 1e-4;
        assert!(!Fitness::of(0.50005).improves_on(&Fitness::of(0.5), eps));
        assert!(Fitness::of(0.5002).improves_on(&Fitness::of(0.5), eps));
        let infeasible = Fitness { value: 0.9, feasible: false, ..Fitness::default() };
        assert!(Fitness::of(0.1).improves_on(&infeasible, eps));
        assert!(!infeasible.improves_on(&Fitness::of(0.1), eps));
    }
}
