//! Evaluation tokens: maximal runs of Unicode letters and digits, lower-cased (Gottron's measure,
//! `algorithms.md` A.2).

/// How text is cut into evaluation tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TokenRule {
    /// Treat every character above U+00FF as a separator. L3S-GN1's gold replaced such
    /// characters by `?`, so the page side must lose them too for a fair comparison.
    pub latin1_only: bool,
}

#[inline]
fn is_token_char(c: char, rule: TokenRule) -> bool {
    c.is_alphanumeric() && !(rule.latin1_only && (c as u32) > 0xFF)
}

/// Calls `f` with every token of `text`, lower-cased into a reused buffer (no allocation per
/// token once the buffer has grown).
pub fn for_each_token(text: &str, rule: TokenRule, mut f: impl FnMut(&str)) {
    let mut buf = String::new();
    for c in text.chars() {
        if is_token_char(c, rule) {
            if c.is_ascii() {
                buf.push(c.to_ascii_lowercase());
            } else {
                buf.extend(c.to_lowercase());
            }
        } else if !buf.is_empty() {
            f(&buf);
            buf.clear();
        }
    }
    if !buf.is_empty() {
        f(&buf);
    }
}

/// The tokens of `text` as owned strings (convenience for tests and one-off scoring).
pub fn tokens(text: &str, rule: TokenRule) -> Vec<String> {
    let mut out = Vec::new();
    for_each_token(text, rule, |t| out.push(t.to_string()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_non_alphanumerics_and_lowercases() {
        let r = TokenRule::default();
        assert_eq!(
            tokens("Kosovo’s GDP, 3.5% (2008) — Straße!", r),
            ["kosovo", "s", "gdp", "3", "5", "2008", "straße"]
        );
        assert_eq!(tokens("ÄÖÜ don't", r), ["äöü", "don", "t"]);
        assert!(tokens("  --- ", r).is_empty());
    }

    #[test]
    fn latin1_rule_cuts_at_higher_characters() {
        let r = TokenRule { latin1_only: true };
        assert_eq!(tokens("café Ελλάδα naïve", r), ["café", "naïve"]);
        assert_eq!(tokens("ab\u{0101}cd", r), ["ab", "cd"]);
    }
}
