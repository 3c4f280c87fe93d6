//! ABI v2, released with parameters and memory (`tests/abi_snapshots/v2.txt`
//! is its snapshot): a player is made with a [`SetupV2`] (its parameters'
//! values and the memory it kept), declares the parameters it accepts
//! (`PlayerLibV2::params`), and hands its memory back at the end of a match
//! (`save_memory`, the last method of every game's player object). The
//! games' types it reaches are v1's, unchanged. Once released, FROZEN as
//! v1 is: what the ABI needs next goes in a new version beside (`abi/mod.rs`).

// The code #[sabi_trait] generates implements traits inside a const block.
#![allow(non_local_definitions)]

use abi_stable::{
    declare_root_module_statics,
    library::RootModule,
    package_version_strings, sabi_trait,
    sabi_types::VersionStrings,
    std_types::{RBox, ROption, RResult, RStr, RString, RVec},
    StableAbi,
};

use super::{catch, CatchPanics, PlayerError};
use crate::{
    hexapawn::{HexapawnAction, HexapawnGameInfo, HexapawnPlayer, HexapawnRequest},
    intuitive::{Cell, IntuitiveGameInfo, IntuitiveGameOver, IntuitivePlayer, IntuitiveRequest},
    magic_forest::{ForestAction, ForestGameInfo, ForestOver, ForestPlayer, ForestRequest},
    params::{Kind, Param, Setup, Value},
    trap::{Pos, TrapGameInfo, TrapPlayer, TrapRequest},
    wumpus::{WumpusAction, WumpusGameInfo, WumpusOver, WumpusPlayer, WumpusRequest},
    GameOver,
};

/// A parameter's type across the ABI.
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKindV2 {
    Int,
    Float,
}

/// A parameter a library declares ([`Param`] across the ABI).
#[repr(C)]
#[derive(StableAbi, Clone, Debug)]
pub struct ParamV2 {
    pub name: RString,
    pub kind: ParamKindV2,
    pub default: f64,
    pub min: f64,
    pub max: f64,
}

/// A parameter's value across the ABI ([`Value`]).
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq)]
pub enum ValueV2 {
    Int(i64),
    Float(f64),
}

/// One parameter's value, by name.
#[repr(C)]
#[derive(StableAbi, Clone, Debug)]
pub struct ParamValueV2 {
    pub name: RString,
    pub value: ValueV2,
}

/// What a player is made with ([`Setup`] across the ABI): every parameter
/// it declares, checked by the arena, and the memory it kept, if any.
#[repr(C)]
#[derive(StableAbi, Clone, Debug)]
pub struct SetupV2 {
    pub params: RVec<ParamValueV2>,
    pub memory: ROption<RVec<u8>>,
}

/// A library's constructor of one game's players (spelled out in the root
/// module: abi_stable reads function pointer types there, not aliases).
pub type MakeV2<B> = extern "C" fn(SetupV2) -> RResult<B, PlayerError>;

/// The root module a player library exports (through [`export_player!`](crate::export_player)).
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = PlayerLibV2Ref)))]
#[sabi(missing_field(option))]
pub struct PlayerLibV2 {
    /// The player's display name.
    pub name: RStr<'static>,
    /// Who wrote it (a student group, a course).
    pub author: RStr<'static>,
    /// The parameters it accepts (one list for every game it plays).
    pub params: extern "C" fn() -> RVec<ParamV2>,
    /// Makes a Trap player, if the library plays Trap.
    pub new_trap_player: Option<extern "C" fn(SetupV2) -> RResult<TrapPlayerBox, PlayerError>>,
    /// Makes an Intuitive AI player, if the library plays Intuitive AI.
    pub new_intuitive_player: Option<extern "C" fn(SetupV2) -> RResult<IntuitivePlayerBox, PlayerError>>,
    /// Makes a Hexapawn player, if the library plays Hexapawn.
    pub new_hexapawn_player: Option<extern "C" fn(SetupV2) -> RResult<HexapawnPlayerBox, PlayerError>>,
    /// Makes a Wumpus World player, if the library plays Wumpus World.
    pub new_wumpus_player: Option<extern "C" fn(SetupV2) -> RResult<WumpusPlayerBox, PlayerError>>,
    /// Makes a Magic Forest player, if the library plays Magic Forest.
    #[sabi(last_prefix_field)]
    pub new_forest_player: Option<extern "C" fn(SetupV2) -> RResult<ForestPlayerBox, PlayerError>>,
}

impl RootModule for PlayerLibV2Ref {
    declare_root_module_statics! {PlayerLibV2Ref}
    const BASE_NAME: &'static str = "arena_player";
    const NAME: &'static str = "arena player library";
    // Checked as abi_stable checks every type's package: 0.1.x (abi/mod.rs).
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
}

impl From<&Param> for ParamV2 {
    fn from(param: &Param) -> ParamV2 {
        let kind = match param.kind {
            Kind::Int => ParamKindV2::Int,
            Kind::Float => ParamKindV2::Float,
        };
        ParamV2 {
            name: param.name.as_str().into(),
            kind,
            default: param.default,
            min: param.min,
            max: param.max,
        }
    }
}

impl From<&ParamV2> for Param {
    fn from(param: &ParamV2) -> Param {
        let kind = match param.kind {
            ParamKindV2::Int => Kind::Int,
            ParamKindV2::Float => Kind::Float,
        };
        Param { name: param.name.to_string(), kind, default: param.default, min: param.min, max: param.max }
    }
}

impl From<&Setup> for SetupV2 {
    fn from(setup: &Setup) -> SetupV2 {
        let params = setup
            .params()
            .iter()
            .map(|(name, value)| {
                let value = match *value {
                    Value::Int(n) => ValueV2::Int(n),
                    Value::Float(x) => ValueV2::Float(x),
                };
                ParamValueV2 { name: name.as_str().into(), value }
            })
            .collect();
        SetupV2 { params, memory: setup.memory().map(RVec::from_slice).into() }
    }
}

impl From<SetupV2> for Setup {
    fn from(setup: SetupV2) -> Setup {
        let params = setup
            .params
            .into_iter()
            .map(|p| {
                let value = match p.value {
                    ValueV2::Int(n) => Value::Int(n),
                    ValueV2::Float(x) => Value::Float(x),
                };
                (p.name.into_string(), value)
            })
            .collect();
        Setup::new(params, setup.memory.into_option().map(RVec::into_vec))
    }
}

ffi_player! {
    player: TrapPlayer,
    /// A Trap player across the ABI. Every method reports a panic inside the
    /// library as `RErr(message)`.
    trait FfiTrapPlayerV2 {
        fn new_game(info: TrapGameInfo) -> ();
        fn get_move(req: TrapRequest) -> Pos;
        fn get_trap(req: TrapRequest) -> Pos;
        fn game_over(result: GameOver) -> ();
        memory: save_memory;
    }
    /// An owned Trap player object, from a library or built in.
    type TrapPlayerBox = FfiTrapPlayerV2_TO;
    /// Boxes a [`TrapPlayer`] as an ABI object that catches its panics.
    fn trap_player_box;
}

ffi_player! {
    player: IntuitivePlayer,
    /// An Intuitive AI player across the ABI.
    trait FfiIntuitivePlayerV2 {
        fn new_game(info: IntuitiveGameInfo) -> ();
        fn reveal(req: IntuitiveRequest) -> Cell;
        fn game_over(result: IntuitiveGameOver) -> ();
        memory: save_memory;
    }
    /// An owned Intuitive AI player object, from a library or built in.
    type IntuitivePlayerBox = FfiIntuitivePlayerV2_TO;
    /// Boxes an [`IntuitivePlayer`] as an ABI object that catches its panics.
    fn intuitive_player_box;
}

ffi_player! {
    player: HexapawnPlayer,
    /// A Hexapawn player across the ABI.
    trait FfiHexapawnPlayerV2 {
        fn new_game(info: HexapawnGameInfo) -> ();
        fn get_move(req: HexapawnRequest) -> HexapawnAction;
        fn game_over(result: GameOver) -> ();
        memory: save_memory;
    }
    /// An owned Hexapawn player object, from a library or built in.
    type HexapawnPlayerBox = FfiHexapawnPlayerV2_TO;
    /// Boxes a [`HexapawnPlayer`] as an ABI object that catches its panics.
    fn hexapawn_player_box;
}

ffi_player! {
    player: WumpusPlayer,
    /// A Wumpus World player across the ABI.
    trait FfiWumpusPlayerV2 {
        fn new_game(info: WumpusGameInfo) -> ();
        fn step(req: WumpusRequest) -> WumpusAction;
        fn game_over(result: WumpusOver) -> ();
        memory: save_memory;
    }
    /// An owned Wumpus World player object, from a library or built in.
    type WumpusPlayerBox = FfiWumpusPlayerV2_TO;
    /// Boxes a [`WumpusPlayer`] as an ABI object that catches its panics.
    fn wumpus_player_box;
}

ffi_player! {
    player: ForestPlayer,
    /// A Magic Forest player across the ABI.
    trait FfiForestPlayerV2 {
        fn new_game(info: ForestGameInfo) -> ();
        fn step(req: ForestRequest) -> ForestAction;
        fn game_over(result: ForestOver) -> ();
        memory: save_memory;
    }
    /// An owned Magic Forest player object, from a library or built in.
    type ForestPlayerBox = FfiForestPlayerV2_TO;
    /// Boxes a [`ForestPlayer`] as an ABI object that catches its panics.
    fn forest_player_box;
}
