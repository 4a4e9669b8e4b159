//! `cetune optimise`: the main job. Turns the arguments into a [`study::Plan`] (or a resume) and
//! prints the [`study::Summary`]; the run lifecycle itself lives in [`crate::study`].

use super::common::{SettingArgs, default_goldset};
use super::values;
use crate::error::{Error, ErrorKind, Result};
use crate::evolve::{Blend, Config, Mutation, StrategyKind};
use crate::objective::problem::Objective;
use crate::study;
use std::path::PathBuf;

// The groups of `optimise --help`.
const TUNE: &str = "What to tune";
const SEARCH: &str = "Search";
const GA: &str = "GA and NSGA-II (--strategy ga, nsga2)";
const LIMITS: &str = "Limits";
const OUTPUT: &str = "Output";

/// Arguments of `optimise`, grouped in `--help`: what to tune, the search (with the GA's own
/// operators), limits, output.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten, next_help_heading = TUNE)]
    setting: SettingArgs,
    /// The gold set (sample) used for fitness; default: the embedded one (also named `default`).
    #[arg(long, help_heading = TUNE, value_parser = super::common::gold_path)]
    goldset: Option<PathBuf>,
    /// Tune for a gold field instead of the body (scored through the extractor's segments, as
    /// `evaluate --field`); recorded in run.yaml.
    #[arg(long, default_value = "body", value_parser = values::field(), help_heading = TUNE)]
    field: String,
    /// How each page is scored; recorded in run.yaml.
    #[arg(long, default_value = "lcs", value_parser = values::measure(), help_heading = TUNE)]
    measure: crate::eval::Measure,
    /// Fitness.
    #[arg(long, default_value = "f1", value_parser = values::objective(), help_heading = TUNE)]
    objective: Objective,
    /// With --objective pareto: the point of the precision–recall front that best.yaml gets
    /// (`cetune report RUN --pick …` re-picks).
    #[arg(long, value_parser = values::pick(), help_heading = TUNE)]
    pick: Option<crate::study::pareto::Pick>,
    /// Hold out this share of the documents (0 < F ≤ 0.9, stratified by package, from the seed)
    /// to estimate how the tuned setting generalises: the search sees only the rest.
    #[arg(long, value_name = "FRACTION", help_heading = TUNE)]
    validation: Option<f64>,

    /// Search strategy [default: ga, or the family's own]: the flags under "GA and NSGA-II"
    /// apply to ga and nsga2 only; every strategy reads --population, --seed and the limits. A
    /// family may declare its default search in its YAML (`search:`; blocktrees: the GA with
    /// population 10 for 6 generations); it applies when none of --strategy, --population,
    /// --max-generations, --patience, --racing is given.
    #[arg(long, value_parser = values::strategy(), help_heading = SEARCH)]
    strategy: Option<StrategyKind>,
    /// Random seed: the same seed and inputs give the identical run, whatever --threads.
    #[arg(long, default_value_t = 1, help_heading = SEARCH)]
    seed: u64,
    /// Individuals per generation (every strategy; hyperband: settings its first bracket
    /// starts) [default: 30, or the family's own].
    #[arg(long, value_name = "POPULATION", help_heading = SEARCH)]
    population: Option<usize>,
    /// Add an individual to the first generation: --individual r=40,t=0.8 (repeatable).
    #[arg(long = "individual", value_name = "K=V,K=V", help_heading = SEARCH)]
    individuals: Vec<String>,
    /// Warm start: generation 0 also receives the top individuals of this earlier run (same
    /// extractor and tuned parameters; e.g. a run on a sibling set, or a coarse earlier run).
    #[arg(long, value_name = "RUN_DIR", help_heading = SEARCH)]
    warm_start: Option<PathBuf>,
    /// How many top distinct individuals of the --warm-start run.
    #[arg(long, default_value_t = 5, value_name = "N", help_heading = SEARCH)]
    warm_top: usize,
    /// Racing: each generation's new settings are first scored on a small stratified subset of
    /// the documents; those worse than the best so far by a one-sided paired t-test (α = 0.05)
    /// are dropped, the others go on to more documents until all (needs objective f1 or fbeta:B).
    #[arg(long, help_heading = SEARCH)]
    racing: bool,
    /// The level of racing's one-sided paired t-test: larger drops more settings early (saves
    /// more document evaluations) and risks dropping good ones on noise.
    #[arg(long, value_name = "ALPHA", default_value_t = crate::evolve::race::ALPHA, help_heading = SEARCH)]
    racing_alpha: f64,

    /// Best individuals copied unchanged into the next generation.
    #[arg(long, default_value_t = 1, help_heading = GA)]
    elites: usize,
    /// Tournament size for parent selection.
    #[arg(long, default_value_t = 2, help_heading = GA)]
    tournament: usize,
    /// Probability that two parents are recombined (else cloned).
    #[arg(long, default_value_t = 0.9, help_heading = GA)]
    crossover_prob: f64,
    /// Recombination of correlated parameters.
    #[arg(long, default_value = "blx", value_parser = values::blend(), help_heading = GA)]
    blend: Blend,
    /// Alpha of BLX-alpha.
    #[arg(long, default_value_t = 0.5, help_heading = GA)]
    blx_alpha: f64,
    /// Mutation step sizes.
    #[arg(long, default_value = "fixed", value_parser = values::mutation(), help_heading = GA)]
    mutation: Mutation,
    /// Gaussian mutation sigma as a share of the parameter's range.
    #[arg(long, default_value_t = 0.1, help_heading = GA)]
    mutation_sigma: f64,
    /// Per-parameter mutation probability (default 1/number of tuned parameters).
    #[arg(long, help_heading = GA)]
    mutation_rate: Option<f64>,

    /// Generations at most (generation 0 included) [default: 50]. With --resume: the new
    /// limit of the run, which extends a finished run.
    #[arg(long, value_name = "N", help_heading = LIMITS)]
    max_generations: Option<usize>,
    /// Stop after this many generations without improvement by more than --epsilon (0: never)
    /// [default: 10]. With --resume: the new patience, which extends a run that stopped on it.
    #[arg(long, value_name = "N", help_heading = LIMITS)]
    patience: Option<usize>,
    /// Stop after the first generation that ends this many seconds after the run started (a
    /// resumed run counts its time so far): budgets of equal wall time. The one rule that
    /// depends on the machine, so a run with it is reproducible only on the same machine and load.
    #[arg(long, value_name = "SECONDS", help_heading = LIMITS)]
    time_limit: Option<f64>,
    /// Smallest improvement of the best fitness that counts.
    #[arg(long, value_name = "E|auto", default_value = "0.0001", value_parser = values::epsilon(), help_heading = LIMITS)]
    epsilon: values::Epsilon,
    /// Worker threads (default: all cores).
    #[arg(long, help_heading = LIMITS)]
    threads: Option<usize>,
    /// Bound of a combination's member-output cache, in MB (0: no caching).
    #[arg(long, value_name = "MB", default_value_t = crate::objective::corpus::MEMO_MB, help_heading = LIMITS)]
    member_cache_mb: usize,
    #[command(flatten, next_help_heading = LIMITS)]
    limits: super::common::LimitArgs,

    /// Run folder; default results/<extractor>-<timestamp>.
    #[arg(long, help_heading = OUTPUT)]
    out: Option<PathBuf>,
    /// Rows in top.csv / top.md.
    #[arg(long, default_value_t = 10, help_heading = OUTPUT)]
    top: usize,
    /// Continue an interrupted run from its folder (all other settings come from its run.yaml),
    /// or extend a finished one with a larger --max-generations or --patience.
    #[arg(long, value_name = "RUN_DIR", help_heading = OUTPUT)]
    resume: Option<PathBuf>,
    /// Overwrite an existing run folder.
    #[arg(long, help_heading = OUTPUT)]
    force: bool,
    /// No progress bar.
    #[arg(long, short, help_heading = OUTPUT)]
    quiet: bool,
    /// Also draw each generation's worst fitness in the history plot (it stretches the axis far
    /// below the best); recorded in run.yaml, so `report` and a resumed run keep it.
    #[arg(long, help_heading = OUTPUT)]
    plot_worst: bool,
}

/// The description's default search when the command line gives no search flag (and no Pareto
/// objective, which needs NSGA-II): a budget is taken whole or not at all.
fn own_search<'a>(a: &Args, space: &'a crate::params::ParamSpace) -> Option<&'a crate::params::Search> {
    let flags = a.strategy.is_some()
        || a.population.is_some()
        || a.max_generations.is_some()
        || a.patience.is_some()
        || a.racing
        || a.objective == Objective::Pareto;
    space.search.as_ref().filter(|_| !flags)
}

fn config(a: &Args, search: Option<&crate::params::Search>) -> Result<Config> {
    let (epsilon, epsilon_auto) = match a.epsilon {
        values::Epsilon::Auto => (Config::default().epsilon, true),
        values::Epsilon::Value(e) => (e, false),
    };
    let d = Config::default();
    let strategy = match search.and_then(|s| s.strategy.as_deref().map(|n| (n, &s.at))) {
        Some((name, at)) => {
            name.parse::<StrategyKind>().map_err(|e| Error::config(format!("{at}: search: {}", e.message)))?
        }
        None => a.strategy.unwrap_or(d.strategy),
    };
    let c = Config {
        population: a.population.or(search.and_then(|s| s.population)).unwrap_or(d.population),
        elites: a.elites,
        tournament: a.tournament,
        crossover_prob: a.crossover_prob,
        blx_alpha: a.blx_alpha,
        blend: a.blend,
        mutation_sigma: a.mutation_sigma,
        mutation: a.mutation,
        mutation_rate: a.mutation_rate,
        cat_flip_prob: None,
        max_generations: a.max_generations.or(search.and_then(|s| s.max_generations)).unwrap_or(d.max_generations),
        patience: a.patience.or(search.and_then(|s| s.patience)).unwrap_or(d.patience),
        epsilon,
        epsilon_auto,
        seed: a.seed,
        strategy,
        racing: a.racing,
        racing_alpha: a.racing_alpha,
        validation: a.validation,
        time_limit: a.time_limit,
    };
    c.validate()?;
    Ok(c)
}

/// Runs `optimise`.
pub fn run(a: Args, engine: &crate::extract::Engine) -> Result<()> {
    let opts = study::Options {
        quiet: a.quiet,
        top: a.top,
        ctrl_c: true,
        limits: a.limits.limits()?,
        plot_worst: a.plot_worst,
        member_cache_mb: Some(a.member_cache_mb),
        engine: engine.clone(),
        ..Default::default()
    };
    let summary = match &a.resume {
        Some(dir) => {
            if a.force || a.out.is_some() || a.warm_start.is_some() {
                return Err(Error::config(
                    "--resume continues a run in its own folder: it takes neither --out, --force nor --warm-start",
                ));
            }
            same_general_model(dir)?;
            let extend = study::Extend { max_generations: a.max_generations, patience: a.patience };
            study::resume_extended(dir, a.threads, &opts, extend)?
        }
        None => study::start(plan(&a, engine)?, &opts)?,
    };
    let r = &summary.record;
    let best = r.best.as_ref().ok_or_else(|| Error::bug("a finished run has no best individual"))?;
    println!(
        "{}: best fitness {:.4} (P {:.3}, R {:.3}) with {}\n{} distinct settings evaluated in {:.1} s; budget used: {} of {} generations ({}, population {}); stopped: {}\nresults in {}",
        r.extractor,
        best.fitness,
        best.precision,
        best.recall,
        summary.label,
        // A multi-fidelity strategy scores a promoted setting again: one setting, more evaluations.
        r.evaluations - r.fidelity.as_ref().map_or(0, |f| f.promotions),
        r.wall_seconds,
        summary.generation + 1,
        r.config.max_generations,
        r.config.strategy,
        r.config.population,
        summary.reason,
        summary.dir.display()
    );
    if let Some(p) = &r.paired {
        println!("{}", crate::study::paired_line(p));
    }
    if let Some(rc) = &r.racing {
        println!(
            "racing: {} document evaluations instead of {} ({:.0} % saved, {} settings dropped early)",
            rc.document_evaluations,
            rc.without_racing,
            100.0 * rc.saved_share,
            rc.dropped
        );
    }
    if let Some(f) = &r.fidelity {
        println!(
            "fidelities: {} evaluations, {} of them on every document ({:.0} %), {} promotions to a higher fidelity; {} document evaluations instead of {}",
            f.evaluations,
            f.full_evaluations,
            100.0 * f.full_evaluations as f64 / f.evaluations.max(1) as f64,
            f.promotions,
            f.document_evaluations,
            f.without_fidelities
        );
    }
    if let Some(v) = &r.validation {
        println!(
            "validation: {:.4} on {} held-out documents (± {:.4}) vs {:.4} on {} training documents: gap {:.4}",
            v.validation, v.validation_documents, v.validation_sem, v.training, v.training_documents, v.gap
        );
    }
    if let Some(c) = r.pareto.as_ref().and_then(|p| p.chosen.as_ref()) {
        println!(
            "pareto: {} points on the front; best.yaml (--pick {}): precision {:.4}, recall {:.4}, F1 {:.4}",
            r.pareto.as_ref().map_or(0, |p| p.points),
            r.pareto.as_ref().map_or("f1", |p| p.pick.as_str()),
            c.precision,
            c.recall,
            c.f1
        );
    }
    if !summary.feasible {
        eprintln!(
            "cetune: warning: no setting met the objective's constraint ({}); the best shown is the closest, ranked by mean precision",
            r.objective
        );
    }
    if summary.interrupted() {
        return Err(Error::new(
            ErrorKind::Interrupted,
            format!(
                "interrupted after generation {}; resume with: cetune optimise --resume {}",
                summary.generation,
                summary.dir.display()
            ),
        ));
    }
    Ok(())
}

/// The command line as the run records it, led by `CETUNE_GENERAL_MODEL=FOLDER` when that
/// variable names a stand-in general model: a fit with `start: general` (and any extractor that
/// reads the general model) depends on it, so `run.yaml` says which model a run started from and
/// `results/reproduce.sh` sets it again.
fn recorded_command() -> String {
    let command = crate::paths::recorded_command(&std::env::args().collect::<Vec<_>>());
    match general_model() {
        Some(env) => format!("{env} {command}"),
        None => command,
    }
}

/// `CETUNE_GENERAL_MODEL=FOLDER` as a run records it, if the variable is set.
fn general_model() -> Option<String> {
    let dir = std::env::var_os(crate::extract::general::ENV).filter(|d| !d.is_empty())?;
    Some(format!("{}={}", crate::extract::general::ENV, crate::paths::recorded(std::path::Path::new(&dir))))
}

/// Refuses to resume a run under another general model than the one it started from (its
/// recorded command's `CETUNE_GENERAL_MODEL=…`, or none): the settings already scored would not
/// be comparable with the new ones.
fn same_general_model(dir: &std::path::Path) -> Result<()> {
    let path = crate::store::path(dir, crate::store::files::RUN);
    let Ok(record) = crate::store::read_yaml::<crate::store::RunRecord>(&path) else {
        return Ok(()); // the resume itself says what is wrong with run.yaml
    };
    let env = crate::extract::general::ENV;
    let started =
        record.command.split_whitespace().next().filter(|w| w.starts_with(&format!("{env}="))).map(str::to_string);
    let now = general_model();
    if started == now {
        return Ok(());
    }
    let was = started.map_or_else(|| format!("without {env} (the compiled-in general model)"), |s| format!("with {s}"));
    let is = now.map_or_else(|| "it is unset now".to_string(), |s| format!("now {s}"));
    Err(Error::config(format!("cannot resume: the run started {was}, {is}; resume it with the same")).with_path(&path))
}

/// The new run the arguments describe.
fn plan(a: &Args, engine: &crate::extract::Engine) -> Result<study::Plan> {
    let (space, base) = a.setting.resolve(engine)?;
    let params_yaml = match &a.setting.params {
        Some(p) => crate::params::self_contained(
            &crate::paths::read_capped_text(p, crate::yaml::MAX_BYTES as u64, "parameter file")?,
            p,
            &space,
        )?,
        None => crate::extract::description(&space.extractor)?.to_string(),
    };
    let objective = a.objective;
    let search = own_search(a, &space);
    let mut config = config(a, search)?;
    if search.is_some() && !a.quiet {
        eprintln!(
            "cetune: {}'s own search (its YAML's `search:`): {}, population {}, at most {} generations, patience {}; give --strategy or a budget flag to choose another",
            space.extractor, config.strategy, config.population, config.max_generations, config.patience
        );
    }
    // Pareto: the GA becomes NSGA-II (the same operators, selection by front and crowding).
    if objective == Objective::Pareto && config.strategy == StrategyKind::Ga {
        config.strategy = StrategyKind::Nsga2;
    }
    Ok(study::Plan {
        config,
        objective,
        pick: a.pick,
        measure: a.measure,
        field: a.field.clone(),
        params_file: a.setting.params.as_ref().map(|p| p.display().to_string()),
        params_yaml,
        sets: a.setting.sets.clone(),
        individuals: a.individuals.clone(),
        goldset: a.goldset.clone().unwrap_or_else(default_goldset),
        threads: a.threads,
        out: a.out.clone(),
        force: a.force,
        command: recorded_command(),
        warm_start: a.warm_start.clone(),
        warm_top: a.warm_top,
        space,
        base,
    })
}
