//! The native gold-set format: a folder of package folders, each holding `<id>.html` (or
//! `<id>.html.gz`) beside its gold text `<id>.txt`, plus an optional `goldset.yaml` with the
//! set's name, credit, token rule and per-document metadata. A folder of package folders with
//! pages and texts alone is already a valid gold set.

use super::decode::{decode, read_bytes, read_raw, unpack};
use super::fields::Fields;
use super::{GoldDoc, GoldSet, Skipped};
use crate::error::{Error, Result};
use crate::eval::words::TokenRule;
use crate::limits::Limits;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Per-document metadata in `goldset.yaml`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DocMeta {
    /// Source URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// ISO 639-1 language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// Gold field: the title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Gold field: the author.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// Gold field: the publication date (ISO 8601, checked when read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<super::fields::IsoDate>,
    /// Gold field: the comments' text (long text: a sidecar `<id>.comments.txt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// Gold fields of each post of a page of several posts (title, author, date), in page order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub posts: Vec<super::fields::PostFields>,
    /// The feed entry it was made from (`goldset from-feed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feed: Option<super::fields::FeedMeta>,
    /// How its gold text was made with `cetune annotate`: who, from which pre-fill, when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotated: Option<Annotated>,
}

impl DocMeta {
    /// Its gold fields.
    pub fn fields(&self) -> Fields {
        Fields {
            title: self.title.clone(),
            author: self.author.clone(),
            date: self.date.clone(),
            comments: self.comments.clone(),
            posts: self.posts.clone(),
            feed: self.feed.clone(),
        }
    }

    /// Sets its gold fields.
    pub fn set_fields(&mut self, f: Fields) {
        (self.title, self.author, self.date, self.comments, self.posts, self.feed) =
            (f.title, f.author, f.date, f.comments, f.posts, f.feed);
    }
}

/// The record `cetune annotate` keeps of a saved gold text.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Annotated {
    /// Who saved it (the user name of the process).
    pub by: String,
    /// The extractor that pre-filled the blocks (`full`, `density`, a parameter file).
    pub prefill: String,
    /// When it was saved (UTC, ISO 8601).
    pub at: String,
    /// Blocks kept of blocks shown, and blocks the user toggled away from the pre-fill.
    #[serde(default)]
    pub kept: usize,
    /// Blocks shown.
    #[serde(default)]
    pub blocks: usize,
    /// Blocks whose state differs from the pre-fill.
    #[serde(default)]
    pub changed: usize,
    /// The gold fields (title, author, date, comments) as saved in `annotate`: when present they
    /// replace the page's fields of `goldset.yaml` and its comments sidecar (posts stay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<Fields>,
}

/// The optional `goldset.yaml` of a native gold set.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The set's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Licence and credit to print with results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub licence: Option<String>,
    /// Gold characters above U+00FF were replaced (L3S-GN1): cut page tokens there too.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub latin1_gold: bool,
    /// Where the set came from (importer, sample), free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Metadata keyed by `package/id`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub documents: BTreeMap<String, DocMeta>,
}

/// The manifest file name.
pub const MANIFEST: &str = "goldset.yaml";

fn read_manifest(root: &Path) -> Result<Manifest> {
    let path = root.join(MANIFEST);
    if !path.exists() {
        let mut m = Manifest::default();
        for (key, record) in annotations(root)? {
            merge_record(m.documents.entry(key).or_default(), record);
        }
        return Ok(m);
    }
    // A FIFO here would block every command that opens the set.
    if let Some(why) = not_regular(&path) {
        return Err(Error::config(format!("gold-set manifest {why}")).with_path(&path));
    }
    let text = crate::paths::read_capped_text(&path, crate::yaml::MAX_BYTES as u64, "gold-set manifest")?;
    let mut m = parse_manifest(&text, &path)?;
    for (key, record) in annotations(root)? {
        merge_record(m.documents.entry(key).or_default(), record);
    }
    Ok(m)
}

/// Puts an annotation record on a document: its fields, if it saved any, replace the
/// document's own (title, author, date, comments; the posts of a front page stay).
fn merge_record(meta: &mut DocMeta, record: Annotated) {
    if let Some(f) = &record.fields {
        (meta.title, meta.author, meta.date, meta.comments) =
            (f.title.clone(), f.author.clone(), f.date.clone(), f.comments.clone());
    }
    meta.annotated = Some(record);
}

/// The gold fields of document `package/id` of the set at `root` whose manifest is `manifest`:
/// `goldset.yaml`'s (or the fields `annotate` saved), the comments from `<id>.comments.txt`
/// when neither gives them.
pub fn doc_fields(root: &Path, manifest: &Manifest, package: &str, id: &str, max: u64) -> Result<Fields> {
    let meta = manifest.documents.get(&format!("{package}/{id}")).cloned().unwrap_or_default();
    let saved = meta.annotated.as_ref().is_some_and(|a| a.fields.is_some());
    let mut fields = meta.fields();
    let sidecar = root.join(package).join(format!("{id}.comments.txt"));
    if fields.comments.is_none() && !saved && sidecar.is_file() {
        fields.comments = Some(read_raw(&sidecar, max).and_then(|raw| gold_text(raw, max))?);
    }
    Ok(fields)
}

/// The file where `cetune annotate` records its saves (`package/id` → [`Annotated`]), so that
/// it never rewrites the user's `goldset.yaml` (its comments and order stay); records found
/// there are merged into the manifest's documents as it is read.
pub const ANNOTATIONS: &str = "annotations.yaml";

/// The records of [`ANNOTATIONS`] (empty when there is no such file).
pub fn annotations(root: &Path) -> Result<BTreeMap<String, Annotated>> {
    let path = root.join(ANNOTATIONS);
    if !path.exists() {
        return Ok(BTreeMap::new());
    }
    let text = crate::paths::read_capped_text(&path, crate::yaml::MAX_BYTES as u64, "annotation records")?;
    crate::yaml::from_str(&text, &path, |m| Error::config(format!("malformed annotation records: {m}")))
}

/// Parses the text of a `goldset.yaml`; `path` names it in errors.
pub fn parse_manifest(text: &str, path: &Path) -> Result<Manifest> {
    crate::yaml::from_str(text, path, |m| Error::config(format!("malformed gold-set manifest: {m}")))
}

/// Page file suffixes, in the order of preference when several files share one id.
const PAGE_SUFFIXES: [&str; 3] = [".html", ".html.gz", ".htm"];

/// The id of a page file name and the rank of its suffix in [`PAGE_SUFFIXES`].
fn stem_of(name: &str) -> Option<(&str, usize)> {
    PAGE_SUFFIXES.iter().enumerate().find_map(|(rank, s)| Some((name.strip_suffix(s)?, rank)))
}

/// Why `path` is not a readable regular file (following symbolic links), if it is not one:
/// FIFOs would block every command, symbolic-link loops cannot be opened.
fn not_regular(path: &Path) -> Option<String> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => None,
        Ok(_) => Some("not a regular file (a FIFO, socket or device): not read".into()),
        Err(e) => Some(format!("cannot read: {e}")),
    }
}

/// A gold file's bytes as text: gunzipped (within `max` bytes) and decoded.
pub fn gold_text(raw: Vec<u8>, max: u64) -> Result<String> {
    Ok(decode(&unpack(raw, max)?).0)
}

fn list_dir(dir: &Path) -> Result<Vec<PathBuf>> {
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, "read gold-set folder", e))?;
    let mut out = Vec::new();
    for e in rd {
        let e = e.map_err(|e| Error::io(dir, "read gold-set folder", e))?;
        out.push(e.path());
    }
    out.sort();
    Ok(out)
}

/// One page file of a gold-set folder, with or without its gold text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageFile {
    /// Its package (folder) name.
    pub package: String,
    /// Its id (the file stem).
    pub id: String,
    /// The page file.
    pub page: PathBuf,
    /// Where its gold text is (or goes): `<package>/<id>.txt`.
    pub gold: PathBuf,
}

/// Every page of a gold-set folder in package and name order, whether it has a gold text yet or
/// not (for annotation and `goldset stats`); several files of one id give the preferred one.
pub fn list_pages(root: &Path) -> Result<Vec<PageFile>> {
    if !root.is_dir() {
        return Err(super::not_found(root));
    }
    let mut out = Vec::new();
    for pkg_dir in list_dir(root)? {
        let pkg = pkg_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if !pkg_dir.is_dir() || pkg.starts_with('.') {
            continue;
        }
        let mut best: BTreeMap<String, (usize, PathBuf)> = BTreeMap::new();
        let mut ids = Vec::new();
        for f in list_dir(&pkg_dir)? {
            let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if not_regular(&f).is_some() {
                continue;
            }
            let Some((id, rank)) = stem_of(&name) else { continue };
            match best.get(id) {
                Some((r, _)) if *r <= rank => {}
                Some(_) => {
                    best.insert(id.to_string(), (rank, f));
                }
                None => {
                    ids.push(id.to_string());
                    best.insert(id.to_string(), (rank, f));
                }
            }
        }
        for id in ids {
            let (_, page) = best.remove(&id).unwrap_or_default();
            let gold = pkg_dir.join(format!("{id}.txt"));
            out.push(PageFile { package: pkg.clone(), id, page, gold });
        }
    }
    Ok(out)
}

/// Reads a gold set's `goldset.yaml` (an empty manifest when there is none).
pub fn manifest(root: &Path) -> Result<Manifest> {
    read_manifest(root)
}

/// Loads a native gold set. Pages without a gold text, or whose gold has no word, are skipped
/// and listed in [`GoldSet::skipped`] (kept when `keep_empty`). A page without a gold text
/// that `goldset from-feed` kept for its feed summary (`feed:` in `goldset.yaml`) is not
/// skipped: it is one of [`GoldSet::trainers`] (when its package has scored documents).
pub fn open(root: &Path, keep_empty: bool) -> Result<GoldSet> {
    open_with(root, keep_empty, false)
}

/// Loads a native gold set for learning from its feed values (`wrapper learn`): the pages kept
/// for their feed summaries are documents too, with an empty gold text.
pub fn open_feeds(root: &Path) -> Result<GoldSet> {
    open_with(root, true, true)
}

fn open_with(root: &Path, keep_empty: bool, summaries_as_docs: bool) -> Result<GoldSet> {
    if !root.is_dir() {
        return Err(super::not_found(root));
    }
    let manifest = read_manifest(root)?;
    let mut packages = Vec::new();
    let mut docs = Vec::new();
    let mut trainers = Vec::new();
    let mut skipped = Vec::new();
    let max = Limits::default().max_page_bytes;
    for pkg_dir in list_dir(root)? {
        if !pkg_dir.is_dir() {
            if let Some(why) = not_regular(&pkg_dir) {
                skipped.push(Skipped { what: pkg_dir.display().to_string(), why });
            }
            continue;
        }
        let pkg = pkg_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if pkg.starts_with('.') {
            continue;
        }
        let pkg_index = packages.len();
        let mut n = 0;
        let mut pkg_trainers = Vec::new();
        // Page files by id, ids in the order of their first file (sorted by name).
        let mut ids: Vec<String> = Vec::new();
        let mut files: BTreeMap<String, Vec<(usize, PathBuf)>> = BTreeMap::new();
        // Gold texts by id, to name those whose page is missing (`import` warns of them too).
        let mut golds: Vec<String> = Vec::new();
        for f in list_dir(&pkg_dir)? {
            let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if let Some(why) = not_regular(&f) {
                if !f.is_dir() {
                    skipped.push(Skipped { what: f.display().to_string(), why });
                }
                continue;
            }
            if let Some(id) = name.strip_suffix(".txt").filter(|id| !id.ends_with(".comments")) {
                golds.push(id.to_string());
            }
            let Some((id, rank)) = stem_of(&name) else { continue };
            let same = files.entry(id.to_string()).or_default();
            if same.is_empty() {
                ids.push(id.to_string());
            }
            same.push((rank, f));
        }
        for id in golds.iter().filter(|g| !files.contains_key(*g)) {
            skipped.push(Skipped {
                what: format!("{pkg}/{id}"),
                why: format!(
                    "gold text {} has no page ({id}.html): not scored",
                    pkg_dir.join(format!("{id}.txt")).display()
                ),
            });
        }
        for id in ids {
            let mut same = files.remove(&id).unwrap_or_default();
            same.sort();
            let key = format!("{pkg}/{id}");
            let Some((_, f)) = same.first().cloned() else { continue };
            if same.len() > 1 {
                let names: Vec<String> = same
                    .iter()
                    .map(|(_, p)| p.file_name().unwrap_or_default().to_string_lossy().into_owned())
                    .collect();
                skipped.push(Skipped {
                    what: key.clone(),
                    why: format!("{} page files share this id ({}): using {}", same.len(), names.join(", "), names[0]),
                });
            }
            let gold_path = pkg_dir.join(format!("{id}.txt"));
            if gold_path.symlink_metadata().is_err() {
                let meta = manifest.documents.get(&key);
                if meta.is_some_and(|m| m.feed.is_some()) {
                    let fields = doc_fields(root, &manifest, &pkg, &id, max)?;
                    let meta = meta.cloned().unwrap_or_default();
                    let doc = GoldDoc {
                        package: pkg_index,
                        id: id.to_string(),
                        page: f,
                        gold: "".into(),
                        url: meta.url,
                        lang: meta.lang,
                        fields,
                    };
                    if summaries_as_docs {
                        docs.push(doc);
                        n += 1;
                    } else {
                        pkg_trainers.push(doc);
                    }
                    continue;
                }
                skipped.push(Skipped { what: key, why: format!("no gold text {}", gold_path.display()) });
                continue;
            }
            // A FIFO, a looping link or a gzip bomb as gold skips the document, not the set.
            let gold =
                read_raw(&gold_path, max).and_then(|raw| gold_text(raw, max).map_err(|e| e.with_path(&gold_path)));
            let gold = match gold {
                Ok(g) => g,
                Err(e) => {
                    skipped.push(Skipped { what: key, why: format!("gold text not read: {e}") });
                    continue;
                }
            };
            // Binary data is no gold text: scored, it would pass for a page the extractor missed.
            if super::decode::looks_binary(&gold) {
                skipped.push(Skipped {
                    what: key,
                    why: format!("{}: binary data, not a gold text: not scored", gold_path.display()),
                });
                continue;
            }
            if !keep_empty && !gold.chars().any(char::is_alphanumeric) {
                skipped.push(Skipped { what: key, why: "empty gold text".into() });
                continue;
            }
            let meta = manifest.documents.get(&key).cloned().unwrap_or_default();
            let fields = doc_fields(root, &manifest, &pkg, &id, max)?;
            docs.push(GoldDoc {
                package: pkg_index,
                id: id.to_string(),
                page: f,
                gold: gold.into(),
                url: meta.url,
                lang: meta.lang,
                fields,
            });
            n += 1;
        }
        if n > 0 {
            packages.push(pkg);
            trainers.append(&mut pkg_trainers);
        } else if !pkg_trainers.is_empty() {
            skipped.push(Skipped {
                what: pkg,
                why: format!("{} feed summaries and no gold text: nothing to score", pkg_trainers.len()),
            });
        }
    }
    if docs.is_empty() {
        return Err(Error::input(format!(
            "no documents: expected package folders holding <id>.html (or .html.gz) beside <id>.txt{}",
            if skipped.is_empty() {
                String::new()
            } else {
                format!(" ({} pages skipped: {})", skipped.len(), skipped[0].why)
            }
        ))
        .with_path(root));
    }
    let name = manifest.name.clone().unwrap_or_else(|| {
        root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "goldset".into())
    });
    Ok(GoldSet {
        name,
        root: root.to_path_buf(),
        packages,
        docs,
        trainers,
        token_rule: TokenRule { latin1_only: manifest.latin1_gold },
        skipped,
        credit: manifest.licence.clone(),
        limits: Limits::default(),
    })
}

/// Writes gold sets in the native format, one document at a time.
///
/// Everything is written into a new folder beside the target and swapped in by [`Writer::finish`]:
/// an import that fails half-way leaves the old set untouched, and `--force` replaces a set whole
/// instead of merging into it.
pub struct Writer {
    root: PathBuf,
    building: PathBuf,
    manifest: Manifest,
    finished: bool,
    /// `hash size path` of every file written, for [`WRITTEN`].
    written: Vec<String>,
}

/// The list of the files a gold-set write produced, with their sizes and hashes: `--force`
/// replaces a set only when every file in it is listed and unchanged.
pub const WRITTEN: &str = ".cetune-written";

/// FNV-1a, 64 bits: enough to notice a file edited by hand (not a defence against forgery).
fn fnv64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

fn written_line(rel: &str, bytes: &[u8]) -> String {
    format!("{:016x} {} {rel}", fnv64(bytes), bytes.len())
}

/// The first file under `root` that its [`WRITTEN`] list does not name with its present size
/// and hash (a file added or edited by hand), as a path relative to `root`; `Err` names why
/// when there is no list.
fn first_unlisted(root: &Path) -> std::result::Result<Option<String>, String> {
    let list = root.join(WRITTEN);
    let text = crate::paths::read_capped_text(&list, 1 << 30, WRITTEN)
        .map_err(|_| format!("it has no readable {WRITTEN} (the list of the files cetune wrote)"))?;
    let listed: std::collections::HashSet<&str> = text.lines().collect();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let rd = std::fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let mut entries: Vec<_> = rd.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let path = e.path();
            let rel = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            let kind = e.file_type().map_err(|e| e.to_string())?;
            if kind.is_dir() {
                stack.push(path);
            } else if rel != WRITTEN {
                let same = kind.is_file()
                    && std::fs::read(&path).is_ok_and(|b| listed.contains(written_line(&rel, &b).as_str()));
                if !same {
                    return Ok(Some(rel));
                }
            }
        }
    }
    Ok(None)
}

/// Whether `dir` holds a gold set that cetune wrote (an import or a sample): its `goldset.yaml`
/// records where the set came from.
fn written_by_cetune(dir: &Path) -> bool {
    read_manifest(dir).is_ok_and(|m| {
        m.source.as_deref().is_some_and(|s| {
            s.starts_with("imported from")
                || s.starts_with("stratified sample")
                || s.starts_with("new gold set from")
                || s.starts_with("gold from the feeds of")
        })
    })
}

/// Whether a set cetune wrote now holds gold texts a person made: a text saved by `cetune
/// annotate` (recorded in `goldset.yaml`), or any gold text in a set made by `goldset new`, which
/// writes none. `--force` must never delete those.
fn holds_human_gold(dir: &Path) -> bool {
    let Ok(m) = read_manifest(dir) else { return false };
    if m.documents.values().any(|d| d.annotated.is_some()) {
        return true;
    }
    m.source.as_deref().is_some_and(|s| s.starts_with("new gold set from"))
        && list_pages(dir).is_ok_and(|pages| pages.iter().any(|p| p.gold.is_file()))
}

/// Removes the hidden `.NAME.cetune-new-PID` and `.NAME.cetune-old-PID` folders an interrupted
/// write of the set `root` left beside it, when process PID is no longer running (on Linux,
/// where `/proc` says so; elsewhere they are left alone).
fn remove_leftovers(root: &Path, name: &str) {
    let parent = match root.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Ok(rd) = std::fs::read_dir(parent) else { return };
    for entry in rd.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&format!(".{name}.cetune-")) else { continue };
        let pid = rest.strip_prefix("new-").or_else(|| rest.strip_prefix("old-"));
        let Some(pid) = pid.filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())) else { continue };
        let dead = cfg!(target_os = "linux") && !Path::new("/proc").join(pid).exists();
        if dead && entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

impl Writer {
    /// Prepares to write a gold set into `root`. An existing non-empty `root` is replaced only
    /// with `force` and only when cetune wrote it; `root` may never overlap `source` (the set or
    /// folder read from), nor be the working directory or one of its ancestors.
    pub fn create(root: &Path, manifest: Manifest, force: bool, source: Option<&Path>) -> Result<Writer> {
        if let Some(src) = source {
            crate::paths::refuse_overlap(root, src, "the source")?;
        }
        crate::paths::refuse_cwd_or_ancestor(root)?;
        if crate::paths::is_non_empty_dir(root) {
            if !written_by_cetune(root) {
                return Err(Error::config(
                    "output folder is not empty and holds no gold set written by cetune; choose a new --out",
                )
                .with_path(root));
            }
            if !force {
                return Err(
                    Error::config("output folder already holds a gold set (use --force to replace it)").with_path(root)
                );
            }
            if holds_human_gold(root) {
                return Err(Error::config(
                    "output folder holds gold texts made by hand or with cetune annotate, which --force would delete; move them away or choose a new --out",
                )
                .with_path(root));
            }
            match first_unlisted(root) {
                Ok(None) => {}
                Ok(Some(rel)) => {
                    return Err(Error::config(format!(
                        "output folder holds {rel}, which cetune did not write (or which was edited since), and --force would delete it; move it away or choose a new --out"
                    ))
                    .with_path(root));
                }
                Err(why) => {
                    return Err(Error::config(format!(
                        "--force replaces only what cetune wrote, but {why}; delete the folder yourself or choose a new --out"
                    ))
                    .with_path(root));
                }
            }
        } else if root.exists() && !root.is_dir() {
            return Err(Error::config("output path exists and is not a folder").with_path(root));
        }
        let name = root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "goldset".into());
        remove_leftovers(root, &name);
        let building = root.with_file_name(format!(".{name}.cetune-new-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&building);
        std::fs::create_dir_all(&building).map_err(|e| Error::io(root, "create output folder", e))?;
        Ok(Writer { root: root.to_path_buf(), building, manifest, finished: false, written: Vec::new() })
    }

    /// Writes one document: page bytes (gzip-compressed when `gz`), gold text, metadata.
    pub fn add(&mut self, package: &str, id: &str, page: &[u8], gz: bool, gold: &str, meta: DocMeta) -> Result<()> {
        self.add_page(package, id, page, gz, Some(gold), meta)
    }

    /// Writes one page, with its gold text when there is one (`goldset new` writes none).
    pub fn add_page(
        &mut self,
        package: &str,
        id: &str,
        page: &[u8],
        gz: bool,
        gold: Option<&str>,
        meta: DocMeta,
    ) -> Result<()> {
        let dir = self.building.join(package);
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, "create package folder", e))?;
        let page_path = dir.join(if gz { format!("{id}.html.gz") } else { format!("{id}.html") });
        let bytes = if gz {
            use std::io::Write;
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            enc.write_all(page).and_then(|_| enc.finish()).map_err(|e| Error::io(&page_path, "compress", e))?
        } else {
            page.to_vec()
        };
        std::fs::write(&page_path, &bytes).map_err(|e| Error::io(&page_path, "write", e))?;
        let page_name = page_path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        self.written.push(written_line(&format!("{package}/{page_name}"), &bytes));
        if let Some(gold) = gold {
            let gold_path = dir.join(format!("{id}.txt"));
            std::fs::write(&gold_path, gold).map_err(|e| Error::io(&gold_path, "write", e))?;
            self.written.push(written_line(&format!("{package}/{id}.txt"), gold.as_bytes()));
        }
        if meta != DocMeta::default() {
            self.manifest.documents.insert(format!("{package}/{id}"), meta);
        }
        Ok(())
    }

    /// Writes another file of the set (a report, or any file of a set written back from a
    /// dataset) at `rel`, its folders created as needed, listed as written by cetune.
    pub fn add_file(&mut self, rel: &str, bytes: &[u8]) -> Result<()> {
        if let Some(dir) = Path::new(rel).parent().filter(|d| !d.as_os_str().is_empty()) {
            crate::paths::create_dir_in(&self.building, dir)?;
        }
        let path = self.building.join(rel);
        std::fs::write(&path, bytes).map_err(|e| Error::io(&path, "write", e))?;
        self.written.push(written_line(rel, bytes));
        Ok(())
    }

    /// Writes `goldset.yaml` and swaps the new set in place of the old one (if any).
    pub fn finish(mut self) -> Result<PathBuf> {
        let path = self.building.join(MANIFEST);
        let text = crate::yaml::to_string(&self.manifest)?;
        std::fs::write(&path, &text).map_err(|e| Error::io(&path, "write", e))?;
        self.written.push(written_line(MANIFEST, text.as_bytes()));
        self.written.push(String::new());
        let list = self.building.join(WRITTEN);
        std::fs::write(&list, self.written.join("\n")).map_err(|e| Error::io(&list, "write", e))?;
        let old = self.root.with_file_name(format!(
            ".{}.cetune-old-{}",
            self.root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            std::process::id()
        ));
        if self.root.exists() {
            std::fs::rename(&self.root, &old).map_err(|e| Error::io(&self.root, "move the old gold set aside", e))?;
        }
        if let Err(e) = std::fs::rename(&self.building, &self.root) {
            let _ = std::fs::rename(&old, &self.root);
            return Err(Error::io(&self.root, "move the new gold set in place", e));
        }
        self.finished = true;
        if old.exists() {
            std::fs::remove_dir_all(&old).map_err(|e| Error::io(&old, "delete the replaced gold set", e))?;
        }
        Ok(self.root.clone())
    }
}

impl Drop for Writer {
    /// An unfinished set (an error half-way) is removed; the old one was never touched.
    fn drop(&mut self) {
        if !self.finished {
            let _ = std::fs::remove_dir_all(&self.building);
        }
    }
}

/// Copies documents of a loaded set into a new native set (used by `sample`).
pub fn copy_docs(set: &GoldSet, docs: &[&GoldDoc], out: &Path, source: String, force: bool) -> Result<PathBuf> {
    let manifest = Manifest {
        name: Some(format!("{}-sample", set.name)),
        description: None,
        licence: set.credit.clone(),
        latin1_gold: set.token_rule.latin1_only,
        source: Some(source),
        documents: BTreeMap::new(),
    };
    let mut w = Writer::create(out, manifest, force, Some(&set.root))?;
    for d in docs {
        let raw = std::fs::read(&d.page).map_err(|e| Error::io(&d.page, "read", e))?;
        let gz = raw.starts_with(&[0x1f, 0x8b]);
        let page = if gz { read_bytes(&d.page, Limits::default().max_page_bytes)? } else { raw };
        w.add(&set.packages[d.package], &d.id, &page, gz, &d.gold, {
            let mut m = DocMeta { url: d.url.clone(), lang: d.lang.clone(), ..Default::default() };
            m.set_fields(d.fields.clone());
            m
        })?;
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("cetune-native-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    /// Issue 41: goldset.yaml must end with a newline, whatever its last value is (nothing, a
    /// plain scalar, a folded long line, a literal block of several lines).
    #[test]
    fn goldset_yaml_ends_with_a_newline() {
        let long = "a long source description ".repeat(8);
        let last_values = [
            DocMeta::default(),
            DocMeta { lang: Some("en".into()), ..Default::default() },
            DocMeta { title: Some(long.clone()), ..Default::default() },
            DocMeta { comments: Some("first line\nsecond line".into()), ..Default::default() },
        ];
        for (k, meta) in last_values.into_iter().enumerate() {
            let root = tmp(&format!("newline-{k}"));
            let manifest = Manifest { name: Some("n".into()), source: Some(long.clone()), ..Default::default() };
            let mut w = Writer::create(&root, manifest, false, None).unwrap();
            w.add("p", "1", b"<p>Some words here</p>", false, "Some words here", meta).unwrap();
            w.finish().unwrap();
            let text = std::fs::read_to_string(root.join(MANIFEST)).unwrap();
            assert!(text.ends_with('\n'), "{k}: {text:?}");
            assert_eq!(open(&root, false).unwrap().docs.len(), 1);
        }
    }

    #[test]
    fn plain_folders_are_a_gold_set_and_missing_or_empty_gold_is_skipped() {
        let root = tmp("plain");
        std::fs::create_dir_all(root.join("news")).unwrap();
        std::fs::create_dir_all(root.join("blog")).unwrap();
        std::fs::write(root.join("news/1.html"), "<p>Hello world</p>").unwrap();
        std::fs::write(root.join("news/1.txt"), "Hello world").unwrap();
        std::fs::write(root.join("news/2.html"), "<p>x</p>").unwrap();
        std::fs::write(root.join("blog/7.html"), "<p>y</p>").unwrap();
        std::fs::write(root.join("blog/7.txt"), "  \n").unwrap();
        let set = open(&root, false).unwrap();
        assert_eq!(set.packages, ["news"]);
        assert_eq!(set.docs.len(), 1);
        assert_eq!(set.skipped.len(), 2);
        let set = open(&root, true).unwrap();
        assert_eq!(set.docs.len(), 2);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn page_files_sharing_an_id_become_one_document_with_a_warning() {
        let root = tmp("dupid");
        std::fs::create_dir_all(root.join("news")).unwrap();
        for (f, text) in [("1.htm", "htm"), ("1.html", "html"), ("10.html", "ten"), ("1-a.html", "a")] {
            std::fs::write(root.join("news").join(f), format!("<p>{text}</p>")).unwrap();
        }
        let mut w = Writer::create(&root.join("gz"), Manifest::default(), false, None).unwrap();
        w.add("news", "1", b"<p>gz</p>", true, "x", DocMeta::default()).unwrap();
        w.finish().unwrap();
        std::fs::rename(root.join("gz/news/1.html.gz"), root.join("news/1.html.gz")).unwrap();
        std::fs::remove_dir_all(root.join("gz")).unwrap();
        for id in ["1", "10", "1-a"] {
            std::fs::write(root.join(format!("news/{id}.txt")), "gold words").unwrap();
        }
        let set = open(&root, false).unwrap();
        // One document per id, in the order of the sorted file names, as before.
        let ids: Vec<&str> = set.docs.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["1-a", "1", "10"]);
        assert_eq!(set.docs[1].page, root.join("news/1.html"));
        assert_eq!(set.skipped.len(), 1, "{:?}", set.skipped);
        assert_eq!(set.skipped[0].what, "news/1");
        assert_eq!(set.skipped[0].why, "3 page files share this id (1.html, 1.html.gz, 1.htm): using 1.html");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn writer_roundtrip_with_gzip_and_metadata() {
        let root = tmp("write");
        let mut w = Writer::create(
            &root,
            Manifest { name: Some("t".into()), latin1_gold: true, ..Default::default() },
            false,
            None,
        )
        .unwrap();
        w.add(
            "p",
            "0001",
            b"<p>Gr\xc3\xbc\xc3\x9fe</p>",
            true,
            "Grüße",
            DocMeta { url: Some("http://x".into()), lang: Some("de".into()), ..Default::default() },
        )
        .unwrap();
        // A file in a package folder not made yet (a set written back from a dataset).
        w.add_file("q/0002.html.gz", b"\x1f\x8b not recompressed").unwrap();
        w.finish().unwrap();
        assert_eq!(std::fs::read(root.join("q/0002.html.gz")).unwrap(), b"\x1f\x8b not recompressed");
        let set = open(&root, false).unwrap();
        assert_eq!(set.name, "t");
        assert!(set.token_rule.latin1_only);
        assert_eq!(set.docs[0].lang.as_deref(), Some("de"));
        assert_eq!(set.docs[0].read_page(&Limits::default()).unwrap().0, "<p>Grüße</p>");
        assert!(Writer::create(&root, Manifest::default(), false, None).is_err());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn missing_folder_and_broken_manifest_are_clear_errors() {
        let e = open(Path::new("/nonexistent/set"), false).unwrap_err();
        assert_eq!(e.to_string(), "/nonexistent/set: gold set not found: not a folder");
        let root = tmp("badmanifest");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join(MANIFEST), "name: [unclosed\n").unwrap();
        let e = open(&root, false).unwrap_err();
        assert!(e.to_string().contains("goldset.yaml:"), "{e}");
        std::fs::write(root.join(MANIFEST), "documents:\n  b/1: {title: T}\n  b/2: {date: May 2012}\n").unwrap();
        let e = open(&root, false).unwrap_err().to_string();
        assert!(e.contains("goldset.yaml:3:") && e.contains("'May 2012' is not an ISO 8601 date"), "{e}");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn fields_come_from_the_manifest_and_a_comments_sidecar() {
        let root = tmp("fields");
        std::fs::create_dir_all(root.join("b")).unwrap();
        for id in ["1", "2"] {
            std::fs::write(root.join(format!("b/{id}.html")), "<p>x</p>").unwrap();
            std::fs::write(root.join(format!("b/{id}.txt")), "x").unwrap();
        }
        std::fs::write(root.join("b/2.comments.txt"), "Nice post!").unwrap();
        let yaml = "documents:\n  b/1: {title: A post, author: Ann, date: 2012-05-11, comments: Hi}\n";
        std::fs::write(root.join(MANIFEST), yaml).unwrap();
        let set = open(&root, false).unwrap();
        let f = &set.docs[0].fields;
        assert_eq!(
            [f.get("title"), f.get("author"), f.get("date"), f.get("comments")],
            [Some("A post"), Some("Ann"), Some("2012-05-11"), Some("Hi")]
        );
        assert_eq!(set.docs[1].fields.get("comments"), Some("Nice post!"));
        std::fs::remove_dir_all(&root).unwrap();
    }

    fn small_set(root: &Path, n: usize) -> GoldSet {
        std::fs::create_dir_all(root.join("news")).unwrap();
        for k in 0..n {
            std::fs::write(root.join(format!("news/{k}.html")), format!("<p>Text {k}</p>")).unwrap();
            std::fs::write(root.join(format!("news/{k}.txt")), format!("Text {k}")).unwrap();
        }
        std::fs::write(root.join(MANIFEST), "name: src\ndocuments:\n  news/0: {lang: en}\n").unwrap();
        open(root, false).unwrap()
    }

    #[test]
    fn force_replaces_a_sample_whole_instead_of_merging() {
        let base = tmp("resample");
        let set = small_set(&base.join("src"), 5);
        let all: Vec<&GoldDoc> = set.docs.iter().collect();
        let out = base.join("sample");
        copy_docs(&set, &all, &out, "stratified sample of 5".into(), false).unwrap();
        let e = copy_docs(&set, &all[..2], &out, "stratified sample of 2".into(), false).unwrap_err();
        assert!(e.to_string().contains("use --force to replace it"), "{e}");
        copy_docs(&set, &all[..2], &out, "stratified sample of 2".into(), true).unwrap();
        assert_eq!(open(&out, false).unwrap().docs.len(), 2, "the old sample's documents must be gone");
        // No temporary folders are left beside it.
        let left: Vec<_> = std::fs::read_dir(&base).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left.len(), 2, "{left:?}");
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn sampling_into_the_source_or_over_foreign_files_is_refused() {
        let base = tmp("intosource");
        let src = base.join("src");
        let set = small_set(&src, 3);
        let manifest_before = std::fs::read(src.join(MANIFEST)).unwrap();
        let all: Vec<&GoldDoc> = set.docs.iter().collect();
        for out in [src.clone(), src.join("news"), src.join("sub")] {
            let e = copy_docs(&set, &all[..1], &out, "stratified sample of 1".into(), true).unwrap_err();
            assert!(e.to_string().contains("overlaps the source"), "{e}");
        }
        assert_eq!(std::fs::read(src.join(MANIFEST)).unwrap(), manifest_before);
        assert_eq!(open(&src, false).unwrap().docs.len(), 3);
        let mine = base.join("mine");
        std::fs::create_dir_all(&mine).unwrap();
        std::fs::write(mine.join("notes.txt"), "x").unwrap();
        let e = copy_docs(&set, &all[..1], &mine, "stratified sample of 1".into(), true).unwrap_err();
        assert!(e.to_string().contains("no gold set written by cetune"), "{e}");
        assert!(mine.join("notes.txt").exists());
        std::fs::remove_dir_all(&base).unwrap();
    }
}
