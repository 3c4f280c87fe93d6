//! One log line when a piece of the server's work starts, and one when it
//! ends or fails, with its reason: a grading, a scrimmage, a league round,
//! a finalize. Each line carries its fields (`work`, `id`, `event`,
//! `seconds`, `reason`), so `--log-format json` gives them to a log
//! collector as fields, and the text form reads as a sentence. Logged at
//! `info` (failures at `warn`) under the target `arena_server::work_log`
//! (no module's path begins with it, so no other line comes with them),
//! which `arena serve` shows by default.

use std::time::Instant;

/// The target of the work's log lines (`RUST_LOG=arena_server::work_log=off`
/// hides them).
pub const TARGET: &str = "arena_server::work_log";

/// A piece of work under way: logged as started when made, as done or
/// failed when it ends.
pub struct Work {
    kind: &'static str,
    id: String,
    what: String,
    started: Instant,
}

impl Work {
    /// Logs that `kind` (`grading`, `scrimmage`, ...) number or name `id`,
    /// `what` in words ("group g1, assignment trap"), starts.
    pub fn start(kind: &'static str, id: impl ToString, what: impl Into<String>) -> Work {
        let work = Work { kind, id: id.to_string(), what: what.into(), started: Instant::now() };
        tracing::info!(target: TARGET, work = kind, id = %work.id, event = "start", "{kind} {} ({}): started", work.id, work.what);
        work
    }

    /// Logs that it ended: `outcome` says how ("PASS", "3 games played").
    pub fn done(self, outcome: &str) {
        let seconds = self.seconds();
        let Work { kind, id, what, .. } = self;
        tracing::info!(target: TARGET, work = kind, id = %id, event = "done", seconds, outcome = %one_line(outcome),
            "{kind} {id} ({what}): done in {seconds:.1} s: {}", one_line(outcome));
    }

    /// Logs that it failed, and why (the first line of `reason`, cut: a
    /// player's own words may be in it).
    pub fn failed(self, reason: &str) {
        let seconds = self.seconds();
        let Work { kind, id, what, .. } = self;
        tracing::warn!(target: TARGET, work = kind, id = %id, event = "failed", seconds, reason = %one_line(reason),
            "{kind} {id} ({what}): failed after {seconds:.1} s: {}", one_line(reason));
    }

    /// Logs that it waits (`wait`, if timed) before it goes on, and why
    /// (`why`: the machine spoiled its games, the disk is full): not a
    /// failure, and not lost.
    pub fn waits(self, why: &str, wait: Option<std::time::Duration>) {
        let seconds = self.seconds();
        let Work { kind, id, what, .. } = self;
        let wait = wait.map(|wait| wait.as_secs());
        let when = wait.map_or("by itself once it can".to_string(), |wait| format!("in {wait} s"));
        tracing::warn!(target: TARGET, work = kind, id = %id, event = "waits", seconds, wait, reason = %one_line(why),
            "{kind} {id} ({what}): {} after {seconds:.1} s; goes on {when}", one_line(why));
    }

    fn seconds(&self) -> f64 {
        (self.started.elapsed().as_secs_f64() * 10.0).round() / 10.0
    }
}

/// The first line of `text`, at most 200 characters: a log line is one line.
pub(crate) fn one_line(text: &str) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    match line.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_is_its_first_line_cut() {
        assert_eq!(one_line("\n  it timed out\nTraceback ...\n"), "it timed out");
        let long = "x".repeat(300);
        assert_eq!(one_line(&long).chars().count(), 201);
        assert_eq!(one_line(""), "");
    }
}
