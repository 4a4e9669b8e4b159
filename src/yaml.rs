//! Reading and writing YAML (parameter files, `goldset.yaml`, `run.yaml`, `checkpoint.yaml`)
//! through `serde-saphyr`, with explicit input budgets so that hostile or broken files are
//! rejected quickly, without panics, with `file:line:col: message`. Imports from the crate: `error`.

use crate::error::{Error, Result};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_saphyr::{Budget, MessageFormatter, Options};
use std::path::Path;

/// Largest YAML text accepted, in bytes (a gold-set manifest of 100,000 documents is ~10 MB).
pub const MAX_BYTES: usize = 64 * 1024 * 1024;

/// Deepest nesting of sequences and mappings accepted (cetune's own files nest at most 5 deep).
pub const MAX_DEPTH: usize = 32;

/// Aliases (`*name`) accepted: cetune writes none; a few hand-written ones are harmless.
pub const MAX_ALIASES: usize = 1_000;

/// The parser options: YAML 1.2 booleans only (`no` stays a string, as with `serde_yaml`),
/// budgets on depth, size, nodes and aliases, no snippets (errors are one line).
fn options() -> Options {
    let mut budget = Budget::default();
    budget.max_depth = MAX_DEPTH;
    budget.flow_nesting_limit = MAX_DEPTH;
    budget.max_aliases = MAX_ALIASES;
    budget.max_anchors = MAX_ALIASES;
    budget.max_recorded_anchor_events = 100_000;
    budget.max_recorded_anchor_bytes = MAX_BYTES;
    budget.max_nodes = 8_000_000;
    budget.max_events = 16_000_000;
    budget.max_total_scalar_bytes = MAX_BYTES;
    budget.max_reader_input_bytes = Some(MAX_BYTES);
    budget.max_inclusion_depth = 0;
    let mut options = Options::default();
    options.budget = Some(budget);
    options.alias_limits.max_total_replayed_events = 100_000;
    options.alias_limits.max_replay_stack_depth = MAX_DEPTH;
    options.strict_booleans = true;
    options.with_snippet = false;
    options
}

/// The first line of a file a run writes whole for other commands to read back (`best.yaml`,
/// `run.yaml`, `checkpoint.yaml`): a reader that finds it knows the file is complete only when
/// its last line is [`END`], so a file cut short (a copy broken off, a disk that filled, an
/// editor that lost the tail) is refused instead of read as the part it holds.
pub const SEALED: &str = "# cetune: this file is complete when its last line is '# end'";

/// The last line of a [`SEALED`] file.
pub const END: &str = "# end";

/// `text` between the [`SEALED`] line and the [`END`] line.
pub fn seal(text: &str) -> String {
    let nl = if text.is_empty() || text.ends_with('\n') { "" } else { "\n" };
    format!("{SEALED}\n{text}{nl}{END}\n")
}

/// Refuses a [`SEALED`] text whose last line is not [`END`]: it was cut short.
fn check_sealed(text: &str, path: &Path, make: fn(String) -> Error) -> Result<()> {
    if text.starts_with(SEALED) && text.trim_end().lines().last().map(str::trim) != Some(END) {
        return Err(make(format!(
            "the file is cut short: it was written whole, ending with the line '{END}', which is missing (copy it again; if you cut it on purpose, delete its first line)"
        ))
        .with_path(path));
    }
    Ok(())
}

/// Parses `text`; an error becomes `make(message)` at `path`, line and column. A [`SEALED`]
/// text cut short is refused.
pub fn from_str<T: DeserializeOwned>(text: &str, path: &Path, make: fn(String) -> Error) -> Result<T> {
    if text.len() > MAX_BYTES {
        return Err(make(format!("file too large: {} bytes (at most {MAX_BYTES})", text.len())).with_path(path));
    }
    check_sealed(text, path, make)?;
    serde_saphyr::from_str_with_options(text, options()).map_err(|e| {
        let message = serde_saphyr::DefaultMessageFormatter.format_message(&e);
        let mut message: String = message.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        if over_limits(&e) {
            message = format!(
                "{message} (cetune reads YAML nested at most {MAX_DEPTH} deep, with at most {MAX_ALIASES} aliases)"
            );
        }
        let err = make(message).with_path(path);
        match e.location() {
            Some(l) if l.line() > 0 => err.with_line(l.line() as usize, Some(l.column() as usize)),
            _ => err,
        }
    })
}

/// Whether the parser stopped at one of [`options`]' limits (depth, size, aliases): such an
/// error gets a note naming cetune's limits. Read from the error's variant, not its text.
fn over_limits(e: &serde_saphyr::Error) -> bool {
    use serde_saphyr::{Error as E, ExternalMessageSource, granit_parser::ErrorKind};
    let mut e = e;
    // Unwrap what only adds a location (an alias's use, a snippet) to the error it holds.
    while let E::AliasError { error, .. } | E::WithSnippet { error, .. } = e {
        e = error;
    }
    match e {
        E::Budget { .. }
        | E::AliasReplayLimitExceeded { .. }
        | E::AliasExpansionLimitExceeded { .. }
        | E::AliasReplayStackDepthExceeded { .. } => true,
        E::ExternalMessage { source, .. } => {
            matches!(source.as_ref(), ExternalMessageSource::Parser(s) if *s.kind() == ErrorKind::RecursionLimitExceeded)
        }
        _ => false,
    }
}

/// Serialises `value` as YAML. Floats are written in their shortest form that reads back to the
/// same bits.
pub fn to_string<T: Serialize>(value: &T) -> Result<String> {
    serde_saphyr::to_string(value).map_err(|e| Error::bug(format!("cannot write YAML: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    fn parse<T: DeserializeOwned>(text: &str) -> Result<T> {
        from_str(text, Path::new("f.yaml"), Error::config)
    }

    #[test]
    fn floats_round_trip_bit_exactly() {
        let xs =
            vec![0.1 + 0.2, 1e-300, 5e-324, -0.0, 0.1, 1.0 / 3.0, f64::MAX, f64::MIN_POSITIVE, 123456789.0, -2.5e10];
        let text = to_string(&xs).unwrap();
        let back: Vec<f64> = parse(&text).unwrap();
        assert_eq!(xs.len(), back.len());
        for (a, b) in xs.iter().zip(&back) {
            assert_eq!(a.to_bits(), b.to_bits(), "{a} came back as {b} from {text}");
        }
    }

    #[test]
    fn long_and_odd_strings_round_trip() {
        let long = "cetune optimise --params  params/accb.yaml   --out 'a b'  ".repeat(8);
        let xs = vec![long, "no".into(), "1e3".into(), " lead".into(), "a\n\n b \n".into(), "null".into(), "#x".into()];
        let back: Vec<String> = parse(&to_string(&xs).unwrap()).unwrap();
        assert_eq!(back, xs);
    }

    #[test]
    fn deep_nesting_is_rejected_with_file_line_and_column() {
        let text = format!("a: {}\n", "[".repeat(100_000));
        let e = parse::<serde::de::IgnoredAny>(&text).unwrap_err();
        assert!(e.to_string().starts_with("f.yaml:1:"), "{e}");
        assert!(e.line.is_some() && e.column.is_some(), "{e}");
        assert!(!e.message.is_empty() && !e.message.contains('\n'), "{e}");
        let text = format!("a:\n{}x\n", "- ".repeat(200));
        let e = parse::<serde::de::IgnoredAny>(&text).unwrap_err();
        assert!(e.line.is_some(), "{e}");
    }

    #[test]
    fn alias_bombs_are_rejected() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let p = i - 1;
            text += &format!("a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n");
        }
        let e = parse::<serde::de::IgnoredAny>(&text).unwrap_err();
        assert!(e.message.contains(&format!("with at most {MAX_ALIASES} aliases")), "{e}");
    }

    #[test]
    fn yes_and_no_stay_strings() {
        #[derive(Deserialize)]
        struct S {
            a: String,
            b: bool,
        }
        let s: S = parse("a: no\nb: true\n").unwrap();
        assert_eq!((s.a.as_str(), s.b), ("no", true));
    }
}
