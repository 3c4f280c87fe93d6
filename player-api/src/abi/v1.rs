//! ABI v1, FROZEN: the layout every player library built before ABI
//! versions existed exports (player-api 0.1.0; `tests/abi_snapshots/v1.txt`
//! is its snapshot). The arena loads a library its probe says is v1, or
//! that has no probe, through these types. Never change a name, a field,
//! a method, their order or their types here, nor in the game types these
//! reach: a v1 library would be refused. What the ABI needs next goes in a
//! new version beside this one (the rule: `abi/mod.rs`).

// The code #[sabi_trait] generates implements traits inside a const block.
#![allow(non_local_definitions)]

use abi_stable::{
    declare_root_module_statics,
    library::RootModule,
    package_version_strings, sabi_trait,
    sabi_types::VersionStrings,
    std_types::{RBox, RResult, RStr},
    StableAbi,
};

use super::{catch, CatchPanics, PlayerError};
use crate::{
    hexapawn::{HexapawnAction, HexapawnGameInfo, HexapawnPlayer, HexapawnRequest},
    intuitive::{Cell, IntuitiveGameInfo, IntuitiveGameOver, IntuitivePlayer, IntuitiveRequest},
    magic_forest::{ForestAction, ForestGameInfo, ForestOver, ForestPlayer, ForestRequest},
    trap::{Pos, TrapGameInfo, TrapPlayer, TrapRequest},
    wumpus::{WumpusAction, WumpusGameInfo, WumpusOver, WumpusPlayer, WumpusRequest},
    GameOver,
};

/// The root module a player library exports (through [`export_player!`](crate::export_player)).
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
    // After the prefix: appended while v1 grew, before it was released and
    // frozen. A v1 library has all five (a library with fewer is refused).
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
    /// The Intuitive AI constructor, if the library has one.
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
    // Checked as abi_stable checks every type's package: 0.1.x (abi/mod.rs).
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
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
