//! The effort measure: on a gold set whose gold texts are known, how many block toggles the
//! annotator leaves to the user after a pre-fill. A page's gold blocks are those of
//! [`super::gold_blocks`]; its *toggles* are the blocks with words whose pre-filled state differs
//! from their gold state (one key press each), its *range toggles* the maximal runs of such
//! blocks (blocks without words in between do not break a run: toggling them changes no word).

use super::{Block, blocks, gold_blocks_indexed, prefill};
use crate::eval::lcs::GoldIndex;
use crate::eval::words::for_each_token;
use crate::extract::Extractor;
use crate::goldset::GoldSet;
use rayon::prelude::*;

/// The effort of one page under one pre-fill.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PageEffort {
    /// Blocks shown.
    pub blocks: usize,
    /// Blocks with at least one word.
    pub word_blocks: usize,
    /// Blocks with words in the gold state.
    pub gold_blocks: usize,
    /// Single toggles from the pre-fill to the gold blocks.
    pub toggles: usize,
    /// Range toggles (runs of blocks to flip).
    pub runs: usize,
    /// LCS F1 of the gold blocks' text against the gold text: the best a block selection can do.
    pub ceiling_f1: f64,
}

/// Toggles and runs between two block states (blocks without words ignored).
pub fn toggles(blocks: &[Block], from: &[bool], to: &[bool]) -> (usize, usize) {
    let (mut t, mut runs, mut in_run) = (0, 0, false);
    for ((b, f), g) in blocks.iter().zip(from).zip(to) {
        if b.tokens == 0 {
            continue;
        }
        if f != g {
            t += 1;
            runs += usize::from(!in_run);
            in_run = true;
        } else {
            in_run = false;
        }
    }
    (t, runs)
}

/// The effort of every readable document of `set` under each pre-fill: `result[e][d]`, with the
/// documents' `package/id` (pages that cannot be read are warned about and left out).
pub fn measure(
    set: &GoldSet,
    prefills: &[&dyn Extractor],
    tick: &(dyn Fn() + Sync),
) -> (Vec<String>, Vec<Vec<PageEffort>>) {
    // The blocks and the pre-fills' masks read the DOM and its word map.
    let needs = prefills.iter().fold(crate::document::Needs::WORDS, |n, e| n | e.needs());
    let rows: Vec<Option<(String, Vec<PageEffort>)>> = set
        .docs
        .par_iter()
        .map(|d| {
            let entry = crate::objective::prepare(set, d, needs);
            tick();
            let doc = entry.doc.as_ref()?;
            let b = blocks(doc);
            let index: &GoldIndex = &entry.gold;
            let gold = gold_blocks_indexed(&b, index, set.token_rule);
            // The ceiling: the gold blocks' tokens against the gold.
            let mut rows = Vec::new();
            for (bl, _) in b.iter().zip(&gold).filter(|(_, g)| **g) {
                for_each_token(&bl.text, set.token_rule, |t| rows.push(index.row(t)));
            }
            let lcs = index.lcs_rows(&rows, &mut Vec::new());
            let ceiling_f1 = crate::eval::score::prf(lcs, rows.len(), index.len()).f1;
            let word_blocks = b.iter().filter(|x| x.tokens > 0).count();
            let gold_blocks = b.iter().zip(&gold).filter(|(x, g)| x.tokens > 0 && **g).count();
            let per = prefills
                .iter()
                .map(|ex| {
                    let pre = crate::error::isolate(|| prefill(doc, &b, *ex))
                        .ok()
                        .and_then(|r| r.ok())
                        .unwrap_or_else(|| vec![false; b.len()]);
                    let (t, runs) = toggles(&b, &pre, &gold);
                    PageEffort { blocks: b.len(), word_blocks, gold_blocks, toggles: t, runs, ceiling_f1 }
                })
                .collect();
            Some((format!("{}/{}", set.packages[d.package], d.id), per))
        })
        .collect();
    let mut ids = Vec::new();
    let mut out = vec![Vec::new(); prefills.len()];
    for (id, per) in rows.into_iter().flatten() {
        ids.push(id);
        for (o, p) in out.iter_mut().zip(per) {
            o.push(p);
        }
    }
    (ids, out)
}

/// The median of some counts (the mean of the two middle ones for an even number; 0 when empty).
pub fn median(xs: &[usize]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_unstable();
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2] as f64,
        n => (v[n / 2 - 1] + v[n / 2]) as f64 / 2.0,
    }
}

/// The mean of some counts (0 when empty).
pub fn mean(xs: &[usize]) -> f64 {
    if xs.is_empty() { 0.0 } else { xs.iter().sum::<usize>() as f64 / xs.len() as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(tokens: u32) -> Block {
        Block { text: String::new(), first: 0, end: 0, tokens }
    }

    #[test]
    fn toggles_count_differing_blocks_with_words_and_runs_skip_empty_blocks() {
        let b = [block(3), block(0), block(2), block(5), block(1), block(4)];
        let from = [true, false, true, true, false, false];
        let to = [false, true, false, true, true, true];
        // Blocks 0, 2 differ (block 1 has no words: not counted, does not break the run); 4, 5 differ.
        assert_eq!(toggles(&b, &from, &to), (4, 2));
        assert_eq!(toggles(&b, &to, &to), (0, 0));
        assert!((median(&[5, 1, 3]) - 3.0).abs() < 1e-12);
        assert!((median(&[4, 1, 3, 2]) - 2.5).abs() < 1e-12);
        assert!((mean(&[1, 2]) - 1.5).abs() < 1e-12);
    }
}
