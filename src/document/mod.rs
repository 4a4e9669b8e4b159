//! The document model: each page is parsed once into two compact, read-only views that every
//! extractor reads, so the optimiser can run thousands of settings without touching HTML again.
//!
//! - [`Source`] (`scan.rs`): the source token stream (tags, opaque code, words, whitespace) for
//!   content code blurring, BTE and other source-order algorithms.
//! - [`Dom`] (`parse.rs`, the only user of `scraper`): the element tree flattened in pre-order
//!   with its rendered text nodes, link flags and block segments, for LQF, the stop-word filter,
//!   Baisa's density and Crunch.
//!
//! - [`WordMap`] (`words.rs`): the canonical words of every DOM text unit, so that a selection
//!   of either view becomes a keep-mask over one word sequence ([`Document::mask`]).
//!
//! - [`segments::Segments`] (`segments.rs`): the block view, text blocks with hidden text kept
//!   and flagged (`noscript`, `hidden`, `display:none`, streaming placeholders), each with the
//!   feature vector the `blocks` family scores.
//!
//! Scripts, styles, comments, `noscript`, templates, `title` and hidden elements never count as
//! text in the source and DOM views: one list, in `hidden.rs`. Every page is first kept within its budgets
//! ([`Limits`], `budget.rs`): attributes per tag, tags per page, parse time. Imports from the
//! crate: `error` and `limits` (nothing here knows about gold sets or scores).

pub mod budget;
pub mod entities;
pub mod facts;
pub mod hidden;
pub mod lang;
pub mod memo;
pub mod needs;
pub mod page_features;
pub mod parse;
pub mod scan;
pub mod segments;
pub mod tags;
pub mod words;

pub use facts::{Fact, Facts};
pub use needs::Needs;
pub use parse::{Dom, Node, NodeMarkup, TextInfo};
pub use scan::{Kind, Source, SourceIndex, SrcToken, TextLine};
pub use tags::Tag;
pub use words::WordMap;

use crate::limits::Limits;

/// Separator constants between units.
pub mod sep {
    /// Nothing lies between the units: an inline element's boundary inside a word
    /// (`<b>bold</b>word`), rendered as a browser does, without a separator.
    pub const GLUE: u8 = 0;
    /// Units on the same line are separated by a space.
    pub const SPACE: u8 = 1;
    /// A block boundary (or `<br>`) lies between the units.
    pub const NEWLINE: u8 = 2;
}

/// A sequence of text units (words or text nodes) stored in one buffer, each with the number of
/// the line (block) it sits on, so a selection can be rendered without re-reading the page.
#[derive(Debug, Clone, Default)]
pub struct Units {
    text: String,
    ends: Vec<u32>,
    lines: Vec<u32>,
    /// Per unit: it continues the previous unit's last word (pushed with [`sep::GLUE`]).
    glued: Vec<bool>,
}

impl Units {
    /// Appends a unit; `sep` is [`sep::NEWLINE`] when a block boundary precedes it,
    /// [`sep::GLUE`] when nothing does (its first word continues the previous unit's last).
    pub fn push(&mut self, s: &str, sep: u8) -> u32 {
        let line = self.lines.last().copied().unwrap_or(0) + u32::from(sep == sep::NEWLINE && !self.ends.is_empty());
        self.glued.push(sep == sep::GLUE && !self.ends.is_empty());
        self.text.push_str(s);
        self.ends.push(self.text.len() as u32);
        self.lines.push(line);
        (self.ends.len() - 1) as u32
    }
    /// Gives back the room the buffers grew beyond their contents.
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
        self.lines.shrink_to_fit();
        self.glued.shrink_to_fit();
    }
    /// Appends `s` to the last unit (a word continued across an inline element's boundary).
    pub fn extend_last(&mut self, s: &str) {
        self.text.push_str(s);
        if let Some(e) = self.ends.last_mut() {
            *e = self.text.len() as u32;
        }
    }
    /// True when unit `i` continues unit `i - 1` without a separator ([`sep::GLUE`]).
    pub fn glued(&self, i: usize) -> bool {
        self.glued.get(i).copied().unwrap_or(false)
    }
    /// Number of units.
    pub fn len(&self) -> usize {
        self.ends.len()
    }
    /// True when there are no units.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
    /// The text of unit `i`.
    pub fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.text[start..self.ends[i] as usize]
    }
    /// The line (block) number of unit `i`.
    pub fn line(&self, i: usize) -> u32 {
        self.lines[i]
    }
    /// The separator before each unit (0 for the first), derived from the line numbers.
    pub fn seps(&self) -> Vec<u8> {
        (0..self.len())
            .map(|i| match i {
                0 => 0,
                _ if self.lines[i] != self.lines[i - 1] => sep::NEWLINE,
                _ if self.glued[i] => sep::GLUE,
                _ => sep::SPACE,
            })
            .collect()
    }
    /// Renders kept units (indices in increasing order): a space between units on one line, a
    /// newline where a block boundary lies between them, nothing between neighbouring units
    /// that are glued (parts of one word split by inline elements).
    pub fn render(&self, kept: &[u32]) -> String {
        let mut out = String::new();
        let mut prev: Option<usize> = None;
        for &k in kept {
            let k = k as usize;
            if let Some(p) = prev {
                if self.lines[p] != self.lines[k] {
                    out.push('\n');
                } else if !(k == p + 1 && self.glued[k]) {
                    out.push(' ');
                }
            }
            out.push_str(self.get(k));
            prev = Some(k);
        }
        out
    }
}

/// Which view an extractor's selection refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Canonical words of the source token stream.
    Source,
    /// Text nodes of the DOM.
    Dom,
    /// The blocks of the block view ([`segments::Segments`]), hidden text included.
    Blocks,
}

/// What an extractor keeps: unit indices of one view, in increasing order.
#[derive(Debug, Clone)]
pub struct Selection {
    /// The view the indices refer to.
    pub view: View,
    /// Kept unit indices, increasing.
    pub units: Vec<u32>,
}

impl Selection {
    /// An empty selection of `view`, to be filled by an extractor (reused across calls).
    pub fn new(view: View) -> Self {
        Selection { view, units: Vec::new() }
    }
}

/// A parsed page: both views, plus the page's language.
#[derive(Debug, Clone, Default)]
pub struct Document {
    /// The source token stream.
    pub source: Source,
    /// The flattened DOM.
    pub dom: Dom,
    /// ISO 639-1 language code, from metadata or detected from the rendered text.
    pub lang: Option<String>,
    /// The canonical words (source view) of every DOM text unit: one word space for both views.
    pub words: WordMap,
    /// Outputs computed on this page that other extractors reuse (a combination's member
    /// outputs, a route's branch outputs), bounded in bytes.
    pub memo: memo::Memo,
    /// The facts families build for themselves ([`Fact`]), by type: those of [`Needs::facts`],
    /// with what the loader gave them of the page's package.
    pub facts: Facts,
    /// The page's features (`page_features.rs`), computed once at parse time.
    pub features: std::sync::Arc<page_features::PageFeatures>,
    /// The block view: text blocks, hidden ones flagged, with their features (`segments.rs`).
    pub segments: std::sync::Arc<segments::Segments>,
    /// Which rule decoded the page's bytes (`goldset::decode::Decoding::name`; "" when the
    /// page came as text), for `goldset stats` and the dump's `languages.csv`.
    pub decoding: &'static str,
    /// Where the page came from, when the caller says: its URL, else its file path (`extract`
    /// sets it; a family applying rules learned per site picks the site by its host).
    pub origin: Option<String>,
    /// The decoded HTML as parsed (within the budgets), kept only when [`Needs::html`] asks for
    /// it: what an external extractor's worker reads.
    pub html: Option<std::sync::Arc<str>>,
    /// The page's URL, when the loader knows it (a gold set's `url`, a JSONL or WARC record's,
    /// the one the page declares in its head): sent to an external extractor's worker.
    pub url: Option<std::sync::Arc<str>>,
}

/// A URL's host part as one name: without user info and port, lower-cased, without `www.`
/// (what `host_of`, `goldset from-feed`'s URL keys and wrapper files compare).
pub fn norm_host(host: &str) -> String {
    let h = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let h = h.split(':').next().unwrap_or("").to_ascii_lowercase();
    h.strip_prefix("www.").unwrap_or(&h).to_string()
}

impl Document {
    /// Parses a decoded page (line endings already normalised) into both views and detects
    /// its language, within the default budgets; what they cut is not reported (see
    /// [`Document::parse_limited`]).
    pub fn parse(html: &str) -> Document {
        Document::parse_limited(html, &Limits::default()).0
    }

    /// Parses a decoded page within the budgets of `limits`, with a note for each budget that
    /// cut something: every view and fact ([`Needs::ALL`]; see [`Document::parse_for`]).
    pub fn parse_limited(html: &str, limits: &Limits) -> (Document, Vec<String>) {
        Document::parse_for(html, limits, Needs::ALL)
    }

    /// Parses a decoded page within the budgets of `limits`, building only the views and facts
    /// of `needs` (completed by [`Needs::complete`]); the others stay empty. The parse-time
    /// budget covers both views: what is left of it when the source view is built bounds the
    /// DOM parse.
    pub fn parse_for(html: &str, limits: &Limits, needs: Needs) -> (Document, Vec<String>) {
        Document::parse_each(html, limits, &[needs]).pop().expect("one needs, one document")
    }

    /// The documents [`Document::parse_for`] builds for each of `needs`, from one budget
    /// pre-scan, one source scan and one HTML tree of the page (how a check compares several
    /// needs on one page without parsing it again for each).
    pub fn parse_each(html: &str, limits: &Limits, needs: &[Needs]) -> Vec<(Document, Vec<String>)> {
        let any = needs.iter().fold(Needs::NONE, |a, n| a | n.complete());
        let deadline = std::time::Instant::now().checked_add(limits.max_parse);
        let (html, notes) = budget::apply(html, limits);
        let mut source = if any.source { scan::scan_with(&html, any.source_index) } else { Source::default() };
        let (tree, cut) = match any.dom {
            true => {
                let (t, cut) = parse::tree(&html, deadline);
                (Some(t), cut)
            }
            false => (None, None),
        };
        let mut out = Vec::with_capacity(needs.len());
        for (i, n) in needs.iter().enumerate() {
            let src = if i + 1 == needs.len() { std::mem::take(&mut source) } else { source.clone() };
            out.push(Document::assemble(&html, src, tree.as_ref(), cut, n.complete(), notes.clone(), limits));
        }
        out
    }

    /// A document of the needs `needs` (completed) from a page's parts: the page within its
    /// budgets, its source view, its tree (when some needs read the DOM) and where the
    /// parse-time budget cut it.
    fn assemble(
        html: &str,
        source: Source,
        tree: Option<&parse::Tree>,
        cut: Option<usize>,
        needs: Needs,
        mut notes: Vec<String>,
        limits: &Limits,
    ) -> (Document, Vec<String>) {
        let mut source = if needs.source { source } else { Source::default() };
        if !needs.source_index {
            (source.lines, source.index) = Default::default();
        }
        let (mut dom, segments, walked, cut) = match tree {
            Some(t) if needs.dom => {
                let (dom, segments, walked) = parse::views(t, needs);
                (dom, segments, walked, cut)
            }
            _ => (Dom::default(), Default::default(), Vec::new(), None),
        };
        let segments = std::sync::Arc::new(segments);
        if let Some(at) = cut {
            notes.push(format!(
                "parsing took longer than {:.1} s (the parse-time budget): the DOM view holds only the first {at} bytes",
                limits.max_parse.as_secs_f64()
            ));
        }
        let lang = if needs.lang { lang::detect_language(&dom) } else { None };
        let words = if needs.words { WordMap::build(&dom.texts, &source.words) } else { WordMap::default() };
        // A page in a corpus lives as long as the run: give back what the buffers grew beyond
        // their contents (up to half of each).
        source.tokens.shrink_to_fit();
        source.words.shrink_to_fit();
        dom.nodes.shrink_to_fit();
        dom.texts.shrink_to_fit();
        dom.info.shrink_to_fit();
        let features = std::sync::Arc::new(if needs.features {
            page_features::compute(&dom, source.words.len(), html)
        } else {
            Default::default()
        });
        let mut doc = Document {
            html: needs.html.then(|| std::sync::Arc::from(&*html)),
            url: None,
            source,
            dom,
            lang,
            words,
            memo: memo::Memo::default(),
            facts: Facts::default(),
            features,
            segments,
            decoding: "",
            origin: None,
        };
        walked.into_iter().for_each(|value| doc.facts.insert_shared(value));
        for f in needs.facts.iter() {
            if let facts::Build::After(build) = f.build {
                let value = build(&doc);
                doc.facts.insert_shared(value);
                if f.reads.complete().lang {
                    doc.facts.reads_lang(f);
                }
            }
        }
        (doc, notes)
    }

    /// Sets the page language (metadata wins over detection) and builds again what depends on
    /// it: the facts built after the walk that read the language ([`Fact::reads`]). (The
    /// loader sets it before it gives a page its package's parts.)
    pub fn set_lang(&mut self, lang: Option<String>) {
        self.lang = lang;
        for f in self.facts.lang_readers() {
            if let facts::Build::After(build) = f.build {
                let value = build(self);
                self.facts.insert_shared(value);
            }
        }
    }

    /// The keep-mask of a selection over the canonical words (`algorithms.md` §0.3): one flag
    /// per source-view word, whatever the selection's view.
    pub fn mask(&self, sel: &Selection) -> Vec<bool> {
        let mut mask = Vec::new();
        self.mask_into(sel, &mut mask);
        mask
    }

    /// [`Document::mask`] into a reused buffer.
    pub fn mask_into(&self, sel: &Selection, mask: &mut Vec<bool>) {
        mask.clear();
        mask.resize(self.source.words.len(), false);
        match sel.view {
            View::Source => sel.units.iter().for_each(|&u| mask[u as usize] = true),
            View::Dom => {
                for &u in &sel.units {
                    self.words.words_of(u as usize).iter().for_each(|&w| mask[w as usize] = true);
                }
            }
            // Hidden blocks hold no canonical word: a mask cannot keep them.
            View::Blocks => {
                for &b in &sel.units {
                    self.block_words(b as usize).for_each(|w| mask[w as usize] = true);
                }
            }
        }
    }

    /// The canonical words of block `b` of the block view, in order (none for a hidden block).
    pub fn block_words(&self, b: usize) -> impl Iterator<Item = u32> + '_ {
        self.segments.dom_units(b).iter().flat_map(|&u| self.words.words_of(u as usize).iter().copied())
    }

    /// The source-view selection of the words a mask keeps (how combined masks are rendered and
    /// scored).
    pub fn select_words(&self, mask: &[bool], sel: &mut Selection) {
        sel.view = View::Source;
        sel.units.clear();
        sel.units.extend(mask.iter().enumerate().filter(|(_, k)| **k).map(|(i, _)| i as u32));
    }

    /// The page reduced to the canonical words `keep` (one flag per canonical word), markup
    /// intact: the words not kept are gone from both views (a source word token is removed; a DOM
    /// text unit keeps only its kept words, and may become empty), every tag and element stays.
    /// This is what the next member of a serial pipeline sees. Returns the reduced page (id 0:
    /// not cached) and, for each of its canonical words, the original word's index.
    pub fn reduced(&self, keep: &[bool]) -> (Document, Vec<u32>) {
        let kept = |w: usize| keep.get(w).copied().unwrap_or(false);
        let old = &self.source.words;
        let mut new_index = vec![u32::MAX; old.len()];
        let mut back = Vec::new();
        let mut words = Units::default();
        let mut tokens = Vec::with_capacity(self.source.tokens.len());
        let mut lines = Vec::with_capacity(self.source.tokens.len());
        let mut body_start = 0;
        let mut prev_line = None;
        for (i, t) in self.source.tokens.iter().enumerate() {
            if i == self.source.body_start {
                body_start = tokens.len();
            }
            if t.kind == Kind::Word {
                let w = t.word as usize;
                if !kept(w) {
                    continue;
                }
                if back.last() == Some(&(w as u32)) {
                    // A later piece of a word split by inline tags: the same canonical word.
                    tokens.push(SrcToken { word: new_index[w], ..*t });
                    lines.push(self.source.lines.get(i).copied().unwrap_or(0));
                    continue;
                }
                let line = old.line(w);
                let sep = if prev_line.is_some_and(|l| l != line) { sep::NEWLINE } else { sep::SPACE };
                prev_line = Some(line);
                let k = words.push(old.get(w), sep);
                new_index[w] = k;
                back.push(w as u32);
                tokens.push(SrcToken { word: k, ..*t });
            } else {
                tokens.push(*t);
            }
            lines.push(self.source.lines.get(i).copied().unwrap_or(0));
        }
        if self.source.body_start >= self.source.tokens.len() {
            body_start = tokens.len();
        }
        let mut source = Source { tokens, words, body_start, lines, index: Default::default() };
        source.build_index();
        let mut texts = Units::default();
        let mut info = self.dom.info.clone();
        let mut prev_line = None;
        for u in 0..self.dom.texts.len() {
            let mapped = self.words.words_of(u);
            let whole = mapped.iter().all(|&w| kept(w as usize));
            let text = if whole {
                self.dom.texts.get(u).to_string()
            } else {
                mapped.iter().filter(|&&w| kept(w as usize)).map(|&w| old.get(w as usize)).collect::<Vec<_>>().join(" ")
            };
            let line = self.dom.texts.line(u);
            let sep = if prev_line.is_some_and(|l| l != line) {
                sep::NEWLINE
            } else if whole && self.dom.texts.glued(u) {
                sep::GLUE
            } else {
                sep::SPACE
            };
            prev_line = Some(line);
            if let Some(i) = info.get_mut(u) {
                i.chars = text.chars().filter(|c| !c.is_whitespace()).count() as u32;
            }
            texts.push(&text, sep);
        }
        // The families' facts are the full page's (not recounted on the reduced text): a member
        // after another one sees them.
        let dom =
            Dom { nodes: self.dom.nodes.clone(), texts, info, body: self.dom.body, markup: self.dom.markup.clone() };
        let words = self.words.restricted(&new_index);
        (
            Document {
                source,
                dom,
                lang: self.lang.clone(),
                words,
                // A transient page (a serial member's input): nothing to reuse.
                memo: memo::Memo::with_limit(0),
                facts: self.facts.clone(),
                features: self.features.clone(),
                segments: self.segments.clone(),
                decoding: self.decoding,
                origin: self.origin.clone(),
                // The reduced page has no HTML of its own (an external member reads none).
                html: None,
                url: self.url.clone(),
            },
            back,
        )
    }

    /// The page re-serialised for display with each DOM text unit wrapped in a `<span
    /// data-u="K">` (plus the attributes `wrap(K)` returns), within the same budgets as
    /// [`Document::parse_limited`], so that K is the unit of this page's [`Dom::texts`].
    pub fn marked_html(html: &str, limits: &Limits, wrap: &dyn Fn(u32) -> String) -> String {
        let (html, _) = budget::apply(html, limits);
        parse::marked(&html, wrap)
    }

    /// The units of a view.
    pub fn units(&self, view: View) -> &Units {
        match view {
            View::Source => &self.source.words,
            View::Dom => &self.dom.texts,
            View::Blocks => &self.segments.texts,
        }
    }

    /// The text a selection stands for.
    pub fn render(&self, sel: &Selection) -> String {
        self.units(sel.view).render(&sel.units)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reduced_page_keeps_the_markup_and_only_the_kept_words() {
        let doc = Document::parse("<body><p>one <a href=/x>two</a> three</p><div>four five</div></body>");
        let keep = [true, false, true, false, true];
        let (r, back) = doc.reduced(&keep);
        assert_eq!(back, [0, 2, 4]);
        let all = Selection { view: View::Source, units: (0..r.source.words.len() as u32).collect() };
        assert_eq!(r.render(&all), "one three\nfive");
        assert_eq!(r.dom.nodes.len(), doc.dom.nodes.len(), "markup intact");
        let tags = |d: &Document| d.source.tokens.iter().filter(|t| t.kind != Kind::Word).count();
        assert_eq!(tags(&r), tags(&doc));
        // The DOM view: the link's text is gone, and its unit maps to no word.
        let dom_all = Selection { view: View::Dom, units: (0..r.dom.texts.len() as u32).collect() };
        assert_eq!(r.mask(&dom_all), [true, true, true]);
        let link = (0..r.dom.texts.len()).find(|&u| r.dom.info[u].in_href).unwrap();
        assert_eq!((r.dom.texts.get(link), r.dom.info[link].chars), ("", 0));
    }

    #[test]
    fn both_views_render_words_as_a_browser_does() {
        let doc = Document::parse(
            "<p>Download (<a href=x>PDF</a>), <b>bold</b>word, <i>it</i>alic.</p><p><span class=dropcap>T</span>he <em>end</em></p>",
        );
        let want = "Download (PDF), boldword, italic.\nThe end";
        let dom = Selection { view: View::Dom, units: (0..doc.dom.texts.len() as u32).collect() };
        let src = Selection { view: View::Source, units: (0..doc.source.words.len() as u32).collect() };
        assert_eq!((doc.render(&dom).as_str(), doc.render(&src).as_str()), (want, want));
        // The DOM pieces of a split word map to the one canonical word.
        assert_eq!(doc.mask(&dom), vec![true; 6]);
        let b = (0..doc.dom.texts.len()).find(|&u| doc.dom.texts.get(u) == "bold").unwrap();
        assert_eq!(doc.words.words_of(b), doc.words.words_of(b + 1));
    }

    #[test]
    fn render_puts_newlines_at_block_boundaries_only() {
        let mut u = Units::default();
        for (s, sep) in [("a", 0), ("b", sep::SPACE), ("c", sep::NEWLINE), ("d", sep::SPACE)] {
            u.push(s, sep);
        }
        assert_eq!(u.render(&[0, 1, 2, 3]), "a b\nc d");
        assert_eq!(u.render(&[0, 3]), "a\nd");
        assert_eq!(u.render(&[]), "");
    }
}
