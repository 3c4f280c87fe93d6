//! The wire protocol between the arena and a player process (docs/protocol.md).
//!
//! A frame is a 4-byte little-endian length N (1 <= N <= MAX_FRAME) followed
//! by N bytes of UTF-8 JSON: one object with a "type" field. The player
//! speaks first (`hello`); then the arena sends requests and the player
//! answers each with exactly one frame.

use std::io::{self, Read, Write};

use player_api::{
    trap::{Pos, TrapState},
    GameOver, Outcome, Seat,
};
use serde::{Deserialize, Serialize};

/// The protocol version this arena speaks.
pub const VERSION: u32 = 1;

/// The largest frame either side may send (1 MiB): a reply longer than that
/// is garbage, not a move.
pub const MAX_FRAME: usize = 1 << 20;

/// A cell on the wire: `[row, col]`. Any integers are accepted so that an
/// off-board answer such as `[-1, 3]` is reported as such, not as garbage.
pub type WireCell = [i64; 2];

/// The arena's requests.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    NewGame { game: String, seat: u8, size: u8, turn_budget_us: u64, seed: u64 },
    Turn { seat: u8, turn: u32, time_left_us: u64, state: WireState },
    GameOver { outcome: WireOutcome, turns: u32, reason: String },
    Quit,
}

/// The player's answers.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    Hello {
        protocol: u32,
        name: String,
        #[serde(default)]
        author: String,
        games: Vec<String>,
        /// For libraries: the player-api version they were built against.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        player_api: String,
    },
    /// A turn: the move and, unless the move is illegal or already traps
    /// the opponent, the throw's target.
    Turn {
        #[serde(rename = "move")]
        step: WireCell,
        #[serde(default)]
        trap: Option<WireCell>,
    },
    Ok,
    /// Something went wrong inside the player (a caught panic, a failed load).
    Error {
        message: String,
    },
}

/// A Trap position on the wire.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireState {
    pub size: u8,
    /// Player 1's cell, then player 2's.
    pub players: [WireCell; 2],
    pub traps: Vec<WireCell>,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum WireOutcome {
    Win,
    Loss,
    Draw,
}

impl From<&TrapState> for WireState {
    fn from(state: &TrapState) -> WireState {
        WireState {
            size: state.size(),
            players: Seat::BOTH.map(|s| wire_cell(state.position(s))),
            traps: state.traps().map(wire_cell).collect(),
        }
    }
}

impl WireState {
    /// The position, if it is a valid one.
    pub fn to_state(&self) -> Result<TrapState, String> {
        let size = self.size;
        if !(player_api::trap::MIN_SIZE..=player_api::trap::MAX_SIZE).contains(&size) {
            return Err(format!("board size {size} is not supported"));
        }
        let cell = |c: WireCell| {
            cell_pos(c).filter(|p| p.is_on_board(size)).ok_or(format!("{c:?} is off the board"))
        };
        let players = [cell(self.players[0])?, cell(self.players[1])?];
        if players[0] == players[1] {
            return Err("both players on one cell".to_string());
        }
        let traps = self.traps.iter().map(|&t| cell(t)).collect::<Result<Vec<_>, _>>()?;
        Ok(TrapState::from_parts(size, players, traps))
    }
}

pub fn wire_cell(pos: Pos) -> WireCell {
    [pos.row.into(), pos.col.into()]
}

/// The cell a wire pair names, if it fits a `Pos` at all.
pub fn cell_pos([row, col]: WireCell) -> Option<Pos> {
    Some(Pos::new(u8::try_from(row).ok()?, u8::try_from(col).ok()?))
}

pub fn seat_number(seat: Seat) -> u8 {
    seat.number()
}

pub fn seat_from_number(n: u8) -> Option<Seat> {
    match n {
        1 => Some(Seat::One),
        2 => Some(Seat::Two),
        _ => None,
    }
}

impl From<Outcome> for WireOutcome {
    fn from(o: Outcome) -> WireOutcome {
        match o {
            Outcome::Win => WireOutcome::Win,
            Outcome::Loss => WireOutcome::Loss,
            Outcome::Draw => WireOutcome::Draw,
        }
    }
}

impl WireOutcome {
    pub fn to_game_over(self, turns: u32, reason: String) -> GameOver {
        let outcome = match self {
            WireOutcome::Win => Outcome::Win,
            WireOutcome::Loss => Outcome::Loss,
            WireOutcome::Draw => Outcome::Draw,
        };
        GameOver { outcome, turns, reason: reason.into() }
    }
}

/// Why bytes could not be read as a frame.
#[derive(Debug, PartialEq)]
pub enum FrameError {
    /// The length prefix is 0 or over MAX_FRAME.
    BadLength(u64),
    /// The payload is not a message of this protocol.
    BadMessage(String),
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrameError::BadLength(n) => write!(f, "frame length {n} is outside 1..={MAX_FRAME}"),
            FrameError::BadMessage(why) => write!(f, "not a protocol message: {why}"),
        }
    }
}

/// Appends one frame holding `message` to `out`.
pub fn encode<T: Serialize>(message: &T, out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    serde_json::to_writer(&mut *out, message).expect("protocol messages serialise");
    let len = (out.len() - start - 4) as u32;
    out[start..start + 4].copy_from_slice(&len.to_le_bytes());
}

/// Decodes the first frame in `buf`: `Ok(None)` if more bytes are needed,
/// else the message and the number of bytes it used.
pub fn decode<T: for<'de> Deserialize<'de>>(buf: &[u8]) -> Result<Option<(T, usize)>, FrameError> {
    let Some(prefix) = buf.get(..4) else { return Ok(None) };
    let len = u32::from_le_bytes(prefix.try_into().expect("4 bytes")) as usize;
    if len == 0 || len > MAX_FRAME {
        return Err(FrameError::BadLength(len as u64));
    }
    let Some(payload) = buf.get(4..4 + len) else { return Ok(None) };
    let message = serde_json::from_slice(payload).map_err(|e| FrameError::BadMessage(e.to_string()))?;
    Ok(Some((message, 4 + len)))
}

/// Reads one frame from a blocking reader (the worker's side). `Ok(None)`
/// at a clean end of input.
pub fn read_frame<T: for<'de> Deserialize<'de>>(
    input: &mut impl Read,
    buf: &mut Vec<u8>,
) -> io::Result<Option<T>> {
    let mut prefix = [0u8; 4];
    match input.read_exact(&mut prefix) {
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        other => other?,
    }
    let len = u32::from_le_bytes(prefix) as usize;
    if len == 0 || len > MAX_FRAME {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            FrameError::BadLength(len as u64).to_string(),
        ));
    }
    buf.clear();
    buf.resize(len, 0);
    input.read_exact(buf)?;
    serde_json::from_slice(buf).map(Some).map_err(|e| {
        io::Error::new(io::ErrorKind::InvalidData, FrameError::BadMessage(e.to_string()).to_string())
    })
}

/// Writes one frame and flushes.
pub fn write_frame<T: Serialize>(output: &mut impl Write, message: &T, buf: &mut Vec<u8>) -> io::Result<()> {
    buf.clear();
    encode(message, buf);
    output.write_all(buf)?;
    output.flush()
}
