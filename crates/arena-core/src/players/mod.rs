//! Where players come from: a built-in reference bot named on the command
//! line (`easy`, `medium`, `hard`, `expert`), run in-process, a player
//! library loaded from a path, or a program that speaks the protocol
//! (`cmd:...`, `python:...`, a `.py` file or a course folder: external.rs).
//! What of a player needs every game (loading one from its spec, which
//! probes a library's first game; the games it plays) is `loading.rs`'s,
//! above the games table.

use std::{fmt, path::PathBuf, str::FromStr, sync::Arc};

use std::time::Duration;

use player_api::{abi::AbiVersion, params::Setup};

use crate::{
    game::Agent,
    play::clock::Clock,
    play::fault::Fault,
    players::agent::{AbiGame, AbiPlayer},
    players::external::Program,
    players::isolation::{Hello, Hosted, IsolatedPlayer, Launch, Spare, WireGame, WorkerLimits},
    players::person::{Person, PersonGame},
    players::plugin::PlayerLibrary,
    sandbox::Sandbox,
};

pub use crate::players::levels::Level;

pub mod agent;
pub mod check;
pub mod external;
pub mod folders;
pub mod gradescope;
pub mod hand_in;
pub mod isolation;
pub mod levels;
pub mod loading;
pub mod memory;
pub mod params;
pub mod person;
pub mod plugin;
pub mod protocol;
pub mod python_host;
pub mod scaffold;
pub mod worker;

/// How a player was named: a built-in level, a library path, a program,
/// or `human`: a person at the table.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayerSpec {
    Builtin(Level),
    Library(PathBuf),
    Program(Program),
    Person,
}

impl FromStr for PlayerSpec {
    type Err = String;

    /// A built-in name, `cmd:COMMAND`, `python:PATH`, or a path (a `.py`
    /// file or a folder holding PlayerAI.py is a Python player; any other
    /// path a library). A word that is none of these is an error that lists
    /// the built-in names (rather than a confusing "file not found").
    fn from_str(text: &str) -> Result<PlayerSpec, String> {
        if text.eq_ignore_ascii_case(person::NAME) {
            return Ok(PlayerSpec::Person);
        }
        if let Some(level) = Level::parse(&text.to_ascii_lowercase()) {
            return Ok(PlayerSpec::Builtin(level));
        }
        if let Some(program) = Program::parse(text) {
            return program.map(PlayerSpec::Program);
        }
        let path = PathBuf::from(text);
        if Program::is_python_path(&path) {
            return Ok(PlayerSpec::Program(Program::Python(path)));
        }
        let looks_like_path = text.contains(std::path::MAIN_SEPARATOR) || text.contains('.');
        if looks_like_path || path.exists() {
            Ok(PlayerSpec::Library(path))
        } else {
            Err(format!(
                "unknown player '{text}': name a built-in bot (easy, medium, hard, expert, menace), human (you, at the table), the path of a player library (.so), python:PATH or cmd:COMMAND"
            ))
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Builtin(level) => write!(f, "{}", level.name()),
            PlayerSpec::Library(path) => write!(f, "{}", path.display()),
            PlayerSpec::Program(program) => write!(f, "{program}"),
            PlayerSpec::Person => f.write_str(person::NAME),
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
    /// A library that runs in worker processes: what its first worker
    /// said, and that worker (`spare`), kept for its first instance.
    Isolated { path: PathBuf, hello: Hello, spare: Spare },
    /// A program that speaks the protocol; each instance is a process of
    /// its own, the first the one that said hello (`spare`).
    Program { program: Program, launch: Launch, hello: Hello, spare: Spare },
    /// A player that did not load, kept where a tournament lets it forfeit
    /// (a Gradescope export's submission): each of its games is lost by
    /// `why` at its start, as by a player that cannot start.
    Forfeit { name: String, why: String },
    /// A player with what each of its instances is made with: its
    /// parameters' values (checked against what it declares) and its
    /// memory (`params.rs`: `Player::with_params`, `Player::with_memory`).
    Configured { player: Box<Player>, setup: Arc<Setup> },
    /// A person at a table (`players/person/`).
    Person(Person),
}

impl Player {
    /// The display name: the level, or the name the library gives itself.
    pub fn name(&self) -> &str {
        match self {
            Player::Builtin(level) => level.name(),
            Player::Library(library) => library.name(),
            Player::Isolated { hello, .. } | Player::Program { hello, .. } => &hello.name,
            Player::Forfeit { name, .. } => name,
            Player::Configured { player, .. } => player.name(),
            Player::Person(_) => person::NAME,
        }
    }

    pub fn author(&self) -> &str {
        match self {
            Player::Builtin(_) => "arena reference bots",
            Player::Library(library) => library.author(),
            Player::Isolated { hello, .. } | Player::Program { hello, .. } => &hello.author,
            Player::Forfeit { .. } => "",
            Player::Configured { player, .. } => player.author(),
            Player::Person(_) => "a person at the table",
        }
    }

    /// The player-api version a library was built against (built-ins: this
    /// one; programs: none).
    pub fn api_version(&self) -> &str {
        match self {
            Player::Builtin(_) => player_api::abi::API_VERSION,
            Player::Library(library) => library.api_version(),
            Player::Isolated { hello, .. } | Player::Program { hello, .. } => &hello.player_api,
            Player::Forfeit { .. } | Player::Person(_) => "",
            Player::Configured { player, .. } => player.api_version(),
        }
    }

    /// The ABI version a library was built for (built-ins: the current
    /// one; programs: none).
    pub fn abi_version(&self) -> Option<AbiVersion> {
        match self {
            Player::Builtin(_) => Some(AbiVersion::CURRENT),
            Player::Library(library) => Some(library.abi_version()),
            Player::Isolated { hello, .. } => hello.abi.and_then(AbiVersion::from_number),
            Player::Program { .. } | Player::Forfeit { .. } | Player::Person(_) => None,
            Player::Configured { player, .. } => player.abi_version(),
        }
    }

    /// The player as loaded, and what its instances are made with (nothing,
    /// unless configured).
    pub fn setup(&self) -> (&Player, Setup) {
        match self {
            Player::Configured { player, setup } => (player, (**setup).clone()),
            player => (player, Setup::default()),
        }
    }

    /// A fresh player of game `G`, hosted where `hosting` says: in a worker
    /// (a program, an isolated library), or in this process through the ABI.
    pub fn new_agent<G: AbiGame + WireGame + PersonGame>(
        &self,
        hosting: &Hosting,
        startup: Duration,
    ) -> Result<Box<dyn Agent<G>>, Fault> {
        if let Player::Person(person) = self {
            return Ok(Box::new(person.agent::<G>()));
        }
        let (player, setup) = self.setup();
        // A start that fails is the player's fault like a call's: its words cut.
        if let Some((hosted, limits)) = player.worker_for(hosting)? {
            let started = match player.spare().and_then(|spare| spare.take(&hosted, &limits)) {
                Some(worker) => IsolatedPlayer::from_worker(G::ID, worker),
                None => IsolatedPlayer::start_for(G::ID, &hosted, &limits, startup),
            };
            let mut isolated = started.map_err(Fault::cut)?;
            isolated.set_up(&setup, startup).map_err(Fault::cut)?;
            return Ok(Box::new(isolated));
        }
        let made = player.player_box::<G>(&setup).map_err(|why| Fault::Unavailable(why).cut())?;
        Ok(Box::new(AbiPlayer::<G>(made)))
    }

    /// The worker kept from its load, if it runs in workers.
    fn spare(&self) -> Option<&Spare> {
        match self {
            Player::Isolated { spare, .. } | Player::Program { spare, .. } => Some(spare),
            _ => None,
        }
    }

    /// The person at the table, if this player is one.
    pub fn person(&self) -> Option<&Person> {
        match self {
            Player::Person(person) => Some(person),
            _ => None,
        }
    }

    /// A new player object of game `G` in this process, through the ABI,
    /// made with `setup`: a built-in level's, or the loaded library's (the
    /// arena's own agents and a worker's instance alike).
    pub fn player_box<G: AbiGame>(&self, setup: &Setup) -> Result<G::PlayerBox, String> {
        match self {
            Player::Builtin(level) if !G::builtin_plays(*level) => Err(format!(
                "{} does not play {} (`arena check {0}` lists the games it plays)",
                level.name(),
                G::ID
            )),
            Player::Builtin(level) => Ok(G::builtin(*level, setup)),
            Player::Library(library) => library.new_player::<G>(setup),
            Player::Configured { player, .. } => player.player_box::<G>(setup),
            _ => Err(format!("{} runs only in its own process", self.name())),
        }
    }

    /// The worker an instance runs in, if it runs in one: a program always
    /// (a process of its own, whatever the hosting of libraries), an
    /// isolated library, a built-in when built-ins are isolated.
    fn worker_for(&self, hosting: &Hosting) -> Result<Option<(Hosted, WorkerLimits)>, Fault> {
        if let Player::Forfeit { why, .. } = self {
            return Err(Fault::Unavailable(why.clone()));
        }
        if let Player::Program { launch, .. } = self {
            let limits = hosting.limits.clone().unwrap_or_else(WorkerLimits::for_programs);
            return Ok(Some((Hosted::Program(launch.clone()), limits)));
        }
        let hosted = match self {
            Player::Isolated { path, .. } => Hosted::Library(path.clone()),
            Player::Builtin(level) if hosting.isolate_builtins => Hosted::Builtin(*level),
            _ => return Ok(None),
        };
        match &hosting.limits {
            Some(limits) => Ok(Some((hosted, limits.clone()))),
            None => Err(Fault::Unavailable("isolation asked for, but no worker limits set".into())),
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
    /// takes the arena with it. Program players still run in workers,
    /// sandboxed or not.
    pub fn in_process() -> Hosting {
        Hosting {
            isolate_libraries: false,
            isolate_builtins: false,
            limits: Some(WorkerLimits::for_programs()),
        }
    }

    /// The same, with workers sandboxed or not, their clock and grace, and
    /// the variables passed to them besides the default ones.
    pub fn with_workers(
        mut self,
        sandbox: Sandbox,
        clock: Clock,
        grace: Duration,
        pass_env: Vec<String>,
    ) -> Hosting {
        if let Some(limits) = self.limits.as_mut() {
            limits.sandbox = sandbox;
            limits.clock = clock;
            limits.grace = grace;
            limits.pass_env.extend(pass_env);
        }
        self
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
        assert_eq!("human".parse(), Ok(PlayerSpec::Person));
        assert_eq!(PlayerSpec::Person.to_string(), "human");
        let err = "grandmaster".parse::<PlayerSpec>().unwrap_err();
        assert!(
            err.contains("unknown player 'grandmaster'") && err.contains("easy, medium, hard, expert"),
            "{err}"
        );
    }

    #[test]
    fn programs_are_named_by_prefix_or_by_a_python_path() {
        let python = |p: &str| Ok(PlayerSpec::Program(Program::Python(PathBuf::from(p))));
        assert_eq!("python:students/ab12".parse(), python("students/ab12"));
        assert_eq!("bots/my_bot.py".parse(), python("bots/my_bot.py"));
        let argv = vec!["./bot".to_string(), "--fast".to_string()];
        assert_eq!("cmd:./bot --fast".parse(), Ok(PlayerSpec::Program(Program::Command { argv, dir: None })));
        assert_eq!("cmd:./bot --fast".parse::<PlayerSpec>().unwrap().to_string(), "cmd:./bot --fast");
    }
}
