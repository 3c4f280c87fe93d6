//! Wumpus World reference agents (see `docs/rules/wumpus.md`).
//!
//! - Easy: random moves that look safe from where it stands.
//! - Medium: a logical agent: it enters only squares that are provably
//!   safe (true in every world consistent with its percepts), shoots only a
//!   wumpus whose square it knows, and otherwise climbs out.
//! - Hard: a probabilistic agent: the exact posterior over the unknown
//!   squares (AIMA's frontier enumeration), safe squares first, shots that
//!   are likely to kill, and a gamble on the least risky square when its
//!   expected value beats climbing out.

mod easy;
mod explorer;
mod hard;
mod knowledge;
mod medium;
mod plan;

pub use easy::Easy;
pub use explorer::{Explorer, Stuck, Temper};
pub use hard::{Hard, Probabilistic};
pub use medium::{Logical, Medium};

use player_api::wumpus::{Area, Coord, Dir, Goal, WumpusAction, WumpusRequest, WumpusWorld};

use knowledge::{Beliefs, Knowledge, ZERO};
use plan::Planner;

/// The action that leads to climbing out: Climb on the start square,
/// otherwise the first step of the shortest way back over visited squares.
/// Without a Climb (`Goal::GrabGold`) the agent has no way out: it turns
/// on the spot, which is safe, until the action cap ends the game.
fn head_out(k: &Knowledge, req: &WumpusRequest, goal: Goal) -> WumpusAction {
    if goal == Goal::GrabGold {
        return WumpusAction::TurnLeft;
    }
    if req.at == WumpusWorld::START {
        return WumpusAction::Climb;
    }
    let planner = Planner::new(req.at, req.facing, k.visited, k.size());
    planner.to_stand(WumpusWorld::START).and_then(|(_, first)| first).unwrap_or(WumpusAction::TurnLeft)
}

/// The first action towards the nearest certainly-safe unknown square.
fn nearest_safe(planner: &Planner, safe_unknown: Area) -> Option<WumpusAction> {
    safe_unknown.squares().filter_map(|t| planner.to_enter(t)).min_by_key(|(cost, _)| *cost).map(|(_, a)| a)
}

/// A shot: where to stand and which way to face, its chance to kill, its cost.
#[derive(Clone, Copy, Debug)]
struct Shot {
    kill: f64,
    cost: u32,
    /// The first action: a step towards the spot, or Shoot if already there.
    first: WumpusAction,
}

/// The best shot from a reachable square: the highest chance to kill, then
/// the cheapest. With one wumpus every square on the line counts; with
/// several only the first unknown square is sure to be reached.
fn best_shot(
    k: &Knowledge,
    beliefs: &Beliefs,
    planner: &Planner,
    passable: Area,
    one_wumpus: bool,
) -> Option<Shot> {
    let mut best: Option<Shot> = None;
    for s in passable.squares() {
        for d in Dir::ALL {
            let Some((cost, first)) = planner.to_face(s, d) else { continue };
            let kill = line_kill_chance(k, beliefs, s, d, one_wumpus);
            let better = best.is_none_or(|b| kill > b.kill + ZERO || (kill > b.kill - ZERO && cost < b.cost));
            if kill > ZERO && better {
                best = Some(Shot { kill, cost, first: first.unwrap_or(WumpusAction::Shoot) });
            }
        }
    }
    best
}

fn line_kill_chance(k: &Knowledge, beliefs: &Beliefs, from: Coord, d: Dir, one_wumpus: bool) -> f64 {
    let mut kill = 0.0;
    let mut square = from.step(d, k.size());
    while let Some(s) = square.filter(|s| !k.obstacles.contains(*s)) {
        if !k.visited.contains(s) {
            kill += beliefs.wumpus(s);
            if !one_wumpus {
                break;
            }
        }
        square = s.step(d, k.size());
    }
    kill.min(1.0)
}
