//! `cetune goldset import | sample | new | stats`.

use crate::error::{Error, Result};
use crate::goldset::import::{self, Format};
use crate::goldset::{native, sample};
use crate::objective::stream::doc_facts;
use crate::report::Progress;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Gold-set actions.
#[derive(clap::Subcommand, Debug)]
pub enum Action {
    /// Import a published gold set from its original layout into the native format.
    Import {
        /// The set's published layout (CleanPortalEval is read as cleaneval).
        #[arg(long = "input-format", value_name = "LAYOUT", alias = "format", value_parser = super::values::layout())]
        format: Format,
        /// The set's folder in its original layout.
        src: PathBuf,
        /// Where to write the native gold set.
        #[arg(long)]
        out: PathBuf,
        /// Keep documents whose gold text is empty.
        #[arg(long)]
        keep_empty: bool,
        /// Overwrite an existing gold set in --out.
        #[arg(long)]
        force: bool,
        /// No summary on standard output (warnings and errors are still printed).
        #[arg(long, alias = "quiet", short_alias = 'q')]
        no_summary: bool,
    },
    /// Draw a stratified random sample (proportional per package, at least one each).
    Sample {
        /// The gold set to sample from.
        src: PathBuf,
        /// Sample size.
        #[arg(long, default_value_t = 120)]
        n: usize,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where to write the sample (a native gold set).
        #[arg(long)]
        out: PathBuf,
        /// Overwrite an existing gold set in --out.
        #[arg(long)]
        force: bool,
    },
    /// A new gold set (pages without gold texts yet) from a collection of pages: folders, JSONL
    /// or WARC files as `extract` reads them; then mark the main content with `cetune annotate`.
    New {
        /// The pages: files, folders (recursive), JSONL files, WARC files.
        #[arg(long, required = true, num_args = 1..)]
        from: Vec<PathBuf>,
        /// Where to write the gold set.
        #[arg(long)]
        out: PathBuf,
        /// How pages are grouped into packages: host (canonical link, og:url, input URL, or a
        /// host-like folder in the path) or folder (the page's subfolder, or its JSONL/WARC file).
        #[arg(long, value_enum, default_value = "host")]
        by: crate::annotate::new::By,
        /// A stratified sample of N pages (proportional per package, at least one each).
        #[arg(long, value_name = "N")]
        sample: Option<usize>,
        /// The sample's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// How input files are read.
        #[arg(long, value_name = "FORMAT", default_value = "auto", value_parser = super::values::input_format())]
        input_format: crate::collect::InputFormat,
        /// Replace a gold set cetune wrote before in --out.
        #[arg(long)]
        force: bool,
        /// No progress counter.
        #[arg(long, short)]
        quiet: bool,
        /// No summary on standard output (warnings and errors are still printed).
        #[arg(long)]
        no_summary: bool,
        #[command(flatten)]
        limits: super::common::LimitArgs,
    },
    /// A gold set from crawled sites and their own feeds: each feed entry's page, with the
    /// entry's full content as its gold text and its title, author and date as fields.
    FromFeed {
        /// The sites: mirror folders (HTTrack, wget), WARC files, JSONL files of {url, html}.
        #[arg(required = true, num_args = 1..)]
        src: Vec<PathBuf>,
        /// Where to write the gold set.
        #[arg(long)]
        out: PathBuf,
        /// How inputs are read.
        #[arg(long, value_name = "FORMAT", default_value = "auto", value_parser = super::values::feed_input_format())]
        input_format: crate::collect::InputFormat,
        /// Entries read from each feed, in feed order.
        #[arg(long, default_value_t = 10)]
        max_items: usize,
        /// Words of full content below which an entry is a summary.
        #[arg(long, default_value_t = crate::feeds::feed::MIN_FULL_WORDS)]
        min_full_words: usize,
        /// Keep the pages of summary-only entries, with their fields and no gold text.
        #[arg(long)]
        keep_summaries: bool,
        /// Replace a gold set cetune wrote before in --out.
        #[arg(long)]
        force: bool,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
        /// No report on standard output (warnings and errors are still printed).
        #[arg(long)]
        no_summary: bool,
        #[command(flatten)]
        limits: super::common::LimitArgs,
    },
    /// Documents, gold words and page words per package; languages detected.
    Stats {
        /// The gold set.
        dir: PathBuf,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
        #[command(flatten)]
        limits: super::common::LimitArgs,
    },
}

/// Runs a gold-set action.
pub fn run(a: Action) -> Result<()> {
    match a {
        Action::Import { format, src, out, keep_empty, force, no_summary } => {
            let started = std::time::Instant::now();
            let rep = import::import(format, &src, &out, &import::Options { keep_empty, force })?;
            for s in &rep.skipped {
                eprintln!("cetune: warning: skipped {}: {}", s.what, s.why);
            }
            for w in &rep.warnings {
                eprintln!("cetune: warning: {w}");
            }
            if no_summary {
                return Ok(());
            }
            println!(
                "imported {} documents into {} ({} skipped) in {:.1} s",
                rep.imported,
                out.display(),
                rep.skipped.len(),
                started.elapsed().as_secs_f64()
            );
            println!("packages: {}", rep.per_package.len());
            for (p, n) in rep.per_package.iter().take(30) {
                println!("    {p:<30} {n}");
            }
            if rep.per_package.len() > 30 {
                println!("    ... ({} more)", rep.per_package.len() - 30);
            }
            println!("decoding:");
            for (how, n) in &rep.decodings {
                println!("    {how:<24} {n}");
            }
            Ok(())
        }
        Action::Sample { src, n, seed, out, force } => {
            if n == 0 {
                return Err(Error::config("--n 0: a sample needs at least one document"));
            }
            let set = native::open(&src, false)?;
            let picked = sample::sample(&set, n, seed);
            native::copy_docs(
                &set,
                &picked,
                &out,
                format!("stratified sample of {} documents of {} (seed {seed})", picked.len(), set.name),
                force,
            )?;
            let mut per: BTreeMap<&str, usize> = BTreeMap::new();
            for d in &picked {
                *per.entry(set.packages[d.package].as_str()).or_default() += 1;
            }
            println!(
                "sampled {} of {} documents from {} packages into {}",
                picked.len(),
                set.docs.len(),
                per.len(),
                out.display()
            );
            Ok(())
        }
        Action::New { from, out, by, sample, seed, input_format, force, quiet, no_summary, limits } => {
            if sample == Some(0) {
                return Err(Error::config("--sample 0: a sample needs at least one page"));
            }
            let o = crate::annotate::new::Options {
                by,
                sample,
                seed,
                format: input_format,
                force,
                limits: limits.limits()?,
                quiet,
            };
            let rep = crate::annotate::new::new_set(&from, &out, &o)?;
            for (what, why) in &rep.skipped {
                eprintln!("cetune: warning: skipped {what}: {why}");
            }
            if no_summary {
                return Ok(());
            }
            println!(
                "wrote {} of {} pages into {} ({} packages, {} skipped); next: cetune annotate {}",
                rep.written,
                rep.found,
                out.display(),
                rep.per_package.len(),
                rep.skipped.len(),
                out.display()
            );
            for (p, n) in rep.per_package.iter().take(30) {
                println!("    {p:<30} {n}");
            }
            if rep.per_package.len() > 30 {
                println!("    ... ({} more)", rep.per_package.len() - 30);
            }
            Ok(())
        }
        Action::FromFeed {
            src,
            out,
            input_format,
            max_items,
            min_full_words,
            keep_summaries,
            force,
            quiet,
            no_summary,
            limits,
        } => {
            let o = crate::feeds::gold::Options {
                format: input_format,
                max_items,
                min_full_words,
                keep_summaries,
                force,
                limits: limits.limits()?,
                quiet,
            };
            let rep = crate::feeds::gold::from_feed(&src, &out, &o)?;
            for (what, why) in &rep.skipped {
                eprintln!("cetune: warning: skipped {what}: {why}");
            }
            if !no_summary {
                print!("{}", from_feed_report(&rep, &out));
            }
            Ok(())
        }
        Action::Stats { dir, quiet, limits } => stats(&dir, quiet, limits.limits()?),
    }
}

/// `from-feed`'s report: a row per site, then the entries not found and the clipped ones.
fn from_feed_report(rep: &crate::feeds::gold::Report, out: &std::path::Path) -> String {
    let mut s = format!(
        "{:<32} {:>5} {:>8} {:>7} {:>8} {:>5} {:>7} {:>7} {:>7} {:>10} {:>10}\n",
        "site",
        "feeds",
        "comments",
        "entries",
        "resolved",
        "full",
        "summary",
        "clipped",
        "written",
        "feed words",
        "page words"
    );
    let mut total = [0usize; 8];
    for r in &rep.sites {
        s += &format!(
            "{:<32} {:>5} {:>8} {:>7} {:>8} {:>5} {:>7} {:>7} {:>7} {:>10} {:>10}\n",
            r.site,
            r.feeds,
            r.comment_feeds,
            r.entries,
            r.resolved,
            r.full,
            r.summary,
            r.clipped,
            r.written,
            r.feed_words,
            r.page_words
        );
        for (t, v) in total.iter_mut().zip([
            r.feeds,
            r.comment_feeds,
            r.entries,
            r.resolved,
            r.full,
            r.summary,
            r.clipped,
            r.written,
        ]) {
            *t += v;
        }
    }
    let [f, c, e, res, full, sum, clip, w] = total;
    s += &format!("{:<32} {f:>5} {c:>8} {e:>7} {res:>8} {full:>5} {sum:>7} {clip:>7} {w:>7}\n", "total");
    for r in &rep.sites {
        for u in &r.unresolved {
            s += &format!("not found: {}: {u}\n", r.site);
        }
        for c in &r.clipped_ids {
            s += &format!("clipped feed? {}/{c} (the entry is less than half the page's largest text block)\n", r.site);
        }
    }
    s += &format!(
        "wrote {w} pages into {} (report: {}); {} items read\n",
        out.display(),
        out.join(crate::feeds::gold::REPORT_CSV).display(),
        rep.items
    );
    s
}

/// The line counting the documents that carry each gold field (`fields: title 10, date 8`).
fn field_counts(set: &crate::goldset::GoldSet) -> String {
    let counts: Vec<String> = crate::goldset::fields::NAMES
        .iter()
        .map(|n| (n, set.docs.iter().filter(|d| d.fields.gold(n).is_some()).count()))
        .filter(|(_, c)| *c > 0)
        .map(|(n, c)| format!("{n} {c}"))
        .collect();
    if counts.is_empty() { "fields: none".into() } else { format!("fields: {}", counts.join(", ")) }
}

fn stats(dir: &std::path::Path, quiet: bool, limits: crate::limits::Limits) -> Result<()> {
    let pages = native::list_pages(dir)?;
    let with_gold = pages.iter().filter(|p| p.gold.exists()).count();
    println!("pages with gold: {with_gold} of {} ({} without)", pages.len(), pages.len() - with_gold);
    if with_gold == 0 {
        println!("no page has a gold text yet: mark them with `cetune annotate {}`", dir.display());
        return Ok(());
    }
    let mut set = native::open(dir, false)?;
    set.limits = limits;
    let bar = Progress::new(set.docs.len() as u64, "stats", quiet);
    let facts = doc_facts(&set, &|| bar.inc());
    bar.finish();
    println!(
        "{}: {} documents in {} packages ({} skipped)",
        set.name,
        set.docs.len(),
        set.packages.len(),
        set.skipped.len()
    );
    println!("{:<30} {:>9} {:>12} {:>12} {:>8}", "package", "documents", "gold words", "page words", "gold %");
    let mut langs: BTreeMap<String, usize> = BTreeMap::new();
    let mut rows = vec![(0usize, 0usize, 0usize); set.packages.len()];
    for (d, f) in set.docs.iter().zip(&facts) {
        let r = &mut rows[d.package];
        r.0 += 1;
        r.1 += f.gold_words;
        r.2 += f.page_words;
        *langs.entry(f.lang.clone().unwrap_or_else(|| "unknown".into())).or_default() += 1;
    }
    let mut total = (0, 0, 0);
    for (p, r) in set.packages.iter().zip(&rows) {
        println!("{p:<30} {:>9} {:>12} {:>12} {:>7.1}%", r.0, r.1, r.2, 100.0 * r.1 as f64 / r.2.max(1) as f64);
        total = (total.0 + r.0, total.1 + r.1, total.2 + r.2);
    }
    println!(
        "{:<30} {:>9} {:>12} {:>12} {:>7.1}%",
        "total",
        total.0,
        total.1,
        total.2,
        100.0 * total.1 as f64 / total.2.max(1) as f64
    );
    let l: Vec<String> = langs.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!("languages: {}", l.join(", "));
    println!("{}", field_counts(&set));
    let mut decodings: BTreeMap<&str, usize> = BTreeMap::new();
    for f in facts.iter().filter(|f| !f.decoding.is_empty()) {
        *decodings.entry(f.decoding).or_default() += 1;
    }
    let d: Vec<String> = decodings.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!("page decoding: {}", d.join(", "));
    for (d, f) in set.docs.iter().zip(&facts) {
        if let Some(e) = &f.error {
            eprintln!("cetune: warning: {}/{}: {e}", set.packages[d.package], d.id);
        }
    }
    Ok(())
}
