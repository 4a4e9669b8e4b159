//! Hostile pages (generated here, not checked in): every extractor returns a result or a clear
//! per-document error, in bounded time, and evaluation reports failures and goes on.

use crate::util::{read_csv, tmp, write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn utf16(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
    let mut out = Vec::new();
    if bom {
        out.extend(if big_endian { [0xFE, 0xFF] } else { [0xFF, 0xFE] });
    }
    for u in text.encode_utf16() {
        out.extend(if big_endian { u.to_be_bytes() } else { u.to_le_bytes() });
    }
    out
}

/// Writes the hostile corpus; `big` adds the 50 MB page.
pub fn hostile_set(name: &str, big: bool) -> PathBuf {
    let root = tmp(name);
    let article =
        "<p>The harbour authority confirmed on Tuesday that the old lighthouse will be restored next spring.</p>";
    let gold = "The harbour authority confirmed on Tuesday that the old lighthouse will be restored next spring.";
    let mut pages: Vec<(&str, Vec<u8>)> = vec![
        (
            "truncated",
            format!("<html><body><div><ul><li><a href=/a>Home</a>{article}<p>Unfinished <b>bold <a href=").into_bytes(),
        ),
        ("nested", ("<div>".repeat(100_000) + article + &"</div>".repeat(100_000)).into_bytes()),
        ("nested-inline", ("<span><b>".repeat(50_000) + article).into_bytes()),
        ("garbage", (0..200_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect()),
        ("invalid-utf8", [b"<html><body><p>caf\xe9 \xff\xfe harbour</p>".as_slice(), article.as_bytes()].concat()),
        ("utf16-bom", utf16(&format!("<html><body>{article}</body></html>"), false, true)),
        ("utf16be-nobom", utf16(&format!("<html><body>{article}</body></html>"), true, false)),
        ("utf16le-nobom", utf16(&format!("<html><body>{article}</body></html>"), false, false)),
        (
            "wrong-charset",
            [b"<html><head><meta charset=\"shift_jis\"></head><body><p>Gr\xfc\xdfe</p>".as_slice(), article.as_bytes()]
                .concat(),
        ),
        ("empty", Vec::new()),
        ("no-body", b"<html><head><title>Only a title</title><meta name=x></head></html>".to_vec()),
        ("only-text", gold.as_bytes().to_vec()),
        ("nul-bytes", [b"<p>a\0b</p>".as_slice(), article.as_bytes()].concat()),
        (
            "many-attrs",
            format!(
                "<div {}>{article}</div>",
                (0..20_000).map(|i| format!("a{i}='x>y'")).collect::<Vec<_>>().join(" ")
            )
            .into_bytes(),
        ),
        ("unclosed-comment", format!("{article}<!-- never closed <p>hidden</p>").into_bytes()),
        ("unclosed-script", format!("{article}<script>var x = '<p>'; while(1){{}}").into_bytes()),
    ];
    if big {
        let para = format!("<div class=c><a href=/x>link</a> {article}</div>\n");
        let mut page = String::from("<html><body>");
        while page.len() < 50_000_000 {
            page.push_str(&para);
        }
        pages.push(("big-50mb", page.into_bytes()));
    }
    for (id, bytes) in pages {
        write(&root.join(format!("hostile/{id}.html")), bytes);
        write(&root.join(format!("hostile/{id}.txt")), gold);
    }
    // A gzip page that is not gzip after its magic bytes: an unreadable page, an error row.
    write(&root.join("hostile/broken-gzip.html.gz"), [0x1f, 0x8b, 0x08, 0x00, 1, 2, 3]);
    write(&root.join("hostile/broken-gzip.txt"), gold);
    root
}

/// Runs `evaluate` for every extractor on the set, each within `limit`.
pub fn evaluate_all(set: &Path, limit: Duration) {
    for ex in cetune::extract::names() {
        let out = crate::util::beside(set, &format!("eval-{ex}"));
        let started = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_cetune"))
            .args(["evaluate", "--goldset", set.to_str().unwrap(), "-e", ex, "--out", out.to_str().unwrap(), "-q"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                let err = child.wait_with_output().unwrap().stderr;
                assert!(status.success(), "{ex}: {}", String::from_utf8_lossy(&err));
                break;
            }
            if started.elapsed() > limit {
                let _ = child.kill();
                panic!("{ex} did not finish within {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let rows = read_csv(&out.join("per-document.csv"));
        let n_pages = std::fs::read_dir(set.join("hostile"))
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "txt"))
            .count();
        assert_eq!(rows.len(), n_pages + 1, "{ex}: one row per document");
        let gz = rows.iter().find(|r| r[1] == "broken-gzip").unwrap();
        assert!(gz[7].contains("broken gzip data"), "{ex}: {gz:?}");
        let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
        assert!(summary.contains("errors: 1"), "{ex}: {summary}");
        for r in &rows[1..] {
            if r[1] != "broken-gzip" {
                assert!(r[7].is_empty(), "{ex}: {r:?}");
            }
        }
    }
}

#[test]
fn hostile_pages_never_stop_an_evaluation() {
    let set = hostile_set("hostile", false);
    evaluate_all(&set, Duration::from_secs(300));
    // The pages that hold the article in a readable encoding are extracted by `full`.
    let rows = read_csv(
        &set.with_file_name(format!("{}-eval-full/per-document.csv", set.file_name().unwrap().to_string_lossy())),
    );
    for id in ["truncated", "nested", "utf16-bom", "utf16be-nobom", "utf16le-nobom", "only-text", "invalid-utf8"] {
        let r = rows.iter().find(|r| r[1] == id).unwrap();
        assert!(r[3].parse::<f64>().unwrap() > 0.99, "{id}: recall {r:?}");
    }
}

#[test]
#[ignore = "writes and parses a 50 MB page; run by .ci/run"]
fn hostile_pages_with_a_50_mb_page() {
    let set = hostile_set("hostile-big", true);
    evaluate_all(&set, Duration::from_secs(600));
}
