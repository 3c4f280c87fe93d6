//! The stable ABI between the arena and a player library.
//!
//! A player library (a `cdylib`) exports a root module: its name, author,
//! and one optional constructor per game. The constructors return
//! `#[sabi_trait]` objects ([`TrapPlayerBox`]) whose methods return
//! `RResult`, so a panic inside the library comes back as an error value:
//! a panic must never unwind across the boundary (it would abort the host:
//! `panics.rs`).
//!
//! Player authors do not touch this module: they implement
//! [`TrapPlayer`](crate::trap::TrapPlayer) and call [`export_player!`](crate::export_player).
//!
//! # Versions
//!
//! Every released layout stays loadable. Beside its root module a library
//! exports a version probe ([`VERSION_SYMBOL`], `versions.rs`). The arena
//! reads it first, checks the root module against that version's layout,
//! frozen in a module of its own ([`v1`], [`v2`], ...), and sees the library through
//! the current version's interface ([`PlayerModule`], `module.rs`). A
//! library without a probe was built before versions existed: it is v1.
//!
//! Why: abi_stable checks prefix types one way only. A library whose root
//! module or player objects have *more* fields than the arena's loads; one
//! with *fewer* is refused (checked: a library built without Magic Forest's
//! constructor was refused as incompatible). Appending a constructor or a
//! method in place would so refuse every library built before it, and
//! students keep the libraries they built early in the term while the
//! arena is updated.
//!
//! The rule for adding to the ABI (parameters, a player's memory, a game):
//!
//! 1. A released version never changes: not its module (`v1.rs`), not a
//!    type it reaches (the games' info, request, action and result types),
//!    not what `ffi_player!` generates for it. Each has its snapshot,
//!    `tests/abi_snapshots/vN.txt`, checked and never rewritten.
//! 2. A new version goes beside: `vN.rs`, with a root-module type of its own
//!    (named for its version: `PlayerLibV2`) and new player traits where
//!    they change (`FfiTrapPlayerV2`; unchanged ones are the earlier
//!    version's, reused). Add it to [`AbiVersion`] (its number, what it
//!    [`adds`](AbiVersion::adds)), make it `CURRENT`, and point the current
//!    names below and `export_player!` at it.
//! 3. [`PlayerModule`] loads it, and adapts every older version to it: an
//!    older library's player wrapped in the new trait, with the defaults of
//!    what it lacks (no parameters, no memory).
//! 4. Its snapshot: `ARENA_BLESS=1 cargo test -p player-api --test
//!    abi_layout` writes the snapshots that are missing, never an existing
//!    one. Its fixture: a player library frozen with a copy of player-api
//!    as released (`arena/tests/fixtures/abi-vN-player`); the arena's tests
//!    load and play every version's, in process and in a sandboxed worker,
//!    and fail if a released version has no fixture.
//! 5. player-api's own version stays 0.1.x: abi_stable also compares the
//!    package version of every type (the major, for 0.x the minor), so a
//!    0.2 would refuse every library at once. The ABI version, not the
//!    crate's, says what changed.
//!
//! Which way it holds:
//!
//! - An older library in a newer arena loads and plays, lacking what later
//!   versions added (`arena check` names it).
//! - A newer library in an older arena loads if its version is one the
//!   arena knows. A library built today is v2 (parameters and memory):
//!   an arena that knows only v1 refuses it with one line saying so (one
//!   from before the probe: as an incompatible layout): update the arena,
//!   or rebuild the player against the arena's player-api.
//!
//! What v2 adds, as a player author sees it: `export_player!`'s `params:`
//! (the parameters it declares) and `game(setup): expr` (the
//! [`Setup`](crate::params::Setup) it is made with: the values, and the
//! memory it kept), and `save_memory` on every game's player trait.

mod export;
#[macro_use]
mod ffi_player;
mod module;
mod panics;
pub mod v1;
pub mod v2;
mod versions;

use abi_stable::std_types::RString;

pub use module::{Constructor, PlayerModule};
pub use panics::CatchPanics;
#[doc(hidden)]
pub use panics::{construct, setup_of};
// For the versions' ffi_player! calls.
use panics::catch;
/// The current version's names: what `export_player!` exports, and what
/// the arena's players are made as.
pub use v2::*;
pub use versions::{probe, AbiVersion, VERSION_SYMBOL};

/// The error a player call returns across the ABI: what went wrong inside
/// the library (today: the message of a caught panic).
pub type PlayerError = RString;

/// The version of `player-api` this crate is (what a library was built against).
pub const API_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The symbol under which a player library exports its root module, as
/// abi_stable names it (checked against abi_stable in the tests).
#[doc(hidden)]
pub const ROOT_MODULE_SYMBOL: &str = "_1as_0lib_1header_0root_bmodule_bloader";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_symbol_is_the_one_abi_stable_looks_up() {
        assert_eq!(ROOT_MODULE_SYMBOL, abi_stable::library::ROOT_MODULE_LOADER_NAME);
    }

    #[test]
    fn export_player_exports_the_probe_under_the_symbol_the_arena_reads() {
        // An attribute cannot name a constant: the macro spells it out.
        let attribute = format!("#[export_name = \"{VERSION_SYMBOL}\"]");
        assert!(include_str!("export.rs").contains(&attribute), "export.rs lacks {attribute}");
    }
}
