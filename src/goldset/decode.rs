//! Reading page and gold bytes: transparent gzip, then one decoding rule for pages and gold
//! texts alike ([`decode`]): byte-order mark; valid UTF-8; UTF-16 without a BOM; mostly valid
//! UTF-8 with U+FFFD for the broken bytes; the declared charset via `encoding_rs`; declared UTF-8
//! that is not UTF-8 as windows-1252; else the `chardetng` guess. Never fails on content.

use crate::error::{Error, Result};
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, WINDOWS_1252};
use std::io::Read;
use std::path::Path;

/// Which rule decoded a file (counted by the importers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Decoding {
    /// A byte-order mark named the encoding.
    Bom,
    /// The bytes were valid UTF-8.
    Utf8,
    /// The declared charset was used.
    Declared,
    /// UTF-16 recognised from its NUL-byte pattern (no BOM).
    Utf16Sniffed,
    /// Mostly valid UTF-8 with a few broken bytes, decoded with U+FFFD for them.
    Utf8Lossy,
    /// Declares UTF-8 but holds no valid multi-byte UTF-8: windows-1252.
    Windows1252,
    /// No declaration, not UTF-8: the encoding `chardetng` guessed.
    Detected,
}

impl Decoding {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Decoding::Bom => "bom",
            Decoding::Utf8 => "utf-8",
            Decoding::Declared => "declared charset",
            Decoding::Utf16Sniffed => "utf-16 (sniffed)",
            Decoding::Utf8Lossy => "utf-8 (lossy)",
            Decoding::Windows1252 => "windows-1252 (declared utf-8, not utf-8)",
            Decoding::Detected => "detected (chardetng)",
        }
    }
}

/// Reads a file of at most `max` bytes after decompression, gunzipping it when it starts with
/// the gzip magic. Only regular files are read: a FIFO, socket or device would block forever.
/// Neither the file nor its decompressed data is ever held beyond `max` bytes (plus one), so a
/// gzip bomb or a 200 MB page costs no more memory than the budget.
pub fn read_bytes(path: &Path, max: u64) -> Result<Vec<u8>> {
    unpack(read_raw(path, max)?, max).map_err(|e| e.with_path(path))
}

/// The first `max + 1` bytes of a regular file, as stored (see [`read_bytes`]).
pub fn read_raw(path: &Path, max: u64) -> Result<Vec<u8>> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, "read", e).with_kind_input())?;
    if !meta.is_file() {
        return Err(Error::input("not a regular file (a FIFO, socket or device): not read").with_path(path));
    }
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, "read", e).with_kind_input())?;
    let mut raw = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut raw).map_err(|e| Error::io(path, "read", e).with_kind_input())?;
    Ok(raw)
}

/// File bytes as read: more than `max` of them are an error; gunzipped when they start with the
/// gzip magic, where more than `max` bytes of output are an error too.
pub fn unpack(raw: Vec<u8>, max: u64) -> Result<Vec<u8>> {
    let too_large = || {
        Error::input(format!(
            "larger than {} MB after decompression (the page budget; see --max-page-mb): not read",
            max.div_ceil(crate::limits::MB)
        ))
    };
    if raw.len() as u64 > max {
        return Err(too_large());
    }
    if raw.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..])
            .take(max.saturating_add(1))
            .read_to_end(&mut out)
            .map_err(|e| Error::input(format!("broken gzip data: {e}")))?;
        if out.len() as u64 > max {
            return Err(too_large());
        }
        Ok(out)
    } else {
        Ok(raw)
    }
}

impl Error {
    /// Reclassifies an I/O error on input data as an input error.
    fn with_kind_input(mut self) -> Self {
        self.kind = crate::error::ErrorKind::Input;
        self
    }
}

/// The charset a page declares in its first 4 KiB, if any.
pub fn declared_charset(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(4096)];
    let lower: Vec<u8> = head.iter().map(|b| b.to_ascii_lowercase()).collect();
    for pat in [&b"charset="[..], &b"encoding="[..]] {
        let mut from = 0;
        while let Some(k) = find(&lower[from..], pat) {
            let mut i = from + k + pat.len();
            while i < lower.len() && matches!(lower[i], b'"' | b'\'' | b' ') {
                i += 1;
            }
            let start = i;
            while i < lower.len() && (lower[i].is_ascii_alphanumeric() || matches!(lower[i], b'-' | b'_' | b':' | b'.'))
            {
                i += 1;
            }
            if let Some(enc) = Encoding::for_label(&lower[start..i]) {
                return Some(enc);
            }
            from = from + k + pat.len();
        }
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// UTF-16 without BOM: most ASCII characters leave one NUL byte per code unit.
fn sniff_utf16(bytes: &[u8]) -> Option<&'static Encoding> {
    let n = bytes.len().min(4096) & !1;
    if n < 8 {
        return None;
    }
    let (mut even, mut odd) = (0usize, 0usize);
    for i in (0..n).step_by(2) {
        even += usize::from(bytes[i] == 0);
        odd += usize::from(bytes[i + 1] == 0);
    }
    let half = n / 2;
    if odd * 10 > half * 6 && even * 10 < half {
        Some(UTF_16LE)
    } else if even * 10 > half * 6 && odd * 10 < half {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// Normalises CRLF and bare CR to LF.
pub fn normalise_newlines(s: String) -> String {
    if !s.contains('\r') {
        return s;
    }
    s.replace("\r\n", "\n").replace('\r', "\n")
}

/// Decodes a page or a gold text: the one rule for both (see [`decode`]).
pub use self::decode as decode_html;

/// Decodes a page or a gold text, by one rule in this order:
/// 1. a byte-order mark names the encoding;
/// 2. valid UTF-8 is UTF-8 (declarations are often stale; UTF-16 without BOM excepted);
/// 3. UTF-16 without a BOM, recognised by its NUL bytes;
/// 4. *mostly* valid UTF-8 (more valid multi-byte sequences than broken bytes), whatever it
///    declares, is UTF-8 with U+FFFD for each broken byte: one stray `\x92` must not turn every
///    `“` of the page into `â€œ`;
/// 5. a declared charset other than UTF-8 (`<meta charset>`, `http-equiv`, XML declaration);
/// 6. a page that declares UTF-8 but holds no valid multi-byte UTF-8 is windows-1252;
/// 7. no declaration and not UTF-8: the encoding `chardetng` (Firefox's detector) guesses.
///
/// Line endings are normalised to LF. Never fails on content.
pub fn decode(bytes: &[u8]) -> (String, Decoding) {
    let (text, how) = decode_raw(bytes);
    (normalise_newlines(text), how)
}

fn decode_raw(bytes: &[u8]) -> (String, Decoding) {
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        let (s, _) = enc.decode_without_bom_handling(&bytes[bom_len..]);
        return (s.into_owned(), Decoding::Bom);
    }
    if let Ok(s) = std::str::from_utf8(bytes)
        && (!s.contains('\0') || sniff_utf16(bytes).is_none())
    {
        return (s.to_string(), Decoding::Utf8);
    }
    if let Some(enc) = sniff_utf16(bytes) {
        let (s, _) = enc.decode_without_bom_handling(bytes);
        return (s.into_owned(), Decoding::Utf16Sniffed);
    }
    if mostly_utf8(bytes) {
        return (String::from_utf8_lossy(bytes).into_owned(), Decoding::Utf8Lossy);
    }
    match declared_charset(bytes) {
        Some(enc) if enc != encoding_rs::UTF_8 && enc != UTF_16LE && enc != UTF_16BE => {
            let (s, _) = enc.decode_without_bom_handling(bytes);
            (s.into_owned(), Decoding::Declared)
        }
        Some(_) => {
            let (s, _) = WINDOWS_1252.decode_without_bom_handling(bytes);
            (s.into_owned(), Decoding::Windows1252)
        }
        None => {
            let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            det.feed(bytes, true);
            let enc = det.guess(None, chardetng::Utf8Detection::Deny);
            let (s, _) = enc.decode_without_bom_handling(bytes);
            (s.into_owned(), Decoding::Detected)
        }
    }
}

/// Binary data decoded as text is full of control characters, which neither HTML nor a gold
/// text holds: more than one in fifty of the first 8,192 characters.
pub fn looks_binary(text: &str) -> bool {
    let (mut n, mut ctrl) = (0usize, 0usize);
    for c in text.chars().take(8192) {
        n += 1;
        ctrl += usize::from((c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r' | '\x0c'));
    }
    ctrl * 50 > n
}

/// More valid multi-byte UTF-8 sequences than invalid bytes.
fn mostly_utf8(bytes: &[u8]) -> bool {
    let (mut good, mut bad) = (0usize, 0usize);
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                good += s.chars().filter(|c| !c.is_ascii()).count();
                break;
            }
            Err(e) => {
                let (ok, tail) = rest.split_at(e.valid_up_to());
                good += std::str::from_utf8(ok).map_or(0, |s| s.chars().filter(|c| !c.is_ascii()).count());
                bad += 1;
                let skip = e.error_len().unwrap_or(tail.len()).max(1);
                rest = &tail[skip.min(tail.len())..];
                if rest.is_empty() {
                    break;
                }
            }
        }
    }
    good > bad
}

/// Parses JSON from another program, whose strings may hold a lone UTF-16 surrogate escape
/// (`"\ud800"`, which Python's `json` writes for a string it holds, and strict JSON parsers
/// refuse): when the strict parse fails, each lone surrogate escape becomes `\ufffd` (U+FFFD,
/// as a browser decodes it) and the text is parsed again, so one odd character does not cost
/// the whole record.
pub fn json_lossy<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> serde_json::Result<T> {
    match serde_json::from_slice(bytes) {
        Err(e) if bytes.windows(2).any(|w| w == b"\\u") => match replace_lone_surrogates(bytes) {
            Some(fixed) => serde_json::from_slice(&fixed),
            None => Err(e),
        },
        r => r,
    }
}

/// `bytes` with every `\uD800`–`\uDFFF` escape that is not half of a valid pair replaced by
/// `\uFFFD`; `None` when there is none.
fn replace_lone_surrogates(bytes: &[u8]) -> Option<Vec<u8>> {
    let hex = |at: usize| -> Option<u16> {
        let h = bytes.get(at..at + 4)?;
        u16::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
    };
    let escape = |at: usize| bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u');
    let mut out = Vec::with_capacity(bytes.len());
    let (mut i, mut changed) = (0, false);
    while i < bytes.len() {
        if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'u') {
            if let Some(u) = hex(i + 2) {
                let high = (0xD800..0xDC00).contains(&u);
                let paired = high && escape(i + 6) && hex(i + 8).is_some_and(|l| (0xDC00..0xE000).contains(&l));
                if paired {
                    out.extend_from_slice(&bytes[i..i + 12]);
                    i += 12;
                    continue;
                }
                if (0xD800..0xE000).contains(&u) {
                    out.extend_from_slice(b"\\ufffd");
                    changed = true;
                    i += 6;
                    continue;
                }
            }
            out.extend_from_slice(&bytes[i..i + 2]);
            i += 2;
            continue;
        }
        if bytes[i] == b'\\' {
            // Any other escape: its two bytes, so an escaped backslash before `u` stays one.
            out.extend_from_slice(&bytes[i..(i + 2).min(bytes.len())]);
            i += 2;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_bom_utf8_declared_fallback() {
        assert_eq!(decode_html(b"\xEF\xBB\xBFcaf\xC3\xA9").1, Decoding::Bom);
        // Declares latin-1 but is UTF-8: UTF-8 wins.
        let (s, how) = decode_html("<meta charset=iso-8859-1>café".as_bytes());
        assert_eq!((s.as_str(), how), ("<meta charset=iso-8859-1>café", Decoding::Utf8));
        let (s, how) = decode_html(b"<meta http-equiv=content-type content='text/html; charset=iso-8859-7'>\xE1");
        assert_eq!(how, Decoding::Declared);
        assert!(s.ends_with('α'));
        let (s, how) = decode_html(b"<p>caf\xE9 \x93q\x94 d\xE9j\xE0 vu, gar\xE7on, na\xEFve</p>");
        assert_eq!((s.as_str(), how), ("<p>café “q” déjà vu, garçon, naïve</p>", Decoding::Detected));
        // Declares UTF-8 but holds no UTF-8 at all: windows-1252.
        assert_eq!(decode_html(b"<meta charset=utf-8>\xE9").1, Decoding::Windows1252);
    }

    #[test]
    fn utf16_with_and_without_bom() {
        let text = "<p>Grüße aus Köln</p>";
        let le: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
        assert_eq!(decode_html(&le), (text.to_string(), Decoding::Utf16Sniffed));
        assert_eq!(decode_html(&be), (text.to_string(), Decoding::Utf16Sniffed));
        let mut bom = vec![0xFF, 0xFE];
        bom.extend(&le);
        assert_eq!(decode_html(&bom), (text.to_string(), Decoding::Bom));
    }

    #[test]
    fn gold_with_a_stray_byte_stays_utf8() {
        let (s, how) =
            decode("Grüße und Küsse \u{e9}".as_bytes().iter().copied().chain([0xE9]).collect::<Vec<_>>().as_slice());
        assert_eq!(how, Decoding::Utf8Lossy);
        assert!(s.starts_with("Grüße und Küsse é"));
    }

    #[test]
    fn page_declaring_utf8_with_a_stray_byte_stays_utf8() {
        // One windows-1252 apostrophe (0x92) in a UTF-8 page: the curly quotes stay curly.
        let mut bytes = "<meta charset=utf-8><p>“Quoted” — café</p><p>it".as_bytes().to_vec();
        bytes.push(0x92);
        bytes.extend(b"s</p>");
        let (s, how) = decode_html(&bytes);
        assert_eq!(how, Decoding::Utf8Lossy);
        assert_eq!(s, "<meta charset=utf-8><p>“Quoted” — café</p><p>it\u{FFFD}s</p>");
        assert!(!s.contains("â€"));
    }

    #[test]
    fn undeclared_legacy_bytes_are_detected() {
        // KOI8-R Cyrillic without a declaration: not windows-1252 mojibake.
        let (s, how) = decode_html(b"<p>\xf0\xd2\xc9\xd7\xc5\xd4, \xcd\xc9\xd2! \xfc\xd4\xcf \xd4\xc5\xd3\xd4 \xd2\xd5\xd3\xd3\xcb\xcf\xc7\xcf \xd4\xc5\xcb\xd3\xd4\xc1.</p>");
        assert_eq!(how, Decoding::Detected);
        assert!(s.contains("Привет, мир!"), "{s}");
    }

    #[test]
    fn newlines_are_normalised() {
        assert_eq!(decode_html(b"a\r\nb\rc").0, "a\nb\nc");
    }

    #[test]
    fn lone_surrogate_escapes_become_the_replacement_character() {
        let v: serde_json::Value = json_lossy(br#"{"html": "a\ud800b\udc00c\ud83d\ude00d\\ud800"}"#).unwrap();
        assert_eq!(v["html"], "a\u{fffd}b\u{fffd}c\u{1f600}d\\ud800");
        assert!(json_lossy::<serde_json::Value>(b"{\"html\": ").is_err());
        let v: serde_json::Value = json_lossy(br#"["\ud800"]"#).unwrap();
        assert_eq!(v[0], "\u{fffd}");
    }
}
