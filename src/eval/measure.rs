//! The three measures cetune scores with, so its figures can stand beside published
//! leaderboards:
//!
//! - `lcs` (the default): Gottron's word-sequence F1 (longest common subsequence of the
//!   lower-cased word tokens), mean over pages;
//! - `bow`: WCXB's bag-of-words F1: the same lower-cased word tokens as multisets,
//!   P = |extract ∩ gold| / |extract|, R = |extract ∩ gold| / |gold|, F1 per page, mean over
//!   pages (an empty gold scores 1 only against an empty extract);
//! - `shingle4`: the Scrapinghub article-extraction benchmark's measure: tokens are the runs of
//!   `\w` (letters, digits, underscore; case kept), a text's shingles are its 4-token windows as a
//!   multiset (a text of 1–3 tokens is one shorter shingle); per page TP = |∩|, FP, FN. The
//!   benchmark normalises TP/FP/FN to sum to 1 (which leaves a page's precision and recall
//!   unchanged); precision is averaged over the pages with TP + FP > 0, recall over those with
//!   TP + FN > 0, and F1 is computed from the two averages, not averaged.

use super::score::{Prf, prf};
use std::collections::HashMap;
use std::hash::Hash;

/// How an extract is compared with its gold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Measure {
    /// Gottron's LCS word-sequence F1.
    #[default]
    Lcs,
    /// WCXB's bag-of-words word F1.
    Bow,
    /// The Scrapinghub benchmark's 4-word shingles.
    Shingle4,
    /// `--field date`: a page scores 1 when the returned text contains a rendering of its gold
    /// date ([`super::date::contains`]; the gold is the ISO date), else 0.
    Date,
}

/// The names `--measure` accepts.
pub const MEASURES: &str = "lcs, bow or shingle4";

impl std::str::FromStr for Measure {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "lcs" => Ok(Measure::Lcs),
            "bow" => Ok(Measure::Bow),
            "shingle4" => Ok(Measure::Shingle4),
            // Recorded by `optimise --field date` in run.yaml; not offered by `--measure`.
            "date" => Ok(Measure::Date),
            _ => Err(format!("unknown measure '{s}' (expected {MEASURES})")),
        }
    }
}

impl std::fmt::Display for Measure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Measure::Lcs => "lcs",
            Measure::Bow => "bow",
            Measure::Shingle4 => "shingle4",
            Measure::Date => "date",
        })
    }
}

impl Measure {
    /// The corpus figure of per-page scores, in the given order. `lcs` and `bow`: the mean of
    /// each of P, R and F1. `shingle4`: P averaged over the pages where it is defined (finite),
    /// R likewise, F1 from the two averages; a P (R) defined on no page stays undefined (NaN),
    /// so an average of averages (the macro average over packages) skips it too, and the F1 is
    /// then 0.
    pub fn mean(self, scores: impl IntoIterator<Item = Prf>) -> Prf {
        match self {
            Measure::Lcs | Measure::Bow | Measure::Date => super::score::mean(scores),
            Measure::Shingle4 => {
                let (mut p, mut np, mut r, mut nr) = (0.0, 0usize, 0.0, 0usize);
                for s in scores {
                    if s.precision.is_finite() {
                        p += s.precision;
                        np += 1;
                    }
                    if s.recall.is_finite() {
                        r += s.recall;
                        nr += 1;
                    }
                }
                let p = if np > 0 { p / np as f64 } else { f64::NAN };
                let r = if nr > 0 { r / nr as f64 } else { f64::NAN };
                Prf { precision: p, recall: r, f1: f1(p, r) }
            }
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

/// 2pr / (p + r), 0 when both are 0 or either is undefined.
pub fn f1(p: f64, r: f64) -> f64 {
    if p + r > 0.0 { 2.0 * p * r / (p + r) } else { 0.0 }
}

/// Size of the multiset intersection of two token lists.
pub fn common<T: Eq + Hash>(a: &[T], b: &[T]) -> usize {
    let mut counts: HashMap<&T, usize> = HashMap::new();
    for t in a {
        *counts.entry(t).or_default() += 1;
    }
    let mut n = 0;
    for t in b {
        if let Some(c) = counts.get_mut(t)
            && *c > 0
        {
            *c -= 1;
            n += 1;
        }
    }
    n
}

/// The `bow` score of one page from its (lower-cased) word tokens.
pub fn bow<T: Eq + Hash>(extract: &[T], gold: &[T]) -> Prf {
    prf(common(extract, gold), extract.len(), gold.len())
}

/// The `shingle4` score of one page from TP, FP and FN shingle counts: precision is NaN when
/// TP + FP = 0 (nothing extracted), recall NaN when TP + FN = 0 (empty gold); such pages are
/// left out of that average. The page's F1 (for per-page listings) counts an undefined side as
/// 0, except that two empty texts score 1.
pub fn shingle_prf(tp: usize, fp: usize, fn_: usize) -> Prf {
    let (tp, fp, fn_) = (tp as f64, fp as f64, fn_ as f64);
    let p = if tp + fp > 0.0 { tp / (tp + fp) } else { f64::NAN };
    let r = if tp + fn_ > 0.0 { tp / (tp + fn_) } else { f64::NAN };
    let page_f1 = match (p.is_finite(), r.is_finite()) {
        (true, true) => f1(p, r),
        (false, false) => 1.0,
        _ => 0.0,
    };
    Prf { precision: p, recall: r, f1: page_f1 }
}

/// The benchmark's tokens: maximal runs of `\w` (Unicode letters, digits and `_`), case kept.
/// With `latin1_only` (L3S-GN1) characters above U+00FF separate tokens, as for the other measures.
pub fn for_each_word(text: &str, latin1_only: bool, mut f: impl FnMut(&str)) {
    let mut start = None;
    for (i, c) in text.char_indices() {
        let word = (c.is_alphanumeric() || c == '_') && !(latin1_only && (c as u32) > 0xFF);
        match (word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                f(&text[s..i]);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        f(&text[s..]);
    }
}

/// Shingles of a token sequence: every window of 4 tokens; a sequence of 1–3 tokens is one
/// shingle; an empty one has none.
pub fn shingles<T: Clone>(tokens: &[T]) -> Vec<Vec<T>> {
    if tokens.is_empty() {
        return Vec::new();
    }
    if tokens.len() < 4 {
        return vec![tokens.to_vec()];
    }
    tokens.windows(4).map(<[T]>::to_vec).collect()
}

/// TP, FP and FN of two shingle multisets.
pub fn shingle_counts<T: Eq + Hash + Clone>(extract: &[T], gold: &[T]) -> (usize, usize, usize) {
    let (e, g) = (shingles(extract), shingles(gold));
    let tp = common(&e, &g);
    (tp, e.len() - tp, g.len() - tp)
}

/// The `shingle4` score of one page from its texts (reference form; the scorer uses interned
/// tokens).
pub fn shingle4(extract: &str, gold: &str) -> Prf {
    let toks = |t: &str| {
        let mut v = Vec::new();
        for_each_word(t, false, |w| v.push(w.to_string()));
        v
    };
    let (tp, fp, fn_) = shingle_counts(&toks(extract), &toks(gold));
    shingle_prf(tp, fp, fn_)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::words::{TokenRule, tokens};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn bow_worked_example_counts_repeats_as_a_multiset() {
        // gold: the cat sat on the mat (6); extract: The the the cat ran (5).
        // ∩ = {the ×2, cat} = 3: P = 3/5, R = 3/6, F1 = 2·.6·.5/1.1 = 6/11.
        let r = TokenRule::default();
        let s = bow(&tokens("The the the cat ran", r), &tokens("the cat sat on the mat", r));
        assert!(close(s.precision, 0.6) && close(s.recall, 0.5) && close(s.f1, 6.0 / 11.0), "{s:?}");
        // Word order does not matter, unlike the LCS.
        let s = bow(&tokens("mat the on sat cat the", r), &tokens("the cat sat on the mat", r));
        assert!(close(s.f1, 1.0));
        // An empty gold scores 1 only against an empty extract.
        let none: Vec<String> = Vec::new();
        assert!(close(bow(&none, &none).f1, 1.0));
        assert!(close(bow(&tokens("x", r), &none).f1, 0.0));
        assert!(close(bow(&none, &tokens("x", r)).f1, 0.0));
    }

    #[test]
    fn shingle4_worked_example() {
        // gold: a b c d e f → abcd bcde cdef; extract: a b c d e x → abcd bcde cdex.
        // TP 2, FP 1, FN 1: P = R = 2/3.
        let s = shingle4("a b c d e x", "a b c d e f");
        assert!(close(s.precision, 2.0 / 3.0) && close(s.recall, 2.0 / 3.0), "{s:?}");
        // Case is kept: `A` is not `a`, so no shingle matches.
        let s = shingle4("A b c d", "a b c d");
        assert!(close(s.precision, 0.0) && close(s.recall, 0.0));
        // Short texts are one shingle; `\w` keeps underscores inside a token.
        assert_eq!(shingle_counts(&["x_y", "z"], &["x_y", "z"]), (1, 0, 0));
        let mut w = Vec::new();
        for_each_word("snake_case, Été!", false, |t| w.push(t.to_string()));
        assert_eq!(w, ["snake_case", "Été"]);
        // Nothing extracted: precision undefined (NaN), recall 0; two empty texts: both undefined.
        let s = shingle4("", "a b c d");
        assert!(s.precision.is_nan() && close(s.recall, 0.0) && close(s.f1, 0.0));
        let s = shingle4("", "");
        assert!(s.precision.is_nan() && s.recall.is_nan() && close(s.f1, 1.0));
    }

    #[test]
    fn shingle4_averages_precision_and_recall_before_f1() {
        // Page 1: P 1, R 0.5; page 2: nothing extracted (P undefined, R 0); page 3: both empty.
        let pages = [shingle_prf(1, 0, 1), shingle_prf(0, 0, 4), shingle_prf(0, 0, 0)];
        let m = Measure::Shingle4.mean(pages);
        // P = mean over page 1 only = 1; R = mean(0.5, 0) = 0.25; F1 = 2·0.25/1.25 = 0.4.
        assert!(close(m.precision, 1.0) && close(m.recall, 0.25) && close(m.f1, 0.4), "{m:?}");
        // The mean of per-page F1s would be (2/3 + 0 + 1)/3: a different figure.
        assert!(!close(m.f1, Measure::Lcs.mean(pages).f1));
    }

    #[test]
    fn measures_parse_and_print() {
        for m in [Measure::Lcs, Measure::Bow, Measure::Shingle4] {
            assert_eq!(m.to_string().parse::<Measure>().unwrap(), m);
        }
        assert_eq!("f1".parse::<Measure>().unwrap_err(), "unknown measure 'f1' (expected lcs, bow or shingle4)");
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
