//! Options several commands share: the game, its settings, the limits a
//! player runs under, and loading a player with them.

use std::time::Duration;

use anyhow::{bail, Context, Result};
use arena::{
    clock::Clock,
    game_rules::GameRules,
    isolation::{environment, WorkerLimits},
    players::{Hosting, Player, PlayerSpec},
    games::{hexapawn::referee::HexapawnSettings, trap::referee::TrapSettings},
    sandbox::Sandbox,
    solo::{GameOptions, SoloSettings},
};
use player_api::trap::{DEFAULT_SIZE, DEFAULT_TURN_CAP, MAX_SIZE, MIN_SIZE};

pub(crate) use arena::game::GameId as Game;

/// The settings of `game` from the options given; an option the game does
/// not have is an error.
pub(crate) fn setup(game: Game, limits: &Limits, args: &GameArgs) -> Result<GameRules> {
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
        clock: limits.clock,
    };
    match game {
        Game::Trap => Ok(GameRules::Trap),
        Game::Hexapawn => Ok(GameRules::Hexapawn(HexapawnSettings {
            turn_budget: limits.time_per_turn,
            startup_budget: limits.startup_time,
            clock: limits.clock,
        })),
        _ => match SoloSettings::build(game, &options) {
            Ok(Some(settings)) => Ok(GameRules::Solo(settings)),
            Ok(None) => unreachable!("{name} is a single-player game"),
            Err(e) => bail!("{}: {}", flag(e.key), e.message),
        },
    }
}

/// Options of the new games (each an error for a game it does not apply to).
#[derive(clap::Args)]
pub(crate) struct GameArgs {
    /// Wumpus World: the rules preset.
    #[arg(long, value_parser = ["aima", "project"])]
    preset: Option<String>,
    /// Magic Forest: the size of the last, largest forest (3 to 8; default 7).
    #[arg(long)]
    largest_forest: Option<u8>,
}

#[derive(clap::Args)]
pub(crate) struct Limits {
    /// Budget per turn (move and throw together), on --clock: 5s, 500ms, 0.1s.
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
    /// Run players' workers in the sandbox: only their own files, no
    /// network, every process they start dies with them (docs/security.md).
    /// `off` is for trusted players on a machine without Landlock.
    #[arg(long, value_enum, default_value_t = Sandbox::On)]
    sandbox: Sandbox,
    /// The clock a turn is charged on. `wall`: the time from request to
    /// answer. `cpu`: the CPU time the player used, as the course's referee
    /// counted it (pick it on a shared or loaded machine); a player that
    /// sleeps or blocks is still killed at 3 x the budget + grace. Both
    /// times are recorded either way.
    #[arg(long, value_enum, default_value_t = Clock::Wall)]
    clock: Clock,
    #[command(flatten)]
    pass_env: PassEnv,
}

/// `--pass-env NAME`, for every command that runs players' workers.
#[derive(clap::Args)]
pub(crate) struct PassEnv {
    /// Pass the variable NAME of the arena's environment to the players
    /// (repeatable; an unset one is not passed). A player's process gets
    /// only PATH, the locale (LANG, LANGUAGE, LC_*), TZ and PYTHONPATH
    /// (absolute folders, never the working directory) of the arena's
    /// environment, and its scratch folder as HOME and TMPDIR: never the
    /// arena's secrets (docs/security.md).
    #[arg(long = "pass-env", value_name = "NAME", value_parser = pass_name)]
    pub(crate) names: Vec<String>,
}

/// A `--pass-env` name, checked.
fn pass_name(text: &str) -> Result<String, String> {
    environment::check_pass_name(text).map(|()| text.to_string())
}

impl Limits {
    pub(crate) fn hosting(&self) -> Result<Hosting> {
        let pass_env = self.pass_env.names.clone();
        if self.in_process && !self.isolate_builtins {
            return Ok(Hosting::in_process().with_workers(self.sandbox, self.clock, pass_env));
        }
        let mut limits = WorkerLimits {
            memory_bytes: self.memory_limit,
            grace: self.grace,
            sandbox: self.sandbox,
            clock: self.clock,
            ..WorkerLimits::new().map_err(anyhow::Error::msg)?
        };
        limits.pass_env.extend(pass_env);
        Ok(Hosting {
            isolate_libraries: !self.in_process,
            isolate_builtins: self.isolate_builtins,
            limits: Some(limits),
        })
    }

    pub(crate) fn settings(&self) -> TrapSettings {
        TrapSettings {
            size: self.board_size.unwrap_or(DEFAULT_SIZE),
            turn_budget: self.time_per_turn,
            startup_budget: self.startup_time,
            turn_cap: self.turn_cap.unwrap_or(DEFAULT_TURN_CAP),
            clock: self.clock,
        }
    }
}

pub(crate) fn load(spec: &PlayerSpec, hosting: &Hosting, settings: &TrapSettings) -> Result<Player> {
    Player::load(spec, hosting, settings.startup_budget)
        .with_context(|| format!("cannot load player '{spec}'"))
}
