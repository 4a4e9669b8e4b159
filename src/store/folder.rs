//! Output folders that cannot destroy data: run folders replaced only when they are run folders,
//! and then only cetune's own files in them; an exclusive lock while a run writes; result folders
//! that never overlap the gold set and are never overwritten without `--force`.

use crate::error::{Error, Result};
use crate::paths::{Reads, is_non_empty_dir, refuse_cwd_or_ancestor};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The lock file inside a run folder.
pub const LOCK: &str = ".lock";

/// An exclusive lock on a run folder, held while a run writes into it; released when dropped or
/// when the process dies (an OS file lock, so `kill -9` leaves no stale lock).
#[derive(Debug)]
pub struct RunLock {
    _file: File,
}

impl RunLock {
    /// Takes the lock of `dir`, or says which process holds it.
    pub fn acquire(dir: &Path) -> Result<RunLock> {
        let path = dir.join(LOCK);
        // Opening a link would lock (and empty) the file it points to.
        crate::paths::refuse_symlink(&path)?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| Error::io(&path, "open lock file", e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut pid = String::new();
                let _ = file.read_to_string(&mut pid);
                let holder = pid.trim();
                let holder =
                    if holder.is_empty() { "another process".to_string() } else { format!("process {holder}") };
                return Err(Error::config(format!(
                    "this run folder is in use by {holder} (it holds {LOCK}); wait for it to finish or stop it first"
                ))
                .with_cause(crate::error::Cause::InUse)
                .with_path(dir));
            }
            Err(TryLockError::Error(e)) => return Err(Error::io(&path, "lock", e)),
        }
        file.set_len(0).map_err(|e| Error::io(&path, "write lock file", e))?;
        file.rewind().map_err(|e| Error::io(&path, "write lock file", e))?;
        write!(file, "{}", std::process::id()).map_err(|e| Error::io(&path, "write lock file", e))?;
        Ok(RunLock { _file: file })
    }
}

/// Creates a new run folder, or replaces an old one, and locks it.
///
/// - A missing or empty folder is created.
/// - A run folder (it holds `run.yaml`) needs `force`; then its lock is taken first (a live run
///   is never replaced) and only cetune's own files are deleted.
/// - Any other non-empty folder is refused, with or without `force`.
/// - The folder may not be, contain or lie inside what the run reads (`reads`: the gold set, the
///   parameter file), nor be the working directory or one of its ancestors.
pub fn create_run_dir(dir: &Path, force: bool, reads: &Reads) -> Result<RunLock> {
    reads.refuse(dir)?;
    refuse_cwd_or_ancestor(dir)?;
    if is_non_empty_dir(dir) {
        let run = dir.join(super::files::RUN).is_file();
        // A run killed as it started, after taking its lock and before writing run.yaml, leaves
        // its lock (only run folders have one) and at most its own listed files.
        let started = !run && dir.join(LOCK).is_file();
        if !run && !started {
            return Err(Error::config(
                "this folder is not empty and is not a cetune run folder (it has no run.yaml); choose a new --out",
            )
            .with_path(dir));
        }
        // The lock first: a live run is reported as such, with or without --force.
        let lock = RunLock::acquire(dir)?;
        if !force {
            let what = match run {
                true => format!("a run folder already exists here; continue it with --resume {0} or", dir.display()),
                false => "a run stopped before it wrote run.yaml left this folder (nothing to resume);".into(),
            };
            return Err(Error::config(format!("{what} replace it with --force")).with_path(dir));
        }
        if run || dir.join(crate::paths::WRITTEN).is_file() {
            clear_run_files(dir)?;
        }
        crate::paths::start_list(dir)?;
        return Ok(lock);
    }
    std::fs::create_dir_all(dir).map_err(|e| Error::config(format!("cannot create run folder: {e}")).with_path(dir))?;
    let lock = RunLock::acquire(dir)
        .map_err(|e| Error::config(format!("run folder is not writable: {}", e.message)).with_path(dir))?;
    crate::paths::start_list(dir)?;
    Ok(lock)
}

/// Deletes the files the run folder's list ([`crate::paths::WRITTEN`]) names, and `compare-*`
/// folders by their own lists; anything else stays. A run folder without a list (written by a
/// cetune before 0.3) is refused: its files cannot be told from the user's.
fn clear_run_files(dir: &Path) -> Result<()> {
    if !dir.join(crate::paths::WRITTEN).is_file() {
        return Err(Error::config(format!(
            "this run folder has no {} (the list of the files cetune wrote), so --force cannot tell them from yours; delete the folder yourself or choose a new --out",
            crate::paths::WRITTEN
        ))
        .with_path(dir));
    }
    crate::paths::remove_dead_temporaries(dir);
    crate::paths::clear_listed(dir, &[LOCK]).map(|_| ())
}

/// A new folder `base`, or `base-2`, `base-3`, … when that exists: created atomically, so two
/// runs started in the same second by one script never share a folder.
pub fn unique_dir(base: &Path) -> Result<PathBuf> {
    if let Some(parent) = base.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, "create folder", e))?;
    }
    for k in 1..10_000 {
        let dir = if k == 1 { base.to_path_buf() } else { PathBuf::from(format!("{}-{k}", base.display())) };
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(Error::io(&dir, "create folder", e)),
        }
    }
    Err(Error::config("no free folder name").with_path(base))
}

/// Prepares a results folder (`evaluate --out`, `compare --out`, `score --out`, `extract
/// --dump`): never one of the command's inputs (`reads`: the gold set, a scored output, a
/// parameter file), inside one or holding one, never the working directory or an ancestor, and
/// an existing non-empty folder only with `force` (files of the same names are then replaced,
/// others kept).
pub fn prepare_out(dir: &Path, force: bool, reads: &Reads) -> Result<()> {
    reads.refuse(dir)?;
    refuse_cwd_or_ancestor(dir)?;
    if is_non_empty_dir(dir) && !force {
        return Err(Error::config(
            "output folder is not empty; use --force to write into it (files of the same names are replaced)",
        )
        .with_path(dir));
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::config(format!("cannot create output folder: {e}")).with_path(dir))?;
    crate::paths::probe_writable(dir)?;
    crate::paths::remove_dead_temporaries(dir);
    // A folder inside a run folder (`compare-*`) keeps a list of its own, so the run's --force
    // deletes what cetune wrote there and nothing else.
    if dir.parent().is_some_and(|p| p.join(crate::paths::WRITTEN).is_file()) {
        crate::paths::start_list(dir)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads(gs: &Path) -> Reads {
        Reads::new().with(gs, "the gold set")
    }

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("cetune-folder-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn force_replaces_only_run_folders_and_only_cetunes_files() {
        let base = tmp("force");
        let gs = base.join("gs");
        std::fs::create_dir_all(&gs).unwrap();
        // A folder of unrelated files is never deleted, with or without --force.
        let other = base.join("other");
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(other.join("thesis.tex"), "x").unwrap();
        for force in [false, true] {
            let e = create_run_dir(&other, force, &reads(&gs)).unwrap_err();
            assert!(e.to_string().contains("not a cetune run folder"), "{e}");
            assert!(!e.to_string().contains("--resume"), "{e}");
        }
        assert!(other.join("thesis.tex").exists());
        // A run folder: --force needed; then only cetune's files go.
        let run = base.join("run");
        drop(create_run_dir(&run, false, &reads(&gs)).unwrap());
        for f in ["run.yaml", "individuals.csv", "space.svg", "space-generation.png", "space_r_t.svg"] {
            crate::paths::write_atomic(&run.join(f), b"x").unwrap();
        }
        // The user's files, named like cetune's or not, stay.
        for f in ["notes.txt", "space-shuttle.svg", "best.yaml.tmp"] {
            std::fs::write(run.join(f), "x").unwrap();
        }
        prepare_out(&run.join("compare-l3s"), false, &reads(&gs)).unwrap();
        crate::paths::write_atomic(&run.join("compare-l3s/compare.csv"), b"x").unwrap();
        std::fs::create_dir_all(run.join("mine")).unwrap();
        let e = create_run_dir(&run, false, &reads(&gs)).unwrap_err();
        assert!(e.to_string().contains("--resume"), "{e}");
        drop(create_run_dir(&run, true, &reads(&gs)).unwrap());
        let left: Vec<String> = std::fs::read_dir(&run)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != LOCK)
            .collect();
        let mut left = left;
        left.sort();
        assert_eq!(left, [crate::paths::WRITTEN, "best.yaml.tmp", "mine", "notes.txt", "space-shuttle.svg"]);
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn the_gold_set_and_the_working_directory_are_never_a_run_folder() {
        let base = tmp("gs");
        let gs = base.join("gs");
        std::fs::create_dir_all(gs.join("news")).unwrap();
        std::fs::write(gs.join("news/1.txt"), "gold").unwrap();
        for out in [gs.clone(), gs.join("news"), base.clone(), gs.join("run")] {
            let e = create_run_dir(&out, true, &reads(&gs)).unwrap_err();
            assert!(e.to_string().contains("overlaps the gold set"), "{out:?}: {e}");
        }
        assert!(create_run_dir(Path::new("."), true, &reads(&gs)).is_err());
        assert!(gs.join("news/1.txt").exists());
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_locked_run_folder_is_refused_naming_the_pid() {
        let base = tmp("lock");
        let run = base.join("run");
        let held = create_run_dir(&run, false, &reads(&base.join("gs"))).unwrap();
        std::fs::write(run.join("run.yaml"), "x").unwrap();
        let e = create_run_dir(&run, true, &reads(&base.join("gs"))).unwrap_err();
        assert!(e.to_string().contains(&format!("in use by process {}", std::process::id())), "{e}");
        assert!(run.join("run.yaml").exists());
        drop(held);
        drop(RunLock::acquire(&run).unwrap());
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_run_killed_before_its_run_yaml_is_replaced_with_force_and_a_user_folder_is_not() {
        let base = tmp("started");
        let run = base.join("run");
        // The start of a run: its lock and list, then a kill before run.yaml.
        drop(create_run_dir(&run, false, &reads(&base.join("gs"))).unwrap());
        assert!(run.join(LOCK).exists() && !run.join("run.yaml").exists());
        let e = create_run_dir(&run, false, &reads(&base.join("gs"))).unwrap_err();
        assert!(e.to_string().contains("stopped before it wrote run.yaml") && e.to_string().contains("--force"), "{e}");
        drop(create_run_dir(&run, true, &reads(&base.join("gs"))).unwrap());
        // A folder of the user's (no lock, no run.yaml) is still refused, with --force too.
        let mine = base.join("mine");
        std::fs::create_dir_all(&mine).unwrap();
        std::fs::write(mine.join("notes.txt"), "mine").unwrap();
        let e = create_run_dir(&mine, true, &reads(&base.join("gs"))).unwrap_err();
        assert!(e.to_string().contains("not a cetune run folder"), "{e}");
        assert!(mine.join("notes.txt").exists());
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn default_names_never_collide() {
        let base = tmp("unique");
        let a = unique_dir(&base.join("accb-20260101-000000")).unwrap();
        let b = unique_dir(&base.join("accb-20260101-000000")).unwrap();
        assert_ne!(a, b);
        assert!(b.to_string_lossy().ends_with("-2"));
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn results_folders_need_force_and_never_overlap_the_gold_set() {
        let base = tmp("out");
        let gs = base.join("gs");
        std::fs::create_dir_all(&gs).unwrap();
        let e = prepare_out(&gs, true, &reads(&gs)).unwrap_err();
        assert!(e.to_string().contains("overlaps the gold set"), "{e}");
        let out = base.join("out");
        prepare_out(&out, false, &reads(&gs)).unwrap();
        std::fs::write(out.join("summary.md"), "x").unwrap();
        let e = prepare_out(&out, false, &reads(&gs)).unwrap_err();
        assert!(e.to_string().contains("use --force"), "{e}");
        prepare_out(&out, true, &reads(&gs)).unwrap();
        std::fs::remove_dir_all(&base).unwrap();
    }
}
