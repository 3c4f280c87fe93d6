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

use crate::{
    course::{Assignment, Course},
    http::views,
    store::db,
    work::league::{self, Leagues},
    work::wake::Wake,
};

/// The most often the leaderboard is rebuilt.
const EVERY: Duration = Duration::from_millis(250);

/// How often the leagues' ratings are stored for the next start (a
/// league of 10,000 writes 10,000 rows: tens of milliseconds); also once
/// soon after the start.
const SAVE_RATINGS_EVERY: Duration = Duration::from_secs(60);

/// One answer, ready to send: its JSON and the tag that names it.
pub struct Ready {
    etag: HeaderValue,
    body: Bytes,
}

impl Ready {
    fn of(value: &Value) -> Ready {
        let body = Bytes::from(value.to_string());
        let hash = crate::store::files::sha256_hex(&body);
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

/// One assignment's board as last built: what every answer is cut from.
struct Built {
    /// The answer to a page asking nothing (the first page): ready.
    first: Arc<Ready>,
    /// The leaderboard without its lists (`groups`, the ranked rows).
    head: Value,
    /// Every group's latest grade as the public may see it, by group name.
    groups: Arc<Vec<Value>>,
    /// The latest graded submissions it was built from, and what they
    /// depend on ([`db::latest_graded_fingerprint`]): the next build
    /// reads them again only if that changed.
    latest: Arc<Vec<db::Submission>>,
    fingerprint: String,
    /// The ranked rows, best first: the league's standings, or a
    /// single-player game's mean scores.
    ranked: Vec<Value>,
    /// League only: by entrant `id`, its results against each it met.
    met: Vec<Vec<(usize, arena_core::stats::Wdl)>>,
    /// League only, in a field of at most [`WHOLE_CROSSTABLE`]: the whole
    /// crosstable, ready.
    crosstable: Option<Arc<Ready>>,
}

/// One assignment's board.
struct Board {
    assignment: String,
    built: RwLock<Arc<Built>>,
}

/// Every assignment's board, in the course's order.
pub struct Boards {
    boards: Vec<Board>,
}

/// The most rows of a list one answer holds (and the default): a class's
/// whole board; a field of thousands comes a page at a time.
pub const PAGE: usize = 200;

/// The largest field whose crosstable comes whole; beyond, one group's
/// row at a time (it grows with the square of the field).
pub const WHOLE_CROSSTABLE: usize = 200;

/// What a leaderboard request asks for (`GET /api/leaderboard?...`).
#[derive(Debug, Default, serde::Deserialize)]
pub struct PageQuery {
    /// Rows skipped, in each list (its order: groups by name, the ranked
    /// rows by rank).
    pub offset: Option<usize>,
    /// Rows, at most [`PAGE`] (the default).
    pub limit: Option<usize>,
    /// Only the groups whose name holds this (any case).
    pub q: Option<String>,
    /// The page of each list that holds this group (its row near the middle).
    pub group: Option<String>,
}

/// Why a page cannot be given.
pub enum PageError {
    /// The query's words are not a page (a limit of 0, a search too long).
    Bad(String),
    /// No group of that name on the board.
    NoGroup(String),
}

impl PageQuery {
    fn asks_nothing(&self) -> bool {
        self.offset.is_none() && self.limit.is_none() && self.q.is_none() && self.group.is_none()
    }
}

impl Boards {
    /// Builds the boards of data folder `dir` once (the leaderboard
    /// thread keeps them current: [`Boards::rebuild_forever`]).
    pub fn new(dir: &Path, course: &Course, leagues: &Leagues) -> Result<Arc<Boards>> {
        let db = db::open(dir)?;
        let mut boards = Vec::new();
        for assignment in &course.assignments {
            let built = build(&db, assignment, leagues.of(&assignment.name), None)?;
            boards.push(Board { assignment: assignment.name.clone(), built: RwLock::new(Arc::new(built)) });
        }
        Ok(Arc::new(Boards { boards }))
    }

    /// The leaderboard thread: rebuilds the boards (of `course`, read from
    /// `db`) whenever `changed` is told, at most every [`EVERY`], or every
    /// ten times as long as the last build took (a field of thousands
    /// takes tens of milliseconds: the thread stays under a tenth of a
    /// core); stores the leagues' ratings now and then.
    pub(crate) fn rebuild_forever(
        &self,
        db: &Connection,
        course: &Course,
        changed: &Wake,
        leagues: &Leagues,
    ) {
        let mut seen = changed.generation();
        let mut saved: Option<std::time::Instant> = None;
        loop {
            seen = changed.wait_after(seen, Duration::from_secs(5));
            if saved.is_none_or(|at| at.elapsed() >= SAVE_RATINGS_EVERY) {
                leagues.save_ratings(db);
                saved = Some(std::time::Instant::now());
            }
            let started = std::time::Instant::now();
            for (assignment, board) in course.assignments.iter().zip(&self.boards) {
                let before = board.built.read().unwrap_or_else(|e| e.into_inner()).clone();
                match build(db, assignment, leagues.of(&assignment.name), Some(&before)) {
                    Ok(built) => *board.built.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(built),
                    Err(e) => {
                        tracing::error!("the leaderboard of {} cannot be built: {e:#}", assignment.name)
                    }
                }
            }
            std::thread::sleep(EVERY.max(10 * started.elapsed()));
        }
    }

    fn built(&self, assignment: &str) -> Option<Arc<Built>> {
        let board = self.boards.iter().find(|b| b.assignment == assignment)?;
        Some(board.built.read().unwrap_or_else(|e| e.into_inner()).clone())
    }

    /// A page of the leaderboard of `assignment` (`None`: no such board).
    pub fn leaderboard(&self, assignment: &str, query: &PageQuery) -> Option<Result<Arc<Ready>, PageError>> {
        let built = self.built(assignment)?;
        if query.asks_nothing() {
            return Some(Ok(built.first.clone()));
        }
        Some(page(&built, query).map(|page| Arc::new(Ready::of(&page))))
    }

    /// The crosstable of `assignment`'s league: whole in a field of at
    /// most [`WHOLE_CROSSTABLE`], else `group`'s row (with the rows of
    /// those it met).
    pub fn crosstable(&self, assignment: &str, group: Option<&str>) -> Option<Result<Arc<Ready>, PageError>> {
        let built = self.built(assignment)?;
        let league = built.head.get("round_robin").is_some();
        Some(match (group, &built.crosstable) {
            _ if !league => Ok(Arc::new(Ready::of(&json!({ "rows": [], "crosstable": [] })))),
            (None, Some(whole)) => Ok(whole.clone()),
            (None, None) => Err(PageError::Bad(format!(
                "the crosstable of {} groups comes one group at a time: ask with ?group=NAME",
                built.ranked.len()
            ))),
            (Some(group), _) => one_row(&built, group),
        })
    }
}

/// `group`'s row of the crosstable, with the rows of those it met.
fn one_row(built: &Built, group: &str) -> Result<Arc<Ready>, PageError> {
    let row = built
        .ranked
        .iter()
        .find(|r| r["name"] == group)
        .ok_or_else(|| PageError::NoGroup(group.to_string()))?;
    let id = row["id"].as_u64().unwrap_or_default();
    let mine = built.met.get(id as usize).map(Vec::as_slice).unwrap_or_default();
    let met: Vec<Value> =
        mine.iter().map(|(opponent, wdl)| league::cell(id as usize, *opponent, wdl)).collect();
    let opponents: std::collections::HashSet<u64> = mine.iter().map(|&(o, _)| o as u64).collect();
    let rows: Vec<&Value> = built
        .ranked
        .iter()
        .filter(|r| r["id"].as_u64().is_some_and(|o| o == id || opponents.contains(&o)))
        .collect();
    Ok(Arc::new(Ready::of(&json!({ "rows": rows, "crosstable": met }))))
}

/// The page `query` asks of `built`.
fn page(built: &Built, query: &PageQuery) -> Result<Value, PageError> {
    let limit = query.limit.unwrap_or(PAGE);
    if limit == 0 {
        return Err(PageError::Bad("limit must be at least 1".into()));
    }
    let limit = limit.min(PAGE);
    let q = query.q.as_deref().map(str::to_lowercase);
    if q.as_ref().is_some_and(|q| q.chars().count() > 100) {
        return Err(PageError::Bad("a search (q) of at most 100 characters".into()));
    }
    // A list's page: its rows, how many match, and where the page starts.
    let cut = |list: &[Value], key: &str| -> Result<(Vec<Value>, usize, usize), PageError> {
        let name = |row: &Value| row[key].as_str().unwrap_or_default().to_owned();
        let kept: Vec<&Value> = match &q {
            Some(q) => list.iter().filter(|row| name(row).to_lowercase().contains(q)).collect(),
            None => list.iter().collect(),
        };
        let offset = match &query.group {
            Some(group) => match kept.iter().position(|row| row[key] == group.as_str()) {
                Some(at) => at.saturating_sub(limit / 2),
                None => return Err(PageError::NoGroup(group.clone())),
            },
            None => query.offset.unwrap_or(0),
        };
        Ok((kept.iter().skip(offset).take(limit).map(|row| (*row).clone()).collect(), kept.len(), offset))
    };
    let (groups, groups_total, groups_start) = cut(&built.groups, "group")?;
    let league = built.head.get("round_robin").is_some();
    let (ranked, ranked_total, ranked_start) = match cut(&built.ranked, if league { "name" } else { "group" })
    {
        // A group without a graded submission is on neither list; one not
        // in the league yet is on the groups' only.
        Err(PageError::NoGroup(_)) if query.group.is_some() && groups_total > 0 => (Vec::new(), 0, 0),
        other => other?,
    };
    let totals = Totals { groups: groups_total, ranked: ranked_total, field: built.ranked.len() };
    Ok(answer(&built.head, groups, ranked, totals, [groups_start, ranked_start], query))
}

/// How many rows match a page's query: groups, ranked rows, and the
/// ranked rows in all.
struct Totals {
    groups: usize,
    ranked: usize,
    field: usize,
}

/// The leaderboard's JSON: `head` with the lists and where they stand
/// (`totals`, and `starts`: the groups' and the ranked rows' first row's
/// place among those that match; with `?group` each list is around it).
fn answer(
    head: &Value,
    groups: Vec<Value>,
    ranked: Vec<Value>,
    totals: Totals,
    starts: [usize; 2],
    query: &PageQuery,
) -> Value {
    let mut board = head.clone();
    board["groups"] = Value::Array(groups);
    match board.get_mut("round_robin") {
        Some(rr) => rr["standings"]["rows"] = Value::Array(ranked),
        None => board["scores"]["rows"] = Value::Array(ranked),
    }
    board["page"] = json!({
        "offset": query.offset.unwrap_or(0),
        "limit": query.limit.unwrap_or(PAGE).clamp(1, PAGE),
        "groups": totals.groups,
        "ranked": totals.ranked,
        "field": totals.field,
        "starts": { "groups": starts[0], "ranked": starts[1] },
        "q": query.q,
        "group": query.group,
    });
    board
}

/// `assignment`'s board: every group's latest grade as the public may see
/// it, the queue, and the league's standings with its crosstable or, for a
/// single-player game, the mean scores against the levels'.
fn build(
    db: &Connection,
    assignment: &Assignment,
    live: Option<&Arc<Mutex<league::Live>>>,
    before: Option<&Built>,
) -> Result<Built> {
    let fingerprint = db::latest_graded_fingerprint(db, &assignment.name)?;
    let (latest, groups) = match before {
        Some(before) if before.fingerprint == fingerprint => (before.latest.clone(), before.groups.clone()),
        _ => {
            let latest = db::latest_graded(db, &assignment.name)?;
            let groups: Vec<_> = latest
                .iter()
                .map(|s| {
                    let grade = s.grade.as_ref().map(views::public_grade);
                    json!({ "group": s.group, "submission": s.id, "finished": s.finished, "grade": grade })
                })
                .collect();
            (Arc::new(latest), Arc::new(groups))
        }
    };
    let (waiting, grading) = db::queue(db, Some(&assignment.name))?;
    let grading = grading.map(|(played, total)| json!({ "played": played, "total": total }));
    let mut head = json!({
        "assignment": assignment.name,
        "game": assignment.game.name(),
        "queue": { "waiting": waiting, "grading": grading },
    });
    let (ranked, met) = match live {
        Some(live) => {
            let mut live = live.lock().unwrap_or_else(|e| e.into_inner());
            live.sync_with(db, &latest)?;
            let table = live.standings();
            head["round_robin"] = json!({
                "games_per_pairing": league::GAMES,
                "games_to_play": live.round_robin_games(),
                "standings": { "games": table.games },
            });
            (table.rows, table.met)
        }
        None => {
            let (rows, levels) = mean_scores(&latest);
            head["scores"] = json!({ "levels": levels });
            (rows, Vec::new())
        }
    };
    let crosstable = (live.is_some() && ranked.len() <= WHOLE_CROSSTABLE).then(|| {
        let cells: Vec<Value> = met
            .iter()
            .enumerate()
            .flat_map(|(player, row)| {
                row.iter().map(move |(opponent, wdl)| league::cell(player, *opponent, wdl))
            })
            .collect();
        Arc::new(Ready::of(&json!({ "rows": ranked, "crosstable": cells })))
    });
    let totals = Totals { groups: groups.len(), ranked: ranked.len(), field: ranked.len() };
    let first_page = answer(
        &head,
        groups.iter().take(PAGE).cloned().collect(),
        ranked.iter().take(PAGE).cloned().collect(),
        totals,
        [0, 0],
        &PageQuery::default(),
    );
    Ok(Built {
        first: Arc::new(Ready::of(&first_page)),
        head,
        groups,
        latest,
        fingerprint,
        ranked,
        met,
        crosstable,
    })
}

/// A single-player assignment's table: each group's mean score on the
/// grading's worlds (every submission plays the same ones) ranked, and the
/// levels' means on them.
fn mean_scores(latest: &[db::Submission]) -> (Vec<Value>, Vec<Value>) {
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
    (rows, levels)
}
