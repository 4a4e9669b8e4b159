//! The loop: generation 0, then one generation after another until a stopping rule fires;
//! observers see every trial and every generation; the fitness cache avoids re-evaluation.
//!
//! Determinism: the RNG of generation `g` is [`generation_rng`]`(seed, g)` and nothing else is
//! random, so a run is a function of (problem, config, initial genomes), and resuming from the
//! [`State`] after generation `g` (with the trials before it) continues exactly as the
//! uninterrupted run would have.

use super::baseline::settings;
use super::cache::Cache;
use super::config::{Config, StrategyKind};
use super::genome::{Genome, Space, repair};
use super::problem::{Fitness, Problem};
use super::state::{GenerationInfo, State};
use super::strategy::Strategy;
use super::trial::Trial;
use crate::error::Result;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TerminationReason {
    /// `max_generations` generations were run.
    MaxGenerations,
    /// The best fitness did not improve by more than `epsilon` for `patience` generations.
    Patience,
    /// The observer asked to stop (e.g. Ctrl-C); the last generation was completed and observed.
    Interrupted,
    /// The grid baseline evaluated all its points.
    BudgetExhausted,
    /// Every setting of a finite space has been evaluated: nothing is left to find.
    SpaceExhausted,
    /// `time_limit` seconds had passed when a generation ended.
    TimeLimit,
}

impl fmt::Display for TerminationReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TerminationReason::MaxGenerations => "maximum number of generations reached",
            TerminationReason::Patience => "no improvement for `patience` generations",
            TerminationReason::Interrupted => "interrupted",
            TerminationReason::BudgetExhausted => "grid exhausted",
            TerminationReason::SpaceExhausted => "every setting of the space evaluated",
            TerminationReason::TimeLimit => "time limit reached",
        })
    }
}

/// Watches a run: journal, progress bar, checkpoints, Ctrl-C. All methods have no-op defaults.
pub trait Observer {
    /// Every trial of a generation, in order, before [`Observer::on_generation`].
    fn on_trials(&mut self, _trials: &[Trial]) -> Result<()> {
        Ok(())
    }
    /// After each generation (also generation 0), with the state to checkpoint. An `Err` aborts
    /// the run.
    fn on_generation(&mut self, _info: &GenerationInfo, _state: &State) -> Result<()> {
        Ok(())
    }
    /// Checked after each generation; `true` ends the run with [`TerminationReason::Interrupted`].
    fn should_stop(&self) -> bool {
        false
    }
}

/// The observer that does nothing.
impl Observer for () {}

/// A borrowed observer, so that `(&mut journal, &mut progress)` is an observer too.
impl<T: Observer + ?Sized> Observer for &mut T {
    fn on_trials(&mut self, trials: &[Trial]) -> Result<()> {
        (**self).on_trials(trials)
    }
    fn on_generation(&mut self, info: &GenerationInfo, state: &State) -> Result<()> {
        (**self).on_generation(info, state)
    }
    fn should_stop(&self) -> bool {
        (**self).should_stop()
    }
}

/// Two observers, called in order (`should_stop` if either says so).
impl<A: Observer, B: Observer> Observer for (A, B) {
    fn on_trials(&mut self, trials: &[Trial]) -> Result<()> {
        self.0.on_trials(trials)?;
        self.1.on_trials(trials)
    }
    fn on_generation(&mut self, info: &GenerationInfo, state: &State) -> Result<()> {
        self.0.on_generation(info, state)?;
        self.1.on_generation(info, state)
    }
    fn should_stop(&self) -> bool {
        self.0.should_stop() || self.1.should_stop()
    }
}

/// The result of [`run`].
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The trials of this call (on resume: only those after the checkpoint).
    pub trials: Vec<Trial>,
    /// Why the run ended.
    pub reason: TerminationReason,
    /// The best trial of the whole run (prior generations included).
    pub best: Trial,
    /// The final state (can be resumed with a larger budget).
    pub state: State,
}

/// The RNG of generation `g` of a run with `seed`.
pub fn generation_rng(seed: u64, g: usize) -> StdRng {
    StdRng::seed_from_u64(seed ^ (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Runs the search.
///
/// - `initial`: known-good genomes placed first in generation 0 (repaired; ignored on resume);
///   generation 0 is filled up to `config.population` by the strategy (random genomes for the
///   GA and random search, the first points for the grid).
/// - `prior_trials`: trials of earlier runs that seed the fitness cache. On resume pass the
///   journal of the interrupted run; only trials numbered below `state.trials` are used, so a
///   journal that ran ahead of its checkpoint does not change the result.
/// - `resume`: the [`State`] from the last [`Observer::on_generation`] of an interrupted run;
///   the run continues with generation `state.generation + 1` and numbers trials from
///   `state.trials`, exactly as the uninterrupted run would have.
pub fn run(
    problem: &mut dyn Problem,
    config: &Config,
    initial: Vec<Genome>,
    prior_trials: &[Trial],
    observer: &mut dyn Observer,
    resume: Option<State>,
) -> Result<Outcome> {
    config.validate()?;
    let started = std::time::Instant::now();
    let space = problem.space().clone();
    space.validate()?;
    config.strategy.check(&space)?;
    let mut strategy = config.strategy.build(config, &space);
    // The instance order that racing and a multi-fidelity strategy score prefixes of.
    let plan = match problem.groups() {
        Some(groups) => super::race::Plan::grouped(&problem.strata(), &groups, config.seed, config.racing_alpha),
        None => super::race::Plan::new(&problem.strata(), config.seed, config.racing_alpha),
    };
    let race = config.racing.then_some(&plan);
    let limit = resume.as_ref().map_or(usize::MAX, |s| s.trials);
    let mut cache = Cache::from_trials(&space, prior_trials.iter().filter(|t| t.number < limit));
    let mut trials = Vec::new();
    let mut state = match resume {
        Some(s) => {
            s.check_resumable(config, space.len())?;
            strategy.load(&s.strategy_state)?;
            s
        }
        None => {
            let first = Generation { cache: &mut cache, race, plan: &plan, observer, trials: &mut trials };
            first_generation(problem, config, strategy.as_mut(), initial, first)?
        }
    };
    let size = settings(&space);
    loop {
        let exhausted = size.is_some_and(|n| cache.len() >= n);
        let late = config.time_limit.is_some_and(|t| started.elapsed().as_secs_f64() >= t);
        if let Some(reason) = termination(&state, config, strategy.as_ref(), exhausted, late, observer) {
            return Ok(Outcome { trials, reason, best: state.best.clone(), state });
        }
        let g = state.generation + 1;
        let mut rng = generation_rng(config.seed, g);
        let genomes = strategy.propose(&space, &state.population, &state.fitness, &mut rng);
        let at = Fidelity { plan: &plan, share: strategy.fidelity() };
        let (new, documents) = evaluate(problem, &mut cache, race, at, genomes, g, state.trials, Some(&state.best))?;
        state.advance(config, &new, strategy.save());
        state.documents += documents;
        observe(observer, &new, &state)?;
        trials.extend(new);
    }
}

/// The fidelity a generation is scored at: a share of a full evaluation (`None`: full) and the
/// instance order whose prefixes make the shares.
#[derive(Clone, Copy)]
struct Fidelity<'a> {
    plan: &'a super::race::Plan,
    share: Option<f64>,
}

/// Evaluates one generation through the cache, racing when `race` is given, at the strategy's
/// fidelity `at` otherwise; returns the trials and the instance evaluations spent.
#[allow(clippy::too_many_arguments)]
fn evaluate(
    problem: &mut dyn Problem,
    cache: &mut Cache,
    race: Option<&super::race::Plan>,
    at: Fidelity<'_>,
    genomes: Vec<Genome>,
    generation: usize,
    first: usize,
    incumbent: Option<&Trial>,
) -> Result<(Vec<Trial>, usize)> {
    match (race, at.share) {
        (Some(plan), _) => {
            let raced = super::race::evaluate(problem, cache, plan, genomes, generation, first, incumbent)?;
            Ok((raced.trials, raced.documents))
        }
        (None, Some(share)) => {
            let size = at.plan.size_at(share);
            evaluate_at(problem, cache, at.plan, size, genomes, generation, first)
        }
        (None, None) => {
            let new = cache.evaluate(problem, genomes, generation, first)?;
            let documents = new.iter().filter(|t| !t.cached).count() * problem.instances();
            Ok((new, documents))
        }
    }
}

/// Evaluates a generation of a multi-fidelity strategy on the first `size` instances of `plan`
/// (a full evaluation when that is all of them). A genome known fully, or at this fidelity or a
/// higher one, is served by the cache; one known at a lower fidelity (a promotion) is scored
/// again on the larger subset (a problem with a memo scores only the new instances). Returns the
/// trials and the instance evaluations spent.
fn evaluate_at(
    problem: &mut dyn Problem,
    cache: &mut Cache,
    plan: &super::race::Plan,
    size: usize,
    genomes: Vec<Genome>,
    generation: usize,
    first: usize,
) -> Result<(Vec<Trial>, usize)> {
    let n = problem.instances();
    let space = problem.space().clone();
    let keys: Vec<String> = genomes.iter().map(|g| super::genome::key(&space, g)).collect();
    let known = |cache: &Cache, k: &str| cache.known(k).filter(|f| f.partial.is_none_or(|p| p >= size));
    let fresh = super::cache::first_unknown(&keys, |k| known(cache, k).is_some());
    // Only this rung's genomes can go on: per-instance results of the others may go.
    problem.forget(&genomes);
    let mut documents = 0;
    if !fresh.is_empty() {
        let batch: Vec<Genome> = fresh.iter().map(|&i| genomes[i].clone()).collect();
        let fit = problem.evaluate_subset(&batch, &plan.prefix(size))?;
        if fit.len() != batch.len() {
            return Err(crate::error::Error::bug("evaluate_subset returned the wrong number of fitnesses"));
        }
        for (&i, f) in fresh.iter().zip(fit) {
            documents += size - cache.known(&keys[i]).and_then(|f| f.partial).unwrap_or(0);
            cache.insert(keys[i].clone(), Fitness { partial: (size < n).then_some(size), ..f });
        }
    }
    let mut trials = Vec::with_capacity(genomes.len());
    for (i, (genome, k)) in genomes.into_iter().zip(&keys).enumerate() {
        let fitness = known(cache, k).ok_or_else(|| crate::error::Error::bug("a scored genome is not in the cache"))?;
        let cached = !fresh.contains(&i);
        trials.push(Trial { number: first + i, generation, genome, fitness, cached });
    }
    Ok((trials, documents))
}

/// What generation 0 is recorded with.
struct Generation<'a> {
    cache: &'a mut Cache,
    race: Option<&'a super::race::Plan>,
    plan: &'a super::race::Plan,
    observer: &'a mut dyn Observer,
    trials: &'a mut Vec<Trial>,
}

/// Generation 0: the repaired `initial` genomes, then the strategy's first genomes.
fn first_generation(
    problem: &mut dyn Problem,
    config: &Config,
    strategy: &mut dyn Strategy,
    initial: Vec<Genome>,
    out: Generation<'_>,
) -> Result<State> {
    let space = problem.space().clone();
    let mut genomes = Vec::with_capacity(config.population.max(initial.len()));
    for mut g in initial {
        space.check_len(&g)?;
        repair(&space, &mut g);
        genomes.push(g);
    }
    let fill = config.population.saturating_sub(genomes.len());
    genomes.extend(strategy.initial(&space, fill, &mut generation_rng(config.seed, 0)));
    let at = Fidelity { plan: out.plan, share: strategy.fidelity() };
    let (new, documents) = evaluate(problem, out.cache, out.race, at, genomes, 0, 0, None)?;
    let mut state = State::start(config, &new, strategy.save())?;
    state.documents = documents;
    observe(out.observer, &new, &state)?;
    out.trials.extend(new);
    Ok(state)
}

fn observe(observer: &mut dyn Observer, trials: &[Trial], state: &State) -> Result<()> {
    observer.on_trials(trials)?;
    observer.on_generation(&GenerationInfo::new(trials, state), state)
}

/// The first stopping rule that holds after the state's generation, if any.
fn termination(
    state: &State,
    config: &Config,
    strategy: &dyn Strategy,
    exhausted: bool,
    late: bool,
    observer: &dyn Observer,
) -> Option<TerminationReason> {
    if strategy.exhausted() {
        Some(TerminationReason::BudgetExhausted)
    } else if exhausted {
        Some(TerminationReason::SpaceExhausted)
    } else if state.generation + 1 >= config.max_generations {
        Some(TerminationReason::MaxGenerations)
    } else if config.patience > 0 && state.stagnant >= config.patience {
        Some(TerminationReason::Patience)
    } else if observer.should_stop() {
        Some(TerminationReason::Interrupted)
    } else if late {
        Some(TerminationReason::TimeLimit)
    } else {
        None
    }
}

impl StrategyKind {
    /// The strategy for a run with `config` over `space`: the one place that maps names to types.
    pub fn build(self, config: &Config, space: &Space) -> Box<dyn Strategy> {
        match self {
            StrategyKind::Ga => Box::new(super::ga::Ga::new(config.clone())),
            StrategyKind::Random => Box::new(super::baseline::RandomSearch { population: config.population }),
            StrategyKind::Grid => Box::new(super::baseline::GridSearch::new(space, config)),
            StrategyKind::Cmaes => Box::new(super::cmaes::Cmaes::new(space, config.population)),
            StrategyKind::Tpe => Box::new(super::tpe::Tpe::new(config.population)),
            StrategyKind::Nsga2 => Box::new(super::nsga2::Nsga2::new(config.clone())),
            StrategyKind::Hyperband => Box::new(super::hyperband::Hyperband::new(config.population)),
        }
    }
}
