//! The course file (`arena serve --course course.toml`): what a course sets
//! and how it marks it. Each assignment is a game, how submissions are
//! graded against the reference levels, its deadline, its class tournament
//! and its points policy. The course's own Trap project (10 games a level,
//! 6/4/2 wins to pass, then a tournament that gives more points the more
//! groups a group defeats) is `Course::default()`, and the example in
//! docs/server.md.
//!
//! Loading checks everything at once: an error names the line and the key
//! (`line 12: assignment[1].grading.wins_to_pass: ...`), as tournament
//! files' errors do.
//!
//! Around it, the course's other parts: its students' tokens
//! (`accounts.rs`), the points exported to a gradebook (`export.rs`) and
//! Gradescope (`gradescope/`).

pub mod accounts;
pub mod export;
pub mod gradescope;

use std::{path::Path, time::Duration};

use anyhow::{Context, Result};
use serde::Deserialize;

use arena_core::{
    game::GameId,
    game_rules::{Budgets, GameOptions, OptionValue},
    games::rules::{self, GameRules},
    play::clock::{parse_grace, Clock, DEFAULT_GRACE},
    play::time_control::TimeControl,
    players::Level,
    tournament::config::{one_line, pass_marks},
};

/// A course: its assignments, in the order pages and CSV columns show them.
#[derive(Debug, Clone, PartialEq)]
pub struct Course {
    pub name: String,
    pub assignments: Vec<Assignment>,
}

/// One assignment: a game to submit a player of.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// Its id in URLs, the API and CSV columns: lower-case letters, digits
    /// and `-`.
    pub name: String,
    /// As pages show it.
    pub title: String,
    pub game: GameId,
    /// The game with its rules options and the budgets of a turn and a start.
    pub rules: GameRules,
    /// Those settings as the file gives them (a grading run's tournament
    /// file carries them on).
    pub settings: toml::Table,
    /// `YYYY-MM-DD HH:MM:SS`, UTC: submissions after it are graded but do not count.
    pub deadline: Option<String>,
    pub grading: AssignmentGrading,
    pub tournament: ClassTournament,
    pub points: Points,
}

/// How a submission is graded against the reference levels.
#[derive(Debug, Clone, PartialEq)]
pub struct AssignmentGrading {
    /// The levels, in the order marks are given.
    pub levels: Vec<Level>,
    /// Two-player games: games against each level (seat-swapped); the
    /// single-player games: the worlds every level and the submission play
    /// (the same worlds: the duplicate format).
    pub games: u32,
    pub pass: Pass,
}

/// What passing a level takes, one value per level: as the grade format
/// of tournament files has it (the grading run is one).
pub use arena_core::tournament::grade::Pass;

/// The class tournament among the groups' final submissions.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassTournament {
    /// Two-player games: games per pairing (seat-swapped pairs on shared
    /// seeds); the single-player games: worlds per group.
    pub games: u32,
    /// Two-player games: a Swiss instead of the round robin
    /// (`format = "swiss"`), of these rounds (None: the default for the
    /// class's size; at most the groups less one).
    pub swiss: Option<Option<u32>>,
}

/// How many points each part gives, and the most in all.
#[derive(Debug, Clone, PartialEq)]
pub struct Points {
    /// For passing each level, in the grading's order.
    pub per_level: Vec<f64>,
    pub tournament: TournamentPoints,
    /// The most an assignment gives, whatever the parts add up to.
    pub cap: f64,
}

/// What the class tournament gives a group.
#[derive(Debug, Clone, PartialEq)]
pub enum TournamentPoints {
    /// This many for each group defeated (a pairing won; for a
    /// single-player game or in a Swiss, a group ranked below).
    PerGroupDefeated(f64),
    /// At most this many: that share of it for the share of the other
    /// groups defeated (all of it for defeating every group).
    Share(f64),
    /// By rank: the first rank gets the first value; ranks past the list
    /// get nothing.
    ByRank(Vec<f64>),
}

/// A group's results in one assignment, as finalize has them.
#[derive(Debug, Clone, PartialEq)]
pub struct Results {
    /// Passed or not, for each level in the grading's order.
    pub passed: Vec<bool>,
    /// Rank in the class tournament (1: first), if it played.
    pub rank: Option<usize>,
    /// Groups defeated in the class tournament.
    pub defeated: usize,
    /// Groups in the class tournament.
    pub groups: usize,
}

impl Points {
    /// The points `results` earn: each level passed, the tournament by the
    /// policy, all capped.
    pub fn of(&self, results: &Results) -> f64 {
        let levels: f64 =
            self.per_level.iter().zip(&results.passed).filter(|(_, p)| **p).map(|(v, _)| v).sum();
        let tournament = match &self.tournament {
            TournamentPoints::PerGroupDefeated(each) => each * results.defeated as f64,
            TournamentPoints::Share(most) if results.groups > 1 => {
                most * results.defeated as f64 / (results.groups - 1) as f64
            }
            TournamentPoints::Share(_) => 0.0,
            TournamentPoints::ByRank(values) => {
                results.rank.and_then(|r| values.get(r.wrapping_sub(1))).copied().unwrap_or(0.0)
            }
        };
        (levels + tournament).min(self.cap)
    }

    /// The most the class tournament can add to a group that passed every
    /// level, for any class: None when nothing bounds it (points per group
    /// defeated and no cap; how many groups play is known only at
    /// finalize).
    pub fn tournament_most(&self) -> Option<f64> {
        let levels: f64 = self.per_level.iter().sum();
        let room = self.cap - levels.min(self.cap);
        let most = match &self.tournament {
            TournamentPoints::PerGroupDefeated(each) if *each > 0.0 => f64::INFINITY,
            TournamentPoints::PerGroupDefeated(_) => 0.0,
            TournamentPoints::Share(most) => *most,
            TournamentPoints::ByRank(values) => values.iter().copied().fold(0.0, f64::max),
        };
        Some(most.min(room)).filter(|most| most.is_finite())
    }
}

/// The game the server grades and its league plays: the first in the
/// games table the course grades against the levels
/// (`TwoPlayerGame::COURSE_GRADING`).
pub fn served_game() -> GameId {
    GameRules::course_graded_games()[0]
}

impl Default for Course {
    /// The course's own Trap project: graded against Easy, Medium and Hard
    /// (10 games each, 6, 4 and 2 wins to pass: at least 85 of 100 points),
    /// then a round robin among the groups whose 15 points go by the share
    /// of the groups a group defeats.
    fn default() -> Course {
        let game = served_game();
        Course {
            name: game.title(),
            assignments: vec![Assignment {
                name: game.name().to_string(),
                title: game.title(),
                game,
                rules: GameRules::build(
                    game,
                    &GameOptions::default(),
                    Budgets { clock: SERVER_CLOCK, ..Budgets::default() },
                )
                .expect("the default game's default settings"),
                settings: with_server_defaults(toml::Table::new()),
                deadline: None,
                grading: AssignmentGrading {
                    levels: COURSE_LEVELS.to_vec(),
                    games: 10,
                    pass: Pass::Wins(vec![6, 4, 2]),
                },
                tournament: ClassTournament { games: 10, swiss: None },
                points: Points {
                    per_level: vec![30.0, 30.0, 25.0],
                    tournament: TournamentPoints::Share(15.0),
                    cap: 100.0,
                },
            }],
        }
    }
}

/// The course's levels.
const COURSE_LEVELS: [Level; 3] = Level::ALL;

/// The clock the server charges unless an assignment says otherwise: the
/// CPU time, as the course's referee did (`time.process_time()`), so that a
/// grade does not depend on what else the machine is doing.
pub const SERVER_CLOCK: Clock = Clock::Cpu;

/// An assignment's `[settings]` with the server's defaults filled in: the
/// grading, league, scrimmage and final tournament files carry them on.
fn with_server_defaults(mut table: toml::Table) -> toml::Table {
    table.entry("clock").or_insert_with(|| SERVER_CLOCK.name().into());
    table
}

impl Assignment {
    /// The clock its players are charged on: the course file's (always
    /// written in: `SERVER_CLOCK` by default).
    pub fn clock(&self) -> Clock {
        clock_of(&self.settings)
    }

    /// How far past its budget a turn may go before it is lost.
    pub fn grace(&self) -> Duration {
        grace_of(&self.settings)
    }

    /// What its grades are made under, as stored with each grade and
    /// compared at start: the budget of a turn, the clock, a grace other
    /// than the default (grades made before it could be set stay current),
    /// and the whole `[settings]`.
    pub fn graded_under(&self) -> serde_json::Value {
        let mut under = serde_json::json!({
            "time_per_turn": arena_core::report::units::seconds(self.rules.time_control().first_turn()),
            "clock": self.settings.get("clock").and_then(|c| c.as_str()).unwrap_or(SERVER_CLOCK.name()),
            "settings": self.settings,
        });
        if self.grace() != DEFAULT_GRACE {
            under["grace"] = arena_core::report::units::seconds(self.grace()).into();
        }
        under
    }
}

impl Course {
    /// The course in file `path`, checked, and the file's text.
    pub fn read(path: &Path) -> Result<(Course, String)> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the course file {}", path.display()))?;
        let course = Course::parse(&text).with_context(|| format!("course file {}", path.display()))?;
        Ok((course, text))
    }

    /// A course of one assignment, `game`, graded with the course file's
    /// defaults (the served game: the course's own project,
    /// `Course::default()`).
    pub fn of_game(game: GameId) -> Course {
        if game == served_game() {
            return Course::default();
        }
        let text = format!(
            "name = \"{}\"\n[[assignment]]\nname = \"{}\"\ntitle = \"{}\"\ngame = \"{}\"\n",
            game.title(),
            game.name(),
            game.title(),
            game.name()
        );
        Course::parse(&text).expect("a game's name is an assignment's and its defaults check")
    }

    /// The assignment named `name`, or the only one; an error lists them.
    pub fn pick(&self, name: Option<&str>) -> Result<&Assignment, String> {
        let names = || self.assignments.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", ");
        match name {
            Some(name) => self
                .assignment(name)
                .ok_or_else(|| format!("the course has no assignment '{name}' (it has {})", names())),
            None if self.assignments.len() == 1 => Ok(&self.assignments[0]),
            None => {
                Err(format!("the course has {} assignments: name one ({})", self.assignments.len(), names()))
            }
        }
    }

    /// The course `text` describes, checked; an error names its line and key.
    pub fn parse(text: &str) -> Result<Course> {
        let file: CourseFile = toml::from_str(text).map_err(|e| anyhow::anyhow!(one_line(&e, text)))?;
        file.check().map_err(|e| match e.assignment.and_then(|i| line_of(text, i, e.key)) {
            Some(line) => anyhow::anyhow!("line {line}: {}", e.message),
            None => anyhow::anyhow!("{}", e.message),
        })
    }

    /// The assignment named `name`.
    pub fn assignment(&self, name: &str) -> Option<&Assignment> {
        self.assignments.iter().find(|a| a.name == name)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CourseFile {
    name: Option<String>,
    #[serde(default)]
    assignment: Vec<AssignmentFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AssignmentFile {
    name: String,
    title: Option<String>,
    game: String,
    deadline: Option<String>,
    /// The game's rules options and the budgets (`time_per_turn`, `startup_time`).
    #[serde(default)]
    settings: toml::Table,
    #[serde(default)]
    grading: GradingFile,
    #[serde(default)]
    tournament: ClassTournamentFile,
    #[serde(default)]
    points: PointsFile,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct GradingFile {
    levels: Option<Vec<String>>,
    games: Option<u32>,
    wins_to_pass: Option<Vec<u32>>,
    score_margin: Option<Vec<f64>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ClassTournamentFile {
    /// Said for clarity only: each kind of game has one class tournament.
    format: Option<String>,
    games: Option<u32>,
    /// A Swiss's rounds.
    rounds: Option<u32>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct PointsFile {
    per_level: Option<Vec<f64>>,
    per_group_defeated: Option<f64>,
    share: Option<f64>,
    by_rank: Option<Vec<f64>>,
    cap: Option<f64>,
}

/// A checked value's error: which assignment, the key, the message (which
/// begins with the key's whole path).
struct KeyError {
    assignment: Option<usize>,
    key: &'static str,
    message: String,
}

impl CourseFile {
    fn check(self) -> std::result::Result<Course, KeyError> {
        if self.assignment.is_empty() {
            return Err(KeyError {
                assignment: None,
                key: "assignment",
                message: "no [[assignment]]: a course has at least one (docs/server.md has an example)"
                    .to_string(),
            });
        }
        let mut assignments: Vec<Assignment> = Vec::new();
        for (i, file) in self.assignment.into_iter().enumerate() {
            let assignment = file.check(i)?;
            if assignments.iter().any(|a| a.name == assignment.name) {
                return Err(KeyError {
                    assignment: Some(i),
                    key: "name",
                    message: format!(
                        "assignment[{i}].name: \"{}\" names another assignment too: names are unique",
                        assignment.name
                    ),
                });
            }
            assignments.push(assignment);
        }
        Ok(Course { name: self.name.unwrap_or_else(|| "course".to_string()), assignments })
    }
}

impl AssignmentFile {
    fn check(self, i: usize) -> std::result::Result<Assignment, KeyError> {
        let error = |key: &'static str, message: String| KeyError {
            assignment: Some(i),
            key,
            message: format!("assignment[{i}].{message}"),
        };
        let well_named = !self.name.is_empty()
            && self.name.len() <= 40
            && self.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !well_named {
            return Err(error(
                "name",
                format!("name: \"{}\": use lower-case letters, digits and '-' (at most 40)", self.name),
            ));
        }
        let game = GameId::parse(&self.game).ok_or_else(|| {
            error(
                "game",
                format!("game: \"{}\": unknown game; use one of {}", self.game, GameId::names(", ")),
            )
        })?;
        let settings_table = with_server_defaults(self.settings);
        let rules = settings(game, &settings_table).map_err(|(key, message)| error(key, message))?;
        let deadline = self.deadline.map(|d| deadline(&d).map_err(|m| error("deadline", m))).transpose()?;
        let single = game.is_single_player();
        let g = self.grading;
        let names = g.levels.unwrap_or_else(|| COURSE_LEVELS.iter().map(|l| l.name().to_string()).collect());
        let mut levels = Vec::new();
        for name in &names {
            let level = Level::parse(name).ok_or_else(|| {
                error(
                    "levels",
                    format!("grading.levels: \"{name}\": not a level; use easy, medium, hard or expert"),
                )
            })?;
            if levels.contains(&level) {
                return Err(error("levels", format!("grading.levels: \"{name}\" is there twice")));
            }
            levels.push(level);
        }
        if levels.is_empty() {
            return Err(error("levels", "grading.levels: grade against one level at least".to_string()));
        }
        let games = g.games.unwrap_or(if single { 100 } else { 10 });
        if games == 0 {
            return Err(error("games", "grading.games = 0: use 1 or more".to_string()));
        }
        // The grade format's own check: the grading run is one.
        let pass = pass_marks(&levels, games, single, g.wins_to_pass, g.score_margin).map_err(|e| {
            let key = if e.to_string().starts_with("score_margin") { "score_margin" } else { "wins_to_pass" };
            error(key, format!("grading.{e}"))
        })?;
        let per_level = |key: &'static str, what: &str, n: usize| -> std::result::Result<(), KeyError> {
            if n == levels.len() {
                Ok(())
            } else {
                Err(error(key, format!("{what}: {n} values for {} levels: give one per level", levels.len())))
            }
        };
        // The formats that rank groups by the groups they defeat (in a
        // Swiss, the groups ranked below).
        let format = if single { "duplicate" } else { "round-robin" };
        let swiss = !single && self.tournament.format.as_deref() == Some("swiss");
        if let Some(other) = self.tournament.format.as_deref().filter(|f| *f != format && !swiss) {
            let formats = if single { format!("\"{format}\"") } else { format!("\"{format}\" or \"swiss\"") };
            return Err(error(
                "format",
                format!(
                    "tournament.format: \"{other}\": {game}'s class tournament is {formats} (it ranks the \
                     groups by the groups they defeat); leave the key out or write that"
                ),
            ));
        }
        let swiss = match (swiss, self.tournament.rounds) {
            (true, Some(0)) => {
                return Err(error(
                    "rounds",
                    "tournament.rounds = 0: a Swiss needs 1 round or more".to_string(),
                ))
            }
            (true, rounds) => Some(rounds),
            (false, Some(_)) => {
                return Err(error(
                    "rounds",
                    "tournament.rounds: only a Swiss has rounds; write format = \"swiss\" or remove it"
                        .to_string(),
                ))
            }
            (false, None) => None,
        };
        let tournament_games = self.tournament.games.unwrap_or(if single { 100 } else { 10 });
        if tournament_games == 0 {
            return Err(error("games", "tournament.games = 0: use 1 or more".to_string()));
        }
        let p = self.points;
        let per_level_points = p.per_level.unwrap_or_else(|| vec![1.0; levels.len()]);
        per_level("per_level", "points.per_level", per_level_points.len())?;
        let tournament = match (p.per_group_defeated, p.share, p.by_rank) {
            (Some(each), None, None) => TournamentPoints::PerGroupDefeated(each),
            (None, Some(most), None) => TournamentPoints::Share(most),
            (None, None, Some(ranks)) => TournamentPoints::ByRank(ranks),
            (None, None, None) => TournamentPoints::Share(0.0),
            _ => {
                let key = if p.share.is_some() { "share" } else { "by_rank" };
                return Err(error(
                    key,
                    format!("points.{key}: give one of per_group_defeated, share and by_rank, not several"),
                ));
            }
        };
        let values = per_level_points.iter().chain(match &tournament {
            TournamentPoints::ByRank(v) => v.as_slice(),
            TournamentPoints::PerGroupDefeated(v) | TournamentPoints::Share(v) => std::slice::from_ref(v),
        });
        if values.clone().any(|v| !v.is_finite() || *v < 0.0) {
            return Err(error("per_level", "points: points are 0 or more".to_string()));
        }
        let cap = p.cap.unwrap_or(f64::INFINITY);
        if cap.is_nan() || cap < 0.0 {
            return Err(error("cap", "points.cap: a cap is 0 or more".to_string()));
        }
        Ok(Assignment {
            title: self.title.unwrap_or_else(|| self.name.clone()),
            name: self.name,
            game,
            rules,
            settings: settings_table,
            deadline,
            grading: AssignmentGrading { levels, games, pass },
            tournament: ClassTournament { games: tournament_games, swiss },
            points: Points { per_level: per_level_points, tournament, cap },
        })
    }
}

/// The clock an assignment's `[settings]` charge (`SERVER_CLOCK` unless
/// they say `wall`).
pub fn clock_of(settings: &toml::Table) -> Clock {
    match settings.get("clock").and_then(|c| c.as_str()) {
        Some("wall") => Clock::Wall,
        _ => SERVER_CLOCK,
    }
}

/// The grace an assignment's `[settings]` give (checked when the course
/// file was read), else the default.
pub fn grace_of(settings: &toml::Table) -> Duration {
    settings.get("grace").and_then(|g| g.as_str()).and_then(|g| parse_grace(g).ok()).unwrap_or(DEFAULT_GRACE)
}

/// `game` under the `[settings]` of an assignment (its rules options and
/// budgets): what a batch job that got them as the course file gives them
/// plays.
pub fn rules_of(game: GameId, table: &toml::Table) -> Result<GameRules, String> {
    settings(game, table).map_err(|(_, message)| message)
}

/// The game's settings from an assignment's `[settings]`: its rules options
/// and the budgets; an error is (key, message).
fn settings(game: GameId, table: &toml::Table) -> std::result::Result<GameRules, (&'static str, String)> {
    let mut options = GameOptions::default();
    let mut budgets = Budgets::default();
    for (key, value) in table {
        match (key.as_str(), value) {
            ("time_per_turn", toml::Value::String(text)) => {
                budgets.turn = TimeControl::PerTurn(
                    arena_core::report::units::parse_duration(text)
                        .map_err(|e| ("time_per_turn", format!("settings.time_per_turn: {e}")))?,
                );
            }
            ("startup_time", toml::Value::String(text)) => {
                budgets.startup = arena_core::report::units::parse_duration(text)
                    .map_err(|e| ("startup_time", format!("settings.startup_time: {e}")))?;
            }
            ("grace", value) => {
                budgets.grace = value
                    .as_str()
                    .ok_or_else(|| format!("{value} is not a duration: write it like \"1s\""))
                    .and_then(parse_grace)
                    .map_err(|e| ("grace", format!("settings.grace: {e}")))?;
            }
            ("clock", value) => {
                budgets.clock = match value.as_str() {
                    Some("wall") => Clock::Wall,
                    Some("cpu") => Clock::Cpu,
                    _ => return Err(("clock", format!("settings.clock: {value}: `wall` or `cpu`"))),
                };
            }
            (key, value) => {
                let Some(known) = rules::keys().into_iter().find(|k| *k == key) else {
                    return Err((
                        "settings",
                        format!(
                            "settings.{key}: no such setting (the settings: time_per_turn, startup_time, grace, clock, {})",
                            rules::keys().join(", ")
                        ),
                    ));
                };
                OptionValue::from_toml(value)
                    .and_then(|value| rules::set_option(&mut options, known, value))
                    .map_err(|e| (known, format!("settings.{known}: {e}")))?;
            }
        }
    }
    GameRules::build(game, &options, budgets).map_err(|e| {
        let key = match &e {
            arena_core::game_rules::SettingsError::NotOwned { key, .. } => *key,
            arena_core::game_rules::SettingsError::Bad(bad) => bad.key,
        };
        (key, e.setting_line())
    })
}

/// A deadline normalised to `YYYY-MM-DD HH:MM:SS` (UTC).
fn deadline(text: &str) -> std::result::Result<String, String> {
    let bad = || format!("deadline: \"{text}\" is not a date and time: write it like 2026-12-01 23:59 (UTC)");
    let (date, time) = text.trim().split_once([' ', 'T']).ok_or_else(bad)?;
    let numbers =
        |s: &str, sep: char| s.split(sep).map(|n| n.parse::<u32>().ok()).collect::<Option<Vec<_>>>();
    let d = numbers(date, '-').filter(|d| d.len() == 3).ok_or_else(bad)?;
    let t = numbers(time, ':').filter(|t| (2..=3).contains(&t.len())).ok_or_else(bad)?;
    let (y, m, day, h, min, s) = (d[0], d[1], d[2], t[0], t[1], t.get(2).copied().unwrap_or(0));
    let days_in_month = match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => 0,
    };
    if !(1000..=9999).contains(&y) || day == 0 || day > days_in_month || h > 23 || min > 59 || s > 59 {
        return Err(bad());
    }
    Ok(format!("{y:04}-{m:02}-{day:02} {h:02}:{min:02}:{s:02}"))
}

/// The line of `key` in the `index`-th `[[assignment]]` of `text` (its
/// tables `[assignment.grading]`... included).
fn line_of(text: &str, index: usize, key: &str) -> Option<usize> {
    let mut seen = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_start();
        if line.starts_with("[[assignment]]") {
            seen = Some(seen.map_or(0, |s| s + 1));
        } else if line.starts_with("[[") || (line.starts_with('[') && !line.starts_with("[assignment.")) {
            // Another table: not this assignment's.
            if seen == Some(index) {
                return None;
            }
        }
        let is_key = line.strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with('='));
        if seen == Some(index) && is_key {
            return Some(n + 1);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = r#"
name = "AI, fall 2026"

[[assignment]]
name = "trap"
game = "trap"
deadline = "2026-12-01 23:59"
[assignment.grading]
games = 10
wins_to_pass = [6, 4, 2]
[assignment.points]
per_level = [30, 30, 25]
per_group_defeated = 1
cap = 100

[[assignment]]
name = "wumpus"
title = "Wumpus World"
game = "wumpus"
[assignment.settings]
preset = "project"
time_per_turn = "1s"
[assignment.grading]
levels = ["easy", "medium"]
games = 50
score_margin = [0, 100]
[assignment.points]
per_level = [5, 5]
by_rank = [3, 2, 1]
"#;

    #[test]
    fn a_course_of_two_assignments() {
        let course = Course::parse(TWO).unwrap();
        assert_eq!(course.name, "AI, fall 2026");
        let [trap, wumpus] = &course.assignments[..] else { panic!() };
        assert_eq!((trap.game, trap.title.as_str()), (GameId::Trap, "trap"));
        assert_eq!(trap.deadline.as_deref(), Some("2026-12-01 23:59:00"));
        assert_eq!(trap.grading.pass, Pass::Wins(vec![6, 4, 2]));
        assert_eq!(trap.points.tournament, TournamentPoints::PerGroupDefeated(1.0));
        assert_eq!((wumpus.game, wumpus.title.as_str()), (GameId::Wumpus, "Wumpus World"));
        assert_eq!(wumpus.grading.levels, [Level::Easy, Level::Medium]);
        assert_eq!(wumpus.grading.pass, Pass::Margin(vec![0.0, 100.0]));
        assert_eq!(wumpus.rules.time_control().first_turn(), std::time::Duration::from_secs(1));
        assert_eq!(wumpus.tournament.games, 100);
        assert_eq!(course.assignment("wumpus"), Some(wumpus));
    }

    #[test]
    fn the_default_is_the_course_trap_project() {
        let course = Course::default();
        let [trap] = &course.assignments[..] else { panic!() };
        assert_eq!(trap.game, GameId::Trap);
        assert_eq!(trap.grading.levels, COURSE_LEVELS);
        assert_eq!((trap.grading.games, &trap.grading.pass), (10, &Pass::Wins(vec![6, 4, 2])));
        // The same as a file that says only the game.
        let file = Course::parse("[[assignment]]\nname = \"trap\"\ngame = \"trap\"\n").unwrap();
        assert_eq!(file.assignments[0].grading, trap.grading);
    }

    #[test]
    fn the_example_in_the_docs_is_the_default() {
        let docs = include_str!("../../../../docs/server.md");
        let section = docs.split("## The course file").nth(1).expect("docs/server.md has the section");
        let example = section.split("```toml\n").nth(1).and_then(|s| s.split("```").next()).unwrap();
        let mut written = Course::parse(example).unwrap();
        // The same rules, whether the settings are written out or not (the
        // server's clock is always written in).
        assert!(written.assignments[0].settings.remove("time_per_turn").is_some());
        assert_eq!(written, Course::default());
    }

    #[test]
    fn points_follow_the_policy() {
        let results = |passed: [bool; 3], rank, defeated| Results {
            passed: passed.to_vec(),
            rank: Some(rank),
            defeated,
            groups: 5,
        };
        let points = Course::default().assignments[0].points.clone();
        assert_eq!(points.of(&results([true; 3], 1, 4)), 100.0);
        assert_eq!(points.of(&results([true; 3], 3, 2)), 85.0 + 7.5);
        assert_eq!(points.of(&results([true, true, false], 5, 0)), 60.0);
        // More groups defeated, more points.
        let more = (0..5).map(|d| points.of(&results([true; 3], 5 - d, d))).collect::<Vec<_>>();
        assert!(more.windows(2).all(|w| w[0] < w[1]), "{more:?}");
        let ranked = Points {
            per_level: vec![1.0; 3],
            tournament: TournamentPoints::ByRank(vec![3.0, 2.0]),
            cap: 4.0,
        };
        assert_eq!(ranked.of(&results([true; 3], 1, 4)), 4.0, "capped");
        assert_eq!(ranked.of(&results([false; 3], 2, 3)), 2.0);
        assert_eq!(ranked.of(&results([false; 3], 3, 2)), 0.0, "past the list");
        let each = Points {
            per_level: vec![0.0; 3],
            tournament: TournamentPoints::PerGroupDefeated(0.5),
            cap: 100.0,
        };
        assert_eq!(each.of(&results([false; 3], 1, 4)), 2.0);
    }

    #[test]
    fn the_server_charges_the_cpu_clock_unless_an_assignment_says_otherwise() {
        let course = Course::parse(
            "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n\
             [[assignment]]\nname = \"b\"\ngame = \"trap\"\n[assignment.settings]\nclock = \"wall\"\ntime_per_turn = \"2s\"\n",
        )
        .unwrap();
        let [a, b] = [&course.assignments[0], &course.assignments[1]];
        assert_eq!(a.settings.get("clock").and_then(|c| c.as_str()), Some("cpu"));
        assert_eq!(
            (a.graded_under()["time_per_turn"].as_str(), a.graded_under()["clock"].as_str()),
            (Some("5.00 s"), Some("cpu"))
        );
        assert_eq!(
            (b.graded_under()["time_per_turn"].as_str(), b.graded_under()["clock"].as_str()),
            (Some("2.00 s"), Some("wall"))
        );
        assert_ne!(a.graded_under(), b.graded_under());
        assert_eq!(Course::default().assignments[0].graded_under()["clock"], "cpu");
    }

    #[test]
    fn an_assignments_grace_is_0s_to_5s_and_its_grades_say_it() {
        let course = |grace: &str| {
            Course::parse(&format!(
                "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n[assignment.settings]\n{grace}time_per_turn = \"5s\"\n"
            ))
        };
        // The course's referee: 1 s on 5 s.
        let course_grace = course("grace = \"1s\"\n").unwrap().assignments.remove(0);
        assert_eq!(course_grace.grace(), std::time::Duration::from_secs(1));
        assert_eq!(course_grace.graded_under()["grace"], "1.00 s");
        // Without one, grades say none: those made before it could be set stay current.
        let plain = course("").unwrap().assignments.remove(0);
        assert_eq!(plain.grace(), DEFAULT_GRACE);
        assert!(plain.graded_under().get("grace").is_none(), "{}", plain.graded_under());
        assert_ne!(plain.graded_under(), course_grace.graded_under(), "a change of grace is found");
        // The ends.
        for (grace, seconds) in [("0s", 0), ("5s", 5)] {
            let a = course(&format!("grace = \"{grace}\"\n")).unwrap().assignments.remove(0);
            assert_eq!(a.grace(), std::time::Duration::from_secs(seconds));
        }
        assert!(course("grace = \"5.5s\"\n").is_err());
    }

    #[test]
    fn errors_name_the_line_and_the_key() {
        let cases = [
            ("[[assignment]]\nname = \"x\"\ngame = \"chess\"\n", "line 3: assignment[0].game: \"chess\": unknown game"),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n[[assignment]]\nname = \"Bad Name\"\ngame = \"trap\"\n",
                "line 5: assignment[1].name: \"Bad Name\": use lower-case letters",
            ),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n[assignment.grading]\nwins_to_pass = [6, 4]\n",
                "line 5: assignment[0].grading.wins_to_pass: 2 value(s) for 3 level(s) (easy, medium, hard)",
            ),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n[assignment.grading]\ngames = 4\nwins_to_pass = [6, 4, 2]\n",
                "line 6: assignment[0].grading.wins_to_pass: 6 wins out of 4 games per level cannot be had",
            ),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"magic-forest\"\n[assignment.grading]\nwins_to_pass = [1, 1, 1]\n",
                "line 5: assignment[0].grading.wins_to_pass: a single-player game's grade passes on mean scores; use score_margin",
            ),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"wumpus\"\n[assignment.settings]\nboard_size = 5\n",
                "line 5: assignment[0].settings.board_size: wumpus has no board size (it is for trap, intuitive-ai)",
            ),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"trap\"\ndeadline = \"2026-02-30 12:00\"\n",
                "line 4: assignment[0].deadline: \"2026-02-30 12:00\" is not a date and time",
            ),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n[assignment.points]\nshare = 10\nby_rank = [1]\n",
                "line 5: assignment[0].points.share: give one of per_group_defeated, share and by_rank",
            ),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n[[assignment]]\nname = \"a\"\ngame = \"hexapawn\"\n",
                "line 5: assignment[1].name: \"a\" names another assignment too",
            ),
            ("[[assignment]]\nname = \"a\"\ngame = \"trap\"\ncolour = 1\n", "line 4: unknown field `colour`"),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n[assignment.settings]\nclock = \"process\"\n",
                "line 5: assignment[0].settings.clock: \"process\": `wall` or `cpu`",
            ),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n[assignment.settings]\ngrace = \"6s\"\n",
                "line 5: assignment[0].settings.grace: '6s' is out of range: a grace is 0s to 5s (how far past its budget a turn may go before it is lost)",
            ),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n[assignment.settings]\ngrace = 1\n",
                "line 5: assignment[0].settings.grace: 1 is not a duration: write it like \"1s\"",
            ),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"wumpus\"\n[assignment.tournament]\nformat = \"round-robin\"\n",
                "line 5: assignment[0].tournament.format: \"round-robin\": wumpus's class tournament is \"duplicate\"",
            ),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n[assignment.tournament]\nformat = \"swiss\"\nrounds = 0\n",
                "line 6: assignment[0].tournament.rounds = 0: a Swiss needs 1 round or more",
            ),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n[assignment.tournament]\nrounds = 4\n",
                "line 5: assignment[0].tournament.rounds: only a Swiss has rounds; write format = \"swiss\" or remove it",
            ),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"wumpus\"\n[assignment.tournament]\nformat = \"swiss\"\n",
                "line 5: assignment[0].tournament.format: \"swiss\": wumpus's class tournament is \"duplicate\"",
            ),
            (
                "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n[assignment.tournament]\nformat = \"gauntlet\"\n",
                "line 5: assignment[0].tournament.format: \"gauntlet\": trap's class tournament is \"round-robin\" or \"swiss\"",
            ),
            ("name = \"empty\"\n", "no [[assignment]]"),
        ];
        for (text, expected) in cases {
            let e = Course::parse(text).unwrap_err().to_string();
            assert!(e.starts_with(expected), "expected {expected:?}, got {e:?}");
            assert_eq!(e.lines().count(), 1, "{e}");
        }
    }

    #[test]
    fn a_two_player_class_tournament_may_be_a_swiss() {
        let text =
            "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n[assignment.tournament]\nformat = \"swiss\"\n";
        let course = Course::parse(text).unwrap();
        assert_eq!(course.assignments[0].tournament.swiss, Some(None), "the default rounds");
        let course = Course::parse(&format!("{text}rounds = 9\ngames = 4\n")).unwrap();
        assert_eq!(course.assignments[0].tournament, ClassTournament { games: 4, swiss: Some(Some(9)) });
        assert_eq!(Course::default().assignments[0].tournament.swiss, None, "a round robin by default");
    }

    #[test]
    fn deadlines_are_normalised_or_refused() {
        assert_eq!(deadline("2026-12-01 23:59").as_deref(), Ok("2026-12-01 23:59:00"));
        assert_eq!(deadline("2028-02-29T08:05:09").as_deref(), Ok("2028-02-29 08:05:09"));
        for bad in ["2026-12-01", "tomorrow", "2026-13-01 10:00", "2026-12-01 24:00", "2027-02-29 10:00"] {
            assert!(deadline(bad).is_err(), "{bad}");
        }
    }
}
