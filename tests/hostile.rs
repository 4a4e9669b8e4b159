//! Issue 22: a hostile user's inputs (colliding names, symlinks, FIFOs, endless files, slow
//! clients) never lose or corrupt a file and never hang a command. One test per finding, named
//! after what it guards.

use crate::optimise::linky_set;
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
    assert_eq!(index[0], ["id", "file"]);
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
fn with_stdin_within(
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
fn small_run(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
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
