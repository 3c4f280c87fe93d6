//! The rules of Trap as the arena enforces them (docs/rules/trap.md,
//! shared design "Trap"), checked against the public rules API.
//!
//! This file tests the end checks: when a player is trapped, by traps, the
//! opponent, a move or a throw's landing.
//!
//! Every expected value below is worked out by hand from the rules, not
//! copied from a run: each position is drawn, and the cells left around
//! each player are counted on the drawing.

mod common;

use common::{board, cells, p};
use player_api::Seat;

// ------------------------------------------------------------ end checks

#[test]
fn a_player_surrounded_by_traps_cannot_move() {
    let s = board(
        "
        . . . . . . .
        . . . . . . .
        . . # # # . .
        . . # 1 # . .
        . . # # # . .
        . . . . . . .
        . . . 2 . . .
        ",
    );
    assert!(!s.can_move(Seat::One));
    assert!(s.legal_moves(Seat::One).is_empty());
    assert!(s.can_move(Seat::Two));
}

#[test]
fn one_free_neighbour_is_enough_to_move() {
    let s = board(
        "
        . . . . . . .
        . . . . . . .
        . . # # # . .
        . . # 1 # . .
        . . # # . . .
        . . . . . . .
        . . . 2 . . .
        ",
    );
    assert!(s.can_move(Seat::One));
    assert_eq!(s.legal_moves(Seat::One), cells(&[(4, 4)]));
}

#[test]
fn traps_and_the_opponent_together_trap_a_player() {
    let s = board(
        "
        . . . . . . .
        . . . . . . .
        . . 2 # # . .
        . . # 1 # . .
        . . # # # . .
        . . . . . . .
        . . . . . . .
        ",
    );
    assert!(!s.can_move(Seat::One));
    // Player 2 has (1,1), (1,2), (1,3), (2,1), (3,1).
    assert_eq!(s.legal_moves(Seat::Two).len(), 5);
}

#[test]
fn a_corner_player_is_trapped_by_three_traps() {
    let s = board(
        "
        1 # . . . . .
        # # . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . 2 . . .
        ",
    );
    assert!(!s.can_move(Seat::One));
    assert!(s.can_move(Seat::Two));
}

#[test]
fn an_edge_player_is_trapped_by_five_traps() {
    let s = board(
        "
        . . . 1 . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . # # # . .
        . . . # 2 # . .
        ",
    );
    assert!(!s.can_move(Seat::Two));
    assert!(s.can_move(Seat::One));
}

#[test]
fn a_move_alone_can_trap_the_opponent() {
    // Check 1: player 2 in the corner keeps one free cell, (5,6); player 1 steps onto it.
    let mut s = board(
        "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . 1 .
        . . . . . # .
        . . . . . # 2
        ",
    );
    assert_eq!(s.legal_moves(Seat::Two), cells(&[(5, 6)]));
    assert_eq!(s.check_move(Seat::One, p(5, 6)), Ok(()));
    s.move_player(Seat::One, p(5, 6));
    assert!(!s.can_move(Seat::Two));
    assert!(s.can_move(Seat::One));
}

#[test]
fn a_trap_landing_can_trap_the_opponent() {
    // Check 2: player 1 at (4,4) aims at (5,6), the last free cell of player 2.
    let s = board(
        "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . 1 . .
        . . . . . # .
        . . . . . # 2
        ",
    );
    let t = s.throw(Seat::One, p(5, 6));
    assert_eq!(t.hit_twentieths(), 18); // d = 1 + 2 = 3
    let mut hit = s;
    hit.place_trap(t.land(0, 0));
    assert!(!hit.can_move(Seat::Two));
    // Every miss of this throw leaves (5,6) free.
    for pick in 0..t.miss_cells().len() {
        let mut missed = s;
        missed.place_trap(t.land(19, pick));
        assert!(missed.can_move(Seat::Two), "miss {pick} at {}", t.land(19, pick));
    }
}

#[test]
fn a_wasted_aim_at_a_trap_can_still_trap_the_opponent_by_a_miss() {
    // Player 1 aims at the trap (5,5); a miss onto (5,6) traps player 2.
    let s = board(
        "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . 1 . . .
        . . . . . # .
        . . . . . # 2
        ",
    );
    let t = s.throw(Seat::One, p(5, 5));
    assert_eq!(t.hit_twentieths(), 18); // d = 1 + 2 = 3
                                        // Misses of (5,5) in row-major order: (4,4), (4,5), (4,6), (5,4), (5,6), (6,4), (6,5).
    let pick = t.miss_cells().into_iter().position(|c| c == p(5, 6)).unwrap() as u32;
    assert_eq!(pick, 4);
    let mut s2 = s;
    s2.place_trap(t.land(19, pick));
    assert!(!s2.can_move(Seat::Two));
}

#[test]
fn a_player_can_box_itself_in_with_its_own_trap() {
    // Player 1 in the corner with two traps beside it throws at (1,1) and hits.
    let s = board(
        "
        1 # . . .
        # . . . .
        . . . . .
        . . . . .
        . . 2 . .
        ",
    );
    let t = s.throw(Seat::One, p(1, 1));
    assert_eq!(t.hit_twentieths(), 19); // d = 2
                                        // The thrower's own cell (0,0) takes no miss.
    assert_eq!(t.miss_cells(), cells(&[(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]));
    let mut after = s;
    after.place_trap(t.land(0, 0));
    assert!(!after.can_move(Seat::One), "player 1 boxed itself in");
    assert!(after.can_move(Seat::Two), "player 2 can still move, so the throw did not win");
}
