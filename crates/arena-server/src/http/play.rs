//! A person's seat on a page: `/play/{token}` (the page), its `/state`
//! (polled) and its `/answer` (posted). The token in the address is the
//! seat's (`PageTable`): a wrong one is refused before a body is read; a
//! body is read only up to a small limit; whatever is posted is a line the
//! game judges like a typed one. Served beside the live viewer
//! (`live::serve_local_with`), on loopback.

use std::sync::{Arc, RwLock};

use arena_core::players::person::page::{PageTable, Refused};
use axum::{
    body::Body,
    extract::{Path, Query, Request, State},
    http::{header, StatusCode},
    response::{Html, IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use serde::Deserialize;

/// The most of an answer's body read.
const BODY_LIMIT: usize = 1024;

/// The seats played from pages: fixed for `arena play --live`, coming and
/// going on the course server (`work::person_games`).
#[derive(Clone, Default)]
pub struct Seats(Arc<RwLock<Vec<Arc<PageTable>>>>);

impl Seats {
    pub fn new(tables: Vec<Arc<PageTable>>) -> Seats {
        Seats(Arc::new(RwLock::new(tables)))
    }

    pub fn add(&self, table: Arc<PageTable>) {
        self.0.write().unwrap_or_else(|e| e.into_inner()).push(table);
    }

    pub fn remove(&self, table: &Arc<PageTable>) {
        self.0.write().unwrap_or_else(|e| e.into_inner()).retain(|t| !Arc::ptr_eq(t, table));
    }

    fn seat(&self, token: &str) -> Option<Arc<PageTable>> {
        self.0.read().unwrap_or_else(|e| e.into_inner()).iter().find(|table| table.admits(token)).cloned()
    }
}

const PAGE: &str = include_str!("pages/play.html");

/// The routes of the seats' pages.
pub fn router<S: Clone + Send + Sync + 'static>(seats: Seats) -> Router<S> {
    Router::new()
        .route("/play/{token}", get(page))
        .route("/play/{token}/state", get(state))
        .route("/play/{token}/answer", post(answer))
        .with_state(seats)
}

async fn page(State(seats): State<Seats>, Path(token): Path<String>) -> Response {
    match seats.seat(&token) {
        // Its address holds the seat's token: kept in no cache.
        Some(_) => (
            [
                (header::CONTENT_SECURITY_POLICY, super::headers::page_policy(PAGE)),
                (header::CACHE_CONTROL, header::HeaderValue::from_static("no-store")),
            ],
            Html(PAGE),
        )
            .into_response(),
        None => refused(),
    }
}

/// A poll: `?seen=N`, the version the page has drawn (the match's end is
/// waited for until a page says it drew it).
#[derive(Deserialize)]
struct Polled {
    seen: Option<u64>,
}

async fn state(
    State(seats): State<Seats>,
    Path(token): Path<String>,
    Query(polled): Query<Polled>,
) -> Response {
    match seats.seat(&token) {
        Some(table) => {
            ([(header::CACHE_CONTROL, "no-store")], Json(table.state(polled.seen))).into_response()
        }
        None => refused(),
    }
}

/// An answer: `{"asked": N, "line": "..."}`.
#[derive(Deserialize)]
struct Posted {
    asked: u64,
    line: String,
}

async fn answer(State(seats): State<Seats>, Path(token): Path<String>, request: Request) -> Response {
    let Some(table) = seats.seat(&token) else { return refused() };
    let Ok(bytes) = axum::body::to_bytes(request.into_body(), BODY_LIMIT).await else {
        return (StatusCode::PAYLOAD_TOO_LARGE, "an answer is a line\n").into_response();
    };
    let Ok(posted) = serde_json::from_slice::<Posted>(&bytes) else {
        return (StatusCode::BAD_REQUEST, "send {\"asked\": N, \"line\": \"...\"}\n").into_response();
    };
    match table.post(&token, posted.asked, &posted.line) {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(Refused::Token) => refused(),
        Err(Refused::Busy) => (StatusCode::TOO_MANY_REQUESTS, "one answer at a time\n").into_response(),
    }
}

fn refused() -> Response {
    Response::builder()
        .status(StatusCode::FORBIDDEN)
        .body(Body::from("not this seat's token\n"))
        .expect("a plain response")
}
