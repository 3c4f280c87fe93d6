//! One submission graded as its assignment says, wherever that happens: the
//! server's grading slots (`grader.rs`, which play the run through their
//! executor, here or on Slurm) and `arena grade` (one submission on this
//! machine, e.g. inside a Gradescope autograder). The grading run is a
//! tournament file in the grade format (the assignment's levels, games,
//! pass marks and settings: its time control and clock); the player is
//! first checked as `arena check` does, so a player that does not load or
//! cannot play gets the same reason in both places.

use std::{path::Path, sync::atomic::AtomicBool};

use anyhow::{Context, Result};

use crate::{
    course::{Assignment, Pass},
    store::disk,
    store::secret::{Purpose, Secret},
    work::replays::{self, replays_table},
    work::waiting::{self, Postponed},
};
use arena_core::{
    players::{isolation::run_as::PlayerUser, plugin::LoadError, PlayerSpec},
    sandbox::Sandbox,
    tournament::{self, config::Tournament, grade::GradeReport, record::GameResult, Observer, RunOutcome},
};

/// The tournament file that grades `player` (a player entry: a library's
/// path, `python:PATH`) as `assignment` says, named `name`, `concurrency`
/// games at once (the same games at any), on the assignment's grading
/// seed `seed` (the same games for every submission).
pub fn grading_table(
    name: &str,
    assignment: &Assignment,
    player: &str,
    concurrency: usize,
    seed: u64,
) -> toml::Table {
    let mut file = toml::Table::new();
    file.insert("name".into(), name.into());
    file.insert("game".into(), assignment.game.name().into());
    file.insert("format".into(), "grade".into());
    file.insert("seed".into(), (seed as i64).into());
    file.insert("output".into(), replays::OUTPUT.into());
    file.insert("players".into(), toml::Value::Array(vec![player.into()]));
    file.insert("concurrency".into(), (concurrency.max(1) as i64).into());
    let grading = &assignment.grading;
    let levels = grading.levels.iter().map(|l| toml::Value::from(l.name())).collect();
    file.insert("opponents".into(), toml::Value::Array(levels));
    match &grading.pass {
        Pass::Wins(wins) => {
            file.insert("games_per_pairing".into(), i64::from(grading.games).into());
            let wins = wins.iter().map(|&w| toml::Value::from(i64::from(w))).collect();
            file.insert("wins_to_pass".into(), toml::Value::Array(wins));
        }
        Pass::Margin(margins) => {
            file.insert("games_per_player".into(), i64::from(grading.games).into());
            let margins = margins.iter().map(|&m| toml::Value::from(m)).collect();
            file.insert("score_margin".into(), toml::Value::Array(margins));
        }
    }
    if !assignment.settings.is_empty() {
        file.insert("settings".into(), assignment.settings.clone().into());
    }
    // The games it lost, as replays with their viewers, for the student;
    // without the seed, which every submission's grading shares.
    let mut replays = replays_table("losses");
    replays.insert("show_seed".into(), false.into());
    file.insert("replays".into(), replays.into());
    file
}

/// `arena check` on `player` (an entry of `tournament`, the grading run),
/// in a worker hosted as the grading run's players are (isolated,
/// sandboxed unless the run says otherwise): loads it and plays a smoke
/// game in each seat against Easy, on `arena check`'s own public games
/// and the run's clock, so that what passes at home passes here. A player
/// that does not load, or makes no legal move in its smoke games, gets
/// why, its path shown as `shown_as` (its file as uploaded); one of
/// another game, its game and `assignment`'s. A fault after legal moves
/// passes: in a graded game, it loses that game.
pub fn check(player: &str, shown_as: &str, assignment: &Assignment, tournament: &Tournament) -> Result<()> {
    let stored = player.strip_prefix("python:").unwrap_or(player);
    let as_uploaded = |text: String| text.replace(stored, shown_as);
    let spec: PlayerSpec = player.parse().map_err(anyhow::Error::msg)?;
    let games = [tournament.game.clone()];
    let report = arena_core::players::check::check(
        &spec,
        &games,
        tournament.budgets,
        tournament::hosting(tournament)?,
        arena_core::players::check::SEED,
    )
    .map_err(|e| {
        // Started too slowly for the machine's load, not its own fault.
        let overloaded = e.chain().any(|c| matches!(c.downcast_ref(), Some(LoadError::Overloaded(_))));
        if overloaded {
            Postponed::Machine { games: 0, check: true }.into()
        } else if disk::is_full(&e) {
            // The server's disk, not the player: kept whole, to wait for room.
            e
        } else {
            anyhow::anyhow!(as_uploaded(format!("{e:#}")))
        }
    })?;
    let game = tournament.game.name();
    if !report.plays.iter().any(|p| p == game) {
        anyhow::bail!("{}", crate::client::wrong_game(&report.plays, &assignment.name, game));
    }
    if report.failed {
        anyhow::bail!("it made no legal move in its smoke games:\n{}", as_uploaded(report.text));
    }
    if report.spoiled > 0 {
        return Err(Postponed::Machine { games: report.spoiled, check: true }.into());
    }
    Ok(())
}

/// The grade of a grading run's one student; postponed (`Postponed`) if
/// the machine spoiled some of its games, which count for no one.
pub fn student_grade(outcome: &RunOutcome) -> Result<GradeReport> {
    if outcome.postponed > 0 && outcome.grades.is_none() {
        return Err(Postponed::Machine { games: outcome.postponed, check: false }.into());
    }
    outcome.grades.as_ref().and_then(|g| g.first().cloned()).context("the grading run gave no grade")
}

/// A submission graded here: its grade and the run's games.
pub struct Graded {
    pub grade: GradeReport,
    /// Every game of the run (the student's and the levels' own, in a
    /// single-player game).
    pub results: Vec<GameResult>,
}

/// How [`grade_here`] grades.
pub struct Here<'a> {
    /// The secret the grading seeds come from (the server's for the
    /// assignment, by the same rule).
    pub secret: &'a Secret,
    /// Games played at once.
    pub concurrency: usize,
    /// Whether the player's workers are sandboxed (`off` where the machine
    /// cannot sandbox and something else isolates the submission).
    pub sandbox: Sandbox,
    /// The unprivileged user unsandboxed workers run as (a Gradescope
    /// autograder's, which runs as root); None: the arena's user.
    pub run_as: Option<&'a PlayerUser>,
}

/// Grades `player` (a player entry) as `assignment` says, on this machine,
/// in the folder `folder` (its tournament file, journal and reports;
/// created if missing): checked first ([`check`], naming it `shown_as`),
/// then the grading run played by the tournament runner, as the server's
/// local executor plays it; `observer` follows its games.
pub fn grade_here(
    folder: &Path,
    assignment: &Assignment,
    player: &str,
    shown_as: &str,
    how: &Here<'_>,
    observer: &mut dyn Observer,
) -> Result<Graded> {
    std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let seed = how.secret.seed(Purpose::Grading, &assignment.name);
    let mut table = grading_table(&assignment.name, assignment, player, how.concurrency, seed);
    if how.sandbox == Sandbox::Off {
        let settings = table.entry("settings").or_insert_with(|| toml::Table::new().into());
        if let Some(settings) = settings.as_table_mut() {
            settings.insert("sandbox".into(), "off".into());
        }
    }
    let file = folder.join("grade.toml");
    std::fs::write(&file, toml::to_string(&table)?)
        .with_context(|| format!("cannot write {}", file.display()))?;
    let mut tournament = Tournament::load(&file)?;
    tournament.run_as = how.run_as.map(|user| user.ids);
    // Here nothing else waits: the grading waits for the machine itself.
    let mut checked = check(player, shown_as, assignment, &tournament);
    for wait in tournament::POSTPONED_WAITS {
        // (A full disk is not waited for here: it is said, as any error.)
        let postponed = checked.as_ref().err().and_then(waiting::postponed);
        let Some(postponed @ Postponed::Machine { .. }) = postponed else { break };
        tracing::warn!("{postponed}: checking again in {} s", wait.as_secs());
        std::thread::sleep(wait);
        checked = check(player, shown_as, assignment, &tournament);
    }
    let never = AtomicBool::new(false);
    let graded = checked.and_then(|()| {
        let outcome =
            tournament::run_until_played(tournament, &never, observer, &tournament::POSTPONED_WAITS)?;
        Ok(Graded { grade: student_grade(&outcome)?, results: outcome.results })
    });
    graded.map_err(|e| match waiting::postponed(&e) {
        Some(Postponed::Machine { games, .. }) => anyhow::anyhow!(
            "not graded: the machine stayed overloaded ({games} game(s) postponed, not the student's fault): \
             grade again when the machine is less busy"
        ),
        _ => e,
    })
}
