//! Stratified random samples: Gottron's small, fixed fitness set (120 documents drawn from all
//! packages). Allocation is proportional to package size with at least one document per package
//! (largest remainders), the draw is uniform within each package, and the result depends only on
//! the set and the seed.

use super::{GoldDoc, GoldSet};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

/// How many documents each package gets in a sample of `n` (sizes in package order).
pub fn allocate(sizes: &[usize], n: usize) -> Vec<usize> {
    let total: usize = sizes.iter().sum();
    let n = n.min(total);
    let nonempty = sizes.iter().filter(|&&s| s > 0).count();
    if n == 0 || nonempty == 0 {
        return vec![0; sizes.len()];
    }
    let mut alloc: Vec<usize> = sizes.iter().map(|&s| if s > 0 && n >= nonempty { 1 } else { 0 }).collect();
    let mut left = n - alloc.iter().sum::<usize>();
    // Proportional quotas of what is left, over the documents not yet allocated.
    let rest_total: usize = sizes.iter().zip(&alloc).map(|(s, a)| s - a).sum();
    if left > 0 && rest_total > 0 {
        let quotas: Vec<f64> =
            sizes.iter().zip(&alloc).map(|(s, a)| (s - a) as f64 * left as f64 / rest_total as f64).collect();
        for (a, q) in alloc.iter_mut().zip(&quotas) {
            *a += q.floor() as usize;
        }
        left = n - alloc.iter().sum::<usize>();
        let mut order: Vec<usize> = (0..sizes.len()).collect();
        order.sort_by(|&i, &j| {
            (quotas[j] - quotas[j].floor()).total_cmp(&(quotas[i] - quotas[i].floor())).then(i.cmp(&j))
        });
        for i in order.into_iter().cycle().take(sizes.len() * 2) {
            if left == 0 {
                break;
            }
            if alloc[i] < sizes[i] {
                alloc[i] += 1;
                left -= 1;
            }
        }
    }
    alloc
}

/// Draws a stratified sample of `n` documents. With more packages than `n`, `n` packages are
/// drawn (larger packages more likely) and one document is taken from each.
pub fn sample(set: &GoldSet, n: usize, seed: u64) -> Vec<&GoldDoc> {
    let packages: Vec<usize> = set.docs.iter().map(|d| d.package).collect();
    let mut picked: Vec<&GoldDoc> =
        sample_indices(&packages, set.packages.len(), n, seed).into_iter().map(|i| &set.docs[i]).collect();
    picked.sort_by(|a, b| (a.package, &a.id).cmp(&(b.package, &b.id)));
    picked
}

/// The stratified draw of [`sample`] over items given by their package numbers (below
/// `n_packages`): the indices of the items drawn, in no particular order. Used for gold sets and
/// for the pages of `goldset new --sample`.
pub fn sample_indices(packages: &[usize], n_packages: usize, n: usize, seed: u64) -> Vec<usize> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut by_pkg: Vec<Vec<usize>> = vec![Vec::new(); n_packages];
    for (i, &p) in packages.iter().enumerate() {
        by_pkg[p].push(i);
    }
    let sizes: Vec<usize> = by_pkg.iter().map(Vec::len).collect();
    let mut picked: Vec<usize> = Vec::new();
    if n < n_packages {
        let mut docs: Vec<usize> = (0..packages.len()).collect();
        docs.shuffle(&mut rng);
        let mut seen = vec![false; n_packages];
        for d in docs {
            if picked.len() == n {
                break;
            }
            if !seen[packages[d]] {
                seen[packages[d]] = true;
                picked.push(d);
            }
        }
    } else {
        for (docs, k) in by_pkg.iter_mut().zip(allocate(&sizes, n)) {
            // Partial Fisher-Yates: the first k positions become a uniform draw.
            for i in 0..k {
                let j = rng.random_range(i..docs.len());
                docs.swap(i, j);
            }
            picked.extend(&docs[..k]);
        }
    }
    picked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::words::TokenRule;
    use std::path::PathBuf;

    fn set(sizes: &[usize]) -> GoldSet {
        let mut docs = Vec::new();
        for (p, &s) in sizes.iter().enumerate() {
            for i in 0..s {
                docs.push(GoldDoc {
                    package: p,
                    id: format!("{i:04}"),
                    page: PathBuf::new(),
                    gold: "x".into(),
                    url: None,
                    lang: None,
                    fields: Default::default(),
                });
            }
        }
        GoldSet {
            name: "t".into(),
            root: PathBuf::new(),
            packages: (0..sizes.len()).map(|p| format!("p{p}")).collect(),
            docs,
            trainers: Vec::new(),
            token_rule: TokenRule::default(),
            skipped: vec![],
            credit: None,
            limits: Default::default(),
        }
    }

    #[test]
    fn allocation_is_proportional_with_one_per_package() {
        assert_eq!(allocate(&[1000, 1000, 65, 139], 120), vec![54, 54, 4, 8]);
        let a = allocate(&[711, 165, 112, 98, 92, 91, 89], 120);
        assert_eq!(a.iter().sum::<usize>(), 120);
        assert!(a.iter().all(|&k| k >= 1));
        assert_eq!(allocate(&[3, 1], 10), vec![3, 1]);
    }

    #[test]
    fn sample_is_deterministic_stratified_and_distinct() {
        let s = set(&[50, 30, 2, 1]);
        let a: Vec<String> = sample(&s, 20, 7).iter().map(|d| format!("{}/{}", d.package, d.id)).collect();
        let b: Vec<String> = sample(&s, 20, 7).iter().map(|d| format!("{}/{}", d.package, d.id)).collect();
        let c: Vec<String> = sample(&s, 20, 8).iter().map(|d| format!("{}/{}", d.package, d.id)).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.len(), 20);
        let mut dedup = a.clone();
        dedup.dedup();
        assert_eq!(dedup.len(), 20);
        for p in 0..4 {
            assert!(a.iter().any(|k| k.starts_with(&format!("{p}/"))), "package {p} missing");
        }
    }

    #[test]
    fn more_packages_than_n_takes_one_from_each_of_n() {
        let s = set(&[1; 30]);
        let a = sample(&s, 10, 1);
        assert_eq!(a.len(), 10);
    }
}
