//! Feeds: gold from a site's own RSS/Atom feeds (`blogs.md` §13–§14, Gkotsis et al. 2014). It
//! stands above the collection reader: it reads collections as `extract` does. (The wrapper
//! files a family learns from such gold are the family's own: `extract::wrappers`.)
//!
//! - [`xml`]: a recovering, entity-safe XML reader (nothing a DTD declares is expanded; budgets).
//! - [`feed`]: RSS 2.0, RSS 1.0/RDF and Atom entries (title, link, author, date, full content or
//!   summary, rendered text).
//! - [`gold`]: `goldset from-feed`, a gold set from crawled sites and their feeds.
//!
//! Imports from the crate: `document`, `goldset` (a document's fields), `limits` and
//! `structure` (the date and HTML-text readings it shares with the page's metadata).
//! `gold.rs` states its own, wider rule.

pub mod feed;
pub mod gold;
pub mod xml;
