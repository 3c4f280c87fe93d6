//! The server's background threads, all started here ([`Threads::start`]):
//! the grading slots (`grader::grade_forever`), the scrimmage thread
//! (`scrimmage::play_forever`), the league's (`league::play_forever`) and
//! the leaderboard's (`Boards::rebuild_forever`), and the analysis of
//! graded games (`analysis::analyse_forever`). Each module has its own
//! loop; this one only gives each its thread, its database connection and
//! its priority. (The storage measure is not one of them: it runs on a
//! staff request that finds the last measure stale, `storage::Totals`.)

use std::{
    collections::HashSet,
    path::PathBuf,
    sync::{Arc, Mutex},
};

use anyhow::Result;

use crate::{
    course::Course,
    store::db,
    work::analysis::{self, Analyses},
    work::board::Boards,
    work::executor::Executor,
    work::full_disk::FullDisk,
    work::grader::{self, GraderOptions},
    work::league::{self, Leagues},
    work::scrimmage,
    work::wake::Wake,
};
use arena_core::{
    analysis::Budget,
    play::cores::{self, Priority},
};

/// What the server's threads share.
pub(crate) struct Threads {
    /// The data folder.
    pub dir: PathBuf,
    pub course: Arc<Course>,
    pub grading: GraderOptions,
    /// Where grading runs and league rounds play their games.
    pub executor: Arc<Executor>,
    /// Told when there is work (a submission arrived, a grading ended).
    pub wake: Arc<Wake>,
    /// Told of every change the threads make (a status, a game played, a
    /// grade): the leaderboards are rebuilt.
    pub changed: Arc<Wake>,
    pub leagues: Arc<Leagues>,
    pub boards: Arc<Boards>,
    /// Whether the disk is full: the gradings, scrimmages and the league
    /// wait while it is.
    pub disk: Arc<FullDisk>,
}

impl Threads {
    /// Starts `grading.slots` grading slots, the scrimmage thread, the
    /// league's (unless `grading.round_robin` is off) and the leaderboard's.
    pub(crate) fn start(self) -> Result<()> {
        let Threads { dir, course, grading, executor, wake, changed, leagues, boards, disk } = self;
        // Submissions being graded now: any other unfinished one was
        // interrupted (by a crash) and is taken up again first.
        let busy = Arc::new(Mutex::new(HashSet::new()));
        // The analysis of graded submissions' lost games: after their grades.
        let analyses = Arc::new(Analyses::new(grading.analysis_nodes > 0));
        if grading.analysis_nodes > 0 {
            let (dir, analyses) = (dir.clone(), analyses.clone());
            let budget = Budget { nodes: grading.analysis_nodes, ..Budget::default() };
            std::thread::Builder::new()
                .name("analysis".into())
                .spawn(move || analysis::analyse_forever(&dir, &dir.join(grader::RUNS), &analyses, budget))?;
        }
        for slot in 0..grading.slots.max(1) {
            let db = db::open(&dir)?;
            let (dir, wake, busy, changed) = (dir.clone(), wake.clone(), busy.clone(), changed.clone());
            let (executor, course, disk, analyses) =
                (executor.clone(), course.clone(), disk.clone(), analyses.clone());
            std::thread::Builder::new().name(format!("grader-{slot}")).spawn(move || {
                play_at(grading.games_nice);
                cores::set_priority(Priority::Grading);
                let wakes = (&*wake, &*changed);
                let done = (&*busy, &*analyses);
                grader::grade_forever(&dir, &db, &course, wakes, done, &disk, &executor, grading)
            })?;
        }
        {
            // Scrimmages: one at a time, beside the gradings.
            let (db, dir, wake, changed) = (db::open(&dir)?, dir.clone(), wake.clone(), changed.clone());
            let (course, disk) = (course.clone(), disk.clone());
            std::thread::Builder::new().name("scrimmages".into()).spawn(move || {
                play_at(grading.games_nice);
                cores::set_priority(Priority::Scrimmage);
                scrimmage::play_forever(&dir, &db, &course, (&wake, &changed), &disk, grading.scrimmage_turns)
            })?;
        }
        if grading.round_robin {
            let (db, dir, wake, changed) = (db::open(&dir)?, dir.clone(), wake.clone(), changed.clone());
            let (leagues, executor, disk) = (leagues.clone(), executor.clone(), disk.clone());
            std::thread::Builder::new().name("league".into()).spawn(move || {
                play_at(grading.games_nice);
                cores::set_priority(Priority::League);
                league::play_forever(&dir, &db, (&wake, &changed), &disk, &leagues, grading.slots, &executor)
            })?;
        }
        let db = db::open(&dir)?;
        std::thread::Builder::new()
            .name("leaderboard".into())
            .spawn(move || boards.rebuild_forever(&db, &course, &changed, &leagues))?;
        Ok(())
    }
}

/// Sets the calling thread's nice value, and so that of the workers it
/// starts (they inherit it): `--games-nice`. At 0, the default, games get
/// a fair share of a machine shared with other users' work (at 10 they got
/// a tenth of a core beside one busy loop: a real course player, 3-5 s of
/// CPU a turn, could then never be played); pages run above them
/// (`nice.rs`).
fn play_at(nice: i32) {
    super::nice::set(nice, "games");
}
