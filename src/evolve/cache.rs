//! The fitness cache: a genome already evaluated (same [`key`] after repair) is never
//! evaluated again. Elitism and crossover of similar parents produce many duplicates, and one
//! evaluation can take minutes.

use super::genome::{Genome, key};
use super::problem::{Fitness, Problem};
use super::trial::Trial;
use crate::error::{Error, Result};
use std::collections::{HashMap, HashSet};

/// The index of the first occurrence of each key of `keys` that `known` does not know, in order:
/// the genomes of a generation to evaluate (racing's and a multi-fidelity strategy's).
pub fn first_unknown(keys: &[String], known: impl Fn(&str) -> bool) -> Vec<usize> {
    let mut fresh: Vec<usize> = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        if !known(k) && !fresh.iter().any(|&j| keys[j] == *k) {
            fresh.push(i);
        }
    }
    fresh
}

/// Fitness by genome key.
#[derive(Debug, Clone, Default)]
pub struct Cache {
    map: HashMap<String, Fitness>,
    /// Genomes racing dropped or a multi-fidelity strategy scored on a share of the instances,
    /// with their partial fitness (never served as a full one).
    dropped: HashMap<String, Fitness>,
}

impl Cache {
    /// A cache holding the fitness of every trial in `trials` (the first trial of a key wins);
    /// trials with a partial fitness (dropped by racing) are kept apart from the full ones.
    pub fn from_trials<'a>(space: &super::Space, trials: impl IntoIterator<Item = &'a Trial>) -> Cache {
        let mut cache = Cache::default();
        for t in trials {
            let k = key(space, &t.genome);
            // The first full fitness wins; a partial one only replaces a smaller partial one
            // (a multi-fidelity strategy's promotion).
            let newer = match cache.known(&k) {
                None => true,
                Some(old) => old.partial.is_some_and(|o| t.fitness.partial.is_none_or(|p| p > o)),
            };
            if newer {
                cache.insert(k, t.fitness);
            }
        }
        cache
    }

    /// The fitness known for a genome key: full, or partial for a genome racing dropped.
    pub fn known(&self, k: &str) -> Option<Fitness> {
        self.map.get(k).or_else(|| self.dropped.get(k)).copied()
    }

    /// Records a genome's fitness: full, or (partial) as dropped by racing.
    pub fn insert(&mut self, k: String, f: Fitness) {
        if f.partial.is_some() {
            self.dropped.insert(k, f);
        } else {
            self.dropped.remove(&k);
            self.map.insert(k, f);
        }
    }

    /// Number of distinct genomes known.
    pub fn len(&self) -> usize {
        self.map.len() + self.dropped.len()
    }

    /// Whether the cache is empty.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty() && self.dropped.is_empty()
    }

    /// The cached fitness of a repaired genome.
    pub fn get(&self, space: &super::Space, g: &[f64]) -> Option<Fitness> {
        self.map.get(&key(space, g)).copied()
    }

    /// Records one generation: the uncached, distinct genomes go to `evaluate_batch` in one call
    /// (none if all are cached); returns one trial per genome, in order, numbered from `first`.
    /// The first occurrence of a newly evaluated genome has `cached: false`, every other one
    /// `cached: true`.
    pub fn evaluate(
        &mut self,
        problem: &mut dyn Problem,
        genomes: Vec<Genome>,
        generation: usize,
        first: usize,
    ) -> Result<Vec<Trial>> {
        let keys: Vec<String> = genomes.iter().map(|g| key(problem.space(), g)).collect();
        let mut fresh_keys = Vec::new();
        let mut fresh = Vec::new();
        let mut seen = HashSet::new();
        for (g, k) in genomes.iter().zip(&keys) {
            if !self.map.contains_key(k) && seen.insert(k.as_str()) {
                fresh_keys.push(k.clone());
                fresh.push(g.clone());
            }
        }
        self.insert_evaluated(problem, &fresh, &fresh_keys)?;
        let mut pending: HashSet<&str> = fresh_keys.iter().map(String::as_str).collect();
        let trials = genomes.into_iter().zip(&keys).enumerate().map(|(i, (genome, k))| Trial {
            number: first + i,
            generation,
            genome,
            fitness: self.map[k],
            cached: !pending.remove(k.as_str()),
        });
        Ok(trials.collect())
    }

    fn insert_evaluated(&mut self, problem: &mut dyn Problem, fresh: &[Genome], keys: &[String]) -> Result<()> {
        if fresh.is_empty() {
            return Ok(());
        }
        let fitness = problem.evaluate_batch(fresh)?;
        if fitness.len() != fresh.len() {
            let msg = format!("evaluate_batch returned {} fitnesses for {} genomes", fitness.len(), fresh.len());
            return Err(Error::bug(msg));
        }
        self.map.extend(keys.iter().cloned().zip(fitness));
        Ok(())
    }
}
