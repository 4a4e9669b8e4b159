//! A page's memo: outputs computed on the page that several extractors reuse (a combination's
//! member outputs, a route's branch outputs), kept on the page itself and bounded in bytes.
//!
//! A search scores thousands of settings that share most of their members: a member whose
//! setting did not change gives the same output on the same page, so the second individual
//! takes it from here. The memo lives and dies with its page (no process-wide cache, no page
//! ids), and its bound is the page's share of the search's budget (`--member-cache-mb` over the
//! corpus's pages, [`Memo::set_limit`]). Imports from the crate: nothing.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A page's bound when nobody sets one: a page extracted alone (a combination's members, a
/// route's branch run once each) fits in far less.
pub const DEFAULT_LIMIT: usize = 8 << 20;

/// The outputs of one page by key, least recently used first out.
#[derive(Debug)]
pub struct Memo {
    lru: Mutex<Lru>,
    limit: AtomicUsize,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl Default for Memo {
    fn default() -> Self {
        Memo::with_limit(DEFAULT_LIMIT)
    }
}

/// A copy of a page starts with an empty memo of the same bound (outputs are recomputed).
impl Clone for Memo {
    fn clone(&self) -> Self {
        Memo::with_limit(self.limit())
    }
}

/// A cached output and the tick of its last use.
type Entry = (Arc<Vec<f32>>, u64);

#[derive(Debug, Default)]
struct Lru {
    map: HashMap<u64, Entry>,
    bytes: usize,
    tick: u64,
}

impl Memo {
    /// An empty memo bounded by `limit` bytes (0: keeps nothing).
    pub fn with_limit(limit: usize) -> Memo {
        Memo {
            lru: Mutex::default(),
            limit: AtomicUsize::new(limit),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// Sets the bound in bytes (0 turns the memo off); outputs beyond it go at the next insert.
    pub fn set_limit(&self, bytes: usize) {
        self.limit.store(bytes, Ordering::Relaxed);
    }

    /// The bound in bytes.
    pub fn limit(&self) -> usize {
        self.limit.load(Ordering::Relaxed)
    }

    /// Hits and misses since the page was parsed.
    pub fn stats(&self) -> (u64, u64) {
        (self.hits.load(Ordering::Relaxed), self.misses.load(Ordering::Relaxed))
    }

    /// The output under `key`, computed by `compute` (outside the lock) when it is not kept.
    pub fn get_or(&self, key: u64, compute: impl FnOnce() -> Vec<f32>) -> Arc<Vec<f32>> {
        match self.try_get_or(key, || Ok::<_, std::convert::Infallible>(compute())) {
            Ok(v) => v,
            Err(never) => match never {},
        }
    }

    /// [`Memo::get_or`] for a computation that can fail: a failure is passed on and not kept
    /// (the page is asked again).
    pub fn try_get_or<E>(&self, key: u64, compute: impl FnOnce() -> Result<Vec<f32>, E>) -> Result<Arc<Vec<f32>>, E> {
        let limit = self.limit();
        if limit == 0 {
            return compute().map(Arc::new);
        }
        {
            let mut lru = self.lru.lock().unwrap_or_else(|e| e.into_inner());
            lru.tick += 1;
            let tick = lru.tick;
            if let Some((v, t)) = lru.map.get_mut(&key) {
                *t = tick;
                self.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(v.clone());
            }
        }
        self.misses.fetch_add(1, Ordering::Relaxed);
        let v = Arc::new(compute()?);
        self.lru.lock().unwrap_or_else(|e| e.into_inner()).insert(key, v.clone(), limit);
        Ok(v)
    }
}

impl Lru {
    /// The bytes an output is counted for.
    fn size(v: &[f32]) -> usize {
        v.len() * 4 + 64
    }

    /// Adds an output, then keeps the memo within `limit` bytes.
    fn insert(&mut self, key: u64, v: Arc<Vec<f32>>, limit: usize) {
        let size = Lru::size(&v);
        if let Some((old, _)) = self.map.insert(key, (v, self.tick)) {
            self.bytes -= Lru::size(&old);
        }
        self.bytes += size;
        while self.bytes > limit && !self.map.is_empty() {
            // Evict the least recently used half (amortised: one sort per many insertions).
            let mut ticks: Vec<u64> = self.map.values().map(|(_, t)| *t).collect();
            ticks.sort_unstable();
            let cut = ticks[ticks.len() / 2];
            self.map.retain(|_, (_, t)| *t > cut);
            self.bytes = self.map.values().map(|(v, _)| Lru::size(v)).sum();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memo_keeps_its_bound_and_the_recent_outputs() {
        let limit = 10_000;
        let mut lru = Lru::default();
        for i in 0..1_000u64 {
            lru.tick += 1;
            let v = Arc::new(vec![0.5f32; (i % 97) as usize]);
            lru.insert(i, v, limit);
            assert!(lru.bytes <= limit, "{} bytes after {i}", lru.bytes);
            assert_eq!(lru.bytes, lru.map.values().map(|(v, _)| Lru::size(v)).sum::<usize>());
            assert!(lru.map.contains_key(&i) || Lru::size(&vec![0.0; (i % 97) as usize]) > limit / 2);
        }
        assert!(lru.map.len() > 10, "the bound keeps many outputs: {}", lru.map.len());
    }

    #[test]
    fn a_kept_output_is_a_hit_and_an_off_memo_keeps_nothing() {
        let m = Memo::default();
        let a = m.get_or(7, || vec![1.0, 0.0]);
        let b = m.get_or(7, || unreachable!("kept"));
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(m.stats(), (1, 1));
        m.set_limit(0);
        let mut ran = 0;
        m.get_or(8, || {
            ran += 1;
            vec![]
        });
        m.get_or(8, || {
            ran += 1;
            vec![]
        });
        assert_eq!(ran, 2);
        // A failure is passed on and not kept.
        m.set_limit(DEFAULT_LIMIT);
        assert_eq!(m.try_get_or(9, || Err("worker down")), Err("worker down"));
        assert_eq!(*m.try_get_or::<&str>(9, || Ok(vec![2.0])).unwrap(), vec![2.0]);
        m.set_limit(0);
        // A copy of the page starts empty with the same bound.
        assert_eq!(m.clone().stats(), (0, 0));
        assert_eq!(m.clone().limit(), 0);
    }
}
