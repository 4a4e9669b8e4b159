//! The genetic algorithm's step: from one evaluated population to the next (Part C of
//! `algorithms.md`): copy the elites, then fill up with children of tournament-selected parents
//! (crossover with probability `crossover_prob`, otherwise clones), each mutated and repaired.
//! With `--mutation adaptive` every individual also carries its own step sizes (Schwefel's
//! self-adaptation): children get the geometric mean of their parents' steps, mutate them
//! log-normally, then mutate their genes with them; elites keep theirs.

use super::config::{Config, Mutation};
use super::genome::{Genome, Space};
use super::operators::{adapt_steps, crossover, mutate, mutate_with_steps, ranked, tournament};
use super::problem::Fitness;
use super::strategy::{Strategy, floats, to_floats};
use crate::error::{Error, Result};
use rand::rngs::StdRng;
use rand::{Rng, RngExt};

/// The genetic algorithm as a [`Strategy`]: generation 0 is uniform random, every later one is
/// [`next_generation`] of the last. With fixed mutation it keeps no state between generations;
/// with adaptive mutation its state is the step sizes of the last generation's individuals (in
/// population order), saved in the checkpoint.
#[derive(Debug, Clone)]
pub struct Ga {
    config: Config,
    steps: Vec<Vec<f64>>,
}

impl Ga {
    /// A GA with the operators and population size of `config`.
    pub fn new(config: Config) -> Ga {
        Ga { config, steps: Vec::new() }
    }

    fn adaptive(&self) -> bool {
        self.config.mutation == Mutation::Adaptive
    }
}

impl Strategy for Ga {
    fn initial(&mut self, space: &Space, n: usize, rng: &mut StdRng) -> Vec<Genome> {
        if self.adaptive() {
            self.steps = vec![vec![self.config.mutation_sigma; space.len()]; n];
        }
        super::operators::random_generation(space, n, rng)
    }
    fn propose(&mut self, space: &Space, population: &[Genome], fitness: &[Fitness], rng: &mut StdRng) -> Vec<Genome> {
        if !self.adaptive() {
            return next_generation(space, &self.config, population, fitness, rng);
        }
        // Generation 0's fixed members (known-good settings, --individual, a warm start) come
        // before the strategy's own genomes and start from the default step size.
        let missing = population.len().saturating_sub(self.steps.len());
        let mut steps = vec![vec![self.config.mutation_sigma; space.len()]; missing];
        steps.append(&mut self.steps);
        let (next, next_steps) = next_generation_adaptive(space, &self.config, population, fitness, &steps, rng);
        self.steps = next_steps;
        next
    }
    fn save(&self) -> serde_json::Value {
        if self.adaptive() {
            serde_json::json!({ "steps": self.steps.iter().map(|s| floats(s)).collect::<Vec<_>>() })
        } else {
            serde_json::Value::Null
        }
    }
    fn load(&mut self, state: &serde_json::Value) -> Result<()> {
        if !self.adaptive() {
            return Ok(());
        }
        let rows = state.get("steps").and_then(serde_json::Value::as_array);
        let rows = rows.ok_or_else(|| Error::config("the checkpoint has no mutation step sizes"))?;
        self.steps = rows.iter().map(to_floats).collect::<Result<_>>()?;
        Ok(())
    }
}

/// The next population (of `config.population` genomes) after `population`, whose fitnesses
/// are `fitness` (same order, not empty). The `config.elites` best come first, unchanged.
pub fn next_generation(
    space: &Space,
    config: &Config,
    population: &[Genome],
    fitness: &[Fitness],
    rng: &mut impl Rng,
) -> Vec<Genome> {
    let mut next: Vec<Genome> =
        ranked(fitness).into_iter().take(config.elites).map(|i| population[i].clone()).collect();
    while next.len() < config.population {
        let a = &population[tournament(fitness, config.tournament, rng)];
        let b = &population[tournament(fitness, config.tournament, rng)];
        let (x, y) = if rng.random_bool(config.crossover_prob) {
            crossover(space, config, a, b, rng)
        } else {
            (a.clone(), b.clone())
        };
        for mut child in [x, y] {
            if next.len() < config.population {
                mutate(space, config, &mut child, rng);
                next.push(child);
            }
        }
    }
    next
}

/// [`next_generation`] with self-adaptive step sizes: `steps[i]` belongs to `population[i]`;
/// returns the next population and its step sizes (same order).
pub fn next_generation_adaptive(
    space: &Space,
    config: &Config,
    population: &[Genome],
    fitness: &[Fitness],
    steps: &[Vec<f64>],
    rng: &mut impl Rng,
) -> (Vec<Genome>, Vec<Vec<f64>>) {
    let elites = ranked(fitness).into_iter().take(config.elites);
    let (mut next, mut next_steps): (Vec<Genome>, Vec<Vec<f64>>) =
        elites.map(|i| (population[i].clone(), steps[i].clone())).unzip();
    while next.len() < config.population {
        let (i, j) = (tournament(fitness, config.tournament, rng), tournament(fitness, config.tournament, rng));
        let (a, b) = (&population[i], &population[j]);
        let (x, y) = if rng.random_bool(config.crossover_prob) {
            crossover(space, config, a, b, rng)
        } else {
            (a.clone(), b.clone())
        };
        let mean: Vec<f64> = steps[i].iter().zip(&steps[j]).map(|(s, t)| (s * t).sqrt()).collect();
        for mut child in [x, y] {
            if next.len() < config.population {
                let mut own = mean.clone();
                adapt_steps(&mut own, rng);
                mutate_with_steps(space, config, &mut child, &own, rng);
                next.push(child);
                next_steps.push(own);
            }
        }
    }
    (next, next_steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::genome::{Gene, key};
    use crate::evolve::operators::{STEP_BOUNDS, random_genome};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn ranked_puts_feasible_and_larger_first() {
        let infeasible = Fitness { value: 9.0, feasible: false, ..Fitness::default() };
        let f = [Fitness::of(0.1), infeasible, Fitness::of(0.5), Fitness::of(0.1)];
        assert_eq!(ranked(&f), vec![2, 0, 3, 1]);
    }

    #[test]
    fn next_generation_has_the_size_and_keeps_the_elites() {
        let space = Space {
            genes: vec![Gene::Real { lo: 0.0, hi: 1.0, step: None }; 3],
            correlated: vec![],
            conditions: vec![],
            ranks: vec![],
        };
        let config = Config { population: 7, elites: 2, ..Config::default() };
        let mut rng = StdRng::seed_from_u64(2);
        let pop: Vec<Genome> = (0..7).map(|_| random_genome(&space, &mut rng)).collect();
        let fit: Vec<Fitness> = pop.iter().map(|g| Fitness::of(g.iter().sum())).collect();
        let next = next_generation(&space, &config, &pop, &fit, &mut rng);
        assert_eq!(next.len(), 7);
        let order = ranked(&fit);
        assert_eq!(key(&space, &next[0]), key(&space, &pop[order[0]]));
        assert_eq!(key(&space, &next[1]), key(&space, &pop[order[1]]));
    }

    #[test]
    fn adaptive_steps_are_inherited_mutated_and_kept_by_elites() {
        let space = Space {
            genes: vec![Gene::Real { lo: 0.0, hi: 1.0, step: None }; 4],
            correlated: vec![],
            conditions: vec![],
            ranks: vec![],
        };
        let config = Config { population: 10, elites: 1, ..Config::default() };
        let mut rng = StdRng::seed_from_u64(3);
        let pop: Vec<Genome> = (0..10).map(|_| random_genome(&space, &mut rng)).collect();
        let fit: Vec<Fitness> = pop.iter().map(|g| Fitness::of(g.iter().sum())).collect();
        let steps: Vec<Vec<f64>> = (0..10).map(|i| vec![0.01 * (i + 1) as f64; 4]).collect();
        let (next, next_steps) = next_generation_adaptive(&space, &config, &pop, &fit, &steps, &mut rng);
        assert_eq!((next.len(), next_steps.len()), (10, 10));
        let best = ranked(&fit)[0];
        assert_eq!(next_steps[0], steps[best], "the elite keeps its steps");
        for s in &next_steps[1..] {
            assert!(s.iter().all(|x| (STEP_BOUNDS.0..=STEP_BOUNDS.1).contains(x)));
            assert!(s.iter().all(|x| (0.002..0.5).contains(x)), "children inherit steps near their parents': {s:?}");
            assert!(steps.iter().all(|p| p != s), "and mutate them");
        }
    }

    #[test]
    fn small_inherited_steps_make_small_moves() {
        // The step sizes are the mutation's: a population with tiny steps barely moves.
        let space = Space {
            genes: vec![Gene::Real { lo: 0.0, hi: 1.0, step: None }; 2],
            correlated: vec![],
            conditions: vec![],
            ranks: vec![],
        };
        let config = Config { population: 40, elites: 1, crossover_prob: 0.0, ..Config::default() };
        let mut rng = StdRng::seed_from_u64(4);
        let pop: Vec<Genome> = vec![vec![0.5, 0.5]; 40];
        let fit = vec![Fitness::of(0.0); 40];
        for (step, bound) in [(0.001, 0.05), (0.3, 10.0)] {
            let steps = vec![vec![step; 2]; 40];
            let (next, _) = next_generation_adaptive(&space, &config, &pop, &fit, &steps, &mut rng);
            let far = next.iter().flatten().map(|x| (x - 0.5).abs()).fold(0.0, f64::max);
            assert!(far < bound && (step > 0.01 || far > 0.0), "step {step}: moved {far}");
        }
    }
}
