//! Whole runs through the library, without the binary: start, stop by the flag, resume.

use super::*;
use crate::evolve::StrategyKind;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cetune-study-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Six pages with a navigation list, a link-rich paragraph and an article.
fn gold_set(root: &Path) -> PathBuf {
    let gs = root.join("gs");
    for k in 0..6 {
        let pkg = if k % 2 == 0 { "news" } else { "blog" };
        let links: String = (0..k).map(|i| format!("<a href=/r{i}>related story {i}</a> ")).collect();
        let html = format!(
            "<body><ul><li><a href=/a>Home</a></li><li><a href=/b>World</a></li></ul>\
             <p>The harbour bridge number {k} opened again after the repairs.</p><p>See also {links} today.</p>\
             <footer><a href=/i>Imprint</a></footer></body>"
        );
        std::fs::create_dir_all(gs.join(pkg)).unwrap();
        std::fs::write(gs.join(format!("{pkg}/{k}.html")), html).unwrap();
        std::fs::write(
            gs.join(format!("{pkg}/{k}.txt")),
            format!("The harbour bridge number {k} opened again after the repairs."),
        )
        .unwrap();
    }
    gs
}

fn plan(gs: &Path, out: PathBuf) -> Plan {
    let space = crate::extract::space("lqf").unwrap();
    let base = space.defaults();
    Plan {
        measure: crate::eval::Measure::Lcs,
        field: "body".into(),
        params_yaml: crate::extract::family("lqf").unwrap().yaml.to_string(),
        params_file: None,
        sets: Vec::new(),
        individuals: vec!["t=0.5".into()],
        goldset: gs.to_path_buf(),
        objective: Objective::F1,
        config: Config {
            population: 6,
            max_generations: 5,
            patience: 0,
            seed: 2,
            strategy: StrategyKind::Ga,
            ..Config::default()
        },
        threads: Some(2),
        out: Some(out),
        force: false,
        command: "test".into(),
        warm_start: None,
        warm_top: 5,
        pick: None,
        space,
        base,
    }
}

fn journal(dir: &Path) -> Vec<String> {
    // Without the milliseconds column, which differs between runs.
    std::fs::read_to_string(dir.join(files::INDIVIDUALS))
        .unwrap()
        .lines()
        .map(|l| l.rsplit_once(',').map_or(l, |(head, _)| head).to_string())
        .collect()
}

#[test]
fn a_run_stopped_by_its_flag_resumes_to_the_uninterrupted_result() {
    let root = tmp("resume");
    let gs = gold_set(&root);
    let quiet = Options { quiet: true, top: 5, ..Options::default() };
    let full = start(plan(&gs, root.join("full")), &quiet).unwrap();
    assert!(!full.interrupted());
    assert_eq!(full.record.status, "finished");
    let sem = full.record.best.as_ref().unwrap().sem;
    assert!(sem > 0.0 && sem < 0.5, "run.yaml reports the best fitness's standard error: {sem}");
    for f in ["run.yaml", "individuals.csv", "checkpoint.yaml", "top.md", "best.yaml", "history.svg"] {
        assert!(root.join("full").join(f).exists(), "{f}");
    }
    // Stop requested before the start: generation 0 runs, is checkpointed, and the run stops.
    let stop = Options { stop: Arc::new(AtomicBool::new(true)), ..quiet.clone() };
    let cut = start(plan(&gs, root.join("cut")), &stop).unwrap();
    assert!(cut.interrupted());
    assert_eq!((cut.generation, cut.record.status.as_str()), (0, "interrupted"));
    let done = resume(&root.join("cut"), Some(2), &quiet).unwrap();
    assert!(!done.interrupted());
    assert_eq!(journal(&root.join("cut")), journal(&root.join("full")));
    assert_eq!(done.label, full.label);
    // A finished run is not resumed again.
    let e = resume(&root.join("cut"), Some(2), &quiet).unwrap_err();
    assert!(e.message.contains("has finished"), "{}", e.message);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_plan_without_genes_or_with_a_bad_individual_is_refused_before_any_folder_is_made() {
    let root = tmp("refuse");
    let gs = gold_set(&root);
    let quiet = Options { quiet: true, top: 5, ..Options::default() };
    let mut p = plan(&gs, root.join("bad"));
    p.individuals = vec!["t=7".into()];
    assert!(start(p, &quiet).is_err());
    let mut p = plan(&gs, root.join("nogenes"));
    p.space = crate::extract::space("full").unwrap();
    p.base = p.space.defaults();
    let e = start(p, &quiet).unwrap_err();
    assert!(e.message.contains("no tuned parameters"), "{}", e.message);
    assert!(!root.join("bad").exists() && !root.join("nogenes").exists());
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_warm_start_puts_the_other_runs_top_individuals_into_generation_0() {
    let root = tmp("warm");
    let gs = gold_set(&root);
    let quiet = Options { quiet: true, top: 5, ..Options::default() };
    let first = start(plan(&gs, root.join("first")), &quiet).unwrap();
    let first_trials = store::read_trials(&root.join("first").join(files::INDIVIDUALS), &first_space()).unwrap();
    let top: Vec<Vec<f64>> = crate::report::run::top(&first_trials, 3).into_iter().map(|t| t.genome.clone()).collect();
    let mut p = plan(&gs, root.join("warm"));
    (p.warm_start, p.warm_top) = (Some(root.join("first")), 3);
    let warm = start(p.clone(), &quiet).unwrap();
    let w = warm.record.warm_start.as_ref().unwrap();
    assert_eq!((w.top, &w.genomes), (3, &top));
    // Generation 0: the known-good setting, the --individual, then the warm start's three.
    let trials = store::read_trials(&root.join("warm").join(files::INDIVIDUALS), &first_space()).unwrap();
    let g0: Vec<Vec<f64>> = trials.iter().filter(|t| t.generation == 0).map(|t| t.genome.clone()).collect();
    assert_eq!(g0[2..5].to_vec(), top);
    assert!(warm.record.best.as_ref().unwrap().fitness >= first.record.best.as_ref().unwrap().fitness);
    // A run cut before its first generation restarts with the same warm start from run.yaml.
    let stop = Options { stop: Arc::new(AtomicBool::new(true)), ..quiet.clone() };
    let mut cut = p.clone();
    cut.out = Some(root.join("cut"));
    start(cut, &stop).unwrap();
    resume(&root.join("cut"), Some(2), &quiet).unwrap();
    assert_eq!(journal(&root.join("cut")), journal(&root.join("warm")));
    // Another extractor, or another space: refused before any folder is made.
    let mut other = plan(&gs, root.join("ccb"));
    other.space = crate::extract::space("ccb").unwrap();
    other.base = other.space.defaults();
    other.individuals.clear();
    other.config.max_generations = 1;
    start(other, &quiet).unwrap();
    let mut p2 = plan(&gs, root.join("refused"));
    p2.warm_start = Some(root.join("ccb"));
    let e = start(p2, &quiet).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.message.contains("tuned extractor 'ccb', this one tunes 'lqf'"), "{}", e.message);
    let yaml =
        "extractor: lqf\nparameters:\n  - {name: t, type: float, min: 0.1, max: 0.9, step: 0.01, default: 0.25}\n";
    let mut p3 = plan(&gs, root.join("refused"));
    p3.space = crate::extract::parse_str(yaml, Path::new("t.yaml")).unwrap().space;
    p3.base = p3.space.defaults();
    p3.individuals.clear();
    p3.warm_start = Some(root.join("first"));
    let e = start(p3, &quiet).unwrap_err();
    assert!(e.message.contains("another space"), "{}", e.message);
    assert_eq!(e.exit_code(), 2);
    assert!(!root.join("refused").exists());
    std::fs::remove_dir_all(&root).unwrap();
}

fn first_space() -> ParamSpace {
    crate::extract::space("lqf").unwrap()
}

#[test]
fn a_finished_run_extended_equals_the_longer_run() {
    let root = tmp("extend");
    let gs = gold_set(&root);
    let quiet = Options { quiet: true, top: 5, ..Options::default() };
    let mut long = plan(&gs, root.join("long"));
    long.config.max_generations = 7;
    start(long, &quiet).unwrap();
    let mut short = plan(&gs, root.join("short"));
    short.config.max_generations = 3;
    let first = start(short, &quiet).unwrap();
    assert_eq!((first.record.status.as_str(), first.reason), ("finished", TerminationReason::MaxGenerations));
    // Nothing new asked: still refused; a limit at or below what was run: refused.
    assert!(resume(&root.join("short"), Some(2), &quiet).unwrap_err().message.contains("--max-generations"));
    let same = Extend { max_generations: Some(3), patience: None };
    assert!(
        resume_extended(&root.join("short"), Some(1), &quiet, same).unwrap_err().message.contains("already made 3")
    );
    // First to 5, then to 7: the individuals (every column but the milliseconds) equal the 7-generation run's.
    for n in [5, 7] {
        let e = Extend { max_generations: Some(n), patience: None };
        let done = resume_extended(&root.join("short"), Some(1), &quiet, e).unwrap();
        assert_eq!(done.record.status, "finished");
    }
    assert_eq!(journal(&root.join("short")), journal(&root.join("long")));
    let record: RunRecord = store::read_yaml(&root.join("short").join(files::RUN)).unwrap();
    assert_eq!(record.config.max_generations, 7);
    let steps: Vec<_> = record.extended.iter().map(|x| (x.after_generation, x.max_generations)).collect();
    assert_eq!(steps, [(2, Some([3, 5])), (4, Some([5, 7]))]);
    assert_eq!(
        std::fs::read_to_string(root.join("short/best.yaml")).unwrap().replace("/short", "/long"),
        std::fs::read_to_string(root.join("long/best.yaml")).unwrap()
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_run_stopped_by_patience_goes_on_with_more_patience() {
    let root = tmp("extend-patience");
    let gs = gold_set(&root);
    let quiet = Options { quiet: true, top: 5, ..Options::default() };
    let mut long = plan(&gs, root.join("long"));
    long.config.max_generations = 6;
    long.config.patience = 0;
    start(long, &quiet).unwrap();
    let mut short = plan(&gs, root.join("short"));
    short.config.max_generations = 6;
    short.config.patience = 1;
    let first = start(short, &quiet).unwrap();
    assert_eq!(first.reason, TerminationReason::Patience, "the tiny set stagnates at once");
    let e = Extend { max_generations: None, patience: Some(0) };
    resume_extended(&root.join("short"), Some(1), &quiet, e).unwrap();
    assert_eq!(journal(&root.join("short")), journal(&root.join("long")));
    let record: RunRecord = store::read_yaml(&root.join("short").join(files::RUN)).unwrap();
    assert_eq!(record.extended[0].patience, Some([1, 0]));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_grid_search_is_not_extended() {
    let root = tmp("extend-grid");
    let gs = gold_set(&root);
    let quiet = Options { quiet: true, top: 5, ..Options::default() };
    let mut p = plan(&gs, root.join("grid"));
    p.config.strategy = StrategyKind::Grid;
    p.config.max_generations = 2;
    start(p, &quiet).unwrap();
    let e = Extend { max_generations: Some(4), patience: None };
    let err = resume_extended(&root.join("grid"), Some(1), &quiet, e).unwrap_err();
    assert!(err.message.contains("grid search"), "{}", err.message);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_finished_run_pairs_its_best_with_the_default() {
    let root = tmp("paired");
    let gs = gold_set(&root);
    let quiet = Options { quiet: true, top: 5, ..Options::default() };
    let done = start(plan(&gs, root.join("run")), &quiet).unwrap();
    let p = done.record.paired.clone().expect("a paired record");
    // Objective f1: the best's mean per-document F1 is its fitness.
    assert!((p.best_f1 - done.record.best.as_ref().unwrap().fitness).abs() < 1e-12, "{p:?}");
    assert!((p.mean_diff - (p.best_f1 - p.baseline_f1)).abs() < 1e-12);
    assert_eq!(p.documents, 6);
    assert_eq!(p.better + p.worse + p.equal, 6);
    assert!(p.baseline.starts_with("default (t=0.25"), "{}", p.baseline);
    let top = std::fs::read_to_string(root.join("run/top.md")).unwrap();
    assert!(top.contains(&super::reports::paired_line(&p)), "{top}");
    let html = std::fs::read_to_string(root.join("run/report.html")).unwrap();
    assert!(html.contains("Best against the default"));
    // The paired per-document scores are kept, and the report lists them worst first.
    let docs = std::fs::read_to_string(root.join("run/documents.csv")).unwrap();
    assert_eq!(docs.lines().next(), Some("package,id,best_f1,default_f1,difference"));
    assert_eq!(docs.lines().count(), 7, "{docs}");
    let diffs: Vec<f64> = docs.lines().skip(1).map(|l| l.rsplit(',').next().unwrap().parse().unwrap()).collect();
    assert!((diffs.iter().sum::<f64>() / 6.0 - p.mean_diff).abs() < 1e-5, "{diffs:?} vs {}", p.mean_diff);
    assert_eq!(diffs.iter().filter(|d| **d < 0.0).count(), p.worse);
    let table = &html[html.find("<h2>Documents won and lost</h2>").unwrap()..];
    let shown: Vec<f64> = table
        .split("<tr>")
        .skip(2)
        .take(6)
        .map(|r| r.rsplit("<td class=\"n\">").next().unwrap().split('<').next().unwrap().parse().unwrap())
        .collect();
    assert!(shown.windows(2).all(|w| w[0] <= w[1]), "worst first: {shown:?}");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_running_run_keeps_a_live_report_that_the_final_report_replaces() {
    let root = tmp("live");
    let gs = gold_set(&root);
    let quiet = Options { quiet: true, top: 5, ..Options::default() };
    let p = plan(&gs, root.join("run"));
    let (space, base) = (p.space.clone(), p.base.clone());
    start(p, &quiet).unwrap();
    let record: RunRecord = store::read_yaml(&root.join("run").join(files::RUN)).unwrap();
    let trials = store::read_trials(&root.join("run").join(files::INDIVIDUALS), &space).unwrap();
    let done = std::fs::read_to_string(root.join("run/report.html")).unwrap();
    assert!(!done.contains("http-equiv=\"refresh\"") && done.contains("Table 2"));
    // What the run's observer writes after a generation: the page that reloads itself.
    let live = Live::new(&record, &space, &base, &trials);
    assert_eq!(live.rows.len(), 5);
    assert!(live.default.is_some(), "the default (t=0.25) is in generation 0");
    let best = trials.iter().map(|t| t.fitness).max_by(|a, b| a.rank_cmp(b)).unwrap();
    let info = GenerationInfo {
        generation: 4,
        best: best.value,
        mean: 0.5,
        worst: 0.1,
        evaluations: 3,
        total_evaluations: 20,
        best_so_far: best,
        best_genome: trials[0].genome.clone(),
        stagnant: 0,
    };
    live.write(&root.join("run"), &info).unwrap();
    let page = std::fs::read_to_string(root.join("run/report.html")).unwrap();
    assert!(page.contains("<meta http-equiv=\"refresh\" content=\"10\">"), "{page}");
    assert!(page.contains("Running: generation 4 of at most 5 done") && page.contains("<svg"), "{page}");
    assert!(page.contains("default (0.") && page.contains("<div class=\"wrap\"><table>"));
    std::fs::remove_dir_all(&root).unwrap();
}
