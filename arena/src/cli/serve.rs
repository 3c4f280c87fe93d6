//! `arena serve`: the submissions server (docs/server.md), and
//! `arena serve add-student` to give a student a token.

use std::{net::SocketAddr, path::PathBuf, process::ExitCode};

use anyhow::Result;
use arena_core::players::isolation::WorkerLimits;
use arena_server as server;

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
    #[arg(long, default_value = "64M", value_parser = arena_core::report::units::parse_size)]
    max_upload: u64,
    /// Uploads one student may start in an hour, accepted or refused
    /// (more get 429).
    #[arg(long, default_value_t = 30)]
    per_hour: u32,
    /// Submissions graded at once (default: the cores divided by
    /// --grading-concurrency).
    #[arg(long, value_name = "N")]
    grading_slots: Option<usize>,
    /// Games of one grading played at once (the same games at any).
    #[arg(long, value_name = "N", default_value_t = 1)]
    grading_concurrency: usize,
    /// Games the server plays at once, all kinds together: grading first,
    /// then scrimmages, the class tournament (finalize from the staff
    /// page), the league last. Each game runs on a core of its own
    /// (default: one per core of the machine).
    #[arg(long, value_name = "N")]
    cores: Option<usize>,
    /// The nice value the server's games (their players' workers) run at:
    /// 0 gives them a fair share of a machine shared with other work (a
    /// busy loop of another user's gets no more than a game); 1-19 gives
    /// way to it, -20 to -1 (as root) takes more. docs/server.md, "Fair
    /// verdicts on a shared machine".
    #[arg(long, value_name = "N", default_value_t = 0, allow_hyphen_values = true,
          value_parser = clap::value_parser!(i32).range(-20..=19))]
    games_nice: i32,
    /// The nice value of the threads that answer requests. At 0, the
    /// default, pages answer within tens of milliseconds beside busy loops
    /// (docs/benchmarks.md); below 0 they run above the games, which needs
    /// root or the systemd unit's `LimitNICE=` (without it, pages stay at
    /// the server's priority and a line says so).
    #[arg(long, value_name = "N", default_value_t = 0, allow_hyphen_values = true,
          value_parser = clap::value_parser!(i32).range(-20..=19))]
    pages_nice: i32,
    /// Whether a student's newer waiting submission supersedes their older
    /// waiting ones (only the newest is graded; the others show
    /// `superseded`). The queue takes students in turn either way.
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    supersede: String,
    /// How long a client may take to send a request's headers (also how
    /// long an idle connection stays open): 30s, 2m, ...
    #[arg(long, default_value = "30s", value_parser = arena_core::report::units::parse_duration)]
    header_timeout: std::time::Duration,
    /// How long a client may take to send a request's body (an upload).
    #[arg(long, default_value = "5m", value_parser = arena_core::report::units::parse_duration)]
    body_timeout: std::time::Duration,
    /// Connections open at once (fewer if the process may open fewer files);
    /// more wait until one ends.
    #[arg(long, default_value_t = 1024)]
    max_connections: usize,
    /// Cut a connection that takes none of what it is sent for this long
    /// (a live game's page that stopped reading): 60s, 2m, ...
    #[arg(long, default_value = "60s", value_parser = arena_core::report::units::parse_duration)]
    stall_timeout: std::time::Duration,
    /// Live feeds (a watched game's stream) one client address, or one
    /// token, may hold open at once; all together at most half of
    /// --max-connections, the rest kept for pages and uploads. A feed past
    /// it is refused (429).
    #[arg(long, value_name = "N", default_value_t = 4)]
    streams_per_client: usize,
    /// Serve HTTPS with this certificate: a PEM file of the server's
    /// certificate and its chain (certbot's fullchain.pem; a self-signed
    /// one for a test, which `arena submit --ca` then trusts). With
    /// --tls-key. docs/deploy.md.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The certificate's private key: a PEM file (certbot's privkey.pem).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// The server is reached through a reverse proxy (nginx, Caddy) on
    /// this machine: a request's client, in the logs, is the address the
    /// proxy puts last in `X-Forwarded-For`. Without it the header is
    /// ignored (anyone may send one). Listen on 127.0.0.1 then, so that
    /// nothing reaches the server but through the proxy.
    #[arg(long)]
    trust_proxy: bool,
    /// Without a course file: the one game submissions play, graded
    /// against Easy, Medium and Hard with the course file's defaults (Trap:
    /// the course's own project, 10 games a level, 6, 4 and 2 wins).
    #[arg(long, value_enum, conflicts_with = "course")]
    game: Option<arena_core::game::GameId>,
    /// The course file (docs/server.md, "The course file"): its
    /// assignments (any of the games, each graded as it says), their
    /// deadlines and points policies. Checked at start and kept in the
    /// data folder: later commands on it (`deadline`, `finalize`, a
    /// restart) use it unless given another. Default: the one the data
    /// folder was last served with, else the course's own Trap project.
    #[arg(long, value_name = "FILE")]
    course: Option<PathBuf>,
    /// Whether the current submissions play a round robin (shown on the
    /// leaderboard) whenever nothing waits to be graded.
    #[arg(long, default_value = "on", value_parser = ["on", "off"])]
    round_robin: String,
    /// How long a scrimmage may take: its games at N turns each, at the
    /// assignment's time per turn (plus one start-up). Past it, the game
    /// under way ends and the scrimmage is cut: the games played count.
    #[arg(long, value_name = "N", default_value_t = server::work::scrimmage::TURNS_PER_GAME)]
    scrimmage_turns: u32,
    /// After a grade is out, the games it lost are analysed (their turning
    /// points on the student's page, the advantage chart in their viewers:
    /// docs/analysis.md) at N positions per turn, on the cores games leave
    /// idle; 0: not analysed.
    #[arg(long, value_name = "N", default_value_t = arena_core::analysis::Budget::default().nodes)]
    analysis_nodes: u64,
    #[command(flatten)]
    pass_env: super::options::PassEnv,
    /// Where grading runs (and finalize's round robin, started from the
    /// staff page) play their games: `local` (here) or `slurm` (each
    /// run a batch job on a Slurm cluster, submitted with sbatch from this
    /// machine, which must be one of the cluster's: a login node). With
    /// slurm the data folder must be on a file system every node sees (the
    /// jobs read the players and write the journals there); the checks
    /// (smoke games against Easy) stay here; --grading-slots is how many
    /// jobs the server keeps in the cluster at once. docs/server.md,
    /// "Grading on a Slurm cluster".
    #[arg(long, value_enum, default_value_t = ExecutorName::Local)]
    executor: ExecutorName,
    /// For --executor slurm: each grading job's resources.
    #[command(flatten)]
    job: super::slurm::JobArgs,
}

/// `--executor`'s choices.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ExecutorName {
    Local,
    Slurm,
}

#[derive(clap::Subcommand)]
enum ServeAction {
    /// Add a student and print their token (shown once: it is stored
    /// hashed). The student sends it as `Authorization: Bearer TOKEN`.
    ///
    /// Example: arena serve add-student alice --data course-data
    AddStudent {
        /// The student's name, as the leaderboard shows it.
        #[arg(required_unless_present = "roster")]
        name: Option<String>,
        /// Add every student of a roster instead: a text or CSV file, one
        /// student a line, the name first; prints `name,token` lines. With
        /// a header line naming a `group` column (`name,group`), students
        /// with the same group are one group, named by its members' names
        /// joined by `_`; else each is a group of one. A `full name`
        /// column in the header gives each student's full name (the
        /// gradebook exports show it).
        #[arg(long, value_name = "FILE", conflicts_with = "name")]
        roster: Option<PathBuf>,
        /// The data folder of the server.
        #[arg(long, default_value = "arena-data")]
        data: PathBuf,
        /// A member of staff, not a student: their submissions are for
        /// testing (graded, seen by them only), off the leaderboard, the
        /// league, scrimmages and `finalize`, unless --compete.
        #[arg(long)]
        staff: bool,
        /// With --staff: their submissions compete as a student's do (a
        /// reference player the class plays against, say).
        #[arg(long, requires = "staff")]
        compete: bool,
    },
    /// Add a group (the course's projects are by groups of 2 or 3): its
    /// members submit for it, and each sees its submissions. Prints a
    /// `member,token` line for each new member (a member who is a student
    /// already keeps their token: `member,-`). A student moves to another
    /// group only before either group has submitted.
    ///
    /// Example: arena serve add-group --members tc1234,gd5678 --data course-data
    AddGroup {
        /// The group's name (default: its members' names joined by `_`,
        /// as the course names a group's folder: tc1234_gd5678).
        name: Option<String>,
        /// Its members, by name, comma-separated.
        #[arg(long, value_delimiter = ',', required = true)]
        members: Vec<String>,
        /// A group of staff members only competes too (else it is for
        /// testing, as a staff member alone is: see add-student --staff).
        #[arg(long)]
        compete: bool,
        #[arg(long, default_value = "arena-data")]
        data: PathBuf,
    },
    /// Give a student a new token, printed once (a lost or leaked token):
    /// their old one stops working at once, on a running server too. A
    /// removed student is let back in.
    ///
    /// Example: arena serve reset-token alice --data course-data
    ResetToken {
        /// The student's name.
        name: String,
        #[arg(long, default_value = "arena-data")]
        data: PathBuf,
    },
    /// Remove a student from the course (they dropped it): their token
    /// stops working at once, on a running server too. Their group keeps
    /// its submissions and grades; `reset-token` lets them back in.
    ///
    /// Example: arena serve remove-student alice --data course-data
    RemoveStudent {
        /// The student's name.
        name: String,
        #[arg(long, default_value = "arena-data")]
        data: PathBuf,
    },
    /// Write the data folder to one file (a .tar.gz), while the server
    /// runs: the database by SQLite's online backup (consistent whatever
    /// the server writes meanwhile) and every other file of the folder.
    ///
    /// Example: arena serve backup --data course-data --to course-2026-12-01.tar.gz
    Backup {
        #[arg(long, default_value = "arena-data")]
        data: PathBuf,
        /// The backup file to write (it appears whole or not at all).
        #[arg(long, value_name = "FILE")]
        to: PathBuf,
    },
    /// Unpack a backup into a new data folder, to serve it: what was under
    /// way (gradings, scrimmages, the league) is taken up as after a crash,
    /// nothing played twice.
    ///
    /// Example: arena serve restore --from course-2026-12-01.tar.gz --data restored
    Restore {
        /// The backup `arena serve backup` wrote.
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
        /// The folder to create (it must not exist, or be empty).
        #[arg(long)]
        data: PathBuf,
    },
    /// Set an assignment's deadline (UTC): later submissions are graded,
    /// but the leaderboard and `finalize` ignore them.
    ///
    /// Example: arena serve deadline "2026-12-01 23:59" --data course-data
    Deadline {
        /// `YYYY-MM-DD HH:MM`, UTC.
        when: String,
        #[command(flatten)]
        of: AssignmentOf,
    },
    /// Grade again each group's latest finished submission of an
    /// assignment: those graded under other settings than its own now
    /// (`--changed`, as the server says at start), or all of them
    /// (`--all`). They go back in the grading queue (taken fairly, as new
    /// ones are) and a running server grades them; their earlier grading
    /// runs are kept beside the new ones.
    ///
    /// Example: arena serve regrade --data course-data --assignment trap --changed
    Regrade {
        #[command(flatten)]
        of: AssignmentOf,
        /// Every group's latest finished submission.
        #[arg(long, conflicts_with = "changed", required_unless_present = "changed")]
        all: bool,
        /// Only those graded under other settings.
        #[arg(long)]
        changed: bool,
    },
    /// An assignment's final results from each group's latest graded
    /// submission before its deadline: its grade as it was made (with the
    /// budget and clock it was made under), the class tournament (a round
    /// robin; a single-player game: every group on the same worlds) in
    /// DATA/final/ASSIGNMENT (resumed if run again; played afresh in a
    /// folder of its own if the settings changed), its grades.csv, and
    /// DATA/final/gradebook.csv (a column per assignment finalized).
    Finalize {
        #[arg(long, default_value = "arena-data")]
        data: PathBuf,
        /// The course file whose points policy gives the points
        /// (docs/server.md, "The course file"); default: the one the data
        /// folder was served with, else the course's own Trap project (30,
        /// 30 and 25 points for passing Easy, Medium and Hard, 15 by the
        /// share of the groups a group defeats).
        #[arg(long, value_name = "FILE")]
        course: Option<PathBuf>,
        /// Its assignment to finalize (default: its only one).
        #[arg(long, value_name = "NAME")]
        assignment: Option<String>,
        /// Games per pairing of the round robin (seat-swapped pairs;
        /// default: the assignment's, 10 for the course's Trap project).
        #[arg(long)]
        games_per_pairing: Option<u32>,
        /// Where the round robin's games are played: `local` (here) or
        /// `slurm` (sharded as `arena tournament slurm` does: a job array
        /// and a merge job, submitted from this machine, which must be one
        /// of the cluster's; the data folder must be on a file system every
        /// node sees).
        #[arg(long, value_enum, default_value_t = ExecutorName::Local)]
        executor: ExecutorName,
        /// For --executor slurm: the round robin's shards (array tasks);
        /// default: one per student.
        #[arg(long, value_name = "N")]
        shards: Option<usize>,
        /// For --executor slurm: each shard's resources.
        #[command(flatten)]
        job: super::slurm::JobArgs,
        /// Games played here at once (default: one per core). A server on
        /// the same data folder holds its league while this runs, but its
        /// grading and scrimmages go on: leave them cores (e.g. --cores 1).
        #[arg(long, value_name = "N")]
        cores: Option<usize>,
    },
    /// The points `finalize` gave (every assignment finalized, a row per
    /// student, staff left out) in the layout a gradebook imports:
    /// `canvas` (Student, ID, SIS User ID, SIS Login ID, Section, a
    /// column per assignment titled `Title (name)`, a Points Possible row;
    /// the student's name on the server is their SIS Login ID), `moodle`
    /// (Username, a column per grade item), or `csv` (the arena's own
    /// gradebook.csv). A student whose group had no submission that counts
    /// has an empty cell, not 0. docs/server.md, "Grades into the
    /// gradebook", has each system's import steps.
    ///
    /// Example: arena serve export --data course-data --format canvas -o canvas.csv
    Export {
        #[arg(long, default_value = "arena-data")]
        data: PathBuf,
        /// canvas, moodle or csv.
        #[arg(long, value_name = "FORMAT")]
        format: String,
        /// The course file (default: the one the data folder was served
        /// with, else the course's own Trap project).
        #[arg(long, value_name = "FILE")]
        course: Option<PathBuf>,
        /// Where to write it (default: standard output).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Remove old grading runs' replays and their viewers, the bulk of the
    /// data folder: those of every finished submission but each group's
    /// --keep newest graded ones of an assignment (its current one always)
    /// and the one `finalize` takes (its newest graded before the
    /// deadline). Grades, journals and reports stay, and so do uploads and
    /// scrimmages; a submission still waiting or being graded is never
    /// touched, so it may run beside a server. Prints each run's replays
    /// removed and the bytes freed.
    ///
    /// Example: arena serve prune --data course-data --older-than 14 --dry-run
    Prune {
        #[arg(long, default_value = "arena-data")]
        data: PathBuf,
        /// Each group's newest graded submissions (of each assignment)
        /// whose replays are kept; at least 1, its current one.
        #[arg(long, value_name = "N", default_value_t = 1)]
        keep: usize,
        /// Only runs of submissions graded at least this many days ago
        /// (a fraction is fine: 0.5 is twelve hours).
        #[arg(long, value_name = "DAYS")]
        older_than: Option<f64>,
        /// Say what would be removed, and remove nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Pause the league (the matchmade games between current submissions),
    /// or let it play again. It plays when nothing waits to be graded, and
    /// is held while a class tournament runs unless resumed with
    /// --during-finalize. A running server follows within seconds.
    ///
    /// Example: arena serve league pause --data course-data
    League {
        #[arg(value_parser = ["pause", "resume"])]
        action: String,
        /// With resume: play even while a class tournament runs.
        #[arg(long)]
        during_finalize: bool,
        #[arg(long, default_value = "arena-data")]
        data: PathBuf,
    },
}

/// An assignment of the course a data folder is served with.
#[derive(clap::Args)]
struct AssignmentOf {
    #[arg(long, default_value = "arena-data")]
    data: PathBuf,
    /// The course file (default: the one the data folder was served
    /// with, else the course's own Trap project).
    #[arg(long, value_name = "FILE")]
    course: Option<PathBuf>,
    /// Its assignment (default: its only one).
    #[arg(long, value_name = "NAME")]
    assignment: Option<String>,
}

impl AssignmentOf {
    /// The course, the assignment, and the data folder's database (an older
    /// folder's results adopted by the course first).
    fn open(&self) -> Result<(server::course::Course, String, server::store::db::Connection)> {
        let (course, _) = server::course_of(&self.data, self.course.as_deref())?;
        let name = assignment_arg(&course, self.assignment.as_deref())?.name.clone();
        let db = server::store::db::open(&self.data)?;
        server::adopt(&self.data, &db, &course)?;
        Ok((course, name, db))
    }
}

pub(crate) fn run(args: ServeArgs) -> Result<ExitCode> {
    if let (None, ExecutorName::Local, Some(option)) = (&args.action, args.executor, args.job.first_given()) {
        anyhow::bail!(
            "{option} is for grading jobs on a Slurm cluster: add --executor slurm, or leave it out"
        );
    }
    match args.action {
        Some(ServeAction::AddStudent { name: Some(name), data, staff, compete, .. }) => {
            let token = server::course::accounts::add(&data, &name, staff, compete)?;
            arena_core::outln!("{token}");
            eprintln!(
                "added {} '{}' to {}; the token above is shown once: give it to them",
                if staff { "staff member" } else { "student" },
                name.trim(),
                data.display()
            );
        }
        Some(ServeAction::AddStudent { roster: Some(roster), data, staff, compete, .. }) => {
            let text = std::fs::read_to_string(&roster)
                .map_err(|e| anyhow::anyhow!("cannot read the roster {}: {e}", roster.display()))?;
            let mut added = 0;
            for group in roster_groups(&text) {
                let context =
                    |e: anyhow::Error| e.context(format!("{} ({added} added before it)", roster.display()));
                if group.len() == 1 {
                    let token =
                        server::course::accounts::add(&data, group[0], staff, compete).map_err(context)?;
                    arena_core::outln!("{},{token}", group[0]);
                } else {
                    let (_, tokens) =
                        server::course::accounts::add_group(&data, None, &group, compete).map_err(context)?;
                    for (member, token) in tokens {
                        arena_core::outln!("{member},{}", token.as_deref().unwrap_or("-"));
                    }
                }
                added += group.len();
            }
            for (name, full_name) in roster_full_names(&text) {
                server::course::accounts::set_full_name(&data, name, full_name)
                    .map_err(|e| e.context(format!("{}: {name}'s full name", roster.display())))?;
            }
            eprintln!(
                "added {added} from {}; the tokens above are shown once: give each theirs",
                roster.display()
            );
        }
        Some(ServeAction::AddStudent { .. }) => unreachable!("clap requires a name or a roster"),
        Some(ServeAction::AddGroup { name, members, compete, data }) => {
            let members: Vec<&str> = members.iter().map(String::as_str).collect();
            let (name, tokens) =
                server::course::accounts::add_group(&data, name.as_deref(), &members, compete)?;
            for (member, token) in &tokens {
                arena_core::outln!("{member},{}", token.as_deref().unwrap_or("-"));
            }
            eprintln!(
                "added group '{name}' of {} member(s) to {}; the tokens above are shown once: give each theirs",
                tokens.len(),
                data.display()
            );
        }
        Some(ServeAction::Backup { data, to }) => {
            let summary = server::store::backup::backup(&data, &to)?;
            for path in &summary.removed {
                eprintln!("removed {}, left by a backup that was killed", path.display());
            }
            eprintln!(
                "wrote {}: the database ({} submissions) and {} files ({})",
                to.display(),
                summary.submissions,
                summary.files,
                arena_core::report::units::bytes(summary.bytes)
            );
        }
        Some(ServeAction::Restore { from, data }) => {
            let summary = server::store::backup::restore(&from, &data)?;
            eprintln!(
                "restored {} into {}: {} submissions, {} files; serve it with `arena serve --data {}`",
                from.display(),
                data.display(),
                summary.submissions,
                summary.files,
                data.display()
            );
        }
        Some(ServeAction::ResetToken { name, data }) => {
            let token = server::course::accounts::reset_token(&data, &name)?;
            arena_core::outln!("{token}");
            eprintln!(
                "'{}' has a new token, above, shown once: give it to them (their old one no longer works)",
                name.trim()
            );
        }
        Some(ServeAction::RemoveStudent { name, data }) => {
            let name = name.trim();
            match server::course::accounts::remove(&data, name)? {
                true => eprintln!(
                    "removed '{name}': their token no longer works; their group keeps its submissions \
                     and grades (`arena serve reset-token {name}` lets them back in)"
                ),
                false => eprintln!("'{name}' was removed already"),
            }
        }
        Some(ServeAction::Deadline { when, of }) => {
            let (_, name, db) = of.open()?;
            let deadline = server::store::db::set_deadline(&db, &name, &when)?;
            arena_core::outln!(
                "{name}: deadline {deadline} UTC: later submissions are graded but do not count"
            );
        }
        Some(ServeAction::Regrade { of, all, .. }) => {
            let (course, name, db) = of.open()?;
            let assignment = course.assignment(&name).expect("the assignment just picked");
            let queued = server::work::regrade::regrade(&db, assignment, all)?;
            for graded in &queued {
                arena_core::outln!("{},{}", graded.id, graded.group);
            }
            eprintln!(
                "{}: {} submission(s) queued to be graded again (a running server grades them)",
                assignment.name,
                queued.len()
            );
        }
        Some(ServeAction::Export { data, format, course, output }) => {
            let format = server::course::export::Format::parse(&format)?;
            if !data.join(server::store::db::FILE).exists() {
                anyhow::bail!(
                    "{} holds no server's data (no {}): check --data",
                    data.display(),
                    server::store::db::FILE
                );
            }
            let (course, _) = server::course_of(&data, course.as_deref())?;
            let db = server::store::db::open(&data)?;
            server::adopt(&data, &db, &course)?;
            let text = server::course::export::export(&data, &db, &course, format)?;
            match output {
                Some(path) => {
                    std::fs::write(&path, &text)
                        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
                    eprintln!("wrote {}", path.display());
                }
                None => arena_core::out!("{text}"),
            }
        }
        Some(ServeAction::Prune { data, keep, older_than, dry_run }) => {
            if keep == 0 {
                anyhow::bail!(
                    "--keep 0: a group's current submission's replays are always kept; use 1 or more"
                );
            }
            if older_than.is_some_and(|days| !(days >= 0.0 && days.is_finite())) {
                anyhow::bail!("--older-than takes a number of days, 0 or more");
            }
            if !data.join(server::store::db::FILE).exists() {
                anyhow::bail!(
                    "{} holds no server's data (no {}): check --data",
                    data.display(),
                    server::store::db::FILE
                );
            }
            let db = server::store::db::open(&data)?;
            let options = server::store::storage::Prune { keep, older_than_days: older_than, dry_run };
            let pruned = server::store::storage::prune(&data, &db, options)?;
            for run in &pruned {
                arena_core::outln!(
                    "{}: {} file(s), {} (submission {}, group {})",
                    run.folder.display(),
                    run.files,
                    arena_core::report::units::bytes(run.bytes),
                    run.submission,
                    run.group
                );
            }
            let (files, bytes) = pruned.iter().fold((0, 0), |(f, b), run| (f + run.files, b + run.bytes));
            let done = if dry_run { "would remove" } else { "removed" };
            let freed = if dry_run { "would free" } else { "freed" };
            eprintln!(
                "{done} {files} file(s) of {} grading run(s); {freed} {}",
                pruned.len(),
                arena_core::report::units::bytes(bytes)
            );
        }
        Some(ServeAction::League { action, during_finalize, data }) => {
            use arena_core::play::cores::LeagueState;
            let state = match (action.as_str(), during_finalize) {
                ("pause", false) => LeagueState::Paused,
                ("resume", false) => LeagueState::Auto,
                ("resume", true) => LeagueState::Running,
                _ => anyhow::bail!("--during-finalize goes with resume"),
            };
            let db = server::store::db::open(&data)?;
            server::store::db::set_setting(&db, server::work::league::LEAGUE_SETTING, state.name())?;
            arena_core::outln!(
                "league: {}",
                match state {
                    LeagueState::Paused => "paused",
                    LeagueState::Auto => "playing (held while a class tournament runs)",
                    LeagueState::Running => "playing, even while a class tournament runs",
                }
            );
        }
        Some(ServeAction::Finalize {
            data,
            course,
            assignment,
            games_per_pairing,
            executor,
            shards,
            job,
            cores,
        }) => {
            let (course, _) = server::course_of(&data, course.as_deref())?;
            let assignment = assignment_arg(&course, assignment.as_deref())?;
            let executor = finalize_executor(executor, shards, job)?;
            // A pool of its own; a server on the folder holds its league meanwhile.
            arena_core::play::cores::Cores::new(cores.unwrap_or_else(arena_core::play::cores::of_machine))
                .install();
            arena_core::play::cores::set_priority(arena_core::play::cores::Priority::Final);
            let db = server::store::db::open(&data)?;
            server::store::db::set_setting(
                &db,
                server::work::league::FINALIZING_SETTING,
                &std::process::id().to_string(),
            )?;
            let finalized =
                server::work::finalize::finalize(&data, &course, assignment, games_per_pairing, &executor);
            server::store::db::set_setting(&db, server::work::league::FINALIZING_SETTING, "")?;
            let done = finalized?;
            let deadline =
                done.deadline.map_or("no deadline set".to_string(), |d| format!("deadline {d} UTC"));
            arena_core::outln!(
                "final results of {} group(s), {} student(s) ({deadline}); written:",
                done.groups,
                done.students
            );
            for path in done.written.iter().chain([&done.grades_csv, &done.gradebook_csv]) {
                arena_core::outln!("  {}", path.display());
            }
            if let Some(fresh) = &done.fresh {
                eprintln!("note: {fresh}");
            }
        }
        None => {
            let (course, course_text) = match args.game {
                Some(game) => (server::course::Course::of_game(game), None),
                None => server::course_of(&args.data, args.course.as_deref())?,
            };
            // The server makes its workers' limits itself, from the defaults.
            WorkerLimits::pass_by_default(args.pass_env.names.clone());
            server::serve(server::Options {
                course,
                course_text,
                executor: match args.executor {
                    ExecutorName::Local => server::work::executor::Executor::Local,
                    // Its jobs' workers get what the server's would.
                    ExecutorName::Slurm => server::work::executor::Executor::Slurm(
                        server::work::executor::SlurmExecutor::new(args.job.options()?, args.pass_env.names)?,
                    ),
                },
                data: args.data,
                listen: args.listen,
                max_upload: args.max_upload,
                per_hour: args.per_hour,
                grading: server::work::grader::GraderOptions {
                    slots: args.grading_slots.unwrap_or_else(|| {
                        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                        (cores / args.grading_concurrency.max(1)).max(1)
                    }),
                    concurrency: args.grading_concurrency.max(1),
                    supersede: args.supersede == "on",
                    round_robin: args.round_robin == "on",
                    scrimmage_turns: args.scrimmage_turns.max(1),
                    games_nice: args.games_nice,
                    analysis_nodes: args.analysis_nodes,
                },
                cores: args.cores.unwrap_or_else(arena_core::play::cores::of_machine).max(1),
                http: server::http::connections::Limits {
                    header_timeout: args.header_timeout,
                    body_timeout: args.body_timeout,
                    max_connections: args.max_connections,
                    stall_timeout: args.stall_timeout,
                    streams_per_client: args.streams_per_client,
                },
                tls: args.tls_cert.zip(args.tls_key),
                trust_proxy: args.trust_proxy,
                stop_on_signals: true,
                pages_nice: args.pages_nice,
            })?
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Where `serve finalize` plays the round robin: here, or on the Slurm
/// cluster in `shards` shards asking for `job` (told at once if sbatch
/// would refuse them).
fn finalize_executor(
    executor: ExecutorName,
    shards: Option<usize>,
    job: super::slurm::JobArgs,
) -> Result<server::work::executor::Executor> {
    use server::work::executor::{Executor, SlurmExecutor};
    match executor {
        ExecutorName::Local => match shards.map(|_| "--shards").or(job.first_given()) {
            Some(option) => anyhow::bail!(
                "{option} is for the round robin's jobs on a Slurm cluster: add --executor slurm, or leave it out"
            ),
            None => Ok(Executor::Local),
        },
        ExecutorName::Slurm => {
            if shards == Some(0) {
                anyhow::bail!("--shards 0 runs nothing: use 1 or more");
            }
            let slurm =
                SlurmExecutor { round_robin_shards: shards, ..SlurmExecutor::new(job.options()?, Vec::new())? };
            let executor = Executor::Slurm(slurm);
            executor.ready()?;
            Ok(executor)
        }
    }
}

/// The assignment `--assignment` names, or the course's only one.
fn assignment_arg<'a>(
    course: &'a server::course::Course,
    name: Option<&str>,
) -> Result<&'a server::course::Assignment> {
    course.pick(name).map_err(|why| match name {
        Some(name) => anyhow::anyhow!("--assignment {name}: {why}"),
        None => anyhow::anyhow!("{why}: add --assignment NAME"),
    })
}

/// A roster's field: trimmed, unquoted, None when empty.
fn roster_field(f: Option<&str>) -> Option<&str> {
    f.map(|f| f.trim().trim_matches('"').trim()).filter(|f| !f.is_empty())
}

/// The columns a roster's header line names: (the name's, the group's,
/// the full name's). None when its first line is no header: it names
/// neither a `group` nor a `full name` column.
fn roster_columns(text: &str) -> Option<(usize, Option<usize>, Option<usize>)> {
    let first = text.lines().find(|l| !l.trim().is_empty())?;
    let header: Vec<String> =
        first.split(',').map(|f| roster_field(Some(f)).unwrap_or("").to_ascii_lowercase()).collect();
    let group = header.iter().position(|h| h == "group");
    let full_name = header.iter().position(|h| ["full name", "full_name", "fullname"].contains(&h.as_str()));
    if group.is_none() && full_name.is_none() {
        return None;
    }
    let name = header
        .iter()
        .position(|h| ["name", "student", "id", "login", "username"].contains(&h.as_str()))
        .unwrap_or(0);
    Some((name, group, full_name))
}

/// A roster's lines but its header, split into fields.
fn roster_lines(text: &str) -> impl Iterator<Item = Vec<&str>> {
    let header = roster_columns(text).is_some();
    text.lines().filter(|l| !l.trim().is_empty()).skip(usize::from(header)).map(|l| l.split(',').collect())
}

/// A roster's students, by group: a line is a student, the name first. A
/// roster whose first line is a header naming a `group` column (and
/// perhaps a `name` column) groups its students: the lines with the same
/// group are one group, in the roster's order, and a line without one is a
/// group of one. Without such a header every student is a group of one
/// (rosters' other columns, an email or a section, group no one).
fn roster_groups(text: &str) -> Vec<Vec<&str>> {
    let (name_column, group_column, _) = roster_columns(text).unwrap_or((0, None, None));
    let mut groups: Vec<(Option<&str>, Vec<&str>)> = Vec::new();
    for fields in roster_lines(text) {
        let Some(name) = roster_field(fields.get(name_column).copied()) else { continue };
        match group_column.and_then(|c| roster_field(fields.get(c).copied())) {
            Some(key) => match groups.iter_mut().find(|(k, _)| *k == Some(key)) {
                Some((_, members)) => members.push(name),
                None => groups.push((Some(key), vec![name])),
            },
            None => groups.push((None, vec![name])),
        }
    }
    groups.into_iter().map(|(_, members)| members).collect()
}

/// A roster's students' full names, when its header names a `full name`
/// column: (name, full name) for each line that gives one. The gradebook
/// exports show them (`serve export`).
fn roster_full_names(text: &str) -> Vec<(&str, &str)> {
    let Some((name_column, _, Some(full_column))) = roster_columns(text) else { return Vec::new() };
    roster_lines(text)
        .filter_map(|fields| {
            let name = roster_field(fields.get(name_column).copied())?;
            Some((name, roster_field(fields.get(full_column).copied())?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_roster_groups_its_students_by_its_group_column() {
        let text = "Name,Email,Group\ntc1234,t@x,1\nalice,a@x\ngd5678,g@x, 1\n\"bob\",b@x,\"2\"\ncarol,c@x,\nxy1,,2\n";
        assert_eq!(
            super::roster_groups(text),
            [vec!["tc1234", "gd5678"], vec!["alice"], vec!["bob", "xy1"], vec!["carol"]]
        );
        // Without a header naming a group column: a group of one each, whatever the other columns.
        let text = "alice,section-A\nbob,section-A\n\ncarol\n";
        assert_eq!(super::roster_groups(text), [vec!["alice"], vec!["bob"], vec!["carol"]]);
        assert!(super::roster_full_names(text).is_empty());
    }

    #[test]
    fn a_roster_may_give_full_names() {
        // A full name column alone makes the first line a header; a line without one gives none.
        let text = "login,Full Name\nalice,Alice Liddell\nbob,\n";
        assert_eq!(super::roster_groups(text), [vec!["alice"], vec!["bob"]]);
        assert_eq!(super::roster_full_names(text), [("alice", "Alice Liddell")]);
        let text = "full_name,group,name\nAlice L,1,alice\nBob B,1,bob\n";
        assert_eq!(super::roster_groups(text), [vec!["alice", "bob"]]);
        assert_eq!(super::roster_full_names(text), [("alice", "Alice L"), ("bob", "Bob B")]);
    }
}
