//! End-to-end CLI tests on small gold sets written by the tests and on the embedded default set.

use crate::util::{beside, cetune, evaluate, read_csv, tmp, write};

fn small_set(name: &str) -> std::path::PathBuf {
    let root = tmp(name);
    let nav = "<ul><li><a href=/a>Home</a></li><li><a href=/b>World</a></li><li><a href=/c>Sport</a></li></ul>";
    for (pkg, id, body) in [
        (
            "news",
            "1",
            "The city council approved the new budget on Monday after a long and heated debate about schools.",
        ),
        (
            "news",
            "2",
            "Heavy rain flooded several streets in the old town, and the fire brigade pumped out dozens of cellars.",
        ),
        ("blog", "7", "I finally repaired the old bicycle I found in the garage, and it rides better than my new one."),
    ] {
        write(
            &root.join(format!("{pkg}/{id}.html")),
            format!(
                "<html><head><title>t</title></head><body>{nav}<p>{body}</p><footer><a href=/i>Imprint</a></footer></body></html>"
            ),
        );
        write(&root.join(format!("{pkg}/{id}.txt")), body);
    }
    root
}

#[test]
fn evaluate_writes_the_three_reports_with_the_named_columns() {
    let set = small_set("eval");
    let out = beside(&set, "out");
    let stdout = evaluate(&set, "lqf", &out, &[]);
    assert!(stdout.contains("macro F1"), "{stdout}");
    let per_doc = read_csv(&out.join("per-document.csv"));
    assert_eq!(per_doc[0], ["package", "id", "precision", "recall", "f1", "extract_words", "gold_words", "error"]);
    assert_eq!(per_doc.len(), 4);
    // LQF drops the navigation and the footer: every page is extracted exactly.
    for row in &per_doc[1..] {
        assert_eq!(row[4], "1.000000", "{row:?}");
    }
    let per_pkg = read_csv(&out.join("per-package.csv"));
    assert_eq!(per_pkg[0], ["package", "documents", "precision", "recall", "f1"]);
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(md.contains("| setting | blog (1) | news (2) |"), "{md}");
}

#[test]
fn full_is_the_floor_and_lqf_beats_it() {
    let set = small_set("floor");
    let full = evaluate(&set, "full", &beside(&set, "f"), &[]);
    assert!(full.contains("| full | 0.905 | 0.897 | 0.820 | 1.000 | **0.901** |"), "{full}");
    let lqf = evaluate(&set, "lqf", &beside(&set, "l"), &[]);
    assert!(lqf.contains("**1.000**"), "{lqf}");
}

#[test]
fn extract_prints_main_text_and_dump_matches_evaluate() {
    let set = small_set("dump");
    let page = set.join("news/1.html");
    let text = cetune(&["extract", "-e", "lqf", page.to_str().unwrap()]).ok();
    assert_eq!(
        text.trim(),
        "The city council approved the new budget on Monday after a long and heated debate about schools."
    );
    let dump = beside(&set, "dump");
    cetune(&["extract", "-e", "full", "--goldset", set.to_str().unwrap(), "--dump", dump.to_str().unwrap(), "-q"]).ok();
    let dumped = std::fs::read_to_string(dump.join("news/1.txt")).unwrap();
    assert!(dumped.starts_with("Home\nWorld\nSport\nThe city council"), "{dumped}");
    // The dump records each page's language and the jusText stop list used for it.
    let langs = std::fs::read_to_string(dump.join("languages.csv")).unwrap();
    let mut lines = langs.lines();
    assert_eq!(lines.next(), Some("package,id,lang,justext_stoplist,decoding"));
    assert!(lines.clone().count() >= 2, "{langs}");
    assert!(lines.all(|l| l.ends_with(",English,utf-8")), "{langs}");
}

#[test]
fn extract_full_renders_words_as_a_browser_does() {
    // Issue 21: every inline tag boundary used to insert a space ("( PDF )", "bold word").
    let dir = tmp("inline-words");
    let page = dir.join("page.html");
    std::fs::write(&page, "<p>Download (<a href=x>PDF</a>), <b>bold</b>word, <i>it</i>alic.</p>").unwrap();
    let text = cetune(&["extract", "--extractor", "full", page.to_str().unwrap()]).ok();
    assert_eq!(text.trim(), "Download (PDF), boldword, italic.");
}

#[test]
fn a_page_declaring_utf8_with_a_stray_byte_extracts_without_mojibake() {
    // Issue 21: one windows-1252 apostrophe (0x92) made the whole page windows-1252.
    let dir = tmp("stray-byte");
    let page = dir.join("page.html");
    let mut bytes = "<html><head><meta charset=\"utf-8\"></head><body><p>“Quoted” — café, it".as_bytes().to_vec();
    bytes.push(0x92);
    bytes.extend(b"s done.</p></body></html>");
    std::fs::write(&page, bytes).unwrap();
    let text = cetune(&["extract", "-e", "full", page.to_str().unwrap()]).ok();
    assert_eq!(text.trim(), "“Quoted” — café, it\u{FFFD}s done.");
}

#[test]
fn set_overrides_are_range_checked_and_unknown_names_rejected() {
    let set = small_set("badset");
    let r = cetune(&["evaluate", "--goldset", set.to_str().unwrap(), "-e", "lqf", "--set", "t=1.5"]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.trim(), "cetune: parameter 't' of extractor 'lqf' must lie in [0.05, 1], got 1.5");
    let r = cetune(&["evaluate", "--goldset", set.to_str().unwrap(), "-e", "lqf", "--set", "tt=0.3"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("extractor 'lqf' has no parameter 'tt' (known: t, min_chars, href_only)"),
        "{}",
        r.stderr
    );
    let r = cetune(&["evaluate", "--goldset", set.to_str().unwrap(), "-e", "nope"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("unknown extractor 'nope'"), "{}", r.stderr);
}

#[test]
fn readme_states_the_decode_order_the_code_follows() {
    // Issue 10: the README put the declared charset before UTF-16 sniffing; the code sniffs first.
    let readme = crate::util::manual();
    let at = readme.find("Pages are decoded in this order:").expect("decode order sentence");
    let text = readme[at..].replace('\n', " ");
    let steps = [
        "byte-order mark",
        "UTF-8 when",
        "UTF-16 recognised",
        "mostly valid UTF-8",
        "the declared charset",
        "windows-1252 for",
        "chardetng",
    ];
    let pos: Vec<usize> = steps.iter().map(|s| text.find(s).unwrap_or(usize::MAX)).collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{steps:?} at {pos:?}");
    // And the code: a page declaring a single-byte charset whose bytes are UTF-16 is UTF-16.
    use cetune::goldset::decode::{Decoding, decode_html};
    let mut page: Vec<u8> = b"<meta charset=iso-8859-1 >".to_vec(); // even length: code units stay aligned
    page.extend("<p>Grüße aus Köln, schöne Grüße</p>".encode_utf16().flat_map(u16::to_le_bytes));
    let (text, how) = decode_html(&page);
    assert_eq!(how, Decoding::Utf16Sniffed);
    assert!(text.contains("Grüße aus Köln"), "{text}");
}

#[test]
fn help_describes_each_command_with_its_own_line() {
    // Issue 10: `extractors` was described with the text of `goldset`.
    let help = cetune(&["--help"]).ok();
    let line = |cmd: &str| help.lines().find(|l| l.trim_start().starts_with(cmd)).unwrap_or_default().to_string();
    assert!(line("goldset").contains("Import, sample and describe gold sets"), "{help}");
    assert!(line("extractors").contains("List every extractor family"), "{help}");
    let cmds = ["goldset", "extractors", "extract ", "evaluate", "optimise", "compare", "report"];
    let texts: std::collections::HashSet<String> =
        cmds.iter().map(|c| line(c).trim_start().trim_start_matches(c.trim()).trim().to_string()).collect();
    assert_eq!(texts.len(), cmds.len(), "{help}");
}

#[test]
fn a_missing_goldset_folder_is_the_same_error_for_every_command() {
    // Issue 10: `goldset import` exited 1 and `evaluate` 2 for the same missing folder.
    let out = tmp("missing-gs");
    let out = out.join("o");
    let out = out.to_str().unwrap();
    let gs = "/nonexistent/gold";
    for args in [
        vec!["goldset", "import", "--format", "l3s", gs, "--out", out],
        vec!["goldset", "import", "--format", "wcxb", gs, "--out", out],
        vec!["goldset", "sample", gs, "--n", "3", "--seed", "1", "--out", out],
        vec!["goldset", "stats", gs],
        vec!["evaluate", "--goldset", gs, "-e", "full"],
        vec!["optimise", "--params", "params/lqf.yaml", "--goldset", gs, "--out", out],
    ] {
        let r = cetune(&args);
        assert_eq!(
            (r.code, r.stderr.trim()),
            (2, "cetune: /nonexistent/gold: gold set not found: not a folder"),
            "{args:?}"
        );
    }
}

#[test]
fn missing_goldset_and_unwritable_output_are_one_line_errors() {
    let r = cetune(&["evaluate", "--goldset", "/nonexistent/gold", "-e", "full"]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.trim(), "cetune: /nonexistent/gold: gold set not found: not a folder");
    let set = small_set("unwritable");
    let blocker = beside(&set, "file");
    write(&blocker, "x");
    let r = cetune(&[
        "evaluate",
        "--goldset",
        set.to_str().unwrap(),
        "-e",
        "full",
        "--out",
        blocker.join("sub").to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("cannot create output folder"), "{}", r.stderr);
}

#[test]
fn params_file_names_the_extractor() {
    let set = small_set("paramsfile");
    let p = set.join("best.yaml");
    write(&p, "extractor: lqf\nvalues: {t: 0.3}\n");
    let out = cetune(&[
        "evaluate",
        "--goldset",
        set.to_str().unwrap(),
        "--params",
        p.to_str().unwrap(),
        "--out",
        beside(&set, "o").to_str().unwrap(),
        "-q",
    ])
    .ok();
    assert!(out.contains("lqf t=0.3,min_chars=0"), "{out}");
}

#[test]
fn extractors_lists_every_family_from_the_yaml() {
    let out = cetune(&["extractors"]).ok();
    for f in cetune::extract::FAMILIES {
        assert!(out.contains(&format!("{}:", f.name)), "{} missing", f.name);
    }
    assert!(out.contains("known good: r=40,t=0.75"), "{out}");
}

/// The manual's family table (docs/families.md) lists exactly the families of the family table,
/// in its order.
#[test]
fn the_manual_family_table_matches_the_family_table() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/families.md")).unwrap();
    let section = readme.split("# Extractor families").nth(1).unwrap();
    let listed: Vec<&str> = section
        .lines()
        .skip_while(|l| !l.starts_with("| name |"))
        .skip(2)
        .take_while(|l| l.starts_with("| `"))
        .map(|l| l.trim_start_matches("| `").split('`').next().unwrap())
        .collect();
    assert_eq!(listed, cetune::extract::names());
}

/// The tokens of the benchmarks' scorers, for checking cetune's figures independently.
fn words(text: &str) -> Vec<String> {
    cetune::eval::tokens(text, Default::default())
}

#[test]
fn evaluate_by_bow_and_shingle4_agrees_with_the_reference_definitions_on_the_dumped_text() {
    use cetune::eval::measure::{bow, shingle4};
    let set = small_set("measures");
    let dump = beside(&set, "dump");
    cetune(&["extract", "-e", "full", "--goldset", set.to_str().unwrap(), "--dump", dump.to_str().unwrap(), "-q"]).ok();
    for (m, reference) in [
        ("bow", &(|e: &str, g: &str| bow(&words(e), &words(g))) as &dyn Fn(&str, &str) -> cetune::eval::Prf),
        ("shingle4", &|e: &str, g: &str| shingle4(e, g)),
    ] {
        let out = beside(&set, m);
        let stdout = evaluate(&set, "full", &out, &["--measure", m]);
        assert!(stdout.contains(&format!("measure {m}")), "{stdout}");
        let rows = read_csv(&out.join("per-document.csv"));
        assert_eq!(rows.len(), 4);
        for row in &rows[1..] {
            let extract = std::fs::read_to_string(dump.join(format!("{}/{}.txt", row[0], row[1]))).unwrap();
            let gold = std::fs::read_to_string(set.join(format!("{}/{}.txt", row[0], row[1]))).unwrap();
            let want = reference(&extract, &gold);
            let got: Vec<f64> = row[2..5].iter().map(|x| x.parse().unwrap()).collect();
            assert!(
                (got[0] - want.precision).abs() < 1e-6 && (got[1] - want.recall).abs() < 1e-6,
                "{m} {row:?} {want:?}"
            );
            assert!((got[2] - want.f1).abs() < 1e-6, "{m} {row:?}");
        }
    }
    let bad = cetune(&["evaluate", "--goldset", set.to_str().unwrap(), "-e", "full", "--measure", "rouge"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("unknown measure 'rouge' (expected lcs, bow or shingle4)"), "{}", bad.stderr);
}

#[test]
fn extract_writes_a_gold_set_as_ids_json() {
    let set = small_set("idsjson");
    let dump = beside(&set, "json");
    let args = ["extract", "-e", "lqf", "--goldset", set.to_str().unwrap(), "--dump", dump.to_str().unwrap()];
    cetune(&[&args[..], &["--format", "ids-json", "-q"]].concat()).ok();
    let json: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&std::fs::read_to_string(dump.join("extract.json")).unwrap()).unwrap();
    assert_eq!(json.keys().collect::<Vec<_>>(), ["1", "2", "7"]);
    assert_eq!(
        json["7"].trim(),
        "I finally repaired the old bicycle I found in the garage, and it rides better than my new one."
    );
    assert!(!dump.join("news").exists(), "no text files in ids-json format");
}

#[test]
fn a_reader_that_closes_the_pipe_early_ends_the_listing_quietly() {
    // `cetune extractors | head -1`: the reader is gone before cetune writes, so every write
    // fails with EPIPE; that must not be a panic message.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cetune"))
        .arg("extractors")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}
