//! Scrimmages: a group challenges another group's current submission (its
//! latest graded one) of the same two-player assignment to a short,
//! unranked match: [`GAMES`] games, seat-swapped pairs on shared seeds
//! the server draws (neither group chooses anything but the opponent).
//! A group starts at most [`PER_HOUR`] an hour; both groups see the
//! scrimmage in their history, and open its replays.
//!
//! A scrimmage is a round-robin tournament file of the two players in
//! `DATA/scrimmages/<id>/`, played by one thread, one at a time, through
//! the tournament runner (isolated, sandboxed workers, a journal: one
//! interrupted by a crash resumes, playing no game twice).

use std::{
    path::{Path, PathBuf},
    sync::{atomic::AtomicBool, Arc},
    time::Duration,
};

use anyhow::{Context, Result};
use axum::{
    extract::{Path as UrlPath, State},
    http::{header, StatusCode},
    response::{Html, IntoResponse},
    Json,
};
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use serde_json::{json, Value};

use super::{
    auth::Student,
    course::Course,
    db::{self, status},
    grader::{self, Wake},
    headers, store, Answer, ApiError, App,
};
use crate::tournament::{self, config::Tournament, record::GameResult, Observer};

/// Games of a scrimmage (seat-swapped pairs).
pub const GAMES: u32 = 10;

/// Scrimmages a group may start in an hour.
pub const PER_HOUR: u32 = 4;

/// The folder of scrimmages inside the data folder.
pub const FOLDER: &str = "scrimmages";

/// A scrimmage as both groups see it.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Scrimmage {
    pub id: i64,
    pub assignment: String,
    /// The group that challenged, and the one challenged.
    pub challenger: String,
    pub opponent: String,
    /// Their submissions, as they were when it was asked for.
    pub submissions: [i64; 2],
    pub status: String,
    pub played: i64,
    pub total: i64,
    /// The challenger's wins, draws and losses, once played.
    pub result: Option<Value>,
    /// Why it could not be played.
    pub error: Option<String>,
    pub created: String,
    pub finished: Option<String>,
}

const SCRIMMAGE: &str = "SELECT s.id, s.assignment, c.name, o.name, s.a, s.b, s.status, s.played, s.total,
    s.result, s.error, s.created, s.finished FROM scrimmages s
    JOIN groups c ON c.id = s.challenger JOIN groups o ON o.id = s.opponent";

fn scrimmage(row: &rusqlite::Row<'_>) -> rusqlite::Result<Scrimmage> {
    let result: Option<String> = row.get(9)?;
    Ok(Scrimmage {
        id: row.get(0)?,
        assignment: row.get(1)?,
        challenger: row.get(2)?,
        opponent: row.get(3)?,
        submissions: [row.get(4)?, row.get(5)?],
        status: row.get(6)?,
        played: row.get(7)?,
        total: row.get(8)?,
        result: result.and_then(|r| serde_json::from_str(&r).ok()),
        error: row.get(10)?,
        created: row.get(11)?,
        finished: row.get(12)?,
    })
}

/// Why a challenge is refused: a status and the words.
type Refusal = (StatusCode, String);

/// Records `student`'s group's challenge to group `opponent` in
/// `assignment`: its id, or why not (no such group, no current submission
/// on either side, the hourly limit).
pub fn challenge_in(
    db: &Connection,
    student: &db::Student,
    opponent: &str,
    assignment: &str,
) -> Result<std::result::Result<i64, Refusal>> {
    let tx = rusqlite::Transaction::new_unchecked(db, rusqlite::TransactionBehavior::Immediate)?;
    let refuse = |status: StatusCode, why: String| Ok(Err((status, why)));
    let Some(them) = tx
        .query_row("SELECT id FROM groups WHERE name = ?1", [opponent], |row| row.get::<_, i64>(0))
        .optional()?
    else {
        return refuse(StatusCode::NOT_FOUND, format!("no group named '{opponent}'"));
    };
    if them == student.group {
        return refuse(StatusCode::BAD_REQUEST, "a group cannot challenge itself: name another group".into());
    }
    let current = |group: i64| -> rusqlite::Result<Option<i64>> {
        tx.query_row(
            "SELECT MAX(id) FROM submissions WHERE group_id = ?1 AND assignment = ?2 AND status = ?3",
            params![group, assignment, status::DONE],
            |row| row.get(0),
        )
    };
    let Some(ours) = current(student.group)? else {
        return refuse(
            StatusCode::CONFLICT,
            format!("your group has no graded submission for {assignment} yet: a scrimmage plays it"),
        );
    };
    let Some(theirs) = current(them)? else {
        return refuse(
            StatusCode::CONFLICT,
            format!("group '{opponent}' has no graded submission for {assignment} yet"),
        );
    };
    let (started, oldest): (u32, Option<String>) = tx.query_row(
        "SELECT COUNT(*), MIN(created) FROM scrimmages WHERE challenger = ?1 AND created > datetime('now', '-1 hour')",
        [student.group],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?;
    if started >= PER_HOUR {
        return refuse(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "{started} scrimmages in the last hour, the most a group may start: the next an hour after {} (UTC)",
                oldest.unwrap_or_default()
            ),
        );
    }
    tx.execute(
        "INSERT INTO scrimmages (assignment, challenger, opponent, by_student, a, b, status, total)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![assignment, student.group, them, student.id, ours, theirs, status::QUEUED, GAMES],
    )?;
    let id = tx.last_insert_rowid();
    tx.commit()?;
    Ok(Ok(id))
}

/// Group `group`'s scrimmages, either side, newest first.
pub fn of_group(db: &Connection, group: i64) -> Result<Vec<Scrimmage>> {
    let mut query =
        db.prepare(&format!("{SCRIMMAGE} WHERE s.challenger = ?1 OR s.opponent = ?1 ORDER BY s.id DESC"))?;
    let rows = query.query_map([group], scrimmage)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Scrimmage `id` if group `group` is one of its sides.
fn of_group_one(db: &Connection, id: i64, group: i64) -> Result<Option<Scrimmage>> {
    Ok(db
        .query_row(
            &format!("{SCRIMMAGE} WHERE s.id = ?1 AND (s.challenger = ?2 OR s.opponent = ?2)"),
            params![id, group],
            scrimmage,
        )
        .optional()?)
}

/// The next scrimmage to play: one a crash interrupted first, else the
/// oldest waiting; marked playing.
fn next(db: &Connection) -> Result<Option<Scrimmage>> {
    let found = db
        .query_row(
            &format!("{SCRIMMAGE} WHERE s.status IN (?1, ?2) ORDER BY s.status = ?1, s.id LIMIT 1"),
            params![status::QUEUED, status::PLAYING],
            scrimmage,
        )
        .optional()?;
    if let Some(found) = &found {
        db.execute("UPDATE scrimmages SET status = ?2 WHERE id = ?1", params![found.id, status::PLAYING])?;
    }
    Ok(found)
}

/// Plays scrimmages as they are asked for, forever (one at a time).
pub fn play_forever(dir: &Path, db: &Connection, course: &Course, wake: &Wake, changed: &Wake) {
    loop {
        match next(db) {
            Ok(Some(scrimmage)) => {
                changed.notify();
                let played = play(dir, db, course, &scrimmage, changed);
                let recorded = match played {
                    Ok(result) => db.execute(
                        "UPDATE scrimmages SET status = ?2, result = ?3, finished = datetime('now') WHERE id = ?1",
                        params![scrimmage.id, status::DONE, result.to_string()],
                    ),
                    Err(e) => db.execute(
                        "UPDATE scrimmages SET status = ?2, error = ?3, finished = datetime('now') WHERE id = ?1",
                        params![scrimmage.id, status::FAILED, format!("{e:#}")],
                    ),
                };
                changed.notify();
                if let Err(e) = recorded {
                    tracing::error!("scrimmage {}: its result not recorded: {e:#}", scrimmage.id);
                    wake.wait(Duration::from_secs(5));
                }
            }
            Ok(None) => wake.wait(Duration::from_secs(2)),
            Err(e) => {
                tracing::error!("the scrimmages cannot be read: {e:#}");
                wake.wait(Duration::from_secs(5));
            }
        }
    }
}

/// Plays (or resumes) `scrimmage`: the challenger's W/D/L.
fn play(
    dir: &Path,
    db: &Connection,
    course: &Course,
    scrimmage: &Scrimmage,
    changed: &Wake,
) -> Result<Value> {
    let assignment = course
        .assignment(&scrimmage.assignment)
        .with_context(|| format!("the server's course has no assignment {} now", scrimmage.assignment))?;
    let players = scrimmage
        .submissions
        .iter()
        .map(|&id| {
            let (sha256, player): (String, Option<String>) =
                db.query_row("SELECT sha256, player FROM submissions WHERE id = ?1", [id], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })?;
            store::player_entry(dir, &sha256, player.as_deref())
        })
        .collect::<Result<Vec<String>>>()?;
    let folder = folder(dir, scrimmage.id);
    std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let mut file = toml::Table::new();
    file.insert("name".into(), format!("scrimmage {}", scrimmage.id).into());
    file.insert("game".into(), assignment.game.name().into());
    file.insert("format".into(), "round-robin".into());
    // The server's seeds: each scrimmage its own, neither group's choice.
    file.insert("seed".into(), (grader::SEED as i64 + scrimmage.id).into());
    file.insert("output".into(), "out".into());
    file.insert("games_per_pairing".into(), i64::from(GAMES).into());
    file.insert("concurrency".into(), 1.into());
    file.insert("players".into(), toml::Value::Array(players.into_iter().map(Into::into).collect()));
    file.insert("replays".into(), grader::replays_table("all"));
    if !assignment.settings.is_empty() {
        file.insert("settings".into(), assignment.settings.clone().into());
    }
    let path = folder.join("scrimmage.toml");
    std::fs::write(&path, toml::to_string(&file)?)
        .with_context(|| format!("cannot write {}", path.display()))?;
    let never = AtomicBool::new(false);
    let mut progress = Progress { db, id: scrimmage.id, played: 0, changed };
    let outcome = tournament::run(Tournament::load(&path)?, &never, &mut progress)?;
    let mut result = challenger_wdl(&outcome.results);
    if outcome.replays_left_out > 0 {
        result["replays_left_out"] = outcome.replays_left_out.into();
    }
    Ok(result)
}

/// The challenger's (player 0's) wins, draws and losses in `results`.
fn challenger_wdl(results: &[GameResult]) -> Value {
    let count = |f: fn(Option<usize>) -> bool| results.iter().filter(|g| f(g.winner)).count();
    json!({
        "wins": count(|w| w == Some(0)),
        "draws": count(|w| w.is_none()),
        "losses": count(|w| w == Some(1)),
    })
}

/// Keeps a scrimmage's games played current.
struct Progress<'a> {
    db: &'a Connection,
    id: i64,
    played: usize,
    changed: &'a Wake,
}

impl Observer for Progress<'_> {
    fn start(&mut self, _: usize, done: &[GameResult]) {
        self.played = done.len();
        self.save();
    }

    fn game(&mut self, _: &GameResult, _: &[String]) {
        self.played += 1;
        self.save();
    }
}

impl Progress<'_> {
    fn save(&self) {
        let saved = self
            .db
            .execute("UPDATE scrimmages SET played = ?2 WHERE id = ?1", params![self.id, self.played as i64]);
        if let Err(e) = saved {
            tracing::warn!("scrimmage {}: progress not saved: {e:#}", self.id);
        }
        self.changed.notify();
    }
}

fn folder(dir: &Path, id: i64) -> PathBuf {
    dir.join(FOLDER).join(id.to_string())
}

fn replay_folder(dir: &Path, id: i64) -> PathBuf {
    folder(dir, id).join("out").join(tournament::replays::FOLDER)
}

/// `POST /api/scrimmages` with `{"opponent": GROUP, "assignment": NAME}`
/// (the assignment may be left out when the course has one): `201` and
/// the scrimmage's id.
pub(super) async fn challenge(
    State(app): State<Arc<App>>,
    Student(student): Student,
    Json(body): Json<Value>,
) -> Answer {
    let bad = |why: String| ApiError::new(StatusCode::BAD_REQUEST, why);
    let opponent = body["opponent"]
        .as_str()
        .ok_or_else(|| bad("send {\"opponent\": \"GROUP\", \"assignment\": \"NAME\"}".into()))?
        .to_string();
    let assignment = app
        .course
        .pick(body["assignment"].as_str())
        .map_err(|why| bad(format!("{why}: send it as `assignment`")))?;
    if assignment.game.is_single_player() {
        return Err(bad(format!(
            "{} is a single-player game: there is no one to play; its scores table compares groups",
            assignment.name
        )));
    }
    let name = assignment.name.clone();
    let made = app.db(move |db| challenge_in(db, &student, &opponent, &name)).await?;
    let id = made.map_err(|(status, why)| ApiError::new(status, why))?;
    app.wake.notify();
    app.changed.notify();
    Ok((StatusCode::CREATED, Json(json!({ "id": id, "status": status::QUEUED }))).into_response())
}

/// `GET /api/scrimmages`: the caller's group's scrimmages, either side,
/// newest first, each with its replays once played.
pub(super) async fn list(State(app): State<Arc<App>>, Student(student): Student) -> Answer {
    let group = student.group;
    let scrimmages = app.db(move |db| of_group(db, group)).await?;
    let listed: Vec<Value> = scrimmages
        .into_iter()
        .map(|s| {
            let replays: Vec<Value> = grader::viewers_in(&replay_folder(&app.data, s.id))
                .into_iter()
                .map(
                    |name| json!({ "name": name, "url": format!("/api/scrimmages/{}/replays/{name}", s.id) }),
                )
                .collect();
            let mut value = serde_json::to_value(&s).unwrap_or_default();
            value["replays"] = Value::Array(replays);
            value
        })
        .collect();
    Ok(Json(json!({ "scrimmages": listed, "per_hour": PER_HOUR, "games": GAMES })).into_response())
}

/// `GET /api/scrimmages/{id}/replays/{name}`: a game's viewer, for either
/// group of the scrimmage.
pub(super) async fn replay_viewer(
    State(app): State<Arc<App>>,
    Student(student): Student,
    UrlPath((id, name)): UrlPath<(i64, String)>,
) -> Answer {
    let group = student.group;
    app.db(move |db| of_group_one(db, id, group))
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("your group has no scrimmage {id}")))?;
    let html = grader::viewer_in(&replay_folder(&app.data, id), &name).ok_or_else(|| {
        ApiError::new(StatusCode::NOT_FOUND, format!("scrimmage {id} has no replay named '{name}'"))
    })?;
    let policy = headers::page_policy(&html);
    Ok(([(header::CONTENT_SECURITY_POLICY, policy)], Html(html)).into_response())
}
