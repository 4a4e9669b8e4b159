//! BlogBuster's pattern facts (`blogs.md` §12.2, §12.8, §14.3), computed once per page at parse
//! time: for every element, which glob patterns of a fixed catalogue match its attribute values,
//! as four `u64` bitmasks (any attribute / the `class` attribute only, each with the paper's
//! whole-value reading and the token reading). A `blogbuster` individual then needs only bit
//! operations. Patterns are Tcl `string match` globs (`*` any run, `?` one character),
//! case-insensitive, over the trimmed value (its first 1,000 characters).
//!
//! [`FACT`] declares them: the one DOM walk feeds each element's attributes to a visitor
//! ([`Walk`]), which gives the page its [`Patterns`].

use crate::document::facts::{Build, Fact, Shared, Visitor};
use crate::document::{Dom, Needs};
use std::sync::Arc;

/// `blogbuster`'s fact: the pattern masks of every node of the flattened DOM.
pub static FACT: Fact =
    Fact { name: "patterns", reads: Needs::DOM, build: Build::Walk(|| Box::new(Walk::default())), package: None };

/// The pattern masks of each node of the flattened DOM, by node index (zero for text nodes).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Patterns(pub Vec<Masks>);

/// Builds [`Patterns`] inside the DOM walk.
#[derive(Default)]
struct Walk(Vec<Masks>);

impl Visitor for Walk {
    fn element<'a>(&mut self, _: &str, _: u32, attrs: &mut dyn Iterator<Item = (&'a str, &'a str)>) {
        self.0.push(masks(attrs));
    }
    fn other(&mut self) {
        self.0.push(Masks::default());
    }
    fn finish(self: Box<Self>, _: &Dom) -> Shared {
        Arc::new(Patterns(self.0))
    }
}

/// The pattern catalogue, one bit each (bit `i` = `CATALOGUE[i]`): the paper's patterns of every
/// step, then the extensions (off by default in `params/blogbuster.yaml`).
pub const CATALOGUE: &[&str] = &[
    "post*",
    "*hentry*",
    "divlog",
    "*entry*post*",
    "*post-*",
    "snap_preview",
    "*post-body*",
    "posts",
    "entry",
    "content",
    "*entry-content*",
    "entry*",
    "text",
    "entrybody",
    "*post-title*",
    "*entry-title*",
    "*title*",
    "*posted-in*",
    "datepost",
    "entrymeta",
    "date",
    "postinfo",
    "info",
    "*-head*",
    "postdate",
    "*time*",
    "*date*",
    "*date-header*",
    // Extensions (§12.8): title classes of Gkotsis et al. Table 7, modern body and date names,
    // and the comment patterns of §12.7.
    "storytitle",
    "posttitle",
    "pagetitle",
    "entrytitle",
    "*single-title*",
    "*entry-body*",
    "*article-body*",
    "*post-content*",
    "*entry-date*",
    "*posted-on*",
    "*published*",
    "*comment-body*",
    "*comment-content*",
    "comment",
    "*commentlist*",
];

/// The bit of pattern `p` in the catalogue.
pub fn bit(p: &str) -> u64 {
    CATALOGUE.iter().position(|c| *c == p).map_or(0, |i| 1u64 << i)
}

/// Which catalogue patterns an element's attributes match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Masks {
    /// Some attribute value (whatever its name) matches, whole value.
    pub any_value: u64,
    /// Some whitespace-separated token of some attribute value matches.
    pub any_token: u64,
    /// The `class` value matches, whole value.
    pub class_value: u64,
    /// Some token of the `class` value matches.
    pub class_token: u64,
}

impl Masks {
    /// The masks of any attribute and of `class` under a reading (`token` or whole value).
    pub fn get(&self, token: bool) -> (u64, u64) {
        if token { (self.any_token, self.class_token) } else { (self.any_value, self.class_value) }
    }
}

/// Longest attribute value matched (§12.11: a budget).
const MAX_VALUE: usize = 1000;

/// The masks of one element from its attributes.
pub fn masks<'a>(attrs: impl Iterator<Item = (&'a str, &'a str)>) -> Masks {
    let mut m = Masks::default();
    for (name, value) in attrs {
        let mut v = value.trim();
        if v.len() > MAX_VALUE {
            let mut cut = MAX_VALUE;
            while !v.is_char_boundary(cut) {
                cut -= 1;
            }
            v = &v[..cut];
        }
        if v.is_empty() {
            continue;
        }
        let v = v.to_lowercase();
        let whole = matching(v.as_bytes());
        let tokens = v.split_whitespace().fold(0, |acc, t| acc | matching(t.as_bytes()));
        m.any_value |= whole;
        m.any_token |= tokens;
        if name.eq_ignore_ascii_case("class") {
            m.class_value |= whole;
            m.class_token |= tokens;
        }
    }
    m
}

/// The catalogue bits matching `s` (lower case).
fn matching(s: &[u8]) -> u64 {
    CATALOGUE.iter().enumerate().filter(|(_, p)| glob(p.as_bytes(), s)).fold(0, |acc, (i, _)| acc | (1u64 << i))
}

/// Tcl `string match` without brackets: `*` matches any run (also empty), `?` one byte; the
/// pattern covers the whole of `s`. Iterative with one backtrack point, so linear-ish.
pub fn glob(p: &[u8], s: &[u8]) -> bool {
    let (mut pi, mut si) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        if pi < p.len() && (p[pi] == b'?' || p[pi] == s[si]) {
            pi += 1;
            si += 1;
        } else if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, si));
            pi += 1;
        } else if let Some((sp, ss)) = star {
            pi = sp + 1;
            si = ss + 1;
            star = Some((sp, ss + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_cover_the_whole_value() {
        assert!(glob(b"post*", b"post-footer") && glob(b"post*", b"posts") && !glob(b"post*", b"mypost"));
        assert!(glob(b"*post-*", b"post-body") && glob(b"*post-*", b"blog-post-1") && !glob(b"*post-*", b"posts"));
        assert!(glob(b"content", b"content") && !glob(b"content", b"entry-content"));
        assert!(glob(b"*entry*post*", b"entry hpost") && !glob(b"*entry*post*", b"post entry"));
        assert!(glob(b"entry*", b"entry-meta") && !glob(b"entry", b"entry-meta"));
        assert!(glob(b"d?te", b"date") && glob(b"*", b"") && !glob(b"date", b""));
    }

    #[test]
    fn masks_read_values_tokens_and_class_apart() {
        let m = masks([("class", " Post hentry "), ("id", "post-12")].into_iter());
        // Whole value "post hentry": post* and *hentry*; the id "post-12": post* and *post-*.
        assert_eq!(m.class_value & (bit("post*") | bit("*hentry*")), bit("post*") | bit("*hentry*"));
        assert_eq!(m.class_value & bit("*post-*"), 0);
        assert_ne!(m.any_value & bit("*post-*"), 0);
        // Token reading: "post" alone is a token.
        let m = masks([("class", "hentry entry-content")].into_iter());
        assert_eq!(m.class_value & bit("*entry-content*"), bit("*entry-content*"));
        assert_eq!(m.class_value & bit("entry*"), 0, "whole value starts with hentry");
        assert_ne!(m.class_token & bit("entry*"), 0);
        assert!(CATALOGUE.len() <= 64);
    }

    #[test]
    fn the_family_reads_its_patterns_built_in_the_walk_the_same_alone_or_with_every_view() {
        let bb = crate::extract::testutil::with("blogbuster", &[]);
        assert_eq!(bb.needs().complete(), (Needs::DOM | Needs::fact(&FACT)).complete());
        let html = "<body><nav class=menu><a href=/>Home</a></nav><p class=entry-content>One two three.</p>\
                    <noscript><p>thread</p></noscript></body>";
        let parse = |needs| crate::document::Document::parse_for(html, &Default::default(), needs).0;
        let all = parse(Needs::ALL | Needs::fact(&FACT));
        assert_eq!(all.facts.get::<Patterns>().unwrap().0.len(), all.dom.nodes.len());
        assert_eq!(parse(Needs::fact(&FACT)).facts.get::<Patterns>(), all.facts.get::<Patterns>());
        assert!(parse(Needs::ALL).facts.get::<Patterns>().is_none(), "built only when asked for");
    }
}
