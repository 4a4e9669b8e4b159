//! # Blocktrees (supervised block model)
//!
//! The supervised sibling of `blocks`: the same blocks and feature vectors (the block view,
//! `document/segments.rs`), scored by gradient-boosted regression trees fitted on the user's
//! gold. Each block of a tuning page is labelled with the share of its evaluation tokens that
//! the LCS alignment with the gold keeps (the alignment `annotate` uses); the trees are fitted
//! on those labels ([`trees`]), and a block is kept when its probability, optionally smoothed
//! with its neighbours', reaches `t`. While tuning, a setting's fitness is out of fold: the
//! model that scores a page was fitted on the other folds of the sample
//! ([`fit`]), so the search cannot reward memorising its own pages. The run's
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
//! - `t_rel`: above 0, a page keeps the blocks within `t_rel` times its best score when that is
//!   below `t` (0: off);
//! - `smooth`: share of a block's raw score taken from the mean of its two neighbours;
//! - `trees`, `depth`, `learning_rate`, `min_leaf`: the boosting's hyperparameters;
//! - `stack`: a second stage of trees reads each block's first-stage score in its context
//!   ([`context`]);
//! - `regions`: the page's candidate regions are scored by trees fitted on their own F1 against
//!   the gold, and the second stage (implied) reads the chosen region ([`regions`]);
//! - `group_<group>`: the trees may split on the group's features (`group_lists`, the record
//!   groups, `group_dialog`, dialogs and `aria-hidden`, and `group_structured`, off by default;
//!   with `group_structured` the blocks of structured data the page does not show are candidates
//!   too);
//! - `vote`: share of a block's probability taken from its record group's mean ([`vote`]);
//! - `whole`: a block's probability raised towards its record's best block's ([`whole`]);
//! - `focus`: blocks outside the region of the best expected F1 weakened ([`focus`]);
//! - `member1`…`member3`: stacked members, other extractors whose keep-masks the trees read
//!   as one feature each ([`members`]; `none`: the slot is empty);
//! - `folds`: k of the k-fold out-of-fold fitness (not a gene).
//!
//! ## Interpretation
//! The Python prototype (`block-model-prototype.md`, histogram gradient boosting on 111
//! features) is the literature default here: about 250 trees of 31 leaves at learning rate 0.05,
//! `t` 0.10 on WCXB; smaller, shallower forests are the defaults so that a fit takes about a
//! second on 120 pages.

pub mod context;
pub mod fit;
pub mod members;
pub mod regions;

use super::Extractor;
use super::trees::{Forest, Hyper, Node};
use crate::document::segments::{Admit, FEATURES, N_FEATURES, NO_GROUP, Segments, groups};
use crate::document::{Document, Needs, Selection, View};
use crate::error::{Error, Result};
use crate::params::{Setting, SettingReader};
use std::sync::Arc;

/// Parameters that do not change a fit (applied to a fitted model's scores, or the fold count).
pub const NOT_FIT: &[&str] = &["t", "t_rel", "smooth", "vote", "whole", "focus", "folds"];

/// A fitted block model: the forest and the setting it was fitted with.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// The trees.
    pub forest: Forest,
    /// With `stack`, the second stage: trees over a block's features followed by its context
    /// ([`context::CONTEXT`]) in the first stage's scores.
    pub stack: Option<Forest>,
    /// [`fit_key`] of the setting it was fitted with.
    pub fit: String,
    /// The stacked members' votes its rows hold after the block features ([`members`]).
    pub members: usize,
    /// With `regions`, the forest that scores a page's candidate regions ([`regions`]); the
    /// second stage's rows then end with each block's region features.
    pub regions: Option<Forest>,
    /// The stacked members fitted on gold, as fitted with the trees (by slot; empty or `None`
    /// for a member that is not fitted).
    pub fitted: members::Fits,
}

/// A configured block scorer.
pub struct Blocktrees {
    hidden_text: Admit,
    t: f64,
    t_rel: f64,
    smooth: f64,
    vote: f64,
    whole: f64,
    focus: f64,
    scorer: Scorer,
    members: Vec<members::Member>,
}

/// What turns a block's features into a raw score.
enum Scorer {
    /// A fitted forest.
    Trees(Arc<Model>),
    /// No model: `blocks`' prior.
    Prior(Box<dyn Extractor>),
}

/// Parameters added after models and descriptions were written, with the value that behaves as
/// before them: left out of a fit's key at that value, so an earlier model's key is the key of
/// the same setting now, and read at that value from a description that does not declare them,
/// so a user's copy of an earlier `params/blocktrees.yaml` still loads.
const LATE: &[(&str, &str)] = &[
    ("start", "none"),
    ("group_lists", "false"),
    ("group_dialog", "false"),
    ("group_structured", "false"),
    ("vote", "0"),
    ("whole", "0"),
    ("focus", "0"),
    ("member1", members::NONE),
    ("member2", members::NONE),
    ("member3", members::NONE),
    ("regions", "false"),
];

/// True for a value that is left out of a fit's key ([`LATE`]).
fn unkeyed(n: &str, v: &crate::params::Value) -> bool {
    LATE.iter().any(|(name, value)| n == *name && v.to_string() == *value)
}

/// A reader of `s` that reads the [`LATE`] parameters a description leaves out at their values.
fn reader(s: &Setting) -> SettingReader<'_> {
    let mut r = s.reader();
    r.late(LATE);
    r
}

/// The parameters of `s` that decide a fit, as `name=value,…`.
pub fn fit_key(s: &Setting) -> String {
    s.values
        .iter()
        .filter(|(n, v)| !NOT_FIT.contains(&n.as_str()) && !unkeyed(n, v))
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// [`fit_key`] without `trees`: settings that share it share one boosting, cut or grown on to
/// each one's tree count (`trees::Boosted`).
pub fn boost_key(s: &Setting) -> String {
    s.values
        .iter()
        .filter(|(n, v)| !NOT_FIT.contains(&n.as_str()) && n != "trees" && !unkeyed(n, v))
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// What a search of `space` may read beyond its defaults: the blocks of structured data when
/// `group_structured` is a gene.
pub fn space_needs(space: &crate::params::ParamSpace) -> Needs {
    match space.param("group_structured") {
        Some(p) if p.tune => Needs::STRUCTURED,
        _ => Needs::NONE,
    }
}

/// True when the setting stacks a second stage over the first stage's context (`stack`, or
/// `regions`, whose decision the second stage reads).
pub fn stacked(s: &Setting) -> bool {
    matches!(s.get("stack"), Some(crate::params::Value::Bool(true))) || regional(s)
}

/// True when the setting learns the region decision (`regions`).
pub fn regional(s: &Setting) -> bool {
    matches!(s.get("regions"), Some(crate::params::Value::Bool(true)))
}

/// The hyperparameters of the second stage: the first stage's, every context feature (and with
/// `regions` every region feature) allowed.
pub fn stage_two(h: &Hyper, regions: bool) -> Hyper {
    let mut h2 = h.clone();
    let more = context::N_CONTEXT + if regions { regions::N_BLOCK } else { 0 };
    h2.allowed.extend(std::iter::repeat_n(true, more));
    h2
}

/// The hyperparameters and candidate filter of a setting (with `group_structured`, the blocks
/// of structured data the page does not show are candidates too).
pub fn hyper(s: &Setting) -> Result<(Hyper, Admit)> {
    let mut r = reader(s);
    let hidden = Admit { hidden: r.choice("hidden_text")?, structured: r.bool("group_structured")? };
    let on: Vec<bool> = groups().iter().map(|g| r.bool(&format!("group_{g}"))).collect::<Result<_>>()?;
    let gs = groups();
    let mut allowed: Vec<bool> =
        FEATURES.iter().map(|(_, g)| on[gs.iter().position(|x| x == g).unwrap_or(0)]).collect();
    allowed.extend(std::iter::repeat_n(true, members::names(s).len()));
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
    /// Registry constructor: the prior. A setting that names a model file is applied by the
    /// family's [`fit::FIT`] with the model its engine read ([`super::build_with`]).
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        r.late(LATE);
        Ok(Self::with_model(r, None)?)
    }

    /// A scorer of `s` that applies `model` (fitted with `s`'s fit parameters); `engine` builds
    /// its stacked members.
    pub fn from_model(engine: &super::Engine, s: &Setting, model: Arc<Model>) -> Result<Box<dyn Extractor>> {
        let n = members::names(s).len();
        if model.members != n {
            return Err(Error::config(format!(
                "the block model reads {} stacked members' votes, the setting names {n}",
                model.members
            )));
        }
        let mut r = reader(s);
        let fits = model.fitted.clone();
        let mut ex = Self::with_model(&mut r, Some(model))?;
        r.finish()?;
        ex.members = members::build(engine, s, &fits)?;
        Ok(ex)
    }

    fn with_model(r: &mut SettingReader, model: Option<Arc<Model>>) -> Result<Box<Blocktrees>> {
        // The stacked members are built by the caller that has an engine (without a model the
        // prior reads none).
        for slot in members::SLOTS {
            r.cat(slot)?;
        }
        // The fit's parameters, read here so that none goes unread (`hyper` reads a copy).
        let (_, hidden_text) = hyper(r.setting())?;
        let hidden = r.cat("hidden_text")?;
        for g in groups() {
            r.bool(&format!("group_{g}"))?;
        }
        for n in ["trees", "depth", "min_leaf", "folds"] {
            r.int(n)?;
        }
        r.bool("stack")?;
        r.bool("regions")?;
        // What a fit starts from: its trees are in the model, so extraction needs nothing else.
        r.cat("start")?;
        r.float("learning_rate")?;
        let scorer = match model {
            Some(m) => Scorer::Trees(m),
            None => {
                let mut prior = super::space("blocks")?.defaults();
                if let Some(slot) = prior.values.iter_mut().find(|(n, _)| n == "hidden_text") {
                    slot.1 = crate::params::Value::Cat(hidden);
                }
                // A family's defaults: no model file, no worker, so any engine builds them.
                Scorer::Prior(super::build(&super::Engine::default(), &prior)?)
            }
        };
        let (t, t_rel, smooth) = (r.float("t")?, r.float("t_rel")?, r.float("smooth")?);
        let (vote, whole, focus) = (r.float("vote")?, r.float("whole")?, r.float("focus")?);
        Ok(Box::new(Blocktrees { hidden_text, t, t_rel, smooth, vote, whole, focus, scorer, members: Vec::new() }))
    }

    /// The probability a block needs on a page whose blocks score `p`: `t`, or with `t_rel`
    /// above 0 at most `t_rel` times the page's best score, so that a page on which the model
    /// is unsure of every block still keeps its best ones.
    fn cut(&self, p: &[f64]) -> f64 {
        if self.t_rel > 0.0 { self.t.min(self.t_rel * p.iter().copied().fold(0.0, f64::max)) } else { self.t }
    }

    /// The candidate blocks and their (smoothed) probabilities.
    fn scores(&self, doc: &Document, m: &Model) -> crate::extract::Fallible<(Vec<u32>, Vec<f64>)> {
        let s = &doc.segments;
        let cand: Vec<u32> = (0..s.len() as u32).filter(|&b| self.hidden_text.admits(s.hidden[b as usize])).collect();
        let k = self.members.len();
        let votes = if k > 0 { members::votes(doc, &cand, &self.members)? } else { Vec::new() };
        let mut row = Vec::with_capacity(N_FEATURES + k + context::N_CONTEXT + regions::N_BLOCK);
        let mut z: Vec<f64> = match k {
            0 => cand.iter().map(|&b| m.forest.raw(s.row(b as usize))).collect(),
            _ => (0..cand.len())
                .map(|i| m.forest.raw(row_of(&mut row, s.row(cand[i] as usize), &votes[i * k..(i + 1) * k], &[], &[])))
                .collect(),
        };
        if let Some(second) = &m.stack {
            let ctx = context::context(s, &cand, &z);
            let reg = m.regions.as_ref().map(|f| regions::decide(s, &cand, &z, f));
            z = (0..cand.len())
                .map(|i| {
                    let r = reg.as_ref().map_or(&[][..], |r| &r[i][..]);
                    second.raw(row_of(&mut row, s.row(cand[i] as usize), &votes[i * k..(i + 1) * k], &ctx[i], r))
                })
                .collect();
        }
        let mut p = crate::extract::blocks::smoothed(&z, self.smooth);
        whole(&mut p, &cand, s, self.whole);
        vote(&mut p, &cand, s, self.vote);
        focus(&mut p, &cand, s, self.focus);
        Ok((cand, p))
    }
}

impl Extractor for Blocktrees {
    fn view(&self) -> View {
        View::Blocks
    }

    // The block view carries every feature the trees (and blocks' prior) read.
    fn needs(&self) -> crate::document::Needs {
        let structured = if self.hidden_text.structured { Needs::STRUCTURED } else { Needs::NONE };
        Needs::SEGMENTS | structured | members::needs(&self.members)
    }

    fn extract(&self, doc: &Document, out: &mut Selection) -> crate::extract::Fallible {
        match &self.scorer {
            Scorer::Prior(p) => return p.extract(doc, out),
            Scorer::Trees(m) => {
                let (cand, p) = self.scores(doc, m)?;
                let cut = self.cut(&p);
                out.units.extend(cand.iter().zip(&p).filter(|(_, p)| **p >= cut).map(|(b, _)| *b));
            }
        }
        Ok(())
    }

    /// The probability of each visible word's block (hidden blocks hold no canonical word).
    fn confidence(&self, doc: &Document, out: &mut Vec<f32>) -> bool {
        let m = match &self.scorer {
            Scorer::Prior(p) => return p.confidence(doc, out),
            Scorer::Trees(m) => m,
        };
        let Ok((cand, p)) = self.scores(doc, m) else { return false };
        out.clear();
        out.resize(doc.source.words.len(), 0.0);
        for (&b, &p) in cand.iter().zip(&p) {
            doc.block_words(b as usize).for_each(|w| out[w as usize] = p as f32);
        }
        true
    }
}

/// A forest's row in `buf`: a block's features, then its stacked members' `votes`, then (a second
/// stage's) its `ctx` and its region features `reg`.
fn row_of<'a>(buf: &'a mut Vec<f32>, features: &[f32], votes: &[f32], ctx: &[f32], reg: &[f32]) -> &'a [f32] {
    buf.clear();
    buf.extend_from_slice(features);
    buf.extend_from_slice(votes);
    buf.extend_from_slice(ctx);
    buf.extend_from_slice(reg);
    buf
}

/// `vote`: each candidate block's probability `p` moved to `(1 - vote) · p + vote · m`, where
/// `m` is the mean over its record group's candidate blocks weighted by their words, so that a
/// list's records are kept or dropped together (a card alone looks like boilerplate: short, a
/// link, a number). Blocks in no group keep theirs.
fn vote(p: &mut [f64], cand: &[u32], s: &Segments, vote: f64) {
    if vote <= 0.0 {
        return;
    }
    let groups =
        cand.iter().map(|&b| s.group[b as usize]).filter(|&g| g != NO_GROUP).max().map_or(0, |g| g as usize + 1);
    let mut sum = vec![(0.0, 0.0); groups];
    for (&b, &x) in cand.iter().zip(p.iter()) {
        if let Some(slot) = sum.get_mut(s.group[b as usize] as usize) {
            let w = f64::from(s.words[b as usize].max(1));
            slot.0 += w * x;
            slot.1 += w;
        }
    }
    for (&b, x) in cand.iter().zip(p.iter_mut()) {
        if let Some(&(a, w)) = sum.get(s.group[b as usize] as usize)
            && w > 0.0
        {
            *x = (1.0 - vote) * *x + vote * a / w;
        }
    }
}

/// `whole`: each candidate block's probability raised to at least `whole` times the best of its
/// record's blocks, so that a record is kept whole (a product card's name, price and tags with its
/// description; a service section's heading with its prose). Blocks in no group keep theirs.
fn whole(p: &mut [f64], cand: &[u32], s: &Segments, whole: f64) {
    if whole <= 0.0 {
        return;
    }
    let key = |b: u32| (s.group[b as usize], s.record[b as usize]);
    let mut best: std::collections::HashMap<(u32, u32), f64> = std::collections::HashMap::new();
    for (&b, &x) in cand.iter().zip(p.iter()) {
        if s.group[b as usize] != NO_GROUP {
            let e = best.entry(key(b)).or_insert(x);
            *e = e.max(x);
        }
    }
    for (&b, x) in cand.iter().zip(p.iter_mut()) {
        if let Some(m) = best.get(&key(b)) {
            *x = x.max(whole * m);
        }
    }
}

/// `focus`: the region decision. The candidate regions are the blocks under each block's parent,
/// grandparent and great-grandparent block element and its heading section, and the whole page;
/// the chosen one has the best expected F1 under the blocks' probabilities (expected kept words
/// inside it against its words and against the page's expected words). Blocks outside it have
/// their probability multiplied by `1 − focus`.
fn focus(p: &mut [f64], cand: &[u32], s: &Segments, focus: f64) {
    if focus <= 0.0 || cand.is_empty() {
        return;
    }
    let n = s.len();
    let (words, kept) = context::prefix_sums(s, cand, p, 0);
    if kept[n] <= 0.0 {
        return;
    }
    let f1 = |(a, z): (u32, u32)| {
        let (a, z) = (a as usize, (z as usize).min(n - 1));
        let (inside, size) = (kept[z + 1] - kept[a], words[z + 1] - words[a]);
        if inside <= 0.0 || size <= 0.0 { 0.0 } else { 2.0 * inside / (size + kept[n]) }
    };
    let mut best = ((0u32, (n - 1) as u32), f1((0, (n - 1) as u32)));
    for &b in cand {
        for &span in &s.around[b as usize] {
            let f = f1(span);
            if f > best.1 {
                best = (span, f);
            }
        }
    }
    let (a, z) = best.0;
    for (&b, x) in cand.iter().zip(p.iter_mut()) {
        if b < a || b > z {
            *x *= 1.0 - focus;
        }
    }
}

/// The first line of a model file.
const MAGIC: &str = "cetune blocktrees model 1";

/// A fingerprint of the feature table (names and order): a model is only read by the feature
/// version it was fitted on, or by a later one that appended features ([`block_features_of`]).
pub fn feature_version() -> String {
    version_of(N_FEATURES)
}

/// The fingerprint of the table cut after its first `k` block features (the context's follow).
fn version_of(k: usize) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let table = FEATURES[..k].iter().copied().chain(context::CONTEXT.iter().map(|n| (*n, "context")));
    for (n, g) in table {
        for b in n.bytes().chain([b'/']).chain(g.bytes()).chain([b';']) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{}:{h:016x}", k + context::N_CONTEXT)
}

/// The block features a model file's `features` line was fitted on: every feature table is the
/// one before it with features appended, so a model of an earlier table reads the first `k`
/// (its trees never split on the later ones, which the reader maps its context features past).
fn block_features_of(version: &str) -> Option<usize> {
    (1..=N_FEATURES).rev().find(|&k| version_of(k) == version)
}

impl Model {
    /// The model as the text of a model file: the first forest, then with `regions` the line
    /// `regions` and the regions' forest, then with `stack` the line `stack` and the second
    /// forest (whose features are the block's, its context's, then its region decision's).
    pub fn write(&self) -> String {
        let mut s = format!("{MAGIC}\nfeatures {}\nfit {}\n", feature_version(), self.fit);
        if self.members > 0 {
            s.push_str(&format!("members {}\n", self.members));
        }
        // A fitted member's own model file, each line behind "| " (its own 'end' lines are not
        // this file's, nor a file of places' that holds this model).
        for (j, f) in self.fitted.iter().enumerate() {
            if let Some(f) = f {
                s.push_str(&format!("member {} lines {}\n", j + 1, f.text.lines().count()));
                f.text.lines().for_each(|l| s.push_str(&format!("| {l}\n")));
            }
        }
        write_forest(&mut s, &self.forest, &feature_names(self.members, false, false));
        if let Some(regions) = &self.regions {
            s.push_str("regions\n");
            let names: Vec<String> = regions::REGION.iter().map(|n| n.to_string()).collect();
            write_forest(&mut s, regions, &names);
        }
        if let Some(second) = &self.stack {
            s.push_str("stack\n");
            write_forest(&mut s, second, &feature_names(self.members, true, self.regions.is_some()));
        }
        s.push_str("end\n");
        s
    }

    /// Reads a model file's text; an error names the line (the caller adds the file).
    pub fn read(text: &str) -> Result<Model> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l)).peekable();
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
        let Some(k) = block_features_of(&v) else {
            return Err(bad(i, format!("fitted on another feature set ({v}; this cetune has {})", feature_version())));
        };
        let (_, fit) = field(next("fit")?, "fit")?;
        // Stacked members' votes follow the block features (moved past features appended since,
        // with the context, by `widen`).
        let members = match lines.peek().and_then(|(i, l)| Some((*i, l.strip_prefix("members ")?))) {
            Some((i, m)) => {
                lines.next();
                num::<usize>(m, i)?
            }
            None => 0,
        };
        let mut fitted: members::Fits = Vec::new();
        while let Some((i, rest)) = lines.peek().and_then(|(i, l)| Some((*i, l.strip_prefix("member ")?.to_string()))) {
            lines.next();
            let (slot, n) = match rest.split_once(" lines ") {
                Some((a, b)) => (num::<usize>(a, i)?, num::<usize>(b, i)?),
                None => return Err(bad(i, format!("expected 'member J lines N', got 'member {}'", cut(&rest)))),
            };
            if slot == 0 || slot > members {
                return Err(bad(i, format!("member {slot}: the model reads {members} members")));
            }
            let mut text = String::new();
            for _ in 0..n {
                match lines.next() {
                    Some((_, l)) if l.starts_with("| ") || l == "|" => {
                        text.push_str(l.strip_prefix("| ").unwrap_or(""));
                        text.push('\n');
                    }
                    Some((i, l)) => {
                        return Err(bad(i, format!("expected a line of member {slot}'s model, got '{}'", cut(l))));
                    }
                    None => {
                        return Err(Error::config(format!("the model file is truncated inside member {slot}'s model")));
                    }
                }
            }
            fitted.resize(members, None);
            fitted[slot - 1] = Some(Arc::new(members::Fitted::from_text(text)));
        }
        let mut next = |want: &str| -> Result<(usize, String)> {
            match lines.next() {
                Some((i, l)) => Ok((i, l.to_string())),
                None => Err(Error::config(format!("the model file is truncated: expected {want}"))),
            }
        };
        let forest = widen(read_forest(&mut next, k + members)?, k);
        let (i, l) = next("'end', 'regions' or 'stack'")?;
        // The region forest comes before the second stage that reads its decision.
        let (regions, (i, l)) = match l.as_str() {
            "regions" => {
                let f = read_forest(&mut next, regions::N_REGION)?;
                let (i, l) = next("'stack'")?;
                if l != "stack" {
                    return Err(bad(i, format!("expected 'stack' after the regions' forest, got '{}'", cut(&l))));
                }
                (Some(f), (i, l))
            }
            _ => (None, (i, l)),
        };
        let reg = if regions.is_some() { regions::N_BLOCK } else { 0 };
        let (stack, (i, l)) = match l.as_str() {
            "stack" => {
                (Some(widen(read_forest(&mut next, k + members + context::N_CONTEXT + reg)?, k)), next("'end'")?)
            }
            _ => (None, (i, l)),
        };
        if l != "end" {
            return Err(bad(i, format!("expected 'end', got '{}'", cut(&l))));
        }
        Ok(Model { forest, stack, fit, members, regions, fitted })
    }
}

/// A forest fitted on the first `k` block features, read on today's rows: its context features
/// (from index `k`) move past the features appended since, whose gains are 0.
fn widen(mut forest: Forest, k: usize) -> Forest {
    let more = N_FEATURES - k;
    if more == 0 {
        return forest;
    }
    for t in &mut forest.trees {
        for n in t.iter_mut() {
            if let Node::Split { feature, .. } = n
                && usize::from(*feature) >= k
            {
                *feature += more as u16;
            }
        }
    }
    let tail = forest.gain.split_off(k.min(forest.gain.len()));
    forest.gain.extend(std::iter::repeat_n(0.0, more));
    forest.gain.extend(tail);
    forest
}

/// The feature names of a forest's rows: the block's, the `members` stacked members' votes
/// (`member1`…), then (`stacked`) its context's and (`regions`) its region decision's.
fn feature_names(members: usize, stacked: bool, regions: bool) -> Vec<String> {
    let own = FEATURES.iter().map(|(n, _)| n.to_string());
    let votes = (1..=members).map(|j| format!("member{j}"));
    let ctx = context::CONTEXT.iter().filter(|_| stacked).map(|n| n.to_string());
    let reg = regions::BLOCK.iter().filter(|_| stacked && regions).map(|n| n.to_string());
    own.chain(votes).chain(ctx).chain(reg).collect()
}

/// Appends a forest (its base, split gain per feature and trees) to a model file's text.
fn write_forest(s: &mut String, forest: &Forest, names: &[String]) {
    s.push_str(&format!("base {}\n", forest.base));
    let gain: Vec<String> = names.iter().zip(&forest.gain).map(|(n, g)| format!("{n}={g}")).collect();
    s.push_str(&format!("gain {}\ntrees {}\n", gain.join(","), forest.trees.len()));
    for t in &forest.trees {
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
}

/// Reads a forest of `f` features from a model file's lines (`next` gives the next line or
/// says what was expected).
fn read_forest(next: &mut dyn FnMut(&str) -> Result<(usize, String)>, f: usize) -> Result<Forest> {
    let bad = |line: usize, what: String| Error::config(what).with_line(line, None);
    let field = |(i, l): (usize, String), key: &str| -> Result<(usize, String)> {
        l.strip_prefix(&format!("{key} "))
            .map(|v| (i, v.to_string()))
            .ok_or_else(|| bad(i, format!("expected '{key} …', got '{}'", cut(&l))))
    };
    let (i, base) = field(next("base")?, "base")?;
    let base: f32 = finite(&base, i)?;
    let (i, gain) = field(next("gain")?, "gain")?;
    let gain: Vec<f64> = gain
        .split(',')
        .map(|kv| kv.split_once('=').map_or(Err(bad(i, format!("bad gain '{}'", cut(kv)))), |(_, g)| finite(g, i)))
        .collect::<Result<_>>()?;
    if gain.len() != f {
        return Err(bad(i, format!("{} gains for {f} features", gain.len())));
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
            t.push(node(&l, i, j, k, f)?);
        }
        forest.trees.push(t);
    }
    Ok(forest)
}

/// One node line (`s feature threshold left right` or `l value`) of a tree of `k` nodes, as
/// node `j`: children point forward and inside the tree, so every walk ends.
fn node(l: &str, i: usize, j: usize, k: usize, nf: usize) -> Result<Node> {
    let f: Vec<&str> = l.split(' ').collect();
    let bad = || Error::config(format!("bad tree node '{}'", cut(l))).with_line(i, None);
    match f.as_slice() {
        ["l", v] => Ok(Node::Leaf(finite(v, i)?)),
        ["s", feat, thr, left, right] => {
            let (feature, left, right): (usize, u32, u32) = (num(feat, i)?, num(left, i)?, num(right, i)?);
            if feature >= nf {
                return Err(Error::config(format!(
                    "feature {feature} is out of range: the model's trees read features 0 to {}",
                    nf - 1
                ))
                .with_line(i, None));
            }
            let inside = |c: u32| (c as usize) > j && (c as usize) < k;
            if !inside(left) || !inside(right) {
                return Err(bad());
            }
            Ok(Node::Split { feature: feature as u16, threshold: finite(thr, i)?, left, right })
        }
        _ => Err(bad()),
    }
}

/// A number of a model file's line `i`.
fn num<T: std::str::FromStr>(s: &str, i: usize) -> Result<T> {
    s.trim().parse().map_err(|_| Error::config(format!("'{}' is not a number", cut(s))).with_line(i, None))
}

/// A finite number of a model file's line `i`: a `NaN` or infinite leaf, threshold, base or
/// gain would make every score it touches `NaN` (and a page's text silently empty).
fn finite<T: std::str::FromStr + Into<f64> + Copy>(s: &str, i: usize) -> Result<T> {
    let x: T = num(s, i)?;
    if !x.into().is_finite() {
        return Err(Error::config(format!("'{}' is not a finite number", cut(s))).with_line(i, None));
    }
    Ok(x)
}

/// At most 40 characters of a line, for a message.
fn cut(s: &str) -> String {
    s.chars().take(40).collect()
}

#[cfg(test)]
mod tests;
