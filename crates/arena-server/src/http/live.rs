//! Live games over HTTP: a run's feeds (`arena_core::replay::live`) as
//! server-sent events, the live viewer, the list of games in progress.
//! `serve_local` serves them on 127.0.0.1 for `arena play --live` and the
//! other commands that play; `arena serve` mounts the same streams behind
//! its own access checks.
//!
//! Here, not in the binary: it is HTTP on tokio and axum, which only this
//! crate links; one stack serves both the course and a local run.
//!
//! A watcher pulls: its stream reads the game's shared log from where it
//! is (an index into it) and sleeps until the log grows. Nothing is queued
//! or copied per watcher: the events it is sent are the log's own (`Bytes`
//! over the log's `Arc<str>`), so a slow one holds only its socket's
//! buffer and never slows the game; one that stops reading is cut when
//! its connection stalls (`stall.rs`).

use std::{
    convert::Infallible,
    net::SocketAddr,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc,
    },
    time::Duration,
};

use anyhow::{Context, Result};
use arena_core::{
    games::replays::live_page,
    replay::live::{Feed, Live, Privacy},
};
use axum::{
    body::{Body, Bytes},
    extract::{Path, State},
    http::{header, StatusCode},
    response::{Html, IntoResponse, Response},
    routing::get,
    Json, Router,
};
use futures_util::StreamExt;
use serde_json::Value;
use tokio::sync::Notify;

use crate::http::streams::StreamSlot;

/// A comment line sent while nothing happens: proxies and browsers keep
/// the connection open, and a watcher that went away is noticed.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The local viewer's routes: `/` (the games), `/games.json`,
/// `/game/{id}` and its `/feed`, `/follow` and its `/feed` (game after game).
pub fn router(live: Live) -> Router {
    Router::new()
        .route("/", get(|| async { Html(include_str!("pages/live.html")) }))
        .route(
            "/live.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], include_str!("pages/live.js")) }),
        )
        .route("/games.json", get(|State(live): State<Live>| async move { Json(games(&live)) }))
        .route(
            "/game/{id}",
            get(|State(live): State<Live>, Path(id): Path<u64>| async move {
                match live.game(id) {
                    Some(_) => Html(live_page(&format!("/game/{id}/feed"), false)).into_response(),
                    None => not_found(),
                }
            }),
        )
        .route(
            "/game/{id}/feed",
            get(|State(live): State<Live>, Path(id): Path<u64>| async move {
                match live.game(id) {
                    Some(feed) => events(feed, false, None),
                    None => not_found(),
                }
            }),
        )
        .route("/follow", get(|| async { Html(live_page("/follow/feed", true)) }))
        .route("/follow/feed", get(|State(live): State<Live>| async move { following(live) }))
        .with_state(live)
}

/// The games this server plays, fed live (one registry per process, as the
/// core pool is: the grading slots, the scrimmages and the league feed it,
/// the routes read it). Their seeds are kept; the public sees a game as
/// `views::public_replay` shows it.
pub fn feeds() -> &'static Live {
    static FEEDS: std::sync::OnceLock<Live> = std::sync::OnceLock::new();
    FEEDS.get_or_init(|| Live::with_privacy(Some(Privacy { public: crate::http::views::public_replay })))
}

/// Whose a server's game is, from its feed's scope.
#[derive(Debug, PartialEq)]
pub enum Scope {
    /// Submission `id`'s grading: its group's, and staff's.
    Grading(i64),
    /// Scrimmage `id`: its two groups', and staff's.
    Scrimmage(i64),
    /// A league game of an assignment: anyone's (the public's view).
    League,
}

impl Scope {
    /// The scope's mark on its feeds (`Live::scoped`).
    pub fn mark(&self) -> String {
        match self {
            Scope::Grading(id) => format!("grading:{id}"),
            Scope::Scrimmage(id) => format!("scrimmage:{id}"),
            Scope::League => "league".to_string(),
        }
    }

    /// The scope of a feed marked `mark`.
    pub fn of(mark: &str) -> Option<Scope> {
        let number = |rest: &str| rest.parse().ok();
        match mark.split_once(':') {
            Some(("grading", id)) => number(id).map(Scope::Grading),
            Some(("scrimmage", id)) => number(id).map(Scope::Scrimmage),
            _ => (mark == "league").then_some(Scope::League),
        }
    }
}

/// The games kept, newest first: `[{"id", "game", "title", "turns", "ended"}]`.
pub fn games(live: &Live) -> Vec<Value> {
    live.games().iter().rev().map(|f| f.summary()).collect()
}

/// The local viewer's server (`serve_local`).
pub struct LocalServer {
    pub address: SocketAddr,
    live: Live,
    /// Tells the server to stop taking connections and finish the
    /// requests under way; `stopped` hears when it has.
    stop: std::sync::Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    stopped: std::sync::Mutex<std::sync::mpsc::Receiver<()>>,
}

/// Serves `live` on 127.0.0.1 at a free port, on a thread of its own (one
/// thread: watching costs the games next to nothing), for as long as the
/// process runs.
pub fn serve_local(live: Live) -> Result<LocalServer> {
    serve_local_with(live, crate::http::play::Seats::default())
}

/// [`serve_local`], with the pages of the seats people play from
/// (`/play/{token}`: `http/play.rs`).
pub fn serve_local_with(live: Live, seats: crate::http::play::Seats) -> Result<LocalServer> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").context("cannot open a port on 127.0.0.1")?;
    let address = listener.local_addr()?;
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let routes = router(live.clone()).merge(crate::http::play::router(seats));
    let (stop, stop_heard) = tokio::sync::oneshot::channel::<()>();
    let (stopped_tx, stopped) = std::sync::mpsc::channel();
    std::thread::Builder::new().name("live-http".into()).spawn(move || {
        arena_core::replay::live::below_the_games();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("a listening socket");
            let stop = async move {
                let _ = stop_heard.await;
            };
            let _ = axum::serve(listener, routes).with_graceful_shutdown(stop).await;
        });
        let _ = stopped_tx.send(());
    })?;
    Ok(LocalServer {
        address,
        live,
        stop: std::sync::Mutex::new(Some(stop)),
        stopped: std::sync::Mutex::new(stopped),
    })
}

impl LocalServer {
    /// The run it serves.
    pub fn live(&self) -> Live {
        self.live.clone()
    }

    /// The run is over: closes its feeds, finishes the final analyses the
    /// pages watching it wait for (up to `FINISHING`), and gives those
    /// pages up to `within` to read their last events before the process
    /// ends. It stops serving: every request already under way (a
    /// page's last poll, as the process is about to exit) is answered in
    /// full, and no new connection is taken.
    pub fn close(&self, within: Duration) {
        self.live.close();
        if OPEN.load(Ordering::SeqCst) > 0 {
            self.live.finish_analyses(std::time::Instant::now() + FINISHING);
        }
        let stop = self.stop.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take();
        if let Some(stop) = stop {
            let _ = stop.send(());
            let stopped = self.stopped.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let _ = stopped.recv_timeout(within);
        }
    }
}

/// How long a run that is over spends finishing the analyses of its last
/// games for the pages watching them (a few at most: the analysing
/// thread's own bound on finished games waiting).
const FINISHING: Duration = Duration::from_secs(30);

/// Streams being sent, in this process.
static OPEN: AtomicUsize = AtomicUsize::new(0);

/// Counts a stream while it is sent.
struct Open;

impl Open {
    fn new() -> Open {
        OPEN.fetch_add(1, Ordering::SeqCst);
        Open
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        OPEN.fetch_sub(1, Ordering::SeqCst);
    }
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "no such game (it may have ended long ago)\n").into_response()
}

/// One game's feed as server-sent events, from its start: the game so far
/// at once, then each turn as it comes, then its end; as the public sees
/// it, if `public`.
pub fn events(feed: Arc<Feed>, public: bool, slot: Option<StreamSlot>) -> Response {
    stream(Watch::Game { feed, from: 0, public }, None, slot)
}

/// Game after game of a run, from the newest: each game's feed whole, then
/// the next one's; `event: over` when the run is over.
fn following(live: Live) -> Response {
    let waker = Waker::new();
    live.watch(&waker.call);
    let next = Watch::Next { after: None };
    stream(next, Some((live, waker)), None)
}

/// Where a watcher is.
enum Watch {
    /// In a game's log, at event `from` (read as the public sees it, if `public`).
    Game {
        feed: Arc<Feed>,
        from: usize,
        public: bool,
    },
    /// Waiting for the first game after `after` (a follower).
    Next {
        after: Option<u64>,
    },
    Done,
}

/// A watcher's wake-up call: the feed (or the run) calls it when it grows.
struct Waker {
    notify: Arc<Notify>,
    /// Held while the watcher lives; the feed keeps only a weak reference.
    call: Arc<dyn Fn() + Send + Sync>,
}

impl Waker {
    fn new() -> Waker {
        let notify = Arc::new(Notify::new());
        let call: Arc<dyn Fn() + Send + Sync> = {
            let notify = notify.clone();
            Arc::new(move || notify.notify_one())
        };
        Waker { notify, call }
    }
}

/// The events of `start` as a response's body; `slot` (the stream's place
/// among the server's, `streams.rs`) is held until the body is dropped.
fn stream(start: Watch, run: Option<(Live, Waker)>, slot: Option<StreamSlot>) -> Response {
    let waker = Waker::new();
    if let Watch::Game { feed, .. } = &start {
        feed.watch(&waker.call);
    }
    let state = (start, waker, run, (Open::new(), slot));
    let body = futures_util::stream::unfold(state, |(mut at, waker, run, held)| async move {
        let chunks = next(&mut at, &waker, run.as_ref()).await?;
        Some((chunks, (at, waker, run, held)))
    })
    .flat_map(|chunks| futures_util::stream::iter(chunks.into_iter().map(Ok::<_, Infallible>)));
    (
        [(header::CONTENT_TYPE, "text/event-stream"), (header::CACHE_CONTROL, "no-store")],
        Body::from_stream(body),
    )
        .into_response()
}

/// The log's event as a body's chunk, without a copy.
struct Event(Arc<str>);

impl AsRef<[u8]> for Event {
    fn as_ref(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

/// The watcher's next chunks: the events it has not had, a keep-alive
/// after a quiet while; None when there is no more.
async fn next(at: &mut Watch, waker: &Waker, run: Option<&(Live, Waker)>) -> Option<Vec<Bytes>> {
    loop {
        match at {
            Watch::Done => return None,
            Watch::Game { feed, from, public } => {
                let read = feed.read(*from, *public);
                if !read.events.is_empty() {
                    *from += read.events.len();
                    let chunks = read.events.into_iter().map(|e| Bytes::from_owner(Event(e))).collect();
                    if read.ended {
                        let after = Some(feed.id);
                        *at = if run.is_some() { Watch::Next { after } } else { Watch::Done };
                    }
                    return Some(chunks);
                }
                if read.ended {
                    *at = Watch::Done;
                    continue;
                }
                if tokio::time::timeout(KEEP_ALIVE, waker.notify.notified()).await.is_err() {
                    return Some(vec![Bytes::from_static(b": still playing\n\n")]);
                }
            }
            Watch::Next { after } => {
                let (live, run_waker) = run.expect("only a follower waits for the next game");
                // The newest game in progress: with games played at once, the
                // ones that ended meanwhile are passed over.
                let next = live.newest().filter(|f| after.is_none_or(|id| f.id > id));
                if let Some(feed) = next {
                    feed.watch(&waker.call);
                    *at = Watch::Game { feed, from: 0, public: false };
                    continue;
                }
                if live.closed() {
                    *at = Watch::Done;
                    return Some(vec![Bytes::from_static(b"event: over\ndata: {}\n\n")]);
                }
                if tokio::time::timeout(KEEP_ALIVE, run_waker.notify.notified()).await.is_err() {
                    return Some(vec![Bytes::from_static(b": waiting for a game\n\n")]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::{
        io::{Read, Write},
        net::TcpStream,
        sync::Arc,
        time::Duration,
    };

    use arena_core::{players::person::page::PageTable, replay::live::Live};

    use super::serve_local_with;
    use crate::http::play::Seats;

    /// A page's last poll, asked as the run closes (the process exits
    /// right after `close`): answered in full, not cut by the exit; after
    /// `close`, nothing more is served.
    #[test]
    fn close_answers_the_request_under_way_then_serves_no_more() {
        let table = Arc::new(PageTable::new().unwrap());
        let token = table.token().to_string();
        let server = serve_local_with(Live::new(), Seats::new(vec![table])).unwrap();
        let mut page = TcpStream::connect(server.address).unwrap();
        page.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        // The request is under way: its first line is in, its headers not yet.
        write!(page, "GET /play/{token}/state?seen=1 HTTP/1.1\r\nHost: arena\r\n").unwrap();
        std::thread::sleep(Duration::from_millis(200));
        std::thread::scope(|scope| {
            let closing = scope.spawn(|| server.close(Duration::from_secs(5)));
            std::thread::sleep(Duration::from_millis(300));
            write!(page, "\r\n").unwrap();
            let mut answer = String::new();
            page.read_to_string(&mut answer).unwrap();
            assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
            assert!(answer.contains("\"version\""), "the whole answer: {answer}");
            closing.join().unwrap();
        });
        assert!(TcpStream::connect(server.address).is_err(), "still served after close");
    }
}
