//! The grade format: each student is graded against reference levels
//! (by default the course's: Easy, Medium and Hard) and passes with a pass
//! mark against every level.
//!
//! Two-player games: a series of games against each level (10 by
//! default), passed with enough wins (the course's 6, 4 and 2 of 10).
//! Single-player games: the students and the levels play the same worlds
//! (the duplicate schedule), and a level is passed with a mean score at
//! least the level's mean, less a margin (0 by default).
//!
//! Games not yet played are not counted, so a report can be made at any
//! time; its verdict is about the games so far.

use std::{collections::HashMap, fmt::Write as _};

use serde::{Deserialize, Serialize};

use super::{
    record::GameResult,
    standings::{Entrant, Failures},
};
use crate::{
    play::fault::FaultKind,
    players,
    players::levels::default_wins,
    report::table::{md_cell, md_table},
};

/// What passing takes, one mark per level.
#[derive(Debug, Clone, PartialEq)]
pub enum Pass {
    /// Two-player games: at least this many wins against the level.
    Wins(Vec<u32>),
    /// Single-player games: a mean score at least the level's on the same
    /// worlds, less this margin.
    Margin(Vec<f64>),
}

/// The grade format's grading, as a tournament file sets it.
#[derive(Debug, Clone, PartialEq)]
pub struct GradeSettings {
    /// The levels, in order: the tournament's fixed players are these.
    pub levels: Vec<players::Level>,
    /// One mark per level (a tournament file gives no other).
    pub pass: Pass,
}

impl GradeSettings {
    /// The default marks against `levels` with `games` games (two-player)
    /// or worlds (single-player) per level: the course's wins scaled to
    /// the games, or a margin of 0 (match the level).
    pub fn default_pass(levels: &[players::Level], games: u32, single_player: bool) -> Pass {
        if single_player {
            Pass::Margin(vec![0.0; levels.len()])
        } else {
            Pass::Wins(default_wins(levels, games))
        }
    }

    /// The levels as reports take them, `ids` being their player ids (the
    /// tournament's fixed players, in order).
    pub fn levels_of(&self, ids: &[usize]) -> Vec<ReferenceLevel> {
        let marks: Vec<(u32, Option<f64>)> = match &self.pass {
            Pass::Wins(wins) => wins.iter().map(|&w| (w, None)).collect(),
            Pass::Margin(margins) => margins.iter().map(|&m| (0, Some(m))).collect(),
        };
        self.levels
            .iter()
            .zip(ids)
            .zip(marks)
            .map(|((level, &id), (needed_wins, margin))| ReferenceLevel {
                name: level.name().into(),
                id,
                needed_wins,
                margin,
            })
            .collect()
    }

    /// What a tournament's fingerprint holds of the marks, so that a
    /// journal is not resumed under other marks: nothing for the default
    /// marks, which keeps the fingerprints of grade files from before the
    /// marks could be set (and their journals resumable).
    pub fn print(&self, games: u32) -> String {
        let single_player = matches!(self.pass, Pass::Margin(_));
        if self.pass == GradeSettings::default_pass(&self.levels, games, single_player) {
            return String::new();
        }
        let marks: Vec<String> = match &self.pass {
            Pass::Wins(wins) => wins.iter().map(|w| format!("w{w}")).collect(),
            Pass::Margin(margins) => margins.iter().map(|m| format!("m{m}")).collect(),
        };
        format!("pass:{}|", marks.join(","))
    }
}

/// A reference player the students are graded against.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ReferenceLevel {
    /// As shown: "easy", "medium", "hard".
    pub name: String,
    /// The reference player's id in the player list.
    pub id: usize,
    /// Two-player games: wins needed against it to pass (0 for
    /// single-player games).
    pub needed_wins: u32,
    /// Single-player games: how far below its mean score a student's mean
    /// may be and pass; None for two-player games (they pass on wins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<f64>,
}

/// A game the student lost, with what it takes to replay it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct LostGame {
    /// The game's index in the schedule.
    pub index: usize,
    pub seed: u64,
    /// The student's seat: 1 or 2 (1 in a single-player game).
    pub seat: u8,
    /// Why the game ended.
    pub reason: String,
}

/// A student's series against one level. In a single-player game the
/// series is the worlds both played, each a "game": won, drawn or lost as
/// the student scored more than, as much as or less than the level on it.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct LevelResult {
    /// The level's name.
    pub level: String,
    /// The level's player id.
    pub opponent: usize,
    /// Games against the level (single-player: worlds compared).
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Wins needed (0 in a single-player game).
    pub needed: u32,
    /// Single-player games: the student's mean score over the worlds
    /// compared, the level's over the same worlds, and the margin; None in
    /// two-player games (which keeps their reports as they were).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level_mean: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<f64>,
    /// `wins >= needed`; single-player games: `mean >= level_mean - margin`
    /// over at least one world.
    pub passed: bool,
    /// The games lost (single-player: the student's games on the worlds it
    /// scored less on), by schedule index.
    pub lost: Vec<LostGame>,
}

/// One student's grade.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct GradeReport {
    /// The student's id in the player list.
    pub student: usize,
    pub name: String,
    /// One per level, in the order the levels were given.
    pub levels: Vec<LevelResult>,
    /// Passed against every level.
    pub passed_all: bool,
    /// The student's own faults in its games against the levels (in a
    /// single-player game: in all its games), by kind.
    pub failures: Failures,
    /// "PASS", or "FAIL: needs 6 wins against easy, has 4" (each level
    /// failed, separated by "; ").
    pub verdict: String,
    /// The student's games whose replay was asked for but left out: the
    /// run's replays had reached `replays.max_bytes`.
    #[serde(skip_serializing_if = "crate::report::units::is_zero")]
    pub replays_left_out: u32,
}

/// "1 win", "4 wins".
fn wins(n: u32) -> String {
    if n == 1 {
        "1 win".to_string()
    } else {
        format!("{n} wins")
    }
}

/// The grade of each of `students` (ids into `entrants`) against `levels`,
/// from the games in `results` (any order, possibly incomplete). Games of a
/// student against anyone but the levels are not counted.
pub fn reports(
    entrants: &[Entrant],
    levels: &[ReferenceLevel],
    students: &[usize],
    results: &[GameResult],
) -> Vec<GradeReport> {
    let mut sorted: Vec<&GameResult> = results.iter().collect();
    sorted.sort_by_key(|g| g.index);
    students.iter().map(|&student| report(entrants, levels, student, &sorted)).collect()
}

fn report(
    entrants: &[Entrant],
    levels: &[ReferenceLevel],
    student: usize,
    games: &[&GameResult],
) -> GradeReport {
    let mut failures = Failures::default();
    let levels: Vec<LevelResult> = levels
        .iter()
        .map(|level| match level.margin {
            Some(margin) => solo_series(level, margin, student, games),
            None => series(level, student, games, &mut failures),
        })
        .collect();
    if levels.iter().any(|l| l.mean.is_some()) {
        // A single-player game is the student's own, whichever level it is compared with.
        for g in games.iter().filter(|g| g.solo.is_some() && g.seats[0] == student) {
            if let Some(fault) = g.fault.as_ref().filter(|f| f.player == student) {
                failures.add(&fault.kind);
            }
        }
    }
    let passed_all = levels.iter().all(|l| l.passed);
    let verdict = if passed_all {
        "PASS".to_string()
    } else {
        let missing: Vec<String> = levels.iter().filter(|l| !l.passed).map(LevelResult::missing).collect();
        format!("FAIL: {}", missing.join("; "))
    };
    let left_out = games.iter().filter(|g| g.replay_left_out && g.seats.contains(&student)).count();
    GradeReport {
        student,
        name: entrants.get(student).map_or_else(|| format!("player {student}"), |e| e.name.clone()),
        levels,
        passed_all,
        failures,
        verdict,
        replays_left_out: left_out as u32,
    }
}

/// The student's games against `level` (two-player); its faults in them
/// are added to `failures`.
fn series(
    level: &ReferenceLevel,
    student: usize,
    games: &[&GameResult],
    failures: &mut Failures,
) -> LevelResult {
    let mut r = LevelResult::new(level);
    for g in games {
        let seat = match g.seats {
            [a, b] if a == student && b == level.id && a != b => 1,
            [a, b] if b == student && a == level.id && a != b => 2,
            _ => continue,
        };
        r.games += 1;
        match g.winner {
            Some(w) if w == student => r.wins += 1,
            None => r.draws += 1,
            Some(_) => {
                r.losses += 1;
                r.lost.push(LostGame { index: g.index, seed: g.seed, seat, reason: g.reason.clone() });
            }
        }
        if let Some(fault) = g.fault.as_ref().filter(|f| f.player == student) {
            failures.add(&fault.kind);
        }
    }
    r.passed = r.wins >= r.needed;
    r
}

/// The student's single-player games compared with `level`'s on the same
/// worlds (a world is its seed): the worlds both have played count.
fn solo_series(level: &ReferenceLevel, margin: f64, student: usize, games: &[&GameResult]) -> LevelResult {
    let score = |id: usize| {
        games.iter().filter(move |g| g.seats == [id, id]).filter_map(|g| Some((*g, g.solo.as_ref()?.score)))
    };
    let theirs: HashMap<u64, i64> = score(level.id).map(|(g, s)| (g.seed, s)).collect();
    let mut r = LevelResult::new(level);
    let (mut mine_sum, mut theirs_sum) = (0.0, 0.0);
    for (g, mine) in score(student) {
        let Some(&other) = theirs.get(&g.seed) else { continue };
        r.games += 1;
        (mine_sum, theirs_sum) = (mine_sum + mine as f64, theirs_sum + other as f64);
        match mine.cmp(&other) {
            std::cmp::Ordering::Greater => r.wins += 1,
            std::cmp::Ordering::Equal => r.draws += 1,
            std::cmp::Ordering::Less => {
                r.losses += 1;
                r.lost.push(LostGame { index: g.index, seed: g.seed, seat: 1, reason: g.reason.clone() });
            }
        }
    }
    let worlds = f64::from(r.games.max(1));
    let (mean, level_mean) = (mine_sum / worlds, theirs_sum / worlds);
    r.passed = r.games > 0 && mean >= level_mean - margin;
    (r.mean, r.level_mean, r.margin) = (Some(mean), Some(level_mean), Some(margin));
    r
}

impl LevelResult {
    /// Nothing played against `level` yet.
    fn new(level: &ReferenceLevel) -> LevelResult {
        LevelResult {
            level: level.name.clone(),
            opponent: level.id,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            needed: level.needed_wins,
            mean: None,
            level_mean: None,
            margin: None,
            passed: false,
            lost: Vec::new(),
        }
    }

    /// A single-player series' marks: (mean, the mean needed, the level's
    /// mean, the margin); None for a two-player series.
    fn means(&self) -> Option<(f64, f64, f64, f64)> {
        let (mean, level_mean, margin) = (self.mean?, self.level_mean?, self.margin?);
        Some((mean, level_mean - margin, level_mean, margin))
    }

    /// Where the mean needed comes from: "its 540.0 less 28.0", or "its
    /// mean" with no margin.
    fn needed_from(level_mean: f64, margin: f64) -> String {
        if margin == 0.0 {
            "its mean".to_string()
        } else {
            format!("its {level_mean:.1} less {margin:.1}")
        }
    }

    /// What a failed level lacks: "needs 6 wins against easy, has 4", or
    /// "needs a mean of 512.0 against hard (its 540.0 less 28.0), has 480.5"
    /// ("(its mean)" with no margin).
    fn missing(&self) -> String {
        match self.means() {
            None => format!("needs {} against {}, has {}", wins(self.needed), self.level, self.wins),
            Some(_) if self.games == 0 => format!("no world played against {} yet", self.level),
            Some((mean, needed, level_mean, margin)) => format!(
                "needs a mean of {needed:.1} against {} ({}), has {mean:.1}",
                self.level,
                LevelResult::needed_from(level_mean, margin)
            ),
        }
    }

    /// "7/10 ✓" or "3/10 ✗ (needs 4)"; single-player: "545.0 ✓" or
    /// "480.5 ✗ (needs 512.0)".
    pub fn cell(&self) -> String {
        match (self.means(), self.passed) {
            (None, true) => format!("{}/{} ✓", self.wins, self.games),
            (None, false) => format!("{}/{} ✗ (needs {})", self.wins, self.games, self.needed),
            (Some((mean, _, _, _)), true) => format!("{mean:.1} ✓"),
            (Some((mean, needed, _, _)), false) => format!("{mean:.1} ✗ (needs {needed:.1})"),
        }
    }
}

/// One table: a row per student, wins (single-player: mean scores) against
/// each level, the verdict. The level columns are those of the first report.
pub fn markdown_summary(reports: &[GradeReport]) -> String {
    let mut header = vec!["Student".to_string()];
    if let Some(first) = reports.first() {
        header.extend(first.levels.iter().map(|l| md_cell(&l.level)));
    }
    header.push("Verdict".to_string());
    let right: Vec<bool> = (0..header.len()).map(|_| false).collect();
    let rows: Vec<Vec<String>> = reports
        .iter()
        .map(|r| {
            let mut cells = vec![md_cell(&r.name)];
            cells.extend(r.levels.iter().map(LevelResult::cell));
            cells.resize(header.len() - 1, String::new());
            cells.push(md_cell(&r.verdict));
            cells
        })
        .collect();
    md_table(&header, &right, &rows)
}

impl GradeReport {
    /// A page for the student: the verdict and a summary line, a table per
    /// level with the games lost (seed, seat and reason, to replay them),
    /// and the failures by kind.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# {}\n", md_cell(&self.name));
        let series: Vec<String> =
            self.levels.iter().map(|l| format!("{} against {}", l.cell(), md_cell(&l.level))).collect();
        let solo = self.levels.iter().any(|l| l.mean.is_some());
        let _ = writeln!(
            out,
            "**{}** — {}: {}\n",
            md_cell(&self.verdict),
            if solo { "mean scores" } else { "wins" },
            series.join(", ")
        );

        for l in &self.levels {
            match l.means() {
                None => l.markdown_wins(&mut out),
                Some(means) => l.markdown_means(&mut out, means),
            }
        }

        if self.replays_left_out > 0 {
            let _ = writeln!(
                out,
                "The replays of {} of these games were not kept: the run's replays reached their size limit \
                 (its seeds above replay them).\n",
                self.replays_left_out
            );
        }
        let _ = writeln!(out, "## Failures\n");
        if self.failures.total() == 0 {
            let _ = writeln!(out, "No failures.");
        } else {
            let mut header: Vec<String> = FaultKind::ALL.iter().map(|k| k.name().to_string()).collect();
            let mut row: Vec<String> = self.failures.iter().map(|(_, n)| n.to_string()).collect();
            if self.failures.other > 0 {
                header.push("other".into());
                row.push(self.failures.other.to_string());
            }
            header.push("total".into());
            row.push(self.failures.total().to_string());
            let right = vec![true; header.len()];
            out.push_str(&md_table(&header, &right, &[row]));
        }
        out
    }
}

impl LevelResult {
    /// A two-player series' section: games, wins and the games lost.
    fn markdown_wins(&self, out: &mut String) {
        let _ = writeln!(out, "## Against {} (needs {})\n", md_cell(&self.level), wins(self.needed));
        let header = ["Games", "Wins", "Draws", "Losses", "Needed", "Result"].map(String::from);
        let right = [true, true, true, true, true, false];
        let row = vec![
            self.games.to_string(),
            self.wins.to_string(),
            self.draws.to_string(),
            self.losses.to_string(),
            self.needed.to_string(),
            self.result().to_string(),
        ];
        out.push_str(&md_table(&header, &right, &[row]));
        if self.lost.is_empty() {
            let _ = writeln!(out, "\nNo games lost.\n");
        } else {
            let _ = writeln!(out, "\nGames lost (replay them with the same seed and seat):\n");
            let header = ["Game", "Seed", "Your seat", "Reason"].map(String::from);
            let right = [true, true, true, false];
            let rows: Vec<Vec<String>> = self
                .lost
                .iter()
                .map(|g| {
                    vec![
                        (g.index + 1).to_string(),
                        g.seed.to_string(),
                        g.seat.to_string(),
                        md_cell(&g.reason),
                    ]
                })
                .collect();
            out.push_str(&md_table(&header, &right, &rows));
            out.push('\n');
        }
    }

    /// A single-player series' section: the means on the same worlds, the
    /// worlds scored more, as much and less on, and the worlds scored less on.
    fn markdown_means(&self, out: &mut String, (mean, needed, level_mean, margin): (f64, f64, f64, f64)) {
        let _ = writeln!(
            out,
            "## Against {} (needs a mean of {needed:.1}: {})\n",
            md_cell(&self.level),
            LevelResult::needed_from(level_mean, margin)
        );
        let header = ["Worlds", "Scored more", "The same", "Less", "Mean", "Its mean", "Needed", "Result"]
            .map(String::from);
        let right = [true, true, true, true, true, true, true, false];
        let row = vec![
            self.games.to_string(),
            self.wins.to_string(),
            self.draws.to_string(),
            self.losses.to_string(),
            format!("{mean:.1}"),
            format!("{level_mean:.1}"),
            format!("{needed:.1}"),
            self.result().to_string(),
        ];
        out.push_str(&md_table(&header, &right, &[row]));
        if self.lost.is_empty() {
            let _ = writeln!(out, "\nNo world scored less on.\n");
        } else {
            let _ = writeln!(
                out,
                "\nWorlds scored less on than {} (replay them with the same seed):\n",
                md_cell(&self.level)
            );
            let header = ["Game", "Seed", "Reason"].map(String::from);
            let right = [true, true, false];
            let rows: Vec<Vec<String>> = self
                .lost
                .iter()
                .map(|g| vec![(g.index + 1).to_string(), g.seed.to_string(), md_cell(&g.reason)])
                .collect();
            out.push_str(&md_table(&header, &right, &rows));
            out.push('\n');
        }
    }

    fn result(&self) -> &'static str {
        if self.passed {
            "passed ✓"
        } else {
            "not yet ✗"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::record::{FaultRecord, SeatClock};

    const EASY: usize = 0;
    const MEDIUM: usize = 1;
    const HARD: usize = 2;

    fn entrants() -> Vec<Entrant> {
        ["easy", "medium", "hard", "Ada", "Bob", "Cy"]
            .iter()
            .map(|n| Entrant { name: n.to_string(), source: n.to_string() })
            .collect()
    }

    fn levels() -> Vec<ReferenceLevel> {
        [("easy", EASY, 6), ("medium", MEDIUM, 4), ("hard", HARD, 2)]
            .iter()
            .map(|&(name, id, needed_wins)| ReferenceLevel {
                name: name.into(),
                id,
                needed_wins,
                margin: None,
            })
            .collect()
    }

    /// `n` games of `student` against `level` from schedule index `start`:
    /// seats alternate (student in seat 1 first), pairs share the seed
    /// `100 + index / 2`. The student wins the first `wins`, draws the next
    /// `draws` and loses the rest.
    fn series(
        start: usize,
        student: usize,
        level: usize,
        wins: usize,
        draws: usize,
        n: usize,
    ) -> Vec<GameResult> {
        (0..n)
            .map(|i| {
                let index = start + i;
                let seats = if i % 2 == 0 { [student, level] } else { [level, student] };
                let winner = if i < wins {
                    Some(student)
                } else if i < wins + draws {
                    None
                } else {
                    Some(level)
                };
                GameResult {
                    index,
                    seed: 100 + index as u64 / 2,
                    seats,
                    winner,
                    turns: 20,
                    reason: if winner.is_some() { "trapped".into() } else { "turn cap".into() },
                    fault: None,
                    clock: [SeatClock::default(); 2],
                    solo: None,
                    replayed: 0,
                    replay_left_out: false,
                }
            })
            .collect()
    }

    /// Ada (3): 6/10 against easy, 4/10 (3 draws) against medium, 2/10
    /// against hard: exactly enough. Bob (4): one win fewer against easy
    /// (5/10), the rest as Ada, one loss being his timeout and one win
    /// being medium's crash.
    fn games() -> Vec<GameResult> {
        let mut games = series(0, 3, EASY, 6, 0, 10);
        games.extend(series(10, 3, MEDIUM, 4, 3, 10));
        games.extend(series(20, 3, HARD, 2, 0, 10));
        games.extend(series(30, 4, EASY, 5, 0, 10));
        games.extend(series(40, 4, MEDIUM, 4, 3, 10));
        games.extend(series(50, 4, HARD, 2, 0, 10));
        // Bob loses game 59 (seat 2) by a timeout; game 40 he wins because
        // medium crashed (not Bob's failure).
        games[59].fault = Some(FaultRecord { player: 4, kind: "timeout".into() });
        games[59].reason = "timeout: 5.31 s > 5.00 s".into();
        games[40].fault = Some(FaultRecord { player: MEDIUM, kind: "crashed".into() });
        // A game between students does not count.
        games.push(series(60, 3, 4, 0, 0, 1).remove(0));
        games
    }

    #[test]
    fn exactly_the_needed_wins_pass_one_fewer_fails() {
        let r = reports(&entrants(), &levels(), &[3, 4], &games());
        assert_eq!(r.len(), 2);
        let (ada, bob) = (&r[0], &r[1]);
        assert_eq!((ada.student, ada.name.as_str()), (3, "Ada"));
        let counts = |l: &LevelResult| (l.games, l.wins, l.draws, l.losses, l.needed, l.passed);
        assert_eq!(counts(&ada.levels[0]), (10, 6, 0, 4, 6, true));
        assert_eq!(counts(&ada.levels[1]), (10, 4, 3, 3, 4, true));
        assert_eq!(counts(&ada.levels[2]), (10, 2, 0, 8, 2, true));
        assert!(ada.passed_all);
        assert_eq!(ada.verdict, "PASS");
        assert_eq!(ada.failures.total(), 0);

        assert_eq!(counts(&bob.levels[0]), (10, 5, 0, 5, 6, false));
        assert!(bob.levels[1].passed && bob.levels[2].passed && !bob.passed_all);
        assert_eq!(bob.verdict, "FAIL: needs 6 wins against easy, has 5");
        // Bob's own timeout counts, medium's crash does not.
        assert_eq!(bob.failures.get("timeout"), 1);
        assert_eq!(bob.failures.total(), 1);
        assert_eq!(bob.failures.iter().count(), 7);
    }

    #[test]
    fn lost_games_are_listed_with_seed_seat_and_reason() {
        let r = reports(&entrants(), &levels(), &[4], &games());
        let bob = &r[0];
        // Against easy (indices 30..40) Bob loses games 35..40: seats
        // alternate, Bob in seat 1 at even offsets; seeds 100 + index / 2.
        let lost: Vec<(usize, u64, u8)> =
            bob.levels[0].lost.iter().map(|g| (g.index, g.seed, g.seat)).collect();
        assert_eq!(lost, [(35, 117, 2), (36, 118, 1), (37, 118, 2), (38, 119, 1), (39, 119, 2)]);
        let hard = &bob.levels[2].lost;
        assert_eq!(hard.len(), 8);
        assert_eq!(hard.last().unwrap().reason, "timeout: 5.31 s > 5.00 s");
        // Draws are not losses.
        assert_eq!(bob.levels[1].lost.iter().map(|g| g.index).collect::<Vec<_>>(), [47, 48, 49]);

        let page = bob.markdown();
        assert!(page.starts_with("# Bob\n"), "{page}");
        assert!(
            page.contains(
                "**FAIL: needs 6 wins against easy, has 5** — wins: 5/10 ✗ (needs 6) against easy, \
                 4/10 ✓ against medium, 2/10 ✓ against hard"
            ),
            "{page}"
        );
        assert!(page.contains("## Against easy (needs 6 wins)"));
        assert!(page.contains("| 10 | 5 | 0 | 5 | 6 | not yet ✗ |"), "{page}");
        assert!(page.contains("| Game | Seed | Your seat | Reason |"));
        assert!(page.contains("| 36 | 117 | 2 | trapped |"), "game 35 shown 1-based: {page}");
        assert!(page.contains("| 60 | 129 | 2 | timeout: 5.31 s > 5.00 s |"), "{page}");
        assert!(page.contains("## Failures"));
        assert!(page.contains("| 1 | 0 | 0 | 0 | 0 | 0 | 0 | 1 |"), "{page}");

        let ada = &reports(&entrants(), &levels(), &[3], &games())[0];
        assert!(ada.markdown().contains("No failures."));
    }

    #[test]
    fn summary_table() {
        let r = reports(&entrants(), &levels(), &[3, 4], &games());
        let md = markdown_summary(&r);
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "| Student | easy | medium | hard | Verdict |");
        assert_eq!(lines[2], "| Ada | 6/10 ✓ | 4/10 ✓ | 2/10 ✓ | PASS |");
        assert_eq!(
            lines[3],
            "| Bob | 5/10 ✗ (needs 6) | 4/10 ✓ | 2/10 ✓ | FAIL: needs 6 wins against easy, has 5 |"
        );
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn partial_report_renders() {
        // Cy (5) has played 3 games against easy (2 wins, then a loss) and
        // nothing else yet; an unknown student id renders as well.
        let games = series(0, 5, EASY, 2, 0, 3);
        let r = reports(&entrants(), &levels(), &[5, 9], &games);
        let cy = &r[0];
        assert_eq!((cy.levels[0].games, cy.levels[0].wins, cy.levels[0].losses), (3, 2, 1));
        assert_eq!(cy.levels[1].games, 0);
        assert_eq!(
            cy.verdict,
            "FAIL: needs 6 wins against easy, has 2; needs 4 wins against medium, has 0; \
             needs 2 wins against hard, has 0"
        );
        let page = cy.markdown();
        assert!(page.contains("2/3 ✗ (needs 6) against easy"), "{page}");
        assert!(page.contains("| 3 | 101 | 1 | trapped |"), "{page}");
        assert!(page.contains("No games lost."));
        let md = markdown_summary(&r);
        assert!(md.contains("| Cy | 2/3 ✗ (needs 6) | 0/0 ✗ (needs 4) | 0/0 ✗ (needs 2) |"), "{md}");
        assert_eq!(r[1].name, "player 9");
        assert!(r[1].markdown().contains("0/0"));
        assert_eq!(markdown_summary(&[]).lines().count(), 2);

        // One win needed: singular.
        let one = [ReferenceLevel { name: "hard".into(), id: HARD, needed_wins: 1, margin: None }];
        let r = reports(&entrants(), &one, &[5], &games);
        assert_eq!(r[0].verdict, "FAIL: needs 1 win against hard, has 0");
        assert!(r[0].markdown().contains("## Against hard (needs 1 win)"));
        assert!(serde_json::to_string(&r).unwrap().contains("\"verdict\":\"FAIL: needs 1 win"));
    }

    /// `id`'s single-player game on world `k` (seed `1000 + k`), scoring
    /// `score`, as schedule entry `index`.
    fn world(index: usize, id: usize, k: u64, score: i64) -> GameResult {
        let result = crate::play::solo::SoloScore {
            score,
            won: score > 0,
            deaths: u32::from(score < 0),
            steps: 30,
            reason: format!("scored {score}"),
            fault: None,
            progress: None,
            time_us: 5,
            cpu_us: 5,
            replayed: 0,
        };
        GameResult::solo(index, id, 1000 + k, result)
    }

    /// Four worlds, played world by world by easy (0), hard (2), Ada (3)
    /// and Bob (4), as the duplicate schedule goes (index = 4 k + player's
    /// place). Scores by world:
    ///   easy  -10   0  20 -10   mean  0.0
    ///   hard  100  50 100  50   mean 75.0
    ///   Ada    90  50  20 130   mean 72.5
    ///   Bob   -10 -10  20  50   mean 12.5 (world 1 his timeout)
    fn worlds() -> Vec<GameResult> {
        let scores = [[-10, 0, 20, -10], [100, 50, 100, 50], [90, 50, 20, 130], [-10, -10, 20, 50]];
        let ids = [EASY, HARD, 3, 4];
        let mut games: Vec<GameResult> = (0..4u64)
            .flat_map(|k| (0..4).map(move |p| (k, p)))
            .map(|(k, p)| world(4 * k as usize + p, ids[p], k, scores[p][k as usize]))
            .collect();
        games[7].fault = Some(FaultRecord { player: 4, kind: "timeout".into() });
        games[7].reason = "timeout: 1.20 s > 1.00 s".into();
        games
    }

    /// Easy with no margin, hard with a margin of 5.
    fn solo_levels() -> Vec<ReferenceLevel> {
        let grading = GradeSettings {
            levels: vec![players::Level::Easy, players::Level::Hard],
            pass: Pass::Margin(vec![0.0, 5.0]),
        };
        grading.levels_of(&[EASY, HARD])
    }

    #[test]
    fn a_single_player_grade_compares_means_on_the_same_worlds() {
        let r = reports(&entrants(), &solo_levels(), &[3, 4], &worlds());
        let (ada, bob) = (&r[0], &r[1]);
        let counts = |l: &LevelResult| (l.games, l.wins, l.draws, l.losses, l.passed);
        let means = |l: &LevelResult| (l.mean, l.level_mean, l.margin);
        // Ada against easy: more on worlds 0, 1 and 3, the same on world 2.
        assert_eq!(counts(&ada.levels[0]), (4, 3, 1, 0, true));
        assert_eq!(means(&ada.levels[0]), (Some(72.5), Some(0.0), Some(0.0)));
        assert!(ada.levels[0].lost.is_empty());
        // Against hard: less on worlds 0 and 2, the same on 1, more on 3;
        // 72.5 >= 75.0 - 5.0 passes.
        assert_eq!(counts(&ada.levels[1]), (4, 1, 1, 2, true));
        assert_eq!(means(&ada.levels[1]), (Some(72.5), Some(75.0), Some(5.0)));
        let lost: Vec<(usize, u64, u8)> =
            ada.levels[1].lost.iter().map(|g| (g.index, g.seed, g.seat)).collect();
        assert_eq!(lost, [(2, 1000, 1), (10, 1002, 1)]);
        assert_eq!(ada.levels[1].lost[0].reason, "scored 90");
        assert_eq!(ada.verdict, "PASS");
        assert_eq!(ada.failures.total(), 0);

        // Bob: 12.5 against easy's 0.0 passes; against hard's 75.0 less 5.0 fails.
        assert_eq!(counts(&bob.levels[0]), (4, 1, 2, 1, true));
        assert_eq!(counts(&bob.levels[1]), (4, 0, 1, 3, false));
        assert_eq!(bob.verdict, "FAIL: needs a mean of 70.0 against hard (its 75.0 less 5.0), has 12.5");
        // His timeout counts once, though both levels compare that world.
        assert_eq!((bob.failures.get("timeout"), bob.failures.total()), (1, 1));
        assert_eq!(bob.levels[0].needed, 0);

        let md = markdown_summary(&r);
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "| Student | easy | hard | Verdict |");
        assert_eq!(lines[2], "| Ada | 72.5 ✓ | 72.5 ✓ | PASS |");
        assert_eq!(
            lines[3],
            "| Bob | 12.5 ✓ | 12.5 ✗ (needs 70.0) | FAIL: needs a mean of 70.0 against hard (its 75.0 less 5.0), has 12.5 |"
        );
        let page = bob.markdown();
        assert!(
            page.contains("— mean scores: 12.5 ✓ against easy, 12.5 ✗ (needs 70.0) against hard"),
            "{page}"
        );
        assert!(page.contains("## Against hard (needs a mean of 70.0: its 75.0 less 5.0)"), "{page}");
        assert!(page.contains("| 4 | 0 | 1 | 3 | 12.5 | 75.0 | 70.0 | not yet ✗ |"), "{page}");
        assert!(page.contains("| 8 | 1001 | timeout: 1.20 s > 1.00 s |"), "game 7 shown 1-based: {page}");
        assert!(page.contains("| 1 | 0 | 0 | 0 | 0 | 0 | 0 | 1 |"), "{page}");

        // With no margin, the level's own mean is needed.
        let no_margin = GradeSettings { levels: vec![players::Level::Hard], pass: Pass::Margin(vec![0.0]) };
        let r = reports(&entrants(), &no_margin.levels_of(&[HARD]), &[4], &worlds());
        assert_eq!(r[0].verdict, "FAIL: needs a mean of 75.0 against hard (its mean), has 12.5");
        assert!(r[0].markdown().contains("## Against hard (needs a mean of 75.0: its mean)"));

        // The means are in the JSON; a two-player grade's JSON has none.
        let json = serde_json::to_value(bob).unwrap();
        assert_eq!(json["levels"][1]["level_mean"], 75.0);
        assert_eq!(json["levels"][1]["margin"], 5.0);
        let two_player = serde_json::to_value(&reports(&entrants(), &levels(), &[3], &games())[0]).unwrap();
        assert!(two_player["levels"][0].get("mean").is_none(), "{two_player}");
    }

    #[test]
    fn a_partial_single_player_grade_counts_the_worlds_both_played() {
        // Hard has played worlds 0 and 1 only; Ada worlds 0 to 2.
        let games: Vec<GameResult> =
            worlds().into_iter().filter(|g| g.index < 8 || (g.index < 12 && g.seats[0] == 3)).collect();
        let r = reports(&entrants(), &solo_levels(), &[3, 5], &games);
        let ada = &r[0];
        assert_eq!(
            (ada.levels[1].games, ada.levels[1].mean, ada.levels[1].level_mean),
            (2, Some(70.0), Some(75.0))
        );
        assert!(ada.levels[1].passed);
        assert_eq!(ada.levels[0].games, 2);
        // No world of Cy's yet: not passed.
        assert_eq!(r[1].verdict, "FAIL: no world played against easy yet; no world played against hard yet");
    }

    #[test]
    fn default_marks_scale_the_courses_to_the_games() {
        use players::Level::*;
        assert_eq!(default_wins(&[Easy, Medium, Hard], 10), [6, 4, 2]);
        assert_eq!(default_wins(&[Easy, Medium, Hard], 4), [3, 2, 1]);
        assert_eq!(default_wins(&[Hard, Expert, Easy], 1), [1, 0, 1]);
        assert_eq!(default_wins(&[Easy], u32::MAX), [2_576_980_377]);
        assert_eq!(GradeSettings::default_pass(&[Easy, Hard], 7, true), Pass::Margin(vec![0.0, 0.0]));
        // The fingerprint holds marks only when they are not the defaults.
        let grading = |pass| GradeSettings { levels: vec![Easy, Medium, Hard], pass };
        assert_eq!(grading(Pass::Wins(vec![6, 4, 2])).print(10), "");
        assert_eq!(grading(Pass::Wins(vec![6, 4, 2])).print(20), "pass:w6,w4,w2|");
        assert_eq!(grading(Pass::Margin(vec![0.0; 3])).print(20), "");
        assert_eq!(grading(Pass::Margin(vec![0.0, 2.5, 0.0])).print(20), "pass:m0,m2.5,m0|");
    }
}
