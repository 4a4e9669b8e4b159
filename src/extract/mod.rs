//! The extractor families. Every family implements [`Extractor`]: a parsed [`Document`] in, the
//! kept text units out (a [`Selection`] of one of the document's views). One file per family;
//! [`FAMILIES`] is the one table of families (name, YAML description, constructor) and [`build`]
//! turns a [`Setting`] into a configured extractor.
//!
//! Imports from the crate: `document`, `params` and `error`.

pub mod baisa_diff;
pub mod blocks;
pub mod blocktrees;
pub mod blogbuster;
pub mod boilerpipe;
pub mod bte;
pub mod ccb;
pub mod cetr;
pub mod code;
pub mod combine;
pub mod crunch;
pub mod density;
pub mod dsc;
pub mod engine;
pub mod external;
pub mod feedwrapper;
pub mod fit;
pub mod fitted;
pub mod full;
pub mod full_hidden;
pub mod general;
pub mod judge;
pub mod justext;
pub mod landmarks;
pub mod lqf;
pub mod models;
pub mod readability;
pub mod records;
pub mod route;
pub mod sections;
pub mod segments;
pub mod stopwords;
pub mod structured;
pub mod trees;
pub mod wrappers;

use crate::document::{Document, Needs, Selection, View};
use crate::error::{Error, Result};
use crate::params::{self, ParamSpace, ParamsFile, Setting, SettingReader};
use std::path::Path;

pub use engine::Engine;

/// A configured content extractor. Implementations are immutable and shared across threads;
/// `extract` may be called concurrently on different documents.
pub trait Extractor: Send + Sync {
    /// The view whose units this extractor selects.
    fn view(&self) -> View;
    /// Appends the kept units of `doc`, in increasing order, to `out`, or says why it cannot
    /// ([`Failure`]: an external worker's error, crash or timeout). The caller owns the
    /// selection: it is empty and of this extractor's [`Extractor::view`] when passed in.
    fn extract(&self, doc: &Document, out: &mut Selection) -> Fallible;
    /// A per-word confidence in [0, 1] over the page's canonical words, for a `soft` vote in a
    /// combination: writes it to `out` and returns true, or returns false when the family has
    /// none (the default), and the vote takes its 0/1 keep-mask.
    fn confidence(&self, doc: &Document, out: &mut Vec<f32>) -> bool {
        let _ = (doc, out);
        false
    }
    /// The views and facts of a page it reads (in `extract` and in `confidence`): the corpus
    /// builds only these ([`Document::parse_for`]). The default is everything.
    fn needs(&self) -> Needs {
        Needs::ALL
    }
    /// True when it reads what the loader knows of the other pages of the page's package
    /// ([`Document::blocks`]); the streaming commands then prepare those facts first.
    fn needs_package(&self) -> bool {
        false
    }
    /// For a node with a fallback (a route's `fallback`): whether page `doc` went to it, its
    /// own branch's output judged below the threshold; `None` (the default) for the others. It
    /// runs that branch, so it fails where the branch does.
    fn fell_back(&self, doc: &Document) -> Fallible<Option<bool>> {
        let _ = doc;
        Ok(None)
    }
    /// The posts of the page with their fields (`blogs.md` §14.3), for families that segment a
    /// page; `None` (the default) for those that do not. An empty list: the family found no post.
    fn segments(&self, doc: &Document) -> Fallible<Option<segments::Segments>> {
        let _ = doc;
        Ok(None)
    }
}

/// Why an extractor could not extract a page: a value the caller decides about (a page's
/// error row, a combination's or route's own failure), never an unwinding panic. A panic is a
/// bug; the callers isolate it per page with [`crate::error::isolate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// An external extractor was given a page without its HTML (a serial pipeline's reduced
    /// page).
    NoHtml,
    /// An external worker failed on the page (its kind says how: an error it reported, a
    /// timeout, a crash, garbage); the message names the worker.
    Worker(external::worker::Failure),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::NoHtml => f.write_str(
                "an external extractor reads the page's HTML, and this page has none (a serial pipeline's reduced page)",
            ),
            Failure::Worker(w) => f.write_str(&w.message),
        }
    }
}

impl std::error::Error for Failure {}

/// What the fallible methods of [`Extractor`] return.
pub type Fallible<T = ()> = std::result::Result<T, Failure>;

/// A family's constructor: reads its parameters from a setting (each exactly once).
pub type Build = fn(&mut SettingReader) -> Result<Box<dyn Extractor>>;

/// One row of the family table: everything cetune knows of a family.
#[derive(Debug, Clone, Copy)]
pub struct Family {
    /// The registry name (`--extractor`, `extractor:` in YAML).
    pub name: &'static str,
    /// Its parameter description (`params/<name>.yaml`), compiled in.
    pub yaml: &'static str,
    /// Its constructor.
    pub build: Build,
    /// How it is fitted on gold, for a family whose extractor applies a fitted model
    /// ([`fit::Fit`]); `None` for the rest.
    pub fit: Option<&'static dyn fit::Fit>,
    /// How it learns, writes and applies per-site wrapper files ([`wrappers::Wrappers`]), for
    /// a family that learns rules per site; `None` for the rest.
    pub wrappers: Option<&'static dyn wrappers::Wrappers>,
}

/// A row of [`FAMILIES`]: the name, `params/<name>.yaml`, the constructor and, for a family
/// fitted on gold, its fitting, for one that learns per-site wrappers, its wrapper files.
macro_rules! family {
    ($name:literal, $build:path) => {
        family!(@row $name, $build, None, None)
    };
    ($name:literal, $build:path, fit = $fit:expr) => {
        family!(@row $name, $build, Some($fit), None)
    };
    ($name:literal, $build:path, wrappers = $w:expr) => {
        family!(@row $name, $build, None, Some($w))
    };
    (@row $name:literal, $build:path, $fit:expr, $w:expr) => {
        Family {
            name: $name,
            yaml: include_str!(concat!("../../params/", $name, ".yaml")),
            build: $build,
            fit: $fit,
            wrappers: $w,
        }
    };
}

/// The family table: the one list of extractor families. `cetune extractors`, the parameter
/// descriptions, `build` and every test that covers all families iterate it; adding a family is
/// its file, its YAML and one row here.
pub const FAMILIES: &[Family] = &[
    family!("full", full::Full::build),
    family!("lqf", lqf::Lqf::build),
    family!("ccb", ccb::Ccb::build_ccb),
    family!("accb", ccb::Ccb::build_accb),
    family!("tccb", ccb::Ccb::build_tccb),
    family!("sw", stopwords::StopWords::build),
    family!("density", density::Density::build),
    family!("bte", bte::Bte::build),
    family!("crunch", crunch::Crunch::build),
    family!("justext", justext::JusText::build),
    family!("boilerpipe", boilerpipe::Boilerpipe::build),
    family!("readability", readability::Readability::build),
    family!("dsc", dsc::Dsc::build),
    family!("cetr", cetr::Cetr::build),
    family!("baisa_diff", baisa_diff::BaisaDiff::build),
    family!("blogbuster", blogbuster::BlogBuster::build),
    family!("records", records::Records::build),
    family!("sections", sections::Sections::build),
    family!("structured", structured::Structured::build),
    family!("code", code::Code::build),
    family!("full_hidden", full_hidden::FullHidden::build),
    family!("blocks", blocks::Blocks::build),
    family!("blocktrees", blocktrees::Blocktrees::build, fit = &blocktrees::fit::FIT),
    family!("feedwrapper", feedwrapper::FeedWrapper::build, wrappers = &feedwrapper::files::FILES),
    family!("landmarks", landmarks::Landmarks::build),
];

/// The combination table: combinations of families described in `params/` (`members:`),
/// compiled in like the families' descriptions, so `--extractor combine` and a combination
/// run's `best.yaml` work anywhere. A combination is built from its setting alone
/// ([`combine::build`]).
pub const COMBINATIONS: &[(&str, &str)] = &[
    ("combine", include_str!("../../params/combine.yaml")),
    ("lqf-then-accb", include_str!("../../params/lqf-then-accb.yaml")),
    ("vote-soft", include_str!("../../params/vote-soft.yaml")),
    ("blog-fallback", include_str!("../../params/blog-fallback.yaml")),
    ("mixed", include_str!("../../params/mixed.yaml")),
    ("route", include_str!("../../params/route.yaml")),
];

/// Names of every family and then every combination.
pub fn all_names() -> Vec<&'static str> {
    names().into_iter().chain(COMBINATIONS.iter().map(|c| c.0)).collect()
}

/// How the family `name` is fitted on gold; `None` for a family that fits nothing (or no family).
pub fn fit_of(name: &str) -> Option<&'static dyn fit::Fit> {
    FAMILIES.iter().find(|f| f.name == name).and_then(|f| f.fit)
}

/// How the family `name` learns and applies wrapper files; an error naming the families that do
/// for any other name.
pub fn wrappers_of(name: &str) -> Result<&'static dyn wrappers::Wrappers> {
    FAMILIES.iter().find(|f| f.name == name).and_then(|f| f.wrappers).ok_or_else(|| {
        let by: Vec<&str> = FAMILIES.iter().filter(|f| f.wrappers.is_some()).map(|f| f.name).collect();
        Error::config(format!("wrappers are learned and applied by {}, not by '{name}'", by.join(", ")))
    })
}

/// The first family of the table that learns wrapper files (`wrapper learn`'s default).
pub fn first_wrapping() -> Option<&'static str> {
    FAMILIES.iter().find(|f| f.wrappers.is_some()).map(|f| f.name)
}

/// Names of every family, in table order.
pub fn names() -> Vec<&'static str> {
    FAMILIES.iter().map(|f| f.name).collect()
}

/// The space and setting a name selects: a family or combination at its defaults, or the
/// general model ([`general::NAME`]), the default extractor.
pub fn named(engine: &Engine, name: &str) -> Result<(ParamSpace, Setting)> {
    if name == general::NAME {
        return general::setting(engine);
    }
    let s = space(name)?;
    let d = s.defaults();
    Ok((s, d))
}

/// Every name `--extractor` takes: the general model, then [`all_names`].
pub fn selectable() -> Vec<&'static str> {
    std::iter::once(general::NAME).chain(all_names()).collect()
}

/// The family called `name`.
pub fn family(name: &str) -> Result<&'static Family> {
    FAMILIES
        .iter()
        .find(|f| f.name == name)
        .ok_or_else(|| Error::config(format!("unknown extractor '{name}' (known: {})", names().join(", "))))
}

/// The compiled-in description text of family or combination `name` (what a run records as its
/// parameter file when none was named).
pub fn description(name: &str) -> Result<&'static str> {
    match COMBINATIONS.iter().find(|c| c.0 == name) {
        Some((_, yaml)) => Ok(yaml),
        None => family(name).map(|f| f.yaml),
    }
}

/// The parameter space of family or combination `name`, from its compiled-in YAML description
/// (or the page features' space, [`params::route::FEATURES`]). A combination's description
/// reads its members' spaces, and a route's its branches' and theirs, so reading a routed
/// `best.yaml` parsed the same descriptions thousands of times (6 s): every compiled-in
/// description is parsed once, on first use, into an immutable table ([`builtins`]).
pub fn space(name: &str) -> Result<ParamSpace> {
    match builtins().iter().find(|(n, _)| *n == name) {
        Some((_, s)) => s.clone(),
        // Not compiled in: the unknown-extractor error, which names the known ones.
        None => family(name).and_then(|f| Err(Error::config(format!("'{}' has no description", f.name)))),
    }
}

/// Every compiled-in description, parsed: the page features, the families, then the
/// combinations in table order (each reads the spaces before it). Read-only once built.
fn builtins() -> &'static [(&'static str, Result<ParamSpace>)] {
    static TABLE: std::sync::LazyLock<Vec<(&'static str, Result<ParamSpace>)>> = std::sync::LazyLock::new(|| {
        let mut out: Vec<(&'static str, Result<ParamSpace>)> = vec![(params::route::FEATURES, Ok(feature_space()))];
        let texts = FAMILIES.iter().map(|f| (f.name, f.yaml)).chain(COMBINATIONS.iter().copied());
        for (name, yaml) in texts {
            let lookup = |n: &str| match out.iter().find(|(m, _)| *m == n) {
                Some((_, s)) => s.clone(),
                None => family(n).and_then(|f| Err(Error::config(format!("'{}' is read before it", f.name)))),
            };
            let parsed = params::parse_str(yaml, Path::new(&format!("params/{name}.yaml")), &lookup).map(|f| f.space);
            out.push((name, parsed));
        }
        out
    });
    &TABLE
}

/// Reads a parameter file the user names (a description, or a settings file such as a run's
/// `best.yaml` whose space is its family's built-in one); `engine` trusts the external commands
/// it declares.
pub fn load_file(engine: &Engine, path: &Path) -> Result<ParamsFile> {
    let text = params::read_file(path)?;
    let f = parse_str(&text, path)?;
    // A file the user names: the external commands it declares may run (`external::trust`).
    engine.trust().trust_named(&text, path);
    // A route's external branches, declared in files of their own that this one names.
    if params::route::is_route(&f.space) {
        for place in params::Member::workers(&f.space.members) {
            let command = format!("{place}{}{}", params::compose::SEP, params::external::COMMAND);
            if let Some(params::Value::Cat(c)) = f.space.param(&command).map(|p| &p.default) {
                engine.trust().trust_reached(c, path);
            }
        }
    }
    // A block model's stacked members declared in files of their own.
    for member in blocktrees::members::files(&f.space) {
        if let Ok(text) = params::read_file(Path::new(&member)) {
            engine.trust().trust_named(&text, Path::new(&member));
        }
    }
    // A parameter the family does not read (an unknown feature group, a misspelt name) is
    // found when the extractor is built: say where the file declares it.
    match build(engine, &f.setting) {
        Err(e) if e.path.is_none() && matches!(e.cause(), Some(crate::error::Cause::UnusedParameter(_))) => {
            Err(locate(e, path, &text))
        }
        _ => Ok(f),
    }
}

/// `e` with the file (`path`, whose text is `text`) and line where the parameter it names
/// ([`crate::error::Cause::UnusedParameter`]) is declared.
fn locate(e: Error, path: &Path, text: &str) -> Error {
    let Some(crate::error::Cause::UnusedParameter(name)) = e.cause().cloned() else {
        return e.with_path(path);
    };
    let line = text.lines().position(|l| {
        let l = l.trim_start().trim_start_matches("- ").trim_start();
        l == format!("name: {name}") || l.starts_with(&format!("{name}:"))
    });
    match line {
        Some(i) => e.with_path(path).with_line(i + 1, None),
        None => e.with_path(path),
    }
}

/// Parses the text of a parameter file; `path` names it in errors.
pub fn parse_str(text: &str, path: &Path) -> Result<ParamsFile> {
    let file = params::parse_str(text, path, &space)?;
    refuse_insane(&file.space, text, path)?;
    Ok(file)
}

/// Refuses a description whose range for a parameter leaves the `sane` range its family
/// declares (the range the extractor can run with in bounded memory and time): `accb` with
/// `r: {max: 1e9}` would allocate until the machine runs out, `blocktrees` with `trees` up to
/// 1e12 would never finish a fit. Every int and float parameter of a family declares one (a
/// test holds every family to it); a member's or branch's parameter (`accb.r`, `learned.trees`,
/// `main.ccb.r`) is bounded by its family's. The error names the file, the parameter's line and
/// the allowed range.
fn refuse_insane(described: &ParamSpace, text: &str, path: &Path) -> Result<()> {
    for p in &described.params {
        let Some([lo, hi]) = sane_of(described, &p.name, 0) else { continue };
        let (min, max) = match p.spec {
            crate::params::Spec::Int { min, max } => (min as f64, max as f64),
            crate::params::Spec::Float { min, max, .. } => (min, max),
            _ => continue,
        };
        if min < lo || max > hi {
            let err = Error::config(format!(
                "parameter '{}': the range [{min}, {max}] leaves the range the extractor can run with, [{lo}, {hi}]; keep min and max within it",
                p.name
            ))
            .with_path(path);
            return Err(match line_of_name(text, &p.name) {
                Some(l) => err.with_line(l, None),
                None => err,
            });
        }
    }
    Ok(())
}

/// The `sane` range of parameter `name` of `described`: its family's own, else, for a parameter
/// of one of its members or branches, that of its own name in the extractor the member runs.
/// `depth` bounds the walk.
fn sane_of(described: &ParamSpace, name: &str, depth: usize) -> Option<[f64; 2]> {
    let own = space(&described.extractor).ok().and_then(|s| s.param(name).and_then(|p| p.sane));
    if own.is_some() || depth > 4 {
        return own;
    }
    let (m, rest) = described.members.iter().find_map(|m| m.own(name).map(|rest| (m, rest)))?;
    sane_of(&space(&m.extractor).ok()?, rest, depth + 1)
}

/// The 1-based line that declares parameter `name` (`name: r` or `{name: r, ...}`).
fn line_of_name(text: &str, name: &str) -> Option<usize> {
    text.lines()
        .position(|l| {
            l.split("name:").skip(1).any(|rest| {
                let v = rest.trim_start().trim_start_matches(['"', '\'']);
                v.strip_prefix(name)
                    .is_some_and(|after| after.is_empty() || after.starts_with([',', '}', ' ', '"', '\'']))
            })
        })
        .map(|i| i + 1)
}

/// The page features (`document::page_features::FEATURES`) as a space, one parameter per
/// feature ranging over its scale: how a route description sees them.
fn feature_space() -> ParamSpace {
    use crate::params::{ParamSpec, Spec, Value};
    let params = crate::document::page_features::FEATURES
        .iter()
        .map(|f| {
            let (spec, default) = if f.integer {
                (Spec::Int { min: 0, max: f.max as i64 }, Value::Int(f.max as i64))
            } else {
                (Spec::Float { min: 0.0, max: f.max, step: None }, Value::Float(f.max))
            };
            ParamSpec {
                name: f.name.to_string(),
                spec,
                default,
                meaning: f.meaning.to_string(),
                tune: false,
                sane: None,
            }
        })
        .collect();
    ParamSpace {
        extractor: params::route::FEATURES.to_string(),
        kind: params::Kind::Family,
        description: "the page features".into(),
        params,
        correlated: Vec::new(),
        known_good: Vec::new(),
        members: Vec::new(),
        search: None,
    }
}

/// Builds the extractor a setting names, reading every parameter exactly once; `engine` reads
/// the model files it names (once) and runs its external workers. A route or a combination whose
/// setting names a model file applies the models it holds for its fitted members
/// ([`fitted::load`]).
pub fn build(engine: &Engine, setting: &Setting) -> Result<Box<dyn Extractor>> {
    match &setting.model {
        Some(path) if fitted::composite(setting) => build_with(engine, setting, &fitted::load(path, setting)?),
        _ => build_with(engine, setting, &fitted::Models::default()),
    }
}

/// [`build`] with the fitted models of the setting's places (a search's models, fitted out of
/// fold, see `objective::fit`).
pub fn build_with(engine: &Engine, setting: &Setting, models: &fitted::Models) -> Result<Box<dyn Extractor>> {
    if params::route::is_route_setting(setting) {
        return route::build(engine, setting, models);
    }
    if combine::is_combination(setting) {
        return combine::build(engine, setting, models);
    }
    if setting.kind == params::Kind::External {
        return external::build(engine, setting);
    }
    if let Some(fit) = fit_of(&setting.extractor) {
        if let Some(m) = models.here() {
            return fit.apply(engine, setting, m.model.clone());
        }
        // A fitted family's setting naming its model file: the engine reads it once.
        if let Some(path) = &setting.model {
            return fit.apply(engine, setting, engine.models().load(fit, path, &fit.key(setting))?);
        }
    }
    let f = family(&setting.extractor)?;
    let mut reader = setting.reader();
    let ex = (f.build)(&mut reader)?;
    reader.finish()?;
    Ok(ex)
}

/// What an extractor's output needs to become a keep-mask over the canonical words (a member of
/// a combination, a branch of a route): its own needs, the source view and, when it selects DOM
/// units or blocks, the word map that maps them to canonical words.
pub fn mask_needs(ex: &dyn Extractor) -> Needs {
    ex.needs() | if ex.view() == View::Source { Needs::SOURCE } else { Needs::WORDS }
}

/// What any setting of `space` can read of a page: a family's needs; for a combination the
/// union over all its members (any of them may be switched on) with what makes their masks
/// ([`mask_needs`]); for a route the page features and the union over all its branches (any
/// rule may send a page to any of them). Everything when the space's defaults do not build.
pub fn space_needs(engine: &Engine, space: &ParamSpace) -> Needs {
    space_reads(engine, space).unwrap_or(Needs::ALL)
}

/// What a run of `space` from `base` reads of a page: [`space_needs`] and what `base` itself
/// reads (its `--set` values, which the space's defaults do not hold).
pub fn run_needs(engine: &Engine, space: &ParamSpace, base: &Setting) -> Result<Needs> {
    Ok(space_needs(engine, space) | build(engine, base)?.needs())
}

fn space_reads(engine: &Engine, space: &ParamSpace) -> Option<Needs> {
    let member = |m: &params::Member| -> Option<Needs> {
        match m.kind {
            // An external member's worker reads the page's HTML; its text is aligned to the source words.
            params::Kind::External => Some(Needs::SOURCE | Needs::HTML),
            params::Kind::Combination | params::Kind::Route => space_reads(engine, &self::space(&m.extractor).ok()?),
            params::Kind::Family => {
                let sub = self::space(&m.extractor).ok()?;
                Some(mask_needs(build(engine, &sub.defaults()).ok()?.as_ref()))
            }
        }
    };
    if space.kind == params::Kind::Route {
        return space.members.iter().try_fold(Needs::FEATURES, |n, b| match b.kind {
            // An external branch: everything (its needs are not told apart yet).
            params::Kind::External => None,
            _ => Some(n | member(b)?),
        });
    }
    if space.members.is_empty() {
        // A block model's stacked members may be any of its slots' choices.
        let members = blocktrees::members::space_needs(engine, space).ok()? | blocktrees::space_needs(space);
        return build(engine, &space.defaults()).ok().map(|ex| ex.needs() | members);
    }
    space.members.iter().try_fold(Needs::SOURCE, |n, m| Some(n | member(m)?))
}

/// Runs an extractor on a document and renders the kept text.
pub fn extract_text(ex: &dyn Extractor, doc: &Document) -> Fallible<String> {
    Ok(doc.render(&extract_selection(ex, doc)?))
}

/// Runs an extractor on a document: the units it keeps (what the structured outputs lay out).
pub fn extract_selection(ex: &dyn Extractor, doc: &Document) -> Fallible<Selection> {
    let mut sel = Selection::new(ex.view());
    ex.extract(doc, &mut sel)?;
    Ok(sel)
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Helpers for the families' unit tests.
    use super::*;
    /// Builds `name` from its built-in defaults with `k=v` overrides.
    pub fn with(name: &str, sets: &[&str]) -> Box<dyn Extractor> {
        let space = space(name).unwrap();
        let s =
            space.with_assignments(&space.defaults(), &sets.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
        build(&Engine::default(), &s).unwrap()
    }

    /// Extracted text of `html` with `name` at its defaults plus overrides (the page parsed with
    /// every view and the family's own facts).
    pub fn run(name: &str, sets: &[&str], html: &str) -> String {
        let ex = with(name, sets);
        let doc = Document::parse_for(html, &Default::default(), Needs::ALL | ex.needs()).0;
        extract_text(ex.as_ref(), &doc).unwrap()
    }

    /// The command of an external worker (`refuser 1`, a shell script written into `dir`) that
    /// answers "the story" for a page, and the error "no article here" for a page holding
    /// `REFUSE`.
    pub fn refusing_worker(dir: &Path) -> String {
        std::fs::create_dir_all(dir).unwrap();
        let script = dir.join("refuser.sh");
        std::fs::write(
            &script,
            r#"echo '{"name": "refuser", "version": "1"}'
i=0
while IFS= read -r line; do
  i=$((i+1))
  case "$line" in
    *REFUSE*) echo "{\"id\": $i, \"error\": \"no article here\"}" ;;
    *) echo "{\"id\": $i, \"text\": \"the story\"}" ;;
  esac
done
"#,
        )
        .unwrap();
        format!("sh {}", script.display())
    }

    /// A combination of `full` and the external member `w` running `command` by `combinator`.
    pub fn with_external_member(command: &str, combinator: &str) -> Box<dyn Extractor> {
        let yaml = format!(
            "extractor: pair\nmembers: [full, w]\nparameters:\n  - {{name: combinator, type: categorical, choices: [{combinator}], default: {combinator}}}\n  - {{name: w.command, type: categorical, choices: [\"{command}\"], default: \"{command}\", tune: false}}\n"
        );
        let f = params::parse_str(&yaml, Path::new("pair.yaml"), &space).unwrap();
        build(&Engine::default(), &f.space.defaults()).unwrap()
    }
}
