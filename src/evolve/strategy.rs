//! Search strategies as types: the executor asks a [`Strategy`] for generation 0's genomes and
//! for each next batch, and never matches on which strategy it runs. Each strategy keeps its own
//! state and serialises it into the checkpoint ([`Strategy::save`] / [`Strategy::load`]), so a
//! strategy with a memory (a grid's cursor; later a CMA-ES mean and covariance, a racing
//! schedule) resumes exactly.
//!
//! Adding a strategy: one type implementing [`Strategy`] in its own file, one variant of
//! [`StrategyKind`] (with the run's settings, `config.rs`) and one arm in
//! [`StrategyKind::build`] (where the executor starts a run, `executor.rs`).

use super::genome::{Genome, Space};
use super::problem::Fitness;
use crate::error::{Error, Result};
use rand::rngs::StdRng;

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
    /// The fidelity of the genomes just proposed (by [`Strategy::initial`] or
    /// [`Strategy::propose`]) as a share of a full evaluation, for a multi-fidelity strategy
    /// ([`super::hyperband`]); `None`: full evaluations. The executor scores them on the smallest
    /// of the problem's fidelities that covers the share.
    fn fidelity(&self) -> Option<f64> {
        None
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
