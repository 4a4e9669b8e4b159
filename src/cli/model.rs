//! `cetune model build`: the general block model, fitted on several gold sets pooled
//! (`objective::pool`), with its held-out figures. The shipped `params/general.yaml` and
//! `params/general.model` are this command's output on the four public sets.

use super::common::{LimitArgs, SettingArgs};
use crate::error::{Error, Result};
use crate::goldset::native;
use crate::objective::corpus::{Corpus, check_some_read};
use crate::objective::fit::fit_all;
use crate::objective::pool::{Pool, choose, held_out, set_means};
use crate::params::{About, Setting};
use crate::report::Progress;
use std::fmt::Write as _;
use std::path::PathBuf;

/// What to do with models.
#[derive(clap::Subcommand, Debug)]
pub enum Action {
    /// Fit the general block model's family on several gold sets pooled, each page under its own
    /// set's conventions; score a grid of settings out of fold (leave one set out, or folds by
    /// host within a set); write the best by the macro mean over sets as general.yaml and
    /// general.model, with means.csv and pages.csv.
    Build(BuildArgs),
}

/// Arguments of `model build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    setting: SettingArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// A gold set to pool (native format; repeat for each set, at least two).
    #[arg(long = "goldset", value_name = "DIR", required = true)]
    goldsets: Vec<PathBuf>,
    /// Values to try for a parameter, scored out of fold: --grid t=0.3,0.4,0.5 (repeatable;
    /// every combination is tried).
    #[arg(long = "grid", value_name = "NAME=V,V,...")]
    grids: Vec<String>,
    /// Split this set into K folds by host instead of holding it out whole (SET=K, by the
    /// set's name in its goldset.yaml; repeatable).
    #[arg(long = "host-folds", value_name = "SET=K")]
    host_folds: Vec<String>,
    /// Output folder (general.yaml, general.model, means.csv, pages.csv).
    #[arg(long)]
    out: PathBuf,
    /// Write into an existing non-empty --out folder.
    #[arg(long)]
    force: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// Runs a `model` action.
pub fn run(action: Action, engine: &crate::extract::Engine) -> Result<()> {
    match action {
        Action::Build(a) => build(a, engine),
    }
}

/// The name written beside the settings file.
const MODEL: &str = "general.model";

fn build(a: BuildArgs, engine: &crate::extract::Engine) -> Result<()> {
    let mut setting_args = a.setting.clone();
    let family = crate::extract::general::family()?;
    if setting_args.extractor.is_none() && setting_args.params.is_none() {
        setting_args.extractor = Some(family.clone());
    }
    let (space, mut base) = setting_args.resolve(engine)?;
    if base.extractor != family {
        return Err(Error::config(format!("model build fits {family}, not '{}'", base.extractor)));
    }
    base.model = None;
    let grid = grid_of(&space, &base, &a.grids)?;
    let host_folds = a
        .host_folds
        .iter()
        .map(|s| {
            let (n, k) = s.split_once('=').ok_or_else(|| Error::config(format!("--host-folds {s}: expected SET=K")))?;
            let k = k.parse::<usize>().map_err(|_| Error::config(format!("--host-folds {s}: K is not a number")))?;
            Ok((n.to_string(), k))
        })
        .collect::<Result<Vec<_>>>()?;
    let limits = a.limits.limits()?;
    let mut reads = a.setting.reads();
    let mut sets = Vec::new();
    for g in &a.goldsets {
        let mut set = native::open(g, false)?;
        set.limits = limits;
        reads.add(&set.root, "a gold set");
        if sets.iter().any(|s: &crate::goldset::GoldSet| s.name == set.name) {
            return Err(Error::config(format!("two gold sets are named '{}'", set.name)).with_path(g));
        }
        sets.push(set);
    }
    if sets.len() < 2 {
        return Err(Error::config("model build pools at least two gold sets (--goldset A --goldset B ...)"));
    }
    crate::store::prepare_out(&a.out, a.force, &reads)?;

    // Every grid point's needs: a block model's stacked members may be any of its slots' choices.
    let needs = crate::extract::run_needs(engine, &space, &base)?;
    let total = sets.iter().map(|s| s.docs.len()).sum::<usize>();
    let bar = Progress::new(total as u64, "parse", a.quiet);
    let mut parts = Vec::new();
    for set in &sets {
        let docs: Vec<_> = set.docs.iter().collect();
        let corpus = Corpus::load_for(set, &docs, needs, &|| bar.inc());
        let failed = corpus.entries.iter().filter(|e| e.doc.is_none()).count();
        check_some_read(set, failed, docs.len())?;
        parts.push((corpus, set.docs.iter().map(|d| d.url.clone()).collect()));
    }
    bar.finish();
    let pool = Pool::of(parts);
    let (fold, labels) = pool.folds(&host_folds)?;
    if !a.quiet {
        eprintln!(
            "cetune: {} pages of {} sets; {} grid point(s) over {} held-out folds",
            pool.corpus.entries.len(),
            pool.names.len(),
            grid.len(),
            labels.len()
        );
    }
    let prf = held_out(engine, &pool, &fold, labels.len(), &grid, crate::eval::Measure::Lcs)?;
    let means: Vec<Vec<f64>> = prf.iter().map(|p| set_means(&pool, |i| p[i].f1)).collect();
    let chosen = choose(&means, None);
    // Each set's figure: the grid point chosen on the other sets, on this set's held-out pages.
    let for_set: Vec<usize> = (0..pool.names.len()).map(|s| choose(&means, Some(s))).collect();

    let n_of = |s: usize| pool.set.iter().filter(|&&x| x == s).count();
    let mut means_rows =
        vec![["grid", "set", "pages", "f1", "chosen", "chosen_without_set"].map(String::from).to_vec()];
    for (g, m) in means.iter().enumerate() {
        for (s, v) in m.iter().enumerate() {
            means_rows.push(vec![
                label(&grid[g], &a.grids),
                pool.names[s].clone(),
                n_of(s).to_string(),
                format!("{v:.6}"),
                (g == chosen).to_string(),
                (g == for_set[s]).to_string(),
            ]);
        }
    }
    let mut page_rows = vec![["set", "package", "id", "fold", "precision", "recall", "f1"].map(String::from).to_vec()];
    for (i, e) in pool.corpus.entries.iter().enumerate() {
        let p = prf[for_set[pool.set[i]]][i];
        page_rows.push(vec![
            pool.names[pool.set[i]].clone(),
            pool.corpus.packages[e.package].clone(),
            e.id.clone(),
            labels[fold[i]].clone(),
            format!("{:.6}", p.precision),
            format!("{:.6}", p.recall),
            format!("{:.6}", p.f1),
        ]);
    }

    let best = grid[chosen].clone();
    let model = fit_all(engine, &pool.corpus, &best)?;
    let macro_of = |f: &dyn Fn(usize) -> f64| {
        let m = set_means(&pool, f);
        m.iter().sum::<f64>() / m.len() as f64
    };
    let about = About {
        fitness: macro_of(&|i| prf[chosen][i].f1),
        precision: macro_of(&|i| prf[chosen][i].precision),
        recall: macro_of(&|i| prf[chosen][i].recall),
        objective: "f1 (macro mean over sets, out of fold)".into(),
        goldset: pool.names.join(" + "),
        run: a.out.display().to_string(),
        structure: None,
    };
    let mut written = best.clone();
    written.model = Some(PathBuf::from(MODEL));
    let credits: Vec<Option<String>> = sets.iter().map(|s| s.credit.clone()).collect();
    let mut yaml = header(&a, &family, &pool, &labels, &credits);
    yaml += &crate::params::settings_file(&written, Some(&about), None, None)?;
    crate::paths::write_atomic(&a.out.join(MODEL), model.write().as_bytes())?;
    crate::paths::write_atomic(&a.out.join("general.yaml"), yaml.as_bytes())?;
    crate::report::csv::write(&a.out.join("means.csv"), means_rows)?;
    crate::report::csv::write(&a.out.join("pages.csv"), page_rows)?;

    println!("held-out mean F1 by set (each set's setting chosen on the other sets):");
    for (s, name) in pool.names.iter().enumerate() {
        println!(
            "  {name:<24} {:>5} pages  {:.3}  ({})",
            n_of(s),
            means[for_set[s]][s],
            label(&grid[for_set[s]], &a.grids)
        );
    }
    println!("chosen on all sets: {}; macro mean {:.3}", label(&best, &a.grids), about.fitness);
    println!("wrote {}", a.out.join("general.yaml").display());
    Ok(())
}

/// The settings of the grid: every combination of the `--grid` values over `base`.
fn grid_of(space: &crate::params::ParamSpace, base: &Setting, grids: &[String]) -> Result<Vec<Setting>> {
    let mut points = vec![base.clone()];
    for g in grids {
        let (name, values) =
            g.split_once('=').ok_or_else(|| Error::config(format!("--grid {g}: expected NAME=V,V,...")))?;
        let values: Vec<&str> = values.split(',').filter(|v| !v.is_empty()).collect();
        if values.is_empty() {
            return Err(Error::config(format!("--grid {g}: no values")));
        }
        let mut next = Vec::new();
        for p in &points {
            for v in &values {
                next.push(space.with_assignments(p, &[format!("{name}={v}")])?);
            }
        }
        points = next;
    }
    Ok(points)
}

/// A grid point's label: the values of the gridded parameters (`default` without a grid).
fn label(s: &Setting, grids: &[String]) -> String {
    let names: Vec<&str> = grids.iter().filter_map(|g| g.split_once('=').map(|(n, _)| n)).collect();
    if names.is_empty() {
        return "default".into();
    }
    names.iter().filter_map(|n| s.get(n).map(|v| format!("{n}={v}"))).collect::<Vec<_>>().join(" ")
}

/// The comment lines that open general.yaml: what it was fitted on and how to rebuild it.
fn header(a: &BuildArgs, family: &str, pool: &Pool, labels: &[String], credits: &[Option<String>]) -> String {
    let mut h = format!("# The general block model: {family} fitted on every page of the gold sets below, pooled,\n");
    h += "# each page labelled under its own set's conventions (cetune model build).\n";
    for (s, name) in pool.names.iter().enumerate() {
        let n = pool.set.iter().filter(|&&x| x == s).count();
        let _ = writeln!(h, "#   {name}: {n} pages");
        if let Some(c) = &credits[s] {
            let _ = writeln!(h, "#     {}", c.replace('\n', " "));
        }
    }
    let _ = writeln!(h, "# held-out folds: {}", labels.join(", "));
    let mut cmd = String::from("cetune model build");
    for g in &a.goldsets {
        let _ = write!(cmd, " --goldset {}", g.display());
    }
    for g in &a.grids {
        let _ = write!(cmd, " --grid {g}");
    }
    for s in &a.setting.sets {
        let _ = write!(cmd, " --set {s}");
    }
    for hf in &a.host_folds {
        let _ = write!(cmd, " --host-folds {hf}");
    }
    let _ = writeln!(h, "# rebuild: {cmd} --out DIR");
    h
}
