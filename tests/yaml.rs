//! The YAML files cetune reads (parameter files, `goldset.yaml`, `run.yaml`, `checkpoint.yaml`):
//! hostile files are rejected at once with `file:line:col`, bad ranges and options are exit 2
//! (never a panic), and the committed reference runs still load.

use crate::util::{cetune, cetune_in, tmp, write};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Copies a folder (flat or nested) for a test that writes into it.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn readme_error_example_is_what_cetune_prints() {
    let readme = crate::util::manual();
    let line = readme.lines().find(|l| l.contains("``params/accb.yaml:")).expect("README example");
    let example = line.split("``").nth(1).unwrap().trim();
    let d = tmp("readme-example");
    let accb = std::fs::read_to_string(root().join("params/accb.yaml")).unwrap();
    let swapped = accb.replacen("    min: 5\n    max: 300\n", "    min: 300\n    max: 5\n", 1);
    assert_ne!(accb, swapped);
    write(&d.join("params/accb.yaml"), swapped);
    let r = cetune_in(&d, &["evaluate", "--params", "params/accb.yaml", "-q"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.stderr.trim(), format!("cetune: {example}"));
}

#[test]
fn deeply_nested_yaml_is_rejected_with_a_clear_message() {
    let d = tmp("deep-yaml");
    let deep = "[ ".repeat(100_000);
    let check = |r: crate::util::Run, file: &str, code: i32| {
        assert_eq!(r.code, code, "{}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(file) && r.stderr.contains("nested at most 32 deep"), "{}", r.stderr);
    };
    let params = d.join("p.yaml");
    write(&params, format!("extractor: accb\nabout: {deep}\n"));
    check(cetune(&["evaluate", "--params", params.to_str().unwrap(), "-q"]), "p.yaml:2:", 2);
    let set = d.join("set");
    copy_dir(&root().join("goldsets/default"), &set);
    write(&set.join("goldset.yaml"), &deep);
    check(cetune(&["goldset", "stats", set.to_str().unwrap()]), "goldset.yaml:1:", 2);
    let run = d.join("run");
    copy_dir(&root().join("results/reference/accb"), &run);
    write(&run.join("run.yaml"), &deep);
    check(cetune(&["report", run.to_str().unwrap()]), "run.yaml:1:", 1);
}

#[test]
fn committed_reference_runs_still_load() {
    let d = tmp("reference-runs");
    for name in std::fs::read_dir(root().join("results/reference")).unwrap() {
        let name = name.unwrap().file_name();
        let src = root().join("results/reference").join(&name);
        if !src.join("run.yaml").exists() {
            continue;
        }
        let run = d.join(&name);
        copy_dir(&src, &run);
        cetune(&["report", run.to_str().unwrap()]).ok();
        let best = src.join("best.yaml");
        let out = d.join(format!("{}-evaluate", name.to_string_lossy()));
        cetune(&["evaluate", "--params", best.to_str().unwrap(), "--out", out.to_str().unwrap(), "-q"]).ok();
    }
}

/// The reference runs commit no plot or report.html (`cetune report --html` redraws them from
/// the run's CSVs): every run folder at any depth that keeps its journal redraws its plots,
/// tables and report from `run.yaml`, `individuals.csv` and `best.yaml` alone.
#[test]
fn committed_reference_runs_redraw_their_reports() {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.file_name().is_some_and(|n| n == "individuals.csv") && p.with_file_name("run.yaml").exists() {
                out.push(p.parent().unwrap().to_path_buf());
            }
        }
    }
    let mut runs = Vec::new();
    walk(&root().join("results/reference"), &mut runs);
    let nested = runs.iter().filter(|r| r.parent().is_some_and(|p| !p.ends_with("reference"))).count();
    assert!(runs.len() >= 10 && nested >= 1, "{} runs, {nested} of them nested", runs.len());
    let d = tmp("reference-reports");
    for (k, src) in runs.iter().enumerate() {
        let run = d.join(k.to_string());
        std::fs::create_dir_all(&run).unwrap();
        for f in ["run.yaml", "individuals.csv", "best.yaml"] {
            if src.join(f).exists() {
                std::fs::copy(src.join(f), run.join(f)).unwrap();
            }
        }
        cetune(&["report", "--html", run.to_str().unwrap()]).ok();
        for f in ["report.html", "history.svg", "space.svg", "top.md", "generations.csv"] {
            assert!(run.join(f).exists(), "{}: no {f} redrawn", src.display());
        }
    }
}

#[test]
fn bad_ranges_and_options_are_exit_2_never_a_panic() {
    let d = tmp("bad-options");
    let page = d.join("page.html");
    write(&page, "<html><body><p>Some words of text in a paragraph.</p></body></html>");
    let accb = std::fs::read_to_string(root().join("params/accb.yaml")).unwrap();
    let bad_files = [
        ("nan-min", accb.replacen("min: 5\n", "min: .nan\n", 1), "'min' must be a number within"),
        ("huge-range", accb.replacen("min: 0.05\n    max: 0.99\n", "min: -1e308\n    max: 1e308\n", 1), "within ±1e15"),
        ("int-step", accb.replacen("max: 300\n", "max: 300\n    step: 5\n", 1), "'step' is for float parameters"),
        ("tiny-step", accb.replacen("step: 0.01", "step: 1e-12", 1), "'step' must be at least 1e-9"),
    ];
    for (name, text, expected) in bad_files {
        assert_ne!(text, accb, "{name}");
        let p = d.join(format!("{name}.yaml"));
        write(&p, text);
        let p = p.to_str().unwrap();
        let out = d.join(format!("{name}-out"));
        let out = out.to_str().unwrap();
        for args in [
            vec!["evaluate", "--params", p, "--out", out, "-q"],
            vec!["extract", "--params", p, page.to_str().unwrap()],
            vec!["optimise", "--params", p, "--out", out, "-q"],
        ] {
            let r = cetune(&args);
            assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
            assert!(
                r.stderr.contains(expected) && r.stderr.contains(&format!("{name}.yaml:")),
                "{args:?}: {}",
                r.stderr
            );
        }
    }
    let params = root().join("params/accb.yaml");
    for (option, expected) in [
        (vec!["--blx-alpha", "1e308"], "blx_alpha must be in [0, 10]"),
        (vec!["--mutation-sigma", "1e308"], "mutation_sigma must be in [0, 10]"),
        (vec!["--objective", "fbeta:1e300"], "beta must lie in [0.001, 1000], got 1e300"),
        (vec!["--epsilon", "NaN"], "epsilon must be in [0, 1]"),
        (vec!["--population", "0"], "population"),
        (vec!["--population", "100000000"], "population must be at most"),
        (vec!["--threads", "100000"], "--threads must be at most 1024"),
    ] {
        let out = d.join("run");
        let mut args = vec!["optimise", "--params", params.to_str().unwrap(), "--out", out.to_str().unwrap(), "-q"];
        args.extend(&option);
        let r = cetune(&args);
        assert_eq!(r.code, 2, "{option:?}: {}", r.stderr);
        assert!(r.stderr.contains(expected), "{option:?}: {}", r.stderr);
        assert!(!out.join("run.yaml").exists(), "{option:?}: nothing starts");
    }
}

#[test]
fn resume_checks_the_settings_in_run_yaml() {
    let d = tmp("resume-bad-config");
    let run = d.join("run");
    copy_dir(&root().join("results/reference/accb"), &run);
    let text = std::fs::read_to_string(run.join("run.yaml")).unwrap();
    let edited = text.replacen("  blx_alpha: 0.5\n", "  blx_alpha: 1.0e308\n", 1).replacen(
        "status: finished",
        "status: interrupted",
        1,
    );
    assert_ne!(edited, text);
    write(&run.join("run.yaml"), edited);
    let r = cetune(&["optimise", "--resume", run.to_str().unwrap(), "-q"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("run.yaml: blx_alpha must be in [0, 10], but got 1e308"), "{}", r.stderr);
}
