use std::{
    io::{IsTerminal, Write},
    path::PathBuf,
    process::ExitCode,
    time::Duration,
};

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{bail, Context, Result};
use arena::{
    check,
    duel::{self, DuelConfig, DuelGame},
    isolation::WorkerLimits,
    matches::{self, MatchConfig},
    players::{Hosting, Player, PlayerSpec},
    referee::{hexapawn::HexapawnSettings, trap::TrapSettings},
    replay::{files::MatchReplays, terminal::Paint, Replay, ReplayPlayer},
    report, scaffold, seeds,
    solo::{self, GameOptions, SoloGame, SoloSettings},
    tournament::{self, config::Tournament, record::GameResult},
};
use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use player_api::trap::{DEFAULT_SIZE, DEFAULT_TURN_CAP, MAX_SIZE, MIN_SIZE};

/// Referee games between bots: student player libraries and the built-in
/// reference levels (easy, medium, hard).
#[derive(Parser)]
#[command(name = "arena", version, about, long_about = None)]
struct Cli {
    /// Show more: what players print, per-game details (same as RUST_LOG=info).
    #[arg(short, long, global = true)]
    verbose: bool,
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
    Play {
        /// The game to play.
        #[arg(long, value_enum, default_value_t = Game::Trap)]
        game: Game,
        /// The first player (seat 1 in odd-numbered games), or the only one.
        player1: PlayerSpec,
        /// The second player (Trap, Hexapawn).
        player2: Option<PlayerSpec>,
        /// How many games.
        #[arg(long, default_value_t = 1)]
        games: u32,
        /// Play only game K (1-based) of the match, with the seed and seats it
        /// has in the full match: replays one game that `arena bench` or an
        /// earlier `arena play` reported.
        #[arg(long, value_name = "K", conflicts_with = "games")]
        only_game: Option<u32>,
        /// Seed for the games' randomness (default: a fresh one, printed).
        #[arg(long)]
        seed: Option<u64>,
        #[command(flatten)]
        limits: Limits,
        /// Print the board after every turn (games other than Trap: each
        /// game's steps once it ends, drawn as `arena replay` draws them).
        #[arg(long, conflicts_with = "json")]
        watch: bool,
        /// Print one JSON object on stdout instead (schema: docs/play-json.md).
        #[arg(long)]
        json: bool,
        /// Write each game's replay (docs/replays.md) into this folder, or,
        /// for one game, to this file if it ends in .json or .json.gz.
        #[arg(long, value_name = "FILE_OR_DIR")]
        replay: Option<PathBuf>,
        #[command(flatten)]
        options: GameArgs,
    },
    /// Measure a player against the reference levels: score with a 95%
    /// interval against Easy, Medium and Hard, the would-be grade, and the
    /// lost games with the command that replays each. For a single-player
    /// game: its mean score next to each level's on the same worlds.
    ///
    /// Example: arena bench target/release/libmy_bot.so --games 50
    /// Example: arena bench --game intuitive-ai target/release/libmy_bot.so --games 1000
    Bench {
        /// The game.
        #[arg(long, value_enum, default_value_t = Game::Trap)]
        game: Game,
        /// The player: a library path (or a built-in name).
        player: PlayerSpec,
        /// Games against each level (seat-swapped pairs); for a single-player
        /// game, worlds (default 20 for two-player games, 1000 otherwise).
        #[arg(long)]
        games: Option<u32>,
        /// Seed (default: a fresh one, printed).
        #[arg(long)]
        seed: Option<u64>,
        #[command(flatten)]
        limits: Limits,
        #[command(flatten)]
        options: GameArgs,
    },
    /// Check a player: load it, report what it is, play a smoke test
    /// against Easy.
    Check {
        /// The player: a library (.so), python:PATH (a course folder or a .py
        /// file) or cmd:COMMAND.
        player: PlayerSpec,
        #[command(flatten)]
        limits: Limits,
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
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Game {
    Trap,
    IntuitiveAi,
    Hexapawn,
    Wumpus,
    MagicForest,
}

impl Game {
    fn name(self) -> &'static str {
        match self {
            Game::Trap => "trap",
            Game::IntuitiveAi => "intuitive-ai",
            Game::Hexapawn => "hexapawn",
            Game::Wumpus => "wumpus",
            Game::MagicForest => "magic-forest",
        }
    }
}

/// A game with its settings, from the command line.
enum Setup {
    Trap,
    Hexapawn(HexapawnSettings),
    Solo(SoloSettings),
}

/// The settings of `game` from the options given; an option the game does
/// not have is an error.
fn setup(game: Game, limits: &Limits, args: &GameArgs) -> Result<Setup> {
    let name = game.name();
    let flag = |key: &str| format!("--{}", key.replace('_', "-"));
    let given = [
        ("board_size", limits.board_size.is_some(), [Game::Trap, Game::IntuitiveAi].as_slice()),
        ("turn_cap", limits.turn_cap.is_some(), &[Game::Trap]),
        ("preset", args.preset.is_some(), &[Game::Wumpus]),
        ("largest_forest", args.largest_forest.is_some(), &[Game::MagicForest]),
    ];
    for (key, is_given, games) in given {
        if is_given && !games.contains(&game) {
            let owners: Vec<&str> = games.iter().map(|g| g.name()).collect();
            bail!("{}: {name} has no such option (it is for {})", flag(key), owners.join(", "));
        }
    }
    let options = GameOptions {
        board_size: limits.board_size,
        preset: args.preset.clone(),
        largest_forest: args.largest_forest,
        turn_budget: Some(limits.time_per_turn),
        startup_budget: Some(limits.startup_time),
    };
    match game {
        Game::Trap => Ok(Setup::Trap),
        Game::Hexapawn => Ok(Setup::Hexapawn(HexapawnSettings {
            turn_budget: limits.time_per_turn,
            startup_budget: limits.startup_time,
        })),
        _ => match SoloSettings::build(name, &options) {
            Ok(Some(settings)) => Ok(Setup::Solo(settings)),
            Ok(None) => unreachable!("{name} is a single-player game"),
            Err(e) => bail!("{}: {}", flag(e.key), e.message),
        },
    }
}

/// Options of the new games (each an error for a game it does not apply to).
#[derive(clap::Args)]
struct GameArgs {
    /// Wumpus World: the rules preset.
    #[arg(long, value_parser = ["aima", "project"])]
    preset: Option<String>,
    /// Magic Forest: the size of the last, largest forest (3 to 8; default 7).
    #[arg(long)]
    largest_forest: Option<u8>,
}

#[derive(clap::Args)]
struct Limits {
    /// Wall-clock budget per turn (move and throw together): 5s, 500ms, 0.1s.
    #[arg(long, default_value = "5s", value_parser = arena::units::parse_duration)]
    time_per_turn: Duration,
    /// Budget for a player's start of game (new_game).
    #[arg(long, default_value = "10s", value_parser = arena::units::parse_duration)]
    startup_time: Duration,
    /// Board size N (N x N): Trap (default 7), Intuitive AI (default 4).
    #[arg(long, value_parser = clap::value_parser!(u8).range(MIN_SIZE as i64..=MAX_SIZE as i64))]
    board_size: Option<u8>,
    /// Trap: turns after which a game is a draw (default 400).
    #[arg(long)]
    turn_cap: Option<u32>,
    /// Load player libraries into the arena's own process instead of one
    /// worker process each: faster, but a crash or hang in a player then
    /// takes the arena down, and a timeout is only noticed after the fact.
    #[arg(long)]
    in_process: bool,
    /// Run the built-in bots in worker processes too (to measure isolation).
    #[arg(long, hide = true)]
    isolate_builtins: bool,
    /// Memory cap per worker process (address space): 1GiB, 512MiB.
    #[arg(long, default_value = "1GiB", value_parser = arena::units::parse_bytes)]
    memory_limit: u64,
    /// How long past its budget a player may take before it is killed.
    #[arg(long, default_value = "100ms", value_parser = arena::units::parse_duration)]
    grace: Duration,
}

impl Limits {
    fn hosting(&self) -> Result<Hosting> {
        if self.in_process && !self.isolate_builtins {
            return Ok(Hosting::in_process());
        }
        let limits = WorkerLimits {
            memory_bytes: self.memory_limit,
            grace: self.grace,
            ..WorkerLimits::new().map_err(anyhow::Error::msg)?
        };
        Ok(Hosting {
            isolate_libraries: !self.in_process,
            isolate_builtins: self.isolate_builtins,
            limits: Some(limits),
        })
    }

    fn settings(&self) -> TrapSettings {
        TrapSettings {
            size: self.board_size.unwrap_or(DEFAULT_SIZE),
            turn_budget: self.time_per_turn,
            startup_budget: self.startup_time,
            turn_cap: self.turn_cap.unwrap_or(DEFAULT_TURN_CAP),
        }
    }
}

fn main() -> ExitCode {
    // A worker process: answer the protocol, nothing else (no CLI, no logs).
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(arena::worker::WORKER_ARG) {
        return arena::worker::main(&args[2..]);
    }
    let cli = Cli::parse();
    init_logs(cli.verbose);
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// Logs go to stderr; `RUST_LOG` decides, else `--verbose` (info) or warnings only.
fn init_logs(verbose: bool) {
    let default = if verbose { "info" } else { "warn" };
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default)),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .without_time()
        .init();
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Bench { game, player, games, seed, limits, options } => {
            let setup = setup(game, &limits, &options)?;
            if !matches!(setup, Setup::Trap) {
                return bench_other(setup, &player, games, seed, &limits);
            }
            let games = games.unwrap_or(20);
            if games == 0 {
                bail!("--games 0 plays nothing: ask for at least one game per level");
            }
            let hosting = limits.hosting()?;
            let settings = limits.settings();
            let loaded = load(&player, &hosting, &settings)?;
            let seed = seed.unwrap_or_else(seeds::fresh);
            let runs = arena::ladder::run(&loaded, games, seed, settings, &hosting);
            println!("{}", arena::ladder::report(loaded.name(), &player.to_string(), &runs, seed));
            Ok(ExitCode::SUCCESS)
        }
        Command::Play {
            game,
            player1,
            player2,
            games,
            only_game,
            seed,
            limits,
            watch,
            json,
            replay,
            options,
        } => {
            if games == 0 {
                bail!("--games 0 plays nothing: ask for at least one game");
            }
            let setup = setup(game, &limits, &options)?;
            if !matches!(setup, Setup::Trap) {
                let run = OtherPlay { player1, player2, games, only_game, seed, watch, json, replay };
                return play_other(setup, run, &limits);
            }
            let Some(player2) = player2 else {
                bail!("trap is a two-player game: name two players (for example: arena play my_bot.so hard)")
            };
            let hosting = limits.hosting()?;
            let settings = limits.settings();
            let players = [load(&player1, &hosting, &settings)?, load(&player2, &hosting, &settings)?];
            let names = display_names(&players);
            let (first_game, games) = match only_game {
                Some(0) => bail!("--only-game counts from 1"),
                Some(k) => (k - 1, 1),
                None => (0, games),
            };
            let config =
                MatchConfig { settings, games, seed: seed.unwrap_or_else(seeds::fresh), hosting, first_game };
            let sources = [player1.to_string(), player2.to_string()];
            let mut saver = replay
                .map(|path| MatchReplays::new(path, games, first_game, &names, &sources))
                .transpose()?;
            let stdout = std::io::stdout();
            let mut on_game = |game: &matches::MatchGame| {
                if let Some(saver) = saver.as_mut() {
                    saver.save(game);
                }
                if !json {
                    let line = report::game_line(game, first_game + games, [&names[0], &names[1]]);
                    let _ = writeln!(stdout.lock(), "{line}");
                }
            };
            let mut show_turn = |seats: [usize; 2], state: &_, turn: &arena::referee::trap::Turn| {
                let name = &names[seats[turn.seat.index()]];
                let _ = writeln!(stdout.lock(), "{}", report::turn_view(state, turn, name));
            };
            let watcher: Option<matches::TurnWatcher> = if watch { Some(&mut show_turn) } else { None };
            let result = matches::play([&players[0], &players[1]], &config, &mut on_game, watcher);
            if let Some(saver) = saver {
                eprintln!("{}", saver.finish()?);
            }
            if json {
                println!("{}", report::json(&result, [player1.to_string(), player2.to_string()]));
            } else {
                let mut result = result;
                for (tally, name) in result.tallies.iter_mut().zip(&names) {
                    tally.name = name.clone();
                }
                println!("{}", report::summary(&result));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { player, limits } => {
            let report = check::check(&player, limits.settings(), limits.hosting()?)?;
            println!("{}", report.text);
            Ok(if report.passed { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        Command::BenchIsolation { requests, games, soak_games, threads } => {
            let threads =
                threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let limits = WorkerLimits::new().map_err(anyhow::Error::msg)?;
            let config = arena::bench::BenchConfig { requests, games, threads, soak_games, limits };
            println!("{}", arena::bench::run(&config).map_err(anyhow::Error::msg)?);
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
            println!("{}", arena::bench::program(&programs, requests, &limits).map_err(anyhow::Error::msg)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::BenchTournament { players, games_per_pairing, isolated, concurrency } => {
            let concurrency =
                concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let text = arena::bench::tournament(players, games_per_pairing, isolated, concurrency)
                .map_err(anyhow::Error::msg)?;
            println!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Replay(args) => arena::replay::command::run(&args),
        Command::BenchEngine { games, search_times } => {
            println!("{}", arena::engine_bench::run(games, &search_times));
            Ok(ExitCode::SUCCESS)
        }
        Command::Tournament { action: TournamentAction::Run { file, json, concurrency } } => {
            run_tournament(&file, json, concurrency)
        }
        Command::New { name, dir, api_path } => {
            let api_path = api_path.unwrap_or_else(scaffold::default_api_path);
            let root = scaffold::new_player(&dir, &name, &api_path)?;
            let lib = name.replace('-', "_");
            println!("created {}", root.display());
            println!("next:");
            println!("  cd {} && cargo build --release", root.display());
            println!("  arena check target/release/lib{lib}.so");
            println!("  arena play --game trap target/release/lib{lib}.so hard --games 10");
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn load(spec: &PlayerSpec, hosting: &Hosting, settings: &TrapSettings) -> Result<Player> {
    Player::load(spec, hosting, settings.startup_budget)
        .with_context(|| format!("cannot load player '{spec}'"))
}

/// `arena play` for a game other than Trap.
struct OtherPlay {
    player1: PlayerSpec,
    player2: Option<PlayerSpec>,
    games: u32,
    only_game: Option<u32>,
    seed: Option<u64>,
    watch: bool,
    json: bool,
    replay: Option<PathBuf>,
}

fn play_other(setup: Setup, run: OtherPlay, limits: &Limits) -> Result<ExitCode> {
    let hosting = limits.hosting()?;
    let trap = limits.settings();
    let seed = run.seed.unwrap_or_else(seeds::fresh);
    let stdout = std::io::stdout();
    let watch = run.watch.then_some(Paint { color: stdout.is_terminal() });
    match setup {
        Setup::Trap => unreachable!("Trap is played by the Play arm"),
        Setup::Solo(settings) => {
            if let Some(second) = &run.player2 {
                bail!("{} is a single-player game: name one player, not also '{second}'", settings.game());
            }
            let player = load(&run.player1, &hosting, &trap)?;
            let (first, games) = match run.only_game {
                Some(0) => bail!("--only-game counts from 1"),
                Some(k) => (k - 1, 1),
                None => (0, run.games),
            };
            let name = player.name().to_string();
            let mut saver = run
                .replay
                .map(|path| {
                    let (names, sources) = ([name.clone()], [run.player1.to_string()]);
                    MatchReplays::new(path, games, first, &names, &sources)
                })
                .transpose()?;
            let mut on_game = |game: &SoloGame| {
                if saver.is_some() || watch.is_some() {
                    let me = ReplayPlayer { name: name.clone(), source: run.player1.to_string() };
                    keep_replay(&game.record.replay(&settings, me), game.index, watch, saver.as_mut());
                }
                if !run.json {
                    let _ = writeln!(stdout.lock(), "{}", report::solo_line(game, first + games, &name));
                }
            };
            let series = solo::play_series(&player, &settings, (first, games), seed, &hosting, &mut on_game);
            if let Some(saver) = saver {
                eprintln!("{}", saver.finish()?);
            }
            if run.json {
                println!("{}", report::solo_json(&series, &name, &run.player1.to_string()));
            } else {
                println!("{}", report::solo_summary(&name, &series));
            }
        }
        Setup::Hexapawn(settings) => {
            let Some(player2) = run.player2 else {
                bail!("hexapawn is a two-player game: name two players (for example: arena play --game hexapawn menace.so hard)")
            };
            if run.only_game.is_some() {
                bail!("--only-game: a Hexapawn match is played whole (its players learn from every game)");
            }
            let players = [load(&run.player1, &hosting, &trap)?, load(&player2, &hosting, &trap)?];
            let names = display_names(&players);
            let config = DuelConfig { settings, games: run.games, seed, hosting };
            let sources = [run.player1.to_string(), player2.to_string()];
            let mut saver =
                run.replay.map(|path| MatchReplays::new(path, run.games, 0, &names, &sources)).transpose()?;
            let replay_players: Vec<ReplayPlayer> = names
                .iter()
                .zip(&sources)
                .map(|(name, source)| ReplayPlayer { name: name.clone(), source: source.clone() })
                .collect();
            let mut on_game = |game: &DuelGame| {
                if saver.is_some() || watch.is_some() {
                    keep_replay(&game.replay(&replay_players), game.index, watch, saver.as_mut());
                }
                if !run.json {
                    let line = report::duel_line(game, run.games, [&names[0], &names[1]]);
                    let _ = writeln!(stdout.lock(), "{line}");
                }
            };
            let mut result = duel::play([&players[0], &players[1]], &config, &mut on_game);
            if let Some(saver) = saver {
                eprintln!("{}", saver.finish()?);
            }
            if run.json {
                println!("{}", report::duel_json(&result, [run.player1.to_string(), player2.to_string()]));
            } else {
                for (tally, name) in result.tallies.iter_mut().zip(&names) {
                    tally.name = name.clone();
                }
                println!("{}", report::duel_summary(&result));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `--watch` and `--replay` for a game other than Trap, once the game ends:
/// its steps drawn as `arena replay` draws them, its replay saved.
fn keep_replay(replay: &Replay, index: u32, watch: Option<Paint>, saver: Option<&mut MatchReplays>) {
    if let Some(paint) = watch {
        let mut out = std::io::stdout().lock();
        for frame in replay.frames(paint) {
            let _ = writeln!(out, "{frame}\n");
        }
    }
    if let Some(saver) = saver {
        saver.save_replay(index, replay);
    }
}

/// `arena bench` for a game other than Trap.
fn bench_other(
    setup: Setup,
    spec: &PlayerSpec,
    games: Option<u32>,
    seed: Option<u64>,
    limits: &Limits,
) -> Result<ExitCode> {
    let hosting = limits.hosting()?;
    let player = load(spec, &hosting, &limits.settings())?;
    let seed = seed.unwrap_or_else(seeds::fresh);
    let text = match setup {
        Setup::Trap => unreachable!("Trap is benched by the Bench arm"),
        Setup::Solo(settings) => {
            let games = games.unwrap_or(1000);
            if games == 0 {
                bail!("--games 0 plays nothing: ask for at least one world");
            }
            let runs = arena::ladder::solo_run(&player, &settings, games, seed, &hosting);
            arena::ladder::solo_report(player.name(), &settings, &runs, seed)
        }
        Setup::Hexapawn(settings) => {
            let games = games.unwrap_or(20);
            if games == 0 {
                bail!("--games 0 plays nothing: ask for at least one game per level");
            }
            let runs = arena::ladder::duel_run(&player, settings, games, seed, &hosting);
            arena::ladder::duel_report(player.name(), &runs, seed)
        }
    };
    println!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// Names to show: the players' own names, told apart when they are equal.
fn display_names(players: &[Player; 2]) -> [String; 2] {
    let [a, b] = [players[0].name(), players[1].name()];
    if a == b {
        [format!("{a}#1"), format!("{b}#2")]
    } else {
        [a.to_string(), b.to_string()]
    }
}

/// Set by Ctrl-C: stop starting games. A second Ctrl-C quits at once.
static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_interrupt(_: libc::c_int) {
    if STOP.swap(true, Ordering::SeqCst) {
        // SAFETY: async-signal-safe; workers die with us (PR_SET_PDEATHSIG),
        // and the journal holds every game that finished.
        unsafe { libc::_exit(130) };
    }
}

fn run_tournament(file: &std::path::Path, json: bool, concurrency: Option<usize>) -> Result<ExitCode> {
    let mut tournament = Tournament::load(file)?;
    if let Some(n) = concurrency {
        if n == 0 {
            bail!("--concurrency 0 runs nothing: use 1 or more");
        }
        tournament.concurrency = n;
    }
    // SAFETY: installing a handler that only touches an atomic (or exits).
    unsafe { libc::signal(libc::SIGINT, on_interrupt as *const () as libc::sighandler_t) };
    let mut progress = Progress::new(!json);
    let outcome = tournament::run(tournament, &STOP, &mut progress)?;
    progress.bar.finish_and_clear();
    if outcome.interrupted {
        eprintln!(
            "interrupted after {} of {} games; the journal in {} keeps them: run the same command to resume",
            outcome.results.len(),
            outcome.total,
            outcome.tournament.output.display()
        );
        return Ok(ExitCode::from(130));
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&outcome.standings.json())?);
    } else {
        println!("{}", outcome.standings.terminal());
        if let Some(grades) = &outcome.grades {
            println!("\n{}", arena::tournament::grade::markdown_summary(grades));
        }
        eprintln!("{} games ({} played now); written:", outcome.results.len(), outcome.played_now);
        for path in &outcome.written {
            eprintln!("  {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The tournament's progress bar (games done/total, rate, ETA, leader) and
/// its live lines (resuming, each failure).
struct Progress {
    bar: ProgressBar,
    points: Vec<f64>,
}

impl Progress {
    fn new(visible: bool) -> Progress {
        let bar = if visible { ProgressBar::new(0) } else { ProgressBar::hidden() };
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} games  {per_sec}  ETA {eta}  {msg}")
                .expect("a valid template"),
        );
        Progress { bar, points: Vec::new() }
    }

    /// A live line above the bar; on stderr when the bar is hidden (not a
    /// terminal), since indicatif prints nothing for a hidden bar.
    fn say(&self, line: String) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    fn count(&mut self, result: &GameResult) {
        // A single-player game has its one player in both seats: count it once.
        let seats = if result.solo.is_some() { &result.seats[..1] } else { &result.seats[..] };
        for &id in seats {
            if self.points.len() <= id {
                self.points.resize(id + 1, 0.0);
            }
            self.points[id] += result.score_of(id);
        }
    }
}

impl tournament::Observer for Progress {
    fn start(&mut self, total: usize, done: &[GameResult]) {
        self.bar.set_length(total as u64);
        self.bar.set_position(done.len() as u64);
        self.bar.reset_eta();
        done.iter().for_each(|r| self.count(r));
        if !done.is_empty() {
            self.say(format!("resuming: {} of {total} games already in the journal", done.len()));
        }
    }

    fn game(&mut self, result: &GameResult, names: &[String]) {
        self.count(result);
        if let Some(fault) = &result.fault {
            self.say(format!("game {}: {} lost: {}", result.index + 1, names[fault.player], result.reason));
        }
        let best = self.points.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1));
        if let Some((id, points)) = best {
            self.bar.set_message(format!("leader: {} ({points} pts)", names[id]));
        }
        self.bar.inc(1);
    }
}
