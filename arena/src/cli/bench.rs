//! `arena bench`: a player against the reference levels.

use std::process::ExitCode;

use anyhow::{bail, Result};
use arena::{
    bench::{self, LadderReport},
    game_rules::with_rules,
    players::PlayerSpec,
    seeds,
};

use super::options::{load, setup, GameArgs, GameId, Limits};

/// `arena bench`: the options (the help text is on `Command::Bench`).
#[derive(clap::Args)]
pub(crate) struct BenchArgs {
    /// The game.
    #[arg(long, value_enum, default_value_t = GameId::DEFAULT)]
    game: GameId,
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
    let BenchArgs { game, player: spec, games, seed, limits, options } = args;
    let setup = setup(game, &limits, &options)?;
    let solo = setup.id().is_single_player();
    let games = games.unwrap_or(if solo { 1000 } else { 20 });
    if games == 0 {
        let unit = if solo { "one world" } else { "one game per level" };
        bail!("--games 0 plays nothing: ask for at least {unit}");
    }
    let hosting = limits.hosting()?;
    let player = load(&spec, &hosting, &limits.budgets())?;
    let seed = seed.unwrap_or_else(seeds::fresh);
    let name = player.name();
    let text = with_rules!(setup, G, settings => {
        let runs = bench::run::<G>(&player, games, seed, settings, &hosting);
        G::ladder_report(name, &spec.to_string(), &runs, seed)
    }, solo => bench::solo_report(
        name,
        &settings,
        &bench::solo_run(&player, &settings, games, seed, &hosting),
        seed,
    ));
    arena::outln!("{text}");
    Ok(ExitCode::SUCCESS)
}
