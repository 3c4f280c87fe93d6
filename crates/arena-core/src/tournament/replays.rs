//! A tournament's replays, of every game: the games the `[replays]` table
//! asks for, each written to `<output>/replays/` (with its HTML viewer) by
//! the thread that played it, and synced before the game is journaled. A
//! game is written under a name fixed by its place in the schedule, so a
//! resumed run that plays a game again overwrites its file: no replay is
//! lost or doubled.
//!
//! `replays.max_bytes` bounds what the folder's replays take: a replay
//! that would take the folder past it is not written, and its game's
//! journal line says so (`replay_left_out`). The bytes already in the
//! folder count, so a resumed run goes on from where it stopped. Which
//! games' replays are kept is then the order the games finished in: the
//! first under the budget (with `concurrency = 1`, schedule order).

use std::{path::PathBuf, sync::Mutex};

use anyhow::{bail, Context, Result};

use super::{
    config::{SaveReplays, Tournament},
    record::ScheduledGame,
    standings::Entrant,
};
use crate::{
    games::replays::{GameReplay, TableGame},
    play::solo::{SinglePlayerGame, SoloSettings},
    play::two_player::TwoPlayerGame,
    replay::{files, files::ReplayFiles, notes::Note, Replay, ReplayPlayer},
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
    show_seed: bool,
    /// Whether replays keep the players' notes (`replays.notes`).
    notes: bool,
    /// `replays.max_bytes`, and the bytes the folder's replays take so far.
    budget: Option<(u64, Mutex<u64>)>,
}

/// What became of a game's replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saved {
    Written,
    /// Not asked for (`replays.save`).
    NotWanted,
    /// Asked for, but left out: it would have taken the folder's replays
    /// past `replays.max_bytes`.
    OverBudget,
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
        let players = replay_players(entrants, names, policy.show_sources);
        let budget = policy.max_bytes.map(|max| (max, Mutex::new(folder_bytes(&folder))));
        Ok(Some(ReplaySink {
            folder,
            save: policy.save,
            losers,
            players,
            total,
            viewers: policy.viewers,
            show_seed: policy.show_seed,
            notes: policy.notes,
            budget,
        }))
    }

    /// Whether a game that `loser` lost (None: a draw) is to be kept.
    fn wanted(&self, loser: Option<usize>) -> bool {
        match self.save {
            SaveReplays::None => false,
            SaveReplays::All => true,
            SaveReplays::Losses => loser.is_some_and(|id| self.losers.contains(&id)),
        }
    }

    /// Writes the replay of `record`, a two-player game played as schedule
    /// entry `game`, if it is wanted.
    pub fn save_two_player<G: TwoPlayerGame + TableGame>(
        &self,
        game: &ScheduledGame,
        record: &G::Record,
        notes: Vec<Note>,
    ) -> Result<Saved> {
        let loser = G::winner(record).map(|seat| game.seats[seat.other().index()]);
        self.save(game, loser, false, || {
            let replay = G::replay(record, game.seats.map(|id| self.players[id].clone()));
            G::any(self.noted(replay, notes))
        })
    }

    /// `replay` with `notes`, if the run keeps them.
    fn noted<B>(&self, replay: Replay<B>, notes: Vec<Note>) -> Replay<B> {
        if self.notes {
            replay.with_notes(notes)
        } else {
            replay
        }
    }

    /// Writes the replay of `record`, a single-player game played with
    /// `settings` as schedule entry `game`, if it is wanted.
    pub fn save_solo<G: SinglePlayerGame + TableGame>(
        &self,
        game: &ScheduledGame,
        record: &G::Record,
        notes: Vec<Note>,
        settings: &SoloSettings<G>,
    ) -> Result<Saved> {
        // A single-player game is lost unless won.
        let loser = (!G::score(record).won).then_some(game.seats[0]);
        self.save(game, loser, true, || {
            let replay = G::replay(record, settings, self.players[game.seats[0]].clone());
            G::any(self.noted(replay, notes))
        })
    }

    fn save(
        &self,
        game: &ScheduledGame,
        loser: Option<usize>,
        solo: bool,
        replay: impl FnOnce() -> GameReplay,
    ) -> Result<Saved> {
        if !self.wanted(loser) {
            return Ok(Saved::NotWanted);
        }
        let names: Vec<String> = self.players.iter().map(|p| p.name.clone()).collect();
        let stem = stem(game.index, named_seats(&game.seats, solo), self.total, &names);
        let files = ReplayFiles::make(&replay(), &self.folder, &stem, self.viewers, self.show_seed);
        if let Some((max, used)) = &self.budget {
            let mut used = used.lock().unwrap_or_else(|e| e.into_inner());
            let after = (*used).saturating_sub(files.replaced()) + files.bytes();
            if after > *max {
                return Ok(Saved::OverBudget);
            }
            // Taken before the files are written, so that two games never
            // both take the last room (a write that fails stops the run,
            // which counts the folder again when it resumes).
            *used = after;
        }
        files
            .write()
            .context("a replay could not be written; the game will be played again when the run resumes")?;
        Ok(Saved::Written)
    }
}

/// The bytes the files in `folder` take (not its subfolders: a replays
/// folder has none).
pub fn folder_bytes(folder: &std::path::Path) -> u64 {
    let entries = std::fs::read_dir(folder).into_iter().flatten().flatten();
    entries.filter_map(|e| e.metadata().ok()).filter(|m| m.is_file()).map(|m| m.len()).sum()
}

/// The players a replay's name lists: both seats, or a single-player
/// game's one player (who sits in both).
pub fn named_seats(seats: &[usize; 2], solo: bool) -> &[usize] {
    &seats[..if solo { 1 } else { 2 }]
}

/// The file name (without extension) of the replay of schedule entry
/// `index`, played by `seats` (ids into `names`; one for a single-player
/// game), out of `total` games.
pub fn stem(index: usize, seats: &[usize], total: usize, names: &[String]) -> String {
    let names: Vec<&str> = seats.iter().map(|&id| names[id].as_str()).collect();
    files::stem(index + 1, total, &names)
}

/// The players as the run's replays (and live feeds) name them: their
/// display names (`names`, ids index them) and, if `show_sources`, their
/// sources (else none: a source may be a path its viewers must not see).
pub fn replay_players(entrants: &[Entrant], names: &[String], show_sources: bool) -> Vec<ReplayPlayer> {
    names
        .iter()
        .zip(entrants)
        .map(|(name, e)| ReplayPlayer {
            name: name.clone(),
            source: if show_sources { e.source.clone() } else { String::new() },
        })
        .collect()
}
