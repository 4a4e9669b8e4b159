//! Extraction over a user's collection, far larger than any gold set: files, folders (walked
//! recursively), standard input, JSONL dumps and WARC files, in any mix. Pages stream through a
//! bounded pipeline (read → decode → parse → extract → write) over rayon, so memory does not grow
//! with the number of pages, and the output keeps the input order (a bounded reorder buffer)
//! unless the caller trades that for throughput.
//!
//! - `inputs.rs`: the inputs as one lazy sequence of [`Item`]s (folder walk, JSONL lines, WARC
//!   records); `item.rs`: an item and its payload, which both readers make; `warc.rs`: the
//!   WARC/1.0–1.1 reader;
//! - `page.rs`: one item to one [`Outcome`] (decode, parse within the page budgets, extract),
//!   never panicking;
//! - `pipeline.rs`: the ordered, bounded parallel map;
//! - `output.rs`: the writers (a text or JSONL stream, or one `.txt` per page in a folder).
//!
//! Imports from the crate: `document`, `extract`, `eval`, `goldset` (page decoding), `limits`,
//! `structure` (Markdown, HTML, metadata), `objective` (each page's confidence, when a model
//! is given), `paths` (the output safety rule) and `error`.

pub mod inputs;
pub mod item;
pub mod output;
pub mod page;
pub mod pipeline;
pub mod warc;

pub use inputs::{InputFormat, Inputs};
pub use item::{Item, Payload};
pub use output::{OutFormat, Sink};
pub use page::{Outcome, process, process_with};

use crate::error::Result;
use crate::extract::Extractor;
use crate::limits::Limits;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How a collection run goes.
#[derive(Debug, Clone)]
pub struct Options {
    /// The page budgets.
    pub limits: Limits,
    /// Write pages as they finish rather than in input order.
    pub unordered: bool,
    /// Pages in flight at most (read but not yet written): bounds memory.
    pub window: usize,
    /// What the output reads of a page beyond the extractor's needs (the language, for JSONL):
    /// each page is parsed for the extractor's needs and these ([`crate::document::Needs`]).
    pub more: crate::document::Needs,
    /// The structured outputs written beside the text ([`crate::structure`]).
    pub layout: crate::structure::Layout,
    /// How pages are marked (never dropped): empty below a word count, low confidence below a
    /// threshold.
    pub marks: Marks,
    /// The confidence model that gives every page its confidence, if any.
    pub confidence: Option<std::sync::Arc<crate::objective::confidence::Model>>,
    /// The worker threads pages are read, parsed and extracted on (the caller's, made for
    /// this run).
    pub workers: std::sync::Arc<crate::objective::Workers>,
}

/// The marks a run puts on pages: a page is written whatever its marks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Marks {
    /// A page with fewer words than this (and no error) is empty (`extract --min-words`, default 1).
    pub min_words: usize,
    /// A page whose confidence is below this is low confidence (`extract --min-confidence`);
    /// None: no page is marked, and the summary does not count them.
    pub min_confidence: Option<f64>,
}

impl Default for Marks {
    fn default() -> Self {
        Marks { min_words: 1, min_confidence: None }
    }
}

impl Marks {
    /// Sets the outcome's `empty` and `low_confidence` marks. A failed page is neither.
    pub fn mark(&self, o: &mut Outcome) {
        o.empty = o.error.is_none() && o.words < self.min_words;
        o.low_confidence =
            o.error.is_none() && matches!((o.confidence, self.min_confidence), (Some(c), Some(m)) if c < m);
    }
}

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Pages written (failed ones included).
    pub pages: u64,
    /// Pages that failed (read, decode, parse or extractor failure).
    pub failed: u64,
    /// Records or files passed over as not HTML (non-response WARC records, other content types).
    pub skipped: u64,
    /// Pages with fewer words than `Marks::min_words` (failed ones not included).
    pub empty: u64,
    /// Pages with a confidence below `Marks::min_confidence`; None when no threshold was set.
    pub low_confidence: Option<u64>,
    /// Wall time in seconds.
    pub secs: f64,
    /// The run stopped early on request (Ctrl-C): the output is complete up to the last page written.
    pub interrupted: bool,
}

impl Summary {
    /// The final line: pages, failures, empty and low-confidence pages, throughput.
    pub fn line(&self) -> String {
        let rate = if self.secs > 0.0 { self.pages as f64 / self.secs } else { 0.0 };
        let low = self.low_confidence.map(|l| format!(", {l} low confidence")).unwrap_or_default();
        format!(
            "extracted {} pages ({} failed, {} skipped as not HTML; {} empty{low}) in {:.1} s, {:.0} pages/s{}",
            self.pages,
            self.failed,
            self.skipped,
            self.empty,
            self.secs,
            rate,
            if self.interrupted { "; interrupted: the output is complete up to the last page written" } else { "" }
        )
    }
}

/// Extracts every page of `inputs` with `ex` and hands each outcome to `sink`, in input order
/// (unless `opts.unordered`). `tick` is called after each page is written (for a progress bar);
/// `stop` ends the run after the pages in flight (Ctrl-C). A per-page failure is an outcome with
/// an error; only a failing sink (the output cannot be written) stops the run with an error.
pub fn run(
    inputs: Inputs,
    ex: &dyn Extractor,
    opts: &Options,
    sink: &mut dyn Sink,
    stop: &AtomicBool,
    tick: &mut dyn FnMut(&Outcome),
) -> Result<Summary> {
    let started = Instant::now();
    let skipped = inputs.skipped_counter();
    let mut s = Summary::default();
    let mut low = 0;
    let limits = opts.limits;
    pipeline::map_ordered(
        inputs,
        &opts.workers,
        opts.window.max(1),
        !opts.unordered,
        stop,
        |item| page::process_with(item, ex, &limits, opts.more, opts.layout, opts.confidence.as_deref()),
        |mut out: Outcome| {
            opts.marks.mark(&mut out);
            s.pages += 1;
            s.failed += u64::from(out.error.is_some());
            s.empty += u64::from(out.empty);
            low += u64::from(out.low_confidence);
            sink.write(&out)?;
            tick(&out);
            Ok(())
        },
    )?;
    sink.finish()?;
    s.skipped = skipped.load(Ordering::Relaxed);
    s.low_confidence = opts.marks.min_confidence.map(|_| low);
    s.secs = started.elapsed().as_secs_f64();
    s.interrupted = stop.load(Ordering::SeqCst);
    Ok(s)
}
