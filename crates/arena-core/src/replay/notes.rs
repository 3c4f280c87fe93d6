//! A player's own notes: what it printed while it thought (a library's or
//! program's stderr, a Python player's `print` and `logging`), kept beside
//! the turn it was thinking about. Only players in a worker have notes: the
//! worker's output pipe is read per request (`isolation/process.rs`).
//!
//! Notes are the player's words: cut where they are taken (a turn's to
//! [`TURN_BYTES`], a game's to [`GAME_BYTES`] per player, the cut marked),
//! made plain text (valid UTF-8, no control character but newline and tab),
//! and kept out of what the public sees (the server's `views::public_replay`,
//! live feeds carry none). They take no part in a game's verdict or its
//! verification: a replay re-simulates the same with or without them.

use std::{cell::RefCell, rc::Rc};

use serde::{Deserialize, Serialize};

use crate::game::{Agent, Game, Printed};
use crate::play::fault::Fault;
use crate::play::time_control::TimeBank;

/// The most of one turn's notes kept, per player (bytes).
pub const TURN_BYTES: usize = 1 << 10;
/// The most of one game's notes kept, per player (bytes).
pub const GAME_BYTES: usize = 64 << 10;

/// What one player wrote during one turn.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The index of the turn in the replay's list of turns (steps, plies);
    /// one past the last for the turn that ended the game unplayed (a
    /// timeout, a crash, an illegal answer).
    pub turn: u32,
    /// The player's index in `players` (its seat).
    pub seat: usize,
    pub text: String,
}

/// A game's notes as they are taken, within the bounds.
#[derive(Debug, Clone, Default)]
pub struct GameNotes {
    notes: Vec<Note>,
    /// Per seat: bytes kept so far, and whether its game's bound was hit.
    kept: Vec<(usize, bool)>,
}

impl GameNotes {
    /// Keeps what `seat` printed during `turn`, cut to the bounds.
    pub fn add(&mut self, turn: u32, seat: usize, printed: &Printed) {
        if self.kept.len() <= seat {
            self.kept.resize(seat + 1, (0, false));
        }
        let (used, full) = &mut self.kept[seat];
        if *full {
            return;
        }
        let text = plain(&printed.bytes);
        let text = text.trim_end();
        if text.is_empty() && printed.dropped == 0 {
            return;
        }
        let room = TURN_BYTES.min(GAME_BYTES - *used);
        let kept = &text[..text.floor_char_boundary(room)];
        // What was not kept: the rest of the text, and what the worker
        // itself dropped past its own cap.
        let more = (text.len() - kept.len()) as u64 + printed.dropped;
        *used += kept.len();
        let mut text = kept.to_string();
        if more > 0 {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&format!("… [cut: {} bytes more]", crate::report::units::thousands(more)));
        }
        if *used >= GAME_BYTES {
            *full = true;
            text.push_str(&format!(" [this game's {} KiB of notes are used up]", GAME_BYTES >> 10));
        }
        self.notes.push(Note { turn, seat, text });
    }

    /// The notes, in the order taken.
    pub fn into_notes(self) -> Vec<Note> {
        self.notes
    }
}

/// `bytes` as plain text: invalid UTF-8 replaced, control characters but
/// newline and tab dropped (`report::plain`).
fn plain(bytes: &[u8]) -> String {
    crate::report::plain::plain_text(&String::from_utf8_lossy(bytes)).into_owned()
}

/// Adds `notes` under the frames of their turns (frame 0 is the start;
/// a note past the last turn goes under the last frame): dim, indented,
/// each line after its seat's number.
pub fn beside_frames(frames: &mut [String], notes: &[Note], paint: super::terminal::Paint) {
    let Some(last) = frames.len().checked_sub(1) else { return };
    for note in notes {
        let frame = &mut frames[(note.turn as usize + 1).min(last)];
        for line in note.text.lines() {
            frame.push('\n');
            frame.push_str(&paint.on("2", &format!("    {}| {line}", note.seat + 1)));
        }
    }
}

/// Takes the notes of one game as a referee plays it: each seat's agent
/// is wrapped (`agent`) so that what it printed during a turn waits here,
/// and the referee's watch hook (`turn_done`), called once per turn the
/// replay lists, files what waits under that turn. What waits when the
/// game ends belongs to the turn that ended it unplayed.
#[derive(Clone, Default)]
pub struct NoteTaker {
    inner: Rc<RefCell<Taking>>,
}

#[derive(Default)]
struct Taking {
    turns: u32,
    waiting: Vec<(usize, Printed)>,
    notes: GameNotes,
}

impl NoteTaker {
    /// `agent`, in `seat`, with what it prints taken as notes.
    pub fn agent<'a, G: Game>(&self, seat: usize, agent: &'a mut dyn Agent<G>) -> Noting<'a, G> {
        Noting { agent, seat, taker: self.clone() }
    }

    /// A turn the replay lists was played: what waits is its notes.
    pub fn turn_done(&self) {
        let mut taking = self.inner.borrow_mut();
        let turn = taking.turns;
        taking.file(turn);
        taking.turns += 1;
    }

    /// The game's notes, once it is over.
    pub fn finish(self) -> Vec<Note> {
        let mut taking = self.inner.borrow_mut();
        let turn = taking.turns;
        taking.file(turn);
        std::mem::take(&mut taking.notes).into_notes()
    }
}

impl Taking {
    fn file(&mut self, turn: u32) {
        for (seat, printed) in std::mem::take(&mut self.waiting) {
            self.notes.add(turn, seat, &printed);
        }
    }
}

/// An agent whose notes go to a [`NoteTaker`]; every call is its agent's.
pub struct Noting<'a, G: Game> {
    agent: &'a mut dyn Agent<G>,
    seat: usize,
    taker: NoteTaker,
}

impl<G: Game> Agent<G> for Noting<'_, G> {
    fn new_game(&mut self, info: G::Info, budget: std::time::Duration) -> Result<(), Fault> {
        self.agent.new_game(info, budget)
    }

    fn act(&mut self, request: G::Request, budget: std::time::Duration) -> Result<G::Action, Fault> {
        let answer = self.agent.act(request, budget);
        if let Some(printed) = self.agent.take_notes() {
            self.taker.inner.borrow_mut().waiting.push((self.seat, printed));
        }
        answer
    }

    fn time_bank(&mut self, bank: TimeBank) -> Result<(), Fault> {
        self.agent.time_bank(bank)
    }

    fn game_over(&mut self, over: G::Over) {
        self.agent.game_over(over)
    }

    fn save_memory(&mut self, budget: std::time::Duration) -> Result<Option<Vec<u8>>, Fault> {
        self.agent.save_memory(budget)
    }

    fn take_notes(&mut self) -> Option<Printed> {
        self.agent.take_notes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(text: &str) -> Printed {
        Printed { bytes: text.as_bytes().to_vec(), dropped: 0 }
    }

    #[test]
    fn a_turn_is_cut_at_its_bound_and_says_how_much_more_there_was() {
        let mut notes = GameNotes::default();
        notes.add(3, 1, &printed(&"é".repeat(2000)));
        let [note] = notes.into_notes().try_into().unwrap();
        assert_eq!((note.turn, note.seat), (3, 1));
        let (kept, mark) = note.text.split_once(" … ").unwrap();
        assert_eq!(kept.len(), TURN_BYTES, "1 KiB kept, cut on a character's boundary");
        assert_eq!(mark, "[cut: 2,976 bytes more]");
    }

    #[test]
    fn what_the_worker_dropped_counts_in_the_cut() {
        let mut notes = GameNotes::default();
        notes.add(0, 0, &Printed { bytes: b"thinking\n".to_vec(), dropped: 5000 });
        assert_eq!(notes.into_notes()[0].text, "thinking … [cut: 5,000 bytes more]");
    }

    #[test]
    fn a_game_keeps_at_most_its_bound_per_player_and_says_so_once() {
        let mut notes = GameNotes::default();
        for turn in 0..100 {
            notes.add(turn, 0, &printed(&"x".repeat(1000)));
            notes.add(turn, 1, &printed("short"));
        }
        let notes = notes.into_notes();
        let seat0: Vec<&Note> = notes.iter().filter(|n| n.seat == 0).collect();
        let kept: usize = seat0.iter().map(|n| n.text.chars().filter(|&c| c == 'x').count()).sum();
        assert_eq!(kept, GAME_BYTES);
        let last = seat0.last().unwrap();
        assert_eq!(last.turn, 65, "the 66th turn fills the game's bound");
        assert!(last.text.ends_with("[this game's 64 KiB of notes are used up]"), "{}", last.text);
        assert_eq!(notes.iter().filter(|n| n.seat == 1).count(), 100, "a player's bound is its own");
    }

    #[test]
    fn notes_are_plain_text() {
        let mut notes = GameNotes::default();
        notes.add(0, 0, &Printed { bytes: b"a\x1b[31mred\r\tb\n\xff\n\n".to_vec(), dropped: 0 });
        notes.add(1, 0, &printed("\n \n"));
        assert_eq!(notes.into_notes(), [Note { turn: 0, seat: 0, text: "a[31mred\tb\n\u{fffd}".into() }]);
    }

    #[test]
    fn notes_go_under_their_turns_frames() {
        let mut frames = vec!["start".to_string(), "turn 0".into(), "turn 1".into()];
        let notes = [
            Note { turn: 0, seat: 0, text: "a\nb".into() },
            Note { turn: 1, seat: 1, text: "c".into() },
            Note { turn: 2, seat: 0, text: "last words".into() },
        ];
        beside_frames(&mut frames, &notes, super::super::terminal::Paint { color: false });
        assert_eq!(frames, ["start", "turn 0\n    1| a\n    1| b", "turn 1\n    2| c\n    1| last words"]);
    }
}
