//! Bootstrap confidence intervals of the corpus figures, as the Scrapinghub benchmark reports
//! them: resample the pages with replacement `n` times, recompute the figure on each resample,
//! and give ±1.96 × the standard deviation of the resampled figures (a 95% interval under
//! normality). Seeded, so a table is reproducible.

use super::measure::{Measure, averages};
use super::score::Prf;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Half-widths of the 95% intervals of the macro F1 and the doc-mean F1 (mean over documents) of per-page scores
/// (`(package, score)` pairs, packages in `0..n_packages`) over `n` resamples; `None` with fewer
/// than 2 resamples or no pages.
pub fn f1_intervals(
    scores: &[(usize, Prf)],
    n_packages: usize,
    measure: Measure,
    n: usize,
    seed: u64,
) -> Option<(f64, f64)> {
    if n < 2 || scores.is_empty() {
        return None;
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut macros, mut micros) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let mut sample = Vec::with_capacity(scores.len());
    for _ in 0..n {
        sample.clear();
        sample.extend((0..scores.len()).map(|_| scores[rng.random_range(0..scores.len())]));
        let (avg, _) = averages(&sample, n_packages, measure);
        macros.push(avg.macro_avg.f1);
        micros.push(avg.micro_avg.f1);
    }
    Some((1.96 * stdev(&macros), 1.96 * stdev(&micros)))
}

/// The sample standard deviation (n − 1).
fn stdev(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
}

#[cfg(test)]
mod tests {
    // Exact values are the point of these tests.
    #![allow(clippy::float_cmp)]
    use super::*;
    use crate::eval::prf;

    #[test]
    fn intervals_shrink_with_agreement_and_are_reproducible() {
        // Every page the same: no spread at all.
        let same: Vec<(usize, Prf)> = (0..50).map(|_| (0, prf(1, 2, 2))).collect();
        let (m, u) = f1_intervals(&same, 1, Measure::Lcs, 200, 1).unwrap();
        assert!(m.abs() < 1e-12 && u.abs() < 1e-12);
        // Half the pages perfect, half failed: F1 0.5 with a binomial spread, sd ≈ 0.5/√n.
        let mixed: Vec<(usize, Prf)> =
            (0..100).map(|i| (0, if i % 2 == 0 { prf(1, 1, 1) } else { Prf::default() })).collect();
        let (m, u) = f1_intervals(&mixed, 1, Measure::Lcs, 2000, 7).unwrap();
        assert!((u - 1.96 * 0.05).abs() < 0.015, "{u}");
        assert_eq!(m.to_bits(), u.to_bits(), "one package: macro = micro");
        assert_eq!(
            f1_intervals(&mixed, 1, Measure::Lcs, 2000, 7).unwrap().0.to_bits(),
            m.to_bits(),
            "same seed, same interval"
        );
        assert!(f1_intervals(&mixed, 1, Measure::Lcs, 1, 7).is_none());
    }
}
