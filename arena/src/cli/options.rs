//! Options several commands share: the game, its own rules options, the
//! budgets and limits a player runs under, and loading a player with them.

use std::time::Duration;

use anyhow::{Context, Result};
use arena_core::players::params::parse_assignment;
use arena_core::{
    game_rules::{Budgets, GameOptions, OptionKind, OptionValue},
    games::rules::{every_option, options_of, GameRules},
    play::clock::Clock,
    play::time_control::TimeControl,
    players::isolation::{environment, WorkerLimits},
    players::{Hosting, Player, PlayerSpec},
    sandbox::Sandbox,
};

pub(crate) use arena_core::game::GameId;

/// The settings of `game` from the options given; an option the game does
/// not have is an error (`GameRules::build`: the one ownership check).
pub(crate) fn setup(game: GameId, limits: &Limits, args: &GameArgs) -> Result<GameRules> {
    GameRules::build(game, &args.options(), limits.budgets()).map_err(|e| anyhow::anyhow!(e.flag_line()))
}

/// Each game's own rules options: a flag per option (`--board-size`), made
/// from the games' declarations (`GameSettings::OPTIONS` in
/// `games/<game>/mod.rs`); each is an error for a game that does not have it.
pub(crate) struct GameArgs {
    options: GameOptions,
}

impl GameArgs {
    /// The options as every game reads them.
    pub(crate) fn options(&self) -> GameOptions {
        self.options.clone()
    }
}

impl clap::Args for GameArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        every_option().into_iter().fold(cmd, |cmd, (option, games)| {
            // "trap: board size N (N x N), 3 to 8; default 7; intuitive-ai: ..."
            let help = games
                .iter()
                .filter_map(|&g| {
                    options_of(g).iter().find(|o| o.key == option.key).map(|o| format!("{g}: {}", o.help))
                })
                .collect::<Vec<_>>()
                .join("; ");
            let arg = clap::Arg::new(option.key)
                .long(option.key.replace('_', "-"))
                .value_name(option.key.to_uppercase())
                .help(help);
            cmd.arg(match option.kind {
                OptionKind::Number => arg.value_parser(clap::value_parser!(u64)),
                OptionKind::Word(words) => arg.value_parser(clap::builder::PossibleValuesParser::new(words)),
            })
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for GameArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut options = GameOptions::default();
        for (option, _) in every_option() {
            let value = match option.kind {
                OptionKind::Number => matches.get_one::<u64>(option.key).map(|&n| OptionValue::Number(n)),
                OptionKind::Word(_) => {
                    matches.get_one::<String>(option.key).map(|w| OptionValue::Word(w.clone()))
                }
            };
            if let Some(value) = value {
                options
                    .set(option, value)
                    .map_err(|e| clap::Error::raw(clap::error::ErrorKind::ValueValidation, e))?;
            }
        }
        Ok(GameArgs { options })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = GameArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

#[derive(clap::Args)]
pub(crate) struct Limits {
    /// How each turn (move and throw together) is timed, on --clock, for
    /// both players: a budget per turn (5s, 500ms, 0.1s; what a turn leaves
    /// unused is lost, as in the course), or a time bank with an increment
    /// (60s+1s: starts at 60 s, each turn's time is charged to it, then it
    /// gains 1 s; 60s+1s,cap=5s also caps each turn at 5 s).
    #[arg(long, visible_alias = "tc", value_name = "CONTROL", default_value = "5s")]
    time_per_turn: TimeControl,
    /// Budget for a player's start of game (new_game).
    #[arg(long, default_value = "10s", value_parser = arena_core::report::units::parse_duration)]
    startup_time: Duration,
    /// Load player libraries into the arena's own process instead of one
    /// worker process each: faster, but a crash or hang in a player then
    /// takes the arena down, and a timeout is only noticed after the fact.
    #[arg(long)]
    in_process: bool,
    /// Run the built-in bots in worker processes too (to measure isolation).
    #[arg(long, hide = true)]
    isolate_builtins: bool,
    /// Memory cap per worker process (address space): 1GiB, 512MiB.
    #[arg(long, default_value = "1GiB", value_parser = arena_core::report::units::parse_bytes)]
    memory_limit: u64,
    /// How far past its budget a turn (or start-up) may go, on --clock,
    /// before it is lost: 0s to 5s (the course's referee allowed 1s on 5s:
    /// --grace 1s). A player that has not answered is killed 100 ms later.
    #[arg(long, default_value = "0s", value_parser = arena_core::play::clock::parse_grace)]
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

/// `--tc1`, `--tc2`: each player's own time control, for the commands that
/// play two named players (time odds: is my bot at 0.5 s as strong as Hard
/// at 5 s?).
#[derive(clap::Args, Clone, Copy)]
pub(crate) struct PlayerControls {
    /// The first player's own time control (as --tc), instead of --tc's.
    #[arg(long, value_name = "CONTROL")]
    tc1: Option<TimeControl>,
    /// The second player's (in `bench`: the levels') own time control.
    #[arg(long, value_name = "CONTROL")]
    tc2: Option<TimeControl>,
}

impl PlayerControls {
    /// Each player's own control, in the order named.
    pub(crate) fn controls(&self) -> [Option<TimeControl>; 2] {
        [self.tc1, self.tc2]
    }
}

/// `--param1 NAME=VALUE` (or `--param`) and `--param2`: each player's
/// parameters, in the order the players are named (as `--tc1`, `--tc2`).
#[derive(clap::Args)]
pub(crate) struct PlayerParams {
    /// Set a parameter of the first player (repeatable; `--param` is the
    /// same): one it declares (`arena check PLAYER --params` lists them,
    /// with their types and ranges); the others keep their defaults.
    #[arg(long = "param1", visible_alias = "param", value_name = "NAME=VALUE", value_parser = parse_assignment)]
    param1: Vec<(String, String)>,
    /// Set a parameter of the second player (repeatable).
    #[arg(long = "param2", value_name = "NAME=VALUE", value_parser = parse_assignment)]
    param2: Vec<(String, String)>,
}

impl PlayerParams {
    /// Each player's parameters, in the order named.
    pub(crate) fn params(&self) -> [&[(String, String)]; 2] {
        [&self.param1, &self.param2]
    }
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
            return Ok(Hosting::in_process().with_workers(self.sandbox, self.clock, self.grace, pass_env));
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

    /// The budgets every game has.
    pub(crate) fn budgets(&self) -> Budgets {
        Budgets { turn: self.time_per_turn, startup: self.startup_time, clock: self.clock, grace: self.grace }
    }
}

/// [`load_with`] for the commands that play many games at once (`bench`,
/// `bench sprt`): a person is refused, pointed to `arena play`.
pub(crate) fn load_bot(
    spec: &PlayerSpec,
    params: &[(String, String)],
    hosting: &Hosting,
    budgets: &Budgets,
) -> Result<Player> {
    if *spec == PlayerSpec::Person {
        anyhow::bail!("'{spec}': a person plays with `arena play` (for example: arena play human hard)");
    }
    load_with(spec, params, hosting, budgets)
}

/// Loads the player `spec` names, its start-up within `budgets.startup`.
pub(crate) fn load(spec: &PlayerSpec, hosting: &Hosting, budgets: &Budgets) -> Result<Player> {
    Player::load(spec, hosting, budgets.startup).with_context(|| format!("cannot load player '{spec}'"))
}

/// Loads the player `spec` names with parameters `params` set (each checked
/// against what it declares: one line naming the one that is not).
pub(crate) fn load_with(
    spec: &PlayerSpec,
    params: &[(String, String)],
    hosting: &Hosting,
    budgets: &Budgets,
) -> Result<Player> {
    let player = load(spec, hosting, budgets)?;
    if params.is_empty() {
        return Ok(player);
    }
    player.with_params(params).map_err(|why| anyhow::anyhow!("{why}"))
}
