//! Intuitive AI's glue: its types, in-process calls, ABI box and wire form.

pub mod analysis;
pub mod person;
pub mod record;
pub mod referee;
pub mod replay;
pub mod wire;

use std::time::Duration;

use player_api::{
    abi::{intuitive_player_box, Constructor, FfiIntuitivePlayerV2, IntuitivePlayerBox, PlayerModule},
    intuitive::{Cell, IntuitiveGameInfo, IntuitiveGameOver, IntuitivePlayer, IntuitiveRequest},
    params::Setup,
    GameOver,
};

use self::{
    record::{IntuitiveEnd, IntuitiveRecord, IntuitiveRules, IntuitiveSettings},
    wire::{reveal_cell, wire_cell, WireView},
};
use crate::{
    game::{Game, GameId},
    game_rules::{Budgets, GameOption, GameOptions, GameSettings, OptionError, OptionKind},
    games::player_calls,
    play::clock::Spent,
    play::solo::{Budgeted, Ending, SinglePlayerGame, SoloPlayed},
    players::agent::AbiGame,
    players::isolation::{WireAnswer, WireGame},
    players::levels::Level,
    players::protocol::{GameOverRequest, NewGameRequest, Payload, Reply, Request},
    replay::ReplayGame,
};

/// Intuitive AI: reveal cells of a hidden grid.
#[derive(Clone, Copy, Debug)]
pub enum IntuitiveAi {}

impl Game for IntuitiveAi {
    const ID: GameId = GameId::IntuitiveAi;
    type Info = IntuitiveGameInfo;
    type Request = IntuitiveRequest;
    /// The cell to reveal.
    type Action = Cell;
    type Over = IntuitiveGameOver;
}

impl ReplayGame for IntuitiveAi {
    type Body = replay::IntuitiveBody;
    const VIEWER: &'static str = include_str!("viewer.js");
    const TURNS: &'static str = "reveals";
}

player_calls::local_game!(IntuitiveAi, dyn IntuitivePlayer, act: reveal);

impl AbiGame for IntuitiveAi {
    type PlayerBox = IntuitivePlayerBox;

    fn builtin(level: Level, _setup: &Setup) -> IntuitivePlayerBox {
        use reference_bots::intuitive as bots;
        match level {
            Level::Easy | Level::Menace => intuitive_player_box(bots::Easy::default()),
            Level::Medium => intuitive_player_box(bots::Medium::default()),
            Level::Hard => intuitive_player_box(bots::Hard),
            Level::Expert => intuitive_player_box(bots::Expert::default()),
        }
    }

    fn constructor(module: PlayerModule) -> Option<Constructor<IntuitivePlayerBox>> {
        module.intuitive()
    }

    player_calls::box_calls!(FfiIntuitivePlayerV2, act: reveal);
}

impl WireGame for IntuitiveAi {
    const ACT: &'static str = "turn";

    fn new_game_frame(info: &IntuitiveGameInfo) -> NewGameRequest {
        NewGameRequest {
            game: IntuitiveAi::ID.name().into(),
            size: Some(info.size),
            turn_budget_us: info.turn_budget_us,
            seed: info.seed,
            ..NewGameRequest::default()
        }
    }

    fn act_frame(request: &IntuitiveRequest, _budget: Duration) -> Request {
        Request::Reveal {
            turn: request.turn,
            time_left_us: request.time_left_us,
            state: Payload::of(&WireView::from(&request.view)),
            bank: None,
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

    fn info_of(new_game: &NewGameRequest) -> Result<IntuitiveGameInfo, String> {
        let size = new_game.size()?;
        Ok(IntuitiveGameInfo { size, turn_budget_us: new_game.turn_budget_us, seed: new_game.seed })
    }

    fn request_of(frame: &Request) -> Option<Result<IntuitiveRequest, String>> {
        let Request::Reveal { turn, time_left_us, ref state, .. } = *frame else { return None };
        Some(
            state
                .read::<WireView>()
                .and_then(|view| view.to_view())
                .map(|view| IntuitiveRequest { view, turn, time_left_us })
                .map_err(|why| format!("bad state: {why}")),
        )
    }

    fn reply_of(cell: Cell) -> Reply {
        Reply::Reveal { cell: wire_cell(cell) }
    }

    fn over_of(over: GameOverRequest) -> IntuitiveGameOver {
        let score = over.score.unwrap_or(0);
        IntuitiveGameOver {
            outcome: over.outcome.into(),
            score: score.clamp(i8::MIN.into(), i8::MAX.into()) as i8,
            turns: over.turns,
            reason: over.reason.into(),
        }
    }
}

/// Its options, declared once: `board_size`.
impl GameSettings for IntuitiveAi {
    type Settings = IntuitiveSettings;
    const OPTIONS: &'static [GameOption] = &[GameOption {
        key: "board_size",
        kind: OptionKind::Number,
        help: "board size N (N x N), 3 to 8; default 4",
    }];

    fn settings(options: &GameOptions, budgets: Budgets) -> Result<IntuitiveSettings, OptionError> {
        use player_api::intuitive::{DEFAULT_SIZE, MAX_SIZE, MIN_SIZE};
        let size = options.number("board_size")?.unwrap_or(DEFAULT_SIZE);
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(OptionError {
                key: "board_size",
                message: format!("board size {size}: Intuitive AI boards are {MIN_SIZE} to {MAX_SIZE}"),
            });
        }
        Ok(Budgeted { rules: IntuitiveRules { size }, budgets })
    }
}

impl SinglePlayerGame for IntuitiveAi {
    type Rules = IntuitiveRules;
    type Record = IntuitiveRecord;
    const FINGERPRINT_NAME: &'static str = "Intuitive";

    fn describe(rules: &IntuitiveRules) -> String {
        format!("{0}x{0} board", rules.size)
    }

    fn json(rules: &IntuitiveRules) -> serde_json::Value {
        serde_json::json!({ "board_size": rules.size })
    }

    fn played(record: &IntuitiveRecord) -> SoloPlayed<'_, impl ExactSizeIterator<Item = Spent> + '_> {
        SoloPlayed {
            seed: record.seed,
            outcome: record.ending.outcome(),
            score: record.score.into(),
            steps: record.reveals.iter().map(|step| step.time),
            ending: &record.ending,
            fault: record.ending.fault(),
            illegal: matches!(record.ending, Ending::Rules(IntuitiveEnd::Illegal { .. })),
            deaths: u32::from(record.ending == Ending::Rules(IntuitiveEnd::Pit)),
            progress: None,
        }
    }

    fn body(record: &IntuitiveRecord, _: &IntuitiveSettings) -> replay::IntuitiveBody {
        replay::IntuitiveBody::of(record)
    }
}
