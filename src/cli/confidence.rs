//! `cetune confidence`: fits a setting's confidence model (an estimate of each page's F1, see
//! [`crate::objective::confidence`]) on a gold set, reports its out-of-fold quality, and writes the model
//! file that `extract --confidence` and `evaluate --confidence` read.

use super::common::{LimitArgs, SettingArgs, default_goldset};
use crate::error::{Error, Result};
use crate::goldset::native;
use crate::objective::confidence::{self, Quality};
use crate::objective::stream::score_set;
use crate::report::Progress;
use std::path::PathBuf;

/// Arguments of `confidence`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    setting: SettingArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// The gold set to fit on (native format; a sample of about 120 pages is enough); default:
    /// the embedded one (also named `default`).
    #[arg(long, value_parser = super::common::gold_path)]
    goldset: Option<PathBuf>,
    /// The model file to write; default with --params P: P's name with `.confidence.json`
    /// (`best.yaml` → `best.confidence.json`) beside it.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace an existing model file.
    #[arg(long)]
    force: bool,
    /// Folds of the out-of-fold estimate.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u16).range(2..=50))]
    folds: u16,
    /// How each page's F1 is measured.
    #[arg(long, default_value = "lcs", value_parser = super::values::measure())]
    measure: crate::eval::Measure,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// Runs `confidence`.
pub fn run(a: Args, engine: &crate::extract::Engine) -> Result<()> {
    let (_, setting) = a.setting.resolve_to_apply(engine)?;
    let out = match (&a.out, &a.setting.params) {
        (Some(o), _) => o.clone(),
        (None, Some(p)) => p.with_extension("confidence.json"),
        (None, None) => return Err(Error::config("give --out FILE for the model (or --params FILE: it goes beside)")),
    };
    let gs = a.goldset.clone().unwrap_or_else(default_goldset);
    let mut set = native::open(&gs, false)?;
    set.limits = a.limits.limits()?;
    a.setting.reads().with(&set.root, "the gold set").refuse(&out)?;
    crate::paths::refuse_symlink(&out)?;
    if out.is_dir() {
        return Err(Error::config("the model file is a folder").with_path(&out));
    }
    if out.exists() && !a.force {
        return Err(Error::config("the model file exists; use --force to replace it").with_path(&out));
    }
    let ex = crate::extract::build(engine, &setting)?;
    // Pages in an order that mixes packages, the same for the same set: fold k holds the pages
    // at positions k, k + folds, …
    let mut docs: Vec<_> = set.docs.iter().collect();
    docs.sort_by_key(|d| crate::extract::combine::hash_of((&set.packages[d.package], &d.id)));
    let bar = Progress::new(2 * docs.len() as u64, "confidence", a.quiet);
    let scores = score_set(&set, &docs, &[ex.as_ref()], a.measure, &|| bar.inc()).remove(0);
    let signals = confidence::gold_signals(&set, &docs, ex.as_ref(), &|| bar.inc());
    bar.finish();
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for (s, sig) in scores.iter().zip(&signals) {
        if let (None, Some(sig)) = (&s.error, sig) {
            x.push(*sig);
            y.push(s.prf.f1);
        }
    }
    if x.len() < 2 * usize::from(a.folds) {
        return Err(Error::input(format!(
            "{} pages could be scored on {}: too few to fit a confidence model with {} folds",
            x.len(),
            set.name,
            a.folds
        )));
    }
    let (mut model, oof) = confidence::fit(&x, &y, a.folds.into(), confidence::setting_key(&setting));
    let q = Quality::of(&oof, &y, model.threshold);
    model.about = serde_json::json!({
        "goldset": set.name,
        "pages": x.len(),
        "folds": a.folds,
        "measure": a.measure.to_string(),
        "out_of_fold": {
            "spearman": q.spearman,
            "bad_pages": q.bad,
            "flagged": q.flagged,
            "caught": q.caught,
            "mean_f1_below": q.mean_below,
            "mean_f1_above": q.mean_above,
        },
    });
    crate::paths::write_atomic(&out, model.to_json().as_bytes())?;
    println!(
        "confidence of {} fitted on {} pages of {}; out of fold ({} folds):",
        setting.extractor,
        x.len(),
        set.name,
        a.folds
    );
    println!("{}", q.lines());
    println!("default --min-confidence {:.4}; wrote {}", model.threshold, out.display());
    Ok(())
}
