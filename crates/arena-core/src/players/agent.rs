//! A game's players across the ABI (each game's `#[sabi_trait]` player
//! box) as agents a referee drives in the arena's process: `AbiGame`
//! says how to make and call a game's box (each game's glue implements it
//! in `games/<game>/mod.rs`), `AbiPlayer` is the one agent over any of them.
//! (A player in a worker process is `isolation::IsolatedPlayer`.)

use std::time::Duration;

use player_api::{
    abi::{Constructor, PlayerModule},
    params::{Param, Setup},
};

use crate::{
    game::{Agent, Game},
    play::fault::Fault,
    players::levels::Level,
};

/// A game whose players cross the ABI as a `#[sabi_trait]` box.
pub trait AbiGame: Game {
    /// The game's player object (a `player_api::abi::*PlayerBox`).
    type PlayerBox: Send + 'static;
    /// A new instance of a built-in reference bot.
    fn builtin(level: Level, setup: &Setup) -> Self::PlayerBox;
    /// The parameters a built-in reference bot takes in this game.
    fn builtin_params(_level: Level) -> Vec<Param> {
        Vec::new()
    }
    /// The library's constructor of this game's players, if it has one
    /// (the game's accessor of `player_api::abi::PlayerModule`, whatever
    /// ABI version the library was built for).
    fn constructor(library: PlayerModule) -> Option<Constructor<Self::PlayerBox>>;
    /// The calls through the box; `Err` is a panic the library caught.
    fn box_new_game(player: &mut Self::PlayerBox, info: Self::Info) -> Result<(), String>;
    fn box_act(player: &mut Self::PlayerBox, request: Self::Request) -> Result<Self::Action, String>;
    fn box_game_over(player: &mut Self::PlayerBox, over: Self::Over) -> Result<(), String>;
    /// The memory the player hands back at the end of a match.
    fn box_save_memory(player: &mut Self::PlayerBox) -> Result<Option<Vec<u8>>, String>;
}

/// A player of the ABI in the arena's process: calls straight through the
/// box. A call that never returns cannot be stopped here; isolated players
/// can be.
pub struct AbiPlayer<G: AbiGame>(pub G::PlayerBox);

impl<G: AbiGame> Agent<G> for AbiPlayer<G> {
    fn new_game(&mut self, info: G::Info, _budget: Duration) -> Result<(), Fault> {
        G::box_new_game(&mut self.0, info).map_err(Fault::Panicked)
    }

    fn act(&mut self, request: G::Request, _budget: Duration) -> Result<G::Action, Fault> {
        G::box_act(&mut self.0, request).map_err(Fault::Panicked)
    }

    fn game_over(&mut self, over: G::Over) {
        if let Err(panic) = G::box_game_over(&mut self.0, over) {
            tracing::warn!("a player panicked in game_over: {panic}");
        }
    }

    fn save_memory(&mut self, _budget: Duration) -> Result<Option<Vec<u8>>, Fault> {
        G::box_save_memory(&mut self.0).map_err(Fault::Panicked)
    }
}

impl<G: AbiGame> AbiPlayer<G> {
    /// A new instance of a built-in reference bot.
    pub fn builtin(level: Level) -> AbiPlayer<G> {
        AbiPlayer(G::builtin(level, &Setup::default()))
    }
}
