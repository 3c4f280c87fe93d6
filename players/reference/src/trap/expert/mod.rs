//! Expert: a reference level beyond the course's Hard, the strongest player
//! we build. Iterative-deepening expectiminimax over whole turns with
//! alpha-beta, chance nodes over the full landing distribution (Star1),
//! a Zobrist-keyed transposition table, move ordering, an evaluation that
//! sees regions as well as mobility, and a time manager that aims well
//! inside the turn's budget.
//!
//! `get_move` searches the whole turn (step and target together) and keeps
//! the target; `get_trap` answers with it when the position is the one it
//! planned for, else searches the throw alone.

mod clock;
mod eval;
mod search;
mod table;

use std::time::Duration;

use player_api::{
    params::{Param, Setup},
    trap::{Bitboard, Pos, TrapPlayer, TrapRequest, TrapState},
    Seat,
};

use self::{clock::Deadline, search::Search, table::Table};
use super::pick::fallback_target;

pub use eval::{evaluate, territory, Weights};
pub use search::{Found, Judged, WIN};

/// Entries in the transposition table: 2^18 x 16 bytes = 4 MiB (a 0.1 s
/// search stores about 100,000 positions).
const TABLE_BITS: u32 = 18;
/// Entries in the table of a judged turn: 2^16 x 16 bytes = 1 MiB, fresh
/// for each turn so that a turn's values never depend on what was judged
/// before it.
const JUDGE_TABLE_BITS: u32 = 16;
/// Deeper than any game lasts: the clock ends the search.
const MAX_DEPTH: u32 = 64;

pub struct Expert {
    table: Table,
    /// The position after the planned step, and the target planned for it.
    planned: Option<(Bitboard, u32)>,
    /// The evaluation's weights: its parameters.
    weights: Weights,
    /// Positions its turns have searched so far.
    searched: u64,
}

impl Default for Expert {
    fn default() -> Self {
        Expert { table: Table::new(TABLE_BITS), planned: None, weights: Weights::default(), searched: 0 }
    }
}

impl Expert {
    /// The parameters Expert accepts (its evaluation's weights), at
    /// today's values.
    pub fn params() -> Vec<Param> {
        let w = Weights::default();
        vec![
            Param::float("mobility", w.mobility, 0.0, 10.0),
            Param::float("territory", w.territory, 0.0, 10.0),
            Param::float("danger", w.danger, 0.0, 10.0),
            Param::float("tempo", w.tempo, -5.0, 5.0),
        ]
    }

    /// Expert with the weights `setup` gives (the defaults for the others).
    pub fn from_setup(setup: &Setup) -> Expert {
        let setup = setup.clone().with_defaults(&Expert::params());
        let weights = Weights {
            mobility: setup.get_f64("mobility"),
            territory: setup.get_f64("territory"),
            danger: setup.get_f64("danger"),
            tempo: setup.get_f64("tempo"),
        };
        Expert { weights, ..Expert::default() }
    }

    /// Positions its turns have searched so far (`Found::nodes`, summed):
    /// how far it thinks in the time it takes, for measurements.
    pub fn nodes_searched(&self) -> u64 {
        self.searched
    }

    /// Searches the turn of `seat` in `state` for `time` (or to `max_depth`
    /// turns, whichever comes first): for benchmarks and analysis.
    pub fn analyse(&mut self, state: &TrapState, seat: Seat, time: Duration, max_depth: u32) -> Found {
        Search::new(&mut self.table, Deadline::fixed(time)).weighted(self.weights).best_turn(
            &state.bitboard(),
            seat,
            max_depth,
        )
    }
}

/// Judges the turn `seat` played in `state` (`step`, then `target` unless
/// the step won) against the best turn, by a search of about `budget`
/// nodes (`Search::judge_turn`): deterministic, for analysis.
pub fn judge(state: &TrapState, seat: Seat, step: Pos, target: Option<Pos>, budget: u64) -> Judged {
    let mut table = Table::new(JUDGE_TABLE_BITS);
    let square = |p: Pos| u32::from(p.row) * 8 + u32::from(p.col);
    Search::new(&mut table, Deadline::fixed(std::time::Duration::from_secs(86_400))).judge_turn(
        &state.bitboard(),
        seat,
        square(step),
        target.map(square),
        budget,
    )
}

fn pos(square: u32) -> Pos {
    Pos::new((square / 8) as u8, (square % 8) as u8)
}

impl TrapPlayer for Expert {
    fn get_move(&mut self, req: &TrapRequest) -> Pos {
        let board = req.state.bitboard();
        let deadline = Deadline::for_turn(req.time_left());
        let found = Search::new(&mut self.table, deadline)
            .weighted(self.weights)
            .best_turn(&board, req.seat, MAX_DEPTH);
        self.searched += found.nodes;
        let mut after = board;
        after.step(req.seat, found.step);
        self.planned = found.target.map(|target| (after, target));
        pos(found.step)
    }

    fn get_trap(&mut self, req: &TrapRequest) -> Pos {
        let board = req.state.bitboard();
        let target = match self.planned.take() {
            Some((planned, target)) if planned == board => target,
            _ => {
                let deadline = Deadline::for_turn(req.time_left());
                let found = Search::new(&mut self.table, deadline)
                    .weighted(self.weights)
                    .best_throw(&board, req.seat, MAX_DEPTH);
                self.searched += found.nodes;
                match found.target {
                    Some(target) => target,
                    None => return fallback_target(&req.state, req.opponent()),
                }
            }
        };
        pos(target)
    }
}
