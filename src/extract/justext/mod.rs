//! # jusText
//!
//! Splits the page into paragraphs, classifies each by length, link density and stop-word
//! density (bad, short, near-good, good), then revises short and near-good paragraphs by their
//! neighbours: text surrounded by content is content.
//!
//! ## References
//! J. Pomikálek, *Removing Boilerplate and Duplicate Content from Web Corpora*, PhD thesis,
//! Masaryk University, 2011; the reference implementation is the Python package `jusText` 3.x.
//!
//! ## Parameters
//! - `length_low` (70), `length_high` (200): paragraph lengths in characters; shorter than
//!   `length_low` is short, longer than `length_high` with enough stop words is good;
//! - `stopwords_low` (0.30), `stopwords_high` (0.32): stop-word density thresholds;
//! - `max_link_density` (0.2): paragraphs with a larger share of link characters are bad;
//! - `max_heading_distance` (200): a heading is kept when a good paragraph follows within so
//!   many characters;
//! - `no_headings` (false): no special treatment of headings.
//!
//! A pair given out of order (`length_low > length_high`, `stopwords_low > stopwords_high`)
//! is read in order (swapped), as `algorithms.md` §9 repairs it.
//!
//! ## Interpretation
//! `algorithms.md` §3b, checked against `jusText` 3.0.2: paragraphs, their link characters,
//! heading ancestry and stop-word counts are computed once per page at parse time
//! (`paragraphs.rs`, from the flattened DOM; `stoplists.rs`: jusText's own per-language stop
//! lists, chosen by the detected or declared page language, English when there is none). One deliberate match
//! of the reference: its first heading pass compares with classes not yet assigned and so never
//! changes anything; only the final heading pass (a heading that ended bad but was not bad
//! context-free becomes good when a good paragraph follows) is applied.

pub mod paragraphs;
pub mod stoplists;

use super::Extractor;
use crate::document::parse::NONE;
use crate::document::{Document, Needs, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;
use paragraphs::{Para, Paragraphs};

/// A paragraph's class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Bad,
    Short,
    NearGood,
    Good,
}

/// A configured jusText.
pub struct JusText {
    length_low: u32,
    length_high: u32,
    stopwords_low: f64,
    stopwords_high: f64,
    max_link_density: f64,
    max_heading_distance: u32,
    no_headings: bool,
}

impl JusText {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        let (a, b) = (r.int("length_low")?.max(0) as u32, r.int("length_high")?.max(0) as u32);
        let (c, d) = (r.float("stopwords_low")?, r.float("stopwords_high")?);
        Ok(Box::new(JusText {
            length_low: a.min(b),
            length_high: a.max(b),
            stopwords_low: c.min(d),
            stopwords_high: c.max(d),
            max_link_density: r.float("max_link_density")?,
            max_heading_distance: r.int("max_heading_distance")?.max(0) as u32,
            no_headings: r.bool("no_headings")?,
        }))
    }

    /// The context-free class (jusText's `classify_paragraphs`).
    fn context_free(&self, p: &Para) -> Class {
        let link_density = if p.chars == 0 { 0.0 } else { f64::from(p.link_chars) / f64::from(p.chars) };
        let stop_density = if p.words == 0 { 0.0 } else { f64::from(p.stop_words) / f64::from(p.words) };
        if link_density > self.max_link_density || p.copyright {
            Class::Bad
        } else if p.chars < self.length_low {
            if p.link_chars > 0 { Class::Bad } else { Class::Short }
        } else if stop_density >= self.stopwords_high {
            if p.chars > self.length_high { Class::Good } else { Class::NearGood }
        } else if stop_density >= self.stopwords_low {
            Class::NearGood
        } else {
            Class::Bad
        }
    }

    /// Whether each paragraph is good in the end (jusText's `revise_paragraph_classification`).
    pub(crate) fn classify(&self, paras: &[Para]) -> Vec<bool> {
        self.classes(paras).1.into_iter().map(|c| c == Class::Good).collect()
    }

    /// The context-free and the final classes of each paragraph.
    fn classes(&self, paras: &[Para]) -> (Vec<Class>, Vec<Class>) {
        let n = paras.len();
        let cf: Vec<Class> = paras.iter().map(|p| self.context_free(p)).collect();
        let mut class = cf.clone();
        // Short paragraphs, decided together from a snapshot. Neighbours: the nearest good or bad
        // class on each side (document edges are bad), and the nearest one that may also be
        // near-good.
        let decided = |c: Class| matches!(c, Class::Good | Class::Bad);
        let (mut prev_gb, mut prev_any) = (vec![Class::Bad; n], vec![Class::Bad; n]);
        let (mut gb, mut any) = (Class::Bad, Class::Bad);
        for i in 0..n {
            (prev_gb[i], prev_any[i]) = (gb, any);
            if decided(cf[i]) {
                gb = cf[i];
            }
            if cf[i] != Class::Short {
                any = cf[i];
            }
        }
        let (mut next_gb, mut next_any) = (vec![Class::Bad; n], vec![Class::Bad; n]);
        let (mut gb, mut any) = (Class::Bad, Class::Bad);
        for i in (0..n).rev() {
            (next_gb[i], next_any[i]) = (gb, any);
            if decided(cf[i]) {
                gb = cf[i];
            }
            if cf[i] != Class::Short {
                any = cf[i];
            }
        }
        for i in 0..n {
            if cf[i] != Class::Short {
                continue;
            }
            class[i] = match (prev_gb[i], next_gb[i]) {
                (Class::Good, Class::Good) => Class::Good,
                (Class::Bad, Class::Bad) => Class::Bad,
                (p, x) => {
                    if (p == Class::Bad && prev_any[i] == Class::NearGood)
                        || (x == Class::Bad && next_any[i] == Class::NearGood)
                    {
                        Class::Good
                    } else {
                        Class::Bad
                    }
                }
            };
        }
        // Near-good paragraphs, in place from left to right: bad between two bad neighbours.
        // Every short one is decided now, so the next good-or-bad class skips only near-goods.
        let mut next = vec![Class::Bad; n];
        let mut gb = Class::Bad;
        for i in (0..n).rev() {
            next[i] = gb;
            if decided(class[i]) {
                gb = class[i];
            }
        }
        let mut prev = Class::Bad;
        for i in 0..n {
            if class[i] == Class::NearGood {
                class[i] = if prev == Class::Bad && next[i] == Class::Bad { Class::Bad } else { Class::Good };
            }
            prev = class[i];
        }
        // Headings that ended bad but were not bad context-free: good when a good paragraph
        // follows within `max_heading_distance` characters.
        if !self.no_headings {
            for i in 0..n {
                if !(paras[i].heading && class[i] == Class::Bad && cf[i] != Class::Bad) {
                    continue;
                }
                let (mut j, mut distance) = (i + 1, 0u64);
                while j < n && distance <= u64::from(self.max_heading_distance) {
                    if class[j] == Class::Good {
                        class[i] = Class::Good;
                        break;
                    }
                    distance += u64::from(paras[j].chars);
                    j += 1;
                }
            }
        }
        (cf, class)
    }
}

/// A class as a score: good 1, near-good 2/3, short 1/3, bad 0 (jusText's own order of
/// confidence: near-good needs one good neighbour to be kept, short needs good context).
fn score(c: Class) -> f32 {
    match c {
        Class::Good => 1.0,
        Class::NearGood => 2.0 / 3.0,
        Class::Short => 1.0 / 3.0,
        Class::Bad => 0.0,
    }
}

impl Extractor for JusText {
    fn view(&self) -> View {
        View::Dom
    }

    fn needs(&self) -> Needs {
        Needs::WORDS | Needs::fact(&paragraphs::FACT)
    }

    /// A page parsed without the paragraphs (no reader asked for them) has none to keep.
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let Some(p) = doc.facts.get::<Paragraphs>() else { return Ok(()) };
        let good = self.classify(&p.paras);
        for (u, &k) in p.of_unit.iter().enumerate() {
            if k != NONE && good[k as usize] {
                out.units.push(u as u32);
            }
        }
        Ok(())
    }

    /// The soft vote: the mean of the paragraph's context-free class score (good 1, near-good
    /// 2/3, short 1/3, bad 0) and its final class (good 1, bad 0). A paragraph good on its own
    /// gives 1; one that its neighbours made good 5/6 (near-good), 2/3 (short), 1/2 (a
    /// heading); one they made bad 1/3 (near-good) or 1/6 (short); bad on its own 0. So a word
    /// is kept exactly when its confidence reaches 0.5, and how sure jusText was shows above
    /// and below it.
    fn confidence(&self, doc: &Document, out: &mut Vec<f32>) -> bool {
        out.clear();
        out.resize(doc.source.words.len(), 0.0);
        let Some(paras) = doc.facts.get::<Paragraphs>() else { return true };
        let (cf, fin) = self.classes(&paras.paras);
        for (u, &k) in paras.of_unit.iter().enumerate() {
            if k != NONE {
                let p = k as usize;
                let c = 0.5 * (score(cf[p]) + if fin[p] == Class::Good { 1.0 } else { 0.0 });
                doc.words.words_of(u).iter().for_each(|&w| out[w as usize] = c);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;

    const PROSE: &str = "The council met on Monday and after a long debate it was agreed that the new budget for the schools and the roads of the town would be approved by the end of this year, so that the work on all of them can start in the spring.";

    #[test]
    fn keeps_prose_drops_menus_links_and_copyright() {
        let page = format!(
            "<body><ul><li><a href=/a>Home</a></li><li><a href=/b>Sport</a></li></ul>\
             <h2>Budget approved</h2><p>{PROSE}</p><p>{PROSE}</p>\
             <div>Photo: Agency</div><p>{PROSE}</p>\
             <div><a href=/r>Related: a story about the budget of the town and of the schools that was approved</a></div>\
             <div>© 2024 Town News and all of its friends in the town of the schools and the roads</div></body>"
        );
        let t = run("justext", &[], &page);
        assert!(t.contains("The council met"), "{t}");
        assert!(t.contains("Photo: Agency"), "a short paragraph between good ones is good: {t}");
        assert!(t.contains("Budget approved"), "a heading before good text is kept: {t}");
        assert!(!t.contains("Home") && !t.contains("Related") && !t.contains("2024"), "{t}");
        let t = run("justext", &["no_headings=true"], &page);
        assert!(!t.contains("Budget approved"), "{t}");
    }

    #[test]
    fn the_soft_confidence_grades_the_classes_and_reaches_one_half_where_kept() {
        let page = format!(
            "<body><ul><li><a href=/a>Home</a></li><li><a href=/b>Sport</a></li></ul>\
             <h2>Budget approved</h2><p>{PROSE}</p><div>Photo: Agency</div><p>{PROSE}</p></body>"
        );
        let ex = super::super::testutil::with("justext", &[]);
        let doc = crate::document::Document::parse_for(&page, &Default::default(), ex.needs()).0;
        let mut c = Vec::new();
        assert!(ex.confidence(&doc, &mut c));
        let at = |w: &str| c[(0..doc.source.words.len()).find(|&i| doc.source.words.get(i) == w).unwrap()];
        assert!((at("council") - 1.0).abs() < 1e-6, "good on its own");
        assert!((at("Agency") - 2.0 / 3.0).abs() < 1e-6, "short, made good by its neighbours");
        assert!(at("Home").abs() < 1e-6, "bad on its own");
        let mut sel = crate::document::Selection::new(ex.view());
        ex.extract(&doc, &mut sel).unwrap();
        let keep = doc.mask(&sel);
        assert!(keep.iter().zip(&c).all(|(&k, &x)| k == (x >= 0.5)));
    }

    #[test]
    fn thresholds_matter_and_swapped_pairs_are_read_in_order() {
        let page = format!("<p>{PROSE}</p>");
        assert_eq!(run("justext", &[], &page), PROSE);
        assert_eq!(run("justext", &["length_low=300", "length_high=400"], &page), "");
        assert_eq!(run("justext", &["stopwords_low=0.9", "stopwords_high=0.95"], &page), "");
        assert_eq!(run("justext", &["length_low=200", "length_high=70"], &page), run("justext", &[], &page));
    }

    #[test]
    fn a_page_without_paragraphs_gives_an_empty_extract() {
        assert_eq!(run("justext", &[], ""), "");
        assert_eq!(run("justext", &[], "<select><option>only a control</option></select>"), "");
    }
}
