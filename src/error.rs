//! The one error type of cetune.
//!
//! Errors carry the file (and line/column) they are about and a kind that decides the exit
//! code: configuration and usage problems exit with 2, everything else with 1. An error made
//! from another one (I/O, JSON, gzip) keeps it as its [`source`](std::error::Error::source).
//! Imports from the crate: nothing.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What went wrong, coarsely: decides the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad command-line use or bad configuration (YAML, parameter values): exit code 2.
    Config,
    /// Unreadable or malformed input data (gold set, page): exit code 1.
    Input,
    /// A filesystem failure while writing results: exit code 1.
    Io,
    /// The run was interrupted (Ctrl-C) after saving a checkpoint: exit code 1.
    Interrupted,
    /// An internal invariant was broken: a bug in cetune.
    Bug,
}

/// What a caller may act on, finer than the [`ErrorKind`] (most errors have none): a caller
/// that treats an error differently matches this, never the message's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// A setting holds parameter `.0`, which its extractor never reads (a misspelt name, a
    /// feature group the family does not know).
    UnusedParameter(String),
    /// A model file holds no model fitted with the setting's parameters: refit it.
    StaleModel,
    /// A run folder is locked by a live run or another command.
    InUse,
}

/// An error with its context: `path:line:col: message`.
#[derive(Debug, Clone)]
pub struct Error {
    /// The coarse kind.
    pub kind: ErrorKind,
    /// What a caller may act on, when the error is one it can ([`Cause`]; boxed, so a
    /// `Result` stays small).
    pub cause: Option<Box<Cause>>,
    /// The message, without location.
    pub message: String,
    /// The file the error is about.
    pub path: Option<PathBuf>,
    /// 1-based line in `path`.
    pub line: Option<usize>,
    /// 1-based column in `path`.
    pub column: Option<usize>,
    /// The underlying error, if any (shared, so the error stays `Clone`).
    pub source: Option<Arc<dyn std::error::Error + Send + Sync + 'static>>,
}

/// Result with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// A new error of `kind`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error { kind, cause: None, message: message.into(), path: None, line: None, column: None, source: None }
    }
    /// A configuration or usage error (exit code 2).
    pub fn config(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Config, message)
    }
    /// An input data error.
    pub fn input(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Input, message)
    }
    /// An internal invariant violation.
    pub fn bug(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Bug, format!("internal error (please report): {}", message.into()))
    }
    /// An I/O error on `path`, with the operation that failed.
    pub fn io(path: &Path, what: &str, err: std::io::Error) -> Self {
        Self::new(ErrorKind::Io, format!("cannot {what}: {err}")).with_path(path).with_source(err)
    }
    /// A file or folder named on the command line or in a run record does not exist (or is not
    /// what it should be): a usage error, exit code 2, whichever command meets it. `what` says
    /// what was looked for (`"gold set not found: not a folder"`).
    pub fn not_found(path: &Path, what: &str) -> Self {
        Self::config(what).with_path(path)
    }
    /// Marks the error as one a caller may act on ([`Cause`]).
    pub fn with_cause(mut self, cause: Cause) -> Self {
        self.cause = Some(Box::new(cause));
        self
    }
    /// What a caller may act on ([`Cause`]), if anything.
    pub fn cause(&self) -> Option<&Cause> {
        self.cause.as_deref()
    }
    /// Keeps `err` as this error's source.
    pub fn with_source(mut self, err: impl std::error::Error + Send + Sync + 'static) -> Self {
        self.source = Some(Arc::new(err));
        self
    }
    /// Attaches the file this error is about (kept if already set).
    pub fn with_path(mut self, path: &Path) -> Self {
        if self.path.is_none() {
            self.path = Some(path.to_path_buf());
        }
        self
    }
    /// Attaches a 1-based line (and column) in the file.
    pub fn with_line(mut self, line: usize, column: Option<usize>) -> Self {
        self.line = Some(line);
        self.column = column;
        self
    }
    /// The process exit code for this error: 2 for usage/configuration, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self.kind {
            ErrorKind::Config => 2,
            _ => 1,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.path {
            write!(f, "{}:", p.display())?;
            if let Some(l) = self.line {
                write!(f, "{l}:")?;
                if let Some(c) = self.column {
                    write!(f, "{c}:")?;
                }
            }
            write!(f, " ")?;
        }
        write!(f, "{}", self.message)
    }
}

/// A panic caught by [`isolate`]: a bug, in cetune or in foreign code it runs (the HTML
/// parser), on one page. Its message is the panic's, when it had one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panicked(pub Option<String>);

/// Runs `f`, turning a panic into an error value: the one boundary where a bug on one page (in
/// an extractor, in the HTML parser or another crate cetune calls) becomes that page's error
/// instead of ending a crawl, a scoring run or an annotation request. Every per-page isolation
/// goes through here; expected failures are values (`Result`) and never unwind. The panic hook
/// has already reported the panic on stderr. `f` is asserted unwind-safe: a caller keeps
/// nothing `f` may have left half-written (a poisoned lock is read through, as everywhere).
pub fn isolate<T>(f: impl FnOnce() -> T) -> std::result::Result<T, Panicked> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| {
        let text = p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned());
        Panicked(text)
    })
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn std::error::Error + 'static))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_file_line_and_column() {
        let e = Error::config("parameter 't': bad").with_path(Path::new("params/accb.yaml")).with_line(7, Some(3));
        assert_eq!(e.to_string(), "params/accb.yaml:7:3: parameter 't': bad");
        assert_eq!(e.exit_code(), 2);
        assert_eq!(Error::input("x").exit_code(), 1);
    }

    #[test]
    fn keeps_its_source() {
        use std::error::Error as _;
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let e = Error::io(Path::new("a.csv"), "read", io);
        assert_eq!(e.to_string(), "a.csv: cannot read: gone");
        assert_eq!(e.source().map(|s| s.to_string()).as_deref(), Some("gone"));
        assert_eq!(e.clone().source().map(|s| s.to_string()).as_deref(), Some("gone"));
        assert!(Error::input("x").source().is_none());
    }

    #[test]
    fn isolate_turns_a_panic_into_an_error_value() {
        assert_eq!(isolate(|| 7), Ok(7));
        let got = isolate(|| -> u8 { panic!("page {} is broken", 3) });
        let static_text = isolate(|| -> u8 { panic!("broken") });
        assert_eq!(got, Err(Panicked(Some("page 3 is broken".into()))));
        assert_eq!(static_text, Err(Panicked(Some("broken".into()))));
    }

    #[test]
    fn a_cause_is_matched_by_type_and_keeps_the_kind() {
        let e = Error::config("parameter 'x' is declared for extractor 'lqf' but the extractor does not use it")
            .with_cause(Cause::UnusedParameter("x".into()));
        assert!(matches!(e.cause(), Some(Cause::UnusedParameter(n)) if n == "x"));
        assert_eq!(e.exit_code(), 2);
        assert_eq!(Error::config("x").cause(), None);
    }

    #[test]
    fn not_found_is_one_kind_for_every_command() {
        let e = Error::not_found(Path::new("gs"), "gold set not found: not a folder");
        assert_eq!((e.kind, e.exit_code()), (ErrorKind::Config, 2));
        assert_eq!(e.to_string(), "gs: gold set not found: not a folder");
    }
}
