//! `goldset new` and `annotate` end to end: the new gold set, the server's safety rules over
//! plain HTTP (token, traversal, overwrite confirmation, concurrent saves, Ctrl-C, a folder it
//! cannot write) and the effort measure. The app in a real browser is checked by the `browser`
//! test target (`tests/browser/`).

pub use crate::annotate_server::{Server, http};
use crate::util::{cetune, tmp, write};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};

const NEWS: &str = include_str!("data/annotate-news.html");

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
