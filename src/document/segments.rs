//! The block view (`View::Blocks`): the page cut into text blocks, hidden text included and
//! flagged, each with a fixed feature vector computed once at parse time (the `blocks` family
//! scores them; `full_hidden` keeps them all).
//!
//! A block is a contiguous run of text under one block boundary: every element that is not
//! inline (see [`INLINE`]) starts and ends blocks, so the text of a `div` before and after a
//! child `p` gives two blocks and the blocks follow the order of the text. Inline elements join
//! their text with no added separator (the gold issue's rendering rule); `<br>` is a space.
//! Whitespace is collapsed.
//!
//! What a browser hides is kept, flagged with how it is hidden ([`hide`]): the content of
//! `<noscript>` (parsed as a browser with scripts off renders it: when the tree builder left it
//! raw text, `parse.rs` parses that text as an HTML fragment), subtrees with a `hidden`
//! attribute or `display:none` / `visibility:hidden`, and streaming placeholders (a hidden
//! element whose id is `S:<n>` or `B:<n>`, where React's streaming renderer parks content until
//! a script moves it). An element that starts a new kind of hiding is a block boundary, so a
//! hidden inline run is its own block. The DOM view ([`super::Dom`]) is not touched: its text
//! units never include hidden text, and each visible block records which DOM text units it
//! holds, so a selection of blocks becomes a keep-mask over the canonical words
//! ([`super::Document::mask`]); hidden blocks map to no canonical word.
//!
//! After the page's own blocks ([`Segments::page_blocks`]) come the text fields of its structured
//! data (JSON-LD, microdata `<meta content>`) that the page does not show ([`hide::STRUCTURED`],
//! `structured_blocks`): the page's blocks keep the rows they have without them.
//!
//! The events come from the one tree walk in `parse.rs` (the only user of `scraper`); this file
//! imports nothing but `super`.

use super::hidden::never_text;
use super::page_features::{LdText, json_ld_texts};
use super::{Units, sep};

/// How a block is hidden: a bit set.
pub mod hide {
    /// Inside `<noscript>`.
    pub const NOSCRIPT: u8 = 1;
    /// Inside a `hidden`-attribute, `display:none` or `visibility:hidden` subtree.
    pub const HIDDEN: u8 = 2;
    /// Inside a streaming placeholder (`<div hidden id="S:0">`).
    pub const STREAMING: u8 = 4;
    /// Text of the page's structured data (JSON-LD, microdata `<meta>`) that the page does not
    /// show: a block after the page's own ([`Segments::page_blocks`]).
    pub const STRUCTURED: u8 = 8;
}

/// Elements whose text joins the surrounding block.
pub const INLINE: &[&str] = &[
    "a", "abbr", "acronym", "b", "bdi", "bdo", "big", "br", "cite", "code", "data", "del", "dfn", "em", "font", "i",
    "img", "ins", "kbd", "label", "mark", "nobr", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup",
    "time", "tt", "u", "var", "wbr", "button", "abbr", "output", "meter", "progress", "picture", "source",
];

/// Elements skipped with their whole subtree (no page text; `select` would fuse its options).
const SKIPPED: &[&str] = &[
    "head", "script", "style", "template", "title", "iframe", "svg", "math", "select", "textarea", "object", "embed",
    "canvas", "applet", "frameset",
];

/// Semantic ancestors, one feature each.
const SEMANTIC: &[&str] = &["nav", "header", "footer", "aside", "form", "article", "main", "a", "ul", "table"];

/// class/id/role tokens that mark boilerplate (after folding plurals and aliases).
const NEG_TOKENS: &[&str] = &[
    "nav",
    "menu",
    "footer",
    "header",
    "sidebar",
    "comment",
    "related",
    "share",
    "social",
    "breadcrumb",
    "ad",
    "promo",
    "banner",
    "cookie",
    "widget",
    "newsletter",
    "subscribe",
    "login",
    "search",
    "tag",
    "meta",
    "pagination",
];

/// class/id/role/itemprop tokens that mark content.
const POS_TOKENS: &[&str] = &[
    "content",
    "article",
    "post",
    "main",
    "body",
    "entry",
    "text",
    "story",
    "description",
    "blog",
    "message",
    "answer",
    "question",
    "thread",
    "doc",
    "prose",
    "markdown",
    "articlebody",
];

/// The features of a block, in order: the names the `blocks` family's weights are read by
/// (`w_<name>`), with their group. Every value is scaled to about [0, 1].
pub const FEATURES: &[(&str, &str)] = &[
    ("log_words", "size"),
    ("word_length", "size"),
    ("link_ratio", "text"),
    ("punct_ratio", "text"),
    ("digit_ratio", "text"),
    ("cap_ratio", "text"),
    ("ends_sentence", "text"),
    ("depth", "dom"),
    ("tag_p", "dom"),
    ("tag_li", "dom"),
    ("tag_h", "dom"),
    ("tag_td", "dom"),
    ("tag_div", "dom"),
    ("tag_other", "dom"),
    ("position", "position"),
    ("in_nav", "semantic"),
    ("in_header", "semantic"),
    ("in_footer", "semantic"),
    ("in_aside", "semantic"),
    ("in_form", "semantic"),
    ("in_article", "semantic"),
    ("in_main", "semantic"),
    ("in_a", "semantic"),
    ("in_list", "semantic"),
    ("in_table", "semantic"),
    ("parent_share", "ancestors"),
    ("parent_links", "ancestors"),
    ("grand_share", "ancestors"),
    ("grand_links", "ancestors"),
    ("great_share", "ancestors"),
    ("great_links", "ancestors"),
    ("path_repeat", "repetition"),
    ("sibling_repeat", "repetition"),
    ("neg_near", "tokens"),
    ("neg_any", "tokens"),
    ("pos_near", "tokens"),
    ("pos_any", "tokens"),
    ("noscript", "hidden"),
    ("hidden", "hidden"),
    ("streaming", "hidden"),
    ("in_pre", "code"),
    ("code_share", "code"),
    ("prev_words", "neighbours"),
    ("next_words", "neighbours"),
    ("prev_links", "neighbours"),
    ("next_links", "neighbours"),
    ("page_links", "page"),
    ("page_words", "page"),
    ("page_code", "page"),
    ("page_jsonld", "page"),
    ("page_hidden", "page"),
    ("cand_in", "region"),
    ("cand_before", "region"),
    ("cand_after", "region"),
    ("cand_dist", "region"),
    ("cand_share", "region"),
    ("long_before", "region"),
    ("long_after", "region"),
    ("h1_before", "region"),
    ("rec_parent", "records"),
    ("rec_grand", "records"),
    ("rec_great", "records"),
    ("sec_level", "section"),
    ("sec_share", "section"),
    ("sec_links", "section"),
    ("sec_block_share", "section"),
    ("grp_records", "lists"),
    ("grp_share", "lists"),
    ("grp_words", "lists"),
    ("grp_links", "lists"),
    ("grp_top", "lists"),
    ("grp_rank", "lists"),
    ("grp_twins", "lists"),
    ("grp_price", "lists"),
    ("grp_img", "lists"),
    ("grp_heading", "lists"),
    ("grp_head_above", "lists"),
    ("grp_even", "lists"),
    ("grp_level", "lists"),
    ("grp_first", "lists"),
    ("in_dialog", "dialog"),
    ("aria_hidden", "dialog"),
    ("structured", "structured"),
    ("struct_body", "structured"),
    ("struct_site", "structured"),
    ("struct_novel", "structured"),
];

/// The features the linear `blocks` family weighs (the first ones; the rest are read by the
/// trees of the supervised block family only, so that `blocks`' genes and tuned settings stay as they were).
pub const N_LINEAR: usize = 51;

/// Number of features per block.
pub const N_FEATURES: usize = FEATURES.len();

/// The feature groups, in order.
pub fn groups() -> Vec<&'static str> {
    groups_of(FEATURES)
}

/// The groups of the features `blocks` weighs ([`N_LINEAR`]).
pub fn linear_groups() -> Vec<&'static str> {
    groups_of(&FEATURES[..N_LINEAR])
}

fn groups_of(features: &[(&str, &'static str)]) -> Vec<&'static str> {
    let mut g: Vec<&str> = Vec::new();
    for (_, group) in features {
        if !g.contains(group) {
            g.push(group);
        }
    }
    g
}

/// The blocks of a page and their features.
#[derive(Debug, Clone, Default)]
pub struct Segments {
    /// One unit per block: its whitespace-collapsed text.
    pub texts: Units,
    /// How each block is hidden ([`hide`] bits; 0: visible).
    pub hidden: Vec<u8>,
    /// Words (whitespace-separated) per block.
    pub words: Vec<u32>,
    /// Per block, the blocks of its parent, grandparent and great-grandparent block elements and
    /// of its heading section, as first and last block (a model's context reads its scores there).
    pub around: Vec<[(u32, u32); 4]>,
    /// The features, `N_FEATURES` per block.
    pub features: Vec<f32>,
    /// Per block, the record group it belongs to (the `lists` features describe it; numbered
    /// per page; [`NO_GROUP`] outside any), so that a decision can be taken per group.
    pub group: Vec<u32>,
    /// Per block, the first block of its record in that group ([`NO_GROUP`] outside any).
    pub record: Vec<u32>,
    /// The blocks of the page itself: the ones after them are its structured data's
    /// ([`hide::STRUCTURED`]).
    pub page_blocks: usize,
    /// For each block, the DOM text units it holds (`dom_units[dom_starts[b]..dom_starts[b+1]]`).
    dom_units: Vec<u32>,
    dom_starts: Vec<u32>,
}

impl Segments {
    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.hidden.len()
    }
    /// True without blocks.
    pub fn is_empty(&self) -> bool {
        self.hidden.is_empty()
    }
    /// The features of block `b`.
    pub fn row(&self, b: usize) -> &[f32] {
        &self.features[b * N_FEATURES..(b + 1) * N_FEATURES]
    }
    /// The DOM text units block `b` holds (none for a hidden block).
    pub fn dom_units(&self, b: usize) -> &[u32] {
        match (self.dom_starts.get(b), self.dom_starts.get(b + 1)) {
            (Some(&a), Some(&e)) => &self.dom_units[a as usize..e as usize],
            _ => &[],
        }
    }
}

/// [`Segments::group`] of a block in no record group.
pub const NO_GROUP: u32 = u32::MAX;

/// Which hidden blocks an extractor of the block view lets in (the `hidden_text` gene).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HiddenText {
    /// Visible blocks only (what the DOM view holds).
    None,
    /// Visible blocks and `<noscript>` content.
    Noscript,
    /// Visible blocks and streaming placeholders.
    Streaming,
    /// Every block.
    All,
}

/// Which blocks an extractor scores: the hidden ones its `hidden_text` lets in and, with
/// `structured`, the blocks of structured data the page does not show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Admit {
    /// The hidden blocks let in.
    pub hidden: HiddenText,
    /// Structured data's blocks ([`hide::STRUCTURED`]) let in.
    pub structured: bool,
}

impl Admit {
    /// True when a block hidden as `bits` ([`hide`]) is let in.
    pub fn admits(self, bits: u8) -> bool {
        if bits & hide::STRUCTURED != 0 { self.structured } else { self.hidden.admits(bits) }
    }
}

impl HiddenText {
    /// True when a block hidden as `bits` ([`hide`]) is let in (never a block of structured
    /// data: [`Admit`] lets those in).
    pub fn admits(self, bits: u8) -> bool {
        let allowed = match self {
            HiddenText::None => 0,
            HiddenText::Noscript => hide::NOSCRIPT,
            HiddenText::Streaming => hide::STREAMING,
            HiddenText::All => hide::NOSCRIPT | hide::HIDDEN | hide::STREAMING,
        };
        bits & !allowed == 0
    }
}

impl std::str::FromStr for HiddenText {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<HiddenText, String> {
        match s {
            "none" => Ok(HiddenText::None),
            "noscript" => Ok(HiddenText::Noscript),
            "streaming" => Ok(HiddenText::Streaming),
            "all" => Ok(HiddenText::All),
            _ => Err("none, noscript, streaming or all".into()),
        }
    }
}

/// One boundary element seen by the builder.
#[derive(Debug, Clone, Default)]
struct Elem {
    parent: u32,
    tag: &'static str,
    sig: u64,
    path: u64,
    depth: u32,
    words: u32,
    link_words: u32,
    /// In its subtree: images, heading blocks and blocks holding a price.
    imgs: u32,
    heads: u32,
    prices: u32,
}

/// An open element of the walk.
#[derive(Debug, Clone, Copy)]
struct Open {
    boundary: bool,
    skip: bool,
    never: bool,
    link: bool,
    code: bool,
    pre: bool,
    hidden: u8,
    flags: u32,
    neg_near: bool,
    pos_near: bool,
    /// A JSON-LD `<script>`: its text is structured data.
    ld: bool,
}

/// A block under construction or done.
#[derive(Debug, Clone, Default)]
struct Raw {
    text: String,
    link_chars: usize,
    code_chars: usize,
    elem: u32,
    hidden: u8,
    pre: bool,
    flags: u32,
    neg: (bool, bool),
    pos: (bool, bool),
    dom: Vec<u32>,
    /// A block of structured data: the `structured` group's values after its flag.
    ld: [f32; 3],
}

/// Builds the blocks from the events of a tree walk (`parse.rs`): [`Builder::open`],
/// [`Builder::text`], [`Builder::close`], then [`Builder::finish`].
#[derive(Debug, Default)]
pub struct Builder {
    elems: Vec<Elem>,
    open: Vec<Open>,
    boundary: Vec<u32>,
    cur: Raw,
    done: Vec<Raw>,
    dom_unit: u32,
    jsonld: bool,
    buf: String,
    /// The open JSON-LD script's text, and the text fields of the structured data read so far.
    ld: String,
    ld_texts: Vec<LdText>,
    /// Whether the blocks of structured data are built ([`Builder::new`]).
    structured: bool,
}

/// Splits class/id/role values into lower-case tokens (camelCase and non-alphanumerics), plurals
/// folded and a few aliases mapped.
fn tokens_of(value: &str, mut f: impl FnMut(&str)) {
    let mut word = String::new();
    let mut prev_lower = false;
    let mut emit = |w: &mut String| {
        if !w.is_empty() {
            let mut t = w.to_ascii_lowercase();
            if t.len() > 3 && t.ends_with('s') {
                t.pop();
            }
            let t = match t.as_str() {
                "navigation" | "navbar" => "nav",
                "ads" | "advert" | "advertisement" | "sponsor" => "ad",
                "complementary" => "sidebar",
                "contentinfo" => "footer",
                other => other,
            };
            f(t);
            w.clear();
        }
    };
    for c in value.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && prev_lower {
                emit(&mut word);
            }
            prev_lower = c.is_lowercase();
            word.push(c);
        } else {
            emit(&mut word);
            prev_lower = false;
        }
    }
    emit(&mut word);
}

fn hash(h: u64, s: &str) -> u64 {
    let mut h = h ^ 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    h
}

impl Builder {
    /// A builder; with `structured`, the blocks of the page's structured data that it does not
    /// show are built after its own (none otherwise: they cost a second pass over such pages).
    pub fn new(structured: bool) -> Builder {
        Builder { structured, ..Builder::default() }
    }

    /// An element opens, with its attributes: what it hides, skips, links or marks as code, its
    /// semantic and token flags, and (for a block boundary) a new element of the block tree.
    // Long because every flag an element passes to its subtree is decided here, once.
    pub fn open<'a>(&mut self, name: &str, attr: &dyn Fn(&str) -> Option<&'a str>) {
        let lower = name.to_ascii_lowercase();
        let parent = self.open.last().copied();
        let skip_parent = parent.is_some_and(|p| p.skip);
        let ld =
            lower == "script" && attr("type").is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"));
        if ld {
            self.jsonld = true;
            self.ld.clear();
        }
        let ld = ld && self.structured;
        if self.structured
            && lower == "meta"
            && let Some(text) = attr("content").filter(|c| !c.trim().is_empty())
            && let Some(key) = attr("itemprop").and_then(|p| p.split_whitespace().find(|k| MICRODATA.contains(k)))
        {
            self.ld_texts.push(LdText { text: text.to_string(), body: key != "description", site: false });
        }
        let never = parent.is_some_and(|p| p.never) || never_text(&lower, |a| attr(a));
        let mut hidden = parent.map_or(0, |p| p.hidden);
        if lower == "noscript" {
            hidden |= hide::NOSCRIPT;
        } else if lower != "input" && super::hidden::hidden_by_attributes(&lower, |a| attr(a)) {
            let id = attr("id").unwrap_or("");
            let streaming = attr("hidden").is_some()
                && (id.starts_with("S:") || id.starts_with("B:"))
                && id[2..].chars().all(|c| c.is_ascii_alphanumeric());
            hidden |= if streaming { hide::STREAMING } else { hide::HIDDEN };
        }
        let skip = skip_parent
            || SKIPPED.contains(&lower.as_str())
            || (lower == "input" && attr("type").is_some_and(|t| t.trim().eq_ignore_ascii_case("hidden")));
        let new_hiding = hidden != parent.map_or(0, |p| p.hidden);
        let boundary = !skip && (!INLINE.contains(&lower.as_str()) || new_hiding);
        let mut o = Open {
            boundary,
            skip,
            never,
            link: parent.is_some_and(|p| p.link) || (lower == "a" && attr("href").is_some()),
            code: parent.is_some_and(|p| p.code) || matches!(lower.as_str(), "code" | "kbd" | "samp" | "tt"),
            pre: parent.is_some_and(|p| p.pre) || lower == "pre",
            hidden,
            flags: parent.map_or(0, |p| p.flags),
            neg_near: false,
            pos_near: false,
            ld,
        };
        if let Some(i) = SEMANTIC.iter().position(|s| *s == lower) {
            o.flags |= 1 << i;
        }
        if opens_dialog(&lower, attr) {
            o.flags |= 1 << DIALOG;
        }
        if attr("aria-hidden").is_some_and(|v| v.trim().eq_ignore_ascii_case("true")) {
            o.flags |= 1 << ARIA_HIDDEN;
        }
        let (mut neg, mut pos) = (false, false);
        for a in ["class", "id", "role", "itemprop"] {
            if let Some(v) = attr(a) {
                tokens_of(v, |t| {
                    neg |= NEG_TOKENS.contains(&t);
                    pos |= POS_TOKENS.contains(&t);
                });
            }
        }
        if lower == "br" {
            self.cur.text.push(' ');
        }
        if lower == "img"
            && !skip
            && let Some(e) = self.boundary.last().and_then(|&e| self.elems.get_mut(e as usize))
        {
            e.imgs += 1;
        }
        if boundary {
            self.flush();
            let parent_elem = self.boundary.last().copied().unwrap_or(u32::MAX);
            let (pdepth, ppath) = match self.elems.get(parent_elem as usize) {
                Some(p) => (p.depth + 1, p.path),
                None => (0, 0),
            };
            let class = attr("class").unwrap_or("").split_whitespace().next().unwrap_or("");
            let sig = hash(hash(0, &lower), class);
            let tag = SEMANTIC_TAGS.iter().find(|t| **t == lower).copied().unwrap_or("");
            self.elems.push(Elem {
                parent: parent_elem,
                tag,
                sig,
                path: (ppath.rotate_left(5) ^ sig).wrapping_mul(0x100_0000_01b3),
                depth: pdepth,
                ..Elem::default()
            });
            self.boundary.push((self.elems.len() - 1) as u32);
            // The block element and its parent: "near"; tokens of any ancestor: the flags.
            o.neg_near = neg;
            o.pos_near = pos;
        }
        if neg {
            o.flags |= 1 << NEG_ANY;
        }
        if pos {
            o.flags |= 1 << POS_ANY;
        }
        if !boundary {
            o.neg_near = parent.is_some_and(|p| p.neg_near);
            o.pos_near = parent.is_some_and(|p| p.pos_near);
        }
        self.open.push(o);
    }

    /// A text node.
    pub fn text(&mut self, text: &str) {
        let Some(o) = self.open.last().copied() else { return };
        if o.ld {
            self.ld.push_str(text);
        }
        let visible_unit = !o.never && text.split_whitespace().next().is_some();
        if o.skip {
            // Still a DOM text unit when the DOM view renders it (svg, math, select, ...).
            self.dom_unit += u32::from(visible_unit);
            return;
        }
        if self.cur.text.trim().is_empty() && self.cur.dom.is_empty() {
            self.cur.elem = self.boundary.last().copied().unwrap_or(u32::MAX);
            self.cur.hidden = o.hidden;
            self.cur.pre = o.pre;
            self.cur.flags = o.flags;
            let near_parent = self.open.iter().rev().filter(|p| p.boundary).nth(1);
            self.cur.neg = (o.neg_near || near_parent.is_some_and(|p| p.neg_near), o.flags & (1 << NEG_ANY) != 0);
            self.cur.pos = (o.pos_near || near_parent.is_some_and(|p| p.pos_near), o.flags & (1 << POS_ANY) != 0);
        }
        let chars = text.chars().filter(|c| !c.is_whitespace()).count();
        if o.link {
            self.cur.link_chars += chars;
        }
        if o.code || o.pre {
            self.cur.code_chars += chars;
        }
        self.cur.text.push_str(text);
        if visible_unit {
            self.cur.dom.push(self.dom_unit);
            self.dom_unit += 1;
        }
    }

    /// The innermost open element closes.
    pub fn close(&mut self) {
        let Some(o) = self.open.pop() else { return };
        if o.ld {
            self.ld_texts.extend(json_ld_texts(&self.ld));
            self.ld.clear();
        }
        if o.boundary {
            self.flush();
            self.boundary.pop();
        }
    }

    fn flush(&mut self) {
        let mut raw = std::mem::take(&mut self.cur);
        self.buf.clear();
        for w in raw.text.split_whitespace() {
            if !self.buf.is_empty() {
                self.buf.push(' ');
            }
            self.buf.push_str(w);
        }
        if self.buf.is_empty() {
            return; // whitespace only (it holds no DOM text unit)
        }
        raw.text = std::mem::take(&mut self.buf);
        self.done.push(raw);
    }

    /// The blocks and their features.
    pub fn finish(mut self) -> Segments {
        while !self.open.is_empty() {
            self.close();
        }
        self.flush();
        let extra = structured_blocks(&self.done, &self.ld_texts);
        if extra.is_empty() {
            return features(self.elems, self.done, self.jsonld);
        }
        // The page's blocks keep the rows they have without structured data; those after them
        // take theirs from the page with them appended (at its end, beside no element).
        let n = self.done.len();
        let mut all = self.done.clone();
        all.extend(extra);
        let mut seg = features(self.elems.clone(), self.done, self.jsonld);
        let more = features(self.elems, all, self.jsonld);
        for b in n..more.len() {
            seg.texts.push(more.texts.get(b), sep::NEWLINE);
            seg.hidden.push(more.hidden[b]);
            seg.words.push(more.words[b]);
            seg.around.push(more.around[b]);
            seg.features.extend_from_slice(more.row(b));
            seg.group.push(NO_GROUP);
            seg.record.push(NO_GROUP);
            seg.dom_starts.push(seg.dom_units.len() as u32);
        }
        seg
    }
}

/// Semantic tag names kept on boundary elements (static strings).
const SEMANTIC_TAGS: &[&str] = &[
    "nav",
    "header",
    "footer",
    "aside",
    "form",
    "article",
    "main",
    "ul",
    "ol",
    "table",
    "p",
    "li",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "td",
    "th",
    "pre",
    "div",
    "dd",
    "dt",
    "blockquote",
    "section",
    "body",
];

/// Bits of the token flags beside the semantic ancestors.
const NEG_ANY: usize = 20;
const POS_ANY: usize = 21;
/// Inside a dialog: `<dialog>`, `role="dialog"` or `"alertdialog"`, or `aria-modal="true"`
/// (WAI-ARIA 1.2): consent banners, newsletter and sign-in overlays.
const DIALOG: usize = 22;
/// Inside an `aria-hidden="true"` subtree: hidden from assistive technology, which pages use for
/// closed overlays and inactive carousel slides, but also for decorative text that is shown.
const ARIA_HIDDEN: usize = 23;

/// True when an element opens a dialog ([`DIALOG`]).
fn opens_dialog<'a>(name: &str, attr: &dyn Fn(&str) -> Option<&'a str>) -> bool {
    name == "dialog"
        || attr("role").is_some_and(|r| {
            r.split_whitespace().any(|t| t.eq_ignore_ascii_case("dialog") || t.eq_ignore_ascii_case("alertdialog"))
        })
        || attr("aria-modal").is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
}

/// Microdata properties whose `<meta content>` is text (schema.org's text fields).
const MICRODATA: &[&str] = &["description", "articleBody", "reviewBody", "text"];

/// Words a structured-data text needs to be a block.
const STRUCTURED_MIN_WORDS: usize = 10;

/// Length of the word runs that count a structured-data word as shown on the page.
const STRUCTURED_RUN: usize = 4;

/// The blocks of structured data the page does not show: each text field of at least
/// [`STRUCTURED_MIN_WORDS`] words of which at most half lies in a run of [`STRUCTURED_RUN`] words
/// that the page's blocks (or an earlier such field) also hold. Words are compared as the
/// measure's tokens are (letters and digits, lower-cased).
fn structured_blocks(page: &[Raw], texts: &[LdText]) -> Vec<Raw> {
    let tokens = |t: &str| -> Vec<String> {
        t.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
    };
    // JSON strings hold no character references, but pages put escaped HTML in them.
    let long: Vec<(&LdText, String, Vec<String>)> = texts
        .iter()
        .map(|t| {
            let mut text = String::with_capacity(t.text.len());
            super::entities::decode_into(&t.text, &mut text);
            let ws = tokens(&text);
            (t, text, ws)
        })
        .filter(|(_, _, ws)| ws.len() >= STRUCTURED_MIN_WORDS)
        .collect();
    if long.is_empty() {
        return Vec::new();
    }
    let gram = |ws: &[String]| ws.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, w| hash(h.rotate_left(7), w));
    let mut seen = std::collections::HashSet::new();
    let add = |ws: &[String], seen: &mut std::collections::HashSet<u64>| {
        ws.windows(STRUCTURED_RUN).for_each(|g| {
            seen.insert(gram(g));
        });
    };
    let shown: Vec<String> = page.iter().flat_map(|r| tokens(&r.text)).collect();
    add(&shown, &mut seen);
    let mut out = Vec::new();
    for (t, text, ws) in long {
        let mut covered = vec![false; ws.len()];
        for (i, g) in ws.windows(STRUCTURED_RUN).enumerate() {
            if seen.contains(&gram(g)) {
                covered[i..i + STRUCTURED_RUN].iter_mut().for_each(|c| *c = true);
            }
        }
        let novel = covered.iter().filter(|c| !**c).count() as f32 / ws.len() as f32;
        if novel < 0.5 {
            continue;
        }
        add(&ws, &mut seen);
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let ld = [f32::from(u8::from(t.body)), f32::from(u8::from(t.site)), novel];
        out.push(Raw { text, elem: u32::MAX, hidden: hide::STRUCTURED, ld, ..Raw::default() });
    }
    out
}

/// Stop-free text statistics of a block: (words, word chars, punctuation, digits, capitalised
/// words, ends with sentence punctuation).
type TextStats = (u32, usize, usize, usize, usize, bool);

/// The [`TextStats`] of a block's text.
fn text_stats(text: &str) -> TextStats {
    let (mut words, mut chars, mut punct, mut digits, mut caps) = (0u32, 0, 0, 0, 0);
    for w in text.split_whitespace() {
        words += 1;
        caps += usize::from(w.chars().next().is_some_and(char::is_uppercase));
        for c in w.chars() {
            chars += 1;
            punct += usize::from(c.is_ascii_punctuation());
            digits += usize::from(c.is_ascii_digit());
        }
    }
    let ends = text.trim_end().ends_with(['.', '!', '?', '。', '…']);
    (words, chars, punct, digits, caps, ends)
}

fn ratio(a: f64, b: f64) -> f32 {
    if b <= 0.0 { 0.0 } else { (a / b) as f32 }
}

fn log_scaled(x: f64, scale: f64) -> f32 {
    ((1.0 + x).ln() / scale).min(1.5) as f32
}

/// The feature vectors of a page's blocks.
// One pass per feature group over the blocks; split further it would only pass the same
// dozen arrays around.
fn features(mut elems: Vec<Elem>, raws: Vec<Raw>, jsonld: bool) -> Segments {
    let n = raws.len();
    let stats: Vec<_> = raws.iter().map(|r| text_stats(&r.text)).collect();
    let link_words: Vec<u32> = raws
        .iter()
        .zip(&stats)
        .map(|(r, s)| (f64::from(s.0) * ratio(r.link_chars as f64, s.1 as f64) as f64).round() as u32)
        .collect();
    // Per element: its words, link words and the span of its blocks (a subtree's blocks are
    // consecutive, since blocks follow the text order).
    let mut span = vec![(u32::MAX, 0u32); elems.len()];
    for (b, (r, (s, lw))) in raws.iter().zip(stats.iter().zip(&link_words)).enumerate() {
        let head = elems.get(r.elem as usize).is_some_and(|e| heading(e.tag) > 0);
        let price = super::page_features::has_price(&r.text);
        let mut e = r.elem;
        while let Some(el) = elems.get_mut(e as usize) {
            el.words += s.0;
            el.link_words += lw;
            el.heads += u32::from(head);
            el.prices += u32::from(price);
            span[e as usize] = (span[e as usize].0.min(b as u32), b as u32);
            e = el.parent;
        }
    }
    // Images counted on their block element, summed up the tree (a parent precedes its children).
    for e in (0..elems.len()).rev() {
        let (p, imgs) = (elems[e].parent as usize, elems[e].imgs);
        if let Some(parent) = elems.get_mut(p) {
            parent.imgs += imgs;
        }
    }
    let lists = Lists::of(&elems, &raws, &span);
    let region = Region::of(&elems, &raws, &stats, &link_words, &span);
    let total: f64 = stats.iter().map(|s| f64::from(s.0)).sum();
    let total_links: f64 = link_words.iter().map(|&w| f64::from(w)).sum();
    let code: f64 =
        raws.iter().zip(&stats).map(|(r, s)| f64::from(s.0) * ratio(r.code_chars as f64, s.1 as f64) as f64).sum();
    let hidden_words: f64 = raws.iter().zip(&stats).filter(|(r, _)| r.hidden != 0).map(|(_, s)| f64::from(s.0)).sum();
    let mut path_count = std::collections::HashMap::new();
    for r in &raws {
        if let Some(e) = elems.get(r.elem as usize) {
            *path_count.entry(e.path).or_insert(0u32) += 1;
        }
    }
    let mut sib_count = std::collections::HashMap::new();
    for e in &elems {
        *sib_count.entry((e.parent, e.sig)).or_insert(0u32) += 1;
    }
    let mut seg = Segments { features: vec![0.0; n * N_FEATURES], page_blocks: n, ..Segments::default() };
    seg.dom_starts.push(0);
    let mut before = 0.0;
    for (b, r) in raws.iter().enumerate() {
        let s = stats[b];
        let words = f64::from(s.0);
        let f = &mut seg.features[b * N_FEATURES..(b + 1) * N_FEATURES];
        let el = elems.get(r.elem as usize).cloned().unwrap_or_default();
        let anc = |k: usize| -> (f32, f32) {
            let mut e = r.elem;
            for _ in 0..k {
                e = elems.get(e as usize).map_or(u32::MAX, |x| x.parent);
            }
            elems.get(e as usize).map_or((1.0, ratio(total_links, total)), |x| {
                (ratio(f64::from(x.words), total), ratio(f64::from(x.link_words), f64::from(x.words)))
            })
        };
        let (p, g, gg) = (anc(1), anc(2), anc(3));
        let tag = el.tag;
        let v = [
            log_scaled(words, 6.0),
            (ratio(s.1 as f64, words) / 10.0).min(1.5),
            ratio(r.link_chars as f64, s.1 as f64).min(1.0),
            ratio(s.2 as f64, s.1 as f64),
            ratio(s.3 as f64, s.1 as f64),
            ratio(s.4 as f64, words),
            f32::from(u8::from(s.5)),
            (el.depth as f32 / 32.0).min(1.5),
            f32::from(u8::from(tag == "p")),
            f32::from(u8::from(tag == "li" || tag == "dd" || tag == "dt")),
            f32::from(u8::from(tag.len() == 2 && tag.starts_with('h') && tag != "hr")),
            f32::from(u8::from(tag == "td" || tag == "th")),
            f32::from(u8::from(tag == "div")),
            f32::from(u8::from(
                !matches!(tag, "p" | "li" | "dd" | "dt" | "td" | "th" | "div") && !tag.starts_with('h'),
            )),
            ratio(before, total),
        ];
        f[..v.len()].copy_from_slice(&v);
        let mut k = v.len();
        for i in 0..SEMANTIC.len() {
            f[k] = f32::from(u8::from(r.flags & (1 << i) != 0));
            k += 1;
        }
        let path = elems.get(r.elem as usize).map_or(1, |e| path_count.get(&e.path).copied().unwrap_or(1));
        let sibs = sib_count.get(&(el.parent, el.sig)).copied().unwrap_or(1);
        let (pw, nw) = (
            if b > 0 { log_scaled(f64::from(stats[b - 1].0), 6.0) } else { 0.0 },
            stats.get(b + 1).map_or(0.0, |x| log_scaled(f64::from(x.0), 6.0)),
        );
        let link = |i: usize| ratio(raws[i].link_chars as f64, stats[i].1 as f64).min(1.0);
        let rest = [
            p.0,
            p.1,
            g.0,
            g.1,
            gg.0,
            gg.1,
            log_scaled(f64::from(path - 1), 5.0),
            log_scaled(f64::from(sibs - 1), 4.0),
            f32::from(u8::from(r.neg.0)),
            f32::from(u8::from(r.neg.1)),
            f32::from(u8::from(r.pos.0)),
            f32::from(u8::from(r.pos.1)),
            f32::from(u8::from(r.hidden & hide::NOSCRIPT != 0)),
            f32::from(u8::from(r.hidden & hide::HIDDEN != 0)),
            f32::from(u8::from(r.hidden & hide::STREAMING != 0)),
            f32::from(u8::from(r.pre)),
            ratio(r.code_chars as f64, s.1 as f64).min(1.0),
            pw,
            nw,
            if b > 0 { link(b - 1) } else { 0.0 },
            if b + 1 < n { link(b + 1) } else { 0.0 },
            ratio(total_links, total),
            log_scaled(total, 10.0),
            ratio(code, total),
            f32::from(u8::from(jsonld)),
            ratio(hidden_words, total),
        ];
        f[k..k + rest.len()].copy_from_slice(&rest);
        k += rest.len();
        let rec = |level: usize| {
            let mut e = r.elem;
            for _ in 0..level {
                e = elems.get(e as usize).map_or(u32::MAX, |x| x.parent);
            }
            elems.get(e as usize).map_or(0.0, |x| {
                log_scaled(f64::from(sib_count.get(&(x.parent, x.sig)).copied().unwrap_or(1) - 1), 4.0)
            })
        };
        let up = |level: usize| {
            let mut e = r.elem;
            for _ in 0..level {
                e = elems.get(e as usize).map_or(u32::MAX, |x| x.parent);
            }
            span.get(e as usize).copied().unwrap_or((0, n.saturating_sub(1) as u32))
        };
        let sec = region.sections[b];
        seg.around.push([up(1), up(2), up(3), (sec.0 as u32, sec.1.saturating_sub(1) as u32)]);
        let more = region.features(b, words);
        f[k..k + more.len()].copy_from_slice(&more);
        k += more.len();
        f[k..k + 3].copy_from_slice(&[rec(1), rec(2), rec(3)]);
        k += 3;
        f[k..k + 4].copy_from_slice(&region.section(b, words));
        k += 4;
        let more = lists.features(b, total);
        f[k..k + more.len()].copy_from_slice(&more);
        k += more.len();
        let flag = |bit: usize| f32::from(u8::from(r.flags & (1 << bit) != 0));
        f[k..k + 2].copy_from_slice(&[flag(DIALOG), flag(ARIA_HIDDEN)]);
        k += 2;
        f[k] = f32::from(u8::from(r.hidden & hide::STRUCTURED != 0));
        f[k + 1..k + 4].copy_from_slice(&r.ld);
        debug_assert_eq!(k + 4, N_FEATURES);
        seg.group.push(lists.of[b].map_or(NO_GROUP, |(g, _, _)| g));
        seg.record.push(lists.of[b].map_or(NO_GROUP, |(_, _, first)| first as u32));
        before += words;
        seg.texts.push(&r.text, sep::NEWLINE);
        seg.hidden.push(r.hidden);
        seg.words.push(s.0);
        if r.hidden == 0 {
            seg.dom_units.extend_from_slice(&r.dom);
        }
        seg.dom_starts.push(seg.dom_units.len() as u32);
    }
    elems.clear();
    seg
}

/// A block's place on the page beside the main-content candidate, the long text runs, the first
/// `h1` and its heading section (the `region` and `section` groups).
struct Region {
    /// The candidate's first and last block and its share of the page's words (no candidate:
    /// the whole page, share 0).
    cand: (usize, usize, f32),
    /// Words of the blocks before each block (and the total at the end).
    cum: Vec<f64>,
    /// Link words likewise.
    cum_links: Vec<f64>,
    /// The first and last long text block.
    long: Option<(usize, usize)>,
    /// The first `h1` block.
    h1: Option<usize>,
    /// Per block, its section: (first block, end, heading level 1-6 or 0 before any heading).
    sections: Vec<(usize, usize, u8)>,
}

/// Words of a long text run (a block at least this long, with links under half its words).
const LONG_RUN: u32 = 30;

/// Words a block needs to count for the main-content candidate.
const CANDIDATE_RUN: u32 = 10;

impl Region {
    // The candidate is found as Arc90's scorer finds one: every block of at least CANDIDATE_RUN words with links
    // under half of them gives its unlinked words to its block element's parent and half to the
    // grandparent; the element with the most is the candidate.
    fn of(elems: &[Elem], raws: &[Raw], stats: &[TextStats], link_words: &[u32], span: &[(u32, u32)]) -> Region {
        let n = raws.len();
        let mut cum = vec![0.0; n + 1];
        let mut cum_links = vec![0.0; n + 1];
        for b in 0..n {
            cum[b + 1] = cum[b] + f64::from(stats[b].0);
            cum_links[b + 1] = cum_links[b] + f64::from(link_words[b]);
        }
        let mut score = vec![0.0f64; elems.len()];
        let parent = |e: u32| elems.get(e as usize).map_or(u32::MAX, |x| x.parent);
        for (b, r) in raws.iter().enumerate() {
            let (w, lw) = (stats[b].0, link_words[b]);
            if w < CANDIDATE_RUN || 2 * lw >= w {
                continue;
            }
            let e1 = parent(r.elem);
            let e1 = if (e1 as usize) < elems.len() { e1 } else { r.elem };
            if let Some(s) = score.get_mut(e1 as usize) {
                *s += f64::from(w - lw);
            }
            if let Some(s) = score.get_mut(parent(e1) as usize) {
                *s += f64::from(w - lw) / 2.0;
            }
        }
        let best = (0..elems.len()).filter(|&e| score[e] > 0.0).fold(None, |best: Option<usize>, e| match best {
            Some(x) if score[x] >= score[e] => Some(x),
            _ => Some(e),
        });
        let total = cum[n];
        let cand = match best {
            Some(e) if span[e].0 != u32::MAX => {
                (span[e].0 as usize, span[e].1 as usize, ratio(f64::from(elems[e].words), total))
            }
            _ => (0, n.saturating_sub(1), 0.0),
        };
        let long_at: Vec<usize> =
            (0..n).filter(|&b| stats[b].0 >= LONG_RUN && 2 * link_words[b] < stats[b].0).collect();
        let long = long_at.first().zip(long_at.last()).map(|(a, z)| (*a, *z));
        let level = |b: usize| heading(elems.get(raws[b].elem as usize).map_or("", |e| e.tag));
        let h1 = (0..n).find(|&b| level(b) == 1);
        // A heading's section runs to the next heading of its level or higher.
        let heads: Vec<(usize, u8)> = (0..n).map(|b| (b, level(b))).filter(|x| x.1 > 0).collect();
        let mut sections = Vec::with_capacity(n);
        let mut at = 0; // headings seen
        for b in 0..n {
            while at < heads.len() && heads[at].0 <= b {
                at += 1;
            }
            let sec = match at.checked_sub(1).map(|i| (i, heads[i])) {
                None => (0, heads.first().map_or(n, |h| h.0), 0),
                Some((i, (start, lv))) => {
                    let end = heads[i + 1..].iter().find(|h| h.1 <= lv).map_or(n, |h| h.0);
                    (start, end, lv)
                }
            };
            sections.push(sec);
        }
        Region { cand, cum, cum_links, long, h1, sections }
    }

    /// The `region` group of block `b`.
    fn features(&self, b: usize, words: f64) -> [f32; 8] {
        let total = self.cum[self.cum.len() - 1];
        let (a, z, share) = self.cand;
        let dist = if b < a {
            self.cum[a] - self.cum[b] - words
        } else if b > z {
            self.cum[b] - self.cum[z + 1]
        } else {
            0.0
        };
        let flag = |c: bool| f32::from(u8::from(c));
        [
            flag(b >= a && b <= z),
            flag(b < a),
            flag(b > z),
            ratio(dist.max(0.0), total),
            share,
            flag(self.long.is_some_and(|(first, _)| first < b)),
            flag(self.long.is_some_and(|(_, last)| last > b)),
            flag(self.h1.is_some_and(|h| h <= b)),
        ]
    }

    /// The `section` group of block `b`: the level of the heading it sits under (/ 6), the
    /// section's share of the page's words and its link-word share, and the block's share of it.
    fn section(&self, b: usize, words: f64) -> [f32; 4] {
        let (start, end, level) = self.sections[b];
        let sec = self.cum[end] - self.cum[start];
        [
            f32::from(level) / 6.0,
            ratio(sec, self.cum[self.cum.len() - 1]),
            ratio(self.cum_links[end] - self.cum_links[start], sec),
            ratio(words, sec),
        ]
    }
}

/// The level of a heading tag (`h1`–`h6`), 0 for any other.
fn heading(tag: &str) -> u8 {
    match tag.as_bytes() {
        [b'h', d @ b'1'..=b'6'] => d - b'0',
        _ => 0,
    }
}

/// Fewest records (siblings of one tag and first class, each holding words) of a record group.
const MIN_RECORDS: u32 = 3;

/// Levels above a block's element searched for the record it belongs to.
const RECORD_LEVELS: u8 = 8;

/// One record group: element children of one block element with one tag and first class, at
/// least [`MIN_RECORDS`] of them holding words (the data-record regions of MDR, Liu, Grossman
/// and Zhai, KDD 2003, found from the block tree's sibling structure).
#[derive(Debug, Clone, Default)]
struct Group {
    sig: u64,
    records: u32,
    words: f64,
    links: f64,
    /// Records holding a price, an image, a heading.
    prices: u32,
    imgs: u32,
    heads: u32,
    /// Sum of the records' words squared (for the spread of their sizes).
    words_sq: f64,
    /// The first block of its records.
    first: usize,
    /// Rank by words on the page (0: the largest) and other groups of the same record signature.
    rank: u32,
    twins: u32,
    /// A heading block comes right before its first record.
    head_above: bool,
}

/// The page's record groups and each block's group (the `lists` feature group).
struct Lists {
    groups: Vec<Group>,
    /// Per block: its group, the level of its record above the block's element and the
    /// record's first block. A block within several nested groups belongs to the one with the
    /// most records (the inner one on a tie): the cards of a grid, not the three lines of a card.
    of: Vec<Option<(u32, u8, usize)>>,
    /// Words of the largest group.
    top: f64,
}

impl Lists {
    fn of(elems: &[Elem], raws: &[Raw], span: &[(u32, u32)]) -> Lists {
        let mut index: std::collections::HashMap<(u32, u64), usize> = std::collections::HashMap::new();
        let mut groups: Vec<Group> = Vec::new();
        for (e, el) in elems.iter().enumerate() {
            if el.words == 0 || el.parent as usize >= elems.len() {
                continue;
            }
            let g = *index.entry((el.parent, el.sig)).or_insert_with(|| {
                groups.push(Group { sig: el.sig, first: usize::MAX, ..Group::default() });
                groups.len() - 1
            });
            let w = f64::from(el.words);
            let gr = &mut groups[g];
            gr.records += 1;
            gr.words += w;
            gr.words_sq += w * w;
            gr.links += f64::from(el.link_words);
            gr.prices += u32::from(el.prices > 0);
            gr.imgs += u32::from(el.imgs > 0);
            gr.heads += u32::from(el.heads > 0);
            gr.first = gr.first.min(span[e].0 as usize);
        }
        // Keep the groups with enough records, renumbered.
        let mut keep = vec![u32::MAX; groups.len()];
        let mut kept = Vec::new();
        let mut sigs: std::collections::HashMap<u64, u32> = std::collections::HashMap::new();
        for (g, mut gr) in groups.into_iter().enumerate() {
            if gr.records >= MIN_RECORDS {
                keep[g] = kept.len() as u32;
                *sigs.entry(gr.sig).or_default() += 1;
                let before = gr.first.checked_sub(1).and_then(|b| raws.get(b));
                gr.head_above = before.is_some_and(|r| heading(elems.get(r.elem as usize).map_or("", |e| e.tag)) > 0);
                kept.push(gr);
            }
        }
        let mut order: Vec<usize> = (0..kept.len()).collect();
        order.sort_by(|&a, &b| kept[b].words.total_cmp(&kept[a].words).then(a.cmp(&b)));
        for (r, &g) in order.iter().enumerate() {
            kept[g].rank = r as u32;
        }
        for gr in &mut kept {
            gr.twins = sigs[&gr.sig] - 1;
        }
        let top = order.first().map_or(0.0, |&g| kept[g].words);
        let of: Vec<Option<(u32, u8, usize)>> = raws
            .iter()
            .map(|r| {
                let (mut e, mut best) = (r.elem, None::<(u32, u8, usize)>);
                for level in 0..RECORD_LEVELS {
                    let Some(el) = elems.get(e as usize) else { break };
                    if let Some(&g) = index.get(&(el.parent, el.sig))
                        && keep[g] != u32::MAX
                        && best.is_none_or(|(b, _, _)| kept[keep[g] as usize].records > kept[b as usize].records)
                    {
                        best = Some((keep[g], level, span[e as usize].0 as usize));
                    }
                    e = el.parent;
                }
                best
            })
            .collect();
        Lists { groups: kept, of, top }
    }

    /// The `lists` group of block `b` on a page of `total` words (all 0 outside any group).
    fn features(&self, b: usize, total: f64) -> [f32; 14] {
        let Some((g, level, first)) = self.of[b] else { return [0.0; 14] };
        let gr = &self.groups[g as usize];
        let n = f64::from(gr.records);
        let mean = gr.words / n;
        // Coefficient of variation of the records' words: 0 for records of one size.
        let cv = ((gr.words_sq / n - mean * mean).max(0.0)).sqrt() / mean.max(1.0);
        let share = |k: u32| ratio(f64::from(k), n);
        [
            log_scaled(n - 1.0, 4.0),
            ratio(gr.words, total),
            log_scaled(mean, 6.0),
            ratio(gr.links, gr.words),
            ratio(gr.words, self.top),
            1.0 / (1.0 + gr.rank as f32),
            log_scaled(f64::from(gr.twins), 2.0),
            share(gr.prices),
            share(gr.imgs),
            share(gr.heads),
            f32::from(u8::from(gr.head_above)),
            (1.0 - cv.min(1.0)) as f32,
            f32::from(level) / f32::from(RECORD_LEVELS),
            f32::from(u8::from(first == b)),
        ]
    }
}

/// Parses `html` standing alone for the tests (through `parse.rs`).
#[cfg(test)]
fn of(html: &str) -> Segments {
    super::parse::parse_full(html, None).1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &Segments) -> Vec<(&str, u8)> {
        (0..s.len()).map(|b| (s.texts.get(b), s.hidden[b])).collect()
    }

    #[test]
    fn blocks_follow_the_text_order_and_join_inline_text() {
        let s = of("<body><div>before<p>in <b>p</b>ara</p>after<br>more</div><ul><li>one</li><li>two</li></ul></body>");
        assert_eq!(texts(&s), [("before", 0), ("in para", 0), ("after more", 0), ("one", 0), ("two", 0)]);
        // Every visible block maps to its DOM text units.
        assert_eq!(s.dom_units(1), [1, 2, 3]);
        assert_eq!(s.row(0).len(), N_FEATURES);
    }

    #[test]
    fn hidden_text_is_kept_and_flagged_by_kind() {
        let s = of("<body><p>shown</p><noscript><div>thread <b>text</b></div></noscript>\
                    <div hidden id=\"S:0\"><p>streamed</p></div><div style=\"display: none\">tab</div>\
                    <p>x <span hidden>inline</span> y</p><script>no()</script><select><option>o</option></select></body>");
        assert_eq!(
            texts(&s),
            [
                ("shown", 0),
                ("thread text", hide::NOSCRIPT),
                ("streamed", hide::STREAMING),
                ("tab", hide::HIDDEN),
                ("x", 0),
                ("inline", hide::HIDDEN),
                ("y", 0)
            ]
        );
        assert!(s.dom_units(1).is_empty() && s.dom_units(2).is_empty());
        assert_eq!(s.dom_units(4), [1]);
        assert_eq!(s.dom_units(6), [2]);
        let f = |b: usize, name: &str| s.row(b)[FEATURES.iter().position(|(n, _)| *n == name).unwrap()];
        assert_eq!((f(1, "noscript"), f(2, "streaming"), f(3, "hidden"), f(0, "hidden")), (1.0, 1.0, 1.0, 0.0));
    }

    #[test]
    fn dialogs_and_aria_hidden_subtrees_are_flagged() {
        let s = of("<body><p>page</p><div role=\"alertdialog\"><div><p>consent</p></div></div>\
                    <div aria-modal=\"true\">modal</div><dialog open>native</dialog><div role=\"region dialog\">two</div>\
                    <div aria-hidden=\"true\"><p>slide</p></div><div aria-hidden=\"false\">shown</div></body>");
        let f = |b: usize, name: &str| s.row(b)[FEATURES.iter().position(|(n, _)| *n == name).unwrap()];
        let dialog: Vec<f32> = (0..s.len()).map(|b| f(b, "in_dialog")).collect();
        let aria: Vec<f32> = (0..s.len()).map(|b| f(b, "aria_hidden")).collect();
        assert_eq!(dialog, [0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]);
        assert_eq!(aria, [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    }

    #[test]
    fn structured_data_the_page_does_not_show_is_a_flagged_block_after_the_page_and_changes_no_other_row() {
        let about = "A steel kettle that boils a litre of water in two minutes &amp; keeps it warm.";
        let shown = "Handmade in Sheffield from brushed steel with a beech handle and a wide spout.";
        let ld = format!(
            r#"<script type="application/ld+json">{{"@graph":[{{"@type":"Organization","description":"Kitchen Things is the family shop for kettles, pans and all else since 1982."}},
            {{"@type":"Product","description":"{about}","review":{{"@type":"Review","reviewBody":"{shown}"}}}},
            {{"@type":"Product","description":"{about}"}},{{"@type":"Thing","description":"Too short to count."}}]}}</script>"#
        );
        let meta = r#"<div itemscope><meta itemprop="articleBody" content="Microdata text that only a meta element of the page holds, ten words or more."></div>"#;
        let body = format!("<body><nav><a href=/>Home</a></nav><p>{shown}</p><p>Price: 20 pounds.</p></body>");
        let plain = of(&body);
        let s = of(&format!("<html><head>{ld}</head>{}{meta}</html>", &body[..body.len() - 7]));
        let f = |b: usize, name: &str| s.row(b)[FEATURES.iter().position(|(n, _)| *n == name).unwrap()];
        // The page's blocks are the page without its structured data, row for row (the JSON-LD
        // flag aside), and the shown review and the repeated or short descriptions are no block.
        assert_eq!(s.page_blocks, plain.len());
        let jsonld = FEATURES.iter().position(|(n, _)| *n == "page_jsonld").unwrap();
        for b in 0..plain.len() {
            let (mut x, y) = (s.row(b).to_vec(), plain.row(b));
            x[jsonld] = y[jsonld];
            assert_eq!((&x[..], s.hidden[b]), (y, plain.hidden[b]), "block {b}");
        }
        let extra: Vec<(&str, u8)> = (plain.len()..s.len()).map(|b| (s.texts.get(b), s.hidden[b])).collect();
        let site = "Kitchen Things is the family shop for kettles, pans and all else since 1982.";
        let meta_text = "Microdata text that only a meta element of the page holds, ten words or more.";
        let about = "A steel kettle that boils a litre of water in two minutes & keeps it warm.";
        assert_eq!(extra, [(site, hide::STRUCTURED), (about, hide::STRUCTURED), (meta_text, hide::STRUCTURED)]);
        let ld_row = |b: usize| ["structured", "struct_body", "struct_site", "struct_novel"].map(|n| f(b, n));
        let n = plain.len();
        assert_eq!(
            [ld_row(n), ld_row(n + 1), ld_row(n + 2)],
            [[1.0, 0.0, 1.0, 1.0], [1.0, 0.0, 0.0, 1.0], [1.0, 1.0, 0.0, 1.0]]
        );
        assert!((0..n).all(|b| ld_row(b).iter().all(|x| x.abs() < f32::EPSILON)));
        assert!(s.dom_units(n).is_empty() && s.group[n] == NO_GROUP);
        // No extractor that reads hidden text lets them in unless it asks for structured data.
        assert!(!HiddenText::All.admits(hide::STRUCTURED));
        assert!(Admit { hidden: HiddenText::None, structured: true }.admits(hide::STRUCTURED));
        assert!(!Admit { hidden: HiddenText::All, structured: false }.admits(hide::STRUCTURED));
        assert!(Admit { hidden: HiddenText::All, structured: false }.admits(hide::HIDDEN));
    }

    #[test]
    fn structural_features_see_regions_and_repeats() {
        let items: String = (0..5).map(|i| format!("<li class=item><a href=/{i}>link {i}</a></li>")).collect();
        let s = of(&format!(
            "<body><nav class=menu><ul>{items}</ul></nav><article><p>Some long text here. It has words.</p></article></body>"
        ));
        let f = |b: usize, name: &str| s.row(b)[FEATURES.iter().position(|(n, _)| *n == name).unwrap()];
        assert_eq!((f(0, "in_nav"), f(0, "link_ratio"), f(0, "neg_any")), (1.0, 1.0, 1.0));
        assert!(f(0, "path_repeat") > 0.0 && f(0, "sibling_repeat") > 0.0);
        let last = s.len() - 1;
        assert_eq!((f(last, "in_nav"), f(last, "in_article"), f(last, "ends_sentence")), (0.0, 1.0, 1.0));
        assert!(f(last, "path_repeat").abs() < 1e-9);
        assert!(f(last, "position") > 0.5);
    }

    #[test]
    fn a_product_grid_is_the_largest_group_of_priced_records_beside_facet_lists() {
        let facet = |name: &str| -> String {
            let items: String =
                (0..5).map(|i| format!("<li class=opt><a href=/f/{name}/{i}>{name} {i} (12)</a></li>")).collect();
            format!("<h4>Refine by {name}</h4><ul class=facet>{items}</ul>")
        };
        let cards: String = (0..12)
            .map(|i| {
                format!(
                    "<div class=card><img src=/p{i}.jpg><a href=/p/{i}>Walking boot model {i} in brown leather</a>\
                     <div class=price>$ {i}9.99</div></div>"
                )
            })
            .collect();
        let s = of(&format!(
            "<body><aside>{}{}{}</aside><main><h1>Boots</h1><div class=grid>{cards}</div></main></body>",
            facet("brand"),
            facet("size"),
            facet("colour")
        ));
        let f = |b: usize, name: &str| s.row(b)[FEATURES.iter().position(|(n, _)| *n == name).unwrap()];
        let find = |t: &str| (0..s.len()).find(|&b| s.texts.get(b).starts_with(t)).unwrap();
        let (name, price, option) = (find("Walking boot model 3"), find("$ 39.99"), find("size 2"));
        // A card's name and price belong to the cards' group (not to a three-line group of one
        // card): twelve records, each with a price and an image, the page's largest group.
        assert_eq!(s.group[name], s.group[price]);
        assert!(s.group[name] != NO_GROUP && s.group[option] != NO_GROUP && s.group[name] != s.group[option]);
        assert!((f(name, "grp_records") - (11f32).ln_1p() / 4.0).abs() < 1e-6);
        assert_eq!(
            (f(name, "grp_price"), f(name, "grp_img"), f(name, "grp_top"), f(name, "grp_rank")),
            (1.0, 1.0, 1.0, 1.0)
        );
        assert_eq!((f(name, "grp_first"), f(price, "grp_first")), (1.0, 0.0));
        // The name is the card's own text; the price sits one level down, in its own div.
        assert_eq!((f(name, "grp_level"), f(name, "grp_head_above")), (0.0, 1.0));
        assert!(f(price, "grp_level") > 0.0);
        // A facet option: a linked list of three of the same shape, no price, smaller.
        assert_eq!((f(option, "grp_price"), f(option, "grp_links")), (0.0, 1.0));
        assert!(f(option, "grp_twins") > 0.0 && f(name, "grp_twins") == 0.0);
        assert!(f(option, "grp_top") < 0.5 && f(option, "grp_rank") < 1.0);
        assert!(f(option, "grp_head_above") > 0.5 && f(option, "grp_even") > 0.8);
    }

    #[test]
    fn two_lists_of_one_shape_differ_in_size_and_rank() {
        let list = |n: usize, what: &str| -> String {
            let items: String = (0..n)
                .map(|i| {
                    format!(
                        "<li class=event><a href=/e/{i}>{what} night {i}</a><span>Sat 12 May, 8pm, the Hall</span></li>"
                    )
                })
                .collect();
            format!("<ul class=events>{items}</ul>")
        };
        let s = of(&format!(
            "<body><h2>Popular tickets</h2>{}<h1>Upcoming concerts</h1>{}</body>",
            list(4, "Teaser"),
            list(20, "Main")
        ));
        let f = |b: usize, name: &str| s.row(b)[FEATURES.iter().position(|(n, _)| *n == name).unwrap()];
        let find = |t: &str| (0..s.len()).find(|&b| s.texts.get(b).starts_with(t)).unwrap();
        let (teaser, main) = (find("Teaser night 1"), find("Main night 1"));
        assert!(s.group[teaser] != s.group[main]);
        // Each has a twin; the main one is the larger, ranked first.
        assert!(f(teaser, "grp_twins") > 0.0 && f(main, "grp_twins") > 0.0);
        assert_eq!((f(main, "grp_top"), f(main, "grp_rank"), f(teaser, "grp_rank")), (1.0, 1.0, 0.5));
        assert!((f(teaser, "grp_top") - 0.2).abs() < 1e-6);
        assert!(f(main, "grp_share") > 0.7 && f(teaser, "grp_share") < 0.2);
    }

    #[test]
    fn a_service_page_of_headed_sections_is_one_group_of_headed_records() {
        let sections: String = ["Planning", "Design", "Building", "Support"]
            .iter()
            .map(|h| {
                format!(
                    "<section class=service><h2>{h}</h2><p>We help with {h} from the first call to the end.</p>\
                     <p>Our team of experts has done {h} for years.</p></section>"
                )
            })
            .collect();
        let s = of(&format!("<body><nav><a href=/>Home</a></nav><div class=services>{sections}</div></body>"));
        let f = |b: usize, name: &str| s.row(b)[FEATURES.iter().position(|(n, _)| *n == name).unwrap()];
        let find = |t: &str| (0..s.len()).find(|&b| s.texts.get(b).starts_with(t)).unwrap();
        let (first, last, heading) =
            (find("We help with Planning"), find("Our team of experts has done Support"), find("Building"));
        // The four sections are one group, each record led by its heading.
        assert!(s.group[first] == s.group[last] && s.group[first] == s.group[heading] && s.group[first] != NO_GROUP);
        assert_eq!((f(first, "grp_heading"), f(heading, "grp_first"), f(first, "grp_first")), (1.0, 1.0, 0.0));
        assert!(f(first, "grp_share") > 0.9 && f(first, "grp_links") == 0.0);
        assert_eq!(s.group[find("Home")], NO_GROUP);
    }

    #[test]
    fn region_records_and_section_features_place_a_block() {
        let long = "word ".repeat(40);
        let cards: String =
            (0..3).map(|i| format!("<div class=card><h3>Item {i}</h3><p>A short teaser {i}.</p></div>")).collect();
        let s = of(&format!(
            "<body><nav><a href=/a>Home</a> <a href=/b>News</a></nav><h1>Title</h1>\
             <article><div><p>{long}</p><p>{long}</p></div></article>\
             <h2>Related</h2><div class=related>{cards}</div><footer>Contact us</footer></body>"
        ));
        let f = |b: usize, name: &str| s.row(b)[FEATURES.iter().position(|(n, _)| *n == name).unwrap()];
        let find = |t: &str| (0..s.len()).find(|&b| s.texts.get(b).starts_with(t)).unwrap();
        let (nav, title, body, teaser, footer) =
            (find("Home"), find("Title"), find("word"), find("A short"), find("Contact"));
        // The article's paragraphs are the candidate; the menu is before it, the footer after.
        assert_eq!((f(body, "cand_in"), f(body, "cand_before"), f(body, "cand_after")), (1.0, 0.0, 0.0));
        assert_eq!((f(nav, "cand_before"), f(footer, "cand_after")), (1.0, 1.0));
        assert!(f(footer, "cand_dist") > 0.0 && f(nav, "cand_dist") > 0.0 && f(body, "cand_dist") == 0.0);
        assert!(f(body, "cand_share") > 0.7);
        // Long runs: the menu comes before them all, the footer after them all.
        assert_eq!((f(nav, "long_before"), f(nav, "long_after")), (0.0, 1.0));
        assert_eq!((f(footer, "long_before"), f(footer, "long_after")), (1.0, 0.0));
        assert_eq!((f(nav, "h1_before"), f(title, "h1_before"), f(footer, "h1_before")), (0.0, 1.0, 1.0));
        // A teaser's parent is one of three cards of the same class: a repeated record.
        assert!(f(teaser, "rec_parent") > 0.0 && f(body, "rec_parent") == 0.0);
        // Sections: the teaser sits in an h3 section (a card heading) under the h2.
        assert!((f(teaser, "sec_level") - 3.0 / 6.0).abs() < 1e-6 && (f(body, "sec_level") - 1.0 / 6.0).abs() < 1e-6);
        assert!(f(body, "sec_share") > 0.8 && f(teaser, "sec_block_share") > 0.5);
        assert!(f(nav, "sec_level") == 0.0 && f(nav, "sec_links") > 0.9);
        // The context spans: a teaser's parent is its card (heading and teaser).
        assert_eq!(s.around[teaser][0], ((teaser - 1) as u32, teaser as u32));
    }

    #[test]
    fn an_empty_page_has_no_blocks() {
        assert!(of("").is_empty());
        assert!(of("<body>  <script>x</script></body>").is_empty());
    }

    #[test]
    fn tokens_split_camel_case_and_fold() {
        let mut t = Vec::new();
        tokens_of("mainNavigation side-bars ADS", |x| t.push(x.to_string()));
        assert_eq!(t, ["main", "nav", "side", "bar", "ad"]);
    }
}
