//! Which external commands may run. A parameter file with `extractor: external` (or an external
//! member) runs its `command` through the shell, so a file is code. The command line trusts the
//! commands of the parameter files it names (`--params FILE`, `--baseline FILE`), with a note on
//! standard error naming each; a command from any other file (a run folder's `run.yaml` read by
//! `compare --run`, `report` or `--resume`, a route's branch settings file) runs only with the
//! opt-in `CETUNE_ALLOW_EXTERNAL=1`. The library, used from a program (the Python package),
//! trusts whatever it is given: the program wrote the call.
//!
//! The policy is a value ([`Trust`]), a field of the [`crate::extract::Engine`] that builds the
//! extractors: the binary makes a restricted one ([`Trust::restricted`]) once, before anything is
//! read, and passes it down; a program's engine trusts everything ([`Trust::default`]).

use crate::error::{Error, Result};
use std::sync::Mutex;

/// The environment variable that lets every external command run.
pub const ALLOW_ENV: &str = "CETUNE_ALLOW_EXTERNAL";

/// Which external commands may run: `None`, any (the library's); `Some(list)`, only these (the
/// command line's, which grows as the user names files).
#[derive(Debug, Default)]
pub struct Trust(Mutex<Option<Vec<String>>>);

impl Trust {
    /// Only the commands of named files run (unless [`ALLOW_ENV`] is `1`, which trusts all).
    pub fn restricted() -> Trust {
        if std::env::var(ALLOW_ENV).is_ok_and(|v| v == "1") {
            return Trust::default();
        }
        Trust(Mutex::new(Some(Vec::new())))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Vec<String>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Trusts the commands the text of a parameter file named by the user declares
    /// (`command:`, and the choices of every parameter named `command` or `member.command`),
    /// printing a note naming each when commands are restricted.
    pub fn trust_named(&self, text: &str, path: &std::path::Path) {
        let commands = declared(text);
        let mut t = self.lock();
        let Some(list) = t.as_mut() else { return };
        for c in commands {
            if !list.contains(&c) {
                eprintln!("cetune: note: {} runs an external command: {c}", path.display());
                list.push(c);
            }
        }
    }

    /// Trusts `command`, which the file `path` the user named reaches through a file of its own
    /// (a route's external branch, `traf=params/external/trafilatura.yaml`), as
    /// [`Self::trust_named`] does.
    pub fn trust_reached(&self, command: &str, path: &std::path::Path) {
        let mut t = self.lock();
        let Some(list) = t.as_mut() else { return };
        if !list.iter().any(|c| c == command) {
            eprintln!("cetune: note: {} runs an external command: {command}", path.display());
            list.push(command.to_string());
        }
    }

    /// Refuses `command` unless it may run.
    pub fn check(&self, command: &str) -> Result<()> {
        match self.lock().as_ref() {
            Some(list) if !list.iter().any(|c| c == command) => Err(Error::config(format!(
                "external extractor `{command}` comes from a file not named on the command line (a run folder's run.yaml, a route's branch): it would run a program; to run it, set {ALLOW_ENV}=1, or name its parameter file with --params"
            ))),
            _ => Ok(()),
        }
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
    fn the_librarys_policy_trusts_all_and_a_restricted_one_only_what_was_named() {
        assert!(Trust::default().check("python3 x.py").is_ok());
        let t = Trust(Mutex::new(Some(Vec::new())));
        assert!(t.check("python3 x.py").is_err());
        t.trust_reached("python3 x.py", std::path::Path::new("a.yaml"));
        assert!(t.check("python3 x.py").is_ok());
        assert!(t.check("python3 y.py").is_err());
    }

    #[test]
    fn a_file_declares_its_command_and_its_members_commands() {
        let text = "extractor: vote\nmembers: [lqf, w]\ncommand: python3 a.py\nparameters:\n  - {name: w.command, type: categorical, choices: [\"python3 b.py\"], default: \"python3 b.py\"}\n  - {name: t, type: float, min: 0, max: 1, default: 0.5}\n";
        assert_eq!(declared(text), ["python3 a.py", "python3 b.py", "python3 b.py"]);
        assert!(declared("not: [yaml").is_empty());
    }
}
