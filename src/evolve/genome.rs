//! Genes, the search space and genome repair.
//!
//! A genome is one `f64` per gene: reals as they are, integers rounded, a categorical value as its
//! index and a bool as 0/1. [`repair`] brings any vector of numbers back into the space (after
//! random sampling, crossover or mutation), and [`key`] names a repaired genome exactly, so that
//! two genomes that become equal after repair share one fitness-cache entry.

use crate::error::{Error, Result};
use crate::params::snap;
use serde::{Deserialize, Serialize};

/// One parameter as the optimiser sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Gene {
    /// A real in `[lo, hi]`, optionally on the grid `lo + k·step`.
    Real {
        /// Lower bound (inclusive).
        lo: f64,
        /// Upper bound (inclusive).
        hi: f64,
        /// Grid step; values are rounded to it and to its number of decimals.
        step: Option<f64>,
    },
    /// An integer in `[lo, hi]`.
    Int {
        /// Lower bound (inclusive).
        lo: i64,
        /// Upper bound (inclusive).
        hi: i64,
    },
    /// One of `n` unordered choices, stored as the index `0..n`.
    Cat {
        /// Number of choices (at least 1).
        n: usize,
    },
    /// A flag, stored as 0 or 1.
    Bool,
}

impl Gene {
    /// The numeric bounds of the gene's internal value.
    pub fn bounds(&self) -> (f64, f64) {
        match *self {
            Gene::Real { lo, hi, .. } => (lo, hi),
            Gene::Int { lo, hi } => (lo as f64, hi as f64),
            Gene::Cat { n } => (0.0, n.saturating_sub(1) as f64),
            Gene::Bool => (0.0, 1.0),
        }
    }

    /// Whether the gene is ordered numeric (Real or Int), i.e. can be blended and get Gaussian noise.
    pub fn is_numeric(&self) -> bool {
        matches!(self, Gene::Real { .. } | Gene::Int { .. })
    }

    /// Brings one value into the gene's domain (see [`repair`]).
    pub fn repair_value(&self, x: f64) -> f64 {
        let (lo, hi) = self.bounds();
        let x = if x.is_nan() { lo } else { x.clamp(lo, hi) };
        let v = match *self {
            Gene::Real { step: Some(s), .. } => snap(x, lo, hi, s),
            Gene::Real { .. } => x,
            Gene::Int { .. } | Gene::Cat { .. } => x.round(),
            Gene::Bool => f64::from(u8::from(x >= 0.5)),
        };
        v + 0.0 // turns -0.0 into 0.0, so that keys agree
    }

    fn validate(&self, i: usize) -> Result<()> {
        let bad = |why: String| Err(Error::config(format!("gene {i}: {why}")));
        match *self {
            Gene::Real { lo, hi, step } => {
                if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
                    return bad(format!("`lo <= hi` (both finite) must hold, but got lo={lo}, hi={hi}"));
                }
                match step {
                    Some(s) if !(s > 0.0 && s.is_finite()) => bad(format!("step must be > 0, but got {s}")),
                    _ => Ok(()),
                }
            }
            Gene::Int { lo, hi } if lo > hi => bad(format!("`lo <= hi` must hold, but got lo={lo}, hi={hi}")),
            Gene::Cat { n: 0 } => bad("a categorical gene needs at least one choice".into()),
            _ => Ok(()),
        }
    }
}

/// The search space: the genes, and groups of correlated numeric genes.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Space {
    /// One entry per gene, in genome order.
    pub genes: Vec<Gene>,
    /// Groups of indices of Real/Int genes that crossover blends instead of picking (e.g. CCB's
    /// `r` and `t`); a gene belongs to at most one group.
    pub correlated: Vec<Vec<usize>>,
    /// Conditional genes: a gene takes part in the fitness only while its conditions hold (e.g.
    /// the parameters of a combination member that is switched off do not). [`key`] writes an
    /// inactive gene as `_`, so genomes that differ only there share one cache entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// Groups of genes that count only by their order (a serial pipeline's `order` genes: the
    /// pipeline is the active members sorted by it, ties in group order). [`key`] writes the
    /// active genes of a group as their ranks, so genomes that form the same pipeline share one
    /// cache entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<Vec<usize>>,
}

/// Gene `gene` is active only while gene `when` has one of `values` (`when: None`: never), or
/// while every test of one of the alternatives `or` holds (a route's branch genes count while
/// `otherwise` names the branch, or while some rule is on and sends pages there).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Condition {
    /// The conditional gene.
    pub gene: usize,
    /// The gene it depends on; `None` when it is never active (its switch is fixed off).
    pub when: Option<usize>,
    /// The values of `when` under which `gene` is active.
    pub values: Vec<f64>,
    /// Further alternatives, each a conjunction of tests `(gene, values)`: the condition also
    /// holds when every test of one alternative holds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub or: Vec<Vec<(usize, Vec<f64>)>>,
}

impl Condition {
    /// Whether the condition holds for genome `g`.
    pub fn holds(&self, g: &[f64]) -> bool {
        let test = |w: usize, vs: &[f64]| g.get(w).is_some_and(|x| vs.contains(x));
        self.when.is_some_and(|w| test(w, &self.values))
            || self.or.iter().any(|alt| alt.iter().all(|(w, vs)| test(*w, vs)))
    }
}

/// One individual: one `f64` per gene of the [`Space`].
pub type Genome = Vec<f64>;

impl Space {
    /// Number of genes.
    pub fn len(&self) -> usize {
        self.genes.len()
    }

    /// Whether the space has no genes.
    pub fn is_empty(&self) -> bool {
        self.genes.is_empty()
    }

    /// For each gene, whether it belongs to a correlated group.
    pub fn in_group(&self) -> Vec<bool> {
        let mut v = vec![false; self.len()];
        for &i in self.correlated.iter().flatten() {
            if let Some(slot) = v.get_mut(i) {
                *slot = true;
            }
        }
        v
    }

    /// Checks bounds, steps and correlated groups.
    pub fn validate(&self) -> Result<()> {
        if self.is_empty() {
            return Err(Error::config("the search space has no genes"));
        }
        for (i, g) in self.genes.iter().enumerate() {
            g.validate(i)?;
        }
        let mut seen = vec![false; self.len()];
        for &i in self.correlated.iter().flatten() {
            match self.genes.get(i) {
                None => return Err(Error::config(format!("correlated gene {i} does not exist"))),
                Some(g) if !g.is_numeric() => {
                    return Err(Error::config(format!("correlated gene {i} is not real or integer")));
                }
                _ if seen[i] => {
                    return Err(Error::config(format!("gene {i} is in two correlated groups")));
                }
                _ => seen[i] = true,
            }
        }
        Ok(())
    }

    /// For each gene, whether it takes part in the fitness of genome `g` (see
    /// [`Space::conditions`]).
    pub fn active(&self, g: &[f64]) -> Vec<bool> {
        let mut out = vec![true; self.len()];
        for c in &self.conditions {
            let holds = c.holds(g);
            if let Some(slot) = out.get_mut(c.gene) {
                *slot &= holds;
            }
        }
        out
    }

    /// Checks that a genome has one value per gene.
    pub fn check_len(&self, g: &[f64]) -> Result<()> {
        if g.len() == self.len() {
            Ok(())
        } else {
            Err(Error::config(format!("a genome has {} values, but the space has {} genes", g.len(), self.len())))
        }
    }
}

/// Repairs a genome in place: clamps every value into its bounds (NaN becomes the lower bound),
/// rounds integers and categorical indices, maps bools to 0/1, and rounds a Real with a `step`
/// by [`params::snap`](crate::params::snap), the rule that also turns a gene into a setting's
/// value, so a genome and its setting never disagree. Reals without a step are only clamped. Extra values beyond the space are
/// dropped; missing ones are not added (see [`Space::check_len`]).
pub fn repair(space: &Space, g: &mut Genome) {
    g.truncate(space.len());
    for (x, gene) in g.iter_mut().zip(&space.genes) {
        *x = gene.repair_value(*x);
    }
}

/// The cache key of a repaired genome: the shortest exact decimal text of each value, joined by
/// commas (`"40,0.75"`); an inactive gene is `_` and an active gene of a rank group (see
/// [`Space::ranks`]) is `#` and its rank among the group's active genes. Two genomes have the
/// same key exactly when they are equal in what takes part in the fitness.
pub fn key(space: &Space, g: &[f64]) -> String {
    let n = space.len().min(g.len());
    let active = space.active(g);
    let mut text: Vec<String> =
        g[..n].iter().zip(&active).map(|(x, &a)| if a { format!("{x}") } else { "_".into() }).collect();
    for group in &space.ranks {
        let mut on: Vec<(usize, usize)> =
            group.iter().enumerate().filter(|&(_, &i)| i < n && active[i]).map(|(k, &i)| (k, i)).collect();
        on.sort_by(|a, b| g[a.1].total_cmp(&g[b.1]).then(a.0.cmp(&b.0)));
        for (rank, (_, i)) in on.into_iter().enumerate() {
            text[i] = format!("#{rank}");
        }
    }
    text.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mixed() -> Space {
        Space {
            genes: vec![
                Gene::Real { lo: 0.05, hi: 0.99, step: Some(0.01) },
                Gene::Int { lo: 5, hi: 300 },
                Gene::Cat { n: 3 },
                Gene::Bool,
                Gene::Real { lo: -1.0, hi: 1.0, step: None },
            ],
            correlated: vec![vec![0, 1]],
            conditions: vec![],
            ranks: vec![],
        }
    }

    fn repaired(g: &[f64]) -> String {
        let s = mixed();
        let mut g = g.to_vec();
        repair(&s, &mut g);
        key(&s, &g)
    }

    #[test]
    fn repair_clamps_rounds_and_snaps() {
        assert_eq!(repaired(&[0.1 + 0.2, 40.4, 1.6, 0.7, 0.123]), "0.3,40,2,1,0.123");
        assert_eq!(repaired(&[0.0, -7.0, -3.0, -0.2, -5.0]), "0.05,5,0,0,-1");
        assert_eq!(repaired(&[5.0, 1e9, 9.0, 3.0, 5.0]), "0.99,300,2,1,1");
        assert_eq!(repaired(&[f64::NAN, 40.5, -0.4, 0.2, -0.0]), "0.05,41,0,0,0");
        assert_eq!(repaired(&[0.754999, 40.0, 0.0, 0.0, 0.0]), "0.75,40,0,0,0");
    }

    #[test]
    fn snap_stays_below_an_off_grid_upper_bound() {
        let s = Space {
            genes: vec![Gene::Real { lo: 0.0, hi: 0.25, step: Some(0.1) }],
            correlated: vec![],
            conditions: vec![],
            ranks: vec![],
        };
        let mut g = vec![0.249];
        repair(&s, &mut g);
        assert_eq!(key(&s, &g), "0.2");
        let s = Space {
            genes: vec![Gene::Real { lo: 0.05, hi: 1.0, step: Some(0.1) }],
            correlated: vec![],
            conditions: vec![],
            ranks: vec![],
        };
        let mut g = vec![0.31];
        repair(&s, &mut g);
        assert_eq!(key(&s, &g), "0.35");
    }

    #[test]
    fn equal_after_repair_means_equal_key() {
        assert_eq!(repaired(&[0.3, 40.0, 2.0, 1.0, 0.5]), repaired(&[0.30000000000000004, 39.6, 2.2, 0.9, 0.5]));
        assert_ne!(repaired(&[0.3, 40.0, 2.0, 1.0, 0.5]), repaired(&[0.3, 40.0, 2.0, 1.0, 0.5000001]));
    }

    #[test]
    fn inactive_genes_do_not_change_the_key() {
        // Gene 1 counts only while gene 0 (a switch) is on; gene 2 never counts.
        let s = Space {
            genes: vec![Gene::Bool, Gene::Int { lo: 0, hi: 9 }, Gene::Int { lo: 0, hi: 9 }],
            correlated: vec![],
            conditions: vec![
                Condition { gene: 1, when: Some(0), values: vec![1.0], or: vec![] },
                Condition { gene: 2, when: None, values: vec![], or: vec![] },
            ],
            ranks: vec![],
        };
        assert_eq!(key(&s, &[0.0, 3.0, 4.0]), "0,_,_");
        assert_eq!(key(&s, &[0.0, 3.0, 4.0]), key(&s, &[0.0, 7.0, 1.0]));
        assert_eq!(key(&s, &[1.0, 3.0, 4.0]), "1,3,_");
        assert_ne!(key(&s, &[1.0, 3.0, 4.0]), key(&s, &[1.0, 7.0, 4.0]));
    }

    #[test]
    fn orders_that_form_the_same_pipeline_share_a_key() {
        // Genes 1..=3 are positions in a pipeline, active while gene 0 (serial) is on.
        let cond = |gene| Condition { gene, when: Some(0), values: vec![1.0], or: vec![] };
        let s = Space {
            genes: vec![Gene::Bool, Gene::Int { lo: 0, hi: 9 }, Gene::Int { lo: 0, hi: 9 }, Gene::Int { lo: 0, hi: 9 }],
            correlated: vec![],
            conditions: vec![cond(1), cond(2), cond(3)],
            ranks: vec![vec![1, 2, 3]],
        };
        assert_eq!(key(&s, &[1.0, 0.0, 3.0, 2.0]), "1,#0,#2,#1");
        assert_eq!(key(&s, &[1.0, 0.0, 3.0, 2.0]), key(&s, &[1.0, 4.0, 9.0, 5.0]));
        // Ties go to the earlier gene, as the pipeline sorts them.
        assert_eq!(key(&s, &[1.0, 2.0, 2.0, 0.0]), "1,#1,#2,#0");
        assert_ne!(key(&s, &[1.0, 0.0, 3.0, 2.0]), key(&s, &[1.0, 0.0, 2.0, 3.0]));
        assert_eq!(key(&s, &[0.0, 0.0, 3.0, 2.0]), "0,_,_,_");
    }

    #[test]
    fn validate_names_the_broken_rule() {
        assert!(mixed().validate().is_ok());
        let mut s = mixed();
        s.genes[0] = Gene::Real { lo: 0.9, hi: 0.1, step: None };
        assert_eq!(
            s.validate().unwrap_err().message,
            "gene 0: `lo <= hi` (both finite) must hold, but got lo=0.9, hi=0.1"
        );
        let mut s = mixed();
        s.correlated = vec![vec![0, 2]];
        assert_eq!(s.validate().unwrap_err().message, "correlated gene 2 is not real or integer");
        let mut s = mixed();
        s.correlated = vec![vec![0, 1], vec![1, 4]];
        assert_eq!(s.validate().unwrap_err().message, "gene 1 is in two correlated groups");
        assert!(Space::default().validate().is_err());
        assert!(mixed().check_len(&[1.0]).is_err());
    }
}
