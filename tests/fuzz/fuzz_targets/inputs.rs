//! Any bytes as the small inputs issue 35 found hostile ones of: a JSONL record (lone
//! surrogates decode to U+FFFD), an input list read through the bounded line reader, a fitted
//! model file (no NaN or out-of-range feature is accepted), and an annotate request head (its
//! declared body is checked before a byte is read). Nothing may panic, hang or exceed its bound.
//! The body lives in `inputs_body.rs`, which the integration suite runs over its seeds.
#![no_main]

#[path = "inputs_body.rs"]
mod body;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| body::run(data));
