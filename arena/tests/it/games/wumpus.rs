//! The Wumpus World referee: determinism, invalid actions, faults, and the
//! reference agents' strength on small samples (loose bounds; the full
//! numbers are in docs/benchmarks.md).

use std::time::Duration;

use arena_core::{
    game::Agent,
    games::wumpus::record::{Ending, WumpusSettings},
    games::wumpus::Wumpus,
    play::fault::Fault,
    play::referee::InProcess,
    play::seeds,
    play::solo,
};
use player_api::{
    wumpus::{
        InvalidAction, StepEnd, WumpusAction, WumpusConfig, WumpusGameInfo, WumpusOver, WumpusPlayer,
        WumpusRequest,
    },
    Outcome,
};
use reference_bots::wumpus::{Easy, Hard, Medium};

/// Plays a fixed list of actions, then turns left forever; remembers what it was told.
struct Script {
    actions: Vec<WumpusAction>,
    next: usize,
    over: Option<WumpusOver>,
}

fn script(actions: &[WumpusAction]) -> Script {
    Script { actions: actions.to_vec(), next: 0, over: None }
}

impl WumpusPlayer for Script {
    fn step(&mut self, _req: &WumpusRequest) -> WumpusAction {
        self.next += 1;
        self.actions.get(self.next - 1).copied().unwrap_or(WumpusAction::TurnLeft)
    }

    fn game_over(&mut self, result: &WumpusOver) {
        self.over = Some(result.clone());
    }
}

#[test]
fn same_seed_same_actions_same_game() {
    for config in [WumpusConfig::aima(), WumpusConfig::project()] {
        let settings = WumpusSettings::new(config);
        for seed in 0..20 {
            let a = solo::play_local::<Wumpus>(&settings, seed, &mut Hard::default());
            let b = solo::play_local::<Wumpus>(&settings, seed, &mut Hard::default());
            assert_eq!(a, b);
            let actions: Vec<WumpusAction> = a.steps.iter().map(|s| s.action).collect();
            let replayed = solo::play_local::<Wumpus>(&settings, seed, &mut script(&actions));
            assert_eq!(replayed, a, "the record depends only on seed and actions");
        }
        let worlds: std::collections::HashSet<_> =
            (0..50).map(|s| solo::world::<Wumpus>(&config, s)).collect();
        assert!(worlds.len() > 40, "different seeds give different worlds");
    }
}

#[test]
fn an_invalid_action_ends_the_game_as_a_death_with_its_reason() {
    let settings = WumpusSettings::default();
    let cases = [
        (vec![WumpusAction::Forward, WumpusAction::TurnLeft, WumpusAction::Climb], 2),
        (vec![WumpusAction::Grab], 0),
    ];
    for (actions, before) in cases {
        // A world whose start neighbours hold no pit, so that one Forward is survivable.
        let seed = (0..)
            .find(|&s| {
                !solo::world::<Wumpus>(&settings.rules, s).breezy(player_api::wumpus::Coord::new(0, 0))
            })
            .unwrap();
        let mut player = script(&actions);
        let game = solo::play_local::<Wumpus>(&settings, seed, &mut player);
        let Ending::Rules(StepEnd::Invalid(action, why)) = game.ending else { panic!("{:?}", game.ending) };
        assert_eq!(action, *actions.last().unwrap());
        assert_eq!(game.score, -before - 1000);
        assert_eq!(game.outcome(), Outcome::Loss);
        assert!(!game.died() && !game.won());
        let told = player.over.expect("told the result");
        assert_eq!((told.outcome, told.score), (Outcome::Loss, game.score));
        assert_eq!(told.reason.as_str(), format!("invalid action: {why}"));
    }
    let project = WumpusSettings::new(WumpusConfig::project());
    let game = solo::play_local::<Wumpus>(&project, 1, &mut script(&[WumpusAction::Climb]));
    assert_eq!(game.ending, Ending::Rules(StepEnd::Invalid(WumpusAction::Climb, InvalidAction::NoClimb)));
    assert_eq!(game.score, 1000 - 1000);
}

/// A player that fails (as an isolated player would report it).
struct Broken;

impl Agent<Wumpus> for Broken {
    fn new_game(&mut self, _info: WumpusGameInfo, _budget: Duration) -> Result<(), Fault> {
        Ok(())
    }
    fn act(&mut self, _req: WumpusRequest, _budget: Duration) -> Result<WumpusAction, Fault> {
        Err(Fault::Panicked("boom at src/lib.rs:1:1".into()))
    }
    fn game_over(&mut self, _result: WumpusOver) {}
}

#[test]
fn a_failing_player_forfeits_with_the_death_score() {
    let game = solo::play::<Wumpus>(&WumpusSettings::default(), 3, &mut Broken);
    assert_eq!(game.ending.to_string(), "panicked: boom at src/lib.rs:1:1");
    assert_eq!((game.score, game.outcome()), (-1000, Outcome::Loss));
    assert!(game.steps.is_empty());
}

#[test]
fn the_player_sees_its_own_seed_and_the_rules() {
    struct Spy(Option<WumpusGameInfo>);
    impl WumpusPlayer for Spy {
        fn new_game(&mut self, info: &WumpusGameInfo) {
            self.0 = Some(*info);
        }
        fn step(&mut self, _req: &WumpusRequest) -> WumpusAction {
            WumpusAction::Climb
        }
    }
    let mut spy = Spy(None);
    let game = solo::play_local::<Wumpus>(&WumpusSettings::default(), 9, &mut spy);
    let info = spy.0.unwrap();
    assert_eq!((info.config, info.arrows), (WumpusConfig::aima(), 1));
    assert_ne!(info.seed, 9, "never the arena's own seed");
    assert_eq!((game.ending.to_string().as_str(), game.score), ("climbed out without the gold", -1));
}

struct Tally {
    mean: f64,
    won: f64,
    died: f64,
}

fn tally(config: WumpusConfig, player: &mut dyn WumpusPlayer, worlds: u64) -> Tally {
    let settings = WumpusSettings::new(config);
    let (mut total, mut won, mut died) = (0i64, 0u32, 0u32);
    for i in 0..worlds {
        let game = solo::play_local::<Wumpus>(&settings, seeds::derive(77, i), player);
        assert!(!matches!(game.ending, Ending::Rules(StepEnd::Invalid(..))), "{}", game.ending);
        total += i64::from(game.score);
        won += u32::from(game.won());
        died += u32::from(game.died());
    }
    let n = worlds as f64;
    Tally { mean: total as f64 / n, won: f64::from(won) / n, died: f64::from(died) / n }
}

#[test]
fn the_levels_are_ordered_and_the_careful_ones_never_die() {
    let easy = tally(WumpusConfig::aima(), &mut Easy::default(), 600);
    let medium = tally(WumpusConfig::aima(), &mut Medium::default(), 600);
    let hard = tally(WumpusConfig::aima(), &mut Hard::default(), 600);
    assert_eq!(medium.died, 0.0, "the logical agent enters only provably safe squares");
    assert_eq!(easy.died, 0.0, "easy steps forward only where nothing is sensed");
    assert!(hard.won > 0.36 && hard.died < 0.15, "hard won {} died {}", hard.won, hard.died);
    assert!(
        hard.mean > medium.mean && medium.mean > easy.mean + 200.0,
        "{} {} {}",
        hard.mean,
        medium.mean,
        easy.mean
    );
    assert!(medium.won > 0.25);
}

#[test]
fn the_levels_play_the_project_preset() {
    let medium = tally(WumpusConfig::project(), &mut Medium::default(), 150);
    let hard = tally(WumpusConfig::project(), &mut Hard::default(), 150);
    assert_eq!(medium.died, 0.0);
    assert!(hard.won > 0.55, "hard won {}", hard.won);
    assert!(hard.mean > medium.mean);
}

/// The textbook's figure 7.2 cave: from the percepts at (1,0) and (0,1)
/// both agents prove (1,1) safe (AIMA 7.3), find the gold at (1,2) and
/// climb out with it, never gambling.
#[test]
fn the_textbook_cave_is_solved_by_inference() {
    use player_api::wumpus::{Area, Coord, WumpusWorld};
    let c = Coord::new;
    let world = WumpusWorld {
        size: 4,
        pits: Area::from_iter([c(2, 0), c(2, 2), c(3, 3)]),
        wumpuses: Area::from_iter([c(0, 2)]),
        obstacles: Area::EMPTY,
        gold: c(1, 2),
    };
    let settings = WumpusSettings::default();
    for player in [&mut Medium::default() as &mut dyn WumpusPlayer, &mut Hard::default()] {
        let game = solo::play_in::<Wumpus>(&settings, 0, world, &mut InProcess::<Wumpus>(player));
        assert!(game.won(), "{}", game.ending);
        assert!(game.steps.iter().any(|s| s.shown.at == c(1, 1)), "went through (1,1)");
        assert!(game.score > 1000 - 30, "{}", game.score);
    }
}
