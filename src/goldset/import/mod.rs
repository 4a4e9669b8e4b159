//! Importers of published gold sets, each reading its set in the original layout and writing a
//! native gold set: the page as UTF-8 HTML (decoded once here), the gold text, and metadata.
//! Document ids are the source file stems, so results join with other tools.

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

/// A published gold-set layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// CleanEval (and CleanPortalEval): `input/<stem>.html` with a `<text>` wrapper,
    /// `GoldStandard/<stem>.txt` with block markers.
    Cleaneval,
    /// L3S-GN1: annotated HTML golds, `url-mapping.txt`.
    L3s,
    /// WCXB: `html/NNNN.html.gz`, `ground-truth/NNNN.json`, `metadata.json`.
    Wcxb,
    /// Scrapinghub article-extraction benchmark: `html/<id>.html.gz`, `ground-truth.json`.
    Scrapinghub,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "cleaneval" => Ok(Format::Cleaneval),
            "l3s" => Ok(Format::L3s),
            "wcxb" => Ok(Format::Wcxb),
            "scrapinghub" => Ok(Format::Scrapinghub),
            _ => Err(format!("unknown format '{s}' (expected cleaneval, l3s, wcxb or scrapinghub)")),
        }
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
}

/// Imports the set in `src` (laid out as `format`) into a native gold set in `out`.
pub fn import(format: Format, src: &Path, out: &Path, opts: &Options) -> Result<Report> {
    if !src.is_dir() {
        return Err(Error::input("gold set not found: not a folder").with_path(src));
    }
    let name = src.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "imported".into());
    let (items, licence, latin1_gold, gz): (Vec<Item>, Option<String>, bool, bool) = match format {
        Format::Cleaneval => (
            cleaneval::read(src)?,
            Some(format!("{name}: CLEANEVAL-format gold standard (licence not stated)")),
            false,
            false,
        ),
        Format::L3s => (l3s::read(src)?, Some(l3s::CREDIT.into()), true, false),
        Format::Wcxb => (wcxb::read(src)?, Some(wcxb::CREDIT.into()), false, true),
        Format::Scrapinghub => {
            (scrapinghub::read(src)?, Some("Scrapinghub article-extraction-benchmark".into()), false, true)
        }
    };
    let manifest = Manifest {
        name: Some(name),
        description: None,
        licence,
        latin1_gold,
        source: Some(format!("imported from {} (format {format:?})", src.display()).to_lowercase()),
        documents: BTreeMap::new(),
    };
    let mut w = Writer::create(out, manifest, opts.force)?;
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
        w.add(
            &it.package,
            &it.id,
            html.as_bytes(),
            gz,
            &gold,
            DocMeta { url: it.url.filter(|u| !u.is_empty()), lang: None },
        )?;
        *rep.per_package.entry(it.package).or_default() += 1;
        rep.imported += 1;
    }
    w.finish()?;
    Ok(rep)
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

#[cfg(test)]
pub(crate) fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("cetune-import-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_source_is_a_clear_error() {
        let e =
            import(Format::Wcxb, Path::new("/nonexistent/wcxb"), Path::new("/tmp/x"), &Options::default()).unwrap_err();
        assert_eq!(e.to_string(), "/nonexistent/wcxb: gold set not found: not a folder");
        assert!("nope".parse::<Format>().unwrap_err().contains("expected cleaneval, l3s, wcxb or scrapinghub"));
    }
}
