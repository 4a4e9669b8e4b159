//! Length of the longest common subsequence of two token sequences.
//!
//! The fast path is Hyyrö's bit-parallel LCS length (2004; after Allison & Dix 1986): the gold
//! sequence is indexed once into one match bit-vector per distinct token, and every extract token
//! costs at most ⌈|gold|/64⌉ word operations. A token's bit-vector is stored only over the blocks
//! from its first to its last occurrence: below them a step changes nothing, and above them it
//! only carries. Most tokens of a text occur once or in one stretch, so the index of a long gold
//! takes a few words per distinct token instead of ⌈|gold|/64⌉ (a fifth of a corpus's memory). [`lcs_naive`] is the textbook dynamic programme, kept as the
//! reference the property tests compare against.

/// A gold word sequence indexed for bit-parallel LCS: tokens are mapped to dense row numbers, and
/// each row holds the positions of that token in the gold as a bit-vector, over the blocks it
/// spans.
#[derive(Debug, Clone, Default)]
pub struct GoldIndex {
    len: usize,
    blocks: usize,
    rows: Vocab,
    /// Row `k`'s match words are `peq[starts[k]..starts[k + 1]]`, the blocks `first[k]..` of its
    /// bit-vector: bit `j` of block `first[k] + i` is set when gold token `64 * (first[k] + i) + j`
    /// has row `k`; the blocks outside hold no bit.
    peq: Vec<u64>,
    starts: Vec<u32>,
    first: Vec<u32>,
    /// How often each row's token occurs in the gold (for the bag-of-words measure).
    counts: Vec<u32>,
}

/// Marks a page token absent from the gold: it can never be part of the LCS.
pub const NO_ROW: u32 = u32::MAX;

impl GoldIndex {
    /// Indexes the gold token sequence.
    pub fn new<S: AsRef<str>>(gold: &[S]) -> Self {
        let len = gold.len();
        let blocks = len.div_ceil(64);
        let mut rows = Vocab::default();
        let ids: Vec<u32> = gold.iter().map(|t| rows.intern(t.as_ref())).collect();
        rows.shrink();
        let n = rows.len();
        let (mut first, mut last) = (vec![u32::MAX; n], vec![0u32; n]);
        let mut counts = vec![0u32; n];
        for (j, &id) in ids.iter().enumerate() {
            let (k, b) = (id as usize, (j / 64) as u32);
            first[k] = first[k].min(b);
            last[k] = b;
            counts[k] += 1;
        }
        let mut starts = Vec::with_capacity(n + 1);
        starts.push(0u32);
        for k in 0..n {
            starts.push(starts[k] + last[k] - first[k] + 1);
        }
        let mut peq = vec![0u64; starts[n] as usize];
        for (j, &id) in ids.iter().enumerate() {
            let k = id as usize;
            peq[(starts[k] + (j / 64) as u32 - first[k]) as usize] |= 1u64 << (j % 64);
        }
        GoldIndex { len, blocks, rows, peq, starts, first, counts }
    }

    /// One extract token's step over the gold's bit-vector `v`, with row `row`'s match words.
    #[inline]
    fn step(&self, v: &mut [u64], row: u32) {
        let k = row as usize;
        let m = &self.peq[self.starts[k] as usize..self.starts[k + 1] as usize];
        step(&mut v[self.first[k] as usize..], m);
    }

    /// Number of gold tokens.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the gold has no tokens.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Occurrences in the gold of each distinct token, by row.
    pub fn counts(&self) -> &[u32] {
        &self.counts
    }

    /// Size of the multiset intersection of the gold and an extract given as row numbers
    /// ([`NO_ROW`] entries are skipped). `scratch` is reused between calls.
    pub fn common_rows(&self, extract: &[u32], scratch: &mut Vec<u32>) -> usize {
        scratch.clear();
        scratch.resize(self.counts.len(), 0);
        let mut n = 0;
        for &row in extract {
            if let Some(c) = scratch.get_mut(row as usize) {
                *c += 1;
                if *c <= self.counts[row as usize] {
                    n += 1;
                }
            }
        }
        n
    }

    /// The row of `token`, or [`NO_ROW`] if the gold does not contain it.
    pub fn row(&self, token: &str) -> u32 {
        self.rows.get(token).unwrap_or(NO_ROW)
    }

    /// LCS length between the gold and an extract given as row numbers ([`NO_ROW`] entries are
    /// skipped: a token absent from the gold leaves the bit-vector unchanged). `scratch` is reused
    /// between calls to avoid allocation.
    pub fn lcs_rows(&self, extract: &[u32], scratch: &mut Vec<u64>) -> usize {
        if self.len == 0 {
            return 0;
        }
        scratch.clear();
        scratch.resize(self.blocks, !0u64);
        let v = scratch.as_mut_slice();
        for &row in extract {
            if row == NO_ROW {
                continue;
            }
            self.step(v, row);
        }
        // Mask off the unused high bits of the last block before counting zeros.
        let mut zeros = 0usize;
        for (i, &vb) in v.iter().enumerate() {
            let bits = if i + 1 == self.blocks && !self.len.is_multiple_of(64) { self.len % 64 } else { 64 };
            let mask = if bits == 64 { !0u64 } else { (1u64 << bits) - 1 };
            zeros += ((!vb) & mask).count_ones() as usize;
        }
        zeros
    }

    /// One longest common subsequence itself: which extract tokens (given as row numbers) it
    /// pairs with a gold token. The bit-vector after each extract token is kept, so that
    /// LCS(extract[..i], gold[..j]) is the number of zero bits of vector i below bit j, and the
    /// usual trace back walks from the end (O(n·|gold|/64) memory, about 1 MB for a 10,000-token
    /// page against a 800-token gold).
    pub fn matched_rows(&self, extract: &[u32]) -> Vec<bool> {
        let mut matched = vec![false; extract.len()];
        if self.len == 0 {
            return matched;
        }
        let b = self.blocks;
        // Snapshots only after tokens that occur in the gold; others never match.
        let mut snaps: Vec<u64> = vec![!0u64; b];
        let mut at: Vec<usize> = Vec::new(); // extract index of each snapshot after the first
        let mut v = vec![!0u64; b];
        for (i, &row) in extract.iter().enumerate() {
            if row == NO_ROW {
                continue;
            }
            self.step(&mut v, row);
            snaps.extend_from_slice(&v);
            at.push(i);
        }
        // zeros(k, j): LCS of the extract up to snapshot k with gold[..j].
        let zeros = |k: usize, j: usize| -> usize {
            let s = &snaps[k * b..(k + 1) * b];
            let mut n = 0;
            for (w, &vb) in s.iter().enumerate() {
                let lo = w * 64;
                if lo >= j {
                    break;
                }
                let bits = (j - lo).min(64);
                let mask = if bits == 64 { !0u64 } else { (1u64 << bits) - 1 };
                n += ((!vb) & mask).count_ones() as usize;
            }
            n
        };
        let (mut k, mut j) = (at.len(), self.len);
        while k > 0 && j > 0 {
            let here = zeros(k, j);
            if here == zeros(k - 1, j) {
                k -= 1;
                continue;
            }
            while j > 1 && zeros(k, j - 1) == here {
                j -= 1;
            }
            matched[at[k - 1]] = true;
            k -= 1;
            j -= 1;
        }
        matched
    }

    /// LCS length between the gold and an extract given as tokens.
    pub fn lcs<S: AsRef<str>>(&self, extract: &[S]) -> usize {
        let rows: Vec<u32> = extract.iter().map(|t| self.row(t.as_ref())).collect();
        self.lcs_rows(&rows, &mut Vec::new())
    }
}

/// The distinct tokens of a gold, numbered in order of first occurrence: their text in one
/// buffer and an open-addressing table of their numbers. A `HashMap<String, u32>` took about 70
/// bytes a token (a table slot and a heap string each); this takes about 20, and a corpus holds
/// one per page for the whole run.
#[derive(Debug, Clone, Default)]
struct Vocab {
    text: String,
    /// Token `k` is `text[ends[k - 1]..ends[k]]` (from 0 for the first).
    ends: Vec<u32>,
    /// Token number + 1 per slot (0: empty); the length is zero or a power of two.
    slots: Vec<u32>,
}

impl Vocab {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn token(&self, k: usize) -> &str {
        let start = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        &self.text[start..self.ends[k] as usize]
    }

    /// FNV-1a: fast on short tokens, and the same on every run.
    fn hash(t: &str) -> usize {
        t.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)) as usize
    }

    /// The slot of `t`: where it is, or the empty slot where it would go.
    fn slot(&self, t: &str) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = Self::hash(t) & mask;
        loop {
            match self.slots[i] {
                0 => return i,
                k if self.token(k as usize - 1) == t => return i,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// The number of `t`, or `None` when it is not a token of the gold.
    fn get(&self, t: &str) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        self.slots[self.slot(t)].checked_sub(1)
    }

    /// The number of `t`, numbering it next when it is new.
    fn intern(&mut self, t: &str) -> u32 {
        if (self.len() + 1) * 4 > self.slots.len() * 3 {
            self.slots = vec![0; (self.slots.len() * 2).max(16)];
            for k in 0..self.len() {
                let i = self.slot(self.token(k));
                self.slots[i] = k as u32 + 1;
            }
        }
        let i = self.slot(t);
        if self.slots[i] == 0 {
            self.text.push_str(t);
            self.ends.push(self.text.len() as u32);
            self.slots[i] = self.len() as u32;
        }
        self.slots[i] - 1
    }

    fn shrink(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

/// The textbook O(|a|·|b|) dynamic programme in two rows. Reference for tests and benchmarks.
pub fn lcs_naive<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let mut prev = vec![0usize; b.len() + 1];
    let mut cur = vec![0usize; b.len() + 1];
    for x in a {
        for (j, y) in b.iter().enumerate() {
            cur[j + 1] = if x == y { prev[j] + 1 } else { prev[j + 1].max(cur[j]) };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// One extract token's step of Hyyrö's bit-parallel LCS over the gold's bit-vector `v`, with
/// `m` the token's match mask: the multi-word addition with carry V' = (V + (V & M)) | (V & !M).
/// `v` starts at the mask's first block (a block below it, with no match bit and no carry in,
/// is unchanged) and `m` ends at its last: above it the mask is zero, so a block becomes
/// `V + carry | V`, and once the carry dies the rest is unchanged.
#[inline]
fn step(v: &mut [u64], m: &[u64]) {
    let mut carry = 0u64;
    for (vb, &mb) in v.iter_mut().zip(m) {
        let u = *vb & mb;
        let (s1, c1) = vb.overflowing_add(u);
        let (s2, c2) = s1.overflowing_add(carry);
        carry = (c1 | c2) as u64;
        *vb = s2 | (*vb & !mb);
    }
    for vb in v.iter_mut().skip(m.len()) {
        if carry == 0 {
            break;
        }
        let (s, c) = vb.overflowing_add(1);
        *vb |= s;
        carry = c as u64;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_matched_tokens_form_a_longest_common_subsequence() {
        let mut x = 12345u64;
        let mut next = |k: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % k
        };
        for round in 0..200 {
            let (n, m) = (next(150) as usize, next(140) as usize + 1);
            let vocab = 2 + round % 6;
            let a: Vec<String> = (0..n).map(|_| format!("w{}", next(vocab))).collect();
            let g: Vec<String> = (0..m).map(|_| format!("w{}", next(vocab))).collect();
            let idx = GoldIndex::new(&g);
            let rows: Vec<u32> = a.iter().map(|t| idx.row(t)).collect();
            let matched = idx.matched_rows(&rows);
            let kept: Vec<&String> = a.iter().zip(&matched).filter(|(_, k)| **k).map(|(t, _)| t).collect();
            let gold: Vec<&String> = g.iter().collect();
            assert_eq!(kept.len(), lcs_naive(&a, &g), "round {round}");
            // The kept tokens are a subsequence of the gold.
            assert_eq!(lcs_naive(&kept, &gold), kept.len(), "round {round}");
        }
    }

    use super::*;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    fn w(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn gottron_worked_example() {
        let gold = w("title some text in the body");
        let extract = w("title copyright some text in");
        assert_eq!(GoldIndex::new(&gold).lcs(&extract), 4);
        assert_eq!(lcs_naive(&gold, &extract), 4);
    }

    #[test]
    fn common_rows_is_the_multiset_intersection() {
        let gold = GoldIndex::new(&w("the cat sat on the mat"));
        let rows: Vec<u32> = w("the the the cat ran").iter().map(|t| gold.row(t)).collect();
        assert_eq!(gold.common_rows(&rows, &mut Vec::new()), 3);
        assert_eq!(gold.counts(), [2, 1, 1, 1, 1]);
    }

    #[test]
    fn empty_sides() {
        let empty: Vec<&str> = vec![];
        assert_eq!(GoldIndex::new(&empty).lcs(&w("a b")), 0);
        assert_eq!(GoldIndex::new(&w("a b")).lcs(&empty), 0);
    }

    #[test]
    fn bit_parallel_equals_naive_on_random_sequences() {
        let mut rng = StdRng::seed_from_u64(7);
        for case in 0..400 {
            let alphabet = 1 + case % 12;
            let n = rng.random_range(0..300);
            let m = rng.random_range(0..300);
            let a: Vec<String> = (0..n).map(|_| rng.random_range(0..alphabet).to_string()).collect();
            let b: Vec<String> = (0..m).map(|_| rng.random_range(0..alphabet).to_string()).collect();
            assert_eq!(GoldIndex::new(&a).lcs(&b), lcs_naive(&a, &b), "case {case}: n={n} m={m}");
        }
    }

    #[test]
    fn long_sequences_cross_many_blocks() {
        let mut rng = StdRng::seed_from_u64(11);
        let a: Vec<u32> = (0..3000).map(|_| rng.random_range(0..50)).collect();
        let b: Vec<u32> = (0..2500).map(|_| rng.random_range(0..50)).collect();
        let sa: Vec<String> = a.iter().map(|x| x.to_string()).collect();
        let sb: Vec<String> = b.iter().map(|x| x.to_string()).collect();
        assert_eq!(GoldIndex::new(&sa).lcs(&sb), lcs_naive(&a, &b));
    }

    /// Text-like sequences: a few common tokens everywhere, most tokens in one stretch, so the
    /// rows span from one block to all of them and the carries run past a row's last block.
    #[test]
    fn rows_that_span_a_few_blocks_give_the_naive_lcs() {
        let mut rng = StdRng::seed_from_u64(5);
        let text = |n: usize, rng: &mut StdRng| -> Vec<String> {
            (0..n)
                .map(|j| match rng.random_range(0..10) {
                    0..4 => format!("c{}", rng.random_range(0..6)),
                    _ => format!("r{}-{}", (j + rng.random_range(0..90)) / 70, rng.random_range(0..4)),
                })
                .collect()
        };
        for case in 0..30 {
            let gold = text(rng.random_range(1..1500), &mut rng);
            // The extract: the gold's text with stretches dropped, repeated and changed.
            let mut extract = Vec::new();
            let mut j = 0;
            while j < gold.len() {
                let k = (j + rng.random_range(1..200)).min(gold.len());
                match rng.random_range(0..4) {
                    0 => {}
                    1 => extract.extend(text(k - j, &mut rng)),
                    _ => extract.extend_from_slice(&gold[j..k]),
                }
                j = k;
            }
            let idx = GoldIndex::new(&gold);
            assert_eq!(idx.lcs(&extract), lcs_naive(&gold, &extract), "case {case}");
            let rows: Vec<u32> = extract.iter().map(|t| idx.row(t)).collect();
            let kept = idx.matched_rows(&rows).iter().filter(|k| **k).count();
            assert_eq!(kept, lcs_naive(&gold, &extract), "case {case}");
        }
    }

    #[test]
    fn tokens_are_numbered_in_order_of_first_occurrence_and_found_again() {
        let gold: Vec<String> = (0..5000).map(|i| format!("t{}", (i * 7919) % 1300)).collect();
        let idx = GoldIndex::new(&gold);
        let mut first: Vec<&str> = Vec::new();
        for t in &gold {
            if !first.contains(&t.as_str()) {
                first.push(t);
            }
        }
        assert_eq!(idx.counts().len(), first.len());
        for (k, t) in first.iter().enumerate() {
            assert_eq!(idx.row(t), k as u32, "{t}");
        }
        for absent in ["", "t", "t1300", "T1", "t12 "] {
            assert_eq!(idx.row(absent), NO_ROW, "{absent:?}");
        }
        assert_eq!(GoldIndex::new::<&str>(&[]).row("a"), NO_ROW);
        assert_eq!(GoldIndex::new(&["", "a"]).row(""), 0);
    }
}
