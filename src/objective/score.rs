//! Scoring an extractor over a corpus: per-document P/R/F1 in parallel, summed in document
//! order so results do not depend on the number of threads.

use super::corpus::{Corpus, Entry, Shingles, UNKNOWN, shingle_keys};
use crate::document::Selection;
use crate::eval::Measure;
use crate::eval::measure::{Averages, averages, shingle_prf};
use crate::eval::score::{Prf, prf};
use crate::extract::Extractor;
use rayon::prelude::*;

/// The score of one document.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DocScore {
    /// Precision, recall, F1 (all 0 for an error).
    pub prf: Prf,
    /// Evaluation tokens in the extract.
    pub extract_words: usize,
    /// Evaluation tokens in the gold.
    pub gold_words: usize,
    /// Why the document could not be scored.
    pub error: Option<String>,
}

/// Reusable per-thread buffers.
#[derive(Default)]
pub struct Scratch {
    sel: Option<Selection>,
    rows: Vec<u32>,
    lcs: Vec<u64>,
    counts: Vec<u32>,
    ids: Vec<u32>,
    shingles: std::collections::HashMap<[u32; 4], u32>,
}

/// The error of a document on which the extractor panicked (a bug, isolated to the page).
pub const EXTRACTOR_FAILED: &str = "the extractor failed on this page";

/// Scores one entry by `measure`, reusing `scratch`. An extractor's failure (its message) or
/// panic ([`EXTRACTOR_FAILED`]) becomes an error row.
pub fn score_entry(e: &Entry, ex: &dyn Extractor, measure: Measure, scratch: &mut Scratch) -> DocScore {
    let gold_words = e.gold.len();
    let Some(doc) = &e.doc else {
        return DocScore { gold_words, error: e.error.clone(), ..Default::default() };
    };
    // The caller owns the selection: the extractor's view, empty.
    let mut sel = scratch.sel.take().unwrap_or_else(|| Selection::new(ex.view()));
    sel.view = ex.view();
    sel.units.clear();
    let error = match crate::error::isolate(|| ex.extract(doc, &mut sel)) {
        Ok(Ok(())) => None,
        Ok(Err(failure)) => Some(failure.to_string()),
        Err(_) => Some(EXTRACTOR_FAILED.to_string()),
    };
    if error.is_some() {
        return DocScore { gold_words, error, ..Default::default() };
    }
    let rows = e.rows(sel.view);
    scratch.rows.clear();
    let mut extract_words = 0usize;
    for &u in &sel.units {
        let u = u as usize;
        extract_words += (rows.tok_starts[u + 1] - rows.tok_starts[u]) as usize;
        scratch.rows.extend_from_slice(&rows.rows[rows.row_starts[u] as usize..rows.row_starts[u + 1] as usize]);
    }
    let score = match measure {
        Measure::Lcs => prf(e.gold.lcs_rows(&scratch.rows, &mut scratch.lcs), extract_words, gold_words),
        Measure::Bow => prf(e.gold.common_rows(&scratch.rows, &mut scratch.counts), extract_words, gold_words),
        Measure::Shingle4 => shingle_score(e, doc, &sel, scratch),
        Measure::Date => {
            // The share of the gold dates found (one date; each post's on a page of several).
            let v = crate::eval::date::share(&doc.render(&sel), &e.gold_text);
            Prf { precision: v, recall: v, f1: v }
        }
    };
    scratch.sel = Some(sel);
    DocScore { prf: score, extract_words, gold_words, error: None }
}

/// The `shingle4` score of a selection: its units' `\w` tokens in order, as gold ids.
fn shingle_score(e: &Entry, doc: &crate::document::Document, sel: &Selection, scratch: &mut Scratch) -> Prf {
    let gold = e.shingles.get_or_init(|| Shingles::of(&e.gold_text, e.rule));
    // Shingles run over the words as the extract renders them (a word split by inline tags is
    // one word), the text a reader of `extract` and an independent scorer see.
    let text = doc.render(sel);
    scratch.ids.clear();
    crate::eval::measure::for_each_word(&text, e.rule.latin1_only, |w| {
        scratch.ids.push(gold.vocab.get(w).copied().unwrap_or(UNKNOWN))
    });
    scratch.shingles.clear();
    let (mut tp, mut extracted) = (0usize, 0usize);
    shingle_keys(&scratch.ids, |k| {
        extracted += 1;
        if k.contains(&UNKNOWN) {
            return;
        }
        let used = scratch.shingles.entry(k).or_default();
        if *used < gold.counts.get(&k).copied().unwrap_or(0) {
            *used += 1;
            tp += 1;
        }
    });
    shingle_prf(tp, extracted - tp, gold.total - tp)
}

/// Scores every entry of a corpus in parallel by the default measure (LCS); results in corpus
/// order.
pub fn score_corpus(corpus: &Corpus, ex: &dyn Extractor) -> Vec<DocScore> {
    corpus.entries.par_iter().map_init(Scratch::default, |s, e| score_entry(e, ex, Measure::Lcs, s)).collect()
}

/// Scores the entries `subset` of a corpus in parallel; results in `subset` order.
pub fn score_subset(corpus: &Corpus, ex: &dyn Extractor, measure: Measure, subset: &[usize]) -> Vec<DocScore> {
    subset.par_iter().map_init(Scratch::default, |s, &i| score_entry(&corpus.entries[i], ex, measure, s)).collect()
}

/// Averages of a scored corpus.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Summary {
    /// Macro (over packages) and doc-mean (the mean over documents) averages; error rows count as 0.
    pub averages: Averages,
    /// Mean per package, in package order (`None` for a package without documents).
    pub per_package: Vec<Option<Prf>>,
    /// Documents per package.
    pub package_docs: Vec<usize>,
    /// Documents that could not be scored.
    pub errors: usize,
    /// Documents with F1 = 0.
    pub zero_f1: usize,
    /// Median per-document F1.
    pub median_f1: f64,
    /// Documents where the extractor returned at least one word (the `fired` column).
    pub fired: usize,
}

/// Summarises per-document scores (`packages[i]` is the package of `scores[i]`), averaged as
/// `measure` prescribes.
pub fn summarise(packages: &[usize], n_packages: usize, scores: &[DocScore], measure: Measure) -> Summary {
    let pairs: Vec<(usize, Prf)> = packages.iter().zip(scores).map(|(&p, s)| (p, s.prf)).collect();
    let (averages, per_package) = averages(&pairs, n_packages, measure);
    let mut package_docs = vec![0; n_packages];
    for &p in packages {
        package_docs[p] += 1;
    }
    let mut f1s: Vec<f64> = scores.iter().map(|s| s.prf.f1).collect();
    f1s.sort_by(f64::total_cmp);
    let median_f1 = match f1s.len() {
        0 => 0.0,
        n if n % 2 == 1 => f1s[n / 2],
        n => (f1s[n / 2 - 1] + f1s[n / 2]) / 2.0,
    };
    Summary {
        averages,
        per_package,
        package_docs,
        errors: scores.iter().filter(|s| s.error.is_some()).count(),
        zero_f1: scores.iter().filter(|s| s.prf.f1 == 0.0).count(),
        median_f1,
        fired: scores.iter().filter(|s| s.error.is_none() && s.extract_words > 0).count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{Document, Needs, View};
    use crate::goldset::{GoldDoc, GoldSet};

    /// A gold set of `pages` (HTML, gold), written under a fresh folder named after `name`.
    fn set(name: &str, pages: &[(&str, &str)]) -> GoldSet {
        let dir = std::env::temp_dir().join(format!("cetune-score-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let docs = pages
            .iter()
            .enumerate()
            .map(|(k, (html, gold))| {
                let page = dir.join(format!("{k}.html"));
                std::fs::write(&page, html).unwrap();
                let (id, gold) = (k.to_string(), (*gold).into());
                GoldDoc { package: 0, id, page, gold, url: None, lang: None, fields: Default::default() }
            })
            .collect();
        GoldSet {
            name: name.into(),
            root: dir,
            packages: vec!["p".into()],
            docs,
            trainers: Vec::new(),
            token_rule: Default::default(),
            skipped: vec![],
            credit: None,
            limits: Default::default(),
        }
    }

    fn scores(set: &GoldSet, ex: &dyn Extractor) -> Vec<DocScore> {
        let docs: Vec<&GoldDoc> = set.docs.iter().collect();
        let corpus = Corpus::load_for(set, &docs, ex.needs(), &|| {});
        score_corpus(&corpus, ex)
    }

    #[test]
    fn a_failing_external_member_of_a_combination_gives_its_page_the_workers_error_row() {
        let s = set(
            "member",
            &[
                ("<body><p>Menu</p><p>REFUSE the story</p></body>", "the story"),
                ("<body><p>the story</p></body>", "the story"),
            ],
        );
        let command = crate::extract::testutil::refusing_worker(&s.root.join("worker"));
        let ex = crate::extract::testutil::with_external_member(&command, "intersection");
        let rows = scores(&s, ex.as_ref());
        // The row the failure gave when it unwound: the worker's message, F1 0; the next page scores.
        let refused = "refuser 1: the worker failed on this page: no article here";
        assert_eq!(rows[0], DocScore { gold_words: 2, error: Some(refused.into()), ..Default::default() });
        assert_eq!((rows[1].error.as_deref(), rows[1].prf.f1), (None, 1.0));
        std::fs::remove_dir_all(&s.root).unwrap();
    }

    /// An extractor with a bug on pages that mention a bug.
    struct Buggy;
    impl Extractor for Buggy {
        fn view(&self) -> View {
            View::Dom
        }
        fn needs(&self) -> Needs {
            Needs::DOM
        }
        fn extract(&self, doc: &Document, out: &mut crate::document::Selection) -> crate::extract::Fallible {
            assert!(!doc.dom.texts.get(0).contains("bug"), "a bug in the extractor");
            out.units.push(0);
            Ok(())
        }
    }

    #[test]
    fn a_panic_is_isolated_to_its_page_as_an_error_row() {
        let s = set(
            "bug",
            &[("<body><p>a bug here</p></body>", "a bug here"), ("<body><p>fine words</p></body>", "fine words")],
        );
        let rows = scores(&s, &Buggy);
        assert_eq!(rows[0].error.as_deref(), Some(EXTRACTOR_FAILED));
        assert_eq!((rows[1].error.as_deref(), rows[1].prf.f1), (None, 1.0));
        std::fs::remove_dir_all(&s.root).unwrap();
    }
}
