//! The rules of Hexapawn as the arena enforces them (docs/rules/hexapawn.md),
//! on hand-made positions and by walking the whole game tree.

use std::collections::HashSet;

use player_api::{
    hexapawn::{HexMove, HexWin, HexapawnBoard, IllegalHexMove, Square, MAX_PLIES},
    Seat,
};

fn sq(row: u8, col: u8) -> Square {
    Square::new(row, col)
}

fn mv(from: (u8, u8), to: (u8, u8)) -> HexMove {
    HexMove::new(sq(from.0, from.1), sq(to.0, to.1))
}

fn board(text: &str, to_move: Seat) -> HexapawnBoard {
    HexapawnBoard::from_diagram(text, to_move).unwrap()
}

#[test]
fn the_start_and_its_moves() {
    let start = HexapawnBoard::start();
    assert_eq!(start.to_string(), "BBB\n...\nWWW\n");
    assert_eq!(start.to_move(), Seat::One, "White moves first");
    assert_eq!(start.legal_moves(), vec![mv((2, 0), (1, 0)), mv((2, 1), (1, 1)), mv((2, 2), (1, 2))]);
    let after = start.play(mv((2, 1), (1, 1)));
    assert_eq!(after.to_string(), "BBB\n.W.\nW.W\n");
    assert_eq!(after.to_move(), Seat::Two);
    // Black: (0,0) and (0,2) may capture on (1,1); (0,0)->(1,0), (0,2)->(1,2) straight; (0,1) is blocked.
    let mut moves = after.legal_moves();
    moves.sort();
    assert_eq!(moves, vec![mv((0, 0), (1, 0)), mv((0, 0), (1, 1)), mv((0, 2), (1, 1)), mv((0, 2), (1, 2))]);
}

#[test]
fn every_illegal_move_is_named() {
    let start = HexapawnBoard::start();
    assert_eq!(start.check_move(mv((2, 0), (3, 0))), Err(IllegalHexMove::OffBoard));
    assert_eq!(
        start.check_move(mv((0, 0), (1, 0))),
        Err(IllegalHexMove::NotYourPawn),
        "Black's pawn on White's turn"
    );
    assert_eq!(start.check_move(mv((1, 0), (0, 0))), Err(IllegalHexMove::NotYourPawn), "an empty square");
    assert_eq!(start.check_move(mv((2, 0), (0, 0))), Err(IllegalHexMove::NotAPawnStep), "no double step");
    assert_eq!(start.check_move(mv((2, 0), (2, 1))), Err(IllegalHexMove::NotAPawnStep), "sideways");
    assert_eq!(start.check_move(mv((2, 0), (1, 2))), Err(IllegalHexMove::NotAPawnStep), "two files");
    assert_eq!(start.check_move(mv((2, 0), (1, 1))), Err(IllegalHexMove::NothingToCapture));
    let facing = board("B.B .B. W.W", Seat::One);
    assert_eq!(facing.check_move(mv((2, 0), (1, 0))), Ok(()));
    assert_eq!(facing.check_move(mv((2, 0), (1, 1))), Ok(()), "a diagonal capture");
    let blocked = board("B.B .B. WW.", Seat::One);
    assert_eq!(blocked.check_move(mv((2, 1), (1, 1))), Err(IllegalHexMove::Blocked));
    let own = board("B.B .W. W..", Seat::One);
    assert_eq!(own.check_move(mv((2, 0), (1, 1))), Err(IllegalHexMove::NothingToCapture), "not its own pawn");
    let over = board("W.B ... ...", Seat::Two);
    assert_eq!(over.check_move(mv((0, 2), (1, 2))), Err(IllegalHexMove::GameOver));
    assert_eq!(IllegalHexMove::Blocked.to_string(), "a pawn blocks the square ahead");
}

#[test]
fn the_three_ways_to_win() {
    assert_eq!(board("W.B ... ...", Seat::Two).decided(), Some((Seat::One, HexWin::FarRow)));
    assert_eq!(board("... ... B.W", Seat::One).decided(), Some((Seat::Two, HexWin::FarRow)));
    assert_eq!(board("... .W. ...", Seat::Two).decided(), Some((Seat::One, HexWin::AllCaptured)));
    // Pawns locked face to face: the side to move has no move and loses.
    let locked = board("... B.B W.W", Seat::One);
    assert_eq!(locked.decided(), Some((Seat::Two, HexWin::NoMove)));
    assert!(locked.legal_moves().is_empty());
    assert_eq!(board("B.. W.. ...", Seat::Two).decided(), Some((Seat::One, HexWin::NoMove)));
    assert_eq!(board("B.. W.. ...", Seat::One).decided(), Some((Seat::Two, HexWin::NoMove)));
    assert_eq!(board("B.. .W. ...", Seat::One).decided(), None, "White can still step to (0,1)");
    assert_eq!(HexapawnBoard::start().decided(), None);
}

/// Every position reachable from the start, with the plies it took.
fn walk(board: HexapawnBoard, plies: u32, seen: &mut Vec<(HexapawnBoard, u32)>) {
    seen.push((board, plies));
    for m in board.legal_moves() {
        assert_eq!(board.check_move(m), Ok(()), "a listed move is legal");
        walk(board.play(m), plies + 1, seen);
    }
}

#[test]
fn the_game_tree_every_game_ends_within_seven_plies_and_never_stalls() {
    let mut seen = Vec::new();
    walk(HexapawnBoard::start(), 0, &mut seen);
    for (board, plies) in &seen {
        assert!(*plies <= MAX_PLIES);
        // A position is decided exactly when it has no legal move to offer.
        assert_eq!(board.legal_moves().is_empty(), board.winner().is_some(), "{board}");
    }
    assert_eq!(seen.iter().map(|(_, p)| *p).max(), Some(MAX_PLIES), "seven plies do happen");
}

#[test]
fn black_faces_nineteen_positions_up_to_mirror_and_thirty_seven_without() {
    let mut seen = Vec::new();
    walk(HexapawnBoard::start(), 0, &mut seen);
    let black_to_move: HashSet<HexapawnBoard> =
        seen.iter().map(|(b, _)| *b).filter(|b| b.to_move() == Seat::Two && b.winner().is_none()).collect();
    assert_eq!(black_to_move.len(), 37);
    let up_to_mirror: HashSet<HexapawnBoard> =
        black_to_move.iter().map(|b| std::cmp::min(*b, b.mirrored())).collect();
    assert_eq!(up_to_mirror.len(), 19);
}

#[test]
fn mirrors_and_keys() {
    let b = board("B.. .W. ..W", Seat::Two);
    assert_eq!(b.mirrored().to_string(), "..B\n.W.\nW..\n");
    assert_eq!(b.mirrored().mirrored(), b);
    assert_eq!(mv((2, 0), (1, 1)).mirrored(), mv((2, 2), (1, 1)));
    assert_ne!(b.key(), b.mirrored().key());
    assert_eq!(
        HexapawnBoard::from_squares(&[sq(0, 0)], &[sq(0, 0)], Seat::One),
        None,
        "one square, two pawns"
    );
    assert_eq!(HexapawnBoard::from_squares(&[sq(3, 0)], &[], Seat::One), None, "off the board");
}

#[test]
fn a_diagram_reads_back_what_display_draws() {
    let start = HexapawnBoard::start();
    assert_eq!(HexapawnBoard::from_diagram(&start.to_string(), Seat::One), Ok(start));
    let err = HexapawnBoard::from_diagram("BBB .x. WWW", Seat::One).unwrap_err();
    assert!(err.contains("unknown symbol 'x'"), "{err}");
    assert!(HexapawnBoard::from_diagram("BBBB ... WWW", Seat::One)
        .unwrap_err()
        .contains("off the 3x3 board"));
}
