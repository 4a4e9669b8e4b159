//! `cetune annotate`: the local annotation server for a gold set, or (`--effort`) the number of
//! block toggles each pre-fill leaves on a gold set whose gold texts are known.

use super::common::LimitArgs;
use crate::annotate::{effort, server};
use crate::error::{Error, Result};
use crate::goldset::native;
use crate::report::Progress;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Arguments of `annotate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The gold-set folder (from `goldset new`, or any native gold set).
    dir: PathBuf,
    /// The extractor that pre-selects the blocks (a family or combination; default: the general
    /// model, `general`; `full` keeps every block).
    /// With --effort: repeatable, one row each.
    #[arg(long, value_name = "EXTRACTOR", value_parser = super::values::extractor())]
    prefill: Vec<String>,
    /// A parameter file (a run's best.yaml) whose setting pre-selects the blocks. With --effort:
    /// repeatable, one row each.
    #[arg(long, value_name = "FILE")]
    params: Vec<PathBuf>,
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// The address to listen on; anything but 127.0.0.1 exposes the gold set to the network.
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1")]
    listen: IpAddr,
    /// Who annotates (recorded with each saved page in annotations.yaml; default: $USER).
    #[arg(long)]
    user: Option<String>,
    /// Measure instead of serving: block toggles from each pre-fill to the gold blocks, per
    /// page (the gold set must have its gold texts).
    #[arg(long)]
    effort: bool,
    /// With --effort: also write the per-page counts to this CSV file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

/// A pre-fill: its label and extractor.
fn prefills(a: &Args, engine: &crate::extract::Engine) -> Result<Vec<(String, Box<dyn crate::extract::Extractor>)>> {
    let mut out = Vec::new();
    for name in &a.prefill {
        let (_, setting) = crate::extract::named(engine, name)?;
        out.push((name.clone(), crate::extract::build(engine, &setting)?));
    }
    for p in &a.params {
        let f = crate::extract::load_file(engine, p)?;
        out.push((format!("{} ({})", f.space.extractor, p.display()), crate::extract::build(engine, &f.setting)?));
    }
    if out.is_empty() {
        let general = crate::extract::general::NAME;
        let (_, setting) = crate::extract::named(engine, general)?;
        out.push((general.into(), crate::extract::build(engine, &setting)?));
    }
    Ok(out)
}

/// Runs `annotate`.
pub fn run(a: Args, engine: &crate::extract::Engine) -> Result<()> {
    let limits = a.limits.limits()?;
    let mut pre = prefills(&a, engine)?;
    if a.effort {
        return effort_table(&a, limits, &pre);
    }
    if pre.len() > 1 {
        return Err(Error::config("annotate takes one pre-fill (--prefill or --params); several only with --effort"));
    }
    let (prefill_label, prefill) = pre.remove(0);
    let user = a.user.clone().or_else(|| std::env::var("USER").ok()).unwrap_or_else(|| "unknown".into());
    let app = server::App::new(server::Config {
        root: a.dir.clone(),
        prefill,
        prefill_label,
        listen: a.listen,
        port: a.port,
        limits,
        user,
        token: None,
    })?;
    for (id, e) in &app.errors {
        eprintln!("cetune: warning: skipped {id}: {e}");
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    server::serve(app, stop)
}

fn effort_table(
    a: &Args,
    limits: crate::limits::Limits,
    pre: &[(String, Box<dyn crate::extract::Extractor>)],
) -> Result<()> {
    if let Some(path) = a.csv.as_ref().filter(|p| p.exists()) {
        return Err(Error::config("the --csv file exists: not overwritten").with_path(path));
    }
    let mut set = native::open(&a.dir, false)?;
    set.limits = limits;
    let bar = Progress::new(set.docs.len() as u64, "effort", a.quiet);
    let exs: Vec<&dyn crate::extract::Extractor> = pre.iter().map(|(_, e)| e.as_ref()).collect();
    let (ids, per) = effort::measure(&set, &exs, &|| bar.inc());
    bar.finish();
    if ids.is_empty() {
        return Err(Error::input("no page of the gold set could be read").with_path(&a.dir));
    }
    let first = &per[0];
    let col = |f: fn(&effort::PageEffort) -> usize| first.iter().map(f).collect::<Vec<_>>();
    let ceiling = first.iter().map(|p| p.ceiling_f1).sum::<f64>() / first.len() as f64;
    println!(
        "{}: {} pages; blocks per page: median {} (with words {}), gold blocks median {}; mean LCS F1 of the gold blocks (the best a block selection can do): {:.3}",
        set.name,
        ids.len(),
        effort::median(&col(|p| p.blocks)),
        effort::median(&col(|p| p.word_blocks)),
        effort::median(&col(|p| p.gold_blocks)),
        ceiling
    );
    println!(
        "| pre-fill | pages | toggles per page: median | mean | range toggles per page: median | mean | pages with no toggle |"
    );
    println!("|---|---|---|---|---|---|---|");
    for ((label, _), rows) in pre.iter().zip(&per) {
        let t: Vec<usize> = rows.iter().map(|p| p.toggles).collect();
        let r: Vec<usize> = rows.iter().map(|p| p.runs).collect();
        println!(
            "| {label} | {} | {} | {:.1} | {} | {:.1} | {} |",
            rows.len(),
            effort::median(&t),
            effort::mean(&t),
            effort::median(&r),
            effort::mean(&r),
            t.iter().filter(|&&x| x == 0).count()
        );
    }
    if let Some(path) = &a.csv {
        // The label is always quoted (the committed tables' layout); a page id only when it needs
        // it, as the csv crate would (a user's own file names may hold a comma or a quote).
        let quoted = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
        let mut text = String::from("prefill,page,blocks,word_blocks,gold_blocks,toggles,range_toggles,ceiling_f1\n");
        for ((label, _), rows) in pre.iter().zip(&per) {
            for (id, p) in ids.iter().zip(rows) {
                let id = if id.contains([',', '"', '\n', '\r']) { quoted(id) } else { id.clone() };
                text.push_str(&format!(
                    "{},{id},{},{},{},{},{},{:.4}\n",
                    quoted(label),
                    p.blocks,
                    p.word_blocks,
                    p.gold_blocks,
                    p.toggles,
                    p.runs,
                    p.ceiling_f1
                ));
            }
        }
        crate::report::write_atomic(path, text.as_bytes())?;
    }
    Ok(())
}
