//! Path arithmetic behind the output-folder safety rules: absolute, normalised paths, whether
//! two folders overlap, and whether a folder is the working directory or one of its ancestors.
//! Gold-set writers and run folders both refuse to write where they would destroy inputs, so
//! the rule lives here once. A leaf module. Imports from the crate: `error`.

use crate::error::{Error, Result};
use std::path::{Component, Path, PathBuf};

/// `p` as an absolute path: the longest existing prefix canonicalised (symlinks resolved), the
/// rest appended with `.` and `..` resolved lexically. Works for paths that do not exist yet.
pub fn absolute(p: &Path) -> PathBuf {
    let joined = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().map(|c| c.join(p)).unwrap_or_else(|_| p.to_path_buf())
    };
    let mut existing = joined.clone();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.file_name().map(|n| n.to_os_string()), existing.parent()) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_path_buf();
            }
            _ => break,
        }
    }
    let mut out = existing.canonicalize().unwrap_or(existing);
    for name in rest.into_iter().rev() {
        out.push(name);
    }
    normalise(&out)
}

/// Resolves `.` and `..` lexically.
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Whether one of the two folders is, contains or lies inside the other.
pub fn overlaps(a: &Path, b: &Path) -> bool {
    let (a, b) = (absolute(a), absolute(b));
    a.starts_with(&b) || b.starts_with(&a)
}

/// Refuses an output folder `out` that is, contains or lies inside `input` (`what` names it).
pub fn refuse_overlap(out: &Path, input: &Path, what: &str) -> Result<()> {
    if overlaps(out, input) {
        return Err(Error::config(format!(
            "refusing to write here: this folder overlaps {what} {} (it is, contains or lies inside it); choose another output folder",
            input.display()
        ))
        .with_path(out));
    }
    Ok(())
}

/// Refuses an output folder that is the working directory or one of its ancestors (replacing
/// it would delete the user's work).
pub fn refuse_cwd_or_ancestor(out: &Path) -> Result<()> {
    let Ok(cwd) = std::env::current_dir() else { return Ok(()) };
    let cwd = absolute(&cwd);
    if cwd.starts_with(absolute(out)) {
        return Err(Error::config(
            "refusing to write here: this folder is the working directory or one of its ancestors; choose a new folder",
        )
        .with_path(out));
    }
    Ok(())
}

/// Whether `dir` exists and holds at least one entry.
pub fn is_non_empty_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).map(|mut d| d.next().is_some()).unwrap_or(false)
}

/// A file or folder name made safe to use as one path component: anything but letters, digits,
/// `-`, `_` and `.` becomes `_`, and a name of dots only becomes `_`.
pub fn component(name: &str) -> String {
    let s: String =
        name.chars().map(|c| if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' }).collect();
    if s.is_empty() || s.chars().all(|c| c == '.') { "_".into() } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_covers_same_inside_and_containing_folders_also_through_dot_dot() {
        let base = std::env::temp_dir().join(format!("cetune-paths-{}", std::process::id()));
        std::fs::create_dir_all(base.join("gs/news")).unwrap();
        assert!(overlaps(&base.join("gs"), &base.join("gs")));
        assert!(overlaps(&base.join("gs/news/new"), &base.join("gs")));
        assert!(overlaps(&base, &base.join("gs")));
        assert!(overlaps(&base.join("x/../gs/./news"), &base.join("gs")));
        assert!(!overlaps(&base.join("gs2"), &base.join("gs")));
        assert!(!overlaps(&base.join("out"), &base.join("gs")));
        let e = refuse_overlap(&base.join("gs/news"), &base.join("gs"), "the gold set").unwrap_err();
        assert!(e.to_string().contains("overlaps the gold set"), "{e}");
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn the_working_directory_and_its_ancestors_are_refused() {
        assert!(refuse_cwd_or_ancestor(Path::new(".")).is_err());
        assert!(refuse_cwd_or_ancestor(Path::new("..")).is_err());
        assert!(refuse_cwd_or_ancestor(Path::new("/")).is_err());
        assert!(refuse_cwd_or_ancestor(Path::new("some-new-folder")).is_ok());
    }

    #[test]
    fn components_cannot_climb_out_of_a_folder() {
        assert_eq!(component("../../etc"), ".._.._etc");
        assert_eq!(component(".."), "_");
        assert_eq!(component("l3s-gn1 sample"), "l3s-gn1_sample");
        assert!(!Path::new(&component("a/../../b")).components().any(|c| c == Component::ParentDir));
    }
}
