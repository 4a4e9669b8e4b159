//! # Document Slope Curves (DSC)
//!
//! BTE's token view (1 per tag, 0 per word) read as a curve: the cumulative count of tags against
//! token position. Text is where the curve is flat. A window slides over the tokens; every run
//! of tokens covered by a window whose slope (share of tags) is low is a text region, so a page
//! can have several, unlike BTE's single span.
//!
//! ## References
//! D. Pinto, M. Branstein, R. Coleman, W. B. Croft, M. King, W. Li, X. Wei, *QuASM: A System for
//! Question Answering Using Semi-Structured Data*, JCDL 2002.
//!
//! ## Parameters
//! - `w`: window length in tokens (20); `h`: step (10, read as at most `w`);
//! - `theta`: slope threshold (0.3); `relative`: the threshold is `theta` times the page's slope;
//! - `min_words`: regions with fewer words are dropped (10).
//!
//! ## Interpretation
//! `algorithms.md` §4b. Tokens are BTE's (`bte.rs`): from the first token after the head, every
//! tag and opaque segment is 1, every word 0, whitespace is no token. Windows start at
//! `0, h, 2h, …` while inside the page; the last one is truncated. A token is text when some
//! window holding it has a slope below the threshold; a region is a maximal run of text tokens.
//! No token → empty extract.

use super::Extractor;
use crate::document::{Document, Kind, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;

/// A configured DSC extractor.
pub struct Dsc {
    w: usize,
    h: usize,
    theta: f64,
    min_words: usize,
    relative: bool,
}

impl Dsc {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        let w = r.int("w")?.max(1) as usize;
        let h = (r.int("h")?.max(1) as usize).min(w);
        Ok(Box::new(Dsc {
            w,
            h,
            theta: r.float("theta")?,
            min_words: r.int("min_words")?.max(0) as usize,
            relative: r.bool("relative")?,
        }))
    }
}

impl Extractor for Dsc {
    fn view(&self) -> View {
        View::Source
    }

    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::SOURCE_INDEX
    }

    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        // The scored tokens and their running tag counts are the page's (computed at parse time).
        let tokens = &doc.source.tokens;
        let (at, tags) = (&doc.source.index.scored, &doc.source.index.tags_before);
        let n = at.len();
        if n == 0 {
            return Ok(());
        }
        let theta = if self.relative { self.theta * f64::from(tags[n]) / n as f64 } else { self.theta };
        // Text windows in order of their start; overlapping or touching ones merge into a region.
        let mut region: Option<(usize, usize)> = None;
        let emit = |(a, b): (usize, usize), out: &mut Selection| {
            let words = (b - a) - (tags[b] - tags[a]) as usize;
            if words >= self.min_words.max(1) {
                let (first, last) = (at[a] as usize, at[b - 1] as usize);
                out.units.extend(tokens[first..=last].iter().filter(|t| t.kind == Kind::Word).map(|t| t.word));
                out.units.dedup(); // a word split by inline tags has several tokens
            }
        };
        let mut k = 0;
        while k < n {
            let end = (k + self.w).min(n);
            if f64::from(tags[end] - tags[k]) < theta * (end - k) as f64 {
                region = match region {
                    Some((a, b)) if k <= b => Some((a, b.max(end))),
                    Some(r) => {
                        emit(r, out);
                        Some((k, end))
                    }
                    None => Some((k, end)),
                };
            }
            k += self.h;
        }
        if let Some(r) = region {
            emit(r, out);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;

    fn prose(n: usize, tag: &str) -> String {
        let word = |i: usize| if tag == "i" { format!("short{i}") } else { format!("word{i}") };
        (0..n)
            .map(|i| if i % 15 == 14 { format!("<{tag}>{}</{tag}>", word(i)) } else { word(i) })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn menu(items: &[&str]) -> String {
        items.iter().map(|i| format!("<li><a href=/{i}>{i}</a></li>")).collect()
    }

    #[test]
    fn keeps_every_flat_region_and_drops_the_steep_ones() {
        let nav = menu(&["Home", "News", "Sport", "Weather", "Contact", "Shop", "Jobs", "Help"]);
        let page = format!(
            "<html><head><title>t</title></head><body><ul>{nav}</ul><p>{}</p><ul>{nav}</ul><p>{}</p><div>{nav}</div></body></html>",
            prose(40, "b"),
            prose(30, "i")
        );
        let t = run("dsc", &[], &page);
        // Two text regions, unlike BTE's one span; no menu item.
        assert!(t.contains("word0 ") && t.contains("word39") && t.contains("short20"), "{t}");
        assert!(!t.contains("Home") && !t.contains("Weather"), "{t}");
        assert!(t.contains("short0 "), "{t}");
        let bte = run("bte", &[], &page);
        assert!(bte.contains("word0 ") != bte.contains("short0 "), "{bte}");
    }

    #[test]
    fn theta_min_words_and_relative_thresholds() {
        let nav = menu(&["Home", "News", "Sport", "Weather", "Contact", "Shop", "Jobs", "Help"]);
        let page =
            format!("<body><ul>{nav}</ul><p>{}</p><ul>{nav}</ul><p>{}</p></body>", prose(40, "b"), prose(8, "i"));
        // The short paragraph is a region of fewer than 10 words (and its windows reach into the menu).
        let t = run("dsc", &["w=8", "h=4"], &page);
        assert!(t.contains("word39") && !t.contains("short7"), "{t}");
        assert!(run("dsc", &["w=8", "h=4", "min_words=0", "theta=0.7"], &page).contains("short7"));
        // theta 1: every window with a word is text, so the whole body is one region.
        assert!(run("dsc", &["theta=1", "min_words=0"], &page).contains("Home"));
        // Relative: a share of the page's own slope (about 0.6 here).
        assert_eq!(run("dsc", &["relative=true", "theta=0.01"], &page), "");
        let rel = run("dsc", &["relative=true", "theta=0.5"], &page);
        assert!(rel.contains("word39") && !rel.contains("Home"), "{rel}");
    }

    #[test]
    fn edge_cases() {
        assert_eq!(run("dsc", &[], ""), "");
        assert_eq!(run("dsc", &[], "<html><head><title>t</title></head><body><hr><br></body></html>"), "");
        assert_eq!(run("dsc", &["min_words=0"], "just   text\nwithout tags"), "just text without tags");
        // h larger than w is read as w: no token falls between two windows.
        assert_eq!(
            run("dsc", &["w=4", "h=200", "min_words=0"], "one two three four five six"),
            "one two three four five six"
        );
    }
}
