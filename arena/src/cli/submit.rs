//! `arena submit`: upload a player library (or a Python player's folder)
//! to a course's `arena serve`, checked here first; with `--wait`, follow
//! it until it is graded. `--follow ID` follows one sent before, and
//! `arena submit status` lists the group's submissions.

use std::{path::PathBuf, process::ExitCode, time::Duration};

use anyhow::{bail, Result};
use arena_server::client::{describe, games_of, Client};

/// `arena submit`: the options (the help text is on `Command::Submit`).
#[derive(clap::Args)]
#[command(
    subcommand_negates_reqs = true,
    override_usage = "arena submit <PATH> [OPTIONS]\n       arena submit --follow <ID> [OPTIONS]\n       arena submit status [OPTIONS]"
)]
pub(crate) struct SubmitArgs {
    #[command(subcommand)]
    status: Option<Status>,
    /// The player library (target/release/lib<name>.so), or a Python
    /// player's folder (a course folder with PlayerAI.py, or one .py file),
    /// sent packed. Checked before it is sent: a library must be an ELF
    /// .so; a folder must hold a player, in at most 1000 files and 64 MiB;
    /// the player must play the assignment's game (loaded here, as
    /// `arena check` loads it, to ask).
    #[arg(required_unless_present = "follow", conflicts_with = "follow")]
    path: Option<PathBuf>,
    #[command(flatten)]
    server: ServerArgs,
    /// Follow the submission until it is graded, and print the grade.
    #[arg(long)]
    wait: bool,
    /// Send nothing: follow submission ID (one of your group's, as
    /// `arena submit status` lists them) until it is graded, and print its
    /// grade, as --wait does.
    #[arg(long, value_name = "ID")]
    follow: Option<i64>,
    /// The course's assignment it is for (needed when the server's course
    /// has several; default: its one); checked before the file is sent.
    #[arg(long, value_name = "NAME", conflicts_with = "follow")]
    assignment: Option<String>,
}

/// The server and the token, for every form of `arena submit` (both
/// needed: global options, which clap lets no one require).
#[derive(clap::Args)]
struct ServerArgs {
    /// The server: https://HOST (or http://HOST:PORT), as the course staff
    /// give it.
    #[arg(long, env = "ARENA_SERVER", global = true)]
    server: Option<String>,
    /// For an https:// server whose certificate the system does not trust
    /// (self-signed): the PEM file of the certificate (or its CA) to trust
    /// instead, as the course staff give it. Default: the system's roots.
    #[arg(long, value_name = "FILE", env = "ARENA_CA", global = true)]
    ca: Option<PathBuf>,
    /// Your token (from the course staff).
    #[arg(long, env = "ARENA_TOKEN", hide_env_values = true, global = true)]
    token: Option<String>,
}

impl ServerArgs {
    /// A client of the server with the token, or which is missing.
    fn client(&self) -> Result<Client> {
        let Some(server) = &self.server else {
            bail!("no server: give --server https://HOST (or http://HOST:PORT; or set ARENA_SERVER), as the course staff give it")
        };
        let Some(token) = &self.token else {
            bail!("no token: give --token TOKEN (or set ARENA_TOKEN), the one the course staff gave you")
        };
        match &self.ca {
            Some(ca) => Client::with_ca(server, token, ca),
            None => Ok(Client::new(server, token)),
        }
    }
}

#[derive(clap::Subcommand)]
enum Status {
    /// Your group's submissions, newest first: each one's id, assignment,
    /// file, when it was sent and its state; and the uploads left this hour.
    ///
    /// Example: arena submit status --server http://arena.example:8080 --token T
    Status,
}

pub(crate) fn run(args: SubmitArgs) -> Result<ExitCode> {
    if let Some(Status::Status) = &args.status {
        return status(&args.server);
    }
    let client = args.server.client()?;
    if let Some(id) = args.follow {
        let submission = client.submission(id)?;
        arena_core::outln!("submission {id}: {}", describe(&submission));
        return follow(&client, id, submission);
    }
    let Some(path) = &args.path else { bail!("name the player to send, or --follow ID") };
    // The player's games, asked of it here: none if it does not load here
    // (the server's check then says why).
    let games = |player: &std::path::Path| match games_of(player, Duration::from_secs(10)) {
        Ok(games) => Some(games),
        Err(why) => {
            let why = why.lines().next().unwrap_or_default().to_string();
            eprintln!("note: the player's game is not checked here, as it does not load here ({why}); the server will check it");
            None
        }
    };
    let accepted = client.submit_checked(path, args.assignment.as_deref(), &games)?;
    let id = accepted["id"].as_i64().unwrap_or_default();
    arena_core::outln!("submission {id}: {}", describe(&accepted));
    if !args.wait {
        eprintln!("follow it with: {}", follow_command(&args.server, id));
        return Ok(ExitCode::SUCCESS);
    }
    follow(&client, id, accepted)
}

/// The command that follows submission `id`: the server named as it was
/// given, the token left to the environment or to be added.
fn follow_command(server: &ServerArgs, id: i64) -> String {
    let url = server.server.as_deref().unwrap_or_default();
    let named = std::env::var("ARENA_SERVER").is_ok_and(|s| s == url);
    let server = if named { String::new() } else { format!(" --server {url}") };
    let token = if std::env::var("ARENA_TOKEN").is_ok() { "" } else { " --token T" };
    format!("arena submit --follow {id}{server}{token}")
}

/// Polls submission `id` (now `submission`) until it is graded, printing
/// each change; fails if it failed or was superseded.
fn follow(client: &Client, id: i64, submission: serde_json::Value) -> Result<ExitCode> {
    let mut shown = describe(&submission);
    let mut submission = submission;
    loop {
        match submission["status"].as_str() {
            Some("done") => return Ok(ExitCode::SUCCESS),
            Some("failed" | "superseded") => return Ok(ExitCode::from(1)),
            _ => {}
        }
        std::thread::sleep(Duration::from_millis(500));
        submission = client.submission(id)?;
        let now = describe(&submission);
        if now != shown {
            arena_core::outln!("submission {id}: {now}");
            shown = now;
        }
    }
}

/// `arena submit status`: the group's submissions, newest first.
fn status(server: &ServerArgs) -> Result<ExitCode> {
    let client = server.client()?;
    let mine = client.submissions()?;
    let group = mine["group"]["name"].as_str().unwrap_or("?");
    let submissions = mine["submissions"].as_array().cloned().unwrap_or_default();
    let uploads = &mine["uploads"];
    // The server gives the newest page (docs/server.md): say when there are more.
    let total = mine["total"].as_u64().unwrap_or(submissions.len() as u64);
    let shown = match total > submissions.len() as u64 {
        true => format!("{total} submissions, the newest {} shown", submissions.len()),
        false => format!("{total} submission(s), newest first"),
    };
    arena_core::outln!(
        "{} of group {group}: {shown}; {} of {} uploads left this hour",
        mine["student"].as_str().unwrap_or("?"),
        uploads["left"],
        uploads["per_hour"]
    );
    for s in &submissions {
        // A failure's first line (`--follow ID` prints it whole).
        let state = describe(s);
        arena_core::outln!(
            "{:>5}  {}  {}  {}{}  {}",
            s["id"].as_i64().unwrap_or_default(),
            s["created"].as_str().unwrap_or("?"),
            s["assignment"].as_str().unwrap_or("?"),
            s["file_name"].as_str().unwrap_or("?"),
            if s["late"].as_bool() == Some(true) { " (late: it does not count)" } else { "" },
            state.lines().next().unwrap_or_default()
        );
    }
    Ok(ExitCode::SUCCESS)
}
