//! The stable ABI between the arena and a player library.
//!
//! A player library (a `cdylib`) exports one root module, [`PlayerLib`]: its
//! name, author, and one optional constructor per game. The constructors
//! return `#[sabi_trait]` objects ([`TrapPlayerBox`]) whose methods return
//! `RResult`, so a panic inside the library comes back as an error value:
//! a panic must never unwind across the boundary (it would abort the host).
//!
//! Player authors do not touch this module: they implement
//! [`TrapPlayer`](crate::trap::TrapPlayer) and call [`export_player!`].
//!
//! Layout evolution: `PlayerLib` is a prefix type. Constructors for new games
//! are appended after the last prefix field, so a library built before a game
//! existed still loads (the new constructor reads as absent), and a library
//! built later still loads in an older arena.

// The code #[sabi_trait] generates implements traits inside a const block.
#![allow(non_local_definitions)]

use std::{
    cell::RefCell,
    panic::{catch_unwind, AssertUnwindSafe},
    sync::Once,
};

use abi_stable::{
    declare_root_module_statics,
    library::RootModule,
    package_version_strings, sabi_trait,
    sabi_types::VersionStrings,
    std_types::{RBox, RResult, RStr, RString},
    StableAbi,
};

use crate::{
    trap::{Pos, TrapGameInfo, TrapPlayer, TrapRequest},
    GameOver,
};

/// The error a player call returns across the ABI: what went wrong inside
/// the library (today: the message of a caught panic).
pub type PlayerError = RString;

/// The root module a player library exports (through [`export_player!`]).
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = PlayerLibRef)))]
#[sabi(missing_field(option))]
pub struct PlayerLib {
    /// The player's display name.
    pub name: RStr<'static>,
    /// Who wrote it (a student group, a course).
    pub author: RStr<'static>,
    /// Makes a Trap player, if the library plays Trap.
    #[sabi(last_prefix_field)]
    pub new_trap_player: Option<extern "C" fn() -> RResult<TrapPlayerBox, PlayerError>>,
    // Later games are appended here: Intuitive AI `reveal`, Wumpus and
    // Magic Forest `step`, Hexapawn `get_move`.
}

impl RootModule for PlayerLibRef {
    declare_root_module_statics! {PlayerLibRef}
    const BASE_NAME: &'static str = "arena_player";
    const NAME: &'static str = "arena player library";
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
}

/// The version of `player-api` this crate is (what a library was built against).
pub const API_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The symbol under which a player library exports its root module, as
/// abi_stable names it (checked against abi_stable in the tests).
#[doc(hidden)]
pub const ROOT_MODULE_SYMBOL: &str = "_1as_0lib_1header_0root_bmodule_bloader";

/// A Trap player across the ABI. Every method reports a panic inside the
/// library as `RErr(message)`.
#[sabi_trait]
pub trait FfiTrapPlayer: Send {
    fn new_game(&mut self, info: TrapGameInfo) -> RResult<(), PlayerError>;
    fn get_move(&mut self, req: TrapRequest) -> RResult<Pos, PlayerError>;
    fn get_trap(&mut self, req: TrapRequest) -> RResult<Pos, PlayerError>;
    #[sabi(last_prefix_field)]
    fn game_over(&mut self, result: GameOver) -> RResult<(), PlayerError>;
}

/// An owned Trap player object, from a library or built in.
pub type TrapPlayerBox = FfiTrapPlayer_TO<'static, RBox<()>>;

/// Wraps a [`TrapPlayer`] so that every call catches panics. Used by
/// [`export_player!`] inside libraries, and by the arena for built-in bots.
pub struct CatchPanics<P>(pub P);

impl<P: TrapPlayer> FfiTrapPlayer for CatchPanics<P> {
    fn new_game(&mut self, info: TrapGameInfo) -> RResult<(), PlayerError> {
        catch(|| self.0.new_game(&info))
    }
    fn get_move(&mut self, req: TrapRequest) -> RResult<Pos, PlayerError> {
        catch(|| self.0.get_move(&req))
    }
    fn get_trap(&mut self, req: TrapRequest) -> RResult<Pos, PlayerError> {
        catch(|| self.0.get_trap(&req))
    }
    fn game_over(&mut self, result: GameOver) -> RResult<(), PlayerError> {
        catch(|| self.0.game_over(&result))
    }
}

/// Boxes a [`TrapPlayer`] as an ABI object that catches its panics.
pub fn trap_player_box<P: TrapPlayer + 'static>(player: P) -> TrapPlayerBox {
    FfiTrapPlayer_TO::from_value(CatchPanics(player), abi_stable::sabi_trait::TD_Opaque)
}

/// The body of the constructor [`export_player!`] generates: records panic
/// locations from now on, and builds the player, catching a panic in its
/// constructor too.
#[doc(hidden)]
pub fn construct_trap_player<P: TrapPlayer + 'static>(
    make: impl FnOnce() -> P,
) -> RResult<TrapPlayerBox, PlayerError> {
    record_panic_locations();
    catch(|| trap_player_box(make()))
}

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs a panic hook that keeps the message and location of the last
/// panic on this thread instead of printing it, so the arena can report
/// "panicked: index out of bounds at src/lib.rs:12:9". Inside a player
/// library this hook is the library's own (a cdylib has its own std).
fn record_panic_locations() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let message = info.payload_as_str().unwrap_or("a non-string panic payload");
            let text = match info.location() {
                Some(at) => format!("{message} at {}:{}:{}", at.file(), at.line(), at.column()),
                None => message.to_string(),
            };
            LAST_PANIC.with(|last| *last.borrow_mut() = Some(text));
        }));
    });
}

fn catch<T>(call: impl FnOnce() -> T) -> RResult<T, PlayerError> {
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(value) => RResult::ROk(value),
        Err(payload) => {
            let recorded = LAST_PANIC.with(|last| last.borrow_mut().take());
            let message = recorded.unwrap_or_else(|| {
                payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a non-string panic payload".to_string())
            });
            RResult::RErr(message.into())
        }
    }
}

/// Makes this crate a player library: exports the root module the arena loads.
///
/// ```ignore
/// player_api::export_player! {
///     name: "my-bot",
///     author: "ab1234_cd5678",
///     trap: MyBot::default(),
/// }
/// ```
///
/// `trap:` is an expression that makes a fresh player; it is evaluated each
/// time the arena needs a new instance. The crate must be a `cdylib`.
/// Use the macro once per crate.
#[macro_export]
macro_rules! export_player {
    (name: $name:expr, author: $author:expr, trap: $make_trap:expr $(,)?) => {
        #[doc(hidden)]
        pub extern "C" fn __arena_new_trap_player(
        ) -> $crate::abi_stable::std_types::RResult<$crate::abi::TrapPlayerBox, $crate::abi::PlayerError> {
            $crate::abi::construct_trap_player(|| $make_trap)
        }

        #[doc(hidden)]
        fn __arena_player_root_module() -> $crate::abi::PlayerLibRef {
            use $crate::abi_stable::prefix_type::PrefixTypeTrait;
            $crate::abi::PlayerLib {
                name: $crate::abi_stable::std_types::RStr::from_str($name),
                author: $crate::abi_stable::std_types::RStr::from_str($author),
                new_trap_player: ::core::option::Option::Some(__arena_new_trap_player),
            }
            .leak_into_prefix()
        }

        /// The root module header abi_stable looks up when loading this library.
        #[doc(hidden)]
        #[export_name = "_1as_0lib_1header_0root_bmodule_bloader"]
        pub static __ARENA_PLAYER_LIB_HEADER: $crate::abi_stable::library::LibHeader = {
            extern "C" fn erased_root_module() -> $crate::abi_stable::library::RootModuleResult {
                $crate::abi_stable::library::__call_root_module_loader(__arena_player_root_module)
            }
            unsafe {
                $crate::abi_stable::library::LibHeader::from_constructor::<$crate::abi::PlayerLibRef>(
                    erased_root_module,
                    $crate::abi_stable::library::CheckTypeLayout::Yes,
                )
            }
        };
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_symbol_is_the_one_abi_stable_looks_up() {
        assert_eq!(ROOT_MODULE_SYMBOL, abi_stable::library::ROOT_MODULE_LOADER_NAME);
    }
}
