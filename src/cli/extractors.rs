//! `cetune extractors`: every family with its parameters, types, ranges and defaults, read from
//! the YAML descriptions.

use super::common::describe;
use crate::error::Result;

/// Arguments of `extractors`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Show only this extractor.
    pub name: Option<String>,
}

/// Prints the listing.
pub fn run(a: Args, engine: &crate::extract::Engine) -> Result<()> {
    let general = crate::extract::general::NAME;
    if a.name.is_none() || a.name.as_deref() == Some(general) {
        let (_, s) = crate::extract::named(engine, general)?;
        println!(
            "{general} (the default: extract, evaluate and annotate without --extractor or --params; Python Extractor()): \
             {} fitted on every public gold page at hand (params/general.yaml: the sets, their licences, the rebuild command)",
            s.extractor
        );
        println!("    {}", s.label());
        println!();
        if a.name.is_some() {
            return Ok(());
        }
    }
    let names: Vec<&str> = match &a.name {
        Some(n) => vec![n.as_str()],
        None => crate::extract::all_names(),
    };
    for n in names {
        let space = crate::extract::space(n)?;
        println!("{n}: {}", space.description);
        for p in &space.params {
            let (kind, range) = describe(&p.spec);
            let tuned = if p.tune { "tuned" } else { "fixed" };
            println!(
                "    {:<20} {kind:<11} {range:<28} default {:<10} {tuned:<5}  {}",
                p.name,
                p.default.to_string(),
                p.meaning
            );
        }
        if !space.correlated.is_empty() {
            let groups: Vec<String> = space.correlated.iter().map(|g| g.join("+")).collect();
            println!("    correlated: {}", groups.join("; "));
        }
        for k in &space.known_good {
            println!("    known good: {} ({})", k.setting.label(), k.label);
        }
        println!();
    }
    Ok(())
}
