//! readability-lxml's view of a page, computed once at parse time (the scorer only does
//! arithmetic over it). From each element's `class` and `id` come the name-pattern facts
//! readability-lxml 0.9 tests (positive, negative, unlikely-but-not-maybe candidate, itemprop
//! `articleBody`); from the flattened DOM, for both of its passes (ruthless: unlikely candidates
//! removed; lenient: kept), the tree its scorer sees after "misused" `div`s became paragraphs:
//! a `div` without block-ish descendants is a `p`, and in every other `div` the loose text and
//! runs of inline children between `<br>`s and blocks are wrapped in new `p`s. Each node of that
//! tree has its subtree's text length, link length, commas and element counts as prefix sums.
//!
//! [`FACT`] declares it: the one DOM walk feeds each element's name and attributes to a
//! visitor ([`Walk`]), which records their facts ([`RdDom`]) and, once the walk is over,
//! builds both passes' trees from them and the flattened DOM ([`Tree`]).

use crate::document::facts::{Build, Fact, Shared, Visitor};
use crate::document::parse::NONE;
use crate::document::{Dom, Needs, Tag};
use std::sync::Arc;

/// readability's fact: the transformed tree of both passes and the class names it reads.
pub static FACT: Fact =
    Fact { name: "readability", reads: Needs::DOM, build: Build::Walk(|| Box::new(Walk::default())), package: None };

/// Builds [`Tree`]: the attribute facts of each flattened node inside the walk, the trees after.
#[derive(Default)]
struct Walk(RdDom);

impl Visitor for Walk {
    fn element<'a>(&mut self, name: &str, _: u32, attrs: &mut dyn Iterator<Item = (&'a str, &'a str)>) {
        // html5ever's HTML names are lower case already (SVG's may not be).
        match name.bytes().any(|b| b.is_ascii_uppercase()) {
            true => self.0.push(&name.to_ascii_lowercase(), attrs),
            false => self.0.push(name, attrs),
        }
    }
    fn other(&mut self) {
        self.0.attrs.push(RdAttr::default());
    }
    fn finish(self: Box<Self>, dom: &Dom) -> Shared {
        let mut classes = self.0;
        let views = build(dom, &classes);
        classes.shrink();
        Arc::new(Tree { views, classes })
    }
}

/// `class` matches readability-lxml's `positiveRe`.
pub const CLASS_POS: u16 = 1;
/// `class` matches `negativeRe`.
pub const CLASS_NEG: u16 = 2;
/// `id` matches `positiveRe`.
pub const ID_POS: u16 = 4;
/// `id` matches `negativeRe`.
pub const ID_NEG: u16 = 8;
/// `class + " " + id` matches `unlikelyCandidatesRe` and not `okMaybeItsACandidateRe`.
const UNLIKELY: u16 = 16;
/// `pre` or `code` (an unlikely candidate inside one is kept).
const PRE_CODE: u16 = 32;
/// `main`, `article` or `math` (an unlikely candidate holding one is kept).
const KEEPS: u16 = 64;
/// The name matches `divToPElementsRe` (`<(blockquote|dl|div|img|ol|p|pre|table|ul)`, a prefix).
const BLOCKER: u16 = 128;
/// `itemprop` holds the token `articleBody`.
pub const ARTICLE_BODY: u16 = 256;
/// `class + " " + id` matches `editorialLeadRe` (`subhead`, `story-lead`, `standfirst`, `dek`,
/// `subtitle` as a separate word).
pub const EDITORIAL: u16 = 512;

/// Per-element attribute facts, recorded in the DOM walk ([`Walk`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RdAttr {
    /// The bits above.
    pub flags: u16,
    /// Its class names: `RdDom::tokens[classes.0..classes.1]` (sorted, distinct ids).
    pub classes: (u32, u32),
    /// Characters of its start and end tags as readability-lxml serialises them (its retry
    /// test measures the article's HTML).
    pub markup: u16,
}

const POSITIVE: &[&str] =
    &["article", "body", "content", "entry", "hentry", "main", "page", "pagination", "post", "text", "blog", "story"];
const NEGATIVE: &[&str] = &[
    "combx", "comment", "com-", "contact", "foot", "footer", "footnote", "masthead", "media", "meta", "outbrain",
    "promo", "related", "scroll", "shoutbox", "sidebar", "sponsor", "shopping", "tags", "tool", "widget",
];
const UNLIKELY_RE: &[&str] = &[
    "combx",
    "comment",
    "community",
    "disqus",
    "extra",
    "foot",
    "header",
    "menu",
    "remark",
    "rss",
    "shoutbox",
    "sidebar",
    "sponsor",
    "ad-break",
    "agegate",
    "pagination",
    "pager",
    "popup",
    "tweet",
    "twitter",
];
const MAYBE: &[&str] = &["and", "article", "body", "column", "content", "main", "shadow"];
const BLOCKER_PREFIX: &[&str] = &["blockquote", "dl", "div", "img", "ol", "p", "table", "ul"];

/// The attribute facts of a page's elements.
#[derive(Debug, Clone, Default)]
pub struct RdDom {
    /// One per DOM node.
    pub attrs: Vec<RdAttr>,
    /// Class-name ids of every element, in runs (`RdAttr::classes`).
    pub tokens: Vec<u32>,
    /// Per class-name id: it matches `positiveRe`.
    pub positive: Vec<bool>,
    names: std::collections::HashMap<String, u32>,
    /// The [`value_facts`] of each distinct `class` or `id` value met so far (as written): a
    /// page repeats a few class values on most of its elements.
    values: std::collections::HashMap<String, u8>,
}

impl RdDom {
    /// Drops what only [`build`] reads, once it has built the page's views: the class-name table
    /// (ids are all that is needed) and the per-node facts (the views carry them). What stays,
    /// the class-name ids and their positive flags, is what the family reads per individual,
    /// and is all a reduced page (a serial combination's next member) copies.
    pub fn shrink(&mut self) {
        self.names = Default::default();
        self.values = Default::default();
        self.attrs = Vec::new();
    }

    /// Records the facts of the next element: lower-case `name`, its attributes.
    pub fn push<'a>(&mut self, name: &str, attrs: impl Iterator<Item = (&'a str, &'a str)>) {
        let read = read_attrs(name, attrs);
        let mut a = name_facts(name, &read);
        let mut facts = |v: &str| match self.values.get(v) {
            Some(&f) => f,
            None => {
                let f = value_facts(&v.to_lowercase());
                self.values.insert(v.to_string(), f);
                f
            }
        };
        let class = facts(read.class);
        let id = if name == "body" { value_facts(BODY_ID) } else { facts(read.id) };
        a.flags |= unless_root(name, pattern_flags(class, id));
        let start = self.tokens.len();
        for t in read.class.split_whitespace() {
            let id = match self.names.get(t) {
                Some(&id) => id,
                None => {
                    let id = self.names.len() as u32;
                    self.names.insert(t.to_string(), id);
                    self.positive.push(value_facts(&t.to_lowercase()) & V_POS != 0);
                    id
                }
            };
            self.tokens.push(id);
        }
        self.tokens[start..].sort_unstable();
        let mut end = start;
        for k in start..self.tokens.len() {
            if k == start || self.tokens[k] != self.tokens[end - 1] {
                self.tokens[end] = self.tokens[k];
                end += 1;
            }
        }
        self.tokens.truncate(end);
        a.classes = (start as u32, end as u32);
        self.attrs.push(a);
    }
}

/// What one pass over an element's attributes reads: its `class` and `id` values as written
/// (the last of each, "" when absent), the `articleBody` item property and the characters of
/// its tags as readability-lxml serialises them.
struct ReadAttrs<'a> {
    class: &'a str,
    id: &'a str,
    article_body: bool,
    markup: usize,
}

fn read_attrs<'a>(name: &str, attrs: impl Iterator<Item = (&'a str, &'a str)>) -> ReadAttrs<'a> {
    let mut r = ReadAttrs { class: "", id: "", article_body: false, markup: 2 * name.len() + 5 };
    for (k, v) in attrs {
        if k.eq_ignore_ascii_case("class") {
            r.class = v;
        } else if k.eq_ignore_ascii_case("id") {
            r.id = v;
        } else if k.eq_ignore_ascii_case("itemprop") && v.split_whitespace().any(|t| t == "articleBody") {
            r.article_body = true;
        }
        let k = k.as_bytes();
        let starts = |p: &[u8]| k.len() >= p.len() && k[..p.len()].eq_ignore_ascii_case(p);
        let bad = [b"width".as_slice(), b"height", b"style"].iter().any(|w| k.eq_ignore_ascii_case(w))
            || starts(b"on")
            || starts(b"background")
            || (k.len() >= 5 && k[k.len() - 5..].eq_ignore_ascii_case(b"color"));
        if !bad {
            r.markup += k.len() + v.len() + 4;
        }
    }
    r
}

/// The `id` readability-lxml gives `body` before scoring (whatever its own).
const BODY_ID: &str = "readabilitybody";

/// The flags of the element's name and of what [`read_attrs`] read, besides the name patterns.
fn name_facts(name: &str, read: &ReadAttrs) -> RdAttr {
    let mut flags = if read.article_body { ARTICLE_BODY } else { 0 };
    if matches!(name, "pre" | "code") {
        flags |= PRE_CODE;
    }
    if matches!(name, "main" | "article" | "math") {
        flags |= KEEPS;
    }
    if BLOCKER_PREFIX.iter().any(|p| name.starts_with(p)) {
        flags |= BLOCKER;
    }
    RdAttr { flags, markup: read.markup.min(usize::from(u16::MAX)) as u16, classes: (0, 0) }
}

/// `UNLIKELY` never marks `html` or `body`.
fn unless_root(name: &str, flags: u16) -> u16 {
    if matches!(name, "html" | "body") { flags & !UNLIKELY } else { flags }
}

/// Bits of [`value_facts`]: which of readability-lxml's name patterns one lower-case `class` or
/// `id` value holds, and the two words of `story lead` at its ends.
const V_POS: u8 = 1;
const V_NEG: u8 = 2;
const V_UNLIKELY: u8 = 4;
const V_MAYBE: u8 = 8;
const V_EDITORIAL: u8 = 16;
const V_FIRST_LEAD: u8 = 32;
const V_LAST_STORY: u8 = 64;
/// It holds one of the words the editorial-lead test reads (so the words are split).
const V_WORDY: u8 = 128;
/// The words of the editorial-lead test, as substrings: a value without any holds none of them.
const WORDY: &[&str] = &["subhead", "standfirst", "dek", "subtitle", "story", "lead"];

/// A pattern's bytes and its bit.
type Pattern = (&'static [u8], u8);

/// The patterns of [`POSITIVE`], [`NEGATIVE`], [`UNLIKELY_RE`] and [`MAYBE`] by their first
/// byte, each with its bit: one pass over a value finds every list it matches.
static BY_FIRST_BYTE: std::sync::LazyLock<Vec<Vec<Pattern>>> = std::sync::LazyLock::new(|| {
    let mut t = vec![Vec::new(); 256];
    for (list, bit) in
        [(POSITIVE, V_POS), (NEGATIVE, V_NEG), (UNLIKELY_RE, V_UNLIKELY), (MAYBE, V_MAYBE), (WORDY, V_WORDY)]
    {
        for p in list {
            t[usize::from(p.as_bytes()[0])].push((p.as_bytes(), bit));
        }
    }
    t
});

/// The facts of one lower-case `class` or `id` value: the pattern lists it holds a match of
/// (as `any_in` finds them: a substring anywhere), whether one of its words (split at
/// whitespace, `_` and `-`) is an editorial-lead word or it holds `story` then `lead`, and
/// whether its first word is `lead` and its last `story` (a pair that spans `class id`).
fn value_facts(s: &str) -> u8 {
    let b = s.as_bytes();
    let mut f = 0;
    for i in 0..b.len() {
        for &(p, bit) in &BY_FIRST_BYTE[usize::from(b[i])] {
            if f & bit == 0 && b[i..].starts_with(p) {
                f |= bit;
            }
        }
    }
    if f & V_WORDY == 0 {
        return f;
    }
    let words: Vec<&str> =
        s.split(|c: char| c.is_whitespace() || c == '_' || c == '-').filter(|w| !w.is_empty()).collect();
    if words.iter().any(|w| matches!(*w, "subhead" | "standfirst" | "dek" | "subtitle" | "storylead"))
        || words.windows(2).any(|w| w == ["story", "lead"])
    {
        f |= V_EDITORIAL;
    }
    if words.first() == Some(&"lead") {
        f |= V_FIRST_LEAD;
    }
    if words.last() == Some(&"story") {
        f |= V_LAST_STORY;
    }
    f & !V_WORDY
}

/// The flags of the name patterns readability-lxml matches on `class + " " + id`, from the
/// [`value_facts`] of each (every pattern is free of spaces, so a match lies in one of the two):
/// positive and negative for each, unlikely candidate (before the `html`/`body` exception) and
/// editorial lead.
fn pattern_flags(class: u8, id: u8) -> u16 {
    let mut flags = 0;
    for (f, pos, neg) in [(class, CLASS_POS, CLASS_NEG), (id, ID_POS, ID_NEG)] {
        flags |= if f & V_POS != 0 { pos } else { 0 } | if f & V_NEG != 0 { neg } else { 0 };
    }
    let either = class | id;
    if either & V_UNLIKELY != 0 && either & V_MAYBE == 0 {
        flags |= UNLIKELY;
    }
    if either & V_EDITORIAL != 0 || (class & V_LAST_STORY != 0 && id & V_FIRST_LEAD != 0) {
        flags |= EDITORIAL;
    }
    flags
}

/// The facts of one element: lower-case `name`, its attributes.
pub fn attr_facts<'a>(name: &str, attrs: impl Iterator<Item = (&'a str, &'a str)>) -> RdAttr {
    let read = read_attrs(name, attrs);
    let mut a = name_facts(name, &read);
    let id = if name == "body" { BODY_ID.to_string() } else { read.id.to_lowercase() };
    a.flags |= unless_root(name, pattern_flags(value_facts(&read.class.to_lowercase()), value_facts(&id)));
    a
}

/// Node kinds readability-lxml tells apart (its tag tests).
pub mod kind {
    #![allow(missing_docs)]
    pub const OTHER: u8 = 0;
    pub const P: u8 = 1;
    pub const PRE: u8 = 2;
    pub const TD: u8 = 3;
    pub const BLOCKQUOTE: u8 = 4;
    pub const DIV: u8 = 5;
    pub const ARTICLE: u8 = 6;
    pub const MAIN: u8 = 7;
    pub const TABLE: u8 = 8;
    pub const UL: u8 = 9;
    pub const OL: u8 = 10;
    pub const ASIDE: u8 = 11;
    pub const HEADER: u8 = 12;
    pub const FOOTER: u8 = 13;
    pub const SECTION: u8 = 14;
    pub const H2: u8 = 15;
    pub const HEADING: u8 = 16;
    pub const FORM: u8 = 17;
    pub const TEXTAREA: u8 = 18;
    pub const LI: u8 = 19;
    pub const IMG: u8 = 20;
    pub const A: u8 = 21;
    pub const EMBED: u8 = 22;
    pub const INPUT: u8 = 23;
    pub const NAV: u8 = 24;
    pub const TH: u8 = 25;
    pub const MINUS3: u8 = 26;
    pub const BODY: u8 = 27;
}

fn kind_of(name: &str) -> u8 {
    use kind::*;
    match name {
        "p" => P,
        "pre" => PRE,
        "td" => TD,
        "blockquote" => BLOCKQUOTE,
        "div" => DIV,
        "article" => ARTICLE,
        "main" => MAIN,
        "table" => TABLE,
        "ul" => UL,
        "ol" => OL,
        "aside" => ASIDE,
        "header" => HEADER,
        "footer" => FOOTER,
        "section" => SECTION,
        "h2" => H2,
        "h1" | "h3" | "h4" | "h5" | "h6" => HEADING,
        "form" => FORM,
        "textarea" => TEXTAREA,
        "li" => LI,
        "img" => IMG,
        "a" => A,
        "embed" => EMBED,
        "input" => INPUT,
        "nav" => NAV,
        "th" => TH,
        "address" | "dl" | "dd" | "dt" => MINUS3,
        "body" => BODY,
        _ => OTHER,
    }
}

/// readability-lxml's `score_node` bonus of a kind.
pub fn tag_bonus(k: u8) -> f64 {
    use kind::*;
    match k {
        DIV | ARTICLE => 5.0,
        PRE | TD | BLOCKQUOTE => 3.0,
        OL | UL | MINUS3 | LI | FORM | ASIDE => -3.0,
        H2 | HEADING | TH | HEADER | FOOTER | NAV => -5.0,
        _ => 0.0,
    }
}

/// The counted element kinds (`findall(".//x")` in readability-lxml's conditional cleaning).
pub const COUNTED: [u8; 7] = [kind::P, kind::IMG, kind::LI, kind::A, kind::EMBED, kind::INPUT, kind::H2];

/// One node of the transformed tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RNode {
    /// Its kind (`p` for converted `div`s and wrapped runs).
    pub kind: u8,
    /// Its tag (`p` for converted `div`s and wrapped runs).
    pub tag: Tag,
    /// Its class names (`RdDom::tokens` range).
    pub classes: (u32, u32),
    /// Its attribute flags (0 for wrapped runs).
    pub flags: u16,
    /// Parent node ([`NONE`] for the root).
    pub parent: u32,
    /// One past its subtree (pre-order).
    pub end: u32,
    /// Its first unit in [`RdView::units`].
    pub ustart: u32,
    /// One past its last unit in [`RdView::units`] (text after a child belongs to its parent).
    pub uend: u32,
    /// Characters of its leading text (lxml's `.text`: before its first child element).
    pub lead_len: u32,
    /// Its leading text matches `\.( |$)`.
    pub lead_period: bool,
    /// Its text starts with a call to action (`sign up`, `subscribe`, `download`, `get the latest`).
    pub cta: bool,
    /// Characters of its tags when serialised.
    pub markup: u16,
}

/// The transformed tree of one pass.
#[derive(Debug, Clone, Default)]
pub struct RdView {
    /// Nodes in pre-order.
    pub nodes: Vec<RNode>,
    /// The DOM text units in the tree, in pre-order (document order).
    pub units: Vec<u32>,
    /// For each unit of `units`, the node it is directly in.
    pub owner: Vec<u32>,
    /// Prefix sums over `units`: characters + 1 (a separator), link characters, commas.
    pub len: Vec<u32>,
    /// See `len`: characters of units inside an `a` element.
    pub link: Vec<u32>,
    /// See `len`: commas.
    pub commas: Vec<u32>,
    /// Prefix counts over nodes of the [`COUNTED`] kinds, in 16 bits when the view has at most
    /// 65,535 nodes of each kind (every page seen so far): half the memory of 32-bit counts,
    /// which were the largest fact of a page.
    pub counts: Vec<[u16; 7]>,
    /// The 32-bit prefix counts instead, for a view with 65,536 or more nodes of one kind.
    pub wide: Vec<[u32; 7]>,
    /// The scored paragraphs (`p`, then `pre`, `td`, `blockquote`), in readability's order.
    pub paras: Vec<u32>,
    /// The `body` node ([`NONE`] when absent).
    pub body: u32,
}

/// Text and link sums of a unit range.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sums {
    /// Characters + 1 per unit.
    pub len: u32,
    /// Characters of linked units.
    pub link: u32,
    /// Commas.
    pub commas: u32,
}

impl RdView {
    /// The unit range of node `i`'s subtree.
    pub fn urange(&self, i: usize) -> (usize, usize) {
        (self.nodes[i].ustart as usize, self.nodes[i].uend as usize)
    }
    /// Text sums of node `i`'s subtree.
    pub fn sums(&self, i: usize) -> Sums {
        let (a, b) = self.urange(i);
        Sums {
            len: self.len[b] - self.len[a],
            link: self.link[b] - self.link[a],
            commas: self.commas[b] - self.commas[a],
        }
    }
    /// Counts of the [`COUNTED`] kinds among node `i`'s descendants.
    pub fn counts(&self, i: usize) -> [u32; 7] {
        let (from, to) = (i + 1, self.nodes[i].end as usize);
        if self.wide.is_empty() {
            let (a, b) = (&self.counts[from], &self.counts[to]);
            std::array::from_fn(|k| u32::from(b[k] - a[k]))
        } else {
            let (a, b) = (&self.wide[from], &self.wide[to]);
            std::array::from_fn(|k| b[k] - a[k])
        }
    }
}

/// Prefix counts over `nodes` of the kinds `counted` numbers: entry `i` counts nodes `..i`.
fn prefix_counts<T>(nodes: &[RNode], counted: impl Fn(&RNode) -> Option<usize>) -> Vec<[T; 7]>
where
    T: Copy + Default + std::ops::AddAssign + From<u8>,
{
    let mut acc = [T::default(); 7];
    let mut out = Vec::with_capacity(nodes.len() + 1);
    out.push(acc);
    for nd in nodes {
        if let Some(k) = counted(nd) {
            acc[k] += T::from(1);
        }
        out.push(acc);
    }
    out
}

/// readability-lxml's text length of a sum (`len(clean(text_content()))`, units joined by one
/// separator).
pub fn text_len(s: &Sums) -> u32 {
    s.len.saturating_sub(1)
}

/// Link characters per character (`get_link_density`: the links' text lengths over the text
/// length).
pub fn link_density(s: &Sums) -> f64 {
    f64::from(s.link) / f64::from(text_len(s).max(1))
}

/// Both passes, and the class names of the page's elements.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    /// `[ruthless, lenient]`.
    pub views: [RdView; 2],
    /// The class-name ids of every element and their positive flags ([`RdDom::shrink`]).
    pub classes: RdDom,
}

/// Builds both passes from the flattened DOM and its elements' attribute facts.
pub fn build(dom: &Dom, rd: &RdDom) -> [RdView; 2] {
    let n = dom.nodes.len();
    if n == 0 || rd.attrs.len() != n {
        return Default::default();
    }
    let flag = |i: usize| rd.attrs[i].flags;
    // Unlikely candidates (ruthless pass): not inside `pre`/`code`, holding no `main`/`article`/`math`.
    let mut keeps_below = vec![false; n];
    for i in (0..n).rev() {
        if flag(i) & KEEPS != 0 {
            keeps_below[i] = true;
        }
        let p = dom.nodes[i].parent;
        if keeps_below[i] && p != NONE {
            keeps_below[p as usize] = true;
        }
    }
    let mut in_pre = vec![false; n];
    let mut removed = vec![false; n];
    for i in 0..n {
        let p = dom.nodes[i].parent;
        in_pre[i] = flag(i) & PRE_CODE != 0 || (p != NONE && in_pre[p as usize]);
        removed[i] = (p != NONE && removed[p as usize]) || (flag(i) & UNLIKELY != 0 && !in_pre[i] && !keeps_below[i]);
    }
    [view(dom, rd, Some(&removed)), view(dom, rd, None)]
}

/// `div` state while its children are wrapped (readability-lxml's second `div` pass).
#[derive(Clone, Copy)]
enum Wrap {
    /// Before any element child: text starts the paragraph that inline children join.
    Start,
    /// Inline children and their tails join this paragraph.
    Cur(u32),
    /// After a `<br>` or a block: text goes to this tail paragraph (made on demand).
    Tail(Option<u32>),
    /// Not a wrapped `div`.
    No,
}

const INLINE: &[&str] = &["a", "b", "cite", "code", "em", "font", "i", "small", "span", "strong", "sub", "sup", "u"];

fn view(dom: &Dom, rd: &RdDom, removed: Option<&[bool]>) -> RdView {
    let n = dom.nodes.len();
    let gone = |i: usize| removed.is_some_and(|r| r[i]);
    // Block-ish descendants of each kept element.
    let mut blockers = vec![0u32; n];
    for i in (1..n).rev() {
        let node = &dom.nodes[i];
        if node.is_text() || gone(i) {
            continue;
        }
        let p = node.parent;
        if p != NONE {
            blockers[p as usize] += blockers[i] + u32::from(rd.attrs[i].flags & BLOCKER != 0);
        }
    }
    let br = Tag::from_name("br");
    let tbody = Tag::from_name("tbody");
    let div = Tag::from_name("div");
    let p_tag = Tag::from_name("p");
    let mut v = RdView { body: NONE, ..RdView::default() };
    // Open DOM elements: (DOM end, rnode index or NONE for transparent ones, wrap state).
    let mut stack: Vec<(u32, u32, Wrap)> = Vec::new();
    let new_node = |v: &mut RdView, kind: u8, flags: u16, parent: u32, markup: u16| -> u32 {
        v.nodes.push(RNode {
            kind,
            flags,
            parent,
            end: 0,
            ustart: v.units.len() as u32,
            markup,
            tag: p_tag,
            ..RNode::default()
        });
        (v.nodes.len() - 1) as u32
    };
    let mut i = 1;
    while i < n {
        while stack.last().is_some_and(|s| s.0 as usize <= i) {
            stack.pop();
        }
        let node = dom.nodes[i];
        if gone(i) {
            i = node.end as usize;
            continue;
        }
        // The nearest open rnode, and the wrap state of the element that directly holds `i`.
        let parent_r = stack.iter().rev().find(|s| s.1 != NONE).map_or(NONE, |s| s.1);
        let direct = stack.last().map_or(Wrap::No, |s| if s.1 == NONE { Wrap::No } else { s.2 });
        if node.is_text() {
            let u = node.text;
            let text = dom.texts.get(u as usize);
            let owner = match direct {
                Wrap::No => parent_r,
                Wrap::Start | Wrap::Tail(None) => {
                    let p = new_node(&mut v, kind::P, 0, parent_r, 7);
                    let nd = &mut v.nodes[p as usize];
                    nd.lead_len = text.chars().count() as u32;
                    nd.lead_period = text.contains(". ") || text.ends_with('.');
                    nd.end = p + 1;
                    let w = if matches!(direct, Wrap::Start) { Wrap::Cur(p) } else { Wrap::Tail(Some(p)) };
                    stack.last_mut().expect("a direct parent").2 = w;
                    p
                }
                Wrap::Cur(p) | Wrap::Tail(Some(p)) => p,
            };
            if owner != NONE {
                // A text node that is its element's first child is its leading text.
                if matches!(direct, Wrap::No) && i as u32 == node.parent + 1 {
                    let nd = &mut v.nodes[owner as usize];
                    nd.lead_len = text.chars().count() as u32;
                    nd.lead_period = text.contains(". ") || text.ends_with('.');
                }
                v.units.push(u);
                v.owner.push(owner);
            }
            i += 1;
            continue;
        }
        // An element.
        let name = node.tag.name();
        if node.tag == br {
            if !matches!(direct, Wrap::No) {
                stack.last_mut().expect("a direct parent").2 = Wrap::Tail(None);
            }
            i = node.end as usize;
            continue;
        }
        if node.tag == tbody {
            stack.push((node.end, NONE, Wrap::No));
            i += 1;
            continue;
        }
        let mut parent = parent_r;
        if !matches!(direct, Wrap::No) {
            if INLINE.contains(&name) && blockers[i] == 0 {
                let p = match direct {
                    Wrap::Cur(p) => p,
                    _ => {
                        let p = new_node(&mut v, kind::P, 0, parent_r, 7);
                        stack.last_mut().expect("a direct parent").2 = Wrap::Cur(p);
                        p
                    }
                };
                parent = p;
            } else {
                stack.last_mut().expect("a direct parent").2 = Wrap::Tail(None);
            }
        }
        let attr = rd.attrs[i];
        let is_div = node.tag == div;
        let converted = is_div && blockers[i] == 0;
        let k = if converted { kind::P } else { kind_of(name) };
        let r = new_node(&mut v, k, attr.flags, parent, attr.markup);
        v.nodes[r as usize].tag = if converted { p_tag } else { node.tag };
        v.nodes[r as usize].classes = attr.classes;
        if k == kind::BODY && v.body == NONE {
            v.body = r;
        }
        stack.push((node.end, r, if is_div && !converted { Wrap::Start } else { Wrap::No }));
        i += 1;
    }
    // Subtree ends: every node's end is the next node outside it.
    let m = v.nodes.len();
    let mut open: Vec<u32> = Vec::new();
    for j in 0..m {
        let p = v.nodes[j].parent;
        while open.last().is_some_and(|&o| o != p) {
            let o = open.pop().expect("non-empty");
            v.nodes[o as usize].end = j as u32;
        }
        open.push(j as u32);
    }
    for o in open {
        v.nodes[o as usize].end = m as u32;
    }
    for j in 0..m {
        v.nodes[j].uend = v.nodes[j].ustart;
    }
    for (k, &o) in v.owner.iter().enumerate() {
        v.nodes[o as usize].uend = k as u32 + 1;
    }
    for j in (1..m).rev() {
        let (p, e) = (v.nodes[j].parent, v.nodes[j].uend);
        if p != NONE && v.nodes[p as usize].uend < e {
            v.nodes[p as usize].uend = e;
        }
    }
    // Prefix sums over units and nodes.
    v.len.reserve(v.units.len() + 1);
    let (mut l, mut k, mut c) = (0u32, 0u32, 0u32);
    v.len.push(0);
    v.link.push(0);
    v.commas.push(0);
    for &u in &v.units {
        let t = dom.texts.get(u as usize);
        let chars = t.chars().count() as u32 + 1;
        l += chars;
        if dom.info[u as usize].in_a {
            k += chars - 1;
        }
        c += t.bytes().filter(|&b| b == b',').count() as u32;
        v.len.push(l);
        v.link.push(k);
        v.commas.push(c);
    }
    let counted = |nd: &RNode| COUNTED.iter().position(|&c| c == nd.kind);
    let mut total = [0usize; 7];
    v.nodes.iter().filter_map(counted).for_each(|k| total[k] += 1);
    if total.iter().all(|&n| n <= usize::from(u16::MAX)) {
        v.counts = prefix_counts(&v.nodes, counted);
    } else {
        v.wide = prefix_counts(&v.nodes, counted);
    }
    // Calls to action, and the scored paragraphs in readability's order.
    for j in 0..m {
        let (a, b) = v.urange(j);
        if a < b {
            let t = dom.texts.get(v.units[a] as usize).to_lowercase();
            v.nodes[j].cta = ["sign up", "subscribe", "download", "get the latest"].iter().any(|w| {
                t.strip_prefix(w).is_some_and(|rest| !rest.starts_with(|ch: char| ch.is_alphanumeric() || ch == '_'))
            });
        }
    }
    for want in [kind::P, kind::PRE, kind::TD, kind::BLOCKQUOTE] {
        v.paras.extend((0..m as u32).filter(|&j| v.nodes[j as usize].kind == want));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;

    fn parse(html: &str) -> Document {
        Document::parse_for(html, &Default::default(), Needs::fact(&FACT)).0
    }

    fn tree(d: &Document) -> &Tree {
        d.facts.get::<Tree>().expect("built")
    }

    fn texts(d: &Document, v: &RdView, j: usize) -> Vec<String> {
        let (a, b) = v.urange(j);
        v.units[a..b].iter().map(|&u| d.dom.texts.get(u as usize).to_string()).collect()
    }

    #[test]
    fn divs_are_paragraphs_or_have_their_loose_text_wrapped() {
        let d = parse(
            "<body><div id=story><div>AAA</div>BBB<br>CCC <b>bold</b> tail<br><div class=sidebar>DDD</div></div></body>",
        );
        let [ruthless, lenient] = &tree(&d).views;
        let ps: Vec<Vec<String>> = (0..lenient.nodes.len())
            .filter(|&j| lenient.nodes[j].kind == kind::P)
            .map(|j| texts(&d, lenient, j))
            .collect();
        // The inner divs became paragraphs; BBB and CCC are tail text after a block or a <br>;
        // the inline run after CCC's <br> tail is a paragraph of its own (readability-lxml's
        // quirk), its tail with it.
        assert_eq!(ps, [vec!["AAA"], vec!["BBB"], vec!["CCC"], vec!["bold", "tail"], vec!["DDD"]]);
        let story = lenient.nodes.iter().position(|n| n.flags & ID_POS != 0 && n.kind == kind::DIV).unwrap();
        assert_eq!(lenient.counts(story)[0], 5);
        assert!(lenient.wide.is_empty() && lenient.counts.len() == lenient.nodes.len() + 1);
        let b = lenient.nodes.iter().position(|n| n.kind == kind::OTHER && n.parent != NONE && n.flags == 0).unwrap();
        assert_eq!(texts(&d, lenient, b), ["bold"], "text after a child is its parent's");
        // The ruthless pass lost the sidebar; the body's id is readability-lxml's own.
        assert_eq!(ruthless.paras.len(), 4);
        assert_eq!(ruthless.nodes[ruthless.body as usize].flags & (ID_POS | ID_NEG), ID_POS);
        let p = ruthless.paras[1] as usize;
        assert_eq!((ruthless.nodes[p].lead_len, text_len(&ruthless.sums(p))), (3, 3));
    }

    /// readability-lxml's name-pattern tests as written (`class + " " + id` searched for each
    /// pattern): what the per-value facts must agree with.
    fn reference_flags(name: &str, class: &str, id: &str) -> u16 {
        let any_in = |s: &str, list: &[&str]| list.iter().any(|p| s.contains(p));
        let (class, id) = (class.to_lowercase(), if name == "body" { BODY_ID.into() } else { id.to_lowercase() });
        let mut flags = 0;
        for (s, pos, neg) in [(&class, CLASS_POS, CLASS_NEG), (&id, ID_POS, ID_NEG)] {
            if !s.is_empty() {
                flags |= if any_in(s, POSITIVE) { pos } else { 0 } | if any_in(s, NEGATIVE) { neg } else { 0 };
            }
        }
        let both = format!("{class} {id}");
        if both.len() >= 2 && any_in(&both, UNLIKELY_RE) && !any_in(&both, MAYBE) && !matches!(name, "html" | "body") {
            flags |= UNLIKELY;
        }
        let words: Vec<&str> =
            both.split(|c: char| c.is_whitespace() || c == '_' || c == '-').filter(|w| !w.is_empty()).collect();
        if words.iter().any(|w| matches!(*w, "subhead" | "standfirst" | "dek" | "subtitle" | "storylead"))
            || words.windows(2).any(|w| w == ["story", "lead"])
        {
            flags |= EDITORIAL;
        }
        flags
    }

    #[test]
    fn the_per_value_pattern_facts_agree_with_the_patterns_on_class_and_id_together() {
        let values = [
            "",
            "-",
            "Sidebar",
            "main-sidebar",
            "post_body",
            "comment-footer",
            "story",
            "lead",
            "story-lead",
            "STORY",
            "x story",
            "lead y",
            "ad-break",
            "agegate",
            "Menu shadow",
            "subhead",
            "a_dek_b",
            "storylead",
            "Ärger",
            "hentry",
            "com-",
            "rss-feed",
            "twitter",
            "pager",
            "x",
            "body",
            "readabilitybody",
            "  ",
            "story_\u{a0}",
        ];
        let mask = CLASS_POS | CLASS_NEG | ID_POS | ID_NEG | UNLIKELY | EDITORIAL;
        let mut dom = RdDom::default();
        for name in ["div", "body", "html", "p"] {
            for class in values {
                for id in values {
                    let want = reference_flags(name, class, id);
                    assert_eq!(attr_facts(name, [("class", class), ("id", id)].into_iter()).flags & mask, want);
                    dom.push(name, [("class", class), ("id", id)].into_iter());
                    assert_eq!(dom.attrs.last().unwrap().flags & mask, want, "{name} class={class:?} id={id:?}");
                }
            }
        }
        assert_ne!(reference_flags("div", "story", "lead") & EDITORIAL, 0, "the pair spans class and id");
    }

    #[test]
    fn name_patterns_and_keepers() {
        let f = |name: &str, class: &str, id: &str| attr_facts(name, [("class", class), ("id", id)].into_iter()).flags;
        assert_eq!(f("div", "post-body", "") & (CLASS_POS | CLASS_NEG), CLASS_POS);
        assert_eq!(f("div", "", "footer") & (ID_POS | ID_NEG), ID_NEG);
        assert_ne!(f("div", "sidebar", "") & UNLIKELY, 0);
        assert_eq!(f("div", "sidebar main", "") & UNLIKELY, 0, "okMaybeItsACandidate");
        assert_eq!(f("body", "sidebar", "") & UNLIKELY, 0);
        assert_ne!(f("picture", "", "") & BLOCKER, 0, "divToPElementsRe matches a prefix");
        // An unlikely candidate holding an <article>, or inside <pre>, stays.
        let d = parse(
            "<body><div class=menu><article><p>kept</p></article></div><pre><span class=menu>code</span></pre><div class=menu>gone</div></body>",
        );
        assert_eq!(tree(&d).views[0].units.len(), 2);
        assert_eq!(tree(&d).views[1].units.len(), 3);
    }

    #[test]
    fn a_view_with_more_than_65535_nodes_of_a_kind_counts_in_32_bits() {
        let items = "<li>x</li>".repeat(70_000);
        let d = parse(&format!("<body><div id=list><ul>{items}</ul></div><div><ul><li>y</li></ul></div></body>"));
        let v = &tree(&d).views[1];
        assert!(v.counts.is_empty() && v.wide.len() == v.nodes.len() + 1);
        let list = v.nodes.iter().position(|n| n.flags & ID_POS == 0 && n.kind == kind::DIV).unwrap();
        assert_eq!(v.counts(list)[2], 70_000);
        assert_eq!(v.counts(v.body as usize)[2], 70_001);
    }
}
