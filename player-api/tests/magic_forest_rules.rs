//! The rules of Magic Forest (docs/rules/magic-forest.md) on hand-made
//! forests, and forest generation checked by sampling.

use player_api::magic_forest::{
    Area, Coord, Dir, Forest, ForestAction, ForestConfig, ForestEvent, ForestState, RunEnd,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn c(x: u8, y: u8) -> Coord {
    Coord::new(x, y)
}

/// A forest drawn as text, the top row first: `M` monster, `T` trap, `O`
/// portal, `S` start, `.` nothing.
fn forest(text: &str) -> Forest {
    let rows: Vec<Vec<char>> = text
        .lines()
        .map(|l| l.split_whitespace().flat_map(|s| s.chars()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect();
    let size = rows.len() as u8;
    let mut f = Forest { size, monsters: Area::EMPTY, traps: Area::EMPTY, portal: c(0, 0), start: c(0, 0) };
    for (r, row) in rows.iter().enumerate() {
        for (x, &symbol) in row.iter().enumerate() {
            let t = c(x as u8, size - 1 - r as u8);
            match symbol {
                'M' => f.monsters.insert(t),
                'T' => f.traps.insert(t),
                'O' => f.portal = t,
                'S' => f.start = t,
                '.' => {}
                other => panic!("unknown symbol {other:?}"),
            }
        }
    }
    f
}

fn one_forest() -> (ForestConfig, Forest) {
    let f = forest(
        "
        M . O
        . . T
        S . .",
    );
    (ForestConfig { largest: 3, ..ForestConfig::default() }, f)
}

const UP: Dir = Dir::North;
const RIGHT: Dir = Dir::East;

#[test]
fn clues_are_bones_and_leaves_on_the_four_neighbours() {
    let (_, f) = one_forest();
    assert!(f.bones(c(0, 1)) && f.bones(c(1, 2)));
    assert!(!f.bones(c(1, 1)), "diagonal does not count");
    assert!(f.leaves(c(1, 1)) && f.leaves(c(2, 0)) && f.leaves(c(2, 2)));
    assert!(!f.leaves(c(0, 0)) && !f.bones(c(0, 0)));
}

#[test]
fn moves_edges_deaths_and_the_portal_score_as_documented() {
    let (config, f) = one_forest();
    let mut s = ForestState::new(&config, vec![f]);
    let r = s.request();
    assert_eq!(
        (r.at, r.size, r.bones, r.leaves, r.died, r.actions_left),
        (c(0, 0), 3, false, false, false, 180)
    );
    assert_eq!(s.apply(ForestAction::walk(Dir::West)), (ForestEvent::Edge, None));
    assert_eq!((s.at(), s.score()), (c(0, 0), -1));
    assert_eq!(s.apply(ForestAction::walk(UP)).0, ForestEvent::Moved);
    assert!(s.request().bones && !s.request().leaves);
    assert_eq!(s.apply(ForestAction::walk(UP)).0, ForestEvent::Died { at: c(0, 2) });
    assert_eq!((s.at(), s.score(), s.deaths()), (c(0, 0), -3 - 90, 1), "back at the start, -10n");
    assert!(s.request().died);
    s.apply(ForestAction::walk(RIGHT));
    assert!(!s.request().died, "died is shown once");
    s.apply(ForestAction::walk(RIGHT));
    assert_eq!(s.apply(ForestAction::walk(UP)).0, ForestEvent::Died { at: c(2, 1) }, "a trap kills too");
    let before = s.score();
    assert_eq!(s.apply(ForestAction::walk(RIGHT)), (ForestEvent::Moved, None));
    s.apply(ForestAction::walk(UP));
    s.apply(ForestAction::walk(UP));
    assert_eq!(s.at(), c(1, 2));
    assert_eq!(s.apply(ForestAction::walk(RIGHT)), (ForestEvent::Portal, Some(RunEnd::AllCleared)));
    assert_eq!(s.score(), before - 4 + 90);
    assert_eq!(s.cleared(), 1);
}

#[test]
fn a_stone_kills_a_monster_silently_and_clues_stay() {
    let (config, f) = one_forest();
    let mut s = ForestState::new(&config, vec![f]);
    s.apply(ForestAction::walk(UP));
    assert_eq!(s.apply(ForestAction::throw(RIGHT)).0, ForestEvent::Stone { killed: false });
    assert_eq!(s.apply(ForestAction::throw(UP)).0, ForestEvent::Stone { killed: true });
    assert_eq!(s.score(), -1 - 20);
    assert!(s.live_monsters().is_empty());
    assert!(s.request().bones, "bones stay after the kill");
    assert_eq!(s.apply(ForestAction::walk(UP)).0, ForestEvent::Moved, "the tile is safe now");
    assert_eq!(
        s.apply(ForestAction::throw(UP)).0,
        ForestEvent::Stone { killed: false },
        "a stone off the edge"
    );
}

#[test]
fn runs_grow_and_end_at_the_cap() {
    let config = ForestConfig { largest: 4, actions_per_tile: 1, ..ForestConfig::default() };
    let small = forest(
        "
        . . .
        . . .
        S O .",
    );
    let big = forest(
        "
        . . . .
        . . . .
        . . . .
        S . . O",
    );
    let mut s = ForestState::new(&config, vec![small, big]);
    assert_eq!(s.apply(ForestAction::walk(RIGHT)), (ForestEvent::Portal, None));
    let r = s.request();
    assert_eq!((r.size, r.forest, r.at, r.actions_left, r.score), (4, 1, c(0, 0), 16, 89));
    for _ in 0..15 {
        assert_eq!(s.apply(ForestAction::walk(Dir::West)).1, None);
    }
    let end = s.apply(ForestAction::walk(Dir::West)).1;
    assert_eq!(end, Some(RunEnd::ActionCap { size: 4, cap: 16 }));
    assert_eq!(end.unwrap().to_string(), "action cap (16 actions) spent in the 4x4 forest");
    assert_eq!(s.cleared(), 1);
}

#[test]
fn a_forfeit_costs_a_death() {
    let (config, f) = one_forest();
    let mut s = ForestState::new(&config, vec![f]);
    assert_eq!(s.forfeit(), RunEnd::Forfeit);
    assert_eq!(s.score(), -90);
}

#[test]
fn bad_configurations_are_refused_with_a_reason() {
    assert_eq!(ForestConfig::default().check(), Ok(()));
    let e = ForestConfig { largest: 9, ..ForestConfig::default() }.check().unwrap_err();
    assert_eq!(e.to_string(), "largest forest 9 is not supported: use 3 to 8");
    assert!(ForestConfig { monster_chance: 0.4, trap_chance: 0.2, ..ForestConfig::default() }
        .check()
        .is_err());
    assert!(ForestConfig { actions_per_tile: 0, ..ForestConfig::default() }.check().is_err());
    let sizes: Vec<u8> = ForestConfig::default().sizes().collect();
    assert_eq!(sizes, [3, 4, 5, 6, 7]);
}

/// Sampling: hazard densities 0.05 each (slightly lower after the redraws
/// of forests without a safe start), the portal never on a hazard, the
/// start never on or next to a hazard and never on the portal.
#[test]
fn forests_have_the_documented_distribution() {
    let config = ForestConfig::default();
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let (mut tiles, mut monsters, mut traps) = (0u32, 0u32, 0u32);
    let mut portal_at = [0u32; 49];
    for _ in 0..4_000 {
        let run = ForestState::generate(&config, &mut rng);
        assert_eq!(run.iter().map(|f| f.size).collect::<Vec<_>>(), [3, 4, 5, 6, 7]);
        for f in &run {
            let hazards = f.monsters.union(f.traps);
            assert!(f.monsters.intersection(f.traps).is_empty());
            assert!(!hazards.contains(f.portal) && !hazards.contains(f.start) && f.start != f.portal);
            assert!(f.start.neighbours(f.size).intersection(hazards).is_empty());
            tiles += f.tiles() as u32;
            (monsters, traps) = (monsters + f.monsters.len(), traps + f.traps.len());
            if f.size == 7 {
                portal_at[(f.portal.y * 7 + f.portal.x) as usize] += 1;
            }
        }
    }
    let (m, t) = (f64::from(monsters) / f64::from(tiles), f64::from(traps) / f64::from(tiles));
    assert!((0.045..0.052).contains(&m) && (0.045..0.052).contains(&t), "monsters {m}, traps {t}");
    let expected = 4_000.0 / 49.0;
    for k in portal_at {
        assert!((f64::from(k) - expected).abs() < 5.0 * expected.sqrt(), "portal counts {portal_at:?}");
    }
}
