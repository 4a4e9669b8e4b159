//! Path arithmetic behind the output-folder safety rules: absolute, normalised paths, whether
//! two folders overlap, and whether a folder is the working directory or one of its ancestors.
//! Gold-set writers and run folders both refuse to write where they would destroy inputs, so
//! the rule lives here once. It also holds the one safe-write layer ([`write_atomic`],
//! [`create_dir_in`]: a temporary file in the same folder, then a rename; never through a
//! symlink cetune did not create) and the one bounded reader ([`read_capped`]: regular files
//! only, never more than a cap read). A leaf module. Imports from the crate: `error`.

mod bounded;
mod reads;

pub use bounded::{Line, open_list, read_capped, read_capped_text, read_line};
pub use reads::Reads;

use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

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

/// The name that stands for the embedded default gold set, in `--goldset` and in what a run
/// records: a run on it resumes from any folder.
pub const DEFAULT: &str = "default";

/// The embedded default gold set in the source tree cetune was built from.
fn embedded_goldset() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("goldsets/default")
}

/// The embedded default gold set: `goldsets/default` under the current folder, else the one in
/// the source tree cetune was built from.
pub fn default_goldset() -> PathBuf {
    let local = PathBuf::from("goldsets/default");
    if local.is_dir() { local } else { embedded_goldset() }
}

/// The environment variable that stands, in what a run records, for a folder outside the
/// working folder (imported gold sets, scratch runs): `$CETUNE_SCRATCH/wcxb-dev-s120`.
pub const SCRATCH: &str = "CETUNE_SCRATCH";

/// How a path is recorded in a run folder (`run.yaml`, `best.yaml`, a gold set's source):
/// never an absolute path of one machine. A relative path stays as given (relative to the
/// working folder); an absolute one inside the working folder becomes relative to it; one
/// inside the folder `$CETUNE_SCRATCH` names becomes `$CETUNE_SCRATCH/REST`; any other becomes
/// `$CETUNE_SCRATCH/NAME` (its last component: point the variable at its parent folder to use
/// it). [`resolve_recorded`] reads it back.
pub fn recorded(p: &Path) -> String {
    if !p.is_absolute() {
        return p.display().to_string();
    }
    let abs = absolute(p);
    if abs == absolute(&embedded_goldset()) {
        return DEFAULT.into();
    }
    let inside = |root: &Path| abs.strip_prefix(absolute(root)).ok().map(Path::to_path_buf);
    if let Some(rel) = std::env::current_dir().ok().and_then(|c| inside(&c)) {
        return if rel.as_os_str().is_empty() { ".".into() } else { rel.display().to_string() };
    }
    let scratch = std::env::var_os(SCRATCH).filter(|s| Path::new(s).is_absolute());
    let rest = match scratch.and_then(|s| inside(Path::new(&s))) {
        Some(rel) if !rel.as_os_str().is_empty() => rel,
        _ => abs.file_name().map(PathBuf::from).unwrap_or_default(),
    };
    format!("${SCRATCH}/{}", rest.display())
}

/// A path as [`recorded`] wrote it in the run folder `run`, ready to open:
/// `$CETUNE_SCRATCH/REST` under the folder the variable names, or, when it is unset, beside the
/// run folder (an error naming the variable when neither holds it); `default`, the embedded gold
/// set; an absolute path of an older run folder as written; a relative one against the working
/// folder, else against the nearest folder above the run folder that holds it.
pub fn resolve_recorded(s: &str, run: &Path) -> Result<PathBuf> {
    if s == DEFAULT && !Path::new(s).exists() {
        return Ok(default_goldset());
    }
    let Some(rest) = s.strip_prefix(&format!("${SCRATCH}/")) else {
        // A relative path is relative to the folder the run was started in: the working folder
        // when it holds it, else the nearest folder above the run folder that does (a run made
        // as `runs/x` from the project folder resumes from anywhere).
        let path = PathBuf::from(s);
        if path.is_absolute() || path.exists() {
            return Ok(path);
        }
        let above = absolute(run).ancestors().skip(1).map(|a| a.join(&path)).find(|p| p.exists());
        return Ok(above.unwrap_or(path));
    };
    match std::env::var_os(SCRATCH) {
        Some(root) if !root.is_empty() => Ok(Path::new(&root).join(rest)),
        _ => {
            let beside = absolute(run).parent().map(|p| p.join(rest)).filter(|p| p.exists());
            beside.ok_or_else(|| {
                Error::config(format!(
                    "{s}: set {SCRATCH} to the folder that holds '{rest}' (the run recorded it under that variable)"
                ))
            })
        }
    }
}

/// Each word of a command line as a run records it: the program as `cetune`, and every
/// absolute path (alone, or the value of `--flag=PATH`) as [`recorded`] writes it.
pub fn recorded_command(args: &[String]) -> String {
    let word = |a: &String| match a.split_once('=') {
        Some((flag, v)) if flag.starts_with("--") && Path::new(v).is_absolute() => {
            format!("{flag}={}", recorded(Path::new(v)))
        }
        _ if Path::new(a).is_absolute() => recorded(Path::new(a)),
        _ => a.clone(),
    };
    let mut words = vec!["cetune".to_string()];
    words.extend(args.iter().skip(1).map(word));
    words.join(" ")
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

/// Whether one of the two paths (folders or files) is, contains or lies inside the other: by
/// their absolute paths, and by device and inode (a bind mount, a hard link).
pub fn overlaps(a: &Path, b: &Path) -> bool {
    let (x, y) = (absolute(a), absolute(b));
    x.starts_with(&y) || y.starts_with(&x) || reads::same_or_nested(a, b)
}

/// Refuses an output (folder or file) `out` that is, contains or lies inside `input` (`what`
/// names it), under any name (compared by path and by device and inode).
pub fn refuse_overlap(out: &Path, input: &Path, what: &str) -> Result<()> {
    if overlaps(out, input) {
        return Err(Error::config(format!(
            "refusing to write here: this output overlaps {what} {} (it is, holds or lies inside it, under this or another name: a link or a mount); choose another output",
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

/// Refuses `path` when it is a symlink: cetune writes files and folders of its own there, and a
/// write through a link would land wherever the link points (a gold text, a file outside).
pub fn refuse_symlink(path: &Path) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(Error::config(
            "refusing to write through a symlink (cetune writes its own file or folder here); remove the link or choose another output",
        )
        .with_path(path)),
        _ => Ok(()),
    }
}

/// Writes `bytes` to `path` safely: into a new temporary file in the same folder (created
/// exclusively, so it follows no link), fsynced, then renamed over `path` ([`Staged`]). A
/// symlink at `path` is refused, a folder too; a crash leaves either the old file or the new one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let (staged, mut file) = Staged::create(path)?;
    file.write_all(bytes).map_err(|e| Error::io(path, "write", e))?;
    staged.commit(file)
}

/// A file being written in full beside its place: a new temporary file in the same folder
/// (created exclusively, so no link is followed and nothing is truncated), renamed over the
/// place by [`Staged::commit`]. Dropped before that, the temporary goes and the place keeps what
/// it held: an output file that is also an input (a hard link, standard input) is never emptied
/// while it is read. Every file cetune writes goes through here.
#[derive(Debug)]
pub struct Staged {
    tmp: PathBuf,
    path: PathBuf,
    done: bool,
}

impl Staged {
    /// Starts writing `path`: refuses a symlink or a folder there, creates the temporary.
    pub fn create(path: &Path) -> Result<(Staged, std::fs::File)> {
        refuse_symlink(path)?;
        if path.is_dir() {
            return Err(Error::config("cannot write a file here: a folder of that name exists").with_path(path));
        }
        let tmp = temporary_beside(path);
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|e| Error::io(path, "write", e))?;
        Ok((Staged { tmp, path: path.to_path_buf(), done: false }, file))
    }

    /// Finishes the file: fsyncs it, renames it over the place and fsyncs the folder.
    pub fn commit(mut self, file: std::fs::File) -> Result<()> {
        let path = self.path.clone();
        file.sync_all().and_then(|_| std::fs::rename(&self.tmp, &path)).map_err(|e| Error::io(&path, "write", e))?;
        self.done = true;
        sync_dir(&path).map_err(|e| Error::io(&path, "sync the folder of", e))?;
        note_written(&path)
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// The list of what cetune wrote into a folder it manages (a run folder, a `compare-*` folder in
/// it): one name a line, a folder's name ending in `/`. `--force` deletes what it lists, nothing else.
pub const WRITTEN: &str = ".cetune-files";

/// Serialises updates of [`WRITTEN`] lists within this process.
static LIST_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Starts the list of a folder cetune manages (empty), and records the folder in its parent's
/// list when the parent is one too.
pub fn start_list(dir: &Path) -> Result<()> {
    let list = dir.join(WRITTEN);
    if !list.exists() {
        refuse_symlink(&list)?;
        std::fs::write(&list, b"").map_err(|e| Error::io(&list, "write", e))?;
    }
    let name = dir.file_name().map(|n| format!("{}/", n.to_string_lossy()));
    match (dir.parent(), name) {
        (Some(parent), Some(name)) => add_to_list(parent, &name),
        _ => Ok(()),
    }
}

/// Records `path` in its folder's [`WRITTEN`] list, when that folder has one.
pub fn note_written(path: &Path) -> Result<()> {
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => add_to_list(dir, &name.to_string_lossy()),
        _ => Ok(()),
    }
}

fn add_to_list(dir: &Path, name: &str) -> Result<()> {
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let list = dir.join(WRITTEN);
    if !list.is_file() || name == WRITTEN {
        return Ok(());
    }
    let _guard = LIST_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut names = read_list(dir);
    if names.iter().any(|n| n == name) {
        return Ok(());
    }
    names.push(name.to_string());
    write_list(dir, &names)
}

/// The names a folder's [`WRITTEN`] list holds (empty when it has none); a name that is not one
/// plain path component (with `/` after a folder's) is ignored.
pub fn read_list(dir: &Path) -> Vec<String> {
    let text = read_capped_text(&dir.join(WRITTEN), 16 << 20, WRITTEN).unwrap_or_default();
    text.lines()
        .filter(|l| {
            let n = l.strip_suffix('/').unwrap_or(l);
            !n.is_empty() && !n.contains(['/', '\\']) && n != "." && n != ".."
        })
        .map(String::from)
        .collect()
}

fn write_list(dir: &Path, names: &[String]) -> Result<()> {
    let list = dir.join(WRITTEN);
    refuse_symlink(&list)?;
    let tmp = temporary_beside(&list);
    let text: String = names.iter().map(|n| format!("{n}\n")).collect();
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .and_then(|_| std::fs::rename(&tmp, &list))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            Error::io(&list, "write", e)
        })
}

/// Deletes what the [`WRITTEN`] list of `dir` names (a listed folder by its own list, and then
/// the folder itself when nothing else is left in it) and returns the names of everything else
/// left in `dir`, besides the list and `keep`. The list then names only the folders kept.
pub fn clear_listed(dir: &Path, keep: &[&str]) -> Result<Vec<String>> {
    let names = read_list(dir);
    let mut kept_dirs = Vec::new();
    for name in &names {
        let path = dir.join(name.trim_end_matches('/'));
        let Ok(meta) = std::fs::symlink_metadata(&path) else { continue };
        if name.ends_with('/') && meta.is_dir() {
            if clear_listed(&path, &[])?.is_empty() {
                let _ = std::fs::remove_file(path.join(WRITTEN));
                std::fs::remove_dir(&path).map_err(|e| Error::io(&path, "delete", e))?;
            } else {
                kept_dirs.push(name.clone());
            }
        } else if !meta.is_dir() {
            std::fs::remove_file(&path).map_err(|e| Error::io(&path, "delete", e))?;
        }
    }
    write_list(dir, &kept_dirs)?;
    let mut left = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| Error::io(dir, "read folder", e))?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name != WRITTEN && !keep.contains(&name.as_str()) {
            left.push(name);
        }
    }
    left.sort();
    Ok(left)
}

/// Removes the temporaries ([`write_atomic`]'s `.NAME.cetune-tmp-PID-N`) that a process killed
/// mid-write left in `dir`, when process PID is no longer running (Linux, where `/proc` says so).
pub fn remove_dead_temporaries(dir: &Path) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some((_, rest)) = name.split_once(".cetune-tmp-") else { continue };
        let pid = rest.split('-').next().unwrap_or("");
        let dead = cfg!(target_os = "linux")
            && !pid.is_empty()
            && pid.bytes().all(|b| b.is_ascii_digit())
            && !Path::new("/proc").join(pid).exists();
        if dead && name.starts_with('.') && e.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// A fresh hidden name beside `path`: `.NAME.cetune-tmp-PID-N`.
pub fn temporary_beside(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.cetune-tmp-{}-{n}", std::process::id()))
}

/// Fsyncs the folder holding `path`, so a rename or a new entry in it is on disk. Only Unix can
/// open a folder for syncing; elsewhere the rename is as durable as the platform makes it.
pub fn sync_dir(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        std::fs::File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Creates the folder `root/rel` (each missing component in turn) and returns it; an existing
/// component that is a symlink or not a folder is refused, so files written below it stay
/// inside `root` (`root` itself is the user's choice and may be a link).
pub fn create_dir_in(root: &Path, rel: &Path) -> Result<PathBuf> {
    let mut dir = root.to_path_buf();
    for c in rel.components() {
        let Component::Normal(name) = c else {
            return Err(Error::bug(format!("output path component {c:?} is not a plain name")));
        };
        dir.push(name);
        match std::fs::symlink_metadata(&dir) {
            Ok(m) if m.file_type().is_symlink() => return refuse_symlink(&dir).map(|_| dir),
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(Error::config("cannot create a folder here: a file of that name exists").with_path(&dir));
            }
            Err(_) => match std::fs::create_dir(&dir) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => {}
                Err(e) => return Err(Error::io(&dir, "create folder", e)),
            },
        }
    }
    Ok(dir)
}

/// Checks that an output folder can be written, with a probe file created exclusively under a
/// fresh name (so no link of the user's, whatever its name, is followed) and then removed.
pub fn probe_writable(dir: &Path) -> Result<()> {
    let probe = temporary_beside(&dir.join(".cetune-write-test"));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| Error::config(format!("output folder is not writable: {e}")).with_path(dir))?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_writes_refuse_links_list_what_they_wrote_and_clear_only_that() {
        let d = std::env::temp_dir().join(format!("cetune-paths-safe-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("run")).unwrap();
        std::fs::write(d.join("victim"), "precious").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(d.join("victim"), d.join("run/a.txt")).unwrap();
            let e = write_atomic(&d.join("run/a.txt"), b"x").unwrap_err();
            assert!(e.to_string().contains("symlink"), "{e}");
            std::os::unix::fs::symlink(&d, d.join("run/sub")).unwrap();
            assert!(create_dir_in(&d.join("run"), Path::new("sub")).is_err());
            assert_eq!(std::fs::read_to_string(d.join("victim")).unwrap(), "precious");
            std::fs::remove_file(d.join("run/a.txt")).unwrap();
            std::fs::remove_file(d.join("run/sub")).unwrap();
        }
        let run = d.join("run");
        start_list(&run).unwrap();
        write_atomic(&run.join("top.csv"), b"x").unwrap();
        std::fs::write(run.join("mine.txt"), "x").unwrap();
        std::fs::write(run.join(".top.csv.cetune-tmp-999999999-0"), "x").unwrap();
        assert_eq!(read_list(&run), ["top.csv"]);
        remove_dead_temporaries(&run);
        assert_eq!(clear_listed(&run, &[]).unwrap(), ["mine.txt"]);
        let e = read_capped(&run, 10, "run folder").unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        std::fs::write(run.join("big"), vec![b'x'; 11]).unwrap();
        assert!(read_capped(&run.join("big"), 10, "big").unwrap_err().to_string().contains("too large"));
        assert_eq!(read_capped(&run.join("big"), 11, "big").unwrap().len(), 11);
        std::fs::remove_dir_all(&d).unwrap();
    }

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
    fn a_hard_link_is_its_input_and_a_staged_file_replaces_only_when_committed() {
        let d = std::env::temp_dir().join(format!("cetune-paths-ids-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("gs/news")).unwrap();
        std::fs::write(d.join("page.html"), "page").unwrap();
        std::fs::hard_link(d.join("page.html"), d.join("other-name.txt")).unwrap();
        let reads = Reads::new().with(d.join("page.html"), "the input").with(d.join("gs"), "the gold set");
        let e = reads.refuse(&d.join("other-name.txt")).unwrap_err();
        assert!(e.to_string().contains("overlaps the input"), "{e}");
        assert!(reads.refuse(&d.join("gs/news/new")).is_err() && reads.refuse(&d).is_err());
        assert!(reads.refuse(&d.join("out.txt")).is_ok());
        // Uncommitted, the place keeps what it held and no temporary stays; committed, it is
        // replaced, and its hard link (another name of the input) keeps the old bytes.
        let (staged, mut f) = Staged::create(&d.join("other-name.txt")).unwrap();
        f.write_all(b"new").unwrap();
        drop(staged);
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 3);
        let (staged, mut f) = Staged::create(&d.join("other-name.txt")).unwrap();
        f.write_all(b"new").unwrap();
        staged.commit(f).unwrap();
        assert_eq!(std::fs::read(d.join("other-name.txt")).unwrap(), b"new");
        assert_eq!(std::fs::read(d.join("page.html")).unwrap(), b"page");
        std::fs::remove_dir_all(&d).unwrap();
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
