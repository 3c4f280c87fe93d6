use std::{
    io::{IsTerminal, Write},
    path::PathBuf,
    process::ExitCode,
    time::Duration,
};

use anyhow::{bail, Context, Result};
use arena::{
    check,
    matches::{self, MatchConfig},
    players::{Player, PlayerSpec},
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
}

impl Limits {
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
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Play {
            game: Game::Trap,
            player1,
            player2,
            games,
            seed,
            limits,
            watch,
            json,
        } => {
            if games == 0 {
                bail!("--games 0 plays nothing: ask for at least one game");
            }
            let players = [load(&player1)?, load(&player2)?];
            let names = display_names(&players);
            let config = MatchConfig {
                settings: limits.settings(),
                games,
                seed: seed.unwrap_or_else(seeds::fresh),
            };
            let stdout = std::io::stdout();
            let mut on_game = |game: &matches::MatchGame| {
                if !json {
                    let _ = writeln!(
                        stdout.lock(),
                        "{}",
                        report::game_line(game, games, [&names[0], &names[1]])
                    );
                }
            };
            let mut show_turn =
                |seats: [usize; 2], state: &_, turn: &arena::referee::trap::Turn| {
                    let name = &names[seats[turn.seat.index()]];
                    let _ = writeln!(stdout.lock(), "{}", report::turn_view(state, turn, name));
                };
            let watcher: Option<matches::TurnWatcher> =
                if watch { Some(&mut show_turn) } else { None };
            let result = matches::play([&players[0], &players[1]], &config, &mut on_game, watcher);
            if json {
                println!(
                    "{}",
                    report::json(&result, [player1.to_string(), player2.to_string()])
                );
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
            let report = check::check(&path, limits.settings())?;
            println!("{}", report.text);
            Ok(if report.passed {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Command::New {
            name,
            dir,
            api_path,
        } => {
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

fn load(spec: &PlayerSpec) -> Result<Player> {
    Player::load(spec).with_context(|| format!("cannot load player '{spec}'"))
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
