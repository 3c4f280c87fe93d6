//! Magic Forest's glue: its types, in-process calls, ABI box and wire form.

use std::time::Duration;

use player_api::{
    abi::{FfiForestPlayer, ForestPlayerBox},
    magic_forest::{ForestAction, ForestGameInfo, ForestOver, ForestPlayer, ForestRequest},
    GameOver,
};

use crate::{
    agent::AbiGame,
    game::{Game, GameId, MagicForest},
    isolation::{GameOverRequest, WireAnswer, WireGame},
    levels::Level,
    plugin::PlayerLibrary,
    protocol::{forest_action, Reply, Request, WireConfig, WireForestConfig, WireForestState, WireStepState},
    referee::LocalGame,
};

impl Game for MagicForest {
    const ID: GameId = GameId::MagicForest;
    type Info = ForestGameInfo;
    type Request = ForestRequest;
    type Action = ForestAction;
    type Over = ForestOver;
}

impl LocalGame for MagicForest {
    type Player<'a> = dyn ForestPlayer + 'a;

    fn local_new_game(player: &mut (dyn ForestPlayer + '_), info: &ForestGameInfo) {
        player.new_game(info)
    }

    fn local_act(player: &mut (dyn ForestPlayer + '_), request: &ForestRequest) -> ForestAction {
        player.step(request)
    }

    fn local_game_over(player: &mut (dyn ForestPlayer + '_), over: &ForestOver) {
        player.game_over(over)
    }
}

impl AbiGame for MagicForest {
    type PlayerBox = ForestPlayerBox;

    fn builtin(level: Level) -> ForestPlayerBox {
        level.new_forest_player()
    }

    fn from_library(library: &PlayerLibrary) -> Result<ForestPlayerBox, String> {
        library.new_forest_player()
    }

    fn box_new_game(player: &mut ForestPlayerBox, info: ForestGameInfo) -> Result<(), String> {
        FfiForestPlayer::new_game(player, info).into_result().map_err(String::from)
    }

    fn box_act(player: &mut ForestPlayerBox, request: ForestRequest) -> Result<ForestAction, String> {
        FfiForestPlayer::step(player, request).into_result().map_err(String::from)
    }

    fn box_game_over(player: &mut ForestPlayerBox, over: ForestOver) -> Result<(), String> {
        FfiForestPlayer::game_over(player, over).into_result().map_err(String::from)
    }
}

impl WireGame for MagicForest {
    const ACT: &'static str = "step";

    fn new_game_frame(info: &ForestGameInfo) -> Request {
        Request::NewGame {
            game: MagicForest::ID.name().into(),
            seat: None,
            size: None,
            turn_budget_us: info.step_budget_us,
            seed: info.seed,
            config: Some(WireConfig::Forest(WireForestConfig::from(&info.config))),
            start: None,
            arrows: None,
        }
    }

    fn act_frame(request: &ForestRequest, budget: Duration) -> Request {
        let state = WireStepState::Forest(WireForestState::from(request));
        Request::Step { time_left_us: budget.as_micros() as u64, state }
    }

    fn action(reply: Reply) -> WireAnswer<ForestAction> {
        WireAnswer::step(reply, forest_action)
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
}
