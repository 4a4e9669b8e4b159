//! A gold set (or sample) parsed once: every page as a [`Document`], its gold as a bit-parallel
//! LCS index, and for every text unit of both views the gold rows of its evaluation tokens, so
//! that scoring a selection needs no string work at all.
//!
//! This is also the one place that warns about documents: every command that reads pages goes
//! through [`prepare`] (and [`warn_skipped`]), so each document left out, unreadable or cut by a
//! budget is named once on standard error, whichever command runs.

use crate::document::facts::{Fact, Order, Package, Shared};
use crate::document::{Document, Needs, Units, View};
use crate::error::{Error, Result};
use crate::eval::lcs::{GoldIndex, NO_ROW};
use crate::eval::words::{TokenRule, for_each_token, tokens};
use crate::goldset::{GoldDoc, GoldSet};
use rayon::prelude::*;

/// Prints one warning about a document (or file) on standard error.
pub fn warn(what: &str, why: &str) {
    eprintln!("cetune: warning: {what}: {why}");
}

/// Warns about every document (or file) left out when the set was loaded.
pub fn warn_skipped(set: &GoldSet) {
    for s in &set.skipped {
        warn(&format!("skipped {}", s.what), &s.why);
    }
}

/// A run in which no document could be read (or scored) failed: `failed` of `total`.
pub fn check_some_read(set: &GoldSet, failed: usize, total: usize) -> Result<()> {
    if total > 0 && failed == total {
        return Err(Error::input(format!(
            "every document failed ({failed} of {total}; see the warnings above): nothing was measured"
        ))
        .with_path(&set.root));
    }
    Ok(())
}

/// Evaluation tokens of one view's units, as gold rows.
#[derive(Debug, Clone, Default)]
pub struct UnitRows {
    /// Gold rows of the tokens that occur in the gold, unit after unit.
    pub rows: Vec<u32>,
    /// `rows[row_starts[u]..row_starts[u + 1]]` are unit `u`'s gold rows.
    pub row_starts: Vec<u32>,
    /// `tok_starts[u + 1] - tok_starts[u]` is unit `u`'s number of evaluation tokens.
    pub tok_starts: Vec<u32>,
}

impl UnitRows {
    /// A word split over glued units (`<b>bold</b>word`) is one token, counted with the unit
    /// it ends in: a unit holds its last word back when the next unit continues it. Linear in
    /// the text: a unit is searched for its last whitespace only in its own text, and a unit
    /// without one is only appended to what is held back (300,000 glued `<span>w</span>` were
    /// quadratic when the held-back word was searched again with each unit).
    fn build(units: &Units, gold: &GoldIndex, rule: TokenRule) -> UnitRows {
        let mut r = UnitRows { rows: Vec::new(), row_starts: vec![0], tok_starts: vec![0] };
        let mut toks = 0u32;
        let (mut text, mut carry) = (String::new(), String::new());
        for u in 0..units.len() {
            let unit = units.get(u);
            // Where the unit's own text is cut: everything before is counted now, the rest is
            // held back for the next unit when that one continues it.
            let cut = if units.glued(u + 1) {
                unit.rfind(char::is_whitespace).map(|i| i + unit[i..].chars().next().map_or(1, char::len_utf8))
            } else {
                Some(unit.len())
            };
            match cut {
                None => carry.push_str(unit),
                Some(cut) => {
                    text.clear();
                    text.push_str(&carry);
                    text.push_str(&unit[..cut]);
                    carry.clear();
                    carry.push_str(&unit[cut..]);
                    for_each_token(&text, rule, |t| {
                        toks += 1;
                        let row = gold.row(t);
                        if row != NO_ROW {
                            r.rows.push(row);
                        }
                    });
                }
            }
            r.row_starts.push(r.rows.len() as u32);
            r.tok_starts.push(toks);
        }
        r.rows.shrink_to_fit();
        r.row_starts.shrink_to_fit();
        r.tok_starts.shrink_to_fit();
        r
    }
}

/// One gold document, prepared for repeated scoring.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Package index in the corpus.
    pub package: usize,
    /// Document id.
    pub id: String,
    /// The parsed page (`None` when it could not be read).
    pub doc: Option<Document>,
    /// Why the page could not be prepared.
    pub error: Option<String>,
    /// What the page budgets cut from the page (it was parsed all the same).
    pub notes: Vec<String>,
    /// Bytes of the page's decoded HTML (0 when it could not be read).
    pub page_bytes: usize,
    /// The indexed gold words.
    pub gold: GoldIndex,
    /// Token rows of the source view's words.
    pub source: UnitRows,
    /// Token rows of the DOM view's text nodes.
    pub dom: UnitRows,
    /// The gold text (the `shingle4` measure tokenises it its own way), shared with the gold set.
    pub gold_text: std::sync::Arc<str>,
    /// The set's token rule.
    pub rule: TokenRule,
    /// The gold's shingles, built the first time `shingle4` scores this entry.
    pub shingles: std::sync::OnceLock<Shingles>,
    /// Token rows of the block view's blocks, built the first time a block selection is scored.
    pub blocks: std::sync::OnceLock<UnitRows>,
}

/// A gold text's `shingle4` tokens interned and its shingles counted, so scoring an extract
/// needs no string allocation per shingle.
#[derive(Debug, Clone, Default)]
pub struct Shingles {
    /// Token → id (case kept).
    pub vocab: std::collections::HashMap<String, u32>,
    /// Shingle (ids, padded with [`PAD`]) → occurrences.
    pub counts: std::collections::HashMap<[u32; 4], u32>,
    /// Number of gold shingles.
    pub total: usize,
}

/// Pads a shingle shorter than 4 tokens.
pub const PAD: u32 = u32::MAX;

/// Stands for an extract token absent from the gold: a shingle holding it never matches.
pub const UNKNOWN: u32 = u32::MAX - 1;

/// The shingle keys of a sequence of token ids (see [`crate::eval::measure::shingles`]).
pub fn shingle_keys(ids: &[u32], mut f: impl FnMut([u32; 4])) {
    match ids.len() {
        0 => {}
        n if n < 4 => {
            let mut k = [PAD; 4];
            k[..n].copy_from_slice(ids);
            f(k);
        }
        _ => ids.windows(4).for_each(|w| f([w[0], w[1], w[2], w[3]])),
    }
}

impl Shingles {
    /// Interns and counts the shingles of a gold text.
    pub fn of(gold: &str, rule: TokenRule) -> Shingles {
        let mut s = Shingles::default();
        let mut ids = Vec::new();
        crate::eval::measure::for_each_word(gold, rule.latin1_only, |w| {
            let next = s.vocab.len() as u32;
            ids.push(*s.vocab.entry(w.to_string()).or_insert(next));
        });
        shingle_keys(&ids, |k| {
            *s.counts.entry(k).or_default() += 1;
            s.total += 1;
        });
        s
    }
}

impl Entry {
    /// Token rows of a view.
    pub fn rows(&self, view: View) -> &UnitRows {
        match view {
            View::Source => &self.source,
            View::Dom => &self.dom,
            View::Blocks => self.blocks.get_or_init(|| match &self.doc {
                Some(d) => UnitRows::build(&d.segments.texts, &self.gold, self.rule),
                None => UnitRows::default(),
            }),
        }
    }
}

/// Parses one gold document of `set` within the set's page budgets, building only the views and
/// facts of `needs` ([`Document::parse_for`]), and warns once about it when it cannot be read or
/// a budget cut it. Never panics: unreadable pages and parser failures become an entry with an
/// error.
pub fn prepare(set: &GoldSet, gd: &GoldDoc, needs: Needs) -> Entry {
    let e = prepare_quietly(gd, set.token_rule, &set.limits, needs);
    let what = format!("{}/{}", set.packages.get(gd.package).map_or("?", String::as_str), gd.id);
    if let Some(err) = &e.error {
        warn(&what, err);
    }
    for note in &e.notes {
        warn(&what, &format!("{}: {note}", gd.page.display()));
    }
    e
}

fn prepare_quietly(gd: &GoldDoc, rule: TokenRule, limits: &crate::limits::Limits, needs: Needs) -> Entry {
    let gold = GoldIndex::new(&tokens(&gd.gold, rule));
    let mut e = Entry {
        package: gd.package,
        id: gd.id.clone(),
        doc: None,
        error: None,
        notes: Vec::new(),
        page_bytes: 0,
        gold,
        source: UnitRows::default(),
        dom: UnitRows::default(),
        gold_text: gd.gold.clone(),
        rule,
        shingles: std::sync::OnceLock::new(),
        blocks: std::sync::OnceLock::new(),
    };
    let (page, decoding) = match gd.read_page(limits) {
        Ok((p, how)) => (p, how.name()),
        Err(err) => {
            e.error = Some(err.to_string());
            return e;
        }
    };
    e.page_bytes = page.len();
    let parsed = crate::error::isolate(|| {
        let (mut d, notes) = Document::parse_for(&page, limits, needs);
        d.decoding = decoding;
        // The URL goes to an external extractor's worker, the only reader of the page's HTML.
        if d.html.is_some() {
            d.url = gd.url.clone().or_else(|| crate::goldset::url::head_url(&page)).map(Into::into);
        }
        d.origin = gd.url.clone();
        if gd.lang.is_some() {
            d.set_lang(gd.lang.clone());
        }
        (d, notes)
    });
    match parsed {
        Ok((doc, notes)) => {
            e.notes = notes;
            e.source = UnitRows::build(&doc.source.words, &e.gold, rule);
            e.dom = UnitRows::build(&doc.dom.texts, &e.gold, rule);
            e.doc = Some(doc);
        }
        Err(_) => e.error = Some(format!("{}: the HTML parser failed on this page", gd.page.display())),
    }
    e
}

/// A prepared collection of documents.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// The gold set's name.
    pub name: String,
    /// Package names.
    pub packages: Vec<String>,
    /// Entries in gold-set order.
    pub entries: Vec<Entry>,
}

/// The default budget of a corpus's memos, in MB, shared by its pages (`optimise
/// --member-cache-mb`).
pub const MEMO_MB: usize = 512;

impl Corpus {
    /// Parses the given documents of `set` in parallel with every view and fact, the families'
    /// own included ([`Corpus::load_for`] with [`everything`](super::needs::everything)).
    pub fn load(set: &GoldSet, docs: &[&GoldDoc], tick: &(dyn Fn() + Sync)) -> Corpus {
        Corpus::load_for(set, docs, super::needs::everything(), tick)
    }

    /// Parses the given documents of `set` in parallel, building only the views and facts of
    /// `needs` (what the extractors to be scored read); `tick` is called once per document.
    /// Warns about skipped and unreadable documents. Every page then learns what its package's
    /// other pages hold ([`PackageFacts`]), from the parsed pages, for the facts of `needs` that
    /// read it.
    pub fn load_for(set: &GoldSet, docs: &[&GoldDoc], needs: Needs, tick: &(dyn Fn() + Sync)) -> Corpus {
        warn_skipped(set);
        let mut entries: Vec<Entry> = docs
            .par_iter()
            .map(|d| {
                let e = prepare(set, d, needs);
                tick();
                e
            })
            .collect();
        let needs = needs.complete();
        attach_package(set, docs, needs, &mut entries);
        let corpus = Corpus { name: set.name.clone(), packages: set.packages.clone(), entries };
        corpus.share_memo(MEMO_MB << 20);
        corpus
    }

    /// Gives every page an equal share of `bytes` for its memo (the member and branch outputs
    /// a search reuses across individuals, `document::memo`); 0 turns the memos off.
    pub fn share_memo(&self, bytes: usize) {
        let pages = self.entries.iter().filter(|e| e.doc.is_some()).count().max(1);
        for doc in self.entries.iter().filter_map(|e| e.doc.as_ref()) {
            doc.memo.set_limit(bytes / pages);
        }
    }

    /// Hits and misses of the pages' memos since they were parsed.
    pub fn memo_stats(&self) -> (u64, u64) {
        self.entries
            .iter()
            .filter_map(|e| e.doc.as_ref())
            .map(|d| d.memo.stats())
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    }

    /// Bytes of decoded HTML of the pages read.
    pub fn html_bytes(&self) -> u64 {
        self.entries.iter().map(|e| e.page_bytes as u64).sum()
    }
}

/// Gives every parsed entry what its package's other pages hold ([`PackageFacts`]), from the
/// pages just parsed, for the facts of `needs` (completed) that read it; nothing when none does.
fn attach_package(set: &GoldSet, docs: &[&GoldDoc], needs: Needs, entries: &mut [Entry]) {
    if packaged(needs).next().is_none() {
        return;
    }
    // What each page gives the pages of its package, from the pages just parsed (and the set's
    // pages kept for learning only, parsed here, for the facts that read them).
    let facts = PackageFacts::build(set, docs, needs, |(_, arg, p)| {
        entries.iter().zip(docs).map(|(e, d)| e.doc.as_ref().and_then(|doc| (p.part)(doc, *d, arg))).collect()
    });
    entries.par_iter_mut().enumerate().for_each(|(i, e)| {
        if let Some(doc) = &mut e.doc {
            facts.attach(i, doc);
        }
    });
}

/// The reference pages of each page among the other pages of its package, and what each page
/// gives the pages that take it as a reference, for every fact that reads the page's package
/// ([`Package`](crate::document::facts::Package)): the one place where a page learns about the
/// other pages of its package. [`Corpus::load`] takes the parts from the pages it parsed;
/// `evaluate`, `compare` and `extract --dump`, which keep no page, parse every page once more
/// beforehand ([`PackageFacts::of_pages`]) when an extractor needs them.
#[derive(Debug, Clone, Default)]
pub struct PackageFacts(Vec<Parts>);

/// One fact's parts and references.
#[derive(Debug, Clone)]
struct Parts {
    /// The fact's package hooks.
    hook: Package,
    /// Per page (the documents given, then the set's pages kept for learning only of their
    /// packages when the fact reads them), its part (`None` when the page could not be read).
    parts: Vec<Option<Shared>>,
    /// Per document, its reference pages (indices into `parts`), best first.
    refs: Vec<Vec<usize>>,
}

/// A fact that reads the page's package: the fact, its argument and its hooks.
type Packaged = (&'static Fact, u32, Package);

/// The facts of `needs` that read the page's package, with their arguments and hooks.
fn packaged(needs: Needs) -> impl Iterator<Item = Packaged> {
    needs.facts.with_args().filter_map(|(f, arg)| Some((f, arg, f.package?))).collect::<Vec<_>>().into_iter()
}

/// The set's pages kept for learning only (not scored) of the packages of `docs`.
fn trainers<'a>(set: &'a GoldSet, docs: &[&GoldDoc]) -> Vec<&'a GoldDoc> {
    let packages: std::collections::BTreeSet<usize> = docs.iter().map(|d| d.package).collect();
    set.trainers.iter().filter(|t| packages.contains(&t.package)).collect()
}

/// Each page read and parsed once (quietly: the loader warns when it reads them again) with
/// every fact of `facts`, and each fact's part of it (`None` when the page cannot be read).
fn parts_of_pages(set: &GoldSet, pages: &[&GoldDoc], facts: &[Packaged]) -> Vec<Vec<Option<Shared>>> {
    let reads = facts.iter().fold(Needs::NONE, |n, (f, _, _)| n | Needs::fact(f));
    pages
        .par_iter()
        .map(|d| {
            let page = d.read_page(&set.limits).ok().map(|p| p.0);
            page.and_then(|page| {
                crate::error::isolate(|| {
                    let doc = Document::parse_for(&page, &set.limits, reads).0;
                    facts.iter().map(|(_, arg, p)| (p.part)(&doc, *d, *arg)).collect()
                })
                .ok()
            })
            .unwrap_or_else(|| vec![None; facts.len()])
        })
        .collect()
}

/// A page URL's host (without `www.`) and directory (everything up to its last `/`, query and
/// fragment left out).
fn url_parts(url: &str) -> (&str, &str) {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = &rest[..rest.find(['?', '#']).unwrap_or(rest.len())];
    let host = &rest[..rest.find('/').unwrap_or(rest.len())];
    let dir = &rest[..rest.rfind('/').map_or(rest.len(), |i| i + 1)];
    (host.strip_prefix("www.").unwrap_or(host), dir.strip_prefix("www.").unwrap_or(dir))
}

/// Each document's reference pages among `docs` (indices): the other pages of its package,
/// those in the same URL directory first, then those on the same host, then the rest, each group
/// in id order; at most `most`.
pub fn references(docs: &[&GoldDoc], most: usize) -> Vec<Vec<usize>> {
    ordered(docs, docs.len(), Order::Nearest, most)
}

/// Each of the first `scored` pages' reference pages among `pages` (indices): the other pages
/// of its package in `order`; at most `most`.
fn ordered(pages: &[&GoldDoc], scored: usize, order: Order, most: usize) -> Vec<Vec<usize>> {
    let mut by_package: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for (i, d) in pages.iter().enumerate() {
        by_package.entry(d.package).or_default().push(i);
    }
    let parts: Vec<Option<(&str, &str)>> = pages.iter().map(|d| d.url.as_deref().map(url_parts)).collect();
    (0..scored)
        .map(|i| {
            let rank = |j: usize| match (order, parts[i], parts[j]) {
                (Order::Id, _, _) => 0,
                (_, Some((hi, di)), Some((hj, dj))) if di.eq_ignore_ascii_case(dj) && hi.eq_ignore_ascii_case(hj) => 0,
                (_, Some((hi, _)), Some((hj, _))) if hi.eq_ignore_ascii_case(hj) => 1,
                _ => 2,
            };
            let mut others: Vec<usize> = by_package[&pages[i].package].iter().copied().filter(|&j| j != i).collect();
            others.sort_by(|&a, &b| rank(a).cmp(&rank(b)).then_with(|| pages[a].id.cmp(&pages[b].id)));
            others.truncate(most);
            others
        })
        .collect()
}

impl PackageFacts {
    /// Reads every page of `docs` (quietly: the loader warns when it reads them again) and keeps
    /// only its part of each fact of `needs` that reads the page's package (the page parsed
    /// with those facts and what they read alone).
    pub fn of_pages(set: &GoldSet, docs: &[&GoldDoc], needs: Needs) -> PackageFacts {
        let needs = needs.complete();
        let facts: Vec<Packaged> = packaged(needs).collect();
        if facts.is_empty() {
            return PackageFacts::default();
        }
        // Each page read and parsed once, with every such fact, for all of their parts.
        let per_page = parts_of_pages(set, docs, &facts);
        PackageFacts::build(set, docs, needs, |(f, _, _)| {
            let k = facts.iter().position(|g| g.0.name == f.name).expect("one of the facts");
            per_page.iter().map(|v| v[k].clone()).collect()
        })
    }

    /// The references and parts of every fact of `needs` that reads the page's package: the
    /// documents' parts from `parts_of` (per document), the set's pages kept for learning
    /// only parsed here for the facts that read them.
    fn build(
        set: &GoldSet,
        docs: &[&GoldDoc],
        needs: Needs,
        parts_of: impl Fn(Packaged) -> Vec<Option<Shared>>,
    ) -> PackageFacts {
        let facts: Vec<Packaged> = packaged(needs).collect();
        let trainers = trainers(set, docs);
        let learning: Vec<Packaged> = facts.iter().copied().filter(|(_, _, p)| p.trainers).collect();
        let mut trainer_parts = if learning.is_empty() || trainers.is_empty() {
            Vec::new()
        } else {
            parts_of_pages(set, &trainers, &learning)
        };
        let mut out = Vec::new();
        for fact in facts {
            let p = fact.2;
            let mut parts = parts_of(fact);
            let mut pages: Vec<&GoldDoc> = docs.to_vec();
            if p.trainers {
                let k = learning.iter().position(|l| l.0.name == fact.0.name).expect("a learning fact");
                parts.extend(trainer_parts.iter_mut().map(|t| t[k].take()));
                pages.extend(&trainers);
            }
            out.push(Parts { hook: p, parts, refs: ordered(&pages, docs.len(), p.order, p.most) });
        }
        PackageFacts(out)
    }

    /// Gives document `i` (parsed) the parts of its reference pages that could be read, for
    /// each fact (the first [`Package::most`] of them).
    pub fn attach(&self, i: usize, doc: &mut Document) {
        for f in &self.0 {
            let refs = f.refs.get(i).into_iter().flatten();
            let refs: Vec<&Shared> = refs.filter_map(|&j| f.parts.get(j).and_then(Option::as_ref)).collect();
            if !refs.is_empty() {
                (f.hook.attach)(doc, &refs);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_split_over_glued_units_is_one_token_of_the_unit_it_ends_in() {
        let d = Document::parse("<p>a (<a href=x>PDF</a>) <b>bold</b>word <i>it</i>alic.</p>");
        let gold = GoldIndex::new(&["a", "pdf", "boldword", "italic"]);
        let r = UnitRows::build(&d.dom.texts, &gold, TokenRule::default());
        let texts: Vec<&str> = (0..d.dom.texts.len()).map(|u| d.dom.texts.get(u)).collect();
        assert_eq!(texts, ["a (", "PDF", ")", "bold", "word", "it", "alic."]);
        assert_eq!(r.tok_starts, [0, 1, 1, 2, 2, 3, 3, 4]);
        assert_eq!(r.rows, [0, 1, 2, 3]);
    }

    fn doc(package: usize, id: &str, url: Option<&str>) -> GoldDoc {
        GoldDoc {
            package,
            id: id.into(),
            page: Default::default(),
            gold: "".into(),
            url: url.map(String::from),
            lang: None,
            fields: Default::default(),
        }
    }

    #[test]
    fn package_facts_from_the_loaders_own_parse_equal_those_of_a_parse_of_their_own() {
        // The corpus takes them from the pages it parses (one parse); `evaluate` reads every page
        // once beforehand: every family that reads the page's package extracts the same either way.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("goldsets/blogs");
        let mut set = crate::goldset::native::open(&root, false).unwrap();
        set.docs.retain(|d| set.packages[d.package] == "wp-kubrick");
        let docs: Vec<&GoldDoc> = set.docs.iter().collect();
        assert_eq!(docs.len(), 11);
        let mut checked = 0;
        for name in crate::extract::names() {
            let ex = crate::extract::build(
                &crate::extract::Engine::default(),
                &crate::extract::space(name).unwrap().defaults(),
            )
            .unwrap();
            if !ex.needs_package() {
                continue;
            }
            let corpus = Corpus::load_for(&set, &docs, ex.needs(), &|| {});
            let facts = PackageFacts::of_pages(&set, &docs, ex.needs());
            let mut kept = 0;
            for (i, e) in corpus.entries.iter().enumerate() {
                let mut apart = prepare(&set, docs[i], ex.needs()).doc.unwrap();
                facts.attach(i, &mut apart);
                let text = crate::extract::extract_text(ex.as_ref(), e.doc.as_ref().unwrap()).unwrap();
                assert_eq!(text, crate::extract::extract_text(ex.as_ref(), &apart).unwrap(), "{name}: {}", docs[i].id);
                kept += usize::from(!text.is_empty());
            }
            assert!(kept > 0, "{name} extracts from the pages of its package");
            checked += 1;
        }
        assert!(checked >= 2, "the families that read the page's package are checked");
    }

    #[test]
    fn references_prefer_the_same_directory_then_the_same_host_then_id_order() {
        assert_eq!(url_parts("http://www.a.com/news/2008/x.htm?id=1"), ("a.com", "a.com/news/2008/"));
        assert_eq!(url_parts("a.com"), ("a.com", "a.com"));
        let docs = [
            doc(0, "1", Some("http://a.com/news/1.htm")),
            doc(0, "2", Some("http://b.com/news/2.htm")),
            doc(0, "3", Some("http://www.a.com/sport/3.htm")),
            doc(0, "4", Some("http://a.com/news/4.htm?p=2")),
            doc(0, "5", None),
            doc(1, "6", Some("http://a.com/news/6.htm")),
        ];
        let refs = references(&docs.iter().collect::<Vec<_>>(), 10);
        assert_eq!(refs[0], [3, 2, 1, 4], "same directory, same host, then id order");
        assert_eq!(refs[4], [0, 1, 2, 3]);
        assert!(refs[5].is_empty(), "a package of one page has no reference");
    }
}
