//! Hexapawn's glue: its types, in-process calls, ABI box and wire form.

use std::time::Duration;

use player_api::{
    abi::{FfiHexapawnPlayer, HexapawnPlayerBox},
    hexapawn::{HexapawnAction, HexapawnGameInfo, HexapawnPlayer, HexapawnRequest},
    GameOver,
};

use crate::{
    agent::AbiGame,
    game::{Game, GameId, Hexapawn},
    isolation::{GameOverRequest, WireAnswer, WireGame},
    levels::Level,
    plugin::PlayerLibrary,
    protocol::{hexapawn_move, Reply, Request, WireBoard},
    referee::LocalGame,
};

impl Game for Hexapawn {
    const ID: GameId = GameId::Hexapawn;
    type Info = HexapawnGameInfo;
    type Request = HexapawnRequest;
    /// A move, or resigning.
    type Action = HexapawnAction;
    type Over = GameOver;
}

impl LocalGame for Hexapawn {
    type Player<'a> = dyn HexapawnPlayer + 'a;

    fn local_new_game(player: &mut (dyn HexapawnPlayer + '_), info: &HexapawnGameInfo) {
        player.new_game(info)
    }

    fn local_act(player: &mut (dyn HexapawnPlayer + '_), request: &HexapawnRequest) -> HexapawnAction {
        player.get_move(request)
    }

    fn local_game_over(player: &mut (dyn HexapawnPlayer + '_), over: &GameOver) {
        player.game_over(over)
    }
}

impl AbiGame for Hexapawn {
    type PlayerBox = HexapawnPlayerBox;

    fn builtin(level: Level) -> HexapawnPlayerBox {
        level.new_hexapawn_player()
    }

    fn from_library(library: &PlayerLibrary) -> Result<HexapawnPlayerBox, String> {
        library.new_hexapawn_player()
    }

    fn box_new_game(player: &mut HexapawnPlayerBox, info: HexapawnGameInfo) -> Result<(), String> {
        FfiHexapawnPlayer::new_game(player, info).into_result().map_err(String::from)
    }

    fn box_act(player: &mut HexapawnPlayerBox, request: HexapawnRequest) -> Result<HexapawnAction, String> {
        FfiHexapawnPlayer::get_move(player, request).into_result().map_err(String::from)
    }

    fn box_game_over(player: &mut HexapawnPlayerBox, over: GameOver) -> Result<(), String> {
        FfiHexapawnPlayer::game_over(player, over).into_result().map_err(String::from)
    }
}

impl WireGame for Hexapawn {
    const ACT: &'static str = "turn";

    fn new_game_frame(info: &HexapawnGameInfo) -> Request {
        Request::NewGame {
            game: Hexapawn::ID.name().into(),
            seat: Some(info.seat.number()),
            size: None,
            turn_budget_us: info.turn_budget_us,
            seed: info.seed,
            config: None,
            start: None,
            arrows: None,
        }
    }

    fn act_frame(request: &HexapawnRequest, _budget: Duration) -> Request {
        Request::GetMove {
            seat: request.seat.number(),
            ply: request.ply,
            time_left_us: request.time_left_us,
            state: WireBoard::from(&request.board),
        }
    }

    fn action(reply: Reply) -> WireAnswer<HexapawnAction> {
        match reply {
            Reply::Move { from, to } => WireAnswer::read(hexapawn_move(from, to).map(HexapawnAction::Move)),
            Reply::Resign => WireAnswer::Action(HexapawnAction::Resign),
            got => WireAnswer::Unexpected { expected: "a move", got },
        }
    }

    fn game_over_frame(over: GameOver) -> GameOverRequest {
        over.into()
    }
}
