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
