//! `cetune wrapper learn`: per-site wrapper files from a gold set (`extract::wrappers`).

use super::common::{LimitArgs, SettingArgs};
use crate::error::Result;
use std::path::PathBuf;

/// Wrapper actions.
#[derive(clap::Subcommand, Debug)]
pub enum Action {
    /// One YAML file per site (package) of a gold set: per property the rules feedwrapper learns
    /// from all the site's pages, with gain, support and a CSS selector and XPath; apply them
    /// with `extract --extractor feedwrapper --wrappers DIR`.
    Learn {
        /// The gold set (e.g. one `goldset from-feed` wrote; feed summaries are read too).
        #[arg(long)]
        goldset: PathBuf,
        /// Where to write the wrapper files.
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        setting: SettingArgs,
        #[command(flatten)]
        limits: LimitArgs,
        /// Replace the wrapper files cetune wrote before in --out.
        #[arg(long)]
        force: bool,
        /// No summary on standard output.
        #[arg(long, alias = "quiet", short_alias = 'q')]
        no_summary: bool,
    },
}

/// Runs a wrapper action.
pub fn run(a: Action, engine: &crate::extract::Engine) -> Result<()> {
    match a {
        Action::Learn { goldset, out, mut setting, limits, force, no_summary } => {
            if setting.extractor.is_none() && setting.params.is_none() {
                setting.extractor = crate::extract::first_wrapping().map(String::from);
            }
            let (space, s) = setting.resolve(engine)?;
            let wrappers = crate::extract::wrappers_of(&s.extractor)?;
            crate::extract::build(engine, &s)?;
            let mut set = crate::goldset::native::open_feeds(&goldset)?;
            set.limits = limits.limits()?;
            let label = super::common::label(&space, &s);
            let learned = wrappers.learn(&set, &s, &label, &out, force, &setting.reads())?;
            if !no_summary {
                println!("{:<36} {:>5} {:>6} {:>6} {:>6} {:>8}", "site", "pages", "title", "author", "date", "content");
                for (site, pages, [t, a, d, c]) in &learned.sites {
                    println!("{site:<36} {pages:>5} {t:>6} {a:>6} {d:>6} {c:>8}");
                }
                println!(
                    "wrote {} wrapper files into {} (rules per property above)",
                    learned.files.len(),
                    out.display()
                );
            }
            Ok(())
        }
    }
}
