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
}

/// Runs `report`.
pub fn run(a: Args) -> Result<()> {
    let (record, space, base) = load_run(&a.run)?;
    let trials = read_trials(&a.run.join(files::INDIVIDUALS), &space)?;
    write_reports(&a.run, &record, &space, &base, &trials, a.top, a.html)?;
    println!("rebuilt the reports of {} from {} individuals", a.run.display(), trials.len());
    Ok(())
}
