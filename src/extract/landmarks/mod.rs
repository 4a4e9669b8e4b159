//! # Landmarks
//!
//! Keeps the text of the page's main-content landmark: the HTML5 `main` element or an element
//! with `role="main"`, else its `article` elements (or `role="article"`); a page without one
//! keeps everything or nothing (`if_none`). Many current sites mark their content this way, and
//! the landmark is also what a screen reader jumps to; where a site does not, the family says so
//! by falling back, which makes it a cheap first member of a combination or a route.
//!
//! This family is also the worked example of how a family is added (docs/extending.md): this
//! folder (the extractor here, its fact in `roles.rs`), `params/landmarks.yaml` and one row of
//! `extract::FAMILIES`.
//!
//! ## References
//! HTML Living Standard, "The main element" and "The article element"; WAI-ARIA 1.2, landmark
//! roles `main` and `article`. Content extractors try these first: trafilatura's body XPaths start
//! at `article` and `main`-like containers (A. Barbaresi, *Trafilatura*, ACL 2021 demos,
//! doi:10.18653/v1/2021.acl-demo.15), and Firefox's reader view scores `article` up.
//!
//! ## Parameters
//! - `prefer`: `main` tries the main landmark first, `article` the articles first (`main`).
//! - `articles`: keep the `largest` article or `all` of them (`largest`).
//! - `min_words`: a landmark with fewer words is passed over (50).
//! - `if_none`: with no landmark left, keep `full` text or `nothing` (`full`).
//!
//! ## Interpretation
//! A landmark's words are those of the rendered text units in its subtree (the DOM view: hidden
//! elements are not text). Of several main landmarks the one with the most words counts; an
//! article inside another article is part of it, not one more. Imports from the crate:
//! `document`, `params` and `error`.

pub mod roles;

use super::Extractor;
use crate::document::{Document, Needs, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;
use roles::Role;

crate::params::choices! {
    /// Which landmark is tried first.
    enum Prefer { Main = "main", Article = "article" }
}

crate::params::choices! {
    /// Which articles are kept.
    enum Articles { Largest = "largest", All = "all" }
}

crate::params::choices! {
    /// What a page without a landmark keeps.
    enum IfNone { Full = "full", Nothing = "nothing" }
}

/// A configured landmark keeper.
pub struct Landmarks {
    prefer: Prefer,
    all_articles: bool,
    min_words: usize,
    if_none: IfNone,
}

impl Landmarks {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        let prefer = r.choice("prefer")?;
        let all_articles = r.choice::<Articles>("articles")? == Articles::All;
        let min_words = r.int("min_words")?.max(0) as usize;
        let if_none = r.choice("if_none")?;
        Ok(Box::new(Landmarks { prefer, all_articles, min_words, if_none }))
    }

    /// The nodes whose text is kept, or `None` when the page has no landmark of either kind.
    fn chosen(&self, doc: &Document) -> Option<Vec<usize>> {
        let order = match self.prefer {
            Prefer::Main => [Role::Main, Role::Article],
            Prefer::Article => [Role::Article, Role::Main],
        };
        let all = doc.facts.get::<roles::PageLandmarks>()?;
        for kind in order {
            let found = all.of(kind).iter().filter(|l| l.words >= self.min_words.max(1));
            if kind == Role::Article && self.all_articles {
                let nodes: Vec<usize> = found.map(|l| l.node).collect();
                if nodes.is_empty() {
                    continue;
                }
                return Some(nodes);
            }
            // The one with the most words (the first of equals).
            if let Some(best) = found.rev().max_by_key(|l| l.words) {
                return Some(vec![best.node]);
            }
        }
        None
    }
}

impl Extractor for Landmarks {
    fn view(&self) -> View {
        View::Dom
    }
    fn needs(&self) -> Needs {
        Needs::DOM | Needs::fact(&roles::FACT)
    }
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let dom = &doc.dom;
        match self.chosen(doc) {
            Some(nodes) => {
                for i in nodes {
                    out.units.extend(dom.units_in(i));
                }
                out.units.sort_unstable();
            }
            None if self.if_none == IfNone::Full => out.units.extend(0..dom.texts.len() as u32),
            None => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    /// The family's output with `set`, words joined by single spaces.
    fn run(_name: &str, set: &[&str], html: &str) -> String {
        super::super::testutil::run("landmarks", set, html).split_whitespace().collect::<Vec<_>>().join(" ")
    }

    const PAGE: &str = "<body><nav><a href=/>Home</a> <a href=/a>About</a></nav>\
        <main><h1>Bridge reopens</h1><p>The old bridge opens again on Monday after two years.</p></main>\
        <aside><article><p>Teaser one two three four five six seven eight nine ten eleven</p></article></aside>\
        <footer>Contact us</footer></body>";

    #[test]
    fn keeps_the_main_landmark_and_nothing_around_it() {
        assert_eq!(
            run("landmarks", &["min_words=1"], PAGE),
            "Bridge reopens The old bridge opens again on Monday after two years."
        );
    }

    #[test]
    fn prefers_articles_when_told_and_passes_over_short_landmarks() {
        assert_eq!(
            run("landmarks", &["min_words=1", "prefer=article"], PAGE),
            "Teaser one two three four five six seven eight nine ten eleven"
        );
        // The main landmark has 12 words, the article 12 too: at 13 neither counts.
        assert!(run("landmarks", &["min_words=13"], PAGE).starts_with("Home About"));
        assert_eq!(run("landmarks", &["min_words=13", "if_none=nothing"], PAGE), "");
    }

    #[test]
    fn reads_roles_from_the_walk_and_keeps_all_outermost_articles() {
        let html = "<body><div role='banner'>Site</div><div class=x role='presentation main'><p>Main text of the page here</p></div>\
            <div role=article><p>First story words</p><article><p>nested part</p></article></div>\
            <article><p>Second story words</p></article></body>";
        assert_eq!(run("landmarks", &["min_words=1"], html), "Main text of the page here");
        assert_eq!(
            run("landmarks", &["min_words=1", "prefer=article", "articles=all"], html),
            "First story words nested part Second story words"
        );
        assert_eq!(run("landmarks", &["min_words=1", "prefer=article"], html), "First story words nested part");
    }
}
