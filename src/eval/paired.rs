//! Paired comparison of two settings scored on the same documents: the mean per-document
//! difference with a seeded paired-bootstrap 95% interval, and the Wilcoxon signed-rank test.
//!
//! - Bootstrap: resample the documents (the pairs, never the two sides apart) with replacement
//!   `n` times; the interval is the 2.5th and 97.5th percentiles of the resampled mean
//!   differences (percentile method, `n` resamples, a fixed seed).
//! - Wilcoxon signed-rank (Wilcoxon's zero method: documents with no difference are dropped;
//!   tied |differences| get their mean rank): W+ is the rank sum of the positive differences;
//!   the p-value is two-sided, from the normal approximation with the tie-corrected variance
//!   `n(n+1)(2n+1)/24 − Σ(t³ − t)/48` and a continuity correction of 0.5 (scipy's
//!   `wilcoxon(d, zero_method="wilcox", correction=True, method="approx")`).
//!
//! The gain counts as within noise when the interval holds 0 or p ≥ 0.05; the verdict in words
//! says `mixed` when the interval and the test disagree (see [`Paired::verdict`]).

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Differences smaller than this count as ties (scores are ratios of word counts).
const TIE: f64 = 1e-12;

/// A paired comparison of `a` against a baseline `b` (d = a − b per document).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paired {
    /// Documents compared.
    pub n: usize,
    /// Mean per-document difference a − b.
    pub mean: f64,
    /// 95% paired-bootstrap interval of the mean difference (`None` without resamples).
    pub ci: Option<(f64, f64)>,
    /// Documents where a is better, worse, equal.
    pub wins: usize,
    /// Documents where a is worse.
    pub losses: usize,
    /// Documents with no difference (left out of the signed-rank test).
    pub ties: usize,
    /// Rank sum of the positive differences.
    pub w_plus: f64,
    /// Rank sum of the negative differences.
    pub w_minus: f64,
    /// The standard normal statistic of W+ (continuity-corrected); 0 without differences.
    pub z: f64,
    /// Two-sided p-value of the signed-rank test (1 without differences).
    pub p: f64,
}

impl Paired {
    /// Whether the difference is indistinguishable from noise at the 5% level: the interval
    /// holds 0, or the signed-rank test does not reject.
    pub fn within_noise(&self) -> bool {
        self.p >= 0.05 || self.ci.is_some_and(|(lo, hi)| lo <= 0.0 && hi >= 0.0)
    }

    /// One sentence saying what the comparison shows: `better` or `worse` when the interval and
    /// the signed-rank test agree on a difference and its direction, `within noise` when neither
    /// finds one, and `mixed (…)` when they disagree (the interval excludes 0 but the test does
    /// not reject, the test rejects but the interval holds 0, or the mean and the ranks point in
    /// opposite directions); the parenthesis says which way each points.
    pub fn verdict(&self) -> String {
        if self.n == 0 {
            return "no documents in common".into();
        }
        let p = p_clause(self.p);
        let tested = self.p < 0.05;
        let counts = format!("better on {} documents, worse on {}", self.wins, self.losses);
        let mean_dir = if self.mean > 0.0 { "better" } else { "worse" };
        let rank_dir = if self.w_plus > self.w_minus { "better" } else { "worse" };
        match self.ci {
            None if tested => format!("{mean_dir} ({p})"),
            None => format!("within noise ({p})"),
            Some((lo, hi)) => match (lo <= 0.0 && hi >= 0.0, tested) {
                (true, false) => format!("within noise (the 95% interval holds 0; {p})"),
                (false, true) if mean_dir == rank_dir => format!("{mean_dir} ({p})"),
                (false, true) => format!(
                    "mixed (the mean is {mean_dir} and its 95% interval excludes 0, but the signed ranks say {rank_dir}, {p}; {counts})"
                ),
                (false, false) => format!(
                    "mixed (the mean is {mean_dir} and its 95% interval excludes 0, but the signed-rank test finds no difference, {p}; {counts})"
                ),
                (true, true) => format!(
                    "mixed (the signed ranks say {rank_dir}, {p}, but the 95% interval of the mean holds 0; {counts})"
                ),
            },
        }
    }
}

/// `p = 0.012` (or `p < 1e-6`) for a sentence.
pub fn p_clause(p: f64) -> String {
    let t = p_text(p);
    if t.starts_with('<') { format!("p {t}") } else { format!("p = {t}") }
}

/// A p-value for a table: three decimals (scientific below 0.001), `< 1e-6` below that.
pub fn p_text(p: f64) -> String {
    if p < 1e-6 {
        "< 1e-6".into()
    } else if p < 0.001 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
}

/// Compares per-document scores `a` with `b` (same documents, same order) with `resamples`
/// bootstrap resamples drawn from `seed`.
///
/// # Panics
/// When the two slices differ in length (a caller's bug).
pub fn paired(a: &[f64], b: &[f64], resamples: usize, seed: u64) -> Paired {
    assert_eq!(a.len(), b.len(), "paired scores of different documents");
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let n = d.len();
    let mean = if n == 0 { 0.0 } else { d.iter().sum::<f64>() / n as f64 };
    let ci = bootstrap_ci(&d, resamples, seed);
    let wins = d.iter().filter(|&&x| x > TIE).count();
    let losses = d.iter().filter(|&&x| x < -TIE).count();
    let (w_plus, w_minus, z, p) = signed_rank(&d);
    Paired { n, mean, ci, wins, losses, ties: n - wins - losses, w_plus, w_minus, z, p }
}

/// Percentile interval (2.5%, 97.5%) of the mean of `d` over `n` resamples.
fn bootstrap_ci(d: &[f64], n: usize, seed: u64) -> Option<(f64, f64)> {
    if n < 2 || d.is_empty() {
        return None;
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let mut means: Vec<f64> =
        (0..n).map(|_| (0..d.len()).map(|_| d[rng.random_range(0..d.len())]).sum::<f64>() / d.len() as f64).collect();
    means.sort_by(f64::total_cmp);
    Some((quantile(&means, 0.025), quantile(&means, 0.975)))
}

/// Linear-interpolated quantile of sorted values (numpy's default).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// W+, W−, z and the two-sided p-value of the signed-rank test of differences `d`.
fn signed_rank(d: &[f64]) -> (f64, f64, f64, f64) {
    let mut nz: Vec<f64> = d.iter().copied().filter(|x| x.abs() > TIE).collect();
    if nz.is_empty() {
        return (0.0, 0.0, 0.0, 1.0);
    }
    nz.sort_by(|x, y| x.abs().total_cmp(&y.abs()));
    let n = nz.len();
    let (mut w_plus, mut w_minus, mut ties) = (0.0, 0.0, 0.0);
    let mut i = 0;
    while i < n {
        // A run of equal |d| (within TIE) shares the mean of its ranks i+1..=j.
        let mut j = i + 1;
        while j < n && (nz[j].abs() - nz[i].abs()).abs() <= TIE {
            j += 1;
        }
        let rank = (i + 1 + j) as f64 / 2.0;
        let t = (j - i) as f64;
        ties += t * t * t - t;
        for x in &nz[i..j] {
            if *x > 0.0 {
                w_plus += rank;
            } else {
                w_minus += rank;
            }
        }
        i = j;
    }
    let nf = n as f64;
    let mean = nf * (nf + 1.0) / 4.0;
    let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - ties / 48.0;
    if var <= 0.0 {
        return (w_plus, w_minus, 0.0, 1.0);
    }
    let dev = w_plus - mean;
    let corrected = (dev.abs() - 0.5).max(0.0) * dev.signum();
    let z = corrected / var.sqrt();
    let p = (2.0 * normal_sf(z.abs())).min(1.0);
    (w_plus, w_minus, z, p)
}

/// The upper tail of the standard normal, P(Z > x) = erfc(x/√2)/2.
pub fn normal_sf(x: f64) -> f64 {
    0.5 * erfc(x / std::f64::consts::SQRT_2)
}

/// The complementary error function (W. J. Cody's rational approximations as in Numerical
/// Recipes' `erfccheb`-free form: relative error below 1.2e-7 everywhere).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked by hand. a − b = [0.3, −0.1, 0.2, 0.0, 0.5, −0.2, 0.2, 0.4]:
    /// one zero dropped, n = 7; |d| sorted 0.1(−) 0.2(+) 0.2(−) 0.2(+) 0.3(+) 0.4(+) 0.5(+);
    /// ranks 1, then 2–4 tied at 3 each, 5, 6, 7. W+ = 3 + 3 + 5 + 6 + 7 = 24, W− = 1 + 3 = 4
    /// (W+ + W− = 28 = 7·8/2). Mean 7·8/4 = 14; variance 7·8·15/24 − (27 − 3)/48 = 35 − 0.5
    /// = 34.5; z = (24 − 14 − 0.5)/√34.5 = 9.5/5.87367 = 1.61739; p = 2·P(Z > 1.61739) =
    /// 2·0.052895 = 0.10579 (erfc(1.61739/√2) = 0.105795). Mean difference 1.3/8 =
    /// 0.1625. Wins 5, losses 2, ties 1.
    #[test]
    fn signed_rank_matches_the_worked_example() {
        let b = [0.5, 0.6, 0.3, 0.7, 0.2, 0.9, 0.4, 0.1];
        let d = [0.3, -0.1, 0.2, 0.0, 0.5, -0.2, 0.2, 0.4];
        let a: Vec<f64> = b.iter().zip(d).map(|(x, y)| x + y).collect();
        let p = paired(&a, &b, 0, 1);
        assert_eq!((p.n, p.wins, p.losses, p.ties), (8, 5, 2, 1));
        assert!((p.mean - 0.1625).abs() < 1e-12, "{}", p.mean);
        assert!((p.w_plus - 24.0).abs() < 1e-9 && (p.w_minus - 4.0).abs() < 1e-9, "{p:?}");
        assert!((p.z - 9.5 / 34.5f64.sqrt()).abs() < 1e-9, "{}", p.z);
        assert!((p.p - 0.105_79).abs() < 2e-5, "{}", p.p);
        assert!(p.ci.is_none());
        assert!(p.within_noise());
        assert!(p.verdict().starts_with("within noise"), "{}", p.verdict());
    }

    /// The paired bootstrap, by hand: with d = [0, 1] every resample's mean is 0, ½ or 1 with
    /// probabilities ¼, ½, ¼, so over many resamples the 2.5th percentile is 0 and the 97.5th 1.
    /// With d constant the interval is that constant. Same seed, same interval.
    #[test]
    fn bootstrap_interval_is_a_percentile_interval_and_seeded() {
        let (lo, hi) = paired(&[1.0, 2.0], &[1.0, 1.0], 2000, 3).ci.unwrap();
        assert!(lo.abs() < 1e-12 && (hi - 1.0).abs() < 1e-12, "{lo} {hi}");
        let (lo, hi) = paired(&[0.7; 5], &[0.5; 5], 100, 3).ci.unwrap();
        assert!((lo - 0.2).abs() < 1e-12 && (hi - 0.2).abs() < 1e-12);
        let a: Vec<f64> = (0..50).map(|i| (i % 7) as f64 / 7.0).collect();
        let b: Vec<f64> = (0..50).map(|i| (i % 5) as f64 / 5.0).collect();
        assert_eq!(paired(&a, &b, 500, 9).ci, paired(&a, &b, 500, 9).ci);
        assert_ne!(paired(&a, &b, 500, 9).ci, paired(&a, &b, 500, 10).ci);
    }

    /// When the interval and the signed-rank test disagree the verdict says "mixed" and which
    /// way each points. (a) 30 documents a little better (+0.01), 10 much worse (−0.2): the
    /// mean is −0.0425 and its interval excludes 0, but W+ = 30·15.5 = 465 against W− =
    /// 10·35.5 = 355 is no difference for the test (z ≈ 0.74). (b) 30 documents +0.01 and one
    /// −0.35: the mean −0.0016 has an interval around 0, but the test rejects (W+ = 465,
    /// W− = 31, z ≈ 4.2) in the direction of "better".
    #[test]
    fn disagreeing_interval_and_test_say_mixed() {
        let b = vec![0.5; 40];
        let a: Vec<f64> = (0..40).map(|i| if i < 30 { 0.51 } else { 0.3 }).collect();
        let p = paired(&a, &b, 2000, 1);
        let (lo, hi) = p.ci.unwrap();
        assert!(hi < 0.0 && p.p > 0.3 && (p.w_plus - 465.0).abs() < 1e-9, "{p:?}");
        let v = p.verdict();
        assert!(v.starts_with("mixed (the mean is worse") && v.contains("finds no difference"), "{v}");
        assert!(v.contains("better on 30 documents, worse on 10"), "{v}");
        assert!(p.within_noise(), "a mixed verdict is not a clear difference");
        let b = vec![0.5; 31];
        let a: Vec<f64> = (0..31).map(|i| if i < 30 { 0.51 } else { 0.15 }).collect();
        let p = paired(&a, &b, 2000, 1);
        let (lo2, hi2) = p.ci.unwrap();
        assert!(lo2 < 0.0 && hi2 > 0.0 && p.p < 1e-3 && (p.w_minus - 31.0).abs() < 1e-9, "{p:?} {lo} {lo2}");
        let v = p.verdict();
        assert!(v.starts_with("mixed (the signed ranks say better") && v.contains("holds 0"), "{v}");
    }

    #[test]
    fn a_clear_gain_is_not_noise_and_no_difference_is() {
        let b: Vec<f64> = (0..40).map(|i| (i % 10) as f64 / 20.0).collect();
        let a: Vec<f64> = b.iter().enumerate().map(|(i, x)| x + 0.1 + (i % 3) as f64 / 100.0).collect();
        let p = paired(&a, &b, 1000, 1);
        assert!(!p.within_noise() && p.p < 1e-6 && p.verdict().starts_with("better"), "{p:?}");
        let same = paired(&b, &b, 1000, 1);
        assert_eq!((same.p, same.mean, same.ties), (1.0, 0.0, 40));
        assert!(same.within_noise());
    }

    #[test]
    fn normal_tail_is_accurate() {
        assert!((normal_sf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_sf(1.959_964) - 0.025).abs() < 1e-7);
        assert!((normal_sf(-1.0) - 0.841_344_746).abs() < 1e-7);
    }
}
