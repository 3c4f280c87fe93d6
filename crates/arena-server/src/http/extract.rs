//! The API's extractors: a path's parameters ([`UrlPath`]), a query
//! ([`UrlQuery`]) and a JSON body ([`JsonBody`]), each refused in the API's
//! words (`{"error": ...}`, `application/json`) with axum's status, never
//! with axum's plain-text rejection; and the answer to a request no route
//! takes ([`no_route`], [`no_method`]). Handlers take these, not axum's
//! `Path`, `Query` and `Json`. [`ListQuery`] is the page a group's list
//! asks for.

use axum::{
    extract::{FromRequest, FromRequestParts, Path, Query, Request},
    http::{request::Parts, Method, StatusCode, Uri},
    response::{IntoResponse, Response},
    Json,
};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use crate::{
    http::connections::BodyLimit,
    store::db::{Newest, Page},
    ApiError,
};

/// A path's parameters (`/api/submissions/{id}`): `400` in the API's words
/// when one does not parse (`/api/submissions/abc`).
pub(crate) struct UrlPath<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for UrlPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(UrlPath(value)),
            // A `500` (a route that lacks the parameter) is logged, not shown.
            Err(rejection) => Err(ApiError::new(
                rejection.status(),
                format!(
                    "{}: {} (docs/server.md lists the API's paths)",
                    parts.uri.path(),
                    rejection.body_text()
                ),
            )),
        }
    }
}

/// A query (`?assignment=...&limit=...`): `400` in the API's words when it
/// does not parse.
pub(crate) struct UrlQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for UrlQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(UrlQuery(value)),
            Err(rejection) => Err(ApiError::new(
                rejection.status(),
                format!("the query of {}: {}", parts.uri.path(), rejection.body_text()),
            )),
        }
    }
}

/// A JSON body: `413` past the route's [`BodyLimit`], `400`/`415`/`422`
/// for bad JSON.
pub(crate) struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let limit = request.extensions().get::<BodyLimit>().copied().unwrap_or(BodyLimit::JSON);
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(JsonBody(value)),
            Err(rejection) => Err(match rejection.status() {
                StatusCode::PAYLOAD_TOO_LARGE => limit.refusal(),
                status => ApiError::new(status, format!("the request's body: {}", rejection.body_text())),
            }),
        }
    }
}

/// The router's fallback: `404`, in the API's words under `/api/` (a page's
/// address gets axum's bare `404`).
pub(crate) async fn no_route(method: Method, uri: Uri) -> Response {
    if !uri.path().starts_with("/api/") {
        return StatusCode::NOT_FOUND.into_response();
    }
    ApiError::new(StatusCode::NOT_FOUND, format!("no {method} {}: docs/server.md lists the API", uri.path()))
        .into_response()
}

/// A route asked with a method it does not take: `405`, in the API's words.
pub(crate) async fn no_method(method: Method, uri: Uri) -> Response {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{} does not take {method}: docs/server.md lists the API", uri.path()),
    )
    .into_response()
}

/// `?before=ID&limit=N`: a page of one of a group's lists (its
/// submissions, its scrimmages), newest first; the pages poll them every
/// 2 s and another group can add to them, so no answer holds them whole.
#[derive(serde::Deserialize, Debug, Default)]
pub(crate) struct ListQuery {
    /// Only the rows older than this id (the last page's `next`).
    before: Option<i64>,
    /// Rows, [`ListQuery::DEFAULT`] unless said, at most [`ListQuery::MOST`].
    limit: Option<usize>,
}

impl ListQuery {
    pub(crate) const DEFAULT: usize = 20;
    pub(crate) const MOST: usize = 100;

    /// The page asked for: a limit of 0 is refused, one over [`ListQuery::MOST`] cut to it.
    pub(crate) fn page(&self) -> Result<Newest, ApiError> {
        match self.limit.unwrap_or(Self::DEFAULT) {
            0 => Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("limit=0: ask for 1 to {} rows (default {})", Self::MOST, Self::DEFAULT),
            )),
            limit => Ok(Newest { before: self.before, limit: limit.min(Self::MOST) }),
        }
    }

    /// Puts in `answer` (an object) where `page` (got from `asked`) stands
    /// in its list at `path`: `"total"` (the whole list's rows), `"limit"`
    /// and `"next"` (`PATH?before=ID&limit=N`, null on the last page).
    pub(crate) fn place<T>(answer: &mut Value, path: &str, asked: Newest, page: &Page<T>) {
        let next = page.next_before.map(|id| format!("{path}?before={id}&limit={}", asked.limit));
        answer["total"] = json!(page.total);
        answer["limit"] = json!(asked.limit);
        answer["next"] = json!(next);
    }
}
