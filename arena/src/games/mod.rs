//! Each game's glue, one module per game: how the arena's generic pieces
//! (`game::Agent`, `agent::AbiPlayer`, `referee::InProcess`,
//! `isolation::IsolatedPlayer`) reach that game's types in `player-api`,
//! its ABI box and its wire form. The game types themselves (`game::Trap`,
//! ...) and their ids are in `game.rs`.

pub mod hexapawn;
pub mod intuitive;
pub mod magic_forest;
pub mod trap;
pub mod wumpus;

pub use trap::play_turn;
