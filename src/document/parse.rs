//! The DOM view: html5ever (through `scraper`, used only here) parses the page as a browser
//! would; the tree is flattened into a pre-order array of elements and rendered text nodes.
//! The walk is iterative, so deeply nested pages cannot overflow the stack. The page is fed to
//! the parser in chunks, so a parse-time budget can stop it between two.

use super::facts::{Build, Shared, Visitor};
use super::needs::Needs;
use super::tags::{Tag, VOID, tag};
use super::{Units, sep};
use scraper::Html;
use scraper::node::Node as HNode;

/// Marks "no text unit" / "no parent".
pub const NONE: u32 = u32::MAX;

/// One element or text node of the flattened tree, in pre-order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    /// The element's tag (`Tag::OTHER` for text nodes and unknown elements).
    pub tag: Tag,
    /// Index of the parent node ([`NONE`] for the root).
    pub parent: u32,
    /// One past the last node of this node's subtree (pre-order), so the subtree is `i..end`.
    pub end: u32,
    /// The text unit of a text node, [`NONE`] for elements.
    pub text: u32,
    /// For `a` elements: it has an `href` attribute.
    pub href: bool,
}

impl Node {
    /// True for text nodes.
    pub fn is_text(&self) -> bool {
        self.text != NONE
    }
}

/// Per text unit facts, parameter independent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextInfo {
    /// The text node's index in [`Dom::nodes`].
    pub node: u32,
    /// Non-whitespace characters.
    pub chars: u32,
    /// Inside any `a` element.
    pub in_a: bool,
    /// Inside an `a` element with `href`.
    pub in_href: bool,
    /// Text block (segment) number: increases at every start or end tag of a block-level
    /// element and at a second consecutive `<br>` (the stop-word filter's blocks).
    pub segment: u32,
    /// The nearest block-level ancestor other than `body` (its index in [`Dom::nodes`]), or
    /// [`NONE`]: the block whose link quota LQF measures.
    pub block: u32,
}

/// The flattened, rendered DOM.
#[derive(Debug, Clone, Default)]
pub struct Dom {
    /// Elements and text nodes in pre-order; node 0 is the document root.
    pub nodes: Vec<Node>,
    /// Text units (whitespace-collapsed, trimmed text of each rendered text node).
    pub texts: Units,
    /// Facts per text unit.
    pub info: Vec<TextInfo>,
    /// Index of the `body` element (0 when absent).
    pub body: u32,
    /// The structured outputs' attributes of the elements that have some ([`NodeMarkup`]), by
    /// node index, increasing; kept only when [`Needs::markup`] asks for them (else empty).
    pub markup: Vec<(u32, NodeMarkup)>,
}

/// What the structured outputs (Markdown, HTML) read of an element besides its tag: only the
/// attributes they render or need to lay out a table or a list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeMarkup {
    /// A link's `href`.
    pub href: Option<String>,
    /// An image's `src`.
    pub src: Option<String>,
    /// An image's `alt`.
    pub alt: Option<String>,
    /// The language of `pre` or `code`, from a class `language-xxx` or `lang-xxx`.
    pub lang: Option<String>,
    /// A table cell's `colspan` (0 or 1 when absent or not a number; at most 1,000).
    pub colspan: u16,
    /// An ordered list's `start`.
    pub start: Option<u32>,
}

impl NodeMarkup {
    /// The attributes of element `name` that the structured outputs read, or `None` when it has
    /// none of them.
    fn of(name: &str, attr: &dyn Fn(&str) -> Option<String>) -> Option<NodeMarkup> {
        let m = match name {
            "a" => NodeMarkup { href: attr("href").map(|h| h.trim().to_string()), ..Default::default() },
            "img" => NodeMarkup {
                src: attr("src").map(|s| s.trim().to_string()),
                alt: attr("alt").map(|a| a.split_whitespace().collect::<Vec<_>>().join(" ")),
                ..Default::default()
            },
            "pre" | "code" => NodeMarkup {
                lang: attr("class").and_then(|c| {
                    c.split_whitespace().find_map(|k| {
                        let k = k.strip_prefix("language-").or_else(|| k.strip_prefix("lang-"))?;
                        let ok = !k.is_empty() && k.len() <= 32;
                        ok.then(|| k.chars().filter(|c| c.is_alphanumeric() || "+-#._".contains(*c)).collect())
                    })
                }),
                ..Default::default()
            },
            "td" | "th" => NodeMarkup {
                colspan: attr("colspan").and_then(|c| c.trim().parse::<u16>().ok()).map_or(1, |c| c.clamp(1, 1000)),
                ..Default::default()
            },
            "ol" => NodeMarkup { start: attr("start").and_then(|s| s.trim().parse().ok()), ..Default::default() },
            _ => return None,
        };
        let any = m.href.is_some() || m.src.is_some() || m.lang.is_some() || m.colspan > 1 || m.start.is_some();
        any.then_some(m)
    }
}

impl Dom {
    /// The structured outputs' attributes of node `i` (none when it has none, or when the page
    /// was parsed without [`Needs::markup`]).
    pub fn markup_of(&self, i: u32) -> Option<&NodeMarkup> {
        self.markup.binary_search_by_key(&i, |(n, _)| *n).ok().map(|k| &self.markup[k].1)
    }

    /// Text unit indices inside the subtree of node `i`.
    pub fn units_in(&self, i: usize) -> impl Iterator<Item = u32> + '_ {
        self.nodes[i..self.nodes[i].end as usize].iter().filter(|n| n.is_text()).map(|n| n.text)
    }

    /// The walk's start tags, text nodes and end tags again, in the order the walk met them,
    /// from what the flattened tree keeps: node 0 (the document root) is no element; every
    /// other node opens in pre-order and closes before the first node past its subtree,
    /// innermost first (the elements still open after the last node close last). What a fact
    /// built after the walk reads instead of a visitor of its own.
    pub fn replay(&self, mut step: impl FnMut(Step)) {
        let mut open: Vec<usize> = Vec::new();
        for (i, n) in self.nodes.iter().enumerate().skip(1) {
            while let Some(&o) = open.last()
                && self.nodes[o].end as usize <= i
            {
                open.pop();
                step(Step::Close(o));
            }
            if n.is_text() {
                step(Step::Text(i));
            } else {
                step(Step::Open(i));
                open.push(i);
            }
        }
        while let Some(o) = open.pop() {
            step(Step::Close(o));
        }
    }
}

/// One step of [`Dom::replay`]: a node index of [`Dom::nodes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// An element's start tag.
    Open(usize),
    /// A text node.
    Text(usize),
    /// An element's end tag.
    Close(usize),
}

fn skipped(el: &scraper::node::Element) -> bool {
    super::hidden::never_text(el.name(), |a| attr(el, a))
}

/// The value of the attribute `name` without namespace or prefix (what `Element::attr` finds),
/// by a scan of the element's few attributes: `Element::attr` interns `name` on every call.
fn attr<'a>(el: &'a scraper::node::Element, name: &str) -> Option<&'a str> {
    el.attrs.iter().find(|(k, _)| k.prefix.is_none() && k.ns.is_empty() && &*k.local == name).map(|(_, v)| &**v)
}

/// Collapses whitespace runs to one space and trims.
fn collapse(s: &str, out: &mut String) {
    out.clear();
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
}

pub use super::budget::{MAX_DEPTH, limit_depth};

/// The first of `node` and its ancestors that is a block-level element other than `body`.
fn block_ancestor(nodes: &[Node], mut node: u32) -> u32 {
    while node != NONE {
        let n = &nodes[node as usize];
        if !n.is_text() && n.tag.is_block() && n.tag.name() != "body" {
            return node;
        }
        node = n.parent;
    }
    NONE
}

/// Parses a page into the flattened DOM.
pub fn parse(html: &str) -> Dom {
    parse_within(html, None).0
}

/// Bytes handed to the HTML parser at a time, between two looks at the clock.
const CHUNK: usize = 1 << 16;

/// Parses a page into the flattened DOM, handing the parser no more of the page once
/// `deadline` has passed; then also returns how many bytes (of the depth-limited page) it read.
pub fn parse_within(html: &str, deadline: Option<std::time::Instant>) -> (Dom, Option<usize>) {
    let (doc, cut) = tree_within(&limit_depth(html), deadline);
    (flatten(&doc, Needs::ALL, &mut []), cut)
}

/// [`parse_within`] plus the block view of the same tree: every fact ([`parse_for`]).
pub fn parse_full(html: &str, deadline: Option<std::time::Instant>) -> (Dom, super::segments::Segments, Option<usize>) {
    parse_for(&limit_depth(html), deadline, Needs::ALL)
}

/// [`parse_within`] building only the facts of `needs` (already completed), with the block view
/// when needed ([`views`]). `html` is within its budgets already ([`super::budget::apply`], which
/// limits the depth too), so it is not scanned again here.
pub fn parse_for(
    html: &str,
    deadline: Option<std::time::Instant>,
    needs: Needs,
) -> (Dom, super::segments::Segments, Option<usize>) {
    let (tree, cut) = tree(html, deadline);
    let (dom, segments, _) = views(&tree, needs);
    (dom, segments, cut)
}

/// A page's parsed HTML tree, from which [`views`] builds the DOM and block views (for several
/// needs, it is parsed once).
pub struct Tree(Html);

/// The tree of a page within its budgets already (as [`parse_for`]), fed to the parser until
/// `deadline`; with the bytes read when cut.
pub fn tree(html: &str, deadline: Option<std::time::Instant>) -> (Tree, Option<usize>) {
    let (doc, cut) = tree_within(html, deadline);
    (Tree(doc), cut)
}

/// The DOM view of a tree with the facts of `needs` (already completed): the families' facts
/// built in the walk ([`Build::Walk`]) are returned, and the block view ([`super::segments`], hidden
/// text included and flagged, `<noscript>` parsed as with scripts off) is walked only when
/// needed (empty otherwise).
pub fn views(tree: &Tree, needs: Needs) -> (Dom, super::segments::Segments, Vec<Shared>) {
    let segments = if needs.segments {
        let mut b = super::segments::Builder::new(needs.structured);
        walk_all(tree.0.tree.root(), &mut b, 0);
        b.finish()
    } else {
        Default::default()
    };
    let mut visitors: Vec<Box<dyn Visitor>> = needs
        .facts
        .iter()
        .filter_map(|f| match f.build {
            Build::Walk(start) => Some(start()),
            Build::After(_) => None,
        })
        .collect();
    let dom = flatten(&tree.0, needs, &mut visitors);
    let facts = visitors.into_iter().map(|v| v.finish(&dom)).collect();
    (dom, segments, facts)
}

/// How deep `<noscript>` fragments are parsed inside each other.
const MAX_NOSCRIPT_NESTING: u32 = 2;

/// Every element and text node of a tree (hidden ones too) as events for the block builder;
/// the raw text of a `<noscript>` (scripts on, the tree builder leaves it text) is parsed as an
/// HTML fragment and walked in its place.
fn walk_all(root: ego_tree::NodeRef<'_, HNode>, b: &mut super::segments::Builder, nesting: u32) {
    for edge in root.traverse() {
        match edge {
            ego_tree::iter::Edge::Open(n) => match n.value() {
                HNode::Element(el) => b.open(el.name(), &|a| attr(el, a)),
                HNode::Text(t) => {
                    let in_noscript = n
                        .parent()
                        .and_then(|p| p.value().as_element().map(|e| e.name().eq_ignore_ascii_case("noscript")))
                        .unwrap_or(false);
                    if in_noscript && t.contains('<') && nesting < MAX_NOSCRIPT_NESTING {
                        let frag = Html::parse_fragment(t);
                        walk_all(frag.tree.root(), b, nesting + 1);
                    } else {
                        b.text(t);
                    }
                }
                _ => {}
            },
            ego_tree::iter::Edge::Close(n) => {
                if n.value().is_element() {
                    b.close();
                }
            }
        }
    }
}

/// The html5ever tree of a page (depth-limited already), fed in chunks until `deadline`; with
/// the bytes read when cut.
fn tree_within(html: &str, deadline: Option<std::time::Instant>) -> (Html, Option<usize>) {
    use html5ever::tendril::TendrilSink;
    let mut parser =
        html5ever::driver::parse_document(scraper::HtmlTreeSink::new(Html::new_document()), Default::default());
    let (mut from, mut cut) = (0, None);
    while from < html.len() {
        if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            cut = Some(from);
            break;
        }
        let mut to = (from + CHUNK).min(html.len());
        while !html.is_char_boundary(to) {
            to += 1;
        }
        parser.process(html[from..to].into());
        from = to;
    }
    (parser.finish(), cut)
}

/// The flattened DOM of a parsed page, with the per-node and per-unit facts of `needs`
/// (the element attributes `needs` asks for); `visitors` see every node flattened, in order.
fn flatten(doc: &Html, needs: Needs, visitors: &mut [Box<dyn Visitor>]) -> Dom {
    // The visitors' element positions (`Visitor::element`): element children seen so far of
    // each open element of the parsed tree (hidden ones counted; a counter per open element, so
    // 360,000 siblings cost no more than one pass).
    let want_positions = !visitors.is_empty();
    let want_markup = needs.markup;
    let mut dom = Dom::default();
    let mut seen: Vec<u32> = vec![0];
    let mut stack: Vec<u32> = Vec::new(); // open flattened elements
    let mut a_href: Vec<bool> = Vec::new(); // open <a> elements: has href
    let mut skip: Option<ego_tree::NodeId> = None;
    let mut pending = 0u8;
    // The last text node ended inside a word: the next one, if it starts with a letter and no
    // block, `<br>` or spaced element comes between, continues that word (`<b>bold</b>word`).
    let mut glue = false;
    let mut segment = 0u32;
    let mut br_run = false;
    let mut buf = String::new();
    let (br, body) = (tag("br"), tag("body"));
    for edge in doc.tree.root().traverse() {
        let position = match edge {
            ego_tree::iter::Edge::Open(n) if want_positions && n.value().is_element() => {
                let top = seen.last_mut().expect("the root is open");
                *top += 1;
                let p = *top - 1;
                seen.push(0);
                p
            }
            ego_tree::iter::Edge::Close(n) if want_positions && n.value().is_element() => {
                seen.pop();
                0
            }
            _ => 0,
        };
        match edge {
            ego_tree::iter::Edge::Open(n) => {
                if skip.is_some() {
                    continue;
                }
                match n.value() {
                    HNode::Document | HNode::Fragment => {
                        dom.nodes.push(Node { tag: Tag::OTHER, parent: NONE, end: 0, text: NONE, href: false });
                        visitors.iter_mut().for_each(|v| v.other());
                        stack.push(0);
                    }
                    HNode::Element(el) => {
                        if skipped(el) {
                            skip = Some(n.id());
                            continue;
                        }
                        let t = Tag::from_any_case(el.name());
                        let href = t.is_anchor() && attr(el, "href").is_some();
                        if t.is_anchor() {
                            a_href.push(href);
                        }
                        if t.is_block() {
                            pending = sep::NEWLINE;
                            segment += 1;
                            br_run = false;
                        } else if t == br {
                            pending = sep::NEWLINE;
                            if br_run {
                                segment += 1;
                            }
                            br_run = true;
                        } else if t.is_spaced() {
                            pending = pending.max(sep::SPACE);
                        }
                        if t == body && dom.body == 0 {
                            dom.body = dom.nodes.len() as u32;
                        }
                        let parent = stack.last().copied().unwrap_or(NONE);
                        dom.nodes.push(Node { tag: t, parent, end: 0, text: NONE, href });
                        visitors.iter_mut().for_each(|v| v.element(el.name(), position, &mut el.attrs()));
                        if want_markup && let Some(m) = NodeMarkup::of(t.name(), &|a| attr(el, a).map(str::to_string)) {
                            dom.markup.push(((dom.nodes.len() - 1) as u32, m));
                        }
                        stack.push((dom.nodes.len() - 1) as u32);
                    }
                    HNode::Text(txt) => {
                        collapse(txt, &mut buf);
                        if buf.is_empty() {
                            glue &= txt.is_empty();
                            continue;
                        }
                        let sep = if glue && pending == 0 && !txt.starts_with(char::is_whitespace) {
                            sep::GLUE
                        } else {
                            pending.max(sep::SPACE)
                        };
                        glue = !txt.ends_with(char::is_whitespace);
                        br_run = false;
                        let unit = dom.texts.push(&buf, sep);
                        pending = 0;
                        let parent = stack.last().copied().unwrap_or(NONE);
                        let node = dom.nodes.len() as u32;
                        dom.nodes.push(Node { tag: Tag::OTHER, parent, end: node + 1, text: unit, href: false });
                        visitors.iter_mut().for_each(|v| v.other());
                        dom.info.push(TextInfo {
                            node,
                            chars: buf.chars().filter(|c| *c != ' ').count() as u32,
                            in_a: !a_href.is_empty(),
                            in_href: a_href.iter().any(|h| *h),
                            segment,
                            block: block_ancestor(&dom.nodes, parent),
                        });
                    }
                    _ => {}
                }
            }
            ego_tree::iter::Edge::Close(n) => {
                if let Some(id) = skip {
                    if id == n.id() {
                        skip = None;
                    }
                    continue;
                }
                match n.value() {
                    HNode::Element(_) => {
                        // The element's own flattened node is the innermost open one.
                        let t = stack.last().map_or(Tag::OTHER, |&i| dom.nodes[i as usize].tag);
                        if t.is_anchor() {
                            a_href.pop();
                        }
                        if t.is_block() {
                            pending = sep::NEWLINE;
                            segment += 1;
                            br_run = false;
                        }
                        if let Some(i) = stack.pop() {
                            dom.nodes[i as usize].end = dom.nodes.len() as u32;
                        }
                    }
                    HNode::Document | HNode::Fragment => {
                        if let Some(i) = stack.pop() {
                            dom.nodes[i as usize].end = dom.nodes.len() as u32;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    dom
}

/// Elements a marked-up page leaves out with their content: code, and what could navigate or
/// reframe the page (`meta` refresh, `base`).
const MARK_DROPPED: &[&str] = &["script", "base", "frame", "frameset", "iframe", "object", "embed", "applet"];

/// Escapes text (`attr`: also quotes) for HTML output.
fn escape_into(s: &str, attr: bool, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' if !attr => out.push_str("&lt;"),
            '>' if !attr => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            '\u{a0}' => out.push_str("&nbsp;"),
            c => out.push(c),
        }
    }
}

/// The page re-serialised with every rendered text node (each text unit of [`parse`], in the
/// same order) wrapped in `<span data-u="K">`, K being the unit's index; `wrap(K)` may add
/// attributes to that span (returned as ` name="value"` text). Scripts, `meta http-equiv`,
/// `base`, frames and embedded objects are left out; the rest is kept as parsed (comments
/// dropped). For showing a page with its text units addressable from outside (annotation).
pub fn marked(html: &str, wrap: &dyn Fn(u32) -> String) -> String {
    use html5ever::tendril::TendrilSink;
    let html = limit_depth(html);
    let doc = html5ever::driver::parse_document(scraper::HtmlTreeSink::new(Html::new_document()), Default::default())
        .one(html.as_ref());
    let mut out = String::with_capacity(html.len() + html.len() / 4);
    out.push_str("<!DOCTYPE html>");
    // `skip`: a subtree whose text is never text (copied without spans); `drop`: left out.
    let (mut skip, mut drop): (Option<ego_tree::NodeId>, Option<ego_tree::NodeId>) = (None, None);
    let mut raw = 0u32; // open raw-text elements (style, textarea, ...): no markup inside
    let mut unit = 0u32;
    let mut buf = String::new();
    for edge in doc.tree.root().traverse() {
        match edge {
            ego_tree::iter::Edge::Open(n) => {
                if drop.is_some() {
                    continue;
                }
                match n.value() {
                    HNode::Element(el) => {
                        let name = el.name();
                        let lower = name.to_ascii_lowercase();
                        if MARK_DROPPED.contains(&lower.as_str())
                            || (lower == "meta" && el.attr("http-equiv").is_some())
                        {
                            drop = Some(n.id());
                            continue;
                        }
                        if skip.is_none() && skipped(el) {
                            skip = Some(n.id());
                        }
                        out.push('<');
                        out.push_str(name);
                        for (k, v) in el.attrs() {
                            if k.to_ascii_lowercase().starts_with("on") {
                                continue;
                            }
                            out.push(' ');
                            out.push_str(k);
                            out.push_str("=\"");
                            escape_into(v, true, &mut out);
                            out.push('"');
                        }
                        out.push('>');
                        if matches!(lower.as_str(), "style" | "textarea" | "title" | "xmp" | "plaintext" | "noscript") {
                            raw += 1;
                        }
                    }
                    HNode::Text(txt) => {
                        if raw > 0 && skip.is_some() {
                            // style content: verbatim (escaping would break the CSS).
                            let in_style = n.parent().and_then(|p| p.value().as_element()).is_some_and(|e| {
                                e.name().eq_ignore_ascii_case("style") || e.name().eq_ignore_ascii_case("noscript")
                            });
                            if in_style {
                                out.push_str(&txt.replace("</", "<\\/"));
                            } else {
                                escape_into(txt, false, &mut out);
                            }
                            continue;
                        }
                        collapse(txt, &mut buf);
                        if skip.is_some() || buf.is_empty() {
                            escape_into(txt, false, &mut out);
                            continue;
                        }
                        if raw > 0 {
                            // A text unit inside a textarea: no span can go there.
                            escape_into(txt, false, &mut out);
                        } else {
                            out.push_str(&format!("<span data-u=\"{unit}\"{}>", wrap(unit)));
                            escape_into(txt, false, &mut out);
                            out.push_str("</span>");
                        }
                        unit += 1;
                    }
                    _ => {}
                }
            }
            ego_tree::iter::Edge::Close(n) => {
                if let Some(id) = drop {
                    if id == n.id() {
                        drop = None;
                    }
                    continue;
                }
                if let HNode::Element(el) = n.value() {
                    let lower = el.name().to_ascii_lowercase();
                    if matches!(lower.as_str(), "style" | "textarea" | "title" | "xmp" | "plaintext" | "noscript") {
                        raw = raw.saturating_sub(1);
                    }
                    if !VOID.contains(&lower.as_str()) {
                        out.push_str("</");
                        out.push_str(el.name());
                        out.push('>');
                    }
                }
                if skip == Some(n.id()) {
                    skip = None;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::lang::detect_language;

    #[test]
    fn the_replay_gives_start_tags_texts_and_end_tags_in_the_walks_order() {
        let dom = parse("<body><p>one<b>two</b></p>three</body>");
        let mut seen = Vec::new();
        dom.replay(|s| {
            seen.push(match s {
                Step::Open(i) => format!("<{}>", dom.nodes[i].tag.name()),
                Step::Close(i) => format!("</{}>", dom.nodes[i].tag.name()),
                Step::Text(i) => dom.texts.get(dom.nodes[i].text as usize).to_string(),
            })
        });
        // (`head` holds no rendered text and is not flattened.)
        let want = "<html> <body> <p> one <b> two </b> </p> three </body> </html>";
        assert_eq!(seen.join(" "), want);
    }

    #[test]
    fn the_marked_page_wraps_exactly_the_text_units_in_order() {
        let page = "<html><head><title>T</title><style>p>b{color:red}</style><script>x()</script>\
                    <meta http-equiv=refresh content=0></head><body onload=x()><p>One <b>two</b></p>\
                    <div hidden>gone</div><ul><li>three &amp; four</li></ul></body></html>";
        let dom = parse(page);
        let m = marked(page, &|u| format!(" data-b=\"{}\"", u * 10));
        assert!(!m.contains("<script") && !m.contains("refresh") && !m.contains("onload"), "{m}");
        assert!(m.contains("p>b{color:red}"), "style kept verbatim: {m}");
        assert!(m.contains("<div hidden=\"\">gone</div>"), "{m}");
        for u in 0..dom.texts.len() {
            let at = m.find(&format!("data-u=\"{u}\" data-b=\"{}\">", u * 10)).unwrap();
            let rest = &m[at..];
            let text = &rest[rest.find('>').unwrap() + 1..rest.find("</span>").unwrap()];
            assert_eq!(text.replace("&amp;", "&").trim(), dom.texts.get(u));
        }
        assert!(!m.contains(&format!("data-u=\"{}\"", dom.texts.len())));
    }

    #[test]
    fn flattens_rendered_text_with_link_flags() {
        let d = parse(
            "<html><head><title>T</title></head><body><div><p>Hello <a href=x>link</a> <a>anchor</a></p>\
             <script>x=1</script><noscript>n</noscript><template>t</template><input type=hidden value=v>\
             <div hidden>secret</div><ul><li>one</li></ul></div></body></html>",
        );
        let texts: Vec<&str> = (0..d.texts.len()).map(|i| d.texts.get(i)).collect();
        assert_eq!(texts, ["Hello", "link", "anchor", "one"]);
        assert!(d.info[1].in_href && d.info[1].in_a);
        assert!(!d.info[2].in_href && d.info[2].in_a);
        assert!(!d.info[0].in_a);
        assert_eq!(d.texts.render(&[0, 1, 2, 3]), "Hello link anchor\none");
        // Subtree ranges: the outer div holds every text node.
        let div = d.nodes.iter().position(|n| n.tag == tag("div")).unwrap();
        assert_eq!(d.units_in(div).count(), 4);
        assert_eq!(d.nodes[d.body as usize].tag, tag("body"));
    }

    #[test]
    fn segments_split_at_blocks_and_double_br() {
        let d = parse("<body><p>a <b>b</b></p>c<br>d<br><br>e</body>");
        let seg: Vec<u32> = d.info.iter().map(|i| i.segment).collect();
        assert_eq!(seg[0], seg[1]);
        assert_ne!(seg[1], seg[2]);
        assert_eq!(seg[2], seg[3]);
        assert_ne!(seg[3], seg[4]);
    }

    #[test]
    fn deep_nesting_is_capped_and_keeps_the_text() {
        let html = "<div>".repeat(5_000) + "deep" + &"</div>".repeat(5_000) + "<p>after</p>";
        let d = parse(&html);
        assert_eq!(d.texts.len(), 2);
        assert_eq!(d.texts.get(0), "deep");
        let limited = limit_depth(&html);
        assert_eq!(limited.matches("<div>").count(), MAX_DEPTH);
        assert_eq!(limited.matches("</div>").count(), MAX_DEPTH);
        // Shallow pages are passed through untouched.
        assert!(matches!(limit_depth("<div><p>x</p></div>"), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn raw_text_elements_do_not_make_the_depth_scan_quadratic() {
        // Each <style> copied the rest of the page to lower-case it: 200,000 of them never ended.
        let html = "<style>a</STYLE>".repeat(200_000);
        assert!(matches!(limit_depth(&html), std::borrow::Cow::Borrowed(_)));
        let mut n = 0;
        super::super::budget::tags(html.as_bytes(), usize::MAX, |_| n += 1);
        assert_eq!(n, 400_000);
    }

    #[test]
    fn attr_finds_what_element_attr_finds() {
        let page = "<body><p hidden style='display:none' HREF=y>a</p><svg xmlns:xlink='http://www.w3.org/1999/xlink'>\
                    <a xlink:href=x href=z>t</a><use xlink:href=#q/></svg><math><mi xml:lang=en type=hidden>m</mi></math>\
                    <input TYPE=Hidden><a href>l</a></body>";
        let doc = Html::parse_document(page);
        let mut n = 0;
        for node in doc.tree.nodes() {
            if let HNode::Element(el) = node.value() {
                for name in ["hidden", "style", "href", "type", "lang", "xlink:href", "HREF", "x"] {
                    assert_eq!(attr(el, name), el.attr(name), "{} {name}", el.name());
                    n += usize::from(el.attr(name).is_some());
                }
            }
        }
        assert!(n >= 7, "{n}");
    }

    #[test]
    fn detects_german() {
        let d = parse(
            "<p>Die Bundesregierung hat am Mittwoch beschlossen, dass die neuen Regeln für alle Bürger ab dem nächsten Jahr gelten sollen.</p>",
        );
        assert_eq!(detect_language(&d).as_deref(), Some("de"));
    }

    #[test]
    fn language_comes_from_the_prose_not_the_menu_that_opens_the_page() {
        let menu: String = ["Home", "About us", "Shop", "Contact", "Login", "Cart", "News", "Jobs", "Help", "Search"]
            .iter()
            .cycle()
            .take(800)
            .map(|w| format!("<li><a href=/x>{w}</a></li>"))
            .collect();
        let d = parse(&format!(
            "<body><ul>{menu}</ul><p>Die Bundesregierung hat am Mittwoch beschlossen, dass die neuen Regeln für alle Bürger ab dem nächsten Jahr gelten sollen, obwohl viele Verbände noch Bedenken haben.</p></body>"
        ));
        assert_eq!(detect_language(&d).as_deref(), Some("de"));
    }
}
