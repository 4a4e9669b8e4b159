//! `individuals.csv`: one row per evaluated individual, appended and synced as each batch ends,
//! with values exact enough (shortest round-trip floats) to rebuild the fitness cache on resume.
//! A torn last line (a crash mid-write) is ignored when reading.

use crate::error::{Error, Result};
use crate::evolve::{Fitness, Trial};
use crate::params::{ParamSpace, Value};
use crate::report::csv;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The journal writer.
pub struct Journal {
    path: PathBuf,
    file: File,
    rows: usize,
}

/// Column names: `trial, generation, <tuned parameters>, fitness, precision, recall, feasible,
/// cached, milliseconds`.
pub fn header(space: &ParamSpace) -> Vec<String> {
    let mut h: Vec<String> = vec!["trial".into(), "generation".into()];
    h.extend(space.genes().into_iter().map(|i| space.params[i].name.clone()));
    h.extend(["fitness", "precision", "recall", "feasible", "cached", "milliseconds"].map(String::from));
    h
}

/// The CSV cells of one trial.
pub fn cells(space: &ParamSpace, t: &Trial) -> Vec<String> {
    let mut cells = vec![t.number.to_string(), t.generation.to_string()];
    for (g, i) in space.genes().into_iter().enumerate() {
        let v = space.params[i].spec.from_internal(t.genome.get(g).copied().unwrap_or(0.0));
        cells.push(v.to_string());
    }
    let f = &t.fitness;
    cells.extend([
        f.value.to_string(),
        f.precision.to_string(),
        f.recall.to_string(),
        f.feasible.to_string(),
        t.cached.to_string(),
        format!("{:.3}", f.ms),
    ]);
    cells
}

impl Journal {
    /// Starts a new journal (header only).
    pub fn create(path: &Path, space: &ParamSpace) -> Result<Journal> {
        let mut file = File::create(path).map_err(|e| Error::io(path, "create", e))?;
        let head = csv::to_bytes([header(space)]).map_err(|e| e.with_path(path))?;
        file.write_all(&head).map_err(|e| Error::io(path, "write", e))?;
        Ok(Journal { path: path.to_path_buf(), file, rows: 0 })
    }

    /// Reopens a journal keeping its first `rows` rows (later rows belong to a generation that
    /// did not finish and will be recomputed).
    pub fn reopen(path: &Path, rows: usize) -> Result<Journal> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, "read", e))?;
        let kept: Vec<&str> = text.lines().take(rows + 1).collect();
        if kept.len() < rows + 1 {
            return Err(Error::input(format!(
                "journal has {} rows but the checkpoint expects {rows}",
                kept.len().saturating_sub(1)
            ))
            .with_path(path));
        }
        let mut body = kept.join("\n");
        body.push('\n');
        crate::report::write_atomic(path, body.as_bytes())?;
        let file = OpenOptions::new().append(true).open(path).map_err(|e| Error::io(path, "open", e))?;
        Ok(Journal { path: path.to_path_buf(), file, rows })
    }

    /// Appends trials and syncs them to disk.
    pub fn append(&mut self, space: &ParamSpace, trials: &[Trial]) -> Result<()> {
        let buf = csv::to_bytes(trials.iter().map(|t| cells(space, t))).map_err(|e| e.with_path(&self.path))?;
        self.file.write_all(&buf).map_err(|e| Error::io(&self.path, "write", e))?;
        self.file.sync_data().map_err(|e| Error::io(&self.path, "sync", e))?;
        self.rows += trials.len();
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> usize {
        self.rows
    }
}

fn parse_value(space: &ParamSpace, gene: usize, text: &str) -> Option<f64> {
    let i = space.genes()[gene];
    let spec = &space.params[i].spec;
    let v = match spec {
        crate::params::Spec::Categorical { .. } => Value::Cat(text.to_string()),
        _ => spec.parse(text).ok()?,
    };
    Some(spec.to_internal(&v))
}

/// Reads every complete row of a journal back into trials.
pub fn read_trials(path: &Path, space: &ParamSpace) -> Result<Vec<Trial>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, "read", e))?;
    let mut r = ::csv::ReaderBuilder::new().flexible(true).from_reader(text.as_bytes());
    let n_genes = space.genes().len();
    let mut out = Vec::new();
    for (k, rec) in r.records().enumerate() {
        let Ok(rec) = rec else { break };
        if rec.len() != n_genes + 8 {
            break; // a torn last line
        }
        let bad = || Error::input(format!("row {}: unreadable values", k + 2)).with_path(path);
        let num = |i: usize| rec[i].parse::<f64>().map_err(|_| bad());
        let genome: Option<Vec<f64>> = (0..n_genes).map(|g| parse_value(space, g, &rec[2 + g])).collect();
        let b = 2 + n_genes;
        out.push(Trial {
            number: rec[0].parse().map_err(|_| bad())?,
            generation: rec[1].parse().map_err(|_| bad())?,
            genome: genome.ok_or_else(bad)?,
            fitness: Fitness {
                value: num(b)?,
                precision: num(b + 1)?,
                recall: num(b + 2)?,
                feasible: &rec[b + 3] == "true",
                ms: num(b + 5)?,
            },
            cached: &rec[b + 4] == "true",
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::{Gene, Space, key, repair};
    use std::collections::HashMap;

    #[test]
    fn a_grid_off_zero_evaluates_no_setting_twice_and_resumes_to_the_same_keys() {
        // Issue 10: with `min: 0.05, step: 0.1` the genomes 0.25 and 0.35 both became `t=0.3`
        // (evaluated twice), and resume read `t=0.3` back as a third genome.
        let yaml =
            "extractor: lqf\nparameters:\n  - {name: t, type: float, min: 0.05, max: 1.0, step: 0.1, default: 0.25}\n";
        let space = crate::params::parse_str(yaml, Path::new("t.yaml")).unwrap().space;
        let genes = Space { genes: vec![Gene::Real { lo: 0.05, hi: 1.0, step: Some(0.1) }], correlated: vec![] };
        let mut trials = Vec::new();
        for i in 0..=1000 {
            let mut g = vec![f64::from(i) / 1000.0];
            repair(&genes, &mut g);
            let t = Trial { number: i as usize, generation: 0, genome: g, fitness: Fitness::default(), cached: false };
            trials.push(t);
        }
        let mut key_of_setting: HashMap<String, String> = HashMap::new();
        for t in &trials {
            let setting = cells(&space, t)[2].clone();
            let k = key(&genes, &t.genome);
            assert_eq!(key_of_setting.entry(setting.clone()).or_insert_with(|| k.clone()), &k, "t={setting}");
        }
        assert_eq!(key_of_setting.len(), 10, "0.05, 0.15, ..., 0.95");
        let path = std::env::temp_dir().join(format!("cetune-journal-grid-{}.csv", std::process::id()));
        let mut j = Journal::create(&path, &space).unwrap();
        j.append(&space, &trials).unwrap();
        let back = read_trials(&path, &space).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(back.len(), trials.len());
        for (a, b) in trials.iter().zip(&back) {
            assert_eq!(key(&genes, &a.genome), key(&genes, &b.genome));
        }
    }
}
