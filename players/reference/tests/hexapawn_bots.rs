//! Hexapawn reference players, checked without a referee: Hard by walking
//! every game White can play, Medium on hand-made positions, the matchbox
//! learner's bookkeeping.

use player_api::{
    hexapawn::{
        HexMove, HexapawnAction, HexapawnBoard, HexapawnGameInfo, HexapawnPlayer, HexapawnRequest, Square,
    },
    GameOver, Outcome, Seat,
};
use reference_bots::hexapawn::{side_to_move_wins, Easy, Hard, Medium, Menace};

fn request(board: HexapawnBoard) -> HexapawnRequest {
    HexapawnRequest { board, seat: board.to_move(), ply: 0, time_left_us: 1_000_000 }
}

fn info(seat: Seat, seed: u64) -> HexapawnGameInfo {
    HexapawnGameInfo { seat, turn_budget_us: 1_000_000, seed }
}

fn moved(action: HexapawnAction) -> HexMove {
    match action {
        HexapawnAction::Move(mv) => mv,
        HexapawnAction::Resign => panic!("resigned"),
    }
}

/// Every move `player` makes in `board` over several seeds of its own generator.
fn choices(player: &mut dyn HexapawnPlayer, board: HexapawnBoard) -> Vec<HexMove> {
    let mut seen = Vec::new();
    for seed in 0..16 {
        player.new_game(&info(board.to_move(), seed));
        let mv = moved(player.get_move(&request(board)));
        assert_eq!(board.check_move(mv), Ok(()), "{board}");
        if !seen.contains(&mv) {
            seen.push(mv);
        }
    }
    seen
}

/// Walks every game in which White plays every legal move and Black plays
/// every move Hard chooses; returns (games, games White won).
fn hard_as_black(board: HexapawnBoard, hard: &mut Hard) -> (u32, u32) {
    if let Some(winner) = board.winner() {
        return (1, u32::from(winner == Seat::One));
    }
    let replies = match board.to_move() {
        Seat::One => board.legal_moves(),
        Seat::Two => choices(hard, board),
    };
    replies
        .into_iter()
        .map(|mv| hard_as_black(board.play(mv), hard))
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

#[test]
fn hard_never_loses_as_black_whatever_white_plays() {
    let (games, white_wins) = hard_as_black(HexapawnBoard::start(), &mut Hard::default());
    assert!(games > 10, "the walk covered {games} games");
    assert_eq!(white_wins, 0);
    assert!(!side_to_move_wins(&HexapawnBoard::start()), "with perfect play the second player wins");
}

#[test]
fn hard_as_white_makes_black_find_the_win() {
    // From the start every White move loses against perfect play; Hard plays
    // the longest resistance, so its first move is always a legal one that
    // Easy-level Black can still lose to.
    let mut hard = Hard::default();
    for mv in choices(&mut hard, HexapawnBoard::start()) {
        assert!(side_to_move_wins(&HexapawnBoard::start().play(mv)));
    }
}

fn board(text: &str, to_move: Seat) -> HexapawnBoard {
    HexapawnBoard::from_diagram(text, to_move).unwrap()
}

#[test]
fn medium_takes_a_win_and_avoids_a_loss() {
    let mut medium = Medium::default();
    // White's (1,1) reaches the far row three ways (a step, two captures);
    // (2,0)->(1,0) does not win.
    let win = board("B.B .W. W..", Seat::One);
    let mut picked = choices(&mut medium, win);
    picked.sort();
    let from = Square::new(1, 1);
    let wins: Vec<HexMove> = (0..3).map(|c| HexMove::new(from, Square::new(0, c))).collect();
    assert_eq!(picked, wins);
    // Black to move: (0,0)->(1,0) lets White's (2,1) capture... keep only the moves after which White cannot win at once.
    let danger = board("B.B .W. ..W", Seat::Two);
    for mv in choices(&mut medium, danger) {
        let after = danger.play(mv);
        let white_wins_now =
            after.legal_moves().into_iter().any(|w| after.play(w).winner() == Some(Seat::One));
        assert!(!white_wins_now, "{mv} lets White win at once");
    }
}

#[test]
fn easy_plays_every_legal_move_sometimes() {
    let mut easy = Easy::default();
    let mut seen = choices(&mut easy, HexapawnBoard::start());
    seen.sort();
    assert_eq!(seen, HexapawnBoard::start().legal_moves());
}

#[test]
fn menace_starts_knowing_nothing_and_forgets_a_losing_move() {
    let mut learner = Menace::new(3);
    let after = HexapawnBoard::start().play(HexMove::new(Square::new(2, 1), Square::new(1, 1)));
    // An unseen position: every legal move is a bead (its mirror pair counts once).
    assert_eq!(learner.beads(&after).len(), after.legal_moves().len());
    learner.new_game(&info(Seat::Two, 0));
    let played = moved(learner.get_move(&request(after)));
    let told = GameOver { outcome: Outcome::Loss, turns: 2, reason: "test".into() };
    learner.game_over(&told);
    let left = learner.beads(&after);
    assert!(!left.contains(&played), "the losing bead is gone");
    assert!(!left.contains(&played.mirrored()), "and so is its mirror image: one box for both");
    // A win teaches nothing.
    learner.new_game(&info(Seat::Two, 0));
    let _ = learner.get_move(&request(after));
    learner.game_over(&GameOver { outcome: Outcome::Win, turns: 2, reason: "test".into() });
    assert_eq!(learner.beads(&after), left);
}

#[test]
fn menace_resigns_from_an_empty_box() {
    let mut learner = Menace::new(1);
    // Black's only move, then a loss: the box empties and the learner resigns there.
    let one_move = board("B.. ... .W.", Seat::Two);
    assert_eq!(one_move.legal_moves().len(), 1);
    learner.new_game(&info(Seat::Two, 0));
    assert!(matches!(learner.get_move(&request(one_move)), HexapawnAction::Move(_)));
    learner.game_over(&GameOver { outcome: Outcome::Loss, turns: 1, reason: "test".into() });
    learner.new_game(&info(Seat::Two, 0));
    assert_eq!(learner.get_move(&request(one_move)), HexapawnAction::Resign);
}
