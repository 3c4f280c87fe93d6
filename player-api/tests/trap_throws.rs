//! The rules of Trap as the arena enforces them (docs/rules/trap.md,
//! shared design "Trap"), checked against the public rules API.
//!
//! This file tests the throw: the check of a target, the landing
//! distribution, and `land`, which maps the referee's draws to a cell.
//!
//! Every expected value below is worked out by hand from the rules, not
//! copied from a run: neighbour sets are listed cell by cell, hit chances
//! come from p = 1 - 0.05 (d - 1), miss chances from (1 - p) / n.

mod common;

use common::{board, cells, p};
use player_api::trap::{Cell, IllegalTrap, Pos, Throw, TrapState};
use player_api::Seat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------- helpers

/// A throw's outcomes in order, gathered with a plain loop (see `to_vec` in trap_board.rs).
fn outcomes_of(t: &Throw) -> Vec<(Pos, f64)> {
    let mut out = Vec::new();
    for outcome in t.outcomes() {
        out.push(outcome);
    }
    out
}

fn assert_close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 1e-12, "expected {expected}, got {actual}");
}

/// A cell at manhattan distance `d` from (0, 0) on a board of `size`,
/// walking down the left column first, then along the bottom row.
fn cell_at_distance_from_origin(d: u8, size: u8) -> Pos {
    let row = d.min(size - 1);
    p(row, d - row)
}

// ---------------------------------------------------------- check_target

#[test]
fn a_target_off_the_board_is_illegal() {
    let s = TrapState::new(7);
    assert_eq!(s.check_target(p(7, 0)), Err(IllegalTrap::OffBoard));
    assert_eq!(s.check_target(p(0, 7)), Err(IllegalTrap::OffBoard));
    assert_eq!(s.check_target(p(9, 9)), Err(IllegalTrap::OffBoard));
    assert_eq!(TrapState::new(8).check_target(p(7, 0)), Ok(()));
}

#[test]
fn a_target_on_either_player_is_illegal() {
    let s = TrapState::new(7);
    assert_eq!(s.check_target(p(0, 3)), Err(IllegalTrap::OnPlayer(Seat::One)));
    assert_eq!(s.check_target(p(6, 3)), Err(IllegalTrap::OnPlayer(Seat::Two)));
}

#[test]
fn a_target_on_an_existing_trap_is_legal() {
    let s = TrapState::from_parts(7, [p(0, 3), p(6, 3)], [p(3, 3)]);
    assert_eq!(s.check_target(p(3, 3)), Ok(()));
}

#[test]
fn every_cell_without_a_player_is_a_legal_target() {
    for n in [3u8, 7, 8] {
        let s = TrapState::from_parts(n, [p(0, 1), p(n - 1, 1)], [p(1, 1)]);
        let legal = (0..n).flat_map(|r| (0..n).map(move |c| p(r, c))).filter(|&t| s.check_target(t).is_ok());
        assert_eq!(legal.count() as u32, n as u32 * n as u32 - 2, "on {n}x{n}");
    }
}

// ----------------------------------------------------------------- throw

#[test]
fn hit_chance_falls_by_one_twentieth_per_step_of_distance() {
    // p = 1 - 0.05 (d - 1), by hand: d = 1 -> 1.00, 2 -> 0.95, ..., 12 -> 0.45.
    let by_hand = [1.00, 0.95, 0.90, 0.85, 0.80, 0.75, 0.70, 0.65, 0.60, 0.55, 0.50, 0.45];
    // Player 1 throws from the corner (0,0); player 2 stands in the far other corner (0,6).
    let s = TrapState::from_parts(7, [p(0, 0), p(0, 6)], []);
    for d in 1..=12u8 {
        let target = cell_at_distance_from_origin(d, 7);
        assert_eq!(s.check_target(target), Ok(()));
        let t = s.throw(Seat::One, target);
        assert_eq!(t.target(), target);
        assert_eq!(t.distance(), d as u32);
        assert_eq!(t.hit_twentieths(), 21 - d as u32, "d = {d}");
        assert_close(t.hit_chance(), by_hand[d as usize - 1]);
    }
}

#[test]
fn the_longest_throws_on_8x8_hit_with_0_40_and_0_35() {
    let s = TrapState::from_parts(8, [p(0, 0), p(0, 7)], []);
    let t13 = s.throw(Seat::One, p(7, 6));
    assert_eq!((t13.distance(), t13.hit_twentieths()), (13, 8));
    assert_close(t13.hit_chance(), 0.40);
    let t14 = s.throw(Seat::One, p(7, 7));
    assert_eq!((t14.distance(), t14.hit_twentieths()), (14, 7));
    assert_close(t14.hit_chance(), 0.35);
}

#[test]
fn distance_is_measured_from_the_thrower_of_the_given_seat() {
    let s = TrapState::from_parts(7, [p(0, 0), p(6, 6)], []);
    // Target (2,3): 5 from player 1, 7 from player 2.
    assert_eq!(s.throw(Seat::One, p(2, 3)).distance(), 5);
    assert_eq!(s.throw(Seat::One, p(2, 3)).hit_twentieths(), 16);
    assert_eq!(s.throw(Seat::Two, p(2, 3)).distance(), 7);
    assert_eq!(s.throw(Seat::Two, p(2, 3)).hit_twentieths(), 14);
}

#[test]
fn a_throw_at_distance_one_always_hits() {
    let s = TrapState::from_parts(7, [p(3, 3), p(0, 0)], []);
    let t = s.throw(Seat::One, p(3, 4));
    assert_eq!(t.hit_twentieths(), 20);
    assert_close(t.chance_of(p(3, 4)), 1.0);
    assert_close(t.miss_chance_each(), 0.0);
    let outcomes = outcomes_of(&t);
    assert_eq!(outcomes, vec![(p(3, 4), 1.0)]);
    for roll in 0..20 {
        assert_eq!(t.land(roll, 0), p(3, 4));
    }
}

/// The worked example of docs/rules/trap.md: player 1 at (3,3) aims at (5,4).
fn worked_example() -> (TrapState, Throw) {
    let s = TrapState::from_parts(7, [p(3, 3), p(0, 6)], []);
    let t = s.throw(Seat::One, p(5, 4));
    (s, t)
}

#[test]
fn an_open_target_shares_the_miss_among_its_eight_neighbours() {
    let (_, t) = worked_example();
    // d = |5-3| + |4-3| = 3, p = 1 - 0.05 * 2 = 0.9 = 18/20.
    assert_eq!(t.distance(), 3);
    assert_eq!(t.hit_twentieths(), 18);
    assert_close(t.hit_chance(), 0.9);
    assert_eq!(t.miss_cells(), cells(&[(4, 3), (4, 4), (4, 5), (5, 3), (5, 5), (6, 3), (6, 4), (6, 5)]));
    // 0.1 / 8 = 0.0125 each.
    assert_close(t.miss_chance_each(), 0.0125);
    for miss in t.miss_cells() {
        assert_close(t.chance_of(miss), 0.0125);
    }
}

#[test]
fn traps_around_the_target_still_take_their_share_of_the_miss() {
    let s = TrapState::from_parts(7, [p(3, 3), p(0, 6)], [p(4, 4), p(6, 5)]);
    let t = s.throw(Seat::One, p(5, 4));
    assert_eq!(t.miss_cells().len(), 8);
    assert!(t.miss_cells().contains(p(4, 4)) && t.miss_cells().contains(p(6, 5)));
    assert_close(t.chance_of(p(4, 4)), 0.0125);
}

#[test]
fn the_opponent_next_to_the_target_takes_no_share_of_the_miss() {
    // The second worked example: player 2 stands at (6,4), right below the target.
    let s = TrapState::from_parts(7, [p(3, 3), p(6, 4)], []);
    let t = s.throw(Seat::One, p(5, 4));
    assert_eq!(t.hit_twentieths(), 18);
    assert_eq!(t.miss_cells(), cells(&[(4, 3), (4, 4), (4, 5), (5, 3), (5, 5), (6, 3), (6, 5)]));
    assert_close(t.miss_chance_each(), 0.1 / 7.0);
    assert_eq!(t.chance_of(p(6, 4)), 0.0);
}

#[test]
fn the_thrower_next_to_the_target_takes_no_share_of_the_miss() {
    // Player 1 at (3,3) aims at (4,4): d = 2, p = 0.95; (3,3) is one of the 8 neighbours.
    let s = TrapState::from_parts(7, [p(3, 3), p(0, 6)], []);
    let t = s.throw(Seat::One, p(4, 4));
    assert_eq!(t.hit_twentieths(), 19);
    assert_eq!(t.miss_cells(), cells(&[(3, 4), (3, 5), (4, 3), (4, 5), (5, 3), (5, 4), (5, 5)]));
    assert_close(t.miss_chance_each(), 0.05 / 7.0);
    assert_eq!(t.chance_of(p(3, 3)), 0.0);
}

#[test]
fn both_players_next_to_the_target_leave_six_miss_cells() {
    let s = TrapState::from_parts(7, [p(2, 2), p(4, 4)], []);
    let t = s.throw(Seat::Two, p(3, 3));
    assert_eq!(t.hit_twentieths(), 19); // d = 2
    assert_eq!(t.miss_cells(), cells(&[(2, 3), (2, 4), (3, 2), (3, 4), (4, 2), (4, 3)]));
    assert_close(t.miss_chance_each(), 0.05 / 6.0);
}

#[test]
fn a_target_on_an_existing_trap_is_hit_like_any_other() {
    let s = TrapState::from_parts(7, [p(3, 3), p(0, 6)], [p(5, 4)]);
    let t = s.throw(Seat::One, p(5, 4));
    assert_eq!(t.target(), p(5, 4));
    assert_eq!(t.hit_twentieths(), 18);
    assert_close(t.chance_of(p(5, 4)), 0.9);
    assert_eq!(t.miss_cells().len(), 8);
    assert!(!t.miss_cells().contains(p(5, 4)));
    assert_eq!(t.land(0, 0), p(5, 4));
}

#[test]
fn a_corner_target_shares_the_miss_among_three_cells() {
    // From (3,3) to (6,6): d = 6, p = 0.75, 3 neighbours share 0.25.
    let s = TrapState::from_parts(7, [p(3, 3), p(0, 0)], []);
    let t = s.throw(Seat::One, p(6, 6));
    assert_eq!(t.hit_twentieths(), 15);
    assert_eq!(t.miss_cells(), cells(&[(5, 5), (5, 6), (6, 5)]));
    assert_close(t.miss_chance_each(), 0.25 / 3.0);
}

#[test]
fn a_corner_target_next_to_the_opponent_has_two_miss_cells() {
    // 3x3: player 2 at (1,1) is a neighbour of the corner (0,0).
    let s = board(
        "
        . . .
        . 2 .
        . 1 .
        ",
    );
    let t = s.throw(Seat::One, p(0, 0));
    assert_eq!(t.distance(), 3);
    assert_eq!(t.hit_twentieths(), 18);
    assert_eq!(t.miss_cells(), cells(&[(0, 1), (1, 0)]));
    assert_close(t.miss_chance_each(), 0.05);
}

#[test]
fn outcomes_list_the_target_first_then_the_misses_and_sum_to_one() {
    let positions = [
        TrapState::from_parts(7, [p(3, 3), p(6, 4)], [p(4, 4), p(0, 0)]),
        TrapState::new(3),
        TrapState::from_parts(8, [p(0, 0), p(7, 7)], [p(3, 3)]),
    ];
    for s in positions {
        let n = s.size();
        for seat in Seat::BOTH {
            for r in 0..n {
                for c in 0..n {
                    let target = p(r, c);
                    if s.check_target(target).is_err() {
                        continue;
                    }
                    let t = s.throw(seat, target);
                    let outcomes = outcomes_of(&t);
                    assert_eq!(outcomes[0].0, target);
                    let total: f64 = outcomes.iter().map(|o| o.1).sum();
                    assert!((total - 1.0).abs() < 1e-9, "{seat} at {target}: total {total}");
                    let misses: Vec<Pos> = outcomes[1..].iter().map(|o| o.0).collect();
                    let mut sorted = misses.clone();
                    sorted.sort();
                    assert_eq!(misses, sorted, "misses in row-major order");
                    for (cell, chance) in &outcomes {
                        assert!(*chance > 0.0);
                        assert_close(t.chance_of(*cell), *chance);
                        // A trap never lands on a player.
                        assert!(!matches!(s.cell(*cell), Some(Cell::Player(_))));
                    }
                    // A miss is possible exactly when p < 1.
                    let expect_misses =
                        if t.hit_twentieths() < 20 { t.miss_cells().len() as usize } else { 0 };
                    assert_eq!(misses.len(), expect_misses);
                }
            }
        }
    }
}

#[test]
fn chance_of_a_cell_outside_the_distribution_is_zero() {
    let (s, t) = worked_example();
    assert_close(t.chance_of(p(5, 4)), 0.9);
    assert_close(t.chance_of(p(6, 5)), 0.0125);
    assert_eq!(t.chance_of(p(3, 4)), 0.0); // two rows above the target
    assert_eq!(t.chance_of(p(0, 0)), 0.0);
    assert_eq!(t.chance_of(s.position(Seat::One)), 0.0);
    assert_eq!(t.chance_of(p(7, 4)), 0.0); // off the board
}

// ------------------------------------------------------------------ land

#[test]
fn a_roll_below_the_hit_chance_lands_on_the_target() {
    let (_, t) = worked_example(); // 18 twentieths
    for roll in 0..18 {
        for pick in 0..8 {
            assert_eq!(t.land(roll, pick), p(5, 4), "roll {roll}, pick {pick}");
        }
    }
}

#[test]
fn a_miss_lands_on_the_picked_neighbour_in_row_major_order() {
    let (_, t) = worked_example();
    let row_major = [(4, 3), (4, 4), (4, 5), (5, 3), (5, 5), (6, 3), (6, 4), (6, 5)];
    for roll in [18, 19] {
        for (pick, &(r, c)) in row_major.iter().enumerate() {
            assert_eq!(t.land(roll, pick as u32), p(r, c), "roll {roll}, pick {pick}");
        }
    }
}

#[test]
fn a_miss_skips_the_player_next_to_the_target() {
    let s = TrapState::from_parts(7, [p(3, 3), p(6, 4)], []);
    let t = s.throw(Seat::One, p(5, 4));
    // Row-major miss cells without (6,4): pick 6 is (6,5), not (6,4).
    assert_eq!(t.land(19, 5), p(6, 3));
    assert_eq!(t.land(19, 6), p(6, 5));
}

#[test]
fn sampled_landings_match_the_exact_chances() {
    const DRAWS: u32 = 200_000;
    let cases = [
        // The worked example: 0.9 on the target, 0.0125 on each of 8 neighbours.
        (TrapState::from_parts(7, [p(3, 3), p(0, 6)], []), Seat::One, p(5, 4)),
        // From (0,0) to (5,5): d = 10, p = 0.55; player 2 at (6,6) leaves 7
        // neighbours (one of them a trap) sharing 0.45.
        (TrapState::from_parts(7, [p(0, 0), p(6, 6)], [p(4, 5)]), Seat::One, p(5, 5)),
        // A corner target on 3x3 with the opponent beside it.
        (TrapState::from_parts(3, [p(2, 1), p(1, 1)], []), Seat::One, p(0, 0)),
    ];
    for (case, (s, seat, target)) in cases.into_iter().enumerate() {
        let t = s.throw(seat, target);
        let n = t.miss_cells().len();
        let mut rng = ChaCha8Rng::seed_from_u64(0x7_2a9_u64 + case as u64);
        let mut counts = std::collections::HashMap::<Pos, u32>::new();
        for _ in 0..DRAWS {
            let roll = rng.random_range(0..20u32);
            let pick = rng.random_range(0..n);
            *counts.entry(t.land(roll, pick)).or_default() += 1;
        }
        for &cell in counts.keys() {
            assert!(t.chance_of(cell) > 0.0, "case {case}: landed on {cell}, outside the distribution");
        }
        for (cell, chance) in t.outcomes() {
            let expected = DRAWS as f64 * chance;
            let sd = (DRAWS as f64 * chance * (1.0 - chance)).sqrt();
            let got = counts.get(&cell).copied().unwrap_or(0) as f64;
            assert!(
                (got - expected).abs() <= 4.0 * sd,
                "case {case}: {cell} landed {got} times, expected {expected:.0} +- {:.0}",
                4.0 * sd
            );
        }
    }
}
