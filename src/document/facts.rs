//! The facts a family builds on a parsed page for itself, kept on the page in a store keyed by
//! their type ([`Facts`]), and how a family declares one ([`Fact`]): its name, the views it is
//! built from, how it is built (a [`Visitor`] fed by the one DOM walk, or a step once the walk
//! is over: [`Build`]) and, when it reads what the other pages of the page's package hold, the
//! hook the loader calls for that ([`Package`]). The document layer
//! knows no fact by name: a family's folder holds its fact's type and its [`Fact`], and its
//! `needs` names it ([`Needs::fact`](super::Needs::fact)). Imports from the crate: nothing.

use super::{Document, Dom};
use std::any::{Any, TypeId};
use std::sync::Arc;

/// A fact's value, shared between a page and its reduced copies.
pub type Shared = Arc<dyn Any + Send + Sync>;

/// A page's family facts, at most one value per type, and which of them were built after the
/// walk from the page language (built again when the language is declared).
#[derive(Clone, Default)]
pub struct Facts(Vec<(TypeId, Shared)>, Vec<&'static Fact>);

impl std::fmt::Debug for Facts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Facts({} values)", self.0.len())
    }
}

impl Facts {
    /// Records that `f`, built after the walk, reads the page language.
    pub(super) fn reads_lang(&mut self, f: &'static Fact) {
        if !self.1.iter().any(|g| g.name == f.name) {
            self.1.push(f);
        }
    }

    /// The facts built after the walk that read the page language.
    pub(super) fn lang_readers(&self) -> Vec<&'static Fact> {
        self.1.clone()
    }

    /// The fact of type `T`, when the page holds one.
    pub fn get<T: Any + Send + Sync>(&self) -> Option<&T> {
        let id = TypeId::of::<T>();
        self.0.iter().find(|(t, _)| *t == id).and_then(|(_, v)| v.downcast_ref())
    }

    /// Stores `value`, replacing the fact of its type.
    pub fn insert<T: Any + Send + Sync>(&mut self, value: T) {
        self.insert_shared(Arc::new(value));
    }

    /// Stores a fact's shared value, replacing the fact of its type.
    pub fn insert_shared(&mut self, value: Shared) {
        let id = (*value).type_id();
        match self.0.iter_mut().find(|(t, _)| *t == id) {
            Some(slot) => slot.1 = value,
            None => self.0.push((id, value)),
        }
    }

    /// The number of facts held.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when the page holds no family fact.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A fact a family builds on a page: declared once, as a `static`, in the family's folder.
#[derive(Debug)]
pub struct Fact {
    /// Its name, in messages and in `run.yaml`'s list of facts.
    pub name: &'static str,
    /// The views and shared facts it is built from ([`Needs::complete`](super::Needs::complete)
    /// adds them).
    pub reads: super::Needs,
    /// How it is built.
    pub build: Build,
    /// What it reads of the other pages of the page's package, when it does.
    pub package: Option<Package>,
}

/// How a fact is built.
#[derive(Debug, Clone, Copy)]
pub enum Build {
    /// On a page whose views (the fact's `reads`) are built, once the DOM walk is over.
    After(fn(&Document) -> Shared),
    /// By a visitor the DOM walk feeds (what the flattened DOM does not keep: element names and
    /// attributes), finished with the flattened DOM.
    Walk(fn() -> Box<dyn Visitor>),
}

/// What a fact built inside the DOM walk sees: every node the walk flattens, in pre-order (the
/// node indices of [`Dom::nodes`](super::Dom)), an element with its name, its place among its
/// parent's element children and its attributes as parsed. (What the flattened DOM keeps, text and the order of start and end tags, a fact
/// reads from it after the walk: [`Build::After`], or here in [`Visitor::finish`].)
pub trait Visitor {
    /// The next node is an element with this name (as parsed: SVG's and MathML's may hold
    /// capitals), this 0-based position among the element children of its parent in the parsed
    /// tree (elements the flattened DOM leaves out counted) and these attributes (name, value).
    fn element<'a>(&mut self, name: &str, position: u32, attrs: &mut dyn Iterator<Item = (&'a str, &'a str)>);
    /// The next node is not an element (the root, a text node).
    fn other(&mut self);
    /// The fact, once the walk is over, from what the visitor saw and the flattened DOM.
    fn finish(self: Box<Self>, dom: &Dom) -> Shared;
}

/// How a fact learns what the other pages of the page's package hold. The loader orders each
/// page's reference pages (its package's other pages, and with [`Package::trainers`] the set's
/// pages of that package kept for learning only) by [`Package::order`], takes each reference's
/// part ([`Package::part`], from the parsed page or from one more parse of it) and gives the
/// page the parts of its first [`Package::most`] references ([`Package::attach`]), without
/// knowing what they are.
#[derive(Debug, Clone, Copy)]
pub struct Package {
    /// Most reference pages a page reads.
    pub most: usize,
    /// How a page's references are ordered.
    pub order: Order,
    /// The set's pages kept for learning only (not scored) are references too.
    pub trainers: bool,
    /// What a page, parsed with the fact, gives the pages that take it as a reference. `gold`
    /// is what the loader knows of the page besides its HTML (its gold record, as `Any`: this
    /// layer knows no gold set), `arg` the fact's argument in the needs ([`Needs::fact_with`](super::Needs::fact_with)).
    pub part: fn(doc: &Document, gold: &dyn Any, arg: u32) -> Option<Shared>,
    /// Gives a page (parsed with the fact) the parts of its references, best first.
    pub attach: fn(&mut Document, &[&Shared]),
}

/// How the loader orders a page's reference pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Those in the same URL directory first, then those on the same host, then the rest, each
    /// group in id order.
    Nearest,
    /// In id order.
    Id,
}

/// Most facts one set of needs holds (a combination's or a route's union included).
const MOST: usize = 8;

/// A set of facts, each with its argument (what its package part reads of a setting that is
/// fixed in a run, [`Package::part`]; 0 for most), kept sorted by name so that two equal sets
/// compare and hash equal.
#[derive(Debug, Clone, Copy, Default)]
pub struct FactSet([Option<(&'static Fact, u32)>; MOST]);

impl FactSet {
    /// No fact.
    pub const EMPTY: FactSet = FactSet([None; MOST]);

    /// The set of one fact with its argument.
    pub const fn one(f: &'static Fact, arg: u32) -> FactSet {
        let mut s = FactSet::EMPTY;
        s.0[0] = Some((f, arg));
        s
    }

    /// The facts, by name.
    pub fn iter(&self) -> impl Iterator<Item = &'static Fact> + '_ {
        self.0.iter().map_while(|f| f.map(|(f, _)| f))
    }

    /// The facts with their arguments, by name.
    pub fn with_args(&self) -> impl Iterator<Item = (&'static Fact, u32)> + '_ {
        self.0.iter().map_while(|f| *f)
    }

    /// The facts of either set; a fact both hold with different arguments takes the larger.
    pub fn union(self, o: FactSet) -> FactSet {
        let mut all: Vec<(&'static Fact, u32)> = self.with_args().chain(o.with_args()).collect();
        all.sort_by(|a, b| a.0.name.cmp(b.0.name).then(b.1.cmp(&a.1)));
        all.dedup_by_key(|f| f.0.name);
        assert!(all.len() <= MOST, "more than {MOST} facts in one set of needs");
        let mut s = FactSet::EMPTY;
        all.into_iter().enumerate().for_each(|(i, f)| s.0[i] = Some(f));
        s
    }

    /// True when no fact is in the set.
    pub fn is_empty(&self) -> bool {
        self.0[0].is_none()
    }
}

impl PartialEq for FactSet {
    fn eq(&self, o: &FactSet) -> bool {
        self.with_args().map(|(f, a)| (f.name, a)).eq(o.with_args().map(|(f, a)| (f.name, a)))
    }
}

impl Eq for FactSet {}

impl std::hash::Hash for FactSet {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.with_args().for_each(|(f, a)| (f.name, a).hash(h));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Needs;

    #[derive(Debug, PartialEq)]
    struct Count(usize);

    static COUNT: Fact = Fact {
        name: "count",
        reads: Needs::DOM,
        build: Build::After(|d| Arc::new(Count(d.dom.texts.len()))),
        package: None,
    };
    static OTHER: Fact =
        Fact { name: "other", reads: Needs::SOURCE, build: Build::After(|_| Arc::new(0u8)), package: None };

    /// Per flattened node: its number of attributes (none for other nodes).
    struct Attrs(Vec<Option<usize>>);
    impl Visitor for Attrs {
        fn element<'a>(&mut self, _: &str, _: u32, attrs: &mut dyn Iterator<Item = (&'a str, &'a str)>) {
            self.0.push(Some(attrs.count()));
        }
        fn other(&mut self) {
            self.0.push(None);
        }
        fn finish(self: Box<Self>, _: &Dom) -> Shared {
            Arc::new(self.0)
        }
    }
    static ATTRS: Fact =
        Fact { name: "attrs", reads: Needs::DOM, build: Build::Walk(|| Box::new(Attrs(Vec::new()))), package: None };

    #[test]
    fn a_walk_fact_sees_every_flattened_node_in_order() {
        let html = "<body><p class=a id=b>one</p><script>x</script><p>two</p></body>";
        let d = Document::parse_for(html, &Default::default(), Needs::fact(&ATTRS)).0;
        let seen = d.facts.get::<Vec<Option<usize>>>().unwrap();
        assert_eq!(seen.len(), d.dom.nodes.len());
        let want: Vec<Option<usize>> =
            d.dom.nodes.iter().enumerate().map(|(i, n)| (i > 0 && !n.is_text()).then_some(0)).collect();
        let p = d.dom.nodes.iter().position(|n| n.tag.name() == "p").unwrap();
        assert_eq!(seen[p], Some(2));
        assert_eq!(seen.iter().filter(|s| s.is_none()).count(), want.iter().filter(|s| s.is_none()).count());
    }

    #[test]
    fn a_declared_fact_is_built_with_its_views_and_found_by_its_type() {
        let needs = Needs::fact(&COUNT);
        assert_eq!(needs.complete().label(), "dom+count");
        let d = Document::parse_for("<p>one</p><p>two</p>", &Default::default(), needs).0;
        assert_eq!(d.facts.get::<Count>(), Some(&Count(2)));
        assert_eq!(d.facts.get::<u8>(), None);
        let none = Document::parse_for("<p>one</p>", &Default::default(), Needs::DOM).0;
        assert!(none.facts.is_empty());
    }

    #[test]
    fn sets_of_facts_are_equal_whatever_the_order_they_were_joined_in() {
        let (a, b) = (Needs::fact(&COUNT) | Needs::fact(&OTHER), Needs::fact(&OTHER) | Needs::fact(&COUNT));
        assert_eq!(a, b);
        assert_eq!((a | a).facts.iter().count(), 2);
        assert_eq!(a.complete().label(), "source+dom+count+other");
    }
}
