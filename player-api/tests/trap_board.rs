//! The rules of Trap as the arena enforces them (docs/rules/trap.md,
//! shared design "Trap"), checked against the public rules API.
//!
//! This file tests the board: the start, neighbours and moves, the check
//! of a move, the display and the drawings, and the `Cells` and `Pos`
//! values. The throw is tested in trap_throws.rs, the end checks in
//! trap_endings.rs.
//!
//! Every expected value below is worked out by hand from the rules, not
//! copied from a run: neighbour sets are listed cell by cell.

mod common;

use common::{board, cells, p};
use player_api::trap::{
    Cell, Cells, IllegalMove, IllegalTrap, Pos, TrapState, DEFAULT_SIZE, DEFAULT_TURN_CAP, MAX_SIZE, MIN_SIZE,
};
use player_api::Seat;

// ---------------------------------------------------------------- helpers

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
