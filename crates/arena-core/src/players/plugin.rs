//! Loading a player library (a `cdylib` built with `export_player!`).
//!
//! The library's ABI version comes first: its probe, read before anything
//! else (none: it was built before probes, and is v1). Its root module is
//! then checked against that version's layout, and seen through today's
//! interface (`player_api::abi::PlayerModule`, where the versions live).
//!
//! `RootModule::load_from_file` caches one module per interface type, so a
//! second, different player library would silently come back as the first.
//! We load with `lib_header_from_raw_library` + `init_root_module` instead,
//! which checks the player-api version and the ABI layout of each library
//! itself.
//!
//! A loaded library is never unloaded (it is forgotten once it has a header),
//! and the instances of one library in one process share its statics: a
//! reason, with crashes and hangs, that a library from a path runs in a
//! worker of its own unless `--in-process` says otherwise.

use std::{
    fmt,
    path::{Path, PathBuf},
};

use abi_stable::library::{lib_header_from_raw_library, LibraryError, RawLibrary};
use player_api::{
    abi::{self, AbiVersion, Constructor, PlayerModule, API_VERSION},
    params::{Param, Setup},
};

use crate::{game::GameId, play::fault::player_line, players::agent::AbiGame};

/// A player library, loaded and checked.
#[derive(Clone)]
pub struct PlayerLibrary {
    path: PathBuf,
    module: PlayerModule,
    api_version: String,
    /// Its name and author as it gives them, kept as a worker's are (with
    /// its `api_version`: `fault::player_line`).
    name: String,
    author: String,
}

/// Why a file could not be loaded as a player library. Each message names
/// the file and says what to do.
#[derive(Debug)]
pub enum LoadError {
    Missing(PathBuf),
    NotALibrary {
        path: PathBuf,
        detail: String,
    },
    NotAPlayer(PathBuf),
    /// Its probe names an ABI version this arena does not know (a newer
    /// arena's, or a number no version has).
    UnknownAbi {
        path: PathBuf,
        number: u32,
    },
    IncompatibleVersion {
        path: PathBuf,
        library: String,
    },
    IncompatibleLayout {
        path: PathBuf,
        detail: String,
    },
    Failed {
        path: PathBuf,
        detail: String,
    },
    /// The library failed in its worker process; the worker said why.
    InWorker {
        path: PathBuf,
        message: String,
    },
    /// A program player (`cmd:...`, `python:...`) could not start.
    Program {
        spec: String,
        message: String,
    },
    /// The machine kept the player from a core past the bound while it
    /// started (`Fault::Overloaded`): not the player's fault; load it again
    /// later.
    Overloaded(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Missing(path) => write!(
                f,
                "no player library at {}: check the path (a player crate builds to target/release/lib<name>.so)",
                path.display()
            ),
            LoadError::NotALibrary { path, detail } => write!(
                f,
                "{} is not a shared library the arena can load ({detail}): build your player with crate-type = [\"cdylib\"]",
                path.display()
            ),
            LoadError::NotAPlayer(path) => write!(
                f,
                "{} is a shared library but not an arena player (it exports no player module): add `player_api::export_player!` to it",
                path.display()
            ),
            LoadError::UnknownAbi { path, number } => {
                let (oldest, newest) = (AbiVersion::ALL[0].number(), AbiVersion::CURRENT.number());
                if *number > newest {
                    write!(
                        f,
                        "{} was built for ABI v{number}, newer than this arena (knows v{oldest}..v{newest}): update the arena, or rebuild the player against this arena's player-api {API_VERSION} (`arena new` writes it)",
                        path.display()
                    )
                } else {
                    write!(
                        f,
                        "{} names ABI v{number}, which no arena knows: rebuild the player against this arena's player-api {API_VERSION} (`arena new` writes it)",
                        path.display()
                    )
                }
            }
            LoadError::IncompatibleVersion { path, library } => write!(
                f,
                "{} was built against player-api {library}, but this arena speaks player-api {API_VERSION}: rebuild the player against this arena's player-api",
                path.display()
            ),
            LoadError::IncompatibleLayout { path, detail } => write!(
                f,
                "{} was built against an incompatible player-api (its ABI layout differs: {detail}): rebuild the player against this arena's player-api {API_VERSION}",
                path.display()
            ),
            LoadError::Failed { path, detail } => {
                write!(f, "{} failed to initialise: {detail}", path.display())
            }
            LoadError::InWorker { path, message } => {
                if message.contains(&path.display().to_string()) {
                    write!(f, "{message}")
                } else {
                    write!(f, "{}: {message}", path.display())
                }
            }
            // Callers name the player (the spec) already.
            LoadError::Program { message, .. } => write!(f, "{message}"),
            LoadError::Overloaded(fault) => {
                write!(f, "{fault}: load it again when the machine is less busy")
            }
        }
    }
}

impl std::error::Error for LoadError {}

impl PlayerLibrary {
    /// Loads and checks the library at `path`.
    pub fn load(path: &Path) -> Result<PlayerLibrary, LoadError> {
        if !path.is_file() {
            return Err(LoadError::Missing(path.to_path_buf()));
        }
        // dlopen needs a path with a slash, or it searches the system paths.
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        let library = RawLibrary::load_at(&path).map_err(|e| classify(&path, e))?;
        let version = AbiVersion::of_probe(abi::probe(&library))
            .map_err(|number| LoadError::UnknownAbi { path: path.clone(), number })?;
        // SAFETY: the library is never unloaded (forgotten once it has a
        // header, as lib_header_from_path does), so the header stays valid.
        let header = unsafe { lib_header_from_raw_library(&library) }.map_err(|e| classify(&path, e))?;
        std::mem::forget(library);
        let api_version = player_line(header.version_strings().version.to_string());
        let module = PlayerModule::init(header, version).map_err(|e| classify(&path, e))?;
        let (name, author) = (player_line(module.name().into()), player_line(module.author().into()));
        Ok(PlayerLibrary { path, module, api_version, name, author })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn author(&self) -> &str {
        &self.author
    }

    /// The player-api version the library was built against.
    pub fn api_version(&self) -> &str {
        &self.api_version
    }

    /// The ABI version the library was built for.
    pub fn abi_version(&self) -> AbiVersion {
        self.module.version()
    }

    /// Whether this library plays game `G` (every game's: `loading.rs`).
    pub fn offers<G: AbiGame>(&self) -> bool {
        G::constructor(self.module).is_some()
    }

    /// The parameters the library accepts (v1: none).
    pub fn params(&self) -> Vec<Param> {
        self.module.params()
    }

    /// A fresh player of game `G` from this library, made with `setup`, or
    /// why there is none.
    pub fn new_player<G: AbiGame>(&self, setup: &Setup) -> Result<G::PlayerBox, String> {
        self.construct(G::ID, G::constructor(self.module), setup)
    }

    fn construct<B>(
        &self,
        game: GameId,
        constructor: Option<Constructor<B>>,
        setup: &Setup,
    ) -> Result<B, String> {
        let make = constructor.ok_or_else(|| {
            format!(
                "{} does not play {game} (`arena check {0}` lists the games it plays)",
                self.path.display()
            )
        })?;
        make.make(setup).into_result().map_err(|panic| format!("panicked while starting: {panic}"))
    }
}

fn classify(path: &Path, error: LibraryError) -> LoadError {
    let path = path.to_path_buf();
    match error {
        LibraryError::OpenError { err, .. } => LoadError::NotALibrary { path, detail: err.to_string() },
        LibraryError::GetSymbolError { .. } => LoadError::NotAPlayer(path),
        LibraryError::IncompatibleVersionNumber { actual_version, .. } => {
            LoadError::IncompatibleVersion { path, library: actual_version.to_string() }
        }
        LibraryError::AbiInstability(detail) => {
            let detail = detail.to_string();
            tracing::debug!("ABI mismatch in {}:\n{detail}", path.display());
            LoadError::IncompatibleLayout {
                path,
                detail: "run with RUST_LOG=debug for the full comparison".to_string(),
            }
        }
        LibraryError::InvalidAbiHeader(_) | LibraryError::InvalidCAbi { .. } => {
            LoadError::IncompatibleLayout {
                path,
                detail: "it was built with an incompatible abi_stable or Rust ABI".to_string(),
            }
        }
        other => LoadError::Failed { path, detail: other.to_string() },
    }
}

#[cfg(test)]
mod tests {
    use abi_stable::sabi_types::VersionNumber;

    use super::*;

    #[test]
    fn a_version_mismatch_names_both_versions_and_the_fix() {
        let error = LibraryError::IncompatibleVersionNumber {
            library_name: "arena player library",
            expected_version: VersionNumber { major: 0, minor: 1, patch: 0 },
            actual_version: VersionNumber { major: 0, minor: 0, patch: 3 },
        };
        let message = classify(Path::new("/tmp/libold.so"), error).to_string();
        assert!(message.contains("/tmp/libold.so was built against player-api 0.0.3"), "{message}");
        assert!(message.contains(&format!("this arena speaks player-api {API_VERSION}")), "{message}");
        assert!(message.contains("rebuild the player"), "{message}");
    }

    #[test]
    fn a_probe_of_no_version_says_so_and_how_to_rebuild() {
        let message = LoadError::UnknownAbi { path: "/tmp/libodd.so".into(), number: 0 }.to_string();
        assert!(
            message.starts_with("/tmp/libodd.so names ABI v0, which no arena knows: rebuild"),
            "{message}"
        );
        assert!(message.contains(&format!("player-api {API_VERSION}")), "{message}");
    }
}
