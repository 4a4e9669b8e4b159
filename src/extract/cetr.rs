//! # Text-to-tag ratio and CETR
//!
//! Content lines of the HTML source hold much text per tag. Each source line's text-to-tag ratio
//! (characters outside tags per tag) is smoothed with a Gaussian over neighbouring lines; content
//! lines are those above a threshold (TTR, CETR-TM) or, in CETR proper, those that k-means on
//! (smoothed ratio, smoothed absolute derivative) does not put in the cluster fixed at the
//! origin.
//!
//! ## References
//! T. Weninger, W. H. Hsu, *Text Extraction from the Web via Text-to-Tag Ratio*, DEXA Workshops
//! 2008; T. Weninger, W. H. Hsu, J. Han, *CETR: Content Extraction via Tag Ratios*, WWW 2010.
//!
//! ## Parameters
//! - `sigma`: Gaussian standard deviation in lines (1.0); `max_line`: line wrap width (65);
//! - `variant`: `cluster` (CETR 2010) or `tm` (the threshold `lambda · std`, `lambda` 1.0);
//! - `alpha` (3), `K` (3), `derivative` (`smoothed` or `raw`): the clustering variant's.
//!
//! ## Interpretation
//! `algorithms.md` §6b. Lines come from the source token view: comments, script and style
//! bodies (and every other opaque segment) are left out, and so are the `script` and `style` tags;
//! a token is on the source line where it starts, and a line longer than `max_line` characters is
//! wrapped before the token that would cross it (tags and words are never split; whitespace
//! runs count one character). A line's ratio is its words' characters over its tags (at least 1).
//! The Gaussian is truncated at ⌈3σ⌉ lines and renormalised at the edges. The derivative of line
//! k compares it with the mean of the next `alpha` lines (those that exist; 0 for the last line).
//! k-means++ picks the free centroids (the one at the origin counts as chosen) by D² sampling
//! from a fixed seed, so the extract of a setting never varies; Lloyd iterations run until no line
//! changes cluster, at most 100; ties go to the lower cluster, the origin first. The extract is
//! the words of the content lines. A page without a line of text gives an empty extract.

use super::Extractor;
use crate::document::scan::cetr_skips;
use crate::document::{Document, Kind, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;
use std::cell::RefCell;

/// The clustering variant's k-means++ seed (fixed: the extractor has no run seed).
const SEED: u64 = 0x00CE_7200_2010;

/// Clusters at most (`K`'s range is 2–5).
const MAX_K: usize = 8;

/// Lloyd iterations at most.
const MAX_ITER: usize = 100;

crate::params::choices! {
    /// Which rule picks the content lines.
    enum Variant { Cluster = "cluster", Tm = "tm" }
}

/// What the derivative is taken of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RawDerivative(bool);

impl std::str::FromStr for RawDerivative {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<RawDerivative, String> {
        match s {
            "smoothed" => Ok(RawDerivative(false)),
            "raw" => Ok(RawDerivative(true)),
            _ => Err("smoothed or raw".into()),
        }
    }
}

/// A configured CETR extractor.
pub struct Cetr {
    sigma: f64,
    alpha: usize,
    k: usize,
    lambda: f64,
    max_line: u32,
    variant: Variant,
    raw_derivative: bool,
}

impl Cetr {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(Cetr {
            sigma: r.float("sigma")?.max(1e-3),
            alpha: r.int("alpha")?.max(1) as usize,
            k: r.int("K")?.clamp(2, MAX_K as i64) as usize,
            lambda: r.float("lambda")?,
            max_line: r.int("max_line")?.max(1) as u32,
            variant: r.choice::<Variant>("variant")?,
            raw_derivative: r.choice::<RawDerivative>("derivative")?.0,
        }))
    }
}

/// Reused buffers, one set per thread.
#[derive(Default)]
struct Scratch {
    /// Per line: the ratio, then smoothed.
    x: Vec<f64>,
    smooth: Vec<f64>,
    /// Per line: the derivative, then smoothed.
    g: Vec<f64>,
    g_smooth: Vec<f64>,
    /// Per line: its first word (canonical index) and one past its last.
    words: Vec<(u32, u32)>,
    /// Per line: its cluster.
    label: Vec<u8>,
    /// The lines off the origin: their points, line numbers and clusters.
    pts: Vec<(f64, f64)>,
    at: Vec<u32>,
    pt_label: Vec<u8>,
    /// Hamerly's bounds per point: on the distance to its centroid, and to any other.
    upper: Vec<f64>,
    lower: Vec<f64>,
    kernel: Vec<f64>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// SplitMix64: the k-means++ draws (fixed seed, no dependence on the thread or the run).
struct SplitMix(u64);

impl SplitMix {
    fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Gaussian smoothing of `x` into `out` with a kernel truncated at ⌈3σ⌉, renormalised at the edges.
fn gaussian(x: &[f64], sigma: f64, kernel: &mut Vec<f64>, out: &mut Vec<f64>) {
    let r = (3.0 * sigma).ceil() as usize;
    kernel.clear();
    kernel.extend((0..=r).map(|d| (-((d * d) as f64) / (2.0 * sigma * sigma)).exp()));
    out.clear();
    let n = x.len();
    for k in 0..n {
        let (lo, hi) = (k.saturating_sub(r), (k + r).min(n - 1));
        let (mut sum, mut weight) = (0.0, 0.0);
        for (j, xj) in x.iter().enumerate().take(hi + 1).skip(lo) {
            let w = kernel[j.abs_diff(k)];
            sum += w * xj;
            weight += w;
        }
        out.push(sum / weight);
    }
}

impl Cetr {
    /// The lines of the page: ratio and word range per line. A source line no longer than
    /// `max_line` is taken whole from the page's index; a longer one is wrapped token by token.
    fn lines(&self, doc: &Document, s: &mut Scratch) {
        s.x.clear();
        s.words.clear();
        let tokens = &doc.source.tokens;
        let ratio = |chars: u32, tags: u32| f64::from(chars) / f64::from(tags.max(1));
        for l in &doc.source.index.text_lines {
            if l.width <= self.max_line {
                s.x.push(ratio(l.chars, l.tags));
                s.words.push(l.words);
                continue;
            }
            let (mut col, mut chars, mut tags, mut first, mut next) = (0u32, 0u32, 0u32, l.words.0, l.words.0);
            for t in tokens[l.tokens.0 as usize..l.tokens.1 as usize].iter().filter(|t| !cetr_skips(t)) {
                let width = if t.kind == Kind::Space { 1 } else { t.chars };
                if col > 0 && col + width > self.max_line {
                    s.x.push(ratio(chars, tags));
                    s.words.push((first, next));
                    (col, chars, tags, first) = (0, 0, 0, next);
                }
                col += width;
                match t.kind {
                    Kind::Word => {
                        chars += t.chars;
                        next = t.word + 1;
                    }
                    Kind::Start | Kind::End => tags += 1,
                    _ => {}
                }
            }
            s.x.push(ratio(chars, tags));
            s.words.push((first, next));
        }
    }

    /// Marks the content lines (label > 0) by k-means with one centroid fixed at the origin.
    fn cluster(&self, s: &mut Scratch) {
        let n = s.x.len();
        let base = if self.raw_derivative { &s.x } else { &s.smooth };
        s.g.clear();
        for k in 0..n {
            let ahead = &base[(k + 1).min(n)..(k + 1 + self.alpha).min(n)];
            s.g.push(if ahead.is_empty() {
                0.0
            } else {
                (ahead.iter().sum::<f64>() / ahead.len() as f64 - base[k]).abs()
            });
        }
        gaussian(&s.g, self.sigma, &mut s.kernel, &mut s.g_smooth);
        // Lines exactly at the origin (markup runs) stay in its cluster whatever the other
        // centroids do, and k-means++ never draws them: only the others take part.
        s.pts.clear();
        s.at.clear();
        for i in 0..n {
            let p = (s.smooth[i], s.g_smooth[i]);
            if p != (0.0, 0.0) {
                s.pts.push(p);
                s.at.push(i as u32);
            }
        }
        s.label.clear();
        s.label.resize(n, 0);
        let pts = &s.pts;
        if pts.is_empty() {
            return;
        }
        let dist = |p: (f64, f64), c: (f64, f64)| (p.0 - c.0).powi(2) + (p.1 - c.1).powi(2);
        // k-means++: the origin is the first centroid; the others by D² sampling.
        let mut centroids = [(0.0, 0.0); MAX_K];
        let mut k = 1;
        let mut rng = SplitMix(SEED);
        while k < self.k {
            let d2 = |p: (f64, f64)| centroids[..k].iter().map(|&c| dist(p, c)).fold(f64::INFINITY, f64::min);
            let total: f64 = pts.iter().map(|&p| d2(p)).sum();
            if total <= 0.0 {
                break;
            }
            let mut target = rng.next_f64() * total;
            let mut pick = pts.len() - 1;
            for (i, &p) in pts.iter().enumerate() {
                target -= d2(p);
                if target < 0.0 {
                    pick = i;
                    break;
                }
            }
            centroids[k] = pts[pick];
            k += 1;
        }
        // Lloyd iterations with Hamerly's bounds (exact): per point an upper bound on the
        // distance to its centroid and a lower bound on the distance to every other one; while
        // the first is below the second, the point keeps its cluster without a distance computed.
        let n_pts = pts.len();
        s.pt_label.clear();
        s.pt_label.resize(n_pts, u8::MAX);
        s.upper.clear();
        s.upper.resize(n_pts, f64::INFINITY);
        s.lower.clear();
        s.lower.resize(n_pts, 0.0);
        for iter in 0..MAX_ITER {
            let mut changed = false;
            for (i, &p) in pts.iter().enumerate() {
                if iter > 0 && s.upper[i] * (1.0 + 1e-9) + 1e-12 < s.lower[i] {
                    continue;
                }
                let (mut best, mut best_d, mut second) = (0, dist(p, centroids[0]), f64::INFINITY);
                for (c, &cen) in centroids[..k].iter().enumerate().skip(1) {
                    let d = dist(p, cen);
                    if d < best_d {
                        second = best_d;
                        (best, best_d) = (c, d);
                    } else {
                        second = second.min(d);
                    }
                }
                (s.upper[i], s.lower[i]) = (best_d.sqrt(), second.sqrt());
                if s.pt_label[i] != best as u8 {
                    s.pt_label[i] = best as u8;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
            let mut sums = [(0.0, 0.0, 0usize); MAX_K];
            for (i, &(a, b)) in pts.iter().enumerate() {
                let e = &mut sums[s.pt_label[i] as usize];
                (e.0, e.1, e.2) = (e.0 + a, e.1 + b, e.2 + 1);
            }
            let mut moved = [0.0f64; MAX_K];
            for (c, e) in sums[..k].iter().enumerate().skip(1) {
                if e.2 > 0 {
                    let new = (e.0 / e.2 as f64, e.1 / e.2 as f64);
                    moved[c] = dist(new, centroids[c]).sqrt();
                    centroids[c] = new;
                }
            }
            let most = moved.iter().copied().fold(0.0, f64::max);
            for i in 0..n_pts {
                s.upper[i] += moved[s.pt_label[i] as usize];
                s.lower[i] -= most;
            }
        }
        for (i, &line) in s.at.iter().enumerate() {
            s.label[line as usize] = s.pt_label[i];
        }
    }
}

impl Extractor for Cetr {
    fn view(&self) -> View {
        View::Source
    }

    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::SOURCE_INDEX
    }

    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        SCRATCH.with(|cell| {
            let s = &mut *cell.borrow_mut();
            self.lines(doc, s);
            if s.x.is_empty() {
                return;
            }
            gaussian(&s.x, self.sigma, &mut s.kernel, &mut s.smooth);
            let content = |s: &Scratch, i: usize| match self.variant {
                Variant::Tm => s.label[i] == 1,
                Variant::Cluster => s.label[i] > 0,
            };
            if self.variant == Variant::Tm {
                let n = s.smooth.len() as f64;
                let mean = s.smooth.iter().sum::<f64>() / n;
                let std = (s.smooth.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
                let threshold = self.lambda * std;
                s.label.clear();
                s.label.extend(s.smooth.iter().map(|&v| u8::from(v > threshold)));
            } else {
                self.cluster(s);
            }
            for i in 0..s.x.len() {
                if content(s, i) {
                    let (a, b) = s.words[i];
                    out.units.extend(a..b);
                }
            }
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;
    use super::*;

    /// A page laid out one element per source line, as hand-written and CMS pages are.
    fn page() -> String {
        let mut p = String::from(
            "<html>\n<head>\n<title>t</title>\n<script>\nvar a = 'lots of words in a script';\n</script>\n</head>\n<body>\n",
        );
        for item in ["Home", "News", "Sport", "Weather", "Contact", "Jobs"] {
            p += &format!("<li><a href=\"/{item}\">{item}</a></li>\n");
        }
        for i in 0..8 {
            p += &format!("The article line {i} holds a long run of plain words with <b>one</b> tag and goes on\n");
        }
        for item in ["Imprint", "Privacy", "Terms"] {
            p += &format!("<div class=\"foot\"><a href=\"/{item}\">{item}</a></div>\n");
        }
        p + "</body>\n</html>\n"
    }

    #[test]
    fn keeps_the_text_dense_lines() {
        for variant in ["cluster", "tm"] {
            let t = run("cetr", &[&format!("variant={variant}")], &page());
            assert!(t.contains("The article line 0") && t.contains("line 7 holds"), "{variant}: {t}");
            assert!(!t.contains("Home") && !t.contains("Imprint") && !t.contains("script"), "{variant}: {t}");
        }
        assert!(run("cetr", &["derivative=raw"], &page()).contains("line 4 holds"));
    }

    #[test]
    fn minified_pages_are_wrapped_into_lines() {
        // The same page on one source line: without wrapping it is a single line, all or nothing.
        let one = page().replace('\n', " ");
        let t = run("cetr", &["variant=tm", "lambda=0.5"], &one);
        assert!(t.contains("line 3 holds") && !t.contains("Weather"), "{t}");
        // max_line wraps before the token that crosses it; a tag is never split.
        let mut s = Scratch::default();
        let doc = Document::parse("<p>aaaa bbbb</p><b>cccc</b>");
        let c = |max_line: u32| Cetr {
            sigma: 1.0,
            alpha: 3,
            k: 3,
            lambda: 1.0,
            max_line,
            variant: Variant::Tm,
            raw_derivative: false,
        };
        c(200).lines(&doc, &mut s);
        assert_eq!(s.words, [(0, 3)]);
        c(12).lines(&doc, &mut s);
        assert_eq!(s.words, [(0, 2), (2, 3), (3, 3)]);
        assert_eq!(s.x, [8.0, 2.0, 0.0]);
    }

    #[test]
    fn gaussian_is_renormalised_at_the_edges() {
        let (mut k, mut out) = (Vec::new(), Vec::new());
        gaussian(&[2.0, 2.0, 2.0], 1.0, &mut k, &mut out);
        assert!(out.iter().all(|v| (v - 2.0).abs() < 1e-12));
        gaussian(&[0.0, 0.0, 9.0, 0.0, 0.0], 0.5, &mut k, &mut out);
        assert!(out[2] > out[1] && out[1] > 0.0 && (out[1] - out[3]).abs() < 1e-12);
    }

    #[test]
    fn the_same_setting_gives_the_same_extract_and_no_text_gives_nothing() {
        let p = page();
        assert_eq!(run("cetr", &["K=5"], &p), run("cetr", &["K=5"], &p));
        assert_eq!(run("cetr", &[], ""), "");
        assert_eq!(run("cetr", &[], "<html><body><hr><br></body></html>"), "");
        assert_eq!(run("cetr", &["variant=tm"], "<html><body>\n<div></div>\n</body></html>"), "");
    }
}
