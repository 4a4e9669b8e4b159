//! Parameter values and settings (one value per parameter).

use crate::error::{Error, Result};
use std::collections::BTreeSet;
use std::fmt;

/// One parameter value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A real number.
    Float(f64),
    /// An integer.
    Int(i64),
    /// A boolean switch.
    Bool(bool),
    /// One of a categorical parameter's choices.
    Cat(String),
}

impl Value {
    /// The value a text writes: `true`/`false` a switch, a number a real, anything else a choice
    /// (a late parameter's default, [`SettingReader::late`]).
    pub fn of_text(text: &str) -> Value {
        match text {
            "true" | "false" => Value::Bool(text == "true"),
            _ => text.parse().map_or_else(|_| Value::Cat(text.to_string()), Value::Float),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Float(x) => write!(f, "{x}"),
            Value::Int(x) => write!(f, "{x}"),
            Value::Bool(x) => write!(f, "{x}"),
            Value::Cat(x) => write!(f, "{x}"),
        }
    }
}

/// What a description (and every setting of it) is: a closed set, decided once, when its file
/// is parsed, by the file's keys (`branches:` a route, `members:` a combination, `extractor:
/// external` a worker), and carried by each setting; nothing reads it back from parameter names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Kind {
    /// One family of the family table.
    #[default]
    Family,
    /// Members whose outputs a combinator joins (`members:`).
    Combination,
    /// Branches a decision list over page features chooses between (`branches:`).
    Route,
    /// A worker process speaking the extractor protocol (`extractor: external`).
    External,
}

/// Separates a member's name from its parameter's name (`accb.r`).
pub const SEP: char = '.';

/// One member of a combination, or branch of a route, as its description declares it: a node of
/// the typed tree a parameter file parses into once. Its parameters in a setting of the whole are
/// its own under its name (`accb.r`, `lists.density.p`); what it is, and what it is made of, is
/// here, so nothing reads it back from those names.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// Its name in the setting: a combination's member name, a route's branch alias.
    pub name: String,
    /// The extractor it runs (a family, `external`, a combination's name).
    pub extractor: String,
    /// What that extractor is.
    pub kind: Kind,
    /// Its own members (a route's combination branch), in their description's order.
    pub members: Vec<Member>,
}

impl Member {
    /// The name of parameter `name` of the whole within this member (`accb.r` is `r` of `accb`),
    /// `None` when the parameter is not this member's.
    pub fn own<'a>(&self, name: &'a str) -> Option<&'a str> {
        name.strip_prefix(self.name.as_str())?.strip_prefix(SEP)
    }

    /// The places of the external workers in `members` and below (`w`, `main.w`), each the
    /// prefix of its worker's parameters: the worker's command is `<place>.command`.
    pub fn workers(members: &[Member]) -> Vec<String> {
        let mut out = Vec::new();
        for m in members {
            if m.kind == Kind::External {
                out.push(m.name.clone());
            }
            let sep = SEP;
            out.extend(Member::workers(&m.members).into_iter().map(|w| format!("{}{sep}{w}", m.name)));
        }
        out
    }
}

/// A complete assignment of values to an extractor's parameters, in the order of its space.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    /// The extractor this setting configures.
    pub extractor: String,
    /// What that extractor is (its description's kind).
    pub kind: Kind,
    /// Its members or branches (its description's, see [`Member`]); empty for a family.
    pub members: Vec<Member>,
    /// `(name, value)` in the order of the parameter space.
    pub values: Vec<(String, Value)>,
    /// A fitted model the setting applies (a sidecar file its settings file names with
    /// `model:`, resolved against that file's folder), for the families fitted on gold
    /// (the families whose row in the family table has a fit); `None` for every other setting.
    pub model: Option<std::path::PathBuf>,
}

impl Setting {
    /// The value of `name`, if present.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// `k=v,k=v` of every value, in order: a compact label for tables.
    pub fn label(&self) -> String {
        self.values.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join(",")
    }

    /// The setting of `member` (one of [`Setting::members`]): its values, with the prefix removed.
    pub fn member(&self, member: &Member) -> Setting {
        Setting {
            extractor: member.extractor.clone(),
            kind: member.kind,
            members: member.members.clone(),
            values: self
                .values
                .iter()
                .filter_map(|(n, v)| member.own(n).map(|rest| (rest.to_string(), v.clone())))
                .collect(),
            model: self.model.clone(),
        }
    }

    /// The member or branch called `name`.
    pub fn member_named(&self, name: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.name == name)
    }

    /// A reader that checks each parameter is read once and none is left unread.
    pub fn reader(&self) -> SettingReader<'_> {
        SettingReader { setting: self, read: BTreeSet::new(), late: &[] }
    }
}

/// Reads a [`Setting`] for an extractor's constructor, so that a name the code reads but the
/// YAML lacks, or a YAML name the code never reads, is an error instead of a silent default.
pub struct SettingReader<'a> {
    setting: &'a Setting,
    read: BTreeSet<String>,
    late: &'static [(&'static str, &'static str)],
}

impl SettingReader<'_> {
    /// Parameters the family gained after descriptions of it were written, each with the value
    /// that behaves as before it: a description that does not declare one reads that value, so
    /// a user's copy of an earlier `params/<family>.yaml` still loads.
    pub fn late(&mut self, late: &'static [(&'static str, &'static str)]) {
        self.late = late;
    }

    fn value(&mut self, name: &str) -> Result<Value> {
        self.read.insert(name.to_string());
        if let Some(v) = self.setting.get(name) {
            return Ok(v.clone());
        }
        match self.late.iter().find(|(n, _)| *n == name) {
            Some((_, text)) => Ok(Value::of_text(text)),
            None => Err(Error::config(format!(
                "extractor '{}' needs parameter '{name}', which its parameter description does not declare",
                self.setting.extractor
            ))),
        }
    }

    fn wrong(&self, name: &str, want: &str, got: &Value) -> Error {
        Error::config(format!("parameter '{name}' must be {want}, got {got}"))
    }

    /// A real value (integers are accepted).
    pub fn float(&mut self, name: &str) -> Result<f64> {
        match self.value(name)? {
            Value::Float(x) => Ok(x),
            Value::Int(x) => Ok(x as f64),
            v => Err(self.wrong(name, "a number", &v)),
        }
    }

    /// An integer value.
    pub fn int(&mut self, name: &str) -> Result<i64> {
        match self.value(name)? {
            Value::Int(x) => Ok(x),
            v => Err(self.wrong(name, "an integer", &v)),
        }
    }

    /// A boolean value.
    pub fn bool(&mut self, name: &str) -> Result<bool> {
        match self.value(name)? {
            Value::Bool(x) => Ok(x),
            v => Err(self.wrong(name, "true or false", &v)),
        }
    }

    /// A categorical value.
    pub fn cat(&mut self, name: &str) -> Result<String> {
        match self.value(name)? {
            Value::Cat(x) => Ok(x),
            v => Err(self.wrong(name, "a choice", &v)),
        }
    }

    /// A categorical parameter parsed into its type (an enum of the family): the error names the
    /// parameter and what the type accepts.
    pub fn choice<T: std::str::FromStr<Err = String>>(&mut self, name: &str) -> Result<T> {
        let v = self.cat(name)?;
        v.parse().map_err(|want: String| Error::config(format!("parameter '{name}' must be {want}, got {v}")))
    }

    /// The fitted model file the setting names (`model:` in its settings file), if any.
    pub fn model(&self) -> Option<&std::path::Path> {
        self.setting.model.as_deref()
    }

    /// The whole setting being read (a fitted family checks its model against it).
    pub fn setting(&self) -> &Setting {
        self.setting
    }

    /// Names of the setting's parameters that start with `prefix` (e.g. the stop-word filter's
    /// `t_<language>` thresholds, which a YAML may extend). They are not marked as read.
    pub fn names_with_prefix(&self, prefix: &str) -> Vec<String> {
        self.setting.values.iter().filter(|(n, _)| n.starts_with(prefix)).map(|(n, _)| n.clone()).collect()
    }

    /// Fails when the setting holds a parameter the extractor never read.
    pub fn finish(self) -> Result<()> {
        for (name, _) in &self.setting.values {
            if !self.read.contains(name) {
                return Err(Error::config(format!(
                    "parameter '{name}' is declared for extractor '{}' but the extractor does not use it",
                    self.setting.extractor
                ))
                .with_cause(crate::error::Cause::UnusedParameter(name.clone())));
            }
        }
        Ok(())
    }
}
