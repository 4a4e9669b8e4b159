//! The general model (`cetune model build`): several gold sets pooled into one sample, each
//! page labelled and scored under its own set's token rule (its [`Entry::rule`] and gold index
//! come from its set), fitted out of fold by set (leave one set out) or, within a set named in
//! `host_folds`, by host, so that no host is on both sides of a fold. A grid of settings is
//! scored on the held-out folds; the setting written is the best by the macro mean over sets,
//! and the figure a set is given comes from the setting chosen on the *other* sets only.

use super::corpus::{Corpus, Entry};
use super::score::score_subset;
use crate::error::{Error, Result};
use crate::eval::Measure;
use crate::eval::score::Prf;
use crate::params::Setting;

/// Gold sets parsed and pooled: one corpus whose packages are `set/package`.
pub struct Pool {
    /// Every page of every set, set after set.
    pub corpus: Corpus,
    /// The set of each entry (an index into `names`).
    pub set: Vec<usize>,
    /// The sets' names, in the order given.
    pub names: Vec<String>,
    /// Each entry's host (from its URL; its package and id when it has none).
    pub hosts: Vec<String>,
}

impl Pool {
    /// Pools `parts`: each set's corpus with its pages' URLs (one per entry, in order).
    pub fn of(parts: Vec<(Corpus, Vec<Option<String>>)>) -> Pool {
        let mut pool = Pool {
            corpus: Corpus { name: String::new(), packages: Vec::new(), entries: Vec::new() },
            set: Vec::new(),
            names: Vec::new(),
            hosts: Vec::new(),
        };
        for (s, (c, urls)) in parts.into_iter().enumerate() {
            let offset = pool.corpus.packages.len();
            pool.names.push(c.name.clone());
            pool.corpus.packages.extend(c.packages.iter().map(|p| format!("{}/{p}", c.name)));
            for (e, url) in c.entries.into_iter().zip(urls) {
                let host = url.as_deref().and_then(host_of).unwrap_or_else(|| format!("{}/{}", e.package, e.id));
                pool.hosts.push(host);
                pool.set.push(s);
                pool.corpus.entries.push(Entry { package: e.package + offset, ..e });
            }
        }
        pool.corpus.name = pool.names.join("+");
        pool
    }

    /// The held-out folds: one per set, or `k` by host for a set named in `host_folds`
    /// (`(set name, k)`). Returns each entry's fold and each fold's label (`set` or `set#j`).
    pub fn folds(&self, host_folds: &[(String, usize)]) -> Result<(Vec<usize>, Vec<String>)> {
        for (name, k) in host_folds {
            if !self.names.contains(name) {
                return Err(Error::config(format!(
                    "--host-folds {name}={k}: no gold set named '{name}' (pooled: {})",
                    self.names.join(", ")
                )));
            }
            if *k < 2 {
                return Err(Error::config(format!("--host-folds {name}={k}: a set splits into at least 2 folds")));
            }
        }
        let mut labels = Vec::new();
        let mut first = Vec::new();
        for name in &self.names {
            first.push(labels.len());
            match host_folds.iter().find(|(n, _)| n == name) {
                Some((_, k)) => labels.extend((0..*k).map(|j| format!("{name}#{j}"))),
                None => labels.push(name.clone()),
            }
        }
        let fold = (0..self.set.len())
            .map(|i| {
                let s = self.set[i];
                match host_folds.iter().find(|(n, _)| *n == self.names[s]) {
                    Some((_, k)) => first[s] + (fnv(&self.hosts[i]) % *k as u64) as usize,
                    None => first[s],
                }
            })
            .collect();
        Ok((fold, labels))
    }
}

/// A URL's host (lower-cased, without `www.`, user info and port).
fn host_of(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next().filter(|h| !h.is_empty())?;
    Some(crate::document::norm_host(host))
}

/// FNV-1a: a hash that is the same on every machine and in every version, so folds are.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100000001b3))
}

/// The out-of-fold scores of every page under every setting of `grid` (settings of one family
/// fitted on gold): `prf[g][entry]`, each page scored by a model fitted on the pages of the other
/// folds. Settings that share a fit (the same [`crate::extract::fit::Fit::key`]) share its model.
pub fn held_out(
    engine: &crate::extract::Engine,
    pool: &Pool,
    fold: &[usize],
    n_folds: usize,
    grid: &[Setting],
    measure: Measure,
) -> Result<Vec<Vec<Prf>>> {
    let corpus = &pool.corpus;
    let mut prf = vec![vec![Prf::default(); corpus.entries.len()]; grid.len()];
    let Some(first) = grid.first() else { return Ok(prf) };
    let fit = crate::extract::fit_of(&first.extractor)
        .ok_or_else(|| Error::config(format!("model build fits a family fitted on gold, not '{}'", first.extractor)))?;
    let mut by_fit: Vec<(String, Vec<usize>)> = Vec::new();
    for (g, s) in grid.iter().enumerate() {
        let key = fit.key(s);
        match by_fit.iter_mut().find(|(k, _)| *k == key) {
            Some((_, gs)) => gs.push(g),
            None => by_fit.push((key, vec![g])),
        }
    }
    let pages = super::fit::pages(corpus);
    let fitter = fit.fitter(engine);
    for (_, gs) in &by_fit {
        for j in 0..n_folds {
            let test: Vec<usize> = (0..fold.len()).filter(|&i| fold[i] == j).collect();
            if test.is_empty() {
                continue;
            }
            let train: Vec<usize> = (0..fold.len()).filter(|&i| fold[i] != j).collect();
            let model = fitter.fit_on(&pages, &grid[gs[0]], &train)?;
            for &g in gs {
                let ex = fit.apply(engine, &grid[g], model.clone())?;
                let scores = score_subset(corpus, ex.as_ref(), measure, &test);
                for (&i, s) in test.iter().zip(&scores) {
                    prf[g][i] = s.prf;
                }
            }
        }
    }
    Ok(prf)
}

/// The mean of `value` over the pages of each set: `means[set]`.
pub fn set_means(pool: &Pool, value: impl Fn(usize) -> f64) -> Vec<f64> {
    let mut sum = vec![0.0; pool.names.len()];
    let mut n = vec![0usize; pool.names.len()];
    for (i, &s) in pool.set.iter().enumerate() {
        sum[s] += value(i);
        n[s] += 1;
    }
    sum.iter().zip(&n).map(|(s, &n)| if n == 0 { 0.0 } else { s / n as f64 }).collect()
}

/// The grid point with the best macro mean over the sets not in `leave` (the first on ties).
pub fn choose(means: &[Vec<f64>], leave: Option<usize>) -> usize {
    let macro_mean = |m: &Vec<f64>| {
        let kept: Vec<f64> = m.iter().enumerate().filter(|(s, _)| Some(*s) != leave).map(|(_, v)| *v).collect();
        if kept.is_empty() { 0.0 } else { kept.iter().sum::<f64>() / kept.len() as f64 }
    };
    let mut best = 0;
    for g in 1..means.len() {
        if macro_mean(&means[g]) > macro_mean(&means[best]) {
            best = g;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_read_from_urls_and_folds_keep_a_host_on_one_side() {
        assert_eq!(host_of("https://www.Example.com:8080/a?b").as_deref(), Some("example.com"));
        assert_eq!(host_of("example.org/x").as_deref(), Some("example.org"));
        assert_eq!(host_of(""), None);
        let pool = Pool {
            corpus: Corpus { name: "a+b".into(), packages: vec![], entries: vec![] },
            set: vec![0, 0, 1, 1, 1, 1],
            names: vec!["a".into(), "b".into()],
            hosts: ["h1", "h2", "x.org", "y.org", "x.org", "z.org"].map(String::from).to_vec(),
        };
        let (fold, labels) = pool.folds(&[]).unwrap();
        assert_eq!((fold, labels), (vec![0, 0, 1, 1, 1, 1], vec!["a".to_string(), "b".to_string()]));
        let (fold, labels) = pool.folds(&[("b".into(), 2)]).unwrap();
        assert_eq!(labels, ["a", "b#0", "b#1"]);
        assert_eq!(fold[2], fold[4], "one host, one fold");
        assert!(fold[2..].iter().all(|&f| f == 1 || f == 2));
        assert!(pool.folds(&[("c".into(), 2)]).unwrap_err().message.contains("no gold set named 'c'"));
        assert!(pool.folds(&[("b".into(), 1)]).is_err());
    }

    #[test]
    fn the_choice_for_a_set_is_made_on_the_other_sets_only() {
        // Point 0 wins on the macro mean of all three sets; without set 0, point 1 does.
        let means = vec![vec![0.6, 0.5, 0.5], vec![0.1, 0.7, 0.7]];
        assert_eq!(choose(&means, None), 0);
        assert_eq!(choose(&means, Some(0)), 1);
        assert_eq!(choose(&means, Some(1)), 0);
        let means = vec![vec![0.9, 0.9, 0.1], vec![0.1, 0.1, 0.95]];
        assert_eq!(choose(&means, None), 0);
        assert_eq!(choose(&means, Some(0)), 1, "without set 0, point 1 is best on the rest");
    }
}
