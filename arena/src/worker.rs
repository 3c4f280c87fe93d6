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

use player_api::{
    abi::TrapPlayerBox,
    trap::{TrapGameInfo, TrapRequest},
};

use crate::{
    agent::play_turn,
    players::{Level, Player},
    plugin::PlayerLibrary,
    protocol::{self, read_frame, seat_from_number, write_frame, Reply, Request},
};

/// The first argument that makes the arena binary a worker.
pub const WORKER_ARG: &str = "__worker";

/// Runs the worker; `args` follow `__worker`: a library path, or
/// `--builtin LEVEL`.
pub fn main(args: &[String]) -> ExitCode {
    let (input, output) = match private_protocol_descriptors() {
        Ok(pair) => pair,
        Err(e) => {
            eprintln!("arena worker: cannot set up its descriptors: {e}");
            return ExitCode::from(3);
        }
    };
    let mut server = Server { output, buf: Vec::with_capacity(512), instance: None };
    // Load the library and make the player before saying hello, so that a
    // player that cannot start is reported as such, not as a failed game.
    let loaded = load(args).and_then(|player| Ok((player.new_trap_player()?, player)));
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
        _ => Err(format!("usage: arena {WORKER_ARG} LIBRARY | arena {WORKER_ARG} --builtin LEVEL")),
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

struct Server {
    output: File,
    buf: Vec<u8>,
    instance: Option<TrapPlayerBox>,
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
                request => self.answer(request),
            };
            self.send(&reply)?;
            let _ = std::io::stderr().flush();
        }
        Ok(())
    }

    fn answer(&mut self, request: Request) -> Reply {
        let failed = |message: String| Reply::Error { message };
        match request {
            Request::NewGame { game, seat, size, turn_budget_us, seed } => {
                if game != "trap" {
                    return failed(format!("this player does not play {game}"));
                }
                let Some(seat) = seat_from_number(seat) else { return failed(format!("bad seat {seat}")) };
                let Some(instance) = self.instance.as_mut() else { return failed("no player".into()) };
                let info = TrapGameInfo { seat, size, turn_budget_us, seed };
                match instance.new_game(info).into_result() {
                    Ok(()) => Reply::Ok,
                    Err(panic) => failed(panic.into()),
                }
            }
            Request::Turn { seat, turn, time_left_us, state } => {
                let Some(instance) = self.instance.as_mut() else {
                    return failed("a turn before new_game".to_string());
                };
                let Some(seat) = seat_from_number(seat) else { return failed(format!("bad seat {seat}")) };
                let state = match state.to_state() {
                    Ok(state) => state,
                    Err(why) => return failed(format!("bad state: {why}")),
                };
                match play_turn(instance, TrapRequest { state, seat, turn, time_left_us }) {
                    Ok(actions) => Reply::Turn { step: actions.step, trap: actions.trap },
                    Err(panic) => failed(panic),
                }
            }
            Request::GameOver { outcome, turns, reason } => {
                if let Some(instance) = self.instance.as_mut() {
                    if let Err(panic) = instance.game_over(outcome.to_game_over(turns, reason)).into_result()
                    {
                        return failed(panic.into());
                    }
                }
                Reply::Ok
            }
            Request::Quit => Reply::Ok,
        }
    }
}
