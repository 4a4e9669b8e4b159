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
