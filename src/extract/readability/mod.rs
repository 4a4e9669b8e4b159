//! # readability
//!
//! Mozilla Readability's candidate scoring as the Python package `readability-lxml` 0.9 does it
//! (`Document.summary()`): paragraphs (`p`, `pre`, `td`, `blockquote`, and `div`s used as
//! paragraphs) of at least `min_length` characters score `1 + (commas + 1) + min(length /
//! length_unit, length_cap)`, added to their parent and, times `grandparent_share`, to their
//! grandparent; a candidate starts from its tag bonus and its class/id weight (± `class_weight`
//! per attribute matching the positive or negative name patterns) and ends multiplied by `1 −
//! link_penalty × link density`. The best candidate and those of its siblings that score at
//! least `max(sibling_min, best × sibling_ratio)` (or are link-poor paragraphs) form the
//! article, which is then sanitised: headings with a negative weight or many links, forms, and
//! (`clean_conditionally`) tables, lists, `div`s and sections by their weight, score, link
//! density, images, inputs and length. The first pass removes unlikely candidates (class or id
//! such as `sidebar`, `comment`); when it finds nothing or an article shorter than
//! `retry_length` characters of HTML, a lenient pass keeps them.
//!
//! ## References
//! Arc90 Readability (2009) and Mozilla Readability; the reference implementation is the
//! Python package `readability-lxml` 0.9 (`buriy/python-readability`).
//!
//! ## Parameters
//! `class_weight` (25), `length_unit` (100), `length_cap` (3), `grandparent_share` (0.5),
//! `link_penalty` (1), `sibling_ratio` (0.2), `sibling_min` (10), `min_length` (25),
//! `retry_length` (250), `unlikely_patterns`, `positive_patterns`, `negative_patterns`,
//! `clean_conditionally`, `body_fallback` (all true).
//!
//! ## Interpretation
//! The tree, the pattern facts and every text length, link length, comma and element count are
//! computed once per page at parse time (`tree.rs`), for both passes. Included
//! from readability-lxml 0.9 beyond Arc90's scorer: `itemprop=articleBody`, nested `<article>`
//! and `<main>` candidates, the `h2` preamble, the merging of article segments split across
//! containers (they join the article in document order rather than inside the best candidate)
//! and editorial leads. Left out: the semantic `<article>` search when the best candidate lies
//! in a `form`, `aside` or `nav`, table-of-contents lists and quote leads kept from cleaning, and
//! the rescue of an empty element between long siblings. Text lengths join text nodes with one
//! separator (lxml keeps the page's whitespace). With no candidate at all, readability-lxml returns the sanitised
//! `body` (`body_fallback: true`); with `false`, the extract is empty.

pub mod tree;

use super::Extractor;
use crate::document::parse::NONE;
use crate::document::{Document, Needs, Selection, View};
use crate::error::Result;
use crate::params::SettingReader;
use std::cell::RefCell;
use tree::{
    self as rd, ARTICLE_BODY, CLASS_NEG, CLASS_POS, EDITORIAL, ID_NEG, ID_POS, RdDom, RdView, Sums, Tree, kind,
    link_density, text_len,
};

/// A configured readability scorer.
pub struct Readability {
    class_weight: f64,
    length_unit: f64,
    length_cap: f64,
    grandparent_share: f64,
    link_penalty: f64,
    sibling_ratio: f64,
    sibling_min: f64,
    min_length: u32,
    retry_length: u32,
    unlikely_patterns: bool,
    positive_patterns: bool,
    negative_patterns: bool,
    clean_conditionally: bool,
    body_fallback: bool,
}

/// Per-thread buffers of one extraction.
#[derive(Default)]
struct Scratch {
    score: Vec<f64>,
    cand: Vec<bool>,
    order: Vec<u32>,
    dead: Vec<bool>,
    removed: Vec<u32>,
    roots: Vec<u32>,
    group: Vec<u32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl Readability {
    /// Registry constructor.
    pub fn build(r: &mut SettingReader) -> Result<Box<dyn Extractor>> {
        Ok(Box::new(Readability {
            class_weight: r.float("class_weight")?,
            length_unit: r.float("length_unit")?.max(1e-9),
            length_cap: r.float("length_cap")?,
            grandparent_share: r.float("grandparent_share")?,
            link_penalty: r.float("link_penalty")?,
            sibling_ratio: r.float("sibling_ratio")?,
            sibling_min: r.float("sibling_min")?,
            min_length: r.int("min_length")?.max(0) as u32,
            retry_length: r.int("retry_length")?.max(0) as u32,
            unlikely_patterns: r.bool("unlikely_patterns")?,
            positive_patterns: r.bool("positive_patterns")?,
            negative_patterns: r.bool("negative_patterns")?,
            clean_conditionally: r.bool("clean_conditionally")?,
            body_fallback: r.bool("body_fallback")?,
        }))
    }

    /// readability-lxml's `class_weight`.
    fn weight(&self, flags: u16) -> f64 {
        let mut w = 0.0;
        if self.positive_patterns {
            w += self.class_weight * f64::from(u8::from(flags & CLASS_POS != 0) + u8::from(flags & ID_POS != 0));
        }
        if self.negative_patterns {
            w -= self.class_weight * f64::from(u8::from(flags & CLASS_NEG != 0) + u8::from(flags & ID_NEG != 0));
        }
        w
    }

    /// Scores the paragraphs into their parents and grandparents (`score_paragraphs`).
    fn score(&self, v: &RdView, s: &mut Scratch) {
        let touch = |s: &mut Scratch, x: u32| {
            let i = x as usize;
            if !s.cand[i] {
                s.cand[i] = true;
                s.score[i] = self.weight(v.nodes[i].flags) + rd::tag_bonus(v.nodes[i].kind);
                s.order.push(x);
            }
        };
        for &p in &v.paras {
            let sums = v.sums(p as usize);
            let len = text_len(&sums);
            if len < self.min_length {
                continue;
            }
            let parent = v.nodes[p as usize].parent;
            if parent == NONE {
                continue;
            }
            let gp = v.nodes[parent as usize].parent;
            touch(s, parent);
            if gp != NONE {
                touch(s, gp);
            }
            let cs = 1.0 + f64::from(sums.commas + 1) + (f64::from(len) / self.length_unit).min(self.length_cap);
            s.score[parent as usize] += cs;
            if gp != NONE {
                s.score[gp as usize] += cs * self.grandparent_share;
            }
        }
        for k in 0..s.order.len() {
            let c = s.order[k] as usize;
            s.score[c] *= 1.0 - self.link_penalty * link_density(&v.sums(c));
        }
    }

    /// The candidate of highest score among those `keep` accepts (the first on ties, as
    /// Python's stable sort).
    fn top(s: &Scratch, mut keep: impl FnMut(usize) -> bool) -> Option<usize> {
        let mut best: Option<usize> = None;
        for &c in &s.order {
            let c = c as usize;
            if keep(c) && best.is_none_or(|b| s.score[c] > s.score[b]) {
                best = Some(c);
            }
        }
        best
    }

    /// `select_best_candidate` and `get_semantic_main_candidate`.
    fn best(&self, v: &RdView, s: &mut Scratch) -> Option<usize> {
        let mut best = Self::top(s, |_| true)?;
        if let Some(b) = Self::top(s, |c| v.nodes[c].flags & ARTICLE_BODY != 0 && link_density(&v.sums(c)) <= 0.1) {
            best = b;
        }
        let (end, floor) = (v.nodes[best].end as usize, s.score[best] * 0.25);
        if let Some(b) = Self::top(s, |c| {
            c > best
                && c < end
                && v.nodes[c].kind == kind::ARTICLE
                && text_len(&v.sums(c)) >= 250
                && s.score[c] >= floor
        }) {
            best = b;
        }
        let (mut a, mut main, mut article) = (v.nodes[best].parent, NONE, v.nodes[best].kind == kind::ARTICLE);
        while a != NONE {
            let k = v.nodes[a as usize].kind;
            article |= k == kind::ARTICLE;
            if k == kind::MAIN && main == NONE {
                main = a;
            }
            a = v.nodes[a as usize].parent;
        }
        if !article && main != NONE {
            let (m, ms) = (main as usize, v.sums(main as usize));
            if text_len(&ms) >= 500.max(2 * text_len(&v.sums(best))) && link_density(&ms) <= 0.15 {
                if !s.cand[m] {
                    s.cand[m] = true;
                    s.order.push(main);
                }
                s.score[m] = self.weight(v.nodes[m].flags) + rd::tag_bonus(v.nodes[m].kind);
                best = m;
            }
        }
        Some(best)
    }

    /// The best candidate and the siblings that join it (`get_article`), into `s.roots`.
    fn article(&self, v: &RdView, attrs: &RdDom, s: &mut Scratch, best: usize) {
        let threshold = self.sibling_min.max(s.score[best] * self.sibling_ratio);
        let parent = v.nodes[best].parent;
        s.roots.clear();
        if parent == NONE {
            s.roots.push(best as u32);
            return;
        }
        // The heading preamble: an `h2` (or a holder of one) just before the best candidate.
        let mut prev = NONE;
        let mut c = parent as usize + 1;
        while c < best {
            prev = c as u32;
            c = v.nodes[c].end as usize;
        }
        if prev != NONE && !s.cand[prev as usize] {
            let p = prev as usize;
            let sums = v.sums(p);
            if (v.nodes[p].kind == kind::H2 || v.counts(p)[6] > 0)
                && text_len(&sums) >= self.min_length
                && link_density(&sums) <= 0.2
            {
                s.cand[p] = true;
                s.score[p] = threshold;
                s.order.push(prev);
            }
        }
        let end = v.nodes[parent as usize].end as usize;
        let mut c = parent as usize + 1;
        while c < end {
            let n = &v.nodes[c];
            let mut append = c == best || (s.cand[c] && s.score[c] >= threshold);
            if !append && n.kind == kind::P {
                let sums = v.sums(c);
                let ld = link_density(&sums);
                append = (n.lead_len > 80 && ld < 0.25) || (n.lead_len <= 80 && sums.link == 0 && n.lead_period);
            }
            if append {
                s.roots.push(c as u32);
            }
            c = n.end as usize;
        }
        // Article segments and editorial leads move into the best candidate: they join the
        // article where they are (document order) unless a root already holds them.
        let mut extra = std::mem::take(&mut s.group);
        extra.clear();
        Self::merge_segments(v, attrs, s, best, threshold, &mut extra);
        Self::editorial_leads(v, best, &mut extra);
        for &x in &extra {
            let x = x as usize;
            if !s.roots.iter().any(|&r| (r as usize) <= x && x < v.nodes[r as usize].end as usize) {
                s.roots.push(x as u32);
            }
        }
        if !extra.is_empty() {
            s.roots.sort_unstable();
        }
        s.group = extra;
    }

    /// The nearest `article` or `main` ancestor of `i`.
    fn semantic_frame(v: &RdView, i: usize) -> u32 {
        let mut a = v.nodes[i].parent;
        while a != NONE && !matches!(v.nodes[a as usize].kind, kind::ARTICLE | kind::MAIN) {
            a = v.nodes[a as usize].parent;
        }
        a
    }

    fn inside(v: &RdView, i: usize, outer: usize) -> bool {
        outer < i && i < v.nodes[outer].end as usize
    }

    /// `merge_article_segments`: elements elsewhere in the article's frame that look like more
    /// of the best candidate (same tag, a shared positive class name, or the same classes in an
    /// `<article>`), into `out`.
    fn merge_segments(v: &RdView, attrs: &RdDom, s: &Scratch, best: usize, threshold: f64, out: &mut Vec<u32>) {
        let classes = |i: usize| {
            let (a, b) = v.nodes[i].classes;
            &attrs.tokens[a as usize..b as usize]
        };
        let best_classes = classes(best);
        let content: Vec<u32> = best_classes.iter().copied().filter(|&t| attrs.positive[t as usize]).collect();
        let mut frame = Self::semantic_frame(v, best);
        let best_article = v.nodes[best].kind == kind::ARTICLE;
        let neutral = content.is_empty()
            && !best_article
            && !best_classes.is_empty()
            && frame != NONE
            && v.nodes[frame as usize].kind == kind::ARTICLE;
        let seg_threshold = if neutral { 10f64.max(s.score[best] * 0.05) } else { threshold };
        if content.is_empty() && !best_article && !neutral {
            return;
        }
        let best_parent = v.nodes[best].parent;
        let parent_classes = if best_parent == NONE { &[][..] } else { classes(best_parent as usize) };
        let intersects = |a: &[u32], b: &[u32]| a.iter().any(|t| b.binary_search(t).is_ok());
        let matching = |e: usize| {
            if e == best || !s.cand[e] {
                return false;
            }
            let n = &v.nodes[e];
            let classless_article = content.is_empty() && n.kind == kind::ARTICLE;
            if (s.score[e] < seg_threshold && !classless_article)
                || n.parent == best_parent
                || n.tag != v.nodes[best].tag
            {
                return false;
            }
            if (!content.is_empty() && !intersects(&content, classes(e))) || (neutral && classes(e) != best_classes) {
                return false;
            }
            if classless_article && (n.parent == NONE || !intersects(parent_classes, classes(n.parent as usize))) {
                return false;
            }
            link_density(&v.sums(e)) <= 0.2 && !Self::inside(v, best, e) && !Self::inside(v, e, best)
        };
        if frame == NONE {
            let mut a = v.nodes[best].parent;
            while a != NONE {
                let ai = a as usize;
                if v.nodes[ai].flags & (CLASS_POS | ID_POS) != 0
                    && s.order.iter().any(|&c| Self::inside(v, c as usize, ai) && matching(c as usize))
                {
                    frame = a;
                    break;
                }
                a = v.nodes[ai].parent;
            }
        }
        if frame == NONE {
            return;
        }
        let f = frame as usize;
        let mut j = f;
        while j < v.nodes[f].end as usize {
            if j != best && matching(j) {
                out.push(j as u32);
                j = v.nodes[j].end as usize;
            } else {
                j += 1;
            }
        }
    }

    /// `get_editorial_leads`: standfirsts and subheads before the best candidate in its
    /// `article` or `main`, into `out`.
    fn editorial_leads(v: &RdView, best: usize, out: &mut Vec<u32>) {
        let frame = Self::semantic_frame(v, best);
        if frame == NONE {
            return;
        }
        let mut j = frame as usize;
        while j < best {
            if Self::inside(v, best, j) || v.nodes[j].flags & EDITORIAL == 0 || link_density(&v.sums(j)) > 0.2 {
                j += 1;
                continue;
            }
            out.push(j as u32);
            j = v.nodes[j].end as usize;
        }
    }

    /// Node `i`'s text sums without its removed parts.
    fn live_sums(v: &RdView, s: &Scratch, i: usize) -> Sums {
        let mut sums = v.sums(i);
        let end = v.nodes[i].end as usize;
        for &r in &s.removed {
            let r = r as usize;
            if r > i && r < end {
                let x = v.sums(r);
                sums.len -= x.len;
                sums.link -= x.link;
                sums.commas -= x.commas;
            }
        }
        sums
    }

    /// Node `i`'s descendant counts without its removed parts.
    fn live_counts(v: &RdView, s: &Scratch, i: usize) -> [i64; 7] {
        let mut counts = v.counts(i).map(i64::from);
        let end = v.nodes[i].end as usize;
        for &r in &s.removed {
            let r = r as usize;
            if r > i && r < end {
                let x = v.counts(r);
                for k in 0..7 {
                    counts[k] -= i64::from(x[k]) + i64::from(rd::COUNTED[k] == v.nodes[r].kind);
                }
            }
        }
        counts
    }

    fn remove(v: &RdView, s: &mut Scratch, i: usize) {
        let end = v.nodes[i].end as usize;
        s.dead[i..end].iter_mut().for_each(|d| *d = true);
        s.removed.retain(|&r| (r as usize) < i || r as usize >= end);
        s.removed.push(i as u32);
    }

    /// The conditional cleaning's removal rules (`li` already less 100).
    fn cleans(&self, group: u8, weight: f64, [p, img, li, input, embed]: [i64; 5], sums: &Sums, limit: f64) -> bool {
        let (len, ld, min) = (i64::from(text_len(sums)), link_density(sums), i64::from(self.min_length));
        (p > 0 && img as f64 > 1.0 + p as f64 * 1.3)
            || (li > p && group != kind::UL)
            || (input as f64 > p as f64 / 3.0)
            || (len < min && img == 0)
            || (len < min && img > 2)
            || (weight < self.class_weight && ld > limit)
            || (weight >= self.class_weight && ld > 0.5)
            || (embed == 1 && len < 75)
            || embed > 1
            || len == 0
    }

    /// `sanitize`: removes headings, calls to action, forms and (conditionally) containers.
    fn sanitize(&self, v: &RdView, s: &mut Scratch) {
        let roots = std::mem::take(&mut s.roots);
        for &root in &roots {
            let root = root as usize;
            for j in root..v.nodes[root].end as usize {
                let k = v.nodes[j].kind;
                if s.dead[j] {
                    continue;
                }
                let drop = match k {
                    kind::H2 | kind::HEADING => {
                        self.weight(v.nodes[j].flags) < 0.0 || link_density(&Self::live_sums(v, s, j)) > 0.33
                    }
                    kind::P => v.nodes[j].cta && link_density(&Self::live_sums(v, s, j)) > 0.2,
                    kind::FORM | kind::TEXTAREA => true,
                    _ => false,
                };
                if drop {
                    Self::remove(v, s, j);
                }
            }
        }
        if self.clean_conditionally {
            for group in [kind::TABLE, kind::UL, kind::DIV, kind::ASIDE, kind::HEADER, kind::FOOTER, kind::SECTION] {
                s.group.clear();
                for &root in &roots {
                    let root = root as usize;
                    let mut j = root;
                    while j < v.nodes[root].end as usize {
                        if s.dead[j] {
                            j = v.nodes[j].end as usize;
                            continue;
                        }
                        if v.nodes[j].kind == group {
                            s.group.push(j as u32);
                        }
                        j += 1;
                    }
                }
                for g in (0..s.group.len()).rev() {
                    let j = s.group[g] as usize;
                    if s.dead[j] {
                        continue;
                    }
                    let n = &v.nodes[j];
                    let weight = self.weight(n.flags);
                    let score = if s.cand[j] { s.score[j] } else { 0.0 };
                    if weight + score < 0.0 {
                        Self::remove(v, s, j);
                        continue;
                    }
                    let sums = Self::live_sums(v, s, j);
                    if sums.commas >= 10 {
                        continue;
                    }
                    let [p, img, li, _a, embed, input, _h2] = Self::live_counts(v, s, j);
                    let root = roots.iter().rev().find(|&&r| r as usize <= j).map_or(0, |&r| r as usize);
                    let in_semantic = || {
                        let mut a = n.parent;
                        while a != NONE && a as usize >= root {
                            if matches!(v.nodes[a as usize].kind, kind::MAIN | kind::ARTICLE) {
                                return true;
                            }
                            a = v.nodes[a as usize].parent;
                        }
                        false
                    };
                    let limit = if matches!(group, kind::UL | kind::SECTION) && in_semantic() { 0.25 } else { 0.2 };
                    if self.cleans(group, weight, [p, img, li - 100, input, embed], &sums, limit) {
                        Self::remove(v, s, j);
                    }
                }
                if group == kind::DIV {
                    // The article's own wrapper `div` is cleaned too (last of the `div`s): weight
                    // and score 0, everything kept as its content.
                    let (mut sums, mut counts) = (Sums::default(), [0i64; 7]);
                    for &r in &roots {
                        let r = r as usize;
                        if s.dead[r] {
                            continue;
                        }
                        let x = Self::live_sums(v, s, r);
                        (sums.len, sums.link, sums.commas) =
                            (sums.len + x.len, sums.link + x.link, sums.commas + x.commas);
                        let c = Self::live_counts(v, s, r);
                        for k in 0..7 {
                            counts[k] += c[k] + i64::from(rd::COUNTED[k] == v.nodes[r].kind);
                        }
                    }
                    let [p, img, li, _a, embed, input, _h2] = counts;
                    if sums.commas < 10 && self.cleans(kind::DIV, 0.0, [p, img, li - 100, input, embed], &sums, 0.2) {
                        for &r in &roots {
                            if !s.dead[r as usize] {
                                Self::remove(v, s, r as usize);
                            }
                        }
                    }
                }
            }
        }
        s.roots = roots;
    }
}

impl Extractor for Readability {
    fn view(&self) -> View {
        View::Dom
    }

    fn needs(&self) -> Needs {
        Needs::fact(&tree::FACT)
    }

    /// A page parsed without the tree (no reader asked for it) gives an empty extract.
    fn extract(&self, doc: &Document, out: &mut Selection) -> super::Fallible {
        let Some(t) = doc.facts.get::<Tree>() else { return Ok(()) };
        SCRATCH.with(|cell| {
            let s = &mut *cell.borrow_mut();
            let mut ruthless = self.unlikely_patterns;
            loop {
                let v = &t.views[if ruthless { 0 } else { 1 }];
                let n = v.nodes.len();
                if n == 0 {
                    return;
                }
                s.score.clear();
                s.score.resize(n, 0.0);
                s.cand.clear();
                s.cand.resize(n, false);
                s.dead.clear();
                s.dead.resize(n, false);
                s.order.clear();
                s.removed.clear();
                self.score(v, s);
                match self.best(v, s) {
                    Some(best) => self.article(v, &t.classes, s, best),
                    None if ruthless => {
                        ruthless = false;
                        continue;
                    }
                    None if self.body_fallback => {
                        s.roots.clear();
                        s.roots.push(if v.body == NONE { 0 } else { v.body });
                    }
                    None => return,
                }
                self.sanitize(v, s);
                // The article's HTML length: <html><body><div>…</div></body></html>, tags and text.
                let mut html = 37usize;
                let start = out.units.len();
                for &root in &s.roots {
                    let root = root as usize;
                    let mut j = root;
                    while j < v.nodes[root].end as usize {
                        if s.dead[j] {
                            j = v.nodes[j].end as usize;
                            continue;
                        }
                        html += usize::from(v.nodes[j].markup);
                        j += 1;
                    }
                    let (a, b) = v.urange(root);
                    for k in a..b {
                        if !s.dead[v.owner[k] as usize] {
                            html += (v.len[k + 1] - v.len[k]) as usize;
                            out.units.push(v.units[k]);
                        }
                    }
                }
                if ruthless && html < self.retry_length as usize {
                    out.units.truncate(start);
                    ruthless = false;
                    continue;
                }
                return;
            }
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testutil::run;

    const PROSE: &str = "The council met on Monday, and after a long debate, it was agreed that the new budget for the schools, the roads and the parks of the town would be approved by the end of this year.";

    fn article(n: usize) -> String {
        format!("<p>{PROSE}</p>").repeat(n)
    }

    // Every page's expected default output was checked against readability-lxml 0.9.

    #[test]
    fn a_comma_rich_article_beats_a_link_heavy_sidebar() {
        let links: String = (0..30)
            .map(|i| {
                format!("<p><a href=/s{i}>A long related story number {i}, with commas, and more, words here</a></p>")
            })
            .collect();
        let page = format!("<body><div id=wrap><div>{links}</div><div>{}</div></div></body>", article(3));
        let t = run("readability", &[], &page);
        assert!(t.contains("The council met") && !t.contains("related story"), "{t}");
        // Without the link-density penalty the long list of links wins.
        assert!(run("readability", &["link_penalty=0"], &page).contains("related story"));
    }

    #[test]
    fn a_negative_class_or_id_demotes() {
        let page = format!(
            "<body><div id=wrap><div class=comment-area>{}<p>Said by a reader in the thread below.</p></div><div>{}</div></div></body>",
            article(4),
            article(3)
        );
        assert!(!run("readability", &[], &page).contains("Said by"), "removed as an unlikely candidate");
        // Kept in the lenient pass, its negative weight still drops it from the article.
        assert!(!run("readability", &["unlikely_patterns=false"], &page).contains("Said by"));
        let t = run("readability", &["unlikely_patterns=false", "negative_patterns=false"], &page);
        assert!(t.contains("Said by"), "{t}");
    }

    #[test]
    fn a_positive_class_or_id_promotes() {
        let page = format!(
            "<body><div id=wrap><div>{}<p>Only in the first one, which is longer.</p></div><div class=article-body>{}</div></div></body>",
            article(4),
            article(3)
        );
        assert!(!run("readability", &["sibling_ratio=0.9"], &page).contains("Only in the first one"));
        assert!(run("readability", &["sibling_ratio=0.9", "class_weight=0"], &page).contains("Only in the first one"));
        assert!(
            run("readability", &["sibling_ratio=0.9", "positive_patterns=false"], &page).contains("Only in the first")
        );
    }

    #[test]
    fn unlikely_candidates_are_removed_in_the_first_pass() {
        let page = format!(
            "<body><div id=wrap>{}<div class=extra-info><p>{PROSE} Extra words.</p></div></div></body>",
            article(3)
        );
        assert!(!run("readability", &[], &page).contains("Extra words"));
        assert!(run("readability", &["unlikely_patterns=false"], &page).contains("Extra words"));
    }

    #[test]
    fn siblings_above_the_threshold_join_the_best_candidate() {
        let page = format!(
            "<body><div id=wrap><div>{}</div><div><p>{PROSE} Second part.</p><p>{PROSE}</p></div><div><p>Menu</p></div></div></body>",
            article(4)
        );
        let t = run("readability", &[], &page);
        assert!(t.contains("Second part") && !t.contains("Menu"), "{t}");
        assert!(!run("readability", &["sibling_ratio=0.9"], &page).contains("Second part"));
        // A short link-free sentence beside the best candidate joins it; a fragment does not.
        let page = format!(
            "<body><div id=wrap><div>{}</div><p>Short and final.</p><p>no period here</p></div></body>",
            article(3)
        );
        let t = run("readability", &[], &page);
        assert!(t.contains("Short and final.") && !t.contains("no period"), "{t}");
    }

    #[test]
    fn article_segments_split_across_containers_are_merged() {
        // The best candidate's positive class name recurs on a segment under another parent.
        let page = format!(
            "<body><div id=wrap><article><div class=post-content><p>{PROSE}</p><p>{PROSE}</p></div>\
             <aside><p>Advertisement here, with enough text to count.</p></aside><div class=x><div class=y>\
             <div class=post-content><p>{PROSE} Second segment.</p><p>{PROSE}</p></div></div></div></article></div></body>"
        );
        let t = run("readability", &[], &page);
        assert_eq!(t.matches("The council").count(), 4, "{t}");
        assert!(!t.contains("Advertisement"), "{t}");
    }

    #[test]
    fn misused_divs_become_paragraphs_and_loose_text_is_wrapped() {
        let page = format!(
            "<body><div id=story><div>{PROSE}</div>{PROSE}<br>{PROSE} <b>bold</b> tail<br><div>{PROSE}</div></div></body>"
        );
        let t = run("readability", &[], &page);
        assert!(t.contains("bold tail"), "{t}");
        assert_eq!(t.matches("The council").count(), 4, "{t}");
    }

    #[test]
    fn a_short_article_is_retried_without_removing_unlikely_candidates() {
        let page = format!(
            "<body><div class=extra>{}</div><div><p>A paragraph that is long enough to count.</p></div></body>",
            article(2)
        );
        let t = run("readability", &[], &page);
        assert!(t.contains("The council met") && t.contains("long enough"), "retried: {t}");
        let t = run("readability", &["retry_length=0"], &page);
        assert!(!t.contains("The council met") && t.contains("long enough"), "{t}");
    }

    #[test]
    fn the_article_wrapper_is_cleaned_too() {
        // The best candidate's text is short and comma-free: readability-lxml's conditional
        // cleaning removes its own output `div`, and the extract is empty.
        let page = format!("<body><div class=comments><p>{PROSE}</p></div><p>Tiny.</p></body>");
        assert_eq!(run("readability", &[], &page), "");
        assert!(run("readability", &["clean_conditionally=false"], &page).contains("Tiny."));
    }

    #[test]
    fn without_candidates_the_body_or_nothing() {
        let page = format!("<body><div id=wrap>{}</div></body>", article(2));
        assert!(run("readability", &["min_length=200"], &page).contains("The council"));
        assert_eq!(run("readability", &["min_length=200", "body_fallback=false"], &page), "");
    }

    #[test]
    fn a_page_without_candidates_gives_an_empty_extract() {
        assert_eq!(run("readability", &[], ""), "");
        let control = "<select><option>only a control</option></select>";
        assert_eq!(run("readability", &["body_fallback=false"], control), "");
        assert_eq!(run("readability", &[], control), "", "the body is cleaned away: too short, no image");
    }
}
