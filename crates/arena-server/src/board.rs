//! The leaderboards (one per assignment), kept ready in memory: a thread
//! rebuilds them when
//! something changed (a grading moved on, a league game was stored), at
//! most every `EVERY`, and a request only copies it out, or answers
//! `304 Not Modified` to a page that already has it. No request touches
//! the database or waits for grading to read the leaderboard.

use std::{
    path::Path,
    sync::{Arc, Mutex, RwLock},
    time::Duration,
};

use anyhow::Result;
use axum::{
    body::Bytes,
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use rusqlite::Connection;
use serde_json::{json, Value};

use super::{
    course::{Assignment, Course},
    db,
    league::{self, Leagues},
    views,
    wake::Wake,
};

/// The most often the leaderboard is rebuilt.
const EVERY: Duration = Duration::from_millis(250);

/// One answer, ready to send: its JSON and the tag that names it.
pub struct Ready {
    etag: HeaderValue,
    body: Bytes,
}

impl Ready {
    fn of(value: &Value) -> Ready {
        let body = Bytes::from(value.to_string());
        let hash = super::store::sha256_hex(&body);
        let etag = HeaderValue::from_str(&format!("\"{}\"", &hash[..32])).expect("hex is a header value");
        Ready { etag, body }
    }

    /// This answer to a request with `headers`: `304` if the client has it.
    pub fn answer(&self, headers: &HeaderMap) -> Response {
        let fresh = headers.get(header::IF_NONE_MATCH).is_some_and(|tag| tag == self.etag);
        if fresh {
            return (StatusCode::NOT_MODIFIED, [(header::ETAG, self.etag.clone())]).into_response();
        }
        let headers = [
            (header::ETAG, self.etag.clone()),
            (header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
        ];
        (headers, self.body.clone()).into_response()
    }
}

/// One assignment's leaderboard and its league's crosstable, as last built.
struct Board {
    assignment: String,
    leaderboard: RwLock<Arc<Ready>>,
    crosstable: RwLock<Arc<Ready>>,
}

/// Every assignment's board, in the course's order.
pub struct Boards {
    boards: Vec<Board>,
}

impl Boards {
    /// Builds the boards of data folder `dir` once (the leaderboard
    /// thread keeps them current: [`Boards::rebuild_forever`]).
    pub fn new(dir: &Path, course: &Course, leagues: &Leagues) -> Result<Arc<Boards>> {
        let db = db::open(dir)?;
        let mut boards = Vec::new();
        for assignment in &course.assignments {
            let (leaderboard, crosstable) = build(&db, assignment, leagues.of(&assignment.name))?;
            boards.push(Board {
                assignment: assignment.name.clone(),
                leaderboard: RwLock::new(Arc::new(Ready::of(&leaderboard))),
                crosstable: RwLock::new(Arc::new(Ready::of(&crosstable))),
            });
        }
        Ok(Arc::new(Boards { boards }))
    }

    /// The leaderboard thread: rebuilds the boards (of `course`, read from
    /// `db`) whenever `changed` is told, at most every [`EVERY`].
    pub(super) fn rebuild_forever(
        &self,
        db: &Connection,
        course: &Course,
        changed: &Wake,
        leagues: &Leagues,
    ) {
        let mut seen = changed.generation();
        loop {
            seen = changed.wait_after(seen, Duration::from_secs(5));
            for (assignment, board) in course.assignments.iter().zip(&self.boards) {
                match build(db, assignment, leagues.of(&assignment.name)) {
                    Ok((leaderboard, crosstable)) => {
                        *board.leaderboard.write().unwrap_or_else(|e| e.into_inner()) =
                            Arc::new(Ready::of(&leaderboard));
                        *board.crosstable.write().unwrap_or_else(|e| e.into_inner()) =
                            Arc::new(Ready::of(&crosstable));
                    }
                    Err(e) => {
                        tracing::error!("the leaderboard of {} cannot be built: {e:#}", assignment.name)
                    }
                }
            }
            std::thread::sleep(EVERY);
        }
    }

    fn board(&self, assignment: &str) -> Option<&Board> {
        self.boards.iter().find(|b| b.assignment == assignment)
    }

    /// The leaderboard of `assignment`.
    pub fn leaderboard(&self, assignment: &str) -> Option<Arc<Ready>> {
        Some(self.board(assignment)?.leaderboard.read().unwrap_or_else(|e| e.into_inner()).clone())
    }

    /// The crosstable of `assignment`'s league.
    pub fn crosstable(&self, assignment: &str) -> Option<Arc<Ready>> {
        Some(self.board(assignment)?.crosstable.read().unwrap_or_else(|e| e.into_inner()).clone())
    }
}

/// `assignment`'s leaderboard (every group's latest grade as the public
/// may see it, the queue, and the league's standings or, for a
/// single-player game, the mean scores against the levels') and the
/// crosstable, apart: its size grows with the square of the class.
fn build(
    db: &Connection,
    assignment: &Assignment,
    live: Option<&Arc<Mutex<league::Live>>>,
) -> Result<(Value, Value)> {
    let latest = db::latest_graded(db, &assignment.name)?;
    let (waiting, grading) = db::queue(db, Some(&assignment.name))?;
    let rows: Vec<_> = latest
        .iter()
        .map(|s| {
            let grade = s.grade.as_ref().map(views::public_grade);
            json!({ "group": s.group, "submission": s.id, "finished": s.finished, "grade": grade })
        })
        .collect();
    let grading = grading.map(|(played, total)| json!({ "played": played, "total": total }));
    let mut leaderboard = json!({
        "assignment": assignment.name,
        "game": assignment.game.name(),
        "groups": rows,
        "queue": { "waiting": waiting, "grading": grading },
    });
    let mut crosstable = json!({ "rows": [], "crosstable": [] });
    match live {
        Some(live) => {
            let mut live = live.lock().unwrap_or_else(|e| e.into_inner());
            live.sync_with(db, &latest)?;
            let (standings, table) = live.standings();
            crosstable = table;
            leaderboard["round_robin"] = json!({
                "games_per_pairing": league::GAMES,
                "games_to_play": live.round_robin_games(),
                "standings": standings,
            });
        }
        None => leaderboard["scores"] = mean_scores(&latest),
    }
    Ok((leaderboard, crosstable))
}

/// A single-player assignment's table: each group's mean score on the
/// grading's worlds (every submission plays the same ones) ranked, and the
/// levels' means on them.
fn mean_scores(latest: &[db::Submission]) -> Value {
    let mean = |s: &&db::Submission| s.grade.as_ref().and_then(|g| g["levels"][0]["mean"].as_f64());
    let mut rows: Vec<(f64, &db::Submission)> = latest.iter().filter_map(|s| Some((mean(&s)?, s))).collect();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.group.cmp(&b.1.group)));
    let levels = latest
        .iter()
        .find_map(|s| s.grade.as_ref()?["levels"].as_array().cloned())
        .unwrap_or_default()
        .into_iter()
        .map(|l| json!({ "level": l["level"], "mean": l["level_mean"] }))
        .collect::<Vec<_>>();
    let rows: Vec<Value> = rows
        .iter()
        .enumerate()
        .map(|(i, (mean, s))| json!({ "rank": i + 1, "group": s.group, "submission": s.id, "mean": mean }))
        .collect();
    json!({ "rows": rows, "levels": levels })
}
