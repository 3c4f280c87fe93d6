//! Magic Forest's glue: its types, in-process calls, ABI box and wire form.

pub mod analysis;
pub mod person;
pub mod record;
pub mod referee;
pub mod replay;
pub mod wire;

use std::time::Duration;

use player_api::{
    abi::{forest_player_box, Constructor, FfiForestPlayerV2, ForestPlayerBox, PlayerModule},
    magic_forest::{ForestAction, ForestConfig, ForestGameInfo, ForestOver, ForestPlayer, ForestRequest},
    params::Setup,
    GameOver,
};

use self::{
    record::{ForestRecord, ForestSettings},
    wire::{WireForestConfig, WireForestState},
};
use crate::{
    game::{Game, GameId},
    game_rules::{Budgets, GameOption, GameOptions, GameSettings, OptionError, OptionKind},
    games::player_calls,
    play::clock::Spent,
    play::solo::{Budgeted, RunMeasure, SinglePlayerGame, SoloPlayed},
    players::agent::AbiGame,
    players::isolation::{WireAnswer, WireGame},
    players::levels::Level,
    players::protocol::{GameOverRequest, NewGameRequest, Payload, Reply, Request},
    replay::ReplayGame,
};

/// Magic Forest.
#[derive(Clone, Copy, Debug)]
pub enum MagicForest {}

impl Game for MagicForest {
    const ID: GameId = GameId::MagicForest;
    type Info = ForestGameInfo;
    type Request = ForestRequest;
    type Action = ForestAction;
    type Over = ForestOver;
}

impl ReplayGame for MagicForest {
    type Body = replay::ForestBody;
    const VIEWER: &'static str = include_str!("viewer.js");
    const TURNS: &'static str = "steps";
}

player_calls::local_game!(MagicForest, dyn ForestPlayer, act: step);

impl AbiGame for MagicForest {
    type PlayerBox = ForestPlayerBox;

    fn builtin(level: Level, _setup: &Setup) -> ForestPlayerBox {
        use reference_bots::magic_forest as bots;
        match level {
            Level::Easy | Level::Menace => forest_player_box(bots::Easy::default()),
            Level::Medium => forest_player_box(bots::Medium::default()),
            Level::Hard | Level::Expert => forest_player_box(bots::Hard::default()),
        }
    }

    fn constructor(module: PlayerModule) -> Option<Constructor<ForestPlayerBox>> {
        module.forest()
    }

    player_calls::box_calls!(FfiForestPlayerV2, act: step);
}

impl WireGame for MagicForest {
    const ACT: &'static str = "step";

    fn new_game_frame(info: &ForestGameInfo) -> NewGameRequest {
        NewGameRequest {
            game: MagicForest::ID.name().into(),
            turn_budget_us: info.step_budget_us,
            seed: info.seed,
            config: Some(Payload::of(&WireForestConfig::from(&info.config))),
            ..NewGameRequest::default()
        }
    }

    fn act_frame(request: &ForestRequest, budget: Duration) -> Request {
        let state = Payload::of(&WireForestState::from(request));
        Request::Step { time_left_us: budget.as_micros() as u64, state, bank: None }
    }

    fn action(reply: Reply) -> WireAnswer<ForestAction> {
        WireAnswer::step(reply, wire::action)
    }

    fn game_over_frame(over: ForestOver) -> GameOverRequest {
        let told = GameOver { outcome: over.outcome, turns: over.actions, reason: over.reason };
        GameOverRequest {
            score: Some(over.score),
            forests_cleared: Some(over.forests_cleared),
            deaths: Some(over.deaths),
            ..told.into()
        }
    }

    fn info_of(new_game: &NewGameRequest) -> Result<ForestGameInfo, String> {
        let Some(config) = &new_game.config else {
            return Err("a Magic Forest new_game needs its config".into());
        };
        let config = config.read::<WireForestConfig>().map_err(|why| format!("config: {why}"))?;
        let config = ForestConfig::from(&config);
        Ok(ForestGameInfo { config, step_budget_us: new_game.turn_budget_us, seed: new_game.seed })
    }

    fn request_of(frame: &Request) -> Option<Result<ForestRequest, String>> {
        let Request::Step { state, .. } = frame else { return None };
        let request = state.read::<WireForestState>().and_then(|s| s.to_request());
        Some(request.map_err(|why| format!("bad state: {why}")))
    }

    fn reply_of(action: ForestAction) -> Reply {
        wire::reply(action)
    }

    fn over_of(over: GameOverRequest) -> ForestOver {
        ForestOver {
            outcome: over.outcome.into(),
            score: over.score.unwrap_or(0),
            forests_cleared: over.forests_cleared.unwrap_or(0),
            deaths: over.deaths.unwrap_or(0),
            actions: over.turns,
            reason: over.reason.into(),
        }
    }
}

/// Its options, declared once: `largest_forest`.
impl GameSettings for MagicForest {
    type Settings = ForestSettings;
    const OPTIONS: &'static [GameOption] = &[GameOption {
        key: "largest_forest",
        kind: OptionKind::Number,
        help: "the size of the last, largest forest, 3 to 8; default 7",
    }];

    fn settings(options: &GameOptions, budgets: Budgets) -> Result<ForestSettings, OptionError> {
        let mut config = ForestConfig::default();
        config.largest = options.number("largest_forest")?.unwrap_or(config.largest);
        config.check().map_err(|e| OptionError { key: "largest_forest", message: e.to_string() })?;
        Ok(Budgeted { rules: config, budgets })
    }
}

impl SinglePlayerGame for MagicForest {
    type Rules = ForestConfig;
    type Record = ForestRecord;
    const FINGERPRINT_NAME: &'static str = "Forest";
    const PROGRESS: Option<RunMeasure> =
        Some(RunMeasure { counted: "forests cleared", column: "forests", key: "forests_cleared" });

    fn describe(config: &ForestConfig) -> String {
        format!("forests 3x3 to {0}x{0}", config.largest)
    }

    fn json(config: &ForestConfig) -> serde_json::Value {
        serde_json::json!({ "largest_forest": config.largest })
    }

    fn played(record: &ForestRecord) -> SoloPlayed<'_, impl ExactSizeIterator<Item = Spent> + '_> {
        SoloPlayed {
            seed: record.seed,
            outcome: record.outcome(),
            score: record.score.into(),
            steps: record.steps.iter().map(|step| step.time),
            ending: &record.ending,
            fault: record.ending.fault(),
            illegal: false,
            deaths: record.deaths,
            progress: Some(record.cleared),
        }
    }

    fn body(record: &ForestRecord, settings: &ForestSettings) -> replay::ForestBody {
        replay::ForestBody::of(record, settings)
    }
}
