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

/// An error with its context: `path:line:col: message`.
#[derive(Debug, Clone)]
pub struct Error {
    /// The coarse kind.
    pub kind: ErrorKind,
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
        Error { kind, message: message.into(), path: None, line: None, column: None, source: None }
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
    fn not_found_is_one_kind_for_every_command() {
        let e = Error::not_found(Path::new("gs"), "gold set not found: not a folder");
        assert_eq!((e.kind, e.exit_code()), (ErrorKind::Config, 2));
        assert_eq!(e.to_string(), "gs: gold set not found: not a folder");
    }
}
