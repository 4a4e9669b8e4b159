//! The state of a run after a generation: everything the next generation depends on, so that a
//! checkpoint is just this value (serialised with serde). There is no RNG state to save: the
//! RNG of generation `g` is derived from `(seed, g)` ([`super::generation_rng`]).

use super::config::{Config, StrategyKind};
use super::genome::Genome;
use super::problem::Fitness;
use super::trial::{Trial, best_trial};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// The run after its last completed generation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The last completed generation (0 = the initial population).
    pub generation: usize,
    /// The genomes of that generation.
    pub population: Vec<Genome>,
    /// Their fitnesses, in the same order.
    pub fitness: Vec<Fitness>,
    /// The best trial so far (by rank; the earliest of equals).
    pub best: Trial,
    /// The best fitness when patience was last reset; improvements are measured against it.
    pub reference: Fitness,
    /// Generations in a row without an improvement of more than `epsilon` over `reference`.
    pub stagnant: usize,
    /// The best value so far after each generation, from generation 0.
    pub best_history: Vec<f64>,
    /// Trials recorded so far, which is also the number of the next trial.
    pub trials: usize,
    /// Genomes evaluated so far (cache misses).
    pub evaluations: usize,
    /// Instance (document) evaluations so far: a full evaluation counts every instance, a
    /// genome racing dropped the instances it saw.
    #[serde(default)]
    pub documents: usize,
    /// The strategy's own state ([`super::Strategy::save`]): a grid's cursor, `null` for the GA.
    #[serde(default)]
    pub strategy_state: serde_json::Value,
    /// The seed of the run (checked on resume).
    pub seed: u64,
    /// The strategy of the run (checked on resume).
    pub strategy: StrategyKind,
}

impl State {
    /// The state after generation 0, whose trials are `trials` (not empty).
    pub fn start(config: &Config, trials: &[Trial], strategy_state: serde_json::Value) -> Result<State> {
        let best = best_trial(trials).ok_or_else(|| Error::bug("generation 0 produced no trials"))?.clone();
        Ok(State {
            generation: 0,
            population: trials.iter().map(|t| t.genome.clone()).collect(),
            fitness: trials.iter().map(|t| t.fitness).collect(),
            reference: best.fitness,
            best_history: vec![best.fitness.value],
            best,
            stagnant: 0,
            trials: trials.len(),
            evaluations: trials.iter().filter(|t| !t.cached).count(),
            documents: 0,
            strategy_state,
            seed: config.seed,
            strategy: config.strategy,
        })
    }

    /// Moves on to the next generation, whose trials are `trials`; `strategy_state` is the
    /// strategy's state after proposing them.
    pub fn advance(&mut self, config: &Config, trials: &[Trial], strategy_state: serde_json::Value) {
        self.generation += 1;
        self.population = trials.iter().map(|t| t.genome.clone()).collect();
        self.fitness = trials.iter().map(|t| t.fitness).collect();
        if let Some(b) = best_trial(trials).filter(|b| b.fitness.better_than(&self.best.fitness)) {
            self.best = b.clone();
        }
        if self.best.fitness.improves_on(&self.reference, config.min_improvement(&self.reference)) {
            self.reference = self.best.fitness;
            self.stagnant = 0;
        } else {
            self.stagnant += 1;
        }
        self.best_history.push(self.best.fitness.value);
        self.trials += trials.len();
        self.evaluations += trials.iter().filter(|t| !t.cached).count();
        self.strategy_state = strategy_state;
    }

    /// Checks that the state belongs to a run with this configuration.
    pub fn check_resumable(&self, config: &Config, genes: usize) -> Result<()> {
        if self.seed != config.seed || self.strategy != config.strategy {
            let msg = format!(
                "the checkpoint was made with seed {} and strategy {}, but the run asks for seed {} and strategy {}",
                self.seed, self.strategy, config.seed, config.strategy
            );
            return Err(Error::config(msg));
        }
        if self.population.is_empty() || self.population.len() != self.fitness.len() {
            return Err(Error::config("the checkpoint has no population or mismatched fitnesses"));
        }
        match self.population.iter().find(|g| g.len() != genes) {
            Some(g) => {
                Err(Error::config(format!("the checkpoint has genomes of {} genes, the space {genes}", g.len())))
            }
            None => Ok(()),
        }
    }
}

/// A summary of one generation for observers (progress bar, logbook).
#[derive(Debug, Clone, PartialEq)]
pub struct GenerationInfo {
    /// The generation (0 = the initial population).
    pub generation: usize,
    /// Value of the best genome of this generation (by rank).
    pub best: f64,
    /// Mean value over this generation's genomes.
    pub mean: f64,
    /// Value of the worst genome of this generation (by rank).
    pub worst: f64,
    /// Genomes newly evaluated in this generation (cache misses).
    pub evaluations: usize,
    /// Genomes evaluated so far in the run.
    pub total_evaluations: usize,
    /// The best fitness so far.
    pub best_so_far: Fitness,
    /// The best genome so far.
    pub best_genome: Genome,
    /// Generations in a row without improvement.
    pub stagnant: usize,
}

impl GenerationInfo {
    /// The summary of a generation with trials `trials` (not empty), after `state` absorbed it.
    pub fn new(trials: &[Trial], state: &State) -> GenerationInfo {
        let fit: Vec<&Fitness> = trials.iter().map(|t| &t.fitness).collect();
        let best = fit.iter().copied().max_by(|a, b| a.rank_cmp(b)).map_or(f64::NAN, |f| f.value);
        let worst = fit.iter().copied().min_by(|a, b| a.rank_cmp(b)).map_or(f64::NAN, |f| f.value);
        GenerationInfo {
            generation: state.generation,
            best,
            mean: fit.iter().map(|f| f.value).sum::<f64>() / fit.len().max(1) as f64,
            worst,
            evaluations: trials.iter().filter(|t| !t.cached).count(),
            total_evaluations: state.evaluations,
            best_so_far: state.best.fitness,
            best_genome: state.best.genome.clone(),
            stagnant: state.stagnant,
        }
    }
}
