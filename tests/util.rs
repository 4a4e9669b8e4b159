//! Helpers for the CLI tests: run the built binary, make temporary folders, write pages.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The outcome of one `cetune` invocation.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the built `cetune` with `args` in `cwd` (the repository root by default).
pub fn cetune(args: &[&str]) -> Run {
    cetune_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// Runs the built `cetune` in a given folder.
pub fn cetune_in(cwd: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_cetune")).args(args).current_dir(cwd).output().expect("run cetune");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

impl Run {
    /// Asserts success and returns stdout.
    pub fn ok(self) -> String {
        assert_eq!(self.code, 0, "cetune failed:\nstdout:\n{}\nstderr:\n{}", self.stdout, self.stderr);
        self.stdout
    }
}

/// Runs the built `cetune` with `args`; kills it and panics if it has not finished within
/// `limit` (a guard against hangs, not a speed target).
pub fn cetune_within(args: &[&str], limit: std::time::Duration) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cetune"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run cetune");
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("cetune {args:?} did not finish within {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A fresh temporary folder for one test.
pub fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cetune-it-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes a file, creating parent folders.
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// The shared real gold set `name`: in `../shared/goldsets`, or in `$CETUNE_SHARED_GOLDSETS`
/// (a git worktree beside the repository has no `../shared`).
pub fn shared(name: &str) -> PathBuf {
    let root = std::env::var_os("CETUNE_SHARED_GOLDSETS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/goldsets"));
    let p = root.join(name);
    assert!(p.is_dir(), "real-data test needs {}", p.display());
    p
}

/// Parses a CSV file into rows of fields (header included).
pub fn read_csv(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::ReaderBuilder::new().has_headers(false).from_path(path).unwrap();
    r.records().map(|rec| rec.unwrap().iter().map(String::from).collect()).collect()
}

/// `cetune evaluate --goldset SET -e EX --out OUT -q` plus `extra`; panics unless it succeeds and
/// returns its standard output.
pub fn evaluate(set: &Path, ex: &str, out: &Path, extra: &[&str]) -> String {
    let mut args = vec!["evaluate", "--goldset", set.to_str().unwrap(), "-e", ex, "--out", out.to_str().unwrap(), "-q"];
    args.extend_from_slice(extra);
    cetune(&args).ok()
}

/// A fresh output folder beside a test's gold set (outputs may never lie inside a gold set).
pub fn beside(set: &Path, name: &str) -> PathBuf {
    let d = set.with_file_name(format!("{}-{name}", set.file_name().unwrap().to_string_lossy()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A gold set whose best LQF threshold is not at a bound: pages mix navigation lists, link-rich
/// paragraphs and plain paragraphs.
pub fn linky_set(name: &str, pages: usize) -> PathBuf {
    let root = tmp(name);
    let words = ["river", "council", "market", "winter", "station", "garden", "harbour", "museum", "bridge", "school"];
    for k in 0..pages {
        let w = |i: usize| words[(k * 7 + i * 3) % words.len()];
        let body: Vec<String> = (0..6)
            .map(|i| {
                format!(
                    "The {} near the {} opened again after the {} was repaired by the city.",
                    w(i),
                    w(i + 1),
                    w(i + 2)
                )
            })
            .collect();
        let links =
            (0..(k % 5)).map(|i| format!("<a href=/x{i}>{} {}</a>", w(i), w(i + 4))).collect::<Vec<_>>().join(" ");
        let mixed = format!("<p>Readers also liked {links} and wrote to us about the {}.</p>", w(9));
        let nav = (0..(3 + k % 4)).map(|i| format!("<li><a href=/n{i}>{}</a></li>", w(i + 5))).collect::<String>();
        let html = format!(
            "<html><head><title>p{k}</title></head><body><ul>{nav}</ul><div><h1>{} {}</h1><p>{}</p>{mixed}<p>{}</p></div><footer><a href=/i>Imprint</a> text</footer></body></html>",
            w(1),
            w(2),
            body[..3].join(" "),
            body[3..].join(" ")
        );
        let gold = format!("{} {}\n{}\n{}", w(1), w(2), body[..3].join(" "), body[3..].join(" "));
        let pkg = if k % 3 == 0 { "news" } else { "blog" };
        write(&root.join(format!("{pkg}/{k:02}.html")), html);
        write(&root.join(format!("{pkg}/{k:02}.txt")), gold);
    }
    root
}

/// The README and the manual's pages (`docs/*.md`, in name order), joined: what the tests that
/// check a printed example against the code read, wherever the example now lives.
pub fn manual() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    let mut text = std::fs::read_to_string(root.join("README.md")).unwrap();
    for p in pages {
        text += "\n";
        text += &std::fs::read_to_string(p).unwrap();
    }
    text
}
