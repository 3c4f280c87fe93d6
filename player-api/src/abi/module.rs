//! A player library's root module, of whichever released version it was
//! built for, seen through the current version's interface: the one place
//! an older version is adapted to today's. An older library lacks what
//! later versions added and plays with their defaults.

use abi_stable::{
    library::{LibHeader, LibraryError},
    std_types::RResult,
};

use super::{
    v1, AbiVersion, ForestPlayerBox, HexapawnPlayerBox, IntuitivePlayerBox, PlayerError, TrapPlayerBox,
    WumpusPlayerBox,
};

/// A library's root module, as the version it was built for has it.
#[derive(Clone, Copy)]
pub enum PlayerModule {
    V1(v1::PlayerLibRef),
}

/// A library's constructor of one game's players, making the current
/// version's player box (an older version's, adapted).
pub struct Constructor<B>(Box<dyn Fn() -> RResult<B, PlayerError> + Send + Sync>);

impl<B> Constructor<B> {
    /// A fresh player, or the panic the library caught making it.
    pub fn make(&self) -> RResult<B, PlayerError> {
        (self.0)()
    }
}

impl<B: 'static> Constructor<B> {
    /// A constructor the library exports with the current version's box.
    fn native(make: extern "C" fn() -> RResult<B, PlayerError>) -> Constructor<B> {
        Constructor(Box::new(move || make()))
    }
}

impl PlayerModule {
    /// Checks the root module `header` holds against `version`'s layout
    /// (the version the library's probe names), and initialises it.
    pub fn init(header: &LibHeader, version: AbiVersion) -> Result<PlayerModule, LibraryError> {
        match version {
            AbiVersion::V1 => header.init_root_module::<v1::PlayerLibRef>().map(PlayerModule::V1),
        }
    }

    /// The version the library was built for.
    pub fn version(self) -> AbiVersion {
        match self {
            PlayerModule::V1(_) => AbiVersion::V1,
        }
    }

    /// The player's display name.
    pub fn name(self) -> &'static str {
        match self {
            PlayerModule::V1(module) => module.name().as_str(),
        }
    }

    /// Who wrote it.
    pub fn author(self) -> &'static str {
        match self {
            PlayerModule::V1(module) => module.author().as_str(),
        }
    }

    /// The library's Trap constructor, if it plays Trap.
    pub fn trap(self) -> Option<Constructor<TrapPlayerBox>> {
        match self {
            PlayerModule::V1(module) => module.new_trap_player().map(Constructor::native),
        }
    }

    /// The library's Intuitive AI constructor, if it plays Intuitive AI.
    pub fn intuitive(self) -> Option<Constructor<IntuitivePlayerBox>> {
        match self {
            PlayerModule::V1(module) => module.intuitive_constructor().map(Constructor::native),
        }
    }

    /// The library's Hexapawn constructor, if it plays Hexapawn.
    pub fn hexapawn(self) -> Option<Constructor<HexapawnPlayerBox>> {
        match self {
            PlayerModule::V1(module) => module.hexapawn_constructor().map(Constructor::native),
        }
    }

    /// The library's Wumpus World constructor, if it plays Wumpus World.
    pub fn wumpus(self) -> Option<Constructor<WumpusPlayerBox>> {
        match self {
            PlayerModule::V1(module) => module.wumpus_constructor().map(Constructor::native),
        }
    }

    /// The library's Magic Forest constructor, if it plays Magic Forest.
    pub fn forest(self) -> Option<Constructor<ForestPlayerBox>> {
        match self {
            PlayerModule::V1(module) => module.forest_constructor().map(Constructor::native),
        }
    }
}
