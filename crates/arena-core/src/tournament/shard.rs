//! Shards: the schedule split into N parts that separate machines play,
//! each into its own journal (`journal.shard-I-of-N.jsonl`).
//!
//! The split is a pure function of the schedule and N, never of the
//! machines or of what has been played: a re-submitted shard gets the same
//! games, so nothing is lost or played twice. A unit (a game, or a whole
//! Hexapawn pairing, which one thread must play in order) is never split.
//!
//! What a game costs depends mostly on its players (one student thinks for
//! the whole budget, another answers at once), and that is not known
//! before the games are played. So each shard gets an equal share of every
//! player's games, and of the games: whatever the players cost, shards
//! cost about the same.

use std::{fmt, ops::Range, str::FromStr};

use super::{config::Tournament, record::ScheduledGame};

/// Shard `index` (counted from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// The shard's own journal, in the output folder.
    pub fn journal_name(&self) -> String {
        format!("journal.shard-{}-of-{}.jsonl", self.index, self.count)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N`, with 1 <= I <= N.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{text}' is not a shard: write I/N, e.g. 2/4 (shard 2 of 4, counted from 1)");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = index.trim().parse().map_err(|_| bad())?;
        let count: usize = count.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(format!("shard {text}: I must be between 1 and N (N >= 1)"));
        }
        Ok(Shard { index, count })
    }
}

/// The schedule's units, in order, as ranges of schedule indices: one game
/// each, or for Hexapawn one pairing each (a learner learns across it).
pub fn units(tournament: &Tournament, schedule: &[ScheduledGame]) -> Vec<Range<usize>> {
    let size = if tournament.game.learns() { tournament.games_per_pairing.max(1) as usize } else { 1 };
    (0..schedule.len()).step_by(size).map(|start| start..(start + size).min(schedule.len())).collect()
}

/// The shard (counted from 0) of each unit, for `count` shards.
///
/// Greedy, in schedule order: a unit goes to one of the shards with the
/// fewest games so far (which keeps shards within a unit of each other),
/// the one where its players have had the fewest games, else the lowest.
/// Deterministic, and O(units x count).
pub fn assign(schedule: &[ScheduledGame], units: &[Range<usize>], count: usize) -> Vec<usize> {
    let count = count.max(1);
    let players = schedule.iter().flat_map(|g| g.seats).max().map_or(0, |m| m + 1);
    let mut player_games = vec![0u64; count * players];
    let mut games = vec![0u64; count];
    units
        .iter()
        .map(|unit| {
            let mut who: Vec<usize> = schedule[unit.clone()].iter().flat_map(|g| g.seats).collect();
            who.sort_unstable();
            who.dedup();
            let size = unit.len() as u64;
            let fewest = *games.iter().min().expect("at least one shard");
            let best = (0..count)
                .filter(|&s| games[s] <= fewest + size)
                .min_by_key(|&s| (who.iter().map(|&p| player_games[s * players + p]).sum::<u64>(), s))
                .expect("a shard has the fewest games");
            for &p in &who {
                player_games[best * players + p] += size;
            }
            games[best] += size;
            best
        })
        .collect()
}

/// Which games (by schedule index) belong to `shard`.
pub fn games_of(tournament: &Tournament, schedule: &[ScheduledGame], shard: Shard) -> Vec<bool> {
    let units = units(tournament, schedule);
    let mut mine = vec![false; schedule.len()];
    for (unit, owner) in units.iter().zip(assign(schedule, &units, shard.count)) {
        if owner + 1 == shard.index {
            mine[unit.clone()].iter_mut().for_each(|m| *m = true);
        }
    }
    mine
}

/// Each of `count` shards' cost when units go to `owners` and a game costs
/// what `cost` says: for measuring balance (docs/benchmarks.md) against
/// costs the split could not know.
pub fn shard_costs(
    schedule: &[ScheduledGame],
    units: &[Range<usize>],
    owners: &[usize],
    count: usize,
    cost: impl Fn(&ScheduledGame) -> f64,
) -> Vec<f64> {
    let mut costs = vec![0.0; count.max(1)];
    for (unit, &owner) in units.iter().zip(owners) {
        costs[owner] += schedule[unit.clone()].iter().map(&cost).sum::<f64>();
    }
    costs
}

/// Max shard cost over the mean (1.0 is perfect balance).
pub fn imbalance(costs: &[f64]) -> f64 {
    let mean = costs.iter().sum::<f64>() / costs.len().max(1) as f64;
    let max = costs.iter().copied().fold(0.0, f64::max);
    if mean > 0.0 {
        max / mean
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::tournament::schedule::{duplicate, paired};

    fn round_robin(players: usize, games: u32) -> Vec<ScheduledGame> {
        let pairings: Vec<[usize; 2]> =
            (0..players).flat_map(|a| (a + 1..players).map(move |b| [a, b])).collect();
        paired(&pairings, games, 7)
    }

    fn singles(schedule: &[ScheduledGame]) -> Vec<Range<usize>> {
        (0..schedule.len()).map(|i| i..i + 1).collect()
    }

    #[test]
    fn every_game_is_in_exactly_one_shard() {
        let schedule = round_robin(9, 4);
        let units: Vec<Range<usize>> = (0..schedule.len()).step_by(4).map(|s| s..s + 4).collect();
        for count in [1, 2, 3, 4, 7, 50] {
            let owners = assign(&schedule, &units, count);
            let mut seen = vec![0; schedule.len()];
            for (unit, &owner) in units.iter().zip(&owners) {
                assert!(owner < count);
                unit.clone().for_each(|i| seen[i] += 1);
            }
            assert!(seen.iter().all(|&n| n == 1), "{count} shards: {seen:?}");
        }
    }

    #[test]
    fn the_split_is_stable() {
        let schedule = round_robin(12, 2);
        let units = singles(&schedule);
        assert_eq!(assign(&schedule, &units, 5), assign(&schedule, &units, 5));
        // Golden values: a change of the split would strand journals on a cluster.
        assert_eq!(&assign(&schedule, &units, 4)[100..112], &[0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1]);
    }

    #[test]
    fn shards_balance_games_and_every_players_games() {
        for schedule in
            [round_robin(16, 2), round_robin(100, 2), duplicate(&(0..40).collect::<Vec<_>>(), 100, 3)]
        {
            let units = singles(&schedule);
            for count in [2, 4, 16] {
                let owners = assign(&schedule, &units, count);
                let games = shard_costs(&schedule, &units, &owners, count, |_| 1.0);
                let spread = |v: &[f64]| {
                    v.iter().copied().fold(0.0, f64::max) - v.iter().copied().fold(f64::MAX, f64::min)
                };
                assert!(spread(&games) <= 2.0, "{count} shards: {games:?}");
                let players = schedule.iter().flat_map(|g| g.seats).max().unwrap() + 1;
                for p in 0..players {
                    let mut per_shard = vec![0usize; count];
                    for (g, &s) in schedule.iter().zip(&owners) {
                        if g.seats.contains(&p) {
                            per_shard[s] += 1;
                        }
                    }
                    let (min, max) = (per_shard.iter().min().unwrap(), per_shard.iter().max().unwrap());
                    assert!(max - min <= 3, "player {p}, {count} shards: {per_shard:?}");
                }
            }
        }
    }

    #[test]
    fn shards_balance_players_of_unequal_cost() {
        // A few players think for the whole budget, most answer at once.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let cost: Vec<f64> =
            (0..100).map(|_| if rng.random_bool(0.2) { 5.0 } else { rng.random_range(0.0..0.5) }).collect();
        let schedule = round_robin(100, 2);
        let units = singles(&schedule);
        let owners = assign(&schedule, &units, 8);
        let costs = shard_costs(&schedule, &units, &owners, 8, |g| cost[g.seats[0]] + cost[g.seats[1]]);
        assert!(imbalance(&costs) < 1.05, "{costs:?}");
    }

    #[test]
    fn shards_parse_and_name_their_journal() {
        let shard: Shard = "2/4".parse().unwrap();
        assert_eq!(shard, Shard { index: 2, count: 4 });
        assert_eq!(shard.journal_name(), "journal.shard-2-of-4.jsonl");
        for bad in ["0/4", "5/4", "2", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
