//! The `cetune` binary: parses the command line and hands it to the library.
fn main() {
    quiet_on_broken_pipe();
    let cli = cetune::cli::parse();
    if let Err(e) = cetune::cli::run(cli) {
        eprintln!("cetune: {e}");
        std::process::exit(e.exit_code());
    }
}

/// `cetune extractors | head` closes the pipe early: Rust ignores SIGPIPE, so the next
/// `println!` panics with "failed printing to stdout: Broken pipe". A reader that stopped
/// reading is not an error of ours (ripgrep and the coreutils exit quietly too), so that one
/// panic ends the process with exit 0 and no message; every other panic is reported as before.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.starts_with("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}
