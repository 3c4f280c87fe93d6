//! `arena check`: is this a working player? Loads it (a library in a
//! worker process unless asked otherwise; a program in its own process),
//! reports what it is, and smoke-tests every game it plays: a quick match
//! against Easy (one game in each seat) of a two-player game, two worlds of
//! a single-player one. The server checks a submission with the same
//! games ([`SEED`]), so what passes at home passes there.
//!
//! A check refuses only a player that cannot play: one that does not load,
//! or makes no legal move in a game's smoke games (each lost by its own
//! fault before a move of its own was played). A fault after legal moves
//! is a warning: that game is lost, as a graded one would be.

use std::fmt;

use anyhow::{Context, Result};
use player_api::{
    abi::{AbiVersion, API_VERSION},
    Seat,
};

use crate::{
    game_rules::Budgets,
    games::rules::GameRules,
    play::fault::FaultKind,
    play::solo::{self, SoloReferee, SoloSettings},
    play::two_player::{self, MatchConfig, TwoPlayerGame},
    players::protocol,
    players::{Hosting, Level, Player, PlayerSpec},
    sandbox::{self, Sandbox},
    with_rules,
};

/// The findings of a check; `passed` is false when the player cannot play
/// (`failed`), or the machine spoiled a smoke game (`spoiled`).
pub struct CheckReport {
    pub text: String,
    pub passed: bool,
    /// It cannot play: it made no legal move in the smoke games of a game
    /// it plays, or plays none of the games checked.
    pub failed: bool,
    /// Smoke games in which the machine kept the player from a core past
    /// the bound (`Fault::Overloaded`): with none lost by the player's own
    /// fault, the check says nothing of the player, neither passed nor
    /// failed, and is to be made again later.
    pub spoiled: usize,
    /// The games the player says it plays.
    pub plays: Vec<String>,
}

/// The seed of the smoke games, `arena check`'s and the server's check's
/// alike: public, so a student can play the same games at home.
pub const SEED: u64 = 1;

/// Checks the player `spec` names, loaded within `budgets`' start-up
/// budget, and smoke-tests it at each of `games` it plays, on games seeded
/// `seed`. A player that does not load is an error (the message says why
/// and what to do).
pub fn check(
    spec: &PlayerSpec,
    games: &[GameRules],
    budgets: Budgets,
    hosting: Hosting,
    seed: u64,
) -> Result<CheckReport> {
    let player = Player::load(spec, &hosting, budgets.startup)
        .with_context(|| format!("cannot load player '{spec}'"))?;
    let plays = player.games();
    let mut lines = match &player {
        Player::Program { launch, .. } => vec![
            format!("program     {spec} (in its own process)"),
            format!("runs        {}", launch.command_line()),
            format!("protocol    {}", protocol::VERSION),
        ],
        _ => {
            let where_ =
                if matches!(player, Player::Isolated { .. }) { "in a worker process" } else { "in process" };
            vec![format!("library     {spec} ({where_})")]
        }
    };
    lines.push(format!("name        {}", player.name()));
    lines.push(format!("author      {}", player.author()));
    if !matches!(player, Player::Program { .. }) {
        lines.push(format!(
            "player-api  {} (compatible with this arena's {API_VERSION})",
            player.api_version()
        ));
        lines.extend(player.abi_version().map(abi_line));
    }
    lines.push(format!("games       {}", plays.join(", ")));
    lines.extend(sandbox_lines(&player, &hosting));
    let played: Vec<&GameRules> = games.iter().filter(|g| plays.iter().any(|p| p == g.name())).collect();
    lines.push(format!(
        "smoke games seed {seed}, time control {}, on the {} clock",
        budgets.turn,
        budgets.clock.name()
    ));
    let Smoke { cannot_play: mut failed, spoiled, faults } =
        smoke(&player, &played, &hosting, seed, &mut lines);
    if played.is_empty() {
        failed = true;
        let checked: Vec<&str> = games.iter().map(|g| g.name()).collect();
        lines.push(match plays.as_slice() {
            [] => "problem: the player names no game it plays".to_string(),
            _ => format!(
                "problem: the player plays {}, none of the games checked ({})",
                plays.join(", "),
                checked.join(", ")
            ),
        });
    }
    let passed = !failed && spoiled == 0;
    lines.push(match (failed, spoiled) {
        (true, _) => "FAILED".to_string(),
        (false, 0) if faults == 0 => "ok".to_string(),
        (false, 0) => format!(
            "ok: it plays, with {faults} smoke game(s) lost by its fault (warnings above: such a game is lost, graded or not)"
        ),
        (false, _) => "NOT JUDGED: the machine was overloaded (not the player's fault): \
                          check it again when the machine is less busy"
            .to_string(),
    });
    Ok(CheckReport { text: lines.join("\n"), passed, failed, spoiled, plays })
}

/// `arena check PLAYER --params`: the parameters the player `spec` names
/// declares (name, type, default, range), one a line, loaded as `check`
/// loads it; no game is played.
pub fn params(spec: &PlayerSpec, budgets: Budgets, hosting: Hosting) -> Result<String> {
    let player = Player::load(spec, &hosting, budgets.startup)
        .with_context(|| format!("cannot load player '{spec}'"))?;
    Ok(params_text(&player))
}

/// The parameters `player` declares, as `arena check --params` lists them.
pub fn params_text(player: &Player) -> String {
    let params = player.params();
    if params.is_empty() {
        let why = match player.abi_version() {
            Some(version) if version < AbiVersion::V2 => " (a library of ABI v1 cannot declare any)",
            _ => "",
        };
        return format!("{} takes no parameters{why}", player.name());
    }
    let width = params.iter().map(|p| p.name.len()).max().unwrap_or(0).max(4);
    let mut lines = vec![format!("{:width$}  type   default  range", "name")];
    for p in &params {
        let default = p.default_value().to_string();
        lines.push(format!("{:width$}  {:5}  {default:7}  {}", p.name, p.kind.name(), p.range()));
    }
    lines.join("\n")
}

/// How a player's smoke games went.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Smoke {
    /// Games it lost by a fault of its own.
    pub faults: usize,
    /// In some game, it made no legal move in any of its smoke games (see
    /// [`judge`]): it cannot play.
    pub cannot_play: bool,
    /// Games the machine spoiled.
    pub spoiled: usize,
}

/// Smoke-tests `player` at each of `games` (a match against Easy, or two
/// worlds), their lines added to `lines`; how it did over all of them.
pub(crate) fn smoke(
    player: &Player,
    games: &[&GameRules],
    hosting: &Hosting,
    seed: u64,
    lines: &mut Vec<String>,
) -> Smoke {
    let mut all = Smoke::default();
    for rules in games {
        let smoke = with_rules!(rules, G, settings => smoke_match::<G>(player, *settings, hosting, seed, lines),
            solo => smoke_series::<G>(player, settings, hosting, seed, lines));
        all.faults += smoke.faults;
        all.cannot_play |= smoke.cannot_play;
        all.spoiled += smoke.spoiled;
    }
    all
}

/// The ABI version a library was built for, and what it lacks of the
/// current one's (it plays without it, with defaults).
fn abi_line(version: AbiVersion) -> String {
    let lacks = version.lacks();
    if lacks.is_empty() {
        format!("abi         v{} (current)", version.number())
    } else {
        format!(
            "abi         v{} (lacks: {}; rebuild against this arena's player-api {API_VERSION} to have them)",
            version.number(),
            lacks.join(", ")
        )
    }
}

/// A smoke match of `G` against Easy, one game in each seat, its lines
/// added to `lines`; how `player` did.
fn smoke_match<G: TwoPlayerGame>(
    player: &Player,
    settings: G::Settings,
    hosting: &Hosting,
    seed: u64,
    lines: &mut Vec<String>,
) -> Smoke {
    let easy = Player::Builtin(Level::Easy);
    let config = MatchConfig {
        settings,
        games: 2,
        seed,
        hosting: hosting.clone(),
        first_game: 0,
        concurrency: 1,
        controls: [None; 2],
        live: None,
    };
    // A game the machine spoiled says nothing of the player: the next would
    // be spoiled as well, so the check ends there, to be made again.
    let mut games = Vec::new();
    let never = std::sync::atomic::AtomicBool::new(false);
    two_player::play_until(
        [player, &easy],
        &config,
        &never,
        &mut |game| {
            let spoiled = two_player::spoiled::<G>(&game.record);
            games.push(game);
            if spoiled {
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        },
        None,
    );
    lines.push(format!("smoke test  {} vs easy, one game in each seat:", G::ID));
    let judged = games.iter().map(|game| {
        let seat = if game.seats[0] == 0 { Seat::One } else { Seat::Two };
        let spoiled = two_player::spoiled::<G>(&game.record);
        SmokeGame {
            line: G::line(game, 2, [player.name(), "easy"]),
            moves: G::clock(&game.record, seat).0,
            spoiled,
            fault: game.failure_text().filter(|(who, _)| *who == 0 && !spoiled).map(|(_, fault)| fault),
        }
    });
    judge(player.name(), G::ID, judged.collect(), lines)
}

/// A smoke series of a single-player game: its first two worlds, its lines
/// added to `lines`; how `player` did.
fn smoke_series<G: SoloReferee>(
    player: &Player,
    settings: &SoloSettings<G>,
    hosting: &Hosting,
    seed: u64,
    lines: &mut Vec<String>,
) -> Smoke {
    let series = solo::play_series::<G>(player, settings, (0, 2), seed, (hosting, 1), None, &mut |_| {});
    lines.push(format!("smoke test  {}, two worlds ({}):", G::ID, solo::describe::<G>(settings)));
    let judged = series.games.iter().map(|game| {
        let spoiled = game.result.fault.as_deref().is_some_and(FaultKind::is_machine);
        // An invalid action the rules end a game on is its last step
        // (Wumpus World records it): a step taken, not a move made.
        let invalid = u32::from(G::played(&game.record).illegal);
        SmokeGame {
            line: crate::report::solo::line(game, 2, player.name()),
            moves: game.result.steps.saturating_sub(invalid),
            spoiled,
            fault: game.result.fault.as_ref().filter(|_| !spoiled).map(|_| game.result.reason.clone()),
        }
    });
    judge(player.name(), G::ID, judged.collect(), lines)
}

/// One smoke game, as the check judges it.
struct SmokeGame {
    /// What `arena play` says of it.
    line: String,
    /// The moves (steps) of the player's the game recorded: a two-player
    /// game records only legal ones.
    moves: u32,
    /// The machine spoiled it.
    spoiled: bool,
    /// The fault of the player's that lost it, as people read it.
    fault: Option<String>,
}

/// The smoke games of `game` that `player` played, their lines added to
/// `lines`. It cannot play `game` when it made no legal move in any of
/// them: each ended by its own fault before a move of its own was played.
/// A fault after legal moves is a warning: the player plays, and loses
/// the game it faults in. A game the machine spoiled says nothing.
fn judge(player: &str, game: impl fmt::Display, games: Vec<SmokeGame>, lines: &mut Vec<String>) -> Smoke {
    let spoiled = games.iter().filter(|g| g.spoiled).count();
    let faults = games.iter().filter(|g| g.fault.is_some()).count();
    let cannot_play =
        spoiled == 0 && !games.is_empty() && games.iter().all(|g| g.moves == 0 && g.fault.is_some());
    let label = if cannot_play { "problem" } else { "warning" };
    for smoke in &games {
        lines.push(format!("  {}", smoke.line));
        if let Some(fault) = &smoke.fault {
            lines.push(format!("  {label}: {player} lost by a fault: {fault}"));
        }
    }
    if cannot_play {
        lines.push(format!(
            "  problem: {player} made no legal move in its smoke games of {game}: it cannot play it"
        ));
    }
    Smoke { faults, cannot_play, spoiled }
}

/// Which protections the player's workers run under.
fn sandbox_lines(player: &Player, hosting: &Hosting) -> Vec<String> {
    let in_worker = matches!(player, Player::Isolated { .. } | Player::Program { .. });
    let Some(limits) = hosting.limits.as_ref().filter(|_| in_worker) else {
        return vec!["sandbox     none: it runs inside the arena's process".to_string()];
    };
    if limits.sandbox == Sandbox::Off {
        return vec![
            "sandbox     off: it runs with your user's rights (files, network, processes)".to_string()
        ];
    }
    let applied = match sandbox::support(&limits.program) {
        Ok(applied) => applied,
        Err(why) => return vec![format!("sandbox     unavailable: {why}")],
    };
    let identity = if applied.user_namespace { ", in a user namespace of its own" } else { "" };
    let processes = match applied.pids_max {
        Some(_) => format!("at most {} (its own pids cgroup)", limits.processes),
        None => format!("at most {} for your user (RLIMIT_NPROC)", limits.processes),
    };
    vec![
        format!("sandbox     on{identity}, no capabilities"),
        format!(
            "  files     Landlock (kernel ABI {}): reads its own files and the system's, writes only a scratch folder",
            applied.landlock_abi
        ),
        "  network   none: a network namespace with no interfaces; TCP connect and bind denied".to_string(),
        format!("  processes a PID namespace: all die with the worker; {processes}"),
        format!("  calls     seccomp: {} system calls denied (ptrace, mount, bpf, namespaces, ...): EPERM", applied.denied_calls),
    ]
}
