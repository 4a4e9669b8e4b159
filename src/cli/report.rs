//! `cetune report RUN_DIR [--html]`: regenerates every table and plot of a run from its folder
//! alone, and with `--html` the self-contained `report.html`.

use crate::error::Result;
use crate::store::{files, read_trials};
use crate::study::{load_run, write_reports};
use std::path::PathBuf;

/// Arguments of `report`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The run folder.
    run: PathBuf,
    /// Rows in top.csv / top.md.
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Also write RUN_DIR/report.html: one self-contained page with the settings, Table 2, the
    /// plots, parameter importance and every compare table (optimise writes it at every run's end).
    #[arg(long)]
    html: bool,
    /// Re-pick the point of a --objective pareto run's front for best.yaml (recorded in
    /// run.yaml).
    #[arg(long, value_parser = super::values::pick())]
    pick: Option<crate::study::pareto::Pick>,
    /// Also draw each generation's worst fitness in the history plot (a run started with
    /// `optimise --plot-worst` draws it anyway).
    #[arg(long)]
    plot_worst: bool,
}

/// Runs `report`.
pub fn run(a: Args, engine: &crate::extract::Engine) -> Result<()> {
    let (mut record, space, base) = load_run(&a.run)?;
    record.plot_worst |= a.plot_worst;
    // The run's own lock: a live optimise writes the same files (and their temporaries).
    let _lock = crate::store::RunLock::acquire(&a.run)?;
    if let Some(pick) = a.pick {
        let Some(pareto) = record.pareto.as_mut().filter(|_| record.objective == "pareto") else {
            return Err(crate::error::Error::config(format!(
                "--pick {pick}: the run in {} records objective {}, not a Pareto front (--objective pareto)",
                a.run.display(),
                record.objective
            )));
        };
        pareto.pick = pick.to_string();
    }
    let trials = read_trials(&a.run.join(files::INDIVIDUALS), &space)?;
    // A fitted family's picked setting needs its own model: the run's gold set is checked
    // before anything is written, and the model refitted after best.yaml names the new pick.
    let corpus = match a.pick {
        Some(_) => crate::study::refit_check(engine, &a.run, &record, &space, &base)?,
        None => None,
    };
    let picked = write_reports(&a.run, &record, &space, &base, &trials, a.top, a.html)?;
    if a.pick.is_some() {
        record.pareto = picked;
        crate::store::write_yaml(&a.run.join(files::RUN), &record)?;
        if let Some(corpus) = &corpus
            && crate::study::refit_best(engine, &a.run, corpus, &record, &space, &base, &trials)?
        {
            println!("best.model: refitted for the picked setting on the run's {} pages", corpus.entries.len());
        }
        if let Some(c) = record.pareto.as_ref().and_then(|p| p.chosen.as_ref()) {
            println!(
                "best.yaml: trial {} (precision {:.4}, recall {:.4}, F1 {:.4})",
                c.trial, c.precision, c.recall, c.f1
            );
        }
    }
    println!("rebuilt the reports of {} from {} individuals", a.run.display(), trials.len());
    Ok(())
}
