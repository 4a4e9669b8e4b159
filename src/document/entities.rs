//! HTML character references for the source scanner (and the CleanEval gold importer), decoded
//! as html5ever decodes them for the DOM view: numeric forms, and every named reference of the
//! WHATWG table through the very map html5ever's tokenizer uses (`web_atoms::NAMED_ENTITIES`),
//! with the same longest-prefix rule (`&notit;` is `¬it;`, `&copy2026` is `©2026`). One table, so
//! the two views cannot disagree on what a reference means.

/// Decodes the character reference at the start of `s` (which begins with `&`). Returns its one
/// or two characters and the number of bytes consumed, or `None` when it is not a reference.
pub fn decode_at(s: &str) -> Option<([char; 2], usize)> {
    let b = s.as_bytes();
    if b.len() < 2 {
        return None;
    }
    if b[1] == b'#' {
        let (hex, start) = if b.len() > 2 && (b[2] == b'x' || b[2] == b'X') { (true, 3) } else { (false, 2) };
        let mut end = start;
        while end < b.len()
            && end - start < 8
            && (if hex { b[end].is_ascii_hexdigit() } else { b[end].is_ascii_digit() })
        {
            end += 1;
        }
        if end == start {
            return None;
        }
        let n = u32::from_str_radix(&s[start..end], if hex { 16 } else { 10 }).ok()?;
        let c = match n {
            0x80..=0x9F => windows_1252_c1(n),
            _ => char::from_u32(n).unwrap_or('\u{FFFD}'),
        };
        let used = if end < b.len() && b[end] == b';' { end + 1 } else { end };
        return Some(([if n == 0 { '\u{FFFD}' } else { c }, '\0'], used));
    }
    named_at(s)
}

/// The longest named reference at the start of `s` (after its `&`), as html5ever's tokenizer
/// finds it: the map holds every complete name (with and, for the legacy ones, without `;`) and
/// every prefix of one (mapped to 0), so the walk stops where no name can continue.
fn named_at(s: &str) -> Option<([char; 2], usize)> {
    let mut best = None;
    for (end, c) in s.char_indices().skip(1) {
        let name = &s[1..end + c.len_utf8()];
        match web_atoms::NAMED_ENTITIES.get(name) {
            Some(&(0, _)) => {}
            Some(&(c1, c2)) => best = Some(([to_char(c1), to_char(c2)], end + c.len_utf8())),
            None => break,
        }
    }
    best
}

fn to_char(n: u32) -> char {
    char::from_u32(n).unwrap_or('\0')
}

/// Numeric references 128–159 mean windows-1252 characters (HTML5 rule).
fn windows_1252_c1(n: u32) -> char {
    const MAP: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž', '\u{8f}', '\u{90}', '‘',
        '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}', 'ž', 'Ÿ',
    ];
    MAP[(n - 0x80) as usize]
}

/// Appends `text` to `out` with character references decoded.
pub fn decode_into(text: &str, out: &mut String) {
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        match decode_at(&rest[i..]) {
            Some(([c1, c2], used)) => {
                out.push(c1);
                if c2 != '\0' {
                    out.push(c2);
                }
                rest = &rest[i + used..];
            }
            None => {
                out.push('&');
                rest = &rest[i + 1..];
            }
        }
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_named_numeric_and_leaves_others() {
        let mut s = String::new();
        decode_into("a&amp;b &#8217; &#x41;&uuml;ber&nbsp;x &bogus; & &#150;", &mut s);
        assert_eq!(s, "a&b ’ Aüber\u{a0}x &bogus; & –");
    }

    #[test]
    fn knows_the_whole_whatwg_table_as_html5ever_does() {
        // `&rarr;` was the word "rarr" in the source view while the DOM view showed "→".
        let mut s = String::new();
        decode_into("a &rarr; b &hellip;&NotEqualTilde; &notit; &copy2026 &amp", &mut s);
        assert_eq!(s, "a → b …\u{2242}\u{338} ¬it; ©2026 &");
    }
}
