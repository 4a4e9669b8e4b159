//! Wrappers as a trait: a family that learns per-site rules from a gold set can write them as
//! files a person can read and reuse (`cetune wrapper learn`) and apply such files to pages of
//! those sites (`extract --wrappers`). A family that does names its [`Wrappers`] in its row of
//! the family table ([`super::Family::wrappers`]); the command line calls the trait and never
//! names the family. Imports from the crate: `error`, `goldset`, `params` and `paths`.

use super::Extractor;
use crate::error::Result;
use crate::goldset::GoldSet;
use crate::params::Setting;
use std::path::{Path, PathBuf};

/// What `wrapper learn` wrote.
#[derive(Debug, Clone, Default)]
pub struct Learned {
    /// Per site: its name, pages read, rules per property (title, author, date, content).
    pub sites: Vec<(String, usize, [usize; 4])>,
    /// The files written.
    pub files: Vec<PathBuf>,
}

/// A family that learns per-site rules and reads and writes them as wrapper files.
pub trait Wrappers: Sync + std::fmt::Debug {
    /// Learns one wrapper file per site (package) of `set` with setting `s` (named `label` in
    /// the files) into `out`. `out` may not be, hold or lie in what the command reads (`reads`,
    /// the gold set besides); an existing non-empty `out` is written into only with `force`,
    /// and only when everything in it is what cetune wrote there.
    fn learn(
        &self,
        set: &GoldSet,
        s: &Setting,
        label: &str,
        out: &Path,
        force: bool,
        reads: &crate::paths::Reads,
    ) -> Result<Learned>;
    /// The extractor of `s` applying the wrapper files of `files` (a folder, or one file) to
    /// the pages of the sites they name.
    fn apply(&self, s: &Setting, files: &Path) -> Result<Box<dyn Extractor>>;
}
