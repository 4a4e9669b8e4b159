//! The progress bar (the only user of `indicatif`): drawn on stderr when it is a terminal,
//! silent with `--quiet` or when output is redirected. Without the `cli` feature (the Python
//! package's build) no bar is ever drawn: the same calls count nothing and draw nothing, and
//! [`Progress::eprintln`] still prints its line.

#[cfg(feature = "cli")]
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar that is never drawn: the library built without the `cli` feature.
#[cfg(not(feature = "cli"))]
#[derive(Clone)]
struct ProgressBar;

#[cfg(not(feature = "cli"))]
impl ProgressBar {
    fn inc(&self, _: u64) {}
    fn set_position(&self, _: u64) {}
    fn set_length(&self, _: u64) {}
    fn set_message(&self, _: String) {}
    fn println(&self, _: String) {}
    fn suspend(&self, f: impl FnOnce()) {
        f()
    }
    fn finish_and_clear(&self) {}
}

/// A progress bar handle; cheap to clone and to tick from rayon threads.
#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar counting to `len` with a label; hidden when `quiet`.
    #[cfg(feature = "cli")]
    pub fn new(len: u64, label: &str, quiet: bool) -> Progress {
        let bar = if quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
        };
        if let Ok(style) = ProgressStyle::with_template("{prefix:>10} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}")
        {
            bar.set_style(style);
        }
        bar.set_prefix(label.to_string());
        Progress { bar }
    }
    /// A counter without a known end (a streamed collection): items and a message (the caller
    /// puts the rate there); hidden when `quiet`.
    #[cfg(feature = "cli")]
    pub fn counter(label: &str, unit: &str, quiet: bool) -> Progress {
        let bar = if quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
        };
        let template = format!("{{prefix:>10}} [{{elapsed_precise}}] {{pos}} {unit}, {{msg}}");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style);
        }
        bar.set_prefix(label.to_string());
        Progress { bar }
    }
    /// A bar that is never drawn (built without the `cli` feature).
    #[cfg(not(feature = "cli"))]
    pub fn new(_len: u64, _label: &str, _quiet: bool) -> Progress {
        Progress { bar: ProgressBar }
    }
    /// A counter that is never drawn (built without the `cli` feature).
    #[cfg(not(feature = "cli"))]
    pub fn counter(_label: &str, _unit: &str, _quiet: bool) -> Progress {
        Progress { bar: ProgressBar }
    }
    /// Advances by one.
    pub fn inc(&self) {
        self.bar.inc(1);
    }
    /// Sets the position.
    pub fn set(&self, pos: u64) {
        self.bar.set_position(pos);
    }
    /// Sets the length.
    pub fn set_len(&self, len: u64) {
        self.bar.set_length(len);
    }
    /// Gives a counter its total once it is known (`unit` as in [`Progress::counter`]): it
    /// becomes a bar showing the total and the time left.
    pub fn set_total(&self, len: u64, unit: &str) {
        #[cfg(feature = "cli")]
        if let Ok(style) = ProgressStyle::with_template(&format!(
            "{{prefix:>10}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {unit}, {{msg}}, {{eta}} left"
        )) {
            self.bar.set_style(style);
        }
        #[cfg(not(feature = "cli"))]
        let _ = unit;
        self.bar.set_length(len);
    }
    /// Sets the message shown after the counter.
    pub fn message(&self, msg: String) {
        self.bar.set_message(msg);
    }
    /// Prints a line above the bar.
    pub fn println(&self, line: String) {
        self.bar.println(line);
    }
    /// Prints a line on standard error, above the bar when one is drawn (unlike
    /// [`Progress::println`], also when the bar is hidden).
    pub fn eprintln(&self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }
    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
