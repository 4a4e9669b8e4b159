//! Combination descriptions (`params/combine.yaml`): a parameter file with `members:` describes a
//! combination of extractor families. Its parameters are the structure (`combinator`, `v`,
//! `min_run`, `max_gap`; per member `m.on`, `m.weight`, `m.soft`, `m.abstain`, `m.order`) and the members'
//! own parameters under namespaced names (`accb.r`). What the file does not declare is completed
//! here as fixed parameters (a member's undeclared parameters at their built-in defaults), so a
//! setting of a combination names everything its extractor needs. Also here: which parameters are
//! active in a setting (the conditional genes: a switched-off member's parameters, the vote's
//! weights under another combinator) and the readable structure label of Table 2 and `best.yaml`.

use super::compose::SEP;
use super::located::{At, AtFn, Builtin};
use super::space::{ParamSpace, ParamSpec, Spec};
use super::value::{Kind, Setting, Value};
use crate::error::Result;
use serde_saphyr::Location;

/// The combinators, in the order of the `combinator` parameter's choices.
pub const COMBINATORS: &[&str] = &["vote", "union", "intersection", "serial", "fallback"];

/// Structure parameters of the whole combination.
pub const GLOBAL: &[&str] = &["combinator", "v", "min_run", "max_gap"];

/// Structure parameters of each member (`m.on`, ...).
pub const PER_MEMBER: &[&str] = &["on", "weight", "soft", "abstain", "order"];

/// The `members:` list with its place in the file.
pub struct Located {
    /// The line of the `members` key's value.
    pub at: Location,
    /// The member names, each with its place.
    pub names: Vec<At<String>>,
}

fn fixed(name: String, spec: Spec, default: Value, meaning: &str) -> ParamSpec {
    ParamSpec { name, spec, default, meaning: meaning.to_string(), tune: false, sane: None }
}

/// Validates a combination's declared parameters against its members and completes the space
/// with every structure and member parameter the file leaves out (fixed). Errors point at the
/// offending line: an unknown member, a member listed twice (a serial pipeline through a member
/// twice is a cycle), an empty member list, a namespaced parameter that is not a member's, a
/// member range outside the member's own, a vote threshold `v` outside `[0, Σ max weights]`.
pub fn complete(
    space: &mut ParamSpace,
    members: &Located,
    declared: &[(String, Location)],
    builtin: &Builtin,
    at: &AtFn,
) -> Result<()> {
    if members.names.is_empty() {
        return Err(at(members.at, "'members' is empty: a combination needs at least one member".into()));
    }
    space.kind = Kind::Combination;
    let mut spaces: Vec<(String, ParamSpace)> = Vec::new();
    for m in &members.names {
        let name = m.value.as_str();
        if spaces.iter().any(|(n, _)| n == name) {
            let msg = format!("member '{name}' is listed twice (a pipeline through it twice would be a cycle)");
            return Err(at(m.referenced, msg));
        }
        if name.contains(SEP) {
            return Err(at(m.referenced, format!("member name '{name}' must not contain '{SEP}'")));
        }
        if let Some(s) = member_space(space, name, at)? {
            spaces.push((name.to_string(), s));
            continue;
        }
        let s = builtin(name).map_err(|e| at(m.referenced, format!("unknown member '{name}': {}", e.message)))?;
        if !s.members.is_empty() {
            return Err(at(m.referenced, format!("member '{name}' is itself a combination; members are families")));
        }
        spaces.push((name.to_string(), s));
    }
    let names: Vec<&str> = spaces.iter().map(|(n, _)| n.as_str()).collect();
    let loc = |n: &str| declared.iter().find(|(d, _)| d == n).map_or(Location::UNKNOWN, |(_, l)| *l);
    for p in &space.params {
        let err = |msg: String| at(loc(&p.name), format!("parameter '{}': {msg}", p.name));
        match p.name.split_once(SEP) {
            None => {
                if !GLOBAL.contains(&p.name.as_str()) {
                    return Err(err(format!(
                        "not a structure parameter ({}) nor a member's (write member{SEP}name, members: {})",
                        GLOBAL.join(", "),
                        names.join(", ")
                    )));
                }
                if p.name == "combinator" {
                    let ok = matches!(&p.spec, Spec::Categorical { choices } if choices.iter().all(|c| COMBINATORS.contains(&c.as_str())));
                    if !ok {
                        return Err(err(format!("must be categorical with choices among {}", COMBINATORS.join(", "))));
                    }
                }
            }
            Some((m, rest)) => {
                let Some((_, ms)) = spaces.iter().find(|(n, _)| n == m) else {
                    return Err(err(format!("'{m}' is not a member (members: {})", names.join(", "))));
                };
                if PER_MEMBER.contains(&rest) {
                    continue;
                }
                let Some(own) = ms.param(rest) else {
                    return Err(err(ms.unknown(rest).message));
                };
                let inside = match (&p.spec, &own.spec) {
                    (Spec::Float { min, max, .. }, Spec::Float { min: a, max: b, .. }) => min >= a && max <= b,
                    (Spec::Int { min, max }, Spec::Int { min: a, max: b }) => min >= a && max <= b,
                    (Spec::Categorical { choices }, Spec::Categorical { choices: own }) => {
                        choices.iter().all(|c| own.contains(c))
                    }
                    (Spec::Bool, Spec::Bool) => true,
                    _ => false,
                };
                if !inside {
                    return Err(err(format!(
                        "its type and range must lie within member '{m}''s own ({} {})",
                        own.spec.kind_name(),
                        own.spec.range_text()
                    )));
                }
            }
        }
    }
    // The structure parameters the file leaves out, fixed at neutral values.
    let has = |space: &ParamSpace, n: &str| space.param(n).is_some();
    let cat = |c: &[&str]| Spec::Categorical { choices: c.iter().map(|s| s.to_string()).collect() };
    if !has(space, "combinator") {
        space.params.push(fixed(
            "combinator".into(),
            cat(COMBINATORS),
            Value::Cat("vote".into()),
            "how members combine",
        ));
    }
    let mut weight_sum = 0.0;
    for (k, (m, ms)) in spaces.iter().enumerate() {
        let n = |s: &str| format!("{m}{SEP}{s}");
        if !has(space, &n("on")) {
            space.params.push(fixed(n("on"), Spec::Bool, Value::Bool(true), "member switched on"));
        }
        if !has(space, &n("weight")) {
            let spec = Spec::Float { min: 0.0, max: 1.0, step: None };
            space.params.push(fixed(n("weight"), spec, Value::Float(1.0), "weight of the member's vote"));
        }
        if !has(space, &n("soft")) {
            space.params.push(fixed(n("soft"), Spec::Bool, Value::Bool(false), "vote with the member's confidence"));
        }
        if !has(space, &n("abstain")) {
            let meaning = "a page where the member keeps nothing is one it does not vote on";
            space.params.push(fixed(n("abstain"), Spec::Bool, Value::Bool(false), meaning));
        }
        if !has(space, &n("order")) {
            let spec = Spec::Int { min: 0, max: 1000 };
            space.params.push(fixed(n("order"), spec, Value::Int(k as i64), "position in a serial pipeline"));
        }
        weight_sum += match &space.param(&n("weight")).expect("added above").spec {
            Spec::Float { max, .. } => *max,
            Spec::Int { max, .. } => *max as f64,
            _ => 1.0,
        };
        for p in &ms.params {
            if !has(space, &n(&p.name)) {
                space.params.push(ParamSpec { name: n(&p.name), tune: false, ..p.clone() });
            }
        }
        // A member's correlated group carries over when all its parameters are tuned here.
        for g in &ms.correlated {
            let names: Vec<String> = g.iter().map(|x| n(x)).collect();
            let tuned = names.iter().all(|x| space.param(x).is_some_and(|p| p.tune));
            let free = names.iter().all(|x| !space.correlated.iter().flatten().any(|y| y == x));
            if tuned && free {
                space.correlated.push(names);
            }
        }
    }
    match space.param("v").map(|p| p.spec.clone()) {
        Some(Spec::Float { min, max, .. }) if min < 0.0 || max > weight_sum + 1e-9 => {
            let msg = format!(
                "parameter 'v': the vote threshold must lie in [0, {weight_sum}] (the sum of the members' largest weights), got [{min}, {max}]"
            );
            return Err(at(loc("v"), msg));
        }
        Some(Spec::Float { .. }) => {}
        Some(_) => return Err(at(loc("v"), "parameter 'v': must be a float".into())),
        None => {
            let spec = Spec::Float { min: 0.0, max: weight_sum, step: None };
            let v = Value::Float(weight_sum / 2.0);
            space.params.push(fixed("v".into(), spec, v, "vote threshold: keep a word when Σ weight·keep ≥ v"));
        }
    }
    for (name, meaning) in
        [("min_run", "drop kept runs shorter than this (words)"), ("max_gap", "fill gaps shorter than this (words)")]
    {
        match space.param(name).map(|p| &p.spec) {
            None => space.params.push(fixed(name.into(), Spec::Int { min: 0, max: 1000 }, Value::Int(0), meaning)),
            Some(Spec::Int { min, .. }) if *min >= 0 => {}
            Some(_) => {
                return Err(at(loc(name), format!("parameter '{name}': must be an int with min >= 0")));
            }
        }
    }
    space.members = spaces.iter().map(|(n, s)| s.as_member(n)).collect();
    Ok(())
}

/// The space of a combination's external member `m`: the combination's own `m.*` parameters
/// (the file declares `m.command`), with the budgets completed. `None` when `m` is not external.
fn member_space(combination: &mut ParamSpace, m: &str, at: &AtFn) -> Result<Option<ParamSpace>> {
    let prefix = format!("{m}{SEP}");
    if combination.param(&format!("{prefix}{}", super::external::COMMAND)).is_none() {
        return Ok(None);
    }
    super::external::complete_member(combination, &prefix, super::external::Keys::default(), at)?;
    let params = combination
        .params
        .iter()
        .filter_map(|p| {
            let rest = p.name.strip_prefix(&prefix)?;
            let structure = PER_MEMBER.contains(&rest);
            (!structure).then(|| ParamSpec { name: rest.to_string(), ..p.clone() })
        })
        .collect();
    Ok(Some(ParamSpace {
        extractor: super::external::NAME.to_string(),
        kind: super::value::Kind::External,
        description: format!("external member {m}"),
        params,
        correlated: Vec::new(),
        known_good: Vec::new(),
        members: Vec::new(),
        search: None,
    }))
}

fn cat_of(s: &Setting, name: &str) -> Option<String> {
    match s.get(name) {
        Some(Value::Cat(c)) => Some(c.clone()),
        _ => None,
    }
}

/// The conditions of the conditional parameters: `(parameter, switch, value)` says parameter
/// `parameter` (an index into `space.params`) takes part only while parameter `switch` has
/// `value`. A member's parameters need `m.on = true`; `v`, weights, `soft` and
/// `abstain` need `combinator = vote`; `order` needs `combinator = serial`. Empty for a single family.
pub fn dependencies(space: &ParamSpace) -> Vec<(usize, usize, Value)> {
    let idx = |n: &str| space.params.iter().position(|p| p.name == n);
    if super::route::is_route(space) {
        // A route's rules, then inside each combination branch its own conditions.
        let mut out = super::route::dependencies(space);
        for branch in &space.members {
            let sub = super::route::branch_space(space, &branch.name);
            if sub.members.is_empty() {
                continue;
            }
            let back = |j: usize| idx(&format!("{}{SEP}{}", branch.name, sub.params[j].name));
            for (i, k, v) in dependencies(&sub) {
                if let (Some(i), Some(k)) = (back(i), back(k)) {
                    out.push((i, k, v));
                }
            }
        }
        return out;
    }
    let mut out = Vec::new();
    if space.members.is_empty() {
        return out;
    }
    let comb = idx("combinator");
    for (i, p) in space.params.iter().enumerate() {
        let needs = |c: &str| comb.map(|k| (i, k, Value::Cat(c.to_string())));
        match p.name.split_once(SEP) {
            None if p.name == "v" => out.extend(needs("vote")),
            None => {}
            Some((m, rest)) => {
                if rest != "on"
                    && let Some(k) = idx(&format!("{m}{SEP}on"))
                {
                    out.push((i, k, Value::Bool(true)));
                }
                match rest {
                    "weight" | "soft" | "abstain" => out.extend(needs("vote")),
                    "order" => out.extend(needs("serial")),
                    _ => {}
                }
            }
        }
    }
    out
}

/// Whether each parameter of `space` takes part in the extraction of `setting` (the
/// conditional genes, see [`dependencies`]). Everything is active in a single family's space.
/// A route's branch takes part only while a rule or `otherwise` names it.
pub fn activity(space: &ParamSpace, setting: &Setting) -> Vec<bool> {
    let mut act = vec![true; space.params.len()];
    for (i, k, v) in dependencies(space) {
        let sw = &space.params[k];
        if setting.get(&sw.name).unwrap_or(&sw.default) != &v {
            act[i] = false;
        }
    }
    if super::route::is_route(space) {
        super::route::unused_branches(space, setting, &mut act);
    }
    act
}

/// A setting's `(name, value)` pairs, in parameter order.
pub type Values = Vec<(String, Value)>;

/// A setting's values split into those that take part in its extraction and those that do not
/// (see [`activity`]), each in parameter order. Everything is active in a single family.
pub fn split_active(space: &ParamSpace, setting: &Setting) -> (Values, Values) {
    let act = activity(space, setting);
    let on = |n: &str| space.params.iter().position(|p| p.name == n).is_none_or(|i| act[i]);
    setting.values.iter().cloned().partition(|(n, _)| on(n))
}

/// The setting with every inactive parameter at its default: two settings that differ only in
/// inactive parameters have the same canonical form.
pub fn canonical(space: &ParamSpace, setting: &Setting) -> Setting {
    let act = activity(space, setting);
    let mut s = setting.clone();
    for (p, a) in space.params.iter().zip(act) {
        if !a && let Some(slot) = s.values.iter_mut().find(|(n, _)| *n == p.name) {
            slot.1 = p.default.clone();
        }
    }
    s
}

/// The active structure of a combination setting, readably:
/// `vote(v=1.6; accb(r=120, t=0.6)×1, lqf(t=0.3)×0.4)`, `serial(lqf(t=0.3) ▷ accb(r=40, t=0.75))`,
/// with the tuned parameters of each member that is on; then `+ smooth(min_run=…, max_gap=…)`
/// when smoothing is on (no `|`, so the label fits a Markdown table cell). `None` for a single family.
pub fn describe(space: &ParamSpace, setting: &Setting) -> Option<String> {
    if space.members.is_empty() {
        return None;
    }
    if super::route::is_route(space) {
        return Some(super::route::describe(space, setting, &describe));
    }
    let comb = cat_of(setting, "combinator").unwrap_or_else(|| "vote".into());
    let num = |n: &str| match setting.get(n) {
        Some(Value::Float(x)) => *x,
        Some(Value::Int(i)) => *i as f64,
        _ => 0.0,
    };
    let mut on: Vec<(f64, usize, String)> = Vec::new();
    for (k, m) in space.members.iter().enumerate() {
        let m = &m.name;
        if setting.get(&format!("{m}{SEP}on")) == Some(&Value::Bool(false)) {
            continue;
        }
        let own: Vec<String> = space
            .params
            .iter()
            .filter(|p| p.tune)
            .filter_map(|p| {
                let rest = p.name.strip_prefix(m.as_str())?.strip_prefix(SEP)?;
                (!PER_MEMBER.contains(&rest)).then(|| format!("{rest}={}", setting.get(&p.name).unwrap_or(&p.default)))
            })
            .collect();
        let mut text = format!("{m}({})", own.join(", "));
        if comb == "vote" {
            text += &format!("×{}", num(&format!("{m}{SEP}weight")));
            if setting.get(&format!("{m}{SEP}soft")) == Some(&Value::Bool(true)) {
                text += " soft";
            }
            if setting.get(&format!("{m}{SEP}abstain")) == Some(&Value::Bool(true)) {
                text += " abstains";
            }
        }
        on.push((num(&format!("{m}{SEP}order")), k, text));
    }
    if comb == "serial" || comb == "fallback" {
        on.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }
    let parts: Vec<String> = on.into_iter().map(|(_, _, t)| t).collect();
    let mut out = match comb.as_str() {
        "vote" => format!("vote(v={}; {})", num("v"), parts.join(", ")),
        "serial" => format!("serial({})", parts.join(" ▷ ")),
        "fallback" => format!("fallback({})", parts.join(" else ")),
        other => format!("{other}({})", parts.join(", ")),
    };
    let (run, gap) = (num("min_run"), num("max_gap"));
    if run > 0.0 || gap > 0.0 {
        out += &format!(" + smooth(min_run={run}, max_gap={gap})");
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn parse(text: &str) -> Result<crate::params::ParamsFile> {
        crate::params::parse_str(text, Path::new("c.yaml"), &crate::extract::space)
    }

    const PAIR: &str = "extractor: pair\nmembers: [accb, lqf]\nparameters:\n  - {name: v, type: float, min: 0, max: 2, step: 0.05, default: 1}\n  - {name: accb.on, type: bool, default: true}\n  - {name: accb.r, type: int, min: 5, max: 300, default: 40}\n  - {name: lqf.t, type: float, min: 0.05, max: 1, step: 0.01, default: 0.25}\n";

    #[test]
    fn a_combination_is_completed_with_its_members_parameters() {
        let f = parse(PAIR).unwrap();
        let s = &f.space;
        assert_eq!(s.member_names(), ["accb", "lqf"]);
        let tuned: Vec<&str> = s.params.iter().filter(|p| p.tune).map(|p| p.name.as_str()).collect();
        assert_eq!(tuned, ["v", "accb.on", "accb.r", "lqf.t"]);
        // Undeclared member parameters are fixed at the member's defaults.
        assert_eq!(s.param("accb.t").map(|p| (p.tune, p.default.clone())), Some((false, Value::Float(0.75))));
        assert_eq!(s.param("lqf.href_only").map(|p| p.tune), Some(false));
        assert_eq!(s.param("combinator").unwrap().default, Value::Cat("vote".into()));
        assert_eq!(s.param("lqf.order").unwrap().default, Value::Int(1));
    }

    #[test]
    fn bad_combinations_are_rejected_with_file_and_line() {
        let msg = |t: String| parse(&t).unwrap_err().to_string();
        assert_eq!(
            msg(PAIR.replace("[accb, lqf]", "[accb, nope]")),
            format!(
                "c.yaml:2: unknown member 'nope': unknown extractor 'nope' (known: {})",
                crate::extract::names().join(", ")
            )
        );
        assert!(
            msg(PAIR.replace("[accb, lqf]", "[accb, lqf, accb]"))
                .starts_with("c.yaml:2: member 'accb' is listed twice")
        );
        assert!(msg(PAIR.replace("[accb, lqf]", "[]")).starts_with("c.yaml:2: 'members' is empty"));
        let e = msg(PAIR.replace("name: lqf.t", "name: tccb.t"));
        assert!(e.starts_with("c.yaml:7: parameter 'tccb.t': 'tccb' is not a member (members: accb, lqf)"), "{e}");
        let e = msg(PAIR.replace("name: accb.r", "name: accb.q"));
        assert!(e.starts_with("c.yaml:6: parameter 'accb.q': extractor 'accb' has no parameter 'q'"), "{e}");
        let e = msg(PAIR.replace("max: 2, step", "max: 2.5, step"));
        assert!(e.starts_with("c.yaml:4: parameter 'v': the vote threshold must lie in [0, 2]"), "{e}");
        let e = msg(PAIR.replace("max: 300, default: 40", "max: 900, default: 40"));
        assert!(e.starts_with("c.yaml:6: parameter 'accb.r': its type and range must lie within"), "{e}");
        let e = msg(PAIR.replace("name: v,", "name: w,"));
        assert!(e.starts_with("c.yaml:4: parameter 'w': not a structure parameter"), "{e}");
    }

    #[test]
    fn inactive_parameters_are_canonicalised_and_the_structure_is_readable() {
        let f = parse(PAIR).unwrap();
        let s = &f.space;
        let on = s.with_assignments(&s.defaults(), &["accb.r=120".into(), "lqf.t=0.3".into(), "v=1.5".into()]).unwrap();
        assert_eq!(describe(s, &on).unwrap(), "vote(v=1.5; accb(r=120)×1, lqf(t=0.3)×1)");
        let off = s.with_assignments(&on, &["accb.on=false".into()]).unwrap();
        let off2 = s.with_assignments(&off, &["accb.r=200".into()]).unwrap();
        assert_ne!(off, off2);
        assert_eq!(canonical(s, &off), canonical(s, &off2));
        assert_eq!(describe(s, &off2).unwrap(), "vote(v=1.5; lqf(t=0.3)×1)");
        let act = activity(s, &off);
        let idx = |n: &str| s.params.iter().position(|p| p.name == n).unwrap();
        assert!(!act[idx("accb.r")] && act[idx("accb.on")] && act[idx("lqf.t")] && act[idx("v")]);
        let serial = s.with_assignments(&on, &["combinator=serial".into()]).unwrap();
        assert!(!activity(s, &serial)[idx("v")]);
        assert_eq!(describe(s, &serial).unwrap(), "serial(accb(r=120) ▷ lqf(t=0.3))");
    }
}
