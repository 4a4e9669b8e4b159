//! `cetune extract` over collections (issue 15): standard input, folders, JSONL, WARC and
//! WARC.gz inputs, JSONL and text outputs, order, per-page errors and exit codes, output-path
//! safety, and Ctrl-C leaving complete output.

use crate::util::{Run, cetune, tmp, write};
use cetune::collect::warc::response_record;
use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn page(words: &str) -> String {
    format!("<html><head><title>t</title></head><body><p>{words}</p></body></html>")
}

/// Runs `cetune` with `input` on standard input.
fn with_stdin(args: &[&str], input: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cetune"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn extract_reads_one_page_from_standard_input() {
    let nav = "<ul><li><a href=/a>Home</a></li><li><a href=/b>World</a></li></ul>";
    let text = "Standard input is read as one page of text. ".repeat(20);
    let html =
        format!("<html><body>{nav}<div><p>{text}</p></div><footer><a href=/i>Imprint</a></footer></body></html>");
    let r = with_stdin(&["extract", "--params", "results/reference/tccb/best.yaml", "-"], html.as_bytes());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Standard input is read as one page of text."), "{}", r.stdout);
    // As JSONL on request.
    let r = with_stdin(&["extract", "-e", "full", "--format", "jsonl", "-"], page("one two three").as_bytes());
    let v = lines(&r.ok());
    assert_eq!((v.len(), v[0]["id"].as_str(), v[0]["error"].is_null()), (1, Some("-"), true));
}

#[test]
fn extract_over_a_folder_writes_jsonl_in_input_order_with_per_page_errors() {
    let d = tmp("collect-folder");
    let crawl = d.join("crawl");
    let names = ["a/1.html", "a/2.htm", "b/deep/3.html.gz", "c.xhtml", "d/broken.html", "e.html"];
    for (i, n) in names.iter().enumerate() {
        let html = page(&format!("Page number {i} has its own words here."));
        if n.ends_with(".gz") {
            let mut e = GzEncoder::new(Vec::new(), Compression::fast());
            e.write_all(html.as_bytes()).unwrap();
            write(&crawl.join(n), e.finish().unwrap());
        } else if n.contains("broken") {
            // Binary data under an HTML name.
            write(
                &crawl.join(n),
                (0..5000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8).collect::<Vec<_>>(),
            );
        } else {
            write(&crawl.join(n), html);
        }
    }
    write(&crawl.join("notes.txt"), "not a page");
    write(&crawl.join("logo.png"), [0x89u8, b'P', b'N', b'G', 0, 0, 1]);
    for threads in ["1", "2"] {
        let r = cetune(&["extract", "-e", "full", "--threads", threads, s(&crawl)]);
        assert_eq!(r.code, 1, "one page failed: {}", r.stderr);
        assert!(r.stderr.contains("extracted 6 pages (1 failed"), "{}", r.stderr);
        assert!(r.stderr.contains("1 of 6 pages failed"), "{}", r.stderr);
        let v = lines(&r.stdout);
        let ids: Vec<String> = v.iter().map(|l| l["id"].as_str().unwrap().to_string()).collect();
        let expected: Vec<String> = names.iter().map(|n| crawl.join(n).display().to_string()).collect();
        assert_eq!(ids, expected);
        for (i, l) in v.iter().enumerate() {
            let keys: Vec<&str> = l.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(
                keys,
                ["confidence", "empty", "error", "id", "language", "low_confidence", "text", "url", "words"],
                "no timing field"
            );
            if i == 4 {
                assert!(l["error"].as_str().unwrap().contains("binary data"), "{l}");
            } else {
                assert!(l["error"].is_null(), "{l}");
                assert!(l["text"].as_str().unwrap().contains(&format!("Page number {i} has")), "{l}");
                assert_eq!(l["words"], 8);
            }
        }
    }
    // --unordered: the same pages, in some order.
    let r = cetune(&["extract", "-e", "full", "--unordered", "-q", s(&crawl)]);
    let mut ids: Vec<String> = lines(&r.stdout).iter().map(|l| l["id"].as_str().unwrap().to_string()).collect();
    ids.sort();
    assert_eq!(ids.len(), 6);
    // Text output of a collection: errors on stderr, one line each.
    let r = cetune(&["extract", "-e", "full", "--format", "txt", "-q", s(&crawl)]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("broken.html: binary data, not an HTML page"), "{}", r.stderr);
    assert_eq!(r.stdout.lines().filter(|l| l.starts_with("Page number")).count(), 5, "{}", r.stdout);
}

#[test]
fn extract_out_dir_mirrors_the_input_tree_and_keeps_the_safety_rules() {
    let d = tmp("collect-dir");
    let crawl = d.join("crawl");
    write(&crawl.join("x/one.html"), page("First page words."));
    write(&crawl.join("two.html"), page("Second page words."));
    let out = d.join("texts");
    let out_arg = format!("{}/", out.display());
    cetune(&["extract", "-e", "full", "-q", s(&crawl), "--out", &out_arg]).ok();
    assert_eq!(std::fs::read_to_string(out.join("x/one.txt")).unwrap(), "First page words.");
    assert_eq!(std::fs::read_to_string(out.join("two.txt")).unwrap(), "Second page words.");
    // Not empty now: --force needed.
    let r = cetune(&["extract", "-e", "full", "-q", s(&crawl), "--out", &out_arg]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("output folder is not empty; use --force"), "{}", r.stderr);
    cetune(&["extract", "-e", "full", "-q", s(&crawl), "--out", &out_arg, "--force"]).ok();
    // An output file that exists needs --force; one that cannot be written is one line, exit 2.
    let file = d.join("out.jsonl");
    write(&file, "keep me");
    let r = cetune(&["extract", "-e", "full", "-q", s(&crawl), "--out", s(&file)]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("output file exists; use --force"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me");
    cetune(&["extract", "-e", "full", "-q", s(&crawl), "--out", s(&file), "--force"]).ok();
    assert_eq!(lines(&std::fs::read_to_string(&file).unwrap()).len(), 2);
    let r = cetune(&["extract", "-e", "full", "-q", s(&crawl), "--out", s(&file.join("under-a-file.jsonl"))]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("cannot write the output file"), "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    // Never into the inputs.
    let inside = format!("{}/texts/", crawl.display());
    let r = cetune(&["extract", "-e", "full", "-q", s(&crawl), "--out", &inside]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("overlaps the input"), "{}", r.stderr);
}

#[test]
fn extract_jsonl_input_from_a_file_and_from_standard_input() {
    let d = tmp("collect-jsonl");
    let good = serde_json::json!({"id": "p1", "url": "http://x/1", "html": page("JSON lines carry pages.")});
    let no_id = serde_json::json!({"html": page("A line without an id.")});
    let body = format!("{good}\nthis is not json\n{{\"id\":\"p3\"}}\n\n{no_id}\n");
    let f = d.join("dump.jsonl");
    write(&f, &body);
    let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
    gz.write_all(body.as_bytes()).unwrap();
    write(&d.join("dump.jsonl.gz"), gz.finish().unwrap());
    for r in [
        cetune(&["extract", "-e", "full", "-q", s(&f)]),
        cetune(&["extract", "-e", "full", "-q", s(&d.join("dump.jsonl.gz"))]),
        with_stdin(&["extract", "-e", "full", "-q", "--input-format", "jsonl", "-"], body.as_bytes()),
    ] {
        assert_eq!(r.code, 1, "{}", r.stderr);
        let v = lines(&r.stdout);
        assert_eq!(v.len(), 4, "{}", r.stdout);
        assert_eq!((v[0]["id"].as_str(), v[0]["url"].as_str()), (Some("p1"), Some("http://x/1")));
        assert_eq!(v[0]["text"], "JSON lines carry pages.");
        assert!(v[1]["error"].as_str().unwrap().contains(":2: not a JSON object"), "{}", v[1]);
        assert!(v[2]["error"].as_str().unwrap().contains("no \"html\" field"), "{}", v[2]);
        assert!(v[3]["id"].as_str().unwrap().ends_with(":5"), "{}", v[3]);
        assert_eq!(v[3]["text"], "A line without an id.");
        assert!(r.stderr.contains("2 of 4 pages failed"), "{}", r.stderr);
    }
}

fn warc(records: &[Vec<u8>], per_record_gzip: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for r in records {
        if per_record_gzip {
            let mut e = GzEncoder::new(Vec::new(), Compression::fast());
            e.write_all(r).unwrap();
            out.extend(e.finish().unwrap());
        } else {
            out.extend(r);
        }
    }
    out
}

#[test]
fn extract_warc_and_warc_gz_files_mixed_with_pages() {
    let d = tmp("collect-warc");
    let info = b"WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 4\r\n\r\ninfo\r\n\r\n".to_vec();
    let records = vec![
        info,
        response_record(
            "http://a/",
            "1",
            "text/html; charset=utf-8",
            page("The first record of the archive.").as_bytes(),
        ),
        response_record("http://a/logo", "2", "image/png", b"\x89PNG\r\n"),
        response_record("http://b/", "3", "text/html", page("The second page in the archive.").as_bytes()),
    ];
    write(&d.join("crawl.warc"), warc(&records, false));
    write(&d.join("crawl.warc.gz"), warc(&records, true));
    write(&d.join("single.html"), page("A page between the archives."));
    let r = cetune(&[
        "extract",
        "-e",
        "full",
        s(&d.join("crawl.warc")),
        s(&d.join("single.html")),
        s(&d.join("crawl.warc.gz")),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("extracted 5 pages (0 failed, 2 skipped as not HTML; 0 empty)"), "{}", r.stderr);
    let v = lines(&r.stdout);
    let urls: Vec<Option<&str>> = v.iter().map(|l| l["url"].as_str()).collect();
    assert_eq!(urls, [Some("http://a/"), Some("http://b/"), None, Some("http://a/"), Some("http://b/")]);
    assert_eq!(v[0]["id"], "urn:uuid:1");
    assert_eq!(v[4]["text"], "The second page in the archive.");
    // One .txt per page in a folder: <file>/<record number>.txt.
    let texts = d.join("texts");
    cetune(&["extract", "-e", "full", "-q", s(&d.join("crawl.warc")), "--out", &format!("{}/", texts.display())]).ok();
    assert_eq!(std::fs::read_to_string(texts.join("crawl/2.txt")).unwrap(), "The first record of the archive.");
    assert_eq!(std::fs::read_to_string(texts.join("crawl/4.txt")).unwrap(), "The second page in the archive.");
    // A truncated WARC.gz: the records before the cut, then one error; the run goes on.
    let gz = warc(&records, true);
    write(&d.join("cut.warc.gz"), &gz[..gz.len() - 30]);
    let r = cetune(&["extract", "-e", "full", "-q", s(&d.join("cut.warc.gz")), s(&d.join("single.html"))]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let v = lines(&r.stdout);
    assert_eq!(v.len(), 3, "{}", r.stdout);
    assert_eq!(v[0]["text"], "The first record of the archive.");
    assert!(v[1]["error"].as_str().unwrap().contains("truncated"), "{}", v[1]);
    assert_eq!(v[2]["text"], "A page between the archives.");
    // --files-from: the paths come from standard input (how Spark's RDD.pipe hands them over).
    let list = format!("{}\n{}\n", d.join("crawl.warc.gz").display(), d.join("single.html").display());
    let r = with_stdin(&["extract", "-e", "full", "-q", "--files-from", "-"], list.as_bytes());
    assert_eq!(lines(&r.ok()).len(), 3);
    // A listed path that does not exist is a page error; the run goes on.
    let list = format!("{}\n{}\n", d.join("gone.html").display(), d.join("single.html").display());
    let r = with_stdin(&["extract", "-e", "full", "-q", "--files-from", "-"], list.as_bytes());
    assert_eq!(r.code, 1, "{}", r.stderr);
    let v = lines(&r.stdout);
    assert!(v[0]["error"].as_str().unwrap().contains("gone.html: cannot read: No such file"), "{}", v[0]);
    assert_eq!(v[1]["text"], "A page between the archives.");
}

#[test]
fn extract_usage_errors_are_one_line_and_exit_2() {
    let d = tmp("collect-usage");
    write(&d.join("p.html"), page("words"));
    let p = d.join("p.html");
    for (args, expected) in [
        (vec!["extract", "-e", "full", "--input-format", "xml", s(&p)], "unknown input format 'xml'"),
        (vec!["extract", "-e", "full", "--format", "csv", s(&p)], "unknown output format 'csv'"),
        (vec!["extract", "-e", "full", "/nonexistent/page.html"], "input not found"),
        (vec!["extract", "-e", "full"], "name the pages to extract"),
        (vec!["extract", "-e", "full", "-", "-"], "standard input ('-') can be read only once"),
    ] {
        let r = cetune(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(expected), "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
    }
}

/// Ctrl-C stops reading, writes the pages in flight and leaves output that is complete up to the
/// last page written: every line whole, the ids a prefix of the input order.
#[test]
fn ctrl_c_leaves_complete_output_up_to_the_last_page_written() {
    let d = tmp("collect-sigint");
    let f = d.join("many.jsonl");
    let mut body = String::new();
    for i in 0..200_000 {
        body.push_str(&serde_json::json!({"id": i.to_string(), "html": page(&format!("Page {i} words."))}).to_string());
        body.push('\n');
    }
    write(&f, body);
    let out = d.join("out.jsonl");
    let child = Command::new(env!("CARGO_BIN_EXE_cetune"))
        .args(["extract", "-e", "full", "--threads", "1", s(&f), "--out", s(&out)])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until some pages are written (the output is buffered: some 64 KiB at least).
    for _ in 0..6000 {
        if std::fs::metadata(&out).map(|m| m.len() > 200_000).unwrap_or(false) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    let text = std::fs::read_to_string(&out).unwrap();
    let v = lines(&text);
    assert!(text.ends_with('\n'));
    if done.status.code() == Some(1) {
        // Usually fewer than all pages; on a loaded machine this thread may wake so late that the
        // signal lands after the last page was written, and the run still says it was stopped.
        assert!(stderr.contains("interrupted: the output is complete up to the last page written"), "{stderr}");
    } else {
        assert_eq!(done.status.code(), Some(0), "{stderr}"); // finished before the signal arrived
    }
    for (i, l) in v.iter().enumerate() {
        assert_eq!(l["id"].as_str(), Some(i.to_string().as_str()));
    }
    assert!(!v.is_empty());
}

/// Issue 40: empty pages are counted in the summary line, marked in JSONL and `index.csv`
/// (written all the same), and fail the run only with `--fail-on-empty`.
#[test]
fn extract_counts_and_marks_empty_pages_and_fails_on_them_only_on_request() {
    let d = tmp("collect-empty");
    let crawl = d.join("crawl");
    write(&crawl.join("a.html"), page("A page with seven words of text."));
    write(&crawl.join("b.html"), "<html><body><script>var x = 1;</script></body></html>");
    write(&crawl.join("c.html"), page("Three short words."));
    // JSONL: every page, with its words and marks; no confidence model, so confidence is null.
    let r = cetune(&["extract", "-e", "full", s(&crawl)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("extracted 3 pages (0 failed, 0 skipped as not HTML; 1 empty)"), "{}", r.stderr);
    let v = lines(&r.stdout);
    let marks: Vec<(u64, bool, bool)> = v
        .iter()
        .map(|l| (l["words"].as_u64().unwrap(), l["empty"].as_bool().unwrap(), l["low_confidence"].as_bool().unwrap()))
        .collect();
    assert_eq!(marks, [(7, false, false), (0, true, false), (3, false, false)]);
    assert!(v.iter().all(|l| l.get("confidence").is_some_and(|c| c.is_null())), "{}", r.stdout);
    // --min-words 4 marks the short page too; still exit 0.
    let r = cetune(&["extract", "-e", "full", "--min-words", "4", s(&crawl)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("(0 failed, 0 skipped as not HTML; 2 empty)"), "{}", r.stderr);
    // A folder: index.csv keeps id,file first and adds the words and marks; every page written.
    let out = d.join("out");
    let o = format!("{}/", out.display());
    let r = cetune(&["extract", "-e", "full", "-q", "--fail-on-empty", s(&crawl), "--out", &o]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("1 empty)"), "{}", r.stderr);
    assert!(r.stderr.contains("1 of 3 pages are empty"), "{}", r.stderr);
    let index = crate::util::read_csv(&out.join("index.csv"));
    assert_eq!(index[0], ["id", "file", "words", "confidence", "empty", "low_confidence"]);
    let rows: Vec<Vec<&str>> = index[1..].iter().map(|r| r[2..].iter().map(String::as_str).collect()).collect();
    assert_eq!(
        rows,
        [vec!["7", "", "false", "false"], vec!["0", "", "true", "false"], vec!["3", "", "false", "false"]]
    );
    assert_eq!(std::fs::read_to_string(out.join("b.txt")).unwrap(), "");
    // Without empty pages, --fail-on-empty changes nothing.
    std::fs::remove_file(crawl.join("b.html")).unwrap();
    let r = cetune(&["extract", "-e", "full", "--fail-on-empty", s(&crawl)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // One page: its text, then exit 1 when it is empty and the user asked.
    write(&d.join("one.html"), "<html><body></body></html>");
    assert_eq!(cetune(&["extract", "-e", "full", s(&d.join("one.html"))]).code, 0);
    let r = cetune(&["extract", "-e", "full", "--fail-on-empty", s(&d.join("one.html"))]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("the page is empty"), "{}", r.stderr);
}
