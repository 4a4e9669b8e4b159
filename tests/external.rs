//! External extractors: a worker process speaking JSON lines is a family (optimise, evaluate,
//! best.yaml), a member of a combination, and its failures (crash, hang, garbage, an error reply)
//! are error rows while a worker that never shakes hands is one configuration error.

use crate::util::{cetune, cetune_within, read_csv, tmp, write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The README's minimal worker, as the README prints it (between `<!-- readme-worker -->`
/// markers): keeps the `<p>` paragraphs of at least `min_words` words.
fn paragraphs() -> String {
    let readme = crate::util::manual();
    let marked = readme.split("<!-- readme-worker -->").nth(1).expect("the README marks its minimal worker");
    let code = marked.split("```python\n").nth(1).and_then(|b| b.split("```").next()).expect("a python block");
    assert!(code.lines().count() <= 10, "the minimal worker has more than 10 lines:\n{code}");
    code.to_string()
}

/// A worker that misbehaves on the pages that ask it to (and in `silent` mode never says hello).
const HOSTILE: &str = r#"import json, sys, time
mode = sys.argv[1]
if mode == "silent":
    time.sleep(60)
print(json.dumps({"name": "hostile", "version": "0"}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    html = req["html"]
    if "CRASH" in html:
        sys.exit(3)
    if "HANG" in html:
        time.sleep(60)
    if "GARBAGE" in html:
        print("this is not json", flush=True)
        continue
    if "REFUSE" in html:
        print(json.dumps({"id": req["id"], "error": "no article here"}), flush=True)
        continue
    body = html.split("<p>")[2].split("</p>")[0]
    print(json.dumps({"id": req["id"], "text": body}), flush=True)
"#;

fn worker(dir: &Path, name: &str, code: &str) -> String {
    let p = dir.join(name);
    write(&p, code);
    format!("python3 {}", p.display())
}

/// A gold set of pages whose body is one paragraph among navigation (`tag` marks a page for the
/// hostile worker).
fn gold_set(dir: &Path, tags: &[&str]) -> PathBuf {
    let set = dir.join("set");
    for (i, tag) in tags.iter().enumerate() {
        let body = format!("{tag} the story number {i} tells of rivers and mountains and the people living there");
        write(
            &set.join(format!("p/{i}.html")),
            format!("<html><body><p>Home News</p><p>{body}</p><p>Share it</p></body></html>"),
        );
        write(&set.join(format!("p/{i}.txt")), &body);
    }
    set
}

#[test]
fn an_external_worker_is_a_family_that_optimise_evaluate_and_best_yaml_run() {
    let dir = tmp("external-family");
    let command = worker(&dir, "paragraphs.py", &paragraphs());
    let params = dir.join("paragraphs.yaml");
    write(
        &params,
        format!(
            "extractor: external\ncommand: {command}\ntimeout: 20\nparameters:\n  - {{name: min_words, type: int, min: 1, max: 20, default: 1}}\n"
        ),
    );
    let set = gold_set(&dir, &["", "", "", ""]);
    let p = params.to_str().unwrap();
    // One page: the parameter reaches the worker.
    let page = set.join("p/0.html");
    let all = cetune(&["extract", "--params", p, page.to_str().unwrap()]).ok();
    assert_eq!(
        all.trim(),
        "Home News\nthe story number 0 tells of rivers and mountains and the people living there\nShare it"
    );
    let long = cetune(&["extract", "--params", p, "--set", "min_words=3", page.to_str().unwrap()]).ok();
    assert_eq!(long.trim(), "the story number 0 tells of rivers and mountains and the people living there");
    // A search over the worker's parameter finds min_words >= 3 (F1 = 1 on every page).
    let run = dir.join("run");
    let (s, r) = (set.to_str().unwrap(), run.to_str().unwrap());
    cetune(&[
        "optimise",
        "--params",
        p,
        "--goldset",
        s,
        "--population",
        "6",
        "--max-generations",
        "3",
        "--seed",
        "3",
        "--out",
        r,
        "-q",
    ])
    .ok();
    let best = std::fs::read_to_string(run.join("best.yaml")).unwrap();
    assert!(best.contains("fitness: 1.0"), "{best}");
    // best.yaml carries the description and the command: it runs anywhere.
    let ev = dir.join("ev");
    let b = run.join("best.yaml");
    let out =
        cetune(&["evaluate", "--params", b.to_str().unwrap(), "--goldset", s, "--out", ev.to_str().unwrap(), "-q"])
            .ok();
    assert!(out.contains("errors: 0"), "{out}");
    let rows = read_csv(&ev.join("per-document.csv"));
    assert!(rows[1..].iter().all(|r| r[4] == "1.000000"), "{rows:?}");
}

#[test]
fn a_crashing_a_hanging_and_a_garbage_printing_worker_give_error_rows_and_the_run_goes_on() {
    let dir = tmp("external-hostile");
    let command = worker(&dir, "hostile.py", HOSTILE);
    let params = dir.join("hostile.yaml");
    write(&params, format!("extractor: external\ncommand: {command} serve\ntimeout: 1\nstartup: 20\n"));
    let set = gold_set(&dir, &["", "CRASH", "", "HANG", "", "GARBAGE", "", "REFUSE", ""]);
    let ev = dir.join("ev");
    let args = [
        "evaluate",
        "--params",
        params.to_str().unwrap(),
        "--goldset",
        set.to_str().unwrap(),
        "--out",
        ev.to_str().unwrap(),
        "-q",
    ];
    let run = cetune_within(&args, Duration::from_secs(60));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("errors: 4"), "{}", run.stdout);
    let rows = read_csv(&ev.join("per-document.csv"));
    let error = |id: &str| rows.iter().find(|r| r[1] == id).map(|r| r[7].clone()).unwrap();
    assert!(error("1").contains("hostile 0: the worker exited on this page (exit status: 3"), "{}", error("1"));
    assert!(error("3").contains("the worker gave no answer within 1 s"), "{}", error("3"));
    assert!(error("5").contains("is not a JSON reply to this page") && error("5").contains("'this is not json'"));
    assert_eq!(error("7"), "hostile 0: the worker failed on this page: no article here");
    // Every other page, before and after each failure, is scored by a (restarted) worker.
    for id in ["0", "2", "4", "6", "8"] {
        let r = rows.iter().find(|r| r[1] == id).unwrap();
        assert_eq!((r[4].as_str(), r[7].as_str()), ("1.000000", ""), "{r:?}");
    }
}

#[test]
fn a_worker_that_never_shakes_hands_is_one_clear_error_and_exit_2() {
    let dir = tmp("external-silent");
    let command = worker(&dir, "hostile.py", HOSTILE);
    let params = dir.join("silent.yaml");
    write(&params, format!("extractor: external\ncommand: {command} silent\nstartup: 0.5\n"));
    let page = dir.join("p.html");
    write(&page, "<p>words</p>");
    let r = cetune_within(
        &["extract", "--params", params.to_str().unwrap(), page.to_str().unwrap()],
        Duration::from_secs(30),
    );
    assert_eq!(r.code, 2);
    assert_eq!(
        last_line(&r.stderr),
        format!("cetune: external extractor `{command} silent`: the worker did not answer its handshake within 0.5 s")
    );
    // A command that is not a worker at all (it prints no handshake and exits).
    write(&params, "extractor: external\ncommand: \"true\"\n");
    let r = cetune(&["extract", "--params", params.to_str().unwrap(), page.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert_eq!(
        last_line(&r.stderr),
        "cetune: external extractor `true`: the worker exited before its handshake (exit status: 0)"
    );
}

/// The last line of a command's standard error (after the note naming the external command).
fn last_line(stderr: &str) -> &str {
    stderr.trim().lines().last().unwrap_or("")
}

/// Issue 35: a parameter file is code when it names an external command. A file named on the
/// command line runs it, with a note naming the command; a command from a file the user did not
/// name (a run folder's `run.yaml`, read by `compare --run`) needs `CETUNE_ALLOW_EXTERNAL=1`.
#[test]
fn an_external_command_from_a_file_not_named_needs_the_opt_in() {
    let dir = tmp("external-trust");
    let command = worker(&dir, "paragraphs.py", &paragraphs());
    let params = dir.join("paragraphs.yaml");
    write(
        &params,
        format!(
            "extractor: external\ncommand: {command}\nparameters:\n  - {{name: min_words, type: int, min: 1, max: 20, default: 1}}\n"
        ),
    );
    let set = gold_set(&dir, &["", "", ""]);
    let (s, run) = (set.to_str().unwrap(), dir.join("run"));
    let r = cetune(&[
        "optimise",
        "--params",
        params.to_str().unwrap(),
        "--goldset",
        s,
        "--population",
        "2",
        "--max-generations",
        "1",
        "--seed",
        "1",
        "--out",
        run.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains(&format!("paragraphs.yaml runs an external command: {command}")), "{}", r.stderr);
    let compare = |allow: Option<&str>| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_cetune"));
        c.args(["compare", "--run", run.to_str().unwrap(), "--goldset", s, "-q"]).env_remove("CETUNE_ALLOW_EXTERNAL");
        if let Some(v) = allow {
            c.env("CETUNE_ALLOW_EXTERNAL", v);
        }
        c.output().unwrap()
    };
    let out = compare(None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("not named on the command line") && stderr.contains("CETUNE_ALLOW_EXTERNAL=1"), "{stderr}");
    assert!(
        !std::fs::read_dir(&run).unwrap().flatten().any(|e| e.file_name().to_string_lossy().starts_with("compare-"))
    );
    let out = compare(Some("1"));
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn external_keys_are_checked_where_they_are_written() {
    let dir = tmp("external-yaml");
    let p = dir.join("x.yaml");
    let page = dir.join("p.html");
    write(&page, "<p>words</p>");
    let check = |yaml: &str, message: &str| {
        write(&p, yaml);
        let r = cetune(&["extract", "--params", p.to_str().unwrap(), page.to_str().unwrap()]);
        assert_eq!((r.code, r.stderr.trim()), (2, format!("cetune: {}:{message}", p.display()).as_str()));
    };
    check(
        "extractor: lqf\ncommand: python3 w.py\n",
        "2: 'command' belongs to an external extractor (extractor: external)",
    );
    check(
        "extractor: external\ntimeout: 5\n",
        " an external extractor needs 'command:' (the worker to run, e.g. `python3 -m cetune.worker mymodule:extract`)",
    );
    check(
        "extractor: external\ncommand: w\ntimeout: -1\n",
        "3: 'timeout' must be a number of seconds in (0, 86400], got -1",
    );
}

#[test]
fn an_external_worker_is_a_member_of_a_combination_through_the_word_alignment() {
    let dir = tmp("external-member");
    let command = worker(&dir, "paragraphs.py", &paragraphs());
    let params = dir.join("pair.yaml");
    write(
        &params,
        format!(
            "extractor: pair\nmembers: [full, para]\nparameters:\n  - {{name: combinator, type: categorical, choices: [vote, union, intersection], default: intersection}}\n  - {{name: para.command, type: categorical, choices: [\"{command}\"], default: \"{command}\", tune: false}}\n  - {{name: para.min_words, type: int, min: 1, max: 20, default: 3}}\n"
        ),
    );
    let set = gold_set(&dir, &["", ""]);
    let page = set.join("p/1.html");
    let (p, pg) = (params.to_str().unwrap(), page.to_str().unwrap());
    // full ∩ para: the worker's paragraph, aligned to the page's words.
    let both = cetune(&["extract", "--params", p, pg]).ok();
    assert_eq!(both.trim(), "the story number 1 tells of rivers and mountains and the people living there");
    let union = cetune(&["extract", "--params", p, "--set", "combinator=union", pg]).ok();
    assert!(union.starts_with("Home News\nthe story"), "{union}");
    // The combination runs a search, and its best.yaml loads back.
    let run = dir.join("run");
    let (s, r) = (set.to_str().unwrap(), run.to_str().unwrap());
    cetune(&[
        "optimise",
        "--params",
        p,
        "--goldset",
        s,
        "--population",
        "4",
        "--max-generations",
        "2",
        "--out",
        r,
        "-q",
    ])
    .ok();
    let b = run.join("best.yaml");
    let best = cetune(&["extract", "--params", b.to_str().unwrap(), pg]).ok();
    assert!(best.contains("the story number 1"), "{best}");
}

/// A worker that keeps the paragraph named by the last segment of the page's URL (`none` when
/// cetune sends no URL): what it keeps shows which URL reached it.
const URL_ECHO: &str = r#"import json, sys
print(json.dumps({"name": "url-echo", "version": "1"}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    url = req["url"]
    print(json.dumps({"id": req["id"], "text": url.rstrip("/").rsplit("/", 1)[-1] if url else "none"}), flush=True)
"#;

#[test]
fn the_worker_gets_the_page_url_from_the_gold_set_the_record_or_the_page_head() {
    let dir = tmp("external-url");
    let command = worker(&dir, "url.py", URL_ECHO);
    let params = dir.join("url.yaml");
    write(&params, format!("extractor: external\ncommand: {command}\n"));
    let p = params.to_str().unwrap();
    let page = |head: &str| format!("<html><head>{head}</head><body><p>alpha</p><p>beta</p><p>none</p></body></html>");
    let canonical = "<link rel=canonical href='https://x.org/beta'>";
    // A gold set: page 0's URL from goldset.yaml, page 1's from its head, page 2 has none.
    let set = dir.join("set");
    write(&set.join("goldset.yaml"), "name: urls\ndocuments:\n  p/0:\n    url: https://x.org/alpha\n");
    for (i, (head, gold)) in [("", "alpha"), (canonical, "beta"), ("", "none")].iter().enumerate() {
        write(&set.join(format!("p/{i}.html")), page(head));
        write(&set.join(format!("p/{i}.txt")), gold);
    }
    let ev = dir.join("ev");
    let out =
        cetune(&["evaluate", "--params", p, "--goldset", set.to_str().unwrap(), "--out", ev.to_str().unwrap(), "-q"])
            .ok();
    assert!(out.contains("errors: 0"), "{out}");
    let rows = read_csv(&ev.join("per-document.csv"));
    assert!(rows[1..].iter().all(|r| r[4] == "1.000000"), "{rows:?}");
    // extract: a JSONL record's url, a WARC record's target URI, a file's declared URL.
    let jsonl = dir.join("pages.jsonl");
    write(&jsonl, format!("{}\n", serde_json::json!({"id": "j", "url": "https://x.org/alpha", "html": page("")})));
    let warc = dir.join("pages.warc");
    write(&warc, cetune::collect::warc::response_record("https://x.org/beta", "w", "text/html", page("").as_bytes()));
    let file = dir.join("declared.html");
    write(&file, page(canonical));
    let r = cetune(&["extract", "--params", p, "--format", "jsonl", "-q", s(&jsonl), s(&warc), s(&file)]).ok();
    let texts: Vec<String> =
        r.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["text"].to_string()).collect();
    assert_eq!(texts, ["\"alpha\"", "\"beta\"", "\"beta\""], "{r}");
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A worker that keeps the paragraphs whose first word is `alpha` (what the gold holds below).
const ALPHA: &str = r#"import json, re, sys
print(json.dumps({"name": "alpha", "version": "0"}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    ps = re.findall(r"<p>(.*?)</p>", req["html"])
    print(json.dumps({"id": req["id"], "text": "\n".join(p for p in ps if p.startswith("alpha"))}), flush=True)
"#;

/// The built-in block model's description with `member1` and `member2` set to `one` and `two`
/// (one choice each besides `none`), written as `name` in `dir`.
pub fn stacked_description(dir: &Path, name: &str, one: &str, two: &str) -> PathBuf {
    let own = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("params/blocktrees.yaml")).unwrap();
    let slot = |k: usize| {
        let at = own.find(&format!("  - name: member{k}\n")).unwrap();
        let end = at + own[at..].find("    default: none\n").unwrap() + "    default: none\n".len();
        (at, end)
    };
    let (a1, e1) = slot(1);
    let (a2, e2) = slot(2);
    // `two` = none leaves the second slot as the family declares it.
    let second = match two {
        "none" => own[a2..e2].to_string(),
        two => format!("  - name: member2\n    type: categorical\n    choices: [none, {two}]\n    default: {two}\n"),
    };
    let text = format!(
        "{}  - name: member1\n    type: categorical\n    choices: [none, \"{one}\"]\n    default: \"{one}\"\n{}{second}{}",
        &own[..a1],
        &own[e1..a2],
        &own[e2..]
    );
    let p = dir.join(name);
    write(&p, text);
    p
}

/// The fitness a run's best.yaml records.
pub fn fitness(run: &Path) -> f64 {
    let best = std::fs::read_to_string(run.join("best.yaml")).unwrap();
    let line = best.lines().find(|l| l.trim_start().starts_with("fitness:")).expect("a fitness line");
    line.split(':').nth(1).unwrap().trim().parse().unwrap()
}

/// Issue 38: the block model reads, for each block, whether stacked members keep it: an
/// external worker and a cetune family, named in the description. On pages whose three
/// paragraphs look alike and whose main one moves, the trees alone cannot tell it (about 0.5
/// out of fold); trusting the worker's vote they can (out of fold: the worker depends on no
/// gold, the trees' folds are as always). The run's best.yaml and model extract with the
/// members; a member fitted on gold is refused with one line.
#[test]
fn a_block_model_stacks_an_external_worker_and_a_family_as_members() {
    let dir = tmp("external-stacked");
    let command = worker(&dir, "alpha.py", ALPHA);
    let member = dir.join("alpha.yaml");
    write(&member, format!("extractor: external\ncommand: {command}\ntimeout: 20\n"));
    // Forty pages of three paragraphs of twelve words from one vocabulary; the main one (gold)
    // starts with `alpha` and sits first, second or third.
    let words = ["river", "stone", "market", "bridge", "winter", "garden", "letter", "harbour", "engine", "silver"];
    let mut seed = 7u64;
    let mut word = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        words[(seed >> 33) as usize % words.len()]
    };
    let set = dir.join("set");
    for i in 0..40 {
        let paras: Vec<String> = (0..3)
            .map(|k| {
                let first = if k == i % 3 { "alpha" } else { "beta" };
                let rest: Vec<&str> = (0..11).map(|_| word()).collect();
                format!("{first} {}", rest.join(" "))
            })
            .collect();
        let body: String = paras.iter().map(|p| format!("<p>{p}</p>")).collect();
        write(&set.join(format!("p/{i:02}.html")), format!("<html><body><div>{body}</div></body></html>"));
        write(&set.join(format!("p/{i:02}.txt")), &paras[i % 3]);
    }
    let s = set.to_str().unwrap();
    let run = |params: &Path, out: &str, extra: &[&str]| {
        let out = dir.join(out);
        let mut args = vec!["optimise", "--params", params.to_str().unwrap(), "--goldset", s];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--population", "1", "--elites", "0", "--max-generations", "1"]);
        args.extend_from_slice(&["--seed", "1", "--out", out.to_str().unwrap(), "-q"]);
        cetune(&args).ok();
        out
    };
    let stacked = stacked_description(&dir, "stacked.yaml", member.to_str().unwrap(), "full");
    let with = run(&stacked, "with", &[]);
    let without = run(&stacked, "without", &["--set", "member1=none", "--set", "member2=none"]);
    let (a, b) = (fitness(&with), fitness(&without));
    assert!(a > 0.95, "stacked on the worker's votes: {a}");
    assert!(b < 0.8, "the trees alone cannot tell the main paragraph: {b}");
    // The model reads two members' votes; the run's best.yaml carries its description (the
    // member file is not a built-in choice) and extracts with both members.
    let model = std::fs::read_to_string(with.join("best.model")).unwrap();
    assert!(model.lines().any(|l| l == "members 2"), "{model}");
    let page = set.join("p/04.html");
    let text = cetune(&["extract", "--params", with.join("best.yaml").to_str().unwrap(), page.to_str().unwrap()]).ok();
    assert_eq!(text.trim(), std::fs::read_to_string(set.join("p/04.txt")).unwrap().trim());
    // A member fitted on gold: its votes on the tuning pages would be in-sample.
    let refused = |member: &Path, name: &str| {
        let params = stacked_description(&dir, name, member.to_str().unwrap(), "full");
        let out = dir.join(format!("{name}-run"));
        let r =
            cetune(&["optimise", "--params", params.to_str().unwrap(), "--goldset", s, "--out", out.to_str().unwrap()]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        r.stderr
    };
    let e = refused(&with.join("best.yaml"), "fitted.yaml");
    assert!(last_line(&e).contains("it names a model fitted on gold"), "{e}");
    // A member that fails on every page is one clear error, not a feature of zeros.
    let refuser = worker(&dir, "refuser.py", REFUSER);
    let bad = dir.join("refuser.yaml");
    write(&bad, format!("extractor: external\ncommand: {refuser}\ntimeout: 20\n"));
    let e = refused(&bad, "failing.yaml");
    assert!(last_line(&e).contains("failed on every page") && e.contains("no article here"), "{e}");
}

/// A worker that refuses every page.
const REFUSER: &str = r#"import json, sys
print(json.dumps({"name": "refuser", "version": "0"}), flush=True)
for line in sys.stdin:
    print(json.dumps({"id": json.loads(line)["id"], "error": "no article here"}), flush=True)
"#;
