//! Namespaced parameters: composing the spaces of several extractors into one without name
//! collisions (`t` exists in four families), and taking a member's own setting back out.
//! `accb.r` is parameter `r` of the member `accb`; a combination of extractors is one space over
//! all its members' parameters, each under its member's name.

use super::space::{KnownGood, ParamSpace};
use super::value::{Kind, Setting};
use crate::error::{Error, Result};

pub use super::value::SEP;

impl ParamSpace {
    /// This space with every parameter (and correlated group and known-good individual) under
    /// `ns`: `r` becomes `ns.r`.
    pub fn prefixed(&self, ns: &str) -> ParamSpace {
        let name = |n: &str| format!("{ns}{SEP}{n}");
        let mut out = self.clone();
        for p in &mut out.params {
            p.name = name(&p.name);
        }
        for group in &mut out.correlated {
            for n in group.iter_mut() {
                *n = name(n);
            }
        }
        for k in &mut out.known_good {
            k.setting = k.setting.prefixed(ns);
        }
        out
    }

    /// One space over the parameters of `parts` (already namespaced, e.g. by
    /// [`ParamSpace::prefixed`]) for the extractor `extractor`. Known-good individuals are not
    /// carried over: they are settings of the parts, not of the whole. A name that occurs twice
    /// is an error.
    pub fn compose(extractor: &str, description: &str, parts: &[ParamSpace]) -> Result<ParamSpace> {
        let mut out = ParamSpace {
            extractor: extractor.to_string(),
            kind: Kind::Combination,
            description: description.to_string(),
            params: Vec::new(),
            correlated: Vec::new(),
            known_good: Vec::new(),
            members: Vec::new(),
            search: None,
        };
        for part in parts {
            for p in &part.params {
                if out.params.iter().any(|q| q.name == p.name) {
                    return Err(Error::config(format!(
                        "parameter '{}' occurs twice in '{extractor}': give each member its own name",
                        p.name
                    )));
                }
                out.params.push(p.clone());
            }
            out.correlated.extend(part.correlated.iter().cloned());
        }
        Ok(out)
    }
}

impl Setting {
    /// This setting with every name under `ns`.
    pub fn prefixed(&self, ns: &str) -> Setting {
        Setting {
            extractor: self.extractor.clone(),
            kind: self.kind,
            members: self.members.clone(),
            values: self.values.iter().map(|(n, v)| (format!("{ns}{SEP}{n}"), v.clone())).collect(),
            model: self.model.clone(),
        }
    }
}

/// Known-good individuals of a composed space built from the members' own known-good settings
/// (one per member, the others at their defaults), so a combination starts from what each member
/// is known to do well.
pub fn member_known_good(space: &ParamSpace, members: &[(String, ParamSpace)]) -> Vec<KnownGood> {
    let defaults = space.defaults();
    let mut out = Vec::new();
    for (ns, member) in members {
        for k in &member.known_good {
            let mut s = defaults.clone();
            for (n, v) in k.setting.prefixed(ns).values {
                if let Some(slot) = s.values.iter_mut().find(|(m, _)| *m == n) {
                    slot.1 = v;
                }
            }
            out.push(KnownGood { label: format!("{ns}: {}", k.label), setting: s });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_spaces_compose_under_their_names_and_members_get_their_settings_back() {
        let accb = crate::extract::space("accb").unwrap();
        let lqf = crate::extract::space("lqf").unwrap();
        // Both have a parameter `t`: unprefixed they collide.
        let e = ParamSpace::compose("pair", "", &[accb.clone(), lqf.clone()]).unwrap_err();
        assert!(e.message.contains("parameter 't' occurs twice"), "{}", e.message);
        let members = vec![("accb".to_string(), accb.clone()), ("lqf".to_string(), lqf.clone())];
        let pair = ParamSpace::compose("pair", "", &[accb.prefixed("accb"), lqf.prefixed("lqf")]).unwrap();
        let names: Vec<&str> = pair.params.iter().map(|p| p.name.as_str()).collect();
        assert!(names.contains(&"accb.t") && names.contains(&"lqf.t") && names.contains(&"accb.r"), "{names:?}");
        assert_eq!(pair.correlated, vec![vec!["accb.r".to_string(), "accb.t".to_string()]]);
        let s = pair.with_assignments(&pair.defaults(), &["accb.t=0.6".to_string(), "lqf.t=0.3".to_string()]).unwrap();
        let family = |n: &str| crate::params::Member {
            name: n.into(),
            extractor: n.into(),
            kind: Kind::Family,
            members: Vec::new(),
        };
        let a = s.member(&family("accb"));
        assert_eq!(a, accb.with_assignments(&accb.defaults(), &["t=0.6".to_string()]).unwrap());
        let l = s.member(&family("lqf"));
        assert_eq!(l, lqf.with_assignments(&lqf.defaults(), &["t=0.3".to_string()]).unwrap());
        // Each member's known-good individuals, lifted into the pair.
        let kg = member_known_good(&pair, &members);
        assert_eq!(kg.len(), accb.known_good.len() + lqf.known_good.len());
        assert_eq!(kg[0].setting.member(&family("accb")), accb.known_good[0].setting);
    }
}
