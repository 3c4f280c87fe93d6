//! Magic Forest on the wire (docs/protocol.md): its rules in `new_game`,
//! a step's state (what the wanderer perceives), and the actions by name
//! and direction, converted both ways.

use player_api::magic_forest::{ActionKind, ForestAction, ForestConfig, ForestRequest};
use serde::{Deserialize, Serialize};

use crate::players::protocol::{coord, wire_coord, Names, Reply, WireCoord, DIRS};

/// The rules of a run.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireForestConfig {
    pub largest: u8,
    pub monster_chance: f64,
    pub trap_chance: f64,
    pub actions_per_tile: u32,
}

impl From<&ForestConfig> for WireForestConfig {
    fn from(c: &ForestConfig) -> WireForestConfig {
        WireForestConfig {
            largest: c.largest,
            monster_chance: c.monster_chance,
            trap_chance: c.trap_chance,
            actions_per_tile: c.actions_per_tile,
        }
    }
}

impl From<&WireForestConfig> for ForestConfig {
    fn from(c: &WireForestConfig) -> ForestConfig {
        ForestConfig {
            largest: c.largest,
            monster_chance: c.monster_chance,
            trap_chance: c.trap_chance,
            actions_per_tile: c.actions_per_tile,
        }
    }
}

/// A step's state.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireForestState {
    pub at: WireCoord,
    pub size: u8,
    pub forest: u8,
    pub bones: bool,
    pub leaves: bool,
    pub died: bool,
    pub actions_left: u32,
    pub score: i32,
}

impl From<&ForestRequest> for WireForestState {
    fn from(r: &ForestRequest) -> WireForestState {
        WireForestState {
            at: wire_coord(r.at),
            size: r.size,
            forest: r.forest,
            bones: r.bones,
            leaves: r.leaves,
            died: r.died,
            actions_left: r.actions_left,
            score: r.score,
        }
    }
}

impl WireForestState {
    /// The step's request, if its square fits the grid.
    pub fn to_request(&self) -> Result<ForestRequest, String> {
        Ok(ForestRequest {
            at: coord(self.at)?,
            size: self.size,
            forest: self.forest,
            bones: self.bones,
            leaves: self.leaves,
            died: self.died,
            actions_left: self.actions_left,
            score: self.score,
        })
    }
}

/// The kinds of action by name (`"action":"move"`); each takes a `dir`.
const KINDS: Names<ActionKind> = Names(&[("move", ActionKind::Move), ("throw", ActionKind::Throw)]);

/// An action as a reply.
pub fn reply(action: ForestAction) -> Reply {
    Reply::Action { action: KINDS.name(action.kind).into(), dir: Some(DIRS.name(action.dir).into()) }
}

/// The action a reply names.
pub fn action(name: &str, dir: Option<&str>) -> Result<ForestAction, String> {
    let kind = KINDS.value("action", name)?;
    let Some(dir) = dir else { return Err(format!("action '{name}' needs a dir ({})", DIRS.list())) };
    Ok(ForestAction { kind, dir: DIRS.value("dir", dir)? })
}

#[cfg(test)]
mod tests {
    use player_api::{
        grid::Dir,
        magic_forest::{ForestGameInfo, ForestState},
    };
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::{
        games::magic_forest::MagicForest,
        players::isolation::WireGame,
        players::protocol::{through_a_frame, GameOverRequest, Payload, Request, WireOutcome},
    };

    #[test]
    fn configs_and_states_in_play_survive_the_wire() {
        let config = ForestConfig::default();
        let info = ForestGameInfo { config, step_budget_us: 1, seed: 2 };
        let Request::NewGame(read) = through_a_frame(&Request::NewGame(MagicForest::new_game_frame(&info)))
        else {
            panic!()
        };
        assert_eq!(MagicForest::info_of(&read), Ok(info));
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let mut state = ForestState::new(&config, ForestState::generate(&config, &mut rng));
        for _ in 0..200 {
            let request = state.request();
            let frame = MagicForest::act_frame(&request, std::time::Duration::ZERO);
            assert_eq!(MagicForest::request_of(&through_a_frame(&frame)), Some(Ok(request)));
            if state.apply(ForestAction::walk(Dir::ALL[rng.random_range(0..4)])).1.is_some() {
                break;
            }
        }
    }

    #[test]
    fn every_action_survives_the_wire_and_wrong_names_say_what_is_right() {
        for kind in [ActionKind::Move, ActionKind::Throw] {
            for dir in Dir::ALL {
                let each = ForestAction { kind, dir };
                let Reply::Action { action: name, dir } = reply(each) else { panic!() };
                assert_eq!(action(&name, dir.as_deref()), Ok(each));
            }
        }
        assert_eq!(action("fly", Some("north")), Err("unknown action 'fly' (one of move, throw)".into()));
        assert_eq!(action("move", None), Err("action 'move' needs a dir (north, east, south, west)".into()));
        assert_eq!(
            action("move", Some("up")),
            Err("unknown dir 'up' (one of north, east, south, west)".into())
        );
    }

    /// The frames docs/protocol.md shows; another game's state is refused.
    #[test]
    fn the_frames_are_those_of_docs_protocol_md() {
        let config =
            ForestConfig { largest: 7, monster_chance: 0.05, trap_chance: 0.05, actions_per_tile: 20 };
        let info = ForestGameInfo { config, step_budget_us: 5_000_000, seed: 7 };
        let json = concat!(
            r#"{"type":"new_game","game":"magic-forest","turn_budget_us":5000000,"seed":7,"#,
            r#""config":{"largest":7,"monster_chance":0.05,"trap_chance":0.05,"actions_per_tile":20}}"#
        );
        assert_eq!(
            serde_json::to_string(&Request::NewGame(MagicForest::new_game_frame(&info))).unwrap(),
            json
        );
        let json = r#"{"type":"step","time_left_us":5000000,"state":{"at":[0,0],"size":3,"forest":0,"bones":false,"leaves":true,"died":false,"actions_left":180,"score":0}}"#;
        let step: Request = serde_json::from_str(json).unwrap();
        let Some(Ok(request)) = MagicForest::request_of(&step) else { panic!() };
        let budget = std::time::Duration::from_secs(5);
        assert_eq!(serde_json::to_string(&MagicForest::act_frame(&request, budget)).unwrap(), json);
        let over = GameOverRequest {
            outcome: WireOutcome::Win,
            turns: 7,
            reason: "r".into(),
            score: Some(5),
            forests_cleared: Some(2),
            deaths: Some(1),
        };
        let told = MagicForest::over_of(over.clone());
        assert_eq!(MagicForest::game_over_frame(told), over);
        let percept = serde_json::json!({"stench": false, "breeze": true, "glitter": false, "bump": false, "scream": false});
        let wumpus = Request::Step {
            time_left_us: 1,
            state: Payload::of(&serde_json::json!({"percept": percept})),
            bank: None,
        };
        assert!(matches!(MagicForest::request_of(&wumpus), Some(Err(why)) if why.starts_with("bad state: ")));
    }
}
