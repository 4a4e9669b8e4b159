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

/// Sets the number of worker threads for all parallel scoring (default: all cores); returns it.
pub fn set_threads(n: Option<usize>) -> crate::error::Result<usize> {
    let n = n.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if n == 0 {
        return Err(crate::error::Error::config("--threads must be at least 1"));
    }
    // Spawning many thousands of threads can take minutes or fail part-way.
    if n > MAX_THREADS {
        return Err(crate::error::Error::config(format!("--threads must be at most {MAX_THREADS}, got {n}")));
    }
    // Fails only when the pool was already built (e.g. twice in one process): keep that one.
    let _ = rayon::ThreadPoolBuilder::new().num_threads(n).build_global();
    Ok(rayon::current_num_threads())
}

#[cfg(test)]
mod tests {
    #[test]
    fn absurd_thread_counts_are_usage_errors() {
        let e = super::set_threads(Some(100_000)).unwrap_err();
        assert_eq!(e.to_string(), "--threads must be at most 1024, got 100000");
        assert_eq!(e.exit_code(), 2);
        assert_eq!(super::set_threads(Some(0)).unwrap_err().exit_code(), 2);
    }
}
