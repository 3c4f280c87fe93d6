use player_api::wumpus::WumpusAction;

use super::{
    explorer::{Explorer, Stuck, Temper},
    head_out,
};

/// Medium: a logical agent. A square is safe when no world consistent with
/// the percepts puts a pit or a live wumpus there (model checking over the
/// frontier: "chance exactly 0"). It explores the nearest safe square,
/// shoots only when a shot kills for certain, and never gambles: with
/// nothing safe left it goes back and climbs out.
pub type Medium = Explorer<Logical>;

/// Medium's temper: certainty only.
#[derive(Default, Clone)]
pub struct Logical;

impl Temper for Logical {
    /// Only a shot that kills for certain (up to rounding).
    const MIN_KILL: f64 = 1.0 - 1e-9;

    /// It goes back and climbs out.
    fn when_stuck(&self, stuck: &Stuck<'_>) -> WumpusAction {
        head_out(stuck.knowledge, stuck.req, stuck.config.goal)
    }
}
