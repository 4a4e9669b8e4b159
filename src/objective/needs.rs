//! The check that building facts on demand changes no result: every extractor's output on a
//! page parsed whole ([`Needs::ALL`]) against its output on the page parsed for its own needs
//! ([`Extractor::needs`]). Used by the unit tests on the embedded pages and by the real-data
//! check on L3S-GN1 and WCXB dev (`tests/real_data.rs`).

use crate::document::{Document, Needs, Selection};
use crate::extract::{self, Extractor};
use crate::limits::Limits;
use std::collections::HashMap;

/// One extractor to check: its name (in messages) and the extractor.
pub type Named<'a> = (&'a str, &'a dyn Extractor);

/// Every extractor of the registry at its defaults: each family, and each described
/// combination with every member on (so its needs are the union of all its members').
pub fn registry() -> Vec<(String, Box<dyn Extractor>)> {
    let mut out = Vec::new();
    for name in extract::all_names() {
        let Ok(space) = extract::space(name) else { continue };
        let mut setting = space.defaults();
        for (n, v) in &mut setting.values {
            if n.ends_with(".on") {
                *v = crate::params::Value::Bool(true);
            }
        }
        if let Ok(ex) = extract::build(&setting) {
            out.push((name.to_string(), ex));
        }
    }
    out
}

/// The names of the extractors whose kept units on `html` differ between the page parsed whole
/// and the page parsed for their needs; `prepare` is applied to every parse (a gold set's
/// declared language, a package's facts).
pub fn differences(html: &str, limits: &Limits, extractors: &[Named], prepare: &dyn Fn(&mut Document)) -> Vec<String> {
    let mut whole = Document::parse_for(html, limits, Needs::ALL).0;
    prepare(&mut whole);
    let mut parsed: HashMap<Needs, Document> = HashMap::new();
    let mut differ = Vec::new();
    for (name, ex) in extractors {
        let needs = ex.needs().complete();
        let doc = parsed.entry(needs).or_insert_with(|| {
            let mut d = Document::parse_for(html, limits, needs).0;
            prepare(&mut d);
            d
        });
        let run = |d: &Document| {
            let mut sel = Selection::new(ex.view());
            ex.extract(d, &mut sel);
            (sel.units.clone(), d.render(&sel))
        };
        if run(&whole) != run(doc) {
            differ.push(name.to_string());
        }
    }
    differ
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages() -> Vec<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("goldsets/default");
        let mut out = Vec::new();
        for pkg in std::fs::read_dir(root).unwrap() {
            let pkg = pkg.unwrap().path();
            if !pkg.is_dir() {
                continue;
            }
            for f in std::fs::read_dir(pkg).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "html") {
                    out.push(std::fs::read_to_string(f).unwrap());
                }
            }
        }
        out
    }

    #[test]
    fn every_extractor_keeps_the_same_units_when_only_its_needs_are_built() {
        let reg = registry();
        assert!(reg.len() >= extract::names().len(), "every family is checked");
        let named: Vec<Named> = reg.iter().map(|(n, e)| (n.as_str(), e.as_ref())).collect();
        let pages = pages();
        assert!(pages.len() >= 40);
        for (i, html) in pages.iter().enumerate() {
            let d = differences(html, &Limits::default(), &named, &|_| {});
            assert!(d.is_empty(), "page {i}: {d:?} differ");
        }
    }

    #[test]
    fn a_source_family_builds_no_dom_and_a_dom_family_no_source() {
        let html = "<body><p>one two <a href=/x>three</a></p><div>four</div></body>";
        let tccb = extract::build(&extract::space("tccb").unwrap().defaults()).unwrap();
        let (d, _) = Document::parse_for(html, &Limits::default(), tccb.needs());
        assert_eq!((d.source.words.len(), d.dom.nodes.len(), d.words.units(), d.lang.as_deref()), (4, 0, 0, None));
        let rd = extract::build(&extract::space("readability").unwrap().defaults()).unwrap();
        let (d, _) = Document::parse_for(html, &Limits::default(), rd.needs());
        assert_eq!((d.source.words.len(), d.dom.paras.len(), d.dom.bp_blocks.len()), (0, 0, 0));
        assert!(d.dom.texts.len() >= 3);
    }
}
