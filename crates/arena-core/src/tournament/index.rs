//! `index.html` in a tournament's output folder: the standings table and
//! every game, linked to its replay viewer when one was saved. One
//! self-contained page (the replay viewer's styles inline), opened from disk.

use std::{fmt::Write as _, path::Path};

use super::{record::GameResult, replays, Table};
use crate::replay::html::{escape, style};

/// The page. `names` are the players' display names; `folder` is the
/// output folder (to see which replays exist).
pub fn page(
    title: &str,
    standings: &Table,
    results: &[GameResult],
    names: &[String],
    folder: &Path,
) -> String {
    let mut html = String::new();
    let _ = write!(
        html,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n\
         <style>\n{}\n{INDEX_STYLE}</style>\n</head>\n<body>\n<header><h1>{}</h1>\
         <div class=\"meta\">{} games</div></header>\n<main class=\"index\">\n",
        escape(title),
        style(),
        escape(title),
        results.len()
    );
    html.push_str("<section><h2>Standings</h2>\n<table id=\"standings\">\n<thead><tr>");
    let (header, rows) = match standings {
        Table::Duel(standings) => {
            let header = [
                "#", "Player", "Games", "W", "D", "L", "Game pts", "Score", "Defeated", "Elo", "Failures",
                "Mean", "Max",
            ]
            .map(String::from)
            .to_vec();
            let (header, _) = standings.with_swiss_headers(header, Vec::new(), true);
            let rows = standings
                .rows
                .iter()
                .map(|row| row.cells(names.get(row.id).cloned().unwrap_or_else(|| row.name.clone()), true))
                .collect();
            (header, rows)
        }
        Table::Solo { standings, names } => standings.table(names),
    };
    for head in header {
        let _ = write!(html, "<th>{}</th>", escape(&head));
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        html.push_str("<tr>");
        for cell in row {
            let _ = write!(html, "<td>{}</td>", escape(&cell));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody>\n</table>\n</section>\n");
    html.push_str("<section><h2>Games</h2>\n<table id=\"games\">\n<thead><tr><th>Game</th><th>Player 1</th>\
                   <th>Player 2</th><th>Winner</th><th>Turns</th><th>Reason</th><th>Seed</th><th>Replay</th></tr></thead>\n<tbody>\n");
    let total = results.iter().map(|r| r.index + 1).max().unwrap_or(0);
    let name = |id: usize| names.get(id).map_or("?", |n| n.as_str());
    for result in results {
        let solo = result.solo.is_some();
        let stem = replays::stem(result.index, replays::named_seats(&result.seats, solo), total, names);
        let link = ["html", "json", "json.gz"]
            .iter()
            .map(|ext| format!("{}/{stem}.{ext}", replays::FOLDER))
            .find(|file| folder.join(file).exists())
            .map_or(String::new(), |file| {
                let label = if file.ends_with(".html") { "view" } else { "replay file" };
                format!("<a href=\"{}\">{label}</a>", escape(&file))
            });
        let winner = match &result.solo {
            // A single-player game: its score in the winner's column.
            Some(solo) => format!("score {}", solo.score),
            None => result.winner.map_or("draw".to_string(), |w| escape(name(w))),
        };
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td class=\"p1\">{}</td><td class=\"p2\">{}</td><td>{winner}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{link}</td></tr>",
            result.index + 1,
            escape(name(result.seats[0])),
            // A single-player game's one player sits in both seats: shown once.
            if solo { String::new() } else { escape(name(result.seats[1])) },
            result.turns,
            escape(&result.reason),
            result.seed
        );
    }
    html.push_str("</tbody>\n</table>\n</section>\n</main>\n</body>\n</html>\n");
    html
}

const INDEX_STYLE: &str = "
.index { display: block; max-width: 1200px; }
.index h2 { font-size: 17px; margin: 18px 0 8px; }
.index table { border-collapse: collapse; width: 100%; background: var(--panel); border: 1px solid var(--line); border-radius: 12px; overflow: hidden; }
.index th, .index td { padding: 6px 10px; text-align: left; border-bottom: 1px solid var(--line); font-size: 14px; }
.index th { color: var(--muted); font-weight: 600; background: var(--panel-2); }
.index tbody tr:hover { background: var(--panel-2); }
.index a { color: var(--landed); }
";
