//! Each game's glue, one module per game: how the arena's generic pieces
//! (`game::Agent`, `agent::AbiPlayer`, `referee::InProcess`,
//! `isolation::IsolatedPlayer`) reach that game's types in `player-api`,
//! its ABI box and its wire form. The game types themselves (`game::Trap`,
//! ...) and their ids are in `game.rs`.

mod hexapawn;
mod intuitive;
mod magic_forest;
mod trap;
mod wumpus;

pub use trap::play_turn;
