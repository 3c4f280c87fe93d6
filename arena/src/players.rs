//! Where players come from: a built-in reference bot named on the command
//! line (`easy`, `medium`, `hard`, `expert`), run in-process, or a player
//! library loaded from a path.

use std::{fmt, path::PathBuf, str::FromStr};

use std::time::Duration;

use player_api::abi::{trap_player_box, TrapPlayerBox};
use reference_bots::trap::{Easy, Expert, Hard, Medium};

use crate::{
    agent::TrapAgent,
    fault::Fault,
    isolation::{Hello, Hosted, IsolatedPlayer, Worker, WorkerLimits},
    plugin::{LoadError, PlayerLibrary},
};

/// A reference level, built into the arena.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    /// Beyond the course: the strongest bot we build (not part of grading).
    Expert,
}

impl Level {
    /// The course's three levels: the ladder a student is graded against.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];
    /// Every built-in bot, by name.
    pub const BUILTIN: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    /// This level as a Trap player in this process.
    pub fn new_trap_player(self) -> TrapPlayerBox {
        match self {
            Level::Easy => trap_player_box(Easy::default()),
            Level::Medium => trap_player_box(Medium),
            Level::Hard => trap_player_box(Hard),
            Level::Expert => trap_player_box(Expert::default()),
        }
    }
}

/// How a player was named: a built-in level or a library path.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayerSpec {
    Builtin(Level),
    Library(PathBuf),
}

impl FromStr for PlayerSpec {
    type Err = String;

    /// A built-in name, or a path. A word that is neither is an error that
    /// lists the built-in names (rather than a confusing "file not found").
    fn from_str(text: &str) -> Result<PlayerSpec, String> {
        if let Some(level) = Level::BUILTIN.into_iter().find(|l| l.name() == text.to_ascii_lowercase()) {
            return Ok(PlayerSpec::Builtin(level));
        }
        let path = PathBuf::from(text);
        let looks_like_path = text.contains(std::path::MAIN_SEPARATOR) || text.contains('.');
        if looks_like_path || path.exists() {
            Ok(PlayerSpec::Library(path))
        } else {
            Err(format!(
                "unknown player '{text}': name a built-in bot (easy, medium, hard, expert) or the path of a player library (.so)"
            ))
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Builtin(level) => write!(f, "{}", level.name()),
            PlayerSpec::Library(path) => write!(f, "{}", path.display()),
        }
    }
}

/// A player ready to make instances.
#[derive(Clone)]
pub enum Player {
    /// A reference level built into the arena.
    Builtin(Level),
    /// A library loaded into this process.
    Library(PlayerLibrary),
    /// A library that runs in worker processes: what its first worker said.
    Isolated { path: PathBuf, hello: Hello },
}

impl Player {
    /// Loads the player a spec names. Under isolation a library is never
    /// loaded into this process: a first worker loads it and introduces it.
    pub fn load(spec: &PlayerSpec, hosting: &Hosting, startup: Duration) -> Result<Player, LoadError> {
        match (spec, &hosting.limits) {
            (PlayerSpec::Builtin(level), _) => Ok(Player::Builtin(*level)),
            (PlayerSpec::Library(path), Some(limits)) if hosting.isolate_libraries => {
                if !path.is_file() {
                    return Err(LoadError::Missing(path.clone()));
                }
                let path = path.canonicalize().unwrap_or_else(|_| path.clone());
                let hosted = Hosted::Library(path.clone());
                match Worker::spawn(&hosted, limits, startup) {
                    Ok(worker) => Ok(Player::Isolated { path, hello: worker.hello.clone() }),
                    Err(fault) => {
                        let message = match fault {
                            Fault::Unavailable(message) => message,
                            other => other.to_string(),
                        };
                        Err(LoadError::InWorker { path, message })
                    }
                }
            }
            (PlayerSpec::Library(path), _) => {
                let library = PlayerLibrary::load(path)?;
                // Make one player now, as a worker would, so that a player that
                // cannot start is a load error in both modes.
                if library.games().contains(&"trap") {
                    library
                        .new_trap_player()
                        .map_err(|detail| LoadError::Failed { path: path.clone(), detail })?;
                }
                Ok(Player::Library(library))
            }
        }
    }

    /// The display name: the level, or the name the library gives itself.
    pub fn name(&self) -> &str {
        match self {
            Player::Builtin(level) => level.name(),
            Player::Library(library) => library.name(),
            Player::Isolated { hello, .. } => &hello.name,
        }
    }

    pub fn author(&self) -> &str {
        match self {
            Player::Builtin(_) => "arena reference bots",
            Player::Library(library) => library.author(),
            Player::Isolated { hello, .. } => &hello.author,
        }
    }

    /// The player-api version a library was built against (built-ins: this one).
    pub fn api_version(&self) -> &str {
        match self {
            Player::Builtin(_) => player_api::abi::API_VERSION,
            Player::Library(library) => library.api_version(),
            Player::Isolated { hello, .. } => &hello.player_api,
        }
    }

    /// The games this player plays.
    pub fn games(&self) -> Vec<String> {
        match self {
            Player::Builtin(_) => vec!["trap".to_string()],
            Player::Library(library) => library.games().iter().map(|g| g.to_string()).collect(),
            Player::Isolated { hello, .. } => hello.games.clone(),
        }
    }

    /// A fresh Trap player instance in this process.
    pub fn new_trap_player(&self) -> Result<TrapPlayerBox, String> {
        match self {
            Player::Builtin(level) => Ok(level.new_trap_player()),
            Player::Library(library) => library.new_trap_player(),
            Player::Isolated { path, .. } => PlayerLibrary::load(path)
                .map_err(|e| e.to_string())
                .and_then(|library| library.new_trap_player()),
        }
    }

    /// A fresh Trap player, hosted where `hosting` says.
    pub fn new_trap_agent(&self, hosting: &Hosting, startup: Duration) -> Result<Box<dyn TrapAgent>, Fault> {
        let hosted = match self {
            Player::Isolated { path, .. } => Some(Hosted::Library(path.clone())),
            Player::Builtin(level) if hosting.isolate_builtins => Some(Hosted::Builtin(*level)),
            _ => None,
        };
        match (hosted, &hosting.limits) {
            (Some(hosted), Some(limits)) => Ok(Box::new(IsolatedPlayer::start(&hosted, limits, startup)?)),
            (Some(_), None) => {
                Err(Fault::Unavailable("isolation asked for, but no worker limits set".into()))
            }
            (None, _) => Ok(Box::new(self.new_trap_player().map_err(Fault::Unavailable)?)),
        }
    }
}

/// Where player instances run.
#[derive(Clone, Debug)]
pub struct Hosting {
    /// Players loaded from a path run in worker processes (the default).
    pub isolate_libraries: bool,
    /// Built-in bots run in worker processes too (for measuring isolation).
    pub isolate_builtins: bool,
    /// The workers' limits; needed when anything is isolated.
    pub limits: Option<WorkerLimits>,
}

impl Hosting {
    /// Everything in this process: fast, but a crash or a hang in a library
    /// takes the arena with it.
    pub fn in_process() -> Hosting {
        Hosting { isolate_libraries: false, isolate_builtins: false, limits: None }
    }

    /// The default: libraries isolated, built-ins in process.
    pub fn isolated(limits: WorkerLimits) -> Hosting {
        Hosting { isolate_libraries: true, isolate_builtins: false, limits: Some(limits) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_names_and_paths_are_told_apart() {
        assert_eq!("hard".parse(), Ok(PlayerSpec::Builtin(Level::Hard)));
        assert_eq!("Easy".parse(), Ok(PlayerSpec::Builtin(Level::Easy)));
        assert_eq!("expert".parse(), Ok(PlayerSpec::Builtin(Level::Expert)));
        assert_eq!("./bot.so".parse(), Ok(PlayerSpec::Library(PathBuf::from("./bot.so"))));
        let err = "grandmaster".parse::<PlayerSpec>().unwrap_err();
        assert!(
            err.contains("unknown player 'grandmaster'") && err.contains("easy, medium, hard, expert"),
            "{err}"
        );
    }
}
