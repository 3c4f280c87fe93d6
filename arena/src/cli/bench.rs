//! `arena bench`: a player against the reference levels.

use std::{path::PathBuf, process::ExitCode};

use anyhow::{bail, Context, Result};
use arena_core::players::params::parse_assignment;
use arena_core::{
    analysis::Budget,
    play::seeds,
    play::time_control::TimeControl,
    players::memory::{self, MemoryDir},
    players::PlayerSpec,
    strength::bench::time_sweep,
    strength::bench::{self, LadderReport},
    with_rules,
};

use super::options::{load_bot, setup, GameArgs, GameId, Limits, PlayerControls};
use super::play::{serve_live, LAST_LOOK};

/// `arena bench`: against the levels, or `arena bench sprt` (the help
/// text is on `Command::Bench`).
#[derive(clap::Args)]
pub(crate) struct Bench {
    #[command(subcommand)]
    versus: Option<Versus>,
    #[command(flatten)]
    ladder: BenchArgs,
}

/// What `arena bench` measures a player against, when not the levels.
#[derive(clap::Subcommand)]
enum Versus {
    /// Is NEW stronger than OLD? A sequential test over seat-swapped pairs
    ///
    /// A sequential probability ratio test over seat-swapped game pairs
    /// on shared seeds: after each pair, the log-likelihood ratio of the
    /// pentanomial pair counts for H1 (NEW is at least --elo1 stronger)
    /// against H0 (at most --elo0) is checked against its bounds,
    /// ln(beta/(1-alpha)) and ln((1-beta)/alpha). It stops at a bound (H1
    /// or H0 accepted) or at --max-games (inconclusive); Ctrl-C prints
    /// where it stands. Elo is logistic unless --elo-model normalized.
    /// Two-player games only (docs/sprt.md).
    ///
    /// Example: arena bench sprt target/release/libmy_bot.so old/libmy_bot.so --time-per-turn 100ms
    ///
    /// Example: arena bench sprt hard medium --elo0 0 --elo1 50 --seed 1 --json
    Sprt(super::sprt::SprtArgs),
}

/// `arena bench PLAYER`: the options.
#[derive(clap::Args)]
pub(crate) struct BenchArgs {
    /// The game.
    #[arg(long, value_enum, default_value_t = GameId::DEFAULT)]
    game: GameId,
    /// The player: a library path (or a built-in name).
    #[arg(required = true)]
    player: Option<PlayerSpec>,
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
    controls: PlayerControls,
    /// Set a parameter of the player under test (repeatable): one it
    /// declares (`arena check PLAYER --params`). The levels play as they are.
    #[arg(long = "param", value_name = "NAME=VALUE", value_parser = parse_assignment)]
    params: Vec<(String, String)>,
    /// What time buys: play the ladder once per time control listed, each
    /// the player's own (the levels play at --tc2's, or --tc's), and print its score
    /// against each level at each, and where it matches each level
    /// (two-player games). Example: 0.05s,0.1s,0.2s,0.5s,1s.
    #[arg(long, value_name = "CONTROLS", value_delimiter = ',', conflicts_with = "tc1")]
    tc_sweep: Vec<TimeControl>,
    /// Watch the games in a browser as they are played: serves the replay
    /// viewer on 127.0.0.1 at a free port (printed on stderr): the games in
    /// progress listed, pick one (docs/replays.md).
    #[arg(long, conflicts_with = "tc_sweep")]
    live: bool,
    /// With --tc-sweep: also write the table and a plot to this HTML page.
    #[arg(long, value_name = "FILE", requires = "tc_sweep")]
    html: Option<PathBuf>,
    /// Also analyse every game (docs/analysis.md) and print the player's
    /// mean accuracy against each level (two-player games). The lost
    /// games' turning points are printed either way.
    #[arg(long, conflicts_with = "tc_sweep")]
    analyse: bool,
    /// Keep the player's memory across matches in this folder (made if
    /// missing; a store of at most 1 MiB, as `arena play --memory`): it
    /// gets back what it handed back at the end of its last match, and
    /// keeps what it hands back after each level's (a learner, such as
    /// menace, goes on learning run after run). The levels never learn.
    #[arg(long, value_name = "DIR", conflicts_with = "tc_sweep")]
    memory: Option<PathBuf>,
    #[command(flatten)]
    options: GameArgs,
}

pub(crate) fn run(bench: Bench) -> Result<ExitCode> {
    let args = match bench.versus {
        Some(Versus::Sprt(args)) => return super::sprt::run(args),
        None => bench.ladder,
    };
    let BenchArgs {
        game,
        player,
        games,
        seed,
        limits,
        controls,
        params,
        live,
        tc_sweep,
        html,
        analyse,
        memory,
        options,
    } = args;
    let spec = player.context("arena bench: name the player (a library, a built-in level, python:PATH)")?;
    let setup = setup(game, &limits, &options)?;
    let solo = setup.id().is_single_player();
    let games = games.unwrap_or(if solo { 1000 } else { 20 });
    if games == 0 {
        let unit = if solo { "one world" } else { "one game per level" };
        bail!("--games 0 plays nothing: ask for at least {unit}");
    }
    let hosting = limits.hosting()?;
    let player = load_bot(&spec, &params, &hosting, &limits.budgets())?;
    let seed = seed.unwrap_or_else(seeds::fresh);
    let name = player.name();
    if solo && controls.controls().iter().any(Option::is_some) {
        bail!("--tc1, --tc2: {} is a single-player game; time its player with --tc", setup.id());
    }
    if solo && memory.is_some() {
        bail!("--memory: {} is a single-player game; a memory is kept across two-player matches", setup.id());
    }
    if solo && analyse {
        bail!("--analyse: {} is a single-player game; analyse its replays with `arena analyse`", setup.id());
    }
    if !tc_sweep.is_empty() {
        if solo {
            bail!(
                "--tc-sweep: {} is a single-player game; the sweep plays the two-player ladder",
                setup.id()
            );
        }
        let levels = controls.controls()[1];
        let points = with_rules!(setup, G, settings => {
            time_sweep::run::<G>(&player, &tc_sweep, levels, games, seed, settings, &hosting)
        }, solo => unreachable!("checked above: {settings:?}"));
        let levels_control = levels.unwrap_or(limits.budgets().turn);
        let table = time_sweep::report(name, &points, games, levels_control, seed);
        if let Some(path) = html {
            std::fs::write(&path, time_sweep::html(name, &points, &table))
                .with_context(|| format!("cannot write the page {}", path.display()))?;
        }
        arena_core::outln!("{table}");
        return Ok(ExitCode::SUCCESS);
    }
    let live = live.then(|| serve_live(&[name.to_string()], &[spec.to_string()])).transpose()?;
    let fed = live.as_ref().map(|(_, players)| players);
    let stores = memory.as_deref().map(|dir| MemoryDir::open(dir, memory::DEFAULT_BOUND)).transpose();
    let stores = stores.map_err(anyhow::Error::msg)?;
    let warn = |why: &str| eprintln!("warning: {why}");
    let remember = stores.as_ref().map(|stores| bench::Remember {
        stores,
        name: memory::store_name(&spec),
        warn: &warn,
    });
    let text = with_rules!(setup, G, settings => {
        let runs = bench::run::<G>(&player, games, seed, settings, &hosting, controls.controls(), bench::Along { live: fed, memory: remember.as_ref() });
        let mut text = G::ladder_report(name, &spec.to_string(), &runs, seed);
        text.push_str(&bench::turning_points::report(name, &runs, Budget::default(), analyse));
        text
    }, solo => bench::solo_report::<G>(
        name,
        &settings,
        &bench::solo_run::<G>(&player, &settings, games, seed, &hosting, fed),
        seed,
    ));
    if let Some((server, _)) = &live {
        server.close(LAST_LOOK);
    }
    arena_core::outln!("{text}");
    Ok(ExitCode::SUCCESS)
}
