//! Scrimmages: a group challenges another group's current submission (its
//! latest graded one) of the same two-player assignment to a short,
//! unranked match: [`GAMES`] games, seat-swapped pairs on shared seeds
//! the server draws (neither group chooses anything but the opponent).
//! A group makes at most [`PER_HOUR`] challenges an hour, refused ones
//! too (`challenges`); both groups see the scrimmage in their history,
//! and open its replays.
//!
//! A scrimmage is a round-robin tournament file of the two players in
//! `DATA/scrimmages/<id>/`, played by one thread, one at a time, through
//! the tournament runner (isolated, sandboxed workers, a journal: one
//! interrupted by a crash resumes, playing no game twice), on a core of
//! the server's pool (after grading, before the league).
//!
//! No group can hold the queue: the next scrimmage is the challenger's
//! that was served least recently, and each is a bounded job (its games
//! at [`TURNS_PER_GAME`] turns each, by default): past it, it is cut,
//! and the games played count. Staff can cancel one, waiting or playing.

use std::{
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use anyhow::{Context, Result};
use axum::{
    extract::{FromRequest, Request, State},
    http::{header, StatusCode},
    response::{Html, IntoResponse},
    Json,
};
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use serde_json::{json, Value};

use crate::{
    course::Course,
    http::auth::Student,
    http::connections as http,
    http::extract::{JsonBody, ListQuery, UrlPath, UrlQuery},
    http::headers,
    store::db::{self, status},
    store::files as store,
    store::secret::{Purpose, Secret},
    work::full_disk::FullDisk,
    work::replays,
    work::waiting::Postponed,
    work::wake::Wake,
    work::work_log::Work,
    Answer, ApiError, App, AssignmentQuery,
};
use arena_core::tournament::{self, config::Tournament, record::GameResult, Observer};

/// Games of a scrimmage (seat-swapped pairs).
pub const GAMES: u32 = 10;

/// Scrimmages a group may start in an hour.
pub const PER_HOUR: u32 = 4;

/// The folder of scrimmages inside the data folder.
pub const FOLDER: &str = "scrimmages";

/// The turns' time a scrimmage's game may take on average (`serve
/// --scrimmage-turns`): a Trap game is about 20 turns, half of them each
/// player's, so a scrimmage of players that think for their whole budget
/// fits.
pub const TURNS_PER_GAME: u32 = 15;

/// A scrimmage staff cancelled (waiting, or stopped after its game under
/// way), and one cut at its time bound: the games played count.
pub const CANCELLED: &str = "cancelled";
pub const CUT: &str = "cut";

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

/// A challenge under way: it holds one of its group's places in the
/// hourly limit, whatever comes of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempt(i64);

/// Takes one of `student`'s group's [`PER_HOUR`] places for a challenge
/// about to be read, counting and recording it in one transaction (before
/// its body is read, as `db::start_upload` does for uploads): a refused
/// challenge counts as a made one. `Err` (`429`) when none is left.
pub fn start_challenge(
    db: &Connection,
    student: &db::Student,
) -> Result<std::result::Result<Attempt, Refusal>> {
    let tx = db::writing(db)?;
    let (made, oldest): (u32, Option<String>) = tx.query_row(
        "SELECT COUNT(*), MIN(created) FROM challenges WHERE group_id = ?1 AND created > datetime('now', '-1 hour')",
        [student.group],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?;
    if made >= PER_HOUR {
        return Ok(Err((
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "{made} challenges in the last hour, refused ones too, the most a group may make: the next \
                 an hour after {} (UTC)",
                oldest.unwrap_or_default()
            ),
        )));
    }
    tx.execute("INSERT INTO challenges (group_id, student) VALUES (?1, ?2)", [student.group, student.id])?;
    let attempt = Attempt(tx.last_insert_rowid());
    tx.commit()?;
    Ok(Ok(attempt))
}

/// Records why `attempt` was refused (it still counts).
pub fn refuse_challenge(db: &Connection, attempt: Attempt, why: &str) -> Result<()> {
    db.execute("UPDATE challenges SET refused = ?2 WHERE id = ?1", params![attempt.0, why])?;
    Ok(())
}

/// Records `attempt`, `student`'s group's challenge to group `opponent` in
/// `assignment`, as a scrimmage: its id, or why not (the group itself, no
/// current submission on either side). Only competing groups play
/// (`db::competes`): staff's testing group neither challenges nor is
/// challenged, nor shows that it exists.
pub fn challenge_in(
    db: &Connection,
    attempt: Attempt,
    student: &db::Student,
    opponent: &str,
    assignment: &str,
) -> Result<std::result::Result<i64, Refusal>> {
    let tx = db::writing(db)?;
    let refuse = |status: StatusCode, why: String| Ok(Err((status, why)));
    if !db::competes(&tx, student.group)? {
        return refuse(
            StatusCode::FORBIDDEN,
            "your group is staff's, for testing: it plays no scrimmage (`--compete` makes it compete)".into(),
        );
    }
    let current = |group: i64| -> rusqlite::Result<Option<i64>> {
        tx.query_row(
            "SELECT MAX(id) FROM submissions WHERE group_id = ?1 AND assignment = ?2 AND status = ?3",
            params![group, assignment, status::DONE],
            |row| row.get(0),
        )
    };
    let named = db::group_named(&tx, opponent)?;
    if named == Some(student.group) {
        return refuse(StatusCode::BAD_REQUEST, "a group cannot challenge itself: name another group".into());
    }
    // A group that does not compete (staff's testing) is no opponent either.
    let them = match named {
        Some(them) if db::competes(&tx, them)? => Some(them),
        _ => None,
    };
    let Some(ours) = current(student.group)? else {
        return refuse(
            StatusCode::CONFLICT,
            format!("your group has no graded submission for {assignment} yet: a scrimmage plays it"),
        );
    };
    // No such group and a group with nothing graded get one answer: group
    // names are students' ids, and two answers would tell which exist.
    // 404, as there is no opponent to play under that name either way (a
    // 409 would say that the group is there, in the wrong state).
    let theirs = match them {
        Some(them) => current(them)?.map(|theirs| (them, theirs)),
        None => None,
    };
    let Some((them, theirs)) = theirs else {
        return refuse(
            StatusCode::NOT_FOUND,
            format!("no group named '{opponent}' has a graded submission for {assignment}"),
        );
    };
    tx.execute(
        "INSERT INTO scrimmages (assignment, challenger, opponent, by_student, a, b, status, total)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![assignment, student.group, them, student.id, ours, theirs, status::QUEUED, GAMES],
    )?;
    let id = tx.last_insert_rowid();
    tx.execute("UPDATE challenges SET scrimmage = ?2 WHERE id = ?1", params![attempt.0, id])?;
    tx.commit()?;
    Ok(Ok(id))
}

/// A page of group `group`'s scrimmages, either side, newest first.
pub fn of_group(db: &Connection, group: i64, page: db::Newest) -> Result<db::Page<Scrimmage>> {
    db::newest_page(
        db,
        (SCRIMMAGE, "s.challenger = ?1 OR s.opponent = ?1", "s.id"),
        group,
        page,
        scrimmage,
        |s| s.id,
    )
}

/// Scrimmage `id` if group `group` is one of its sides.
pub(crate) fn of_group_one(db: &Connection, id: i64, group: i64) -> Result<Option<Scrimmage>> {
    Ok(db
        .query_row(
            &format!("{SCRIMMAGE} WHERE s.id = ?1 AND (s.challenger = ?2 OR s.opponent = ?2)"),
            params![id, group],
            scrimmage,
        )
        .optional()?)
}

/// The next scrimmage to play: one a crash interrupted first, else a
/// waiting one of the challenger served least recently (whose latest
/// scrimmage played is oldest; never served first), its oldest; marked
/// playing. A group that asks for many waits its turn behind the others.
fn next(db: &Connection) -> Result<Option<Scrimmage>> {
    let found = db
        .query_row(
            &format!(
                "{SCRIMMAGE} WHERE s.status IN (?1, ?2)
                 ORDER BY s.status = ?1,
                          (SELECT MAX(p.id) FROM scrimmages p WHERE p.challenger = s.challenger
                                AND p.status NOT IN (?1, ?3)),
                          s.id
                 LIMIT 1"
            ),
            params![status::QUEUED, status::PLAYING, CANCELLED],
            scrimmage,
        )
        .optional()?;
    if let Some(found) = &found {
        db.execute("UPDATE scrimmages SET status = ?2 WHERE id = ?1", params![found.id, status::PLAYING])?;
    }
    Ok(found)
}

/// Plays scrimmages as they are asked for, forever (one at a time), each
/// within its games at `turns` turns each; none while the disk is full
/// (`disk`), and one that finds it full waits for room, never failed for it.
pub fn play_forever(
    dir: &Path,
    db: &Connection,
    course: &Course,
    (wake, changed): (&Wake, &Wake),
    disk: &FullDisk,
    turns: u32,
) {
    loop {
        disk.wait_for_room();
        match next(db) {
            Ok(Some(scrimmage)) => {
                changed.notify();
                let work = Work::start(
                    "scrimmage",
                    scrimmage.id,
                    format!(
                        "{} challenges {}, assignment {}",
                        scrimmage.challenger, scrimmage.opponent, scrimmage.assignment
                    ),
                );
                let played = play(dir, db, course, &scrimmage, changed, turns);
                match &played {
                    Ok((result, ended)) => work.done(&format!("{ended}: the challenger's {result}")),
                    Err(e) if disk.hit(e) => {
                        // Left playing: taken again first once the disk has room.
                        work.waits(&Postponed::DiskFull.to_string(), None);
                        continue;
                    }
                    Err(e) => work.failed(&format!("{e:#}")),
                }
                // Staff's cancel stands; a scrimmage stopped at its bound is cut.
                let recorded = match played {
                    Ok((result, ended)) => db.execute(
                        "UPDATE scrimmages SET status = CASE status WHEN ?4 THEN ?4 ELSE ?2 END, result = ?3,
                         finished = datetime('now') WHERE id = ?1",
                        params![scrimmage.id, ended, result.to_string(), CANCELLED],
                    ),
                    Err(e) => db.execute(
                        "UPDATE scrimmages SET status = ?2, error = ?3, finished = datetime('now') WHERE id = ?1",
                        params![scrimmage.id, status::FAILED, format!("{e:#}")],
                    ),
                };
                changed.notify();
                match recorded.map_err(anyhow::Error::from) {
                    Err(e) if disk.hit(&e) => {}
                    Err(e) => {
                        tracing::error!("scrimmage {}: its result not recorded: {e:#}", scrimmage.id);
                        wake.wait(Duration::from_secs(5));
                    }
                    Ok(_) => {}
                }
            }
            Ok(None) => wake.wait(Duration::from_secs(2)),
            Err(e) if disk.hit(&e) => {}
            Err(e) => {
                tracing::error!("the scrimmages cannot be read: {e:#}");
                wake.wait(Duration::from_secs(5));
            }
        }
    }
}

/// Plays (or resumes) `scrimmage` within its games at `turns` turns
/// each: the challenger's W/D/L, and how it ended (done, or cut at the
/// bound or by staff's cancel, the game under way finished).
fn play(
    dir: &Path,
    db: &Connection,
    course: &Course,
    scrimmage: &Scrimmage,
    changed: &Wake,
    turns: u32,
) -> Result<(Value, &'static str)> {
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
    // The server's seeds: each scrimmage its own, from the folder's secret
    // (no player can predict them), neither group's choice.
    let seed = Secret::of(db)?.seed(Purpose::Scrimmage, &scrimmage.id.to_string());
    file.insert("seed".into(), (seed as i64).into());
    file.insert("output".into(), replays::OUTPUT.into());
    file.insert("games_per_pairing".into(), i64::from(GAMES).into());
    file.insert("concurrency".into(), 1.into());
    // Each side by its group: two players that report the same name would
    // be told apart by their paths, in the feeds' and replays' titles.
    let groups = [&scrimmage.challenger, &scrimmage.opponent];
    let players =
        players.iter().zip(groups).map(|(player, group)| store::named_entry(player, group)).collect();
    file.insert("players".into(), toml::Value::Array(players));
    // Both groups see every replay: neither sees the other's notes, so
    // none are kept (a group reads its own in its grading's replays).
    let mut replays = replays::replays_table("all");
    replays.insert("notes".into(), false.into());
    file.insert("replays".into(), replays.into());
    if !assignment.settings.is_empty() {
        file.insert("settings".into(), assignment.settings.clone().into());
    }
    let path = folder.join("scrimmage.toml");
    std::fs::write(&path, toml::to_string(&file)?)
        .with_context(|| format!("cannot write {}", path.display()))?;
    let tournament = Tournament::load(&path)?;
    let bound = tournament.budgets.turn.turn_ceiling() * GAMES * turns + tournament.budgets.startup;
    let stop = AtomicBool::new(false);
    let cut = AtomicBool::new(false);
    let mut progress = ScrimmageProgress { db, id: scrimmage.id, played: 0, changed };
    let outcome = std::thread::scope(|scope| {
        let watch = scope.spawn(|| watch(dir, scrimmage.id, bound, &stop, &cut));
        let outcome = tournament::run(tournament, &stop, &mut progress);
        stop.store(true, Ordering::SeqCst);
        let _ = watch.join();
        outcome
    })?;
    let ended = match outcome.interrupted {
        false => status::DONE,
        true if cut.load(Ordering::SeqCst) => CUT,
        true => CANCELLED,
    };
    if ended == CUT {
        tracing::info!(
            "scrimmage {}: cut after {:.0} s ({} of {} games played)",
            scrimmage.id,
            bound.as_secs_f64(),
            outcome.results.len(),
            GAMES
        );
    }
    let mut result = challenger_wdl(&outcome.results);
    if outcome.replays_left_out > 0 {
        result["replays_left_out"] = outcome.replays_left_out.into();
    }
    // Games the machine spoiled count for neither side: left out, said so.
    if outcome.postponed > 0 {
        result["spoiled"] = outcome.postponed.into();
    }
    Ok((result, ended))
}

/// Stops scrimmage `id` (sets `stop`) once it has run for `bound` (and
/// says so in `cut`) or staff cancelled it; returns when `stop` is set.
fn watch(dir: &Path, id: i64, bound: Duration, stop: &AtomicBool, cut: &AtomicBool) {
    let started = Instant::now();
    let db = db::open(dir);
    while !stop.load(Ordering::SeqCst) {
        if started.elapsed() >= bound {
            cut.store(true, Ordering::SeqCst);
            stop.store(true, Ordering::SeqCst);
            return;
        }
        let cancelled = db.as_ref().ok().and_then(|db| {
            db.query_row("SELECT status = ?2 FROM scrimmages WHERE id = ?1", params![id, CANCELLED], |row| {
                row.get::<_, bool>(0)
            })
            .ok()
        });
        if cancelled == Some(true) {
            stop.store(true, Ordering::SeqCst);
            return;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Staff's cancel of scrimmage `id`: a waiting one ends now, a playing one
/// after its game under way. Its status then, or None if there is no
/// such scrimmage; one already over keeps its status.
pub fn cancel(db: &Connection, id: i64) -> Result<Option<String>> {
    db.execute(
        "UPDATE scrimmages SET status = ?2, finished = CASE status WHEN ?3 THEN datetime('now') END
         WHERE id = ?1 AND status IN (?3, ?4)",
        params![id, CANCELLED, status::QUEUED, status::PLAYING],
    )?;
    Ok(db.query_row("SELECT status FROM scrimmages WHERE id = ?1", [id], |row| row.get(0)).optional()?)
}

/// Every scrimmage, newest first (the latest `limit`), for staff.
pub fn all(db: &Connection, limit: u32) -> Result<Vec<Scrimmage>> {
    let mut query = db.prepare(&format!("{SCRIMMAGE} ORDER BY s.id DESC LIMIT ?1"))?;
    let rows = query.query_map([limit], scrimmage)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
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
struct ScrimmageProgress<'a> {
    db: &'a Connection,
    id: i64,
    played: usize,
    changed: &'a Wake,
}

impl Observer for ScrimmageProgress<'_> {
    fn start(&mut self, _: usize, done: &[GameResult]) {
        self.played = done.len();
        self.save();
    }

    fn game(&mut self, _: &GameResult, _: &[String]) {
        self.played += 1;
        self.save();
    }

    /// Its games fed live, for its two groups (and staff) to watch.
    fn live(&self) -> Option<arena_core::replay::live::Live> {
        Some(crate::http::live::feeds().scoped(&crate::http::live::Scope::Scrimmage(self.id).mark()))
    }
}

impl ScrimmageProgress<'_> {
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
    replays::folder_of(&folder(dir, id))
}

/// `POST /api/scrimmages` with `{"opponent": GROUP, "assignment": NAME}`
/// (the assignment may be left out when the course has one): `201` and
/// the scrimmage's id. The token is checked and the challenge counted
/// against the group's hourly limit before the body is read; every
/// challenge counts, accepted or refused.
pub(crate) async fn challenge(
    State(app): State<Arc<App>>,
    Student(student): Student,
    request: Request,
) -> Answer {
    let who = student.clone();
    let started = app.db(move |db| start_challenge(db, &who)).await?;
    let attempt = match started {
        Ok(attempt) => attempt,
        Err((status, why)) => {
            // Over the limit: the body (small: `http::bounded`) is read and
            // dropped, so that a client still sending sees why.
            let _ = axum::body::to_bytes(request.into_body(), http::JSON_BODY_LIMIT).await;
            return Err(ApiError::new(status, why));
        }
    };
    match record_challenge(&app, student, attempt, request).await {
        Ok(id) => {
            app.wake.notify();
            app.changed.notify();
            Ok((StatusCode::CREATED, Json(json!({ "id": id, "status": status::QUEUED }))).into_response())
        }
        Err(refused) => {
            let why = refused.1.clone();
            if let Err(e) = app.db(move |db| refuse_challenge(db, attempt, &why)).await {
                tracing::warn!("challenge {}: its refusal not recorded: {}", attempt.0, e.1);
            }
            Err(refused)
        }
    }
}

/// Reads and checks challenge `attempt` (its body is `request`'s), and
/// records the scrimmage it asks for: its id.
async fn record_challenge(
    app: &Arc<App>,
    student: db::Student,
    attempt: Attempt,
    request: Request,
) -> Result<i64, ApiError> {
    let JsonBody(body) = JsonBody::<Value>::from_request(request, app).await?;
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
    let made = app.db(move |db| challenge_in(db, attempt, &student, &opponent, &name)).await?;
    made.map_err(|(status, why)| ApiError::new(status, why))
}

/// `GET /api/scrimmages/opponents?assignment=NAME`: the groups the
/// caller's group may challenge there: those the public leaderboard lists
/// (competing, with a graded submission that counts; `db::latest_graded`),
/// but the caller's own. Nothing more is told of any group.
pub(crate) async fn opponents(
    State(app): State<Arc<App>>,
    Student(student): Student,
    UrlQuery(of): UrlQuery<AssignmentQuery>,
) -> Answer {
    let name = of.in_course(&app.course)?.name.clone();
    let group = student.group;
    let groups = app
        .db(move |db| {
            let ours = db::group(db, group)?.name;
            let latest = db::latest_graded(db, &name)?;
            Ok(latest.into_iter().map(|s| s.group).filter(|g| *g != ours).collect::<Vec<String>>())
        })
        .await?;
    Ok(Json(json!({ "opponents": groups })).into_response())
}

/// `GET /api/scrimmages?before=ID&limit=N`: a page of the caller's group's
/// scrimmages, either side, newest first, each with its replays once
/// played, with the list's total and the next page's address.
pub(crate) async fn list(
    State(app): State<Arc<App>>,
    Student(student): Student,
    UrlQuery(asked): UrlQuery<ListQuery>,
) -> Answer {
    let (group, page) = (student.group, asked.page()?);
    let scrimmages = app.db(move |db| of_group(db, group, page)).await?;
    let mut answer = json!({ "per_hour": PER_HOUR, "games": GAMES });
    ListQuery::place(&mut answer, "/api/scrimmages", page, &scrimmages);
    let listed: Vec<Value> = scrimmages
        .rows
        .into_iter()
        .map(|s| {
            let replays: Vec<Value> = replays::viewers_in(&replay_folder(&app.data, s.id))
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
    answer["scrimmages"] = Value::Array(listed);
    Ok(Json(answer).into_response())
}

/// `GET /api/scrimmages/{id}/replays/{name}`: a game's viewer, for either
/// group of the scrimmage.
pub(crate) async fn replay_viewer(
    State(app): State<Arc<App>>,
    Student(student): Student,
    UrlPath((id, name)): UrlPath<(i64, String)>,
) -> Answer {
    let group = student.group;
    app.db(move |db| of_group_one(db, id, group))
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("your group has no scrimmage {id}")))?;
    let html = replays::viewer_in(&replay_folder(&app.data, id), &name).ok_or_else(|| {
        ApiError::new(StatusCode::NOT_FOUND, format!("scrimmage {id} has no replay named '{name}'"))
    })?;
    let policy = headers::page_policy(&html);
    Ok(([(header::CONTENT_SECURITY_POLICY, policy)], Html(html)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Groups of one `m`, `v` and `o`, each with a graded submission of
    /// `project`.
    fn class() -> (tempfile::TempDir, Connection, [db::Student; 3]) {
        let dir = tempfile::tempdir().unwrap();
        let db = db::open(dir.path()).unwrap();
        let students = ["m", "v", "o"].map(|name| {
            let student =
                db::add_student(&db, name, &format!("h{name}"), false, db::Joining::Alone { compete: false })
                    .unwrap();
            db.execute(
                "INSERT INTO submissions (student, group_id, sha256, file_name, size, status, assignment)
                 VALUES (?1, ?2, 'aa', 'lib.so', 1, ?3, 'project')",
                params![student.id, student.group, status::DONE],
            )
            .unwrap();
            student
        });
        (dir, db, students)
    }

    fn challenge(db: &Connection, by: &db::Student, opponent: &str) -> i64 {
        let attempt = start_challenge(db, by).unwrap().unwrap();
        challenge_in(db, attempt, by, opponent, "project").unwrap().unwrap()
    }

    fn finish(db: &Connection, id: i64) {
        db.execute("UPDATE scrimmages SET status = ?2 WHERE id = ?1", params![id, status::DONE]).unwrap();
    }

    #[test]
    fn the_next_scrimmage_is_the_one_of_the_group_served_least_recently() {
        let (_dir, db, [m, v, _]) = class();
        let ms = [challenge(&db, &m, "o"), challenge(&db, &m, "o"), challenge(&db, &m, "o")];
        let vs = challenge(&db, &v, "o");
        let mut order = Vec::new();
        while let Some(next) = next(&db).unwrap() {
            assert_eq!(next.status, status::QUEUED);
            order.push(next.id);
            finish(&db, next.id);
        }
        // v asked last, but waits for one of m's only.
        assert_eq!(order, [ms[0], vs, ms[1], ms[2]]);
    }

    #[test]
    fn one_a_crash_interrupted_is_taken_up_first() {
        let (_dir, db, [m, v, _]) = class();
        let first = challenge(&db, &m, "o");
        let second = challenge(&db, &v, "o");
        db.execute("UPDATE scrimmages SET status = ?2 WHERE id = ?1", params![second, status::PLAYING])
            .unwrap();
        assert_eq!(next(&db).unwrap().unwrap().id, second);
        assert_eq!(next(&db).unwrap().unwrap().id, second, "still playing: taken up again");
        finish(&db, second);
        assert_eq!(next(&db).unwrap().unwrap().id, first);
    }

    #[test]
    fn a_cancelled_scrimmage_is_never_played_and_one_over_keeps_its_status() {
        let (_dir, db, [m, v, _]) = class();
        let waiting = challenge(&db, &m, "o");
        let over = challenge(&db, &v, "o");
        finish(&db, over);
        assert_eq!(cancel(&db, waiting).unwrap().as_deref(), Some(CANCELLED));
        assert_eq!(cancel(&db, over).unwrap().as_deref(), Some(status::DONE));
        assert_eq!(cancel(&db, 999).unwrap(), None);
        assert!(next(&db).unwrap().is_none(), "nothing left to play");
        // A cancelled scrimmage does not count as the group's turn served.
        let again = challenge(&db, &m, "o");
        let theirs = challenge(&db, &v, "o");
        assert_eq!(next(&db).unwrap().unwrap().id, again, "m was never served; v was");
        finish(&db, again);
        assert_eq!(next(&db).unwrap().unwrap().id, theirs);
        let listed: Vec<i64> = all(&db, 2).unwrap().iter().map(|s| s.id).collect();
        assert_eq!(listed, [theirs, again], "newest first, as many as asked");
    }
}
