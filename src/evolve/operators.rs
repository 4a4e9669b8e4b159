//! The variation operators: uniform sampling (a genome, a generation), ranking and tournament
//! selection, crossover and mutation. Every operator takes its random number generator as an
//! argument; none keeps state.

use super::config::{Blend, Config};
use super::genome::{Gene, Genome, Space, repair};
use super::problem::Fitness;
use rand::{Rng, RngExt};
use rand_distr::{Distribution, StandardNormal};

/// An index drawn with the probabilities `p` (summing to 1; the last index takes any rounding
/// remainder): how CMA-ES and TPE sample a categorical gene.
pub fn draw(p: &[f64], rng: &mut impl Rng) -> usize {
    let u: f64 = rng.random_range(0.0..1.0);
    let mut acc = 0.0;
    for (i, &v) in p.iter().enumerate() {
        acc += v;
        if u < acc {
            return i;
        }
    }
    p.len().saturating_sub(1)
}

/// A uniform random genome, repaired. Reals with a step are uniform over their grid points.
pub fn random_genome(space: &Space, rng: &mut impl Rng) -> Genome {
    let mut g: Genome = space.genes.iter().map(|gene| random_value(gene, rng)).collect();
    repair(space, &mut g);
    g
}

fn random_value(gene: &Gene, rng: &mut impl Rng) -> f64 {
    match *gene {
        Gene::Real { lo, hi, step: Some(s) } if s > 0.0 && hi > lo => {
            let kmax = ((hi - lo) / s + 1e-9).floor() as u64;
            lo + rng.random_range(0..=kmax) as f64 * s
        }
        Gene::Real { lo, hi, .. } if hi > lo => rng.random_range(lo..=hi),
        Gene::Real { lo, .. } => lo,
        Gene::Int { lo, hi } => rng.random_range(lo..=hi) as f64,
        Gene::Cat { n } => rng.random_range(0..n.max(1)) as f64,
        Gene::Bool => f64::from(u8::from(rng.random_bool(0.5))),
    }
}

/// Tournament selection: the best (by rank) of `k` indices drawn uniformly with replacement;
/// ties go to the first drawn. `fitness` must not be empty.
pub fn tournament(fitness: &[Fitness], k: usize, rng: &mut impl Rng) -> usize {
    let mut best = rng.random_range(0..fitness.len());
    for _ in 1..k {
        let c = rng.random_range(0..fitness.len());
        if fitness[c].better_than(&fitness[best]) {
            best = c;
        }
    }
    best
}

/// Crossover of two parents into two children. A gene outside the correlated groups goes to
/// the first child from either parent with probability ½ (the second child gets the other); a
/// gene in a correlated group is blended (`config.blend`: BLX-α draws each child's value
/// independently, Mean gives both children the mean). The children are not repaired.
pub fn crossover(space: &Space, config: &Config, a: &[f64], b: &[f64], rng: &mut impl Rng) -> (Genome, Genome) {
    let (mut c1, mut c2) = (a.to_vec(), b.to_vec());
    for (i, grouped) in space.in_group().into_iter().enumerate() {
        if grouped {
            (c1[i], c2[i]) = blend(config, a[i], b[i], rng);
        } else if rng.random_bool(0.5) {
            (c1[i], c2[i]) = (b[i], a[i]);
        }
    }
    (c1, c2)
}

fn blend(config: &Config, x: f64, y: f64, rng: &mut impl Rng) -> (f64, f64) {
    match config.blend {
        Blend::Mean => ((x + y) / 2.0, (x + y) / 2.0),
        Blend::Blx => {
            let d = (x - y).abs() * config.blx_alpha;
            let (lo, hi) = (x.min(y) - d, x.max(y) + d);
            if hi > lo { (rng.random_range(lo..=hi), rng.random_range(lo..=hi)) } else { (x, y) }
        }
    }
}

/// Mutation: each gene mutates with its probability ([`Config::mutation_probs`]), and when
/// none did, one gene chosen uniformly mutates (unless both probabilities are 0). The genome is
/// repaired afterwards. See [`mutate_gene`] for what a gene's mutation does.
pub fn mutate(space: &Space, config: &Config, g: &mut Genome, rng: &mut impl Rng) {
    mutate_with_steps(space, config, g, &vec![config.mutation_sigma; space.len()], rng);
}

/// [`mutate`] with a step size per gene (`steps[i]` × gene `i`'s range): the self-adaptive GA's
/// mutation, whose steps travel with the individual.
pub fn mutate_with_steps(space: &Space, config: &Config, g: &mut Genome, steps: &[f64], rng: &mut impl Rng) {
    let (numeric, categorical) = config.mutation_probs(space.len());
    let mut any = false;
    for ((gene, x), &step) in space.genes.iter().zip(g.iter_mut()).zip(steps) {
        let p = if gene.is_numeric() { numeric } else { categorical };
        if rng.random_bool(p) {
            mutate_gene(gene, x, step, rng);
            any = true;
        }
    }
    if !any && (numeric > 0.0 || categorical > 0.0) && !space.is_empty() {
        let i = rng.random_range(0..space.len());
        mutate_gene(&space.genes[i], &mut g[i], steps[i], rng);
    }
    repair(space, g);
}

/// Smallest and largest self-adaptive step size (shares of a gene's range): below 1e-4 a float
/// no longer moves at any declared precision, above 1 the step is a uniform restart.
pub const STEP_BOUNDS: (f64, f64) = (1e-4, 1.0);

/// Schwefel's log-normal self-adaptation: every step size is multiplied by
/// `exp(τ'·N + τ·Nᵢ)` (one common draw `N`, one `Nᵢ` per gene), `τ' = 1/√(2n)`,
/// `τ = 1/√(2√n)`, `n` the number of genes; then kept within [`STEP_BOUNDS`].
pub fn adapt_steps(steps: &mut [f64], rng: &mut impl Rng) {
    let n = steps.len().max(1) as f64;
    let (tau_common, tau_each) = (1.0 / (2.0 * n).sqrt(), 1.0 / (2.0 * n.sqrt()).sqrt());
    let common: f64 = StandardNormal.sample(rng);
    for s in steps.iter_mut() {
        let z: f64 = StandardNormal.sample(rng);
        *s = (*s * (tau_common * common + tau_each * z).exp()).clamp(STEP_BOUNDS.0, STEP_BOUNDS.1);
    }
}

/// Mutates one value: Real adds `N(0, sigma·(hi − lo))`; Int adds the same noise rounded, at
/// least ±1; both are reflected into the bounds. Cat and Bool switch to a uniformly chosen
/// different value.
pub fn mutate_gene(gene: &Gene, x: &mut f64, sigma: f64, rng: &mut impl Rng) {
    let (lo, hi) = gene.bounds();
    match *gene {
        Gene::Real { .. } => {
            let z: f64 = StandardNormal.sample(rng);
            *x = reflect(*x + z * sigma * (hi - lo), lo, hi);
        }
        Gene::Int { .. } => {
            let z: f64 = StandardNormal.sample(rng);
            let mut d = (z * sigma * (hi - lo)).round();
            if d.abs() < 0.5 {
                d = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
            }
            *x = reflect(x.round() + d, lo, hi);
        }
        Gene::Cat { n } if n > 1 => {
            let current = x.round().clamp(0.0, (n - 1) as f64) as usize;
            let v = rng.random_range(0..n - 1);
            *x = (if v >= current { v + 1 } else { v }) as f64;
        }
        Gene::Cat { .. } => {}
        Gene::Bool => *x = if *x >= 0.5 { 0.0 } else { 1.0 },
    }
}

/// Reflects `x` into `[lo, hi]` (a mirror at each bound, repeated as often as needed).
pub fn reflect(x: f64, lo: f64, hi: f64) -> f64 {
    let w = hi - lo;
    if w <= 0.0 || !w.is_finite() || !x.is_finite() {
        return x.clamp(lo, hi.max(lo));
    }
    let y = (x - lo).rem_euclid(2.0 * w);
    lo + if y > w { 2.0 * w - y } else { y }
}

/// `n` uniform random genomes (repaired).
pub fn random_generation(space: &Space, n: usize, rng: &mut impl Rng) -> Vec<Genome> {
    (0..n).map(|_| random_genome(space, rng)).collect()
}

/// Indices of `fitness` from best to worst by rank; ties keep their order.
pub fn ranked(fitness: &[Fitness]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..fitness.len()).collect();
    idx.sort_by(|&a, &b| fitness[b].rank_cmp(&fitness[a]));
    idx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::genome::key;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn space() -> Space {
        Space {
            genes: vec![
                Gene::Real { lo: 0.0, hi: 1.0, step: Some(0.01) },
                Gene::Int { lo: 5, hi: 10 },
                Gene::Cat { n: 3 },
                Gene::Bool,
                Gene::Real { lo: -2.0, hi: 2.0, step: None },
            ],
            correlated: vec![vec![0, 1]],
            conditions: vec![],
            ranks: vec![],
        }
    }

    fn in_bounds(s: &Space, g: &[f64]) -> bool {
        s.genes.iter().zip(g).all(|(gene, &x)| {
            let (lo, hi) = gene.bounds();
            (lo..=hi).contains(&x) && (gene.repair_value(x) - x).abs() < 1e-15
        })
    }

    #[test]
    fn reflect_mirrors_at_both_bounds() {
        assert!((reflect(1.2, 0.0, 1.0) - 0.8).abs() < 1e-12);
        assert!((reflect(-0.3, 0.0, 1.0) - 0.3).abs() < 1e-12);
        assert!((reflect(2.5, 0.0, 1.0) - 0.5).abs() < 1e-12);
        assert!((reflect(11.0, 5.0, 10.0) - 9.0).abs() < 1e-12);
        assert!((reflect(3.0, 1.0, 1.0) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn operators_keep_genomes_valid() {
        let (s, c) = (space(), Config::default());
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..500 {
            let (a, b) = (random_genome(&s, &mut rng), random_genome(&s, &mut rng));
            assert!(in_bounds(&s, &a));
            let (mut x, mut y) = crossover(&s, &c, &a, &b, &mut rng);
            mutate(&s, &c, &mut x, &mut rng);
            mutate(&s, &c, &mut y, &mut rng);
            assert!(in_bounds(&s, &x) && in_bounds(&s, &y), "{x:?} {y:?}");
        }
    }

    #[test]
    fn mutation_always_changes_something() {
        let (s, c) = (space(), Config { mutation_rate: Some(0.0), cat_flip_prob: Some(0.0), ..Config::default() });
        let mut rng = StdRng::seed_from_u64(1);
        let g = random_genome(&s, &mut rng);
        let mut h = g.clone();
        mutate(&s, &c, &mut h, &mut rng);
        assert_eq!(key(&s, &g), key(&s, &h), "rate 0 means no mutation");
        let c = Config::default();
        let changed = (0..200).filter(|_| {
            let mut h = g.clone();
            mutate(&s, &c, &mut h, &mut rng);
            key(&s, &g) != key(&s, &h)
        });
        assert!(changed.count() > 180);
    }

    #[test]
    fn cat_and_bool_mutation_switch_value_and_int_moves_at_least_one() {
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..100 {
            let mut x = 1.0;
            mutate_gene(&Gene::Cat { n: 3 }, &mut x, 0.1, &mut rng);
            assert!((x - 1.0).abs() > 0.5 && (0.0..=2.0).contains(&x));
            let mut b = 1.0;
            mutate_gene(&Gene::Bool, &mut b, 0.1, &mut rng);
            assert!(b.abs() < 1e-12);
            let mut i = 7.0;
            mutate_gene(&Gene::Int { lo: 5, hi: 10 }, &mut i, 0.01, &mut rng);
            assert!((i - 7.0).abs() > 0.5 && (5.0..=10.0).contains(&i));
        }
    }

    #[test]
    fn mean_blend_averages_correlated_genes_and_picks_the_rest() {
        let s = space();
        let c = Config { blend: Blend::Mean, ..Config::default() };
        let mut rng = StdRng::seed_from_u64(5);
        let (a, b) = (vec![0.2, 6.0, 0.0, 0.0, -1.0], vec![0.4, 10.0, 2.0, 1.0, 1.0]);
        let (x, y) = crossover(&s, &c, &a, &b, &mut rng);
        assert!((x[0] - 0.3).abs() < 1e-12 && (y[1] - 8.0).abs() < 1e-12);
        for i in 2..5 {
            assert!((x[i] + y[i] - a[i] - b[i]).abs() < 1e-12);
        }
    }

    #[test]
    fn tournament_prefers_the_better() {
        let f: Vec<Fitness> = (0..10).map(|i| Fitness::of(i as f64)).collect();
        let mut rng = StdRng::seed_from_u64(9);
        let wins = (0..1000).map(|_| tournament(&f, 2, &mut rng)).filter(|&i| i >= 5).count();
        assert!(wins > 650, "{wins}");
        assert_eq!(tournament(&f, 50, &mut rng), 9);
    }
}
