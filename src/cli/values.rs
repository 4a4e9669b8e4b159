//! The values of the closed options: one clap value parser per closed set, whose forms `--help`
//! lists (a line each in `--help`, inline in `-h`), read by the library's own `FromStr` where it
//! has one. A form with an argument is listed as its form with the argument's range
//! (`fbeta:B`, `precision>=P`); its value is checked when it is read. A bad value is a usage
//! error (exit 2) with the library's one-line message.

use crate::collect::InputFormat;
use crate::eval::Measure;
use crate::evolve::{Blend, Mutation, StrategyKind};
use crate::objective::problem::Objective;
use crate::study::pareto::Pick;
use clap::builder::{PossibleValue, TypedValueParser};

/// A closed option's parser: the forms `--help` lists and the function that reads a value.
#[derive(Clone)]
pub struct Closed<T> {
    forms: Vec<PossibleValue>,
    read: fn(&str) -> Result<T, String>,
}

impl<T: Clone + Send + Sync + 'static> TypedValueParser for Closed<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let raw = |message: String| clap::Error::raw(clap::error::ErrorKind::ValueValidation, message).with_cmd(cmd);
        let s = value.to_str().ok_or_else(|| raw(format!("'{}' is not UTF-8", value.to_string_lossy())))?;
        (self.read)(s).map_err(raw)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.forms.iter().cloned()))
    }
}

fn closed<T>(forms: &[(&'static str, &'static str)], read: fn(&str) -> Result<T, String>) -> Closed<T> {
    let forms =
        forms.iter().map(
            |&(name, help)| {
                if help.is_empty() { PossibleValue::new(name) } else { PossibleValue::new(name).help(help) }
            },
        );
    Closed { forms: forms.collect(), read }
}

/// `--strategy`.
pub fn strategy() -> Closed<StrategyKind> {
    let forms: Vec<(&str, &str)> = StrategyKind::ALL
        .iter()
        .map(|&k| {
            let help = match k {
                StrategyKind::Ga => "the genetic algorithm (Gottron 2009); its operators are under 'GA and NSGA-II'",
                StrategyKind::Random => "uniform random search with the same evaluation budget (a baseline)",
                StrategyKind::Grid => "a full-factorial grid with about the same budget (a baseline)",
                StrategyKind::Cmaes => "CMA-ES with margin and IPOP restarts; needs a float or int gene; no flags of its own",
                StrategyKind::Tpe => "TPE with Optuna's defaults; no flags of its own",
                StrategyKind::Nsga2 => {
                    "NSGA-II over mean precision and mean recall (the default with --objective pareto); the GA's operators"
                }
                StrategyKind::Hyperband => {
                    "Hyperband: successive halving in brackets, most settings scored on a share of the documents (for a family fitted on gold: of the folds) and the best third promoted; no flags of its own"
                }
            };
            (k.name(), help)
        })
        .collect();
    closed(&forms, |s| s.parse().map_err(|e: crate::Error| e.to_string()))
}

/// `--objective`.
pub fn objective() -> Closed<Objective> {
    closed(
        &[
            ("f1", "mean F1 over the documents (Gottron 2009)"),
            ("macro-f1", "mean over packages of each package's mean F1 (the paper's Table 3 measure)"),
            ("fbeta:B", "mean F-beta over the documents, B in [0.001, 1000]; B > 1 favours recall"),
            ("recall-at-precision:P", "mean recall subject to mean precision >= P, P in [0, 1]"),
            ("pareto", "the front of mean precision and mean recall (NSGA-II); see --pick"),
        ],
        |s| s.parse().map_err(|e: crate::Error| e.to_string()),
    )
}

/// `--pick` (optimise and report).
pub fn pick() -> Closed<Pick> {
    closed(
        &[
            ("f1", "the point of the front with the largest mean F1"),
            ("precision>=P", "the largest recall with mean precision at least P, P in [0, 1]"),
            ("recall>=R", "the largest precision with mean recall at least R, R in [0, 1]"),
        ],
        |s| s.parse().map_err(|e: crate::Error| e.to_string()),
    )
}

/// `--measure` (evaluate, compare, optimise, score).
pub fn measure() -> Closed<Measure> {
    closed(
        &[
            ("lcs", "Gottron's word-sequence (LCS) F1"),
            ("bow", "WCXB's bag-of-words F1"),
            ("shingle4", "the Scrapinghub benchmark's 4-word shingles"),
        ],
        |s| match s.parse()? {
            Measure::Date => Err("the date measure scores the date field: use --field date".into()),
            m => Ok(m),
        },
    )
}

/// `--field` (evaluate, compare, optimise): `body` or a gold field.
pub fn field() -> Closed<String> {
    closed(
        &[
            ("body", "the main text (the default)"),
            ("title", "the title: LCS F1 and exact-words accuracy"),
            ("author", "the author: LCS F1 and exact-words accuracy"),
            ("date", "the date: a page scores 1 when the returned text contains a rendering of the gold date"),
            ("comments", "the comments: LCS F1"),
        ],
        |s| {
            if s == "body" || crate::goldset::fields::NAMES.contains(&s) {
                Ok(s.to_string())
            } else {
                Err(format!("unknown field '{s}' (expected body, {})", crate::goldset::fields::NAMES.join(", ")))
            }
        },
    )
}

/// `--blend`.
pub fn blend() -> Closed<Blend> {
    closed(
        &[
            ("blx", "BLX-alpha: each child value uniform around the parents' (see --blx-alpha)"),
            ("mean", "both children get the parents' mean"),
        ],
        |s| match s {
            "blx" => Ok(Blend::Blx),
            "mean" => Ok(Blend::Mean),
            _ => Err(format!("unknown blend '{s}' (expected blx or mean)")),
        },
    )
}

/// `--mutation`.
pub fn mutation() -> Closed<Mutation> {
    closed(
        &[
            ("fixed", "one step size for all: --mutation-sigma times the gene's range"),
            ("adaptive", "each individual carries its own step sizes, mutated log-normally and inherited"),
        ],
        |s| match s {
            "fixed" => Ok(Mutation::Fixed),
            "adaptive" => Ok(Mutation::Adaptive),
            _ => Err(format!("unknown mutation '{s}' (expected fixed or adaptive)")),
        },
    )
}

/// `--epsilon`: a number, or `auto`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Epsilon {
    /// Improvements within the best fitness's standard error do not count.
    Auto,
    /// The smallest improvement that counts.
    Value(f64),
}

/// `--epsilon`.
pub fn epsilon() -> Closed<Epsilon> {
    closed(
        &[
            ("E", "the smallest improvement of the best fitness that counts, E in [0, 1]"),
            (
                "auto",
                "the standard error of the best fitness over the documents (improvements within the noise do not count)",
            ),
        ],
        |s| match s {
            "auto" => Ok(Epsilon::Auto),
            s => s.parse().map(Epsilon::Value).map_err(|_| format!("--epsilon takes a number or auto, but got '{s}'")),
        },
    )
}

/// `--input-format` of `extract` and `goldset new`.
pub fn input_format() -> Closed<InputFormat> {
    closed(
        &[
            ("auto", "by name: .warc(.gz) is WARC, .jsonl(.gz) and .ndjson are JSONL, any other file one HTML page"),
            ("html", "every file (and standard input) is one HTML page"),
            ("jsonl", "one JSON object a line: `html`, optional `id` and `url`"),
            ("warc", "WARC files (optionally gzipped, per record or whole)"),
        ],
        |s| s.parse().map_err(|e: crate::Error| e.to_string()),
    )
}

/// `--input-format` of `goldset from-feed`: site mirrors instead of single pages.
pub fn feed_input_format() -> Closed<InputFormat> {
    closed(
        &[
            ("auto", "folders are site mirrors, files are read by name (WARC, JSONL)"),
            ("mirror", "every input is a site mirror folder (HTTrack, wget)"),
            ("warc", "WARC files of the sites"),
            ("jsonl", "JSONL files of {url, html}"),
        ],
        |s| match s {
            "mirror" => Ok(InputFormat::Html),
            "html" => Err("unknown input format 'html' (known: auto, mirror, warc, jsonl)".into()),
            s => s.parse().map_err(|e: crate::Error| e.to_string()),
        },
    )
}

/// `--format` of `extract`: the output format (`text` and `ids-json` with `--dump`).
pub fn out_format() -> Closed<String> {
    const NAMES: [&str; 7] = ["txt", "jsonl", "markdown", "html", "json", "text", "ids-json"];
    closed(
        &[
            ("txt", "the text of each page (the default for one page)"),
            ("jsonl", "one JSON line a page: id, url, text, words, language, error (the default otherwise)"),
            ("markdown", "the kept elements as Markdown: headings, lists, tables, code, quotes (.md files)"),
            ("html", "the kept elements as a clean HTML fragment (.html files)"),
            ("json", "one JSON object a page: id, url, text, markdown, words, language, error (.json files)"),
            ("text", "with --dump: one OUT/<package>/<id>.txt per document (the default)"),
            ("ids-json", "with --dump: one OUT/extract.json, {id: text}, as the benchmarks' scorers read it"),
        ],
        |s| {
            if NAMES.contains(&s) {
                Ok(s.to_string())
            } else {
                Err(format!(
                    "unknown output format '{s}' (known: txt, jsonl, markdown, html, json; with --dump: text, ids-json)"
                ))
            }
        },
    )
}

/// `--input-format` of `goldset import`: the published layouts, one per importer.
pub fn layout() -> Closed<crate::goldset::import::Format> {
    let forms: Vec<(&str, &str)> = crate::goldset::import::IMPORTERS.iter().map(|i| (i.name, i.layout)).collect();
    closed(&forms, |s| s.parse())
}

/// `--extractor` and `annotate --prefill`: a family or a combination (`cetune extractors`).
pub fn extractor() -> Closed<String> {
    let forms: Vec<(&str, &str)> = crate::extract::selectable()
        .into_iter()
        .map(|n| (n, if n == crate::extract::general::NAME { "the general model (the default)" } else { "" }))
        .collect();
    closed(&forms, |s| {
        let names = crate::extract::selectable();
        if names.contains(&s) {
            Ok(s.to_string())
        } else {
            Err(format!("unknown extractor '{s}' (known: {})", names.join(", ")))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every listed form reads (an argument form with a value in its range, and not with one
    /// outside), so the help cannot list what the library refuses.
    #[test]
    fn every_listed_form_is_accepted_and_ranges_are_as_listed() {
        fn forms<T>(c: &Closed<T>) -> Vec<String> {
            c.forms.iter().map(|f| f.get_name().to_string()).collect()
        }
        fn reads<T>(c: &Closed<T>, s: &str) -> bool {
            (c.read)(s).is_ok()
        }
        let with_arg = |f: &str, x: &str| {
            f.replace(":B", &format!(":{x}"))
                .replace(":P", &format!(":{x}"))
                .replace(">=P", &format!(">={x}"))
                .replace(">=R", &format!(">={x}"))
        };
        for f in forms(&objective()) {
            let arg = f.contains(':');
            let (lo, hi, below, above) =
                if f.starts_with("fbeta") { ("0.001", "1000", "0.0009", "1001") } else { ("0", "1", "-0.01", "1.01") };
            assert!(reads(&objective(), &with_arg(&f, lo)) && reads(&objective(), &with_arg(&f, hi)), "{f}");
            if arg {
                assert!(
                    !reads(&objective(), &with_arg(&f, below)) && !reads(&objective(), &with_arg(&f, above)),
                    "{f}"
                );
            }
        }
        for f in forms(&pick()) {
            assert!(reads(&pick(), &with_arg(&f, "0")) && reads(&pick(), &with_arg(&f, "1")), "{f}");
            if f.contains(">=") {
                assert!(!reads(&pick(), &with_arg(&f, "1.5")), "{f}");
            }
        }
        assert_eq!(forms(&epsilon()), ["E", "auto"]);
        assert!(reads(&epsilon(), "0") && reads(&epsilon(), "auto") && !reads(&epsilon(), "often"));
        for f in forms(&measure()) {
            assert_eq!((measure().read)(&f).unwrap().to_string(), f);
        }
        assert!(!reads(&measure(), "date"), "the date measure is --field date");
        let fields = forms(&field());
        assert_eq!(fields[0], "body");
        assert_eq!(fields[1..], crate::goldset::fields::NAMES.map(String::from));
        for f in forms(&strategy()) {
            assert_eq!((strategy().read)(&f).unwrap().name(), f);
        }
        assert_eq!(forms(&strategy()).len(), StrategyKind::ALL.len());
        assert_eq!((blend().read)("mean").unwrap(), Blend::Mean);
        assert_eq!((mutation().read)("adaptive").unwrap(), Mutation::Adaptive);
        for f in forms(&input_format()) {
            assert!(reads(&input_format(), &f), "{f}");
        }
        for f in forms(&feed_input_format()) {
            assert!(reads(&feed_input_format(), &f), "{f}");
        }
        assert!(!reads(&feed_input_format(), "html"));
        for f in forms(&layout()) {
            assert!(reads(&layout(), &f), "{f}");
        }
        assert_eq!(
            forms(&extractor()).len(),
            crate::extract::all_names().len() + 1,
            "every name and the general model"
        );
        assert!(reads(&extractor(), crate::extract::general::NAME));
    }
}
