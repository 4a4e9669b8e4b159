//! Reports: CSV files, Table 2 / Table 3 style tables, plots and the progress bar. Reports are
//! pure functions of results (scores, trials); nothing here parses HTML or recomputes fitness.

pub mod csv;
pub mod plot;
pub mod progress;
pub mod run;
pub mod table;

pub use progress::Progress;
pub use table::{Table3, Table3Row};

use crate::error::{Error, Result};
use std::path::Path;

/// Writes `text` to `path` atomically (temporary file, then rename), so a crash never leaves a
/// half-written report.
pub fn write_atomic(path: &Path, text: &[u8]) -> Result<()> {
    let tmp = path.with_extension(format!(
        "{}.tmp",
        path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default()
    ));
    std::fs::write(&tmp, text).map_err(|e| Error::io(path, "write", e))?;
    std::fs::rename(&tmp, path).map_err(|e| Error::io(path, "write", e))
}

/// Formats a score with three decimals, as the paper's tables do.
pub fn f3(x: f64) -> String {
    format!("{x:.3}")
}
