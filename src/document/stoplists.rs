//! jusText's stop lists (`data/justext-stoplists/`, copied from the `jusText` 3.0.2 Python
//! package under its BSD 2-clause licence, `data/justext-stoplists/LICENSE.rst`), one per
//! language that whatlang detects and jusText has a list for, and the per-paragraph word and
//! stop-word counts made with them at parse time, so no individual counts words again.
//! Pages without a detected language, or in a language without a jusText list, use the English
//! list (jusText's own usual choice). Imports from the crate: none beyond the `document` module.

use super::parse::{Dom, NONE};
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

/// ISO 639-1 code, jusText's list name, the list's text.
macro_rules! lists {
    ($(($iso:literal, $name:literal)),* $(,)?) => {
        &[$(($iso, $name, include_str!(concat!("../../data/justext-stoplists/", $name, ".txt")))),*]
    };
}

/// Every list compiled in, keyed by the ISO 639-1 code the language detection yields.
const LISTS: &[(&str, &str, &str)] = lists![
    ("af", "Afrikaans"),
    ("ar", "Arabic"),
    ("az", "Azerbaijani"),
    ("be", "Belarusian"),
    ("bn", "Bengali"),
    ("bg", "Bulgarian"),
    ("ca", "Catalan"),
    ("cs", "Czech"),
    ("da", "Danish"),
    ("de", "German"),
    ("el", "Greek"),
    ("en", "English"),
    ("eo", "Esperanto"),
    ("et", "Estonian"),
    ("fi", "Finnish"),
    ("fr", "French"),
    ("gu", "Gujarati"),
    ("he", "Hebrew"),
    ("hi", "Hindi"),
    ("hr", "Croatian"),
    ("hu", "Hungarian"),
    ("hy", "Armenian"),
    ("id", "Indonesian"),
    ("it", "Italian"),
    ("ka", "Georgian"),
    ("ko", "Korean"),
    ("la", "Latin"),
    ("lv", "Latvian"),
    ("lt", "Lithuanian"),
    ("mr", "Marathi"),
    ("mk", "Macedonian"),
    ("nl", "Dutch"),
    ("no", "Norwegian_Bokmal"),
    ("fa", "Persian"),
    ("pl", "Polish"),
    ("pt", "Portuguese"),
    ("ro", "Romanian"),
    ("ru", "Russian"),
    ("sk", "Slovak"),
    ("sl", "Slovenian"),
    ("es", "Spanish"),
    ("sr", "Serbian"),
    ("sv", "Swedish"),
    ("ta", "Tamil"),
    ("te", "Telugu"),
    ("tl", "Tagalog"),
    ("tr", "Turkish"),
    ("uk", "Ukrainian"),
    ("ur", "Urdu"),
    ("vi", "Vietnamese"),
    ("sw", "Swahili"),
    ("yo", "Yoruba"),
];

/// The lower-cased sets, built on first use.
static SETS: LazyLock<HashMap<&'static str, (&'static str, HashSet<String>)>> = LazyLock::new(|| {
    LISTS
        .iter()
        .map(|(iso, name, text)| {
            (*iso, (*name, text.lines().map(|w| w.trim().to_lowercase()).filter(|w| !w.is_empty()).collect()))
        })
        .collect()
});

/// The name of the jusText list for a page language ([`justext_list`]'s), without building
/// the lists (a reader that needs no paragraphs only names it).
pub fn justext_name(lang: Option<&str>) -> &'static str {
    let list = |l: &str| LISTS.iter().find(|(iso, _, _)| *iso == l).map(|(_, name, _)| *name);
    lang.and_then(list).or_else(|| list("en")).expect("the English list is compiled in")
}

/// The jusText list for a page language: its name (`English`) and its lower-cased words.
pub fn justext_list(lang: Option<&str>) -> (&'static str, &'static HashSet<String>) {
    let sets = &*SETS;
    let (name, set) = lang.and_then(|l| sets.get(l)).unwrap_or_else(|| &sets["en"]);
    (name, set)
}

/// Counts the words and stop words of every jusText paragraph with the list of `lang`, as
/// jusText does: whitespace-separated tokens, lower-cased, punctuation left on. Returns the
/// list's name.
pub fn count_paragraph_words(dom: &mut Dom, lang: Option<&str>) -> &'static str {
    let (name, set) = justext_list(lang);
    let mut buf = String::new();
    for (u, info) in dom.info.iter().enumerate() {
        if info.para == NONE {
            continue;
        }
        let p = &mut dom.paras[info.para as usize];
        for w in dom.texts.get(u).split_whitespace() {
            p.words += 1;
            buf.clear();
            buf.extend(w.chars().flat_map(char::to_lowercase));
            p.stop_words += u32::from(set.contains(buf.as_str()));
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_loads_and_unknown_languages_use_english() {
        for (iso, name, _) in LISTS {
            let (n, set) = justext_list(Some(iso));
            assert_eq!(n, *name);
            assert!(set.len() > 50, "{name}: {}", set.len());
        }
        for lang in [None, Some("ja"), Some("de"), Some("no"), Some("")] {
            assert_eq!(justext_name(lang), justext_list(lang).0, "{lang:?}");
        }
        assert_eq!(justext_list(None).0, "English");
        assert_eq!(justext_list(Some("ja")).0, "English");
        assert!(justext_list(Some("de")).1.contains("und"));
    }

    #[test]
    fn paragraphs_count_words_and_stop_words_with_punctuation_left_on() {
        let mut d = super::super::parse::parse("<p>The cat, and the dog.</p><div>Über <a href=x>uns</a></div>");
        assert_eq!(count_paragraph_words(&mut d, Some("en")), "English");
        assert_eq!(d.paras.len(), 2);
        // "The", "and", "the" are stop words; "cat," and "dog." are not (punctuation stays on).
        assert_eq!((d.paras[0].words, d.paras[0].stop_words), (5, 3));
        assert_eq!((d.paras[1].chars, d.paras[1].link_chars), (8, 3));
    }
}
