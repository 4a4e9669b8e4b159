//! # Combinations of extractors (`algorithms.md` §8)
//!
//! A [`Combination`] runs several families (its *members*) on one page and combines their
//! keep-masks over the page's canonical words ([`Document::mask`]):
//!
//! - `vote`: keep a word when `Σ weight_j · keep_j ≥ v` over the members that are on; a member
//!   with `soft` contributes its per-word confidence in [0, 1] instead of 0/1 when its family has
//!   one ([`Extractor::confidence`]; 0/1 otherwise); a member with `abstain` that keeps nothing
//!   on a page does not vote there: the threshold becomes `v · W_voting / W_on` (the same share
//!   of the weight that voted), and a page where every member abstains keeps nothing
//!   (`blogs.md` §14.1: a rule family that does not recognise a page has no opinion on it);
//! - `union`, `intersection`: a word kept by any / by every member that is on;
//! - `serial` (`A ▷ B`): the members in increasing `order`; each runs on the page reduced to
//!   what the previous ones kept, markup intact ([`Document::reduced`]: the dropped words are gone
//!   from both views, every tag and element stays), and the result is what the last one keeps;
//! - `fallback` (`A else B`): the members in increasing `order`; the result is what the first
//!   member that returns anything keeps (a member that abstains on a page does not count there),
//!   and its segments are the page's segments (`blogs.md` §14.1: one family where it fires,
//!   another elsewhere).
//!
//! Then smoothing: gaps (runs of dropped words between kept ones) shorter than `max_gap` words are
//! filled, and kept runs shorter than `min_run` words are dropped. No member on keeps nothing.
//!
//! The setting of a combination (its description is completed by `params::combine`) names every
//! member's parameters as `member.name`; [`build`] reads the members from it. A member's output on
//! a page depends only on its own setting (and, in a pipeline, on the members before it), so
//! outputs are kept across individuals in the page's memo (`document::memo`, bounded per page):
//! an individual that changes one member re-runs only that member.
//!
//! Imports from the crate: `document`, `params` and `error`.

use super::{Extractor, Fallible};
use crate::document::{Document, Selection, View};
use crate::error::{Error, Result};
use crate::params::combine::{GLOBAL, PER_MEMBER};
use crate::params::compose::SEP;
use crate::params::{Kind, Setting, Value};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// How the members' masks are combined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combinator {
    /// Weighted vote against the threshold `v`.
    Vote,
    /// Any member keeps.
    Union,
    /// Every member keeps.
    Intersection,
    /// A pipeline: each member sees what the previous ones kept.
    Serial,
    /// The first member (by `order`) that keeps anything on the page.
    Fallback,
}

/// One member that is on.
struct Member {
    ex: Box<dyn Extractor>,
    /// Hash of the member's family, setting and `soft`: its cache identity.
    key: u64,
    weight: f64,
    soft: bool,
    /// In a vote: a page where it keeps nothing is a page it does not vote on.
    abstain: bool,
}

/// A configured combination.
pub struct Combination {
    kind: Combinator,
    members: Vec<Member>,
    v: f64,
    min_run: usize,
    max_gap: usize,
}

/// A hash of `x`: the cache identity of members and branches.
pub(crate) fn hash_of(x: impl Hash) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}

/// Whether `setting` is a combination's.
pub fn is_combination(setting: &Setting) -> bool {
    setting.kind == Kind::Combination
}

/// One member of a combination setting that is on: its index among the members, its name, its
/// own setting (checked against its family's space, so complete and in the space's order) and
/// whether it is an external worker.
pub(crate) struct On {
    pub k: usize,
    pub name: String,
    pub own: Setting,
    pub external: bool,
}

/// The members of a combination setting that are on ([`On`]), in the setting's order (the
/// order of their first parameters in it). What each member is comes from the setting's tree
/// ([`Setting::members`]), filled once when its description was parsed.
pub(crate) fn members_on(setting: &Setting) -> Result<Vec<On>> {
    let bad = |msg: String| Error::config(format!("combination '{}': {msg}", setting.extractor));
    if setting.members.is_empty() {
        return Err(bad("no members".into()));
    }
    // Every value is a structure parameter or a member's.
    let first = |n: &str| setting.members.iter().position(|m| m.own(n).is_some());
    for (n, _) in &setting.values {
        if first(n).is_none() && !GLOBAL.contains(&n.as_str()) {
            return Err(bad(format!(
                "unknown parameter '{n}' (structure parameters: {}; members: {})",
                GLOBAL.join(", "),
                setting.members.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", ")
            )));
        }
    }
    let mut members: Vec<&crate::params::Member> = setting.members.iter().collect();
    let at_value = |m: &crate::params::Member| setting.values.iter().position(|(n, _)| m.own(n).is_some());
    members.sort_by_key(|m| at_value(m).unwrap_or(usize::MAX));
    let mut out = Vec::new();
    for (k, member) in members.into_iter().enumerate() {
        let m = member.name.as_str();
        let at = |s: &str| format!("{m}{SEP}{s}");
        // An external member has no built-in space: the combination's own checked its values.
        let external = member.kind == Kind::External;
        let space = match external {
            true => None,
            false => {
                Some(super::space(&member.extractor).map_err(|e| bad(format!("unknown member '{m}': {}", e.message)))?)
            }
        };
        if member.kind != Kind::Family && !external {
            return Err(bad(format!("member '{m}' is itself a combination")));
        }
        match setting.get(&at("on")) {
            None | Some(Value::Bool(true)) => {}
            Some(Value::Bool(false)) => continue,
            Some(v) => return Err(bad(format!("parameter '{}' must be true or false, got {v}", at("on")))),
        }
        let mut own = setting.member(member);
        own.values.retain(|(n, _)| !PER_MEMBER.contains(&n.as_str()));
        if let Some(space) = &space {
            own = space.check_setting(&own).map_err(|e| bad(format!("member '{m}': {}", e.message)))?;
        }
        own.model = None;
        out.push(On { k, name: m.to_string(), own, external });
    }
    Ok(out)
}

/// Builds the combination a setting describes. Its members are the prefixes of its namespaced
/// parameters; each member's parameters that the setting leaves out take the family's defaults.
/// A member fitted on gold ([`super::fit::Fit`]) applies its model in `models` (under the member's name).
pub fn build(engine: &super::Engine, setting: &Setting, models: &super::models::Models) -> Result<Box<dyn Extractor>> {
    let bad = |msg: String| Error::config(format!("combination '{}': {msg}", setting.extractor));
    let num = |n: &str, default: f64| -> Result<f64> {
        match setting.get(n) {
            None => Ok(default),
            Some(Value::Float(x)) => Ok(*x),
            Some(Value::Int(i)) => Ok(*i as f64),
            Some(v) => Err(bad(format!("parameter '{n}' must be a number, got {v}"))),
        }
    };
    let flag = |n: &str, default: bool| -> Result<bool> {
        match setting.get(n) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => Err(bad(format!("parameter '{n}' must be true or false, got {v}"))),
        }
    };
    let kind = match setting.get("combinator") {
        None => Combinator::Vote,
        Some(Value::Cat(c)) => match c.as_str() {
            "vote" => Combinator::Vote,
            "union" => Combinator::Union,
            "intersection" => Combinator::Intersection,
            "serial" => Combinator::Serial,
            "fallback" => Combinator::Fallback,
            other => return Err(bad(format!("unknown combinator '{other}'"))),
        },
        Some(v) => return Err(bad(format!("parameter 'combinator' must be a choice, got {v}"))),
    };
    let mut members = Vec::new();
    for On { k, name: m, own, .. } in members_on(setting)? {
        let at = |s: &str| format!("{m}{SEP}{s}");
        let fitted = models.under(&m);
        let ex = super::build_with(engine, &own, &fitted).map_err(|e| bad(format!("member '{m}': {}", e.message)))?;
        // Only a vote weighs confidences: under the other combinators `soft` is inactive (and a
        // member's key must not depend on it, so equal pipelines share their cache entries).
        let soft = flag(&at("soft"), false)? && kind == Combinator::Vote;
        let abstain = flag(&at("abstain"), false)? && kind == Combinator::Vote;
        let order = num(&at("order"), k as f64)?;
        // A fitted member's output also depends on its model.
        let key = hash_of((&m, own.label(), soft, fitted.tag()));
        members.push((order, k, Member { ex, key, weight: num(&at("weight"), 1.0)?, soft, abstain }));
    }
    if matches!(kind, Combinator::Serial | Combinator::Fallback) {
        members.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }
    let v = num("v", members.iter().map(|m| m.2.weight).sum::<f64>() / 2.0)?;
    let count = |n: &str| num(n, 0.0).map(|x| x.max(0.0) as usize);
    Ok(Box::new(Combination {
        kind,
        members: members.into_iter().map(|(_, _, m)| m).collect(),
        v,
        min_run: count("min_run")?,
        max_gap: count("max_gap")?,
    }))
}

impl Combination {
    /// `fallback`: the output of the first member that keeps anything on the page (a member
    /// that fails before one fired fails the page: the later members are not asked).
    fn fired(&self, doc: &Document) -> Fallible<Option<Arc<Vec<f32>>>> {
        for m in &self.members {
            let o = output(m, doc)?;
            if o.iter().any(|&x| x > 0.0) {
                return Ok(Some(o));
            }
        }
        Ok(None)
    }
}

impl Extractor for Combination {
    fn view(&self) -> View {
        View::Source
    }

    /// Under `fallback`, the segments of the member that fired (none when it does not segment
    /// pages); `None` for the other combinators and when no member segments pages.
    fn segments(&self, doc: &Document) -> Fallible<Option<super::segments::Segments>> {
        let probe = Document::default();
        if self.kind != Combinator::Fallback {
            return Ok(None);
        }
        let mut segmenting = false;
        for m in &self.members {
            segmenting |= m.ex.segments(&probe)?.is_some();
        }
        if !segmenting {
            return Ok(None);
        }
        let mut fired = None;
        for m in &self.members {
            if output(m, doc)?.iter().any(|&x| x > 0.0) {
                fired = Some(m);
                break;
            }
        }
        let seg = match fired {
            Some(m) => m.ex.segments(doc)?.unwrap_or_default(),
            None => Default::default(),
        };
        // A segment is a selection of the member's view; the combination's view is the words.
        let to_words = |s: &Selection| {
            let mut out = Selection::new(View::Source);
            doc.select_words(&doc.mask(s), &mut out);
            out
        };
        let posts = seg
            .posts
            .iter()
            .map(|p| super::segments::Post {
                body: to_words(&p.body),
                title: p.title.as_ref().map(to_words),
                date: p.date.as_ref().map(to_words),
                author: p.author.as_ref().map(to_words),
                comments: p.comments.as_ref().map(to_words),
            })
            .collect();
        Ok(Some(super::segments::Segments { posts }))
    }

    fn needs_package(&self) -> bool {
        self.members.iter().any(|m| m.ex.needs_package())
    }

    /// The union of the active members' needs, plus what turns their outputs into masks over
    /// the canonical words ([`super::mask_needs`]).
    fn needs(&self) -> crate::document::Needs {
        use crate::document::Needs;
        self.members.iter().fold(Needs::NONE, |n, m| n | super::mask_needs(m.ex.as_ref()))
    }

    fn extract(&self, doc: &Document, out: &mut Selection) -> Fallible {
        let n = doc.source.words.len();
        let mut keep = match self.kind {
            Combinator::Vote => {
                let mut sum = vec![0.0f64; n];
                let (mut all, mut voting, mut abstained) = (0.0f64, 0.0f64, false);
                for m in &self.members {
                    let c = output(m, doc)?;
                    all += m.weight;
                    if m.abstain && c.iter().all(|&x| x <= 0.0) {
                        abstained = true;
                        continue;
                    }
                    voting += m.weight;
                    for (s, &x) in sum.iter_mut().zip(c.iter()) {
                        *s += m.weight * f64::from(x);
                    }
                }
                // The members that voted carry the same share of the threshold as of the weight.
                let v = if !abstained {
                    self.v
                } else if voting > 0.0 && all > 0.0 {
                    self.v * voting / all
                } else {
                    f64::INFINITY
                };
                // Tolerance for sums of decimal weights (0.1 + 0.2 ≥ 0.3).
                sum.iter().map(|&s| !self.members.is_empty() && s >= v - 1e-9).collect::<Vec<bool>>()
            }
            Combinator::Union => {
                let mut k = vec![false; n];
                for m in &self.members {
                    k.iter_mut().zip(output(m, doc)?.iter()).for_each(|(k, &x)| *k |= x > 0.0);
                }
                k
            }
            Combinator::Intersection => {
                let mut k = vec![!self.members.is_empty(); n];
                for m in &self.members {
                    k.iter_mut().zip(output(m, doc)?.iter()).for_each(|(k, &x)| *k &= x > 0.0);
                }
                k
            }
            Combinator::Serial => {
                let mut k = vec![!self.members.is_empty(); n];
                let mut chain = 0u64;
                for (i, m) in self.members.iter().enumerate() {
                    let o = if i == 0 { output(m, doc)? } else { serial_output(m, doc, &k, chain)? };
                    k.iter_mut().zip(o.iter()).for_each(|(k, &x)| *k &= x > 0.0);
                    chain = hash_of((chain, m.key));
                }
                k
            }
            Combinator::Fallback => match self.fired(doc)? {
                Some(o) => o.iter().map(|&x| x > 0.0).collect(),
                None => vec![false; n],
            },
        };
        smooth(&mut keep, self.min_run, self.max_gap);
        doc.select_words(&keep, out);
        Ok(())
    }
}

/// Fills gaps shorter than `max_gap` between kept words, then drops kept runs shorter than
/// `min_run` (0 turns either off).
pub fn smooth(keep: &mut [bool], min_run: usize, max_gap: usize) {
    let runs = |keep: &[bool], value: bool| {
        let mut out = Vec::new();
        let mut i = 0;
        while i < keep.len() {
            let j = (i..keep.len()).find(|&j| keep[j] != keep[i]).unwrap_or(keep.len());
            if keep[i] == value {
                out.push((i, j));
            }
            i = j;
        }
        out
    };
    if max_gap > 0 {
        for (a, b) in runs(keep, false) {
            if a > 0 && b < keep.len() && b - a < max_gap {
                keep[a..b].iter_mut().for_each(|k| *k = true);
            }
        }
    }
    if min_run > 0 {
        for (a, b) in runs(keep, true) {
            if b - a < min_run {
                keep[a..b].iter_mut().for_each(|k| *k = false);
            }
        }
    }
}

/// A member's keep-mask (or confidence, with `soft`) over the page's canonical words.
fn run(m: &Member, doc: &Document) -> Fallible<Vec<f32>> {
    let mut conf = Vec::new();
    if m.soft && m.ex.confidence(doc, &mut conf) {
        return Ok(conf);
    }
    let mut sel = Selection::new(m.ex.view());
    m.ex.extract(doc, &mut sel)?;
    Ok(doc.mask(&sel).into_iter().map(|k| if k { 1.0 } else { 0.0 }).collect())
}

/// The keep-mask of `ex` on `doc` over its canonical words, cached under `key` like a member's
/// output (a route's branches).
pub(crate) fn cached_mask(doc: &Document, key: u64, ex: &dyn Extractor) -> Fallible<Arc<Vec<f32>>> {
    cached(doc, key, || {
        let mut sel = Selection::new(ex.view());
        ex.extract(doc, &mut sel)?;
        Ok(doc.mask(&sel).into_iter().map(|k| if k { 1.0 } else { 0.0 }).collect())
    })
}

/// The units `ex` keeps of `doc` in its own view (exact as `f32` below 2^24 units), cached under
/// `key`: a route's block-view branch, whose hidden blocks hold no canonical word for a mask.
pub(crate) fn cached_units(doc: &Document, key: u64, ex: &dyn Extractor) -> Fallible<Arc<Vec<f32>>> {
    cached(doc, hash_of(("units", key)), || {
        let mut sel = Selection::new(ex.view());
        ex.extract(doc, &mut sel)?;
        Ok(sel.units.iter().map(|&u| u as f32).collect())
    })
}

fn output(m: &Member, doc: &Document) -> Fallible<Arc<Vec<f32>>> {
    cached(doc, m.key, || run(m, doc))
}

/// What member `m` keeps of the page reduced to `allowed` (`chain` names the members that
/// decided `allowed`), over the original page's words.
fn serial_output(m: &Member, doc: &Document, allowed: &[bool], chain: u64) -> Fallible<Arc<Vec<f32>>> {
    cached(doc, hash_of((chain, m.key)), || {
        let (reduced, back) = doc.reduced(allowed);
        let inner = run(m, &reduced)?;
        let mut out = vec![0.0f32; doc.source.words.len()];
        for (i, &w) in back.iter().enumerate() {
            out[w as usize] = inner.get(i).copied().unwrap_or(0.0);
        }
        Ok(out)
    })
}

/// The output under `key` of page `doc`, from the page's memo, else `compute`'s, kept when it is
/// not a failure (a failed page is asked again).
pub(crate) fn cached(
    doc: &Document,
    key: u64,
    compute: impl FnOnce() -> Fallible<Vec<f32>>,
) -> Fallible<Arc<Vec<f32>>> {
    doc.memo.try_get_or(key, compute)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamSpace;

    const PAGE: &str = "<html><body><ul><li><a href=/a>Home</a></li><li><a href=/b>News</a></li></ul>\
        <div><p>The first paragraph of the article has many words in it.</p>\
        <p>A second paragraph follows with more words of text.</p></div>\
        <div>Footer <a href=/c>link</a> <a href=/d>more links</a></div></body></html>";

    fn space(text: &str) -> ParamSpace {
        crate::params::parse_str(text, std::path::Path::new("c.yaml"), &super::super::space).unwrap().space
    }

    fn words(space: &ParamSpace, sets: &[&str], html: &str) -> String {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        let s = space.with_assignments(&space.defaults(), &sets).unwrap();
        super::super::extract_text(
            super::super::build(&super::super::Engine::default(), &s).unwrap().as_ref(),
            &Document::parse(html),
        )
        .unwrap()
    }

    fn single(name: &str, sets: &[&str], html: &str) -> Vec<bool> {
        let doc = Document::parse(html);
        let ex = super::super::testutil::with(name, sets);
        let mut sel = Selection::new(ex.view());
        ex.extract(&doc, &mut sel).unwrap();
        doc.mask(&sel)
    }

    const PAIR: &str = "extractor: pair\nmembers: [lqf, full]\nparameters:\n  - {name: combinator, type: categorical, choices: [vote, union, intersection, serial], default: vote}\n  - {name: v, type: float, min: 0, max: 2, step: 0.05, default: 2}\n";

    #[test]
    fn union_intersection_and_vote_combine_the_members_masks() {
        let s = space(PAIR);
        let doc = Document::parse(PAGE);
        let lqf = single("lqf", &[], PAGE);
        let full = single("full", &[], PAGE);
        let text = |mask: Vec<bool>| {
            let mut sel = Selection::new(View::Source);
            doc.select_words(&mask, &mut sel);
            doc.render(&sel)
        };
        let and: Vec<bool> = lqf.iter().zip(&full).map(|(a, b)| *a && *b).collect();
        let or: Vec<bool> = lqf.iter().zip(&full).map(|(a, b)| *a || *b).collect();
        assert_ne!(and, or, "the page must tell the combinators apart");
        assert_eq!(words(&s, &["combinator=intersection"], PAGE), text(and.clone()));
        assert_eq!(words(&s, &["combinator=union"], PAGE), text(or.clone()));
        // A vote needing both weights is the intersection, one needing either is the union.
        assert_eq!(words(&s, &["v=2"], PAGE), text(and));
        assert_eq!(words(&s, &["v=1"], PAGE), text(or));
        // A member switched off does not vote.
        assert_eq!(words(&s, &["v=1", "full.on=false"], PAGE), text(lqf));
        assert_eq!(words(&s, &["v=1", "full.on=false", "lqf.on=false"], PAGE), "");
    }

    #[test]
    fn serial_runs_the_next_member_on_what_the_previous_kept() {
        let s = space(&PAIR.replace("[lqf, full]", "[bte, lqf]"));
        let got = words(&s, &["combinator=serial", "lqf.t=0.3"], PAGE);
        // By hand: BTE on the page, then LQF on the page reduced to what BTE kept.
        let doc = Document::parse(PAGE);
        let first = single("bte", &[], PAGE);
        let (reduced, back) = doc.reduced(&first);
        let ex = super::super::testutil::with("lqf", &["t=0.3"]);
        let mut sel = Selection::new(ex.view());
        ex.extract(&reduced, &mut sel).unwrap();
        let mut keep = vec![false; first.len()];
        for (i, k) in reduced.mask(&sel).into_iter().enumerate() {
            keep[back[i] as usize] = k;
        }
        let mut out = Selection::new(View::Source);
        doc.select_words(&keep, &mut out);
        assert_eq!(got, doc.render(&out));
        assert!(got.contains("first paragraph"), "{got}");
        // The order decides who runs first.
        let flipped = words(&s, &["combinator=serial", "lqf.t=0.3", "bte.order=5"], PAGE);
        assert!(!flipped.is_empty());
    }

    #[test]
    fn a_soft_member_votes_with_its_confidence_and_only_in_a_vote() {
        let s = space(PAIR);
        // The footer's block is 13 of 19 characters link: LQF drops it at t = 0.25, but its
        // confidence 1 - 0.68 reaches a soft vote's v = 0.3.
        let hard = words(&s, &["v=0.3", "full.on=false"], PAGE);
        let soft = words(&s, &["v=0.3", "full.on=false", "lqf.soft=true"], PAGE);
        assert!(!hard.contains("Footer") && soft.contains("Footer"), "{hard} / {soft}");
        assert!(soft.contains("first paragraph") && !soft.contains("Home"), "{soft}");
        // Under another combinator `soft` is inactive: a member keeps what it keeps.
        for c in ["combinator=serial", "combinator=union", "combinator=intersection"] {
            let a = words(&s, &[c, "full.on=false"], PAGE);
            assert_eq!(words(&s, &[c, "full.on=false", "lqf.soft=true"], PAGE), a, "{c}");
        }
    }

    #[test]
    fn a_member_that_keeps_nothing_with_abstain_does_not_vote_there() {
        // code finds no code block on PAGE (it keeps nothing); lqf and full keep text.
        let s = space(
            "extractor: trio\nmembers: [code, lqf, full]\nparameters:\n  - {name: v, type: float, min: 0, max: 3, step: 0.05, default: 2}\n",
        );
        assert!(single("code", &[], PAGE).iter().all(|k| !k));
        let doc = Document::parse(PAGE);
        let text = |mask: Vec<bool>| {
            let mut sel = Selection::new(View::Source);
            doc.select_words(&mask, &mut sel);
            doc.render(&sel)
        };
        let (lqf, full) = (single("lqf", &[], PAGE), single("full", &[], PAGE));
        let and: Vec<bool> = lqf.iter().zip(&full).map(|(a, b)| *a && *b).collect();
        let or: Vec<bool> = lqf.iter().zip(&full).map(|(a, b)| *a || *b).collect();
        assert_ne!(and, or);
        // Without abstention its empty mask is a vote against every word: 2 of 3 = both others.
        assert_eq!(words(&s, &[], PAGE), text(and.clone()));
        // 1 of 3 = either.
        assert_eq!(words(&s, &["v=1"], PAGE), text(or.clone()));
        // Abstaining, it does not vote: the threshold is 2/3 of 2 = 4/3 of the two voters, both needed.
        assert_eq!(words(&s, &["code.abstain=true"], PAGE), text(and.clone()));
        // v = 1.5 of 3 (a majority) needs 2 members without abstention, 1 of the 2 voters with it.
        assert_eq!(words(&s, &["v=1.5"], PAGE), text(and));
        assert_eq!(words(&s, &["v=1.5", "code.abstain=true"], PAGE), text(or));
        // A member that keeps something votes whatever its flag: lqf keeps the article.
        assert_eq!(words(&s, &["v=1.5", "lqf.abstain=true"], PAGE), words(&s, &["v=1.5"], PAGE));
        // Every member abstaining keeps nothing.
        let none = ["v=1.5", "code.abstain=true", "lqf.on=false", "full.on=false"];
        assert_eq!(words(&s, &none, PAGE), "");
        // Only a vote reads the flag.
        for c in ["combinator=union", "combinator=intersection", "combinator=serial"] {
            assert_eq!(words(&s, &[c, "code.abstain=true"], PAGE), words(&s, &[c], PAGE), "{c}");
        }
        let on = s.with_assignments(&s.defaults(), &["code.abstain=true".to_string()]).unwrap();
        let label = crate::params::combine::describe(&s, &on).unwrap();
        assert!(label.contains("×1 abstains"), "{label}");
    }

    #[test]
    fn every_compiled_in_combination_loads_and_builds_with_its_known_good_individuals() {
        for (name, _) in super::super::COMBINATIONS {
            let s = super::super::space(name).unwrap();
            assert_eq!(s.extractor, *name);
            assert!(!s.members.is_empty());
            for k in std::iter::once(s.defaults()).chain(s.known_good.iter().map(|k| k.setting.clone())) {
                let ex = super::super::build(&super::super::Engine::default(), &k).unwrap();
                let mut sel = Selection::new(ex.view());
                ex.extract(&Document::parse(PAGE), &mut sel).unwrap();
            }
        }
    }

    #[test]
    fn smoothing_fills_short_gaps_and_drops_short_runs() {
        let mut k: Vec<bool> = "1101111000100".chars().map(|c| c == '1').collect();
        smooth(&mut k, 0, 2);
        assert_eq!(k.iter().map(|&b| if b { '1' } else { '0' }).collect::<String>(), "1111111000100");
        smooth(&mut k, 2, 0);
        assert_eq!(k.iter().map(|&b| if b { '1' } else { '0' }).collect::<String>(), "1111111000000");
    }

    #[test]
    fn member_outputs_are_reused_across_individuals() {
        let s = space(PAIR);
        let doc = Document::parse(PAGE);
        let run = |sets: &[&str]| {
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            let st = s.with_assignments(&s.defaults(), &sets).unwrap();
            let ex = super::super::build(&super::super::Engine::default(), &st).unwrap();
            let mut sel = Selection::new(View::Source);
            ex.extract(&doc, &mut sel).unwrap();
        };
        run(&["lqf.t=0.3"]);
        let (h0, _) = doc.memo.stats();
        // Only lqf changes: full's output comes from the page's memo.
        run(&["lqf.t=0.4"]);
        let (h1, _) = doc.memo.stats();
        assert!(h1 > h0, "full's output must be a hit");
    }
}
