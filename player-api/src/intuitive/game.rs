//! `IntuitiveGame`: a game in progress (the hidden world and the view): a
//! reveal, and a forfeit.

use std::fmt;

use super::{
    cell::Cell,
    view::{Hint, IntuitiveView},
    world::{Content, IntuitiveWorld},
    GOLD_SCORE, INVALID_SCORE, MONSTER_SCORE, PIT_SCORE,
};

/// A game in progress: the hidden world and what the player has seen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct IntuitiveGame {
    world: IntuitiveWorld,
    view: IntuitiveView,
    over: bool,
}

/// What opening a cell showed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Revealed {
    /// The monster: +1, the game ends (won).
    Monster,
    /// A pit: -1, the game ends (lost).
    Pit,
    /// The gold: +1, the game goes on.
    Gold,
    /// A hint cell: the game goes on.
    Hint(Hint),
}

/// Why a reveal is invalid. An invalid reveal ends the game with score
/// [`INVALID_SCORE`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IllegalReveal {
    OffBoard,
    AlreadyOpen,
    GameOver,
}

impl fmt::Display for IllegalReveal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalReveal::OffBoard => write!(f, "off the board"),
            IllegalReveal::AlreadyOpen => write!(f, "already open"),
            IllegalReveal::GameOver => write!(f, "the game is over"),
        }
    }
}

impl fmt::Display for Revealed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Revealed::Monster => write!(f, "monster"),
            Revealed::Pit => write!(f, "pit"),
            Revealed::Gold => write!(f, "gold"),
            Revealed::Hint(hint) => write!(f, "{hint}"),
        }
    }
}

impl IntuitiveGame {
    /// The start of a game on `world`: its start cell is open.
    pub fn new(world: IntuitiveWorld) -> IntuitiveGame {
        IntuitiveGame { world, view: IntuitiveView::start(&world), over: false }
    }

    pub const fn world(&self) -> &IntuitiveWorld {
        &self.world
    }

    /// What the player sees.
    pub const fn view(&self) -> &IntuitiveView {
        &self.view
    }

    pub const fn is_over(&self) -> bool {
        self.over
    }

    pub const fn score(&self) -> i8 {
        self.view.score()
    }

    /// Whether revealing `cell` now is valid, and if so its cell number.
    pub fn check_reveal(&self, cell: Cell) -> Result<u8, IllegalReveal> {
        let index = cell.index(self.world.size()).ok_or(IllegalReveal::OffBoard)?;
        if self.over {
            Err(IllegalReveal::GameOver)
        } else if self.view.open().contains(index) {
            Err(IllegalReveal::AlreadyOpen)
        } else {
            Ok(index)
        }
    }

    /// Opens `cell`. An invalid reveal changes nothing here; the referee
    /// ends the game (see [`IntuitiveGame::forfeit`]).
    pub fn reveal(&mut self, cell: Cell) -> Result<Revealed, IllegalReveal> {
        let index = self.check_reveal(cell)?;
        Ok(match self.world.content(index) {
            Content::Monster => {
                self.view.add_score(MONSTER_SCORE);
                self.over = true;
                Revealed::Monster
            }
            Content::Pit => {
                self.view.add_score(PIT_SCORE);
                self.over = true;
                Revealed::Pit
            }
            Content::Gold => {
                self.view.add_score(GOLD_SCORE);
                self.view.open_gold(index);
                Revealed::Gold
            }
            Content::Hint(hint) => {
                self.view.open_hint(index, hint);
                Revealed::Hint(hint)
            }
        })
    }

    /// Ends the game after an invalid reveal: the score becomes [`INVALID_SCORE`].
    pub fn forfeit(&mut self) {
        self.view.add_score(INVALID_SCORE - self.view.score());
        self.over = true;
    }
}
