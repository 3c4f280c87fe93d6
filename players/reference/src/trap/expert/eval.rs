//! How good a position is for the player about to act, as an expected score
//! in (-1, 1): a trapped player is exactly -1 or 1, so an estimate must stay
//! strictly inside, and the chance nodes' bounds stay tight.
//!
//! Mobility alone (the course's heuristics) misses what decides most games
//! late: the board splits into regions, and a player whose region is small
//! is trapped soon whatever its mobility now. So the estimate adds the cells
//! each player reaches first (a simultaneous flood fill: a Voronoi split of
//! the free cells) and penalises being one or two cells from trapped.

use player_api::{trap::Bitboard, Seat};

const NOT_FIRST_COLUMN: u64 = !0x0101_0101_0101_0101;
const NOT_LAST_COLUMN: u64 = !0x8080_8080_8080_8080;

/// Every cell one king step from a cell of `cells` (the cells included).
pub fn dilate(cells: u64) -> u64 {
    let row = cells | ((cells << 1) & NOT_FIRST_COLUMN) | ((cells >> 1) & NOT_LAST_COLUMN);
    row | (row << 8) | (row >> 8)
}

/// Cells each player reaches strictly before the other, through free cells.
pub fn territory(board: &Bitboard, me: Seat) -> (u32, u32) {
    let free = board.free();
    let (mut mine, mut theirs) = (1u64 << board.at(me), 1u64 << board.at(me.other()));
    let mut seen = mine | theirs;
    let (mut my_count, mut their_count) = (0, 0);
    loop {
        let my_next = dilate(mine) & free & !seen;
        let their_next = dilate(theirs) & free & !seen;
        if my_next | their_next == 0 {
            return (my_count, their_count);
        }
        let both = my_next & their_next;
        my_count += (my_next & !both).count_ones();
        their_count += (their_next & !both).count_ones();
        seen |= my_next | their_next;
        mine = my_next;
        theirs = their_next;
    }
}

/// What having only `mobility` free neighbours costs: one or two is a throw
/// or two from being trapped.
const DANGER: [f64; 9] = [6.0, 3.0, 1.2, 0.4, 0.0, 0.0, 0.0, 0.0, 0.0];

/// The estimate's weights: Expert's parameters (`Expert::params`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// x (own mobility - the opponent's) (`mobility`).
    pub mobility: f64,
    /// x (cells reached first - the opponent's) (`territory`).
    pub territory: f64,
    /// x the cost of being one or two cells from trapped (`danger`).
    pub danger: f64,
    /// What acting next is worth, about one cell (`tempo`).
    pub tempo: f64,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights { mobility: 1.0, territory: 0.25, danger: 1.0, tempo: 0.5 }
    }
}

/// The estimate for `me`, who acts next (moves, then throws), at the
/// default weights.
pub fn evaluate(board: &Bitboard, me: Seat) -> f64 {
    Weights::default().evaluate(board, me)
}

impl Weights {
    /// The estimate for `me`, who acts next (moves, then throws).
    pub fn evaluate(&self, board: &Bitboard, me: Seat) -> f64 {
        let them = me.other();
        let (my_moves, their_moves) = (board.mobility(me), board.mobility(them));
        let (my_area, their_area) = territory(board, me);
        let score = self.mobility * (f64::from(my_moves) - f64::from(their_moves))
            + self.territory * (f64::from(my_area) - f64::from(their_area))
            + self.danger * DANGER[their_moves as usize]
            - self.danger * DANGER[my_moves as usize]
            + self.tempo;
        0.95 * score / (score.abs() + 8.0)
    }
}
