//! `cetune evaluate`: one setting over a whole gold set, in parallel, with a progress bar;
//! writes `per-document.csv`, `per-package.csv` and `summary.md` (Table 3 layout).

use super::common::{LimitArgs, SettingArgs, default_goldset, label, timestamp};
use crate::error::Result;
use crate::goldset::native;
use crate::objective::corpus::check_some_read;
use crate::objective::score::{DocScore, EXTRACTOR_FAILED, Summary, summarise};
use crate::objective::stream::score_set;
use crate::report::{Progress, Table3, Table3Row, write_atomic};
use crate::store;
use std::path::{Path, PathBuf};

/// Arguments of `evaluate`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    setting: SettingArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// The gold set (native format); default: the embedded one (also named `default`).
    #[arg(long, value_parser = super::common::gold_path)]
    goldset: Option<PathBuf>,
    /// Output folder; default: results/evaluate-<extractor>-<timestamp>.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write into an existing non-empty --out folder (files of the same names are replaced).
    #[arg(long)]
    force: bool,
    /// How each page is scored.
    #[arg(long, default_value = "lcs", value_parser = super::values::measure())]
    measure: crate::eval::Measure,
    /// Score a gold field instead of the body, from the extractor's segments (`extract
    /// --segments`); only documents carrying the field are scored.
    #[arg(long, default_value = "body", value_parser = super::values::field())]
    field: String,
    /// Also score documents whose gold is empty.
    #[arg(long)]
    keep_empty: bool,
    /// A confidence model for this setting (`cetune confidence`): also report how well it
    /// predicts each page's F1 (Spearman, mean F1 below and above the threshold, the pages with
    /// F1 < 0.25 caught at <= 15 % flagged) and write confidence.csv.
    #[arg(long, value_name = "FILE")]
    confidence: Option<PathBuf>,
    /// The low-confidence threshold of that report; default: the model's own.
    #[arg(long, value_name = "C", requires = "confidence")]
    min_confidence: Option<f64>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// Runs `evaluate`.
pub fn run(a: Args, engine: &crate::extract::Engine) -> Result<()> {
    let (space, setting) = a.setting.resolve_to_apply(engine)?;
    let measure = a.measure;
    let gs = a.goldset.clone().unwrap_or_else(default_goldset);
    let limits = a.limits.limits()?;
    let mut set = native::open(&gs, a.keep_empty)?;
    set.limits = limits;
    let measure = super::common::field_mode(&mut set, &a.field, measure)?;
    let ex = super::common::field_extractor(engine, &setting, &a.field)?;
    let model = match &a.confidence {
        Some(_) if a.field != "body" => {
            return Err(crate::error::Error::config("--confidence estimates the body's F1: drop --field"));
        }
        Some(p) => Some(crate::objective::confidence::Model::read(p, &setting)?),
        None => None,
    };
    let out = match &a.out {
        Some(out) => out.clone(),
        None => store::unique_dir(Path::new(&format!("results/evaluate-{}-{}", setting.extractor, timestamp())))?,
    };
    let mut reads = a.setting.reads().with(&set.root, "the gold set");
    if let Some(p) = &a.confidence {
        reads.add(p, "the confidence model");
    }
    store::prepare_out(&out, a.force, &reads)?;
    let docs: Vec<_> = set.docs.iter().collect();
    let bar = Progress::new(docs.len() as u64, "evaluate", a.quiet);
    let started = std::time::Instant::now();
    let scores = score_set(&set, &docs, &[ex.as_ref()], measure, &|| bar.inc()).remove(0);
    bar.finish();
    let packages: Vec<usize> = docs.iter().map(|d| d.package).collect();
    let summary = summarise(&packages, set.packages.len(), &scores, measure);
    let row = table_row(label(&space, &setting), &summary);
    let table = Table3 { packages: set.packages.clone(), package_docs: summary.package_docs.clone(), rows: vec![row] };
    write_per_document(&out.join("per-document.csv"), &set, &docs, &scores)?;
    write_per_package(&out.join("per-package.csv"), &set.packages, &summary)?;
    let field = if a.field == "body" { String::new() } else { format!(", field {}", a.field) };
    let mut md = table.markdown(
        &format!("F1 on {} ({} documents){}{field}", set.name, docs.len(), measure_note(measure)),
        set.credit.as_deref(),
    );
    if a.field != "body" {
        md += &format!("\n{}\n", super::common::field_accuracy(&a.field, &scores));
    }
    md += &format!(
        "\nmedian F1 {:.3}; documents with F1 = 0: {}; errors: {}\n",
        summary.median_f1, summary.zero_f1, summary.errors
    );
    if let Some(without) = without_fallback(engine, &setting, &a.field)? {
        md += &fallback_report(&out, &set, &docs, ex.as_ref(), without.as_ref(), &scores, measure, a.quiet)?;
    }
    if let Some(m) = &model {
        md += &confidence_report(&out, "", &set, &docs, ex.as_ref(), &scores, m, a.min_confidence, a.quiet)?;
    }
    write_atomic(&out.join("summary.md"), md.as_bytes())?;
    print!("{md}");
    println!("\n{} documents in {:.2} s; results in {}", docs.len(), started.elapsed().as_secs_f64(), out.display());
    // Unreadable pages were warned about by the loader; extractor failures are named here.
    for (d, s) in docs.iter().zip(&scores) {
        if s.error.as_deref() == Some(EXTRACTOR_FAILED) {
            eprintln!("cetune: warning: {}/{}: {EXTRACTOR_FAILED}", set.packages[d.package], d.id);
        }
    }
    check_some_read(&set, summary.errors, docs.len())
}

/// The words a table title adds for a measure other than the default.
pub fn measure_note(m: crate::eval::Measure) -> String {
    match m {
        crate::eval::Measure::Lcs => String::new(),
        m => format!(", measure {m}"),
    }
}

/// A number of a per-document or per-package CSV: six decimals; an undefined one (`shingle4`'s
/// precision of an empty extract, recall of an empty gold) is an empty cell.
fn num(x: f64) -> String {
    if x.is_finite() { format!("{x:.6}") } else { String::new() }
}

/// A Table 3 row from a summary.
pub fn table_row(label: String, s: &Summary) -> Table3Row {
    let m = s.averages.macro_avg;
    Table3Row {
        label,
        per_package: s.per_package.iter().map(|p| p.map(|p| p.f1)).collect(),
        macro_prf: (m.precision, m.recall, m.f1),
        doc_mean_f1: s.averages.micro_avg.f1,
        errors: s.errors,
        ci: None,
        fired: Some((s.fired, s.package_docs.iter().sum())),
    }
}

pub fn write_per_document(
    path: &Path,
    set: &crate::goldset::GoldSet,
    docs: &[&crate::goldset::GoldDoc],
    scores: &[DocScore],
) -> Result<()> {
    let mut rows = vec![
        ["package", "id", "precision", "recall", "f1", "extract_words", "gold_words", "error"]
            .map(String::from)
            .to_vec(),
    ];
    for (d, s) in docs.iter().zip(scores) {
        rows.push(vec![
            set.packages[d.package].clone(),
            d.id.clone(),
            num(s.prf.precision),
            num(s.prf.recall),
            num(s.prf.f1),
            s.extract_words.to_string(),
            s.gold_words.to_string(),
            s.error.clone().unwrap_or_default(),
        ]);
    }
    crate::report::csv::write(path, rows)
}

pub fn write_per_package(path: &Path, packages: &[String], s: &Summary) -> Result<()> {
    let mut rows = vec![["package", "documents", "precision", "recall", "f1"].map(String::from).to_vec()];
    for (i, p) in packages.iter().enumerate() {
        if let Some(prf) = s.per_package[i] {
            rows.push(vec![p.clone(), s.package_docs[i].to_string(), num(prf.precision), num(prf.recall), num(prf.f1)]);
        }
    }
    let (ma, mi) = (s.averages.macro_avg, s.averages.micro_avg);
    let n: usize = s.package_docs.iter().sum();
    rows.push(vec!["(macro)".into(), n.to_string(), num(ma.precision), num(ma.recall), num(ma.f1)]);
    rows.push(vec!["(doc-mean)".into(), n.to_string(), num(mi.precision), num(mi.recall), num(mi.f1)]);
    crate::report::csv::write(path, rows)
}

/// The extractor of a setting with a fallback (a route's `fallback`) without it: the primary's
/// output on every page; `None` for a setting without one.
fn without_fallback(
    engine: &crate::extract::Engine,
    setting: &crate::params::Setting,
    field: &str,
) -> Result<Option<Box<dyn crate::extract::Extractor>>> {
    use crate::params::route::{FALLBACK, NONE, fallback_of};
    if fallback_of(setting).is_none() {
        return Ok(None);
    }
    if field != "body" {
        return Err(crate::error::Error::config("a fallback is judged on the body's confidence: drop --field"));
    }
    let mut s = setting.clone();
    s.values.iter_mut().filter(|(n, _)| n == FALLBACK).for_each(|(_, v)| *v = crate::params::Value::Cat(NONE.into()));
    Ok(Some(crate::extract::build(engine, &s)?))
}

/// `evaluate` of a setting with a fallback: how many pages fell back and what it gained there
/// (`fallback.csv`: package, id, fell_back, f1, f1_without), as a line for `summary.md`.
#[allow(clippy::too_many_arguments)]
fn fallback_report(
    out: &Path,
    set: &crate::goldset::GoldSet,
    docs: &[&crate::goldset::GoldDoc],
    ex: &dyn crate::extract::Extractor,
    without: &dyn crate::extract::Extractor,
    scores: &[DocScore],
    measure: crate::eval::Measure,
    quiet: bool,
) -> Result<String> {
    let bar = Progress::new(2 * docs.len() as u64, "fallback", quiet);
    let plain = score_set(set, docs, &[without], measure, &|| bar.inc()).remove(0);
    let fell = crate::objective::confidence::gold_fell_back(set, docs, ex, &|| bar.inc());
    bar.finish();
    let mut rows = vec![["package", "id", "fell_back", "f1", "f1_without"].map(String::from).to_vec()];
    let (mut decided, mut with, mut wo) = (Vec::new(), Vec::new(), Vec::new());
    for (((d, s), p), f) in docs.iter().zip(scores).zip(&plain).zip(&fell) {
        let f = f.filter(|_| s.error.is_none() && p.error.is_none());
        if let Some(f) = f {
            rows.push(vec![set.packages[d.package].clone(), d.id.clone(), f.to_string(), num(s.prf.f1), num(p.prf.f1)]);
        }
        decided.push(f);
        with.push(s.prf.f1);
        wo.push(p.prf.f1);
    }
    crate::report::csv::write(&out.join("fallback.csv"), rows)?;
    Ok(format!(
        "
{}
",
        crate::objective::confidence::FallbackGain::of(&decided, &with, &wo).line()
    ))
}

/// `evaluate --confidence` (and `compare --confidence`, `stem` naming the compared row): each
/// page's confidence beside its F1 (`confidence<stem>.csv`: package, id, f1, confidence), the
/// calibration (`calibration<stem>.csv/.svg/.png`) and how well the one predicts the other, as
/// lines for the summary.
#[allow(clippy::too_many_arguments)]
pub(super) fn confidence_report(
    out: &Path,
    stem: &str,
    set: &crate::goldset::GoldSet,
    docs: &[&crate::goldset::GoldDoc],
    ex: &dyn crate::extract::Extractor,
    scores: &[DocScore],
    model: &crate::objective::confidence::Model,
    threshold: Option<f64>,
    quiet: bool,
) -> Result<String> {
    let bar = Progress::new(docs.len() as u64, "confidence", quiet);
    let signals = crate::objective::confidence::gold_signals(set, docs, ex, &|| bar.inc());
    bar.finish();
    let mut rows = vec![["package", "id", "f1", "confidence"].map(String::from).to_vec()];
    let (mut conf, mut f1) = (Vec::new(), Vec::new());
    for ((d, s), sig) in docs.iter().zip(scores).zip(&signals) {
        if let (None, Some(sig)) = (&s.error, sig) {
            let c = model.predict(sig);
            conf.push(c);
            f1.push(s.prf.f1);
            rows.push(vec![set.packages[d.package].clone(), d.id.clone(), num(s.prf.f1), num(c)]);
        }
    }
    crate::report::csv::write(&out.join(format!("confidence{stem}.csv")), rows)?;
    let q = crate::objective::confidence::Quality::of(&conf, &f1, threshold.unwrap_or(model.threshold));
    // The calibration plot: mean F1 by tenth of confidence against the diagonal.
    let pages: Vec<(f64, f64)> = conf.iter().copied().zip(f1.iter().copied()).collect();
    let bins = crate::report::plot::calibration_bins(&pages, 10);
    let mut rows = vec![["mean_confidence", "mean_f1", "pages"].map(String::from).to_vec()];
    rows.extend(bins.iter().map(|&(c, f, k)| vec![num(c), num(f), k.to_string()]));
    crate::report::csv::write(&out.join(format!("calibration{stem}.csv")), rows)?;
    let title = format!("confidence calibration on {} ({} pages)", set.name, pages.len());
    let info = crate::report::plot::CalibrationInfo { title, pages, bins, threshold: q.threshold };
    crate::report::plot::render_calibration(&info, &out.join(format!("calibration{stem}")))?;
    Ok(format!(
        "\nconfidence (an estimate of each page's F1):\n{}\ncalibration (mean F1 by tenth of confidence): calibration{stem}.csv, calibration{stem}.svg, calibration{stem}.png\n",
        q.lines()
    ))
}
