//! The annotation server's HTTP/1.1 transport, over `std::net` alone, so that every byte a
//! client sends is read under cetune's limits: a request's head (at most [`MAX_HEAD`] bytes)
//! and body must arrive within [`DEADLINE`] (then 408); the token and the declared
//! `Content-Length` are checked from the head, before a byte of the body is read, and a body
//! over [`MAX_BODY`] is refused (413) without being read or allocated; a chunked body is refused
//! (411). Each connection runs on a thread of its own (at most [`MAX_CONNECTIONS`]; more get 503
//! at once), answers one request and is closed, so a slow client stalls only itself. The
//! requests themselves are answered one at a time by the caller (saves never interleave).

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

/// Largest request body read, in bytes.
pub const MAX_BODY: usize = 16 << 20;
/// Largest request head (request line and headers), in bytes.
pub const MAX_HEAD: usize = 32 << 10;
/// Time a request (head and body) may take to arrive.
pub const DEADLINE: Duration = Duration::from_secs(10);
/// Connections served at once; more are answered 503 at once.
pub const MAX_CONNECTIONS: usize = 32;
/// Bytes of an unread body drained after a refusal (so the client reads the answer before the
/// connection closes), at most.
const DRAIN: usize = 1 << 20;

/// One request read whole.
#[derive(Debug)]
pub struct Request {
    /// `GET`, `POST`, …
    pub method: String,
    /// The target: path and query.
    pub url: String,
    /// The `X-Cetune-Token` header.
    pub token: Option<String>,
    /// The body.
    pub body: Vec<u8>,
}

/// One answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// Status code.
    pub status: u16,
    /// `Content-Type`.
    pub ctype: &'static str,
    /// Body.
    pub body: Vec<u8>,
    /// Further headers.
    pub headers: Vec<(&'static str, String)>,
}

impl Answer {
    /// A plain-text answer.
    pub fn text(status: u16, s: &str) -> Answer {
        Answer { status, ctype: "text/plain; charset=utf-8", body: s.as_bytes().to_vec(), headers: Vec::new() }
    }
}

/// A request to answer, with where its answer goes.
pub type Job = (Request, Sender<Answer>);

/// Serves one accepted connection: reads one request within the limits (`precheck` sees the
/// head first and may refuse it before the body is read), hands it to the answering loop
/// through `jobs`, writes the answer and closes. `open` counts the connections being served.
pub fn connection(
    stream: TcpStream,
    open: Arc<AtomicUsize>,
    precheck: impl Fn(&str) -> Option<Answer>,
    jobs: Sender<Job>,
) {
    struct Slot(Arc<AtomicUsize>);
    impl Drop for Slot {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::SeqCst);
        }
    }
    let _slot = Slot(open);
    let mut stream = stream;
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_write_timeout(Some(DEADLINE));
    let started = Instant::now();
    let answer = match read_request(&mut stream, started, &precheck) {
        Ok(req) => {
            let (back, answer): (Sender<Answer>, Receiver<Answer>) = channel();
            if jobs.send((req, back)).is_err() {
                return;
            }
            match answer.recv() {
                Ok(a) => a,
                Err(_) => return,
            }
        }
        Err(None) => return,
        Err(Some(refusal)) => {
            write_answer(&mut stream, &refusal);
            drain_and_close(stream);
            return;
        }
    };
    write_answer(&mut stream, &answer);
    let _ = stream.shutdown(Shutdown::Both);
}

/// Answers a connection beyond [`MAX_CONNECTIONS`] with 503 and closes it.
pub fn busy(mut stream: TcpStream) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    write_answer(&mut stream, &Answer::text(503, "too many requests in flight; try again"));
    drain_and_close(stream);
}

/// Reads a request: `Err(None)` when the client went away, `Err(Some(answer))` for a refusal.
fn read_request(
    stream: &mut TcpStream,
    started: Instant,
    precheck: &dyn Fn(&str) -> Option<Answer>,
) -> std::result::Result<Request, Option<Answer>> {
    let late = || Some(Answer::text(408, "the request did not arrive in time"));
    let mut buf = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = find(&buf, b"\r\n\r\n") {
            break i;
        }
        if buf.len() > MAX_HEAD {
            return Err(Some(Answer::text(431, "request head too large")));
        }
        let n = read_within(stream, &mut chunk, started).map_err(|timeout| if timeout { late() } else { None })?;
        if n == 0 {
            return Err(None);
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = parse_head(&buf[..head_end]).map_err(Some)?;
    if let Some(refusal) = precheck(&head.url) {
        return Err(Some(refusal));
    }
    let len = head.body_length().map_err(Some)?;
    if len > 0 && head.header("expect").is_some_and(|e| e.eq_ignore_ascii_case("100-continue")) {
        let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    let mut body: Vec<u8> = buf[head_end + 4..].to_vec();
    body.truncate(len);
    let mut chunk = vec![0u8; 64 << 10];
    while body.len() < len {
        let want = (len - body.len()).min(chunk.len());
        let n =
            read_within(stream, &mut chunk[..want], started).map_err(|timeout| if timeout { late() } else { None })?;
        if n == 0 {
            return Err(None);
        }
        body.extend_from_slice(&chunk[..n]);
    }
    let token = head.header("x-cetune-token");
    Ok(Request { method: head.method, url: head.url, token, body })
}

/// A request's head: its request line and headers.
#[derive(Debug)]
pub struct Head {
    /// `GET`, `POST`, …
    pub method: String,
    /// The target: path and query.
    pub url: String,
    /// The headers, names as sent.
    pub headers: Vec<(String, String)>,
}

impl Head {
    /// The value of header `name` (any case), trimmed.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone())
    }

    /// The declared body length, checked before any of it is read: at most [`MAX_BODY`] (else
    /// 413); a chunked body is not read (411).
    pub fn body_length(&self) -> std::result::Result<usize, Answer> {
        if self.header("transfer-encoding").is_some() {
            return Err(Answer::text(411, "send the body with a Content-Length (chunked bodies are not read)"));
        }
        match self.header("content-length") {
            None => Ok(0),
            Some(v) => match v.parse::<u64>() {
                Ok(n) if n >= MAX_BODY as u64 => Err(Answer::text(413, "request too large")),
                Ok(n) => Ok(n as usize),
                Err(_) => Err(Answer::text(400, "bad Content-Length")),
            },
        }
    }
}

/// Parses a request head (the bytes before the blank line), or answers 400.
pub fn parse_head(bytes: &[u8]) -> std::result::Result<Head, Answer> {
    let head = String::from_utf8_lossy(bytes);
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or("").split_whitespace();
    let (Some(method), Some(url)) = (first.next(), first.next()) else {
        return Err(Answer::text(400, "bad request line"));
    };
    let headers =
        lines.filter_map(|l| l.split_once(':').map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))).collect();
    Ok(Head { method: method.to_string(), url: url.to_string(), headers })
}

/// One read, waiting at most until `started + DEADLINE`: `Err(true)` when that passed,
/// `Err(false)` on another error.
fn read_within(stream: &mut TcpStream, buf: &mut [u8], started: Instant) -> std::result::Result<usize, bool> {
    let left = DEADLINE.checked_sub(started.elapsed()).filter(|d| !d.is_zero()).ok_or(true)?;
    stream.set_read_timeout(Some(left)).map_err(|_| false)?;
    match stream.read(buf) {
        Ok(n) => Ok(n),
        Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => Err(true),
        Err(_) => Err(false),
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Payload Too Large",
        422 => "Unprocessable Entity",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

fn write_answer(stream: &mut TcpStream, a: &Answer) {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        a.status,
        reason(a.status),
        a.ctype,
        a.body.len()
    );
    for (k, v) in &a.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes()).and_then(|_| stream.write_all(&a.body)).and_then(|_| stream.flush());
}

/// Closes a connection whose request body was not read: the answer is sent first, then at most
/// [`DRAIN`] bytes (or one second) of what the client still sends are read into a small buffer
/// and dropped, so the client sees the answer rather than a reset; the rest is never read.
fn drain_and_close(mut stream: TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let started = Instant::now();
    let (mut buf, mut total) = ([0u8; 8192], 0);
    while total < DRAIN && started.elapsed() < Duration::from_secs(1) {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => total += n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    /// Serves one connection on a thread; returns the port and the answering loop's receiver.
    fn one() -> (u16, Receiver<Job>, std::thread::JoinHandle<()>) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let (tx, rx) = channel();
        let h = std::thread::spawn(move || {
            let (s, _) = l.accept().unwrap();
            let open = Arc::new(AtomicUsize::new(1));
            connection(s, open, |url| url.contains("bad").then(|| Answer::text(403, "no")), tx);
        });
        (port, rx, h)
    }

    fn exchange(port: u16, req: &[u8]) -> String {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.write_all(req).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    #[test]
    fn a_huge_declared_body_is_refused_before_a_byte_is_read() {
        // Issue 35: tiny_http allocated the declared 30 GB when it dropped the unread body.
        let (port, _rx, h) = one();
        let got = exchange(port, b"POST /api/save?t=x HTTP/1.1\r\nContent-Length: 30000000000\r\n\r\n0123");
        assert!(got.starts_with("HTTP/1.1 413"), "{got}");
        h.join().unwrap();
        let (port, _rx, h) = one();
        let got = exchange(port, b"POST /bad HTTP/1.1\r\nContent-Length: 30000000000\r\n\r\n");
        assert!(got.starts_with("HTTP/1.1 403"), "{got}");
        h.join().unwrap();
    }

    #[test]
    fn a_request_is_read_whole_and_answered() {
        let (port, rx, h) = one();
        let answerer = std::thread::spawn(move || {
            let (req, back) = rx.recv().unwrap();
            assert_eq!((req.method.as_str(), req.url.as_str(), req.body.as_slice()), ("POST", "/x?t=1", &b"abc"[..]));
            assert_eq!(req.token.as_deref(), Some("k"));
            back.send(Answer::text(200, "fine")).unwrap();
        });
        let got = exchange(port, b"POST /x?t=1 HTTP/1.0\r\nX-Cetune-Token: k\r\ncontent-length: 3\r\n\r\nabc");
        assert!(got.starts_with("HTTP/1.1 200 OK\r\n") && got.ends_with("\r\n\r\nfine"), "{got}");
        answerer.join().unwrap();
        h.join().unwrap();
    }
}
