//! `arena bench`: a player against the reference levels.

use arena::game::{Hexapawn, Trap};
use std::process::ExitCode;

use anyhow::{bail, Result};
use arena::{game_rules::GameRules, players::PlayerSpec, seeds};

use super::options::{load, setup, Game, GameArgs, Limits};

/// `arena bench`: the options (the help text is on `Command::Bench`).
#[derive(clap::Args)]
pub(crate) struct BenchArgs {
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
}

pub(crate) fn run(args: BenchArgs) -> Result<ExitCode> {
    let BenchArgs { game, player, games, seed, limits, options } = args;
    let setup = setup(game, &limits, &options)?;
    if !matches!(setup, GameRules::Trap) {
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
    let runs = arena::bench::run::<Trap>(&loaded, games, seed, settings, &hosting);
    arena::outln!("{}", arena::bench::report(loaded.name(), &player.to_string(), &runs, seed));
    Ok(ExitCode::SUCCESS)
}

/// `arena bench` for a game other than Trap.
fn bench_other(
    setup: GameRules,
    spec: &PlayerSpec,
    games: Option<u32>,
    seed: Option<u64>,
    limits: &Limits,
) -> Result<ExitCode> {
    let hosting = limits.hosting()?;
    let player = load(spec, &hosting, &limits.settings())?;
    let seed = seed.unwrap_or_else(seeds::fresh);
    let text = match setup {
        GameRules::Trap => unreachable!("Trap is benched by the Bench arm"),
        GameRules::Solo(settings) => {
            let games = games.unwrap_or(1000);
            if games == 0 {
                bail!("--games 0 plays nothing: ask for at least one world");
            }
            let runs = arena::bench::solo_run(&player, &settings, games, seed, &hosting);
            arena::bench::solo_report(player.name(), &settings, &runs, seed)
        }
        GameRules::Hexapawn(settings) => {
            let games = games.unwrap_or(20);
            if games == 0 {
                bail!("--games 0 plays nothing: ask for at least one game per level");
            }
            let runs = arena::bench::run::<Hexapawn>(&player, games, seed, settings, &hosting);
            arena::bench::hexapawn_report(player.name(), &runs, seed)
        }
    };
    arena::outln!("{text}");
    Ok(ExitCode::SUCCESS)
}
