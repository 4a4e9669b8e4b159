//! The page's language: detected once at parse time by `whatlang` on the longest text nodes
//! of the DOM view, as an ISO 639-1 code (the stop-word lists' keys). Imports from the crate:
//! nothing.

use super::Dom;

/// ISO 639-1 code of the page's language, detected by whatlang on up to 4,000 bytes of its
/// longest text nodes; `None` when the text is too short or no language is recognised.
pub fn detect_language(dom: &Dom) -> Option<String> {
    // The longest text nodes first: prose says more about the language than the navigation and
    // boilerplate that open most pages (the first 4,000 characters of a WCXB page are often a menu
    // of short English-looking labels whatever the language, or of names and brands).
    let mut order: Vec<usize> = (0..dom.texts.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(dom.texts.get(i).len()));
    let mut sample = String::new();
    for i in order {
        if sample.len() > 4000 {
            break;
        }
        sample.push_str(dom.texts.get(i));
        sample.push(' ');
    }
    if sample.split_whitespace().count() < 5 {
        return None;
    }
    let info = whatlang::detect(&sample)?;
    iso639_1(info.lang().code()).map(str::to_string)
}

/// Maps whatlang's ISO 639-3 codes to ISO 639-1 (the stop-words crate's keys).
fn iso639_1(code3: &str) -> Option<&'static str> {
    const MAP: &[(&str, &str)] = &[
        ("afr", "af"),
        ("ara", "ar"),
        ("aze", "az"),
        ("bel", "be"),
        ("ben", "bn"),
        ("bul", "bg"),
        ("cat", "ca"),
        ("ces", "cs"),
        ("dan", "da"),
        ("deu", "de"),
        ("ell", "el"),
        ("eng", "en"),
        ("epo", "eo"),
        ("est", "et"),
        ("fin", "fi"),
        ("fra", "fr"),
        ("guj", "gu"),
        ("heb", "he"),
        ("hin", "hi"),
        ("hrv", "hr"),
        ("hun", "hu"),
        ("hye", "hy"),
        ("ind", "id"),
        ("ita", "it"),
        ("jpn", "ja"),
        ("kat", "ka"),
        ("kor", "ko"),
        ("lat", "la"),
        ("lav", "lv"),
        ("lit", "lt"),
        ("mar", "mr"),
        ("mkd", "mk"),
        ("nld", "nl"),
        ("nob", "no"),
        ("pan", "pa"),
        ("pes", "fa"),
        ("pol", "pl"),
        ("por", "pt"),
        ("ron", "ro"),
        ("rus", "ru"),
        ("slk", "sk"),
        ("slv", "sl"),
        ("spa", "es"),
        ("srp", "sr"),
        ("swe", "sv"),
        ("tam", "ta"),
        ("tel", "te"),
        ("tgl", "tl"),
        ("tha", "th"),
        ("tur", "tr"),
        ("ukr", "uk"),
        ("urd", "ur"),
        ("vie", "vi"),
        ("cmn", "zh"),
        ("yid", "yi"),
        ("zul", "zu"),
        ("swa", "sw"),
        ("som", "so"),
        ("sna", "sn"),
        ("yor", "yo"),
    ];
    MAP.iter().find(|(c, _)| *c == code3).map(|(_, c)| *c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_prose_not_the_menu() {
        let dom = super::super::parse::parse(
            "<body><ul><li>Home</li><li>News</li><li>Contact</li></ul><p>Der Gemeinderat hat am Montag nach einer langen \
             und hitzigen Debatte über die Schulen den neuen Haushalt beschlossen, und die Bürger sind zufrieden.</p></body>",
        );
        assert_eq!(detect_language(&dom).as_deref(), Some("de"));
        assert_eq!(iso639_1("eng"), Some("en"));
        assert_eq!(detect_language(&super::super::parse::parse("<p>Hi</p>")), None);
    }
}
