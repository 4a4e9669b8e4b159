//! The pruned tree as Markdown: CommonMark with GitHub's tables. Headings with their levels,
//! ordered and unordered lists with nesting, tables (the first kept row is the header row, a
//! cell's `colspan` expanded with empty cells, every row as wide as the widest), fenced code
//! blocks with the language of a `language-xxx` or `lang-xxx` class, block quotes; links and
//! images only when asked for. A kept row has every cell the page's row has (a cell with nothing
//! kept is empty). A table is written as one when it is a data table: at least two
//! columns, no table inside it and no list, heading, code block or quote in a kept cell;
//! otherwise (a layout table) its cells are written as blocks. Text is escaped so that a
//! CommonMark reader gives back the plain text's words: `\ ` * _ [ ] < | ~` everywhere, `&`
//! before anything but a space, and what would start a block at the start of a line
//! (`# > - + =`, `1.`).

use super::{El, Item, Options, Tree, safe_url};
use crate::document::sep;

/// Writes the tree.
pub(crate) fn render(tree: &Tree<'_>, opts: Options) -> String {
    let w = Writer { tree, opts };
    let mut blocks = Vec::new();
    let mut para = Inline::default();
    w.flow(&tree.els[0].children, &mut blocks, &mut para);
    para.flush(&mut blocks);
    let mut out = blocks.join("\n\n");
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// How an inline run is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Mode {
    /// A paragraph: escaped text, newlines kept (soft breaks).
    #[default]
    Para,
    /// One line (a heading, a table cell): escaped text, newlines as spaces.
    Line,
    /// Code (a code span or block): the text as it is.
    Raw,
}

/// An inline run being written: text with the separators of its pieces.
#[derive(Debug, Default)]
struct Inline {
    out: String,
    mode: Mode,
    /// Inside a table cell: `|` is escaped in code too (GitHub splits cells first).
    cell: bool,
    /// Written after the next piece's separator, before its text (a link's `[`).
    opening: String,
    /// The separator before the first piece (hoisted before a code span or a link).
    first_sep: Option<u8>,
    /// Pieces written.
    pieces: usize,
}

impl Inline {
    fn new(mode: Mode, cell: bool) -> Inline {
        Inline { mode, cell, ..Default::default() }
    }

    fn sep(&mut self, s: u8) {
        if self.first_sep.is_none() {
            self.first_sep = Some(s);
            if self.out.is_empty() {
                return;
            }
        }
        match s {
            sep::GLUE => {}
            sep::NEWLINE if self.mode != Mode::Line => self.out.push('\n'),
            _ => self.out.push(' '),
        }
    }

    /// Writes what opens before the next piece (a link's `[`); a `!` right before it would
    /// make the link an image, so it is escaped.
    fn open(&mut self) {
        if self.opening.starts_with('[') && self.out.ends_with('!') && !self.out.ends_with("\\!") {
            self.out.pop();
            self.out.push_str("\\!");
        }
        self.out.push_str(&std::mem::take(&mut self.opening));
    }

    fn piece(&mut self, text: &str, s: u8) {
        self.sep(s);
        self.open();
        let flat;
        let text = if self.mode == Mode::Line && text.contains('\n') {
            flat = text.replace('\n', " ");
            &flat
        } else {
            text
        };
        match self.mode {
            Mode::Raw if self.cell => self.out.push_str(&text.replace('|', "\\|")),
            Mode::Raw => self.out.push_str(text),
            _ => escape_into(text, self.mode == Mode::Line, &mut self.out),
        }
        self.pieces += 1;
    }

    /// Something written whole (a code span, an image), after the separator `s`.
    fn atom(&mut self, text: &str, s: u8) {
        self.sep(s);
        self.open();
        self.out.push_str(text);
        self.pieces += 1;
    }

    /// The run as a paragraph block (each line's start escaped), when it holds anything.
    fn flush(&mut self, blocks: &mut Vec<String>) {
        let text = std::mem::take(&mut self.out);
        self.opening.clear();
        self.first_sep = None;
        self.pieces = 0;
        if text.trim().is_empty() {
            return;
        }
        let lines: Vec<String> = text.split('\n').map(|l| line_start(l.trim())).filter(|l| !l.is_empty()).collect();
        blocks.push(lines.join("\n"));
    }
}

/// Escapes what CommonMark (and GitHub's tables and strikethrough) reads as markup inside a
/// line; `heading`: `#` too (a closing sequence).
fn escape_into(text: &str, heading: bool, out: &mut String) {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '|' | '~' => out.push('\\'),
            '#' if heading => out.push('\\'),
            '&' if chars.peek().is_none_or(|n| !n.is_whitespace()) => out.push('\\'),
            _ => {}
        }
        out.push(c);
    }
}

/// A line whose start cannot begin a block: `#`, `>`, `-`, `+`, `=` escaped, and the `.` or `)`
/// after up to nine leading digits.
fn line_start(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 1);
    match line.chars().next() {
        Some('#' | '>' | '-' | '+' | '=') => {
            out.push('\\');
            out.push_str(line);
        }
        Some('0'..='9') => {
            let digits = line.bytes().take_while(u8::is_ascii_digit).count();
            match line.as_bytes().get(digits) {
                Some(b'.' | b')') if digits <= 9 => {
                    out.push_str(&line[..digits]);
                    out.push('\\');
                    out.push_str(&line[digits..]);
                }
                _ => out.push_str(line),
            }
        }
        _ => out.push_str(line),
    }
    out
}

/// A code fence or span delimiter longer than any run of backticks in `text` (at least `min`).
fn fence(text: &str, min: usize) -> String {
    let (mut run, mut most) = (0, 0);
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        most = most.max(run);
    }
    "`".repeat((most + 1).max(min))
}

/// The tags of the elements written as their own blocks.
fn heading_level(name: &str) -> Option<usize> {
    match name {
        "h1" => Some(1),
        "h2" => Some(2),
        "h3" => Some(3),
        "h4" => Some(4),
        "h5" => Some(5),
        "h6" => Some(6),
        _ => None,
    }
}

struct Writer<'t, 'a> {
    tree: &'t Tree<'a>,
    opts: Options,
}

impl Writer<'_, '_> {
    fn el(&self, e: usize) -> &El {
        &self.tree.els[e]
    }

    /// Writes `items` as the content of a container: inline runs into `para`, blocks (which
    /// end the run) into `blocks`.
    fn flow(&self, items: &[Item], blocks: &mut Vec<String>, para: &mut Inline) {
        for item in items {
            match *item {
                Item::Piece(p) => {
                    let pc = self.tree.pieces[p];
                    para.piece(pc.text, pc.sep);
                }
                Item::El(e) => self.element(e, blocks, para),
            }
        }
    }

    fn element(&self, e: usize, blocks: &mut Vec<String>, para: &mut Inline) {
        let el = self.el(e);
        let name = el.tag.name();
        let markup = self.tree.doc.dom.markup_of(el.node);
        if !el.tag.is_block() {
            match name {
                "img" => {
                    if let Some(src) = markup.and_then(|m| m.src.as_deref()).and_then(|s| safe_url(s, true)) {
                        let mut alt = String::new();
                        escape_into(markup.and_then(|m| m.alt.as_deref()).unwrap_or(""), true, &mut alt);
                        para.atom(&format!("![{alt}]({})", url(src)), sep::SPACE);
                    }
                }
                "a" if self.opts.links && !self.tree.has_block(e) => {
                    match markup.and_then(|m| m.href.as_deref()).and_then(|h| safe_url(h, false)) {
                        Some(href) => {
                            let before = para.pieces;
                            para.opening.push('[');
                            self.flow(&el.children, blocks, para);
                            if para.pieces > before && para.opening.is_empty() {
                                para.out.push_str(&format!("]({})", url(href)));
                            } else {
                                para.opening.clear();
                            }
                        }
                        None => self.flow(&el.children, blocks, para),
                    }
                }
                "code" if para.mode != Mode::Raw && !self.tree.has_block(e) => {
                    let mut code = Inline::new(Mode::Raw, para.cell);
                    self.inline_all(&el.children, &mut code);
                    if code.pieces > 0 && code.first_sep == Some(sep::GLUE) && para.out.ends_with('`') {
                        // Glued to a code span before it: the two would read as one with
                        // other delimiters, so this one is written as text.
                        self.flow(&el.children, blocks, para);
                    } else if code.pieces > 0 {
                        let text = code.out.replace('\n', " ");
                        let f = fence(&text, 1);
                        let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
                        para.atom(&format!("{f}{pad}{text}{pad}{f}"), code.first_sep.unwrap_or(sep::GLUE));
                    }
                }
                _ => self.flow(&el.children, blocks, para),
            }
            return;
        }
        para.flush(blocks);
        if let Some(level) = heading_level(name) {
            let mut line = Inline::new(Mode::Line, false);
            self.inline_all(&el.children, &mut line);
            let text = line.out.trim();
            if !text.is_empty() {
                blocks.push(format!("{} {text}", "#".repeat(level)));
            }
            return;
        }
        match name {
            "pre" => {
                let mut code = Inline::new(Mode::Raw, false);
                self.inline_all(&el.children, &mut code);
                if code.pieces > 0 {
                    let lang = markup.and_then(|m| m.lang.clone()).or_else(|| self.code_lang(e)).unwrap_or_default();
                    let f = fence(&code.out, 3);
                    blocks.push(format!("{f}{lang}\n{}\n{f}", code.out));
                }
            }
            "ul" | "ol" | "menu" | "dir" => self.list(e, name == "ol", blocks),
            "blockquote" => {
                let inner = self.blocks_of(&el.children);
                if !inner.is_empty() {
                    let text = inner.join("\n\n");
                    let quoted: Vec<String> =
                        text.lines().map(|l| if l.is_empty() { ">".to_string() } else { format!("> {l}") }).collect();
                    blocks.push(quoted.join("\n"));
                }
            }
            "table" if self.data_table(e) => self.table(e, blocks),
            _ => {
                let mut inner = Inline::default();
                self.flow(&el.children, blocks, &mut inner);
                inner.flush(blocks);
            }
        }
    }

    /// The blocks `items` make on their own.
    fn blocks_of(&self, items: &[Item]) -> Vec<String> {
        let mut blocks = Vec::new();
        let mut para = Inline::default();
        self.flow(items, &mut blocks, &mut para);
        para.flush(&mut blocks);
        blocks
    }

    /// Everything below `items` as one inline run (a heading, a cell, code), links and code
    /// spans included in the kinds that allow them.
    fn inline_all(&self, items: &[Item], run: &mut Inline) {
        for item in items {
            match *item {
                Item::Piece(p) => {
                    let pc = self.tree.pieces[p];
                    run.piece(pc.text, pc.sep);
                }
                Item::El(e) => {
                    let el = self.el(e);
                    if run.mode == Mode::Raw || el.tag.is_block() || self.tree.has_block(e) {
                        self.inline_all(&el.children, run);
                    } else {
                        // Inline elements as in a paragraph (links, code spans, images).
                        let mut none = Vec::new();
                        self.element(e, &mut none, run);
                    }
                }
            }
        }
    }

    /// The language of the first `code` element below `e`.
    fn code_lang(&self, e: usize) -> Option<String> {
        for c in &self.el(e).children {
            if let Item::El(k) = *c {
                let el = self.el(k);
                if el.tag.name() == "code"
                    && let Some(l) = self.tree.doc.dom.markup_of(el.node).and_then(|m| m.lang.clone())
                {
                    return Some(l);
                }
                if let Some(l) = self.code_lang(k) {
                    return Some(l);
                }
            }
        }
        None
    }

    /// A list: each kept child an item (`- ` or `N. `), its content indented under the marker.
    fn list(&self, e: usize, ordered: bool, blocks: &mut Vec<String>) {
        let el = self.el(e);
        let mut n = self.tree.doc.dom.markup_of(el.node).and_then(|m| m.start).unwrap_or(1).min(999_999_999);
        // Each `li` an item, and each run of other children (text right inside the list).
        let mut groups: Vec<Vec<Item>> = Vec::new();
        let mut loose = false;
        for c in &el.children {
            match *c {
                Item::El(k) if self.el(k).tag.name() == "li" => {
                    groups.push(self.el(k).children.clone());
                    loose = false;
                }
                other if loose => groups.last_mut().expect("a run is open").push(other),
                other => {
                    groups.push(vec![other]);
                    loose = true;
                }
            }
        }
        let mut items = Vec::new();
        for g in &groups {
            let inner = self.blocks_of(g);
            if inner.is_empty() {
                continue;
            }
            let marker = if ordered { format!("{n}. ") } else { "- ".to_string() };
            n = n.saturating_add(1).min(999_999_999);
            let pad = " ".repeat(marker.len());
            let mut text = String::new();
            for (i, b) in inner.iter().enumerate() {
                if i > 0 {
                    text.push_str(if b.starts_with("- ") || b.as_bytes()[0].is_ascii_digit() { "\n" } else { "\n\n" });
                }
                text.push_str(b);
            }
            let lines: Vec<String> = text
                .split('\n')
                .enumerate()
                .map(|(i, l)| match (i, l.is_empty()) {
                    (0, _) => format!("{marker}{l}"),
                    (_, true) => String::new(),
                    _ => format!("{pad}{l}"),
                })
                .collect();
            items.push(lines.join("\n"));
        }
        if !items.is_empty() {
            blocks.push(items.join("\n"));
        }
    }

    /// The kept rows of a table (through `thead`, `tbody`, `tfoot`) and what else it keeps (a
    /// caption, stray text), or `None` when a row holds something other than cells.
    fn rows(&self, e: usize) -> Option<(Vec<usize>, Vec<Item>)> {
        let (mut rows, mut other) = (Vec::new(), Vec::new());
        let mut stack: Vec<&Item> = self.el(e).children.iter().rev().collect();
        while let Some(c) = stack.pop() {
            match *c {
                Item::El(k) => match self.el(k).tag.name() {
                    "thead" | "tbody" | "tfoot" => stack.extend(self.el(k).children.iter().rev()),
                    "tr" => {
                        let cells_only = self
                            .el(k)
                            .children
                            .iter()
                            .all(|c| matches!(*c, Item::El(x) if matches!(self.el(x).tag.name(), "td" | "th")));
                        if !cells_only {
                            return None;
                        }
                        rows.push(k);
                    }
                    _ if !rows.is_empty() => return None,
                    _ => other.push(*c),
                },
                Item::Piece(_) if !rows.is_empty() => return None,
                Item::Piece(_) => other.push(*c),
            }
        }
        Some((rows, other))
    }

    /// A data table: two or more columns in its kept rows, a row with words in two of its cells,
    /// no table inside it in the page, no list, heading, code block or quote in a kept cell. A
    /// layout table that keeps one column (an article beside an emptied sidebar) or only
    /// punctuation (a `|` between icons) is written as the blocks it holds.
    fn data_table(&self, e: usize) -> bool {
        let nodes = &self.tree.doc.dom.nodes;
        let node = self.el(e).node as usize;
        let table = crate::document::tags::tag("table");
        if nodes[node + 1..nodes[node].end as usize].iter().any(|n| n.tag == table) {
            return false;
        }
        let Some((rows, _)) = self.rows(e) else { return false };
        if rows.is_empty() || self.columns(&rows) < 2 {
            return false;
        }
        fn structural(w: &Writer<'_, '_>, k: usize) -> bool {
            w.el(k).children.iter().any(|c| match *c {
                Item::El(x) => {
                    let n = w.el(x).tag.name();
                    matches!(n, "ul" | "ol" | "pre" | "blockquote" | "table" | "dl")
                        || heading_level(n).is_some()
                        || structural(w, x)
                }
                Item::Piece(_) => false,
            })
        }
        !rows.iter().any(|&r| structural(self, r)) && rows.iter().any(|&r| self.worded_cells(r) >= 2)
    }

    /// How many kept cells of a row hold a letter or digit.
    fn worded_cells(&self, r: usize) -> usize {
        self.row_cells(r).iter().filter_map(|(_, kept)| *kept).filter(|&k| self.worded(k)).count()
    }

    /// Whether a kept element's text holds a letter or digit (links and images aside).
    fn worded(&self, e: usize) -> bool {
        self.el(e).children.iter().any(|c| match *c {
            Item::El(x) => self.worded(x),
            Item::Piece(p) => self.tree.pieces[p].text.chars().any(char::is_alphanumeric),
        })
    }

    /// The columns a cell spans (its `colspan`).
    fn span(&self, node: u32) -> usize {
        usize::from(self.tree.doc.dom.markup_of(node).map_or(1, |m| m.colspan.max(1)))
    }

    /// The cells of a kept row as the page has them (kept or not: a cell with nothing kept,
    /// such as one holding only an icon, is an empty cell), each with its kept element if any.
    fn row_cells(&self, r: usize) -> Vec<(u32, Option<usize>)> {
        let nodes = &self.tree.doc.dom.nodes;
        let tr = self.el(r).node;
        let kept: Vec<(u32, usize)> = self
            .el(r)
            .children
            .iter()
            .filter_map(|c| if let Item::El(k) = *c { Some((self.el(k).node, k)) } else { None })
            .collect();
        (tr + 1..nodes[tr as usize].end)
            .filter(|&i| nodes[i as usize].parent == tr && matches!(nodes[i as usize].tag.name(), "td" | "th"))
            .map(|i| (i, kept.iter().find(|(n, _)| *n == i).map(|(_, k)| *k)))
            .collect()
    }

    /// The widest kept row, in columns.
    fn columns(&self, rows: &[usize]) -> usize {
        rows.iter().map(|&r| self.row_cells(r).iter().map(|(n, _)| self.span(*n)).sum::<usize>()).max().unwrap_or(0)
    }

    fn table(&self, e: usize, blocks: &mut Vec<String>) {
        let Some((rows, other)) = self.rows(e) else { return };
        // A caption (or stray text) before the table, as a paragraph.
        blocks.extend(self.blocks_of(&other));
        let width = self.columns(&rows);
        let mut lines = Vec::new();
        for (i, &r) in rows.iter().enumerate() {
            let mut cells = Vec::new();
            for (node, kept) in self.row_cells(r) {
                let mut run = Inline::new(Mode::Line, true);
                if let Some(k) = kept {
                    self.inline_all(&self.el(k).children, &mut run);
                }
                cells.push(run.out.trim().to_string());
                cells.extend(std::iter::repeat_n(String::new(), self.span(node) - 1));
            }
            cells.resize(width, String::new());
            lines.push(format!("| {} |", cells.join(" | ")));
            if i == 0 {
                lines.push(format!("|{}", " --- |".repeat(width)));
            }
        }
        blocks.push(lines.join("\n"));
    }
}

/// A URL as a link destination: in `<...>` when it holds spaces or parentheses.
fn url(u: &str) -> String {
    if u.contains([' ', '(', ')', '<', '>', '\n']) {
        format!("<{}>", u.replace(['<', '>', '\n'], "").replace(' ', "%20"))
    } else {
        u.to_string()
    }
}
