//! Gold sets: named collections of pages with the true main text of each, grouped into
//! *packages* (one site, portal or page type each, like the 14 packages of Gottron's
//! collection). The native on-disk format, the importers of published sets, decoding and the
//! stratified sample live here. Imports from the crate: `error`, `yaml`, `limits` (the page
//! budgets), `eval` (its token rule, a plain value) and `paths` (the output-folder safety rule).
//! The importers (`import/`) and `url.rs` (which reads a page's head) state their own, wider
//! rule.

pub mod decode;
pub mod fields;
pub mod import;
pub mod native;
pub mod sample;
pub mod url;

use crate::error::{Error, Result};
use crate::eval::words::TokenRule;
use std::path::{Path, PathBuf};

/// The error for a gold-set folder that does not exist, the same for every command that reads
/// one (`goldset import | sample | stats`, `evaluate`, `optimise`, ...): a usage error, exit 2.
pub fn not_found(root: &Path) -> Error {
    Error::not_found(root, "gold set not found: not a folder")
}

/// One gold document: where its page and gold text are, plus optional metadata.
#[derive(Debug, Clone)]
pub struct GoldDoc {
    /// Index of the package in [`GoldSet::packages`].
    pub package: usize,
    /// The document id (the source file stem: `17`, `0463`).
    pub id: String,
    /// The page file (`.html` or `.html.gz`).
    pub page: PathBuf,
    /// The gold text.
    pub gold: std::sync::Arc<str>,
    /// Source URL, if known.
    pub url: Option<String>,
    /// ISO 639-1 language, if known.
    pub lang: Option<String>,
    /// Gold fields beside the text (title, author, date, comments), where the set has them.
    pub fields: fields::Fields,
}

impl GoldDoc {
    /// Reads and decodes the page, within the size budget of `limits`.
    pub fn read_page(&self, limits: &crate::limits::Limits) -> Result<(String, decode::Decoding)> {
        let bytes = decode::read_bytes(&self.page, limits.max_page_bytes)?;
        Ok(decode::decode_html(&bytes))
    }
}

/// A document that was left out while loading or importing, and why.
#[derive(Debug, Clone)]
pub struct Skipped {
    /// `package/id` or the file path.
    pub what: String,
    /// Why it was skipped.
    pub why: String,
}

/// A loaded gold set.
#[derive(Debug, Clone)]
pub struct GoldSet {
    /// Its name (from `goldset.yaml`, else the folder name).
    pub name: String,
    /// The folder it was loaded from.
    pub root: PathBuf,
    /// Package names, sorted.
    pub packages: Vec<String>,
    /// Documents, sorted by package then id.
    pub docs: Vec<GoldDoc>,
    /// Pages that are not scored but that a wrapper learns from (a family's fact that reads the
    /// page's package may read them too): feed summaries kept by
    /// `goldset from-feed --keep-summaries` (no gold text; their fields and feed text), of
    /// packages that have documents.
    pub trainers: Vec<GoldDoc>,
    /// How to tokenise page text for comparison with this set's gold.
    pub token_rule: TokenRule,
    /// Documents left out (missing or empty gold).
    pub skipped: Vec<Skipped>,
    /// Free-text credit/licence line to print under results.
    pub credit: Option<String>,
    /// The budgets its pages are read and parsed within (the defaults unless a command sets them).
    pub limits: crate::limits::Limits,
}

impl GoldSet {
    /// Number of documents per package, in package order.
    pub fn package_sizes(&self) -> Vec<usize> {
        let mut n = vec![0; self.packages.len()];
        for d in &self.docs {
            n[d.package] += 1;
        }
        n
    }

    /// A content hash of the set (package, id, page bytes, gold text, and `goldset.yaml`, whose
    /// token rule and languages change scores), for run records.
    pub fn content_hash(&self) -> String {
        // FNV-1a 64: stable across platforms and Rust versions, unlike DefaultHasher.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        for d in &self.docs {
            eat(self.packages[d.package].as_bytes());
            eat(d.id.as_bytes());
            // Within the page budget (an oversized or non-regular page hashes as empty).
            eat(&crate::paths::read_capped(&d.page, self.limits.max_page_bytes, "page").unwrap_or_default());
            eat(d.gold.as_bytes());
        }
        let manifest = self.root.join(native::MANIFEST);
        eat(&crate::paths::read_capped(&manifest, crate::yaml::MAX_BYTES as u64, "manifest").unwrap_or_default());
        format!("fnv1a64:{h:016x}")
    }
}
