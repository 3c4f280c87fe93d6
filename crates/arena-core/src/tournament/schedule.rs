//! Schedules: which players meet, in which seats, on which seed. Pure
//! functions of the tournament: the same file gives the same schedule.

use crate::{play::seeds, play::solo::game_seed};

use super::{
    config::{Format, Tournament},
    record::ScheduledGame,
};

/// The schedule of `tournament`; of a Swiss, its first round (the later
/// rounds depend on the results: `swiss::state`).
pub fn schedule(tournament: &Tournament) -> Vec<ScheduledGame> {
    let entrants = tournament.entrants();
    let (seed, games) = (tournament.seed, tournament.games_per_pairing);
    match tournament.format {
        Format::RoundRobin => {
            let pairings: Vec<[usize; 2]> = entrants
                .iter()
                .enumerate()
                .flat_map(|(i, &a)| entrants[i + 1..].iter().map(move |&b| [a, b]))
                .collect();
            paired(&pairings, games, seed)
        }
        Format::Gauntlet => {
            let pairings: Vec<[usize; 2]> =
                entrants.iter().flat_map(|&a| tournament.fixed.iter().map(move |&b| [a, b])).collect();
            paired(&pairings, games, seed)
        }
        // A single-player grade: the levels play the students' worlds.
        Format::Grade if tournament.game.id().is_single_player() => {
            duplicate(&(0..tournament.players.len()).collect::<Vec<_>>(), games, seed)
        }
        Format::Grade => grade(&entrants, &tournament.fixed, games, seed),
        Format::Duplicate => duplicate(&entrants, games, seed),
        Format::Swiss => {
            super::swiss::state(tournament, &Default::default()).map(|s| s.games).unwrap_or_default()
        }
    }
}

/// Single-player games: world `k` (seed `solo::game_seed(seed, k)`, as
/// `arena play` numbers them) for every player in turn, world by world, so
/// that a run stopped early has given every player about as many worlds.
/// A game's `seats` are its one player twice.
pub fn duplicate(players: &[usize], games: u32, seed: u64) -> Vec<ScheduledGame> {
    let mut schedule = Vec::with_capacity(players.len() * games as usize);
    for k in 0..games {
        for &id in players {
            schedule.push(ScheduledGame { index: schedule.len(), seats: [id, id], seed: game_seed(seed, k) });
        }
    }
    schedule
}

/// `games` per pairing, in seat-swapped pairs that share a seed: games 2k
/// and 2k+1 of a pairing see the same throws with the seats exchanged.
/// Which player sits first in a pair alternates between pairings, so seats
/// stay balanced even with an odd number of games per pairing.
pub fn paired(pairings: &[[usize; 2]], games: u32, seed: u64) -> Vec<ScheduledGame> {
    let mut schedule = Vec::with_capacity(pairings.len() * games as usize);
    for (p, &[a, b]) in pairings.iter().enumerate() {
        let first = if p % 2 == 0 { [a, b] } else { [b, a] };
        let pairing_seed = seeds::derive(seed, p as u64);
        for k in 0..games {
            let seats = if k % 2 == 0 { first } else { [first[1], first[0]] };
            schedule.push(ScheduledGame {
                index: schedule.len(),
                seats,
                seed: seeds::derive(pairing_seed, u64::from(k / 2)),
            });
        }
    }
    schedule
}

/// The course's grading: `games` games against each level (the course
/// plays 10); the student sits in seat 2 in every third game (games 3, 6
/// and 9 of 10, counting from 1), seat 1 in the others.
pub fn grade(students: &[usize], levels: &[usize], games: u32, seed: u64) -> Vec<ScheduledGame> {
    let mut schedule = Vec::new();
    for &student in students {
        for &level in levels {
            let pairing_seed = seeds::derive(seed, (student * 1000 + level) as u64);
            for game in 1..=u64::from(games) {
                let seats = if game % 3 == 0 { [level, student] } else { [student, level] };
                schedule.push(ScheduledGame {
                    index: schedule.len(),
                    seats,
                    seed: seeds::derive(pairing_seed, game),
                });
            }
        }
    }
    schedule
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn seat_counts(schedule: &[ScheduledGame]) -> HashMap<usize, [u32; 2]> {
        let mut counts: HashMap<usize, [u32; 2]> = HashMap::new();
        for g in schedule {
            counts.entry(g.seats[0]).or_default()[0] += 1;
            counts.entry(g.seats[1]).or_default()[1] += 1;
        }
        counts
    }

    #[test]
    fn round_robin_plays_every_pair_with_balanced_seats() {
        let players: Vec<usize> = (0..6).collect();
        let pairings: Vec<[usize; 2]> = players
            .iter()
            .enumerate()
            .flat_map(|(i, &a)| players[i + 1..].iter().map(move |&b| [a, b]))
            .collect();
        let schedule = paired(&pairings, 4, 9);
        assert_eq!(schedule.len(), 15 * 4);
        let mut per_pair: HashMap<[usize; 2], u32> = HashMap::new();
        for g in &schedule {
            let mut key = g.seats;
            key.sort();
            *per_pair.entry(key).or_default() += 1;
        }
        assert_eq!(per_pair.len(), 15);
        assert!(per_pair.values().all(|&n| n == 4));
        for (player, [first, second]) in seat_counts(&schedule) {
            assert_eq!(first, second, "player {player} must sit first as often as second");
        }
        assert!(schedule.iter().enumerate().all(|(i, g)| g.index == i));
    }

    #[test]
    fn games_come_in_seat_swapped_pairs_on_one_seed() {
        let schedule = paired(&[[0, 1], [0, 2]], 6, 1);
        for pair in schedule.chunks(2) {
            assert_eq!(pair[0].seed, pair[1].seed);
            assert_eq!(pair[0].seats, [pair[1].seats[1], pair[1].seats[0]]);
        }
        let seeds: std::collections::HashSet<u64> = schedule.iter().map(|g| g.seed).collect();
        assert_eq!(seeds.len(), 6, "each pair of each pairing has its own seed");
    }

    #[test]
    fn odd_games_per_pairing_still_balance_over_the_tournament() {
        let pairings = [[0, 1], [1, 2], [0, 2], [2, 3]];
        let schedule = paired(&pairings, 3, 5);
        let counts = seat_counts(&schedule);
        let total_first: u32 = counts.values().map(|c| c[0]).sum();
        let total_second: u32 = counts.values().map(|c| c[1]).sum();
        assert_eq!(total_first, total_second);
        assert!(counts.values().all(|c| c[0].abs_diff(c[1]) <= 2), "{counts:?}");
    }

    #[test]
    fn gauntlet_meets_every_opponent() {
        let pairings: Vec<[usize; 2]> = [0, 1].iter().flat_map(|&a| [2, 3, 4].map(|b| [a, b])).collect();
        let schedule = paired(&pairings, 2, 3);
        assert_eq!(schedule.len(), 2 * 3 * 2);
        for student in [0, 1] {
            for opponent in [2, 3, 4] {
                let games =
                    schedule.iter().filter(|g| g.seats.contains(&student) && g.seats.contains(&opponent));
                assert_eq!(games.count(), 2);
            }
        }
    }

    #[test]
    fn grade_is_ten_games_per_level_with_the_student_first_in_seven() {
        let schedule = grade(&[0, 1], &[2, 3, 4], 10, 7);
        assert_eq!(schedule.len(), 2 * 3 * 10);
        for chunk in schedule.chunks(10) {
            let student = chunk[0].seats[0];
            let second: Vec<usize> =
                chunk.iter().enumerate().filter(|(_, g)| g.seats[1] == student).map(|(i, _)| i + 1).collect();
            assert_eq!(second, [3, 6, 9]);
        }
    }

    #[test]
    fn duplicate_gives_every_player_the_same_worlds() {
        let schedule = duplicate(&[0, 2, 5], 4, 9);
        assert_eq!(schedule.len(), 12);
        assert!(schedule.iter().enumerate().all(|(i, g)| g.index == i && g.seats[0] == g.seats[1]));
        for id in [0, 2, 5] {
            let worlds: Vec<u64> = schedule.iter().filter(|g| g.seats[0] == id).map(|g| g.seed).collect();
            assert_eq!(worlds, (0..4).map(|k| game_seed(9, k)).collect::<Vec<_>>());
        }
    }

    #[test]
    fn identical_inputs_give_identical_schedules() {
        assert_eq!(paired(&[[0, 1], [1, 2]], 4, 11), paired(&[[0, 1], [1, 2]], 4, 11));
        assert_ne!(paired(&[[0, 1]], 4, 11), paired(&[[0, 1]], 4, 12));
        assert_eq!(grade(&[0], &[1, 2, 3], 10, 5), grade(&[0], &[1, 2, 3], 10, 5));
    }
}
