//! Parameter spaces: the YAML descriptions in `params/` (the blueprint of all individuals,
//! Gottron 2009 Figure 2), their validation, and concrete settings.
//!
//! A [`ParamSpace`] lists typed parameters with ranges, precision, defaults and meanings, the
//! known-good individuals from the literature and the correlated parameters. A [`Setting`] gives
//! a value to every parameter; [`compose`] namespaces and composes spaces (`accb.r`, `lqf.t`).
//! Imports from the crate: `error`, `yaml` and `paths` (the bounded reader).

pub mod combine;
pub mod compose;
pub mod external;
pub mod route;
mod space;
mod value;
mod yaml;

pub use space::{KnownGood, ParamSpace, ParamSpec, Spec, snap};
pub use value::{Kind, Setting, SettingReader, Value};
pub use yaml::{About, Builtin, ParamsFile, load_file, parse_str, read_file, read_model_file, settings_file};
