//! Route descriptions (`params/route.yaml`): a parameter file with `branches:` describes a router
//! that sends each page to one of several structures (families or combinations, each with its
//! own genes) by a decision list over page features, whose conditions are genes too:
//!
//! - `ifK.on`, `ifK.feature`, `ifK.at`, `ifK.then` (K = 1..`rules`): rule K, when on, sends a page
//!   whose feature `ifK.feature` is at least `ifK.at · scale` to branch `ifK.then`; the first rule
//!   that fires decides;
//! - `otherwise`: the branch of a page no rule sends anywhere;
//! - `B.extractor` (fixed) names branch B's extractor, and `B.<name>` are its parameters
//!   (`lists.density.p` is parameter `density.p` of the combination behind branch `lists`);
//! - `scale.<feature>` (fixed) is the top of a feature's threshold range, so a setting alone
//!   says what its thresholds mean.
//!
//! The page features themselves are the `document` module's; this module sees their names and
//! scales through the built-in lookup (`@features`). Also here: the conditional genes of a
//! route (a rule's genes need the rule on; a branch's genes need a rule or `otherwise` to name
//! the branch) and its readable tree for Table 2 and `best.yaml`.

use super::compose::SEP;
use super::located::{At, AtFn, Builtin, ReadFile};
use super::space::{ParamSpace, ParamSpec, Spec};
use super::value::{Kind, Setting, Value};
use crate::error::Result;
use serde_saphyr::Location;

/// The name the built-in lookup answers with the page features as a space (one parameter per
/// feature, ranging over its scale).
pub const FEATURES: &str = "@features";

/// The default number of rules.
pub const DEFAULT_RULES: usize = 2;

/// The parameter naming the branch a page goes to when the confidence of its own branch's
/// output is below [`BELOW`] ([`NONE`]: no fallback).
pub const FALLBACK: &str = "fallback";
/// The confidence threshold of the fallback.
pub const BELOW: &str = "below";
/// The (fixed) parameter holding the confidence model file the fallback judges with outside a
/// search (`cetune confidence` on the primary branch's setting).
pub const CONFIDENCE: &str = "confidence";
/// The `fallback` choice that switches the fallback off.
pub const NONE: &str = "none";

/// The fallback branch of a route setting and its threshold: `None` without a fallback (no
/// `fallback` parameter, or `fallback: none`).
pub fn fallback_of(setting: &Setting) -> Option<(String, f64)> {
    match (setting.get(FALLBACK), setting.get(BELOW)) {
        (Some(Value::Cat(b)), Some(Value::Float(t))) if b != NONE => Some((b.clone(), *t)),
        _ => None,
    }
}

/// Whether `space` is a route's.
pub fn is_route(space: &ParamSpace) -> bool {
    space.kind == Kind::Route
}

/// Whether `setting` is a route's (it names an `otherwise` branch).
pub fn is_route_setting(setting: &Setting) -> bool {
    setting.kind == Kind::Route
}

fn rule_of(name: &str) -> Option<(usize, &str)> {
    let (head, rest) = name.split_once(SEP)?;
    let k = head.strip_prefix("if")?.parse().ok()?;
    Some((k, rest))
}

fn reserved(alias: &str) -> bool {
    [FALLBACK, BELOW, CONFIDENCE, NONE].contains(&alias)
        || alias == "otherwise"
        || alias == "scale"
        || alias == "extractor"
        || rule_of(&format!("{alias}{SEP}x")).is_some()
}

fn fixed(name: String, spec: Spec, default: Value, meaning: &str) -> ParamSpec {
    ParamSpec { name, spec, default, meaning: meaning.to_string(), tune: false, sane: None }
}

fn cat(choices: &[String]) -> Spec {
    Spec::Categorical { choices: choices.to_vec() }
}

/// One `branches:` entry (`alias=extractor`, or `extractor` as its own alias).
pub fn split_branch(entry: &str) -> (String, String) {
    match entry.split_once('=') {
        Some((a, e)) => (a.trim().to_string(), e.trim().to_string()),
        None => (entry.trim().to_string(), entry.trim().to_string()),
    }
}

/// The `branches:` list with its place in the file, the folder its settings files are read
/// from, and how to read them.
#[derive(Clone, Copy)]
pub struct Branches<'a> {
    /// The entries, each with its place.
    pub entries: &'a [At<String>],
    /// The place of the list.
    pub at: Location,
    /// The folder of the route's file.
    pub dir: &'a std::path::Path,
    /// Reads a settings file a branch names.
    pub read: &'a ReadFile<'a>,
}

/// Whether a `branches:` entry's extractor is a settings file (`learned=runs/blocks/best.yaml`).
pub fn is_settings_file(ex: &str) -> bool {
    ex.ends_with(".yaml") || ex.ends_with(".yml")
}

/// The branch a settings file describes (a run's `best.yaml`, or any parameter file): its
/// extractor and its space, every parameter fixed at the file's value (no gene; a route file
/// that declares `B.<name>` itself makes that one a gene again). The file's extractor must be a
/// built-in family or combination (the route's setting names it), not a route, and its setting
/// must not need a fitted model file: a branch fitted on gold is written `B=<family>` and fitted
/// by the search, out of fold. The message says what is wrong, with the file and line.
fn settings_branch(
    path: &std::path::Path,
    route: &str,
    builtin: &Builtin,
    read: &ReadFile,
) -> std::result::Result<(String, ParamSpace), String> {
    let (file_space, file_setting) = read(path).map_err(|e| e.to_string())?;
    let ex = file_space.extractor.clone();
    if ex == route {
        return Err(format!("describes '{ex}', this route itself: a route cannot be inside itself"));
    }
    if is_route(&file_space) {
        return Err(format!("describes the route '{ex}': a route cannot be inside a route"));
    }
    if file_setting.model.is_some() {
        return Err(format!(
            "names a fitted model file, which a fixed branch cannot carry: write the branch as NAME={ex}, which the search fits out of fold"
        ));
    }
    // An external extractor (`extractor: external`, its command among its parameters): the
    // file's own space, fixed at its values like any settings file.
    let own = if file_space.kind == Kind::External { Ok(file_space.clone()) } else { builtin(&ex) };
    let own = own.map_err(|e| format!("describes '{ex}', which is not built in ({})", e.message))?;
    let mut space = own;
    for p in &mut space.params {
        if let Some(v) = file_setting.get(&p.name) {
            p.default = v.clone();
        }
        p.tune = false;
    }
    space.known_good.clear();
    Ok((ex, space))
}

/// Validates a route's declared parameters against its branches and the page features and
/// completes the space with every rule, branch and scale parameter the file leaves out. Errors
/// point at the offending line: a branch naming an unknown extractor, a route as a branch (a
/// route inside itself), a branch listed twice, a condition on an unknown feature, a rule
/// sending pages to an unknown branch, a branch parameter its extractor does not have.
#[allow(clippy::too_many_arguments)]
pub fn complete(
    space: &mut ParamSpace,
    branches: &Branches,
    rules: usize,
    declared: &[(String, Location)],
    builtin: &Builtin,
    at: &AtFn,
) -> Result<()> {
    let Branches { entries: branches, at: branches_at, dir, read } = *branches;
    if branches.is_empty() {
        return Err(at(branches_at, "'branches' is empty: a route needs at least one branch".into()));
    }
    space.kind = Kind::Route;
    let mut spaces: Vec<(String, String, ParamSpace)> = Vec::new();
    for b in branches {
        let (alias, ex) = split_branch(&b.value);
        let err = |m: String| at(b.referenced, format!("branch '{alias}': {m}"));
        if alias.is_empty() || alias.contains(SEP) || reserved(&alias) {
            return Err(err(format!("not a usable branch name (no '{SEP}'; not otherwise, scale, extractor or ifN)")));
        }
        if spaces.iter().any(|(a, _, _)| *a == alias) {
            return Err(err("listed twice (give the second one its own name: other=extractor)".into()));
        }
        if ex == space.extractor {
            return Err(err(format!("'{ex}' is this route itself: a route cannot be inside itself")));
        }
        let (ex, s) = match is_settings_file(&ex) {
            true => settings_branch(&dir.join(&ex), &space.extractor, builtin, read)
                .map_err(|m| err(format!("'{ex}': {m}")))?,
            false => (ex.clone(), builtin(&ex).map_err(|e| err(format!("unknown extractor '{ex}': {}", e.message)))?),
        };
        if is_route(&s) {
            return Err(err(format!("'{ex}' is a route: a route cannot be inside a route")));
        }
        spaces.push((alias, ex, s));
    }
    let features = builtin(FEATURES)?;
    let feature_names: Vec<String> = features.params.iter().map(|p| p.name.clone()).collect();
    let aliases: Vec<String> = spaces.iter().map(|(a, _, _)| a.clone()).collect();
    let loc = |n: &str| declared.iter().find(|(d, _)| d == n).map_or(Location::UNKNOWN, |(_, l)| *l);
    // The declared parameters: rule genes, `otherwise`, scales, branch parameters.
    for p in &space.params {
        let err = |msg: String| at(loc(&p.name), format!("parameter '{}': {msg}", p.name));
        let choices = |p: &ParamSpec| match &p.spec {
            Spec::Categorical { choices } => Some(choices.clone()),
            _ => None,
        };
        let must_choose = |among: &[String], what: &str| -> Result<()> {
            let Some(cs) = choices(p) else { return Err(err("must be categorical".into())) };
            match cs.iter().find(|c| !among.contains(c)) {
                Some(c) => Err(err(format!("unknown {what} '{c}' (known: {})", among.join(", ")))),
                None => Ok(()),
            }
        };
        if p.name == "otherwise" {
            must_choose(&aliases, "branch")?;
            continue;
        }
        if p.name == FALLBACK {
            let among: Vec<String> = std::iter::once(NONE.to_string()).chain(aliases.iter().cloned()).collect();
            must_choose(&among, "branch")?;
            continue;
        }
        if p.name == BELOW {
            if !matches!(p.spec, Spec::Float { min, max, .. } if min >= 0.0 && max <= 1.0) {
                return Err(err("must be a float within [0, 1] (a confidence, an estimate of the page's F1)".into()));
            }
            continue;
        }
        if p.name == CONFIDENCE {
            if choices(p).map(|c| c.len()) != Some(1) {
                return Err(err("must be categorical with one choice: the confidence model file".into()));
            }
            continue;
        }
        if let Some((k, rest)) = rule_of(&p.name) {
            if k == 0 || k > rules {
                return Err(err(format!("there are {rules} rules (if1..if{rules}; set 'rules' for more)")));
            }
            match rest {
                "feature" => must_choose(&feature_names, "feature")?,
                "then" => must_choose(&aliases, "branch")?,
                "on" if matches!(p.spec, Spec::Bool) => {}
                "at" if matches!(p.spec, Spec::Float { min, max, .. } if min >= 0.0 && max <= 1.0) => {}
                "on" | "at" => {
                    return Err(err(
                        "'on' must be a bool, 'at' a float within [0, 1] (a share of the feature's scale)".into(),
                    ));
                }
                other => return Err(err(format!("a rule has on, feature, at and then, not '{other}'"))),
            }
            continue;
        }
        let Some((head, rest)) = p.name.split_once(SEP) else {
            return Err(err(format!(
                "not a route parameter (otherwise, ifK.on/feature/at/then) nor a branch's (write branch{SEP}name, branches: {})",
                aliases.join(", ")
            )));
        };
        if head == "scale" {
            if !feature_names.iter().any(|f| f == rest) {
                return Err(err(format!("unknown feature '{rest}' (known: {})", feature_names.join(", "))));
            }
            continue;
        }
        let Some((_, ex, bs)) = spaces.iter().find(|(a, _, _)| a == head) else {
            return Err(err(format!("'{head}' is not a branch (branches: {})", aliases.join(", "))));
        };
        if rest == "extractor" {
            must_choose(std::slice::from_ref(ex), "extractor")?;
            continue;
        }
        if bs.param(rest).is_none() {
            return Err(err(format!("branch '{head}' ({ex}): {}", bs.unknown(rest).message)));
        }
    }
    let has = |space: &ParamSpace, n: &str| space.param(n).is_some();
    complete_fallback(space, &loc, at, dir)?;
    if !has(space, "otherwise") {
        space.params.push(ParamSpec {
            name: "otherwise".into(),
            spec: cat(&aliases),
            default: Value::Cat(aliases[aliases.len() - 1].clone()),
            meaning: "the branch of a page no rule sends anywhere".into(),
            tune: true,
            sane: None,
        });
    }
    for k in 1..=rules {
        let n = |s: &str| format!("if{k}{SEP}{s}");
        let add = |space: &mut ParamSpace, name: String, spec: Spec, default: Value, meaning: &str| {
            if !has(space, &name) {
                space.params.push(ParamSpec { name, spec, default, meaning: meaning.into(), tune: true, sane: None });
            }
        };
        add(space, n("on"), Spec::Bool, Value::Bool(false), "rule switched on");
        add(
            space,
            n("feature"),
            cat(&feature_names),
            Value::Cat(feature_names[0].clone()),
            "the page feature the rule tests",
        );
        let unit = Spec::Float { min: 0.0, max: 1.0, step: Some(0.01) };
        add(space, n("at"), unit, Value::Float(0.5), "threshold, as a share of the feature's scale");
        let first = Value::Cat(aliases[(k - 1) % aliases.len()].clone());
        add(space, n("then"), cat(&aliases), first, "the branch of a page the rule fires on");
    }
    for f in &features.params {
        let name = format!("scale{SEP}{}", f.name);
        if !has(space, &name) {
            let (spec, v) = match f.spec {
                Spec::Int { max, .. } => (Spec::Int { min: 0, max: max.max(1) }, Value::Int(max)),
                Spec::Float { max, .. } => (Spec::Float { min: 0.0, max: max.max(1.0), step: None }, Value::Float(max)),
                _ => continue,
            };
            space.params.push(fixed(name, spec, v, "top of the feature's threshold range"));
        }
    }
    // The tree, before any setting of the space is made (the branches' known-good individuals).
    space.members = spaces.iter().map(|(alias, _, s)| s.as_member(alias)).collect();
    for (alias, ex, bs) in &spaces {
        let n = |s: &str| format!("{alias}{SEP}{s}");
        if !has(space, &n("extractor")) {
            let spec = cat(std::slice::from_ref(ex));
            space.params.push(fixed(n("extractor"), spec, Value::Cat(ex.clone()), "the branch's extractor"));
        }
        for p in &bs.params {
            if !has(space, &n(&p.name)) {
                space.params.push(ParamSpec { name: n(&p.name), ..p.clone() });
            }
        }
        for g in &bs.correlated {
            space.correlated.push(g.iter().map(|x| n(x)).collect());
        }
        // Each branch's known-good individuals, as the route's `otherwise` branch.
        for kg in &bs.known_good {
            let mut s = space.defaults();
            for (name, v) in
                kg.setting.prefixed(alias).values.into_iter().chain([("otherwise".into(), Value::Cat(alias.clone()))])
            {
                if let Some(slot) = s.values.iter_mut().find(|(m, _)| *m == name) {
                    slot.1 = v;
                }
            }
            space.known_good.push(super::space::KnownGood { label: format!("{alias}: {}", kg.label), setting: s });
        }
    }
    Ok(())
}

/// A route's fallback (`fallback`, `below`, `confidence`): with `fallback` declared, `below`
/// is added when left out (a gene), `confidence` must name a model file, which is read relative
/// to the description's folder and kept as an absolute path, so `run.yaml` and `best.yaml` find
/// it from anywhere.
fn complete_fallback(
    space: &mut ParamSpace,
    loc: &dyn Fn(&str) -> Location,
    at: &AtFn,
    dir: &std::path::Path,
) -> Result<()> {
    let Some(fb) = space.param(FALLBACK) else {
        for n in [BELOW, CONFIDENCE] {
            if space.param(n).is_some() {
                return Err(at(loc(n), format!("parameter '{n}': belongs to a fallback; declare '{FALLBACK}' too")));
            }
        }
        return Ok(());
    };
    let fb_at = loc(&fb.name);
    if space.param(BELOW).is_none() {
        space.params.push(ParamSpec {
            name: BELOW.into(),
            spec: Spec::Float { min: 0.0, max: 1.0, step: Some(0.01) },
            default: Value::Float(0.3),
            meaning: "pages whose confidence is below this go to the fallback".into(),
            tune: true,
            sane: None,
        });
    }
    let Some(c) = space.params.iter_mut().find(|p| p.name == CONFIDENCE) else {
        return Err(at(
            fb_at,
            format!(
                "a fallback needs parameter '{CONFIDENCE}': the confidence model file of the primary branch (cetune confidence --params …)"
            ),
        ));
    };
    let Value::Cat(file) = c.default.clone() else { return Err(at(loc(CONFIDENCE), "must name a file".into())) };
    let path = dir.join(&file);
    let path = std::path::absolute(&path).unwrap_or(path);
    if !path.is_file() {
        return Err(at(loc(CONFIDENCE), format!("parameter '{CONFIDENCE}': no model file {}", path.display())));
    }
    let full = path.to_string_lossy().to_string();
    c.spec = Spec::Categorical { choices: vec![full.clone()] };
    c.default = Value::Cat(full);
    c.tune = false;
    Ok(())
}

/// The number of rules of a route space.
pub fn rules(space: &ParamSpace) -> usize {
    space.params.iter().filter_map(|p| rule_of(&p.name)).filter(|(_, r)| *r == "on").map(|(k, _)| k).max().unwrap_or(0)
}

/// The `branches:` entries of a route space (`alias=extractor`).
pub fn branch_entries(space: &ParamSpace) -> Vec<String> {
    space
        .members
        .iter()
        .map(|b| match b.extractor != b.name {
            true => format!("{}={}", b.name, b.extractor),
            false => b.name.clone(),
        })
        .collect()
}

/// Branch `alias`'s own space, read back out of the route's: its parameters without the prefix
/// (and without `extractor`), and what the branch is, from the route's tree (for a combination,
/// its members).
pub fn branch_space(space: &ParamSpace, alias: &str) -> ParamSpace {
    let branch = space.member(alias);
    let params: Vec<ParamSpec> = match branch {
        Some(b) => space
            .params
            .iter()
            .filter_map(|p| {
                let rest = b.own(&p.name)?;
                (rest != "extractor").then(|| ParamSpec { name: rest.to_string(), ..p.clone() })
            })
            .collect(),
        None => Vec::new(),
    };
    ParamSpace {
        extractor: branch.map_or_else(|| alias.to_string(), |b| b.extractor.clone()),
        kind: branch.map_or(Kind::Family, |b| b.kind),
        description: String::new(),
        params,
        correlated: Vec::new(),
        known_good: Vec::new(),
        members: branch.map(|b| b.members.clone()).unwrap_or_default(),
        search: None,
    }
}

/// The conditions of a route's rules: a rule's feature, threshold and branch need the rule on
/// (a combination branch's own conditions are added by `combine::dependencies`).
pub fn dependencies(space: &ParamSpace) -> Vec<(usize, usize, Value)> {
    let idx = |n: &str| space.params.iter().position(|p| p.name == n);
    let mut out = Vec::new();
    for (i, p) in space.params.iter().enumerate() {
        if let Some((k, rest)) = rule_of(&p.name)
            && rest != "on"
            && let Some(sw) = idx(&format!("if{k}{SEP}on"))
        {
            out.push((i, sw, Value::Bool(true)));
        }
    }
    out
}

/// The branches a setting can send pages to: `otherwise` and every rule that is on.
fn used(space: &ParamSpace, setting: &Setting) -> Vec<String> {
    let get = |n: &str| setting.get(n).or_else(|| space.param(n).map(|p| &p.default));
    let mut out = Vec::new();
    if let Some(Value::Cat(b)) = get("otherwise") {
        out.push(b.clone());
    }
    for k in 1..=rules(space) {
        if get(&format!("if{k}{SEP}on")) == Some(&Value::Bool(true))
            && let Some(Value::Cat(b)) = get(&format!("if{k}{SEP}then"))
        {
            out.push(b.clone());
        }
    }
    if let Some(Value::Cat(b)) = get(FALLBACK)
        && b != NONE
    {
        out.push(b.clone());
    }
    out
}

/// When branch `alias` is used, as alternatives of tests `(parameter, value)` that must all hold:
/// `otherwise` names it, or rule K is on and sends pages to it. Its genes count only then (the
/// fitness cache key and the active genes leave them out otherwise, see [`activity`]).
pub fn branch_used_when(space: &ParamSpace, alias: &str) -> Vec<Vec<(usize, Value)>> {
    let idx = |n: &str| space.params.iter().position(|p| p.name == n);
    let b = Value::Cat(alias.to_string());
    let mut out = Vec::new();
    if let Some(o) = idx("otherwise") {
        out.push(vec![(o, b.clone())]);
    }
    for k in 1..=rules(space) {
        if let (Some(on), Some(then)) = (idx(&format!("if{k}{SEP}on")), idx(&format!("if{k}{SEP}then"))) {
            out.push(vec![(on, Value::Bool(true)), (then, b.clone())]);
        }
    }
    if let Some(f) = idx(FALLBACK) {
        out.push(vec![(f, b.clone())]);
    }
    out
}

/// Marks inactive in `act` (one flag per parameter of `space`) the parameters of the branches
/// that no rule, `otherwise` or the fallback of `setting` names.
pub fn unused_branches(space: &ParamSpace, setting: &Setting, act: &mut [bool]) {
    let used = used(space, setting);
    for (i, p) in space.params.iter().enumerate() {
        if space.members.iter().any(|b| b.own(&p.name).is_some() && !used.contains(&b.name)) {
            act[i] = false;
        }
    }
}

/// A rule's threshold in the feature's units: `at · scale`, a whole number for a count.
pub fn threshold(at: f64, scale: &Value) -> f64 {
    match scale {
        Value::Int(m) => (at * *m as f64).round(),
        Value::Float(m) => at * m,
        _ => at,
    }
}

/// The route of a setting as a readable tree: `if records ≥ 6: vote(...) elif code_share ≥ 0.1:
/// ... else: density(...)`, each branch as its own structure (`structure`: a combination
/// branch's, from `combine::describe`; `None` for a family).
pub fn describe(
    space: &ParamSpace,
    setting: &Setting,
    structure: &dyn Fn(&ParamSpace, &Setting) -> Option<String>,
) -> String {
    let get = |n: &str| setting.get(n).or_else(|| space.param(n).map(|p| &p.default)).cloned();
    let branch = |alias: &str| {
        let sub = branch_space(space, alias);
        let own = match space.member(alias) {
            Some(b) => setting.member(b),
            None => return format!("{alias}()"),
        };
        if let Some(d) = structure(&sub, &own) {
            return d;
        }
        let tuned: Vec<String> = sub
            .params
            .iter()
            .filter(|p| p.tune)
            .map(|p| format!("{}={}", p.name, own.get(&p.name).unwrap_or(&p.default)))
            .collect();
        format!("{}({})", sub.extractor, tuned.join(", "))
    };
    let mut parts = Vec::new();
    for k in 1..=rules(space) {
        let n = |s: &str| format!("if{k}{SEP}{s}");
        if get(&n("on")) != Some(Value::Bool(true)) {
            continue;
        }
        let (Some(Value::Cat(f)), Some(Value::Cat(b))) = (get(&n("feature")), get(&n("then"))) else { continue };
        let at = match get(&n("at")) {
            Some(Value::Float(x)) => x,
            _ => 0.0,
        };
        let t = threshold(at, &get(&format!("scale{SEP}{f}")).unwrap_or(Value::Float(1.0)));
        let word = if parts.is_empty() { "if" } else { "elif" };
        parts.push(format!("{word} {f} ≥ {t}: {}", branch(&b)));
    }
    let fallback = match (get(FALLBACK), get(BELOW)) {
        (Some(Value::Cat(b)), Some(Value::Float(t))) if b != NONE => format!(" fallback below {t}: {}", branch(&b)),
        _ => String::new(),
    };
    let Some(Value::Cat(o)) = get("otherwise") else { return parts.join(" ") + &fallback };
    if parts.is_empty() {
        return branch(&o) + &fallback;
    }
    parts.push(format!("else: {}", branch(&o)));
    parts.join(" ") + &fallback
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn parse(text: &str) -> Result<crate::params::ParamsFile> {
        crate::params::parse_str(text, Path::new("r.yaml"), &crate::extract::space)
    }

    const ROUTE: &str = "extractor: my-route\nbranches: [lists=records, density]\nrules: 1\nparameters:\n  - {name: if1.feature, type: categorical, choices: [records, code_share], default: records}\n  - {name: lists.min_records, type: int, min: 2, max: 10, default: 3}\n";

    #[test]
    fn a_route_is_completed_and_described_as_a_tree() {
        let f = parse(ROUTE).unwrap();
        let s = &f.space;
        assert!(is_route(s));
        assert_eq!(s.member_names(), ["lists", "density"]);
        assert_eq!(branch_entries(s), ["lists=records", "density"]);
        let st = s
            .with_assignments(&s.defaults(), &["if1.on=true".into(), "if1.at=0.1".into(), "if1.then=lists".into()])
            .unwrap();
        let d = crate::params::combine::describe(s, &st).unwrap();
        assert!(d.starts_with("if records ≥ 6: records(min_records=3, min_chars=20"), "{d}");
        assert!(d.contains("else: density("), "{d}");
        // The density branch's parameters are active (otherwise), so are the lists'.
        let idx = |n: &str| s.params.iter().position(|p| p.name == n).unwrap();
        let act = crate::params::combine::activity(s, &st);
        assert!(act[idx("lists.min_records")] && act[idx("density.p")] && act[idx("if1.at")]);
        let off = s.with_assignments(&st, &["if1.on=false".into()]).unwrap();
        let act = crate::params::combine::activity(s, &off);
        assert!(!act[idx("lists.min_records")] && !act[idx("if1.at")] && act[idx("density.p")]);
        let d = crate::params::combine::describe(s, &off).unwrap();
        assert!(d.starts_with("density(") && !d.contains(" if "), "{d}");
    }

    #[test]
    fn a_fallback_is_a_gene_its_branch_counts_only_when_chosen_and_its_model_file_must_exist() {
        let dir = std::env::temp_dir().join(format!("cetune-params-fb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("c.json"), "{}").unwrap();
        let text = "extractor: fb\nbranches: [main=lqf, alt=density]\nrules: 0\nparameters:\n  - {name: otherwise, type: categorical, choices: [main], default: main, tune: false}\n  - {name: fallback, type: categorical, choices: [none, alt], default: none}\n  - {name: confidence, type: categorical, choices: [c.json], default: c.json}\n";
        let parse = |t: &str| crate::params::parse_str(t, &dir.join("fb.yaml"), &crate::extract::space);
        let s = parse(text).unwrap().space;
        // `below` is added as a gene; the model file becomes an absolute path.
        let below = s.param(BELOW).unwrap();
        assert!(
            below.tune
                && matches!(below.spec, Spec::Float { min, max, .. } if min.abs() < 1e-12 && (max - 1.0).abs() < 1e-12)
        );
        let file = std::path::absolute(dir.join("c.json")).unwrap().to_string_lossy().to_string();
        assert_eq!(s.param(CONFIDENCE).unwrap().default, Value::Cat(file));
        assert!(fallback_of(&s.defaults()).is_none());
        let on = s.with_assignments(&s.defaults(), &["fallback=alt".into(), "below=0.4".into()]).unwrap();
        assert_eq!(fallback_of(&on), Some(("alt".to_string(), 0.4)));
        let idx = |n: &str| s.params.iter().position(|p| p.name == n).unwrap();
        assert!(!crate::params::combine::activity(&s, &s.defaults())[idx("alt.p")]);
        assert!(crate::params::combine::activity(&s, &on)[idx("alt.p")]);
        assert!(
            crate::params::combine::describe(&s, &on).unwrap().starts_with("lqf(")
                && crate::params::combine::describe(&s, &on).unwrap().contains(" fallback below 0.4: density(")
        );
        // Errors name the file and line.
        let msg = |t: String| parse(&t).unwrap_err().to_string();
        let e =
            msg(text.replace("  - {name: confidence, type: categorical, choices: [c.json], default: c.json}\n", ""));
        assert!(e.contains("fb.yaml:6: a fallback needs parameter 'confidence'"), "{e}");
        let e = msg(text.replace("[c.json], default: c.json", "[d.json], default: d.json"));
        assert!(e.contains("fb.yaml:7: parameter 'confidence': no model file"), "{e}");
        let e = msg(text.replace("[none, alt]", "[none, other]"));
        assert!(e.contains("fb.yaml:6: parameter 'fallback': unknown branch 'other'"), "{e}");
        let e = msg(text.replace("name: fallback", "name: fall")
            + "  - {name: below, type: float, min: 0, max: 1, default: 0.5}\n");
        assert!(e.contains("parameter 'fall'"), "{e}");
        let e = msg(text.to_string() + "  - {name: below, type: float, min: 0, max: 2, default: 0.5}\n");
        assert!(e.contains("fb.yaml:8: parameter 'below': must be a float within [0, 1]"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_routes_are_rejected_with_file_and_line() {
        let msg = |t: String| parse(&t).unwrap_err().to_string();
        let e = msg(ROUTE.replace("lists=records", "lists=nope"));
        assert!(e.starts_with("r.yaml:2: branch 'lists': unknown extractor 'nope'"), "{e}");
        let e = msg(ROUTE.replace("choices: [records, code_share]", "choices: [records, colour]"));
        assert!(e.starts_with("r.yaml:5: parameter 'if1.feature': unknown feature 'colour' (known: words,"), "{e}");
        let e = msg(ROUTE.replace("lists=records", "lists=my-route"));
        assert!(e.starts_with("r.yaml:2: branch 'lists': 'my-route' is this route itself"), "{e}");
        let e = msg(ROUTE.replace("lists=records", "lists=route"));
        assert!(e.starts_with("r.yaml:2: branch 'lists': 'route' is a route: a route cannot be inside a route"), "{e}");
        let e = msg(ROUTE.replace("lists.min_records", "lists.min_recs"));
        assert!(e.starts_with("r.yaml:6: parameter 'lists.min_recs': branch 'lists' (records)"), "{e}");
        let e = msg(ROUTE.replace("name: if1.feature", "name: if2.feature"));
        assert!(e.starts_with("r.yaml:5: parameter 'if2.feature': there are 1 rules"), "{e}");
    }
}
