//! Values shared by every game: seats and how a game ended.

use std::fmt;

use abi_stable::{std_types::RString, StableAbi};

/// A seat at a two-player table. Player 1 moves first.
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Seat {
    One = 0,
    Two = 1,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::One, Seat::Two];

    /// The other seat.
    pub const fn other(self) -> Seat {
        match self {
            Seat::One => Seat::Two,
            Seat::Two => Seat::One,
        }
    }

    /// 0 for player 1, 1 for player 2: an index into per-seat arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The course's player number: 1 or 2.
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.number())
    }
}

/// How a game ended, from the point of view of the player told.
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

/// What a player is told when a game ends.
#[repr(C)]
#[derive(StableAbi, Clone, PartialEq, Eq, Debug)]
pub struct GameOver {
    pub outcome: Outcome,
    /// Turns played in the game, both players counted.
    pub turns: u32,
    /// Why the game ended, as the arena records it ("trapped", "timeout: ...").
    pub reason: RString,
}
