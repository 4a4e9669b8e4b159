//! Loading and validating parameter description files (`params/<extractor>.yaml`).
//!
//! Schema (documented in the README):
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
//! ```

use super::space::{KnownGood, ParamSpace, ParamSpec, Spec};
use super::value::{Setting, Value};
use crate::error::{Error, Result};
use serde::Deserialize;
use std::path::Path;

/// The parameter descriptions compiled into the binary, by extractor name.
const BUILTIN: &[(&str, &str)] = &[
    ("full", include_str!("../../params/full.yaml")),
    ("lqf", include_str!("../../params/lqf.yaml")),
    ("ccb", include_str!("../../params/ccb.yaml")),
    ("accb", include_str!("../../params/accb.yaml")),
    ("tccb", include_str!("../../params/tccb.yaml")),
    ("sw", include_str!("../../params/sw.yaml")),
    ("density", include_str!("../../params/density.yaml")),
    ("bte", include_str!("../../params/bte.yaml")),
    ("crunch", include_str!("../../params/crunch.yaml")),
];

/// Names of the built-in descriptions, in listing order.
pub fn builtin_names() -> Vec<&'static str> {
    BUILTIN.iter().map(|(n, _)| *n).collect()
}

/// The text of the built-in description of `name`.
pub fn builtin_text(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The built-in description of `name`.
pub fn builtin(name: &str) -> Result<ParamSpace> {
    match BUILTIN.iter().find(|(n, _)| *n == name) {
        Some((n, text)) => Ok(parse_str(text, Path::new(&format!("params/{n}.yaml")))?.space),
        None => Err(Error::config(format!("unknown extractor '{name}' (known: {})", builtin_names().join(", ")))),
    }
}

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
    extractor: String,
    #[serde(default)]
    description: String,
    parameters: Option<Vec<RawParam>>,
    #[serde(default)]
    correlated: Vec<Vec<String>>,
    #[serde(default)]
    known_good: Vec<RawKnown>,
    values: Option<serde_yaml::Mapping>,
    #[allow(dead_code)]
    about: Option<serde_yaml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParam {
    name: String,
    #[serde(rename = "type")]
    kind: String,
    min: Option<f64>,
    max: Option<f64>,
    step: Option<f64>,
    choices: Option<Vec<String>>,
    default: serde_yaml::Value,
    #[serde(default)]
    meaning: String,
    tune: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKnown {
    label: String,
    values: serde_yaml::Mapping,
}

/// Reads and validates a parameter file.
pub fn load_file(path: &Path) -> Result<ParamsFile> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, "read parameter file", e))?;
    parse_str(&text, path)
}

/// 1-based line of the first line declaring `key` (`key:` or `name: key`), for messages.
fn line_of(text: &str, key: &str) -> Option<usize> {
    let pats = [format!("name: {key}"), format!("{key}:"), format!("{{{key}:"), format!(" {key}:")];
    text.lines()
        .position(|l| {
            let t = l.trim_start().trim_start_matches("- ");
            pats.iter().any(|p| {
                t.starts_with(p.as_str())
                    || l.contains(&format!("name: {key},"))
                    || l.contains(&format!("name: {key} "))
            })
        })
        .map(|i| i + 1)
}

fn yaml_value(v: &serde_yaml::Value) -> Option<Value> {
    match v {
        serde_yaml::Value::Bool(b) => Some(Value::Bool(*b)),
        serde_yaml::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Some(Value::Int(i))
            } else {
                n.as_f64().map(Value::Float)
            }
        }
        serde_yaml::Value::String(s) => Some(Value::Cat(s.clone())),
        _ => None,
    }
}

/// Parses and validates the text of a parameter file; `path` names it in errors.
pub fn parse_str(text: &str, path: &Path) -> Result<ParamsFile> {
    let at = |key: &str, msg: String| {
        let e = Error::config(msg).with_path(path);
        match line_of(text, key) {
            Some(l) => e.with_line(l, None),
            None => e,
        }
    };
    let raw: RawFile = serde_yaml::from_str(text).map_err(|e| {
        let err = Error::config(format!("malformed parameter file: {e}")).with_path(path);
        match e.location() {
            Some(loc) => err.with_line(loc.line(), Some(loc.column())),
            None => err,
        }
    })?;
    let space = match raw.parameters {
        Some(ps) => build_space(&raw.extractor, raw.description, ps, raw.correlated, raw.known_good, &at)?,
        None => {
            if !raw.known_good.is_empty() || !raw.correlated.is_empty() {
                return Err(at("known_good", "'known_good' and 'correlated' need 'parameters'".into()));
            }
            builtin(&raw.extractor).map_err(|e| at("extractor", e.message))?
        }
    };
    let mut setting = space.defaults();
    if let Some(values) = &raw.values {
        setting = mapping_setting(&space, values, "values", &at)?;
    }
    Ok(ParamsFile { space, setting })
}

fn mapping_setting(
    space: &ParamSpace,
    values: &serde_yaml::Mapping,
    what: &str,
    at: &dyn Fn(&str, String) -> Error,
) -> Result<Setting> {
    let mut s = space.defaults();
    for (k, v) in values {
        let k = k.as_str().ok_or_else(|| at(what, format!("{what}: parameter names must be strings")))?;
        let spec = space.param(k).ok_or_else(|| at(k, format!("{what}: {}", space.unknown(k).message)))?;
        let v = yaml_value(v).ok_or_else(|| at(k, format!("{what}: parameter '{k}' must be a scalar")))?;
        let v = spec.spec.check(&v).map_err(|e| at(k, format!("{what}: parameter '{k}' {e}")))?;
        if let Some(slot) = s.values.iter_mut().find(|(n, _)| n == k) {
            slot.1 = v;
        }
    }
    Ok(s)
}

fn build_space(
    extractor: &str,
    description: String,
    raw: Vec<RawParam>,
    correlated: Vec<Vec<String>>,
    known: Vec<RawKnown>,
    at: &dyn Fn(&str, String) -> Error,
) -> Result<ParamSpace> {
    let mut params: Vec<ParamSpec> = Vec::new();
    for p in raw {
        let name = p.name.clone();
        let err = |msg: String| at(&name, format!("parameter '{name}': {msg}"));
        if params.iter().any(|q| q.name == name) {
            return Err(err("declared twice".into()));
        }
        let spec = match p.kind.as_str() {
            "float" | "int" => {
                let (min, max) = match (p.min, p.max) {
                    (Some(a), Some(b)) => (a, b),
                    _ => return Err(err(format!("a {} parameter needs 'min' and 'max'", p.kind))),
                };
                if min > max {
                    return Err(err(format!("`min <= max` must hold, but got min={min}, max={max}")));
                }
                if p.kind == "int" {
                    if min.fract() != 0.0 || max.fract() != 0.0 {
                        return Err(err(format!("an int parameter needs whole bounds, got min={min}, max={max}")));
                    }
                    Spec::Int { min: min as i64, max: max as i64 }
                } else {
                    if let Some(s) = p.step
                        && (s <= 0.0 || !s.is_finite())
                    {
                        return Err(err(format!("'step' must be > 0, got {s}")));
                    }
                    Spec::Float { min, max, step: p.step }
                }
            }
            "categorical" => match p.choices {
                Some(c) if !c.is_empty() => Spec::Categorical { choices: c },
                _ => return Err(err("a categorical parameter needs a non-empty 'choices' list".into())),
            },
            "bool" => Spec::Bool,
            other => {
                return Err(err(format!("unknown type '{other}' (expected float, int, categorical or bool)")));
            }
        };
        let default = yaml_value(&p.default).ok_or_else(|| err("'default' must be a scalar".into()))?;
        let default = spec.check(&default).map_err(|e| err(format!("default {e}")))?;
        params.push(ParamSpec { name, spec, default, meaning: p.meaning, tune: p.tune.unwrap_or(true) });
    }
    let mut space = ParamSpace {
        extractor: extractor.to_string(),
        description,
        params,
        correlated: Vec::new(),
        known_good: Vec::new(),
    };
    for group in &correlated {
        for n in group {
            match space.param(n) {
                None => return Err(at("correlated", format!("correlated: {}", space.unknown(n).message))),
                Some(p) if !matches!(p.spec, Spec::Float { .. } | Spec::Int { .. }) => {
                    return Err(at("correlated", format!("correlated: parameter '{n}' is not numeric")));
                }
                _ => {}
            }
        }
    }
    space.correlated = correlated;
    for k in known {
        let setting = mapping_setting(&space, &k.values, &format!("known_good '{}'", k.label), at)?;
        space.known_good.push(KnownGood { label: k.label, setting });
    }
    Ok(space)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ParamsFile> {
        parse_str(text, Path::new("p.yaml"))
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
        assert_eq!(e.to_string(), "p.yaml:3: parameter 't': `min <= max` must hold, but got min=1.5, max=1");
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
    fn every_builtin_description_is_valid() {
        for n in builtin_names() {
            let s = builtin(n).unwrap();
            assert_eq!(s.extractor, n);
        }
    }
}
