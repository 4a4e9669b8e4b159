//! The confidence model a node applies (issue 40): the page-level signals of what an extractor
//! kept ([`signals`]) and the fitted trees that estimate the page's F1 from them ([`Model`]).
//! They live here, below `confidence` (which fits and measures them), so that a route's fallback
//! ([`super::route`]) can judge its primary's output with the same model `extract --confidence`
//! applies.
//!
//! Imports from the crate: `document`, `extract` (the trees, the extractor trait), `params` (the
//! setting a model is for, its file reader) and `error`.

use super::Extractor;
use super::trees::{Forest, Hyper, Node};
use crate::document::{Document, Selection, View};
use crate::error::{Error, Result};
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
pub fn extract_with_signals(ex: &dyn Extractor, doc: &Document) -> super::Fallible<(String, Signals)> {
    let mut sel = Selection::new(ex.view());
    ex.extract(doc, &mut sel)?;
    let text = doc.render(&sel);
    let s = signals(doc, &sel, &text);
    Ok((text, s))
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
