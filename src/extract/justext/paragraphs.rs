//! jusText's paragraphs (`algorithms.md` §3b), built once per page after the DOM walk: runs of
//! text between two of jusText's paragraph tags (or a `<br><br>`), each with its characters,
//! link characters, heading ancestry and copyright sign, and its words and stop words counted
//! with the page language's jusText stop list ([`super::stoplists`]), so no individual counts
//! words again.
//!
//! [`FACT`] declares them. They are made from the flattened DOM: its nodes in pre-order with
//! their subtree ends replay the walk's start tags, end tags and text nodes in the order the
//! walk met them (hidden subtrees and whitespace-only text are in neither). The fact reads the
//! language, so a page whose language is declared after the parse builds it again
//! ([`Document::set_lang`](crate::document::Document::set_lang)).

use super::stoplists;
use crate::document::facts::{Build, Fact, Shared};
use crate::document::parse::{NONE, Step};
use crate::document::{Dom, Needs, Tag};
use std::sync::Arc;

/// jusText's fact: the page's paragraphs and which paragraph each DOM text unit is in.
pub static FACT: Fact = Fact {
    name: "paras",
    reads: Needs::LANG,
    build: Build::After(|d| -> Shared { Arc::new(Paragraphs::of(&d.dom, d.lang.as_deref())) }),
    package: None,
};

/// Parameter-independent facts of one jusText paragraph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Para {
    /// Characters of its whitespace-normalised text (units joined by one space).
    pub chars: u32,
    /// Characters of its units inside an `a` element (with or without `href`).
    pub link_chars: u32,
    /// Whitespace-separated words.
    pub words: u32,
    /// Words whose lower-case form is in the page language's jusText stop list.
    pub stop_words: u32,
    /// An `h1`–`h6` element was open where the paragraph started.
    pub heading: bool,
    /// Its text holds `©` or the literal `&copy`.
    pub copyright: bool,
}

/// A page's jusText paragraphs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Paragraphs {
    /// The paragraphs, in document order.
    pub paras: Vec<Para>,
    /// Per DOM text unit, its paragraph (an index into `paras`), or [`NONE`] inside the form
    /// controls jusText's cleaner deletes (`button select textarea applet`).
    pub of_unit: Vec<u32>,
    /// The stop list the words were counted with (`English`, `German`, ...).
    pub stoplist: &'static str,
}

impl Paragraphs {
    /// The paragraphs of a flattened page, their stop words counted with the list of `lang`.
    pub fn of(dom: &Dom, lang: Option<&str>) -> Paragraphs {
        let mut p = layout(dom);
        p.stoplist = count_words(&mut p, dom, lang);
        p
    }
}

/// jusText's paragraph tags (`justext.core.PARAGRAPH_TAGS`): each start or end tag starts a
/// new paragraph.
const PARAGRAPH: &[&str] = &[
    "blockquote",
    "body",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "div",
    "dl",
    "dt",
    "fieldset",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "legend",
    "li",
    "optgroup",
    "option",
    "p",
    "pre",
    "table",
    "td",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "tr",
    "ul",
];

/// Elements jusText's lxml cleaner deletes with their content (`forms=True`, `embedded=True`).
const KILLED: &[&str] = &["applet", "button", "input", "select", "textarea"];

/// A `form` is unwrapped by jusText's cleaner (`remove_tags`), so it starts no paragraph.
fn is_paragraph(name: &str) -> bool {
    name != "form" && PARAGRAPH.contains(&name)
}

/// Bits of [`CLASSES`].
const PARA: u8 = 1;
const KILL: u8 = 2;
const HEADING: u8 = 4;

/// Per tag id ([`Tag`]), its bits of [`is_paragraph`], [`KILLED`] and the headings `h1`–`h6`:
/// one lookup per element. Every name of those lists is a known tag; an unknown element
/// (`Tag::OTHER`) is in none.
static CLASSES: std::sync::LazyLock<[u8; 256]> = std::sync::LazyLock::new(|| {
    let mut c = [0u8; 256];
    let paragraphs: Vec<&str> = PARAGRAPH.iter().copied().filter(|n| is_paragraph(n)).collect();
    let headings = ["h1", "h2", "h3", "h4", "h5", "h6"];
    for (list, bit) in [(&paragraphs[..], PARA), (KILLED, KILL), (&headings, HEADING)] {
        for n in list {
            let t = Tag::from_name(n);
            debug_assert!(t != Tag::OTHER, "{n} is not a known tag");
            c[usize::from(t.0)] |= bit;
        }
    }
    c
});

/// Where the replayed walk stands: a paragraph boundary is pending since the last paragraph,
/// whether a heading was open at it, the heading depth, the killed-control depth and whether
/// the last element was a `<br>` with no text since.
struct Walk {
    new: bool,
    heading: bool,
    headings: u32,
    killed: u32,
    br: bool,
}

impl Walk {
    fn open(&mut self, t: Tag, br: Tag) {
        let c = CLASSES[usize::from(t.0)];
        self.headings += u32::from(c & HEADING != 0);
        self.killed += u32::from(c & KILL != 0);
        if c & PARA != 0 || (t == br && self.br) {
            self.new = true;
            self.heading = self.headings > 0;
        } else {
            self.br = t == br;
        }
    }

    fn close(&mut self, t: Tag) {
        let c = CLASSES[usize::from(t.0)];
        self.headings -= u32::from(c & HEADING != 0 && self.headings > 0);
        self.killed -= u32::from(c & KILL != 0 && self.killed > 0);
        if c & PARA != 0 {
            self.new = true;
            self.heading = self.headings > 0;
        }
    }
}

/// The paragraphs of a flattened page without their word counts, from the walk replayed
/// ([`Dom::replay`]).
fn layout(dom: &Dom) -> Paragraphs {
    let br = Tag::from_name("br");
    let mut out = Paragraphs { paras: Vec::new(), of_unit: vec![NONE; dom.texts.len()], stoplist: "" };
    let mut w = Walk { new: true, heading: false, headings: 0, killed: 0, br: false };
    dom.replay(|step| match step {
        Step::Open(i) => w.open(dom.nodes[i].tag, br),
        Step::Close(i) => w.close(dom.nodes[i].tag),
        Step::Text(i) => {
            w.br = false;
            if w.killed > 0 {
                return;
            }
            if w.new {
                out.paras.push(Para { heading: w.heading, ..Para::default() });
                w.new = false;
            }
            let p = out.paras.last_mut().expect("pushed above");
            let u = dom.nodes[i].text as usize;
            let text = dom.texts.get(u);
            let chars = text.chars().count() as u32;
            p.chars += chars + u32::from(p.chars > 0);
            if dom.info[u].in_a {
                p.link_chars += chars;
            }
            p.copyright |= text.contains('©') || text.contains("&copy");
            out.of_unit[u] = (out.paras.len() - 1) as u32;
        }
    });
    out
}

/// Counts the words and stop words of every paragraph with the list of `lang`, as jusText
/// does: whitespace-separated tokens, lower-cased, punctuation left on. Returns the list's name.
fn count_words(p: &mut Paragraphs, dom: &Dom, lang: Option<&str>) -> &'static str {
    let (name, set) = stoplists::list(lang);
    let mut buf = String::new();
    for (u, &k) in p.of_unit.iter().enumerate() {
        if k == NONE {
            continue;
        }
        let para = &mut p.paras[k as usize];
        for w in dom.texts.get(u).split_whitespace() {
            para.words += 1;
            buf.clear();
            buf.extend(w.chars().flat_map(char::to_lowercase));
            para.stop_words += u32::from(set.contains(buf.as_str()));
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;
    use crate::limits::Limits;

    fn parse(html: &str) -> Document {
        Document::parse_for(html, &Limits::default(), Needs::fact(&FACT)).0
    }

    fn paragraphs(d: &Document) -> &Paragraphs {
        d.facts.get::<Paragraphs>().expect("built")
    }

    #[test]
    fn paragraphs_record_links_headings_and_drop_form_controls() {
        let d = parse(
            "<body><h2>Title <b>here</b></h2><div>Some <a href=x>link</a> text<br>same<br><br>next</div>\
             <form>kept<select><option>gone</option></select><textarea>gone too</textarea></form><ol><li>x</li></ol></body>",
        );
        let p = paragraphs(&d);
        let paras: Vec<(u32, u32, bool)> = p.paras.iter().map(|p| (p.chars, p.link_chars, p.heading)).collect();
        // "Title here"; "Some link text same" (one <br> joins); "next"; "kept" (the form is
        // unwrapped, its controls deleted); "x" (`ol` is no paragraph tag, `li` is).
        assert_eq!(paras, [(10, 0, true), (19, 4, false), (4, 0, false), (4, 0, false), (1, 0, false)]);
        assert_eq!(p.of_unit.len(), d.dom.texts.len());
        assert_eq!(p.of_unit.iter().filter(|&&k| k == NONE).count(), 2);
    }

    #[test]
    fn paragraphs_count_words_and_stop_words_with_punctuation_left_on() {
        let d = parse("<p>The cat, and the dog.</p><div>Über <a href=x>uns</a></div>");
        let p = Paragraphs::of(&d.dom, Some("en"));
        assert_eq!(p.stoplist, "English");
        assert_eq!(p.paras.len(), 2);
        // "The", "and", "the" are stop words; "cat," and "dog." are not (punctuation stays on).
        assert_eq!((p.paras[0].words, p.paras[0].stop_words), (5, 3));
        assert_eq!((p.paras[1].chars, p.paras[1].link_chars), (8, 3));
    }

    #[test]
    fn a_declared_language_recounts_the_stop_words() {
        let mut d = parse("<p>und der die das ist nicht</p>");
        d.set_lang(Some("en".into()));
        let p = paragraphs(&d);
        assert_eq!((p.stoplist, p.paras[0].words, p.paras[0].stop_words), ("English", 6, 0));
        d.set_lang(Some("de".into()));
        let p = paragraphs(&d);
        assert_eq!((p.stoplist, p.paras[0].words, p.paras[0].stop_words), ("German", 6, 6));
        // Without the fact (a reader that does not need it), nothing is built.
        let mut d = Document::parse_for("<p>und der die das ist nicht</p>", &Limits::default(), Needs::DOM).0;
        d.set_lang(Some("de".into()));
        assert!(d.facts.get::<Paragraphs>().is_none());
    }

    #[test]
    fn the_tag_table_agrees_with_the_name_lists() {
        for name in PARAGRAPH.iter().chain(KILLED).chain(&["span", "h3", "x-custom", "svg", "br", "form"]) {
            let t = Tag::from_any_case(name);
            let c = CLASSES[usize::from(t.0)];
            let name = t.name();
            assert_eq!(c & PARA != 0, is_paragraph(name), "{name}");
            assert_eq!(c & KILL != 0, KILLED.contains(&name), "{name}");
            assert_eq!(c & HEADING != 0, matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6"), "{name}");
        }
    }
}
