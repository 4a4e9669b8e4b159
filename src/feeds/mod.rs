//! Feeds: gold and wrappers from a site's own RSS/Atom feeds (`blogs.md` §13–§14, Gkotsis et al.
//! 2014). It stands above the extractors and the collection reader: it reads collections as
//! `extract` does and learns the `feedwrapper` family's rules, whose matchers and page facts are
//! the family's own (`extract::feedwrapper`).
//!
//! - [`xml`]: a recovering, entity-safe XML reader (nothing a DTD declares is expanded; budgets).
//! - [`feed`]: RSS 2.0, RSS 1.0/RDF and Atom entries (title, link, author, date, full content or
//!   summary, rendered text).
//! - [`gold`]: `goldset from-feed`, a gold set from crawled sites and their feeds.
//! - [`wrappers`]: wrapper files (`wrapper learn`, `extract --wrappers`).
//!
//! Imports from the crate: `document`, `goldset` (a document's fields), `limits` and
//! `structure` (the date and HTML-text readings it shares with the page's metadata).
//! `gold.rs` and `wrappers.rs` state their own, wider rules.

pub mod feed;
pub mod gold;
pub mod wrappers;
pub mod xml;
