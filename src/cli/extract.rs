//! `cetune extract`: the main text of one page, or of every document of a gold set (`--dump`),
//! so anyone can re-score the output independently.

use super::common::{LimitArgs, SettingArgs};
use crate::document::Document;
use crate::error::{Error, Result};
use crate::goldset::{decode, native};
use crate::objective::stream::extract_set;
use crate::report::Progress;
use std::path::PathBuf;
use std::sync::Mutex;

/// Arguments of `extract`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    setting: SettingArgs,
    #[command(flatten)]
    limits: LimitArgs,
    /// The page to extract (HTML, optionally .gz).
    page: Option<PathBuf>,
    /// Extract every document of this gold set instead (with --dump).
    #[arg(long)]
    goldset: Option<PathBuf>,
    /// Folder for the dump: one OUT/<package>/<id>.txt per document.
    #[arg(long)]
    dump: Option<PathBuf>,
    /// Dump format: `text` (a file per document) or `ids-json` (one OUT/extract.json, `{id: text}`
    /// as the benchmarks' scorers read it; ids are `package/id` when an id occurs in two packages).
    #[arg(long, default_value = "text", value_parser = ["text", "ids-json"])]
    format: String,
    /// Write into an existing non-empty --dump folder (files of the same names are replaced).
    #[arg(long)]
    force: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// Runs `extract`.
pub fn run(a: Args) -> Result<()> {
    let (_, setting) = a.setting.resolve()?;
    let ex = crate::extract::build(&setting)?;
    let limits = a.limits.limits()?;
    match (&a.page, &a.goldset, &a.dump) {
        (Some(page), None, None) => {
            let bytes = decode::read_bytes(page, limits.max_page_bytes)?;
            let (html, _) = decode::decode_html(&bytes);
            let (doc, notes) = Document::parse_limited(&html, &limits);
            for note in notes {
                crate::objective::corpus::warn(&page.display().to_string(), &note);
            }
            println!("{}", crate::extract::extract_text(ex.as_ref(), &doc));
            Ok(())
        }
        (None, Some(gs), Some(out)) => {
            let mut set = native::open(gs, false)?;
            set.limits = limits;
            crate::store::prepare_out(out, a.force, &set.root)?;
            let bar = Progress::new(set.docs.len() as u64, "extract", a.quiet);
            let failures = Mutex::new(Vec::new());
            let json = a.format == "ids-json";
            let texts = Mutex::new(std::collections::BTreeMap::new());
            let mut ids = std::collections::HashSet::new();
            let shared = set.docs.iter().any(|d| !ids.insert(&d.id));
            extract_set(&set, ex.as_ref(), &|d, text| {
                let dir = out.join(&set.packages[d.package]);
                let path = dir.join(format!("{}.txt", d.id));
                let written = if json {
                    let key = if shared { format!("{}/{}", set.packages[d.package], d.id) } else { d.id.clone() };
                    if let Ok(mut t) = texts.lock() {
                        t.insert(key, text.as_deref().unwrap_or("").to_string());
                    }
                    Ok(())
                } else {
                    std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, text.as_deref().unwrap_or("")))
                };
                let problem = match (text, written) {
                    // Unreadable pages were warned about by the loader.
                    (Err(None), _) => Some(None),
                    (Err(Some(e)), _) => Some(Some(format!("{}/{}: {e}", set.packages[d.package], d.id))),
                    (_, Err(e)) => Some(Some(format!("{}: cannot write: {e}", path.display()))),
                    _ => None,
                };
                if let (Some(p), Ok(mut f)) = (problem, failures.lock()) {
                    f.push(p);
                }
                bar.inc();
            });
            bar.finish();
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
            crate::objective::corpus::check_some_read(&set, failures.len(), set.docs.len())
        }
        _ => Err(Error::config("give either a PAGE, or --goldset DIR with --dump OUT")),
    }
}
