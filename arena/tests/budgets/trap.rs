//! Trap's Expert never goes over its turn budget: 200 games at 50 ms a
//! turn, each turn timed by the referee (the whole turn, move and throw),
//! charged on the CPU clock as the server charges: Expert keeps to its
//! budget by its thread's CPU time, the clock it is charged on
//! (`player_api::thinking`), so it is within it whatever else the machine
//! runs, and the verdict does not depend on the load.

use arena_core::play::time_control::TimeControl;
use std::time::Duration;

use arena_core::{
    games::trap::referee::TrapSettings,
    play::clock::Clock,
    play::two_player::{self, MatchConfig},
    players::{Hosting, Level, Player},
};
use player_api::Seat;

#[test]
fn expert_never_exceeds_a_50ms_budget_over_200_games() {
    let _machine = super::machine();
    let budget = Duration::from_millis(50);
    let settings =
        TrapSettings { time: TimeControl::PerTurn(budget), clock: Clock::Cpu, ..TrapSettings::default() };
    let players = [Player::Builtin(Level::Expert), Player::Builtin(Level::Easy)];
    let config = MatchConfig {
        settings,
        games: 200,
        seed: 50,
        hosting: Hosting::in_process(),
        first_game: 0,
        concurrency: 1,
        controls: [None; 2],
        live: None,
    };
    let result = two_player::play([&players[0], &players[1]], &config, &mut |_| {}, None);
    let mut expert_turns = 0;
    let mut slowest = Duration::ZERO;
    for game in &result.games {
        assert!(game.fault().is_none(), "game {}: {}", game.index, game.record.ending);
        let expert_seat = if game.seats[0] == 0 { Seat::One } else { Seat::Two };
        for turn in game.record.turns.iter().filter(|t| t.seat == expert_seat) {
            // Turn.time is the referee's own clock around the whole turn.
            slowest = slowest.max(turn.time.cpu);
            expert_turns += 1;
        }
    }
    assert!(expert_turns > 1000, "only {expert_turns} turns of Expert's were timed");
    assert!(slowest <= budget, "Expert's slowest turn took {slowest:?} of {budget:?}");
    // It uses the time it has: not a depth-1 bot answering at once.
    assert!(result.tallies[0].mean_turn_time().wall > Duration::from_millis(2));
}
