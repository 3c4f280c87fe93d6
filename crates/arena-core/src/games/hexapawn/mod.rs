//! Hexapawn's glue: its types, in-process calls, ABI box and wire form.

pub mod analysis;
pub mod person;
pub mod referee;
pub mod replay;
pub mod report;
pub mod wire;

use std::time::Duration;

use player_api::{
    abi::{hexapawn_player_box, Constructor, FfiHexapawnPlayerV2, HexapawnPlayerBox, PlayerModule},
    hexapawn::{HexWin, HexapawnAction, HexapawnBoard, HexapawnGameInfo, HexapawnPlayer, HexapawnRequest},
    params::Setup,
    GameOver, Seat,
};

use self::{
    referee::{HexapawnEnding, HexapawnRecord, HexapawnSettings, Ply},
    wire::WireBoard,
};
use crate::{
    game::{Agent, Game, GameId},
    game_rules::{Budgets, GameOption, GameOptions, GameSettings, OptionError},
    games::player_calls,
    play::fault::FaultKind,
    play::time_control::TimeControl,
    play::two_player::{MatchGame, MatchResult, Played, SettingsPrint, TurnTime, TwoPlayerGame},
    players::agent::AbiGame,
    players::isolation::{WireAnswer, WireGame},
    players::levels::Level,
    players::protocol::{seat_from_number, GameOverRequest, NewGameRequest, Payload, Reply, Request},
    replay::{live::LiveTurn, ReplayGame},
    report::match_summary,
};

/// Hexapawn: 3x3 pawns.
#[derive(Clone, Copy, Debug)]
pub enum Hexapawn {}

impl Game for Hexapawn {
    const ID: GameId = GameId::Hexapawn;
    type Info = HexapawnGameInfo;
    type Request = HexapawnRequest;
    /// A move, or resigning.
    type Action = HexapawnAction;
    type Over = GameOver;
}

impl ReplayGame for Hexapawn {
    type Body = replay::HexapawnBody;
    const VIEWER: &'static str = include_str!("viewer.js");
    const TURNS: &'static str = "plies";
}

player_calls::local_game!(Hexapawn, dyn HexapawnPlayer, act: get_move);

impl AbiGame for Hexapawn {
    type PlayerBox = HexapawnPlayerBox;

    fn builtin(level: Level, setup: &Setup) -> HexapawnPlayerBox {
        use reference_bots::hexapawn as bots;
        match level {
            Level::Easy => hexapawn_player_box(bots::Easy::default()),
            Level::Medium => hexapawn_player_box(bots::Medium::default()),
            Level::Hard | Level::Expert => hexapawn_player_box(bots::Hard::default()),
            Level::Menace => hexapawn_player_box(bots::Menace::from_setup(setup)),
        }
    }

    fn builtin_plays(_level: Level) -> bool {
        true
    }

    fn constructor(module: PlayerModule) -> Option<Constructor<HexapawnPlayerBox>> {
        module.hexapawn()
    }

    player_calls::box_calls!(FfiHexapawnPlayerV2, act: get_move);
}

impl WireGame for Hexapawn {
    const ACT: &'static str = "turn";

    fn new_game_frame(info: &HexapawnGameInfo) -> NewGameRequest {
        NewGameRequest {
            game: Hexapawn::ID.name().into(),
            seat: Some(info.seat.number()),
            turn_budget_us: info.turn_budget_us,
            seed: info.seed,
            ..NewGameRequest::default()
        }
    }

    fn act_frame(request: &HexapawnRequest, _budget: Duration) -> Request {
        Request::GetMove {
            seat: request.seat.number(),
            ply: request.ply,
            time_left_us: request.time_left_us,
            state: Payload::of(&WireBoard::from(&request.board)),
            bank: None,
        }
    }

    fn action(reply: Reply) -> WireAnswer<HexapawnAction> {
        match reply {
            Reply::Move { from, to } => WireAnswer::read(wire::hex_move(from, to).map(HexapawnAction::Move)),
            Reply::Resign => WireAnswer::Action(HexapawnAction::Resign),
            got => WireAnswer::Unexpected { expected: "a move", got },
        }
    }

    fn game_over_frame(over: GameOver) -> GameOverRequest {
        over.into()
    }

    fn info_of(new_game: &NewGameRequest) -> Result<HexapawnGameInfo, String> {
        let seat = new_game.seat()?;
        Ok(HexapawnGameInfo { seat, turn_budget_us: new_game.turn_budget_us, seed: new_game.seed })
    }

    fn request_of(frame: &Request) -> Option<Result<HexapawnRequest, String>> {
        let Request::GetMove { seat, ply, time_left_us, ref state, .. } = *frame else { return None };
        Some((|| {
            let seat = seat_from_number(seat).ok_or(format!("bad seat {seat}"))?;
            let board = state.read::<WireBoard>().and_then(|b| b.to_board());
            let board = board.map_err(|why| format!("bad state: {why}"))?;
            Ok(HexapawnRequest { board, seat, ply, time_left_us })
        })())
    }

    fn reply_of(action: HexapawnAction) -> Reply {
        wire::reply(action)
    }

    fn over_of(over: GameOverRequest) -> GameOver {
        over.game_over()
    }
}

/// It has no rules options: only the budgets.
impl GameSettings for Hexapawn {
    type Settings = HexapawnSettings;
    const OPTIONS: &'static [GameOption] = &[];

    fn settings(_: &GameOptions, budgets: Budgets) -> Result<HexapawnSettings, OptionError> {
        Ok(HexapawnSettings {
            time: budgets.turn,
            startup_budget: budgets.startup,
            clock: budgets.clock,
            grace: budgets.grace,
        })
    }
}

impl TwoPlayerGame for Hexapawn {
    type Settings = HexapawnSettings;
    type Record = HexapawnRecord;
    type State = HexapawnBoard;
    /// The board the ply's request showed, and the ply.
    type Turn = (HexapawnBoard, Ply);

    const LEARNS: bool = true;
    const WATCHES_TURNS: bool = false;
    const COURSE_GRADING: bool = false;

    fn turn_cap(_: &HexapawnSettings) -> Option<u32> {
        None
    }

    fn settings_print(settings: &HexapawnSettings) -> SettingsPrint {
        SettingsPrint { tail: format!("hexapawn|{settings:?}|"), ..SettingsPrint::default() }
    }

    fn startup_budget(settings: &HexapawnSettings) -> Duration {
        settings.startup_budget
    }

    fn time_control(settings: &HexapawnSettings) -> TimeControl {
        settings.time
    }

    fn play(
        settings: &HexapawnSettings,
        controls: [TimeControl; 2],
        seed: u64,
        agents: [&mut dyn Agent<Hexapawn>; 2],
        watch: &mut dyn FnMut(&HexapawnBoard, &(HexapawnBoard, Ply)),
    ) -> HexapawnRecord {
        referee::play_watched(settings, controls, seed, agents, watch)
    }

    /// Hexapawn has no draws.
    fn played(record: &HexapawnRecord) -> Played<'_, impl ExactSizeIterator<Item = TurnTime> + '_> {
        Played {
            seed: record.seed,
            time: record.settings.time,
            controls: record.controls,
            turns: record.plies.iter().map(|p| TurnTime {
                seat: p.seat,
                time: p.time,
                bank_left: p.bank_left,
            }),
            ending: &record.ending,
            winner: Some(record.winner()),
            fault: match &record.ending {
                HexapawnEnding::Fault { loser, fault } => Some((*loser, fault)),
                _ => None,
            },
        }
    }

    /// Ended before it began: a win stands in, as no request failed.
    fn start_record(settings: &HexapawnSettings, controls: [TimeControl; 2], seed: u64) -> HexapawnRecord {
        let (start, ending) =
            (HexapawnBoard::start(), HexapawnEnding::Won { winner: Seat::One, how: HexWin::FarRow });
        HexapawnRecord { seed, settings: *settings, controls, start, plies: Vec::new(), ending }
    }

    fn body(record: &HexapawnRecord) -> replay::HexapawnBody {
        replay::HexapawnBody::of(record)
    }

    fn live_turn(board: &HexapawnBoard, turn: &(HexapawnBoard, Ply)) -> LiveTurn {
        replay::live_turn(board, turn)
    }

    /// An illegal move counts as a failure, though no instance broke.
    fn failure(record: &HexapawnRecord) -> Option<(Seat, &'static str)> {
        match &record.ending {
            HexapawnEnding::Illegal { loser, .. } => Some((*loser, FaultKind::Illegal.name())),
            HexapawnEnding::Fault { loser, fault } => Some((*loser, fault.kind().name())),
            HexapawnEnding::Won { .. } | HexapawnEnding::Resigned { .. } => None,
        }
    }

    fn line(game: &MatchGame<Hexapawn>, total: u32, names: [&str; 2]) -> String {
        report::line(game, total, names)
    }

    fn summary(result: &MatchResult<Hexapawn>) -> String {
        match_summary(result, "move", "plies")
    }

    fn json(result: &MatchResult<Hexapawn>, sources: [String; 2]) -> String {
        report::json(result, sources)
    }

    /// `White (human) moves (2,1)->(1,1)`
    fn turn_line((_, ply): &(HexapawnBoard, Ply), names: [&str; 2]) -> String {
        let side = if ply.seat == Seat::One { "White" } else { "Black" };
        format!("{side} ({}) moves {}", names[ply.seat.index()], ply.mv)
    }
}
