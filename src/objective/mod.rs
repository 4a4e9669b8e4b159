//! The only place where pages meet settings: gold documents are parsed once into [`Corpus`]
//! entries (document model + indexed gold words), and a setting is scored over a corpus in
//! parallel with rayon. A failing document becomes an error row; the others go on. Imports from
//! the crate: `goldset`, `document`, `extract`, `eval`, `params`, `evolve`, `limits`,
//! `paths` (the bounded reader) and `error`.

pub mod confidence;
pub mod corpus;
pub mod external;
pub mod fit;
pub mod judge;
pub mod needs;
pub mod pool;
pub mod problem;
pub mod score;
pub mod stream;

pub use corpus::{Corpus, Entry, prepare};
pub use score::{DocScore, Summary, score_corpus, score_entry, summarise};

/// Most worker threads accepted.
pub const MAX_THREADS: usize = 1024;

/// The worker threads of one run: a rayon pool of its own, made by whoever runs the work (the
/// command line for `optimise` and `extract`, the Python package per call), never the process's
/// global pool, so a program that starts two runs, or a library user with its own rayon work,
/// meets no setting it did not make. Work run through [`Workers::install`] (and everything it
/// calls) uses these threads.
#[derive(Debug)]
pub struct Workers {
    pool: rayon::ThreadPool,
}

impl Workers {
    /// `n` worker threads (default: all cores); 0 and more than [`MAX_THREADS`] are usage errors
    /// naming `--threads`.
    pub fn new(n: Option<usize>) -> crate::error::Result<Workers> {
        let n = n.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        if n == 0 {
            return Err(crate::error::Error::config("--threads must be at least 1"));
        }
        // Spawning many thousands of threads can take minutes or fail part-way.
        if n > MAX_THREADS {
            return Err(crate::error::Error::config(format!("--threads must be at most {MAX_THREADS}, got {n}")));
        }
        let pool = rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(|e| {
            crate::error::Error::config(format!("--threads {n}: cannot start the worker threads ({e})"))
        })?;
        Ok(Workers { pool })
    }

    /// How many worker threads there are.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `work` on these threads: its parallel iterators, and those of all it calls, use
    /// this pool.
    pub fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> R {
        self.pool.install(work)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn absurd_thread_counts_are_usage_errors() {
        let e = super::Workers::new(Some(100_000)).unwrap_err();
        assert_eq!(e.to_string(), "--threads must be at most 1024, got 100000");
        assert_eq!(e.exit_code(), 2);
        assert_eq!(super::Workers::new(Some(0)).unwrap_err().exit_code(), 2);
    }

    /// Issue 36: the thread count is a value, not process-wide state: two pools of different
    /// sizes live side by side, work installed in one runs on its threads, and the global pool
    /// is left as it was.
    #[test]
    fn workers_are_a_value_each_run_makes() {
        use rayon::prelude::*;
        let global = rayon::current_num_threads();
        let (one, three) = (super::Workers::new(Some(1)).unwrap(), super::Workers::new(Some(3)).unwrap());
        assert_eq!((one.threads(), three.threads()), (1, 3));
        assert_eq!(one.install(rayon::current_num_threads), 1);
        assert_eq!(three.install(|| (0..64).into_par_iter().map(|_| rayon::current_num_threads()).max()), Some(3));
        assert_eq!(rayon::current_num_threads(), global);
    }
}
