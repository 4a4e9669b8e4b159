//! The run lifecycle as a library type (argmin's executor with checkpointing and observers,
//! Optuna's study): a new run's folder, `run.yaml`, journal and lock; resume and restart; the
//! observer that journals, checkpoints and shows progress; Ctrl-C; the final reports and
//! `best.yaml`. The command line only turns arguments into a [`Plan`] and prints the
//! [`Summary`]; tests drive whole runs through [`start`] and [`resume`] without the binary.
//!
//! Imports from the crate: `error`, `eval` (the measure), `evolve`, `extract` (the family table), `goldset`, `limits`,
//! `objective`, `params`, `paths`, `yaml`, `report` and `store`.

mod fidelity;
mod memory;
pub mod pareto;
mod reports;
pub mod route_start;
pub mod validation;

pub use reports::{load_run, paired_line, with_run_model, write_reports};

use crate::error::{Error, Result};
use crate::evolve::{self, Config, GenerationInfo, Observer, State, TerminationReason, Trial};
use crate::goldset::{GoldSet, native};
use crate::limits::Limits;
use crate::objective::problem::{ExtractionProblem, Objective};
use crate::objective::{Corpus, Workers};
use crate::params::{ParamSpace, Setting};
use crate::report::Progress;
use crate::store::{self, BestRecord, Checkpoint, GoldsetRecord, Journal, RunInputs, RunRecord, WarmStart, files};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Everything a new run needs.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The parameter space searched.
    pub space: ParamSpace,
    /// The setting that fixes the parameters that are not genes.
    pub base: Setting,
    /// The text of the parameter description (kept in `run.yaml`).
    pub params_yaml: String,
    /// The parameter file given, if any.
    pub params_file: Option<String>,
    /// `--set` assignments (recorded; already applied to `base`).
    pub sets: Vec<String>,
    /// `--individual`s for generation 0.
    pub individuals: Vec<String>,
    /// The gold set (sample) the fitness is measured on.
    pub goldset: PathBuf,
    /// What is maximised.
    pub objective: Objective,
    /// How pages are scored (`lcs` by default).
    pub measure: crate::eval::Measure,
    /// The gold field the fitness scores (`body`: the text, today's behaviour).
    pub field: String,
    /// The optimiser's settings.
    pub config: Config,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
    /// The run folder; default `results/<extractor>-<timestamp>` (made unique).
    pub out: Option<PathBuf>,
    /// Replace an existing run folder (only cetune's files in it).
    pub force: bool,
    /// The command line, for `run.yaml`.
    pub command: String,
    /// `--warm-start`: another run (same extractor and space) whose top individuals join
    /// generation 0.
    pub warm_start: Option<PathBuf>,
    /// How many of the warm-start run's top distinct individuals (`--warm-top`).
    pub warm_top: usize,
    /// `--pick` (objective `pareto` only): the point of the front `best.yaml` gets.
    pub pick: Option<pareto::Pick>,
}

/// How a run is watched and reported.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// No progress bars.
    pub quiet: bool,
    /// Rows of Table 2 (`top.csv`, `top.md`).
    pub top: usize,
    /// Set to stop after the generation in flight (as Ctrl-C does); shared with the caller.
    pub stop: Arc<AtomicBool>,
    /// Install a Ctrl-C handler that sets `stop` (a second Ctrl-C exits at once).
    pub ctrl_c: bool,
    /// The budgets every page is read and parsed within.
    pub limits: Limits,
    /// Draw each generation's worst fitness in the history plot (recorded in `run.yaml`; a
    /// resumed run keeps it).
    pub plot_worst: bool,
    /// The budget of the pages' memos of member outputs, in MB, shared by the pages (`None`:
    /// [`crate::objective::corpus::MEMO_MB`]; 0: none).
    pub member_cache_mb: Option<usize>,
    /// Builds the settings' extractors: the model files, external workers and trust policy of
    /// the program running the study (the command line's restricts external commands; the
    /// default trusts all).
    pub engine: crate::extract::Engine,
}

/// What a run ended with.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The run folder.
    pub dir: PathBuf,
    /// The run record as written at the end.
    pub record: RunRecord,
    /// The best setting.
    pub best: Setting,
    /// Its active parameters as a label (`name=value,...`; a combination's inactive genes left out).
    pub label: String,
    /// Why the run stopped.
    pub reason: TerminationReason,
    /// The generation the run stopped after.
    pub generation: usize,
    /// Whether the best setting meets the objective's constraint (always, but for
    /// `recall-at-precision`).
    pub feasible: bool,
}

impl Summary {
    /// Whether the run stopped on a stop request (Ctrl-C) and can be resumed.
    pub fn interrupted(&self) -> bool {
        self.reason == TerminationReason::Interrupted
    }
}

/// Starts a new run: creates and locks its folder, writes `run.yaml`, runs from generation 0.
pub fn start(plan: Plan, opts: &Options) -> Result<Summary> {
    if plan.space.genes().is_empty() {
        return Err(Error::config(format!(
            "extractor '{}' has no tuned parameters: nothing to optimise",
            plan.space.extractor
        )));
    }
    plan.config.validate()?;
    plan.config.strategy.check(&crate::objective::problem::gene_space(&plan.space))?;
    if plan.pick.is_some() && plan.objective != Objective::Pareto {
        return Err(Error::config(format!(
            "--pick chooses a point of a Pareto front: it needs --objective pareto (this run records objective {})",
            plan.objective
        )));
    }
    if plan.config.racing && !plan.objective.per_document() {
        return Err(Error::config(format!(
            "--racing needs the objective f1 or fbeta:B (a mean over documents, compared document by document), not {}",
            plan.objective
        )));
    }
    let mut initial = initial_genomes(&plan.space, &plan.base, &plan.individuals)?;
    let warm = match &plan.warm_start {
        Some(dir) => Some(warm_start(dir, plan.warm_top, &plan.space)?),
        None => None,
    };
    initial.extend(warm.iter().flat_map(|w| w.genomes.iter().cloned()));
    let gs_path = crate::paths::absolute(&plan.goldset);
    let mut set = native::open(&gs_path, false)?;
    set.limits = opts.limits;
    crate::goldset::fields::restrict(&mut set, &plan.field)?;
    let (train, _) = split_of(&set, &plan.config)?;
    let dir = match &plan.out {
        Some(out) => out.clone(),
        None => store::unique_dir(Path::new(&format!("results/{}-{}", plan.space.extractor, store::timestamp())))?,
    };
    // Held until the run ends: a second process can neither write into nor replace this run.
    let mut reads = crate::paths::Reads::new().with(&gs_path, "the gold set");
    plan.params_file.iter().for_each(|p| reads.add(p, "the parameter file"));
    plan.warm_start.iter().for_each(|w| reads.add(w.join(store::files::RUN), "the warm start's run"));
    let _lock = store::create_run_dir(&dir, plan.force, &reads)?;
    let workers = Workers::new(plan.threads)?;
    let threads = workers.threads();
    let record = RunRecord {
        cetune_version: env!("CARGO_PKG_VERSION").to_string(),
        command: plan.command.clone(),
        extractor: plan.space.extractor.clone(),
        params_file: plan.params_file.as_deref().map(|p| crate::paths::recorded(Path::new(p))),
        params_yaml: plan.params_yaml.clone(),
        sets: plan.sets.clone(),
        individuals: plan.individuals.clone(),
        warm_start: warm,
        goldset: GoldsetRecord {
            name: set.name.clone(),
            path: crate::paths::recorded(&plan.goldset),
            content_hash: set.content_hash(),
            documents: set.docs.len(),
            packages: set.packages.len(),
        },
        objective: plan.objective.to_string(),
        measure: if plan.field == "date" { crate::eval::Measure::Date.to_string() } else { plan.measure.to_string() },
        field: (plan.field != "body").then(|| plan.field.clone()),
        threads,
        config: plan.config.clone(),
        started: store::timestamp(),
        status: "running".into(),
        reason: None,
        evaluations: 0,
        wall_seconds: 0.0,
        best: None,
        member_cache: None,
        memory: None,
        racing: None,
        fidelity: None,
        validation: None,
        pareto: (plan.objective == Objective::Pareto).then(|| store::ParetoRecord {
            pick: plan.pick.unwrap_or(pareto::Pick::F1).to_string(),
            points: 0,
            chosen: None,
        }),
        extended: Vec::new(),
        paired: None,
        plot_worst: opts.plot_worst,
    };
    store::write_yaml(&dir.join(files::RUN), &record)?;
    let documents = plan.config.staged().then_some(train.len());
    let journal = Journal::create(&dir.join(files::INDIVIDUALS), &plan.space, documents)?;
    let session = Session {
        dir,
        space: plan.space,
        base: plan.base,
        set,
        record,
        journal,
        initial,
        prior: Vec::new(),
        state: None,
    };
    workers.install(|| execute(session, opts))
}

/// The first generation's fixed members: the known-good individuals, then `--individual`s.
fn initial_genomes(space: &ParamSpace, base: &Setting, individuals: &[String]) -> Result<Vec<Vec<f64>>> {
    let mut initial: Vec<Vec<f64>> = space.known_good.iter().map(|k| space.to_genome(&k.setting)).collect();
    for ind in individuals {
        initial.push(space.to_genome(&space.with_assignments(base, std::slice::from_ref(ind))?));
    }
    Ok(initial)
}

/// The documents (indices into `set.docs`) the search sees and those held out for validation.
fn split_of(set: &GoldSet, config: &Config) -> Result<(Vec<usize>, Vec<usize>)> {
    match config.validation {
        Some(f) => validation::split(set, f, config.seed),
        None => Ok(((0..set.docs.len()).collect(), Vec::new())),
    }
}

/// The `documents` column of a racing or multi-fidelity run's journal: the training documents.
fn journal_documents(set: &GoldSet, config: &Config) -> Result<Option<usize>> {
    Ok(if config.staged() { Some(split_of(set, config)?.0.len()) } else { None })
}

/// The measure a run records.
pub fn measure_of(record: &RunRecord) -> Result<crate::eval::Measure> {
    record.measure.parse().map_err(Error::config)
}

/// The top `top` distinct individuals of the run in `dir`, which must have tuned the same
/// extractor over the same parameters (names, types and ranges) as `space`.
fn warm_start(dir: &Path, top: usize, space: &ParamSpace) -> Result<WarmStart> {
    let what = format!("--warm-start {}", dir.display());
    let (record, other, _) = load_run(dir).map_err(|e| Error::config(format!("{what}: {}", e.message)))?;
    if record.extractor != space.extractor {
        return Err(Error::config(format!(
            "{what}: that run tuned extractor '{}', this one tunes '{}'",
            record.extractor, space.extractor
        )));
    }
    let tuned = |s: &ParamSpace| {
        s.genes().into_iter().map(|i| s.params[i].clone()).map(|p| (p.name, p.spec)).collect::<Vec<_>>()
    };
    if tuned(&other) != tuned(space) {
        let names = |s: &ParamSpace| tuned(s).into_iter().map(|(n, _)| n).collect::<Vec<_>>().join(", ");
        return Err(Error::config(format!(
            "{what}: that run searched another space (tuned parameters {} with their types and ranges; this run: {})",
            names(&other),
            names(space)
        )));
    }
    let trials = store::read_trials(&dir.join(files::INDIVIDUALS), &other)?;
    let genomes: Vec<Vec<f64>> = crate::report::run::top(&trials, top).into_iter().map(|t| t.genome.clone()).collect();
    if genomes.is_empty() {
        return Err(Error::config(format!("{what}: that run has no evaluated individual")));
    }
    Ok(WarmStart { run: crate::paths::recorded(dir), top, genomes })
}

/// Continues an interrupted run from its folder: every input a fitness depends on is verified
/// first (the gold set's hash, `run.yaml` against the checkpoint's copy, every journal row).
pub fn resume(dir: &Path, threads: Option<usize>, opts: &Options) -> Result<Summary> {
    resume_extended(dir, threads, opts, Extend::default())
}

/// New limits for a resumed run (`optimise --resume RUN --max-generations N --patience P`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Extend {
    /// The new generation limit.
    pub max_generations: Option<usize>,
    /// The new patience.
    pub patience: Option<usize>,
}

/// Continues a run with new limits: an interrupted run, or a finished one whose larger limits
/// let it go on. The generations after the checkpoint are exactly those a run started with the
/// new limits would have made (the limits decide only when to stop; a grid search, sized to its
/// budget, cannot be extended). `run.yaml` records the change in `extended`.
pub fn resume_extended(dir: &Path, threads: Option<usize>, opts: &Options, extend: Extend) -> Result<Summary> {
    let (mut record, space, base) = load_run(dir)?;
    record.plot_worst |= opts.plot_worst;
    let _lock = store::RunLock::acquire(dir)?;
    // run.yaml may have been edited: its settings must pass the checks of a new run.
    record.config.validate().map_err(|e| e.with_path(&dir.join(files::RUN)))?;
    record.objective.parse::<Objective>().map_err(|e| e.with_path(&dir.join(files::RUN)))?;
    measure_of(&record).map_err(|e| e.with_path(&dir.join(files::RUN)))?;
    if record.status == "finished" && extend == Extend::default() {
        return Err(Error::config(format!(
            "the run in {} has finished: nothing to resume (to extend it give a larger --max-generations or --patience)",
            dir.display()
        )));
    }
    let mut set = crate::paths::resolve_recorded(&record.goldset.path, dir)
        .and_then(|p| native::open(&p, false))
        .map_err(|e| Error::config(format!("cannot resume: the run's gold set cannot be read: {e}")))?;
    set.limits = opts.limits;
    crate::goldset::fields::restrict(&mut set, record.field.as_deref().unwrap_or("body"))
        .map_err(|e| e.with_path(&dir.join(files::RUN)))?;
    if set.content_hash() != record.goldset.content_hash {
        return Err(Error::config(format!(
            "cannot resume: the gold set {} changed since the run started (pages, gold texts or goldset.yaml)",
            record.goldset.path
        )));
    }
    let workers = Workers::new(threads)?;
    workers.install(|| resume_locked(dir, record, space, base, set, opts, extend))
}

/// [`resume_extended`] once the run is locked and its gold set checked, on the run's threads.
fn resume_locked(
    dir: &Path,
    mut record: RunRecord,
    space: ParamSpace,
    base: Setting,
    set: GoldSet,
    opts: &Options,
    extend: Extend,
) -> Result<Summary> {
    if !dir.join(files::CHECKPOINT).exists() {
        return restart(dir, record, space, base, set, opts);
    }
    let ck: Checkpoint<State> = store::read_yaml(&dir.join(files::CHECKPOINT))
        .map_err(|e| Error::config(format!("cannot resume: no usable checkpoint ({e})")))?;
    let changed = ck.inputs.as_ref().map(|started| started.changed(&RunInputs::of(&record))).unwrap_or_default();
    if !changed.is_empty() {
        return Err(Error::config(format!(
            "cannot resume: run.yaml changed since the run started ({}); restore it, or start a new run",
            changed.join(", ")
        ))
        .with_path(&dir.join(files::RUN)));
    }
    let mut ck = ck;
    if extend != Extend::default() {
        extend_limits(dir, &mut record, &mut ck, extend)?;
    }
    let journal_path = dir.join(files::INDIVIDUALS);
    let prior = store::read_rows(&journal_path, &space, ck.state.trials)?;
    if prior.len() != ck.state.trials {
        return Err(Error::input(format!(
            "cannot resume: the journal has {} whole rows but the checkpoint expects {}",
            prior.len(),
            ck.state.trials
        ))
        .with_path(&journal_path));
    }
    let journal = Journal::reopen(&journal_path, ck.state.trials, journal_documents(&set, &record.config)?)?;
    record.wall_seconds = ck.wall_seconds;
    record.status = "running".into();
    eprintln!(
        "resuming {} after generation {} ({} individuals so far)",
        dir.display(),
        ck.state.generation,
        prior.len()
    );
    execute(
        Session {
            dir: dir.to_path_buf(),
            space,
            base,
            set,
            record,
            journal,
            initial: Vec::new(),
            prior,
            state: Some(ck.state),
        },
        opts,
    )
}

/// A run killed before its first generation finished has no checkpoint: it starts again from
/// generation 0 with the settings in its `run.yaml` (nothing computed is kept, so nothing can
/// disagree).
fn restart(
    dir: &Path,
    mut record: RunRecord,
    space: ParamSpace,
    base: Setting,
    set: GoldSet,
    opts: &Options,
) -> Result<Summary> {
    let mut initial = initial_genomes(&space, &base, &record.individuals)?;
    initial.extend(record.warm_start.iter().flat_map(|w| w.genomes.iter().cloned()));
    eprintln!("resuming {}: no generation had finished, starting again from generation 0", dir.display());
    let journal_path = dir.join(files::INDIVIDUALS);
    if journal_path.exists() {
        std::fs::remove_file(&journal_path)
            .map_err(|e| Error::io(&journal_path, "delete the unfinished journal", e))?;
    }
    record.status = "running".into();
    record.wall_seconds = 0.0;
    let journal = Journal::create(&journal_path, &space, journal_documents(&set, &record.config)?)?;
    execute(
        Session { dir: dir.to_path_buf(), space, base, set, record, journal, initial, prior: Vec::new(), state: None },
        opts,
    )
}

struct Session {
    dir: PathBuf,
    space: ParamSpace,
    base: Setting,
    set: GoldSet,
    record: RunRecord,
    journal: Journal,
    initial: Vec<Vec<f64>>,
    prior: Vec<Trial>,
    state: Option<State>,
}

/// The run folder as an observer of the search: journal, checkpoint, progress bar, stop flag.
struct Watch<'a> {
    dir: &'a Path,
    space: &'a ParamSpace,
    journal: &'a mut Journal,
    bar: Progress,
    stop: Arc<AtomicBool>,
    started: Instant,
    wall_before: f64,
    inputs: RunInputs,
    live: Live,
}

/// The live `report.html` of a running run: rewritten after every generation with a refresh
/// header (no script), so a browser left open on it follows the run; the full report replaces
/// it when the run ends.
struct Live {
    title: String,
    y_desc: String,
    max_generations: usize,
    rows: Vec<crate::report::plot::GenRow>,
    default_genome: Vec<f64>,
    default: Option<f64>,
    worst: bool,
}

/// Seconds between two reloads of the live report.
const LIVE_REFRESH_SECONDS: u32 = 10;

impl Live {
    fn new(record: &RunRecord, space: &ParamSpace, base: &Setting, prior: &[Trial]) -> Live {
        let mut live = Live {
            title: format!("{} on {}, seed {}", record.extractor, record.goldset.name, record.config.seed),
            y_desc: format!("fitness ({}, measure {})", record.objective, record.measure),
            max_generations: record.config.max_generations,
            rows: crate::report::run::generations_info(prior).into_iter().map(|(r, _)| r).collect(),
            default_genome: space.to_genome(base),
            default: None,
            worst: record.plot_worst,
        };
        live.see(prior);
        live
    }

    fn see(&mut self, trials: &[Trial]) {
        if self.default.is_none()
            && let Some(t) =
                trials.iter().find(|t| !t.cached && t.fitness.partial.is_none() && t.genome == self.default_genome)
        {
            self.default = Some(t.fitness.value);
        }
    }

    fn write(&self, dir: &Path, info: &GenerationInfo) -> Result<()> {
        use crate::report::html::{Body, Section};
        let history = crate::report::plot::HistoryInfo {
            title: format!("Fitness by generation: {}", self.title),
            rows: self.rows.clone(),
            y_desc: self.y_desc.clone(),
            validation: Vec::new(),
            default: self.default,
            worst: self.worst,
        };
        crate::report::plot::render_history(&history, &dir.join("history"))?;
        let svg_path = dir.join("history.svg");
        let svg = std::fs::read_to_string(&svg_path).map_err(|e| Error::io(&svg_path, "read", e))?;
        let status = format!(
            "Running: generation {} of at most {} done; best so far {:.4} (P {:.3}, R {:.3}); {} settings evaluated; the default {}. Updated {} UTC; this page reloads every {} s and becomes the full report when the run ends.",
            info.generation,
            self.max_generations,
            info.best_so_far.value,
            info.best_so_far.precision,
            info.best_so_far.recall,
            info.total_evaluations,
            self.default.map_or("was not evaluated".into(), |d| format!("scored {d:.4}")),
            store::timestamp(),
            LIVE_REFRESH_SECONDS
        );
        let rows = self
            .rows
            .iter()
            .map(|r| vec![r.generation.to_string(), format!("{:.4}", r.best), format!("{:.4}", r.mean)])
            .collect();
        let sections = [
            Section { title: "Progress".into(), body: vec![Body::Text(status), Body::Svg(svg)] },
            Section {
                title: "Generations".into(),
                body: vec![Body::Table(vec!["generation".into(), "best".into(), "mean".into()], rows)],
            },
        ];
        let page = crate::report::html::page(&format!("cetune run (running): {}", self.title), &sections).replacen(
            "<meta charset=\"utf-8\">",
            &format!("<meta charset=\"utf-8\">\n<meta http-equiv=\"refresh\" content=\"{LIVE_REFRESH_SECONDS}\">"),
            1,
        );
        crate::report::write_atomic(&dir.join("report.html"), page.as_bytes())
    }
}

impl Observer for Watch<'_> {
    fn on_trials(&mut self, trials: &[Trial]) -> Result<()> {
        self.live.see(trials);
        self.journal.append(self.space, trials)
    }
    fn on_generation(&mut self, info: &GenerationInfo, state: &State) -> Result<()> {
        let wall = self.wall_before + self.started.elapsed().as_secs_f64();
        let ck = Checkpoint {
            state: state.clone(),
            inputs: Some(self.inputs.clone()),
            journal_rows: state.trials,
            wall_seconds: wall,
        };
        store::write_yaml(&self.dir.join(files::CHECKPOINT), &ck)?;
        self.live.rows.push(crate::report::plot::GenRow {
            generation: info.generation,
            best: info.best,
            mean: info.mean,
            worst: info.worst,
        });
        self.live.write(self.dir, info)?;
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

/// Installs the Ctrl-C handler once per process: the first Ctrl-C sets `stop` (the generation in
/// flight finishes and is checkpointed), a second one exits at once.
fn install_ctrl_c(stop: Arc<AtomicBool>) {
    let _ = ctrlc::set_handler(move || {
        if stop.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\ncetune: interrupted: finishing the generation in flight, then saving a checkpoint");
    });
}

fn execute(mut s: Session, opts: &Options) -> Result<Summary> {
    let (train, held) = split_of(&s.set, &s.record.config)?;
    let docs: Vec<_> = train.iter().map(|&i| &s.set.docs[i]).collect();
    let held: Vec<_> = held.iter().map(|&i| &s.set.docs[i]).collect();
    let bar = Progress::new((docs.len() + held.len()) as u64, "parse", opts.quiet);
    // Each page holds only what the family (or any member of the combination) reads.
    let needs = crate::extract::run_needs(&opts.engine, &s.space, &s.base)?;
    let corpus = Corpus::load_for(&s.set, &docs, needs, &|| bar.inc());
    let held_corpus = (!held.is_empty()).then(|| Corpus::load_for(&s.set, &held, needs, &|| bar.inc()));
    let memo_mb = opts.member_cache_mb.unwrap_or(crate::objective::corpus::MEMO_MB);
    corpus.share_memo(memo_mb.saturating_mul(1 << 20));
    bar.finish();
    let failed = corpus.entries.iter().filter(|e| e.doc.is_none()).count();
    crate::objective::corpus::check_some_read(&s.set, failed, docs.len())?;
    let objective: Objective = s.record.objective.parse()?;
    let measure = measure_of(&s.record)?;
    let mut problem = ExtractionProblem::new(&opts.engine, &corpus, &s.space, s.base.clone(), objective, measure)
        .with_field(s.record.field.clone());
    if opts.ctrl_c {
        install_ctrl_c(opts.stop.clone());
    }
    // A new route run starts from a decision list fitted to its branches' per-page scores too.
    if s.state.is_none()
        && s.prior.is_empty()
        && let Some((label, start)) = route_start::supervised_start(&s.space, &s.base, &corpus, &problem, objective)?
    {
        if !opts.quiet {
            eprintln!("{label}");
        }
        s.initial.insert(0, s.space.to_genome(&start));
    }
    let mut config = s.record.config.clone();
    // A resumed run has already spent part of its time.
    config.time_limit = config.time_limit.map(|t| (t - s.record.wall_seconds).max(1e-9));
    let bar = Progress::new(config.max_generations as u64, "generation", opts.quiet);
    let started = Instant::now();
    let mut watch = Watch {
        dir: &s.dir,
        space: &s.space,
        journal: &mut s.journal,
        bar: bar.clone(),
        stop: opts.stop.clone(),
        started,
        wall_before: s.record.wall_seconds,
        inputs: RunInputs::of(&s.record),
        live: Live::new(&s.record, &s.space, &s.base, &s.prior),
    };
    let outcome =
        evolve::run(&mut problem, &config, std::mem::take(&mut s.initial), &s.prior, &mut watch, s.state.take());
    bar.finish();
    let outcome = outcome?;
    let mut trials = std::mem::take(&mut s.prior);
    trials.extend(outcome.trials.iter().cloned());
    let best = s.space.from_genome(&s.base, &outcome.best.genome);
    let interrupted = outcome.reason == TerminationReason::Interrupted;
    s.record.status = if interrupted { "interrupted" } else { "finished" }.into();
    s.record.reason = Some(outcome.reason.to_string());
    s.record.evaluations = outcome.state.evaluations;
    s.record.wall_seconds += started.elapsed().as_secs_f64();
    let corpora: Vec<&Corpus> = std::iter::once(&corpus).chain(held_corpus.as_ref()).collect();
    s.record.memory = memory::record(&corpora, needs.label());
    if !s.space.members.is_empty() {
        let (hits, misses) = corpus.memo_stats();
        let hit_rate = if hits + misses > 0 { hits as f64 / (hits + misses) as f64 } else { 0.0 };
        let limit_mb = memo_mb;
        s.record.member_cache = Some(store::MemberCacheRecord { hits, misses, hit_rate, limit_mb });
    }
    if config.racing {
        let without = outcome.state.evaluations * docs.len();
        let used = outcome.state.documents;
        s.record.racing = Some(store::RacingRecord {
            test: "one-sided paired t-test over the shared documents".into(),
            alpha: config.racing_alpha,
            stages: evolve::race::stages(corpus.entries.len()),
            document_evaluations: used,
            without_racing: without,
            saved_share: if without > 0 { 1.0 - used as f64 / without as f64 } else { 0.0 },
            dropped: trials.iter().filter(|t| !t.cached && t.fitness.partial.is_some()).count(),
        });
    }
    if config.strategy.multi_fidelity() {
        s.record.fidelity = Some(fidelity::record(&trials, docs.len()));
    }
    let f = outcome.best.fitness;
    if let (Some(held_corpus), Some(fraction)) = (&held_corpus, config.validation) {
        let mut held_problem =
            ExtractionProblem::new(&opts.engine, held_corpus, &s.space, s.base.clone(), objective, measure)
                .with_field(s.record.field.clone())
                .with_fit_source(&corpus);
        let rows = validation::evaluate(&mut held_problem, &trials, opts.top)?;
        validation::write(&s.dir, &rows)?;
        let best = rows.iter().find(|r| r.trial == outcome.best.number);
        let (v, sem) = best.map_or((f64::NAN, f64::NAN), |r| (r.validation, r.validation_sem));
        s.record.validation = Some(store::ValidationRecord {
            fraction,
            training_documents: docs.len(),
            validation_documents: held.len(),
            training: f.value,
            validation: v,
            validation_sem: sem,
            gap: f.value - v,
        });
    }
    let (paired, documents) = paired_with_default(&problem, &s.space, &corpus, &s.base, &best, measure)?;
    s.record.paired = Some(paired);
    reports::write_documents(&s.dir, &documents)?;
    reports::write_diffs(&opts.engine, &s.dir, &corpus, &best, &s.base, &documents)?;
    let active = crate::params::combine::split_active(&s.space, &best).0;
    s.record.best = Some(BestRecord {
        fitness: f.value,
        precision: f.precision,
        recall: f.recall,
        sem: f.sem,
        // The active setting (a combination's inactive genes are in best.yaml, apart).
        values: active.iter().map(|(k, v)| format!("{k}={v}")).collect(),
    });
    // Reports first: a run marked finished always has all of them.
    let picked = write_reports(&s.dir, &s.record, &s.space, &s.base, &trials, opts.top, true)?;
    if picked.is_some() {
        s.record.pareto = picked;
    }
    // The model best.yaml names: its setting (a Pareto run's chosen point, else the winner)
    // fitted on the whole sample.
    let written = best_written(&s.record, &s.space, &s.base, &trials).unwrap_or_else(|| best.clone());
    if crate::objective::fit::needs_fit(&written) {
        let model = crate::objective::fit::fit_file(&opts.engine, &corpus, &written)?;
        crate::paths::write_atomic(&s.dir.join(reports::MODEL), model.as_bytes())?;
    }
    store::write_yaml(&s.dir.join(files::RUN), &s.record)?;
    Ok(Summary {
        label: active_label(&s.space, &best),
        best,
        dir: s.dir,
        record: s.record,
        reason: outcome.reason,
        generation: outcome.state.generation,
        feasible: f.feasible,
    })
}

#[cfg(test)]
mod tests;

/// Applies new limits to a run about to be resumed: checks that it would go on, records the
/// change in `run.yaml` and the checkpoint's inputs (so a later resume sees one consistent run).
fn extend_limits(dir: &Path, record: &mut RunRecord, ck: &mut Checkpoint<State>, extend: Extend) -> Result<()> {
    let config = &mut record.config;
    if config.strategy == crate::evolve::StrategyKind::Grid {
        return Err(Error::config(
            "a grid search is sized to its budget (population × max generations): it cannot be extended; start a new run",
        ));
    }
    let done = ck.state.generation + 1;
    if let Some(n) = extend.max_generations
        && n <= done
        && record.status == "finished"
    {
        return Err(Error::config(format!(
            "--max-generations {n}: the run has already made {done} generations; give more to extend it"
        )));
    }
    let change = store::Extension {
        after_generation: ck.state.generation,
        at: store::timestamp(),
        max_generations: extend
            .max_generations
            .filter(|&n| n != config.max_generations)
            .map(|n| [config.max_generations, n]),
        patience: extend.patience.filter(|&p| p != config.patience).map(|p| [config.patience, p]),
    };
    config.max_generations = extend.max_generations.unwrap_or(config.max_generations);
    config.patience = extend.patience.unwrap_or(config.patience);
    config.validate()?;
    if change.max_generations.is_none() && change.patience.is_none() {
        return Ok(());
    }
    eprintln!(
        "extending {}: {}",
        dir.display(),
        [
            change.max_generations.map(|[a, b]| format!("max generations {a} -> {b}")),
            change.patience.map(|[a, b]| format!("patience {a} -> {b}")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ")
    );
    record.extended.push(change);
    record.status = "running".into();
    ck.inputs = Some(RunInputs::of(record));
    store::write_yaml(&dir.join(files::CHECKPOINT), &*ck)?;
    store::write_yaml(&dir.join(files::RUN), &*record)
}

/// The setting `best.yaml` holds: a Pareto run's chosen point, else the best distinct trial.
fn best_written(record: &RunRecord, space: &ParamSpace, base: &Setting, trials: &[Trial]) -> Option<Setting> {
    let chosen = record.pareto.as_ref().and_then(|p| p.chosen.as_ref()).map(|c| c.trial);
    let trial = match chosen {
        Some(n) => trials.iter().find(|t| t.number == n),
        None => crate::report::run::top(trials, 1).first().copied(),
    };
    trial.map(|t| space.from_genome(base, &t.genome))
}

/// The training pages of the run in `dir` loaded again (its gold set must be unchanged), for
/// fitting a setting's model after the run: `report --pick` refits the picked setting.
fn run_corpus(
    engine: &crate::extract::Engine,
    dir: &Path,
    record: &RunRecord,
    space: &ParamSpace,
    base: &Setting,
) -> Result<Corpus> {
    let cannot = |why: String| Error::config(format!("cannot fit the model of the picked setting: {why}"));
    let set = crate::paths::resolve_recorded(&record.goldset.path, dir)
        .and_then(|p| native::open(&p, false))
        .map_err(|e| cannot(format!("the run's gold set cannot be read ({e})")))?;
    let mut set = set;
    crate::goldset::fields::restrict(&mut set, record.field.as_deref().unwrap_or("body"))?;
    if set.content_hash() != record.goldset.content_hash {
        return Err(cannot(format!("the gold set {} changed since the run", record.goldset.path)));
    }
    let (train, _) = split_of(&set, &record.config)?;
    let docs: Vec<_> = train.iter().map(|&i| &set.docs[i]).collect();
    Ok(Corpus::load_for(&set, &docs, crate::extract::run_needs(engine, space, base)?, &|| ()))
}

/// For `report --pick` on a fitted family's run: checks, before anything is written, that the
/// run's gold set can be read and is unchanged (`Ok(None)` when the family fits no model).
pub fn refit_check(
    engine: &crate::extract::Engine,
    dir: &Path,
    record: &RunRecord,
    space: &ParamSpace,
    base: &Setting,
) -> Result<Option<Corpus>> {
    if !crate::objective::fit::needs_fit(base) {
        return Ok(None);
    }
    run_corpus(engine, dir, record, space, base).map(Some)
}

/// Refits the run's `best.model` for the setting its `best.yaml` now holds (after `report
/// --pick`) when the model was fitted with another one; written atomically.
pub fn refit_best(
    engine: &crate::extract::Engine,
    dir: &Path,
    corpus: &Corpus,
    record: &RunRecord,
    space: &ParamSpace,
    base: &Setting,
    trials: &[Trial],
) -> Result<bool> {
    let Some(s) = best_written(record, space, base, trials).filter(crate::objective::fit::needs_fit) else {
        return Ok(false);
    };
    let path = dir.join(reports::MODEL);
    // A route's or a combination's file holds a model per fitted place: each must fit.
    if crate::extract::fitted::fits(engine, &path, &s).unwrap_or(false) {
        return Ok(false);
    }
    let model = crate::objective::fit::fit_file(engine, corpus, &s)?;
    crate::paths::write_atomic(&path, model.as_bytes())?;
    engine.models().forget(&path);
    Ok(true)
}

/// A setting's active parameters as a label (`name=value,...`): a combination's inactive genes
/// (a switched-off member's, `v` outside a vote) are left out.
fn active_label(space: &ParamSpace, setting: &Setting) -> String {
    let active = crate::params::combine::split_active(space, setting).0;
    active.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join(",")
}

/// The best setting paired with the run's default on the tuning documents (per-document F1,
/// 2000 paired bootstrap resamples, seed 1, and the Wilcoxon signed-rank test), and the
/// per-document scores it pairs (for `documents.csv`).
fn paired_with_default(
    problem: &ExtractionProblem,
    space: &ParamSpace,
    corpus: &Corpus,
    base: &Setting,
    best: &Setting,
    measure: crate::eval::Measure,
) -> Result<(store::PairedRecord, Vec<reports::DocumentRow>)> {
    let all: Vec<usize> = (0..corpus.entries.len()).collect();
    let f1 = |s: &Setting| -> Result<Vec<f64>> {
        if crate::objective::fit::needs_fit(s) {
            // Out of fold, as the search scored it.
            return Ok(problem.scores(s, &all)?.iter().map(|d| d.prf.f1).collect());
        }
        let ex = crate::extract::build(problem.engine(), s)?;
        Ok(crate::objective::score::score_subset(corpus, ex.as_ref(), measure, &all).iter().map(|d| d.prf.f1).collect())
    };
    let (b, d) = (f1(best)?, f1(base)?);
    let p = crate::eval::paired::paired(&b, &d, 2000, 1);
    let mean = |v: &[f64]| if v.is_empty() { 0.0 } else { v.iter().sum::<f64>() / v.len() as f64 };
    let documents = corpus
        .entries
        .iter()
        .zip(b.iter().zip(&d))
        .map(|(e, (&best, &default))| reports::DocumentRow {
            package: corpus.packages.get(e.package).cloned().unwrap_or_default(),
            id: e.id.clone(),
            best,
            default,
        })
        .collect();
    let record = store::PairedRecord {
        baseline: format!("default ({})", active_label(space, base)),
        baseline_f1: mean(&d),
        best_f1: mean(&b),
        documents: p.n,
        mean_diff: p.mean,
        ci95: p.ci.map_or([0.0, 0.0], |(lo, hi)| [lo, hi]),
        better: p.wins,
        worse: p.losses,
        equal: p.ties,
        p: p.p,
        verdict: p.verdict(),
    };
    Ok((record, documents))
}
