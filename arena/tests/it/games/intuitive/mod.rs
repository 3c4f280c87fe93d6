//! The Intuitive AI referee with scripted and reference players: every way
//! a game ends with its score and reason, what the player is shown,
//! determinism, the duplicate format, and the levels' strength on small
//! samples (the 100,000-game numbers are in docs/benchmarks.md). Expert's
//! time budget is tested in a binary of its own (tests/budgets/intuitive.rs).

use arena_core::play::solo;
use arena_core::{
    games::intuitive::record::{
        IntuitiveEnd, IntuitiveEnding, IntuitiveRecord, IntuitiveRules, IntuitiveSettings,
    },
    games::intuitive::IntuitiveAi,
    play::referee::InProcess,
    play::seeds,
};
use player_api::{
    intuitive::{
        Cell, IllegalReveal, IntuitiveGameInfo, IntuitiveGameOver, IntuitivePlayer, IntuitiveRequest,
        IntuitiveView, IntuitiveWorld, Revealed,
    },
    Outcome,
};
use reference_bots::intuitive::{Easy, Expert, Hard, Medium};

fn c(row: u8, col: u8) -> Cell {
    Cell::new(row, col)
}

/// The source document's example grid (see docs/rules/intuitive-ai.md).
fn example() -> IntuitiveWorld {
    IntuitiveWorld::from_parts(4, &[c(0, 0), c(1, 1), c(2, 3), c(3, 0)], c(0, 2), c(1, 2), c(3, 2)).unwrap()
}

/// Reveals the scripted cells in order, then the first closed cell; keeps
/// what it was shown and told.
#[derive(Default)]
struct Script {
    cells: Vec<Cell>,
    infos: Vec<IntuitiveGameInfo>,
    views: Vec<IntuitiveView>,
    results: Vec<IntuitiveGameOver>,
    panic: bool,
}

impl IntuitivePlayer for Script {
    fn new_game(&mut self, info: &IntuitiveGameInfo) {
        self.infos.push(*info);
    }
    fn reveal(&mut self, req: &IntuitiveRequest) -> Cell {
        self.views.push(req.view);
        if self.panic {
            panic!("scripted panic");
        }
        if self.cells.is_empty() {
            Cell::from_index(req.view.closed().next().unwrap(), req.view.size())
        } else {
            self.cells.remove(0)
        }
    }
    fn game_over(&mut self, result: &IntuitiveGameOver) {
        self.results.push(result.clone());
    }
}

fn on_example(cells: &[Cell]) -> (IntuitiveRecord, Script) {
    let mut player = Script { cells: cells.to_vec(), ..Script::default() };
    let record = solo::play_in::<IntuitiveAi>(
        &IntuitiveSettings::default(),
        5,
        example(),
        &mut InProcess::<IntuitiveAi>(&mut player),
    );
    (record, player)
}

#[test]
fn gold_then_monster_scores_two() {
    let (record, player) = on_example(&[c(3, 3), c(0, 2), c(1, 2)]);
    assert_eq!(record.ending, IntuitiveEnding::Rules(IntuitiveEnd::Monster));
    assert_eq!(record.score, 2);
    let shown: Vec<Revealed> = record.reveals.iter().map(|r| r.shown).collect();
    assert!(matches!(shown[..], [Revealed::Hint(_), Revealed::Gold, Revealed::Monster]));
    let told = &player.results[0];
    assert_eq!((told.outcome, told.score, told.turns), (Outcome::Win, 2, 3));
    assert_eq!(told.reason.as_str(), "found the monster");
    // The player saw exactly the views the record rebuilds, and the start cell open.
    assert_eq!(player.views, record.views());
    assert_eq!(player.views[0].open().len(), 1);
    assert_eq!(player.views[2].score(), 1, "the gold's point shows at once");
}

#[test]
fn a_pit_ends_the_game_minus_one_or_zero_after_the_gold() {
    let (record, player) = on_example(&[c(1, 1)]);
    assert_eq!((record.ending.clone(), record.score), (IntuitiveEnding::Rules(IntuitiveEnd::Pit), -1));
    assert_eq!(player.results[0].outcome, Outcome::Loss);
    assert_eq!(player.results[0].reason.as_str(), "fell into a pit");
    let (record, _) = on_example(&[c(0, 2), c(0, 0)]);
    assert_eq!((record.ending, record.score), (IntuitiveEnding::Rules(IntuitiveEnd::Pit), 0));
}

#[test]
fn every_invalid_reveal_ends_the_game_with_minus_one_and_its_reason() {
    let cases = [
        (vec![c(4, 1)], IllegalReveal::OffBoard, "illegal reveal (4,1): off the board"),
        (vec![c(3, 2)], IllegalReveal::AlreadyOpen, "illegal reveal (3,2): already open"),
        // After the gold (+1), re-opening it: the score is -1 all the same.
        (vec![c(0, 2), c(0, 2)], IllegalReveal::AlreadyOpen, "illegal reveal (0,2): already open"),
    ];
    for (cells, why, reason) in cases {
        let (record, player) = on_example(&cells);
        let bad = *cells.last().unwrap();
        assert_eq!(record.ending, IntuitiveEnding::Rules(IntuitiveEnd::Illegal { cell: bad, why }));
        assert_eq!(record.score, -1);
        assert_eq!(record.reveals.len(), cells.len() - 1, "the invalid reveal is not played");
        let told = &player.results[0];
        assert_eq!((told.outcome, told.score, told.reason.as_str()), (Outcome::Loss, -1, reason));
    }
}

#[test]
fn a_panicking_player_loses_with_minus_one() {
    let mut player = Script { panic: true, ..Script::default() };
    let record = solo::play_local::<IntuitiveAi>(&IntuitiveSettings::default(), 3, &mut player);
    let IntuitiveEnding::Fault(fault) = &record.ending else { panic!("{:?}", record.ending) };
    assert_eq!(fault.to_string(), "panicked: scripted panic");
    assert_eq!(record.score, -1);
    assert_eq!(player.results[0].score, -1);
}

#[test]
fn the_world_depends_on_the_seed_alone_and_games_repeat() {
    let settings = IntuitiveSettings::default();
    for i in 0..50 {
        let seed = seeds::derive(11, i);
        let a = solo::play_local::<IntuitiveAi>(&settings, seed, &mut Medium::default());
        let b = solo::play_local::<IntuitiveAi>(&settings, seed, &mut Medium::default());
        let hard = solo::play_local::<IntuitiveAi>(&settings, seed, &mut Hard);
        assert_eq!(a.world, b.world);
        assert_eq!(a.world, hard.world, "every player meets the same world (duplicate format)");
        assert_eq!(a.world, solo::world::<IntuitiveAi>(&IntuitiveRules { size: 4 }, seed));
        let cells = |r: &IntuitiveRecord| r.reveals.iter().map(|x| (x.cell, x.shown)).collect::<Vec<_>>();
        assert_eq!(cells(&a), cells(&b));
        assert_eq!((a.ending, a.score), (b.ending, b.score));
    }
    let worlds: std::collections::HashSet<_> =
        (0..50).map(|s| solo::world::<IntuitiveAi>(&IntuitiveRules { size: 4 }, s)).collect();
    assert_eq!(worlds.len(), 50);
    let mut script = Script::default();
    solo::play_local::<IntuitiveAi>(&settings, 7, &mut script);
    assert_eq!(script.infos[0].seed, solo::player_seed(7));
    assert_ne!(script.infos[0].seed, 7, "the player never gets the arena's seed");
}

/// Mean score of `player` over `games` seeded games on a `size` board.
fn mean(player: &mut dyn IntuitivePlayer, size: u8, games: u64) -> f64 {
    let settings = IntuitiveSettings::new(IntuitiveRules { size });
    let total: i64 = (0..games)
        .map(|i| i64::from(solo::play_local::<IntuitiveAi>(&settings, seeds::derive(3, i), player).score))
        .sum();
    total as f64 / games as f64
}

#[test]
fn the_levels_are_in_order_on_the_default_board() {
    // Exact values: -0.433, 0.789 (Hard); Medium in between. 3000 games give
    // a 95% interval of about +-0.05.
    let easy = mean(&mut Easy::default(), 4, 3000);
    let medium = mean(&mut Medium::default(), 4, 3000);
    let hard = mean(&mut Hard, 4, 3000);
    assert!((easy - -0.433).abs() < 0.07, "easy {easy}");
    assert!((hard - 0.789).abs() < 0.07, "hard {hard}");
    assert!(easy + 0.5 < medium && medium + 0.15 < hard, "easy {easy}, medium {medium}, hard {hard}");
}

#[test]
fn expert_is_optimal_on_a_3x3_board() {
    // 3x3 keeps the full search small. Expert's own value of each start
    // (averaged) must match what it scores, and it must score at least as
    // well as Hard on the same worlds.
    let games = 4000;
    let settings = IntuitiveSettings::new(IntuitiveRules { size: 3 });
    let mut expert = Expert::default();
    let (mut predicted, mut scored) = (0.0, 0.0);
    for i in 0..games {
        let seed = seeds::derive(3, i);
        let world = solo::world::<IntuitiveAi>(&IntuitiveRules { size: 3 }, seed);
        predicted += expert.value(&IntuitiveView::start(&world));
        scored += f64::from(solo::play_local::<IntuitiveAi>(&settings, seed, &mut expert).score);
    }
    let (predicted, scored) = (predicted / games as f64, scored / games as f64);
    let hard = mean(&mut Hard, 3, games);
    assert!((predicted - scored).abs() < 0.05, "predicted {predicted}, scored {scored}");
    assert!(scored > hard - 0.01, "expert {scored}, hard {hard}");
    assert!(expert.cached_states() > 100);
}

/// The benchmark numbers (docs/benchmarks.md), as a check:
/// `cargo test --release -p arena --test it games::intuitive -- --ignored`.
#[test]
#[ignore = "100,000 games per level: run in release"]
fn hard_and_expert_reach_the_exact_values_over_100000_games() {
    let hard = mean(&mut Hard, 4, 100_000);
    let expert = mean(&mut Expert::default(), 4, 100_000);
    assert!((hard - 0.789).abs() < 0.01, "hard {hard}");
    assert!((expert - 0.946).abs() < 0.01, "expert {expert}");
}
