//! A minimal Trap player: the starting point `arena new` copies.
//!
//! Build it with `cargo build --release`, then try it:
//!     arena check target/release/libtemplate_player.so
//!     arena play --game trap target/release/libtemplate_player.so hard --games 10
//! (`arena new` renames the crate; the library is lib<your_name>.so.)

use player_api::trap::{Pos, TrapGameInfo, TrapPlayer, TrapRequest};

/// Your player's state. It lives across the games of a match; `new_game`
/// tells you when a new one starts.
#[derive(Default)]
pub struct MyPlayer {
    /// A seed for your own randomness, fresh each game (unused here).
    seed: u64,
}

impl TrapPlayer for MyPlayer {
    /// A game starts: your seat (`Seat::One` moves first), the board size,
    /// the time budget per turn, a seed for your own random choices.
    fn new_game(&mut self, info: &TrapGameInfo) {
        self.seed = info.seed;
    }

    /// Step one cell in any of the 8 directions, onto a cell with no trap
    /// and no player. `req.state` holds the whole board; `req.seat` is you;
    /// `req.time_left()` is what remains of this turn's budget.
    ///
    /// This one steps to the free cell with the most free neighbours.
    fn get_move(&mut self, req: &TrapRequest) -> Pos {
        req.state
            .legal_moves(req.seat)
            .max_by_key(|&to| {
                let mut after = req.state;
                after.move_player(req.seat, to);
                after.free_neighbour_count(to)
            })
            // The arena only asks when a legal move exists.
            .expect("a legal move exists")
    }

    /// Aim a trap at any cell without a player. It lands there with
    /// p = 1 - 0.05 * (distance - 1), else on a random neighbour of the target:
    /// `req.state.throw(req.seat, target)` gives the exact distribution.
    ///
    /// This one aims next to the opponent, where it hurts its mobility most.
    fn get_trap(&mut self, req: &TrapRequest) -> Pos {
        let opponent = req.opponent();
        req.state
            .free_neighbours(opponent)
            .min_by_key(|&target| {
                let mut after = req.state;
                after.place_trap(target);
                after.free_neighbour_count(opponent)
            })
            // No free cell next to the opponent would have ended the game
            // already; aim anywhere legal to be safe.
            .unwrap_or_else(|| req.state.free_cells().next().expect("free cells remain"))
    }
}

// Makes this crate a player library the arena can load. `trap:` makes a
// fresh player each time the arena needs one.
player_api::export_player! {
    name: "template-player",
    author: "your names here",
    trap: MyPlayer::default(),
}
