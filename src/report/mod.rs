//! Reports: CSV files, Table 2 / Table 3 style tables, plots and the progress bar (the plots and
//! a run's tables, `plot`, `run`, `importance`, come with the `cli` feature). Reports are
//! pure functions of results (scores, trials); nothing here parses HTML or recomputes fitness.
//! Imports from the crate: `evolve` (trial types), `eval` (score types), `params`, `paths` (the safe-write layer) and `error`.

pub mod csv;
pub mod html;
#[cfg(feature = "cli")]
pub mod importance;
#[cfg(feature = "cli")]
pub mod plot;
pub mod progress;
#[cfg(feature = "cli")]
pub mod run;
pub mod table;

pub use progress::Progress;
pub use table::{Table3, Table3Row};

/// Writes a file atomically and durably, never through a symlink: the crate's one safe-write
/// layer ([`crate::paths::write_atomic`]).
pub use crate::paths::write_atomic;

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
        assert!(crate::paths::sync_dir(std::path::Path::new("Cargo.toml")).is_ok());
    }
}
