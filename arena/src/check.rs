//! `arena check`: is this file a working player? Loads it (in a worker
//! process unless asked otherwise), reports what it is, and plays a quick
//! smoke match against Easy (one game in each seat).

use std::path::Path;

use player_api::abi::API_VERSION;

use crate::{
    matches::{self, MatchConfig},
    players::{Hosting, Level, Player, PlayerSpec},
    plugin::LoadError,
    referee::trap::TrapSettings,
    report,
};

/// The findings of a check; `passed` is false when the smoke games showed a fault.
pub struct CheckReport {
    pub text: String,
    pub passed: bool,
}

/// Checks the library at `path`. A library that does not load is an error
/// (the message says why and what to do).
pub fn check(path: &Path, settings: TrapSettings, hosting: Hosting) -> Result<CheckReport, LoadError> {
    let player = Player::load(&PlayerSpec::Library(path.to_path_buf()), &hosting, settings.startup_budget)?;
    let games = player.games();
    let where_ = if matches!(player, Player::Isolated { .. }) { "in a worker process" } else { "in process" };
    let mut lines = vec![
        format!("library     {} ({where_})", path.display()),
        format!("name        {}", player.name()),
        format!("author      {}", player.author()),
        format!("player-api  {} (compatible with this arena's {API_VERSION})", player.api_version()),
        format!("games       {}", games.join(", ")),
    ];
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
        lines.push("problem: the library plays no game this arena knows".to_string());
    }
    lines.push(if passed { "ok".to_string() } else { "FAILED".to_string() });
    Ok(CheckReport { text: lines.join("\n"), passed })
}
