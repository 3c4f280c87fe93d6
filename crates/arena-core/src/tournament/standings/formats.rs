//! How standings are shown: a terminal table, Markdown (standings,
//! crosstable, failures), CSV and JSON, and the cells of a row as every
//! table has them (the tournament's HTML index too). What the numbers are
//! is `standings/mod.rs`; how a table is laid out and a cell escaped,
//! [`crate::report::table`].

use std::{fmt::Write as _, time::Duration};

use super::{Row, Standings};
use crate::{
    play::fault::FaultKind,
    report::table::{csv_field, csv_number, md_cell, md_table, text_table},
    report::units::short,
};

impl Row {
    /// The row as table cells (terminal and Markdown): rank, `name`, games,
    /// W, D, L, points, [score share,] defeated, Elo, failures, mean, max.
    pub(crate) fn cells(&self, name: String, with_score: bool) -> Vec<String> {
        let mut cells = vec![
            self.rank.to_string(),
            name,
            self.games.to_string(),
            self.wins.to_string(),
            self.draws.to_string(),
            self.losses.to_string(),
            fmt_points(self.points),
        ];
        if with_score {
            cells.push(if self.games > 0 { format!("{:.1}%", 100.0 * self.score) } else { "—".into() });
        }
        if let Some(swiss) = self.swiss {
            cells.splice(2..2, [fmt_points(swiss.score), fmt_points(swiss.buchholz)]);
        }
        cells.extend([
            self.opponents_defeated.to_string(),
            format!("{} ± {}", fmt_elo(self.elo), fmt_error(self.elo_error)),
            self.failures.compact(),
            fmt_time(self.mean_turn_us, self.turns),
            fmt_time(self.max_turn_us as f64, self.turns),
        ]);
        cells
    }
}

/// An Elo value: "+191", "-35", "0", "+inf".
pub(crate) fn fmt_elo(elo: f64) -> String {
    if elo.is_infinite() {
        return if elo > 0.0 { "+inf".into() } else { "-inf".into() };
    }
    let rounded = elo.round();
    if rounded == 0.0 {
        "0".into()
    } else {
        format!("{rounded:+.0}")
    }
}

/// The half-width of an interval: "80", or "—" when unknown (infinite).
fn fmt_error(error: f64) -> String {
    if error.is_finite() {
        format!("{error:.0}")
    } else {
        "—".into()
    }
}

/// Points with the half shown only when there is one: "3", "3.5".
fn fmt_points(points: f64) -> String {
    if points.fract() == 0.0 {
        format!("{points:.0}")
    } else {
        format!("{points:.1}")
    }
}

/// A time in microseconds as "12 us", "3.4 ms", "1.20 s"; "—" without turns.
fn fmt_time(us: f64, turns: u64) -> String {
    if turns == 0 {
        "—".into()
    } else {
        short(Duration::from_secs_f64(us.max(0.0) / 1e6))
    }
}

/// Replaces every non-finite number in `value` by null.
fn sanitise(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Number(n) if n.as_f64().is_some_and(|x| !x.is_finite()) => *value = Value::Null,
        Value::Array(items) => items.iter_mut().for_each(sanitise),
        Value::Object(map) => map.values_mut().for_each(sanitise),
        _ => {}
    }
}

impl Standings {
    fn name(&self, id: usize) -> &str {
        self.row(id).map_or("?", |r| r.name.as_str())
    }

    /// "head to head (pentanomial, 20 pairs): +191 ± 80 Elo for a against b".
    fn head_to_head_line(&self) -> Option<String> {
        let h = self.head_to_head.as_ref()?;
        let unpaired = match h.unpaired_games {
            0 => String::new(),
            1 => "; 1 unpaired game left out".to_string(),
            k => format!("; {k} unpaired games left out"),
        };
        let pairs = if h.pairs == 1 { "1 pair".to_string() } else { format!("{} pairs", h.pairs) };
        let what = if h.pairs == 0 {
            "no complete seat-swapped pair yet".to_string()
        } else {
            format!(
                "{} ± {} Elo for {} against {}",
                fmt_elo(h.estimate.elo),
                fmt_error(h.error),
                self.name(h.player),
                self.name(h.opponent)
            )
        };
        Some(format!("head to head (pentanomial, {pairs}{unpaired}): {what}"))
    }

    /// A Swiss's line: its rounds, and what its score and Buchholz are.
    fn swiss_line(&self) -> Option<String> {
        let swiss = self.swiss?;
        Some(format!(
            "Swiss, {} of {} rounds: score 1 a pairing won (more than half its game points), ½ a drawn one, 1 a bye; \
             Buchholz the sum of the opponents' scores",
            swiss.played, swiss.rounds
        ))
    }

    /// Headers (and their alignments, if any) with a Swiss's score and
    /// Buchholz after the player's name, as [`Row::cells`] has them.
    pub(crate) fn with_swiss_headers(
        &self,
        mut header: Vec<String>,
        mut align: Vec<bool>,
        value: bool,
    ) -> (Vec<String>, Vec<bool>) {
        if self.swiss.is_some() {
            header.splice(2..2, ["score".to_string(), "Buchholz".to_string()]);
            if align.len() >= 2 {
                align.splice(2..2, [value, value]);
            }
        }
        (header, align)
    }

    /// An aligned plain-text table, then the head-to-head line for two
    /// players; no trailing newline.
    pub fn terminal(&self) -> String {
        let header: Vec<String> =
            ["#", "player", "games", "W", "D", "L", "points", "defeated", "Elo", "failures", "mean", "max"]
                .map(String::from)
                .to_vec();
        // Left-aligned columns: the name and the failures.
        let left = [false, true, false, false, false, false, false, false, false, true, false, false];
        let (header, left) = self.with_swiss_headers(header, left.to_vec(), false);
        let body: Vec<Vec<String>> = self.rows.iter().map(|r| r.cells(r.name.clone(), false)).collect();
        let mut out = text_table(&header, &body, |k| left[k]);
        if let Some(line) = self.swiss_line() {
            out.push_str(&line);
            out.push('\n');
        }
        if let Some(line) = self.head_to_head_line() {
            out.push_str(&line);
            out.push('\n');
        }
        out.truncate(out.trim_end().len());
        out
    }

    /// A Markdown section without a title: the standings, the crosstable,
    /// and a failures table when any player failed.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let header = [
            "#",
            "Player",
            "Games",
            "W",
            "D",
            "L",
            "Game pts",
            "Score",
            "Defeated",
            "Elo",
            "Failures",
            "Mean turn",
            "Max turn",
        ]
        .map(String::from);
        let right = [true, false, true, true, true, true, true, true, true, true, false, true, true];
        let (header, right) = self.with_swiss_headers(header.to_vec(), right.to_vec(), true);
        let rows: Vec<Vec<String>> = self.rows.iter().map(|r| r.cells(md_cell(&r.name), true)).collect();
        out.push_str(&md_table(&header, &right, &rows));
        if let Some(line) = self.swiss_line() {
            let _ = writeln!(out, "\n{line}.");
        }
        let _ = writeln!(
            out,
            "\n{} games. Game pts: 1 a win, ½ a draw. Elo: Bradley–Terry over all games, ± the 95% interval.",
            self.games
        );
        if let Some(line) = self.head_to_head_line() {
            let _ = writeln!(out, "\n{}", md_cell(&line));
        }

        // Crosstable, rows and columns by rank.
        let _ = writeln!(
            out,
            "\n**Crosstable** (the row player's wins-draws-losses against the column player)\n"
        );
        let mut header = vec!["#".to_string(), "Player".to_string()];
        header.extend(self.rows.iter().map(|r| r.rank.to_string()));
        let mut right = vec![true, false];
        right.extend(self.rows.iter().map(|_| true));
        let rows: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| {
                let mut cells = vec![r.rank.to_string(), md_cell(&r.name)];
                cells.extend(self.rows.iter().map(|c| {
                    if c.id == r.id {
                        "—".to_string()
                    } else {
                        self.versus(r.id, c.id)
                            .map_or(String::new(), |w| format!("{}-{}-{}", w.wins, w.draws, w.losses))
                    }
                }));
                cells
            })
            .collect();
        out.push_str(&md_table(&header, &right, &rows));

        if self.any_failures() {
            let _ = writeln!(out, "\n**Failures** (games lost by the player's own fault)\n");
            let mut header = vec!["Player".to_string()];
            header.extend(FaultKind::ALL.iter().map(|k| k.name().to_string()));
            let other = self.rows.iter().any(|r| r.failures.other > 0);
            if other {
                header.push("other".into());
            }
            header.push("total".into());
            let right: Vec<bool> = (0..header.len()).map(|k| k > 0).collect();
            let rows: Vec<Vec<String>> = self
                .rows
                .iter()
                .filter(|r| r.failures.total() > 0)
                .map(|r| {
                    let mut cells = vec![md_cell(&r.name)];
                    cells.extend(r.failures.iter().map(|(_, n)| n.to_string()));
                    if other {
                        cells.push(r.failures.other.to_string());
                    }
                    cells.push(r.failures.total().to_string());
                    cells
                })
                .collect();
            out.push_str(&md_table(&header, &right, &rows));
        }
        out
    }

    /// One header line and one line per player, in rank order.
    pub fn csv(&self) -> String {
        let mut header: Vec<&str> = vec![
            "rank",
            "name",
            "source",
            "games",
            "wins",
            "draws",
            "losses",
            "points",
            "score",
            "opponents_defeated",
            "rank_by_defeated",
            "elo",
            "elo_error",
        ];
        header.extend(FaultKind::ALL.iter().map(|k| k.name()));
        header.extend(["mean_turn_us", "max_turn_us"]);
        if self.swiss.is_some() {
            header.extend(["swiss_score", "buchholz", "byes"]);
        }
        let mut out = header.join(",");
        out.push('\n');
        for r in &self.rows {
            let mut cells = vec![
                r.rank.to_string(),
                csv_field(&r.name),
                csv_field(&r.source),
                r.games.to_string(),
                r.wins.to_string(),
                r.draws.to_string(),
                r.losses.to_string(),
                fmt_points(r.points),
                csv_number(r.score, 4),
                r.opponents_defeated.to_string(),
                r.rank_by_defeated.to_string(),
                csv_number(r.elo, 1),
                csv_number(r.elo_error, 1),
            ];
            cells.extend(r.failures.iter().map(|(_, n)| n.to_string()));
            cells.push(csv_number(r.mean_turn_us, 1));
            cells.push(r.max_turn_us.to_string());
            if let Some(swiss) = r.swiss {
                cells.extend([fmt_points(swiss.score), fmt_points(swiss.buchholz), swiss.byes.to_string()]);
            }
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        out
    }

    /// The whole standings as JSON, non-finite numbers written as null.
    pub fn json(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        sanitise(&mut value);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::standings::{
        compute,
        tests::{entrants, faulty, field, head_to_head_games, order, series},
    };

    #[test]
    fn the_head_to_head_line_counts_pairs_and_unpaired_games() {
        let s = compute(&entrants(&["alpha", "beta", "gamma"]), &head_to_head_games());
        let text = s.terminal();
        assert!(
            text.contains(
                "head to head (pentanomial, 5 pairs; 1 unpaired game left out): +147 ± 286 Elo for alpha against beta"
            ),
            "{text}"
        );
        assert!(s.markdown().contains("head to head (pentanomial, 5 pairs"));
    }

    #[test]
    fn failures_and_times_show_in_the_terminal_table_and_a_markdown_table() {
        let s = compute(&entrants(&["flaky", "steady"]), &faulty());
        let text = s.terminal();
        let line = |name: &str| text.lines().find(|l| l.contains(name)).unwrap().to_string();
        assert!(line("steady").ends_with("  -                     1.3 ms  3.0 ms"), "{text}");
        assert!(line("flaky").contains("1 timeout, 1 crashed  100 us  200 us"), "{text}");

        let md = s.markdown();
        assert!(md.contains("**Failures**"), "{md}");
        assert!(md.contains(
            "| Player | timeout | illegal | panicked | crashed | protocol | output | unavailable | total |"
        ));
        assert!(md.contains("| flaky | 1 | 0 | 0 | 1 | 0 | 0 | 0 | 2 |"), "{md}");
        assert!(!md.contains("| steady | 0"), "only players who failed: {md}");
        // No failure, no failures table.
        let clean = compute(&entrants(&["a", "b"]), &series(0, 0, 1, 1, 1, 2));
        assert!(!clean.markdown().contains("**Failures**"));

        // A kind this version does not know has a column of its own.
        let mut odd = faulty();
        odd[0].fault.as_mut().unwrap().kind = "gremlin".into();
        let s = compute(&entrants(&["flaky", "steady"]), &odd);
        assert!(s.markdown().contains("| flaky | 0 | 0 | 0 | 1 | 0 | 0 | 0 | 1 | 2 |"));
    }

    #[test]
    fn times_are_shown_in_sensible_units() {
        assert_eq!(fmt_time(12.0, 1), "12 us");
        assert_eq!(fmt_time(3_400.0, 1), "3.4 ms");
        assert_eq!(fmt_time(1_200_000.0, 1), "1.20 s");
        assert_eq!(fmt_time(0.0, 0), "—");
        assert_eq!(
            (fmt_elo(190.6), fmt_elo(-35.2), fmt_elo(-0.3), fmt_elo(f64::INFINITY)),
            ("+191".to_string(), "-35".to_string(), "0".to_string(), "+inf".to_string())
        );
    }

    #[test]
    fn csv_quotes_names_and_has_every_column() {
        let mut players = entrants(&["x", "y"]);
        players[0].name = "Smith, \"Bob\"".into();
        players[1].source = "builtin:hard".into();
        let s = compute(&players, &faulty());
        let csv = s.csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(
            lines[0],
            "rank,name,source,games,wins,draws,losses,points,score,opponents_defeated,rank_by_defeated,elo,\
             elo_error,timeout,illegal,panicked,crashed,protocol,output,unavailable,mean_turn_us,max_turn_us"
        );
        // Rank order: y (2 wins) first.
        assert!(lines[1].starts_with("1,y,builtin:hard,2,2,0,0,2,1.0000,1,1,"), "{}", lines[1]);
        assert!(lines[1].ends_with(",0,0,0,0,0,0,0,1300.0,3000"), "{}", lines[1]);
        assert!(
            lines[2].starts_with("2,\"Smith, \"\"Bob\"\"\",players/x,2,0,0,2,0,0.0000,0,2,"),
            "{}",
            lines[2]
        );
        assert!(lines[2].ends_with(",1,0,0,1,0,0,0,100.0,200"), "{}", lines[2]);
        assert_eq!(lines[1].split(',').count(), 22);
        // An idle player: empty error, zeros elsewhere.
        let s = compute(&entrants(&["a", "b", "idle"]), &faulty());
        let csv = s.csv();
        let idle = csv.lines().find(|l| l.contains(",idle,")).unwrap();
        // Ranked by Elo 0 above the player who lost both (same points, same
        // number defeated).
        assert_eq!(idle, "2,idle,players/idle,0,0,0,0,0,0.5000,0,2,0.0,,0,0,0,0,0,0,0,0.0,0");
    }

    /// Equal JSON up to the last digits of floats (serde_json's parser is
    /// not exactly round-trip).
    fn assert_close(a: &serde_json::Value, b: &serde_json::Value) {
        use serde_json::Value;
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => {
                let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
                assert!((x - y).abs() <= 1e-9 * x.abs().max(1.0), "{x} vs {y}");
            }
            (Value::Array(x), Value::Array(y)) => {
                assert_eq!(x.len(), y.len());
                x.iter().zip(y).for_each(|(x, y)| assert_close(x, y));
            }
            (Value::Object(x), Value::Object(y)) => {
                assert!(x.keys().eq(y.keys()), "{x:?} vs {y:?}");
                x.values().zip(y.values()).for_each(|(x, y)| assert_close(x, y));
            }
            _ => assert_eq!(a, b),
        }
    }

    #[test]
    fn json_has_no_infinities_and_parses_back() {
        // Two players, one winning everything: head-to-head Elo +inf; a
        // third without games: error inf.
        let games = series(0, 0, 1, 4, 0, 4);
        let s = compute(&entrants(&["winner", "loser", "idle"]), &games);
        assert_eq!(s.head_to_head.as_ref().unwrap().estimate.elo, f64::INFINITY);
        let value = s.json();
        let text = serde_json::to_string(&value).unwrap();
        assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_close(&back, &value);
        assert_eq!(back["rows"][1]["name"], "idle");
        assert!(back["rows"][1]["elo_error"].is_null());
        assert!(back["head_to_head"]["estimate"]["elo"].is_null());
        assert_eq!(back["head_to_head"]["pentanomial"]["ww"], 2);
        assert_eq!(back["rows"][0]["failures"]["timeout"], 0);
        assert_eq!(back["rows"][0]["failures"].as_object().unwrap().len(), 7);
        assert_eq!(
            back["crosstable"][0],
            serde_json::json!({"player": 0, "opponent": 1, "wins": 4, "draws": 0, "losses": 0})
        );
        // Rendering with infinities works too.
        assert!(s.terminal().contains("+inf ± — Elo for winner against loser"), "{}", s.terminal());
    }

    #[test]
    fn terminal_and_markdown_list_players_in_rank_order() {
        let (players, games) = field();
        let s = compute(&players, &games);
        let text = s.terminal();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("#  player  games  W  D  L  points  defeated"), "{text}");
        let names: Vec<&str> = lines[1..].iter().map(|l| l.split_whitespace().nth(1).unwrap()).collect();
        assert_eq!(names, ["A", "C", "B", "D", "E"]);
        assert_eq!(lines[1], "1  A           6  3  2  1       4         1   +87 ± 214  -            —    —");
        assert_eq!(lines[5], "5  E           0  0  0  0       0         0       0 ± —  -            —    —");
        // Aligned: every row as wide up to the failures column.
        let at = lines[0].find("failures").unwrap();
        assert!(lines.iter().all(|l| l.len() > at));

        let md = s.markdown();
        assert!(!md.starts_with('#'), "no title: {md}");
        let rows: Vec<&str> = md
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| #") && !l.starts_with("| -"))
            .collect();
        // Standings then crosstable, both in rank order.
        assert!(rows[0].starts_with("| 1 | A | 6 | 3 | 2 | 1 | 4 | 66.7% | 1 | "), "{md}");
        assert!(rows[4].starts_with("| 5 | E | 0 | 0 | 0 | 0 | 0 | — | 0 | 0 ± — | - |"), "{md}");
        let names: Vec<&str> = rows.iter().map(|l| l.split(" | ").nth(1).unwrap()).collect();
        assert_eq!(names, ["A", "C", "B", "D", "E", "A", "C", "B", "D", "E"]);
        assert!(md.contains("| # | Player | 1 | 2 | 3 | 4 | 5 |"), "{md}");
        assert_eq!(rows[5], "| 1 | A | — | 0-2-0 | 2-0-0 | 1-0-1 |  |");
        assert_eq!(rows[6], "| 2 | C | 0-2-0 | — | 1-0-1 | 2-0-0 |  |");
        assert_eq!(rows[9], "| 5 | E |  |  |  |  | — |");
        assert!(!md.contains("**Failures**"));
    }

    #[test]
    fn nobody_played_yet() {
        let s = compute(&entrants(&["a", "b|c"]), &[]);
        assert_eq!(order(&s), [0, 1]);
        assert!(s.head_to_head.is_none() && s.crosstable.is_empty());
        assert!(s.terminal().contains("0 ± —"));
        assert!(s.markdown().contains("| 2 | b\\|c | 0 |"), "{}", s.markdown());
        assert_eq!(s.csv().lines().count(), 3);
        assert!(s.json()["rows"][1]["elo_error"].is_null());
    }
}
