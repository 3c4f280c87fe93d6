//! `export_player!`: what makes a crate a player library of the current
//! ABI version: its root module, under the symbol abi_stable looks up, and
//! its version probe (`versions.rs`), which the arena reads first.

/// Makes this crate a player library: exports the root module the arena
/// loads, of the current ABI version, and the probe that names that version.
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

        /// The ABI version of the root module above, which the arena reads
        /// before the module (`player_api::abi::VERSION_SYMBOL`).
        #[doc(hidden)]
        #[export_name = "arena_player_abi_version"]
        pub static __ARENA_PLAYER_ABI_VERSION: u32 = $crate::abi::AbiVersion::CURRENT.number();
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
