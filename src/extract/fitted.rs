//! Families fitted on gold (`blocktrees`) inside routes and combinations: where they sit in a
//! setting (their *place*: `trees` for a route's branch, `blocktrees` for a combination's member,
//! `pages.blocktrees` for a member of a route's combination branch, the empty place for the
//! family alone), the models that a search fits for them out of fold ([`Models`], passed to
//! [`super::build_with`]) and the model file a run writes for the winner.
//!
//! A family alone keeps its own model file (`blocktrees`' `best.model`). A route or a
//! combination holding fitted families writes one file with a model per place: a header line,
//! then for each place a line `place <place>` followed by that model's own text (which ends with
//! `end`). `best.yaml` names it with `model:`, as for the family alone; each model is checked
//! against its place's setting when loaded (a missing place, a damaged model or one fitted with
//! other parameters: one line with the file and line, exit 2).

use super::blocktrees::{Model, fit_key};
use crate::error::{Cause, Error, Result};
use crate::params::Setting;
use std::path::Path;
use std::sync::Arc;

/// The family fitted on gold.
pub const FITTED: &str = "blocktrees";

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
    } else if s.extractor == FITTED {
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
pub fn write(models: &[(String, Model)]) -> String {
    let mut out = format!("{MAGIC}\n");
    for (place, m) in models {
        out.push_str(&format!("place {place}\n"));
        out.push_str(&m.write());
    }
    out
}

/// Reads the model file of a route or combination (its text `text`) into its models by place;
/// an error names the line (the caller adds the file).
pub fn read(text: &str) -> Result<Vec<(String, Model)>> {
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
        let section = lines[start..=start + len].join("\n");
        let m = Model::read(&section).map_err(|e| {
            let line = start + e.line.unwrap_or(1);
            Error { line: Some(line), ..e }
        })?;
        out.push((place.to_string(), m));
        i = start + len + 1;
    }
    Ok(out)
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
    let file = read(&text).map_err(|e| e.with_path(path))?;
    let mut out = Vec::new();
    for (place, own) in places(s)? {
        let Some(k) = file.iter().position(|(p, _)| *p == place) else {
            return Err(Error::config(format!(
                "holds no model for '{place}', which the setting fits: refit it (cetune optimise) or use its own best.yaml"
            ))
            .with_cause(Cause::StaleModel)
            .with_path(path));
        };
        let (_, m) = &file[k];
        let want = fit_key(&own);
        if m.fit != want {
            let line = line_of(&text, &place) + 3;
            return Err(Error::config(format!(
                "the model of '{place}' was fitted with {}, but the setting says {want}: refit it (cetune optimise) or use its own best.yaml",
                m.fit
            ))
            .with_cause(Cause::StaleModel)
            .with_path(path)
            .with_line(line, None));
        }
        let tag = super::combine::hash_of(("file", path, &place, &m.fit));
        out.push(Placed { place, model: Arc::new(m.clone()), tag });
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
/// an error.
pub fn fits(path: &Path, s: &Setting) -> Result<bool> {
    if !composite(s) {
        return Ok(super::blocktrees::read_model(path)?.fit == fit_key(s));
    }
    match load(path, s) {
        Ok(_) => Ok(true),
        Err(e) if e.cause() == Some(&Cause::StaleModel) => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::segments::N_FEATURES;
    use crate::extract::trees::{self, Hyper, Rows};

    fn route(sets: &[&str]) -> Setting {
        let text = "extractor: r\nbranches: [learned=blocktrees, pages=mixed, lqf]\nrules: 1\nparameters: []\n";
        let space = crate::params::parse_str(text, Path::new("r.yaml"), &super::super::space).unwrap().space;
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        space.with_assignments(&space.defaults(), &sets).unwrap()
    }

    fn model(fit: &str) -> Model {
        let rows = Rows {
            f: N_FEATURES,
            x: (0..40).flat_map(|i| (0..N_FEATURES).map(move |j| ((i * 7 + j) % 11) as f32 / 10.0)).collect(),
            y: (0..40).map(|i| if i % 3 == 0 { 1.0 } else { 0.0 }).collect(),
            w: vec![1.0; 40],
        };
        let h = Hyper { trees: 3, depth: 2, learning_rate: 0.3, min_leaf: 2, allowed: vec![true; N_FEATURES] };
        Model { forest: trees::fit(&rows, &h), stack: None, fit: fit.into() }
    }

    #[test]
    fn fitted_families_are_found_where_pages_can_reach_them() {
        let names = |s: &Setting| places(s).unwrap().into_iter().map(|(p, _)| p).collect::<Vec<_>>();
        // Every page to lqf: nothing is fitted; a rule to `learned`: the branch is.
        assert!(names(&route(&["otherwise=lqf"])).is_empty());
        assert!(!needs_fit(&route(&["otherwise=lqf"])));
        let ruled = route(&["otherwise=lqf", "if1.on=true", "if1.then=learned", "learned.t=0.42"]);
        assert_eq!(names(&ruled), ["learned"]);
        let (_, own) = &places(&ruled).unwrap()[0];
        assert_eq!(own.extractor, "blocktrees");
        assert_eq!(own.get("t"), Some(&crate::params::Value::Float(0.42)));
        // A member of a combination branch, only while it is on.
        assert!(names(&route(&["otherwise=pages"])).is_empty());
        let space = super::super::space("mixed").unwrap();
        assert!(space.param("blocktrees.t").is_none(), "mixed has no blocktrees member");
        let text = "extractor: c\nmembers: [blocktrees, lqf]\nparameters: []\n";
        let c = crate::params::parse_str(text, Path::new("c.yaml"), &super::super::space).unwrap().space;
        assert_eq!(names(&c.defaults()), ["blocktrees"]);
        let off = c.with_assignments(&c.defaults(), &["blocktrees.on=false".into()]).unwrap();
        assert!(names(&off).is_empty());
        // The family alone sits at the empty place.
        assert_eq!(names(&super::super::space("blocktrees").unwrap().defaults()), [""]);
    }

    #[test]
    fn a_model_file_of_places_reads_back_and_is_checked_place_by_place() {
        let s = route(&["otherwise=learned"]);
        let (_, own) = places(&s).unwrap().remove(0);
        let key = fit_key(&own);
        let text = write(&[("learned".into(), model(&key))]);
        let back = read(&text).unwrap();
        assert_eq!(back, vec![("learned".to_string(), model(&key))]);
        let dir = std::env::temp_dir().join(format!("cetune-fitted-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("best.model");
        std::fs::write(&p, &text).unwrap();
        let m = load(&p, &s).unwrap();
        assert_eq!(m.0.len(), 1);
        assert_eq!(m.under("learned").here().map(|x| x.model.fit.clone()), Some(key.clone()));
        assert!(fits(&p, &s).unwrap());
        // Another threshold needs no refit; another tree count does.
        assert!(fits(&p, &route(&["otherwise=learned", "learned.t=0.7"])).unwrap());
        let other = route(&["otherwise=learned", "learned.trees=50"]);
        assert!(!fits(&p, &other).unwrap());
        let e = load(&p, &other).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(
            e.to_string().starts_with(&format!("{}:5: the model of 'learned' was fitted with", p.display())),
            "{e}"
        );
        // A damaged file: its line in the file, not in the section.
        let broken = text.replacen("\nbase ", "\nbase x", 1);
        std::fs::write(&p, &broken).unwrap();
        let e = load(&p, &s).unwrap_err();
        assert!(e.to_string().starts_with(&format!("{}:6:", p.display())), "{e}");
        std::fs::write(&p, text.replacen("place learned", "place pages", 1)).unwrap();
        let e = load(&p, &s).unwrap_err();
        assert!(e.to_string().contains("holds no model for 'learned'") && e.exit_code() == 2, "{e}");
        std::fs::write(&p, "hello\n").unwrap();
        assert!(load(&p, &s).unwrap_err().to_string().contains(":1: not a model file of places"));
        let e = load(&dir.join("none.model"), &s).unwrap_err();
        assert!(e.exit_code() == 2 && e.to_string().contains("none.model"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
