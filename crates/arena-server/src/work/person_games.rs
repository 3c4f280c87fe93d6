//! A person plays on the course server: a student plays one game against
//! its group's current submission (its latest graded one) or a reference
//! level, from a page of its own (`/play/{token}`, `http::play`'s seats).
//! Not graded, stored nowhere, in no standings. A student plays one game
//! at a time, at most [`PER_HOUR`] an hour (refused ones not counted).
//!
//! The game is played on a thread of its own at the games' nice (never a
//! request thread: `nice.rs`), its bot in a sandboxed worker as grading's,
//! on a core of the pool at the scrimmages' priority (below grading),
//! held for the whole game, and judged on the assignment's clock; while the
//! person thinks, the bot's worker is stopped (`isolation/process.rs`). It
//! never holds the core for long: the person has [`CAP`] for the whole
//! game, and a page unpolled for [`GONE_AFTER`] gives the game up.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use arena_core::{
    play::cores::{self, Priority},
    play::time_control::TimeControl,
    play::two_player::{self, MatchConfig, TwoPlayerGame},
    players::{
        person::{
            page::{self, PageTable},
            Person,
        },
        Player,
    },
    with_rules,
};
use axum::{extract::State, http::StatusCode, response::IntoResponse, Json};
use rusqlite::params;
use serde::Deserialize;
use serde_json::json;

use crate::{
    course::Assignment,
    http::{auth::Student, extract::JsonBody, play::Seats},
    store::{db::status, files as store},
    Answer, ApiError, App,
};

/// Games a student may start in an hour.
pub const PER_HOUR: usize = 4;
/// A person's time for a whole game on the server (the command line's is
/// 30 minutes): past it, the person forfeits.
pub const CAP: Duration = Duration::from_secs(10 * 60);
/// A page unpolled this long has gone away (it polls every second or so).
pub const GONE_AFTER: Duration = Duration::from_secs(15);

/// The games persons play: the seats' pages, and who plays or played when.
#[derive(Default)]
pub struct PersonGames {
    pub seats: Seats,
    started: Mutex<HashMap<i64, Vec<Instant>>>,
    playing: Mutex<Vec<i64>>,
}

impl PersonGames {
    /// Takes a place for student `id`'s game, or says why not.
    fn admit(&self, id: i64) -> Result<(), String> {
        let mut playing = self.playing.lock().unwrap_or_else(|e| e.into_inner());
        if playing.contains(&id) {
            return Err("you are playing a game already: finish it (or resign) first".into());
        }
        let mut started = self.started.lock().unwrap_or_else(|e| e.into_inner());
        let hour = Duration::from_secs(3600);
        let times = started.entry(id).or_default();
        times.retain(|t| t.elapsed() < hour);
        if times.len() >= PER_HOUR {
            let wait = hour.saturating_sub(times[0].elapsed()).as_secs() / 60 + 1;
            return Err(format!("{PER_HOUR} games in the last hour, the most: the next in {wait} minutes"));
        }
        times.push(Instant::now());
        playing.push(id);
        Ok(())
    }

    fn done(&self, id: i64) {
        self.playing.lock().unwrap_or_else(|e| e.into_inner()).retain(|p| *p != id);
    }
}

/// `POST /api/play`: `{"assignment": NAME, "opponent": "ours" | LEVEL}`.
#[derive(Deserialize)]
pub(crate) struct Asked {
    assignment: Option<String>,
    opponent: String,
}

/// Starts a game of the student against `opponent`: `201` and the page's
/// address (`{"page": "/play/TOKEN"}`, the seat's token in it).
pub(crate) async fn start(
    State(app): State<Arc<App>>,
    Student(student): Student,
    JsonBody(asked): JsonBody<Asked>,
) -> Answer {
    let assignment = assignment(&app, asked.assignment.as_deref())?;
    let opponent = if asked.opponent == "ours" {
        latest_graded(&app, student.group, &assignment).await?.ok_or_else(|| {
            ApiError::new(
                StatusCode::CONFLICT,
                format!("your group has no graded submission for {} yet: play a level", assignment.name),
            )
        })?
    } else {
        level(&asked.opponent).ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "opponent: \"ours\" (your group's submission) or a level (easy, medium, hard, expert)",
            )
        })?
    };
    let pages = open(&app, student.id, &assignment, [Sitter::Person, Sitter::Bot(opponent)])?;
    Ok((StatusCode::CREATED, Json(json!({ "page": pages[0] }))).into_response())
}

/// The assignment `name` names (the course's first when none does), or 404.
pub(crate) fn assignment(app: &App, name: Option<&str>) -> Result<Assignment, ApiError> {
    match name {
        None => Ok(app.course.assignments[0].clone()),
        Some(name) => app.course.assignment(name).cloned().ok_or_else(|| {
            ApiError::new(StatusCode::NOT_FOUND, format!("no assignment '{name}' on this server"))
        }),
    }
}

/// A reference level's player entry, if `name` is one.
pub(crate) fn level(name: &str) -> Option<String> {
    match name.parse() {
        Ok(spec @ arena_core::players::PlayerSpec::Builtin(_)) => Some(spec.to_string()),
        _ => None,
    }
}

/// The player entry of group `group`'s latest graded submission for `assignment`, if it has one.
pub(crate) async fn latest_graded(
    app: &Arc<App>,
    group: i64,
    assignment: &Assignment,
) -> Result<Option<String>, ApiError> {
    let name = assignment.name.clone();
    let found = app
        .db(move |db| {
            let row: Option<(String, Option<String>)> = db
                .query_row(
                    "SELECT sha256, player FROM submissions WHERE group_id = ?1 AND assignment = ?2
                     AND status = ?3 ORDER BY id DESC LIMIT 1",
                    params![group, name, status::DONE],
                    |row| Ok((row.get(0)?, row.get(1)?)),
                )
                .ok();
            Ok(row)
        })
        .await?;
    let Some((sha256, player)) = found else { return Ok(None) };
    Ok(Some(store::player_entry(&app.data, &sha256, player.as_deref()).map_err(ApiError::from)?))
}

/// Who sits at a seat of a person's game: a person at a page of its own,
/// or the player an entry names (a level, a submission).
pub(crate) enum Sitter {
    Person,
    Bot(String),
}

/// A seat taken: a person's page, or a player's entry.
enum Seat {
    Person(Arc<PageTable>),
    Bot(String),
}

/// Opens a table for `seats` on `assignment`, counted against `id`'s
/// bounds (one game at a time, [`PER_HOUR`]), and starts its game on a
/// thread of its own: each person's page address (`/play/TOKEN`), `None`
/// at a bot's seat. Refusals are `429` with the reason.
pub(crate) fn open(
    app: &Arc<App>,
    id: i64,
    assignment: &Assignment,
    seats: [Sitter; 2],
) -> Result<[Option<String>; 2], ApiError> {
    let refuse = |status, why: String| Err(ApiError::new(status, why));
    if let Err(why) = app.person_games.admit(id) {
        return refuse(StatusCode::TOO_MANY_REQUESTS, why);
    }
    let mut taken = Vec::with_capacity(2);
    for sitter in seats {
        taken.push(match sitter {
            Sitter::Bot(entry) => Seat::Bot(entry),
            Sitter::Person => match PageTable::new() {
                Ok(table) => Seat::Person(Arc::new(table.gone_after(GONE_AFTER))),
                Err(e) => {
                    app.person_games.done(id);
                    return refuse(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        format!("cannot make a seat's token: {e}"),
                    );
                }
            },
        });
    }
    let taken: [Seat; 2] = taken.try_into().unwrap_or_else(|_| unreachable!("two seats"));
    let tables: Vec<Arc<PageTable>> = taken
        .iter()
        .filter_map(|seat| if let Seat::Person(t) = seat { Some(t.clone()) } else { None })
        .collect();
    for table in &tables {
        app.person_games.seats.add(table.clone());
    }
    let pages = taken.each_ref().map(|seat| match seat {
        Seat::Person(table) => Some(format!("/play/{}", table.token())),
        Seat::Bot(_) => None,
    });
    let (nice, rules, settings) = (app.games_nice, assignment.rules.clone(), assignment.settings.clone());
    // Whatever happens to the game, even a panic or a thread never
    // started, the seats and the one game at a time are given back.
    let ended = Ended { app: app.clone(), tables: tables.clone(), id };
    let spawned = std::thread::Builder::new().name("person's game".into()).spawn(move || {
        let _ended = ended;
        // Games are played at the games' nice, never a page's (`nice.rs`).
        crate::work::nice::set(nice, "games");
        cores::set_priority(Priority::Scrimmage);
        if let Err(e) = play(&rules, &settings, taken) {
            for table in &tables {
                table_tell(table, &format!("the game could not be played: {e}"));
            }
            tracing::warn!("a person's game could not be played: {e}");
        }
        page::last_look(&tables, page::CLOSED_AFTER);
    });
    if let Err(e) = spawned {
        // The closure, and its `Ended`, were dropped unrun.
        return refuse(StatusCode::SERVICE_UNAVAILABLE, format!("cannot start the game: {e}"));
    }
    Ok(pages)
}

/// A person's game ended: its seats removed (their tokens refused from now
/// on) and whoever opened it free to open another, when dropped.
struct Ended {
    app: Arc<App>,
    tables: Vec<Arc<PageTable>>,
    id: i64,
}

impl Drop for Ended {
    fn drop(&mut self) {
        for table in &self.tables {
            self.app.person_games.seats.remove(table);
        }
        self.app.person_games.done(self.id);
    }
}

fn table_tell(table: &PageTable, text: &str) {
    use arena_core::players::person::Table as _;
    table.tell(text);
}

/// One game between the two seats (seat 1 first), a bot's workers
/// stopped on the clock and grace of the assignment's `settings` (as its
/// grading's are).
fn play(
    rules: &arena_core::games::rules::GameRules,
    settings: &toml::Table,
    seats: [Seat; 2],
) -> anyhow::Result<()> {
    let hosting = crate::work::league::hosting(settings)?;
    let mut players = Vec::with_capacity(2);
    for seat in &seats {
        players.push(match seat {
            Seat::Person(table) => Player::Person(Person::new(table.clone())),
            Seat::Bot(entry) => crate::work::league::load_player(entry, &hosting)?,
        });
    }
    // A person has the whole game's time; a bot the assignment's per turn.
    let controls = seats.each_ref().map(|seat| match seat {
        Seat::Person(_) => Some(TimeControl::Bank { base: CAP, increment: Duration::ZERO, cap: None }),
        Seat::Bot(_) => None,
    });
    let players = [&players[0], &players[1]];
    with_rules!(rules.clone(), G, settings => play_one::<G>(players, settings, controls, hosting),
        solo => anyhow::bail!("a person plays only two-player games on the server ({settings:?})"));
    Ok(())
}

fn play_one<G: TwoPlayerGame>(
    players: [&Player; 2],
    settings: G::Settings,
    controls: [Option<TimeControl>; 2],
    hosting: arena_core::players::Hosting,
) {
    let seed = u64::from_le_bytes(fresh_bytes());
    let config = MatchConfig::<G> {
        settings,
        games: 1,
        seed,
        hosting,
        first_game: 0,
        concurrency: 1,
        controls,
        live: None,
    };
    two_player::play(players, &config, &mut |_| {}, None);
}

/// Eight fresh bytes for the game's seed (no one's choice).
fn fresh_bytes() -> [u8; 8] {
    use std::io::Read as _;
    let mut bytes = [0u8; 8];
    let _ = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    bytes
}
