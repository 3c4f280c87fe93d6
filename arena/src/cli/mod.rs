//! The command line: what each command takes (clap) and where it goes.
//! Commands with more than a few lines have a file of their own.

use std::{path::PathBuf, process::ExitCode, time::Duration};

use anyhow::Result;
use arena_core::{players::check, players::scaffold, players::PlayerSpec};
use clap::{Parser, Subcommand};

mod analyse;
mod bench;
mod grade;
mod gradescope;
mod interrupt;
mod measure;
mod options;
mod play;
mod replay;
mod serve;
mod slurm;
mod sprt;
mod submit;
mod tournament;
mod tune;

use options::Limits;

/// `arena --version`: the version and the commit built (build.rs), so a
/// student's or a server's binary says which it is.
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("ARENA_COMMIT"), ")");

/// Referee games between bots: student player libraries and the built-in
/// reference levels (easy, medium, hard).
#[derive(Parser)]
#[command(name = "arena", version = VERSION, about, long_about = None)]
pub(crate) struct Cli {
    /// Show more: what players print, per-game details (same as RUST_LOG=info).
    #[arg(short, long, global = true)]
    pub(crate) verbose: bool,
    /// How log lines are written to stderr: text, or json (one object a
    /// line, with a timestamp and the event's fields: what a log collector
    /// reads; `arena serve --log-format json`).
    #[arg(long, global = true, value_enum, default_value_t = LogFormat::Text)]
    pub(crate) log_format: LogFormat,
    #[command(subcommand)]
    command: Command,
}

/// How log lines are written (`--log-format`).
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LogFormat {
    Text,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Play games between players (or one player's series of worlds)
    ///
    /// A player is a built-in bot (easy, medium, hard, expert), the path of a
    /// player library (.so), or human: you, typing at the terminal (answers
    /// are checked and asked again until legal; 'help', 'resign', 'quit';
    /// docs/playing.md). Trap and Hexapawn take two players: seats
    /// alternate game by game, and games come in pairs on the same seed with
    /// the seats swapped. Intuitive AI, Wumpus World and Magic Forest take
    /// one: game K is played on the world of seed K of the series.
    ///
    /// Example: arena play --game trap target/release/libmy_bot.so hard --games 10
    ///
    /// Example: arena play --game wumpus hard --games 1000 --seed 1 --preset aima
    ///
    /// Example: arena play human hard
    Play(play::PlayArgs),
    /// Measure a player against the levels, or against another version (sprt)
    ///
    /// Against the reference levels: score with a 95% interval against
    /// Easy, Medium and Hard, the would-be grade, and the lost games with
    /// the command that replays each. For a single-player game: its mean
    /// score next to each level's on the same worlds. `arena bench sprt NEW
    /// OLD`: is NEW stronger than OLD (a sequential test; docs/sprt.md).
    ///
    /// Example: arena bench target/release/libmy_bot.so --games 50
    ///
    /// Example: arena bench --game intuitive-ai target/release/libmy_bot.so --games 1000
    ///
    /// Example: arena bench sprt target/release/libmy_bot.so old/libmy_bot.so --time-per-turn 100ms
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Bench(Box<bench::Bench>),
    /// Is NEW stronger than OLD? (`arena bench sprt`, its old name.)
    ///
    /// A sequential probability ratio test over
    /// seat-swapped game pairs on shared seeds: after each pair, the
    /// log-likelihood ratio of the pentanomial pair counts for H1 (NEW is
    /// at least --elo1 stronger) against H0 (at most --elo0) is checked
    /// against its bounds, ln(beta/(1-alpha)) and ln((1-beta)/alpha). It
    /// stops at a bound (H1 or H0 accepted) or at --max-games
    /// (inconclusive); Ctrl-C prints where it stands. Elo is logistic
    /// unless --elo-model normalized. Two-player games only
    /// (docs/sprt.md).
    ///
    /// Example: arena bench sprt target/release/libmy_bot.so old/libmy_bot.so --time-per-turn 100ms
    #[command(hide = true)]
    Sprt(sprt::SprtArgs),
    /// Check a player: load it, say what it is, smoke-test every game it plays
    ///
    /// Loads the player, reports its name and the games it plays, and plays
    /// each of them once (against Easy, or two worlds alone): the games the
    /// server's check plays, on the CPU clock by default as the server and
    /// the course charge (--clock wall to time the wall). It fails only a
    /// player that cannot play: no legal move in a game's smoke games; a
    /// fault after legal moves is a warning (that game is lost, graded or not).
    #[command(mut_arg("clock", |clock| clock.default_value("cpu")))]
    Check {
        /// The player: a library (.so), python:PATH (a course folder or a .py
        /// file) or cmd:COMMAND.
        player: PlayerSpec,
        /// Only list the parameters the player declares (name, type,
        /// default, range: what --param can set), playing no game.
        #[arg(long)]
        params: bool,
        #[command(flatten)]
        limits: Limits,
        #[command(flatten)]
        options: options::GameArgs,
    },
    /// Create a new player from the template: a Rust crate, or a Python folder
    ///
    /// A Rust crate ready to build, with this arena's player-api written into
    /// it; or with --python a course-layout Python player (PlayerAI.py).
    New {
        /// The crate name (lowercase letters, digits, '-', '_').
        name: String,
        /// Where to create it.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
        /// A player-api folder to depend on (default: this arena's own,
        /// written into the new crate, so it builds anywhere).
        #[arg(long)]
        api_path: Option<PathBuf>,
        /// Write a Python player in the course's layout (a folder with
        /// PlayerAI.py) instead of a Rust crate.
        #[arg(long, conflicts_with = "api_path")]
        python: bool,
    },
    /// Find better values of a player's parameters: SPSA, here or on Slurm
    ///
    /// Each iteration plays seat-swapped game pairs on shared seeds between
    /// the player with its parameters nudged up and down at random (theta+c
    /// delta against theta-c delta; or each against --against OPPONENT) and
    /// moves the values by the result, with OpenBench's parameter lines and
    /// gain schedules. Prints the values as --param flags, then an SPRT of
    /// them against the start. --out DIR keeps a journal (run again to
    /// resume), trajectory.csv and trajectory.svg (docs/tuning.md).
    ///
    /// Example: arena tune hard --param 'move_lookahead, float, 0.5, 0, 3, 0.1, 0.002' --iterations 100 --tc 0.1s --out tune-hard
    ///
    /// Example: arena tune my_bot.so --param 'depth, int, 3, 1, 8, 1, 0.002' --against hard --slurm --workers 16 --out /shared/tune
    Tune(Box<tune::TuneArgs>),
    /// Run, resume, plan or report a tournament described in a TOML file
    ///
    /// Round robins, gauntlets, Swiss rounds, the course's grading and the
    /// duplicate format of single-player games; resumable, sharded, on
    /// Slurm (docs/tournaments.md).
    Tournament {
        #[command(subcommand)]
        action: TournamentAction,
    },
    /// Run the course's submissions server (and its staff commands)
    ///
    /// Students upload a player library and see it graded against Easy, Medium and Hard at once; a leaderboard shows
    /// every student's latest grade. The API is in docs/server.md. SIGTERM
    /// or Ctrl-C stops it gracefully (the requests under way finish; games
    /// under way are taken up at the next start). HTTPS, a reverse proxy,
    /// systemd: docs/deploy.md.
    ///
    /// Example: arena serve --data course-data --listen 127.0.0.1:8080
    ///
    /// Example: arena serve --listen 0.0.0.0:443 --tls-cert fullchain.pem --tls-key privkey.pem
    ///
    /// Example: arena serve add-student alice --data course-data
    Serve(Box<serve::ServeArgs>),
    /// Send a player to the course's server, and follow its grading
    ///
    /// A player library (or a Python player's folder), checked here first;
    /// with --wait, see it graded against the assignment's levels. --follow ID follows one sent
    /// before; `arena submit status` lists your group's submissions.
    ///
    /// Example: arena submit target/release/libmy_bot.so --server http://arena.example:8080 --token T --wait
    ///
    /// Example: arena submit --follow 12 --server http://arena.example:8080 --token T
    Submit(submit::SubmitArgs),
    /// Grade one submission by a course file, or build a Gradescope autograder
    ///
    /// Grades as the server grades (its levels, games, pass marks, time control and clock),
    /// on this machine: a verdict per level and the points. With
    /// --gradescope, inside a Gradescope autograder: writes results.json
    /// (a test per level, the score by the course's points, a
    /// leaderboard); a submission that cannot be graded gets 0 and the
    /// cause (docs/gradescope.md).
    ///
    /// Example: arena grade --course course.toml --assignment trap target/release/libmy_bot.so
    ///
    /// Example: arena grade --course course.toml --assignment trap my_player/ --gradescope --results out/results.json
    ///
    /// Example: arena grade autograder course.toml --assignment trap -o autograder.zip
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Grade(grade::Grade),
    /// Build a Gradescope autograder (`arena grade autograder`, its old name).
    ///
    /// Build the zip a Gradescope autograder is made from: setup.sh,
    /// run_autograder (which runs `arena grade --gradescope` on each
    /// submission), this arena binary, the course file, a secret for the
    /// grading seeds and the Python host of Python players
    /// (docs/gradescope.md).
    ///
    /// Example: arena grade autograder course.toml --assignment trap -o autograder.zip
    #[command(hide = true)]
    GradescopeAutograder(gradescope::AutograderArgs),
    /// Show a replay: in the terminal, as an HTML viewer, or verified
    ///
    /// Step through a replay file in the terminal, write an HTML viewer
    /// (--html), or verify it by re-simulation (--verify).
    ///
    /// Example: arena replay replays/game-1-easy-vs-hard.json --html game.html
    Replay(replay::ReplayArgs),
    /// Why a game was lost: every turn judged, marks, accuracy
    ///
    /// Judges every turn of each replay: the mover's win chance (Trap,
    /// Hexapawn) or expected score (Intuitive AI) before and after the
    /// action played, the best action and its value, and a mark when the
    /// drop is large (inaccuracy 0.1, mistake 0.2, blunder 0.3); then each
    /// player's accuracy (0-100) and a lost game's turning point
    /// (docs/analysis.md).
    ///
    /// Example: arena analyse replays/game-7-mine-vs-hard.json --html game7.html
    Analyse(analyse::AnalyseArgs),
    /// Measure the arena itself (not a player): engine, isolation, server, ...
    ///
    /// The rules engine, isolation,
    /// the protocol, the server under load, a tournament's overheads, the
    /// league's matchmaking, the SPRT's error rates (docs/benchmarks.md).
    /// Build with --release.
    ///
    /// Each was a command of its own, `arena bench-<what>` (bench-engine,
    /// bench-sprt, ...): those names still work.
    ///
    /// Example: arena measure engine --games 100000
    #[command(subcommand)]
    Measure(measure::Measure),
    // The old names of `arena measure`'s commands (`arena bench-engine`,
    // ...), hidden from --help.
    #[command(flatten)]
    OldName(measure::OldName),
    /// (`arena serve --executor slurm`'s league batch jobs: plays the games
    /// of a batch file, appending each to its games.jsonl.)
    #[command(name = "__league-batch", hide = true)]
    LeagueBatch { file: PathBuf },
}

#[derive(Subcommand)]
enum TournamentAction {
    /// Run a tournament, or resume it: games already in the output folder's
    /// journal are not played again. Writes standings (Markdown, CSV, JSON)
    /// and, for the grade format, grade reports into the output folder.
    ///
    /// Example: arena tournament run tournaments/demo.toml
    Run {
        /// The tournament file.
        file: PathBuf,
        /// Print the final standings as one JSON object on stdout (nothing else).
        #[arg(long)]
        json: bool,
        /// Games run at once (overrides the file's `concurrency`).
        #[arg(long)]
        concurrency: Option<usize>,
        /// Play only shard I of N (counted from 1) into its own journal,
        /// journal.shard-I-of-N.jsonl; no standings (see `tournament report`).
        #[arg(long, value_name = "I/N")]
        shard: Option<arena_core::tournament::shard::Shard>,
        #[command(flatten)]
        pass_env: options::PassEnv,
        /// Watch the games in a browser as they are played: serves the
        /// replay viewer on 127.0.0.1 at a free port (printed on stderr):
        /// the games in progress listed, pick one (docs/replays.md).
        #[arg(long)]
        live: bool,
        /// How long in all to wait for an overloaded machine: a game whose
        /// player the machine kept from a core past 20x its budget is not
        /// counted but postponed, and the run resumed after 10 s, 30 s,
        /// 1 m, ... within this time; then it stops (exit status 75), the
        /// journal keeping every game played. 0: do not wait.
        #[arg(long, value_name = "DURATION", default_value = "9m", value_parser = arena_core::report::units::parse_wait)]
        patience: std::time::Duration,
        /// Keep each player's memory across its pairings in this folder
        /// (overrides the file's `memory`; a store of at most 1 MiB each,
        /// as `arena play --memory`): a learner (menace) gets back at the
        /// start of each pairing what it handed back at the end of its
        /// last, run after run. Hexapawn; pairings then play one at a time.
        #[arg(long, value_name = "DIR", conflicts_with = "shard")]
        memory: Option<PathBuf>,
    },
    /// Standings from every journal in the output folder (a single run's,
    /// the shards'), without playing: lists the games still missing, if any.
    ///
    /// Example: arena tournament report tournaments/class-round-robin.toml
    Report {
        /// The tournament file.
        file: PathBuf,
        /// Print the final standings as one JSON object on stdout (nothing else).
        #[arg(long)]
        json: bool,
    },
    /// A tournament's size and CPU time at its budget (worst case, and
    /// expected from its journal or a short calibration), and how many
    /// shards to run it in.
    ///
    /// Example: arena tournament plan tournaments/class-round-robin.toml --within 12h --cpus-per-task 4
    Plan {
        /// The tournament file.
        file: PathBuf,
        /// Games played to measure, when no journal has any (0: none).
        #[arg(long, default_value_t = 8)]
        calibrate: usize,
        /// Wall time each shard should take.
        #[arg(long, default_value = "12h", value_parser = arena_core::tournament::plan::parse_wall_time)]
        within: Duration,
        /// CPUs per shard (games it plays at once).
        #[arg(long, default_value_t = 1)]
        cpus_per_task: usize,
    },
    /// Run a tournament on a Slurm cluster: writes a job array (one task per
    /// shard) and a merge job that writes the standings once the array is
    /// done, into the output folder's slurm/ (which every node must see).
    ///
    /// Example: arena tournament slurm tournaments/class-round-robin.toml --shards 20 --cpus-per-task 4 --time 12:00:00 --submit
    Slurm(slurm::SlurmArgs),
}

pub(crate) fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Bench(bench) => bench::run(*bench),
        Command::Play(args) => play::run(args),
        Command::Sprt(args) => sprt::run(args),
        Command::Serve(args) => serve::run(*args),
        Command::Submit(args) => submit::run(args),
        Command::Grade(grade) => grade::run(grade),
        Command::GradescopeAutograder(args) => gradescope::run(args),
        Command::Tune(args) => tune::run(*args),
        Command::Check { player, params: true, limits, .. } => {
            arena_core::outln!("{}", check::params(&player, limits.budgets(), limits.hosting()?)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { player, limits, options, .. } => {
            // Every game, each with the options it owns (the others' are
            // not errors here: a check plays every game).
            let budgets = limits.budgets();
            let games = arena_core::game::GameId::ALL
                .into_iter()
                .map(|game| {
                    arena_core::games::rules::GameRules::build(
                        game,
                        &arena_core::games::rules::owned_by(&options.options(), game),
                        budgets,
                    )
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| anyhow::anyhow!(e.flag_line()))?;
            let report = check::check(&player, &games, budgets, limits.hosting()?, check::SEED)?;
            arena_core::outln!("{}", report.text);
            Ok(if report.passed { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        Command::Replay(args) => replay::run(&args),
        Command::Analyse(args) => analyse::run(&args),
        Command::Measure(what) => measure::run(what),
        Command::OldName(old) => measure::run(old.into()),
        Command::LeagueBatch { file } => {
            arena_server::work::league::run_batch(&file)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Tournament {
            action: TournamentAction::Run { file, json, concurrency, shard, pass_env, live, patience, memory },
        } => {
            let overrides = tournament::Overrides { concurrency, pass_env: pass_env.names, memory };
            tournament::run(&file, json, shard, overrides, live, patience)
        }
        Command::Tournament { action: TournamentAction::Report { file, json } } => {
            tournament::report(&file, json)
        }
        Command::Tournament { action: TournamentAction::Plan { file, calibrate, within, cpus_per_task } } => {
            tournament::plan(&file, calibrate, within, cpus_per_task)
        }
        Command::Tournament { action: TournamentAction::Slurm(args) } => slurm::run(args),
        Command::New { name, dir, api_path, python } => {
            let arena = how_to_run_this_arena();
            if python {
                let root = scaffold::new_python_player(&dir, &name)?;
                let player = shlex::try_quote(&format!("python:{}", root.display()))
                    .map_or_else(|_| format!("python:{}", root.display()), |q| q.into_owned());
                arena_core::outln!("created {}", root.join("PlayerAI.py").display());
                arena_core::outln!("next (Python 3 with numpy: the arena carries its Python host):");
                arena_core::outln!("  {arena} check {player}");
                arena_core::outln!("  {arena} play --game trap {player} hard --games 10");
                return Ok(ExitCode::SUCCESS);
            }
            let api = api_path.map_or(scaffold::Api::Bundled, scaffold::Api::At);
            let root = scaffold::new_player(&dir, &name, &api)?;
            let lib = name.replace('-', "_");
            arena_core::outln!("created {}", root.display());
            arena_core::outln!("next:");
            arena_core::outln!("  cd {} && cargo build --release", root.display());
            arena_core::outln!("  {arena} check target/release/lib{lib}.so");
            arena_core::outln!("  {arena} play --game trap target/release/lib{lib}.so hard --games 10");
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// How a person runs the arena that is running: `arena` when that is what
/// the PATH finds, else its own path (a binary handed out, or
/// target/release/arena after the README's build), shell-quoted.
fn how_to_run_this_arena() -> String {
    let this = std::env::current_exe().and_then(|p| p.canonicalize()).ok();
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .find_map(|dir| {
            let candidate = dir.join("arena");
            candidate.is_file().then(|| candidate.canonicalize().ok()).flatten()
        });
    match this {
        Some(this) if on_path.as_ref() != Some(&this) => shlex::try_quote(&this.to_string_lossy())
            .map_or_else(|_| this.display().to_string(), |q| q.into_owned()),
        _ => "arena".to_string(),
    }
}
