//! `WumpusState`: a game in progress; the check of an action (`InvalidAction`)
//! and its effect (`apply`), the percepts, how a game ends (`StepEnd`).

use std::fmt;

use abi_stable::StableAbi;

use super::{
    config::{ArrowRule, Goal, WumpusConfig},
    world::WumpusWorld,
    ACTION_COST, DEATH_PENALTY, GOLD_REWARD,
};
use crate::grid::{Area, Coord, Dir};

/// What the agent can do, one per step.
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum WumpusAction {
    /// One square ahead; into a wall or obstacle it is a bump and the agent stays.
    Forward,
    TurnLeft,
    TurnRight,
    /// Picks up the gold on this square.
    Grab,
    /// Fires an arrow straight ahead: it kills the first live wumpus on its
    /// line and stops at a wall or obstacle.
    Shoot,
    /// Leaves the cave; only on the start square, and only with `Goal::ClimbWithGold`.
    Climb,
}

impl WumpusAction {
    pub const ALL: [WumpusAction; 6] = [
        WumpusAction::Forward,
        WumpusAction::TurnLeft,
        WumpusAction::TurnRight,
        WumpusAction::Grab,
        WumpusAction::Shoot,
        WumpusAction::Climb,
    ];
}

impl fmt::Display for WumpusAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            WumpusAction::Forward => "forward",
            WumpusAction::TurnLeft => "turn left",
            WumpusAction::TurnRight => "turn right",
            WumpusAction::Grab => "grab",
            WumpusAction::Shoot => "shoot",
            WumpusAction::Climb => "climb",
        };
        f.write_str(name)
    }
}

/// What the agent senses after each action, on its square.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Percept {
    /// A live wumpus is on a neighbouring square (4 directions).
    pub stench: bool,
    /// A pit is on a neighbouring square.
    pub breeze: bool,
    /// The gold is on this square (and not yet picked up).
    pub glitter: bool,
    /// The last action was a Forward into a wall or obstacle.
    pub bump: bool,
    /// The last action was a Shoot that killed a wumpus.
    pub scream: bool,
}

/// What killed the agent.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Hazard {
    Pit,
    Wumpus,
}

/// Whether `action` is allowed to an agent at `at` with `arrows` left,
/// standing on the gold or not (`gold_here`: what its glitter tells), in a
/// game of goal `goal`: the one check, for the referee (`WumpusState::check`)
/// and for a player that knows only its requests (`WumpusRequest::check`).
pub fn check_action(
    goal: Goal,
    at: Coord,
    arrows: u8,
    gold_here: bool,
    action: WumpusAction,
) -> Result<(), InvalidAction> {
    match action {
        WumpusAction::Climb if goal == Goal::GrabGold => Err(InvalidAction::NoClimb),
        WumpusAction::Climb if at != WumpusWorld::START => Err(InvalidAction::ClimbAwayFromStart { at }),
        WumpusAction::Shoot if arrows == 0 => Err(InvalidAction::NoArrowLeft),
        WumpusAction::Grab if !gold_here => Err(InvalidAction::NoGoldHere { at }),
        _ => Ok(()),
    }
}

/// Why an action is not allowed. Sending one ends the game as a death.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum InvalidAction {
    ClimbAwayFromStart {
        at: Coord,
    },
    /// The configuration has no Climb (`Goal::GrabGold`).
    NoClimb,
    NoArrowLeft,
    NoGoldHere {
        at: Coord,
    },
}

impl fmt::Display for InvalidAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidAction::ClimbAwayFromStart { at } => {
                write!(f, "climb at {at}: the way out is on the start square {}", WumpusWorld::START)
            }
            InvalidAction::NoClimb => write!(f, "climb: this game has no climb (grabbing the gold ends it)"),
            InvalidAction::NoArrowLeft => write!(f, "shoot: no arrow left"),
            InvalidAction::NoGoldHere { at } => write!(f, "grab at {at}: no gold here"),
        }
    }
}

/// How a game ended, as far as the rules decide it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum StepEnd {
    /// Out with the gold (`aima`: climbed out with it; `project`: grabbed it). A win.
    GoldOut,
    /// Climbed out without the gold.
    ClimbedOut,
    Died {
        hazard: Hazard,
        at: Coord,
    },
    /// The action cap was reached.
    ActionCap(u32),
    /// An invalid action: scored as a death.
    Invalid(WumpusAction, InvalidAction),
    /// The player failed to answer (a fault the arena records): scored as a death.
    Forfeit,
}

impl fmt::Display for StepEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepEnd::GoldOut => write!(f, "out with the gold"),
            StepEnd::ClimbedOut => write!(f, "climbed out without the gold"),
            StepEnd::Died { hazard: Hazard::Pit, at } => write!(f, "fell into a pit at {at}"),
            StepEnd::Died { hazard: Hazard::Wumpus, at } => write!(f, "eaten by the wumpus at {at}"),
            StepEnd::ActionCap(cap) => write!(f, "action cap ({cap} actions) reached"),
            StepEnd::Invalid(_, why) => write!(f, "invalid action: {why}"),
            StepEnd::Forfeit => write!(f, "forfeit"),
        }
    }
}

/// A game in progress: the world and the agent. Players may copy it to
/// simulate; the arena keeps its own.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct WumpusState {
    config: WumpusConfig,
    world: WumpusWorld,
    live_wumpuses: Area,
    at: Coord,
    facing: Dir,
    arrows: u8,
    has_gold: bool,
    score: i32,
    actions: u32,
    percept: Percept,
    end: Option<StepEnd>,
}

impl WumpusState {
    /// The start of a game in `world`: the agent on the start square, facing
    /// `config.start_facing`, with its arrows and `config.start_score`.
    pub fn new(config: &WumpusConfig, world: WumpusWorld) -> WumpusState {
        let arrows = match config.arrows {
            ArrowRule::One => 1,
            ArrowRule::OnePerWumpus => world.wumpuses.len() as u8,
        };
        let mut state = WumpusState {
            config: *config,
            world,
            live_wumpuses: world.wumpuses,
            at: WumpusWorld::START,
            facing: config.start_facing,
            arrows,
            has_gold: false,
            score: config.start_score,
            actions: 0,
            percept: Percept::default(),
            end: None,
        };
        state.percept = state.sense(false, false);
        state
    }

    pub fn config(&self) -> &WumpusConfig {
        &self.config
    }

    pub fn world(&self) -> &WumpusWorld {
        &self.world
    }

    pub fn at(&self) -> Coord {
        self.at
    }

    pub fn facing(&self) -> Dir {
        self.facing
    }

    pub fn arrows(&self) -> u8 {
        self.arrows
    }

    pub fn has_gold(&self) -> bool {
        self.has_gold
    }

    pub fn live_wumpuses(&self) -> Area {
        self.live_wumpuses
    }

    pub fn score(&self) -> i32 {
        self.score
    }

    /// Actions taken so far.
    pub fn actions(&self) -> u32 {
        self.actions
    }

    /// What the agent senses now.
    pub fn percept(&self) -> Percept {
        self.percept
    }

    /// How the game ended, once it has.
    pub fn end(&self) -> Option<StepEnd> {
        self.end
    }

    /// Whether `action` is allowed now.
    pub fn check(&self, action: WumpusAction) -> Result<(), InvalidAction> {
        let gold_here = !self.has_gold && self.world.gold == self.at;
        check_action(self.config.goal, self.at, self.arrows, gold_here, action)
    }

    /// The actions [`check`](Self::check) allows now.
    pub fn legal_actions(&self) -> impl Iterator<Item = WumpusAction> + '_ {
        WumpusAction::ALL.into_iter().filter(|&a| self.check(a).is_ok())
    }

    /// Plays `action`, which must pass [`check`](Self::check), and returns
    /// how the game ended if it did. Every action costs 1 point.
    pub fn apply(&mut self, action: WumpusAction) -> Option<StepEnd> {
        debug_assert!(self.end.is_none(), "the game is over");
        debug_assert_eq!(self.check(action), Ok(()), "{action} is not allowed");
        self.actions += 1;
        self.score -= ACTION_COST;
        let (mut bump, mut scream) = (false, false);
        match action {
            WumpusAction::Forward => {
                let ahead = self.at.step(self.facing, self.world.size);
                match ahead {
                    Some(next) if !self.world.blocks(ahead) => self.at = next,
                    _ => bump = true,
                }
                let hazard = if self.live_wumpuses.contains(self.at) {
                    Some(Hazard::Wumpus)
                } else if self.world.pits.contains(self.at) {
                    Some(Hazard::Pit)
                } else {
                    None
                };
                if let Some(hazard) = hazard {
                    self.score -= DEATH_PENALTY;
                    self.end = Some(StepEnd::Died { hazard, at: self.at });
                }
            }
            WumpusAction::TurnLeft => self.facing = self.facing.left(),
            WumpusAction::TurnRight => self.facing = self.facing.right(),
            WumpusAction::Grab => {
                self.has_gold = true;
                if self.config.goal == Goal::GrabGold {
                    self.score += GOLD_REWARD;
                    self.end = Some(StepEnd::GoldOut);
                }
            }
            WumpusAction::Shoot => {
                self.arrows -= 1;
                self.score -= self.config.arrow_cost;
                let mut square = self.at.step(self.facing, self.world.size);
                while !self.world.blocks(square) {
                    let s = square.expect("blocks() is true off the grid");
                    if self.live_wumpuses.contains(s) {
                        self.live_wumpuses.remove(s);
                        scream = true;
                        break;
                    }
                    square = s.step(self.facing, self.world.size);
                }
            }
            WumpusAction::Climb => {
                if self.has_gold {
                    self.score += GOLD_REWARD;
                    self.end = Some(StepEnd::GoldOut);
                } else {
                    self.end = Some(StepEnd::ClimbedOut);
                }
            }
        }
        self.percept = self.sense(bump, scream);
        if self.end.is_none() && self.actions >= self.config.action_cap {
            self.end = Some(StepEnd::ActionCap(self.config.action_cap));
        }
        self.end
    }

    /// Ends the game for an action that failed [`check`](Self::check) (or,
    /// with `None`, for a player that failed to answer): scored as a death.
    pub fn forfeit(&mut self, invalid: Option<(WumpusAction, InvalidAction)>) -> StepEnd {
        self.score -= DEATH_PENALTY;
        let end = invalid.map_or(StepEnd::Forfeit, |(action, why)| StepEnd::Invalid(action, why));
        self.end = Some(end);
        end
    }

    fn sense(&self, bump: bool, scream: bool) -> Percept {
        let around = self.at.neighbours(self.world.size);
        Percept {
            stench: !around.intersection(self.live_wumpuses).is_empty(),
            breeze: self.world.breezy(self.at),
            glitter: !self.has_gold && self.world.gold == self.at,
            bump,
            scream,
        }
    }
}
