//! The second stage of a stacked model (`stack: true`): each candidate block's first-stage
//! probability read in its context (its neighbours, the blocks of its parent, grandparent and
//! great-grandparent block elements and of its heading section, and the page as a whole), so
//! that the second forest can keep a middling block inside a region the first stage is sure of,
//! or drop one on a page where everything looks like content (Tu, *Auto-context and its
//! application to high-level vision tasks*, CVPR 2008; Wolpert, *Stacked generalization*, Neural
//! Networks 5(2), 1992). Means are weighted by the blocks' words.

use crate::document::segments::Segments;

/// The context features, in the order they follow the block's own features in a second-stage row.
pub const CONTEXT: &[&str] = &[
    "ctx_self",
    "ctx_prev",
    "ctx_next",
    "ctx_parent",
    "ctx_grand",
    "ctx_great",
    "ctx_section",
    "ctx_page",
    "ctx_kept",
    "ctx_max",
    "ctx_rank",
];

/// Number of context features.
pub const N_CONTEXT: usize = CONTEXT.len();

/// Prefix sums over all of a page's blocks of the candidates' words (at least `min_words` each)
/// and of those words times the candidate's probability `p` (a block that is no candidate
/// weighing 0): entry `b` sums the blocks before `b`, so `[a, z]` sums as `s[z + 1] - s[a]`.
pub fn prefix_sums(seg: &Segments, cand: &[u32], p: &[f64], min_words: u32) -> (Vec<f64>, Vec<f64>) {
    let n = seg.len();
    let (mut w, mut pw) = (vec![0.0f64; n + 1], vec![0.0f64; n + 1]);
    let mut at = vec![None; n];
    for (k, &b) in cand.iter().enumerate() {
        at[b as usize] = Some(k);
    }
    for b in 0..n {
        let (x, px) = match at[b] {
            Some(k) => (f64::from(seg.words[b].max(min_words)), f64::from(seg.words[b].max(min_words)) * p[k]),
            None => (0.0, 0.0),
        };
        w[b + 1] = w[b] + x;
        pw[b + 1] = pw[b] + px;
    }
    (w, pw)
}

/// The context features of the candidate blocks `cand` (block indices, in order) whose
/// first-stage raw scores (log-odds) are `raw`.
pub fn context(seg: &Segments, cand: &[u32], raw: &[f64]) -> Vec<[f32; N_CONTEXT]> {
    let n = seg.len();
    let p: Vec<f64> = raw.iter().map(|z| 1.0 / (1.0 + (-z).exp())).collect();
    let (cw, cpw) = prefix_sums(seg, cand, &p, 1);
    let mean = |(a, z): (u32, u32)| {
        let (a, z) = (a as usize, (z as usize + 1).min(n));
        let w = cw[z] - cw[a.min(z)];
        if w > 0.0 { ((cpw[z] - cpw[a.min(z)]) / w) as f32 } else { 0.0 }
    };
    let total = cw[n];
    let page = if total > 0.0 { (cpw[n] / total) as f32 } else { 0.0 };
    let kept: f64 =
        cand.iter().zip(&p).filter(|(_, p)| **p >= 0.5).map(|(&b, _)| f64::from(seg.words[b as usize].max(1))).sum();
    let max = p.iter().copied().fold(0.0f64, f64::max) as f32;
    // Words of the blocks scored above each block: sort once.
    let mut order: Vec<usize> = (0..cand.len()).collect();
    order.sort_by(|&a, &b| p[b].total_cmp(&p[a]));
    let mut above = vec![0.0f64; cand.len()];
    let mut acc = 0.0;
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j < order.len() && p[order[j]].total_cmp(&p[order[i]]).is_eq() {
            j += 1;
        }
        for &k in &order[i..j] {
            above[k] = acc;
        }
        for &k in &order[i..j] {
            acc += f64::from(seg.words[cand[k] as usize].max(1));
        }
        i = j;
    }
    let share = |x: f64| if total > 0.0 { (x / total) as f32 } else { 0.0 };
    (0..cand.len())
        .map(|k| {
            let around = seg.around[cand[k] as usize];
            [
                p[k] as f32,
                if k > 0 { p[k - 1] as f32 } else { 0.0 },
                p.get(k + 1).map_or(0.0, |x| *x as f32),
                mean(around[0]),
                mean(around[1]),
                mean(around[2]),
                mean(around[3]),
                page,
                share(kept),
                max,
                share(above[k]),
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blocks_context_reads_its_regions_scores() {
        let (_, seg, _) = crate::document::parse::parse_full(
            "<body><nav><p>a b</p><p>c d</p></nav><article><p>one two three four</p><p>five six</p></article></body>",
            None,
        );
        let cand: Vec<u32> = (0..seg.len() as u32).collect();
        // The navigation is scored out (log-odds -4), the article in (+4).
        let c = context(&seg, &cand, &[-4.0, -4.0, 4.0, 4.0]);
        let lo = 1.0 / (1.0 + 4f32.exp());
        let hi = 1.0 - lo;
        assert!((c[2][0] - hi).abs() < 1e-6 && (c[2][1] - lo).abs() < 1e-6 && (c[1][2] - hi).abs() < 1e-6);
        // The parent of a navigation paragraph holds only navigation.
        assert!((c[0][3] - lo).abs() < 1e-6 && (c[3][3] - hi).abs() < 1e-6, "{c:?}");
        // Page mean by words: 4 words out, 6 in; kept share 0.6; the article's words rank first.
        assert!((c[0][7] - (4.0 * lo + 6.0 * hi) / 10.0).abs() < 1e-5);
        assert!((c[0][8] - 0.6).abs() < 1e-6 && (c[2][10]).abs() < 1e-9 && (c[0][10] - 0.6).abs() < 1e-6);
    }
}
