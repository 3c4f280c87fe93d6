//! IsolatedPlayer: an agent of every game whose player runs in a worker
//! process (`process.rs`): each request as a protocol frame, each reply
//! checked and turned back into the game's action. `WireGame` says how, for
//! one game; each game's glue implements it in `games/<game>/mod.rs`.

use std::time::Duration;

use player_api::params::Setup;

use super::{
    launch::{Hosted, WorkerLimits},
    process::Worker,
};
use crate::{
    game::{Agent, Game, GameId, Printed},
    play::fault::Fault,
    play::time_control::TimeBank,
    players::protocol::{self, GameOverRequest, NewGameRequest, Reply, Request, SetupRequest},
};

/// A player in its own worker process.
pub struct IsolatedPlayer {
    worker: Worker,
    name: String,
    /// The time bank to tell with the next request for an action.
    bank: Option<TimeBank>,
    /// What it printed during its last request, and during its last turn
    /// (its notes, until taken).
    printed: Option<Printed>,
    notes: Option<Printed>,
}

impl IsolatedPlayer {
    /// A player of game `G` in a new worker (`Unavailable` if it does not
    /// play `G`).
    pub fn start<G: Game>(
        hosted: &Hosted,
        limits: &WorkerLimits,
        startup: Duration,
    ) -> Result<IsolatedPlayer, Fault> {
        IsolatedPlayer::start_for(G::ID, hosted, limits, startup)
    }

    /// A player of `game` in a new worker.
    pub fn start_for(
        game: GameId,
        hosted: &Hosted,
        limits: &WorkerLimits,
        startup: Duration,
    ) -> Result<IsolatedPlayer, Fault> {
        IsolatedPlayer::from_worker(game, Worker::spawn(hosted, limits, startup)?)
    }

    /// A player of `game` in `worker`, started and not yet asked anything.
    pub fn from_worker(game: GameId, worker: Worker) -> Result<IsolatedPlayer, Fault> {
        if !worker.hello.games.iter().any(|g| g == game.name()) {
            return Err(Fault::Unavailable(format!("{} does not play {game}", worker.hello.name)));
        }
        let name = worker.hello.name.clone();
        Ok(IsolatedPlayer { worker, name, bank: None, printed: None, notes: None })
    }

    /// Tells the player what it is made with (`setup`), if it declared
    /// parameters or memory and there is anything to tell: its memory only
    /// if it keeps one.
    pub fn set_up(&mut self, setup: &Setup, budget: Duration) -> Result<(), Fault> {
        let hello = &self.worker.hello;
        let setup = if hello.memory { setup.clone() } else { setup.clone().with_memory(None) };
        if (hello.params.is_empty() && !hello.memory) || setup.is_empty() {
            return Ok(());
        }
        match self.ask(&Request::Setup(SetupRequest::from(&setup)), "setup", budget)? {
            Reply::Ok => Ok(()),
            other => Err(self.unexpected("ok", other)),
        }
    }

    /// The memory the player hands back at the end of a match, if it keeps one.
    pub fn take_memory(&mut self, budget: Duration) -> Result<Option<Vec<u8>>, Fault> {
        if !self.worker.hello.memory || self.worker.is_dead() {
            return Ok(None);
        }
        match self.ask(&Request::SaveMemory, "save_memory", budget)? {
            Reply::Memory { data: None } => Ok(None),
            Reply::Memory { data: Some(text) } => {
                protocol::decode_memory(&text).map(Some).map_err(|why| self.worker.fail(Fault::Protocol(why)))
            }
            other => Err(self.unexpected("memory", other)),
        }
    }

    fn log_output(&mut self) {
        let output = self.worker.take_output();
        self.printed = None;
        if !output.is_empty() {
            tracing::info!(player = %self.name, "output:\n{}", output.text());
            let (bytes, dropped) = output.printed();
            self.printed = Some(Printed { bytes, dropped });
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
        if let Err(fault) = self.ask(&Request::GameOver(over), "game_over", Duration::from_secs(1)) {
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
    /// What the `new_game` frame says.
    fn new_game_frame(info: &Self::Info) -> NewGameRequest;
    /// The frame asking for one turn or step, with the call's budget.
    fn act_frame(request: &Self::Request, budget: Duration) -> Request;
    /// What a reply to that frame answers.
    fn action(reply: Reply) -> WireAnswer<Self::Action>;
    /// What the `game_over` frame tells the player.
    fn game_over_frame(over: Self::Over) -> GameOverRequest;

    // The worker's side, each the inverse of the one above.

    /// What the player is told, read from a `new_game` frame.
    fn info_of(new_game: &NewGameRequest) -> Result<Self::Info, String>;
    /// A request read from its frame (`Err` with why it is bad); None if
    /// the frame is not this game's request.
    fn request_of(frame: &Request) -> Option<Result<Self::Request, String>>;
    /// The action as a reply frame.
    fn reply_of(action: Self::Action) -> Reply;
    /// What the player is told at the end, read from its frame.
    fn over_of(over: GameOverRequest) -> Self::Over;
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
        self.start_game(&Request::NewGame(G::new_game_frame(&info)), budget)
    }

    fn act(&mut self, request: G::Request, budget: Duration) -> Result<G::Action, Fault> {
        let frame = G::act_frame(&request, budget).with_bank(self.bank.take());
        let reply = self.ask(&frame, G::ACT, budget);
        // Kept even when the turn failed: a crash's or a timeout's last words.
        self.notes = self.printed.take();
        let reply = reply?;
        match G::action(reply) {
            WireAnswer::Action(action) => Ok(action),
            WireAnswer::Invalid(why) => Err(Fault::InvalidAction(why)),
            WireAnswer::Unexpected { expected, got } => Err(self.unexpected(expected, got)),
        }
    }

    fn time_bank(&mut self, bank: TimeBank) -> Result<(), Fault> {
        self.bank = Some(bank);
        Ok(())
    }

    fn game_over(&mut self, over: G::Over) {
        self.tell_game_over(G::game_over_frame(over));
    }

    fn save_memory(&mut self, budget: Duration) -> Result<Option<Vec<u8>>, Fault> {
        self.take_memory(budget)
    }

    fn take_notes(&mut self) -> Option<Printed> {
        self.notes.take()
    }
}
