//! Fitting on gold end to end through the library: the block family's models fitted out of
//! fold while a search scores its settings (alone, at a route's branch, at a combination's
//! member), in fold on a held-out set's training pages, and on the whole sample.

use cetune::document::segments::{Admit, HiddenText};
use cetune::eval::Measure;
use cetune::extract::blocktrees::fit::{fit_all, page_rows};
use cetune::extract::space;
use cetune::goldset::{GoldDoc, GoldSet};
use cetune::objective::corpus::Corpus;
use cetune::objective::fit::{folds_of, needs_fit, pages};
use cetune::objective::problem::{ExtractionProblem, Objective};
use cetune::params::ParamSpace;

/// The family fitted here.
const FAMILY: &str = "blocktrees";

/// A deterministic stream of numbers in 0..n.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
    fn words(&mut self, n: u64) -> String {
        (0..n).map(|_| format!("w{}", self.below(5000))).collect::<Vec<_>>().join(" ")
    }
}

/// `pages` pages written under a fresh folder; `page(rng)` gives each page's HTML and gold.
fn set(name: &str, pages: usize, page: &dyn Fn(&mut Lcg) -> (String, String)) -> (GoldSet, std::path::PathBuf) {
    let dir = crate::util::tmp(&format!("fit-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Lcg(7);
    let docs = (0..pages)
        .map(|k| {
            let (html, gold) = page(&mut rng);
            let path = dir.join(format!("{k}.html"));
            std::fs::write(&path, html).unwrap();
            GoldDoc {
                package: k % 2,
                id: format!("{k}"),
                page: path,
                gold: gold.into(),
                url: None,
                lang: None,
                fields: Default::default(),
            }
        })
        .collect();
    let set = GoldSet {
        name: name.into(),
        root: dir.clone(),
        packages: vec!["a".into(), "b".into()],
        docs,
        trainers: Vec::new(),
        token_rule: Default::default(),
        skipped: vec![],
        credit: None,
        limits: Default::default(),
    };
    (set, dir)
}

/// 30 pages of 8 paragraphs in which which paragraphs are gold is a coin toss: nothing
/// generalises, and deep trees memorise.
fn memorised(name: &str) -> (GoldSet, std::path::PathBuf) {
    set(name, 30, &|r| {
        let (mut html, mut gold) = (String::from("<body><div>"), String::new());
        for _ in 0..8 {
            let n = 3 + r.below(40);
            let text = r.words(n);
            html.push_str(&format!("<p>{text}</p>"));
            if r.below(2) == 0 {
                gold.push_str(&format!("{text}\n"));
            }
        }
        (format!("{html}</div></body>"), gold)
    })
}

/// Mean F1 of `values` over `corpus`: out of fold, or (with `source`) fitted on `source`.
fn fitness(corpus: &Corpus, values: &[&str], source: Option<&Corpus>) -> f64 {
    let vals: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    fitness_of(corpus, &space(FAMILY).unwrap(), &vals, source)
}

/// [`fitness`] of a setting of `space` (a route or a combination holding `blocktrees`).
fn fitness_of(corpus: &Corpus, space: &ParamSpace, vals: &[String], source: Option<&Corpus>) -> f64 {
    let s = space.with_assignments(&space.defaults(), vals).unwrap();
    let p = ExtractionProblem::new(
        &cetune::extract::Engine::default(),
        corpus,
        space,
        s.clone(),
        Objective::F1,
        Measure::Lcs,
    );
    let p = match source {
        Some(src) => p.with_fit_source(src),
        None => p,
    };
    p.score(&s).unwrap().value
}

#[test]
fn the_fitted_model_finds_the_feature_only_content_carries() {
    // Content and boilerplate paragraphs look alike, in random order; only the content sits
    // inside <main> (one <main> per paragraph, so position says nothing).
    let (gs, dir) = set("find", 30, &|r| {
        let (mut html, mut gold) = (String::from("<body>"), String::new());
        for _ in 0..8 {
            let n = 8 + r.below(20);
            let text = r.words(n);
            if r.below(2) == 0 {
                html.push_str(&format!("<main><p>{text}.</p></main>"));
                gold.push_str(&format!("{text}\n"));
            } else {
                html.push_str(&format!("<div><p>{text}.</p></div>"));
            }
        }
        (format!("{html}</body>"), gold)
    });
    let docs: Vec<&GoldDoc> = gs.docs.iter().collect();
    let corpus = Corpus::load(&gs, &docs, &|| ());
    let fitted = fitness(&corpus, &["t=0.5", "t_rel=0"], None);
    let all = fitness(&corpus, &["t=0.05", "t_rel=0", "group_semantic=false", "trees=20", "depth=2"], None);
    assert!(fitted > 0.97, "out-of-fold F1 {fitted}");
    assert!(all < 0.85, "without the semantic group {all}");
    // A second stage over the first stage's context keeps what the first found.
    let stacked = fitness(&corpus, &["t=0.5", "t_rel=0", "stack=true"], None);
    assert!(stacked > 0.97, "stacked out-of-fold F1 {stacked}");
    // The whole-sample fit of a stacked setting has both stages.
    let space = space(FAMILY).unwrap();
    let s = space.with_assignments(&space.defaults(), &["stack=true".to_string()]).unwrap();
    let m = fit_all(&cetune::extract::Engine::default(), &pages(&corpus), &s).unwrap();
    assert!(m.stack.is_some() && !m.forest.trees.is_empty());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn out_of_fold_fitness_is_lower_than_in_fold_on_a_set_built_to_be_memorised() {
    // Which paragraphs are gold is a coin toss: nothing generalises, deep trees memorise.
    let (gs, dir) = memorised("memo");
    let docs: Vec<&GoldDoc> = gs.docs.iter().collect();
    let corpus = Corpus::load(&gs, &docs, &|| ());
    let deep = ["trees=200", "depth=5", "min_leaf=1", "learning_rate=0.5", "t=0.5", "t_rel=0"];
    let in_fold = fitness(&corpus, &deep, Some(&corpus));
    let out_of_fold = fitness(&corpus, &deep, None);
    assert!(in_fold > 0.9, "in fold {in_fold}");
    assert!(out_of_fold < in_fold - 0.2, "out of fold {out_of_fold}, in fold {in_fold}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_route_branch_and_a_combination_member_are_fitted_out_of_fold_as_the_family_alone_is() {
    // The memorisation set: only out-of-fold fitting tells what generalises.
    let (gs, dir) = memorised("placed");
    let docs: Vec<&GoldDoc> = gs.docs.iter().collect();
    let corpus = Corpus::load(&gs, &docs, &|| ());
    let deep = ["trees=200", "depth=5", "min_leaf=1", "learning_rate=0.5", "t=0.5", "t_rel=0"];
    let (alone_out, alone_in) = (fitness(&corpus, &deep, None), fitness(&corpus, &deep, Some(&corpus)));
    assert!(alone_out < alone_in - 0.2, "{alone_out} {alone_in}");
    let parse = |text: &str| cetune::params::parse_str(text, std::path::Path::new("r.yaml"), &space).unwrap().space;
    let under = |ns: &str, more: &[&str]| -> Vec<String> {
        deep.iter().map(|v| format!("{ns}.{v}")).chain(more.iter().map(|v| v.to_string())).collect()
    };
    let route = parse("extractor: r\nbranches: [learned=blocktrees, lqf]\nrules: 1\nparameters: []\n");
    let every = under("learned", &["otherwise=learned"]);
    assert!((fitness_of(&corpus, &route, &every, None) - alone_out).abs() < 1e-12);
    assert!((fitness_of(&corpus, &route, &every, Some(&corpus)) - alone_in).abs() < 1e-12);
    // A rule sending every page to the branch is the same route; no page there fits nothing.
    let ruled =
        under("learned", &["otherwise=lqf", "if1.on=true", "if1.feature=words", "if1.at=0", "if1.then=learned"]);
    assert!((fitness_of(&corpus, &route, &ruled, None) - alone_out).abs() < 1e-12);
    let s = route.with_assignments(&route.defaults(), &under("learned", &["otherwise=lqf"])).unwrap();
    assert!(!needs_fit(&s));
    let union = parse("extractor: c\nmembers: [blocktrees, lqf]\nparameters: []\n");
    let alone = under("blocktrees", &["combinator=union", "lqf.on=false", "min_run=0", "max_gap=0"]);
    assert!((fitness_of(&corpus, &union, &alone, None) - alone_out).abs() < 1e-12);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn labels_are_the_share_of_a_blocks_tokens_in_the_alignment_and_folds_hold_every_package() {
    let (gs, dir) = set("labels", 4, &|_| {
        ("<body><p>alpha beta gamma delta</p><p>one two</p></body>".into(), "alpha beta x delta one".into())
    });
    let docs: Vec<&GoldDoc> = gs.docs.iter().collect();
    let corpus = Corpus::load(&gs, &docs, &|| ());
    let r = page_rows(&corpus.entries[0], Admit { hidden: HiddenText::All, structured: false });
    assert_eq!(r.y, vec![0.75, 0.5]);
    assert_eq!(r.w, vec![2.0, 2f32.sqrt()]);
    assert_eq!(folds_of(&corpus, 2), vec![0, 0, 1, 1]);
    std::fs::remove_dir_all(dir).unwrap();
}
