//! The rules of Trap as the arena enforces them (docs/rules/trap.md,
//! shared design "Trap"), checked against the public rules API.
//!
//! Every expected value below is worked out by hand from the rules, not
//! copied from a run: neighbour sets are listed cell by cell, hit chances
//! come from p = 1 - 0.05 (d - 1), miss chances from (1 - p) / n.

use player_api::trap::{
    Cell, Cells, IllegalMove, IllegalTrap, Pos, Throw, TrapState, DEFAULT_SIZE, DEFAULT_TURN_CAP, MAX_SIZE,
    MIN_SIZE,
};
use player_api::Seat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------- helpers

fn p(row: u8, col: u8) -> Pos {
    Pos::new(row, col)
}

fn cells(list: &[(u8, u8)]) -> Cells {
    list.iter().map(|&(r, c)| p(r, c)).collect()
}

/// A position drawn as text (`TrapState::from_diagram`).
fn board(text: &str) -> TrapState {
    TrapState::from_diagram(text).unwrap()
}

/// The cells of a set in iteration order. Built with a plain loop, not
/// `collect`: collecting calls `Cells::size_hint`, which recurses forever
/// (see `cells_report_their_exact_size_without_recursing`).
fn to_vec(set: Cells) -> Vec<Pos> {
    let mut out = Vec::new();
    for cell in set {
        out.push(cell);
    }
    out
}

/// A throw's outcomes in order, gathered with a plain loop (see `to_vec`).
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

// ------------------------------------------------- the test helper itself

#[test]
fn drawn_board_matches_the_position_built_from_parts() {
    let drawn = board(
        "
        . 1 .
        # . .
        . # 2
        ",
    );
    let built = TrapState::from_parts(3, [p(0, 1), p(2, 2)], [p(1, 0), p(2, 1)]);
    assert_eq!(drawn, built);
}

// ------------------------------------------------------------ start

#[test]
fn default_board_is_seven_by_seven_with_a_turn_cap_of_400() {
    assert_eq!(DEFAULT_SIZE, 7);
    assert_eq!(TrapState::default().size(), 7);
    assert_eq!(TrapState::default(), TrapState::new(7));
    assert_eq!(DEFAULT_TURN_CAP, 400);
}

#[test]
fn board_sizes_three_to_eight_are_supported() {
    assert_eq!((MIN_SIZE, MAX_SIZE), (3, 8));
    for n in 3..=8u8 {
        assert_eq!(TrapState::new(n).size(), n);
    }
}

#[test]
#[should_panic]
fn a_board_of_size_two_is_refused() {
    TrapState::new(2);
}

#[test]
#[should_panic]
fn a_board_of_size_nine_is_refused() {
    TrapState::new(9);
}

#[test]
fn players_start_in_the_middle_of_the_top_and_bottom_rows() {
    // N/2 rounds down: 3 -> 1, 4 -> 2, 7 -> 3, 8 -> 4.
    let expected_col = [(3u8, 1u8), (4, 2), (5, 2), (6, 3), (7, 3), (8, 4)];
    for (n, col) in expected_col {
        let s = TrapState::new(n);
        assert_eq!(s.position(Seat::One), p(0, col), "player 1 on {n}x{n}");
        assert_eq!(s.position(Seat::Two), p(n - 1, col), "player 2 on {n}x{n}");
        assert!(s.traps().is_empty());
        assert_eq!(s.free_cells().len(), n as u32 * n as u32 - 2);
    }
}

#[test]
fn each_player_has_five_moves_at_the_start_of_a_7x7_game() {
    let s = TrapState::new(7);
    assert_eq!(s.legal_moves(Seat::One), cells(&[(0, 2), (0, 4), (1, 2), (1, 3), (1, 4)]));
    assert_eq!(s.legal_moves(Seat::Two), cells(&[(5, 2), (5, 3), (5, 4), (6, 2), (6, 4)]));
}

#[test]
fn on_3x3_the_start_cells_do_not_block_each_other() {
    // (0,1) and (2,1) are two rows apart: neither is a neighbour of the other.
    let s = TrapState::new(3);
    assert_eq!(s.legal_moves(Seat::One), cells(&[(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]));
    assert_eq!(s.legal_moves(Seat::Two), cells(&[(1, 0), (1, 1), (1, 2), (2, 0), (2, 2)]));
}

// ------------------------------------------------- neighbours and moves

#[test]
fn corner_cell_has_three_neighbours() {
    let s = TrapState::from_parts(7, [p(3, 3), p(3, 5)], []);
    assert_eq!(s.free_neighbour_count(p(0, 0)), 3);
    assert_eq!(s.free_neighbours(p(0, 0)), cells(&[(0, 1), (1, 0), (1, 1)]));
    assert_eq!(s.free_neighbours(p(6, 6)), cells(&[(5, 5), (5, 6), (6, 5)]));
    assert_eq!(s.free_neighbours(p(0, 6)), cells(&[(0, 5), (1, 5), (1, 6)]));
    assert_eq!(s.free_neighbours(p(6, 0)), cells(&[(5, 0), (5, 1), (6, 1)]));
}

#[test]
fn edge_cell_has_five_neighbours() {
    let s = TrapState::from_parts(7, [p(3, 3), p(0, 0)], []);
    assert_eq!(s.free_neighbours(p(3, 0)), cells(&[(2, 0), (2, 1), (3, 1), (4, 0), (4, 1)]));
    assert_eq!(s.free_neighbours(p(6, 2)), cells(&[(5, 1), (5, 2), (5, 3), (6, 1), (6, 3)]));
    assert_eq!(s.free_neighbour_count(p(2, 6)), 5);
}

#[test]
fn centre_cell_has_eight_neighbours() {
    let s = TrapState::from_parts(7, [p(0, 0), p(6, 6)], []);
    assert_eq!(
        s.free_neighbours(p(3, 3)),
        cells(&[(2, 2), (2, 3), (2, 4), (3, 2), (3, 4), (4, 2), (4, 3), (4, 4)])
    );
}

#[test]
fn a_player_moves_to_any_of_eight_cells_from_the_centre_of_an_empty_board() {
    let s = TrapState::from_parts(7, [p(3, 3), p(0, 0)], []);
    assert_eq!(s.legal_moves(Seat::One).len(), 8);
    assert!(s.can_move(Seat::One));
}

#[test]
fn traps_and_the_opponent_are_not_free_neighbours() {
    let s = board(
        "
        . . . . . . .
        . . . . . . .
        . . # # . . .
        . . . 1 2 . .
        . . . . # . .
        . . . . . . .
        . . . . . . .
        ",
    );
    // Of the 8 cells around (3,3): (2,2), (2,3), (4,4) are traps, (3,4) is player 2.
    let expected = cells(&[(2, 4), (3, 2), (4, 2), (4, 3)]);
    assert_eq!(s.legal_moves(Seat::One), expected);
    assert_eq!(s.free_neighbour_count(p(3, 3)), 4);
    // Player 2 at (3,4): (2,3), (4,4) are traps, (3,3) is player 1.
    assert_eq!(s.legal_moves(Seat::Two), cells(&[(2, 4), (2, 5), (3, 5), (4, 3), (4, 5)]));
}

#[test]
fn traps_beyond_the_neighbourhood_do_not_reduce_mobility() {
    // A ring of traps at distance 2 from (3,3) leaves all 8 neighbours free.
    let ring = (1..=5u8)
        .flat_map(|r| (1..=5u8).map(move |c| p(r, c)))
        .filter(|q| q.row.abs_diff(3) == 2 || q.col.abs_diff(3) == 2);
    let s = TrapState::from_parts(7, [p(3, 3), p(6, 6)], ring);
    assert_eq!(s.traps().len(), 16);
    assert_eq!(s.free_neighbour_count(p(3, 3)), 8);
}

#[test]
fn neighbours_stop_at_the_edge_of_the_board_not_of_the_bit_grid() {
    // On 7x7 column 6 is the last column; on 8x8 column 7 exists.
    assert_eq!(p(3, 6).neighbours(7).len(), 5);
    assert_eq!(p(3, 6).neighbours(8).len(), 8);
    assert_eq!(p(6, 6).neighbours(7), cells(&[(5, 5), (5, 6), (6, 5)]));
    assert_eq!(p(6, 6).neighbours(8).len(), 8);
    assert_eq!(p(2, 2).neighbours(3), cells(&[(1, 1), (1, 2), (2, 1)]));
}

#[test]
fn a_cell_off_the_board_has_no_neighbours() {
    assert!(p(7, 3).neighbours(7).is_empty());
    assert!(p(3, 3).neighbours(3).is_empty());
    assert_eq!(p(7, 3).neighbours(8).len(), 5);
}

#[test]
fn on_3x3_the_centre_touches_every_other_cell() {
    let s = board(
        "
        2 . .
        . 1 .
        . . .
        ",
    );
    assert_eq!(s.legal_moves(Seat::One), cells(&[(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]));
    // Player 2 in the corner sees player 1 on its diagonal.
    assert_eq!(s.legal_moves(Seat::Two), cells(&[(0, 1), (1, 0)]));
}

#[test]
fn on_3x3_a_corner_player_is_blocked_by_traps_and_the_opponent() {
    let s = board(
        "
        1 # .
        . 2 .
        . . .
        ",
    );
    assert_eq!(s.legal_moves(Seat::One), cells(&[(1, 0)]));
}

#[test]
fn on_8x8_the_last_row_and_column_are_on_the_board() {
    let s = TrapState::new(8);
    assert_eq!(s.position(Seat::Two), p(7, 4));
    assert_eq!(s.legal_moves(Seat::Two), cells(&[(6, 3), (6, 4), (6, 5), (7, 3), (7, 5)]));
    let corner = TrapState::from_parts(8, [p(7, 7), p(0, 0)], [p(6, 6)]);
    assert_eq!(corner.legal_moves(Seat::One), cells(&[(6, 7), (7, 6)]));
    assert_eq!(corner.free_neighbours(p(3, 7)).len(), 5);
    assert_eq!(corner.free_neighbours(p(3, 6)).len(), 8);
}

#[test]
fn cell_reports_what_stands_there() {
    let s = board(
        "
        . 1 .
        # . .
        . . 2
        ",
    );
    assert_eq!(s.cell(p(0, 1)), Some(Cell::Player(Seat::One)));
    assert_eq!(s.cell(p(2, 2)), Some(Cell::Player(Seat::Two)));
    assert_eq!(s.cell(p(1, 0)), Some(Cell::Trap));
    assert_eq!(s.cell(p(1, 1)), Some(Cell::Empty));
    assert_eq!(s.cell(p(3, 0)), None);
    assert!(s.has_trap(p(1, 0)) && !s.has_trap(p(1, 1)));
    assert!(s.is_free(p(1, 1)) && !s.is_free(p(1, 0)) && !s.is_free(p(0, 1)) && !s.is_free(p(3, 3)));
}

#[test]
fn traps_given_on_a_player_or_off_the_board_are_dropped_by_from_parts() {
    let s = TrapState::from_parts(3, [p(0, 1), p(2, 1)], [p(0, 1), p(3, 3), p(1, 1)]);
    assert_eq!(s.traps(), cells(&[(1, 1)]));
    assert_eq!(s.cell(p(0, 1)), Some(Cell::Player(Seat::One)));
}

// ------------------------------------------------------------ check_move

#[test]
fn stepping_off_the_board_is_an_off_board_move() {
    let s = TrapState::new(7); // player 2 at (6,3)
    assert_eq!(s.check_move(Seat::Two, p(7, 3)), Err(IllegalMove::OffBoard));
    assert_eq!(s.check_move(Seat::Two, p(7, 2)), Err(IllegalMove::OffBoard));
    let corner = TrapState::from_parts(7, [p(3, 3), p(6, 6)], []);
    assert_eq!(corner.check_move(Seat::Two, p(6, 7)), Err(IllegalMove::OffBoard));
    assert_eq!(corner.check_move(Seat::Two, p(7, 7)), Err(IllegalMove::OffBoard));
    // Far off the board: still off the board, whatever else is wrong.
    assert_eq!(s.check_move(Seat::One, p(200, 200)), Err(IllegalMove::OffBoard));
}

#[test]
fn the_cell_below_row_six_exists_on_an_8x8_board() {
    let s = TrapState::from_parts(8, [p(0, 0), p(6, 3)], []);
    assert_eq!(s.check_move(Seat::Two, p(7, 3)), Ok(()));
}

#[test]
fn a_move_of_two_cells_is_not_a_king_step() {
    let s = TrapState::new(7); // player 1 at (0,3)
    let not_a_step = Err(IllegalMove::NotAKingStep { from: p(0, 3) });
    assert_eq!(s.check_move(Seat::One, p(2, 3)), not_a_step);
    assert_eq!(s.check_move(Seat::One, p(0, 5)), not_a_step);
    assert_eq!(s.check_move(Seat::One, p(0, 1)), not_a_step);
    assert_eq!(s.check_move(Seat::One, p(2, 4)), not_a_step); // a knight's jump
    assert_eq!(s.check_move(Seat::One, p(3, 3)), not_a_step);
}

#[test]
fn staying_in_place_is_not_a_move() {
    let s = TrapState::new(7);
    assert_eq!(s.check_move(Seat::One, p(0, 3)), Err(IllegalMove::NotAKingStep { from: p(0, 3) }));
    assert_eq!(s.check_move(Seat::Two, p(6, 3)), Err(IllegalMove::NotAKingStep { from: p(6, 3) }));
}

#[test]
fn stepping_onto_a_trap_is_illegal() {
    let s = TrapState::from_parts(7, [p(3, 3), p(0, 0)], [p(2, 2), p(4, 3)]);
    assert_eq!(s.check_move(Seat::One, p(2, 2)), Err(IllegalMove::Trap));
    assert_eq!(s.check_move(Seat::One, p(4, 3)), Err(IllegalMove::Trap));
    assert_eq!(s.check_move(Seat::One, p(2, 3)), Ok(()));
}

#[test]
fn stepping_onto_the_opponent_is_illegal() {
    let s = TrapState::from_parts(7, [p(3, 3), p(4, 4)], []);
    assert_eq!(s.check_move(Seat::One, p(4, 4)), Err(IllegalMove::Opponent));
    assert_eq!(s.check_move(Seat::Two, p(3, 3)), Err(IllegalMove::Opponent));
}

#[test]
fn every_king_step_onto_a_free_cell_is_legal() {
    let s = TrapState::from_parts(7, [p(3, 3), p(0, 0)], []);
    for (dr, dc) in [(-1i8, -1i8), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)] {
        let to = p((3 + dr) as u8, (3 + dc) as u8);
        assert_eq!(s.check_move(Seat::One, to), Ok(()), "step to {to}");
    }
}

#[test]
fn check_move_accepts_exactly_the_legal_moves() {
    for s in [
        board(
            "
            . . . . . . .
            . . # . . . .
            . # 1 # . . .
            . . 2 . . . .
            . . . . # . .
            . . . . . . .
            . . . . . . .
            ",
        ),
        board(
            "
            # 1 .
            . # .
            2 . .
            ",
        ),
        TrapState::new(8),
    ] {
        let n = s.size();
        for seat in Seat::BOTH {
            for r in 0..=n {
                for c in 0..=n {
                    let to = p(r, c);
                    assert_eq!(
                        s.check_move(seat, to).is_ok(),
                        s.legal_moves(seat).contains(to),
                        "{seat} to {to} on\n{s}"
                    );
                }
            }
        }
    }
}

#[test]
fn an_illegal_move_reads_as_the_recorded_reason() {
    let s = TrapState::new(7);
    let to = p(7, 3);
    let err = s.check_move(Seat::Two, to).unwrap_err();
    assert_eq!(format!("illegal move {to}: {err}"), "illegal move (7,3): off the board");
    let err = s.check_move(Seat::One, p(2, 3)).unwrap_err();
    assert_eq!(err.to_string(), "not one king step from (0,3)");
    assert_eq!(IllegalMove::Trap.to_string(), "a trap is there");
    assert_eq!(IllegalMove::Opponent.to_string(), "the opponent is there");
    assert_eq!(IllegalTrap::OnPlayer(Seat::Two).to_string(), "player 2 stands there");
    assert_eq!(IllegalTrap::OffBoard.to_string(), "off the board");
}

#[test]
fn moving_a_player_changes_only_its_position() {
    let mut s = TrapState::from_parts(7, [p(3, 3), p(0, 0)], [p(5, 5)]);
    s.move_player(Seat::One, p(4, 4));
    assert_eq!(s.position(Seat::One), p(4, 4));
    assert_eq!(s.position(Seat::Two), p(0, 0));
    assert_eq!(s.traps(), cells(&[(5, 5)]));
    assert_eq!(s.cell(p(3, 3)), Some(Cell::Empty));
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

// --------------------------------------------------------------- display

#[test]
fn the_start_position_displays_as_a_numbered_board() {
    let expected = "   0 1 2 3 4 5 6\n\
                    \x200 . . . 1 . . .\n\
                    \x201 . . . . . . .\n\
                    \x202 . . . . . . .\n\
                    \x203 . . . . . . .\n\
                    \x204 . . . . . . .\n\
                    \x205 . . . . . . .\n\
                    \x206 . . . 2 . . .\n";
    assert_eq!(TrapState::new(7).to_string(), expected);
}

#[test]
fn traps_display_as_hashes() {
    let s = TrapState::from_parts(3, [p(0, 1), p(2, 1)], [p(1, 0), p(1, 1)]);
    let expected = "   0 1 2\n 0 . 1 .\n 1 # # .\n 2 . 2 .\n";
    assert_eq!(s.to_string(), expected);
}

// ----------------------------------------------------------------- cells

#[test]
fn cells_iterate_in_row_major_order() {
    let set = cells(&[(3, 1), (0, 5), (3, 0), (1, 7), (0, 2), (7, 7)]);
    let order = to_vec(set);
    assert_eq!(order, vec![p(0, 2), p(0, 5), p(1, 7), p(3, 0), p(3, 1), p(7, 7)]);
}

#[test]
fn cells_count_each_cell_once() {
    let set = cells(&[(2, 2), (2, 2), (0, 0), (2, 2)]);
    assert_eq!(set.len(), 2);
    assert_eq!(to_vec(set), vec![p(0, 0), p(2, 2)]);
}

#[test]
fn nth_cell_counts_in_row_major_order() {
    let set = cells(&[(5, 5), (0, 1), (2, 3)]);
    assert_eq!(set.nth_cell(0), Some(p(0, 1)));
    assert_eq!(set.nth_cell(1), Some(p(2, 3)));
    assert_eq!(set.nth_cell(2), Some(p(5, 5)));
    assert_eq!(set.nth_cell(3), None);
    assert_eq!(Cells::EMPTY.nth_cell(0), None);
}

#[test]
fn an_empty_set_of_cells_yields_nothing() {
    assert!(Cells::EMPTY.is_empty());
    assert_eq!(Cells::EMPTY.len(), 0);
    assert_eq!(Cells::EMPTY.count(), 0);
    assert_eq!(cells(&[]), Cells::EMPTY);
}

#[test]
fn collecting_cells_keeps_membership() {
    let set = cells(&[(1, 2), (6, 0)]);
    assert!(set.contains(p(1, 2)) && set.contains(p(6, 0)));
    assert!(!set.contains(p(2, 1)) && !set.contains(p(0, 6)));
}

#[test]
fn collecting_cells_drops_positions_outside_the_8x8_grid() {
    let set = cells(&[(8, 0), (0, 8), (1, 1), (200, 3)]);
    assert_eq!(to_vec(set), vec![p(1, 1)]);
}

#[test]
fn a_board_of_size_n_has_n_squared_cells() {
    for n in 3..=8u8 {
        let all = Cells::board(n);
        assert_eq!(all.len(), n as u32 * n as u32);
        assert!(all.contains(p(n - 1, n - 1)));
        assert!(!all.contains(p(n, 0)) && !all.contains(p(0, n)));
        assert_eq!(all.nth_cell(n as u32), Some(p(1, 0)), "row 1 starts after {n} cells");
    }
}

#[test]
fn cells_report_their_exact_size_without_recursing() {
    let set = cells(&[(0, 0), (2, 2), (5, 1)]);
    assert_eq!(set.size_hint(), (3, Some(3)));
    assert_eq!(ExactSizeIterator::len(&set), 3);
}

#[test]
fn legal_moves_and_outcomes_can_be_collected_into_a_vec() {
    let s = TrapState::new(7);
    let moves: Vec<Pos> = s.legal_moves(Seat::One).collect();
    assert_eq!(moves, vec![p(0, 2), p(0, 4), p(1, 2), p(1, 3), p(1, 4)]);
    let outcomes: Vec<(Pos, f64)> = s.throw(Seat::One, p(1, 3)).outcomes().collect();
    assert_eq!(outcomes, vec![(p(1, 3), 1.0)]);
}

// ------------------------------------------------------------------ pos

#[test]
fn manhattan_distance_adds_row_and_column_differences() {
    assert_eq!(p(3, 3).manhattan(p(5, 4)), 3);
    assert_eq!(p(5, 4).manhattan(p(3, 3)), 3);
    assert_eq!(p(0, 0).manhattan(p(6, 6)), 12);
    assert_eq!(p(2, 2).manhattan(p(2, 2)), 0);
}

#[test]
fn manhattan_distance_of_far_apart_positions_does_not_overflow() {
    assert_eq!(p(255, 255).manhattan(p(0, 0)), 510);
}

#[test]
fn a_malformed_diagram_says_what_is_wrong() {
    let err = |text: &str| TrapState::from_diagram(text).unwrap_err();
    assert!(err("1 . .\n. x .\n. . 2").contains("unknown symbol \"x\" at (1,1)"));
    assert!(err("1 . .\n. .\n. . 2").contains("row 1 of the drawing is 2 wide, not 3"));
    assert!(err("1 .\n. 2").contains("the drawing has 2 rows"));
    assert!(err("1 . .\n. . .\n. . .").contains("both players"));
    let state = TrapState::from_diagram("1 # .\n. . .\n. . 2").unwrap();
    assert_eq!((state.position(Seat::One), state.position(Seat::Two)), (p(0, 0), p(2, 2)));
}
