//! Tag names interned to small ids, with the element classes the extractors need.

/// Known tag names, sorted (index 0 is "other", any unknown element).
const NAMES: &[&str] = &[
    "",
    "a",
    "abbr",
    "acronym",
    "address",
    "applet",
    "area",
    "article",
    "aside",
    "audio",
    "b",
    "base",
    "basefont",
    "bdi",
    "bdo",
    "bgsound",
    "big",
    "blockquote",
    "body",
    "br",
    "button",
    "canvas",
    "caption",
    "center",
    "cite",
    "code",
    "col",
    "colgroup",
    "data",
    "datalist",
    "dd",
    "del",
    "details",
    "dfn",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "fieldset",
    "figcaption",
    "figure",
    "font",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "i",
    "iframe",
    "img",
    "input",
    "ins",
    "kbd",
    "label",
    "legend",
    "li",
    "link",
    "main",
    "map",
    "mark",
    "menu",
    "meta",
    "meter",
    "nav",
    "nobr",
    "noframes",
    "noscript",
    "object",
    "ol",
    "optgroup",
    "option",
    "output",
    "p",
    "param",
    "picture",
    "pre",
    "progress",
    "q",
    "rp",
    "rt",
    "ruby",
    "s",
    "samp",
    "script",
    "search",
    "section",
    "select",
    "small",
    "source",
    "span",
    "strike",
    "strong",
    "style",
    "sub",
    "summary",
    "sup",
    "svg",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "time",
    "title",
    "tr",
    "track",
    "tt",
    "u",
    "ul",
    "var",
    "video",
    "wbr",
    "xmp",
];

/// The block-level set of `algorithms.md` §0.4 (HTML 4 blocks and HTML 5 sectioning elements).
const BLOCK: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "center",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frameset",
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
    "noframes",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "caption",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "td",
    "th",
    "ul",
    "legend",
];

/// Elements that separate the text around them by a space although they are not blocks.
const SPACED: &[&str] = &[
    "button", "canvas", "embed", "iframe", "img", "input", "label", "object", "option", "select", "textarea", "video",
    "audio", "area", "optgroup", "wbr",
];

/// Elements allowed in `<head>`: a start tag of any other element ends the head (D.1.1).
const HEAD_CONTENT: &[&str] = &[
    "base", "basefont", "bgsound", "head", "html", "link", "meta", "noscript", "script", "style", "template", "title",
    "object",
];

/// Void elements: a start tag without content or end tag.
pub const VOID: &[&str] =
    &["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"];

/// An interned tag name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Tag(pub u8);

impl Tag {
    /// Any element not in the known list.
    pub const OTHER: Tag = Tag(0);

    /// The id of a lower-case tag name: compared only with the known names of its length and
    /// first letter ([`BY_LENGTH_AND_LETTER`]).
    pub fn from_name(name: &str) -> Tag {
        let b = name.as_bytes();
        match (b.len(), b.first()) {
            (1..=MAX_NAME, Some(&c @ b'a'..=b'z')) => BY_LENGTH_AND_LETTER[bucket(b.len(), c)]
                .iter()
                .find(|&&i| NAMES[usize::from(i)] == name)
                .map_or(Tag::OTHER, |&i| Tag(i)),
            _ => Tag::OTHER,
        }
    }

    /// The id of a name in any case (HTML tag names are case-insensitive).
    pub fn from_any_case(name: &str) -> Tag {
        if name.bytes().any(|b| b.is_ascii_uppercase()) {
            Tag::from_name(&name.to_ascii_lowercase())
        } else {
            Tag::from_name(name)
        }
    }

    /// The lower-case name ("" for unknown elements).
    pub fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// In the §0.4 block-level set.
    pub fn is_block(self) -> bool {
        CLASSES[self.0 as usize] & BLOCK_BIT != 0
    }

    /// Separates neighbouring text by a space (images, form controls) without being a block.
    pub fn is_spaced(self) -> bool {
        CLASSES[self.0 as usize] & SPACED_BIT != 0
    }

    /// May appear in `<head>` without ending it.
    pub fn is_head_content(self) -> bool {
        CLASSES[self.0 as usize] & HEAD_BIT != 0
    }

    /// Named `a`.
    pub fn is_anchor(self) -> bool {
        self == A
    }
}

/// `<a>`.
pub const A: Tag = Tag(1);

/// The longest known name.
const MAX_NAME: usize = 10;

/// The bucket of names of length `len` (1..=[`MAX_NAME`]) starting with the letter `c`.
fn bucket(len: usize, c: u8) -> usize {
    (len - 1) * 26 + usize::from(c - b'a')
}

/// The ids of the known names by length and first letter: one or two to compare a name with,
/// where a binary search over every name compared eight.
static BY_LENGTH_AND_LETTER: std::sync::LazyLock<Vec<Vec<u8>>> = std::sync::LazyLock::new(|| {
    let mut t = vec![Vec::new(); MAX_NAME * 26];
    for (i, n) in NAMES.iter().enumerate().skip(1) {
        t[bucket(n.len(), n.as_bytes()[0])].push(i as u8);
    }
    t
});

const BLOCK_BIT: u8 = 1;
const SPACED_BIT: u8 = 2;
const HEAD_BIT: u8 = 4;

fn classes() -> [u8; 256] {
    let mut c = [0u8; 256];
    for (list, bit) in [(BLOCK, BLOCK_BIT), (SPACED, SPACED_BIT), (HEAD_CONTENT, HEAD_BIT)] {
        for n in list {
            let t = Tag::from_name(n);
            debug_assert!(t != Tag::OTHER, "{n} missing from NAMES");
            c[t.0 as usize] |= bit;
        }
    }
    c
}

static CLASSES: std::sync::LazyLock<[u8; 256]> = std::sync::LazyLock::new(classes);

/// Tag by name, for constants in extractors (e.g. `tag("br")`).
pub fn tag(name: &str) -> Tag {
    Tag::from_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sorted_and_known() {
        assert!(NAMES[1..].windows(2).all(|w| w[0] < w[1]));
        for (i, n) in NAMES.iter().enumerate().skip(1) {
            assert!(n.len() <= MAX_NAME && n.as_bytes()[0].is_ascii_lowercase(), "{n}");
            assert_eq!(Tag::from_name(n), Tag(i as u8), "{n}");
        }
        for n in ["", "x", "blockquotes", "DIV", "1", "h7", "é", "abbrr", "zz", "sv"] {
            assert_eq!(Tag::from_name(n), Tag::OTHER, "{n}");
        }
        assert_eq!(Tag::from_name("a"), A);
        assert_eq!(Tag::from_any_case("DIV").name(), "div");
        assert!(tag("td").is_block() && !tag("span").is_block() && tag("img").is_spaced());
        assert_eq!(Tag::from_name("blink"), Tag::OTHER);
        assert!(tag("title").is_head_content() && !tag("p").is_head_content());
    }
}
