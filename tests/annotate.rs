//! `goldset new` and `annotate` end to end: the new gold set, the server's safety rules over
//! plain HTTP (token, traversal, overwrite confirmation, concurrent saves, Ctrl-C, a folder it
//! cannot write), the effort measure, and the app driven in headless Chromium through
//! chromedriver's WebDriver protocol (skipped, with a note, when chromium or chromedriver is
//! missing; `.ci/run` installs both).

use crate::util::{cetune, tmp, write};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};

const NEWS: &str = include_str!("data/annotate-news.html");

/// A running `cetune annotate`.
pub struct Server {
    child: Child,
    out: BufReader<ChildStdout>,
    pub port: u16,
    pub token: String,
}

impl Server {
    pub fn start(dir: &Path, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cetune"))
            .args(["annotate", dir.to_str().unwrap(), "--port", "0", "--user", "tester"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        // Dropped (the process killed and waited for) if it never prints its URL.
        let mut srv = Server { child, out, port: 0, token: String::new() };
        let mut line = String::new();
        loop {
            line.clear();
            assert!(srv.out.read_line(&mut line).unwrap() > 0, "annotate ended before printing its URL");
            if let Some(url) = line.trim().strip_prefix("open http://127.0.0.1:") {
                let (port, rest) = url.split_once('/').unwrap();
                srv.token = rest.strip_prefix("?t=").unwrap().to_string();
                srv.port = port.parse().unwrap();
                return srv;
            }
        }
    }

    /// One request (HTTP/1.0, so the answer is not chunked): status and body.
    pub fn request(&self, method: &str, path: &str, header_token: bool, body: &str) -> (u16, String) {
        http(self.port, method, path, if header_token { Some(&self.token) } else { None }, body)
    }

    /// A GET with the token.
    pub fn get(&self, path: &str) -> (u16, String) {
        let sep = if path.contains('?') { '&' } else { '?' };
        self.request("GET", &format!("{path}{sep}t={}", self.token), false, "")
    }

    /// A save with the token (query and header).
    pub fn save(&self, body: &Value) -> (u16, String) {
        self.request("POST", &format!("/api/save?t={}", self.token), true, &body.to_string())
    }

    /// Sends SIGINT (Ctrl-C) and waits: exit code and the rest of standard output.
    pub fn interrupt(mut self) -> (i32, String) {
        Command::new("kill").args(["-INT", &self.child.id().to_string()]).status().unwrap();
        let status = self.child.wait().unwrap();
        let mut rest = String::new();
        self.out.read_to_string(&mut rest).unwrap();
        (status.code().unwrap_or(-1), rest)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn http(port: u16, method: &str, path: &str, token: Option<&str>, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut req = format!("{method} {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n", body.len());
    if let Some(t) = token {
        req.push_str(&format!("X-Cetune-Token: {t}\r\nContent-Type: application/json\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).unwrap();
    let resp = String::from_utf8_lossy(&resp).into_owned();
    let (head, body) = resp.split_once("\r\n\r\n").unwrap_or((&resp, ""));
    let status = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, body.to_string())
}

/// Raw pages for `goldset new`: two hosts (canonical link, og:url), one page only its folder
/// names, one binary file and one page without text.
fn raw_pages(root: &Path) {
    write(&root.join("a/news1.html"), NEWS);
    write(&root.join("a/news2.html"), NEWS.replace("harbour-library", "second").replace("Ada Moss", "Bo Lin"));
    write(
        &root.join("b/shop.html"),
        r#"<html><head><meta property="og:url" content="https://shop.example.com/p/1"></head><body><h1>A kettle</h1><p>Boils water fast and quietly, in a steel body.</p><div>Basket</div></body></html>"#,
    );
    write(
        &root.join("b/www.blog.net/post.html"),
        "<p>A post about nothing much at all, in one paragraph.</p><p>Comments</p>",
    );
    let binary: Vec<u8> = (0..4000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    write(&root.join("b/broken.html"), binary);
    write(&root.join("b/empty.html"), "<html><body><script>x()</script></body></html>");
}

/// A gold set made by `goldset new --by host` from [`raw_pages`].
pub fn new_set(name: &str) -> PathBuf {
    let base = tmp(name);
    raw_pages(&base.join("raw"));
    let out = base.join("set");
    let run = cetune(&["goldset", "new", "--from", base.join("raw").to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    out
}

#[test]
fn goldset_new_groups_by_host_or_folder_samples_and_lists_what_it_skips() {
    let out = new_set("gsnew");
    let base = out.parent().unwrap().to_path_buf();
    let pkgs: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(pkgs, ["blog.net", "example-news.org", "shop.example.com"]);
    assert!(out.join("example-news.org/news1.html").is_file() && out.join("example-news.org/news2.html").is_file());
    assert!(!out.join("example-news.org/news1.txt").exists(), "no gold text yet");
    let manifest = std::fs::read_to_string(out.join("goldset.yaml")).unwrap();
    assert!(manifest.contains("https://shop.example.com/p/1"), "{manifest}");
    // The binary page and the page without text were listed and left out.
    let again = base.join("again");
    let run = cetune(&[
        "goldset",
        "new",
        "--from",
        base.join("raw").to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
        "--by",
        "folder",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("broken.html: binary data, not an HTML page"), "{}", run.stderr);
    assert!(run.stderr.contains("empty.html: no text on the page"), "{}", run.stderr);
    assert!(run.stdout.starts_with("wrote 4 of 4 pages"), "{}", run.stdout);
    for p in ["a/news1.html", "b/shop.html", "b-www.blog.net/post.html"] {
        assert!(again.join(p).is_file(), "{p}");
    }
    // A stratified sample: one page per package at least, and the same for the same seed.
    let s1 = base.join("s1");
    cetune(&[
        "goldset",
        "new",
        "--from",
        base.join("raw").to_str().unwrap(),
        "--out",
        s1.to_str().unwrap(),
        "--sample",
        "3",
        "--seed",
        "4",
    ])
    .ok();
    let stats = cetune(&["goldset", "stats", s1.to_str().unwrap(), "-q"]).ok();
    assert!(stats.starts_with("pages with gold: 0 of 3 (3 without)"), "{stats}");
    // Refused: writing into the inputs, or over a folder of someone else's files.
    let run = cetune(&[
        "goldset",
        "new",
        "--from",
        base.join("raw").to_str().unwrap(),
        "--out",
        base.join("raw/x").to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = cetune(&[
        "goldset",
        "new",
        "--from",
        base.join("raw").to_str().unwrap(),
        "--out",
        base.join("raw").to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2);
    let run = cetune(&[
        "goldset",
        "new",
        "--from",
        base.join("nothing").to_str().unwrap(),
        "--out",
        base.join("n").to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    // goldset stats counts pages with gold once some exist.
    write(&out.join("example-news.org/news1.txt"), "The new public library");
    let stats = cetune(&["goldset", "stats", out.to_str().unwrap(), "-q"]).ok();
    assert!(stats.starts_with("pages with gold: 1 of 4 (3 without)"), "{stats}");
    // --force replaces a set goldset new made, but never one holding gold texts a person made.
    let raw = base.join("raw");
    let again =
        || cetune(&["goldset", "new", "--from", raw.to_str().unwrap(), "--out", out.to_str().unwrap(), "--force"]);
    let run = again();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("made by hand or with cetune annotate"), "{}", run.stderr);
    assert!(out.join("example-news.org/news1.txt").is_file(), "the gold text survives");
    std::fs::remove_file(out.join("example-news.org/news1.txt")).unwrap();
    assert_eq!(again().code, 0, "a set without gold is still replaced with --force");
    // --no-summary: no summary on standard output; -q drops only the progress counter (as in
    // every command), so the summary stays.
    let new = |extra: &[&str]| {
        let mut args =
            vec!["goldset", "new", "--from", raw.to_str().unwrap(), "--out", out.to_str().unwrap(), "--force"];
        args.extend_from_slice(extra);
        cetune(&args)
    };
    let quiet = new(&["-q", "--no-summary"]);
    assert_eq!((quiet.code, quiet.stdout.as_str()), (0, ""), "{}", quiet.stderr);
    assert!(out.join("goldset.yaml").is_file());
    let quiet = new(&["-q"]);
    assert!(quiet.code == 0 && quiet.stdout.starts_with("wrote 4 of 4 pages"), "{}", quiet.stdout);
}

#[test]
fn goldset_new_reads_jsonl_inputs() {
    let base = tmp("gsnewjsonl");
    let lines = [
        json!({"id": "n1", "url": "https://a.org/1", "html": "<p>First page text here.</p>"}),
        json!({"url": "https://b.org/2", "html": "<p>Second page text, caf\u{e9}.</p>"}),
        json!({"id": "bad"}),
    ];
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    write(&base.join("pages.jsonl"), text.join("\n"));
    let out = base.join("set");
    let run = cetune(&[
        "goldset",
        "new",
        "--from",
        base.join("pages.jsonl").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("no \"html\" field"), "{}", run.stderr);
    assert!(out.join("a.org/n1.html").is_file());
    let page = std::fs::read(out.join("b.org/line2.html")).unwrap();
    let extracted = cetune(&["extract", "-e", "full", out.join("b.org/line2.html").to_str().unwrap()]).ok();
    assert_eq!(extracted.trim(), "Second page text, café.", "{page:?}");
}

#[test]
fn annotate_requires_the_token_rejects_traversal_and_never_overwrites_unconfirmed() {
    let set = new_set("annot-http");
    write(&set.join("example-news.org/junk.html"), (0..3000u32).map(|i| (i * 7919 % 251) as u8).collect::<Vec<u8>>());
    let srv = Server::start(&set, &["--prefill", "full"]);
    // The token: missing or wrong on every route, and a save needs it in the header too.
    for path in
        ["/", "/app.js", "/api/pages", "/api/page?id=example-news.org/news1", "/frame?id=example-news.org/news1"]
    {
        assert_eq!(srv.request("GET", path, false, "").0, 403, "{path}");
        let sep = if path.contains('?') { '&' } else { '?' };
        assert_eq!(srv.request("GET", &format!("{path}{sep}t=0000"), false, "").0, 403, "{path}");
        assert_eq!(srv.get(path).0, 200, "{path}");
    }
    let body = json!({"id": "example-news.org/news1", "keep": [true]}).to_string();
    assert_eq!(srv.request("POST", &format!("/api/save?t={}", srv.token), false, &body).0, 403);
    assert_eq!(srv.request("POST", "/api/save", true, &body).0, 403);
    // Unparsable pages are listed with their error and skipped.
    let (_, pages) = srv.get("/api/pages");
    let pages: Value = serde_json::from_str(&pages).unwrap();
    assert_eq!(pages["pages"].as_array().unwrap().len(), 4, "{pages}");
    assert_eq!(pages["errors"][0]["id"], "example-news.org/junk");
    assert!(pages["errors"][0]["error"].as_str().unwrap().contains("binary data"));
    // Traversal: ids are looked up, never joined to a path.
    let secret = set.parent().unwrap().join("secret.txt");
    std::fs::write(&secret, "keep out").unwrap();
    for id in [
        "../secret",
        "..%2Fsecret",
        "example-news.org/../../secret",
        "/etc/passwd",
        "%2e%2e/secret",
        "example-news.org/junk",
    ] {
        assert_eq!(srv.get(&format!("/api/page?id={id}")).0, 404, "{id}");
        assert_eq!(srv.get(&format!("/frame?id={id}")).0, 404, "{id}");
        assert_eq!(srv.save(&json!({"id": id, "keep": []})).0, 404, "{id}");
    }
    assert_eq!(srv.get("/../../etc/passwd").0, 404);
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), "keep out");
    // The frame: no script, a policy that forbids scripts and remote loads, blocks addressable.
    let (_, frame) = srv.get("/frame?id=example-news.org/news1");
    assert!(!frame.contains("<script") && !frame.contains("SCRIPT RAN"), "scripts are left out");
    assert!(frame.contains("data-b=\"0\" id=\"b0\"") && frame.contains("html:has(#b0:target) [data-b=\"0\"]"));
    let mut s = TcpStream::connect(("127.0.0.1", srv.port)).unwrap();
    write!(s, "GET /frame?id=example-news.org/news1&t={} HTTP/1.0\r\n\r\n", srv.token).unwrap();
    let mut head = String::new();
    s.read_to_string(&mut head).unwrap();
    assert!(head.contains("Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'"), "{head}");
    assert!(head.contains("; sandbox"));
    // Save: the kept blocks, blank-line separated; recorded in annotations.yaml.
    let (_, page) = srv.get("/api/page?id=example-news.org/news1");
    let page: Value = serde_json::from_str(&page).unwrap();
    let blocks = page["blocks"].as_array().unwrap();
    assert!(blocks.iter().all(|b| b["keep"] == true), "full keeps everything");
    let keep: Vec<bool> = blocks.iter().map(|b| b["text"].as_str().unwrap().contains("library")).collect();
    let (code, r) = srv.save(&json!({"id": "example-news.org/news1", "keep": keep}));
    assert_eq!(code, 200, "{r}");
    let gold = set.join("example-news.org/news1.txt");
    let want: Vec<&str> =
        blocks.iter().zip(&keep).filter(|(_, k)| **k).map(|(b, _)| b["text"].as_str().unwrap()).collect();
    assert_eq!(std::fs::read_to_string(&gold).unwrap(), format!("{}\n", want.join("\n\n")));
    let manifest = std::fs::read_to_string(set.join("annotations.yaml")).unwrap();
    assert!(
        manifest.contains("by: tester") && manifest.contains("prefill: full") && manifest.contains("at: "),
        "{manifest}"
    );
    // Never overwritten without the page's confirmation.
    let none = vec![false; keep.len()];
    let (code, _) = srv.save(&json!({"id": "example-news.org/news1", "keep": none}));
    assert_eq!(code, 409);
    assert_eq!(std::fs::read_to_string(&gold).unwrap(), format!("{}\n", want.join("\n\n")));
    // A wrong number of blocks is refused; a confirmed save replaces the text.
    assert_eq!(srv.save(&json!({"id": "example-news.org/news1", "keep": [true], "confirm": true})).0, 400);
    assert_eq!(srv.save(&json!({"id": "example-news.org/news1", "keep": none, "confirm": true})).0, 200);
    assert_eq!(std::fs::read_to_string(&gold).unwrap(), "");
    // Reopened, a saved page shows its gold text's blocks.
    let (_, page) = srv.get("/api/page?id=example-news.org/news1");
    assert!(page.contains("\"from\":\"gold\""), "{page}");
    let (code, rest) = srv.interrupt();
    assert_eq!(code, 0, "Ctrl-C stops cleanly");
    assert!(rest.contains("stopped"));
    let tmp_left: Vec<_> = std::fs::read_dir(set.join("example-news.org"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(tmp_left.is_empty());
}

#[test]
fn annotate_shows_and_saves_the_gold_fields_over_goldset_yaml_and_the_sidecar() {
    let base = tmp("annot-fields");
    let set = base.join("set");
    write(&set.join("blog/post.html"), NEWS);
    write(&set.join("blog/post.comments.txt"), "First!");
    write(&set.join("blog/front.html"), "<h1>Blog</h1><div class=post><p>One post.</p></div>");
    let yaml = "# the user's comment stays\ndocuments:\n  blog/post: {title: Old title, date: 2012-05-11}\n  \
                blog/front: {posts: [{title: One, date: 2012-05-28}, {title: Two}]}\n";
    write(&set.join("goldset.yaml"), yaml);
    let srv = Server::start(&set, &["--prefill", "full"]);
    // Shown: goldset.yaml's fields, the comments sidecar, a front page's posts.
    let (_, page) = srv.get("/api/page?id=blog/post");
    let page: Value = serde_json::from_str(&page).unwrap();
    assert_eq!(
        page["fields"],
        json!({"title": "Old title", "author": null, "date": "2012-05-11", "comments": "First!"}),
        "{page}"
    );
    let (_, front) = srv.get("/api/page?id=blog/front");
    let front: Value = serde_json::from_str(&front).unwrap();
    assert_eq!(front["posts"], json!([{"title": "One", "date": "2012-05-28"}, {"title": "Two"}]), "{front}");
    let keep: Vec<bool> = page["blocks"].as_array().unwrap().iter().map(|b| b["keep"] == true).collect();
    // A malformed date or an unknown field is refused, nothing written.
    for bad in [json!({"date": "11/05/2012"}), json!({"colour": "red"}), json!({"title": 3}), json!([1])] {
        let (code, why) = srv.save(&json!({"id": "blog/post", "keep": keep, "fields": bad}));
        assert_eq!(code, 400, "{bad}: {why}");
        assert!(!set.join("blog/post.txt").exists() && !set.join("annotations.yaml").exists());
    }
    let (_, why) = srv.save(&json!({"id": "blog/post", "keep": keep, "fields": {"date": "11/05/2012"}}));
    assert!(why.contains("field 'date': '11/05/2012' is not an ISO 8601 date"), "{why}");
    // Saved: the text and the fields; an emptied field (comments) is cleared, the sidecar too.
    let fields = json!({"title": " New title ", "author": "Ann Lee", "date": "2012-05-12", "comments": ""});
    let (code, r) = srv.save(&json!({"id": "blog/post", "keep": keep, "fields": fields}));
    assert_eq!(code, 200, "{r}");
    let (_, page) = srv.get("/api/page?id=blog/post");
    let page: Value = serde_json::from_str(&page).unwrap();
    let want = json!({"title": "New title", "author": "Ann Lee", "date": "2012-05-12", "comments": null});
    assert_eq!(page["fields"], want);
    // The same text again needs no confirmation: the fields alone change; a save without
    // fields keeps the saved ones.
    let (code, r) = srv.save(&json!({"id": "blog/post", "keep": keep, "fields": {"title": "Third title"}}));
    assert_eq!(code, 200, "{r}");
    assert_eq!(srv.save(&json!({"id": "blog/post", "keep": keep})).0, 200);
    let (_, page) = srv.get("/api/page?id=blog/post");
    let page: Value = serde_json::from_str(&page).unwrap();
    assert_eq!(page["fields"], json!({"title": "Third title", "author": null, "date": null, "comments": null}));
    let (code, _) = srv.interrupt();
    assert_eq!(code, 0);
    // goldset.yaml is never rewritten; the record (annotations.yaml) carries the fields, and
    // every command reads them.
    assert_eq!(std::fs::read_to_string(set.join("goldset.yaml")).unwrap(), yaml);
    let rec = std::fs::read_to_string(set.join("annotations.yaml")).unwrap();
    assert!(rec.contains("title: Third title"), "{rec}");
    assert!(!set.join("annotations.yaml.tmp").exists());
    let stats = cetune(&["goldset", "stats", set.to_str().unwrap(), "-q"]).ok();
    assert!(stats.contains("fields: title 1\n") || stats.contains("fields: title 1 "), "{stats}");
    assert!(!stats.contains("comments"), "the cleared comments (and the sidecar) no longer count: {stats}");
}

#[test]
fn concurrent_saves_all_land_with_their_records() {
    let base = tmp("annot-conc");
    let set = base.join("set");
    for k in 0..12 {
        write(
            &set.join(format!("p{}/d{k}.html", k % 3)),
            format!("<h1>Title {k}</h1><p>Body text of page {k}.</p><div>Footer</div>"),
        );
    }
    let srv = Server::start(&set, &[]);
    let port = srv.port;
    let token = srv.token.clone();
    let threads: Vec<_> = (0..12)
        .map(|k| {
            let token = token.clone();
            std::thread::spawn(move || {
                let body = json!({"id": format!("p{}/d{k}", k % 3), "keep": [true, true, false]}).to_string();
                http(port, "POST", &format!("/api/save?t={token}"), Some(&token), &body)
            })
        })
        .collect();
    for t in threads {
        let (code, body) = t.join().unwrap();
        assert_eq!(code, 200, "{body}");
    }
    let manifest = std::fs::read_to_string(set.join("annotations.yaml")).unwrap();
    for k in 0..12 {
        let text = std::fs::read_to_string(set.join(format!("p{}/d{k}.txt", k % 3))).unwrap();
        assert_eq!(text, format!("Title {k}\n\nBody text of page {k}.\n"));
        assert!(manifest.contains(&format!("p{}/d{k}:", k % 3)), "{manifest}");
    }
    let (_, pages) = srv.get("/api/pages");
    assert!(pages.contains("\"saved\":12"), "{pages}");
}

#[test]
fn a_gold_set_folder_that_cannot_be_written_is_refused_with_one_line() {
    let base = tmp("annot-ro");
    let set = base.join("set");
    write(&set.join("p/d.html"), "<p>Some text</p>");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&set, std::fs::Permissions::from_mode(0o555)).unwrap();
    let probe = set.join("probe");
    if std::fs::write(&probe, "x").is_ok() {
        let _ = std::fs::remove_file(&probe);
        eprintln!(
            "note: running as root, a read-only folder is writable: the refusal is covered by the unit test only"
        );
        std::fs::set_permissions(&set, std::fs::Permissions::from_mode(0o755)).unwrap();
        return;
    }
    let run = cetune(&["annotate", set.to_str().unwrap()]);
    std::fs::set_permissions(&set, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr.trim().lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("not writable"), "{}", run.stderr);
}

#[test]
fn annotate_refuses_a_missing_set_and_several_prefills() {
    let run = cetune(&["annotate", "/nonexistent/set"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let set = new_set("annot-args");
    let run = cetune(&["annotate", set.to_str().unwrap(), "--prefill", "full", "--prefill", "lqf"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("only with --effort"));
}

#[test]
fn effort_counts_the_toggles_from_each_prefill_to_the_gold_blocks() {
    let base = tmp("annot-effort");
    let set = base.join("set");
    // Five blocks, two of them gold: `full` keeps all (3 toggles, in 2 runs: blocks 0 and 3-4).
    write(
        &set.join("p/d.html"),
        "<div>Home News Sport</div><h1>The headline of it</h1><p>The story goes on here for a while.</p>\
         <div>Related stories</div><div>Copyright the owners</div>",
    );
    write(&set.join("p/d.txt"), "The headline of it\n\nThe story goes on here for a while.");
    let csv = base.join("effort.csv");
    let out = cetune(&[
        "annotate",
        set.to_str().unwrap(),
        "--effort",
        "--prefill",
        "full",
        "-q",
        "--csv",
        csv.to_str().unwrap(),
    ])
    .ok();
    assert!(out.contains("| full | 1 | 3 | 3.0 | 2 | 2.0 | 0 |"), "{out}");
    assert!(out.contains("blocks per page: median 5"), "{out}");
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert!(rows.contains("\"full\",p/d,5,5,2,3,2,1.0000"), "{rows}");
}

// ---------------------------------------------------------------------------------------------
// The browser check: WebDriver over plain HTTP + JSON (chromedriver), no extra crate.

struct Driver {
    child: Child,
    port: u16,
    session: String,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn wd(port: u16, method: &str, path: &str, body: Option<&Value>) -> Value {
    let body = body.map(Value::to_string).unwrap_or_default();
    let s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(120))).unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    (&s).write_all(req.as_bytes()).unwrap();
    // chromedriver keeps the connection open: read the head, then Content-Length bytes.
    let mut r = BufReader::new(&s);
    let (mut len, mut chunked) = (0usize, false);
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap() == 0 || line == "\r\n" {
            break;
        }
        let l = line.to_ascii_lowercase();
        if let Some(v) = l.strip_prefix("content-length:") {
            len = v.trim().parse().unwrap();
        }
        chunked |= l.starts_with("transfer-encoding:") && l.contains("chunked");
    }
    let mut data = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            r.read_line(&mut size).unwrap();
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if n == 0 {
                break;
            }
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).unwrap();
            data.extend_from_slice(&chunk[..n]);
        }
    } else {
        data.resize(len, 0);
        r.read_exact(&mut data).unwrap();
    }
    serde_json::from_slice(&data)
        .unwrap_or_else(|e| panic!("webdriver answered {}: {e}", String::from_utf8_lossy(&data)))
}

impl Driver {
    fn start(profile: &Path) -> Option<Driver> {
        let found = |b: &str| Command::new(b).arg("--version").output().is_ok_and(|o| o.status.success());
        if !found("chromium") || !found("chromedriver") {
            crate::util::browser_missing("the annotate browser check");
            return None;
        }
        let port = free_port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let started = std::time::Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed().as_secs() < 20, "chromedriver did not start");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1400,860",
        ];
        let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        let caps = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome",
            "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": args}}}});
        let mut d = Driver { child, port, session: String::new() };
        let r = wd(port, "POST", "/session", Some(&caps));
        d.session = r["value"]["sessionId"].as_str().unwrap_or_else(|| panic!("no session: {r}")).to_string();
        Some(d)
    }
    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let r = wd(self.port, method, &format!("/session/{}{path}", self.session), body);
        assert!(r["value"].get("error").is_none(), "webdriver {path}: {r}");
        r["value"].clone()
    }
    fn js(&self, script: &str) -> Value {
        self.call("POST", "/execute/sync", Some(&json!({"script": script, "args": []})))
    }
    fn keys(&self, keys: &[&str]) {
        let mut actions = Vec::new();
        for k in keys {
            actions.push(json!({"type": "keyDown", "value": k}));
            actions.push(json!({"type": "keyUp", "value": k}));
        }
        self.call("POST", "/actions", Some(&json!({"actions": [{"type": "key", "id": "kb", "actions": actions}]})));
    }
    /// Waits until `script` returns true.
    fn wait(&self, script: &str) {
        let started = std::time::Instant::now();
        while self.js(script) != Value::Bool(true) {
            assert!(started.elapsed().as_secs() < 20, "timed out waiting for: {script}");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
    fn screenshot(&self, path: &Path) {
        let b64 = self.call("GET", "/screenshot", None);
        std::fs::write(path, base64(b64.as_str().unwrap())).unwrap();
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() && !std::thread::panicking() {
            let _ = wd(self.port, "DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = s.bytes().filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/').collect();
    let mut out = Vec::new();
    for chunk in clean.chunks(4) {
        let n = chunk.iter().fold(0u32, |acc, &c| acc << 6 | u32::from(val(c))) << (6 * (4 - chunk.len()));
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len() - 1]);
    }
    out
}

#[test]
fn the_app_in_a_real_browser_prefills_toggles_and_saves_the_kept_blocks() {
    let base = tmp("annot-browser");
    let set = base.join("set");
    write(&set.join("example-news.org/news.html"), NEWS);
    write(&set.join("example-news.org/other.html"), "<h1>Other</h1><p>Another page.</p>");
    let Some(driver) = Driver::start(&base.join("profile")) else { return };
    let srv = Server::start(&set, &["--prefill", "density"]);
    let (_, page) = srv.get("/api/page?id=example-news.org/news");
    let page: Value = serde_json::from_str(&page).unwrap();
    let blocks: Vec<(String, bool)> = page["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["text"].as_str().unwrap().into(), b["prefill"] == true))
        .collect();
    let n = blocks.len();
    assert!(n > 10, "{page}");
    driver.call("POST", "/url", Some(&json!({"url": format!("http://127.0.0.1:{}/?t={}", srv.port, srv.token)})));
    driver.wait(&format!("return document.querySelectorAll('#blocks li').length === {n}"));
    // The pre-fill is shown: the same blocks kept as the server's pre-fill.
    let shown = driver
        .js("return Array.from(document.querySelectorAll('#blocks li')).map(li => li.classList.contains('keep'))");
    let pre: Vec<bool> = blocks.iter().map(|b| b.1).collect();
    assert_eq!(shown, json!(pre), "the pre-fill is shown");
    assert!(pre.iter().any(|k| *k) && pre.iter().any(|k| !*k), "density keeps some blocks only: {pre:?}");
    // Keyboard: toggle block 0, move to block 2, mark, move to block 4, toggle the range, undo
    // it, toggle block 4 alone, then a click on the last block and save.
    let mut want = pre.clone();
    driver.keys(&[" ", "j", "j", "m", "j", "j", "r", "u", "x"]);
    want[0] = !want[0];
    want[4] = !want[4];
    let last =
        driver.call("POST", "/element", Some(&json!({"using": "css selector", "value": "#blocks li:last-child"})));
    let eid = last.as_object().unwrap().values().next().unwrap().as_str().unwrap().to_string();
    driver.call("POST", &format!("/element/{eid}/click"), Some(&json!({})));
    want[n - 1] = !want[n - 1];
    // A gold field typed in (its keys do not toggle blocks), then the focus back to the page.
    let title = driver.call("POST", "/element", Some(&json!({"using": "css selector", "value": "#f-title"})));
    let tid = title.as_object().unwrap().values().next().unwrap().as_str().unwrap().to_string();
    driver.call("POST", &format!("/element/{tid}/value"), Some(&json!({"text": "Harbour library xs"})));
    driver.js("document.activeElement.blur(); return 0");
    let shown = driver
        .js("return Array.from(document.querySelectorAll('#blocks li')).map(li => li.classList.contains('keep'))");
    assert_eq!(shown, json!(want));
    // The block under the pointer (here: the current one) is the frame's fragment target.
    let src = driver.js("return document.getElementById('frame').src");
    assert!(src.as_str().unwrap().contains(&format!("#b{}", n - 1)), "{src}");
    let shot = base.join("annotate.png");
    driver.keys(&["k", "k", "k"]);
    driver.screenshot(&shot);
    driver.keys(&["s"]);
    driver.wait("return document.getElementById('status').textContent.startsWith('saved')");
    let text = std::fs::read_to_string(set.join("example-news.org/news.txt")).unwrap();
    let kept: Vec<&str> = blocks.iter().zip(&want).filter(|(_, k)| **k).map(|(b, _)| b.0.as_str()).collect();
    assert_eq!(text, format!("{}\n", kept.join("\n\n")));
    let rec = std::fs::read_to_string(set.join("annotations.yaml")).unwrap();
    assert!(rec.contains("title: Harbour library xs"), "{rec}");
    // Saving again asks for confirmation in the page; Overwrite confirms.
    driver.keys(&["x", "s"]);
    driver.wait("return !document.getElementById('confirm').hidden");
    let confirm_shot = base.join("annotate-confirm.png");
    driver.screenshot(&confirm_shot);
    assert_eq!(std::fs::read_to_string(set.join("example-news.org/news.txt")).unwrap(), text);
    let b = driver.call("POST", "/element", Some(&json!({"using": "css selector", "value": "#overwrite"})));
    let bid = b.as_object().unwrap().values().next().unwrap().as_str().unwrap().to_string();
    driver.call("POST", &format!("/element/{bid}/click"), Some(&json!({})));
    driver.wait("return document.getElementById('status').textContent.startsWith('saved')");
    assert_ne!(std::fs::read_to_string(set.join("example-news.org/news.txt")).unwrap(), text);
    // The page list shows the state and progress; next page with n.
    driver.wait("return document.getElementById('progress').textContent === '1 / 2 saved'");
    driver.keys(&["n"]);
    driver.wait("return document.getElementById('pageid').textContent === 'example-news.org/other'");
    // The screenshot is a real rendering (a PNG of the window's size).
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000, "{} bytes", png.len());
    if let Ok(dir) = std::env::var("CETUNE_SCREENSHOTS") {
        std::fs::copy(&shot, Path::new(&dir).join("annotate.png")).unwrap();
        std::fs::copy(&confirm_shot, Path::new(&dir).join("annotate-confirm.png")).unwrap();
    }
}
