//! Families fitted on gold ([`super::fit::Fit`]) inside routes and combinations: where they sit
//! in a setting (their *place*: a route's branch alias, a combination's member name, `pages.m` for
//! member `m` of a route's combination branch `pages`, the empty place for the family alone), the models that a search fits for them out of fold ([`Models`], passed to
//! [`super::build_with`]) and the model file a run writes for the winner.
//!
//! A family alone keeps its own model file (its `best.model`). A route or a
//! combination holding fitted families writes one file with a model per place: a header line,
//! then for each place a line `place <place>` followed by that model's own text (which ends with
//! `end`). `best.yaml` names it with `model:`, as for the family alone; each model is checked
//! against its place's setting when loaded (a missing place, a damaged model or one fitted with
//! other parameters: one line with the file and line, exit 2).

use super::fit::{Fit, Model};
use crate::error::{Cause, Error, Result};
use crate::params::Setting;
use std::path::Path;
use std::sync::Arc;

/// The first line of a model file of several places.
const MAGIC: &str = "cetune fitted models 1";

pub use super::models::{Models, Placed};

/// Every place of `s` where a fitted family takes part in the extraction, with that family's own
/// setting: the family alone, a route's branches that a rule or `otherwise` names, a
/// combination's members that are on (and so on, inside a route's combination branches).
pub fn places(s: &Setting) -> Result<Vec<(String, Setting)>> {
    let mut out = Vec::new();
    walk(s, "", &mut out)?;
    Ok(out)
}

fn walk(s: &Setting, at: &str, out: &mut Vec<(String, Setting)>) -> Result<()> {
    let join = |name: &str| {
        if at.is_empty() { name.to_string() } else { format!("{at}{}{name}", crate::params::compose::SEP) }
    };
    if crate::params::route::is_route_setting(s) {
        for (alias, _, own) in super::route::used(s)?.branches {
            walk(&own, &join(&alias), out)?;
        }
    } else if super::combine::is_combination(s) {
        for m in super::combine::members_on(s)?.into_iter().filter(|m| !m.external) {
            walk(&m.own, &join(&m.name), out)?;
        }
    } else if super::fit_of(&s.extractor).is_some() {
        out.push((at.to_string(), s.clone()));
    }
    Ok(())
}

/// True when `s` must be fitted on a corpus before it can score: a fitted family takes part in it
/// and no model file is named.
pub fn needs_fit(s: &Setting) -> bool {
    s.model.is_none() && places(s).is_ok_and(|p| !p.is_empty())
}

/// True when `s` is a route or a combination (its model file holds a model per place).
pub fn composite(s: &Setting) -> bool {
    crate::params::route::is_route_setting(s) || super::combine::is_combination(s)
}

/// The text of the model file of a route or combination: `models` by place.
pub fn write(models: &[(String, Arc<dyn Model>)]) -> String {
    let mut out = format!("{MAGIC}\n");
    for (place, m) in models {
        out.push_str(&format!("place {place}\n"));
        out.push_str(&m.write());
    }
    out
}

/// Splits the model file of a route or combination (its text `text`) into its models' texts by
/// place, each with the line before its first (a model reads its own text, [`Fit::read`]); an
/// error names the line (the caller adds the file).
fn sections(text: &str) -> Result<Vec<(String, String, usize)>> {
    let lines: Vec<&str> = text.lines().collect();
    if lines.first() != Some(&MAGIC) {
        let got = lines.first().map_or("nothing", |l| l);
        return Err(Error::config(format!("not a model file of places (expected '{MAGIC}', got '{}')", cut(got)))
            .with_line(1, None));
    }
    let mut out = Vec::new();
    let mut i = 1;
    while i < lines.len() {
        let Some(place) = lines[i].strip_prefix("place ") else {
            return Err(Error::config(format!("expected 'place …', got '{}'", cut(lines[i]))).with_line(i + 1, None));
        };
        let start = i + 1;
        let Some(len) = lines[start..].iter().position(|l| *l == "end") else {
            return Err(Error::config(format!("the model of place '{place}' is truncated: no 'end'"))
                .with_line(lines.len(), None));
        };
        out.push((place.to_string(), lines[start..=start + len].join("\n"), start));
        i = start + len + 1;
    }
    Ok(out)
}

/// Reads a model of a file of places with `fit` (its text `text`, after line `before`): an error
/// names its line in the file.
fn read_at(fit: &dyn Fit, text: &str, before: usize) -> Result<Arc<dyn Model>> {
    fit.read(text).map_err(|e| {
        let line = before + e.line.unwrap_or(1);
        Error { line: Some(line), ..e }
    })
}

/// At most 40 characters of a line, for a message.
fn cut(s: &str) -> String {
    s.chars().take(40).collect()
}

/// The models that the model file `path` holds for the places of `s` (a route or a
/// combination), each checked against its place's setting. A place the file lacks, a damaged file
/// or a model fitted with other parameters is a configuration error with the file (and line).
pub fn load(path: &Path, s: &Setting) -> Result<Models> {
    let text =
        crate::params::read_model_file(path).map_err(|e| Error { kind: crate::error::ErrorKind::Config, ..e })?;
    read_text(&text, s, super::combine::hash_of(("file", path))).map_err(|e| e.with_path(path))
}

/// The models that the text of a model file of places holds for the places of `s`, each checked
/// against its place's setting (an error names the line; the caller adds the file); `base`
/// identifies the text in the models' cache tags.
pub fn read_text(text: &str, s: &Setting, base: u64) -> Result<Models> {
    let file = sections(text)?;
    let mut out = Vec::new();
    for (place, own) in places(s)? {
        let Some(k) = file.iter().position(|(p, _, _)| *p == place) else {
            return Err(Error::config(format!(
                "holds no model for '{place}', which the setting fits: refit it (cetune optimise) or use its own best.yaml"
            ))
            .with_cause(Cause::StaleModel));
        };
        let fit = super::fit_of(&own.extractor).ok_or_else(|| Error::config("a place that fits nothing"))?;
        let (_, section, before) = &file[k];
        let m = read_at(fit, section, *before)?;
        let want = fit.key(&own);
        if m.key() != want {
            let line = line_of(text, &place) + 3;
            return Err(Error::config(format!(
                "the model of '{place}' was fitted with {}, but the setting says {want}: refit it (cetune optimise) or use its own best.yaml",
                m.key()
            ))
            .with_cause(Cause::StaleModel)
            .with_line(line, None));
        }
        let tag = super::combine::hash_of(("file", base, &place, m.key()));
        out.push(Placed { place, model: m, tag });
    }
    Ok(Models(out, None))
}

/// The 1-based line of `place <place>` in a model file's text.
fn line_of(text: &str, place: &str) -> usize {
    let want = format!("place {place}");
    text.lines().position(|l| l == want).map_or(1, |i| i + 1)
}

/// True when the model file `path` holds a model fitted with the parameters of each place of `s`
/// (a run's best setting has one; the run's other settings do not). A missing or damaged file is
/// an error. `engine` reads a family's own model file (once).
pub fn fits(engine: &super::Engine, path: &Path, s: &Setting) -> Result<bool> {
    if !composite(s) {
        let Some(fit) = super::fit_of(&s.extractor) else { return Ok(false) };
        return Ok(engine.models().read(fit, path)?.key() == fit.key(s));
    }
    match load(path, s) {
        Ok(_) => Ok(true),
        Err(e) if e.cause() == Some(&Cause::StaleModel) => Ok(false),
        Err(e) => Err(e),
    }
}
