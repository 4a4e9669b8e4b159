//! The multi-file family reads other pages of a page's package: the optimiser's corpus and the
//! streaming commands (`evaluate`, `compare`, `extract --dump`) must give it the same facts.

use crate::util::{beside, cetune, tmp, write};
use cetune::eval::Measure;
use cetune::objective::stream::score_set;
use cetune::objective::{Corpus, score_corpus};

fn page(title: &str) -> String {
    format!(
        "<html><body><ul><li><a href=/>Home</a></li><li><a href=/n>World news</a></li><li><a href=/s>Sport</a></li></ul>\
         <div><h1>{title}</h1><p>The story of {title} is told here in one paragraph with enough words to matter.</p></div>\
         <div>Copyright 2024 The Daily Site, all rights reserved</div></body></html>"
    )
}

#[test]
fn baisa_diff_gets_the_same_package_facts_in_every_command() {
    let set = tmp("baisa-package").join("set");
    for (pkg, id, title) in
        [("site", "1", "Flood"), ("site", "2", "Bridge"), ("site", "3", "Storm"), ("alone", "1", "Fire")]
    {
        write(&set.join(format!("{pkg}/{id}.html")), page(title));
        write(
            &set.join(format!("{pkg}/{id}.txt")),
            format!("{title}\nThe story of {title} is told here in one paragraph with enough words to matter."),
        );
    }
    let gs = cetune::goldset::native::open(&set, false).unwrap();
    let docs: Vec<_> = gs.docs.iter().collect();
    let ex = cetune::extract::build(
        &cetune::extract::Engine::default(),
        &cetune::extract::space("baisa_diff").unwrap().defaults(),
    )
    .unwrap();
    let corpus: Vec<f64> =
        score_corpus(&Corpus::load(&gs, &docs, &|| {}), ex.as_ref()).iter().map(|s| s.prf.f1).collect();
    let stream: Vec<f64> =
        score_set(&gs, &docs, &[ex.as_ref()], Measure::Lcs, &|| {})[0].iter().map(|s| s.prf.f1).collect();
    assert_eq!(corpus, stream);
    // The three pages of `site` lose the shared menu and footer; the lone page falls back to the
    // density descent.
    let dump = beside(&set, "dump");
    cetune(&[
        "extract",
        "-e",
        "baisa_diff",
        "--goldset",
        set.to_str().unwrap(),
        "--dump",
        dump.to_str().unwrap(),
        "-q",
    ])
    .ok();
    let text = std::fs::read_to_string(dump.join("site/2.txt")).unwrap();
    assert_eq!(text, "Bridge\nThe story of Bridge is told here in one paragraph with enough words to matter.");
    // Documents are in package order: `alone` first, then the three pages of `site`.
    assert!(corpus[1..].iter().all(|f| *f == 1.0) && corpus[0] < 1.0, "{corpus:?}");
    let alone = std::fs::read_to_string(dump.join("alone/1.txt")).unwrap();
    let density = cetune(&["extract", "-e", "density", set.join("alone/1.html").to_str().unwrap()]).ok();
    assert_eq!(alone.trim(), density.trim());
}

/// The worked example of adding a family (docs/extending.md): `landmarks` is one folder
/// (`src/extract/landmarks/`, its fact included), one YAML (`params/landmarks.yaml`) and one row
/// of the family table; nothing else in `src/` names it but the module list beside that row.
/// A run tunes it end to end and its winner extracts.
#[test]
fn a_family_added_in_one_folder_one_yaml_and_one_row_is_listed_tuned_and_used() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(root.join("src/extract/landmarks/mod.rs").is_file() && root.join("params/landmarks.yaml").is_file());
    let mut naming = Vec::new();
    let mut stack = vec![root.join("src")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if !p.ends_with("extract/landmarks") {
                    stack.push(p);
                }
            } else if std::fs::read_to_string(&p).is_ok_and(|t| t.contains("landmarks")) {
                naming.push(p.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    assert_eq!(naming, ["src/extract/mod.rs"], "files outside its folder that name the family");
    let rows = std::fs::read_to_string(root.join("src/extract/mod.rs"))
        .unwrap()
        .lines()
        .filter(|l| l.contains("landmarks"))
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(rows, "pub mod landmarks;\nfamily!(\"landmarks\", landmarks::Landmarks::build),");

    assert!(cetune(&["extractors", "landmarks"]).ok().contains("min_words"));
    let run = tmp("landmarks-run").join("run");
    let r = run.to_str().unwrap();
    cetune(&[
        "optimise",
        "-e",
        "landmarks",
        "--population",
        "6",
        "--max-generations",
        "2",
        "--seed",
        "1",
        "--out",
        r,
        "-q",
    ])
    .ok();
    let best = std::fs::read_to_string(run.join("best.yaml")).unwrap();
    assert!(best.contains("extractor: landmarks"), "{best}");
    let individuals = crate::util::read_csv(&run.join("individuals.csv"));
    assert!(individuals.len() > 6, "{} rows", individuals.len());
    let page = tmp("landmarks-page").join("page.html");
    // 600 words: more than any `min_words` the search may pick.
    let story = "The main story of the page is told here. ".repeat(60);
    write(&page, format!("<body><nav><a href=/>Home</a></nav><main><p>{story}</p></main></body>"));
    let text = cetune(&["extract", "--params", run.join("best.yaml").to_str().unwrap(), page.to_str().unwrap()]).ok();
    assert!(text.contains("The main story") && !text.contains("Home"), "{text}");
}
