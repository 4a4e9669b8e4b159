//! A small, recovering, entity-safe XML reader for feeds (`blogs.md` §13.2).
//!
//! Real feeds are often not well-formed (a truncated download, an unescaped `&`, a stray end
//! tag), so this reader never fails: it builds the element tree it can, closes what is still open
//! at the end of the input, and ignores end tags that close nothing. It is safe by construction:
//! a document type declaration is skipped whole and **no entity it declares is ever expanded**
//! (billion laughs, external entities); only the five predefined entities and numeric character
//! references are decoded, any other reference stays as written. Budgets bound the work on
//! hostile input: the number of elements, the nesting depth and the text kept per element (the
//! caller caps the input's size when it reads it, `paths::read_capped`).
//!
//! Names are kept as written (`content:encoded`, `dc:creator`, `atom:link`); [`local`] gives the
//! part after the prefix. Imports from the crate: nothing.

/// Most elements kept from one document (the rest is dropped).
pub const MAX_ELEMENTS: usize = 200_000;
/// Deepest nesting kept (deeper elements are read as text of their ancestor).
pub const MAX_DEPTH: usize = 64;
/// Most bytes of text kept per element.
pub const MAX_TEXT: usize = 4 << 20;

/// One element: its name, attributes, text (character data and CDATA of its own, in order) and
/// children (indices into [`Xml::elements`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Element {
    /// The name as written (prefix included).
    pub name: String,
    /// Attributes (name as written, decoded value).
    pub attrs: Vec<(String, String)>,
    /// Its own character data, decoded.
    pub text: String,
    /// Child elements, in document order.
    pub children: Vec<usize>,
}

impl Element {
    /// The value of attribute `name` (compared on the local part, ASCII case-insensitively).
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| local(k).eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// A parsed document: element 0 is a synthetic root holding the top-level elements.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Xml {
    /// Every element in document order (0: the synthetic root).
    pub elements: Vec<Element>,
    /// What the reader had to repair or refuse (unclosed elements, budgets), for messages.
    pub notes: Vec<String>,
}

/// The local part of a qualified name (`content:encoded` → `encoded`).
pub fn local(name: &str) -> &str {
    name.rsplit_once(':').map_or(name, |(_, l)| l)
}

impl Xml {
    /// The top-level element (the first child of the synthetic root), if any.
    pub fn root(&self) -> Option<&Element> {
        self.elements.first()?.children.first().map(|&i| &self.elements[i])
    }
    /// The children of `e` (an element of this document).
    pub fn children<'a>(&'a self, e: &'a Element) -> impl Iterator<Item = &'a Element> + 'a {
        e.children.iter().map(move |&i| &self.elements[i])
    }
    /// The first child of `e` whose name is `name` (as written, ASCII case-insensitively).
    pub fn child<'a>(&'a self, e: &'a Element, name: &str) -> Option<&'a Element> {
        self.children(e).find(|c| c.name.eq_ignore_ascii_case(name))
    }
    /// Every descendant of `e` (pre-order, `e` excluded).
    pub fn descendants<'a>(&'a self, e: &'a Element) -> Vec<&'a Element> {
        let mut out = Vec::new();
        let mut stack: Vec<usize> = e.children.iter().rev().copied().collect();
        while let Some(i) = stack.pop() {
            let c = &self.elements[i];
            out.push(c);
            stack.extend(c.children.iter().rev().copied());
        }
        out
    }
}

/// Decodes the predefined entities and numeric character references of `s` into `out`; any
/// other reference (`&nbsp;`, `&lol9;`) is kept as written: nothing a DTD declares is expanded.
pub fn decode_into(s: &str, out: &mut String) {
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest[1..].find(|c: char| c == ';' || c == '&' || c == '<' || c.is_whitespace()).map(|e| e + 1);
        let decoded = match end {
            Some(e) if rest.as_bytes()[e] == b';' && e <= 12 => {
                let name = &rest[1..e];
                let c = match name {
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "amp" => Some('&'),
                    "quot" => Some('"'),
                    "apos" => Some('\''),
                    _ => name.strip_prefix('#').and_then(|n| {
                        let v = match n.strip_prefix(['x', 'X']) {
                            Some(h) => u32::from_str_radix(h, 16).ok(),
                            None => n.parse::<u32>().ok(),
                        }?;
                        Some(char::from_u32(v).filter(|&c| c != '\0').unwrap_or('\u{FFFD}'))
                    }),
                };
                c.map(|c| (c, e + 1))
            }
            _ => None,
        };
        match decoded {
            Some((c, used)) => {
                out.push(c);
                rest = &rest[used..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

/// Parses `text` (never fails; see the module documentation).
pub fn parse(text: &str) -> Xml {
    let mut x = Xml { elements: vec![Element::default()], notes: Vec::new() };
    let mut stack: Vec<usize> = vec![0];
    // Elements past the depth budget: their tags are skipped, their text goes to the deepest kept.
    let mut too_deep = 0usize;
    let mut dropped = 0usize;
    let b = text.as_bytes();
    let mut i = 0;
    let push_text = |x: &mut Xml, stack: &[usize], s: &str, raw: bool| {
        let el = &mut x.elements[*stack.last().expect("root never popped")];
        if el.text.len() >= MAX_TEXT {
            return;
        }
        let start = el.text.len();
        if raw {
            el.text.push_str(s)
        } else {
            decode_into(s, &mut el.text)
        }
        if el.text.len() > MAX_TEXT {
            let mut cut = MAX_TEXT.max(start);
            while !el.text.is_char_boundary(cut) {
                cut -= 1;
            }
            el.text.truncate(cut);
        }
    };
    while i < b.len() {
        if b[i] != b'<' {
            let end = text[i..].find('<').map_or(b.len(), |e| i + e);
            push_text(&mut x, &stack, &text[i..end], false);
            i = end;
            continue;
        }
        let rest = &text[i..];
        if let Some(r) = rest.strip_prefix("<![CDATA[") {
            let end = r.find("]]>").unwrap_or(r.len());
            push_text(&mut x, &stack, &r[..end], true);
            i += 9 + end + 3.min(r.len() - end);
            continue;
        }
        if let Some(r) = rest.strip_prefix("<!--") {
            i += r.find("-->").map_or(rest.len(), |e| 4 + e + 3);
            continue;
        }
        if rest.starts_with("<!") {
            // A DOCTYPE (with its internal subset in brackets) or another declaration: skipped.
            let mut depth = 0i32;
            let mut j = 2;
            while j < rest.len() {
                match rest.as_bytes()[j] {
                    b'[' => depth += 1,
                    b']' => depth -= 1,
                    b'>' if depth <= 0 => break,
                    _ => {}
                }
                j += 1;
            }
            i += (j + 1).min(rest.len());
            continue;
        }
        if rest.starts_with("<?") {
            i += rest.find("?>").map_or(rest.len(), |e| e + 2);
            continue;
        }
        // A tag: find its end outside quoted attribute values.
        let mut j = 1;
        let mut quote = 0u8;
        while j < rest.len() {
            let c = rest.as_bytes()[j];
            if quote != 0 {
                if c == quote {
                    quote = 0;
                }
            } else if c == b'"' || c == b'\'' {
                quote = c;
            } else if c == b'>' {
                break;
            }
            j += 1;
        }
        if j >= rest.len() {
            x.notes.push("the feed ends inside a tag (truncated)".into());
            break;
        }
        let tag = &rest[1..j];
        i += j + 1;
        if let Some(name) = tag.strip_prefix('/') {
            let name = name.trim();
            if too_deep > 0 {
                too_deep -= 1;
                continue;
            }
            // Close up to the nearest open element of that name; an end tag closing nothing is ignored.
            if let Some(k) = stack.iter().rposition(|&e| e != 0 && x.elements[e].name == name) {
                stack.truncate(k);
            }
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let name_end = tag.find(|c: char| c.is_whitespace()).unwrap_or(tag.len());
        let name = &tag[..name_end];
        if name.is_empty() || !name.starts_with(|c: char| c.is_alphabetic() || c == '_') {
            // Not a tag (`a < b` in sloppy text): keep it as text.
            push_text(&mut x, &stack, &rest[..j + 1], false);
            continue;
        }
        if stack.len() > MAX_DEPTH || x.elements.len() >= MAX_ELEMENTS {
            if x.elements.len() >= MAX_ELEMENTS {
                dropped += 1;
            }
            too_deep += usize::from(!self_closing);
            continue;
        }
        let el = Element { name: name.to_string(), attrs: attributes(&tag[name_end..]), ..Element::default() };
        let idx = x.elements.len();
        x.elements.push(el);
        let parent = *stack.last().expect("root never popped");
        x.elements[parent].children.push(idx);
        if !self_closing {
            stack.push(idx);
        }
    }
    if stack.len() > 1 {
        x.notes.push(format!("{} element(s) still open at the end of the feed (closed)", stack.len() - 1));
    }
    if dropped > 0 || too_deep > 0 {
        x.notes.push(format!("more than {MAX_ELEMENTS} elements or deeper than {MAX_DEPTH}: the rest was not read"));
    }
    x
}

/// The attributes of a start tag's rest (after its name).
fn attributes(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = s.trim_start();
    while !rest.is_empty() {
        let name_end = rest.find(|c: char| c == '=' || c.is_whitespace()).unwrap_or(rest.len());
        let name = &rest[..name_end];
        rest = rest[name_end..].trim_start();
        let mut value = String::new();
        if let Some(r) = rest.strip_prefix('=') {
            let r = r.trim_start();
            let (raw, after) = match r.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let end = r[1..].find(q).map_or(r.len(), |e| e + 1);
                    (&r[1..end], &r[(end + 1).min(r.len())..])
                }
                _ => {
                    let end = r.find(char::is_whitespace).unwrap_or(r.len());
                    (&r[..end], &r[end..])
                }
            };
            decode_into(raw, &mut value);
            rest = after.trim_start();
        }
        if !name.is_empty() {
            out.push((name.to_string(), value));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_text_cdata_and_attributes() {
        let x = parse(
            r#"<?xml version="1.0"?><!-- c --><rss a='1' b="x &amp; y"><t>a &lt;b&gt; &#233;&#x41;</t><c><![CDATA[<p>x</p>]]></c><e/></rss>"#,
        );
        let r = x.root().unwrap();
        assert_eq!((r.name.as_str(), r.attr("b")), ("rss", Some("x & y")));
        let names: Vec<&str> = x.children(r).map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["t", "c", "e"]);
        assert_eq!(x.child(r, "t").unwrap().text, "a <b> éA");
        assert_eq!(x.child(r, "c").unwrap().text, "<p>x</p>");
        assert!(x.notes.is_empty());
    }

    #[test]
    fn billion_laughs_is_not_expanded() {
        let mut doc = String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n");
        for k in 1..10 {
            let prev = if k == 1 { "lol".to_string() } else { format!("lol{}", k - 1) };
            doc.push_str(&format!(" <!ENTITY lol{k} \"{}\">\n", format!("&{prev};").repeat(10)));
        }
        doc.push_str("]>\n<rss><channel><title>&lol9;</title></channel></rss>");
        let x = parse(&doc);
        let ch = x.child(x.root().unwrap(), "channel").unwrap();
        assert_eq!(x.child(ch, "title").unwrap().text, "&lol9;");
        // An external entity is not read either.
        let x = parse("<!DOCTYPE r [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><r>&e;</r>");
        assert_eq!(x.root().unwrap().text, "&e;");
    }

    #[test]
    fn truncated_and_malformed_feeds_recover() {
        let x = parse("<rss><channel><item><title>A & B</title></x><item><title>Two</titl");
        let ch = x.child(x.root().unwrap(), "channel").unwrap();
        // The first item is never closed: the second opens inside it (both are found).
        let items: Vec<&Element> = x.descendants(ch).into_iter().filter(|e| e.name == "item").collect();
        assert_eq!(items.len(), 2);
        assert_eq!(x.child(items[0], "title").unwrap().text, "A & B");
        assert!(!x.notes.is_empty());
    }

    #[test]
    fn budgets_bound_depth_and_text() {
        let deep = "<a>".repeat(10_000) + "x" + &"</a>".repeat(10_000);
        let x = parse(&deep);
        assert!(x.elements.len() <= MAX_DEPTH + 2, "{}", x.elements.len());
        let big = format!("<a>{}</a>", "y".repeat(MAX_TEXT + 10));
        assert_eq!(parse(&big).root().unwrap().text.len(), MAX_TEXT);
    }
}
