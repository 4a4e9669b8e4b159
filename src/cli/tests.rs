//! The command line's definitions: every closed option lists its values in `--help`, flag names
//! keep one meaning, renamed flags still parse under their old names.

use super::*;
use clap::CommandFactory;
use std::any::TypeId;

/// Every subcommand (by its path, e.g. `goldset import`), built so that its help renders.
fn commands() -> Vec<(String, clap::Command)> {
    fn walk(prefix: &str, cmd: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            let path = format!("{prefix} {}", sub.get_name()).trim().to_string();
            out.push((path.clone(), sub.clone()));
            walk(&path, sub, out);
        }
    }
    let mut root = Cli::command();
    root.build();
    let mut out = Vec::new();
    walk("", &root, &mut out);
    out
}

/// Options whose values are open by nature (paths, numbers, addresses, free text).
const OPEN: [&str; 8] = ["sets", "individuals", "output", "baseline", "name", "user", "grids", "host_folds"];

/// Issue 36: closed sets were parsed by hand and `--help` listed none of their values. Every
/// option that takes a value either lists its possible values, each of which appears in the
/// command's `--help`, or is open (a path, a number, an address, or one of [`OPEN`]): a new
/// option of a closed set without a value parser fails here.
#[test]
fn every_closed_option_lists_its_values_in_help() {
    let open_types = [
        TypeId::of::<std::path::PathBuf>(),
        TypeId::of::<u64>(),
        TypeId::of::<usize>(),
        TypeId::of::<u16>(),
        TypeId::of::<f64>(),
        TypeId::of::<std::net::IpAddr>(),
    ];
    let mut closed = Vec::new();
    let mut problems = Vec::new();
    for (path, mut cmd) in commands() {
        let help = cmd.render_long_help().to_string();
        for arg in cmd.get_arguments() {
            if !arg.get_action().takes_values() || arg.is_hide_set() {
                continue;
            }
            let id = arg.get_id().as_str();
            let values = arg.get_possible_values();
            if values.is_empty() {
                let ty = arg.get_value_parser().type_id();
                if !open_types.iter().any(|t| ty == *t) && !OPEN.contains(&id) {
                    problems.push(format!("{path}: --{id} takes a value from no listed set"));
                }
                continue;
            }
            // The flag's own section of the help: from its line to the next flag's.
            let flag = match (arg.get_short(), arg.get_long()) {
                (Some(c), Some(l)) => format!("\n  -{c}, --{l} "),
                (None, Some(l)) => format!("\n      --{l} "),
                (_, None) => format!("\n  <{}>", id.to_uppercase()),
            };
            let Some(at) = help.find(&flag) else {
                problems.push(format!("{path}: --{id} is not in --help"));
                continue;
            };
            let section = &help[at..];
            let next = |p: &str| section[1..].find(p).map_or(section.len(), |e| e + 1);
            let end = next("\n  -").min(next("\n      --"));
            for v in values.iter().filter(|v| !v.is_hide_set()) {
                if !section[..end].contains(v.get_name()) {
                    problems.push(format!("{path}: --help does not list {} of --{id}", v.get_name()));
                }
            }
            closed.push(format!("{path} --{}", arg.get_long().unwrap_or(id)));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The closed sets the issue names, and the others found, each in every command that has it.
    for want in [
        "optimise --strategy",
        "optimise --objective",
        "optimise --measure",
        "evaluate --measure",
        "compare --measure",
        "score --measure",
        "optimise --field",
        "evaluate --field",
        "compare --field",
        "optimise --blend",
        "optimise --mutation",
        "optimise --epsilon",
        "optimise --pick",
        "report --pick",
        "optimise --extractor",
        "evaluate --extractor",
        "extract --extractor",
        "wrapper learn --extractor",
        "annotate --prefill",
        "extract --input-format",
        "extract --format",
        "goldset import --input-format",
        "goldset new --input-format",
        "goldset new --by",
        "goldset from-feed --input-format",
    ] {
        assert!(closed.iter().any(|c| c == want), "{want} lists no values; closed: {closed:?}");
    }
}

/// The meaning of a flag name is the same in every command: `--quiet` hides the progress
/// display (never a command's output), `--no-summary` a command's summary, `--input-format`
/// says how inputs are read, `--format` how output is written, `--top` the rows of top.csv.
#[test]
fn a_flag_name_means_one_thing_in_every_command() {
    let mut seen: std::collections::BTreeMap<String, Vec<(String, String)>> = Default::default();
    for (path, cmd) in commands() {
        for arg in cmd.get_arguments() {
            if let (Some(long), Some(help)) = (arg.get_long(), arg.get_help()) {
                seen.entry(long.to_string()).or_default().push((path.clone(), help.to_string()));
            }
        }
    }
    let agree = |flag: &str, word: &str| {
        for (path, help) in &seen[flag] {
            assert!(help.contains(word), "{path} --{flag}: {help}");
        }
    };
    agree("quiet", "No progress");
    agree("no-summary", "No ");
    agree("input-format", "read");
    agree("top", "top.csv");
    assert_eq!(seen["format"].iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(), ["extract"]);
}

/// Renamed flags keep their old names as hidden aliases, so no script breaks.
#[test]
fn old_flag_names_still_parse_and_are_hidden() {
    let parses = |args: &[&str]| {
        let cli = Cli::try_parse_from(std::iter::once("cetune").chain(args.iter().copied()))
            .unwrap_or_else(|e| panic!("{args:?}: {e}"));
        format!("{:?}", cli.command)
    };
    assert!(parses(&["goldset", "import", "--format", "cleaneval", "src", "--out", "o"]).contains("cleaneval"));
    assert!(parses(&["goldset", "import", "--input-format", "wcxb", "src", "--out", "o"]).contains("wcxb"));
    assert!(
        parses(&["goldset", "import", "--input-format", "l3s", "src", "--out", "o", "-q"]).contains("no_summary: true")
    );
    assert!(
        parses(&["goldset", "import", "--input-format", "l3s", "src", "--out", "o", "--quiet"])
            .contains("no_summary: true")
    );
    assert!(parses(&["wrapper", "learn", "--goldset", "g", "--out", "o", "--quiet"]).contains("no_summary: true"));
    assert!(parses(&["compare", "--goldset", "g", "--top", "3"]).contains("run_top: 3"));
    assert!(parses(&["compare", "--goldset", "g", "--run-top", "2"]).contains("run_top: 2"));
    let goldset_new = parses(&["goldset", "new", "--from", "p", "--out", "o", "-q"]);
    assert!(goldset_new.contains("quiet: true") && goldset_new.contains("no_summary: false"), "{goldset_new}");
    for (path, mut cmd) in commands() {
        let help = cmd.render_long_help().to_string();
        if path == "goldset import" || path == "wrapper learn" {
            assert!(!help.contains("--format") && !help.contains("--quiet"), "{path}: {help}");
        }
        if path == "compare" {
            assert!(!help.contains("--top "), "{help}");
        }
    }
}

/// A usage error is one line, with clap's tip and the help to read.
#[test]
fn a_usage_error_is_one_line() {
    let err = |args: &[&str]| {
        let e = Cli::try_parse_from(std::iter::once("cetune").chain(args.iter().copied())).unwrap_err();
        one_line(&e.to_string())
    };
    assert_eq!(
        err(&["evaluate", "--fild", "x"]),
        "unexpected argument '--fild' found (tip: a similar argument exists: '--field'); see 'cetune evaluate --help'"
    );
    assert_eq!(
        err(&["evaluate", "--field", "colour"]),
        "unknown field 'colour' (expected body, title, author, date, comments)"
    );
    assert_eq!(err(&["optimise", "--measure", "date"]), "the date measure scores the date field: use --field date");
    let missing = err(&["goldset", "import", "x"]);
    assert!(
        missing.starts_with("the following required arguments were not provided: --input-format <LAYOUT> --out <OUT>"),
        "{missing}"
    );
    assert!(missing.ends_with("; see 'cetune goldset import --help'"), "{missing}");
}
