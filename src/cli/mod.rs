//! The command line: clap definitions and one file per subcommand, each turning arguments into
//! library calls and printing. No algorithm lives here. Imports from the crate: `everything`
//! (the command line is the one place that wires the library's steps together).

mod annotate;
mod common;
mod compare;
mod confidence;
mod evaluate;
mod extract;
mod extractors;
mod goldset;
mod model;
mod optimise;
mod report;
mod score;
mod values;
mod wrapper;

use crate::error::Result;
use clap::{Parser, Subcommand};

#[cfg(test)]
mod tests;

/// cetune: tune web content-extraction algorithms by evolutionary search.
#[derive(Parser, Debug)]
#[command(name = "cetune", version, about, long_about = None)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Import, sample and describe gold sets.
    Goldset {
        /// What to do with gold sets.
        #[command(subcommand)]
        action: goldset::Action,
    },
    /// List every extractor family with its parameters (from the YAML descriptions).
    Extractors(extractors::Args),
    /// Print the main text of a page or a collection (folders, JSONL, WARC), or dump a gold set.
    Extract(extract::Args),
    /// Score one setting over a whole gold set (per document, per package, Table 3 summary).
    Evaluate(evaluate::Args),
    /// Fit a setting's confidence model (an estimate of each page's F1) on a gold set, for
    /// `extract --confidence` and `evaluate --confidence`.
    Confidence(confidence::Args),
    /// Tune an extractor's parameters by evolutionary search (the main job).
    Optimise(Box<optimise::Args>),
    /// Score another tool's output (a folder of <id>.txt or an ids-json file) against a gold set.
    Score(score::Args),
    /// Evaluate a run's top individuals and the literature defaults on a full collection.
    Compare(compare::Args),
    /// Rebuild a run's tables and plots from its folder.
    Report(report::Args),
    /// Learn per-site wrappers (readable, reusable rules for title, author, date and content)
    /// from a gold set with feeds, as YAML files.
    Wrapper {
        /// What to do with wrappers.
        #[command(subcommand)]
        action: wrapper::Action,
    },
    /// Build the general block model from several gold sets pooled (out-of-fold figures by set).
    Model {
        /// What to do with models.
        #[command(subcommand)]
        action: model::Action,
    },
    /// Mark the main content of a gold set's pages in a local web page, pre-filled by an
    /// extractor (or, with --effort, count the block toggles a pre-fill leaves).
    Annotate(annotate::Args),
}

/// Parses the process's command line. Help and version print as clap prints them; a usage
/// error is one line on standard error (`cetune: …`, the project's form for every error) and
/// exit 2.
pub fn parse() -> Cli {
    use clap::error::ErrorKind as K;
    match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e)
            if matches!(e.kind(), K::DisplayHelp | K::DisplayVersion | K::DisplayHelpOnMissingArgumentOrSubcommand) =>
        {
            e.exit()
        }
        Err(e) => {
            eprintln!("cetune: {}", one_line(&e.to_string()));
            std::process::exit(2);
        }
    }
}

/// A clap error message in one line: the message, its tips in parentheses, and the command's
/// help to read instead of the usage block.
fn one_line(text: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut command = None;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(usage) = line.strip_prefix("Usage: ") {
            let words: Vec<&str> = usage.split(' ').take_while(|w| !w.starts_with(['-', '<', '['])).collect();
            command = Some(words.join(" "));
        } else if line.starts_with("For more information") {
        } else if let Some(tip) = line.strip_prefix("tip: ") {
            parts.push(format!("(tip: {tip})"));
        } else {
            parts.push(line.strip_prefix("error: ").unwrap_or(line).to_string());
        }
    }
    let mut line = parts.join(" ");
    if let Some(c) = command.filter(|c| !c.is_empty()) {
        line += &format!("; see '{c} --help'");
    }
    line
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    // The one engine of this run: external commands run only from the parameter files named
    // here (or with the opt-in).
    let engine = crate::extract::Engine::restricted();
    let engine = &engine;
    match cli.command {
        Command::Goldset { action } => goldset::run(action),
        Command::Extractors(a) => extractors::run(a, engine),
        Command::Extract(a) => extract::run(a, engine),
        Command::Evaluate(a) => evaluate::run(a, engine),
        Command::Confidence(a) => confidence::run(a, engine),
        Command::Optimise(a) => optimise::run(*a, engine),
        Command::Score(a) => score::run(a),
        Command::Compare(a) => compare::run(a, engine),
        Command::Report(a) => report::run(a, engine),
        Command::Annotate(a) => annotate::run(a, engine),
        Command::Wrapper { action } => wrapper::run(action, engine),
        Command::Model { action } => model::run(action, engine),
    }
}
