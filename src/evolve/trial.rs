//! The run history: one immutable [`Trial`] per genome of every generation, cache hits
//! included. Tables, plots and the journal are functions of `&[Trial]`.

use super::genome::Genome;
use super::problem::Fitness;
use serde::{Deserialize, Serialize};

/// One genome of one generation with its fitness; never changed once recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trial {
    /// Position in the run's history, from 0, without gaps.
    pub number: usize,
    /// The generation the genome belongs to (0 = the initial population).
    pub generation: usize,
    /// The repaired genome.
    pub genome: Genome,
    /// Its fitness (for a cache hit: the fitness of the first evaluation).
    pub fitness: Fitness,
    /// Whether the fitness came from the cache instead of a new evaluation.
    pub cached: bool,
}

/// The best trial by rank (the first of equals), if any.
pub fn best_trial(trials: &[Trial]) -> Option<&Trial> {
    trials.iter().fold(None, |best: Option<&Trial>, t| match best {
        Some(b) if !t.fitness.better_than(&b.fitness) => Some(b),
        _ => Some(t),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_trial_is_the_first_of_the_best() {
        let t = |number: usize, v: f64| Trial {
            number,
            generation: 0,
            genome: vec![],
            fitness: Fitness::of(v),
            cached: false,
        };
        let trials = [t(0, 0.1), t(1, 0.5), t(2, 0.5), t(3, 0.2)];
        assert_eq!(best_trial(&trials).map(|t| t.number), Some(1));
        assert!(best_trial(&[]).is_none());
    }
}
