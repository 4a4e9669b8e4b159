//! The learned region decision (`regions: true`): where the content is, before what of it.
//!
//! A block judged alone cannot say "this list, not that one": the first stage scores every block,
//! then each of the page's candidate regions (the blocks under each candidate block's parent,
//! grandparent and great-grandparent block element, its heading section, each record group, and
//! the whole page) is described by what the first stage thinks of it and where it lies
//! ([`REGION`]), and a forest fitted on the gold scores it: its label is the region's own LCS F1
//! (the share of the gold's aligned words it holds against the share of its words the gold
//! holds, from the same alignment as the blocks' labels), so the region that covers most gold
//! words at the best precision scores highest. The best-scored region is the page's chosen
//! region; the second stage then reads, for each block, whether it lies inside it, how sure the
//! choice is, the best score of any region around the block and how far outside it lies
//! ([`BLOCK`]). The region forest is fitted out of fold like the second stage: a page's regions
//! are described in the first-stage scores of trees that did not see it, and the region scores
//! the second stage is fitted on come from region forests that did not see the page either.
//!
//! The candidates follow the field's region heuristics (readability's parent and grandparent
//! scores, the heading sections of service pages, the record groups of data-record mining: Liu,
//! Grossman & Zhai, *Mining Data Records in Web Pages*, KDD 2003); which one holds the content
//! is learned from the user's gold rather than written by hand.

use super::context::prefix_sums;
use crate::document::segments::{FEATURES, NO_GROUP, Segments};
use crate::extract::trees::{Forest, Hyper};
use std::collections::HashMap;

/// The features of a candidate region, in order.
pub const REGION: &[&str] = &[
    "reg_words",
    "reg_recall",
    "reg_precision",
    "reg_f1",
    "reg_f1_rank",
    "reg_f1_ratio",
    "reg_start",
    "reg_end",
    "reg_kind",
    "reg_blocks",
    "reg_max",
    "reg_max_ratio",
    "reg_links",
    "reg_grouped",
    "reg_main",
    "reg_headings",
    "reg_boiler",
    "reg_kept",
    "reg_h1",
];

/// Number of region features.
pub const N_REGION: usize = REGION.len();

/// The features the region decision adds to each block's second-stage row, after its context.
pub const BLOCK: &[&str] = &["reg_in", "reg_score", "reg_best", "reg_dist", "reg_size"];

/// Number of block features of the region decision.
pub const N_BLOCK: usize = BLOCK.len();

/// A region's kind (its feature `reg_kind`): around a block, a record group, or the page.
const KINDS: [f32; 6] = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0];

/// A page's candidate regions (first and last block, in order) and their features.
#[derive(Debug, Default)]
pub struct Regions {
    /// Each region's first and last block.
    pub spans: Vec<(u32, u32)>,
    /// Each region's features ([`REGION`]).
    pub rows: Vec<[f32; N_REGION]>,
}

/// The index of a block feature in the feature table.
fn feature(name: &str) -> usize {
    FEATURES.iter().position(|(n, _)| *n == name).unwrap_or(0)
}

/// Each of a page's `n` blocks' index among the candidate blocks `cand` (`None`: no candidate).
fn positions(n: usize, cand: &[u32]) -> Vec<Option<usize>> {
    let mut at = vec![None; n];
    cand.iter().enumerate().for_each(|(k, &b)| at[b as usize] = Some(k));
    at
}

/// Prefix sums over all blocks of `f(b)` for the candidate blocks (`at`, [`positions`]; 0 for
/// the others).
fn sums(at: &[Option<usize>], f: impl Fn(usize) -> f64) -> Vec<f64> {
    let mut v = vec![0.0; at.len() + 1];
    for (b, k) in at.iter().enumerate() {
        v[b + 1] = v[b] + if k.is_some() { f(b) } else { 0.0 };
    }
    v
}

/// The first and last block of each record group of a page.
fn group_spans(seg: &Segments) -> HashMap<u32, (u32, u32)> {
    let mut groups: HashMap<u32, (u32, u32)> = HashMap::new();
    for (b, &g) in seg.group.iter().enumerate() {
        if g != NO_GROUP {
            groups.entry(g).or_insert((b as u32, b as u32)).1 = b as u32;
        }
    }
    groups
}

/// The candidate regions of a page whose candidate blocks `cand` have first-stage probabilities
/// `p`, with their features.
pub fn regions(seg: &Segments, cand: &[u32], p: &[f64]) -> Regions {
    let n = seg.len();
    if n == 0 || cand.is_empty() {
        return Regions::default();
    }
    // The whole page: its own blocks, and the blocks of its structured data when they are
    // candidates (so that a page without them has the regions it had before they existed).
    let last = (seg.page_blocks.max(cand.last().map_or(0, |&b| b as usize + 1)).clamp(1, n) - 1) as u32;
    let mut kinds: HashMap<(u32, u32), usize> = HashMap::new();
    let mut add = |span: (u32, u32), kind: usize| {
        let span = (span.0.min(last), span.1.min(last));
        if span.0 <= span.1 {
            let k = kinds.entry(span).or_insert(kind);
            *k = (*k).min(kind);
        }
    };
    for &b in cand {
        for (kind, &span) in seg.around[b as usize].iter().enumerate() {
            add(span, kind);
        }
    }
    group_spans(seg).into_values().for_each(|span| add(span, 4));
    add((0, last), 5);
    let mut spans: Vec<((u32, u32), usize)> = kinds.into_iter().collect();
    spans.sort_unstable();

    let (w, pw) = prefix_sums(seg, cand, p, 1);
    let at = positions(n, cand);
    let words = |b: usize| f64::from(seg.words[b].max(1));
    let row = |b: usize| seg.row(b);
    let (links, main, head) = (feature("link_ratio"), [feature("in_main"), feature("in_article")], feature("tag_h"));
    let boiler = ["in_nav", "in_header", "in_footer", "in_aside", "in_form"].map(feature);
    let h1 = feature("h1_before");
    let lw = sums(&at, |b| words(b) * f64::from(row(b)[links]));
    let gw = sums(&at, |b| if seg.group[b] != NO_GROUP { words(b) } else { 0.0 });
    let mw = sums(&at, |b| if main.iter().any(|&i| row(b)[i] > 0.0) { words(b) } else { 0.0 });
    let hn = sums(&at, |b| if row(b)[head] > 0.0 { 1.0 } else { 0.0 });
    let bw = sums(&at, |b| if boiler.iter().any(|&i| row(b)[i] > 0.0) { words(b) } else { 0.0 });
    let hw = sums(&at, |b| if row(b)[h1] > 0.0 { words(b) } else { 0.0 });
    let kw = sums(&at, |b| if at[b].is_some_and(|k| p[k] >= 0.5) { words(b) } else { 0.0 });
    let cn = sums(&at, |_| 1.0);
    let most = RangeMax::new((0..n).map(|b| at[b].map_or(0.0, |k| p[k])).collect());
    let page_max = p.iter().copied().fold(0.0f64, f64::max);
    let (total, expected) = (w[n], pw[n]);
    let ratio = |a: f64, b: f64| if b > 0.0 { (a / b) as f32 } else { 0.0 };
    let mut rows: Vec<[f32; N_REGION]> = spans
        .iter()
        .map(|&((a, z), kind)| {
            let (a, z) = (a as usize, z as usize);
            let size = w[z + 1] - w[a];
            let inside = pw[z + 1] - pw[a];
            let max = most.max(a, z);
            let blocks = cn[z + 1] - cn[a];
            [
                ratio(size, total),
                ratio(inside, expected),
                ratio(inside, size),
                ratio(2.0 * inside, size + expected),
                0.0,
                0.0,
                ratio(w[a], total),
                ratio(w[z + 1], total),
                KINDS[kind],
                ((1.0 + blocks).ln() / 1000f64.ln()) as f32,
                max as f32,
                ratio(max, page_max),
                ratio(lw[z + 1] - lw[a], size),
                ratio(gw[z + 1] - gw[a], size),
                ratio(mw[z + 1] - mw[a], size),
                ((1.0 + hn[z + 1] - hn[a]).ln() / 100f64.ln()) as f32,
                ratio(bw[z + 1] - bw[a], size),
                ratio(kw[z + 1] - kw[a], size),
                ratio(hw[z + 1] - hw[a], size),
            ]
        })
        .collect();
    // Each region's expected F1 against the page's best, and its rank among the page's regions.
    let f1 = REGION.iter().position(|n| *n == "reg_f1").unwrap_or(3);
    let best = rows.iter().map(|r| r[f1]).fold(0.0f32, f32::max);
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&i, &j| rows[j][f1].total_cmp(&rows[i][f1]));
    let len = rows.len().max(2) as f32 - 1.0;
    for (rank, &i) in order.iter().enumerate() {
        rows[i][f1 + 1] = (rank as f32 / len).min(1.0);
        rows[i][f1 + 2] = if best > 0.0 { rows[i][f1] / best } else { 0.0 };
    }
    Regions { spans: spans.into_iter().map(|(s, _)| s).collect(), rows }
}

/// Each region's label: its F1 against the gold, from each block's evaluation tokens and the
/// tokens of them the alignment with the gold keeps (`kept`, per block of the page).
pub fn labels(spans: &[(u32, u32)], kept: &[(u32, u32)]) -> Vec<f32> {
    let n = kept.len();
    let (mut toks, mut hits) = (vec![0.0f64; n + 1], vec![0.0f64; n + 1]);
    for (b, &(t, h)) in kept.iter().enumerate() {
        toks[b + 1] = toks[b] + f64::from(t);
        hits[b + 1] = hits[b] + f64::from(h);
    }
    spans
        .iter()
        .map(|&(a, z)| {
            let (a, z) = (a as usize, (z as usize).min(n.saturating_sub(1)));
            if n == 0 || a > z {
                return 0.0;
            }
            let (t, h) = (toks[z + 1] - toks[a], hits[z + 1] - hits[a]);
            if h <= 0.0 { 0.0 } else { (2.0 * h / (t + hits[n])) as f32 }
        })
        .collect()
}

/// The region decision's features of each candidate block ([`BLOCK`]), given the page's regions
/// and their scores `q` (probabilities): the chosen region is the best-scored one.
pub fn block_features(seg: &Segments, cand: &[u32], r: &Regions, q: &[f64]) -> Vec<[f32; N_BLOCK]> {
    let n = seg.len();
    let Some(chosen) = (0..q.len()).max_by(|&i, &j| q[i].total_cmp(&q[j]).then(j.cmp(&i))) else {
        return vec![[0.0; N_BLOCK]; cand.len()];
    };
    let (a, z) = r.spans[chosen];
    let best = best_around(n, &r.spans, q);
    let w = sums(&positions(n, cand), |b| f64::from(seg.words[b].max(1)));
    let total = w[n].max(1.0);
    let size = ((w[z as usize + 1] - w[a as usize]) / total) as f32;
    cand.iter()
        .map(|&b| {
            let dist = if b < a {
                w[a as usize] - w[b as usize + 1]
            } else if b > z {
                w[b as usize] - w[z as usize + 1]
            } else {
                0.0
            };
            let inside = if (a..=z).contains(&b) { 1.0 } else { 0.0 };
            [inside, q[chosen] as f32, best[b as usize] as f32, (dist / total) as f32, size]
        })
        .collect()
}

/// The block features of the region decision of a page whose candidate blocks `cand` score
/// `raw` (log-odds) in the first stage, the regions scored by `forest`.
pub fn decide(seg: &Segments, cand: &[u32], raw: &[f64], forest: &Forest) -> Vec<[f32; N_BLOCK]> {
    let p: Vec<f64> = raw.iter().map(|z| sigmoid(*z)).collect();
    let r = regions(seg, cand, &p);
    let q: Vec<f64> = r.rows.iter().map(|x| sigmoid(forest.raw(x))).collect();
    block_features(seg, cand, &r, &q)
}

/// Each block's best score of the regions that hold it (0 for a block in none): the regions in
/// falling score paint the blocks no better one painted, each block once (a skip list of the
/// next unpainted block), so a page of deeply nested regions costs no more than a flat one.
fn best_around(n: usize, spans: &[(u32, u32)], q: &[f64]) -> Vec<f64> {
    let mut best = vec![0.0f64; n];
    let mut next: Vec<u32> = (0..=n as u32).collect();
    fn find(next: &mut [u32], b: u32) -> u32 {
        let mut root = b;
        while next[root as usize] != root {
            root = next[root as usize];
        }
        let mut at = b;
        while next[at as usize] != root {
            let up = next[at as usize];
            next[at as usize] = root;
            at = up;
        }
        root
    }
    let mut order: Vec<usize> = (0..spans.len()).collect();
    order.sort_by(|&i, &j| q[j].total_cmp(&q[i]));
    for i in order {
        let (s, e) = spans[i];
        let mut b = find(&mut next, s);
        while b <= e && (b as usize) < n {
            best[b as usize] = q[i];
            next[b as usize] = b + 1;
            b = find(&mut next, b + 1);
        }
    }
    best
}

/// The maximum of a slice over any range in constant time (a sparse table): a page's regions
/// nest, and summing over each one's blocks would cost the square of the page's blocks.
struct RangeMax {
    levels: Vec<Vec<f64>>,
}

impl RangeMax {
    fn new(x: Vec<f64>) -> RangeMax {
        let mut levels = vec![x];
        let mut width = 1;
        while 2 * width <= levels[0].len() {
            let prev = levels.last().map_or(&[][..], |v| v.as_slice());
            let next: Vec<f64> = (0..prev.len() - width).map(|i| prev[i].max(prev[i + width])).collect();
            levels.push(next);
            width *= 2;
        }
        RangeMax { levels }
    }

    /// The maximum over `a..=z` (`a <= z` inside the slice).
    fn max(&self, a: usize, z: usize) -> f64 {
        let k = (usize::BITS - 1 - (z - a + 1).leading_zeros()) as usize;
        self.levels[k][a].max(self.levels[k][z + 1 - (1 << k)])
    }
}

/// The logistic function.
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The region forest's hyperparameters, fixed: the blocks' genes are tuned for blocks, and a
/// sample holds tens of regions per page where it holds hundreds of blocks.
pub fn hyper() -> Hyper {
    Hyper { trees: 100, depth: 3, learning_rate: 0.1, min_leaf: 10, allowed: vec![true; N_REGION] }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers from a fixed linear congruential sequence.
    fn numbers(n: usize, seed: u64) -> Vec<f64> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (s >> 33) as f64 / f64::from(u32::MAX)
            })
            .collect()
    }

    #[test]
    fn the_range_maximum_and_the_best_region_around_each_block_are_the_plain_loops() {
        for n in [1usize, 2, 3, 7, 64, 100] {
            let x = numbers(n, n as u64);
            let most = RangeMax::new(x.clone());
            let spans: Vec<(u32, u32)> = (0..n)
                .flat_map(|a| (a..n).step_by(3).map(move |z| (a as u32, z as u32)))
                .filter(|(a, z)| (a + z) % 5 != 0)
                .collect();
            for &(a, z) in &spans {
                let plain = x[a as usize..=z as usize].iter().copied().fold(0.0, f64::max);
                assert_eq!(most.max(a as usize, z as usize).to_bits(), plain.to_bits(), "n {n}: {a}..={z}");
            }
            let q = numbers(spans.len(), 7);
            let mut plain = vec![0.0f64; n];
            for (&(a, z), &s) in spans.iter().zip(&q) {
                plain[a as usize..=z as usize].iter_mut().for_each(|b| *b = b.max(s));
            }
            assert_eq!(best_around(n, &spans, &q), plain, "n {n}");
        }
    }
}
