//! Output that keeps the page's structure: Markdown (CommonMark with GitHub tables) and a clean
//! HTML fragment of what a setting kept, and the page's metadata (`meta.rs`).
//!
//! The structure comes from the DOM elements the kept units sit in, never from the text: a
//! [`Selection`] of any view (source words, DOM text units, blocks) becomes a sequence of
//! pieces, each the view's unit text with the separator the plain text puts before it
//! ([`crate::document::Units::render`]: a space, a newline or nothing) and the DOM element it
//! is placed under (a source word under the element of the DOM unit that holds it, a block
//! under its first DOM unit's; a unit with no DOM place, such as a hidden block, under the
//! previous piece's). The elements on the way from `body` to each piece form a pruned tree of
//! the kept elements, which `markdown.rs` and `html.rs` write out. The pieces' texts and
//! separators are written as they are (escaped), so with the markup stripped the words of either
//! output are the words of the plain text, in order, whatever the family.
//!
//! Imports from the crate: `document` and `limits` (the default budgets of an HTML fragment
//! read for its text).

mod html;
mod markdown;
pub mod meta;

use crate::document::{Document, Needs, Selection, Tag, View, parse::NONE, sep};

/// What the structured outputs write beyond the kept elements' text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Links as links (`[text](href)`, `<a href>`); otherwise only their text.
    pub links: bool,
    /// Images inside kept blocks (`![alt](src)`, `<img src alt>`); otherwise none.
    pub images: bool,
}

/// What a page must be parsed with, beyond its extractor's needs, for the structured outputs:
/// the DOM and the elements' attributes. A source-view selection also needs the map from source
/// words to DOM units: [`Tree::build`] makes it from the source its extractor parsed, so a DOM
/// or block view (most families) never pays for a second reading of the page.
pub const NEEDS: Needs = Needs { dom: true, markup: true, ..Needs::NONE };

/// One kept unit of the selection's view.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Piece<'a> {
    /// The unit's text, as the plain text writes it.
    pub text: &'a str,
    /// The separator the plain text puts before it ([`sep`]; [`sep::GLUE`] for the first).
    pub sep: u8,
}

/// An item of the pruned tree: a kept element or a piece of text.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Item {
    /// An element ([`Tree::els`] index).
    El(usize),
    /// A piece ([`Tree::pieces`] index).
    Piece(usize),
}

/// A kept element: its DOM node and its kept children in order.
#[derive(Debug, Clone)]
pub(crate) struct El {
    pub node: u32,
    pub tag: Tag,
    pub children: Vec<Item>,
}

/// The kept elements of a page under a selection, with the pieces of text in them.
pub(crate) struct Tree<'a> {
    pub doc: &'a Document,
    pub pieces: Vec<Piece<'a>>,
    /// `els[0]` is the root (the page's body), holding everything kept.
    pub els: Vec<El>,
}

/// Elements above the content: never part of the kept tree.
fn is_top(t: Tag) -> bool {
    matches!(t.name(), "html" | "head" | "body")
}

impl<'a> Tree<'a> {
    /// The pruned tree of `sel` on `doc` (parsed with [`NEEDS`]), with images when asked for.
    pub fn build(doc: &'a Document, sel: &Selection, opts: Options) -> Tree<'a> {
        let units = doc.units(sel.view);
        let dom = &doc.dom;
        // Source view: each canonical word's first DOM unit.
        let word_unit = if sel.view == View::Source {
            let built;
            let map = if doc.words.is_built() {
                &doc.words
            } else {
                built = crate::document::WordMap::build(&dom.texts, &doc.source.words);
                &built
            };
            let mut inv = vec![NONE; doc.source.words.len()];
            for u in 0..dom.texts.len() {
                for &w in map.words_of(u) {
                    if let Some(slot) = inv.get_mut(w as usize)
                        && *slot == NONE
                    {
                        *slot = u as u32;
                    }
                }
            }
            inv
        } else {
            Vec::new()
        };
        let dom_unit = |k: u32| -> u32 {
            match sel.view {
                View::Dom => k,
                View::Source => word_unit.get(k as usize).copied().unwrap_or(NONE),
                View::Blocks => doc.segments.dom_units(k as usize).first().copied().unwrap_or(NONE),
            }
        };
        let text_node = |u: u32| -> u32 { dom.info.get(u as usize).map_or(NONE, |i| i.node) };
        let mut tree = Tree { doc, pieces: Vec::with_capacity(sel.units.len()), els: Vec::new() };
        tree.els.push(El { node: NONE, tag: Tag::OTHER, children: Vec::new() });
        // The open elements: (node, els index), the root first.
        let mut open: Vec<(u32, usize)> = vec![(NONE, 0)];
        let mut path: Vec<u32> = Vec::new();
        let (mut prev_k, mut prev_node) = (None::<u32>, NONE);
        for &k in &sel.units {
            let sep = match prev_k {
                None => sep::GLUE,
                Some(p) if units.line(p as usize) != units.line(k as usize) => sep::NEWLINE,
                Some(p) if k == p + 1 && units.glued(k as usize) => sep::GLUE,
                Some(_) => sep::SPACE,
            };
            prev_k = Some(k);
            let mut node = text_node(dom_unit(k));
            // Never back in the page, and a word continued across inline elements stays in
            // the block it started in.
            if node == NONE
                || (prev_node != NONE && node < prev_node)
                || (sep == sep::GLUE && prev_node != NONE && tree.block_of(node) != tree.block_of(prev_node))
            {
                node = prev_node;
            }
            if opts.images && prev_node != NONE && node != NONE && node > prev_node {
                tree.images_between(prev_node, node, &mut open, &mut path);
            }
            let parent = if node == NONE { NONE } else { dom.nodes[node as usize].parent };
            let at = tree.enter(parent, &mut open, &mut path);
            tree.pieces.push(Piece { text: units.get(k as usize), sep });
            tree.els[at].children.push(Item::Piece(tree.pieces.len() - 1));
            prev_node = node;
        }
        if opts.images && prev_node != NONE {
            // After the last piece: the images of its block and of the block around that (a
            // figure's picture after its caption).
            let block = tree.block_of(prev_node);
            let outer = if block == NONE { NONE } else { tree.block_of(dom.nodes[block as usize].parent) };
            let end = match (block, outer) {
                (NONE, _) => prev_node + 1,
                (b, NONE) => dom.nodes[b as usize].end,
                (_, o) => dom.nodes[o as usize].end,
            };
            tree.images_between(prev_node, end, &mut open, &mut path);
        }
        tree
    }

    /// The nearest block-level ancestor of `node` (or `node` itself), [`NONE`] when none
    /// below `body`.
    pub fn block_of(&self, mut node: u32) -> u32 {
        let nodes = &self.doc.dom.nodes;
        while node != NONE {
            let n = &nodes[node as usize];
            if is_top(n.tag) {
                return NONE;
            }
            if !n.is_text() && n.tag.is_block() {
                return node;
            }
            node = n.parent;
        }
        NONE
    }

    /// Opens the elements from the root to `parent` (closing those not on the way) and
    /// returns the index of `parent`'s kept element (the root for [`NONE`]).
    fn enter(&mut self, parent: u32, open: &mut Vec<(u32, usize)>, path: &mut Vec<u32>) -> usize {
        let nodes = &self.doc.dom.nodes;
        path.clear();
        let mut n = parent;
        while n != NONE && !is_top(nodes[n as usize].tag) {
            path.push(n);
            n = nodes[n as usize].parent;
        }
        path.reverse();
        let mut same = 0;
        while same < path.len() && same + 1 < open.len() && open[same + 1].0 == path[same] {
            same += 1;
        }
        open.truncate(same + 1);
        for &p in &path[same..] {
            let top = open.last().expect("the root stays open").1;
            self.els.push(El { node: p, tag: nodes[p as usize].tag, children: Vec::new() });
            let i = self.els.len() - 1;
            self.els[top].children.push(Item::El(i));
            open.push((p, i));
        }
        open.last().expect("the root stays open").1
    }

    /// Adds the images after node `from` and before node `to` whose block holds `from` or `to`
    /// (a picture in a kept paragraph, or beside a kept caption in its figure).
    fn images_between(&mut self, from: u32, to: u32, open: &mut Vec<(u32, usize)>, path: &mut Vec<u32>) {
        let img = crate::document::tags::tag("img");
        let nodes = &self.doc.dom.nodes;
        let (bf, bt) = (self.block_of(from), self.block_of(to.min(nodes.len() as u32 - 1)));
        let inside = |b: u32, n: u32| b != NONE && b <= n && n < nodes[b as usize].end;
        for i in from + 1..to.min(nodes.len() as u32) {
            if nodes[i as usize].tag != img || self.doc.dom.markup_of(i).and_then(|m| m.src.as_ref()).is_none() {
                continue;
            }
            let b = self.block_of(i);
            let holds = |x: u32| b != NONE && inside(b, x);
            if !(holds(from) || holds(to) || (b == bf && bf != NONE) || (b == bt && bt != NONE)) {
                continue;
            }
            let at = self.enter(nodes[i as usize].parent, open, path);
            self.els.push(El { node: i, tag: img, children: Vec::new() });
            let k = self.els.len() - 1;
            self.els[at].children.push(Item::El(k));
        }
    }

    /// True when the kept subtree of element `e` holds a block-level element.
    pub fn has_block(&self, e: usize) -> bool {
        self.els[e].children.iter().any(|c| match *c {
            Item::El(k) => self.els[k].tag.is_block() || self.has_block(k),
            Item::Piece(_) => false,
        })
    }
}

/// The Markdown of what `sel` keeps of `doc` (parsed with [`NEEDS`]).
pub fn markdown(doc: &Document, sel: &Selection, opts: Options) -> String {
    markdown::render(&Tree::build(doc, sel, opts), opts)
}

/// The clean HTML fragment of what `sel` keeps of `doc` (parsed with [`NEEDS`]).
pub fn html(doc: &Document, sel: &Selection, opts: Options) -> String {
    html::render(&Tree::build(doc, sel, opts), opts)
}

/// Which structured outputs a collection run writes for each page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Layout {
    /// The Markdown.
    pub markdown: bool,
    /// The clean HTML fragment.
    pub html: bool,
    /// The page's metadata ([`meta::read`]).
    pub metadata: bool,
    /// Links and images.
    pub opts: Options,
}

impl Layout {
    /// True when any structured output is asked for.
    pub fn any(&self) -> bool {
        self.markdown || self.html
    }

    /// What a page must be parsed with for these outputs (the HTML itself is kept for the
    /// metadata when the page is read from a gold set).
    pub fn needs(&self) -> Needs {
        match (self.any(), self.metadata) {
            (true, true) => NEEDS | Needs::HTML,
            (true, false) => NEEDS,
            (false, true) => Needs::HTML,
            (false, false) => Needs::NONE,
        }
    }
}

/// A link's or image's URL when it is safe to write: not a script (`javascript:`, `vbscript:`,
/// `data:` other than images), not empty.
pub(crate) fn safe_url(u: &str, image: bool) -> Option<&str> {
    let u = u.trim();
    let lower: String = u.chars().take(12).filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
    let bad = lower.starts_with("javascript:")
        || lower.starts_with("vbscript:")
        || (lower.starts_with("data:") && !(image && lower.starts_with("data:image")));
    (!u.is_empty() && !bad).then_some(u)
}

#[cfg(test)]
mod tests;
