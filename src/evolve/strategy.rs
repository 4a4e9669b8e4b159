//! Search strategies as types: the executor asks a [`Strategy`] for generation 0's genomes and
//! for each next batch, and never matches on which strategy it runs. Each strategy keeps its own
//! state and serialises it into the checkpoint ([`Strategy::save`] / [`Strategy::load`]), so a
//! strategy with a memory (a grid's cursor; later a CMA-ES mean and covariance, a racing
//! schedule) resumes exactly.
//!
//! Adding a strategy: one type implementing [`Strategy`] in its own file, one variant of
//! [`StrategyKind`] and one arm in [`StrategyKind::build`].

use super::config::Config;
use super::genome::{Genome, Space};
use super::problem::Fitness;
use crate::error::{Error, Result};
use rand::rngs::StdRng;
use serde::{Deserialize, Serialize};

/// A search strategy: proposes genomes; the executor evaluates, journals and stops.
pub trait Strategy {
    /// `n` genomes that fill generation 0 after the fixed initial ones (known-good settings).
    fn initial(&mut self, space: &Space, n: usize, rng: &mut StdRng) -> Vec<Genome>;
    /// The genomes of the next generation, given the last generation's genomes and fitnesses
    /// (same order). `rng` is the generation's own generator.
    fn propose(&mut self, space: &Space, population: &[Genome], fitness: &[Fitness], rng: &mut StdRng) -> Vec<Genome>;
    /// Whether the strategy has nothing left to propose (a grid that is done).
    fn exhausted(&self) -> bool {
        false
    }
    /// The strategy's own state for the checkpoint (`null` when it has none).
    fn save(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    /// Restores the state written by [`Strategy::save`].
    fn load(&mut self, _state: &serde_json::Value) -> Result<()> {
        Ok(())
    }
}

/// Floats for a strategy's checkpoint state. They pass through the YAML checkpoint as numbers
/// written in shortest round-trip form, so they come back bit for bit (the resume tests check).
pub fn floats(x: &[f64]) -> serde_json::Value {
    serde_json::Value::Array(x.iter().map(|&v| serde_json::json!(v)).collect())
}

/// Reads back what [`floats`] wrote.
pub fn to_floats(v: &serde_json::Value) -> Result<Vec<f64>> {
    let bad = || Error::config("the checkpoint's strategy state holds a value that is not a list of numbers");
    v.as_array().ok_or_else(bad)?.iter().map(|x| x.as_f64().ok_or_else(bad)).collect()
}

/// The strategies a run can name (`--strategy`, `run.yaml`'s `config.strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StrategyKind {
    /// The genetic algorithm (Gottron 2009).
    #[default]
    Ga,
    /// Uniform random search with the same budget.
    Random,
    /// A full-factorial grid with about the same budget.
    Grid,
    /// CMA-ES with margin for the real and integer genes, IPOP restarts ([`super::cmaes`]).
    Cmaes,
    /// TPE with Optuna's defaults ([`super::tpe`]).
    Tpe,
    /// NSGA-II over mean precision and mean recall ([`super::nsga2`], `--objective pareto`).
    Nsga2,
}

impl StrategyKind {
    /// Every strategy, for listings and `--strategy` parsing.
    pub const ALL: [StrategyKind; 6] = [
        StrategyKind::Ga,
        StrategyKind::Random,
        StrategyKind::Grid,
        StrategyKind::Cmaes,
        StrategyKind::Tpe,
        StrategyKind::Nsga2,
    ];

    /// The name used on the command line and in `run.yaml`.
    pub fn name(self) -> &'static str {
        match self {
            StrategyKind::Ga => "ga",
            StrategyKind::Random => "random",
            StrategyKind::Grid => "grid",
            StrategyKind::Cmaes => "cmaes",
            StrategyKind::Tpe => "tpe",
            StrategyKind::Nsga2 => "nsga2",
        }
    }

    /// Whether the strategy can search `space`: CMA-ES needs at least one real or integer gene.
    pub fn check(self, space: &Space) -> Result<()> {
        if self == StrategyKind::Cmaes && !space.genes.iter().any(|g| g.is_numeric()) {
            return Err(Error::config(
                "--strategy cmaes needs at least one float or int parameter to tune; this space has only categorical and bool ones (use ga, random or grid)",
            ));
        }
        Ok(())
    }

    /// The strategy for a run with `config` over `space`: the one place that maps names to types.
    pub fn build(self, config: &Config, space: &Space) -> Box<dyn Strategy> {
        match self {
            StrategyKind::Ga => Box::new(super::ga::Ga::new(config.clone())),
            StrategyKind::Random => Box::new(super::baseline::RandomSearch { population: config.population }),
            StrategyKind::Grid => Box::new(super::baseline::GridSearch::new(space, config)),
            StrategyKind::Cmaes => Box::new(super::cmaes::Cmaes::new(space, config.population)),
            StrategyKind::Tpe => Box::new(super::tpe::Tpe::new(config.population)),
            StrategyKind::Nsga2 => Box::new(super::nsga2::Nsga2::new(config.clone())),
        }
    }
}

impl std::str::FromStr for StrategyKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        StrategyKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| {
            let names: Vec<&str> = StrategyKind::ALL.iter().map(|k| k.name()).collect();
            Error::config(format!("unknown strategy '{s}' (expected {})", names.join(", ")))
        })
    }
}

impl std::fmt::Display for StrategyKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
