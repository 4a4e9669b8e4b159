//! The run folder: `run.yaml` (everything needed to understand and repeat the run), the
//! append-only `individuals.csv` journal, and the checkpoint written atomically after every
//! generation. Imports from the crate: `evolve`, `params`, `report` (atomic writes, the CSV
//! writer), `paths` (the output-folder safety rule), `yaml` and `error`.

mod folder;
mod journal;

pub use folder::{LOCK, RunLock, create_run_dir, prepare_out, unique_dir};
pub use journal::{Journal, read_rows, read_trials};

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
    /// Where it was read from, never an absolute path of one machine (`paths::recorded`): as
    /// given when relative (to the working folder the run started in), else relative to it, or
    /// `$CETUNE_SCRATCH/...`. Older run folders hold an absolute path, read as it is.
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
    /// The standard error of `fitness` over the sample's documents (its noise).
    #[serde(default)]
    pub sem: f64,
    /// `name=value` of every parameter.
    pub values: Vec<String>,
}

/// What racing (`--racing`) spent and saved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RacingRecord {
    /// The test that drops a setting.
    pub test: String,
    /// Its level.
    pub alpha: f64,
    /// Training documents after each stage.
    pub stages: Vec<usize>,
    /// Document evaluations used (a full evaluation counts every training document, a dropped
    /// setting the documents it saw).
    pub document_evaluations: usize,
    /// Document evaluations the same settings would have cost without racing.
    pub without_racing: usize,
    /// `1 − document_evaluations / without_racing`.
    pub saved_share: f64,
    /// Settings dropped before the full sample.
    pub dropped: usize,
}

/// A multi-fidelity run's spending (`--strategy hyperband`): what each generation (a rung)
/// scored at which fidelity, and how many settings went on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FidelityRecord {
    /// The strategy and its constants.
    pub strategy: String,
    /// Settings newly scored (cache misses), at any fidelity.
    pub evaluations: usize,
    /// Of those, the ones scored on every training document.
    pub full_evaluations: usize,
    /// Settings scored again at a higher fidelity than before.
    pub promotions: usize,
    /// Document evaluations used (a promotion counts only its new documents).
    pub document_evaluations: usize,
    /// Document evaluations if every setting scored had been scored fully.
    pub without_fidelities: usize,
    /// One row per generation.
    pub rungs: Vec<RungRecord>,
}

/// One generation of a multi-fidelity run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RungRecord {
    /// The generation.
    pub generation: usize,
    /// The documents each setting was scored on.
    pub documents: usize,
    /// Their share of the training documents.
    pub fidelity: f64,
    /// The settings of the generation.
    pub settings: usize,
    /// Of those, the ones promoted from a lower fidelity.
    pub promoted: usize,
    /// The best fitness of the generation at its fidelity.
    pub best: f64,
}

/// The generalisation estimate (`--validation`): documents held out from the search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValidationRecord {
    /// The share held out.
    pub fraction: f64,
    /// Documents the search saw.
    pub training_documents: usize,
    /// Documents held out.
    pub validation_documents: usize,
    /// The chosen (best) setting's fitness on the training documents.
    pub training: f64,
    /// Its fitness on the validation documents (the same objective).
    pub validation: f64,
    /// The standard error of `validation` over the validation documents.
    pub validation_sem: f64,
    /// `training − validation`: how much the search's figure overstates the setting on unseen
    /// documents.
    pub gap: f64,
}

/// `--objective pareto`: the front's size and the point `--pick` chose for `best.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParetoRecord {
    /// How the point is chosen: `f1`, `precision>=P` or `recall>=R`.
    pub pick: String,
    /// Points on the front (distinct settings no other dominates).
    pub points: usize,
    /// The chosen point (absent until the run has reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<ParetoPoint>,
}

/// A point of the Pareto front.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParetoPoint {
    /// Its trial number in the journal.
    pub trial: usize,
    /// Mean precision.
    pub precision: f64,
    /// Mean recall.
    pub recall: f64,
    /// Mean F1.
    pub f1: f64,
}

/// A warm start: generation 0 also received the top individuals of another run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WarmStart {
    /// The other run's folder, as given.
    pub run: String,
    /// How many of its top distinct individuals were asked for (`--warm-top`).
    pub top: usize,
    /// Their genomes, best first (exact, so a restart injects the same ones).
    pub genomes: Vec<Vec<f64>>,
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
    /// `--warm-start`: another run's top individuals, added to generation 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warm_start: Option<WarmStart>,
    /// The gold set.
    pub goldset: GoldsetRecord,
    /// The objective (`f1`, `fbeta:B`, `recall-at-precision:P`).
    pub objective: String,
    /// The measure pages are scored by (`lcs`, `bow`, `shingle4`); written only when it is not
    /// the default `lcs`, so earlier run folders read (and rewrite) unchanged.
    #[serde(default = "lcs", skip_serializing_if = "is_lcs")]
    pub measure: String,
    /// The gold field the fitness scores (`optimise --field`); absent: the body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
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
    /// A combination's member-output cache in this process (the last part of a resumed run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member_cache: Option<MemberCacheRecord>,
    /// The process's peak memory against the pages it holds (the last part of a resumed run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<MemoryRecord>,
    /// `--racing`: document evaluations used and saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub racing: Option<RacingRecord>,
    /// A multi-fidelity strategy (`--strategy hyperband`): fidelities, promotions, savings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fidelity: Option<FidelityRecord>,
    /// `--validation`: the training–validation gap of the chosen setting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation: Option<ValidationRecord>,
    /// `--objective pareto`: the front and the chosen point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pareto: Option<ParetoRecord>,
    /// Each time the run was extended (`optimise --resume RUN --max-generations N` or
    /// `--patience P`), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extended: Vec<Extension>,
    /// The best setting paired with the default on the tuning documents (per-document F1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paired: Option<PairedRecord>,
    /// The history plot also draws each generation's worst fitness (`optimise --plot-worst`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub plot_worst: bool,
}

/// Peak resident memory of an `optimise` process against the pages it parsed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryRecord {
    /// Peak resident set size of the process (Linux `VmHWM`), in MB (10^6 bytes).
    pub peak_rss_mb: f64,
    /// Pages parsed (training and validation documents that could be read).
    pub pages: usize,
    /// Their decoded HTML, in MB (10^6 bytes).
    pub html_mb: f64,
    /// Peak resident memory per page, in KB (10^3 bytes).
    pub per_page_kb: f64,
    /// Peak resident memory per MB of HTML (1.0: as much memory as the HTML takes).
    pub per_html_mb: f64,
    /// The views and facts each page holds (what the extractor reads: `Needs::label`).
    pub facts: String,
}

/// Hits and misses of the member-output cache of a combination run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemberCacheRecord {
    /// Member outputs served from the cache.
    pub hits: u64,
    /// Member outputs computed.
    pub misses: u64,
    /// hits / (hits + misses).
    pub hit_rate: f64,
    /// The cache's bound in MB (`--member-cache-mb`).
    pub limit_mb: usize,
}

fn lcs() -> String {
    "lcs".into()
}

fn is_lcs(m: &str) -> bool {
    m == "lcs"
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

/// UTC time as `YYYYMMDD-HHMMSS`, for run folder names.
pub fn timestamp() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}{m:02}{d:02}-{:02}{:02}{:02}", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// Writes a YAML file atomically, sealed ([`crate::yaml::seal`]: a copy cut short is refused).
pub fn write_yaml<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    write_atomic(path, crate::yaml::seal(&crate::yaml::to_string(value)?).as_bytes())
}

/// Reads a YAML file written by [`write_yaml`].
pub fn read_yaml<T: DeserializeOwned>(path: &Path) -> Result<T> {
    let what = path.file_name().map_or("run file".into(), |n| n.to_string_lossy().into_owned());
    let text = crate::paths::read_capped_text(path, crate::yaml::MAX_BYTES as u64, &what)?;
    from_str(&text, path)
}

/// Parses the text of a `run.yaml` or `checkpoint.yaml`; `path` names it in errors.
pub fn from_str<T: DeserializeOwned>(text: &str, path: &Path) -> Result<T> {
    crate::yaml::from_str(text, path, |m| Error::input(format!("malformed file: {m}")))
}

/// Everything in `run.yaml` that decides a fitness or the course of the search. The checkpoint
/// keeps a copy, so a resume can refuse a `run.yaml` (or gold set) edited mid-run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunInputs {
    /// The extractor.
    pub extractor: String,
    /// The parameter description's text.
    pub params_yaml: String,
    /// `--set` assignments.
    pub sets: Vec<String>,
    /// `--individual`s.
    pub individuals: Vec<String>,
    /// The warm start, if any.
    #[serde(default)]
    pub warm_start: Option<WarmStart>,
    /// The objective.
    pub objective: String,
    /// The measure (absent in checkpoints written before it was recorded: `lcs`).
    #[serde(default = "lcs", skip_serializing_if = "is_lcs")]
    pub measure: String,
    /// The gold set's content hash (pages, gold texts and `goldset.yaml`).
    pub goldset_hash: String,
    /// The optimiser's settings.
    pub config: Config,
}

impl RunInputs {
    /// The inputs recorded in a run record.
    pub fn of(record: &RunRecord) -> RunInputs {
        RunInputs {
            extractor: record.extractor.clone(),
            params_yaml: record.params_yaml.clone(),
            sets: record.sets.clone(),
            individuals: record.individuals.clone(),
            warm_start: record.warm_start.clone(),
            objective: record.objective.clone(),
            measure: record.measure.clone(),
            goldset_hash: record.goldset.content_hash.clone(),
            config: record.config.clone(),
        }
    }

    /// The names of the inputs that differ between `self` (as the run started) and `now`.
    pub fn changed(&self, now: &RunInputs) -> Vec<String> {
        let mut out = Vec::new();
        let mut check = |name: &str, same: bool| {
            if !same {
                out.push(name.to_string());
            }
        };
        check("extractor", self.extractor == now.extractor);
        check("params_yaml", self.params_yaml == now.params_yaml);
        check("sets", self.sets == now.sets);
        check("individuals", self.individuals == now.individuals);
        check("warm_start", self.warm_start == now.warm_start);
        check("objective", self.objective == now.objective);
        check("measure", self.measure == now.measure);
        check("the gold set (content hash)", self.goldset_hash == now.goldset_hash);
        // Config fields one by one, through their JSON form, so every field counts by name.
        let (a, b) = (fields(&self.config), fields(&now.config));
        for (k, v) in &a {
            check(&format!("config.{k}"), b.get(k) == Some(v));
        }
        for k in b.keys().filter(|k| !a.contains_key(*k)) {
            check(&format!("config.{k}"), false);
        }
        out
    }
}

/// A serialisable struct's top-level fields as `name → JSON text`.
fn fields<T: Serialize>(value: &T) -> std::collections::BTreeMap<String, String> {
    let text = serde_json::to_value(value).unwrap_or(serde_json::Value::Null);
    match text {
        serde_json::Value::Object(m) => m.into_iter().map(|(k, v)| (k, v.to_string())).collect(),
        _ => Default::default(),
    }
}

/// The best setting against the default on the same documents: mean per-document F1
/// difference, its paired-bootstrap 95% interval and the Wilcoxon signed-rank test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairedRecord {
    /// The baseline (`default: <setting>`).
    pub baseline: String,
    /// The baseline's mean per-document F1.
    pub baseline_f1: f64,
    /// The best setting's mean per-document F1.
    pub best_f1: f64,
    /// Documents compared.
    pub documents: usize,
    /// Mean per-document difference best − baseline.
    pub mean_diff: f64,
    /// 95% paired-bootstrap interval of the difference.
    pub ci95: [f64; 2],
    /// Documents where the best is better, worse, equal.
    pub better: usize,
    /// Documents where the best is worse.
    pub worse: usize,
    /// Documents with equal scores.
    pub equal: usize,
    /// Two-sided p-value of the Wilcoxon signed-rank test.
    pub p: f64,
    /// In words.
    pub verdict: String,
}

/// One extension of a run's limits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Extension {
    /// The last generation made before the extension.
    pub after_generation: usize,
    /// When (UTC, `YYYYMMDD-HHMMSS`).
    pub at: String,
    /// The generation limit, before and after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_generations: Option<[usize; 2]>,
    /// The patience, before and after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patience: Option<[usize; 2]>,
}

/// The checkpoint: the optimiser's state after a generation and how many journal rows belong
/// to it (rows past that are from an unfinished generation and are dropped on resume).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint<S> {
    /// The optimiser state (population, fitness, stagnation, generation).
    pub state: S,
    /// The run's inputs when it started (absent in checkpoints of cetune before 0.2).
    #[serde(default)]
    pub inputs: Option<RunInputs>,
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
    fn checkpoint_and_run_floats_round_trip_bit_exactly() {
        let d = std::env::temp_dir().join(format!("cetune-store-floats-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let xs = vec![0.1 + 0.2, 1e-300, 5e-324, -0.0, 1.0 / 3.0, f64::MAX, 2.0f64.powi(60) + 1.0];
        let c = Checkpoint { state: xs.clone(), inputs: None, journal_rows: 7, wall_seconds: 0.1 + 0.7 };
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
    fn the_measure_is_a_run_input_and_absent_means_lcs() {
        let old = RunInputs {
            extractor: "x".into(),
            params_yaml: String::new(),
            sets: Vec::new(),
            individuals: Vec::new(),
            objective: "f1".into(),
            measure: "lcs".into(),
            goldset_hash: "h".into(),
            config: Config::default(),
            warm_start: None,
        };
        // The default measure is not written, so checkpoints from before it existed read the same.
        let text = crate::yaml::to_string(&old).unwrap();
        assert!(!text.contains("measure"), "{text}");
        let d = std::env::temp_dir().join(format!("cetune-store-measure-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let p = d.join("inputs.yaml");
        std::fs::write(&p, &text).unwrap();
        let back: RunInputs = read_yaml(&p).unwrap();
        std::fs::remove_dir_all(&d).unwrap();
        assert_eq!(back, old);
        let now = RunInputs { measure: "bow".into(), ..old.clone() };
        assert_eq!(old.changed(&now), ["measure"]);
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
