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
    assert_eq!(html.matches("<svg").count(), 3, "history and both space plots inline");
    for external in ["<script", "src=", "<link", "href=\"http", "url("] {
        assert!(!html.contains(external), "report.html is not self-contained: {external}");
    }
    let importance = crate::util::read_csv(&run.join("importance.csv"));
    assert_eq!(importance[0], ["parameter", "eta2", "bins", "individuals"]);
    assert_eq!(importance.len(), 3, "t and min_chars");
}
