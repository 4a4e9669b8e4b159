//! TPE, the Tree-structured Parzen Estimator (Bergstra et al. 2011) with Optuna's defaults for
//! its default sampler (independent per gene): the baseline Optuna's users compare against.
//! Written here: no maintained crate keeps its history in a form the checkpoint can restore.
//!
//! - The first [`STARTUP`] observations are uniform random.
//! - Then the observations so far are split into the best `γ(n) = min(⌈0.1·n⌉, 25)` (by rank:
//!   feasible first) and the rest; each gene gets two Parzen estimators, `l` over the best and
//!   `g` over the rest, each with a prior component. Numeric genes use truncated Gaussians on
//!   the normalised range (integers and stepped floats widened by half a step at each end) with
//!   Optuna's bandwidths (the larger gap to a sorted neighbour, clipped to
//!   `[range/min(100, n+1), range]`); categorical and boolean genes use weighted counts plus a
//!   uniform prior. Older observations weigh less once there are more than 25 (Optuna's ramp).
//! - Each new value is the best of [`CANDIDATES`] samples from `l` by `log l − log g`.
//!
//! Every generation proposes `population` genomes this way. The state is every observation
//! (genome, value, feasibility), saved in the checkpoint.

use super::genome::{Gene, Genome, Space, repair};
use super::operators::random_genome;
use super::problem::Fitness;
use super::strategy::{Strategy, floats, to_floats};
use crate::error::{Error, Result};
use rand::RngExt;
use rand::rngs::StdRng;
use rand_distr::{Distribution, StandardNormal};

/// Random observations before the model is used (Optuna's `n_startup_trials`).
pub const STARTUP: usize = 10;

/// Candidates drawn from `l` per value (Optuna's `n_ei_candidates`).
pub const CANDIDATES: usize = 24;

/// TPE over a space; its state is every observation so far.
#[derive(Debug, Clone, Default)]
pub struct Tpe {
    population: usize,
    genomes: Vec<Genome>,
    fitness: Vec<Fitness>,
}

impl Tpe {
    /// TPE proposing `population` genomes per generation.
    pub fn new(population: usize) -> Tpe {
        Tpe { population, ..Tpe::default() }
    }
}

impl Strategy for Tpe {
    fn initial(&mut self, space: &Space, n: usize, rng: &mut StdRng) -> Vec<Genome> {
        super::operators::random_generation(space, n, rng)
    }
    fn propose(&mut self, space: &Space, population: &[Genome], fitness: &[Fitness], rng: &mut StdRng) -> Vec<Genome> {
        self.genomes.extend(population.iter().cloned());
        self.fitness.extend(fitness.iter().copied());
        if self.genomes.len() < STARTUP {
            return super::operators::random_generation(space, self.population, rng);
        }
        let n = self.genomes.len();
        let order = super::operators::ranked(&self.fitness);
        let n_good = (n as f64 * 0.1).ceil().clamp(1.0, 25.0) as usize;
        let weights = ramp(n);
        let split =
            |idx: &[usize]| -> (Vec<usize>, Vec<f64>) { (idx.to_vec(), idx.iter().map(|&i| weights[i]).collect()) };
        let (good, wg) = split(&order[..n_good]);
        let (bad, wb) = split(&order[n_good..]);
        let mut out: Vec<Genome> = Vec::with_capacity(self.population);
        for _ in 0..self.population {
            let mut g = random_genome(space, rng);
            for (i, gene) in space.genes.iter().enumerate() {
                let xs = |idx: &[usize]| idx.iter().map(|&j| self.genomes[j][i]).collect::<Vec<f64>>();
                g[i] = match gene {
                    Gene::Real { .. } | Gene::Int { .. } => {
                        let (lo, hi) = widened(gene);
                        let l = Parzen::new(&xs(&good), &wg, lo, hi);
                        let b = Parzen::new(&xs(&bad), &wb, lo, hi);
                        best_of((0..CANDIDATES).map(|_| l.sample(rng)).collect(), |x| l.log_pdf(x) - b.log_pdf(x))
                    }
                    Gene::Cat { .. } | Gene::Bool => {
                        let k = gene.bounds().1 as usize + 1;
                        let l = counts(&xs(&good), &wg, k);
                        let b = counts(&xs(&bad), &wb, k);
                        let cands = (0..CANDIDATES).map(|_| super::operators::draw(&l, rng) as f64).collect();
                        best_of(cands, |x| l[x as usize].ln() - b[x as usize].ln())
                    }
                };
            }
            repair(space, &mut g);
            out.push(g);
        }
        out
    }
    fn save(&self) -> serde_json::Value {
        let value =
            |f: &Fitness| if f.value.is_finite() { serde_json::json!(f.value) } else { serde_json::Value::Null };
        let mut state = serde_json::json!({
            "genomes": self.genomes.iter().map(|g| floats(g)).collect::<Vec<_>>(),
            "values": self.fitness.iter().map(value).collect::<Vec<_>>(),
            "feasible": self.fitness.iter().map(|f| f.feasible).collect::<Vec<_>>(),
        });
        // Racing: which observations are partial (they rank below every full one).
        if self.fitness.iter().any(|f| f.partial.is_some()) {
            state["partial"] = self.fitness.iter().map(|f| serde_json::json!(f.partial)).collect();
        }
        state
    }
    fn load(&mut self, state: &serde_json::Value) -> Result<()> {
        let bad = || Error::config("the checkpoint's TPE state is not a list of observations");
        let list = |k: &str| state.get(k).and_then(serde_json::Value::as_array).ok_or_else(bad);
        self.genomes = list("genomes")?.iter().map(to_floats).collect::<Result<_>>()?;
        let values = list("values")?;
        let feasible = list("feasible")?;
        if values.len() != self.genomes.len() || feasible.len() != self.genomes.len() {
            return Err(bad());
        }
        self.fitness = values
            .iter()
            .zip(feasible)
            .map(|(v, f)| {
                let value = v.as_f64().unwrap_or(f64::NAN);
                Ok(Fitness { value, feasible: f.as_bool().ok_or_else(bad)?, ..Fitness::default() })
            })
            .collect::<Result<_>>()?;
        if let Some(partial) = state.get("partial").and_then(serde_json::Value::as_array) {
            for (f, p) in self.fitness.iter_mut().zip(partial) {
                f.partial = p.as_u64().map(|k| k as usize);
            }
        }
        Ok(())
    }
}

/// Optuna's default weights: 1 for up to 25 observations; beyond, the older ones ramp up
/// linearly from `1/n`, the latest 25 weigh 1.
fn ramp(n: usize) -> Vec<f64> {
    if n < 25 {
        return vec![1.0; n];
    }
    let k = n - 25;
    let mut w: Vec<f64> =
        (0..k)
            .map(|i| {
                if k == 1 {
                    1.0 / n as f64
                } else {
                    1.0 / n as f64 + (1.0 - 1.0 / n as f64) * i as f64 / (k - 1) as f64
                }
            })
            .collect();
    w.extend(std::iter::repeat_n(1.0, 25));
    w
}

/// The search range of a numeric gene: an integer or a stepped float is widened by half a step
/// at each end, so its end values are as likely as the others.
fn widened(gene: &Gene) -> (f64, f64) {
    let (lo, hi) = gene.bounds();
    match *gene {
        Gene::Int { .. } => (lo - 0.5, hi + 0.5),
        Gene::Real { step: Some(s), .. } => (lo - s / 2.0, hi + s / 2.0),
        _ => (lo, hi),
    }
}

fn best_of(cands: Vec<f64>, score: impl Fn(f64) -> f64) -> f64 {
    let mut best = (f64::NEG_INFINITY, cands[0]);
    for x in cands {
        let s = score(x);
        if s > best.0 {
            best = (s, x);
        }
    }
    best.1
}

/// Normalised weighted counts over `k` values with a uniform prior of total weight 1.
fn counts(xs: &[f64], w: &[f64], k: usize) -> Vec<f64> {
    let mut c = vec![1.0 / k as f64; k];
    for (&x, &wi) in xs.iter().zip(w) {
        c[(x.round().max(0.0) as usize).min(k - 1)] += wi;
    }
    let s: f64 = c.iter().sum();
    c.iter().map(|v| v / s).collect()
}

/// A mixture of Gaussians truncated to `[lo, hi]`: one per observation plus the prior (centre,
/// σ = the range), each with its weight.
struct Parzen {
    mu: Vec<f64>,
    sigma: Vec<f64>,
    w: Vec<f64>,
    lo: f64,
    hi: f64,
}

impl Parzen {
    fn new(xs: &[f64], weights: &[f64], lo: f64, hi: f64) -> Parzen {
        let range = (hi - lo).max(1e-12);
        let mut mu: Vec<f64> = xs.to_vec();
        mu.push(0.5 * (lo + hi));
        let mut w: Vec<f64> = weights.to_vec();
        w.push(1.0);
        // Bandwidths: the larger gap to a neighbour in sorted order (the ends count as neighbours).
        let mut order: Vec<usize> = (0..mu.len()).collect();
        order.sort_by(|&a, &b| mu[a].total_cmp(&mu[b]));
        let mut sigma = vec![range; mu.len()];
        let min_sigma = range / (100f64.min(mu.len() as f64 + 1.0));
        for (k, &i) in order.iter().enumerate() {
            let left = if k == 0 { mu[i] - lo } else { mu[i] - mu[order[k - 1]] };
            let right = if k + 1 == order.len() { hi - mu[i] } else { mu[order[k + 1]] - mu[i] };
            sigma[i] = left.max(right).clamp(min_sigma, range);
        }
        let prior = mu.len() - 1;
        sigma[prior] = range;
        let total: f64 = w.iter().sum();
        w.iter_mut().for_each(|x| *x /= total);
        Parzen { mu, sigma, w, lo, hi }
    }

    fn sample(&self, rng: &mut StdRng) -> f64 {
        let u: f64 = rng.random_range(0.0..1.0);
        let mut acc = 0.0;
        let mut k = self.w.len() - 1;
        for (i, &wi) in self.w.iter().enumerate() {
            acc += wi;
            if u < acc {
                k = i;
                break;
            }
        }
        // Truncation by rejection (at most 100 tries, then clamped).
        for _ in 0..100 {
            let z: f64 = StandardNormal.sample(rng);
            let x = self.mu[k] + self.sigma[k] * z;
            if (self.lo..=self.hi).contains(&x) {
                return x;
            }
        }
        self.mu[k].clamp(self.lo, self.hi)
    }

    fn log_pdf(&self, x: f64) -> f64 {
        let p: f64 = (0..self.mu.len())
            .map(|k| {
                let (m, s) = (self.mu[k], self.sigma[k]);
                let mass = phi((self.hi - m) / s) - phi((self.lo - m) / s);
                let z = (x - m) / s;
                self.w[k] * (-0.5 * z * z).exp() / (s * (2.0 * std::f64::consts::PI).sqrt() * mass.max(1e-300))
            })
            .sum();
        p.max(1e-300).ln()
    }
}

/// The standard normal distribution function, from `erfc` (Numerical Recipes' Chebyshev fit,
/// relative error below 1.2e-7).
fn phi(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.26551223
            + t * (1.00002368
                + t * (0.37409196
                    + t * (0.09678418
                        + t * (-0.18628806
                            + t * (0.27886807
                                + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
            .exp();
    if x >= 0.0 { 1.0 - 0.5 * r } else { 0.5 * r }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::testutil::Toy;
    use crate::evolve::{Config, StrategyKind, run};

    fn sphere3() -> Toy {
        Toy::sphere(3)
    }

    #[test]
    fn tpe_beats_random_search_on_the_sphere_and_the_mixed_problem() {
        for (toy, target) in [(sphere3 as fn() -> Toy, -0.05), (Toy::mixed, 1.45)] {
            let (mut tpe, mut random, mut wins) = (0, 0, 0); // runs reaching the target; TPE ahead
            for seed in 1..=3 {
                let c = Config {
                    population: 10,
                    max_generations: 30,
                    patience: 0,
                    seed,
                    strategy: StrategyKind::Tpe,
                    ..Config::default()
                };
                let a = run(&mut toy(), &c, vec![], &[], &mut (), None).unwrap();
                let r = Config { strategy: StrategyKind::Random, ..c };
                let b = run(&mut toy(), &r, vec![], &[], &mut (), None).unwrap();
                tpe += usize::from(a.best.fitness.value > target && a.best.fitness.feasible);
                random += usize::from(b.best.fitness.value > target && b.best.fitness.feasible);
                wins += usize::from(a.best.fitness.better_than(&b.best.fitness));
            }
            assert!(tpe >= 2 && wins >= 2, "{tpe} vs {random}, {wins} wins");
        }
    }

    #[test]
    fn parzen_estimators_are_densities_and_phi_is_right() {
        let p = Parzen::new(&[0.2, 0.3, 0.9], &[1.0, 1.0, 1.0], 0.0, 1.0);
        let n = 10_000;
        let integral: f64 = (0..n).map(|i| p.log_pdf((i as f64 + 0.5) / n as f64).exp()).sum::<f64>() / n as f64;
        assert!((integral - 1.0).abs() < 1e-3, "{integral}");
        assert!((phi(1.959964) - 0.975).abs() < 1e-6 && (phi(-1.0) - 0.158655).abs() < 1e-6);
        assert_eq!(ramp(3), vec![1.0; 3]);
        let w = ramp(30);
        assert!((w[0] - 1.0 / 30.0).abs() < 1e-12 && (w[4] - 1.0).abs() < 1e-12 && (w[29] - 1.0).abs() < 1e-12);
    }
}
