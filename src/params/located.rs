//! What the parser (`yaml`) hands the completers of a combination, a route and an external
//! extractor (`combine`, `route`, `external`): values with their places in the file, the error
//! that names a place, the lookup of built-in descriptions and the reader of a settings file a
//! route's branch names. Below all four, so the parser calls them and they never call back.

use super::space::ParamSpace;
use super::value::Setting;
use crate::error::{Error, Result};
use std::path::Path;

/// Finds the built-in parameter space of an extractor by name: how a settings file without
/// `parameters` (a run's `best.yaml`) gets its space. The family table (`extract::space`) is the
/// one implementation; `params` cannot see it, so callers pass it in.
pub type Builtin<'a> = dyn Fn(&str) -> Result<ParamSpace> + 'a;

/// A value with the place (line, column) of its node in the file.
pub(super) type At<T> = serde_saphyr::Spanned<T>;

/// Makes the error for a place in the file being parsed.
pub(super) type AtFn<'a> = dyn Fn(serde_saphyr::Location, String) -> Error + 'a;

/// Reads another parameter file (a route's branch written as a settings file) into its space
/// and setting, the way the parser reads the file that names it.
pub(super) type ReadFile<'a> = dyn Fn(&Path) -> Result<(ParamSpace, Setting)> + 'a;
