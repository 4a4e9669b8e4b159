//! The `cetune` binary: parses the command line and hands it to the library.
use clap::Parser;

fn main() {
    let cli = cetune::cli::Cli::parse();
    if let Err(e) = cetune::cli::run(cli) {
        eprintln!("cetune: {e}");
        std::process::exit(e.exit_code());
    }
}
