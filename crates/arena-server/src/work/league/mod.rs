//! The live leagues behind the leaderboards, one per two-player
//! assignment: each group's latest graded submission for it (made before
//! its deadline) is an entrant, and matchmaking
//! (`arena_core::matchmaking`) chooses the games by need: a new submission
//! first plays placement games against a spread of ratings, then games go
//! to the least-played and to the pairs whose result is least certain.
//! Games come in seat-swapped pairs on one seed, several pairs at once, and
//! no pairing plays more than `GAMES` (the full round robin is `finalize`'s).
//!
//! The results live in memory ([`Live`]: ratings, W/D/L per pair), loaded
//! once from the database at start and kept current as each game is
//! stored: each game moves its two ratings at once (the online update), a
//! small league refits at each change (milliseconds) and a large one once
//! a twentieth of its games changed (`matchmaking::Refits`); never a pass
//! over every game. Each game is stored as it ends: after a crash a
//! pairing resumes at its first missing game, and no game is stored twice.
//!
//! The league's thread ([`play_forever`]) plays while nothing waits to be
//! graded, as staff say (`LEAGUE_SETTING`); with `--executor slurm` a
//! round is a batch job (batch.rs).

mod batch;

use std::{
    collections::{BTreeMap, HashMap},
    path::Path,
    sync::{Arc, Mutex},
    time::Duration,
};

use anyhow::Result;
use rusqlite::{params, Connection};
use serde_json::{json, Value};

pub use batch::run_batch;

use crate::{
    course::{self, Assignment, Course},
    store::db::{self, Submission},
    store::disk,
    store::files as store,
    store::secret::{Purpose, Secret},
    work::executor::Executor,
    work::full_disk::FullDisk,
    work::waiting::Postponed,
    work::wake::Wake,
    work::work_log::Work,
};
use arena_core::{
    game_rules::Budgets,
    games::rules::GameRules,
    matchmaking::{EntrantId, GamePair, League, Policy, Standing, GAMES_PER_PAIR},
    play::cores,
    play::two_player::{self, MatchConfig, TwoPlayerGame},
    players::isolation::WorkerLimits,
    players::{Hosting, Player, PlayerSpec},
    replay::{live::LivePlayers, ReplayPlayer},
    stats::{Rating, Wdl},
    tournament::record::GameResult,
    with_rules,
};

/// The most games one pairing plays in the live league.
pub const GAMES: u32 = 10;

/// The `settings` key under which the games counted by `assignment`'s
/// stored ratings are kept.
fn ratings_games_key(assignment: &str) -> String {
    format!("league_ratings_games:{assignment}")
}

/// The league: plays rounds of pairings while nothing waits to be graded;
/// none while the disk is full (`disk`): a round that finds it full ends,
/// and the next waits for room.
pub(crate) fn play_forever(
    dir: &Path,
    db: &Connection,
    (wake, changed): (&Wake, &Wake),
    disk: &FullDisk,
    leagues: &Leagues,
    slots: usize,
    executor: &Executor,
) {
    loop {
        disk.wait_for_room();
        // Staff's word on the league, and a finalize run from a shell.
        if let Some(pool) = cores::pool() {
            pool.set_league(league_state(db));
            pool.set_final_elsewhere(finalizing_elsewhere(db));
            if pool.league_held_now() {
                wake.wait(Duration::from_secs(2));
                continue;
            }
        }
        // Grading comes first: the league plays while nothing waits.
        let idle = db::queue(db, None).map(|(waiting, grading)| waiting == 0 && grading.is_none());
        let played = match idle {
            Ok(true) => leagues.play_round(dir, slots, changed, executor),
            Ok(false) => Ok(false),
            Err(e) => Err(e),
        };
        match played {
            Ok(true) => {}
            Ok(false) => wake.wait(Duration::from_secs(2)),
            Err(e) if disk.hit(&e) => {}
            Err(e) => {
                tracing::error!("the league: {e:#}");
                wake.wait(Duration::from_secs(5));
            }
        }
    }
}

/// The `db` setting that says whether the league plays (`serve league`,
/// the staff API): `auto`, `running` or `paused`.
pub const LEAGUE_SETTING: &str = "league";

/// The `db` setting a `serve finalize` run from a shell holds while it
/// runs: its process id.
pub const FINALIZING_SETTING: &str = "finalizing";

/// What staff last said of the league (auto if nothing).
pub fn league_state(db: &Connection) -> cores::LeagueState {
    let said = db::setting(db, LEAGUE_SETTING).ok().flatten();
    said.as_deref().and_then(cores::LeagueState::parse).unwrap_or_default()
}

/// Whether a `serve finalize` of another process runs now.
fn finalizing_elsewhere(db: &Connection) -> bool {
    let pid = db::setting(db, FINALIZING_SETTING).ok().flatten().and_then(|p| p.parse::<libc::pid_t>().ok());
    // SAFETY: signal 0 only asks whether the process exists.
    pid.is_some_and(|pid| pid > 0 && unsafe { libc::kill(pid, 0) } == 0)
}

/// The course's leagues: one per two-player assignment, in the course's
/// order.
pub struct Leagues {
    /// Each league, by its assignment's name.
    leagues: Vec<(String, Arc<Mutex<Live>>)>,
}

impl Leagues {
    /// The leagues of `course`'s two-player assignments, with every game
    /// stored among their current submissions (read once).
    pub fn load(db: &Connection, course: &Course) -> Result<Leagues> {
        let mut leagues = Vec::new();
        for assignment in course.assignments.iter().filter(|a| !a.game.is_single_player()) {
            leagues.push((assignment.name.clone(), Arc::new(Mutex::new(Live::load(db, assignment)?))));
        }
        Ok(Leagues { leagues })
    }

    /// The league of assignment `name`, if it is a two-player one.
    pub fn of(&self, name: &str) -> Option<&Arc<Mutex<Live>>> {
        self.leagues.iter().find(|(n, _)| n == name).map(|(_, live)| live)
    }

    /// Stores each league's ratings whose fit counts games the stored one
    /// did not (for the next start); a failure is logged. The ratings are
    /// copied under the league's lock and written after it is let go: the
    /// league's games are stored meanwhile.
    pub fn save_ratings(&self, db: &Connection) {
        for (name, live) in &self.leagues {
            let (standings, games) = {
                let live = live.lock().unwrap_or_else(|e| e.into_inner());
                let games = live.league.ledger().total_games();
                if live.saved_games == Some(games) {
                    continue;
                }
                (live.league.standings(), games)
            };
            match store_ratings(db, name, &standings, games) {
                Ok(()) => live.lock().unwrap_or_else(|e| e.into_inner()).saved_games = Some(games),
                Err(e) => tracing::warn!("the ratings of the league of {name} cannot be stored: {e:#}"),
            }
        }
    }

    /// Plays a round of each league that has something to play; whether
    /// any game was played.
    pub fn play_round(&self, dir: &Path, slots: usize, changed: &Wake, executor: &Executor) -> Result<bool> {
        let mut played = false;
        for (_, live) in &self.leagues {
            played |= play_round(dir, live, slots, changed, executor)?;
        }
        Ok(played)
    }
}

/// The league's results in memory: who plays (each group's current
/// submission), the matchmaking league (ratings), and each pairing's
/// W/D/L and games stored.
pub struct Live {
    /// The assignment it is of (its game's rules).
    assignment: Assignment,
    league: League,
    /// Current submissions: id -> the student's name.
    names: BTreeMap<i64, String>,
    /// By pairing (older id, newer id): the older's W/D/L.
    pairings: HashMap<(i64, i64), Wdl>,
    /// Games played since the server started.
    played: u64,
    /// The games counted by the ratings stored last (`league_ratings`).
    saved_games: Option<u64>,
    /// Current submissions' players, loaded once (loading starts a worker
    /// to ask the player its name: not once per pairing).
    loaded: HashMap<i64, Player>,
    /// The current submissions as last read, with what they depend on
    /// (`db::latest_graded_fingerprint`): a round reads them again only
    /// when that changed (the read takes 0.1 s at 10,000 groups).
    current: Option<(String, Arc<Vec<Submission>>)>,
}

/// A league's standings as [`Live::standings`] gives them.
pub struct LeagueTable {
    /// Games stored among the entrants.
    pub games: u64,
    /// Each entrant's row, best first; its `id` numbers it in `met`.
    pub rows: Vec<Value>,
    /// By entrant `id`: its W/D/L against each entrant it met, by
    /// opponent's `id` (a field of 10,000 has a million: kept as numbers,
    /// written out as JSON one group's row at a time).
    pub met: Vec<Vec<(usize, Wdl)>>,
}

/// Entrant `player`'s crosstable cell against `opponent`, as the API gives it.
pub fn cell(player: usize, opponent: usize, wdl: &Wdl) -> Value {
    json!({
        "player": player, "opponent": opponent,
        "wins": wdl.wins, "draws": wdl.draws, "losses": wdl.losses,
    })
}

/// Stores `assignment`'s league ratings as last fitted (`standings`,
/// counting `games` games), for the next start: [`Live::restore_ratings`].
fn store_ratings(db: &Connection, assignment: &str, standings: &[Standing], games: u64) -> Result<()> {
    let tx = db::writing(db)?;
    tx.execute("DELETE FROM league_ratings WHERE assignment = ?1", [assignment])?;
    {
        let mut insert = tx.prepare(
            "INSERT INTO league_ratings (assignment, submission, elo, error) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for standing in standings {
            let error = standing.rating.error;
            insert.execute(params![
                assignment,
                standing.entrant.0,
                standing.rating.elo,
                error.is_finite().then_some(error)
            ])?;
        }
    }
    db::set_setting(&tx, &ratings_games_key(assignment), &games.to_string())?;
    tx.commit()?;
    Ok(())
}

/// The older id first.
fn ordered(a: i64, b: i64) -> (i64, i64) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}

impl Live {
    /// The league of the current submissions, with every game stored among
    /// them (read once).
    pub fn load(db: &Connection, assignment: &Assignment) -> Result<Live> {
        let mut live = Live {
            assignment: assignment.clone(),
            league: League::new(Policy::default()),
            names: BTreeMap::new(),
            pairings: HashMap::new(),
            played: 0,
            saved_games: None,
            loaded: HashMap::new(),
            current: None,
        };
        live.sync(db)?;
        live.restore_ratings(db)?;
        Ok(live)
    }

    /// Brings the entrants up to date with the current submissions
    /// (`db::latest_graded`, read again only if what they depend on
    /// changed since the last call), and gives them: a newly graded
    /// submission enters (with any games it already has in `db`: after a
    /// restart), one no longer current retires.
    pub fn sync(&mut self, db: &Connection) -> Result<Arc<Vec<Submission>>> {
        let fingerprint = db::latest_graded_fingerprint(db, &self.assignment.name)?;
        if let Some((known, latest)) = &self.current {
            if *known == fingerprint {
                return Ok(latest.clone());
            }
        }
        let latest = Arc::new(db::latest_graded(db, &self.assignment.name)?);
        self.sync_with(db, &latest)?;
        self.current = Some((fingerprint, latest.clone()));
        Ok(latest)
    }

    /// `sync` with the current submissions read already.
    pub fn sync_with(&mut self, db: &Connection, latest: &[Submission]) -> Result<()> {
        let current: BTreeMap<i64, String> = latest.iter().map(|s| (s.id, s.group.clone())).collect();
        let gone: Vec<i64> = self.names.keys().filter(|id| !current.contains_key(id)).copied().collect();
        let new: Vec<i64> = current.keys().filter(|id| !self.names.contains_key(id)).copied().collect();
        for id in &gone {
            let _ = self.league.retire(EntrantId(*id));
            self.pairings.retain(|&(a, b), _| a != *id && b != *id);
            self.loaded.remove(id);
        }
        for id in &new {
            self.league.add(EntrantId(*id))?;
        }
        self.names = current;
        if !new.is_empty() {
            self.load_games(db, &new)?;
        }
        Ok(())
    }

    /// Records the stored games of `ids` against current entrants, counted
    /// per pairing and result by the database (a league of 10,000 has a
    /// million games: their records are never read here).
    fn load_games(&mut self, db: &Connection, ids: &[i64]) -> Result<()> {
        // Every entrant new (the start): one pass over the table, no lists.
        let only = if ids.len() == self.names.len() {
            String::new()
        } else {
            let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
            format!("WHERE a IN ({list}) OR b IN ({list})")
        };
        let mut query =
            db.prepare(&format!("SELECT a, b, winner, COUNT(*) FROM games {only} GROUP BY a, b, winner"))?;
        let rows = query.query_map([], |row| {
            Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?, row.get::<_, i64>(2)?, row.get::<_, u64>(3)?))
        })?;
        for row in rows {
            let (a, b, winner, games) = row?;
            // (One row a game, even between two new ones.)
            if !self.names.contains_key(&a) || !self.names.contains_key(&b) {
                continue;
            }
            let winner = usize::try_from(winner).ok();
            for _ in 0..games {
                self.count(a, b, winner);
            }
        }
        Ok(())
    }

    /// Starts the ratings from those [`Leagues::save_ratings`] stored, where
    /// they are of current entrants: after a restart the league answers
    /// with them at once, and its first refit starts from them (a few
    /// iterations, not a fit from nothing).
    fn restore_ratings(&mut self, db: &Connection) -> Result<()> {
        let mut query =
            db.prepare("SELECT submission, elo, error FROM league_ratings WHERE assignment = ?1")?;
        let rows = query.query_map([&self.assignment.name], |row| {
            let error: Option<f64> = row.get(2)?;
            Ok((row.get::<_, i64>(0)?, Rating { elo: row.get(1)?, error: error.unwrap_or(f64::INFINITY) }))
        })?;
        let stored: Vec<(EntrantId, Rating)> = rows
            .collect::<rusqlite::Result<Vec<_>>>()?
            .into_iter()
            .filter(|(id, _)| self.names.contains_key(id))
            .map(|(id, rating)| (EntrantId(id), rating))
            .collect();
        let games = db::setting(db, &ratings_games_key(&self.assignment.name))?.and_then(|g| g.parse().ok());
        self.league.restore(&stored, games);
        Ok(())
    }

    /// Counts a game of pairing (`a` older, `b`): `winner` 0 is `a`, 1 is `b`,
    /// `None` a draw.
    fn count(&mut self, a: i64, b: i64, winner: Option<usize>) {
        let score = match winner {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        if self.league.record(EntrantId(a), EntrantId(b), score).is_ok() {
            let wdl = self.pairings.entry((a, b)).or_default();
            match winner {
                Some(0) => wdl.wins += 1,
                Some(_) => wdl.losses += 1,
                None => wdl.draws += 1,
            }
        }
    }

    /// The next pairings to play, at most `how_many`, none in `in_flight`
    /// and none that has played [`GAMES`] (ratings refitted first if due).
    fn next(&mut self, how_many: usize, in_flight: &[GamePair], seed: u64) -> Vec<GamePair> {
        self.league.refresh();
        // A pairing a crash left in the middle of its seat-swapped pair of
        // games completes it first.
        let mut chosen: Vec<GamePair> = self
            .pairings
            .iter()
            .filter(|(_, wdl)| wdl.games() % 2 == 1 && wdl.games() < u64::from(GAMES))
            .map(|(&(a, b), _)| GamePair { first: EntrantId(a), second: EntrantId(b) })
            .filter(|pair| !in_flight.contains(pair))
            .collect();
        chosen.sort_by_key(|pair| (pair.first, pair.second));
        chosen.truncate(how_many);
        // Ask for more than needed: full pairings are passed over.
        for pair in self.league.next_pairs(how_many * 4 + 8, in_flight, seed) {
            if chosen.len() == how_many {
                break;
            }
            let key = ordered(pair.first.0, pair.second.0);
            let played = self.pairings.get(&key).map_or(0, |w| w.games());
            let taken = chosen.iter().any(|c| ordered(c.first.0, c.second.0) == key);
            if played < u64::from(GAMES) && !taken {
                chosen.push(pair);
            }
        }
        chosen
    }

    /// The standings as the leaderboard shows them: each entrant's row
    /// (the tournament standings' JSON shape), best first, and each one's
    /// results against the others it met (its crosstable row).
    pub fn standings(&mut self) -> LeagueTable {
        self.league.refresh();
        // Entrants numbered as the crosstable names them (by submission id).
        let numbers: HashMap<i64, usize> = self.names.keys().enumerate().map(|(i, &id)| (id, i)).collect();
        let index = |id: i64| numbers.get(&id).copied().unwrap_or(0);
        let mut totals: HashMap<i64, Wdl> = HashMap::new();
        let mut met: Vec<Vec<(usize, Wdl)>> = vec![Vec::new(); self.names.len()];
        for (&(a, b), wdl) in &self.pairings {
            let mirrored = Wdl::new(wdl.losses, wdl.draws, wdl.wins);
            for (me, them, result) in [(a, b, *wdl), (b, a, mirrored)] {
                let total = totals.entry(me).or_default();
                (total.wins, total.draws, total.losses) =
                    (total.wins + result.wins, total.draws + result.draws, total.losses + result.losses);
                met[index(me)].push((index(them), result));
            }
        }
        for row in &mut met {
            row.sort_by_key(|&(opponent, _)| opponent);
        }
        let rows: Vec<Value> = self
            .league
            .standings()
            .iter()
            .enumerate()
            .map(|(rank, standing)| {
                let id = standing.entrant.0;
                let wdl = totals.get(&id).copied().unwrap_or_default();
                let error = standing.rating.error;
                json!({
                    "rank": rank + 1,
                    "id": index(id),
                    "name": self.names.get(&id),
                    "submission": id,
                    "games": wdl.games(),
                    "wins": wdl.wins, "draws": wdl.draws, "losses": wdl.losses,
                    "score": if wdl.games() > 0 { wdl.score() } else { 0.5 },
                    "elo": if wdl.games() > 0 { standing.rating.elo } else { 0.0 },
                    "elo_error": if error.is_finite() && wdl.games() > 0 { Some(error) } else { None },
                })
            })
            .collect();
        let games: u64 = self.pairings.values().map(Wdl::games).sum();
        LeagueTable { games, rows, met }
    }

    /// The games the full round robin among the entrants would have.
    pub fn round_robin_games(&self) -> u64 {
        let n = self.names.len() as u64;
        n * n.saturating_sub(1) / 2 * u64::from(GAMES)
    }
}

/// Plays the league while there is something to play: up to `slots`
/// pairings at once (each its own thread, its own workers; with
/// `--executor slurm`, together as one batch job); `changed` is told of
/// every game stored. Whether any game was played; the error of a pairing
/// that found the disk full, if one did (the games stored before count).
pub fn play_round(
    dir: &Path,
    live: &Arc<Mutex<Live>>,
    slots: usize,
    changed: &Wake,
    executor: &Executor,
) -> Result<bool> {
    let db = db::open(dir)?;
    let (latest, pairs, assignment) = {
        let mut live = live.lock().unwrap_or_else(|e| e.into_inner());
        let latest = live.sync(&db)?;
        let seed = live.played;
        (latest, live.next(slots.max(1), &[], seed), live.assignment.clone())
    };
    if pairs.is_empty() {
        return Ok(false);
    }
    let submissions: HashMap<i64, &Submission> = latest.iter().map(|s| (s.id, s)).collect();
    let work = Work::start(
        "league round",
        &assignment.name,
        format!(
            "{} pairings{}",
            pairs.len(),
            if matches!(executor, Executor::Slurm(_)) { ", on Slurm" } else { "" }
        ),
    );
    if let Executor::Slurm(slurm) = executor {
        let pairings: Vec<[&Submission; 2]> = pairs
            .iter()
            .filter_map(|pair| {
                let (a, b) = ordered(pair.first.0, pair.second.0);
                Some([*submissions.get(&a)?, *submissions.get(&b)?])
            })
            .collect();
        match batch::play(slurm, dir, &assignment, &pairings, live, changed) {
            Ok(()) => work.done(&format!("{} pairings played", pairings.len())),
            Err(e) if disk::is_full(&e) => {
                work.waits(&Postponed::DiskFull.to_string(), None);
                return Err(e);
            }
            Err(e) => {
                work.failed(&format!("{e:#}"));
                return Err(e);
            }
        }
        return Ok(true);
    }
    let priority = arena_core::play::cores::inherited();
    std::thread::scope(|scope| {
        let playing: Vec<_> = pairs
            .iter()
            .filter_map(|pair| {
                let (a, b) = ordered(pair.first.0, pair.second.0);
                let pair = [*submissions.get(&a)?, *submissions.get(&b)?];
                let assignment = &assignment;
                Some(scope.spawn(move || {
                    arena_core::play::cores::set_inherited(priority);
                    play_pairing(dir, assignment, pair, live, changed)
                }))
            })
            .collect();
        let (mut played, mut failed) = (0, 0);
        // A pairing that found the disk full is said once, by the state it
        // enters (the caller's), not once a pairing.
        let mut full = None;
        for thread in playing {
            match thread.join() {
                Ok(Ok(())) => played += 1,
                Ok(Err(e)) if disk::is_full(&e) => full = Some(e),
                Ok(Err(e)) => {
                    failed += 1;
                    tracing::warn!("a league pairing: {e:#}")
                }
                Err(_) => {
                    failed += 1;
                    tracing::error!("a league pairing panicked")
                }
            }
        }
        match full {
            Some(e) => {
                work.waits(&Postponed::DiskFull.to_string(), None);
                Err(e)
            }
            None => {
                work.done(&format!("{played} pairings played, {failed} failed"));
                Ok(true)
            }
        }
    })
}

/// Plays the next [`GAMES_PER_PAIR`] games of pairing `pair` (older
/// first), from its first missing game, storing and counting each as it
/// ends.
fn play_pairing(
    dir: &Path,
    assignment: &Assignment,
    pair: [&Submission; 2],
    live: &Mutex<Live>,
    changed: &Wake,
) -> Result<()> {
    let db = db::open(dir)?;
    let first = first_missing(&db, pair[0].id, pair[1].id)?;
    if first >= GAMES {
        return Ok(());
    }
    let (rules, hosting) = (&assignment.rules, hosting(&assignment.settings)?);
    let load = |s: &Submission| -> Result<Player> {
        if let Some(player) = live.lock().unwrap_or_else(|e| e.into_inner()).loaded.get(&s.id) {
            return Ok(player.clone());
        }
        let player = load_player(&store::player_entry(dir, &s.sha256, s.player.as_deref())?, &hosting)
            .map_err(|e| anyhow::anyhow!("submission {}: {e:#}", s.id))?;
        live.lock().unwrap_or_else(|e| e.into_inner()).loaded.insert(s.id, player.clone());
        Ok(player)
    };
    let players = [load(pair[0])?, load(pair[1])?];
    // Learning players (Hexapawn) play the rest of the pairing at once: what
    // they learn lasts as long as their workers.
    let games = if rules.learns() { GAMES - first } else { next_games(first) };
    let mut stored = Ok(());
    let seed = pairing_seed(&db, pair[0].id, pair[1].id)?;
    // Fed live for anyone to watch, under the groups' names (the leaderboard's).
    let fed = LivePlayers {
        live: crate::http::live::feeds().scoped(&crate::http::live::Scope::League.mark()),
        players: pair.map(|s| ReplayPlayer { name: s.group.clone(), source: s.group.clone() }).to_vec(),
    };
    let hosting = (&hosting, Some(&fed));
    play_games(rules, [&players[0], &players[1]], (first, games), seed, hosting, &mut |result| {
        if stored.is_ok() {
            stored = record_game(&db, live, changed, pair[0].id, pair[1].id, &result).map(|_| ());
        }
    });
    stored
}

/// The index of pairing (`a` older, `b`)'s first game not stored yet.
fn first_missing(db: &Connection, a: i64, b: i64) -> Result<u32> {
    Ok(db.query_row(
        "SELECT COALESCE(MAX(game) + 1, 0) FROM games WHERE a = ?1 AND b = ?2",
        params![a, b],
        |row| row.get(0),
    )?)
}

/// How a league game's players are hosted: isolated and sandboxed
/// (WorkerLimits' default), as in a tournament, their workers stopped on
/// the clock and grace of the assignment's `settings` (as its grading's are).
pub(crate) fn hosting(settings: &toml::Table) -> Result<Hosting> {
    let limits = WorkerLimits {
        clock: course::clock_of(settings),
        grace: course::grace_of(settings),
        ..WorkerLimits::new().map_err(anyhow::Error::msg)?
    };
    Ok(Hosting { isolate_libraries: true, isolate_builtins: false, limits: Some(limits) })
}

/// Loads the player `entry` names (as [`store::player_entry`] writes it).
pub(crate) fn load_player(entry: &str, hosting: &Hosting) -> Result<Player> {
    let spec: PlayerSpec = entry.parse().map_err(anyhow::Error::msg)?;
    Player::load(&spec, hosting, Budgets::default().startup).map_err(|e| anyhow::anyhow!("{e}"))
}

/// The games a pairing plays next when its first missing one is `first`.
fn next_games(first: u32) -> u32 {
    GAMES_PER_PAIR.min(GAMES.saturating_sub(first))
}

/// The seed of pairing (`a` older, `b`)'s games: from the data folder's
/// secret, its own (no player can tell a league game from another, or
/// predict one).
fn pairing_seed(db: &Connection, a: i64, b: i64) -> Result<u64> {
    Ok(Secret::of(db)?.seed(Purpose::League, &format!("{a}/{b}")))
}

/// Plays `games` games of a pairing (older first) from game `first` under
/// `rules` (a two-player game's), on the pairing's `seed`, telling
/// `on_game` each as it ends: the same seeds and seats wherever they are
/// played (here, or in a Slurm batch job).
fn play_games(
    rules: &GameRules,
    players: [&Player; 2],
    (first, games): (u32, u32),
    seed: u64,
    hosting: (&Hosting, Option<&LivePlayers>),
    on_game: &mut dyn FnMut(GameResult),
) {
    with_rules!(rules.clone(), G, settings => play_match::<G>(players, settings, (first, games), seed, hosting, on_game),
        solo => tracing::error!("a league of a single-player game ({settings:?}) plays nothing"))
}

/// `play_games` in game `G`, at the assignment's settings (as grading runs
/// play it).
fn play_match<G: TwoPlayerGame>(
    players: [&Player; 2],
    settings: G::Settings,
    (first, games): (u32, u32),
    seed: u64,
    (hosting, fed): (&Hosting, Option<&LivePlayers>),
    on_game: &mut dyn FnMut(GameResult),
) {
    let config = MatchConfig::<G> {
        settings,
        games,
        seed,
        hosting: hosting.clone(),
        first_game: first,
        concurrency: 1,
        controls: [None; 2],
        live: fed.cloned(),
    };
    two_player::play(
        players,
        &config,
        &mut |game| {
            // A game the machine spoiled counts for no one: not stored, so
            // the pairing plays it again in a later round.
            if !two_player::spoiled::<G>(&game.record) {
                on_game(GameResult::two_player::<G>(game.index as usize, game.seats, &game.record))
            }
        },
        None,
    );
}

/// Stores a game of pairing (`a` older, `b`) and, if it was new, counts it
/// in `live` and tells `changed`; whether it was new (a game stored before,
/// by an earlier run of the same pairing, counts once).
fn record_game(
    db: &Connection,
    live: &Mutex<Live>,
    changed: &Wake,
    a: i64,
    b: i64,
    result: &GameResult,
) -> Result<bool> {
    let new = store_game(db, a, b, result)?;
    if new {
        let mut live = live.lock().unwrap_or_else(|e| e.into_inner());
        live.count(a, b, result.winner);
        live.played += 1;
        drop(live);
        changed.notify();
    }
    Ok(new)
}

/// A game's `winner` as the `games` table keeps it: 0 the older
/// submission, 1 the newer, -1 a draw.
pub fn stored_winner(winner: Option<usize>) -> i64 {
    winner.map_or(-1, |w| w as i64)
}

/// Stores a game of pairing (`a`, `b`); whether it was new.
fn store_game(db: &Connection, a: i64, b: i64, result: &GameResult) -> Result<bool> {
    let inserted = db.execute(
        "INSERT OR IGNORE INTO games (a, b, game, result, winner) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![a, b, result.index as i64, serde_json::to_string(result)?, stored_winner(result.winner)],
    )?;
    Ok(inserted == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_submissions_are_read_again_only_when_they_changed() {
        // The league's thread syncs every round: at 10,000 groups reading
        // the submissions is a tenth of a second, so it reads them only
        // when what they depend on changed (a new graded submission here).
        let dir = tempfile::tempdir().unwrap();
        crate::bench::prepare_class(dir.path(), b"not a library: never loaded", 6, 60).unwrap();
        let db = db::open(dir.path()).unwrap();
        let assignment = Course::default().assignments[0].clone();
        // (As the server's start gives them their assignment.)
        db::adopt_unassigned(&db, &assignment.name).unwrap();
        let mut live = Live::load(&db, &assignment).unwrap();
        let first = live.sync(&db).unwrap();
        assert_eq!(first.len(), 6);
        assert!(Arc::ptr_eq(&first, &live.sync(&db).unwrap()), "nothing changed: not read again");
        assert_eq!(live.league.ledger().total_games(), 60);

        // Student 1 submits again, graded: the new one enters, the old one
        // retires with its games.
        db.execute(
            "INSERT INTO submissions (student, group_id, sha256, file_name, size, status, played, total, grade, finished, graded_under, assignment)
             SELECT student, group_id, sha256, file_name, size, status, played, total, grade, finished, graded_under, assignment
             FROM submissions WHERE id = 1",
            [],
        )
        .unwrap();
        let new = db.last_insert_rowid();
        let second = live.sync(&db).unwrap();
        assert!(!Arc::ptr_eq(&first, &second));
        assert!(second.iter().any(|s| s.id == new) && !second.iter().any(|s| s.id == 1));
        assert!(live.names.contains_key(&new) && !live.names.contains_key(&1));
        assert!(live.league.ledger().total_games() < 60, "the old submission's games left");
    }
}
