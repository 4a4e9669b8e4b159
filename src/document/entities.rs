//! HTML character references for the source scanner. The DOM view gets html5ever's complete
//! table; the scanner knows the numeric forms and the named references that occur in practice
//! (Latin-1, typographic punctuation), which is what word boundaries and counts depend on.

const NAMED: &[(&str, char)] = &[
    ("AElig", 'Æ'),
    ("Aacute", 'Á'),
    ("Acirc", 'Â'),
    ("Agrave", 'À'),
    ("Aring", 'Å'),
    ("Atilde", 'Ã'),
    ("Auml", 'Ä'),
    ("Ccedil", 'Ç'),
    ("ETH", 'Ð'),
    ("Eacute", 'É'),
    ("Ecirc", 'Ê'),
    ("Egrave", 'È'),
    ("Euml", 'Ë'),
    ("Iacute", 'Í'),
    ("Icirc", 'Î'),
    ("Igrave", 'Ì'),
    ("Iuml", 'Ï'),
    ("Ntilde", 'Ñ'),
    ("Oacute", 'Ó'),
    ("Ocirc", 'Ô'),
    ("Ograve", 'Ò'),
    ("Oslash", 'Ø'),
    ("Otilde", 'Õ'),
    ("Ouml", 'Ö'),
    ("THORN", 'Þ'),
    ("Uacute", 'Ú'),
    ("Ucirc", 'Û'),
    ("Ugrave", 'Ù'),
    ("Uuml", 'Ü'),
    ("Yacute", 'Ý'),
    ("aacute", 'á'),
    ("acirc", 'â'),
    ("acute", '´'),
    ("aelig", 'æ'),
    ("agrave", 'à'),
    ("amp", '&'),
    ("apos", '\''),
    ("aring", 'å'),
    ("atilde", 'ã'),
    ("auml", 'ä'),
    ("bdquo", '„'),
    ("brvbar", '¦'),
    ("bull", '•'),
    ("ccedil", 'ç'),
    ("cedil", '¸'),
    ("cent", '¢'),
    ("copy", '©'),
    ("curren", '¤'),
    ("dagger", '†'),
    ("deg", '°'),
    ("divide", '÷'),
    ("eacute", 'é'),
    ("ecirc", 'ê'),
    ("egrave", 'è'),
    ("emsp", '\u{2003}'),
    ("ensp", '\u{2002}'),
    ("eth", 'ð'),
    ("euml", 'ë'),
    ("euro", '€'),
    ("frac12", '½'),
    ("frac14", '¼'),
    ("frac34", '¾'),
    ("gt", '>'),
    ("hellip", '…'),
    ("iacute", 'í'),
    ("icirc", 'î'),
    ("iexcl", '¡'),
    ("igrave", 'ì'),
    ("iquest", '¿'),
    ("iuml", 'ï'),
    ("laquo", '«'),
    ("ldquo", '“'),
    ("lsaquo", '‹'),
    ("lsquo", '‘'),
    ("lt", '<'),
    ("macr", '¯'),
    ("mdash", '—'),
    ("micro", 'µ'),
    ("middot", '·'),
    ("nbsp", '\u{a0}'),
    ("ndash", '–'),
    ("not", '¬'),
    ("ntilde", 'ñ'),
    ("oacute", 'ó'),
    ("ocirc", 'ô'),
    ("ograve", 'ò'),
    ("ordf", 'ª'),
    ("ordm", 'º'),
    ("oslash", 'ø'),
    ("otilde", 'õ'),
    ("ouml", 'ö'),
    ("para", '¶'),
    ("plusmn", '±'),
    ("pound", '£'),
    ("prime", '′'),
    ("quot", '"'),
    ("raquo", '»'),
    ("rdquo", '”'),
    ("reg", '®'),
    ("rsaquo", '›'),
    ("rsquo", '’'),
    ("sbquo", '‚'),
    ("sect", '§'),
    ("shy", '\u{ad}'),
    ("sup1", '¹'),
    ("sup2", '²'),
    ("sup3", '³'),
    ("szlig", 'ß'),
    ("thinsp", '\u{2009}'),
    ("thorn", 'þ'),
    ("times", '×'),
    ("trade", '™'),
    ("uacute", 'ú'),
    ("ucirc", 'û'),
    ("ugrave", 'ù'),
    ("uml", '¨'),
    ("uuml", 'ü'),
    ("yacute", 'ý'),
    ("yen", '¥'),
    ("yuml", 'ÿ'),
    ("zwj", '\u{200d}'),
    ("zwnj", '\u{200c}'),
];

/// Decodes the character reference at the start of `s` (which begins with `&`). Returns the
/// character and the number of bytes consumed, or `None` when it is not a reference.
pub fn decode_at(s: &str) -> Option<(char, usize)> {
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
        return Some((if n == 0 { '\u{FFFD}' } else { c }, used));
    }
    let mut end = 1;
    while end < b.len() && end < 12 && b[end].is_ascii_alphanumeric() {
        end += 1;
    }
    let name = &s[1..end];
    let i = NAMED.binary_search_by(|(n, _)| n.cmp(&name)).ok()?;
    let used = if end < b.len() && b[end] == b';' { end + 1 } else { end };
    Some((NAMED[i].1, used))
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
            Some((c, used)) => {
                out.push(c);
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
    fn table_is_sorted() {
        assert!(NAMED.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn decodes_named_numeric_and_leaves_others() {
        let mut s = String::new();
        decode_into("a&amp;b &#8217; &#x41;&uuml;ber&nbsp;x &bogus; & &#150;", &mut s);
        assert_eq!(s, "a&b ’ Aüber\u{a0}x &bogus; & –");
    }
}
