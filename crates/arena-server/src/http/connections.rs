//! Accepting connections with limits that a slow or hostile client cannot
//! outlast: a cap on open connections (kept below the descriptors the
//! process may open, so the database and the workers always get theirs), a
//! deadline for a request's headers (hyper's timer: it also closes a
//! keep-alive connection left idle), one for a request (its body read and
//! its answer made), and a size for every request's body. Over TLS
//! (`--tls-cert`) the same limits hold, and the handshake has the headers'
//! deadline. A stop (SIGTERM) closes the listener and lets the requests
//! under way finish.

use std::{
    future::Future,
    net::{IpAddr, SocketAddr},
    path::Path,
    sync::Arc,
    time::Duration,
};

use anyhow::{Context, Result};
use axum::{
    extract::{DefaultBodyLimit, Request, State},
    http::{header, StatusCode},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    Router,
};
use hyper::service::Service as _;
use hyper_util::{
    rt::{TokioIo, TokioTimer},
    server::graceful::GracefulShutdown,
    service::TowerToHyperService,
};
use tokio::{net::TcpListener, sync::Semaphore};
use tokio_rustls::rustls;

use crate::{http::stall::Stalling, ApiError};

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
    /// A connection that takes none of what it is sent for this long is
    /// cut (a live game's watcher that stopped reading: `stall.rs`).
    pub stall_timeout: Duration,
    /// Live feeds one client address (or one token) may hold open at once;
    /// all clients together, at most half of the connections (`streams.rs`).
    pub streams_per_client: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(300),
            max_connections: 1024,
            stall_timeout: Duration::from_secs(60),
            streams_per_client: 4,
        }
    }
}

/// Descriptors kept for the database, uploads, grading workers and logs.
const RESERVED_DESCRIPTORS: u64 = 128;

/// How long a stopping server lets the requests under way finish.
pub const STOP_GRACE: Duration = Duration::from_secs(30);

/// The address a connection came from (its peer's): put in every request's
/// extensions; [`client_address`] makes the [`Client`] of it.
#[derive(Clone, Copy, Debug)]
struct Peer(SocketAddr);

/// Who sent a request, for the logs (and any limit by address): the
/// connection's peer, or with `--trust-proxy` the address the proxy in
/// front says it served (`X-Forwarded-For`'s last entry).
#[derive(Clone, Copy, Debug)]
pub struct Client(pub IpAddr);

impl std::fmt::Display for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// A middleware: the request's [`Client`], from its connection's peer or,
/// when `trust_proxy` (the server is reached only through a reverse proxy,
/// which sets the header), from `X-Forwarded-For`: its last entry, the one
/// the proxy itself added (those before it are the client's to say, and
/// may be anything). Without `trust_proxy` the header is ignored.
pub async fn client_address(State(trust_proxy): State<bool>, mut request: Request, next: Next) -> Response {
    let peer = request.extensions().get::<Peer>().map(|p| p.0.ip());
    let forwarded = trust_proxy
        .then(|| request.headers().get_all("x-forwarded-for").iter().next_back())
        .flatten()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|last| last.trim().parse::<IpAddr>().ok());
    if let Some(address) = forwarded.or(peer) {
        request.extensions_mut().insert(Client(address));
    }
    next.run(request).await
}

/// Loads the certificate chain and private key of `--tls-cert`/`--tls-key`
/// (PEM files): the server's TLS, by rustls. One line says which file is
/// wrong and what it should hold.
pub fn tls_config(cert: &Path, key: &Path) -> Result<Arc<rustls::ServerConfig>> {
    use rustls::pki_types::{pem::PemObject, CertificateDer, PrivateKeyDer};
    let read = |file: &Path, what: &str, option: &str| {
        std::fs::read(file).map_err(|e| {
            anyhow::anyhow!("cannot read the TLS {what} {}: {e}: give {option} a PEM file", file.display())
        })
    };
    let cert_pem = read(cert, "certificate", "--tls-cert")?;
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<_, _>>()
        .ok()
        .filter(|chain: &Vec<_>| !chain.is_empty())
        .ok_or_else(|| {
            anyhow::anyhow!(
                "the TLS certificate {} holds no PEM certificate (-----BEGIN CERTIFICATE-----): give --tls-cert \
                 the certificate chain (certbot's fullchain.pem)",
                cert.display()
            )
        })?;
    let key_pem = read(key, "key", "--tls-key")?;
    let private = PrivateKeyDer::from_pem_slice(&key_pem).map_err(|_| {
        anyhow::anyhow!(
            "the TLS key {} holds no PEM private key (-----BEGIN PRIVATE KEY-----): give --tls-key the \
             certificate's private key (certbot's privkey.pem)",
            key.display()
        )
    })?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .context("rustls has no TLS version to offer")?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(|e| {
            anyhow::anyhow!(
                "the TLS key {} does not go with the certificate {} ({e}): give --tls-key the private key \
                 the certificate was made for",
                key.display(),
                cert.display()
            )
        })?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// Serves `router` on `listener` (over TLS with `tls`) until `stop`
/// resolves; then accepts no more connections and lets the requests under
/// way finish (within [`STOP_GRACE`]).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    tls: Option<Arc<rustls::ServerConfig>>,
    stop: impl Future<Output = ()>,
) -> Result<()> {
    let cap = connection_cap(limits.max_connections);
    tracing::info!("at most {cap} connections at once");
    let permits = Arc::new(Semaphore::new(cap));
    let acceptor = tls.map(tokio_rustls::TlsAcceptor::from);
    let graceful = GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        // At the cap, new connections wait in the kernel's backlog (no
        // descriptor) until an open one ends.
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => permit?,
            () = &mut stop => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors or memory for a moment: wait, go on.
                    tracing::warn!("cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let router = TowerToHyperService::new(router.clone());
        let service = hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
            request.extensions_mut().insert(Peer(peer));
            router.call(request)
        });
        let watcher = graceful.watcher();
        let acceptor = acceptor.clone();
        let stream = Stalling::new(stream, limits.stall_timeout);
        tokio::spawn(async move {
            let builder = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
                .clone();
            let served = match acceptor {
                None => watcher.watch(builder.serve_connection(TokioIo::new(stream), service)).await,
                // The handshake within the headers' time: a client that
                // never finishes it holds no slot for longer.
                Some(acceptor) => {
                    match tokio::time::timeout(limits.header_timeout, acceptor.accept(stream)).await {
                        Ok(Ok(stream)) => {
                            watcher.watch(builder.serve_connection(TokioIo::new(stream), service)).await
                        }
                        Ok(Err(e)) => {
                            tracing::debug!("a TLS handshake from {peer} failed: {e}");
                            Ok(())
                        }
                        Err(_) => {
                            tracing::debug!("a TLS handshake from {peer} took too long");
                            Ok(())
                        }
                    }
                }
            };
            if let Err(e) = served {
                tracing::debug!("a connection ended: {e}");
            }
            drop(permit);
        });
    }
    drop(listener);
    let under_way = graceful.count();
    tracing::info!("stopping: no new connections; {under_way} open, their requests under way finishing");
    if tokio::time::timeout(STOP_GRACE, graceful.shutdown()).await.is_err() {
        tracing::warn!("stopping: requests still under way after {} s, cut", STOP_GRACE.as_secs());
    }
    Ok(())
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
    /// The limit of a route that reads at most a small JSON body.
    pub(crate) const JSON: BodyLimit = BodyLimit(JSON_BODY_LIMIT);

    /// The refusal of a body over it.
    pub(crate) fn refusal(self) -> ApiError {
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
/// `Json`, `Bytes` and `Multipart` obey), and `http::extract::JsonBody` says `413`.
pub fn bounded<S: Clone + Send + Sync + 'static>(router: Router<S>, limit: usize) -> Router<S> {
    router
        .layer(DefaultBodyLimit::max(limit))
        .layer(middleware::from_fn_with_state(BodyLimit(limit), refuse_announced_over))
}

/// A middleware: `413` for a `Content-Length` over the limit; else the
/// limit goes with the request (for `http::extract::JsonBody`'s words).
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
