//! Hyperband (`--strategy hyperband`): multi-fidelity search by successive halving in brackets
//! (Li, Jamieson, DeSalvo, Rostamizadeh and Talwalkar, "Hyperband: A Novel Bandit-Based Approach
//! to Hyperparameter Optimization", JMLR 18, 2018; successive halving: Jamieson and Talwalkar,
//! AISTATS 2016; the same scheme as Optuna's `HyperbandPruner` and SMAC3's Hyperband intensifier).
//!
//! A *bracket* samples fresh settings uniformly at random and scores them at a low fidelity (a
//! share of a full evaluation: a subset of the documents, or for a family fitted on gold whole
//! folds, so that only those folds' models are fitted); the best third go on to three times the
//! fidelity, and so on until the survivors are scored fully. Brackets cycle from the most
//! aggressive (`s = 2`: `population` settings at 1/9, a third of them at 1/3, a ninth fully) to
//! the most cautious (`s = 0`: every setting fully), which hedges against a low fidelity that
//! ranks badly (Li et al., section 3). Bracket `s` starts `⌈population · 3/(s+1) · 3^s / 9⌉`
//! settings (the paper's `n = ⌈(s_max+1)/(s+1) · η^s⌉`, scaled so that the first bracket starts
//! `population`).
//!
//! One generation is one rung: the executor asks [`Strategy::fidelity`] which share to score the
//! proposed genomes at and maps it onto the problem's fidelities. A promoted genome is scored
//! again at the higher fidelity (a problem with a memo scores only the new documents and fits only
//! the new folds); its trial at each rung is kept, so `individuals.csv` shows every promotion
//! (its `fidelity` column). Only full evaluations compete for the best. The state (bracket and
//! rung) is saved in the checkpoint, so a resumed run continues the same bracket.

use super::genome::{Genome, Space};
use super::operators::random_generation;
use super::problem::Fitness;
use super::strategy::Strategy;
use crate::error::{Error, Result};
use rand::rngs::StdRng;

/// The reduction factor η: a third of a rung goes on, at three times the fidelity.
pub const ETA: usize = 3;

/// The most aggressive bracket's index, `s_max`: three rungs (1/9, 1/3, 1).
pub const S_MAX: usize = 2;

/// Hyperband's position: the bracket (counted from 0 over the run) and the rung within it.
#[derive(Debug, Clone)]
pub struct Hyperband {
    population: usize,
    bracket: usize,
    rung: usize,
}

impl Hyperband {
    /// Hyperband whose most aggressive bracket starts `population` settings.
    pub fn new(population: usize) -> Hyperband {
        Hyperband { population: population.max(1), bracket: 0, rung: 0 }
    }

    /// The `s` of the current bracket (brackets cycle `s_max, …, 0`).
    fn s(&self) -> usize {
        S_MAX - self.bracket % (S_MAX + 1)
    }

    /// The settings bracket `s` starts with.
    pub fn bracket_size(&self, s: usize) -> usize {
        let n = self.population as f64 * (S_MAX + 1) as f64 / (s + 1) as f64 * (ETA.pow(s as u32) as f64)
            / ETA.pow(S_MAX as u32) as f64;
        (n.ceil() as usize).max(1)
    }
}

/// The indices of the best `k` of `fitness` by rank (ties: the earlier first).
fn best_k(fitness: &[Fitness], k: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..fitness.len()).collect();
    idx.sort_by(|&a, &b| fitness[b].rank_cmp(&fitness[a]).then(a.cmp(&b)));
    idx.truncate(k);
    idx
}

impl Strategy for Hyperband {
    fn initial(&mut self, space: &Space, n: usize, rng: &mut StdRng) -> Vec<Genome> {
        random_generation(space, n, rng)
    }

    fn propose(&mut self, space: &Space, population: &[Genome], fitness: &[Fitness], rng: &mut StdRng) -> Vec<Genome> {
        if self.rung < self.s() && !population.is_empty() {
            self.rung += 1;
            // Distinct genomes only: a duplicate would take a place among the survivors twice.
            let mut seen: Vec<&Genome> = Vec::new();
            let mut distinct = Vec::new();
            for (i, g) in population.iter().enumerate() {
                if !seen.contains(&g) {
                    seen.push(g);
                    distinct.push(i);
                }
            }
            let fit: Vec<Fitness> = distinct.iter().map(|&i| fitness[i]).collect();
            let keep = (distinct.len() / ETA).max(1);
            return best_k(&fit, keep).into_iter().map(|j| population[distinct[j]].clone()).collect();
        }
        self.bracket += 1;
        self.rung = 0;
        random_generation(space, self.bracket_size(self.s()), rng)
    }

    fn fidelity(&self) -> Option<f64> {
        let below = self.s() - self.rung.min(self.s());
        (below > 0).then(|| 1.0 / ETA.pow(below as u32) as f64)
    }

    fn save(&self) -> serde_json::Value {
        serde_json::json!({ "bracket": self.bracket, "rung": self.rung })
    }

    fn load(&mut self, state: &serde_json::Value) -> Result<()> {
        let get = |k: &str| {
            state.get(k).and_then(|v| v.as_u64()).map(|v| v as usize).ok_or_else(|| {
                Error::config(format!("the checkpoint's hyperband state has no '{k}' (it holds {state})"))
            })
        };
        self.bracket = get("bracket")?;
        self.rung = get("rung")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn brackets_follow_the_paper_scaled_to_the_population() {
        let h = Hyperband::new(27);
        // s = 2: 27 at 1/9; s = 1: ⌈27 · 3/2 · 3/9⌉ = 14 at 1/3; s = 0: 27 · 3 / 9 = 9 fully.
        assert_eq!((h.bracket_size(2), h.bracket_size(1), h.bracket_size(0)), (27, 14, 9));
    }

    #[test]
    fn rungs_promote_a_third_at_three_times_the_fidelity_then_the_next_bracket_starts() {
        let space = Space {
            genes: vec![super::super::Gene::Real { lo: 0.0, hi: 1.0, step: None }],
            correlated: vec![],
            conditions: vec![],
            ranks: vec![],
        };
        let mut rng = StdRng::seed_from_u64(1);
        let mut h = Hyperband::new(9);
        assert_eq!(h.fidelity(), Some(1.0 / 9.0));
        let pop: Vec<Genome> = (0..9).map(|i| vec![i as f64 / 10.0]).collect();
        let fit: Vec<Fitness> = pop.iter().map(|g| Fitness::of(g[0])).collect();
        let next = h.propose(&space, &pop, &fit, &mut rng);
        assert_eq!(next, vec![vec![0.8], vec![0.7], vec![0.6]]);
        assert_eq!(h.fidelity(), Some(1.0 / 3.0));
        let fit: Vec<Fitness> = next.iter().map(|g| Fitness::of(1.0 - g[0])).collect();
        let last = h.propose(&space, &next, &fit, &mut rng);
        assert_eq!((last, h.fidelity()), (vec![vec![0.6]], None));
        // The next bracket (s = 1): ⌈9 · 3/2 · 3/9⌉ = 5 fresh settings at 1/3.
        let fresh = h.propose(&space, &[vec![0.6]], &[Fitness::of(0.4)], &mut rng);
        assert_eq!((fresh.len(), h.fidelity()), (5, Some(1.0 / 3.0)));
        let saved = h.save();
        let mut back = Hyperband::new(9);
        back.load(&saved).unwrap();
        assert_eq!((back.bracket, back.rung), (1, 0));
        assert!(back.load(&serde_json::Value::Null).is_err());
    }
}
