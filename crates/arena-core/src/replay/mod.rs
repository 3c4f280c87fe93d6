//! Replays: a finished game written as one JSON file (docs/replays.md), and
//! what reads one: the terminal viewer, the HTML viewer, and `--verify`,
//! which re-simulates the game through the real referee.
//!
//! A replay is an envelope every game shares (format, version, game, seed,
//! players, result) around a per-game body (settings, turns, states). A
//! game plugs in through `ReplayGame` (its body type, its viewer script):
//! its body is a `ReplayBody` (checked, verified, drawn in the terminal),
//! kept in `games/<game>/replay.rs` beside its `viewer.js`; `Body` has a
//! variant per line of the games table.

pub mod command;
pub mod diff;
pub mod fault;
pub mod files;
pub mod grid;
pub mod html;
pub mod terminal;

use std::{
    io::{Read, Write},
    path::Path,
};

use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::{
    fault::Fault,
    game::{with_game, Game, GameId},
};
pub use fault::FaultRecord;
use player_api::Outcome;

/// The `format` field of every replay file.
pub const FORMAT: &str = "arena-replay";
/// The replay format version this arena writes and reads.
pub const VERSION: u32 = 1;
/// One game, as written to a replay file.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Replay {
    pub format: String,
    pub version: u32,
    /// The arena version that wrote the file.
    pub arena: String,
    pub seed: u64,
    /// In seat order: `players[0]` sat in seat 1 (moved first).
    pub players: Vec<ReplayPlayer>,
    pub result: ReplayResult,
    /// The game's own part; its `game` field names the game.
    #[serde(flatten)]
    pub body: Body,
}

/// A player as the replay names it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ReplayPlayer {
    /// The player's own name (told apart, as the arena showed it).
    pub name: String,
    /// A built-in name or the library's path, as given to the arena.
    pub source: String,
}

/// How the game ended.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ReplayResult {
    /// Index into `players` of the winner; None for a draw.
    pub winner: Option<usize>,
    /// Why it ended, as `arena play` reports it ("trapped", "timeout: ...").
    pub reason: String,
    /// Turns played.
    pub turns: u32,
    /// The failure that ended the game, if a player failed.
    pub fault: Option<FaultRecord>,
    /// One-player games: `win`, `draw` or `loss` (`winner` is 0 for a win).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// One-player games: the final score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
}

impl ReplayResult {
    /// The result of a one-player game.
    pub fn single(outcome: Outcome, score: i64, turns: u32, reason: String, fault: Option<&Fault>) -> Self {
        let outcome_name = match outcome {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        };
        ReplayResult {
            winner: (outcome == Outcome::Win).then_some(0),
            reason,
            turns,
            fault: fault.map(|f| FaultRecord::new(0, f)),
            outcome: Some(outcome_name.to_string()),
            score: Some(score),
        }
    }
}

/// A game's part of a replay: checked on reading, re-simulated by
/// `--verify`, drawn in the terminal. Implemented in `games/<game>/replay.rs`.
pub trait ReplayBody {
    /// What the type system cannot check: counts and indices agree with
    /// the envelope.
    fn check(&self, replay: &Replay) -> Result<(), String>;
    /// Re-simulates the game through the referee; `Err` is the first
    /// difference, in one line.
    fn verify(&self, replay: &Replay) -> Result<String, String>;
    /// The start, then one frame per turn.
    fn frames(&self, replay: &Replay, paint: terminal::Paint) -> Vec<String>;
}

/// A game that has replays: its body, and how its viewer draws it.
pub trait ReplayGame: Game {
    type Body: ReplayBody + Serialize + for<'de> Deserialize<'de> + std::fmt::Debug + Clone + PartialEq;
    /// What a game's steps are called in its summary ("turns", "reveals").
    const STEPS_NOUN: &'static str;
    /// The HTML viewer's drawing script for this game (`viewer.js` beside it).
    const VIEWER: &'static str;
}

/// `Body`, a variant per line of the games table.
macro_rules! replay_bodies {
    (() $($variant:ident = $game:path, $name:literal, $kind:ident;)+) => {
        /// The per-game part of a replay; its `game` field names the game.
        #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
        #[serde(tag = "game")]
        pub enum Body {
            $(#[serde(rename = $name)] $variant(<$game as ReplayGame>::Body),)+
        }

        impl Body {
            /// The game it is a replay of.
            pub fn id(&self) -> GameId {
                match self { $(Body::$variant(_) => GameId::$variant,)+ }
            }

            fn inner(&self) -> &dyn ReplayBody {
                match self { $(Body::$variant(body) => body,)+ }
            }
        }
    };
}
crate::games::table!({ replay_bodies }());

impl Body {
    pub fn game(&self) -> &'static str {
        self.id().name()
    }

    /// How many players the game seats.
    pub fn seats(&self) -> usize {
        if self.id().is_single_player() {
            1
        } else {
            2
        }
    }

    /// What a game's steps are called in its summary.
    fn steps_noun(&self) -> &'static str {
        with_game!(self.id(), G => <G as ReplayGame>::STEPS_NOUN)
    }
}

impl Replay {
    /// A replay of a game: the envelope around `body`.
    pub fn new(seed: u64, players: Vec<ReplayPlayer>, result: ReplayResult, body: Body) -> Replay {
        Replay {
            format: FORMAT.to_string(),
            version: VERSION,
            arena: env!("CARGO_PKG_VERSION").to_string(),
            seed,
            players,
            result,
            body,
        }
    }

    /// "easy vs hard: hard wins in 23 turns (trapped)";
    /// "hard: win, score 2, in 9 reveals (found the monster)"
    pub fn summary(&self) -> String {
        let names: Vec<&str> = self.players.iter().map(|p| p.name.as_str()).collect();
        let (turns, noun, reason) = (self.result.turns, self.body.steps_noun(), &self.result.reason);
        if let (Some(outcome), Some(score)) = (&self.result.outcome, self.result.score) {
            return format!("{}: {outcome}, score {score}, in {turns} {noun} ({reason})", names.join(", "));
        }
        let verdict = match self.result.winner {
            Some(w) => format!("{} wins", names.get(w).unwrap_or(&"?")),
            None => "draw".to_string(),
        };
        format!("{}: {verdict} in {turns} {noun} ({reason})", names.join(" vs "))
    }

    /// Re-simulates the game through the referee with the recorded seed and
    /// actions; `Err` is the first difference, in one line.
    pub fn verify(&self) -> Result<String, String> {
        self.body.inner().verify(self)
    }

    /// The game for the terminal: the start, then one frame per turn.
    pub fn frames(&self, paint: terminal::Paint) -> Vec<String> {
        self.body.inner().frames(self, paint)
    }

    /// The replay as JSON text: a field per line, a turn per line.
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        let mut serializer =
            serde_json::Serializer::with_formatter(&mut out, LineFormatter { open: Vec::new() });
        self.serialize(&mut serializer).expect("plain data serialises");
        out.push(b'\n');
        String::from_utf8(out).expect("serde_json writes UTF-8")
    }

    /// Writes the replay to `path`, gzip-compressed when the name ends in `.gz`.
    pub fn write(&self, path: &Path) -> Result<()> {
        let json = self.to_json();
        let bytes = if is_gzip_name(path) { gzip(json.as_bytes()) } else { json.into_bytes() };
        files::write_synced(path, &bytes)
    }

    /// Reads a replay file (plain or gzip JSON). Every problem is one line
    /// that names the file: not found, not JSON, not a replay, a format
    /// version this arena does not read, a game it does not know, damage.
    pub fn read(path: &Path) -> Result<Replay> {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read the replay {}", path.display()))?;
        Replay::parse(&bytes).map_err(|e| anyhow!("{}: {e:#}", path.display()))
    }

    /// Parses replay bytes (plain or gzip JSON).
    pub fn parse(bytes: &[u8]) -> Result<Replay> {
        let text = if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut text = Vec::new();
            flate2::read::GzDecoder::new(bytes).read_to_end(&mut text).map_err(|e| {
                anyhow!("the gzip data is damaged ({e}): the file was cut short or is not a replay")
            })?;
            text
        } else {
            bytes.to_vec()
        };
        let value: serde_json::Value =
            serde_json::from_slice(&text).map_err(|e| anyhow!("not a replay file: it is not JSON ({e})"))?;
        let format = value.get("format").and_then(|f| f.as_str());
        if format != Some(FORMAT) {
            bail!("not a replay file: it has no \"format\": \"{FORMAT}\" field");
        }
        let version = value.get("version").and_then(|v| v.as_u64());
        match version {
            Some(v) if v == u64::from(VERSION) => {}
            Some(v) if v < u64::from(VERSION) => bail!(
                "replay format version {v} is older than the version this arena reads ({VERSION}); \
                 view it with the arena that wrote it, or record the game again"
            ),
            Some(v) => bail!(
                "replay format version {v} is newer than the version this arena reads ({VERSION}); \
                 update the arena"
            ),
            None => bail!("the replay has no format version (a \"version\" number field)"),
        }
        let game = value.get("game").and_then(|g| g.as_str()).unwrap_or_default();
        if GameId::parse(game).is_none() {
            bail!("game \"{game}\" has no replay support in this arena (it knows: {})", GameId::names(", "));
        }
        let replay: Replay =
            serde_json::from_value(value).map_err(|e| anyhow!("the replay is damaged: {e}"))?;
        replay.check().map_err(|e| anyhow!("the replay is damaged: {e}"))?;
        Ok(replay)
    }

    /// Checks what the type system cannot: counts and indices agree.
    fn check(&self) -> Result<(), String> {
        let seats = self.body.seats();
        if self.players.len() != seats {
            return Err(format!(
                "{} players listed; a {} game has {seats}",
                self.players.len(),
                self.body.game()
            ));
        }
        if let Some(w) = self.result.winner.filter(|&w| w >= self.players.len()) {
            return Err(format!("result.winner = {w} is not a player index"));
        }
        if let Some(f) = self.result.fault.as_ref().filter(|f| f.player >= self.players.len()) {
            return Err(format!("result.fault.player = {} is not a player index", f.player));
        }
        if seats == 1 && (self.result.outcome.is_none() || self.result.score.is_none()) {
            return Err(format!("a {} replay's result needs its outcome and score", self.body.game()));
        }
        self.body.inner().check(self)
    }
}

/// Whether a path names a gzip file (`.gz`).
pub fn is_gzip_name(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "gz")
}

/// `bytes`, gzip-compressed.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

/// JSON laid out for people and diffs: the top-level fields one per line,
/// and each element of a top-level array (a turn) on a line of its own.
struct LineFormatter {
    /// Per open container: whether it has a member yet.
    open: Vec<bool>,
}

impl LineFormatter {
    /// Containers at depth 1 and 2 are laid out over lines; deeper ones inline.
    const LINED: usize = 2;

    fn newline<W: ?Sized + Write>(&self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b"\n")?;
        w.write_all(&b"  ".repeat(self.open.len()))
    }

    fn begin<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.open.push(false);
        w.write_all(bracket)
    }

    fn end<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        let had_members = self.open.pop().unwrap_or(false);
        if had_members && self.open.len() < Self::LINED {
            self.newline(w)?;
        }
        w.write_all(bracket)
    }

    fn member<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        if let Some(open) = self.open.last_mut() {
            *open = true;
        }
        match self.open.len() <= Self::LINED {
            true => self.newline(w),
            false if !first => w.write_all(b" "),
            false => Ok(()),
        }
    }
}

impl serde_json::ser::Formatter for LineFormatter {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.begin(w, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.end(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        self.member(w, first)
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.begin(w, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.end(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        self.member(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
}
