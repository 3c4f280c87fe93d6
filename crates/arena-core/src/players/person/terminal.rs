//! A person at this process's terminal: questions on stderr (stdout keeps
//! the results and `--json`), lines read from stdin, a pipe as well as a
//! terminal. One thread reads stdin for the whole process, so two persons
//! on one terminal (hot seat) take turns on it; the end of input is told
//! to every later read, never waited on.

use std::{
    io::{self, BufRead, IsTerminal, Read as _, Write},
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc::{self, Receiver, RecvTimeoutError},
        Mutex, OnceLock,
    },
    time::{Duration, Instant},
};

use super::{Question, Read, Table};
use crate::{replay::terminal::Paint, report::units::seconds};

/// The longest line kept; the rest of a longer one is dropped (and the
/// line refused as it stands).
const LINE_LIMIT: u64 = 4 << 10;

/// Lines of stdin, read by one thread for the process; None once it ends.
struct Lines {
    receiver: Mutex<Receiver<Option<String>>>,
    ended: AtomicBool,
}

fn lines() -> &'static Lines {
    static LINES: OnceLock<Lines> = OnceLock::new();
    LINES.get_or_init(|| {
        let (sender, receiver) = mpsc::channel();
        std::thread::Builder::new()
            .name("person-stdin".into())
            .spawn(move || {
                let mut stdin = io::stdin().lock();
                while let Some(line) = read_line(&mut stdin) {
                    if sender.send(Some(line)).is_err() {
                        return;
                    }
                }
                let _ = sender.send(None);
            })
            .expect("a thread to read stdin");
        Lines { receiver: Mutex::new(receiver), ended: AtomicBool::new(false) }
    })
}

/// One line, cut to `LINE_LIMIT` bytes, read as UTF-8 with bad bytes
/// replaced; None at the end of input or on an error.
fn read_line(input: &mut impl BufRead) -> Option<String> {
    let mut bytes = Vec::new();
    match input.by_ref().take(LINE_LIMIT).read_until(b'\n', &mut bytes) {
        Ok(0) | Err(_) => return None,
        Ok(_) => {}
    }
    if bytes.last() != Some(&b'\n') && bytes.len() as u64 == LINE_LIMIT {
        // Drop the rest of an overlong line.
        let mut rest = Vec::new();
        let _ = input.read_until(b'\n', &mut rest);
    }
    Some(String::from_utf8_lossy(&bytes).trim_end_matches(['\n', '\r']).to_string())
}

/// The terminal, as a table.
pub struct Terminal {
    paint: Paint,
}

impl Terminal {
    pub fn new() -> Terminal {
        Terminal { paint: Paint { color: io::stderr().is_terminal() } }
    }
}

impl Default for Terminal {
    fn default() -> Self {
        Terminal::new()
    }
}

impl Table for Terminal {
    fn paint(&self) -> Paint {
        self.paint
    }

    fn ask(&self, question: &Question, left: Option<Duration>) {
        let mut text = format!("\n{}\n", question.board);
        if !question.choices.is_empty() {
            let choices: Vec<&str> = question.choices.iter().map(|c| c.text.as_str()).collect();
            text.push_str(&format!("legal: {}\n", choices.join(", ")));
        }
        // Time left is worth saying only when it runs short.
        if let Some(left) = left.filter(|left| *left < Duration::from_secs(300)) {
            text.push_str(&format!("({} left)\n", seconds(left)));
        }
        text.push_str(&format!("{}> ", question.ask));
        say(&text);
    }

    fn tell(&self, text: &str) {
        say(&format!("{text}\n"));
    }

    fn again(&self, text: &str, ask: &str) {
        say(&format!("{text}\n{ask}> "));
    }

    fn read(&self, deadline: Instant) -> Read {
        let lines = lines();
        if lines.ended.load(Ordering::SeqCst) {
            return Read::Closed;
        }
        let receiver = lines.receiver.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let wait = deadline.saturating_duration_since(Instant::now());
        match receiver.recv_timeout(wait) {
            Ok(Some(line)) => Read::Line(line),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                lines.ended.store(true, Ordering::SeqCst);
                Read::Closed
            }
            Err(RecvTimeoutError::Timeout) => Read::Late,
        }
    }
}

/// Writes to stderr; a closed stderr is not the game's concern.
fn say(text: &str) {
    let mut err = io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cut_and_bad_bytes_replaced() {
        let mut input = io::Cursor::new(b"3 4\r\n\xff 2\n".to_vec());
        assert_eq!(read_line(&mut input).as_deref(), Some("3 4"));
        assert_eq!(read_line(&mut input).as_deref(), Some("\u{fffd} 2"));
        assert_eq!(read_line(&mut input), None);
        let mut long = vec![b'x'; 10_000];
        long.extend(b"\nnext\n");
        let mut input = io::Cursor::new(long);
        assert_eq!(read_line(&mut input).map(|l| l.len()), Some(LINE_LIMIT as usize));
        assert_eq!(read_line(&mut input).as_deref(), Some("next"));
    }
}
