//! What `feedwrapper` knows of a page and of the other pages of its site (`blogs.md` §13.8):
//! parameter-free facts computed once when a set is loaded (`extract::feedwrapper::facts`), so an individual
//! only filters matches by its thresholds, counts filter values and scans the page's triples.
//! Plain data; imports from the crate: nothing.

/// An element of the page's body with rendered text, and its filter triple.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cand {
    /// Its index in [`Dom::nodes`](super::Dom).
    pub node: u32,
    /// One past its subtree (pre-order).
    pub end: u32,
    /// No element child holds the same text (the deepest holder of a text).
    pub bottom: bool,
    /// Hashes of its `classes`, `ids` and `path` values (§13.4; 0: null).
    pub triple: [u64; 3],
}

/// A candidate that matches one of the page's own feed values, with its similarity (for a
/// date: how many characters longer than the rendering it holds its text is).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Match {
    /// Index into [`PageFacts::cands`].
    pub cand: u32,
    /// Similarity (or, for a date, the slack).
    pub score: f32,
}

/// A candidate that may match the page's feed content: its score under each content matcher
/// (`word_prefix`, `jw_prefix`, `dice`), its word count, and the candidate it extends to under
/// each `content_stop_tags` choice.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ContentMatch {
    /// Index into [`PageFacts::cands`].
    pub cand: u32,
    /// Scores per matcher (`word_prefix`, `jw_prefix`, `dice`, `passage`).
    pub scores: [f32; 4],
    /// Words of the candidate's text (at most 40 are read).
    pub words: u32,
    /// The extended candidate per `content_stop_tags` choice (the three stop-tag sets, then
    /// `cover`).
    pub ext: [u32; 4],
}

/// One page's facts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageFacts {
    /// Flattened nodes of the page they were computed on (the page's `Dom` must have as many).
    pub nodes: u32,
    /// The body's elements with rendered text, in document order.
    pub cands: Vec<Cand>,
    /// Title matches: against the `title` field (0) and against the gold's first line (1).
    pub title: [Vec<Match>; 2],
    /// Author matches.
    pub author: Vec<Match>,
    /// Date matches (score: the slack in characters), English and numeric renderings.
    pub date: Vec<Match>,
    /// Date matches in the page's language only (`date_locales: en+page`).
    pub date_page: Vec<Match>,
    /// Content candidates with their scores.
    pub content: Vec<ContentMatch>,
    /// Which values the page has: title field, gold first line, author, date, content.
    pub has: [bool; 5],
    /// The filter values' text by hash, when kept (`wrapper learn` writes them).
    pub names: Vec<(u64, String)>,
}

/// What a page's `feedwrapper` reads: its own facts and those of the other pages of its
/// package (training pages, in id order).
#[derive(Debug, Clone, Default)]
pub struct Facts {
    /// The page's own candidates (its feed values are never used to extract it).
    pub own: std::sync::Arc<PageFacts>,
    /// The other pages of its package.
    pub train: Vec<std::sync::Arc<PageFacts>>,
}
