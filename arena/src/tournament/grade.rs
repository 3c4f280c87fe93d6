//! The course's grading format: each student plays a series against each
//! reference level (10 games against Easy, Medium and Hard) and passes with
//! enough wins against every level (6, 4 and 2).
//!
//! Games not yet played are not counted, so a report can be made at any
//! time; its verdict is about the games so far.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::{
    record::GameResult,
    standings::{md_cell, md_table, Entrant, Failures},
};
use crate::fault::FaultKind;

/// A reference player the students are graded against.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Level {
    /// As shown: "easy", "medium", "hard".
    pub name: String,
    /// The reference player's id in the player list.
    pub id: usize,
    /// Wins needed against it to pass.
    pub needed_wins: u32,
}

/// A game the student lost, with what it takes to replay it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct LostGame {
    /// The game's index in the schedule.
    pub index: usize,
    pub seed: u64,
    /// The student's seat: 1 or 2.
    pub seat: u8,
    /// Why the game ended.
    pub reason: String,
}

/// A student's series against one level.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct LevelResult {
    /// The level's name.
    pub level: String,
    /// The level's player id.
    pub opponent: usize,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub needed: u32,
    /// `wins >= needed`.
    pub passed: bool,
    /// The games lost, by schedule index.
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
    /// The student's own faults in its games against the levels, by kind.
    pub failures: Failures,
    /// "PASS", or "FAIL: needs 6 wins against easy, has 4" (each level
    /// failed, separated by "; ").
    pub verdict: String,
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
    levels: &[Level],
    students: &[usize],
    results: &[GameResult],
) -> Vec<GradeReport> {
    let mut sorted: Vec<&GameResult> = results.iter().collect();
    sorted.sort_by_key(|g| g.index);
    students.iter().map(|&student| report(entrants, levels, student, &sorted)).collect()
}

fn report(entrants: &[Entrant], levels: &[Level], student: usize, games: &[&GameResult]) -> GradeReport {
    let mut failures = Failures::default();
    let levels: Vec<LevelResult> = levels
        .iter()
        .map(|level| {
            let mut r = LevelResult {
                level: level.name.clone(),
                opponent: level.id,
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                needed: level.needed_wins,
                passed: false,
                lost: Vec::new(),
            };
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
                        r.lost.push(LostGame {
                            index: g.index,
                            seed: g.seed,
                            seat,
                            reason: g.reason.clone(),
                        });
                    }
                }
                if let Some(fault) = g.fault.as_ref().filter(|f| f.player == student) {
                    failures.add(&fault.kind);
                }
            }
            r.passed = r.wins >= r.needed;
            r
        })
        .collect();
    let passed_all = levels.iter().all(|l| l.passed);
    let verdict = if passed_all {
        "PASS".to_string()
    } else {
        let missing: Vec<String> = levels
            .iter()
            .filter(|l| !l.passed)
            .map(|l| format!("needs {} against {}, has {}", wins(l.needed), l.level, l.wins))
            .collect();
        format!("FAIL: {}", missing.join("; "))
    };
    GradeReport {
        student,
        name: entrants.get(student).map_or_else(|| format!("player {student}"), |e| e.name.clone()),
        levels,
        passed_all,
        failures,
        verdict,
    }
}

impl LevelResult {
    /// "7/10 ✓" or "3/10 ✗ (needs 4)".
    pub fn cell(&self) -> String {
        if self.passed {
            format!("{}/{} ✓", self.wins, self.games)
        } else {
            format!("{}/{} ✗ (needs {})", self.wins, self.games, self.needed)
        }
    }
}

/// One table: a row per student, wins against each level, the verdict.
/// The level columns are those of the first report.
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
        let _ = writeln!(out, "**{}** — wins: {}\n", md_cell(&self.verdict), series.join(", "));

        for l in &self.levels {
            let _ = writeln!(out, "## Against {} (needs {})\n", md_cell(&l.level), wins(l.needed));
            let header = ["Games", "Wins", "Draws", "Losses", "Needed", "Result"].map(String::from);
            let right = [true, true, true, true, true, false];
            let result = if l.passed { "passed ✓" } else { "not yet ✗" };
            let row = vec![
                l.games.to_string(),
                l.wins.to_string(),
                l.draws.to_string(),
                l.losses.to_string(),
                l.needed.to_string(),
                result.to_string(),
            ];
            out.push_str(&md_table(&header, &right, &[row]));
            if l.lost.is_empty() {
                let _ = writeln!(out, "\nNo games lost.\n");
            } else {
                let _ = writeln!(out, "\nGames lost (replay them with the same seed and seat):\n");
                let header = ["Game", "Seed", "Your seat", "Reason"].map(String::from);
                let right = [true, true, true, false];
                let rows: Vec<Vec<String>> = l
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

    fn levels() -> Vec<Level> {
        [("easy", EASY, 6), ("medium", MEDIUM, 4), ("hard", HARD, 2)]
            .iter()
            .map(|&(name, id, needed_wins)| Level { name: name.into(), id, needed_wins })
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
        let one = [Level { name: "hard".into(), id: HARD, needed_wins: 1 }];
        let r = reports(&entrants(), &one, &[5], &games);
        assert_eq!(r[0].verdict, "FAIL: needs 1 win against hard, has 0");
        assert!(r[0].markdown().contains("## Against hard (needs 1 win)"));
        assert!(serde_json::to_string(&r).unwrap().contains("\"verdict\":\"FAIL: needs 1 win"));
    }
}
