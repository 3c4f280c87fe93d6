//! Trap's glue: its types, its ABI box, its wire form, and its turn order.
//!
//! The turn order a player sees (`play_turn`: the move, then the throw on
//! the moved position, with the time left) runs in the arena's process and
//! inside workers alike: one implementation. The Python host repeats it
//! (`players/python/src/arena_player/trap.py`), since it must decide
//! whether to ask for the throw; the referee still checks everything.

pub mod analysis;
pub mod engine_bench;
pub mod person;
pub mod referee;
pub mod replay;
pub mod report;
pub mod wire;

use std::time::{Duration, Instant};

use player_api::{
    abi::{trap_player_box, Constructor, FfiTrapPlayerV2, PlayerModule, TrapPlayerBox},
    params::{Param, Setup},
    trap::{TrapGameInfo, TrapRequest, TrapState, DEFAULT_SIZE, DEFAULT_TURN_CAP, MAX_SIZE, MIN_SIZE},
    GameOver, Seat,
};

use self::{
    referee::{Ending, TrapRecord, TrapSettings, Turn, TurnActions},
    wire::{wire_cell, WireState},
};
use crate::{
    game::{Agent, Game, GameId},
    game_rules::{Budgets, GameOption, GameOptions, GameSettings, OptionError, OptionKind},
    games::player_calls,
    measure::benchmarked::BenchmarkedGame,
    play::fault::Fault,
    play::time_control::TimeControl,
    play::two_player::{MatchGame, MatchResult, Played, SettingsPrint, TurnTime, TwoPlayerGame},
    players::agent::AbiGame,
    players::isolation::{WireAnswer, WireGame},
    players::levels::Level,
    players::protocol::{seat_from_number, GameOverRequest, NewGameRequest, Payload, Reply, Request},
    replay::{live::LiveTurn, ReplayGame},
    report::match_summary,
};

/// Trap: 7x7, move then throw a trap.
#[derive(Clone, Copy, Debug)]
pub enum Trap {}

impl Game for Trap {
    const ID: GameId = GameId::Trap;
    type Info = TrapGameInfo;
    type Request = TrapRequest;
    /// A whole turn: the move and the throw come back together, and the
    /// referee validates both.
    type Action = TurnActions;
    type Over = GameOver;
}

impl ReplayGame for Trap {
    type Body = replay::TrapBody;
    const VIEWER: &'static str = include_str!("viewer.js");
    const TURNS: &'static str = "turns";
}

impl AbiGame for Trap {
    type PlayerBox = TrapPlayerBox;

    fn builtin(level: Level, setup: &Setup) -> TrapPlayerBox {
        use reference_bots::trap as bots;
        match level {
            Level::Easy | Level::Menace => trap_player_box(bots::Easy::default()),
            Level::Medium => trap_player_box(bots::Medium),
            Level::Hard => trap_player_box(bots::Hard::from_setup(setup)),
            Level::Expert => trap_player_box(bots::Expert::from_setup(setup)),
        }
    }

    fn builtin_params(level: Level) -> Vec<Param> {
        use reference_bots::trap as bots;
        match level {
            Level::Hard => bots::Hard::params(),
            Level::Expert => bots::Expert::params(),
            Level::Easy | Level::Medium | Level::Menace => Vec::new(),
        }
    }

    fn constructor(module: PlayerModule) -> Option<Constructor<TrapPlayerBox>> {
        module.trap()
    }

    player_calls::box_calls!(FfiTrapPlayerV2);

    fn box_act(player: &mut TrapPlayerBox, request: TrapRequest) -> Result<TurnActions, String> {
        play_turn(player, request)
    }
}

impl WireGame for Trap {
    const ACT: &'static str = "turn";

    fn new_game_frame(info: &TrapGameInfo) -> NewGameRequest {
        NewGameRequest {
            game: Trap::ID.name().into(),
            seat: Some(info.seat.number()),
            size: Some(info.size),
            turn_budget_us: info.turn_budget_us,
            seed: info.seed,
            ..NewGameRequest::default()
        }
    }

    fn act_frame(request: &TrapRequest, _budget: Duration) -> Request {
        Request::Turn {
            seat: request.seat.number(),
            turn: request.turn,
            time_left_us: request.time_left_us,
            state: Payload::of(&WireState::from(&request.state)),
            bank: None,
        }
    }

    fn action(reply: Reply) -> WireAnswer<TurnActions> {
        match reply {
            Reply::Turn { step, trap } => WireAnswer::Action(TurnActions { step, trap }),
            got => WireAnswer::Unexpected { expected: "a turn", got },
        }
    }

    fn game_over_frame(over: GameOver) -> GameOverRequest {
        over.into()
    }

    fn info_of(new_game: &NewGameRequest) -> Result<TrapGameInfo, String> {
        let (seat, size) = (new_game.seat()?, new_game.size()?);
        Ok(TrapGameInfo { seat, size, turn_budget_us: new_game.turn_budget_us, seed: new_game.seed })
    }

    fn request_of(frame: &Request) -> Option<Result<TrapRequest, String>> {
        let Request::Turn { seat, turn, time_left_us, ref state, .. } = *frame else { return None };
        Some((|| {
            let seat = seat_from_number(seat).ok_or(format!("bad seat {seat}"))?;
            let state = state.read::<WireState>().and_then(|s| s.to_state());
            let state = state.map_err(|why| format!("bad state: {why}"))?;
            Ok(TrapRequest { state, seat, turn, time_left_us })
        })())
    }

    fn reply_of(actions: TurnActions) -> Reply {
        Reply::Turn { step: actions.step, trap: actions.trap }
    }

    fn over_of(over: GameOverRequest) -> GameOver {
        over.game_over()
    }
}

/// Asks `player` for a whole turn, as the rules order it: `get_move`, then
/// (unless the move is illegal or wins at once) `get_trap` on the position
/// after the move, told the wall-clock time left. It is asked even with no
/// time left: the referee judges lateness, on its clock (`--clock cpu`
/// charges CPU time, which the wall clock here cannot tell). Used in
/// the arena's process and inside workers alike. `Err` is a caught panic.
pub fn play_turn(player: &mut TrapPlayerBox, request: TrapRequest) -> Result<TurnActions, String> {
    let started = Instant::now();
    let step = player.get_move(request).into_result().map_err(String::from)?;
    let mut after = request.state;
    let only_move = TurnActions { step: wire_cell(step), trap: None };
    if after.check_move(request.seat, step).is_err() {
        return Ok(only_move);
    }
    after.move_player(request.seat, step);
    let left = request.time_left().saturating_sub(started.elapsed());
    if !after.can_move(request.seat.other()) {
        return Ok(only_move);
    }
    let trap_request = TrapRequest { state: after, time_left_us: left.as_micros() as u64, ..request };
    let target = player.get_trap(trap_request).into_result().map_err(String::from)?;
    Ok(TurnActions { trap: Some(wire_cell(target)), ..only_move })
}

/// Its options, declared once: `board_size`, `turn_cap`.
impl GameSettings for Trap {
    type Settings = TrapSettings;
    const OPTIONS: &'static [GameOption] = &[
        GameOption {
            key: "board_size",
            kind: OptionKind::Number,
            help: "board size N (N x N), 3 to 8; default 7",
        },
        GameOption {
            key: "turn_cap",
            kind: OptionKind::Number,
            help: "turns after which a game is a draw; default 400",
        },
    ];

    fn settings(options: &GameOptions, budgets: Budgets) -> Result<TrapSettings, OptionError> {
        let size = options.number("board_size")?.unwrap_or(DEFAULT_SIZE);
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(OptionError {
                key: "board_size",
                message: format!("board size {size}: Trap boards are {MIN_SIZE} to {MAX_SIZE}"),
            });
        }
        Ok(TrapSettings {
            size,
            time: budgets.turn,
            startup_budget: budgets.startup,
            turn_cap: options.number("turn_cap")?.unwrap_or(DEFAULT_TURN_CAP),
            clock: budgets.clock,
            grace: budgets.grace,
        })
    }
}

impl TwoPlayerGame for Trap {
    type Settings = TrapSettings;
    type Record = TrapRecord;
    type State = TrapState;
    type Turn = Turn;

    const LEARNS: bool = false;
    const WATCHES_TURNS: bool = true;
    const COURSE_GRADING: bool = true;

    fn turn_cap(settings: &TrapSettings) -> Option<u32> {
        Some(settings.turn_cap)
    }

    /// Unchanged since before other games existed: its journals still resume.
    fn settings_print(settings: &TrapSettings) -> SettingsPrint {
        SettingsPrint { head: (settings.size, settings.turn_cap), tail: String::new() }
    }

    fn startup_budget(settings: &TrapSettings) -> Duration {
        settings.startup_budget
    }

    fn time_control(settings: &TrapSettings) -> TimeControl {
        settings.time
    }

    fn play(
        settings: &TrapSettings,
        controls: [TimeControl; 2],
        seed: u64,
        agents: [&mut dyn Agent<Trap>; 2],
        watch: &mut dyn FnMut(&TrapState, &Turn),
    ) -> TrapRecord {
        referee::play_timed(settings, controls, seed, agents, watch)
    }

    fn played(record: &TrapRecord) -> Played<'_, impl ExactSizeIterator<Item = TurnTime> + '_> {
        Played {
            seed: record.seed,
            time: record.settings.time,
            controls: record.controls,
            turns: record.turns.iter().map(|t| TurnTime {
                seat: t.seat,
                time: t.time,
                bank_left: t.bank_left,
            }),
            ending: &record.ending,
            winner: record.winner(),
            fault: record.ending.fault(),
        }
    }

    /// Ended before it began: the turn cap stands in.
    fn start_record(settings: &TrapSettings, controls: [TimeControl; 2], seed: u64) -> TrapRecord {
        TrapRecord { controls, ..TrapRecord::unplayed(seed, *settings, Ending::TurnCap(0)) }
    }

    fn body(record: &TrapRecord) -> replay::TrapBody {
        replay::TrapBody::of(record)
    }

    fn live_turn(state: &TrapState, turn: &Turn) -> LiveTurn {
        replay::live_turn(state, turn)
    }

    /// A player that cannot start loses the game unplayed.
    fn unplayed(settings: &TrapSettings, seed: u64, loser: Seat, fault: &Fault) -> Option<TrapRecord> {
        Some(TrapRecord::unplayed(seed, *settings, Ending::Fault { loser, fault: fault.clone() }))
    }

    /// Its fault whole, an illegal move or throw's too.
    fn failure_text(record: &TrapRecord) -> Option<(Seat, String)> {
        record.ending.fault().map(|(seat, fault)| (seat, fault.to_string()))
    }

    fn line(game: &MatchGame<Trap>, total: u32, names: [&str; 2]) -> String {
        report::line(game, total, names)
    }

    fn summary(result: &MatchResult<Trap>) -> String {
        match_summary(result, "turn", "turns")
    }

    fn json(result: &MatchResult<Trap>, sources: [String; 2]) -> String {
        report::json(result, sources)
    }

    fn watch_turn(state: &TrapState, turn: &Turn, names: [&str; 2]) -> String {
        report::turn_view(state, turn, names[turn.seat.index()])
    }

    fn turn_line(turn: &Turn, names: [&str; 2]) -> String {
        replay::turn_line(turn, names[turn.seat.index()])
    }
}

impl BenchmarkedGame for Trap {
    const REQUEST: &'static str = "one turn: move + throw";

    fn engine_report(games: u64, search_times: &[Duration]) -> String {
        engine_bench::run(games, search_times)
    }

    /// The start of a 7x7 game, seat one to move, 5 s a turn.
    fn round_trip() -> (TrapGameInfo, TrapRequest) {
        let info = TrapGameInfo { seat: Seat::One, size: 7, turn_budget_us: 5_000_000, seed: 1 };
        let request =
            TrapRequest { state: TrapState::new(7), seat: Seat::One, turn: 0, time_left_us: 5_000_000 };
        (info, request)
    }
}

impl MatchGame<Trap> {
    /// The player that failed, and how, if the game ended on a fault.
    pub fn fault(&self) -> Option<(usize, &Fault)> {
        self.record.ending.fault().map(|(seat, fault)| (self.seats[seat.index()], fault))
    }
}
