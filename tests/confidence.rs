//! Issue 40: `cetune confidence` fits a setting's confidence model on a gold set; `extract
//! --confidence` writes every page's confidence (JSONL, index.csv) and counts low-confidence
//! pages in its summary line; `evaluate --confidence` reports how well it predicts page F1, and
//! `.ci/confidence_check.py` recomputes that report from its confidence.csv. A damaged model or
//! one fitted for another setting is one line naming the file, exit 2.

use crate::util::{cetune, read_csv, tmp, write};
use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn page(words: &str) -> String {
    format!(
        "<html><head><title>t</title></head><body><nav><a href=/a>Home</a> <a href=/b>News</a></nav><p>{words}</p></body></html>"
    )
}

#[test]
fn a_confidence_model_is_fitted_written_safely_and_read_by_extract_and_evaluate() {
    let d = tmp("confidence");
    let gs = Path::new(env!("CARGO_MANIFEST_DIR")).join("goldsets/default");
    let params = d.join("lqf.yaml");
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("params/lqf.yaml"), &params).unwrap();
    // Beside the parameter file by default.
    let r = cetune(&["confidence", "--params", s(&params), "--goldset", s(&gs), "-q"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Spearman(confidence, page F1)"), "{}", r.stdout);
    let model = d.join("lqf.confidence.json");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    assert_eq!(v["format"], "cetune confidence model 1");
    let threshold = v["threshold"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&threshold), "{threshold}");
    // Never over an existing file without --force, never over an input.
    let r = cetune(&["confidence", "--params", s(&params), "--goldset", s(&gs), "-q"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let before = std::fs::read(&params).unwrap();
    let r = cetune(&["confidence", "--params", s(&params), "--goldset", s(&gs), "--out", s(&params), "--force", "-q"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(std::fs::read(&params).unwrap(), before);
    assert_eq!(cetune(&["confidence", "-e", "lqf", "--goldset", s(&gs), "-q"]).code, 2, "no --out with -e");

    // extract: a confidence per page, in JSONL and index.csv; low ones counted.
    let crawl = d.join("crawl");
    write(&crawl.join("a.html"), page(&"A long paragraph of plain words about the river and the town. ".repeat(12)));
    write(&crawl.join("b.html"), page("Short."));
    write(&crawl.join("c.html"), "<html><body><script>x()</script></body></html>");
    let r = cetune(&["extract", "--params", s(&params), "--confidence", s(&model), s(&crawl)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<serde_json::Value> = r.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let conf: Vec<f64> = lines.iter().map(|l| l["confidence"].as_f64().unwrap()).collect();
    assert!(conf.iter().all(|c| (0.0..=1.0).contains(c)), "{conf:?}");
    let low = conf.iter().filter(|c| **c < threshold).count();
    for (l, c) in lines.iter().zip(&conf) {
        assert_eq!(l["low_confidence"].as_bool(), Some(*c < threshold), "{l}");
    }
    assert!(r.stderr.contains(&format!("; 1 empty, {low} low confidence)")), "{}", r.stderr);
    // --min-confidence 1: every page is low confidence, and still written; exit 0.
    let out = d.join("out");
    let o = format!("{}/", out.display());
    let r = cetune(&[
        "extract",
        "--params",
        s(&params),
        "--confidence",
        s(&model),
        "--min-confidence",
        "1",
        s(&crawl),
        "--out",
        &o,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("; 1 empty, 3 low confidence)"), "{}", r.stderr);
    let index = read_csv(&out.join("index.csv"));
    assert_eq!(index[0], ["id", "file", "words", "confidence", "empty", "low_confidence"]);
    for (row, c) in index[1..].iter().zip(&conf) {
        assert!((row[3].parse::<f64>().unwrap() - c).abs() < 1e-4, "{row:?} {c}");
        assert_eq!(row[5], "true");
    }

    // A damaged model, a model of another setting, --min-confidence without a model: exit 2,
    // one line naming the file.
    let bad = d.join("bad.json");
    for text in ["{", "{\"format\": \"cetune confidence model 1\"}", "not json at all"] {
        write(&bad, text);
        let r = cetune(&["extract", "--params", s(&params), "--confidence", s(&bad), s(&crawl)]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains("bad.json") && r.stdout.is_empty(), "{}", r.stderr);
    }
    let r = cetune(&["extract", "-e", "full", "--confidence", s(&model), s(&crawl)]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("lqf.confidence.json") && r.stderr.contains("fitted for"), "{}", r.stderr);
    assert_eq!(cetune(&["extract", "-e", "full", "--min-confidence", "0.5", s(&crawl)]).code, 2);
    assert_eq!(
        cetune(&["extract", "--params", s(&params), "--confidence", s(&model), "--min-confidence", "2", s(&crawl)])
            .code,
        2
    );

    // evaluate: the report, confidence.csv, and the page's confidence is extract's.
    let ev = d.join("ev");
    let r = cetune(&[
        "evaluate",
        "--params",
        s(&params),
        "--goldset",
        s(&gs),
        "--confidence",
        s(&model),
        "--out",
        s(&ev),
        "-q",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("Spearman(confidence, page F1)") && r.stdout.contains("caught among the"),
        "{}",
        r.stdout
    );
    let rows = read_csv(&ev.join("confidence.csv"));
    assert_eq!(rows[0], ["package", "id", "f1", "confidence"]);
    assert!(rows.len() > 40, "{}", rows.len());
    // The calibration: each tenth of confidence's pages and mean F1, recomputed from confidence.csv.
    let cal = read_csv(&ev.join("calibration.csv"));
    assert_eq!(cal[0], ["mean_confidence", "mean_f1", "pages"]);
    let mut tenths = vec![(0.0, 0usize); 10];
    for r in &rows[1..] {
        let (f, c) = (r[2].parse::<f64>().unwrap(), r[3].parse::<f64>().unwrap());
        let b = ((c * 10.0) as usize).min(9);
        tenths[b] = (tenths[b].0 + f, tenths[b].1 + 1);
    }
    let tenths: Vec<(f64, usize)> = tenths.into_iter().filter(|t| t.1 > 0).collect();
    assert_eq!(cal.len() - 1, tenths.len(), "{cal:?}");
    for (r, (sum, n)) in cal[1..].iter().zip(&tenths) {
        assert_eq!(r[2], n.to_string(), "{r:?}");
        assert!((r[1].parse::<f64>().unwrap() - sum / *n as f64).abs() < 1e-5, "{r:?}");
    }
    assert!(std::fs::read_to_string(ev.join("calibration.svg")).unwrap().contains("page F1"));
    assert!(std::fs::read(ev.join("calibration.png")).unwrap().starts_with(b"\x89PNG"));
    assert!(r.stdout.contains("calibration (mean F1 by tenth of confidence)"), "{}", r.stdout);
    let (package, id, c) = (&rows[1][0], &rows[1][1], rows[1][3].parse::<f64>().unwrap());
    let page = gs.join(package).join(format!("{id}.html"));
    let r = cetune(&["extract", "--params", s(&params), "--confidence", s(&model), "--format", "jsonl", s(&page)]);
    let l: serde_json::Value = serde_json::from_str(r.ok().trim()).unwrap();
    assert!((l["confidence"].as_f64().unwrap() - c).abs() < 1e-4, "{l} vs {c}");
    // The independent reading of the report agrees.
    let check = std::process::Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/confidence_check.py"))
        .arg(&ev)
        .output()
        .expect("python3 runs .ci/confidence_check.py");
    assert!(
        check.status.success(),
        "{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
}

/// A route with a fallback (`branches: [main=accb, alt=…]`, `fallback`, `below`, `confidence`):
/// the fallback's description, fitted for the primary.
fn fallback_route(d: &Path, alt: &str) -> std::path::PathBuf {
    let gs = Path::new(env!("CARGO_MANIFEST_DIR")).join("goldsets/default");
    let model = d.join("accb.confidence.json");
    let r = cetune(&["confidence", "-e", "accb", "--goldset", s(&gs), "--out", s(&model), "--force", "-q"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let params = d.join("fb.yaml");
    write(
        &params,
        format!(
            "extractor: accb-fallback\nbranches: [main=accb, alt={alt}]\nrules: 0\nparameters:\n  \
             - {{name: otherwise, type: categorical, choices: [main], default: main, tune: false}}\n  \
             - {{name: fallback, type: categorical, choices: [none, alt], default: alt}}\n  \
             - {{name: below, type: float, min: 0, max: 1, step: 0.01, default: 0.5}}\n  \
             - {{name: confidence, type: categorical, choices: [accb.confidence.json], default: accb.confidence.json, tune: false}}\n"
        ),
    );
    params
}

#[test]
fn a_fallback_with_a_cetune_setting_is_evaluated_tuned_out_of_fold_and_extracts() {
    let d = tmp("confidence-fallback");
    let gs = Path::new(env!("CARGO_MANIFEST_DIR")).join("goldsets/default");
    let params = fallback_route(&d, "readability");
    // Below 1 every page falls back: the output is readability's on every page.
    let ev = d.join("ev");
    let r =
        cetune(&["evaluate", "--params", s(&params), "--set", "below=1", "--goldset", s(&gs), "--out", s(&ev), "-q"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("fallback: 48 of 48 pages (100.0 %) fell back"), "{}", r.stdout);
    let rows = read_csv(&ev.join("fallback.csv"));
    assert_eq!(rows[0], ["package", "id", "fell_back", "f1", "f1_without"]);
    assert_eq!(rows.len(), 49);
    let rd = d.join("rd");
    assert_eq!(cetune(&["evaluate", "-e", "readability", "--goldset", s(&gs), "--out", s(&rd), "-q"]).code, 0);
    let plain = read_csv(&rd.join("per-document.csv"));
    for (f, p) in rows[1..].iter().zip(&plain[1..]) {
        assert_eq!((&f[0], &f[1], &f[3]), (&p[0], &p[1], &p[4]), "readability's F1 on every page");
    }
    // Below 0: no page falls back, and the gain is nothing.
    let r = cetune(&[
        "evaluate",
        "--params",
        s(&params),
        "--set",
        "below=0",
        "--goldset",
        s(&gs),
        "--out",
        s(&ev),
        "--force",
        "-q",
    ]);
    assert!(r.stdout.contains("fallback: 0 of 48 pages (0.0 %) fell back"), "{}", r.stdout);
    assert!(r.stdout.contains("(+0.0000)"), "{}", r.stdout);
    // The search chooses the fallback and its threshold; best.yaml extracts anywhere.
    let run = d.join("run");
    let r = cetune(&[
        "optimise",
        "--params",
        s(&params),
        "--goldset",
        s(&gs),
        "--population",
        "6",
        "--max-generations",
        "2",
        "--seed",
        "1",
        "--out",
        s(&run),
        "--quiet",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let best = std::fs::read_to_string(run.join("best.yaml")).unwrap();
    assert!(best.contains("\n  fallback: ") && best.contains("\n  below: "), "{best}");
    let crawl = d.join("crawl");
    write(&crawl.join("a.html"), page(&"A long paragraph of plain words about the river and the town. ".repeat(12)));
    let r = cetune(&["extract", "--params", s(&run.join("best.yaml")), s(&crawl)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("plain words about the river"), "{}", r.stdout);
}

#[test]
fn an_external_fallback_that_fails_on_a_page_is_an_error_row_for_that_page() {
    let d = tmp("confidence-fallback-external");
    let worker = d.join("w.py");
    write(
        &worker,
        "import json, sys\nprint(json.dumps({\"name\": \"second\", \"version\": \"0\"}), flush=True)\nfor line in sys.stdin:\n    req = json.loads(line)\n    if \"REFUSE\" in req[\"html\"]:\n        print(json.dumps({\"id\": req[\"id\"], \"error\": \"no article here\"}), flush=True)\n        continue\n    body = req[\"html\"].split(\"<p>\")[2].split(\"</p>\")[0]\n    print(json.dumps({\"id\": req[\"id\"], \"text\": body}), flush=True)\n",
    );
    write(&d.join("second.yaml"), format!("extractor: external\ncommand: python3 {}\ntimeout: 10\n", s(&worker)));
    let params = fallback_route(&d, "second.yaml");
    let set = d.join("set");
    for (i, tag) in ["", "REFUSE", ""].iter().enumerate() {
        let body = format!("{tag} the story number {i} tells of rivers and mountains and the people living there");
        write(
            &set.join(format!("p/{i}.html")),
            format!("<html><body><p>Home News</p><p>{body}</p><p>Share it</p></body></html>"),
        );
        write(&set.join(format!("p/{i}.txt")), &body);
    }
    // Every page falls back (below 1) to the worker, which refuses page 1.
    let ev = d.join("ev");
    let r =
        cetune(&["evaluate", "--params", s(&params), "--set", "below=1", "--goldset", s(&set), "--out", s(&ev), "-q"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let rows = read_csv(&ev.join("per-document.csv"));
    let row = |id: &str| rows.iter().find(|r| r[1] == id).unwrap().clone();
    assert_eq!(row("1")[7], "second 0: the worker failed on this page: no article here");
    for id in ["0", "2"] {
        assert_eq!((row(id)[4].as_str(), row(id)[7].as_str()), ("1.000000", ""), "{:?}", row(id));
    }
    assert!(r.stdout.contains("fallback: 2 of 2 pages (100.0 %) fell back"), "{}", r.stdout);
}

/// `compare --confidence`: a model judges the compared setting it was fitted for (the run's
/// best), with the report `evaluate` gives and the files named after its row; a model fitted for
/// none of them is one line naming the file, exit 2.
#[test]
fn compare_reports_how_well_a_confidence_predicts_the_setting_it_was_fitted_for() {
    let d = tmp("confidence-compare");
    let gs = Path::new(env!("CARGO_MANIFEST_DIR")).join("goldsets/default");
    let run = d.join("run");
    let args = ["optimise", "-e", "lqf", "--goldset", s(&gs), "--out", s(&run), "--seed", "1", "--population", "4"];
    let r = cetune(&[&args[..], &["--max-generations", "1", "-q"]].concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let model = d.join("best.confidence.json");
    let best = run.join("best.yaml");
    let r = cetune(&["confidence", "--params", s(&best), "--goldset", s(&gs), "--out", s(&model), "-q"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = d.join("cmp");
    let args = ["compare", "--goldset", s(&gs), "--run", s(&run), "--run-top", "1", "--out", s(&out), "-q"];
    let r = cetune(&[&args[..], &["--confidence", s(&model)]].concat());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("### The confidence of top 1"), "{}", r.stdout);
    assert!(r.stdout.contains("Spearman(confidence, page F1)"), "{}", r.stdout);
    let rows = read_csv(&out.join("confidence-1.csv"));
    assert_eq!(rows[0], ["package", "id", "f1", "confidence"]);
    assert!(rows.len() > 10, "{rows:?}");
    assert!(out.join("calibration-1.svg").is_file() && out.join("calibration-1.csv").is_file());
    assert!(std::fs::read_to_string(out.join("compare.md")).unwrap().contains("The confidence of top 1"));
    // A model of another setting (the family's defaults) judges no compared row.
    let other = d.join("lqf.confidence.json");
    let r = cetune(&["confidence", "-e", "lqf", "--set", "t=0.99", "--goldset", s(&gs), "--out", s(&other), "-q"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = cetune(&[&args[..], &["--confidence", s(&other), "--force"]].concat());
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("lqf.confidence.json") && r.stderr.contains("fitted for"), "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
}
