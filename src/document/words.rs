//! One word space for both views (`algorithms.md` §0.3): the canonical words of a page are the
//! words of the source view, in source order, and every DOM text unit is mapped to the canonical
//! words it holds. So any extractor's result, whatever its view, becomes a keep-mask over the
//! canonical words, and masks of different extractors can be combined.
//!
//! The DOM keeps no byte spans (html5ever does not give them), so the map is built by aligning
//! the words of the DOM's text nodes, in tree order, with the canonical words: both come from the
//! same text with the same decoding and the same never-text rules, so the sequences agree except
//! where the tree builder moves text (foster-parented table text, misnested tags). A greedy
//! forward match with a bounded look-ahead resynchronises after such a move; a DOM word with no
//! partner in the look-ahead maps to nothing. Built once at parse time, linear in practice.

use super::Units;

/// How far ahead (in canonical words) a DOM word looks for its partner before it is given up.
const LOOKAHEAD: usize = 256;

/// For each DOM text unit, the canonical words it holds (increasing indices).
#[derive(Debug, Clone, Default)]
pub struct WordMap {
    words: Vec<u32>,
    starts: Vec<u32>,
}

impl WordMap {
    /// Aligns the DOM text units `dom` with the canonical words `canonical`. A word split over
    /// glued units (`<b>bold</b>word`: units `bold` and `word`, one canonical word `boldword`)
    /// is matched whole and maps into each of its units.
    pub fn build(dom: &Units, canonical: &Units) -> WordMap {
        let mut per_unit: Vec<Vec<u32>> = vec![Vec::new(); dom.len()];
        let mut next = 0usize;
        let mut find = |w: &str, units: &[usize], per_unit: &mut Vec<Vec<u32>>| {
            let end = (next + LOOKAHEAD).min(canonical.len());
            if let Some(k) = (next..end).find(|&k| canonical.get(k) == w) {
                units.iter().for_each(|&u| per_unit[u].push(k as u32));
                next = k + 1;
            }
        };
        // The last word of the units so far, which the next unit continues when it is glued.
        let mut open: Option<(String, Vec<usize>)> = None;
        for u in 0..dom.len() {
            let words: Vec<&str> = dom.get(u).split(char::is_whitespace).filter(|w| !w.is_empty()).collect();
            let mut rest = &words[..];
            match (open.as_mut(), words.first()) {
                (Some((text, units)), Some(first)) if dom.glued(u) => {
                    text.push_str(first);
                    units.push(u);
                    rest = &words[1..];
                }
                (_, None) if dom.glued(u) => {}
                _ => {
                    if let Some((text, units)) = open.take() {
                        find(&text, &units, &mut per_unit);
                    }
                }
            }
            if let Some((last, before)) = rest.split_last() {
                if let Some((text, units)) = open.take() {
                    find(&text, &units, &mut per_unit);
                }
                before.iter().for_each(|w| find(w, &[u], &mut per_unit));
                open = Some((last.to_string(), vec![u]));
            }
        }
        if let Some((text, units)) = open.take() {
            find(&text, &units, &mut per_unit);
        }
        let mut map = WordMap { words: Vec::new(), starts: Vec::with_capacity(dom.len() + 1) };
        map.starts.push(0);
        for unit in per_unit {
            map.words.extend(unit);
            map.starts.push(map.words.len() as u32);
        }
        map
    }

    /// Whether the map was built (a page parsed without [`Needs::words`](super::Needs) has an
    /// empty one).
    pub fn is_built(&self) -> bool {
        !self.starts.is_empty()
    }

    /// The canonical words of DOM unit `u`.
    pub fn words_of(&self, u: usize) -> &[u32] {
        match (self.starts.get(u), self.starts.get(u + 1)) {
            (Some(&a), Some(&b)) => &self.words[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The map after renumbering the canonical words by `new_index` (`u32::MAX`: the word is
    /// gone), for a reduced page.
    pub fn restricted(&self, new_index: &[u32]) -> WordMap {
        let mut map = WordMap { words: Vec::new(), starts: Vec::with_capacity(self.starts.len()) };
        map.starts.push(0);
        for u in 0..self.units() {
            map.words.extend(
                self.words_of(u).iter().filter_map(|&w| new_index.get(w as usize).copied()).filter(|&k| k != u32::MAX),
            );
            map.starts.push(map.words.len() as u32);
        }
        map
    }

    /// Number of DOM units mapped.
    pub fn units(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// Number of DOM words that found their canonical word.
    pub fn mapped_words(&self) -> usize {
        self.words.len()
    }
}

#[cfg(test)]
mod tests {
    use crate::document::{Document, Selection, View};

    #[test]
    fn dom_units_map_to_the_canonical_words_they_hold() {
        let doc = Document::parse(
            "<html><head><title>T</title></head><body><ul><li><a href=/a>Home &amp; away</a></li></ul>\
             <p>First <b>bold</b> words.</p><script>var x = 'no words';</script><p>Last one</p></body></html>",
        );
        let canonical: Vec<&str> = (0..doc.source.words.len()).map(|i| doc.source.words.get(i)).collect();
        assert_eq!(canonical, ["Home", "&", "away", "First", "bold", "words.", "Last", "one"]);
        let map = &doc.words;
        let texts: Vec<&str> = (0..doc.dom.texts.len()).map(|i| doc.dom.texts.get(i)).collect();
        let p = texts.iter().position(|t| t.contains("First")).unwrap();
        assert_eq!(map.words_of(p), [3]);
        assert_eq!(map.words_of(p + 1), [4]);
        // The mask of a DOM selection keeps exactly the canonical words of its units.
        let sel = Selection { view: View::Dom, units: vec![p as u32, p as u32 + 1, p as u32 + 2] };
        let mask = doc.mask(&sel);
        assert_eq!(mask, [false, false, false, true, true, true, false, false]);
        // And back: the source-view selection of that mask renders the same words.
        let mut back = Selection::new(View::Source);
        doc.select_words(&mask, &mut back);
        assert_eq!(doc.render(&back), "First bold words.");
    }

    #[test]
    fn text_moved_by_the_tree_builder_is_resynchronised() {
        // Text inside <table> but outside cells is foster-parented before the table in the DOM.
        let doc = Document::parse(
            "<body><p>Before text</p><table>stray words<tr><td>cell text</td></tr></table><p>After text</p></body>",
        );
        let all = Selection { view: View::Dom, units: (0..doc.dom.texts.len() as u32).collect() };
        let kept = doc.mask(&all).iter().filter(|k| **k).count();
        let total = doc.source.words.len();
        // Everything but (at most) the moved words is mapped, and the words after the move are.
        assert!(kept + 2 >= total, "{kept} of {total}");
        let mut back = Selection::new(View::Source);
        doc.select_words(&doc.mask(&all), &mut back);
        assert!(doc.render(&back).ends_with("After text"), "{}", doc.render(&back));
    }
}
