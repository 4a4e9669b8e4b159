//! `cetune optimise`: the main job. Parses a gold set (sample) once, runs the evolutionary search
//! over an extractor's parameter description, journals every individual, checkpoints after
//! every generation and writes the reports. `--resume RUN_DIR` continues an interrupted run.

use super::common::{SettingArgs, default_goldset, timestamp};
use super::runfiles::{load_run, write_reports};
use crate::error::{Error, ErrorKind, Result};
use crate::evolve::{self, Blend, Config, GenerationInfo, Observer, State, Strategy, Trial};
use crate::goldset::native;
use crate::objective::problem::{ExtractionProblem, Objective};
use crate::objective::{Corpus, set_threads};
use crate::params::{self, ParamSpace};
use crate::report::Progress;
use crate::store::{self, BestRecord, Checkpoint, GoldsetRecord, Journal, RunRecord, files};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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
    /// Random seed: the same seed and inputs give the identical run, whatever --threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Individuals per generation.
    #[arg(long, default_value_t = 30)]
    population: usize,
    /// Generations at most (generation 0 included).
    #[arg(long, default_value_t = 50)]
    max_generations: usize,
    /// Stop after this many generations without improvement by more than --epsilon (0: never).
    #[arg(long, default_value_t = 10)]
    patience: usize,
    /// Smallest improvement of the best fitness that counts.
    #[arg(long, default_value_t = 1e-4)]
    epsilon: f64,
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
    /// Per-parameter mutation probability (default 1/number of tuned parameters).
    #[arg(long)]
    mutation_rate: Option<f64>,
    /// Search strategy: ga, or the baselines random and grid (same evaluation budget).
    #[arg(long, default_value = "ga")]
    strategy: String,
    /// Fitness: f1 (mean F1), fbeta:B, or recall-at-precision:P.
    #[arg(long, default_value = "f1")]
    objective: String,
    /// Add an individual to the first generation: --individual r=40,t=0.8 (repeatable).
    #[arg(long = "individual", value_name = "K=V,K=V")]
    individuals: Vec<String>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Run folder; default results/<extractor>-<timestamp>.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Rows in top.csv / top.md.
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Continue an interrupted run from its folder (all other settings come from its run.yaml).
    #[arg(long, value_name = "RUN_DIR")]
    resume: Option<PathBuf>,
    /// Overwrite an existing run folder.
    #[arg(long)]
    force: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

fn config(a: &Args) -> Result<Config> {
    let strategy = match a.strategy.as_str() {
        "ga" => Strategy::Ga,
        "random" => Strategy::Random,
        "grid" => Strategy::Grid,
        s => return Err(Error::config(format!("unknown strategy '{s}' (expected ga, random or grid)"))),
    };
    let blend = match a.blend.as_str() {
        "blx" => Blend::Blx,
        "mean" => Blend::Mean,
        s => return Err(Error::config(format!("unknown blend '{s}' (expected blx or mean)"))),
    };
    let c = Config {
        population: a.population,
        elites: a.elites,
        tournament: a.tournament,
        crossover_prob: a.crossover_prob,
        blx_alpha: a.blx_alpha,
        blend,
        mutation_sigma: a.mutation_sigma,
        mutation_rate: a.mutation_rate,
        cat_flip_prob: None,
        max_generations: a.max_generations,
        patience: a.patience,
        epsilon: a.epsilon,
        seed: a.seed,
        strategy,
    };
    c.validate()?;
    Ok(c)
}

/// Runs `optimise`.
pub fn run(a: Args) -> Result<()> {
    if let Some(dir) = &a.resume {
        return resume(dir, &a);
    }
    let (space, base) = a.setting.resolve()?;
    if space.genes().is_empty() {
        return Err(Error::config(format!(
            "extractor '{}' has no tuned parameters: nothing to optimise",
            space.extractor
        )));
    }
    let config = config(&a)?;
    let objective: Objective = a.objective.parse()?;
    let initial = initial_genomes(&space, &base, &a.individuals)?;
    let params_yaml = match &a.setting.params {
        Some(p) => std::fs::read_to_string(p).map_err(|e| Error::io(p, "read", e))?,
        None => params::builtin_text(&space.extractor).unwrap_or_default().to_string(),
    };
    let gs_path = a.goldset.clone().unwrap_or_else(default_goldset);
    let limits = a.limits.limits()?;
    let mut set = native::open(&gs_path, false)?;
    set.limits = limits;
    let dir = a.out.clone().unwrap_or_else(|| PathBuf::from(format!("results/{}-{}", space.extractor, timestamp())));
    store::create_run_dir(&dir, a.force)?;
    let threads = set_threads(a.threads)?;
    let record = RunRecord {
        cetune_version: env!("CARGO_PKG_VERSION").to_string(),
        command: std::env::args().collect::<Vec<_>>().join(" "),
        extractor: space.extractor.clone(),
        params_file: a.setting.params.as_ref().map(|p| p.display().to_string()),
        params_yaml,
        sets: a.setting.sets.clone(),
        individuals: a.individuals.clone(),
        goldset: GoldsetRecord {
            name: set.name.clone(),
            path: gs_path.display().to_string(),
            content_hash: set.content_hash(),
            documents: set.docs.len(),
            packages: set.packages.len(),
        },
        objective: objective.to_string(),
        threads,
        config: config.clone(),
        started: timestamp(),
        status: "running".into(),
        reason: None,
        evaluations: 0,
        wall_seconds: 0.0,
        best: None,
    };
    store::write_yaml(&dir.join(files::RUN), &record)?;
    start(dir, &a, record, space, base, set, initial)
}

/// The first generation's fixed members: the known-good individuals, then `--individual`s.
fn initial_genomes(space: &ParamSpace, base: &crate::params::Setting, individuals: &[String]) -> Result<Vec<Vec<f64>>> {
    let mut initial: Vec<Vec<f64>> = space.known_good.iter().map(|k| space.to_genome(&k.setting)).collect();
    for ind in individuals {
        initial.push(space.to_genome(&space.with_assignments(base, std::slice::from_ref(ind))?));
    }
    Ok(initial)
}

/// Runs from generation 0 with a new journal.
fn start(
    dir: PathBuf,
    a: &Args,
    record: RunRecord,
    space: ParamSpace,
    base: crate::params::Setting,
    set: crate::goldset::GoldSet,
    initial: Vec<Vec<f64>>,
) -> Result<()> {
    let journal = Journal::create(&dir.join(files::INDIVIDUALS), &space)?;
    execute(Session {
        dir,
        space,
        base,
        set,
        record,
        journal,
        initial,
        prior: Vec::new(),
        state: None,
        quiet: a.quiet,
        top: a.top,
    })
}

fn resume(dir: &Path, a: &Args) -> Result<()> {
    let (record, space, base) = load_run(dir)?;
    if record.status == "finished" {
        return Err(Error::config(format!("the run in {} has finished: nothing to resume", dir.display())));
    }
    let limits = a.limits.limits()?;
    let mut set = native::open(Path::new(&record.goldset.path), false)?;
    set.limits = limits;
    if set.content_hash() != record.goldset.content_hash {
        return Err(Error::config(format!("the gold set {} changed since the run started", record.goldset.path)));
    }
    set_threads(a.threads)?;
    if !dir.join(files::CHECKPOINT).exists() {
        // Interrupted before generation 0 finished: start over with the recorded settings.
        return restart(dir, a, record, space, base, set);
    }
    let ck: Checkpoint<State> = store::read_yaml(&dir.join(files::CHECKPOINT))
        .map_err(|e| Error::config(format!("cannot resume: no usable checkpoint ({e})")))?;
    let journal = Journal::reopen(&dir.join(files::INDIVIDUALS), ck.state.trials)?;
    let prior = store::read_trials(&dir.join(files::INDIVIDUALS), &space)?;
    let mut record = record;
    record.wall_seconds = ck.wall_seconds;
    record.status = "running".into();
    eprintln!(
        "resuming {} after generation {} ({} individuals so far)",
        dir.display(),
        ck.state.generation,
        prior.len()
    );
    execute(Session {
        dir: dir.to_path_buf(),
        space,
        base,
        set,
        record,
        journal,
        initial: Vec::new(),
        prior,
        state: Some(ck.state),
        quiet: a.quiet,
        top: a.top,
    })
}

/// Starts a run again from generation 0 with the settings in its `run.yaml`.
fn restart(
    dir: &Path,
    a: &Args,
    mut record: RunRecord,
    space: ParamSpace,
    base: crate::params::Setting,
    set: crate::goldset::GoldSet,
) -> Result<()> {
    let initial = initial_genomes(&space, &base, &record.individuals)?;
    eprintln!("resuming {}: no generation had finished, starting again from generation 0", dir.display());
    record.status = "running".into();
    record.wall_seconds = 0.0;
    start(dir.to_path_buf(), a, record, space, base, set, initial)
}

struct Session {
    dir: PathBuf,
    space: ParamSpace,
    base: crate::params::Setting,
    set: crate::goldset::GoldSet,
    record: RunRecord,
    journal: Journal,
    initial: Vec<Vec<f64>>,
    prior: Vec<Trial>,
    state: Option<State>,
    quiet: bool,
    top: usize,
}

/// Journal, checkpoint, progress bar and Ctrl-C flag, as one observer.
struct Watch<'a> {
    dir: &'a Path,
    space: &'a ParamSpace,
    journal: &'a mut Journal,
    bar: Progress,
    stop: Arc<AtomicBool>,
    started: Instant,
    wall_before: f64,
}

impl Observer for Watch<'_> {
    fn on_trials(&mut self, trials: &[Trial]) -> Result<()> {
        self.journal.append(self.space, trials)
    }
    fn on_generation(&mut self, info: &GenerationInfo, state: &State) -> Result<()> {
        let wall = self.wall_before + self.started.elapsed().as_secs_f64();
        let ck = Checkpoint { state: state.clone(), journal_rows: state.trials, wall_seconds: wall };
        store::write_yaml(&self.dir.join(files::CHECKPOINT), &ck)?;
        let rate = info.total_evaluations as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
        self.bar.set(info.generation as u64 + 1);
        self.bar.message(format!(
            "best {:.4}  evals {}  {:.1} evals/s",
            info.best_so_far.value, info.total_evaluations, rate
        ));
        Ok(())
    }
    fn should_stop(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
}

fn execute(mut s: Session) -> Result<()> {
    let docs: Vec<_> = s.set.docs.iter().collect();
    let bar = Progress::new(docs.len() as u64, "parse", s.quiet);
    let corpus = Corpus::load(&s.set, &docs, &|| bar.inc());
    bar.finish();
    let failed = corpus.entries.iter().filter(|e| e.doc.is_none()).count();
    crate::objective::corpus::check_some_read(&s.set, failed, docs.len())?;
    let objective: Objective = s.record.objective.parse()?;
    let mut problem = ExtractionProblem::new(&corpus, &s.space, s.base.clone(), objective);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    // A second Ctrl-C kills the process at once; the first lets the generation in flight finish.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\ncetune: interrupted: finishing the generation in flight, then saving a checkpoint");
    });
    let config = s.record.config.clone();
    let bar = Progress::new(config.max_generations as u64, "generation", s.quiet);
    let started = Instant::now();
    let mut watch = Watch {
        dir: &s.dir,
        space: &s.space,
        journal: &mut s.journal,
        bar: bar.clone(),
        stop,
        started,
        wall_before: s.record.wall_seconds,
    };
    let outcome =
        evolve::run(&mut problem, &config, std::mem::take(&mut s.initial), &s.prior, &mut watch, s.state.take());
    bar.finish();
    let outcome = outcome?;
    let mut trials = std::mem::take(&mut s.prior);
    trials.extend(outcome.trials.iter().cloned());
    let best_setting = s.space.from_genome(&s.base, &outcome.best.genome);
    let interrupted = outcome.reason == evolve::TerminationReason::Interrupted;
    s.record.status = if interrupted { "interrupted" } else { "finished" }.into();
    s.record.reason = Some(outcome.reason.to_string());
    s.record.evaluations = outcome.state.evaluations;
    s.record.wall_seconds += started.elapsed().as_secs_f64();
    let f = outcome.best.fitness;
    s.record.best = Some(BestRecord {
        fitness: f.value,
        precision: f.precision,
        recall: f.recall,
        values: best_setting.values.iter().map(|(k, v)| format!("{k}={v}")).collect(),
    });
    // Reports first: a run marked finished always has all of them.
    write_reports(&s.dir, &s.record, &s.space, &s.base, &trials, s.top)?;
    store::write_yaml(&s.dir.join(files::RUN), &s.record)?;
    println!(
        "{}: best fitness {:.4} (P {:.3}, R {:.3}) with {}\n{} distinct settings evaluated in {:.1} s; stopped: {}\nresults in {}",
        s.space.extractor,
        f.value,
        f.precision,
        f.recall,
        best_setting.label(),
        outcome.state.evaluations,
        s.record.wall_seconds,
        outcome.reason,
        s.dir.display()
    );
    if !f.feasible {
        eprintln!(
            "cetune: warning: no setting met the objective's constraint ({}); the best shown is the closest, ranked by mean precision",
            s.record.objective
        );
    }
    if interrupted {
        return Err(Error::new(
            ErrorKind::Interrupted,
            format!(
                "interrupted after generation {}; resume with: cetune optimise --resume {}",
                outcome.state.generation,
                s.dir.display()
            ),
        ));
    }
    Ok(())
}
