//! IsolatedPlayer: an agent of every game whose player runs in a worker
//! process (`process.rs`): each request as a protocol frame, each reply
//! checked and turned back into the game's action.

use std::time::Duration;

use player_api::{
    hexapawn::{HexapawnAction, HexapawnGameInfo, HexapawnRequest},
    intuitive::{Cell, IntuitiveGameInfo, IntuitiveGameOver, IntuitiveRequest},
    magic_forest::{ForestAction, ForestGameInfo, ForestOver, ForestRequest},
    trap::{TrapGameInfo, TrapRequest},
    wumpus::{WumpusAction, WumpusGameInfo, WumpusOver, WumpusRequest},
    GameOver, Outcome,
};

use super::process::{Hosted, Worker, WorkerLimits};
use crate::{
    fault::Fault,
    games::GameId,
    protocol::{
        forest_action, hexapawn_move, reveal_cell, wire_start, wumpus_action, Reply, Request, WireBoard,
        WireConfig, WireForestConfig, WireForestState, WireState, WireStepState, WireView, WireWumpusConfig,
        WireWumpusState,
    },
    referee::trap::{TrapAgent, TurnActions},
    referee::{
        hexapawn::HexapawnAgent, intuitive::IntuitiveAgent, magic_forest::ForestAgent, wumpus::WumpusAgent,
    },
};

/// A player in its own worker process.
pub struct IsolatedPlayer {
    worker: Worker,
    name: String,
}

impl IsolatedPlayer {
    /// A Trap player in a new worker.
    pub fn start(hosted: &Hosted, limits: &WorkerLimits, startup: Duration) -> Result<IsolatedPlayer, Fault> {
        IsolatedPlayer::start_for(GameId::Trap, hosted, limits, startup)
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

    /// One step of a single-player game: the state out, an action back,
    /// read by the game's `parse`.
    fn step_action<A>(
        &mut self,
        state: WireStepState,
        budget: Duration,
        parse: fn(&str, Option<&str>) -> Result<A, String>,
    ) -> Result<A, Fault> {
        let wire = Request::Step { time_left_us: budget.as_micros() as u64, state };
        match self.ask(&wire, "step", budget)? {
            Reply::Action { action, dir } => parse(&action, dir.as_deref()).map_err(Fault::InvalidAction),
            other => Err(self.unexpected("an action", other)),
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

impl TrapAgent for IsolatedPlayer {
    fn new_game(&mut self, info: TrapGameInfo, budget: Duration) -> Result<(), Fault> {
        let request = Request::NewGame {
            game: GameId::Trap.name().into(),
            seat: Some(info.seat.number()),
            size: Some(info.size),
            turn_budget_us: info.turn_budget_us,
            seed: info.seed,
            config: None,
            start: None,
            arrows: None,
        };
        self.start_game(&request, budget)
    }

    fn turn(&mut self, request: TrapRequest, budget: Duration) -> Result<TurnActions, Fault> {
        let wire = Request::Turn {
            seat: request.seat.number(),
            turn: request.turn,
            time_left_us: request.time_left_us,
            state: WireState::from(&request.state),
        };
        match self.ask(&wire, "turn", budget)? {
            Reply::Turn { step, trap } => Ok(TurnActions { step, trap }),
            other => Err(self.worker.fail(Fault::Protocol(format!("expected a turn, got {other:?}")))),
        }
    }

    fn game_over(&mut self, result: GameOver) {
        self.tell_game_over(GameOverRequest::from(result));
    }
}

/// What `game_over` tells a player, whatever the game.
struct GameOverRequest {
    outcome: Outcome,
    turns: u32,
    reason: String,
    score: Option<i32>,
    forests_cleared: Option<u32>,
    deaths: Option<u32>,
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

impl IntuitiveAgent for IsolatedPlayer {
    fn new_game(&mut self, info: IntuitiveGameInfo, budget: Duration) -> Result<(), Fault> {
        let request = Request::NewGame {
            game: GameId::IntuitiveAi.name().into(),
            seat: None,
            size: Some(info.size),
            turn_budget_us: info.turn_budget_us,
            seed: info.seed,
            config: None,
            start: None,
            arrows: None,
        };
        self.start_game(&request, budget)
    }

    fn reveal(&mut self, request: IntuitiveRequest, budget: Duration) -> Result<Cell, Fault> {
        let wire = Request::Reveal {
            turn: request.turn,
            time_left_us: request.time_left_us,
            state: WireView::from(&request.view),
        };
        match self.ask(&wire, "turn", budget)? {
            Reply::Reveal { cell } => reveal_cell(cell).map_err(Fault::InvalidAction),
            other => Err(self.unexpected("a reveal", other)),
        }
    }

    fn game_over(&mut self, result: IntuitiveGameOver) {
        let over = GameOver { outcome: result.outcome, turns: result.turns, reason: result.reason };
        self.tell_game_over(GameOverRequest { score: Some(result.score.into()), ..over.into() });
    }
}

impl HexapawnAgent for IsolatedPlayer {
    fn new_game(&mut self, info: HexapawnGameInfo, budget: Duration) -> Result<(), Fault> {
        let request = Request::NewGame {
            game: GameId::Hexapawn.name().into(),
            seat: Some(info.seat.number()),
            size: None,
            turn_budget_us: info.turn_budget_us,
            seed: info.seed,
            config: None,
            start: None,
            arrows: None,
        };
        self.start_game(&request, budget)
    }

    fn get_move(&mut self, request: HexapawnRequest, budget: Duration) -> Result<HexapawnAction, Fault> {
        let wire = Request::GetMove {
            seat: request.seat.number(),
            ply: request.ply,
            time_left_us: request.time_left_us,
            state: WireBoard::from(&request.board),
        };
        match self.ask(&wire, "turn", budget)? {
            Reply::Move { from, to } => {
                hexapawn_move(from, to).map(HexapawnAction::Move).map_err(Fault::InvalidAction)
            }
            Reply::Resign => Ok(HexapawnAction::Resign),
            other => Err(self.unexpected("a move", other)),
        }
    }

    fn game_over(&mut self, result: GameOver) {
        self.tell_game_over(result.into());
    }
}

impl WumpusAgent for IsolatedPlayer {
    fn new_game(&mut self, info: WumpusGameInfo, budget: Duration) -> Result<(), Fault> {
        let request = Request::NewGame {
            game: GameId::Wumpus.name().into(),
            seat: None,
            size: None,
            turn_budget_us: info.step_budget_us,
            seed: info.seed,
            config: Some(WireConfig::Wumpus(WireWumpusConfig::from(&info.config))),
            start: Some(wire_start(info.start)),
            arrows: Some(info.arrows),
        };
        self.start_game(&request, budget)
    }

    fn step(&mut self, request: WumpusRequest, budget: Duration) -> Result<WumpusAction, Fault> {
        self.step_action(WireStepState::Wumpus(WireWumpusState::from(&request)), budget, wumpus_action)
    }

    fn game_over(&mut self, result: WumpusOver) {
        let over = GameOver { outcome: result.outcome, turns: result.actions, reason: result.reason };
        self.tell_game_over(GameOverRequest { score: Some(result.score), ..over.into() });
    }
}

impl ForestAgent for IsolatedPlayer {
    fn new_game(&mut self, info: ForestGameInfo, budget: Duration) -> Result<(), Fault> {
        let request = Request::NewGame {
            game: GameId::MagicForest.name().into(),
            seat: None,
            size: None,
            turn_budget_us: info.step_budget_us,
            seed: info.seed,
            config: Some(WireConfig::Forest(WireForestConfig::from(&info.config))),
            start: None,
            arrows: None,
        };
        self.start_game(&request, budget)
    }

    fn step(&mut self, request: ForestRequest, budget: Duration) -> Result<ForestAction, Fault> {
        self.step_action(WireStepState::Forest(WireForestState::from(&request)), budget, forest_action)
    }

    fn game_over(&mut self, result: ForestOver) {
        let over = GameOver { outcome: result.outcome, turns: result.actions, reason: result.reason };
        self.tell_game_over(GameOverRequest {
            score: Some(result.score),
            forests_cleared: Some(result.forests_cleared),
            deaths: Some(result.deaths),
            ..over.into()
        });
    }
}
