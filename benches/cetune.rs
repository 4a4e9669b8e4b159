//! `cargo bench`: the speed and memory figures of the README, measured on the shared real gold
//! sets (`../shared/goldsets`). Prints one table; every figure is the median of several runs.
//!
//! - HTML parse + document model throughput (MB/s), one thread and all threads;
//! - LCS words per second, bit-parallel vs the naive dynamic programme;
//! - one individual on a 120-document L3S-GN1 sample for every family, cold (parse included)
//!   and warm (documents parsed once);
//! - a whole default ACCB `optimise` run on that sample, parsing included (the CLI);
//! - `evaluate` over all of WCXB dev with peak resident memory (the CLI);
//! - cost against collection size: WCXB 120 / 500 / all documents;
//! - `extract` over collections (issue 15): pages/s over the 621 L3S-GN1 pages with the tuned
//!   TCCB setting, beside trafilatura's parallel CLI and Resiliparse (when `CETUNE_BENCH_VENV`
//!   names a virtual environment holding both), and peak memory over 621 pages, over 10,000+
//!   pages and over a WARC.gz of `CETUNE_BENCH_WARC_MB` (1024) MB made from the pages: memory
//!   must not grow with the count.
//!
//! - the targets of issue 25 (`cargo bench -- targets` runs only these; `targets general`, issue
//!   37's: the general model against tuned readability, one thread; `targets markdown`, issue
//!   42's: `--format markdown` against `txt`, one thread): `extract` with the tuned
//!   readability and TCCB settings over the WCXB dev pages as a folder beside trafilatura's CLI
//!   with `--parallel 2` (found through `CETUNE_BENCH_TRAFILATURA`, else `CETUNE_BENCH_VENV`'s
//!   `bin/trafilatura`; skipped with a message without either), parsing for one view only, the
//!   peak memory of `optimise` on WCXB dev against its HTML, and the first README command on a
//!   clean clone (with `CETUNE_BENCH_CLEAN_CLONE=1`: it builds everything from scratch).
//!   `cargo bench -- targets parse extract` runs only those parts (of `extract`, `parse`,
//!   `optimise`, `clone`, `general`, `markdown`); `CETUNE_BENCH_RUNS=1` times each extract and parse row once.
//!
//! - `cargo bench -- external`: the external extractors' JSON-lines protocol, cost per page with
//!   a trivial Python worker (issue 27; runs only this).
//!
//! `cargo bench -- collect` runs only the collection part; `cargo bench -- families [NAME ...]` only the
//! per-family individuals (of the families named, or all; `cetr:variant=tm` sets parameters), as
//! does `CETUNE_BENCH_FAMILIES=dsc,cetr cargo bench`.

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

/// The medians of the first and of the second figures of `xs` (wall and CPU seconds).
fn medians(xs: Vec<(f64, f64)>) -> (f64, f64) {
    (median(xs.iter().map(|x| x.0).collect()), median(xs.iter().map(|x| x.1).collect()))
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

/// One individual of each family in `names` at its defaults on the 120-document L3S-GN1 sample
/// (seed 1): warm (documents parsed once) and cold (parsing included).
fn individuals(set: &cetune::goldset::GoldSet, names: &[&str]) {
    let picked = sample::sample(set, 120, 1);
    let corpus = Corpus::load(set, &picked, &|| {});
    for &spec in names {
        // `name`, `name:key=value,key=value` (a setting other than the defaults) or `@FILE` (a
        // settings file such as a run's best.yaml, with the fitted model it names).
        let (name, ex) = match spec.strip_prefix('@') {
            Some(file) => {
                let f = cetune::extract::load_file(&cetune::extract::Engine::default(), Path::new(file)).unwrap();
                (f.space.extractor.clone(), extract::build(&cetune::extract::Engine::default(), &f.setting).unwrap())
            }
            None => {
                let (name, sets) = spec.split_once(':').unwrap_or((spec, ""));
                let space = cetune::extract::space(name).unwrap();
                let sets: Vec<String> = sets.split(',').filter(|s| !s.is_empty()).map(String::from).collect();
                (
                    name.to_string(),
                    extract::build(
                        &cetune::extract::Engine::default(),
                        &space.with_assignments(&space.defaults(), &sets).unwrap(),
                    )
                    .unwrap(),
                )
            }
        };
        let name = name.as_str();
        let warm = median((0..5).map(|_| time(|| score_corpus(&corpus, ex.as_ref()).len()).0).collect());
        let cold = median(
            (0..3)
                .map(|_| {
                    time(|| {
                        let c = Corpus::load(set, &picked, &|| {});
                        score_corpus(&c, ex.as_ref()).len()
                    })
                    .0
                })
                .collect(),
        );
        let target = match name {
            "accb" | "tccb" => "<= 100 ms warm",
            "justext" | "boilerpipe" | "readability" | "dsc" | "cetr" | "baisa_diff" => "<= 10 ms warm",
            "blogbuster" => "<= 240 ms warm (2 ms a page)",
            "route" => "<= 50 ms warm",
            _ => "",
        };
        row(
            &format!("one {spec} individual, 120 L3S docs: warm / cold"),
            format!("{:.1} ms / {:.0} ms", warm * 1e3, cold * 1e3),
            target,
        );
    }
}

/// `blogbuster` where it fires: L3S-GN1 holds almost no blog (it fires on 1 % of its pages),
/// so the synthetic blog set (135 pages, posts on 88 of them) is its honest timing.
fn blog_pages() {
    let set = native::open(&Path::new(env!("CARGO_MANIFEST_DIR")).join("goldsets/blogs"), false).unwrap();
    let picked = sample::sample(&set, 120, 1);
    let corpus = Corpus::load(&set, &picked, &|| {});
    for sets in [&[][..], &["post_tags=div+article".to_string(), "child_select=longest".to_string()][..]] {
        let space = cetune::extract::space("blogbuster").unwrap();
        let ex = extract::build(
            &cetune::extract::Engine::default(),
            &space.with_assignments(&space.defaults(), sets).unwrap(),
        )
        .unwrap();
        let warm = median((0..5).map(|_| time(|| score_corpus(&corpus, ex.as_ref()).len()).0).collect());
        row(
            &format!(
                "one blogbuster individual ({}), 120 synthetic blog pages: warm",
                if sets.is_empty() { "paper" } else { "modern" }
            ),
            format!("{:.1} ms ({:.3} ms a page)", warm * 1e3, warm * 1e3 / 120.0),
            "<= 2 ms a page",
        );
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // cargo bench -- --list
    }
    let only_collect = std::env::args().skip(1).any(|a| a == "collect");
    let only_targets = std::env::args().skip(1).any(|a| a == "targets");
    let words: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let only_families = words.first().is_some_and(|a| a == "families");
    let named: Vec<&str> = words.iter().skip(1).map(String::as_str).collect();
    // CETUNE_BENCH_GOLDSETS: the shared gold sets elsewhere (a git worktree has no `../shared`).
    let shared = std::env::var_os("CETUNE_BENCH_GOLDSETS")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/goldsets"), PathBuf::from);
    assert!(shared.is_dir(), "the benchmarks read the real gold sets in {}", shared.display());
    let tmp = std::env::temp_dir().join(format!("cetune-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let opts = Options { keep_empty: false, force: true };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if only_collect {
        println!("machine: {cores} cores; {}\n\n| measure | median | target |\n|---|---|---|", cpu_model());
        collect_bench(&shared, &tmp);
        let _ = std::fs::remove_dir_all(&tmp);
        return;
    }
    if only_targets {
        println!("machine: {cores} cores; {}; {}\n", cpu_model(), load());
        // `cargo bench -- targets parse optimise`: only those parts (extract, parse, optimise, clone).
        let parts: Vec<&str> = words.iter().skip(1).map(String::as_str).collect();
        targets_bench(&shared, &tmp, &parts);
        let _ = std::fs::remove_dir_all(&tmp);
        return;
    }
    if std::env::args().skip(1).any(|a| a == "external") {
        println!("machine: {cores} cores; {}; {}\n", cpu_model(), load());
        external_bench(&tmp);
        let _ = std::fs::remove_dir_all(&tmp);
        return;
    }
    let l3s = tmp.join("l3s");
    let wcxb = tmp.join("wcxb");
    import("l3s".parse().unwrap(), &shared.join("l3s-gn1"), &l3s, &opts).expect("import L3S-GN1");
    let env_named = std::env::var("CETUNE_BENCH_FAMILIES").ok();
    if only_families || env_named.is_some() {
        println!("machine: {cores} cores; {}\n\n| measure | median | target |\n|---|---|---|", cpu_model());
        let set = native::open(&l3s, false).unwrap();
        let mut names: Vec<&str> = env_named.as_deref().map_or(named, |n| n.split(',').collect());
        if names.is_empty() {
            names = extract::names();
        }
        individuals(&set, &names);
        if names.contains(&"blogbuster") {
            blog_pages();
        }
        let _ = std::fs::remove_dir_all(&tmp);
        return;
    }
    import("wcxb".parse().unwrap(), &shared.join("wcxb-dev"), &wcxb, &opts).expect("import WCXB dev");
    println!("machine: {cores} cores; {}", cpu_model());
    println!("\n| measure | median | target |\n|---|---|---|");
    let set = native::open(&l3s, false).unwrap();
    parse_and_lcs(&set, cores);

    // 3. One individual on a 120-document sample, every family.
    let picked = sample::sample(&set, 120, 1);
    let corpus = Corpus::load(&set, &picked, &|| {});
    individuals(&set, &extract::names());

    // The widest blur the ACCB/CCB ranges allow (r = 300): the cost must not grow with r.
    for name in ["ccb", "accb"] {
        let space = cetune::extract::space(name).unwrap();
        let wide = space.with_assignments(&space.defaults(), &["r=300".to_string(), "t=0.6".to_string()]).unwrap();
        let ex = extract::build(&cetune::extract::Engine::default(), &wide).unwrap();
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
        extract::build(&cetune::extract::Engine::default(), &s).unwrap()
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
    corpus.share_memo(0);
    let uncached = median(
        (1..=3)
            .map(|k| {
                let ex = individual(k);
                time(|| score_corpus(&corpus, ex.as_ref()).len()).0
            })
            .collect(),
    );
    corpus.share_memo(cetune::objective::corpus::MEMO_MB << 20);
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
                    "--force",
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
                        "--force",
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

    collect_bench(&shared, &tmp);
    println!();
    targets_bench(&shared, &tmp, &[]);
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The load averages (`/proc/loadavg`): every figure is printed with the machine's load.
fn load() -> String {
    let l = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    format!("load average {}", l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
}

/// The CPU seconds (user and system) of the child processes waited for so far, with theirs
/// (`cutime` and `cstime` in `/proc/self/stat`, at 100 ticks a second).
fn children_cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<f64> = rest.split_whitespace().map(|x| x.parse().unwrap_or(0.0)).collect();
    // cutime and cstime are fields 16 and 17 of the line; `rest` starts at field 3.
    (f.get(13).copied().unwrap_or(0.0) + f.get(14).copied().unwrap_or(0.0)) / 100.0
}

/// The figure for the first README command when it was filed.
const TODAY_CLONE: &str = "4 min 16 s (1 min 52 s with crates cached)";

/// The rows of issue 25's targets table, each beside its target (and moonshot), with the load
/// average measured right after it. `parts` picks some of `extract`, `parse`, `optimise` and
/// `clone` (none: all of them).
fn targets_bench(shared: &Path, tmp: &Path, parts: &[&str]) {
    let part = |p: &str| parts.is_empty() || parts.contains(&p);
    println!(
        "| measure (issue 25) | today (the issue) | median | target (moonshot) | load after |\n|---|---|---|---|---|"
    );
    // `today` is the figure when it was filed, so each row shows where it started.
    let trow = |what: &str, today: &str, value: String, target: &str| {
        println!("| {what} | {today} | {value} | {target} | {} |", load())
    };
    // The WCXB dev pages as a folder of plain .html files, which both tools read.
    let pages = tmp.join("wcxb-pages");
    std::fs::create_dir_all(&pages).unwrap();
    let mut n = 0usize;
    for e in std::fs::read_dir(shared.join("wcxb-dev/html")).unwrap() {
        let p = e.unwrap().path();
        let bytes = std::fs::read(&p).unwrap();
        let html = if p.extension().is_some_and(|x| x == "gz") {
            use std::io::Read;
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(&bytes[..]).read_to_end(&mut out).unwrap();
            out
        } else {
            bytes
        };
        let name = p.file_name().unwrap().to_string_lossy().trim_end_matches(".gz").to_string();
        std::fs::write(pages.join(name), html).unwrap();
        n += 1;
    }
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/reference");
    // CETUNE_BENCH_RUNS (3) runs of each timing, for a shorter run on a loaded machine.
    let runs: usize = std::env::var("CETUNE_BENCH_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    let extract = |family: &str| {
        let out = tmp.join(format!("out-{family}/"));
        let best = reference.join(family).join("best.yaml");
        let runs: Vec<(f64, f64)> = (0..runs)
            .map(|_| {
                let _ = std::fs::remove_dir_all(&out);
                let cpu = children_cpu();
                let wall = run_cli(&[
                    "extract",
                    "--params",
                    best.to_str().unwrap(),
                    "--threads",
                    "2",
                    "-q",
                    "--out",
                    out.to_str().unwrap(),
                    pages.to_str().unwrap(),
                ])
                .0;
                (wall, children_cpu() - cpu)
            })
            .collect();
        medians(runs)
    };
    // One-thread `extract` of the pages with `setting` (medians of wall and CPU seconds); CPU
    // time is the steadier measure on a shared machine.
    let one_thread = |setting: &[&str]| {
        let out = tmp.join("out-one-thread/");
        let runs: Vec<(f64, f64)> = (0..runs)
            .map(|_| {
                let _ = std::fs::remove_dir_all(&out);
                let cpu = children_cpu();
                let args = [&["extract"], setting, &["--threads", "1", "-q", "--out", out.to_str().unwrap()]].concat();
                let wall = run_cli(&[&args[..], &[pages.to_str().unwrap()]].concat()).0;
                (wall, children_cpu() - cpu)
            })
            .collect();
        medians(runs)
    };
    // A row comparing two such runs: `a` against `b`.
    let versus = |what: String, (a_name, a): (&str, (f64, f64)), (b_name, b): (&str, (f64, f64)), target: &str| {
        trow(
            &what,
            "-",
            format!(
                "{:.2}x CPU ({:.2}x wall): {a_name} {:.2} s CPU, {b_name} {:.2} s CPU",
                a.1 / b.1,
                a.0 / b.0,
                a.1,
                b.1
            ),
            target,
        )
    };
    // Issue 37: the general model (no --params: the default) against tuned readability.
    if part("general") {
        let best = reference.join("readability/best.yaml");
        let rd = one_thread(&["--params", best.to_str().unwrap()]);
        let general = one_thread(&[]);
        versus(
            format!("extract with the general model vs tuned readability, {n} WCXB dev pages, one thread (issue 37)"),
            ("general", general),
            ("readability", rd),
            "<= 1.5x",
        );
    }
    // Issue 42: `--format markdown` against `txt`, `-e full`, on the same pages.
    if part("markdown") {
        let txt = one_thread(&["-e", "full", "--format", "txt"]);
        let md = one_thread(&["-e", "full", "--format", "markdown"]);
        versus(
            format!("extract --format markdown vs txt, -e full, {n} WCXB dev pages, one thread (issue 42)"),
            ("markdown", md),
            ("txt", txt),
            "<= 1.2x",
        );
    }
    if part("extract") {
        let rd = extract("readability");
        let tccb = extract("tccb");
        let traf = std::env::var_os("CETUNE_BENCH_TRAFILATURA")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("CETUNE_BENCH_VENV").map(|v| PathBuf::from(v).join("bin/trafilatura")))
            .filter(|p| p.exists());
        let traf_secs = traf.map(|t| {
            medians(
                (0..runs)
                    .map(|_| {
                        let out = tmp.join("out-trafilatura");
                        let _ = std::fs::remove_dir_all(&out);
                        let (started, cpu) = (Instant::now(), children_cpu());
                        let st = Command::new(&t)
                            .args([
                                "--input-dir",
                                pages.to_str().unwrap(),
                                "-o",
                                out.to_str().unwrap(),
                                "--parallel",
                                "2",
                            ])
                            .stdout(Stdio::null())
                            .stderr(Stdio::null())
                            .status()
                            .expect("run trafilatura");
                        assert!(st.success(), "trafilatura failed");
                        (started.elapsed().as_secs_f64(), children_cpu() - cpu)
                    })
                    .collect(),
            )
        });
        for (family, secs, today, target) in
            [("readability", rd, "6.4-7.0x", ">= 10x (>= 20x)"), ("tccb", tccb, "-", ">= 20x (>= 40x)")]
        {
            let value = match traf_secs {
                // Wall time and CPU time (of each tool and its child processes): on a shared
                // machine the CPU time is the steadier of the two.
                Some((t, tc)) => format!(
                    "{:.1}x wall, {:.1}x CPU: cetune {:.2} s ({:.2} s CPU), trafilatura --parallel 2 {t:.1} s ({tc:.1} s CPU)",
                    t / secs.0,
                    tc / secs.1,
                    secs.0,
                    secs.1
                ),
                None => format!(
                    "cetune {:.2} s ({:.2} s CPU); trafilatura skipped: set CETUNE_BENCH_TRAFILATURA (or CETUNE_BENCH_VENV) to run it",
                    secs.0, secs.1
                ),
            };
            trow(
                &format!("extract, tuned {family}, {n} WCXB dev pages as a folder, 2 threads, vs trafilatura"),
                today,
                value,
                target,
            );
        }
    }
    if part("parse") {
        // Parsing for one view only, 1 thread, over the same pages.
        let texts: Vec<String> = std::fs::read_dir(&pages)
            .unwrap()
            .map(|e| cetune::goldset::decode::decode_html(&std::fs::read(e.unwrap().path()).unwrap()).0)
            .collect();
        let mb = texts.iter().map(String::len).sum::<usize>() as f64 / 1e6;
        let limits = cetune::limits::Limits::default();
        let needs_of = |family: &str| {
            let setting = cetune::extract::load_file(
                &cetune::extract::Engine::default(),
                &reference.join(family).join("best.yaml"),
            )
            .unwrap();
            extract::build(&cetune::extract::Engine::default(), &setting.space.defaults()).unwrap().needs()
        };
        for (what, needs, today, target) in [
            ("the source view only (TCCB's needs)", needs_of("tccb"), "~24 MB/s both views", ">= 40 MB/s (>= 80 MB/s)"),
            (
                "the DOM view only (readability's needs)",
                needs_of("readability"),
                "~24 MB/s both views",
                ">= 40 MB/s (>= 80 MB/s)",
            ),
            ("both views and every fact (before issue 25)", cetune::document::Needs::ALL, "~24 MB/s", ""),
        ] {
            let secs = median(
                (0..runs)
                    .map(|_| {
                        time(|| {
                            texts
                                .iter()
                                .map(|p| Document::parse_for(p, &limits, needs).0.source.tokens.len())
                                .sum::<usize>()
                        })
                        .0
                    })
                    .collect(),
            );
            trow(&format!("parse for {what}, 1 thread, {mb:.0} MB"), today, format!("{:.1} MB/s", mb / secs), target);
        }
        // What the parse spends before either view: the budgets' pre-scan (attributes, markup,
        // depth), one lexer pass over the tags for each.
        let secs = median(
            (0..runs)
                .map(|_| {
                    time(|| texts.iter().map(|p| cetune::document::budget::apply(p, &limits).0.len()).sum::<usize>()).0
                })
                .collect(),
        );
        trow(
            &format!("of which the budgets' pre-scan, 1 thread, {mb:.0} MB"),
            "",
            format!("{:.1} MB/s", mb / secs),
            "",
        );
        drop(texts);
    }
    if part("optimise") {
        // optimise's peak memory on all of WCXB dev, as run.yaml reports it.
        let wcxb = tmp.join("wcxb-native");
        if !wcxb.join("goldset.yaml").exists() {
            let opts = Options { keep_empty: false, force: true };
            import("wcxb".parse().unwrap(), &shared.join("wcxb-dev"), &wcxb, &opts).expect("import WCXB dev");
        }
        // A source-view family, a DOM family, and the learned block model, whose fits add the
        // binned training rows of each `hidden_text` (one generation of 4: its fits take minutes).
        for (family, generations, population) in
            [("tccb", "2", None), ("readability", "2", None), ("blocktrees", "1", Some("4"))]
        {
            let out = tmp.join(format!("opt-{family}"));
            let yaml = format!("params/{family}.yaml");
            let mut args = vec![
                "optimise",
                "--params",
                &yaml,
                "--goldset",
                wcxb.to_str().unwrap(),
                "--max-generations",
                generations,
                "--out",
                out.to_str().unwrap(),
                "-q",
                "--force",
            ];
            if let Some(p) = population {
                args.extend(["--population", p]);
            }
            let (secs, peak) = run_cli(&args);
            let run = std::fs::read_to_string(out.join("run.yaml")).unwrap();
            let field = |k: &str| {
                run.lines()
                    .find_map(|l| l.trim().strip_prefix(&format!("{k}:")))
                    .map_or("?".to_string(), |v| v.trim().to_string())
            };
            trow(
                &format!(
                    "optimise {family} on all WCXB dev ({generations} generation(s){}), peak memory against the HTML",
                    population.map_or(String::new(), |p| format!(" of {p}"))
                ),
                "3.0x HTML (TCCB)",
                format!(
                    "{}x HTML: peak {} MB for {} MB of HTML, {} KB per page (run.yaml; polled {peak:.0} MiB, {secs:.0} s)",
                    field("per_html_mb"),
                    field("peak_rss_mb"),
                    field("html_mb"),
                    field("per_page_kb")
                ),
                "<= 1.5x (<= 0.75x)",
            );
        }
    }
    // The first README command on a clean clone: builds everything (crates from the local cache).
    if part("clone") {
        if std::env::var_os("CETUNE_BENCH_CLEAN_CLONE").is_some() {
            let clone = tmp.join("clone");
            let root = env!("CARGO_MANIFEST_DIR");
            let st =
                Command::new("git").args(["clone", "-q", root, clone.to_str().unwrap()]).status().expect("git clone");
            assert!(st.success(), "git clone failed");
            let (before, cpu) = (load(), children_cpu());
            let started = Instant::now();
            let st = Command::new("cargo")
                .args(["run", "--release", "--", "optimise", "--params", "params/accb.yaml", "-q"])
                .current_dir(&clone)
                .env_remove("CARGO_TARGET_DIR")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .expect("cargo run");
            assert!(st.success(), "the first README command failed on a clean clone");
            // The CPU time of the build and the run (every process cargo waited for) bounds the
            // wall time on an idle machine from below by half of it on two cores.
            trow(
                "first README command on a clean clone (cargo run --release -- optimise --params params/accb.yaml), crates cached",
                TODAY_CLONE,
                format!(
                    "{:.0} s ({:.0} s of CPU; {before} before)",
                    started.elapsed().as_secs_f64(),
                    children_cpu() - cpu
                ),
                "<= 150 s (<= 90 s)",
            );
        } else {
            trow(
                "first README command on a clean clone",
                TODAY_CLONE,
                "skipped: set CETUNE_BENCH_CLEAN_CLONE=1 (a full build)".into(),
                "<= 150 s (<= 90 s)",
            );
        }
    }
}

/// `cargo bench -- external`: the worker protocol's cost per page (issue 27's target, <= 0.5 ms):
/// a trivial Python worker (it answers every page with the empty text) on small pages, one
/// thread, against the `full` family on the same parsed pages; the difference is the round trip
/// (JSON encoding, two pipes, the worker's JSON decoding and encoding) plus the alignment of an
/// empty text.
fn external_bench(tmp: &Path) {
    let worker = tmp.join("null_worker.py");
    std::fs::create_dir_all(tmp).unwrap();
    std::fs::write(
        &worker,
        "import json, sys\nprint(json.dumps({'name': 'null', 'version': '0'}), flush=True)\nfor line in sys.stdin:\n    print(json.dumps({'id': json.loads(line)['id'], 'text': ''}), flush=True)\n",
    )
    .unwrap();
    let yaml = format!("extractor: external\ncommand: python3 {}\n", worker.display());
    let ext = extract::build(
        &cetune::extract::Engine::default(),
        &extract::parse_str(&yaml, Path::new("null.yaml")).unwrap().setting,
    )
    .unwrap();
    let full =
        extract::build(&cetune::extract::Engine::default(), &extract::space("full").unwrap().defaults()).unwrap();
    let pages: Vec<Document> = (0..2000)
        .map(|i| {
            let html = format!("<html><body><p>page {i}: a short paragraph of a few words</p></body></html>");
            let needs = ext.needs() | full.needs();
            Document::parse_for(&html, &cetune::limits::Limits::default(), needs).0
        })
        .collect();
    let per_page = |ex: &dyn extract::Extractor| {
        median(
            (0..5)
                .map(|_| {
                    time(|| pages.iter().map(|d| extract::extract_text(ex, d).map_or(0, |t| t.len())).sum::<usize>()).0
                })
                .collect(),
        ) / pages.len() as f64
    };
    let (e, f) = (per_page(ext.as_ref()), per_page(full.as_ref()));
    row(
        "external worker protocol, per page (trivial Python worker, 1 thread, minus `full`)",
        format!("{:.3} ms ({:.3} - {:.3})", (e - f) * 1e3, e * 1e3, f * 1e3),
        "<= 0.5 ms",
    );
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_default()
}

/// `extract` over collections (issue 15): throughput against trafilatura and Resiliparse, and
/// the memory bound (the same peak over 621 pages, 10,000+ pages and a 1 GB WARC.gz).
fn collect_bench(shared: &Path, tmp: &Path) {
    let input = shared.join("l3s-gn1/input");
    let pages = std::fs::read_dir(&input).unwrap().count();
    let best = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/reference/tccb/best.yaml");
    let extract = |threads: &str, what: &Path| {
        run_cli(&[
            "extract",
            "--params",
            best.to_str().unwrap(),
            "--format",
            "jsonl",
            "--threads",
            threads,
            "-q",
            what.to_str().unwrap(),
        ])
    };
    let two: Vec<(f64, f64)> = (0..5).map(|_| extract("2", &input)).collect();
    let secs2 = median(two.iter().map(|r| r.0).collect());
    let mem_small = median(two.iter().map(|r| r.1).collect());
    row(
        &format!("extract --format jsonl, tuned TCCB, {pages} L3S-GN1 pages, 2 threads (CLI)"),
        format!("{:.0} pages/s ({secs2:.2} s), peak {mem_small:.0} MiB", pages as f64 / secs2),
        ">= 400 pages/s",
    );
    let one = median((0..3).map(|_| extract("1", &input).0).collect());
    row("the same, 1 thread: per page", format!("{:.2} ms", one * 1e3 / pages as f64), "<= Resiliparse's");
    match std::env::var_os("CETUNE_BENCH_VENV").map(PathBuf::from) {
        Some(venv) => {
            let (traf, res1, res2) = python_baselines(&venv, &input, tmp);
            row(
                "trafilatura CLI --parallel 2, same folder",
                format!("{:.1} pages/s ({traf:.1} s); cetune is {:.1}x faster", pages as f64 / traf, traf / secs2),
                "cetune >= 10x",
            );
            row(
                "Resiliparse main content, 1 process: per page",
                format!("{:.2} ms; cetune is {:.1}x faster", res1 * 1e3 / pages as f64, res1 / one),
                "",
            );
            row(
                "Resiliparse main content, 2 processes",
                format!("{:.0} pages/s ({res2:.2} s)", pages as f64 / res2),
                "",
            );
        }
        None => row("trafilatura, Resiliparse", "skipped: set CETUNE_BENCH_VENV to a venv with both".into(), ""),
    }
    // 10,000+ pages: the folder repeated (hard links, else copies).
    let many = tmp.join("l3s-many");
    let copies = 10_000usize.div_ceil(pages);
    for k in 0..copies {
        let dir = many.join(format!("copy{k:02}"));
        std::fs::create_dir_all(&dir).unwrap();
        for e in std::fs::read_dir(&input).unwrap() {
            let p = e.unwrap().path();
            let to = dir.join(p.file_name().unwrap());
            if std::fs::hard_link(&p, &to).is_err() {
                std::fs::copy(&p, &to).unwrap();
            }
        }
    }
    let (secs, mem_many) = extract("2", &many);
    row(
        &format!("peak memory over {} pages (the folder {copies} times), 2 threads", copies * pages),
        format!("{mem_many:.0} MiB ({:.0} pages/s); {mem_small:.0} MiB over {pages}", (copies * pages) as f64 / secs),
        "<= 300 MB, independent of the count",
    );
    let _ = std::fs::remove_dir_all(&many);
    // A WARC.gz made from the pages, one gzip member per record (as Common Crawl).
    let mb: u64 = std::env::var("CETUNE_BENCH_WARC_MB").ok().and_then(|v| v.parse().ok()).unwrap_or(1024);
    let warc = tmp.join("l3s.warc.gz");
    let records = write_warc(&input, &warc, mb << 20);
    let (secs, mem_warc) = extract("2", &warc);
    row(
        &format!(
            "a {:.0} MB WARC.gz of {records} response records, 2 threads",
            std::fs::metadata(&warc).unwrap().len() as f64 / 1e6
        ),
        format!("{secs:.0} s ({:.0} pages/s), peak {mem_warc:.0} MiB", records as f64 / secs),
        "the same peak memory",
    );
    let _ = std::fs::remove_file(&warc);
    // The memory bound is a check, not only a figure: within 300 MB and not growing with the
    // count (a few MiB of allocator noise allowed).
    for (what, mem) in [("10,000+ pages", mem_many), ("the WARC.gz", mem_warc)] {
        assert!(
            mem <= 300.0 && mem <= 2.0 * mem_small + 32.0,
            "peak memory over {what}: {mem:.0} MiB, over {pages} pages {mem_small:.0} MiB"
        );
    }
}

/// Writes the folder's pages as WARC response records, gzipped one member per record, until the
/// file reaches `bytes`; returns the number of records.
fn write_warc(input: &Path, out: &Path, bytes: u64) -> u64 {
    use std::io::Write;
    let pages: Vec<Vec<u8>> =
        std::fs::read_dir(input).unwrap().map(|e| std::fs::read(e.unwrap().path()).unwrap()).collect();
    let mut f = std::io::BufWriter::new(std::fs::File::create(out).unwrap());
    let (mut written, mut n) = (0u64, 0u64);
    while written < bytes {
        let page = &pages[n as usize % pages.len()];
        let rec = cetune::collect::warc::response_record(
            &format!("http://example.org/{n}"),
            &format!("{n:08}"),
            "text/html",
            page,
        );
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&rec).unwrap();
        let gz = e.finish().unwrap();
        f.write_all(&gz).unwrap();
        written += gz.len() as u64;
        n += 1;
    }
    f.flush().unwrap();
    n
}

/// Wall seconds of trafilatura's parallel CLI (2 processes) and of Resiliparse (1 and 2
/// processes) over the folder, each the median of 3 runs.
fn python_baselines(venv: &Path, input: &Path, tmp: &Path) -> (f64, f64, f64) {
    let traf = median(
        (0..3)
            .map(|_| {
                let out = tmp.join("trafilatura");
                let _ = std::fs::remove_dir_all(&out);
                let t = Instant::now();
                let st = Command::new(venv.join("bin/trafilatura"))
                    .args(["--input-dir", input.to_str().unwrap(), "-o", out.to_str().unwrap(), "--parallel", "2"])
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .expect("run trafilatura");
                assert!(st.success());
                t.elapsed().as_secs_f64()
            })
            .collect(),
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/resiliparse_folder.py");
    let res = |procs: &str| {
        median(
            (0..3)
                .map(|_| {
                    let t = Instant::now();
                    let st = Command::new(venv.join("bin/python"))
                        .args([
                            script.to_str().unwrap(),
                            input.to_str().unwrap(),
                            procs,
                            tmp.join("res.jsonl").to_str().unwrap(),
                        ])
                        .stdout(Stdio::null())
                        .status()
                        .expect("run resiliparse");
                    assert!(st.success());
                    t.elapsed().as_secs_f64()
                })
                .collect(),
        )
    };
    (traf, res("1"), res("2"))
}

/// 1. Parse throughput and 2. LCS speed.
fn parse_and_lcs(set: &cetune::goldset::GoldSet, cores: usize) {
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
}
