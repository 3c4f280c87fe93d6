//! Iterative-deepening expectiminimax with alpha-beta over whole turns.
//!
//! A turn is three layers: the mover picks a step (max), then a target
//! (max, same player), then chance picks the landing: the target with p,
//! else each on-board neighbour without a player with (1 - p) / n (a miss
//! onto an existing trap changes nothing, so those outcomes are one). Values
//! are negamax, from the view of the player acting, in [-1, 1]: a trapped
//! opponent is 1, being trapped -1, and each turn of delay shrinks a value
//! by `DISCOUNT` so that sooner wins (and later losses) are preferred.
//!
//! Chance nodes prune with Star1: since every value lies in [-1, 1], once
//! the outcomes seen so far settle that the expectation is outside the
//! window, the rest need not be searched; and each outcome is searched with
//! the narrowest window that still decides that.
//!
//! Depth counts turns. Targets are the opponent's free neighbours (a throw
//! elsewhere takes nothing from it). The transposition table (Zobrist keys)
//! gives each node its best choice from earlier iterations to try first.

use player_api::{trap::Bitboard, Seat};

use super::{
    clock::Deadline,
    eval::Weights,
    table::{Bound, Table, KEYS, NONE},
};

pub const WIN: f64 = 1.0;
pub const DISCOUNT: f64 = 0.999;
/// The deepest a judged turn is searched (a budget ends it long before).
const MAX_JUDGED_DEPTH: u32 = 64;
/// How often (in nodes) the clock is read.
const CLOCK_EVERY: u64 = 512;

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Found {
    /// The step, and the target to throw at after it (None if the step wins at once).
    pub step: u32,
    pub target: Option<u32>,
    /// The expected score of the turn, in [-1, 1].
    pub value: f64,
    /// The last depth (in turns) searched to the end.
    pub depth: u32,
    /// Positions visited, chance outcomes included.
    pub nodes: u64,
}

pub struct Search<'t> {
    table: &'t mut Table,
    deadline: Deadline,
    nodes: u64,
    /// When `nodes` reaches this, the clock is read.
    next_check: u64,
    stopped: bool,
    /// The first iteration always finishes: there is always a choice ready.
    may_stop: bool,
    /// The evaluation's weights.
    weights: Weights,
    /// Past this many nodes a search stops, as at its deadline (analysis:
    /// a budget that gives the same answer on any machine).
    node_cap: u64,
}

/// The analysis of one turn: the best turn, and what the turn played is
/// worth, both searched to the same depth (`best.depth`), so that the
/// played turn is worth at most the best.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    pub best: Found,
    /// The expected score of the turn played, for its mover, in [-1, 1].
    pub played: f64,
}

/// The step's value with its best target, for ordering and reporting.
#[derive(Clone, Copy)]
struct Choice {
    step: u32,
    target: Option<u32>,
    value: f64,
}

impl<'t> Search<'t> {
    pub fn new(table: &'t mut Table, deadline: Deadline) -> Search<'t> {
        Search {
            table,
            deadline,
            nodes: 0,
            next_check: CLOCK_EVERY,
            stopped: false,
            may_stop: false,
            weights: Weights::default(),
            node_cap: u64::MAX,
        }
    }

    /// The search with the evaluation's weights `weights`.
    pub fn weighted(self, weights: Weights) -> Search<'t> {
        Search { weights, ..self }
    }

    /// Judges the turn `me` played in `board` (a step, then a target unless
    /// the step won) against the best turn, deepening while the next
    /// iteration, predicted from the growth of the last two, fits in
    /// `budget` nodes, and abandoning one at twice `budget`. Only
    /// whole iterations count, and nothing reads a clock: the same position
    /// and budget give the same values on any machine and load.
    pub fn judge_turn(
        mut self,
        board: &Bitboard,
        me: Seat,
        step: u32,
        target: Option<u32>,
        budget: u64,
    ) -> Judged {
        self.node_cap = budget.saturating_mul(2);
        let them = me.other();
        let hash = KEYS.of(board) ^ KEYS.to_act(me);
        let wins = |step: u32| {
            let mut after = *board;
            after.step(me, step);
            !after.can_move(them)
        };
        let mut rest = board.moves(me);
        let mut winning = None;
        while rest != 0 {
            let s = rest.trailing_zeros();
            rest &= rest - 1;
            if wins(s) {
                winning = Some(s);
                break;
            }
        }
        let (best, depth) = match winning {
            Some(s) => (Choice { step: s, target: None, value: WIN }, 2),
            None => {
                let mut best: Option<Choice> = None;
                let mut depth_done = 0;
                let mut costs = [1u64, 1u64];
                for depth in 1..=MAX_JUDGED_DEPTH {
                    self.may_stop = depth > 1;
                    let before = self.nodes;
                    let (choice, complete) = self.root(board, hash, me, depth, best.map(|c| c.step));
                    if !complete {
                        break;
                    }
                    best = choice;
                    depth_done = depth;
                    // The next iteration costs about this one times the
                    // growth from the last: start it only if that fits.
                    costs = [costs[1], (self.nodes - before).max(1)];
                    let next = costs[1].saturating_mul(costs[1] / costs[0]).max(costs[1]);
                    if self.nodes.saturating_add(next) > budget {
                        break;
                    }
                }
                (best.expect("the first iteration always finishes"), depth_done)
            }
        };
        self.may_stop = false;
        self.stopped = false;
        let played = if wins(step) {
            WIN
        } else if Some(step) == Some(best.step) && target == best.target {
            best.value
        } else {
            let mut after = *board;
            after.step(me, step);
            let target = target.unwrap_or(after.at(them));
            let child = KEYS.of(&after) ^ KEYS.to_act(me);
            self.chance(&after, child, me, target, depth, -2.0, 2.0).min(best.value)
        };
        Judged {
            best: Found { step: best.step, target: best.target, value: best.value, depth, nodes: self.nodes },
            played,
        }
    }

    /// The best whole turn for `me` (who must have a legal step), searched
    /// deeper and deeper until the deadline or `max_depth`.
    pub fn best_turn(mut self, board: &Bitboard, me: Seat, max_depth: u32) -> Found {
        let them = me.other();
        let hash = KEYS.of(board) ^ KEYS.to_act(me);
        // A step that traps the opponent ends the game: nothing is better.
        let steps = board.moves(me);
        let mut rest = steps;
        while rest != 0 {
            let step = rest.trailing_zeros();
            rest &= rest - 1;
            let mut after = *board;
            after.step(me, step);
            if !after.can_move(them) {
                return Found { step, target: None, value: WIN, depth: 1, nodes: 1 };
            }
        }
        let mut best: Option<Choice> = None;
        let mut depth_done = 0;
        for depth in 1..=max_depth {
            self.may_stop = depth > 1;
            let (choice, complete) = self.root(board, hash, me, depth, best.map(|c| c.step));
            // A cut-short iteration searched the previous best step first, so
            // a step it found better is better for certain.
            if let Some(choice) = choice {
                if complete || best.is_none_or(|b| choice.step != b.step) {
                    best = Some(choice);
                }
            }
            if !complete {
                break;
            }
            depth_done = depth;
            if !self.deadline.may_deepen() {
                break;
            }
        }
        let choice = best.expect("the first iteration always finishes");
        Found {
            step: choice.step,
            target: choice.target,
            value: choice.value,
            depth: depth_done,
            nodes: self.nodes,
        }
    }

    /// The best target for `me`, whose step is made (`board` shows it).
    pub fn best_throw(mut self, board: &Bitboard, me: Seat, max_depth: u32) -> Found {
        let hash = KEYS.of(board) ^ KEYS.to_act(me) ^ KEYS.throwing;
        let mut best = None;
        let mut depth_done = 0;
        for depth in 1..=max_depth {
            self.may_stop = depth > 1;
            let (value, target) = self.throw(board, hash, me, depth, -2.0, 2.0);
            if self.stopped {
                break;
            }
            best = Some((u32::from(target), value));
            depth_done = depth;
            if !self.deadline.may_deepen() {
                break;
            }
        }
        let (target, value) = best.expect("the first iteration always finishes");
        Found { step: board.at(me), target: Some(target), value, depth: depth_done, nodes: self.nodes }
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CLOCK_EVERY;
            self.stopped = self.may_stop && (self.nodes >= self.node_cap || self.deadline.passed());
        }
        self.stopped
    }

    /// The root: every step with its best target, the previous best first;
    /// and whether every step was searched before the deadline.
    fn root(
        &mut self,
        board: &Bitboard,
        hash: u64,
        me: Seat,
        depth: u32,
        first: Option<u32>,
    ) -> (Option<Choice>, bool) {
        let mut best: Option<Choice> = None;
        let mut alpha = -2.0;
        for step in ordered_steps(board, me, first.map_or(NONE, |s| s as u8)) {
            let mut after = *board;
            let from = after.step(me, step);
            let child = hash ^ KEYS.step(me, from, step) ^ KEYS.throwing;
            let (value, target) = self.throw(&after, child, me, depth, alpha, 2.0);
            if self.stopped {
                return (best, false);
            }
            if best.is_none_or(|b| value > b.value) {
                best = Some(Choice { step, target: Some(u32::from(target)), value });
                alpha = alpha.max(value);
            }
        }
        (best, true)
    }

    /// The start of a turn of `me`: end check 3, then the best step.
    fn turn(&mut self, board: &Bitboard, hash: u64, me: Seat, depth: u32, mut alpha: f64, beta: f64) -> f64 {
        if self.tick() {
            return 0.0;
        }
        if !board.can_move(me) {
            return -WIN;
        }
        if depth == 0 {
            return self.weights.evaluate(board, me);
        }
        let hint = match self.table.probe(hash) {
            Some(entry) => {
                if u32::from(entry.depth) >= depth {
                    let value = f64::from(entry.value);
                    match entry.bound {
                        Bound::Exact => return value,
                        Bound::Lower if value >= beta => return value,
                        Bound::Upper if value <= alpha => return value,
                        _ => {}
                    }
                }
                entry.best
            }
            None => NONE,
        };
        let start_alpha = alpha;
        let them = me.other();
        let (mut best, mut best_step) = (-2.0f64, NONE);
        for step in ordered_steps(board, me, hint) {
            let mut after = *board;
            let from = after.step(me, step);
            // End check 1: the step alone traps the opponent.
            let value = if after.can_move(them) {
                let child = hash ^ KEYS.step(me, from, step) ^ KEYS.throwing;
                self.throw(&after, child, me, depth, alpha, beta).0
            } else {
                WIN
            };
            if self.stopped {
                return 0.0;
            }
            if value > best {
                (best, best_step) = (value, step as u8);
                alpha = alpha.max(value);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.table.store(hash, best, depth, bound(best, start_alpha, beta), best_step);
        best
    }

    /// The throw half of `me`'s turn: the best target (a max node).
    fn throw(
        &mut self,
        board: &Bitboard,
        hash: u64,
        me: Seat,
        depth: u32,
        mut alpha: f64,
        beta: f64,
    ) -> (f64, u8) {
        if self.tick() {
            return (0.0, NONE);
        }
        let hint = match self.table.probe(hash) {
            Some(entry) => {
                if u32::from(entry.depth) >= depth {
                    let value = f64::from(entry.value);
                    let usable = match entry.bound {
                        Bound::Exact => true,
                        Bound::Lower => value >= beta,
                        Bound::Upper => value <= alpha,
                    };
                    if usable && entry.best != NONE {
                        return (value, entry.best);
                    }
                }
                entry.best
            }
            None => NONE,
        };
        let start_alpha = alpha;
        let (mut best, mut best_target) = (-2.0f64, NONE);
        for target in ordered_targets(board, me, hint) {
            let value = self.chance(board, hash ^ KEYS.throwing, me, target, depth, alpha, beta);
            if self.stopped {
                return (0.0, NONE);
            }
            if value > best {
                (best, best_target) = (value, target as u8);
                alpha = alpha.max(value);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.table.store(hash, best, depth, bound(best, start_alpha, beta), best_target);
        (best, best_target)
    }

    /// Where `me`'s throw at `target` lands, each outcome weighted by its
    /// chance (Star1 pruning). `hash` is the position after the step, with
    /// `me` to act and the throw phase taken out.
    #[allow(clippy::too_many_arguments)]
    fn chance(
        &mut self,
        board: &Bitboard,
        hash: u64,
        me: Seat,
        target: u32,
        depth: u32,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        let them = me.other();
        let landing = board.throw(me, target);
        let miss_each =
            f64::from(20 - landing.hit_twentieths) / 20.0 / f64::from(landing.misses.count_ones().max(1));
        // Misses onto existing traps change nothing: one outcome.
        let wasted = landing.misses & board.traps();
        let mut outcomes = [(0u32, 0.0f64); 10];
        let mut count = 0;
        outcomes[count] = (target, f64::from(landing.hit_twentieths) / 20.0);
        count += 1;
        if wasted != 0 {
            outcomes[count] = (NO_TRAP, miss_each * f64::from(wasted.count_ones()));
            count += 1;
        }
        let mut new = landing.misses & !wasted;
        while new != 0 {
            outcomes[count] = (new.trailing_zeros(), miss_each);
            count += 1;
            new &= new - 1;
        }
        let next = hash ^ KEYS.to_act(me) ^ KEYS.to_act(them);
        let (mut sum, mut rest) = (0.0, 1.0);
        for &(square, chance) in &outcomes[..count] {
            if chance <= 0.0 {
                continue;
            }
            rest -= chance;
            let mut after = *board;
            let mut child = next;
            if square != NO_TRAP && after.trap(square) {
                child ^= KEYS.trap(square);
            }
            // End check 2: the landing traps the opponent.
            let value = if after.can_move(them) {
                // The window this outcome must fall in for the sum to matter.
                let low = (alpha - sum - rest * WIN) / chance;
                let high = (beta - sum + rest * WIN) / chance;
                let (search_low, search_high) = (low.max(-WIN), high.min(WIN));
                let value = -DISCOUNT
                    * self.turn(
                        &after,
                        child,
                        them,
                        depth - 1,
                        -search_high / DISCOUNT,
                        -search_low / DISCOUNT,
                    );
                if self.stopped {
                    return 0.0;
                }
                if value <= low {
                    return sum + chance * value + rest * WIN;
                }
                if value >= high {
                    return sum + chance * value - rest * WIN;
                }
                value
            } else {
                self.nodes += 1;
                WIN
            };
            sum += chance * value;
        }
        sum
    }
}

const NO_TRAP: u32 = 64;

fn bound(value: f64, alpha: f64, beta: f64) -> Bound {
    if value <= alpha {
        Bound::Upper
    } else if value >= beta {
        Bound::Lower
    } else {
        Bound::Exact
    }
}

/// Steps in search order: the hint first, then the roomiest destinations.
fn ordered_steps(board: &Bitboard, me: Seat, hint: u8) -> impl Iterator<Item = u32> {
    let steps = board.moves(me);
    let mut list = [(0u32, 0u32); 8];
    let mut n = 0;
    let mut rest = steps;
    while rest != 0 {
        let step = rest.trailing_zeros();
        rest &= rest - 1;
        let room = if step as u8 == hint { 100 } else { board.free_neighbours(step).count_ones() };
        list[n] = (step, room);
        n += 1;
    }
    list[..n].sort_by_key(|&(_, key)| std::cmp::Reverse(key));
    list.into_iter().take(n).map(|(step, _)| step)
}

/// Targets in search order: the hint first, then the surest throws.
fn ordered_targets(board: &Bitboard, me: Seat, hint: u8) -> impl Iterator<Item = u32> {
    let targets = board.free_neighbours(board.at(me.other()));
    let mut list = [(0u32, 0u32); 8];
    let mut n = 0;
    let mut rest = targets;
    while rest != 0 {
        let target = rest.trailing_zeros();
        rest &= rest - 1;
        let sure = if target as u8 == hint { 100 } else { board.throw(me, target).hit_twentieths };
        list[n] = (target, sure);
        n += 1;
    }
    list[..n].sort_by_key(|&(_, key)| std::cmp::Reverse(key));
    list.into_iter().take(n).map(|(target, _)| target)
}
