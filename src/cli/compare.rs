//! `cetune compare`: the top individuals of one or several runs (several families on one
//! collection, as in the paper's Table 3) and the literature defaults on a full collection, in
//! Gottron's Table 3 layout (a row per setting, a column per package, macro average, best
//! first), as CSV and markdown; optionally by another measure and with bootstrap intervals.

use super::common::label;
use super::evaluate::table_row;
use crate::error::Result;
use crate::goldset::native;
use crate::objective::score::summarise;
use crate::objective::stream::score_set;
use crate::report::{Progress, Table3, write_atomic};
use crate::store::{files, prepare_out, read_trials};
use crate::study::load_run;
use std::path::PathBuf;

/// Arguments of `compare`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The full collection (native gold set).
    #[arg(long)]
    goldset: PathBuf,
    /// The run folder; repeat it to put several runs (families) in one table.
    #[arg(long, required = true)]
    run: Vec<PathBuf>,
    /// How many of the run's best distinct individuals.
    #[arg(long, default_value_t = 4)]
    top: usize,
    /// Also evaluate the known-good individuals of the parameter description.
    #[arg(long)]
    with_defaults: bool,
    /// How each page is scored: lcs (Gottron's word-sequence F1), bow (WCXB's bag-of-words F1)
    /// or shingle4 (the Scrapinghub benchmark's 4-word shingles).
    #[arg(long, default_value = "lcs")]
    measure: String,
    /// Score a gold field instead of the body (title, author, date, comments; see `evaluate`).
    #[arg(long, default_value = "body")]
    field: String,
    /// Add 95% confidence intervals of the macro and micro F1 from N bootstrap resamples of the
    /// pages (seeded; 0: none).
    #[arg(long, value_name = "N", default_value_t = 0)]
    bootstrap: usize,
    /// Output folder; default RUN_DIR/compare-<gold set name> (with `-<measure>` for bow and
    /// shingle4); with several runs results/compare-<gold set name>-<timestamp>.
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

/// Runs `compare`.
pub fn run(a: Args) -> Result<()> {
    let measure = super::common::parse_measure(&a.measure)?;
    crate::extract::segments::check_field(&a.field)?;
    let mut rows: Vec<(String, crate::params::Setting)> = Vec::new();
    let mut families: Vec<String> = Vec::new();
    for run in &a.run {
        let (_, space, base) = load_run(run)?;
        let trials = read_trials(&run.join(files::INDIVIDUALS), &space)?;
        let mine: Vec<(String, crate::params::Setting)> = crate::report::run::top(&trials, a.top)
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let s = space.from_genome(&base, &t.genome);
                (format!("top {} (fitness {:.3}): {}", k + 1, t.fitness.value, label(&space, &s)), s)
            })
            .collect();
        let start = rows.len();
        rows.extend(mine);
        if a.with_defaults {
            for k in &space.known_good {
                if let Some(r) = rows[start..].iter_mut().find(|(_, s)| *s == k.setting) {
                    r.0 = format!("{} = {}", r.0, k.label);
                } else {
                    rows.push((format!("{}: {}", k.label, label(&space, &k.setting)), k.setting.clone()));
                }
            }
        }
        if !families.contains(&space.extractor) {
            families.push(space.extractor.clone());
        }
    }
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
        (None, [one]) => one.join(name),
        (None, _) => crate::store::unique_dir(&PathBuf::from(format!("results/{name}-{}", crate::store::timestamp())))?,
    };
    prepare_out(&out, a.force, &set.root)?;
    let extractors =
        rows.iter().map(|(_, s)| super::common::field_extractor(s, &a.field)).collect::<Result<Vec<_>>>()?;
    let refs: Vec<&dyn crate::extract::Extractor> = extractors.iter().map(|e| e.as_ref()).collect();
    let docs: Vec<_> = set.docs.iter().collect();
    let bar = Progress::new(docs.len() as u64, "compare", a.quiet);
    let scores = score_set(&set, &docs, &refs, measure, &|| bar.inc());
    bar.finish();
    let packages: Vec<usize> = docs.iter().map(|d| d.package).collect();
    let mut table = Table3 { packages: set.packages.clone(), package_docs: Vec::new(), rows: Vec::new() };
    for ((name, _), sc) in rows.iter().zip(&scores) {
        let summary = summarise(&packages, set.packages.len(), sc, measure);
        table.package_docs = summary.package_docs.clone();
        let mut row = table_row(name.clone(), &summary);
        let pairs: Vec<_> = packages.iter().zip(sc).map(|(&p, s)| (p, s.prf)).collect();
        row.ci = crate::eval::bootstrap::f1_intervals(&pairs, set.packages.len(), measure, a.bootstrap, 1);
        table.rows.push(row);
    }
    table.sort_best_first();
    table.write_csv(&out.join("compare.csv"))?;
    let md = table.markdown(
        &format!(
            "{} on {} ({} documents{}): F1 per package, best first",
            families.join(", "),
            set.name,
            docs.len(),
            super::evaluate::measure_note(measure)
        ),
        set.credit.as_deref(),
    );
    write_atomic(&out.join("compare.md"), md.as_bytes())?;
    print!("{md}");
    println!("\nwritten to {}", out.display());
    // Failed: every setting failed on every document (no page could be read).
    let failed = (0..docs.len()).filter(|&d| scores.iter().all(|s| s[d].error.is_some())).count();
    crate::objective::corpus::check_some_read(&set, failed, docs.len())
}
