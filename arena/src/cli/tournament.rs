//! `arena tournament run`: a tournament from its file, with a progress bar,
//! Ctrl-C to stop (the journal keeps finished games) and the reports.

use std::{
    path::Path,
    process::ExitCode,
    sync::atomic::{AtomicBool, Ordering},
};

use anyhow::{bail, Result};
use arena::tournament::{self, config::Tournament, record::GameResult};
use indicatif::{ProgressBar, ProgressStyle};

/// Set by Ctrl-C: stop starting games. A second Ctrl-C quits at once.
static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_interrupt(_: libc::c_int) {
    if STOP.swap(true, Ordering::SeqCst) {
        // SAFETY: async-signal-safe; workers die with us (PR_SET_PDEATHSIG),
        // and the journal holds every game that finished.
        unsafe { libc::_exit(130) };
    }
}

pub(crate) fn run(file: &Path, json: bool, concurrency: Option<usize>) -> Result<ExitCode> {
    let mut tournament = Tournament::load(file)?;
    if let Some(n) = concurrency {
        if n == 0 {
            bail!("--concurrency 0 runs nothing: use 1 or more");
        }
        tournament.concurrency = n;
    }
    // SAFETY: installing a handler that only touches an atomic (or exits).
    unsafe { libc::signal(libc::SIGINT, on_interrupt as *const () as libc::sighandler_t) };
    let mut progress = Progress::new(!json);
    let outcome = tournament::run(tournament, &STOP, &mut progress)?;
    progress.bar.finish_and_clear();
    if outcome.interrupted {
        eprintln!(
            "interrupted after {} of {} games; the journal in {} keeps them: run the same command to resume",
            outcome.results.len(),
            outcome.total,
            outcome.tournament.output.display()
        );
        return Ok(ExitCode::from(130));
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&outcome.standings.json())?);
    } else {
        println!("{}", outcome.standings.terminal());
        if let Some(grades) = &outcome.grades {
            println!("\n{}", arena::tournament::grade::markdown_summary(grades));
        }
        eprintln!("{} games ({} played now); written:", outcome.results.len(), outcome.played_now);
        for path in &outcome.written {
            eprintln!("  {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The tournament's progress bar (games done/total, rate, ETA, leader) and
/// its live lines (resuming, each failure).
struct Progress {
    bar: ProgressBar,
    points: Vec<f64>,
}

impl Progress {
    fn new(visible: bool) -> Progress {
        let bar = if visible { ProgressBar::new(0) } else { ProgressBar::hidden() };
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} games  {per_sec}  ETA {eta}  {msg}")
                .expect("a valid template"),
        );
        Progress { bar, points: Vec::new() }
    }

    /// A live line above the bar; on stderr when the bar is hidden (not a
    /// terminal), since indicatif prints nothing for a hidden bar.
    fn say(&self, line: String) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    fn count(&mut self, result: &GameResult) {
        // A single-player game has its one player in both seats: count it once.
        let seats = if result.solo.is_some() { &result.seats[..1] } else { &result.seats[..] };
        for &id in seats {
            if self.points.len() <= id {
                self.points.resize(id + 1, 0.0);
            }
            self.points[id] += result.score_of(id);
        }
    }
}

impl tournament::Observer for Progress {
    fn start(&mut self, total: usize, done: &[GameResult]) {
        self.bar.set_length(total as u64);
        self.bar.set_position(done.len() as u64);
        self.bar.reset_eta();
        done.iter().for_each(|r| self.count(r));
        if !done.is_empty() {
            self.say(format!("resuming: {} of {total} games already in the journal", done.len()));
        }
    }

    fn game(&mut self, result: &GameResult, names: &[String]) {
        self.count(result);
        if let Some(fault) = &result.fault {
            self.say(format!("game {}: {} lost: {}", result.index + 1, names[fault.player], result.reason));
        }
        let best = self.points.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1));
        if let Some((id, points)) = best {
            self.bar.set_message(format!("leader: {} ({points} pts)", names[id]));
        }
        self.bar.inc(1);
    }
}
