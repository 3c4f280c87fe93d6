//! How much time a player's turns get: the course's fixed budget per turn
//! (`5s`: what a turn leaves unused is lost), or a time bank with an
//! increment (`60s+1s`: a bank that starts at 60 s, is charged each turn's
//! time and gains 1 s after each turn; `60s+1s,cap=5s` also caps each turn
//! at 5 s), as engine testers' time controls are.
//!
//! `TimeControl` is the control as given (flags, tournament files, replays);
//! `TurnClock` is one player's clock in one game: what its next turn may
//! use (`limit`), charged after each turn (`charge`). Either clock (wall or
//! cpu, `clock::Clock`) is charged the same way.

use std::{fmt, str::FromStr, time::Duration};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::report::units::parse_duration;

/// How a player's turns are timed.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// A fixed budget for each turn; what a turn leaves unused is lost.
    PerTurn(Duration),
    /// A bank of time that starts at `base`, is charged each turn's time and
    /// gains `increment` after each turn answered in time; a turn may use
    /// all that is left, or at most `cap` if given.
    Bank { base: Duration, increment: Duration, cap: Option<Duration> },
}

impl TimeControl {
    /// The course's control: `budget` per turn.
    pub const fn per_turn(budget: Duration) -> TimeControl {
        TimeControl::PerTurn(budget)
    }

    /// What the first turn may use (what a game's start tells a player as
    /// its "turn budget").
    pub fn first_turn(self) -> Duration {
        TurnClock::new(self).limit()
    }

    /// The most one turn can ever use (a plan's worst case): the budget, the
    /// cap, or a bank's base (a bank only grows past it by turns spent short
    /// of their increment, so the base stands for a turn's worst).
    pub fn turn_ceiling(self) -> Duration {
        match self {
            TimeControl::PerTurn(budget) => budget,
            TimeControl::Bank { base, increment, cap } => cap.unwrap_or(base.max(increment)),
        }
    }

    /// The most `turns` turns of one player can take in one game: each its
    /// budget, or a bank's base and increments (each turn at most its cap).
    pub fn worst_over(self, turns: f64) -> Duration {
        match self {
            TimeControl::PerTurn(budget) => budget.mul_f64(turns),
            TimeControl::Bank { base, increment, cap } => {
                let bank = base + increment.mul_f64(turns);
                cap.map_or(bank, |cap| bank.min(cap.mul_f64(turns)))
            }
        }
    }

    /// As replays and `--json` write it: the first turn's budget in
    /// milliseconds (`time_per_turn_ms`, all records said before banks),
    /// and the control itself when it is a bank (`time_control`).
    pub fn recorded(self) -> (f64, Option<TimeControl>) {
        (self.first_turn().as_secs_f64() * 1e3, self.is_bank().then_some(self))
    }

    /// The control a record wrote with [`recorded`](TimeControl::recorded).
    pub fn from_record(per_turn_ms: f64, bank: Option<TimeControl>) -> TimeControl {
        bank.unwrap_or(TimeControl::PerTurn(Duration::from_nanos((per_turn_ms * 1e6).round() as u64)))
    }

    /// Whether it is a bank (its time left is worth recording turn by turn).
    pub fn is_bank(self) -> bool {
        matches!(self, TimeControl::Bank { .. })
    }
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl::PerTurn(Duration::from_secs(5))
    }
}

/// A duration as a time control writes it: `5s`, `0.5s`, `250ms`, `1.5us`.
fn written(d: Duration) -> String {
    let us = d.as_micros();
    if !d.as_nanos().is_multiple_of(1000) {
        format!("{}us", d.as_nanos() as f64 / 1e3)
    } else if !us.is_multiple_of(1000) {
        format!("{us}us")
    } else if us > 0 && us < 1_000_000 {
        format!("{}ms", us / 1000)
    } else {
        format!("{}s", d.as_secs_f64())
    }
}

/// `5s`, `60s+1s`, `60s+1s,cap=5s`: what `FromStr` reads back.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::PerTurn(budget) => f.write_str(&written(*budget)),
            TimeControl::Bank { base, increment, cap } => {
                write!(f, "{}+{}", written(*base), written(*increment))?;
                match cap {
                    Some(cap) => write!(f, ",cap={}", written(*cap)),
                    None => Ok(()),
                }
            }
        }
    }
}

/// A per-turn budget prints as the plain duration did before controls
/// existed (`5s`): tournament fingerprints and settings' debug text are
/// unchanged for the course's control.
impl fmt::Debug for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::PerTurn(budget) => write!(f, "{budget:?}"),
            bank => write!(f, "{bank}"),
        }
    }
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        let form = "write a budget per turn like 5s, or a bank with an increment like 60s+1s (optionally 60s+1s,cap=5s)";
        let text = text.trim();
        let (control, cap) = match text.split_once(',') {
            Some((control, cap)) => {
                let Some(cap) = cap.trim().strip_prefix("cap=") else {
                    return Err(format!("'{text}' is not a time control: {form}"));
                };
                (control, Some(parse_duration(cap).map_err(|e| format!("{e} (in '{text}')"))?))
            }
            None => (text, None),
        };
        let part = |s: &str| parse_duration(s).map_err(|e| format!("{e} (in '{text}': {form})"));
        match control.split_once('+') {
            None if cap.is_some() => Err(format!("'{text}': a cap is for a bank ({form})")),
            None => Ok(TimeControl::PerTurn(part(control)?)),
            Some((base, increment)) => {
                let increment = match increment.trim() {
                    "0" | "0s" => Duration::ZERO,
                    increment => part(increment)?,
                };
                Ok(TimeControl::Bank { base: part(base)?, increment, cap })
            }
        }
    }
}

impl Serialize for TimeControl {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for TimeControl {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<TimeControl, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// `control` (a seat's), when a record should say it: a bank, or a control
/// other than the game's own `default`; None for the course's budget per
/// turn that every player had.
pub fn worth_recording(control: TimeControl, default: TimeControl) -> Option<TimeControl> {
    (control.is_bank() || control != default).then_some(control)
}

/// A player's time bank before a turn, as a request for an action tells it
/// on the wire (`bank`: docs/protocol.md). A library is told only its turn's
/// limit (the request's `time_left_us`): abi_stable refuses a library whose
/// player objects have fewer methods than the arena's, so the ABI cannot
/// grow a call for it without refusing every library built before.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TimeBank {
    /// What is left in the bank, in microseconds.
    pub left_us: u64,
    /// What the bank gains after each turn answered in time.
    pub increment_us: u64,
    /// The most one turn may use; 0 for no cap.
    pub turn_cap_us: u64,
}

/// One player's clock in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnClock {
    pub control: TimeControl,
    /// A bank's time left (unused for a per-turn budget).
    bank: Duration,
    /// Whether its last turn was quick on the wall clock (`clock::QUICK`):
    /// under the wall clock the next one's CPU time is then not read.
    pub last_quick: bool,
}

impl TurnClock {
    pub fn new(control: TimeControl) -> TurnClock {
        let bank = match control {
            TimeControl::PerTurn(_) => Duration::ZERO,
            TimeControl::Bank { base, .. } => base,
        };
        TurnClock { control, bank, last_quick: false }
    }

    /// What the next turn may use before it is late.
    pub fn limit(&self) -> Duration {
        match self.control {
            TimeControl::PerTurn(budget) => budget,
            TimeControl::Bank { cap: Some(cap), .. } => self.bank.min(cap),
            TimeControl::Bank { cap: None, .. } => self.bank,
        }
    }

    /// A turn answered in time, having used `used`: the bank is charged it,
    /// then gains the increment.
    pub fn charge(&mut self, used: Duration) {
        if let TimeControl::Bank { increment, .. } = self.control {
            self.bank = self.bank.saturating_sub(used) + increment;
        }
    }

    /// A bank's time left now; None for a per-turn budget.
    pub fn bank_left(&self) -> Option<Duration> {
        self.control.is_bank().then_some(self.bank)
    }

    /// What a player is told of its clock beyond its turn's limit, where
    /// the protocol can say it: a bank's time left, its increment and cap.
    /// None for a per-turn budget.
    pub fn time_bank(&self) -> Option<TimeBank> {
        match self.control {
            TimeControl::PerTurn(_) => None,
            TimeControl::Bank { increment, cap, .. } => Some(TimeBank {
                left_us: self.bank.as_micros() as u64,
                increment_us: increment.as_micros() as u64,
                turn_cap_us: cap.map_or(0, |cap| cap.as_micros() as u64),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn controls_read_and_print_alike() {
        for (text, control) in [
            ("5s", TimeControl::PerTurn(ms(5000))),
            ("500ms", TimeControl::PerTurn(ms(500))),
            ("60s+1s", TimeControl::Bank { base: ms(60_000), increment: ms(1000), cap: None }),
            ("2s+0s", TimeControl::Bank { base: ms(2000), increment: Duration::ZERO, cap: None }),
            (
                "60s+100ms,cap=5s",
                TimeControl::Bank { base: ms(60_000), increment: ms(100), cap: Some(ms(5000)) },
            ),
        ] {
            assert_eq!(text.parse::<TimeControl>(), Ok(control), "{text}");
            assert_eq!(control.to_string(), text);
            assert_eq!(control.to_string().parse::<TimeControl>(), Ok(control));
        }
        assert_eq!("0.5s".parse::<TimeControl>(), Ok(TimeControl::PerTurn(ms(500))));
        assert_eq!("60s+0".parse::<TimeControl>().unwrap().to_string(), "60s+0s");
    }

    #[test]
    fn bad_controls_say_how_to_write_one() {
        for bad in ["", "fast", "5s+", "+1s", "5s,cap=1s", "60s+1s,max=5s", "60s+1s,cap=", "0s"] {
            let err = bad.parse::<TimeControl>().unwrap_err();
            assert!(err.contains(bad) || bad.is_empty(), "{bad}: {err}");
        }
        assert!("60s+1s,max=5s".parse::<TimeControl>().unwrap_err().contains("60s+1s"));
        assert!("5s,cap=1s".parse::<TimeControl>().unwrap_err().contains("a cap is for a bank"));
    }

    #[test]
    fn a_per_turn_budget_debug_prints_as_its_duration() {
        // Tournament fingerprints hold it: unchanged since budgets were plain durations.
        assert_eq!(format!("{:?}", TimeControl::PerTurn(ms(5000))), format!("{:?}", ms(5000)));
    }

    #[test]
    fn a_per_turn_budget_is_the_same_every_turn() {
        let mut clock = TurnClock::new(TimeControl::PerTurn(ms(100)));
        clock.charge(ms(99));
        assert_eq!(clock.limit(), ms(100));
        assert_eq!(clock.bank_left(), None);
        assert_eq!(clock.time_bank(), None);
    }

    #[test]
    fn a_bank_is_charged_then_gains_its_increment() {
        let mut clock = TurnClock::new("1s+100ms".parse().unwrap());
        assert_eq!(clock.limit(), ms(1000));
        clock.charge(ms(400));
        assert_eq!(clock.bank_left(), Some(ms(700)));
        // Thinking exactly the increment never runs the bank down.
        for _ in 0..100 {
            clock.charge(ms(100));
        }
        assert_eq!(clock.limit(), ms(700));
        // Spending it all leaves the increment.
        clock.charge(ms(700));
        assert_eq!(clock.limit(), ms(100));
    }

    #[test]
    fn records_read_back_the_control_they_wrote() {
        for text in ["5s", "250ms", "60s+1s", "10s+0s,cap=2s"] {
            let control: TimeControl = text.parse().unwrap();
            let (ms, bank) = control.recorded();
            assert_eq!(TimeControl::from_record(ms, bank), control, "{text}");
        }
        assert_eq!("60s+1s".parse::<TimeControl>().unwrap().recorded().0, 60_000.0);
        assert_eq!(TimeControl::PerTurn(ms(5000)).recorded(), (5000.0, None));
    }

    #[test]
    fn a_banks_worst_game_is_its_base_and_increments() {
        assert_eq!(TimeControl::PerTurn(ms(100)).worst_over(10.0), ms(1000));
        assert_eq!("1s+100ms".parse::<TimeControl>().unwrap().worst_over(10.0), ms(2000));
        assert_eq!("10s+1s,cap=2s".parse::<TimeControl>().unwrap().worst_over(3.0), ms(6000));
    }

    #[test]
    fn a_cap_bounds_a_turn_but_not_the_bank() {
        let mut clock = TurnClock::new("10s+1s,cap=2s".parse().unwrap());
        assert_eq!(clock.limit(), ms(2000));
        clock.charge(ms(2000));
        assert_eq!(clock.bank_left(), Some(ms(9000)));
        assert_eq!(clock.limit(), ms(2000));
        let info = clock.time_bank().unwrap();
        assert_eq!((info.left_us, info.increment_us, info.turn_cap_us), (9_000_000, 1_000_000, 2_000_000));
    }
}
