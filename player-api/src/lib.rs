//! The one crate a player author depends on.
//!
//! It holds two things:
//! - the rules of every game the arena hosts, as plain typed values
//!   ([`trap::TrapState`], [`trap::Pos`], legal moves, the throw's landing
//!   distribution, the end checks). The arena's referees and the reference
//!   bots use exactly these, so there is one source of truth;
//! - the stable ABI ([`abi`]): the root module a player library exports, the
//!   `#[sabi_trait]` player objects that cross it, and [`export_player!`],
//!   which turns a struct implementing [`trap::TrapPlayer`] into a loadable
//!   library and keeps panics from crossing the boundary.
//!
//! And, for a player that manages its time, a stopwatch of its thinking on
//! the clock its game charges ([`thinking::Thinking`]).
//!
//! A minimal player:
//!
//! ```
//! use player_api::trap::{Pos, TrapPlayer, TrapRequest};
//!
//! #[derive(Default)]
//! pub struct FirstLegal;
//!
//! impl TrapPlayer for FirstLegal {
//!     fn get_move(&mut self, req: &TrapRequest) -> Pos {
//!         req.state.legal_moves(req.seat).next().expect("the arena only asks when a move exists")
//!     }
//!     fn get_trap(&mut self, req: &TrapRequest) -> Pos {
//!         req.state.free_neighbours(req.opponent()).next()
//!             .unwrap_or_else(|| req.state.free_cells().next().unwrap())
//!     }
//! }
//!
//! // In a `crate-type = ["cdylib"]` crate:
//! // player_api::export_player! { name: "first-legal", author: "me", trap: FirstLegal }
//! ```

pub mod abi;
mod game;
pub mod grid;
pub mod hexapawn;
pub mod intuitive;
pub mod magic_forest;
pub mod params;
pub mod thinking;
pub mod trap;
pub mod wumpus;

pub use game::{GameOver, Outcome, Seat};

/// Re-exported so that [`export_player!`] works in a crate that depends on
/// `player-api` alone.
#[doc(hidden)]
pub use abi_stable;
