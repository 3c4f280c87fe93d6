//! The Trap referee on hand-made positions with scripted players: the three
//! end checks, the turn cap, the clock it hands out, and determinism;
//! the levels' strength (strength.rs), Expert's search on the game's clock
//! (thinking.rs). Expert's time budget is tested in a binary of its own
//! (tests/budgets/trap.rs).

mod strength;
mod thinking;

use arena_core::play::time_control::TimeControl;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arena_core::{
    games::trap::referee::{self as trap, player_seeds, Ending, TrapRecord, TrapSettings},
    games::trap::Trap,
    play::two_player::{self, MatchConfig},
    players::agent::AbiPlayer,
    players::{Hosting, Level, Player},
};
use player_api::{
    abi::trap_player_box,
    trap::{IllegalMove, Pos, TrapGameInfo, TrapPlayer, TrapRequest, TrapState},
    GameOver, Outcome, Seat,
};

/// What a scripted player saw.
#[derive(Default, Debug)]
struct Seen {
    infos: Vec<TrapGameInfo>,
    trap_requests: Vec<TrapRequest>,
    results: Vec<GameOver>,
}

/// Plays the given moves and throws in order; when the script runs out it
/// takes the first legal move and throws at `fallback_target`.
struct Script {
    moves: Vec<Pos>,
    traps: Vec<Pos>,
    fallback_target: Pos,
    seen: Arc<Mutex<Seen>>,
}

impl TrapPlayer for Script {
    fn new_game(&mut self, info: &TrapGameInfo) {
        self.seen.lock().unwrap().infos.push(*info);
    }
    fn get_move(&mut self, req: &TrapRequest) -> Pos {
        if self.moves.is_empty() {
            req.state.legal_moves(req.seat).next().unwrap()
        } else {
            self.moves.remove(0)
        }
    }
    fn get_trap(&mut self, req: &TrapRequest) -> Pos {
        self.seen.lock().unwrap().trap_requests.push(*req);
        if self.traps.is_empty() {
            self.fallback_target
        } else {
            self.traps.remove(0)
        }
    }
    fn game_over(&mut self, result: &GameOver) {
        self.seen.lock().unwrap().results.push(result.clone());
    }
}

fn script(moves: &[(u8, u8)], traps: &[(u8, u8)]) -> (AbiPlayer<Trap>, Arc<Mutex<Seen>>) {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let player = Script {
        moves: moves.iter().map(|&p| p.into()).collect(),
        traps: traps.iter().map(|&p| p.into()).collect(),
        fallback_target: Pos::new(6, 0),
        seen: seen.clone(),
    };
    (AbiPlayer(trap_player_box(player)), seen)
}

fn position(one: (u8, u8), two: (u8, u8), traps: &[(u8, u8)]) -> TrapState {
    TrapState::from_parts(7, [one.into(), two.into()], traps.iter().map(|&p| p.into()))
}

fn play_from(start: TrapState, one: &mut AbiPlayer<Trap>, two: &mut AbiPlayer<Trap>) -> TrapRecord {
    trap::play_from(
        &TrapSettings::default(),
        [TimeControl::default(); 2],
        1,
        start,
        Seat::One,
        [one, two],
        &mut |_, _| {},
    )
}

#[test]
fn a_move_that_traps_the_opponent_wins_before_the_throw() {
    // Player 2 in the corner, its other two neighbours trapped; player 1 steps
    // onto the third.
    let start = position((0, 2), (0, 0), &[(1, 0), (1, 1)]);
    let (mut one, seen_one) = script(&[(0, 1)], &[]);
    let (mut two, _) = script(&[], &[]);
    let game = play_from(start, &mut one, &mut two);
    assert_eq!(game.ending, Ending::Trapped { loser: Seat::Two });
    assert_eq!(game.ending.to_string(), "trapped");
    assert_eq!(game.turns.len(), 1);
    assert_eq!(game.turns[0].throw, None, "no throw is asked for after a winning move");
    assert!(seen_one.lock().unwrap().trap_requests.is_empty(), "get_trap must not be called");
}

#[test]
fn a_trap_that_traps_the_opponent_wins() {
    // Player 2 in the corner with (0,1) and (1,0) trapped; player 1 steps next
    // to (1,1) and throws there from distance 1 (p = 1).
    let start = position((3, 1), (0, 0), &[(0, 1), (1, 0)]);
    let (mut one, _) = script(&[(2, 1)], &[(1, 1)]);
    let (mut two, _) = script(&[], &[]);
    let game = play_from(start, &mut one, &mut two);
    assert_eq!(game.ending, Ending::Trapped { loser: Seat::Two });
    let throw = game.turns[0].throw.unwrap();
    assert_eq!((throw.target, throw.landed, throw.hit_chance), (Pos::new(1, 1), Pos::new(1, 1), 1.0));
}

#[test]
fn a_player_that_boxes_itself_in_loses() {
    // Player 1 steps into the corner and throws onto the only cell it could
    // leave by; player 2 still moves, so the game goes on and player 2 wins
    // after its move (player 1 cannot move).
    let start = position((0, 1), (6, 6), &[(1, 0), (1, 1)]);
    let (mut one, _) = script(&[(0, 0)], &[(0, 1)]);
    let (mut two, _) = script(&[(5, 5)], &[(3, 3)]);
    let game = play_from(start, &mut one, &mut two);
    assert_eq!(game.turns.len(), 2);
    assert_eq!(game.turns[0].throw.unwrap().landed, Pos::new(0, 1));
    assert_eq!(game.ending, Ending::Trapped { loser: Seat::One });
    assert_eq!(game.turns[1].throw, None);
}

#[test]
fn a_player_without_a_move_at_the_start_of_its_turn_loses() {
    let start = position((0, 0), (6, 6), &[(0, 1), (1, 0), (1, 1)]);
    let (mut one, _) = script(&[], &[]);
    let (mut two, _) = script(&[], &[]);
    let game = play_from(start, &mut one, &mut two);
    assert_eq!(game.ending, Ending::BoxedIn { loser: Seat::One });
    assert_eq!(game.winner(), Some(Seat::Two));
    assert!(game.turns.is_empty());
}

#[test]
fn moving_onto_the_opponent_is_illegal() {
    let start = position((3, 3), (3, 4), &[]);
    let (mut one, _) = script(&[(3, 4)], &[]);
    let (mut two, _) = script(&[], &[]);
    let game = play_from(start, &mut one, &mut two);
    assert_eq!(
        game.ending,
        Ending::Fault {
            loser: Seat::One,
            fault: trap::illegal_move(Pos::new(3, 4).into(), IllegalMove::Opponent)
        }
    );
    assert_eq!(game.ending.to_string(), "illegal move (3,4): the opponent is there");
}

#[test]
fn the_turn_cap_makes_a_draw() {
    let settings = TrapSettings { turn_cap: 6, ..TrapSettings::default() };
    let (mut one, seen_one) = script(&[], &[]);
    let (mut two, _) = script(&[], &[]);
    let game = trap::play(&settings, 3, [&mut one, &mut two], &mut |_, _| {});
    assert_eq!(game.ending, Ending::TurnCap(6));
    assert_eq!(game.winner(), None);
    assert_eq!(game.turns.len(), 6);
    assert_eq!(game.ending.to_string(), "turn cap (6 turns) reached");
    let told = &seen_one.lock().unwrap().results;
    assert_eq!(told.len(), 1);
    assert_eq!(told[0].outcome, Outcome::Draw);
}

#[test]
fn players_are_told_their_seat_budget_seed_and_result() {
    let settings =
        TrapSettings { time: TimeControl::PerTurn(Duration::from_millis(750)), ..TrapSettings::default() };
    let (mut one, seen_one) = script(&[(1, 3)], &[(5, 3)]);
    let (mut two, seen_two) = script(&[], &[]);
    let seed = 77;
    let game = trap::play(&settings, seed, [&mut one, &mut two], &mut |_, _| {});
    let (one, two) = (seen_one.lock().unwrap(), seen_two.lock().unwrap());
    assert_eq!((one.infos[0].seat, two.infos[0].seat), (Seat::One, Seat::Two));
    assert_eq!(one.infos[0].turn_budget(), Duration::from_millis(750));
    assert_eq!(one.infos[0].size, 7);
    assert_eq!([one.infos[0].seed, two.infos[0].seed], player_seeds(seed));
    assert_ne!(one.infos[0].seed, two.infos[0].seed);
    assert!(![one.infos[0].seed, two.infos[0].seed].contains(&seed), "players never see the arena's seed");
    // get_trap sees the position after the move, and what is left of the budget.
    let first = one.trap_requests[0];
    assert_eq!(first.me(), Pos::new(1, 3));
    assert!(
        first.time_left() <= Duration::from_millis(750) && first.time_left() > Duration::from_millis(500)
    );
    let expected = |seat: Seat| match game.winner() {
        None => Outcome::Draw,
        Some(w) if w == seat => Outcome::Win,
        Some(_) => Outcome::Loss,
    };
    assert_eq!(one.results[0].outcome, expected(Seat::One));
    assert_eq!(two.results[0].outcome, expected(Seat::Two));
    assert_eq!(one.results[0].reason.as_str(), game.ending.to_string());
    assert_eq!(one.results[0].turns as usize, game.turns.len());
}

/// A turn reduced to what the players decided and where the trap landed.
type Played = (Seat, Pos, Option<(Pos, Pos)>);

fn moves(result: &two_player::MatchResult<Trap>) -> Vec<Played> {
    result
        .games
        .iter()
        .flat_map(|g| g.record.turns.iter().map(|t| (t.seat, t.to, t.throw.map(|x| (x.target, x.landed)))))
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_games_and_another_seed_does_not() {
    let players = [Player::Builtin(Level::Easy), Player::Builtin(Level::Medium)];
    let run = |seed| {
        let config = MatchConfig::<Trap> {
            settings: TrapSettings::default(),
            games: 10,
            seed,
            hosting: Hosting::in_process(),
            first_game: 0,
            concurrency: 1,
            controls: [None; 2],
            live: None,
        };
        two_player::play([&players[0], &players[1]], &config, &mut |_| {}, None)
    };
    let (a, b, c) = (run(5), run(5), run(6));
    assert_eq!(moves(&a), moves(&b));
    let endings = |r: &two_player::MatchResult<Trap>| {
        r.games.iter().map(|g| g.record.ending.clone()).collect::<Vec<_>>()
    };
    assert_eq!(endings(&a), endings(&b));
    assert_ne!(moves(&a), moves(&c));
}

#[test]
fn games_come_in_seat_swapped_pairs_on_one_seed() {
    let players = [Player::Builtin(Level::Easy), Player::Builtin(Level::Hard)];
    let config = MatchConfig::<Trap> {
        settings: TrapSettings::default(),
        games: 6,
        seed: 3,
        hosting: Hosting::in_process(),
        first_game: 0,
        concurrency: 1,
        controls: [None; 2],
        live: None,
    };
    let result = two_player::play([&players[0], &players[1]], &config, &mut |_| {}, None);
    for pair in result.games.chunks(2) {
        assert_eq!(pair[0].record.seed, pair[1].record.seed);
        assert_eq!(pair[0].seats, [0, 1]);
        assert_eq!(pair[1].seats, [1, 0]);
    }
    assert_ne!(result.games[0].record.seed, result.games[2].record.seed);
}
