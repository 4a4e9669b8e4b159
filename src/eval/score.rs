//! Precision, recall and F1 from an LCS length, and their mean over documents (the averages over
//! packages, which depend on the measure, are [`super::measure::averages`]).

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
}
