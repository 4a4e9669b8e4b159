//! `optimise`, `report` and `compare` end to end: determinism across thread counts, the elitism
//! invariant, resume after Ctrl-C and after kill -9 (the soak test), and the report files.

use crate::util::{beside, cetune, linky_set, read_csv};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// individuals.csv without its milliseconds column (wall time differs between runs).
pub fn journal_without_times(run: &Path) -> Vec<Vec<String>> {
    read_csv(&run.join("individuals.csv"))
        .into_iter()
        .map(|mut r| {
            r.pop();
            r
        })
        .collect()
}

/// `evaluate` of a run's best.yaml on `set`; returns the output folder.
fn evaluate_best(set: &Path, run: &Path) -> PathBuf {
    let ev = beside(set, "ev");
    let best = run.join("best.yaml");
    let args = ["evaluate", "--goldset", set.to_str().unwrap(), "--params", best.to_str().unwrap()];
    cetune(&[&args[..], &["--out", ev.to_str().unwrap(), "-q"]].concat()).ok();
    ev
}

/// `optimise -e lqf` on `set` into `out`: population 8, 6 generations, no patience, seed 5
/// unless `extra` gives one.
pub fn optimise_args<'a>(set: &'a str, out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let seed = if extra.contains(&"--seed") { vec![] } else { vec!["--seed", "5"] };
    let mut v = vec![
        "optimise",
        "-e",
        "lqf",
        "--goldset",
        set,
        "--out",
        out,
        "--population",
        "8",
        "--max-generations",
        "6",
        "--patience",
        "0",
        "-q",
    ];
    v.extend(seed);
    v.extend_from_slice(extra);
    v
}

#[test]
fn same_seed_gives_identical_runs_with_one_and_two_threads() {
    let set = linky_set("det", 9);
    let s = set.to_str().unwrap();
    let (a, b) = (beside(&set, "a"), beside(&set, "b"));
    cetune(&optimise_args(s, a.to_str().unwrap(), &["--threads", "1"])).ok();
    cetune(&optimise_args(s, b.to_str().unwrap(), &["--threads", "2"])).ok();
    let ja = journal_without_times(&a);
    assert!(ja.len() > 20, "{}", ja.len());
    assert_eq!(ja, journal_without_times(&b));
    assert_eq!(
        std::fs::read_to_string(a.join("top.csv")).unwrap(),
        std::fs::read_to_string(b.join("top.csv")).unwrap()
    );
    // Another seed explores differently.
    let c = beside(&set, "c");
    cetune(&optimise_args(s, c.to_str().unwrap(), &["--seed", "6"])).ok();
    assert_ne!(ja, journal_without_times(&c));
}

#[test]
fn best_fitness_never_decreases_and_reports_exist() {
    let set = linky_set("elit", 9);
    let run = beside(&set, "run");
    let out = cetune(&optimise_args(set.to_str().unwrap(), run.to_str().unwrap(), &[])).ok();
    assert!(out.contains("best fitness"), "{out}");
    let gens = read_csv(&run.join("generations.csv"));
    assert_eq!(gens[0], ["generation", "evaluations", "best", "mean", "worst", "best_so_far"]);
    let best: Vec<f64> = gens[1..].iter().map(|r| r[2].parse().unwrap()).collect();
    assert_eq!(best.len(), 6);
    assert!(best.windows(2).all(|w| w[1] >= w[0]), "{best:?}");
    for f in [
        "run.yaml",
        "individuals.csv",
        "top.csv",
        "top.md",
        "best.yaml",
        "history.svg",
        "history.png",
        "space.svg",
        "space.png",
        "checkpoint.yaml",
    ] {
        assert!(run.join(f).exists(), "{f} missing");
    }
    // The run's peak memory against its pages and their HTML (issue 25), with the facts they hold.
    let yaml = std::fs::read_to_string(run.join("run.yaml")).unwrap();
    let field = |k: &str| -> f64 {
        let v = yaml
            .lines()
            .find_map(|l| l.trim().strip_prefix(&format!("{k}: ")))
            .unwrap_or_else(|| panic!("{k}: {yaml}"));
        v.parse().unwrap()
    };
    let (peak, pages) = (field("peak_rss_mb"), field("pages"));
    assert!(peak > 1.0 && pages == 9.0, "{yaml}");
    assert!((field("per_page_kb") / (peak * 1e3 / pages) - 1.0).abs() < 0.01, "{yaml}");
    // Nine small pages: far more memory than HTML (the ratio is read on real sets).
    assert!(field("per_html_mb") > peak, "{yaml}");
    assert!(yaml.contains("facts: source+dom+words"), "{yaml}");
    let head = &read_csv(&run.join("individuals.csv"))[0];
    assert_eq!(
        head,
        &[
            "trial",
            "generation",
            "t",
            "min_chars",
            "fitness",
            "precision",
            "recall",
            "feasible",
            "cached",
            "sem",
            "milliseconds"
        ]
    );
    // best.yaml is reusable with evaluate --params and gives the fitness it reports (the mean F1).
    let ev = evaluate_best(&set, &run);
    let micro = read_csv(&ev.join("per-package.csv")).into_iter().find(|r| r[0] == "(doc-mean)").unwrap();
    let top1: f64 = read_csv(&run.join("top.csv"))[1][3].parse().unwrap();
    assert!((micro[4].parse::<f64>().unwrap() - top1).abs() < 1e-6, "{micro:?} vs {top1}");
    // report rebuilds the same tables from the folder alone.
    let before = std::fs::read_to_string(run.join("top.md")).unwrap();
    std::fs::remove_file(run.join("top.md")).unwrap();
    cetune(&["report", run.to_str().unwrap()]).ok();
    assert_eq!(before, std::fs::read_to_string(run.join("top.md")).unwrap());
    // An existing run folder is not overwritten without --force.
    let again = cetune(&optimise_args(set.to_str().unwrap(), run.to_str().unwrap(), &[]));
    assert_eq!(again.code, 2);
    assert!(again.stderr.contains("run folder already exists"), "{}", again.stderr);
}

#[test]
fn compare_writes_table_three_with_defaults() {
    let set = linky_set("cmp", 9);
    let run = beside(&set, "run");
    cetune(&optimise_args(set.to_str().unwrap(), run.to_str().unwrap(), &[])).ok();
    let out = cetune(&[
        "compare",
        "--goldset",
        set.to_str().unwrap(),
        "--run",
        run.to_str().unwrap(),
        "--top",
        "3",
        "--with-defaults",
        "-q",
    ])
    .ok();
    assert!(out.contains("| setting | blog (6) | news (3) |"), "{out}");
    let rows = read_csv(&run.join(format!("compare-{}/compare.csv", set.file_name().unwrap().to_str().unwrap())));
    assert_eq!(rows[0], ["setting", "package", "documents", "precision", "recall", "f1", "f1_ci95", "errors"]);
    let macros: Vec<&Vec<String>> = rows.iter().filter(|r| r[1] == "(macro)").collect();
    assert!(macros.len() >= 3, "{rows:?}");
    assert!(rows.iter().any(|r| r[0].contains("Gottron 2009")), "{rows:?}");
    let md =
        std::fs::read_to_string(run.join(format!("compare-{}/compare.md", set.file_name().unwrap().to_str().unwrap())))
            .unwrap();
    let table: Vec<f64> = md
        .lines()
        .filter(|l| l.starts_with("| top") || l.starts_with("| Gottron"))
        .take_while(|l| l.contains("**"))
        .map(|l| l.split("**").nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(table.len() >= 3 && table.windows(2).all(|w| w[0] >= w[1]), "best first: {table:?}");
}

fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_cetune")).args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
}

#[test]
fn ctrl_c_saves_a_checkpoint_and_resume_finishes_identically() {
    let set = linky_set("sigint", 30);
    let s = set.to_str().unwrap();
    let (full, cut) = (beside(&set, "full"), beside(&set, "cut"));
    let args = |out: &PathBuf| {
        let out = out.to_str().unwrap().to_string();
        vec![
            "optimise".to_string(),
            "-e".into(),
            "lqf".into(),
            "--goldset".into(),
            s.into(),
            "--out".into(),
            out,
            "--population".into(),
            "12".into(),
            "--max-generations".into(),
            "30".into(),
            "--patience".into(),
            "0".into(),
            "-q".into(),
        ]
    };
    let a: Vec<String> = args(&full);
    cetune(&a.iter().map(String::as_str).collect::<Vec<_>>()).ok();
    let b: Vec<String> = args(&cut);
    let child = spawn(&b.iter().map(String::as_str).collect::<Vec<_>>());
    // Wait for the first checkpoint (generously: CI machines can be slow), then interrupt.
    for _ in 0..3000 {
        if cut.join("checkpoint.yaml").exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(1) {
        assert!(stderr.contains("resume with: cetune optimise --resume"), "{stderr}");
        let run_yaml = std::fs::read_to_string(cut.join("run.yaml")).unwrap();
        assert!(run_yaml.contains("status: interrupted"), "{run_yaml}");
        cetune(&["optimise", "--resume", cut.to_str().unwrap(), "-q"]).ok();
    } else {
        assert_eq!(out.status.code(), Some(0), "{stderr}"); // finished before the signal arrived
    }
    assert_eq!(journal_without_times(&full), journal_without_times(&cut));
    let done = cetune(&["optimise", "--resume", cut.to_str().unwrap(), "-q"]);
    assert_eq!(done.code, 2);
    assert!(done.stderr.contains("nothing to resume"), "{}", done.stderr);
}

/// Up to eight `kill -9`s at points spread over the run (during start-up, generations, the
/// checkpoint and the final reports), each followed by `--resume`; the result must equal an
/// uninterrupted run.
#[test]
fn soak_kill_nine_at_random_points_and_resume_ends_identical() {
    soak("soak", &[]);
}

#[test]
fn soak_kill_nine_with_cmaes_tpe_and_adaptive_mutation() {
    soak("soak-cmaes", &["--strategy", "cmaes"]);
    soak("soak-tpe", &["--strategy", "tpe", "--epsilon", "auto"]);
    soak("soak-adaptive", &["--mutation", "adaptive"]);
    soak("soak-hyperband", &["--strategy", "hyperband"]);
}

/// `optimise -e blocktrees` with no search flag runs the family's own search (its YAML's
/// `search:`: the GA with a small population and a fixed budget), stops by itself, says how much
/// of its budget it used, and resumes after `kill -9` to the uninterrupted run's result; a flag
/// chooses another search (Hyperband here, whose rungs score whole folds first).
#[test]
fn blocktrees_runs_its_own_search_which_stops_by_itself_and_survives_kill_nine() {
    let set = linky_set("trees-own", 90);
    let run = beside(&set, "run");
    let out =
        cetune(&["optimise", "-e", "blocktrees", "--goldset", set.to_str().unwrap(), "--out", run.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("blocktrees's own search (its YAML's `search:`): ga, population 10, at most 6 generations"),
        "{}",
        out.stderr
    );
    assert!(
        out.stdout.contains(
            "budget used: 6 of 6 generations (ga, population 10); stopped: maximum number of generations reached"
        ),
        "{}",
        out.stdout
    );
    // A flag chooses another search: the family's budget is taken whole or not at all.
    let other = beside(&set, "other");
    let args = ["optimise", "-e", "blocktrees", "--goldset", set.to_str().unwrap(), "--out"];
    let flags = ["--strategy", "hyperband", "--population", "27", "--max-generations", "3", "-q"];
    let out = cetune(&[&args[..], &[other.to_str().unwrap()], &flags[..]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("budget used: 3 of 3 generations (hyperband, population 27)"), "{}", out.stdout);
    assert!(out.stdout.contains("fidelities: 39 evaluations, 3 of them on every document"), "{}", out.stdout);
    let rows = read_csv(&other.join("individuals.csv"));
    let col = rows[0].iter().position(|c| c == "fidelity").expect("a fidelity column");
    let docs = rows[0].iter().position(|c| c == "documents").unwrap();
    // Five folds of 18 pages: the first rung scores one fold (0.2), the next two (0.4).
    let rung = |g: &str| -> Vec<(String, String)> {
        rows[1..].iter().filter(|r| r[1] == g).map(|r| (r[docs].clone(), r[col].clone())).collect()
    };
    assert_eq!(rung("0"), vec![("18".to_string(), "0.2".to_string()); 27]);
    assert_eq!(rung("1"), vec![("36".to_string(), "0.4".to_string()); 9]);
    assert_eq!(rung("2"), vec![("90".to_string(), "1".to_string()); 3]);
    let html = std::fs::read_to_string(other.join("report.html")).unwrap();
    assert!(html.contains("Fidelities and promotions"));
    soak_with("soak-trees", &["-e", "blocktrees"], &[]);
    soak_with(
        "soak-trees-hyperband",
        &["-e", "blocktrees"],
        &["--strategy", "hyperband", "--population", "9", "--max-generations", "3"],
    );
}

#[test]
fn soak_kill_nine_with_racing_and_validation() {
    soak("soak-racing", &["--racing", "--validation", "0.2"]);
    soak("soak-racing-tpe", &["--racing", "--strategy", "tpe"]);
    soak("soak-pareto", &["--objective", "pareto", "--pick", "precision>=0.9"]);
}

/// Kills a run with `kill -9` at random points, resumes it each time, and compares with the
/// uninterrupted run; `options` are added to both.
fn soak(name: &str, options: &[&str]) {
    soak_with(name, &["-e", "lqf", "--population", "12", "--max-generations", "25", "--patience", "0"], options);
}

/// [`soak`] of the run `base` names (extractor and budget).
fn soak_with(name: &str, base: &[&str], options: &[&str]) {
    let set = linky_set(name, 30);
    let s = set.to_str().unwrap();
    let (full, soak) = (beside(&set, "full"), beside(&set, "soak"));
    let args = |out: &Path, extra: &[&str]| {
        let mut v: Vec<String> = ["optimise", "--goldset", s, "--out", out.to_str().unwrap(), "--seed", "9", "-q"]
            .map(String::from)
            .to_vec();
        v.extend(base.iter().chain(options).chain(extra).map(|x| x.to_string()));
        v
    };
    let a = args(&full, &[]);
    let clock = std::time::Instant::now();
    cetune(&a.iter().map(String::as_str).collect::<Vec<_>>()).ok();
    // Kill points as shares of an uninterrupted run, so the test means the same on a fast
    // release build and on a slow CI machine.
    let whole = clock.elapsed().as_secs_f64();
    // A load spike during the uninterrupted run makes every share too long and the killed run
    // may finish before its second kill: then the killed run starts again with halved shares.
    let mut kills = 0;
    for attempt in 0..4 {
        let scale = whole * 0.5f64.powi(attempt);
        let delays = [0.15, 0.3, 0.1, 0.45, 0.2, 0.6, 0.12].map(|share| Duration::from_secs_f64(scale * share));
        kills = 0;
        let mut started = false;
        for round in 0..8 {
            let argv: Vec<String> = if started && soak.join("run.yaml").exists() {
                ["optimise", "--resume", soak.to_str().unwrap(), "-q"].map(String::from).to_vec()
            } else {
                args(&soak, &["--force"])
            };
            started = true;
            let mut child = spawn(&argv.iter().map(String::as_str).collect::<Vec<_>>());
            std::thread::sleep(delays[round % delays.len()]);
            match child.try_wait().unwrap() {
                Some(status) => {
                    let out = child.wait_with_output().unwrap();
                    let err = String::from_utf8_lossy(&out.stderr).to_string();
                    if status.success() || err.contains("nothing to resume") {
                        break;
                    }
                    panic!("run failed: {err}");
                }
                None => {
                    child.kill().unwrap(); // SIGKILL
                    child.wait().unwrap();
                    kills += 1;
                }
            }
        }
        // Finish whatever is left.
        if !std::fs::read_to_string(soak.join("run.yaml")).unwrap_or_default().contains("status: finished") {
            cetune(&["optimise", "--resume", soak.to_str().unwrap(), "-q"]).ok();
        }
        if kills >= 2 {
            break;
        }
    }
    eprintln!("soak: uninterrupted run {whole:.2} s, killed {kills} times");
    assert!(kills >= 2, "the run was killed only {kills} times");
    assert_eq!(journal_without_times(&full), journal_without_times(&soak));
    assert_eq!(
        std::fs::read_to_string(full.join("top.csv")).unwrap(),
        std::fs::read_to_string(soak.join("top.csv")).unwrap()
    );
}

/// A kill -9 before the first checkpoint leaves `run.yaml` and a partial journal but no
/// checkpoint: `--resume` starts again from generation 0 and ends identical.
#[test]
fn resume_without_any_checkpoint_starts_again_and_ends_identical() {
    let set = linky_set("nockpt", 9);
    let s = set.to_str().unwrap();
    let (full, cut) = (beside(&set, "full"), beside(&set, "cut"));
    let (f, c) = (full.to_str().unwrap(), cut.to_str().unwrap());
    assert_eq!(cetune(&optimise_args(s, f, &[])).code, 0);
    assert_eq!(cetune(&optimise_args(s, c, &[])).code, 0);
    // Make `cut` look like a run killed during generation 0.
    std::fs::remove_file(cut.join("checkpoint.yaml")).unwrap();
    let journal = std::fs::read_to_string(cut.join("individuals.csv")).unwrap();
    let torn: String = journal.lines().take(4).map(|l| format!("{l}\n")).collect::<String>() + "3,0,0.1";
    std::fs::write(cut.join("individuals.csv"), torn).unwrap();
    let run = std::fs::read_to_string(cut.join("run.yaml")).unwrap();
    std::fs::write(cut.join("run.yaml"), run.replace("status: finished", "status: running")).unwrap();
    let out = cetune(&["optimise", "--resume", c, "-q"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("starting again from generation 0"), "{}", out.stderr);
    assert_eq!(journal_without_times(&full), journal_without_times(&cut));
}

#[test]
fn macro_f1_objective_equals_the_macro_average_that_evaluate_reports() {
    let set = linky_set("macro", 9);
    let run = beside(&set, "run");
    cetune(&optimise_args(set.to_str().unwrap(), run.to_str().unwrap(), &["--objective", "macro-f1"])).ok();
    let ev = evaluate_best(&set, &run);
    let rows = read_csv(&ev.join("per-package.csv"));
    let macro_row = rows.iter().find(|r| r[0] == "(macro)").unwrap();
    let micro_row = rows.iter().find(|r| r[0] == "(doc-mean)").unwrap();
    let top1: f64 = read_csv(&run.join("top.csv"))[1][3].parse().unwrap();
    let macro_f1: f64 = macro_row[4].parse().unwrap();
    assert!((macro_f1 - top1).abs() < 1e-6, "{macro_row:?} vs {top1}");
    // The packages differ in size (6 blog, 3 news), so the two averages differ.
    assert!((micro_row[4].parse::<f64>().unwrap() - macro_f1).abs() > 1e-6, "{micro_row:?}");
}

#[test]
fn compare_puts_several_runs_in_one_table_by_any_measure_with_bootstrap_intervals() {
    let set = linky_set("cmpmany", 9);
    let (lqf, ccb) = (beside(&set, "lqf"), beside(&set, "ccb"));
    cetune(&optimise_args(set.to_str().unwrap(), lqf.to_str().unwrap(), &[])).ok();
    let mut ccb_args = optimise_args(set.to_str().unwrap(), ccb.to_str().unwrap(), &[]);
    ccb_args[2] = "tccb";
    cetune(&ccb_args).ok();
    let out = beside(&set, "table");
    let (s, l, c, o) = (set.to_str().unwrap(), lqf.to_str().unwrap(), ccb.to_str().unwrap(), out.to_str().unwrap());
    let md = cetune(&[
        "compare",
        "--goldset",
        s,
        "--run",
        l,
        "--run",
        c,
        "--top",
        "2",
        "--measure",
        "shingle4",
        "--bootstrap",
        "200",
        "--out",
        o,
        "-q",
    ])
    .ok();
    assert!(md.contains("lqf, tccb on ") && md.contains("measure shingle4"), "{md}");
    assert!(md.contains("macro F1 95% CI") && md.contains("± "), "{md}");
    let rows = read_csv(&out.join("compare.csv"));
    let macros: Vec<&Vec<String>> = rows.iter().filter(|r| r[1] == "(macro)").collect();
    // Two top rows of each run, and the first run's default (the paired baseline) unless it is one of them.
    assert!((4..=5).contains(&macros.len()), "{rows:?}");
    assert!(macros.iter().any(|r| r[0].contains(": lqf ")) && macros.iter().any(|r| r[0].contains(": tccb ")));
    for r in rows.iter().filter(|r| r[1].starts_with('(')) {
        let ci: f64 = r[6].parse().unwrap();
        assert!(ci > 0.0 && ci < 0.5, "{r:?}");
    }
    // The same call gives the same intervals (the bootstrap is seeded).
    let again = cetune(&[
        "compare",
        "--goldset",
        s,
        "--run",
        l,
        "--run",
        c,
        "--top",
        "2",
        "--measure",
        "shingle4",
        "--bootstrap",
        "200",
        "--out",
        o,
        "--force",
        "-q",
    ])
    .ok();
    assert_eq!(md, again);
    // One run, measure bow: the default folder is named after the set and the measure.
    cetune(&["compare", "--goldset", s, "--run", l, "--top", "1", "--measure", "bow", "-q"]).ok();
    assert!(lqf.join(format!("compare-{}-bow/compare.md", set.file_name().unwrap().to_str().unwrap())).exists());
}

#[test]
fn optimise_scores_by_its_measure_and_records_it() {
    let set = linky_set("measure", 6);
    let run = beside(&set, "run");
    cetune(&optimise_args(set.to_str().unwrap(), run.to_str().unwrap(), &["--measure", "shingle4"])).ok();
    let yaml = std::fs::read_to_string(run.join("run.yaml")).unwrap();
    assert!(yaml.contains("\nmeasure: shingle4\n"), "{yaml}");
    // The default measure is not written, so earlier run folders stay as they were.
    let plain = beside(&set, "plain");
    cetune(&optimise_args(set.to_str().unwrap(), plain.to_str().unwrap(), &[])).ok();
    assert!(!std::fs::read_to_string(plain.join("run.yaml")).unwrap().contains("measure:"));
    // The fitness is measured by shingle4: the first individual (the same known-good setting in
    // both runs) scores differently from its LCS figure.
    let first = |d: &Path| -> f64 {
        let rows = read_csv(&d.join("individuals.csv"));
        let col = rows[0].iter().position(|c| c == "fitness").unwrap();
        rows[1][col].parse().unwrap()
    };
    assert!((first(&run) - first(&plain)).abs() > 1e-6, "{} vs {}", first(&run), first(&plain));
}

#[test]
fn new_strategies_and_options_are_identical_with_one_and_two_threads() {
    let set = linky_set("strategies", 9);
    let s = set.to_str().unwrap();
    let first = beside(&set, "first");
    cetune(&optimise_args(s, first.to_str().unwrap(), &[])).ok();
    let warm = format!("{}", first.display());
    let variants: [&[&str]; 5] = [
        &["--strategy", "cmaes"],
        &["--strategy", "tpe"],
        &["--mutation", "adaptive"],
        &["--epsilon", "auto"],
        &["--warm-start", &warm, "--warm-top", "3"],
    ];
    for (k, extra) in variants.iter().enumerate() {
        let (a, b) = (beside(&set, &format!("v{k}-1")), beside(&set, &format!("v{k}-2")));
        let with = |t: &'static str| [*extra, &["--threads", t]].concat();
        cetune(&optimise_args(s, a.to_str().unwrap(), &with("1"))).ok();
        cetune(&optimise_args(s, b.to_str().unwrap(), &with("2"))).ok();
        assert_eq!(journal_without_times(&a), journal_without_times(&b), "{extra:?}");
        let run_yaml = std::fs::read_to_string(a.join("run.yaml")).unwrap();
        assert!(run_yaml.contains("  sem: "), "{extra:?}: run.yaml reports the standard error");
        let recorded = match extra[0] {
            "--strategy" => format!("strategy: {}", extra[1]),
            "--mutation" => "mutation: adaptive".to_string(),
            "--epsilon" => "epsilon_auto: true".to_string(),
            _ => "warm_start:".to_string(),
        };
        assert!(run_yaml.contains(&recorded), "{extra:?}: run.yaml lacks {recorded}");
    }
}

#[test]
fn cmaes_without_numeric_genes_and_a_foreign_warm_start_are_refused_before_any_work() {
    let set = linky_set("refusals", 4);
    let s = set.to_str().unwrap();
    let yaml = beside(&set, "flags.yaml");
    std::fs::write(
        &yaml,
        "extractor: density\nparameters:\n  - {name: any_majority_child, type: bool, default: false}\n",
    )
    .unwrap();
    let out = beside(&set, "cm");
    let r = cetune(&[
        "optimise",
        "--params",
        yaml.to_str().unwrap(),
        "--goldset",
        s,
        "--strategy",
        "cmaes",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("--strategy cmaes needs at least one float or int parameter"), "{}", r.stderr);
    assert!(!out.exists());
    let other = beside(&set, "ccb-run");
    cetune(&[
        "optimise",
        "-e",
        "ccb",
        "--goldset",
        s,
        "--out",
        other.to_str().unwrap(),
        "--population",
        "4",
        "--max-generations",
        "1",
        "-q",
    ])
    .ok();
    let out = beside(&set, "warm");
    let r = cetune(&optimise_args(s, out.to_str().unwrap(), &["--warm-start", other.to_str().unwrap()]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("that run tuned extractor 'ccb', this one tunes 'lqf'"), "{}", r.stderr);
    assert!(!out.exists());
}

#[test]
fn racing_and_validation_are_identical_with_one_and_two_threads_and_reported() {
    let set = linky_set("rv", 30);
    let s = set.to_str().unwrap();
    let plain = beside(&set, "plain");
    cetune(&optimise_args(s, plain.to_str().unwrap(), &[])).ok();
    let plain_yaml = std::fs::read_to_string(plain.join("run.yaml")).unwrap();
    assert!(!plain_yaml.contains("racing") && !plain_yaml.contains("validation"), "{plain_yaml}");
    assert!(!journal_without_times(&plain)[0].contains(&"documents".to_string()));
    assert!(!plain.join("validation.csv").exists());
    let variants: [&[&str]; 4] = [
        &["--racing"],
        &["--validation", "0.2"],
        &["--racing", "--validation", "0.3", "--strategy", "tpe"],
        &["--racing", "--strategy", "cmaes", "--racing-alpha", "0.2"],
    ];
    for (k, extra) in variants.iter().enumerate() {
        let (a, b) = (beside(&set, &format!("r{k}-1")), beside(&set, &format!("r{k}-2")));
        let with = |t: &'static str| [*extra, &["--threads", t]].concat();
        cetune(&optimise_args(s, a.to_str().unwrap(), &with("1"))).ok();
        cetune(&optimise_args(s, b.to_str().unwrap(), &with("2"))).ok();
        let journal = journal_without_times(&a);
        assert_eq!(journal, journal_without_times(&b), "{extra:?}");
        assert_eq!(
            std::fs::read_to_string(a.join("top.csv")).unwrap(),
            std::fs::read_to_string(b.join("top.csv")).unwrap()
        );
        let run_yaml = std::fs::read_to_string(a.join("run.yaml")).unwrap();
        if extra.contains(&"--racing") {
            assert!(run_yaml.contains("racing: true") && run_yaml.contains("document_evaluations:"), "{run_yaml}");
            assert!(run_yaml.contains("saved_share:") && run_yaml.contains("paired t-test"), "{run_yaml}");
            let alpha = if extra.contains(&"--racing-alpha") { "0.2" } else { "0.05" };
            assert!(run_yaml.contains(&format!("  alpha: {alpha}\n")), "{run_yaml}");
            let col = journal[0].iter().position(|c| c == "documents").expect("documents column");
            let docs: Vec<usize> = journal[1..].iter().map(|r| r[col].parse().unwrap()).collect();
            let full = *docs.iter().max().unwrap();
            let training = if extra.contains(&"--validation") { 21 } else { 30 };
            assert_eq!(full, training, "{extra:?}");
            // Only full evaluations rank in Table 2.
            let trial = journal[0].iter().position(|c| c == "trial").unwrap();
            let partial: Vec<&String> =
                journal[1..].iter().filter(|r| r[col].parse::<usize>().unwrap() < full).map(|r| &r[trial]).collect();
            let top = read_csv(&a.join("top.csv"));
            let top_trial = top[0].iter().position(|c| c == "trial").unwrap();
            assert!(top[1..].iter().all(|r| !partial.contains(&&r[top_trial])), "{extra:?}");
        }
        if extra.contains(&"--validation") {
            let v = read_csv(&a.join("validation.csv"));
            assert_eq!(v[0], ["trial", "fitness", "validation", "validation_sem"]);
            assert!(v.len() > 6, "top individuals and each generation's best");
            let top = read_csv(&a.join("top.csv"));
            assert!(top[0].contains(&"validation".to_string()), "{:?}", top[0]);
            assert!(std::fs::read_to_string(a.join("top.md")).unwrap().contains("| validation |"));
            assert!(std::fs::read_to_string(a.join("history.svg")).unwrap().contains("validation documents"));
            assert!(run_yaml.contains("validation_documents:") && run_yaml.contains("gap:"), "{run_yaml}");
            // `report` rebuilds the tables with the validation column.
            std::fs::remove_file(a.join("top.csv")).unwrap();
            cetune(&["report", a.to_str().unwrap()]).ok();
            assert_eq!(read_csv(&a.join("top.csv")), top);
        }
    }
}

#[test]
fn bad_validation_fractions_and_racing_objectives_are_refused_before_any_work() {
    let set = linky_set("bad-validation", 4);
    let s = set.to_str().unwrap();
    let out = beside(&set, "out");
    let o = out.to_str().unwrap();
    let cases: [(&[&str], &str); 6] = [
        (&["--validation", "0"], "--validation must be in (0, 0.9], but got 0"),
        (&["--validation", "0.95"], "--validation must be in (0, 0.9], but got 0.95"),
        (&["--validation", "0.9"], "leaves package 'blog' (2 documents) without training documents"),
        (&["--validation", "0.1"], "holds out no document"),
        (&["--racing", "--objective", "macro-f1"], "--racing needs the objective f1 or fbeta:B"),
        (&["--racing", "--racing-alpha", "0.9"], "--racing-alpha must be in [0.001, 0.5], but got 0.9"),
    ];
    for (extra, message) in cases {
        let r = cetune(&[&["optimise", "-e", "lqf", "--goldset", s, "--out", o, "-q"][..], extra].concat());
        assert_eq!(r.code, 2, "{extra:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(message), "{extra:?}: {}", r.stderr);
        assert!(!out.exists(), "{extra:?}: no run folder before the inputs are checked");
    }
}

#[test]
fn pareto_runs_are_identical_with_one_and_two_threads_and_pick_a_point_of_the_front() {
    let set = linky_set("pf", 30);
    let s = set.to_str().unwrap();
    let (a, b) = (beside(&set, "a"), beside(&set, "b"));
    let extra = |t: &'static str| vec!["--objective", "pareto", "--pick", "f1", "--threads", t];
    cetune(&optimise_args(s, a.to_str().unwrap(), &extra("1"))).ok();
    cetune(&optimise_args(s, b.to_str().unwrap(), &extra("2"))).ok();
    assert_eq!(journal_without_times(&a), journal_without_times(&b));
    let front = read_csv(&a.join("pareto.csv"));
    assert_eq!(front[0][..3], ["point", "trial", "generation"]);
    assert_eq!(front, read_csv(&b.join("pareto.csv")));
    let col = |name: &str| front[0].iter().position(|c| c == name).unwrap();
    let (p, r, f1, chosen) = (col("precision"), col("recall"), col("f1"), col("chosen"));
    let num = |row: &Vec<String>, c: usize| row[c].parse::<f64>().unwrap();
    // Sorted by precision; recall falls along the front; no point dominates another.
    for w in front[1..].windows(2) {
        assert!(num(&w[0], p) <= num(&w[1], p) && num(&w[0], r) >= num(&w[1], r), "{w:?}");
    }
    assert!(a.join("pareto.svg").exists() && a.join("pareto.png").exists());
    let run_yaml = std::fs::read_to_string(a.join("run.yaml")).unwrap();
    assert!(run_yaml.contains("strategy: nsga2") && run_yaml.contains("pick: f1"), "{run_yaml}");
    // f1: the chosen point has the largest F1 of the front, and best.yaml holds it.
    let best_f1 = front[1..].iter().map(|row| num(row, f1)).fold(0.0, f64::max);
    let picked: Vec<&Vec<String>> = front[1..].iter().filter(|row| row[chosen] == "true").collect();
    assert_eq!(picked.len(), 1);
    assert_eq!(num(picked[0], f1), best_f1);
    // Re-pick the point with the largest recall: the last of the front (the first trial of
    // equal points).
    let bound = num(front.last().unwrap(), r);
    let out = cetune(&["report", a.to_str().unwrap(), "--pick", &format!("recall>={bound}")]).ok();
    assert!(out.contains("best.yaml: trial"), "{out}");
    let again = read_csv(&a.join("pareto.csv"));
    let picked: Vec<&Vec<String>> = again[1..].iter().filter(|row| row[chosen] == "true").collect();
    assert_eq!(picked.len(), 1);
    assert!(num(picked[0], r) >= bound);
    let top_p = again[1..].iter().filter(|row| num(row, r) >= bound).map(|row| num(row, p)).fold(0.0, f64::max);
    assert_eq!(num(picked[0], p), top_p);
    let run_yaml = std::fs::read_to_string(a.join("run.yaml")).unwrap();
    assert!(run_yaml.contains(&format!("pick: recall>={bound}")), "{run_yaml}");
    assert!(run_yaml.contains(&format!("trial: {}", picked[0][1])), "{run_yaml}");
    let best = std::fs::read_to_string(a.join("best.yaml")).unwrap();
    let t = front[0].iter().position(|c| c == "t").unwrap();
    assert!(best.contains(&format!("t: {}", picked[0][t])), "{best}");
}

#[test]
fn a_pick_naming_an_objective_the_run_did_not_record_is_refused() {
    let set = linky_set("pick", 6);
    let s = set.to_str().unwrap();
    let out = beside(&set, "out");
    let o = out.to_str().unwrap();
    let r = cetune(&optimise_args(s, o, &["--pick", "precision>=0.9"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("needs --objective pareto") && r.stderr.lines().count() == 1, "{}", r.stderr);
    assert!(!out.exists());
    let r = cetune(&optimise_args(s, o, &["--objective", "pareto", "--pick", "macro-f1>=0.5"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("names no objective this run records"), "{}", r.stderr);
    assert!(!out.exists());
    cetune(&optimise_args(s, o, &[])).ok();
    let r = cetune(&["report", o, "--pick", "f1"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("records objective f1, not a Pareto front"), "{}", r.stderr);
}

/// A run given absolute paths of this machine (gold set, output folder) records none of them:
/// `run.yaml` and `best.yaml` name the gold set under `$CETUNE_SCRATCH` (or relative to the
/// working folder), the command starts with `cetune`; the run still resumes (the gold set
/// found beside the run folder, or under the folder the variable names).
#[test]
fn a_run_records_no_absolute_path_and_still_resumes() {
    let set = linky_set("norecord", 9);
    assert!(set.is_absolute());
    let name = set.file_name().unwrap().to_str().unwrap().to_string();
    let run = beside(&set, "run");
    let (s, r) = (set.to_str().unwrap(), run.to_str().unwrap());
    cetune(&optimise_args(s, r, &[])).ok();
    let root = set.parent().unwrap().to_str().unwrap().to_string();
    let read = |f: &str| std::fs::read_to_string(run.join(f)).unwrap();
    for f in ["run.yaml", "best.yaml"] {
        let text = read(f);
        assert!(!text.contains(&root), "{f} holds an absolute path:\n{text}");
        assert!(!text.contains(env!("CARGO_MANIFEST_DIR")), "{f}:\n{text}");
    }
    let flat = |text: String| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let record = flat(read("run.yaml"));
    assert!(record.contains(&format!("path: $CETUNE_SCRATCH/{name} ")), "{record}");
    let command = format!("cetune optimise -e lqf --goldset $CETUNE_SCRATCH/{name} --out $CETUNE_SCRATCH/{name}-run ");
    assert!(record.contains(&command), "{record}");
    assert!(read("best.yaml").contains(&format!("run: $CETUNE_SCRATCH/{name}-run\n")), "{}", read("best.yaml"));
    // Resumed with larger limits: the gold set is found beside the run folder.
    cetune(&["optimise", "--resume", r, "--max-generations", "7", "-q"]).ok();
    // With the variable naming the folder, the path is recorded under it (nested folders kept).
    let out = Command::new(env!("CARGO_BIN_EXE_cetune"))
        .args(optimise_args(s, &format!("{root}/{name}-nested/run2"), &[]))
        .env("CETUNE_SCRATCH", &root)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let record = flat(std::fs::read_to_string(format!("{root}/{name}-nested/run2/run.yaml")).unwrap());
    assert!(record.contains(&format!("--out $CETUNE_SCRATCH/{name}-nested/run2 ")), "{record}");
    assert!(!record.contains(&root), "{record}");
    // A relative gold set path is kept as given.
    let rel = Command::new(env!("CARGO_BIN_EXE_cetune"))
        .args(optimise_args(&name, &format!("{name}-run3"), &[]))
        .current_dir(set.parent().unwrap())
        .output()
        .unwrap();
    assert!(rel.status.success(), "{}", String::from_utf8_lossy(&rel.stderr));
    let record = std::fs::read_to_string(set.parent().unwrap().join(format!("{name}-run3/run.yaml"))).unwrap();
    assert!(record.contains(&format!("path: {name}\n")), "{record}");
    // ... and the run resumes from another folder: the path is found above the run folder.
    let elsewhere = crate::util::tmp("norecord-elsewhere");
    let run3 = set.parent().unwrap().join(format!("{name}-run3"));
    crate::util::cetune_in(
        &elsewhere,
        &["optimise", "--resume", run3.to_str().unwrap(), "--max-generations", "7", "-q"],
    )
    .ok();
}

/// `--time-limit`: a run stops after the generation that ends past the limit, says so, and the
/// limit is checked like the other settings.
#[test]
fn a_time_limit_stops_the_run_after_the_generation_that_passes_it() {
    let set = linky_set("time-limit", 20);
    let run = beside(&set, "run");
    let out = cetune(&[
        "optimise",
        "-e",
        "lqf",
        "--goldset",
        set.to_str().unwrap(),
        "--out",
        run.to_str().unwrap(),
        "--population",
        "4",
        "--max-generations",
        "1000000",
        "--patience",
        "0",
        "--time-limit",
        "1",
        "-q",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("stopped: time limit reached"), "{}", out.stdout);
    let run_yaml = std::fs::read_to_string(run.join("run.yaml")).unwrap();
    assert!(run_yaml.contains("time_limit: 1"), "{run_yaml}");
    let generations = read_csv(&run.join("individuals.csv"))
        .iter()
        .skip(1)
        .map(|r| r[1].clone())
        .collect::<std::collections::HashSet<_>>()
        .len();
    assert!((2..1_000_000).contains(&generations), "{generations}");
    let bad = cetune(&["optimise", "-e", "lqf", "--goldset", set.to_str().unwrap(), "--time-limit", "0", "-q"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--time-limit must be a positive number of seconds, but got 0"), "{}", bad.stderr);
}
