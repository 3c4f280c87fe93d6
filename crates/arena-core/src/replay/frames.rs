//! A replay's frames for the terminal as every game lays them out: the
//! summary and the start first, then a frame a step, the result under the
//! last. The game draws its boards and words its lines
//! (`GameBody::frames`).

use std::time::Duration;

use super::{terminal::Paint, Replay, ReplayBody};
use crate::report::units::short;

/// The ANSI style of the summary and the result.
const BOLD: &str = "1";

/// One replay's frames, built in order.
pub struct Frames {
    frames: Vec<String>,
    summary: String,
    /// What a step is called in its frame's heading ("move").
    step: &'static str,
    total: usize,
}

impl Frames {
    /// The first frame: the replay's summary, then `start: {start}` (who
    /// plays, the seed, the board). `total` steps follow, each a `step`.
    pub fn start<E: ReplayBody>(
        replay: &Replay<E>,
        paint: Paint,
        step: &'static str,
        total: usize,
        start: &str,
    ) -> Frames {
        let summary = paint.on(BOLD, &replay.summary());
        Frames { frames: vec![format!("{summary}\nstart: {start}")], summary, step, total }
    }

    /// The next step's frame: `move 3/9  {line}  [{time}]`, then `board`.
    pub fn step(&mut self, line: &str, time: Duration, board: &str) {
        let (n, step, total) = (self.frames.len(), self.step, self.total);
        self.frames.push(format!("{step} {n}/{total}  {line}  [{}]\n{board}", short(time)));
    }

    /// A line under the last frame (the answer a game ended on).
    pub fn under(&mut self, line: &str) {
        let last = self.frames.last_mut().expect("the start frame");
        last.push('\n');
        last.push_str(line);
    }

    /// The frames, the result under the last.
    pub fn end(mut self) -> Vec<String> {
        let result = format!("result: {}", self.summary);
        self.under(&result);
        self.frames
    }
}
