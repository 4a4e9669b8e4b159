//! Evaluation exactly as Gottron (2007/2009): word tokens, LCS length, precision/recall/F1 and
//! their averages; and the benchmarks' measures beside it (`bow`, `shingle4`). Imports from the crate: nothing. It sees words, never HTML.

pub mod bootstrap;
pub mod date;
pub mod lcs;
pub mod measure;
pub mod paired;
pub mod score;
pub mod text;
pub mod words;

pub use lcs::{GoldIndex, lcs_naive};
pub use measure::{Averages, Measure};
pub use score::{Prf, prf};
pub use words::{for_each_token, tokens};
