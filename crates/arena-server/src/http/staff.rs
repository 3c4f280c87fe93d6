//! The staff's side of the API (a token added with `--staff`): the roster,
//! the groups, the queue, the deadline, and the final results (`finalize`, run in the
//! background; its grades as CSV), and what a student may see of those
//! final results: their own group's line.

use std::sync::{Arc, Mutex};

use axum::{
    extract::State,
    http::{header, StatusCode},
    response::IntoResponse,
    Json,
};
use serde_json::{json, Value};

use crate::{
    http::auth::{Staff, Student},
    http::extract::{JsonBody, UrlPath, UrlQuery},
    store::db,
    store::finals,
    work::finalize,
    work::scrimmage,
    work::work_log::Work,
    Answer, ApiError, App, AssignmentQuery,
};

/// Where the last `finalize` started from the API is.
#[derive(Default)]
pub struct Finalizing(Mutex<Value>);

/// `GET /api/staff/roster`: everyone, with their latest submission, and
/// each assignment's deadline.
pub async fn roster(State(app): State<Arc<App>>, _: Staff) -> Answer {
    let roster = app.db(db::roster).await?;
    let deadlines: serde_json::Map<String, Value> = app
        .course
        .assignments
        .iter()
        .map(|a| a.name.clone())
        .zip(app.deadlines().await?.into_iter().map(Value::from))
        .collect();
    let first = &deadlines[&app.course.assignments[0].name];
    Ok(Json(json!({ "students": roster, "deadline": first, "deadlines": deadlines })).into_response())
}

/// `GET /api/staff/groups`: every group, its members, its latest
/// submissions (who uploaded each), the start of its latest contribution
/// notes (`db::groups`: bounded, the page asks every 2 s), and the bytes it
/// takes on disk (`storage`, as last measured: `storage::Totals`; null
/// until the first measure is done, `storage_at` says when it was taken).
pub async fn groups(State(app): State<Arc<App>>, _: Staff) -> Answer {
    let groups = app.db(db::groups).await?;
    let measured = app.storage.latest(&app.data);
    let groups: Vec<Value> = groups
        .into_iter()
        .map(|group| {
            let bytes = measured.as_ref().map(|m| m.groups.get(&group.name).cloned().unwrap_or_default());
            let mut value = serde_json::to_value(&group).unwrap_or_default();
            value["storage"] = serde_json::to_value(bytes).unwrap_or_default();
            value
        })
        .collect();
    let at = measured.as_ref().map(|m| m.at.clone());
    Ok(Json(json!({ "groups": groups, "storage_at": at })).into_response())
}

/// `GET /api/staff/notes/{id}`: the whole contribution note submission
/// `id` came with (`null`: none), and its group.
pub async fn note(State(app): State<Arc<App>>, _: Staff, UrlPath(id): UrlPath<i64>) -> Answer {
    let (group, note) = app
        .db(move |db| db::note_of(db, id))
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no submission {id}")))?;
    Ok(Json(json!({ "submission": id, "group": group, "note": note })).into_response())
}

/// `GET /api/staff/queue`: the submissions not finished, oldest first
/// (staff see every word: nothing is cut); those a full disk stopped as
/// waiting for it.
pub async fn queue(State(app): State<Arc<App>>, _: Staff) -> Answer {
    let unfinished: Vec<db::Submission> =
        app.db(db::unfinished).await?.into_iter().map(|s| app.disk.shown(s)).collect();
    Ok(Json(json!({ "submissions": unfinished })).into_response())
}

/// The scrimmages the staff page lists.
const SCRIMMAGES_LISTED: u32 = 200;

/// `GET /api/staff/scrimmages`: the latest scrimmages, newest first, every
/// group's (staff see every word: nothing is cut).
pub async fn scrimmages(State(app): State<Arc<App>>, _: Staff) -> Answer {
    let listed = app.db(|db| scrimmage::all(db, SCRIMMAGES_LISTED)).await?;
    Ok(Json(json!({ "scrimmages": listed })).into_response())
}

/// `POST /api/staff/scrimmages/{id}/cancel`: a waiting scrimmage ends now,
/// a playing one after its game under way (its games played count); one
/// already over is left as it is. Its status then.
pub async fn cancel_scrimmage(State(app): State<Arc<App>>, _: Staff, UrlPath(id): UrlPath<i64>) -> Answer {
    let status = app.db(move |db| scrimmage::cancel(db, id)).await?;
    let status =
        status.ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("there is no scrimmage {id}")))?;
    app.changed.notify();
    Ok(Json(json!({ "id": id, "status": status })).into_response())
}

/// `GET /api/staff/cores`: the core pool's games running and waiting by
/// kind, how many it plays at once now (fewer while the machine spoils
/// games), the league's state, the gradings postponed for the machine or
/// the disk (`postponed`: each submission, why, and when it goes on: none
/// for the disk, once it has room), and whether the disk is full
/// (`disk_full`: null, or since when (UTC), for how long, the write that
/// failed, and when it is probed next).
pub async fn cores(State(app): State<Arc<App>>, _: Staff) -> Answer {
    let usage = arena_core::play::cores::pool().map(|pool| pool.usage());
    let full = app.disk.seen();
    let ago = full.as_ref().map(|full| format!("-{} seconds", full.seconds));
    let (unfinished, since) = app
        .db(move |db| {
            let since: Option<String> =
                db.query_row("SELECT datetime('now', ?1)", [ago], |row| row.get(0))?;
            Ok((db::unfinished(db)?, since))
        })
        .await?;
    let mut postponed: Vec<db::Submission> = unfinished
        .into_iter()
        .map(|s| app.disk.shown(s))
        .filter(|s| s.status == db::status::WAITING)
        .collect();
    // The next due first; the disk's (untimed) before.
    postponed.sort_by(|a, b| (&a.retry_at, a.id).cmp(&(&b.retry_at, b.id)));
    let postponed: Vec<Value> = postponed
        .iter()
        .map(|s| json!({ "id": s.id, "group": s.group, "assignment": s.assignment, "why": s.waiting, "retry_at": s.retry_at }))
        .collect();
    let disk_full = full.map(|full| {
        let mut seen = serde_json::to_value(&full).unwrap_or_default();
        seen["since"] = since.into();
        seen
    });
    Ok(Json(json!({ "pool": usage, "postponed": postponed, "disk_full": disk_full })).into_response())
}

/// `POST /api/staff/league` with `{"state": "paused" | "auto" | "running"}`:
/// pauses the league, lets it play (held while a class tournament runs),
/// or lets it play even then.
pub async fn league(State(app): State<Arc<App>>, _: Staff, JsonBody(body): JsonBody<Value>) -> Answer {
    let state =
        body["state"].as_str().and_then(arena_core::play::cores::LeagueState::parse).ok_or_else(|| {
            ApiError::new(StatusCode::BAD_REQUEST, "send {\"state\": \"paused\"}, \"auto\" or \"running\"")
        })?;
    app.db(move |db| db::set_setting(db, crate::work::league::LEAGUE_SETTING, state.name())).await?;
    if let Some(pool) = arena_core::play::cores::pool() {
        pool.set_league(state);
    }
    app.wake.notify();
    Ok(Json(json!({ "league": state })).into_response())
}

/// `POST /api/staff/deadline?assignment=NAME` with `{"deadline":
/// "2026-12-01 23:59"}` (UTC): that assignment's (none: the course's
/// first). The token is checked before the body is read.
pub async fn deadline(
    State(app): State<Arc<App>>,
    _: Staff,
    UrlQuery(of): UrlQuery<AssignmentQuery>,
    JsonBody(body): JsonBody<Value>,
) -> Answer {
    let name = of.in_course(&app.course)?.name.clone();
    let when = body["deadline"].as_str().ok_or_else(|| {
        ApiError::new(StatusCode::BAD_REQUEST, "send {\"deadline\": \"YYYY-MM-DD HH:MM\"} (UTC)")
    })?;
    let when = when.to_string();
    let deadline = app
        .pool
        .run(move |db| db::set_deadline(db, &name, &when))
        .await
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("{e:#}")))?;
    app.changed.notify();
    Ok(Json(json!({ "deadline": deadline })).into_response())
}

/// `POST /api/staff/finalize?assignment=NAME`: starts that assignment's
/// final results (none: the course's first) in the background (`202`);
/// `GET` tells where they are.
pub async fn start_finalize(
    State(app): State<Arc<App>>,
    _: Staff,
    UrlQuery(of): UrlQuery<AssignmentQuery>,
) -> Answer {
    let name = of.in_course(&app.course)?.name.clone();
    {
        let mut state = app.finalizing.0.lock().unwrap_or_else(|e| e.into_inner());
        if state["status"] == "running" {
            return Err(ApiError::new(StatusCode::CONFLICT, "finalize is already running"));
        }
        *state = json!({ "status": "running" });
    }
    let app = app.clone();
    tokio::task::spawn_blocking(move || {
        let assignment = app.course.assignment(&name).expect("an assignment of the course");
        // Its games take the pool's slots after grading and scrimmages,
        // before the league (which waits while it runs, unless staff say).
        arena_core::play::cores::set_inherited(Some(arena_core::play::cores::Priority::Final));
        let work = Work::start("finalize", &name, "from the staff API");
        let finalized = crate::work::nice::games_here(app.games_nice, || {
            finalize::finalize(&app.data, &app.course, assignment, None, &app.executor)
        });
        arena_core::play::cores::set_inherited(None);
        match &finalized {
            Ok(done) => work.done(&format!("{} groups, {} files written", done.groups, done.written.len())),
            Err(e) => work.failed(&format!("{e:#}")),
        }
        let outcome = match finalized {
            Ok(done) => json!({
                "status": "done",
                "assignment": name,
                "groups": done.groups,
                "students": done.students,
                "deadline": done.deadline,
                "written": done.written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
                "fresh": done.fresh,
            }),
            Err(e) => json!({ "status": "failed", "error": format!("{e:#}") }),
        };
        *app.finalizing.0.lock().unwrap_or_else(|e| e.into_inner()) = outcome;
    });
    Ok((StatusCode::ACCEPTED, Json(json!({ "status": "running" }))).into_response())
}

/// `GET /api/staff/finalize`: `{"status": "running" | "done" | "failed" | null, ...}`.
pub async fn finalize_status(State(app): State<Arc<App>>, _: Staff) -> Answer {
    let state = app.finalizing.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
    Ok(Json(if state.is_null() { json!({ "status": null }) } else { state }).into_response())
}

/// `GET /api/staff/grades.csv?assignment=NAME`: that assignment's final
/// grades (none: the course's first), once `finalize` wrote them.
pub async fn grades_csv(
    State(app): State<Arc<App>>,
    _: Staff,
    UrlQuery(of): UrlQuery<AssignmentQuery>,
) -> Answer {
    let name = of.in_course(&app.course)?.name.clone();
    final_csv(&app, &std::path::Path::new(&name).join("grades.csv"))
}

/// `GET /api/staff/gradebook.csv`: the points in a course-management
/// system's import layout (a column per assignment finalized), once
/// `finalize` wrote them.
pub async fn gradebook_csv(State(app): State<Arc<App>>, _: Staff) -> Answer {
    final_csv(&app, std::path::Path::new("gradebook.csv"))
}

fn final_csv(app: &App, name: &std::path::Path) -> Answer {
    let csv = std::fs::read_to_string(app.data.join(finals::FOLDER).join(name))
        .map_err(|_| ApiError::new(StatusCode::NOT_FOUND, "no final grades yet: run finalize first"))?;
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8")], csv).into_response())
}

/// `GET /api/final` (a student's, not staff's): the caller's group's final results in each assignment
/// finalized (`finalize`'s grades.csv): its points, rank and groups
/// defeated, and the points possible; no other group's line.
pub async fn own_final(State(app): State<Arc<App>>, Student(student): Student) -> Answer {
    let group = student.group;
    let name = app.db(move |db| Ok(db::group(db, group)?.name)).await?;
    let mut results = Vec::new();
    for a in &app.course.assignments {
        let Some(mine) = finals::group_result(&app.data, &a.name, &name)? else { continue };
        let possible = finals::read_points(&app.data, &a.name)?.and_then(|p| p.possible);
        results.push(json!({
            "assignment": a.name,
            "title": a.title,
            "points": mine.points,
            "possible": possible,
            "rank": mine.rank,
            "groups_defeated": mine.defeated,
            "groups": mine.groups,
        }));
    }
    Ok(Json(json!({ "group": name, "results": results })).into_response())
}
