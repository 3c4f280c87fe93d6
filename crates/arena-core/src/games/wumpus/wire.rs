//! Wumpus World on the wire (docs/protocol.md): its rules in `new_game`,
//! a step's state (the percept and the agent's own state), and the actions
//! by name, converted both ways.

use player_api::wumpus::{
    ArrowRule, Goal, Percept, WumpusAction, WumpusConfig, WumpusPlacement, WumpusRequest,
};
use serde::{Deserialize, Serialize};

use crate::players::protocol::{coord, wire_coord, Names, Reply, WireCoord, WireDir};

/// The rules of a Wumpus World game.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireWumpusConfig {
    pub size: u8,
    /// `one` or `each_square`.
    pub wumpus: String,
    pub wumpus_chance: f64,
    pub pit_chance: f64,
    pub obstacle_chance: f64,
    /// `one` or `one_per_wumpus`.
    pub arrows: String,
    pub arrow_cost: i32,
    pub start_score: i32,
    /// `climb_with_gold` or `grab_gold`.
    pub goal: String,
    pub start_facing: WireDir,
    pub action_cap: u32,
}

impl From<&WumpusConfig> for WireWumpusConfig {
    fn from(c: &WumpusConfig) -> WireWumpusConfig {
        let wumpus = match c.wumpus {
            WumpusPlacement::One => "one",
            WumpusPlacement::EachSquare => "each_square",
        };
        let arrows = match c.arrows {
            ArrowRule::One => "one",
            ArrowRule::OnePerWumpus => "one_per_wumpus",
        };
        let goal = match c.goal {
            Goal::ClimbWithGold => "climb_with_gold",
            Goal::GrabGold => "grab_gold",
        };
        WireWumpusConfig {
            size: c.size,
            wumpus: wumpus.into(),
            wumpus_chance: c.wumpus_chance,
            pit_chance: c.pit_chance,
            obstacle_chance: c.obstacle_chance,
            arrows: arrows.into(),
            arrow_cost: c.arrow_cost,
            start_score: c.start_score,
            goal: goal.into(),
            start_facing: c.start_facing.into(),
            action_cap: c.action_cap,
        }
    }
}

impl WireWumpusConfig {
    /// The rules, if every name in them is known.
    pub fn to_config(&self) -> Result<WumpusConfig, String> {
        let wumpus = match self.wumpus.as_str() {
            "one" => WumpusPlacement::One,
            "each_square" => WumpusPlacement::EachSquare,
            other => return Err(format!("unknown wumpus placement '{other}'")),
        };
        let arrows = match self.arrows.as_str() {
            "one" => ArrowRule::One,
            "one_per_wumpus" => ArrowRule::OnePerWumpus,
            other => return Err(format!("unknown arrow rule '{other}'")),
        };
        let goal = match self.goal.as_str() {
            "climb_with_gold" => Goal::ClimbWithGold,
            "grab_gold" => Goal::GrabGold,
            other => return Err(format!("unknown goal '{other}'")),
        };
        Ok(WumpusConfig {
            size: self.size,
            wumpus,
            wumpus_chance: self.wumpus_chance,
            pit_chance: self.pit_chance,
            obstacle_chance: self.obstacle_chance,
            arrows,
            arrow_cost: self.arrow_cost,
            start_score: self.start_score,
            goal,
            start_facing: self.start_facing.into(),
            action_cap: self.action_cap,
        })
    }
}

/// What the agent senses.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct WirePercept {
    pub stench: bool,
    pub breeze: bool,
    pub glitter: bool,
    pub bump: bool,
    pub scream: bool,
}

/// A step's state.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireWumpusState {
    pub percept: WirePercept,
    pub at: WireCoord,
    pub facing: WireDir,
    pub arrows: u8,
    pub has_gold: bool,
    pub actions: u32,
    pub score: i32,
}

impl From<&WumpusRequest> for WireWumpusState {
    fn from(r: &WumpusRequest) -> WireWumpusState {
        let p = r.percept;
        WireWumpusState {
            percept: WirePercept {
                stench: p.stench,
                breeze: p.breeze,
                glitter: p.glitter,
                bump: p.bump,
                scream: p.scream,
            },
            at: wire_coord(r.at),
            facing: r.facing.into(),
            arrows: r.arrows,
            has_gold: r.has_gold,
            actions: r.actions,
            score: r.score,
        }
    }
}

impl WireWumpusState {
    /// The step's request, if its square fits the grid.
    pub fn to_request(&self) -> Result<WumpusRequest, String> {
        let p = self.percept;
        Ok(WumpusRequest {
            percept: Percept {
                stench: p.stench,
                breeze: p.breeze,
                glitter: p.glitter,
                bump: p.bump,
                scream: p.scream,
            },
            at: coord(self.at)?,
            facing: self.facing.into(),
            arrows: self.arrows,
            has_gold: self.has_gold,
            actions: self.actions,
            score: self.score,
        })
    }
}

/// The actions by name (`"action":"forward"`).
const ACTIONS: Names<WumpusAction> = Names(&[
    ("forward", WumpusAction::Forward),
    ("turn_left", WumpusAction::TurnLeft),
    ("turn_right", WumpusAction::TurnRight),
    ("grab", WumpusAction::Grab),
    ("shoot", WumpusAction::Shoot),
    ("climb", WumpusAction::Climb),
]);

/// An action as a reply.
pub fn reply(action: WumpusAction) -> Reply {
    Reply::Action { action: ACTIONS.name(action).into(), dir: None }
}

/// The action a reply names.
pub fn action(name: &str, dir: Option<&str>) -> Result<WumpusAction, String> {
    if dir.is_some() {
        return Err(format!("action '{name}' takes no dir in Wumpus World"));
    }
    ACTIONS.value("action", name)
}

#[cfg(test)]
mod tests {
    use player_api::{
        grid::Coord,
        wumpus::{WumpusGameInfo, WumpusState, WumpusWorld},
    };
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::{
        games::wumpus::Wumpus,
        players::isolation::WireGame,
        players::protocol::{through_a_frame, Request},
    };

    #[test]
    fn configs_and_states_in_play_survive_the_wire() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for config in [WumpusConfig::aima(), WumpusConfig::project()] {
            let info =
                WumpusGameInfo { config, start: Coord::new(0, 0), arrows: 1, step_budget_us: 1, seed: 2 };
            let Request::NewGame(read) = through_a_frame(&Request::NewGame(Wumpus::new_game_frame(&info)))
            else {
                panic!()
            };
            assert_eq!(Wumpus::info_of(&read), Ok(info));
            let mut state = WumpusState::new(&config, WumpusWorld::generate(&config, &mut rng));
            while state.end().is_none() {
                let request = state.request();
                let frame = Wumpus::act_frame(&request, std::time::Duration::ZERO);
                assert_eq!(Wumpus::request_of(&through_a_frame(&frame)), Some(Ok(request)));
                let legal: Vec<_> = state.legal_actions().collect();
                state.apply(legal[rng.random_range(0..legal.len())]);
            }
        }
    }

    #[test]
    fn every_action_survives_the_wire_and_wrong_names_say_what_is_right() {
        for each in WumpusAction::ALL {
            let Reply::Action { action: name, dir } = reply(each) else { panic!() };
            assert_eq!(action(&name, dir.as_deref()), Ok(each));
        }
        assert_eq!(
            action("jump", None),
            Err("unknown action 'jump' (one of forward, turn_left, turn_right, grab, shoot, climb)".into())
        );
        assert_eq!(
            action("forward", Some("north")),
            Err("action 'forward' takes no dir in Wumpus World".into())
        );
    }

    /// The frames docs/protocol.md shows.
    #[test]
    fn the_frames_are_those_of_docs_protocol_md() {
        let config = WumpusConfig { size: 4, ..WumpusConfig::aima() };
        let info =
            WumpusGameInfo { config, start: Coord::new(0, 0), arrows: 1, step_budget_us: 5_000_000, seed: 7 };
        let json = concat!(
            r#"{"type":"new_game","game":"wumpus","turn_budget_us":5000000,"seed":7,"#,
            r#""config":{"size":4,"wumpus":"one","wumpus_chance":0.0,"pit_chance":0.2,"obstacle_chance":0.0,"#,
            r#""arrows":"one","arrow_cost":10,"start_score":0,"goal":"climb_with_gold","#,
            r#""start_facing":"east","action_cap":1000},"#,
            r#""start":[0,0],"arrows":1}"#
        );
        assert_eq!(serde_json::to_string(&Request::NewGame(Wumpus::new_game_frame(&info))).unwrap(), json);
        let json = r#"{"type":"step","time_left_us":5000000,"state":{"percept":{"stench":false,"breeze":true,"glitter":false,"bump":false,"scream":false},"at":[0,0],"facing":"east","arrows":1,"has_gold":false,"actions":0,"score":0}}"#;
        let step: Request = serde_json::from_str(json).unwrap();
        let Some(Ok(request)) = Wumpus::request_of(&step) else { panic!() };
        let budget = std::time::Duration::from_secs(5);
        assert_eq!(serde_json::to_string(&Wumpus::act_frame(&request, budget)).unwrap(), json);
    }
}
