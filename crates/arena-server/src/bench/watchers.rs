//! The bench's watchers, in a process of their own (`arena __bench-watchers`,
//! started by `arena measure server --watchers N`): N pages watching games
//! live, each the newest game in progress to its end, then 2 s later the
//! next. One thread, nice 19, multiplexes the N connections with poll(2),
//! so that what the watchers cost themselves is neither the server's
//! process nor taken from its cores while they are busy: the server's own
//! cost is then what its threads spend (`cpu.rs`).
//!
//! The parent writes one line of JSON on the child's stdin (`Orders`),
//! then closes it when the measurement ends; the child answers one line of
//! JSON on stdout (`Seen`) and exits.

use std::{
    io::{BufRead, Read, Write},
    net::TcpStream,
    os::fd::AsRawFd,
    process::{Child, ChildStdin, Command, ExitCode, Stdio},
    time::{Duration, Instant},
};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

/// The argument that makes the arena binary this process (`main.rs`).
pub const WATCHERS_ARG: &str = "__bench-watchers";

/// What the child is told.
#[derive(Serialize, Deserialize)]
struct Orders {
    /// "127.0.0.1:PORT".
    address: String,
    /// A staff token: staff may watch every game.
    token: String,
    watchers: usize,
}

/// What the watchers saw, over all of them.
#[derive(Default, Serialize, Deserialize)]
pub struct Seen {
    /// Feeds read to their `end` event, and feeds cut before it.
    pub feeds: usize,
    pub cut: usize,
    /// Events and bytes received (the bytes with their HTTP headers).
    pub events: usize,
    pub bytes: u64,
    /// Connections to a feed at once: the most, and at the end.
    pub most: usize,
    pub at_end: usize,
    /// The child's own CPU time (user + system), in ms.
    pub cpu_ms: u64,
}

/// The running child.
pub struct Watchers {
    child: Child,
    orders: Option<ChildStdin>,
}

impl Watchers {
    /// Starts `watchers` watchers of the server at `address` as `token`
    /// (staff), in a child process of the arena binary `arena`.
    pub fn start(arena: &std::path::Path, address: &str, token: &str, watchers: usize) -> Result<Watchers> {
        let mut child = Command::new(arena)
            .arg(WATCHERS_ARG)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start the watchers' process {}", arena.display()))?;
        let mut orders = child.stdin.take().expect("piped");
        let text = serde_json::to_string(&Orders { address: address.into(), token: token.into(), watchers })?;
        writeln!(orders, "{text}")?;
        Ok(Watchers { child, orders: Some(orders) })
    }

    /// The child's process id (its CPU is its own, not the server's).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Tells the child to stop; what its watchers saw.
    pub fn stop(mut self) -> Result<Seen> {
        drop(self.orders.take());
        let mut text = String::new();
        self.child.stdout.take().expect("piped").read_to_string(&mut text)?;
        self.child.wait()?;
        serde_json::from_str(&text).context("the watchers' process said nothing sensible")
    }
}

/// The child: watches until its stdin closes, then prints what it saw.
pub fn main() -> ExitCode {
    match watch() {
        Ok(seen) => {
            println!("{}", serde_json::to_string(&seen).expect("plain data"));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: the bench's watchers: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Where one watcher is.
enum State {
    /// Looks for a game at `at`.
    Waiting { at: Instant },
    /// Reads the list of games.
    Listing { stream: TcpStream, answer: Vec<u8> },
    /// Reads a game's feed to its end.
    Feeding { stream: TcpStream, scan: Scan },
}

/// Events and the `end` event found in a stream read in pieces.
#[derive(Default)]
struct Scan {
    /// The last bytes of the previous piece (a mark may straddle two).
    tail: Vec<u8>,
    events: usize,
    ended: bool,
}

impl Scan {
    fn feed(&mut self, piece: &[u8]) {
        let mut text = std::mem::take(&mut self.tail);
        let old = text.len();
        text.extend_from_slice(piece);
        // Marks wholly in the old tail were counted with it.
        let counted = |at: usize, len: usize| at + len > old;
        let find = |mark: &[u8]| {
            text.windows(mark.len())
                .enumerate()
                .filter(|(_, w)| *w == mark)
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        };
        self.events += find(b"\n\n").into_iter().filter(|&i| counted(i, 2)).count();
        self.ended |= find(b"event: end\n").into_iter().any(|i| counted(i, 11));
        self.tail = text[text.len().saturating_sub(10)..].to_vec();
    }
}

fn watch() -> Result<Seen> {
    arena_core::replay::live::below_the_games();
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    let orders: Orders = serde_json::from_str(&line).context("no orders on stdin")?;
    let request = |path: &str| {
        format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\nConnection: close\r\n\r\n",
            orders.address, orders.token
        )
    };
    let open = |path: &str| -> Option<TcpStream> {
        let mut stream = TcpStream::connect(&orders.address).ok()?;
        stream.write_all(request(path).as_bytes()).ok()?;
        stream.set_nonblocking(true).ok()?;
        Some(stream)
    };
    let start = Instant::now();
    // Spread over the first 2 s, as pages opened one after another.
    let mut watchers: Vec<State> = (0..orders.watchers)
        .map(|i| State::Waiting {
            at: start + Duration::from_millis((2000 * i / orders.watchers.max(1)) as u64),
        })
        .collect();
    let mut seen = Seen::default();
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let now = Instant::now();
        for state in watchers.iter_mut() {
            if let State::Waiting { at } = state {
                if *at <= now {
                    *state = match open("/api/live") {
                        Some(stream) => State::Listing { stream, answer: Vec::new() },
                        None => State::Waiting { at: now + Duration::from_millis(200) },
                    };
                }
            }
        }
        // The parent's stdin (closed: stop), then every open connection.
        let mut polled = vec![libc::pollfd { fd: 0, events: libc::POLLIN, revents: 0 }];
        let mut whose = Vec::new();
        for (i, state) in watchers.iter().enumerate() {
            if let State::Listing { stream, .. } | State::Feeding { stream, .. } = state {
                polled.push(libc::pollfd { fd: stream.as_raw_fd(), events: libc::POLLIN, revents: 0 });
                whose.push(i);
            }
        }
        let next = watchers
            .iter()
            .filter_map(|s| if let State::Waiting { at } = s { Some(*at) } else { None })
            .min();
        let timeout = next.map_or(1000, |at| at.saturating_duration_since(now).as_millis().min(1000) as i32);
        // SAFETY: `polled` is a live array of pollfd of the length given.
        let ready = unsafe { libc::poll(polled.as_mut_ptr(), polled.len() as libc::nfds_t, timeout) };
        if ready < 0 {
            let error = std::io::Error::last_os_error();
            if error.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(error.into());
        }
        if polled[0].revents != 0 {
            break;
        }
        for (fd, &i) in polled[1..].iter().zip(&whose) {
            if fd.revents == 0 {
                continue;
            }
            let state = &mut watchers[i];
            let done = match state {
                State::Listing { stream, answer } => {
                    drain(stream, &mut buffer, |piece| answer.extend_from_slice(piece))
                }
                State::Feeding { stream, scan } => drain(stream, &mut buffer, |piece| {
                    seen.bytes += piece.len() as u64;
                    scan.feed(piece);
                }),
                State::Waiting { .. } => continue,
            };
            if !done {
                continue;
            }
            let after = Instant::now();
            *state = match std::mem::replace(state, State::Waiting { at: after }) {
                State::Listing { answer, .. } => {
                    match playing(&answer).and_then(|id| open(&format!("/api/live/{id}/feed"))) {
                        Some(stream) => State::Feeding { stream, scan: Scan::default() },
                        None => State::Waiting { at: after + Duration::from_millis(200) },
                    }
                }
                State::Feeding { scan, .. } => {
                    seen.events += scan.events;
                    if scan.ended {
                        seen.feeds += 1;
                    } else {
                        seen.cut += 1;
                    }
                    // A page that followed a game to its end looks for the next a moment later.
                    State::Waiting { at: after + Duration::from_secs(2) }
                }
                waiting => waiting,
            };
        }
        let feeding = watchers.iter().filter(|s| matches!(s, State::Feeding { .. })).count();
        seen.most = seen.most.max(feeding);
        seen.at_end = feeding;
    }
    seen.cpu_ms = own_cpu_ms();
    Ok(seen)
}

/// Reads what `stream` has into `take`; whether it has ended (closed or failed).
fn drain(stream: &mut TcpStream, buffer: &mut [u8], mut take: impl FnMut(&[u8])) -> bool {
    loop {
        match stream.read(buffer) {
            Ok(0) => return true,
            Ok(n) => take(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return false,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return true,
        }
    }
}

/// The newest game in progress of a `GET /api/live` answer (headers and all).
fn playing(answer: &[u8]) -> Option<u64> {
    let body = answer.windows(4).position(|w| w == b"\r\n\r\n").map(|at| &answer[at + 4..])?;
    let list: serde_json::Value = serde_json::from_slice(body).ok()?;
    list["games"].as_array()?.iter().find(|g| g["ended"] == false)?["id"].as_u64()
}

/// This process's CPU time so far, user and system, in ms.
fn own_cpu_ms() -> u64 {
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let ms = |t: libc::timeval| t.tv_sec as u64 * 1000 + t.tv_usec as u64 / 1000;
    ms(usage.ru_utime) + ms(usage.ru_stime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_and_the_end_are_found_across_pieces() {
        let text = b"event: start\ndata: {}\n\nevent: turn\ndata: {}\n\nevent: end\ndata: {}\n\n";
        for cut in 1..text.len() {
            let mut scan = Scan::default();
            scan.feed(&text[..cut]);
            scan.feed(&text[cut..]);
            assert_eq!((scan.events, scan.ended), (3, true), "cut at {cut}");
        }
    }

    #[test]
    fn the_newest_game_in_progress_is_found_in_the_list() {
        let answer = b"HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\n{\"games\": [{\"id\": 7, \"ended\": false}, {\"id\": 5, \"ended\": false}]}";
        assert_eq!(playing(answer), Some(7));
        assert_eq!(playing(b"HTTP/1.1 200 OK\r\n\r\n{\"games\": [{\"id\": 7, \"ended\": true}]}"), None);
    }
}
