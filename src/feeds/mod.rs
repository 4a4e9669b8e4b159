//! Feeds: gold and wrappers from a site's own RSS/Atom feeds (`blogs.md` §13–§14, Gkotsis et al.
//! 2014).
//!
//! - [`xml`]: a recovering, entity-safe XML reader (nothing a DTD declares is expanded; budgets).
//! - [`feed`]: RSS 2.0, RSS 1.0/RDF and Atom entries (title, link, author, date, full content or
//!   summary, rendered text).
//! - [`rules`]: Jaro–Winkler and the content matchers, filters ranked into rules by gain.
//! - [`gold`]: `goldset from-feed`, a gold set from crawled sites and their feeds.
//! - [`wrappers`]: wrapper files (`wrapper learn`, `extract --wrappers`).
//! - [`facts`]: what `feedwrapper` learns from a page (its candidate elements, their filter
//!   triples, their similarity to the page's feed values), computed once when a set is loaded.
//!
//! Imports from the crate: `document`, `eval` (the date renderings), `goldset` (a document's
//! fields) and `limits`.

pub mod facts;
pub mod feed;
pub mod gold;
pub mod rules;
pub mod wrappers;
pub mod xml;
