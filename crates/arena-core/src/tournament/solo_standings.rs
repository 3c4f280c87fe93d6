//! Standings of a single-player game's tournament (duplicate, grade): each player's
//! mean score over the same worlds with its 95% interval, win and death
//! rates, failures, time; ranked by mean score.

use std::fmt::Write as _;

use serde::Serialize;

use super::{record::GameResult, standings::Entrant};
use crate::{
    game::GameId,
    games::{progress_measures, progress_of},
    play::solo::{RunMeasure, SoloScore, SoloSummary},
    report::table::{csv_field, md_cell, md_table, text_table},
};

/// One player's line.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct SoloRow {
    /// 1-based: by mean score, then win rate, then id (ranks are distinct).
    pub rank: usize,
    /// Index in the player list.
    pub id: usize,
    pub name: String,
    pub source: String,
    #[serde(flatten)]
    pub summary: SoloSummary,
}

/// The whole table.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct SoloStandings {
    pub game: &'static str,
    /// Games counted.
    pub games: usize,
    pub rows: Vec<SoloRow>,
}

/// The standings of `entrants` (ids index it) from their games.
pub fn compute(game: GameId, entrants: &[(usize, Entrant)], results: &[GameResult]) -> SoloStandings {
    let counted = progress_of(game);
    let scores = |id: usize| -> Vec<&SoloScore> {
        results.iter().filter(|r| r.seats[0] == id).filter_map(|r| r.solo.as_ref()).collect()
    };
    let mut rows: Vec<SoloRow> = entrants
        .iter()
        .map(|(id, e)| SoloRow {
            rank: 0,
            id: *id,
            name: e.name.clone(),
            source: e.source.clone(),
            summary: SoloSummary::of(counted, scores(*id)),
        })
        .collect();
    rows.sort_by(|a, b| {
        b.summary
            .mean_score
            .total_cmp(&a.summary.mean_score)
            .then(b.summary.win_rate.total_cmp(&a.summary.win_rate))
            .then(a.id.cmp(&b.id))
    });
    for (i, row) in rows.iter_mut().enumerate() {
        row.rank = i + 1;
    }
    let games = results.iter().filter(|r| r.solo.is_some()).count();
    SoloStandings { game: game.name(), games, rows }
}

impl SoloStandings {
    /// What the game counts of how far a run got, if any row has it.
    fn progress(&self) -> Option<RunMeasure> {
        self.rows.iter().find_map(|r| r.summary.progress.map(|p| p.of))
    }

    /// The column names and each row's cells (`names`: display names by id).
    pub fn table(&self, names: &[String]) -> (Vec<String>, Vec<Vec<String>>) {
        let progress = self.progress();
        let mut header: Vec<String> =
            ["#", "player", "games", "mean", "95% interval", "won", "died"].map(String::from).to_vec();
        if let Some(of) = progress {
            header.push(of.column.into());
        }
        header.extend(["failures", "time/game"].map(String::from));
        let rows = self
            .rows
            .iter()
            .map(|r| {
                let s = &r.summary;
                let mut cells = vec![
                    r.rank.to_string(),
                    names.get(r.id).cloned().unwrap_or_else(|| r.name.clone()),
                    s.games.to_string(),
                    format!("{:.3}", s.mean_score),
                    format!("{:.3} .. {:.3}", s.interval[0], s.interval[1]),
                    format!("{:.1}%", 100.0 * s.win_rate),
                    format!("{:.1}%", 100.0 * s.death_rate),
                ];
                if progress.is_some() {
                    cells.push(s.progress.map_or("-".into(), |p| format!("{:.2}", p.mean)));
                }
                cells.push(s.failures.compact());
                cells.push(format!("{:.2} ms", s.mean_game_ms));
                cells
            })
            .collect();
        (header, rows)
    }

    /// An aligned plain-text table; no trailing newline.
    pub fn terminal(&self, names: &[String]) -> String {
        let (header, body) = self.table(names);
        // The name and the failures read left to right.
        let mut out = text_table(&header, &body, |k| k == 1 || k == header.len() - 2);
        out.truncate(out.trim_end().len());
        out
    }

    /// A Markdown section without a title.
    pub fn markdown(&self, names: &[String]) -> String {
        let (header, mut rows) = self.table(names);
        for row in &mut rows {
            row[1] = md_cell(&row[1]);
        }
        let right: Vec<bool> = (0..header.len()).map(|k| k != 1 && k != header.len() - 2).collect();
        format!(
            "Every player played the same {} worlds of {}; ranked by mean score (95% interval).\n\n{}",
            self.rows.first().map_or(0, |r| r.summary.games),
            self.game,
            md_table(&header, &right, &rows)
        )
    }

    /// The same columns for every single-player game: a progress column
    /// for each that counts one (`progress_measures`), empty for the others.
    pub fn csv(&self) -> String {
        let measures = progress_measures();
        let mut header = vec![
            "rank",
            "id",
            "name",
            "source",
            "games",
            "mean_score",
            "lower",
            "upper",
            "win_rate",
            "death_rate",
        ];
        header.extend(measures.iter().map(|m| m.key));
        header.extend(["failures", "mean_game_ms"]);
        let mut out = header.join(",") + "\n";
        for r in &self.rows {
            let s = &r.summary;
            let progress: Vec<String> = measures
                .iter()
                .map(|m| match s.progress {
                    Some(p) if p.of == *m => format!("{:.4}", p.mean),
                    _ => String::new(),
                })
                .collect();
            let _ = writeln!(
                out,
                "{},{},{},{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{}{},{:.3}",
                r.rank,
                r.id,
                csv_field(&r.name),
                csv_field(&r.source),
                s.games,
                s.mean_score,
                s.interval[0],
                s.interval[1],
                s.win_rate,
                s.death_rate,
                progress.iter().map(|cell| format!("{cell},")).collect::<String>(),
                s.failures.total(),
                s.mean_game_ms
            );
        }
        out
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("plain data serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(index: usize, id: usize, score: i64, won: bool, deaths: u32) -> GameResult {
        let solo = SoloScore {
            score,
            won,
            deaths,
            steps: 3,
            reason: "r".into(),
            fault: None,
            progress: None,
            time_us: 10,
            cpu_us: 4,
            replayed: 0,
        };
        GameResult::solo(index, id, 7, solo)
    }

    #[test]
    fn ranks_by_mean_score_and_counts_rates() {
        let entrants: Vec<(usize, Entrant)> = ["a", "b", "c"]
            .iter()
            .enumerate()
            .map(|(i, n)| (i, Entrant { name: n.to_string(), source: n.to_string() }))
            .collect();
        let results = vec![
            result(0, 0, -1, false, 1),
            result(1, 1, 1, true, 0),
            result(2, 2, 1, true, 0),
            result(3, 0, 1, true, 0),
            result(4, 1, 1, true, 0),
            result(5, 2, -1, false, 1),
        ];
        let s = compute(GameId::IntuitiveAi, &entrants, &results);
        assert_eq!(s.games, 6);
        assert_eq!(s.rows.iter().map(|r| r.id).collect::<Vec<_>>(), [1, 0, 2], "ties go to the lower id");
        let b = &s.rows[0].summary;
        assert_eq!((b.games, b.mean_score, b.win_rate, b.death_rate), (2, 1.0, 1.0, 0.0));
        let a = &s.rows[1].summary;
        assert_eq!((a.mean_score, a.win_rate, a.death_rate), (0.0, 0.5, 0.5));
        let names = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        let text = s.terminal(&names);
        assert!(text.lines().nth(1).unwrap().contains(" b "), "{text}");
        assert_eq!(s.csv().lines().count(), 4);
        assert_eq!(s.json()["rows"][0]["mean_score"], 1.0);
        // A name cannot break the Markdown table.
        let piped = vec!["a|x".to_string(), "b".to_string(), "c".to_string()];
        assert!(s.markdown(&piped).contains("| a\\|x |"), "{}", s.markdown(&piped));
    }
}
