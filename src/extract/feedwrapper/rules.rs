//! Text matching and rules of the entropy-based feed wrapper (`blogs.md` §13.3–§13.6,
//! Gkotsis et al. 2014): Jaro–Winkler, the content matchers, filters pooled into rules ranked by
//! gain (`paper`: `G = −f²·log₂ f`; `support`: `G = f`), ties broken classes before ids before
//! paths, then by value. Imports from the crate: `params` (its closed sets).

/// Which Jaro window: Jaro's (`⌊max/2⌋ − 1`) or the paper's text (`⌊min/2⌋`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// `⌊max(|a|,|b|)/2⌋ − 1`.
    Standard,
    /// `⌊min(|a|,|b|)/2⌋`.
    Paper,
}

/// The Jaro similarity of two strings (characters, not bytes).
pub fn jaro(a: &str, b: &str, window: Window) -> f64 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    jaro_chars(&a, &b, window)
}

fn jaro_chars(a: &[char], b: &[char], window: Window) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let w = match window {
        Window::Standard => (a.len().max(b.len()) / 2).saturating_sub(1),
        Window::Paper => a.len().min(b.len()) / 2,
    };
    let mut used = vec![false; b.len()];
    let mut ma = Vec::new();
    for (i, &c) in a.iter().enumerate() {
        let lo = i.saturating_sub(w);
        let hi = (i + w + 1).min(b.len());
        if let Some(j) = (lo..hi).find(|&j| !used[j] && b[j] == c) {
            used[j] = true;
            ma.push(c);
        }
    }
    let c = ma.len();
    if c == 0 {
        return 0.0;
    }
    let mb = b.iter().zip(&used).filter(|(_, u)| **u).map(|(c, _)| *c);
    let half_t = ma.iter().zip(mb).filter(|(x, y)| *x != y).count() as f64 / 2.0;
    let c = c as f64;
    (c / a.len() as f64 + c / b.len() as f64 + (c - half_t) / c) / 3.0
}

/// Jaro–Winkler: `jaro + ℓ·0.1·(1 − jaro)`, `ℓ` the common prefix (at most 4).
pub fn jaro_winkler(a: &str, b: &str, window: Window) -> f64 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let j = jaro_chars(&a, &b, window);
    let l = a.iter().zip(&b).take(4).take_while(|(x, y)| x == y).count() as f64;
    j + l * 0.1 * (1.0 - j)
}

/// Normalises a value for matching: whitespace collapsed, lower case, trimmed.
pub fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// The length of the longest common subsequence of two word sequences.
pub fn lcs_len(a: &[&str], b: &[&str]) -> usize {
    let mut prev = vec![0usize; b.len() + 1];
    let mut cur = vec![0usize; b.len() + 1];
    for x in a {
        for (j, y) in b.iter().enumerate() {
            cur[j + 1] = if x == y { prev[j] + 1 } else { prev[j + 1].max(cur[j]) };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Sørensen–Dice of the character-bigram sets of two strings.
pub fn dice(a: &str, b: &str) -> f64 {
    let grams = |s: &str| {
        let c: Vec<char> = s.chars().collect();
        c.windows(2).map(|w| (w[0], w[1])).collect::<std::collections::HashSet<_>>()
    };
    let (x, y) = (grams(a), grams(b));
    if x.is_empty() && y.is_empty() {
        return if a == b { 1.0 } else { 0.0 };
    }
    2.0 * x.intersection(&y).count() as f64 / (x.len() + y.len()) as f64
}

/// The attribute a rule tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Attr {
    /// The classes chain.
    Classes,
    /// The ids chain.
    Ids,
    /// The absolute path.
    Path,
}

impl Attr {
    /// Its name in wrapper files (`classes`, `ids`, `path`).
    pub fn name(self) -> &'static str {
        match self {
            Attr::Classes => "classes",
            Attr::Ids => "ids",
            Attr::Path => "path",
        }
    }
    /// Every attribute, in tie-break order.
    pub const ALL: [Attr; 3] = [Attr::Classes, Attr::Ids, Attr::Path];
}

crate::params::choices! {
    /// How rules are ranked.
    pub enum Gain {
        /// The paper's formula `−f²·log₂ f` (0 at f = 1: §13.6's anomaly).
        Paper = "paper",
        /// The share of filters holding the value, `f`.
        Support = "support",
    }
}

impl Gain {
    /// The gain of a value held by a share `f` of the filters.
    pub fn of(self, f: f64) -> f64 {
        match self {
            Gain::Paper if f > 0.0 => -f * f * f.log2(),
            Gain::Paper => 0.0,
            Gain::Support => f,
        }
    }
}

/// One filter: a match's three attribute values (`None`: null, never a rule).
pub type Filter<V> = [Option<V>; 3];

/// A ranked rule: attribute, value, gain and how many filters hold the value.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule<V> {
    /// What it tests.
    pub attr: Attr,
    /// The value it selects.
    pub value: V,
    /// Its gain.
    pub gain: f64,
    /// Filters holding the value.
    pub support: usize,
}

/// The rules of a multiset of filters, ranked: gain descending (compared rounded to 1e-9), then
/// classes before ids before paths (the paper's footnote 8), then the value's order; rules below
/// `min_gain` are dropped. Null values never become rules but count in `n` (each its own value).
pub fn rank<V: Ord + Clone>(filters: &[Filter<V>], gain: Gain, min_gain: f64) -> Vec<Rule<V>> {
    let n = filters.len();
    if n == 0 {
        return Vec::new();
    }
    let mut counts: std::collections::BTreeMap<(Attr, V), usize> = Default::default();
    for f in filters {
        for (k, a) in Attr::ALL.iter().enumerate() {
            if let Some(v) = &f[k] {
                *counts.entry((*a, v.clone())).or_default() += 1;
            }
        }
    }
    let mut rules: Vec<Rule<V>> = counts
        .into_iter()
        .map(|((attr, value), c)| Rule { attr, value, gain: gain.of(c as f64 / n as f64), support: c })
        .filter(|r| r.gain >= min_gain)
        .collect();
    let key = |g: f64| (g * 1e9).round() as i64;
    rules.sort_by(|x, y| key(y.gain).cmp(&key(x.gain)).then(x.attr.cmp(&y.attr)).then_with(|| x.value.cmp(&y.value)));
    rules
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jaro_winkler_standard_pairs() {
        for w in [Window::Standard, Window::Paper] {
            assert_eq!(format!("{:.4}", jaro("martha", "marhta", w)), "0.9444");
            assert_eq!(format!("{:.4}", jaro_winkler("martha", "marhta", w)), "0.9611");
            assert_eq!(format!("{:.4}", jaro_winkler("dwayne", "duane", w)), "0.8400");
        }
        assert_eq!(format!("{:.4}", jaro_winkler("dixon", "dicksonx", Window::Standard)), "0.8133");
        let eq = |x: f64, y: f64| (x - y).abs() < 1e-12;
        assert!(eq(jaro_winkler("", "", Window::Standard), 1.0));
        assert!(eq(jaro_winkler("abc", "", Window::Standard), 0.0));
        assert!(eq(jaro_winkler("same", "same", Window::Standard), 1.0));
    }

    #[test]
    fn table_1_gains_and_rule_order() {
        // (ids, classes, path) of the paper's five filters; as [classes, ids, path].
        let f =
            |id: Option<&str>, css: &str, p: &str| [Some(css.to_string()), id.map(String::from), Some(p.to_string())];
        let filters = vec![
            f(None, "css1", "p1"),
            f(Some("id1"), "css1", "p1"),
            f(Some("id1"), "css1", "p2"),
            f(None, "css2", "p2"),
            f(None, "css2", "p3"),
        ];
        let g3 = |f: f64| format!("{:.3}", Gain::Paper.of(f));
        assert_eq!([g3(0.2), g3(0.4), g3(0.6)], ["0.093", "0.212", "0.265"], "printed 0.09, 0.21, 0.27");
        let rules = rank(&filters, Gain::Paper, 0.0);
        let got: Vec<(&str, &str, String)> =
            rules.iter().map(|r| (r.attr.name(), r.value.as_str(), format!("{:.2}", r.gain))).collect();
        assert_eq!(
            got,
            [
                ("classes", "css1", "0.27".to_string()),
                ("classes", "css2", "0.21".to_string()),
                ("ids", "id1", "0.21".to_string()),
                ("path", "p1", "0.21".to_string()),
                ("path", "p2", "0.21".to_string()),
                ("path", "p3", "0.09".to_string())
            ]
        );
        // Support ranks them in the same order.
        let support = rank(&filters, Gain::Support, 0.0);
        let order: Vec<&str> = support.iter().map(|r| r.value.as_str()).collect();
        assert_eq!(order, ["css1", "css2", "id1", "p1", "p2", "p3"]);
    }

    #[test]
    fn table_6_gains() {
        let g = |c: f64| format!("{:.3}", Gain::Paper.of(c / 13.0));
        assert_eq!([g(10.0), g(4.0), g(2.0)], ["0.224", "0.161", "0.064"]);
    }

    #[test]
    fn the_gain_anomaly_ranks_a_rule_on_every_page_last_under_paper_only() {
        let filters: Vec<Filter<String>> =
            (0..10).map(|i| [Some("entry".to_string()), None, Some(format!("/html[0]/body[1]/div[{i}]"))]).collect();
        let paper = rank(&filters, Gain::Paper, 0.0);
        assert_eq!(paper.last().unwrap().value, "entry");
        assert!(paper.last().unwrap().gain.abs() < 1e-12);
        let support = rank(&filters, Gain::Support, 0.0);
        assert_eq!((support[0].value.as_str(), support[0].support), ("entry", 10));
        // min_gain drops rules below it.
        assert!(rank(&filters, Gain::Paper, 0.05).iter().all(|r| r.value != "entry"));
    }

    #[test]
    fn lcs_and_dice() {
        assert_eq!(lcs_len(&["a", "b", "c", "d"], &["a", "c", "d", "e"]), 3);
        assert!((dice("night", "nacht") - 0.25).abs() < 1e-12);
        assert_eq!(normalise("  Hello \n World "), "hello world");
    }
}
