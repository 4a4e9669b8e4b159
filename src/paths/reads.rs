//! What a command reads, so that nothing it writes lands on it: files, folders and standard
//! input, compared with every output by path and by device and inode. A path can name an input
//! in many spellings (`..`, a symlink, a hard link, a bind mount of a folder); the device and
//! inode of the file or folder are the one name they share. Imports from the crate: `error`.

use super::refuse_overlap;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// What a command reads: each path with what it is (`the gold set`, `the scored output`); `-`
/// stands for standard input. Every output folder and file is checked against it
/// ([`Reads::refuse`]) before anything is written.
#[derive(Debug, Clone, Default)]
pub struct Reads {
    items: Vec<(PathBuf, String)>,
}

impl Reads {
    /// Nothing read yet.
    pub fn new() -> Reads {
        Reads::default()
    }

    /// With `path` (what it is: `what`) read too.
    pub fn with(mut self, path: impl AsRef<Path>, what: &str) -> Reads {
        self.add(path, what);
        self
    }

    /// Records that `path` (what it is: `what`) is read.
    pub fn add(&mut self, path: impl AsRef<Path>, what: &str) {
        self.items.push((path.as_ref().to_path_buf(), what.to_string()));
    }

    /// Refuses an output `out` (a file or a folder, existing or not) that is an input, lies
    /// inside an input folder or holds an input, compared by path and by device and inode; and
    /// a file that is standard input (`cmd - --out page.html < page.html`).
    pub fn refuse(&self, out: &Path) -> Result<()> {
        for (p, what) in &self.items {
            if p.as_os_str() == "-" {
                refuse_stdin(out)?;
            } else {
                refuse_overlap(out, p, what)?;
            }
        }
        Ok(())
    }
}

/// The device and inode of what `p` names (a link followed), when it exists.
pub(super) fn identity(p: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = p;
        None
    }
}

/// The identities of `p` (when it exists) and of every existing folder above it.
pub(super) fn identities_up(p: &Path) -> Vec<(u64, u64)> {
    super::absolute(p).ancestors().filter_map(identity).collect()
}

/// Whether one of `a` and `b` is, holds or lies inside the other by device and inode: a bind
/// mount or a hard link that no path comparison sees.
pub(super) fn same_or_nested(a: &Path, b: &Path) -> bool {
    let inside = |x: &Path, y: &Path| identity(y).is_some_and(|id| identities_up(x).contains(&id));
    inside(a, b) || inside(b, a)
}

/// Refuses `out` when it is standard input's file, or a folder holding it.
fn refuse_stdin(out: &Path) -> Result<()> {
    let stdin = Path::new("/dev/stdin");
    // A pipe or a terminal is no file an output could replace.
    if !std::fs::metadata(stdin).is_ok_and(|m| m.is_file()) {
        return Ok(());
    }
    let Some(out_id) = identity(out) else { return Ok(()) };
    let named = std::fs::read_link("/proc/self/fd/0").ok().filter(|p| p.is_absolute() && p.exists());
    let hit = identity(stdin) == Some(out_id) || named.is_some_and(|p| identities_up(&p).contains(&out_id));
    if hit {
        return Err(Error::config(
            "refusing to write here: this is standard input's file (the page being read), or holds it; choose another output",
        )
        .with_path(out));
    }
    Ok(())
}
