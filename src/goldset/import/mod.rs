//! Importers of published gold sets, each reading its set in the original layout and writing a
//! native gold set: the page as UTF-8 HTML (decoded once here), the gold text, and metadata.
//! Document ids are the source file stems, so results join with other tools. Imports from the
//! crate: `document` (reading an annotated gold page is reading HTML: the tag table, the
//! character references and the never-text rule the document views use), `limits` (the page
//! budgets), `paths` (the source as a run folder records a path, never absolute), `eval` and
//! `error`.

mod cleaneval;
mod l3s;
mod scrapinghub;
mod wcxb;

use super::Skipped;
use super::decode::{Decoding, decode_html, read_bytes};
use super::native::{DocMeta, Manifest, Writer};
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::Path;

/// One importer: a row of [`IMPORTERS`]. Adding an importer is its file (which defines its
/// `IMPORTER`) and one row.
pub struct Importer {
    /// The name used with `goldset import --input-format`.
    pub name: &'static str,
    /// What the layout holds, for error messages.
    pub layout: &'static str,
    /// Whether a folder looks like this layout (for the layout check and its hint).
    pub looks_like: fn(&Path) -> bool,
    /// Reads every document of the set.
    pub(crate) read: fn(&Path) -> Result<Vec<Item>>,
    /// The credit line for a set read from a folder of this name.
    pub credit: fn(&str) -> String,
    /// Gold characters above U+00FF were replaced: cut page tokens there too.
    pub latin1_gold: bool,
    /// Store pages gzip-compressed.
    pub gz: bool,
}

/// The importer table.
pub const IMPORTERS: &[&Importer] = &[&cleaneval::IMPORTER, &l3s::IMPORTER, &wcxb::IMPORTER, &scrapinghub::IMPORTER];

/// A published gold-set layout: one of [`IMPORTERS`], named on the command line.
#[derive(Clone, Copy)]
pub struct Format(pub &'static Importer);

impl std::fmt::Debug for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name)
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        IMPORTERS.iter().find(|i| i.name == s).map(|i| Format(i)).ok_or_else(|| {
            let names: Vec<&str> = IMPORTERS.iter().map(|i| i.name).collect();
            let (last, rest) = names.split_last().unwrap_or((&"", &[]));
            format!("unknown format '{s}' (expected {} or {last})", rest.join(", "))
        })
    }
}

/// Import options.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Keep documents whose gold text is empty.
    pub keep_empty: bool,
    /// Overwrite an existing gold set in the output folder.
    pub force: bool,
}

/// What an import did.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Documents written.
    pub imported: usize,
    /// Documents per package.
    pub per_package: BTreeMap<String, usize>,
    /// Documents left out, with the reason.
    pub skipped: Vec<Skipped>,
    /// How the pages were decoded: rule name → pages.
    pub decodings: BTreeMap<String, usize>,
    /// Other remarks.
    pub warnings: Vec<String>,
}

/// One document as an importer reads it.
pub(crate) struct Item {
    package: String,
    id: String,
    page: Vec<u8>,
    gold: Option<String>,
    url: Option<String>,
    /// Gold fields the source gives (title, author, date), if any.
    fields: crate::goldset::fields::Fields,
}

/// Imports the set in `src` (laid out as `format`) into a native gold set in `out`.
pub fn import(format: Format, src: &Path, out: &Path, opts: &Options) -> Result<Report> {
    if !src.is_dir() {
        return Err(super::not_found(src));
    }
    check_layout(format, src)?;
    let name = src.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "imported".into());
    let imp = format.0;
    let (items, licence, latin1_gold, gz) = ((imp.read)(src)?, Some((imp.credit)(&name)), imp.latin1_gold, imp.gz);
    let manifest = Manifest {
        name: Some(name),
        description: None,
        licence,
        latin1_gold,
        // Where from as a run records a path (relative, or under `$CETUNE_SCRATCH`): the set's
        // goldset.yaml, and so its content hash, is the same on every machine with that layout.
        source: Some(format!("imported from {} (format {})", crate::paths::recorded(src), imp.name.to_lowercase())),
        documents: BTreeMap::new(),
    };
    let mut w = Writer::create(out, manifest, opts.force, Some(src))?;
    let mut rep = Report::default();
    for it in items {
        let what = format!("{}/{}", it.package, it.id);
        let gold = match it.gold {
            None => {
                rep.skipped.push(Skipped { what, why: "missing gold".into() });
                continue;
            }
            Some(g) if !opts.keep_empty && !g.chars().any(char::is_alphanumeric) => {
                rep.skipped.push(Skipped { what, why: "empty gold".into() });
                continue;
            }
            Some(g) => g,
        };
        let (html, how): (String, Decoding) = decode_html(&it.page);
        *rep.decodings.entry(how.name().to_string()).or_default() += 1;
        w.add(&it.package, &it.id, html.as_bytes(), gz, &gold, {
            let mut m = DocMeta { url: it.url.filter(|u| !u.is_empty()), ..Default::default() };
            m.set_fields(it.fields);
            m
        })?;
        *rep.per_package.entry(it.package).or_default() += 1;
        rep.imported += 1;
    }
    w.finish()?;
    Ok(rep)
}

/// The layout `src` looks like, if any.
pub fn detect(src: &Path) -> Option<Format> {
    IMPORTERS.iter().find(|i| (i.looks_like)(src)).map(|i| Format(i))
}

/// Whether `src` holds `input/` and `GoldStandard/` (CleanEval's and L3S-GN1's layout) and its
/// first gold text is HTML (L3S-GN1's annotated pages) rather than plain text (CleanEval's).
pub(crate) fn input_and_gold(src: &Path) -> Option<bool> {
    if !(src.join("input").is_dir() && src.join("GoldStandard").is_dir()) {
        return None;
    }
    let first_gold = files_with(&src.join("GoldStandard"), ".txt").ok()?.into_iter().next()?;
    let head = bytes(&first_gold.1).ok()?;
    let head = String::from_utf8_lossy(&head[..head.len().min(512)]).trim_start().to_ascii_lowercase();
    Some(head.starts_with("<html") || head.starts_with("<!doctype"))
}

/// Refuses a source folder that is not laid out as `format`, saying what it found instead.
fn check_layout(format: Format, src: &Path) -> Result<()> {
    if (format.0.looks_like)(src) {
        return Ok(());
    }
    let mut names: Vec<String> = std::fs::read_dir(src)
        .map(|rd| {
            rd.flatten()
                .map(|e| {
                    let n = e.file_name().to_string_lossy().into_owned();
                    if e.path().is_dir() { format!("{n}/") } else { n }
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let shown = if names.is_empty() {
        "nothing".to_string()
    } else {
        names.iter().take(8).cloned().collect::<Vec<_>>().join(", ")
    };
    let hint = detect(src).map(|f| format!("; it looks like --input-format {}", f.0.name)).unwrap_or_default();
    Err(Error::config(format!("not a {} gold set: expected {}; found {shown}{hint}", format.0.name, format.0.layout))
        .with_path(src))
}

/// Sorted `(stem, path)` of the files in `dir` whose name ends with `suffix`.
pub(crate) fn files_with(dir: &Path, suffix: &str) -> Result<Vec<(String, std::path::PathBuf)>> {
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, "read folder", e))?;
    let mut out = Vec::new();
    for e in rd {
        let p = e.map_err(|e| Error::io(dir, "read folder", e))?.path();
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if let Some(stem) = name.strip_suffix(suffix) {
            out.push((stem.to_string(), p));
        }
    }
    out.sort();
    Ok(out)
}

/// Reads a file's bytes (gunzipped when needed), within the default page size budget.
pub(crate) fn bytes(path: &Path) -> Result<Vec<u8>> {
    read_bytes(path, crate::limits::Limits::default().max_page_bytes)
}

/// A gold file's text, decoded by the rule pages are decoded by; binary data (a gold file that
/// decodes to no text) is an input error naming the file, raised while the sources are read,
/// before anything is written.
pub(crate) fn gold_file(path: &Path) -> Result<String> {
    let text = super::decode::decode(&bytes(path)?).0;
    if super::decode::looks_binary(&text) {
        return Err(Error::config("binary data, not a gold text: cannot be decoded").with_path(path));
    }
    Ok(text)
}

#[cfg(test)]
pub(crate) fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("cetune-import-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let _ = std::fs::remove_dir_all(d.with_extension("out"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The format named `name` (tests).
#[cfg(test)]
pub(crate) fn fmt(name: &str) -> Format {
    name.parse().unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_source_is_a_clear_error() {
        let e =
            import(fmt("wcxb"), Path::new("/nonexistent/wcxb"), &std::env::temp_dir().join("x"), &Options::default())
                .unwrap_err();
        assert_eq!(e.to_string(), "/nonexistent/wcxb: gold set not found: not a folder");
        assert!("nope".parse::<Format>().unwrap_err().contains("expected cleaneval, l3s, wcxb or scrapinghub"));
    }

    #[test]
    fn a_gold_text_that_cannot_be_decoded_names_the_file_and_keeps_the_old_import() {
        let d = tmp("binary-gold");
        std::fs::create_dir_all(d.join("input")).unwrap();
        std::fs::create_dir_all(d.join("GoldStandard")).unwrap();
        for id in ["1", "2"] {
            std::fs::write(d.join(format!("input/{id}.html")), "<text id=\"u\"><p>Some text</p></text>").unwrap();
            std::fs::write(d.join(format!("GoldStandard/{id}.txt")), "URL: u\n<p>Some text").unwrap();
        }
        let out = d.with_extension("out");
        assert_eq!(import(fmt("cleaneval"), &d, &out, &Options::default()).unwrap().imported, 2);
        let bad = d.join("GoldStandard/2.txt");
        std::fs::write(&bad, (0u8..=255).cycle().take(4000).collect::<Vec<u8>>()).unwrap();
        let e = import(fmt("cleaneval"), &d, &out, &Options { force: true, ..Default::default() }).unwrap_err();
        assert_eq!(e.to_string(), format!("{}: binary data, not a gold text: cannot be decoded", bad.display()));
        assert_eq!(e.exit_code(), 2);
        let kept = crate::goldset::native::open(&out, false).unwrap();
        assert_eq!(kept.docs.len(), 2);
    }

    #[test]
    fn a_layout_of_another_format_is_refused_saying_what_was_found() {
        let d = tmp("layout");
        std::fs::create_dir_all(d.join("input")).unwrap();
        std::fs::create_dir_all(d.join("GoldStandard")).unwrap();
        std::fs::write(d.join("input/a.html"), "<html><body><p>Text</p></body></html>").unwrap();
        std::fs::write(d.join("GoldStandard/a.txt"), "<html><body><span class=\"x-nc-sel2\">Text</span></body></html>")
            .unwrap();
        std::fs::write(d.join("url-mapping.txt"), "<urn:uuid:a>\thttp://example.com/a\n").unwrap();
        let out = d.with_extension("out");
        let e = import(fmt("cleaneval"), &d, &out, &Options::default()).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("not a cleaneval gold set"), "{msg}");
        assert!(msg.contains("found GoldStandard/, input/, url-mapping.txt"), "{msg}");
        assert!(msg.contains("it looks like --input-format l3s"), "{msg}");
        assert_eq!(e.exit_code(), 2);
        assert!(!out.exists());
        let e = import(fmt("wcxb"), &d, &out, &Options::default()).unwrap_err();
        assert!(e.to_string().contains("expected html/<id>.html.gz and ground-truth/<id>.json"), "{e}");
        // Without url-mapping.txt the HTML gold still gives L3S-GN1 away.
        std::fs::remove_file(d.join("url-mapping.txt")).unwrap();
        assert_eq!(detect(&d).map(|f| f.0.name), Some("l3s"));
        std::fs::write(d.join("GoldStandard/a.txt"), "URL: http://x\n<p>Text\n").unwrap();
        assert_eq!(detect(&d).map(|f| f.0.name), Some("cleaneval"));
        std::fs::remove_dir_all(&d).unwrap();
    }
}
