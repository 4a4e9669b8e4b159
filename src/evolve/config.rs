//! The settings of a run: search strategy, GA operators and stopping rules (defaults from
//! `algorithms.md` Part C).

use super::genome::Space;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// How correlated genes are recombined by crossover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Blend {
    /// Both children get the arithmetic mean of the parents' values.
    Mean,
    /// BLX-α: each child value uniform on `[min − α·d, max + α·d]`, `d = |x₁ − x₂|`, then clamped.
    #[default]
    Blx,
}

/// How the GA's mutation step sizes are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mutation {
    /// One step size for every individual: `mutation_sigma` × the gene's range.
    #[default]
    Fixed,
    /// Each individual carries one step size per numeric gene (a share of the gene's range,
    /// starting at `mutation_sigma`), mutated log-normally before its genes and inherited with
    /// them (Schwefel's self-adaptation).
    Adaptive,
}

/// Largest `blx_alpha` and `mutation_sigma`: shares of a parameter's range far beyond any useful
/// search step (the literature uses 0.1 to 0.5).
pub const MAX_FACTOR: f64 = 10.0;

/// Largest population: every genome of a generation is held, scored and journalled at once.
pub const MAX_POPULATION: usize = 1_000_000;

/// Settings of a run. `Config::default()` gives the Part C defaults with seed 0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// Genomes per generation (30).
    pub population: usize,
    /// Best genomes copied unchanged into the next generation (1).
    pub elites: usize,
    /// Tournament size for parent selection (2).
    pub tournament: usize,
    /// Probability that a pair of parents is recombined rather than cloned (0.9).
    pub crossover_prob: f64,
    /// α of BLX-α for correlated genes (0.5).
    pub blx_alpha: f64,
    /// Recombination of correlated genes (BLX-α).
    pub blend: Blend,
    /// Standard deviation of Gaussian mutation as a share of the gene's range (0.1).
    pub mutation_sigma: f64,
    /// Fixed or self-adaptive step sizes (fixed).
    pub mutation: Mutation,
    /// Per-gene mutation probability of Real/Int genes (`None`: 1/number of genes).
    pub mutation_rate: Option<f64>,
    /// Per-gene mutation probability of Cat/Bool genes (`None`: the same as Real/Int genes).
    pub cat_flip_prob: Option<f64>,
    /// Generations in all, generation 0 included (50).
    pub max_generations: usize,
    /// Stop after this many generations in a row without improvement (10; 0 disables).
    pub patience: usize,
    /// An improvement must exceed this much to reset patience (1e-4).
    pub epsilon: f64,
    /// `--epsilon auto`: an improvement must exceed the standard error of the fitness it
    /// improves on (its noise over documents) instead of `epsilon`.
    pub epsilon_auto: bool,
    /// Seed of all randomness of the run.
    pub seed: u64,
    /// Search strategy (GA).
    pub strategy: StrategyKind,
    /// `--racing`: new genomes race over growing stratified subsets of the documents and the
    /// clearly worse are dropped early ([`super::race`]). Written only when on.
    #[serde(skip_serializing_if = "is_false")]
    pub racing: bool,
    /// `--racing-alpha`: the level of racing's one-sided paired t-test (0.05). Written only when
    /// not the default.
    #[serde(skip_serializing_if = "is_default_alpha")]
    pub racing_alpha: f64,
    /// `--validation FRACTION`: the share of the documents held out (stratified by package, from
    /// the seed) to estimate how the tuned setting generalises; the search sees only the rest.
    /// Read by the run's set-up, not by the loop. Written only when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation: Option<f64>,
    /// `--time-limit SECONDS`: stop after the first generation that ends this long after the
    /// run started (a resumed run counts the time it already spent). The only stopping rule that
    /// depends on the machine: two runs with the same seed stop at the same generation only on
    /// the same machine under the same load. Written only when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_limit: Option<f64>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_default_alpha(a: &f64) -> bool {
    a.to_bits() == super::race::ALPHA.to_bits()
}

impl Default for Config {
    fn default() -> Self {
        Config {
            population: 30,
            elites: 1,
            tournament: 2,
            crossover_prob: 0.9,
            blx_alpha: 0.5,
            blend: Blend::Blx,
            mutation_sigma: 0.1,
            mutation: Mutation::Fixed,
            mutation_rate: None,
            cat_flip_prob: None,
            max_generations: 50,
            patience: 10,
            epsilon: 1e-4,
            epsilon_auto: false,
            seed: 0,
            strategy: StrategyKind::Ga,
            racing: false,
            racing_alpha: super::race::ALPHA,
            validation: None,
            time_limit: None,
        }
    }
}

impl Config {
    /// Checks the ranges of all settings.
    pub fn validate(&self) -> Result<()> {
        let bad = |msg: String| Err(Error::config(msg));
        if self.population == 0 || self.max_generations == 0 || self.tournament == 0 {
            return bad("population, max_generations and tournament must be at least 1".into());
        }
        if self.elites >= self.population && self.strategy == StrategyKind::Ga {
            return bad(format!("elites must be below population ({}), but got {}", self.population, self.elites));
        }
        let probs = [("crossover_prob", Some(self.crossover_prob)), ("mutation_rate", self.mutation_rate)];
        for (name, p) in probs.into_iter().chain([("cat_flip_prob", self.cat_flip_prob)]) {
            if let Some(p) = p.filter(|p| !(0.0..=1.0).contains(p)) {
                return bad(format!("{name} must be in [0, 1], but got {p}"));
            }
        }
        // Upper bounds keep every operator finite: BLX intervals and mutation steps are these
        // factors times a parameter's range; fitness lies in [0, 1], so a larger epsilon means
        // that nothing can ever count as an improvement.
        let bounded = [
            ("blx_alpha", self.blx_alpha, MAX_FACTOR),
            ("mutation_sigma", self.mutation_sigma, MAX_FACTOR),
            ("epsilon", self.epsilon, 1.0),
        ];
        for (name, x, max) in bounded {
            if !(x >= 0.0 && x <= max) {
                let x = if x.abs() >= 1e6 { format!("{x:e}") } else { format!("{x}") };
                return bad(format!("{name} must be in [0, {max}], but got {x}"));
            }
        }
        if !(self.racing_alpha >= 0.001 && self.racing_alpha <= 0.5) {
            return bad(format!("--racing-alpha must be in [0.001, 0.5], but got {}", self.racing_alpha));
        }
        if self.racing && self.strategy == StrategyKind::Hyperband {
            return bad("--racing does not combine with --strategy hyperband, which already scores most settings on a share of the documents".into());
        }
        if let Some(v) = self.validation.filter(|v| !(*v > 0.0 && *v <= 0.9)) {
            return bad(format!("--validation must be in (0, 0.9], but got {v}"));
        }
        if let Some(t) = self.time_limit.filter(|t| !(*t > 0.0 && t.is_finite())) {
            return bad(format!("--time-limit must be a positive number of seconds, but got {t}"));
        }
        if self.population > MAX_POPULATION {
            return bad(format!("population must be at most {MAX_POPULATION}, but got {}", self.population));
        }
        Ok(())
    }

    /// The per-gene mutation probabilities `(numeric, categorical)` for `n` genes.
    pub fn mutation_probs(&self, n: usize) -> (f64, f64) {
        let numeric = self.mutation_rate.unwrap_or(1.0 / n.max(1) as f64);
        (numeric, self.cat_flip_prob.unwrap_or(numeric))
    }

    /// The smallest improvement over `reference` that resets patience: `epsilon`, or with
    /// `epsilon_auto` the reference's standard error.
    pub fn min_improvement(&self, reference: &super::problem::Fitness) -> f64 {
        if self.epsilon_auto { reference.sem } else { self.epsilon }
    }

    /// Whether settings are scored on shares of the documents (racing or a multi-fidelity
    /// strategy).
    pub fn staged(&self) -> bool {
        self.racing || self.strategy.multi_fidelity()
    }

    /// The evaluation budget of the baselines: `population × max_generations`.
    pub fn budget(&self) -> usize {
        self.population.saturating_mul(self.max_generations)
    }
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
    /// Hyperband: successive halving over fidelities in brackets ([`super::hyperband`]).
    Hyperband,
}

impl StrategyKind {
    /// Every strategy, for listings and `--strategy` parsing.
    pub const ALL: [StrategyKind; 7] = [
        StrategyKind::Ga,
        StrategyKind::Random,
        StrategyKind::Grid,
        StrategyKind::Cmaes,
        StrategyKind::Tpe,
        StrategyKind::Nsga2,
        StrategyKind::Hyperband,
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
            StrategyKind::Hyperband => "hyperband",
        }
    }

    /// Whether the strategy scores settings at fidelities below a full evaluation (a
    /// multi-fidelity strategy: its journal has the `documents` and `fidelity` columns).
    pub fn multi_fidelity(self) -> bool {
        self == StrategyKind::Hyperband
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_bad_values_are_named() {
        assert!(Config::default().validate().is_ok());
        let c = Config { crossover_prob: 1.5, ..Config::default() };
        assert_eq!(c.validate().unwrap_err().message, "crossover_prob must be in [0, 1], but got 1.5");
        let c = Config { elites: 30, ..Config::default() };
        assert!(c.validate().is_err());
        let c = Config { mutation_sigma: f64::NAN, ..Config::default() };
        assert!(c.validate().is_err());
        assert_eq!(Config::default().mutation_probs(4), (0.25, 0.25));
    }

    #[test]
    fn huge_or_nan_operator_settings_are_rejected() {
        let err = |c: Config| c.validate().unwrap_err().message;
        assert_eq!(
            err(Config { blx_alpha: 1e308, ..Config::default() }),
            "blx_alpha must be in [0, 10], but got 1e308"
        );
        assert_eq!(
            err(Config { mutation_sigma: 1e308, ..Config::default() }),
            "mutation_sigma must be in [0, 10], but got 1e308"
        );
        assert_eq!(err(Config { epsilon: f64::NAN, ..Config::default() }), "epsilon must be in [0, 1], but got NaN");
        assert_eq!(err(Config { epsilon: -1.0, ..Config::default() }), "epsilon must be in [0, 1], but got -1");
        assert!(err(Config { population: 0, ..Config::default() }).contains("population"));
        assert!(err(Config { population: 100_000_000, ..Config::default() }).contains("at most 1000000"));
        assert!(Config { blx_alpha: 10.0, mutation_sigma: 0.0, epsilon: 1.0, ..Config::default() }.validate().is_ok());
    }

    #[test]
    fn config_reads_from_partial_yaml() {
        let c: Config = serde_saphyr::from_str("population: 10\nstrategy: grid\nblend: mean\n").unwrap();
        assert_eq!((c.population, c.strategy, c.blend, c.elites), (10, StrategyKind::Grid, Blend::Mean, 1));
    }
}
