//! Reports of an optimisation run, as pure functions of its trial history: generation
//! statistics, the top distinct individuals (Gottron's Table 2) and the plot inputs. Nothing
//! here recomputes a fitness, so `cetune report RUN_DIR` rebuilds everything from the journal.

use super::plot::{Axis, GenRow, SpaceInfo, SpacePoint};
use super::{csv, f3, write_atomic};
use crate::error::Result;
use crate::evolve::Trial;
use crate::params::{ParamSpace, Setting};
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

/// Validation fitness and its standard error by trial number (`--validation`; empty without).
pub type Validation = std::collections::HashMap<usize, (f64, f64)>;

/// The `n` best distinct individuals, best first (ties: earlier trial first); only full
/// evaluations rank (racing's dropped settings never enter Table 2).
pub fn top(trials: &[Trial], n: usize) -> Vec<&Trial> {
    let mut seen = HashSet::new();
    let mut distinct: Vec<&Trial> = trials
        .iter()
        .filter(|t| !t.cached && t.fitness.partial.is_none())
        .filter(|t| seen.insert(genome_key(&t.genome)))
        .collect();
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
    // The best so far by rank: a full evaluation ranks above every partial one (racing's dropped
    // settings, Hyperband's lower rungs), whatever their values.
    let mut so_far: Option<crate::evolve::Fitness> = None;
    for (r, evals) in generations_info(trials) {
        let best =
            trials.iter().filter(|t| t.generation == r.generation).map(|t| t.fitness).max_by(|a, b| a.rank_cmp(b));
        if let Some(b) = best.filter(|b| so_far.is_none_or(|s| b.better_than(&s))) {
            so_far = Some(b);
        }
        let so_far = so_far.map_or(f64::NAN, |f| f.value);
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

/// Table 2 as CSV rows (header first): `rank, [structure,] <parameters>, fitness, precision,
/// recall, feasible, generation, trial, sem` (`sem`: the fitness's standard error over
/// documents). For a combination, `structure` shows the active structure readably
/// (`vote(v=1.6; accb(r=120, t=0.6)×1, lqf(t=0.3)×0.4)`), and parameters inactive in a row (a
/// switched-off member's) show as `-`.
pub fn top_rows(
    space: &ParamSpace,
    base: &Setting,
    trials: &[Trial],
    n: usize,
    validation: &Validation,
) -> Vec<Vec<String>> {
    let combination = !space.members.is_empty();
    let mut head = vec!["rank".to_string()];
    if combination {
        head.push("structure".into());
    }
    head.extend(gene_names(space));
    head.extend(["fitness", "precision", "recall", "feasible", "generation", "trial", "sem"].map(String::from));
    if !validation.is_empty() {
        head.extend(["validation", "validation_sem"].map(String::from));
    }
    let mut rows = vec![head];
    for (k, t) in top(trials, n).iter().enumerate() {
        let (structure, vals) = shown_values(space, base, &t.genome);
        let f = &t.fitness;
        let mut row = vec![(k + 1).to_string()];
        row.extend(structure);
        row.extend(vals);
        row.extend([
            f.value.to_string(),
            f.precision.to_string(),
            f.recall.to_string(),
            f.feasible.to_string(),
            t.generation.to_string(),
            t.number.to_string(),
            if f.sem.is_nan() { String::new() } else { f.sem.to_string() },
        ]);
        if !validation.is_empty() {
            let (v, sem) = validation.get(&t.number).copied().unwrap_or((f64::NAN, f64::NAN));
            row.extend([v.to_string(), sem.to_string()]);
        }
        rows.push(row);
    }
    rows
}

/// A row's structure (combinations only) and parameter values, inactive ones as `-`.
fn shown_values(space: &ParamSpace, base: &Setting, genome: &[f64]) -> (Option<String>, Vec<String>) {
    let mut vals = gene_values(space, genome);
    if space.members.is_empty() {
        return (None, vals);
    }
    let setting = space.from_genome(base, genome);
    let active = crate::params::combine::activity(space, &setting);
    for (v, &i) in vals.iter_mut().zip(&space.genes()) {
        if !active[i] {
            *v = "-".into();
        }
    }
    (crate::params::combine::describe(space, &setting), vals)
}

/// Writes `top.csv` ([`top_rows`]) and `top.md` (Gottron's Table 2 layout for one algorithm,
/// with the fitness's standard error; a combination shows its structure instead of the values).
pub fn write_top(
    dir: &Path,
    space: &ParamSpace,
    base: &Setting,
    trials: &[Trial],
    n: usize,
    title: &str,
    validation: &Validation,
) -> Result<()> {
    let names = gene_names(space);
    let (vh, vs) = if validation.is_empty() { ("", "") } else { (" validation | ± SE |", "---|---|") };
    let mut md = if space.members.is_empty() {
        format!(
            "# {title}\n\n| rank | {} | fitness | ± SE | precision | recall | generation |{vh}\n|{}{vs}\n",
            names.join(" | "),
            "---|".repeat(names.len() + 6)
        )
    } else {
        format!(
            "# {title}\n\n| rank | structure | fitness | ± SE | precision | recall | generation |{vh}\n|---|---|---|---|---|---|---|{vs}\n"
        )
    };
    for (k, t) in top(trials, n).iter().enumerate() {
        let (structure, vals) = shown_values(space, base, &t.genome);
        let f = &t.fitness;
        md += &format!(
            "| {} | {} | {}{} | {} | {} | {} | {} |\n",
            k + 1,
            structure.unwrap_or_else(|| vals.join(" | ")),
            f3(f.value),
            if f.feasible { "" } else { " (infeasible)" },
            f3(f.sem),
            f3(f.precision),
            f3(f.recall),
            t.generation
        );
        if !validation.is_empty() {
            let (v, sem) = validation.get(&t.number).copied().unwrap_or((f64::NAN, f64::NAN));
            md.pop();
            md += &format!(" {} | {} |\n", f3(v), f3(sem));
        }
    }
    csv::write(&dir.join("top.csv"), top_rows(space, base, trials, n, validation))?;
    write_atomic(&dir.join("top.md"), md.as_bytes())
}

/// At most this many genes get panels in the space plots (all pairs of them).
pub const MAX_PANEL_GENES: usize = 5;

/// The explored-space plot input: every distinct evaluated individual, the best one and the
/// known-good individuals of the parameter description (every tuned parameter; [`panels`]
/// chooses what a plot shows). A gene that takes no part in an individual (a combination's
/// conditional gene whose switch is off) has the value NaN there: importance leaves that
/// individual out of the gene's share, and the plots leave it out of the gene's panels.
pub fn space_info(space: &ParamSpace, base: &Setting, trials: &[Trial], title: &str) -> SpaceInfo {
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
    let shown = |g: &[f64]| -> Vec<f64> {
        if space.members.is_empty() {
            return g.to_vec();
        }
        let act = crate::params::combine::activity(space, &space.from_genome(base, g));
        g.iter().zip(&genes).map(|(&x, &i)| if act[i] { x } else { f64::NAN }).collect()
    };
    let best = top(trials, 1).first().map(|t| shown(&t.genome));
    let known = space.known_good.iter().map(|k| shown(&space.to_genome(&k.setting))).collect();
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
        .map(|t| SpacePoint { values: shown(&t.genome), fitness: t.fitness.value, generation: t.generation })
        .collect();
    SpaceInfo { title: title.to_string(), names: gene_names(space), ranges, axes, points, best, known }
}

/// The space plot's panels: every gene active in some individual when there are at most
/// [`MAX_PANEL_GENES`], else the most important ones (by `importance`, in gene order), named
/// with their η². A gene active in no individual (a conditional gene whose switch was never
/// on) gets no panel: it would be empty.
pub fn panels(info: &SpaceInfo, importance: &[f64]) -> SpaceInfo {
    let live: Vec<usize> =
        (0..info.names.len()).filter(|&g| info.points.iter().any(|p| !p.values[g].is_nan())).collect();
    if info.names.len() <= MAX_PANEL_GENES && live.len() == info.names.len() || live.is_empty() {
        return info.clone();
    }
    let imp = importance;
    let mut order = live;
    order.sort_by(|&a, &b| imp[b].total_cmp(&imp[a]).then(a.cmp(&b)));
    order.truncate(MAX_PANEL_GENES);
    order.sort_unstable();
    let pick = |v: &[f64]| order.iter().map(|&i| v[i]).collect::<Vec<f64>>();
    SpaceInfo {
        title: if order.len() < MAX_PANEL_GENES {
            format!("{} — the {} genes active in some individual", info.title, order.len())
        } else {
            format!("{} — the {MAX_PANEL_GENES} most important of {} genes", info.title, info.names.len())
        },
        names: order.iter().map(|&i| format!("{} (η² {:.2})", info.names[i], imp[i])).collect(),
        ranges: order.iter().map(|&i| info.ranges[i]).collect(),
        axes: order.iter().map(|&i| info.axes[i].clone()).collect(),
        points: info.points.iter().map(|p| SpacePoint { values: pick(&p.values), ..p.clone() }).collect(),
        best: info.best.as_deref().map(pick),
        known: info.known.iter().map(|k| pick(k)).collect(),
    }
}

/// The structure's evolution: for each generation, the share of its individuals in which each
/// member of a combination is on (`<member>.on`; a member fixed on or off is constant). Rows:
/// `(generation, share per member)`; empty for a single family.
pub fn structure_info(space: &ParamSpace, base: &Setting, trials: &[Trial]) -> Vec<(usize, Vec<f64>)> {
    if space.members.is_empty() {
        return Vec::new();
    }
    let last = trials.iter().map(|t| t.generation).max().unwrap_or(0);
    let mut rows = Vec::new();
    for g in 0..=last {
        let pop: Vec<&Trial> = trials.iter().filter(|t| t.generation == g).collect();
        if pop.is_empty() {
            continue;
        }
        let shares = space
            .members
            .iter()
            .map(|m| {
                let name = format!("{}.on", m.name);
                let on = pop
                    .iter()
                    .filter(|t| {
                        space.from_genome(base, &t.genome).get(&name) != Some(&crate::params::Value::Bool(false))
                    })
                    .count();
                on as f64 / pop.len() as f64
            })
            .collect();
        rows.push((g, shares));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::Fitness;

    #[test]
    fn a_combination_s_table_2_shows_its_active_structure() {
        let yaml = "extractor: pair\nmembers: [lqf, full]\nparameters:\n  - {name: lqf.on, type: bool, default: true}\n  - {name: lqf.t, type: float, min: 0.05, max: 1, step: 0.01, default: 0.25}\n";
        let space = crate::extract::parse_str(yaml, Path::new("c.yaml")).unwrap().space;
        let f =
            |v: f64| Fitness { value: v, feasible: true, precision: v, recall: v, ms: 1.0, partial: None, sem: 0.0 };
        let trials = [
            Trial { number: 0, generation: 0, genome: vec![1.0, 0.3], fitness: f(0.8), cached: false },
            Trial { number: 1, generation: 0, genome: vec![0.0, 0.4], fitness: f(0.5), cached: false },
        ];
        let dir = std::env::temp_dir().join(format!("cetune-top-structure-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        write_top(&dir, &space, &space.defaults(), &trials, 10, "t", &Validation::new()).unwrap();
        let md = std::fs::read_to_string(dir.join("top.md")).unwrap();
        let csv = std::fs::read_to_string(dir.join("top.csv")).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(md.contains("| 1 | vote(v=1; lqf(t=0.3)×1, full()×1) | 0.800 |"), "{md}");
        assert!(md.contains("| 2 | vote(v=1; full()×1) | 0.500 |"), "{md}");
        // lqf.t is inactive in the second row.
        assert!(csv.contains("2,vote(v=1; full()×1),false,-,"), "{csv}");
        let rows = structure_info(&space, &space.defaults(), &trials);
        assert_eq!(rows, vec![(0, vec![0.5, 1.0])]);
    }

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
        write_top(&dir, &space, &space.defaults(), &trials, 10, "t", &Validation::new()).unwrap();
        let text = std::fs::read_to_string(dir.join("top.csv")).unwrap();
        let md = std::fs::read_to_string(dir.join("top.md")).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(md.contains("| fitness | ± SE |") && md.contains("| 0.500 | 0.020 |"), "{md}");
        assert_eq!(
            text,
            "rank,k,fitness,precision,recall,feasible,generation,trial,sem\n1,\"a,b\",0.5,0.4,0.6,true,0,0,0.02\n"
        );
    }

    #[test]
    fn panels_keep_the_most_important_genes_and_importance_sees_them_all() {
        let n = MAX_PANEL_GENES + 2;
        let info = SpaceInfo {
            title: "t".into(),
            names: (0..n).map(|g| format!("g{g}")).collect(),
            ranges: vec![(0.0, 1.0); n],
            axes: vec![Axis::Real; n],
            points: vec![SpacePoint { values: vec![0.5; n], fitness: 1.0, generation: 0 }],
            best: Some(vec![0.5; n]),
            known: vec![],
        };
        let imp: Vec<f64> = (0..n).map(|g| if g == 0 || g == n - 1 { 0.0 } else { g as f64 }).collect();
        let shown = panels(&info, &imp);
        assert_eq!(shown.names.len(), MAX_PANEL_GENES);
        assert!(
            shown.names[0].starts_with("g1 ") && shown.names[MAX_PANEL_GENES - 1].starts_with(&format!("g{} ", n - 2))
        );
        assert_eq!(shown.points[0].values.len(), MAX_PANEL_GENES);
        assert_eq!(panels(&shown, &imp[..MAX_PANEL_GENES]), shown, "few genes: every one is shown");
    }
}
