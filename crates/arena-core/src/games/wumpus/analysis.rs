//! Wumpus World's analyser: each action judged by rollouts of Hard (the
//! best reference agent) on caves consistent with what the agent had
//! sensed. A position's caves are drawn from the rules' own generator and
//! kept when replaying the game's actions in them gives every request the
//! agent was shown (rejection sampling: exactly the posterior); the seed
//! is derived from the position (and the number of caves), so the same
//! position gives the same numbers anywhere. An action's value is the mean final score when it is
//! played and Hard, knowing what the agent knew, plays on; the position's
//! value is the best action's (docs/analysis.md says how good that is).

use player_api::{
    grid::Coord,
    wumpus::{
        WumpusAction, WumpusConfig, WumpusGameInfo, WumpusPlacement, WumpusPlayer, WumpusRequest,
        WumpusState, WumpusWorld, DEATH_PENALTY, GOLD_REWARD,
    },
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use reference_bots::wumpus::Hard;

use super::replay::{action_from, config_from, WumpusBody};
use crate::analysis::{sample_worlds, AnalysedBody, Budget, Judgement, Measure};
use crate::play::seeds;
use crate::replay::{grid, Replay};

/// The range of final scores the marks are a share of: death to the gold.
const SPAN: f64 = (GOLD_REWARD + DEATH_PENALTY) as f64;

/// Caves drawn per cave kept, at most: past it a position is judged on the
/// caves found (the true one is always among the consistent ones).
const DRAWS_PER_ROLLOUT: u32 = 2_000;

impl AnalysedBody for WumpusBody {
    fn measure(&self) -> Measure {
        Measure::ExpectedScore { span: SPAN }
    }

    fn judge<E>(&self, _replay: &Replay<E>, budget: Budget, from: usize) -> Result<Vec<Judgement>, String> {
        let config = config_from(&self.settings.rules.config);
        let actions: Vec<WumpusAction> = self.steps.iter().map(|s| action_from(s.action)).collect();
        let truth = self.world(&config);
        let requests = self.requests(&config, &actions);
        let mut hard = Hard::default();
        hard.new_game(&game_info(&config, requests.first()));
        let mut turns = Vec::with_capacity(actions.len());
        for (i, (&request, &played)) in requests.iter().zip(&actions).enumerate() {
            if request.check(config.goal, played).is_err() {
                break; // the invalid action that ended the game: nothing to compare
            }
            if i < from {
                hard.follow(&request, played);
                continue;
            }
            let caves = consistent_caves(&config, truth, &requests[..=i], &actions[..i], budget.rollouts)
                .ok_or(format!("action {}: no cave matches what the agent sensed", i + 1))?;
            let values = action_values(&config, &hard, &request, &caves);
            turns.push(Judgement::of_values(i as u32 + 1, played, &values));
            hard.follow(&request, played);
        }
        Ok(turns)
    }
}

impl WumpusBody {
    /// The cave the game was played in.
    fn world(&self, config: &WumpusConfig) -> WumpusWorld {
        let cave = &self.world;
        WumpusWorld {
            size: config.size,
            pits: grid::area(&cave.pits),
            wumpuses: grid::area(&cave.wumpuses),
            obstacles: grid::area(&cave.obstacles),
            gold: grid::coord(cave.gold),
        }
    }

    /// What the agent was shown before each action: the rules applied to
    /// the actions in the game's cave (as the referee did), up to the
    /// first invalid action or the end.
    fn requests(&self, config: &WumpusConfig, actions: &[WumpusAction]) -> Vec<WumpusRequest> {
        let mut state = WumpusState::new(config, self.world(config));
        let mut requests = Vec::new();
        for &action in actions {
            requests.push(state.request());
            if state.check(action).is_err() || state.apply(action).is_some() {
                break;
            }
        }
        requests
    }
}

fn game_info(config: &WumpusConfig, first: Option<&WumpusRequest>) -> WumpusGameInfo {
    WumpusGameInfo {
        config: *config,
        start: WumpusWorld::START,
        arrows: first.map_or(1, |r| r.arrows),
        step_budget_us: 0,
        seed: 0,
    }
}

/// The seed of a position: its rules, every request shown and every action
/// played so far, mixed.
fn position_seed(config: &WumpusConfig, requests: &[WumpusRequest], actions: &[WumpusAction]) -> u64 {
    let mut seed = seeds::derive(0x5755_4d50, u64::from(config.size));
    let coord = |c: Coord| u64::from(c.index());
    for r in requests {
        let p = r.percept;
        let flags = [p.stench, p.breeze, p.glitter, p.bump, p.scream, r.has_gold];
        let bits = flags.iter().fold(0u64, |acc, &f| (acc << 1) | u64::from(f));
        let word = bits | coord(r.at) << 8 | (r.facing as u64) << 16 | u64::from(r.arrows) << 24;
        seed = seeds::derive(seed, word);
    }
    for &a in actions {
        seed = seeds::derive(seed, a as u64 + 1);
    }
    seed
}

/// Up to `wanted` caves in which the game's first actions, `actions`,
/// show the agent exactly `requests`: each is the game at the position
/// (the state before the next action). None if no cave matched. `truth`
/// is the game's own cave, used only to test a part of a drawn cave on its
/// own (below).
///
/// With one wumpus (`aima`), the pits, the wumpus and the gold are drawn
/// independently, and each percept comes from one of them: each part is
/// kept when the true cave with that part swapped in is consistent, and
/// the caves are made of kept parts (a draw from the same posterior, far
/// fewer draws than whole caves need late in a game). Each cave made is
/// checked whole again. Otherwise whole caves are drawn and kept.
fn consistent_caves(
    config: &WumpusConfig,
    truth: WumpusWorld,
    requests: &[WumpusRequest],
    actions: &[WumpusAction],
    wanted: u32,
) -> Option<Vec<WumpusState>> {
    // The count is in the seed: a larger sample is other caves, not more
    // of the same (what measuring the noise needs).
    let seed = seeds::derive(position_seed(config, requests, actions), u64::from(wanted));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let wanted = wanted.max(1) as usize;
    let draws = wanted.saturating_mul(DRAWS_PER_ROLLOUT as usize);
    let fits = |world: WumpusWorld| replayed(config, world, requests, actions);
    if config.wumpus == WumpusPlacement::One && config.obstacle_chance == 0.0 {
        let (mut pits, mut wumpuses, mut golds) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..draws {
            let w = WumpusWorld::generate(config, &mut rng);
            let parts = [
                (&mut pits, WumpusWorld { pits: w.pits, ..truth }),
                (&mut wumpuses, WumpusWorld { wumpuses: w.wumpuses, ..truth }),
                (&mut golds, WumpusWorld { gold: w.gold, ..truth }),
            ];
            for (kept, swapped) in parts {
                if kept.len() < wanted && fits(swapped).is_some() {
                    kept.push(w);
                }
            }
            if pits.len().min(wumpuses.len()).min(golds.len()) >= wanted {
                break;
            }
        }
        let made = pits.len().min(wumpuses.len()).min(golds.len());
        let mut found = Vec::new();
        for i in 0..made {
            let world = WumpusWorld {
                pits: pits[i].pits,
                wumpuses: wumpuses[i].wumpuses,
                gold: golds[i].gold,
                ..truth
            };
            found.extend(fits(world));
        }
        (!found.is_empty()).then_some(found)
    } else {
        sample_worlds(wanted as u32, DRAWS_PER_ROLLOUT, || fits(WumpusWorld::generate(config, &mut rng)))
    }
}

/// The game in `world` after `actions`, if every request on the way is the
/// one recorded.
fn replayed(
    config: &WumpusConfig,
    world: WumpusWorld,
    requests: &[WumpusRequest],
    actions: &[WumpusAction],
) -> Option<WumpusState> {
    let mut state = WumpusState::new(config, world);
    for (shown, &action) in requests.iter().zip(actions) {
        if state.request() != *shown || state.check(action).is_err() {
            return None;
        }
        if state.apply(action).is_some() {
            return None; // the game went on: it did not end here
        }
    }
    (state.request() == *requests.last()?).then_some(state)
}

/// Each legal action's value in `request`: the mean final score over
/// `caves` when it is played, then Hard (`hard`, knowing what the agent
/// knew before) plays on.
fn action_values(
    config: &WumpusConfig,
    hard: &Hard,
    request: &WumpusRequest,
    caves: &[WumpusState],
) -> Vec<(WumpusAction, f64)> {
    WumpusAction::ALL
        .into_iter()
        .filter(|&a| request.check(config.goal, a).is_ok())
        .map(|a| {
            let total: f64 = caves.iter().map(|cave| f64::from(rollout(hard, request, a, cave))).sum();
            (a, total / caves.len() as f64)
        })
        .collect()
}

/// The final score when `first` is played in `cave` and Hard plays on.
fn rollout(hard: &Hard, request: &WumpusRequest, first: WumpusAction, cave: &WumpusState) -> i32 {
    let (mut agent, mut state) = (hard.clone(), *cave);
    agent.follow(request, first);
    let mut end = state.apply(first);
    while end.is_none() {
        let action = agent.step(&state.request());
        end = match state.check(action) {
            Ok(()) => state.apply(action),
            Err(why) => Some(state.forfeit(Some((action, why)))),
        };
    }
    state.score()
}

#[cfg(test)]
mod tests {
    use player_api::{grid::Area, wumpus::Goal};

    use super::*;

    /// The requests and actions of playing `actions` in `world`.
    fn history(
        config: &WumpusConfig,
        world: WumpusWorld,
        actions: &[WumpusAction],
    ) -> (Vec<WumpusRequest>, Vec<WumpusAction>) {
        let mut state = WumpusState::new(config, world);
        let mut requests = vec![state.request()];
        for &a in actions {
            state.apply(a);
            requests.push(state.request());
        }
        (requests, actions.to_vec())
    }

    fn values_at(
        config: &WumpusConfig,
        world: WumpusWorld,
        actions: &[WumpusAction],
        rollouts: u32,
    ) -> Vec<(WumpusAction, f64)> {
        let (requests, actions) = history(config, world, actions);
        let mut hard = Hard::default();
        hard.new_game(&game_info(config, requests.first()));
        for (r, &a) in requests.iter().zip(&actions) {
            hard.follow(r, a);
        }
        let caves = consistent_caves(config, world, &requests, &actions, rollouts).unwrap();
        action_values(config, &hard, requests.last().unwrap(), &caves)
    }

    fn value(values: &[(WumpusAction, f64)], a: WumpusAction) -> f64 {
        values.iter().find(|(b, _)| *b == a).unwrap().1
    }

    /// AIMA's figure: pits at (2,0), (2,2), (3,3); the wumpus at (0,2); the gold at (1,2).
    fn aima_world() -> WumpusWorld {
        WumpusWorld {
            size: 4,
            pits: Area::from_iter([Coord::new(2, 0), Coord::new(2, 2), Coord::new(3, 3)]),
            wumpuses: Area::from_iter([Coord::new(0, 2)]),
            obstacles: Area::EMPTY,
            gold: Coord::new(1, 2),
        }
    }

    #[test]
    fn a_step_into_a_known_pit_is_a_blunder_and_a_safe_way_is_best() {
        use WumpusAction::*;
        let config = WumpusConfig::aima();
        assert_eq!(config.goal, Goal::ClimbWithGold);
        // East to (1,0): a breeze. Pits are next to (1,0): at (2,0) or (1,1).
        // Back to (0,0), up to (0,1): a stench, no breeze, so (1,1) holds no
        // pit: the pit is at (2,0) for sure. Then down and east again,
        // facing east at (1,0): Forward walks into the known pit.
        let path = [
            Forward, TurnLeft, TurnLeft, Forward, TurnRight, Forward, TurnRight, TurnRight, Forward,
            TurnLeft, Forward,
        ];
        let (requests, _) = history(&config, aima_world(), &path);
        let at = requests.last().unwrap();
        assert_eq!((at.at, at.facing), (Coord::new(1, 0), player_api::grid::Dir::East), "{at:?}");
        assert!(at.percept.breeze);
        let values = values_at(&config, aima_world(), &path, 40);
        let best = values.iter().map(|v| v.1).fold(f64::MIN, f64::max);
        let into_pit = value(&values, Forward);
        // Death costs 1000 and a point for the step.
        assert!((into_pit - (at.score - 1 - DEATH_PENALTY) as f64).abs() < 1e-9, "{into_pit}");
        assert!((best - into_pit) / SPAN >= 0.3, "{values:?}");
        assert!(best > into_pit + 500.0);
    }

    #[test]
    fn at_the_gold_grabbing_it_is_best() {
        use WumpusAction::*;
        // A cave with no hazards: the gold one square east of the start.
        let config = WumpusConfig::aima();
        let world = WumpusWorld {
            size: 4,
            pits: Area::EMPTY,
            wumpuses: Area::from_iter([Coord::new(3, 3)]),
            obstacles: Area::EMPTY,
            gold: Coord::new(1, 0),
        };
        let values = values_at(&config, world, &[Forward], 20);
        let grab = value(&values, Grab);
        assert!(values.iter().all(|&(a, v)| a == Grab || v <= grab), "{values:?}");
        // Grab, turn twice, walk back, climb: 1000 - 6.
        assert!((grab - 994.0).abs() < 1e-9, "{grab}");
    }

    #[test]
    fn the_same_position_gives_the_same_values() {
        use WumpusAction::*;
        let config = WumpusConfig::aima();
        let a = values_at(&config, aima_world(), &[Forward], 10);
        let b = values_at(&config, aima_world(), &[Forward], 10);
        assert_eq!(a, b);
        // The caves kept agree with what was sensed: a breeze at (1,0).
        let (requests, actions) = history(&config, aima_world(), &[Forward]);
        for cave in consistent_caves(&config, aima_world(), &requests, &actions, 10).unwrap() {
            assert!(cave.world().breezy(Coord::new(1, 0)));
            assert!(!cave.world().pits.contains(Coord::new(1, 0)));
        }
        // Late in a game, with much sensed, the caves are still found (by
        // parts): the pit at (2,0) is known, and (1,1) holds none.
        let path = [Forward, TurnLeft, TurnLeft, Forward, TurnRight, Forward, TurnRight, TurnRight, Forward];
        let (requests, actions) = history(&config, aima_world(), &path);
        let caves = consistent_caves(&config, aima_world(), &requests, &actions, 50).unwrap();
        assert_eq!(caves.len(), 50);
        for cave in &caves {
            assert!(
                cave.world().pits.contains(Coord::new(2, 0)) && !cave.world().pits.contains(Coord::new(1, 1))
            );
            assert_eq!(cave.world().wumpuses.len(), 1);
        }
        assert!(caves.iter().any(|c| c.world().gold != aima_world().gold), "the gold is unknown yet");
    }
}
