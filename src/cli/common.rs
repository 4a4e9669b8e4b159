//! Argument handling shared by several subcommands.

use crate::error::{Error, Result};
use crate::params::{ParamSpace, Setting, Spec};
use clap::Args;
use std::path::{Path, PathBuf};

/// How a command chooses its setting: an extractor name or a parameter file, plus overrides.
#[derive(Args, Debug, Clone, Default)]
pub struct SettingArgs {
    /// Extractor family (see `cetune extractors`); optional with --params.
    #[arg(long, short = 'e')]
    pub extractor: Option<String>,
    /// A parameter file (a params/*.yaml description or a run's best.yaml).
    #[arg(long)]
    pub params: Option<PathBuf>,
    /// Override a parameter: --set t=0.3 (repeatable; also t=0.3,min_chars=10).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub sets: Vec<String>,
}

impl SettingArgs {
    /// The parameter space and the chosen setting, validated.
    pub fn resolve(&self) -> Result<(ParamSpace, Setting)> {
        let (space, base) = match (&self.params, &self.extractor) {
            (Some(p), ex) => {
                let f = crate::extract::load_file(p)?;
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
            (None, Some(e)) => {
                let s = crate::extract::space(e)?;
                let d = s.defaults();
                (s, d)
            }
            (None, None) => {
                return Err(Error::config(
                    "name an extractor with --extractor NAME or a parameter file with --params FILE",
                ));
            }
        };
        let setting = space.with_assignments(&base, &self.sets)?;
        Ok((space, setting))
    }
}

/// A short label for a setting: the extractor and the values of its genes and of every fixed
/// parameter that differs from its default.
pub fn label(space: &ParamSpace, s: &Setting) -> String {
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

/// The embedded default gold set: `goldsets/default` under the current folder, else under the
/// source tree cetune was built from.
pub fn default_goldset() -> PathBuf {
    let local = PathBuf::from("goldsets/default");
    if local.is_dir() { local } else { Path::new(env!("CARGO_MANIFEST_DIR")).join("goldsets/default") }
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
