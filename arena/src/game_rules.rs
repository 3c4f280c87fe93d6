//! The game a match, a series or a tournament plays, with the settings
//! only that game has: what the command line and tournament files both
//! build (Trap's own settings are the shared `TrapSettings`).

use crate::{
    games::{hexapawn::Hexapawn, trap::Trap},
    games::hexapawn::referee::HexapawnSettings,
    solo::SoloSettings,
    two_player::TwoPlayerGame,
};

/// The game played, with what only that game has.
#[derive(Debug, Clone, PartialEq)]
pub enum GameRules {
    /// Its settings are the `TrapSettings` beside it.
    Trap,
    Hexapawn(HexapawnSettings),
    Solo(SoloSettings),
}

impl GameRules {
    pub fn name(&self) -> &'static str {
        match self {
            GameRules::Trap => <Trap as crate::game::Game>::ID.name(),
            GameRules::Hexapawn(_) => <Hexapawn as crate::game::Game>::ID.name(),
            GameRules::Solo(settings) => settings.game(),
        }
    }

    /// Whether its players learn across a pairing, which is then played
    /// whole and in order, on one thread (`TwoPlayerGame::LEARNS`).
    pub fn learns(&self) -> bool {
        match self {
            GameRules::Trap => Trap::LEARNS,
            GameRules::Hexapawn(_) => Hexapawn::LEARNS,
            GameRules::Solo(_) => false,
        }
    }
}
