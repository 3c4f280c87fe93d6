//! `arena check`: is this a working player? Loads it (a library in a
//! worker process unless asked otherwise; a program in its own process),
//! reports what it is, and plays a quick smoke match against Easy (one game
//! in each seat).

use anyhow::{Context, Result};
use player_api::abi::API_VERSION;

use crate::{
    matches::{self, MatchConfig},
    players::{Hosting, Level, Player, PlayerSpec},
    protocol,
    referee::trap::TrapSettings,
    report,
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
    let mut passed = true;
    if games.iter().any(|g| g == "trap") {
        let easy = Player::Builtin(Level::Easy);
        let config = MatchConfig { settings, games: 2, seed: 1, hosting, first_game: 0 };
        let result = matches::play([&player, &easy], &config, &mut |_| {}, None);
        lines.push("smoke test  trap vs easy, one game in each seat:".to_string());
        for game in &result.games {
            lines.push(format!("  {}", report::game_line(game, 2, [player.name(), "easy"])));
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
