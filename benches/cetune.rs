//! `cargo bench`: the speed and memory figures of the README, measured on the shared real gold
//! sets (`../shared/goldsets`). Prints one table; every figure is the median of several runs.
//!
//! - HTML parse + document model throughput (MB/s), one thread and all threads;
//! - LCS words per second, bit-parallel vs the naive dynamic programme;
//! - one individual on a 120-document L3S-GN1 sample for every family, cold (parse included)
//!   and warm (documents parsed once);
//! - a whole default ACCB `optimise` run on that sample, parsing included (the CLI);
//! - `evaluate` over all of WCXB dev with peak resident memory (the CLI);
//! - cost against collection size: WCXB 120 / 500 / all documents.

use cetune::document::Document;
use cetune::eval::{GoldIndex, lcs_naive, tokens};
use cetune::extract;
use cetune::goldset::import::{Options, import};
use cetune::goldset::{native, sample};
use cetune::objective::{Corpus, score_corpus};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 { xs[n / 2] } else { (xs[n / 2 - 1] + xs[n / 2]) / 2.0 }
}

fn time<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let t = Instant::now();
    let r = f();
    (t.elapsed().as_secs_f64(), r)
}

fn row(what: &str, value: String, target: &str) {
    println!("| {what} | {value} | {target} |");
}

/// Runs the cetune binary, polling its peak resident memory; returns (seconds, peak MiB).
fn run_cli(args: &[&str]) -> (f64, f64) {
    let t = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_cetune"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run cetune");
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0f64;
    loop {
        if let Ok(s) = std::fs::read_to_string(&status_path)
            && let Some(l) = s.lines().find(|l| l.starts_with("VmHWM:"))
        {
            peak_kib = peak_kib.max(l.split_whitespace().nth(1).and_then(|x| x.parse().ok()).unwrap_or(0.0));
        }
        if let Some(st) = child.try_wait().unwrap() {
            assert!(st.success(), "cetune {args:?} failed");
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    (t.elapsed().as_secs_f64(), peak_kib / 1024.0)
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // cargo bench -- --list
    }
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/goldsets");
    assert!(shared.is_dir(), "the benchmarks read the real gold sets in {}", shared.display());
    let tmp = std::env::temp_dir().join(format!("cetune-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let opts = Options { keep_empty: false, force: true };
    let l3s = tmp.join("l3s");
    let wcxb = tmp.join("wcxb");
    import("l3s".parse().unwrap(), &shared.join("l3s-gn1"), &l3s, &opts).expect("import L3S-GN1");
    import("wcxb".parse().unwrap(), &shared.join("wcxb-dev"), &wcxb, &opts).expect("import WCXB dev");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "machine: {cores} cores; {}",
        std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|c| c.lines().find(|l| l.starts_with("model name")).map(|l| l
                .split(':')
                .nth(1)
                .unwrap_or("")
                .trim()
                .to_string()))
            .unwrap_or_default()
    );
    println!("\n| measure | median | target |\n|---|---|---|");

    // 1. Parse throughput.
    let set = native::open(&l3s, false).unwrap();
    let pages: Vec<String> = set.docs.iter().map(|d| d.read_page(&set.limits).unwrap().0).collect();
    let mb = pages.iter().map(String::len).sum::<usize>() as f64 / 1e6;
    let single = median(
        (0..3)
            .map(|_| time(|| pages.iter().take(150).map(|p| Document::parse(p).source.tokens.len()).sum::<usize>()).0)
            .collect(),
    );
    let mb150 = pages.iter().take(150).map(String::len).sum::<usize>() as f64 / 1e6;
    row("parse + document model, 1 thread (L3S-GN1)", format!("{:.1} MB/s", mb150 / single), "");
    let par = median(
        (0..3)
            .map(|_| {
                time(|| {
                    use rayon::prelude::*;
                    pages.par_iter().map(|p| Document::parse(p).dom.nodes.len()).sum::<usize>()
                })
                .0
            })
            .collect(),
    );
    row(&format!("parse + document model, {cores} threads (L3S-GN1, {mb:.0} MB)"), format!("{:.1} MB/s", mb / par), "");

    // 2. LCS.
    let pairs: Vec<(Vec<String>, Vec<String>)> = set
        .docs
        .iter()
        .zip(&pages)
        .take(40)
        .map(|(d, p)| {
            let doc = Document::parse(p);
            let text = doc.dom.texts.render(&(0..doc.dom.texts.len() as u32).collect::<Vec<_>>());
            (tokens(&d.gold, set.token_rule), tokens(&text, set.token_rule))
        })
        .collect();
    let words: f64 = pairs.iter().map(|(_, e)| e.len() as f64).sum();
    let bp =
        median((0..5).map(|_| time(|| pairs.iter().map(|(g, e)| GoldIndex::new(g).lcs(e)).sum::<usize>()).0).collect());
    let nv = median((0..3).map(|_| time(|| pairs.iter().map(|(g, e)| lcs_naive(g, e)).sum::<usize>()).0).collect());
    row("LCS bit-parallel (index + length)", format!("{:.2} M extract words/s", words / bp / 1e6), "");
    row("LCS naive DP", format!("{:.3} M extract words/s ({:.0}x slower)", words / nv / 1e6, nv / bp), "");

    // 3. One individual on a 120-document sample, every family.
    let picked = sample::sample(&set, 120, 1);
    let corpus = Corpus::load(&set, &picked, &|| {});
    for name in extract::names() {
        let ex = extract::build(&cetune::extract::space(name).unwrap().defaults()).unwrap();
        let warm = median((0..5).map(|_| time(|| score_corpus(&corpus, ex.as_ref()).len()).0).collect());
        let cold = median(
            (0..3)
                .map(|_| {
                    time(|| {
                        let c = Corpus::load(&set, &picked, &|| {});
                        score_corpus(&c, ex.as_ref()).len()
                    })
                    .0
                })
                .collect(),
        );
        let target = if matches!(name, "accb" | "tccb") { "<= 100 ms warm" } else { "" };
        row(
            &format!("one {name} individual, 120 L3S docs: warm / cold"),
            format!("{:.1} ms / {:.0} ms", warm * 1e3, cold * 1e3),
            target,
        );
    }

    // The widest blur the ACCB/CCB ranges allow (r = 300): the cost must not grow with r.
    for name in ["ccb", "accb"] {
        let space = cetune::extract::space(name).unwrap();
        let wide = space.with_assignments(&space.defaults(), &["r=300".to_string(), "t=0.6".to_string()]).unwrap();
        let ex = extract::build(&wide).unwrap();
        let warm = median((0..5).map(|_| time(|| score_corpus(&corpus, ex.as_ref()).len()).0).collect());
        row(&format!("one {name} individual at r = 300, 120 L3S docs: warm"), format!("{:.1} ms", warm * 1e3), "");
    }

    // A combination of six members (params/combine.yaml, every member on, weighted vote): a warm
    // individual that changes one member's parameter re-runs only that member; the others come
    // from the member-output cache. Without the cache every member runs.
    let space = cetune::extract::space("combine").unwrap();
    let individual = |k: usize| {
        let t = format!("tccb.t={:.2}", 0.40 + 0.01 * k as f64);
        let s = space.with_assignments(&space.defaults(), &[t]).unwrap();
        extract::build(&s).unwrap()
    };
    score_corpus(&corpus, individual(0).as_ref());
    let cached = median(
        (1..=7)
            .map(|k| {
                let ex = individual(k);
                time(|| score_corpus(&corpus, ex.as_ref()).len()).0
            })
            .collect(),
    );
    extract::combine::set_cache_limit(0);
    let uncached = median(
        (1..=3)
            .map(|k| {
                let ex = individual(k);
                time(|| score_corpus(&corpus, ex.as_ref()).len()).0
            })
            .collect(),
    );
    extract::combine::set_cache_limit(extract::combine::DEFAULT_CACHE_MB << 20);
    row(
        "one combine individual (6 members, one changed), 120 L3S docs: warm with member cache / without",
        format!("{:.1} ms / {:.1} ms", cached * 1e3, uncached * 1e3),
        "<= 30 ms warm with cache",
    );

    // 4. A whole default ACCB optimise run on the sample, parsing included.
    let sample_dir = tmp.join("l3s-120");
    native::copy_docs(&set, &picked, &sample_dir, "bench sample".into(), true).unwrap();
    let runs: Vec<f64> = (0..3)
        .map(|k| {
            let out = tmp.join(format!("opt{k}"));
            run_cli(&[
                "optimise",
                "--params",
                "params/accb.yaml",
                "--goldset",
                sample_dir.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "-q",
                "--force",
            ])
            .0
        })
        .collect();
    row("default ACCB optimise on 120 L3S docs (CLI, parse + reports)", format!("{:.1} s", median(runs)), "<= 60 s");

    // 5. evaluate over all of WCXB dev, and 6. scaling.
    let wset = native::open(&wcxb, false).unwrap();
    for ex in ["accb", "lqf"] {
        let r: Vec<(f64, f64)> = (0..3)
            .map(|_| {
                run_cli(&[
                    "evaluate",
                    "--goldset",
                    wcxb.to_str().unwrap(),
                    "-e",
                    ex,
                    "--out",
                    tmp.join("ev").to_str().unwrap(),
                    "-q",
                ])
            })
            .collect();
        let secs = median(r.iter().map(|x| x.0).collect());
        let mem = median(r.iter().map(|x| x.1).collect());
        row(
            &format!("evaluate {ex} on all {} WCXB dev docs (CLI)", wset.docs.len()),
            format!("{secs:.1} s, peak {mem:.0} MiB"),
            "<= 15 s, <= 2 GB",
        );
    }
    for n in [120usize, 500] {
        let dir: PathBuf = tmp.join(format!("wcxb-{n}"));
        native::copy_docs(&wset, &sample::sample(&wset, n, 1), &dir, "bench sample".into(), true).unwrap();
        let secs = median(
            (0..3)
                .map(|_| {
                    run_cli(&[
                        "evaluate",
                        "--goldset",
                        dir.to_str().unwrap(),
                        "-e",
                        "accb",
                        "--out",
                        tmp.join("ev").to_str().unwrap(),
                        "-q",
                    ])
                    .0
                })
                .collect(),
        );
        row(
            &format!("evaluate accb on {n} WCXB dev docs (CLI)"),
            format!("{secs:.2} s ({:.1} ms/doc)", secs * 1e3 / n as f64),
            "linear",
        );
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
