//! The leaderboard, kept ready in memory: a thread rebuilds it when
//! something changed (a grading moved on, a league game was stored), at
//! most every `EVERY`, and a request only copies it out, or answers
//! `304 Not Modified` to a page that already has it. No request touches
//! the database or waits for grading to read the leaderboard.

use std::{
    path::PathBuf,
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

use super::{db, grader::Wake, league, views};

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

/// The leaderboard and the round robin's crosstable, as last built.
pub struct Boards {
    leaderboard: RwLock<Arc<Ready>>,
    crosstable: RwLock<Arc<Ready>>,
}

impl Boards {
    /// Builds the boards of data folder `dir` once, then keeps them current
    /// on a thread of their own, woken by `changed`.
    pub fn start(dir: PathBuf, changed: Arc<Wake>, live: Arc<Mutex<league::Live>>) -> Result<Arc<Boards>> {
        let db = db::open(&dir)?;
        let (leaderboard, crosstable) = build(&db, &live)?;
        let boards = Arc::new(Boards {
            leaderboard: RwLock::new(Arc::new(Ready::of(&leaderboard))),
            crosstable: RwLock::new(Arc::new(Ready::of(&crosstable))),
        });
        let kept = boards.clone();
        std::thread::Builder::new().name("leaderboard".into()).spawn(move || {
            let mut seen = changed.generation();
            loop {
                seen = changed.wait_after(seen, Duration::from_secs(5));
                match build(&db, &live) {
                    Ok((leaderboard, crosstable)) => {
                        *kept.leaderboard.write().unwrap_or_else(|e| e.into_inner()) =
                            Arc::new(Ready::of(&leaderboard));
                        *kept.crosstable.write().unwrap_or_else(|e| e.into_inner()) =
                            Arc::new(Ready::of(&crosstable));
                    }
                    Err(e) => tracing::error!("the leaderboard cannot be built: {e:#}"),
                }
                std::thread::sleep(EVERY);
            }
        })?;
        Ok(boards)
    }

    pub fn leaderboard(&self) -> Arc<Ready> {
        self.leaderboard.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn crosstable(&self) -> Arc<Ready> {
        self.crosstable.read().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// The leaderboard (every group's latest grade as the public may see it,
/// the queue, the league's standings) and the crosstable, apart: its size
/// grows with the square of the class.
fn build(db: &Connection, live: &Mutex<league::Live>) -> Result<(Value, Value)> {
    let latest = db::latest_graded(db)?;
    let (waiting, grading) = db::queue(db)?;
    let (standings, crosstable, full) = {
        let mut live = live.lock().unwrap_or_else(|e| e.into_inner());
        live.sync(db, &latest)?;
        let (standings, crosstable) = live.standings();
        (standings, crosstable, live.round_robin_games())
    };
    let rows: Vec<_> = latest
        .into_iter()
        .map(|s| {
            let grade = s.grade.as_ref().map(views::public_grade);
            json!({ "group": s.group, "submission": s.id, "finished": s.finished, "grade": grade })
        })
        .collect();
    let grading = grading.map(|(played, total)| json!({ "played": played, "total": total }));
    let leaderboard = json!({
        "groups": rows,
        "queue": { "waiting": waiting, "grading": grading },
        "round_robin": {
            "games_per_pairing": league::GAMES,
            "games_to_play": full,
            "standings": standings,
        },
    });
    Ok((leaderboard, crosstable))
}
