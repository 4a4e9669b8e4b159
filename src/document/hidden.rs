//! What never counts as text, in one place for both views (`scan.rs`, `parse.rs`) and the L3S
//! gold importer: the elements whose content is not page text, and the attributes that hide an
//! element with everything inside it (`hidden`, `style="display:none"`, `visibility:hidden`,
//! `<input type=hidden>`).

/// Elements whose content never counts as text (lower-case names). `head` holds no rendered
/// text; the others hold code, fallbacks or metadata.
pub const NEVER_TEXT: &[&str] = &["head", "iframe", "noscript", "script", "style", "template", "title"];

/// True when the element `name` (any case), whose attribute values `attr` returns, never counts
/// as text, with its whole subtree.
pub fn never_text<'a>(name: &str, attr: impl Fn(&str) -> Option<&'a str>) -> bool {
    NEVER_TEXT.iter().any(|n| n.eq_ignore_ascii_case(name)) || hidden_by_attributes(name, attr)
}

/// True when the attributes hide the element (whatever its name).
pub fn hidden_by_attributes<'a>(name: &str, attr: impl Fn(&str) -> Option<&'a str>) -> bool {
    attr("hidden").is_some()
        || (name.eq_ignore_ascii_case("input") && attr("type").is_some_and(|t| t.trim().eq_ignore_ascii_case("hidden")))
        || attr("style").is_some_and(|s| {
            let s: String = s.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
            s.contains("display:none") || s.contains("visibility:hidden")
        })
}

/// The value of attribute `name` (ASCII lower case) in the source text of a start tag after its
/// name (`class="a" hidden style=x>`): `Some("")` for an attribute without a value, `None` when
/// absent. Character references in the value are left as they are (the rules above need none).
pub fn attr_in<'a>(tag_rest: &'a str, name: &str) -> Option<&'a str> {
    let mut found = None;
    attrs_in(tag_rest, |key, value| {
        let hit = key.eq_ignore_ascii_case(name);
        if hit {
            found = Some(value);
        }
        hit
    });
    found
}

/// Calls `f(name, value)` for each attribute in the source text of a start tag after its name,
/// in order, until `f` returns true (how [`attr_in`] reads them).
pub fn attrs_in<'a>(tag_rest: &'a str, mut f: impl FnMut(&'a str, &'a str) -> bool) {
    let b = tag_rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
            i += 1;
        }
        if i >= b.len() || b[i] == b'>' {
            return;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && !matches!(b[i], b'=' | b'>' | b'/') {
            i += 1;
        }
        let key = &tag_rest[start..i];
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = "";
        if i < b.len() && b[i] == b'=' {
            i += 1;
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
                let q = b[i];
                let from = i + 1;
                i = from;
                while i < b.len() && b[i] != q {
                    i += 1;
                }
                value = &tag_rest[from..i];
                i += 1;
            } else {
                let from = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' {
                    i += 1;
                }
                value = &tag_rest[from..i];
            }
        }
        if f(key, value) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_attributes_of_every_form() {
        let t = r#" class="a>b" hidden data-x = 'y z' style=display:none/>"#;
        assert_eq!(attr_in(t, "class"), Some("a>b"));
        assert_eq!(attr_in(t, "hidden"), Some(""));
        assert_eq!(attr_in(t, "data-x"), Some("y z"));
        assert_eq!(attr_in(t, "style"), Some("display:none/"));
        assert_eq!(attr_in(t, "id"), None);
        assert_eq!(attr_in(" HIDDEN>", "hidden"), Some(""));
    }

    #[test]
    fn names_and_attributes_that_hide() {
        let none = |_: &str| None;
        assert!(never_text("SCRIPT", none) && never_text("head", none) && !never_text("div", none));
        let t = r#" style="color:red; DISPLAY: none""#;
        assert!(never_text("p", |a| attr_in(t, a)));
        assert!(never_text("input", |a| attr_in(" type=Hidden", a)));
        assert!(!never_text("input", |a| attr_in(" type=text", a)));
        assert!(!never_text("p", |a| attr_in(" style='display:block' title=hidden", a)));
    }
}
