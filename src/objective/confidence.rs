//! A confidence for every page: an estimate of the page's F1 from page-level signals of what
//! the extractor saw and did (issue 40). The signals are read from the extractor's own selection
//! in its own view (source words, DOM text nodes or blocks), so they work with any setting and
//! cost one pass over the page's units: the share of the page's words kept, the output's length
//! and link density, where the output starts and ends in the page, how many separate runs it
//! keeps, how much of it is hidden text, and the shape of the rendered text.
//!
//! The estimate is a regression on page F1 with the gradient-boosted trees the supervised block
//! family fits too ([`crate::extract::trees`]: logistic loss on the F1 as a soft label, so the
//! estimate is the sigmoid of the raw score), fitted on a gold sample; its quality is
//! measured out of fold when it is fitted ([`fit`]) and on any gold set by `evaluate
//! --confidence` ([`Quality`]). The model is a small JSON file ([`Model::to_json`],
//! [`Model::read`]), tied to the setting it was fitted for.
//!
//! Imports from the crate: `document`, `extract` (the trees, the extractor trait), `goldset`,
//! `params` (the setting a model is for, its file reader) and `error`; the gold passes are its
//! neighbour's (`stream.rs`).

use crate::extract::Extractor;
pub use crate::extract::judge::{
    BAD_F1, FLAG_SHARE, FORMAT, Model, N_SIGNALS, SIGNALS, Signals, extract_with_signals, hyper, setting_key, signals,
};
use crate::extract::trees::{self, Rows};

/// Rows of signals and F1 labels.
fn rows(x: &[Signals], y: &[f64], sel: &[usize]) -> Rows {
    Rows {
        f: N_SIGNALS,
        x: sel.iter().flat_map(|&i| x[i]).collect(),
        y: sel.iter().map(|&i| y[i].clamp(0.0, 1.0) as f32).collect(),
        w: vec![1.0; sel.len()],
    }
}

/// Fits a model on pages with signals `x` and F1 `y`: the trees on every page, and the
/// out-of-fold estimates of `folds` folds (page `i` in fold `i % folds`, so the caller orders
/// the pages), from which the default threshold and the reported quality come.
pub fn fit(x: &[Signals], y: &[f64], folds: usize, setting: String) -> (Model, Vec<f64>) {
    let h = hyper();
    let folds = folds.clamp(2, x.len().max(2));
    let mut oof = vec![0.0; x.len()];
    for k in 0..folds {
        let train: Vec<usize> = (0..x.len()).filter(|i| i % folds != k).collect();
        let forest = trees::fit(&rows(x, y, &train), &h);
        let m = Model { forest, setting: String::new(), threshold: 0.0, about: serde_json::Value::Null };
        for i in (0..x.len()).filter(|i| i % folds == k) {
            oof[i] = m.predict(&x[i]);
        }
    }
    let all: Vec<usize> = (0..x.len()).collect();
    let forest = trees::fit(&rows(x, y, &all), &h);
    let threshold = flag_threshold(&oof, FLAG_SHARE);
    (Model { forest, setting, threshold, about: serde_json::Value::Null }, oof)
}

/// Average ranks (ties share their mean rank), from 1.
fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]].total_cmp(&v[idx[i]]).is_eq() {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        idx[i..=j].iter().for_each(|&k| r[k] = mean);
        i = j + 1;
    }
    r
}

/// Spearman's rank correlation (Pearson's of the average ranks); NaN when either side is
/// constant or there are fewer than two pairs.
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let n = ra.len().min(rb.len()) as f64;
    if n < 2.0 {
        return f64::NAN;
    }
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    sab / (saa * sbb).sqrt()
}

/// The largest threshold `t` among the confidences such that at most `share` of the pages have
/// a confidence below `t` (ties are never split: a page is flagged when its confidence is below
/// `t`); 0 without pages.
pub fn flag_threshold(conf: &[f64], share: f64) -> f64 {
    let mut v: Vec<f64> = conf.to_vec();
    v.sort_by(f64::total_cmp);
    let most = (share * v.len() as f64 + 1e-9).floor() as usize;
    // v[most] is the smallest value with `most` or fewer values below it … unless ties reach past it.
    match v.get(most) {
        Some(&t) => t,
        None => v.last().map_or(0.0, |&l| l + 1e-9),
    }
}

/// How well confidences predict page F1 on a set of pages.
#[derive(Debug, Clone, PartialEq)]
pub struct Quality {
    /// Pages measured.
    pub pages: usize,
    /// Spearman(confidence, F1).
    pub spearman: f64,
    /// The threshold of low confidence used for the means below.
    pub threshold: f64,
    /// Pages below the threshold.
    pub below: usize,
    /// Mean F1 of the pages below the threshold (NaN without any).
    pub mean_below: f64,
    /// Mean F1 of the pages at or above it (NaN without any).
    pub mean_above: f64,
    /// Pages with F1 below [`BAD_F1`].
    pub bad: usize,
    /// The pages flagged when at most [`FLAG_SHARE`] of them are (lowest confidence first).
    pub flagged: usize,
    /// Bad pages among the flagged ones.
    pub caught: usize,
}

impl Quality {
    /// Measures confidences `conf` against F1 `f1` (same pages, same order), with `threshold`
    /// as the low-confidence threshold.
    pub fn of(conf: &[f64], f1: &[f64], threshold: f64) -> Quality {
        let mean = |v: Vec<f64>| if v.is_empty() { f64::NAN } else { v.iter().sum::<f64>() / v.len() as f64 };
        let below: Vec<f64> = conf.iter().zip(f1).filter(|(c, _)| **c < threshold).map(|(_, f)| *f).collect();
        let above: Vec<f64> = conf.iter().zip(f1).filter(|(c, _)| **c >= threshold).map(|(_, f)| *f).collect();
        let t15 = flag_threshold(conf, FLAG_SHARE);
        let flagged = conf.iter().filter(|c| **c < t15).count();
        let caught = conf.iter().zip(f1).filter(|(c, f)| **c < t15 && **f < BAD_F1).count();
        Quality {
            pages: conf.len(),
            spearman: spearman(conf, f1),
            threshold,
            below: below.len(),
            mean_below: mean(below),
            mean_above: mean(above),
            bad: f1.iter().filter(|f| **f < BAD_F1).count(),
            flagged,
            caught,
        }
    }

    /// The share of bad pages caught (NaN without bad pages).
    pub fn caught_share(&self) -> f64 {
        if self.bad == 0 { f64::NAN } else { self.caught as f64 / self.bad as f64 }
    }

    /// A few lines for people.
    pub fn lines(&self) -> String {
        format!(
            "Spearman(confidence, page F1) {:.3} over {} pages\n\
             pages below confidence {:.6}: {} ({:.1} %), mean F1 {:.3}; at or above: mean F1 {:.3}\n\
             pages with F1 < {BAD_F1}: {}; caught among the {} pages of lowest confidence (<= {:.0} % flagged): {} ({:.1} %)",
            self.spearman,
            self.pages,
            self.threshold,
            self.below,
            100.0 * self.below as f64 / self.pages.max(1) as f64,
            self.mean_below,
            self.mean_above,
            self.bad,
            self.flagged,
            100.0 * FLAG_SHARE,
            self.caught,
            100.0 * self.caught_share(),
        )
    }
}

/// The signals of every readable page of a gold set's `docs` under `ex` (None for a page that
/// could not be read or on which the extractor failed), in the order of `docs`.
pub fn gold_signals(
    set: &crate::goldset::GoldSet,
    docs: &[&crate::goldset::GoldDoc],
    ex: &dyn Extractor,
    tick: &(dyn Fn() + Sync),
) -> Vec<Option<Signals>> {
    let at: std::collections::HashMap<usize, usize> =
        docs.iter().enumerate().map(|(i, d)| (*d as *const crate::goldset::GoldDoc as usize, i)).collect();
    let out = std::sync::Mutex::new(vec![None; docs.len()]);
    super::stream::extract_set(set, ex, crate::document::Needs::NONE, &|d, text, doc| {
        if let (Ok(_), Some(doc), Some(&i)) = (text, doc, at.get(&(d as *const _ as usize))) {
            let s = crate::error::isolate(|| extract_with_signals(ex, doc)).ok().and_then(|r| r.ok()).map(|r| r.1);
            if let Ok(mut o) = out.lock() {
                o[i] = s;
            }
        }
        tick();
    });
    out.into_inner().unwrap_or_default()
}

/// For a setting with a fallback (a route's `fallback`): whether each page of a gold set's
/// `docs` went to the fallback under `ex` (None for a page that could not be read, on which the
/// extractor failed, or for an extractor without a fallback), in the order of `docs`.
pub fn gold_fell_back(
    set: &crate::goldset::GoldSet,
    docs: &[&crate::goldset::GoldDoc],
    ex: &dyn Extractor,
    tick: &(dyn Fn() + Sync),
) -> Vec<Option<bool>> {
    let at: std::collections::HashMap<usize, usize> =
        docs.iter().enumerate().map(|(i, d)| (*d as *const crate::goldset::GoldDoc as usize, i)).collect();
    let out = std::sync::Mutex::new(vec![None; docs.len()]);
    super::stream::extract_set(set, ex, crate::document::Needs::NONE, &|d, text, doc| {
        if let (Ok(_), Some(doc), Some(&i)) = (text, doc, at.get(&(d as *const _ as usize))) {
            let s = crate::error::isolate(|| ex.fell_back(doc)).ok().and_then(|r| r.ok()).flatten();
            if let Ok(mut o) = out.lock() {
                o[i] = s;
            }
        }
        tick();
    });
    out.into_inner().unwrap_or_default()
}

/// What a fallback did on a set of pages: how many went to it and their mean F1 with and without
/// it.
#[derive(Debug, Clone, PartialEq)]
pub struct FallbackGain {
    /// Pages judged (read and extracted).
    pub pages: usize,
    /// Pages that went to the fallback.
    pub fell_back: usize,
    /// Their mean F1 with the fallback (NaN without any).
    pub with: f64,
    /// Their mean F1 with the primary's output instead (NaN without any).
    pub without: f64,
    /// Mean F1 of every judged page with the fallback and without it.
    pub all_with: f64,
    /// See `all_with`.
    pub all_without: f64,
}

impl FallbackGain {
    /// From each page's decision and its F1 with and without the fallback (same order; a page
    /// without a decision is left out).
    pub fn of(fell: &[Option<bool>], with: &[f64], without: &[f64]) -> FallbackGain {
        let mean = |v: &[f64]| if v.is_empty() { f64::NAN } else { v.iter().sum::<f64>() / v.len() as f64 };
        let (mut fw, mut fo, mut aw, mut ao) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for ((f, w), o) in fell.iter().zip(with).zip(without) {
            let Some(f) = f else { continue };
            aw.push(*w);
            ao.push(*o);
            if *f {
                fw.push(*w);
                fo.push(*o);
            }
        }
        FallbackGain {
            pages: aw.len(),
            fell_back: fw.len(),
            with: mean(&fw),
            without: mean(&fo),
            all_with: mean(&aw),
            all_without: mean(&ao),
        }
    }

    /// A line for people.
    pub fn line(&self) -> String {
        format!(
            "fallback: {} of {} pages ({:.1} %) fell back; on them mean F1 {:.3} with the fallback, {:.3} without ({:+.3}); all pages {:.4} with, {:.4} without ({:+.4})",
            self.fell_back,
            self.pages,
            100.0 * self.fell_back as f64 / self.pages.max(1) as f64,
            self.with,
            self.without,
            self.with - self.without,
            self.all_with,
            self.all_without,
            self.all_with - self.all_without,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;

    #[test]
    fn spearman_is_one_for_monotone_pairs_and_handles_ties() {
        let a = [0.1, 0.2, 0.3, 0.4];
        assert!((spearman(&a, &[1.0, 4.0, 9.0, 16.0]) - 1.0).abs() < 1e-12);
        assert!((spearman(&a, &[4.0, 3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        // Ties take their mean rank: ranks [1.5, 1.5, 3, 4] against [1, 2, 3, 4].
        let r = spearman(&[1.0, 1.0, 2.0, 3.0], &[1.0, 2.0, 3.0, 4.0]);
        assert!((r - 0.948_683_298).abs() < 1e-6, "{r}");
        assert!(spearman(&[1.0, 1.0], &[1.0, 2.0]).is_nan());
    }

    #[test]
    fn the_flag_threshold_never_flags_more_than_the_share_and_never_splits_ties() {
        let c: Vec<f64> = (0..20).map(|i| i as f64 / 20.0).collect();
        let t = flag_threshold(&c, 0.15);
        assert_eq!(c.iter().filter(|x| **x < t).count(), 3);
        // Five pages tie at the bottom: flagging any would split them or flag 5 of 20 > 15 %.
        let c = [0.1, 0.1, 0.1, 0.1, 0.1, 0.5, 0.6, 0.7, 0.8, 0.9].repeat(2);
        let t = flag_threshold(&c, 0.15);
        assert!(c.iter().filter(|x| **x < t).count() <= 3);
        let q = Quality::of(
            &[0.1, 0.2, 0.9, 0.8, 0.7, 0.6, 0.5, 0.55, 0.65, 0.75],
            &[0.0, 0.1, 1.0, 0.9, 0.2, 0.9, 0.9, 0.9, 0.9, 0.9],
            0.3,
        );
        // 15 % of 10 pages: one page flagged (0.1, F1 0), catching one of three bad pages.
        assert_eq!((q.bad, q.flagged, q.caught, q.below), (3, 1, 1, 2));
        assert!((q.mean_below - 0.05).abs() < 1e-12 && (q.caught_share() - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn a_fallback_gain_counts_the_pages_that_fell_back_and_what_they_gained() {
        let fell = [Some(true), Some(false), None, Some(true)];
        let g = FallbackGain::of(&fell, &[0.8, 0.5, 0.0, 0.6], &[0.2, 0.5, 0.0, 0.4]);
        assert_eq!((g.pages, g.fell_back), (3, 2));
        assert!((g.with - 0.7).abs() < 1e-12 && (g.without - 0.3).abs() < 1e-12, "{g:?}");
        assert!((g.all_with - 1.9 / 3.0).abs() < 1e-12 && (g.all_without - 1.1 / 3.0).abs() < 1e-12);
        assert!(
            g.line().starts_with("fallback: 2 of 3 pages (66.7 %) fell back; on them mean F1 0.700 with"),
            "{}",
            g.line()
        );
        assert!(FallbackGain::of(&[Some(false)], &[1.0], &[1.0]).with.is_nan());
    }

    fn page_signals(html: &str, ex: &str) -> (String, Signals) {
        let ex =
            crate::extract::build(&crate::extract::Engine::default(), &crate::extract::space(ex).unwrap().defaults())
                .unwrap();
        let doc = Document::parse(html);
        extract_with_signals(ex.as_ref(), &doc).unwrap()
    }

    #[test]
    fn signals_read_what_was_kept_where_and_how_linked() {
        let nav: String = (0..10).map(|i| format!("<li><a href=/{i}>Link {i}</a></li>")).collect();
        let html =
            format!("<html><body><ul>{nav}</ul><p>One two three four five six seven eight nine ten.</p></body></html>");
        // `full` keeps every word: all of the page, starting at its start, one run.
        let (text, s) = page_signals(&html, "full");
        let f = |s: &Signals, n: &str| s[SIGNALS.iter().position(|x| *x == n).unwrap()];
        assert_eq!(
            text,
            crate::extract::extract_text(
                crate::extract::build(
                    &crate::extract::Engine::default(),
                    &crate::extract::space("full").unwrap().defaults()
                )
                .unwrap()
                .as_ref(),
                &Document::parse(&html)
            )
            .unwrap()
        );
        assert_eq!((f(&s, "kept_share"), f(&s, "start"), f(&s, "tail"), f(&s, "log_runs")), (1.0, 0.0, 0.0, 2f32.ln()));
        // 20 link words of 30.
        assert!((f(&s, "page_link_density") - 20.0 / 30.0).abs() < 1e-6, "{s:?}");
        assert!((f(&s, "output_link_density") - 20.0 / 30.0).abs() < 1e-6, "{s:?}");
        assert!((f(&s, "log_page_words") - 30f32.ln_1p()).abs() < 1e-6);
        // An empty page: nothing kept, the start at the end.
        let (text, s) = page_signals("<html><body><script>x</script></body></html>", "full");
        assert_eq!(text, "");
        assert_eq!((f(&s, "log_kept_words"), f(&s, "start")), (0.0, 1.0));
    }

    #[test]
    fn a_model_reads_back_and_a_damaged_one_is_refused() {
        let x: Vec<Signals> = (0..40)
            .map(|i| {
                let mut s = [0f32; N_SIGNALS];
                s[2] = i as f32 / 40.0;
                s
            })
            .collect();
        let y: Vec<f64> = (0..40).map(|i| if i < 10 { 0.0 } else { 0.9 }).collect();
        let (m, oof) = fit(&x, &y, 5, "full".into());
        assert_eq!(oof.len(), 40);
        // The estimate follows the signal: low below 10/40 kept, high above.
        assert!(m.predict(&x[2]) < 0.3 && m.predict(&x[30]) > 0.7, "{} {}", m.predict(&x[2]), m.predict(&x[30]));
        assert!(spearman(&oof, &y) > 0.5);
        let back = Model::parse(&m.to_json()).unwrap();
        assert_eq!(back.forest.trees, m.forest.trees);
        assert_eq!((back.predict(&x[30]), back.threshold), (m.predict(&x[30]), m.threshold));
        for (bad, why) in [("{", "not a confidence model file"), (r#"{"format":"x"}"#, "not a confidence model file")] {
            assert!(Model::parse(bad).unwrap_err().contains(why), "{bad}");
        }
        // A child pointing backwards would loop: refused.
        let j = m.to_json().replacen("\"trees\": [", "\"trees\": [[[0, 0.5, 0, 0], [1]],", 1);
        assert!(Model::parse(&j).unwrap_err().contains("is not a node"), "{j}");
        let j = m.to_json().replace(&format!("\"{}\"", SIGNALS[3]), "\"other\"");
        assert!(Model::parse(&j).unwrap_err().contains("other signals"));
    }
}
