//! `arena serve`: the submissions server. Students submit a player (a
//! library, or a Python folder as an archive) over HTTP (docs/server.md)
//! and see it graded at once against Easy, Medium and Hard; the
//! leaderboard shows every group's latest grade and the live league.
//! State lives in one folder: `arena.db` (SQLite, WAL), `files/` (uploads,
//! by content), `players/` (Python archives, unpacked), `runs/` (each
//! grading run's tournament folder and journal), `final/` (`finalize`),
//! `scrimmages/` (each scrimmage's tournament folder), `league/` (the
//! league's Slurm batches, with `--executor slurm`).
//!
//! A crate of its own (crates/arena-server, beside the core,
//! crates/arena-core), so that tokio, axum, hyper, SQLite and the HTTP
//! client are linked only by what serves. By folder:
//! - `http/`: the HTTP face: connections and their limits, who is asking,
//!   headers, pages, live feeds, what each audience sees, the staff's API.
//!   This file holds the app (`App`, `serve`) and the students' API.
//! - `work/`: the work done on threads: grading, scrimmages, the league,
//!   the board, finalize, where runs play (`executor/`), their log lines.
//! - `store/`: what is kept: the database (`db/`), uploaded files, Python
//!   archives, the secret, backups, what each group's data takes.
//! - `course/`: the course around it: the course file, accounts, exports
//!   to a gradebook, Gradescope.
//! - `client.rs` (`arena submit`), `bench/` (`arena measure server`).
//!
//! Student code never runs here: grading goes through the tournament
//! runner, whose players run in isolated, sandboxed workers.
//!
//! This is the arena's only async code (axum on tokio), and it only
//! answers HTTP: handlers return `Result<Response, ApiError>` and do their
//! database work on the blocking pool (`pool.rs`); games are played on
//! plain threads (`threads.rs` starts them), so the referees' loops stay synchronous.
//!
//! No module depends on itself through others (the layering test,
//! `arena/tests/it/layering.rs`); this file, the HTTP app, is on top:
//! `http/` and the staff's handlers take its `App` and `ApiError`.

pub mod bench;
pub mod client;
pub mod course;
pub mod http;
pub mod store;
pub mod work;

use std::{net::SocketAddr, path::PathBuf, sync::Arc};

use anyhow::{Context, Result};
use axum::{
    extract::{Multipart, State},
    http::{header, HeaderMap, HeaderValue, StatusCode},
    middleware,
    response::{Html, IntoResponse, Response},
    routing::{get, post},
    Json, Router,
};
use rusqlite::Connection;
use serde_json::{json, Value};

use http::{
    auth::Student,
    extract::{UrlPath, UrlQuery},
};

/// How the server runs.
pub struct Options {
    /// The course: its assignments, each graded as it says, and their
    /// points policies (`finalize`'s).
    pub course: course::Course,
    /// The course file's text, if the course is from one: kept in the
    /// data folder, the course of the commands run on it later.
    pub course_text: Option<String>,
    /// The data folder (created if missing).
    pub data: PathBuf,
    pub listen: SocketAddr,
    /// The largest upload accepted, in bytes.
    pub max_upload: u64,
    /// Uploads a student may start in an hour, accepted or refused.
    pub per_hour: u32,
    /// Grading slots, each grading's games at once, superseding, the round
    /// robin.
    pub grading: work::grader::GraderOptions,
    /// Timeouts and the connection cap.
    pub http: http::connections::Limits,
    /// Where grading runs are played: here, or on a Slurm cluster.
    pub executor: work::executor::Executor,
    /// Games the server plays at once, all kinds together (`cores.rs`).
    pub cores: usize,
    /// HTTPS: the certificate chain's and the private key's PEM files.
    pub tls: Option<(PathBuf, PathBuf)>,
    /// The server is reached through a reverse proxy: a request's client is
    /// the one its `X-Forwarded-For` names (`http::connections::client_address`).
    pub trust_proxy: bool,
    /// Whether SIGTERM and SIGINT stop it (`arena serve`'s), or nothing
    /// does but the process's end (the bench's, on a thread).
    pub stop_on_signals: bool,
    /// The nice value of the threads that answer requests (`--pages-nice`:
    /// above the games', `work/nice.rs`).
    pub pages_nice: i32,
}

struct App {
    pool: Arc<store::pool::Pool>,
    boards: Arc<work::board::Boards>,
    data: PathBuf,
    max_upload: u64,
    per_hour: u32,
    wake: Arc<work::wake::Wake>,
    /// Told of every change the server's threads make (a board to rebuild).
    changed: Arc<work::wake::Wake>,
    finalizing: http::staff::Finalizing,
    /// The course hosted (docs/server.md, "The course file").
    course: Arc<course::Course>,
    /// Where grading runs and `finalize`'s round robin play their games.
    executor: Arc<work::executor::Executor>,
    /// The groups' bytes on disk, last measured (staff see them).
    storage: Arc<store::storage::Totals>,
    /// The live feeds' streams open, by client and token.
    streams: Arc<http::streams::Streams>,
    /// Whether the disk is full: uploads are refused while it is.
    disk: Arc<work::full_disk::FullDisk>,
    /// The nice value games run at (`--games-nice`): `finalize`'s, started
    /// from a thread that answers requests.
    games_nice: i32,
    /// Persons' games against a bot, and their pages' seats.
    person_games: work::person_games::PersonGames,
}

/// Runs the server until SIGTERM or Ctrl-C. Prints the address it listens
/// on (`listening on http://ADDR`, `https://` with TLS) once it accepts
/// connections.
pub fn serve(options: Options) -> Result<()> {
    let scheme = if options.tls.is_some() { "https" } else { "http" };
    serve_then(options, |address, data| {
        arena_core::outln!("listening on {scheme}://{address} (data in {})", data.display());
    })
}

/// Runs the server until SIGTERM or Ctrl-C; `listening` is told the
/// address and the data folder once it accepts connections. Stopped, it
/// accepts no more connections, lets the requests under way finish
/// (`http::connections::STOP_GRACE`) and returns: the games under way are cut as by a
/// crash, their journals kept, and the next start takes them up (none
/// played twice).
pub fn serve_then(options: Options, listening: impl FnOnce(SocketAddr, &std::path::Path)) -> Result<()> {
    // A bad certificate is said before anything else is done.
    let tls = match &options.tls {
        Some((cert, key)) => Some(http::connections::tls_config(cert, key)?),
        None => None,
    };
    let data = &options.data;
    std::fs::create_dir_all(data)
        .with_context(|| format!("cannot create the data folder {}", data.display()))?;
    let data = std::fs::canonicalize(data)?;
    for path in store::backup::remove_stale(&data) {
        tracing::info!("removed {}, left by a backup that was killed", path.display());
    }
    let course = Arc::new(options.course);
    host(&data, &store::db::open(&data)?, &course, options.course_text.as_deref())?;
    let pool = arena_core::play::cores::Cores::new(options.cores).install();
    pool.set_league(work::league::league_state(&store::db::open(&data)?));
    let leagues = Arc::new(work::league::Leagues::load(&store::db::open(&data)?, &course)?);
    options.executor.ready()?;
    // Checks run here whatever the executor: their Python, asked now.
    let limits = arena_core::players::isolation::WorkerLimits::for_programs();
    arena_core::players::external::ask_python_now(&limits.pass_env);
    let wake = Arc::new(work::wake::Wake::default());
    let changed = Arc::new(work::wake::Wake::default());
    let executor = Arc::new(options.executor);
    let boards = work::board::Boards::new(&data, &course, &leagues)?;
    let disk = Arc::new(work::full_disk::FullDisk::new(data.clone()));
    work::threads::Threads {
        dir: data.clone(),
        course: course.clone(),
        grading: options.grading,
        executor: executor.clone(),
        wake: wake.clone(),
        changed: changed.clone(),
        leagues,
        boards: boards.clone(),
        disk: disk.clone(),
    }
    .start()?;
    let app = Arc::new(App {
        pool: Arc::new(store::pool::Pool::new(data.clone())),
        boards,
        data: data.clone(),
        max_upload: options.max_upload,
        per_hour: options.per_hour,
        wake,
        changed,
        finalizing: http::staff::Finalizing::default(),
        course,
        executor,
        storage: Arc::default(),
        streams: http::streams::Streams::new(http::streams::StreamLimits::of(
            http::connections::connection_cap(options.http.max_connections),
            options.http.streams_per_client,
        )),
        disk,
        games_nice: options.grading.games_nice,
        person_games: Default::default(),
    });
    let pages_nice = options.pages_nice;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .on_thread_start(move || work::nice::set(pages_nice, "pages"))
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(options.listen)
            .await
            .with_context(|| format!("cannot listen on {}: is another server using it?", options.listen))?;
        let stop = stopped(options.stop_on_signals)?;
        listening(listener.local_addr()?, &data);
        let router = router(app, options.http, options.trust_proxy);
        http::connections::serve(listener, router, options.http, tls, async move {
            let signal = stop.await;
            tracing::warn!("{signal}: stopping (games under way are taken up at the next start)");
        })
        .await
        .context("the server stopped")
    })?;
    // What the blocking pool still does (a database call) is not waited for long.
    runtime.shutdown_timeout(std::time::Duration::from_secs(5));
    tracing::warn!("stopped");
    Ok(())
}

/// A future that resolves, to the signal's name, at SIGTERM (systemd's
/// stop) or SIGINT (Ctrl-C); never, unless `watch`.
fn stopped(watch: bool) -> Result<impl std::future::Future<Output = &'static str>> {
    use tokio::signal::unix::{signal, SignalKind};
    let signals = match watch {
        true => Some((
            signal(SignalKind::terminate()).context("cannot watch for SIGTERM")?,
            signal(SignalKind::interrupt()).context("cannot watch for SIGINT")?,
        )),
        false => None,
    };
    Ok(async move {
        let Some((mut term, mut int)) = signals else { return std::future::pending().await };
        tokio::select! {
            _ = term.recv() => "SIGTERM",
            _ = int.recv() => "SIGINT",
        }
    })
}

/// Makes data folder `dir` (its database `db`) host `course`: an older
/// server's submissions, deadline and final results become the first
/// assignment's; each assignment's deadline in
/// the course file is set; the file's text (`text`) is kept, the course of
/// later commands on the folder ([`course_of`]).
fn host(dir: &std::path::Path, db: &Connection, course: &course::Course, text: Option<&str>) -> Result<()> {
    adopt(dir, db, course)?;
    let (_, made) = store::secret::Secret::made(db)?;
    let graded: i64 =
        db.query_row("SELECT COUNT(*) FROM submissions WHERE status = ?1", [store::db::status::DONE], |r| {
            r.get(0)
        })?;
    if made && graded > 0 {
        tracing::warn!(
            "{graded} submission(s) were graded on the seeds of an older arena, which anyone could compute: \
             grade them again on this folder's secret seeds with `arena serve regrade --assignment NAME --all`"
        );
    }
    for assignment in &course.assignments {
        if let Some(deadline) = &assignment.deadline {
            store::db::set_deadline(db, &assignment.name, deadline)?;
        }
        if let Some(warning) = work::regrade::warning(assignment, &work::regrade::changed(db, assignment)?) {
            tracing::warn!("{warning}");
        }
    }
    if let Some(text) = text {
        store::db::set_setting(db, COURSE_SETTING, text)?;
    }
    Ok(())
}

/// Gives what a server from before assignments left in data folder `dir`
/// (its database `db`: the submissions, the deadline, the final results)
/// to `course`'s first assignment, the one it hosted. Nothing to do on a
/// newer folder.
pub fn adopt(dir: &std::path::Path, db: &Connection, course: &course::Course) -> Result<()> {
    store::db::adopt_unassigned(db, &course.assignments[0].name)?;
    work::finalize::adopt_unassigned(dir, &course.assignments[0].name)
}

/// Where the data folder keeps the course file it was last served with.
const COURSE_SETTING: &str = "course";

/// The course of data folder `dir`: course file `file`'s if given (with
/// its text), else the one the folder was last served with, else the
/// course's own Trap project (`Course::default()`).
pub fn course_of(
    dir: &std::path::Path,
    file: Option<&std::path::Path>,
) -> Result<(course::Course, Option<String>)> {
    if let Some(file) = file {
        let (course, text) = course::Course::read(file)?;
        return Ok((course, Some(text)));
    }
    if dir.join(store::db::FILE).exists() {
        if let Some(text) = store::db::setting(&store::db::open(dir)?, COURSE_SETTING)? {
            let course = course::Course::parse(&text).with_context(|| {
                format!(
                    "the course file the data folder {} was served with no longer reads: give it again with --course",
                    dir.display()
                )
            })?;
            return Ok((course, Some(text)));
        }
    }
    Ok((course::Course::default(), None))
}

/// A page of the server: its HTML under the pages' policy.
fn page(html: &'static str) -> Response {
    ([(header::CONTENT_SECURITY_POLICY, http::headers::pages_policy().clone())], Html(html)).into_response()
}

/// A script of the server's pages.
fn script(code: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], code).into_response()
}

fn router(app: Arc<App>, limits: http::connections::Limits, trust_proxy: bool) -> Router {
    // Multipart framing on top of the file itself.
    let upload_limit = usize::try_from(app.max_upload).unwrap_or(usize::MAX).saturating_add(64 * 1024);
    let uploads = Router::new().route("/api/submissions", post(submit).get(list));
    // Every other route reads at most a small JSON body.
    let seats = app.person_games.seats.clone();
    let small = Router::new()
        .route("/api/play", post(work::person_games::start))
        .merge(http::play::router(seats))
        .route("/", get(|| async { page(include_str!("http/pages/leaderboard.html")) }))
        .route("/me", get(|| async { page(include_str!("http/pages/student.html")) }))
        .route("/staff", get(|| async { page(include_str!("http/pages/staff.html")) }))
        .route("/common.js", get(|| async { script(include_str!("http/pages/common.js")) }))
        .route("/leaderboard.js", get(|| async { script(include_str!("http/pages/leaderboard.js")) }))
        .route("/student.js", get(|| async { script(include_str!("http/pages/student.js")) }))
        .route("/staff.js", get(|| async { script(include_str!("http/pages/staff.js")) }))
        .route("/api/staff/roster", get(http::staff::roster))
        .route("/api/staff/groups", get(http::staff::groups))
        .route("/api/staff/notes/{id}", get(http::staff::note))
        .route("/api/staff/queue", get(http::staff::queue))
        .route("/api/staff/cores", get(http::staff::cores))
        .route("/api/staff/scrimmages", get(http::staff::scrimmages))
        .route("/api/staff/scrimmages/{id}/cancel", post(http::staff::cancel_scrimmage))
        .route("/api/staff/play", post(work::demo_table::start))
        .route("/api/staff/league", post(http::staff::league))
        .route("/api/staff/deadline", post(http::staff::deadline))
        .route("/api/staff/finalize", post(http::staff::start_finalize).get(http::staff::finalize_status))
        .route("/api/staff/grades.csv", get(http::staff::grades_csv))
        .route("/api/staff/gradebook.csv", get(http::staff::gradebook_csv))
        .route("/api/assignments", get(assignments))
        .route("/api/submissions/{id}", get(show))
        .route("/api/submissions/{id}/replays", get(replays))
        .route("/api/submissions/{id}/replays/{name}", get(replay_viewer))
        .route("/api/scrimmages", post(work::scrimmage::challenge).get(work::scrimmage::list))
        .route("/api/scrimmages/opponents", get(work::scrimmage::opponents))
        .route("/api/final", get(http::staff::own_final))
        .route("/api/scrimmages/{id}/replays/{name}", get(work::scrimmage::replay_viewer))
        .route("/live/{id}", get(http::watching::page))
        .route("/api/live", get(http::watching::list))
        .route("/api/live/{id}/feed", get(http::watching::feed))
        .route(
            "/api/leaderboard",
            get(
                |State(app): State<Arc<App>>,
                 UrlQuery(of): UrlQuery<AssignmentQuery>,
                 UrlQuery(page): UrlQuery<work::board::PageQuery>,
                 headers: HeaderMap| async move {
                    let name = &of.in_course(&app.course)?.name;
                    let ready = app.boards.leaderboard(name, &page).ok_or_else(|| of.unknown())?;
                    ready.map(|r| r.answer(&headers)).map_err(ApiError::from)
                },
            ),
        )
        .route(
            "/api/leaderboard/crosstable",
            get(
                |State(app): State<Arc<App>>,
                 UrlQuery(of): UrlQuery<AssignmentQuery>,
                 UrlQuery(page): UrlQuery<work::board::PageQuery>,
                 headers: HeaderMap| async move {
                    let name = &of.in_course(&app.course)?.name;
                    let ready =
                        app.boards.crosstable(name, page.group.as_deref()).ok_or_else(|| of.unknown())?;
                    ready.map(|r| r.answer(&headers)).map_err(ApiError::from)
                },
            ),
        );
    http::connections::bounded(uploads, upload_limit)
        .merge(http::connections::bounded(small, http::connections::JSON_BODY_LIMIT))
        // Every request, whatever its route, is read and answered in time.
        .fallback(http::extract::no_route)
        .method_not_allowed_fallback(http::extract::no_method)
        .layer(middleware::from_fn_with_state(limits.body_timeout, http::connections::body_deadline))
        .layer(middleware::from_fn(http::headers::secure))
        // Who asks, for the logs: the peer, or the proxy's word of it.
        .layer(middleware::from_fn_with_state(trust_proxy, http::connections::client_address))
        .with_state(app)
}

/// `?assignment=NAME`: which assignment a request is about (none: the
/// course's first).
#[derive(serde::Deserialize)]
struct AssignmentQuery {
    assignment: Option<String>,
}

impl AssignmentQuery {
    /// The assignment of `course` it names (none: the first), or `404`.
    fn in_course<'a>(&self, course: &'a course::Course) -> Result<&'a course::Assignment, ApiError> {
        match &self.assignment {
            None => Ok(&course.assignments[0]),
            Some(name) => course.assignment(name).ok_or_else(|| self.unknown()),
        }
    }

    fn unknown(&self) -> ApiError {
        let name = self.assignment.as_deref().unwrap_or_default();
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no assignment '{name}' on this server (GET /api/assignments lists them)"),
        )
    }
}

impl From<work::board::PageError> for ApiError {
    fn from(e: work::board::PageError) -> ApiError {
        match e {
            work::board::PageError::Bad(why) => ApiError::new(StatusCode::BAD_REQUEST, why),
            work::board::PageError::NoGroup(name) => {
                ApiError::new(StatusCode::NOT_FOUND, format!("no group '{name}' on this leaderboard"))
            }
        }
    }
}

/// An error as the API gives it: a status and `{"error": "..."}`. A
/// refusal made before the request's body was read also closes the
/// connection (the body is never read).
#[derive(Debug)]
struct ApiError(StatusCode, String);

impl ApiError {
    /// A refusal; a server error's words (an extractor's, say) go to the
    /// log as [`ApiError::internal`]'s do, never to the client.
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        if status.is_server_error() {
            return ApiError::internal(anyhow::anyhow!("{status}: {}", message.into()));
        }
        ApiError(status, message.into())
    }

    /// The server's fault (`500`): what went wrong (paths, queries, the
    /// database's words) goes to the server's log under a short id, and
    /// the client is told only that id, to quote to the staff.
    fn internal(e: anyhow::Error) -> ApiError {
        let id = incident_id();
        tracing::error!("internal error #{id}: {e:#}");
        ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("internal error (logged as #{id})"))
    }

    /// The disk is full (`507`): nothing of the request is kept; the
    /// client may try again once it has room (the log says it once).
    fn disk_full() -> ApiError {
        ApiError(StatusCode::INSUFFICIENT_STORAGE, DISK_FULL.into())
    }
}

/// What a client is told while the server's disk is full.
const DISK_FULL: &str = "the server's disk is full: try again later";

/// A short id for an internal error: 8 hex digits, different for each
/// (a counter, hashed with keys the process draws at random, so that ids
/// from one run do not repeat those of the last).
fn incident_id() -> String {
    use std::{
        hash::BuildHasher,
        sync::atomic::{AtomicU64, Ordering},
    };
    static NEXT: AtomicU64 = AtomicU64::new(0);
    static KEYS: std::sync::OnceLock<std::collections::hash_map::RandomState> = std::sync::OnceLock::new();
    let hash = KEYS.get_or_init(Default::default).hash_one(NEXT.fetch_add(1, Ordering::Relaxed));
    format!("{:08x}", hash as u32)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.0, Json(json!({ "error": self.1 }))).into_response();
        let unread = [
            StatusCode::UNAUTHORIZED,
            StatusCode::FORBIDDEN,
            StatusCode::REQUEST_TIMEOUT,
            StatusCode::PAYLOAD_TOO_LARGE,
        ];
        if unread.contains(&self.0) {
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

/// Anything else that went wrong: the server's fault (500).
impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> ApiError {
        ApiError::internal(e)
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(e: rusqlite::Error) -> ApiError {
        anyhow::Error::from(e).into()
    }
}

type Answer = Result<Response, ApiError>;

impl App {
    /// Runs `work` on a database connection, off the async threads.
    async fn db<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Connection) -> Result<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        self.pool.run(work).await.map_err(|e| self.failed(e))
    }

    /// What the client is told of `e`, the server's failure: `507` for a
    /// write that found the disk full (the server enters that state),
    /// else `500`.
    fn failed(&self, e: anyhow::Error) -> ApiError {
        match self.disk.hit(&e) {
            true => ApiError::disk_full(),
            false => ApiError::internal(e),
        }
    }

    /// Each assignment's deadline, in the course's order.
    async fn deadlines(&self) -> Result<Vec<Option<String>>, ApiError> {
        let names: Vec<String> = self.course.assignments.iter().map(|a| a.name.clone()).collect();
        self.db(move |db| names.iter().map(|n| store::db::deadline(db, n)).collect()).await
    }

    /// Submission `id`, if it is `student`'s group's.
    async fn own_submission(
        &self,
        student: &store::db::Student,
        id: i64,
    ) -> Result<store::db::Submission, ApiError> {
        let group = student.group;
        self.db(move |db| store::db::submission_of(db, id, group))
            .await?
            .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("your group has no submission {id}")))
    }
}

/// `POST /api/submissions`: a player (a library, or a Python folder as an
/// archive) as the multipart field `file`, for the member's group, and
/// the group's contribution note as the field `note` if it sends one. The
/// token is checked before the body is read (`Student`); every upload
/// started counts against the group's hourly limit, accepted or refused.
async fn submit(
    State(app): State<Arc<App>>,
    client: Option<axum::Extension<http::connections::Client>>,
    Student(student): Student,
    form: Multipart,
) -> Answer {
    let client = client.map_or("?".to_string(), |c| c.0.to_string());
    if app.disk.is_full() {
        // Read and dropped, as a refusal over the limit: a client still sending sees why.
        discard(form).await;
        return Err(ApiError::disk_full());
    }
    let (who, per_hour) = (student.clone(), app.per_hour);
    let started = app.db(move |db| store::db::start_upload(db, &who, per_hour)).await?;
    let upload = match started {
        Ok(upload) => upload,
        Err((made, oldest)) => {
            // A known student over the limit: their upload is read (and
            // dropped as it comes) so that a client still sending sees why.
            discard(form).await;
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "{made} uploads in the last hour, the most this server takes: the next is accepted \
                     an hour after {} (UTC)",
                    oldest.unwrap_or_default()
                ),
            ));
        }
    };
    match accept(&app, &student, upload, form).await {
        Ok((id, sha256)) => {
            tracing::info!(client = %client, "submission {id} received from {} at {client}", student.name);
            app.wake.notify();
            Ok((
                StatusCode::CREATED,
                Json(json!({ "id": id, "status": store::db::status::QUEUED, "sha256": sha256 })),
            )
                .into_response())
        }
        Err(refused) => {
            let why = refused.1.clone();
            match app.db(move |db| store::db::refuse_upload(db, upload, &why)).await {
                // (The full disk is said once, as the server enters that state.)
                Err(e) if e.0 != StatusCode::INSUFFICIENT_STORAGE => {
                    tracing::warn!("upload {}: its refusal not recorded: {}", upload.0, e.1)
                }
                _ => {}
            }
            Err(refused)
        }
    }
}

/// Reads what is left of an upload, keeping none of it.
async fn discard(mut form: Multipart) {
    while let Ok(Some(mut field)) = form.next_field().await {
        while let Ok(Some(_)) = field.chunk().await {}
    }
}

/// Reads, checks and stores an upload; the new submission's id and hash.
async fn accept(
    app: &App,
    student: &store::db::Student,
    upload: store::db::Upload,
    mut form: Multipart,
) -> Result<(i64, String), ApiError> {
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the file is larger than this server accepts ({} bytes)", app.max_upload),
        )
    };
    let unreadable = |e: axum::extract::multipart::MultipartError| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => too_large(),
        status => ApiError::new(status, e.body_text()),
    };
    let mut upload_file = None;
    let mut note = None;
    let mut named = None;
    while let Some(field) = form.next_field().await.map_err(unreadable)? {
        match field.name() {
            Some("file") => {
                let name = course::accounts::without_hidden(field.file_name().unwrap_or("player.so"));
                upload_file = Some((name, field.bytes().await.map_err(unreadable)?));
            }
            Some("assignment") => named = Some(field.text().await.map_err(unreadable)?),
            Some("note") => {
                let bytes = field.bytes().await.map_err(unreadable)?;
                note = Some(checked_note(&bytes).map_err(|why| ApiError::new(StatusCode::BAD_REQUEST, why))?);
            }
            _ => {}
        }
    }
    // Checked once the body is read: a client still sending sees why.
    let assignment = app.course.pick(named.as_deref()).map_err(|why| {
        ApiError::new(StatusCode::BAD_REQUEST, format!("{why}: send it as the field `assignment`"))
    })?;
    let (name, bytes) = upload_file.ok_or_else(|| {
        ApiError::new(StatusCode::BAD_REQUEST, "no file: send the library as the multipart field `file`")
    })?;
    if bytes.len() as u64 > app.max_upload {
        return Err(too_large());
    }
    // A library, or a Python player's folder as an archive.
    let archive = store::archive::Kind::of(&bytes);
    if archive.is_none() {
        store::files::check_library(&bytes).map_err(|why| ApiError::new(StatusCode::BAD_REQUEST, why))?;
    }
    let data = app.data.clone();
    let size = bytes.len() as u64;
    let stored = tokio::task::spawn_blocking(move || match archive {
        None => store::files::save(&data, &bytes).map(|sha| Ok((sha, None))),
        Some(kind) => {
            store::files::save_archive(&data, &bytes, kind).map(|saved| saved.map(|(sha, p)| (sha, Some(p))))
        }
    })
    .await
    .map_err(|e| anyhow::anyhow!("storing the upload: {e}"))?
    .map_err(|e| app.failed(e))?;
    let (sha256, player) = stored.map_err(|why| ApiError::new(StatusCode::BAD_REQUEST, why))?;
    // No note sent: the course's hand-in may hold it, as `<group>.txt`
    // (the group the student is in now: they may have moved meanwhile).
    if let (None, Some(player)) = (&note, &player) {
        let (id, data, hash, player) = (student.id, app.data.clone(), sha256.clone(), player.clone());
        let archived = app
            .db(move |db| {
                let group = store::db::group(db, store::db::group_of(db, id)?)?;
                Ok(store::files::archived_note(&data, &hash, &player, &group.name))
            })
            .await?;
        if let Some(bytes) = archived {
            let why =
                |why: String| ApiError::new(StatusCode::BAD_REQUEST, format!("the archive's note: {why}"));
            note = Some(checked_note(&bytes).map_err(why)?);
        }
    }
    let (who, hash, assignment, per_hour) =
        (student.clone(), sha256.clone(), assignment.name.clone(), app.per_hour);
    let added = app
        .db(move |db| {
            let file = store::db::Uploaded {
                assignment: &assignment,
                sha256: &hash,
                player: player.as_deref(),
                file_name: &name,
                size,
                note: note.as_deref().filter(|n| !n.is_empty()),
            };
            store::db::add_submission(db, upload, &who, per_hour, &file)
        })
        .await?;
    match added {
        Ok(id) => Ok((id, sha256)),
        Err(moved) => Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "you were moved to group '{}' while this upload was sent, and it has made {} uploads in the \
                 last hour, the most this server takes: the next is accepted an hour after {} (UTC)",
                moved.group,
                moved.made,
                moved.oldest.unwrap_or_default()
            ),
        )),
    }
}

/// The longest contribution note kept.
const MAX_NOTE: usize = 20_000;

/// A contribution note as sent: text, not too long (it is shown to staff,
/// escaped, and never to other groups), without control or formatting
/// characters but its line breaks and tabs (`course::accounts::without_hidden`: a
/// bidi control would show staff its text reversed).
fn checked_note(bytes: &[u8]) -> Result<String, String> {
    if bytes.len() > MAX_NOTE {
        return Err(format!("the note is {} bytes: keep it under {MAX_NOTE}", bytes.len()));
    }
    let text = std::str::from_utf8(bytes).map_err(|_| "the note is not UTF-8 text".to_string())?;
    Ok(course::accounts::without_hidden(text).trim().to_string())
}

/// `GET /api/assignments`: the course and its assignments, as anyone may
/// see them (each with its game, its deadline and how it is graded).
async fn assignments(State(app): State<Arc<App>>) -> Answer {
    let deadlines = app.deadlines().await?;
    let assignments: Vec<_> = app
        .course
        .assignments
        .iter()
        .zip(deadlines)
        .map(|(a, deadline)| {
            let (pass_key, pass): (&str, Value) = match &a.grading.pass {
                course::Pass::Wins(wins) => ("wins_to_pass", json!(wins)),
                course::Pass::Margin(margins) => ("score_margin", json!(margins)),
            };
            let under = a.graded_under();
            json!({
                "name": a.name,
                "title": a.title,
                "time_per_turn": under["time_per_turn"],
                "grace": arena_core::report::units::seconds(a.grace()),
                "clock": under["clock"],
                "game": a.game,
                "single_player": a.game.is_single_player(),
                "deadline": deadline,
                "levels": a.grading.levels.iter().map(|l| l.name()).collect::<Vec<_>>(),
                "games_per_level": a.grading.games,
                pass_key: pass,
            })
        })
        .collect();
    Ok(Json(json!({ "course": app.course.name, "assignments": assignments })).into_response())
}

/// `GET /api/submissions?before=ID&limit=N`: a page of the caller's own
/// submissions, newest first, as their owner sees them, with the list's
/// total and the next page's address; and the uploads they may still
/// start this hour (with the largest file taken: `arena submit` checks it
/// before sending).
async fn list(
    State(app): State<Arc<App>>,
    Student(student): Student,
    UrlQuery(asked): UrlQuery<http::extract::ListQuery>,
) -> Answer {
    let (group, per_hour, page) = (student.group, app.per_hour, asked.page()?);
    let (info, submissions, (left, oldest)) = app
        .db(move |db| {
            Ok((
                store::db::group(db, group)?,
                store::db::submissions_of(db, group, page)?,
                store::db::uploads_left(db, group, per_hour)?,
            ))
        })
        .await?;
    let mut answer = json!({
        "student": student.name,
        "group": info,
        "uploads": { "left": left, "per_hour": app.per_hour, "oldest": oldest, "max_bytes": app.max_upload },
    });
    http::extract::ListQuery::place(&mut answer, "/api/submissions", page, &submissions);
    let rows: Vec<store::db::Submission> =
        submissions.rows.into_iter().map(|s| http::views::for_owner(app.disk.shown(s))).collect();
    answer["submissions"] = json!(rows);
    Ok(Json(answer).into_response())
}

/// `GET /api/submissions/{id}`: one of the caller's own submissions.
async fn show(State(app): State<Arc<App>>, Student(student): Student, UrlPath(id): UrlPath<i64>) -> Answer {
    let submission = app.disk.shown(app.own_submission(&student, id).await?);
    Ok(Json(http::views::for_owner(submission)).into_response())
}

/// `GET /api/submissions/{id}/replays`: the games the submission lost
/// while graded, each with its viewer and, once analysed after the grade
/// (`analysis` is then "done", before it "pending"), its turning point.
async fn replays(
    State(app): State<Arc<App>>,
    Student(student): Student,
    UrlPath(id): UrlPath<i64>,
) -> Answer {
    app.own_submission(&student, id).await?;
    let names = work::grader::lost_games(&app.data, id);
    let analysed = work::grader::lost_games_analysis(&app.data, id);
    let replays: Vec<_> = names
        .iter()
        .map(|name| {
            let mut replay = json!({ "name": name, "url": format!("/api/submissions/{id}/replays/{name}") });
            let game = analysed.as_ref().and_then(|a| a.games.iter().find(|g| &g.name == name));
            if let Some(game) = game {
                replay["analysed"] = game.analysed.into();
                replay["turning_point"] = json!(game.turning_point);
            }
            replay
        })
        .collect();
    let state = if analysed.is_some() || names.is_empty() { "done" } else { "pending" };
    Ok(Json(json!({ "replays": replays, "analysis": state })).into_response())
}

/// `GET /api/submissions/{id}/replays/{name}`: the HTML viewer of one,
/// under a policy that lets its own inline code run and nothing else.
async fn replay_viewer(
    State(app): State<Arc<App>>,
    Student(student): Student,
    UrlPath((id, name)): UrlPath<(i64, String)>,
) -> Answer {
    app.own_submission(&student, id).await?;
    let html = work::grader::lost_game_viewer(&app.data, id, &name).ok_or_else(|| {
        ApiError::new(StatusCode::NOT_FOUND, format!("submission {id} has no replay named '{name}'"))
    })?;
    let policy = http::headers::page_policy(&html);
    Ok(([(header::CONTENT_SECURITY_POLICY, policy)], Html(html)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_error_tells_the_client_an_id_and_nothing_of_what_went_wrong() {
        let secret = "cannot open /srv/arena-secret/arena.db: disk I/O error";
        let errors = [
            ApiError::from(anyhow::anyhow!("{secret}")),
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, secret),
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, secret),
        ];
        let mut ids = Vec::new();
        for ApiError(status, words) in errors {
            assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
            let id = words
                .strip_prefix("internal error (logged as #")
                .and_then(|rest| rest.strip_suffix(')'))
                .unwrap_or_else(|| panic!("{words}"));
            assert!(id.len() == 8 && id.chars().all(|c| c.is_ascii_hexdigit()), "{words}");
            ids.push(id.to_string());
        }
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 3, "{ids:?}");
        // A refusal keeps its words.
        let ApiError(status, words) = ApiError::new(StatusCode::NOT_FOUND, "no such thing");
        assert_eq!((status, words.as_str()), (StatusCode::NOT_FOUND, "no such thing"));
    }
}
