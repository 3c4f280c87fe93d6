//! The staff's side of the API (a token added with `--staff`): the roster,
//! the queue, the deadline, and the final results (`finalize`, run in the
//! background; its grades as CSV).

use std::sync::{Arc, Mutex};

use axum::{
    extract::State,
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    Json,
};
use serde_json::{json, Value};

use super::{db, error, finalize, ApiError, App};

/// Games per pairing of the final round robin started from the API.
const FINAL_GAMES_PER_PAIRING: u32 = 10;

/// Where the last `finalize` started from the API is.
#[derive(Default)]
pub struct Finalizing(Mutex<Value>);

impl App {
    /// The staff member whose token `headers` carry; a student gets 403.
    fn staff(&self, headers: &HeaderMap) -> Result<db::Student, ApiError> {
        let member = self.student(headers)?;
        if !member.staff {
            return Err(ApiError(
                StatusCode::FORBIDDEN,
                "this is for the course staff (a --staff token)".into(),
            ));
        }
        Ok(member)
    }
}

macro_rules! staff_only {
    ($app:expr, $headers:expr) => {
        if let Err(refused) = $app.staff(&$headers) {
            return refused.into_response();
        }
    };
}

/// `GET /api/staff/roster`: everyone, with their latest submission.
pub async fn roster(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    staff_only!(app, headers);
    let db = app.db();
    match (db::roster(&db), db::deadline(&db)) {
        (Ok(roster), Ok(deadline)) => {
            Json(json!({ "students": roster, "deadline": deadline })).into_response()
        }
        (Err(e), _) | (_, Err(e)) => error(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}")),
    }
}

/// `GET /api/staff/queue`: the submissions not finished, oldest first.
pub async fn queue(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    staff_only!(app, headers);
    match db::unfinished(&app.db()) {
        Ok(waiting) => Json(json!({ "submissions": waiting })).into_response(),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}")),
    }
}

/// `POST /api/staff/deadline` with `{"deadline": "2026-12-01 23:59"}` (UTC).
pub async fn deadline(State(app): State<Arc<App>>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    staff_only!(app, headers);
    let Some(when) = body["deadline"].as_str() else {
        return error(StatusCode::BAD_REQUEST, "send {\"deadline\": \"YYYY-MM-DD HH:MM\"} (UTC)");
    };
    match db::set_deadline(&app.db(), when) {
        Ok(deadline) => Json(json!({ "deadline": deadline })).into_response(),
        Err(e) => error(StatusCode::BAD_REQUEST, format!("{e:#}")),
    }
}

/// `POST /api/staff/finalize`: starts the final results in the background
/// (`202`); `GET` tells where they are.
pub async fn start_finalize(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    staff_only!(app, headers);
    {
        let mut state = app.finalizing.0.lock().unwrap_or_else(|e| e.into_inner());
        if state["status"] == "running" {
            return error(StatusCode::CONFLICT, "finalize is already running");
        }
        *state = json!({ "status": "running" });
    }
    let app = app.clone();
    tokio::task::spawn_blocking(move || {
        let outcome = match finalize::finalize(&app.data, FINAL_GAMES_PER_PAIRING) {
            Ok(done) => json!({
                "status": "done",
                "students": done.students,
                "deadline": done.deadline,
                "written": done.written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            }),
            Err(e) => json!({ "status": "failed", "error": format!("{e:#}") }),
        };
        *app.finalizing.0.lock().unwrap_or_else(|e| e.into_inner()) = outcome;
    });
    (StatusCode::ACCEPTED, Json(json!({ "status": "running" }))).into_response()
}

/// `GET /api/staff/finalize`: `{"status": "running" | "done" | "failed" | null, ...}`.
pub async fn finalize_status(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    staff_only!(app, headers);
    let state = app.finalizing.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
    Json(if state.is_null() { json!({ "status": null }) } else { state }).into_response()
}

/// `GET /api/staff/grades.csv`: the final grades, once `finalize` wrote them.
pub async fn grades_csv(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    staff_only!(app, headers);
    match std::fs::read_to_string(app.data.join(finalize::FOLDER).join("grades.csv")) {
        Ok(csv) => ([(header::CONTENT_TYPE, "text/csv; charset=utf-8")], csv).into_response(),
        Err(_) => error(StatusCode::NOT_FOUND, "no final grades yet: run finalize first"),
    }
}
