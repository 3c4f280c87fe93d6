//! Trap's part of a replay: the body (settings, start, every turn with the
//! state its request showed, the failed turn, the final state), how it is
//! re-simulated through the referee, and how it is drawn in a terminal.

use std::{fmt::Write as _, time::Duration};

use player_api::{
    trap::{Pos, TrapRequest, TrapState},
    Seat,
};
use serde::{Deserialize, Serialize};

use super::Trap;
use crate::replay::{
    fault::{Numbered, SeatScript},
    frames::Frames,
    grid,
    live::{self, LiveTurn},
    terminal::Paint,
    GameBody, Replay, ReplayBody,
};
use crate::{
    games::trap::{
        referee::{self as referee, FailedTurn, ThrowRecord, TrapRecord, TrapSettings, Turn, TurnActions},
        wire::{cell_pos, wire_cell, WireState},
    },
    play::clock::{Clock, Spent},
    play::time_control::TimeControl,
    players::protocol::{seat_from_number, WireCell},
    report::units::short,
};

/// The Trap part of a replay.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TrapBody {
    pub settings: SettingsRecord,
    /// The position before the first turn, and the seat (1 or 2) that moved first.
    pub start: WireState,
    pub first: u8,
    pub turns: Vec<TurnRecord>,
    /// The turn a player failed on, when the game ended that way.
    pub failed_turn: Option<FailedTurnRecord>,
    /// The position at the end.
    #[serde(rename = "final")]
    pub final_state: WireState,
}

/// The settings as `arena play --json` shows them, plus the start-up budget.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SettingsRecord {
    #[serde(flatten)]
    pub common: JsonSettings,
    pub startup_time_ms: f64,
    /// Each seat's time control, when they differ from `time_control` (or
    /// the budget per turn): a match that gave each player its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_time_controls: Option<[TimeControl; 2]>,
}

/// One turn.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct TurnRecord {
    /// 1 or 2.
    pub seat: u8,
    /// The state the player's request showed.
    pub state: WireState,
    pub from: WireCell,
    #[serde(rename = "move")]
    pub to: WireCell,
    /// None when the move trapped the opponent at once (no throw).
    pub throw: Option<ThrowJson>,
    /// Wall-clock time the player used, in microseconds.
    pub time_us: u64,
    /// CPU time the player used, in microseconds (older replays: 0).
    #[serde(default)]
    pub cpu_us: u64,
    /// Under a time bank: what was left in it after this turn, in microseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_left_us: Option<u64>,
}

/// A throw: the chance outcome, target against landing.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct ThrowJson {
    pub target: WireCell,
    /// The chance the trap lands on the target.
    pub hit_chance: f64,
    pub landed: WireCell,
}

/// The request a player failed on.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct FailedTurnRecord {
    pub seat: u8,
    pub state: WireState,
    /// What it answered, if it answered (the referee rejected it).
    pub reply: Option<ReplyJson>,
    pub time_us: u64,
    /// CPU time the player used, in microseconds (older replays: 0).
    #[serde(default)]
    pub cpu_us: u64,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct ReplyJson {
    #[serde(rename = "move")]
    pub step: WireCell,
    pub trap: Option<WireCell>,
}

/// A turn as a live feed carries it: its record, and the position after it.
pub fn live_turn(state: &TrapState, turn: &Turn) -> LiveTurn {
    LiveTurn::new(TurnRecord::of(turn), vec![("final", live::value(WireState::from(state)))])
}

impl TrapBody {
    pub fn of(game: &TrapRecord) -> TrapBody {
        TrapBody {
            settings: SettingsRecord {
                common: JsonSettings::from(&game.settings),
                startup_time_ms: game.settings.startup_budget.as_secs_f64() * 1e3,
                seat_time_controls: (game.controls != [game.settings.time; 2]).then_some(game.controls),
            },
            start: WireState::from(&game.start),
            first: game.first.number(),
            turns: game.turns.iter().map(TurnRecord::of).collect(),
            failed_turn: game.failed.as_ref().map(|f| FailedTurnRecord {
                seat: f.seat.number(),
                state: WireState::from(&f.shown),
                reply: f.reply.map(|r| ReplyJson { step: r.step, trap: r.trap }),
                time_us: f.time.wall.as_micros() as u64,
                cpu_us: f.time.cpu.as_micros() as u64,
            }),
            final_state: WireState::from(&final_state(game)),
        }
    }

    pub fn settings(&self) -> TrapSettings {
        let ms = |ms: f64| Duration::from_nanos((ms * 1e6).round() as u64);
        TrapSettings {
            size: self.settings.common.board_size,
            time: self.settings.common.time_control(),
            startup_budget: ms(self.settings.startup_time_ms),
            clock: self.settings.common.clock,
            turn_cap: self.settings.common.turn_cap,
            // Not recorded: a replayed answer comes at once, never late.
            grace: crate::play::clock::DEFAULT_GRACE,
        }
    }

    /// Each seat's time control.
    pub fn controls(&self) -> [TimeControl; 2] {
        self.settings.seat_time_controls.unwrap_or([self.settings().time; 2])
    }

    /// The turns as the referee records them (checked by `check`).
    pub fn referee_turns(&self) -> Vec<Turn> {
        self.turns.iter().map(|t| t.to_turn().expect("checked on reading")).collect()
    }
}

impl TurnRecord {
    fn of(turn: &Turn) -> TurnRecord {
        TurnRecord {
            seat: turn.seat.number(),
            state: WireState::from(&turn.shown),
            from: wire_cell(turn.from),
            to: wire_cell(turn.to),
            throw: turn.throw.map(|t| ThrowJson {
                target: wire_cell(t.target),
                hit_chance: t.hit_chance,
                landed: wire_cell(t.landed),
            }),
            time_us: turn.time.wall.as_micros() as u64,
            cpu_us: turn.time.cpu.as_micros() as u64,
            bank_left_us: turn.bank_left.map(|left| left.as_micros() as u64),
        }
    }

    fn to_turn(&self) -> Result<Turn, String> {
        let pos = |c: WireCell| cell_pos(c).ok_or(format!("cell {c:?} is off any board"));
        let throw = match self.throw {
            None => None,
            Some(t) => {
                Some(ThrowRecord { target: pos(t.target)?, hit_chance: t.hit_chance, landed: pos(t.landed)? })
            }
        };
        Ok(Turn {
            seat: seat_from_number(self.seat).ok_or(format!("seat = {}: 1 or 2", self.seat))?,
            shown: self.state.to_state()?,
            from: pos(self.from)?,
            to: pos(self.to)?,
            throw,
            time: Spent {
                wall: Duration::from_micros(self.time_us),
                cpu: Duration::from_micros(self.cpu_us),
                waited: Duration::ZERO,
            },
            bank_left: self.bank_left_us.map(Duration::from_micros),
        })
    }
}

/// The position after the game's last turn.
fn final_state(game: &TrapRecord) -> TrapState {
    match game.turns.last() {
        None => game.start,
        Some(turn) => after(turn),
    }
}

/// The position after `turn`: its move, then where its trap landed.
fn after(turn: &Turn) -> TrapState {
    let mut state = turn.shown;
    state.move_player(turn.seat, turn.to);
    if let Some(throw) = turn.throw {
        state.place_trap(throw.landed);
    }
    state
}

impl Numbered for TrapRequest {
    fn number(&self) -> usize {
        self.turn as usize
    }
}

/// Whether the game ended on a timeout (an answer, if any, came too late).
fn ended_late<E>(replay: &Replay<E>) -> bool {
    replay.result.fault.as_ref().is_some_and(|f| f.kind == "timeout")
}

/// The first difference between the replay and the re-simulated game.
fn compare<E>(replay: &Replay<E>, body: &TrapBody, game: &TrapRecord) -> Result<(), String> {
    let seed = replay.seed;
    let recorded = body.referee_turns();
    for (i, (want, got)) in recorded.iter().zip(&game.turns).enumerate() {
        let at = format!("turn {} ({})", i + 1, want.seat);
        let differ = |what: &str, want: String, got: String| {
            Err(format!("{at}: {what} is {want} in the replay but {got} when re-simulated with seed {seed}"))
        };
        if want.seat != got.seat {
            return differ("the player to move", want.seat.to_string(), got.seat.to_string());
        }
        if want.shown != got.shown {
            return differ("the state shown", describe(&want.shown), describe(&got.shown));
        }
        if (want.from, want.to) != (got.from, got.to) {
            return differ(
                "the move",
                format!("{} -> {}", want.from, want.to),
                format!("{} -> {}", got.from, got.to),
            );
        }
        match (want.throw, got.throw) {
            (Some(w), Some(g)) if w.target != g.target => {
                return differ("the throw's target", w.target.to_string(), g.target.to_string())
            }
            (Some(w), Some(g)) if w.hit_chance != g.hit_chance => {
                return differ("the hit chance", w.hit_chance.to_string(), g.hit_chance.to_string())
            }
            (Some(w), Some(g)) if w.landed != g.landed => {
                return differ("where the trap landed", w.landed.to_string(), g.landed.to_string())
            }
            (Some(_), Some(_)) | (None, None) => {}
            (w, g) => return differ("the throw", throw_text(w), throw_text(g)),
        }
    }
    if let Some(next) = recorded.get(game.turns.len()) {
        return Err(format!(
            "turn {} ({}): the re-simulated game (seed {seed}) ended before it: {}",
            game.turns.len() + 1,
            next.seat,
            game.ending
        ));
    }
    if recorded.len() != game.turns.len() {
        return Err(format!(
            "the replay has {} turns but the re-simulated game (seed {seed}) has {} ({})",
            recorded.len(),
            game.turns.len(),
            game.ending
        ));
    }
    // A late answer is kept as given, but time does not re-simulate: the
    // re-simulated turn fails as recorded, with no answer to compare.
    let late = ended_late(replay);
    let failed = body.failed_turn.as_ref().map(|f| {
        let reply = f.reply.filter(|_| !late).map(|r| TurnActions { step: r.step, trap: r.trap });
        (f.seat, f.state.to_state().ok(), reply)
    });
    let refailed = game.failed.as_ref().map(|f: &FailedTurn| (f.seat.number(), Some(f.shown), f.reply));
    if failed != refailed {
        return Err(format!(
            "the failed turn differs: {} in the replay, {} when re-simulated",
            failed_text(&failed),
            failed_text(&refailed)
        ));
    }
    let winner = game.winner().map(|s| s.index());
    let reason = game.ending.to_string();
    if (winner, &reason) != (replay.result.winner, &replay.result.reason) {
        return Err(format!(
            "the result is \"{}\" (winner {:?}) in the replay but \"{reason}\" (winner {winner:?}) when re-simulated",
            replay.result.reason, replay.result.winner
        ));
    }
    let end = final_state(game);
    if body.final_state.to_state().ok() != Some(end) {
        return Err(format!("the final state differs: re-simulated it is {}", describe(&end)));
    }
    Ok(())
}

fn describe(state: &TrapState) -> String {
    let traps: Vec<String> = state.traps().map(|p| p.to_string()).collect();
    format!(
        "[player 1 {}, player 2 {}, traps {}]",
        state.position(Seat::One),
        state.position(Seat::Two),
        if traps.is_empty() { "none".to_string() } else { traps.join(" ") }
    )
}

fn throw_text(throw: Option<ThrowRecord>) -> String {
    throw.map_or("no throw".to_string(), |t| format!("a throw at {}", t.target))
}

fn failed_text(failed: &Option<(u8, Option<TrapState>, Option<TurnActions>)>) -> String {
    match failed {
        None => "none".to_string(),
        Some((seat, _, reply)) => format!("player {seat}, answer {reply:?}"),
    }
}

/// The board, drawn with `1` and `2` for the players, `#` a trap, `.` a
/// free cell, `*` the trap that just landed, `x` the target it missed, `o`
/// where the mover came from.
pub(super) fn board(state: &TrapState, turn: Option<&Turn>, paint: Paint) -> String {
    grid::drawn_down(state.size(), 1, |r, c| {
        let pos = Pos::new(r, c);
        let landed = turn.and_then(|t| t.throw).filter(|t| t.landed == pos);
        let missed = turn.and_then(|t| t.throw).filter(|t| t.target == pos && t.landed != pos);
        if pos == state.position(Seat::One) {
            paint.on(PLAYER[0], "1")
        } else if pos == state.position(Seat::Two) {
            paint.on(PLAYER[1], "2")
        } else if landed.is_some() {
            paint.on(LANDED, "*")
        } else if missed.is_some() {
            paint.on(MISSED, "x")
        } else if state.has_trap(pos) {
            paint.on(TRAP, "#")
        } else if turn.is_some_and(|t| t.from == pos) {
            paint.on(FROM, "o")
        } else {
            paint.on(FREE, ".")
        }
    })
}

// ANSI styles of the board's glyphs.
const PLAYER: [&str; 2] = ["1;97;44", "1;97;41"];
const LANDED: &str = "1;30;43";
const MISSED: &str = "1;95";
const TRAP: &str = "90";
const FROM: &str = "2;36";
const FREE: &str = "2";

fn seat_paint(paint: Paint, seat: Seat, text: &str) -> String {
    paint.on(if seat == Seat::One { "1;94" } else { "1;91" }, text)
}

/// A game's settings as `--json` and replays show them.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct JsonSettings {
    pub board_size: u8,
    /// The budget of a turn; under a time bank, its first turn's.
    pub time_per_turn_ms: f64,
    /// The time control when it is a bank (`60s+1s`); absent for a budget
    /// per turn, which `time_per_turn_ms` says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    pub turn_cap: u32,
    /// The clock turns are charged on (older replays: wall).
    #[serde(default)]
    pub clock: Clock,
}

impl From<&TrapSettings> for JsonSettings {
    fn from(settings: &TrapSettings) -> JsonSettings {
        let (time_per_turn_ms, time_control) = settings.time.recorded();
        JsonSettings {
            board_size: settings.size,
            time_per_turn_ms,
            time_control,
            turn_cap: settings.turn_cap,
            clock: settings.clock,
        }
    }
}

impl JsonSettings {
    /// The time control these settings say.
    pub fn time_control(&self) -> TimeControl {
        TimeControl::from_record(self.time_per_turn_ms, self.time_control)
    }
}

/// `player 1 (easy) moves (0,3) -> (1,3), throws at (4,3) (p = 0.85): lands on (4,4)`
pub fn turn_line(turn: &Turn, name: &str) -> String {
    let mut text = format!("{} ({name}) moves {} -> {}", turn.seat, turn.from, turn.to);
    match turn.throw {
        Some(t) if t.landed == t.target => {
            let _ = write!(text, ", throws at {} (p = {:.2}): hit", t.target, t.hit_chance);
        }
        Some(t) => {
            let _ = write!(text, ", throws at {} (p = {:.2}): lands on {}", t.target, t.hit_chance, t.landed);
        }
        None => text.push_str(" and the opponent cannot move"),
    }
    text
}

impl GameBody for TrapBody {
    type Game = Trap;
    const STEPS_NOUN: &'static str = "turns";

    fn steps(&self) -> usize {
        self.turns.len()
    }

    /// What the type system cannot check: seats, cells and states are valid.
    fn check(&self) -> Result<(), String> {
        let size = self.settings.common.board_size;
        let state = |what: &str, s: &WireState| {
            s.to_state().map_err(|e| format!("{what}: {e}")).and_then(|state| {
                (state.size() == size)
                    .then_some(())
                    .ok_or(format!("{what}: a {}x{0} board in a {size}x{size} game", state.size()))
            })
        };
        state("start", &self.start)?;
        state("final", &self.final_state)?;
        seat_from_number(self.first).ok_or(format!("first = {}: a seat is 1 or 2", self.first))?;
        for (i, turn) in self.turns.iter().enumerate() {
            state(&format!("turns[{i}].state"), &turn.state)?;
            turn.to_turn().map_err(|e| format!("turns[{i}]: {e}"))?;
        }
        if let Some(failed) = &self.failed_turn {
            state("failed_turn.state", &failed.state)?;
            seat_from_number(failed.seat).ok_or(format!("failed_turn.seat = {}: 1 or 2", failed.seat))?;
        }
        Ok(())
    }

    /// Re-simulates the replay through the referee: the recorded seed and
    /// settings, the recorded answers; every request's state, every landing,
    /// the failure and the result must come out the same.
    fn verify<E: ReplayBody>(&self, replay: &Replay<E>) -> Result<String, String> {
        let body = self;
        let settings = body.settings();
        let start = body.start.to_state().map_err(|e| format!("start: {e}"))?;
        let first = seat_from_number(body.first).ok_or("first: 1 or 2")?;
        let moves: Vec<TurnActions> =
            body.turns.iter().map(|t| TurnActions { step: t.to, trap: t.throw.map(|t| t.target) }).collect();
        // A late answer fails as late, whatever it was; a rejected one is judged again.
        let late = ended_late(replay);
        let failed = body.failed_turn.as_ref().and_then(|f| {
            let answer = f.reply.filter(|_| !late).map(|r| TurnActions { step: r.step, trap: r.trap });
            Some((seat_from_number(f.seat)?, answer))
        });
        // A fault without a failed turn happened before the first turn.
        let at_start = (body.failed_turn.is_none() && body.turns.is_empty())
            .then(|| replay.result.fault.as_ref().map(|f| Seat::BOTH[f.player.min(1)]))
            .flatten();
        let [mut one, mut two] = SeatScript::<Trap>::seats(&replay.result, &moves, failed, at_start, "turn");
        let game = referee::play_from(
            &settings,
            body.controls(),
            replay.seed,
            start,
            first,
            [&mut one, &mut two],
            &mut |_, _| {},
        );
        compare(replay, body, &game)?;
        let throws = game.turns.iter().filter(|t| t.throw.is_some()).count();
        Ok(format!(
            "verified: {} turns and {throws} throws re-simulated with seed {}; every state, landing and the result match ({})",
            game.turns.len(),
            replay.seed,
            replay.summary()
        ))
    }

    /// The game for the terminal: the start, then one frame per turn (the
    /// board after it, the move, the throw aimed and landed, the time), the
    /// result under the last.
    fn frames<E: ReplayBody>(&self, replay: &Replay<E>, paint: Paint) -> Vec<String> {
        let body = self;
        let name = |seat: Seat| replay.players.get(seat.index()).map_or("?", |p| p.name.as_str());
        let start = body.start.to_state().expect("checked on reading");
        let start = format!(
            "{} (player 1) vs {} (player 2), seed {}\n{}",
            name(Seat::One),
            name(Seat::Two),
            replay.seed,
            board(&start, None, paint)
        );
        let mut frames = Frames::start(replay, paint, "turn", body.turns.len(), &start);
        // Each turn's board is the state the next request showed (the final
        // state after the last): what the replay recorded, not recomputed.
        let turns = body.referee_turns();
        let boards = turns.iter().skip(1).map(|t| t.shown).chain(body.final_state.to_state().ok());
        for (turn, state) in turns.iter().zip(boards) {
            let line = turn_line(turn, name(turn.seat));
            frames.step(
                &seat_paint(paint, turn.seat, &line),
                turn.time.wall,
                &board(&state, Some(turn), paint),
            );
        }
        if let Some(failed) = &body.failed_turn {
            let seat = seat_from_number(failed.seat).unwrap_or(Seat::One);
            let answer = failed.reply.map_or("no answer".to_string(), |r| match r.trap {
                Some(t) => format!("answered move {:?}, trap {t:?}", r.step),
                None => format!("answered move {:?}", r.step),
            });
            let line = format!(
                "{seat} ({}) failed: {answer}  [{}]",
                name(seat),
                short(Duration::from_micros(failed.time_us))
            );
            frames.under(&seat_paint(paint, seat, &line));
        }
        frames.end()
    }
}
