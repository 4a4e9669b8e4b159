//! Stacked members (issue 38, item 3): other extractors whose decisions the trees read. Each
//! slot `member1`…`member3` names one (`none`: the slot is empty); every member that is set adds
//! one feature per block, the share of the block's canonical words the member keeps (0 for a
//! block with none, a hidden one). The trees learn how far to trust each member on the user's
//! gold, and which members are read is part of the setting, so a search can choose them.
//!
//! A member is a family by name (its defaults; `general`, the compiled-in general model, too),
//! or a parameter file read from the current folder: a family's or a combination's description
//! or settings, an external extractor's (`params/external/trafilatura.yaml`), a run's
//! `best.yaml`. A member fitted on the user's gold is refused: its votes on the pages the trees
//! are fitted on would be in-sample. A member depends on no gold, so its votes on a tuning page
//! are out of fold by construction, and the trees' own fit stays k-fold as always.
//!
//! A member's keep-mask of a page is kept in the page's memo (as a combination's members'), so
//! a search runs each member once per page, whatever the number of settings it scores. While
//! fitting, a page a member fails on gets no votes from it (0), and a member that fails on every
//! page is an error ([`check_failures`]); while extracting, the page fails with the member's
//! error, as it would in a combination.

use crate::document::{Document, Needs};
use crate::error::{Error, Result};
use crate::extract::combine::{cached_mask, hash_of};
use crate::extract::{Engine, Extractor, Fallible};
use crate::params::{Setting, Value};
use std::path::Path;

/// The member slots, in the order of their features.
pub const SLOTS: &[&str] = &["member1", "member2", "member3"];

/// The value of an empty slot.
pub const NONE: &str = "none";

/// One stacked member: its extractor and the memo key of its keep-mask.
pub struct Member {
    ex: Box<dyn Extractor>,
    key: u64,
}

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
/// file's setting (a name ending in `.yaml` or `.yml`). A member fitted on gold is refused.
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
    if name != crate::extract::general::NAME && !crate::extract::fitted::places(&s)?.is_empty() {
        return Err(bad(
            "it is fitted on gold, so its votes on the pages the trees are fitted on would be in-sample; \
             stack members that are not fitted (a family, a combination of them, an external extractor)"
                .into(),
        ));
    }
    Ok(s)
}

/// The members of `s`, built by `engine` (which runs external workers under its trust policy).
pub fn build(engine: &Engine, s: &Setting) -> Result<Vec<Member>> {
    names(s)
        .iter()
        .map(|name| {
            let own = setting_of(engine, name)?;
            let ex = crate::extract::build(engine, &own)
                .map_err(|e| Error::config(format!("blocktrees member '{name}': {}", e.message)))?;
            Ok(Member { ex, key: hash_of(("stacked member", &own.extractor, own.label(), &own.model)) })
        })
        .collect()
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
