//! `feedwrapper`'s parameter-free facts of a page (`blogs.md` §13.3–§13.4, §13.8): the body's
//! elements with rendered text (candidates) with their filter triples (`classes` and `ids`
//! chains, absolute path), and the similarity of every candidate to the page's own feed values
//! (title, author, date, content), kept when it could pass the lowest threshold of the
//! parameter ranges. An individual then only filters these by its thresholds.
//!
//! [`FACT`] declares them: the one DOM walk feeds each element's id, class and position to a
//! visitor, which gives the page its candidates ([`PageFacts`] without values); its package
//! hook gives every page of the package (and the set's pages kept for learning only) its facts
//! with its own feed values, read from its gold record, and gives each page those of the others
//! ([`Training`], in id order).
//!
//! Imports from the crate: `document`, `eval` (the date renderings), `goldset` (a document's
//! feed fields) and `limits`.

use super::rules::{Window, dice, jaro_winkler, lcs_len, normalise};
use crate::document::facts::{Build, Fact, Order, Package, Shared, Visitor};
use crate::document::parse::{Dom, NONE};
use crate::document::{Document, Needs};
use std::sync::Arc;

/// Scores below this are not kept (the lowest `theta_*` of the parameter ranges).
pub const MIN_SCORE: f32 = 0.3;
/// The widest date slack kept (characters).
pub const MAX_SLACK: usize = 100;
/// Words of the feed content the `word_prefix` matcher reads (`content_words`).
pub const CONTENT_WORDS: usize = 30;
/// Words of a candidate it reads.
pub const CANDIDATE_WORDS: usize = 40;
/// Characters the `jw_prefix` matcher reads (`content_prefix`).
pub const CONTENT_PREFIX: usize = 200;
/// Characters the `dice` matcher reads of each side.
pub const DICE_CHARS: usize = 1000;

/// The content stop-tag choices (`content_stop_tags`).
pub const STOP_TAGS: [&[&str]; 3] =
    [&["div"], &["div", "article", "section", "main"], &["div", "article", "section", "main", "td", "body"]];

/// The feed values of one page (what it is trained on).
#[derive(Debug, Clone, Default)]
pub struct Values {
    /// The `title` field.
    pub title: Option<String>,
    /// The gold text's first line (the pseudo-feed's title).
    pub gold_title: Option<String>,
    /// Author.
    pub author: Option<String>,
    /// Date, ISO 8601.
    pub date: Option<String>,
    /// The content text (the gold text).
    pub content: Option<String>,
    /// The page's language (ISO 639-1), when the set says; else it is detected from the page.
    pub lang: Option<String>,
    /// The content is a summary (a feed's, or cut by `summary_words`), not the whole post.
    pub summary: bool,
}

impl Values {
    /// The values of a gold document: its fields and, as the content, its feed summary when
    /// `goldset from-feed` kept one (the feed's text, not the gold, is what a wrapper learns
    /// from), else its gold text.
    /// With `summary_words` > 0 the content is cut to its first that many words (a simulated
    /// summary feed, `feedwrapper`'s `summary_words`).
    ///
    /// A gold text that is not a feed's (a pseudo-feed: no `feed` record) usually opens with the
    /// page's title, which a feed keeps apart from the content: a first line that is the title
    /// field, or, without one, of at most [`TITLE_WORDS`] words, is the pseudo-feed's title and
    /// not part of its content (so the content rule finds the body, not the article around it).
    pub fn of(d: &crate::goldset::GoldDoc, summary_words: usize) -> Values {
        let summary = d.fields.feed.as_ref().and_then(|f| f.summary.as_deref()).filter(|s| !s.trim().is_empty());
        let gold = summary.unwrap_or(&d.gold).trim();
        let gold_title = gold.lines().map(str::trim).find(|l| !l.is_empty()).map(String::from);
        let gold = match (&gold_title, gold.split_once('\n')) {
            (Some(first), Some((_, rest))) if d.fields.feed.is_none() && !rest.trim().is_empty() => {
                let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
                let is_title = match &d.fields.title {
                    Some(t) => words(t).eq_ignore_ascii_case(&words(first)),
                    None => first.split_whitespace().count() <= TITLE_WORDS,
                };
                if is_title { rest.trim() } else { gold }
            }
            _ => gold,
        };
        let cut;
        let is_cut = summary_words > 0 && gold.split_whitespace().nth(summary_words).is_some();
        let gold = if is_cut {
            cut = cut_words(gold, summary_words);
            cut.as_str()
        } else {
            gold
        };
        Values {
            summary: summary.is_some() || is_cut,
            lang: d.lang.clone(),
            title: d.fields.title.clone(),
            gold_title,
            author: d.fields.author.clone(),
            date: d.fields.get("date").map(String::from),
            content: (!gold.is_empty()).then(|| gold.to_string()),
        }
    }
}

/// Words of a gold text's first line at most, for it to count as the page's title when the
/// document has no title field.
pub const TITLE_WORDS: usize = 25;

/// The first `n` words of `text`, its line breaks kept.
fn cut_words(text: &str, n: usize) -> String {
    let mut seen = 0;
    let mut out = String::new();
    for line in text.lines() {
        if seen >= n {
            break;
        }
        let words: Vec<&str> = line.split_whitespace().take(n - seen).collect();
        seen += words.len();
        if !words.is_empty() {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&words.join(" "));
        }
    }
    out
}

/// FNV-1a of a string (0 is kept for null): how filter values are compared.
pub fn hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h.max(1)
}

/// The text of node `i`'s subtree, rendered, cut after about `max` bytes.
fn text_prefix(dom: &Dom, i: usize, max: usize) -> String {
    let mut out = String::new();
    let mut prev: Option<u32> = None;
    for u in dom.units_in(i) {
        if let Some(p) = prev {
            out.push(if dom.texts.line(p as usize) != dom.texts.line(u as usize) { '\n' } else { ' ' });
        }
        out.push_str(dom.texts.get(u as usize));
        prev = Some(u);
        if out.len() >= max {
            break;
        }
    }
    out
}

/// Non-space characters of each node's subtree (`cum[end] - cum[node]`).
fn char_sums(dom: &Dom) -> Vec<u32> {
    let mut cum = vec![0u32; dom.nodes.len() + 1];
    for (k, node) in dom.nodes.iter().enumerate() {
        let c = if node.is_text() { dom.info[node.text as usize].chars } else { 0 };
        cum[k + 1] = cum[k] + c;
    }
    cum
}

/// Computes a page's facts from its flattened DOM and attributes (as [`ATTRS`] reads them) and
/// its feed values; `keep_names` keeps the filter values' text (for `wrapper learn`).
pub fn compute(dom: &Dom, attrs: &[NodeAttrs], v: &Values, keep_names: bool) -> PageFacts {
    if attrs.len() != dom.nodes.len() || dom.nodes.is_empty() {
        return PageFacts { nodes: dom.nodes.len() as u32, ..PageFacts::default() };
    }
    with_values(dom, candidates(dom, attrs, keep_names), v)
}

/// A page's candidates (its facts without feed values: what the page's own extraction reads)
/// from its flattened DOM and attributes; `keep_names` keeps the filter values' text.
pub fn candidates(dom: &Dom, attrs: &[NodeAttrs], keep_names: bool) -> PageFacts {
    let n = dom.nodes.len();
    let mut f = PageFacts { nodes: n as u32, ..PageFacts::default() };
    if attrs.len() != n || n == 0 {
        return f;
    }
    let cum = char_sums(dom);
    let chars = |i: usize| cum[dom.nodes[i].end as usize] - cum[i];
    let mut bottom = vec![true; n];
    for (k, node) in dom.nodes.iter().enumerate() {
        if !node.is_text() && node.parent != NONE && chars(k) == chars(node.parent as usize) {
            bottom[node.parent as usize] = false;
        }
    }
    // Paths from the root.
    let mut paths: Vec<String> = vec![String::new(); n];
    let body = dom.body as usize;
    let body_end = if body == 0 { n } else { dom.nodes[body].end as usize };
    let mut names: std::collections::HashMap<u64, String> = Default::default();
    for k in 1..n {
        let node = dom.nodes[k];
        if node.is_text() {
            continue;
        }
        let parent = if node.parent == NONE { String::new() } else { paths[node.parent as usize].clone() };
        paths[k] = format!("{parent}/{}[{}]", node.tag.name(), attrs[k].position);
        if k < body || k >= body_end || chars(k) == 0 {
            continue;
        }
        // ids and classes of the element, then of its ancestors while they hold the same text.
        let (mut ids, mut classes): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
        let mut a = k;
        loop {
            let at = &attrs[a];
            if !at.id.trim().is_empty() {
                ids.push(at.id.trim());
            }
            for c in at.class.split_whitespace() {
                if !classes.contains(&c) {
                    classes.push(c);
                }
            }
            let p = dom.nodes[a].parent;
            if p == NONE || p as usize == 0 || chars(p as usize) != chars(k) {
                break;
            }
            a = p as usize;
        }
        let mut triple = [0u64; 3];
        for (slot, s) in [(0, classes.join(",")), (1, ids.join(",")), (2, paths[k].clone())] {
            if !s.is_empty() {
                triple[slot] = hash(&s);
                if keep_names {
                    names.insert(triple[slot], s);
                }
            }
        }
        f.cands.push(Cand { node: k as u32, end: node.end, bottom: bottom[k], triple });
    }
    f.names = names.into_iter().collect();
    f.names.sort_unstable();
    f
}

/// A page's facts with its feed values matched against its candidates (`f`, from
/// [`candidates`] on the same DOM).
pub fn with_values(dom: &Dom, mut f: PageFacts, v: &Values) -> PageFacts {
    let n = dom.nodes.len();
    if n == 0 {
        return f;
    }
    let cum = char_sums(dom);
    let chars = |i: usize| cum[dom.nodes[i].end as usize] - cum[i];
    let body = dom.body as usize;
    let mut cand_of = vec![NONE; n];
    for (c, cand) in f.cands.iter().enumerate() {
        cand_of[cand.node as usize] = c as u32;
    }
    f.has = [
        v.title.as_deref().is_some_and(|t| !t.trim().is_empty()),
        v.gold_title.is_some(),
        v.author.as_deref().is_some_and(|t| !t.trim().is_empty()),
        v.date.is_some(),
        v.content.is_some(),
    ];
    let short = |value: &str, out: &mut Vec<Match>| {
        let value = normalise(value);
        if value.is_empty() {
            return;
        }
        let max = 3 * value.chars().count() + 20;
        for (c, cand) in f.cands.iter().enumerate().filter(|(_, c)| c.bottom) {
            if chars(cand.node as usize) as usize > max {
                continue;
            }
            let t = normalise(&text_prefix(dom, cand.node as usize, 4 * max));
            if t.chars().count() > max {
                continue;
            }
            let s = if t == value { 1.0 } else { jaro_winkler(&value, &t, Window::Standard) as f32 };
            if s >= MIN_SCORE {
                out.push(Match { cand: c as u32, score: s });
            }
        }
    };
    let mut title = [Vec::new(), Vec::new()];
    if let Some(t) = &v.title {
        short(t, &mut title[0]);
    }
    if let Some(t) = &v.gold_title {
        short(t, &mut title[1]);
    }
    let mut author = Vec::new();
    if let Some(a) = &v.author {
        short(a, &mut author);
    }
    // Dates: English and numeric renderings (the paper's), and apart those in the page's
    // language (`date_locales: en+page`).
    let (mut date, mut date_page) = (Vec::new(), Vec::new());
    if let Some(d) = v.date.as_deref().and_then(ymd) {
        let mut en = crate::eval::date::renderings_in(d.0, d.1, d.2, "en");
        en.extend(crate::eval::date::numeric(d.0, d.1, d.2));
        let lang = v.lang.clone().or_else(|| crate::document::lang::detect_language(dom));
        let page = lang.filter(|l| l != "en").map(|l| crate::eval::date::renderings_in(d.0, d.1, d.2, &l));
        for (renderings, out) in [(en, &mut date), (page.unwrap_or_default(), &mut date_page)] {
            let longest = renderings.iter().map(String::len).max().unwrap_or(0);
            if longest == 0 {
                continue;
            }
            for (c, cand) in f.cands.iter().enumerate().filter(|(_, c)| c.bottom) {
                if chars(cand.node as usize) as usize > longest + MAX_SLACK {
                    continue;
                }
                let t = normalise(&text_prefix(dom, cand.node as usize, 4 * (longest + MAX_SLACK)));
                let slack = renderings.iter().filter(|r| t.contains(r.as_str())).map(|r| t.len() - r.len()).min();
                if let Some(s) = slack.filter(|&s| s <= MAX_SLACK) {
                    out.push(Match { cand: c as u32, score: s as f32 });
                }
            }
        }
    }
    let mut content = Vec::new();
    if let Some(text) = &v.content {
        let value = normalise(text);
        // Word pairs of each subtree, and those of them that the content holds: how well an
        // ancestor's text covers the whole content (the `cover` extension). Pairs, not words:
        // a teaser of another post shares the content's common words, not its word pairs.
        let vw_all: Vec<&str> = value.split_whitespace().collect();
        let pairs: std::collections::HashSet<(&str, &str)> = vw_all.windows(2).map(|w| (w[0], w[1])).collect();
        let vocab: std::collections::HashSet<&str> = vw_all.iter().copied().collect();
        let vwords = pairs.len().max(1) as f32;
        let (mut all, mut hit) = (vec![0u32; n + 1], vec![0u32; n + 1]);
        for (k, node) in dom.nodes.iter().enumerate() {
            let (mut a, mut h) = (0, 0);
            if node.is_text() && !v.summary {
                let t = normalise(dom.texts.get(node.text as usize));
                let words: Vec<&str> = t.split_whitespace().collect();
                if words.len() == 1 {
                    (a, h) = (1, u32::from(vocab.contains(words[0])));
                }
                for w in words.windows(2) {
                    a += 1;
                    h += u32::from(pairs.contains(&(w[0], w[1])));
                }
            }
            all[k + 1] = all[k] + a;
            hit[k + 1] = hit[k] + h;
        }
        let cover_f1 = |i: usize| {
            let end = dom.nodes[i].end as usize;
            let (a, h) = ((all[end] - all[i]) as f32, (hit[end] - hit[i]) as f32);
            if h == 0.0 {
                return 0.0;
            }
            let (p, r) = (h / a, h.min(vwords) / vwords);
            2.0 * p * r / (p + r)
        };
        let vw: Vec<&str> = value.split_whitespace().take(CONTENT_WORDS).collect();
        let vprefix: String = value.chars().take(CONTENT_PREFIX).collect();
        let vdice: String = value.chars().take(DICE_CHARS).collect();
        // `passage`: the content's word 4-grams (hashed), for "the candidate opens with a
        // passage of the content, wherever it is".
        let grams: std::collections::HashSet<u64> = vw_all.windows(4).map(|w| hash(&w.join(" "))).collect();
        for (c, cand) in f.cands.iter().enumerate().filter(|(_, c)| c.bottom) {
            let t = normalise(&text_prefix(dom, cand.node as usize, DICE_CHARS + 200));
            let tw: Vec<&str> = t.split_whitespace().take(CANDIDATE_WORDS).collect();
            let word = lcs_len(&vw, &tw) as f32 / vw.len().max(1) as f32;
            let opening: Vec<u64> = tw
                .iter()
                .take(CONTENT_WORDS)
                .copied()
                .collect::<Vec<_>>()
                .windows(4)
                .map(|w| hash(&w.join(" ")))
                .collect();
            // Held in full only by a candidate of at least `content_words` words, as `word_prefix`.
            let passage = opening.iter().filter(|g| grams.contains(g)).count() as f32 / (CONTENT_WORDS - 3) as f32;
            let tprefix: String = t.chars().take(CONTENT_PREFIX).collect();
            let jw = jaro_winkler(&vprefix, &tprefix, Window::Standard) as f32;
            let tdice: String = t.chars().take(DICE_CHARS).collect();
            let di = dice(&vdice, &tdice) as f32;
            if word.max(jw).max(di).max(passage) < MIN_SCORE {
                continue;
            }
            let stop = STOP_TAGS.map(|stops| {
                let mut a = cand.node as usize;
                loop {
                    if stops.contains(&dom.nodes[a].tag.name()) && cand_of[a] != NONE {
                        return cand_of[a];
                    }
                    let p = dom.nodes[a].parent;
                    if p == NONE || p as usize == 0 {
                        return c as u32;
                    }
                    a = p as usize;
                }
            });
            // `cover`: the ancestor-or-self (up to the body) whose text best covers the whole
            // content; a summary covers nothing whole, so it extends to the stop tags.
            let cover = if v.summary {
                stop[2]
            } else {
                let (mut a, mut best) = (cand.node as usize, (cover_f1(cand.node as usize), c as u32));
                while a != body && dom.nodes[a].parent != NONE && dom.nodes[a].parent != 0 {
                    a = dom.nodes[a].parent as usize;
                    let f = cover_f1(a);
                    if cand_of[a] != NONE && f > best.0 {
                        best = (f, cand_of[a]);
                    }
                }
                best.1
            };
            let ext = [stop[0], stop[1], stop[2], cover];
            content.push(ContentMatch { cand: c as u32, scores: [word, jw, di, passage], words: tw.len() as u32, ext });
        }
    }
    (f.title, f.author, f.date, f.date_page, f.content) = (title, author, date, date_page, content);
    f
}

/// Year, month and day of an ISO 8601 date.
fn ymd(iso: &str) -> Option<(i32, u32, u32)> {
    let y = iso.get(0..4)?.parse().ok()?;
    let m = iso.get(5..7)?.parse().ok()?;
    let d = iso.get(8..10)?.parse().ok()?;
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then_some((y, m, d))
}

/// An element's attributes as the wrapper reads them (`blogs.md` §13.4).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeAttrs {
    /// The `id` value ("" when none; text nodes have none).
    pub id: String,
    /// The `class` value as written.
    pub class: String,
    /// 0-based position among the element children of its parent in the parsed tree (hidden
    /// elements counted), as in the paper's paths.
    pub position: u32,
}

/// Each flattened node's attributes, as the walk sees them ([`ATTRS`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageAttrs(pub Vec<NodeAttrs>);

/// Collects each flattened node's attributes during the DOM walk.
struct Collect(Vec<NodeAttrs>, fn(Vec<NodeAttrs>, &Dom) -> Shared);

impl Visitor for Collect {
    fn element<'a>(&mut self, _: &str, position: u32, attrs: &mut dyn Iterator<Item = (&'a str, &'a str)>) {
        let (mut id, mut class) = (None, None);
        for (k, v) in attrs {
            match k {
                "id" if id.is_none() => id = Some(v),
                "class" if class.is_none() => class = Some(v),
                _ => {}
            }
        }
        let (id, class) = (id.unwrap_or("").to_string(), class.unwrap_or("").to_string());
        self.0.push(NodeAttrs { id, class, position });
    }
    fn other(&mut self) {
        self.0.push(NodeAttrs::default());
    }
    fn finish(self: Box<Self>, dom: &Dom) -> Shared {
        (self.1)(self.0, dom)
    }
}

/// The page's attributes as the wrapper reads them (`wrapper learn` writes selectors from them).
pub static ATTRS: Fact = Fact {
    name: "wrapper_attrs",
    reads: Needs::DOM,
    build: Build::Walk(|| Box::new(Collect(Vec::new(), |a, _| Arc::new(PageAttrs(a))))),
    package: None,
};

/// The page's candidates ([`PageFacts`] without feed values, built from the attributes the walk
/// sees, which it then lets go), and for the pages of its package, each one's facts with its own
/// feed values ([`Training`]): what the family reads.
pub static FACT: Fact = Fact {
    name: "wrapper",
    reads: Needs::DOM,
    build: Build::Walk(|| Box::new(Collect(Vec::new(), |a, dom| Arc::new(candidates(dom, &a, false))))),
    package: Some(Package { most: usize::MAX, order: Order::Id, trainers: true, part, attach }),
};

/// The facts of the other pages of a page's package (its training pages), in id order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Training(pub Vec<Arc<PageFacts>>);

/// A page's part for the other pages of its package: its facts with its feed values (read from
/// its gold record, the content cut to `summary_words` words).
fn part(doc: &Document, gold: &dyn std::any::Any, summary_words: u32) -> Option<Shared> {
    let d = gold.downcast_ref::<crate::goldset::GoldDoc>()?;
    let own = doc.facts.get::<PageFacts>()?;
    let v = Values::of(d, summary_words as usize);
    Some(Arc::new(with_values(&doc.dom, own.clone(), &v)))
}

/// Gives a page the facts of its training pages.
fn attach(doc: &mut Document, parts: &[&Shared]) {
    let train = parts.iter().filter_map(|p| Arc::downcast::<PageFacts>(Arc::clone(p)).ok()).collect();
    doc.facts.insert(Training(train));
}

/// A page's facts from its parsed document, which must have been parsed with [`ATTRS`] (else
/// empty facts).
pub fn of_document(doc: &Document, v: &Values, keep_names: bool) -> PageFacts {
    match doc.facts.get::<PageAttrs>() {
        Some(a) => compute(&doc.dom, &a.0, v, keep_names),
        None => PageFacts { nodes: doc.dom.nodes.len() as u32, ..PageFacts::default() },
    }
}

/// A page's facts from its HTML, within the budgets of `limits`: one parse of the DOM view, with
/// the attributes kept (the same parse as the page's `Document`, so node numbers agree).
pub fn of_html(html: &str, limits: &crate::limits::Limits, v: &Values, keep_names: bool) -> PageFacts {
    let doc = Document::parse_for(html, limits, Needs::fact(&ATTRS)).0;
    of_document(&doc, v, keep_names)
}

/// An element of the page's body with rendered text, and its filter triple.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cand {
    /// Its index in [`Dom::nodes`](crate::document::Dom).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triples_chain_ids_and_classes_while_the_text_is_the_same() {
        let html = r#"<html><head><title>Hello there</title></head><body><div id="main"><div class="post" id="post-1"><h2 class="entry-title"><a class="t">Hello there</a></h2><span class="author vcard"><a class="url fn n">Ann Lee</a></span><div class="entry"><p>one two three</p></div></div></div></body></html>"#;
        let v = Values { title: Some("Hello there".into()), author: Some("Ann Lee".into()), ..Values::default() };
        let f = of_html(html, &Default::default(), &v, true);
        let name = |h: u64| f.names.iter().find(|(k, _)| *k == h).map(|(_, s)| s.as_str());
        let exact: Vec<&Match> = f.title[0].iter().filter(|m| m.score >= 1.0).collect();
        assert_eq!(exact.len(), 1, "<title> is not a candidate, and only the deepest holder is");
        let t = f.cands[exact[0].cand as usize];
        assert_eq!(name(t.triple[0]), Some("t,entry-title"));
        assert_eq!(name(t.triple[1]), None);
        assert_eq!(name(t.triple[2]), Some("/html[0]/body[1]/div[0]/div[0]/h2[0]/a[0]"));
        let a = f.author.iter().find(|m| m.score >= 1.0).unwrap();
        assert_eq!(name(f.cands[a.cand as usize].triple[0]), Some("url,fn,n,author,vcard"), "Table 7's chain");
    }
}
