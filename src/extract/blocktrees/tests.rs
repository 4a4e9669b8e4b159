use super::*;
use crate::extract::fitted::{self, fits, needs_fit, places, write};
use crate::extract::trees;
use std::path::Path;

/// The model file `p` read with the block family's fitting and checked against `key`.
fn load(p: &Path, key: &str) -> Result<Arc<dyn super::super::fit::Model>> {
    crate::extract::Engine::default().models().load(&fit::FIT, p, key)
}

fn model() -> Model {
    let rows = trees::Rows {
        f: N_FEATURES,
        x: (0..40).flat_map(|i| (0..N_FEATURES).map(move |j| ((i * 7 + j) % 11) as f32 / 10.0)).collect(),
        y: (0..40).map(|i| if i % 3 == 0 { 1.0 } else { 0.0 }).collect(),
        w: vec![1.0; 40],
    };
    let h = Hyper { trees: 3, depth: 2, learning_rate: 0.3, min_leaf: 2, allowed: vec![true; N_FEATURES] };
    Model {
        forest: trees::fit(&rows, &h),
        stack: None,
        fit: "trees=3".into(),
        members: 0,
        regions: None,
        fitted: Vec::new(),
    }
}

#[test]
fn a_model_file_reads_back_as_the_model_it_was_written_from() {
    let m = model();
    assert!(!m.forest.trees.is_empty());
    assert_eq!(Model::read(&m.write()).unwrap(), m);
}

#[test]
fn a_bad_model_file_is_one_configuration_error_with_its_line() {
    let text = model().write();
    let err = |t: &str| {
        let e = Model::read(t).unwrap_err();
        assert_eq!(e.exit_code(), 2, "{e}");
        (e.line, e.to_string())
    };
    // Truncated: the last lines are missing.
    let cut: String = text.lines().take(text.lines().count() - 3).map(|l| format!("{l}\n")).collect();
    assert!(err(&cut).1.contains("truncated"), "{}", err(&cut).1);
    assert_eq!(err("hello\n"), (Some(1), "not a cetune block model (expected 'cetune blocktrees model 1')".into()));
    let other = text.replacen(&feature_version(), "51:0000000000000000", 1);
    let (line, msg) = err(&other);
    assert_eq!(line, Some(2));
    assert!(msg.contains("fitted on another feature set"), "{msg}");
    let broken = text.replacen("\ns ", "\ns x ", 1);
    assert!(err(&broken).1.contains("is not a number") || err(&broken).1.contains("bad tree node"));
}

#[test]
fn a_model_fitted_with_other_hyperparameters_is_refused_with_the_file() {
    let dir = std::env::temp_dir().join(format!("cetune-blocktrees-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("best.model");
    std::fs::write(&p, model().write()).unwrap();
    assert!(load(&p, "trees=3").is_ok());
    let e = load(&p, "trees=4").unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().starts_with(&format!("{}:3: the model was fitted with trees=3", p.display())), "{e}");
    let missing = load(&dir.join("none.model"), "trees=3").unwrap_err();
    assert!(missing.to_string().contains("none.model") && missing.exit_code() == 2, "{missing}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn without_a_model_the_family_scores_with_the_prior_of_blocks() {
    let page = "<body><nav><a href=/>Home</a> <a href=/n>News</a></nav><article><p>This is the first \
        paragraph of the story. It has several sentences, and commas.</p></article></body>";
    assert_eq!(super::super::testutil::run("blocktrees", &[], page), super::super::testutil::run("blocks", &[], page));
}

#[test]
fn a_stacked_model_file_reads_back_as_the_model_it_was_written_from() {
    let mut m = model();
    let mut second = m.forest.clone();
    second.gain = vec![0.5; N_FEATURES + context::N_CONTEXT];
    second.trees.push(vec![
        Node::Split { feature: (N_FEATURES + 1) as u16, threshold: 0.5, left: 1, right: 2 },
        Node::Leaf(-1.0),
        Node::Leaf(1.0),
    ]);
    m.stack = Some(second);
    assert_eq!(Model::read(&m.write()).unwrap(), m);
    // A first-stage tree may not split on a context feature.
    let text = m.write();
    let split = text.lines().find(|l| l.starts_with("s ")).unwrap();
    let moved: Vec<&str> = split.split(' ').collect();
    let moved = format!("s {} {} {} {}", N_FEATURES + 1, moved[2], moved[3], moved[4]);
    let bad = text.replacen(split, &moved, 1);
    assert!(Model::read(&bad).unwrap_err().to_string().contains("out of range"));
}

/// A model of one split on `log_words`: short blocks (under about 20 words) score log-odds −3
/// (p 0.05), long ones −3 + `long`.
fn by_length(long: f32) -> Arc<Model> {
    let at = FEATURES.iter().position(|(n, _)| *n == "log_words").unwrap();
    let forest = Forest {
        base: -3.0,
        trees: vec![vec![
            Node::Split { feature: at as u16, threshold: 0.5, left: 1, right: 2 },
            Node::Leaf(0.0),
            Node::Leaf(long),
        ]],
        gain: vec![0.0; N_FEATURES],
    };
    Arc::new(Model { forest, stack: None, fit: String::new(), members: 0, regions: None, fitted: Vec::new() })
}

/// The texts of the blocks `m` keeps on `doc` under the defaults with `assignments`.
fn kept(doc: &Document, m: &Arc<Model>, assignments: &[&str]) -> Vec<String> {
    let space = super::super::space("blocktrees").unwrap();
    let v: Vec<String> = assignments.iter().map(|a| a.to_string()).collect();
    let s = space.with_assignments(&space.defaults(), &v).unwrap();
    let ex = Blocktrees::from_model(&crate::extract::Engine::default(), &s, m.clone()).unwrap();
    let mut sel = Selection::new(View::Blocks);
    ex.extract(doc, &mut sel).unwrap();
    sel.units.iter().map(|&b| doc.segments.texts.get(b as usize).to_string()).collect()
}

#[test]
fn a_page_the_model_is_unsure_of_keeps_its_best_blocks_with_t_rel() {
    // Long blocks score log-odds -2 (p 0.12), short ones -3 (p 0.05): none reaches t = 0.5.
    let m = by_length(1.0);
    let page = "<body><p>short one</p><p>a long paragraph of many words that goes on and on for quite a \
        while longer than the others, many more words than any other block on this small page here</p></body>";
    let doc = Document::parse(page);
    let text = |t_rel: &str| kept(&doc, &m, &["t=0.5", &format!("t_rel={t_rel}")]).len();
    assert_eq!(text("0"), 0);
    assert_eq!(text("0.5"), 1);
    assert_eq!(text("0.3"), 2);
}

// The block family at the places of routes and combinations (`extract/fitted.rs`).

fn route(sets: &[&str]) -> Setting {
    let text = "extractor: r\nbranches: [learned=blocktrees, pages=mixed, lqf]\nrules: 1\nparameters: []\n";
    let space = crate::params::parse_str(text, Path::new("r.yaml"), &crate::extract::space).unwrap().space;
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    space.with_assignments(&space.defaults(), &sets).unwrap()
}

fn model_fitted(fit: &str) -> Model {
    Model { fit: fit.into(), ..model() }
}

#[test]
fn fitted_families_are_found_where_pages_can_reach_them() {
    let names = |s: &Setting| places(s).unwrap().into_iter().map(|(p, _)| p).collect::<Vec<_>>();
    // Every page to lqf: nothing is fitted; a rule to `learned`: the branch is.
    assert!(names(&route(&["otherwise=lqf"])).is_empty());
    assert!(!needs_fit(&route(&["otherwise=lqf"])));
    let ruled = route(&["otherwise=lqf", "if1.on=true", "if1.then=learned", "learned.t=0.42"]);
    assert_eq!(names(&ruled), ["learned"]);
    let (_, own) = &places(&ruled).unwrap()[0];
    assert_eq!(own.extractor, "blocktrees");
    assert_eq!(own.get("t"), Some(&crate::params::Value::Float(0.42)));
    // A member of a combination branch, only while it is on.
    assert!(names(&route(&["otherwise=pages"])).is_empty());
    let space = crate::extract::space("mixed").unwrap();
    assert!(space.param("blocktrees.t").is_none(), "mixed has no blocktrees member");
    let text = "extractor: c\nmembers: [blocktrees, lqf]\nparameters: []\n";
    let c = crate::params::parse_str(text, Path::new("c.yaml"), &crate::extract::space).unwrap().space;
    assert_eq!(names(&c.defaults()), ["blocktrees"]);
    let off = c.with_assignments(&c.defaults(), &["blocktrees.on=false".into()]).unwrap();
    assert!(names(&off).is_empty());
    // The family alone sits at the empty place.
    assert_eq!(names(&crate::extract::space("blocktrees").unwrap().defaults()), [""]);
}

#[test]
fn a_model_file_of_places_reads_back_and_is_checked_place_by_place() {
    let s = route(&["otherwise=learned"]);
    let (_, own) = places(&s).unwrap().remove(0);
    let key = fit_key(&own);
    let text = write(&[("learned".into(), Arc::new(model_fitted(&key)))]);
    let dir = std::env::temp_dir().join(format!("cetune-fitted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("best.model");
    std::fs::write(&p, &text).unwrap();
    let m = fitted::load(&p, &s).unwrap();
    assert_eq!(m.0.len(), 1);
    assert_eq!(m.0[0].model.write(), model_fitted(&key).write(), "the model reads back as written");
    assert_eq!(m.under("learned").here().map(|x| x.model.key().to_string()), Some(key.clone()));
    assert!(fits(&crate::extract::Engine::default(), &p, &s).unwrap());
    // Another threshold needs no refit; another tree count does.
    assert!(fits(&crate::extract::Engine::default(), &p, &route(&["otherwise=learned", "learned.t=0.7"])).unwrap());
    let other = route(&["otherwise=learned", "learned.trees=50"]);
    assert!(!fits(&crate::extract::Engine::default(), &p, &other).unwrap());
    let e = fitted::load(&p, &other).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().starts_with(&format!("{}:5: the model of 'learned' was fitted with", p.display())), "{e}");
    // A damaged file: its line in the file, not in the section.
    let broken = text.replacen("\nbase ", "\nbase x", 1);
    std::fs::write(&p, &broken).unwrap();
    let e = fitted::load(&p, &s).unwrap_err();
    assert!(e.to_string().starts_with(&format!("{}:6:", p.display())), "{e}");
    std::fs::write(&p, text.replacen("place learned", "place pages", 1)).unwrap();
    let e = fitted::load(&p, &s).unwrap_err();
    assert!(e.to_string().contains("holds no model for 'learned'") && e.exit_code() == 2, "{e}");
    std::fs::write(&p, "hello\n").unwrap();
    assert!(fitted::load(&p, &s).unwrap_err().to_string().contains(":1: not a model file of places"));
    let e = fitted::load(&dir.join("none.model"), &s).unwrap_err();
    assert!(e.exit_code() == 2 && e.to_string().contains("none.model"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_model_of_an_earlier_feature_table_reads_on_todays_rows() {
    // A stacked model written when the table ended before the `lists` group: its context
    // features follow its last block feature, and its gains cover those features only.
    let k = FEATURES.iter().position(|(_, g)| *g == "lists").unwrap();
    let gains = |n: usize| (0..n).map(|j| format!("f{j}=0.5")).collect::<Vec<_>>().join(",");
    let text = format!(
        "cetune blocktrees model 1\nfeatures {}\nfit trees=1\nbase -1\ngain {}\ntrees 1\ntree 3\ns 0 0.5 1 2\nl -1\nl 1\n\
         stack\nbase 0\ngain {}\ntrees 1\ntree 3\ns {} 0.5 1 2\nl -2\nl 2\nend\n",
        version_of(k),
        gains(k),
        gains(k + context::N_CONTEXT),
        k + 1
    );
    assert_eq!(block_features_of(&version_of(k)), Some(k));
    let m = Model::read(&text).unwrap();
    assert_eq!(m.forest.gain.len(), N_FEATURES);
    assert!(m.forest.gain[k..].iter().all(|g| *g == 0.0));
    let second = m.stack.unwrap();
    assert_eq!(second.gain.len(), N_FEATURES + context::N_CONTEXT);
    // The context feature it split on is the same one, now past the appended features.
    assert!(matches!(second.trees[0][0], Node::Split { feature, .. } if usize::from(feature) == N_FEATURES + 1));
    assert!((second.gain[N_FEATURES + 1] - 0.5).abs() < 1e-12);
    // A table that is not an earlier cut of today's is still refused.
    assert_eq!(block_features_of("3:0000000000000000"), None);
    // With stacked members: their votes follow the block features, and move with the context.
    let with_members = text.replacen("fit trees=1\n", "fit trees=1\nmembers 1\n", 1).replacen(
        &format!("gain {}\ntrees 1\ntree 3\ns 0", gains(k)),
        &format!("gain {}\ntrees 1\ntree 3\ns {k}", gains(k + 1)),
        1,
    );
    let with_members = with_members.replacen(
        &format!("gain {}", gains(k + context::N_CONTEXT)),
        &format!("gain {}", gains(k + 1 + context::N_CONTEXT)),
        1,
    );
    let m = Model::read(&with_members).unwrap();
    assert_eq!(m.members, 1);
    assert!(matches!(m.forest.trees[0][0], Node::Split { feature, .. } if usize::from(feature) == N_FEATURES));
    assert_eq!(m.stack.unwrap().gain.len(), N_FEATURES + 1 + context::N_CONTEXT);
}

#[test]
fn vote_keeps_or_drops_a_record_group_as_a_whole() {
    // Long blocks score p 0.73, short ones p 0.05; of four list records two are long.
    let m = by_length(4.0);
    let long = "many words in this record that describe the item at some length for a reader to see, \
        and then some more of them, since a long block needs at least twenty words to score high";
    let page = format!(
        "<body><p>alone</p><ul><li>{long}</li><li>short item</li><li>{long}</li><li>short one</li></ul></body>"
    );
    let doc = Document::parse(&page);
    let by_vote = |vote: &str| kept(&doc, &m, &["t=0.5", "t_rel=0", &format!("vote={vote}")]);
    assert_eq!(by_vote("0"), [long, long]);
    // The group's word-weighted mean is the long records': every record is kept, the lone
    // short paragraph (in no group) is not.
    assert_eq!(by_vote("1"), [long, "short item", long, "short one"]);
}

#[test]
fn whole_keeps_a_record_whole_when_its_best_block_is_kept() {
    // Cards of a title (short: p 0.05) and a description (long: p 0.73).
    let m = by_length(4.0);
    let long = "a description of the game at some length, with enough words in it for the model to \
        score it high, about twenty five words or a few more than that";
    let cards: String =
        (0..3).map(|i| format!("<div class=card><h3>Game {i}</h3><p>{long}</p><span>Tag</span></div>")).collect();
    let page = format!("<body><p>alone</p><div class=grid>{cards}</div></body>");
    let doc = Document::parse(&page);
    let by_whole = |whole: &str| kept(&doc, &m, &["t=0.5", "t_rel=0", &format!("whole={whole}")]);
    assert_eq!(by_whole("0"), [long, long, long]);
    let all = by_whole("1");
    assert_eq!(all.len(), 9, "{all:?}");
    assert!(all[0] == "Game 0" && all[2] == "Tag" && !all.iter().any(|t| t == "alone"));
}

#[test]
fn focus_drops_what_lies_outside_the_region_of_the_best_expected_f1() {
    // Long blocks p 0.73, short ones p 0.05: an article of three long paragraphs, and a sidebar
    // whose one long block sits among twenty short links.
    let m = by_length(4.0);
    let long = |w: &str| format!("{w} ").repeat(30);
    let links: String = (0..20).map(|i| format!("<li><a href=/{i}>short link {i}</a></li>")).collect();
    let page = format!(
        "<body><article><p>{}</p><p>{}</p><p>{}</p></article><aside><div>{}</div><ul>{links}</ul></aside></body>",
        long("story"),
        long("more"),
        long("end"),
        long("promo")
    );
    let doc = Document::parse(&page);
    let first_words = |focus: &str| -> Vec<String> {
        let texts = kept(&doc, &m, &["t=0.5", "t_rel=0", &format!("focus={focus}")]);
        texts.iter().map(|t| t.split(' ').next().unwrap().to_string()).collect()
    };
    assert_eq!(first_words("0"), ["story", "more", "end", "promo"]);
    // The article's expected F1 (0.73) beats the page's (0.67): the promo is outside it.
    assert_eq!(first_words("1"), ["story", "more", "end"]);
    assert_eq!(first_words("0.2"), ["story", "more", "end", "promo"]);
}

/// The defaults with `member1` set to `name` (any family: the built-in choices are a few).
fn with_member(name: &str) -> Setting {
    let mut s = super::super::space("blocktrees").unwrap().defaults();
    s.values.iter_mut().find(|(n, _)| n == "member1").unwrap().1 = crate::params::Value::Cat(name.into());
    s
}

/// A forest over the block features and `members` stacked votes that splits on the first vote.
fn voting(members: usize) -> Model {
    let f = N_FEATURES + members;
    let forest = Forest {
        base: 0.0,
        trees: vec![vec![
            Node::Split { feature: N_FEATURES as u16, threshold: 0.5, left: 1, right: 2 },
            Node::Leaf(-5.0),
            Node::Leaf(5.0),
        ]],
        gain: (0..f).map(|j| if j == N_FEATURES { 1.0 } else { 0.0 }).collect(),
    };
    Model { forest, stack: None, fit: "member1=lqf".into(), members, regions: None, fitted: Vec::new() }
}

#[test]
fn a_model_of_stacked_members_reads_back_and_needs_as_many_members() {
    let m = voting(2);
    let text = m.write();
    assert!(text.contains("\nmembers 2\n") && text.contains("member1=1,member2=0"), "{text}");
    assert_eq!(Model::read(&text).unwrap(), m);
    // A model without members writes no such line (the files of earlier versions read as before).
    assert!(!model().write().contains("members"));
    let s = with_member("full");
    let e = Blocktrees::from_model(&crate::extract::Engine::default(), &s, Arc::new(m)).err().unwrap();
    assert!(e.to_string().contains("reads 2 stacked members' votes, the setting names 1"), "{e}");
}

#[test]
fn a_member_votes_with_the_share_of_each_block_it_keeps() {
    let engine = crate::extract::Engine::default();
    let s = with_member("full");
    assert_eq!(members::names(&s), ["full"]);
    let ms = members::build(&engine, &s, &[]).unwrap();
    let doc = Document::parse(
        "<body><p>one two three</p><noscript><p>hidden words here</p></noscript><p>four five</p></body>",
    );
    let cand: Vec<u32> = (0..doc.segments.len() as u32).collect();
    let v = members::votes(&doc, &cand, &ms).unwrap();
    // `full` keeps every visible word; a hidden block holds no canonical word, so no vote.
    let want: Vec<f32> = cand.iter().map(|&b| if doc.segments.hidden[b as usize] == 0 { 1.0 } else { 0.0 }).collect();
    assert_eq!(v, want);
    assert!(want.contains(&0.0) && want.contains(&1.0), "{want:?}");
    // The model trusts the member: every block it keeps is kept, the hidden one is not.
    let ex = Blocktrees::from_model(&engine, &s, Arc::new(voting(1))).unwrap();
    let mut sel = Selection::new(View::Blocks);
    ex.extract(&doc, &mut sel).unwrap();
    let texts: Vec<&str> = sel.units.iter().map(|&b| doc.segments.texts.get(b as usize)).collect();
    assert_eq!(texts, ["one two three", "four five"]);
}

#[test]
fn a_member_naming_its_own_model_is_refused_a_fitted_one_is_not_and_an_unknown_one_named() {
    let engine = crate::extract::Engine::default();
    // Fitted on gold and naming no model: the trees' fit fits it out of fold.
    assert!(members::setting_of(&engine, "blocktrees").is_ok());
    let dir = std::env::temp_dir().join(format!("cetune-members-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let own = dir.join("own.yaml");
    std::fs::write(&own, "extractor: blocktrees\nmodel: own.model\nvalues:\n  t: 0.5\n").unwrap();
    let e = members::setting_of(&engine, own.to_str().unwrap()).unwrap_err();
    assert!(e.to_string().contains("it names a model fitted on gold"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
    let e = members::setting_of(&engine, "nosuch").unwrap_err();
    assert!(e.to_string().starts_with("blocktrees member 'nosuch':"), "{e}");
    let e = members::setting_of(&engine, "missing/file.yaml").unwrap_err();
    assert!(e.to_string().contains("missing/file.yaml"), "{e}");
    assert!(members::setting_of(&engine, "general").is_ok());
}

#[test]
fn a_model_holding_a_fitted_member_reads_back_and_keeps_the_members_own_end_lines() {
    let inner = model().write();
    assert!(inner.lines().any(|l| l == "end"));
    let mut m = voting(2);
    m.fitted = vec![
        None,
        Some(Arc::new(members::Fitted::from_text(fitted::write(&[(
            String::new(),
            Arc::new(model()) as Arc<dyn super::super::fit::Model>,
        )])))),
    ];
    let text = m.write();
    assert!(text.contains("\nmember 2 lines "), "{text}");
    // The member's own lines are behind "| ": the block model's file has one 'end' line.
    assert_eq!(text.lines().filter(|l| *l == "end").count(), 1);
    assert_eq!(Model::read(&text).unwrap(), m);
    let bad = text.replacen("member 2 lines", "member 3 lines", 1);
    assert!(Model::read(&bad).unwrap_err().to_string().contains("member 3: the model reads 2 members"));
}

#[test]
fn a_description_written_before_the_late_parameters_reads_them_at_their_old_values() {
    // params/blocktrees.yaml without the parameters added since descriptions were written.
    let own = include_str!("../../../params/blocktrees.yaml");
    let mut text = String::new();
    let mut skip = false;
    for line in own.lines() {
        if let Some(name) = line.strip_prefix("  - name: ") {
            skip = LATE.iter().any(|(n, _)| *n == name);
        } else if !line.starts_with("    ") {
            skip = false;
        }
        if !skip {
            text.push_str(line);
            text.push('\n');
        }
    }
    let file = crate::extract::parse_str(&text, Path::new("old.yaml")).unwrap();
    assert!(LATE.iter().all(|(n, _)| file.setting.get(n).is_none()));
    let defaults = super::super::space("blocktrees").unwrap().defaults();
    // The same fit as today's defaults, and it builds (with a model, too).
    assert_eq!(fit_key(&file.setting), fit_key(&defaults));
    assert_eq!(hyper(&file.setting).unwrap().0.allowed, hyper(&defaults).unwrap().0.allowed);
    assert!(crate::extract::build(&crate::extract::Engine::default(), &file.setting).is_ok());
    let m = Arc::new(model());
    assert!(Blocktrees::from_model(&crate::extract::Engine::default(), &file.setting, m).is_ok());
}

// The learned region decision (`regions.rs`).

#[test]
fn a_regions_label_is_its_f1_against_the_gold() {
    // Four blocks of 4 tokens; the gold holds the middle two.
    let kept = [(4, 0), (4, 4), (4, 4), (4, 0)];
    let y = regions::labels(&[(1, 2), (0, 3), (0, 0), (1, 1)], &kept);
    let want = [1.0, 2.0 * 8.0 / 24.0, 0.0, 2.0 * 4.0 / 12.0];
    assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-6), "{y:?}");
}

/// A page of an `h1`, a main list of `main` records and a teaser list of three records of the
/// same shape (a name, a price), the teaser first when `teaser_first`.
fn two_lists(main: usize, teaser_first: bool) -> String {
    let card =
        |i: usize, what: &str| format!("<li><a href=/{what}/{i}>{what} event {i}</a> <span>from $2{i}</span></li>");
    let list = |n: usize, what: &str| format!("<ul>{}</ul>", (0..n).map(|i| card(i, what)).collect::<String>());
    let (m, t) = (list(main, "main"), format!("<h2>Popular</h2>{}", list(3, "teaser")));
    let body = if teaser_first { format!("{t}{m}") } else { format!("{m}{t}") };
    format!("<body><h1>Concerts</h1><div>{body}</div><footer><p>Imprint and contact</p></footer></body>")
}

#[test]
fn the_candidate_regions_hold_each_record_group_and_the_page() {
    let doc = Document::parse(&two_lists(6, true));
    let s = &doc.segments;
    let cand: Vec<u32> = (0..s.len() as u32).collect();
    let r = regions::regions(s, &cand, &vec![0.5; cand.len()]);
    assert_eq!(r.spans.len(), r.rows.len());
    // The span of each list's records is a candidate, and so is the page.
    let span_of = |what: &str| {
        let bs: Vec<u32> = cand.iter().copied().filter(|&b| s.texts.get(b as usize).contains(what)).collect();
        (bs[0], *bs.last().unwrap())
    };
    let (main, teaser) = (span_of("main event"), span_of("teaser event"));
    for span in [main, teaser, (0, s.len() as u32 - 1)] {
        assert!(r.spans.contains(&span), "{span:?} not in {:?}", r.spans);
    }
    // Under flat scores the main list holds twice the teaser's words, and the page all of them.
    let row = |span| r.rows[r.spans.iter().position(|x| *x == span).unwrap()];
    let words = regions::REGION.iter().position(|n| *n == "reg_words").unwrap();
    assert!(row(main)[words] > 1.5 * row(teaser)[words] && (row((0, s.len() as u32 - 1))[words] - 1.0).abs() < 1e-6);
    // Labelled against a gold of the main list's words, the main list is the best region.
    let kept: Vec<(u32, u32)> = (0..s.len())
        .map(|b| {
            let t = s.words[b];
            (t, if (main.0..=main.1).contains(&(b as u32)) { t } else { 0 })
        })
        .collect();
    let y = regions::labels(&r.spans, &kept);
    let best = (0..y.len()).max_by(|&i, &j| y[i].total_cmp(&y[j])).unwrap();
    assert_eq!((r.spans[best], y[best]), (main, 1.0));
}

#[test]
fn the_chosen_regions_blocks_are_inside_it_and_the_others_at_a_distance() {
    for teaser_first in [true, false] {
        let doc = Document::parse(&two_lists(6, teaser_first));
        let s = &doc.segments;
        let cand: Vec<u32> = (0..s.len() as u32).collect();
        let r = regions::regions(s, &cand, &vec![0.5; cand.len()]);
        // Score the main list's span highest.
        let main: Vec<u32> = cand.iter().copied().filter(|&b| s.texts.get(b as usize).contains("main event")).collect();
        let span = (main[0], *main.last().unwrap());
        let q: Vec<f64> = r.spans.iter().map(|x| if *x == span { 0.9 } else { 0.2 }).collect();
        let f = regions::block_features(s, &cand, &r, &q);
        for (&b, row) in cand.iter().zip(&f) {
            let inside = main.contains(&b);
            assert_eq!(row[0] > 0.5, inside, "block {b}: {}", s.texts.get(b as usize));
            assert!((row[1] - 0.9).abs() < 1e-6);
            // The distance counts the words between a block and the region: 0 inside and next to it.
            let next_to = b + 1 == span.0 || b == span.1 + 1;
            assert_eq!(row[3] > 0.0, !inside && !next_to, "block {b}");
            if inside {
                assert!((row[2] - 0.9).abs() < 1e-6);
            }
        }
    }
}

#[test]
fn a_model_with_a_region_forest_reads_back_and_checks_its_widths() {
    let mut m = model();
    let mut second = m.forest.clone();
    second.gain = vec![0.0; N_FEATURES + context::N_CONTEXT + regions::N_BLOCK];
    // The second stage splits on `reg_in`, the region forest on `reg_f1`.
    let reg_in = N_FEATURES + context::N_CONTEXT;
    second.trees.push(vec![
        Node::Split { feature: reg_in as u16, threshold: 0.5, left: 1, right: 2 },
        Node::Leaf(-2.0),
        Node::Leaf(2.0),
    ]);
    let regions = Forest {
        base: 0.0,
        trees: vec![vec![
            Node::Split { feature: 3, threshold: 0.5, left: 1, right: 2 },
            Node::Leaf(-1.0),
            Node::Leaf(1.0),
        ]],
        gain: vec![0.0; regions::N_REGION],
    };
    m.stack = Some(second);
    m.regions = Some(regions);
    let text = m.write();
    assert!(text.contains("\nregions\nbase ") && text.contains("reg_f1=0") && text.contains("reg_in=0"), "{text}");
    assert_eq!(Model::read(&text).unwrap(), m);
    // The region forest must be followed by the second stage that reads it.
    let cut = text.replacen("\nstack\n", "\nend\n", 1);
    assert!(Model::read(&cut).unwrap_err().to_string().contains("expected 'stack' after the regions' forest"));
}

/// The best-labelled candidate region of `page` when the gold is the words of the blocks whose
/// text contains `gold`, and the span of those blocks.
fn best_region(page: &str, gold: &str) -> ((u32, u32), (u32, u32), f32) {
    let doc = Document::parse(page);
    let s = &doc.segments;
    let cand: Vec<u32> = (0..s.len() as u32).collect();
    let r = regions::regions(s, &cand, &vec![0.5; cand.len()]);
    let inside = |b: usize| s.texts.get(b).contains(gold);
    let kept: Vec<(u32, u32)> = (0..s.len()).map(|b| (s.words[b], if inside(b) { s.words[b] } else { 0 })).collect();
    let y = regions::labels(&r.spans, &kept);
    let best = (0..y.len()).max_by(|&i, &j| y[i].total_cmp(&y[j])).unwrap();
    let blocks: Vec<u32> = cand.iter().copied().filter(|&b| inside(b as usize)).collect();
    (r.spans[best], (blocks[0], *blocks.last().unwrap()), y[best])
}

#[test]
fn a_product_grid_beside_facet_lists_is_a_candidate_region_of_its_own() {
    // Facet lists ("refine by") before the grid; the gold is the cards (a name and a price each).
    let facet = |name: &str| {
        let items: String = (0..6).map(|i| format!("<li><a href=/f/{name}/{i}>{name} {i}</a></li>")).collect();
        format!("<h3>Refine by {name}</h3><ul>{items}</ul>")
    };
    let cards: String = (0..8)
        .map(|i| format!("<div class=card><a href=/p/{i}>Walnut desk card {i}</a><span>$ {}99</span></div>", i + 1))
        .collect();
    let page = format!(
        "<body><aside>{}{}</aside><main><h1>Desks</h1><div class=grid>{cards}</div></main></body>",
        facet("colour"),
        facet("size")
    );
    let (best, cards, f1) = best_region(&page, "card");
    // The grid's cards are one region (their record group), labelled F1 1 (the name and price
    // blocks of every card and nothing else).
    assert_eq!((best.0, f1), (cards.0, 1.0), "best {best:?}, cards {cards:?}");
    assert!(best.1 >= cards.1, "{best:?} {cards:?}");
}

#[test]
fn a_service_page_of_several_headed_sections_is_one_region_not_its_first_section() {
    let section = |i: usize| {
        format!(
            "<h2>Service {i}</h2><p>We offer service {i} with care, and explain every step of it to our clients \
             in plain words.</p><p>Service {i} includes a visit, a plan and a report.</p>"
        )
    };
    let body: String = (0..4).map(section).collect();
    let page = format!(
        "<body><nav><a href=/>Home</a> <a href=/a>About</a></nav><div class=content>{body}</div>\
         <footer><p>Copyright and imprint</p></footer></body>"
    );
    let (best, sections, f1) = best_region(&page, "ervice");
    // The region holding all four sections (their common parent) is labelled best, not the
    // first section's heading section.
    assert_eq!(best, sections, "sections {sections:?}");
    assert!((f1 - 1.0).abs() < 1e-6);
}

/// A run parses its pages with the blocks of structured data when its setting (`--set`) or a
/// gene asks for them, and without them otherwise (they cost a second pass over such pages).
#[test]
fn a_run_reads_structured_blocks_when_its_setting_or_a_gene_asks() {
    let engine = crate::extract::Engine::default();
    let space = crate::extract::space("blocktrees").unwrap();
    let defaults = space.defaults();
    assert!(!crate::extract::run_needs(&engine, &space, &defaults).unwrap().structured);
    let on = space.with_assignments(&defaults, &["group_structured=true".to_string()]).unwrap();
    assert!(crate::extract::run_needs(&engine, &space, &on).unwrap().complete().segments);
    assert!(crate::extract::run_needs(&engine, &space, &on).unwrap().structured);
    let mut tuned = space.clone();
    tuned.params.iter_mut().find(|p| p.name == "group_structured").unwrap().tune = true;
    assert!(crate::extract::space_needs(&engine, &tuned).structured);
}
