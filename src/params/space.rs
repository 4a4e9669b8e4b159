//! The typed, validated parameter space of one extractor.

use super::value::{Kind, Member, Setting, Value};
use crate::error::{Error, Result};

/// The type and range of a parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum Spec {
    /// A real in `[min, max]`, rounded to `step` when one is declared.
    Float {
        /// Lower bound (inclusive).
        min: f64,
        /// Upper bound (inclusive).
        max: f64,
        /// Declared precision (e.g. 0.01), if any.
        step: Option<f64>,
    },
    /// An integer in `[min, max]`.
    Int {
        /// Lower bound (inclusive).
        min: i64,
        /// Upper bound (inclusive).
        max: i64,
    },
    /// One of a fixed list of names.
    Categorical {
        /// The allowed values.
        choices: Vec<String>,
    },
    /// A switch.
    Bool,
}

/// One parameter: name, type/range, default, meaning and whether the optimiser tunes it.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamSpec {
    /// The name used in `--set name=value` and in the YAML.
    pub name: String,
    /// Type and range.
    pub spec: Spec,
    /// The literature (or interpretation) default.
    pub default: Value,
    /// One line saying what it does.
    pub meaning: String,
    /// False for fixed options that configure the extractor but are not genes.
    pub tune: bool,
    /// The range the extractor can run with in bounded memory and time (`sane: [lo, hi]` in its
    /// family's YAML): a description's `min` and `max` must lie within it.
    pub sane: Option<[f64; 2]>,
}

/// A known-good individual from the literature, injected into the first generation.
#[derive(Debug, Clone, PartialEq)]
pub struct KnownGood {
    /// Where it comes from (e.g. "Gottron 2009").
    pub label: String,
    /// The complete setting (unlisted parameters at their defaults).
    pub setting: Setting,
}

/// A description's default search (`search:` in its YAML): what `optimise` runs when the command
/// line gives no search flag. The strategy is a name here; the optimiser reads it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Search {
    /// The strategy (`--strategy`).
    pub strategy: Option<String>,
    /// Settings per generation (`--population`).
    pub population: Option<usize>,
    /// Generations at most (`--max-generations`).
    pub max_generations: Option<usize>,
    /// Generations without improvement before stopping (`--patience`).
    pub patience: Option<usize>,
    /// Where the block is (file and line), for errors about its values.
    pub at: String,
}

/// The parameter description of one extractor.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamSpace {
    /// The registry name of the extractor.
    pub extractor: String,
    /// What it is.
    pub kind: Kind,
    /// A one-paragraph description.
    pub description: String,
    /// The parameters, in file order.
    pub params: Vec<ParamSpec>,
    /// Groups of correlated parameters, blended on recombination.
    pub correlated: Vec<Vec<String>>,
    /// Known-good individuals.
    pub known_good: Vec<KnownGood>,
    /// For a combination of extractors (`members:` in its YAML) its members, for a route
    /// (`branches:`) its branches, each with what it is (a route's branch may be a family, a
    /// combination or a worker; a combination's member a family or a worker), whose parameters
    /// are namespaced `member.name`; empty for a single family. The parser fills it once.
    pub members: Vec<Member>,
    /// The default search (`search:`), if the description declares one.
    pub search: Option<Search>,
}

impl Spec {
    /// Checks and normalises a value for this spec (floats rounded to their step; integers given
    /// as whole floats accepted). The error names the rule that failed.
    pub fn check(&self, v: &Value) -> std::result::Result<Value, String> {
        match (self, v) {
            (Spec::Float { min, max, step }, Value::Float(_) | Value::Int(_)) => {
                let x = match v {
                    Value::Float(x) => *x,
                    Value::Int(i) => *i as f64,
                    _ => unreachable!(),
                };
                if !x.is_finite() {
                    return Err(format!("must be a finite number, got {x}"));
                }
                // A value within half a step of the range rounds into it (0.994 is 0.99).
                let slack = step.map_or(0.0, |s| s / 2.0) + 1e-12;
                if x < *min - slack || x > *max + slack {
                    return Err(format!("must lie in [{min}, {max}], got {x}"));
                }
                Ok(Value::Float(match step {
                    Some(s) => snap(x, *min, *max, *s),
                    None => x.clamp(*min, *max),
                }))
            }
            (Spec::Int { min, max }, Value::Int(i)) => {
                if i < min || i > max {
                    return Err(format!("must lie in [{min}, {max}], got {i}"));
                }
                Ok(Value::Int(*i))
            }
            (Spec::Int { .. }, Value::Float(x)) if x.fract() == 0.0 && x.is_finite() => {
                self.check(&Value::Int(*x as i64))
            }
            (Spec::Categorical { choices }, Value::Cat(c)) => {
                if choices.contains(c) {
                    Ok(v.clone())
                } else {
                    Err(format!("must be one of {}, got '{c}'", choices.join(", ")))
                }
            }
            (Spec::Bool, Value::Bool(_)) => Ok(v.clone()),
            (spec, v) => Err(format!("must be {}, got {v}", spec.kind_name())),
        }
    }

    /// "a float", "an integer", ...
    pub fn kind_name(&self) -> &'static str {
        match self {
            Spec::Float { .. } => "a number",
            Spec::Int { .. } => "an integer",
            Spec::Categorical { .. } => "one of the choices",
            Spec::Bool => "true or false",
        }
    }

    /// Parses command-line text into a value of this type.
    pub fn parse(&self, text: &str) -> std::result::Result<Value, String> {
        let t = text.trim();
        let v = match self {
            Spec::Float { .. } => Value::Float(t.parse().map_err(|_| format!("must be a number, got '{t}'"))?),
            Spec::Int { .. } => Value::Int(t.parse().map_err(|_| format!("must be an integer, got '{t}'"))?),
            Spec::Bool => match t {
                "true" | "1" | "yes" => Value::Bool(true),
                "false" | "0" | "no" => Value::Bool(false),
                _ => return Err(format!("must be true or false, got '{t}'")),
            },
            Spec::Categorical { .. } => Value::Cat(t.to_string()),
        };
        self.check(&v)
    }

    /// `range` column text for listings: `[5, 300]`, `{gaussian, box}`, `bool`.
    pub fn range_text(&self) -> String {
        match self {
            Spec::Float { min, max, step: Some(s) } => format!("[{min}, {max}] step {s}"),
            Spec::Float { min, max, step: None } => format!("[{min}, {max}]"),
            Spec::Int { min, max } => format!("[{min}, {max}]"),
            Spec::Categorical { choices } => format!("{{{}}}", choices.join(", ")),
            Spec::Bool => "{false, true}".to_string(),
        }
    }

    /// The value as the optimiser's internal real number (a category's index, a bool's 0/1).
    pub fn to_internal(&self, v: &Value) -> f64 {
        match (self, v) {
            (_, Value::Float(x)) => *x,
            (_, Value::Int(i)) => *i as f64,
            (_, Value::Bool(b)) => f64::from(u8::from(*b)),
            (Spec::Categorical { choices }, Value::Cat(c)) => choices.iter().position(|x| x == c).unwrap_or(0) as f64,
            (_, Value::Cat(_)) => 0.0,
        }
    }

    /// The value for an internal real: clamped, rounded to the declared precision.
    pub fn from_internal(&self, x: f64) -> Value {
        let x = if x.is_finite() { x } else { 0.0 };
        match self {
            Spec::Float { min, max, step } => Value::Float(match step {
                Some(s) => snap(x, *min, *max, *s),
                None => x.clamp(*min, *max),
            }),
            Spec::Int { min, max } => Value::Int((x.round() as i64).clamp(*min, *max)),
            Spec::Categorical { choices } => {
                let i = (x.round().max(0.0) as usize).min(choices.len().saturating_sub(1));
                Value::Cat(choices[i].clone())
            }
            Spec::Bool => Value::Bool(x >= 0.5),
        }
    }
}

/// The one step-rounding rule (the optimiser's genes use it too): `x` clamped to `[min, max]`
/// and rounded to the nearest point of the grid `min + k·step` that is not above `max`, written
/// with the decimals of `min` and `step` (so `0.1 + 0.2` becomes exactly `0.3`). The grid is
/// anchored at `min`, not at 0: with `min: 0.05, step: 0.1` the values are 0.05, 0.15, ...
/// A non-positive or non-finite step only clamps; NaN becomes `min`.
pub fn snap(x: f64, min: f64, max: f64, step: f64) -> f64 {
    let x = if x.is_nan() { min } else { x.clamp(min, max) };
    if !(step > 0.0 && step.is_finite()) {
        return x;
    }
    let decimals = decimals(step).max(decimals(min));
    let at = |k: f64| round_decimal(min + k * step, decimals);
    let k = ((x - min) / step).round();
    let v = at(k);
    if v > max && k >= 1.0 { at(k - 1.0) } else { v.min(max) }
}

/// Number of decimals in the shortest text of `x` (at most 15).
fn decimals(x: f64) -> usize {
    let s = format!("{x}");
    s.split_once('.').map_or(0, |(_, f)| f.len()).min(15)
}

/// `x` rounded to `d` decimals through its decimal text, so the result is the nearest `f64` to
/// the rounded decimal.
fn round_decimal(x: f64, d: usize) -> f64 {
    format!("{x:.d$}").parse().unwrap_or(x)
}

impl ParamSpace {
    /// The member (or branch) called `name`.
    pub fn member(&self, name: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.name == name)
    }

    /// The names of the members (or branches), in order.
    pub fn member_names(&self) -> Vec<String> {
        self.members.iter().map(|m| m.name.clone()).collect()
    }

    /// This space as a member called `name` of a combination or route.
    pub fn as_member(&self, name: &str) -> Member {
        Member {
            name: name.to_string(),
            extractor: self.extractor.clone(),
            kind: self.kind,
            members: self.members.clone(),
        }
    }

    /// The parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }

    /// Every parameter at its default.
    pub fn defaults(&self) -> Setting {
        Setting {
            extractor: self.extractor.clone(),
            kind: self.kind,
            members: self.members.clone(),
            values: self.params.iter().map(|p| (p.name.clone(), p.default.clone())).collect(),
            model: None,
        }
    }

    /// `base` with `name=value` assignments applied; each value is checked against its range.
    pub fn with_assignments(&self, base: &Setting, assignments: &[String]) -> Result<Setting> {
        let mut s = base.clone();
        let mut given: Vec<(&str, &str)> = Vec::new();
        for a in assignments {
            for part in a.split(',').filter(|p| !p.trim().is_empty()) {
                let (k, v) = part
                    .split_once('=')
                    .ok_or_else(|| Error::config(format!("'{part}' is not of the form name=value")))?;
                let k = k.trim();
                // One setting gives each parameter once: a second value would silently win.
                if let Some((_, first)) = given.iter().find(|(n, _)| *n == k) {
                    return Err(Error::config(format!(
                        "parameter '{k}' is given twice ({k}={}, then {k}={}): give each parameter once",
                        first.trim(),
                        v.trim()
                    )));
                }
                given.push((k, v));
                let spec = self.param(k).ok_or_else(|| self.unknown(k))?;
                let val = spec
                    .spec
                    .parse(v)
                    .map_err(|e| Error::config(format!("parameter '{k}' of extractor '{}' {e}", self.extractor)))?;
                set_value(&mut s, k, val);
            }
        }
        Ok(s)
    }

    /// An error for an unknown parameter name, listing the known ones.
    pub fn unknown(&self, name: &str) -> Error {
        let known: Vec<&str> = self.params.iter().map(|p| p.name.as_str()).collect();
        Error::config(format!(
            "extractor '{}' has no parameter '{name}' (known: {})",
            self.extractor,
            if known.is_empty() { "none".to_string() } else { known.join(", ") }
        ))
    }

    /// Checks every value of a setting against this space (names, types, ranges).
    pub fn check_setting(&self, s: &Setting) -> Result<Setting> {
        let mut out = self.defaults();
        for (k, v) in &s.values {
            let spec = self.param(k).ok_or_else(|| self.unknown(k))?;
            let v = spec.spec.check(v).map_err(|e| Error::config(format!("parameter '{k}' {e}")))?;
            set_value(&mut out, k, v);
        }
        Ok(out)
    }

    /// The indices of the parameters the optimiser tunes (the genes).
    pub fn genes(&self) -> Vec<usize> {
        (0..self.params.len()).filter(|&i| self.params[i].tune).collect()
    }

    /// The genes of a setting as internal reals.
    pub fn to_genome(&self, s: &Setting) -> Vec<f64> {
        self.genes()
            .into_iter()
            .map(|i| {
                let p = &self.params[i];
                self.params[i].spec.to_internal(s.get(&p.name).unwrap_or(&p.default))
            })
            .collect()
    }

    /// The setting for a genome: fixed parameters from `base`, genes decoded (clamped, rounded).
    pub fn from_genome(&self, base: &Setting, genome: &[f64]) -> Setting {
        let mut s = base.clone();
        for (g, i) in self.genes().into_iter().enumerate() {
            let p = &self.params[i];
            set_value(&mut s, &p.name, p.spec.from_internal(genome.get(g).copied().unwrap_or(0.0)));
        }
        s
    }
}

fn set_value(s: &mut Setting, name: &str, v: Value) {
    match s.values.iter_mut().find(|(n, _)| n == name) {
        Some(slot) => slot.1 = v,
        None => s.values.push((name.to_string(), v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::float_cmp)] // rounding must give these exact decimals
    fn rounds_to_declared_precision() {
        assert_eq!(snap(0.19000000000000003, 0.0, 1.0, 0.01), 0.19);
        assert_eq!(snap(0.2649, 0.0, 1.0, 0.01), 0.26);
        assert_eq!(snap(7.3, 0.0, 10.0, 0.5), 7.5);
        let s = Spec::Float { min: 0.05, max: 0.99, step: Some(0.01) };
        assert_eq!(s.from_internal(2.0), Value::Float(0.99));
        assert_eq!(s.parse("0.754"), Ok(Value::Float(0.75)));
        assert!(s.parse("1.5").unwrap_err().contains("[0.05, 0.99]"));
        assert_eq!(s.parse("0.994"), Ok(Value::Float(0.99)));
        assert!(s.parse("0.996").is_err());
    }

    #[test]
    #[allow(clippy::float_cmp)] // the grid points are exact decimals
    fn the_grid_is_anchored_at_min() {
        // Issue 10: rounding to multiples of 0.1 from 0 turned 0.25 and 0.35 into the same 0.3.
        let s = Spec::Float { min: 0.05, max: 1.0, step: Some(0.1) };
        assert_eq!(s.from_internal(0.25), Value::Float(0.25));
        assert_eq!(s.from_internal(0.35), Value::Float(0.35));
        assert_eq!(s.parse("0.3"), Ok(Value::Float(0.35)));
        assert_eq!(s.from_internal(1.0), Value::Float(0.95));
        assert_eq!(snap(0.31, 0.05, 1.0, 0.1), 0.35);
        assert_eq!(snap(0.249, 0.0, 0.25, 0.1), 0.2);
        assert_eq!(snap(f64::NAN, 0.05, 1.0, 0.1), 0.05);
    }

    #[test]
    fn internal_roundtrip_for_every_type() {
        let cat = Spec::Categorical { choices: vec!["a".into(), "b".into()] };
        assert_eq!(cat.from_internal(cat.to_internal(&Value::Cat("b".into()))), Value::Cat("b".into()));
        assert_eq!(Spec::Bool.from_internal(0.7), Value::Bool(true));
        assert_eq!(Spec::Int { min: 2, max: 9 }.from_internal(11.6), Value::Int(9));
    }
}
