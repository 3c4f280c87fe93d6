//! The rolling round robin behind the leaderboard: each student's latest
//! graded submission (made before any deadline) plays every other's,
//! `GAMES` Trap games a pairing in seat-swapped pairs on shared seeds (the
//! same seeds for every pairing). A new submission plays everyone's latest;
//! the standings (W/D/L, Bradley-Terry Elo with its interval, crosstable)
//! count the games among the current latest submissions only.
//!
//! Each game is stored as it finishes: after a crash a pairing resumes at
//! its first missing game, and no game is stored twice.

use anyhow::Result;
use rusqlite::{params, Connection};

use super::{
    db::{self, Submission},
    grader::SEED,
    store,
};
use crate::{
    game::Trap,
    isolation::WorkerLimits,
    players::{Hosting, Player, PlayerSpec},
    referee::trap::TrapSettings,
    tournament::{
        record::GameResult,
        standings::{self, Entrant, Standings},
    },
    two_player::{self, MatchConfig},
};

/// Games per pairing (seat-swapped pairs).
pub const GAMES: u32 = 10;

/// Plays the missing games of one pairing of current submissions; whether
/// there was one to play.
pub fn play_next(dir: &std::path::Path, db: &Connection) -> Result<bool> {
    let current = db::latest_graded(db)?;
    for (i, a) in current.iter().enumerate() {
        for b in &current[i + 1..] {
            let (a, b) = if a.id < b.id { (a, b) } else { (b, a) };
            let played = games_between(db, a.id, b.id)?;
            if played < GAMES {
                play(dir, db, [a, b], played)?;
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// How many games of the pairing `a` (the older) vs `b` are stored.
fn games_between(db: &Connection, a: i64, b: i64) -> Result<u32> {
    Ok(db.query_row("SELECT COUNT(*) FROM games WHERE a = ?1 AND b = ?2", params![a, b], |row| row.get(0))?)
}

/// Plays games `first..GAMES` of the pairing, storing each as it ends.
fn play(dir: &std::path::Path, db: &Connection, pair: [&Submission; 2], first: u32) -> Result<()> {
    // Isolated and sandboxed (WorkerLimits' default), as in a tournament.
    let limits = WorkerLimits::new().map_err(anyhow::Error::msg)?;
    let hosting = Hosting { isolate_libraries: true, isolate_builtins: false, limits: Some(limits) };
    let settings = TrapSettings::default();
    let load = |s: &Submission| {
        let spec: PlayerSpec =
            store::player_entry(dir, &s.sha256, s.player.as_deref())?.parse().map_err(anyhow::Error::msg)?;
        Player::load(&spec, &hosting, settings.startup_budget)
            .map_err(|e| anyhow::anyhow!("submission {}: {e}", s.id))
    };
    let players = [load(pair[0])?, load(pair[1])?];
    let config = MatchConfig::<Trap> {
        settings,
        games: GAMES - first,
        seed: SEED,
        hosting: hosting.clone(),
        first_game: first,
        concurrency: 1,
    };
    let mut stored = Ok(());
    two_player::play(
        [&players[0], &players[1]],
        &config,
        &mut |game| {
            if stored.is_ok() {
                let result = GameResult::two_player::<Trap>(game.index as usize, game.seats, &game.record);
                stored = store_game(db, pair[0].id, pair[1].id, &result);
            }
        },
        None,
    );
    stored
}

fn store_game(db: &Connection, a: i64, b: i64, result: &GameResult) -> Result<()> {
    db.execute(
        "INSERT OR IGNORE INTO games (a, b, game, result) VALUES (?1, ?2, ?3, ?4)",
        params![a, b, result.index as i64, serde_json::to_string(result)?],
    )?;
    Ok(())
}

/// The standings of the current submissions (ids index `current`).
pub fn standings(db: &Connection, current: &[Submission]) -> Result<Standings> {
    let entrants: Vec<Entrant> = current
        .iter()
        .map(|s| Entrant { name: s.student.clone(), source: format!("submission {}", s.id) })
        .collect();
    let position = |id: i64| current.iter().position(|s| s.id == id);
    let mut query = db.prepare("SELECT a, b, result FROM games")?;
    let rows = query
        .query_map([], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?, row.get::<_, String>(2)?)))?;
    let mut results = Vec::new();
    for row in rows {
        let (a, b, text) = row?;
        let (Some(a), Some(b)) = (position(a), position(b)) else { continue };
        let mut result: GameResult = serde_json::from_str(&text)?;
        // Stored with the pairing's own ids (0: a, 1: b).
        let to_entrant = |id: usize| if id == 0 { a } else { b };
        result.seats = result.seats.map(to_entrant);
        result.winner = result.winner.map(to_entrant);
        if let Some(fault) = result.fault.as_mut() {
            fault.player = to_entrant(fault.player);
        }
        // Distinct indices across pairings, as the standings expect of a schedule.
        result.index = results.len();
        results.push(result);
    }
    Ok(standings::compute(&entrants, &results))
}
