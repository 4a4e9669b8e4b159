//! boilerpipe's text blocks (`algorithms.md` §6a), built once per page after the DOM walk: runs
//! of text between two tags that are not inline for boilerpipe, each with its words, linked
//! words, words per 80-character line and end-of-article marker, so an individual only
//! classifies them.
//!
//! [`FACT`] declares them. They are made from the flattened DOM: its nodes in pre-order with
//! their subtree ends replay the walk's start tags, end tags and text nodes in the order the
//! walk met them (hidden subtrees and whitespace-only text are in neither).

use crate::document::facts::{Build, Fact, Shared};
use crate::document::parse::{NONE, Step};
use crate::document::{Dom, Needs, Tag};
use std::sync::Arc;

/// boilerpipe's fact: the page's text blocks and which block each DOM text unit is in.
pub static FACT: Fact = Fact {
    name: "bp_blocks",
    reads: Needs::DOM,
    build: Build::After(|d| -> Shared { Arc::new(TextBlocks::of(&d.dom)) }),
    package: None,
};

/// A page's boilerpipe text blocks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextBlocks {
    /// The blocks, in document order.
    pub blocks: Vec<BpBlock>,
    /// Per DOM text unit, its block (an index into `blocks`), or [`NONE`] inside the elements
    /// boilerpipe ignores (`option object embed applet`) or in a block without tokens.
    pub of_unit: Vec<u32>,
}

impl TextBlocks {
    /// The blocks of a flattened page.
    pub fn of(dom: &Dom) -> TextBlocks {
        blocks(dom, &segments(dom))
    }
}

/// Parameter-independent facts of one boilerpipe text block (`algorithms.md` §6a): a run of
/// text between two tags that are not inline for boilerpipe.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BpBlock {
    /// Tokens with a letter or digit.
    pub words: u32,
    /// Of them, inside an `a` element.
    pub linked: u32,
    /// Words on the full lines when the words are wrapped at 80 characters (all words when the
    /// block fits on one line).
    pub wrapped_words: u32,
    /// Full wrapped lines (1 when the block fits on one line).
    pub lines: u32,
    /// boilerpipe's `TerminatingBlocksFinder` marks it as the end of an article (fewer than 15
    /// words and a text such as `Comments`, `Add your comment`, `Reader views`).
    pub terminating: bool,
}

impl BpBlock {
    /// Words per wrapped line (boilerpipe's text density).
    pub fn text_density(&self) -> f64 {
        f64::from(self.wrapped_words) / f64::from(self.lines.max(1))
    }
    /// Equal text densities, compared exactly (as the fractions they are).
    pub fn same_density(&self, other: &BpBlock) -> bool {
        u64::from(self.wrapped_words) * u64::from(other.lines.max(1))
            == u64::from(other.wrapped_words) * u64::from(self.lines.max(1))
    }
    /// Linked words per word (0 without words).
    pub fn link_density(&self) -> f64 {
        if self.words == 0 { 0.0 } else { f64::from(self.linked) / f64::from(self.words) }
    }
    /// This block followed by `next`, as boilerpipe's `TextBlock.merge_next` does.
    pub fn merged(&self, next: &BpBlock) -> BpBlock {
        BpBlock {
            words: self.words + next.words,
            linked: self.linked + next.linked,
            wrapped_words: self.wrapped_words + next.wrapped_words,
            lines: self.lines + next.lines,
            terminating: self.terminating || next.terminating,
        }
    }
}

/// Tags that do not end a boilerpipe text block (`boilerpipe`'s inline tag actions and `a`).
const INLINE: &[&str] = &[
    "a", "abbr", "acronym", "b", "code", "em", "font", "i", "span", "strike", "strong", "sub", "sup", "tt", "u", "var",
];

/// Elements whose content boilerpipe ignores (beside the never-text ones).
const IGNORED: &[&str] = &["applet", "embed", "object", "option"];

/// boilerpipe's tokens (`[\w"'.,!@\-:;$?()/]+`) of `text`: calls `f(chars, is_word)`.
fn tokens(text: &str, mut f: impl FnMut(u32, bool)) {
    let token_char = |c: char| c.is_alphanumeric() || c == '_' || "\"'.,!@-:;$?()/".contains(c);
    for tok in text.split(|c: char| !token_char(c)).filter(|t| !t.is_empty()) {
        f(tok.chars().count() as u32, tok.chars().any(char::is_alphanumeric));
    }
}

/// boilerpipe's end-of-article markers (`TerminatingBlocksFinder`) on a block's text.
fn terminating(text: &str, words: u32) -> bool {
    let t = text.trim().to_lowercase();
    if words >= 15 || t.chars().count() < 8 {
        return false;
    }
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let after = &t[digits..];
    t.starts_with("comments")
        || (digits > 0 && (after.starts_with(" comments") || after.starts_with(" users responded in")))
        || ["© reuters", "please rate this", "post a comment"].iter().any(|m| t.starts_with(m))
        || [
            "what you think...",
            "add your comment",
            "add comment",
            "reader views",
            "have your say",
            "reader comments",
            "rätta artikeln",
        ]
        .iter()
        .any(|m| t.contains(m))
        || t == "thanks for your comments - this feedback is now closed"
}

/// The blocks of a flattened page from each unit's segment number: units with the same
/// segment number form a block; a block without any token is dropped (its units get [`NONE`]).
fn blocks(dom: &Dom, segs: &[u32]) -> TextBlocks {
    let mut out = TextBlocks { blocks: Vec::new(), of_unit: vec![NONE; segs.len()] };
    let mut start = 0;
    let mut text = String::new();
    while start < segs.len() {
        let seg = segs[start];
        let mut end = start;
        while end < segs.len() && segs[end] == seg {
            end += 1;
        }
        if seg == NONE {
            start = end;
            continue;
        }
        let (mut b, mut count, mut line_len, mut line_words) = (BpBlock::default(), 0u32, -1i64, 0u32);
        text.clear();
        for u in start..end {
            let linked = dom.info[u].in_a;
            let t = dom.texts.get(u);
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(t);
            tokens(t, |len, word| {
                count += 1;
                if !word {
                    return;
                }
                b.words += 1;
                b.linked += u32::from(linked);
                line_words += 1;
                line_len += i64::from(len) + 1;
                if line_len > 80 {
                    b.lines += 1;
                    line_len = i64::from(len);
                    line_words = 1;
                }
            });
        }
        let id = if count == 0 {
            NONE
        } else {
            (b.wrapped_words, b.lines) = if b.lines == 0 { (b.words, 1) } else { (b.words - line_words, b.lines) };
            if b.wrapped_words == 0 {
                (b.wrapped_words, b.lines) = (b.words, 1);
            }
            b.terminating = terminating(&text, b.words);
            out.blocks.push(b);
            (out.blocks.len() - 1) as u32
        };
        for u in start..end {
            out.of_unit[u] = id;
        }
        start = end;
    }
    out
}

/// Bits of [`CLASSES`].
const INL: u8 = 1;
const IGN: u8 = 2;

/// Per tag id ([`Tag`]), its bits of [`INLINE`] and [`IGNORED`]: one lookup per element. Every
/// name of those lists is a known tag; an unknown element (`Tag::OTHER`) is in none.
static CLASSES: std::sync::LazyLock<[u8; 256]> = std::sync::LazyLock::new(|| {
    let mut c = [0u8; 256];
    for (list, bit) in [(INLINE, INL), (IGNORED, IGN)] {
        for n in list {
            let t = Tag::from_name(n);
            debug_assert!(t != Tag::OTHER, "{n} is not a known tag");
            c[usize::from(t.0)] |= bit;
        }
    }
    c
});

/// Each DOM text unit's segment number ([`NONE`] inside an ignored element): it grows at every
/// start and end tag of an element that is not inline, in the walk replayed ([`Dom::replay`]).
fn segments(dom: &Dom) -> Vec<u32> {
    let (mut seg, mut ignored) = (0u32, 0u32);
    let mut segs = Vec::with_capacity(dom.texts.len());
    dom.replay(|step| match step {
        Step::Text(_) => segs.push(if ignored > 0 { NONE } else { seg }),
        Step::Open(i) => {
            let c = CLASSES[usize::from(dom.nodes[i].tag.0)];
            ignored += u32::from(c & IGN != 0);
            seg += u32::from(c & INL == 0);
        }
        Step::Close(i) => {
            let c = CLASSES[usize::from(dom.nodes[i].tag.0)];
            ignored -= u32::from(c & IGN != 0 && ignored > 0);
            seg += u32::from(c & INL == 0);
        }
    });
    segs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;

    #[test]
    fn blocks_wrap_at_80_characters_and_ignore_options() {
        let words = "word ".repeat(40);
        let html = format!(
            "<body><p>{words}<a href=x>two links</a></p><p>Hi <span>there</span>, <b>you</b></p><p>... --</p><p>| ·</p>\
             <select><option>ignored</option></select></body>"
        );
        let d = Document::parse_for(&html, &Default::default(), Needs::fact(&FACT)).0;
        let t = d.facts.get::<TextBlocks>().expect("built");
        assert_eq!(t.blocks.len(), 3);
        let b = t.blocks[0];
        // 42 words of 4-5 characters: 16 per 80-character line, the last line left out.
        assert_eq!((b.words, b.linked, b.lines, b.wrapped_words), (42, 2, 2, 32));
        assert!((b.text_density() - 16.0).abs() < 1e-12);
        assert_eq!((t.blocks[1].words, t.blocks[1].lines, t.blocks[1].text_density()), (3, 1, 3.0));
        // A block of punctuation tokens only is kept with no words; one without any token is not.
        assert_eq!(t.blocks[2].words, 0);
        let n = t.of_unit.len();
        assert_eq!(n, d.dom.texts.len());
        assert_eq!((t.of_unit[n - 2], t.of_unit[n - 1]), (NONE, NONE));
        assert!(terminating("Add your comment", 3) && terminating("12 comments so far", 3));
        assert!(!terminating("comments", 20) && !terminating("Share", 1));
    }

    #[test]
    fn the_tag_table_agrees_with_the_name_lists() {
        for name in INLINE.iter().chain(IGNORED).chain(&["span", "h3", "x-custom", "svg", "br", "form"]) {
            let t = Tag::from_any_case(name);
            let c = CLASSES[usize::from(t.0)];
            let name = t.name();
            assert_eq!(c & INL != 0, INLINE.contains(&name), "{name}");
            assert_eq!(c & IGN != 0, IGNORED.contains(&name), "{name}");
        }
    }
}
