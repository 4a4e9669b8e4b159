//! The Scrapinghub article-extraction benchmark: `html/<id>.html.gz` plus one
//! `ground-truth.json` mapping each id to `{"articleBody": ..., "url": ...}`; one package.

use super::{Item, bytes, files_with};
use crate::error::{Error, Result};
use serde_json::Value;
use std::path::Path;

/// The Scrapinghub article-extraction benchmark layout.
pub const IMPORTER: super::Importer = super::Importer {
    name: "scrapinghub",
    layout: "html/<id>.html.gz and ground-truth.json",
    looks_like: |src| src.join("html").is_dir() && src.join("ground-truth.json").is_file(),
    read,
    credit: |_| "Scrapinghub article-extraction-benchmark".to_string(),
    latin1_gold: false,
    gz: true,
};

/// Reads every document.
pub fn read(src: &Path) -> Result<Vec<Item>> {
    let gt_path = src.join("ground-truth.json");
    let gt: Value = serde_json::from_slice(&bytes(&gt_path)?)
        .map_err(|e| Error::input(format!("malformed JSON: {e}")).with_path(&gt_path).with_source(e))?;
    let mut out = Vec::new();
    for (stem, path) in files_with(&src.join("html"), ".html.gz")? {
        let entry = gt.get(&stem);
        out.push(Item {
            package: "scrapinghub".into(),
            gold: entry.and_then(|e| e.get("articleBody")).and_then(Value::as_str).map(str::to_string),
            url: entry.and_then(|e| e.get("url")).and_then(Value::as_str).map(str::to_string),
            page: bytes(&path)?,
            id: stem,
            fields: Default::default(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::goldset::import::{Options, fmt, import, tmp};
    use std::io::Write;

    #[test]
    fn imports_end_to_end() {
        let d = tmp("sh");
        std::fs::create_dir_all(d.join("html")).unwrap();
        for id in ["0463", "0500"] {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(b"<html><body><p>Article body text</p></body></html>").unwrap();
            std::fs::write(d.join(format!("html/{id}.html.gz")), e.finish().unwrap()).unwrap();
        }
        std::fs::write(
            d.join("ground-truth.json"),
            r#"{"0463": {"articleBody": "Article body text", "url": "http://x/a"}}"#,
        )
        .unwrap();
        let out = d.with_extension("out"); // beside the source: never inside it
        let rep = import(fmt("scrapinghub"), &d, &out, &Options::default()).unwrap();
        assert_eq!(rep.imported, 1);
        assert_eq!(rep.skipped[0].what, "scrapinghub/0500");
        let set = crate::goldset::native::open(&out, false).unwrap();
        assert_eq!(set.docs[0].id, "0463");
        assert_eq!(set.docs[0].url.as_deref(), Some("http://x/a"));
        std::fs::remove_dir_all(&out).unwrap();
        std::fs::remove_dir_all(&d).unwrap();
    }
}
