//! Wumpus World's glue: its types, in-process calls, ABI box and wire form.

pub mod analysis;
pub mod person;
pub mod record;
pub mod referee;
pub mod replay;
pub mod wire;

use std::time::Duration;

use player_api::{
    abi::{wumpus_player_box, Constructor, FfiWumpusPlayerV2, PlayerModule, WumpusPlayerBox},
    params::Setup,
    wumpus::{StepEnd, WumpusAction, WumpusConfig, WumpusGameInfo, WumpusOver, WumpusPlayer, WumpusRequest},
    GameOver,
};

use self::{
    record::{WumpusRecord, WumpusSettings},
    wire::{WireWumpusConfig, WireWumpusState},
};
use crate::{
    game::{Game, GameId},
    game_rules::{Budgets, GameOption, GameOptions, GameSettings, OptionError, OptionKind},
    games::player_calls,
    play::clock::Spent,
    play::solo::{Budgeted, SinglePlayerGame, SoloPlayed},
    players::agent::AbiGame,
    players::isolation::{WireAnswer, WireGame},
    players::levels::Level,
    players::protocol::{coord, wire_coord, GameOverRequest, NewGameRequest, Payload, Reply, Request},
    replay::ReplayGame,
};

/// Wumpus World.
#[derive(Clone, Copy, Debug)]
pub enum Wumpus {}

impl Game for Wumpus {
    const ID: GameId = GameId::Wumpus;
    type Info = WumpusGameInfo;
    type Request = WumpusRequest;
    type Action = WumpusAction;
    type Over = WumpusOver;
}

impl ReplayGame for Wumpus {
    type Body = replay::WumpusBody;
    const VIEWER: &'static str = include_str!("viewer.js");
    const TURNS: &'static str = "steps";
}

player_calls::local_game!(Wumpus, dyn WumpusPlayer, act: step);

impl AbiGame for Wumpus {
    type PlayerBox = WumpusPlayerBox;

    fn builtin(level: Level, _setup: &Setup) -> WumpusPlayerBox {
        use reference_bots::wumpus as bots;
        match level {
            Level::Easy | Level::Menace => wumpus_player_box(bots::Easy::default()),
            Level::Medium => wumpus_player_box(bots::Medium::default()),
            Level::Hard | Level::Expert => wumpus_player_box(bots::Hard::default()),
        }
    }

    fn constructor(module: PlayerModule) -> Option<Constructor<WumpusPlayerBox>> {
        module.wumpus()
    }

    player_calls::box_calls!(FfiWumpusPlayerV2, act: step);
}

impl WireGame for Wumpus {
    const ACT: &'static str = "step";

    fn new_game_frame(info: &WumpusGameInfo) -> NewGameRequest {
        NewGameRequest {
            game: Wumpus::ID.name().into(),
            turn_budget_us: info.step_budget_us,
            seed: info.seed,
            config: Some(Payload::of(&WireWumpusConfig::from(&info.config))),
            start: Some(wire_coord(info.start)),
            arrows: Some(info.arrows),
            ..NewGameRequest::default()
        }
    }

    fn act_frame(request: &WumpusRequest, budget: Duration) -> Request {
        let state = Payload::of(&WireWumpusState::from(request));
        Request::Step { time_left_us: budget.as_micros() as u64, state, bank: None }
    }

    fn action(reply: Reply) -> WireAnswer<WumpusAction> {
        WireAnswer::step(reply, wire::action)
    }

    fn game_over_frame(over: WumpusOver) -> GameOverRequest {
        let told = GameOver { outcome: over.outcome, turns: over.actions, reason: over.reason };
        GameOverRequest { score: Some(over.score), ..told.into() }
    }

    fn info_of(new_game: &NewGameRequest) -> Result<WumpusGameInfo, String> {
        let (Some(config), Some(start), Some(arrows)) = (&new_game.config, new_game.start, new_game.arrows)
        else {
            return Err("a Wumpus World new_game needs config, start and arrows".into());
        };
        let config = config.read::<WireWumpusConfig>().and_then(|c| c.to_config());
        let config = config.map_err(|why| format!("config: {why}"))?;
        let start = coord(start)?;
        let (step_budget_us, seed) = (new_game.turn_budget_us, new_game.seed);
        Ok(WumpusGameInfo { config, start, arrows, step_budget_us, seed })
    }

    fn request_of(frame: &Request) -> Option<Result<WumpusRequest, String>> {
        let Request::Step { state, .. } = frame else { return None };
        let request = state.read::<WireWumpusState>().and_then(|s| s.to_request());
        Some(request.map_err(|why| format!("bad state: {why}")))
    }

    fn reply_of(action: WumpusAction) -> Reply {
        wire::reply(action)
    }

    fn over_of(over: GameOverRequest) -> WumpusOver {
        WumpusOver {
            outcome: over.outcome.into(),
            score: over.score.unwrap_or(0),
            actions: over.turns,
            reason: over.reason.into(),
        }
    }
}

/// Its options, declared once: `preset`.
impl GameSettings for Wumpus {
    type Settings = WumpusSettings;
    const OPTIONS: &'static [GameOption] = &[GameOption {
        key: "preset",
        kind: OptionKind::Word(&["aima", "project"]),
        help: "the rules preset; default aima",
    }];

    fn settings(options: &GameOptions, budgets: Budgets) -> Result<WumpusSettings, OptionError> {
        let name = options.word("preset").unwrap_or("aima");
        let config = WumpusConfig::preset(name).ok_or_else(|| OptionError {
            key: "preset",
            message: format!("unknown preset \"{name}\": use aima or project"),
        })?;
        Ok(Budgeted { rules: config, budgets })
    }
}

impl SinglePlayerGame for Wumpus {
    type Rules = WumpusConfig;
    type Record = WumpusRecord;
    const FINGERPRINT_NAME: &'static str = "Wumpus";

    fn describe(config: &WumpusConfig) -> String {
        match preset_name(config) {
            Some(name) => format!("{name} preset"),
            None => format!("{0}x{0} cave", config.size),
        }
    }

    fn json(config: &WumpusConfig) -> serde_json::Value {
        serde_json::json!({ "preset": preset_name(config), "size": config.size })
    }

    fn played(record: &WumpusRecord) -> SoloPlayed<'_, impl ExactSizeIterator<Item = Spent> + '_> {
        SoloPlayed {
            seed: record.seed,
            outcome: record.outcome(),
            score: record.score.into(),
            steps: record.steps.iter().map(|step| step.time),
            ending: &record.ending,
            fault: record.ending.fault(),
            illegal: matches!(record.ending, record::Ending::Rules(StepEnd::Invalid(..))),
            deaths: u32::from(record.died()),
            progress: None,
        }
    }

    fn body(record: &WumpusRecord, settings: &WumpusSettings) -> replay::WumpusBody {
        replay::WumpusBody::of(record, settings)
    }
}

/// The name of the preset whose rules `config` are, if any.
pub(crate) fn preset_name(config: &WumpusConfig) -> Option<&'static str> {
    ["aima", "project"].into_iter().find(|name| WumpusConfig::preset(name) == Some(*config))
}
