//! Per-page budgets: how large a page may be once decompressed, how many attributes a tag and
//! how much markup a page may have, and how long the HTML parser may take. Beyond the size
//! budget a page is an error; beyond the others it is cut, with a note saying so. These keep one
//! hostile page from hanging or aborting a whole run. Imports from the crate: nothing.

use std::time::Duration;

/// The budgets every page is read and parsed within.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest page, in bytes after decompression: a larger page is an error.
    pub max_page_bytes: u64,
    /// Attributes kept per tag: the rest are dropped (html5ever checks every attribute against
    /// all earlier ones of its tag, so 500,000 attributes took minutes).
    pub max_attrs: usize,
    /// Markup characters (`<` and `&`) read per page: the page is cut before the next one.
    /// Every element needs a `<`, so this bounds the nodes too; and html5ever handles each
    /// `<` or `&` that starts no tag as a token of its own (50 MB of `<` took 11 s and 3.7 GB).
    pub max_markup: usize,
    /// Time the HTML parser may take on one page: the rest of the page is dropped.
    pub max_parse: Duration,
}

/// One megabyte as `--max-page-mb` counts it (2^20 bytes).
pub const MB: u64 = 1 << 20;

impl Default for Limits {
    fn default() -> Self {
        Limits { max_page_bytes: 50 * MB, max_attrs: 200, max_markup: 2_000_000, max_parse: Duration::from_secs(5) }
    }
}
