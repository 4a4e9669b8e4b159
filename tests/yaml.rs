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
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
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
