//! `cetune compare`: the top individuals of one or several runs (several families on one
//! collection, as in the paper's Table 3), the literature defaults and other tools' outputs on
//! a full collection, in Gottron's Table 3 layout (a row per setting, a column per package,
//! macro average, best first) as markdown; the same figures in long format (`compare.csv`: a
//! row per setting and package), every document's score (`per-document.csv`), and each
//! setting paired against a baseline on the same documents (`paired.csv`: mean difference,
//! paired-bootstrap interval, Wilcoxon signed-rank test).

use super::common::label;
use super::evaluate::table_row;
use crate::error::{Error, Result};
use crate::eval::paired::{Paired, p_text, paired};
use crate::goldset::native;
use crate::objective::external;
use crate::objective::score::{DocScore, summarise};
use crate::objective::stream::score_set;
use crate::params::Setting;
use crate::report::{Progress, Table3, write_atomic};
use crate::store::{files, prepare_out, read_trials};
use crate::study::load_run;
use std::path::{Path, PathBuf};

/// Resamples of the paired bootstrap when `--bootstrap` does not set them.
const PAIRED_RESAMPLES: usize = 2000;

/// Arguments of `compare`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The full collection (native gold set; `default`: the embedded one).
    #[arg(long, value_parser = super::common::gold_path)]
    goldset: PathBuf,
    /// The run folder; repeat it to put several runs (families) in one table.
    #[arg(long)]
    run: Vec<PathBuf>,
    /// Another tool's output scored beside the runs, as `cetune score` reads it (a folder of
    /// `<id>.txt` or an ids-json file), named NAME in the tables; repeatable.
    #[arg(long, value_name = "NAME=PATH")]
    output: Vec<String>,
    /// What every row is paired against: `default` (the first run's default setting), a run
    /// folder (its best individual), a parameter file, or the NAME of an --output. Default:
    /// `default` when a run is given.
    #[arg(long, value_name = "default|RUN|FILE|NAME")]
    baseline: Option<String>,
    /// How many of each --run's best distinct individuals (as `optimise --warm-top` counts
    /// those of --warm-start).
    #[arg(long, value_name = "N", default_value_t = 4, alias = "top")]
    run_top: usize,
    /// Also evaluate the known-good individuals of the parameter description.
    #[arg(long)]
    with_defaults: bool,
    /// How each page is scored.
    #[arg(long, default_value = "lcs", value_parser = super::values::measure())]
    measure: crate::eval::Measure,
    /// Score a gold field instead of the body (see `evaluate`).
    #[arg(long, default_value = "body", value_parser = super::values::field())]
    field: String,
    /// Add 95% confidence intervals of the macro and doc-mean F1 from N bootstrap resamples of the
    /// pages (seeded; 0: none); also the resamples of the paired intervals (default 2000).
    #[arg(long, value_name = "N", default_value_t = 0)]
    bootstrap: usize,
    /// A confidence model (`cetune confidence`) of one of the compared settings: how well it
    /// predicts that setting's page F1 (Spearman, the mean F1 below and above its threshold, the
    /// pages of F1 < 0.25 caught) and its calibration, as `evaluate --confidence` reports it
    /// (`confidence-<row>.csv`, `calibration-<row>.*`); repeatable.
    #[arg(long, value_name = "MODEL")]
    confidence: Vec<PathBuf>,
    /// Output folder; default RUN_DIR/compare-<gold set name> (with `-<measure>` for bow and
    /// shingle4); with several runs or outputs results/compare-<gold set name>-<timestamp>.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write into an existing non-empty output folder (its compare tables are replaced).
    #[arg(long)]
    force: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    limits: super::common::LimitArgs,
}

/// What a row of the table scores.
enum Source {
    Setting(Setting),
    Output(external::Outputs),
}

/// Runs `compare`.
pub fn run(a: Args, engine: &crate::extract::Engine) -> Result<()> {
    let measure = a.measure;
    if a.run.is_empty() && a.output.is_empty() {
        return Err(Error::config("give at least one --run RUN_DIR or --output NAME=PATH"));
    }
    if a.field != "body" && !a.output.is_empty() {
        return Err(Error::config(format!(
            "--field {} scores a setting's segments; an --output text has none: score it with --field body",
            a.field
        )));
    }
    let mut rows: Vec<(String, Source)> = Vec::new();
    let mut families: Vec<String> = Vec::new();
    let mut default: Option<(String, Setting)> = None;
    // What is read, which no output may replace; and the runs' locks, held until the tables
    // are written (a live run is not compared, nor written into).
    let mut reads = crate::paths::Reads::new();
    let mut locks = Vec::new();
    for run in &a.run {
        let (_, space, base) = load_run(run)?;
        locks.extend(lock_run(run)?);
        for f in [files::RUN, files::INDIVIDUALS, "best.model", "best.yaml"] {
            reads.add(run.join(f), "the run's files");
        }
        let trials = read_trials(&run.join(files::INDIVIDUALS), &space)?;
        let start = rows.len();
        let top = crate::report::run::top(&trials, a.run_top);
        if top.is_empty() {
            return Err(Error::config(
                "this run has no finished individual yet (individuals.csv holds none): nothing to compare; let it run a generation first",
            )
            .with_path(run));
        }
        for (k, t) in top.iter().enumerate() {
            // A fitted family's setting needs the run's model: only the best has one.
            let Some(s) = crate::study::with_run_model(engine, run, space.from_genome(&base, &t.genome))? else {
                eprintln!(
                    "cetune: warning: {}: top {} has no fitted model (only the best has): left out",
                    run.display(),
                    k + 1
                );
                continue;
            };
            rows.push((
                format!("top {} (fitness {:.3}): {}", k + 1, t.fitness.value, label(&space, &s)),
                Source::Setting(s),
            ));
        }
        if a.with_defaults {
            for k in &space.known_good {
                if let Some(r) =
                    rows[start..].iter_mut().find(|(_, s)| matches!(s, Source::Setting(s) if *s == k.setting))
                {
                    r.0 = format!("{} = {}", r.0, k.label);
                } else {
                    rows.push((
                        format!("{}: {}", k.label, label(&space, &k.setting)),
                        Source::Setting(k.setting.clone()),
                    ));
                }
            }
        }
        default.get_or_insert_with(|| (format!("default: {}", label(&space, &base)), base.clone()));
        if !families.contains(&space.extractor) {
            families.push(space.extractor.clone());
        }
    }
    for o in &a.output {
        let (name, path) = o
            .split_once('=')
            .filter(|(n, p)| !n.is_empty() && !p.is_empty())
            .ok_or_else(|| Error::config(format!("--output {o}: expected NAME=PATH")))?;
        reads.add(path, "a scored output");
        rows.push((name.to_string(), Source::Output(external::read(Path::new(path))?)));
        families.push(name.to_string());
    }
    // The baseline: an existing row when it is one, else a row of its own.
    let baseline = match a.baseline.as_deref().or((!a.run.is_empty()).then_some("default")) {
        None => None,
        Some(b) => Some(baseline_row(engine, b, &mut rows, default.clone())?),
    };
    let limits = a.limits.limits()?;
    let mut set = native::open(&a.goldset, false)?;
    set.limits = limits;
    let measure = super::common::field_mode(&mut set, &a.field, measure)?;
    // The set's name comes from its goldset.yaml: made one path component, it cannot climb out.
    let name = match measure {
        crate::eval::Measure::Lcs => format!("compare-{}", crate::paths::component(&set.name)),
        m => format!("compare-{}-{m}", crate::paths::component(&set.name)),
    };
    let name = match a.field.as_str() {
        "body" | "date" => name,
        f => format!("{name}-{f}"),
    };
    let out = match (&a.out, a.run.as_slice()) {
        (Some(out), _) => out.clone(),
        (None, [one]) if a.output.is_empty() => one.join(name),
        (None, _) => crate::store::unique_dir(&PathBuf::from(format!("results/{name}-{}", crate::store::timestamp())))?,
    };
    // A baseline run's files, or a baseline parameter file (`default` and an output's name are
    // neither).
    match a.baseline.as_deref().map(Path::new) {
        Some(b) if b.join(files::RUN).is_file() => {
            for f in [files::RUN, files::INDIVIDUALS, "best.model"] {
                reads.add(b.join(f), "the baseline run's files");
            }
        }
        Some(b) if b.is_file() => reads.add(b, "the baseline"),
        _ => {}
    }
    // Each confidence model judges the compared settings it was fitted for.
    let mut judged: Vec<(usize, crate::objective::confidence::Model)> = Vec::new();
    for p in &a.confidence {
        if a.field != "body" {
            return Err(Error::config("--confidence estimates the body's F1: drop --field"));
        }
        reads.add(p, "a confidence model");
        let fits: Vec<(usize, crate::objective::confidence::Model)> = rows
            .iter()
            .enumerate()
            .filter_map(|(i, (_, src))| match src {
                Source::Setting(s) => crate::objective::confidence::Model::read(p, s).ok().map(|m| (i, m)),
                Source::Output(_) => None,
            })
            .collect();
        if fits.is_empty() {
            // Why it fits none: the error of reading it for the first compared setting.
            let first = rows.iter().find_map(|(_, src)| match src {
                Source::Setting(s) => Some(s),
                Source::Output(_) => None,
            });
            return Err(match first.map(|s| crate::objective::confidence::Model::read(p, s)) {
                Some(Err(e)) => e,
                _ => Error::config("--confidence judges a setting: compare a --run").with_path(p),
            });
        }
        judged.extend(fits);
    }
    let settings: Vec<&Setting> = rows
        .iter()
        .filter_map(|(_, s)| match s {
            Source::Setting(s) => Some(s),
            Source::Output(_) => None,
        })
        .collect();
    // Built before anything is written: a setting that cannot run leaves no folder behind.
    let extractors =
        settings.iter().map(|s| super::common::field_extractor(engine, s, &a.field)).collect::<Result<Vec<_>>>()?;
    prepare_out(&out, a.force, &reads.with(&set.root, "the gold set"))?;
    let refs: Vec<&dyn crate::extract::Extractor> = extractors.iter().map(|e| e.as_ref()).collect();
    let docs: Vec<_> = set.docs.iter().collect();
    let bar = Progress::new(docs.len() as u64, "compare", a.quiet);
    let mut scored =
        if refs.is_empty() { Vec::new() } else { score_set(&set, &docs, &refs, measure, &|| bar.inc()) }.into_iter();
    bar.finish();
    let mut scores: Vec<Vec<DocScore>> = Vec::new();
    for (name, src) in &rows {
        scores.push(match src {
            Source::Setting(_) => scored.next().unwrap_or_default(),
            Source::Output(o) => {
                let s = external::score(&set, &docs, o, measure);
                external::warn_unmatched(name, &s);
                s.scores
            }
        });
    }
    let packages: Vec<usize> = docs.iter().map(|d| d.package).collect();
    let mut table = Table3 { packages: set.packages.clone(), package_docs: Vec::new(), rows: Vec::new() };
    let mut long = vec![
        ["setting", "package", "documents", "precision", "recall", "f1", "f1_ci95", "errors"]
            .map(String::from)
            .to_vec(),
    ];
    for ((name, _), sc) in rows.iter().zip(&scores) {
        let summary = summarise(&packages, set.packages.len(), sc, measure);
        table.package_docs = summary.package_docs.clone();
        let mut row = table_row(name.clone(), &summary);
        let pairs: Vec<_> = packages.iter().zip(sc).map(|(&p, s)| (p, s.prf)).collect();
        row.ci = crate::eval::bootstrap::f1_intervals(&pairs, set.packages.len(), measure, a.bootstrap, 1);
        for (i, p) in set.packages.iter().enumerate() {
            if let Some(prf) = summary.per_package[i] {
                let errors = packages.iter().zip(sc).filter(|(q, s)| **q == i && s.error.is_some()).count();
                long.push(vec![
                    name.clone(),
                    p.clone(),
                    summary.package_docs[i].to_string(),
                    num(prf.precision),
                    num(prf.recall),
                    num(prf.f1),
                    String::new(),
                    errors.to_string(),
                ]);
            }
        }
        let (ma, mi) = (summary.averages.macro_avg, summary.averages.micro_avg);
        for (what, prf, ci) in [("(macro)", ma, row.ci.map(|c| c.0)), ("(doc-mean)", mi, row.ci.map(|c| c.1))] {
            long.push(vec![
                name.clone(),
                what.into(),
                docs.len().to_string(),
                num(prf.precision),
                num(prf.recall),
                num(prf.f1),
                ci.map_or(String::new(), num),
                summary.errors.to_string(),
            ]);
        }
        table.rows.push(row);
    }
    table.sort_best_first();
    crate::report::csv::write(&out.join("compare.csv"), long)?;
    write_per_document(&out.join("per-document.csv"), &rows, &scores, &set, &docs)?;
    let mut md = table.markdown(
        &format!(
            "{} on {} ({} documents{}): F1 per package, best first",
            families.join(", "),
            set.name,
            docs.len(),
            super::evaluate::measure_note(measure)
        ),
        set.credit.as_deref(),
    );
    if let Some(b) = baseline {
        let resamples = if a.bootstrap > 0 { a.bootstrap } else { PAIRED_RESAMPLES };
        let f1 = |v: &[DocScore]| v.iter().map(|s| s.prf.f1).collect::<Vec<f64>>();
        let base = f1(&scores[b]);
        let mut lines = Vec::new();
        for (i, ((name, _), sc)) in rows.iter().zip(&scores).enumerate() {
            if i != b {
                lines.push((name.clone(), paired(&f1(sc), &base, resamples, 1)));
            }
        }
        lines.sort_by(|x, y| y.1.mean.total_cmp(&x.1.mean));
        md += &paired_markdown(&rows[b].0, &lines, resamples);
        write_paired_csv(&out.join("paired.csv"), &rows[b].0, &lines, measure)?;
    }
    for (i, m) in &judged {
        // The row's extractor: settings are built in row order, outputs have none.
        let k = rows[..*i].iter().filter(|(_, s)| matches!(s, Source::Setting(_))).count();
        md += &format!("\n### The confidence of {}\n", rows[*i].0);
        let stem = format!("-{}", i + 1);
        md += &super::evaluate::confidence_report(
            &out,
            &stem,
            &set,
            &docs,
            extractors[k].as_ref(),
            &scores[*i],
            m,
            None,
            a.quiet,
        )?;
    }
    write_atomic(&out.join("compare.md"), md.as_bytes())?;
    drop(locks);
    print!("{md}");
    println!("\nwritten to {}", out.display());
    // Failed: every setting failed on every document (no page could be read).
    let failed = (0..docs.len()).filter(|&d| scores.iter().all(|s| s[d].error.is_some())).count();
    crate::objective::corpus::check_some_read(&set, failed, docs.len())
}

/// The lock of a run folder: refused when a live run (or another command) holds it. A folder
/// this process cannot write (a run read from a shared disk) is compared without one.
fn lock_run(run: &Path) -> Result<Option<crate::store::RunLock>> {
    match crate::store::RunLock::acquire(run) {
        Ok(l) => Ok(Some(l)),
        Err(e) if e.cause() == Some(&crate::error::Cause::InUse) => Err(e),
        Err(_) => Ok(None),
    }
}

/// The index of the baseline row, adding it when it is not a row yet.
fn baseline_row(
    engine: &crate::extract::Engine,
    b: &str,
    rows: &mut Vec<(String, Source)>,
    default: Option<(String, Setting)>,
) -> Result<usize> {
    let (name, setting) = if b == "default" {
        default.ok_or_else(|| Error::config("--baseline default needs a --run (its default setting)"))?
    } else if let Some(i) = rows.iter().position(|(n, s)| n == b && matches!(s, Source::Output(_))) {
        return Ok(i);
    } else {
        let p = Path::new(b);
        if p.join(files::RUN).is_file() {
            let (_, space, base) = load_run(p)?;
            let trials = read_trials(&p.join(files::INDIVIDUALS), &space)?;
            let best = crate::report::run::top(&trials, 1);
            let t =
                best.first().ok_or_else(|| Error::config(format!("--baseline {b}: the run has no individual yet")))?;
            let s = space.from_genome(&base, &t.genome);
            let s = crate::study::with_run_model(engine, p, s.clone())?.unwrap_or(s);
            (format!("{b} best: {}", label(&space, &s)), s)
        } else if p.is_file() {
            let f = crate::extract::load_file(engine, p)?;
            (format!("{b}: {}", label(&f.space, &f.setting)), f.setting)
        } else {
            return Err(Error::config(format!(
                "--baseline {b}: not `default`, a run folder, a parameter file or the name of an --output"
            )));
        }
    };
    if let Some(i) = rows.iter().position(|(_, s)| matches!(s, Source::Setting(s) if *s == setting)) {
        return Ok(i);
    }
    rows.push((name, Source::Setting(setting)));
    Ok(rows.len() - 1)
}

fn num(x: f64) -> String {
    if x.is_finite() { format!("{x:.6}") } else { String::new() }
}

/// The paired table of the markdown page.
fn paired_markdown(baseline: &str, lines: &[(String, Paired)], resamples: usize) -> String {
    let mut s = format!(
        "\n## Paired against {baseline}\n\nPer-document F1 of each setting minus the baseline's, on the same documents.\n\n| setting | mean Δ F1 | 95% CI | better / worse / equal | Wilcoxon p | verdict |\n|---|---|---|---|---|---|\n"
    );
    for (name, p) in lines {
        let ci = p.ci.map_or("-".into(), |(lo, hi)| format!("[{lo:+.4}, {hi:+.4}]"));
        s += &format!(
            "| {name} | {:+.4} | {ci} | {} / {} / {} | {} | {} |\n",
            p.mean,
            p.wins,
            p.losses,
            p.ties,
            p_text(p.p),
            p.verdict()
        );
    }
    s += &format!(
        "\n95% CI: percentile interval of the mean difference over {resamples} paired bootstrap resamples of the documents (seed 1). Wilcoxon signed-rank test, two-sided, normal approximation (documents with equal scores left out). \"Within noise\": the interval holds 0 and p ≥ 0.05; \"mixed\": the interval and the test disagree.\n"
    );
    s
}

fn write_paired_csv(path: &Path, baseline: &str, lines: &[(String, Paired)], m: crate::eval::Measure) -> Result<()> {
    let mut rows = vec![
        [
            "setting",
            "baseline",
            "measure",
            "documents",
            "mean_diff_f1",
            "ci95_low",
            "ci95_high",
            "better",
            "worse",
            "equal",
            "w_plus",
            "w_minus",
            "z",
            "p",
            "verdict",
        ]
        .map(String::from)
        .to_vec(),
    ];
    for (name, p) in lines {
        rows.push(vec![
            name.clone(),
            baseline.to_string(),
            m.to_string(),
            p.n.to_string(),
            format!("{:.6}", p.mean),
            p.ci.map_or(String::new(), |c| format!("{:.6}", c.0)),
            p.ci.map_or(String::new(), |c| format!("{:.6}", c.1)),
            p.wins.to_string(),
            p.losses.to_string(),
            p.ties.to_string(),
            format!("{:.1}", p.w_plus),
            format!("{:.1}", p.w_minus),
            format!("{:.4}", p.z),
            format!("{:.6e}", p.p),
            p.verdict(),
        ]);
    }
    crate::report::csv::write(path, rows)
}

/// `setting, package, id, precision, recall, f1, error`: every row's score on every document.
fn write_per_document(
    path: &Path,
    rows: &[(String, Source)],
    scores: &[Vec<DocScore>],
    set: &crate::goldset::GoldSet,
    docs: &[&crate::goldset::GoldDoc],
) -> Result<()> {
    let mut out = vec![["setting", "package", "id", "precision", "recall", "f1", "error"].map(String::from).to_vec()];
    for ((name, _), sc) in rows.iter().zip(scores) {
        for (d, s) in docs.iter().zip(sc) {
            out.push(vec![
                name.clone(),
                set.packages[d.package].clone(),
                d.id.clone(),
                num(s.prf.precision),
                num(s.prf.recall),
                num(s.prf.f1),
                s.error.clone().unwrap_or_default(),
            ]);
        }
    }
    crate::report::csv::write(path, out)
}
