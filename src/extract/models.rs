//! The fitted models a setting's places apply ([`Models`], passed to [`super::build_with`]):
//! what a search fits out of fold for a family fitted on gold ([`super::fit::Fit`]) at each place
//! of a route or combination, and a route fallback's confidence model. Where the places are and how
//! a model file holds them is `fitted.rs`; this file is what the composite extractors read, so
//! they do not import the fitting side. Imports from the crate: `extract` and `params`.

use super::fit::Model;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// One fitted model at its place, with a tag that identifies it in the member-output cache (a
/// branch's output depends on its model, not only on its setting).
#[derive(Clone, Debug)]
pub struct Placed {
    /// Where it sits (see the module's documentation).
    pub place: String,
    /// The model.
    pub model: Arc<dyn Model>,
    /// Its cache identity.
    pub tag: u64,
}

/// The fitted models of a setting's places (none for most settings), and the confidence model
/// a route's fallback judges with while a search scores it (fitted out of fold, see
/// `objective::judge`; `None`: the file its setting names).
#[derive(Clone, Debug, Default)]
pub struct Models(pub Vec<Placed>, pub Option<Arc<super::judge::Model>>);

impl Models {
    /// The models under member or branch `ns`, with their places relative to it.
    pub fn under(&self, ns: &str) -> Models {
        let prefix = format!("{ns}{}", crate::params::compose::SEP);
        Models(
            self.0
                .iter()
                .filter_map(|p| {
                    let place = if p.place == ns { "" } else { p.place.strip_prefix(&prefix)? };
                    Some(Placed { place: place.to_string(), ..p.clone() })
                })
                .collect(),
            None,
        )
    }

    /// The confidence model of a route's fallback, when a search fitted one.
    pub fn judge(&self) -> Option<&Arc<super::judge::Model>> {
        self.1.as_ref()
    }

    /// The model of the setting itself (the empty place).
    pub fn here(&self) -> Option<&Placed> {
        self.0.iter().find(|p| p.place.is_empty())
    }

    /// The cache identity of these models (0 without any).
    pub fn tag(&self) -> u64 {
        if self.0.is_empty() {
            return 0;
        }
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.0.iter().map(|p| (&p.place, p.tag)).collect::<Vec<_>>().hash(&mut h);
        h.finish()
    }
}
