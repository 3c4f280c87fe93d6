//! A tournament's replays: the games the `[replays]` table asks for, each
//! written to `<output>/replays/` (with its HTML viewer) by the thread that
//! played it, and synced before the game is journaled. A game is written
//! under a name fixed by its place in the schedule, so a resumed run that
//! plays a game again overwrites its file: no replay is lost or doubled.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};

use super::{
    config::{SaveReplays, Tournament},
    schedule::ScheduledGame,
    standings::Entrant,
};
use crate::{
    referee::trap::TrapGame,
    replay::{files, Replay, ReplayPlayer},
};

/// The folder, inside the output folder.
pub const FOLDER: &str = "replays";

/// Where and which replays go.
pub struct ReplaySink {
    folder: PathBuf,
    save: SaveReplays,
    /// With `save = "losses"`: the players whose losses are kept.
    losers: Vec<usize>,
    players: Vec<ReplayPlayer>,
    total: usize,
    viewers: bool,
}

impl ReplaySink {
    /// The sink for `tournament` (`total` games), or None when it saves no
    /// replays. `names` are the players' display names (ids index them).
    pub fn new(
        tournament: &Tournament,
        total: usize,
        entrants: &[Entrant],
        names: &[String],
    ) -> Result<Option<ReplaySink>> {
        let policy = &tournament.replays;
        if policy.save == SaveReplays::None {
            return Ok(None);
        }
        let losers = match &policy.player {
            None => tournament.entrants(),
            Some(wanted) => {
                let found: Vec<usize> = (0..names.len())
                    .filter(|&id| [&names[id], &entrants[id].name, &entrants[id].source].contains(&wanted))
                    .collect();
                if found.is_empty() {
                    bail!(
                        "replays.player = \"{wanted}\": no such player; use a name or a source among: {}",
                        names.join(", ")
                    );
                }
                found
            }
        };
        let folder = tournament.output.join(FOLDER);
        std::fs::create_dir_all(&folder)
            .with_context(|| format!("cannot create the replays folder {}", folder.display()))?;
        let players = names
            .iter()
            .zip(entrants)
            .map(|(name, e)| ReplayPlayer { name: name.clone(), source: e.source.clone() })
            .collect();
        Ok(Some(ReplaySink { folder, save: policy.save, losers, players, total, viewers: policy.viewers }))
    }

    /// Whether `record`, played as `game`, is to be kept.
    pub fn wanted(&self, game: &ScheduledGame, record: &TrapGame) -> bool {
        match self.save {
            SaveReplays::None => false,
            SaveReplays::All => true,
            SaveReplays::Losses => {
                let loser = record.winner().map(|seat| game.seats[seat.other().index()]);
                loser.is_some_and(|id| self.losers.contains(&id))
            }
        }
    }

    /// The file name (without extension) of game `game`'s replay.
    pub fn stem(&self, game: &ScheduledGame) -> String {
        stem(
            game.index,
            game.seats,
            self.total,
            &self.players.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
        )
    }

    /// Writes the replay of `record` if it is wanted.
    pub fn save(&self, game: &ScheduledGame, record: &TrapGame) -> Result<()> {
        if !self.wanted(game, record) {
            return Ok(());
        }
        let replay = Replay::of_trap(record, game.seats.map(|id| self.players[id].clone()));
        files::save(&replay, &self.folder, &self.stem(game), self.viewers)
            .context("a replay could not be written; the game will be played again when the run resumes")?;
        Ok(())
    }
}

/// The file name (without extension) of the replay of schedule entry
/// `index`, played by `seats` (ids into `names`), out of `total` games.
pub fn stem(index: usize, seats: [usize; 2], total: usize, names: &[String]) -> String {
    files::stem(index + 1, total, seats.map(|id| names[id].as_str()))
}
