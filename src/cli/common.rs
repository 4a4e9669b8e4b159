//! Argument handling shared by several subcommands.

use crate::error::{Error, Result};
use crate::limits::{Limits, MB};
use crate::params::{ParamSpace, Setting, Spec};
use clap::Args;
use std::path::PathBuf;

/// How a command chooses its setting: an extractor name or a parameter file, plus overrides.
#[derive(Args, Debug, Clone, Default)]
pub struct SettingArgs {
    /// Extractor family or combination (`cetune extractors` describes each); optional with
    /// --params.
    #[arg(long, short = 'e', value_name = "NAME", value_parser = super::values::extractor())]
    pub extractor: Option<String>,
    /// A parameter file (a params/*.yaml description or a run's best.yaml).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Override a parameter: --set t=0.3 (repeatable; also t=0.3,min_chars=10).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
}

impl SettingArgs {
    /// What the setting is read from (the parameter file), which no output may replace.
    pub fn reads(&self) -> crate::paths::Reads {
        let mut r = crate::paths::Reads::new();
        self.params.iter().for_each(|p| r.add(p, "the parameter file"));
        r
    }

    /// The parameter space and the chosen setting, validated.
    pub fn resolve(&self, engine: &crate::extract::Engine) -> Result<(ParamSpace, Setting)> {
        let (space, base) = match (&self.params, &self.extractor) {
            (Some(p), ex) => {
                let f = crate::extract::load_file(engine, p)?;
                if let Some(e) = ex
                    && *e != f.space.extractor
                {
                    return Err(Error::config(format!(
                        "--extractor {e} disagrees with --params {}, which is for '{}'",
                        p.display(),
                        f.space.extractor
                    )));
                }
                (f.space, f.setting)
            }
            (None, Some(e)) => crate::extract::named(engine, e)?,
            (None, None) => {
                return Err(Error::config(
                    "name an extractor with --extractor NAME or a parameter file with --params FILE",
                ));
            }
        };
        let setting = space.with_assignments(&base, &self.sets)?;
        Ok((space, setting))
    }

    /// [`SettingArgs::resolve`] for a command that applies the setting as it is (`extract`,
    /// `evaluate`): a fitted family without a model says so, since it then runs its untrained
    /// prior (a `best.yaml` that lost its `model:` line would otherwise pass for the tuned model).
    /// With neither `--extractor` nor `--params`, the general model ([`crate::extract::general`]).
    pub fn resolve_to_apply(&self, engine: &crate::extract::Engine) -> Result<(ParamSpace, Setting)> {
        let (space, setting) = match (&self.params, &self.extractor) {
            (None, None) => {
                let (space, base) = crate::extract::named(engine, crate::extract::general::NAME)?;
                let setting = space.with_assignments(&base, &self.sets)?;
                (space, setting)
            }
            _ => self.resolve(engine)?,
        };
        if crate::objective::fit::needs_fit(&setting) {
            let from = self.params.as_ref().map_or(String::new(), |p| format!(" ({} names no `model:`)", p.display()));
            eprintln!(
                "cetune: warning: {} has no fitted model{from}: it scores with its untrained prior, far below a fitted one; `cetune optimise` fits one and its best.yaml names it",
                setting.extractor
            );
        }
        Ok((space, setting))
    }
}

/// The per-page budgets ([`Limits`]), for the commands that read pages.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Largest page in MB (2^20 bytes) after decompression: a larger page is an error row.
    #[arg(long, value_name = "MB", default_value_t = Limits::default().max_page_bytes / MB)]
    pub max_page_mb: u64,
    /// Attributes kept per tag: the rest are dropped, with a warning.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_attrs)]
    pub max_attrs: usize,
    /// Markup characters (`<` and `&`) read per page: the page is cut before the next one,
    /// with a warning.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_markup)]
    pub max_markup: usize,
    /// Seconds the parser may take per page: the rest of the page is dropped, with a warning.
    #[arg(long, value_name = "SECONDS", default_value_t = Limits::default().max_parse.as_secs_f64())]
    pub max_parse_secs: f64,
}

impl LimitArgs {
    /// The budgets, checked.
    pub fn limits(&self) -> Result<Limits> {
        if self.max_page_mb == 0 || self.max_markup == 0 {
            return Err(Error::config("--max-page-mb and --max-markup must be at least 1"));
        }
        if !(self.max_parse_secs.is_finite() && self.max_parse_secs > 0.0) {
            return Err(Error::config("--max-parse-secs must be a positive number of seconds"));
        }
        Ok(Limits {
            max_page_bytes: self.max_page_mb.saturating_mul(MB),
            max_attrs: self.max_attrs,
            max_markup: self.max_markup,
            max_parse: std::time::Duration::from_secs_f64(self.max_parse_secs.min(1e9)),
        })
    }
}

/// A short label for a setting: the extractor and the values of its genes and of every fixed
/// parameter that differs from its default.
pub fn label(space: &ParamSpace, s: &Setting) -> String {
    if let Some(structure) = crate::params::combine::describe(space, s) {
        return format!("{} {structure}", s.extractor);
    }
    let parts: Vec<String> = space
        .params
        .iter()
        .filter_map(|p| {
            let v = s.get(&p.name)?;
            (p.tune || *v != p.default).then(|| format!("{}={v}", p.name))
        })
        .collect();
    if parts.is_empty() { s.extractor.clone() } else { format!("{} {}", s.extractor, parts.join(",")) }
}

/// The embedded default gold set ([`crate::paths::default_goldset`]).
pub fn default_goldset() -> PathBuf {
    crate::paths::default_goldset()
}

/// A `--goldset` value: a folder, or `default` for the embedded default gold set when no folder
/// of that name is here, so the README's commands work from any folder once `cetune` is
/// installed.
pub fn gold_path(value: &str) -> std::result::Result<PathBuf, String> {
    let path = PathBuf::from(value);
    Ok(if value == crate::paths::DEFAULT && !path.exists() { default_goldset() } else { path })
}

/// UTC time as `YYYYMMDD-HHMMSS`, for folder names.
pub fn timestamp() -> String {
    crate::store::timestamp()
}

/// Describes a parameter's type and range for listings.
pub fn describe(spec: &Spec) -> (&'static str, String) {
    let kind = match spec {
        Spec::Float { .. } => "float",
        Spec::Int { .. } => "int",
        Spec::Categorical { .. } => "categorical",
        Spec::Bool => "bool",
    };
    (kind, spec.range_text())
}

/// `--field NAME` (evaluate, compare, optimise): makes `set` the gold set of that field
/// ([`crate::goldset::fields::restrict`]) and returns the measure to score it by: `date` pages
/// are judged by "contains a rendering of the gold date", every other field by `measure`.
pub fn field_mode(
    set: &mut crate::goldset::GoldSet,
    field: &str,
    measure: crate::eval::Measure,
) -> Result<crate::eval::Measure> {
    crate::extract::segments::check_field(field)?;
    crate::goldset::fields::restrict(set, field)?;
    Ok(if field == "date" { crate::eval::Measure::Date } else { measure })
}

/// The extractor of `setting` seen through `--field NAME`; prints a note when its family gives
/// no segments (it then scores 0 on the field, which is a result, not an error).
pub fn field_extractor(
    engine: &crate::extract::Engine,
    setting: &Setting,
    field: &str,
) -> Result<Box<dyn crate::extract::Extractor>> {
    let ex = crate::extract::build(engine, setting)?;
    if field != "body" && matches!(ex.segments(&crate::document::Document::parse("")), Ok(None)) {
        eprintln!("cetune: note: {} gives no segments: it scores 0 on field '{field}'", setting.extractor);
    }
    crate::extract::segments::FieldView::wrap(ex, field)
}

/// The line under a field's table: exact-words accuracy (title, author: pages whose returned
/// words equal the gold's, F1 = 1), date accuracy (pages whose returned text contains the date).
pub fn field_accuracy(field: &str, scores: &[crate::objective::score::DocScore]) -> String {
    let correct = scores.iter().filter(|s| s.error.is_none() && s.prf.f1 >= 1.0).count();
    let fired = scores.iter().filter(|s| s.error.is_none() && s.extract_words > 0).count();
    let what = if field == "date" { "contains the gold date" } else { "exact words" };
    format!(
        "field {field}: {what} on {correct} of {} pages ({:.1}%); returned on {fired}; correct where returned {:.1}%",
        scores.len(),
        100.0 * correct as f64 / scores.len().max(1) as f64,
        100.0 * correct as f64 / fired.max(1) as f64
    )
}
