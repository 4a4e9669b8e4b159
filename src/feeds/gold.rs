//! `goldset from-feed` (`blogs.md` §14.2): a native gold set from crawled sites and their own
//! feeds. The inputs are read as `extract` reads them (site mirrors as folders, WARC files,
//! JSONL `{url, html}` records), in two streaming passes, so memory holds the feeds and one page
//! at a time, whatever the size of a WARC:
//!
//! 1. every input is read and each item that is a feed by its content (an XML root `rss`,
//!    `feed` or `rdf:RDF`, whatever the file is called) is parsed; comment feeds and comment
//!    entries are left out, each feed gives its first `max_items` entries, and each entry's
//!    link is resolved to a URL key (below), one wanted page per key and site (a full entry
//!    wins over a summary of the same page);
//! 2. every input is read again and each page whose URL key is wanted is written: `<id>.html`
//!    the page as read, `<id>.txt` the entry's full content (its own block elements give the
//!    line breaks), and in `goldset.yaml` its url, lang, title, author, date and `feed: {kind,
//!    words, format}`; a summary entry is written only with `keep_summaries`, without a gold
//!    text but with its summary (what a wrapper learns from).
//!
//! **URL keys.** A URL is reduced to `host/path?query`: scheme, port, `www.`, fragment, a
//! trailing slash and a final `index.html` (`.htm`, `.php`) dropped, host lower-cased,
//! percent escapes decoded. A mirror file's keys come from its path below the input folder:
//! the first folder is the host when it looks like one (`example.com/2013/10/a.html`), else the
//! input folder's name when that does, else the host is unknown; HTTrack's and wget's names are
//! undone (`a.html?showComment=1.html` is `a.html?showComment=1`, `page@q=1` is `page?q=1`,
//! `slug.html` may be `slug`). A relative entry link (HTTrack rewrites them: `../slug/`) is
//! resolved against the feed's own place. A mirror page whose host is unknown also matches an
//! absolute link whose path ends with its path, when exactly one does.
//!
//! Package = the site's host (the entry's, else the feed's channel link's, else the mirror's).
//! Ids are the entries' places in their site's feeds (`01` newest). Imports from the crate:
//! `collect` (the inputs), `document`, `goldset` (decoding, the writer), `limits`, `paths`,
//! `report` (the progress bar) and `error`.

use super::feed::{self, Entry, Feed};
use crate::collect::page::{decode_http, json_line, looks_binary};
use crate::collect::{InputFormat, Inputs, Payload};
use crate::document::{Document, Needs, norm_host};
use crate::error::{Error, Result};
use crate::goldset::decode::{decode_html, read_bytes, unpack};
use crate::goldset::fields::{FeedMeta, IsoDate};
use crate::goldset::native::{DocMeta, Manifest, Writer};
use crate::goldset::url::host_of;
use crate::limits::Limits;
use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Options of `goldset from-feed`.
#[derive(Debug, Clone)]
pub struct Options {
    /// How input files are read (`auto`: folders are mirrors, files by name).
    pub format: InputFormat,
    /// Entries read from each feed, in feed order (the paper's 10).
    pub max_items: usize,
    /// Words of full content below which an entry is a summary.
    pub min_full_words: usize,
    /// Keep summary entries' pages, with fields and no gold text.
    pub keep_summaries: bool,
    /// Replace a gold set cetune wrote before.
    pub force: bool,
    /// The page budgets (a feed is read within the page size budget).
    pub limits: Limits,
    /// No progress bar.
    pub quiet: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            format: InputFormat::Auto,
            max_items: 10,
            min_full_words: feed::MIN_FULL_WORDS,
            keep_summaries: false,
            force: false,
            limits: Limits::default(),
            quiet: true,
        }
    }
}

/// What `from-feed` found and wrote for one site.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SiteReport {
    /// The package: the site's host.
    pub site: String,
    /// Feeds of posts read.
    pub feeds: usize,
    /// Comment feeds passed over.
    pub comment_feeds: usize,
    /// Distinct entries (pages wanted).
    pub entries: usize,
    /// Entries whose page was found.
    pub resolved: usize,
    /// Resolved entries with full content (written with a gold text).
    pub full: usize,
    /// Resolved entries with a summary only.
    pub summary: usize,
    /// Full entries whose text is less than half the page's largest text block (a clipped feed
    /// that did not say so).
    pub clipped: usize,
    /// Pages written.
    pub written: usize,
    /// Median words of the resolved entries' texts.
    pub feed_words: usize,
    /// Median words of their pages' rendered text.
    pub page_words: usize,
    /// Links of the entries whose page was not found.
    pub unresolved: Vec<String>,
    /// `id: feed words / largest block words` of the clipped entries.
    pub clipped_ids: Vec<String>,
}

/// What `from-feed` did.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Per site, in name order.
    pub sites: Vec<SiteReport>,
    /// Items read in the first pass.
    pub items: u64,
    /// Items that could not be read (or feeds refused by a budget): what, why.
    pub skipped: Vec<(String, String)>,
}

/// Where an item is: the host (empty when unknown), its path and query as a URL path, and the
/// absolute URL when the input gives one.
#[derive(Debug, Clone, Default, PartialEq)]
struct Place {
    host: String,
    path: String,
    url: Option<String>,
}

/// A feed found in the first pass.
struct Found {
    /// Which input it came from.
    src: usize,
    place: Place,
    feed: Feed,
}

/// A page wanted: an entry of a site's feeds.
#[derive(Debug, Clone)]
struct Want {
    site: String,
    /// Place among its site's entries (the id).
    index: usize,
    entry: Entry,
    format: &'static str,
    /// The entry's absolute URL, when it can be told.
    url: Option<String>,
    /// The feed's language.
    lang: Option<String>,
    link: String,
    resolved: bool,
}

/// Decodes percent escapes when they make UTF-8 (else the text as written).
fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let b = s.as_bytes();
    let hex = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let (Some(h), Some(l)) = (b.get(i + 1).and_then(|&c| hex(c)), b.get(i + 2).and_then(|&c| hex(c)))
        {
            out.push(h * 16 + l);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

/// The key of `host` and a URL path (with its query): `host/path?query` normalised (see the
/// module documentation).
fn key(host: &str, path_query: &str) -> String {
    let pq = path_query.split('#').next().unwrap_or("");
    let (path, query) = pq.split_once('?').map_or((pq, None), |(p, q)| (p, Some(q)));
    let mut path = percent_decode(path).replace("/./", "/");
    for end in ["index.html", "index.htm", "index.php", "default.html", "default.htm"] {
        if path.ends_with(&format!("/{end}")) || path == end {
            path.truncate(path.len() - end.len());
        }
    }
    let path = path.trim_end_matches('/');
    let path = if path.starts_with('/') { path.to_string() } else { format!("/{path}") };
    match query.map(percent_decode).filter(|q| !q.is_empty()) {
        Some(q) => format!("{}{path}?{q}", norm_host(host)),
        None => format!("{}{path}", norm_host(host)),
    }
}

/// Splits an absolute URL (`http://`, `https://`, `//`) into host and path with query.
fn split_url(url: &str) -> Option<(String, String)> {
    let u = url.trim();
    let rest = match u.split_once("://") {
        Some((scheme, r)) if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") => r,
        Some(_) => return None,
        None => u.strip_prefix("//")?,
    };
    let cut = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (host, path) = rest.split_at(cut);
    (!host.is_empty()).then(|| (host.to_string(), if path.is_empty() { "/".to_string() } else { path.to_string() }))
}

/// `rel` resolved against the path `base` (a file's path: its folder is the base), dot
/// segments removed.
fn join_path(base: &str, rel: &str) -> String {
    let rel = rel.trim();
    if rel.starts_with('/') {
        return normalise_dots(rel);
    }
    if rel.starts_with('?') {
        return format!("{}{rel}", base.split('?').next().unwrap_or(""));
    }
    let dir = &base[..base.split('?').next().unwrap_or("").rfind('/').map_or(0, |i| i + 1)];
    normalise_dots(&format!("{dir}{rel}"))
}

fn normalise_dots(path: &str) -> String {
    let (p, q) = path.split_once('?').map_or((path, None), |(p, q)| (p, Some(q)));
    let mut out: Vec<&str> = Vec::new();
    let parts: Vec<&str> = p.split('/').collect();
    for (i, seg) in parts.iter().enumerate() {
        match *seg {
            "." => {}
            ".." => {
                if out.len() > 1 {
                    out.pop();
                }
            }
            s if s.is_empty() && i > 0 && i + 1 < parts.len() => {}
            s => out.push(s),
        }
    }
    let mut r = out.join("/");
    if (p.ends_with("/..") || p.ends_with("/.") || p.ends_with('/')) && !r.ends_with('/') {
        r.push('/');
    }
    if !r.starts_with('/') {
        r.insert(0, '/');
    }
    match q {
        Some(q) => format!("{r}?{q}"),
        None => r,
    }
}

/// A folder or file name that looks like a host (`example.com`, `www.blog.example`).
fn host_like(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    name.contains('.')
        && !name.starts_with('.')
        && name.chars().any(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == ':')
        && !crate::collect::inputs::HTML_EXTENSIONS.iter().any(|e| lower.ends_with(e))
}

/// A mirror file's place: its path below the input folder `root` (named `root_name`).
fn mirror_place(root: &Path, root_name: &str, file: &Path) -> Place {
    let rel = file.strip_prefix(root).unwrap_or(file);
    let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    let (host, rest) = match parts.split_first() {
        Some((first, rest)) if !rest.is_empty() && host_like(first) => (norm_host(first), rest.to_vec()),
        _ if host_like(root_name) => (norm_host(root_name), parts.clone()),
        _ => (String::new(), parts.clone()),
    };
    Place { host, path: format!("/{}", rest.join("/")), url: None }
}

/// The keys of a mirror file's place: its path as written, and as HTTrack's and wget's names
/// may stand for the URL (an appended `.html` after a query or on an extension-less name, `@`
/// for `?`).
fn mirror_keys(p: &Place) -> Vec<String> {
    let mut paths = vec![p.path.clone()];
    let (dir, name) = p.path.rsplit_once('/').unwrap_or(("", &p.path));
    let mut names = vec![name.to_string()];
    if !name.contains('?')
        && let Some((a, b)) = name.split_once('@')
    {
        names.push(format!("{a}?{b}"));
    }
    for n in names.clone() {
        let lower = n.to_ascii_lowercase();
        for ext in [".html", ".htm"] {
            if lower.ends_with(ext) && n.len() > ext.len() {
                names.push(n[..n.len() - ext.len()].to_string());
            }
        }
    }
    for n in names.into_iter().skip(1) {
        paths.push(format!("{dir}/{n}"));
    }
    let mut keys: Vec<String> = paths.iter().map(|path| key(&p.host, path)).collect();
    keys.dedup();
    keys
}

/// An item's text when it is a feed by its content (read within `max` bytes; a file is sniffed
/// from its first 4 kB before it is read whole), else `Ok(None)`.
fn feed_text(payload: &Payload, max: u64) -> std::result::Result<Option<String>, String> {
    let text = match payload {
        Payload::File(p) => {
            let mut head = Vec::with_capacity(4096);
            let f = std::fs::File::open(p).map_err(|e| format!("cannot read: {e}"))?;
            let size = f.metadata().map_err(|e| format!("cannot read: {e}"))?.len();
            f.take(4096).read_to_end(&mut head).map_err(|e| format!("cannot read: {e}"))?;
            let gz = head.starts_with(&[0x1f, 0x8b]);
            if !gz && !feed::looks_like_feed(&decode_html(&head).0) {
                return Ok(None);
            }
            if size > max {
                // Refused unread: a 1 GB feed costs nothing.
                return Err(format!(
                    "a feed larger than {} MB (the page budget; see --max-page-mb): not read",
                    max.div_ceil(1 << 20)
                ));
            }
            decode_html(&read_bytes(p, max).map_err(|e| e.to_string())?).0
        }
        Payload::Bytes(b) | Payload::Http(b, _) => {
            if b.len() as u64 > max {
                return Err(format!(
                    "larger than {} MB (the page budget; see --max-page-mb): not read",
                    max.div_ceil(1 << 20)
                ));
            }
            decode_html(b).0
        }
        Payload::JsonLine(line) => match json_line(line) {
            Ok((_, _, Ok(html))) => html,
            _ => return Ok(None),
        },
        Payload::Error(e) => return Err(e.clone()),
    };
    Ok(feed::looks_like_feed(&text).then_some(text))
}

/// A page's text and the bytes to write, read within `max` bytes.
fn page_text(payload: Payload, max: u64) -> std::result::Result<(Vec<u8>, String), String> {
    match payload {
        Payload::File(p) => {
            let b = read_bytes(&p, max).map_err(|e| e.to_string())?;
            let t = decode_html(&b).0;
            Ok((b, t))
        }
        Payload::Bytes(b) => {
            let b = unpack(b, max).map_err(|e| e.to_string())?;
            let t = decode_html(&b).0;
            Ok((b, t))
        }
        Payload::Http(b, cs) => {
            let b = unpack(b, max).map_err(|e| e.to_string())?;
            let t = decode_http(&b, cs);
            // A charset only the HTTP header named: write the decoded text, marked as UTF-8.
            let bytes = if t == decode_html(&b).0 { b } else { utf8_with_bom(&t) };
            Ok((bytes, t))
        }
        Payload::JsonLine(line) => match json_line(&line) {
            Ok((_, _, Ok(html))) => Ok((utf8_with_bom(&html), html)),
            Ok((_, _, Err(e))) | Err(e) => Err(e),
        },
        Payload::Error(e) => Err(e),
    }
}

fn utf8_with_bom(t: &str) -> Vec<u8> {
    let mut b = vec![0xef, 0xbb, 0xbf];
    b.extend_from_slice(t.as_bytes());
    b
}

/// The place of an item of a stream (WARC, JSONL): its URL's.
fn stream_place(url: Option<&str>) -> Place {
    match url.and_then(split_url) {
        Some((h, p)) => Place { host: norm_host(&h), path: p, url: url.map(str::to_string) },
        None => Place::default(),
    }
}

/// One pass over the inputs: `visit(source index, place, payload)` for every item.
fn each_item(
    srcs: &[PathBuf],
    o: &Options,
    bar: &crate::report::Progress,
    mut visit: impl FnMut(usize, Place, Payload, &str),
) -> Result<u64> {
    let mut n = 0;
    for (si, src) in srcs.iter().enumerate() {
        let mirror = src.is_dir();
        let root_name = src
            .canonicalize()
            .ok()
            .and_then(|c| c.file_name().map(|f| f.to_string_lossy().into_owned()))
            .unwrap_or_default();
        let inputs = Inputs::new(std::slice::from_ref(src), None, o.format, o.limits.max_page_bytes)?.with_feeds();
        for item in inputs {
            n += 1;
            bar.inc();
            let mut place = match (&item.payload, mirror) {
                (Payload::File(p), true) => mirror_place(src, &root_name, p),
                _ => stream_place(item.url.as_deref()),
            };
            if let Payload::JsonLine(line) = &item.payload
                && place.url.is_none()
                && let Ok((_, Some(url), _)) = json_line(line)
            {
                place = stream_place(Some(&url));
            }
            visit(si, place, item.payload, &item.id);
        }
    }
    Ok(n)
}

/// The folder that holds every path of `paths` (`/a/x/`, `/a/y` → `/a/`).
fn common_dir(paths: &[String]) -> String {
    let dirs: Vec<&str> = paths.iter().map(|p| p.split('?').next().unwrap_or("")).collect();
    let Some(first) = dirs.first() else { return "/".into() };
    let mut end = first.rfind('/').map_or(0, |i| i + 1);
    for d in &dirs[1..] {
        let same = first.bytes().zip(d.bytes()).take(end).take_while(|(a, b)| a == b).count();
        end = first[..same].rfind('/').map_or(0, |i| i + 1);
    }
    let root = &first[..end];
    if root.is_empty() { "/".into() } else { root.to_string() }
}

/// The wanted pages of the feeds found, per site in feed order, and the sites' feed counts.
///
/// A feed in a mirror whose host is unknown (HTTrack's relative links, a mirror folder not
/// named after its host) belongs to the site rooted at the folder that holds its entries'
/// pages; that site is named by the channel link of one of its feeds (`https://example.org/x`,
/// which also stands for that folder in the entries' URLs), else by the folder's name.
fn wants(found: &[Found], srcs: &[PathBuf], o: &Options) -> (Vec<Want>, BTreeMap<String, (usize, usize)>) {
    let mut out: Vec<Want> = Vec::new();
    let mut by_key: HashMap<(String, String), usize> = HashMap::new();
    let mut per_site: BTreeMap<String, usize> = BTreeMap::new();
    let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let entries = |f: &Found| -> Vec<Entry> {
        f.feed
            .entries
            .iter()
            .filter(|e| !e.reply && e.link.as_deref().is_some_and(|l| !l.trim().is_empty()))
            .take(o.max_items.max(1))
            .cloned()
            .collect()
    };
    // The root folder of each feed of an unknown host, and the name and address of each root.
    let roots: Vec<String> = found
        .iter()
        .map(|f| {
            let rel: Vec<String> = entries(f)
                .iter()
                .filter_map(|e| e.link.as_deref())
                .filter(|l| split_url(l).is_none())
                .map(|l| join_path(&f.place.path, l))
                .collect();
            if rel.is_empty() { common_dir(std::slice::from_ref(&f.place.path)) } else { common_dir(&rel) }
        })
        .collect();
    let mut root_site: HashMap<(usize, String), (String, Option<String>)> = HashMap::new();
    for (f, root) in found.iter().zip(&roots) {
        if !f.place.host.is_empty() || f.place.url.is_some() || f.feed.comments {
            continue;
        }
        let channel = f.feed.link.as_deref().filter(|l| host_of(l).is_some());
        let slot = root_site.entry((f.src, root.clone())).or_insert_with(|| {
            let folder = root.trim_end_matches('/').rsplit('/').next().filter(|n| !n.is_empty()).map(str::to_string);
            let src_name =
                srcs[f.src].canonicalize().ok().and_then(|c| c.file_name().map(|n| n.to_string_lossy().into_owned()));
            (folder.or(src_name).unwrap_or_else(|| "unknown-host".into()), None)
        });
        if slot.1.is_none()
            && let Some(c) = channel
        {
            *slot = (host_of(c).unwrap_or_default(), Some(c.to_string()));
        }
    }
    for (f, root) in found.iter().zip(&roots) {
        let channel_host = f.feed.link.as_deref().and_then(host_of);
        let mirror_site = root_site.get(&(f.src, root.clone()));
        let fallback = mirror_site
            .map(|s| s.0.clone())
            .or_else(|| (!f.place.host.is_empty()).then(|| f.place.host.clone()))
            .or(channel_host.clone());
        if f.feed.comments {
            // A post's comment feed (`slug/feed/`) belongs to the site whose folder holds it.
            let holder = root_site
                .iter()
                .filter(|((src, r), _)| *src == f.src && f.place.path.starts_with(r.as_str()))
                .max_by_key(|((_, r), _)| r.len())
                .map(|(_, (name, _))| name.clone());
            let site = match (&f.place.host, holder) {
                (h, _) if !h.is_empty() => h.clone(),
                (_, Some(name)) => name,
                _ => fallback.clone().unwrap_or_else(|| "unknown-host".into()),
            };
            counts.entry(site).or_default().1 += 1;
            continue;
        }
        let mut sites_of_feed: Vec<String> = Vec::new();
        for e in entries(f).iter() {
            let link = e.link.as_deref().map(str::trim).unwrap_or_default();
            // The page's key and absolute URL.
            let (k, url, host) = match split_url(link) {
                Some((h, p)) => (key(&h, &p), Some(link.to_string()), Some(norm_host(&h))),
                None => {
                    let path = join_path(&f.place.path, link);
                    let url = match (&f.place.url, mirror_site) {
                        (Some(base), _) => split_url(base).map(|(h, _)| {
                            let scheme = base.split_once("://").map_or("https", |(s, _)| s);
                            format!("{scheme}://{h}{path}")
                        }),
                        // A mirror: the channel's address stands for the site's root folder.
                        (None, Some((_, Some(site)))) => {
                            let below = path.strip_prefix(root.as_str()).unwrap_or(path.trim_start_matches('/'));
                            Some(format!("{}/{below}", site.trim_end_matches('/')))
                        }
                        _ if !f.place.host.is_empty() => Some(format!("http://{}{path}", f.place.host)),
                        _ => None,
                    };
                    let host = (!f.place.host.is_empty()).then(|| f.place.host.clone());
                    (key(&f.place.host, &path), url, host)
                }
            };
            let site = host.clone().or_else(|| fallback.clone()).unwrap_or_else(|| "unknown-host".into());
            if !sites_of_feed.contains(&site) {
                sites_of_feed.push(site.clone());
            }
            let kind = f.feed.kind.name();
            match by_key.get(&(site.clone(), k.clone())) {
                Some(&w) => {
                    // The same page in another feed (RSS and Atom): the full entry wins.
                    if e.full && !out[w].entry.full {
                        out[w].entry = e.clone();
                        out[w].format = kind;
                    }
                }
                None => {
                    let index = per_site.entry(site.clone()).or_default();
                    by_key.insert((site.clone(), k.clone()), out.len());
                    out.push(Want {
                        site: site.clone(),
                        index: *index,
                        entry: e.clone(),
                        format: kind,
                        url,
                        lang: f.feed.lang.clone(),
                        link: k,
                        resolved: false,
                    });
                    *index += 1;
                }
            }
        }
        for s in sites_of_feed {
            counts.entry(s).or_default().0 += 1;
        }
    }
    (out, counts)
}

/// ISO 639-1 of a feed language (`en-US` → `en`).
fn iso639(lang: &str) -> Option<String> {
    let l = lang.trim().split(['-', '_']).next()?.to_ascii_lowercase();
    (l.len() == 2 && l.chars().all(|c| c.is_ascii_lowercase())).then_some(l)
}

/// A safe folder or file name.
fn name(s: &str) -> String {
    let c: String = crate::paths::component(s).trim_start_matches('.').chars().take(100).collect();
    if c.is_empty() { "_".into() } else { c }
}

fn median(mut v: Vec<usize>) -> usize {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

/// Builds a gold set in `out` from the sites and feeds of `srcs` (see the module
/// documentation). Nothing is written into an input; an existing `out` is replaced only with
/// `force` and only when cetune wrote it.
pub fn from_feed(srcs: &[PathBuf], out: &Path, o: &Options) -> Result<Report> {
    if srcs.is_empty() {
        return Err(Error::config("name the sites to read: mirror folders, WARC files or JSONL files"));
    }
    for s in srcs {
        if s.as_os_str() == "-" {
            return Err(Error::config("goldset from-feed reads its inputs twice: standard input ('-') cannot be one"));
        }
        if std::fs::symlink_metadata(s).is_err() {
            return Err(Error::not_found(s, "input not found: no such file or folder"));
        }
        crate::paths::refuse_overlap(out, s, "an input")?;
    }
    let names: Vec<String> = srcs.iter().map(|s| s.display().to_string()).collect();
    let manifest = Manifest {
        name: out.file_name().map(|n| n.to_string_lossy().into_owned()),
        description: Some(format!(
            "gold texts from the sites' own feeds (full content of at most {} entries per feed)",
            o.max_items
        )),
        source: Some(format!("gold from the feeds of {}", names.join(", "))),
        ..Manifest::default()
    };
    // Refuse a bad --out before the long read.
    let mut writer = Writer::create(out, manifest, o.force, None)?;
    let max = o.limits.max_page_bytes;
    let mut rep = Report::default();

    // Pass 1: the feeds.
    let bar = crate::report::Progress::counter("feeds", "items read (pass 1 of 2: feeds)", o.quiet);
    let mut found: Vec<Found> = Vec::new();
    rep.items = each_item(srcs, o, &bar, |src, place, payload, id| match feed_text(&payload, max) {
        Ok(Some(text)) => match feed::parse(&text, o.min_full_words) {
            Some(feed) => {
                bar.message(format!("{} feeds", found.len() + 1));
                found.push(Found { src, place, feed });
            }
            None => rep.skipped.push((id.to_string(), "looks like a feed but has no rss, feed or RDF root".into())),
        },
        Ok(None) => {}
        Err(why) => rep.skipped.push((id.to_string(), why)),
    })?;
    bar.finish();
    // What pass 1 could not read (a feed over the page budget): named in the error when no feed
    // was found, so the one line says why.
    let unread: Vec<(String, String)> = rep.skipped.clone();
    let (mut wants, counts) = wants(&found, srcs, o);
    drop(found);
    let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
    let mut by_suffix: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, w) in wants.iter().enumerate() {
        by_key.entry(w.link.clone()).or_default().push(i);
        // Path suffixes at '/' boundaries, for mirror pages whose host is unknown.
        let path = w.link.find('/').map_or("", |i| &w.link[i..]);
        for (at, _) in path.match_indices('/') {
            by_suffix.entry(path[at..].to_string()).or_default().push(i);
        }
    }
    let width: BTreeMap<String, usize> = wants.iter().fold(BTreeMap::new(), |mut m, w| {
        let n = m.entry(w.site.clone()).or_insert(0);
        *n = (*n).max(w.index + 1);
        m
    });

    // Pass 2: the pages.
    let bar = crate::report::Progress::counter("pages", "items read (pass 2 of 2: pages)", o.quiet);
    let mut sites: BTreeMap<String, SiteReport> = BTreeMap::new();
    let mut words: BTreeMap<String, (Vec<usize>, Vec<usize>)> = BTreeMap::new();
    let mut failed: Option<Error> = None;
    if !wants.is_empty() {
        each_item(srcs, o, &bar, |_, place, payload, id| {
            if failed.is_some() || matches!(payload, Payload::Error(_)) {
                return;
            }
            let keys = match place.url {
                Some(_) => vec![key(&place.host, &place.path)],
                None if place.path.is_empty() => return,
                None => mirror_keys(&place),
            };
            let mut hit =
                keys.iter().find_map(|k| by_key.get(k)).and_then(|ws| ws.iter().copied().find(|&w| !wants[w].resolved));
            if hit.is_none() && place.host.is_empty() {
                hit = keys.iter().find_map(|k| {
                    let ws = by_suffix.get(&k[k.find('/').unwrap_or(0)..])?;
                    (ws.len() == 1 && !wants[ws[0]].resolved).then(|| ws[0])
                });
            }
            let Some(w) = hit else { return };
            if matches!(feed_text(&payload, max), Ok(Some(_))) {
                return;
            }
            let (bytes, html) = match page_text(payload, max) {
                Ok(r) => r,
                Err(why) => {
                    rep.skipped.push((id.to_string(), why));
                    return;
                }
            };
            if looks_binary(&html) {
                return;
            }
            let parsed = crate::error::isolate(|| Document::parse_for(&html, &o.limits, Needs::DOM | Needs::LANG).0);
            let Ok(doc) = parsed else {
                rep.skipped.push((id.to_string(), "the HTML parser failed on this page".into()));
                return;
            };
            let want = &mut wants[w];
            want.resolved = true;
            let t = &doc.dom.texts;
            let mut lines: HashMap<u32, usize> = HashMap::new();
            let mut page_words = 0;
            for u in 0..t.len() {
                let n = t.get(u).split_whitespace().count();
                page_words += n;
                *lines.entry(t.line(u)).or_default() += n;
            }
            let largest = lines.values().copied().max().unwrap_or(0);
            let site = sites
                .entry(want.site.clone())
                .or_insert_with(|| SiteReport { site: want.site.clone(), ..Default::default() });
            site.resolved += 1;
            let e = &want.entry;
            let wd = words.entry(want.site.clone()).or_default();
            wd.0.push(e.words);
            wd.1.push(page_words);
            let digits = width.get(&want.site).map_or(2, |n| n.to_string().len().max(2));
            let id = format!("{:0digits$}", want.index + 1);
            if e.full {
                site.full += 1;
                if 2 * e.words < largest {
                    site.clipped += 1;
                    site.clipped_ids.push(format!("{id}: {} / {largest} words", e.words));
                }
            } else {
                site.summary += 1;
                if !o.keep_summaries {
                    return;
                }
            }
            let lang = want.lang.as_deref().and_then(iso639).or_else(|| doc.lang.clone());
            let meta = DocMeta {
                url: want.url.clone().or_else(|| place.url.clone()),
                lang,
                title: e.title.clone().filter(|t| !t.is_empty()),
                author: e.author.clone().filter(|a| !a.is_empty()),
                date: e.date.as_deref().and_then(|d| IsoDate::parse(d).ok()),
                feed: Some(FeedMeta {
                    kind: if e.full { "full" } else { "summary" }.into(),
                    words: e.words,
                    format: Some(want.format.to_string()),
                    summary: (!e.full && !e.text.trim().is_empty()).then(|| e.text.clone()),
                }),
                ..DocMeta::default()
            };
            let gold = e.full.then(|| format!("{}\n", e.text.trim_end()));
            match writer.add_page(&name(&want.site), &id, &bytes, false, gold.as_deref(), meta) {
                Ok(()) => site.written += 1,
                Err(err) => failed = Some(err),
            }
        })?;
    }
    bar.finish();
    if let Some(e) = failed {
        return Err(e);
    }
    for w in &wants {
        let site =
            sites.entry(w.site.clone()).or_insert_with(|| SiteReport { site: w.site.clone(), ..Default::default() });
        site.entries += 1;
        if !w.resolved {
            site.unresolved.push(w.url.clone().unwrap_or_else(|| w.link.clone()));
        }
    }
    for (s, (feeds, comments)) in counts {
        let site = sites.entry(s.clone()).or_insert_with(|| SiteReport { site: s, ..Default::default() });
        site.feeds = feeds;
        site.comment_feeds = comments;
    }
    for (s, (f, p)) in words {
        if let Some(site) = sites.get_mut(&s) {
            site.feed_words = median(f);
            site.page_words = median(p);
        }
    }
    rep.sites = sites.into_values().collect();
    if rep.sites.iter().all(|s| s.written == 0) {
        let why = if rep.sites.iter().all(|s| s.feeds == 0) {
            let mut why = "no feed found in the inputs (an RSS, Atom or RDF file, by its content)".to_string();
            if let Some((id, reason)) = unread.first() {
                why += &format!("; not read: {id}: {reason}");
                if unread.len() > 1 {
                    why += &format!(" (and {} more)", unread.len() - 1);
                }
            }
            why
        } else if rep.sites.iter().all(|s| s.resolved == 0) {
            "no feed entry's page was found in the inputs".to_string()
        } else {
            "every resolved entry is a summary (use --keep-summaries to keep them)".to_string()
        };
        return Err(Error::input(why));
    }
    let mut csv = String::from(
        "site,feeds,comment_feeds,entries,resolved,full,summary,clipped,written,median_feed_words,median_page_words\n",
    );
    for s in &rep.sites {
        csv.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{}\n",
            s.site,
            s.feeds,
            s.comment_feeds,
            s.entries,
            s.resolved,
            s.full,
            s.summary,
            s.clipped,
            s.written,
            s.feed_words,
            s.page_words
        ));
    }
    writer.add_file(REPORT_CSV, csv.as_bytes())?;
    writer.finish()?;
    Ok(rep)
}

/// The report's file in the gold set.
pub const REPORT_CSV: &str = "feed-report.csv";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_keys_drop_what_does_not_name_a_page() {
        assert_eq!(key("WWW.Example.com:80", "/a/b/index.html#x"), "example.com/a/b");
        assert_eq!(key("example.com", "/a/b/"), "example.com/a/b");
        assert_eq!(key("example.com", "/a%20b?x=1"), "example.com/a b?x=1");
        assert_eq!(key("", "/"), "/");
        let (h, p) = split_url("https://www.blog.example/2013/10/a.html?m=1#c3").unwrap();
        assert_eq!(key(&h, &p), "blog.example/2013/10/a.html?m=1");
        assert!(split_url("mailto:x@y").is_none());
        assert_eq!(join_path("/feed/index.html", "../slug/"), "/slug/");
        assert_eq!(join_path("/a/hello/feed/index.html", "../../x/"), "/a/x/");
        assert_eq!(join_path("/feeds/posts/default", "/2013/a.html"), "/2013/a.html");
    }

    #[test]
    fn mirror_names_stand_for_urls() {
        let root = Path::new("/m");
        let p = mirror_place(root, "m", Path::new("/m/blog.example/2010/07/a.html?showComment=12.html"));
        assert_eq!((p.host.as_str(), p.path.as_str()), ("blog.example", "/2010/07/a.html?showComment=12.html"));
        let keys = mirror_keys(&p);
        assert!(keys.contains(&"blog.example/2010/07/a.html?showComment=12".to_string()), "{keys:?}");
        let p = mirror_place(root, "blog.example", Path::new("/m/slug/index.html"));
        assert_eq!(mirror_keys(&p)[0], "blog.example/slug");
        let p = mirror_place(root, "site-copy", Path::new("/m/page@q=1.html"));
        assert_eq!(p.host, "");
        assert!(mirror_keys(&p).contains(&"/page?q=1".to_string()));
        assert!(mirror_keys(&mirror_place(root, "x", Path::new("/m/post.html"))).contains(&"/post".to_string()));
    }
}
