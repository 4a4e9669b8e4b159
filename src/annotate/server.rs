//! The annotation server: a small HTTP server (`http.rs`, over `std::net`) that answers one
//! request at a time, so saves never interleave; a request's token and declared length are
//! checked before its body is read, and requests are read on threads of their own within a
//! deadline, so one slow client cannot stall the others. Every request must carry the run's random token (`t=`
//! in the query; a save also in the `X-Cetune-Token` header, which no other site's page can set
//! without a CORS preflight this server never answers); page ids are looked up in the list of
//! the gold set's pages made at start, never joined to a path, so no request reaches a file
//! outside the set. The annotated page is served re-serialised without scripts, under a
//! Content-Security-Policy that forbids scripts and every remote load, into a sandboxed frame.

use super::http;
use super::{Block, block_of_units, blocks, gold_blocks, gold_text, prefill};
use crate::document::{Document, Needs};
use crate::error::{Error, Result};
use crate::extract::Extractor;
use crate::goldset::fields::{Fields, IsoDate, NAMES as FIELDS};
use crate::goldset::native::{self, Annotated, PageFile};
use crate::limits::Limits;
use rayon::prelude::*;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

const APP_HTML: &str = include_str!("app.html");
const APP_JS: &str = include_str!("app.js");
const APP_CSS: &str = include_str!("app.css");

/// The policy of the annotated page: no script, no remote load of any kind, no form, no base.
pub const FRAME_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; base-uri 'none'; form-action 'none'; sandbox";
/// The policy of the app itself: its own script and style only.
pub const APP_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; frame-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// How the server runs.
pub struct Config {
    /// The gold-set folder.
    pub root: PathBuf,
    /// The pre-fill extractor.
    pub prefill: Box<dyn Extractor>,
    /// What it is (`full`, `density`, `combine (results/x/best.yaml)`), recorded with each save.
    pub prefill_label: String,
    /// The address to listen on (127.0.0.1 unless `--listen`).
    pub listen: IpAddr,
    /// The port (0: any free one).
    pub port: u16,
    /// The page budgets.
    pub limits: Limits,
    /// Who saves (recorded in `goldset.yaml`).
    pub user: String,
    /// The token (random unless a test sets it).
    pub token: Option<String>,
}

/// A parsed page, kept while the user works on it.
struct Parsed {
    html: String,
    blocks: Vec<Block>,
    unit_block: Vec<u32>,
    prefill: Vec<bool>,
}

/// The state of a running annotation session.
pub struct App {
    cfg: Config,
    token: String,
    pages: Vec<PageFile>,
    index: HashMap<String, usize>,
    /// Pages left out at start: `package/id`, why.
    pub errors: Vec<(String, String)>,
    opened: HashSet<usize>,
    cache: Vec<(usize, Arc<Parsed>)>,
}

/// One HTTP answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// Status code.
    pub status: u16,
    /// Content type.
    pub ctype: &'static str,
    /// Body.
    pub body: Vec<u8>,
    /// The Content-Security-Policy, if any.
    pub csp: Option<&'static str>,
}

impl Reply {
    fn json(status: u16, v: Value) -> Reply {
        Reply { status, ctype: "application/json; charset=utf-8", body: v.to_string().into_bytes(), csp: None }
    }
    fn text(status: u16, s: &str) -> Reply {
        Reply { status, ctype: "text/plain; charset=utf-8", body: s.as_bytes().to_vec(), csp: None }
    }
}

/// A random token of 128 bits, hex.
fn random_token() -> String {
    use rand::RngExt;
    let mut rng = rand::rng();
    format!("{:016x}{:016x}", rng.random::<u64>(), rng.random::<u64>())
}

/// UTC time as ISO 8601 (`2026-01-02T03:04:05Z`).
fn iso_now() -> String {
    let t = crate::store::timestamp(); // YYYYMMDD-HHMMSS
    format!("{}-{}-{}T{}:{}:{}Z", &t[0..4], &t[4..6], &t[6..8], &t[9..11], &t[11..13], &t[13..15])
}

/// Refuses a gold-set folder (or package folder) the process cannot write into.
fn check_writable(dir: &Path) -> Result<()> {
    let probe = dir.join(format!(".cetune-annotate-probe-{}", std::process::id()));
    // Created exclusively: a link of that name is never followed (nor truncated).
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(Error::config(format!(
            "gold-set folder is not writable ({e}): annotate needs to save gold texts there"
        ))
        .with_path(dir)),
    }
}

/// Decodes a URL query component.
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                match u8::from_str_radix(std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("zz"), 16) {
                    Ok(v) => {
                        out.push(v);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The path and query parameters of a request URL.
pub fn split_url(url: &str) -> (String, HashMap<String, String>) {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let query = query.split('#').next().unwrap_or("");
    let mut q = HashMap::new();
    for kv in query.split('&').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        q.insert(unescape(k), unescape(v));
    }
    (unescape(path), q)
}

/// Compares two strings in time independent of where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl App {
    /// Opens the gold set: lists its pages, refuses a folder it cannot write, and reads and
    /// parses every page once, leaving out (and listing) those that cannot be decoded or parsed.
    pub fn new(cfg: Config) -> Result<App> {
        let all = native::list_pages(&cfg.root)?;
        check_writable(&cfg.root)?;
        let mut dirs: Vec<&Path> = all.iter().filter_map(|p| p.gold.parent()).collect();
        dirs.dedup();
        for d in dirs {
            check_writable(d)?;
        }
        if all.is_empty() {
            return Err(Error::config("no pages: expected package folders holding <id>.html (or .html.gz)")
                .with_path(&cfg.root));
        }
        let limits = cfg.limits;
        let checks: Vec<Option<String>> = all.par_iter().map(|p| read_and_parse(p, &limits).err()).collect();
        let mut pages = Vec::new();
        let mut errors = Vec::new();
        for (p, e) in all.into_iter().zip(checks) {
            match e {
                Some(e) => errors.push((format!("{}/{}", p.package, p.id), e)),
                None => pages.push(p),
            }
        }
        if pages.is_empty() {
            return Err(
                Error::input(format!("no page of the gold set can be read: {}", errors[0].1)).with_path(&cfg.root)
            );
        }
        let index = pages.iter().enumerate().map(|(i, p)| (format!("{}/{}", p.package, p.id), i)).collect();
        let token = cfg.token.clone().unwrap_or_else(random_token);
        Ok(App { cfg, token, pages, index, errors, opened: HashSet::new(), cache: Vec::new() })
    }

    /// The run's token.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The pages that can be annotated.
    pub fn pages(&self) -> usize {
        self.pages.len()
    }

    fn parsed(&mut self, i: usize) -> std::result::Result<Arc<Parsed>, String> {
        if let Some((_, p)) = self.cache.iter().find(|(k, _)| *k == i) {
            return Ok(p.clone());
        }
        let page = &self.pages[i];
        let html = read_page(page, &self.cfg.limits)?;
        let ex = &self.cfg.prefill;
        let doc = parse_page(page, &html, &self.cfg.limits, ex.needs())?;
        let p = crate::error::isolate(|| {
            let b = blocks(&doc);
            let pre = prefill(&doc, &b, ex.as_ref())?;
            Ok((block_of_units(&b), b, pre))
        })
        .ok()
        .and_then(|r: crate::extract::Fallible<_>| r.ok())
        .ok_or_else(|| "the extractor failed on this page".to_string())?;
        let parsed = Arc::new(Parsed { html, unit_block: p.0, blocks: p.1, prefill: p.2 });
        self.cache.insert(0, (i, parsed.clone()));
        self.cache.truncate(4);
        Ok(parsed)
    }

    fn state(&self, i: usize) -> &'static str {
        if self.pages[i].gold.exists() {
            "saved"
        } else if self.opened.contains(&i) {
            "pre-filled"
        } else {
            "no gold"
        }
    }

    /// Answers one request: `method`, the URL (path and query), the `X-Cetune-Token` header and
    /// the body.
    pub fn handle(&mut self, method: &str, url: &str, header_token: Option<&str>, body: &[u8]) -> Reply {
        let (path, q) = split_url(url);
        if !q.get("t").is_some_and(|t| same(t, &self.token)) {
            return Reply::text(403, "forbidden: this request does not carry the session's token");
        }
        let page = |app: &App| q.get("id").and_then(|id| app.index.get(id).copied());
        match (method, path.as_str()) {
            ("GET", "/") => Reply {
                status: 200,
                ctype: "text/html; charset=utf-8",
                body: APP_HTML.replace("{{TOKEN}}", &self.token).into_bytes(),
                csp: Some(APP_CSP),
            },
            ("GET", "/app.js") => {
                Reply { status: 200, ctype: "text/javascript; charset=utf-8", body: APP_JS.into(), csp: None }
            }
            ("GET", "/app.css") => {
                Reply { status: 200, ctype: "text/css; charset=utf-8", body: APP_CSS.into(), csp: None }
            }
            ("GET", "/api/pages") => {
                let list: Vec<Value> = (0..self.pages.len())
                    .map(|i| json!({"id": format!("{}/{}", self.pages[i].package, self.pages[i].id), "state": self.state(i)}))
                    .collect();
                let errors: Vec<Value> = self.errors.iter().map(|(id, e)| json!({"id": id, "error": e})).collect();
                let saved = (0..self.pages.len()).filter(|&i| self.state(i) == "saved").count();
                Reply::json(
                    200,
                    json!({"name": self.cfg.root.file_name().map(|n| n.to_string_lossy().into_owned()),
                           "prefill": self.cfg.prefill_label, "pages": list, "errors": errors, "saved": saved}),
                )
            }
            ("GET", "/api/page") => {
                let Some(i) = page(self) else { return Reply::text(404, "no such page in this gold set") };
                let p = match self.parsed(i) {
                    Ok(p) => p,
                    Err(e) => return Reply::json(422, json!({"error": e})),
                };
                // A page with a gold text shows that text's blocks; others the pre-fill.
                // Read as every command reads gold texts (size cap, gzip, charset), so the blocks
                // shown are those `evaluate` and `--effort` score.
                let max = self.cfg.limits.max_page_bytes;
                let gold = crate::goldset::decode::read_raw(&self.pages[i].gold, max)
                    .and_then(|raw| native::gold_text(raw, max))
                    .ok();
                let keep = match &gold {
                    Some(g) => gold_blocks(&p.blocks, g, Default::default()),
                    None => p.prefill.clone(),
                };
                self.opened.insert(i);
                let blocks: Vec<Value> = p
                    .blocks
                    .iter()
                    .zip(&keep)
                    .zip(&p.prefill)
                    .map(|((b, k), pre)| json!({"text": b.text, "keep": k, "prefill": pre, "words": b.tokens}))
                    .collect();
                let fields = match self.fields(i) {
                    Ok(f) => f,
                    Err(e) => return Reply::json(422, json!({"error": e.to_string()})),
                };
                let shown: serde_json::Map<String, Value> =
                    FIELDS.iter().map(|n| (n.to_string(), fields.get(n).map_or(Value::Null, |v| v.into()))).collect();
                Reply::json(
                    200,
                    json!({"id": q.get("id"), "state": self.state(i), "from": if gold.is_some() {"gold"} else {"prefill"},
                           "prefill": self.cfg.prefill_label, "blocks": blocks, "fields": shown, "posts": fields.posts}),
                )
            }
            ("GET", "/frame") => {
                let Some(i) = page(self) else { return Reply::text(404, "no such page in this gold set") };
                let p = match self.parsed(i) {
                    Ok(p) => p,
                    Err(e) => return Reply::text(422, &e),
                };
                let wrap = |u: u32| {
                    let Some(&b) = p.unit_block.get(u as usize) else { return String::new() };
                    if p.blocks[b as usize].first == u {
                        format!(" data-b=\"{b}\" id=\"b{b}\"")
                    } else {
                        format!(" data-b=\"{b}\"")
                    }
                };
                let marked = Document::marked_html(&p.html, &self.cfg.limits, &wrap);
                let mut css = String::from("<style>[data-b]{scroll-margin:40vh}");
                let rules: Vec<String> =
                    (0..p.blocks.len()).map(|b| format!("html:has(#b{b}:target) [data-b=\"{b}\"]")).collect();
                css.push_str(&rules.join(","));
                css.push_str(
                    "{background:#ffe066 !important;color:#000 !important;outline:2px solid #e8590c !important}",
                );
                css.push_str("</style>");
                let body = marked.replacen("<!DOCTYPE html>", &format!("<!DOCTYPE html>{css}"), 1);
                Reply { status: 200, ctype: "text/html; charset=utf-8", body: body.into_bytes(), csp: Some(FRAME_CSP) }
            }
            ("POST", "/api/save") => {
                if !header_token.is_some_and(|t| same(t, &self.token)) {
                    return Reply::text(403, "forbidden: a save must carry the session's token in X-Cetune-Token");
                }
                self.save(body)
            }
            _ => Reply::text(404, "not found"),
        }
    }

    /// The gold fields of page `i` as every command reads them (`goldset.yaml`, the fields saved
    /// here before, the comments sidecar).
    fn fields(&self, i: usize) -> Result<Fields> {
        let page = &self.pages[i];
        let manifest = native::manifest(&self.cfg.root)?;
        native::doc_fields(&self.cfg.root, &manifest, &page.package, &page.id, self.cfg.limits.max_page_bytes)
    }

    fn save(&mut self, body: &[u8]) -> Reply {
        let Ok(v) = serde_json::from_slice::<Value>(body) else { return Reply::text(400, "the body is not JSON") };
        let Some(i) = v.get("id").and_then(Value::as_str).and_then(|id| self.index.get(id).copied()) else {
            return Reply::text(404, "no such page in this gold set");
        };
        let Some(keep) = v.get("keep").and_then(Value::as_array) else { return Reply::text(400, "no \"keep\" list") };
        let keep: Vec<bool> = keep.iter().map(|k| k.as_bool().unwrap_or(false)).collect();
        let confirm = v.get("confirm").and_then(Value::as_bool).unwrap_or(false);
        let edited = match v.get("fields").map(edited_fields).transpose() {
            Ok(f) => f,
            Err(e) => return Reply::text(400, &e),
        };
        let p = match self.parsed(i) {
            Ok(p) => p,
            Err(e) => return Reply::json(422, json!({"error": e})),
        };
        if keep.len() != p.blocks.len() {
            return Reply::text(
                400,
                &format!("\"keep\" has {} entries; the page has {} blocks", keep.len(), p.blocks.len()),
            );
        }
        let page = &self.pages[i];
        let text = gold_text(&p.blocks, &keep);
        // Only a different text needs the confirmation (saving the fields alone does not).
        let max = self.cfg.limits.max_page_bytes;
        let same_text = page.gold.exists()
            && crate::goldset::decode::read_raw(&page.gold, max)
                .and_then(|raw| native::gold_text(raw, max))
                .is_ok_and(|old| old == text);
        if page.gold.exists() && !confirm && !same_text {
            return Reply::json(
                409,
                json!({"exists": true, "message": "a gold text exists for this page: confirm to overwrite it"}),
            );
        }
        if !same_text && let Err(e) = crate::report::write_atomic(&page.gold, text.as_bytes()) {
            return Reply::json(500, json!({"error": e.to_string()}));
        }
        // Fields not sent keep what was saved before.
        let fields = match edited {
            Some(f) => Some(f),
            None => native::annotations(&self.cfg.root)
                .ok()
                .and_then(|mut a| a.remove(&format!("{}/{}", page.package, page.id))?.fields),
        };
        let key = format!("{}/{}", page.package, page.id);
        let changed =
            keep.iter().zip(&p.prefill).zip(&p.blocks).filter(|((k, pre), b)| k != pre && b.tokens > 0).count();
        let record = Annotated {
            by: self.cfg.user.clone(),
            prefill: self.cfg.prefill_label.clone(),
            at: iso_now(),
            kept: keep.iter().filter(|k| **k).count(),
            blocks: keep.len(),
            changed,
            fields,
        };
        if let Err(e) = record_save(&self.cfg.root, &key, record) {
            return Reply::json(
                500,
                json!({"error": format!("the gold text was saved, but annotations.yaml was not updated: {e}")}),
            );
        }
        let words = crate::eval::words::tokens(&text, Default::default()).len();
        Reply::json(200, json!({"saved": format!("{key}.txt"), "words": words, "changed": changed}))
    }
}

/// The fields of a save's `"fields"` object (`{"title": "…", "author": "…", "date": "2012-05-11",
/// "comments": "…"}`; an empty or missing value clears the field), or why it is refused.
fn edited_fields(v: &Value) -> std::result::Result<Fields, String> {
    let Some(obj) = v.as_object() else { return Err("\"fields\" must be an object".into()) };
    let mut f = Fields::default();
    for (k, v) in obj {
        let text = match v {
            Value::Null => None,
            Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
            _ => return Err(format!("field '{k}' must be a string")),
        };
        match k.as_str() {
            "title" => f.title = text,
            "author" => f.author = text,
            "comments" => f.comments = text,
            "date" => f.date = text.map(|d| IsoDate::parse(&d)).transpose().map_err(|e| e.message)?,
            _ => return Err(format!("unknown field '{k}' (expected {})", FIELDS.join(", "))),
        }
    }
    Ok(f)
}

/// Records a save in the set's `annotations.yaml` (written atomically), never in the user's
/// `goldset.yaml`, whose comments and order would be lost in a rewrite. The record carries the
/// page's fields as the user saved them; reading the set puts them over `goldset.yaml`'s.
fn record_save(root: &Path, key: &str, record: Annotated) -> Result<()> {
    let mut all = native::annotations(root)?;
    all.insert(key.to_string(), record);
    crate::report::write_atomic(&root.join(native::ANNOTATIONS), crate::yaml::to_string(&all)?.as_bytes())
}

/// Reads, decodes and parses a page: its text, or why it cannot be annotated.
fn read_and_parse(p: &PageFile, limits: &Limits) -> std::result::Result<String, String> {
    let html = read_page(p, limits)?;
    parse_page(p, &html, limits, Needs::NONE)?;
    Ok(html)
}

/// Reads and decodes a page: its text, or why it is not an HTML page.
fn read_page(p: &PageFile, limits: &Limits) -> std::result::Result<String, String> {
    let bytes = crate::goldset::decode::read_bytes(&p.page, limits.max_page_bytes).map_err(|e| e.to_string())?;
    let html = crate::goldset::decode::decode_html(&bytes).0;
    if crate::collect::page::looks_binary(&html) {
        return Err(format!("{}: binary data, not an HTML page", p.page.display()));
    }
    Ok(html)
}

/// Parses a page's text with every view and the facts of `needs` (the pre-fill's): the
/// document, or why it cannot be annotated.
fn parse_page(p: &PageFile, html: &str, limits: &Limits, needs: Needs) -> std::result::Result<Document, String> {
    let doc = crate::error::isolate(|| Document::parse_for(html, limits, Needs::ALL | needs).0)
        .map_err(|_| format!("{}: the HTML parser failed on this page", p.page.display()))?;
    if doc.dom.texts.is_empty() {
        return Err(format!("{}: no text on the page", p.page.display()));
    }
    Ok(doc)
}

/// Runs the server until Ctrl-C (or `stop` is set): prints the URL, answers requests one at a
/// time. A save in progress when Ctrl-C comes is finished first; files are written atomically.
/// Connections are read on threads of their own under the limits of [`http`] (the token and
/// the declared length checked before any body byte, a deadline for the whole request).
pub fn serve(mut app: App, stop: Arc<AtomicBool>) -> Result<()> {
    let addr = SocketAddr::new(app.cfg.listen, app.cfg.port);
    let listener = TcpListener::bind(addr).map_err(|e| Error::config(format!("cannot listen on {addr}: {e}")))?;
    let local = listener.local_addr().map_err(|e| Error::config(format!("cannot listen on {addr}: {e}")))?;
    listener.set_nonblocking(true).map_err(|e| Error::config(format!("cannot listen on {addr}: {e}")))?;
    let host = if local.ip().is_unspecified() { "127.0.0.1".to_string() } else { local.ip().to_string() };
    let host = if host.contains(':') { format!("[{host}]") } else { host };
    println!(
        "annotating {} pages of {} ({} left out); pre-fill: {}",
        app.pages(),
        app.cfg.root.display(),
        app.errors.len(),
        app.cfg.prefill_label
    );
    println!("open http://{host}:{}/?t={}", local.port(), app.token());
    println!("(Ctrl-C stops the server)");
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let (jobs, requests) = std::sync::mpsc::channel::<http::Job>();
    let open = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let token = Arc::new(app.token.clone());
    while !stop.load(Ordering::SeqCst) {
        // Requests are answered here, one at a time: saves never interleave.
        if let Ok((req, back)) = requests.recv_timeout(std::time::Duration::from_millis(10)) {
            let reply = app.handle(&req.method, &req.url, req.token.as_deref(), &req.body);
            let _ = back.send(answer_of(reply));
        }
        loop {
            let stream = match listener.accept() {
                Ok((s, _)) => s,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Error::input(format!("the server stopped: {e}"))),
            };
            if open.load(Ordering::SeqCst) >= http::MAX_CONNECTIONS {
                std::thread::spawn(move || http::busy(stream));
                continue;
            }
            open.fetch_add(1, Ordering::SeqCst);
            let (open, jobs, token) = (open.clone(), jobs.clone(), token.clone());
            std::thread::spawn(move || http::connection(stream, open, |url| precheck(&token, url), jobs));
        }
    }
    println!("stopped");
    Ok(())
}

/// What can be answered from the request line alone, before a byte of the body is read: a
/// request without the session's token (403). (The declared length is checked next, by
/// [`http`].)
fn precheck(token: &str, url: &str) -> Option<http::Answer> {
    let (_, q) = split_url(url);
    if !q.get("t").is_some_and(|t| same(t, token)) {
        return Some(http::Answer::text(403, "forbidden: this request does not carry the session's token"));
    }
    None
}

/// A reply with the headers every answer carries.
fn answer_of(reply: Reply) -> http::Answer {
    let mut headers = vec![
        ("Cache-Control", "no-store".to_string()),
        ("X-Content-Type-Options", "nosniff".to_string()),
        ("Referrer-Policy", "no-referrer".to_string()),
    ];
    if let Some(csp) = reply.csp {
        headers.push(("Content-Security-Policy", csp.to_string()));
    }
    http::Answer { status: reply.status, ctype: reply.ctype, body: reply.body, headers }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_split_and_decoded_and_a_folder_that_cannot_be_written_is_refused() {
        let (path, q) = split_url("/api/page?id=a%2Fb+c&t=00#x");
        assert_eq!((path.as_str(), q["id"].as_str(), q["t"].as_str()), ("/api/page", "a/b c", "00"));
        assert_eq!(split_url("/%2e%2e/x").0, "/../x");
        assert!(same("abc", "abc") && !same("abc", "abd") && !same("abc", "ab"));
        let e = check_writable(Path::new("/proc/1")).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().starts_with("/proc/1: gold-set folder is not writable"), "{e}");
        assert_eq!(iso_now().len(), 20);
    }
}
