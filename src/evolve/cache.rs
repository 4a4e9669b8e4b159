//! The fitness cache: a genome already evaluated (same [`key`] after repair) is never
//! evaluated again. Elitism and crossover of similar parents produce many duplicates, and one
//! evaluation can take minutes.

use super::genome::{Genome, key};
use super::problem::{Fitness, Problem};
use super::trial::Trial;
use crate::error::{Error, Result};
use std::collections::{HashMap, HashSet};

/// Fitness by genome key.
#[derive(Debug, Clone, Default)]
pub struct Cache {
    map: HashMap<String, Fitness>,
    /// Partial evaluations, keyed by genome and subset: never served as a full fitness.
    partial: HashMap<(String, Vec<usize>), Fitness>,
    /// Genomes racing dropped, with their partial fitness (never served as a full one).
    dropped: HashMap<String, Fitness>,
}

impl Cache {
    /// A cache holding the fitness of every trial in `trials` (the first trial of a key wins);
    /// trials with a partial fitness (dropped by racing) are kept apart from the full ones.
    pub fn from_trials<'a>(space: &super::Space, trials: impl IntoIterator<Item = &'a Trial>) -> Cache {
        let mut cache = Cache::default();
        for t in trials {
            let k = key(space, &t.genome);
            if cache.known(&k).is_none() {
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

    /// The fitness of each genome on the instances `subset` only, evaluating what is not cached
    /// for that subset; a subset covering every instance is a full evaluation and goes through
    /// the full cache. Partial results are kept apart and never count as full ones.
    pub fn evaluate_subset(
        &mut self,
        problem: &mut dyn Problem,
        genomes: &[Genome],
        subset: &[usize],
    ) -> Result<Vec<Fitness>> {
        let mut subset = subset.to_vec();
        subset.sort_unstable();
        subset.dedup();
        if subset.len() >= problem.instances() {
            return Ok(self.evaluate(problem, genomes.to_vec(), 0, 0)?.into_iter().map(|t| t.fitness).collect());
        }
        let keys: Vec<(String, Vec<usize>)> =
            genomes.iter().map(|g| (key(problem.space(), g), subset.clone())).collect();
        let mut fresh = Vec::new();
        let mut fresh_keys = Vec::new();
        for (g, k) in genomes.iter().zip(&keys) {
            if !self.partial.contains_key(k) && !fresh_keys.contains(k) {
                fresh.push(g.clone());
                fresh_keys.push(k.clone());
            }
        }
        if !fresh.is_empty() {
            let fitness = problem.evaluate_subset(&fresh, &subset)?;
            if fitness.len() != fresh.len() {
                return Err(Error::bug("evaluate_subset returned the wrong number of fitnesses"));
            }
            for (k, mut f) in fresh_keys.into_iter().zip(fitness) {
                f.partial = Some(subset.len());
                self.partial.insert(k, f);
            }
        }
        Ok(keys.iter().map(|k| self.partial[k]).collect())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::genome::{Gene, Space};

    /// Four instances; the fitness on a subset is the genome's value times the subset's size.
    struct Instances {
        space: Space,
        calls: Vec<(usize, usize)>,
    }

    impl Problem for Instances {
        fn space(&self) -> &Space {
            &self.space
        }
        fn evaluate_batch(&mut self, genomes: &[Genome]) -> Result<Vec<Fitness>> {
            self.evaluate_subset(genomes, &[0, 1, 2, 3])
        }
        fn instances(&self) -> usize {
            4
        }
        fn evaluate_subset(&mut self, genomes: &[Genome], subset: &[usize]) -> Result<Vec<Fitness>> {
            self.calls.push((genomes.len(), subset.len()));
            Ok(genomes.iter().map(|g| Fitness::of(g[0] * subset.len() as f64)).collect())
        }
    }

    #[test]
    fn partial_and_full_evaluations_are_kept_apart() {
        let mut p = Instances {
            space: Space {
                genes: vec![Gene::Int { lo: 0, hi: 9 }],
                correlated: vec![],
                conditions: vec![],
                ranks: vec![],
            },
            calls: vec![],
        };
        let mut cache = Cache::default();
        let part = cache.evaluate_subset(&mut p, &[vec![2.0], vec![2.0], vec![3.0]], &[1, 0]).unwrap();
        assert_eq!(
            part.iter().map(|f| (f.value, f.partial)).collect::<Vec<_>>(),
            [(4.0, Some(2)), (4.0, Some(2)), (6.0, Some(2))]
        );
        assert_eq!(cache.len(), 0, "partial results are not full ones");
        assert!(cache.get(&p.space, &[2.0]).is_none());
        // The same subset is served from the cache, in any order.
        cache.evaluate_subset(&mut p, &[vec![3.0]], &[0, 1]).unwrap();
        assert_eq!(p.calls, [(2, 2)]);
        // A full evaluation of the same genome is a new evaluation, cached as full.
        let full = cache.evaluate(&mut p, vec![vec![2.0]], 0, 0).unwrap();
        assert_eq!((full[0].fitness.value, full[0].fitness.partial, full[0].cached), (8.0, None, false));
        // A subset that covers every instance is a full evaluation, served from the full cache.
        let all = cache.evaluate_subset(&mut p, &[vec![2.0]], &[3, 2, 1, 0]).unwrap();
        assert_eq!((all[0].value, all[0].partial), (8.0, None));
        assert_eq!(p.calls, [(2, 2), (1, 4)]);
        assert_eq!(cache.len(), 1);
    }
}
