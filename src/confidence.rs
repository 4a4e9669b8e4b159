//! A confidence for every page: an estimate of the page's F1 from page-level signals of what
//! the extractor saw and did (issue 40). The signals are read from the extractor's own selection
//! in its own view (source words, DOM text nodes or blocks), so they work with any setting and
//! cost one pass over the page's units: the share of the page's words kept, the output's length
//! and link density, where the output starts and ends in the page, how many separate runs it
//! keeps, how much of it is hidden text, and the shape of the rendered text.
//!
//! The estimate is a regression on page F1 with the gradient-boosted trees of the `blocktrees`
//! family ([`crate::extract::blocktrees::trees`]: logistic loss on the F1 as a soft label, so
//! the estimate is the sigmoid of the raw score), fitted on a gold sample; its quality is
//! measured out of fold when it is fitted ([`fit`]) and on any gold set by `evaluate
//! --confidence` ([`Quality`]). The model is a small JSON file ([`Model::to_json`],
//! [`Model::read`]), tied to the setting it was fitted for.
//!
//! Imports from the crate: `document`, `extract` (the trees, the extractor trait), `goldset`,
//! `objective` (the gold passes), `params` (the setting a model is for, its file reader) and
//! `error`.

use crate::document::{Document, Selection, View};
use crate::error::{Error, Result};
use crate::extract::Extractor;
use crate::extract::blocktrees::trees::{self, Forest, Hyper, Node, Rows};
use std::path::Path;

/// The first line's `format` of a confidence model file.
pub const FORMAT: &str = "cetune confidence model 1";

/// The signals, in the order of a model's feature rows.
pub const SIGNALS: [&str; N_SIGNALS] = [
    "log_page_words",
    "log_kept_words",
    "kept_share",
    "output_link_density",
    "page_link_density",
    "start",
    "tail",
    "log_runs",
    "largest_run_share",
    "gap_share",
    "hidden_share",
    "punctuation_per_word",
    "short_line_share",
    "view",
];

/// Number of signals.
pub const N_SIGNALS: usize = 14;

/// The signals of one page.
pub type Signals = [f32; N_SIGNALS];

/// The share of pages `evaluate --confidence` and `cetune confidence` flag at most (the pages
/// of lowest confidence) when they measure how many bad pages are caught.
pub const FLAG_SHARE: f64 = 0.15;

/// A page whose F1 is below this is a bad page (a failed extraction) for the caught share.
pub const BAD_F1: f64 = 0.25;

/// One unit of the extractor's view: its words, its words inside links, hidden or not.
#[derive(Debug, Clone, Copy, Default)]
struct Unit {
    words: f32,
    link_words: f32,
    hidden: bool,
}

/// The units of the view `view` of `doc`, in document order.
fn units(doc: &Document, view: View) -> Vec<Unit> {
    match view {
        View::Source => {
            let mut out = vec![Unit { words: 1.0, ..Unit::default() }; doc.source.words.len()];
            let mut depth = 0u32;
            for t in &doc.source.tokens {
                match t.kind {
                    crate::document::Kind::Start if t.tag == crate::document::tags::A => depth += 1,
                    crate::document::Kind::End if t.tag == crate::document::tags::A => depth = depth.saturating_sub(1),
                    crate::document::Kind::Word if depth > 0 => {
                        if let Some(u) = out.get_mut(t.word as usize) {
                            u.link_words = 1.0;
                        }
                    }
                    _ => {}
                }
            }
            out
        }
        View::Dom => (0..doc.dom.texts.len())
            .map(|u| {
                let words = doc.dom.texts.get(u).split_whitespace().count() as f32;
                let link = doc.dom.info.get(u).is_some_and(|i| i.in_href);
                Unit { words, link_words: if link { words } else { 0.0 }, hidden: false }
            })
            .collect(),
        View::Blocks => {
            let s = &doc.segments;
            let link = crate::document::segments::FEATURES.iter().position(|(n, _)| *n == "link_ratio");
            (0..s.len())
                .map(|b| {
                    let words = s.words.get(b).copied().unwrap_or(0) as f32;
                    let ratio = link.map_or(0.0, |k| s.row(b)[k].clamp(0.0, 1.0));
                    Unit { words, link_words: words * ratio, hidden: s.hidden[b] != 0 }
                })
                .collect()
        }
    }
}

/// The signals of a page: `sel` is what the extractor kept of `doc`, `text` its rendering.
pub fn signals(doc: &Document, sel: &Selection, text: &str) -> Signals {
    let units = units(doc, sel.view);
    let mut kept = vec![false; units.len()];
    sel.units.iter().for_each(|&u| {
        if let Some(k) = kept.get_mut(u as usize) {
            *k = true;
        }
    });
    let total: f32 = units.iter().map(|u| u.words).sum();
    let page_links: f32 = units.iter().map(|u| u.link_words).sum();
    let (mut k_words, mut k_links, mut k_hidden) = (0f32, 0f32, 0f32);
    let (mut before, mut first, mut last_end, mut pos) = (0f32, None, 0f32, 0f32);
    let (mut runs, mut run, mut largest, mut in_run) = (0u32, 0f32, 0f32, false);
    for (u, &k) in units.iter().zip(&kept) {
        if u.words <= 0.0 {
            continue;
        }
        if k {
            if first.is_none() {
                first = Some(pos);
                before = pos;
            }
            k_words += u.words;
            k_links += u.link_words;
            if u.hidden {
                k_hidden += u.words;
            }
            if !in_run {
                runs += 1;
                run = 0.0;
            }
            run += u.words;
            largest = largest.max(run);
            last_end = pos + u.words;
        }
        in_run = k;
        pos += u.words;
    }
    let share = |a: f32, b: f32| if b > 0.0 { a / b } else { 0.0 };
    let span = first.map_or(0.0, |f| last_end - f);
    let (mut out_words, mut punct, mut lines, mut short) = (0f32, 0f32, 0f32, 0f32);
    for line in text.lines() {
        let w = line.split_whitespace().count() as f32;
        if w <= 0.0 {
            continue;
        }
        lines += 1.0;
        short += f32::from(w < 5.0);
        out_words += w;
        punct += line.chars().filter(|c| matches!(c, '.' | '!' | '?' | '。' | '！' | '？')).count() as f32;
    }
    [
        total.ln_1p(),
        k_words.ln_1p(),
        share(k_words, total),
        share(k_links, k_words),
        share(page_links, total),
        if first.is_some() { share(before, total) } else { 1.0 },
        if first.is_some() { share(total - last_end, total) } else { 0.0 },
        (runs as f32).ln_1p(),
        share(largest, k_words),
        share(span - k_words, span),
        share(k_hidden, k_words),
        share(punct, out_words),
        share(short, lines),
        match sel.view {
            View::Source => 0.0,
            View::Dom => 1.0,
            View::Blocks => 2.0,
        },
    ]
}

/// Extracts `doc` with `ex` as [`crate::extract::extract_text`] does, and reads the signals of
/// what it kept: the text is the same.
pub fn extract_with_signals(ex: &dyn Extractor, doc: &Document) -> (String, Signals) {
    let mut sel = Selection::new(ex.view());
    ex.extract(doc, &mut sel);
    let text = doc.render(&sel);
    let s = signals(doc, &sel, &text);
    (text, s)
}

/// A fitted confidence model: the trees, the setting it was fitted for, and the threshold below
/// which a page is low confidence by default.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// The trees (the estimate is the sigmoid of their raw score).
    pub forest: Forest,
    /// The setting it was fitted for ([`setting_key`]).
    pub setting: String,
    /// The default `--min-confidence`: the out-of-fold confidence below which [`FLAG_SHARE`]
    /// of the fitting pages fall.
    pub threshold: f64,
    /// What it was fitted on (the gold set, pages) and its out-of-fold quality, for people.
    pub about: serde_json::Value,
}

/// The key of a setting a model is tied to: its extractor and every value.
pub fn setting_key(s: &crate::params::Setting) -> String {
    let values: Vec<String> = s.values.iter().map(|(n, v)| format!("{n}={v}")).collect();
    if values.is_empty() { s.extractor.clone() } else { format!("{} {}", s.extractor, values.join(",")) }
}

/// The JSON form of a model file.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    signals: Vec<String>,
    setting: String,
    threshold: f64,
    about: serde_json::Value,
    base: f32,
    /// Each tree as nodes, root first: `[feature, threshold, left, right]` or `[leaf value]`.
    trees: Vec<Vec<Vec<f64>>>,
}

impl Model {
    /// The estimate of a page's F1, in (0, 1).
    pub fn predict(&self, x: &Signals) -> f64 {
        1.0 / (1.0 + (-self.forest.raw(x)).exp())
    }

    /// The model file's text.
    pub fn to_json(&self) -> String {
        let trees = self
            .forest
            .trees
            .iter()
            .map(|t| {
                t.iter()
                    .map(|n| match *n {
                        Node::Split { feature, threshold, left, right } => {
                            vec![f64::from(feature), f64::from(threshold), f64::from(left), f64::from(right)]
                        }
                        Node::Leaf(v) => vec![f64::from(v)],
                    })
                    .collect()
            })
            .collect();
        let f = File {
            format: FORMAT.into(),
            signals: SIGNALS.iter().map(|s| s.to_string()).collect(),
            setting: self.setting.clone(),
            threshold: self.threshold,
            about: self.about.clone(),
            base: self.forest.base,
            trees,
        };
        serde_json::to_string_pretty(&f).unwrap_or_default() + "\n"
    }

    /// Reads a model file's text; the error says what is wrong (the caller names the file).
    pub fn parse(text: &str) -> std::result::Result<Model, String> {
        let f: File = serde_json::from_str(text).map_err(|e| format!("not a confidence model file: {e}"))?;
        if f.format != FORMAT {
            return Err(format!("not a confidence model file (format '{}', expected '{FORMAT}')", f.format));
        }
        if f.signals != SIGNALS {
            return Err("fitted on other signals than this cetune reads: fit it again (cetune confidence)".into());
        }
        if !f.base.is_finite() || !f.threshold.is_finite() {
            return Err("a number of the model is not finite".into());
        }
        let mut forest = Forest { base: f.base, trees: Vec::with_capacity(f.trees.len()), gain: vec![0.0; N_SIGNALS] };
        for (ti, t) in f.trees.iter().enumerate() {
            let k = t.len();
            let mut nodes = Vec::with_capacity(k);
            for (j, n) in t.iter().enumerate() {
                let bad = || format!("tree {ti}, node {j}: {n:?} is not a node");
                if n.iter().any(|x| !x.is_finite()) {
                    return Err(bad());
                }
                nodes.push(match n.as_slice() {
                    [v] => Node::Leaf(*v as f32),
                    [feat, thr, left, right] => {
                        let whole = |x: f64| x >= 0.0 && x.fract() == 0.0 && x < u32::MAX as f64;
                        if !(whole(*feat) && whole(*left) && whole(*right)) || *feat as usize >= N_SIGNALS {
                            return Err(bad());
                        }
                        // Children point forward and inside the tree, so every walk ends.
                        let inside = |c: f64| (c as usize) > j && (c as usize) < k;
                        if !inside(*left) || !inside(*right) {
                            return Err(bad());
                        }
                        Node::Split {
                            feature: *feat as u16,
                            threshold: *thr as f32,
                            left: *left as u32,
                            right: *right as u32,
                        }
                    }
                    _ => return Err(bad()),
                });
            }
            if nodes.is_empty() {
                return Err(format!("tree {ti} has no node"));
            }
            forest.trees.push(nodes);
        }
        Ok(Model { forest, setting: f.setting, threshold: f.threshold, about: f.about })
    }

    /// Reads the model file `path` for the setting `s`: a file that cannot be read, is damaged,
    /// or was fitted for another setting is a configuration error naming it (exit 2).
    pub fn read(path: &Path, s: &crate::params::Setting) -> Result<Model> {
        let text =
            crate::params::read_model_file(path).map_err(|e| Error { kind: crate::error::ErrorKind::Config, ..e })?;
        let m = Model::parse(&text).map_err(|e| Error::config(e).with_path(path))?;
        let want = setting_key(s);
        if m.setting != want {
            return Err(Error::config(format!(
                "the confidence model was fitted for '{}', not for this setting '{want}': fit one for it (cetune confidence)",
                m.setting
            ))
            .with_path(path));
        }
        Ok(m)
    }
}

/// The trees' hyperparameters for a confidence fit: small, shallow and slow to learn, for a
/// sample of about a hundred pages.
pub fn hyper() -> Hyper {
    Hyper { trees: 80, depth: 3, learning_rate: 0.08, min_leaf: 5, allowed: vec![true; N_SIGNALS] }
}

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
    crate::objective::stream::extract_set(set, ex, crate::document::Needs::NONE, &|d, text, doc| {
        if let (Ok(_), Some(doc), Some(&i)) = (text, doc, at.get(&(d as *const _ as usize))) {
            let s = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| extract_with_signals(ex, doc).1)).ok();
            if let Ok(mut o) = out.lock() {
                o[i] = s;
            }
        }
        tick();
    });
    out.into_inner().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn page_signals(html: &str, ex: &str) -> (String, Signals) {
        let ex = crate::extract::build(&crate::extract::space(ex).unwrap().defaults()).unwrap();
        let doc = Document::parse(html);
        extract_with_signals(ex.as_ref(), &doc)
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
                crate::extract::build(&crate::extract::space("full").unwrap().defaults()).unwrap().as_ref(),
                &Document::parse(&html)
            )
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
