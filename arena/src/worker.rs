//! The inside of a worker process (the arena binary run as `arena __worker`):
//! loads one player and serves the protocol until told to quit or its input
//! closes.
//!
//! The protocol runs on private copies of the descriptors the arena gave
//! as stdin and stdout. Descriptor 1 is then pointed at the output pipe
//! (stderr), so a player that prints cannot corrupt a reply.

use std::{
    fs::File,
    io::{BufReader, Write},
    os::fd::FromRawFd,
    process::ExitCode,
};

use abi_stable::std_types::RResult;
use player_api::{
    abi::{
        ForestPlayerBox, HexapawnPlayerBox, IntuitivePlayerBox, PlayerError, TrapPlayerBox, WumpusPlayerBox,
    },
    hexapawn::{HexapawnGameInfo, HexapawnRequest},
    intuitive::{IntuitiveGameInfo, IntuitiveGameOver, IntuitiveRequest},
    magic_forest::{ForestConfig, ForestGameInfo, ForestOver},
    trap::{TrapGameInfo, TrapRequest},
    wumpus::{WumpusGameInfo, WumpusOver},
};

use crate::{
    game::GameId,
    games::play_turn,
    players::{Level, Player},
    plugin::PlayerLibrary,
    protocol::{
        self, forest_reply, hexapawn_reply, read_frame, seat_from_number, start_coord, wire_cell_of,
        write_frame, wumpus_reply, Reply, Request, WireConfig, WireStepState,
    },
    sandbox,
};

/// The first argument that makes the arena binary a worker (the host side
/// names it: `isolation`).
pub use crate::isolation::WORKER_ARG;

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
    let mut server = Server { output, buf: Vec::with_capacity(512), instance: None };
    // Load the library and make a player before saying hello (of the first
    // game it plays, Trap if it plays Trap), so that a player that cannot
    // start is reported as such, not as a failed game.
    let loaded = load(args).and_then(|player| {
        let games = player.games();
        let first = games.iter().find(|g| *g == GameId::Trap.name()).or(games.first()).cloned();
        let first = first.ok_or_else(|| format!("{} plays no game", player.name()))?;
        Ok((Instance::new(&player, &first)?, player))
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
enum Instance {
    Trap(TrapPlayerBox),
    Intuitive(IntuitivePlayerBox),
    Hexapawn(HexapawnPlayerBox),
    Wumpus(WumpusPlayerBox),
    Forest(ForestPlayerBox),
}

impl Instance {
    fn new(player: &Player, game: &str) -> Result<Instance, String> {
        let library = |player: &Player| match player {
            Player::Library(library) => Ok(library.clone()),
            _ => Err(format!("{} cannot run in a worker", player.name())),
        };
        let game = GameId::parse(game).ok_or_else(|| format!("there is no game '{game}'"))?;
        Ok(match (game, player) {
            (GameId::Trap, Player::Builtin(level)) => Instance::Trap(level.new_trap_player()),
            (GameId::IntuitiveAi, Player::Builtin(level)) => {
                Instance::Intuitive(level.new_intuitive_player())
            }
            (GameId::Hexapawn, Player::Builtin(level)) => Instance::Hexapawn(level.new_hexapawn_player()),
            (GameId::Wumpus, Player::Builtin(level)) => Instance::Wumpus(level.new_wumpus_player()),
            (GameId::MagicForest, Player::Builtin(level)) => Instance::Forest(level.new_forest_player()),
            (GameId::Trap, _) => Instance::Trap(library(player)?.new_trap_player()?),
            (GameId::IntuitiveAi, _) => Instance::Intuitive(library(player)?.new_intuitive_player()?),
            (GameId::Hexapawn, _) => Instance::Hexapawn(library(player)?.new_hexapawn_player()?),
            (GameId::Wumpus, _) => Instance::Wumpus(library(player)?.new_wumpus_player()?),
            (GameId::MagicForest, _) => Instance::Forest(library(player)?.new_forest_player()?),
        })
    }

    fn game(&self) -> &'static str {
        match self {
            Instance::Trap(_) => GameId::Trap,
            Instance::Intuitive(_) => GameId::IntuitiveAi,
            Instance::Hexapawn(_) => GameId::Hexapawn,
            Instance::Wumpus(_) => GameId::Wumpus,
            Instance::Forest(_) => GameId::MagicForest,
        }
        .name()
    }
}

struct Server {
    output: File,
    buf: Vec<u8>,
    instance: Option<Instance>,
}

/// A player's own failure (a caught panic) as a reply.
fn answered<T>(result: RResult<T, PlayerError>, reply: impl FnOnce(T) -> Reply) -> Reply {
    match result.into_result() {
        Ok(value) => reply(value),
        Err(panic) => Reply::Error { message: panic.into() },
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
        if let Request::NewGame { game, .. } = &request {
            if !player.games().contains(game) {
                return failed(format!("this player does not play {game}"));
            }
            if self.instance.as_ref().is_none_or(|i| i.game() != game) {
                match Instance::new(player, game) {
                    Ok(instance) => self.instance = Some(instance),
                    Err(message) => return failed(message),
                }
            }
        }
        let Some(instance) = self.instance.as_mut() else { return failed("no player".into()) };
        match (instance, request) {
            (instance, Request::NewGame { seat, size, turn_budget_us, seed, config, start, arrows, .. }) => {
                let seat = seat.map(|n| seat_from_number(n).ok_or(format!("bad seat {n}"))).transpose();
                let seat = || seat.clone().and_then(|s| s.ok_or("no seat".to_string()));
                let size = || size.ok_or("no size".to_string());
                let started = match instance {
                    Instance::Trap(p) => seat().and_then(|seat| {
                        let info = TrapGameInfo { seat, size: size()?, turn_budget_us, seed };
                        Ok(p.new_game(info))
                    }),
                    Instance::Intuitive(p) => {
                        size().map(|size| p.new_game(IntuitiveGameInfo { size, turn_budget_us, seed }))
                    }
                    Instance::Hexapawn(p) => {
                        seat().map(|seat| p.new_game(HexapawnGameInfo { seat, turn_budget_us, seed }))
                    }
                    Instance::Wumpus(p) => match (config, start, arrows) {
                        (Some(WireConfig::Wumpus(config)), Some(start), Some(arrows)) => {
                            config.to_config().and_then(|config| {
                                let start = start_coord(start)?;
                                let step_budget_us = turn_budget_us;
                                Ok(p.new_game(WumpusGameInfo { config, start, arrows, step_budget_us, seed }))
                            })
                        }
                        _ => Err("a Wumpus World new_game needs config, start and arrows".into()),
                    },
                    Instance::Forest(p) => match config {
                        Some(WireConfig::Forest(config)) => {
                            let config = ForestConfig::from(&config);
                            Ok(p.new_game(ForestGameInfo { config, step_budget_us: turn_budget_us, seed }))
                        }
                        _ => Err("a Magic Forest new_game needs its config".into()),
                    },
                };
                match started {
                    Ok(result) => answered(result, |()| Reply::Ok),
                    Err(why) => failed(format!("bad new_game: {why}")),
                }
            }
            (Instance::Trap(p), Request::Turn { seat, turn, time_left_us, state }) => {
                let Some(seat) = seat_from_number(seat) else { return failed(format!("bad seat {seat}")) };
                let state = match state.to_state() {
                    Ok(state) => state,
                    Err(why) => return failed(format!("bad state: {why}")),
                };
                match play_turn(p, TrapRequest { state, seat, turn, time_left_us }) {
                    Ok(actions) => Reply::Turn { step: actions.step, trap: actions.trap },
                    Err(panic) => failed(panic),
                }
            }
            (Instance::Intuitive(p), Request::Reveal { turn, time_left_us, state }) => {
                match state.to_view() {
                    Ok(view) => answered(p.reveal(IntuitiveRequest { view, turn, time_left_us }), |cell| {
                        Reply::Reveal { cell: wire_cell_of(cell) }
                    }),
                    Err(why) => failed(format!("bad state: {why}")),
                }
            }
            (Instance::Hexapawn(p), Request::GetMove { seat, ply, time_left_us, state }) => {
                let Some(seat) = seat_from_number(seat) else { return failed(format!("bad seat {seat}")) };
                match state.to_board() {
                    Ok(board) => answered(
                        p.get_move(HexapawnRequest { board, seat, ply, time_left_us }),
                        hexapawn_reply,
                    ),
                    Err(why) => failed(format!("bad state: {why}")),
                }
            }
            (Instance::Wumpus(p), Request::Step { state: WireStepState::Wumpus(state), .. }) => {
                match state.to_request() {
                    Ok(request) => answered(p.step(request), wumpus_reply),
                    Err(why) => failed(format!("bad state: {why}")),
                }
            }
            (Instance::Forest(p), Request::Step { state: WireStepState::Forest(state), .. }) => {
                match state.to_request() {
                    Ok(request) => answered(p.step(request), forest_reply),
                    Err(why) => failed(format!("bad state: {why}")),
                }
            }
            (instance, Request::GameOver { outcome, turns, reason, score, forests_cleared, deaths }) => {
                let over = outcome.to_game_over(turns, reason);
                let score = score.unwrap_or(0);
                let result = match instance {
                    Instance::Trap(p) => p.game_over(over),
                    Instance::Hexapawn(p) => p.game_over(over),
                    Instance::Intuitive(p) => p.game_over(IntuitiveGameOver {
                        outcome: over.outcome,
                        score: score.clamp(i8::MIN.into(), i8::MAX.into()) as i8,
                        turns: over.turns,
                        reason: over.reason,
                    }),
                    Instance::Wumpus(p) => p.game_over(WumpusOver {
                        outcome: over.outcome,
                        score,
                        actions: over.turns,
                        reason: over.reason,
                    }),
                    Instance::Forest(p) => p.game_over(ForestOver {
                        outcome: over.outcome,
                        score,
                        forests_cleared: forests_cleared.unwrap_or(0),
                        deaths: deaths.unwrap_or(0),
                        actions: over.turns,
                        reason: over.reason,
                    }),
                };
                answered(result, |()| Reply::Ok)
            }
            (instance, request) => failed(format!("a {} player cannot answer {request:?}", instance.game())),
        }
    }
}
