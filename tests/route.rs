//! Routes and the multi-record members end to end (issue 24): `extractors`, `optimise`,
//! `report`, `compare`, `evaluate`, `extract` and `annotate --effort --prefill` on a route
//! description, its `best.yaml` reused, and bad routes rejected before any work with file and
//! line.

use crate::util::linky_set;
use crate::util::{beside, cetune, read_csv, write};

/// A user's own route: listings to `records`, everything else to `lqf`.
const MY_ROUTE: &str = "extractor: my-route\n\
branches: [lists=records, lqf]\n\
rules: 1\n\
parameters:\n\
  - {name: if1.feature, type: categorical, choices: [records, link_density, code_share], default: records}\n\
known_good:\n\
  - {label: \"listings to records\", values: {if1.on: true, if1.at: 0.1, if1.then: lists, otherwise: lqf}}\n";

#[test]
fn a_route_runs_through_every_command_and_its_best_yaml_is_reusable() {
    let set = linky_set("route-set", 9);
    let dir = beside(&set, "params");
    let mine = dir.join("my-route.yaml");
    write(&mine, MY_ROUTE);
    let listing = cetune(&["extractors", "route"]).ok();
    assert!(listing.contains("if1.feature") && listing.contains("pages.records.on") && listing.contains("otherwise"));
    for fam in ["records", "sections", "structured", "code", "mixed"] {
        assert!(cetune(&["extractors", fam]).ok().contains(fam));
    }
    let out = beside(&set, "run");
    let (s, o) = (set.to_str().unwrap(), out.to_str().unwrap());
    let args = ["--goldset", s, "--out", o, "--population", "6", "--max-generations", "2", "--seed", "3", "-q"];
    cetune(&[&["optimise", "--params", mine.to_str().unwrap()][..], &args[..]].concat()).ok();
    std::fs::remove_file(&mine).unwrap();
    let b = out.join("best.yaml");
    let best = std::fs::read_to_string(&b).unwrap();
    assert!(best.contains("branches:") && best.contains("lists=records") && best.contains("structure:"), "{best}");
    let top = std::fs::read_to_string(out.join("top.md")).unwrap();
    assert!(top.contains("lqf(t=") || top.contains("if "), "{top}");
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
    // The compiled-in route and the new members work from extract, evaluate and annotate.
    for e in ["route", "records", "sections", "structured", "code", "mixed"] {
        cetune(&["extract", "-e", e, page.to_str().unwrap()]).ok();
    }
    let ev2 = beside(&set, "eval2");
    cetune(&["evaluate", "--goldset", s, "-e", "route", "--out", ev2.to_str().unwrap(), "-q"]).ok();
    let eff = cetune(&["annotate", s, "--effort", "--prefill", "route", "--prefill", "records", "-q"]).ok();
    assert!(eff.contains("| route |") && eff.contains("| records |"), "{eff}");
}

#[test]
fn a_bad_route_is_rejected_before_any_work_with_file_and_line() {
    let set = linky_set("route-bad", 2);
    let dir = beside(&set, "params");
    let cases = [
        (MY_ROUTE.replace("lists=records", "lists=nope"), ":2: branch 'lists': unknown extractor 'nope'"),
        (MY_ROUTE.replace("code_share]", "colour]"), ":5: parameter 'if1.feature': unknown feature 'colour'"),
        (MY_ROUTE.replace("lists=records", "lists=my-route"), ":2: branch 'lists': 'my-route' is this route itself"),
        (MY_ROUTE.replace("lists=records", "lists=route"), ":2: branch 'lists': 'route' is a route"),
        (MY_ROUTE.replace("if1.then: lists", "if1.then: maps"), ":7: known_good 'listings to records'"),
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
    }
}

/// A route whose `learned` branch is the supervised block model, and whose known-good individual
/// sends every page there with a small forest.
const LEARNED_ROUTE: &str = "extractor: fitted-route\n\
branches: [learned=blocktrees, lqf]\n\
rules: 1\n\
known_good:\n\
  - {label: \"every page to the block model\", values: {otherwise: learned, learned.trees: 40, learned.depth: 2, learned.min_leaf: 2, learned.t: 0.5}}\n";

#[test]
fn a_route_fits_its_block_model_branch_writes_it_beside_best_yaml_and_applies_it_everywhere() {
    let set = crate::blocks::table_set("route-fit", 10, 0);
    let dir = beside(&set, "params");
    let mine = dir.join("fitted-route.yaml");
    write(&mine, LEARNED_ROUTE);
    let out = beside(&set, "run");
    let (s, o) = (set.to_str().unwrap(), out.to_str().unwrap());
    let args = ["--goldset", s, "--out", o, "--population", "4", "--max-generations", "1", "--seed", "3", "-q"];
    cetune(&[&["optimise", "--params", mine.to_str().unwrap()][..], &args[..]].concat()).ok();
    let best = out.join("best.yaml");
    let text = std::fs::read_to_string(&best).unwrap();
    assert!(text.contains("\nmodel: best.model\n") && text.contains("blocktrees(hidden_text=all, t=0.5"), "{text}");
    let model = out.join("best.model");
    let m = std::fs::read_to_string(&model).unwrap();
    assert!(m.starts_with("cetune fitted models 1\nplace learned\ncetune blocktrees model 1\n"), "{m}");
    // Pages it has not seen: the branch's model, read from the sidecar, tells cells from divs.
    let held = crate::blocks::table_set("route-fit-held", 6, 4);
    let ev = beside(&held, "fitted");
    let (h, b, e) = (held.to_str().unwrap(), best.to_str().unwrap(), ev.to_str().unwrap());
    cetune(&["evaluate", "--goldset", h, "--params", b, "--out", e, "-q"]).ok();
    assert!(crate::blocks::mean_f1(&ev) > 0.97, "fitted {}", crate::blocks::mean_f1(&ev));
    let page = held.join("p/00.html");
    let extracted = cetune(&["extract", "--params", b, page.to_str().unwrap()]).ok();
    let gold = std::fs::read_to_string(held.join("p/00.txt")).unwrap();
    assert_eq!(extracted.split_whitespace().collect::<Vec<_>>(), gold.split_whitespace().collect::<Vec<_>>());
    cetune(&["report", o]).ok();
    let cmp = beside(&held, "compare");
    cetune(&["compare", "--goldset", h, "--run", o, "--out", cmp.to_str().unwrap(), "-q"]).ok();
    cetune(&["annotate", h, "--effort", "--params", b, "-q"]).ok();
    // A damaged model: one line naming the file and line, exit 2, from every command.
    std::fs::write(&model, m.replacen("\nbase ", "\nbase x", 1)).unwrap();
    for args in [
        vec!["extract", "--params", b, page.to_str().unwrap()],
        vec!["evaluate", "--goldset", h, "--params", b, "--out", e, "--force", "-q"],
    ] {
        let r = cetune(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.starts_with(&format!("cetune: {}:6:", model.display())), "{}", r.stderr);
        assert_eq!(r.stderr.trim().lines().count(), 1, "{}", r.stderr);
    }
}

#[test]
fn a_branch_names_a_settings_file_and_the_run_loads_without_it() {
    let set = linky_set("route-file", 9);
    let dir = beside(&set, "params");
    write(&dir.join("tuned/lqf-best.yaml"), "extractor: lqf\nvalues:\n  t: 0.4\n  min_chars: 3\n");
    let mine = dir.join("file-route.yaml");
    write(&mine, "extractor: file-route\nbranches: [tuned=tuned/lqf-best.yaml, records]\nrules: 1\nparameters: []\n");
    let out = beside(&set, "run");
    let (s, o) = (set.to_str().unwrap(), out.to_str().unwrap());
    let args = ["--goldset", s, "--out", o, "--population", "4", "--max-generations", "1", "--seed", "3", "-q"];
    cetune(&[&["optimise", "--params", mine.to_str().unwrap()][..], &args[..]].concat()).ok();
    // The branch's values are the file's, fixed; the run's description has it written out.
    let best = std::fs::read_to_string(out.join("best.yaml")).unwrap();
    assert!(best.contains("tuned=lqf") && best.contains("tuned.t: 0.4"), "{best}");
    let run = std::fs::read_to_string(out.join("run.yaml")).unwrap();
    assert!(!run.contains("lqf-best.yaml") && run.contains("tuned=lqf"), "{run}");
    std::fs::remove_dir_all(dir.join("tuned")).unwrap();
    cetune(&["report", o]).ok();
    let page = set.join("news/00.html");
    cetune(&["extract", "--params", out.join("best.yaml").to_str().unwrap(), page.to_str().unwrap()]).ok();
}

#[test]
fn a_bad_settings_file_branch_is_rejected_with_the_route_file_and_line() {
    let set = linky_set("route-file-bad", 2);
    let dir = beside(&set, "params");
    write(&dir.join("a-route.yaml"), MY_ROUTE.replace("my-route", "other-route"));
    write(&dir.join("fitted.yaml"), "extractor: blocktrees\nvalues:\n  t: 0.4\nmodel: best.model\n");
    write(&dir.join("unknown.yaml"), "extractor: nope\n");
    write(&dir.join("self.yaml"), "extractor: my-route\nbranches: [lqf]\n");
    let route = |entry: &str| MY_ROUTE.replace("lists=records", entry);
    let cases = [
        (route("lists=missing.yaml"), ":2: branch 'lists': 'missing.yaml': "),
        (route("lists=a-route.yaml"), ":2: branch 'lists': 'a-route.yaml': describes the route 'other-route'"),
        (route("lists=self.yaml"), ":2: branch 'lists': 'self.yaml': describes 'my-route', this route itself"),
        (route("lists=fitted.yaml"), ":2: branch 'lists': 'fitted.yaml': names a fitted model file"),
        (route("lists=unknown.yaml"), ":2: branch 'lists': 'unknown.yaml': "),
    ];
    for (k, (text, want)) in cases.iter().enumerate() {
        let p = dir.join(format!("bad{k}.yaml"));
        write(&p, text);
        for args in [
            vec!["optimise", "--params", p.to_str().unwrap(), "--goldset", set.to_str().unwrap(), "-q"],
            vec!["extract", "--params", p.to_str().unwrap(), "-"],
        ] {
            let r = cetune(&args);
            assert_eq!(r.code, 2, "{want}: {}", r.stderr);
            assert!(r.stderr.contains(&format!("{}{want}", p.display())), "{want}: {}", r.stderr);
            assert_eq!(r.stderr.trim().lines().count(), 1, "{}", r.stderr);
        }
    }
    // The missing file and the unknown family name what is wrong inside.
    let e = cetune(&["extract", "--params", dir.join("bad0.yaml").to_str().unwrap(), "-"]).stderr;
    assert!(e.contains("missing.yaml") && e.contains("not"), "{e}");
    let e = cetune(&["extract", "--params", dir.join("bad4.yaml").to_str().unwrap(), "-"]).stderr;
    assert!(e.contains("unknown.yaml:1") && e.contains("nope"), "{e}");
}
