//! The command line: what each command takes (clap) and where it goes.
//! Commands with more than a few lines have a file of their own.

use std::{path::PathBuf, process::ExitCode, time::Duration};

use anyhow::Result;
use arena::{check, isolation::WorkerLimits, players::PlayerSpec, scaffold};
use clap::{Parser, Subcommand};

mod bench;
mod interrupt;
mod options;
mod play;
mod serve;
mod slurm;
mod sprt;
mod submit;
mod tournament;

use options::Limits;

/// Referee games between bots: student player libraries and the built-in
/// reference levels (easy, medium, hard).
#[derive(Parser)]
#[command(name = "arena", version, about, long_about = None)]
pub(crate) struct Cli {
    /// Show more: what players print, per-game details (same as RUST_LOG=info).
    #[arg(short, long, global = true)]
    pub(crate) verbose: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play games and print the results.
    ///
    /// A player is a built-in bot (easy, medium, hard, expert) or the path of a
    /// player library (.so). Trap and Hexapawn take two players: seats
    /// alternate game by game, and games come in pairs on the same seed with
    /// the seats swapped. Intuitive AI, Wumpus World and Magic Forest take
    /// one: game K is played on the world of seed K of the series.
    ///
    /// Example: arena play --game trap target/release/libmy_bot.so hard --games 10
    /// Example: arena play --game wumpus hard --games 1000 --seed 1 --preset aima
    Play(play::PlayArgs),
    /// Measure a player against the reference levels: score with a 95%
    /// interval against Easy, Medium and Hard, the would-be grade, and the
    /// lost games with the command that replays each. For a single-player
    /// game: its mean score next to each level's on the same worlds.
    ///
    /// Example: arena bench target/release/libmy_bot.so --games 50
    /// Example: arena bench --game intuitive-ai target/release/libmy_bot.so --games 1000
    Bench(bench::BenchArgs),
    /// Is NEW stronger than OLD? A sequential probability ratio test over
    /// seat-swapped game pairs on shared seeds: after each pair, the
    /// log-likelihood ratio of the pentanomial pair counts for H1 (NEW is
    /// at least --elo1 stronger) against H0 (at most --elo0) is checked
    /// against its bounds, ln(beta/(1-alpha)) and ln((1-beta)/alpha). It
    /// stops at a bound (H1 or H0 accepted) or at --max-games
    /// (inconclusive); Ctrl-C prints where it stands. Elo is logistic
    /// unless --elo-model normalized. Two-player games only
    /// (docs/sprt.md).
    ///
    /// Example: arena sprt target/release/libmy_bot.so old/libmy_bot.so --time-per-turn 100ms
    /// Example: arena sprt hard medium --elo0 0 --elo1 50 --seed 1 --json
    Sprt(sprt::SprtArgs),
    /// Measure `arena sprt`'s test on simulated games between players of
    /// known Elo difference: how often it accepts H1 at elo0 (at most
    /// alpha) and H0 at elo1 (at most beta), and its mean games to a
    /// verdict, the pentanomial test beside the trinomial one
    /// (docs/benchmarks.md, "SPRT"). Build with --release.
    BenchSprt(sprt::BenchSprtArgs),
    /// Run the submissions server: students upload a player library and see
    /// it graded against Easy, Medium and Hard at once; a leaderboard shows
    /// every student's latest grade. The API is in docs/server.md.
    ///
    /// Example: arena serve --data course-data --listen 127.0.0.1:8080
    /// Example: arena serve add-student alice --data course-data
    Serve(Box<serve::ServeArgs>),
    /// Submit a player library to the course's server, and with --wait see
    /// it graded against Easy, Medium and Hard.
    ///
    /// Example: arena submit target/release/libmy_bot.so --server http://arena.example:8080 --token T --wait
    Submit(submit::SubmitArgs),
    /// (`arena serve --executor slurm`'s league batch jobs: plays the games
    /// of a batch file, appending each to its games.jsonl.)
    #[command(name = "__league-batch", hide = true)]
    LeagueBatch { file: PathBuf },
    /// Check a player: load it, report what it is, smoke-test every game
    /// it plays (against Easy, or two worlds alone).
    Check {
        /// The player: a library (.so), python:PATH (a course folder or a .py
        /// file) or cmd:COMMAND.
        player: PlayerSpec,
        #[command(flatten)]
        limits: Limits,
        #[command(flatten)]
        options: options::GameArgs,
    },
    /// Load the submissions server on loopback: many students submit at
    /// once while others poll the leaderboard; prints upload and page
    /// latencies (p50, p99) and submissions graded per minute
    /// (docs/benchmarks.md). Build with --release.
    BenchServer {
        /// The library every student submits (default: libeasy.so beside
        /// this arena binary).
        #[arg(long)]
        library: Option<PathBuf>,
        /// The class: students with a graded submission each, added before
        /// the server starts.
        #[arg(long, default_value_t = 150)]
        students: usize,
        /// League games stored among them before the server starts
        /// (synthetic results); the league goes on playing real ones.
        #[arg(long, default_value_t = 100_000)]
        league_games: usize,
        /// Students (of the class) who submit again at once.
        #[arg(long, default_value_t = 50)]
        submissions: usize,
        /// Open leaderboard pages, each polling every 2 s as the page does.
        #[arg(long, default_value_t = 100)]
        pages: usize,
        /// Measure for at least this many seconds.
        #[arg(long, default_value_t = 30)]
        seconds: u64,
        /// Submissions graded at once (default: as `arena serve`).
        #[arg(long, value_name = "N")]
        grading_slots: Option<usize>,
    },
    /// Measure what isolating players costs: request round trips in process
    /// and in a worker, isolated games per second, and a soak run whose
    /// memory, threads and descriptors must stay flat. Build with --release.
    BenchIsolation {
        /// Requests timed for the round trip.
        #[arg(long, default_value_t = 20_000)]
        requests: u32,
        /// Games for the throughput figure.
        #[arg(long, default_value_t = 3_000)]
        games: u32,
        /// Games for the soak run.
        #[arg(long, default_value_t = 10_000)]
        soak_games: u32,
        /// Games played at once (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Worker starts timed, sandboxed and not.
        #[arg(long, default_value_t = 200)]
        starts: u32,
        /// The sandbox of the workers measured (`off` is measured too, for comparison).
        #[arg(long, value_enum, default_value_t = arena::sandbox::Sandbox::On)]
        sandbox: arena::sandbox::Sandbox,
    },
    /// Measure what the protocol costs program players: turn round trips
    /// and start-up of each program, next to the arena's own worker (build
    /// with --release). Example: arena bench-program python:players/python/examples/native/first_legal.py
    BenchProgram {
        /// Program players: python:PATH or cmd:COMMAND.
        #[arg(required = true)]
        players: Vec<PlayerSpec>,
        /// Requests timed per player.
        #[arg(long, default_value_t = 10_000)]
        requests: u32,
    },
    /// Measure a tournament's overheads: a round robin of Easy bots run for
    /// real into a scratch folder (build with --release).
    BenchTournament {
        /// Players in the round robin.
        #[arg(long, default_value_t = 16)]
        players: usize,
        /// Games per pairing.
        #[arg(long, default_value_t = 2)]
        games_per_pairing: u32,
        /// Run every player in a worker process.
        #[arg(long)]
        isolated: bool,
        /// Games at once (default: one per core).
        #[arg(long)]
        concurrency: Option<usize>,
    },
    /// Measure the live league's matchmaking on a simulated class of
    /// players of known strength: how closely its ranking agrees with the
    /// full round robin's (Spearman) after each share of the round robin's
    /// games, next to random pairing, and how many games a newcomer needs
    /// until its rating is known within +-100 Elo (docs/benchmarks.md,
    /// "League matchmaking"). Build with --release.
    BenchMatchmaking {
        /// Students in the class.
        #[arg(long, default_value_t = 150)]
        students: usize,
        /// Games per pairing of the reference round robin.
        #[arg(long, default_value_t = 10)]
        games_per_pairing: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Classes simulated (each with its own strengths and games).
        #[arg(long, default_value_t = 5)]
        trials: usize,
        /// Pairs of games played at once.
        #[arg(long, default_value_t = 8)]
        in_flight: usize,
        /// Newcomers measured per trial.
        #[arg(long, default_value_t = 20)]
        newcomers: usize,
        /// The largest share of the round robin's games played, in percent
        /// (the checkpoints beyond it are left out).
        #[arg(long, default_value_t = 100.0)]
        up_to: f64,
        /// The policy's placement games (default: the league's).
        #[arg(long)]
        placement_games: Option<u32>,
        /// The policy's repeat scale (default: the league's).
        #[arg(long)]
        repeat_scale: Option<f64>,
        /// The policy's most pairs of one entrant in flight (default: the league's).
        #[arg(long)]
        max_pairs_in_flight: Option<usize>,
        /// The policy's least share of the mean games an entrant may fall to
        /// before it plays first (default: the league's).
        #[arg(long)]
        min_share_of_games: Option<f64>,
    },
    /// Show a replay file: step through it in the terminal, write an HTML
    /// viewer (--html), or verify it by re-simulation (--verify).
    ///
    /// Example: arena replay replays/game-1-easy-vs-hard.json --html game.html
    Replay(arena::replay::command::ReplayArgs),
    /// Measure the rules engine and the Expert search on one core: random
    /// games per second, Expert nodes per second and depth reached (build
    /// with --release; docs/benchmarks.md).
    BenchEngine {
        /// Random-vs-random games for the playout figure.
        #[arg(long, default_value_t = 1_000_000)]
        games: u64,
        /// Search times for Expert, comma-separated.
        #[arg(long, default_value = "0.1s,1s,5s", value_delimiter = ',', value_parser = arena::units::parse_duration)]
        search_times: Vec<Duration>,
    },
    /// Run tournaments described in TOML files (docs/tournaments.md).
    Tournament {
        #[command(subcommand)]
        action: TournamentAction,
    },
    /// Create a new player crate from the template, ready to build.
    New {
        /// The crate name (lowercase letters, digits, '-', '_').
        name: String,
        /// Where to create it.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
        /// The player-api folder to depend on (default: this arena's own).
        #[arg(long)]
        api_path: Option<PathBuf>,
    },
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
        shard: Option<arena::tournament::shard::Shard>,
        #[command(flatten)]
        pass_env: options::PassEnv,
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
        #[arg(long, default_value = "12h", value_parser = arena::tournament::plan::parse_wall_time)]
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
        Command::Bench(args) => bench::run(args),
        Command::Play(args) => play::run(args),
        Command::Sprt(args) => sprt::run(args),
        Command::BenchSprt(args) => sprt::bench(args),
        Command::Serve(args) => serve::run(*args),
        Command::Submit(args) => submit::run(args),
        Command::BenchServer {
            library,
            students,
            league_games,
            submissions,
            pages,
            seconds,
            grading_slots,
        } => {
            let library = match library {
                Some(path) => path,
                None => std::env::current_exe()?.with_file_name("libeasy.so"),
            };
            if submissions > students {
                anyhow::bail!("--submissions {submissions}: at most --students ({students}) can submit");
            }
            let load = arena::server_bench::Load {
                library,
                students,
                league_games,
                submissions,
                pages,
                seconds,
                grading_slots,
            };
            arena::outln!("{}", arena::server_bench::run(&load)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { player, limits, options } => {
            // Every game, each with the options it owns (the others' are
            // not errors here: a check plays every game).
            let budgets = limits.budgets();
            let games = arena::game::GameId::ALL
                .into_iter()
                .map(|game| {
                    arena::game_rules::GameRules::build(game, &options.options().owned_by(game), budgets)
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| anyhow::anyhow!(e.flag_line()))?;
            let report = check::check(&player, &games, budgets, limits.hosting()?, check::SEED)?;
            arena::outln!("{}", report.text);
            Ok(if report.passed { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        Command::BenchIsolation { requests, games, soak_games, threads, starts, sandbox } => {
            let threads =
                threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let limits = WorkerLimits { sandbox, ..WorkerLimits::new().map_err(anyhow::Error::msg)? };
            let config =
                arena::overhead::BenchConfig { requests, games, threads, soak_games, starts, limits };
            arena::outln!("{}", arena::overhead::run(&config).map_err(anyhow::Error::msg)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::BenchProgram { players, requests } => {
            let programs = players
                .into_iter()
                .map(|spec| match spec {
                    PlayerSpec::Program(program) => Ok(program),
                    other => {
                        Err(anyhow::anyhow!("{other} is not a program: name python:PATH or cmd:COMMAND"))
                    }
                })
                .collect::<Result<Vec<_>>>()?;
            let limits = WorkerLimits::new().map_err(anyhow::Error::msg)?;
            arena::outln!(
                "{}",
                arena::overhead::program(&programs, requests, &limits).map_err(anyhow::Error::msg)?
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::BenchTournament { players, games_per_pairing, isolated, concurrency } => {
            let concurrency =
                concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let text = arena::overhead::tournament(players, games_per_pairing, isolated, concurrency)
                .map_err(anyhow::Error::msg)?;
            arena::outln!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        Command::BenchMatchmaking {
            students,
            games_per_pairing,
            seed,
            trials,
            in_flight,
            newcomers,
            up_to,
            placement_games,
            repeat_scale,
            max_pairs_in_flight,
            min_share_of_games,
        } => {
            use arena::matchmaking::{simulation, Policy};
            let default = Policy::default();
            let policy = Policy {
                placement_games: placement_games.unwrap_or(default.placement_games),
                repeat_scale: repeat_scale.unwrap_or(default.repeat_scale),
                max_pairs_in_flight: max_pairs_in_flight.unwrap_or(default.max_pairs_in_flight),
                min_share_of_games: min_share_of_games.unwrap_or(default.min_share_of_games),
            };
            let mut config = simulation::Config {
                in_flight,
                newcomers,
                policy,
                ..simulation::Config::new(students, games_per_pairing, seed, trials)
            };
            config.checkpoints.retain(|&share| share * 100.0 <= up_to + 1e-9);
            arena::outln!("{}", simulation::run(&config));
            Ok(ExitCode::SUCCESS)
        }
        Command::Replay(args) => arena::replay::command::run(&args),
        Command::LeagueBatch { file } => {
            arena::server::league::run_batch(&file)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::BenchEngine { games, search_times } => {
            arena::outln!("{}", arena::benchmarked::engine(games, &search_times));
            Ok(ExitCode::SUCCESS)
        }
        Command::Tournament {
            action: TournamentAction::Run { file, json, concurrency, shard, pass_env },
        } => tournament::run(&file, json, concurrency, shard, pass_env.names),
        Command::Tournament { action: TournamentAction::Report { file, json } } => {
            tournament::report(&file, json)
        }
        Command::Tournament { action: TournamentAction::Plan { file, calibrate, within, cpus_per_task } } => {
            tournament::plan(&file, calibrate, within, cpus_per_task)
        }
        Command::Tournament { action: TournamentAction::Slurm(args) } => slurm::run(args),
        Command::New { name, dir, api_path } => {
            let api_path = api_path.unwrap_or_else(scaffold::default_api_path);
            let root = scaffold::new_player(&dir, &name, &api_path)?;
            let lib = name.replace('-', "_");
            arena::outln!("created {}", root.display());
            arena::outln!("next:");
            arena::outln!("  cd {} && cargo build --release", root.display());
            arena::outln!("  arena check target/release/lib{lib}.so");
            arena::outln!("  arena play --game trap target/release/lib{lib}.so hard --games 10");
            Ok(ExitCode::SUCCESS)
        }
    }
}
