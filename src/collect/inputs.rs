//! The inputs of a collection run as one lazy sequence of pages ([`Item`]s): files, folders
//! (walked recursively in name order, HTML files only), `-` for standard input, JSONL files (one
//! JSON object a line) and WARC files. Nothing is listed or read ahead: a folder is walked one
//! directory at a time, a JSONL or WARC file one line or record at a time, so memory does not
//! grow with the size of the collection. Pages are read from disk in the workers (parallel I/O);
//! JSONL lines are parsed there too.

use super::item::{Item, Payload};
use super::warc;
use crate::error::{Error, Result};
use crate::paths::{Line, read_line};
use flate2::read::MultiGzDecoder;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

/// How input files are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InputFormat {
    /// By name: `.warc`, `.warc.gz` are WARC; `.jsonl`, `.jsonl.gz`, `.ndjson` are JSONL; any
    /// other file is one HTML page; standard input is one HTML page.
    #[default]
    Auto,
    /// Every file (and standard input) is one HTML page.
    Html,
    /// Every file (and standard input) holds one JSON object a line: `html`, optional `id`, `url`.
    Jsonl,
    /// Every file (and standard input) is a WARC file (optionally gzipped, per record or whole).
    Warc,
}

impl std::str::FromStr for InputFormat {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "auto" => Ok(InputFormat::Auto),
            "html" => Ok(InputFormat::Html),
            "jsonl" => Ok(InputFormat::Jsonl),
            "warc" => Ok(InputFormat::Warc),
            _ => Err(Error::config(format!("unknown input format '{s}' (known: auto, html, jsonl, warc)"))),
        }
    }
}

/// File names a folder walk takes as HTML pages.
pub const HTML_EXTENSIONS: &[&str] = &[".html", ".htm", ".xhtml", ".html.gz", ".htm.gz", ".xhtml.gz"];
const JSONL_EXTENSIONS: &[&str] = &[".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz"];
const WARC_EXTENSIONS: &[&str] = &[".warc", ".warc.gz"];

type Source = Box<dyn BufRead + Send>;

/// The longest line of an input list (`--files-from`): a path is at most 4096 bytes on Linux.
pub const MAX_LIST_LINE: u64 = 4096;

/// A path from the bytes of a list's line (any bytes on Unix; UTF-8, lossily, elsewhere).
fn path_of_bytes(b: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        PathBuf::from(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(b))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(b).into_owned())
    }
}

enum Current {
    Idle,
    Walk { prefix: PathBuf, root: PathBuf, stack: Vec<Vec<PathBuf>> },
    Lines { src: Source, name: String, prefix: PathBuf, line: usize },
    Warc(Box<warc::Reader<Source>>),
}

/// Every page of the inputs, in order: one lazy iterator.
pub struct Inputs {
    queue: VecDeque<PathBuf>,
    /// The list of further inputs, its name and the lines read.
    files_from: Option<(Source, String, usize)>,
    /// The list is standard input or a FIFO: it can be read only once.
    list_streams: bool,
    several: bool,
    format: InputFormat,
    max: u64,
    cur: Current,
    skipped: Arc<AtomicU64>,
    feeds: bool,
}

/// A named input path that does not exist: one clear line, exit 2, before anything is read.
fn check_exists(p: &Path) -> Result<()> {
    if p.as_os_str() == "-" || std::fs::symlink_metadata(p).is_ok() {
        return Ok(());
    }
    Err(Error::not_found(p, "input not found: no such file or folder"))
}

impl Inputs {
    /// The pages of `paths` (files, folders, `-`), and then of the paths listed one a line in
    /// `files_from` (a file, or `-` for standard input), read as `format`; pages larger than
    /// `max` bytes are errors. A path that does not exist is a configuration error.
    pub fn new(paths: &[PathBuf], files_from: Option<&Path>, format: InputFormat, max: u64) -> Result<Inputs> {
        let list = files_from;
        paths.iter().try_for_each(|p| check_exists(p))?;
        let stdin_uses = paths.iter().filter(|p| p.as_os_str() == "-").count()
            + usize::from(files_from.is_some_and(|f| f.as_os_str() == "-"));
        if stdin_uses > 1 {
            return Err(Error::config("standard input ('-') can be read only once"));
        }
        let files_from = match files_from {
            None => None,
            Some(f) => Some((crate::paths::open_list(f, "input list")?, path_id(f), 0)),
        };
        if paths.is_empty() && files_from.is_none() {
            return Err(Error::config(
                "name the pages to extract: files, folders, '-' for standard input, or --files-from",
            ));
        }
        Ok(Inputs {
            queue: paths.iter().cloned().collect(),
            several: paths.len() > 1 || files_from.is_some(),
            list_streams: list.is_some_and(|f| !f.is_file()),
            files_from,
            format,
            max,
            cur: Current::Idle,
            skipped: Arc::new(AtomicU64::new(0)),
            feeds: false,
        })
    }

    /// Takes feeds too (`goldset from-feed`): a folder walk yields every regular file (a mirror
    /// saves feeds as `feeds/posts/default`, `feed/index.html`, `atom.xml`; the reader tells
    /// them by content), and a WARC's XML responses (`application/rss+xml`, `text/xml`, ...)
    /// are items as well as its HTML ones.
    pub fn with_feeds(mut self) -> Inputs {
        self.feeds = true;
        self
    }

    /// The counter of records and files passed over as not HTML.
    pub fn skipped_counter(&self) -> Arc<AtomicU64> {
        self.skipped.clone()
    }

    /// Whether the inputs are exactly one HTML page (a file or standard input): then plain text
    /// on standard output is the natural output.
    pub fn is_one_page(&self) -> bool {
        self.files_from.is_none()
            && self.queue.len() == 1
            && self
                .queue
                .front()
                .is_some_and(|p| (p.as_os_str() == "-" || !p.is_dir()) && self.kind_of(p) == InputFormat::Html)
    }

    /// How many pages these inputs hold, when that is known without reading a page: every
    /// input (named, or listed in a `--files-from` file) is one HTML page or a folder walked for
    /// HTML pages, which counts names only. `None` when an input is standard input or a JSONL
    /// or WARC file (their records are counted only by reading them), or the list of inputs
    /// comes from standard input. Used on a second `Inputs` of the same arguments, beside the
    /// run, for the progress bar's total.
    pub fn page_count(mut self) -> Option<u64> {
        // A list read from standard input or a pipe can be read once: by the run.
        if self.feeds || self.list_streams {
            return None;
        }
        let mut n = 0u64;
        while let Some(next) = self.next_path() {
            let Ok(p) = next else {
                n += 1; // the list could not be read: one error row
                continue;
            };
            if p.as_os_str() == "-" {
                return None;
            }
            if p.is_dir() {
                if self.walk_extensions() != HTML_EXTENSIONS {
                    return None;
                }
                self.cur = Current::Walk { prefix: PathBuf::new(), stack: vec![vec![p.clone()]], root: p };
                while self.next_of_current().is_some() {
                    n += 1;
                }
                self.cur = Current::Idle;
            } else if self.kind_of(&p) == InputFormat::Html {
                n += 1;
            } else {
                return None;
            }
        }
        Some(n)
    }

    /// How a file is read.
    fn kind_of(&self, p: &Path) -> InputFormat {
        match self.format {
            InputFormat::Auto if p.as_os_str() == "-" => InputFormat::Html,
            InputFormat::Auto => {
                let name = p.to_string_lossy().to_lowercase();
                if WARC_EXTENSIONS.iter().any(|e| name.ends_with(e)) {
                    InputFormat::Warc
                } else if JSONL_EXTENSIONS.iter().any(|e| name.ends_with(e)) {
                    InputFormat::Jsonl
                } else {
                    InputFormat::Html
                }
            }
            f => f,
        }
    }

    /// The extensions a folder walk takes (none named: every file).
    fn walk_extensions(&self) -> &'static [&'static str] {
        if self.feeds {
            return &[];
        }
        match self.format {
            InputFormat::Auto | InputFormat::Html => HTML_EXTENSIONS,
            InputFormat::Jsonl => JSONL_EXTENSIONS,
            InputFormat::Warc => WARC_EXTENSIONS,
        }
    }

    /// The next input path: from the command line, then from `--files-from`, whose lines are
    /// read through the bounded line reader: a line longer than [`MAX_LIST_LINE`] bytes (no
    /// path is, but `/dev/zero` or endless bytes on standard input are one line) ends the list
    /// with an error, and a line holding a NUL byte is no path.
    fn next_path(&mut self) -> Option<std::result::Result<PathBuf, Item>> {
        if let Some(p) = self.queue.pop_front() {
            return Some(Ok(p));
        }
        let (src, name, line) = self.files_from.as_mut()?;
        loop {
            *line += 1;
            let id = format!("{name}:{line}");
            match crate::paths::read_line(src.as_mut(), MAX_LIST_LINE, false) {
                Line::End => {
                    self.files_from = None;
                    return None;
                }
                Line::Blank => continue,
                Line::Text(b) if b.contains(&0) => {
                    return Some(Err(error_item(id, "the input list's line holds a NUL byte: not a path".into())));
                }
                Line::Text(b) => {
                    let b = b.strip_suffix(b"\r").unwrap_or(&b);
                    return Some(Ok(path_of_bytes(b)));
                }
                Line::TooLong => {
                    self.files_from = None;
                    let why = format!(
                        "the input list's line is longer than {MAX_LIST_LINE} bytes, so it is no path (is this a list of paths, one a line?): the rest of the list is not read"
                    );
                    return Some(Err(error_item(id, why)));
                }
                Line::Broken(e) => {
                    self.files_from = None;
                    return Some(Err(error_item(id, format!("cannot read the input list: {e}"))));
                }
            }
        }
    }

    /// Starts reading one input path; a single page is returned at once.
    fn open(&mut self, p: PathBuf) -> Option<Item> {
        let prefix = if self.several { PathBuf::from(crate::paths::component(&file_name(&p))) } else { PathBuf::new() };
        if p.as_os_str() != "-" && p.is_dir() {
            self.cur = Current::Walk { prefix, stack: vec![vec![p.clone()]], root: p };
            return None;
        }
        let kind = self.kind_of(&p);
        if kind == InputFormat::Html {
            let id = path_id(&p);
            if p.as_os_str() == "-" {
                let payload = match read_stdin(self.max) {
                    Ok(b) => Payload::Bytes(b),
                    Err(e) => Payload::Error(e),
                };
                return Some(Item { id: "-".into(), url: None, rel: "stdin".into(), payload });
            }
            if let Err(why) = regular_file(&p) {
                return Some(error_item(id, why));
            }
            return Some(Item {
                id,
                url: None,
                rel: PathBuf::from(strip_ext(&file_name(&p))),
                payload: Payload::File(p),
            });
        }
        let name = path_id(&p);
        let src = match open_source(&p) {
            Ok(s) => s,
            Err(e) => return Some(error_item(name, e)),
        };
        let prefix = PathBuf::from(crate::paths::component(&strip_ext(&file_name(&p))));
        self.cur = match kind {
            InputFormat::Warc => {
                Current::Warc(Box::new(warc::Reader::new(src, name, prefix, self.max).with_feeds(self.feeds)))
            }
            _ => Current::Lines { src, name, prefix, line: 0 },
        };
        None
    }

    /// The next page of the current input, or `None` when it is used up.
    fn next_of_current(&mut self) -> Option<Item> {
        let max = self.max;
        let exts = self.walk_extensions();
        match &mut self.cur {
            Current::Idle => None,
            Current::Walk { prefix, root, stack } => walk_next(stack, root, prefix, exts),
            Current::Lines { src, name, prefix, line } => loop {
                *line += 1;
                let id = format!("{name}:{line}");
                // Standard input may never end a line: an overlong line there ends the input.
                let stdin = name == "-";
                match read_line(src.as_mut(), max, !stdin) {
                    Line::End => return None,
                    Line::Blank => continue,
                    Line::Text(b) => {
                        return Some(Item { id, url: None, rel: prefix.clone(), payload: Payload::JsonLine(b) });
                    }
                    Line::TooLong => {
                        let why = format!(
                            "line longer than {} MB (the page budget; see --max-page-mb): not read",
                            max.div_ceil(crate::limits::MB)
                        );
                        let why = if stdin { format!("{why}; the rest of standard input is not read") } else { why };
                        let item = Item { id, url: None, rel: prefix.clone(), payload: Payload::Error(why) };
                        if stdin {
                            self.cur = Current::Idle;
                        }
                        return Some(item);
                    }
                    Line::Broken(e) => {
                        // Nothing after a read error (a truncated gzip stream) can be trusted.
                        let item = Item { id, url: None, rel: prefix.clone(), payload: Payload::Error(e) };
                        self.cur = Current::Idle;
                        return Some(item);
                    }
                }
            },
            Current::Warc(r) => {
                let item = r.next_item(&self.skipped);
                if item.is_none() {
                    self.cur = Current::Idle;
                }
                item
            }
        }
    }
}

impl Iterator for Inputs {
    type Item = Item;
    fn next(&mut self) -> Option<Item> {
        loop {
            if let Some(item) = self.next_of_current() {
                return Some(item);
            }
            self.cur = Current::Idle;
            match self.next_path()? {
                Ok(p) => {
                    if let Some(item) = self.open(p) {
                        return Some(item);
                    }
                }
                Err(item) => return Some(item),
            }
        }
    }
}

/// A path as a page id: as it is when it is UTF-8; else each byte that is not UTF-8 is written
/// `\xNN`, so two names that differ only in such bytes (which a lossy decoding turns into the
/// same U+FFFD) keep different ids and output files.
pub fn path_id(p: &Path) -> String {
    #[cfg(unix)]
    {
        let bytes = <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::as_bytes(p.as_os_str());
        let mut out = String::with_capacity(bytes.len());
        for chunk in bytes.utf8_chunks() {
            out.push_str(chunk.valid());
            chunk.invalid().iter().for_each(|b| out.push_str(&format!("\\x{b:02X}")));
        }
        out
    }
    #[cfg(not(unix))]
    {
        p.display().to_string()
    }
}

fn error_item(id: String, why: String) -> Item {
    Item { rel: PathBuf::from(crate::paths::component(&id)), id, url: None, payload: Payload::Error(why) }
}

fn file_name(p: &Path) -> String {
    if p.as_os_str() == "-" {
        return "stdin".into();
    }
    p.file_name().map_or_else(|| path_id(p), |n| path_id(Path::new(n)))
}

/// A file name without its page, JSONL or WARC extension.
fn strip_ext(name: &str) -> String {
    let lower = name.to_lowercase();
    for e in HTML_EXTENSIONS.iter().chain(JSONL_EXTENSIONS).chain(WARC_EXTENSIONS).chain(&[".gz"]) {
        if lower.ends_with(e) && lower.len() > e.len() {
            return name[..name.len() - e.len()].to_string();
        }
    }
    name.to_string()
}

/// The next page file of a folder walk: directories in name order, depth first; symbolic links
/// to folders are not followed (no loops); unreadable folders are error items.
fn walk_next(stack: &mut Vec<Vec<PathBuf>>, root: &Path, prefix: &Path, exts: &[&str]) -> Option<Item> {
    loop {
        let level = stack.last_mut()?;
        let Some(p) = level.pop() else {
            stack.pop();
            continue;
        };
        // The named folder may itself be a link; links inside it are not followed into folders.
        let meta = if p == root { std::fs::metadata(&p) } else { std::fs::symlink_metadata(&p) };
        let Ok(meta) = meta else { continue };
        if meta.is_dir() {
            match std::fs::read_dir(&p) {
                Ok(rd) => {
                    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
                    entries.sort();
                    entries.reverse();
                    stack.push(entries);
                }
                Err(e) => return Some(error_item(path_id(&p), format!("cannot read folder: {e}"))),
            }
            continue;
        }
        let name = p.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
        if !exts.is_empty() && !exts.iter().any(|e| name.ends_with(e)) {
            continue;
        }
        let rel = p.strip_prefix(root).unwrap_or(&p);
        let rel = match (rel.parent(), rel.file_name()) {
            (Some(dir), Some(n)) => prefix.join(dir).join(strip_ext(&path_id(Path::new(n)))),
            _ => prefix.join(rel),
        };
        let id = path_id(&p);
        return Some(Item { id, url: None, rel, payload: Payload::File(p) });
    }
}

/// Only regular files are read: a FIFO, socket or device would block or never end.
fn regular_file(p: &Path) -> std::result::Result<(), String> {
    match std::fs::metadata(p) {
        Err(e) => Err(format!("cannot read: {e}")),
        Ok(m) if !m.is_file() => Err("not a regular file (a FIFO, socket or device): not read".into()),
        Ok(_) => Ok(()),
    }
}

/// Opens a JSONL or WARC file, gunzipping it when it starts with the gzip magic (one gzip
/// stream, or one gzip member per record as in Common Crawl).
fn open_source(p: &Path) -> std::result::Result<Source, String> {
    if p.as_os_str() != "-" {
        regular_file(p)?;
    }
    let raw: Box<dyn Read + Send> = if p.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(p).map_err(|e| format!("cannot read: {e}"))?)
    };
    let mut r = BufReader::with_capacity(1 << 16, raw);
    let gz = r.fill_buf().map_err(|e| format!("cannot read: {e}"))?.starts_with(&[0x1f, 0x8b]);
    Ok(if gz { Box::new(BufReader::with_capacity(1 << 16, MultiGzDecoder::new(r))) } else { Box::new(r) })
}

fn read_stdin(max: u64) -> std::result::Result<Vec<u8>, String> {
    let mut raw = Vec::new();
    std::io::stdin()
        .take(max.saturating_add(1))
        .read_to_end(&mut raw)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    crate::goldset::decode::unpack(raw, max).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("cetune-inputs-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_folder_is_walked_in_name_order_taking_html_files_only() {
        let d = tmp("walk");
        for f in ["b/2.html", "b/1.htm", "a.html.gz", "c.xhtml", "notes.txt", "img.png", "z/deep/x.html"] {
            let p = d.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x").unwrap();
        }
        let items: Vec<Item> = Inputs::new(std::slice::from_ref(&d), None, InputFormat::Auto, 1000).unwrap().collect();
        let rels: Vec<String> = items.iter().map(|i| i.rel.display().to_string()).collect();
        assert_eq!(rels, ["a", "b/1", "b/2", "c", "z/deep/x"]);
        assert!(matches!(&items[0].payload, Payload::File(p) if p.ends_with("a.html.gz")));
    }

    #[test]
    fn jsonl_lines_blank_lines_and_overlong_lines() {
        let d = tmp("jsonl");
        let f = d.join("dump.jsonl");
        let long = "x".repeat(200);
        std::fs::write(&f, format!("{{\"html\":\"a\"}}\n\n   \n{long}\nlast")).unwrap();
        let items: Vec<Item> = Inputs::new(std::slice::from_ref(&f), None, InputFormat::Auto, 100).unwrap().collect();
        assert_eq!(items.len(), 3);
        assert!(matches!(&items[0].payload, Payload::JsonLine(b) if b == b"{\"html\":\"a\"}"));
        assert_eq!(items[1].id, format!("{}:4", f.display()));
        assert!(matches!(&items[1].payload, Payload::Error(e) if e.contains("longer than")));
        assert!(matches!(&items[2].payload, Payload::JsonLine(b) if b == b"last"));
    }

    /// Issue 41: the extract counter showed no total for a folder whose size is known. The
    /// count of HTML files, folders and file lists is the number of items the run reads; an
    /// input whose records are known only by reading it has none.
    #[test]
    fn pages_are_counted_for_html_files_folders_and_file_lists_only() {
        let d = tmp("count");
        for f in ["site/b/2.html", "site/a.html", "site/notes.txt", "one.htm", "dump.jsonl", "crawl.warc"] {
            std::fs::write(
                {
                    let p = d.join(f);
                    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                    p
                },
                "{\"html\":\"x\"}\n",
            )
            .unwrap();
        }
        let list = d.join("list.txt");
        std::fs::write(&list, format!("{}\n\n{}\n", d.join("one.htm").display(), d.join("site").display())).unwrap();
        let count = |paths: &[PathBuf], from: Option<&Path>, format| {
            let n = Inputs::new(paths, from, format, 1000).unwrap().page_count();
            if let Some(n) = n {
                assert_eq!(n as usize, Inputs::new(paths, from, format, 1000).unwrap().count(), "{paths:?}");
            }
            n
        };
        let (site, one) = (d.join("site"), d.join("one.htm"));
        assert_eq!(count(&[site.clone(), one.clone()], None, InputFormat::Auto), Some(3));
        assert_eq!(count(&[], Some(&list), InputFormat::Auto), Some(3));
        assert_eq!(count(std::slice::from_ref(&site), None, InputFormat::Html), Some(2));
        assert_eq!(count(&[site.clone(), d.join("dump.jsonl")], None, InputFormat::Auto), None);
        assert_eq!(count(&[d.join("crawl.warc")], None, InputFormat::Auto), None);
        assert_eq!(count(&[site], None, InputFormat::Jsonl), None);
        assert_eq!(count(&[PathBuf::from("-")], None, InputFormat::Auto), None);
    }

    #[test]
    fn a_missing_input_is_refused_before_anything_is_read() {
        let e = Inputs::new(&[PathBuf::from("/nonexistent/x.html")], None, InputFormat::Auto, 10).err().unwrap();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("input not found"), "{e}");
        assert!("xml".parse::<InputFormat>().is_err());
    }
}
