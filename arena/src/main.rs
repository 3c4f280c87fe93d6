//! The `arena` binary: a thin shell over the `arena` library
//! (crates/arena-core) and the server's (crates/arena-server). A worker
//! process answers the protocol; otherwise `cli` parses the command line
//! and runs the command.

use std::{io::IsTerminal, process::ExitCode};

use clap::Parser;

mod cli;

fn main() -> ExitCode {
    // A worker process: answer the protocol, nothing else (no CLI, no logs).
    let mut args: Vec<String> = std::env::args().collect();
    // A worker's limits first, before anything of the player's runs.
    if let Err(why) = arena_core::players::isolation::process_limits::enter(&mut args) {
        eprintln!("arena worker: {why}");
        return ExitCode::from(3);
    }
    if args.get(1).map(String::as_str) == Some(arena_core::players::worker::WORKER_ARG) {
        return arena_core::players::worker::main(&args[2..]);
    }
    if args.get(1).map(String::as_str) == Some(arena_core::sandbox::SANDBOX_ARG) {
        return arena_core::sandbox::main(&args[2..]);
    }
    // `arena measure server --watchers N`'s watchers, apart from the server.
    if args.get(1).map(String::as_str) == Some(arena_server::bench::watchers::WATCHERS_ARG) {
        return arena_server::bench::watchers::main();
    }
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        // A value an option's parser refused says all in its first line,
        // one line as the arena's own errors are; clap would add a blank
        // line and a pointer to --help.
        Err(error) if error.kind() == clap::error::ErrorKind::ValueValidation => {
            let text = error.render().to_string();
            eprintln!("{}", text.lines().next().unwrap_or_default());
            return ExitCode::from(2);
        }
        Err(error) => error.exit(),
    };
    init_logs(cli.verbose, cli.log_format);
    let result = cli::run(cli);
    // Workers' cgroups whose last process was still going when they ended.
    arena_core::sandbox::cleanup();
    match result {
        Ok(code) => code,
        Err(error) => {
            // An error may quote a file's or a player's words.
            eprintln!("error: {}", arena_core::report::plain::plain_text(&format!("{error:#}")));
            ExitCode::from(2)
        }
    }
}

/// Logs go to stderr; `RUST_LOG` decides, else `--verbose` (info) or
/// warnings only, and the server's work (a line when a grading, a
/// scrimmage, a league round or a finalize starts and ends: `work_log`).
fn init_logs(verbose: bool, format: cli::LogFormat) {
    let default = match verbose {
        true => "info".to_string(),
        // The verifier of `arena submit`'s HTTPS logs what the command says.
        false => format!("warn,{}=info,rustls_platform_verifier=off", arena_server::work::work_log::TARGET),
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let logs = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match format {
        cli::LogFormat::Json => logs.json().init(),
        cli::LogFormat::Text => logs.with_ansi(std::io::stderr().is_terminal()).without_time().init(),
    }
}
