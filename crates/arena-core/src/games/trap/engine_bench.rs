//! Trap's engine benchmark (`arena measure engine`, its
//! `BenchmarkedGame::engine_report`): how fast the rules core and the
//! Expert search are, on one core, in process (docs/benchmarks.md).
//!
//! - Random playouts: whole random-vs-random games on the fast core, the
//!   landing drawn as the referee draws it (a roll in 0..20, a pick among
//!   the misses) from a seeded ChaCha generator.
//! - Expert: nodes per second and the depth (in whole turns) reached in
//!   each given time, from the start and from a midgame position.

use std::{fmt::Write as _, time::Duration, time::Instant};

use player_api::{
    trap::{bitboard::nth_square, Bitboard, Pos, TrapState, DEFAULT_SIZE, DEFAULT_TURN_CAP},
    Seat,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference_bots::trap::Expert;

/// The results of a run of random games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Playouts {
    pub games: u64,
    pub turns: u64,
    /// Games won by seat one and by seat two; the rest hit the turn cap.
    pub wins: [u64; 2],
}

/// A uniformly random square of `squares` (not empty).
fn pick(squares: u64, rng: &mut ChaCha8Rng) -> u32 {
    nth_square(squares, rng.random_range(0..squares.count_ones())).expect("a square to pick")
}

/// One random-vs-random game from the start of a `size` board: a random
/// step, then a throw at a random free neighbour of the opponent (Easy's
/// policy), the three end checks as the referee applies them.
pub fn random_game(size: u8, rng: &mut ChaCha8Rng) -> (Option<Seat>, u32) {
    let mut board = Bitboard::new(size);
    let mut seat = Seat::One;
    for turn in 0..DEFAULT_TURN_CAP {
        let steps = board.moves(seat);
        if steps == 0 {
            return (Some(seat.other()), turn); // end check 3
        }
        board.step(seat, pick(steps, rng));
        let targets = board.moves(seat.other());
        if targets == 0 {
            return (Some(seat), turn + 1); // end check 1
        }
        let landing = board.throw(seat, pick(targets, rng));
        let roll = rng.random_range(0..20);
        let choice = match landing.misses.count_ones() {
            0 => 0,
            n => rng.random_range(0..n),
        };
        board.trap(landing.land(roll, choice));
        if !board.can_move(seat.other()) {
            return (Some(seat), turn + 1); // end check 2
        }
        seat = seat.other();
    }
    (None, DEFAULT_TURN_CAP)
}

/// Plays `games` random games on a 7x7 board.
pub fn playouts(games: u64, seed: u64) -> Playouts {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut result = Playouts::default();
    for _ in 0..games {
        let (winner, turns) = random_game(DEFAULT_SIZE, &mut rng);
        result.games += 1;
        result.turns += u64::from(turns);
        if let Some(seat) = winner {
            result.wins[seat.index()] += 1;
        }
    }
    result
}

/// The midgame position of the benchmark (7x7, 14 traps, player 1 to move).
pub fn midgame() -> TrapState {
    let traps = [
        (1, 2),
        (1, 5),
        (2, 1),
        (2, 3),
        (2, 4),
        (3, 0),
        (3, 5),
        (4, 2),
        (4, 4),
        (5, 1),
        (5, 3),
        (5, 5),
        (6, 2),
        (0, 4),
    ];
    TrapState::from_parts(7, [Pos::new(3, 3), Pos::new(4, 1)], traps.map(|(r, c)| Pos::new(r, c)))
}

/// The whole report.
pub fn run(games: u64, times: &[Duration]) -> String {
    let mut text = String::new();
    let started = Instant::now();
    let result = playouts(games, 1);
    let elapsed = started.elapsed().as_secs_f64();
    let _ = writeln!(text, "random playouts (7x7, random vs random, one core, in process):");
    let _ = writeln!(
        text,
        "  {} games in {:.2} s: {:.0} games/s, {:.1} turns per game, {:.1} ns per turn; seat 1 won {:.1}%\n",
        result.games,
        elapsed,
        result.games as f64 / elapsed,
        result.turns as f64 / result.games as f64,
        elapsed * 1e9 / result.turns as f64,
        100.0 * result.wins[0] as f64 / result.games as f64,
    );
    let _ = writeln!(text, "Expert search (one core; a fresh transposition table per search):\n");
    let _ = writeln!(text, "| position | time | depth (turns) | nodes | nodes/s |");
    let _ = writeln!(text, "| --- | --- | --- | --- | --- |");
    for (name, state) in [("start", TrapState::new(DEFAULT_SIZE)), ("midgame", midgame())] {
        for &time in times {
            let mut expert = Expert::default();
            let started = Instant::now();
            let found = expert.analyse(&state, Seat::One, time, 64);
            let used = started.elapsed().as_secs_f64();
            let _ = writeln!(
                text,
                "| {name} | {} | {} | {} | {:.2} M |",
                crate::report::units::short(time),
                found.depth,
                found.nodes,
                found.nodes as f64 / used / 1e6
            );
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_games_end_by_the_rules_and_repeat_with_the_seed() {
        let a = playouts(2000, 7);
        assert_eq!(a, playouts(2000, 7));
        assert_ne!(a, playouts(2000, 8));
        assert_eq!(a.games, 2000);
        // Random games end long before the cap, and both seats win some.
        assert_eq!(a.wins[0] + a.wins[1], 2000);
        assert!(a.wins.iter().all(|&w| w > 500), "{a:?}");
        assert!(a.turns / a.games > 5 && a.turns / a.games < 60, "{a:?}");
    }

    #[test]
    fn the_midgame_position_is_a_live_game() {
        let state = midgame();
        assert_eq!(state.traps().len(), 14);
        assert!(state.can_move(Seat::One) && state.can_move(Seat::Two));
    }
}
