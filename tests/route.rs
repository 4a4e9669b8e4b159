//! Routes and the multi-record members end to end (issue 24): `extractors`, `optimise`,
//! `report`, `compare`, `evaluate`, `extract` and `annotate --effort --prefill` on a route
//! description, its `best.yaml` reused, and bad routes rejected before any work with file and
//! line.

use crate::optimise::linky_set;
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
