//! Reports of an optimisation run, as pure functions of its trial history: generation
//! statistics, the top distinct individuals (Gottron's Table 2) and the plot inputs. Nothing
//! here recomputes a fitness, so `cetune report RUN_DIR` rebuilds everything from the journal.

use super::plot::{Axis, GenRow, SpaceInfo, SpacePoint};
use super::{csv, f3, write_atomic};
use crate::error::Result;
use crate::evolve::Trial;
use crate::params::ParamSpace;
use std::collections::HashSet;
use std::path::Path;

/// Best, mean and worst fitness of each generation's population, with the evaluations so far.
pub fn generations_info(trials: &[Trial]) -> Vec<(GenRow, usize)> {
    let last = trials.iter().map(|t| t.generation).max();
    let Some(last) = last else { return Vec::new() };
    let mut rows = Vec::new();
    let mut evaluations = 0;
    for g in 0..=last {
        let pop: Vec<&Trial> = trials.iter().filter(|t| t.generation == g).collect();
        if pop.is_empty() {
            continue;
        }
        evaluations += pop.iter().filter(|t| !t.cached).count();
        let vals: Vec<f64> = pop.iter().map(|t| t.fitness.value).collect();
        let best = pop.iter().map(|t| t.fitness).max_by(|a, b| a.rank_cmp(b)).map_or(f64::NAN, |f| f.value);
        let mean = vals.iter().sum::<f64>() / vals.len() as f64;
        let worst = pop.iter().map(|t| t.fitness).min_by(|a, b| a.rank_cmp(b)).map_or(f64::NAN, |f| f.value);
        rows.push((GenRow { generation: g, best, mean, worst }, evaluations));
    }
    rows
}

/// The `n` best distinct individuals, best first (ties: earlier trial first).
pub fn top(trials: &[Trial], n: usize) -> Vec<&Trial> {
    let mut seen = HashSet::new();
    let mut distinct: Vec<&Trial> =
        trials.iter().filter(|t| !t.cached).filter(|t| seen.insert(genome_key(&t.genome))).collect();
    distinct.sort_by(|a, b| b.fitness.rank_cmp(&a.fitness).then(a.number.cmp(&b.number)));
    distinct.truncate(n);
    distinct
}

fn genome_key(g: &[f64]) -> String {
    g.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

/// Names of the tuned parameters, in gene order.
pub fn gene_names(space: &ParamSpace) -> Vec<String> {
    space.genes().into_iter().map(|i| space.params[i].name.clone()).collect()
}

/// External values of a genome's genes, as text.
pub fn gene_values(space: &ParamSpace, g: &[f64]) -> Vec<String> {
    space
        .genes()
        .into_iter()
        .enumerate()
        .map(|(k, i)| space.params[i].spec.from_internal(g.get(k).copied().unwrap_or(0.0)).to_string())
        .collect()
}

/// Writes `generations.csv`: `generation, evaluations, best, mean, worst, best_so_far`.
pub fn write_generations(path: &Path, trials: &[Trial]) -> Result<()> {
    let mut rows =
        vec![["generation", "evaluations", "best", "mean", "worst", "best_so_far"].map(String::from).to_vec()];
    let mut so_far = f64::NEG_INFINITY;
    for (r, evals) in generations_info(trials) {
        so_far = so_far.max(r.best);
        rows.push(vec![
            r.generation.to_string(),
            evals.to_string(),
            r.best.to_string(),
            r.mean.to_string(),
            r.worst.to_string(),
            so_far.to_string(),
        ]);
    }
    csv::write(path, rows)
}

/// Table 2 as CSV rows (header first): `rank, <parameters>, fitness, precision, recall,
/// feasible, generation, trial, sem` (`sem`: the fitness's standard error over documents).
pub fn top_rows(space: &ParamSpace, trials: &[Trial], n: usize) -> Vec<Vec<String>> {
    let mut head = vec!["rank".to_string()];
    head.extend(gene_names(space));
    head.extend(["fitness", "precision", "recall", "feasible", "generation", "trial", "sem"].map(String::from));
    let mut rows = vec![head];
    for (k, t) in top(trials, n).iter().enumerate() {
        let f = &t.fitness;
        let mut row = vec![(k + 1).to_string()];
        row.extend(gene_values(space, &t.genome));
        row.extend([
            f.value.to_string(),
            f.precision.to_string(),
            f.recall.to_string(),
            f.feasible.to_string(),
            t.generation.to_string(),
            t.number.to_string(),
            f.sem.to_string(),
        ]);
        rows.push(row);
    }
    rows
}

/// Writes `top.csv` ([`top_rows`]) and `top.md` (Gottron's Table 2 layout for one algorithm,
/// with the fitness's standard error).
pub fn write_top(dir: &Path, space: &ParamSpace, trials: &[Trial], n: usize, title: &str) -> Result<()> {
    let names = gene_names(space);
    let best = top(trials, n);
    let mut md = format!(
        "# {title}\n\n| rank | {} | fitness | ± SE | precision | recall | generation |\n|{}\n",
        names.join(" | "),
        "---|".repeat(names.len() + 6)
    );
    for (k, t) in best.iter().enumerate() {
        let vals = gene_values(space, &t.genome);
        let f = &t.fitness;
        md += &format!(
            "| {} | {} | {}{} | {} | {} | {} | {} |\n",
            k + 1,
            vals.join(" | "),
            f3(f.value),
            if f.feasible { "" } else { " (infeasible)" },
            f3(f.sem),
            f3(f.precision),
            f3(f.recall),
            t.generation
        );
    }
    csv::write(&dir.join("top.csv"), top_rows(space, trials, n))?;
    write_atomic(&dir.join("top.md"), md.as_bytes())
}

/// The explored-space plot input: every distinct evaluated individual, the best one and the
/// known-good individuals of the parameter description.
pub fn space_info(space: &ParamSpace, trials: &[Trial], title: &str) -> SpaceInfo {
    let genes = space.genes();
    let axes = genes
        .iter()
        .map(|&i| match &space.params[i].spec {
            crate::params::Spec::Float { .. } => Axis::Real,
            crate::params::Spec::Int { .. } => Axis::Int,
            crate::params::Spec::Categorical { choices } => Axis::Choices(choices.clone()),
            crate::params::Spec::Bool => Axis::Choices(vec!["false".into(), "true".into()]),
        })
        .collect();
    let best = top(trials, 1).first().map(|t| t.genome.clone());
    let known = space.known_good.iter().map(|k| space.to_genome(&k.setting)).collect();
    let ranges = genes
        .iter()
        .map(|&i| match &space.params[i].spec {
            crate::params::Spec::Float { min, max, .. } => (*min, *max),
            crate::params::Spec::Int { min, max } => (*min as f64, *max as f64),
            crate::params::Spec::Categorical { choices } => (0.0, (choices.len().max(2) - 1) as f64),
            crate::params::Spec::Bool => (0.0, 1.0),
        })
        .collect();
    let points = trials
        .iter()
        .filter(|t| !t.cached && t.fitness.value.is_finite())
        .map(|t| SpacePoint { values: t.genome.clone(), fitness: t.fitness.value, generation: t.generation })
        .collect();
    SpaceInfo { title: title.to_string(), names: gene_names(space), ranges, axes, points, best, known }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::Fitness;

    #[test]
    fn top_csv_quotes_a_value_holding_a_comma() {
        // Issue 10: top.csv was written with `format!` and no quoting, so a categorical choice
        // with a comma shifted every later column.
        let yaml = "extractor: x\nparameters:\n  - {name: k, type: categorical, choices: [\"a,b\", c], default: c}\n";
        let space = crate::extract::parse_str(yaml, Path::new("x.yaml")).unwrap().space;
        let fitness =
            Fitness { value: 0.5, feasible: true, precision: 0.4, recall: 0.6, ms: 1.0, partial: None, sem: 0.02 };
        let trials = [Trial { number: 0, generation: 0, genome: vec![0.0], fitness, cached: false }];
        let dir = std::env::temp_dir().join(format!("cetune-top-csv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write_top(&dir, &space, &trials, 10, "t").unwrap();
        let text = std::fs::read_to_string(dir.join("top.csv")).unwrap();
        let md = std::fs::read_to_string(dir.join("top.md")).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(md.contains("| fitness | ± SE |") && md.contains("| 0.500 | 0.020 |"), "{md}");
        assert_eq!(
            text,
            "rank,k,fitness,precision,recall,feasible,generation,trial,sem\n1,\"a,b\",0.5,0.4,0.6,true,0,0,0.02\n"
        );
    }
}
