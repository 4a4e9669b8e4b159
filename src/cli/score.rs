//! `cetune score`: another tool's output scored against a gold set by cetune's measures, into
//! the same `per-document.csv`, `per-package.csv` and `summary.md` (Table 3 layout) as
//! `evaluate` writes.

use super::common::timestamp;
use super::evaluate::{measure_note, table_row, write_per_document, write_per_package};
use crate::error::Result;
use crate::goldset::native;
use crate::objective::external;
use crate::objective::score::summarise;
use crate::report::{Table3, write_atomic};
use crate::store;
use std::path::{Path, PathBuf};

/// Arguments of `score`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The tool's output: a folder of `<id>.txt` files at any depth (`<package>/<id>.txt` as
    /// `extract --dump` writes them, or flat `<id>.txt`), or an ids-json file `{id: text}`.
    output: PathBuf,
    /// The gold set (native format); default: the embedded one (also named `default`).
    #[arg(long, value_parser = super::common::gold_path)]
    goldset: Option<PathBuf>,
    /// How each page is scored.
    #[arg(long, default_value = "lcs", value_parser = super::values::measure())]
    measure: crate::eval::Measure,
    /// The name of the tool in the table (default: the output's file name).
    #[arg(long)]
    name: Option<String>,
    /// Output folder; default: results/score-<name>-<timestamp>.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write into an existing non-empty --out folder (files of the same names are replaced).
    #[arg(long)]
    force: bool,
    /// Also score documents whose gold is empty.
    #[arg(long)]
    keep_empty: bool,
    /// Score a gold field (title, author, date) of the documents that carry it instead of the
    /// body: OUTPUT is then a dump of `extract --format json` (each record's field value), or
    /// `<id>.txt` files or an ids-json file of the field's values.
    #[arg(long, default_value = "body", value_parser = super::values::field())]
    field: String,
}

/// The name of an output in a table: its file name.
pub fn output_name(p: &Path) -> String {
    p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// Runs `score`.
pub fn run(a: Args) -> Result<()> {
    let measure = a.measure;
    let gs = a.goldset.clone().unwrap_or_else(super::common::default_goldset);
    let mut set = native::open(&gs, a.keep_empty)?;
    let measure = super::common::field_mode(&mut set, &a.field, measure)?;
    let outputs = match a.field.as_str() {
        "body" => external::read(&a.output)?,
        f => match external::read_field(&a.output, f)? {
            Some(o) => o,
            None => external::read(&a.output)?,
        },
    };
    let name = a.name.clone().unwrap_or_else(|| output_name(&a.output));
    let out = match &a.out {
        Some(out) => out.clone(),
        None => {
            store::unique_dir(Path::new(&format!("results/score-{}-{}", crate::paths::component(&name), timestamp())))?
        }
    };
    let reads = crate::paths::Reads::new().with(&set.root, "the gold set").with(&a.output, "the scored output");
    store::prepare_out(&out, a.force, &reads)?;
    let docs: Vec<_> = set.docs.iter().collect();
    let scored = external::score(&set, &docs, &outputs, measure);
    external::warn_unmatched(&name, &scored);
    let packages: Vec<usize> = docs.iter().map(|d| d.package).collect();
    let summary = summarise(&packages, set.packages.len(), &scored.scores, measure);
    let table = Table3 {
        packages: set.packages.clone(),
        package_docs: summary.package_docs.clone(),
        rows: vec![table_row(name.clone(), &summary)],
    };
    write_per_document(&out.join("per-document.csv"), &set, &docs, &scored.scores)?;
    write_per_package(&out.join("per-package.csv"), &set.packages, &summary)?;
    let field = if a.field == "body" { String::new() } else { format!(", field {}", a.field) };
    let mut md = table.markdown(
        &format!("F1 on {} ({} documents){}{field}", set.name, docs.len(), measure_note(measure)),
        set.credit.as_deref(),
    );
    if a.field != "body" {
        md += &format!("\n{}\n", super::common::field_accuracy(&a.field, &scored.scores));
    }
    md += &format!(
        "\nmedian F1 {:.3}; documents with F1 = 0: {}; errors: {} (of which without output: {}); outputs matching no document: {}\n",
        summary.median_f1,
        summary.zero_f1,
        summary.errors,
        scored.missing.len(),
        scored.extra.len()
    );
    write_atomic(&out.join("summary.md"), md.as_bytes())?;
    print!("{md}");
    println!("\nresults in {}", out.display());
    if scored.missing.len() == docs.len() && !docs.is_empty() {
        return Err(crate::error::Error::input(format!(
            "{}: no output matches any document of {}",
            a.output.display(),
            set.name
        )));
    }
    Ok(())
}
