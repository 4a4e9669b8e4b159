//! The body of the `inputs` fuzz target and the hostile seeds of issue 35 it starts from: kept
//! apart so the integration suite (`tests/reliability.rs`, run by `.ci/run`) runs the same
//! checks over the seeds on every CI run, without libFuzzer.

use cetune::annotate::http;
use cetune::collect::page::json_line;
use cetune::document::segments::N_FEATURES;
use cetune::extract::blocktrees::{Model, feature_version};
use cetune::paths::{Line, read_line};

/// One input: a JSONL record, an input list, a model file and an annotate request head.
pub fn run(data: &[u8]) {
    let _ = json_line(data);
    let mut list = std::io::BufReader::with_capacity(64, data);
    for _ in 0..data.len() + 1 {
        match read_line(&mut list, 100, false) {
            Line::Text(l) => assert!(l.len() <= 100),
            Line::End | Line::TooLong | Line::Broken(_) => break,
            Line::Blank => {}
        }
    }
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(m) = Model::read(text)
    {
        assert_eq!(Model::read(&m.write()).unwrap(), m);
    }
    if let Ok(head) = http::parse_head(data)
        && let Ok(n) = head.body_length()
    {
        assert!(n < http::MAX_BODY);
    }
}

/// A model file with one tree whose split and first leaf are given.
fn model(split: &str, leaf: &str) -> String {
    let gain: Vec<String> = (0..N_FEATURES).map(|i| format!("f{i}=0")).collect();
    format!(
        "cetune blocktrees model 1\nfeatures {}\nfit x\nbase 0\ngain {}\ntrees 1\ntree 3\n{split}\nl {leaf}\nl 1\nend\n",
        feature_version(),
        gain.join(",")
    )
}

/// The hostile inputs of issue 35 (each is also a good corpus seed for the fuzzer).
pub fn seeds() -> Vec<Vec<u8>> {
    let mut s: Vec<Vec<u8>> = vec![
        br#"{"id": "a", "html": "<p>caf\ud800 \udc00 \ud83d\ude00 \\ud800</p>"}"#.to_vec(),
        br#"{"html": "\ud800"#.to_vec(),
        vec![0u8; 1 << 16],
        vec![b'a'; 200_000],
        b"/a/b\n\n  \n/c\0d\n".to_vec(),
        b"POST /api/save HTTP/1.1\r\nContent-Length: 30000000000\r\n\r\n".to_vec(),
        b"POST /api/save?t=x HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n".to_vec(),
        b"POST /x HTTP/1.1\r\nContent-Length: -1\r\n\r\n".to_vec(),
        b"GET\r\n\r\n".to_vec(),
    ];
    for (split, leaf) in [("s 0 0.5 1 2", "0"), ("s 0 0.5 1 2", "NaN"), ("s 99999 0.5 1 2", "0"), ("s 0 inf 1 2", "0")]
    {
        s.push(model(split, leaf).into_bytes());
    }
    s
}
