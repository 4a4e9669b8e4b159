//! Combinations of extractors end to end (issue 13): `extractors`, `optimise`, `report`,
//! `compare`, `evaluate` and `extract` on a combination description exactly as on a family, its
//! `best.yaml` reused, and bad descriptions rejected before any work with file and line.

use crate::util::linky_set;
use crate::util::{beside, cetune, read_csv, write};

/// `--extractor` offers the compiled-in combinations beside the families: `optimise -e NAME`
/// starts from the combination's own description, as `--params params/NAME.yaml` does.
#[test]
fn optimise_takes_a_compiled_in_combination_by_name() {
    let set = linky_set("combine-by-name", 8);
    let out = beside(&set, "run");
    let (s, o) = (set.to_str().unwrap(), out.to_str().unwrap());
    let args = ["optimise", "-e", "lqf-then-accb", "--goldset", s, "--out", o, "--population", "4"];
    cetune(&[&args[..], &["--max-generations", "1", "--seed", "1", "-q"]].concat()).ok();
    let best = std::fs::read_to_string(out.join("best.yaml")).unwrap();
    assert!(best.contains("extractor: lqf-then-accb") && best.contains("serial(lqf("), "{best}");
}

#[test]
fn a_combination_runs_through_every_command_and_its_best_yaml_is_reusable() {
    let set = linky_set("combine-set", 12);
    let out = beside(&set, "run");
    let (s, o) = (set.to_str().unwrap(), out.to_str().unwrap());
    let listing = cetune(&["extractors", "lqf-then-accb"]).ok();
    assert!(listing.contains("lqf.t") && listing.contains("accb.r") && listing.contains("combinator"), "{listing}");
    cetune(&[
        "optimise",
        "--params",
        "params/lqf-then-accb.yaml",
        "--goldset",
        s,
        "--out",
        o,
        "--population",
        "6",
        "--max-generations",
        "3",
        "--seed",
        "2",
        "-q",
    ])
    .ok();
    let run = std::fs::read_to_string(out.join("run.yaml")).unwrap();
    assert!(run.contains("member_cache:") && run.contains("hit_rate:"), "{run}");
    // Table 2 and best.yaml show the active structure.
    let top = std::fs::read_to_string(out.join("top.md")).unwrap();
    assert!(top.contains("| 1 | serial(lqf(t=") && top.contains(" ▷ accb(r="), "{top}");
    let best = std::fs::read_to_string(out.join("best.yaml")).unwrap();
    assert!(
        best.contains("extractor: lqf-then-accb") && best.contains("structure:") && best.contains("serial(lqf("),
        "{best}"
    );
    assert!(out.join("structure.svg").is_file() && out.join("space.svg").is_file());
    // best.yaml works with evaluate and extract, and evaluate reproduces the run's fitness.
    let b = out.join("best.yaml");
    let ev = beside(&set, "eval");
    cetune(&["evaluate", "--goldset", s, "--params", b.to_str().unwrap(), "--out", ev.to_str().unwrap(), "-q"]).ok();
    let rows = read_csv(&ev.join("per-document.csv"));
    let mean: f64 = rows[1..].iter().map(|r| r[4].parse::<f64>().unwrap()).sum::<f64>() / (rows.len() - 1) as f64;
    let fitness: f64 = best.lines().find_map(|l| l.trim().strip_prefix("fitness: ")).unwrap().parse().unwrap();
    assert!((mean - fitness).abs() < 1e-6, "{mean} vs {fitness}");
    let page = set.join("news/00.html");
    let text = cetune(&["extract", "--params", b.to_str().unwrap(), page.to_str().unwrap()]).ok();
    assert!(text.contains("opened again"), "{text}");
    cetune(&["report", o]).ok();
    cetune(&["compare", "--goldset", s, "--run", o, "--with-defaults", "-q"]).ok();
    let cmp =
        std::fs::read_to_string(out.join(format!("compare-{}/compare.md", set.file_name().unwrap().to_string_lossy())))
            .unwrap();
    assert!(cmp.contains("serial(lqf("), "{cmp}");
}

/// A user's own combination, not compiled in: members lqf and tccb, a vote with soft genes.
const MY_COMBO: &str = "extractor: my-combo\n\
members: [lqf, tccb]\n\
parameters:\n\
  - {name: v, type: float, min: 0, max: 2, step: 0.05, default: 1}\n\
  - {name: lqf.soft, type: bool, default: false}\n\
  - {name: lqf.weight, type: float, min: 0, max: 1, step: 0.05, default: 1}\n\
  - {name: lqf.t, type: float, min: 0.05, max: 1.0, step: 0.01, default: 0.25}\n\
  - {name: tccb.soft, type: bool, default: false}\n\
  - {name: tccb.r, type: int, min: 2, max: 150, default: 25}\n\
  - {name: tccb.t, type: float, min: 0.05, max: 0.99, step: 0.01, default: 0.75}\n";

#[test]
fn a_combination_that_is_not_compiled_in_has_a_best_yaml_that_loads_back_everywhere() {
    let set = linky_set("combine-mine", 9);
    let dir = beside(&set, "params");
    let mine = dir.join("my-combo.yaml");
    write(&mine, MY_COMBO);
    let out = beside(&set, "run");
    let (s, o) = (set.to_str().unwrap(), out.to_str().unwrap());
    let args = ["--goldset", s, "--out", o, "--population", "6", "--max-generations", "2", "--seed", "3", "-q"];
    cetune(&[&["optimise", "--params", mine.to_str().unwrap()][..], &args[..]].concat()).ok();
    // The description file is gone: best.yaml must stand on its own.
    std::fs::remove_file(&mine).unwrap();
    let b = out.join("best.yaml");
    let best = std::fs::read_to_string(&b).unwrap();
    assert!(
        best.contains("extractor: my-combo") && best.contains("members:") && best.contains("parameters:"),
        "{best}"
    );
    let ev = beside(&set, "eval");
    cetune(&["evaluate", "--goldset", s, "--params", b.to_str().unwrap(), "--out", ev.to_str().unwrap(), "-q"]).ok();
    let rows = read_csv(&ev.join("per-document.csv"));
    let mean: f64 = rows[1..].iter().map(|r| r[4].parse::<f64>().unwrap()).sum::<f64>() / (rows.len() - 1) as f64;
    let fitness: f64 = best.lines().find_map(|l| l.trim().strip_prefix("fitness: ")).unwrap().parse().unwrap();
    assert!((mean - fitness).abs() < 1e-6, "{mean} vs {fitness}");
    let page = set.join("news/00.html");
    let text = cetune(&["extract", "--params", b.to_str().unwrap(), page.to_str().unwrap()]).ok();
    assert!(text.contains("opened again"), "{text}");
    // And it is a description itself: a new run can start from it.
    let again = beside(&set, "again");
    let a = again.to_str().unwrap();
    let args2 = ["--goldset", s, "--out", a, "--population", "4", "--max-generations", "1", "-q"];
    cetune(&[&["optimise", "--params", b.to_str().unwrap()][..], &args2[..]].concat()).ok();
    cetune(&["report", o]).ok();
    cetune(&["compare", "--goldset", s, "--run", o, "--with-defaults", "-q"]).ok();
    let cmp =
        std::fs::read_to_string(out.join(format!("compare-{}/compare.md", set.file_name().unwrap().to_string_lossy())))
            .unwrap();
    assert!(cmp.contains("vote(v="), "{cmp}");
    // A compiled-in combination's best.yaml stays values-only.
    assert!(
        !std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/results/reference/combine/best.yaml"))
            .unwrap()
            .contains("parameters:")
    );
}

#[test]
fn a_bad_combination_is_rejected_before_any_work_with_file_and_line() {
    let set = linky_set("combine-bad", 2);
    let dir = beside(&set, "params");
    let base = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/params/lqf-then-accb.yaml")).unwrap();
    let cases = [
        (base.replace("members: [lqf, accb]", "members: [lqf, nope]"), ":5: unknown member 'nope'"),
        (base.replace("members: [lqf, accb]", "members: []"), ":5: 'members' is empty"),
        (base.replace("members: [lqf, accb]", "members: [lqf, accb, lqf]"), ":5: member 'lqf' is listed twice"),
        (base.replace("name: accb.r,", "name: tccb.r,"), ":12: parameter 'tccb.r': 'tccb' is not a member"),
        (base.replace("name: lqf.t,", "name: lqf.q,"), ":10: parameter 'lqf.q': extractor 'lqf' has no parameter 'q'"),
        (
            base.replace(
                "  - {name: min_run,",
                "  - {name: v, type: float, min: 0, max: 5, default: 1}\n  - {name: min_run,",
            ),
            ":8: parameter 'v': the vote threshold must lie in [0, 2]",
        ),
        (
            base.replace(
                "  - {name: min_run,",
                "  - {name: v, type: float, min: -1, max: 2, default: 1}\n  - {name: min_run,",
            ),
            ":8: parameter 'v': the vote threshold must lie in [0, 2]",
        ),
        // A combination as a member could contain itself: members are families.
        (
            base.replace("members: [lqf, accb]", "members: [lqf, combine]"),
            ":5: member 'combine' is itself a combination",
        ),
        (base.replace("members: [lqf, accb]", "members: [lqf, lqf-then-accb]"), ":5: member 'lqf-then-accb' is itself"),
        (
            base.replace("values: {lqf.t: 0.25,", "values: {tccb.t: 0.25,"),
            ":15: known_good 'the published defaults of both'",
        ),
        (
            base.replace("name: lqf.t, type: float, min: 0.05", "name: lqf.t, type: float, min: 0.01"),
            ":10: parameter 'lqf.t': its type and range must lie within member 'lqf''s own",
        ),
    ];
    for (k, (text, want)) in cases.iter().enumerate() {
        let p = dir.join(format!("bad{k}.yaml"));
        write(&p, text);
        let o = beside(&set, &format!("out{k}"));
        let r = cetune(&[
            "optimise",
            "--params",
            p.to_str().unwrap(),
            "--goldset",
            set.to_str().unwrap(),
            "--out",
            o.to_str().unwrap(),
            "-q",
        ]);
        assert_eq!(r.code, 2, "{want}: {}", r.stderr);
        assert!(r.stderr.contains(&format!("{}{want}", p.display())), "{want}: {}", r.stderr);
        assert!(!o.exists(), "no work before the check");
    }
}

/// A combination whose `v` takes part only in a vote and whose `lqf` can be switched off.
const ACTIVE_COMBO: &str = "extractor: act-combo\n\
members: [lqf, tccb]\n\
parameters:\n\
  - {name: combinator, type: categorical, choices: [vote, serial], default: serial, tune: false}\n\
  - {name: v, type: float, min: 0, max: 2, step: 0.05, default: 1}\n\
  - {name: lqf.on, type: bool, default: true}\n\
  - {name: lqf.weight, type: float, min: 0, max: 1, step: 0.05, default: 1}\n\
  - {name: lqf.t, type: float, min: 0.05, max: 1.0, step: 0.01, default: 0.25}\n\
  - {name: tccb.r, type: int, min: 2, max: 150, default: 25}\n\
  - {name: tccb.t, type: float, min: 0.05, max: 0.99, step: 0.01, default: 0.75}\n";

/// With the combinator fixed to `serial` (not tuned), `v` and the weights take part in no individual and
/// `lqf.t` only in those with lqf on: `best.yaml` and the end-of-run line give the active
/// setting (the rest apart, under `inactive`, and the file still loads), and `importance.csv`
/// measures each gene over the individuals in which it is active, counted here independently
/// from `individuals.csv`.
#[test]
fn a_combination_s_reports_give_only_its_active_genes() {
    let set = linky_set("combine-active", 9);
    let dir = beside(&set, "params");
    let mine = dir.join("act-combo.yaml");
    write(&mine, ACTIVE_COMBO);
    let out = beside(&set, "run");
    let (s, o) = (set.to_str().unwrap(), out.to_str().unwrap());
    let line = cetune(&[
        "optimise",
        "--params",
        mine.to_str().unwrap(),
        "--goldset",
        s,
        "--out",
        o,
        "--population",
        "10",
        "--max-generations",
        "3",
        "--seed",
        "4",
    ])
    .ok();
    let first = line.lines().find(|l| l.contains("best fitness")).expect(&line);
    assert!(!first.contains("v=") && !first.contains("weight="), "{first}");
    let best = std::fs::read_to_string(out.join("best.yaml")).unwrap();
    let (values, inactive) = best.split_once("\ninactive:\n").expect(&best);
    assert!(!values.contains("\n  v:") && !values.contains("weight:"), "{best}");
    assert!(inactive.contains("\n  v:") || inactive.starts_with("  v:"), "{best}");
    assert!(inactive.contains("lqf.weight:"), "{best}");
    let lqf_on = values.contains("lqf.on: true");
    assert_eq!(values.contains("lqf.t:"), lqf_on, "{best}");
    let run = std::fs::read_to_string(out.join("run.yaml")).unwrap();
    // run.yaml's best values and the default it is paired with are the active settings too.
    let recorded: Vec<&str> = run
        .split("\nbest:")
        .nth(1)
        .and_then(|b| b.split("\n  values:\n").nth(1))
        .unwrap()
        .lines()
        .take_while(|l| l.starts_with("  - "))
        .collect();
    assert!(recorded.len() > 3 && recorded.iter().all(|l| !l.contains(" v=") && !l.contains("weight=")), "{run}");
    let baseline = run.split("\npaired:").nth(1).and_then(|p| p.split("baseline_f1:").next()).unwrap();
    assert!(
        baseline.contains("combinator=serial") && !baseline.contains(",v=") && !baseline.contains("weight="),
        "{run}"
    );
    // best.yaml still loads, as the run's own individual: evaluate reproduces its fitness.
    let ev = beside(&set, "eval");
    let b = out.join("best.yaml");
    cetune(&["evaluate", "--goldset", s, "--params", b.to_str().unwrap(), "--out", ev.to_str().unwrap(), "-q"]).ok();
    let rows = read_csv(&ev.join("per-document.csv"));
    let mean: f64 = rows[1..].iter().map(|r| r[4].parse::<f64>().unwrap()).sum::<f64>() / (rows.len() - 1) as f64;
    let fitness: f64 = best.lines().find_map(|l| l.trim().strip_prefix("fitness: ")).unwrap().parse().unwrap();
    assert!((mean - fitness).abs() < 1e-6, "{mean} vs {fitness}");
    // Importance: each gene over the distinct individuals in which it is active.
    let ind = read_csv(&out.join("individuals.csv"));
    let col = |n: &str| ind[0].iter().position(|c| c == n).unwrap();
    let distinct: Vec<&Vec<String>> = ind[1..].iter().filter(|r| r[col("cached")] == "false").collect();
    let with_lqf = distinct.iter().filter(|r| r[col("lqf.on")] == "true").count();
    assert!(with_lqf > 0 && with_lqf < distinct.len(), "lqf on in {with_lqf} of {}", distinct.len());
    let imp = read_csv(&out.join("importance.csv"));
    assert_eq!(imp[0], ["parameter", "eta2", "bins", "individuals"]);
    let of = |n: &str| imp.iter().find(|r| r[0] == n).unwrap_or_else(|| panic!("{n}: {imp:?}"));
    assert_eq!(of("lqf.t")[3], with_lqf.to_string());
    assert_eq!(of("lqf.on")[3], distinct.len().to_string());
    assert_eq!(of("tccb.r")[3], distinct.len().to_string());
    assert_eq!((of("v")[1].as_str(), of("v")[3].as_str()), ("0.000000", "0"), "v is active in no individual");
    // The explored-space plot has no panel for a gene active in no individual.
    let svg = std::fs::read_to_string(out.join("space.svg")).unwrap();
    assert!(svg.contains("lqf.t (η²") && !svg.contains(">v (η²") && !svg.contains("lqf.weight (η²"), "{svg}");
    cetune(&["report", o, "--html"]).ok();
    assert_eq!(std::fs::read_to_string(out.join("importance.csv")).unwrap(), {
        let mut t = String::new();
        for r in &imp {
            t += &r.join(",");
            t.push('\n');
        }
        t
    });
}
