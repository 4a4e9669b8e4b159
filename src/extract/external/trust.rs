//! Which external commands may run. A parameter file with `extractor: external` (or an external
//! member) runs its `command` through the shell, so a file is code. The command line trusts the
//! commands of the parameter files it names (`--params FILE`, `--baseline FILE`), with a note on
//! standard error naming each; a command from any other file (a run folder's `run.yaml` read by
//! `compare --run`, `report` or `--resume`, a route's branch settings file) runs only with the
//! opt-in `CETUNE_ALLOW_EXTERNAL=1`. The library, used from a program (the Python package),
//! trusts whatever it is given: the program wrote the call.
//!
//! The policy is process-wide (a static), because the one place a command starts
//! ([`super::build`]) is reached from every command through many layers that have no reason to
//! carry it; the binary sets it once, before anything is read ([`restrict`]).

use crate::error::{Error, Result};
use std::sync::Mutex;

/// The environment variable that lets every external command run.
pub const ALLOW_ENV: &str = "CETUNE_ALLOW_EXTERNAL";

/// `None`: any command runs (the library); `Some(list)`: only these (the command line).
static TRUSTED: Mutex<Option<Vec<String>>> = Mutex::new(None);

fn trusted() -> std::sync::MutexGuard<'static, Option<Vec<String>>> {
    TRUSTED.lock().unwrap_or_else(|e| e.into_inner())
}

/// From now on, only the commands of named files run (unless [`ALLOW_ENV`] is `1`).
pub fn restrict() {
    if std::env::var(ALLOW_ENV).is_ok_and(|v| v == "1") {
        return;
    }
    trusted().get_or_insert_with(Vec::new);
}

/// Trusts the commands the text of a parameter file named by the user declares (`command:`,
/// and the choices of every parameter named `command` or `member.command`), printing a note
/// naming each when the command line restricts commands.
pub fn trust_named(text: &str, path: &std::path::Path) {
    let commands = declared(text);
    let mut t = trusted();
    let Some(list) = t.as_mut() else { return };
    for c in commands {
        if !list.contains(&c) {
            eprintln!("cetune: note: {} runs an external command: {c}", path.display());
            list.push(c);
        }
    }
}

/// Trusts `command`, which the file `path` the user named reaches through a file of its own (a
/// route's external branch, `traf=params/external/trafilatura.yaml`), as [`trust_named`] does.
pub fn trust_reached(command: &str, path: &std::path::Path) {
    let mut t = trusted();
    let Some(list) = t.as_mut() else { return };
    if !list.iter().any(|c| c == command) {
        eprintln!("cetune: note: {} runs an external command: {command}", path.display());
        list.push(command.to_string());
    }
}

/// Refuses `command` unless it may run.
pub fn check(command: &str) -> Result<()> {
    match trusted().as_ref() {
        Some(list) if !list.iter().any(|c| c == command) => Err(Error::config(format!(
            "external extractor `{command}` comes from a file not named on the command line (a run folder's run.yaml, a route's branch): it would run a program; to run it, set {ALLOW_ENV}=1, or name its parameter file with --params"
        ))),
        _ => Ok(()),
    }
}

/// The commands a parameter file's text declares.
fn declared(text: &str) -> Vec<String> {
    #[derive(serde::Deserialize, Default)]
    struct File {
        command: Option<String>,
        #[serde(default)]
        parameters: Vec<Param>,
    }
    #[derive(serde::Deserialize)]
    struct Param {
        name: String,
        #[serde(default)]
        choices: Vec<serde_json::Value>,
        default: Option<serde_json::Value>,
    }
    let f: File = crate::yaml::from_str(text, std::path::Path::new(""), Error::config).unwrap_or_default();
    let mut out: Vec<String> = f.command.into_iter().collect();
    let command = super::COMMAND;
    for p in f.parameters.into_iter().filter(|p| p.name == command || p.name.ends_with(&format!(".{command}"))) {
        out.extend(p.choices.iter().chain(&p.default).filter_map(|v| v.as_str().map(String::from)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_declares_its_command_and_its_members_commands() {
        let text = "extractor: vote\nmembers: [lqf, w]\ncommand: python3 a.py\nparameters:\n  - {name: w.command, type: categorical, choices: [\"python3 b.py\"], default: \"python3 b.py\"}\n  - {name: t, type: float, min: 0, max: 1, default: 0.5}\n";
        assert_eq!(declared(text), ["python3 a.py", "python3 b.py", "python3 b.py"]);
        assert!(declared("not: [yaml").is_empty());
    }
}
