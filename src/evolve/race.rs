//! Racing over instances (`--racing`; irace's idea, Birattari et al. 2002, with a paired t-test
//! instead of Friedman's): a generation's new genomes are first scored on a small stratified
//! subset of the instances (documents); those that a **one-sided paired t-test at α = 0.05**
//! over the shared instances finds worse than the reference are dropped; the survivors go on to
//! twice as many instances, and so on until every instance.
//!
//! - The instance order is fixed for the run: a permutation from the seed, stratified by
//!   [`Problem::strata`] (each stratum shuffled, strata interleaved in proportion to their
//!   sizes), so every prefix is a stratified sample and every genome of the run is compared on
//!   the same instances.
//! - Stages: the first `max(10, ⌈n/8⌉)` instances, then doubling, ending with all `n`
//!   (120 documents: 15, 30, 60, 120).
//! - Reference: the best full evaluation so far (the incumbent); in generation 0, before any
//!   full evaluation exists, the survivor with the largest mean on the stage's instances.
//! - Test: `d_i = term(candidate)_i − term(reference)_i` over the stage's instances; the
//!   candidate is dropped when `mean(d) < 0` and `t = mean(d) / (sd(d)/√k) < −t(0.95, k−1)`
//!   (all `d_i` equal and negative: dropped).
//! - A dropped genome is a trial with a partial fitness ([`Fitness::partial`] = the instances it
//!   saw), which ranks below every full one; it stays dropped (a later proposal of the same
//!   genome is served from the cache), so the journal alone rebuilds every decision on resume.
//!
//! Racing needs an objective that is a mean over instances ([`Problem::instance_terms`]).

use super::cache::Cache;
use super::genome::{Genome, key};
use super::problem::{Fitness, Problem};
use super::trial::Trial;
use crate::error::{Error, Result};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::collections::HashMap;

/// The default level of the one-sided paired t-test that drops a genome (`--racing-alpha`).
pub const ALPHA: f64 = 0.05;

/// The smallest first stage (instances).
pub const FIRST_STAGE: usize = 10;

/// The racing plan of a run: the instance order and the stage sizes.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Every instance once, stratified prefixes first.
    pub order: Vec<usize>,
    /// Instances seen after each stage, increasing, the last = all.
    pub stages: Vec<usize>,
    /// The level of the test.
    pub alpha: f64,
    /// With groups ([`Problem::groups`]): the prefix sizes that end a group, increasing, the
    /// last = all. A subset is then always a union of whole groups.
    pub bounds: Vec<usize>,
}

impl Plan {
    /// The plan for instances of `strata` (one stratum id per instance), from `seed`, testing at
    /// level `alpha`.
    pub fn new(strata: &[usize], seed: u64, alpha: f64) -> Plan {
        let n = strata.len();
        let mut rng = StdRng::seed_from_u64(seed ^ 0x5241_4345_5241_4345);
        let all: Vec<usize> = (0..n).collect();
        Plan { order: stratified(strata, &all, &mut rng), stages: stages(n), alpha, bounds: vec![] }
    }

    /// The plan for a problem whose instances share a cost within `groups` (one group id per
    /// instance; e.g. the folds of a family fitted on gold, whose pages one fold model scores):
    /// the groups in order of their ids, each in stratified order, and stages that end groups
    /// (the first that holds at least `max(10, ⌈n/8⌉)` instances, then at least doubling).
    pub fn grouped(strata: &[usize], groups: &[usize], seed: u64, alpha: f64) -> Plan {
        let n = strata.len();
        let mut rng = StdRng::seed_from_u64(seed ^ 0x5241_4345_5241_4345);
        let mut ids: Vec<usize> = groups.to_vec();
        ids.sort_unstable();
        ids.dedup();
        let mut order = Vec::with_capacity(n);
        let mut bounds = Vec::with_capacity(ids.len());
        for id in ids {
            let members: Vec<usize> = (0..n).filter(|&i| groups[i] == id).collect();
            order.extend(stratified(strata, &members, &mut rng));
            bounds.push(order.len());
        }
        let mut stage_sizes = Vec::new();
        for k in stages(n) {
            let b = bounds.iter().copied().find(|&b| b >= k).unwrap_or(n);
            if stage_sizes.last() != Some(&b) {
                stage_sizes.push(b);
            }
        }
        Plan { order, stages: stage_sizes, alpha, bounds }
    }

    /// The instances of stage `s`, sorted (so that scores are summed in instance order).
    fn subset(&self, s: usize) -> Vec<usize> {
        self.prefix(self.stages[s])
    }

    /// The first `k` instances of the order, sorted.
    pub fn prefix(&self, k: usize) -> Vec<usize> {
        let mut v = self.order[..k.min(self.order.len())].to_vec();
        v.sort_unstable();
        v
    }

    /// The number of instances that score a genome at fidelity `share` of a full evaluation:
    /// at least `share · n` and [`FIRST_STAGE`] (or all when fewer), rounded up to the end of
    /// a group when there are groups.
    pub fn size_at(&self, share: f64) -> usize {
        let n = self.order.len();
        let k = ((share * n as f64).ceil() as usize).max(FIRST_STAGE).min(n);
        self.bounds.iter().copied().find(|&b| b >= k).unwrap_or(k)
    }
}

/// The members of `members` (instance ids with strata `strata`) in stratified order: each
/// stratum shuffled, strata interleaved in proportion to their sizes.
fn stratified(strata: &[usize], members: &[usize], rng: &mut StdRng) -> Vec<usize> {
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for &i in members {
        groups.entry(strata[i]).or_default().push(i);
    }
    let mut ids: Vec<usize> = groups.keys().copied().collect();
    ids.sort_unstable();
    ids.shuffle(rng);
    // Position of the j-th member of a stratum of size m: (j + 0.5) / m; ties keep the
    // shuffled stratum order, so singletons come in random order.
    let mut keyed: Vec<(f64, usize, usize)> = Vec::with_capacity(members.len());
    for (rank, id) in ids.iter().enumerate() {
        let members = groups.get_mut(id).expect("stratum present");
        members.shuffle(rng);
        let m = members.len() as f64;
        keyed.extend(members.iter().enumerate().map(|(j, &i)| ((j as f64 + 0.5) / m, rank, i)));
    }
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    keyed.into_iter().map(|(_, _, i)| i).collect()
}

/// Stage sizes for `n` instances: `max(10, ⌈n/8⌉)`, doubling, ending at `n`.
pub fn stages(n: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut k = FIRST_STAGE.max(n.div_ceil(8));
    while k < n {
        out.push(k);
        k *= 2;
    }
    out.push(n);
    out
}

/// The one-sided 95 % quantile of Student's t with `df` degrees of freedom (Cornish–Fisher
/// expansion around the normal quantile; exact table below 10, within 0.002 above).
pub fn t95(df: usize) -> f64 {
    const TABLE: [f64; 10] = [f64::INFINITY, 6.3138, 2.9200, 2.3534, 2.1318, 2.0150, 1.9432, 1.8946, 1.8595, 1.8331];
    if df < TABLE.len() {
        return TABLE[df];
    }
    cornish_fisher(1.644_853_626_951_472_2, df)
}

/// The `q` quantile (0.5 < q < 1) of Student's t with `df` ≥ 9 degrees of freedom: the
/// Cornish–Fisher expansion around the normal quantile (within 0.01 for q ≤ 0.99, df ≥ 9).
pub fn t_quantile(q: f64, df: usize) -> f64 {
    cornish_fisher(normal_quantile(q), df)
}

/// Student's t quantile with `df` degrees of freedom from the normal quantile `z`.
fn cornish_fisher(z: f64, df: usize) -> f64 {
    let v = df as f64;
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * v)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v * v * v)
}

/// Whether `candidate` is worse than `reference` by the one-sided paired t-test at [`ALPHA`]
/// over paired terms (same instances, same order).
pub fn worse(candidate: &[f64], reference: &[f64]) -> bool {
    worse_at(candidate, reference, ALPHA)
}

/// [`worse`] at level `alpha`.
pub fn worse_at(candidate: &[f64], reference: &[f64], alpha: f64) -> bool {
    let k = candidate.len().min(reference.len());
    if k < 2 {
        return false;
    }
    let d: Vec<f64> = candidate.iter().zip(reference).map(|(c, r)| c - r).collect();
    let mean = d.iter().sum::<f64>() / k as f64;
    if mean >= 0.0 {
        return false;
    }
    let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (k - 1) as f64;
    if var <= 0.0 {
        return true;
    }
    let crit = if alpha.to_bits() == ALPHA.to_bits() { t95(k - 1) } else { t_quantile(1.0 - alpha, (k - 1).max(9)) };
    mean / (var / k as f64).sqrt() < -crit
}

/// The outcome of racing one generation.
pub struct Raced {
    /// One trial per genome, in order.
    pub trials: Vec<Trial>,
    /// Instance evaluations spent on this generation's new genomes.
    pub documents: usize,
}

/// Races one generation: cached genomes (full, or dropped earlier) are served from `cache`;
/// the new ones race as the module describes. `incumbent` is the best full trial so far.
pub fn evaluate(
    problem: &mut dyn Problem,
    cache: &mut Cache,
    plan: &Plan,
    genomes: Vec<Genome>,
    generation: usize,
    first: usize,
    incumbent: Option<&Trial>,
) -> Result<Raced> {
    let alpha = plan.alpha;
    let space = problem.space().clone();
    let keys: Vec<String> = genomes.iter().map(|g| key(&space, g)).collect();
    let fresh = super::cache::first_unknown(&keys, |k| cache.known(k).is_some());
    let mut alive = fresh.clone();
    let mut result: HashMap<usize, Fitness> = HashMap::new();
    let mut documents = 0;
    let last = plan.stages.len() - 1;
    let mut seen = 0;
    for s in 0..=last {
        if alive.is_empty() {
            break;
        }
        let subset = plan.subset(s);
        let batch: Vec<Genome> = alive.iter().map(|&i| genomes[i].clone()).collect();
        let fit = problem.evaluate_subset(&batch, &subset)?;
        if fit.len() != batch.len() {
            return Err(Error::bug("evaluate_subset returned the wrong number of fitnesses"));
        }
        documents += alive.len() * (plan.stages[s] - seen);
        seen = plan.stages[s];
        if s == last {
            for (&i, f) in alive.iter().zip(fit) {
                result.insert(i, Fitness { partial: None, ..f });
            }
            break;
        }
        let mut terms = Vec::with_capacity(alive.len());
        for g in &batch {
            let t = problem.instance_terms(g, &subset)?;
            terms.push(t.ok_or_else(|| Error::config("--racing needs an objective that is a mean over documents"))?);
        }
        let reference: Vec<f64> = match incumbent {
            Some(t) => problem
                .instance_terms(&t.genome, &subset)?
                .ok_or_else(|| Error::config("--racing needs an objective that is a mean over documents"))?,
            None => {
                let mean = |x: &Vec<f64>| x.iter().sum::<f64>() / x.len().max(1) as f64;
                let best = (0..terms.len()).fold(0, |b, j| if mean(&terms[j]) > mean(&terms[b]) { j } else { b });
                terms[best].clone()
            }
        };
        let mut next = Vec::with_capacity(alive.len());
        for ((&i, f), t) in alive.iter().zip(fit).zip(&terms) {
            if worse_at(t, &reference, alpha) {
                result.insert(i, Fitness { partial: Some(plan.stages[s]), ..f });
            } else {
                next.push(i);
            }
        }
        alive = next;
    }
    for &i in &fresh {
        cache.insert(keys[i].clone(), result[&i]);
    }
    let mut keep: Vec<Genome> = incumbent.map(|t| t.genome.clone()).into_iter().collect();
    keep.extend(fresh.iter().filter(|i| result[i].partial.is_none()).map(|&i| genomes[i].clone()));
    problem.forget(&keep);
    let fresh_set: std::collections::HashSet<usize> = fresh.into_iter().collect();
    let trials = genomes
        .into_iter()
        .zip(&keys)
        .enumerate()
        .map(|(i, (genome, k))| Trial {
            number: first + i,
            generation,
            genome,
            fitness: cache.known(k).expect("every genome is known now"),
            cached: !fresh_set.contains(&i),
        })
        .collect();
    Ok(Raced { trials, documents })
}

/// The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9).
#[allow(clippy::excessive_precision)]
pub fn normal_quantile(p: f64) -> f64 {
    let a = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.383577518672690e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    let b =
        [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
    let c = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    let d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
    let p = p.clamp(1e-300, 1.0 - 1e-16);
    let tail = |q: f64| {
        (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
            / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::genome::{Gene, Space};

    #[test]
    fn stages_start_small_and_double_to_all() {
        assert_eq!(stages(120), [15, 30, 60, 120]);
        assert_eq!(stages(30), [10, 20, 30]);
        assert_eq!(stages(8), [8]);
        assert_eq!(stages(1000), [125, 250, 500, 1000]);
    }

    #[test]
    fn the_t_quantile_matches_the_table() {
        // Student's t, one-sided 95 %: df 14 1.7613, 29 1.6991, 59 1.6711, 119 1.6578.
        for (df, t) in [(14, 1.7613), (29, 1.6991), (59, 1.6711), (119, 1.6578), (5, 2.0150)] {
            assert!((t95(df) - t).abs() < 0.002, "df {df}: {}", t95(df));
        }
    }

    #[test]
    fn quantiles_match_the_tables() {
        for (q, z) in [(0.5, 0.0), (0.8, 0.841_621), (0.9, 1.281_552), (0.95, 1.644_854), (0.99, 2.326_348)] {
            assert!((normal_quantile(q) - z).abs() < 1e-5, "{q}: {}", normal_quantile(q));
        }
        // Student's t, one-sided: 0.9 with df 14 1.3450, 0.8 with df 29 0.8542, 0.99 with df 9 2.8214.
        for (q, df, t) in [(0.9, 14, 1.3450), (0.8, 29, 0.8542), (0.99, 9, 2.8214), (0.95, 9, 1.8331)] {
            assert!((t_quantile(q, df) - t).abs() < 0.01, "{q} {df}: {}", t_quantile(q, df));
        }
    }

    #[test]
    fn the_paired_test_drops_only_clearly_worse_candidates() {
        let reference: Vec<f64> = (0..15).map(|i| 0.5 + 0.02 * i as f64).collect();
        // Consistently 0.05 worse, with a little noise: dropped.
        let clearly: Vec<f64> = reference.iter().enumerate().map(|(i, r)| r - 0.05 + 0.01 * (i % 3) as f64).collect();
        assert!(worse(&clearly, &reference));
        // Worse on average, but noisy: kept.
        let noisy: Vec<f64> =
            reference.iter().enumerate().map(|(i, r)| r + if i % 2 == 0 { 0.2 } else { -0.25 }).collect();
        assert!(!worse(&noisy, &reference));
        assert!(!worse(&reference, &reference), "equal is not worse");
        assert!(worse(&reference.iter().map(|r| r - 0.01).collect::<Vec<_>>(), &reference), "all lower by the same");
    }

    #[test]
    fn the_order_is_stratified_and_seeded() {
        let strata: Vec<usize> = (0..40).map(|i| if i < 30 { 0 } else { 1 }).collect();
        let p = Plan::new(&strata, 7, ALPHA);
        let mut sorted = p.order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..40).collect::<Vec<_>>());
        // The first 10 hold the strata in proportion: about 7.5 and 2.5.
        let ones = p.order[..10].iter().filter(|&&i| strata[i] == 1).count();
        assert!((2..=3).contains(&ones), "{ones}");
        assert_eq!(p, Plan::new(&strata, 7, ALPHA));
        assert_ne!(p.order, Plan::new(&strata, 8, ALPHA).order);
    }

    /// 40 instances; genome `[x]` scores `x/10` on every instance plus a fixed noise.
    struct Noisy {
        space: Space,
        evaluated: usize,
    }

    impl Noisy {
        fn term(g: &Genome, i: usize) -> f64 {
            g[0] / 10.0 + 0.05 * ((i * 7 % 5) as f64 - 2.0)
        }
    }

    impl Problem for Noisy {
        fn space(&self) -> &Space {
            &self.space
        }
        fn evaluate_batch(&mut self, genomes: &[Genome]) -> Result<Vec<Fitness>> {
            let all: Vec<usize> = (0..40).collect();
            self.evaluate_subset(genomes, &all)
        }
        fn instances(&self) -> usize {
            40
        }
        fn evaluate_subset(&mut self, genomes: &[Genome], subset: &[usize]) -> Result<Vec<Fitness>> {
            self.evaluated += genomes.len() * subset.len();
            Ok(genomes
                .iter()
                .map(|g| Fitness::of(subset.iter().map(|&i| Self::term(g, i)).sum::<f64>() / subset.len() as f64))
                .collect())
        }
        fn instance_terms(&mut self, g: &Genome, subset: &[usize]) -> Result<Option<Vec<f64>>> {
            Ok(Some(subset.iter().map(|&i| Self::term(g, i)).collect()))
        }
    }

    #[test]
    fn a_race_drops_the_clearly_worse_and_evaluates_the_rest_fully() {
        let mut p = Noisy {
            space: Space {
                genes: vec![Gene::Int { lo: 0, hi: 9 }],
                correlated: vec![],
                conditions: vec![],
                ranks: vec![],
            },
            evaluated: 0,
        };
        let plan = Plan::new(&[0; 40], 1, ALPHA);
        assert_eq!(plan.stages, [10, 20, 40]);
        let mut cache = Cache::default();
        let genomes = vec![vec![9.0], vec![2.0], vec![9.0], vec![7.0], vec![5.0]];
        let raced = evaluate(&mut p, &mut cache, &plan, genomes, 0, 0, None).unwrap();
        let f: Vec<(f64, Option<usize>, bool)> =
            raced.trials.iter().map(|t| (t.genome[0], t.fitness.partial, t.cached)).collect();
        // 9 is the reference; 2, 7 and 5 are clearly worse after 10 documents; the repeated 9 is
        // a cache hit.
        assert_eq!(
            f,
            [
                (9.0, None, false),
                (2.0, Some(10), false),
                (9.0, None, true),
                (7.0, Some(10), false),
                (5.0, Some(10), false)
            ]
        );
        assert_eq!(raced.documents, 4 * 10 + 10 + 20);
        // Full fitness equals a full evaluation; dropped genomes stay dropped.
        let full = p.evaluate_batch(&[vec![9.0]]).unwrap()[0];
        assert_eq!(raced.trials[0].fitness.value.to_bits(), full.value.to_bits());
        let best = raced.trials[0].clone();
        let again = evaluate(&mut p, &mut cache, &plan, vec![vec![2.0], vec![6.0]], 1, 5, Some(&best)).unwrap();
        assert_eq!((again.trials[0].cached, again.trials[0].fitness.partial), (true, Some(10)));
        assert_eq!((again.trials[1].cached, again.trials[1].fitness.partial), (false, Some(10)));
        assert_eq!(again.documents, 10);
        // The cache rebuilt from the journal's trials makes the same decisions.
        let mut rebuilt = Cache::from_trials(&p.space, raced.trials.iter().chain(&again.trials));
        let third = evaluate(&mut p, &mut rebuilt, &plan, vec![vec![2.0], vec![9.0]], 2, 7, Some(&best)).unwrap();
        assert!(third.trials.iter().all(|t| t.cached) && third.documents == 0);
    }
}
