//! What a parse builds: the views and facts an extractor reads ([`Needs`]). Each extractor
//! declares its needs (`Extractor::needs`), a combination the union of its active members', and
//! [`Document::parse_for`](super::Document::parse_for) builds only those, so a page in a corpus
//! holds what the running extractor reads and nothing else. A family's own facts are named by
//! their declarations ([`Fact`], `facts.rs`), not here. Imports from the crate: nothing.

use super::facts::{Fact, FactSet};

/// The views and facts of a page that a reader needs. Facts imply the views they are made of
/// ([`Needs::complete`]); what is not needed is never built, not even inside the DOM walk
/// (a family's facts built by a visitor, the block view), and stays empty in the [`Document`](super::Document).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Needs {
    /// The source token stream ([`Source`](super::Source)).
    pub source: bool,
    /// Its per-token lines and the index BTE's and DSC's sequence and CETR's lines are read from
    /// ([`Source::lines`](super::Source), [`Source::index`](super::Source)).
    pub source_index: bool,
    /// The flattened DOM: nodes, text units and their facts ([`Dom`](super::Dom)).
    pub dom: bool,
    /// The canonical words of every DOM text unit ([`WordMap`](super::WordMap)): both views.
    pub words: bool,
    /// The page language, detected from the DOM's text (metadata still wins when a gold set
    /// declares it: a fact that reads it is then built again, [`Document::set_lang`](super::Document::set_lang)).
    pub lang: bool,
    /// The block view: text blocks with hidden text flagged, and their features
    /// ([`Segments`](super::segments::Segments)); `blocks` and `full_hidden` read it.
    pub segments: bool,
    /// The block view's blocks of the page's structured data that the page does not show
    /// (after its own blocks; only an extractor that lets them in asks for them).
    pub structured: bool,
    /// The page features a route's conditions read
    /// ([`PageFeatures`](super::page_features::PageFeatures)).
    pub features: bool,
    /// The page's decoded HTML itself, kept in the [`Document`](super::Document) for the
    /// external extractors (worker processes that parse it themselves). No built-in family reads
    /// it, so it is not part of [`Needs::ALL`]: a corpus keeps the HTML only for an external one.
    pub html: bool,
    /// The attributes the structured outputs (Markdown, HTML) read of some elements: links'
    /// `href`, images' `src` and `alt`, code's language class, cells' `colspan`, lists' `start`
    /// ([`Dom::markup`](super::Dom)). No family reads them: asked for by name only.
    pub markup: bool,
    /// The families' own facts ([`Fact`]), each built after the walk from the views it reads.
    pub facts: FactSet,
}

impl Needs {
    /// Nothing.
    pub const NONE: Needs = Needs {
        source: false,
        source_index: false,
        dom: false,
        words: false,
        lang: false,
        segments: false,
        structured: false,
        features: false,
        html: false,
        markup: false,
        facts: FactSet::EMPTY,
    };
    /// Every view a page can hold (what `Document::parse` builds); the families' facts only when
    /// asked for by name.
    pub const ALL: Needs = Needs {
        source: true,
        source_index: true,
        dom: true,
        words: true,
        lang: true,
        segments: true,
        structured: true,
        features: true,
        html: false,
        markup: false,
        facts: FactSet::EMPTY,
    };
    /// The source view.
    pub const SOURCE: Needs = Needs { source: true, ..Needs::NONE };
    /// The source view's lines and index.
    pub const SOURCE_INDEX: Needs = Needs { source_index: true, ..Needs::NONE };
    /// The DOM view.
    pub const DOM: Needs = Needs { dom: true, ..Needs::NONE };
    /// The canonical words of the DOM units (both views).
    pub const WORDS: Needs = Needs { words: true, ..Needs::NONE };
    /// The language.
    pub const LANG: Needs = Needs { lang: true, ..Needs::NONE };
    /// The block view.
    pub const SEGMENTS: Needs = Needs { segments: true, ..Needs::NONE };
    /// The block view with its blocks of structured data.
    pub const STRUCTURED: Needs = Needs { structured: true, ..Needs::NONE };
    /// The page features.
    pub const FEATURES: Needs = Needs { features: true, ..Needs::NONE };
    /// The page's HTML.
    pub const HTML: Needs = Needs { html: true, ..Needs::NONE };
    /// The structured outputs' element attributes.
    pub const MARKUP: Needs = Needs { markup: true, ..Needs::NONE };

    /// A family's fact (and, once completed, what it is built from).
    pub const fn fact(f: &'static Fact) -> Needs {
        Needs::fact_with(f, 0)
    }

    /// A family's fact with its argument (what its package part reads of a setting that is fixed
    /// in a run, [`Package::part`](super::facts::Package)); two readers asking for different
    /// arguments get the larger.
    pub const fn fact_with(f: &'static Fact, arg: u32) -> Needs {
        Needs { facts: FactSet::one(f, arg), ..Needs::NONE }
    }

    /// What either needs.
    pub fn or(self, o: Needs) -> Needs {
        Needs {
            source: self.source || o.source,
            source_index: self.source_index || o.source_index,
            dom: self.dom || o.dom,
            words: self.words || o.words,
            lang: self.lang || o.lang,
            segments: self.segments || o.segments,
            structured: self.structured || o.structured,
            features: self.features || o.features,
            html: self.html || o.html,
            markup: self.markup || o.markup,
            facts: self.facts.union(o.facts),
        }
    }

    /// These needs with what they are built from: the word map needs both views; the language,
    /// the block view and the page features
    /// need the DOM (the page features also count the source view's words); a family's fact
    /// needs what it reads.
    pub fn complete(self) -> Needs {
        let mut n = self;
        for f in self.facts.iter() {
            n = n.or(f.reads);
        }
        n.segments |= n.structured;
        n.source |= n.words || n.source_index || n.features;
        n.dom |= n.words || n.lang || n.segments || n.features || n.markup;
        n
    }

    /// The names of what is needed, for messages and `run.yaml` (`source+dom+words`).
    pub fn label(&self) -> String {
        let n = self.complete();
        let all = [
            (n.source, "source"),
            (n.source_index, "source_index"),
            (n.dom, "dom"),
            (n.words, "words"),
            (n.lang, "lang"),
            (n.segments, "segments"),
            (n.structured, "structured"),
            (n.features, "features"),
            (n.html, "html"),
            (n.markup, "markup"),
        ];
        let mut names: Vec<&str> = all.iter().filter(|(on, _)| *on).map(|(_, s)| *s).collect();
        names.extend(n.facts.iter().map(|f| f.name));
        if names.is_empty() { "nothing".into() } else { names.join("+") }
    }
}

impl std::ops::BitOr for Needs {
    type Output = Needs;
    fn bitor(self, o: Needs) -> Needs {
        self.or(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_imply_the_views_they_are_made_of() {
        assert_eq!(Needs::WORDS.complete(), Needs { source: true, dom: true, words: true, ..Needs::NONE });
        assert_eq!(Needs::SOURCE_INDEX.label(), "source+source_index");
        assert_eq!(Needs::LANG.complete().label(), "dom+lang");
        assert_eq!((Needs::SOURCE | Needs::WORDS).label(), "source+dom+words");
        assert_eq!(Needs::ALL.complete(), Needs::ALL);
        assert_eq!(Needs::NONE.label(), "nothing");
        assert_eq!(Needs::STRUCTURED.label(), "dom+segments+structured");
    }
}
