//! `cetune optimise`: the main job. Turns the arguments into a [`study::Plan`] (or a resume) and
//! prints the [`study::Summary`]; the run lifecycle itself lives in [`crate::study`].

use super::common::{SettingArgs, default_goldset};
use crate::error::{Error, ErrorKind, Result};
use crate::evolve::{Blend, Config, Mutation, StrategyKind};
use crate::study;
use std::path::PathBuf;

/// Arguments of `optimise`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    setting: SettingArgs,
    #[command(flatten)]
    limits: super::common::LimitArgs,
    /// The gold set (sample) used for fitness; default: the embedded one.
    #[arg(long)]
    goldset: Option<PathBuf>,
    /// Bound of a combination's member-output cache, in MB (0: no caching).
    #[arg(long, value_name = "MB", default_value_t = crate::extract::combine::DEFAULT_CACHE_MB)]
    member_cache_mb: usize,
    /// Random seed: the same seed and inputs give the identical run, whatever --threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Individuals per generation.
    #[arg(long, default_value_t = 30)]
    population: usize,
    /// Generations at most (generation 0 included) [default: 50]. With --resume: the new
    /// limit of the run, which extends a finished run.
    #[arg(long, value_name = "N")]
    max_generations: Option<usize>,
    /// Stop after this many generations without improvement by more than --epsilon (0: never)
    /// [default: 10]. With --resume: the new patience, which extends a run that stopped on it.
    #[arg(long, value_name = "N")]
    patience: Option<usize>,
    /// Smallest improvement of the best fitness that counts, or `auto`: the standard error of
    /// the best fitness over the documents (improvements within the noise do not count).
    #[arg(long, default_value = "0.0001")]
    epsilon: String,
    /// Best individuals copied unchanged into the next generation.
    #[arg(long, default_value_t = 1)]
    elites: usize,
    /// Tournament size for parent selection.
    #[arg(long, default_value_t = 2)]
    tournament: usize,
    /// Probability that two parents are recombined (else cloned).
    #[arg(long, default_value_t = 0.9)]
    crossover_prob: f64,
    /// Recombination of correlated parameters: blx (BLX-alpha) or mean.
    #[arg(long, default_value = "blx")]
    blend: String,
    /// Alpha of BLX-alpha.
    #[arg(long, default_value_t = 0.5)]
    blx_alpha: f64,
    /// Gaussian mutation sigma as a share of the parameter's range.
    #[arg(long, default_value_t = 0.1)]
    mutation_sigma: f64,
    /// Mutation step sizes: fixed (--mutation-sigma for all) or adaptive (each individual
    /// carries its own, mutated log-normally and inherited).
    #[arg(long, default_value = "fixed")]
    mutation: String,
    /// Per-parameter mutation probability (default 1/number of tuned parameters).
    #[arg(long)]
    mutation_rate: Option<f64>,
    /// Search strategy: ga, cmaes (CMA-ES), tpe (Optuna's default sampler), nsga2 (the default
    /// with --objective pareto), or the baselines random and grid (same evaluation budget).
    #[arg(long, default_value = "ga")]
    strategy: String,
    /// Fitness: f1 (mean F1 over documents), macro-f1 (mean over packages), fbeta:B,
    /// recall-at-precision:P, or pareto (the front of mean precision and mean recall, NSGA-II).
    #[arg(long, default_value = "f1")]
    objective: String,
    /// How each page is scored: lcs (Gottron's word-sequence F1), bow (WCXB's bag-of-words F1) or
    /// shingle4 (the Scrapinghub benchmark's 4-word shingles); recorded in run.yaml.
    #[arg(long, default_value = "lcs")]
    measure: String,
    /// Tune for a gold field instead of the body: title, author, date or comments (scored
    /// through the extractor's segments, as `evaluate --field`); recorded in run.yaml.
    #[arg(long, default_value = "body")]
    field: String,
    /// Racing: each generation's new settings are first scored on a small stratified subset of
    /// the documents; those worse than the best so far by a one-sided paired t-test (α = 0.05)
    /// are dropped, the others go on to more documents until all (needs objective f1 or fbeta:B).
    #[arg(long)]
    racing: bool,
    /// The level of racing's one-sided paired t-test: larger drops more settings early (saves
    /// more document evaluations) and risks dropping good ones on noise.
    #[arg(long, value_name = "ALPHA", default_value_t = crate::evolve::race::ALPHA)]
    racing_alpha: f64,
    /// Hold out this share of the documents (0 < F ≤ 0.9, stratified by package, from the seed)
    /// to estimate how the tuned setting generalises: the search sees only the rest.
    #[arg(long, value_name = "FRACTION")]
    validation: Option<f64>,
    /// With --objective pareto: the point of the precision–recall front that best.yaml gets:
    /// f1 (largest mean F1), precision>=P (largest recall with at least that precision) or
    /// recall>=R. `cetune report RUN --pick …` re-picks.
    #[arg(long, value_name = "f1|precision>=P|recall>=R")]
    pick: Option<String>,
    /// Add an individual to the first generation: --individual r=40,t=0.8 (repeatable).
    #[arg(long = "individual", value_name = "K=V,K=V")]
    individuals: Vec<String>,
    /// Warm start: generation 0 also receives the top individuals of this earlier run (same
    /// extractor and tuned parameters; e.g. a run on a sibling set, or a coarse earlier run).
    #[arg(long, value_name = "RUN_DIR")]
    warm_start: Option<PathBuf>,
    /// How many top distinct individuals of the --warm-start run.
    #[arg(long, default_value_t = 5, value_name = "N")]
    warm_top: usize,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Run folder; default results/<extractor>-<timestamp>.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Rows in top.csv / top.md.
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Continue an interrupted run from its folder (all other settings come from its run.yaml),
    /// or extend a finished one with a larger --max-generations or --patience.
    #[arg(long, value_name = "RUN_DIR")]
    resume: Option<PathBuf>,
    /// Overwrite an existing run folder.
    #[arg(long)]
    force: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Also draw each generation's worst fitness in the history plot (it stretches the axis far
    /// below the best); recorded in run.yaml, so `report` and a resumed run keep it.
    #[arg(long)]
    plot_worst: bool,
}

fn config(a: &Args) -> Result<Config> {
    let strategy: StrategyKind = a.strategy.parse()?;
    let blend = match a.blend.as_str() {
        "blx" => Blend::Blx,
        "mean" => Blend::Mean,
        s => return Err(Error::config(format!("unknown blend '{s}' (expected blx or mean)"))),
    };
    let mutation = match a.mutation.as_str() {
        "fixed" => Mutation::Fixed,
        "adaptive" => Mutation::Adaptive,
        s => return Err(Error::config(format!("unknown mutation '{s}' (expected fixed or adaptive)"))),
    };
    let (epsilon, epsilon_auto) = match a.epsilon.as_str() {
        "auto" => (Config::default().epsilon, true),
        s => (s.parse().map_err(|_| Error::config(format!("--epsilon takes a number or auto, but got '{s}'")))?, false),
    };
    let c = Config {
        population: a.population,
        elites: a.elites,
        tournament: a.tournament,
        crossover_prob: a.crossover_prob,
        blx_alpha: a.blx_alpha,
        blend,
        mutation_sigma: a.mutation_sigma,
        mutation,
        mutation_rate: a.mutation_rate,
        cat_flip_prob: None,
        max_generations: a.max_generations.unwrap_or(Config::default().max_generations),
        patience: a.patience.unwrap_or(Config::default().patience),
        epsilon,
        epsilon_auto,
        seed: a.seed,
        strategy,
        racing: a.racing,
        racing_alpha: a.racing_alpha,
        validation: a.validation,
    };
    c.validate()?;
    Ok(c)
}

/// Runs `optimise`.
pub fn run(a: Args) -> Result<()> {
    crate::extract::combine::set_cache_limit(a.member_cache_mb.saturating_mul(1 << 20));
    let opts = study::Options {
        quiet: a.quiet,
        top: a.top,
        ctrl_c: true,
        limits: a.limits.limits()?,
        plot_worst: a.plot_worst,
        ..Default::default()
    };
    let summary = match &a.resume {
        Some(dir) => {
            if a.force || a.out.is_some() || a.warm_start.is_some() {
                return Err(Error::config(
                    "--resume continues a run in its own folder: it takes neither --out, --force nor --warm-start",
                ));
            }
            let extend = study::Extend { max_generations: a.max_generations, patience: a.patience };
            study::resume_extended(dir, a.threads, &opts, extend)?
        }
        None => study::start(plan(&a)?, &opts)?,
    };
    let r = &summary.record;
    let best = r.best.as_ref().ok_or_else(|| Error::bug("a finished run has no best individual"))?;
    println!(
        "{}: best fitness {:.4} (P {:.3}, R {:.3}) with {}\n{} distinct settings evaluated in {:.1} s; stopped: {}\nresults in {}",
        r.extractor,
        best.fitness,
        best.precision,
        best.recall,
        summary.label,
        r.evaluations,
        r.wall_seconds,
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

/// The new run the arguments describe.
fn plan(a: &Args) -> Result<study::Plan> {
    let (space, base) = a.setting.resolve()?;
    let params_yaml = match &a.setting.params {
        Some(p) => crate::params::route::self_contained(
            &crate::paths::read_capped_text(p, crate::yaml::MAX_BYTES as u64, "parameter file")?,
            p,
            &space,
        )?,
        None => crate::extract::family(&space.extractor)?.yaml.to_string(),
    };
    let objective: crate::objective::problem::Objective = a.objective.parse()?;
    let mut config = config(a)?;
    // Pareto: the GA becomes NSGA-II (the same operators, selection by front and crowding).
    if objective == crate::objective::problem::Objective::Pareto && config.strategy == StrategyKind::Ga {
        config.strategy = StrategyKind::Nsga2;
    }
    Ok(study::Plan {
        config,
        objective,
        pick: a.pick.as_deref().map(str::parse).transpose()?,
        measure: super::common::parse_measure(&a.measure)?,
        field: {
            crate::extract::segments::check_field(&a.field)?;
            a.field.clone()
        },
        params_file: a.setting.params.as_ref().map(|p| p.display().to_string()),
        params_yaml,
        sets: a.setting.sets.clone(),
        individuals: a.individuals.clone(),
        goldset: a.goldset.clone().unwrap_or_else(default_goldset),
        threads: a.threads,
        out: a.out.clone(),
        force: a.force,
        command: std::env::args().collect::<Vec<_>>().join(" "),
        warm_start: a.warm_start.clone(),
        warm_top: a.warm_top,
        space,
        base,
    })
}
