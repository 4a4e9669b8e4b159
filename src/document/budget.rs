//! The pre-scan that keeps a page within its budgets before either view is built: the page is
//! cut before the markup character (`<` or `&`) after [`Limits::max_markup`], and attributes
//! beyond [`Limits::max_attrs`] are dropped from their tag. Linear in the page; it reads tags and
//! attributes as the HTML tokenizer does (quoted values may hold `>`), and says in notes what it
//! cut. The same lexer ([`tags`]) drives the depth limit ([`limit_depth`]): one tag reader for
//! both, besides html5ever and the source view's scanner.

use super::tags::Tag;
use crate::limits::Limits;
use std::borrow::Cow;

/// Elements whose content is raw text up to their end tag: no tags inside.
const RAW_TEXT: &[&[u8]] = &[b"script", b"style", b"textarea", b"title", b"xmp", b"iframe", b"noembed", b"noframes"];

/// Position of `needle` (lower-case ASCII) in `hay`, ignoring ASCII case. Candidates are found
/// by their first byte (`memchr`), then the rest is compared.
pub(super) fn find_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let last = hay.len().checked_sub(needle.len())?;
    let mut from = 0;
    while from <= last {
        let window = &hay[from..=last];
        let k = if first.is_ascii_alphabetic() {
            memchr::memchr2(first, first.to_ascii_uppercase(), window)
        } else {
            memchr::memchr(first, window)
        }?;
        let at = from + k;
        if hay[at + 1..at + needle.len()].eq_ignore_ascii_case(rest) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// Reads the attributes of a tag whose name ends at `i`: returns the end of the tag (the
/// position of its `>`, or the end of the page) and where the attribute after the first `max`
/// starts, if there is one.
fn attributes(b: &[u8], mut i: usize, max: usize) -> (usize, Option<usize>) {
    let (mut count, mut cut) = (0, None);
    loop {
        while i < b.len() && (is_space(b[i]) || b[i] == b'/') {
            i += 1;
        }
        if i >= b.len() || b[i] == b'>' {
            return (i, cut);
        }
        if count == max && cut.is_none() {
            cut = Some(i);
        }
        // The name: its first character may be anything (even `=`), then up to a delimiter.
        i += 1;
        while i < b.len() && !is_space(b[i]) && !matches!(b[i], b'/' | b'>' | b'=') {
            i += 1;
        }
        let mut j = i;
        while j < b.len() && is_space(b[j]) {
            j += 1;
        }
        if j < b.len() && b[j] == b'=' {
            j += 1;
            while j < b.len() && is_space(b[j]) {
                j += 1;
            }
            match b.get(j) {
                Some(&q @ (b'"' | b'\'')) => {
                    j = b[j + 1..].iter().position(|&c| c == q).map_or(b.len(), |k| j + 1 + k + 1);
                }
                _ => {
                    while j < b.len() && !is_space(b[j]) && b[j] != b'>' {
                        j += 1;
                    }
                }
            }
            i = j;
        }
        count += 1;
    }
}

/// Where the page must be cut to hold at most `max` markup characters (`<` and `&`).
fn markup_cut(b: &[u8], max: usize) -> Option<usize> {
    memchr::memchr2_iter(b'<', b'&', b).nth(max)
}

/// One tag as the pre-scan reads it.
pub(crate) struct TagSpan {
    /// Where its `<` is.
    pub start: usize,
    /// Where its name is (`x` in `<x ...>` and `</x>`).
    pub name: std::ops::Range<usize>,
    /// Just after its `>` (or the end of the page).
    pub end: usize,
    /// An end tag (`</x>`).
    pub is_end: bool,
    /// Self-closing (`<x/>`) or a void element: it opens no scope.
    pub void: bool,
    /// Where the attributes beyond the attribute budget start, if there are any.
    pub attrs_cut: Option<usize>,
}

/// Elements that never have content.
const VOID: &[&[u8]] = &[
    b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input", b"link", b"meta", b"param", b"source",
    b"track", b"wbr",
];

/// Walks the tags of `b` as the HTML tokenizer reads them (comments skipped, quoted attribute
/// values may hold `>`, raw-text elements hold no tags) and calls `f` for each: the one lexer
/// behind the budgets and the depth limit. Linear in the page.
pub(crate) fn tags(b: &[u8], max_attrs: usize, mut f: impl FnMut(&TagSpan)) {
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'<', &b[i..]) {
        let at = i + k;
        let rest = &b[at..];
        if rest.starts_with(b"<!--") {
            i = find_ci(&b[at + 4..], b"-->").map_or(b.len(), |e| at + 4 + e + 3);
            continue;
        }
        let is_end = rest.get(1) == Some(&b'/');
        let name_at = at + 1 + usize::from(is_end);
        if !b.get(name_at).is_some_and(u8::is_ascii_alphabetic) {
            i = at + 1;
            continue;
        }
        let mut name_end = name_at;
        while name_end < b.len() && !is_space(b[name_end]) && !matches!(b[name_end], b'/' | b'>') {
            name_end += 1;
        }
        let (gt, attrs_cut) = attributes(b, name_end, max_attrs);
        let name = &b[name_at..name_end];
        let end = (gt + 1).min(b.len());
        let void = VOID.iter().any(|v| v.eq_ignore_ascii_case(name)) || (gt > 0 && b.get(gt - 1) == Some(&b'/'));
        f(&TagSpan { start: at, name: name_at..name_end, end, is_end, void, attrs_cut });
        i = end;
        if !is_end && RAW_TEXT.iter().any(|r| r.eq_ignore_ascii_case(name)) {
            let close = [b"</".as_slice(), name].concat().to_ascii_lowercase();
            i = find_ci(&b[i..], &close).map_or(b.len(), |e| i + e);
        }
    }
}

/// `html` within the markup and attribute budgets of `limits`, and a note for each budget
/// that cut something.
pub fn apply<'a>(html: &'a str, limits: &Limits) -> (Cow<'a, str>, Vec<String>) {
    let cut = markup_cut(html.as_bytes(), limits.max_markup);
    let b = &html.as_bytes()[..cut.unwrap_or(html.len())];
    let mut drop: Vec<(usize, usize)> = Vec::new(); // byte ranges to remove
    // The depth limit reads the same tags: in this pass too, used when no budget changed the page.
    let mut depth = Depth::default();
    tags(b, limits.max_attrs, |t| {
        if let Some(from) = t.attrs_cut {
            // Up to the `>` (or the page end), which stays.
            let to = if t.end > 0 && b.get(t.end - 1) == Some(&b'>') { t.end - 1 } else { t.end };
            drop.push((from, to));
        }
        depth.step(b, t);
    });
    let mut notes = Vec::new();
    if let Some(at) = cut {
        notes.push(format!(
            "more than {} markup characters (< and &): the page was cut after byte {at} of {} (the markup budget)",
            limits.max_markup,
            html.len()
        ));
    }
    if !drop.is_empty() {
        notes.push(format!(
            "{} tag(s) with more than {} attributes: the rest were dropped (the attribute budget)",
            drop.len(),
            limits.max_attrs
        ));
    }
    let within = if drop.is_empty() && cut.is_none() {
        Cow::Borrowed(html)
    } else {
        let mut out = String::with_capacity(b.len());
        let mut copied = 0;
        for (from, to) in drop {
            out.push_str(&html[copied..from]);
            copied = to;
        }
        out.push_str(&html[copied..b.len()]);
        Cow::Owned(out)
    };
    // The depth limit here too, so that a page it cuts carries a note saying so: from the pass
    // above when the page is unchanged (the usual case), else over the page within budgets.
    let owned = |c: Cow<'_, str>| match c {
        Cow::Owned(s) => Some(s),
        Cow::Borrowed(_) => None,
    };
    let (limited, note) = match &within {
        Cow::Borrowed(page) => {
            let (c, note) = depth.finish(page);
            (owned(c), note)
        }
        Cow::Owned(page) => {
            let (c, note) = limit_depth_noted(page);
            (owned(c), note)
        }
    };
    match limited {
        None => (within, notes),
        Some(limited) => {
            notes.extend(note);
            (Cow::Owned(limited), notes)
        }
    }
}

/// Deepest element nesting passed to the HTML parser. html5ever checks element scopes by walking
/// the stack of open elements, so each start tag costs O(depth): 100,000 nested `<div>`s took
/// about a minute. Start tags nested deeper than this are dropped (their text stays).
pub const MAX_DEPTH: usize = 1000;

/// `html` with start tags nested deeper than [`MAX_DEPTH`] (and their end tags) removed.
pub fn limit_depth(html: &str) -> Cow<'_, str> {
    limit_depth_noted(html).0
}

/// A tag name, lower-cased, kept without allocating (the first 16 bytes: longer custom
/// element names that share them count as one name, which only merges their end tags).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Name([u8; 16], u8);

impl Name {
    fn new(raw: &[u8]) -> Name {
        let mut b = [0u8; 16];
        let n = raw.len().min(16);
        for (d, s) in b.iter_mut().zip(&raw[..n]) {
            *d = s.to_ascii_lowercase();
        }
        Name(b, n as u8)
    }
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0[..usize::from(self.1)]).unwrap_or("")
    }
}

/// Elements whose start tag closes an open `p` (the tree builder's "close a p element").
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "li",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "ul",
    "dd",
    "dt",
    "listing",
    "plaintext",
];

/// The names [`implied_close`] tests, interned first by every pass so that each has the id of
/// its place here (the constants below).
const KNOWN: &[&str] = &[
    "p", "li", "dd", "dt", "option", "optgroup", "tr", "td", "th", "tbody", "thead", "tfoot", "ul", "ol", "table",
    "template", "select", "datalist", "dl", "applet", "caption", "html", "marquee", "object", "button",
];
const P: u32 = 0;
const LI: u32 = 1;
const DD: u32 = 2;
const DT: u32 = 3;
const OPTION: u32 = 4;
const OPTGROUP: u32 = 5;
const TR: u32 = 6;
const TD: u32 = 7;
const TH: u32 = 8;
const TBODY: u32 = 9;
const THEAD: u32 = 10;
const TFOOT: u32 = 11;
const UL: u32 = 12;
const OL: u32 = 13;
const TABLE: u32 = 14;
const TEMPLATE: u32 = 15;
const SELECT: u32 = 16;
const DATALIST: u32 = 17;
const DL: u32 = 18;
/// The elements that bound the search for an element to close implicitly (scope boundaries),
/// as ids: `applet caption html table td th marquee object template button ul ol select tbody
/// thead tfoot tr`.
const SCOPE_IDS: &[u32] = &[19, 20, 21, TABLE, TD, TH, 22, 23, TEMPLATE, 24, UL, OL, SELECT, TBODY, THEAD, TFOOT, TR];

/// The first id of a name no [`Tag`] knows: below it, a name of [`KNOWN`] has its place there and
/// any other known tag `KNOWN.len()` plus its tag id.
const FIRST_UNKNOWN: u32 = KNOWN.len() as u32 + 256;

/// The ids of the known tags ([`FIRST_UNKNOWN`]).
static TAG_IDS: std::sync::LazyLock<[u32; 256]> = std::sync::LazyLock::new(|| {
    let mut ids: [u32; 256] = std::array::from_fn(|i| KNOWN.len() as u32 + i as u32);
    for (k, n) in KNOWN.iter().enumerate() {
        let t = Tag::from_name(n);
        if t != Tag::OTHER {
            ids[usize::from(t.0)] = k as u32;
        }
    }
    ids
});

/// Per id below [`FIRST_UNKNOWN`]: a start tag of that name closes an open `p` ([`CLOSES_P`]).
static KNOWN_CLOSES_P: std::sync::LazyLock<Vec<bool>> = std::sync::LazyLock::new(|| {
    let mut c = vec![false; FIRST_UNKNOWN as usize];
    for n in CLOSES_P {
        let t = Tag::from_name(n);
        match KNOWN.iter().position(|k| k == n) {
            Some(k) => c[k] = true,
            None if t != Tag::OTHER => c[TAG_IDS[usize::from(t.0)] as usize] = true,
            None => {}
        }
    }
    c
});

/// The tag names of one pass as small ids, so that the stacks below index arrays: a known tag's
/// id comes from its [`Tag`], a name no `Tag` knows from a hash map (one hash per such tag).
struct Interner {
    unknown: std::collections::HashMap<Name, u32>,
    /// Per id from [`FIRST_UNKNOWN`] on: a start tag of that name closes an open `p`.
    closes_p: Vec<bool>,
}

impl Default for Interner {
    fn default() -> Self {
        let mut i = Interner { unknown: Default::default(), closes_p: Vec::new() };
        // The names of KNOWN that no Tag knows keep their places there.
        for (k, n) in KNOWN.iter().enumerate() {
            if Tag::from_name(n) == Tag::OTHER {
                i.unknown.insert(Name::new(n.as_bytes()), k as u32);
            }
        }
        i
    }
}

impl Interner {
    fn id(&mut self, n: Name) -> u32 {
        let t = Tag::from_name(n.as_str());
        if t != Tag::OTHER {
            return TAG_IDS[usize::from(t.0)];
        }
        let next = FIRST_UNKNOWN + self.closes_p.len() as u32;
        let id = *self.unknown.entry(n).or_insert(next);
        if id == next {
            self.closes_p.push(CLOSES_P.contains(&n.as_str()));
        }
        id
    }

    /// A start tag of name `id` closes an open `p`.
    fn closes_p(&self, id: u32) -> bool {
        match id.checked_sub(FIRST_UNKNOWN) {
            None => KNOWN_CLOSES_P[id as usize],
            Some(u) => self.closes_p[u as usize],
        }
    }
}

/// A stack of element names (interned ids) that finds the innermost element of a name in O(1)
/// (a position list per name), so hostile pages (100,000 `<div>`s, stray end tags) stay linear.
#[derive(Default)]
struct NameStack {
    names: Vec<u32>,
    at: Vec<Vec<usize>>,
}

impl NameStack {
    fn len(&self) -> usize {
        self.names.len()
    }
    fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
    fn push(&mut self, n: u32) {
        let n_ = n as usize;
        if self.at.len() <= n_ {
            self.at.resize_with(n_ + 1, Vec::new);
        }
        self.at[n_].push(self.names.len());
        self.names.push(n);
    }
    fn top(&self) -> Option<u32> {
        self.names.last().copied()
    }
    /// The position of the innermost element named `n`.
    fn last(&self, n: u32) -> Option<usize> {
        self.at.get(n as usize).and_then(|v| v.last().copied())
    }
    /// Pops every element from position `i` up.
    fn truncate(&mut self, i: usize) {
        while self.names.len() > i {
            if let Some(n) = self.names.pop() {
                self.at[n as usize].pop();
            }
        }
    }
    fn clear(&mut self) {
        self.truncate(0);
    }
}

/// The open elements a start tag `name` (an id; `closes_p`: it is in [`CLOSES_P`]) closes
/// implicitly, as the HTML tree builder does for the common cases (`p`, `li`, `dd`/`dt`,
/// `option`/`optgroup`, table rows and cells): the position in `open` from which the stack is
/// popped, if any. An element to close counts only when no scope boundary was opened after it.
fn implied_close(open: &NameStack, name: u32, closes_p: bool) -> Option<usize> {
    let innermost = |names: &[u32]| names.iter().filter_map(|&n| open.last(n)).max();
    let find = |targets: &[u32], bounds: &[u32]| {
        let t = innermost(targets)?;
        match innermost(bounds) {
            Some(b) if b > t => None,
            _ => Some(t),
        }
    };
    let top = open.top();
    match name {
        LI => find(&[LI], &[UL, OL, TABLE, TD, TH, TEMPLATE]).or_else(|| find(&[P], SCOPE_IDS)),
        DD | DT => find(&[DD, DT], &[DL, TABLE, TD, TH, TEMPLATE]).or_else(|| find(&[P], SCOPE_IDS)),
        OPTION => (top == Some(OPTION)).then(|| open.len() - 1),
        OPTGROUP => find(&[OPTION, OPTGROUP], &[SELECT, DATALIST]).filter(|i| *i + 2 >= open.len()),
        TR => find(&[TR], &[TABLE, TEMPLATE]),
        TD | TH => find(&[TD, TH], &[TR, TABLE, TEMPLATE]),
        TBODY | THEAD | TFOOT => find(&[TBODY, THEAD, TFOOT], &[TABLE, TEMPLATE]),
        _ if closes_p => find(&[P], SCOPE_IDS),
        _ => None,
    }
}

/// [`limit_depth`], with a note when the limit cut something. Depth is counted as the tree
/// builder nests elements: start tags that close open elements implicitly (`<option>` after an
/// `<option>`, `<li>` after an `<li>`, `<p>` after a `<p>`, …) close them here too, and an end
/// tag without an open element of its name closes nothing; so a valid page whose elements
/// need no end tags (1,100 `<option>`s) is not cut.
pub fn limit_depth_noted(html: &str) -> (Cow<'_, str>, Option<String>) {
    let b = html.as_bytes();
    let mut depth = Depth::default();
    tags(b, usize::MAX, |t| depth.step(b, t));
    depth.finish(html)
}

/// Whether the start tag `t` opens an element whose content never counts as text
/// ([`super::hidden::never_text`]: by its name or by attributes that hide it).
fn never_text(b: &[u8], t: &TagSpan) -> bool {
    let name = std::str::from_utf8(&b[t.name.clone()]).unwrap_or("");
    let rest = std::str::from_utf8(&b[t.name.end..t.end]).unwrap_or("");
    super::hidden::never_text(name, |a| super::hidden::attr_in(rest, a))
}

/// The depth limit's state over one lexer pass ([`limit_depth_noted`]), so that [`apply`] can
/// run it in the same pass as the attribute budget.
#[derive(Default)]
struct Depth {
    names: Interner,
    open: NameStack,
    /// Start tags removed for depth, innermost last.
    dropped: NameStack,
    cuts: Vec<(usize, usize)>,
    /// A never-text element (a script, a style, a hidden `div`) beyond the depth limit, cut
    /// whole up to its end tag: its name, how many of that name are open in it, its cut.
    never: Option<(u32, usize, usize)>,
    /// Never-text elements cut whole.
    never_cut: usize,
}

impl Depth {
    /// Reads tag `t` of page `b`.
    fn step(&mut self, b: &[u8], t: &TagSpan) {
        let (open, dropped, cuts) = (&mut self.open, &mut self.dropped, &mut self.cuts);
        let raw = Name::new(&b[t.name.clone()]);
        let name = self.names.id(raw);
        if let Some((n, open, cut)) = &mut self.never {
            if *n == name && t.is_end {
                *open -= 1;
                if *open == 0 {
                    cuts[*cut].1 = t.end;
                    self.never = None;
                }
            } else if *n == name && !t.void {
                *open += 1;
            }
            return;
        }
        if t.is_end {
            // A name cut inside a character at 16 bytes matches no open element (as before ids).
            if raw.as_str().is_empty() {
                return;
            }
            if let Some(i) = dropped.last(name) {
                dropped.truncate(i);
                cuts.push((t.start, t.end));
            } else if let Some(i) = open.last(name) {
                // Closing an open element closes what was dropped inside it too.
                open.truncate(i);
                dropped.clear();
            }
            return;
        }
        if let Some(i) = implied_close(open, name, self.names.closes_p(name)) {
            open.truncate(i);
            dropped.clear();
        }
        if t.void {
            return;
        }
        if open.len() < MAX_DEPTH && dropped.is_empty() {
            open.push(name);
        } else if never_text(b, t) {
            // Dropping only its tag would make its content (code, a hidden fallback) page
            // text: the whole element goes, up to its end tag (the page's end without one).
            self.never = Some((name, 1, cuts.len()));
            self.never_cut += 1;
            cuts.push((t.start, b.len()));
        } else {
            dropped.push(name);
            cuts.push((t.start, t.end));
        }
    }

    /// The page the pass read (`html`) with the cut tags removed, and the note.
    fn finish(self, html: &str) -> (Cow<'_, str>, Option<String>) {
        let b = html.as_bytes();
        if self.cuts.is_empty() {
            return (Cow::Borrowed(html), None);
        }
        let dropped_starts = self.cuts.iter().filter(|(s, _)| b.get(s + 1) != Some(&b'/')).count() - self.never_cut;
        let mut out = String::with_capacity(html.len());
        let mut copied = 0;
        for (from, to) in self.cuts {
            out.push_str(&html[copied..from]);
            copied = to;
        }
        out.push_str(&html[copied..]);
        let whole = match self.never_cut {
            0 => String::new(),
            n => format!("; {n} script, style or hidden element(s) beyond it were dropped whole"),
        };
        let note = format!(
            "elements nested deeper than {MAX_DEPTH}: {dropped_starts} start tag(s) beyond that depth were dropped, their text kept (the depth limit){whole}"
        );
        (Cow::Owned(out), Some(note))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max_attrs: usize, max_markup: usize) -> Limits {
        Limits { max_attrs, max_markup, ..Limits::default() }
    }

    /// The scope boundaries by name ([`SCOPE_IDS`]).
    const SCOPE: &[&str] = &[
        "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template", "button", "ul", "ol",
        "select", "tbody", "thead", "tfoot", "tr",
    ];

    #[test]
    fn the_implied_closes_names_have_the_ids_of_their_constants() {
        let mut names = Interner::default();
        let id = |names: &mut Interner, n: &str| names.id(Name::new(n.as_bytes()));
        for (n, want) in [("p", P), ("li", LI), ("dd", DD), ("dt", DT), ("option", OPTION), ("optgroup", OPTGROUP)] {
            assert_eq!(id(&mut names, n), want, "{n}");
        }
        for (n, want) in [("tr", TR), ("td", TD), ("th", TH), ("tbody", TBODY), ("thead", THEAD), ("tfoot", TFOOT)] {
            assert_eq!(id(&mut names, n), want, "{n}");
        }
        for (n, want) in [("ul", UL), ("ol", OL), ("table", TABLE), ("template", TEMPLATE), ("select", SELECT)] {
            assert_eq!(id(&mut names, n), want, "{n}");
        }
        assert_eq!((id(&mut names, "datalist"), id(&mut names, "DL")), (DATALIST, DL));
        let scope: Vec<u32> = SCOPE.iter().map(|n| id(&mut names, n)).collect();
        assert_eq!(scope, SCOPE_IDS);
        for n in CLOSES_P {
            let i = id(&mut names, n);
            assert!(names.closes_p(i), "{n}");
        }
        let span = id(&mut names, "span");
        assert!(!names.closes_p(span));
        // Names no Tag knows: their own ids, the same for the same name.
        let (x, y) = (id(&mut names, "x-widget"), id(&mut names, "listing"));
        assert!(x >= FIRST_UNKNOWN && y >= FIRST_UNKNOWN && x != y && id(&mut names, "X-Widget") == x);
        assert!(names.closes_p(y) && !names.closes_p(x));
    }

    #[test]
    fn never_text_elements_beyond_the_depth_limit_are_cut_whole() {
        // Issue 35: past the limit only the start tags were dropped, so a script's code became
        // page text. Now the element goes with its content, nested ones of its name included.
        let deep = "<div>".repeat(MAX_DEPTH + 100);
        let html = format!(
            "{deep}<script>var secret = 1;</script><STYLE>.x{{color:red}}</STYLE><p>kept words</p>\
             <noscript><p>fallback</p></noscript><template><template>t</template>inner</template>\
             <div hidden><div>hid</div>den</div><p>tail</p>"
        );
        let (out, note) = limit_depth_noted(&html);
        for gone in ["secret", "color", "fallback", "inner", "hid", "den"] {
            assert!(!out.contains(gone), "{gone} stayed");
        }
        assert!(out.contains("kept words") && out.contains("tail"));
        let note = note.unwrap();
        assert!(note.contains("; 5 script, style or hidden element(s)"), "{note}");
        // An element left open runs to the page's end, as in the tree builder.
        let open = format!("{deep}visible<noscript><p>never closed");
        let (out, _) = limit_depth_noted(&open);
        assert!(out.ends_with("visible"), "{}", &out[out.len() - 40..]);
    }

    #[test]
    fn find_ci_finds_the_first_match_in_any_case() {
        assert_eq!(find_ci(b"x</scRIPT></script>", b"</script"), Some(1));
        assert_eq!(find_ci(b"<<</s", b"</s"), Some(2));
        assert_eq!(find_ci(b"abcABC", b"bc"), Some(1));
        assert_eq!(find_ci(b"aBcABC", b"bc"), Some(1));
        assert_eq!(find_ci(b"ab", b"abc"), None);
        assert_eq!(find_ci(b"--x-->", b"-->"), Some(3));
        assert_eq!(find_ci(b"", b"-->"), None);
    }

    #[test]
    fn implied_end_tags_close_elements_so_valid_pages_are_not_cut() {
        // 1,100 options without </option>, then a script: valid HTML, 2 levels deep.
        let html = format!("<select>{}</select><script>var x = 1;</script><p>after", "<option>o".repeat(1_100));
        let (out, notes) = apply(&html, &Limits::default());
        assert!(matches!(out, Cow::Borrowed(_)) && notes.is_empty(), "{notes:?}");
        let lis = "<ul>".to_string() + &"<li>x".repeat(2_000) + "</ul>" + &"<p>y".repeat(2_000);
        assert!(matches!(limit_depth(&lis), Cow::Borrowed(_)));
        // Real nesting is still cut, with a note.
        let deep = "<div>".repeat(MAX_DEPTH + 5) + "deep" + &"</div>".repeat(MAX_DEPTH + 5) + "<script>s</script>";
        let (out, notes) = apply(&deep, &Limits::default());
        assert_eq!(out.matches("<div>").count(), MAX_DEPTH);
        assert_eq!(out.matches("</div>").count(), MAX_DEPTH);
        assert!(out.ends_with("<script>s</script>"));
        assert!(notes.iter().any(|n| n.contains("the depth limit") && n.contains("5 start tag")), "{notes:?}");
    }

    #[test]
    fn attributes_beyond_the_budget_are_dropped_and_quoted_gt_is_no_tag_end() {
        let html = "<div a='x>y' b=\"1\" c=2 d e = 'f'>text</div><p x=1>p</p>";
        let (out, notes) = apply(html, &limits(2, 100));
        assert_eq!(out, "<div a='x>y' b=\"1\" >text</div><p x=1>p</p>");
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("more than 2 attributes"), "{notes:?}");
        // Within budget: untouched and borrowed.
        let (out, notes) = apply(html, &limits(5, 100));
        assert!(matches!(out, Cow::Borrowed(_)) && notes.is_empty());
    }

    #[test]
    fn the_page_is_cut_before_the_markup_beyond_the_budget() {
        let (out, notes) = apply("<p>a</p><p>b &amp; c</p><p>d</p>", &limits(10, 5));
        assert_eq!(out, "<p>a</p><p>b &amp; c</p>");
        assert!(notes[0].contains("more than 5 markup characters"), "{notes:?}");
        let lts = "<".repeat(1000);
        assert_eq!(apply(&lts, &limits(10, 10)).0.len(), 10);
    }

    #[test]
    fn comments_raw_text_and_stray_lt_are_not_tags() {
        let html = "<!-- <a b c> --><script>if (a<b) x = '<i j k>'</SCRIPT>a < b <<<< <1><p q r>t";
        let (out, notes) = apply(html, &limits(1, 100));
        // Tags: <script>, </SCRIPT>, <p q r> (its second attribute dropped).
        assert_eq!(out, "<!-- <a b c> --><script>if (a<b) x = '<i j k>'</SCRIPT>a < b <<<< <1><p q >t");
        assert_eq!(notes.len(), 1, "{notes:?}");
    }

    #[test]
    fn unterminated_tags_and_quotes_end_at_the_page_end() {
        for html in ["<div a='never closed", "<div a b c", "<div a=", "<", "<a", "</"] {
            let (out, _) = apply(html, &limits(1, 10));
            assert!(html.starts_with(&*out), "{html}: {out}");
        }
    }

    #[test]
    fn the_depth_limit_reads_quoted_gt_as_the_tokenizer_does() {
        // The old depth scan ended `<div title="a>b">` at the first `>`, so `b">` was text and
        // the nesting count was right only by luck; with a `/>` inside the quotes it saw a
        // self-closing tag and lost a level per element.
        let html = "<div title='x/>'>".repeat(MAX_DEPTH + 10) + "deep" + &"</div>".repeat(MAX_DEPTH + 10);
        let out = limit_depth(&html);
        assert_eq!(out.matches("<div").count(), MAX_DEPTH);
        assert!(out.contains("deep"));
        let mut n = 0;
        tags(b"<a href='x>y'>t</a>", usize::MAX, |t| {
            n += 1;
            assert!(t.end == 14 || t.end == 19, "{}", t.end);
        });
        assert_eq!(n, 2);
    }
}
