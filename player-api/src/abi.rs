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
//! Layout evolution: `PlayerLib` and the player objects' vtables are prefix
//! types, and abi_stable checks them one way only: a library whose prefix
//! types have *more* fields than the arena's loads (a library built later
//! loads in an older arena, which does not read what was added), one with
//! *fewer* is refused (a library built before a constructor or a method was
//! appended: checked with a library built without Magic Forest's
//! constructor, refused as incompatible). So appending to the ABI makes
//! every library built before it unloadable until rebuilt: a deliberate
//! step, which tests/abi_layout.txt keeps from happening by accident (and
//! why time banks are told to libraries only through the request's
//! `time_left_us`: docs/time-controls.md).

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
    hexapawn::{HexapawnAction, HexapawnGameInfo, HexapawnPlayer, HexapawnRequest},
    intuitive::{Cell, IntuitiveGameInfo, IntuitiveGameOver, IntuitivePlayer, IntuitiveRequest},
    magic_forest::{ForestAction, ForestGameInfo, ForestOver, ForestPlayer, ForestRequest},
    trap::{Pos, TrapGameInfo, TrapPlayer, TrapRequest},
    wumpus::{WumpusAction, WumpusGameInfo, WumpusOver, WumpusPlayer, WumpusRequest},
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
    // Appended after the prefix: a library built later than an arena that
    // lacks them still loads there; one built before them is refused (see the
    // module's doc). New games go at the end, never in between.
    /// Makes an Intuitive AI player, if the library plays Intuitive AI.
    pub new_intuitive_player: Option<extern "C" fn() -> RResult<IntuitivePlayerBox, PlayerError>>,
    /// Makes a Hexapawn player, if the library plays Hexapawn.
    pub new_hexapawn_player: Option<extern "C" fn() -> RResult<HexapawnPlayerBox, PlayerError>>,
    /// Makes a Wumpus World player, if the library plays Wumpus World.
    pub new_wumpus_player: Option<extern "C" fn() -> RResult<WumpusPlayerBox, PlayerError>>,
    /// Makes a Magic Forest player, if the library plays Magic Forest.
    pub new_forest_player: Option<extern "C" fn() -> RResult<ForestPlayerBox, PlayerError>>,
}

impl PlayerLibRef {
    /// The Intuitive AI constructor, if the library has one (absent in
    /// libraries built before the game existed).
    pub fn intuitive_constructor(
        self,
    ) -> Option<extern "C" fn() -> RResult<IntuitivePlayerBox, PlayerError>> {
        self.new_intuitive_player().flatten()
    }

    /// The Hexapawn constructor, if the library has one.
    pub fn hexapawn_constructor(self) -> Option<extern "C" fn() -> RResult<HexapawnPlayerBox, PlayerError>> {
        self.new_hexapawn_player().flatten()
    }

    /// The Wumpus World constructor, if the library has one.
    pub fn wumpus_constructor(self) -> Option<extern "C" fn() -> RResult<WumpusPlayerBox, PlayerError>> {
        self.new_wumpus_player().flatten()
    }

    /// The Magic Forest constructor, if the library has one.
    pub fn forest_constructor(self) -> Option<extern "C" fn() -> RResult<ForestPlayerBox, PlayerError>> {
        self.new_forest_player().flatten()
    }
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

/// Wraps a player so that every call catches panics. Used by
/// [`export_player!`] inside libraries, and by the arena for built-in bots.
pub struct CatchPanics<P>(pub P);

/// Declares one game's side of the ABI: the `#[sabi_trait]` trait, the owned
/// box type, `impl Ffi…Player for CatchPanics<P>` (each method calls the
/// player's method of the same name with `&argument`, through [`catch`]) and
/// the boxing function. A method listed as `fn m(arg: T) -> R;` becomes
/// `fn m(&mut self, arg: T) -> RResult<R, PlayerError>` in the trait; its
/// attributes (docs, `#[sabi(last_prefix_field)]`) go on the trait's method.
///
/// The trait is the ABI: its methods' order, types and the place of
/// `last_prefix_field` are checked by tests/abi_layout.rs. New methods go at
/// the end, after `last_prefix_field`, never in between.
macro_rules! ffi_player {
    (
        player: $player:ident,
        $(#[$($trait_attr:tt)*])*
        trait $ffi:ident {
            $(
                $(#[$($method_attr:tt)*])*
                fn $method:ident($arg:ident: $arg_ty:ty) -> $ret:ty;
            )*
        }
        $(#[$($box_attr:tt)*])*
        type $box:ident = $object:ident;
        $(#[$($fn_attr:tt)*])*
        fn $boxing:ident;
    ) => {
        $(#[$($trait_attr)*])*
        #[sabi_trait]
        pub trait $ffi: Send {
            $(
                $(#[$($method_attr)*])*
                fn $method(&mut self, $arg: $arg_ty) -> RResult<$ret, PlayerError>;
            )*
        }

        $(#[$($box_attr)*])*
        pub type $box = $object<'static, RBox<()>>;

        impl<P: $player> $ffi for CatchPanics<P> {
            $(
                fn $method(&mut self, $arg: $arg_ty) -> RResult<$ret, PlayerError> {
                    catch(|| self.0.$method(&$arg))
                }
            )*
        }

        $(#[$($fn_attr)*])*
        pub fn $boxing<P: $player + 'static>(player: P) -> $box {
            $object::from_value(CatchPanics(player), abi_stable::sabi_trait::TD_Opaque)
        }
    };
}

ffi_player! {
    player: TrapPlayer,
    /// A Trap player across the ABI. Every method reports a panic inside the
    /// library as `RErr(message)`.
    trait FfiTrapPlayer {
        fn new_game(info: TrapGameInfo) -> ();
        fn get_move(req: TrapRequest) -> Pos;
        fn get_trap(req: TrapRequest) -> Pos;
        #[sabi(last_prefix_field)]
        fn game_over(result: GameOver) -> ();
    }
    /// An owned Trap player object, from a library or built in.
    type TrapPlayerBox = FfiTrapPlayer_TO;
    /// Boxes a [`TrapPlayer`] as an ABI object that catches its panics.
    fn trap_player_box;
}

ffi_player! {
    player: IntuitivePlayer,
    /// An Intuitive AI player across the ABI.
    trait FfiIntuitivePlayer {
        fn new_game(info: IntuitiveGameInfo) -> ();
        fn reveal(req: IntuitiveRequest) -> Cell;
        #[sabi(last_prefix_field)]
        fn game_over(result: IntuitiveGameOver) -> ();
    }
    /// An owned Intuitive AI player object, from a library or built in.
    type IntuitivePlayerBox = FfiIntuitivePlayer_TO;
    /// Boxes an [`IntuitivePlayer`] as an ABI object that catches its panics.
    fn intuitive_player_box;
}

ffi_player! {
    player: HexapawnPlayer,
    /// A Hexapawn player across the ABI.
    trait FfiHexapawnPlayer {
        fn new_game(info: HexapawnGameInfo) -> ();
        fn get_move(req: HexapawnRequest) -> HexapawnAction;
        #[sabi(last_prefix_field)]
        fn game_over(result: GameOver) -> ();
    }
    /// An owned Hexapawn player object, from a library or built in.
    type HexapawnPlayerBox = FfiHexapawnPlayer_TO;
    /// Boxes a [`HexapawnPlayer`] as an ABI object that catches its panics.
    fn hexapawn_player_box;
}

ffi_player! {
    player: WumpusPlayer,
    /// A Wumpus World player across the ABI.
    trait FfiWumpusPlayer {
        fn new_game(info: WumpusGameInfo) -> ();
        fn step(req: WumpusRequest) -> WumpusAction;
        #[sabi(last_prefix_field)]
        fn game_over(result: WumpusOver) -> ();
    }
    /// An owned Wumpus World player object, from a library or built in.
    type WumpusPlayerBox = FfiWumpusPlayer_TO;
    /// Boxes a [`WumpusPlayer`] as an ABI object that catches its panics.
    fn wumpus_player_box;
}

ffi_player! {
    player: ForestPlayer,
    /// A Magic Forest player across the ABI.
    trait FfiForestPlayer {
        fn new_game(info: ForestGameInfo) -> ();
        fn step(req: ForestRequest) -> ForestAction;
        #[sabi(last_prefix_field)]
        fn game_over(result: ForestOver) -> ();
    }
    /// An owned Magic Forest player object, from a library or built in.
    type ForestPlayerBox = FfiForestPlayer_TO;
    /// Boxes a [`ForestPlayer`] as an ABI object that catches its panics.
    fn forest_player_box;
}

/// The body of every constructor [`export_player!`] generates: records panic
/// locations from now on, and builds the player object with `make`, catching
/// a panic in the player's constructor too.
#[doc(hidden)]
pub fn construct<B>(make: impl FnOnce() -> B) -> RResult<B, PlayerError> {
    record_panic_locations();
    catch(make)
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
/// After `name` and `author` come the games the library plays, each at most
/// once and in this order: `trap:`, `intuitive:`, `hexapawn:`, `wumpus:`,
/// `forest:` (Magic Forest). Each is an
/// expression that makes a fresh player; it is evaluated each time the arena
/// needs a new instance. The crate must be a `cdylib`. Use the macro once per
/// crate.
#[macro_export]
macro_rules! export_player {
    (
        name: $name:expr, author: $author:expr
        $(, trap: $make_trap:expr)?
        $(, intuitive: $make_intuitive:expr)?
        $(, hexapawn: $make_hexapawn:expr)?
        $(, wumpus: $make_wumpus:expr)?
        $(, forest: $make_forest:expr)?
        $(,)?
    ) => {
        #[doc(hidden)]
        fn __arena_player_root_module() -> $crate::abi::PlayerLibRef {
            use $crate::abi_stable::prefix_type::PrefixTypeTrait;
            use $crate::abi_stable::std_types::RResult;
            use $crate::abi::PlayerError;
            $(
                extern "C" fn new_trap() -> RResult<$crate::abi::TrapPlayerBox, PlayerError> {
                    $crate::abi::construct(|| $crate::abi::trap_player_box($make_trap))
                }
            )?
            $(
                extern "C" fn new_intuitive() -> RResult<$crate::abi::IntuitivePlayerBox, PlayerError> {
                    $crate::abi::construct(|| $crate::abi::intuitive_player_box($make_intuitive))
                }
            )?
            $(
                extern "C" fn new_hexapawn() -> RResult<$crate::abi::HexapawnPlayerBox, PlayerError> {
                    $crate::abi::construct(|| $crate::abi::hexapawn_player_box($make_hexapawn))
                }
            )?
            $(
                extern "C" fn new_wumpus() -> RResult<$crate::abi::WumpusPlayerBox, PlayerError> {
                    $crate::abi::construct(|| $crate::abi::wumpus_player_box($make_wumpus))
                }
            )?
            $(
                extern "C" fn new_forest() -> RResult<$crate::abi::ForestPlayerBox, PlayerError> {
                    $crate::abi::construct(|| $crate::abi::forest_player_box($make_forest))
                }
            )?
            $crate::abi::PlayerLib {
                name: $crate::abi_stable::std_types::RStr::from_str($name),
                author: $crate::abi_stable::std_types::RStr::from_str($author),
                new_trap_player: $crate::__arena_some_if!($($make_trap => new_trap)?),
                new_intuitive_player: $crate::__arena_some_if!($($make_intuitive => new_intuitive)?),
                new_hexapawn_player: $crate::__arena_some_if!($($make_hexapawn => new_hexapawn)?),
                new_wumpus_player: $crate::__arena_some_if!($($make_wumpus => new_wumpus)?),
                new_forest_player: $crate::__arena_some_if!($($make_forest => new_forest)?),
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

/// `Some(constructor)` when the game was given to [`export_player!`], else
/// `None` (the expression is only matched, never evaluated here).
#[doc(hidden)]
#[macro_export]
macro_rules! __arena_some_if {
    () => {
        ::core::option::Option::None
    };
    ($make:expr => $constructor:ident) => {
        ::core::option::Option::Some($constructor)
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
