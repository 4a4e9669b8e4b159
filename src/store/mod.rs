//! The run folder: `run.yaml` (everything needed to understand and repeat the run), the
//! append-only `individuals.csv` journal, and the checkpoint written atomically after every
//! generation. Imports `evolve`, `params`, `report` (atomic writes), `yaml` and `error`.

mod journal;

pub use journal::{Journal, read_trials};

use crate::error::{Error, Result};
use crate::evolve::Config;
use crate::report::write_atomic;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The gold set a run was scored on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GoldsetRecord {
    /// Its name.
    pub name: String,
    /// Where it was read from.
    pub path: String,
    /// Content hash of pages and gold texts.
    pub content_hash: String,
    /// Documents in the (sample) set.
    pub documents: usize,
    /// Packages.
    pub packages: usize,
}

/// The best individual found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BestRecord {
    /// Fitness on the sample.
    pub fitness: f64,
    /// Mean precision on the sample.
    pub precision: f64,
    /// Mean recall on the sample.
    pub recall: f64,
    /// `name=value` of every parameter.
    pub values: Vec<String>,
}

/// `run.yaml`: the run's settings, inputs and outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// cetune's version.
    pub cetune_version: String,
    /// The command line.
    pub command: String,
    /// The extractor.
    pub extractor: String,
    /// The parameter description file given with --params (if any).
    pub params_file: Option<String>,
    /// The text of the parameter description used (so the run can be read without the file).
    pub params_yaml: String,
    /// `name=value` assignments that fix the non-tuned parameters (`--set`).
    pub sets: Vec<String>,
    /// Individuals added with --individual.
    pub individuals: Vec<String>,
    /// The gold set.
    pub goldset: GoldsetRecord,
    /// The objective (`f1`, `fbeta:B`, `recall-at-precision:P`).
    pub objective: String,
    /// Worker threads.
    pub threads: usize,
    /// The optimiser's settings (seed, population, operators, stopping).
    pub config: Config,
    /// UTC start time.
    pub started: String,
    /// `running`, `finished` or `interrupted`.
    pub status: String,
    /// Why the run stopped.
    pub reason: Option<String>,
    /// Distinct settings evaluated.
    pub evaluations: usize,
    /// Wall time of the run so far, in seconds (summed over resumed parts).
    pub wall_seconds: f64,
    /// The best individual.
    pub best: Option<BestRecord>,
}

/// File names inside a run folder.
pub mod files {
    /// Run record.
    pub const RUN: &str = "run.yaml";
    /// Journal of every individual.
    pub const INDIVIDUALS: &str = "individuals.csv";
    /// Per-generation statistics.
    pub const GENERATIONS: &str = "generations.csv";
    /// Checkpoint.
    pub const CHECKPOINT: &str = "checkpoint.yaml";
}

/// Creates a run folder; an existing non-empty folder is refused unless `force` (then cleared).
pub fn create_run_dir(dir: &Path, force: bool) -> Result<()> {
    if dir.exists() && std::fs::read_dir(dir).map(|mut d| d.next().is_some()).unwrap_or(false) {
        if !force {
            return Err(Error::config(format!(
                "run folder already exists; resume it with --resume {} or overwrite it with --force",
                dir.display()
            ))
            .with_path(dir));
        }
        std::fs::remove_dir_all(dir).map_err(|e| Error::io(dir, "clear run folder", e))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::config(format!("cannot create run folder: {e}")).with_path(dir))?;
    let probe = dir.join(".write-test");
    std::fs::write(&probe, b"")
        .map_err(|e| Error::config(format!("run folder is not writable: {e}")).with_path(dir))?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}

/// Writes a YAML file atomically.
pub fn write_yaml<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    write_atomic(path, crate::yaml::to_string(value)?.as_bytes())
}

/// Reads a YAML file written by [`write_yaml`].
pub fn read_yaml<T: DeserializeOwned>(path: &Path) -> Result<T> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, "read", e).with_path(path))?;
    from_str(&text, path)
}

/// Parses the text of a `run.yaml` or `checkpoint.yaml`; `path` names it in errors.
pub fn from_str<T: DeserializeOwned>(text: &str, path: &Path) -> Result<T> {
    crate::yaml::from_str(text, path, |m| Error::input(format!("malformed file: {m}")))
}

/// The checkpoint: the optimiser's state after a generation and how many journal rows belong
/// to it (rows past that are from an unfinished generation and are dropped on resume).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint<S> {
    /// The optimiser state (population, fitness, stagnation, generation).
    pub state: S,
    /// Rows of `individuals.csv` written up to this state.
    pub journal_rows: usize,
    /// Wall time so far, in seconds.
    pub wall_seconds: f64,
}

/// Paths of a run folder's files.
pub fn path(dir: &Path, file: &str) -> PathBuf {
    dir.join(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn existing_run_folder_needs_force() {
        let d = std::env::temp_dir().join(format!("cetune-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        create_run_dir(&d, false).unwrap();
        std::fs::write(d.join("run.yaml"), "x").unwrap();
        let e = create_run_dir(&d, false).unwrap_err();
        assert!(e.to_string().contains("run folder already exists; resume it with --resume"), "{e}");
        create_run_dir(&d, true).unwrap();
        assert!(!d.join("run.yaml").exists());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn checkpoint_and_run_floats_round_trip_bit_exactly() {
        let d = std::env::temp_dir().join(format!("cetune-store-floats-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let xs = vec![0.1 + 0.2, 1e-300, 5e-324, -0.0, 1.0 / 3.0, f64::MAX, 2.0f64.powi(60) + 1.0];
        let c = Checkpoint { state: xs.clone(), journal_rows: 7, wall_seconds: 0.1 + 0.7 };
        let p = d.join(files::CHECKPOINT);
        write_yaml(&p, &c).unwrap();
        let back: Checkpoint<Vec<f64>> = read_yaml(&p).unwrap();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back.state), bits(&xs));
        assert_eq!(back.wall_seconds.to_bits(), (0.1f64 + 0.7).to_bits());
        let config = Config { epsilon: 1e-300, blx_alpha: 0.1 + 0.2, ..Config::default() };
        let p = d.join("config.yaml");
        write_yaml(&p, &config).unwrap();
        assert_eq!(read_yaml::<Config>(&p).unwrap(), config);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn hostile_run_files_are_input_errors_with_line_and_column() {
        let d = std::env::temp_dir().join(format!("cetune-store-deep-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let p = d.join(files::CHECKPOINT);
        std::fs::write(&p, "[ ".repeat(100_000)).unwrap();
        let e = read_yaml::<Checkpoint<Vec<f64>>>(&p).unwrap_err();
        assert_eq!(e.exit_code(), 1);
        assert!(e.line.is_some() && e.column.is_some() && e.message.starts_with("malformed file: "), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
