//! Intuitive AI's Expert never goes over its reveal budget: 200 games at
//! 100 ms a reveal, each reveal timed by the referee. The whole 4x4 search
//! takes seconds, so Expert must cut it short (it aims at a fifth of the
//! time left), answer in time, and keep what it finished.
//!
//! No other test competes with it for the cores (main.rs). The budget
//! leaves room for the machine all the same: on a 2-core
//! machine at load 5, Expert's reveals here took up to about 20 ms, but
//! about one in 5000 was stalled past 50 ms (and Hard's 10 us reveals were
//! seen past 20 ms), which no player can prevent: the reveals are charged on
//! the CPU clock, as the server charges, so such a stall is not Expert's.

use arena_core::{
    games::intuitive::IntuitiveAi,
    play::solo::{self, Budgets},
};
use std::time::Duration;

use arena_core::{
    games::intuitive::record::{IntuitiveEnding, IntuitiveSettings},
    play::seeds,
};
use reference_bots::intuitive::Expert;

#[test]
fn expert_answers_every_reveal_within_a_100ms_budget_over_200_games() {
    let _machine = super::machine();
    let budget = Duration::from_millis(100);
    let settings = IntuitiveSettings {
        budgets: Budgets {
            turn: arena_core::play::time_control::TimeControl::PerTurn(budget),
            clock: arena_core::play::clock::Clock::Cpu,
            ..Budgets::default()
        },
        ..IntuitiveSettings::default()
    };
    let games = 200;
    let mut expert = Expert::with_own_cache();
    let (mut reveals, mut slowest, mut total) = (0u64, Duration::ZERO, 0i64);
    for i in 0..games {
        let record = solo::play_local::<IntuitiveAi>(&settings, seeds::derive(5, i), &mut expert);
        // A reveal over budget ends its game as a fault.
        assert!(!matches!(record.ending, IntuitiveEnding::Fault(_)), "game {i}: {}", record.ending);
        reveals += record.reveals.len() as u64;
        slowest = slowest.max(record.reveals.iter().map(|r| r.time.cpu).max().unwrap_or_default());
        total += i64::from(record.score);
    }
    assert!(slowest <= budget, "Expert's slowest reveal took {slowest:?} of {budget:?}");
    // It used its time: the cut searches kept states, and many reveals
    // (late in games, where the tree is small) were answered exactly.
    assert!(expert.cached_states() > 10_000, "the cut searches kept only {}", expert.cached_states());
    assert!(expert.guesses() < reveals * 3 / 4, "{} of {reveals} reveals were guesses", expert.guesses());
    // Hard's answers where it guessed, optimal ones elsewhere: near Hard's
    // 0.789 or better, far above random's -0.433 (200 games: +-0.13).
    let mean = total as f64 / games as f64;
    assert!(mean > 0.5, "mean score {mean}");
}
