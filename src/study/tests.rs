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
