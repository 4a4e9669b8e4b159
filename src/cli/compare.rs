//! `cetune compare`: a run's top individuals and the literature defaults on a full collection,
//! in Gottron's Table 3 layout (a row per setting, a column per package, macro average, best
//! first), as CSV and markdown.

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
    /// The run folder.
    #[arg(long)]
    run: PathBuf,
    /// How many of the run's best distinct individuals.
    #[arg(long, default_value_t = 4)]
    top: usize,
    /// Also evaluate the known-good individuals of the parameter description.
    #[arg(long)]
    with_defaults: bool,
    /// Output folder; default RUN_DIR/compare-<gold set name>.
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
    let (_, space, base) = load_run(&a.run)?;
    let trials = read_trials(&a.run.join(files::INDIVIDUALS), &space)?;
    let mut rows: Vec<(String, crate::params::Setting)> = crate::report::run::top(&trials, a.top)
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let s = space.from_genome(&base, &t.genome);
            (format!("top {} (fitness {:.3}): {}", k + 1, t.fitness.value, label(&space, &s)), s)
        })
        .collect();
    if a.with_defaults {
        for k in &space.known_good {
            if !rows.iter().any(|(_, s)| *s == k.setting) {
                rows.push((format!("{}: {}", k.label, label(&space, &k.setting)), k.setting.clone()));
            } else if let Some(r) = rows.iter_mut().find(|(_, s)| *s == k.setting) {
                r.0 = format!("{} = {}", r.0, k.label);
            }
        }
    }
    let limits = a.limits.limits()?;
    let mut set = native::open(&a.goldset, false)?;
    set.limits = limits;
    // The set's name comes from its goldset.yaml: made one path component, it cannot climb out.
    let out = a.out.clone().unwrap_or_else(|| a.run.join(format!("compare-{}", crate::paths::component(&set.name))));
    prepare_out(&out, a.force, &set.root)?;
    let extractors = rows.iter().map(|(_, s)| crate::extract::build(s)).collect::<Result<Vec<_>>>()?;
    let refs: Vec<&dyn crate::extract::Extractor> = extractors.iter().map(|e| e.as_ref()).collect();
    let docs: Vec<_> = set.docs.iter().collect();
    let bar = Progress::new(docs.len() as u64, "compare", a.quiet);
    let scores = score_set(&set, &docs, &refs, &|| bar.inc());
    bar.finish();
    let packages: Vec<usize> = docs.iter().map(|d| d.package).collect();
    let mut table = Table3 { packages: set.packages.clone(), package_docs: Vec::new(), rows: Vec::new() };
    for ((name, _), sc) in rows.iter().zip(&scores) {
        let summary = summarise(&packages, set.packages.len(), sc);
        table.package_docs = summary.package_docs.clone();
        table.rows.push(table_row(name.clone(), &summary));
    }
    table.sort_best_first();
    table.write_csv(&out.join("compare.csv"))?;
    let md = table.markdown(
        &format!("{} on {} ({} documents): F1 per package, best first", space.extractor, set.name, docs.len()),
        set.credit.as_deref(),
    );
    write_atomic(&out.join("compare.md"), md.as_bytes())?;
    print!("{md}");
    println!("\nwritten to {}", out.display());
    // Failed: every setting failed on every document (no page could be read).
    let failed = (0..docs.len()).filter(|&d| scores.iter().all(|s| s[d].error.is_some())).count();
    crate::objective::corpus::check_some_read(&set, failed, docs.len())
}
