//! Data safety end to end: what a careless or unlucky user can do to cetune's inputs and outputs
//! (issue "never lose a user's data"). Each test reproduces a command that once destroyed or
//! silently corrupted data.

use crate::util::linky_set;
use crate::util::{beside, cetune, cetune_in, read_csv, write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A short lqf run (population 6, 3 generations, seed 3) on `set` into `out`.
fn run_args<'a>(set: &'a str, out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = crate::optimise::optimise_args(set, out, &["--seed", "3"]);
    let n = v.iter().position(|a| *a == "--population").unwrap();
    v[n + 1] = "6";
    v[n + 3] = "3";
    v.extend_from_slice(extra);
    v
}

/// Every file below `dir` with its bytes, to check a folder was left exactly as it was.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn optimise_force_never_deletes_the_gold_set_a_foreign_folder_or_the_working_directory() {
    let set = linky_set("force", 6);
    let s = set.to_str().unwrap();
    let gold = snapshot(&set);
    // --out is the gold set, or a folder inside it.
    for out in [set.clone(), set.join("news")] {
        let r = cetune(&run_args(s, out.to_str().unwrap(), &["--force"]));
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains("overlaps the gold set"), "{}", r.stderr);
    }
    // A folder of unrelated files: never deleted, and not answered with "resume it".
    let mine = beside(&set, "mine");
    write(&mine.join("thesis.tex"), "years of work");
    for extra in [&[][..], &["--force"][..]] {
        let r = cetune(&run_args(s, mine.to_str().unwrap(), extra));
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains("not a cetune run folder"), "{}", r.stderr);
        assert!(!r.stderr.contains("--resume"), "{}", r.stderr);
    }
    assert!(mine.join("thesis.tex").exists());
    // The working directory (and its parent) with --force.
    let cwd = beside(&set, "cwd");
    write(&cwd.join("keep.txt"), "x");
    for out in [".", ".."] {
        let r = cetune_in(&cwd, &run_args(s, out, &["--force"]));
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains("refusing to write here"), "{}", r.stderr);
    }
    assert!(cwd.join("keep.txt").exists());
    assert_eq!(snapshot(&set), gold, "the gold set must be untouched");
    // A real run folder is replaced with --force, keeping files cetune did not write.
    let run = beside(&set, "run");
    cetune(&run_args(s, run.to_str().unwrap(), &[])).ok();
    write(&run.join("my-notes.md"), "notes");
    cetune(&run_args(s, run.to_str().unwrap(), &["--force"])).ok();
    assert!(run.join("my-notes.md").exists() && run.join("run.yaml").exists());
}

#[test]
fn dumps_and_results_never_overwrite_gold_texts_or_earlier_results() {
    let set = linky_set("dumpsafe", 4);
    let s = set.to_str().unwrap();
    let gold = snapshot(&set);
    for dump in [set.clone(), set.join("blog")] {
        let r = cetune(&["extract", "-e", "full", "--goldset", s, "--dump", dump.to_str().unwrap(), "--force", "-q"]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains("overlaps the gold set"), "{}", r.stderr);
    }
    let r = cetune(&["evaluate", "-e", "full", "--goldset", s, "--out", s, "--force", "-q"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(snapshot(&set), gold, "gold texts must be untouched");
    // An earlier evaluation is not overwritten silently.
    let out = beside(&set, "eval");
    let o = out.to_str().unwrap();
    cetune(&["evaluate", "-e", "full", "--goldset", s, "--out", o, "-q"]).ok();
    let r = cetune(&["evaluate", "-e", "lqf", "--goldset", s, "--out", o, "-q"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("use --force"), "{}", r.stderr);
    assert!(std::fs::read_to_string(out.join("summary.md")).unwrap().contains("| full |"));
    cetune(&["evaluate", "-e", "lqf", "--goldset", s, "--out", o, "--force", "-q"]).ok();
    // The same for a dump.
    let dump = beside(&set, "dump");
    let d = dump.to_str().unwrap();
    cetune(&["extract", "-e", "full", "--goldset", s, "--dump", d, "-q"]).ok();
    let r = cetune(&["extract", "-e", "full", "--goldset", s, "--dump", d, "-q"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn goldset_sample_force_replaces_and_never_writes_into_its_source() {
    let set = linky_set("resample", 12);
    let s = set.to_str().unwrap();
    let out = beside(&set, "sample");
    let o = out.to_str().unwrap();
    cetune(&["goldset", "sample", s, "--n", "9", "--out", o]).ok();
    cetune(&["goldset", "sample", s, "--n", "3", "--out", o, "--force"]).ok();
    let pages = snapshot(&out).iter().filter(|(p, _)| p.ends_with(".html")).count();
    assert_eq!(pages, 3, "the sample must be replaced, not merged");
    let before = snapshot(&set);
    let r = cetune(&["goldset", "sample", s, "--n", "3", "--out", s, "--force"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("overlaps the source"), "{}", r.stderr);
    assert_eq!(snapshot(&set), before);
}

#[test]
fn a_live_run_folder_is_locked_against_a_second_run_resume_and_force() {
    let set = linky_set("lock", 30);
    let s = set.to_str().unwrap();
    let run = beside(&set, "run");
    let r = run.to_str().unwrap();
    let mut args = run_args(s, r, &[]);
    let n = args.iter().position(|a| *a == "--max-generations").unwrap();
    args[n + 1] = "1000"; // runs until killed
    let mut child = Command::new(env!("CARGO_BIN_EXE_cetune"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !run.join("checkpoint.yaml").exists() {
        assert!(started.elapsed() < Duration::from_secs(60), "no checkpoint after 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = child.id().to_string();
    for extra in [vec!["--force"], vec![]] {
        let second = cetune(&run_args(s, r, &extra));
        assert_eq!(second.code, 2, "{}", second.stderr);
        assert!(second.stderr.contains(&format!("in use by process {pid}")), "{}", second.stderr);
    }
    let resume = cetune(&["optimise", "--resume", r, "-q"]);
    assert_eq!(resume.code, 2, "{}", resume.stderr);
    assert!(resume.stderr.contains(&format!("in use by process {pid}")), "{}", resume.stderr);
    child.kill().unwrap();
    child.wait().unwrap();
    // The lock dies with its process: the run can be resumed (here: stopped at once by replacing it).
    cetune(&run_args(s, r, &["--force"])).ok();
}

/// Marks a finished run as interrupted, so `--resume` continues it from its last checkpoint.
fn reopen(run: &Path) {
    let p = run.join("run.yaml");
    let text = std::fs::read_to_string(&p).unwrap();
    let text: String = text
        .lines()
        .map(|l| if l.starts_with("status:") { "status: interrupted".to_string() } else { l.to_string() })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&p, text + "\n").unwrap();
}

#[test]
fn resume_refuses_changed_inputs_and_works_from_another_directory() {
    let set = linky_set("inputs", 6);
    let run = beside(&set, "run");
    // The gold set is given relative to the working directory.
    let parent = set.parent().unwrap();
    let rel = set.file_name().unwrap().to_str().unwrap();
    cetune_in(parent, &run_args(rel, run.to_str().unwrap(), &[])).ok();
    let r = run.to_str().unwrap();
    // An edit of run.yaml mid-run is refused, naming what changed.
    reopen(&run);
    let yaml = std::fs::read_to_string(run.join("run.yaml")).unwrap();
    std::fs::write(run.join("run.yaml"), yaml.replace("population: 6", "population: 9")).unwrap();
    let out = cetune(&["optimise", "--resume", r, "-q"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("run.yaml changed since the run started (config.population)"), "{}", out.stderr);
    std::fs::write(run.join("run.yaml"), &yaml).unwrap();
    // A changed goldset.yaml (a document's language changes SW's scores) is refused too.
    write(&set.join("goldset.yaml"), "documents:\n  news/00: {lang: de}\n");
    let out = cetune(&["optimise", "--resume", r, "-q"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("gold set"), "{}", out.stderr);
    assert!(out.stderr.contains("changed since the run started"), "{}", out.stderr);
    std::fs::remove_file(set.join("goldset.yaml")).unwrap();
    // Unchanged, the run resumes from another working directory.
    let elsewhere = beside(&set, "elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = cetune_in(&elsewhere, &["optimise", "--resume", r, "-q"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

#[test]
fn report_and_resume_verify_every_journal_row() {
    let set = linky_set("journal", 6);
    let run = beside(&set, "run");
    let r = run.to_str().unwrap();
    cetune(&run_args(set.to_str().unwrap(), r, &[])).ok();
    let path = run.join("individuals.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let rows = read_csv(&path);
    // A torn last line (no newline: the process died mid-write) is ignored, even though its cut
    // number still parses.
    let torn = format!("{text}{}", &text.lines().nth(1).unwrap()[..12]);
    std::fs::write(&path, &torn).unwrap();
    cetune(&["report", r]).ok();
    // A damaged row inside the journal is an error naming its line, for report and resume.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[4] = lines[4].replacen(',', ",x", 2);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let out = cetune(&["report", r]);
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("individuals.csv:5: journal row is corrupt"), "{}", out.stderr);
    reopen(&run);
    let out = cetune(&["optimise", "--resume", r, "-q"]);
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("individuals.csv:5: journal row is corrupt"), "{}", out.stderr);
    assert_eq!(rows.len(), text.lines().count());
}

#[test]
fn compare_keeps_its_default_folder_inside_the_run_folder() {
    let set = linky_set("cmpname", 6);
    let run = beside(&set, "run");
    cetune(&run_args(set.to_str().unwrap(), run.to_str().unwrap(), &[])).ok();
    write(&set.join("goldset.yaml"), "name: ../../escaped\n");
    cetune(&["compare", "--goldset", set.to_str().unwrap(), "--run", run.to_str().unwrap(), "--top", "1", "-q"]).ok();
    assert!(run.join("compare-.._.._escaped/compare.csv").exists());
    assert!(!set.parent().unwrap().join("escaped").exists());
}
