//! Tests of whole runs on the toy problems of [`super::testutil`].

use super::testutil::Toy;
use super::*;
use std::collections::HashSet;

/// Records every generation's state and stops after `stop_after` generations if set.
#[derive(Default)]
struct Recorder {
    states: Vec<State>,
    infos: Vec<GenerationInfo>,
    trials: usize,
    stop_after: Option<usize>,
}

impl Observer for Recorder {
    fn on_trials(&mut self, trials: &[Trial]) -> crate::error::Result<()> {
        self.trials += trials.len();
        Ok(())
    }
    fn on_generation(&mut self, info: &GenerationInfo, state: &State) -> crate::error::Result<()> {
        assert_eq!(info.generation, state.generation);
        self.infos.push(info.clone());
        self.states.push(state.clone());
        Ok(())
    }
    fn should_stop(&self) -> bool {
        self.stop_after.is_some_and(|n| self.states.len() >= n)
    }
}

fn config(strategy: StrategyKind, seed: u64) -> Config {
    Config { population: 20, max_generations: 40, seed, strategy, ..Config::default() }
}

fn run_toy(toy: &mut Toy, c: &Config, initial: Vec<Genome>) -> (Outcome, Recorder) {
    let mut rec = Recorder::default();
    let out = run(toy, c, initial, &[], &mut rec, None).unwrap();
    (out, rec)
}

#[test]
fn ga_solves_sphere_and_one_max() {
    let c = Config { population: 30, max_generations: 150, patience: 40, ..config(StrategyKind::Ga, 1) };
    let (out, _) = run_toy(&mut Toy::sphere(3), &c, vec![]);
    assert!(out.best.fitness.value > -0.01, "{:?}", out.best);
    let (out, _) = run_toy(&mut Toy::one_max(24), &c, vec![]);
    assert!(out.best.fitness.value > 0.999, "{:?}", out.best);
    assert_eq!(out.reason, TerminationReason::Patience);
}

#[test]
fn ga_finds_the_feasible_optimum_of_the_mixed_problem() {
    let c = Config { max_generations: 100, patience: 30, ..config(StrategyKind::Ga, 2) };
    let (out, _) = run_toy(&mut Toy::mixed(), &c, vec![]);
    assert!(out.best.fitness.feasible && out.best.fitness.value > 1.45, "{:?}", out.best);
}

#[test]
fn elitism_never_loses_the_best() {
    for seed in 0..5 {
        let (out, rec) = run_toy(&mut Toy::mixed(), &config(StrategyKind::Ga, seed), vec![]);
        let mut previous: Option<Fitness> = None;
        for g in 0..=out.state.generation {
            let best = out.trials.iter().filter(|t| t.generation == g).map(|t| t.fitness).max_by(|a, b| a.rank_cmp(b));
            let best = best.unwrap();
            assert!(previous.is_none_or(|p| !p.better_than(&best)), "generation {g} lost the best");
            previous = Some(best);
        }
        assert!(rec.infos.windows(2).all(|w| !w[0].best_so_far.better_than(&w[1].best_so_far)));
        assert!(out.state.best_history.windows(2).all(|w| w[0] <= w[1]));
    }
}

#[test]
fn same_seed_same_trials_other_seed_other_trials() {
    for strategy in [StrategyKind::Ga, StrategyKind::Random] {
        let a = run_toy(&mut Toy::mixed(), &config(strategy, 7), vec![]).0;
        let b = run_toy(&mut Toy::mixed(), &config(strategy, 7), vec![]).0;
        let c = run_toy(&mut Toy::mixed(), &config(strategy, 8), vec![]).0;
        assert_eq!(a, b);
        assert_ne!(a.trials, c.trials);
    }
}

/// Every strategy and option the resume test covers.
fn resumable_configs() -> Vec<Config> {
    let mut v: Vec<Config> = StrategyKind::ALL.into_iter().map(|s| config(s, 3)).collect();
    v.push(Config { mutation: Mutation::Adaptive, ..config(StrategyKind::Ga, 3) });
    v.push(Config { epsilon_auto: true, ..config(StrategyKind::Ga, 3) });
    v
}

#[test]
fn resuming_from_any_generation_reproduces_the_run() {
    for c in resumable_configs() {
        let strategy = (c.strategy, c.mutation);
        let c = Config { max_generations: 12, patience: 0, ..c };
        let initial = vec![vec![0.5, 50.0, 1.0, 0.0]];
        let (full, rec) = run_toy(&mut Toy::mixed(), &c, initial.clone());
        assert!(rec.states.len() >= 11, "{strategy:?}: {}", rec.states.len());
        for state in &rec.states {
            let yaml = serde_saphyr::to_string(state).unwrap();
            let state: State = serde_saphyr::from_str(&yaml).unwrap();
            let prior = &full.trials[..state.trials];
            // The journal may run ahead of the checkpoint: the extra trials must be ignored.
            let journal = &full.trials[..(state.trials + 5).min(full.trials.len())];
            let mut toy = Toy::mixed();
            let out = run(&mut toy, &c, initial.clone(), journal, &mut (), Some(state)).unwrap();
            let resumed: Vec<Trial> = prior.iter().cloned().chain(out.trials).collect();
            assert_eq!(resumed, full.trials, "{strategy:?}");
            assert_eq!((out.reason, &out.best, &out.state), (full.reason, &full.best, &full.state));
        }
    }
}

#[test]
fn adaptive_mutation_runs_deterministically_and_solves_the_sphere() {
    let c = Config { population: 30, max_generations: 150, patience: 40, ..config(StrategyKind::Ga, 1) };
    let adaptive = Config { mutation: Mutation::Adaptive, ..c.clone() };
    let (out, rec) = run_toy(&mut Toy::sphere(3), &adaptive, vec![vec![0.0; 3]]);
    assert!(out.best.fitness.value > -0.01, "{:?}", out.best);
    assert_eq!(run_toy(&mut Toy::sphere(3), &adaptive, vec![vec![0.0; 3]]).0, out);
    let steps = &rec.states.last().unwrap().strategy_state["steps"];
    assert_eq!(steps.as_array().unwrap().len(), 30, "one row of step sizes per individual");
    let fixed = run_toy(&mut Toy::sphere(3), &c, vec![vec![0.0; 3]]).0;
    assert_ne!(fixed.trials, out.trials);
    assert_eq!(rec.states[0].strategy_state["steps"][0][0], serde_json::json!(0.1));
}

#[test]
fn epsilon_auto_needs_an_improvement_beyond_the_standard_error() {
    // Values rise by 1e-7 a step (at most 0.1), but each carries a standard error of 0.5: with
    // `epsilon_auto` no improvement counts and patience runs out; with the fixed epsilon the
    // same run goes on.
    let space = Space {
        genes: vec![Gene::Int { lo: 0, hi: 1_000_000 }],
        correlated: vec![],
        conditions: vec![],
        ranks: vec![],
    };
    let f = |g: &[f64]| Fitness { sem: 0.5, ..Fitness::of(g[0] * 1e-7) };
    let c = Config { patience: 3, max_generations: 30, ..config(StrategyKind::Ga, 2) };
    let auto = Config { epsilon_auto: true, ..c.clone() };
    let (out, _) = run_toy(&mut Toy::new(space.clone(), f), &auto, vec![]);
    assert_eq!((out.reason, out.state.generation), (TerminationReason::Patience, 3));
    let (out, _) = run_toy(&mut Toy::new(space, f), &c, vec![]);
    assert!(out.state.generation > 3, "{:?}", out.reason);
}

#[test]
fn the_cache_evaluates_each_genome_once() {
    let c = Config { patience: 0, ..config(StrategyKind::Ga, 4) };
    let mut toy = Toy::one_max(6);
    let (out, rec) = run_toy(&mut toy, &c, vec![]);
    let keys: HashSet<String> = out.trials.iter().map(|t| key(Toy::one_max(6).space(), &t.genome)).collect();
    assert_eq!(toy.evaluations, keys.len(), "each distinct genome evaluated exactly once");
    assert_eq!(out.trials.iter().filter(|t| !t.cached).count(), keys.len());
    assert!(toy.calls <= rec.states.len(), "at most one batch per generation");
    assert!(toy.calls < 40 && keys.len() <= 64, "only 64 genomes exist: later generations are all cached");
    assert_eq!(out.state.evaluations, keys.len());
    assert_eq!(rec.trials, out.trials.len());
    assert_eq!(out.trials.len(), 40 * 20);
}

#[test]
fn prior_trials_seed_the_cache() {
    let c = Config { max_generations: 5, patience: 0, ..config(StrategyKind::Ga, 5) };
    let (first, _) = run_toy(&mut Toy::mixed(), &c, vec![]);
    let mut toy = Toy::mixed();
    let again = run(&mut toy, &c, vec![], &first.trials, &mut (), None).unwrap();
    assert_eq!(toy.calls, 0);
    assert!(again.trials.iter().all(|t| t.cached));
}

#[test]
fn injected_genomes_come_first_repaired() {
    let initial = vec![vec![0.304, 69.6, 2.0, 1.0], vec![2.0, -5.0, 1.2, 0.2]];
    let c = Config { max_generations: 1, ..config(StrategyKind::Ga, 6) };
    let (out, _) = run_toy(&mut Toy::mixed(), &c, initial);
    let toy = Toy::mixed();
    let space = toy.space();
    assert_eq!(key(space, &out.trials[0].genome), "0.3,70,2,1");
    assert_eq!(key(space, &out.trials[1].genome), "1,0,1,0");
    assert_eq!((out.trials.len(), out.reason), (20, TerminationReason::MaxGenerations));
    assert!((out.best.fitness.value - 1.5).abs() < 1e-12);
    let bad = run(&mut Toy::mixed(), &c, vec![vec![1.0]], &[], &mut (), None);
    assert!(bad.is_err());
}

#[test]
fn stopping_by_the_observer_finishes_the_generation() {
    let mut rec = Recorder { stop_after: Some(4), ..Recorder::default() };
    let out = run(&mut Toy::mixed(), &config(StrategyKind::Ga, 1), vec![], &[], &mut rec, None).unwrap();
    assert_eq!((out.reason, out.state.generation, out.trials.len()), (TerminationReason::Interrupted, 3, 80));
    assert_eq!(rec.states.len(), 4);
}

#[test]
fn grid_runs_until_exhausted() {
    let space = Space {
        genes: vec![Gene::Int { lo: 0, hi: 4 }, Gene::Bool, Gene::Cat { n: 3 }],
        correlated: vec![],
        conditions: vec![],
        ranks: vec![],
    };
    let mut toy = Toy::new(space.clone(), |g| Fitness::of(g.iter().sum()));
    let c = Config { population: 7, max_generations: 10, patience: 0, ..config(StrategyKind::Grid, 0) };
    let (out, rec) = run_toy(&mut toy, &c, vec![]);
    assert_eq!(out.reason, TerminationReason::BudgetExhausted);
    assert_eq!((out.trials.len(), rec.states.len(), toy.evaluations), (30, 5, 30));
    let keys: HashSet<String> = out.trials.iter().map(|t| key(&space, &t.genome)).collect();
    assert_eq!(keys.len(), 30);
    assert!((out.best.fitness.value - 7.0).abs() < 1e-12);
}

#[test]
fn random_baseline_runs_with_the_same_budget() {
    let c = Config { patience: 0, ..config(StrategyKind::Random, 9) };
    let (out, _) = run_toy(&mut Toy::sphere(2), &c, vec![vec![1.0, 1.0]]);
    assert_eq!((out.trials.len(), out.reason), (c.budget(), TerminationReason::MaxGenerations));
    assert!(out.trials.iter().all(|t| t.genome.iter().all(|x| (-5.0..=5.0).contains(x))));
    assert_eq!(out.best.number, 0, "the injected optimum stays best");
}

#[test]
fn resume_checks_seed_and_strategy() {
    let c = Config { max_generations: 2, ..config(StrategyKind::Ga, 1) };
    let (out, _) = run_toy(&mut Toy::mixed(), &c, vec![]);
    let other = Config { seed: 2, ..c };
    let err = run(&mut Toy::mixed(), &other, vec![], &out.trials, &mut (), Some(out.state)).unwrap_err();
    assert!(err.message.contains("seed 1"), "{}", err.message);
}

#[test]
fn patience_zero_stops_once_a_finite_space_is_exhausted() {
    // 3 × 2 settings: without the exhaustion rule this ran a million cached generations.
    let space = Space {
        genes: vec![Gene::Int { lo: 0, hi: 2 }, Gene::Bool],
        correlated: vec![],
        conditions: vec![],
        ranks: vec![],
    };
    let mut toy = Toy::new(space, |g| Fitness::of(g.iter().sum()));
    for strategy in [StrategyKind::Ga, StrategyKind::Random] {
        let c = Config { population: 4, max_generations: 1_000_000, patience: 0, ..config(strategy, 3) };
        let (out, _) = run_toy(&mut toy, &c, vec![]);
        assert_eq!(out.reason, TerminationReason::SpaceExhausted, "{strategy:?}");
        assert!(out.state.generation < 1000, "{strategy:?} ran {} generations", out.state.generation);
        assert!((out.best.fitness.value - 3.0).abs() < 1e-12);
    }
}

/// A problem over instances: the fitness of a genome on a subset is the mean over it of
/// `x₀ − (i mod 7)/100` (a noisy instance term); with `groups`, instances share a cost in groups.
struct Staged {
    space: Space,
    n: usize,
    groups: Option<Vec<usize>>,
    /// The subset sizes of each `evaluate_subset` call.
    sizes: Vec<usize>,
}

impl Staged {
    fn new(n: usize, groups: Option<Vec<usize>>) -> Staged {
        let space = Space {
            genes: vec![Gene::Real { lo: 0.0, hi: 1.0, step: Some(0.001) }],
            correlated: vec![],
            conditions: vec![],
            ranks: vec![],
        };
        Staged { space, n, groups, sizes: vec![] }
    }
}

impl Problem for Staged {
    fn space(&self) -> &Space {
        &self.space
    }
    fn evaluate_batch(&mut self, genomes: &[Genome]) -> crate::error::Result<Vec<Fitness>> {
        let all: Vec<usize> = (0..self.n).collect();
        self.evaluate_subset(genomes, &all)
    }
    fn instances(&self) -> usize {
        self.n
    }
    fn evaluate_subset(&mut self, genomes: &[Genome], subset: &[usize]) -> crate::error::Result<Vec<Fitness>> {
        self.sizes.push(subset.len());
        let term = |g: &Genome, i: usize| g[0] - (i % 7) as f64 / 100.0;
        Ok(genomes
            .iter()
            .map(|g| Fitness::of(subset.iter().map(|&i| term(g, i)).sum::<f64>() / subset.len() as f64))
            .collect())
    }
    fn groups(&self) -> Option<Vec<usize>> {
        self.groups.clone()
    }
}

#[test]
fn hyperband_scores_rungs_on_growing_shares_and_resumes_exactly() {
    let c = Config { population: 9, max_generations: 9, patience: 0, ..config(StrategyKind::Hyperband, 4) };
    // 90 instances: 1/9 → 10, 1/3 → 30, then all; five groups of 18: whole groups, 18, 36, 90.
    for (groups, sizes) in [(None, [10, 30, 90]), (Some((0..90).map(|i| i % 5).collect::<Vec<_>>()), [18, 36, 90])] {
        let mut p = Staged::new(90, groups.clone());
        let mut rec = Recorder::default();
        let full = run(&mut p, &c, vec![], &[], &mut rec, None).unwrap();
        let at = |g: usize| -> Vec<Option<usize>> {
            full.trials.iter().filter(|t| t.generation == g).map(|t| t.fitness.partial).collect()
        };
        // Bracket s = 2: 9 settings at the lowest share, the best 3 at the middle one, 1 fully.
        assert_eq!(at(0), vec![Some(sizes[0]); 9]);
        assert_eq!(at(1), vec![Some(sizes[1]); 3]);
        assert_eq!(at(2), vec![None]);
        // The promoted setting is the best of its rung.
        let best0 = full.trials.iter().filter(|t| t.generation == 0).max_by(|a, b| a.fitness.rank_cmp(&b.fitness));
        assert_eq!(full.trials.iter().find(|t| t.generation == 2).map(|t| &t.genome), best0.map(|t| &t.genome));
        // Bracket s = 1: ⌈9 · 3/2 · 3/9⌉ = 5 at the middle share, 1 fully; s = 0: 3 fully.
        assert_eq!(at(3), vec![Some(sizes[1]); 5]);
        assert_eq!((at(4), at(5)), (vec![None], vec![None; 3]));
        assert!(full.best.fitness.partial.is_none());
        assert_eq!(&p.sizes[..3], &sizes);
        for state in &rec.states {
            let prior = &full.trials[..state.trials];
            let mut q = Staged::new(90, groups.clone());
            let out = run(&mut q, &c, vec![], prior, &mut (), Some(state.clone())).unwrap();
            let resumed: Vec<Trial> = prior.iter().cloned().chain(out.trials).collect();
            assert_eq!(resumed, full.trials);
            assert_eq!((&out.best, &out.state), (&full.best, &full.state));
        }
    }
    let racing = Config { racing: true, ..c };
    assert!(racing.validate().unwrap_err().message.contains("does not combine"));
}
