//! The general model (issue 37): the default of `extract`, `evaluate` and `annotate`, listed by
//! `extractors`; `model build` pools gold sets, scores a grid out of fold by set and writes a
//! model that `extract --params` applies; the shipped model rebuilds from the shared sets.

use crate::util::{cetune, cetune_in, linky_set, read_csv, tmp, write};
use std::path::Path;

/// An article page with a menu and a footer.
fn page(dir: &Path) -> std::path::PathBuf {
    let body =
        "The committee met on Tuesday to discuss the new budget for the city's schools and libraries. ".repeat(10);
    let nav: String = (0..12).map(|i| format!("<li><a href='/s{i}'>Section {i}</a></li>")).collect();
    let html = format!(
        "<html><head><title>Budget</title></head><body><ul class='menu'>{nav}</ul><article><h1>Schools budget agreed</h1>\
         <p>{body}</p><p>{body}</p></article><footer>Copyright 2026 Example News. All rights reserved. \
         <a href='/privacy'>Privacy</a> <a href='/terms'>Terms</a></footer></body></html>"
    );
    let p = dir.join("page.html");
    write(&p, html);
    p
}

#[test]
fn extract_with_no_flags_applies_the_shipped_general_model() {
    let dir = tmp("general-default");
    let p = page(&dir);
    let p = p.to_str().unwrap();
    // From a folder that holds no params/: the model is compiled in.
    let plain = cetune_in(&dir, &["extract", p]).ok();
    assert!(plain.contains("The committee met"), "{plain}");
    assert!(!plain.contains("All rights reserved") && !plain.contains("Section 3"), "{plain}");
    assert_eq!(cetune_in(&dir, &["extract", "-e", "general", p]).ok(), plain);
    // The shipped files give the same text as the compiled-in copy.
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = repo.join("params/general.yaml");
    assert_eq!(cetune_in(&dir, &["extract", "--params", file.to_str().unwrap(), p]).ok(), plain);
    // Not the untrained prior (which warns) and not keep-everything.
    let r = cetune_in(&dir, &["extract", p]);
    assert!(!r.stderr.contains("no fitted model"), "{}", r.stderr);
    assert_ne!(cetune_in(&dir, &["extract", "-e", "full", p]).ok(), plain);
    // Overrides apply to it like to any setting.
    let all = cetune_in(&dir, &["extract", "--set", "t=0.05", "--set", "t_rel=0", p]).ok();
    assert!(all.split_whitespace().count() >= plain.split_whitespace().count());
    // `extractors` names it first, as the default.
    let list = cetune(&["extractors"]).ok();
    assert!(list.starts_with("general (the default"), "{}", &list[..200.min(list.len())]);
    // `evaluate` without a setting scores it.
    let set = linky_set("general-evaluate", 6);
    let out = dir.join("eval");
    let text = cetune(&["evaluate", "--goldset", set.to_str().unwrap(), "--out", out.to_str().unwrap(), "-q"]).ok();
    assert!(text.contains("blocktrees"), "{text}");
}

#[test]
fn annotate_prefills_with_the_general_model_by_default() {
    let set = linky_set("general-annotate", 6);
    let r = cetune(&["annotate", set.to_str().unwrap(), "--effort", "-q"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("general"), "{}", r.stdout);
    assert!(!r.stdout.contains("full"), "{}", r.stdout);
}

/// A pooled build with a second stage (`stack`, or `regions`, which implies it): each held-out
/// fold's model folds its own training pages again for the second stage's context, and the
/// written model holds both stages (and the region forest), which `extract` applies.
#[test]
fn model_build_fits_a_second_stage_and_the_region_decision_inside_each_fold() {
    let a = linky_set("general-stage-a", 10);
    let b = linky_set("general-stage-b", 10);
    for (set, lines) in [("stack=true", &["stack"][..]), ("regions=true", &["regions", "stack"][..])] {
        let out = tmp("general-stage").join("model");
        let (a, b, o) = (a.to_str().unwrap(), b.to_str().unwrap(), out.to_str().unwrap());
        let args = ["model", "build", "--goldset", a, "--goldset", b, "--set", set, "--out", o, "--force", "-q"];
        let r = cetune(&[&args[..], &["--set", "trees=20,min_leaf=5"]].concat());
        assert_eq!(r.code, 0, "{set}: {}", r.stderr);
        let pages = read_csv(&out.join("pages.csv"));
        assert_eq!(pages.len(), 1 + 10 + 10, "{set}");
        assert!(pages.iter().skip(1).all(|r| r[6].parse::<f64>().unwrap() > 0.3), "{set}: {pages:?}");
        let model = std::fs::read_to_string(out.join("general.model")).unwrap();
        for line in lines {
            assert!(model.lines().any(|l| l == *line), "{set}: no '{line}' in the model");
        }
        let p = std::path::Path::new(a).join("news/00.html");
        let text =
            cetune(&["extract", "--params", out.join("general.yaml").to_str().unwrap(), p.to_str().unwrap()]).ok();
        assert!(text.contains("opened again"), "{set}: {text}");
    }
}

#[test]
fn model_build_pools_sets_scores_a_grid_out_of_fold_by_set_and_writes_a_model_extract_applies() {
    let a = linky_set("general-a", 12);
    let b = linky_set("general-b", 9);
    let out = tmp("general-build").join("model");
    let run = cetune(&[
        "model",
        "build",
        "--goldset",
        a.to_str().unwrap(),
        "--goldset",
        b.to_str().unwrap(),
        "--grid",
        "t=0.3,0.6",
        "--set",
        "trees=20",
        "--out",
        out.to_str().unwrap(),
        "-q",
    ])
    .ok();
    assert!(run.contains("held-out mean F1 by set"), "{run}");
    for f in ["general.yaml", "general.model", "means.csv", "pages.csv"] {
        assert!(out.join(f).is_file(), "{f}");
    }
    let means = read_csv(&out.join("means.csv"));
    assert_eq!(means[0], ["grid", "set", "pages", "f1", "chosen", "chosen_without_set"]);
    assert_eq!(means.len(), 1 + 2 * 2, "two grid points by two sets");
    assert_eq!(means.iter().skip(1).filter(|r| r[4] == "true").count(), 2, "one point chosen, shown for each set");
    let pages = read_csv(&out.join("pages.csv"));
    assert_eq!(pages.len(), 1 + 12 + 9);
    // Each page is held out with its whole set: its fold is its set.
    assert!(pages.iter().skip(1).all(|r| r[0] == r[3]), "{pages:?}");
    assert!(pages.iter().skip(1).all(|r| r[6].parse::<f64>().unwrap() > 0.3), "{pages:?}");
    let yaml = std::fs::read_to_string(out.join("general.yaml")).unwrap();
    assert!(yaml.contains("# rebuild: cetune model build --goldset"), "{yaml}");
    assert!(yaml.contains("model: general.model"), "{yaml}");
    assert!(yaml.contains("trees: 20"), "{yaml}");
    // The written setting applies its model.
    let p = a.join("news/00.html");
    let text = cetune(&["extract", "--params", out.join("general.yaml").to_str().unwrap(), p.to_str().unwrap()]).ok();
    assert!(!text.trim().is_empty());
    // Usage errors are one line, exit 2, and write nothing.
    let one = cetune(&[
        "model",
        "build",
        "--goldset",
        a.to_str().unwrap(),
        "--out",
        tmp("general-one").join("m").to_str().unwrap(),
    ]);
    assert_eq!(one.code, 2, "{}", one.stderr);
    assert!(one.stderr.contains("at least two gold sets"), "{}", one.stderr);
    let bad = cetune(&[
        "model",
        "build",
        "--goldset",
        a.to_str().unwrap(),
        "--goldset",
        b.to_str().unwrap(),
        "--host-folds",
        "nosuchset=2",
        "--out",
        tmp("general-bad").join("m").to_str().unwrap(),
    ]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("no gold set named 'nosuchset'"), "{}", bad.stderr);
    let other = cetune(&[
        "model",
        "build",
        "-e",
        "lqf",
        "--goldset",
        a.to_str().unwrap(),
        "--goldset",
        b.to_str().unwrap(),
        "--out",
        tmp("general-lqf").join("m").to_str().unwrap(),
    ]);
    assert_eq!(other.code, 2, "{}", other.stderr);
}

#[test]
fn a_damaged_general_model_file_is_one_line_naming_it() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tmp("general-damaged");
    std::fs::copy(repo.join("params/general.yaml"), dir.join("general.yaml")).unwrap();
    let model = std::fs::read_to_string(repo.join("params/general.model")).unwrap();
    let cut: String = model.lines().take(model.lines().count() / 2).map(|l| format!("{l}\n")).collect();
    write(&dir.join("general.model"), cut);
    let p = page(&dir);
    let r = cetune(&["extract", "--params", dir.join("general.yaml").to_str().unwrap(), p.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("general.model"), "{}", r.stderr);
}

/// Adaptation: `optimise -e blocktrees --set start=general` boosts on from the general model's
/// scores; the written model holds the general model's trees and the new ones, so it extracts
/// with no general model at hand. `CETUNE_GENERAL_MODEL` stands in a `model build` folder for
/// the compiled-in model; a folder that is not one is one line, exit 2.
#[test]
fn a_fit_started_from_the_general_model_holds_its_trees_and_needs_nothing_else() {
    let set = linky_set("general-start", 12);
    let run = tmp("general-start-run").join("run");
    let args = ["optimise", "-e", "blocktrees", "--set", "start=general", "--set", "trees=20", "--goldset"];
    let args = [&args[..], &[set.to_str().unwrap(), "--population", "4", "--max-generations", "1", "-q"]].concat();
    cetune(&[&args[..], &["--out", run.to_str().unwrap()]].concat()).ok();
    let model = std::fs::read_to_string(run.join("best.model")).unwrap();
    let shipped = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("params/general.model")).unwrap();
    let count = |m: &str| m.lines().find_map(|l| l.strip_prefix("trees ")).unwrap().parse::<usize>().unwrap();
    let yaml = std::fs::read_to_string(run.join("best.yaml")).unwrap();
    // `trees` is a gene: the best setting's own count.
    let own: usize = yaml.lines().find_map(|l| l.trim().strip_prefix("trees: ")).unwrap().parse().unwrap();
    assert_eq!(count(&model), count(&shipped) + own, "the general model's trees, then its own");
    assert!(yaml.contains("start: general"), "{yaml}");
    let p = set.join("news/00.html");
    let best = run.join("best.yaml");
    let with = cetune(&["extract", "--params", best.to_str().unwrap(), p.to_str().unwrap()]).ok();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cetune"))
        .args(["extract", "--params", best.to_str().unwrap(), p.to_str().unwrap()])
        .env("CETUNE_GENERAL_MODEL", "/nonexistent-general-model")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), with, "the written model is self-contained");
    // A stand-in general model: a model build folder changes the default; anything else is refused.
    let b = linky_set("general-start-b", 9);
    let built = tmp("general-start-built").join("m");
    let args = ["model", "build", "--goldset", set.to_str().unwrap(), "--goldset", b.to_str().unwrap()];
    cetune(&[&args[..], &["--set", "trees=21", "--out", built.to_str().unwrap(), "-q"]].concat()).ok();
    let run_with = |dir: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_cetune"))
            .args(["extractors", "general"])
            .env("CETUNE_GENERAL_MODEL", dir)
            .output()
            .unwrap()
    };
    let o = run_with(built.to_str().unwrap());
    assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).contains("trees=21"), "{o:?}");
    let o = run_with("/nonexistent-general-model");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("CETUNE_GENERAL_MODEL") && err.lines().count() == 1, "{err}");
    // A run started from a stand-in records it in its command (results/reproduce.sh sets it
    // again) and resumes only under the same one.
    // Beside the gold set, so that the resume finds it (recorded as `$CETUNE_SCRATCH/NAME`).
    let adapted = set.with_extension("adapted");
    let optimise = |args: &[&str], env: Option<&Path>| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_cetune"));
        c.args(args).env_remove("CETUNE_GENERAL_MODEL");
        if let Some(dir) = env {
            c.env("CETUNE_GENERAL_MODEL", dir);
        }
        c.output().unwrap()
    };
    let args = ["optimise", "-e", "blocktrees", "--set", "start=general", "--set", "trees=20", "--goldset"];
    let args = [&args[..], &[set.to_str().unwrap(), "--population", "2", "--max-generations", "1", "-q"]].concat();
    let o = optimise(&[&args[..], &["--out", adapted.to_str().unwrap()]].concat(), Some(&built));
    assert!(o.status.success(), "{o:?}");
    let record = std::fs::read_to_string(adapted.join("run.yaml")).unwrap();
    // One line, or a folded block (`>-`) of indented lines.
    let mut lines = record.lines().skip_while(|l| !l.starts_with("command: "));
    let first = lines.next().unwrap().trim_start_matches("command: ");
    let folded: Vec<&str> = lines.take_while(|l| l.starts_with("  ")).map(str::trim).collect();
    let command = if first == ">-" { folded.join(" ") } else { first.to_string() };
    assert!(command.starts_with("CETUNE_GENERAL_MODEL=$CETUNE_SCRATCH/m cetune optimise"), "{command}");
    let resume = ["optimise", "--resume", adapted.to_str().unwrap(), "--max-generations", "2", "-q"];
    let o = optimise(&resume, None);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("started with CETUNE_GENERAL_MODEL=") && err.contains("unset") && err.lines().count() == 1,
        "{err}"
    );
    let o = optimise(&resume, Some(&built));
    assert!(o.status.success(), "the same stand-in resumes: {o:?}");
}
