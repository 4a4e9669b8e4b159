//! # Stop-word block filter (SW)
//!
//! Main text is written in sentences, and sentences are full of stop words (particles,
//! conjunctions, pronouns); menus, link lists and footers are not. Each text block is scored by
//! its share of stop words and kept when the share reaches the threshold of the page's language.
//!
//! ## References
//! T. Gottron, *An Evolutionary Approach to Automatically Optimise Web Content Extraction*,
//! 2009 (English, German and Italian thresholds 0.30 / 0.25 / 0.40).
//!
//! ## Parameters
//! - `t_en`, `t_de`, `t_it` (and any further `t_<iso 639-1>` a YAML adds): stop-word share
//!   thresholds per language;
//! - `min_words`: blocks with fewer words are dropped (0);
//! - `fallback`: pages in a language without a threshold: `own_list` (that language's ISO stop
//!   list with the mean threshold; keep everything when there is no list), `english`, `keep_all`.
//!
//! ## Interpretation
//! `algorithms.md` §3a and D.1.5: blocks are the DOM segments (split at block-level tags and at
//! `<br><br>`); words are whitespace tokens stripped of punctuation and lower-cased; the page
//! language comes from metadata or whatlang; stop lists are the `stop-words` crate's ISO lists.

use super::Extractor;
use crate::document::{Document, Selection, View};
use crate::error::{Error, Result};
use crate::params::SettingReader;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

/// Stop sets by language, each built once from the compiled-in list on first use: a lazy table
/// of immutable data (what a language's set holds never changes), so a static, like the other
/// pattern tables; nothing a caller does can change what it answers.
static LISTS: LazyLock<std::sync::Mutex<HashMap<String, &'static HashSet<&'static str>>>> =
    LazyLock::new(Default::default);

fn stop_set(lang: &str) -> Option<&'static HashSet<&'static str>> {
    let mut m = LISTS.lock().ok()?;
    if let Some(s) = m.get(lang) {
        return Some(*s);
    }
    let words = stop_words::lookup(lang)?;
    let set: &'static HashSet<&'static str> = Box::leak(Box::new(words.iter().copied().collect()));
    m.insert(lang.to_string(), set);
    Some(set)
}

crate::params::choices! {
    /// What to do with pages in a language without a threshold.
    enum Fallback { OwnList = "own_list", English = "english", KeepAll = "keep_all" }
}

/// A configured stop-word filter.
pub struct StopWords {
    thresholds: Vec<(String, f64, &'static HashSet<&'static str>)>,
    min_words: usize,
    fallback: Fallback,
    mean: f64,
}

impl StopWords {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        let mut thresholds = Vec::new();
        for name in r.names_with_prefix("t_") {
            let lang = name.trim_start_matches("t_").to_string();
            let t = r.float(&name)?;
            let set = stop_set(&lang)
                .ok_or_else(|| Error::config(format!("parameter '{name}': no stop list for language '{lang}'")))?;
            thresholds.push((lang, t, set));
        }
        let mean = if thresholds.is_empty() {
            0.3
        } else {
            thresholds.iter().map(|x| x.1).sum::<f64>() / thresholds.len() as f64
        };
        let fallback = r.choice("fallback")?;
        Ok(Box::new(StopWords { thresholds, min_words: r.int("min_words")?.max(0) as usize, fallback, mean }))
    }

    /// The stop set and threshold for a page language; `None` keeps everything.
    fn rule(&self, lang: Option<&str>) -> Option<(&'static HashSet<&'static str>, f64)> {
        let lang = lang.unwrap_or("en");
        if let Some((_, t, s)) = self.thresholds.iter().find(|(l, _, _)| l == lang) {
            return Some((s, *t));
        }
        match self.fallback {
            Fallback::KeepAll => None,
            Fallback::English => {
                stop_set("en").map(|s| (s, self.thresholds.iter().find(|x| x.0 == "en").map_or(self.mean, |x| x.1)))
            }
            Fallback::OwnList => stop_set(lang).map(|s| (s, self.mean)),
        }
    }
}

/// Counts (words, stop words) of a text, words being whitespace tokens without surrounding
/// punctuation, lower-cased into a reused buffer.
fn count(text: &str, stops: &HashSet<&str>, buf: &mut String) -> (usize, usize) {
    let (mut words, mut hits) = (0, 0);
    for tok in text.split_whitespace() {
        let w = tok.trim_matches(|c: char| !c.is_alphanumeric());
        if w.is_empty() {
            continue;
        }
        words += 1;
        buf.clear();
        buf.extend(w.chars().flat_map(char::to_lowercase));
        if stops.contains(buf.as_str()) {
            hits += 1;
        }
    }
    (words, hits)
}

impl Extractor for StopWords {
    fn view(&self) -> View {
        View::Dom
    }

    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::LANG
    }
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let dom = &doc.dom;
        let Some((stops, t)) = self.rule(doc.lang.as_deref()) else {
            out.units.extend(0..dom.texts.len() as u32);
            return Ok(());
        };
        let mut buf = String::new();
        let mut start = 0;
        while start < dom.info.len() {
            let seg = dom.info[start].segment;
            let mut end = start;
            let (mut words, mut hits) = (0, 0);
            while end < dom.info.len() && dom.info[end].segment == seg {
                let (w, h) = count(dom.texts.get(end), stops, &mut buf);
                words += w;
                hits += h;
                end += 1;
            }
            if words > 0 && words >= self.min_words && hits as f64 / words as f64 >= t {
                out.units.extend(start as u32..end as u32);
            }
            start = end;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::with;
    use crate::document::Document;
    use crate::extract::extract_text;

    fn run_lang(html: &str, lang: &str) -> String {
        let mut d = Document::parse(html);
        d.lang = Some(lang.into());
        extract_text(with("sw", &[]).as_ref(), &d).unwrap()
    }

    #[test]
    fn keeps_german_and_italian_prose_and_drops_their_menus() {
        let de = "<ul><li>Startseite</li><li>Politik</li><li>Wirtschaft</li><li>Sport</li></ul>\
            <p>Die Stadt hat am Montag beschlossen, dass die alte Brücke im nächsten Jahr für den Verkehr gesperrt wird, weil sie nicht mehr sicher ist.</p>\
            <div>Impressum Datenschutz Kontakt Mediadaten</div>";
        let t = run_lang(de, "de");
        assert!(t.contains("Die Stadt hat am Montag beschlossen"), "{t}");
        assert!(!t.contains("Startseite") && !t.contains("Impressum"), "{t}");
        let it = "<ul><li>Cronaca</li><li>Politica</li><li>Economia</li><li>Sport</li></ul>\
            <p>Il consiglio comunale ha deciso che il vecchio ponte sarà chiuso al traffico per tutto il prossimo anno, perché non è più sicuro per le auto.</p>\
            <div>Contatti Pubblicità Redazione Abbonamenti</div>";
        let t = run_lang(it, "it");
        assert!(t.contains("Il consiglio comunale ha deciso"), "{t}");
        assert!(!t.contains("Cronaca") && !t.contains("Contatti"), "{t}");
    }

    #[test]
    fn thresholds_min_words_and_fallbacks() {
        let page = "<p>The cat sat on the mat and it was happy.</p><p>Short of the</p>";
        assert_eq!(run_lang(page, "en"), "The cat sat on the mat and it was happy.\nShort of the");
        let d = {
            let mut d = Document::parse(page);
            d.lang = Some("en".into());
            d
        };
        assert_eq!(
            extract_text(with("sw", &["min_words=5"]).as_ref(), &d).unwrap(),
            "The cat sat on the mat and it was happy."
        );
        assert_eq!(extract_text(with("sw", &["t_en=1.0"]).as_ref(), &d).unwrap(), "");
        // A language without threshold: keep_all keeps every block.
        let mut fr = Document::parse("<p>Menu</p>");
        fr.lang = Some("fr".into());
        assert_eq!(extract_text(with("sw", &["fallback=keep_all"]).as_ref(), &fr).unwrap(), "Menu");
        assert_eq!(extract_text(with("sw", &[]).as_ref(), &fr).unwrap(), "");
        assert_eq!(extract_text(with("sw", &[]).as_ref(), &Document::parse("")).unwrap(), "");
    }
}
