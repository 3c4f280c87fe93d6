//! Magic Forest's analyser: each action judged by rollouts of Hard (the
//! best reference wanderer) on forests consistent with what the wanderer
//! has seen of the current forest. Later forests are unseen and the state
//! starts afresh in each, so the rest of the run after this forest's portal
//! is worth the same whatever is played here: it is estimated once, by Hard
//! on fresh forests, and added to every rollout that reaches the portal
//! (a run that spends its action cap here ends without it).
//!
//! A position's forests are drawn tile by tile from the rules' chances,
//! less the states what was seen rules out (a tile stood on holds no trap,
//! nor a monster unless a stone was thrown at it; a tile next to one
//! without bones holds no monster, without leaves no trap; the start and
//! its neighbours hold nothing; the portal is on a free tile never stood
//! on), and kept when replaying the forest's actions in them shows the
//! wanderer every request it was shown (rejection sampling, checked by the
//! rules in player-api). The seed is derived from the position, so the
//! same position gives the same numbers anywhere. docs/analysis.md says
//! how good the estimate is.

use player_api::magic_forest::{
    ActionKind, Area, Coord, Dir, Forest, ForestAction, ForestConfig, ForestGameInfo, ForestPlayer,
    ForestRequest, ForestState, RunEnd, DEATH_PENALTY_PER_TILE, PORTAL_REWARD_PER_TILE, SMALLEST_SIZE,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference_bots::magic_forest::Hard;

use super::replay::{action_from, ForestBody};
use crate::analysis::{sample_worlds, AnalysedBody, Budget, Judgement, Measure};
use crate::play::seeds;
use crate::replay::Replay;

/// The range of scores the marks are a share of: a death to the portal in
/// the smallest forest (180), so a death there that could be avoided is a
/// blunder. Larger forests stake more (20n): the same share is a smaller
/// slip there (docs/analysis.md).
const SPAN: f64 =
    ((PORTAL_REWARD_PER_TILE + DEATH_PENALTY_PER_TILE) * SMALLEST_SIZE as i32 * SMALLEST_SIZE as i32) as f64;

/// Forests drawn per forest kept, at most: past it a position is judged on
/// the forests found.
const DRAWS_PER_ROLLOUT: u32 = 2_000;

/// Every action a wanderer may send (all are legal).
const ACTIONS: [ForestAction; 8] = [
    ForestAction::walk(Dir::North),
    ForestAction::walk(Dir::East),
    ForestAction::walk(Dir::South),
    ForestAction::walk(Dir::West),
    ForestAction::throw(Dir::North),
    ForestAction::throw(Dir::East),
    ForestAction::throw(Dir::South),
    ForestAction::throw(Dir::West),
];

impl AnalysedBody for ForestBody {
    fn measure(&self) -> Measure {
        Measure::ExpectedScore { span: SPAN }
    }

    fn judge<E>(&self, _replay: &Replay<E>, budget: Budget, from: usize) -> Result<Vec<Judgement>, String> {
        let config = self.config();
        let actions: Vec<ForestAction> = self.steps.iter().map(|s| action_from(s.action)).collect();
        let requests = requests(&config, self.forests(), &actions);
        let later = later_values(&config, budget.rollouts);
        let mut hard = Hard::default();
        hard.new_game(&game_info(&config));
        let mut entered = 0; // the forest's first action
        let mut turns = Vec::with_capacity(requests.len());
        for (i, (request, &played)) in requests.iter().zip(&actions).enumerate() {
            if request.forest != requests[entered].forest {
                entered = i;
            }
            if i < from {
                hard.follow(request, played);
                continue;
            }
            let seen = Seen { requests: &requests[entered..=i], actions: &actions[entered..i] };
            let forests = consistent_forests(&config, &seen, budget.rollouts)
                .ok_or(format!("action {}: no forest matches what the wanderer saw", i + 1))?;
            let after_portal = later[usize::from(request.forest) + 1];
            let values = action_values(&hard, request, &forests, after_portal);
            turns.push(Judgement::of_values(i as u32 + 1, played, &values));
            hard.follow(request, played);
        }
        Ok(turns)
    }
}

/// What the wanderer was shown before each action: the rules applied to
/// the actions in the run's forests (as the referee did), to the end.
fn requests(config: &ForestConfig, forests: Vec<Forest>, actions: &[ForestAction]) -> Vec<ForestRequest> {
    let mut state = ForestState::new(config, forests);
    let mut requests = Vec::new();
    for &action in actions {
        requests.push(state.request());
        if state.apply(action).1.is_some() {
            break;
        }
    }
    requests
}

fn game_info(config: &ForestConfig) -> ForestGameInfo {
    ForestGameInfo { config: *config, step_budget_us: 0, seed: 0 }
}

/// The current forest as the wanderer saw it: the requests since it
/// entered, up to the position's, and the actions between them.
struct Seen<'a> {
    requests: &'a [ForestRequest],
    actions: &'a [ForestAction],
}

impl Seen<'_> {
    fn entered(&self) -> ForestRequest {
        self.requests[0]
    }

    fn now(&self) -> ForestRequest {
        *self.requests.last().expect("a position has a request")
    }

    /// The seed of the position: every request and action in the forest, mixed.
    fn seed(&self) -> u64 {
        let mut seed = seeds::derive(0x464f_5245, u64::from(self.entered().forest));
        for r in self.requests {
            let flags = [r.bones, r.leaves, r.died].iter().fold(0u64, |acc, &f| (acc << 1) | u64::from(f));
            let word = flags
                | u64::from(r.at.index()) << 8
                | u64::from(r.size) << 16
                | u64::from(r.actions_left) << 24;
            seed = seeds::derive(seeds::derive(seed, word), r.score as u64);
        }
        for a in self.actions {
            seed = seeds::derive(seed, (a.kind as u64) << 8 | (a.dir as u64 + 1));
        }
        seed
    }

    /// Where what was seen rules a monster or a trap out (module docs),
    /// and the tiles stood on.
    fn ruled_out(&self) -> Ruled {
        let (size, start) = (self.entered().size, self.entered().at);
        let near = |tiles: Area| tiles.squares().fold(Area::EMPTY, |acc, t| acc.union(t.neighbours(size)));
        let stood: Area = self.requests.iter().map(|r| r.at).collect();
        let no_bones: Area = self.requests.iter().filter(|r| !r.bones).map(|r| r.at).collect();
        let no_leaves: Area = self.requests.iter().filter(|r| !r.leaves).map(|r| r.at).collect();
        let stoned: Area = (self.requests.iter().zip(self.actions))
            .filter(|(_, a)| a.kind == ActionKind::Throw)
            .filter_map(|(r, a)| r.at.step(a.dir, size))
            .collect();
        let clear = near(Area::from_iter([start])).union(Area::from_iter([start]));
        Ruled {
            no_monster: near(no_bones).union(stood.minus(stoned)).union(clear),
            no_trap: near(no_leaves).union(stood).union(clear),
            stood,
        }
    }

    /// The tiles that clues with bones or leaves, and deaths, depend on
    /// (less those `empty` for sure), in groups that share none.
    fn groups(&self, size: u8, empty: Area) -> Vec<Group> {
        let clues = self.requests.iter().filter(|r| r.bones || r.leaves).map(|r| {
            let group = Group { clues: vec![(r.at, r.bones, r.leaves)], ..Group::default() };
            (r.at.neighbours(size).minus(empty), group)
        });
        let deaths = (self.requests.iter().zip(self.actions).zip(&self.requests[1..]))
            .filter(|((_, a), next)| a.kind == ActionKind::Move && next.died)
            .filter_map(|((r, a), _)| r.at.step(a.dir, size))
            .map(|d| (Area::from_iter([d]), Group { deaths: Area::from_iter([d]), ..Group::default() }));
        let mut groups: Vec<Group> = Vec::new();
        for (tiles, mut new) in clues.chain(deaths) {
            new.tiles = tiles;
            let (tied, apart): (Vec<Group>, Vec<Group>) =
                groups.into_iter().partition(|g| !g.tiles.intersection(new.tiles).is_empty());
            for g in tied {
                new.tiles = new.tiles.union(g.tiles);
                new.clues.extend(g.clues);
                new.deaths = new.deaths.union(g.deaths);
            }
            groups = apart;
            groups.push(new);
        }
        groups
    }

    /// One forest drawn from the rules' chances less what was seen rules
    /// out (module docs); the wanderer's start is the one it entered at.
    fn draw(&self, config: &ForestConfig, rng: &mut ChaCha8Rng) -> Option<Forest> {
        let (size, start) = (self.entered().size, self.entered().at);
        let Ruled { no_monster, no_trap, stood } = self.ruled_out();
        let none = 1.0 - config.monster_chance - config.trap_chance;
        let redraw = |tile, monsters: &mut Area, traps: &mut Area, rng: &mut ChaCha8Rng| {
            let m = if no_monster.contains(tile) { 0.0 } else { config.monster_chance };
            let t = if no_trap.contains(tile) { 0.0 } else { config.trap_chance };
            let roll = rng.random::<f64>() * (none + m + t);
            monsters.remove(tile);
            traps.remove(tile);
            if roll < m {
                monsters.insert(tile);
            } else if roll < m + t {
                traps.insert(tile);
            }
        };
        let (mut monsters, mut traps) = (Area::EMPTY, Area::EMPTY);
        for tile in Area::grid(size).squares() {
            redraw(tile, &mut monsters, &mut traps, rng);
        }
        // Each group of tiles tied by clues and deaths is drawn again until
        // it agrees with them: the groups are independent, so this is the
        // same posterior as drawing whole forests, in far fewer draws.
        for group in self.groups(size, no_monster.intersection(no_trap)) {
            let mut tries = 0;
            while !group.holds(Forest { size, monsters, traps, portal: start, start }) {
                tries += 1;
                if tries > DRAWS_PER_ROLLOUT {
                    return None;
                }
                for tile in group.tiles.squares() {
                    redraw(tile, &mut monsters, &mut traps, rng);
                }
            }
        }
        // The start is among the tiles stood on.
        let portal = Area::grid(size).minus(monsters.union(traps)).minus(stood).pick(rng)?;
        Some(Forest { size, monsters, traps, portal, start })
    }
}

/// Tiles whose draws a group of clues and deaths depends on: the clues
/// (tile, bones, leaves) and the tiles died on must come out as seen.
#[derive(Default)]
struct Group {
    tiles: Area,
    clues: Vec<(Coord, bool, bool)>,
    deaths: Area,
}

impl Group {
    fn holds(&self, forest: Forest) -> bool {
        let hazards = forest.monsters.union(forest.traps);
        self.clues.iter().all(|&(at, bones, leaves)| forest.bones(at) == bones && forest.leaves(at) == leaves)
            && hazards.intersection(self.deaths) == self.deaths
    }
}

/// What was seen rules out in the current forest.
struct Ruled {
    no_monster: Area,
    no_trap: Area,
    stood: Area,
}

/// Up to `wanted` forests in which the forest's actions show the wanderer
/// exactly what it saw: each is a one-forest run at the position. None if
/// no forest matched.
fn consistent_forests(config: &ForestConfig, seen: &Seen, wanted: u32) -> Option<Vec<ForestState>> {
    // The count is in the seed: a larger sample is other forests, not more
    // of the same (what measuring the noise needs).
    let mut rng = ChaCha8Rng::seed_from_u64(seeds::derive(seen.seed(), u64::from(wanted)));
    sample_worlds(wanted, DRAWS_PER_ROLLOUT, || replayed(config, seen, seen.draw(config, &mut rng)?))
}

/// The one-forest run in `forest` after the forest's actions, if every
/// request on the way is the one seen.
fn replayed(config: &ForestConfig, seen: &Seen, forest: Forest) -> Option<ForestState> {
    let entered = seen.entered();
    let mut state = ForestState::new(config, vec![forest]);
    for (shown, &action) in seen.requests.iter().zip(seen.actions) {
        if as_seen(&state, entered.forest, entered.score) != *shown || state.apply(action).1.is_some() {
            return None;
        }
    }
    (as_seen(&state, entered.forest, entered.score) == seen.now()).then_some(state)
}

/// What a one-forest run shows, as the run shows it: forest `forest` of
/// the run, entered with `score`.
fn as_seen(state: &ForestState, forest: u8, score: i32) -> ForestRequest {
    let r = state.request();
    ForestRequest { forest, score: score + r.score, ..r }
}

/// Each action's value at `request`: the mean final score of the run over
/// `forests` when it is played, then Hard (`hard`, knowing what the
/// wanderer knew before) plays on; `after_portal` is what the rest of the
/// run is worth once this forest's portal is reached.
fn action_values(
    hard: &Hard,
    request: &ForestRequest,
    forests: &[ForestState],
    after_portal: f64,
) -> Vec<(ForestAction, f64)> {
    ACTIONS
        .into_iter()
        .map(|a| {
            let total: f64 = forests.iter().map(|f| rollout(hard, request, a, f, after_portal)).sum();
            (a, total / forests.len() as f64)
        })
        .collect()
}

/// The run's final score when `first` is played in `forest` and Hard plays on.
fn rollout(
    hard: &Hard,
    request: &ForestRequest,
    first: ForestAction,
    forest: &ForestState,
    after_portal: f64,
) -> f64 {
    let (mut agent, mut state) = (hard.clone(), forest.clone());
    let entered_with = request.score - forest.score();
    agent.follow(request, first);
    let mut end = state.apply(first).1;
    while end.is_none() {
        let action = agent.step(&as_seen(&state, request.forest, entered_with));
        end = state.apply(action).1;
    }
    let here = f64::from(entered_with + state.score());
    here + if end == Some(RunEnd::AllCleared) { after_portal } else { 0.0 }
}

/// Per forest of the run: the expected score of Hard from that forest on,
/// all forests fresh (index `sizes` is the run's end: 0). The first is
/// never needed (it is always seen) and left 0. A forest's end is worth
/// its own mean score plus, when its portal is reached, the next's value.
fn later_values(config: &ForestConfig, rollouts: u32) -> Vec<f64> {
    let sizes: Vec<u8> = config.sizes().collect();
    let mut later = vec![0.0; sizes.len() + 1];
    for k in (1..sizes.len()).rev() {
        let seed = seeds::derive(seeds::derive(0x4c41_5445, u64::from(sizes[k])), u64::from(rollouts));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut score, mut cleared) = (0.0, 0.0);
        let n = rollouts.max(1);
        for _ in 0..n {
            let mut state = ForestState::new(config, vec![Forest::generate(sizes[k], config, &mut rng)]);
            let mut hard = Hard::default();
            hard.new_game(&game_info(config));
            let mut end = None;
            while end.is_none() {
                end = state.apply(hard.step(&state.request())).1;
            }
            score += f64::from(state.score());
            cleared += f64::from(u8::from(end == Some(RunEnd::AllCleared)));
        }
        later[k] = (score + cleared * later[k + 1]) / f64::from(n);
    }
    later
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One 3x3 forest: the start at (0,0), a trap at (2,0), the portal at (2,2).
    fn trap_forest() -> (ForestConfig, Forest) {
        let config = ForestConfig { largest: 3, ..ForestConfig::default() };
        let forest = Forest {
            size: 3,
            monsters: Area::EMPTY,
            traps: Area::from_iter([Coord::new(2, 0)]),
            portal: Coord::new(2, 2),
            start: Coord::new(0, 0),
        };
        (config, forest)
    }

    /// The requests seen playing `actions` from a forest's start.
    fn history(config: &ForestConfig, forest: Forest, actions: &[ForestAction]) -> Vec<ForestRequest> {
        let mut state = ForestState::new(config, vec![forest]);
        let mut requests = vec![state.request()];
        for &a in actions {
            state.apply(a);
            requests.push(state.request());
        }
        requests
    }

    fn values_at(
        config: &ForestConfig,
        forest: Forest,
        actions: &[ForestAction],
        rollouts: u32,
    ) -> Vec<(ForestAction, f64)> {
        let requests = history(config, forest, actions);
        let mut hard = Hard::default();
        hard.new_game(&game_info(config));
        for (r, &a) in requests.iter().zip(actions) {
            hard.follow(r, a);
        }
        let seen = Seen { requests: &requests, actions };
        let forests = consistent_forests(config, &seen, rollouts).unwrap();
        action_values(&hard, requests.last().unwrap(), &forests, 0.0)
    }

    fn value(values: &[(ForestAction, f64)], a: ForestAction) -> f64 {
        values.iter().find(|(b, _)| *b == a).unwrap().1
    }

    /// Right to (1,0): leaves, so a trap at (2,0) or (1,1). Back, up to
    /// (0,1): no leaves, so (1,1) holds none: the trap is at (2,0). Down and
    /// right again: at (1,0), a step right is onto the known trap.
    const PROOF: [ForestAction; 5] = [
        ForestAction::walk(Dir::East),
        ForestAction::walk(Dir::West),
        ForestAction::walk(Dir::North),
        ForestAction::walk(Dir::South),
        ForestAction::walk(Dir::East),
    ];

    #[test]
    fn a_step_onto_a_known_trap_is_a_blunder_and_a_safe_step_is_best() {
        let (config, forest) = trap_forest();
        let requests = history(&config, forest, &PROOF);
        let at = requests.last().unwrap();
        assert_eq!(at.at, Coord::new(1, 0));
        assert!(at.leaves && !at.bones);
        let values = values_at(&config, forest, &PROOF, 40);
        let onto_trap = value(&values, ForestAction::walk(Dir::East));
        let judged = Judgement::of_values(6, ForestAction::walk(Dir::East), &values);
        let share = (judged.before - judged.after) / SPAN;
        assert!(share >= 0.3, "{values:?}");
        assert_eq!(crate::analysis::Mark::of(share), Some(crate::analysis::Mark::Blunder));
        // The death costs 90 and the walk back: the trap's step is worth that less.
        assert!(judged.best_value - onto_trap >= 90.0, "{values:?}");
        // The best is a step onto a tile the clues prove safe: up to (1,1).
        assert_eq!(judged.best, ForestAction::walk(Dir::North).to_string(), "{values:?}");
        let up = Judgement::of_values(6, ForestAction::walk(Dir::North), &values);
        assert_eq!(up.before, up.after);
    }

    #[test]
    fn the_same_position_gives_the_same_values_and_forests_fit_what_was_seen() {
        let (config, forest) = trap_forest();
        let a = values_at(&config, forest, &PROOF, 10);
        let b = values_at(&config, forest, &PROOF, 10);
        assert_eq!(a, b);
        let requests = history(&config, forest, &PROOF);
        let seen = Seen { requests: &requests, actions: &PROOF };
        let forests = consistent_forests(&config, &seen, 30).unwrap();
        assert_eq!(forests.len(), 30);
        for f in &forests {
            let f = f.forest();
            assert!(f.traps.contains(Coord::new(2, 0)), "{f}");
            assert!(!f.traps.union(f.monsters).contains(Coord::new(1, 1)), "{f}");
            assert_eq!(f.start, Coord::new(0, 0));
        }
        assert!(forests.iter().any(|f| f.forest().portal != forest.portal), "the portal is unknown yet");
    }

    #[test]
    fn late_in_a_crowded_forest_the_forests_are_still_found() {
        // A 6x6 forest with three times the usual hazards, Hard walking it:
        // many clues, which whole forests drawn at random would rarely match.
        let config =
            ForestConfig { largest: 6, monster_chance: 0.15, trap_chance: 0.15, ..ForestConfig::default() };
        let forest = Forest::generate(6, &config, &mut ChaCha8Rng::seed_from_u64(4));
        let mut state = ForestState::new(&config, vec![forest]);
        let mut hard = Hard::default();
        hard.new_game(&game_info(&config));
        let (mut requests, mut actions) = (vec![state.request()], Vec::new());
        while actions.len() < 40 {
            let action = hard.step(&state.request());
            if state.apply(action).1.is_some() {
                break;
            }
            actions.push(action);
            requests.push(state.request());
        }
        let clues = requests.iter().filter(|r| r.bones || r.leaves).count();
        assert!(clues >= 5 && actions.len() >= 10, "{clues} clues in {} actions\n{forest}", actions.len());
        let seen = Seen { requests: &requests, actions: &actions };
        assert_eq!(consistent_forests(&config, &seen, 30).map(|f| f.len()), Some(30));
    }

    #[test]
    fn later_forests_add_hards_expected_score_after_the_portal() {
        let config = ForestConfig { largest: 4, ..ForestConfig::default() };
        let later = later_values(&config, 20);
        assert_eq!(later.len(), 3);
        assert_eq!(later[2], 0.0);
        // A 4x4 forest's portal is worth 160; Hard clears most and walks some.
        assert!(later[1] > 50.0 && later[1] < 160.0, "{later:?}");
        assert_eq!(later, later_values(&config, 20));
    }
}
