//! Swiss rounds: each round pairs every entrant with one of about its
//! score that it has not met (`pairing.rs`), so that a field of thousands
//! is ranked in a dozen rounds instead of a round robin's n - 1.
//!
//! Round r is a pure function of the entrants and the results of rounds
//! before it: a resumed or sharded Swiss pairs the same rounds. Round r's
//! games have the schedule indices `r * per_round .. (r + 1) * per_round`.

use std::collections::BTreeMap;

use anyhow::{bail, Result};

use super::{
    config::Tournament,
    pairing::{add_bye, add_pairing, pair, per_round, Record, Round},
    record::{GameResult, ScheduledGame},
};
use crate::play::seeds;

/// A Swiss as far as its journals take it.
#[derive(Debug, Clone)]
pub struct State {
    /// The rounds paired so far (by player id): the complete ones, then
    /// the current one, if any.
    pub rounds: Vec<Round>,
    /// Their games, by schedule index (from 0, contiguous).
    pub games: Vec<ScheduledGame>,
    /// Rounds whose every game is journaled.
    pub complete: usize,
    /// Records after the complete rounds, by player id.
    pub records: Vec<Record>,
}

impl State {
    /// The schedule indices of round `r`.
    pub fn round_range(&self, r: usize, per_round: usize) -> std::ops::Range<usize> {
        r * per_round..(r + 1) * per_round
    }
}

/// Pairs `tournament`'s Swiss round by round from the `results` journaled:
/// every complete round, then the first incomplete one. A journaled game
/// that is not the one its index pairs now is an error (a journal of
/// another pairing).
pub fn state(tournament: &Tournament, results: &BTreeMap<usize, GameResult>) -> Result<State> {
    let ids = tournament.entrants();
    let (games, seed) = (tournament.games_per_pairing, tournament.seed);
    let per_round = per_round(ids.len(), games);
    let mut records = vec![Record::default(); ids.len()];
    let mut state = State { rounds: Vec::new(), games: Vec::new(), complete: 0, records: Vec::new() };
    for r in 0..tournament.rounds as usize {
        let round = pair(&records);
        let start = r * per_round;
        let scheduled = round_games(&round, games, seeds::derive(seed, SWISS_SEED + r as u64), start, &ids);
        let mut complete = true;
        for game in &scheduled {
            match results.get(&game.index) {
                Some(result) if result.seats != game.seats || result.seed != game.seed => bail!(
                    "the journal's game {} ({} against {}) is not what round {} of this Swiss pairs now: \
                     the journals are of another pairing; choose a new output folder (or move the journals away)",
                    game.index + 1,
                    result.seats[0],
                    result.seats[1],
                    r + 1
                ),
                Some(_) => {}
                None => complete = false,
            }
        }
        state.games.extend(scheduled);
        let by_id = |p: usize| ids[p];
        state.rounds.push(Round {
            pairings: round.pairings.iter().map(|&[a, b]| [by_id(a), by_id(b)]).collect(),
            bye: round.bye.map(by_id),
        });
        if !complete {
            break;
        }
        for (k, &pairing) in round.pairings.iter().enumerate() {
            let first = start + k * games as usize;
            let points: f64 =
                (first..first + games as usize).map(|i| results[&i].score_of(ids[pairing[0]])).sum();
            add_pairing(&mut records, pairing, games, points);
        }
        if let Some(bye) = round.bye {
            add_bye(&mut records, bye);
        }
        state.complete += 1;
    }
    state.records = vec![Record::default(); tournament.players.len()];
    for (p, record) in records.into_iter().enumerate() {
        let mut record = record;
        record.opponents.iter_mut().for_each(|o| *o = ids[*o]);
        state.records[ids[p]] = record;
    }
    Ok(state)
}

/// Where Swiss rounds' seeds branch off the tournament's.
const SWISS_SEED: u64 = 0x5_0000;

/// A round's games: `games` per pairing in seat-swapped pairs sharing a
/// seed (as `schedule::paired`), indices from `start`, players by id.
fn round_games(round: &Round, games: u32, seed: u64, start: usize, ids: &[usize]) -> Vec<ScheduledGame> {
    let mut out = Vec::with_capacity(round.pairings.len() * games as usize);
    for (p, &[a, b]) in round.pairings.iter().enumerate() {
        let pairing_seed = seeds::derive(seed, p as u64);
        for k in 0..games {
            let seats = if k % 2 == 0 { [ids[a], ids[b]] } else { [ids[b], ids[a]] };
            out.push(ScheduledGame {
                index: start + out.len(),
                seats,
                seed: seeds::derive(pairing_seed, u64::from(k / 2)),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{pairing::per_round, standings::tests::game};

    #[test]
    fn rounds_are_paired_from_the_journal_and_a_journal_of_another_pairing_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.toml");
        std::fs::write(
            &path,
            "format = \"swiss\"\nrounds = 3\nseed = 4\nplayers = [\"easy\", \"medium\", \"hard\", \"easy\", \"hard\"]\n",
        )
        .unwrap();
        let tournament = Tournament::load(&path).unwrap();
        let per_round = per_round(5, 2);
        let first = state(&tournament, &BTreeMap::new()).unwrap();
        assert_eq!((first.complete, first.games.len(), first.rounds.len()), (0, per_round, 1));
        // Round 1 played: the seat 1 player wins every game.
        let result = |g: &ScheduledGame| game(g.index, g.seed, g.seats, Some(g.seats[0]));
        let mut results: BTreeMap<usize, GameResult> =
            first.games.iter().map(|g| (g.index, result(g))).collect();
        let second = state(&tournament, &results).unwrap();
        assert_eq!((second.complete, second.games.len()), (1, 2 * per_round));
        assert_eq!(second.games[..per_round], first.games[..], "round 1 stays as it was paired");
        assert!(second.games[per_round..].iter().enumerate().all(|(k, g)| g.index == per_round + k));
        // Each pairing split 1-1: drawn pairings, half a point each; the bye a whole one.
        let bye = second.rounds[0].bye.unwrap();
        assert_eq!(second.records[bye].score, 1.0);
        assert!((0..5).filter(|&p| p != bye).all(|p| second.records[p].score == 0.5));
        // A journal whose game is not the one its index pairs now.
        let mut wrong = result(&second.games[per_round]);
        wrong.seats = [wrong.seats[1], wrong.seats[0]];
        results.insert(wrong.index, wrong);
        let error = state(&tournament, &results).unwrap_err().to_string();
        assert!(error.contains("is not what round 2 of this Swiss pairs now"), "{error}");
        assert_eq!(error.lines().count(), 1);
    }
}
