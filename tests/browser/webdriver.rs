//! WebDriver over plain HTTP + JSON (chromedriver), no extra crate: a session of headless
//! Chromium that the annotate check drives.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A chromedriver process and its session.
pub struct Driver {
    child: Child,
    port: u16,
    session: String,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn wd(port: u16, method: &str, path: &str, body: Option<&Value>) -> Value {
    let body = body.map(Value::to_string).unwrap_or_default();
    let s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(120))).unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    (&s).write_all(req.as_bytes()).unwrap();
    // chromedriver keeps the connection open: read the head, then Content-Length bytes.
    let mut r = BufReader::new(&s);
    let (mut len, mut chunked) = (0usize, false);
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap() == 0 || line == "\r\n" {
            break;
        }
        let l = line.to_ascii_lowercase();
        if let Some(v) = l.strip_prefix("content-length:") {
            len = v.trim().parse().unwrap();
        }
        chunked |= l.starts_with("transfer-encoding:") && l.contains("chunked");
    }
    let mut data = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            r.read_line(&mut size).unwrap();
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if n == 0 {
                break;
            }
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).unwrap();
            data.extend_from_slice(&chunk[..n]);
        }
    } else {
        data.resize(len, 0);
        r.read_exact(&mut data).unwrap();
    }
    serde_json::from_slice(&data)
        .unwrap_or_else(|e| panic!("webdriver answered {}: {e}", String::from_utf8_lossy(&data)))
}

impl Driver {
    /// Starts chromedriver and a headless Chromium session (the caller checked that both are
    /// installed).
    pub fn start(profile: &Path) -> Driver {
        let port = free_port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let started = std::time::Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed().as_secs() < 20, "chromedriver did not start");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1400,860",
        ];
        let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        let caps = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome",
            "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": args}}}});
        let mut d = Driver { child, port, session: String::new() };
        let r = wd(port, "POST", "/session", Some(&caps));
        d.session = r["value"]["sessionId"].as_str().unwrap_or_else(|| panic!("no session: {r}")).to_string();
        d
    }
    pub fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let r = wd(self.port, method, &format!("/session/{}{path}", self.session), body);
        assert!(r["value"].get("error").is_none(), "webdriver {path}: {r}");
        r["value"].clone()
    }
    pub fn js(&self, script: &str) -> Value {
        self.call("POST", "/execute/sync", Some(&json!({"script": script, "args": []})))
    }
    pub fn keys(&self, keys: &[&str]) {
        let mut actions = Vec::new();
        for k in keys {
            actions.push(json!({"type": "keyDown", "value": k}));
            actions.push(json!({"type": "keyUp", "value": k}));
        }
        self.call("POST", "/actions", Some(&json!({"actions": [{"type": "key", "id": "kb", "actions": actions}]})));
    }
    /// Waits until `script` returns true.
    pub fn wait(&self, script: &str) {
        let started = std::time::Instant::now();
        while self.js(script) != Value::Bool(true) {
            assert!(started.elapsed().as_secs() < 20, "timed out waiting for: {script}");
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
    pub fn screenshot(&self, path: &Path) {
        let b64 = self.call("GET", "/screenshot", None);
        std::fs::write(path, base64(b64.as_str().unwrap())).unwrap();
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() && !std::thread::panicking() {
            let _ = wd(self.port, "DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = s.bytes().filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/').collect();
    let mut out = Vec::new();
    for chunk in clean.chunks(4) {
        let n = chunk.iter().fold(0u32, |acc, &c| acc << 6 | u32::from(val(c))) << (6 * (4 - chunk.len()));
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len() - 1]);
    }
    out
}
