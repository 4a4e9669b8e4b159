//! # cetune
//!
//! Finds the best parameter settings of web content-extraction algorithms by evolutionary search
//! (Gottron 2009). Data flows one way:
//!
//! gold set → documents → extractor → words → score → optimiser → report
//!
//! - [`goldset`]: gold sets (packages of pages with their true main text), importers, sampling;
//! - [`document`]: each page parsed once into a compact model;
//! - [`collect`]: extraction over a user's collection (folders, JSONL, WARC), streamed in order;
//! - [`annotate`]: new gold sets from one's own pages, the local annotation server, its effort;
//! - [`extract`]: the extractor families, one trait;
//! - [`feeds`]: RSS/Atom feeds, gold sets from them, the feed wrapper's wrapper files;
//! - [`params`]: the YAML parameter descriptions and settings;
//! - [`limits`]: the per-page budgets (size, attributes, tags, parse time);
//! - [`eval`]: tokens, LCS, precision/recall/F1;
//! - [`objective`]: where documents meet settings: scoring a setting over a corpus in parallel,
//!   and every page's confidence, an estimate of its F1 fitted on gold;
//! - [`evolve`]: the evolutionary loop (knows nothing about HTML);
//! - [`structure`]: Markdown and clean HTML of the kept elements, and the page's metadata;
//! - [`store`], [`report`]: run folders, CSV, tables and plots;
//! - [`study`]: the run lifecycle (start, resume, checkpoints, Ctrl-C, final reports);
//! - [`paths`]: the output-folder safety rule;
//! - [`yaml`]: reading and writing YAML within input budgets.
//!
//! The `cli` feature (on by default) adds the command line ([`cli`]), the run lifecycle
//! ([`study`]), a run's plots and reports, the annotation server and the progress bar; the
//! Python package builds the library without it, so its extension compiles none of their crates.
#![warn(missing_docs)]
#![deny(clippy::float_cmp)]

pub mod annotate;
#[cfg(feature = "cli")]
pub mod cli;
pub mod collect;
pub mod document;
pub mod error;
pub mod eval;
pub mod evolve;
pub mod extract;
pub mod feeds;
pub mod goldset;
pub mod limits;
pub mod objective;
pub mod params;
pub mod paths;
pub mod report;
pub mod store;
pub mod structure;
#[cfg(feature = "cli")]
pub mod study;
pub mod yaml;

pub use error::{Error, ErrorKind, Result};

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::{Path, PathBuf};

    /// The crate modules a header allows: the backticked names of its sentence "Imports from
    /// the crate: ...", up to the sentence's full stop.
    fn stated_rule(file: &Path) -> Option<BTreeSet<String>> {
        let text = std::fs::read_to_string(file).ok()?;
        let doc: Vec<&str> = text.lines().map_while(|l| l.strip_prefix("//!")).map(str::trim).collect();
        let doc = doc.join(" ");
        let at = doc.find("Imports from the crate:")?;
        let rest = &doc[at + "Imports from the crate:".len()..];
        // The sentence ends at the first full stop outside backticks.
        let mut end = rest.len();
        let mut inside = false;
        for (i, c) in rest.char_indices() {
            match c {
                '`' => inside = !inside,
                '.' if !inside => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        Some(rest[..end].split('`').skip(1).step_by(2).map(str::to_string).collect())
    }

    /// The crate modules a file refers to (`crate::x`) outside its test module.
    fn imports(file: &Path) -> BTreeSet<String> {
        let text = std::fs::read_to_string(file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let mut out = BTreeSet::new();
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            let mut rest = line;
            while let Some(i) = rest.find("crate::") {
                rest = &rest[i + "crate::".len()..];
                let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                out.insert(name);
            }
        }
        out
    }

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                rust_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }

    /// Issue 10: module headers stated import rules the code had broken (`goldset` said it
    /// imported only `error`). Every file's `crate::` references must lie within the rule stated
    /// by the nearest enclosing `mod.rs` (or the file itself) that states one; every top-level
    /// module must state one.
    #[test]
    fn every_module_imports_only_what_its_header_allows() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        files.sort();
        let mut broken = Vec::new();
        for f in &files {
            let rel = f.strip_prefix(&src).unwrap();
            let Some(top) = rel.components().next().map(|c| c.as_os_str().to_string_lossy().into_owned()) else {
                continue;
            };
            if matches!(top.as_str(), "lib.rs" | "main.rs") {
                continue;
            }
            let top = top.trim_end_matches(".rs").to_string();
            // The rule: the file's own, else the nearest mod.rs above it that states one.
            let mut rule = stated_rule(f);
            let mut dir = f.parent();
            while rule.is_none() {
                let Some(d) = dir.filter(|d| d.starts_with(&src) && *d != src) else { break };
                rule = stated_rule(&d.join("mod.rs"));
                dir = d.parent();
            }
            let Some(rule) = rule else {
                broken.push(format!("{}: no header states its imports", rel.display()));
                continue;
            };
            if rule.contains("everything") {
                continue;
            }
            for m in imports(f) {
                if m != top && !rule.contains(&m) {
                    broken.push(format!("{}: imports `{m}`, not allowed by {rule:?}", rel.display()));
                }
            }
        }
        assert!(broken.is_empty(), "{}", broken.join("\n"));
    }
}
