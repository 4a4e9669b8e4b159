//! The ordered, bounded parallel map behind `extract` over collections: one thread reads items,
//! the run's worker threads ([`Workers`]) work on them, and the calling thread writes the results, in input order through
//! a reorder buffer or as they finish. At most `window` items are in flight (read but not yet
//! written), so memory is bounded by the window, never by the number of items; in order, a slow
//! item holds the reader back by at most `window` items.

use crate::error::Result;
use crate::objective::Workers;
use rayon::iter::{ParallelBridge, ParallelIterator};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Condvar, Mutex};

/// How many items have been written, and whether the writer gave up; the reader waits on it.
struct Gate {
    written: Mutex<(u64, bool)>,
    moved: Condvar,
}

impl Gate {
    /// Waits until item `seq` may be read: fewer than `window` items in flight. False when the
    /// writer has given up.
    fn wait_for(&self, seq: u64, window: u64) -> bool {
        let Ok(mut g) = self.written.lock() else { return false };
        while !g.1 && seq >= g.0 + window {
            g = match self.moved.wait(g) {
                Ok(g) => g,
                Err(_) => return false,
            };
        }
        !g.1
    }
    fn advance(&self, written: u64, gave_up: bool) {
        if let Ok(mut g) = self.written.lock() {
            *g = (written, gave_up || g.1);
        }
        self.moved.notify_all();
    }
}

/// Maps `work` over `items` in parallel and hands the results to `write` on the calling thread,
/// in item order when `ordered`, else as they finish. Stops reading when `stop` is set (the items
/// in flight are still written, so the output is complete up to the last item written) or when
/// `write` fails, whose error is returned.
pub fn map_ordered<I, T, R, W, F>(
    items: I,
    workers: &Workers,
    window: usize,
    ordered: bool,
    stop: &AtomicBool,
    work: W,
    mut write: F,
) -> Result<()>
where
    I: Iterator<Item = T> + Send,
    T: Send,
    R: Send,
    W: Fn(T) -> R + Sync,
    F: FnMut(R) -> Result<()>,
{
    let window = window.max(1) as u64;
    let gate = Gate { written: Mutex::new((0, false)), moved: Condvar::new() };
    let (in_tx, in_rx) = sync_channel::<(u64, T)>(workers.threads() * 2);
    let (out_tx, out_rx) = sync_channel::<(u64, R)>(window as usize);
    std::thread::scope(|scope| {
        let gate = &gate;
        scope.spawn(move || {
            for (seq, item) in (0u64..).zip(items) {
                if stop.load(Ordering::SeqCst) || !gate.wait_for(seq, window) || in_tx.send((seq, item)).is_err() {
                    break;
                }
            }
        });
        let work = &work;
        scope.spawn(move || {
            workers.install(move || {
                in_rx.into_iter().par_bridge().for_each_with(out_tx, |tx, (seq, item)| {
                    let _ = tx.send((seq, work(item)));
                });
            });
        });
        let result = drain(out_rx, ordered, gate, &mut write);
        if result.is_err() {
            gate.advance(0, true);
        }
        result
    })
}

/// The writer's side: reorders (when `ordered`) and writes; after an error keeps draining so the
/// workers never block on a full channel.
fn drain<R>(
    out_rx: Receiver<(u64, R)>,
    ordered: bool,
    gate: &Gate,
    write: &mut dyn FnMut(R) -> Result<()>,
) -> Result<()> {
    let mut pending: BTreeMap<u64, R> = BTreeMap::new();
    let mut next = 0u64;
    let mut written = 0u64;
    let mut failure = None;
    for (seq, r) in out_rx {
        if failure.is_some() {
            continue;
        }
        if !ordered {
            if let Err(e) = write(r) {
                failure = Some(e);
                gate.advance(written, true);
                continue;
            }
            written += 1;
            gate.advance(written, false);
            continue;
        }
        pending.insert(seq, r);
        while let Some(r) = pending.remove(&next) {
            if let Err(e) = write(r) {
                failure = Some(e);
                gate.advance(written, true);
                break;
            }
            next += 1;
            written += 1;
        }
        gate.advance(written, failure.is_some());
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use std::sync::atomic::AtomicUsize;

    fn workers() -> Workers {
        Workers::new(Some(4)).unwrap()
    }

    #[test]
    fn keeps_input_order_with_uneven_work_and_bounds_the_items_in_flight() {
        let in_flight = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let mut got = Vec::new();
        let stop = AtomicBool::new(false);
        map_ordered(
            0..500u64,
            &workers(),
            8,
            true,
            &stop,
            |i| {
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                // Early items are slow, so later ones finish first.
                std::thread::sleep(std::time::Duration::from_micros(if i % 7 == 0 { 2000 } else { 10 }));
                i * 2
            },
            |r| {
                in_flight.fetch_sub(1, Ordering::SeqCst);
                got.push(r);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(got, (0..500u64).map(|i| i * 2).collect::<Vec<_>>());
        // Read but not written: never more than the window.
        assert!(most.load(Ordering::SeqCst) <= 8, "{}", most.load(Ordering::SeqCst));
    }

    #[test]
    fn unordered_writes_everything_once() {
        let mut got = Vec::new();
        let stop = AtomicBool::new(false);
        map_ordered(
            0..300u32,
            &workers(),
            4,
            false,
            &stop,
            |i| i,
            |r| {
                got.push(r);
                Ok(())
            },
        )
        .unwrap();
        got.sort();
        assert_eq!(got, (0..300).collect::<Vec<_>>());
    }

    #[test]
    fn a_stop_ends_reading_and_what_was_written_is_a_prefix() {
        let stop = AtomicBool::new(false);
        let mut got = Vec::new();
        map_ordered(
            0..100_000u64,
            &workers(),
            16,
            true,
            &stop,
            |i| i,
            |r| {
                got.push(r);
                if r == 50 {
                    stop.store(true, Ordering::SeqCst);
                }
                Ok(())
            },
        )
        .unwrap();
        assert!(got.len() < 100, "{}", got.len());
        assert_eq!(got, (0..got.len() as u64).collect::<Vec<_>>());
    }

    #[test]
    fn a_failing_writer_stops_the_run_with_its_error() {
        let stop = AtomicBool::new(false);
        let mut n = 0;
        let r = map_ordered(
            0..1_000_000u64,
            &workers(),
            16,
            true,
            &stop,
            |i| i,
            |_| {
                n += 1;
                if n == 10 { Err(Error::input("disk full")) } else { Ok(()) }
            },
        );
        assert_eq!(r.unwrap_err().message, "disk full");
        assert_eq!(n, 10);
    }
}
