//! `arena tournament plan`: how big a tournament is and how much CPU time
//! it needs at its budget, before it is run: the worst case (every turn
//! uses its whole budget) and an expected time from games already
//! journaled or, failing that, from a short calibration (a few games of
//! the schedule played for real and thrown away), with a number of shards.

use std::{sync::atomic::AtomicBool, time::Duration};

use anyhow::Result;

use crate::{play::time_control::TimeControl, play::two_player::TwoPlayerGame, with_rules};

use super::{
    config::Tournament, fingerprint, hosting, load_players, merge, record::GameResult, runner, schedule,
    shard,
};

/// Where the expected time comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum Sample {
    /// Games already in the output folder's journals.
    Journal(usize),
    /// Games played just now.
    Calibration(usize),
    /// Nothing measured (calibration off and no journal).
    None,
}

/// A tournament's size and cost.
#[derive(Debug, Clone)]
pub struct Plan {
    pub games: usize,
    /// Units of the schedule (games; Hexapawn pairings): a shard's grain.
    pub units: usize,
    pub pairings: usize,
    pub players: usize,
    pub turn_budget: Duration,
    /// A game's turn limit (Trap's turn cap), when it has one.
    pub turn_cap: Option<u32>,
    pub sample: Sample,
    /// Mean turns per game in the sample.
    pub turns_per_game: Option<f64>,
    /// Every turn of every game using its whole budget (at the sample's
    /// turns per game; else at the turn cap).
    pub worst_case: Option<Duration>,
    /// Each game at its players' mean time per game in the sample.
    pub expected: Option<Duration>,
}

impl Plan {
    /// Shards so that each, with `cpus` games at once, takes about `within`
    /// of wall time at the expected cost (at least 1, at most one per unit).
    pub fn suggested_shards(&self, within: Duration, cpus: usize) -> usize {
        let Some(expected) = self.expected.or(self.worst_case) else { return 1 };
        let per_shard = within.as_secs_f64() * cpus.max(1) as f64;
        ((expected.as_secs_f64() / per_shard).ceil() as usize).clamp(1, self.units.max(1))
    }
}

/// The most one turn of the tournament's game can take (its budget, or
/// a bank's cap or base), over every player's time control.
pub fn turn_budget(tournament: &Tournament) -> Duration {
    controls(tournament).map(TimeControl::turn_ceiling).max().unwrap_or_default()
}

/// The settings' time control, then each player's own.
fn controls(tournament: &Tournament) -> impl Iterator<Item = TimeControl> + '_ {
    std::iter::once(tournament.game.time_control()).chain(tournament.controls.iter().flatten().copied())
}

/// Measures `tournament`: from its journals if any game is there, else by
/// playing about `calibration` games of its schedule (spread over it).
pub fn plan(tournament: &Tournament, calibration: usize) -> Result<Plan> {
    let schedule = schedule::schedule(tournament);
    let units = shard::units(tournament, &schedule);
    // Pairs of players who meet (none in single-player games).
    let pairings = schedule
        .iter()
        .filter(|g| g.seats[0] != g.seats[1])
        .map(|g| (g.seats[0].min(g.seats[1]), g.seats[0].max(g.seats[1])))
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    // A Swiss's schedule is its first round: its rounds cost alike.
    let all = super::total_games(tournament, &schedule);
    let rounds = all / schedule.len().max(1);
    let journaled = merge::read_all(&tournament.output, &fingerprint(tournament, &schedule), all)
        .map(|m| m.results.into_values().collect::<Vec<_>>())
        .unwrap_or_default();
    let (sample, games) = if !journaled.is_empty() {
        (Sample::Journal(journaled.len()), journaled)
    } else if calibration > 0 && !units.is_empty() {
        let games = calibrate(tournament, &schedule, &units, calibration)?;
        (Sample::Calibration(games.len()), games)
    } else {
        (Sample::None, Vec::new())
    };
    let budget = turn_budget(tournament);
    let turn_cap = with_rules!(&tournament.game, G, settings => G::turn_cap(settings), solo => { let _ = settings; None });
    let turns_per_game = (!games.is_empty())
        .then(|| games.iter().map(|g| f64::from(g.turns)).sum::<f64>() / games.len() as f64);
    let worst_turns = turns_per_game.or(turn_cap.map(f64::from));
    let total = all as f64;
    // A game's worst: every turn at its limit (a bank: its base and every
    // increment), at the slowest player's control.
    let single = tournament.game.id().is_single_player();
    let worst_case = worst_turns.map(|turns| {
        let own = if single { turns } else { turns / 2.0 }.max(1.0);
        let per_turn = controls(tournament).map(|c| c.worst_over(own).div_f64(own)).max().unwrap_or(budget);
        per_turn.mul_f64(turns * total)
    });
    let expected = expected_time(&schedule, &games).map(|t| t * rounds as u32);
    Ok(Plan {
        games: all,
        units: units.len() * rounds,
        pairings: pairings * rounds,
        players: tournament.players.len(),
        turn_budget: budget,
        turn_cap,
        sample,
        turns_per_game,
        worst_case,
        expected,
    })
}

/// The schedule's games at their players' mean time per game in `sample`
/// (a player the sample lacks: the sampled players' mean). Per player,
/// because players make the cost, and a journal of a run cut short holds
/// the schedule's first pairings only.
fn expected_time(schedule: &[super::record::ScheduledGame], sample: &[GameResult]) -> Option<Duration> {
    if sample.is_empty() {
        return None;
    }
    let players = schedule.iter().flat_map(|g| g.seats).max().map_or(0, |m| m + 1);
    let mut sums = vec![(0u64, 0u64); players];
    let seats = |g: &GameResult| if g.solo.is_some() { 1 } else { 2 };
    for game in sample {
        for seat in 0..seats(game) {
            if let Some(sum) = sums.get_mut(game.seats[seat]) {
                sum.0 += game.clock[seat].total_us;
                sum.1 += 1;
            }
        }
    }
    let known: Vec<f64> = sums.iter().filter(|s| s.1 > 0).map(|s| s.0 as f64 / s.1 as f64).collect();
    let fallback = known.iter().sum::<f64>() / known.len().max(1) as f64;
    let per_game: Vec<f64> =
        sums.iter().map(|&(us, n)| if n > 0 { us as f64 / n as f64 } else { fallback }).collect();
    let us: f64 = schedule
        .iter()
        .map(|g| {
            if g.seats[0] == g.seats[1] {
                per_game[g.seats[0]]
            } else {
                per_game[g.seats[0]] + per_game[g.seats[1]]
            }
        })
        .sum();
    Some(Duration::from_secs_f64(us / 1e6))
}

/// The units a calibration of about `wanted` games plays: each time the
/// first unit with the most players not yet seen, so that a short
/// calibration meets as many players as it can.
fn calibration_units(
    schedule: &[super::record::ScheduledGame],
    units: &[std::ops::Range<usize>],
    wanted: usize,
) -> Vec<usize> {
    let players = schedule.iter().flat_map(|g| g.seats).max().map_or(0, |m| m + 1);
    let mut seen = vec![false; players];
    let mut chosen: Vec<usize> = Vec::new();
    let mut games = 0;
    while games < wanted && chosen.len() < units.len() {
        let new_players = |u: usize| {
            let mut who: Vec<usize> =
                schedule[units[u].clone()].iter().flat_map(|g| g.seats).filter(|&p| !seen[p]).collect();
            who.sort_unstable();
            who.dedup();
            who.len()
        };
        // Once every player is seen, spread the rest over the schedule.
        let best = (0..units.len())
            .filter(|u| !chosen.contains(u))
            .max_by_key(|&u| (new_players(u), std::cmp::Reverse((u * 7919) % units.len())))
            .expect("a unit is left");
        for g in &schedule[units[best].clone()] {
            g.seats.iter().for_each(|&p| seen[p] = true);
        }
        games += units[best].len();
        chosen.push(best);
    }
    chosen
}

/// Plays about `wanted` games of the schedule (whole units, meeting as
/// many players as possible) and returns them; nothing is journaled.
fn calibrate(
    tournament: &Tournament,
    schedule: &[super::record::ScheduledGame],
    units: &[std::ops::Range<usize>],
    wanted: usize,
) -> Result<Vec<GameResult>> {
    let jobs: Vec<runner::Job> = calibration_units(schedule, units, wanted)
        .into_iter()
        .map(|u| schedule[units[u].clone()].iter().map(|g| (*g, true)).collect())
        .collect();
    let hosting = hosting(tournament)?;
    let players = load_players(tournament, &hosting)?;
    let stop = AtomicBool::new(false);
    let plan = runner::RunPlan::of(tournament, &players, &hosting, &stop, None);
    let mut games = Vec::new();
    runner::run(&plan, &jobs, |batch| {
        games.extend(batch);
        Ok(())
    })?;
    Ok(games)
}

/// A wall time: `12h`, `1.5h`, or what `units::parse_duration` reads
/// (`90m`). Hours only here: a turn's budget is never counted in hours.
pub fn parse_wall_time(text: &str) -> Result<Duration, String> {
    match text.trim().strip_suffix('h') {
        Some(hours) => hours
            .parse::<f64>()
            .ok()
            .filter(|h| h.is_finite() && *h > 0.0)
            .map(|h| Duration::from_secs_f64(h * 3600.0))
            .ok_or_else(|| format!("'{text}' is not a wall time: write it like 12h, 1.5h or 90m")),
        None => crate::report::units::parse_duration(text),
    }
}

/// A duration as people read long ones: `3.2 CPU-days`, `5.1 h`, `42 min`, `12 s`.
pub fn long(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 2.0 * 86_400.0 {
        format!("{:.1} days", s / 86_400.0)
    } else if s >= 2.0 * 3600.0 {
        format!("{:.1} h", s / 3600.0)
    } else if s >= 120.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{s:.1} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(expected: Option<u64>, worst: Option<u64>, units: usize) -> Plan {
        Plan {
            games: units,
            units,
            pairings: 0,
            players: 2,
            turn_budget: Duration::from_secs(5),
            turn_cap: None,
            sample: Sample::None,
            turns_per_game: None,
            worst_case: worst.map(Duration::from_secs),
            expected: expected.map(Duration::from_secs),
        }
    }

    #[test]
    fn shards_are_suggested_from_the_expected_time() {
        let hour = Duration::from_secs(3600);
        // 100 CPU-hours in 10-hour shards of 2 CPUs: 5 shards.
        assert_eq!(plan(Some(100 * 3600), Some(1_000_000), 9900).suggested_shards(10 * hour, 2), 5);
        // Without a measure, the worst case decides; never more shards than units.
        assert_eq!(plan(None, Some(100 * 3600), 3).suggested_shards(hour, 1), 3);
        assert_eq!(plan(None, None, 10).suggested_shards(hour, 1), 1);
    }

    #[test]
    fn the_expected_time_counts_each_game_at_its_players_cost() {
        use crate::tournament::record::SeatClock;
        let schedule = schedule::paired(&[[0, 1], [0, 2], [1, 2]], 2, 1);
        let clock = |us| SeatClock { turns: 10, total_us: us, max_us: us, ..SeatClock::default() };
        // Player 0 took 1 s a game, player 1 none; player 2 is unmeasured.
        let sample = [GameResult {
            index: 0,
            seed: 0,
            seats: [0, 1],
            winner: None,
            turns: 20,
            reason: String::new(),
            fault: None,
            clock: [clock(1_000_000), clock(0)],
            solo: None,
            replayed: 0,
            replay_left_out: false,
        }];
        // Player 2 counts at the measured mean (0.5 s): 2 x (1 + 0) + 2 x (1 + 0.5) + 2 x (0 + 0.5).
        assert_eq!(expected_time(&schedule, &sample), Some(Duration::from_secs(6)));
        assert_eq!(expected_time(&schedule, &[]), None);
    }

    #[test]
    fn a_calibration_meets_as_many_players_as_it_can() {
        let pairings: Vec<[usize; 2]> = (0..10).flat_map(|a| (a + 1..10).map(move |b| [a, b])).collect();
        let schedule = schedule::paired(&pairings, 2, 1);
        let units: Vec<std::ops::Range<usize>> = (0..schedule.len()).map(|i| i..i + 1).collect();
        let chosen = calibration_units(&schedule, &units, 5);
        let mut players: Vec<usize> = chosen.iter().flat_map(|&u| schedule[u].seats).collect();
        players.sort_unstable();
        players.dedup();
        assert_eq!((chosen.len(), players.len()), (5, 10), "{chosen:?}");
    }

    #[test]
    fn wall_times_read_hours() {
        assert_eq!(parse_wall_time("12h"), Ok(Duration::from_secs(12 * 3600)));
        assert_eq!(parse_wall_time("90m"), Ok(Duration::from_secs(5400)));
        assert!(parse_wall_time("-1h").is_err() && parse_wall_time("soon").is_err());
    }

    #[test]
    fn long_durations_read_well() {
        assert_eq!(long(Duration::from_secs(20 * 86_400)), "20.0 days");
        assert_eq!(long(Duration::from_secs(5 * 3600)), "5.0 h");
        assert_eq!(long(Duration::from_secs(600)), "10 min");
    }
}
