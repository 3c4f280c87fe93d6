//! The rules of Intuitive AI as the arena enforces them
//! (docs/rules/intuitive-ai.md), on hand-made worlds and by sampling.

use player_api::intuitive::{
    Cell, CellSet, Content, Hint, IllegalReveal, IntuitiveGame, IntuitiveView, IntuitiveWorld, Revealed,
    WorldError, DEFAULT_SIZE, INVALID_SCORE, MAX_SIZE, MIN_SIZE,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn c(row: u8, col: u8) -> Cell {
    Cell::new(row, col)
}

fn hint(code: &str) -> Hint {
    Hint { breeze: code.contains('B'), smell: code.contains('S'), glitter: code.contains('G') }
}

/// The source document's example: pits at 0, 5, 11, 12 (cells (0,0),
/// (1,1), (2,3), (3,0)), gold at 2 = (0,2), monster at 6 = (1,2), start 14 = (3,2).
fn example() -> IntuitiveWorld {
    IntuitiveWorld::from_parts(4, &[c(0, 0), c(1, 1), c(2, 3), c(3, 0)], c(0, 2), c(1, 2), c(3, 2)).unwrap()
}

#[test]
fn hints_of_the_source_documents_example_grid() {
    // strArr = ["Pit", "Glitter & Breeze", "Gold", "Glitter", "Breeze", "Pit", "Monster",
    //   "Smell Breeze", "Breeze", "Breeze", "Smell Breeze", "Pit", "Pit", "Breeze", "X", "Breeze"]
    let expected = [
        None,
        Some("BG"),
        None,
        Some("G"),
        Some("B"),
        None,
        None,
        Some("SB"),
        Some("B"),
        Some("B"),
        Some("SB"),
        None,
        None,
        Some("B"),
        Some(""),
        Some("B"),
    ];
    let world = example();
    for (i, want) in expected.iter().enumerate() {
        let got = world.content(i as u8);
        match want {
            Some(code) => assert_eq!(got, Content::Hint(hint(code)), "cell {i}"),
            None => assert!(!matches!(got, Content::Hint(_)), "cell {i} holds a hazard or the gold"),
        }
    }
    assert_eq!(world.content(0), Content::Pit);
    assert_eq!(world.content(2), Content::Gold);
    assert_eq!(world.content(6), Content::Monster);
}

#[test]
fn hints_are_flags_of_the_four_orthogonal_neighbours_only() {
    // Pits at the diagonals of (1,1) only: (0,0), (0,2), (2,0), (2,2); gold and monster far away.
    let world =
        IntuitiveWorld::from_parts(4, &[c(0, 0), c(0, 2), c(2, 0), c(2, 2)], c(3, 3), c(3, 2), c(1, 1))
            .unwrap();
    assert_eq!(world.hint(Cell::new(1, 1).index(4).unwrap()), Hint::NOTHING);
    // (2,3) touches pit (2,2) and the gold (3,3): two flags, and a breeze is a flag, not a count.
    assert_eq!(world.hint(c(2, 3).index(4).unwrap()), hint("BG"));
    // (3,1) touches pit (2,0)? no: (3,1)'s neighbours are (2,1), (3,0), (3,2): the monster only.
    assert_eq!(world.hint(c(3, 1).index(4).unwrap()), hint("S"));
    // (1,2) touches (0,2) and (2,2): one breeze flag.
    assert_eq!(world.hint(c(1, 2).index(4).unwrap()), hint("B"));
    assert_eq!(Hint::NOTHING.to_string(), "nothing");
    assert_eq!(hint("BSG").to_string(), "breeze+smell+glitter");
    for code in 0..8 {
        assert_eq!(Hint::from_code(code).code(), code);
    }
}

#[test]
fn hand_made_worlds_are_checked() {
    let pits = [c(0, 0), c(1, 1), c(2, 3), c(3, 0)];
    assert_eq!(IntuitiveWorld::from_parts(2, &pits, c(0, 2), c(1, 2), c(3, 2)), Err(WorldError::Size(2)));
    assert_eq!(
        IntuitiveWorld::from_parts(4, &pits[..3], c(0, 2), c(1, 2), c(3, 2)),
        Err(WorldError::PitCount { wanted: 4, got: 3 })
    );
    assert_eq!(
        IntuitiveWorld::from_parts(4, &pits, c(0, 0), c(1, 2), c(3, 2)),
        Err(WorldError::Overlap(c(0, 0)))
    );
    assert_eq!(
        IntuitiveWorld::from_parts(4, &pits, c(0, 2), c(4, 2), c(3, 2)),
        Err(WorldError::OffBoard(c(4, 2)))
    );
    assert_eq!(
        IntuitiveWorld::from_parts(4, &pits, c(0, 2), c(1, 2), c(1, 2)),
        Err(WorldError::UnsafeStart(c(1, 2)))
    );
}

#[test]
fn a_game_opens_the_start_then_scores_gold_pit_and_monster() {
    let mut game = IntuitiveGame::new(example());
    let start = c(3, 2).index(4).unwrap();
    assert_eq!(game.view().open(), CellSet::single(start));
    assert_eq!(game.view().hint_at(c(3, 2)), Some(Hint::NOTHING));
    assert_eq!(game.reveal(c(3, 3)), Ok(Revealed::Hint(hint("B"))));
    assert_eq!(game.reveal(c(0, 2)), Ok(Revealed::Gold));
    assert_eq!((game.score(), game.is_over()), (1, false));
    assert_eq!(game.view().gold(), Some(2));
    assert_eq!(game.view().hint_at(c(0, 2)), None, "the gold's cell shows no hint");
    let mut pit_after_gold = game;
    assert_eq!(pit_after_gold.reveal(c(0, 0)), Ok(Revealed::Pit));
    assert_eq!((pit_after_gold.score(), pit_after_gold.is_over()), (0, true));
    assert_eq!(game.reveal(c(1, 2)), Ok(Revealed::Monster));
    assert_eq!((game.score(), game.is_over()), (2, true));

    let mut plain_pit = IntuitiveGame::new(example());
    assert_eq!(plain_pit.reveal(c(1, 1)), Ok(Revealed::Pit));
    assert_eq!(plain_pit.score(), -1);
}

#[test]
fn invalid_reveals_are_named_and_forfeit_scores_minus_one() {
    let mut game = IntuitiveGame::new(example());
    assert_eq!(game.reveal(c(4, 0)), Err(IllegalReveal::OffBoard));
    assert_eq!(game.reveal(c(0, 200)), Err(IllegalReveal::OffBoard));
    assert_eq!(game.reveal(c(3, 2)), Err(IllegalReveal::AlreadyOpen));
    game.reveal(c(0, 2)).unwrap();
    assert_eq!(game.reveal(c(0, 2)), Err(IllegalReveal::AlreadyOpen), "the gold cannot be taken twice");
    assert_eq!(game.score(), 1);
    game.forfeit();
    assert!(game.is_over());
    assert_eq!(game.score(), INVALID_SCORE, "an invalid reveal scores -1 even after the gold");
    assert_eq!(game.reveal(c(0, 1)), Err(IllegalReveal::GameOver));
    assert_eq!(IllegalReveal::OffBoard.to_string(), "off the board");
    assert_eq!(IllegalReveal::AlreadyOpen.to_string(), "already open");
}

#[test]
fn consistency_is_judged_on_every_open_cell() {
    let world = example();
    let mut game = IntuitiveGame::new(world);
    game.reveal(c(3, 3)).unwrap();
    let view: IntuitiveView = *game.view();
    assert!(view.is_consistent(&world));
    // Same pits, the monster moved next to the start: (3,2) would smell.
    let moved =
        IntuitiveWorld::from_parts(4, &[c(0, 0), c(1, 1), c(2, 3), c(3, 0)], c(0, 2), c(3, 1), c(3, 2))
            .unwrap();
    assert!(!view.is_consistent(&moved));
    // A pit on an open cell.
    let pit_on_open =
        IntuitiveWorld::from_parts(4, &[c(0, 0), c(1, 1), c(3, 3), c(3, 0)], c(0, 2), c(1, 2), c(3, 2))
            .unwrap();
    assert!(!view.is_consistent(&pit_on_open));
}

#[test]
fn generated_worlds_follow_the_rules_on_every_size() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for size in MIN_SIZE..=MAX_SIZE {
        for _ in 0..200 {
            let world = IntuitiveWorld::generate(size, &mut rng);
            let n = size * size;
            assert_eq!(world.pits().len(), size as u32);
            assert!(world.pits().minus(CellSet::board(size)).is_empty(), "pits on the board");
            assert!(world.gold() < n && world.monster() < n && world.gold() != world.monster());
            assert!(!world.pits().contains(world.gold()) && !world.pits().contains(world.monster()));
            assert!(matches!(world.content(world.start()), Content::Hint(_)), "the start is safe");
        }
    }
}

/// Chi-square statistic of `counts` against equal expected frequencies.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts.iter().map(|&o| (o as f64 - expected).powi(2) / expected).sum()
}

#[test]
fn placement_and_start_are_uniform() {
    // 16 cells: chi-square with 15 degrees of freedom; 37.7 is its 0.999 quantile.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut pits, mut gold, mut monster, mut start) = ([0u64; 16], [0u64; 16], [0u64; 16], [0u64; 16]);
    let mut pit_sets = std::collections::HashMap::<u64, u64>::new();
    let samples = 160_000;
    for _ in 0..samples {
        let world = IntuitiveWorld::generate(DEFAULT_SIZE, &mut rng);
        world.pits().for_each(|p| pits[p as usize] += 1);
        gold[world.gold() as usize] += 1;
        monster[world.monster() as usize] += 1;
        start[world.start() as usize] += 1;
        *pit_sets.entry(world.pits().bits()).or_default() += 1;
    }
    for (name, counts) in [("pits", pits), ("gold", gold), ("monster", monster), ("start", start)] {
        assert!(chi_square(&counts) < 37.7, "{name} not uniform over cells: {counts:?}");
    }
    // Density: 4 pits on 16 cells.
    let density = pits.iter().sum::<u64>() as f64 / (samples as f64 * 16.0);
    assert!((density - 0.25).abs() < 1e-9, "{density}");
    // Whole pit sets, not just cells: all C(16,4) = 1820 appear, evenly
    // (chi-square, 1819 degrees of freedom: mean 1819, sd 60).
    assert_eq!(pit_sets.len(), 1820);
    let counts: Vec<u64> = pit_sets.values().copied().collect();
    assert!(chi_square(&counts) < 2050.0, "pit sets not uniform: {}", chi_square(&counts));
}
