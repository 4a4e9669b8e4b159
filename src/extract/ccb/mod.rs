//! # Content Code Blurring (CCB, ACCB, TCCB)
//!
//! The main text is a long, homogeneously formatted region of the source. Every element of the
//! source is code (0) or content (1); the vector is blurred several times and the content whose
//! blurred value reaches the threshold is kept. CCB works on characters, ACCB on characters with
//! the `<a>` tags left out (so the long `href` of an inline link does not cut the text in two),
//! TCCB on tokens (a tag is one element, whatever its length).
//!
//! ## References
//! T. Gottron, *Content Code Blurring: A New Approach to Content Extraction*, DEXA 2008
//! workshops (TIR), pp. 29–33, doi:10.1109/DEXA.2008.43; T. Gottron, *An Evolutionary Approach
//! to Automatically Optimise Web Content Extraction*, 2009; J. Bevendorff et al., *An Empirical
//! Comparison of Web Content Extraction Algorithms*, SIGIR 2023, §2.1 (the code/content vector,
//! "successively smoothed").
//!
//! ## Parameters
//! - `r`: blurring range in vector elements (ACCB/CCB 40 characters, TCCB 25 tokens);
//! - `t`: threshold on the blurred content-code ratio (0.75);
//! - `sigma_ratio`: Gaussian sigma as a share of `r` (1/3, interpretation);
//! - `passes`: blurring passes (3, interpretation);
//! - `kernel`: `gaussian` (`exp(-d²/2σ²)` truncated at ±r, renormalised at the edges) or `box`
//!   (moving average of radius r, renormalised at the edges, O(n) per pass whatever r) (D.1.2);
//! - `relative`: keep where the blurred value is ≥ t × the page's largest blurred value (D.1.3);
//! - `ignore_anchor_tags` (TCCB only): skip `<a>`/`</a>` tokens as ACCB skips their characters.
//!
//! ## Interpretation
//! `algorithms.md` §1.2–1.6 with corrections D.1.1–D.1.3.
//! - Vector (§1.2): a tag or opaque segment (comment, script/style/title body, everything in the
//!   head) gives one 0 per source character; a word one 1 per decoded character (an entity is one
//!   character); a whitespace run inside a text segment one 1; whitespace between tags nothing.
//!   ACCB drops every `a` tag, with or without `href`. TCCB: one 0 per tag or opaque segment, one
//!   1 per word, whitespace nothing.
//! - Blur (§1.3, `blur.rs`): `passes` passes of the renormalised truncated kernel. The range is clipped to
//!   `N − 1` (equivalent: no neighbour lies further away); σ always comes from the configured r.
//! - Extract (§1.4): a word is kept when at least half of its characters (TCCB: the word token)
//!   have a blurred value ≥ t. The threshold is inclusive.
//! - Edge cases (§1.6): no words → empty; no tags → everything (every value is 1); `t` above every
//!   value → empty.

mod blur;

use super::Extractor;
use crate::document::{Document, Kind, Selection, SrcToken, View};
use crate::error::Result;
use crate::params::SettingReader;
use blur::{Blur, Scratch};
use std::cell::RefCell;

/// Which vector the blur runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Variant {
    Ccb,
    Accb,
    Tccb,
}

/// A configured content code blurring extractor (one of the three variants).
pub struct Ccb {
    variant: Variant,
    t: f64,
    relative: bool,
    skip_anchors: bool,
    /// The smoothing, configured once per setting (`blur.rs`).
    blur: Blur,
}

crate::params::choices! {
    /// The blur's kernel (the `kernel` option).
    pub enum Kernel {
        /// Gaussian weights with σ = `sigma_ratio` · r (Gottron 2008).
        Gaussian = "gaussian",
        /// Equal weights over ±r.
        Box = "box",
    }
}

/// The parameters of the CCB family, read once from a setting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CcbParams {
    /// Blur range `r` (at least 1).
    pub r: usize,
    /// Content threshold `t`.
    pub t: f64,
    /// Gaussian σ as a share of `r`.
    pub sigma_ratio: f64,
    /// Blur passes (at least 1).
    pub passes: usize,
    /// The kernel.
    pub kernel: Kernel,
    /// Threshold relative to the page's largest blurred value.
    pub relative: bool,
    /// Anchor tags are not code (always for ACCB, an option of TCCB, never for CCB).
    pub skip_anchors: bool,
}

impl CcbParams {
    fn read(r: &mut SettingReader, variant: Variant) -> Result<CcbParams> {
        Ok(CcbParams {
            r: r.int("r")?.max(1) as usize,
            t: r.float("t")?,
            sigma_ratio: r.float("sigma_ratio")?,
            passes: r.int("passes")?.max(1) as usize,
            kernel: r.choice("kernel")?,
            relative: r.bool("relative")?,
            skip_anchors: match variant {
                Variant::Tccb => r.bool("ignore_anchor_tags")?,
                Variant::Accb => true,
                Variant::Ccb => false,
            },
        })
    }
}

impl Ccb {
    fn build(r: &mut SettingReader, variant: Variant) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(Ccb::new(variant, &CcbParams::read(r, variant)?)))
    }

    fn new(variant: Variant, p: &CcbParams) -> Ccb {
        let blur = Blur::new(p.r, p.sigma_ratio, p.passes, p.kernel == Kernel::Box);
        Ccb { variant, t: p.t, relative: p.relative, skip_anchors: p.skip_anchors, blur }
    }

    /// Registry constructor for `ccb`.
    pub fn build_ccb(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Self::build(r, Variant::Ccb)
    }
    /// Registry constructor for `accb`.
    pub fn build_accb(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Self::build(r, Variant::Accb)
    }
    /// Registry constructor for `tccb`.
    pub fn build_tccb(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Self::build(r, Variant::Tccb)
    }

    /// Number of vector elements a token contributes (§1.2).
    #[inline]
    fn width(&self, tok: &SrcToken) -> usize {
        let tokens = self.variant == Variant::Tccb;
        match tok.kind {
            Kind::Start | Kind::End if self.skip_anchors && tok.tag.is_anchor() => 0,
            Kind::Start | Kind::End | Kind::Opaque | Kind::Word if tokens => 1,
            Kind::Start | Kind::End | Kind::Opaque | Kind::Word => tok.chars as usize,
            Kind::Space => usize::from(!tokens),
        }
    }

    /// Writes the content code vector of `tokens` into `v`.
    fn vector(&self, tokens: &[SrcToken], v: &mut Vec<f64>) {
        v.clear();
        for tok in tokens {
            let value = if matches!(tok.kind, Kind::Word | Kind::Space) { 1.0 } else { 0.0 };
            v.extend(std::iter::repeat_n(value, self.width(tok)));
        }
    }
}

/// Buffers above this many elements (32 MB each) are released after the call, so one huge page
/// does not pin its memory in every worker thread.
const KEEP_CAPACITY: usize = 1 << 22;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl Extractor for Ccb {
    fn view(&self) -> View {
        View::Source
    }

    fn needs(&self) -> crate::document::Needs {
        crate::document::Needs::SOURCE
    }

    fn extract(&self, doc: &Document, out: &mut Selection) -> crate::extract::Fallible {
        self.each_word(doc, |word, values, t| {
            let kept = values.iter().filter(|&&x| x >= t).count();
            // A word split by inline tags has several tokens: kept when any piece is.
            if 2 * kept >= values.len() && out.units.last() != Some(&word) {
                out.units.push(word);
            }
        });
        Ok(())
    }

    /// The soft vote: the blurred content ratio of each word as a confidence, rescaled
    /// piecewise-linearly so that the threshold lands on 0.5 (0 → 0, `t` → 0.5, the largest
    /// possible value → 1; with `relative`, `t` and the top are relative to the page's largest
    /// value). The ratio of a word is the one its keep rule reads: the value at least half of
    /// its elements reach (the lower median), so a word is kept exactly when its confidence is
    /// at least 0.5, and `t` stays meaningful in a soft vote.
    fn confidence(&self, doc: &Document, out: &mut Vec<f32>) -> bool {
        out.clear();
        out.resize(doc.source.words.len(), 0.0);
        let mut sorted = Vec::new();
        self.each_word(doc, |word, values, t| {
            sorted.clear();
            sorted.extend_from_slice(values);
            sorted.sort_unstable_by(|a, b| b.total_cmp(a));
            // The (⌈w/2⌉)-th largest value: kept ⇔ it reaches t.
            let x = sorted.get(values.len().div_ceil(2).max(1) - 1).copied().unwrap_or(1.0);
            let top = if self.relative { t / self.t.max(f64::MIN_POSITIVE) } else { 1.0 };
            if let Some(slot) = out.get_mut(word as usize) {
                *slot = slot.max(ramp(x, t, top) as f32); // the best piece of a split word
            }
        });
        true
    }
}

/// Maps `x` in [0, top] piecewise-linearly onto [0, 1] with the threshold `t` at 0.5 (values
/// at or above `t` give at least 0.5, values below less).
fn ramp(x: f64, t: f64, top: f64) -> f64 {
    let c = if x < t {
        // Below 0.5 also where x/t rounds to 1 (and in f32): such a word is dropped.
        (0.5 * x / t).min(0.4999)
    } else if top > t {
        0.5 + 0.5 * (x - t) / (top - t)
    } else {
        1.0
    };
    c.clamp(0.0, 1.0)
}

impl Ccb {
    /// Builds and blurs the page's content code vector and calls `word(word, values, t)` for
    /// each word with the blurred values of its elements and the effective threshold.
    fn each_word(&self, doc: &Document, mut word: impl FnMut(u32, &[f64], f64)) {
        if doc.source.words.is_empty() {
            return;
        }
        let tokens = &doc.source.tokens;
        SCRATCH.with(|cell| {
            let mut guard = cell.borrow_mut();
            let s = &mut *guard;
            self.vector(tokens, &mut s.a);
            self.blur.run(s);
            let ccr = &s.a;
            let t = if self.relative { self.t * ccr.iter().copied().fold(0.0, f64::max) } else { self.t };
            // Walk the tokens again: a word's elements are contiguous in the vector.
            let mut pos = 0;
            for tok in tokens {
                let w = self.width(tok);
                if tok.kind == Kind::Word {
                    word(tok.word, &ccr[pos..pos + w], t);
                }
                pos += w;
            }
            if s.a.capacity().max(s.b.capacity()) > KEEP_CAPACITY {
                *s = Scratch::default();
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;
    use super::*;

    #[test]
    fn vector_follows_section_1_2() {
        let doc = Document::parse("<body>\n  <p>ab &amp; <a href=x>c</a></p>\n</body>");
        let vec = |variant, skip| {
            let mut v = Vec::new();
            let p = CcbParams {
                r: 5,
                t: 0.5,
                sigma_ratio: 0.3,
                passes: 1,
                kernel: Kernel::Gaussian,
                relative: false,
                skip_anchors: skip,
            };
            Ccb::new(variant, &p).vector(&doc.source.tokens, &mut v);
            v.iter().map(|&x| if x > 0.5 { '1' } else { '0' }).collect::<String>()
        };
        // <body> <p> "ab" " " "&" " " <a href=x> "c" </a> </p> </body>; indentation is nothing.
        let ccb =
            "000000".to_string() + "000" + "11" + "1" + "1" + "1" + "0000000000" + "1" + "0000" + "0000" + "0000000";
        assert_eq!(vec(Variant::Ccb, false), ccb);
        assert_eq!(vec(Variant::Accb, true), "000000".to_string() + "000" + "11111" + "1" + "0000" + "0000000");
        assert_eq!(vec(Variant::Tccb, false), "001101000");
        assert_eq!(vec(Variant::Tccb, true), "0011100");
    }

    fn article() -> String {
        let para = "The regional parliament debated the proposal for most of the afternoon, and several members argued that the funding for rural bus lines had been cut too deeply over the last decade. ";
        let with_links = format!(
            "<p>{para}{para}According to the <a href=\"https://www.example-transport-authority.org/reports/2024/annual-report-rural-mobility.html\">annual report</a> the number of passengers fell sharply, while the <a href=\"https://www.example-ministry.gov/press/releases/2024/11/statement-on-bus-funding-and-rural-lines\">ministry</a> insisted that {para}</p>"
        );
        let sidebar: String =
            (0..12).map(|i| format!("<li><a href=\"/section/topic-{i}/index.html\">Topic {i}</a></li>")).collect();
        format!(
            "<html><head><title>x</title><style>.a{{}}</style></head><body><div id=nav><ul>{sidebar}</ul></div><div id=main>{with_links}<p>{para}{para}</p></div><div id=side><ul>{sidebar}</ul></div></body></html>"
        )
    }

    #[test]
    fn accb_and_tccb_keep_the_article_with_inline_links_and_drop_the_sidebar() {
        for (ex, sets) in [
            ("accb", &[][..]),
            ("tccb", &[][..]),
            ("tccb", &["ignore_anchor_tags=true"][..]),
            ("accb", &["kernel=box"][..]),
        ] {
            let t = run(ex, sets, &article());
            assert!(
                t.contains(
                    "According to the annual report the number of passengers fell sharply, while the ministry insisted"
                ),
                "{ex} {sets:?}: {t}"
            );
            assert!(t.contains("The regional parliament debated"), "{ex} {sets:?}: {t}");
            assert!(!t.contains("Topic"), "{ex} {sets:?}: {t}");
        }
    }

    #[test]
    fn ccb_fragments_at_long_link_attributes_where_accb_does_not() {
        let page = article();
        for sets in [&["r=10"][..], &["r=10", "kernel=box"][..]] {
            let ccb = run("ccb", sets, &page);
            let accb = run("accb", sets, &page);
            assert!(
                accb.contains(
                    "According to the annual report the number of passengers fell sharply, while the ministry insisted"
                ),
                "{accb}"
            );
            assert!(!ccb.contains("annual report"), "{ccb}");
            assert!(!ccb.contains("ministry insisted"), "{ccb}");
            assert!(ccb.contains("The regional parliament debated"), "{ccb}");
        }
    }

    #[test]
    fn relative_threshold_rescues_a_page_below_the_absolute_one() {
        // Short paragraphs between tags: no value reaches 0.75, but the densest text is kept
        // relative to the page's maximum.
        let page: String = (0..30).map(|i| format!("<div><span>item {i} text</span></div>")).collect();
        assert_eq!(run("tccb", &[], &page), "");
        assert!(run("tccb", &["relative=true"], &page).contains("item 15 text"));
    }

    #[test]
    fn edge_cases() {
        for ex in ["ccb", "accb", "tccb"] {
            assert_eq!(run(ex, &[], ""), "", "{ex}");
            assert_eq!(run(ex, &[], "<html><head><title>t</title></head><body><br><hr></body></html>"), "", "{ex}");
            assert_eq!(run(ex, &[], "only words and no tags at all"), "only words and no tags at all", "{ex}");
            assert_eq!(run(ex, &["kernel=box", "r=150"], "a b"), "a b", "{ex}");
            assert_eq!(run(ex, &["t=0.99"], "<div><a href=x>a</a></div><p>b</p>"), "", "{ex}");
        }
        let rel = run("tccb", &["relative=true", "t=0.99"], &article());
        assert!(!rel.is_empty());
    }

    #[test]
    fn the_soft_confidence_reaches_one_half_exactly_where_a_word_is_kept() {
        let doc = Document::parse(&article());
        for (ex, sets) in
            [("ccb", &["r=10"][..]), ("accb", &[][..]), ("tccb", &[][..]), ("tccb", &["relative=true", "t=0.5"][..])]
        {
            let e = super::super::testutil::with(ex, sets);
            let mut sel = Selection::new(e.view());
            e.extract(&doc, &mut sel).unwrap();
            let keep = doc.mask(&sel);
            let mut c = Vec::new();
            assert!(e.confidence(&doc, &mut c));
            assert_eq!(c.len(), keep.len());
            assert!(keep.iter().any(|&k| k) && keep.iter().any(|&k| !k), "{ex}: the page has both");
            for (i, (&k, &x)) in keep.iter().zip(&c).enumerate() {
                assert!((0.0..=1.0).contains(&x), "{ex} {i}: {x}");
                assert_eq!(k, x >= 0.5, "{ex} {sets:?} word {i} ({}): {x}", doc.source.words.get(i));
            }
            // Graded, not 0/1: the sidebar is surer boilerplate than the article's edge.
            assert!(c.iter().any(|&x| x > 0.01 && x < 0.49) || c.iter().any(|&x| x > 0.51 && x < 0.99), "{ex}");
        }
        assert!((ramp(0.375, 0.75, 1.0) - 0.25).abs() < 1e-12);
        assert!((ramp(0.875, 0.75, 1.0) - 0.75).abs() < 1e-12);
    }

    #[test]
    fn an_option_value_the_family_does_not_know_is_named() {
        let space = crate::extract::space("accb").unwrap();
        let mut s = space.defaults();
        if let Some(v) = s.values.iter_mut().find(|(n, _)| n == "kernel") {
            v.1 = crate::params::Value::Cat("triangle".into());
        }
        let e = crate::extract::build(&crate::extract::Engine::default(), &s).err().unwrap();
        assert_eq!(e.message, "parameter 'kernel' must be gaussian or box, got triangle");
    }
}
