//! The inside of a worker process (the arena binary run as `arena __worker`):
//! loads one player and serves the protocol until told to quit or its input
//! closes.
//!
//! The protocol runs on private copies of the descriptors the arena gave
//! as stdin and stdout. Descriptor 1 is then pointed at the output pipe
//! (stderr), so a player that prints cannot corrupt a reply.
//!
//! A worker holds one instance of one game's player (`Hosted<G>`): the
//! frames are read through the game's `WireGame`, the calls made through
//! its `AbiGame`, as the arena's own process makes them.

use std::{
    fs::File,
    io::{BufReader, Write},
    os::fd::FromRawFd,
    process::ExitCode,
};

use player_api::params::Setup;

use crate::{
    game::GameId,
    players::agent::AbiGame,
    players::isolation::WireGame,
    players::plugin::PlayerLibrary,
    players::protocol::{
        self, encode_memory, read_frame, write_frame, GameOverRequest, NewGameRequest, Reply, Request,
        WireParam,
    },
    players::{Level, Player},
    sandbox,
};

/// The first argument that makes the arena binary a worker (the host side
/// names it: `isolation`).
pub use crate::players::isolation::WORKER_ARG;

/// Runs the worker; `args` follow `__worker`: a library path, or
/// `--builtin LEVEL`, after `--sandbox SPEC` when it runs sandboxed.
pub fn main(args: &[String]) -> ExitCode {
    let args = match args {
        [flag, spec, rest @ ..] if flag == "--sandbox" => {
            // Before anything else: entering needs a single-threaded process.
            if let Err(why) = sandbox::Spec::from_arg(spec).and_then(|spec| sandbox::enter(&spec)) {
                eprintln!("arena sandbox: {why}");
                return ExitCode::from(3);
            }
            rest
        }
        _ => args,
    };
    let (input, output) = match private_protocol_descriptors() {
        Ok(pair) => pair,
        Err(e) => {
            eprintln!("arena worker: cannot set up its descriptors: {e}");
            return ExitCode::from(3);
        }
    };
    let mut server = Server { output, buf: Vec::with_capacity(512), instance: None, setup: Setup::default() };
    // Load the library and make a player before saying hello (of the first
    // game it plays, in the table's order), so that a player that cannot
    // start is reported as such, not as a failed game.
    let loaded = load(args).and_then(|player| {
        let games = player.games();
        let first = games.first().cloned();
        let first = first.ok_or_else(|| format!("{} plays no game", player.name()))?;
        Ok((new_instance(&player, &first, &Setup::default())?, player))
    });
    let player = match loaded {
        Ok((instance, player)) => {
            server.instance = Some(instance);
            player
        }
        Err(message) => {
            let _ = server.send(&Reply::Error { message });
            return ExitCode::from(3);
        }
    };
    match server.serve(&player, &mut BufReader::new(PollingReader(input))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arena worker: {e}");
            ExitCode::from(4)
        }
    }
}

fn load(args: &[String]) -> Result<Player, String> {
    match args {
        [flag, level] if flag == "--builtin" => Level::BUILTIN
            .into_iter()
            .find(|l| l.name() == level)
            .map(Player::Builtin)
            .ok_or_else(|| format!("no built-in player '{level}'")),
        [path] => PlayerLibrary::load(path.as_ref()).map(Player::Library).map_err(|e| e.to_string()),
        _ => Err(format!(
            "usage: arena {WORKER_ARG} [--sandbox SPEC] LIBRARY | arena {WORKER_ARG} [--sandbox SPEC] --builtin LEVEL"
        )),
    }
}

/// Moves the protocol off descriptors 0 and 1: returns private (close-on-exec)
/// copies, points 0 at /dev/null and 1 at 2.
fn private_protocol_descriptors() -> std::io::Result<(File, File)> {
    // SAFETY: plain descriptor syscalls on descriptors this process owns.
    unsafe {
        let input = libc::fcntl(0, libc::F_DUPFD_CLOEXEC, 3);
        let output = libc::fcntl(1, libc::F_DUPFD_CLOEXEC, 3);
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY);
        if input < 0 || output < 0 || null < 0 || libc::dup2(null, 0) < 0 || libc::dup2(2, 1) < 0 {
            return Err(std::io::Error::last_os_error());
        }
        libc::close(null);
        Ok((File::from_raw_fd(input), File::from_raw_fd(output)))
    }
}

/// Waits for input in poll(2) before reading. On these machines a reader
/// blocked in read(2) on a pipe takes ~45 us to wake; one waiting in poll
/// wakes in ~5 us, and a round trip is dominated by that wake-up.
struct PollingReader(File);

impl std::io::Read for PollingReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use std::os::fd::AsRawFd;
        let mut fd = libc::pollfd { fd: self.0.as_raw_fd(), events: libc::POLLIN, revents: 0 };
        // SAFETY: one valid pollfd. EINTR and the like fall through to read.
        unsafe { libc::poll(&mut fd, 1, -1) };
        self.0.read(buf)
    }
}

/// The player instance a worker hosts: one game's player. It lives
/// across the games of a match (a learner keeps learning); a `new_game` of
/// another game replaces it.
trait Instance {
    fn game(&self) -> GameId;
    fn new_game(&mut self, new_game: &NewGameRequest) -> Reply;
    /// The answer to a turn or step; a frame of another game's is an error.
    fn act(&mut self, frame: Request) -> Reply;
    fn game_over(&mut self, over: GameOverRequest) -> Reply;
    /// The match is over: a `memory` reply.
    fn save_memory(&mut self) -> Reply;
}

/// A player of game `G`, its frames read and answered by the game's wire form.
struct Hosted<G: AbiGame>(G::PlayerBox);

impl<G: AbiGame + WireGame> Instance for Hosted<G> {
    fn game(&self) -> GameId {
        G::ID
    }

    fn new_game(&mut self, new_game: &NewGameRequest) -> Reply {
        match G::info_of(new_game) {
            Ok(info) => answered(G::box_new_game(&mut self.0, info), |()| Reply::Ok),
            Err(why) => Reply::Error { message: format!("bad new_game: {why}") },
        }
    }

    fn act(&mut self, frame: Request) -> Reply {
        match G::request_of(&frame) {
            // A library is told its turn's limit in the request (a bank's
            // time left, or its cap): the ABI carries no more (docs/time-controls.md).
            Some(Ok(request)) => answered(G::box_act(&mut self.0, request), G::reply_of),
            Some(Err(why)) => Reply::Error { message: why },
            None => Reply::Error { message: format!("a {} player cannot answer {frame:?}", G::ID) },
        }
    }

    fn game_over(&mut self, over: GameOverRequest) -> Reply {
        answered(G::box_game_over(&mut self.0, G::over_of(over)), |()| Reply::Ok)
    }

    fn save_memory(&mut self) -> Reply {
        answered(G::box_save_memory(&mut self.0), |memory| Reply::Memory {
            data: memory.as_deref().map(encode_memory),
        })
    }
}

/// A new instance of `player` for the game named `game`, made with `setup`.
fn new_instance(player: &Player, game: &str, setup: &Setup) -> Result<Box<dyn Instance>, String> {
    let game = GameId::parse(game).ok_or_else(|| format!("there is no game '{game}'"))?;
    crate::with_game!(game, G => hosted::<G>(player, setup))
}

fn hosted<G: AbiGame + WireGame>(player: &Player, setup: &Setup) -> Result<Box<dyn Instance>, String> {
    Ok(Box::new(Hosted::<G>(player.player_box::<G>(setup)?)))
}

struct Server {
    output: File,
    buf: Vec<u8>,
    instance: Option<Box<dyn Instance>>,
    /// What every instance is made with (a `setup` request's).
    setup: Setup,
}

/// A player's own failure (a caught panic) as a reply.
fn answered<T>(result: Result<T, String>, reply: impl FnOnce(T) -> Reply) -> Reply {
    match result {
        Ok(value) => reply(value),
        Err(message) => Reply::Error { message },
    }
}

impl Server {
    fn send(&mut self, reply: &Reply) -> std::io::Result<()> {
        write_frame(&mut self.output, reply, &mut self.buf)
    }

    fn serve(&mut self, player: &Player, input: &mut BufReader<PollingReader>) -> std::io::Result<()> {
        let games = player.games().iter().map(|g| g.to_string()).collect();
        let hello = Reply::Hello {
            protocol: protocol::VERSION,
            name: player.name().to_string(),
            author: player.author().to_string(),
            games,
            player_api: player.api_version().to_string(),
            abi: player.abi_version().map(|v| v.number()),
            params: player.params().iter().map(WireParam::from).collect(),
            memory: player.keeps_memory(),
        };
        self.send(&hello)?;
        let mut frame = Vec::with_capacity(512);
        while let Some(request) = read_frame::<Request>(input, &mut frame)? {
            let reply = match request {
                Request::Quit => return Ok(()),
                request => self.answer(player, request),
            };
            self.send(&reply)?;
            let _ = std::io::stderr().flush();
        }
        Ok(())
    }

    fn answer(&mut self, player: &Player, request: Request) -> Reply {
        let failed = |message: String| Reply::Error { message };
        if let Request::Setup(setup) = &request {
            // The instance made before hello is made again, with it.
            self.setup = match setup.setup() {
                Ok(setup) => setup,
                Err(message) => return failed(message),
            };
            let game = self.instance.as_ref().map(|i| i.game().name());
            if let Some(game) = game {
                match new_instance(player, game, &self.setup) {
                    Ok(instance) => self.instance = Some(instance),
                    Err(message) => return failed(message),
                }
            }
            return Reply::Ok;
        }
        if let Request::NewGame(NewGameRequest { game, .. }) = &request {
            if !player.games().contains(game) {
                return failed(format!("this player does not play {game}"));
            }
            if self.instance.as_ref().is_none_or(|i| i.game().name() != game) {
                match new_instance(player, game, &self.setup) {
                    Ok(instance) => self.instance = Some(instance),
                    Err(message) => return failed(message),
                }
            }
        }
        let Some(instance) = self.instance.as_mut() else { return failed("no player".into()) };
        match request {
            Request::NewGame(new_game) => instance.new_game(&new_game),
            Request::GameOver(over) => instance.game_over(over),
            Request::SaveMemory => instance.save_memory(),
            frame => instance.act(frame),
        }
    }
}
