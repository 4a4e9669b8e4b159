//! The source token stream (`algorithms.md` §0.2): a lexical scan of the page in source order
//! into tags, opaque segments (comments, declarations, script/style/title/noscript/template
//! bodies) and text, where text becomes words and whitespace runs. Content code blurring, BTE
//! and every source-order algorithm read this view. The scan never fails and never recurses.
//! Elements hidden by their attributes (`hidden.rs`, the list the DOM view uses too) keep their
//! tags as code, and their text becomes opaque code: it is not page text.

use super::entities;
use super::hidden::{NEVER_TEXT, attr_in, attrs_in, hidden_by_attributes};
use super::tags::{Tag, VOID, tag};
use super::{Units, sep};

/// What a source token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A start tag `<x ...>` (code).
    Start,
    /// An end tag `</x>` (code).
    End,
    /// A comment, declaration or the body of script/style/title/noscript/template (code).
    Opaque,
    /// A word of rendered text (content).
    Word,
    /// A run of whitespace inside a text segment (one content character for CCB).
    Space,
}

/// One token of the source stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SrcToken {
    /// What it is.
    pub kind: Kind,
    /// The element, for tags.
    pub tag: Tag,
    /// Its length in characters (source characters for code, decoded characters for words).
    pub chars: u32,
    /// The canonical word index, for words.
    pub word: u32,
}

/// The scanned page.
#[derive(Debug, Clone, Default)]
pub struct Source {
    /// The token stream.
    pub tokens: Vec<SrcToken>,
    /// The canonical words, in order.
    pub words: Units,
    /// Index of the first token after the head ends (the body, explicit or implied).
    pub body_start: usize,
    /// Per token, the source line (from 0) it starts on: CETR's lines.
    pub lines: Vec<u32>,
    /// Parameter-independent facts of the source: see [`Source::index`].
    pub index: SourceIndex,
}

/// What BTE, DSC and CETR read of the token stream, computed once per page.
#[derive(Debug, Clone, Default)]
pub struct SourceIndex {
    /// The tokens from `body_start` that are not whitespace (BTE's and DSC's sequence).
    pub scored: Vec<u32>,
    /// `tags_before[i]`: tag and opaque tokens among `scored[..i]` (one entry more than `scored`).
    pub tags_before: Vec<u32>,
    /// CETR's source lines: lines holding a token other than a comment, a script or style body
    /// (any opaque segment) or a `script` or `style` tag.
    pub text_lines: Vec<TextLine>,
}

/// One of CETR's source lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TextLine {
    /// Characters of its tokens (a whitespace run counts one).
    pub width: u32,
    /// Characters of its words.
    pub chars: u32,
    /// Its tags.
    pub tags: u32,
    /// Its words: canonical indices `words.0..words.1`.
    pub words: (u32, u32),
    /// Its tokens: `tokens.0..tokens.1` (CETR's left-out ones among them).
    pub tokens: (u32, u32),
}

/// A token CETR leaves out: any opaque segment, and the `script` and `style` tags.
pub fn cetr_skips(t: &SrcToken) -> bool {
    static RAW: std::sync::LazyLock<[Tag; 2]> = std::sync::LazyLock::new(|| [tag("script"), tag("style")]);
    t.kind == Kind::Opaque || (matches!(t.kind, Kind::Start | Kind::End) && RAW.contains(&t.tag))
}

impl Source {
    /// Builds [`Source::index`] from the tokens and their lines.
    pub fn build_index(&mut self) {
        let ix = &mut self.index;
        *ix = SourceIndex::default();
        ix.tags_before.push(0);
        for (k, t) in self.tokens.iter().enumerate().skip(self.body_start) {
            if t.kind != Kind::Space {
                ix.scored.push(k as u32);
                let last = *ix.tags_before.last().expect("starts with 0");
                ix.tags_before.push(last + u32::from(t.kind != Kind::Word));
            }
        }
        let mut next_word = 0u32;
        for (k, (t, &l)) in self.tokens.iter().zip(&self.lines).enumerate() {
            if t.kind == Kind::Word {
                next_word = t.word + 1;
            }
            if cetr_skips(t) {
                continue;
            }
            let same = ix.text_lines.last().is_some_and(|x| self.lines[x.tokens.0 as usize] == l);
            if !same {
                let first = if t.kind == Kind::Word { t.word } else { next_word };
                ix.text_lines.push(TextLine {
                    words: (first, first),
                    tokens: (k as u32, k as u32),
                    ..TextLine::default()
                });
            }
            let x = ix.text_lines.last_mut().expect("pushed above");
            x.tokens.1 = k as u32 + 1;
            x.width += if t.kind == Kind::Space { 1 } else { t.chars };
            match t.kind {
                Kind::Word => {
                    x.chars += t.chars;
                    x.words.1 = t.word + 1;
                }
                Kind::Start | Kind::End => x.tags += 1,
                _ => {}
            }
        }
    }
}

/// Gives the tokens pushed since the last call the source line `line`.
fn pad_lines(out: &mut Source, line: u32) {
    let n = out.tokens.len();
    out.lines.resize(n.max(out.lines.len()), line);
}

/// Elements whose content is raw text that is never rendered as page text: the never-text
/// elements of `hidden.rs` except `head` (whose end the scanner finds by its content), and `xmp`.
/// Unknown tags (`Tag::OTHER`) are never raw.
fn is_raw(t: Tag) -> bool {
    /// Per tag id: a raw-text element (one table, built once).
    static RAW: std::sync::LazyLock<[bool; 256]> = std::sync::LazyLock::new(|| {
        let mut raw = [false; 256];
        for n in NEVER_TEXT.iter().filter(|n| **n != "head").chain(&["xmp"]) {
            raw[usize::from(tag(n).0)] = true;
        }
        raw[usize::from(Tag::OTHER.0)] = false;
        raw
    });
    RAW[usize::from(t.0)]
}

/// An element hidden by its attributes, whose content the scanner is inside.
struct Hidden {
    /// Its lower-case name.
    name: String,
    /// Open elements of that name (itself included).
    depth: u32,
}

/// Elements whose end tag may be omitted: a start tag of the same name (or, for `p`, any block)
/// ends them.
const OPTIONAL_END: &[&str] = &["dd", "dt", "li", "option", "p", "td", "th", "tr"];

/// Follows a tag through a hidden element: returns false once the tag ends it (or implies its
/// end), true while the tag is still inside.
fn still_hidden(h: &mut Hidden, name: &str, t: Tag, is_end: bool, void: bool) -> bool {
    if is_end && matches!(name, "body" | "html") {
        return false;
    }
    if name == h.name {
        if is_end {
            h.depth -= 1;
            return h.depth > 0;
        }
        if OPTIONAL_END.contains(&name) && h.depth == 1 {
            return false;
        }
        if !void {
            h.depth += 1;
        }
        return true;
    }
    !(!is_end && h.name == "p" && h.depth == 1 && t.is_block())
}

/// True when the attributes of the start tag `name` (its text after the name: `rest`) hide the
/// element ([`hidden_by_attributes`]), read in one pass over them: `hidden`, `type` and `style`
/// as [`attr_in`] finds each (the first of its name).
fn hides(name: &str, rest: &str) -> bool {
    let (mut hidden, mut kind, mut style) = (None, None, None);
    attrs_in(rest, |k, v| {
        for (want, slot) in [("hidden", &mut hidden), ("type", &mut kind), ("style", &mut style)] {
            if slot.is_none() && k.eq_ignore_ascii_case(want) {
                *slot = Some(v);
            }
        }
        false
    });
    hidden_by_attributes(name, |a| match a {
        "hidden" => hidden,
        "type" => kind,
        "style" => style,
        _ => attr_in(rest, a),
    })
}

/// Finds the `>` that closes a tag starting at `from`, skipping quoted attribute values.
fn tag_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    let mut quote = 0u8;
    while i < b.len() {
        let c = b[i];
        if quote != 0 {
            if c == quote {
                quote = 0;
            }
        } else if c == b'"' || c == b'\'' {
            // A quote only opens a value right after `=` (possibly with spaces).
            let mut j = i;
            while j > from && b[j - 1].is_ascii_whitespace() {
                j -= 1;
            }
            if j > from && b[j - 1] == b'=' {
                quote = c;
            }
        } else if c == b'>' {
            return i + 1;
        }
        i += 1;
    }
    b.len()
}

/// Case-insensitive search for `</name` from `from`.
fn find_close(b: &[u8], from: usize, name: &str) -> usize {
    let n = name.as_bytes();
    let mut i = from;
    while let Some(k) = memchr::memchr(b'<', &b[i.min(b.len())..]) {
        i += k;
        if i + 2 + n.len() > b.len() {
            break;
        }
        if b[i + 1] == b'/' && b[i + 2..i + 2 + n.len()].eq_ignore_ascii_case(n) {
            let after = b.get(i + 2 + n.len()).copied().unwrap_or(b'>');
            if !after.is_ascii_alphanumeric() {
                return i;
            }
        }
        i += 1;
    }
    b.len()
}

fn char_count(s: &str) -> u32 {
    s.chars().count() as u32
}

/// Scans a decoded page.
pub fn scan(html: &str) -> Source {
    scan_with(html, true)
}

/// Scans a decoded page, with the index of [`Source::build_index`] only when `index` (BTE's, DSC's
/// and CETR's readers need it; others skip building it).
pub fn scan_with(html: &str, index: bool) -> Source {
    let b = html.as_bytes();
    let mut out = Source::default();
    let mut in_head = true;
    let mut pending_sep = 0u8; // separator before the next word: block/br seen => newline
    // The last word touched the end of its text segment: text right after the next inline tag
    // continues it (`<b>bold</b>word` is one word, as a browser renders it).
    let mut glue = false;
    let mut decoded = String::new();
    let mut hidden: Option<Hidden> = None;
    let mut i = 0;
    let (mut line, mut counted) = (0u32, 0usize);
    let code = |out: &mut Source, kind: Kind, t: Tag, chars: u32| {
        out.tokens.push(SrcToken { kind, tag: t, chars, word: u32::MAX });
    };
    while i < b.len() {
        // The tokens of the last step start where it started; text words carry their own lines.
        pad_lines(&mut out, line);
        line += b[counted..i].iter().filter(|&&c| c == b'\n').count() as u32;
        counted = i;
        let starts_markup =
            b[i] == b'<' && b.get(i + 1).is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?'));
        if !starts_markup {
            // The text runs to the next `<` that starts markup, or to the end of the page.
            let mut j = i + 1;
            loop {
                match memchr::memchr(b'<', &b[j.min(b.len())..]) {
                    Some(k)
                        if b.get(j + k + 1)
                            .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?')) =>
                    {
                        j += k;
                        break;
                    }
                    Some(k) => j += k + 1,
                    None => {
                        j = b.len();
                        break;
                    }
                }
            }
            if hidden.is_some() {
                code(&mut out, Kind::Opaque, Tag::OTHER, char_count(&html[i..j]));
                i = j;
                continue;
            }
            decoded.clear();
            entities::decode_into(&html[i..j], &mut decoded);
            if decoded.chars().any(|c| !c.is_whitespace()) {
                if in_head {
                    in_head = false;
                    out.body_start = out.tokens.len();
                }
                push_text(&mut out, &decoded, (&mut pending_sep, &mut glue), line);
            } else if !decoded.is_empty() {
                glue = false;
            }
            i = j;
            continue;
        }
        if html[i..].starts_with("<!--") {
            let end = html[i + 4..].find("-->").map_or(b.len(), |k| i + 4 + k + 3);
            code(&mut out, Kind::Opaque, Tag::OTHER, char_count(&html[i..end]));
            i = end;
            continue;
        }
        if b[i + 1] == b'!' || b[i + 1] == b'?' {
            let end = html[i..].find('>').map_or(b.len(), |k| i + k + 1);
            code(&mut out, Kind::Opaque, Tag::OTHER, char_count(&html[i..end]));
            i = end;
            continue;
        }
        let is_end = b[i + 1] == b'/';
        let name_start = if is_end { i + 2 } else { i + 1 };
        let mut name_end = name_start;
        while name_end < b.len() && (b[name_end].is_ascii_alphanumeric() || matches!(b[name_end], b'-' | b':' | b'_')) {
            name_end += 1;
        }
        let t = Tag::from_any_case(&html[name_start..name_end]);
        let end = tag_end(b, name_end);
        let chars = char_count(&html[i..end]);
        // Lower-cased only when it is not already (most names are).
        let name = match html[name_start..name_end].bytes().any(|c| c.is_ascii_uppercase()) {
            true => std::borrow::Cow::Owned(html[name_start..name_end].to_ascii_lowercase()),
            false => std::borrow::Cow::Borrowed(&html[name_start..name_end]),
        };
        let void = VOID.contains(&&*name) || html[..end].ends_with("/>");
        if let Some(h) = hidden.as_mut() {
            if still_hidden(h, &name, t, is_end, void) {
                code(&mut out, if is_end { Kind::End } else { Kind::Start }, t, chars);
                i = end;
                if !is_end && is_raw(t) {
                    i = raw_body(&mut out, html, i, t);
                }
                continue;
            }
            hidden = None;
            if is_end && name != "body" && name != "html" {
                code(&mut out, Kind::End, t, chars);
                i = end;
                continue;
            }
        }
        if !is_end && !void && !is_raw(t) && hides(&name, &html[name_end..end]) {
            if in_head && !t.is_head_content() {
                in_head = false;
                out.body_start = out.tokens.len();
            }
            hidden = Some(Hidden { name: name.into_owned(), depth: 1 });
            code(&mut out, Kind::Start, t, chars);
            i = end;
            continue;
        }
        if in_head {
            let ends_head = if is_end {
                matches!(t.name(), "head" | "body" | "html")
            } else {
                t.name() == "body" || !t.is_head_content()
            };
            if ends_head {
                in_head = false;
                // An explicit <body> or </head> is itself code before the body.
                let explicit = matches!(t.name(), "body" | "head");
                code(&mut out, if is_end { Kind::End } else { Kind::Start }, t, chars);
                out.body_start = out.tokens.len() - usize::from(!explicit);
                i = end;
                if !is_end && is_raw(t) {
                    i = raw_body(&mut out, html, i, t);
                }
                continue;
            }
        }
        if t.is_block() || t.name() == "br" {
            pending_sep = 2;
        } else if t.is_spaced() && pending_sep == 0 {
            pending_sep = 1;
        }
        code(&mut out, if is_end { Kind::End } else { Kind::Start }, t, chars);
        i = end;
        if !is_end && is_raw(t) {
            i = raw_body(&mut out, html, i, t);
        }
    }
    if in_head {
        out.body_start = out.tokens.len();
    }
    pad_lines(&mut out, line);
    if index {
        out.build_index();
    }
    out
}

/// Emits the raw body of a script/style/... element as one opaque token; returns where the close
/// tag starts.
fn raw_body(out: &mut Source, html: &str, from: usize, t: Tag) -> usize {
    let close = find_close(html.as_bytes(), from, t.name());
    if close > from {
        out.tokens.push(SrcToken { kind: Kind::Opaque, tag: t, chars: char_count(&html[from..close]), word: u32::MAX });
    }
    close
}

/// Splits a decoded text segment into words and whitespace runs.
/// Each token also gets its source line: `line` plus the newlines before it in `text`.
/// A first word that touches the segment's start continues the previous word when `glue` says
/// that one touched its segment's end and no block, `<br>` or spaced element came between:
/// the two Word tokens then share one canonical word.
fn push_text(out: &mut Source, text: &str, (pending_sep, glue): (&mut u8, &mut bool), line: u32) {
    pad_lines(out, line);
    let mut line = line;
    let mut in_space = false;
    let mut word_start: Option<usize> = None;
    let flush = |out: &mut Source, s: usize, e: usize, pending: &mut u8, glue: &mut bool| {
        let w = &text[s..e];
        let idx = if *glue && s == 0 && *pending == 0 && !out.words.is_empty() {
            out.words.extend_last(w);
            (out.words.len() - 1) as u32
        } else {
            out.words.push(w, if out.words.is_empty() { 0 } else { (*pending).max(sep::SPACE) })
        };
        *pending = 0;
        *glue = false;
        out.tokens.push(SrcToken { kind: Kind::Word, tag: Tag::OTHER, chars: char_count(w), word: idx });
    };
    for (k, c) in text.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = word_start.take() {
                flush(out, s, k, pending_sep, glue);
            }
            *glue = false;
            if !in_space {
                out.tokens.push(SrcToken { kind: Kind::Space, tag: Tag::OTHER, chars: 1, word: u32::MAX });
                in_space = true;
            }
            pad_lines(out, line);
            line += u32::from(c == '\n');
        } else {
            in_space = false;
            if word_start.is_none() {
                word_start = Some(k);
            }
        }
    }
    if let Some(s) = word_start {
        flush(out, s, text.len(), pending_sep, glue);
        *glue = true;
    }
    pad_lines(out, line);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(html: &str) -> Vec<String> {
        let s = scan(html);
        (0..s.words.len()).map(|i| s.words.get(i).to_string()).collect()
    }

    #[test]
    fn words_skip_code_and_decode_entities() {
        let html = "<html><head><title>T x</title><style>p{}</style><script>var a='<p>';</script></head>\
                    <body><!-- c --><p class=\"a>b\">Hello&nbsp;big <b>world</b>&amp;co</p><noscript>ns</noscript></body></html>";
        assert_eq!(words(html), ["Hello", "big", "world&co"]); // a browser renders `world&co`
    }

    #[test]
    fn text_without_markup_after_it_runs_to_the_end_of_the_page() {
        // A page whose last text holds no markup (or only a `<` that starts none) ends in text:
        // the segment is the rest of the page, even when it starts with a multi-byte character.
        assert_eq!(words("ø"), ["ø"]);
        assert_eq!(words("<p>5 <3 ok ø"), words("<p>5 <3 ok ø</p>"));
        assert_eq!(words("<p>5 <3 ok ø"), ["5", "<3", "ok", "ø"]);
    }

    #[test]
    fn every_token_knows_its_source_line() {
        let s = scan("<p>one\ntwo <b>three</b></p>\n<!-- a\nb -->\n<p>four &amp;\n five</p>");
        assert_eq!(s.lines.len(), s.tokens.len());
        let word_lines: Vec<u32> =
            s.tokens.iter().zip(&s.lines).filter(|(t, _)| t.kind == Kind::Word).map(|(_, l)| *l).collect();
        assert_eq!(word_lines, [0, 1, 1, 4, 4, 5]);
        let last_tag = s.tokens.iter().rposition(|t| t.kind == Kind::End).unwrap();
        assert_eq!(s.lines[last_tag], 5);
    }

    #[test]
    fn unknown_tag_ending_the_head_is_not_raw_text() {
        // L3S-GN1 pages wrap text in unknown elements such as <WN>; they must not swallow the page.
        let s = scan("<html><head><title>t</title><WN>Main text here</WN><p>and more</p>");
        assert_eq!(s.words.len(), 5);
        let s = scan("<html><body><xmp>raw <b>code</b></xmp><p>two words</p>");
        assert_eq!(s.words.len(), 2);
    }

    #[test]
    fn head_without_close_ends_at_first_body_content() {
        // D.1.1: a <head> with no </head> or <body> must not swallow the page.
        let html = "<html><head><meta charset=utf-8><title>t</title><div>Main text here</div>";
        let s = scan(html);
        assert_eq!(s.words.len(), 3);
        assert!(s.body_start <= s.tokens.iter().position(|t| t.kind == Kind::Word).unwrap());
        assert_eq!(words("<head><meta x>Plain text"), ["Plain", "text"]);
    }

    #[test]
    fn hidden_elements_are_code_as_in_the_dom_view() {
        // Issue 10: `hidden` and `display:none` were dropped by the DOM view but counted here.
        let html = "<body><p>a</p><div hidden>x <div>y</div> z</div><p>b</p>\
                    <span style=\"DISPLAY: none\">s</span><p hidden>q<p>c<ul><li hidden>l<li>d</ul>\
                    <input type=hidden value=v>e<br/>f";
        assert_eq!(words(html), ["a", "b", "c", "d", "e", "f"]);
        let dom = super::super::parse::parse(html);
        let dom_words: Vec<&str> = (0..dom.texts.len()).flat_map(|i| dom.texts.get(i).split(' ')).collect();
        assert_eq!(dom_words, words(html));
        // The hidden text is code: its characters stay in the stream, as opaque tokens.
        let s = scan("<body><div hidden>xy</div>");
        assert_eq!(s.tokens.iter().map(|t| (t.kind, t.chars)).collect::<Vec<_>>()[2], (Kind::Opaque, 2));
    }

    #[test]
    fn entities_decode_as_in_the_dom_view() {
        // `&rarr;` was the word "rarr" here and "→" in the DOM view.
        let html = "<body><p>next&rarr;page &hellip; x&nbsp;y&ensp;z &notin;</p>";
        let dom = super::super::parse::parse(html);
        assert_eq!(words(html).join(" "), dom.texts.get(0));
    }

    #[test]
    fn lone_lt_is_text_and_unclosed_comment_runs_to_eof() {
        assert_eq!(words("<p>a < b <3</p><!-- open"), ["a", "<", "b", "<3"]);
    }

    #[test]
    fn inline_tags_inside_a_word_do_not_split_it() {
        let html = "<p>Download (<a href=x>PDF</a>), <b>bold</b>word, <i>it</i>alic.<br>x<img src=y>z <span>a</span>\n<span>b</span></p>";
        assert_eq!(words(html), ["Download", "(PDF),", "boldword,", "italic.", "x", "z", "a", "b"]);
        // One canonical word, one Word token per piece.
        let s = scan("<p><b>bold</b>word</p>");
        let pieces: Vec<u32> = s.tokens.iter().filter(|t| t.kind == Kind::Word).map(|t| t.word).collect();
        assert_eq!(pieces, [0, 0]);
    }

    #[test]
    fn block_tags_give_newline_separators() {
        let s = scan("<body><p>a b</p><p>c<br>d <i>e</i></p>");
        let seps: Vec<u8> = s.words.seps().to_vec();
        assert_eq!(seps, [0, 1, 2, 2, 1]);
    }

    #[test]
    fn space_tokens_collapse_runs() {
        let s = scan("<body><p>  a   b </p>\n  <p>c</p>");
        let kinds: Vec<Kind> = s.tokens.iter().map(|t| t.kind).collect();
        use Kind::*;
        assert_eq!(kinds, [Start, Start, Space, Word, Space, Word, Space, End, Start, Word, End]);
    }
}
