//! The README and the manual (`docs/`) against the code: the command reference is what `--help`
//! prints, every `cetune` command they print parses with the current command line, every link
//! resolves, and the README stays a first-steps page.

use crate::util::cetune;
use clap::{CommandFactory, Parser};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The pages a reader follows: the README, the manual's pages and the two result pages.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md"), root().join("benches/README.md"), root().join("results/README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// Every subcommand path of the command line (`["goldset", "import"]`, …), hidden ones left out,
/// in the order `--help` lists them.
fn command_paths() -> Vec<Vec<String>> {
    fn walk(cmd: &clap::Command, at: &[String], out: &mut Vec<Vec<String>>) {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
            let mut path = at.to_vec();
            path.push(sub.get_name().to_string());
            out.push(path.clone());
            walk(sub, &path, out);
        }
    }
    let mut out = vec![vec![]];
    walk(&cetune::cli::Cli::command(), &[], &mut out);
    out
}

/// The command reference as the CLI prints it: each command's `--help`, then `cetune
/// extractors` (the family table with every parameter).
fn reference() -> String {
    let mut text = String::from(
        "# Command reference\n\n\
         Generated from the command line itself: each section is what `cetune … --help` prints, and the\n\
         last one is `cetune extractors` (every family and compiled-in combination with its parameters).\n\
         A test (`tests/manual.rs`) checks that this page is what the binary prints; after changing a\n\
         command or a family, regenerate it with\n\
         `CETUNE_BLESS=1 cargo test --release --test integration command_reference`.\n\n",
    );
    let paths = command_paths();
    for path in &paths {
        let name = std::iter::once("cetune").chain(path.iter().map(String::as_str)).collect::<Vec<_>>().join(" ");
        text += &format!("- [`{name}`](#{})\n", slug(&format!("`{name}`")));
    }
    text += "- [`cetune extractors` (the families)](#the-families-cetune-extractors)\n";
    for path in &paths {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let run = cetune(&args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        let name = std::iter::once("cetune").chain(path.iter().map(String::as_str)).collect::<Vec<_>>().join(" ");
        text += &format!("\n## `{name}`\n\n```text\n{}\n```\n", run.stdout.trim_end());
    }
    let families = cetune(&["extractors"]).ok();
    text += &format!("\n## The families (`cetune extractors`)\n\n```text\n{}\n```\n", families.trim_end());
    text
}

#[test]
fn the_command_reference_is_what_help_prints() {
    let file = root().join("docs/commands.md");
    let want = reference();
    if std::env::var_os("CETUNE_BLESS").is_some() {
        std::fs::write(&file, &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(&file).unwrap_or_default();
    if have != want {
        let line = have
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(have.lines().count().min(want.lines().count()));
        panic!(
            "docs/commands.md differs from what the binary prints (first at line {}): regenerate it with \
             CETUNE_BLESS=1 cargo test --release --test integration command_reference",
            line + 1
        );
    }
}

/// A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The lines of a Markdown page outside its fenced code blocks, with their numbers.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fence = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        } else if !fence {
            out.push((i + 1, line));
        }
    }
    out
}

/// A page's anchors: one per heading (repeats numbered as GitHub numbers them).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, line) in prose(text) {
        let Some(rest) = line.strip_prefix('#') else { continue };
        let heading = rest.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let base = slug(heading);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
        *n += 1;
    }
    out
}

/// The targets of a line's Markdown links, outside inline code.
fn links(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut code = false;
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '`' => code = !code,
            ']' if !code && chars.get(i + 1) == Some(&'(') => {
                let rest: String = chars[i + 2..].iter().collect();
                if let Some(end) = rest.find(')') {
                    let target = &rest[..end];
                    if !target.is_empty() && !target.contains(char::is_whitespace) {
                        out.push(target.to_string());
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[test]
fn every_link_in_the_readme_and_the_manual_resolves() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page.strip_prefix(root()).unwrap().display().to_string();
        for (n, line) in prose(&text) {
            for target in links(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (path, fragment) = target.split_once('#').unwrap_or((&target, ""));
                let file = if path.is_empty() { page.clone() } else { page.parent().unwrap().join(path) };
                if !file.exists() {
                    broken.push(format!("{name}:{n}: {target}: no such file"));
                    continue;
                }
                let is_md = file.extension().is_some_and(|x| x == "md");
                if !fragment.is_empty()
                    && is_md
                    && !anchors(&std::fs::read_to_string(&file).unwrap()).contains(fragment)
                {
                    broken.push(format!("{name}:{n}: {target}: no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{} broken links:\n{}", broken.len(), broken.join("\n"));
}

/// Splits a shell line into words (single and double quotes, backslash escapes), stopping at a
/// comment, a pipe, a redirection or a command separator.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut started = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                started = true;
            }
            (None, '\\') => {
                if let Some(n) = chars.next() {
                    word.push(n);
                }
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (None, '#') if !started => break,
            (None, '|' | ';' | '>' | '<' | '&') => break,
            (None, c) => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    // `2>` leaves a lone "2" behind.
    if words.last().is_some_and(|w| w == "2") {
        words.pop();
    }
    words
}

/// The `cetune` command lines of a page's shell blocks (continuations joined), with their line
/// numbers, as argument lists without the program name.
fn commands(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut shell = false;
    let mut held: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("```") {
            shell = !shell && matches!(t.trim_start_matches('`').trim(), "sh" | "bash" | "shell" | "console");
            held = None;
            continue;
        }
        if !shell {
            continue;
        }
        let (n, mut joined) = held.take().unwrap_or((i + 1, String::new()));
        joined += t.strip_prefix("$ ").unwrap_or(t);
        if let Some(cut) = joined.strip_suffix('\\') {
            held = Some((n, cut.to_string() + " "));
            continue;
        }
        let words = shell_words(&joined);
        let mut words = words.into_iter().skip_while(|w| w.contains('=') && !w.starts_with('-')).peekable();
        let program = words.next();
        let args: Vec<String> = match program.as_deref() {
            Some("cetune" | "./cetune" | "target/release/cetune" | "./target/release/cetune") => words.collect(),
            Some("cargo") => {
                let rest: Vec<String> = words.collect();
                match rest.iter().position(|w| w == "--") {
                    Some(at) if rest.first().is_some_and(|w| w == "run") => rest[at + 1..].to_vec(),
                    _ => continue,
                }
            }
            _ => continue,
        };
        out.push((n, args));
    }
    out
}

#[test]
fn every_cetune_command_the_readme_and_the_manual_print_parses() {
    use clap::error::ErrorKind as K;
    let mut wrong = Vec::new();
    let mut seen = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page.strip_prefix(root()).unwrap().display().to_string();
        for (n, args) in commands(&text) {
            seen += 1;
            let argv = std::iter::once("cetune".to_string()).chain(args.iter().cloned());
            if let Err(e) = cetune::cli::Cli::try_parse_from(argv)
                && !matches!(e.kind(), K::DisplayHelp | K::DisplayVersion)
            {
                let first = e.to_string().lines().next().unwrap_or_default().to_string();
                wrong.push(format!("{name}:{n}: cetune {}: {first}", args.join(" ")));
            }
        }
    }
    assert!(seen > 60, "only {seen} commands found: is the block reader broken?");
    assert!(wrong.is_empty(), "{} commands do not parse:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn the_block_reader_finds_commands_as_a_shell_would() {
    let page = "```sh\n$ cetune extract -e lqf page.html > out.txt   # a comment\nCETUNE_X=1 cetune score \\\n  --goldset 'a b' x\ncargo run --release -- optimise -e lqf\necho cetune\n```\n```text\ncetune nothing\n```\n";
    let got = commands(page);
    let want: Vec<(usize, Vec<String>)> = vec![
        (2, vec!["extract".into(), "-e".into(), "lqf".into(), "page.html".into()]),
        (3, vec!["score".into(), "--goldset".into(), "a b".into(), "x".into()]),
        (5, vec!["optimise".into(), "-e".into(), "lqf".into()]),
    ];
    assert_eq!(got, want);
    assert_eq!(anchors("# A `b` c\n## A b c\n```\n# not\n```\n").into_iter().collect::<Vec<_>>(), ["a-b-c", "a-b-c-1"]);
    assert_eq!(links("see [x](a.md#b) and `[y](c.md)`"), ["a.md#b"]);
}

#[test]
fn the_readme_is_a_first_steps_page() {
    let lines = std::fs::read_to_string(root().join("README.md")).unwrap().lines().count();
    assert!(lines <= 300, "README.md has {lines} lines; the rest belongs in docs/");
    assert!(Path::new(&root().join("docs/README.md")).exists());
}
