//! Gradient-boosted regression trees, the learner of every model cetune fits on gold (the
//! supervised block family's block scores, a route's confidence judge, the page-F1 estimate),
//! written out in full (about 200 lines) so that a fit is small, deterministic and needs no ML
//! runtime: logistic loss on soft labels (for blocks, the share of a block's words in the gold), Newton leaf values with L2 regularisation, trees
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

    /// This forest's trees followed by `more` (trees boosted on from this forest's scores,
    /// from base 0): one forest that scores a row as the two together, so a model adapted from
    /// another needs nothing of it at extraction time.
    pub fn then(&self, more: &Forest) -> Forest {
        let mut gain = self.gain.clone();
        gain.resize(gain.len().max(more.gain.len()), 0.0);
        more.gain.iter().enumerate().for_each(|(j, g)| gain[j] += g);
        let trees = self.trees.iter().chain(&more.trees).cloned().collect();
        Forest { base: self.base + more.base, trees, gain }
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

/// Feature rows cut into bins, once for every fit on them: `bins[i * f + j]` is the bin of row
/// `i`'s feature `j`, and a row's bin is at most `b` exactly when its value is at most
/// `cuts[j][b]` (so a tree grown on bins routes raw values the same way).
#[derive(Debug, Clone, Default)]
pub struct Binned {
    /// Features per row.
    pub f: usize,
    /// Per feature, the cut points.
    pub cuts: Vec<Vec<f32>>,
    /// Row-major bins.
    pub bins: Vec<u8>,
}

impl Binned {
    /// Bins `x` (`f` features per row) at the quantiles of its own rows.
    pub fn new(x: &[f32], f: usize) -> Binned {
        Binned::of_rows(&[x.len() / f.max(1)], f, |_, i, j| x[i * f + j])
    }

    /// Bins rows held in parts, `sizes[p]` rows in part `p`, feature `j` of row `i` of part `p`
    /// being `get(p, i, j)`, as [`Binned::new`] bins them laid out one after the other, without
    /// laying them out (a sample's raw features are four times its bins).
    pub fn of_rows(sizes: &[usize], f: usize, get: impl Fn(usize, usize, usize) -> f32 + Sync) -> Binned {
        use rayon::prelude::*;
        let n: usize = sizes.iter().sum();
        let cuts: Vec<Vec<f32>> = (0..f)
            .into_par_iter()
            .map(|j| {
                let mut col: Vec<f32> = Vec::with_capacity(n);
                for (p, &m) in sizes.iter().enumerate() {
                    col.extend((0..m).map(|i| get(p, i, j)));
                }
                edges(&mut col)
            })
            .collect();
        let mut bins = Vec::with_capacity(n * f);
        for (p, &m) in sizes.iter().enumerate() {
            for i in 0..m {
                bins.extend(cuts.iter().enumerate().map(|(j, c)| {
                    let v = get(p, i, j);
                    c.partition_point(|&e| e < v).min(BINS - 1) as u8
                }));
            }
        }
        Binned { f, cuts, bins }
    }

    fn row(&self, i: u32) -> &[u8] {
        &self.bins[i as usize * self.f..(i as usize + 1) * self.f]
    }
}

/// A boosting in progress: its trees so far, which can be cut to fewer trees or grown to more.
/// Tree `k` depends only on the trees before it, so cutting a boosting of 200 trees to 80 gives
/// exactly the boosting of 80, and growing it on gives exactly a fresh boosting of more (the
/// fit cache of `objective/fit.rs` keeps one boosting per setting that differs only in `trees`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Boosted {
    /// The starting raw score.
    pub base: f32,
    /// The trees.
    pub trees: Vec<Vec<Node>>,
    /// Per tree, per node, the bin of a split (0 for a leaf): how the tree routes binned rows.
    bins: Vec<Vec<u8>>,
    /// Per tree, the feature and gain of each split.
    splits: Vec<Vec<(u16, f64)>>,
}

impl Boosted {
    /// The forest of the first `trees` trees, with the split gain per feature of those trees.
    pub fn forest(&self, trees: usize, f: usize) -> Forest {
        let k = trees.min(self.trees.len());
        let mut gain = vec![0.0; f];
        for (j, g) in self.splits[..k].iter().flatten() {
            gain[*j as usize] += g;
        }
        Forest { base: self.base, trees: self.trees[..k].to_vec(), gain }
    }
}

/// Fits a forest on `rows` (an empty forest at log-odds 0 without rows).
pub fn fit(rows: &Rows, h: &Hyper) -> Forest {
    let data = Binned::new(&rows.x, rows.f);
    let all: Vec<u32> = (0..rows.len() as u32).collect();
    boost(&data, &all, &rows.y, &rows.w, h, None, None).forest(h.trees, rows.f)
}

/// Boosts `h.trees` trees on the rows `sel` of `data` (labels `y`, weights `w`, indexed like
/// `data`'s rows), continuing `from` (a boosting of the same rows and hyperparameters with fewer
/// trees) when given. With `init` (a raw score per row of `data`: another model's), the trees
/// are fitted to what that model gets wrong, from base 0: the other model's trees followed by
/// these score a row as `init` plus these.
pub fn boost(
    data: &Binned,
    sel: &[u32],
    y: &[f32],
    w: &[f32],
    h: &Hyper,
    from: Option<&Boosted>,
    init: Option<&[f64]>,
) -> Boosted {
    let f = data.f;
    let mut out = from.cloned().unwrap_or_default();
    if sel.is_empty() {
        return out;
    }
    if from.is_none() && init.is_none() {
        let wsum: f64 = sel.iter().map(|&i| f64::from(w[i as usize])).sum();
        let mean =
            sel.iter().map(|&i| f64::from(y[i as usize]) * f64::from(w[i as usize])).sum::<f64>() / wsum.max(1e-12);
        let mean = mean.clamp(1e-4, 1.0 - 1e-4);
        out.base = (mean / (1.0 - mean)).ln() as f32;
    }
    // The raw score of each row: the same sums in the same order as a fresh boosting.
    let mut raw: Vec<f64> = match init {
        Some(init) => sel.iter().map(|&i| init[i as usize] + f64::from(out.base)).collect(),
        None => vec![f64::from(out.base); sel.len()],
    };
    for (t, b) in out.trees.iter().zip(&out.bins) {
        for (r, &i) in raw.iter_mut().zip(sel) {
            *r += binned_leaf(t, b, data.row(i));
        }
    }
    let allowed: Vec<usize> = (0..f).filter(|&j| h.allowed.get(j).copied().unwrap_or(false)).collect();
    let (mut g, mut hs) = (vec![0.0f64; sel.len()], vec![0.0f64; sel.len()]);
    while out.trees.len() < h.trees {
        for (k, &i) in sel.iter().enumerate() {
            let p = 1.0 / (1.0 + (-raw[k]).exp());
            let wi = f64::from(w[i as usize]);
            g[k] = wi * (p - f64::from(y[i as usize]));
            hs[k] = wi * (p * (1.0 - p)).max(1e-6);
        }
        let grown = Grower { data, sel, g: &g, hs: &hs, h, allowed: &allowed }.grow();
        for (leaf, rows) in &grown.leaves {
            if let Node::Leaf(v) = grown.nodes[*leaf] {
                rows.iter().for_each(|&k| raw[k as usize] += f64::from(v));
            }
        }
        out.trees.push(grown.nodes);
        out.bins.push(grown.bins);
        out.splits.push(grown.splits);
    }
    out
}

/// The leaf value a binned row reaches in one tree.
fn binned_leaf(t: &[Node], bins: &[u8], row: &[u8]) -> f64 {
    let mut i = 0usize;
    for _ in 0..=t.len() {
        match t.get(i) {
            Some(Node::Split { feature, left, right, .. }) => {
                i = if row[*feature as usize] <= bins[i] { *left as usize } else { *right as usize };
            }
            Some(Node::Leaf(v)) => return f64::from(*v),
            None => return 0.0,
        }
    }
    0.0
}

/// Gradient and hessian sums per feature and bin, and the rows in each bin.
#[derive(Clone)]
struct Hist {
    gh: Vec<[f64; 2]>,
    n: Vec<u32>,
}

/// One tree's growth on the rows `sel` (positions into `g` and `hs`).
struct Grower<'a> {
    data: &'a Binned,
    sel: &'a [u32],
    g: &'a [f64],
    hs: &'a [f64],
    h: &'a Hyper,
    allowed: &'a [usize],
}

/// A grown tree: nodes, split bins, split gains, and the rows (positions) of each leaf.
struct Grown {
    nodes: Vec<Node>,
    bins: Vec<u8>,
    splits: Vec<(u16, f64)>,
    leaves: Vec<(usize, Vec<u32>)>,
}

/// A node waiting to be split or made a leaf.
struct Open {
    at: usize,
    rows: Vec<u32>,
    hist: Option<Hist>,
}

impl Grower<'_> {
    /// The histograms of the rows (positions) `rows`.
    fn hist(&self, rows: &[u32]) -> Hist {
        let f = self.data.f;
        let mut hist = Hist { gh: vec![[0.0; 2]; f * BINS], n: vec![0; f * BINS] };
        for &k in rows {
            let (gk, hk) = (self.g[k as usize], self.hs[k as usize]);
            let row = self.data.row(self.sel[k as usize]);
            for &j in self.allowed {
                let c = j * BINS + row[j] as usize;
                hist.gh[c][0] += gk;
                hist.gh[c][1] += hk;
                hist.n[c] += 1;
            }
        }
        hist
    }

    /// The summed gradient and hessian of `rows`.
    fn sums(&self, rows: &[u32]) -> (f64, f64) {
        rows.iter().fold((0.0, 0.0), |a, &k| (a.0 + self.g[k as usize], a.1 + self.hs[k as usize]))
    }

    /// The best split of a node from its histograms: (gain, feature, bin).
    fn best(&self, hist: &Hist, rows: usize, (gt, ht): (f64, f64)) -> Option<(f64, usize, usize)> {
        let parent = gt * gt / (ht + LAMBDA);
        let mut best: Option<(f64, usize, usize)> = None;
        for &j in self.allowed {
            let (mut gl, mut hl, mut nl) = (0.0, 0.0, 0usize);
            for b in 0..BINS - 1 {
                let c = j * BINS + b;
                gl += hist.gh[c][0];
                hl += hist.gh[c][1];
                nl += hist.n[c] as usize;
                let (gr, hr, nr) = (gt - gl, ht - hl, rows - nl);
                if nl < self.h.min_leaf || nr < self.h.min_leaf || hl < MIN_HESSIAN || hr < MIN_HESSIAN {
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

    /// Grows the tree level by level; a node's histograms come from its parent's minus its
    /// sibling's when the sibling is the smaller (LightGBM's subtraction), so each level scans at
    /// most half the rows.
    fn grow(&self) -> Grown {
        let h = self.h;
        let mut t = Grown { nodes: vec![Node::Leaf(0.0)], bins: vec![0], splits: Vec::new(), leaves: Vec::new() };
        let splittable = |level: usize, n: usize| level < h.depth && n >= 2 * h.min_leaf && n >= 2;
        let root: Vec<u32> = (0..self.sel.len() as u32).collect();
        let mut frontier = vec![Open { at: 0, rows: root, hist: None }];
        for level in 0..=h.depth {
            let mut next = Vec::new();
            for node in frontier {
                let sums = self.sums(&node.rows);
                let split = if splittable(level, node.rows.len()) {
                    let hist = node.hist.unwrap_or_else(|| self.hist(&node.rows));
                    self.best(&hist, node.rows.len(), sums).map(|s| (s, hist))
                } else {
                    None
                };
                let Some(((gain, j, b), hist)) = split else {
                    t.nodes[node.at] = Node::Leaf((-sums.0 / (sums.1 + LAMBDA) * h.learning_rate) as f32);
                    t.leaves.push((node.at, node.rows));
                    continue;
                };
                t.splits.push((j as u16, gain));
                let (l, r): (Vec<u32>, Vec<u32>) =
                    node.rows.iter().partition(|&&k| self.data.row(self.sel[k as usize])[j] as usize <= b);
                let (li, ri) = (t.nodes.len(), t.nodes.len() + 1);
                t.nodes.extend([Node::Leaf(0.0), Node::Leaf(0.0)]);
                t.bins.extend([0, 0]);
                t.nodes[node.at] = Node::Split {
                    feature: j as u16,
                    threshold: self.data.cuts[j][b],
                    left: li as u32,
                    right: ri as u32,
                };
                t.bins[node.at] = b as u8;
                let (need_l, need_r) = (splittable(level + 1, l.len()), splittable(level + 1, r.len()));
                let (hl, hr) = if !need_l && !need_r {
                    (None, None)
                } else if l.len() <= r.len() {
                    let hl = self.hist(&l);
                    let hr = need_r.then(|| minus(&hist, &hl));
                    (need_l.then_some(hl), hr)
                } else {
                    let hr = self.hist(&r);
                    let hl = need_l.then(|| minus(&hist, &hr));
                    (hl, need_r.then_some(hr))
                };
                next.push(Open { at: li, rows: l, hist: hl });
                next.push(Open { at: ri, rows: r, hist: hr });
            }
            frontier = next;
        }
        t
    }
}

/// The histograms of a node's other child: the parent's minus one child's.
fn minus(parent: &Hist, child: &Hist) -> Hist {
    Hist {
        gh: parent.gh.iter().zip(&child.gh).map(|(p, c)| [p[0] - c[0], p[1] - c[1]]).collect(),
        n: parent.n.iter().zip(&child.n).map(|(p, c)| p - c).collect(),
    }
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

    /// `start: general`: trees boosted on from another model's scores learn what it gets wrong,
    /// and that model's trees followed by them score a row as the two together.
    #[test]
    fn trees_boosted_on_from_another_models_scores_fix_its_errors_and_chain_into_one_forest() {
        let rows = xor_like(1500);
        // A start model that learned only half of the rule (x0 > 0.5).
        let mut half = rows.clone();
        half.y = half.x.chunks(3).map(|x| if x[0] > 0.5 { 1.0 } else { 0.0 }).collect();
        let start = fit(&half, &hyper(3));
        let data = Binned::new(&rows.x, 3);
        let all: Vec<u32> = (0..rows.len() as u32).collect();
        let init: Vec<f64> = rows.x.chunks(3).map(|x| start.raw(x)).collect();
        let more = boost(&data, &all, &rows.y, &rows.w, &hyper(3), None, Some(&init)).forest(30, 3);
        assert!(more.base.abs() < f32::EPSILON, "the start's base is in its scores");
        let both = start.then(&more);
        assert_eq!(both.trees.len(), start.trees.len() + more.trees.len());
        for x in rows.x.chunks(3).take(50) {
            assert!((both.raw(x) - (start.raw(x) + more.raw(x))).abs() < 1e-4);
        }
        let p = |m: &Forest, x: [f32; 3]| 1.0 / (1.0 + (-m.raw(&x)).exp());
        assert!(p(&start, [0.9, 0.9, 0.5]) > 0.5, "the start keeps x0 > 0.5 whatever x1 is");
        assert!(p(&both, [0.9, 0.9, 0.5]) < 0.2, "{}", p(&both, [0.9, 0.9, 0.5]));
        assert!(p(&both, [0.9, 0.1, 0.5]) > 0.8, "{}", p(&both, [0.9, 0.1, 0.5]));
    }

    #[test]
    fn a_boosting_cut_or_grown_on_is_the_fresh_boosting_of_that_many_trees() {
        let rows = xor_like(800);
        let data = Binned::new(&rows.x, 3);
        let all: Vec<u32> = (0..800).collect();
        let h = |trees| Hyper { trees, ..hyper(3) };
        let short = boost(&data, &all, &rows.y, &rows.w, &h(10), None, None);
        let long = boost(&data, &all, &rows.y, &rows.w, &h(30), None, None);
        assert_eq!(boost(&data, &all, &rows.y, &rows.w, &h(30), Some(&short), None), long);
        assert_eq!(long.forest(10, 3), short.forest(10, 3));
        assert_eq!(long.forest(30, 3), fit(&rows, &h(30)));
        // Binned rows route as their raw values do.
        let f = long.forest(30, 3);
        for (k, &i) in all.iter().enumerate().step_by(7) {
            let x = &rows.x[k * 3..k * 3 + 3];
            let via_bins: f64 = f64::from(long.base)
                + long.trees.iter().zip(&long.bins).map(|(t, b)| binned_leaf(t, b, data.row(i))).sum::<f64>();
            assert_eq!(f.raw(x).to_bits(), via_bins.to_bits());
        }
    }

    #[test]
    fn no_rows_give_an_even_forest() {
        let m = fit(&Rows { f: 2, ..Rows::default() }, &hyper(2));
        assert!(m.trees.is_empty() && m.raw(&[1.0, 2.0]).abs() < 1e-12);
    }

    #[test]
    fn rows_binned_in_parts_are_the_rows_binned_whole() {
        let rows = xor_like(900);
        let whole = Binned::new(&rows.x, 3);
        let (a, b) = rows.x.split_at(3 * 250);
        let (b, c) = b.split_at(3 * 400);
        let parts: [&[f32]; 4] = [a, &[], b, c];
        let sizes: Vec<usize> = parts.iter().map(|p| p.len() / 3).collect();
        let binned = Binned::of_rows(&sizes, 3, |p, i, j| parts[p][i * 3 + j]);
        assert_eq!((binned.cuts, binned.bins), (whole.cuts, whole.bins));
    }
}
