//! The genetic algorithm's step: from one evaluated population to the next (Part C of
//! `algorithms.md`): copy the elites, then fill up with children of tournament-selected parents
//! (crossover with probability `crossover_prob`, otherwise clones), each mutated and repaired.

use super::config::Config;
use super::genome::{Genome, Space};
use super::operators::{crossover, mutate, tournament};
use super::problem::Fitness;
use super::strategy::Strategy;
use rand::rngs::StdRng;
use rand::{Rng, RngExt};

/// The genetic algorithm as a [`Strategy`]: generation 0 is uniform random, every later one is
/// [`next_generation`] of the last. It keeps no state of its own between generations.
#[derive(Debug, Clone)]
pub struct Ga {
    config: Config,
}

impl Ga {
    /// A GA with the operators and population size of `config`.
    pub fn new(config: Config) -> Ga {
        Ga { config }
    }
}

impl Strategy for Ga {
    fn initial(&mut self, space: &Space, n: usize, rng: &mut StdRng) -> Vec<Genome> {
        super::baseline::random_generation(space, n, rng)
    }
    fn propose(&mut self, space: &Space, population: &[Genome], fitness: &[Fitness], rng: &mut StdRng) -> Vec<Genome> {
        next_generation(space, &self.config, population, fitness, rng)
    }
}

/// Indices of `fitness` from best to worst by rank; ties keep their order.
pub fn ranked(fitness: &[Fitness]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..fitness.len()).collect();
    idx.sort_by(|&a, &b| fitness[b].rank_cmp(&fitness[a]));
    idx
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::genome::{Gene, key};
    use crate::evolve::operators::random_genome;
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
}
