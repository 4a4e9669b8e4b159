//! # Blocktrees (supervised block model)
//!
//! The supervised sibling of `blocks`: the same blocks and feature vectors (the block view,
//! `document/segments.rs`), scored by gradient-boosted regression trees fitted on the user's
//! gold. Each block of a tuning page is labelled with the share of its evaluation tokens that
//! the LCS alignment with the gold keeps (the alignment `annotate` uses); the trees are fitted
//! on those labels ([`trees`]), and a block is kept when its probability, optionally smoothed
//! with its neighbours', reaches `t`. While tuning, a setting's fitness is out of fold: the
//! model that scores a page was fitted on the other folds of the sample
//! (`objective/fit.rs`), so the search cannot reward memorising its own pages. The run's
//! `best.model`, fitted on the whole sample with the winning setting, is the sidecar its
//! `best.yaml` names (`model: best.model`): `extract`, `evaluate`, `compare`, `report` and
//! `annotate` apply it with no sample at hand ([`Model::read`] refuses a truncated file, one
//! from another feature set, or one fitted with other hyperparameters, with its line).
//!
//! Without a model (the defaults, or a description with no `model:`) the family scores blocks
//! with `blocks`' hand-set prior, so that it runs anywhere; it is meant to be tuned.
//!
//! ## References
//! Friedman, *Greedy Function Approximation: A Gradient Boosting Machine*, Annals of Statistics
//! 29(5), 2001; Kohlschütter, Fankhauser & Nejdl, *Boilerplate Detection using Shallow Text
//! Features*, WSDM 2010 (block features + a learned classifier); Peters & Lecocq, *Content
//! Extraction Using Diverse Feature Sets*, WWW 2013 (Dragnet).
//!
//! ## Parameters
//! - `hidden_text`: which hidden blocks are candidates (and training rows): `none`, `noscript`,
//!   `streaming`, `all`;
//! - `t`: keep a block whose probability is at least `t` (not a property of the model: the gold
//!   set's convention, tuned first);
//! - `smooth`: share of a block's raw score taken from the mean of its two neighbours;
//! - `trees`, `depth`, `learning_rate`, `min_leaf`: the boosting's hyperparameters;
//! - `group_<group>`: the trees may split on the group's features;
//! - `folds`: k of the k-fold out-of-fold fitness (not a gene).
//!
//! ## Interpretation
//! The Python prototype (`block-model-prototype.md`, histogram gradient boosting on 111
//! features) is the literature default here: about 250 trees of 31 leaves at learning rate 0.05,
//! `t` 0.10 on WCXB; smaller, shallower forests are the defaults so that a fit takes about a
//! second on 120 pages.

pub mod trees;

use super::Extractor;
use crate::document::segments::{FEATURES, HiddenText, N_FEATURES, groups};
use crate::document::{Document, Selection, View};
use crate::error::{Error, Result};
use crate::params::{Setting, SettingReader};
use std::path::Path;
use std::sync::Arc;
use trees::{Forest, Hyper, Node};

/// Parameters that do not change a fit (applied to a fitted model's scores, or the fold count).
pub const NOT_FIT: &[&str] = &["t", "smooth", "folds"];

/// A fitted block model: the forest and the setting it was fitted with.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// The trees.
    pub forest: Forest,
    /// [`fit_key`] of the setting it was fitted with.
    pub fit: String,
}

/// A configured block scorer.
pub struct Blocktrees {
    hidden_text: HiddenText,
    t: f64,
    smooth: f64,
    scorer: Scorer,
}

/// What turns a block's features into a raw score.
enum Scorer {
    /// A fitted forest.
    Trees(Arc<Model>),
    /// No model: `blocks`' prior.
    Prior(Box<dyn Extractor>),
}

/// The parameters of `s` that decide a fit, as `name=value,…`.
pub fn fit_key(s: &Setting) -> String {
    s.values
        .iter()
        .filter(|(n, _)| !NOT_FIT.contains(&n.as_str()))
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The hyperparameters and candidate filter of a setting.
pub fn hyper(s: &Setting) -> Result<(Hyper, HiddenText)> {
    let mut r = s.reader();
    let hidden: HiddenText = r.choice("hidden_text")?;
    let on: Vec<bool> = groups().iter().map(|g| r.bool(&format!("group_{g}"))).collect::<Result<_>>()?;
    let gs = groups();
    let allowed = FEATURES.iter().map(|(_, g)| on[gs.iter().position(|x| x == g).unwrap_or(0)]).collect();
    let h = Hyper {
        trees: r.int("trees")?.max(0) as usize,
        depth: r.int("depth")?.max(0) as usize,
        learning_rate: r.float("learning_rate")?,
        min_leaf: r.int("min_leaf")?.max(1) as usize,
        allowed,
    };
    Ok((h, hidden))
}

impl Blocktrees {
    /// Registry constructor: the model the setting names, or the prior without one.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        let model = match r.model() {
            Some(p) => Some(load(p, &fit_key(r.setting()))?),
            None => None,
        };
        Self::with_model(r, model)
    }

    /// A scorer of `s` that applies `model` (fitted with `s`'s fit parameters).
    pub fn from_model(s: &Setting, model: Arc<Model>) -> Result<Box<dyn Extractor>> {
        let mut r = s.reader();
        let ex = Self::with_model(&mut r, Some(model))?;
        r.finish()?;
        Ok(ex)
    }

    fn with_model(r: &mut SettingReader, model: Option<Arc<Model>>) -> Result<Box<dyn Extractor>> {
        // The fit's parameters, read here so that none goes unread (`hyper` reads a copy).
        hyper(r.setting())?;
        let hidden = r.cat("hidden_text")?;
        let hidden_text: HiddenText = r.choice("hidden_text")?;
        for g in groups() {
            r.bool(&format!("group_{g}"))?;
        }
        for n in ["trees", "depth", "min_leaf", "folds"] {
            r.int(n)?;
        }
        r.float("learning_rate")?;
        let scorer = match model {
            Some(m) => Scorer::Trees(m),
            None => {
                let mut prior = super::space("blocks")?.defaults();
                if let Some(slot) = prior.values.iter_mut().find(|(n, _)| n == "hidden_text") {
                    slot.1 = crate::params::Value::Cat(hidden);
                }
                Scorer::Prior(super::build(&prior)?)
            }
        };
        Ok(Box::new(Blocktrees { hidden_text, t: r.float("t")?, smooth: r.float("smooth")?, scorer }))
    }

    /// The candidate blocks and their (smoothed) probabilities.
    fn scores(&self, doc: &Document, forest: &Forest) -> (Vec<u32>, Vec<f64>) {
        let s = &doc.segments;
        let cand: Vec<u32> = (0..s.len() as u32).filter(|&b| self.hidden_text.admits(s.hidden[b as usize])).collect();
        let z: Vec<f64> = cand.iter().map(|&b| forest.raw(s.row(b as usize))).collect();
        (cand, crate::extract::blocks::smoothed(&z, self.smooth))
    }
}

impl Extractor for Blocktrees {
    fn view(&self) -> View {
        View::Blocks
    }

    // The block view carries every feature the trees (and blocks' prior) read.
    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::SEGMENTS
    }

    fn extract(&self, doc: &Document, out: &mut Selection) {
        match &self.scorer {
            Scorer::Prior(p) => p.extract(doc, out),
            Scorer::Trees(m) => {
                let (cand, p) = self.scores(doc, &m.forest);
                out.units.extend(cand.iter().zip(&p).filter(|(_, p)| **p >= self.t).map(|(b, _)| *b));
            }
        }
    }

    /// The probability of each visible word's block (hidden blocks hold no canonical word).
    fn confidence(&self, doc: &Document, out: &mut Vec<f32>) -> bool {
        let m = match &self.scorer {
            Scorer::Prior(p) => return p.confidence(doc, out),
            Scorer::Trees(m) => m,
        };
        out.clear();
        out.resize(doc.source.words.len(), 0.0);
        let (cand, p) = self.scores(doc, &m.forest);
        for (&b, &p) in cand.iter().zip(&p) {
            for &u in doc.segments.dom_units(b as usize) {
                doc.words.words_of(u as usize).iter().for_each(|&w| out[w as usize] = p as f32);
            }
        }
        true
    }
}

/// The first line of a model file.
const MAGIC: &str = "cetune blocktrees model 1";

/// A fingerprint of the feature table (names and order): a model is only read by the feature
/// version it was fitted on.
pub fn feature_version() -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (n, g) in FEATURES {
        for b in n.bytes().chain([b'/']).chain(g.bytes()).chain([b';']) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{N_FEATURES}:{h:016x}")
}

impl Model {
    /// The model as the text of a model file.
    pub fn write(&self) -> String {
        let mut s = format!("{MAGIC}\nfeatures {}\nfit {}\nbase {}\n", feature_version(), self.fit, self.forest.base);
        let gain: Vec<String> = FEATURES.iter().zip(&self.forest.gain).map(|((n, _), g)| format!("{n}={g}")).collect();
        s.push_str(&format!("gain {}\ntrees {}\n", gain.join(","), self.forest.trees.len()));
        for t in &self.forest.trees {
            s.push_str(&format!("tree {}\n", t.len()));
            for n in t {
                match n {
                    Node::Split { feature, threshold, left, right } => {
                        s.push_str(&format!("s {feature} {threshold} {left} {right}\n"))
                    }
                    Node::Leaf(v) => s.push_str(&format!("l {v}\n")),
                }
            }
        }
        s.push_str("end\n");
        s
    }

    /// Reads a model file's text; an error names the line (the caller adds the file).
    pub fn read(text: &str) -> Result<Model> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let bad = |line: usize, what: String| Error::config(what).with_line(line, None);
        let mut next = |want: &str| -> Result<(usize, String)> {
            match lines.next() {
                Some((i, l)) => Ok((i, l.to_string())),
                None => Err(Error::config(format!("the model file is truncated: expected {want}"))),
            }
        };
        let (i, l) = next("the header")?;
        if l != MAGIC {
            return Err(bad(i, format!("not a cetune block model (expected '{MAGIC}')")));
        }
        let field = |(i, l): (usize, String), key: &str| -> Result<(usize, String)> {
            l.strip_prefix(&format!("{key} "))
                .map(|v| (i, v.to_string()))
                .ok_or_else(|| bad(i, format!("expected '{key} …', got '{}'", cut(&l))))
        };
        let (i, v) = field(next("features")?, "features")?;
        if v != feature_version() {
            return Err(bad(i, format!("fitted on another feature set ({v}; this cetune has {})", feature_version())));
        }
        let (_, fit) = field(next("fit")?, "fit")?;
        let (i, base) = field(next("base")?, "base")?;
        let base: f32 = num(&base, i)?;
        let (i, gain) = field(next("gain")?, "gain")?;
        let gain: Vec<f64> = gain
            .split(',')
            .map(|kv| kv.split_once('=').map_or(Err(bad(i, format!("bad gain '{}'", cut(kv)))), |(_, g)| num(g, i)))
            .collect::<Result<_>>()?;
        if gain.len() != N_FEATURES {
            return Err(bad(i, format!("{} gains for {N_FEATURES} features", gain.len())));
        }
        let (i, n) = field(next("trees")?, "trees")?;
        let n: usize = num(&n, i)?;
        let mut forest = Forest { base, trees: Vec::with_capacity(n.min(10_000)), gain };
        for _ in 0..n {
            let (i, k) = field(next("a tree")?, "tree")?;
            let k: usize = num(&k, i)?;
            let mut t = Vec::with_capacity(k.min(1 << 16));
            for j in 0..k {
                let (i, l) = next("a tree node")?;
                t.push(node(&l, i, j, k)?);
            }
            forest.trees.push(t);
        }
        let (i, l) = next("'end'")?;
        if l != "end" {
            return Err(bad(i, format!("expected 'end', got '{}'", cut(&l))));
        }
        Ok(Model { forest, fit })
    }
}

/// One node line (`s feature threshold left right` or `l value`) of a tree of `k` nodes, as
/// node `j`: children point forward and inside the tree, so every walk ends.
fn node(l: &str, i: usize, j: usize, k: usize) -> Result<Node> {
    let f: Vec<&str> = l.split(' ').collect();
    let bad = || Error::config(format!("bad tree node '{}'", cut(l))).with_line(i, None);
    match f.as_slice() {
        ["l", v] => Ok(Node::Leaf(num(v, i)?)),
        ["s", feat, thr, left, right] => {
            let (feature, left, right): (u16, u32, u32) = (num(feat, i)?, num(left, i)?, num(right, i)?);
            let inside = |c: u32| (c as usize) > j && (c as usize) < k;
            if feature as usize >= N_FEATURES || !inside(left) || !inside(right) {
                return Err(bad());
            }
            Ok(Node::Split { feature, threshold: num(thr, i)?, left, right })
        }
        _ => Err(bad()),
    }
}

/// A number of a model file's line `i`.
fn num<T: std::str::FromStr>(s: &str, i: usize) -> Result<T> {
    s.trim().parse().map_err(|_| Error::config(format!("'{}' is not a number", cut(s))).with_line(i, None))
}

/// At most 40 characters of a line, for a message.
fn cut(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Reads the model file `path` and checks it was fitted with `fit` (the setting's [`fit_key`]).
pub fn load(path: &Path, fit: &str) -> Result<Arc<Model>> {
    let m = read_model(path)?;
    if m.fit != fit {
        return Err(Error::config(format!(
            "the model was fitted with {}, but the setting says {fit}: refit it (cetune optimise) or use its own best.yaml",
            m.fit
        ))
        .with_path(path)
        .with_line(3, None));
    }
    Ok(m)
}

/// Reads the model file `path`. Models are kept by path, so a command that builds the
/// extractor many times reads it once.
pub fn read_model(path: &Path) -> Result<Arc<Model>> {
    static CACHE: std::sync::Mutex<Vec<(std::path::PathBuf, Arc<Model>)>> = std::sync::Mutex::new(Vec::new());
    let cached = CACHE.lock().ok().and_then(|c| c.iter().find(|(p, _)| p == path).map(|(_, m)| m.clone()));
    if let Some(m) = cached {
        return Ok(m);
    }
    // A settings file that names a missing or unreadable model is a configuration error.
    let text =
        crate::params::read_model_file(path).map_err(|e| Error { kind: crate::error::ErrorKind::Config, ..e })?;
    let m = Arc::new(Model::read(&text).map_err(|e| e.with_path(path))?);
    if let Ok(mut c) = CACHE.lock() {
        c.push((path.to_path_buf(), m.clone()));
    }
    Ok(m)
}

#[cfg(test)]
mod tests;
