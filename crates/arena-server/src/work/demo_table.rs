//! Staff's demo table: a game between any two seats, for showing in class
//! (`POST /api/staff/play`). Each seat is a person at a page of its own, a
//! reference level, or a group's latest graded submission; at least one is
//! a person (two bots are a scrimmage). Played as a student's game is
//! (`person_games`: its bounds, counted against the staff member who
//! opened it); graded never, stored nowhere, in no standings.

use std::sync::Arc;

use axum::{extract::State, http::StatusCode, response::IntoResponse, Json};
use serde::Deserialize;
use serde_json::json;

use super::person_games::{self, Sitter};
use crate::{course::Assignment, http::auth::Staff, http::extract::JsonBody, Answer, ApiError, App};

/// `{"assignment": NAME, "seats": [SEAT, SEAT]}`, a seat `"person"`, a
/// level (`"easy"`) or `"group:NAME"`.
#[derive(Deserialize)]
pub(crate) struct Asked {
    assignment: Option<String>,
    seats: [String; 2],
}

/// Opens the table: `201` and `{"pages": [PAGE | null, PAGE | null]}`, a
/// person's seat's page (`/play/TOKEN`) per seat, `null` at a bot's.
pub(crate) async fn start(
    State(app): State<Arc<App>>,
    Staff(member): Staff,
    JsonBody(asked): JsonBody<Asked>,
) -> Answer {
    let assignment = person_games::assignment(&app, asked.assignment.as_deref())?;
    let [first, second] = asked.seats;
    let seats = [sitter(&app, &assignment, &first).await?, sitter(&app, &assignment, &second).await?];
    if !seats.iter().any(|s| matches!(s, Sitter::Person)) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "seats: at least one \"person\" (two players' games are scrimmages)",
        ));
    }
    let pages = person_games::open(&app, member.id, &assignment, seats)?;
    Ok((StatusCode::CREATED, Json(json!({ "pages": pages }))).into_response())
}

/// Who a seat's word names.
async fn sitter(app: &Arc<App>, assignment: &Assignment, seat: &str) -> Result<Sitter, ApiError> {
    if seat == "person" {
        return Ok(Sitter::Person);
    }
    if let Some(entry) = person_games::level(seat) {
        return Ok(Sitter::Bot(entry));
    }
    let Some(name) = seat.strip_prefix("group:") else {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "a seat: \"person\", a level (easy, medium, hard, expert) or \"group:NAME\"",
        ));
    };
    let owned = name.to_string();
    let group = app
        .db(move |db| crate::store::db::group_named(db, &owned))
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such group: see the staff page's Groups"))?;
    let entry = person_games::latest_graded(app, group, assignment).await?.ok_or_else(|| {
        ApiError::new(
            StatusCode::CONFLICT,
            format!("that group has no graded submission for {} yet", assignment.name),
        )
    })?;
    Ok(Sitter::Bot(entry))
}
