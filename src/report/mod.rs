//! Reports: CSV files, Table 2 / Table 3 style tables, plots and the progress bar. Reports are
//! pure functions of results (scores, trials); nothing here parses HTML or recomputes fitness.
//! Imports from the crate: `evolve` (trial types), `eval` (score types), `params` and `error`.

pub mod csv;
pub mod html;
pub mod importance;
pub mod plot;
pub mod progress;
pub mod run;
pub mod table;

pub use progress::Progress;
pub use table::{Table3, Table3Row};

use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// Writes `text` to `path` atomically and durably: the bytes go to a temporary file beside it,
/// which is fsynced, renamed over `path`, and then the folder is fsynced so the rename itself
/// survives a power loss. A crash leaves either the old file or the new one, never a
/// half-written or (after the rename) an empty one.
pub fn write_atomic(path: &Path, text: &[u8]) -> Result<()> {
    let tmp = path.with_extension(format!(
        "{}.tmp",
        path.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default()
    ));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text)?;
        f.sync_all()
    };
    write().map_err(|e| Error::io(path, "write", e))?;
    std::fs::rename(&tmp, path).map_err(|e| Error::io(path, "write", e))?;
    sync_dir(path).map_err(|e| Error::io(path, "sync the folder of", e))
}

/// Fsyncs the folder holding `path`, so a rename or a new entry in it is on disk. Only Unix can
/// open a folder for syncing; elsewhere the rename is as durable as the platform makes it.
fn sync_dir(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        std::fs::File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Formats a score with three decimals, as the paper's tables do.
pub fn f3(x: f64) -> String {
    if x.is_nan() { "-".into() } else { format!("{x:.3}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_atomic_replaces_the_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("cetune-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.yaml");
        write_atomic(&path, b"old").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no run.yaml.tmp left behind");
        let _ = std::fs::remove_dir_all(&dir);
        // A bare file name syncs the current folder (its parent is the empty path).
        assert!(sync_dir(Path::new("Cargo.toml")).is_ok());
    }
}
