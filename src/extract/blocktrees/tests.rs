use super::*;

fn model() -> Model {
    let rows = trees::Rows {
        f: N_FEATURES,
        x: (0..40).flat_map(|i| (0..N_FEATURES).map(move |j| ((i * 7 + j) % 11) as f32 / 10.0)).collect(),
        y: (0..40).map(|i| if i % 3 == 0 { 1.0 } else { 0.0 }).collect(),
        w: vec![1.0; 40],
    };
    let h = Hyper { trees: 3, depth: 2, learning_rate: 0.3, min_leaf: 2, allowed: vec![true; N_FEATURES] };
    Model { forest: trees::fit(&rows, &h), fit: "trees=3".into() }
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
