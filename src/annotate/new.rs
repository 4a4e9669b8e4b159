//! `goldset new`: a gold-set folder (the native format, pages without gold texts yet) from a
//! collection of pages read as `extract` reads them (folders, JSONL, WARC), grouped into
//! packages by host or by subfolder, optionally a stratified sample. Pages that cannot be read,
//! decoded or parsed, or that hold no text, are listed with the reason and left out.

use crate::collect::page::{decode_http, json_line, looks_binary};
use crate::collect::{InputFormat, Inputs, Payload};
use crate::document::Document;
use crate::error::{Error, Result};
use crate::goldset::decode::{decode_html, read_bytes, unpack};
use crate::goldset::native::{DocMeta, Manifest, Writer};
use crate::goldset::url::{declared_url, host_of};
use crate::limits::Limits;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// How pages are grouped into packages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum By {
    /// By the page's host: its `<link rel=canonical>`, else its `og:url`, else the URL the
    /// input gives (JSONL `url`, WARC target), else a host-like folder name in its path.
    #[default]
    Host,
    /// By the subfolder the page file is in (a JSONL or WARC file's pages: by that file).
    Folder,
}

/// Options of `goldset new`.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// How packages are formed.
    pub by: By,
    /// A stratified sample of this many pages (all pages when `None`).
    pub sample: Option<usize>,
    /// The sample's seed.
    pub seed: u64,
    /// How input files are read.
    pub format: InputFormat,
    /// Replace a gold set cetune wrote before in the output folder.
    pub force: bool,
    /// The page budgets.
    pub limits: Limits,
    /// No progress counter.
    pub quiet: bool,
}

/// What `goldset new` did.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Readable pages found.
    pub found: usize,
    /// Pages written.
    pub written: usize,
    /// Pages per package, written.
    pub per_package: BTreeMap<String, usize>,
    /// Pages left out: what, why.
    pub skipped: Vec<(String, String)>,
}

/// A page found in the inputs.
struct Found {
    package: String,
    id: String,
    url: Option<String>,
    /// The page file (re-read when written) or the bytes to write.
    data: Data,
}

enum Data {
    File(PathBuf),
    Bytes(Vec<u8>),
}

/// A host-like folder name in a page's path (`example.com/a/b.html`): the last component with a
/// dot, letters and no extension of a page file.
fn host_in_path(rel: &Path) -> Option<String> {
    let parent = rel.parent()?;
    parent
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .rfind(|c| {
            c.contains('.')
                && !c.starts_with('.')
                && c.chars().any(|ch| ch.is_alphabetic())
                && c.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '.' || ch == '-')
        })
        .map(|c| c.to_ascii_lowercase().trim_start_matches("www.").to_string())
}

/// A package or id name that is safe as one folder or file name.
fn name(s: &str) -> String {
    let c: String = crate::paths::component(s).trim_start_matches('.').chars().take(100).collect();
    if c.is_empty() { "_".into() } else { c }
}

/// Builds a new gold set in `out` from the pages of `inputs`.
pub fn new_set(inputs: &[PathBuf], out: &Path, o: &Options) -> Result<Report> {
    for i in inputs {
        if i.as_os_str() != "-" {
            crate::paths::refuse_overlap(out, i, "an input")?;
        }
    }
    let inputs_iter = Inputs::new(inputs, None, o.format, o.limits.max_page_bytes)?;
    let max = o.limits.max_page_bytes;
    let mut rep = Report::default();
    let mut found: Vec<Found> = Vec::new();
    let mut warc_n: HashMap<String, usize> = HashMap::new();
    // Reading and parsing every page is the long part (10 s for a WARC of 1,381 records).
    let bar = crate::report::Progress::counter("goldset", "pages read", o.quiet);
    for item in inputs_iter {
        bar.inc();
        bar.message(format!("{} kept, {} skipped", found.len(), rep.skipped.len()));
        let what = item.id.clone();
        let rel = item.rel.clone();
        let file = if let Payload::File(p) = &item.payload { Some(p.clone()) } else { None };
        let is_json = matches!(item.payload, Payload::JsonLine(_));
        // The page's bytes to write (None: the file is re-read) and its text.
        let read: std::result::Result<Read, String> = match item.payload {
            Payload::File(p) => {
                read_bytes(&p, max).map(|b| (None, decode_html(&b).0, None, None)).map_err(|e| e.to_string())
            }
            Payload::Bytes(b) => unpack(b, max)
                .map(|b| {
                    let t = decode_html(&b).0;
                    (Some(b), t, None, None)
                })
                .map_err(|e| e.to_string()),
            Payload::Http(b, cs) => unpack(b, max)
                .map(|b| {
                    let t = decode_http(&b, cs);
                    // A charset only the HTTP header named: write the decoded text, marked.
                    let bytes = if t == decode_html(&b).0 { b } else { utf8_with_bom(&t) };
                    (Some(bytes), t, None, None)
                })
                .map_err(|e| e.to_string()),
            Payload::JsonLine(line) => match json_line(&line) {
                Ok((id, url, Ok(html))) => Ok((Some(utf8_with_bom(&html)), html, id, url)),
                Ok((_, _, Err(e))) | Err(e) => Err(e),
            },
            Payload::Error(e) => Err(e),
        };
        let (bytes, html, json_id, json_url) = match read {
            Ok(r) => r,
            Err(e) => {
                rep.skipped.push((what, e));
                continue;
            }
        };
        if looks_binary(&html) {
            rep.skipped.push((what, "binary data, not an HTML page".into()));
            continue;
        }
        let units = crate::error::isolate(|| Document::parse_limited(&html, &o.limits).0.dom.texts.len());
        match units {
            Err(_) => {
                rep.skipped.push((what, "the HTML parser failed on this page".into()));
                continue;
            }
            Ok(0) => {
                rep.skipped.push((what, "no text on the page".into()));
                continue;
            }
            Ok(_) => {}
        }
        let url = declared_url(&html).or(json_url.clone()).or(item.url.clone());
        let is_file = file.is_some();
        let package = match o.by {
            By::Host => {
                url.as_deref().and_then(host_of).or_else(|| host_in_path(&rel)).unwrap_or_else(|| "unknown-host".into())
            }
            By::Folder => {
                let folder =
                    if is_file { rel.parent().map(Path::to_path_buf).unwrap_or_default() } else { rel.clone() };
                let parts: Vec<String> =
                    folder.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
                if parts.is_empty() { "pages".into() } else { parts.join("-") }
            }
        };
        let package = name(&package);
        let id = match (is_file, json_id) {
            (true, _) => rel.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "page".into()),
            (_, Some(id)) => id,
            (false, None) if is_json => format!("line{}", what.rsplit(':').next().unwrap_or("0")),
            _ => {
                let n = warc_n.entry(package.clone()).or_default();
                *n += 1;
                format!("{n:04}")
            }
        };
        let data = match (file, bytes) {
            (Some(p), _) => Data::File(p),
            (_, Some(b)) => Data::Bytes(b),
            (_, None) => Data::Bytes(html.into_bytes()),
        };
        found.push(Found { package, id: name(&id), url, data });
    }
    bar.finish();
    rep.found = found.len();
    // Unique ids within each package.
    let mut seen: HashMap<(String, String), usize> = HashMap::new();
    for f in &mut found {
        let n = seen.entry((f.package.clone(), f.id.clone())).or_default();
        *n += 1;
        if *n > 1 {
            f.id = format!("{}-{}", f.id, n);
        }
    }
    let mut chosen: Vec<usize> = (0..found.len()).collect();
    if let Some(n) = o.sample {
        let mut names: Vec<&str> = found.iter().map(|f| f.package.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        let pkg: Vec<usize> = found.iter().map(|f| names.binary_search(&f.package.as_str()).unwrap_or(0)).collect();
        chosen = crate::goldset::sample::sample_indices(&pkg, names.len(), n, o.seed);
        chosen.sort_unstable();
    }
    let set_name = out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "goldset".into());
    let what_inputs: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    let manifest = Manifest {
        name: Some(set_name),
        source: Some(format!(
            "new gold set from {} (packages by {}{})",
            what_inputs.join(", "),
            if o.by == By::Host { "host" } else { "folder" },
            o.sample.map(|n| format!(", stratified sample of {n}, seed {}", o.seed)).unwrap_or_default()
        )),
        ..Default::default()
    };
    let mut w = Writer::create(out, manifest, o.force, None)?;
    for i in chosen {
        let f = &found[i];
        let bytes = match &f.data {
            Data::File(p) => match read_bytes(p, max) {
                Ok(b) => b,
                Err(e) => {
                    rep.skipped.push((p.display().to_string(), e.to_string()));
                    continue;
                }
            },
            Data::Bytes(b) => b.clone(),
        };
        let meta = DocMeta { url: f.url.clone(), ..Default::default() };
        w.add_page(&f.package, &f.id, &bytes, false, None, meta)?;
        rep.written += 1;
        *rep.per_package.entry(f.package.clone()).or_default() += 1;
    }
    if rep.written == 0 {
        return Err(Error::input(format!(
            "no page to write: {} found{}",
            rep.found,
            rep.skipped.first().map(|(w, why)| format!(", first skipped: {w}: {why}")).unwrap_or_default()
        )));
    }
    w.finish()?;
    Ok(rep)
}

/// A page read: the bytes to write (`None`: re-read the file), its text, a JSONL id and URL.
type Read = (Option<Vec<u8>>, String, Option<String>, Option<String>);

fn utf8_with_bom(s: &str) -> Vec<u8> {
    let mut b = "\u{feff}".as_bytes().to_vec();
    b.extend_from_slice(s.as_bytes());
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_come_from_canonical_links_og_urls_and_paths() {
        assert_eq!(host_of("https://www.Example.com:8080/a?b").as_deref(), Some("example.com"));
        assert_eq!(host_of("/relative"), None);
        let page = r#"<head><meta property="og:url" content="http://og.org/x"><link href="https://canon.net/p" rel="Canonical"></head>"#;
        assert_eq!(declared_url(page).as_deref(), Some("https://canon.net/p"));
        assert_eq!(
            declared_url(r#"<meta property=og:url content="http://og.org/x">"#).as_deref(),
            Some("http://og.org/x")
        );
        assert_eq!(declared_url("<link rel=canonical href=/rel>"), None);
        assert_eq!(host_in_path(Path::new("saved/www.news.com/2020/a")).as_deref(), Some("news.com"));
        assert_eq!(host_in_path(Path::new("a")), None);
    }
}
