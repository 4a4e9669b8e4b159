//! `individuals.csv`: one row per evaluated individual, appended and synced as each batch ends,
//! with values exact enough (shortest round-trip floats) to rebuild the fitness cache on resume.
//! A torn last line (a crash mid-write: no final newline) is ignored when reading; any other
//! damaged row is an error naming its line.

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
    /// With racing or a multi-fidelity strategy: the documents of a full evaluation (the
    /// `documents` and `fidelity` columns are written).
    documents: Option<usize>,
    /// Whether the `fidelity` column is written (a racing journal from before it has none).
    fidelity: bool,
}

/// Column names: `trial, generation, <tuned parameters>, fitness, precision, recall, feasible,
/// cached, sem, [documents, fidelity,] milliseconds` (`sem`: the standard error of the fitness
/// over documents; `documents` and `fidelity`, written by racing and multi-fidelity runs only:
/// the documents the fitness is the mean over and their share of a full evaluation — a row with
/// `fidelity` below 1 is a partial evaluation, of a setting racing dropped or of a rung below the
/// top of a Hyperband bracket, and a promoted setting has a row at each fidelity).
pub fn header(space: &ParamSpace, staged: bool) -> Vec<String> {
    let mut h = racing_header(space, staged);
    if staged {
        h.insert(h.len() - 1, "fidelity".into());
    }
    h
}

/// The header before the `fidelity` column (racing journals of earlier runs, still read and
/// resumed).
fn racing_header(space: &ParamSpace, racing: bool) -> Vec<String> {
    let mut h = old_header(space);
    h.insert(h.len() - 1, "sem".into());
    if racing {
        h.insert(h.len() - 1, "documents".into());
    }
    h
}

/// The header of journals written before the `sem` column (still read: such runs resume and
/// report, with a standard error of 0).
fn old_header(space: &ParamSpace) -> Vec<String> {
    let mut h: Vec<String> = vec!["trial".into(), "generation".into()];
    h.extend(space.genes().into_iter().map(|i| space.params[i].name.clone()));
    h.extend(["fitness", "precision", "recall", "feasible", "cached", "milliseconds"].map(String::from));
    h
}

/// How a journal's header `rec` maps onto the space whose known headers are `known` (each:
/// `trial`, `generation`, the genes, then a tail of result columns): the column of each gene
/// (`None` for a gene the journal predates), the number of gene columns and of tail columns.
/// The journal's genes must be the space's in order, some possibly missing; its tail one of the
/// known tails. `None` when it is not such a header.
fn header_columns(rec: &::csv::StringRecord, known: &[&Vec<String>]) -> Option<(Vec<Option<usize>>, usize, usize)> {
    let cells: Vec<&str> = rec.iter().collect();
    for h in known {
        let names = &h[2..];
        let tail = names.iter().rev().take_while(|n| !n.contains('.') && RESULT_COLUMNS.contains(&n.as_str())).count();
        let (genes, tail_cells) = names.split_at(names.len() - tail);
        if cells.len() < 2 + tail || cells[..2] != ["trial", "generation"] || cells[cells.len() - tail..] != *tail_cells
        {
            continue;
        }
        let file = &cells[2..cells.len() - tail];
        let mut column = vec![None; genes.len()];
        let mut at = 0;
        for (g, name) in genes.iter().enumerate() {
            if at < file.len() && file[at] == name {
                column[g] = Some(2 + at);
                at += 1;
            }
        }
        if at == file.len() {
            return Some((column, file.len(), tail));
        }
    }
    None
}

/// The result columns after the genes, in any journal version.
const RESULT_COLUMNS: [&str; 9] =
    ["fitness", "precision", "recall", "feasible", "cached", "sem", "documents", "fidelity", "milliseconds"];

/// The CSV cells of one trial; `documents`: with racing or a multi-fidelity strategy, the
/// documents of a full evaluation; `fidelity`: whether the `fidelity` column is written.
pub fn cells(space: &ParamSpace, t: &Trial, documents: Option<usize>, fidelity: bool) -> Vec<String> {
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
        f.sem.to_string(),
    ]);
    if let Some(n) = documents {
        let k = f.partial.unwrap_or(n);
        cells.push(k.to_string());
        if fidelity {
            cells.push((k as f64 / n.max(1) as f64).to_string());
        }
    }
    cells.push(format!("{:.3}", f.ms));
    cells
}

impl Journal {
    /// Starts a new journal (header only); `documents`: with racing, the documents of a full
    /// evaluation (adds the `documents` column).
    pub fn create(path: &Path, space: &ParamSpace, documents: Option<usize>) -> Result<Journal> {
        // create_new: a journal is never appended to by two runs, nor silently replaced.
        let mut file =
            OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| Error::io(path, "create", e))?;
        let head = csv::to_bytes([header(space, documents.is_some())]).map_err(|e| e.with_path(path))?;
        file.write_all(&head).map_err(|e| Error::io(path, "write", e))?;
        crate::paths::note_written(path)?;
        Ok(Journal { path: path.to_path_buf(), file, rows: 0, documents, fidelity: true })
    }

    /// Reopens a journal keeping its first `rows` rows (later rows belong to a generation that
    /// did not finish and will be recomputed); `documents` as for [`Journal::create`].
    pub fn reopen(path: &Path, rows: usize, documents: Option<usize>) -> Result<Journal> {
        let text = crate::paths::read_capped_text(path, MAX_JOURNAL, "journal")?;
        let kept: Vec<&str> = text
            .split_inclusive('\n')
            .filter(|l| l.ends_with('\n'))
            .take(rows + 1)
            .map(|l| l.trim_end_matches('\n'))
            .collect();
        if kept.len() < rows + 1 {
            return Err(Error::input(format!(
                "journal has {} rows but the checkpoint expects {rows}",
                kept.len().saturating_sub(1)
            ))
            .with_path(path));
        }
        // A journal written before the `sem` column gets it (0 for the old rows), so that the
        // rows appended now have the header's width.
        let upgrade = kept.first().is_some_and(|h| h.ends_with(",cached,milliseconds"));
        let fidelity = kept.first().is_some_and(|h| h.contains(",fidelity,"));
        let kept: Vec<String> = kept
            .iter()
            .enumerate()
            .map(|(k, l)| match l.rsplit_once(',') {
                Some((head, ms)) if upgrade => format!("{head},{},{ms}", if k == 0 { "sem" } else { "0" }),
                _ => l.to_string(),
            })
            .collect();
        let mut body = kept.join("\n");
        body.push('\n');
        crate::report::write_atomic(path, body.as_bytes())?;
        let file = OpenOptions::new().append(true).open(path).map_err(|e| Error::io(path, "open", e))?;
        Ok(Journal { path: path.to_path_buf(), file, rows, documents, fidelity })
    }

    /// Appends trials and syncs them to disk.
    pub fn append(&mut self, space: &ParamSpace, trials: &[Trial]) -> Result<()> {
        let buf = csv::to_bytes(trials.iter().map(|t| cells(space, t, self.documents, self.fidelity)))
            .map_err(|e| e.with_path(&self.path))?;
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

/// Reads every row of a journal back into trials, verifying each one.
///
/// A last line without its newline is a torn write (the process died mid-append) and is left
/// out even when it parses: its numbers may be cut short. Every other row must be whole: the
/// right number of cells, numbers that parse, `true`/`false` flags and consecutive trial
/// numbers; otherwise the error names the line.
pub fn read_trials(path: &Path, space: &ParamSpace) -> Result<Vec<Trial>> {
    read_rows(path, space, usize::MAX)
}

/// Largest journal read back (a run of a million settings writes a few hundred MB).
const MAX_JOURNAL: u64 = 4 << 30;

/// Like [`read_trials`], but reads and verifies only the first `limit` rows (on resume, rows past
/// the checkpoint belong to an unfinished generation and are dropped unread).
pub fn read_rows(path: &Path, space: &ParamSpace, limit: usize) -> Result<Vec<Trial>> {
    let text = crate::paths::read_capped_text(path, MAX_JOURNAL, "journal")?;
    let whole = match text.rfind('\n') {
        Some(end) => &text[..=end],
        None => "",
    };
    let mut r = ::csv::ReaderBuilder::new().flexible(true).has_headers(false).from_reader(whole.as_bytes());
    let header_cells = header(space, false);
    let staged_cells = header(space, true);
    let racing_cells = racing_header(space, true);
    let old_cells = old_header(space);
    let n_genes = space.genes().len();
    // The column of each gene; a journal written before a family gained a parameter has no
    // column for it, and its rows take the parameter's default.
    let mut column: Vec<Option<usize>> = (0..n_genes).map(|g| Some(2 + g)).collect();
    let defaults = space.to_genome(&space.defaults());
    let mut file_genes = n_genes;
    let mut width = n_genes + 9;
    let mut documents = Vec::new();
    let mut full_at = Vec::new();
    let mut out = Vec::new();
    for (k, rec) in r.records().enumerate() {
        let line = k + 1;
        let bad =
            |what: &str| Error::input(format!("journal row is corrupt: {what}")).with_path(path).with_line(line, None);
        let rec = rec.map_err(|e| bad(&e.to_string()))?;
        if k == 0 {
            let known = [&header_cells, &old_cells, &racing_cells, &staged_cells];
            let Some((cols, genes, tail)) = header_columns(&rec, &known) else {
                return Err(bad(&format!("expected the header {}", header_cells.join(","))));
            };
            (column, file_genes, width) = (cols, genes, genes + tail + 2);
            continue;
        }
        if out.len() == limit {
            break;
        }
        if rec.len() != width {
            return Err(bad(&format!("{} cells, expected {width}", rec.len())));
        }
        let num = |i: usize| rec[i].parse::<f64>().map_err(|_| bad(&format!("'{}' is not a number", &rec[i])));
        let flag = |i: usize| match &rec[i] {
            "true" => Ok(true),
            "false" => Ok(false),
            v => Err(bad(&format!("'{v}' is not true or false"))),
        };
        let genome = (0..n_genes)
            .map(|g| match column[g] {
                Some(c) => parse_value(space, g, &rec[c])
                    .ok_or_else(|| bad(&format!("'{}' is not a value of its parameter", &rec[c]))),
                None => Ok(defaults[g]),
            })
            .collect::<Result<Vec<f64>>>()?;
        let number: usize = rec[0].parse().map_err(|_| bad("the trial number is not a whole number"))?;
        if number != out.len() {
            return Err(bad(&format!("trial number {number}, expected {}", out.len())));
        }
        let b = 2 + file_genes;
        if width >= file_genes + 10 {
            documents.push(rec[b + 6].parse::<usize>().map_err(|_| bad("the documents are not a whole number"))?);
        }
        if width == file_genes + 11 {
            let share = num(b + 7)?;
            if !(share > 0.0 && share <= 1.0) {
                return Err(bad(&format!("fidelity {share} is not in (0, 1]")));
            }
            full_at.push(share >= 1.0);
        }
        out.push(Trial {
            number,
            generation: rec[1].parse().map_err(|_| bad("the generation is not a whole number"))?,
            genome,
            fitness: Fitness {
                value: num(b)?,
                precision: num(b + 1)?,
                recall: num(b + 2)?,
                feasible: flag(b + 3)?,
                ms: num(width - 1)?,
                partial: None,
                // Journals from before the column: the error was not measured (NaN, shown as "-").
                sem: if width > file_genes + 8 { num(b + 5)? } else { f64::NAN },
            },
            cached: flag(b + 4)?,
        });
    }
    // The fidelity column says which rows are full. A racing journal from before it: every
    // such run has full evaluations (the reference of each race is one), so the largest count
    // is a full one; fewer documents make a partial fitness.
    let full = documents.iter().copied().max().unwrap_or(0);
    for (i, (t, &k)) in out.iter_mut().zip(&documents).enumerate() {
        let is_full = full_at.get(i).copied().unwrap_or(k >= full);
        t.fitness.partial = (!is_full).then_some(k);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::{Gene, Space, key, repair};
    use std::collections::HashMap;

    #[test]
    fn a_journal_is_created_only_once() {
        // Two runs once appended into one journal; create_new makes the second one fail.
        let dir = std::env::temp_dir().join(format!("cetune-journal-new-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let space = crate::extract::space("lqf").unwrap();
        let p = dir.join("individuals.csv");
        let _first = Journal::create(&p, &space, None).unwrap();
        let e = Journal::create(&p, &space, None).err().unwrap();
        assert!(e.to_string().contains("cannot create"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_journal_keeps_the_standard_error_and_reads_journals_without_it() {
        let yaml = "extractor: lqf\nparameters:\n  - {name: t, type: float, min: 0.05, max: 1.0, default: 0.25}\n";
        let space = crate::extract::parse_str(yaml, Path::new("t.yaml")).unwrap().space;
        let f =
            Fitness { value: 0.5, feasible: true, precision: 0.4, recall: 0.6, ms: 2.0, partial: None, sem: 0.0123 };
        let t = Trial { number: 0, generation: 0, genome: vec![0.3], fitness: f, cached: false };
        let path = std::env::temp_dir().join(format!("cetune-journal-sem-{}.csv", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let mut j = Journal::create(&path, &space, None).unwrap();
        j.append(&space, std::slice::from_ref(&t)).unwrap();
        assert_eq!(read_trials(&path, &space).unwrap(), vec![t.clone()]);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("trial,generation,t,fitness,precision,recall,feasible,cached,sem,milliseconds\n"));
        // A journal of an older run, without the column.
        std::fs::write(&path, "trial,generation,t,fitness,precision,recall,feasible,cached,milliseconds\n0,0,0.3,0.5,0.4,0.6,true,false,2.000\n").unwrap();
        let old = read_trials(&path, &space).unwrap();
        // Resuming such a run upgrades the journal before appending.
        let mut j = Journal::reopen(&path, 1, None).unwrap();
        j.append(&space, std::slice::from_ref(&Trial { number: 1, ..t.clone() })).unwrap();
        let both = read_trials(&path, &space).unwrap();
        assert_eq!((both.len(), both[1].fitness.sem), (2, 0.0123));
        assert!(old[0].fitness.sem.is_nan(), "not measured, so not a number");
        assert_eq!((old[0].fitness.ms, old[0].fitness.value), (2.0, 0.5));
    }

    #[test]
    fn the_fidelity_column_says_which_rows_are_partial_even_before_any_full_row() {
        let yaml = "extractor: lqf\nparameters:\n  - {name: t, type: float, min: 0.05, max: 1.0, default: 0.25}\n";
        let space = crate::extract::parse_str(yaml, Path::new("t.yaml")).unwrap().space;
        let t = |number: usize, partial: Option<usize>| Trial {
            number,
            generation: 0,
            genome: vec![0.3 + number as f64 / 100.0],
            fitness: Fitness { partial, sem: 0.01, ..Fitness::of(0.5) },
            cached: false,
        };
        let path = std::env::temp_dir().join(format!("cetune-journal-fidelity-{}.csv", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let mut j = Journal::create(&path, &space, Some(90)).unwrap();
        // A Hyperband run killed after its first rung: no row is full yet.
        let first = [t(0, Some(10)), t(1, Some(10))];
        j.append(&space, &first).unwrap();
        assert_eq!(read_trials(&path, &space).unwrap(), first.to_vec());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(",sem,documents,fidelity,milliseconds\n"), "{text}");
        assert!(text.contains(",10,0.1111111111111111,"), "{text}");
        j.append(&space, &[t(2, Some(30)), t(3, None)]).unwrap();
        let all = read_trials(&path, &space).unwrap();
        assert_eq!(all.iter().map(|t| t.fitness.partial).collect::<Vec<_>>(), [Some(10), Some(10), Some(30), None]);
        // Resuming appends the same columns.
        let mut j = Journal::reopen(&path, 4, Some(90)).unwrap();
        j.append(&space, &[t(4, Some(10))]).unwrap();
        assert_eq!(read_trials(&path, &space).unwrap().len(), 5);
        // A fidelity outside (0, 1] is a damaged row, named.
        std::fs::write(&path, text.replace(",10,0.1111111111111111,", ",10,1.5,")).unwrap();
        let e = read_trials(&path, &space).unwrap_err().to_string();
        assert!(e.contains("fidelity 1.5 is not in (0, 1]") && e.contains(":2"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_journal_from_before_a_parameter_existed_reads_back_with_its_default() {
        let yaml = "extractor: lqf\nparameters:\n  - {name: t, type: float, min: 0.05, max: 1.0, default: 0.25}\n  - {name: min_chars, type: int, min: 0, max: 100, default: 7}\n";
        let space = crate::extract::parse_str(yaml, Path::new("t.yaml")).unwrap().space;
        let path = std::env::temp_dir().join(format!("cetune-journal-newgene-{}.csv", std::process::id()));
        // Written when the family had only `t`, with and without the `sem` column.
        for text in [
            "trial,generation,t,fitness,precision,recall,feasible,cached,sem,milliseconds\n0,0,0.3,0.5,0.4,0.6,true,false,0.01,2.000\n",
            "trial,generation,t,fitness,precision,recall,feasible,cached,milliseconds\n0,0,0.3,0.5,0.4,0.6,true,false,2.000\n",
        ] {
            std::fs::write(&path, text).unwrap();
            let t = read_trials(&path, &space).unwrap();
            let s = space.from_genome(&space.defaults(), &t[0].genome);
            assert_eq!(
                (s.get("t").cloned(), s.get("min_chars").cloned(), t[0].fitness.value),
                (Some(Value::Float(0.3)), Some(Value::Int(7)), 0.5)
            );
        }
        // A column the space does not have is still refused, with the header it expected.
        std::fs::write(&path, "trial,generation,x,fitness,precision,recall,feasible,cached,sem,milliseconds\n")
            .unwrap();
        let e = read_trials(&path, &space).unwrap_err().to_string();
        assert!(e.contains("expected the header trial,generation,t,min_chars,"), "{e}");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_racing_journal_keeps_partial_and_full_evaluations_apart() {
        let yaml = "extractor: lqf\nparameters:\n  - {name: t, type: float, min: 0.05, max: 1.0, default: 0.25}\n";
        let space = crate::extract::parse_str(yaml, Path::new("t.yaml")).unwrap().space;
        let full =
            Fitness { value: 0.5, feasible: true, precision: 0.4, recall: 0.6, ms: 2.0, partial: None, sem: 0.01 };
        let part = Fitness { value: 0.7, partial: Some(15), ..full };
        let t = |number: usize, fitness: Fitness| Trial {
            number,
            generation: 0,
            genome: vec![0.3],
            fitness,
            cached: false,
        };
        let trials = vec![t(0, full), t(1, part), t(2, full)];
        let path = std::env::temp_dir().join(format!("cetune-journal-race-{}.csv", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let mut j = Journal::create(&path, &space, Some(120)).unwrap();
        j.append(&space, &trials[..2]).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(
            "trial,generation,t,fitness,precision,recall,feasible,cached,sem,documents,fidelity,milliseconds\n"
        ));
        assert!(text.contains(",0.01,120,1,2.000\n") && text.contains(",0.01,15,0.125,2.000\n"), "{text}");
        let mut j = Journal::reopen(&path, 2, Some(120)).unwrap();
        j.append(&space, &trials[2..]).unwrap();
        assert_eq!(read_trials(&path, &space).unwrap(), trials);
        // A racing journal from before the fidelity column reads back, and a resumed run keeps
        // appending rows of its width.
        let old = "trial,generation,t,fitness,precision,recall,feasible,cached,sem,documents,milliseconds\n\
                   0,0,0.3,0.5,0.4,0.6,true,false,0.01,120,2.000\n0,0,0.3,0.7,0.4,0.6,true,false,0.01,15,2.000\n"
            .replace("\n0,0,0.3,0.7", "\n1,0,0.3,0.7");
        std::fs::write(&path, old).unwrap();
        assert_eq!(read_trials(&path, &space).unwrap(), trials[..2].to_vec());
        let mut j = Journal::reopen(&path, 2, Some(120)).unwrap();
        j.append(&space, &trials[2..]).unwrap();
        assert_eq!(read_trials(&path, &space).unwrap(), trials);
        assert!(std::fs::read_to_string(&path).unwrap().ends_with(",0.01,120,2.000\n"));
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_grid_off_zero_evaluates_no_setting_twice_and_resumes_to_the_same_keys() {
        // Issue 10: with `min: 0.05, step: 0.1` the genomes 0.25 and 0.35 both became `t=0.3`
        // (evaluated twice), and resume read `t=0.3` back as a third genome.
        let yaml =
            "extractor: lqf\nparameters:\n  - {name: t, type: float, min: 0.05, max: 1.0, step: 0.1, default: 0.25}\n";
        let space = crate::extract::parse_str(yaml, Path::new("t.yaml")).unwrap().space;
        let genes = Space {
            genes: vec![Gene::Real { lo: 0.05, hi: 1.0, step: Some(0.1) }],
            correlated: vec![],
            conditions: vec![],
            ranks: vec![],
        };
        let mut trials = Vec::new();
        for i in 0..=1000 {
            let mut g = vec![f64::from(i) / 1000.0];
            repair(&genes, &mut g);
            let t = Trial { number: i as usize, generation: 0, genome: g, fitness: Fitness::default(), cached: false };
            trials.push(t);
        }
        let mut key_of_setting: HashMap<String, String> = HashMap::new();
        for t in &trials {
            let setting = cells(&space, t, None, false)[2].clone();
            let k = key(&genes, &t.genome);
            assert_eq!(key_of_setting.entry(setting.clone()).or_insert_with(|| k.clone()), &k, "t={setting}");
        }
        assert_eq!(key_of_setting.len(), 10, "0.05, 0.15, ..., 0.95");
        let path = std::env::temp_dir().join(format!("cetune-journal-grid-{}.csv", std::process::id()));
        let mut j = Journal::create(&path, &space, None).unwrap();
        j.append(&space, &trials).unwrap();
        let back = read_trials(&path, &space).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(back.len(), trials.len());
        assert!(back[3].fitness.sem.abs() < 1e-300);
        for (a, b) in trials.iter().zip(&back) {
            assert_eq!(key(&genes, &a.genome), key(&genes, &b.genome));
        }
    }
}
