//! Intuitive AI's Expert when its search is cut short: it answers as Hard,
//! it keeps what it finished, and a search resumed over many short calls
//! ends with the same values and choices as one that ran to the end.
//! Limits here count states, not time, so the tests do not depend on the
//! machine's speed (the referee's clock is tested in arena/tests/it/games/intuitive/mod.rs).

use player_api::intuitive::{
    Cell, IntuitiveGame, IntuitivePlayer, IntuitiveRequest, IntuitiveView, IntuitiveWorld,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use reference_bots::intuitive::{Expert, Hard, Limit};

/// The views Hard meets in `games` random games on a `size` board.
fn views_in_play(size: u8, games: usize, seed: u64) -> Vec<IntuitiveView> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut views = Vec::new();
    for _ in 0..games {
        let mut game = IntuitiveGame::new(IntuitiveWorld::generate(size, &mut rng));
        while !game.is_over() {
            let view = *game.view();
            views.push(view);
            let cell = Hard.reveal(&request(view));
            game.reveal(cell).expect("Hard reveals a closed cell");
        }
    }
    views
}

fn request(view: IntuitiveView) -> IntuitiveRequest {
    IntuitiveRequest { view, turn: 0, time_left_us: 0 }
}

#[test]
fn out_of_time_expert_answers_as_hard() {
    let mut expert = Expert::with_own_cache();
    let views = views_in_play(4, 40, 1);
    for view in &views {
        let decision = expert.decide(view, Limit::expansions(0));
        assert!(!decision.exact);
        assert_eq!(Cell::from_index(decision.cell, 4), Hard.reveal(&request(*view)), "in {view:?}");
    }
    assert_eq!(expert.guesses(), views.len() as u64);
    assert_eq!(expert.cached_states(), 0, "a search that expanded nothing caches nothing");
    // With no time left at all, the same: a reveal never waits for its search.
    let mut hurried = Expert::with_own_cache();
    for view in views.iter().take(20) {
        assert_eq!(hurried.reveal(&request(*view)), Hard.reveal(&request(*view)));
    }
}

#[test]
fn a_search_cut_into_short_calls_ends_where_a_whole_one_does() {
    let views = views_in_play(3, 30, 2);
    let mut whole = Expert::with_own_cache();
    let mut pieces = Expert::with_own_cache();
    let mut calls = 0;
    for view in &views {
        let exact = whole.decide(view, Limit::NONE);
        assert!(exact.exact);
        // Forty states per call: the first views take many calls.
        loop {
            let before = pieces.cached_states();
            let decision = pieces.decide(view, Limit::expansions(40));
            calls += 1;
            if decision.exact {
                assert_eq!(decision.cell, exact.cell, "in {view:?}");
                break;
            }
            assert!(pieces.cached_states() > before, "a cut search must keep what it finished");
        }
        assert_eq!(pieces.value(view), whole.value(view), "the same values, to the bit");
    }
    assert!(pieces.guesses() > 10, "the limit should have cut searches ({} calls)", calls);
    assert_eq!(pieces.cached_states(), whole.cached_states());
}

#[test]
fn a_warm_cache_answers_every_reveal_exactly_without_searching() {
    let views = views_in_play(3, 30, 3);
    let mut warm = Expert::with_own_cache();
    for view in &views {
        warm.decide(view, Limit::NONE);
    }
    let states = warm.cached_states();
    for view in &views {
        assert!(warm.decide(view, Limit::expansions(0)).exact, "in {view:?}");
    }
    assert_eq!((warm.guesses(), warm.cached_states()), (0, states));
}

#[test]
fn expert_instances_share_the_process_cache() {
    // The shared cache may already hold states from other tests of this
    // process; what one instance searches, a new one finds.
    let view = views_in_play(3, 1, 4)[0];
    let mut first = Expert::default();
    first.decide(&view, Limit::NONE);
    let mut second = Expert::default();
    let decision = second.decide(&view, Limit::expansions(0));
    assert!(decision.exact && second.guesses() == 0);
    assert!(first.cached_states() > 0);
    assert_eq!(second.cached_states(), first.cached_states());
    assert_eq!(Expert::with_own_cache().cached_states(), 0);
}
