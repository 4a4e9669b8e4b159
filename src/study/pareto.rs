//! `--objective pareto`: the front of (mean precision, mean recall) over the run's distinct full
//! evaluations, `pareto.csv`, the precision–recall plot, and the point `--pick` chooses for
//! `best.yaml` (`cetune report RUN --pick …` re-picks).

use crate::error::{Error, Result};
use crate::evolve::nsga2::fronts;
use crate::evolve::{Fitness, Trial};
use crate::params::ParamSpace;
use crate::report::plot::{ParetoInfo, render_pareto};
use crate::store::{ParetoPoint, ParetoRecord, RunRecord};
use std::path::Path;

/// How the point of the front for `best.yaml` is chosen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pick {
    /// The largest mean F1.
    F1,
    /// The largest recall among the points with at least this precision.
    Precision(f64),
    /// The largest precision among the points with at least this recall.
    Recall(f64),
}

impl std::str::FromStr for Pick {
    type Err = Error;
    fn from_str(s: &str) -> Result<Pick> {
        let bad = || {
            Error::config(format!(
                "--pick '{s}' names no objective this run records (expected f1, precision>=P or recall>=R, P and R in [0, 1])"
            ))
        };
        if s == "f1" {
            return Ok(Pick::F1);
        }
        let (name, x) = s.split_once(">=").ok_or_else(bad)?;
        let x: f64 = x.trim().parse().map_err(|_| bad())?;
        if !(0.0..=1.0).contains(&x) {
            return Err(bad());
        }
        match name.trim() {
            "precision" => Ok(Pick::Precision(x)),
            "recall" => Ok(Pick::Recall(x)),
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for Pick {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Pick::F1 => write!(f, "f1"),
            Pick::Precision(p) => write!(f, "precision>={p}"),
            Pick::Recall(r) => write!(f, "recall>={r}"),
        }
    }
}

/// The front: distinct full evaluations no other one dominates, by increasing precision.
pub fn front(trials: &[Trial]) -> Vec<&Trial> {
    let distinct = crate::report::run::top(trials, usize::MAX);
    let fit: Vec<Fitness> = distinct.iter().map(|t| t.fitness).collect();
    let mut out: Vec<&Trial> = fronts(&fit).first().map_or_else(Vec::new, |f| f.iter().map(|&i| distinct[i]).collect());
    out.sort_by(|a, b| {
        a.fitness.precision.total_cmp(&b.fitness.precision).then(b.fitness.recall.total_cmp(&a.fitness.recall))
    });
    out
}

/// The point of `front` that `pick` chooses; when no point reaches the bound, the closest one
/// (largest precision, or largest recall) with a warning.
pub fn choose<'a>(front: &[&'a Trial], pick: Pick) -> Result<&'a Trial> {
    match pick_strictly(front, pick) {
        Ok(t) => Ok(t),
        Err(e) => {
            eprintln!("cetune: warning: {e}; best.yaml gets the closest point");
            // Largest recall for a recall bound, largest precision for a precision bound.
            let closest = match pick {
                Pick::Recall(_) => front.iter().max_by(|a, b| a.fitness.recall.total_cmp(&b.fitness.recall)),
                _ => front.iter().max_by(|a, b| a.fitness.precision.total_cmp(&b.fitness.precision)),
            };
            closest.copied().ok_or(e)
        }
    }
}

/// The point of `front` that `pick` chooses; an error when none reaches its bound.
pub fn pick_strictly<'a>(front: &[&'a Trial], pick: Pick) -> Result<&'a Trial> {
    let by = |key: &dyn Fn(&Fitness) -> f64, ok: &dyn Fn(&Fitness) -> bool| {
        front
            .iter()
            .filter(|t| ok(&t.fitness))
            .max_by(|a, b| key(&a.fitness).total_cmp(&key(&b.fitness)).then(b.number.cmp(&a.number)))
            .copied()
    };
    let chosen = match pick {
        Pick::F1 => by(&|f| f.value, &|_| true),
        Pick::Precision(p) => by(&|f| f.recall, &|f| f.precision >= p),
        Pick::Recall(r) => by(&|f| f.precision, &|f| f.recall >= r),
    };
    chosen.ok_or_else(|| {
        let (p, r) =
            front.iter().fold((0.0f64, 0.0f64), |(p, r), t| (p.max(t.fitness.precision), r.max(t.fitness.recall)));
        Error::config(format!(
            "--pick {pick}: no point of the front reaches it (largest precision {p:.4}, largest recall {r:.4})"
        ))
    })
}

/// The pick a record asks for (`f1` when it names none).
pub fn pick_of(record: &RunRecord) -> Result<Pick> {
    record.pareto.as_ref().map_or(Ok(Pick::F1), |p| p.pick.parse())
}

/// Writes `pareto.csv` and `pareto.svg/.png`; returns the chosen trial and the record.
pub fn write(
    dir: &Path,
    record: &RunRecord,
    space: &ParamSpace,
    trials: &[Trial],
    pick: Pick,
) -> Result<Option<(Trial, ParetoRecord)>> {
    let front = front(trials);
    if front.is_empty() {
        return Ok(None);
    }
    let chosen = choose(&front, pick)?.clone();
    let mut head = vec!["point".to_string(), "trial".into(), "generation".into()];
    head.extend(crate::report::run::gene_names(space));
    head.extend(["precision", "recall", "f1", "sem", "chosen"].map(String::from));
    let rows = front.iter().enumerate().map(|(k, t)| {
        let mut row = vec![(k + 1).to_string(), t.number.to_string(), t.generation.to_string()];
        row.extend(crate::report::run::gene_values(space, &t.genome));
        let f = &t.fitness;
        row.extend([
            f.precision.to_string(),
            f.recall.to_string(),
            f.value.to_string(),
            if f.sem.is_nan() { String::new() } else { f.sem.to_string() },
            (t.number == chosen.number).to_string(),
        ]);
        row
    });
    crate::report::csv::write(&dir.join("pareto.csv"), std::iter::once(head).chain(rows))?;
    let pr = |t: &Trial| (t.fitness.precision, t.fitness.recall);
    let gen0: Vec<&Trial> = trials.iter().filter(|t| t.generation == 0).collect();
    let known = space.known_good.iter().zip(&gen0).map(|(k, t)| (k.label.clone(), pr(t))).collect();
    let info = ParetoInfo {
        title: format!(
            "Precision and recall: {} on {}, seed {} (pick {pick})",
            record.extractor, record.goldset.name, record.config.seed
        ),
        all: crate::report::run::top(trials, usize::MAX).into_iter().map(pr).collect(),
        front: front.iter().map(|t| pr(t)).collect(),
        known,
        chosen: Some(pr(&chosen)),
    };
    render_pareto(&info, &dir.join("pareto"))?;
    let f = chosen.fitness;
    let rec = ParetoRecord {
        pick: pick.to_string(),
        points: front.len(),
        chosen: Some(ParetoPoint { trial: chosen.number, precision: f.precision, recall: f.recall, f1: f.value }),
    };
    Ok(Some((chosen, rec)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(number: usize, p: f64, r: f64) -> Trial {
        let f1 = 2.0 * p * r / (p + r);
        Trial {
            number,
            generation: 0,
            genome: vec![number as f64],
            fitness: Fitness { value: f1, precision: p, recall: r, feasible: true, ..Fitness::default() },
            cached: false,
        }
    }

    #[test]
    fn picks_parse_and_choose_from_the_front() {
        assert_eq!("f1".parse::<Pick>().unwrap(), Pick::F1);
        assert_eq!("precision>=0.9".parse::<Pick>().unwrap(), Pick::Precision(0.9));
        assert_eq!("recall>=0.8".parse::<Pick>().unwrap(), Pick::Recall(0.8));
        for bad in ["macro-f1", "precision>=1.5", "fbeta>=0.5", "recall>=x", "precision"] {
            let e = bad.parse::<Pick>().unwrap_err();
            assert!(e.message.contains("names no objective"), "{bad}: {e}");
            assert_eq!(e.exit_code(), 2);
        }
        let trials = vec![t(0, 0.95, 0.6), t(1, 0.85, 0.85), t(2, 0.6, 0.97), t(3, 0.5, 0.5)];
        let f = front(&trials);
        assert_eq!(f.iter().map(|t| t.number).collect::<Vec<_>>(), [2, 1, 0]);
        assert_eq!(choose(&f, Pick::F1).unwrap().number, 1);
        assert_eq!(choose(&f, Pick::Precision(0.9)).unwrap().number, 0);
        assert_eq!(choose(&f, Pick::Recall(0.9)).unwrap().number, 2);
        assert!(pick_strictly(&f, Pick::Precision(0.99)).unwrap_err().message.contains("no point of the front"));
        assert_eq!(choose(&f, Pick::Precision(0.99)).unwrap().number, 0, "the closest: largest precision");
        assert_eq!(choose(&f, Pick::Recall(0.99)).unwrap().number, 2, "the closest: largest recall");
    }
}
