//! `arena check`: is this a working player? Loads it (a library in a
//! worker process unless asked otherwise; a program in its own process),
//! reports what it is, and plays a quick smoke match against Easy (one game
//! in each seat).

use anyhow::{Context, Result};
use player_api::abi::API_VERSION;

use crate::{
    game::GameId,
    players::{Hosting, Level, Player, PlayerSpec},
    protocol,
    games::trap::referee::TrapSettings,
    sandbox::{self, Sandbox},
    two_player::{self, MatchConfig},
};

/// The findings of a check; `passed` is false when the smoke games showed a fault.
pub struct CheckReport {
    pub text: String,
    pub passed: bool,
}

/// Checks the player `spec` names. A player that does not load is an error
/// (the message says why and what to do).
pub fn check(spec: &PlayerSpec, settings: TrapSettings, hosting: Hosting) -> Result<CheckReport> {
    let player = Player::load(spec, &hosting, settings.startup_budget)
        .with_context(|| format!("cannot load player '{spec}'"))?;
    let games = player.games();
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
    }
    lines.push(format!("games       {}", games.join(", ")));
    lines.extend(sandbox_lines(&player, &hosting));
    let mut passed = true;
    if games.iter().any(|g| g == GameId::Trap.name()) {
        let easy = Player::Builtin(Level::Easy);
        let config = MatchConfig { settings, games: 2, seed: 1, hosting, first_game: 0, concurrency: 1 };
        let result = two_player::play([&player, &easy], &config, &mut |_| {}, None);
        lines.push("smoke test  trap vs easy, one game in each seat:".to_string());
        for game in &result.games {
            lines.push(format!("  {}", crate::games::trap::report::line(game, 2, [player.name(), "easy"])));
            if let Some((0, fault)) = game.fault() {
                passed = false;
                lines.push(format!("  problem: {} lost by a fault: {fault}", player.name()));
            }
        }
    } else {
        passed = false;
        lines.push("problem: the player plays no game this arena knows".to_string());
    }
    lines.push(if passed { "ok".to_string() } else { "FAILED".to_string() });
    Ok(CheckReport { text: lines.join("\n"), passed })
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
