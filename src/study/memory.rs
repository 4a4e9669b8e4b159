//! The memory figure of an `optimise` run: the process's peak resident set size against the
//! pages its corpus holds, for `run.yaml` ([`MemoryRecord`]).

use crate::objective::Corpus;
use crate::store::MemoryRecord;

/// The process's peak resident set size in bytes (Linux `VmHWM` in `/proc/self/status`);
/// `None` where the system does not report it.
pub fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kib: u64 = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?.split_whitespace().next()?.parse().ok()?;
    Some(kib * 1024)
}

/// The peak so far against the pages of `corpora`, which hold the views and facts `facts`.
pub fn record(corpora: &[&Corpus], facts: String) -> Option<MemoryRecord> {
    let peak = peak_rss()? as f64;
    let pages = corpora.iter().flat_map(|c| &c.entries).filter(|e| e.doc.is_some()).count();
    let html = corpora.iter().map(|c| c.html_bytes()).sum::<u64>() as f64;
    Some(MemoryRecord {
        peak_rss_mb: round(peak / 1e6, 1),
        pages,
        html_mb: round(html / 1e6, 1),
        per_page_kb: round(peak / 1e3 / pages.max(1) as f64, 1),
        per_html_mb: if html > 0.0 { round(peak / html, 3) } else { 0.0 },
        facts,
    })
}

fn round(x: f64, digits: i32) -> f64 {
    let p = 10f64.powi(digits);
    (x * p).round() / p
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_peak_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            let peak = super::peak_rss().unwrap();
            assert!(peak > 1 << 20, "{peak}");
        }
    }
}
