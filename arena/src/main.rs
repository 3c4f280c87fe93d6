use std::{
    io::{IsTerminal, Write},
    path::PathBuf,
    process::ExitCode,
    time::Duration,
};

use anyhow::{bail, Context, Result};
use arena::{
    check,
    isolation::WorkerLimits,
    matches::{self, MatchConfig},
    players::{Hosting, Player, PlayerSpec},
    referee::trap::TrapSettings,
    report, scaffold, seeds,
};
use clap::{Parser, Subcommand, ValueEnum};
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
    /// Play games between two players and print the results.
    ///
    /// A player is a built-in bot (easy, medium, hard) or the path of a
    /// player library (.so). Seats alternate game by game, and games come in
    /// pairs on the same seed with the seats swapped.
    ///
    /// Example: arena play --game trap target/release/libmy_bot.so hard --games 10
    Play {
        /// The game to play.
        #[arg(long, value_enum, default_value_t = Game::Trap)]
        game: Game,
        /// The first player (seat 1 in odd-numbered games).
        player1: PlayerSpec,
        /// The second player.
        player2: PlayerSpec,
        /// How many games.
        #[arg(long, default_value_t = 1)]
        games: u32,
        /// Seed for the games' randomness (default: a fresh one, printed).
        #[arg(long)]
        seed: Option<u64>,
        #[command(flatten)]
        limits: Limits,
        /// Print the board after every turn.
        #[arg(long, conflicts_with = "json")]
        watch: bool,
        /// Print one JSON object on stdout instead (schema: docs/play-json.md).
        #[arg(long)]
        json: bool,
    },
    /// Check a player library: load it, report what it is, play a smoke test
    /// against Easy.
    Check {
        /// The player library (.so).
        path: PathBuf,
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

#[derive(Clone, Copy, ValueEnum)]
enum Game {
    Trap,
}

#[derive(clap::Args)]
struct Limits {
    /// Wall-clock budget per turn (move and throw together): 5s, 500ms, 0.1s.
    #[arg(long, default_value = "5s", value_parser = arena::duration::parse)]
    time_per_turn: Duration,
    /// Budget for a player's start of game (new_game).
    #[arg(long, default_value = "10s", value_parser = arena::duration::parse)]
    startup_time: Duration,
    /// Board size N (N x N).
    #[arg(long, default_value_t = DEFAULT_SIZE, value_parser = clap::value_parser!(u8).range(MIN_SIZE as i64..=MAX_SIZE as i64))]
    board_size: u8,
    /// Turns after which a game is a draw.
    #[arg(long, default_value_t = DEFAULT_TURN_CAP)]
    turn_cap: u32,
    /// Load player libraries into the arena's own process instead of one
    /// worker process each: faster, but a crash or hang in a player then
    /// takes the arena down, and a timeout is only noticed after the fact.
    #[arg(long)]
    in_process: bool,
    /// Run the built-in bots in worker processes too (to measure isolation).
    #[arg(long, hide = true)]
    isolate_builtins: bool,
    /// Memory cap per worker process (address space): 1GiB, 512MiB.
    #[arg(long, default_value = "1GiB", value_parser = parse_bytes)]
    memory_limit: u64,
    /// How long past its budget a player may take before it is killed.
    #[arg(long, default_value = "100ms", value_parser = arena::duration::parse)]
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
            size: self.board_size,
            turn_budget: self.time_per_turn,
            startup_budget: self.startup_time,
            turn_cap: self.turn_cap,
        }
    }
}

fn main() -> ExitCode {
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

/// `1GiB`, `512MiB`, `64KiB` or plain bytes.
fn parse_bytes(text: &str) -> Result<u64, String> {
    let split = text.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let scale: u64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" | "kb" => 1 << 10,
        "m" | "mib" | "mb" => 1 << 20,
        "g" | "gib" | "gb" => 1 << 30,
        _ => return Err(format!("'{text}': unknown unit '{unit}' (use KiB, MiB or GiB)")),
    };
    let value: f64 =
        number.trim().parse().map_err(|_| format!("'{text}' is not a size: write it like 1GiB or 512MiB"))?;
    if value < 16.0 * (1 << 20) as f64 / scale as f64 {
        return Err(format!("'{text}' is too little memory for a worker: give it at least 16MiB"));
    }
    Ok((value * scale as f64) as u64)
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Play { game: Game::Trap, player1, player2, games, seed, limits, watch, json } => {
            if games == 0 {
                bail!("--games 0 plays nothing: ask for at least one game");
            }
            let hosting = limits.hosting()?;
            let settings = limits.settings();
            let players = [load(&player1, &hosting, &settings)?, load(&player2, &hosting, &settings)?];
            let names = display_names(&players);
            let config = MatchConfig { settings, games, seed: seed.unwrap_or_else(seeds::fresh), hosting };
            let stdout = std::io::stdout();
            let mut on_game = |game: &matches::MatchGame| {
                if !json {
                    let _ =
                        writeln!(stdout.lock(), "{}", report::game_line(game, games, [&names[0], &names[1]]));
                }
            };
            let mut show_turn = |seats: [usize; 2], state: &_, turn: &arena::referee::trap::Turn| {
                let name = &names[seats[turn.seat.index()]];
                let _ = writeln!(stdout.lock(), "{}", report::turn_view(state, turn, name));
            };
            let watcher: Option<matches::TurnWatcher> = if watch { Some(&mut show_turn) } else { None };
            let result = matches::play([&players[0], &players[1]], &config, &mut on_game, watcher);
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
        Command::Check { path, limits } => {
            let report = check::check(&path, limits.settings(), limits.hosting()?)?;
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

/// Names to show: the players' own names, told apart when they are equal.
fn display_names(players: &[Player; 2]) -> [String; 2] {
    let [a, b] = [players[0].name(), players[1].name()];
    if a == b {
        [format!("{a}#1"), format!("{b}#2")]
    } else {
        [a.to_string(), b.to_string()]
    }
}
