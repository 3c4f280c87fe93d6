//! Accepting connections with limits that a slow or hostile client cannot
//! outlast: a cap on open connections (kept below the descriptors the
//! process may open, so the database and the workers always get theirs), a
//! deadline for a request's headers (hyper's timer: it also closes a
//! keep-alive connection left idle), one for a request (its body read and
//! its answer made), and a size for every request's body.

use std::{sync::Arc, time::Duration};

use anyhow::Result;
use axum::{
    extract::{DefaultBodyLimit, FromRequest, Request, State},
    http::{header, StatusCode},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    Json, Router,
};
use hyper_util::{
    rt::{TokioIo, TokioTimer},
    service::TowerToHyperService,
};
use serde::de::DeserializeOwned;
use tokio::{net::TcpListener, sync::Semaphore};

use super::ApiError;

/// How long a client may take, and how many may be connected.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// To send a request's headers (and, idle, the next request's).
    pub header_timeout: Duration,
    /// To send a request's body and be answered (every route).
    pub body_timeout: Duration,
    /// Connections open at once (fewer if the process may open fewer
    /// descriptors: see [`connection_cap`]).
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(300),
            max_connections: 1024,
        }
    }
}

/// Descriptors kept for the database, uploads, grading workers and logs.
const RESERVED_DESCRIPTORS: u64 = 128;

/// Serves `router` on `listener` until the process ends.
pub async fn serve(listener: TcpListener, router: Router, limits: Limits) -> Result<()> {
    let cap = connection_cap(limits.max_connections);
    tracing::info!("at most {cap} connections at once");
    let permits = Arc::new(Semaphore::new(cap));
    loop {
        // At the cap, new connections wait in the kernel's backlog (no
        // descriptor) until an open one ends.
        let permit = permits.clone().acquire_owned().await?;
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of descriptors or memory for a moment: wait, go on.
                tracing::warn!("cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
                .serve_connection(TokioIo::new(stream), service);
            if let Err(e) = connection.await {
                tracing::debug!("a connection ended: {e}");
            }
            drop(permit);
        });
    }
}

/// The connections to allow: `wanted`, but never more than the process's
/// descriptor limit (raised to its hard limit first) less those it keeps.
pub fn connection_cap(wanted: usize) -> usize {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: plain system calls on a local struct.
    let descriptors = unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return wanted;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
        limit.rlim_cur
    };
    let room = descriptors.saturating_sub(RESERVED_DESCRIPTORS).max(descriptors / 4).max(1);
    wanted.min(usize::try_from(room).unwrap_or(usize::MAX))
}

/// A middleware: the request (its body read and its answer made) within
/// `timeout`, or `408` and the connection closed.
pub async fn body_deadline(State(timeout): State<Duration>, request: Request, next: Next) -> Response {
    match tokio::time::timeout(timeout, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request was not sent within {} s: send it again on a faster connection",
                timeout.as_secs()
            ),
        )
        .into_response(),
    }
}

/// The largest body of a request that is not an upload: its JSON (a
/// challenge, a deadline, the league's state) is a few dozen bytes.
pub const JSON_BODY_LIMIT: usize = 16 * 1024;

/// The most bytes a route reads of a request's body.
#[derive(Clone, Copy, Debug)]
pub struct BodyLimit(pub usize);

impl BodyLimit {
    /// The refusal of a body over it.
    pub(super) fn refusal(self) -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request's body is larger than this server accepts here ({} bytes)", self.0),
        )
    }
}

/// `router`'s routes with their bodies bounded by `limit`: a request
/// announcing more (`Content-Length`) is refused (`413`) before a byte of it
/// is read; one sent without a length (chunked) is cut where it passes
/// `limit`, whichever extractor reads it (axum's `DefaultBodyLimit`, which
/// `Json`, `Bytes` and `Multipart` obey), and [`JsonBody`] says `413`.
pub fn bounded<S: Clone + Send + Sync + 'static>(router: Router<S>, limit: usize) -> Router<S> {
    router
        .layer(DefaultBodyLimit::max(limit))
        .layer(middleware::from_fn_with_state(BodyLimit(limit), refuse_announced_over))
}

/// A middleware: `413` for a `Content-Length` over the limit; else the
/// limit goes with the request (for [`JsonBody`]'s words).
async fn refuse_announced_over(State(limit): State<BodyLimit>, mut request: Request, next: Next) -> Response {
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if announced.is_some_and(|length| length > limit.0 as u64) {
        return limit.refusal().into_response();
    }
    request.extensions_mut().insert(limit);
    next.run(request).await
}

/// A JSON body, refused in the API's words (`{"error": ...}`): `413` past
/// the route's [`BodyLimit`], `400`/`415`/`422` for bad JSON, never a
/// plain-text answer of axum's.
pub(super) struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let limit = request.extensions().get::<BodyLimit>().copied().unwrap_or(BodyLimit(JSON_BODY_LIMIT));
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(JsonBody(value)),
            Err(rejection) => Err(match rejection.status() {
                StatusCode::PAYLOAD_TOO_LARGE => limit.refusal(),
                status => ApiError::new(status, rejection.body_text()),
            }),
        }
    }
}
