//! Intuitive AI's glue: its types, in-process calls, ABI box and wire form.

use std::time::Duration;

use player_api::{
    abi::{FfiIntuitivePlayer, IntuitivePlayerBox},
    intuitive::{Cell, IntuitiveGameInfo, IntuitiveGameOver, IntuitivePlayer, IntuitiveRequest},
    GameOver,
};

use crate::{
    agent::AbiGame,
    game::{Game, GameId, IntuitiveAi},
    isolation::{GameOverRequest, WireAnswer, WireGame},
    levels::Level,
    plugin::PlayerLibrary,
    protocol::{reveal_cell, Reply, Request, WireView},
    referee::LocalGame,
};

impl Game for IntuitiveAi {
    const ID: GameId = GameId::IntuitiveAi;
    type Info = IntuitiveGameInfo;
    type Request = IntuitiveRequest;
    /// The cell to reveal.
    type Action = Cell;
    type Over = IntuitiveGameOver;
}

impl LocalGame for IntuitiveAi {
    type Player<'a> = dyn IntuitivePlayer + 'a;

    fn local_new_game(player: &mut (dyn IntuitivePlayer + '_), info: &IntuitiveGameInfo) {
        player.new_game(info)
    }

    fn local_act(player: &mut (dyn IntuitivePlayer + '_), request: &IntuitiveRequest) -> Cell {
        player.reveal(request)
    }

    fn local_game_over(player: &mut (dyn IntuitivePlayer + '_), over: &IntuitiveGameOver) {
        player.game_over(over)
    }
}

impl AbiGame for IntuitiveAi {
    type PlayerBox = IntuitivePlayerBox;

    fn builtin(level: Level) -> IntuitivePlayerBox {
        level.new_intuitive_player()
    }

    fn from_library(library: &PlayerLibrary) -> Result<IntuitivePlayerBox, String> {
        library.new_intuitive_player()
    }

    fn box_new_game(player: &mut IntuitivePlayerBox, info: IntuitiveGameInfo) -> Result<(), String> {
        FfiIntuitivePlayer::new_game(player, info).into_result().map_err(String::from)
    }

    fn box_act(player: &mut IntuitivePlayerBox, request: IntuitiveRequest) -> Result<Cell, String> {
        FfiIntuitivePlayer::reveal(player, request).into_result().map_err(String::from)
    }

    fn box_game_over(player: &mut IntuitivePlayerBox, over: IntuitiveGameOver) -> Result<(), String> {
        FfiIntuitivePlayer::game_over(player, over).into_result().map_err(String::from)
    }
}

impl WireGame for IntuitiveAi {
    const ACT: &'static str = "turn";

    fn new_game_frame(info: &IntuitiveGameInfo) -> Request {
        Request::NewGame {
            game: IntuitiveAi::ID.name().into(),
            seat: None,
            size: Some(info.size),
            turn_budget_us: info.turn_budget_us,
            seed: info.seed,
            config: None,
            start: None,
            arrows: None,
        }
    }

    fn act_frame(request: &IntuitiveRequest, _budget: Duration) -> Request {
        Request::Reveal {
            turn: request.turn,
            time_left_us: request.time_left_us,
            state: WireView::from(&request.view),
        }
    }

    fn action(reply: Reply) -> WireAnswer<Cell> {
        match reply {
            Reply::Reveal { cell } => WireAnswer::read(reveal_cell(cell)),
            got => WireAnswer::Unexpected { expected: "a reveal", got },
        }
    }

    fn game_over_frame(over: IntuitiveGameOver) -> GameOverRequest {
        let told = GameOver { outcome: over.outcome, turns: over.turns, reason: over.reason };
        GameOverRequest { score: Some(over.score.into()), ..told.into() }
    }
}
