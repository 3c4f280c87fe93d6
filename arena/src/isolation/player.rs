//! IsolatedPlayer: an agent of every game whose player runs in a worker
//! process (`process.rs`): each request as a protocol frame, each reply
//! checked and turned back into the game's action. `WireGame` says how, for
//! one game; each game's glue implements it in `games/<game>/mod.rs`.

use std::time::Duration;

use player_api::{GameOver, Outcome, Seat};

use super::process::{Hosted, Worker, WorkerLimits};
use crate::{
    fault::Fault,
    game::{Agent, Game, GameId},
    protocol::{seat_from_number, Reply, Request, WireConfig, WireCoord},
};

/// A player in its own worker process.
pub struct IsolatedPlayer {
    worker: Worker,
    name: String,
}

impl IsolatedPlayer {
    /// A player of game `G` in a new worker (`Unavailable` if it does not
    /// play `G`).
    pub fn start<G: Game>(hosted: &Hosted, limits: &WorkerLimits, startup: Duration) -> Result<IsolatedPlayer, Fault> {
        IsolatedPlayer::start_for(G::ID, hosted, limits, startup)
    }

    /// A player of `game` in a new worker.
    pub fn start_for(
        game: GameId,
        hosted: &Hosted,
        limits: &WorkerLimits,
        startup: Duration,
    ) -> Result<IsolatedPlayer, Fault> {
        let worker = Worker::spawn(hosted, limits, startup)?;
        if !worker.hello.games.iter().any(|g| g == game.name()) {
            return Err(Fault::Unavailable(format!("{} does not play {game}", worker.hello.name)));
        }
        let name = worker.hello.name.clone();
        Ok(IsolatedPlayer { worker, name })
    }

    fn log_output(&mut self) {
        let output = self.worker.take_output();
        if !output.is_empty() {
            tracing::info!(player = %self.name, "output:\n{}", output.text());
        }
    }

    fn start_game(&mut self, request: &Request, budget: Duration) -> Result<(), Fault> {
        self.worker.reset_output_allowance();
        match self.ask(request, "new_game", budget)? {
            Reply::Ok => Ok(()),
            other => Err(self.unexpected("ok", other)),
        }
    }

    /// A reply of the wrong kind: the worker is not speaking the protocol.
    fn unexpected(&mut self, expected: &str, got: Reply) -> Fault {
        self.worker.fail(Fault::Protocol(format!("expected {expected}, got {got:?}")))
    }

    fn tell_game_over(&mut self, over: GameOverRequest) {
        if self.worker.is_dead() {
            return;
        }
        let request = Request::GameOver {
            outcome: over.outcome.into(),
            turns: over.turns,
            reason: over.reason,
            score: over.score,
            forests_cleared: over.forests_cleared,
            deaths: over.deaths,
        };
        if let Err(fault) = self.ask(&request, "game_over", Duration::from_secs(1)) {
            tracing::warn!(player = %self.name, "game_over failed: {fault}");
        }
    }

    fn ask(&mut self, request: &Request, what: &'static str, budget: Duration) -> Result<Reply, Fault> {
        let reply = self.worker.request(request, what, budget);
        self.log_output();
        match reply? {
            Reply::Error { message } => Err(Fault::Panicked(message)),
            Reply::Invalid { message } => Err(Fault::InvalidAction(message)),
            reply => Ok(reply),
        }
    }
}

/// A game's calls on the wire (docs/protocol.md): each call of `Agent<G>`
/// as a frame, and a reply as the game's action.
pub trait WireGame: Game {
    /// What the request for an action is called in errors and logs.
    const ACT: &'static str;
    /// The `new_game` frame.
    fn new_game_frame(info: &Self::Info) -> Request;
    /// The frame asking for one turn or step, with the call's budget.
    fn act_frame(request: &Self::Request, budget: Duration) -> Request;
    /// What a reply to that frame answers.
    fn action(reply: Reply) -> WireAnswer<Self::Action>;
    /// What `game_over` tells the player.
    fn game_over_frame(over: Self::Over) -> GameOverRequest;

    // The worker's side, each the inverse of the one above.

    /// What the player is told, read from a `new_game` frame.
    fn info_of(frame: &NewGameFrame) -> Result<Self::Info, String>;
    /// A request read from its frame (`Err` with why it is bad); None if
    /// the frame is not this game's request.
    fn request_of(frame: &Request) -> Option<Result<Self::Request, String>>;
    /// The action as a reply frame.
    fn reply_of(action: Self::Action) -> Reply;
    /// What the player is told at the end, read from its frame.
    fn over_of(over: GameOverRequest) -> Self::Over;
}

/// The fields of a `new_game` frame, for a game to read its start from.
pub struct NewGameFrame {
    pub seat: Option<u8>,
    pub size: Option<u8>,
    pub turn_budget_us: u64,
    pub seed: u64,
    pub config: Option<WireConfig>,
    pub start: Option<WireCoord>,
    pub arrows: Option<u8>,
}

impl NewGameFrame {
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

/// A reply read as a game's action.
pub enum WireAnswer<A> {
    Action(A),
    /// An action the wire form cannot carry (an unknown name, a cell off
    /// any board): the player loses, the worker is fine.
    Invalid(String),
    /// A reply of another kind: the worker does not speak the protocol.
    Unexpected {
        expected: &'static str,
        got: Reply,
    },
}

impl<A> WireAnswer<A> {
    /// An action as read from the wire: read, or invalid with why.
    pub fn read(read: Result<A, String>) -> WireAnswer<A> {
        match read {
            Ok(action) => WireAnswer::Action(action),
            Err(why) => WireAnswer::Invalid(why),
        }
    }

    /// The reply to a single-player game's `step`: an action by name (and
    /// direction), read by the game's `parse`.
    pub fn step(reply: Reply, parse: fn(&str, Option<&str>) -> Result<A, String>) -> WireAnswer<A> {
        match reply {
            Reply::Action { action, dir } => WireAnswer::read(parse(&action, dir.as_deref())),
            got => WireAnswer::Unexpected { expected: "an action", got },
        }
    }
}

impl<G: WireGame> Agent<G> for IsolatedPlayer {
    fn new_game(&mut self, info: G::Info, budget: Duration) -> Result<(), Fault> {
        self.start_game(&G::new_game_frame(&info), budget)
    }

    fn act(&mut self, request: G::Request, budget: Duration) -> Result<G::Action, Fault> {
        let reply = self.ask(&G::act_frame(&request, budget), G::ACT, budget)?;
        match G::action(reply) {
            WireAnswer::Action(action) => Ok(action),
            WireAnswer::Invalid(why) => Err(Fault::InvalidAction(why)),
            WireAnswer::Unexpected { expected, got } => Err(self.unexpected(expected, got)),
        }
    }

    fn game_over(&mut self, over: G::Over) {
        self.tell_game_over(G::game_over_frame(over));
    }
}

/// What `game_over` tells a player, whatever the game.
pub struct GameOverRequest {
    pub outcome: Outcome,
    pub turns: u32,
    pub reason: String,
    pub score: Option<i32>,
    pub forests_cleared: Option<u32>,
    pub deaths: Option<u32>,
}

impl GameOverRequest {
    /// What a two-player game tells its players.
    pub fn game_over(self) -> GameOver {
        GameOver { outcome: self.outcome, turns: self.turns, reason: self.reason.into() }
    }
}

impl From<GameOver> for GameOverRequest {
    fn from(r: GameOver) -> GameOverRequest {
        GameOverRequest {
            outcome: r.outcome,
            turns: r.turns,
            reason: r.reason.into(),
            score: None,
            forests_cleared: None,
            deaths: None,
        }
    }
}
