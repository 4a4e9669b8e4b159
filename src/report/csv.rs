//! The one CSV writer of cetune, over the `csv` crate: RFC 4180 quoting (a field is quoted only
//! when it holds a comma, a quote or a line break) and every error propagated. Every CSV file
//! (`individuals.csv`, `generations.csv`, `top.csv`, `per-document.csv`, `per-package.csv`,
//! `compare.csv`) is written through it.

use crate::error::{Error, ErrorKind, Result};
use std::path::Path;

/// The CSV text of `rows`, one line per row, each ending in `\n`.
pub fn to_bytes<R, F>(rows: impl IntoIterator<Item = R>) -> Result<Vec<u8>>
where
    R: IntoIterator<Item = F>,
    F: AsRef<[u8]>,
{
    let fail = |e: csv::Error| Error::new(ErrorKind::Io, format!("cannot write CSV: {e}")).with_source(e);
    let mut w = csv::WriterBuilder::new().flexible(true).from_writer(Vec::new());
    for r in rows {
        w.write_record(r).map_err(fail)?;
    }
    w.into_inner().map_err(|e| fail(e.into_error().into()))
}

/// Writes `rows` to `path` atomically and durably (see [`write_atomic`](super::write_atomic)).
pub fn write<R, F>(path: &Path, rows: impl IntoIterator<Item = R>) -> Result<()>
where
    R: IntoIterator<Item = F>,
    F: AsRef<[u8]>,
{
    super::write_atomic(path, &to_bytes(rows)?).map_err(|e| e.with_path(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_what_needs_it() {
        let rows = [vec!["a", "b,c", "say \"hi\"", "two\nlines", ""], vec!["1", "2", "3", "4", "5"]];
        assert_eq!(
            String::from_utf8(to_bytes(rows).unwrap()).unwrap(),
            "a,\"b,c\",\"say \"\"hi\"\"\",\"two\nlines\",\n1,2,3,4,5\n"
        );
    }

    #[test]
    fn a_failed_write_is_an_error_naming_the_file() {
        let path = Path::new("/nonexistent-cetune-dir/x.csv");
        let e = write(path, [["a"]]).unwrap_err();
        assert!(e.to_string().starts_with("/nonexistent-cetune-dir/x.csv: cannot write"), "{e}");
    }
}
