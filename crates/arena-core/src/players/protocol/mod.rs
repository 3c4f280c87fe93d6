//! The wire protocol between the arena and a player process (docs/protocol.md).
//!
//! A frame is a 4-byte little-endian length N (1 <= N <= MAX_FRAME) followed
//! by N bytes of UTF-8 JSON: one object with a "type" field. The player
//! speaks first (`hello`); then the arena sends requests and the player
//! answers each with exactly one frame.
//!
//! What is one game's own (a position, a view, a step's state, its rules)
//! travels as a `Payload` that the game's wire form (`games/<game>/wire.rs`)
//! writes and reads: the messages here name no game's types.

use std::io::{self, Read, Write};

use player_api::{GameOver, Outcome, Seat};
use serde::{Deserialize, Serialize};

use crate::play::time_control::TimeBank;

mod grid;
mod names;
mod payload;
mod setup;
pub use grid::{coord, wire_coord, WireCoord, WireDir, DIRS};
pub use names::Names;
pub use payload::Payload;
pub use setup::{
    declared, decode as decode_memory, encode as encode_memory, SetupRequest, WireParam, WireValue,
};

/// The protocol version this arena speaks.
pub const VERSION: u32 = 1;

/// The largest frame either side may send (2 MiB: room for a memory of
/// 1 MiB in base64, `setup` and `memory`): a reply longer than that is
/// garbage, not a move.
pub const MAX_FRAME: usize = 2 << 20;

/// A cell on the wire: `[row, col]`. Any integers are accepted so that an
/// off-board answer such as `[-1, 3]` is reported as such, not as garbage.
pub type WireCell = [i64; 2];

/// The arena's requests. A player is only ever sent the requests of the
/// games it announced in its `hello`. A request's `state` is the game's
/// own (`Payload`: games/<game>/wire.rs writes and reads it).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    NewGame(NewGameRequest),
    /// Trap: a whole turn (move and throw).
    Turn {
        seat: u8,
        turn: u32,
        time_left_us: u64,
        state: Payload,
        /// Under a time bank: what is left in it (absent otherwise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bank: Option<TimeBank>,
    },
    /// Intuitive AI: the cell to open next.
    Reveal {
        turn: u32,
        time_left_us: u64,
        state: Payload,
        /// Under a time bank: what is left in it (absent otherwise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bank: Option<TimeBank>,
    },
    /// Hexapawn: the move to play (or resign).
    GetMove {
        seat: u8,
        ply: u32,
        time_left_us: u64,
        state: Payload,
        /// Under a time bank: what is left in it (absent otherwise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bank: Option<TimeBank>,
    },
    /// Wumpus World, Magic Forest: the next action.
    Step {
        time_left_us: u64,
        state: Payload,
        /// Under a time bank: what is left in it (absent otherwise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bank: Option<TimeBank>,
    },
    GameOver(GameOverRequest),
    /// What the player is made with: its parameters' values and its
    /// memory. Sent once, before the first `new_game`, only to a player
    /// whose `hello` declares parameters or memory.
    Setup(SetupRequest),
    /// The match is over: the memory to keep (a `memory` reply). Sent only
    /// to a player whose `hello` says `"memory": true`.
    SaveMemory,
    Quit,
}

impl Request {
    /// The request with `bank` told (a request for an action; any other is
    /// left as it is).
    pub fn with_bank(mut self, told: Option<TimeBank>) -> Request {
        if let Request::Turn { bank, .. }
        | Request::Reveal { bank, .. }
        | Request::GetMove { bank, .. }
        | Request::Step { bank, .. } = &mut self
        {
            *bank = told;
        }
        self
    }
}

/// A game starts. Which fields are present depends on the game.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
#[serde(deny_unknown_fields)]
pub struct NewGameRequest {
    pub game: String,
    /// Trap, Hexapawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// Trap, Intuitive AI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u8>,
    /// The budget of one request (a turn, a reveal, a move, a step).
    pub turn_budget_us: u64,
    pub seed: u64,
    /// Wumpus World, Magic Forest: the rules, in the game's wire form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<Payload>,
    /// Wumpus World: the start square and the arrows carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<WireCoord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrows: Option<u8>,
}

impl NewGameRequest {
    /// The seat, for the games that have seats.
    pub fn seat(&self) -> Result<Seat, String> {
        let number = self.seat.ok_or("no seat")?;
        seat_from_number(number).ok_or(format!("bad seat {number}"))
    }

    /// The board size, for the games that send one.
    pub fn size(&self) -> Result<u8, String> {
        self.size.ok_or("no size".to_string())
    }
}

/// A game ended: how, and what the game scores. The fields past `reason`
/// are the protocol's (docs/protocol.md); each game fills in its own.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GameOverRequest {
    pub outcome: WireOutcome,
    pub turns: u32,
    pub reason: String,
    /// The single-player games: the final score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// Magic Forest: forests cleared and deaths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forests_cleared: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deaths: Option<u32>,
}

impl GameOverRequest {
    /// What a two-player game tells its players.
    pub fn game_over(self) -> GameOver {
        GameOver { outcome: self.outcome.into(), turns: self.turns, reason: self.reason.into() }
    }
}

impl From<GameOver> for GameOverRequest {
    fn from(over: GameOver) -> GameOverRequest {
        GameOverRequest {
            outcome: over.outcome.into(),
            turns: over.turns,
            reason: over.reason.into(),
            score: None,
            forests_cleared: None,
            deaths: None,
        }
    }
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
        /// For libraries: the ABI version they were built for.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        abi: Option<u32>,
        /// The parameters the player accepts (`setup` gives their values).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        params: Vec<WireParam>,
        /// Whether it keeps a memory across matches (`setup` gives it,
        /// `save_memory` asks for it back).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        memory: bool,
    },
    /// The answer to `save_memory`: the memory to keep, in base64 (null:
    /// keep what it had).
    Memory {
        #[serde(default)]
        data: Option<String>,
    },
    /// A turn: the move and, unless the move is illegal or already traps
    /// the opponent, the throw's target.
    Turn {
        #[serde(rename = "move")]
        step: WireCell,
        #[serde(default)]
        trap: Option<WireCell>,
    },
    /// Intuitive AI: the cell to open.
    Reveal {
        cell: WireCell,
    },
    /// Hexapawn: a move.
    Move {
        from: WireCell,
        to: WireCell,
    },
    /// Hexapawn: giving up.
    Resign,
    /// Wumpus World (`forward`, `turn_left`, ...) and Magic Forest (`move`
    /// or `throw`, with a `dir`).
    Action {
        action: String,
        #[serde(default)]
        dir: Option<String>,
    },
    Ok,
    /// Something went wrong inside the player (a caught panic, a failed load).
    Error {
        message: String,
    },
    /// The player's own host found that the player's answer is not an action
    /// at all (a Python method returned None, a list, floats): a loss.
    Invalid {
        message: String,
    },
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum WireOutcome {
    Win,
    Loss,
    Draw,
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

impl From<WireOutcome> for Outcome {
    fn from(o: WireOutcome) -> Outcome {
        match o {
            WireOutcome::Win => Outcome::Win,
            WireOutcome::Loss => Outcome::Loss,
            WireOutcome::Draw => Outcome::Draw,
        }
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
            FrameError::BadLength(n) => {
                write!(f, "frame length {n} is outside 1..={MAX_FRAME}")?;
                // Four printable bytes: most likely text printed where frames go.
                let bytes = u32::try_from(*n).map(u32::to_le_bytes).ok();
                match bytes.filter(|b| b.iter().all(|c| c.is_ascii_graphic() || *c == b' ')) {
                    Some(b) => {
                        write!(f, " (its bytes read \"{}\": text printed on stdout?)", b.escape_ascii())
                    }
                    None => Ok(()),
                }
            }
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

/// Through a frame and back, as the other side reads it.
#[cfg(test)]
pub(crate) fn through_a_frame<T: Serialize + for<'de> Deserialize<'de>>(message: &T) -> T {
    let mut frame = Vec::new();
    encode(message, &mut frame);
    decode::<T>(&frame).unwrap().expect("a whole frame").0
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    fn random_request(rng: &mut ChaCha8Rng) -> Request {
        let cell = |rng: &mut ChaCha8Rng| [rng.random_range(0..7), rng.random_range(0..7)];
        match rng.random_range(0..4) {
            0 => Request::NewGame(NewGameRequest {
                game: "trap".into(),
                seat: Some(rng.random_range(1..=2)),
                size: Some(7),
                turn_budget_us: rng.random(),
                seed: rng.random(),
                ..NewGameRequest::default()
            }),
            1 => Request::Turn {
                seat: 1,
                turn: rng.random(),
                time_left_us: rng.random(),
                state: Payload::of(
                    &(0..rng.random_range(0..40)).map(|_| cell(rng)).collect::<Vec<WireCell>>(),
                ),
                bank: rng.random_bool(0.5).then(|| TimeBank {
                    left_us: rng.random(),
                    increment_us: rng.random(),
                    turn_cap_us: rng.random(),
                }),
            },
            2 => Request::GameOver(GameOverRequest {
                outcome: WireOutcome::Draw,
                turns: rng.random(),
                reason: "trapped \u{1F600}\"\n".into(),
                score: None,
                forests_cleared: Some(rng.random()),
                deaths: None,
            }),
            _ => Request::Quit,
        }
    }

    #[test]
    fn frames_round_trip_whole_and_in_any_split() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..500 {
            let messages: Vec<Request> = (0..3).map(|_| random_request(&mut rng)).collect();
            let mut stream = Vec::new();
            messages.iter().for_each(|m| encode(m, &mut stream));
            // Decoding from every prefix: needs more bytes, or one whole message.
            let cut = rng.random_range(0..stream.len());
            match decode::<Request>(&stream[..cut]).unwrap() {
                None => {}
                Some((first, used)) => {
                    assert_eq!(first, messages[0]);
                    assert!(used <= cut);
                }
            }
            let mut rest = &stream[..];
            for expected in &messages {
                let (message, used) = decode::<Request>(rest).unwrap().expect("a whole frame");
                assert_eq!(&message, expected);
                rest = &rest[used..];
            }
            assert!(rest.is_empty());
        }
    }

    #[test]
    fn every_truncation_asks_for_more_bytes() {
        let mut frame = Vec::new();
        encode(&Reply::Turn { step: [1, 2], trap: Some([3, 4]) }, &mut frame);
        for cut in 0..frame.len() {
            assert_eq!(decode::<Reply>(&frame[..cut]), Ok(None), "cut at {cut}");
        }
        assert!(decode::<Reply>(&frame).unwrap().is_some());
    }

    #[test]
    fn zero_and_oversized_lengths_are_rejected_before_reading_a_payload() {
        assert_eq!(decode::<Reply>(&[0, 0, 0, 0]), Err(FrameError::BadLength(0)));
        let too_long = (MAX_FRAME as u32 + 1).to_le_bytes();
        assert_eq!(decode::<Reply>(&too_long), Err(FrameError::BadLength(MAX_FRAME as u64 + 1)));
        assert_eq!(decode::<Reply>(&u32::MAX.to_le_bytes()), Err(FrameError::BadLength(u32::MAX as u64)));
    }

    #[test]
    fn malformed_payloads_are_errors_not_panics() {
        let cases: [&[u8]; 8] = [
            b"garbage",
            b"{}",
            b"{\"type\":\"turn\"}",
            b"{\"type\":\"turn\",\"move\":[1]}",
            b"{\"type\":\"turn\",\"move\":\"a\"}",
            b"{\"type\":\"fly\"}",
            b"\xff\xfe\x00",
            b"[1,2,3]",
        ];
        for payload in cases {
            let mut frame = (payload.len() as u32).to_le_bytes().to_vec();
            frame.extend_from_slice(payload);
            assert!(matches!(decode::<Reply>(&frame), Err(FrameError::BadMessage(_))), "{payload:?}");
        }
    }

    #[test]
    fn random_bytes_never_panic_the_decoder() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for _ in 0..20_000 {
            let len = rng.random_range(0..64);
            let mut bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            if rng.random_bool(0.5) && bytes.len() >= 4 {
                // A plausible length prefix, to reach the payload parser.
                let n = (bytes.len() - 4) as u32;
                bytes[..4].copy_from_slice(&n.to_le_bytes());
            }
            let _ = decode::<Reply>(&bytes);
            let _ = decode::<Request>(&bytes);
        }
    }

    #[test]
    fn off_board_and_huge_cells_survive_decoding_as_given() {
        let mut frame = Vec::new();
        let payload = br#"{"type":"turn","move":[-1,3],"trap":[99999999999,0]}"#;
        frame.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        frame.extend_from_slice(payload);
        let (reply, _) = decode::<Reply>(&frame).unwrap().unwrap();
        assert_eq!(reply, Reply::Turn { step: [-1, 3], trap: Some([99_999_999_999, 0]) });
    }

    #[test]
    fn a_length_that_is_text_says_so() {
        let printed = FrameError::BadLength(u32::from_le_bytes(*b"thin").into()).to_string();
        assert!(printed.ends_with("(its bytes read \"thin\": text printed on stdout?)"), "{printed}");
        let binary = FrameError::BadLength(u32::MAX.into()).to_string();
        assert_eq!(binary, format!("frame length {} is outside 1..={MAX_FRAME}", u32::MAX));
    }

    #[test]
    fn an_invalid_action_reply_decodes() {
        let payload = br#"{"type":"invalid","message":"getMove returned None"}"#;
        let mut frame = (payload.len() as u32).to_le_bytes().to_vec();
        frame.extend_from_slice(payload);
        let (reply, _) = decode::<Reply>(&frame).unwrap().unwrap();
        assert_eq!(reply, Reply::Invalid { message: "getMove returned None".into() });
    }

    #[test]
    fn the_hello_in_docs_protocol_md_is_what_we_send() {
        let hello = Reply::Hello {
            protocol: 1,
            name: "my-bot".into(),
            author: "me".into(),
            games: vec!["trap".into()],
            player_api: String::new(),
            abi: None,
            params: Vec::new(),
            memory: false,
        };
        let mut frame = Vec::new();
        encode(&hello, &mut frame);
        let json = r#"{"type":"hello","protocol":1,"name":"my-bot","author":"me","games":["trap"]}"#;
        assert_eq!(&frame[..4], &[0x4c, 0, 0, 0]);
        assert_eq!(&frame[4..], json.as_bytes());
    }

    #[test]
    fn a_payload_is_written_in_its_forms_order_and_read_strictly() {
        #[derive(Serialize, Deserialize, Debug, PartialEq)]
        #[serde(deny_unknown_fields)]
        struct Form {
            size: u8,
            at: WireCoord,
        }
        let request =
            Request::Step { time_left_us: 5, state: Payload::of(&Form { size: 3, at: [0, 2] }), bank: None };
        let json = r#"{"type":"step","time_left_us":5,"state":{"size":3,"at":[0,2]}}"#;
        assert_eq!(serde_json::to_string(&request).unwrap(), json);
        let Request::Step { state, .. } = through_a_frame(&request) else { panic!() };
        assert_eq!(state.read::<Form>(), Ok(Form { size: 3, at: [0, 2] }));
        let extra: Request =
            serde_json::from_str(r#"{"type":"step","time_left_us":5,"state":{"size":3,"at":[0,2],"x":1}}"#)
                .unwrap();
        let Request::Step { state, .. } = extra else { panic!() };
        let why = state.read::<Form>().unwrap_err();
        assert!(why.starts_with("unknown field `x`"), "{why}");
        assert!(Payload::of(&"garbage").read::<Form>().is_err());
    }

    #[test]
    fn new_game_and_game_over_deny_unknown_fields() {
        let new_game = r#"{"type":"new_game","game":"g","turn_budget_us":1,"seed":2}"#;
        assert!(serde_json::from_str::<Request>(new_game).is_ok());
        assert!(serde_json::from_str::<Request>(&new_game.replace("}", r#","colour":1}"#)).is_err());
        let over = r#"{"type":"game_over","outcome":"win","turns":3,"reason":"r","score":-1}"#;
        let Ok(Request::GameOver(told)) = serde_json::from_str::<Request>(over) else { panic!() };
        assert_eq!((told.outcome, told.score, told.deaths), (WireOutcome::Win, Some(-1), None));
        assert!(serde_json::from_str::<Request>(&over.replace("}", r#","colour":1}"#)).is_err());
    }
}
