//! `cetune extract`: the main text of one page or of a whole collection (files, folders,
//! standard input, JSONL, WARC; the library's `collect`), or of every document of a gold set
//! (`--dump`), so anyone can re-score the output independently.

use super::common::{LimitArgs, SettingArgs};
use crate::collect::{self, InputFormat, Inputs, OutFormat, Sink, output};
use crate::error::{Error, ErrorKind, Result};
use crate::goldset::native;
use crate::objective::stream::extract_set;
use crate::report::Progress;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The dump's record of each page's language and the jusText stop list used for it.
pub const LANGUAGES: &str = "languages.csv";

/// Arguments of `extract`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    setting: SettingArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// Pages to extract: HTML files (optionally .gz), folders (recursive: .html, .htm, .xhtml,
    /// .html.gz), JSONL files (.jsonl), WARC files (.warc, .warc.gz), `-` for standard input.
    inputs: Vec<PathBuf>,
    /// How input files are read.
    #[arg(long, value_name = "FORMAT", default_value = "auto", value_parser = super::values::input_format())]
    input_format: InputFormat,
    /// Read further input paths, one a line, from this file (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    files_from: Option<PathBuf>,
    /// Output format (with several pages, txt puts a line `==> ID <==` before each page's
    /// text; in ids-json, ids are `package/id` when an id occurs in two packages).
    #[arg(long, value_name = "FORMAT", value_parser = super::values::out_format())]
    format: Option<String>,
    /// Write to this file instead of standard output; a folder (an existing one, or a path
    /// ending in `/`) gets one .txt per page, mirroring the input tree.
    #[arg(long, value_name = "FILE|DIR/")]
    out: Option<PathBuf>,
    /// With --format markdown, html or json: write links as links (`[text](href)`, `<a href>`).
    #[arg(long)]
    links: bool,
    /// With --format markdown, html or json: write the images inside kept blocks
    /// (`![alt](src)`, `<img src alt>`).
    #[arg(long)]
    images: bool,
    /// Print the posts of each page as JSON lines (`id`, `url`, `post`, `title`, `date`,
    /// `author`, `body`, `comments`), for extractors that segment pages (`blogbuster`).
    #[arg(long)]
    segments: bool,
    /// Write pages as they finish instead of in input order (faster when pages vary).
    #[arg(long)]
    unordered: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Wrapper files (a folder of `wrapper learn`'s YAML, or one file): the extractor (one that
    /// learns wrappers) applies the rules of each page's site, by the host of its URL or of a
    /// host-named folder in its path.
    #[arg(long, value_name = "DIR")]
    wrappers: Option<PathBuf>,
    /// Extract every document of this gold set instead (with --dump; `default`: the embedded one).
    #[arg(long, value_parser = super::common::gold_path)]
    goldset: Option<PathBuf>,
    /// Folder for the dump: one OUT/<package>/<id>.txt per document, and OUT/languages.csv.
    #[arg(long)]
    dump: Option<PathBuf>,
    /// Replace an existing --out file, or write into an existing non-empty --out or --dump
    /// folder (files of the same names are replaced).
    #[arg(long)]
    force: bool,
    /// No progress bar; the summary line on standard error only when something went wrong
    /// (failed pages, Ctrl-C, --fail-on-empty).
    #[arg(long, short)]
    quiet: bool,
    /// A page with fewer words than this is marked empty (`empty` in JSONL and index.csv,
    /// counted in the summary line); it is written all the same.
    #[arg(long, value_name = "N", default_value_t = 1)]
    min_words: usize,
    /// Exit 1 when some page is empty (after writing every page).
    #[arg(long)]
    fail_on_empty: bool,
    /// A confidence model fitted for this setting (`cetune confidence`): every page gets its
    /// confidence, an estimate of its F1. Without one, `confidence` is empty in index.csv and
    /// null in JSONL.
    #[arg(long, value_name = "FILE")]
    confidence: Option<PathBuf>,
    /// Mark pages whose confidence is below C as low confidence (counted in the summary line);
    /// they are written all the same. Needs --confidence; default: the model's own threshold
    /// (below it fell 15 % of the pages it was fitted on).
    #[arg(long, value_name = "C", requires = "confidence", value_parser = unit_interval)]
    min_confidence: Option<f64>,
}

/// A number from 0 to 1 (`--min-confidence`).
fn unit_interval(s: &str) -> std::result::Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(c) if (0.0..=1.0).contains(&c) => Ok(c),
        _ => Err(format!("'{s}' is not a number from 0 to 1")),
    }
}

/// Runs `extract`.
pub fn run(a: Args, engine: &crate::extract::Engine) -> Result<()> {
    let (_, setting) = a.setting.resolve_to_apply(engine)?;
    let ex = match &a.wrappers {
        Some(w) => {
            let wrappers = crate::extract::wrappers_of(&setting.extractor)
                .and_then(|wrappers| crate::extract::build(engine, &setting).map(|_| wrappers))
                .map_err(|e| Error::config(format!("--wrappers: {e}")))?;
            wrappers.apply(&setting, w)?
        }
        None => crate::extract::build(engine, &setting)?,
    };
    let limits = a.limits.limits()?;
    let model = a.confidence.as_deref().map(|p| crate::objective::confidence::Model::read(p, &setting)).transpose()?;
    match (&a.goldset, &a.dump) {
        (None, None) => collection(&a, ex.as_ref(), limits, model),
        _ if model.is_some() => {
            Err(Error::config("--confidence applies to pages, not to --dump (use evaluate --confidence)"))
        }
        (Some(gs), Some(out)) if a.inputs.is_empty() && a.files_from.is_none() => {
            let mut set = native::open(gs, false)?;
            set.limits = limits;
            crate::store::prepare_out(out, a.force, &reads(&a).with(&set.root, "the gold set"))?;
            let bar = Progress::new(set.docs.len() as u64, "extract", a.quiet);
            let failures = Mutex::new(Vec::new());
            let unwritten = Mutex::new(Vec::<String>::new());
            let (json, structured) = match a.format.as_deref() {
                None | Some("txt" | "text") => (false, None),
                Some("ids-json") => (true, None),
                Some(f @ ("markdown" | "html" | "json")) => (false, Some(f.parse::<OutFormat>()?)),
                Some(f) => {
                    return Err(Error::config(format!(
                        "--format {f} does not apply to --dump (expected text, ids-json, markdown, html or json)"
                    )));
                }
            };
            if (a.links || a.images) && structured.is_none() {
                return Err(Error::config("--links and --images apply to --format markdown, html or json"));
            }
            let layout = structured.map(|f| f.layout(structure_options(&a)));
            let more = crate::document::Needs::LANG | layout.map_or(crate::document::Needs::NONE, |l| l.needs());
            let texts = Mutex::new(std::collections::BTreeMap::new());
            let mut ids = std::collections::HashSet::new();
            let shared = set.docs.iter().any(|d| !ids.insert(&d.id));
            let languages = Mutex::new(Vec::new());
            extract_set(&set, ex.as_ref(), more, &|d, text, doc| {
                if let (Some(doc), Ok(mut l)) = (doc, languages.lock()) {
                    let lang = doc.lang.clone().unwrap_or_default();
                    l.push([
                        set.packages[d.package].clone(),
                        d.id.clone(),
                        lang,
                        crate::extract::justext::stoplists::name(doc.lang.as_deref()).to_string(),
                        doc.decoding.to_string(),
                    ]);
                }
                let ext = structured.map_or("txt", OutFormat::extension);
                let path = out.join(&set.packages[d.package]).join(format!("{}.{ext}", d.id));
                // The structured outputs lay out the kept units of the same page (extracted again).
                let bytes = match (structured, layout, doc, &text) {
                    (Some(f), Some(layout), Some(doc), Ok(t)) => {
                        let o = crate::error::isolate(|| structured_outcome(ex.as_ref(), doc, layout, t, d));
                        o.ok().and_then(|r| r.ok()).map(|o| f.page_bytes(&o)).unwrap_or_default()
                    }
                    _ => text.as_deref().unwrap_or("").as_bytes().to_vec(),
                };
                let written = if json {
                    let key = if shared { format!("{}/{}", set.packages[d.package], d.id) } else { d.id.clone() };
                    if let Ok(mut t) = texts.lock() {
                        t.insert(key, text.as_deref().unwrap_or("").to_string());
                    }
                    Ok(())
                } else {
                    // Never through a symlinked package folder or file (it could point into the gold set).
                    crate::paths::create_dir_in(out, std::path::Path::new(&set.packages[d.package]))
                        .and_then(|_| crate::paths::write_atomic(&path, &bytes))
                        .map_err(|e| e.to_string())
                };
                let problem = match (text, written) {
                    // Unreadable pages were warned about by the loader.
                    (Err(None), _) => Some(None),
                    (Err(Some(e)), _) => Some(Some(format!("{}/{}: {e}", set.packages[d.package], d.id))),
                    (_, Err(e)) => {
                        if let Ok(mut w) = unwritten.lock() {
                            w.push(e.clone());
                        }
                        Some(Some(e))
                    }
                    _ => None,
                };
                if let (Some(p), Ok(mut f)) = (problem, failures.lock()) {
                    f.push(p);
                }
                bar.inc();
            });
            bar.finish();
            let mut languages = languages.into_inner().unwrap_or_default();
            languages.sort();
            let header = ["package", "id", "lang", "justext_stoplist", "decoding"].map(String::from);
            crate::report::csv::write(&out.join(LANGUAGES), std::iter::once(header).chain(languages))?;
            if json {
                let path = out.join("extract.json");
                let text = serde_json::to_string_pretty(&texts.into_inner().unwrap_or_default())
                    .map_err(|e| Error::bug(format!("cannot encode JSON: {e}")))?;
                crate::report::write_atomic(&path, text.as_bytes())?;
            }
            let failures = failures.into_inner().unwrap_or_default();
            for f in failures.iter().flatten() {
                eprintln!("cetune: warning: {f}");
            }
            eprintln!(
                "wrote {} documents to {} ({} failed)",
                set.docs.len() - failures.len(),
                out.display(),
                failures.len()
            );
            // A text that could not be written (a symlink in the way, a full disk) fails the dump.
            let unwritten = unwritten.into_inner().unwrap_or_default();
            if !unwritten.is_empty() {
                return Err(Error::input(format!("{} documents could not be written", unwritten.len())));
            }
            crate::objective::corpus::check_some_read(&set, failures.len(), set.docs.len())
        }
        _ => Err(Error::config("give either pages to extract, or --goldset DIR with --dump OUT")),
    }
}

/// `--links` and `--images`, which apply only to the structured formats.
fn structure_options(a: &Args) -> crate::structure::Options {
    crate::structure::Options { links: a.links, images: a.images }
}

/// A gold-set document's outcome with the structured outputs of `layout`, for the dump.
fn structured_outcome(
    ex: &dyn crate::extract::Extractor,
    doc: &crate::document::Document,
    layout: crate::structure::Layout,
    text: &str,
    d: &crate::goldset::GoldDoc,
) -> crate::extract::Fallible<collect::Outcome> {
    let sel = crate::extract::extract_selection(ex, doc)?;
    let mut words = 0;
    crate::eval::words::for_each_token(text, Default::default(), |_| words += 1);
    Ok(collect::Outcome {
        id: d.id.clone(),
        url: d.url.clone(),
        text: text.to_string(),
        words,
        language: doc.lang.clone(),
        markdown: layout.markdown.then(|| crate::structure::markdown(doc, &sel, layout.opts)),
        html: layout.html.then(|| crate::structure::html(doc, &sel, layout.opts)),
        metadata: match (&doc.html, layout.metadata) {
            (Some(h), true) => Some(crate::structure::meta::read(h, doc.lang.as_deref(), doc.url.as_deref())),
            _ => None,
        },
        ..Default::default()
    })
}

/// Everything `extract` reads besides a gold set: pages (`-`: standard input), the list of
/// pages, the parameter file, the wrapper files.
fn reads(a: &Args) -> crate::paths::Reads {
    let mut r = crate::paths::Reads::new();
    a.inputs.iter().for_each(|p| r.add(p, "the input"));
    a.files_from.iter().for_each(|p| r.add(p, "the input list"));
    a.setting.params.iter().for_each(|p| r.add(p, "the parameter file"));
    a.wrappers.iter().for_each(|p| r.add(p, "the wrapper files"));
    a.confidence.iter().for_each(|p| r.add(p, "the confidence model"));
    r
}

/// `extract` over pages, folders, JSONL and WARC files: the library's streamed, ordered run.
fn collection(
    a: &Args,
    ex: &dyn crate::extract::Extractor,
    limits: crate::limits::Limits,
    model: Option<crate::objective::confidence::Model>,
) -> Result<()> {
    let workers = Arc::new(crate::objective::Workers::new(a.threads)?);
    let threads = workers.threads();
    let format = a.input_format;
    let inputs = Inputs::new(&a.inputs, a.files_from.as_deref(), format, limits.max_page_bytes)?;
    let one_page = inputs.is_one_page();
    let out_format = match &a.format {
        Some(_) if a.segments => return Err(Error::config("--segments writes its own JSON lines: drop --format")),
        None if a.segments => {
            if matches!(ex.segments(&crate::document::Document::parse("")), Ok(None)) {
                return Err(Error::config("--segments: this extractor does not segment pages (blogbuster does)"));
            }
            OutFormat::Segments
        }
        Some(f) => f.parse()?,
        None if one_page => OutFormat::Txt,
        None => OutFormat::Jsonl,
    };
    let structured = matches!(out_format, OutFormat::Markdown | OutFormat::Html | OutFormat::Json);
    if (a.links || a.images) && !structured {
        return Err(Error::config("--links and --images apply to --format markdown, html or json"));
    }
    // Every file the command reads (standard input too) is an input the output may not replace.
    let read = reads(a);
    let to_folder = a.out.as_ref().is_some_and(|o| o.is_dir() || o.to_string_lossy().ends_with('/'));
    let mut sink: Box<dyn Sink> = match &a.out {
        Some(_) if to_folder && out_format == OutFormat::Segments => {
            return Err(Error::config("--segments writes one file: give --out FILE, not a folder"));
        }
        Some(_) if to_folder && out_format == OutFormat::Jsonl && a.format.is_some() => {
            return Err(Error::config("--format jsonl writes one file: give --out FILE, not a folder"));
        }
        Some(o) if to_folder => Box::new(output::Folder::create(o, a.force, &read)?.with_format(match out_format {
            f @ (OutFormat::Markdown | OutFormat::Html | OutFormat::Json) => f,
            _ => OutFormat::Txt,
        })),
        Some(o) => Box::new(output::Stream::file(o, out_format, a.force, &read)?.with_headers(!one_page)),
        None => Box::new(output::Stream::stdout(out_format).with_headers(!one_page)),
    };
    let errors_on_stderr = to_folder || matches!(out_format, OutFormat::Txt | OutFormat::Markdown | OutFormat::Html);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\ncetune: interrupted: writing the pages in flight, then stopping (Ctrl-C again stops at once)");
    });
    // Only JSONL lines carry the page's language: other outputs never detect it.
    let more = if (out_format == OutFormat::Jsonl && !to_folder) || out_format == OutFormat::Json {
        crate::document::Needs::LANG
    } else {
        crate::document::Needs::NONE
    };
    let layout = out_format.layout(structure_options(a));
    let min_confidence = a.min_confidence.or(model.as_ref().map(|m| m.threshold));
    let marks = collect::Marks { min_words: a.min_words, min_confidence };
    let confidence = model.map(Arc::new);
    let window = (threads * 16).max(64);
    let opts = collect::Options { limits, unordered: a.unordered, window, more, layout, marks, confidence, workers };
    let bar = Progress::counter("extract", "pages", a.quiet || one_page);
    // The total and the time left, once the inputs are counted: a second reading of the same
    // arguments that walks names only, beside the run (None for JSONL, WARC, standard input).
    let finished = Arc::new(Mutex::new(false));
    if !(a.quiet || one_page) {
        let count = Inputs::new(&a.inputs, a.files_from.as_deref(), format, limits.max_page_bytes)?;
        let (bar, finished) = (bar.clone(), finished.clone());
        std::thread::spawn(move || {
            if let Some(n) = count.page_count()
                && let Ok(done) = finished.lock()
                && !*done
            {
                bar.set_total(n, "pages");
            }
        });
    }
    let (mut failed, mut done) = (0u64, 0u64);
    let started = std::time::Instant::now();
    let mut first_error = None;
    let summary = collect::run(inputs, ex, &opts, sink.as_mut(), &stop, &mut |o| {
        for note in &o.notes {
            bar.eprintln(&format!("cetune: warning: {}: {note}", o.id));
        }
        if let Some(e) = &o.error {
            failed += 1;
            if errors_on_stderr && !one_page {
                bar.eprintln(&format!("cetune: {e}"));
            }
            first_error.get_or_insert_with(|| e.clone());
        }
        let rate = done as f64 / started.elapsed().as_secs_f64().max(1e-9);
        done += 1;
        bar.message(format!("{rate:.0} pages/s, {failed} failed"));
        bar.inc();
    })?;
    if let Ok(mut done) = finished.lock() {
        *done = true;
    }
    bar.finish();
    if one_page && !summary.interrupted {
        // One page: its text, or its error as the one line of a failed command.
        return match first_error {
            Some(e) => Err(Error::input(e)),
            None if a.fail_on_empty && summary.empty > 0 => {
                Err(Error::input(format!("the page is empty (fewer than {} words; --fail-on-empty)", a.min_words)))
            }
            None => Ok(()),
        };
    }
    let fails_empty = a.fail_on_empty && summary.empty > 0;
    if !a.quiet || summary.failed > 0 || summary.interrupted || fails_empty {
        eprintln!("{}", summary.line());
    }
    if summary.interrupted {
        return Err(Error::new(ErrorKind::Interrupted, "stopped by Ctrl-C"));
    }
    if summary.failed > 0 {
        return Err(Error::input(format!("{} of {} pages failed", summary.failed, summary.pages)));
    }
    if fails_empty {
        return Err(Error::input(format!(
            "{} of {} pages are empty (fewer than {} words; --fail-on-empty)",
            summary.empty, summary.pages, a.min_words
        )));
    }
    Ok(())
}
