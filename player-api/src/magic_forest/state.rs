//! `ForestState`: a run in progress (every forest of it, and the wanderer);
//! an action and its effect (`apply`), how a run ends (`RunEnd`).

use std::fmt;

use abi_stable::StableAbi;
use rand::Rng;

use super::{
    config::ForestConfig, forest::Forest, DEATH_PENALTY_PER_TILE, MOVE_COST, PORTAL_REWARD_PER_TILE,
    THROW_COST,
};
use crate::grid::{Area, Coord, Dir};

/// Move or throw a stone.
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ActionKind {
    Move,
    Throw,
}

/// One action: move one tile, or throw a stone at the neighbouring tile, in
/// a direction (`North` is up). Every value is a legal action.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ForestAction {
    pub kind: ActionKind,
    pub dir: Dir,
}

impl ForestAction {
    pub const fn walk(dir: Dir) -> ForestAction {
        ForestAction { kind: ActionKind::Move, dir }
    }

    pub const fn throw(dir: Dir) -> ForestAction {
        ForestAction { kind: ActionKind::Throw, dir }
    }
}

impl fmt::Display for ForestAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            ActionKind::Move => "move",
            ActionKind::Throw => "throw",
        };
        let dir = match self.dir {
            Dir::North => "up",
            Dir::East => "right",
            Dir::South => "down",
            Dir::West => "left",
        };
        write!(f, "{kind} {dir}")
    }
}

/// What one action did.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ForestEvent {
    Moved,
    /// A move into the edge: the wanderer stays (and pays).
    Edge,
    /// Stepped onto a live monster or a trap at `at`; back at the start.
    Died {
        at: Coord,
    },
    /// Reached the portal: the forest is cleared.
    Portal,
    /// A stone; `killed`: it hit a live monster (the wanderer is not told).
    Stone {
        killed: bool,
    },
}

/// How a run ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RunEnd {
    /// The largest forest's portal was reached.
    AllCleared,
    /// A forest's action cap was spent before its portal was found.
    ActionCap { size: u8, cap: u32 },
    /// The player failed to answer (a fault the arena records): scored as a
    /// death in the current forest.
    Forfeit,
}

impl fmt::Display for RunEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunEnd::AllCleared => write!(f, "every forest cleared"),
            RunEnd::ActionCap { size, cap } => {
                write!(f, "action cap ({cap} actions) spent in the {size}x{size} forest")
            }
            RunEnd::Forfeit => write!(f, "forfeit"),
        }
    }
}

/// A run in progress: every forest of the run, and the wanderer.
#[derive(Clone, PartialEq, Debug)]
pub struct ForestState {
    config: ForestConfig,
    forests: Vec<Forest>,
    /// Index of the current forest in `forests`.
    current: usize,
    live_monsters: Area,
    at: Coord,
    score: i32,
    actions: u32,
    actions_here: u32,
    deaths: u32,
    just_died: bool,
    end: Option<RunEnd>,
}

impl ForestState {
    /// Draws every forest of a run, smallest first. `config` must pass
    /// [`ForestConfig::check`].
    pub fn generate<R: Rng + ?Sized>(config: &ForestConfig, rng: &mut R) -> Vec<Forest> {
        config.sizes().map(|size| Forest::generate(size, config, rng)).collect()
    }

    /// The start of a run through `forests` (one per size of `config.sizes()`).
    pub fn new(config: &ForestConfig, forests: Vec<Forest>) -> ForestState {
        let first = forests.first().copied().expect("a run has at least one forest");
        ForestState {
            config: *config,
            forests,
            current: 0,
            live_monsters: first.monsters,
            at: first.start,
            score: 0,
            actions: 0,
            actions_here: 0,
            deaths: 0,
            just_died: false,
            end: None,
        }
    }

    pub fn config(&self) -> &ForestConfig {
        &self.config
    }

    /// The forests of the run, smallest first.
    pub fn forests(&self) -> &[Forest] {
        &self.forests
    }

    /// The forest the wanderer is in.
    pub fn forest(&self) -> &Forest {
        &self.forests[self.current]
    }

    pub fn at(&self) -> Coord {
        self.at
    }

    pub fn score(&self) -> i32 {
        self.score
    }

    /// Actions in the whole run.
    pub fn actions(&self) -> u32 {
        self.actions
    }

    pub fn deaths(&self) -> u32 {
        self.deaths
    }

    /// Forests whose portal was reached.
    pub fn cleared(&self) -> u32 {
        self.current as u32 + u32::from(self.end == Some(RunEnd::AllCleared))
    }

    pub fn live_monsters(&self) -> Area {
        self.live_monsters
    }

    pub fn end(&self) -> Option<RunEnd> {
        self.end
    }

    /// Which forest of the run the wanderer is in, from 0 (for
    /// `ForestState::request`, in `player.rs`).
    pub(super) fn forest_index(&self) -> usize {
        self.current
    }

    /// Whether the last action killed the wanderer.
    pub(super) fn just_died(&self) -> bool {
        self.just_died
    }

    /// Actions left in the current forest before the run ends.
    pub(super) fn actions_left(&self) -> u32 {
        self.config.action_cap(self.forest().size) - self.actions_here
    }

    /// Plays one action; returns what it did and how the run ended, if it did.
    pub fn apply(&mut self, action: ForestAction) -> (ForestEvent, Option<RunEnd>) {
        debug_assert!(self.end.is_none(), "the run is over");
        let forest = *self.forest();
        let n = forest.tiles();
        self.actions += 1;
        self.actions_here += 1;
        self.just_died = false;
        let next = self.at.step(action.dir, forest.size);
        let event = match action.kind {
            ActionKind::Throw => {
                self.score -= THROW_COST;
                let killed = next.is_some_and(|t| self.live_monsters.contains(t));
                if let Some(t) = next.filter(|_| killed) {
                    self.live_monsters.remove(t);
                }
                ForestEvent::Stone { killed }
            }
            ActionKind::Move => {
                self.score -= MOVE_COST;
                match next {
                    None => ForestEvent::Edge,
                    Some(t) if self.live_monsters.contains(t) || forest.traps.contains(t) => {
                        self.score -= DEATH_PENALTY_PER_TILE * n;
                        self.deaths += 1;
                        self.just_died = true;
                        self.at = forest.start;
                        ForestEvent::Died { at: t }
                    }
                    Some(t) if t == forest.portal => {
                        self.score += PORTAL_REWARD_PER_TILE * n;
                        ForestEvent::Portal
                    }
                    Some(t) => {
                        self.at = t;
                        ForestEvent::Moved
                    }
                }
            }
        };
        if event == ForestEvent::Portal {
            if self.current + 1 == self.forests.len() {
                self.end = Some(RunEnd::AllCleared);
            } else {
                self.current += 1;
                let next = self.forests[self.current];
                (self.live_monsters, self.at, self.actions_here) = (next.monsters, next.start, 0);
            }
        } else if self.actions_here >= self.config.action_cap(forest.size) {
            self.end =
                Some(RunEnd::ActionCap { size: forest.size, cap: self.config.action_cap(forest.size) });
        }
        (event, self.end)
    }

    /// Ends the run for a player that failed to answer: scored as a death
    /// in the current forest.
    pub fn forfeit(&mut self) -> RunEnd {
        self.score -= DEATH_PENALTY_PER_TILE * self.forest().tiles();
        self.end = Some(RunEnd::Forfeit);
        RunEnd::Forfeit
    }
}
