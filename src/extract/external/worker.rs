//! The worker processes of external extractors and the JSON-lines protocol they speak.
//!
//! A worker is started as `sh -c 'exec COMMAND'` with stdin and stdout piped (stderr is
//! cetune's). Its first line is the handshake, a JSON object with `name` and `version`. Then,
//! per page, cetune writes one request line `{"id", "html", "url", "params"}` and the worker
//! answers one line `{"id", "text"}` or `{"id", "error"}`. A [`Pool`] keeps one idle worker per
//! thread that has used it: a thread takes one, asks, and gives it back.
//!
//! What goes wrong is one page's error, never the run's: a worker that exits is dropped (the next
//! page starts a new one), a page that takes longer than its budget gets the worker killed and
//! dropped, an answer that is not a JSON reply to the page (garbage, a wrong id) likewise, since
//! the stream can no longer be trusted. Only a worker that cannot start or never answers its
//! handshake when the extractor is built is an error of the configuration.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The longest line read from a worker (a longer one is garbage).
const MAX_LINE: u64 = 256 << 20;

/// What a worker says of itself in its handshake.
#[derive(Debug, Clone, PartialEq)]
pub struct Hello {
    /// The extractor's name.
    pub name: String,
    /// Its version.
    pub version: String,
}

/// What went wrong with a worker on a page: a closed set, so a caller can tell the kinds apart
/// without reading the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The worker answered `{"error": …}`: it failed on this page and takes the next one.
    Refused,
    /// It gave no answer within the page's budget: it was stopped.
    Timeout,
    /// It exited on the page, or a new worker could not start (or answer its handshake).
    Crash,
    /// Its answer is not a reply to the page (garbage, a wrong id, neither text nor error): it
    /// was stopped, since its stream can no longer be trusted.
    Garbage,
}

/// Why a page failed: the kind and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The kind.
    pub fault: Fault,
    /// What happened, for the page's error row.
    pub message: String,
}

impl Failure {
    /// Whether the worker must go (every fault but an error it reported itself).
    fn fatal(&self) -> bool {
        self.fault != Fault::Refused
    }
}

/// One running worker process.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Vec<u8>>,
    next_id: u64,
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A line for messages: at most 80 characters of it.
fn excerpt(line: &[u8]) -> String {
    let s = String::from_utf8_lossy(line);
    let s = s.trim_end();
    match s.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

impl Worker {
    /// Starts `command` and reads its handshake within `startup`.
    fn spawn(command: &str, startup: Duration) -> Result<(Worker, Hello), String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start the worker: {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err("cannot talk to the worker (no pipes)".into());
        };
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match r.by_ref().take(MAX_LINE).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut w = Worker { child, stdin, lines, next_id: 0 };
        let line = match w.lines.recv_timeout(startup) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!("the worker did not answer its handshake within {} s", startup.as_secs_f64()));
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = w.child.wait().map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
                return Err(format!("the worker exited before its handshake ({status})"));
            }
        };
        let hello = serde_json::from_slice::<serde_json::Value>(&line).ok().and_then(|v| {
            let text = |k: &str| v.get(k).map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string));
            Some(Hello { name: text("name")?, version: text("version").unwrap_or_default() })
        });
        match hello {
            Some(h) => Ok((w, h)),
            None => Err(format!(
                "the worker's first line is not a handshake ({{\"name\": …, \"version\": …}}): '{}'",
                excerpt(&line)
            )),
        }
    }

    /// Asks for one page's text within `timeout`.
    fn ask(
        &mut self,
        html: &str,
        url: Option<&str>,
        params: &serde_json::Value,
        timeout: Duration,
    ) -> Result<String, Failure> {
        self.next_id += 1;
        let id = self.next_id;
        let request = serde_json::json!({"id": id, "html": html, "url": url, "params": params});
        let mut line = request.to_string();
        line.push('\n');
        let fail = |fault: Fault, message: String| Failure { fault, message };
        if self.stdin.write_all(line.as_bytes()).and_then(|_| self.stdin.flush()).is_err() {
            return Err(fail(Fault::Crash, self.exited()));
        }
        let answer = match self.lines.recv_timeout(timeout) {
            Ok(a) => a,
            Err(RecvTimeoutError::Timeout) => {
                return Err(fail(
                    Fault::Timeout,
                    format!(
                        "the worker gave no answer within {} s (stopped; a new one takes the next page)",
                        timeout.as_secs_f64()
                    ),
                ));
            }
            Err(RecvTimeoutError::Disconnected) => return Err(fail(Fault::Crash, self.exited())),
        };
        let reply: Option<serde_json::Value> = crate::goldset::decode::json_lossy(&answer).ok();
        let Some(reply) = reply.filter(|r| r.get("id").and_then(|i| i.as_u64()) == Some(id)) else {
            return Err(fail(
                Fault::Garbage,
                format!(
                    "the worker's answer is not a JSON reply to this page ({{\"id\": {id}, \"text\": …}}): '{}' (stopped; a new one takes the next page)",
                    excerpt(&answer)
                ),
            ));
        };
        if let Some(t) = reply.get("text").and_then(|t| t.as_str()) {
            return Ok(t.to_string());
        }
        match reply.get("error") {
            Some(e) => Err(fail(
                Fault::Refused,
                format!("the worker failed on this page: {}", e.as_str().map_or_else(|| e.to_string(), str::to_string)),
            )),
            None => Err(fail(
                Fault::Garbage,
                format!("the worker's reply has neither 'text' nor 'error': '{}'", excerpt(&answer)),
            )),
        }
    }

    /// The message for a worker that is gone.
    fn exited(&mut self) -> String {
        let _ = self.child.kill();
        let status = self.child.wait().map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
        format!("the worker exited on this page ({status}; a new one takes the next page)")
    }
}

/// The workers of one command: idle ones wait here between pages.
pub struct Pool {
    command: String,
    startup: Duration,
    hello: Hello,
    idle: Mutex<Vec<Worker>>,
}

/// The running pools, by command and handshake budget: a field of an [`crate::extract::Engine`],
/// so one program's use of the library starts one pool per command, and its workers stop when
/// the last extractor and engine holding the pool are gone.
#[derive(Default)]
pub struct Pools(Mutex<Vec<Arc<Pool>>>);

impl std::fmt::Debug for Pools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pools = self.0.lock().unwrap_or_else(|e| e.into_inner());
        f.debug_list().entries(pools.iter().map(|p| &p.command)).finish()
    }
}

impl Pools {
    /// The pool of `command`: the one already running, or a new one whose first worker has
    /// answered its handshake (the error says why it did not).
    pub fn pool(&self, command: &str, startup: Duration) -> Result<Arc<Pool>, String> {
        let mut pools = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = pools.iter().find(|p| p.command == command && p.startup == startup) {
            return Ok(p.clone());
        }
        let (first, hello) = Worker::spawn(command, startup)?;
        let p = Arc::new(Pool { command: command.to_string(), startup, hello, idle: Mutex::new(vec![first]) });
        pools.push(p.clone());
        Ok(p)
    }
}

impl Pool {
    /// The handshake of the first worker.
    pub fn hello(&self) -> &Hello {
        &self.hello
    }

    /// The text a worker extracts from `html` with `params`, within `timeout`, or why not.
    pub fn run(
        &self,
        html: &str,
        url: Option<&str>,
        params: &serde_json::Value,
        timeout: Duration,
    ) -> Result<String, Failure> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut w = match idle {
            Some(w) => w,
            None => Worker::spawn(&self.command, self.startup)
                .map(|(w, _)| w)
                .map_err(|message| Failure { fault: Fault::Crash, message })?,
        };
        match w.ask(html, url, params, timeout) {
            Ok(text) => {
                self.give_back(w);
                Ok(text)
            }
            Err(f) => {
                if !f.fatal() {
                    self.give_back(w);
                }
                Err(f)
            }
        }
    }

    fn give_back(&self, w: Worker) {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(w);
    }
}
