//! WCXB (Web Content eXtraction Benchmark): `html/NNNN.html.gz` beside
//! `ground-truth/NNNN.json` (`ground_truth.main_content`, `url`), and `metadata.json` giving each
//! id's page type, which is the package.

use super::{Item, bytes, files_with};
use crate::error::{Error, Result};
use crate::goldset::fields::{Fields, IsoDate};
use serde_json::Value;
use std::path::Path;

/// The attribution CC-BY-4.0 asks for.
pub const CREDIT: &str = "\"WCXB: Web Content Extraction Benchmark\", (c) 2026 Murrough Foley, licensed under CC-BY-4.0 (https://creativecommons.org/licenses/by/4.0/); source: Murrough-Foley/web-content-extraction-benchmark; 139 dev files of the test split and their metadata removed";

fn json(path: &Path) -> Result<Value> {
    let b = bytes(path)?;
    serde_json::from_slice(&b).map_err(|e| Error::input(format!("malformed JSON: {e}")).with_path(path).with_source(e))
}

/// The WCXB layout.
pub const IMPORTER: super::Importer = super::Importer {
    name: "wcxb",
    layout: "html/<id>.html.gz and ground-truth/<id>.json",
    looks_like: |src| src.join("html").is_dir() && src.join("ground-truth").is_dir(),
    read,
    credit: |_| CREDIT.to_string(),
    latin1_gold: false,
    gz: true,
};

/// Reads every document.
pub fn read(src: &Path) -> Result<Vec<Item>> {
    let meta_path = src.join("metadata.json");
    let meta = if meta_path.exists() { json(&meta_path)? } else { Value::Null };
    let mut out = Vec::new();
    for (stem, path) in files_with(&src.join("html"), ".html.gz")? {
        let page = bytes(&path)?;
        let gt_path = src.join("ground-truth").join(format!("{stem}.json"));
        let gt = if gt_path.exists() { json(&gt_path)? } else { Value::Null };
        let gold = gt.pointer("/ground_truth/main_content").and_then(Value::as_str).map(str::to_string);
        let url = gt.get("url").and_then(Value::as_str).map(str::to_string);
        let package = meta
            .pointer(&format!("/files/{stem}/page_type"))
            .and_then(Value::as_str)
            .or_else(|| gt.pointer("/_internal/page_type/primary").and_then(Value::as_str))
            .unwrap_or("unknown")
            .to_string();
        let fields = fields_of(&gt);
        out.push(Item { package, id: stem, page, gold, url, fields });
    }
    Ok(out)
}

/// The gold fields of a ground-truth record: `title`, `author`, `publish_date` (kept when it
/// is an ISO 8601 date; WCXB writes `YYYY-MM-DD` or nothing). Empty strings are no value.
fn fields_of(gt: &Value) -> Fields {
    let get = |k: &str| {
        gt.pointer(&format!("/ground_truth/{k}"))
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    Fields {
        title: get("title"),
        author: get("author"),
        date: get("publish_date").and_then(|d| IsoDate::parse(&d).ok()),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use crate::goldset::import::{Options, fmt, import, tmp};
    use std::io::Write;

    fn gz(s: &str) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(s.as_bytes()).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn missing_null_and_empty_gold_are_skipped_and_types_become_packages() {
        let d = tmp("wcxb");
        std::fs::create_dir_all(d.join("html")).unwrap();
        std::fs::create_dir_all(d.join("ground-truth")).unwrap();
        let docs = [
            (
                "0001",
                r#"{"url":"http://a","ground_truth":{"main_content":"Real text here","title":" A title ","author":"Ann","publish_date":"2025-09-04"}}"#,
            ),
            ("0002", r#"{"url":"","ground_truth":{"main_content":""}}"#),
            ("0003", r#"{"url":"http://c","ground_truth":{"title":"x"}}"#),
            ("0004", r#"{"url":"http://d","ground_truth":{"main_content":null}}"#),
        ];
        for (id, gt) in docs {
            std::fs::write(d.join(format!("html/{id}.html.gz")), gz("<p>Real text here</p>")).unwrap();
            std::fs::write(d.join(format!("ground-truth/{id}.json")), gt).unwrap();
        }
        std::fs::write(
            d.join("metadata.json"),
            r#"{"files":{"0001":{"page_type":"forum"},"0002":{"page_type":"article"}}}"#,
        )
        .unwrap();
        let out = d.with_extension("out"); // beside the source: never inside it
        let rep = import(fmt("wcxb"), &d, &out, &Options::default()).unwrap();
        assert_eq!(rep.imported, 1);
        assert_eq!(rep.per_package.get("forum"), Some(&1));
        let why: Vec<&str> = rep.skipped.iter().map(|s| s.why.as_str()).collect();
        assert_eq!(why, ["empty gold", "missing gold", "missing gold"]);
        assert!(out.join("forum/0001.html.gz").exists());
        let set = crate::goldset::native::open(&out, false).unwrap();
        assert_eq!(set.docs[0].read_page(&Default::default()).unwrap().0, "<p>Real text here</p>");
        assert!(set.credit.unwrap().contains("CC-BY-4.0"));
        let f = &set.docs[0].fields;
        assert_eq!(
            (f.get("title"), f.get("author"), f.get("date")),
            (Some("A title"), Some("Ann"), Some("2025-09-04"))
        );
        std::fs::remove_dir_all(&out).unwrap();
        std::fs::remove_dir_all(&d).unwrap();
    }
}
