//! `score` (another tool's output against a gold set) and `compare`'s paired statistics and
//! long-format files, end to end.

use crate::util::{cetune, evaluate, read_csv, tmp};
use std::path::{Path, PathBuf};

fn default_set() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("goldsets/default")
}

/// `score` on `extract --dump`'s output reproduces `evaluate`'s per-document and per-package
/// files byte for byte, by every measure, from the folder dump and from the ids-json dump.
pub fn score_equals_evaluate(set: &Path, family: &str, root: &Path) {
    let s = set.to_str().unwrap();
    let dump = root.join("dump");
    let json = root.join("json");
    cetune(&["extract", "-e", family, "--goldset", s, "--dump", dump.to_str().unwrap(), "-q"]).ok();
    cetune(&["extract", "-e", family, "--goldset", s, "--dump", json.to_str().unwrap(), "--format", "ids-json", "-q"])
        .ok();
    for measure in ["lcs", "bow", "shingle4"] {
        let ev = root.join(format!("ev-{measure}"));
        evaluate(set, family, &ev, &["--measure", measure]);
        for (what, output) in [("dump", dump.clone()), ("json", json.join("extract.json"))] {
            let sc = root.join(format!("sc-{measure}-{what}"));
            cetune(&[
                "score",
                "--goldset",
                s,
                output.to_str().unwrap(),
                "--measure",
                measure,
                "--out",
                sc.to_str().unwrap(),
            ])
            .ok();
            for f in ["per-document.csv", "per-package.csv"] {
                assert_eq!(
                    std::fs::read_to_string(ev.join(f)).unwrap(),
                    std::fs::read_to_string(sc.join(f)).unwrap(),
                    "{family} {measure} {what} {f}"
                );
            }
        }
    }
}

#[test]
fn score_of_a_dump_is_identical_to_evaluate() {
    score_equals_evaluate(&default_set(), "accb", &tmp("score-eq"));
}

#[test]
fn score_names_missing_and_extra_ids_and_scores_missing_as_zero() {
    let root = tmp("score-missing");
    let s = default_set();
    let dump = root.join("dump");
    cetune(&["extract", "-e", "full", "--goldset", s.to_str().unwrap(), "--dump", dump.to_str().unwrap(), "-q"]).ok();
    // One document's output gone, one stray file, and a flat layout for another (id only).
    let gone =
        dump.join("news").join(std::fs::read_dir(dump.join("news")).unwrap().next().unwrap().unwrap().file_name());
    let gone_id = gone.file_stem().unwrap().to_string_lossy().into_owned();
    std::fs::remove_file(&gone).unwrap();
    std::fs::write(dump.join("stray.txt"), "nothing").unwrap();
    let out = root.join("sc");
    let r =
        cetune(&["score", "--goldset", s.to_str().unwrap(), dump.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains(&format!("1 documents have no output (scored 0): news/{gone_id}")), "{}", r.stderr);
    assert!(r.stderr.contains("1 outputs match no document of the gold set: stray"), "{}", r.stderr);
    let rows = read_csv(&out.join("per-document.csv"));
    let row = rows.iter().find(|r| r[0] == "news" && r[1] == gone_id).expect("the missing document has a row");
    assert_eq!((row[4].as_str(), row[7].as_str()), ("0.000000", "no output for this document"));
    // Nothing matching at all is a failed run; a malformed ids-json file is a one-line error.
    let none = root.join("none");
    std::fs::create_dir_all(&none).unwrap();
    let r = cetune(&[
        "score",
        "--goldset",
        s.to_str().unwrap(),
        none.to_str().unwrap(),
        "--out",
        root.join("o2").to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let bad = root.join("bad.json");
    std::fs::write(&bad, "{\"a\": \"x\",\n \"b\": 3,").unwrap();
    let r = cetune(&[
        "score",
        "--goldset",
        s.to_str().unwrap(),
        bad.to_str().unwrap(),
        "--out",
        root.join("o3").to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.starts_with(&format!("cetune: {}:2: not an ids-json file", bad.display())), "{}", r.stderr);
}

#[test]
fn compare_pairs_every_row_with_the_baseline_and_writes_long_files() {
    let root = tmp("cmp-paired");
    let s = default_set();
    let gs = s.to_str().unwrap();
    let dump = root.join("dump");
    cetune(&["extract", "-e", "accb", "--goldset", gs, "--dump", dump.to_str().unwrap(), "-q"]).ok();
    let run = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/reference/lqf");
    let out = root.join("cmp");
    let output = format!("accb-dump={}", dump.display());
    let md = cetune(&[
        "compare",
        "--goldset",
        gs,
        "--run",
        run.to_str().unwrap(),
        "--top",
        "1",
        "--output",
        &output,
        "--out",
        out.to_str().unwrap(),
        "-q",
    ])
    .ok();
    assert!(md.contains("## Paired against default: lqf t=0.25"), "{md}");
    assert!(md.contains("| accb-dump | "), "{md}");
    // Long files: a row per setting and package (plus the two averages), a row per setting and document.
    let long = read_csv(&out.join("compare.csv"));
    assert_eq!(long[0], ["setting", "package", "documents", "precision", "recall", "f1", "f1_ci95", "errors"]);
    assert_eq!(long.len() - 1, 3 * (5 + 2), "3 rows (top 1, the dump, the default) x (5 packages + macro + micro)");
    let per_doc = read_csv(&out.join("per-document.csv"));
    assert_eq!(per_doc[0], ["setting", "package", "id", "precision", "recall", "f1", "error"]);
    assert_eq!(per_doc.len() - 1, 3 * 48);
    // The paired row of the dump equals a paired test recomputed from per-document.csv.
    let f1 =
        |who: &str| -> Vec<f64> { per_doc.iter().filter(|r| r[0] == who).map(|r| r[5].parse().unwrap()).collect() };
    let base_name = per_doc.iter().map(|r| &r[0]).find(|n| n.starts_with("default: ")).unwrap().clone();
    let expect = cetune::eval::paired::paired(&f1("accb-dump"), &f1(&base_name), 2000, 1);
    let paired = read_csv(&out.join("paired.csv"));
    let row = paired.iter().find(|r| r[0] == "accb-dump").unwrap();
    assert_eq!(row[1], base_name);
    assert!((row[4].parse::<f64>().unwrap() - expect.mean).abs() < 1e-6, "{row:?} {expect:?}");
    assert!((row[5].parse::<f64>().unwrap() - expect.ci.unwrap().0).abs() < 1e-6, "{row:?} {expect:?}");
    assert_eq!(row[14], expect.verdict());
    // The evaluate of accb's default equals the dump's row (the same extracts).
    let ev = root.join("ev");
    evaluate(&s, "accb", &ev, &[]);
    let ev_f1: Vec<f64> = read_csv(&ev.join("per-document.csv"))[1..].iter().map(|r| r[4].parse().unwrap()).collect();
    assert_eq!(ev_f1, f1("accb-dump"));
    // Another baseline: the dump by name; and a parameter file.
    let out2 = root.join("cmp2");
    let md = cetune(&[
        "compare",
        "--goldset",
        gs,
        "--run",
        run.to_str().unwrap(),
        "--top",
        "1",
        "--output",
        &output,
        "--baseline",
        "accb-dump",
        "--out",
        out2.to_str().unwrap(),
        "-q",
    ])
    .ok();
    assert!(md.contains("## Paired against accb-dump"), "{md}");
    let file = run.join("best.yaml");
    let md = cetune(&[
        "compare",
        "--goldset",
        gs,
        "--output",
        &output,
        "--baseline",
        file.to_str().unwrap(),
        "--out",
        root.join("cmp3").to_str().unwrap(),
        "-q",
    ])
    .ok();
    assert!(md.contains("## Paired against ") && md.contains("best.yaml: lqf"), "{md}");
    let bad =
        cetune(&["compare", "--goldset", gs, "--output", "nameless", "--out", root.join("cmp4").to_str().unwrap()]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("--output nameless: expected NAME=PATH"), "{}", bad.stderr);
}

#[test]
fn optimise_resume_with_a_larger_limit_extends_a_finished_run() {
    let root = tmp("extend-cli");
    let s = default_set();
    let run = |out: &Path, n: &str, worst: bool| {
        let worst: &[&str] = if worst { &["--plot-worst"] } else { &[] };
        cetune(
            &[
                &[
                    "optimise",
                    "-e",
                    "lqf",
                    "--goldset",
                    s.to_str().unwrap(),
                    "--population",
                    "4",
                    "--max-generations",
                    n,
                    "--threads",
                    "1",
                    "--out",
                    out.to_str().unwrap(),
                    "-q",
                ][..],
                worst,
            ]
            .concat(),
        )
        .ok()
    };
    run(&root.join("long"), "4", true);
    run(&root.join("short"), "2", false);
    let short = root.join("short");
    let again = cetune(&["optimise", "--resume", short.to_str().unwrap(), "-q"]);
    assert_eq!(again.code, 2, "{}", again.stderr);
    assert!(again.stderr.contains("to extend it give a larger --max-generations"), "{}", again.stderr);
    let out = cetune(&["optimise", "--resume", short.to_str().unwrap(), "--max-generations", "4", "-q"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("max generations 2 -> 4"), "{}", out.stderr);
    // Every column but the last (milliseconds) of every individual.
    let rows = |d: &Path| -> Vec<String> {
        std::fs::read_to_string(d.join("individuals.csv"))
            .unwrap()
            .lines()
            .map(|l| l.rsplit_once(',').unwrap().0.to_string())
            .collect()
    };
    assert_eq!(rows(&short), rows(&root.join("long")));
    let record = std::fs::read_to_string(short.join("run.yaml")).unwrap();
    assert!(record.contains("extended:") && record.contains("max_generations: 4"), "{record}");
    // The history's worst line: drawn on request only (optimise --plot-worst, kept in run.yaml;
    // report --plot-worst).
    let history = |d: &Path| std::fs::read_to_string(d.join("history.svg")).unwrap();
    assert!(history(&root.join("long")).contains("\nworst\n"), "{}", history(&root.join("long")));
    assert!(std::fs::read_to_string(root.join("long/run.yaml")).unwrap().contains("plot_worst: true"));
    assert!(!history(&short).contains("\nworst\n") && !record.contains("plot_worst"), "{record}");
    cetune(&["report", short.to_str().unwrap(), "--plot-worst"]).ok();
    assert!(history(&short).contains("\nworst\n"));
}

#[test]
fn small_items_params_exit_code_txt_headers_and_reproducible_jsonl() {
    // A missing --params file is a configuration error: exit 2, one line.
    let r = cetune(&["evaluate", "--params", "/nonexistent/p.yaml", "--goldset", default_set().to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.stderr.trim(), "cetune: /nonexistent/p.yaml: parameter file not found");
    // Several pages as txt: each page named before its text.
    let root = tmp("small-items");
    let (a, b) = (root.join("a.html"), root.join("b.html"));
    std::fs::write(&a, "<html><head><link rel=canonical href=\"https://example.org/a\"></head><body><p>First page text here, long enough to keep.</p></body></html>").unwrap();
    std::fs::write(&b, "<html><body><p>Second page text here, long enough to keep.</p></body></html>").unwrap();
    let out =
        cetune(&["extract", "-e", "full", "--format", "txt", a.to_str().unwrap(), b.to_str().unwrap(), "-q"]).ok();
    assert!(out.starts_with(&format!("==> {} <==\n", a.display())), "{out}");
    assert!(out.contains(&format!("\n==> {} <==\n", b.display())) && out.contains("Second page"), "{out}");
    // JSONL: no timing, so two runs are byte for byte the same.
    let one = cetune(&["extract", "-e", "full", a.to_str().unwrap(), b.to_str().unwrap(), "-q"]).ok();
    let two = cetune(&["extract", "-e", "full", a.to_str().unwrap(), b.to_str().unwrap(), "-q"]).ok();
    assert_eq!(one, two);
    let first: serde_json::Value = serde_json::from_str(one.lines().next().unwrap()).unwrap();
    assert!(first.get("ms").is_none(), "{first}");
    // A page in a folder has the URL it declares (its canonical link), else none.
    assert_eq!(first["url"], "https://example.org/a", "{first}");
    let second: serde_json::Value = serde_json::from_str(one.lines().nth(1).unwrap()).unwrap();
    assert!(second["url"].is_null(), "{second}");
}

/// The README's block of commands that need no data of one's own runs as written from a folder
/// outside the repository, as after `cargo install --path .` (`--goldset default` and no
/// `--goldset` both name the embedded set, wherever the command runs).
#[test]
fn the_readme_runnable_commands_run_as_written() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let block = readme
        .split("<!-- readme-runnable -->")
        .nth(1)
        .and_then(|b| b.split("<!-- /readme-runnable -->").next())
        .expect("the README marks its runnable commands");
    let root = tmp("readme");
    assert!(!root.join("goldsets").exists() && !root.starts_with(env!("CARGO_MANIFEST_DIR")));
    let mut ran = 0;
    for line in block.lines().filter(|l| l.starts_with("cetune ")) {
        let args: Vec<&str> = line.split_whitespace().skip(1).collect();
        let r = crate::util::cetune_in(&root, &args);
        assert_eq!(r.code, 0, "{line}\n{}", r.stderr);
        ran += 1;
    }
    assert!(ran >= 5, "{ran} commands");
}
