//! Another tool's output (trafilatura's, an LLM's, cetune's own `extract --dump`) scored
//! against a gold set: a folder of `<id>.txt` files at any depth, or an ids-json file
//! (`{id: text}`, as the benchmarks' scorers read it). A file is matched to a document by
//! `package/id` (its path under the folder without `.txt`, or the JSON key), else by `id`
//! alone when that id names one document of the set. Documents without output score 0 (an
//! error row) and are named; outputs that match no document are named too.

use super::score::DocScore;
use crate::error::{Error, Result};
use crate::eval::Measure;
use crate::eval::text::score_text;
use crate::goldset::{GoldDoc, GoldSet};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The error of a document the output has no text for.
pub const NO_OUTPUT: &str = "no output for this document";

/// Largest output file read (an extract is text; anything larger is an error).
const MAX_TEXT_BYTES: u64 = 256 << 20;

/// One tool's output: text by key (`package/id` or `id`).
#[derive(Debug, Clone, Default)]
pub struct Outputs {
    /// Where it was read from.
    pub path: PathBuf,
    /// Text (or why it could not be read) by key.
    pub texts: BTreeMap<String, std::result::Result<String, String>>,
}

/// Reads an output folder or ids-json file.
pub fn read(path: &Path) -> Result<Outputs> {
    let mut texts = BTreeMap::new();
    if path.is_dir() {
        let mut files = BTreeMap::new();
        walk_ext(path, path, "txt", &mut files)?;
        for (k, bytes) in files {
            let text = bytes.and_then(|b| {
                String::from_utf8(b).map_err(|_| format!("{}: not UTF-8 text", path.join(format!("{k}.txt")).display()))
            });
            texts.insert(k, text);
        }
    } else {
        let bytes = read_bounded(path)?;
        let map: BTreeMap<String, serde_json::Value> = crate::goldset::decode::json_lossy(&bytes).map_err(|e| {
            Error::config(format!("{}:{}: not an ids-json file ({{id: text}}): {e}", path.display(), e.line()))
        })?;
        for (k, v) in map {
            let t = match v {
                serde_json::Value::String(s) => Ok(s),
                serde_json::Value::Null => Ok(String::new()),
                other => Err(format!("the value of '{k}' is not a string but {}", kind(&other))),
            };
            texts.insert(k, t);
        }
    }
    Ok(Outputs { path: path.to_path_buf(), texts })
}

/// The values of one metadata field (`title`, `author`, `date`, ...) in a folder of
/// `extract --format json` records (`<package>/<id>.json`, as `--dump` writes them): each
/// record's `FIELD.value` (empty when the field is null), keyed as [`read`] keys texts. `None`
/// when the folder holds no `.json` file.
pub fn read_field(path: &Path, field: &str) -> Result<Option<Outputs>> {
    if !path.is_dir() {
        return Ok(None);
    }
    let mut files = BTreeMap::new();
    walk_ext(path, path, "json", &mut files)?;
    if files.is_empty() {
        return Ok(None);
    }
    let texts = files
        .into_iter()
        .map(|(k, bytes)| {
            let v = bytes.and_then(|b| {
                let rec: serde_json::Value = crate::goldset::decode::json_lossy(&b)
                    .map_err(|e| format!("{}.json: not a JSON record: {e}", path.join(&k).display()))?;
                Ok(rec.get(field).and_then(|f| f.get("value")).and_then(|v| v.as_str()).unwrap_or("").to_string())
            });
            (k, v)
        })
        .collect();
    Ok(Some(Outputs { path: path.to_path_buf(), texts }))
}

/// The files under `dir` named `*.EXT`, keyed by their path below `root` without the extension
/// (`/` between folders), each read through the bounded reader (or why it could not be), in name
/// order: the one walk of an output folder of texts and of JSON records.
fn walk_ext(
    root: &Path,
    dir: &Path,
    ext: &str,
    out: &mut BTreeMap<String, std::result::Result<Vec<u8>, String>>,
) -> Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| Error::io(dir, "read", e))?
        .collect::<std::io::Result<Vec<_>>>()
        .map_err(|e| Error::io(dir, "read", e))?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        let ft = e.file_type().map_err(|err| Error::io(&p, "read", err))?;
        if ft.is_dir() {
            walk_ext(root, &p, ext, out)?;
        } else if let Some(rel) =
            p.strip_prefix(root).ok().and_then(|r| r.to_str()).and_then(|r| r.strip_suffix(&format!(".{ext}")))
        {
            out.insert(rel.replace(std::path::MAIN_SEPARATOR, "/"), read_bounded(&p).map_err(|e| e.to_string()));
        }
    }
    Ok(())
}

fn kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::Array(_) => "an array",
        _ => "an object",
    }
}

/// An output file through the one bounded reader: a regular file of at most
/// [`MAX_TEXT_BYTES`] (a FIFO or a device is refused before it is opened, so nothing blocks).
fn read_bounded(path: &Path) -> Result<Vec<u8>> {
    crate::paths::read_capped(path, MAX_TEXT_BYTES, "output file")
}

/// The scores of an output on `docs` of `set`, with the keys that matched no document.
#[derive(Debug, Clone)]
pub struct Scored {
    /// Per document, in `docs` order.
    pub scores: Vec<DocScore>,
    /// `package/id` of the documents without output.
    pub missing: Vec<String>,
    /// Output keys matching no document.
    pub extra: Vec<String>,
}

/// Scores `out` on `docs` by `measure`.
pub fn score(set: &GoldSet, docs: &[&GoldDoc], out: &Outputs, measure: Measure) -> Scored {
    let mut by_id: HashMap<&str, usize> = HashMap::new();
    for d in docs {
        *by_id.entry(d.id.as_str()).or_default() += 1;
    }
    let full = |d: &GoldDoc| format!("{}/{}", set.packages[d.package], d.id);
    let mut used = std::collections::HashSet::new();
    let found: Vec<Option<&std::result::Result<String, String>>> = docs
        .iter()
        .map(|d| {
            let k = full(d);
            if let Some(t) = out.texts.get(&k) {
                used.insert(k);
                return Some(t);
            }
            if by_id.get(d.id.as_str()) == Some(&1)
                && let Some(t) = out.texts.get(&d.id)
            {
                used.insert(d.id.clone());
                return Some(t);
            }
            None
        })
        .collect();
    let scores = docs
        .par_iter()
        .zip(&found)
        .map(|(d, t)| {
            let gold_words = crate::eval::tokens(&d.gold, set.token_rule).len();
            match t {
                None => DocScore { gold_words, error: Some(NO_OUTPUT.into()), ..Default::default() },
                Some(Err(e)) => DocScore { gold_words, error: Some(e.clone()), ..Default::default() },
                Some(Ok(text)) => {
                    let (prf, extract_words, gold_words) = score_text(text, &d.gold, set.token_rule, measure);
                    DocScore { prf, extract_words, gold_words, error: None }
                }
            }
        })
        .collect();
    let missing = docs.iter().zip(&found).filter(|(_, t)| t.is_none()).map(|(d, _)| full(d)).collect();
    let extra = out.texts.keys().filter(|k| !used.contains(*k)).cloned().collect();
    Scored { scores, missing, extra }
}

/// Warns (one line each, at most 10 names) about missing and extra ids.
pub fn warn_unmatched(name: &str, s: &Scored) {
    let list = |v: &[String]| {
        let mut t = v.iter().take(10).cloned().collect::<Vec<_>>().join(", ");
        if v.len() > 10 {
            t += &format!(", … ({} more)", v.len() - 10);
        }
        t
    };
    if !s.missing.is_empty() {
        eprintln!(
            "cetune: warning: {name}: {} documents have no output (scored 0): {}",
            s.missing.len(),
            list(&s.missing)
        );
    }
    if !s.extra.is_empty() {
        eprintln!(
            "cetune: warning: {name}: {} outputs match no document of the gold set: {}",
            s.extra.len(),
            list(&s.extra)
        );
    }
}
