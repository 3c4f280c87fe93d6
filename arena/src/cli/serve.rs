//! `arena serve`: the submissions server (docs/server.md), and
//! `arena serve add-student` to give a student a token.

use std::{net::SocketAddr, path::PathBuf, process::ExitCode};

use anyhow::Result;
use arena::server;

/// `arena serve`: the options (the help text is on `Command::Serve`).
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct ServeArgs {
    #[command(subcommand)]
    action: Option<ServeAction>,
    /// The data folder: the database, the uploaded files and the grading
    /// runs (created if missing).
    #[arg(long, default_value = "arena-data")]
    data: PathBuf,
    /// The address to listen on (port 0: any free port, printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// The largest upload accepted: 64M, 500K, ...
    #[arg(long, default_value = "64M", value_parser = arena::units::parse_size)]
    max_upload: u64,
    /// Submissions one student may make in an hour (more get 429).
    #[arg(long, default_value_t = 30)]
    per_hour: u32,
}

#[derive(clap::Subcommand)]
enum ServeAction {
    /// Add a student and print their token (shown once: it is stored
    /// hashed). The student sends it as `Authorization: Bearer TOKEN`.
    ///
    /// Example: arena serve add-student alice --data course-data
    AddStudent {
        /// The student's name, as the leaderboard shows it.
        name: String,
        /// The data folder of the server.
        #[arg(long, default_value = "arena-data")]
        data: PathBuf,
        /// A member of staff (the staff pages), not a student.
        #[arg(long)]
        staff: bool,
    },
}

pub(crate) fn run(args: ServeArgs) -> Result<ExitCode> {
    match args.action {
        Some(ServeAction::AddStudent { name, data, staff }) => {
            let token = server::accounts::add(&data, &name, staff)?;
            arena::outln!("{token}");
            eprintln!(
                "added {} '{}' to {}; the token above is shown once: give it to them",
                if staff { "staff member" } else { "student" },
                name.trim(),
                data.display()
            );
        }
        None => server::serve(server::Options {
            data: args.data,
            listen: args.listen,
            max_upload: args.max_upload,
            per_hour: args.per_hour,
        })?,
    }
    Ok(ExitCode::SUCCESS)
}
