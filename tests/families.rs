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
    let ex = cetune::extract::build(&cetune::extract::space("baisa_diff").unwrap().defaults()).unwrap();
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
