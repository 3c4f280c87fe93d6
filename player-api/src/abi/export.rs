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
///
/// A player that takes parameters declares them after `author` (`params:`,
/// any list of [`Param`](crate::params::Param)s), and names the
/// [`Setup`](crate::params::Setup) it is made with in parentheses after the
/// game: the expression may use it (its parameters, and the memory it
/// handed back at the end of its last match):
///
/// ```ignore
/// player_api::export_player! {
///     name: "my-bot",
///     author: "ab1234_cd5678",
///     params: [Param::float("mobility", 1.0, 0.0, 10.0), Param::int("depth", 3, 1, 8)],
///     trap(setup): MyBot { mobility: setup.get_f64("mobility"), depth: setup.get_i64("depth") },
/// }
/// ```
#[macro_export]
macro_rules! export_player {
    (
        name: $name:expr, author: $author:expr
        $(, params: $params:expr)?
        $(, trap $(($trap_setup:ident))?: $make_trap:expr)?
        $(, intuitive $(($intuitive_setup:ident))?: $make_intuitive:expr)?
        $(, hexapawn $(($hexapawn_setup:ident))?: $make_hexapawn:expr)?
        $(, wumpus $(($wumpus_setup:ident))?: $make_wumpus:expr)?
        $(, forest $(($forest_setup:ident))?: $make_forest:expr)?
        $(,)?
    ) => {
        #[doc(hidden)]
        fn __arena_player_params() -> ::std::vec::Vec<$crate::params::Param> {
            $crate::__arena_params!($($params)?)
        }

        #[doc(hidden)]
        fn __arena_player_root_module() -> $crate::abi::v2::PlayerLibV2Ref {
            use $crate::abi_stable::prefix_type::PrefixTypeTrait;
            use $crate::abi_stable::std_types::{RResult, RVec};
            use $crate::abi::{PlayerError, SetupV2, ParamV2};
            extern "C" fn params() -> RVec<ParamV2> {
                // A panic must not unwind out of an extern "C" fn: it is a
                // library that declares nothing, then.
                ::std::panic::catch_unwind(__arena_player_params)
                    .map(|params| params.iter().map(ParamV2::from).collect())
                    .unwrap_or_default()
            }
            $(
                extern "C" fn new_trap(setup: SetupV2) -> RResult<$crate::abi::TrapPlayerBox, PlayerError> {
                    $crate::abi::construct(|| {
                        let _setup = $crate::abi::setup_of(setup, __arena_player_params);
                        $(let $trap_setup: &$crate::params::Setup = &_setup;)?
                        $crate::abi::trap_player_box($make_trap)
                    })
                }
            )?
            $(
                extern "C" fn new_intuitive(setup: SetupV2) -> RResult<$crate::abi::IntuitivePlayerBox, PlayerError> {
                    $crate::abi::construct(|| {
                        let _setup = $crate::abi::setup_of(setup, __arena_player_params);
                        $(let $intuitive_setup: &$crate::params::Setup = &_setup;)?
                        $crate::abi::intuitive_player_box($make_intuitive)
                    })
                }
            )?
            $(
                extern "C" fn new_hexapawn(setup: SetupV2) -> RResult<$crate::abi::HexapawnPlayerBox, PlayerError> {
                    $crate::abi::construct(|| {
                        let _setup = $crate::abi::setup_of(setup, __arena_player_params);
                        $(let $hexapawn_setup: &$crate::params::Setup = &_setup;)?
                        $crate::abi::hexapawn_player_box($make_hexapawn)
                    })
                }
            )?
            $(
                extern "C" fn new_wumpus(setup: SetupV2) -> RResult<$crate::abi::WumpusPlayerBox, PlayerError> {
                    $crate::abi::construct(|| {
                        let _setup = $crate::abi::setup_of(setup, __arena_player_params);
                        $(let $wumpus_setup: &$crate::params::Setup = &_setup;)?
                        $crate::abi::wumpus_player_box($make_wumpus)
                    })
                }
            )?
            $(
                extern "C" fn new_forest(setup: SetupV2) -> RResult<$crate::abi::ForestPlayerBox, PlayerError> {
                    $crate::abi::construct(|| {
                        let _setup = $crate::abi::setup_of(setup, __arena_player_params);
                        $(let $forest_setup: &$crate::params::Setup = &_setup;)?
                        $crate::abi::forest_player_box($make_forest)
                    })
                }
            )?
            $crate::abi::v2::PlayerLibV2 {
                name: $crate::abi_stable::std_types::RStr::from_str($name),
                author: $crate::abi_stable::std_types::RStr::from_str($author),
                params,
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
                $crate::abi_stable::library::LibHeader::from_constructor::<$crate::abi::v2::PlayerLibV2Ref>(
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

/// The parameters given to [`export_player!`], as a list (none: empty).
#[doc(hidden)]
#[macro_export]
macro_rules! __arena_params {
    () => {
        ::std::vec::Vec::new()
    };
    ($params:expr) => {
        ::core::iter::IntoIterator::into_iter($params).collect::<::std::vec::Vec<$crate::params::Param>>()
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
