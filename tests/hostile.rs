//! Issue 22: a hostile user's inputs (colliding names, symlinks, FIFOs, endless files, slow
//! clients) never lose or corrupt a file and never hang a command. One test per finding, named
//! after what it guards.

use crate::util::linky_set;
use crate::util::{beside, cetune, cetune_within, read_csv, tmp, write};
use std::os::unix::fs::symlink;
use std::path::Path;
use std::time::Duration;

fn page(words: &str) -> String {
    format!("<html><head><title>t</title></head><body><p>{words}</p></body></html>")
}

/// Finding 1: pages whose output names collide get unique files, and `index.csv` maps ids to them.
#[test]
fn extract_out_folder_gives_colliding_pages_unique_files_and_an_index() {
    let d = tmp("collide");
    write(&d.join("crawl/a.html"), page("one html"));
    write(&d.join("crawl/a.htm"), page("two htm"));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, page("three gz").as_bytes()).unwrap();
    write(&d.join("crawl/a.html.gz"), gz.finish().unwrap());
    let lines: Vec<String> = [("x/y", "four"), ("x_y", "five"), ("x y", "six"), ("x y", "seven")]
        .iter()
        .map(|(id, w)| serde_json::json!({"id": id, "html": page(w)}).to_string())
        .collect();
    write(&d.join("pages.jsonl"), lines.join("\n") + "\n");
    let out = d.join("out");
    let o = format!("{}/", out.display());
    let r = cetune(&[
        "extract",
        "-e",
        "full",
        d.join("crawl").to_str().unwrap(),
        d.join("pages.jsonl").to_str().unwrap(),
        "--out",
        &o,
        "-q",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let index = read_csv(&out.join("index.csv"));
    assert_eq!(index[0][..2], ["id", "file"]);
    assert_eq!(index.len(), 8, "{index:?}");
    let mut texts: Vec<String> =
        index[1..].iter().map(|row| std::fs::read_to_string(out.join(&row[1])).unwrap().trim().to_string()).collect();
    texts.sort();
    assert_eq!(texts, ["five", "four", "one html", "seven", "six", "three gz", "two htm"]);
    let files: std::collections::HashSet<&String> = index[1..].iter().map(|r| &r[1]).collect();
    assert_eq!(files.len(), 7, "every page has a file of its own: {index:?}");
}

/// Finding 2 (dump): a symlinked package folder inside `--dump DIR` pointing into the gold set
/// is refused, and the gold texts stay.
#[test]
fn extract_dump_never_writes_through_a_symlinked_package_folder() {
    let set = linky_set("dumplink", 4);
    let before = std::fs::read(set.join("news/00.txt")).unwrap();
    let dump = beside(&set, "dump");
    std::fs::create_dir_all(&dump).unwrap();
    symlink(set.join("news"), dump.join("news")).unwrap();
    let r = cetune(&[
        "extract",
        "-e",
        "full",
        "--goldset",
        set.to_str().unwrap(),
        "--dump",
        dump.to_str().unwrap(),
        "--force",
        "-q",
    ]);
    assert_ne!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("symlink"), "{}", r.stderr);
    assert_eq!(std::fs::read(set.join("news/00.txt")).unwrap(), before, "the gold text was replaced");
}

/// Finding 2 (out folder): a symlinked output file is not followed.
#[test]
fn extract_out_folder_never_writes_through_a_symlinked_file() {
    let d = tmp("outlink");
    write(&d.join("crawl/a.html"), page("extracted words"));
    write(&d.join("victim.txt"), "precious");
    let out = d.join("out");
    std::fs::create_dir_all(&out).unwrap();
    symlink("../victim.txt", out.join("a.txt")).unwrap();
    let o = format!("{}/", out.display());
    let r = cetune(&["extract", "-e", "full", d.join("crawl").to_str().unwrap(), "--out", &o, "--force", "-q"]);
    assert_ne!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("symlink"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(d.join("victim.txt")).unwrap(), "precious");
}

/// Finding 2 (probe): a symlink named like the write probe is never truncated.
#[test]
fn the_write_probe_never_follows_a_symlink_of_the_same_name() {
    let set = linky_set("probelink", 3);
    let out = beside(&set, "eval");
    std::fs::create_dir_all(&out).unwrap();
    let victim = set.with_file_name("probelink-victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    symlink(&victim, out.join(".cetune-write-test")).unwrap();
    let r = cetune(&[
        "evaluate",
        "-e",
        "full",
        "--goldset",
        set.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--force",
        "-q",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
}

/// Finding 3: every file a command reads is an input `--out --force` may not replace.
#[test]
fn extract_out_force_never_replaces_the_files_from_list_or_the_params_file() {
    let d = tmp("ownin");
    write(&d.join("a.html"), page("some words"));
    let list = d.join("list.txt");
    std::fs::write(&list, format!("{}\n", d.join("a.html").display())).unwrap();
    let l = list.to_str().unwrap();
    let r = cetune(&["extract", "-e", "full", "--files-from", l, "--out", l, "--force", "-q"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("overlaps the input"), "{}", r.stderr);
    assert!(std::fs::read_to_string(&list).unwrap().contains("a.html"));
    let best = d.join("best.yaml");
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("params/lqf.yaml"), &best).unwrap();
    let before = std::fs::read(&best).unwrap();
    let b = best.to_str().unwrap();
    let r = cetune(&["extract", "--params", b, d.join("a.html").to_str().unwrap(), "--out", b, "--force"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(std::fs::read(&best).unwrap(), before);
}

/// Finding 8: small files are read through a capped reader: `/dev/zero` and a FIFO as
/// `--params` fail at once, a huge sparse `goldset.yaml` is refused before it is read.
#[test]
fn params_and_manifests_that_are_devices_fifos_or_huge_are_refused_quickly() {
    let d = tmp("bounded");
    write(&d.join("a.html"), page("some words"));
    let a = d.join("a.html");
    let fifo = d.join("fifo.yaml");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for params in [Path::new("/dev/zero"), fifo.as_path()] {
        let r = cetune_within(
            &["extract", "--params", params.to_str().unwrap(), a.to_str().unwrap()],
            Duration::from_secs(20),
        );
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
    }
    let set = linky_set("bounded-set", 3);
    let f = std::fs::File::create(set.join("goldset.yaml")).unwrap();
    f.set_len(3 << 30).unwrap();
    let out = beside(&set, "eval");
    let r = cetune_within(
        &["evaluate", "-e", "full", "--goldset", set.to_str().unwrap(), "--out", out.to_str().unwrap(), "-q"],
        Duration::from_secs(20),
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("too large"), "{}", r.stderr);
}

/// Runs `cetune` with `input` on standard input (fed from a thread that stops when the pipe
/// closes), killing it after `limit`.
pub fn with_stdin_within(
    args: &[&str],
    input: impl Fn(&mut dyn std::io::Write) + Send + 'static,
    limit: Duration,
) -> crate::util::Run {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_cetune"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::thread::spawn(move || input(&mut stdin));
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("cetune {args:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    crate::util::Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Finding 12 (stdin): an endless JSONL line on standard input is an error once it passes the
/// page budget, not a command that runs forever.
#[test]
fn an_endless_jsonl_line_on_stdin_stops_at_the_page_budget() {
    let feed = |w: &mut dyn std::io::Write| {
        let _ = w.write_all(b"{\"html\": \"");
        let chunk = vec![b'a'; 1 << 16];
        while w.write_all(&chunk).is_ok() {}
    };
    let r = with_stdin_within(
        &["extract", "-e", "full", "--input-format", "jsonl", "--max-page-mb", "1", "-", "-q"],
        feed,
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.contains("line longer than 1 MB"), "{}\n{}", r.stdout, r.stderr);
}

/// Finding 12 (leftovers): the hidden folder an interrupted gold-set write left is removed by
/// the next write of that set.
#[test]
fn an_interrupted_goldset_write_leaves_nothing_after_the_next_run() {
    let set = linky_set("leftover", 4);
    let out = beside(&set, "sample");
    let name = out.file_name().unwrap().to_string_lossy().into_owned();
    let left = out.with_file_name(format!(".{name}.cetune-new-999999999"));
    write(&left.join("news/00.html"), "half a set");
    let (s, o) = (set.to_str().unwrap(), out.to_str().unwrap());
    cetune(&["goldset", "sample", s, "--n", "2", "--out", o]).ok();
    assert!(!left.exists(), "{} was left behind", left.display());
}

/// Finding 13: `goldset import -q`, duplicate `choices`, and a WARC record whose
/// Content-Length is shorter than its body.
#[test]
fn import_takes_quiet_duplicate_choices_are_refused_and_a_short_warc_record_is_an_error() {
    let d = tmp("small13");
    write(&d.join("src/input/a.html"), "<html><body><p>Text here</p></body></html>");
    write(&d.join("src/GoldStandard/a.txt"), "URL: http://x\n<p>Text here\n");
    let (src, out) = (d.join("src"), d.join("out"));
    let r = cetune(&[
        "goldset",
        "import",
        "--format",
        "cleaneval",
        src.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "");
    let yaml = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("params/accb.yaml")).unwrap();
    let twice = d.join("twice.yaml");
    std::fs::write(&twice, yaml.replace("choices: [gaussian, box]", "choices: [gaussian, gaussian]")).unwrap();
    write(&d.join("a.html"), page("words"));
    let r = cetune(&["extract", "--params", twice.to_str().unwrap(), d.join("a.html").to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("listed twice") && r.stderr.contains("twice.yaml:"), "{}", r.stderr);
    // A record that declares 40 bytes fewer than its body holds.
    let rec =
        cetune::collect::warc::response_record("http://x/", "1", "text/html", page("the whole page text").as_bytes());
    let text = String::from_utf8(rec).unwrap();
    let len: usize = text.split("Content-Length: ").nth(1).unwrap().split('\r').next().unwrap().parse().unwrap();
    let short = text.replacen(
        &format!("Content-Length: {len}\r\n\r\nHTTP"),
        &format!("Content-Length: {}\r\n\r\nHTTP", len - 40),
        1,
    );
    write(&d.join("short.warc"), short);
    let r = cetune(&["extract", "-e", "full", d.join("short.warc").to_str().unwrap(), "--format", "jsonl"]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("shorter than its body"), "{}", r.stdout);
    assert!(!r.stdout.contains("\"error\":null"), "no page with cut text: {}", r.stdout);
}

/// A short lqf run on a small set; returns the set and the run folder.
pub fn small_run(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let set = linky_set(name, 6);
    let run = beside(&set, "run");
    let mut args = crate::optimise::optimise_args(set.to_str().unwrap(), run.to_str().unwrap(), &[]);
    let n = args.iter().position(|a| *a == "--max-generations").unwrap();
    args[n + 1] = "2";
    cetune(&args).ok();
    (set, run)
}

/// Finding 10: `report` on a run folder whose lock another process holds is refused, naming it.
#[test]
fn report_honours_the_run_lock() {
    let (_, run) = small_run("reportlock");
    let before = std::fs::read(run.join("top.csv")).unwrap();
    let held = cetune::store::RunLock::acquire(&run).unwrap();
    let r = cetune(&["report", run.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("in use by process"), "{}", r.stderr);
    assert_eq!(std::fs::read(run.join("top.csv")).unwrap(), before);
    drop(held);
    cetune(&["report", run.to_str().unwrap()]).ok();
}

/// Finding 4: `goldset import --force` replaces only what the import wrote: a file the user
/// added, a package folder made by hand or a gold text edited by hand makes it refuse, naming it.
#[test]
fn goldset_import_force_refuses_to_delete_what_the_user_added_or_edited() {
    let d = tmp("importforce");
    for k in 0..3 {
        write(&d.join(format!("src/input/{k}.html")), format!("<html><body><p>Text number {k} here</p></body></html>"));
        write(&d.join(format!("src/GoldStandard/{k}.txt")), format!("URL: http://x/{k}\n<p>Text number {k} here\n"));
    }
    let (src, out) = (d.join("src"), d.join("out"));
    let import = |force: bool| {
        let mut args =
            vec!["goldset", "import", "--format", "cleaneval", src.to_str().unwrap(), "--out", out.to_str().unwrap()];
        if force {
            args.push("--force");
        }
        cetune(&args)
    };
    import(false).ok();
    import(true).ok();
    let pkg = std::fs::read_dir(&out).unwrap().flatten().find(|e| e.path().is_dir()).unwrap().path();
    let gold = std::fs::read_dir(&pkg)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "txt"))
        .unwrap();
    let cases: Vec<(std::path::PathBuf, Option<Vec<u8>>)> = vec![
        (out.join("NOTES.md"), None),
        (out.join("mine/1.html"), None),
        (gold.clone(), Some(std::fs::read(&gold).unwrap())),
    ];
    for (path, original) in cases {
        write(&path, "made by hand");
        let r = import(true);
        assert_eq!(r.code, 2, "{}", r.stderr);
        let rel = path.strip_prefix(&out).unwrap().to_string_lossy().into_owned();
        assert!(r.stderr.contains(&rel) && r.stderr.contains("did not write"), "{rel}: {}", r.stderr);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "made by hand");
        match original {
            Some(bytes) => std::fs::write(&path, bytes).unwrap(),
            None => std::fs::remove_file(&path).unwrap(),
        }
    }
    let _ = std::fs::remove_dir(out.join("mine"));
    import(true).ok();
}

/// Finding 5: `optimise --force` deletes the files its run folder's list names, and nothing
/// else: the user's files named like cetune's stay, a previous run's plots of other names go,
/// and a `compare-*` folder loses its tables but keeps the user's file.
#[test]
fn optimise_force_deletes_only_the_files_the_run_folder_lists() {
    let (set, run) = small_run("runforce");
    let mine = ["history_of_rome.png", "space-shuttle.svg", "pareto_notes.svg", "best.yaml.tmp"];
    for f in mine {
        write(&run.join(f), "the user's");
    }
    // A previous run's plot the next one does not write (a combination's structure plot).
    cetune::report::write_atomic(&run.join("structure.svg"), b"<svg/>").unwrap();
    let r = cetune(&["compare", "--run", run.to_str().unwrap(), "--goldset", set.to_str().unwrap(), "-q"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let compare = std::fs::read_dir(&run)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("compare-"))
        .expect("a compare folder");
    write(&compare.join("thoughts.md"), "the user's");
    let mut args = crate::optimise::optimise_args(set.to_str().unwrap(), run.to_str().unwrap(), &["--force"]);
    let n = args.iter().position(|a| *a == "--max-generations").unwrap();
    args[n + 1] = "2";
    cetune(&args).ok();
    for f in mine {
        assert_eq!(std::fs::read_to_string(run.join(f)).unwrap(), "the user's", "{f}");
    }
    assert!(!run.join("structure.svg").exists(), "a previous run's plot stayed");
    assert!(compare.join("thoughts.md").exists());
    assert!(!compare.join("compare.csv").exists(), "the old compare table stayed");
}

/// Finding 9: a client that declares a 10 MB save body, sends ten bytes and waits stalls no other
/// client; a request without the token is refused before its body is read; Ctrl-C still works.
#[test]
fn one_partial_request_does_not_freeze_annotate() {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    let set = crate::annotate::new_set("slowclient");
    let srv = crate::annotate::Server::start(&set, &[]);
    let stall = |path: &str| {
        let mut s = TcpStream::connect(("127.0.0.1", srv.port)).unwrap();
        let head = format!("POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10000000\r\n\r\n0123456789");
        s.write_all(head.as_bytes()).unwrap();
        s
    };
    let _slow = stall(&format!("/api/save?t={}", srv.token));
    // Without the token: refused at once, the body never read.
    let mut bad = stall("/api/save");
    bad.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut answer = [0u8; 12];
    bad.read_exact(&mut answer).expect("an answer without reading the body");
    assert_eq!(&answer, b"HTTP/1.1 403");
    // Another client is served while the slow one waits (a bounded wait, not a speed target).
    let (tx, rx) = std::sync::mpsc::channel();
    let (port, token) = (srv.port, srv.token.clone());
    std::thread::spawn(move || {
        let _ = tx.send(crate::annotate::http(port, "GET", &format!("/api/pages?t={token}"), None, ""));
    });
    let (status, body) = rx.recv_timeout(Duration::from_secs(10)).expect("the server stalled behind a slow client");
    assert_eq!(status, 200, "{body}");
    let started = std::time::Instant::now();
    let (code, out) = srv.interrupt();
    assert!(started.elapsed() < Duration::from_secs(10), "Ctrl-C took {:?}", started.elapsed());
    assert_eq!(code, 0, "{out}");
}

/// Finding 11: a save in `annotate` leaves the user's `goldset.yaml` as it was (comments, order);
/// its record goes to `annotations.yaml`, which every reader of the set merges.
#[test]
fn annotate_saves_keep_the_users_goldset_yaml_comments() {
    let set = crate::annotate::new_set("keepcomments");
    let yaml = set.join("goldset.yaml");
    let mine =
        format!("# my notes on this set: keep them\n{}# trailing remark\n", std::fs::read_to_string(&yaml).unwrap());
    std::fs::write(&yaml, &mine).unwrap();
    let srv = crate::annotate::Server::start(&set, &[]);
    let (_, page) = srv.get("/api/page?id=example-news.org/news1");
    let page: serde_json::Value = serde_json::from_str(&page).unwrap();
    let keep = vec![true; page["blocks"].as_array().unwrap().len()];
    let (code, r) = srv.save(&serde_json::json!({"id": "example-news.org/news1", "keep": keep}));
    assert_eq!(code, 200, "{r}");
    drop(srv);
    assert_eq!(std::fs::read_to_string(&yaml).unwrap(), mine);
    let records = std::fs::read_to_string(set.join("annotations.yaml")).unwrap();
    assert!(records.contains("example-news.org/news1:") && records.contains("by: tester"), "{records}");
    let m = cetune::goldset::native::manifest(&set).unwrap();
    assert!(m.documents["example-news.org/news1"].annotated.is_some());
}

/// Finding 7: a description whose range leaves what the family can run with is one line naming
/// the file, the parameter's line and the allowed range (exit 2), not an abort or an
/// out-of-memory kill.
#[test]
fn a_parameter_range_beyond_what_the_family_can_run_with_is_refused() {
    let d = tmp("sane");
    write(&d.join("a.html"), page("some words here"));
    let yaml = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("params/accb.yaml")).unwrap();
    for max in ["999999999999999", "1e9", "10000000"] {
        let p = d.join(format!("accb-{max}.yaml"));
        std::fs::write(&p, yaml.replace("    max: 300\n", &format!("    max: {max}\n"))).unwrap();
        let r = cetune_within(
            &["extract", "--params", p.to_str().unwrap(), d.join("a.html").to_str().unwrap()],
            Duration::from_secs(20),
        );
        assert_eq!(r.code, 2, "{max}: {}", r.stderr);
        let want = format!("{}:5: parameter 'r': ", p.display());
        assert!(r.stderr.contains(&want) && r.stderr.contains("[1, 5000]"), "{}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    }
}

/// Finding 6: 1,100 `<option>`s without end tags (valid HTML) are 2 levels deep, not 1,100:
/// what follows keeps its tags (the script stays out of the text) and no warning is printed.
#[test]
fn options_without_end_tags_do_not_trip_the_depth_limit() {
    let d = tmp("options");
    let html = format!(
        "<html><head><style>.menu {{ color: red }}</style></head><body><form><select>{}</select></form><script>var secret = 1;</script><p>First paragraph.</p><p>Second paragraph.</p></body></html>",
        "<option>choice".repeat(1_100)
    );
    write(&d.join("a.html"), html);
    let r = cetune(&["extract", "-e", "full", d.join("a.html").to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        !r.stdout.contains("secret") && !r.stdout.contains("color"),
        "{}",
        &r.stdout[r.stdout.len().saturating_sub(300)..]
    );
    assert!(r.stdout.contains("First paragraph.") && !r.stdout.contains("paragraph.Second"), "words ran together");
    assert!(!r.stderr.contains("depth"), "{}", r.stderr);
}
