//! Referees: one per game. A referee keeps the true state itself, asks the
//! players for actions, validates every one against the rules in
//! `player-api`, draws every chance event from its seeded generator, times
//! every call, and records how the game ended and why.
//!
//! Given the same seed and the same player actions, a referee produces the
//! same game, bit for bit.

pub(crate) mod calls;

use std::time::Duration;

use crate::{
    game::{Agent, Game},
    play::fault::Fault,
};

/// A game whose players can run in the arena's process as plain Rust
/// objects (the game's player trait in `player_api`): how to call one.
/// Implemented in `games/<game>/mod.rs`.
pub trait LocalGame: Game {
    /// The player trait object (`dyn <Game>Player + 'a`).
    type Player<'a>: ?Sized;
    fn local_new_game(player: &mut Self::Player<'_>, info: &Self::Info);
    fn local_act(player: &mut Self::Player<'_>, request: &Self::Request) -> Self::Action;
    fn local_game_over(player: &mut Self::Player<'_>, over: &Self::Over);
}

/// A player in the arena's process; a panic becomes `Fault::Panicked`.
pub struct InProcess<'a, G: LocalGame>(pub &'a mut G::Player<'a>);

impl<G: LocalGame> Agent<G> for InProcess<'_, G> {
    fn new_game(&mut self, info: G::Info, _budget: Duration) -> Result<(), Fault> {
        calls::caught(|| G::local_new_game(self.0, &info))
    }

    fn act(&mut self, request: G::Request, _budget: Duration) -> Result<G::Action, Fault> {
        calls::caught(|| G::local_act(self.0, &request))
    }

    fn game_over(&mut self, over: G::Over) {
        let _ = calls::caught(|| G::local_game_over(self.0, &over));
    }
}
