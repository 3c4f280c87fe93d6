//! The grade format with a file's own levels, games and pass marks: a
//! single-player grade (the levels play the students' worlds; a level is
//! passed on mean scores, less a margin), a two-player grade with its own
//! opponents, games and wins, Hexapawn graded (a learner's series played
//! whole by instances of their own), a single-player grade killed and
//! resumed, and a journal not resumed under other pass marks.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    sync::atomic::AtomicBool,
};

use crate::support::{arena, journal_games, library, stderr, write_file};
use arena_core::tournament::{
    self, config::Tournament, grade::GradeReport, record::GameResult, RunOutcome, Table,
};

/// Runs the file at `path` to its end, in this process (built-in players only).
fn run(path: &Path) -> RunOutcome {
    tournament::run(Tournament::load(path).unwrap(), &AtomicBool::new(false), &mut tournament::Quiet).unwrap()
}

fn read(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_single_player_grade_passes_on_the_levels_means_less_the_margins() {
    let dir = tempfile::tempdir().unwrap();
    let text = "name = \"wumpus grade\"\ngame = \"wumpus\"\nformat = \"grade\"\ngames_per_player = 20\nseed = 4\noutput = \"out\"\nplayers = [\"hard\", \"easy\"]\nopponents = [\"easy\", \"medium\"]\nscore_margin = [0, 150]\n[replays]\nsave = \"losses\"\nviewers = false\n";
    let outcome = run(&write_file(dir.path(), "g.toml", text));
    // Players: the students hard (0) and easy (1), the levels easy (2) and medium (3).
    assert_eq!(outcome.tournament.fixed, [2, 3]);
    assert_eq!(outcome.results.len(), 4 * 20);
    let worlds = |id: usize| -> Vec<u64> {
        outcome.results.iter().filter(|g| g.seats == [id, id]).map(|g| g.seed).collect()
    };
    assert_eq!(worlds(0).len(), 20);
    for id in 1..4 {
        assert_eq!(worlds(id), worlds(0), "player {id} plays the students' worlds");
    }
    // The standings rank students and levels together; the grades use their means.
    let Table::Solo { standings, .. } = &outcome.standings else { panic!("a single-player table") };
    assert_eq!(standings.rows.len(), 4);
    let means: BTreeMap<usize, f64> = standings.rows.iter().map(|r| (r.id, r.summary.mean_score)).collect();
    let score = |g: &GameResult| g.solo.as_ref().unwrap().score;
    let grades = outcome.grades.as_ref().expect("grade reports");
    assert_eq!(grades.iter().map(|r| r.student).collect::<Vec<_>>(), [0, 1]);
    for report in grades {
        for (level, (id, margin)) in report.levels.iter().zip([(2, 0.0), (3, 150.0)]) {
            assert_eq!(level.opponent, id);
            assert_eq!(level.games, 20);
            assert_eq!((level.mean, level.level_mean), (Some(means[&report.student]), Some(means[&id])));
            assert_eq!(level.margin, Some(margin));
            assert_eq!(level.passed, means[&report.student] >= means[&id] - margin, "{level:?}");
            // Worlds scored more, as much and less on, counted here from the journal.
            let pairs: Vec<(i64, i64)> = outcome
                .results
                .iter()
                .filter(|g| g.seats == [report.student; 2])
                .map(|g| {
                    let theirs = outcome.results.iter().find(|o| o.seats == [id, id] && o.seed == g.seed);
                    (score(g), score(theirs.unwrap()))
                })
                .collect();
            let count = |f: fn(&(i64, i64)) -> bool| pairs.iter().filter(|p| f(p)).count() as u32;
            assert_eq!(level.wins, count(|(a, b)| a > b));
            assert_eq!(level.draws, count(|(a, b)| a == b));
            assert_eq!(level.losses, count(|(a, b)| a < b));
            assert_eq!(level.lost.len() as u32, level.losses);
            assert!(level.lost.iter().all(|g| outcome.results[g.index].seats == [report.student; 2]));
        }
        assert_eq!(report.passed_all, report.levels.iter().all(|l| l.passed));
    }
    // The student easy plays the level easy's games: the same scores.
    let easy = &grades[1].levels[0];
    assert_eq!((easy.draws, easy.passed), (20, true));

    // The replays kept are the students' games not won (as in a duplicate
    // tournament), not the levels'.
    let replays = std::fs::read_dir(dir.path().join("out/replays")).unwrap().count();
    let not_won = outcome.results.iter().filter(|g| g.seats[0] < 2 && g.winner.is_none()).count();
    assert!(not_won > 0);
    assert_eq!(replays, not_won);

    let summary = read(dir.path().join("out/grades.md"));
    assert!(summary.starts_with("# Grades: wumpus grade\n"), "{summary}");
    assert!(summary.contains("| Student | easy | medium | Verdict |"), "{summary}");
    for report in grades {
        let cells: Vec<String> = report.levels.iter().map(|l| l.cell()).collect();
        let row = format!("| {} | {} | {} |", report.name, cells.join(" | "), report.verdict);
        assert!(summary.contains(&row), "{row} in {summary}");
        if !report.passed_all {
            assert!(report.verdict.contains("needs a mean of"), "{}", report.verdict);
        }
    }
    let page = read(dir.path().join("out/grade-hard.md"));
    let hard = &grades[0].levels[1];
    let needed = hard.level_mean.unwrap() - 150.0;
    let title = format!("## Against medium (needs a mean of {needed:.1}: its {:.1} less 150.0)", means[&3]);
    assert!(page.contains(&title), "{title} in {page}");
    assert!(page.contains(&format!("mean scores: {:.1}", means[&0])), "{page}");
}

#[test]
fn a_two_player_grade_takes_its_opponents_games_and_wins() {
    let dir = tempfile::tempdir().unwrap();
    let text = "game = \"trap\"\nformat = \"grade\"\nseed = 9\noutput = \"out\"\nplayers = [\"hard\", \"medium\"]\nopponents = [\"easy\"]\ngames_per_pairing = 4\nwins_to_pass = [1]\n[settings]\ntime_per_turn = \"1s\"\n";
    let outcome = run(&write_file(dir.path(), "g.toml", text));
    assert_eq!(outcome.results.len(), 2 * 4);
    // Each student sits second in game 3 of its series only.
    for (series, student) in outcome.results.chunks(4).zip([0, 1]) {
        let seats: Vec<[usize; 2]> = series.iter().map(|g| g.seats).collect();
        assert_eq!(seats, [[student, 2], [student, 2], [2, student], [student, 2]]);
    }
    let grades: &[GradeReport] = outcome.grades.as_ref().unwrap();
    for report in grades {
        let [level] = &report.levels[..] else { panic!("one level: {report:?}") };
        let won = outcome.results.iter().filter(|g| g.winner == Some(report.student)).count() as u32;
        assert_eq!((level.level.as_str(), level.games, level.needed, level.wins), ("easy", 4, 1, won));
        assert_eq!(level.passed, won >= 1);
        assert_eq!((level.mean, level.level_mean, level.margin), (None, None, None));
    }
    let summary = read(dir.path().join("out/grades.md"));
    assert!(summary.contains("| Student | easy | Verdict |"), "{summary}");
    let hard = &grades[0];
    assert!(summary.contains(&format!("| hard | {}/4 ", hard.levels[0].wins)), "{summary}");
    assert!(read(dir.path().join("out/grade-hard.md")).contains("## Against easy (needs 1 win)"));
}

#[test]
fn hexapawn_is_graded_with_a_learners_series_played_whole() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "game = \"hexapawn\"\nformat = \"grade\"\nseed = 6\nconcurrency = 2\noutput = \"out\"\nplayers = [\"{}\"]\nopponents = [\"easy\", \"hard\"]\ngames_per_pairing = 45\n",
        library("menace").display()
    );
    let file = write_file(dir.path(), "g.toml", &text);
    let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let games = journal_games(&dir.path().join("out"));
    assert_eq!(games.len(), 2 * 45);
    // Menace (0) against hard (2), Black in every third game: it starts
    // the series knowing nothing (not what it learnt against easy) and
    // learns within it.
    let as_black: Vec<bool> =
        games[45..].iter().filter(|g| g.seats == [2, 0]).map(|g| g.winner == Some(0)).collect();
    assert_eq!(as_black.len(), 15);
    assert!(!as_black[..4].iter().all(|&w| w), "menace starts knowing nothing: {as_black:?}");
    assert!(as_black[as_black.len() - 5..].iter().all(|&w| w), "and learns within the series: {as_black:?}");
    let summary = std::fs::read_to_string(dir.path().join("out/grades.md")).unwrap();
    let wins = games[45..].iter().filter(|g| g.winner == Some(0)).count();
    // The course's 2 wins of 10 against hard, scaled to 45 games: 9.
    let verdict = if wins >= 9 { format!("{wins}/45 ✓") } else { format!("{wins}/45 ✗ (needs 9)") };
    assert!(summary.contains(&verdict), "{verdict} in {summary}");
}

/// A single-player grade of magic-forest on `worlds` worlds, its output in
/// `output`, the lines `extra` added.
fn forest_grade(dir: &Path, output: &str, worlds: u32, extra: &str) -> PathBuf {
    let text = format!(
        "game = \"magic-forest\"\nformat = \"grade\"\ngames_per_player = {worlds}\nseed = 8\nconcurrency = 2\noutput = \"{output}\"\nplayers = [\"medium\"]\n{extra}"
    );
    write_file(dir, &format!("{output}.toml"), &text)
}

#[test]
fn a_killed_single_player_grade_resumes_to_the_same_games() {
    let dir = tempfile::tempdir().unwrap();
    let whole = forest_grade(dir.path(), "whole", 400, "");
    let ran = arena(&["tournament", "run", whole.to_str().unwrap()], &[]);
    assert!(ran.status.success(), "{}", stderr(&ran));
    let expected = journal_games(&dir.path().join("whole"));
    // The student and the three levels, each on the same 400 worlds.
    assert_eq!(expected.len(), 4 * 400);

    let killed = forest_grade(dir.path(), "killed", 400, "");
    let want = 20 + (std::process::id() as usize % 400);
    let (partial, resumed) = super::kill_and_resume(&killed, &dir.path().join("killed"), want);
    assert!(partial.len() < 1600, "the run must be cut short (it had {} games)", partial.len());
    assert_eq!(resumed.iter().map(|r| r.index).collect::<Vec<_>>(), (0..1600).collect::<Vec<_>>());
    assert_eq!(resumed, expected, "a resumed run gives the uninterrupted run's games");
    // The same grades (below the title, which names the file).
    let grades = |out: &str| {
        let text = std::fs::read_to_string(dir.path().join(out).join("grades.md")).unwrap();
        text.split_once('\n').unwrap().1.to_string()
    };
    assert!(grades("whole").contains("| medium |"), "{}", grades("whole"));
    assert_eq!(grades("killed"), grades("whole"));
}

#[test]
fn a_journal_is_not_resumed_under_other_pass_marks() {
    let dir = tempfile::tempdir().unwrap();
    let file = forest_grade(dir.path(), "out", 2, "");
    assert!(arena(&["tournament", "run", file.to_str().unwrap()], &[]).status.success());
    let text = std::fs::read_to_string(&file).unwrap();
    // The same games, other margins: refused.
    std::fs::write(&file, format!("{text}score_margin = [0, 0, 1]\n")).unwrap();
    let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("belongs to a different schedule"), "{}", stderr(&output));
    // The default margins written out are the same grading: resumed.
    std::fs::write(&file, format!("{text}score_margin = [0, 0, 0]\n")).unwrap();
    let again = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(stderr(&again).contains("(0 played now)"), "{}", stderr(&again));
}
