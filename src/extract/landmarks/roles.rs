//! The fact `landmarks` reads: the page's landmarks of each kind, outermost only, with their
//! words, found once per page (a setting only chooses among them). An element is a landmark by
//! its tag (`main`, `article`) or by its `role` attribute (`role="main"`, `role="article"`). The
//! DOM view keeps each element's tag but none of its attributes, so the fact is built by a
//! [`Visitor`] the one DOM walk feeds: the pattern for any family that reads attributes the
//! shared views drop. Imports from the crate: `document`.

use crate::document::facts::{Build, Fact, Shared, Visitor};
use crate::document::tags::tag;
use crate::document::{Dom, Needs};
use std::sync::Arc;

/// `landmarks`' fact: the roles noted during the DOM walk, the landmarks found once it is over.
pub static FACT: Fact =
    Fact { name: "roles", reads: Needs::DOM, build: Build::Walk(|| Box::new(Walk::default())), package: None };

/// A landmark role an element declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `role="main"`: the page's main content.
    Main,
    /// `role="article"`: a self-contained composition.
    Article,
}

/// A landmark: its node (an index into the flattened DOM) and the words of its subtree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Landmark {
    /// The element's node.
    pub node: usize,
    /// The words of its rendered text units.
    pub words: usize,
}

/// A page's landmarks of each kind, in document order; one inside another of its kind is part
/// of it, not one more.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageLandmarks {
    /// `main` elements and `role="main"`.
    pub main: Vec<Landmark>,
    /// `article` elements and `role="article"`.
    pub article: Vec<Landmark>,
}

impl PageLandmarks {
    /// The landmarks of one kind.
    pub fn of(&self, kind: Role) -> &[Landmark] {
        match kind {
            Role::Main => &self.main,
            Role::Article => &self.article,
        }
    }
}

/// The outermost landmarks of one kind: the elements of `element`'s tag and the nodes that
/// declare `kind`, with their words.
fn outermost(dom: &Dom, element: &str, kind: Role, declared: &[(u32, Role)]) -> Vec<Landmark> {
    let element = tag(element);
    let mut nodes: Vec<usize> = (0..dom.nodes.len()).filter(|&i| dom.nodes[i].tag == element).collect();
    nodes.extend(declared.iter().filter(|(_, r)| *r == kind).map(|(n, _)| *n as usize));
    nodes.sort_unstable();
    nodes.dedup();
    let mut out = Vec::new();
    let mut end = 0;
    for node in nodes {
        if node < end {
            continue; // inside the previous one
        }
        end = dom.nodes[node].end as usize;
        let words = dom.units_in(node).map(|u| dom.texts.get(u as usize).split_whitespace().count()).sum();
        out.push(Landmark { node, words });
    }
    out
}

/// The visitor: counts the walk's nodes and notes the roles.
#[derive(Default)]
struct Walk {
    node: u32,
    roles: Vec<(u32, Role)>,
}

impl Visitor for Walk {
    fn element<'a>(&mut self, _: &str, _: u32, attrs: &mut dyn Iterator<Item = (&'a str, &'a str)>) {
        // `role` may list several tokens; the first one the page's reader knows wins (WAI-ARIA).
        for (k, v) in attrs {
            if !k.eq_ignore_ascii_case("role") {
                continue;
            }
            let role = v.split_ascii_whitespace().find_map(|t| match t.to_ascii_lowercase().as_str() {
                "main" => Some(Role::Main),
                "article" => Some(Role::Article),
                _ => None,
            });
            if let Some(r) = role {
                self.roles.push((self.node, r));
            }
            break;
        }
        self.node += 1;
    }
    fn other(&mut self) {
        self.node += 1;
    }
    fn finish(self: Box<Self>, dom: &Dom) -> Shared {
        Arc::new(PageLandmarks {
            main: outermost(dom, "main", Role::Main, &self.roles),
            article: outermost(dom, "article", Role::Article, &self.roles),
        })
    }
}
