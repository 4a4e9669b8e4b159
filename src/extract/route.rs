//! # Route
//!
//! A router: each page goes to one of several structures (families or combinations, each with
//! its own parameters) by a decision list over the page's features
//! (`document::page_features`), and the route keeps what that structure keeps. The conditions
//! are genes (`ifK.on`, `ifK.feature`, `ifK.at`, `ifK.then`, `otherwise`), so the router is
//! evolved by fitness alone: no page-kind labels are needed.
//!
//! ## References
//! Decision lists: R. L. Rivest, *Learning Decision Lists*, Machine Learning 2(3), 1987,
//! doi:10.1007/BF00058680. Routing by page type first, then a per-type profile, is what
//! rs-trafilatura does with a trained classifier and hand-written profiles
//! (https://crates.io/crates/rs-trafilatura); here both the conditions and the profiles are
//! tuned.
//!
//! ## Parameters
//! - `ifK.on`: rule K is used (false).
//! - `ifK.feature`: the page feature it tests.
//! - `ifK.at`: its threshold as a share of the feature's scale (`scale.<feature>`).
//! - `ifK.then`: the branch of a page with `feature ≥ at · scale`; the first rule that fires
//!   decides.
//! - `otherwise`: the branch of every other page.
//! - `B.<name>`: branch B's own parameters (`B.extractor` names its extractor).
//!
//! ## Interpretation
//! docs/combinations.md, "Page kinds": the route's output is its branch's keep-mask over the page's canonical
//! words, or, for a branch that keeps blocks (`blocks`, `full_hidden`), its blocks as they are,
//! so hidden text (`<noscript>`, tab panels, streaming placeholders) reaches the output; a
//! branch's output is cached like a combination member's, so an individual that
//! changes only the conditions re-runs no branch.

use super::judge::Model;
use super::{Extractor, Fallible};
use crate::document::page_features::index;
use crate::document::{Document, Selection, View};
use crate::error::{Error, Result};
use crate::params::compose::SEP;
use crate::params::route::{CONFIDENCE, fallback_of, threshold};
use crate::params::{Kind, Setting, Value};
use std::sync::Arc;

/// One rule of the decision list.
struct Rule {
    feature: usize,
    at: f64,
    then: usize,
}

/// One branch that some rule (or `otherwise`) uses.
struct Branch {
    ex: Box<dyn Extractor>,
    key: u64,
    /// The branch keeps blocks (`blocks`, `full_hidden`): its selection passes through as it
    /// is, hidden text included, instead of as a mask over the canonical words.
    blocks: bool,
}

/// A configured route.
pub struct Route {
    rules: Vec<Rule>,
    otherwise: usize,
    branches: Vec<Branch>,
    fallback: Option<Fallback>,
}

/// A route's fallback: a page whose own branch's output has a confidence below `below` goes to
/// branch `slot` instead.
struct Fallback {
    slot: usize,
    below: f64,
    judge: Arc<Model>,
}

/// The decision list of a route setting and the branches it uses (`otherwise` first, then each
/// rule's in order), each with its extractor's name and its own checked setting.
pub(crate) struct Used {
    rules: Vec<Rule>,
    /// `(alias, extractor, own setting)`.
    pub branches: Vec<(String, String, Setting)>,
    /// The fallback's branch (an index into `branches`) and threshold.
    fallback: Option<(usize, f64)>,
}

/// The rules of a route setting and the branches some rule (or `otherwise`) names.
pub(crate) fn used(setting: &Setting) -> Result<Used> {
    let bad = |msg: String| Error::config(format!("route '{}': {msg}", setting.extractor));
    let cat = |n: &str| match setting.get(n) {
        Some(Value::Cat(c)) => Ok(c.clone()),
        other => Err(bad(format!("parameter '{n}' must name a choice, got {other:?}"))),
    };
    let mut ks: Vec<usize> = Vec::new();
    for (n, _) in &setting.values {
        let Some((head, rest)) = n.split_once(SEP) else { continue };
        if rest == "on"
            && let Some(k) = head.strip_prefix("if").and_then(|d| d.parse::<usize>().ok())
        {
            ks.push(k);
        }
    }
    let mut used: Vec<String> = vec![cat("otherwise")?];
    let mut rules = Vec::new();
    ks.sort_unstable();
    for k in ks {
        let n = |s: &str| format!("if{k}{SEP}{s}");
        if setting.get(&n("on")) != Some(&Value::Bool(true)) {
            continue;
        }
        let f = cat(&n("feature"))?;
        let feature = index(&f).ok_or_else(|| bad(format!("rule if{k}: unknown feature '{f}'")))?;
        let at = match setting.get(&n("at")) {
            Some(Value::Float(x)) => *x,
            other => return Err(bad(format!("parameter '{}' must be a float, got {other:?}", n("at")))),
        };
        let scale = setting.get(&format!("scale{SEP}{f}")).cloned().unwrap_or(Value::Float(1.0));
        let then = cat(&n("then"))?;
        let slot = used.iter().position(|u| *u == then).unwrap_or_else(|| {
            used.push(then.clone());
            used.len() - 1
        });
        rules.push(Rule { feature, at: threshold(at, &scale), then: slot });
    }
    let fallback = fallback_of(setting).map(|(then, below)| {
        let slot = used.iter().position(|u| *u == then).unwrap_or_else(|| {
            used.push(then.clone());
            used.len() - 1
        });
        (slot, below)
    });
    let mut branches = Vec::new();
    for alias in used {
        let Some(branch) = setting.member_named(&alias) else {
            let aliases: Vec<&str> = setting.members.iter().map(|b| b.name.as_str()).collect();
            return Err(bad(format!("unknown branch '{alias}' (branches: {})", aliases.join(", "))));
        };
        let ex = branch.extractor.clone();
        let mut own = setting.member(branch);
        own.values.retain(|(n, _)| n != "extractor");
        match branch.kind {
            // An external branch: its setting (command, budgets, options) is all it has.
            Kind::External => {}
            Kind::Route => {
                return Err(bad(format!("branch '{alias}': '{ex}' is a route: a route cannot be inside a route")));
            }
            Kind::Family | Kind::Combination => {
                let space = super::space(&ex).map_err(|e| bad(format!("branch '{alias}': {}", e.message)))?;
                own = space.check_setting(&own).map_err(|e| bad(format!("branch '{alias}': {}", e.message)))?;
            }
        }
        branches.push((alias, ex, own));
    }
    Ok(Used { rules, branches, fallback })
}

/// Builds the route a setting describes (see `params::route`). Only the branches some rule or
/// `otherwise` names are built; a branch fitted on gold (a family with a [`super::fit::Fit`], or a combination with such
/// a member) applies its model in `models` (under the branch's alias).
pub fn build(engine: &super::Engine, setting: &Setting, models: &super::models::Models) -> Result<Box<dyn Extractor>> {
    let bad = |msg: String| Error::config(format!("route '{}': {msg}", setting.extractor));
    let Used { rules, branches: used, fallback } = used(setting)?;
    let judge = match (fallback, models.judge()) {
        (None, _) => None,
        (Some(_), Some(j)) => Some(j.clone()),
        (Some(_), None) => Some(Arc::new(read_judge(setting, &used[0].2)?)),
    };
    let mut branches = Vec::new();
    for (alias, ex, own) in used {
        let fitted = models.under(&alias);
        // A fitted branch's output also depends on its model.
        let key = super::combine::hash_of(("route-branch", &ex, own.label(), fitted.tag()));
        let ex =
            super::build_with(engine, &own, &fitted).map_err(|e| bad(format!("branch '{alias}': {}", e.message)))?;
        let blocks = ex.view() == View::Blocks;
        branches.push(Branch { ex, key, blocks });
    }
    let fallback = fallback.zip(judge).map(|((slot, below), judge)| Fallback { slot, below, judge });
    Ok(Box::new(Route { rules, otherwise: 0, branches, fallback }))
}

/// The confidence model a route's fallback judges with outside a search: the file its
/// `confidence` parameter names, fitted for the primary (`otherwise`) branch's setting
/// `primary` (`cetune confidence --params` on that setting).
fn read_judge(setting: &Setting, primary: &Setting) -> Result<Model> {
    let bad = |msg: String| Error::config(format!("route '{}': {msg}", setting.extractor));
    let Some(Value::Cat(file)) = setting.get(CONFIDENCE) else {
        return Err(bad(format!(
            "a fallback needs parameter '{CONFIDENCE}': the confidence model file of the primary branch (cetune confidence --params …)"
        )));
    };
    Model::read(std::path::Path::new(file), primary)
}

/// A page's confidence in what branch `b` keeps of it (its own selection, in its own view),
/// cached with the branch's output: an individual that changes only the threshold or the
/// fallback re-runs nothing.
fn judged(doc: &Document, b: &Branch, judge: &Model) -> Fallible<f64> {
    use super::combine::{cached, hash_of};
    let signals = cached(doc, hash_of(("signals", b.key)), || {
        let mut sel = Selection::new(b.ex.view());
        b.ex.extract(doc, &mut sel)?;
        let s = super::judge::signals(doc, &sel, &doc.render(&sel));
        // The branch's output from the same run, as `cached_units` and `cached_mask` compute it:
        // a page that stays with its branch runs the branch once.
        if b.blocks {
            cached(doc, hash_of(("units", b.key)), || Ok(sel.units.iter().map(|&u| u as f32).collect()))?;
        } else {
            cached(doc, b.key, || Ok(doc.mask(&sel).into_iter().map(|k| if k { 1.0 } else { 0.0 }).collect()))?;
        }
        Ok(s.to_vec())
    })?;
    let mut x = [0f32; super::judge::N_SIGNALS];
    x.iter_mut().zip(signals.iter()).for_each(|(a, b)| *a = *b);
    Ok(judge.predict(&x))
}

impl Route {
    /// The branch (index into the used branches) page `doc` goes to.
    fn choose(&self, doc: &Document) -> usize {
        let f = &doc.features.values;
        self.rules
            .iter()
            .find(|r| f.get(r.feature).is_some_and(|&x| x >= r.at - 1e-12))
            .map_or(self.otherwise, |r| r.then)
    }
}

impl Extractor for Route {
    fn view(&self) -> View {
        View::Source
    }

    fn needs_package(&self) -> bool {
        self.branches.iter().any(|b| b.ex.needs_package())
    }

    /// The page features its rules read (none without a rule) and the union of its branches'
    /// needs, with what turns a branch's output into a mask ([`super::mask_needs`]).
    fn needs(&self) -> crate::document::Needs {
        use crate::document::Needs;
        let features = if self.rules.is_empty() { Needs::NONE } else { Needs::FEATURES };
        self.branches.iter().fold(features, |n, b| n | super::mask_needs(b.ex.as_ref()))
    }

    fn fell_back(&self, doc: &Document) -> Fallible<Option<bool>> {
        let Some(f) = self.fallback.as_ref() else { return Ok(None) };
        let b = self.choose(doc);
        Ok(Some(b != f.slot && judged(doc, &self.branches[b], &f.judge)? < f.below))
    }

    fn extract(&self, doc: &Document, out: &mut Selection) -> Fallible {
        let mut b = self.choose(doc);
        if let Some(f) = &self.fallback
            && b != f.slot
            && judged(doc, &self.branches[b], &f.judge)? < f.below
        {
            b = f.slot;
        }
        let b = &self.branches[b];
        if b.blocks {
            out.view = View::Blocks;
            out.units.clear();
            out.units.extend(super::combine::cached_units(doc, b.key, b.ex.as_ref())?.iter().map(|&u| u as u32));
            return Ok(());
        }
        let mask = super::combine::cached_mask(doc, b.key, b.ex.as_ref())?;
        let keep: Vec<bool> = mask.iter().map(|&x| x > 0.0).collect();
        doc.select_words(&keep, out);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROUTE: &str = "extractor: r2\nbranches: [lists=records, code]\nrules: 1\nparameters: []\n";

    fn route(sets: &[&str]) -> Box<dyn Extractor> {
        route_of(ROUTE, sets)
    }

    fn route_of(yaml: &str, sets: &[&str]) -> Box<dyn Extractor> {
        let f = crate::params::parse_str(yaml, std::path::Path::new("r.yaml"), &super::super::space).unwrap();
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        let s = f.space.with_assignments(&f.space.defaults(), &sets).unwrap();
        super::super::build(&super::super::Engine::default(), &s).unwrap()
    }

    #[test]
    fn two_page_kinds_go_to_two_branches() {
        let items: String = (0..6)
            .map(|i| {
                format!("<div><h3><a href=/p{i}>Product {i}</a></h3><p>Description of product {i}, in short.</p></div>")
            })
            .collect();
        let listing = format!("<body><div>{items}</div><pre>listing code block here</pre></body>");
        let docs =
            "<body><h1>API</h1><p>Use it like this, it is simple enough.</p><pre>let x = api::call();</pre></body>";
        // if records ≥ 6 (0.1 · 60): the records branch, else the code branch.
        let r = route(&["if1.on=true", "if1.feature=records", "if1.at=0.1", "if1.then=lists", "otherwise=code"]);
        let on_listing = super::super::extract_text(r.as_ref(), &Document::parse(&listing)).unwrap();
        let on_docs = super::super::extract_text(r.as_ref(), &Document::parse(docs)).unwrap();
        assert!(
            on_listing.contains("Description of product 5") && !on_listing.contains("listing code"),
            "{on_listing}"
        );
        assert_eq!(on_docs, "let x = api::call();");
        // A threshold above the page's records sends the listing to the other branch.
        let r = route(&["if1.on=true", "if1.feature=records", "if1.at=0.2", "if1.then=lists", "otherwise=code"]);
        assert_eq!(
            super::super::extract_text(r.as_ref(), &Document::parse(&listing)).unwrap(),
            "listing code block here"
        );
    }

    /// A confidence model that trusts a page whose output keeps more than half of its words
    /// (`kept_share` > 0.5: about 0.99) and distrusts the others (about 0.01).
    fn kept_half() -> Arc<Model> {
        use crate::extract::trees::{Forest, Node};
        let share = super::super::judge::SIGNALS.iter().position(|s| *s == "kept_share").unwrap() as u16;
        let tree =
            vec![Node::Split { feature: share, threshold: 0.5, left: 1, right: 2 }, Node::Leaf(-5.0), Node::Leaf(5.0)];
        let forest = Forest { base: 0.0, trees: vec![tree], gain: vec![0.0; super::super::judge::N_SIGNALS] };
        Arc::new(Model { forest, setting: String::new(), threshold: 0.5, about: serde_json::Value::Null })
    }

    #[test]
    fn a_page_whose_confidence_is_below_the_threshold_goes_to_the_fallback() {
        let yaml = "extractor: fb\nbranches: [main=code, alt=full]\nrules: 0\nparameters:\n  - {name: fallback, type: categorical, choices: [none, alt], default: alt}\n  - {name: confidence, type: categorical, choices: [c.json], default: c.json}\n";
        let dir = std::env::temp_dir().join(format!("cetune-route-fb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("c.json"), kept_half().to_json()).unwrap();
        let f = crate::params::parse_str(yaml, &dir.join("fb.yaml"), &super::super::space).unwrap();
        let build = |sets: &[&str]| {
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            let s = f.space.with_assignments(&f.space.defaults(), &sets).unwrap();
            super::super::build_with(
                &super::super::Engine::default(),
                &s,
                &super::super::models::Models(Vec::new(), Some(kept_half())),
            )
            .unwrap()
        };
        // Mostly code: `code` keeps most of the words, the page stays; prose: it keeps nothing.
        let code = Document::parse("<body><p>See:</p><pre>let a = b + c; let d = e * f; call(a, d);</pre></body>");
        let prose = Document::parse("<body><p>A page of prose with no code block at all, only words.</p></body>");
        let r = build(&["otherwise=main", "below=0.5"]);
        assert_eq!(super::super::extract_text(r.as_ref(), &code).unwrap(), "let a = b + c; let d = e * f; call(a, d);");
        assert_eq!(r.fell_back(&code).unwrap(), Some(false));
        assert_eq!(
            super::super::extract_text(r.as_ref(), &prose).unwrap(),
            "A page of prose with no code block at all, only words."
        );
        assert_eq!(r.fell_back(&prose).unwrap(), Some(true));
        // Without the fallback, or below a threshold no page is under: the primary's output.
        for sets in [&["otherwise=main", "fallback=none"][..], &["otherwise=main", "below=0.0"][..]] {
            let r = build(sets);
            assert_eq!(super::super::extract_text(r.as_ref(), &prose).unwrap(), "", "{sets:?}");
            assert_ne!(r.fell_back(&prose).unwrap(), Some(true), "{sets:?}");
        }
        // Outside a search, the model comes from the file the setting names, checked against the
        // primary's setting: this one was fitted for no setting.
        let s = f.space.defaults();
        let e = super::super::build(&super::super::Engine::default(), &s).err().unwrap();
        assert!(e.message.contains("the confidence model was fitted for ''"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_block_branch_keeps_the_hidden_text_a_mask_cannot() {
        let yaml = "extractor: r3\nbranches: [hidden=full_hidden, code]\nrules: 1\nparameters: []\n";
        let page = "<body><h1>Thread</h1><p>First post of the thread, visible.</p>\
                    <noscript><p>Second post, only without scripts.</p></noscript></body>";
        let doc = Document::parse(page);
        // words ≥ 1: every page goes to full_hidden, whose noscript text passes through.
        let r =
            route_of(yaml, &["if1.on=true", "if1.feature=words", "if1.at=0.0", "if1.then=hidden", "otherwise=code"]);
        let got = super::super::extract_text(r.as_ref(), &doc).unwrap();
        assert!(got.contains("Second post, only without scripts."), "{got}");
        assert!(got.contains("First post of the thread"), "{got}");
        // The same page again (the branch's blocks from the member cache).
        assert_eq!(super::super::extract_text(r.as_ref(), &doc).unwrap(), got);
        let r = route_of(yaml, &["otherwise=code"]);
        assert_eq!(super::super::extract_text(r.as_ref(), &doc).unwrap(), "");
    }
}
