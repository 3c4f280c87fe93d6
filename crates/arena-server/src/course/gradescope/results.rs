//! The results a Gradescope autograder hands back: `results.json`, in the
//! layout Gradescope's autograder harness reads
//! (gradescope-autograders.readthedocs.io, "Autograder Specifications"):
//! the `score`, a test per level of the assignment (`name`, `score`,
//! `max_score`, `status`, `visibility`, `output`), a `leaderboard` of
//! `{name, value, order}` and an `output` for the whole submission. The
//! points are the course file's (`course::Points`), for the levels alone:
//! the class tournament's share comes later, from the class tournament.

use serde::Serialize;

use crate::course::{Assignment, Results, TournamentPoints};
use arena_core::{
    play::clock::Clock,
    tournament::{grade::GradeReport, record::GameResult},
};

/// `results.json`, as Gradescope reads it.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct GradescopeResults {
    pub score: f64,
    /// Seconds the grading took.
    pub execution_time: u64,
    /// Shown above the tests: the verdict, or why there is no grade.
    pub output: String,
    /// The autograder's stdout holds paths in the container: staff only.
    pub stdout_visibility: &'static str,
    pub tests: Vec<Test>,
    pub leaderboard: Vec<LeaderboardEntry>,
}

/// One level of the grading, as a Gradescope test.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Test {
    pub name: String,
    pub score: f64,
    pub max_score: f64,
    /// `passed` or `failed`.
    pub status: &'static str,
    /// Students see each level's result at once, as the server shows it.
    pub visibility: &'static str,
    pub output: String,
}

/// A column of the assignment's leaderboard.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct LeaderboardEntry {
    pub name: String,
    pub value: f64,
    /// `desc`: more is better; `asc`: less is.
    pub order: &'static str,
}

const VISIBLE: &str = "visible";
const HIDDEN: &str = "hidden";

/// A level's test's name: "easy (6 wins of 10 to pass)".
fn test_name(assignment: &Assignment, level: usize) -> String {
    let grading = &assignment.grading;
    let name = grading.levels[level].name();
    match &grading.pass {
        crate::course::Pass::Wins(wins) => {
            format!("{name} ({} of {} games to pass)", wins_text(wins[level]), grading.games)
        }
        crate::course::Pass::Margin(margins) if margins[level] == 0.0 => {
            format!("{name} (a mean score at least the level's, on the same {} worlds)", grading.games)
        }
        crate::course::Pass::Margin(margins) => format!(
            "{name} (a mean score at least the level's less {}, on the same {} worlds)",
            margins[level], grading.games
        ),
    }
}

/// "1 win", "4 wins".
fn wins_text(n: u32) -> String {
    count(n, "win")
}

/// "1 draw", "0 draws", "2 losses".
fn count(n: u32, what: &str) -> String {
    match (n, what.ends_with('s')) {
        (1, _) => format!("1 {what}"),
        (_, true) => format!("{n} {what}es"),
        (_, false) => format!("{n} {what}s"),
    }
}

/// The points passing level `level` gives.
fn level_points(assignment: &Assignment, level: usize) -> f64 {
    assignment.points.per_level.get(level).copied().unwrap_or(0.0)
}

/// A note on the points the autograder cannot give: the class
/// tournament's, given after the deadline (`arena tournament` on
/// Gradescope's export, docs/gradescope.md). The autograder sees one
/// submission, not the class: with points per group defeated and no cap
/// there is no bound to promise, so the note gives the rate instead.
fn tournament_note(assignment: &Assignment) -> Option<String> {
    let start = "These points are for the levels; the class tournament after the deadline gives";
    match (assignment.points.tournament_most(), &assignment.points.tournament) {
        (Some(most), _) if most > 0.0 => Some(format!("{start} up to {} more.", trim(most))),
        (Some(_), _) => None,
        (None, TournamentPoints::PerGroupDefeated(each)) => Some(format!(
            "{start} {} more for each group yours defeats (the course sets no cap).",
            trim(*each)
        )),
        (None, _) => Some(format!("{start} more (the course sets no cap).")),
    }
}

/// A number as points are written: no `.0`.
fn trim(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

/// The results of a submission graded: `grade` (its grading run's
/// report), with `results`, the run's games, for its time per move.
pub fn graded(
    assignment: &Assignment,
    grade: &GradeReport,
    results: &[GameResult],
    seconds: u64,
) -> GradescopeResults {
    let passed: Vec<bool> = grade.levels.iter().map(|l| l.passed).collect();
    let score = assignment.points.of(&Results { passed: passed.clone(), rank: None, defeated: 0, groups: 1 });
    let tests = grade
        .levels
        .iter()
        .enumerate()
        .map(|(i, level)| {
            let max_score = level_points(assignment, i);
            let result = match (level.mean, level.level_mean) {
                (Some(mean), Some(theirs)) => format!(
                    "mean score {mean:.1} against the level's {theirs:.1} on the same {} worlds \
                     (better on {}, equal on {}, worse on {})",
                    level.games, level.wins, level.draws, level.losses
                ),
                _ => format!(
                    "{}, {}, {} in {} games; {} to pass",
                    wins_text(level.wins),
                    count(level.draws, "draw"),
                    count(level.losses, "loss"),
                    level.games,
                    wins_text(level.needed)
                ),
            };
            let lost: Vec<String> =
                level.lost.iter().take(10).map(|g| format!("  game {}: {}", g.index + 1, g.reason)).collect();
            // A single-player game's "lost" games are the worlds it scored less on.
            let lost_are = if level.mean.is_some() { "Worlds it scored less on" } else { "Games lost" };
            let output = match lost.is_empty() {
                true => format!("{}: {result}", if level.passed { "Passed" } else { "Failed" }),
                false => format!(
                    "{}: {result}\n{lost_are}{}:\n{}",
                    if level.passed { "Passed" } else { "Failed" },
                    if level.lost.len() > lost.len() { " (the first 10)" } else { "" },
                    lost.join("\n")
                ),
            };
            Test {
                name: test_name(assignment, i),
                score: if level.passed { max_score } else { 0.0 },
                max_score,
                status: if level.passed { "passed" } else { "failed" },
                visibility: VISIBLE,
                output,
            }
        })
        .collect();
    let mut output = vec![format!("{}: {}", assignment.title, grade.verdict)];
    if grade.failures.total() > 0 {
        output.push(format!("Your player's failures in these games: {}.", grade.failures.compact()));
    }
    output.extend(tournament_note(assignment));
    let mut leaderboard = vec![LeaderboardEntry {
        name: "Levels passed".into(),
        value: passed.iter().filter(|p| **p).count() as f64,
        order: "desc",
    }];
    let single = grade.levels.iter().any(|l| l.mean.is_some());
    if single {
        if let Some(mean) = grade.levels.first().and_then(|l| l.mean) {
            leaderboard.push(LeaderboardEntry {
                name: "Mean score".into(),
                value: round(mean),
                order: "desc",
            });
        }
    } else {
        let wins: u32 = grade.levels.iter().map(|l| l.wins).sum();
        leaderboard.push(LeaderboardEntry { name: "Wins".into(), value: f64::from(wins), order: "desc" });
    }
    if let Some(ms) = mean_ms_per_move(grade.student, results, assignment.clock()) {
        leaderboard.push(LeaderboardEntry {
            name: "Mean time per move (ms)".into(),
            value: round(ms),
            order: "asc",
        });
    }
    GradescopeResults {
        score,
        execution_time: seconds,
        output: output.join("\n"),
        stdout_visibility: HIDDEN,
        tests,
        leaderboard,
    }
}

/// The results of a submission that could not be graded (`why`: it did
/// not load, made no legal move in its smoke games, was no player, ...):
/// 0 points, each level failed, the cause first.
pub fn not_graded(assignment: &Assignment, why: &str, seconds: u64) -> GradescopeResults {
    // The cause first: a failed check's first line says only that it
    // failed; its first problem says how (a crash, a timeout, ...).
    let first = why.lines().next().unwrap_or("it could not be graded");
    let problem = why.lines().find_map(|l| l.trim().strip_prefix("problem: "));
    let first = match problem {
        Some(problem) if first.ends_with(':') => format!("{first} {problem}"),
        _ => first.to_string(),
    };
    let tests = (0..assignment.grading.levels.len())
        .map(|i| Test {
            name: test_name(assignment, i),
            score: 0.0,
            max_score: level_points(assignment, i),
            status: "failed",
            visibility: VISIBLE,
            output: "Not played: the submission could not be graded (see above).".into(),
        })
        .collect();
    let output = match why.lines().count() {
        0 | 1 => format!("Not graded: {first}"),
        _ => format!("Not graded: {first}\n\nDetails:\n{why}"),
    };
    GradescopeResults {
        score: 0.0,
        execution_time: seconds,
        output,
        stdout_visibility: HIDDEN,
        tests,
        leaderboard: vec![LeaderboardEntry { name: "Levels passed".into(), value: 0.0, order: "desc" }],
    }
}

/// Two decimals: what a leaderboard shows.
fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Player `id`'s mean time per move over `results`, on `clock`, in
/// milliseconds; None before it moved.
fn mean_ms_per_move(id: usize, results: &[GameResult], clock: Clock) -> Option<f64> {
    let (mut us, mut turns) = (0u64, 0u64);
    for game in results {
        for (seat, &player) in game.seats.iter().enumerate() {
            // A single-player game sits its player in both seats; its time is seat 1's.
            if player != id || (seat == 1 && game.seats[0] == id) {
                continue;
            }
            let c = &game.clock[seat];
            us += match clock {
                Clock::Cpu => c.cpu_total_us,
                Clock::Wall => c.total_us,
            };
            turns += u64::from(c.turns);
        }
    }
    (turns > 0).then(|| us as f64 / turns as f64 / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_core::tournament::grade::LevelResult;

    const COURSE: &str = "[[assignment]]\nname = \"trap\"\ngame = \"trap\"\n\
                          [assignment.grading]\nlevels = [\"easy\", \"hard\"]\ngames = 4\nwins_to_pass = [3, 1]\n\
                          [assignment.points]\nper_level = [60, 30]\nshare = 10\n";

    fn level(name: &str, wins: u32, needed: u32) -> LevelResult {
        LevelResult {
            level: name.into(),
            opponent: 1,
            games: 4,
            wins,
            draws: 0,
            losses: 4 - wins,
            needed,
            mean: None,
            level_mean: None,
            margin: None,
            passed: wins >= needed,
            lost: Vec::new(),
        }
    }

    /// The keys Gradescope's harness reads, with their JSON types.
    #[test]
    fn results_json_has_the_fields_gradescope_reads() {
        let course = crate::course::Course::parse(COURSE).unwrap();
        let assignment = &course.assignments[0];
        let grade = GradeReport {
            student: 0,
            name: "mine".into(),
            levels: vec![level("easy", 3, 3), level("hard", 0, 1)],
            passed_all: false,
            failures: Default::default(),
            verdict: "FAIL: needs 1 win against hard, has 0".into(),
            replays_left_out: 0,
        };
        let json = serde_json::to_value(graded(assignment, &grade, &[], 12)).unwrap();
        assert_eq!(json["score"], 60.0, "easy's points only");
        assert_eq!(json["execution_time"], 12);
        assert!(json["output"].as_str().unwrap().starts_with("trap: FAIL: needs 1 win against hard"));
        assert!(json["output"].as_str().unwrap().contains("up to 10 more"), "{json}");
        let tests = json["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 2);
        for test in tests {
            let keys: Vec<&str> = test.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(keys, ["max_score", "name", "output", "score", "status", "visibility"]);
            assert_eq!(test["visibility"], "visible");
        }
        assert_eq!(
            (&tests[0]["name"], &tests[0]["score"], &tests[0]["max_score"], &tests[0]["status"]),
            (&"easy (3 wins of 4 games to pass)".into(), &60.0.into(), &60.0.into(), &"passed".into())
        );
        assert_eq!(
            (&tests[1]["name"], &tests[1]["score"], &tests[1]["max_score"], &tests[1]["status"]),
            (&"hard (1 win of 4 games to pass)".into(), &0.0.into(), &30.0.into(), &"failed".into())
        );
        assert_eq!(tests[1]["output"], "Failed: 0 wins, 0 draws, 4 losses in 4 games; 1 win to pass");
        assert_eq!(tests[0]["output"], "Passed: 3 wins, 0 draws, 1 loss in 4 games; 3 wins to pass");
        let board = json["leaderboard"].as_array().unwrap();
        for entry in board {
            let keys: Vec<&str> = entry.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(keys, ["name", "order", "value"]);
            assert!(["asc", "desc"].contains(&entry["order"].as_str().unwrap()));
        }
        assert_eq!(board[0]["name"], "Levels passed");
        assert_eq!(board[0]["value"], 1.0);
        assert_eq!((&board[1]["name"], &board[1]["value"]), (&"Wins".into(), &3.0.into()));
    }

    /// The note promises only what the policy can give: with points per
    /// group defeated, the cap's room when there is a cap, the rate and no
    /// number when there is none (it once said "up to 46116860184273879040").
    #[test]
    fn the_tournament_note_promises_a_real_bound_or_none() {
        let note = |points: &str| {
            let course = crate::course::Course::parse(&COURSE.replace("share = 10\n", points)).unwrap();
            tournament_note(&course.assignments[0])
        };
        let uncapped = note("per_group_defeated = 2\n").unwrap();
        assert_eq!(
            uncapped,
            "These points are for the levels; the class tournament after the deadline gives 2 more \
             for each group yours defeats (the course sets no cap)."
        );
        assert!(!uncapped.chars().any(|c| c.is_ascii_digit() && c != '2'), "{uncapped}");
        assert!(note("per_group_defeated = 2\ncap = 100\n").unwrap().contains("up to 10 more."));
        assert_eq!(note("per_group_defeated = 2\ncap = 90\n"), None, "no room under the cap");
        assert_eq!(note("per_group_defeated = 0\n"), None);
        assert!(note("by_rank = [5, 3]\n").unwrap().contains("up to 5 more."));
        assert!(note("share = 10\ncap = 95\n").unwrap().contains("up to 5 more."));
    }

    #[test]
    fn a_submission_not_graded_gets_zero_and_its_cause_first() {
        let course = crate::course::Course::parse(COURSE).unwrap();
        let why = "it made no legal move in its smoke games:\nprogram  python:x\n  problem: x lost by a fault: timeout\nFAILED";
        let json = serde_json::to_value(not_graded(&course.assignments[0], why, 1)).unwrap();
        assert_eq!(json["score"], 0.0);
        let output = json["output"].as_str().unwrap();
        assert_eq!(
            output.lines().next().unwrap(),
            "Not graded: it made no legal move in its smoke games: x lost by a fault: timeout"
        );
        let tests = json["tests"].as_array().unwrap();
        assert_eq!(
            tests.iter().map(|t| &t["max_score"]).collect::<Vec<_>>(),
            [&60.0.into(), &30.0.into()] as [&serde_json::Value; 2]
        );
        assert!(tests.iter().all(|t| t["status"] == "failed" && t["score"] == 0.0));
    }

    #[test]
    fn the_mean_time_per_move_is_the_students_on_the_assignments_clock() {
        use arena_core::tournament::record::SeatClock;
        let seat = |turns, wall_us, cpu_us| SeatClock {
            turns,
            total_us: wall_us,
            cpu_total_us: cpu_us,
            ..SeatClock::default()
        };
        let game = |seats: [usize; 2], clocks: [SeatClock; 2]| GameResult {
            index: 0,
            seed: 0,
            seats,
            winner: None,
            turns: 0,
            reason: String::new(),
            fault: None,
            clock: clocks,
            solo: None,
            replayed: 0,
            replay_left_out: false,
        };
        let games = [
            game([0, 1], [seat(10, 20_000, 10_000), seat(10, 990_000, 990_000)]),
            game([1, 0], [seat(5, 990_000, 990_000), seat(10, 40_000, 20_000)]),
        ];
        assert_eq!(mean_ms_per_move(0, &games, Clock::Cpu), Some(1.5));
        assert_eq!(mean_ms_per_move(0, &games, Clock::Wall), Some(3.0));
        assert_eq!(mean_ms_per_move(2, &games, Clock::Wall), None);
    }
}
