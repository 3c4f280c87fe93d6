//! Why each lost grading game was lost (docs/analysis.md), worked out after
//! the grade is out: a grading slot records its grade, then hands the
//! submission here ([`Analyses::push`]); one thread analyses its lost
//! games' replays, each in a slot of the core pool at its lowest priority
//! (`Priority::Analysis`, after every game) and at nice 19, so that no
//! grade waits for it. What it finds is written beside the run: each lost
//! game's turning point in `runs/<id>/analysis.json` (the student's
//! replays list shows it), and the game's viewer again, with its analysis
//! inside (the advantage chart, the marks, "best was"). A replay that
//! cannot be analysed (a game without an analyser, a damaged file) is
//! left as it was: one log line per submission, never a crash. At start,
//! the runs graded before and never analysed are taken up, newest first.

use std::{
    collections::{HashSet, VecDeque},
    path::{Path, PathBuf},
    sync::Mutex,
    time::Duration,
};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::{
    store::db,
    work::{replays, wake::Wake},
};
use arena_core::{
    analysis::{self, text, Budget},
    games::replays::GameReplay,
    play::cores::{self, Priority},
    replay::html,
};

/// The file, in a run's folder, of its lost games' turning points.
pub const FILE: &str = "analysis.json";

/// The nice value of the analysis thread: below every game's.
const NICE: i32 = 19;

/// A lost game as analysed.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct LostGame {
    /// Its viewer's name (`game-07-mine-vs-hard`).
    pub name: String,
    /// "turn 14, moved to (3,4): win chance 0.62 -> 0.18 (blunder; best
    /// was ...)"; None if it has none (the loser never dropped) or it
    /// could not be analysed.
    pub turning_point: Option<String>,
    /// Whether it could be analysed.
    pub analysed: bool,
}

/// A run's lost games, analysed.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
pub struct RunAnalysis {
    pub games: Vec<LostGame>,
}

/// Submissions whose grade is out and whose lost games wait to be analysed.
pub struct Analyses {
    /// Whether anything analyses them (`serve --analysis-nodes 0`: no).
    on: bool,
    queue: Mutex<VecDeque<i64>>,
    wake: Wake,
}

impl Analyses {
    pub fn new(on: bool) -> Analyses {
        Analyses { on, queue: Mutex::default(), wake: Wake::default() }
    }

    /// Submission `id` was graded: its lost games are analysed next (once,
    /// however often it is pushed before).
    pub fn push(&self, id: i64) {
        if !self.on {
            return;
        }
        let mut queue = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        if !queue.contains(&id) {
            queue.push_back(id);
        }
        drop(queue);
        self.wake.notify();
    }

    fn pop(&self) -> Option<i64> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front()
    }
}

/// The analysis thread: each submission pushed, its lost games (its run
/// in the folder `runs`, the grading runs' of the data folder `dir`)
/// analysed with `budget`; forever.
pub(crate) fn analyse_forever(dir: &Path, runs: &Path, analyses: &Analyses, budget: Budget) {
    super::nice::set(NICE, "analysis");
    cores::set_priority(Priority::Analysis);
    // Graded before and never analysed (the server stopped first, or served
    // before it analysed): newest first.
    match db::open(dir).and_then(|db| db::unfinished(&db)) {
        Ok(unfinished) => {
            let grading: HashSet<i64> = unfinished.iter().map(|s| s.id).collect();
            unanalysed(runs).into_iter().filter(|id| !grading.contains(id)).for_each(|id| analyses.push(id));
        }
        Err(e) => tracing::warn!("the lost games graded before are not analysed: {e:#}"),
    }
    loop {
        let seen = analyses.wake.generation();
        match analyses.pop() {
            Some(id) => {
                let run = runs.join(id.to_string());
                if let Err(e) = analyse_run(&run, budget) {
                    tracing::warn!("submission {id}: its lost games were not analysed: {e:#}");
                }
            }
            None => {
                analyses.wake.wait_after(seen, Duration::from_secs(60));
            }
        }
    }
}

/// Analyses the lost games of the run in folder `run`, each in a slot of
/// the core pool (if this process has one), and writes what it found: the
/// games' viewers with their analysis, and [`FILE`]. A game that cannot be
/// analysed is left as it was, and said in one line for the run.
pub fn analyse_run(run: &Path, budget: Budget) -> Result<RunAnalysis> {
    let folder = replays::folder_of(run);
    let mut found = RunAnalysis::default();
    let mut failed = Vec::new();
    // The viewers grow by their analysis within the replays' budget: past
    // it a game keeps its plain viewer (its turning point is still told).
    let mut bytes: u64 = (std::fs::read_dir(&folder).into_iter().flatten().flatten())
        .filter_map(|entry| entry.metadata().ok())
        .map(|meta| meta.len())
        .sum();
    for name in replays::viewers_in(&folder) {
        let analysed = replay_file(&folder, &name)
            .context("no replay file beside its viewer")
            .and_then(|file| GameReplay::read(&file))
            .and_then(|replay| {
                // Held for this game's analysis only; not a game, so
                // the pool's back-pressure is not told how it went.
                let slot = cores::take();
                let analysis = analysis::analyse(&replay, budget).map_err(anyhow::Error::msg);
                drop(slot);
                let analysis = analysis?;
                let value = serde_json::to_value(&analysis)?;
                // The seed stays hidden: every submission's grading shares it.
                let page = html::page_beside(&replay, false, Some(value));
                let viewer = folder.join(format!("{name}.html"));
                let grown =
                    bytes - std::fs::metadata(&viewer).map_or(0, |m| m.len()).min(bytes) + page.len() as u64;
                if grown <= replays::REPLAY_BYTES {
                    write_whole(&viewer, page.as_bytes())?;
                    bytes = grown;
                }
                Ok(analysis)
            });
        match analysed {
            Ok(analysis) => {
                let turning_point =
                    analysis.turning_point.map(|i| text::turn_line(analysis.measure, &analysis.turns[i]));
                found.games.push(LostGame { name, turning_point, analysed: true });
            }
            Err(e) => {
                failed.push(format!("{name}: {e:#}"));
                found.games.push(LostGame { name, turning_point: None, analysed: false });
            }
        }
    }
    if let Some(first) = failed.first() {
        tracing::info!(
            "{}: {} of its {} lost game(s) not analysed (the first: {first})",
            run.display(),
            failed.len(),
            found.games.len()
        );
    }
    write_whole(&run.join(FILE), &serde_json::to_vec(&found)?)?;
    Ok(found)
}

/// The runs in the folder `runs` with lost games and no analysis, newest
/// first.
fn unanalysed(runs: &Path) -> Vec<i64> {
    let mut ids: Vec<i64> = (std::fs::read_dir(runs).into_iter().flatten().flatten())
        .filter_map(|entry| entry.file_name().to_str()?.parse().ok())
        .filter(|id: &i64| {
            let run = runs.join(id.to_string());
            !run.join(FILE).exists() && !replays::viewers_in(&replays::folder_of(&run)).is_empty()
        })
        .collect();
    ids.sort_unstable_by(|a, b| b.cmp(a));
    ids
}

/// The analysis of the run in folder `run`, if it was analysed.
pub fn of_run(run: &Path) -> Option<RunAnalysis> {
    serde_json::from_slice(&std::fs::read(run.join(FILE)).ok()?).ok()
}

/// The replay file of the viewer `name` in `folder`.
fn replay_file(folder: &Path, name: &str) -> Option<PathBuf> {
    [format!("{name}.json"), format!("{name}.json.gz")]
        .into_iter()
        .map(|f| folder.join(f))
        .find(|p| p.is_file())
}

/// Writes `bytes` to `path` whole: a reader sees the file before or after,
/// never half of it.
fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".part");
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, bytes).with_context(|| format!("cannot write {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| format!("cannot write {}", path.display()))
}
