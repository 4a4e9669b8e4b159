//! One pass over a whole gold set without keeping the parsed pages: each page is parsed once,
//! scored (or extracted) by every given extractor, and dropped. Used by `evaluate`, `compare`
//! and `extract --dump`, so memory stays flat on large collections.

use super::corpus::{PackageFacts, prepare, warn_skipped};
use super::score::{DocScore, Scratch, score_entry};
use crate::document::{Document, Needs};
use crate::eval::Measure;
use crate::extract::Extractor;
use crate::goldset::{GoldDoc, GoldSet};
use rayon::prelude::*;

/// Scores every extractor on every document by `measure`: `result[e][d]` is extractor `e` on
/// document `d`.
pub fn score_set(
    set: &GoldSet,
    docs: &[&GoldDoc],
    extractors: &[&dyn Extractor],
    measure: Measure,
    tick: &(dyn Fn() + Sync),
) -> Vec<Vec<DocScore>> {
    warn_skipped(set);
    let needs = extractors.iter().fold(Needs::NONE, |n, e| n | e.needs());
    let facts = package_facts(set, docs, extractors.iter().any(|e| e.needs_package()), needs);
    let per_doc: Vec<Vec<DocScore>> = docs
        .par_iter()
        .enumerate()
        .map_init(Scratch::default, |scratch, (i, d)| {
            let mut entry = prepare(set, d, needs);
            if let Some(doc) = &mut entry.doc {
                facts.attach(i, doc);
            }
            let scores = extractors.iter().map(|ex| score_entry(&entry, *ex, measure, scratch)).collect();
            tick();
            scores
        })
        .collect();
    (0..extractors.len()).map(|e| per_doc.iter().map(|s| s[e].clone()).collect()).collect()
}

/// The facts of the other pages of each page's package, when an extractor needs them (an
/// extra pass over the pages); else none.
fn package_facts(set: &GoldSet, docs: &[&GoldDoc], needed: bool, needs: Needs) -> PackageFacts {
    if needed { PackageFacts::of_pages(set, docs, needs) } else { PackageFacts::default() }
}

/// The extracted text of a document, or `None` when its page could not be read (the loader
/// has warned about it), or the message of an extractor failure.
pub type Extracted = std::result::Result<String, Option<String>>;

/// Extracts the text of every document with `ex` and hands it, with the parsed page when there
/// is one (holding what `ex` needs and `more`), to `sink` (called from several threads).
pub fn extract_set(
    set: &GoldSet,
    ex: &dyn Extractor,
    more: Needs,
    sink: &(dyn Fn(&GoldDoc, Extracted, Option<&Document>) + Sync),
) {
    warn_skipped(set);
    let docs: Vec<&GoldDoc> = set.docs.iter().collect();
    let facts = package_facts(set, &docs, ex.needs_package(), ex.needs());
    docs.par_iter().enumerate().for_each(|(i, d)| {
        let mut e = prepare(set, d, ex.needs() | more);
        if let Some(doc) = &mut e.doc {
            facts.attach(i, doc);
        }
        let out = match &e.doc {
            Some(doc) => match crate::error::isolate(|| crate::extract::extract_text(ex, doc)) {
                Ok(Ok(text)) => Ok(text),
                Ok(Err(failure)) => Err(Some(failure.to_string())),
                Err(_) => Err(Some(super::score::EXTRACTOR_FAILED.into())),
            },
            None => Err(None),
        };
        sink(d, out, e.doc.as_ref());
    });
}

/// Facts of one document for `goldset stats`.
#[derive(Debug, Clone, PartialEq)]
pub struct DocFacts {
    /// Evaluation tokens of the gold.
    pub gold_words: usize,
    /// Evaluation tokens of the page's rendered text.
    pub page_words: usize,
    /// Language (metadata, else detected).
    pub lang: Option<String>,
    /// Why the page could not be read.
    pub error: Option<String>,
    /// Which rule decoded the page ("" when it could not be read).
    pub decoding: &'static str,
}

/// Gold words, page words and language of every document, in parallel.
pub fn doc_facts(set: &GoldSet, tick: &(dyn Fn() + Sync)) -> Vec<DocFacts> {
    warn_skipped(set);
    set.docs
        .par_iter()
        .map(|d| {
            let e = prepare(set, d, Needs::DOM | Needs::LANG);
            tick();
            DocFacts {
                gold_words: e.gold.len(),
                page_words: e.dom.tok_starts.last().copied().unwrap_or(0) as usize,
                lang: e.doc.as_ref().and_then(|doc| doc.lang.clone()),
                decoding: e.doc.as_ref().map_or("", |doc| doc.decoding),
                error: e.error,
            }
        })
        .collect()
}
