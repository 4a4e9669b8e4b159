//! Stacked members (issue 38, item 3): other extractors whose decisions the trees read. Each
//! slot `member1`…`member3` names one (`none`: the slot is empty); every member that is set adds
//! one feature per block, the share of the block's canonical words the member keeps (0 for a
//! block with none, a hidden one). The trees learn how far to trust each member on the user's
//! gold, and which members are read is part of the setting, so a search can choose them.
//!
//! A member is a family by name (its defaults; `general`, the compiled-in general model, too),
//! or a parameter file read from the current folder: a family's or a combination's description
//! or settings, an external extractor's (`params/external/trafilatura.yaml`), a run's
//! `best.yaml`. A member that depends on no gold votes out of fold by construction. A member
//! fitted on gold (a family fitted on gold, or a route or combination holding one) is fitted by
//! the trees' own fit, out of fold ([`fit`]): a page's votes come from the member fitted on the
//! other folds' pages (the folds of the trees' k-fold fitness), and the model file keeps the
//! member fitted on every page, which extraction applies. A member naming a model of its own
//! (a run's `best.yaml` with `model:`) is refused: nothing says which pages it saw, so its votes
//! on the tuning pages could be in-sample.
//!
//! A member's keep-mask of a page is kept in the page's memo (as a combination's members'), so
//! a search runs each member once per page, whatever the number of settings it scores. While
//! fitting, a page a member fails on gets no votes from it (0), and a member that fails on every
//! page is an error ([`check_failures`]); while extracting, the page fails with the member's
//! error, as it would in a combination.

use crate::document::{Document, Needs};
use crate::error::{Error, Result};
use crate::extract::combine::{cached_mask, hash_of};
use crate::extract::fit::Page;
use crate::extract::fitted::{self, Models, Placed};
use crate::extract::{Engine, Extractor, Fallible};
use crate::params::{Setting, Value};
use std::path::Path;
use std::sync::Arc;

/// The member slots, in the order of their features.
pub const SLOTS: &[&str] = &["member1", "member2", "member3"];

/// The value of an empty slot.
pub const NONE: &str = "none";

/// One stacked member: its extractor and the memo key of its keep-mask.
pub struct Member {
    ex: Box<dyn Extractor>,
    key: u64,
}

/// A member fitted on gold, as fitted by the trees' fit: the text of its model file (a model per
/// place, [`fitted::write`]) and, once read for its setting, its models.
#[derive(Debug, Clone)]
pub struct Fitted {
    /// The model file's text, as the block model's file keeps it.
    pub text: String,
    models: Option<Models>,
}

impl PartialEq for Fitted {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Fitted {
    /// A fit read back from a block model's file (its models are read for the member's setting
    /// when the member is built).
    pub fn from_text(text: String) -> Fitted {
        Fitted { text, models: None }
    }
}

/// The fits of a setting's members, one per slot that is set (`None`: the member is not fitted).
pub type Fits = Vec<Option<Arc<Fitted>>>;

/// The members `s` names, in slot order (empty slots left out).
pub fn names(s: &Setting) -> Vec<String> {
    SLOTS
        .iter()
        .filter_map(|slot| match s.get(slot) {
            Some(Value::Cat(c)) if c != NONE => Some(c.clone()),
            _ => None,
        })
        .collect()
}

/// The setting of the member `name`: a family's defaults, the general model, or a parameter
/// file's setting (a name ending in `.yaml` or `.yml`). A member naming a model fitted on gold
/// is refused (one fitted on gold that names none is fitted with the trees, [`fit`]).
pub fn setting_of(engine: &Engine, name: &str) -> Result<Setting> {
    let bad = |msg: String| Error::config(format!("blocktrees member '{name}': {msg}"));
    let s = if is_file(name) {
        let path = Path::new(name);
        let text = crate::params::read_file(path).map_err(|e| bad(e.message))?;
        crate::extract::parse_str(&text, path).map_err(|e| bad(e.to_string()))?.setting
    } else {
        crate::extract::named(engine, name).map_err(|e| bad(e.message))?.1
    };
    // The general model was fitted on public gold, never on the user's pages.
    if name != crate::extract::general::NAME && s.model.is_some() && !fitted::places(&s)?.is_empty() {
        return Err(bad(
            "it names a model fitted on gold, and nothing says which pages it saw, so its votes on the pages \
             the trees are fitted on could be in-sample; name its setting without 'model:' and the trees' fit \
             fits it out of fold"
                .into(),
        ));
    }
    Ok(s)
}

/// True when a member of `s` is fitted on gold by the trees' fit.
pub fn any_fitted(engine: &Engine, s: &Setting) -> Result<bool> {
    for name in names(s) {
        if fitted::needs_fit(&setting_of(engine, &name)?) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The members of `s`, built by `engine` (which runs external workers under its trust policy),
/// a member fitted on gold with its fit in `fits` (by slot; a fitted member without one is an
/// error: the model holds no fit of it).
pub fn build(engine: &Engine, s: &Setting, fits: &[Option<Arc<Fitted>>]) -> Result<Vec<Member>> {
    names(s)
        .iter()
        .enumerate()
        .map(|(j, name)| {
            let own = setting_of(engine, name)?;
            let bad = |e: Error| Error::config(format!("blocktrees member '{name}': {}", e.message));
            let (ex, key) = match fits.get(j).and_then(|f| f.as_ref()) {
                Some(f) => {
                    let models = match &f.models {
                        Some(m) => m.clone(),
                        None => read(&f.text, &own).map_err(bad)?,
                    };
                    let ex = crate::extract::build_with(engine, &own, &models).map_err(bad)?;
                    (ex, hash_of(("stacked member", &own.extractor, own.label(), models.tag())))
                }
                None if fitted::needs_fit(&own) => {
                    return Err(Error::config(format!(
                        "blocktrees member '{name}' is fitted on gold, and the block model holds no fit of it: refit it"
                    )));
                }
                None => {
                    let ex = crate::extract::build(engine, &own).map_err(bad)?;
                    (ex, hash_of(("stacked member", &own.extractor, own.label(), &own.model)))
                }
            };
            Ok(Member { ex, key })
        })
        .collect()
}

/// The members of `s` that are fitted on gold, each fitted on the pages `train` of `pages`
/// (`None` for a slot whose member is not fitted): each place of the member's setting by its
/// own family's fit, as a run fits a route's or a combination's places.
pub fn fit(engine: &Engine, s: &Setting, pages: &[&dyn Page], train: &[usize]) -> Result<Fits> {
    let sub: Vec<&dyn Page> = train.iter().map(|&i| pages[i]).collect();
    names(s)
        .iter()
        .map(|name| {
            let own = setting_of(engine, name)?;
            if !fitted::needs_fit(&own) {
                return Ok(None);
            }
            let mut placed = Vec::new();
            for (place, p) in fitted::places(&own)? {
                let fit = crate::extract::fit_of(&p.extractor)
                    .ok_or_else(|| Error::bug(format!("blocktrees member '{name}': a place that fits nothing")))?;
                placed.push((place, fit.fit_all(engine, &sub, &p)?));
            }
            let text = fitted::write(&placed);
            let tag = |place: &str| hash_of(("fitted member", place, &text));
            let models = Models(
                placed
                    .iter()
                    .map(|(place, m)| Placed { place: place.clone(), model: m.clone(), tag: tag(place) })
                    .collect(),
                None,
            );
            Ok(Some(Arc::new(Fitted { text, models: Some(models) })))
        })
        .collect()
}

/// The models of a fitted member's setting `own` from the text of its fit.
fn read(text: &str, own: &Setting) -> Result<Models> {
    fitted::read_text(text, own, hash_of(("fitted member text", text)))
}

/// What the members need of a page to vote (their own needs and the word map of their masks).
pub fn needs(members: &[Member]) -> Needs {
    members.iter().fold(Needs::NONE, |n, m| n | crate::extract::mask_needs(m.ex.as_ref()))
}

/// The votes of `members` on the blocks `cand` of `doc`: for each block in `cand`'s order, one
/// value per member, the share of the block's canonical words the member keeps.
pub fn votes(doc: &Document, cand: &[u32], members: &[Member]) -> Fallible<Vec<f32>> {
    let masks = members.iter().map(|m| cached_mask(doc, m.key, m.ex.as_ref())).collect::<Fallible<Vec<_>>>()?;
    Ok(shares(doc, cand, &masks.iter().map(|m| Some(m.as_slice())).collect::<Vec<_>>()))
}

/// [`votes`] while fitting: a page a member fails on gets no votes from it. Also the failure of
/// each member on the page, so that a member failing on every page is an error, not silent zeros.
pub fn votes_or_none(doc: &Document, cand: &[u32], members: &[Member]) -> (Vec<f32>, Vec<Option<String>>) {
    let masks: Vec<Fallible<_>> = members.iter().map(|m| cached_mask(doc, m.key, m.ex.as_ref())).collect();
    let failed = masks.iter().map(|m| m.as_ref().err().map(|e| e.to_string())).collect();
    let kept: Vec<Option<&[f32]>> = masks.iter().map(|m| m.as_ref().ok().map(|m| m.as_slice())).collect();
    (shares(doc, cand, &kept), failed)
}

/// For each block of `cand`, the share of its canonical words each mask keeps (0 for a member
/// without a mask, and for a block without words), one pass over each block's words.
fn shares(doc: &Document, cand: &[u32], masks: &[Option<&[f32]>]) -> Vec<f32> {
    let k = masks.len();
    let mut out = vec![0.0f32; cand.len() * k];
    for (i, &b) in cand.iter().enumerate() {
        let row = &mut out[i * k..(i + 1) * k];
        let mut all = 0u32;
        for w in doc.block_words(b as usize) {
            all += 1;
            for (x, mask) in row.iter_mut().zip(masks) {
                *x += mask.and_then(|m| m.get(w as usize)).copied().unwrap_or(0.0);
            }
        }
        if all > 0 {
            row.iter_mut().for_each(|x| *x /= all as f32);
        }
    }
    out
}

/// An error when a member failed on every page of a fit (`failed[p][j]`: member `j` on page
/// `p`, pages without a document left out): a worker that cannot read the pages is a
/// configuration error, not a feature of zeros.
pub fn check_failures(s: &crate::params::Setting, failed: &[&[Option<String>]]) -> Result<()> {
    for (j, name) in names(s).iter().enumerate() {
        let mut all = failed.iter().map(|f| f.get(j));
        if !failed.is_empty() && all.all(|f| matches!(f, Some(Some(_)))) {
            let why = failed[0][j].clone().unwrap_or_default();
            return Err(Error::config(format!("blocktrees member '{name}' failed on every page ({why})")));
        }
    }
    Ok(())
}

/// What any setting of `space` reads of a page for its stacked members: the union over every
/// slot's choices (a search may set any of them). An external member's worker reads the HTML
/// and its text is aligned to the source words; it is not started here.
pub fn space_needs(engine: &Engine, space: &crate::params::ParamSpace) -> Result<Needs> {
    let mut needs = Needs::NONE;
    for name in choices(space) {
        let own = setting_of(engine, name)?;
        needs = needs
            | match own.kind {
                crate::params::Kind::External => Needs::SOURCE | Needs::HTML,
                _ => crate::extract::mask_needs(crate::extract::build(engine, &own)?.as_ref()),
            };
    }
    Ok(needs)
}

/// The parameter files any slot of `space` may name (its choices that are files): a file the
/// user names trusts the external commands they declare, as it trusts a route's branch files.
pub fn files(space: &crate::params::ParamSpace) -> Vec<String> {
    choices(space).filter(|c| is_file(c)).cloned().collect()
}

/// Every member any slot of `space` may name (its choices but `none`).
fn choices(space: &crate::params::ParamSpace) -> impl Iterator<Item = &String> {
    SLOTS
        .iter()
        .filter_map(|slot| match space.param(slot).map(|p| &p.spec) {
            Some(crate::params::Spec::Categorical { choices }) => Some(choices),
            _ => None,
        })
        .flatten()
        .filter(|c| *c != NONE)
}

/// Whether a member name is a parameter file (else a family).
fn is_file(name: &str) -> bool {
    name.ends_with(".yaml") || name.ends_with(".yml")
}
