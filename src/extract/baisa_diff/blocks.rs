//! Baisa's multi-file facts (`algorithms.md` §5b): the page's §3a blocks (runs of DOM text units
//! with one segment number) and the hash of each block's normalised text (whitespace collapsed,
//! lower case, every digit `0`), computed at parse time; and, once the loader has chosen the
//! page's reference pages (other pages of its package), per block the bit masks of the
//! references that hold it. An extractor then tests `popcount(mask & ((1 << k) - 1)) >= m`.
//!
//! [`FACT`] declares them: built from the DOM once the walk is over; a page's part for the
//! pages of its package is its block hashes, and the loader gives each page the hashes of its
//! references ([`Blocks::set_references`]).

use crate::document::facts::{Build, Fact, Order, Package, Shared};
use crate::document::{Document, Dom, Needs};
use std::sync::Arc;

/// `baisa_diff`'s fact: the page's blocks, and what its package's other pages hold of them.
pub static FACT: Fact = Fact {
    name: "blocks",
    reads: Needs::DOM,
    build: Build::After(|d| Arc::new(Blocks::of(&d.dom))),
    package: Some(Package { most: MAX_REFS, order: Order::Nearest, trainers: false, part, attach }),
};

/// A page's part for the pages that take it as a reference: its block hashes.
fn part(doc: &Document, _gold: &dyn std::any::Any, _arg: u32) -> Option<Shared> {
    Some(Arc::new(doc.facts.get::<Blocks>()?.hashes.clone()))
}

/// Gives a page with blocks the hashes of its references (best first).
fn attach(doc: &mut Document, refs: &[&Shared]) {
    let Some(blocks) = doc.facts.get::<Blocks>() else { return };
    let refs: Vec<&[u64]> = refs.iter().filter_map(|r| r.downcast_ref::<Vec<u64>>()).map(Vec::as_slice).collect();
    if refs.is_empty() {
        return;
    }
    let mut blocks = blocks.clone();
    blocks.set_references(&refs);
    doc.facts.insert(blocks);
}

/// Most reference pages per page (the width of the masks).
pub const MAX_REFS: usize = 10;

/// Cells of one LCS table above which diff mode matches a reference by set membership instead.
const MAX_LCS_CELLS: usize = 1 << 24;

/// A page's blocks, their text hashes and which reference pages hold them.
#[derive(Debug, Clone, Default)]
pub struct Blocks {
    /// Per DOM text unit, its block.
    pub of_unit: Vec<u32>,
    /// Per block, the FNV-1a hash of its normalised text.
    pub hashes: Vec<u64>,
    /// Per block, bit j: reference j holds a block with the same normalised text (set mode).
    pub in_ref: Vec<u16>,
    /// Per block, bit j: the LCS alignment of the page's and reference j's block sequences
    /// matches it (diff mode).
    pub matched: Vec<u16>,
    /// Number of reference pages the masks cover (0: none; the page has no masks).
    pub refs: u8,
}

/// FNV-1a over the normalised text of one unit, continuing from `h`.
fn hash_normalised(mut h: u64, text: &str) -> u64 {
    let mut eat = |b: u8| {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    let mut buf = [0u8; 4];
    for c in text.chars() {
        if c.is_whitespace() {
            eat(b' ');
        } else if c.is_numeric() {
            eat(b'0');
        } else {
            for l in c.to_lowercase() {
                l.encode_utf8(&mut buf).bytes().for_each(&mut eat);
            }
        }
    }
    h
}

impl Blocks {
    /// The blocks of a flattened page, with their hashes (no references yet).
    pub fn of(dom: &Dom) -> Blocks {
        let mut b = Blocks { of_unit: Vec::with_capacity(dom.info.len()), ..Blocks::default() };
        let mut prev = None;
        let mut h = 0u64;
        for (u, info) in dom.info.iter().enumerate() {
            if prev != Some(info.segment) {
                if prev.is_some() {
                    b.hashes.push(h);
                }
                prev = Some(info.segment);
                h = 0xcbf2_9ce4_8422_2325;
            } else {
                h = hash_normalised(h, " ");
            }
            h = hash_normalised(h, dom.texts.get(u));
            b.of_unit.push(b.hashes.len() as u32);
        }
        if prev.is_some() {
            b.hashes.push(h);
        }
        b
    }

    /// Sets the masks from the block hashes of the reference pages, in rank order (at most
    /// [`MAX_REFS`] are used): set mode marks a block held anywhere in reference j; diff mode
    /// marks the blocks the longest common subsequence of the two block sequences matches.
    pub fn set_references(&mut self, refs: &[&[u64]]) {
        let refs = &refs[..refs.len().min(MAX_REFS)];
        self.refs = refs.len() as u8;
        self.in_ref = vec![0; self.hashes.len()];
        self.matched = vec![0; self.hashes.len()];
        let mut sorted = Vec::new();
        let mut table = Vec::new();
        for (j, r) in refs.iter().enumerate() {
            let bit = 1u16 << j;
            sorted.clear();
            sorted.extend_from_slice(r);
            sorted.sort_unstable();
            for (b, h) in self.hashes.iter().enumerate() {
                if sorted.binary_search(h).is_ok() {
                    self.in_ref[b] |= bit;
                }
            }
            lcs_mark(&self.hashes, r, &self.in_ref, bit, &mut self.matched, &mut table);
        }
    }
}

/// Marks with `bit` in `matched` the blocks of `a` that an LCS alignment with `b` matches. Only
/// blocks held in `b` at all (`held & bit`) can be matched, so the table spans those alone; when
/// it would still exceed [`MAX_LCS_CELLS`], every held block counts as matched.
fn lcs_mark(a: &[u64], b: &[u64], held: &[u16], bit: u16, matched: &mut [u16], table: &mut Vec<u32>) {
    let ia: Vec<usize> = (0..a.len()).filter(|&i| held[i] & bit != 0).collect();
    if ia.is_empty() {
        return;
    }
    let mut sa: Vec<u64> = ia.iter().map(|&i| a[i]).collect();
    sa.sort_unstable();
    let sb: Vec<u64> = b.iter().copied().filter(|h| sa.binary_search(h).is_ok()).collect();
    let (n, m) = (ia.len(), sb.len());
    if (n + 1) * (m + 1) > MAX_LCS_CELLS {
        ia.iter().for_each(|&i| matched[i] |= bit);
        return;
    }
    // table[x * (m + 1) + y]: LCS length of the suffixes from x and y.
    table.clear();
    table.resize((n + 1) * (m + 1), 0);
    let w = m + 1;
    for x in (0..n).rev() {
        for y in (0..m).rev() {
            table[x * w + y] = if a[ia[x]] == sb[y] {
                table[(x + 1) * w + y + 1] + 1
            } else {
                table[(x + 1) * w + y].max(table[x * w + y + 1])
            };
        }
    }
    let (mut x, mut y) = (0, 0);
    while x < n && y < m {
        if a[ia[x]] == sb[y] {
            matched[ia[x]] |= bit;
            x += 1;
            y += 1;
        } else if table[(x + 1) * w + y] >= table[x * w + y + 1] {
            x += 1;
        } else {
            y += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(html: &str) -> Blocks {
        Blocks::of(&crate::document::parse::parse(html))
    }

    #[test]
    fn blocks_hash_normalised_text() {
        let a = blocks("<body><p>Posted  on 12 May</p><div>Home <a href=/>News</a></div><p>x</p></body>");
        let b = blocks("<body><div>HOME <b>news</b></div><p>posted on 03 May</p></body>");
        assert_eq!(a.hashes.len(), 3);
        assert_eq!(a.of_unit, [0, 1, 1, 2]);
        assert_eq!(a.hashes[0], b.hashes[1], "case, digits and whitespace are normalised");
        assert_eq!(a.hashes[1], b.hashes[0], "inline tags do not split a block");
        assert_ne!(a.hashes[2], b.hashes[0]);
        assert!(blocks("").hashes.is_empty());
    }

    #[test]
    fn set_mode_finds_blocks_anywhere_diff_mode_in_order() {
        let mut page = Blocks { hashes: vec![1, 2, 3, 4], ..Blocks::default() };
        page.set_references(&[&[3, 2, 9], &[4], &[]]);
        assert_eq!(page.refs, 3);
        assert_eq!(page.in_ref, [0, 0b001, 0b001, 0b010]);
        // The LCS of (1 2 3 4) and (3 2 9) has length 1: only one of 2 and 3 is matched.
        assert_eq!(page.matched.iter().filter(|m| **m & 1 != 0).count(), 1);
        assert_eq!(page.matched[3], 0b010);
        let many: Vec<&[u64]> = (0..12).map(|_| &[1u64][..]).collect();
        page.set_references(&many);
        assert_eq!((page.refs, page.in_ref[0]), (10, 0b11_1111_1111));
    }
}
