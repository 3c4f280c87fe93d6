//! Who may watch which game as it is played (docs/server.md, "Watching
//! games live"): a group its own grading games and its scrimmages, anyone
//! the league's (as the public sees them: `views::public_replay`), staff
//! every game whole. A game one may not watch is 404, as if it did not
//! exist. The feeds themselves are `live.rs`'s.

use std::{
    net::IpAddr,
    sync::{Arc, OnceLock},
};

use axum::{
    extract::State,
    http::{header, HeaderValue, StatusCode},
    response::{Html, IntoResponse},
    Extension, Json,
};
use serde_json::{json, Value};

use crate::{
    http::auth::MaybeStudent,
    http::connections::Client,
    http::extract::UrlPath,
    http::headers,
    http::live::{self, feeds, Scope},
    store::db,
    work::scrimmage,
    Answer, ApiError, App,
};
use arena_core::{games::replays::live_page, replay::live::Feed};

/// `GET /live/{id}`: the live viewer of game `id` (a page with nothing
/// in it but the address of its feed, which is access-checked).
pub(crate) async fn page(UrlPath(id): UrlPath<u64>) -> Answer {
    feeds().game(id).ok_or_else(|| not_found(id))?;
    let html = live_page(&format!("/api/live/{id}/feed"), false);
    // The same inline code for every game: one policy.
    static POLICY: OnceLock<HeaderValue> = OnceLock::new();
    let policy = POLICY.get_or_init(|| headers::page_policy(&html)).clone();
    Ok(([(header::CONTENT_SECURITY_POLICY, policy)], Html(html)).into_response())
}

/// `GET /api/live/{id}/feed`: game `id` as server-sent events, for one who
/// may watch it (docs/replays.md, "Watching live").
pub(crate) async fn feed(
    State(app): State<Arc<App>>,
    client: Option<Extension<Client>>,
    MaybeStudent(who): MaybeStudent,
    UrlPath(id): UrlPath<u64>,
) -> Answer {
    let feed = feeds().game(id).ok_or_else(|| not_found(id))?;
    let public = may_watch(&app, who.as_ref(), &feed).await?.ok_or_else(|| not_found(id))?;
    // Held by the stream until it ends: a client (or a token) holds its
    // share of the connections, not all of them (`streams.rs`).
    let client = client.map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0 .0);
    let slot = match app.streams.open(client, who.map(|s| s.id)) {
        Ok(slot) => slot,
        Err(refused) => return Ok(refused.into_response()),
    };
    Ok(live::events(feed, public, Some(slot)))
}

/// `GET /api/live`: the games the asker may watch, in progress first:
/// `{"games": [{"id", "game", "title", "turns", "ended", "kind", "of", "url"}]}`
/// (`kind`: grading, scrimmage or league; `of`: the submission's or the
/// scrimmage's id).
pub(crate) async fn list(State(app): State<Arc<App>>, MaybeStudent(who): MaybeStudent) -> Answer {
    let mut games = Vec::new();
    for feed in feeds().games().iter().rev() {
        if may_watch(&app, who.as_ref(), feed).await?.is_none() {
            continue;
        }
        let mut game = feed.summary();
        let (kind, of) = match Scope::of(&feed.scope) {
            Some(Scope::Grading(id)) => ("grading", Value::from(id)),
            Some(Scope::Scrimmage(id)) => ("scrimmage", Value::from(id)),
            _ => ("league", Value::Null),
        };
        game["kind"] = kind.into();
        game["of"] = of;
        game["url"] = format!("/live/{}", feed.id).into();
        games.push(game);
    }
    games.sort_by_key(|g| g["ended"].as_bool());
    Ok(Json(json!({ "games": games })).into_response())
}

/// Whether `who` (None: anyone) may watch `feed`: None if not, else
/// whether they see it as the public does.
async fn may_watch(app: &App, who: Option<&db::Student>, feed: &Feed) -> Result<Option<bool>, ApiError> {
    let staff = who.is_some_and(|s| s.staff);
    let scope = Scope::of(&feed.scope);
    let (Some(student), Some(scope)) = (who, scope) else {
        return Ok(matches!(Scope::of(&feed.scope), Some(Scope::League)).then_some(true));
    };
    let group = student.group;
    let own = match scope {
        Scope::League => return Ok(Some(!staff)),
        _ if staff => return Ok(Some(false)),
        Scope::Grading(id) => app.db(move |db| db::submission_of(db, id, group)).await?.is_some(),
        Scope::Scrimmage(id) => app.db(move |db| scrimmage::of_group_one(db, id, group)).await?.is_some(),
    };
    Ok(own.then_some(false))
}

fn not_found(id: u64) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, format!("no game {id} to watch"))
}
