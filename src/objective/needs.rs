//! The check that building facts on demand changes no result: every extractor's output on a
//! page parsed whole ([`Needs::ALL`] with every family fact the extractors read) against its output on the page parsed for its own needs
//! ([`Extractor::needs`]). Used by the unit tests on the embedded pages and by the real-data
//! check on L3S-GN1 and WCXB dev (`tests/real_data.rs`).

use crate::document::{Document, Needs, Selection};
use crate::extract::{self, Extractor};
use crate::limits::Limits;
use std::collections::HashMap;

/// Everything a page can hold: every view and shared fact ([`Needs::ALL`]) and the own facts
/// any setting of any family reads ([`extract::space_needs`]), whatever the family.
pub fn everything() -> Needs {
    let each = extract::FAMILIES.iter().filter_map(|f| extract::space(f.name).ok());
    // The registry's spaces name no model file and run no worker: any engine reads them.
    let engine = extract::Engine::default();
    let facts = each.fold(Needs::NONE, |a, space| a | extract::space_needs(&engine, &space)).facts;
    Needs { facts, ..Needs::ALL }
}

/// One extractor to check: its name (in messages) and the extractor.
pub type Named<'a> = (&'a str, &'a dyn Extractor);

/// Every extractor of the registry at its defaults: each family, and each described
/// combination with every member on (so its needs are the union of all its members').
pub fn registry() -> Vec<(String, Box<dyn Extractor>)> {
    let mut out = Vec::new();
    let engine = extract::Engine::default();
    for name in extract::all_names() {
        let Ok(space) = extract::space(name) else { continue };
        let mut setting = space.defaults();
        for (n, v) in &mut setting.values {
            if n.ends_with(".on") {
                *v = crate::params::Value::Bool(true);
            }
        }
        if let Ok(ex) = extract::build(&engine, &setting) {
            out.push((name.to_string(), ex));
        }
    }
    out
}

/// The names of the extractors whose kept units on `html` differ between the page parsed whole
/// and the page parsed for their needs; `prepare` is applied to every parse (a gold set's
/// declared language, a package's facts).
pub fn differences(html: &str, limits: &Limits, extractors: &[Named], prepare: &dyn Fn(&mut Document)) -> Vec<String> {
    // One tree of the page for the whole parse and every distinct needs (`Document::parse_each`):
    // what is compared is what each parse builds from it.
    let facts = extractors.iter().fold(Needs::NONE, |a, (_, ex)| a | ex.needs()).facts;
    let all = Needs { facts, ..Needs::ALL };
    let mut distinct: Vec<Needs> = vec![all];
    for (_, ex) in extractors {
        let n = ex.needs().complete();
        if !distinct.contains(&n) {
            distinct.push(n);
        }
    }
    let mut parsed: HashMap<Needs, Document> = distinct
        .iter()
        .zip(Document::parse_each(html, limits, &distinct))
        .map(|(&n, (mut d, _))| {
            prepare(&mut d);
            (n, d)
        })
        .collect();
    // The whole parse is its own document (not shared with an extractor that needs everything).
    let whole = parsed.remove(&all).expect("parsed");
    let whole_again = || {
        let mut d = Document::parse_for(html, limits, all).0;
        prepare(&mut d);
        d
    };
    let mut differ = Vec::new();
    for (name, ex) in extractors {
        let needs = ex.needs().complete();
        if needs == all && !parsed.contains_key(&needs) {
            parsed.insert(needs, whole_again());
        }
        let doc = &parsed[&needs];
        let run = |d: &Document| {
            let mut sel = Selection::new(ex.view());
            let ran = ex.extract(d, &mut sel);
            (ran, sel.units.clone(), d.render(&sel))
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
    fn every_extractor_declares_what_it_reads_route_and_blocks_included() {
        let reg = registry();
        for want in ["route", "blocks", "full_hidden", "records", "structured", "mixed"] {
            assert!(reg.iter().any(|(n, _)| n == want), "{want} is checked");
        }
        for f in extract::FAMILIES.iter().filter(|f| f.fit.is_some()) {
            assert!(reg.iter().any(|(n, _)| n == f.name), "{} (fitted on gold) is checked", f.name);
        }
        // No extractor takes every fact: each declares its own needs (the default is ALL).
        for (name, ex) in &reg {
            assert_ne!(ex.needs().complete(), Needs::ALL, "{name} declares no needs");
        }
        let needs = |name: &str, sets: &[&str]| {
            let space = extract::space(name).unwrap();
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            extract::build(&extract::Engine::default(), &space.with_assignments(&space.defaults(), &sets).unwrap())
                .unwrap()
                .needs()
                .complete()
        };
        assert_eq!(needs("blocks", &[]), Needs::SEGMENTS.complete());
        // Every family's own facts are declared in its `needs` (`Needs::fact`) and built only then.
        for f in extract::FAMILIES {
            let facts = needs(f.name, &[]).facts;
            let (d, _) = Document::parse_for("<body><p class=x>one</p></body>", &Limits::default(), needs(f.name, &[]));
            assert_eq!(d.facts.len(), facts.iter().count(), "{}", f.name);
        }
        // A route without a rule needs its one branch (`otherwise`: `pages`, the mixed
        // combination) as a mask; with a rule, also the page features and the other branch.
        let mask_of = |name: &str| {
            extract::mask_needs(
                extract::build(&extract::Engine::default(), &extract::space(name).unwrap().defaults())
                    .unwrap()
                    .as_ref(),
            )
        };
        assert_eq!(needs("route", &[]), mask_of("mixed").complete());
        let routed = needs("route", &["if1.on=true", "if1.then=main"]);
        assert_eq!(routed, (mask_of("combine") | mask_of("mixed") | Needs::FEATURES).complete());
        // (The mixed combination's default member builds its own fact; none builds the block view.)
        assert!(!routed.segments && routed.facts.iter().count() == 1, "{}", routed.label());
        // optimise on a route: any rule may send a page to any branch, any member may be on.
        let space = extract::space_needs(&extract::Engine::default(), &extract::space("route").unwrap()).complete();
        assert!(space.features, "{}", space.label());
        // Its block branches (`learned`, the supervised block family, and `hidden` = full_hidden) read the block view.
        assert!(space.segments, "{}", space.label());
        // Its members' own facts (three of the mixed combination's DOM families build one each).
        assert_eq!(space.facts.iter().count(), 3, "{}", space.label());
    }

    #[test]
    fn facts_no_one_needs_are_not_built_inside_the_dom_walk() {
        let html = "<body><nav class=menu><a href=/>Home</a></nav><p class=entry-content>One two three.</p>\
                    <noscript><p>thread</p></noscript></body>";
        let (d, _) = Document::parse_for(html, &Limits::default(), Needs::DOM);
        assert!(d.dom.texts.len() >= 2);
        assert_eq!((d.facts.len(), d.segments.len()), (0, 0));
        let (all, _) = Document::parse_for(html, &Limits::default(), everything());
        assert!(!all.segments.is_empty());
        assert_eq!(all.facts.len(), everything().facts.iter().count());
    }

    #[test]
    fn a_source_family_builds_no_dom_and_a_dom_family_no_source() {
        let html = "<body><p>one two <a href=/x>three</a></p><div>four</div></body>";
        let tccb = extract::build(&extract::Engine::default(), &extract::space("tccb").unwrap().defaults()).unwrap();
        let (d, _) = Document::parse_for(html, &Limits::default(), tccb.needs());
        assert_eq!((d.source.words.len(), d.dom.nodes.len(), d.words.units(), d.lang.as_deref()), (4, 0, 0, None));
        let crunch =
            extract::build(&extract::Engine::default(), &extract::space("crunch").unwrap().defaults()).unwrap();
        let (d, _) = Document::parse_for(html, &Limits::default(), crunch.needs());
        assert_eq!((d.source.words.len(), d.facts.len()), (0, 0));
        assert!(d.dom.texts.len() >= 3);
    }
}
