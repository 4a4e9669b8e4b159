//! Precision, recall and F1 from an LCS length, and their averages over documents and packages.

use super::measure::Measure;

/// Precision, recall and F1 of one extract.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Prf {
    /// |lcs| / |extract|
    pub precision: f64,
    /// |lcs| / |gold|
    pub recall: f64,
    /// 2pr / (p + r)
    pub f1: f64,
}

/// Scores an extract: empty gold and empty extract give 1; exactly one empty gives 0.
pub fn prf(lcs: usize, extract_len: usize, gold_len: usize) -> Prf {
    match (extract_len, gold_len) {
        (0, 0) => Prf { precision: 1.0, recall: 1.0, f1: 1.0 },
        (0, _) | (_, 0) => Prf::default(),
        _ => {
            let p = lcs as f64 / extract_len as f64;
            let r = lcs as f64 / gold_len as f64;
            let f1 = if p + r > 0.0 { 2.0 * p * r / (p + r) } else { 0.0 };
            Prf { precision: p, recall: r, f1 }
        }
    }
}

/// Macro (over packages) and doc-mean (over documents; `micro_avg`, the name it had, though it
/// pools no counts) averages of per-document scores.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Averages {
    /// Mean over packages of each package's mean (Gottron's Table 3).
    pub macro_avg: Prf,
    /// Mean over all documents.
    pub micro_avg: Prf,
}

/// Mean of scores, summed in the given order (deterministic whatever the thread count).
pub fn mean(scores: impl IntoIterator<Item = Prf>) -> Prf {
    let (mut p, mut r, mut f, mut n) = (0.0, 0.0, 0.0, 0usize);
    for s in scores {
        p += s.precision;
        r += s.recall;
        f += s.f1;
        n += 1;
    }
    if n == 0 {
        return Prf::default();
    }
    let n = n as f64;
    Prf { precision: p / n, recall: r / n, f1: f / n }
}

/// Averages per-document scores given with the index of their package (packages in order
/// `0..n_packages`; a package without documents is left out of the macro average). The measure
/// decides how scores are averaged ([`Measure::mean`]), at both levels.
pub fn averages(scores: &[(usize, Prf)], n_packages: usize, measure: Measure) -> (Averages, Vec<Option<Prf>>) {
    let mut by_pkg: Vec<Vec<Prf>> = vec![Vec::new(); n_packages];
    for &(p, s) in scores {
        by_pkg[p].push(s);
    }
    let per_pkg: Vec<Option<Prf>> =
        by_pkg.iter().map(|v| if v.is_empty() { None } else { Some(measure.mean(v.iter().copied())) }).collect();
    let macro_avg = measure.mean(per_pkg.iter().flatten().copied());
    let micro_avg = measure.mean(scores.iter().map(|s| s.1));
    (Averages { macro_avg, micro_avg }, per_pkg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_example_gives_eight_elevenths() {
        let s = prf(4, 5, 6);
        assert!((s.recall - 4.0 / 6.0).abs() < 1e-12);
        assert!((s.precision - 4.0 / 5.0).abs() < 1e-12);
        assert!((s.f1 - 8.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn empty_cases() {
        assert!((prf(0, 0, 0).f1 - 1.0).abs() < 1e-12);
        assert!(prf(0, 3, 0).f1.abs() < 1e-12);
        assert!(prf(0, 0, 3).f1.abs() < 1e-12);
        assert!(prf(0, 3, 3).f1.abs() < 1e-12);
    }

    #[test]
    fn macro_weights_packages_equally() {
        let one = prf(1, 1, 1);
        let zero = Prf::default();
        // package 0: three perfect docs, package 1: one failed doc.
        let scores = [(0, one), (0, one), (0, one), (1, zero)];
        let (avg, per) = averages(&scores, 2, Measure::Lcs);
        assert!((avg.macro_avg.f1 - 0.5).abs() < 1e-12);
        assert!((avg.micro_avg.f1 - 0.75).abs() < 1e-12);
        assert_eq!(per.len(), 2);
    }
}
