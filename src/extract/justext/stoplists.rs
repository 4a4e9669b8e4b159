//! jusText's stop lists (`data/justext-stoplists/`, copied from the `jusText` 3.0.2 Python
//! package under its BSD 2-clause licence, `data/justext-stoplists/LICENSE.rst`), one per
//! language that whatlang detects and jusText has a list for. Pages without a detected
//! language, or in a language without a jusText list, use the English list (jusText's own
//! usual choice).

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

/// ISO 639-1 code, jusText's list name, the list's text.
macro_rules! lists {
    ($(($iso:literal, $name:literal)),* $(,)?) => {
        &[$(($iso, $name, include_str!(concat!("../../../data/justext-stoplists/", $name, ".txt")))),*]
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

/// The name of the jusText list for a page language ([`list`]'s), without building the lists
/// (the dump's `languages.csv` names it for every page).
pub fn name(lang: Option<&str>) -> &'static str {
    let list = |l: &str| LISTS.iter().find(|(iso, _, _)| *iso == l).map(|(_, name, _)| *name);
    lang.and_then(list).or_else(|| list("en")).expect("the English list is compiled in")
}

/// The jusText list for a page language: its name (`English`) and its lower-cased words.
pub fn list(lang: Option<&str>) -> (&'static str, &'static HashSet<String>) {
    let sets = &*SETS;
    let (name, set) = lang.and_then(|l| sets.get(l)).unwrap_or_else(|| &sets["en"]);
    (name, set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_loads_and_unknown_languages_use_english() {
        for (iso, name, _) in LISTS {
            let (n, set) = list(Some(iso));
            assert_eq!(n, *name);
            assert!(set.len() > 50, "{name}: {}", set.len());
        }
        for lang in [None, Some("ja"), Some("de"), Some("no"), Some("")] {
            assert_eq!(name(lang), list(lang).0, "{lang:?}");
        }
        assert_eq!(list(None).0, "English");
        assert_eq!(list(Some("ja")).0, "English");
        assert!(list(Some("de")).1.contains("und"));
    }
}
