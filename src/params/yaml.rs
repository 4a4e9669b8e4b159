//! Loading and validating parameter description files (`params/<extractor>.yaml`).
//!
//! Schema (documented in docs/params.md):
//! ```yaml
//! extractor: accb            # registry name
//! description: "..."
//! parameters:                # optional in a settings file: then the built-in description is used
//!   - {name: r, type: int, min: 5, max: 300, default: 40, meaning: "blur range"}
//!   - {name: t, type: float, min: 0.05, max: 0.99, step: 0.01, default: 0.75, meaning: "..."}
//!   - {name: kernel, type: categorical, choices: [gaussian, box], default: gaussian, tune: false, meaning: "..."}
//! correlated: [[r, t]]       # blended on recombination
//! known_good:
//!   - {label: "Gottron 2009", values: {r: 40, t: 0.75}}
//! values: {r: 38}            # optional: the setting this file stands for (best.yaml)
//! inactive: {v: 1.5}         # optional: values of parameters the setting does not use (best.yaml)
//! ```

use super::located::{At, AtFn, Builtin};
use super::space::{KnownGood, ParamSpace, ParamSpec, Spec};
use super::value::{Setting, Value};
use crate::error::{Error, Result};
use serde::Deserialize;
use std::path::Path;

/// A loaded parameter file: the space, and the setting it names (its `values`, over defaults).
#[derive(Debug, Clone)]
pub struct ParamsFile {
    /// The parameter space (from the file, or the built-in one when the file has no `parameters`).
    pub space: ParamSpace,
    /// Defaults overridden by the file's `values`.
    pub setting: Setting,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    extractor: At<String>,
    #[serde(default)]
    description: String,
    parameters: Option<Vec<RawParam>>,
    correlated: Option<At<Vec<Vec<At<String>>>>>,
    known_good: Option<At<Vec<RawKnown>>>,
    values: Option<Entries>,
    /// Values of parameters that take no part in the setting (`best.yaml` of a combination: a
    /// switched-off member's, `v` outside a vote); read as `values` are, so the file loads back
    /// as the run's individual exactly.
    inactive: Option<Entries>,
    /// A combination's member families (`params/combine.yaml`).
    members: Option<At<Vec<At<String>>>>,
    /// A route's branches (`params/route.yaml`): `alias=extractor` or `extractor`.
    branches: Option<At<Vec<At<String>>>>,
    /// A route's number of rules.
    rules: Option<At<i64>>,
    /// A fitted model the setting applies (a family fitted on gold): a file beside this one.
    model: Option<At<String>>,
    /// An external extractor's worker command (`extractor: external`).
    command: Option<At<String>>,
    /// An external extractor's per-page budget, seconds.
    timeout: Option<At<f64>>,
    /// An external extractor's handshake budget, seconds.
    startup: Option<At<f64>>,
    /// The default search (`optimise` without search flags).
    search: Option<At<RawSearch>>,
    #[allow(dead_code)]
    about: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSearch {
    strategy: Option<String>,
    population: Option<At<i64>>,
    max_generations: Option<At<i64>>,
    patience: Option<At<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParam {
    name: At<String>,
    #[serde(rename = "type")]
    kind: At<String>,
    min: Option<At<f64>>,
    max: Option<At<f64>>,
    step: Option<At<f64>>,
    choices: Option<At<Vec<String>>>,
    default: At<Scalar>,
    #[serde(default)]
    meaning: String,
    tune: Option<bool>,
    /// The range the extractor can run with (its family's YAML only).
    sane: Option<At<Vec<f64>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKnown {
    label: String,
    values: Entries,
}

/// A scalar YAML value (`None` for a sequence, mapping or null).
struct Scalar(Option<Value>);

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number, string or boolean")
            }
            fn visit_bool<E>(self, b: bool) -> std::result::Result<Scalar, E> {
                Ok(Scalar(Some(Value::Bool(b))))
            }
            fn visit_i64<E>(self, i: i64) -> std::result::Result<Scalar, E> {
                Ok(Scalar(Some(Value::Int(i))))
            }
            fn visit_u64<E>(self, u: u64) -> std::result::Result<Scalar, E> {
                Ok(Scalar(Some(i64::try_from(u).map_or(Value::Float(u as f64), Value::Int))))
            }
            fn visit_i128<E>(self, i: i128) -> std::result::Result<Scalar, E> {
                Ok(Scalar(Some(i64::try_from(i).map_or(Value::Float(i as f64), Value::Int))))
            }
            fn visit_u128<E>(self, u: u128) -> std::result::Result<Scalar, E> {
                Ok(Scalar(Some(i64::try_from(u).map_or(Value::Float(u as f64), Value::Int))))
            }
            fn visit_f64<E>(self, x: f64) -> std::result::Result<Scalar, E> {
                Ok(Scalar(Some(Value::Float(x))))
            }
            fn visit_str<E>(self, s: &str) -> std::result::Result<Scalar, E> {
                Ok(Scalar(Some(Value::Cat(s.to_string()))))
            }
            fn visit_unit<E>(self) -> std::result::Result<Scalar, E> {
                Ok(Scalar(None))
            }
            fn visit_none<E>(self) -> std::result::Result<Scalar, E> {
                Ok(Scalar(None))
            }
            fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> std::result::Result<Scalar, D::Error> {
                d.deserialize_any(V)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> std::result::Result<Scalar, A::Error> {
                while a.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Scalar(None))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> std::result::Result<Scalar, A::Error> {
                while a.next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?.is_some() {}
                Ok(Scalar(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// A `name: value` mapping in file order, each name with its place in the file.
struct Entries(Vec<(At<String>, At<Scalar>)>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Entries;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a mapping of parameter names to values")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> std::result::Result<Entries, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = a.next_entry()? {
                    out.push(entry);
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// Reads and validates a parameter file.
pub fn load_file(path: &Path, builtin: &Builtin) -> Result<ParamsFile> {
    parse_str(&read_file(path)?, path, builtin)
}

/// The text of a parameter file, read through the bounded reader (a regular file of at most
/// [`crate::yaml::MAX_BYTES`]).
pub fn read_file(path: &Path) -> Result<String> {
    crate::paths::read_capped_text(path, crate::yaml::MAX_BYTES as u64, "parameter file")
}

/// The text of a fitted model file a settings file names (`model:`), read through the bounded
/// reader like the settings file itself.
pub fn read_model_file(path: &Path) -> Result<String> {
    crate::paths::read_capped_text(path, crate::yaml::MAX_BYTES as u64, "model file")
}

/// Bounds of int and float parameters must lie within ±this: integers stay exact as `f64`
/// genes, and no range, mutation step or BLX interval can overflow.
const MAX_BOUND: f64 = 1e15;

/// The smallest `step` accepted: the declared precision is rounded in decimal to at most 9 places.
const MIN_STEP: f64 = 1e-9;

/// Parses and validates the text of a parameter file; `path` names it in errors.
pub fn parse_str(text: &str, path: &Path, builtin: &Builtin) -> Result<ParamsFile> {
    let at = |loc: serde_saphyr::Location, msg: String| {
        let e = Error::config(msg).with_path(path);
        if loc.line() > 0 { e.with_line(loc.line() as usize, None) } else { e }
    };
    let mut raw: RawFile =
        crate::yaml::from_str(text, path, |m| Error::config(format!("malformed parameter file: {m}")))?;
    if let Some(inactive) = raw.inactive.take() {
        let values = raw.values.get_or_insert(Entries(Vec::new()));
        for (k, v) in inactive.0 {
            if values.0.iter().any(|(n, _)| n.value == k.value) {
                return Err(at(k.referenced, format!("inactive: parameter '{}' is also under 'values'", k.value)));
            }
            values.0.push((k, v));
        }
    }
    let model = raw.model.take();
    let search = raw.search.take();
    let mut file = parse_raw(raw, builtin, &at, path)?;
    if let Some(block) = search {
        let count = |v: Option<At<i64>>, name: &str, least: i64| match v {
            None => Ok(None),
            Some(n) if n.value >= least && n.value <= 1_000_000 => Ok(Some(n.value as usize)),
            Some(n) => {
                Err(at(n.referenced, format!("search: '{name}' must lie in {least}..=1000000, got {}", n.value)))
            }
        };
        let raw = block.value;
        file.space.search = Some(super::Search {
            strategy: raw.strategy,
            population: count(raw.population, "population", 1)?,
            max_generations: count(raw.max_generations, "max_generations", 1)?,
            patience: count(raw.patience, "patience", 0)?,
            at: format!("{}:{}", path.display(), block.referenced.line()),
        });
    }
    if let Some(m) = model {
        if m.value.trim().is_empty() {
            return Err(at(m.referenced, "'model' must name a file".into()));
        }
        let dir = path.parent().unwrap_or(Path::new(""));
        file.setting.model = Some(dir.join(&m.value));
    }
    Ok(file)
}

/// [`parse_str`] after reading the YAML: the space and the setting of the file's keys.
fn parse_raw(raw: RawFile, builtin: &Builtin, at: &AtFn, path: &Path) -> Result<ParamsFile> {
    let none = serde_saphyr::Location::UNKNOWN;
    let known = raw.known_good.map_or((none, Vec::new()), |k| (k.referenced, k.value));
    let correlated = raw.correlated.map_or((none, Vec::new()), |c| (c.referenced, c.value));
    if let Some(branches) = raw.branches {
        if let Some(m) = raw.members {
            return Err(at(
                m.referenced,
                "a file has 'members' (a combination) or 'branches' (a route), not both".into(),
            ));
        }
        let rules = match raw.rules {
            None => super::route::DEFAULT_RULES,
            Some(r) if (0..=16).contains(&r.value) => r.value as usize,
            Some(r) => return Err(at(r.referenced, format!("'rules' must lie in 0..=16, got {}", r.value))),
        };
        let ps = raw.parameters.unwrap_or_default();
        let names: Vec<(String, serde_saphyr::Location)> =
            ps.iter().map(|p| (p.name.value.clone(), p.name.referenced)).collect();
        let mut space = build_space(&raw.extractor.value, raw.description, ps, correlated.1, Vec::new(), &at)?;
        // A branch may name a settings file, read relative to this file's folder.
        let dir = path.parent().unwrap_or(Path::new(""));
        let read = |p: &Path| read_file(p).and_then(|t| parse_str(&t, p, builtin)).map(|f| (f.space, f.setting));
        let branches = super::route::Branches { entries: &branches.value, at: branches.referenced, dir, read: &read };
        super::route::complete(&mut space, &branches, rules, &names, builtin, &at)?;
        for k in known.1 {
            let setting = mapping_setting(&space, &k.values, &format!("known_good '{}'", k.label), &at)?;
            space.known_good.push(KnownGood { label: k.label, setting });
        }
        let setting = match &raw.values {
            Some(v) => mapping_setting(&space, v, "values", &at)?,
            None => space.defaults(),
        };
        return Ok(ParamsFile { space, setting });
    }
    if let Some(r) = raw.rules {
        return Err(at(r.referenced, "'rules' belongs to a route (a file with 'branches')".into()));
    }
    let keys = super::external::Keys { command: raw.command, timeout: raw.timeout, startup: raw.startup };
    // An external extractor has no built-in description: its parameters are the file's (none
    // when its worker takes none).
    let parameters = match raw.parameters {
        None if raw.extractor.value == super::external::NAME && raw.members.is_none() => Some(Vec::new()),
        ps => ps,
    };
    let space = match (parameters, raw.members) {
        (ps, Some(members)) => {
            super::external::refuse(&keys, true, &at)?;
            let ps = ps.unwrap_or_default();
            let names: Vec<(String, serde_saphyr::Location)> =
                ps.iter().map(|p| (p.name.value.clone(), p.name.referenced)).collect();
            let mut space = build_space(&raw.extractor.value, raw.description, ps, correlated.1, Vec::new(), &at)?;
            let members = super::combine::Located { at: members.referenced, names: members.value };
            super::combine::complete(&mut space, &members, &names, builtin, &at)?;
            for k in known.1 {
                let setting = mapping_setting(&space, &k.values, &format!("known_good '{}'", k.label), &at)?;
                space.known_good.push(KnownGood { label: k.label, setting });
            }
            space
        }
        (Some(ps), None) => {
            let mut space = build_space(&raw.extractor.value, raw.description, ps, correlated.1, Vec::new(), &at)?;
            super::external::complete(&mut space, keys, &at)?;
            for k in known.1 {
                let setting = mapping_setting(&space, &k.values, &format!("known_good '{}'", k.label), &at)?;
                space.known_good.push(KnownGood { label: k.label, setting });
            }
            space
        }
        (None, None) => {
            super::external::refuse(&keys, false, &at)?;
            if !known.1.is_empty() || !correlated.1.is_empty() {
                let loc = if known.1.is_empty() { correlated.0 } else { known.0 };
                return Err(at(loc, "'known_good' and 'correlated' need 'parameters'".into()));
            }
            builtin(&raw.extractor.value).map_err(|e| at(raw.extractor.referenced, e.message))?
        }
    };
    let mut setting = space.defaults();
    if let Some(values) = &raw.values {
        setting = mapping_setting(&space, values, "values", &at)?;
    }
    Ok(ParamsFile { space, setting })
}

fn mapping_setting(space: &ParamSpace, values: &Entries, what: &str, at: &AtFn) -> Result<Setting> {
    let mut s = space.defaults();
    for (k, v) in &values.0 {
        let name = k.value.as_str();
        let spec =
            space.param(name).ok_or_else(|| at(k.referenced, format!("{what}: {}", space.unknown(name).message)))?;
        let value = v
            .value
            .0
            .clone()
            .ok_or_else(|| at(v.referenced, format!("{what}: parameter '{name}' must be a scalar")))?;
        let value = spec.spec.check(&value).map_err(|e| at(v.referenced, format!("{what}: parameter '{name}' {e}")))?;
        if let Some(slot) = s.values.iter_mut().find(|(n, _)| n == name) {
            slot.1 = value;
        }
    }
    Ok(s)
}

/// Checks a `sane: [lo, hi]` range: two numbers, `lo <= hi`.
fn sane_range(s: &At<Vec<f64>>, err: &AtFn) -> Result<[f64; 2]> {
    match s.value.as_slice() {
        // Whether a description's range lies within it is checked against the family's own
        // YAML when a description is loaded (a copy could widen its `sane`).
        [lo, hi] if lo <= hi => Ok([*lo, *hi]),
        _ => Err(err(s.referenced, "'sane' must be [lo, hi] with lo <= hi".into())),
    }
}

/// A number for a message: plain, or in exponent form when very large or small.
fn num(x: f64) -> String {
    if x != 0.0 && (x.abs() >= 1e6 || x.abs() < 1e-4) { format!("{x:e}") } else { format!("{x}") }
}

/// Checks the `min`, `max` and `step` of an int or float parameter; errors point at the key.
fn numeric_spec(p: &RawParam, err: &dyn Fn(serde_saphyr::Location, String) -> Error) -> Result<Spec> {
    let kind = p.kind.value.as_str();
    let (min, max) = match (&p.min, &p.max) {
        (Some(a), Some(b)) => (a, b),
        _ => return Err(err(p.kind.referenced, format!("a {kind} parameter needs 'min' and 'max'"))),
    };
    for (key, b) in [("min", min), ("max", max)] {
        if b.value.is_nan() || b.value.abs() > MAX_BOUND {
            return Err(err(
                b.referenced,
                format!("'{key}' must be a number within ±{MAX_BOUND:e}, got {}", num(b.value)),
            ));
        }
    }
    if min.value > max.value {
        let msg = format!("`min <= max` must hold, but got min={}, max={}", min.value, max.value);
        return Err(err(min.referenced, msg));
    }
    if kind == "int" {
        if min.value.fract() != 0.0 || max.value.fract() != 0.0 {
            let msg = format!("an int parameter needs whole bounds, got min={}, max={}", min.value, max.value);
            return Err(err(min.referenced, msg));
        }
        if let Some(s) = &p.step {
            let msg = "'step' is for float parameters; an int parameter takes every whole value in [min, max]";
            return Err(err(s.referenced, msg.into()));
        }
        return Ok(Spec::Int { min: min.value as i64, max: max.value as i64 });
    }
    if let Some(s) = &p.step
        && !(s.value >= MIN_STEP && s.value.is_finite())
    {
        let msg = if s.value > 0.0 && s.value.is_finite() {
            format!("'step' must be at least {MIN_STEP:e} (the finest precision supported), got {}", num(s.value))
        } else {
            format!("'step' must be > 0, got {}", s.value)
        };
        return Err(err(s.referenced, msg));
    }
    Ok(Spec::Float { min: min.value, max: max.value, step: p.step.as_ref().map(|s| s.value) })
}

fn build_space(
    extractor: &str,
    description: String,
    raw: Vec<RawParam>,
    correlated: Vec<Vec<At<String>>>,
    known: Vec<RawKnown>,
    at: &AtFn,
) -> Result<ParamSpace> {
    let mut params: Vec<ParamSpec> = Vec::new();
    for p in raw {
        let name = p.name.value.clone();
        let err = |loc: serde_saphyr::Location, msg: String| at(loc, format!("parameter '{name}': {msg}"));
        if params.iter().any(|q| q.name == name) {
            return Err(err(p.name.referenced, "declared twice".into()));
        }
        let spec = match p.kind.value.as_str() {
            "float" | "int" => numeric_spec(&p, &err)?,
            "categorical" => match &p.choices {
                Some(c) if !c.value.is_empty() => {
                    let mut seen = std::collections::HashSet::new();
                    if let Some(twice) = c.value.iter().find(|x| !seen.insert(x.as_str())) {
                        return Err(err(c.referenced, format!("choice '{twice}' is listed twice in 'choices'")));
                    }
                    Spec::Categorical { choices: c.value.clone() }
                }
                Some(c) => {
                    return Err(err(c.referenced, "a categorical parameter needs a non-empty 'choices' list".into()));
                }
                None => {
                    return Err(err(
                        p.kind.referenced,
                        "a categorical parameter needs a non-empty 'choices' list".into(),
                    ));
                }
            },
            "bool" => Spec::Bool,
            other => {
                let msg = format!("unknown type '{other}' (expected float, int, categorical or bool)");
                return Err(err(p.kind.referenced, msg));
            }
        };
        let default =
            p.default.value.0.clone().ok_or_else(|| err(p.default.referenced, "'default' must be a scalar".into()))?;
        let default = spec.check(&default).map_err(|e| err(p.default.referenced, format!("default {e}")))?;
        let sane = match (&p.sane, &spec) {
            (None, _) => None,
            (Some(s), Spec::Int { .. } | Spec::Float { .. }) => Some(sane_range(s, &err)?),
            (Some(s), _) => return Err(err(s.referenced, "'sane' is for int and float parameters".into())),
        };
        params.push(ParamSpec { name, spec, default, meaning: p.meaning, tune: p.tune.unwrap_or(true), sane });
    }
    let mut space = ParamSpace {
        extractor: extractor.to_string(),
        kind: super::value::Kind::Family,
        description,
        params,
        correlated: Vec::new(),
        known_good: Vec::new(),
        members: Vec::new(),
        search: None,
    };
    let mut seen: Vec<&str> = Vec::new();
    for group in &correlated {
        for n in group {
            // A parameter is in one group, once: the search would otherwise move it twice.
            if seen.contains(&n.value.as_str()) {
                return Err(at(
                    n.referenced,
                    format!("correlated: parameter '{}' is listed twice (it may be in one group, once)", n.value),
                ));
            }
            seen.push(&n.value);
            match space.param(&n.value) {
                None => {
                    return Err(at(n.referenced, format!("correlated: {}", space.unknown(&n.value).message)));
                }
                Some(p) if !matches!(p.spec, Spec::Float { .. } | Spec::Int { .. }) => {
                    return Err(at(n.referenced, format!("correlated: parameter '{}' is not numeric", n.value)));
                }
                _ => {}
            }
        }
    }
    space.correlated = correlated.into_iter().map(|g| g.into_iter().map(|n| n.value).collect()).collect();
    for k in known {
        let setting = mapping_setting(&space, &k.values, &format!("known_good '{}'", k.label), at)?;
        space.known_good.push(KnownGood { label: k.label, setting });
    }
    Ok(space)
}

/// Where a setting in a settings file comes from (`best.yaml`'s `about`): informative only,
/// ignored when the file is read.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct About {
    /// Fitness on the run's gold set.
    pub fitness: f64,
    /// Mean precision there.
    pub precision: f64,
    /// Mean recall there.
    pub recall: f64,
    /// The run's objective.
    pub objective: String,
    /// The run's gold set.
    pub goldset: String,
    /// The run folder.
    pub run: String,
    /// A combination's active structure, readably (`vote(v=1.6; accb(r=120)×1, …)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structure: Option<String>,
}

/// The text of a settings file for `setting` (`extractor`, `values` in parameter order, and
/// optionally `about`): the format [`parse_str`] reads back, written here beside its reader.
/// With `description`, the file also carries the space it was drawn from (`description`,
/// `members`, every parameter with its range, `correlated`): a combination that is not
/// compiled in has no built-in space to read a values-only file against, so its `best.yaml`
/// carries its own and loads back anywhere.
///
/// With `split` (the space the setting belongs to), the parameters inactive in the setting (see
/// [`super::combine::activity`]) are written apart, under `inactive`, which is read back as
/// `values` is.
pub fn settings_file(
    setting: &Setting,
    about: Option<&About>,
    description: Option<&ParamSpace>,
    split: Option<&ParamSpace>,
) -> Result<String> {
    #[derive(serde::Serialize)]
    struct File<'a> {
        extractor: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        members: Option<Vec<String>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        branches: Option<Vec<String>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        rules: Option<usize>,
        #[serde(skip_serializing_if = "Option::is_none")]
        parameters: Option<Vec<Param<'a>>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        correlated: Option<&'a [Vec<String>]>,
        values: Values<'a>,
        #[serde(skip_serializing_if = "Option::is_none")]
        model: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        inactive: Option<Values<'a>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        about: Option<&'a About>,
    }
    #[derive(serde::Serialize)]
    struct Param<'a> {
        name: &'a str,
        #[serde(rename = "type")]
        kind: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        min: Option<Scalar1<'a>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        max: Option<Scalar1<'a>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        step: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        sane: Option<[f64; 2]>,
        #[serde(skip_serializing_if = "Option::is_none")]
        choices: Option<&'a [String]>,
        default: Scalar1<'a>,
        #[serde(skip_serializing_if = "str::is_empty")]
        meaning: &'a str,
        tune: bool,
    }
    enum Scalar1<'a> {
        Int(i64),
        Float(f64),
        Of(&'a Value),
    }
    impl serde::Serialize for Scalar1<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            match self {
                Scalar1::Int(i) | Scalar1::Of(Value::Int(i)) => s.serialize_i64(*i),
                Scalar1::Float(x) | Scalar1::Of(Value::Float(x)) => s.serialize_f64(*x),
                Scalar1::Of(Value::Bool(b)) => s.serialize_bool(*b),
                Scalar1::Of(Value::Cat(c)) => s.serialize_str(c),
            }
        }
    }
    struct Values<'a>(&'a [(String, Value)]);
    impl serde::Serialize for Values<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut m = s.serialize_map(Some(self.0.len()))?;
            for (k, v) in self.0 {
                m.serialize_entry(k, &Scalar1::Of(v))?;
            }
            m.end()
        }
    }
    fn param(p: &ParamSpec) -> Param<'_> {
        let (kind, min, max, step, choices) = match &p.spec {
            Spec::Float { min, max, step } => {
                ("float", Some(Scalar1::Float(*min)), Some(Scalar1::Float(*max)), *step, None)
            }
            Spec::Int { min, max } => ("int", Some(Scalar1::Int(*min)), Some(Scalar1::Int(*max)), None, None),
            Spec::Categorical { choices } => ("categorical", None, None, None, Some(choices.as_slice())),
            Spec::Bool => ("bool", None, None, None, None),
        };
        Param {
            name: &p.name,
            kind,
            min,
            max,
            step,
            sane: p.sane,
            choices,
            default: Scalar1::Of(&p.default),
            meaning: &p.meaning,
            tune: p.tune,
        }
    }
    let d = description;
    // A combination's parameters that take no part in the setting go under `inactive`, apart.
    let (active, inactive): (super::combine::Values, super::combine::Values) = match split {
        Some(space) => super::combine::split_active(space, setting),
        None => (setting.values.clone(), Vec::new()),
    };
    crate::yaml::to_string(&File {
        extractor: &setting.extractor,
        description: d.map(|d| d.description.as_str()),
        members: d.filter(|d| !d.members.is_empty() && !super::route::is_route(d)).map(ParamSpace::member_names),
        branches: d.filter(|d| super::route::is_route(d)).map(super::route::branch_entries),
        rules: d.filter(|d| super::route::is_route(d)).map(super::route::rules),
        parameters: d.map(|d| d.params.iter().map(param).collect()),
        correlated: d.filter(|d| !d.correlated.is_empty()).map(|d| d.correlated.as_slice()),
        values: Values(&active),
        inactive: (!inactive.is_empty()).then_some(Values(&inactive)),
        model: setting.model.as_ref().map(|m| m.display().to_string()),
        about,
    })
}

/// The text of a route description as a run records it (`run.yaml`): `text` itself, or, when a
/// branch names a settings file (read relative to the description's folder, which the run folder
/// is not), the description with every branch written out (`settings_file`'s form, its own
/// known-good individuals kept), so that the run loads anywhere.
pub fn self_contained(text: &str, path: &std::path::Path, space: &ParamSpace) -> Result<String> {
    #[derive(serde::Deserialize)]
    struct Branches {
        branches: Option<Vec<String>>,
    }
    let b: Branches = crate::yaml::from_str(text, path, crate::error::Error::config)?;
    if !b.branches.unwrap_or_default().iter().any(|e| super::route::is_settings_file(&super::route::split_branch(e).1))
    {
        return Ok(text.to_string());
    }
    struct V<'a>(&'a Value);
    impl serde::Serialize for V<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            match self.0 {
                Value::Float(x) => s.serialize_f64(*x),
                Value::Int(x) => s.serialize_i64(*x),
                Value::Bool(x) => s.serialize_bool(*x),
                Value::Cat(x) => s.serialize_str(x),
            }
        }
    }
    #[derive(serde::Serialize)]
    struct Known<'a> {
        label: &'a str,
        values: std::collections::BTreeMap<&'a str, V<'a>>,
    }
    #[derive(serde::Serialize)]
    struct File<'a> {
        known_good: Vec<Known<'a>>,
    }
    let defaults = space.defaults();
    // The branches' own known-good individuals are added again when the text is read.
    let own = |label: &str| space.members.iter().any(|a| label.starts_with(&format!("{}: ", a.name)));
    let known_good = space
        .known_good
        .iter()
        .filter(|k| !own(&k.label))
        .map(|k| Known {
            label: &k.label,
            values: k
                .setting
                .values
                .iter()
                .filter(|(n, v)| defaults.get(n) != Some(v))
                .map(|(n, v)| (n.as_str(), V(v)))
                .collect(),
        })
        .collect::<Vec<_>>();
    let mut out = settings_file(&defaults, None, Some(space), None)?;
    if !known_good.is_empty() {
        out.push_str(&crate::yaml::to_string(&File { known_good })?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ParamsFile> {
        parse_str(text, Path::new("p.yaml"), &crate::extract::space)
    }

    const GOOD: &str = "extractor: lqf\nparameters:\n  - name: t\n    type: float\n    min: 0.05\n    max: 1.0\n    step: 0.01\n    default: 0.25\n  - name: min_chars\n    type: int\n    min: 0\n    max: 200\n    default: 0\n  - name: href_only\n    type: bool\n    default: true\n    tune: false\nknown_good:\n  - {label: paper, values: {t: 0.25}}\n";

    #[test]
    fn good_file_loads() {
        let f = parse(GOOD).unwrap();
        assert_eq!(f.space.params.len(), 3);
        assert_eq!(f.space.genes(), vec![0, 1]);
        assert_eq!(f.space.known_good[0].setting.get("t"), Some(&Value::Float(0.25)));
    }

    #[test]
    fn min_above_max_names_file_line_and_parameter() {
        let e = parse(&GOOD.replace("min: 0.05", "min: 1.5")).unwrap_err();
        assert_eq!(e.to_string(), "p.yaml:5: parameter 't': `min <= max` must hold, but got min=1.5, max=1");
    }

    #[test]
    fn default_out_of_range() {
        let e = parse(&GOOD.replace("default: 0.25", "default: 2.5")).unwrap_err();
        assert!(e.to_string().contains("parameter 't': default must lie in [0.05, 1], got 2.5"), "{e}");
    }

    #[test]
    fn known_good_out_of_range_or_unknown() {
        let e = parse(&GOOD.replace("values: {t: 0.25}", "values: {t: 3}")).unwrap_err();
        assert!(e.message.contains("known_good 'paper': parameter 't' must lie in"), "{e}");
        let e = parse(&GOOD.replace("values: {t: 0.25}", "values: {tt: 0.3}")).unwrap_err();
        assert!(e.message.contains("has no parameter 'tt'"), "{e}");
    }

    #[test]
    fn malformed_yaml_reports_line_and_column() {
        let e = parse("extractor: lqf\nparameters: [\n  - name: t\n").unwrap_err();
        assert!(e.line.is_some() && e.column.is_some(), "{e}");
        assert!(e.to_string().starts_with("p.yaml:"), "{e}");
    }

    #[test]
    fn unknown_key_and_type_are_rejected() {
        let e = parse(&GOOD.replace("step: 0.01", "stepp: 0.01")).unwrap_err();
        assert!(e.message.contains("stepp"), "{e}");
        let e = parse(&GOOD.replace("type: bool", "type: boolean")).unwrap_err();
        assert!(e.message.contains("unknown type 'boolean'"), "{e}");
    }

    #[test]
    fn values_only_file_uses_builtin_space() {
        let f = parse("extractor: accb\nvalues: {r: 38, t: 0.8}\n").unwrap();
        assert_eq!(f.setting.get("r"), Some(&Value::Int(38)));
        let e = parse("extractor: nope\nvalues: {r: 38}\n").unwrap_err();
        assert!(e.message.contains("unknown extractor 'nope'"), "{e}");
    }

    #[test]
    fn errors_name_the_line_of_the_offending_key() {
        // GOOD: line 3 `- name: t`, 5 `min`, 7 `step`, 8 `default`, 19 the known-good individual.
        let line = |text: &str| parse(text).unwrap_err().line;
        assert_eq!(line(&GOOD.replace("default: 0.25", "default: 2.5")), Some(8));
        assert_eq!(line(&GOOD.replace("step: 0.01", "step: -1")), Some(7));
        assert_eq!(line(&GOOD.replace("values: {t: 0.25}", "values: {t: 3}")), Some(19));
        assert_eq!(line(&GOOD.replace("values: {t: 0.25}", "values: {tt: 0.3}")), Some(19));
        assert_eq!(line(&GOOD.replace("type: bool", "type: boolean")), Some(15));
        assert_eq!(line(&GOOD.replace("name: min_chars", "name: t")), Some(9));
        // `name: t` also occurs in the description: the old text search named line 2.
        let text = GOOD.replacen("\n", "\ndescription: \"name: t\"\n", 1).replace("default: 0.25", "default: 7");
        let e = parse(&text).unwrap_err();
        assert_eq!(e.to_string(), "p.yaml:9: parameter 't': default must lie in [0.05, 1], got 7");
        let e = parse("extractor: accb\nvalues:\n  t: 0.5\n  r: 1000\n").unwrap_err();
        assert_eq!(e.to_string(), "p.yaml:4: values: parameter 'r' must lie in [5, 300], got 1000");
    }

    #[test]
    fn bad_ranges_and_steps_are_errors_not_panics() {
        let msg = |text: String| parse(&text).unwrap_err().to_string();
        let nan = msg(GOOD.replace("min: 0.05", "min: .nan"));
        assert_eq!(nan, "p.yaml:5: parameter 't': 'min' must be a number within ±1e15, got NaN");
        let huge = msg(GOOD.replace("min: 0.05", "min: -1e308").replace("max: 1.0", "max: 1e308"));
        assert!(huge.contains("'min' must be a number within ±1e15, got -1e308"), "{huge}");
        assert!(msg(GOOD.replace("max: 1.0", "max: .inf")).contains("'max' must be a number within"));
        let tiny = msg(GOOD.replace("step: 0.01", "step: 1e-12"));
        assert!(tiny.contains("'step' must be at least 1e-9 (the finest precision supported), got 1e-12"), "{tiny}");
        assert!(msg(GOOD.replace("step: 0.01", "step: .nan")).contains("'step' must be > 0, got NaN"));
        let int_step = msg(GOOD.replace("max: 200\n", "max: 200\n    step: 5\n"));
        assert!(int_step.starts_with("p.yaml:13: parameter 'min_chars': 'step' is for float parameters"), "{int_step}");
        let big_int = msg(GOOD.replace("max: 200", "max: 1e300"));
        assert!(big_int.contains("'max' must be a number within ±1e15"), "{big_int}");
        let nan_default = msg(GOOD.replace("default: 0.25", "default: .nan"));
        assert!(nan_default.starts_with("p.yaml:8:"), "{nan_default}");
    }

    #[test]
    fn deeply_nested_or_huge_files_are_rejected_quickly() {
        let text = format!("extractor: lqf\nabout: {}\n", "[ ".repeat(100_000));
        let e = parse(&text).unwrap_err();
        assert!(e.to_string().starts_with("p.yaml:2:"), "{e}");
        assert!(e.message.contains("malformed parameter file") && e.message.contains("nested at most 32 deep"), "{e}");
        assert_eq!(e.exit_code(), 2);
    }

    #[test]
    fn every_builtin_description_is_valid() {
        for f in crate::extract::FAMILIES {
            let s = crate::extract::space(f.name).unwrap();
            assert_eq!(s.extractor, f.name);
        }
    }

    #[test]
    fn a_settings_file_reads_back_as_the_setting_it_was_written_from() {
        let space = crate::extract::space("ccb").unwrap();
        let s =
            space.with_assignments(&space.defaults(), &["r=123".into(), "t=0.61".into(), "kernel=box".into()]).unwrap();
        let about = About {
            fitness: 0.9,
            precision: 0.8,
            recall: 0.95,
            objective: "f1".into(),
            goldset: "x".into(),
            run: "r".into(),
            structure: None,
        };
        for a in [None, Some(&about)] {
            let text = settings_file(&s, a, None, None).unwrap();
            assert_eq!(parse(&text).unwrap().setting, s, "{text}");
            // With its description, the file also gives back the space.
            let text = settings_file(&s, a, Some(&space), None).unwrap();
            let back = parse(&text).unwrap();
            assert_eq!((&back.setting, &back.space.params), (&s, &space.params), "{text}");
        }
    }

    /// What a file is comes from its keys, once, and every setting of it carries that: a family
    /// whose parameter is spelt with a dot is no combination, a route is one without its
    /// `otherwise` value, and each member or branch knows its own kind.
    #[test]
    fn a_files_kind_comes_from_its_keys_and_its_settings_carry_it() {
        use crate::params::Kind;
        let combo = parse("extractor: c\nmembers: [lqf, accb]\nparameters: []\n").unwrap();
        assert_eq!((combo.space.kind, combo.setting.kind), (Kind::Combination, Kind::Combination));
        let kinds = |s: &ParamSpace| s.members.iter().map(|m| m.kind).collect::<Vec<_>>();
        assert_eq!(kinds(&combo.space), [Kind::Family, Kind::Family]);
        let route = parse("extractor: r\nbranches: [lqf, pair=combine]\nrules: 1\nparameters: []\n").unwrap();
        assert_eq!((route.space.kind, route.setting.kind), (Kind::Route, Kind::Route));
        assert_eq!(
            (route.space.member("lqf").map(|m| m.kind), route.space.member("pair").map(|m| m.kind)),
            (Some(Kind::Family), Some(Kind::Combination))
        );
        let mut no_otherwise = route.setting.clone();
        no_otherwise.values.retain(|(n, _)| n != "otherwise");
        assert!(super::super::route::is_route_setting(&no_otherwise));
        let ext = parse("extractor: external\ncommand: my-worker\n").unwrap();
        assert_eq!(ext.setting.kind, Kind::External);
        let family = parse("extractor: lqf\nvalues: {t: 0.3}\n").unwrap();
        assert_eq!(family.setting.kind, Kind::Family);
        let mut dotted = family.setting.clone();
        dotted.values.push(("a.b".into(), crate::params::Value::Int(1)));
        assert!(!crate::extract::combine::is_combination(&dotted));
        // A run's settings file of a compiled-in combination reads back as one.
        let best = parse("extractor: combine\nvalues: {}\n").unwrap();
        assert_eq!(best.setting.kind, Kind::Combination);
    }

    #[test]
    fn a_combination_that_is_not_compiled_in_reads_back_from_its_own_settings_file() {
        let mine = "extractor: my-combo\nmembers: [lqf, accb]\nparameters:\n  - {name: v, type: float, min: 0, max: 2, step: 0.05, default: 1}\n  - {name: accb.weight, type: float, min: 0, max: 1, step: 0.05, default: 1}\n  - {name: lqf.t, type: float, min: 0.05, max: 1, step: 0.01, default: 0.25}\ncorrelated: []\n";
        let space = parse(mine).unwrap().space;
        let s = space.with_assignments(&space.defaults(), &["v=1.5".into(), "lqf.t=0.31".into()]).unwrap();
        // Values only: my-combo is no built-in extractor.
        let e = parse(&settings_file(&s, None, None, None).unwrap()).unwrap_err();
        assert!(e.message.contains("unknown extractor 'my-combo'"), "{e}");
        let text = settings_file(&s, None, Some(&space), None).unwrap();
        let back = parse(&text).unwrap();
        assert_eq!(back.setting, s, "{text}");
        assert_eq!(back.space.params, space.params, "{text}");
        assert_eq!(back.space.member_names(), ["lqf", "accb"]);
    }
    /// A combination's `best.yaml` gives the active setting under `values` and the rest apart
    /// under `inactive` (a switched-off member's parameters, `v` and the weights outside a
    /// vote, `order` outside serial), and reads back as the same setting.
    #[test]
    fn inactive_parameters_are_written_apart_and_read_back() {
        let space = crate::extract::space("combine").unwrap();
        let s = space
            .with_assignments(
                &space.defaults(),
                &["combinator=serial".into(), "lqf.on=false".into(), "lqf.t=0.41".into(), "ccb.r=77".into()],
            )
            .unwrap();
        let text = settings_file(&s, None, None, Some(&space)).unwrap();
        let (values, inactive) = text.split_once("\ninactive:\n").expect(&text);
        for gone in ["\n  v:", "\n  lqf.t:", "\n  lqf.weight:", "\n  lqf.min_chars:"] {
            assert!(!values.contains(gone) && inactive.contains(gone.trim_start_matches('\n')), "{gone}\n{text}");
        }
        for kept in ["\n  combinator: serial", "\n  lqf.on: false", "\n  tccb.order:"] {
            assert!(values.contains(kept), "{kept}\n{text}");
        }
        assert_eq!(parse(&text).unwrap().setting, s, "{text}");
        // A parameter given both ways is refused, with its line.
        let e = parse(&text.replace("\ninactive:\n", "\ninactive:\n  combinator: vote\n")).unwrap_err();
        assert!(e.message.contains("'combinator' is also under 'values'"), "{e}");
    }
}
