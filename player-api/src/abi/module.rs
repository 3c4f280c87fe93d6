//! A player library's root module, of whichever released version it was
//! built for, seen through the current version's interface: the one place
//! an older version is adapted to today's. An older library lacks what
//! later versions added and plays with their defaults: a v1 library
//! declares no parameter, is made without its setup, and keeps no memory.

// The code #[sabi_trait] generates implements traits inside a const block.
#![allow(non_local_definitions)]

use abi_stable::{
    library::{LibHeader, LibraryError},
    sabi_trait::TD_Opaque,
    std_types::{ROption, RResult, RVec},
};

use super::{
    v1, v2, AbiVersion, FfiForestPlayerV2, FfiHexapawnPlayerV2, FfiIntuitivePlayerV2, FfiTrapPlayerV2,
    FfiWumpusPlayerV2, ForestPlayerBox, HexapawnPlayerBox, IntuitivePlayerBox, PlayerError, TrapPlayerBox,
    WumpusPlayerBox,
};
use crate::{
    hexapawn::{HexapawnAction, HexapawnGameInfo, HexapawnRequest},
    intuitive::{Cell, IntuitiveGameInfo, IntuitiveGameOver, IntuitiveRequest},
    magic_forest::{ForestAction, ForestGameInfo, ForestOver, ForestRequest},
    params::{Param, Setup},
    trap::{Pos, TrapGameInfo, TrapRequest},
    wumpus::{WumpusAction, WumpusGameInfo, WumpusOver, WumpusRequest},
    GameOver,
};

/// A library's root module, as the version it was built for has it.
#[derive(Clone, Copy)]
pub enum PlayerModule {
    V1(v1::PlayerLibRef),
    V2(v2::PlayerLibV2Ref),
}

/// A library's constructor of one game's players, making the current
/// version's player box (an older version's, adapted).
pub struct Constructor<B>(Box<Make<B>>);

/// How a [`Constructor`] makes a player.
type Make<B> = dyn Fn(&Setup) -> RResult<B, PlayerError> + Send + Sync;

impl<B> Constructor<B> {
    /// A fresh player made with `setup`, or the panic the library caught
    /// making it.
    pub fn make(&self, setup: &Setup) -> RResult<B, PlayerError> {
        (self.0)(setup)
    }
}

impl<B: 'static> Constructor<B> {
    /// A constructor the library exports with the current version's box.
    fn native(make: v2::MakeV2<B>) -> Constructor<B> {
        Constructor(Box::new(move |setup| make(setup.into())))
    }

    /// A v1 constructor, its box adapted: made without the setup.
    fn from_v1<Old: 'static>(
        make: extern "C" fn() -> RResult<Old, PlayerError>,
        adapt: fn(Old) -> B,
    ) -> Constructor<B> {
        Constructor(Box::new(move |_| make().map(adapt)))
    }
}

impl PlayerModule {
    /// Checks the root module `header` holds against `version`'s layout
    /// (the version the library's probe names), and initialises it.
    pub fn init(header: &LibHeader, version: AbiVersion) -> Result<PlayerModule, LibraryError> {
        match version {
            AbiVersion::V1 => header.init_root_module::<v1::PlayerLibRef>().map(PlayerModule::V1),
            AbiVersion::V2 => header.init_root_module::<v2::PlayerLibV2Ref>().map(PlayerModule::V2),
        }
    }

    /// The version the library was built for.
    pub fn version(self) -> AbiVersion {
        match self {
            PlayerModule::V1(_) => AbiVersion::V1,
            PlayerModule::V2(_) => AbiVersion::V2,
        }
    }

    /// The player's display name.
    pub fn name(self) -> &'static str {
        match self {
            PlayerModule::V1(module) => module.name().as_str(),
            PlayerModule::V2(module) => module.name().as_str(),
        }
    }

    /// Who wrote it.
    pub fn author(self) -> &'static str {
        match self {
            PlayerModule::V1(module) => module.author().as_str(),
            PlayerModule::V2(module) => module.author().as_str(),
        }
    }

    /// The parameters the library accepts (v1: none).
    pub fn params(self) -> Vec<Param> {
        match self {
            PlayerModule::V1(_) => Vec::new(),
            PlayerModule::V2(module) => module.params()().iter().map(Param::from).collect(),
        }
    }

    /// The library's Trap constructor, if it plays Trap.
    pub fn trap(self) -> Option<Constructor<TrapPlayerBox>> {
        match self {
            PlayerModule::V1(module) => {
                module.new_trap_player().map(|make| Constructor::from_v1(make, trap_from_v1))
            }
            PlayerModule::V2(module) => module.new_trap_player().map(Constructor::native),
        }
    }

    /// The library's Intuitive AI constructor, if it plays Intuitive AI.
    pub fn intuitive(self) -> Option<Constructor<IntuitivePlayerBox>> {
        match self {
            PlayerModule::V1(module) => {
                module.intuitive_constructor().map(|make| Constructor::from_v1(make, intuitive_from_v1))
            }
            PlayerModule::V2(module) => module.new_intuitive_player().map(Constructor::native),
        }
    }

    /// The library's Hexapawn constructor, if it plays Hexapawn.
    pub fn hexapawn(self) -> Option<Constructor<HexapawnPlayerBox>> {
        match self {
            PlayerModule::V1(module) => {
                module.hexapawn_constructor().map(|make| Constructor::from_v1(make, hexapawn_from_v1))
            }
            PlayerModule::V2(module) => module.new_hexapawn_player().map(Constructor::native),
        }
    }

    /// The library's Wumpus World constructor, if it plays Wumpus World.
    pub fn wumpus(self) -> Option<Constructor<WumpusPlayerBox>> {
        match self {
            PlayerModule::V1(module) => {
                module.wumpus_constructor().map(|make| Constructor::from_v1(make, wumpus_from_v1))
            }
            PlayerModule::V2(module) => module.new_wumpus_player().map(Constructor::native),
        }
    }

    /// The library's Magic Forest constructor, if it plays Magic Forest.
    pub fn forest(self) -> Option<Constructor<ForestPlayerBox>> {
        match self {
            PlayerModule::V1(module) => {
                module.forest_constructor().map(|make| Constructor::from_v1(make, forest_from_v1))
            }
            PlayerModule::V2(module) => module.new_forest_player().map(Constructor::native),
        }
    }
}

/// A v1 player object seen as the current version's: every call passed
/// through, and no memory to hand back.
struct FromV1<B>(B);

/// Implements a game's current player trait for its v1 box in [`FromV1`],
/// and the function that boxes one.
macro_rules! from_v1 {
    ($trait:ident for $old:ty => $new:ty, $adapt:ident {
        $(fn $method:ident($arg:ident: $arg_ty:ty) -> $ret:ty;)*
    }) => {
        impl $trait for FromV1<$old> {
            $(
                fn $method(&mut self, $arg: $arg_ty) -> RResult<$ret, PlayerError> {
                    self.0.$method($arg)
                }
            )*
            fn save_memory(&mut self) -> RResult<ROption<RVec<u8>>, PlayerError> {
                RResult::ROk(ROption::RNone)
            }
        }

        fn $adapt(old: $old) -> $new {
            <$new>::from_value(FromV1(old), TD_Opaque)
        }
    };
}

from_v1!(FfiTrapPlayerV2 for v1::TrapPlayerBox => TrapPlayerBox, trap_from_v1 {
    fn new_game(info: TrapGameInfo) -> ();
    fn get_move(req: TrapRequest) -> Pos;
    fn get_trap(req: TrapRequest) -> Pos;
    fn game_over(result: GameOver) -> ();
});
from_v1!(FfiIntuitivePlayerV2 for v1::IntuitivePlayerBox => IntuitivePlayerBox, intuitive_from_v1 {
    fn new_game(info: IntuitiveGameInfo) -> ();
    fn reveal(req: IntuitiveRequest) -> Cell;
    fn game_over(result: IntuitiveGameOver) -> ();
});
from_v1!(FfiHexapawnPlayerV2 for v1::HexapawnPlayerBox => HexapawnPlayerBox, hexapawn_from_v1 {
    fn new_game(info: HexapawnGameInfo) -> ();
    fn get_move(req: HexapawnRequest) -> HexapawnAction;
    fn game_over(result: GameOver) -> ();
});
from_v1!(FfiWumpusPlayerV2 for v1::WumpusPlayerBox => WumpusPlayerBox, wumpus_from_v1 {
    fn new_game(info: WumpusGameInfo) -> ();
    fn step(req: WumpusRequest) -> WumpusAction;
    fn game_over(result: WumpusOver) -> ();
});
from_v1!(FfiForestPlayerV2 for v1::ForestPlayerBox => ForestPlayerBox, forest_from_v1 {
    fn new_game(info: ForestGameInfo) -> ();
    fn step(req: ForestRequest) -> ForestAction;
    fn game_over(result: ForestOver) -> ();
});
