//! The Hexapawn referee with scripted and reference players: every way a
//! game ends, what the players are told, determinism, the levels against
//! each other, and the matchbox learner's learning curve.

use std::sync::{Arc, Mutex};

use arena_core::games::hexapawn::referee::{
    self as hexapawn, HexapawnEnding, HexapawnRecord, HexapawnSettings,
};
use player_api::{
    hexapawn::{
        HexMove, HexWin, HexapawnAction, HexapawnBoard, HexapawnGameInfo, HexapawnPlayer, HexapawnRequest,
        IllegalHexMove, Square,
    },
    GameOver, Outcome, Seat,
};
use reference_bots::hexapawn::{Easy, Exploiter, Hard, Medium, Menace, SharedMenace};

/// Plays the scripted actions in order, then the first legal move; keeps
/// what it was told.
#[derive(Default)]
struct Script {
    actions: Vec<HexapawnAction>,
    infos: Vec<HexapawnGameInfo>,
    boards: Vec<HexapawnBoard>,
    results: Vec<GameOver>,
    panic_at: Option<usize>,
}

impl HexapawnPlayer for Script {
    fn new_game(&mut self, info: &HexapawnGameInfo) {
        self.infos.push(*info);
    }
    fn get_move(&mut self, req: &HexapawnRequest) -> HexapawnAction {
        assert_eq!(req.board.to_move(), req.seat, "asked only on its own turn");
        if self.panic_at == Some(self.boards.len()) {
            panic!("scripted panic");
        }
        self.boards.push(req.board);
        if self.actions.is_empty() {
            HexapawnAction::Move(req.board.legal_moves()[0])
        } else {
            self.actions.remove(0)
        }
    }
    fn game_over(&mut self, result: &GameOver) {
        self.results.push(result.clone());
    }
}

fn mv(from: (u8, u8), to: (u8, u8)) -> HexapawnAction {
    HexapawnAction::Move(HexMove::new(Square::new(from.0, from.1), Square::new(to.0, to.1)))
}

fn play(white: &mut dyn HexapawnPlayer, black: &mut dyn HexapawnPlayer, seed: u64) -> HexapawnRecord {
    hexapawn::play(&HexapawnSettings::default(), seed, [white, black])
}

#[test]
fn a_game_won_on_the_board_is_recorded_and_told_to_both() {
    // White pushes its middle pawn, Black captures it, White recaptures, ...
    let mut white = Script { actions: vec![mv((2, 1), (1, 1)), mv((2, 0), (1, 1))], ..Script::default() };
    let mut black = Script { actions: vec![mv((0, 0), (1, 1)), mv((0, 2), (1, 2))], ..Script::default() };
    let record = play(&mut white, &mut black, 9);
    assert_eq!(record.plies.len() as u32, white.boards.len() as u32 + black.boards.len() as u32);
    let HexapawnEnding::Won { winner, how } = record.ending.clone() else { panic!("{:?}", record.ending) };
    // Whoever won, the final board agrees with the record, and the players were told.
    let last = *record.boards().last().unwrap();
    let final_board = last.play(record.plies.last().unwrap().mv);
    assert_eq!(final_board.decided(), Some((winner, how)));
    assert_eq!(white.results.len(), 1);
    assert_eq!(black.results.len(), 1);
    let told = |seat: Seat| if seat == winner { Outcome::Win } else { Outcome::Loss };
    assert_eq!(white.results[0].outcome, told(Seat::One));
    assert_eq!(black.results[0].outcome, told(Seat::Two));
    assert_eq!(white.results[0].reason.as_str(), how.to_string());
    assert_eq!(white.infos[0].seat, Seat::One);
    assert_eq!(black.infos[0].seat, Seat::Two);
    assert_ne!(white.infos[0].seed, black.infos[0].seed, "each player has its own seed");
    // The positions the players were shown are the record's.
    let seen: Vec<HexapawnBoard> = record.boards();
    let mut interleaved = Vec::new();
    let (mut w, mut b) = (white.boards.iter(), black.boards.iter());
    for board in &seen {
        interleaved.push(*if board.to_move() == Seat::One { w.next().unwrap() } else { b.next().unwrap() });
    }
    assert_eq!(interleaved, seen);
}

#[test]
fn an_illegal_move_loses_at_once_with_its_reason() {
    let mut white = Script { actions: vec![mv((2, 1), (0, 1))], ..Script::default() };
    let mut black = Script::default();
    let record = play(&mut white, &mut black, 1);
    assert_eq!(
        record.ending,
        HexapawnEnding::Illegal {
            loser: Seat::One,
            mv: HexMove::new(Square::new(2, 1), Square::new(0, 1)),
            why: IllegalHexMove::NotAPawnStep
        }
    );
    assert_eq!(record.winner(), Seat::Two);
    assert!(record.plies.is_empty());
    assert_eq!(white.results[0].reason.as_str(), "illegal move (2,1)->(0,1): not one square forward");
    assert_eq!(black.results[0].outcome, Outcome::Win);

    let mut white = Script::default();
    let mut black = Script { actions: vec![mv((2, 0), (1, 0))], ..Script::default() };
    let record = play(&mut white, &mut black, 1);
    assert!(matches!(
        record.ending,
        HexapawnEnding::Illegal { loser: Seat::Two, why: IllegalHexMove::NotYourPawn, .. }
    ));
    assert_eq!(record.plies.len(), 1);
    assert_eq!(record.boards().len(), 2, "both requests' positions are in the record");
}

#[test]
fn resigning_and_panicking_lose() {
    let mut white = Script::default();
    let mut black = Script { actions: vec![HexapawnAction::Resign], ..Script::default() };
    let record = play(&mut white, &mut black, 2);
    assert_eq!(record.ending, HexapawnEnding::Resigned { loser: Seat::Two });
    assert_eq!(black.results[0].reason.as_str(), "resigned");

    let mut white = Script { panic_at: Some(1), ..Script::default() };
    let mut black = Script::default();
    let record = play(&mut white, &mut black, 2);
    let HexapawnEnding::Fault { loser, fault } = &record.ending else { panic!("{:?}", record.ending) };
    assert_eq!(*loser, Seat::One);
    assert_eq!(fault.to_string(), "panicked: scripted panic");
    assert_eq!(white.results.len(), 1, "told even after a panic");
}

#[test]
fn same_seed_same_players_same_game() {
    for seed in 0..20 {
        let a = play(&mut Easy::default(), &mut Medium::default(), seed);
        let b = play(&mut Easy::default(), &mut Medium::default(), seed);
        assert_eq!(
            a.plies.iter().map(|p| p.mv).collect::<Vec<_>>(),
            b.plies.iter().map(|p| p.mv).collect::<Vec<_>>()
        );
        assert_eq!(a.ending, b.ending);
    }
    let games: std::collections::HashSet<Vec<HexMove>> = (0..20)
        .map(|s| play(&mut Easy::default(), &mut Easy::default(), s).plies.iter().map(|p| p.mv).collect())
        .collect();
    assert!(games.len() > 5, "other seeds give other games");
}

#[test]
fn the_levels_rank_as_they_should() {
    let games = 200;
    let black_wins = |white: &mut dyn HexapawnPlayer, black: &mut dyn HexapawnPlayer| {
        (0..games).filter(|&s| play(white, black, s).winner() == Seat::Two).count()
    };
    assert_eq!(black_wins(&mut Easy::default(), &mut Hard::default()), games as usize);
    assert_eq!(black_wins(&mut Medium::default(), &mut Hard::default()), games as usize);
    assert_eq!(black_wins(&mut Hard::default(), &mut Hard::default()), games as usize);
    // Medium as Black beats Easy more often than Easy as Black beats Medium.
    let medium_black = black_wins(&mut Easy::default(), &mut Medium::default());
    let easy_black = black_wins(&mut Medium::default(), &mut Easy::default());
    assert!(medium_black > easy_black + 20, "{medium_black} vs {easy_black}");
    // Hard as White still wins some games against Easy.
    let hard_white = games as usize - black_wins(&mut Hard::default(), &mut Easy::default());
    assert!(hard_white > games as usize / 2, "{hard_white}");
}

/// The learner as Black against the exploiter for `games` games: the games
/// it lost (indices).
pub fn learning_curve(learner_seed: u64, games: u64) -> Vec<u64> {
    let learner = Arc::new(Mutex::new(Menace::new(learner_seed)));
    let mut white = Exploiter::new(learner.clone());
    let mut black = SharedMenace(learner);
    (0..games).filter(|&g| play(&mut white, &mut black, g).winner() == Seat::One).collect()
}

#[test]
fn the_matchbox_learner_stops_losing_to_an_exploiting_opponent_within_40_games() {
    // Learners draw beads at random, so when the last loss comes varies:
    // Gardner's machine lost 11 of its first 36 games. Here: most learners
    // make their last loss well within 40 games, none loses after 80, and
    // they learn from about 9 losses.
    let learners = 200;
    let curves: Vec<Vec<u64>> = (0..learners).map(|seed| learning_curve(seed, 100)).collect();
    let stopped_by_40 = curves.iter().filter(|losses| losses.last().is_none_or(|&g| g < 40)).count();
    assert!(
        stopped_by_40 * 100 >= learners as usize * 90,
        "only {stopped_by_40} of {learners} stopped by game 40"
    );
    for (seed, losses) in curves.iter().enumerate() {
        assert!(losses.len() >= 3, "seed {seed}: an empty head must lose a few games first: {losses:?}");
        assert!(losses.last().is_some_and(|&g| g < 80), "seed {seed}: still losing late: {losses:?}");
    }
    let mean = curves.iter().map(Vec::len).sum::<usize>() as f64 / learners as f64;
    assert!((6.0..=15.0).contains(&mean), "mean losses before it stops losing: {mean}");
    let median_last = {
        let mut last: Vec<u64> = curves.iter().map(|l| l.last().map_or(0, |g| g + 1)).collect();
        last.sort();
        last[last.len() / 2]
    };
    assert!(median_last <= 30, "median game of the last loss: {median_last}");
}

#[test]
fn hexwin_names() {
    assert_eq!(HexWin::FarRow.to_string(), "reached the far row");
}
