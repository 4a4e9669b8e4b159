use super::*;

fn model() -> Model {
    let rows = trees::Rows {
        f: N_FEATURES,
        x: (0..40).flat_map(|i| (0..N_FEATURES).map(move |j| ((i * 7 + j) % 11) as f32 / 10.0)).collect(),
        y: (0..40).map(|i| if i % 3 == 0 { 1.0 } else { 0.0 }).collect(),
        w: vec![1.0; 40],
    };
    let h = Hyper { trees: 3, depth: 2, learning_rate: 0.3, min_leaf: 2, allowed: vec![true; N_FEATURES] };
    Model { forest: trees::fit(&rows, &h), stack: None, fit: "trees=3".into() }
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

#[test]
fn a_page_the_model_is_unsure_of_keeps_its_best_blocks_with_t_rel() {
    // Long blocks score log-odds -2 (p 0.12), short ones -3 (p 0.05): none reaches t = 0.5.
    let at = FEATURES.iter().position(|(n, _)| *n == "log_words").unwrap();
    let forest = Forest {
        base: -3.0,
        trees: vec![vec![
            Node::Split { feature: at as u16, threshold: 0.5, left: 1, right: 2 },
            Node::Leaf(0.0),
            Node::Leaf(1.0),
        ]],
        gain: vec![0.0; N_FEATURES],
    };
    let m = Arc::new(Model { forest, stack: None, fit: String::new() });
    let page = "<body><p>short one</p><p>a long paragraph of many words that goes on and on for quite a \
        while longer than the others, many more words than any other block on this small page here</p></body>";
    let doc = Document::parse(page);
    let text = |t_rel: &str| {
        let space = super::super::space("blocktrees").unwrap();
        let v = vec![format!("t=0.5"), format!("t_rel={t_rel}")];
        let s = space.with_assignments(&space.defaults(), &v).unwrap();
        let ex = Blocktrees::from_model(&s, m.clone()).unwrap();
        let mut sel = Selection::new(View::Blocks);
        ex.extract(&doc, &mut sel).unwrap();
        sel.units.len()
    };
    assert_eq!(text("0"), 0);
    assert_eq!(text("0.5"), 1);
    assert_eq!(text("0.3"), 2);
}
