//! How a player can fail: each fault loses the game at once, with a reason
//! a person can act on.

use std::{borrow::Cow, fmt, time::Duration};

use serde::{Serialize, Serializer};

use crate::{
    play::clock::Clock,
    report::{
        plain,
        units::{seconds, short},
    },
};

/// A cell as a player named it: any integers, so that an answer such as
/// (-1,3) is shown as given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    pub row: i64,
    pub col: i64,
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// A player's failure.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// An answer the rules forbid: the part of it that is (`what`, as the
    /// game names it: "move", "trap"), the cell it named, and why, as the
    /// game says it.
    Illegal { what: &'static str, spot: Spot, why: String },
    /// An answer that is not a cell at all (None, a list, floats), as the
    /// player's host reported it (`invalid` in the protocol).
    InvalidAction(String),
    /// Over budget + grace (`allowed`). `killed`: it had not answered by
    /// then, and its worker was killed.
    Timeout {
        what: &'static str,
        used: Duration,
        budget: Duration,
        /// How far past `budget` it could go before it lost.
        grace: Duration,
        killed: bool,
        /// The clock `used` was measured on: its own time (`Wall`) or its
        /// CPU time.
        clock: Clock,
        /// Stopped on the CPU clock by the backstop of its own time (it
        /// slept or blocked): `used` is its own time, held to
        /// `clock::backstop(budget)`.
        backstop: bool,
    },
    /// A panic inside the player, caught and reported by the player itself.
    Panicked(String),
    /// The player's process died: a signal, an exit, an abort.
    Crashed(String),
    /// The player's process answered with something that is not the protocol.
    Protocol(String),
    /// The player printed more than the per-game output limit.
    OutputFlood { limit: u64 },
    /// The player could not be started.
    Unavailable(String),
    /// A person gave the game up: said so (`resign`, `quit`), or its input
    /// ended (`players/person/`).
    Resigned(String),
    /// Not the player's fault: the machine kept it from a core until the
    /// cap of its call (`clock::Limits`), while its own time was within its
    /// limits. Its game is postponed, never counted (`GameResult::spoiled`).
    Overloaded { what: &'static str, wall: Duration, waited: Duration, budget: Duration },
}

/// The most of a player's own words kept (a panic's message, a garbage
/// reply, its name): what a journal, a replay, a report and the server's
/// database keep of each. A player that says more loses nothing by it but
/// the rest of its words, which would otherwise fill the disk.
pub const PLAYER_TEXT_LIMIT: usize = 4 << 10;

/// `text`, words a player wrote, made plain text (a terminal's control
/// characters dropped: `report::plain`) and cut to [`PLAYER_TEXT_LIMIT`]
/// bytes (on a char boundary) with a marker saying how many bytes were
/// cut: the one rule for every such text, applied where the arena takes it in.
pub fn player_text(text: String) -> String {
    let mut text = match plain::plain_text(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(plain) => plain,
    };
    if text.len() <= PLAYER_TEXT_LIMIT {
        return text;
    }
    let end = text.floor_char_boundary(PLAYER_TEXT_LIMIT);
    let cut = text.len() - end;
    text.truncate(end);
    text.push_str(&format!(" ... (cut: {cut} bytes)"));
    text
}

/// [`player_text`] that stands on one line: a player's name for itself,
/// its author's, the player-api it was built with (line breaks and tabs
/// dropped too, so that a table's row stays one).
pub fn player_line(text: String) -> String {
    player_text(plain::plain_line(&text).into_owned())
}

/// Failures by kind, as tallies count them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    Timeout,
    Illegal,
    Panicked,
    Crashed,
    Protocol,
    Output,
    Unavailable,
    /// The machine's fault, not the player's (`Fault::Overloaded`).
    Machine,
    /// A person's resignation (`Fault::Resigned`): not a failure of a
    /// program, so not one of the kinds tallies always list.
    Resigned,
}

impl Fault {
    pub fn kind(&self) -> FaultKind {
        match self {
            Fault::Illegal { .. } | Fault::InvalidAction(_) => FaultKind::Illegal,
            Fault::Timeout { .. } => FaultKind::Timeout,
            Fault::Panicked(_) => FaultKind::Panicked,
            Fault::Crashed(_) => FaultKind::Crashed,
            Fault::Protocol(_) => FaultKind::Protocol,
            Fault::OutputFlood { .. } => FaultKind::Output,
            Fault::Unavailable(_) => FaultKind::Unavailable,
            Fault::Resigned(_) => FaultKind::Resigned,
            Fault::Overloaded { .. } => FaultKind::Machine,
        }
    }

    /// The fault with the words its player wrote cut ([`player_text`]):
    /// every fault a player's call or start-up ends on passes here, so
    /// what is kept of it is bounded whatever the player said.
    pub fn cut(self) -> Fault {
        match self {
            Fault::Illegal { what, spot, why } => Fault::Illegal { what, spot, why: player_text(why) },
            Fault::InvalidAction(what) => Fault::InvalidAction(player_text(what)),
            Fault::Panicked(message) => Fault::Panicked(player_text(message)),
            Fault::Crashed(how) => Fault::Crashed(player_text(how)),
            Fault::Protocol(what) => Fault::Protocol(player_text(what)),
            Fault::Unavailable(why) => Fault::Unavailable(player_text(why)),
            Fault::Resigned(how) => Fault::Resigned(player_text(how)),
            other @ (Fault::Timeout { .. } | Fault::OutputFlood { .. } | Fault::Overloaded { .. }) => other,
        }
    }
}

impl FaultKind {
    /// The player's faults, as tallies list them (the machine's are counted
    /// apart, and shown only where there are any).
    pub const ALL: [FaultKind; 7] = [
        FaultKind::Timeout,
        FaultKind::Illegal,
        FaultKind::Panicked,
        FaultKind::Crashed,
        FaultKind::Protocol,
        FaultKind::Output,
        FaultKind::Unavailable,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Timeout => "timeout",
            FaultKind::Illegal => "illegal",
            FaultKind::Panicked => "panicked",
            FaultKind::Crashed => "crashed",
            FaultKind::Protocol => "protocol",
            FaultKind::Output => "output",
            FaultKind::Unavailable => "unavailable",
            FaultKind::Machine => "machine",
            FaultKind::Resigned => "resigned",
        }
    }

    /// Whether `kind`, a fault's name as journals and results keep it, is
    /// the machine's: a game it spoils is never counted.
    pub fn is_machine(kind: &str) -> bool {
        kind == FaultKind::Machine.name()
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Illegal { what, spot, why } => write!(f, "illegal {what} {spot}: {why}"),
            Fault::InvalidAction(what) => write!(f, "invalid action: {what}"),
            Fault::Timeout { what, used, budget, grace, killed, clock, backstop } => {
                write!(f, "timeout")?;
                if *what != "turn" {
                    write!(f, " in {what}")?;
                }
                // Budgets under 0.1 s (time odds, banks run low) read in
                // ms or us: "0.00 s > 0.00 s" would say nothing.
                let time =
                    |d: Duration| if *budget < Duration::from_millis(100) { short(d) } else { seconds(d) };
                let of = match clock {
                    Clock::Cpu => "of CPU",
                    Clock::Wall => "of its own time",
                };
                write!(f, ": {} {of}", time(*used))?;
                // What it measured against what it was allowed, and why.
                if *backstop {
                    let allowed = crate::play::clock::backstop(*budget);
                    write!(
                        f,
                        " > {} (the CPU clock's backstop for a player that sleeps or blocks)",
                        time(allowed)
                    )?;
                } else if grace.is_zero() {
                    write!(f, " > {}", time(*budget))?;
                } else {
                    let allowed = time(*budget + *grace);
                    write!(f, " > {allowed} ({} + {} grace)", time(*budget), time(*grace))?;
                }
                if *killed {
                    write!(f, ", no answer: killed")?;
                }
                Ok(())
            }
            Fault::Panicked(message) => write!(f, "panicked: {message}"),
            Fault::Crashed(how) => write!(f, "crashed: {how}"),
            Fault::Protocol(what) => write!(f, "garbage reply: {what}"),
            Fault::OutputFlood { limit } => {
                write!(f, "output flood: printed more than {} KiB in one game", limit >> 10)
            }
            Fault::Unavailable(why) => write!(f, "could not start: {why}"),
            Fault::Resigned(how) => write!(f, "{how}"),
            Fault::Overloaded { what, wall, waited, budget } => {
                write!(f, "the machine was overloaded")?;
                if *what != "turn" {
                    write!(f, " in {what}")?;
                }
                write!(
                    f,
                    ": no answer in {} of which {} waiting for a core (budget {}): not the player's fault",
                    seconds(*wall),
                    seconds(*waited),
                    seconds(*budget)
                )
            }
        }
    }
}

/// Failures by kind, in the order of [`FaultKind::ALL`]. Serialised as an
/// object `{"timeout": 0, "illegal": 1, ...}` with all seven kinds (and
/// `"other"` for kinds this version does not know, only when there are any).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Failures {
    /// Counts in the order of [`FaultKind::ALL`].
    pub counts: [u32; 7],
    /// Games the machine spoiled (`FaultKind::Machine`): not the player's.
    pub machine: u32,
    /// Faults of a kind not in [`FaultKind::ALL`] (a newer journal).
    pub other: u32,
}

impl Failures {
    /// Counts one fault of kind `kind` ("timeout", "illegal", ...).
    pub fn add(&mut self, kind: &str) {
        match FaultKind::ALL.iter().position(|k| k.name() == kind) {
            Some(i) => self.counts[i] += 1,
            None if FaultKind::is_machine(kind) => self.machine += 1,
            None => self.other += 1,
        }
    }

    /// The count for `kind` ("timeout", ...); 0 for an unknown kind.
    pub fn get(&self, kind: &str) -> u32 {
        FaultKind::ALL.iter().position(|k| k.name() == kind).map_or(0, |i| self.counts[i])
    }

    pub fn total(&self) -> u32 {
        self.counts.iter().sum::<u32>() + self.machine + self.other
    }

    /// `(kind, count)` for all seven kinds, in [`FaultKind::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, u32)> + '_ {
        FaultKind::ALL.iter().zip(self.counts).map(|(k, n)| (k.name(), n))
    }

    /// "3 timeout, 1 crashed", or "-" when there are none.
    pub fn compact(&self) -> String {
        let mut parts: Vec<String> =
            self.iter().filter(|&(_, n)| n > 0).map(|(k, n)| format!("{n} {k}")).collect();
        if self.machine > 0 {
            parts.push(format!("{} machine", self.machine));
        }
        if self.other > 0 {
            parts.push(format!("{} other", self.other));
        }
        if parts.is_empty() {
            "-".to_string()
        } else {
            parts.join(", ")
        }
    }
}

impl Serialize for Failures {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let extra = usize::from(self.machine > 0) + usize::from(self.other > 0);
        let mut map = serializer.serialize_map(Some(FaultKind::ALL.len() + extra))?;
        for (kind, n) in self.iter() {
            map.serialize_entry(kind, &n)?;
        }
        if self.machine > 0 {
            map.serialize_entry(FaultKind::Machine.name(), &self.machine)?;
        }
        if self.other > 0 {
            map.serialize_entry("other", &self.other)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_players_words_are_plain_text_and_its_name_one_line() {
        let hostile = "evil\x1b]0;pwned\x07\r\n\tthere".to_string();
        assert_eq!(player_text(hostile.clone()), "evil]0;pwned\n\tthere");
        assert_eq!(player_line(hostile), "evil]0;pwnedthere");
        let long = format!("\x1b{}", "z".repeat(PLAYER_TEXT_LIMIT));
        assert_eq!(player_line(long), "z".repeat(PLAYER_TEXT_LIMIT), "cut after the escapes are gone");
    }

    #[test]
    fn a_players_words_are_cut_on_a_char_boundary_with_a_marker() {
        let short = "ValueError: no move (at PlayerAI.py:12, in getMove)".to_string();
        assert_eq!(player_text(short.clone()), short);
        let exactly = "x".repeat(PLAYER_TEXT_LIMIT);
        assert_eq!(player_text(exactly.clone()), exactly);
        let long = "y".repeat(400_000);
        let cut = player_text(long);
        assert_eq!(
            cut,
            format!("{} ... (cut: {} bytes)", "y".repeat(PLAYER_TEXT_LIMIT), 400_000 - PLAYER_TEXT_LIMIT)
        );
        // A 3-byte char across the limit is kept whole or not at all.
        let wide = format!("{}{}", "a".repeat(PLAYER_TEXT_LIMIT - 1), "€".repeat(10));
        let cut = player_text(wide.clone());
        let kept = cut.split(" ... (cut: ").next().unwrap();
        assert_eq!(kept, "a".repeat(PLAYER_TEXT_LIMIT - 1));
        assert!(cut.ends_with(&format!("(cut: {} bytes)", wide.len() - kept.len())), "{cut}");
    }

    #[test]
    fn a_timeout_says_what_it_measured_against_what_it_was_allowed() {
        let (s, ms) = (Duration::from_secs, Duration::from_millis);
        let timeout = |used, budget, grace, clock, killed, backstop| Fault::Timeout {
            what: "turn",
            used,
            budget,
            grace,
            killed,
            clock,
            backstop,
        };
        let cpu = timeout(ms(5310), s(5), ms(100), Clock::Cpu, false, false);
        assert_eq!(cpu.to_string(), "timeout: 5.31 s of CPU > 5.10 s (5.00 s + 0.10 s grace)");
        let wall = timeout(ms(5310), s(5), ms(100), Clock::Wall, false, false);
        assert_eq!(wall.to_string(), "timeout: 5.31 s of its own time > 5.10 s (5.00 s + 0.10 s grace)");
        // The course's allowance: 1 s on 5 s.
        let course = timeout(ms(6012), s(5), s(1), Clock::Cpu, true, false);
        assert_eq!(
            course.to_string(),
            "timeout: 6.01 s of CPU > 6.00 s (5.00 s + 1.00 s grace), no answer: killed"
        );
        // No grace (and replays from before it was recorded): the budget alone.
        let none = timeout(ms(5310), s(5), Duration::ZERO, Clock::Cpu, false, false);
        assert_eq!(none.to_string(), "timeout: 5.31 s of CPU > 5.00 s");
        // Slept past the CPU clock's backstop: max(3 x 5 s, 5 s + 10 s).
        let slept = timeout(ms(15_020), s(5), ms(100), Clock::Wall, true, true);
        assert_eq!(
            slept.to_string(),
            "timeout: 15.02 s of its own time > 15.00 s (the CPU clock's backstop for a player that sleeps or blocks), no answer: killed"
        );
        // A short budget reads in ms.
        let short = timeout(ms(152), ms(30), ms(100), Clock::Cpu, false, false);
        assert_eq!(short.to_string(), "timeout: 152.0 ms of CPU > 130.0 ms (30.0 ms + 100.0 ms grace)");
    }

    #[test]
    fn every_fault_that_carries_a_players_words_is_cut() {
        let huge = "z".repeat(100_000);
        let bounded = PLAYER_TEXT_LIMIT + 40;
        for fault in [
            Fault::Panicked(huge.clone()),
            Fault::InvalidAction(huge.clone()),
            Fault::Crashed(huge.clone()),
            Fault::Protocol(huge.clone()),
            Fault::Unavailable(huge.clone()),
            Fault::Illegal { what: "move", spot: Spot { row: 1, col: 2 }, why: huge.clone() },
        ] {
            let kind = fault.kind();
            let cut = fault.cut();
            assert_eq!(cut.kind(), kind);
            let shown = cut.to_string();
            assert!(
                shown.len() < bounded + 30 && shown.contains("(cut: 95904 bytes)"),
                "{kind:?}: {}",
                shown.len()
            );
        }
        let flood = Fault::OutputFlood { limit: 1 << 20 };
        assert_eq!(flood.clone().cut(), flood);
    }
}
