//! Wumpus World's glue: its types, in-process calls, ABI box and wire form.

use std::time::Duration;

use player_api::{
    abi::{FfiWumpusPlayer, WumpusPlayerBox},
    wumpus::{WumpusAction, WumpusGameInfo, WumpusOver, WumpusPlayer, WumpusRequest},
    GameOver,
};

use crate::{
    agent::AbiGame,
    game::{Game, GameId, Wumpus},
    isolation::{GameOverRequest, WireAnswer, WireGame},
    levels::Level,
    plugin::PlayerLibrary,
    protocol::{
        wire_start, wumpus_action, Reply, Request, WireConfig, WireStepState, WireWumpusConfig,
        WireWumpusState,
    },
    referee::LocalGame,
};

impl Game for Wumpus {
    const ID: GameId = GameId::Wumpus;
    type Info = WumpusGameInfo;
    type Request = WumpusRequest;
    type Action = WumpusAction;
    type Over = WumpusOver;
}

impl LocalGame for Wumpus {
    type Player<'a> = dyn WumpusPlayer + 'a;

    fn local_new_game(player: &mut (dyn WumpusPlayer + '_), info: &WumpusGameInfo) {
        player.new_game(info)
    }

    fn local_act(player: &mut (dyn WumpusPlayer + '_), request: &WumpusRequest) -> WumpusAction {
        player.step(request)
    }

    fn local_game_over(player: &mut (dyn WumpusPlayer + '_), over: &WumpusOver) {
        player.game_over(over)
    }
}

impl AbiGame for Wumpus {
    type PlayerBox = WumpusPlayerBox;

    fn builtin(level: Level) -> WumpusPlayerBox {
        level.new_wumpus_player()
    }

    fn from_library(library: &PlayerLibrary) -> Result<WumpusPlayerBox, String> {
        library.new_wumpus_player()
    }

    fn box_new_game(player: &mut WumpusPlayerBox, info: WumpusGameInfo) -> Result<(), String> {
        FfiWumpusPlayer::new_game(player, info).into_result().map_err(String::from)
    }

    fn box_act(player: &mut WumpusPlayerBox, request: WumpusRequest) -> Result<WumpusAction, String> {
        FfiWumpusPlayer::step(player, request).into_result().map_err(String::from)
    }

    fn box_game_over(player: &mut WumpusPlayerBox, over: WumpusOver) -> Result<(), String> {
        FfiWumpusPlayer::game_over(player, over).into_result().map_err(String::from)
    }
}

impl WireGame for Wumpus {
    const ACT: &'static str = "step";

    fn new_game_frame(info: &WumpusGameInfo) -> Request {
        Request::NewGame {
            game: Wumpus::ID.name().into(),
            seat: None,
            size: None,
            turn_budget_us: info.step_budget_us,
            seed: info.seed,
            config: Some(WireConfig::Wumpus(WireWumpusConfig::from(&info.config))),
            start: Some(wire_start(info.start)),
            arrows: Some(info.arrows),
        }
    }

    fn act_frame(request: &WumpusRequest, budget: Duration) -> Request {
        let state = WireStepState::Wumpus(WireWumpusState::from(request));
        Request::Step { time_left_us: budget.as_micros() as u64, state }
    }

    fn action(reply: Reply) -> WireAnswer<WumpusAction> {
        WireAnswer::step(reply, wumpus_action)
    }

    fn game_over_frame(over: WumpusOver) -> GameOverRequest {
        let told = GameOver { outcome: over.outcome, turns: over.actions, reason: over.reason };
        GameOverRequest { score: Some(over.score), ..told.into() }
    }
}
