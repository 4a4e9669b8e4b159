//! # cetune
//!
//! Finds the best parameter settings of web content-extraction algorithms by evolutionary search
//! (Gottron 2009). Data flows one way:
//!
//! gold set → documents → extractor → words → score → optimiser → report
//!
//! - [`goldset`]: gold sets (packages of pages with their true main text), importers, sampling;
//! - [`document`]: each page parsed once into a compact model;
//! - [`extract`]: the extractor families, one trait;
//! - [`params`]: the YAML parameter descriptions and settings;
//! - [`limits`]: the per-page budgets (size, attributes, tags, parse time);
//! - [`eval`]: tokens, LCS, precision/recall/F1;
//! - [`objective`]: where documents meet settings: scoring a setting over a corpus in parallel;
//! - [`evolve`]: the evolutionary loop (knows nothing about HTML);
//! - [`store`], [`report`]: run folders, CSV, tables and plots.
#![warn(missing_docs)]
#![deny(clippy::float_cmp)]

pub mod cli;
pub mod document;
pub mod error;
pub mod eval;
pub mod evolve;
pub mod extract;
pub mod goldset;
pub mod limits;
pub mod objective;
pub mod params;
pub mod report;
pub mod store;

pub use error::{Error, ErrorKind, Result};
