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
