//! `arena submit`: upload a player library to a course's `arena serve`,
//! and with `--wait`, follow it until it is graded.

use std::{path::PathBuf, process::ExitCode, time::Duration};

use anyhow::Result;
use arena_server::client::{describe, Client};

/// `arena submit`: the options (the help text is on `Command::Submit`).
#[derive(clap::Args)]
pub(crate) struct SubmitArgs {
    /// The player library (target/release/lib<name>.so), or a Python
    /// player's folder (a course folder with PlayerAI.py), sent packed.
    path: PathBuf,
    /// The server: http://HOST:PORT, as the course staff give it.
    #[arg(long, env = "ARENA_SERVER")]
    server: String,
    /// Your token (from the course staff).
    #[arg(long, env = "ARENA_TOKEN", hide_env_values = true)]
    token: String,
    /// Follow the submission until it is graded, and print the grade.
    #[arg(long)]
    wait: bool,
    /// The course's assignment it is for (needed when the server's course
    /// has several; default: its one); checked before the file is sent.
    #[arg(long, value_name = "NAME")]
    assignment: Option<String>,
}

pub(crate) fn run(args: SubmitArgs) -> Result<ExitCode> {
    let client = Client::new(&args.server, &args.token);
    let accepted = client.submit(&args.path, args.assignment.as_deref())?;
    let id = accepted["id"].as_i64().unwrap_or_default();
    arena::outln!("submission {id}: {}", describe(&accepted));
    if !args.wait {
        eprintln!("follow it with: arena submit ... --wait, or GET {}/api/submissions/{id}", args.server);
        return Ok(ExitCode::SUCCESS);
    }
    let mut shown = describe(&accepted);
    loop {
        std::thread::sleep(Duration::from_millis(500));
        let submission = client.submission(id)?;
        let now = describe(&submission);
        if now != shown {
            arena::outln!("submission {id}: {now}");
            shown = now;
        }
        match submission["status"].as_str() {
            Some("done") => return Ok(ExitCode::SUCCESS),
            Some("failed" | "superseded") => return Ok(ExitCode::from(1)),
            _ => {}
        }
    }
}
