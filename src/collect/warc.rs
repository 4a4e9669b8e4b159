//! A streaming reader of WARC/1.0 and WARC/1.1 files (ISO 28500): record after record, holding
//! one record at a time, within the page budget. `response` records whose HTTP content type is
//! HTML (`text/html`, `application/xhtml+xml`, or none given and the payload starts with `<`)
//! become pages; other records are passed over (non-HTML responses are counted as skipped).
//! Gzip, whole-file or one member per record as in Common Crawl, is undone by the caller's
//! reader (`MultiGzDecoder`).
//!
//! Written here rather than taken from the `warc` crate (0.4), which reads every record body
//! whole with no size budget and brings a second deflate implementation (libflate) beside
//! flate2; a record beyond the budget must be skipped unread, and a truncated record must be one
//! error, not the end of the run.

use super::item::{Item, Payload};
use std::io::{BufRead, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// Longest WARC or HTTP header block accepted.
const MAX_HEADER: u64 = 1 << 16;

/// Reads the records of one WARC file.
pub struct Reader<R: BufRead> {
    r: R,
    name: String,
    prefix: PathBuf,
    max: u64,
    records: u64,
    done: bool,
    feeds: bool,
}

/// The WARC headers a page needs.
#[derive(Default)]
struct Head {
    kind: String,
    length: Option<u64>,
    id: Option<String>,
    url: Option<String>,
}

impl<R: BufRead> Reader<R> {
    /// A reader of `r` (named `name` in errors); output paths go under `prefix`; payloads larger
    /// than `max` bytes are errors.
    pub fn new(r: R, name: String, prefix: PathBuf, max: u64) -> Self {
        Reader { r, name, prefix, max, records: 0, done: false, feeds: false }
    }

    /// Also yields XML responses (feeds: `application/rss+xml`, `application/atom+xml`,
    /// `text/xml`, ...) when `on`.
    pub fn with_feeds(mut self, on: bool) -> Self {
        self.feeds = on;
        self
    }

    /// The next HTML page, an error item, or `None` at the end of the file. After a broken
    /// record (truncated, bad header, unreadable gzip) nothing more is read from the file.
    pub fn next_item(&mut self, skipped: &AtomicU64) -> Option<Item> {
        while !self.done {
            match self.next_record() {
                Ok(None) => self.done = true,
                Ok(Some(Record::Page(item))) => return Some(item),
                Ok(Some(Record::NotHtml)) => {
                    skipped.fetch_add(1, Ordering::Relaxed);
                }
                Ok(Some(Record::Other)) => {}
                Err((why, fatal)) => {
                    self.done |= fatal;
                    let id = format!("{}#{}", self.name, self.records);
                    let rel = self.prefix.join(self.records.to_string());
                    return Some(Item { id, url: None, rel, payload: Payload::Error(why) });
                }
            }
        }
        None
    }

    fn line(&mut self) -> std::result::Result<Vec<u8>, (String, bool)> {
        let mut buf = Vec::new();
        (&mut self.r)
            .take(MAX_HEADER)
            .read_until(b'\n', &mut buf)
            .map_err(|e| (format!("cannot read record: {e} (truncated or broken data)"), true))?;
        Ok(buf)
    }

    fn next_record(&mut self) -> std::result::Result<Option<Record>, (String, bool)> {
        // The version line, after the blank lines that end the previous record.
        let first = loop {
            let l = self.line()?;
            if l.is_empty() {
                return Ok(None);
            }
            if !l.iter().all(u8::is_ascii_whitespace) {
                break l;
            }
        };
        self.records += 1;
        if !first.starts_with(b"WARC/") {
            return Err((
                format!("record {}: not a WARC record (expected a WARC/1.0 or WARC/1.1 line)", self.records),
                true,
            ));
        }
        let mut head = Head::default();
        let mut size = 0u64;
        loop {
            let l = self.line()?;
            size += l.len() as u64;
            if l.is_empty() || size > MAX_HEADER {
                return Err((format!("record {}: truncated or oversized WARC header", self.records), true));
            }
            let l = String::from_utf8_lossy(&l);
            let l = l.trim_end();
            if l.is_empty() {
                break;
            }
            let Some((k, v)) = l.split_once(':') else { continue };
            let v = v.trim().to_string();
            match k.trim().to_ascii_lowercase().as_str() {
                "warc-type" => head.kind = v.to_ascii_lowercase(),
                "content-length" => head.length = v.parse().ok(),
                "warc-record-id" => head.id = Some(v.trim_matches(['<', '>']).to_string()),
                "warc-target-uri" => head.url = Some(v.trim_matches(['<', '>']).to_string()),
                _ => {}
            }
        }
        let Some(len) = head.length else {
            return Err((format!("record {}: no valid Content-Length", self.records), true));
        };
        if head.kind != "response" || len > self.max.saturating_add(MAX_HEADER) {
            let skipped = std::io::copy(&mut (&mut self.r).take(len), &mut std::io::sink())
                .map_err(|e| (format!("record {}: cannot read: {e} (truncated or broken data)", self.records), true))?;
            if skipped < len {
                return Err((format!("record {}: truncated ({skipped} of {len} bytes)", self.records), true));
            }
            if head.kind != "response" {
                return Ok(Some(Record::Other));
            }
            return Err((
                format!(
                    "record {}: larger than {} MB (the page budget; see --max-page-mb): not read",
                    self.records,
                    self.max.div_ceil(crate::limits::MB)
                ),
                false,
            ));
        }
        let mut body = Vec::with_capacity(len as usize);
        (&mut self.r)
            .take(len)
            .read_to_end(&mut body)
            .map_err(|e| (format!("record {}: cannot read: {e} (truncated or broken data)", self.records), true))?;
        if (body.len() as u64) < len {
            return Err((format!("record {}: truncated ({} of {len} bytes)", self.records, body.len()), true));
        }
        // A record's block ends with a blank line: anything else right after it means the
        // Content-Length is shorter than the body, so the page would be cut.
        let next = self.r.fill_buf().map_err(|e| (format!("record {}: cannot read: {e}", self.records), true))?;
        if next.first().is_some_and(|b| !matches!(b, b'\r' | b'\n')) {
            return Err((
                format!(
                    "record {}: its Content-Length ({len}) is shorter than its body (no blank line after {len} bytes)",
                    self.records
                ),
                true,
            ));
        }
        let id = head.id.unwrap_or_else(|| format!("{}#{}", self.name, self.records));
        let rel = self.prefix.join(self.records.to_string());
        let page = match http_payload(body, self.feeds) {
            Ok(Some(p)) => p,
            Ok(None) => return Ok(Some(Record::NotHtml)),
            Err(why) => Payload::Error(format!("record {}: {why}", self.records)),
        };
        Ok(Some(Record::Page(Item { id, url: head.url, rel, payload: page })))
    }
}

enum Record {
    Page(Item),
    NotHtml,
    Other,
}

/// The HTML payload of an HTTP response (de-chunked) and the charset of its content type;
/// `None` when it is not HTML (nor, with `feeds`, XML).
fn http_payload(mut body: Vec<u8>, feeds: bool) -> std::result::Result<Option<Payload>, String> {
    let Some((head_end, body_start)) =
        find(&body, b"\r\n\r\n").map(|i| (i, i + 4)).or_else(|| find(&body, b"\n\n").map(|i| (i, i + 2)))
    else {
        return Err("no HTTP header in the response record".into());
    };
    let head = String::from_utf8_lossy(&body[..head_end]).into_owned();
    let mut lines = head.lines();
    if !lines.next().is_some_and(|l| l.starts_with("HTTP/")) {
        return Err("the response record holds no HTTP response".into());
    }
    let (mut ctype, mut chunked) = (None, false);
    for l in lines {
        let Some((k, v)) = l.split_once(':') else { continue };
        match k.trim().to_ascii_lowercase().as_str() {
            "content-type" => ctype = Some(v.trim().to_ascii_lowercase()),
            "transfer-encoding" => chunked = v.to_ascii_lowercase().contains("chunked"),
            _ => {}
        }
    }
    body.drain(..body_start);
    if chunked {
        body = dechunk(&body).ok_or("broken chunked transfer encoding")?;
    }
    let html = match &ctype {
        Some(t) => {
            let media = t.split(';').next().unwrap_or("").trim();
            matches!(media, "text/html" | "application/xhtml+xml")
                || (feeds && (media.ends_with("/xml") || media.ends_with("+xml")))
        }
        None => body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'<'),
    };
    let charset = ctype.as_deref().and_then(|t| {
        let at = t.find("charset=")? + "charset=".len();
        let label = t[at..].split(';').next()?.trim().trim_matches(['"', '\'']);
        encoding_rs::Encoding::for_label(label.as_bytes())
    });
    Ok(html.then_some(Payload::Http(body, charset)))
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Undoes HTTP/1.1 chunked transfer encoding.
fn dechunk(mut b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(b.len());
    loop {
        let nl = find(b, b"\n")?;
        let size = String::from_utf8_lossy(&b[..nl]);
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        b = &b[nl + 1..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(b.get(..size)?);
        b = b.get(size..)?;
        b = b.strip_prefix(b"\r\n").or_else(|| b.strip_prefix(b"\n")).unwrap_or(b);
    }
}

/// One WARC record (for tests and for generating WARC files): a `response` record of an HTTP
/// response with content type `ctype` and `payload`.
pub fn response_record(url: &str, id: &str, ctype: &str, payload: &[u8]) -> Vec<u8> {
    let mut http =
        format!("HTTP/1.1 200 OK\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\r\n", payload.len()).into_bytes();
    http.extend_from_slice(payload);
    let mut rec = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{id}>\r\nWARC-Target-URI: {url}\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    rec.extend_from_slice(&http);
    rec.extend_from_slice(b"\r\n\r\n");
    rec
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn read_all(bytes: Vec<u8>) -> (Vec<Item>, u64) {
        let skipped = AtomicU64::new(0);
        let mut r: Box<dyn BufRead> = if bytes.starts_with(&[0x1f, 0x8b]) {
            Box::new(std::io::BufReader::new(flate2::read::MultiGzDecoder::new(&bytes[..])))
        } else {
            Box::new(&bytes[..])
        };
        let mut reader = Reader::new(&mut r, "t.warc".into(), PathBuf::from("t"), 1 << 20);
        let mut out = Vec::new();
        while let Some(i) = reader.next_item(&skipped) {
            out.push(i);
        }
        (out, skipped.load(Ordering::Relaxed))
    }

    fn warcinfo() -> Vec<u8> {
        b"WARC/1.1\r\nWARC-Type: warcinfo\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n".to_vec()
    }

    #[test]
    fn reads_html_responses_and_passes_over_everything_else() {
        let mut w = warcinfo();
        w.extend(response_record("http://a/", "1", "text/html; charset=utf-8", b"<p>one</p>"));
        w.extend(response_record("http://b/", "2", "image/png", b"\x89PNG"));
        w.extend(response_record("http://c/", "3", "application/xhtml+xml", b"<p>three</p>"));
        let (items, skipped) = read_all(w);
        assert_eq!(skipped, 1);
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].id, "urn:uuid:1");
        assert_eq!(items[0].url.as_deref(), Some("http://a/"));
        assert!(matches!(&items[1].payload, Payload::Http(b, None) if b == b"<p>three</p>"));
        assert!(matches!(&items[0].payload, Payload::Http(_, Some(e)) if *e == encoding_rs::UTF_8));
    }

    #[test]
    fn per_record_gzip_members_as_in_common_crawl() {
        let mut gz = Vec::new();
        for (i, rec) in [warcinfo(), response_record("http://a/", "1", "text/html", b"<p>x</p>")].iter().enumerate() {
            let mut e = GzEncoder::new(Vec::new(), Compression::fast());
            e.write_all(rec).unwrap();
            gz.extend(e.finish().unwrap());
            assert!(i < 2);
        }
        let (items, _) = read_all(gz);
        assert_eq!(items.len(), 1);
        assert!(matches!(&items[0].payload, Payload::Http(b, _) if b == b"<p>x</p>"));
    }

    #[test]
    fn a_truncated_record_is_one_error_and_ends_the_file() {
        let mut w = response_record("http://a/", "1", "text/html", b"<p>one</p>");
        let second = response_record("http://b/", "2", "text/html", b"<p>two</p>");
        w.extend(&second[..second.len() - 20]);
        let (items, _) = read_all(w);
        assert_eq!(items.len(), 2);
        assert!(matches!(&items[1].payload, Payload::Error(e) if e.contains("record 2: truncated")), "{:?}", items[1]);
        // A truncated gzip member likewise.
        let mut e = GzEncoder::new(Vec::new(), Compression::fast());
        e.write_all(&response_record("http://a/", "1", "text/html", &b"<p>one</p>".repeat(1000))).unwrap();
        let gz = e.finish().unwrap();
        let (items, _) = read_all(gz[..gz.len() / 2].to_vec());
        assert_eq!(items.len(), 1);
        assert!(matches!(&items[0].payload, Payload::Error(e) if e.contains("truncated")), "{:?}", items[0]);
        // Not WARC at all.
        let (items, _) = read_all(b"<html>not a warc</html>".to_vec());
        assert!(matches!(&items[0].payload, Payload::Error(e) if e.contains("not a WARC record")));
    }

    #[test]
    fn chunked_payloads_are_dechunked() {
        assert_eq!(dechunk(b"3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n").unwrap(), b"abcde");
        assert!(dechunk(b"9\r\nabc").is_none());
    }
}
