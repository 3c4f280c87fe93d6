//! A tournament's games as rounds, whatever its format: a schedule known
//! at the start is one round; a Swiss's rounds are paired one at a time
//! from the results journaled (`swiss.rs`). The runner, the shards and
//! Slurm ask [`known`] what is paired and which round is being played,
//! and name no format.

use std::{collections::BTreeMap, ops::Range};

use anyhow::Result;

use super::{
    config::{Format, Tournament},
    pairing,
    record::GameResult,
    record::ScheduledGame,
    schedule,
    standings::{self, Standings},
    swiss,
};

/// What is paired so far, given the results journaled.
pub struct Known {
    /// The games paired, by schedule index (from 0, contiguous): every
    /// round played, then the one being played.
    pub games: Vec<ScheduledGame>,
    /// The indices of the round being played (empty once all are).
    pub current: Range<usize>,
    /// The rounds still to pair after the current one.
    pub later_rounds: usize,
    /// A Swiss's records, for its standings.
    swiss: Option<swiss::State>,
}

/// What of the games goes into the tournament's fingerprint (`super::fingerprint`).
pub fn print(tournament: &Tournament, schedule: &[ScheduledGame]) -> String {
    if tournament.format == Format::Swiss {
        // The rounds follow from the file and the results: the pairing's
        // version and the rounds decide them.
        return format!("swiss1:{}|", tournament.rounds);
    }
    schedule.iter().map(|game| format!("{}:{}:{}|", game.seats[0], game.seats[1], game.seed)).collect()
}

/// The games `tournament` plays in all: its schedule's, or a Swiss's
/// rounds' (whose `schedule` is its first round only).
pub fn total_games(tournament: &Tournament, schedule: &[ScheduledGame]) -> usize {
    match tournament.format {
        Format::Swiss => {
            tournament.rounds as usize
                * pairing::per_round(tournament.entrants().len(), tournament.games_per_pairing)
        }
        _ => schedule.len(),
    }
}

/// The rounds of `tournament` as far as `results` take them.
pub fn known(tournament: &Tournament, results: &BTreeMap<usize, GameResult>) -> Result<Known> {
    if tournament.format != Format::Swiss {
        let games = schedule::schedule(tournament);
        let current = 0..games.len();
        return Ok(Known { games, current, later_rounds: 0, swiss: None });
    }
    let mut state = swiss::state(tournament, results)?;
    let per_round = pairing::per_round(tournament.entrants().len(), tournament.games_per_pairing);
    let round = state.round_range(state.complete, per_round);
    let current = if round.end <= state.games.len() { round } else { state.games.len()..state.games.len() };
    let later_rounds = (tournament.rounds as usize).saturating_sub(state.complete + 1);
    // The games move out; the state keeps the records the standings use.
    let games = std::mem::take(&mut state.games);
    Ok(Known { games, current, later_rounds, swiss: Some(state) })
}

impl Known {
    /// Whether a round is still to be played that no game of has been
    /// (`results`): one paired later, or the current one untouched.
    pub fn rounds_to_come(&self, results: &BTreeMap<usize, GameResult>) -> bool {
        let untouched = !self.current.is_empty() && self.current.clone().all(|i| !results.contains_key(&i));
        self.swiss.is_some() && (self.later_rounds > 0 || untouched)
    }

    /// The standings of two-player games `results` among `entrants`, with
    /// a Swiss's score and tie-breaks where it is one.
    pub fn standings(
        &self,
        tournament: &Tournament,
        entrants: &[standings::Entrant],
        results: &[GameResult],
    ) -> Standings {
        let standings = standings::compute(entrants, results);
        match &self.swiss {
            Some(state) => standings.with_swiss(&state.records, state.complete, tournament.rounds as usize),
            None => standings,
        }
    }
}
