//! The generalisation estimate (`--validation FRACTION`): a share of the documents, stratified
//! by package and drawn from the seed, is held out; the search sees only the rest. After the
//! run the top individuals and each generation's best are scored on the held-out documents
//! (`validation.csv`), Table 2 and the history plot show those figures, and `run.yaml` the
//! training–validation gap of the chosen setting.
//!
//! Stratification: a package with `n ≥ 2` documents gives `round(n·F)` of them (a package this
//! would empty is an error); packages with a single document cannot be split, so they are pooled
//! and `round(m·F)` of those `m` documents are held out (L3S-GN1's packages are sites with one
//! page each in a sample).

use crate::error::{Error, Result};
use crate::evolve::{Problem, Trial};
use crate::goldset::GoldSet;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// `validation.csv` in the run folder.
pub const FILE: &str = "validation.csv";

/// The document indices (into `set.docs`, in set order) for training and for validation.
pub fn split(set: &GoldSet, fraction: f64, seed: u64) -> Result<(Vec<usize>, Vec<usize>)> {
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5641_4c49_4441_5445);
    let mut by_package: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, d) in set.docs.iter().enumerate() {
        by_package.entry(d.package).or_default().push(i);
    }
    let mut held = Vec::new();
    let mut singles = Vec::new();
    for (p, docs) in &mut by_package {
        if docs.len() < 2 {
            singles.extend(docs.iter().copied());
            continue;
        }
        let v = (docs.len() as f64 * fraction).round() as usize;
        if v >= docs.len() {
            let name = set.packages.get(*p).map_or("?", String::as_str);
            return Err(Error::config(format!(
                "--validation {fraction} leaves package '{name}' ({} documents) without training documents",
                docs.len()
            )));
        }
        docs.shuffle(&mut rng);
        held.extend(docs[..v].iter().copied());
    }
    singles.shuffle(&mut rng);
    let v = (singles.len() as f64 * fraction).round() as usize;
    held.extend(singles[..v].iter().copied());
    if held.is_empty() {
        return Err(Error::config(format!(
            "--validation {fraction} holds out no document of the {} in the gold set",
            set.docs.len()
        )));
    }
    held.sort_unstable();
    let train: Vec<usize> = (0..set.docs.len()).filter(|i| held.binary_search(i).is_err()).collect();
    Ok((train, held))
}

/// One individual scored on the held-out documents.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Its trial number in the journal.
    pub trial: usize,
    /// Its fitness on the training documents.
    pub training: f64,
    /// Its fitness on the validation documents.
    pub validation: f64,
    /// The standard error of `validation`.
    pub validation_sem: f64,
}

/// The trials to validate: the `top` best distinct ones and each generation's best, in trial
/// order.
pub fn chosen(trials: &[Trial], top: usize) -> Vec<&Trial> {
    let mut out: Vec<&Trial> = crate::report::run::top(trials, top.max(1));
    out.extend(generation_bests(trials));
    out.sort_by_key(|t| t.number);
    out.dedup_by_key(|t| t.number);
    out
}

/// The best trial (by rank, the first of equals) of each generation, in generation order.
pub fn generation_bests(trials: &[Trial]) -> Vec<&Trial> {
    let mut best: BTreeMap<usize, &Trial> = BTreeMap::new();
    for t in trials {
        match best.get(&t.generation) {
            Some(b) if !t.fitness.better_than(&b.fitness) => {}
            _ => {
                best.insert(t.generation, t);
            }
        }
    }
    best.into_values().collect()
}

/// Scores the chosen trials on `held_out` (a problem over the validation documents).
pub fn evaluate(held_out: &mut dyn Problem, trials: &[Trial], top: usize) -> Result<Vec<Row>> {
    let chosen = chosen(trials, top);
    let genomes: Vec<Vec<f64>> = chosen.iter().map(|t| t.genome.clone()).collect();
    let fit = held_out.evaluate_batch(&genomes)?;
    Ok(chosen
        .iter()
        .zip(fit)
        .map(|(t, f)| Row { trial: t.number, training: t.fitness.value, validation: f.value, validation_sem: f.sem })
        .collect())
}

/// Writes `validation.csv`.
pub fn write(dir: &Path, rows: &[Row]) -> Result<()> {
    let head = ["trial", "fitness", "validation", "validation_sem"].map(String::from).to_vec();
    let body = rows.iter().map(|r| {
        vec![r.trial.to_string(), r.training.to_string(), r.validation.to_string(), r.validation_sem.to_string()]
    });
    crate::report::csv::write(&dir.join(FILE), std::iter::once(head).chain(body))
}

/// Reads `validation.csv` if the run has one: validation fitness and its standard error by
/// trial number.
pub fn read(dir: &Path) -> Result<HashMap<usize, (f64, f64)>> {
    let path = dir.join(FILE);
    if !path.exists() {
        return Ok(HashMap::new());
    }
    let bytes = crate::paths::read_capped(&path, crate::yaml::MAX_BYTES as u64, "validation table")?;
    let mut r = csv::Reader::from_reader(bytes.as_slice());
    let mut out = HashMap::new();
    for (k, rec) in r.records().enumerate() {
        let bad = || Error::input("malformed row").with_path(&path).with_line(k + 2, None);
        let rec = rec.map_err(|_| bad())?;
        let num = |i: usize| rec.get(i).and_then(|c| c.parse::<f64>().ok()).ok_or_else(bad);
        let trial = rec.get(0).and_then(|c| c.parse::<usize>().ok()).ok_or_else(bad)?;
        out.insert(trial, (num(2)?, num(3)?));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goldset::GoldDoc;

    fn set(sizes: &[usize]) -> GoldSet {
        let mut docs = Vec::new();
        for (p, &n) in sizes.iter().enumerate() {
            for k in 0..n {
                docs.push(GoldDoc {
                    package: p,
                    id: format!("{k}"),
                    page: Default::default(),
                    gold: "".into(),
                    url: None,
                    lang: None,
                    fields: Default::default(),
                });
            }
        }
        GoldSet {
            name: "t".into(),
            root: Default::default(),
            packages: (0..sizes.len()).map(|p| format!("p{p}")).collect(),
            docs,
            trainers: Vec::new(),
            token_rule: Default::default(),
            skipped: vec![],
            credit: None,
            limits: Default::default(),
        }
    }

    #[test]
    fn the_split_is_stratified_by_package_seeded_and_pools_single_documents() {
        let s = set(&[10, 20, 1, 1, 1, 1, 1]);
        let (train, held) = split(&s, 0.2, 3).unwrap();
        assert_eq!(train.len() + held.len(), 35);
        let count = |p: usize| held.iter().filter(|&&i| s.docs[i].package == p).count();
        assert_eq!((count(0), count(1)), (2, 4));
        assert_eq!((2..7).map(count).sum::<usize>(), 1, "round(5 × 0.2) of the single documents");
        assert_eq!(split(&s, 0.2, 3).unwrap(), (train.clone(), held.clone()));
        assert_ne!(split(&s, 0.2, 4).unwrap().1, held);
    }

    #[test]
    fn a_split_that_empties_a_package_or_holds_out_nothing_is_refused() {
        let e = split(&set(&[2, 10]), 0.9, 1).unwrap_err();
        assert_eq!(e.message, "--validation 0.9 leaves package 'p0' (2 documents) without training documents");
        assert_eq!(e.exit_code(), 2);
        let e = split(&set(&[3, 3]), 0.1, 1).unwrap_err();
        assert!(e.message.contains("holds out no document"), "{e}");
    }
}
