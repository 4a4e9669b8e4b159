//! One page of a collection as the inputs yield it ([`Item`]) and what it is made of
//! ([`Payload`]), read lazily by a worker. Both the input walk (`inputs.rs`) and the WARC reader
//! (`warc.rs`) make them. Imports from the crate: nothing.

use std::path::PathBuf;

/// What a page is made of, read lazily.
#[derive(Debug)]
pub enum Payload {
    /// A page file, read (and gunzipped) by the worker.
    File(PathBuf),
    /// Page bytes already read (standard input).
    Bytes(Vec<u8>),
    /// A WARC record's HTTP payload with the charset its `Content-Type` header names, which
    /// decides only when the page itself says nothing (no BOM, not UTF-8, no declaration).
    Http(Vec<u8>, Option<&'static encoding_rs::Encoding>),
    /// One JSONL line, parsed by the worker.
    JsonLine(Vec<u8>),
    /// The page could not be read: why.
    Error(String),
}

/// One page of the collection.
#[derive(Debug)]
pub struct Item {
    /// Its id: the file path, the JSONL `id` (else `file:line`), the WARC record id.
    pub id: String,
    /// Its URL, when the input says (JSONL `url`, WARC target URI).
    pub url: Option<String>,
    /// Its place in an output folder, without `.txt` (the input tree mirrored); a JSONL line's
    /// `id` is appended by the worker.
    pub rel: PathBuf,
    /// The page itself.
    pub payload: Payload,
}
