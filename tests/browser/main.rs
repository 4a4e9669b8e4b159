//! The browser checks: the annotation app driven through chromedriver, and `report.html` rendered
//! in headless Chromium. They live in a test target of their own (`harness = false`, the
//! libtest-compatible `libtest-mimic`) because the built-in harness cannot say "skipped": a check
//! that returned early without a browser was reported `ok`, as if it had passed.
//!
//! Without `chromium` or `chromedriver` every check fails, saying how to install them. Setting
//! `CETUNE_SKIP_BROWSER=1` opts out: the checks are then reported `ignored` with the reason, the
//! summary counts them as ignored, and a line `browser: 0 passed, 0 failed, N skipped` follows.
//! `CETUNE_REQUIRE_BROWSER=1` (set by `.ci/run`) refuses the opt-out. `cargo test <filter>`,
//! `--list`, `--exact` and `--ignored` behave as with the built-in harness.

mod annotate;
#[allow(dead_code)]
#[path = "../annotate_server.rs"]
mod annotate_server;
mod report;
#[allow(dead_code)]
#[path = "../util.rs"]
mod util;
mod webdriver;

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use std::process::Command;

/// Opts out of the browser checks when the browser is missing (they count as skipped).
const SKIP: &str = "CETUNE_SKIP_BROWSER";
/// Refuses that opt-out (CI).
const REQUIRE: &str = "CETUNE_REQUIRE_BROWSER";

/// The checks, named as `cargo test` filters see them.
const CHECKS: [(&str, fn()); 3] = [
    (
        "annotate::the_app_in_a_real_browser_prefills_toggles_and_saves_the_kept_blocks",
        annotate::the_app_in_a_real_browser_prefills_toggles_and_saves_the_kept_blocks,
    ),
    ("report::the_html_report_renders_in_a_browser", report::the_html_report_renders_in_a_browser),
    (
        "report::the_report_fits_1280_by_800_with_the_headline_and_worst_documents_above_the_fold",
        report::the_report_fits_1280_by_800_with_the_headline_and_worst_documents_above_the_fold,
    ),
];

/// The browser programs that are not installed (`chromium`, `chromedriver`).
fn missing() -> Vec<&'static str> {
    let found = |b: &str| Command::new(b).arg("--version").output().is_ok_and(|o| o.status.success());
    ["chromium", "chromedriver"].into_iter().filter(|b| !found(b)).collect()
}

fn env_is_1(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| v == "1")
}

fn main() {
    let args = Arguments::from_args();
    let missing = missing();
    let skip = !missing.is_empty() && env_is_1(SKIP) && !env_is_1(REQUIRE);
    let not_installed =
        format!("{} {} not installed", missing.join(" and "), if missing.len() > 1 { "are" } else { "is" });
    let trials = CHECKS
        .iter()
        .map(|&(name, check)| {
            let (missing, not_installed) = (!missing.is_empty(), not_installed.clone());
            Trial::ignorable_test(name, move || {
                if skip {
                    return Ok(Completion::ignored_with(format!("{SKIP}=1: {not_installed}")));
                }
                if missing {
                    return Err(Failed::from(format!(
                        "{not_installed}: the browser checks need chromium and chromedriver (Debian: \
                         apt-get install chromium chromium-driver; .ci/run installs them). To skip \
                         them instead, set {SKIP}=1: they are then reported as ignored."
                    )));
                }
                check();
                Ok(Completion::Completed)
            })
        })
        .collect();
    let conclusion = libtest_mimic::run(&args, trials);
    if conclusion.num_ignored > 0 && skip {
        println!(
            "browser: {} passed, {} failed, {} skipped",
            conclusion.num_passed, conclusion.num_failed, conclusion.num_ignored
        );
        println!("browser checks skipped ({SKIP}=1): {not_installed}; install them to run the checks");
    }
    conclusion.exit();
}
