//! Gradient-boosted regression trees for block scores, written out in full (about 200 lines) so
//! that a fit is small, deterministic and needs no ML runtime: logistic loss on soft labels (the
//! share of a block's words in the gold), Newton leaf values with L2 regularisation, trees
//! grown level by level to a fixed depth over features cut into at most [`BINS`] quantile bins
//! (the histogram method of LightGBM and scikit-learn's `HistGradientBoosting`). There is no
//! sampling, so a fit is a function of its rows alone: the same rows give the same model on any
//! number of threads.
//!
//! Friedman, *Greedy Function Approximation: A Gradient Boosting Machine*, Annals of
//! Statistics 29(5), 2001; Chen & Guestrin, *XGBoost*, KDD 2016 (second-order split gain).

/// Most bins per feature.
pub const BINS: usize = 32;

/// L2 regularisation of leaf values (XGBoost's lambda).
const LAMBDA: f64 = 1.0;

/// Least summed hessian a child may hold (XGBoost's `min_child_weight`).
const MIN_HESSIAN: f64 = 1e-3;

/// Training rows: `n` blocks of `f` features, a label in [0, 1] and a weight each.
#[derive(Debug, Clone, Default)]
pub struct Rows {
    /// Features per row.
    pub f: usize,
    /// Row-major features.
    pub x: Vec<f32>,
    /// Labels in [0, 1].
    pub y: Vec<f32>,
    /// Weights (> 0).
    pub w: Vec<f32>,
}

impl Rows {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.y.len()
    }
    /// True without rows.
    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }
}

/// The hyperparameters of a fit.
#[derive(Debug, Clone, PartialEq)]
pub struct Hyper {
    /// Number of trees.
    pub trees: usize,
    /// Depth of every tree (levels of splits).
    pub depth: usize,
    /// Shrinkage of each tree's leaf values.
    pub learning_rate: f64,
    /// Least rows in a leaf.
    pub min_leaf: usize,
    /// Which features may be split on.
    pub allowed: Vec<bool>,
}

/// One node: a split (`x[feature] <= threshold` goes left) or a leaf.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Node {
    /// A split and the indices of its children.
    Split {
        /// The feature tested.
        feature: u16,
        /// Rows with the feature at most this go left.
        threshold: f32,
        /// Index of the left child (in the same tree).
        left: u32,
        /// Index of the right child.
        right: u32,
    },
    /// A leaf and its value (added to the raw score).
    Leaf(f32),
}

/// A fitted ensemble: raw score = `base` + the leaf value of every tree.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Forest {
    /// The starting raw score (log-odds of the weighted mean label).
    pub base: f32,
    /// The trees, each as nodes with the root first.
    pub trees: Vec<Vec<Node>>,
    /// Total split gain per feature (what the model uses most).
    pub gain: Vec<f64>,
}

impl Forest {
    /// The raw score (log-odds) of a feature row.
    pub fn raw(&self, x: &[f32]) -> f64 {
        f64::from(self.base) + self.trees.iter().map(|t| leaf_of(t, x)).sum::<f64>()
    }
}

/// The leaf value a row reaches in one tree (0 for a malformed tree: a file is checked when it
/// is read, so this is only a guard).
fn leaf_of(t: &[Node], x: &[f32]) -> f64 {
    let mut i = 0usize;
    for _ in 0..=t.len() {
        match t.get(i) {
            Some(Node::Split { feature, threshold, left, right }) => {
                let v = x.get(*feature as usize).copied().unwrap_or(0.0);
                i = if v <= *threshold { *left as usize } else { *right as usize };
            }
            Some(Node::Leaf(v)) => return f64::from(*v),
            None => return 0.0,
        }
    }
    0.0
}

/// The cut points of one feature: `x <= edges[b]` is bin `b` or lower.
fn edges(col: &mut [f32]) -> Vec<f32> {
    col.sort_by(f32::total_cmp);
    let mut uniq: Vec<f32> = Vec::new();
    for &v in col.iter() {
        if uniq.last() != Some(&v) {
            uniq.push(v);
        }
    }
    if uniq.len() <= BINS {
        return uniq.windows(2).map(|w| w[0] + (w[1] - w[0]) / 2.0).collect();
    }
    let mut e: Vec<f32> = (1..BINS).map(|k| col[k * col.len() / BINS]).collect();
    e.dedup();
    // The largest value as an edge would leave its bin's right side empty.
    e.retain(|&v| v < uniq[uniq.len() - 1]);
    e
}

/// Fits a forest on `rows` (an empty forest at log-odds 0 without rows).
pub fn fit(rows: &Rows, h: &Hyper) -> Forest {
    let (n, f) = (rows.len(), rows.f);
    let mut forest = Forest { gain: vec![0.0; f], ..Forest::default() };
    if n == 0 {
        return forest;
    }
    let cuts: Vec<Vec<f32>> = (0..f)
        .map(|j| {
            let mut col: Vec<f32> = (0..n).map(|i| rows.x[i * f + j]).collect();
            edges(&mut col)
        })
        .collect();
    let bins: Vec<u8> =
        (0..n * f).map(|k| cuts[k % f].partition_point(|&e| e < rows.x[k]).min(BINS - 1) as u8).collect();
    let wsum: f64 = rows.w.iter().map(|&w| f64::from(w)).sum();
    let mean = rows.y.iter().zip(&rows.w).map(|(&y, &w)| f64::from(y) * f64::from(w)).sum::<f64>() / wsum.max(1e-12);
    let mean = mean.clamp(1e-4, 1.0 - 1e-4);
    forest.base = (mean / (1.0 - mean)).ln() as f32;
    let mut raw = vec![f64::from(forest.base); n];
    let (mut g, mut hs) = (vec![0.0f64; n], vec![0.0f64; n]);
    for _ in 0..h.trees {
        for i in 0..n {
            let p = 1.0 / (1.0 + (-raw[i]).exp());
            let w = f64::from(rows.w[i]);
            g[i] = w * (p - f64::from(rows.y[i]));
            hs[i] = w * (p * (1.0 - p)).max(1e-6);
        }
        let tree = grow(&bins, f, &cuts, &g, &hs, h, &mut forest.gain);
        for (i, r) in raw.iter_mut().enumerate() {
            *r += leaf_of(&tree, &rows.x[i * f..(i + 1) * f]);
        }
        forest.trees.push(tree);
    }
    forest
}

/// The best split of a node's rows: (gain, feature, bin).
fn best_split(rows: &[u32], bins: &[u8], f: usize, g: &[f64], hs: &[f64], h: &Hyper) -> Option<(f64, usize, usize)> {
    let (gt, ht): (f64, f64) =
        rows.iter().map(|&i| (g[i as usize], hs[i as usize])).fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    let parent = gt * gt / (ht + LAMBDA);
    let mut best: Option<(f64, usize, usize)> = None;
    let allowed: Vec<usize> = (0..f).filter(|&j| h.allowed.get(j).copied().unwrap_or(false)).collect();
    // Every histogram in one pass over the rows (each row's bins are contiguous).
    let mut hist = vec![(0.0f64, 0.0f64, 0usize); f * BINS];
    for &i in rows {
        let (gi, hi) = (g[i as usize], hs[i as usize]);
        let row = &bins[i as usize * f..(i as usize + 1) * f];
        for &j in &allowed {
            let c = &mut hist[j * BINS + row[j] as usize];
            c.0 += gi;
            c.1 += hi;
            c.2 += 1;
        }
    }
    for &j in &allowed {
        let (mut gl, mut hl, mut nl) = (0.0, 0.0, 0usize);
        for (b, c) in hist[j * BINS..(j + 1) * BINS].iter().enumerate().take(BINS - 1) {
            gl += c.0;
            hl += c.1;
            nl += c.2;
            let (gr, hr, nr) = (gt - gl, ht - hl, rows.len() - nl);
            if nl < h.min_leaf || nr < h.min_leaf || hl < MIN_HESSIAN || hr < MIN_HESSIAN {
                continue;
            }
            let gain = gl * gl / (hl + LAMBDA) + gr * gr / (hr + LAMBDA) - parent;
            if gain > 1e-9 && best.is_none_or(|(bg, _, _)| gain > bg) {
                best = Some((gain, j, b));
            }
        }
    }
    best
}

/// Grows one tree level by level on the gradients `g` and hessians `hs`.
fn grow(bins: &[u8], f: usize, cuts: &[Vec<f32>], g: &[f64], hs: &[f64], h: &Hyper, gain: &mut [f64]) -> Vec<Node> {
    let n = g.len();
    let mut nodes = vec![Node::Leaf(0.0)];
    let mut frontier: Vec<(usize, Vec<u32>)> = vec![(0, (0..n as u32).collect())];
    for level in 0..=h.depth {
        let mut next = Vec::new();
        for (at, rows) in frontier {
            let split = if level < h.depth && rows.len() >= 2 * h.min_leaf {
                best_split(&rows, bins, f, g, hs, h)
            } else {
                None
            };
            match split {
                Some((gn, j, b)) => {
                    gain[j] += gn;
                    let (l, r): (Vec<u32>, Vec<u32>) =
                        rows.iter().partition(|&&i| bins[i as usize * f + j] as usize <= b);
                    let (li, ri) = (nodes.len(), nodes.len() + 1);
                    nodes.push(Node::Leaf(0.0));
                    nodes.push(Node::Leaf(0.0));
                    nodes[at] =
                        Node::Split { feature: j as u16, threshold: cuts[j][b], left: li as u32, right: ri as u32 };
                    next.push((li, l));
                    next.push((ri, r));
                }
                None => {
                    let (gs, hsum) = rows.iter().fold((0.0, 0.0), |a, &i| (a.0 + g[i as usize], a.1 + hs[i as usize]));
                    nodes[at] = Node::Leaf((-gs / (hsum + LAMBDA) * h.learning_rate) as f32);
                }
            }
        }
        frontier = next;
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hyper(f: usize) -> Hyper {
        Hyper { trees: 40, depth: 2, learning_rate: 0.3, min_leaf: 2, allowed: vec![true; f] }
    }

    /// Label 1 exactly when x0 > 0.5 and x1 < 0.5 (an interaction no linear score holds);
    /// x2 is noise.
    fn xor_like(n: usize) -> Rows {
        let mut r = Rows { f: 3, ..Rows::default() };
        let mut s = 12345u64;
        let mut next = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 40) as f32 / (1u64 << 24) as f32
        };
        for _ in 0..n {
            let (a, b, c) = (next(), next(), next());
            r.x.extend([a, b, c]);
            r.y.push(if a > 0.5 && b < 0.5 { 1.0 } else { 0.0 });
            r.w.push(1.0);
        }
        r
    }

    #[test]
    fn the_trees_learn_an_interaction_and_ignore_noise() {
        let rows = xor_like(2000);
        let m = fit(&rows, &hyper(3));
        let p = |x: [f32; 3]| 1.0 / (1.0 + (-m.raw(&x)).exp());
        assert!(p([0.9, 0.1, 0.5]) > 0.9, "{}", p([0.9, 0.1, 0.5]));
        assert!(p([0.9, 0.9, 0.5]) < 0.1 && p([0.1, 0.1, 0.5]) < 0.1);
        assert!(m.gain[2] < 0.01 * m.gain[0], "{:?}", m.gain);
        // The same rows give the same model.
        assert_eq!(fit(&rows, &hyper(3)), m);
    }

    #[test]
    fn a_feature_that_may_not_be_split_on_is_never_used() {
        let rows = xor_like(500);
        let mut h = hyper(3);
        h.allowed[0] = false;
        let m = fit(&rows, &h);
        assert!(m.gain[0].abs() < 1e-300);
        assert!(m.trees.iter().flatten().all(|n| !matches!(n, Node::Split { feature: 0, .. })));
    }

    #[test]
    fn no_rows_give_an_even_forest() {
        let m = fit(&Rows { f: 2, ..Rows::default() }, &hyper(2));
        assert!(m.trees.is_empty() && m.raw(&[1.0, 2.0]).abs() < 1e-12);
    }
}
