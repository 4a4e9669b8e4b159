//! Scoring a plain text against its gold text by any measure: what `cetune score` does with
//! another tool's output, the same definitions the corpus scorer applies to a selection.

use super::lcs::GoldIndex;
use super::measure::{Measure, bow, for_each_word, shingle_counts, shingle_prf};
use super::score::{Prf, prf};
use super::words::{TokenRule, tokens};

/// The score of `extract` against `gold` by `measure`, with the evaluation tokens of each
/// (`(score, extract words, gold words)`).
pub fn score_text(extract: &str, gold: &str, rule: TokenRule, measure: Measure) -> (Prf, usize, usize) {
    let (e, g) = (tokens(extract, rule), tokens(gold, rule));
    let s = match measure {
        Measure::Lcs => prf(GoldIndex::new(&g).lcs(&e), e.len(), g.len()),
        Measure::Bow => bow(&e, &g),
        Measure::Shingle4 => {
            let words = |t: &str| {
                let mut v = Vec::new();
                for_each_word(t, rule.latin1_only, |w| v.push(w.to_string()));
                v
            };
            let (tp, fp, fn_) = shingle_counts(&words(extract), &words(gold));
            shingle_prf(tp, fp, fn_)
        }
        // `gold` is then ISO 8601 dates (a `date` field, one a line): the share the text holds.
        Measure::Date => {
            let v = super::date::share(extract, gold);
            Prf { precision: v, recall: v, f1: v }
        }
    };
    (s, e.len(), g.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_measure_scores_the_texts() {
        let r = TokenRule::default();
        // Gottron's example: gold 6 words, extract 5, LCS 4 -> F1 8/11.
        let (s, e, g) = score_text("a b x c d", "a b c y d z", r, Measure::Lcs);
        assert_eq!((e, g), (5, 6));
        assert!((s.f1 - 8.0 / 11.0).abs() < 1e-12);
        // Bag of words ignores order: "d c b a" shares 4 words with "a b c d e".
        let (s, _, _) = score_text("d c b a", "a b c d e", r, Measure::Bow);
        assert!((s.precision - 1.0).abs() < 1e-12 && (s.recall - 0.8).abs() < 1e-12);
        // Shingles keep case: no 4-word window in common.
        let (s, _, _) = score_text("A b c d", "a b c d", r, Measure::Shingle4);
        assert!(s.precision.abs() < 1e-12);
        let (s, _, _) = score_text("", "", r, Measure::Lcs);
        assert!((s.f1 - 1.0).abs() < 1e-12);
    }
}
