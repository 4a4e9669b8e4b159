//! The pruned tree as a clean HTML fragment: the kept elements with their tag names and no
//! attributes but a link's `href` and an image's `src` and `alt` (when asked for) and a table
//! cell's `colspan` (without which a table's columns are lost); scripts and styles never reach
//! the tree, and presentational or interactive wrappers (`font`, `center`, forms and their
//! controls, embedded objects, unknown elements) are left out with their text kept. Each piece is
//! written after its separator (a space, a newline or nothing), so the fragment's text content
//! is the plain text itself. A block element's end tag is followed by a newline.

use super::{Item, Options, Tree, safe_url};
use crate::document::sep;

/// Elements written as their content only.
const UNWRAPPED: &[&str] = &[
    "", "font", "center", "form", "fieldset", "legend", "label", "button", "select", "option", "optgroup", "input",
    "textarea", "iframe", "object", "embed", "applet", "noscript", "svg", "canvas", "video", "audio", "template",
    "map", "area", "frame", "frameset", "noframes", "nobr", "basefont", "bgsound", "dialog", "search", "picture",
    "data", "meter", "progress", "output", "datalist",
];

/// Writes the tree.
pub(crate) fn render(tree: &Tree<'_>, opts: Options) -> String {
    let mut out = String::new();
    let mut w = State { started: false, hoisted: None };
    write(tree, &tree.els[0].children, opts, &mut w, &mut out);
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Where the writing is: whether a piece was written, and the piece whose separator was
/// written before the start tags that open it.
struct State {
    started: bool,
    hoisted: Option<usize>,
}

/// The first piece below `items`.
fn first_piece(tree: &Tree<'_>, items: &[Item]) -> Option<usize> {
    items.iter().find_map(|i| match *i {
        Item::Piece(p) => Some(p),
        Item::El(e) => first_piece(tree, &tree.els[e].children),
    })
}

/// Writes piece `p`'s separator (none before the first piece, none where a newline ends the
/// output already).
fn separator(tree: &Tree<'_>, p: usize, w: &State, out: &mut String) {
    if !w.started {
        return;
    }
    match tree.pieces[p].sep {
        sep::GLUE => {}
        _ if out.ends_with('\n') => {}
        sep::NEWLINE => out.push('\n'),
        _ => out.push(' '),
    }
}

fn write(tree: &Tree<'_>, items: &[Item], opts: Options, w: &mut State, out: &mut String) {
    for item in items {
        match *item {
            Item::Piece(p) => {
                if w.hoisted.take() != Some(p) {
                    separator(tree, p, w, out);
                }
                w.started = true;
                escape(tree.pieces[p].text, false, out);
            }
            Item::El(e) => {
                let el = &tree.els[e];
                let name = el.tag.name();
                let markup = tree.doc.dom.markup_of(el.node);
                if name == "img" {
                    if let Some(src) = markup.and_then(|m| m.src.as_deref()).and_then(|s| safe_url(s, true)) {
                        out.push_str("<img src=\"");
                        escape(src, true, out);
                        out.push_str("\" alt=\"");
                        escape(markup.and_then(|m| m.alt.as_deref()).unwrap_or(""), true, out);
                        out.push_str("\">");
                    }
                    continue;
                }
                if UNWRAPPED.contains(&name) || (name == "a" && !opts.links) {
                    write(tree, &el.children, opts, w, out);
                    continue;
                }
                // The first piece's separator goes before the start tag (`First <a>linked</a>`).
                if let Some(p) = first_piece(tree, &el.children)
                    && w.hoisted.is_none()
                {
                    separator(tree, p, w, out);
                    w.hoisted = Some(p);
                }
                out.push('<');
                out.push_str(name);
                match name {
                    "a" => {
                        if let Some(h) = markup.and_then(|m| m.href.as_deref()).and_then(|h| safe_url(h, false)) {
                            out.push_str(" href=\"");
                            escape(h, true, out);
                            out.push('"');
                        }
                    }
                    "td" | "th" => {
                        if let Some(m) = markup.filter(|m| m.colspan > 1) {
                            out.push_str(&format!(" colspan=\"{}\"", m.colspan));
                        }
                    }
                    _ => {}
                }
                out.push('>');
                write(tree, &el.children, opts, w, out);
                out.push_str("</");
                out.push_str(name);
                out.push('>');
                if el.tag.is_block() {
                    out.push('\n');
                }
            }
        }
    }
}

/// Escapes text (`attr`: also quotes) for HTML.
fn escape(s: &str, attr: bool, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}
