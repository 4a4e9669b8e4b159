//! The HTML report end to end: written by `optimise` and `report --html`, self-contained. The
//! page in a real browser is checked by the `browser` test target (`tests/browser/`).

use crate::util::{beside, cetune, linky_set};

#[test]
fn the_html_report_is_self_contained() {
    let set = linky_set("html", 9);
    let run = beside(&set, "run");
    let (s, r) = (set.to_str().unwrap(), run.to_str().unwrap());
    cetune(&["optimise", "-e", "lqf", "--goldset", s, "--out", r, "--population", "8", "--max-generations", "4", "-q"])
        .ok();
    // optimise writes the page at the end of the run; after a compare, report --html adds its table.
    assert!(run.join("report.html").is_file());
    cetune(&["compare", "--goldset", s, "--run", r, "--top", "2", "--with-defaults", "-q"]).ok();
    std::fs::remove_file(run.join("report.html")).unwrap();
    // A Pareto or validation table written into the run folder by another command is shown too.
    std::fs::write(run.join("pareto.csv"), "setting,precision,recall\nlqf t=0.1,0.91,0.72\n").unwrap();
    cetune(&["report", r]).ok();
    assert!(!run.join("report.html").exists(), "report writes the page only with --html");
    cetune(&["report", r, "--html"]).ok();
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    for part in [
        "<h2>Best against the default</h2>",
        "<h2>Documents won and lost</h2>",
        "<h2>Fitness by gene value</h2>",
        "<h2>The top settings</h2>",
        "<h2>Files of the run</h2>",
        "<a href=\"individuals.csv\">individuals.csv</a>",
        "<a href=\"top.csv\">top.csv</a>",
        "<a href=\"documents.csv\">documents.csv</a>",
        "<table class=\"sortable\">",
        ">gold</a><a href=\"../",
        "\">diff</a>",
        "<h2>Settings</h2>",
        "<h2>Table 2: the top individuals</h2>",
        "<h2>Fitness by generation</h2>",
        "<h2>Explored space</h2>",
        "<h2>Parameter importance</h2>",
        &format!("<h2>Table 3: compare-{}</h2>", set.file_name().unwrap().to_str().unwrap()),
        "Gottron 2009",
        "<h2>pareto.csv</h2>",
        "<td>lqf t=0.1</td>",
    ] {
        assert!(html.contains(part), "report.html lacks {part}");
    }
    assert_eq!(
        html.matches("<svg").count(),
        5,
        "history, both space plots, the slices and parallel coordinates inline"
    );
    // Headline first, settings last (folded), every table in a container that scrolls sideways.
    let at = |h: &str| html.find(&format!("<h2>{h}</h2>")).unwrap();
    assert!(at("Best against the default") < at("Documents won and lost"));
    assert!(at("Documents won and lost") < at("Fitness by generation"));
    assert!(
        at("Files of the run") < at("Settings") && html[at("Settings")..].contains("<details><summary>The run&#39;s")
    );
    assert_eq!(
        html.matches("<table").count(),
        html.matches("<div class=\"wrap").count(),
        "a table outside a container"
    );
    // The best against the compare's baseline (default) on the full collection, in the headline.
    let lead = &html[at("Best against the default")..at("Documents won and lost")];
    assert!(lead.contains("class=\"headline\"") && lead.contains("compare-") && lead.contains("95% CI"), "{lead}");
    // Numbers rounded to what they mean: no score with more than four decimals in a cell.
    let long = html.split("<td").filter(|c| c.split('<').next().is_some_and(|t| t.contains(".00000"))).count();
    assert_eq!(long, 0, "unrounded numbers in report.html");
    // Self-contained: one inline script (the table sorter), nothing loaded from elsewhere.
    assert_eq!(html.matches("<script").count(), 1);
    for external in ["src=", "<link", "href=\"http", "url(", "href=\"/"] {
        assert!(!html.contains(external), "report.html is not self-contained: {external}");
    }
    // The word diffs the documents' table links to: gold words missed, words extracted beyond it.
    let diffs: Vec<_> = std::fs::read_dir(run.join("diffs")).unwrap().flatten().collect();
    assert!(!diffs.is_empty());
    let one = std::fs::read_dir(diffs[0].path()).unwrap().flatten().next().unwrap().path();
    let diff = std::fs::read_to_string(one).unwrap();
    assert!(
        diff.contains("<h2>best setting (F1 ") && diff.contains("<h2>default (F1 ") && diff.contains("<del>"),
        "{diff}"
    );
    let importance = crate::util::read_csv(&run.join("importance.csv"));
    assert_eq!(importance[0], ["parameter", "eta2", "bins", "individuals"]);
    assert_eq!(importance.len(), 3, "t and min_chars");
}
