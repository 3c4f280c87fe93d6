//! `arena measure ...`: the commands that measure the arena itself (its
//! engine, isolation, the protocol, the server, tournaments, matchmaking,
//! the SPRT), not a player; results in docs/benchmarks.md. Each was once a
//! command of its own, `arena bench-<what>`: those names still work,
//! hidden from `arena --help` (`OldName`).

use std::{path::PathBuf, process::ExitCode, time::Duration};

use anyhow::Result;
use arena_core::{players::isolation::WorkerLimits, players::PlayerSpec};
use clap::Subcommand;

use super::sprt;

/// What `arena measure` measures. Each variant's help text is its options'
/// doc comment, shared with its old name.
#[derive(Subcommand)]
pub(crate) enum Measure {
    Engine(EngineArgs),
    Isolation(IsolationArgs),
    Program(ProgramArgs),
    Server(ServerArgs),
    Tournament(TournamentArgs),
    Matchmaking(MatchmakingArgs),
    Swiss(SwissArgs),
    Sprt(sprt::BenchSprtArgs),
    Analysis(AnalysisArgs),
}

/// Measure the analyser (`arena analyse`) on replays of games between the
/// levels: predicted win chance in deciles against the observed rate, the
/// largest gap, a recalibration of the win-chance curve, the cost per
/// position, and each player's mean accuracy (docs/benchmarks.md, "The
/// analyser"). Build with --release.
///
/// Example: arena play --game trap easy hard --games 100 --replay reps; arena measure analysis reps/*.json
#[derive(clap::Args)]
pub(crate) struct AnalysisArgs {
    /// Replay files (or folders of them) of games between the levels.
    #[arg(required = true, value_name = "REPLAY")]
    pub files: Vec<PathBuf>,
    /// Positions Trap's search may visit per turn (`arena analyse --nodes`).
    #[arg(long, default_value_t = arena_core::analysis::Budget::default().nodes, value_name = "N")]
    pub nodes: u64,
    /// Also write every Trap position's search value, depth, free cells and
    /// the mover's result to this CSV file (to study the curve).
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Caves sampled per position for Wumpus World (`arena analyse
    /// --rollouts`); its noise is measured against four times as many.
    #[arg(long, default_value_t = arena_core::analysis::Budget::default().rollouts, value_name = "N")]
    pub rollouts: u32,
}

/// The old names, `arena bench-<what>`: the same options, the same output,
/// hidden from `arena --help` (flattened into `Command`).
#[derive(Subcommand)]
pub(crate) enum OldName {
    #[command(name = "bench-engine", hide = true)]
    Engine(EngineArgs),
    #[command(name = "bench-isolation", hide = true)]
    Isolation(IsolationArgs),
    #[command(name = "bench-program", hide = true)]
    Program(ProgramArgs),
    #[command(name = "bench-server", hide = true)]
    Server(ServerArgs),
    #[command(name = "bench-tournament", hide = true)]
    Tournament(TournamentArgs),
    #[command(name = "bench-matchmaking", hide = true)]
    Matchmaking(MatchmakingArgs),
    #[command(name = "bench-sprt", hide = true)]
    Sprt(sprt::BenchSprtArgs),
}

impl From<OldName> for Measure {
    fn from(old: OldName) -> Measure {
        match old {
            OldName::Engine(args) => Measure::Engine(args),
            OldName::Isolation(args) => Measure::Isolation(args),
            OldName::Program(args) => Measure::Program(args),
            OldName::Server(args) => Measure::Server(args),
            OldName::Tournament(args) => Measure::Tournament(args),
            OldName::Matchmaking(args) => Measure::Matchmaking(args),
            OldName::Sprt(args) => Measure::Sprt(args),
        }
    }
}

/// Measure the rules engine and the Expert search on one core: random
/// games per second, Expert nodes per second and depth reached (build
/// with --release; docs/benchmarks.md).
#[derive(clap::Args)]
pub(crate) struct EngineArgs {
    /// Random-vs-random games for the playout figure.
    #[arg(long, default_value_t = 1_000_000)]
    games: u64,
    /// Search times for Expert, comma-separated.
    #[arg(long, default_value = "0.1s,1s,5s", value_delimiter = ',', value_parser = arena_core::report::units::parse_duration)]
    search_times: Vec<Duration>,
}

/// Measure what isolating players costs: request round trips in process
/// and in a worker, isolated games per second, and a soak run whose
/// memory, threads and descriptors must stay flat. Build with --release.
#[derive(clap::Args)]
pub(crate) struct IsolationArgs {
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
    #[arg(long, value_enum, default_value_t = arena_core::sandbox::Sandbox::On)]
    sandbox: arena_core::sandbox::Sandbox,
}

/// Measure what the protocol costs program players: turn round trips
/// and start-up of each program, next to the arena's own worker (build
/// with --release). Example: arena measure program python:players/python/examples/native/first_legal.py
#[derive(clap::Args)]
pub(crate) struct ProgramArgs {
    /// Program players: python:PATH or cmd:COMMAND.
    #[arg(required = true)]
    players: Vec<PlayerSpec>,
    /// Requests timed per player.
    #[arg(long, default_value_t = 10_000)]
    requests: u32,
}

/// Load the submissions server on loopback: many students submit at
/// once while others poll the leaderboard; prints upload and page
/// latencies (p50, p99) and submissions graded per minute
/// (docs/benchmarks.md). Build with --release.
#[derive(clap::Args)]
pub(crate) struct ServerArgs {
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
    /// The nice value of the server's games (as `arena serve --games-nice`).
    #[arg(long, value_name = "N", default_value_t = 0, allow_hyphen_values = true,
          value_parser = clap::value_parser!(i32).range(-20..=19))]
    games_nice: i32,
    /// The nice value of the server's pages (as `arena serve --pages-nice`).
    #[arg(long, value_name = "N", default_value_t = 0, allow_hyphen_values = true,
          value_parser = clap::value_parser!(i32).range(-20..=19))]
    pages_nice: i32,
    /// Busy loops (nice 0) run beside the server while it is measured, as
    /// other users' work on a shared machine.
    #[arg(long, value_name = "N", default_value_t = 0)]
    busy_loops: usize,
    /// Pages watching one game live (staff's, so any game: the newest in
    /// progress, then the next), beside the open pages.
    #[arg(long, default_value_t = 0, value_name = "N")]
    watchers: usize,
}

/// Measure a tournament's overheads: a round robin of Easy bots run for
/// real into a scratch folder (build with --release).
#[derive(clap::Args)]
pub(crate) struct TournamentArgs {
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
}

/// Measure Swiss rounds against the full round robin on a simulated
/// class of players of known strength: how much of the round robin's top
/// 10% a Swiss of each number of rounds finds, and Spearman within it,
/// next to the same rounds paired at random (docs/benchmarks.md, "Swiss
/// rounds against a round robin"). Build with --release.
#[derive(clap::Args)]
pub(crate) struct SwissArgs {
    /// Entrants in the class.
    #[arg(long, default_value_t = 150)]
    entrants: usize,
    /// The Swiss's rounds to measure, comma-separated.
    #[arg(long, default_value = "9,10,11", value_delimiter = ',')]
    rounds: Vec<u32>,
    /// Games per pairing (the Swiss's and the round robin's).
    #[arg(long, default_value_t = 2)]
    games_per_pairing: u32,
    /// Classes simulated (each with its own strengths and games).
    #[arg(long, default_value_t = 20)]
    trials: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Measure the live league's matchmaking on a simulated class of
/// players of known strength: how closely its ranking agrees with the
/// full round robin's (Spearman) after each share of the round robin's
/// games, next to random pairing, and how many games a newcomer needs
/// until its rating is known within +-100 Elo (docs/benchmarks.md,
/// "League matchmaking"). With --games-per-entrant, a field of thousands
/// measured in games per entrant against the true strengths. Build with
/// --release.
#[derive(clap::Args)]
pub(crate) struct MatchmakingArgs {
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
    /// Measure a field of thousands instead, at these games per entrant
    /// (comma-separated, ascending): no round robin, the ranking against
    /// the true strengths, the league played in rounds of --batch pairs;
    /// one trial. Example: --students 10000 --games-per-entrant 20,50,100
    #[arg(long, value_delimiter = ',')]
    games_per_entrant: Vec<u32>,
    /// With --games-per-entrant: pairs chosen and played a round, the
    /// ratings refitted after each (0: a hundredth of the field, at least 8).
    #[arg(long, default_value_t = 0)]
    batch: usize,
}

/// The threads (games at once) asked for, else one per core.
fn one_per_core(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

pub(crate) fn run(measure: Measure) -> Result<ExitCode> {
    match measure {
        Measure::Engine(EngineArgs { games, search_times }) => {
            arena_core::outln!(
                "{}",
                <arena_core::games::Benchmarked as arena_core::measure::benchmarked::BenchmarkedGame>::engine_report(
                    games,
                    &search_times
                )
            );
        }
        Measure::Isolation(IsolationArgs { requests, games, soak_games, threads, starts, sandbox }) => {
            let threads = one_per_core(threads);
            let limits = WorkerLimits { sandbox, ..WorkerLimits::new().map_err(anyhow::Error::msg)? };
            let config = arena_core::measure::overhead::BenchConfig {
                requests,
                games,
                threads,
                soak_games,
                starts,
                limits,
            };
            arena_core::outln!(
                "{}",
                arena_core::measure::overhead::run(&config).map_err(anyhow::Error::msg)?
            );
        }
        Measure::Program(ProgramArgs { players, requests }) => {
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
            arena_core::outln!(
                "{}",
                arena_core::measure::overhead::program(&programs, requests, &limits)
                    .map_err(anyhow::Error::msg)?
            );
        }
        Measure::Server(args) => {
            let library = match args.library {
                Some(path) => path,
                None => std::env::current_exe()?.with_file_name("libeasy.so"),
            };
            let (students, submissions) = (args.students, args.submissions);
            if submissions > students {
                anyhow::bail!("--submissions {submissions}: at most --students ({students}) can submit");
            }
            let load = arena_server::bench::Load {
                library,
                students,
                league_games: args.league_games,
                submissions,
                pages: args.pages,
                seconds: args.seconds,
                grading_slots: args.grading_slots,
                games_nice: args.games_nice,
                pages_nice: args.pages_nice,
                busy_loops: args.busy_loops,
                watchers: args.watchers,
            };
            arena_core::outln!("{}", arena_server::bench::run(&load)?);
        }
        Measure::Tournament(TournamentArgs { players, games_per_pairing, isolated, concurrency }) => {
            let concurrency = one_per_core(concurrency);
            let text =
                arena_core::measure::overhead::tournament(players, games_per_pairing, isolated, concurrency)
                    .map_err(anyhow::Error::msg)?;
            arena_core::outln!("{text}");
        }
        Measure::Matchmaking(MatchmakingArgs {
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
            games_per_entrant,
            batch,
        }) => {
            use arena_core::{matchmaking::Policy, measure::matchmaking_simulation as simulation};
            let default = Policy::default();
            let policy = Policy {
                placement_games: placement_games.unwrap_or(default.placement_games),
                repeat_scale: repeat_scale.unwrap_or(default.repeat_scale),
                max_pairs_in_flight: max_pairs_in_flight.unwrap_or(default.max_pairs_in_flight),
                min_share_of_games: min_share_of_games.unwrap_or(default.min_share_of_games),
            };
            if !games_per_entrant.is_empty() {
                if !games_per_entrant.is_sorted() || games_per_entrant.contains(&0) {
                    anyhow::bail!("--games-per-entrant: give positive numbers, ascending (e.g. 20,50,100)");
                }
                let config = arena_core::measure::matchmaking_at_scale::Config {
                    entrants: students,
                    games_per_entrant,
                    seed,
                    policy,
                    newcomers,
                    batch,
                };
                arena_core::outln!("{}", arena_core::measure::matchmaking_at_scale::run(&config));
                return Ok(ExitCode::SUCCESS);
            }
            let mut config = simulation::Config {
                in_flight,
                newcomers,
                policy,
                ..simulation::Config::new(students, games_per_pairing, seed, trials)
            };
            config.checkpoints.retain(|&share| share * 100.0 <= up_to + 1e-9);
            arena_core::outln!("{}", simulation::run(&config));
        }
        Measure::Swiss(SwissArgs { entrants, rounds, games_per_pairing, trials, seed }) => {
            if entrants < 2 {
                anyhow::bail!("--entrants {entrants}: a Swiss needs 2 entrants or more");
            }
            if let Some(r) = rounds.iter().find(|&&r| r == 0 || r as usize >= entrants) {
                anyhow::bail!("--rounds {r}: use 1 to {} rounds for {entrants} entrants", entrants - 1);
            }
            if games_per_pairing == 0 || trials == 0 {
                anyhow::bail!("--games-per-pairing and --trials: use 1 or more");
            }
            let config = arena_core::measure::swiss_simulation::Config {
                entrants,
                rounds,
                games_per_pairing,
                trials,
                seed,
            };
            arena_core::outln!("{}", arena_core::measure::swiss_simulation::run(&config));
        }
        Measure::Sprt(args) => return sprt::bench(args),
        Measure::Analysis(AnalysisArgs { files, nodes, positions, rollouts }) => {
            let mut replays = Vec::new();
            for path in files {
                if path.is_dir() {
                    let mut inside: Vec<PathBuf> = std::fs::read_dir(&path)
                        .map_err(|e| anyhow::anyhow!("cannot read the folder {}: {e}", path.display()))?
                        .filter_map(|entry| entry.ok().map(|e| e.path()))
                        .filter(|p| {
                            p.to_string_lossy().ends_with(".json")
                                || p.to_string_lossy().ends_with(".json.gz")
                        })
                        .collect();
                    inside.sort();
                    replays.extend(inside);
                } else {
                    replays.push(path);
                }
            }
            let budget = arena_core::analysis::Budget { nodes, rollouts: rollouts.max(1) };
            arena_core::outln!(
                "{}",
                arena_core::measure::analysis::run(&replays, budget, positions.as_deref())?
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
