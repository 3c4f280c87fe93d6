//! Replays: a finished game written as one JSON file (docs/replays.md), and
//! what reads one: the terminal viewer, the HTML viewer, and `--verify`,
//! which re-simulates the game through the real referee.
//!
//! A replay is an envelope every game shares (format, version, seed,
//! players, result) around a per-game body (its `game` name, settings,
//! turns, states): `Replay<B>`. A game plugs in through `ReplayGame` (its
//! body type): its body is a `GameBody`, so a `ReplayBody` (checked,
//! verified, drawn in the terminal and by its viewer script), kept in
//! `games/<game>/replay.rs` beside its `viewer.js`. A replay of any game
//! is `Replay<Body>`, `Body` having a variant per line of the games table
//! (`games::replays`): files are written and read as that.

pub mod diff;
pub mod fault;
pub mod files;
pub mod frames;
pub mod grid;
pub mod html;
pub mod live;
pub mod notes;
pub mod terminal;

use std::{
    io::{Read, Write},
    path::Path,
};

use anyhow::{anyhow, bail, Context, Result};
use serde::{de::DeserializeOwned, Deserialize, Serialize};

use crate::{
    game::{Game, GameId},
    play::fault::Fault,
    report::plain,
};
pub use fault::FaultRecord;
use player_api::Outcome;

/// The `format` field of every replay file.
pub const FORMAT: &str = "arena-replay";
/// The replay format version this arena writes and reads.
pub const VERSION: u32 = 1;
/// One game, as written to a replay file: the envelope around its body `B`
/// (a game's own, or `Body`, any game's).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Replay<B> {
    pub format: String,
    pub version: u32,
    /// The arena version that wrote the file.
    pub arena: String,
    pub seed: u64,
    /// In seat order: `players[0]` sat in seat 1 (moved first).
    pub players: Vec<ReplayPlayer>,
    pub result: ReplayResult,
    /// With `arena play --memory`, on a match's last game: each seat's
    /// memory after the match, as JSON when it is JSON (a learner's: menace's
    /// boxes), else null. The viewer draws menace's (`docs/replays.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<Vec<serde_json::Value>>,
    /// The game's own part; written as `Body`, its `game` field names the game.
    #[serde(flatten)]
    pub body: B,
    /// What the players printed while they thought, beside their turns
    /// (`notes.rs`); none is not written, so a replay without notes is the
    /// same file as before notes were kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<notes::Note>,
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
    /// The placeholder of a game still being played (a live feed's start):
    /// the viewer shows its reason until the end comes.
    pub fn in_progress() -> Self {
        ReplayResult {
            winner: None,
            reason: "in progress".into(),
            turns: 0,
            fault: None,
            outcome: None,
            score: None,
        }
    }

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
/// `--verify`, drawn in the terminal and by its viewer. Implemented by
/// each game's body, a `GameBody`, and by `Body` for any game's. `E` is the
/// envelope's body (the part of the replay the methods read is its
/// envelope; their own part is `self`).
pub trait ReplayBody {
    /// The game it is a replay of.
    fn game(&self) -> GameId;
    /// What a game's steps are called in its summary ("turns", "reveals").
    fn steps_noun(&self) -> &'static str;
    /// The HTML viewer's drawing script for its game (`ReplayGame::VIEWER`).
    fn viewer(&self) -> &'static str;
    /// What the type system cannot check: counts and indices agree with
    /// the envelope.
    fn check<E: ReplayBody>(&self, replay: &Replay<E>) -> Result<(), String>;
    /// Re-simulates the game through the referee; `Err` is the first
    /// difference, in one line.
    fn verify<E: ReplayBody>(&self, replay: &Replay<E>) -> Result<String, String>;
    /// The start, then one frame per turn.
    fn frames<E: ReplayBody>(&self, replay: &Replay<E>, paint: terminal::Paint) -> Vec<String>;

    /// How many players the game seats.
    fn seats(&self) -> usize {
        if self.game().is_single_player() {
            1
        } else {
            2
        }
    }
}

/// A game's own body (`ReplayGame::Body`, in `games/<game>/replay.rs`):
/// what only it can do; the rest of `ReplayBody` follows from its game.
pub trait GameBody {
    type Game: ReplayGame;
    /// What its steps are called in its summary ("moves", "reveals").
    const STEPS_NOUN: &'static str;
    /// How many steps it lists (as many as the result's turns).
    fn steps(&self) -> usize;
    /// What the type system cannot check of its own part: its states,
    /// seats and squares are valid (the count of steps is checked for it).
    fn check(&self) -> Result<(), String>;
    /// As `ReplayBody`'s methods of these names.
    fn verify<E: ReplayBody>(&self, replay: &Replay<E>) -> Result<String, String>;
    fn frames<E: ReplayBody>(&self, replay: &Replay<E>, paint: terminal::Paint) -> Vec<String>;
}

impl<B: GameBody> ReplayBody for B {
    fn game(&self) -> GameId {
        B::Game::ID
    }

    fn steps_noun(&self) -> &'static str {
        B::STEPS_NOUN
    }

    fn viewer(&self) -> &'static str {
        B::Game::VIEWER
    }

    fn check<E: ReplayBody>(&self, replay: &Replay<E>) -> Result<(), String> {
        GameBody::check(self)?;
        if replay.result.turns as usize != self.steps() {
            return Err(format!(
                "result.turns = {} but {} {} are listed",
                replay.result.turns,
                self.steps(),
                B::STEPS_NOUN
            ));
        }
        Ok(())
    }

    fn verify<E: ReplayBody>(&self, replay: &Replay<E>) -> Result<String, String> {
        GameBody::verify(self, replay)
    }

    fn frames<E: ReplayBody>(&self, replay: &Replay<E>, paint: terminal::Paint) -> Vec<String> {
        GameBody::frames(self, replay, paint)
    }
}

/// A game that has replays: its body, and how its viewer draws it.
pub trait ReplayGame: Game {
    type Body: ReplayBody + Serialize + DeserializeOwned + std::fmt::Debug + Clone + PartialEq + Send;
    /// The HTML viewer's drawing script for this game (`viewer.js` beside it).
    const VIEWER: &'static str;
    /// The body's list of turns ("turns", "plies", "steps"): what a live
    /// feed appends to.
    const TURNS: &'static str;
}

impl<B> Replay<B> {
    /// A replay of a game: the envelope around `body`.
    pub fn new(seed: u64, players: Vec<ReplayPlayer>, result: ReplayResult, body: B) -> Replay<B> {
        Replay {
            format: FORMAT.to_string(),
            version: VERSION,
            arena: env!("CARGO_PKG_VERSION").to_string(),
            seed,
            players,
            result,
            memory: None,
            body,
            notes: Vec::new(),
        }
    }

    /// The same replay with the players' `notes` beside its turns.
    pub fn with_notes(self, notes: Vec<notes::Note>) -> Replay<B> {
        Replay { notes, ..self }
    }

    /// The same replay around `body`: a game's own body as any game's
    /// (`games::replays::TableGame::any`).
    pub fn with_body<C>(self, body: impl FnOnce(B) -> C) -> Replay<C> {
        let Replay { format, version, arena, seed, players, result, memory, body: own, notes } = self;
        Replay { format, version, arena, seed, players, result, memory, body: body(own), notes }
    }
}

impl<B: ReplayBody> Replay<B> {
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
        // Either may quote the file's words (its result's reason).
        let plain = |text: String| plain::plain_text(&text).into_owned();
        self.body.verify(self).map(plain).map_err(plain)
    }

    /// The game for the terminal: the start, then one frame per turn, each
    /// with the notes its players wrote during it.
    pub fn frames(&self, paint: terminal::Paint) -> Vec<String> {
        let mut frames = self.body.frames(self, paint);
        notes::beside_frames(&mut frames, &self.notes, paint);
        frames
    }

    /// The replay with its words made plain (`report::plain`): every text
    /// in it without a terminal's control characters, the players' names
    /// and sources on one line. What the terminal viewer draws: a replay
    /// the arena wrote has none (its players' words were made plain as
    /// they were taken), but a file can say anything.
    pub fn plain(&self) -> Result<Self>
    where
        B: Serialize + DeserializeOwned,
    {
        let mut value = serde_json::to_value(self)?;
        plain_strings(&mut value);
        let mut replay: Self =
            serde_json::from_value(value).map_err(|e| anyhow!("the replay is damaged: {e}"))?;
        for player in &mut replay.players {
            player.name = plain::plain_line(&player.name).into_owned();
            player.source = plain::plain_line(&player.source).into_owned();
        }
        Ok(replay)
    }

    /// The replay as JSON text: a field per line, a turn per line.
    pub fn to_json(&self) -> String
    where
        B: Serialize,
    {
        json_text(self)
    }

    /// Writes the replay to `path`, gzip-compressed when the name ends in `.gz`.
    pub fn write(&self, path: &Path) -> Result<()>
    where
        B: Serialize,
    {
        let json = self.to_json();
        let bytes = if is_gzip_name(path) { gzip(json.as_bytes()) } else { json.into_bytes() };
        files::write_synced(path, &bytes)
    }

    /// Reads a replay file (plain or gzip JSON). Every problem is one line
    /// that names the file: not found, not JSON, not a replay, a format
    /// version this arena does not read, a game it does not know, damage.
    pub fn read(path: &Path) -> Result<Replay<B>>
    where
        B: DeserializeOwned,
    {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read the replay {}", path.display()))?;
        Replay::parse(&bytes).map_err(|e| anyhow!("{}: {e:#}", path.display()))
    }

    /// Parses replay bytes (plain or gzip JSON).
    pub fn parse(bytes: &[u8]) -> Result<Replay<B>>
    where
        B: DeserializeOwned,
    {
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
        let replay: Replay<B> =
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
        if let Some(note) = self.notes.iter().find(|n| n.seat >= self.players.len()) {
            return Err(format!("a note's seat {} is not a player index", note.seat));
        }
        if seats == 1 && (self.result.outcome.is_none() || self.result.score.is_none()) {
            return Err(format!("a {} replay's result needs its outcome and score", self.body.game()));
        }
        self.body.check(self)
    }
}

/// Every string in `value` (not its keys: a replay's are the arena's) made plain text.
fn plain_strings(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::String(text) => {
            if let std::borrow::Cow::Owned(plain) = plain::plain_text(text) {
                *text = plain;
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(plain_strings),
        serde_json::Value::Object(map) => map.values_mut().for_each(plain_strings),
        _ => {}
    }
}

/// A replay (or what serialises as one) as its file's text: a field per
/// line, a turn per line.
fn json_text(replay: &impl Serialize) -> String {
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, LineFormatter { open: Vec::new() });
    replay.serialize(&mut serializer).expect("plain data serialises");
    out.push(b'\n');
    String::from_utf8(out).expect("serde_json writes UTF-8")
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
