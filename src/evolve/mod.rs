//! # The evolutionary loop
//!
//! Searches a [`Space`] of numeric, categorical and boolean genes for the genome a [`Problem`]
//! scores best (maximising), by a genetic algorithm (Gottron 2009; defaults and reference loop
//! in `algorithms.md` Part C) or by the random and grid baselines with the same budget.
//!
//! - [`genome`]: [`Gene`], [`Space`], [`Genome`], [`repair`], cache [`key`];
//! - [`problem`]: the [`Problem`] trait and [`Fitness`] (feasible first, then value);
//! - [`config`]: [`Config`] with the Part C defaults and [`Blend`];
//! - [`strategy`]: the [`Strategy`] trait and the names of the strategies ([`StrategyKind`]);
//! - [`operators`]: sampling, tournament, crossover, mutation — each takes its RNG;
//! - [`ga`]: the GA ([`ga::Ga`]); [`baseline`]: random search and grid search over a [`Grid`];
//! - [`nsga2`]: NSGA-II over mean precision and recall (`--objective pareto`);
//! - [`race`]: racing over instances (`--racing`), a paired t-test on stratified subsets;
//! - [`hyperband`]: Hyperband, successive halving over fidelities (`--strategy hyperband`);
//! - [`cmaes`]: CMA-ES with margin and IPOP restarts; [`tpe`]: TPE with Optuna's defaults;
//! - [`cache`], [`trial`], [`state`]: fitness cache, the immutable history, the checkpoint;
//! - [`executor`]: [`run`], stopping rules, [`Observer`]s;
//! - [`testutil`]: toy problems (OneMax, sphere, a mixed space).
//!
//! This module knows nothing about HTML. Imports from the crate: `params` (the one
//! step-rounding rule, [`params::snap`](crate::params::snap)) and `error`; never `document`,
//! `extract`, `eval`, `goldset`, `objective`, `store` or `report`. Randomness comes only from RNGs
//! seeded from `(seed, generation)`; nothing here reads entropy, and the clock only for
//! `time_limit`.

pub mod baseline;
pub mod cache;
pub mod cmaes;
pub mod config;
pub mod executor;
pub mod ga;
pub mod genome;
pub mod hyperband;
pub mod nsga2;
pub mod operators;
pub mod problem;
pub mod race;
pub mod state;
pub mod strategy;
pub mod testutil;
pub mod tpe;
pub mod trial;

#[cfg(test)]
mod tests;

pub use baseline::Grid;
pub use cache::Cache;
pub use config::{Blend, Config, Mutation, StrategyKind};
pub use executor::{Observer, Outcome, TerminationReason, generation_rng, run};
pub use genome::{Condition, Gene, Genome, Space, key, repair};
pub use problem::{Fitness, Problem};
pub use state::{GenerationInfo, State};
pub use strategy::Strategy;
pub use trial::{Trial, best_trial};
