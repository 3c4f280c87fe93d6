//! The terminal viewer: a replay's frames (one per turn, drawn by the
//! game's module) shown one at a time, stepped with keys or animated; or,
//! when the output is not a terminal, printed once each.

use std::{
    io::{self, Read, Write},
    os::fd::AsRawFd,
    time::{Duration, Instant},
};

use anyhow::Result;

/// Whether to colour: ANSI styles or plain text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paint {
    pub color: bool,
}

impl Paint {
    /// `text` in the ANSI style `code` (such as "1;91"), if colouring.
    pub fn on(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// The names whose flag is on, joined by ", "; `none` if none is (what
/// a player senses, under its board).
pub fn listed(flags: &[(bool, &str)], none: &str) -> String {
    let on: Vec<&str> = flags.iter().filter(|(on, _)| *on).map(|(_, name)| *name).collect();
    if on.is_empty() {
        none.to_string()
    } else {
        on.join(", ")
    }
}

/// How to show the frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    /// Print every frame once, in order (output is not a terminal).
    Print,
    /// Show frames one after another, `speed` per second, then stop.
    Animate { speed: f64 },
    /// Step with keys; space starts and stops an animation at `speed`.
    Interactive { speed: f64 },
}

const KEYS: &str =
    "keys: -> / l / n next   <- / h / p previous   space play/pause   + / - speed   g first   G last   q quit";

/// Shows `frames` on stdout.
pub fn show(frames: &[String], mode: Mode) -> Result<()> {
    let mut out = io::stdout().lock();
    match mode {
        Mode::Print => {
            for frame in frames {
                writeln!(out, "{frame}\n")?;
            }
        }
        Mode::Animate { speed } => {
            for (i, frame) in frames.iter().enumerate() {
                writeln!(out, "\x1b[H\x1b[2J{frame}")?;
                out.flush()?;
                if i + 1 < frames.len() {
                    std::thread::sleep(Duration::from_secs_f64(1.0 / speed));
                }
            }
        }
        Mode::Interactive { speed } => interactive(frames, speed, &mut out)?,
    }
    Ok(())
}

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Action {
    Next,
    Previous,
    First,
    Last,
    Toggle,
    Faster,
    Slower,
    Quit,
}

/// The actions in a chunk of key bytes (arrow keys are escape sequences).
fn actions(bytes: &[u8]) -> Vec<Action> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let (action, used) = match &bytes[i..] {
            [0x1b, b'[', b'C', ..] => (Some(Action::Next), 3),
            [0x1b, b'[', b'D', ..] => (Some(Action::Previous), 3),
            [0x1b, b'[', b'H', ..] => (Some(Action::First), 3),
            [0x1b, b'[', b'F', ..] => (Some(Action::Last), 3),
            [0x1b, b'[', _, ..] => (None, 3),
            [b'l' | b'n' | b'\r', ..] => (Some(Action::Next), 1),
            [b'h' | b'p' | 0x7f, ..] => (Some(Action::Previous), 1),
            [b'g', ..] => (Some(Action::First), 1),
            [b'G', ..] => (Some(Action::Last), 1),
            [b' ', ..] => (Some(Action::Toggle), 1),
            [b'+' | b'=', ..] => (Some(Action::Faster), 1),
            [b'-', ..] => (Some(Action::Slower), 1),
            // q, Esc alone, Ctrl-C (the terminal's signals are off in raw mode).
            [b'q' | 0x1b | 0x03, ..] => (Some(Action::Quit), 1),
            _ => (None, 1),
        };
        found.extend(action);
        i += used;
    }
    found
}

fn interactive(frames: &[String], mut speed: f64, out: &mut impl Write) -> Result<()> {
    let _raw = RawMode::enter()?;
    let mut at = 0usize;
    let mut playing = false;
    let mut next_tick = Instant::now();
    let last = frames.len().saturating_sub(1);
    loop {
        let status = format!(
            "frame {}/{}  {}  {speed:.1} turns/s\n{KEYS}",
            at,
            last,
            if playing { "playing" } else { "paused" }
        );
        write!(
            out,
            "\x1b[H\x1b[2J{}\r\n\r\n{}\r\n",
            frames[at].replace('\n', "\r\n"),
            status.replace('\n', "\r\n")
        )?;
        out.flush()?;
        let wait = if playing {
            next_tick.saturating_duration_since(Instant::now())
        } else {
            Duration::from_secs(3600)
        };
        let keys = read_keys(wait)?;
        if keys.is_empty() && playing {
            at = (at + 1).min(last);
            playing = at < last;
            next_tick = Instant::now() + Duration::from_secs_f64(1.0 / speed);
            continue;
        }
        for action in actions(&keys) {
            match action {
                Action::Next => at = (at + 1).min(last),
                Action::Previous => at = at.saturating_sub(1),
                Action::First => at = 0,
                Action::Last => at = last,
                Action::Toggle => {
                    playing = !playing;
                    if at == last {
                        at = 0;
                    }
                    next_tick = Instant::now() + Duration::from_secs_f64(1.0 / speed);
                }
                Action::Faster => speed = (speed * 2.0).min(64.0),
                Action::Slower => speed = (speed / 2.0).max(0.25),
                Action::Quit => {
                    writeln!(out, "\r")?;
                    return Ok(());
                }
            }
        }
    }
}

/// Waits up to `wait` for key bytes on stdin.
fn read_keys(wait: Duration) -> io::Result<Vec<u8>> {
    let stdin = io::stdin();
    let mut poll = libc::pollfd { fd: stdin.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    let ms = wait.as_millis().min(i32::MAX as u128) as i32;
    // SAFETY: one valid pollfd.
    let ready = unsafe { libc::poll(&mut poll, 1, ms) };
    if ready <= 0 {
        return Ok(Vec::new());
    }
    let mut buf = [0u8; 64];
    let n = stdin.lock().read(&mut buf)?;
    if n == 0 {
        // End of input: behave as if asked to quit.
        return Ok(vec![b'q']);
    }
    Ok(buf[..n].to_vec())
}

/// The terminal in raw mode (no line editing, no echo, no signals) for as
/// long as this lives; the cursor hidden.
struct RawMode {
    saved: libc::termios,
}

impl RawMode {
    fn enter() -> io::Result<RawMode> {
        let fd = io::stdin().as_raw_fd();
        // SAFETY: termios is plain data; tcgetattr fills it.
        let mut saved: libc::termios = unsafe { std::mem::zeroed() };
        if unsafe { libc::tcgetattr(fd, &mut saved) } != 0 {
            return Err(io::Error::last_os_error());
        }
        let mut raw = saved;
        raw.c_lflag &= !(libc::ICANON | libc::ECHO | libc::ISIG);
        raw.c_cc[libc::VMIN] = 1;
        raw.c_cc[libc::VTIME] = 0;
        // SAFETY: a termios derived from the current one.
        if unsafe { libc::tcsetattr(fd, libc::TCSANOW, &raw) } != 0 {
            return Err(io::Error::last_os_error());
        }
        print!("\x1b[?25l");
        Ok(RawMode { saved })
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        print!("\x1b[?25h");
        let _ = io::stdout().flush();
        // SAFETY: restores the settings read in `enter`.
        unsafe { libc::tcsetattr(io::stdin().as_raw_fd(), libc::TCSANOW, &self.saved) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_actions_arrows_included() {
        assert_eq!(
            actions(b"\x1b[C\x1b[Dlh gG+-q"),
            vec![
                Action::Next,
                Action::Previous,
                Action::Next,
                Action::Previous,
                Action::Toggle,
                Action::First,
                Action::Last,
                Action::Faster,
                Action::Slower,
                Action::Quit
            ]
        );
        assert_eq!(actions(b"\x03"), vec![Action::Quit]);
        assert_eq!(actions(b"zz\x1b[A"), vec![]);
    }

    #[test]
    fn plain_paint_adds_no_escape_codes() {
        assert_eq!(Paint { color: false }.on("1;91", "x"), "x");
        assert_eq!(Paint { color: true }.on("1;91", "x"), "\x1b[1;91mx\x1b[0m");
    }
}
