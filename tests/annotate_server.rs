//! A running `cetune annotate` for the tests, spoken to over plain HTTP: the integration tests
//! of the server's rules and the browser check (`tests/browser/`) share it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};

use serde_json::Value;

/// A running `cetune annotate`.
pub struct Server {
    child: Child,
    out: BufReader<ChildStdout>,
    pub port: u16,
    pub token: String,
}

impl Server {
    pub fn start(dir: &Path, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cetune"))
            .args(["annotate", dir.to_str().unwrap(), "--port", "0", "--user", "tester"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        // Dropped (the process killed and waited for) if it never prints its URL.
        let mut srv = Server { child, out, port: 0, token: String::new() };
        let mut line = String::new();
        loop {
            line.clear();
            assert!(srv.out.read_line(&mut line).unwrap() > 0, "annotate ended before printing its URL");
            if let Some(url) = line.trim().strip_prefix("open http://127.0.0.1:") {
                let (port, rest) = url.split_once('/').unwrap();
                srv.token = rest.strip_prefix("?t=").unwrap().to_string();
                srv.port = port.parse().unwrap();
                return srv;
            }
        }
    }

    /// One request (HTTP/1.0, so the answer is not chunked): status and body.
    pub fn request(&self, method: &str, path: &str, header_token: bool, body: &str) -> (u16, String) {
        http(self.port, method, path, if header_token { Some(&self.token) } else { None }, body)
    }

    /// A GET with the token.
    pub fn get(&self, path: &str) -> (u16, String) {
        let sep = if path.contains('?') { '&' } else { '?' };
        self.request("GET", &format!("{path}{sep}t={}", self.token), false, "")
    }

    /// A save with the token (query and header).
    pub fn save(&self, body: &Value) -> (u16, String) {
        self.request("POST", &format!("/api/save?t={}", self.token), true, &body.to_string())
    }

    /// Sends SIGINT (Ctrl-C) and waits: exit code and the rest of standard output.
    pub fn interrupt(mut self) -> (i32, String) {
        Command::new("kill").args(["-INT", &self.child.id().to_string()]).status().unwrap();
        let status = self.child.wait().unwrap();
        let mut rest = String::new();
        self.out.read_to_string(&mut rest).unwrap();
        (status.code().unwrap_or(-1), rest)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn http(port: u16, method: &str, path: &str, token: Option<&str>, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut req = format!("{method} {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n", body.len());
    if let Some(t) = token {
        req.push_str(&format!("X-Cetune-Token: {t}\r\nContent-Type: application/json\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    let mut resp = Vec::new();
    s.read_to_end(&mut resp).unwrap();
    let resp = String::from_utf8_lossy(&resp).into_owned();
    let (head, body) = resp.split_once("\r\n\r\n").unwrap_or((&resp, ""));
    let status = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, body.to_string())
}
