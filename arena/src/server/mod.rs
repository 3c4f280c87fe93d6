//! `arena serve`: the submissions server. Students submit a player (a
//! library, or a Python folder as an archive) over HTTP (docs/server.md)
//! and see it graded at once against Easy, Medium and Hard; the
//! leaderboard shows every student's latest grade and a round robin.
//! State lives in one folder: `arena.db` (SQLite, WAL), `files/` (uploads,
//! by content), `players/` (Python archives, unpacked), `runs/` (each
//! grading run's tournament folder and journal), `final/` (`finalize`).
//!
//! Student code never runs here: grading goes through the tournament
//! runner, whose players run in isolated, sandboxed workers.

pub mod accounts;
pub mod archive;
pub mod client;
pub mod db;
pub mod finalize;
pub mod grader;
pub mod league;
pub mod load;
mod staff;
pub mod store;

use std::{
    net::SocketAddr,
    path::PathBuf,
    sync::{Arc, Mutex},
};

use anyhow::{Context, Result};
use axum::{
    extract::{DefaultBodyLimit, Multipart, Path, State},
    http::{header, HeaderMap, StatusCode},
    response::{Html, IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use rusqlite::Connection;
use serde_json::json;

/// How the server runs.
pub struct Options {
    /// The data folder (created if missing).
    pub data: PathBuf,
    pub listen: SocketAddr,
    /// The largest upload accepted, in bytes.
    pub max_upload: u64,
    /// Submissions a student may make in an hour.
    pub per_hour: u32,
    /// Whether current submissions play the round robin when nothing
    /// waits to be graded.
    pub round_robin: bool,
}

struct App {
    db: Mutex<Connection>,
    data: PathBuf,
    max_upload: u64,
    per_hour: u32,
    wake: Arc<grader::Wake>,
    finalizing: staff::Finalizing,
}

/// Runs the server until the process ends. Prints the address it listens
/// on (`listening on http://ADDR`) once it accepts connections.
pub fn serve(options: Options) -> Result<()> {
    serve_then(options, |address, data| {
        crate::outln!("listening on http://{address} (data in {})", data.display());
    })
}

/// Runs the server until the process ends; `listening` is told the
/// address and the data folder once it accepts connections.
pub fn serve_then(options: Options, listening: impl FnOnce(SocketAddr, &std::path::Path)) -> Result<()> {
    let data = &options.data;
    std::fs::create_dir_all(data)
        .with_context(|| format!("cannot create the data folder {}", data.display()))?;
    let data = std::fs::canonicalize(data)?;
    let db = db::open(&data)?;
    let wake = Arc::new(grader::Wake::default());
    grader::spawn(data.clone(), wake.clone(), options.round_robin)?;
    let app = Arc::new(App {
        db: Mutex::new(db),
        data: data.clone(),
        max_upload: options.max_upload,
        per_hour: options.per_hour,
        wake,
        finalizing: staff::Finalizing::default(),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(options.listen)
            .await
            .with_context(|| format!("cannot listen on {}: is another server using it?", options.listen))?;
        listening(listener.local_addr()?, &data);
        axum::serve(listener, router(app)).await.context("the server stopped")
    })
}

fn router(app: Arc<App>) -> Router {
    // Multipart framing on top of the file itself.
    let body_limit = usize::try_from(app.max_upload).unwrap_or(usize::MAX).saturating_add(64 * 1024);
    Router::new()
        .route("/", get(|| async { Html(include_str!("pages/leaderboard.html")) }))
        .route("/me", get(|| async { Html(include_str!("pages/student.html")) }))
        .route("/staff", get(|| async { Html(include_str!("pages/staff.html")) }))
        .route(
            "/common.js",
            get(|| async {
                ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("pages/common.js"))
            }),
        )
        .route("/api/staff/roster", get(staff::roster))
        .route("/api/staff/queue", get(staff::queue))
        .route("/api/staff/deadline", post(staff::deadline))
        .route("/api/staff/finalize", post(staff::start_finalize).get(staff::finalize_status))
        .route("/api/staff/grades.csv", get(staff::grades_csv))
        .route("/api/submissions", post(submit).get(list))
        .route("/api/submissions/{id}", get(show))
        .route("/api/submissions/{id}/replays", get(replays))
        .route("/api/submissions/{id}/replays/{name}", get(replay_viewer))
        .route("/api/leaderboard", get(leaderboard))
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(app)
}

/// An error as the API gives it: a status and `{"error": "..."}`.
fn error(status: StatusCode, message: impl Into<String>) -> Response {
    ApiError(status, message.into()).into_response()
}

/// An error not yet turned into a response.
struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl App {
    fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.db.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The student whose bearer token `headers` carry.
    fn student(&self, headers: &HeaderMap) -> Result<db::Student, ApiError> {
        let unauthorized = || {
            ApiError(
                StatusCode::UNAUTHORIZED,
                "a valid token is needed: send `Authorization: Bearer TOKEN` (the course staff give you yours)"
                    .into(),
            )
        };
        let token = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim)
            .ok_or_else(unauthorized)?;
        match db::student_by_token(&self.db(), &accounts::token_hash(token)) {
            Ok(Some(student)) => Ok(student),
            Ok(None) => Err(unauthorized()),
            Err(e) => Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}"))),
        }
    }

    /// Submission `id`, if it is the caller's.
    fn own_submission(&self, headers: &HeaderMap, id: i64) -> Result<db::Submission, ApiError> {
        let student = self.student(headers)?;
        match db::submission_of(&self.db(), id, student.id) {
            Ok(Some(submission)) => Ok(submission),
            Ok(None) => Err(ApiError(StatusCode::NOT_FOUND, format!("you have no submission {id}"))),
            Err(e) => Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}"))),
        }
    }
}

/// `POST /api/submissions`: a player (a library, or a Python folder as an
/// archive) as the multipart field `file`.
async fn submit(State(app): State<Arc<App>>, headers: HeaderMap, mut form: Multipart) -> Response {
    let student = match app.student(&headers) {
        Ok(student) => student,
        Err(refused) => return drained(form, refused.into_response()).await,
    };
    let made = db::submissions_last_hour(&app.db(), student.id);
    match made {
        Ok((made, oldest)) if made >= app.per_hour => {
            let response = error(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "{made} submissions in the last hour, the most this server takes: the next is accepted \
                     an hour after {} (UTC)",
                    oldest.unwrap_or_default()
                ),
            );
            return drained(form, response).await;
        }
        Ok(_) => {}
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}")),
    }
    let too_large = || {
        error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the file is larger than this server accepts ({} bytes)", app.max_upload),
        )
    };
    let mut upload = None;
    loop {
        match form.next_field().await {
            Ok(Some(field)) if field.name() == Some("file") => {
                let name = field.file_name().unwrap_or("player.so").to_string();
                match field.bytes().await {
                    Ok(bytes) => upload = Some((name, bytes)),
                    Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return too_large(),
                    Err(e) => return error(e.status(), e.body_text()),
                }
            }
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return too_large(),
            Err(e) => return error(e.status(), e.body_text()),
        }
    }
    let Some((name, bytes)) = upload else {
        return error(StatusCode::BAD_REQUEST, "no file: send the library as the multipart field `file`");
    };
    if bytes.len() as u64 > app.max_upload {
        return too_large();
    }
    // A library, or a Python player's folder as an archive.
    let archive = self::archive::Kind::of(&bytes);
    if archive.is_none() {
        if let Err(why) = store::check_library(&bytes) {
            return error(StatusCode::BAD_REQUEST, why);
        }
    }
    let data = app.data.clone();
    let size = bytes.len() as u64;
    let stored = tokio::task::spawn_blocking(move || match archive {
        None => store::save(&data, &bytes).map(|sha| Ok((sha, None))),
        Some(kind) => {
            store::save_archive(&data, &bytes, kind).map(|saved| saved.map(|(sha, p)| (sha, Some(p))))
        }
    });
    let (sha256, player) = match stored.await {
        Ok(Ok(Ok(stored))) => stored,
        Ok(Ok(Err(why))) => return error(StatusCode::BAD_REQUEST, why),
        Ok(Err(e)) => return error(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}")),
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    let id = match db::add_submission(&app.db(), student.id, (&sha256, player.as_deref()), &name, size) {
        Ok(id) => id,
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}")),
    };
    app.wake.notify();
    (StatusCode::CREATED, Json(json!({ "id": id, "status": db::status::QUEUED, "sha256": sha256 })))
        .into_response()
}

/// `response`, once the upload is read (and dropped): a client still
/// sending its file when the server answers sees a broken connection, not
/// the answer.
async fn drained(mut form: Multipart, response: Response) -> Response {
    while let Ok(Some(field)) = form.next_field().await {
        if field.bytes().await.is_err() {
            break;
        }
    }
    response
}

/// `GET /api/submissions`: the caller's own submissions, newest first.
async fn list(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let student = match app.student(&headers) {
        Ok(student) => student,
        Err(refused) => return refused.into_response(),
    };
    match db::submissions_of(&app.db(), student.id) {
        Ok(submissions) => {
            Json(json!({ "student": student.name, "submissions": submissions })).into_response()
        }
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}")),
    }
}

/// `GET /api/submissions/{id}`: one of the caller's own submissions.
async fn show(State(app): State<Arc<App>>, headers: HeaderMap, Path(id): Path<i64>) -> Response {
    match app.own_submission(&headers, id) {
        Ok(submission) => Json(submission).into_response(),
        Err(refused) => refused.into_response(),
    }
}

/// `GET /api/submissions/{id}/replays`: the games the submission lost
/// while graded, each with its viewer.
async fn replays(State(app): State<Arc<App>>, headers: HeaderMap, Path(id): Path<i64>) -> Response {
    if let Err(refused) = app.own_submission(&headers, id) {
        return refused.into_response();
    }
    let names = grader::lost_games(&app.data, id);
    let replays: Vec<_> = names
        .iter()
        .map(|name| json!({ "name": name, "url": format!("/api/submissions/{id}/replays/{name}") }))
        .collect();
    Json(json!({ "replays": replays })).into_response()
}

/// `GET /api/submissions/{id}/replays/{name}`: the HTML viewer of one.
async fn replay_viewer(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path((id, name)): Path<(i64, String)>,
) -> Response {
    if let Err(refused) = app.own_submission(&headers, id) {
        return refused.into_response();
    }
    match grader::lost_game_viewer(&app.data, id, &name) {
        Some(html) => Html(html).into_response(),
        None => error(StatusCode::NOT_FOUND, format!("submission {id} has no replay named '{name}'")),
    }
}

/// `GET /api/leaderboard`: every student's latest graded submission.
async fn leaderboard(State(app): State<Arc<App>>) -> Response {
    let board = {
        let db = app.db();
        db::latest_graded(&db).and_then(|latest| {
            let (waiting, grading) = db::queue(&db)?;
            let standings = league::standings(&db, &latest)?;
            Ok((latest, waiting, grading, standings))
        })
    };
    match board {
        Ok((latest, waiting, grading, standings)) => {
            let pairings = latest.len() * latest.len().saturating_sub(1) / 2;
            let rows: Vec<_> = latest
                .into_iter()
                .map(|s| json!({ "student": s.student, "submission": s.id, "finished": s.finished, "grade": s.grade }))
                .collect();
            let grading = grading.map(|(played, total)| json!({ "played": played, "total": total }));
            Json(json!({
                "students": rows,
                "queue": { "waiting": waiting, "grading": grading },
                "round_robin": {
                    "games_per_pairing": league::GAMES,
                    "games_to_play": pairings * league::GAMES as usize,
                    "standings": standings.json(),
                },
            }))
            .into_response()
        }
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}")),
    }
}
