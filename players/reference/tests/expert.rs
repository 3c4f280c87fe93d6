//! Expert finds what a search must find: a win in one (by the step, or by a
//! throw that cannot miss, rather than one that could) and a step that
//! loses in two. Positions are drawn as in docs/rules/trap.md (`1`, `2` the
//! players, `#` a trap). Every claim about a position is checked here by
//! brute force with the rules API before Expert is asked.

use std::time::Duration;

use player_api::trap::{Pos, TrapGameInfo, TrapPlayer, TrapRequest, TrapState};
use player_api::Seat;
use reference_bots::trap::Expert;

fn board(text: &str) -> TrapState {
    TrapState::from_diagram(text).unwrap()
}

/// Expert's whole turn (step, then target) for player 1 with `budget` left.
fn expert_turn(state: &TrapState, budget: Duration) -> (Pos, Option<Pos>) {
    let mut expert = Expert::default();
    let us = budget.as_micros() as u64;
    expert.new_game(&TrapGameInfo { seat: Seat::One, size: state.size(), turn_budget_us: us, seed: 1 });
    let req = TrapRequest { state: *state, seat: Seat::One, turn: 10, time_left_us: us };
    let step = expert.get_move(&req);
    assert_eq!(state.check_move(Seat::One, step), Ok(()), "Expert stepped illegally");
    let mut after = *state;
    after.move_player(Seat::One, step);
    if !after.can_move(Seat::Two) {
        return (step, None);
    }
    let target = expert.get_trap(&TrapRequest { state: after, ..req });
    assert_eq!(after.check_target(target), Ok(()), "Expert aimed illegally");
    (step, Some(target))
}

/// Whether player 1's step to `step` loses by force: whatever it throws and
/// wherever that lands, player 2 has a step, or a step and a throw that
/// cannot miss, that leaves player 1 without a move.
fn loses_in_two(state: &TrapState, step: Pos) -> bool {
    let mut after = *state;
    after.move_player(Seat::One, step);
    if !after.can_move(Seat::Two) {
        return false;
    }
    let targets: Vec<Pos> = (0..state.size())
        .flat_map(|r| (0..state.size()).map(move |c| Pos::new(r, c)))
        .filter(|&t| after.check_target(t).is_ok())
        .collect();
    targets.iter().all(|&target| {
        after.throw(Seat::One, target).outcomes().all(|(landed, _)| {
            let mut thrown = after;
            thrown.place_trap(landed);
            !thrown.can_move(Seat::Two) || opponent_traps_for_sure(&thrown)
        }) && after.throw(Seat::One, target).outcomes().any(|(landed, _)| {
            let mut thrown = after;
            thrown.place_trap(landed);
            thrown.can_move(Seat::Two)
        })
    })
}

fn opponent_traps_for_sure(state: &TrapState) -> bool {
    state.legal_moves(Seat::Two).any(|to| {
        let mut moved = *state;
        moved.move_player(Seat::Two, to);
        !moved.can_move(Seat::One)
            || moved.free_neighbours(moved.position(Seat::One)).any(|target| {
                moved.throw(Seat::Two, target).outcomes().all(|(landed, _)| {
                    let mut thrown = moved;
                    thrown.place_trap(landed);
                    !thrown.can_move(Seat::One)
                })
            })
    })
}

#[test]
fn expert_steps_into_the_last_free_cell_of_the_opponent() {
    let state = board(
        "
        2 # .
        # . 1
        . . .
        ",
    );
    let (step, target) = expert_turn(&state, Duration::from_millis(200));
    assert_eq!((step, target), (Pos::new(1, 1), None), "the step to (1,1) traps player 2");
}

#[test]
fn expert_throws_from_where_the_throw_cannot_miss() {
    // Player 2's last free cell is (0,1). From (0,2) a throw there has d = 1
    // and always hits; from (0,3) it has d = 2 and hits with 0.95.
    let state = board(
        "
        2 . . . .
        # # # 1 .
        . . . . .
        . . . . .
        . . . . .
        ",
    );
    let mut d2 = state;
    d2.move_player(Seat::One, Pos::new(0, 3));
    assert_eq!(d2.throw(Seat::One, Pos::new(0, 1)).hit_chance(), 0.95);
    let (step, target) = expert_turn(&state, Duration::from_millis(200));
    assert_eq!((step, target), (Pos::new(0, 2), Some(Pos::new(0, 1))));
}

#[test]
fn expert_avoids_the_step_that_loses_in_two() {
    // In the corner (0,0), player 1 keeps two free cells, (0,1) and (1,1),
    // both next to player 2: whichever one player 1's throw takes, player 2
    // steps onto the other; otherwise it steps onto (1,1) and throws at
    // (0,1) from next door, which cannot miss.
    let state = board(
        "
        . 1 . . .
        # . 2 . .
        # # . . .
        . . . . .
        . . . . .
        ",
    );
    let losing: Vec<Pos> = state.legal_moves(Seat::One).filter(|&s| loses_in_two(&state, s)).collect();
    assert_eq!(losing, [Pos::new(0, 0)], "the position is not as drawn");
    for _ in 0..3 {
        let (step, _) = expert_turn(&state, Duration::from_millis(200));
        assert!(!losing.contains(&step), "Expert stepped to {step}, which loses in two");
    }
}

#[test]
fn expert_answers_within_its_share_of_a_tiny_budget() {
    // With 5 ms left, Expert still answers legally (the first iteration
    // always finishes, and it is cheap).
    let (step, target) = expert_turn(&TrapState::new(7), Duration::from_millis(5));
    assert!(TrapState::new(7).check_move(Seat::One, step).is_ok());
    assert!(target.is_some());
}
