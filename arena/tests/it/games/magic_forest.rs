//! The Magic Forest referee: determinism, faults, and the reference
//! wanderers' strength on small samples (loose bounds; the full numbers
//! are in docs/benchmarks.md).

use arena_core::play::solo;
use std::time::Duration;

use arena_core::{
    game::Agent,
    games::magic_forest::record::{Ending, ForestSettings},
    games::magic_forest::MagicForest,
    play::fault::Fault,
    play::seeds,
};
use player_api::{
    magic_forest::{
        Dir, ForestAction, ForestConfig, ForestEvent, ForestGameInfo, ForestOver, ForestPlayer,
        ForestRequest, RunEnd,
    },
    Outcome,
};
use reference_bots::magic_forest::{Easy, Hard, Medium};

struct Script {
    actions: Vec<ForestAction>,
    next: usize,
    over: Option<ForestOver>,
}

impl ForestPlayer for Script {
    fn step(&mut self, _req: &ForestRequest) -> ForestAction {
        self.next += 1;
        self.actions.get(self.next - 1).copied().unwrap_or(ForestAction::walk(Dir::West))
    }
    fn game_over(&mut self, result: &ForestOver) {
        self.over = Some(result.clone());
    }
}

#[test]
fn same_seed_same_actions_same_run() {
    let settings = ForestSettings::default();
    for seed in 0..20 {
        let a = solo::play_local::<MagicForest>(&settings, seed, &mut Hard::default());
        assert_eq!(a, solo::play_local::<MagicForest>(&settings, seed, &mut Hard::default()));
        let actions = a.steps.iter().map(|s| s.action).collect();
        let replayed =
            solo::play_local::<MagicForest>(&settings, seed, &mut Script { actions, next: 0, over: None });
        assert_eq!(replayed, a, "the record depends only on seed and actions");
    }
    assert_ne!(
        solo::world::<MagicForest>(&settings.rules, 1),
        solo::world::<MagicForest>(&settings.rules, 2)
    );
}

#[test]
fn an_idle_wanderer_spends_the_cap_and_is_told() {
    let settings = ForestSettings::new(ForestConfig { largest: 3, ..ForestConfig::default() });
    let forest = solo::world::<MagicForest>(&settings.rules, 4)[0];
    // Walk into the nearest edge over and over: no move changes the tile.
    let dir = Dir::ALL.into_iter().find(|&d| forest.start.step(d, 3).is_none()).unwrap();
    let mut player = Script { actions: vec![ForestAction::walk(dir); 180], next: 0, over: None };
    let run = solo::play_local::<MagicForest>(&settings, 4, &mut player);
    assert_eq!(run.ending, Ending::Rules(RunEnd::ActionCap { size: 3, cap: 180 }));
    assert_eq!((run.score, run.cleared, run.outcome()), (-180, 0, Outcome::Draw));
    assert!(run.steps.iter().all(|s| s.event == ForestEvent::Edge));
    let told = player.over.unwrap();
    assert_eq!((told.score, told.forests_cleared, told.actions), (-180, 0, 180));
    assert_eq!(told.reason.as_str(), "action cap (180 actions) spent in the 3x3 forest");
}

struct Broken;

impl Agent<MagicForest> for Broken {
    fn new_game(&mut self, _info: ForestGameInfo, _budget: Duration) -> Result<(), Fault> {
        Err(Fault::Crashed("killed by signal 11 (SIGSEGV, a segmentation fault)".into()))
    }
    fn act(&mut self, _req: ForestRequest, _budget: Duration) -> Result<ForestAction, Fault> {
        unreachable!("never asked after a failed start")
    }
    fn game_over(&mut self, _result: ForestOver) {}
}

#[test]
fn a_failing_player_forfeits_with_a_death() {
    let run = solo::play::<MagicForest>(&ForestSettings::default(), 1, &mut Broken);
    assert_eq!(run.ending.to_string(), "crashed: killed by signal 11 (SIGSEGV, a segmentation fault)");
    assert_eq!((run.score, run.outcome()), (-90, Outcome::Loss));
}

fn tally(player: &mut dyn ForestPlayer, runs: u64) -> (f64, f64) {
    let settings = ForestSettings::default();
    let (mut score, mut cleared) = (0i64, 0u32);
    for i in 0..runs {
        let run = solo::play_local::<MagicForest>(&settings, seeds::derive(5, i), player);
        score += i64::from(run.score);
        cleared += run.cleared;
    }
    (score as f64 / runs as f64, f64::from(cleared) / runs as f64)
}

#[test]
fn the_levels_are_ordered() {
    let (easy, easy_cleared) = tally(&mut Easy::default(), 100);
    let (medium, medium_cleared) = tally(&mut Medium::default(), 200);
    let (hard, hard_cleared) = tally(&mut Hard::default(), 200);
    assert!(hard > medium && medium > easy, "{hard} {medium} {easy}");
    assert!(hard > 1000.0, "hard {hard}");
    assert!(
        hard_cleared > 4.8 && medium_cleared > 4.5 && easy_cleared < 4.8,
        "{hard_cleared} {medium_cleared} {easy_cleared}"
    );
}
