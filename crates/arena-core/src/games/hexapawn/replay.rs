//! Hexapawn's part of a replay: the settings, every move with the board its
//! request showed, the request the game ended on, the final board; its
//! re-simulation through the referee; its terminal frames.

use std::time::Duration;

use player_api::{
    hexapawn::{HexMove, HexapawnAction, HexapawnBoard, HexapawnRequest, Square, SIZE},
    Seat,
};
use serde::{Deserialize, Serialize};

use super::Hexapawn;
use crate::replay::{
    diff,
    fault::{Numbered, SeatScript},
    frames::Frames,
    grid,
    live::{self, LiveTurn},
    terminal::Paint,
    GameBody, Replay, ReplayBody,
};
use crate::{
    games::hexapawn::referee::{self as referee, HexapawnEnding, HexapawnRecord, HexapawnSettings, Ply},
    play::clock::Clock,
    play::time_control::TimeControl,
    play::two_player::TwoPlayerGame,
    players::protocol::seat_from_number,
};

/// A square as `[row, col]`, row 0 at the top (Black's home row).
pub type SquareJson = [u8; 2];

/// The Hexapawn part of a replay.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct HexapawnBody {
    pub settings: HexapawnSettingsRecord,
    pub start: BoardRecord,
    pub plies: Vec<PlyRecord>,
    /// The request the game ended on without a move played (a resignation,
    /// an illegal move, a failure); None when a move won on the board.
    pub failed: Option<FailedPly>,
    #[serde(rename = "final")]
    pub final_board: BoardRecord,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct HexapawnSettingsRecord {
    /// The budget of a move; under a time bank, its first move's.
    pub time_per_move_ms: f64,
    pub startup_time_ms: f64,
    /// The clock budgets were charged on (older replays: wall).
    #[serde(default)]
    pub clock: Clock,
    /// The time control when it is a bank (`60s+1s`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    /// Each seat's time control, when the match gave each player its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_time_controls: Option<[TimeControl; 2]>,
}

/// A position: three rows, top first (`W` White, `B` Black, `.` empty), and
/// the seat to move (1 White, 2 Black).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct BoardRecord {
    pub rows: Vec<String>,
    pub to_move: u8,
}

/// One move.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct PlyRecord {
    pub seat: u8,
    /// The board the request showed.
    pub board: BoardRecord,
    /// `[from, to]`.
    #[serde(rename = "move")]
    pub mv: [SquareJson; 2],
    pub time_us: u64,
    /// CPU time the player used, in microseconds (older replays: 0).
    #[serde(default)]
    pub cpu_us: u64,
    /// Under a time bank: what was left in it after this move, in microseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_left_us: Option<u64>,
}

/// The request a game ended on.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct FailedPly {
    pub seat: u8,
    pub board: BoardRecord,
    pub resigned: bool,
    /// The move answered, when the referee rejected it as illegal.
    #[serde(rename = "move")]
    pub mv: Option<[SquareJson; 2]>,
}

/// A ply as a live feed carries it: its record, and the board after it.
pub fn live_turn(board: &HexapawnBoard, (shown, ply): &(HexapawnBoard, Ply)) -> LiveTurn {
    LiveTurn::new(PlyRecord::of(ply, shown), vec![("final", live::value(board_record(board)))])
}

impl PlyRecord {
    /// `ply`, played on `board` (what its request showed).
    fn of(ply: &Ply, board: &HexapawnBoard) -> PlyRecord {
        PlyRecord {
            seat: ply.seat.number(),
            board: board_record(board),
            mv: move_json(ply.mv),
            time_us: ply.time.wall.as_micros() as u64,
            cpu_us: ply.time.cpu.as_micros() as u64,
            bank_left_us: ply.bank_left.map(|left| left.as_micros() as u64),
        }
    }
}

impl HexapawnBody {
    pub fn of(record: &HexapawnRecord) -> HexapawnBody {
        let boards = record.boards();
        let failed = match record.ending {
            HexapawnEnding::Won { .. } => None,
            HexapawnEnding::Resigned { loser } => Some((loser, true, None)),
            HexapawnEnding::Illegal { loser, mv, .. } => Some((loser, false, Some(move_json(mv)))),
            HexapawnEnding::Fault { loser, .. } => Some((loser, false, None)),
        };
        let final_board = record.plies.iter().fold(record.start, |board, ply| board.play(ply.mv));
        let (time_per_move_ms, time_control) = record.settings.time.recorded();
        HexapawnBody {
            settings: HexapawnSettingsRecord {
                time_per_move_ms,
                startup_time_ms: record.settings.startup_budget.as_secs_f64() * 1e3,
                clock: record.settings.clock,
                time_control,
                seat_time_controls: (record.controls != [record.settings.time; 2]).then_some(record.controls),
            },
            start: board_record(&record.start),
            plies: (record.plies.iter().zip(&boards)).map(|(ply, board)| PlyRecord::of(ply, board)).collect(),
            failed: failed.map(|(seat, resigned, mv)| FailedPly {
                seat: seat.number(),
                board: board_record(boards.last().unwrap_or(&record.start)),
                resigned,
                mv,
            }),
            final_board: board_record(&final_board),
        }
    }

    /// Each seat's time control.
    pub fn controls(&self) -> [TimeControl; 2] {
        self.settings.seat_time_controls.unwrap_or([self.settings().time; 2])
    }

    pub fn settings(&self) -> HexapawnSettings {
        let ms = |ms: f64| Duration::from_nanos((ms * 1e6).round() as u64);
        HexapawnSettings {
            time: TimeControl::from_record(self.settings.time_per_move_ms, self.settings.time_control),
            startup_budget: ms(self.settings.startup_time_ms),
            clock: self.settings.clock,
            // Not recorded: a replayed answer comes at once, never late.
            grace: crate::play::clock::DEFAULT_GRACE,
        }
    }
}

fn square_json(square: Square) -> SquareJson {
    [square.row, square.col]
}

fn move_json(mv: HexMove) -> [SquareJson; 2] {
    [square_json(mv.from), square_json(mv.to)]
}

pub(crate) fn move_from(mv: [SquareJson; 2]) -> HexMove {
    HexMove::new(Square::new(mv[0][0], mv[0][1]), Square::new(mv[1][0], mv[1][1]))
}

pub(super) fn board_record(board: &HexapawnBoard) -> BoardRecord {
    let rows = (0..SIZE)
        .map(|r| {
            (0..SIZE)
                .map(|c| match board.at(Square::new(r, c)) {
                    Some(Seat::One) => 'W',
                    Some(Seat::Two) => 'B',
                    None => '.',
                })
                .collect()
        })
        .collect();
    BoardRecord { rows, to_move: board.to_move().number() }
}

pub(crate) fn board_from(record: &BoardRecord) -> Result<HexapawnBoard, String> {
    let to_move = seat_from_number(record.to_move).ok_or(format!("to_move = {}: 1 or 2", record.to_move))?;
    if record.rows.len() != SIZE as usize || record.rows.iter().any(|r| r.chars().count() != SIZE as usize) {
        return Err(format!("rows {:?}: three rows of three squares", record.rows));
    }
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (r, row) in record.rows.iter().enumerate() {
        for (c, symbol) in row.chars().enumerate() {
            let square = Square::new(r as u8, c as u8);
            match symbol {
                'W' => white.push(square),
                'B' => black.push(square),
                '.' => {}
                other => return Err(format!("square {square} is '{other}': W, B or .")),
            }
        }
    }
    HexapawnBoard::from_squares(&white, &black, to_move)
        .ok_or(format!("rows {:?} are not a board", record.rows))
}

impl Numbered for HexapawnRequest {
    fn number(&self) -> usize {
        self.ply as usize
    }
}

/// The board: `W` and `B` the pawns, `.` empty, `o` the square the mover left.
pub(super) fn board(board: &BoardRecord, mv: Option<[SquareJson; 2]>, paint: Paint) -> String {
    // The rows were checked on reading: three of three squares.
    grid::drawn_down(SIZE, 1, |r, c| {
        let here = [r, c];
        match board.rows[r as usize].chars().nth(c as usize) {
            Some('W') => {
                paint.on(if mv.is_some_and(|m| m[1] == here) { MOVED[0] } else { SEAT_TOKEN[0] }, "W")
            }
            Some('B') => {
                paint.on(if mv.is_some_and(|m| m[1] == here) { MOVED[1] } else { SEAT_TOKEN[1] }, "B")
            }
            _ if mv.is_some_and(|m| m[0] == here) => paint.on(FROM, "o"),
            _ => paint.on(FREE, "."),
        }
    })
}

// ANSI styles of the board's glyphs.
const SEAT: [&str; 2] = ["1;94", "1;91"];
const SEAT_TOKEN: [&str; 2] = ["1;97;44", "1;97;41"];
const MOVED: [&str; 2] = ["1;30;104", "1;30;101"];
const FROM: &str = "2;36";
const FREE: &str = "2";

impl GameBody for HexapawnBody {
    type Game = Hexapawn;
    const STEPS_NOUN: &'static str = "moves";

    fn steps(&self) -> usize {
        self.plies.len()
    }

    /// What serde cannot check: boards, seats and squares are valid.
    fn check(&self) -> Result<(), String> {
        let boards = [("start", &self.start), ("final", &self.final_board)].into_iter();
        let plies = self.plies.iter().enumerate().map(|(i, p)| (format!("plies[{i}].board"), &p.board));
        for (what, board) in boards.map(|(w, b)| (w.to_string(), b)).chain(plies) {
            board_from(board).map_err(|e| format!("{what}: {e}"))?;
        }
        for (i, ply) in self.plies.iter().enumerate() {
            seat_from_number(ply.seat).ok_or(format!("plies[{i}].seat = {}: 1 or 2", ply.seat))?;
            if ply.mv.iter().any(|s| s[0] >= SIZE || s[1] >= SIZE) {
                return Err(format!("plies[{i}].move {:?} is off the 3x3 board", ply.mv));
            }
        }
        if let Some(failed) = &self.failed {
            board_from(&failed.board).map_err(|e| format!("failed.board: {e}"))?;
            seat_from_number(failed.seat).ok_or(format!("failed.seat = {}: 1 or 2", failed.seat))?;
        }
        Ok(())
    }

    /// Re-simulates the game through the referee with the recorded seed and
    /// moves: every board shown, every move, the ending must come out the same.
    fn verify<E: ReplayBody>(&self, replay: &Replay<E>) -> Result<String, String> {
        let body = self;
        let seed = replay.seed;
        diff::part("the start", &body.start, &board_record(&HexapawnBoard::start()), seed)?;
        let moves: Vec<HexapawnAction> =
            body.plies.iter().map(|p| HexapawnAction::Move(move_from(p.mv))).collect();
        let failed = body.failed.as_ref().and_then(|f| {
            let answer = match (f.resigned, f.mv) {
                (true, _) => Some(HexapawnAction::Resign),
                // A rejected move: the referee judges it again.
                (false, mv) => mv.map(|mv| HexapawnAction::Move(move_from(mv))),
            };
            Some((seat_from_number(f.seat)?, answer))
        });
        // Black failing before any move can only have failed at start-up.
        let at_start = failed
            .as_ref()
            .filter(|(seat, _)| *seat == Seat::Two && body.plies.is_empty())
            .map(|_| Seat::Two);
        let [mut white, mut black] =
            SeatScript::<Hexapawn>::seats(&replay.result, &moves, failed, at_start, "move");
        let record = referee::play_timed(&body.settings(), body.controls(), seed, [&mut white, &mut black]);
        let players = [0, 1].map(|i| replay.players[i].clone());
        let again = Hexapawn::replay(&record, players);
        let mut resimulated = again.body;
        // The boards the referee showed, not the ones the record implies.
        let mut shown: Vec<(u32, BoardRecord)> =
            white.shown.iter().chain(&black.shown).map(|r| (r.ply, board_record(&r.board))).collect();
        shown.sort_by_key(|(ply, _)| *ply);
        let boards = resimulated
            .plies
            .iter_mut()
            .map(|p| &mut p.board)
            .chain(resimulated.failed.as_mut().map(|f| &mut f.board));
        for (board, (_, seen)) in boards.zip(shown) {
            *board = seen;
        }
        diff::steps("move", &body.plies, &resimulated.plies, seed)?;
        diff::part("the request the game ended on", &body.failed, &resimulated.failed, seed)?;
        diff::part("the final board", &body.final_board, &resimulated.final_board, seed)?;
        diff::part("the result", &replay.result, &again.result, seed)?;
        Ok(format!(
            "verified: {} moves re-simulated with seed {seed}; every board, move and the result match ({})",
            body.plies.len(),
            replay.summary()
        ))
    }

    /// The game for the terminal: the start, then the board after each move.
    fn frames<E: ReplayBody>(&self, replay: &Replay<E>, paint: Paint) -> Vec<String> {
        let body = self;
        let name = |seat: u8| replay.players.get(seat as usize - 1).map_or("?", |p| p.name.as_str());
        let start = format!(
            "{} (White, moves first) vs {} (Black), seed {}\n{}",
            name(1),
            name(2),
            replay.seed,
            board(&body.start, None, paint)
        );
        let mut frames = Frames::start(replay, paint, "move", body.plies.len(), &start);
        for (i, ply) in body.plies.iter().enumerate() {
            let after = body.plies.get(i + 1).map(|p| &p.board).unwrap_or(&body.final_board);
            let [from, to] = ply.mv;
            let line = format!(
                "{} ({}) ({},{}) -> ({},{})",
                name(ply.seat),
                if ply.seat == 1 { "White" } else { "Black" },
                from[0],
                from[1],
                to[0],
                to[1]
            );
            frames.step(
                &paint.on(SEAT[ply.seat as usize - 1], &line),
                Duration::from_micros(ply.time_us),
                &board(after, Some(ply.mv), paint),
            );
        }
        if let Some(failed) = &body.failed {
            let answer = match (failed.resigned, failed.mv) {
                (true, _) => "resigned".to_string(),
                (false, Some([f, t])) => format!("answered ({},{}) -> ({},{})", f[0], f[1], t[0], t[1]),
                (false, None) => "no answer".to_string(),
            };
            let line = format!("{} failed: {answer}", name(failed.seat));
            frames.under(&paint.on(SEAT[failed.seat as usize - 1], &line));
        }
        frames.end()
    }
}
