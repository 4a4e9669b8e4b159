//! Where a collection run writes: a stream (standard output or a file) of plain text or JSONL
//! lines, or a folder with one `.txt` per page mirroring the input tree. Each page is written
//! whole (one `write_all` of a complete line or file), so output cut short by Ctrl-C or a closed
//! pipe ends at a page boundary. Output paths follow the data-safety rules: never over an
//! input (compared by path and by device and inode, standard input too: `paths::Reads`), a
//! file written beside its place and renamed when complete, never through a symlink, an existing file or non-empty folder
//! only with `--force`. A folder gets unique names within a run (`a.txt`, `a-2.txt`, …) and an
//! `index.csv` mapping every page's id to its file, with its words, confidence and marks.

use super::page::Outcome;
use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutFormat {
    /// The text of each page, then a newline (errors on standard error).
    Txt,
    /// One JSON object a line: `id`, `url`, `text`, `words`, `confidence` (null without a
    /// confidence model), `empty`, `low_confidence`, `language`, `error`, and
    /// `segments` when the extractor segments pages (no timing, so two runs over the same pages
    /// give the same bytes).
    Jsonl,
    /// One JSON object a line per post of each page (`extract --segments`): `id`, `url`, `post`,
    /// `title`, `date`, `author`, `body`, `comments`.
    Segments,
    /// The Markdown of the kept elements ([`crate::structure`]), as `Txt` writes text.
    Markdown,
    /// The clean HTML fragment of the kept elements, as `Txt` writes text.
    Html,
    /// One JSON object a line: `Jsonl`'s fields with `markdown` beside `text`.
    Json,
}

impl OutFormat {
    /// The extension of a page's file in an output folder or dump.
    pub fn extension(self) -> &'static str {
        match self {
            OutFormat::Markdown => "md",
            OutFormat::Html => "html",
            OutFormat::Json => "json",
            _ => "txt",
        }
    }

    /// The structured outputs this format writes.
    pub fn layout(self, opts: crate::structure::Options) -> crate::structure::Layout {
        crate::structure::Layout {
            markdown: matches!(self, OutFormat::Markdown | OutFormat::Json),
            html: self == OutFormat::Html,
            metadata: self == OutFormat::Json,
            opts,
        }
    }

    /// What a page's file in an output folder holds.
    pub fn page_bytes(self, o: &Outcome) -> Vec<u8> {
        match self {
            OutFormat::Markdown => o.markdown.clone().unwrap_or_default().into_bytes(),
            OutFormat::Html => o.html.clone().unwrap_or_default().into_bytes(),
            OutFormat::Json => json_record(o, false),
            _ => o.text.clone().into_bytes(),
        }
    }
}

impl std::str::FromStr for OutFormat {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "txt" => Ok(OutFormat::Txt),
            "jsonl" => Ok(OutFormat::Jsonl),
            "markdown" => Ok(OutFormat::Markdown),
            "html" => Ok(OutFormat::Html),
            "json" => Ok(OutFormat::Json),
            _ => Err(Error::config(format!("unknown output format '{s}' (known: txt, jsonl, markdown, html, json)"))),
        }
    }
}

/// Receives every page's outcome, in the order they are to be written.
pub trait Sink {
    /// Writes one page.
    fn write(&mut self, o: &Outcome) -> Result<()>;
    /// Flushes what is buffered.
    fn finish(&mut self) -> Result<()>;
}

/// One JSONL line of an outcome (with its newline).
pub fn jsonl_line(o: &Outcome) -> Vec<u8> {
    /// The fields in the documented order.
    #[derive(serde::Serialize)]
    struct Line<'a> {
        id: &'a str,
        url: Option<&'a str>,
        text: &'a str,
        words: usize,
        confidence: Option<f64>,
        empty: bool,
        low_confidence: bool,
        language: Option<&'a str>,
        error: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        segments: Option<&'a [serde_json::Value]>,
    }
    let v = Line {
        id: &o.id,
        url: o.url.as_deref(),
        text: &o.text,
        words: o.words,
        confidence: o.confidence.map(round4),
        empty: o.empty,
        low_confidence: o.low_confidence,
        language: o.language.as_deref(),
        error: o.error.as_deref(),
        segments: o.segments.as_deref(),
    };
    let mut line = serde_json::to_vec(&v).unwrap_or_default();
    line.push(b'\n');
    line
}

/// The `--format json` record of an outcome: `id`, `url`, `text`, `markdown`, `words`,
/// `language`, `error`, `confidence`, `empty`, `low_confidence`, then the metadata fields `title`, `author`, `date`, `sitename`,
/// `canonical_url` (each `{"value", "source"}` or null); one line with its newline when `line`, else pretty-printed (a page's
/// file in a folder).
pub fn json_record(o: &Outcome, line: bool) -> Vec<u8> {
    /// The fields in the documented order.
    #[derive(serde::Serialize)]
    struct Record<'a> {
        id: &'a str,
        url: Option<&'a str>,
        text: &'a str,
        markdown: Option<&'a str>,
        words: usize,
        language: Option<&'a str>,
        error: Option<&'a str>,
        confidence: Option<f64>,
        empty: bool,
        low_confidence: bool,
        title: Option<&'a Field>,
        author: Option<&'a Field>,
        date: Option<&'a Field>,
        sitename: Option<&'a Field>,
        canonical_url: Option<&'a Field>,
        metadata_language: Option<&'a Field>,
    }
    use crate::structure::meta::Field;
    let m = o.metadata.as_ref();
    let v = Record {
        id: &o.id,
        url: o.url.as_deref(),
        text: &o.text,
        markdown: o.markdown.as_deref(),
        words: o.words,
        language: o.language.as_deref(),
        error: o.error.as_deref(),
        confidence: o.confidence.map(round4),
        empty: o.empty,
        low_confidence: o.low_confidence,
        title: m.and_then(|m| m.title.as_ref()),
        author: m.and_then(|m| m.author.as_ref()),
        date: m.and_then(|m| m.date.as_ref()),
        sitename: m.and_then(|m| m.sitename.as_ref()),
        canonical_url: m.and_then(|m| m.url.as_ref()),
        metadata_language: m.and_then(|m| m.language.as_ref()),
    };
    let mut out = if line { serde_json::to_vec(&v) } else { serde_json::to_vec_pretty(&v) }.unwrap_or_default();
    out.push(b'\n');
    out
}

/// A confidence as written: four decimals.
fn round4(c: f64) -> f64 {
    (c * 1e4).round() / 1e4
}

/// The `index.csv` columns after `id` and `file`, of an outcome: `words`, `confidence` (empty
/// without a confidence model), `empty`, `low_confidence`.
pub fn index_marks(o: &Outcome) -> [String; 4] {
    [
        o.words.to_string(),
        o.confidence.map(|c| format!("{:.4}", round4(c))).unwrap_or_default(),
        o.empty.to_string(),
        o.low_confidence.to_string(),
    ]
}

/// The `--segments` lines of an outcome: one JSON object per post, with the page's `id` and
/// `url` first; nothing for a page without posts or a failed page.
pub fn segment_lines(o: &Outcome) -> Vec<u8> {
    let mut out = Vec::new();
    for post in o.segments.iter().flatten() {
        let mut m = serde_json::Map::new();
        m.insert("id".into(), o.id.clone().into());
        m.insert("url".into(), o.url.clone().map_or(serde_json::Value::Null, Into::into));
        if let serde_json::Value::Object(fields) = post {
            m.extend(fields.clone());
        }
        out.extend(serde_json::to_vec(&serde_json::Value::Object(m)).unwrap_or_default());
        out.push(b'\n');
    }
    out
}

/// A stream of text or JSONL.
pub struct Stream {
    w: Box<dyn Write>,
    /// A file written beside its place, renamed over it by [`Sink::finish`].
    staged: Option<(std::io::BufWriter<std::fs::File>, crate::paths::Staged)>,
    format: OutFormat,
    name: PathBuf,
    headers: bool,
}

impl Stream {
    /// Standard output.
    pub fn stdout(format: OutFormat) -> Stream {
        Stream {
            w: Box::new(std::io::BufWriter::with_capacity(1 << 16, std::io::stdout())),
            staged: None,
            format,
            name: "-".into(),
            headers: false,
        }
    }

    /// A file: refused when it exists (unless `force`), is one of `reads` or lies inside one.
    /// A regular file is written beside its place and renamed over it when the run ends, so
    /// the old file (which may be an input under another name: a hard link, standard input)
    /// stays whole while the pages are read; a device or FIFO (`/dev/null`) is written as it is.
    pub fn file(path: &Path, format: OutFormat, force: bool, reads: &crate::paths::Reads) -> Result<Stream> {
        reads.refuse(path)?;
        if path.is_dir() {
            return Err(
                Error::config("output file is a folder (write one .txt per page with --out DIR/)").with_path(path)
            );
        }
        if path.exists() && !force {
            return Err(Error::config("output file exists; use --force to replace it").with_path(path));
        }
        crate::paths::refuse_symlink(path)?;
        let cannot = |e: std::io::Error| Error::config(format!("cannot write the output file: {e}")).with_path(path);
        let (w, staged): (Box<dyn Write>, _) = match std::fs::metadata(path) {
            Ok(m) if !m.is_file() => {
                let f = std::fs::OpenOptions::new().write(true).open(path).map_err(cannot)?;
                (Box::new(std::io::BufWriter::with_capacity(1 << 16, f)), None)
            }
            _ => {
                let (staged, f) = crate::paths::Staged::create(path).map_err(|e| match e.source.as_deref() {
                    Some(io) => Error::config(format!("cannot write the output file: {io}")).with_path(path),
                    None => e,
                })?;
                (Box::new(std::io::sink()), Some((std::io::BufWriter::with_capacity(1 << 16, f), staged)))
            }
        };
        Ok(Stream { w, staged, format, name: path.to_path_buf(), headers: false })
    }
}

impl Stream {
    /// With several pages in plain text: each page's text follows a line `==> ID <==` (the
    /// convention of `head` and `tail`), so pages stay apart and named.
    pub fn with_headers(mut self, headers: bool) -> Stream {
        self.headers = headers;
        self
    }
}

impl Sink for Stream {
    fn write(&mut self, o: &Outcome) -> Result<()> {
        let bytes = match self.format {
            OutFormat::Jsonl => jsonl_line(o),
            OutFormat::Segments => segment_lines(o),
            OutFormat::Json => json_record(o, true),
            OutFormat::Txt | OutFormat::Markdown | OutFormat::Html if o.error.is_some() => return Ok(()),
            OutFormat::Txt if self.headers => format!("==> {} <==\n{}\n\n", o.id, o.text).into_bytes(),
            OutFormat::Txt => format!("{}\n", o.text).into_bytes(),
            f => {
                let page = String::from_utf8(f.page_bytes(o)).unwrap_or_default();
                let page = page.trim_end();
                if self.headers { format!("==> {} <==\n{page}\n\n", o.id) } else { format!("{page}\n") }.into_bytes()
            }
        };
        let w: &mut dyn Write = match &mut self.staged {
            Some((w, _)) => w,
            None => &mut self.w,
        };
        w.write_all(&bytes).map_err(|e| Error::io(&self.name, "write", e))
    }
    fn finish(&mut self) -> Result<()> {
        self.w.flush().map_err(|e| Error::io(&self.name, "write", e))?;
        match self.staged.take() {
            Some((w, staged)) => {
                let f = w.into_inner().map_err(|e| Error::io(&self.name, "write", e.into_error()))?;
                staged.commit(f)
            }
            None => Ok(()),
        }
    }
}

/// The file in an output folder that maps each page's id to its text file.
pub const INDEX: &str = "index.csv";

/// A folder with one `<rel>.txt` per page (`<rel>-2.txt`, … when that name is taken in this
/// run) and [`INDEX`].
pub struct Folder {
    root: PathBuf,
    /// Relative file names used in this run (lower-cased, so a case-insensitive file system
    /// cannot merge two either).
    used: std::collections::HashSet<String>,
    /// `(id, relative file)` of every page written, then its [`index_marks`].
    index: Vec<Vec<String>>,
    /// What each page's file holds, and its extension.
    format: OutFormat,
}

impl Folder {
    /// Prepares the folder: never an input, inside one or holding one, never the working
    /// directory or an ancestor; an existing non-empty folder only with `force` (files of the
    /// same names are replaced, others kept).
    pub fn create(root: &Path, force: bool, reads: &crate::paths::Reads) -> Result<Folder> {
        reads.refuse(root)?;
        crate::paths::refuse_cwd_or_ancestor(root)?;
        if root.exists() && !root.is_dir() {
            return Err(Error::config("output folder is a file").with_path(root));
        }
        if crate::paths::is_non_empty_dir(root) && !force {
            return Err(Error::config(
                "output folder is not empty; use --force to write into it (files of the same names are replaced)",
            )
            .with_path(root));
        }
        std::fs::create_dir_all(root)
            .map_err(|e| Error::config(format!("cannot create output folder: {e}")).with_path(root))?;
        crate::paths::probe_writable(root)?;
        let used = std::collections::HashSet::from([INDEX.to_string()]);
        Ok(Folder { root: root.to_path_buf(), used, index: Vec::new(), format: OutFormat::Txt })
    }

    /// Each page's file holds `format` (`.md`, `.html`, `.json`; text in `.txt` otherwise).
    pub fn with_format(mut self, format: OutFormat) -> Folder {
        self.format = format;
        self
    }

    /// The first free name for `rel`: `rel.txt`, then `rel-2.txt`, `rel-3.txt`, … (`.md`,
    /// `.html`, `.json` for those formats)
    fn unique(&mut self, rel: &Path) -> PathBuf {
        let base = rel.file_name().map_or("page".into(), |n| n.to_string_lossy().into_owned());
        let ext = self.format.extension();
        for k in 1.. {
            let name = if k == 1 { format!("{base}.{ext}") } else { format!("{base}-{k}.{ext}") };
            let candidate = rel.with_file_name(name);
            if self.used.insert(candidate.to_string_lossy().to_lowercase()) {
                return candidate;
            }
        }
        unreachable!("an unbounded range always yields a free name")
    }
}

impl Sink for Folder {
    fn write(&mut self, o: &Outcome) -> Result<()> {
        if o.error.is_some() {
            return Ok(());
        }
        let rel = self.unique(&o.rel);
        let dir = crate::paths::create_dir_in(&self.root, rel.parent().unwrap_or(Path::new("")))?;
        let name = rel.file_name().unwrap_or_default();
        crate::paths::write_atomic(&dir.join(name), &self.format.page_bytes(o))?;
        let mut row = vec![o.id.clone(), rel.to_string_lossy().replace('\\', "/")];
        row.extend(index_marks(o));
        self.index.push(row);
        Ok(())
    }
    fn finish(&mut self) -> Result<()> {
        let path = self.root.join(INDEX);
        let mut w = csv::Writer::from_writer(Vec::new());
        let bad = |e: csv::Error| Error::bug(format!("cannot encode {INDEX}: {e}"));
        w.write_record(["id", "file", "words", "confidence", "empty", "low_confidence"]).map_err(bad)?;
        for row in &self.index {
            w.write_record(row).map_err(bad)?;
        }
        let bytes = w.into_inner().map_err(|e| Error::bug(format!("cannot encode {INDEX}: {e}")))?;
        crate::paths::write_atomic(&path, &bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jsonl_line_has_every_field_and_ends_with_a_newline() {
        let o = Outcome {
            id: "a".into(),
            text: "x \"y\"\nz".into(),
            words: 3,
            language: Some("en".into()),
            ms: 1.23456,
            ..Default::default()
        };
        let line = String::from_utf8(jsonl_line(&o)).unwrap();
        assert!(line.starts_with("{\"id\":\"a\",\"url\":null,\"text\":"), "{line}");
        assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["text"], "x \"y\"\nz");
        assert_eq!(v["url"], serde_json::Value::Null);
        assert_eq!(v["error"], serde_json::Value::Null);
        assert_eq!(v["words"].as_u64(), Some(3));
        assert_eq!(
            (v["confidence"].is_null(), v["empty"].as_bool(), v["low_confidence"].as_bool()),
            (true, Some(false), Some(false))
        );
        let o = Outcome { confidence: Some(0.123456), empty: true, ..o };
        let v: serde_json::Value = serde_json::from_slice(&jsonl_line(&o)).unwrap();
        assert_eq!((v["confidence"].as_f64(), v["empty"].as_bool()), (Some(0.1235), Some(true)));
        assert_eq!(index_marks(&o), ["3", "0.1235", "true", "false"].map(String::from));
        // No timing: two runs over the same pages write the same bytes.
        assert!(v.get("ms").is_none(), "{line}");
    }
}
