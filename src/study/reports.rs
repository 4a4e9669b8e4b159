//! Reading a run folder back and writing its reports: the tables, the plots, `best.yaml`,
//! `importance.csv` and the self-contained `report.html` (shared by a run's end, `cetune report`
//! and `cetune compare`).

use crate::error::{Error, Result};
use crate::evolve::Trial;
use crate::params::{About, ParamSpace, Setting, settings_file};
use crate::report::html::{Body, Cell, Section};
use crate::report::importance::{BINS, Importance, importance};
use crate::report::plot::SpaceInfo;
use crate::report::plot::{
    HistoryInfo, Shade, StructureInfo, render_history, render_parallel, render_slices, render_space, render_structure,
};
use crate::report::run::{generations_info, panels, space_info, top_rows, write_generations, write_top};
use crate::store::{self, RunRecord, files};
use std::path::Path;

/// The run record, its parameter space and the base setting (fixed parameters).
pub fn load_run(dir: &Path) -> Result<(RunRecord, ParamSpace, Setting)> {
    if !dir.join(files::RUN).exists() {
        return Err(Error::config("not a run folder: no run.yaml").with_path(dir));
    }
    let record: RunRecord = store::read_yaml(&dir.join(files::RUN))?;
    let space = crate::extract::parse_str(&record.params_yaml, &dir.join(files::RUN))?.space;
    let base = space.with_assignments(&space.defaults(), &record.sets)?;
    Ok((record, space, base))
}

/// The fitted model a fitted family's run (or a route's or combination's holding one) writes
/// beside its `best.yaml`, which names it.
pub const MODEL: &str = "best.model";

/// `s` (a setting of the run in `dir`) with the run's fitted model attached when it needs one:
/// `Ok(None)` when the run's `best.model` was fitted with other parameters (only the best
/// setting has a model), so the caller can leave it out; a missing or damaged model is an error.
pub fn with_run_model(engine: &crate::extract::Engine, dir: &Path, mut s: Setting) -> Result<Option<Setting>> {
    if !crate::objective::fit::needs_fit(&s) {
        return Ok(Some(s));
    }
    let path = dir.join(MODEL);
    if !crate::extract::fitted::fits(engine, &path, &s)? {
        return Ok(None);
    }
    s.model = Some(path);
    Ok(Some(s))
}

/// Writes `generations.csv`, `top.csv`, `top.md`, `best.yaml`, `importance.csv` and the plots
/// from the trials, and with `html` the page `report.html` that gathers them with the run's
/// settings and every table of the run folder. A `--objective pareto` run also gets
/// `pareto.csv` and its plot, `best.yaml` holds the point its pick chooses, and the returned
/// record says which (to be stored in `run.yaml`).
pub fn write_reports(
    dir: &Path,
    record: &RunRecord,
    space: &ParamSpace,
    base: &Setting,
    trials: &[Trial],
    top: usize,
    html: bool,
) -> Result<Option<crate::store::ParetoRecord>> {
    let pareto = if record.objective == "pareto" {
        super::pareto::write(dir, record, space, trials, super::pareto::pick_of(record)?)?
    } else {
        None
    };
    write_generations(&dir.join(files::GENERATIONS), trials)?;
    let documents = match &record.validation {
        Some(v) => format!("{} documents, {} held out", record.goldset.documents, v.validation_documents),
        None => format!("{} documents", record.goldset.documents),
    };
    let title = format!("{} on {} ({documents}), seed {}", record.extractor, record.goldset.name, record.config.seed);
    let validation = super::validation::read(dir)?;
    write_top(dir, space, base, trials, top, &format!("Top individuals: {title}"), &validation)?;
    if let Some(p) = &record.paired {
        let md = std::fs::read_to_string(dir.join("top.md")).map_err(|e| Error::io(&dir.join("top.md"), "read", e))?;
        let md = format!("{md}\n{}\n\n{PAIRED_NOTE}\n", paired_line(p));
        crate::report::write_atomic(&dir.join("top.md"), md.as_bytes())?;
    }
    let best = match &pareto {
        Some((chosen, _)) => Some(chosen),
        None => crate::report::run::top(trials, 1).first().copied(),
    };
    if let Some(best) = best {
        let mut s = space.from_genome(base, &best.genome);
        if crate::objective::fit::needs_fit(&s) {
            // Fitted on the sample by the run (`execute`), beside this file.
            s.model = Some(MODEL.into());
        }
        let about = About {
            fitness: best.fitness.value,
            precision: best.fitness.precision,
            recall: best.fitness.recall,
            objective: record.objective.clone(),
            goldset: record.goldset.name.clone(),
            run: crate::paths::recorded(dir),
            structure: crate::params::combine::describe(space, &s),
        };
        // A combination that is not compiled in (or differs from the compiled-in one of its
        // name) carries its description, so that its best.yaml loads back anywhere.
        // An external extractor has no compiled-in description at all.
        let external =
            space.kind == crate::params::Kind::External || !crate::params::Member::workers(&space.members).is_empty();
        // So does a family's description whose values its built-in one refuses (a block
        // model's member named by a file).
        let builtin = crate::extract::space(&space.extractor).ok();
        let foreign = builtin.as_ref().is_none_or(|b| b.check_setting(&s).is_err());
        let own = (!space.members.is_empty() || external || foreign) && builtin.as_ref() != Some(space);
        let text = format!(
            "# The best individual of this run; use it with `cetune evaluate --params` or `cetune extract --params`.\n{}{}",
            if space.members.is_empty() {
                ""
            } else {
                "# `values` is the active setting; `inactive` holds parameters this setting does not use (a switched-off\n# member's, the vote's outside a vote), kept so that the file loads back as the run's individual.\n"
            },
            settings_file(&s, Some(&about), own.then_some(space), Some(space))?
        );
        crate::report::write_atomic(&dir.join("best.yaml"), crate::yaml::seal(&text).as_bytes())?;
    }
    let rows = generations_info(trials).into_iter().map(|(r, _)| r).collect();
    let y_desc = match (record.objective.as_str(), record.measure.as_str()) {
        ("f1", "lcs") => "fitness (mean F1)".to_string(),
        (objective, measure) => format!("fitness ({objective}, measure {measure})"),
    };
    let held = super::validation::generation_bests(trials)
        .into_iter()
        .filter_map(|t| validation.get(&t.number).map(|v| (t.generation, v.0)))
        .collect();
    // The default's fitness: the trial of the default setting, when the run evaluated it.
    let default_genome = space.to_genome(base);
    let default = trials.iter().find(|t| !t.cached && t.fitness.partial.is_none() && t.genome == default_genome);
    let history = HistoryInfo {
        title: format!("Fitness by generation: {title}"),
        rows,
        y_desc,
        validation: held,
        default: default.map(|t| t.fitness.value),
        worst: record.plot_worst,
    };
    render_history(&history, &dir.join("history"))?;
    let info = space_info(space, base, trials, &format!("Explored space: {title}"));
    // Importance over every tuned parameter; the plots show the most important ones.
    let imp = importance(&info);
    let shown = panels(&info, &imp.iter().map(|i| i.eta2).collect::<Vec<f64>>());
    render_space(&shown, &dir.join("space"), Shade::Fitness)?;
    render_space(&shown, &dir.join("space-generation"), Shade::Generation)?;
    render_slices(&SpaceInfo { title: format!("Fitness by gene value: {title}"), ..info.clone() }, &dir.join("slice"))?;
    render_parallel(
        &SpaceInfo { title: format!("Top settings: {title}"), ..info.clone() },
        &dir.join("parallel"),
        PARALLEL_TOP,
    )?;
    let rows = crate::report::run::structure_info(space, base, trials);
    if !rows.is_empty() {
        let info =
            StructureInfo { title: format!("Members on, by generation: {title}"), members: space.member_names(), rows };
        render_structure(&info, &dir.join("structure"))?;
    }
    crate::report::csv::write(&dir.join("importance.csv"), crate::report::importance::rows(&imp))?;
    if html {
        let sections = html_sections(dir, record, space, base, trials, top, &imp)?;
        let page = crate::report::html::page(&format!("cetune run: {title}"), &sections);
        crate::report::write_atomic(&dir.join("report.html"), page.as_bytes())?;
    }
    Ok(pareto.map(|p| p.1))
}

/// Settings drawn in the parallel-coordinates plot (the fittest distinct ones).
const PARALLEL_TOP: usize = 30;

/// Per-document F1 of the best setting and the default on the tuning documents, written at a
/// run's end (the paired comparison's inputs), read back by the report.
pub const DOCUMENTS: &str = "documents.csv";

/// A row of [`DOCUMENTS`].
#[derive(Debug, Clone, PartialEq)]
pub struct DocumentRow {
    /// The document's package.
    pub package: String,
    /// Its id.
    pub id: String,
    /// The best setting's F1.
    pub best: f64,
    /// The default's F1.
    pub default: f64,
}

/// Writes [`DOCUMENTS`]: `package, id, best_f1, default_f1, difference`, in gold-set order.
pub fn write_documents(dir: &Path, rows: &[DocumentRow]) -> Result<()> {
    let mut out = vec![["package", "id", "best_f1", "default_f1", "difference"].map(String::from).to_vec()];
    for r in rows {
        let n = |x: f64| if x.is_finite() { format!("{x:.6}") } else { String::new() };
        out.push(vec![r.package.clone(), r.id.clone(), n(r.best), n(r.default), n(r.best - r.default)]);
    }
    crate::report::csv::write(&dir.join(DOCUMENTS), out)
}

/// Documents of the worst (best minus default) that get a word diff in `diffs/`.
const DIFFS: usize = 10;

/// Words of a text a diff aligns at most (the rest is left out, said so on the page).
const DIFF_WORDS: usize = 3000;

/// The word diff of a document for the report's links: `diffs/<package>/<id>.html`.
fn diff_path(dir: &Path, package: &str, id: &str) -> std::path::PathBuf {
    dir.join("diffs").join(crate::paths::component(package)).join(format!("{}.html", crate::paths::component(id)))
}

/// Writes, for the [`DIFFS`] documents on which the best setting did worst against the default,
/// a page with the gold text aligned word by word with each setting's output (kept and missed
/// words marked). A setting that cannot be built here (a fitted family's, whose model is fitted
/// after the run) gets no diffs.
pub fn write_diffs(
    engine: &crate::extract::Engine,
    dir: &Path,
    corpus: &crate::objective::corpus::Corpus,
    best: &Setting,
    default: &Setting,
    docs: &[DocumentRow],
) -> Result<()> {
    if crate::objective::fit::needs_fit(best) || crate::objective::fit::needs_fit(default) {
        return Ok(());
    }
    let (Ok(b), Ok(d)) = (crate::extract::build(engine, best), crate::extract::build(engine, default)) else {
        return Ok(());
    };
    let mut order: Vec<usize> =
        (0..docs.len().min(corpus.entries.len())).filter(|&i| (docs[i].best - docs[i].default).is_finite()).collect();
    order.sort_by(|&x, &y| (docs[x].best - docs[x].default).total_cmp(&(docs[y].best - docs[y].default)));
    for &i in order.iter().take(DIFFS) {
        let (e, row) = (&corpus.entries[i], &docs[i]);
        let Some(doc) = &e.doc else { continue };
        let gold: Vec<&str> = e.gold_text.split_whitespace().collect();
        let mut page = format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{t}</title>\n\
             <style>body{{font-family:sans-serif;max-width:1000px;margin:1em auto;padding:0 1em;line-height:1.5}}\
             del{{background:#fdd;color:#900}}ins{{background:#dfd;color:#060;text-decoration:none}}\
             p.w{{overflow-wrap:anywhere}}</style>\n</head>\n<body>\n<h1>{t}</h1>\n\
             <p>Each output aligned with the gold text word by word (longest common subsequence of the words \
             split at white space; the score's own tokens may split punctuation apart): \
             <del>struck red</del> words were extracted but are not in the gold text, <ins>green</ins> gold words \
             were missed, plain words are both.</p>\n",
            t = crate::report::html::escape(&format!(
                "{} / {}: best {:.4}, default {:.4}",
                row.package, row.id, row.best, row.default
            ))
        );
        for (name, ex, f1) in [("best setting", &b, row.best), ("default", &d, row.default)] {
            // An extractor that fails on the page (the score counted it 0) shows no words.
            let text = crate::error::isolate(|| crate::extract::extract_text(ex.as_ref(), doc))
                .ok()
                .and_then(|r| r.ok())
                .unwrap_or_default();
            let out: Vec<&str> = text.split_whitespace().collect();
            page += &format!("<h2>{name} (F1 {f1:.4})</h2>\n<p class=\"w\">{}</p>\n", word_diff(&gold, &out));
            if gold.len() > DIFF_WORDS || out.len() > DIFF_WORDS {
                page +=
                    &format!("<p>(the first {DIFF_WORDS} words of each text are aligned; the rest is left out)</p>\n");
            }
        }
        page += "</body>\n</html>\n";
        let path = diff_path(dir, &row.package, &row.id);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, "create", e))?;
        }
        crate::report::write_atomic(&path, page.as_bytes())?;
    }
    Ok(())
}

/// The words of `gold` and `out` (their first [`DIFF_WORDS`]) as HTML: common words plain, words
/// only in `out` in `<del>`, words only in `gold` in `<ins>`, along a longest common subsequence.
fn word_diff(gold: &[&str], out: &[&str]) -> String {
    let (g, o) = (&gold[..gold.len().min(DIFF_WORDS)], &out[..out.len().min(DIFF_WORDS)]);
    let (n, m) = (g.len(), o.len());
    // lcs[i][j]: the common subsequence of g[i..] and o[j..] (u16: at most DIFF_WORDS).
    let mut lcs = vec![0u16; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[at(i, j)] =
                if g[i] == o[j] { lcs[at(i + 1, j + 1)] + 1 } else { lcs[at(i + 1, j)].max(lcs[at(i, j + 1)]) };
        }
    }
    let esc = crate::report::html::escape;
    let (mut i, mut j, mut s) = (0, 0, String::new());
    while i < n || j < m {
        if i < n && j < m && g[i] == o[j] {
            s += &esc(g[i]);
            (i, j) = (i + 1, j + 1);
        } else if j < m && (i == n || lcs[at(i, j + 1)] >= lcs[at(i + 1, j)]) {
            s += &format!("<del>{}</del>", esc(o[j]));
            j += 1;
        } else {
            s += &format!("<ins>{}</ins>", esc(g[i]));
            i += 1;
        }
        s.push(' ');
    }
    s
}

/// The rows of [`DOCUMENTS`] (none when the run has no such file: it ended before it was written,
/// or was made by an older cetune).
fn read_documents(dir: &Path) -> Result<Vec<DocumentRow>> {
    let path = dir.join(DOCUMENTS);
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let rows = read_csv(&path)?;
    let num = |c: Option<&String>| c.and_then(|c| c.parse::<f64>().ok()).unwrap_or(f64::NAN);
    Ok(rows
        .iter()
        .skip(1)
        .filter(|r| r.len() >= 4)
        .map(|r| DocumentRow { package: r[0].clone(), id: r[1].clone(), best: num(r.get(2)), default: num(r.get(3)) })
        .collect())
}

/// A path as a relative address from the folder `from` to the file `to` (both as they are
/// named now; `None` when either cannot be resolved), for links that keep working when the
/// folders move together.
fn href(from: &Path, to: &Path) -> Option<String> {
    let (from, to) = (std::fs::canonicalize(from).ok()?, std::fs::canonicalize(to).ok()?);
    let (a, b): (Vec<_>, Vec<_>) = (from.components().collect(), to.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = std::iter::repeat_n("..".to_string(), a.len() - common).collect();
    parts.extend(b[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    let mut out = String::new();
    for (k, part) in parts.iter().enumerate() {
        if k > 0 {
            out.push('/');
        }
        for c in part.chars() {
            match c {
                ' ' => out.push_str("%20"),
                '#' => out.push_str("%23"),
                '?' => out.push_str("%3F"),
                '%' => out.push_str("%25"),
                c => out.push(c),
            }
        }
    }
    Some(out)
}

/// The documents' table (worst first: the best setting's F1 minus the default's) and the
/// packages' (their mean differences), each document linked to its gold text and page in the
/// run's gold set when that is where the run recorded it.
fn documents_bodies(dir: &Path, record: &RunRecord, docs: &[DocumentRow]) -> Vec<Body> {
    let gold_root = crate::paths::resolve_recorded(&record.goldset.path, dir).unwrap_or_default();
    let gold_root = gold_root.as_path();
    let mut order: Vec<&DocumentRow> = docs.iter().collect();
    order.sort_by(|a, b| (a.best - a.default).total_cmp(&(b.best - b.default)));
    let f = |x: f64| if x.is_finite() { format!("{x:.4}") } else { "-".into() };
    let signed = |x: f64| if x.is_finite() { format!("{x:+.4}") } else { "-".into() };
    let rows = order
        .iter()
        .map(|d| {
            let mut links = Vec::new();
            for (label, ext) in [("gold", "txt"), ("page", "html")] {
                if let Some(h) = href(dir, &gold_root.join(&d.package).join(format!("{}.{ext}", d.id))) {
                    links.push((label.to_string(), h));
                }
            }
            if let Some(h) = href(dir, &diff_path(dir, &d.package, &d.id)) {
                links.push(("diff".to_string(), h));
            }
            vec![
                Cell::text(&d.package),
                Cell { text: d.id.clone(), links },
                Cell::text(f(d.best)),
                Cell::text(f(d.default)),
                Cell::text(signed(d.best - d.default)),
            ]
        })
        .collect();
    let (better, worse) =
        (docs.iter().filter(|d| d.best > d.default).count(), docs.iter().filter(|d| d.best < d.default).count());
    let mut packages: Vec<(String, Vec<&DocumentRow>)> = Vec::new();
    for d in docs {
        match packages.iter_mut().find(|(p, _)| *p == d.package) {
            Some((_, v)) => v.push(d),
            None => packages.push((d.package.clone(), vec![d])),
        }
    }
    let mean = |v: &[&DocumentRow], g: fn(&DocumentRow) -> f64| v.iter().map(|d| g(d)).sum::<f64>() / v.len() as f64;
    let mut prow: Vec<(f64, Vec<Cell>)> = packages
        .iter()
        .map(|(p, v)| {
            let (b, d) = (mean(v, |r| r.best), mean(v, |r| r.default));
            let count = |c: fn(&&&DocumentRow) -> bool| v.iter().filter(c).count().to_string();
            (
                b - d,
                vec![
                    Cell::text(p),
                    Cell::text(v.len().to_string()),
                    Cell::text(f(b)),
                    Cell::text(f(d)),
                    Cell::text(signed(b - d)),
                    Cell::text(count(|r| r.best > r.default)),
                    Cell::text(count(|r| r.best < r.default)),
                ],
            )
        })
        .collect();
    prow.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut bodies = vec![
        Body::Text(format!(
            "Per-document F1 of the best setting and the default on the {} tuning documents, worst first (the              best setting lost on {worse}, won on {better}); click a column's header to sort by it. `{DOCUMENTS}`              holds these figures.",
            docs.len()
        )),
        Body::Sortable {
            head: ["package", "document", "best F1", "default F1", "Δ F1"].map(String::from).to_vec(),
            rows,
            max_height: 340,
        },
    ];
    if packages.len() > 1 {
        bodies.push(Body::Sortable {
            head: ["package", "documents", "best F1", "default F1", "Δ F1", "better", "worse"]
                .map(String::from)
                .to_vec(),
            rows: prow.into_iter().map(|r| r.1).collect(),
            max_height: 340,
        });
    }
    bodies
}

/// The page's lead: the best setting against the default (on the tuning documents) and against
/// the baseline of every `cetune compare` whose tables are in the run folder.
fn headline(dir: &Path, record: &RunRecord, best_label: Option<&str>, compares: &[(String, Vec<Vec<String>>)]) -> Body {
    let mut lines = Vec::new();
    match (&record.paired, &record.best) {
        (Some(p), _) => {
            lines.push(format!(
                "Best setting: F1 {:.4} against the default's {:.4}, {:+.4} per document (95% CI [{:+.4}, {:+.4}]): {}",
                p.best_f1, p.baseline_f1, p.mean_diff, p.ci95[0], p.ci95[1], p.verdict
            ));
            lines.push(format!(
                "On the {} tuning documents: better on {}, worse on {}, equal on {}; Wilcoxon signed-rank {}.",
                p.documents,
                p.better,
                p.worse,
                p.equal,
                crate::eval::paired::p_clause(p.p)
            ));
        }
        (None, Some(b)) => lines.push(format!(
            "Best setting: fitness {:.4} (precision {:.4}, recall {:.4}); not yet paired with the default.",
            b.fitness, b.precision, b.recall
        )),
        (None, None) => lines.push("No finished individual yet.".into()),
    }
    if let Some(l) = best_label {
        lines.push(format!("Best: {l}"));
    }
    if let Some(p) = &record.paired {
        lines.push(format!("Default: {}", p.baseline.trim_start_matches("default (").trim_end_matches(')')));
    }
    for (name, rows) in compares {
        let Some(head) = rows.first() else { continue };
        let col = |r: &Vec<String>, c: &str| head.iter().position(|h| h == c).and_then(|i| r.get(i)).cloned();
        let num = |r: &Vec<String>, c: &str| col(r, c).and_then(|v| v.parse::<f64>().ok()).unwrap_or(f64::NAN);
        // The run's best (its first top row) against the baseline named at the command line.
        let Some(r) = rows.iter().skip(1).find(|r| r.first().is_some_and(|s| s.starts_with("top 1 "))) else {
            continue;
        };
        lines.push(format!(
            "{name}: against {} on {} documents, {:+.4} per document (95% CI [{:+.4}, {:+.4}]), better on {}, worse on {}: {}",
            col(r, "baseline").unwrap_or_default(),
            col(r, "documents").unwrap_or_default(),
            num(r, "mean_diff_f1"),
            num(r, "ci95_low"),
            num(r, "ci95_high"),
            col(r, "better").unwrap_or_default(),
            col(r, "worse").unwrap_or_default(),
            col(r, "verdict").unwrap_or_default(),
        ));
    }
    if compares.is_empty() && record.paired.is_some() {
        lines.push(format!(
            "The gain on the documents it was tuned on is optimistic: `cetune compare --goldset FULL --run {}` pairs it on a full collection.",
            dir.display()
        ));
    }
    Body::Headline(lines)
}

/// The CSV files of the run folder and its subfolders (relative addresses), and the run's
/// `best.yaml` and `run.yaml`.
fn files_links(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let list = |d: &Path| -> Vec<std::path::PathBuf> {
        let mut v: Vec<_> = std::fs::read_dir(d).into_iter().flatten().flatten().map(|e| e.path()).collect();
        v.sort();
        v
    };
    for p in list(dir) {
        let paths = if p.is_dir() { list(&p) } else { vec![p] };
        for f in paths {
            let name = f.strip_prefix(dir).unwrap_or(&f).to_string_lossy().replace('\\', "/");
            let wanted = f.is_file() && (name.ends_with(".csv") || name == "best.yaml" || name == files::RUN);
            if wanted && let Some(h) = href(dir, &f) {
                out.push((name, h));
            }
        }
    }
    out
}

/// How the paired comparison of the best setting with the default is made.
const PAIRED_NOTE: &str = "Paired on the tuning documents: per-document F1 of the best setting minus the default's; 95% CI from 2000 paired bootstrap resamples of the documents (seed 1); Wilcoxon signed-rank test, two-sided. \"Within noise\": the interval holds 0 and p >= 0.05; \"mixed\": the interval and the test disagree. On the documents it was tuned on the gain is optimistic; `cetune compare --goldset FULL --run RUN` pairs it on a full collection.";

/// A number with more than four decimals (a score) shortened to four; other cells as they are.
fn short(cell: &str) -> String {
    let long = cell.split_once('.').is_some_and(|(_, d)| d.len() > 4) || cell.contains('e');
    match cell.parse::<f64>() {
        Ok(x) if long && x.is_finite() => format!("{x:.4}"),
        _ => cell.to_string(),
    }
}

/// The rows of a CSV file (header first).
fn read_csv(path: &Path) -> Result<Vec<Vec<String>>> {
    let bytes = crate::paths::read_capped(path, crate::yaml::MAX_BYTES as u64, "table")?;
    let mut r = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(bytes.as_slice());
    r.records()
        .map(|rec| {
            rec.map(|r| r.iter().map(String::from).collect())
                .map_err(|e| Error::input(format!("malformed CSV: {e}")).with_path(path))
        })
        .collect()
}

/// A CSV file as a table section body; with more than 20 packages (compare tables) the
/// per-package columns are left out, as in the markdown tables.
fn csv_table(path: &Path) -> Result<Body> {
    let mut rows = read_csv(path)?;
    if rows.is_empty() {
        return Ok(Body::Text("(empty)".into()));
    }
    if let Some(at) = rows[0].iter().position(|c| c == "macro_precision")
        && at > 21
    {
        for r in &mut rows {
            let tail = r.split_off(at.min(r.len()));
            r.truncate(1);
            r.extend(tail);
        }
    }
    let head = rows.remove(0);
    Ok(Body::Table(head, rows.iter().map(|r| r.iter().map(|c| short(c)).collect()).collect()))
}

/// The `name: value` lines of the run record (nested fields as `a.b`), the long parameter
/// description left out.
fn settings_rows(record: &RunRecord) -> Vec<Vec<String>> {
    fn walk(prefix: &str, v: &serde_json::Value, out: &mut Vec<Vec<String>>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, v) in m {
                    let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                    if key != "params_yaml" {
                        walk(&key, v, out);
                    }
                }
            }
            serde_json::Value::Array(a) => {
                let items: Vec<String> = a.iter().map(|x| x.as_str().map_or(x.to_string(), String::from)).collect();
                out.push(vec![prefix.to_string(), items.join(", ")]);
            }
            serde_json::Value::String(s) => out.push(vec![prefix.to_string(), s.clone()]),
            serde_json::Value::Null => out.push(vec![prefix.to_string(), "-".into()]),
            x => out.push(vec![prefix.to_string(), x.to_string()]),
        }
    }
    let mut out = Vec::new();
    walk("", &serde_json::to_value(record).unwrap_or(serde_json::Value::Null), &mut out);
    out
}

/// A value of the settings table rounded to what it means: p-values as `1.3e-5`, other numbers
/// with more than four decimals to four.
fn setting_value(key: &str, value: &str) -> String {
    let last = key.rsplit('.').next().unwrap_or(key);
    match value.parse::<f64>() {
        Ok(p) if last == "p" && p.is_finite() => crate::eval::paired::p_text(p),
        _ => value.split(", ").map(short).collect::<Vec<_>>().join(", "),
    }
}

/// The sections of `report.html`, headline first: the best setting against the default (and
/// the baseline of any `cetune compare` in the folder), the documents and packages it won and
/// lost on, the history, importance, the explored space, the per-gene slices, the top settings in
/// parallel coordinates, Table 2, every `compare-*` table, validation or Pareto tables when the
/// run folder holds them, links to the run's files, and the settings last (folded).
fn html_sections(
    dir: &Path,
    record: &RunRecord,
    space: &ParamSpace,
    base: &Setting,
    trials: &[Trial],
    top: usize,
    imp: &[Importance],
) -> Result<Vec<Section>> {
    let svg = |name: &str| -> Result<Body> {
        let p = dir.join(name);
        crate::paths::read_capped_text(&p, crate::yaml::MAX_BYTES as u64, "plot").map(Body::Svg)
    };
    let mut t2 = top_rows(space, base, trials, top, &super::validation::read(dir)?);
    let head = t2.remove(0);
    let best_label = record.best.as_ref().map(|b| b.values.join(", "));
    let mut extra: Vec<std::path::PathBuf> =
        std::fs::read_dir(dir).map_err(|e| Error::io(dir, "read run folder", e))?.flatten().map(|e| e.path()).collect();
    extra.sort();
    let compares: Vec<(String, Vec<Vec<String>>)> = extra
        .iter()
        .filter(|p| {
            p.join("paired.csv").is_file() && p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("compare-"))
        })
        .map(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            read_csv(&p.join("paired.csv")).map(|rows| (name, rows))
        })
        .collect::<Result<_>>()?;
    let mut sections = vec![Section {
        title: "Best against the default".into(),
        body: vec![headline(dir, record, best_label.as_deref(), &compares)],
    }];
    if record.paired.is_some() {
        sections[0].body.push(Body::Folded("How the comparison is made".into(), PAIRED_NOTE.into()));
    }
    let docs = read_documents(dir)?;
    if !docs.is_empty() {
        sections.push(Section { title: "Documents won and lost".into(), body: documents_bodies(dir, record, &docs) });
    }
    sections.push(Section { title: "Fitness by generation".into(), body: vec![svg("history.svg")?] });
    if let Some(r) = &record.fidelity {
        sections.push(super::fidelity::section(r));
    }
    let mut bars: Vec<(String, f64)> = imp.iter().map(|i| (i.name.clone(), i.eta2)).collect();
    bars.sort_by(|a, b| b.1.total_cmp(&a.1));
    sections.push(Section {
        title: "Parameter importance".into(),
        body: vec![
            Body::Text(format!(
                "Share of the variance of fitness over the {} distinct individuals (for a combination, those in which \
                 the parameter is active) explained by each parameter's value (η², values binned: one bin per value up to {BINS} values, else {BINS} equal-width bins). Computed \
                 from the trials of a search, which samples good regions more densely; parameters interact, so the \
                 shares need not sum to 1.",
                trials.iter().filter(|t| !t.cached).count()
            )),
            Body::Bars(bars),
        ],
    });
    sections.push(Section {
        title: "Explored space".into(),
        body: vec![
            Body::Text(
                "Every distinct evaluated individual, coloured in the first plot by its fitness rank (the colour bar \
                 gives the fitness at each colour), in the second by the generation it was first evaluated in. The red \
                 ring is the best individual, the black crosses the known-good (published) settings. For a \
                 combination, an individual is drawn in a panel only when both of its parameters are active in it."
                    .into(),
            ),
            svg("space.svg")?,
            svg("space-generation.svg")?,
        ],
    });
    if dir.join("slice.svg").is_file() {
        sections.push(Section {
            title: "Fitness by gene value".into(),
            body: vec![
                Body::Text(
                    "One panel per tuned parameter active in some individual: each evaluated individual at its value \
                     of the parameter and its fitness (the others varying), coloured by generation; the red ring is \
                     the best."
                        .into(),
                ),
                svg("slice.svg")?,
            ],
        });
    }
    if dir.join("parallel.svg").is_file() {
        sections.push(Section {
            title: "The top settings".into(),
            body: vec![
                Body::Text(format!(
                    "Parallel coordinates of the {PARALLEL_TOP} fittest distinct settings (fewer when the run has \
                     fewer): an axis per parameter, from its lowest to its highest allowed value, and one for \
                     fitness; the fitter the lighter."
                )),
                svg("parallel.svg")?,
            ],
        });
    }
    sections.push(Section {
        title: "Table 2: the top individuals".into(),
        body: vec![
            Body::Text(format!(
                "The {} best distinct individuals by fitness ({}, measure {}) on {} ({} documents).",
                t2.len(),
                record.objective,
                record.measure,
                record.goldset.name,
                record.goldset.documents
            )),
            Body::Table(head, t2.iter().map(|r| r.iter().map(|c| short(c)).collect()).collect()),
        ],
    });
    for p in &extra {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if p.is_dir() && name.starts_with("compare-") && p.join("compare.csv").is_file() {
            let md = crate::paths::read_capped_text(&p.join("compare.md"), crate::yaml::MAX_BYTES as u64, "table")
                .unwrap_or_default();
            let mut body = Vec::new();
            if let Some(t) = md.lines().next().and_then(|l| l.strip_prefix("# ")) {
                body.push(Body::Text(t.to_string()));
            }
            // The long table's averages (its per-package rows stay in the CSV), then the
            // paired comparison with the baseline.
            body.push(match csv_table(&p.join("compare.csv"))? {
                Body::Table(head, rows) if head.get(1).is_some_and(|h| h == "package") => Body::Table(
                    head,
                    rows.into_iter().filter(|r| r.get(1).is_some_and(|c| c.starts_with('('))).collect(),
                ),
                other => other,
            });
            if p.join("paired.csv").is_file() {
                body.push(csv_table(&p.join("paired.csv"))?);
            }
            if let Some(credit) = md.lines().find_map(|l| l.strip_prefix("Gold set: ")) {
                body.push(Body::Text(format!("Gold set: {credit}")));
            }
            sections.push(Section { title: format!("Table 3: {name}"), body });
        }
    }
    // Validation and Pareto results, when present (written by other commands).
    for p in &extra {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let csvs: Vec<std::path::PathBuf> = if p.is_dir() {
            let mut v: Vec<_> = std::fs::read_dir(p).into_iter().flatten().flatten().map(|e| e.path()).collect();
            v.sort();
            v.into_iter().filter(|f| f.extension().is_some_and(|e| e == "csv")).collect()
        } else {
            vec![p.clone()]
        };
        if (name.starts_with("validat") || name.starts_with("pareto")) && (p.is_dir() || name.ends_with(".csv")) {
            for f in csvs {
                let rel = f.strip_prefix(dir).unwrap_or(&f).display().to_string();
                let mut body = vec![csv_table(&f)?];
                // `--objective pareto`: the precision–recall plot with its front.
                if rel == "pareto.csv" && dir.join("pareto.svg").is_file() {
                    body.insert(0, svg("pareto.svg")?);
                }
                sections.push(Section { title: rel.clone(), body });
            }
        }
    }
    sections.push(Section { title: "Files of the run".into(), body: vec![Body::Links(files_links(dir))] });
    let settings: Vec<Vec<String>> =
        settings_rows(record).into_iter().map(|r| vec![r[0].clone(), setting_value(&r[0], &r[1])]).collect();
    sections.push(Section {
        title: "Settings".into(),
        body: vec![
            Body::FoldedTable(
                format!("The run's {} settings (run.yaml)", settings.len()),
                vec!["setting".into(), "value".into()],
                settings,
            ),
            Body::Folded("The parameter description".into(), record.params_yaml.clone()),
        ],
    });
    Ok(sections)
}

/// One line saying how the best setting compares with the default (end-of-run summary,
/// `top.md`, `report.html`).
pub fn paired_line(p: &crate::store::PairedRecord) -> String {
    format!(
        "best vs {} (F1 {:.4} vs {:.4} on {} documents): {:+.4} per document, 95% CI [{:+.4}, {:+.4}], better on {}, worse on {}, equal on {}; Wilcoxon {}: {}",
        p.baseline,
        p.best_f1,
        p.baseline_f1,
        p.documents,
        p.mean_diff,
        p.ci95[0],
        p.ci95[1],
        p.better,
        p.worse,
        p.equal,
        crate::eval::paired::p_clause(p.p),
        p.verdict
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_diff_marks_extra_and_missed_words_along_the_common_subsequence() {
        let gold = ["the", "river", "rose", "<fast>"];
        let out = ["menu", "the", "river", "<fast>", "ads"];
        assert_eq!(word_diff(&gold, &out), "<del>menu</del> the river <ins>rose</ins> &lt;fast&gt; <del>ads</del> ");
        assert_eq!(word_diff(&[], &["a"]), "<del>a</del> ");
        assert_eq!(word_diff(&["a"], &[]), "<ins>a</ins> ");
    }

    #[test]
    fn settings_are_rounded_to_what_they_mean() {
        assert_eq!(setting_value("paired.p", "0.0000133123"), "1.3e-5");
        assert_eq!(setting_value("paired.p", "0.2345678"), "0.235");
        assert_eq!(setting_value("best.fitness", "0.9500911888723133"), "0.9501");
        assert_eq!(setting_value("paired.ci95", "0.012345678, 0.0456789"), "0.0123, 0.0457");
        assert_eq!(setting_value("config.seed", "42"), "42");
        assert_eq!(setting_value("goldset.name", "a.b"), "a.b");
    }

    #[test]
    fn links_are_relative_to_the_report_and_escaped() {
        let root = std::env::temp_dir().join(format!("cetune-href-{}", std::process::id()));
        let (run, gold) = (root.join("runs/r1"), root.join("gs/pkg a"));
        std::fs::create_dir_all(&run).unwrap();
        std::fs::create_dir_all(&gold).unwrap();
        std::fs::write(gold.join("d#1.txt"), "x").unwrap();
        std::fs::write(run.join("top.csv"), "x").unwrap();
        assert_eq!(href(&run, &gold.join("d#1.txt")).as_deref(), Some("../../gs/pkg%20a/d%231.txt"));
        assert_eq!(href(&run, &run.join("top.csv")).as_deref(), Some("top.csv"));
        assert_eq!(href(&run, &gold.join("missing.txt")), None, "no link to a file that is not there");
        let links = files_links(&run);
        assert_eq!(links, vec![("top.csv".to_string(), "top.csv".to_string())]);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
