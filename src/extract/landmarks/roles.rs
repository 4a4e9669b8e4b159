//! The fact `landmarks` reads: which flattened nodes are declared landmarks by their `role`
//! attribute (`role="main"`, `role="article"`). The DOM view keeps each element's tag but none of
//! its attributes, so the fact is built by a [`Visitor`] the one DOM walk feeds: the pattern for
//! any family that reads attributes the shared views drop. Imports from the crate: `document`.

use crate::document::facts::{Build, Fact, Shared, Visitor};
use crate::document::{Dom, Needs};
use std::sync::Arc;

/// `landmarks`' fact: built during the DOM walk, from nothing but the elements' attributes.
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

/// The nodes (indices into the flattened DOM) that declare a landmark role, increasing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Roles(pub Vec<(u32, Role)>);

/// The visitor: counts the walk's nodes and notes the roles.
#[derive(Default)]
struct Walk {
    node: u32,
    roles: Vec<(u32, Role)>,
}

impl Visitor for Walk {
    fn element<'a>(&mut self, _: &str, attrs: &mut dyn Iterator<Item = (&'a str, &'a str)>) {
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
    fn finish(self: Box<Self>, _: &Dom) -> Shared {
        Arc::new(Roles(self.roles))
    }
}
