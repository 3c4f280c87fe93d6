//! The API's extractors: a path's parameters ([`UrlPath`]), a query
//! ([`UrlQuery`]) and a JSON body ([`JsonBody`]), each refused in the API's
//! words (`{"error": ...}`, `application/json`) with axum's status, never
//! with axum's plain-text rejection; and the answer to a request no route
//! takes ([`no_route`], [`no_method`]). Handlers take these, not axum's
//! `Path`, `Query` and `Json`.

use axum::{
    extract::{FromRequest, FromRequestParts, Path, Query, Request},
    http::{request::Parts, Method, StatusCode, Uri},
    response::{IntoResponse, Response},
    Json,
};
use serde::de::DeserializeOwned;

use crate::{http::connections::BodyLimit, ApiError};

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
                format!("{}: {} (docs/server.md lists the API's paths)", parts.uri.path(), rejection.body_text()),
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
