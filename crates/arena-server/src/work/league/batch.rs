//! The live league on a Slurm cluster (`--executor slurm`): the pairings
//! one round chose become one batch job that plays exactly their next
//! games, with the seeds and seats local play gives them
//! (`play_games`), and the server stores what it played.
//!
//! A batch is the folder `DATA/league/batch-<n>/`: `batch.json` (the
//! pairings: submission ids, players, first game, games), the job script
//! `league.sbatch`, `jobs` (the Slurm job ids submitted, one a line), the
//! job's output `job-<id>.log`, and `games.jsonl`, where the job
//! (`arena __league-batch DATA/league/batch-<n>/batch.json`) appends each
//! game as it ends, synced, one JSON line each. The server follows the job
//! and reads those lines into the `games` table as they come (INSERT OR
//! IGNORE: a game is stored and counted once, however often it is read). A
//! job that ends with games missing is submitted again and plays only
//! those; after `RESUBMISSIONS` the batch is given up (its pairings are
//! chosen again later, as a failed local pairing is). A batch done or
//! given up gets the file `over`; a restarted server first follows the
//! batches without it, then chooses new pairings.

use std::{
    collections::{BTreeSet, HashMap},
    io::{BufRead, Seek, Write},
    path::{Path, PathBuf},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Mutex,
    },
};

use anyhow::{bail, Context, Result};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use super::{first_missing, hosting, load_player, next_games, pairing_seed, play_games, record_game, Live};
use crate::{
    course::{self, Assignment},
    store::db::{self, Submission},
    store::files as store,
    work::executor::{SlurmExecutor, RESUBMISSIONS},
    work::wake::Wake,
};
use arena_core::{
    game::GameId,
    games::rules::GameRules,
    players::isolation::WorkerLimits,
    players::Hosting,
    tournament::{
        record::GameResult,
        slurm::{self, JobStatus},
    },
};

fn served_game_name() -> String {
    course::served_game().name().to_string()
}

/// The league's batches inside the data folder.
const FOLDER: &str = "league";

/// What a batch job plays (`batch.json`).
#[derive(Serialize, Deserialize, Debug)]
struct Batch {
    /// The game and its settings as the course file gives them (a batch
    /// written before assignments: the served game, at its defaults).
    #[serde(default = "served_game_name")]
    game: String,
    #[serde(default)]
    settings: toml::Table,
    pairings: Vec<Pairing>,
    /// Pairings played at once (the job's CPUs).
    at_once: usize,
    /// Variables of the job's environment passed on to the players (the
    /// server's `--pass-env`).
    pass_env: Vec<String>,
}

/// One pairing's games in a batch.
#[derive(Serialize, Deserialize, Debug, Clone)]
struct Pairing {
    /// The older submission, then the newer (the `games` table's a, b).
    ids: [i64; 2],
    /// Their players, as `store::player_entry` names them.
    players: [String; 2],
    /// The index of its first game to play, and how many.
    first: u32,
    games: u32,
    /// Its games' seed (a batch from before seeds were secret: the
    /// constant they had then).
    #[serde(default = "public_seed")]
    seed: u64,
}

/// The seed every league pairing had before seeds came from the data
/// folder's secret.
fn public_seed() -> u64 {
    2021
}

/// A line of `games.jsonl`: a game of pairing (`a`, `b`).
#[derive(Serialize, Deserialize)]
struct PlayedGame {
    a: i64,
    b: i64,
    result: GameResult,
}

/// Plays the next games of `pairings` (older first) as one job of `executor`,
/// storing and counting each game as the job journals it; first
/// finishes any batch a restarted server left unfollowed.
pub(super) fn play(
    executor: &SlurmExecutor,
    dir: &Path,
    assignment: &Assignment,
    pairings: &[[&Submission; 2]],
    live: &Mutex<Live>,
    changed: &Wake,
) -> Result<()> {
    let db = db::open(dir)?;
    let folder = dir.join(FOLDER);
    for batch in unfinished_batches(&folder)? {
        finish(executor, &db, &batch, live, changed)?;
    }
    let mut chosen = Vec::new();
    for pair in pairings {
        let first = first_missing(&db, pair[0].id, pair[1].id)?;
        if next_games(first) == 0 {
            continue;
        }
        let entry = |s: &Submission| store::player_entry(dir, &s.sha256, s.player.as_deref());
        chosen.push(Pairing {
            ids: [pair[0].id, pair[1].id],
            players: [entry(pair[0])?, entry(pair[1])?],
            first,
            games: next_games(first),
            seed: pairing_seed(&db, pair[0].id, pair[1].id)?,
        });
    }
    if chosen.is_empty() {
        return Ok(());
    }
    let batch = Batch {
        game: assignment.game.name().to_string(),
        settings: assignment.settings.clone(),
        pairings: chosen,
        at_once: executor.job.cpus_per_task,
        pass_env: executor.pass_env.clone(),
    };
    let folder = new_batch_folder(&folder)?;
    write_json(&folder.join("batch.json"), &batch)?;
    finish(executor, &db, &folder, live, changed)
}

/// Submits batch `folder`'s job (again, while games are missing: at
/// most `RESUBMISSIONS` times), following a job already under way
/// first, and stores its games as they come; then marks it `over`.
fn finish(
    executor: &SlurmExecutor,
    db: &Connection,
    folder: &Path,
    live: &Mutex<Live>,
    changed: &Wake,
) -> Result<()> {
    let batch: Batch = read_json(&folder.join("batch.json"))?;
    let script = write_script(executor, folder)?;
    let jobs_file = folder.join("jobs");
    let mut jobs: Vec<String> =
        std::fs::read_to_string(&jobs_file).unwrap_or_default().lines().map(str::to_string).collect();
    let mut reader = GamesReader::new(folder.join("games.jsonl"));
    // A job submitted before the server restarted: followed, not doubled.
    let mut last_end = match jobs.last() {
        Some(id) => Some(follow(executor, id, &mut reader, db, live, changed)?),
        None => None,
    };
    loop {
        reader.store(db, live, changed)?;
        let missing = reader.missing(&batch);
        if missing == 0 {
            break;
        }
        if let Some(id) = jobs.last().filter(|_| jobs.len() > RESUBMISSIONS) {
            let log = folder.join(format!("job-{id}.log"));
            let ends = slurm::last_line(&log).map_or(String::new(), |l| format!(", which ends: {l}"));
            write_json(&folder.join("over"), &"given up")?;
            bail!(
                "the Slurm jobs of league batch {} ended {} times with {missing} of its games missing: \
                 the last, job {id}, ended {}; its output: {}{ends}",
                folder.display(),
                jobs.len(),
                last_end.unwrap_or_default(),
                log.display()
            );
        }
        let id = slurm::sbatch(&[], &script)?;
        let mut record = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&jobs_file)
            .with_context(|| format!("cannot write {}", jobs_file.display()))?;
        writeln!(record, "{id}")?;
        jobs.push(id.clone());
        last_end = Some(follow(executor, &id, &mut reader, db, live, changed)?);
    }
    write_json(&folder.join("over"), &"done")
}

/// Follows job `id` until it ends, storing its games as they come;
/// how it ended.
fn follow(
    executor: &SlurmExecutor,
    id: &str,
    reader: &mut GamesReader,
    db: &Connection,
    live: &Mutex<Live>,
    changed: &Wake,
) -> Result<String> {
    loop {
        if let Err(e) = reader.store(db, live, changed) {
            tracing::warn!("league batch job {id}: {e:#}");
        }
        match slurm::job_status(id) {
            Ok(JobStatus::Live(_)) => {}
            Ok(JobStatus::Ended(end)) => return Ok(format!("{} (exit code {})", end.state, end.exit_code)),
            Ok(JobStatus::Gone) => return Ok("gone from Slurm".to_string()),
            Err(e) => tracing::warn!("league batch job {id}: {e:#}; trying again"),
        }
        std::thread::sleep(executor.poll);
    }
}

/// Writes `folder/league.sbatch`: the job that plays the batch (what
/// its `games.jsonl` lacks); its path.
fn write_script(executor: &SlurmExecutor, folder: &Path) -> Result<PathBuf> {
    let folder = std::path::absolute(folder)?;
    let text = format!(
        "#!/bin/sh\n\
         # Written by `arena serve --executor slurm`: a batch of league games.\n\
         # The data folder must be on a file system every node sees.\n\
         #SBATCH --job-name=arena-league-{name}\n\
         #SBATCH --cpus-per-task={cpus}\n\
         #SBATCH --output=\"{log}\"\n\
         {directives}\
         exec {arena} __league-batch {file}\n",
        name = folder.file_name().and_then(|n| n.to_str()).unwrap_or("batch"),
        cpus = executor.job.cpus_per_task,
        log = folder.join("job-%j.log").display(),
        directives = executor.job.directives(),
        arena = slurm::quote(&executor.arena),
        file = slurm::quote(&folder.join("batch.json")),
    );
    let script = folder.join("league.sbatch");
    std::fs::write(&script, text).with_context(|| format!("cannot write {}", script.display()))?;
    Ok(script)
}

/// The batches in `folder` not marked `over`, oldest first.
fn unfinished_batches(folder: &Path) -> Result<Vec<PathBuf>> {
    let mut batches: Vec<(u64, PathBuf)> = match std::fs::read_dir(folder) {
        Ok(entries) => entries
            .flatten()
            .filter_map(|e| Some((batch_number(&e.file_name().to_string_lossy())?, e.path())))
            .filter(|(_, path)| !path.join("over").exists())
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", folder.display())),
    };
    batches.sort();
    Ok(batches.into_iter().map(|(_, path)| path).collect())
}

fn batch_number(name: &str) -> Option<u64> {
    name.strip_prefix("batch-")?.parse().ok()
}

/// A new batch's folder in `folder`: `batch-<n>`, one past the highest.
fn new_batch_folder(folder: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let highest = std::fs::read_dir(folder)
        .with_context(|| format!("cannot read {}", folder.display()))?
        .flatten()
        .filter_map(|e| batch_number(&e.file_name().to_string_lossy()))
        .max()
        .unwrap_or(0);
    let batch = folder.join(format!("batch-{}", highest + 1));
    std::fs::create_dir(&batch).with_context(|| format!("cannot create {}", batch.display()))?;
    Ok(batch)
}

fn write_json(path: &Path, value: &impl Serialize) -> Result<()> {
    std::fs::write(path, serde_json::to_string(value)?)
        .with_context(|| format!("cannot write {}", path.display()))
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not a league batch", path.display()))
}

/// Reads a batch's `games.jsonl` as the job appends to it: each complete
/// line once (a line being written is read once it is whole).
struct GamesReader {
    path: PathBuf,
    /// Bytes read so far (up to the end of a complete line).
    offset: u64,
    /// The games read: (a, b, index).
    seen: BTreeSet<(i64, i64, usize)>,
}

impl GamesReader {
    fn new(path: PathBuf) -> GamesReader {
        GamesReader { path, offset: 0, seen: BTreeSet::new() }
    }

    /// Stores (and counts, if new) the games appended since the last call.
    fn store(&mut self, db: &Connection, live: &Mutex<Live>, changed: &Wake) -> Result<()> {
        let mut file = match std::fs::File::open(&self.path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", self.path.display())),
        };
        file.seek(std::io::SeekFrom::Start(self.offset))?;
        let mut lines = std::io::BufReader::new(file);
        let mut line = String::new();
        while lines.read_line(&mut line)? > 0 && line.ends_with('\n') {
            let game: PlayedGame = serde_json::from_str(&line)
                .with_context(|| format!("{}: a line is not a game", self.path.display()))?;
            record_game(db, live, changed, game.a, game.b, &game.result)?;
            self.seen.insert((game.a, game.b, game.result.index));
            self.offset += line.len() as u64;
            line.clear();
        }
        Ok(())
    }

    /// How many of `batch`'s games are not read yet.
    fn missing(&self, batch: &Batch) -> usize {
        batch
            .pairings
            .iter()
            .flat_map(|p| (p.first..p.first + p.games).map(move |i| (p.ids[0], p.ids[1], i as usize)))
            .filter(|game| !self.seen.contains(game))
            .count()
    }
}

/// `arena __league-batch FILE` (in the batch's job): plays the games of
/// batch `file` its `games.jsonl` lacks, `at_once` pairings at a time,
/// appending each game to it as it ends (synced). Fails, after playing
/// what it can, if a pairing could not be played (its players did not load).
pub fn run_batch(file: &Path) -> Result<()> {
    let batch: Batch = read_json(file)?;
    // The players get the variables the server passes its own workers.
    WorkerLimits::pass_by_default(batch.pass_env.clone());
    let games = file.with_file_name("games.jsonl");
    let done = played_already(&games)?;
    let out = Mutex::new(
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&games)
            .with_context(|| format!("cannot write {}", games.display()))?,
    );
    let hosting = hosting(&batch.settings)?;
    let game = GameId::parse(&batch.game)
        .with_context(|| format!("{}: no game '{}'", file.display(), batch.game))?;
    let rules = course::rules_of(game, &batch.settings)
        .map_err(|e| anyhow::anyhow!("{}: the game's settings: {e}", file.display()))?;
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..batch.at_once.clamp(1, batch.pairings.len().max(1)) {
            scope.spawn(|| {
                while let Some(pairing) = batch.pairings.get(next.fetch_add(1, Ordering::SeqCst)) {
                    // Games come in order: those already journaled are its first ones.
                    let skip = done.get(&(pairing.ids[0], pairing.ids[1])).copied().unwrap_or(0);
                    if let Err(e) = play_pairing(&rules, pairing, pairing.first + skip, &hosting, &out) {
                        failures
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push(format!("submissions {} and {}: {e:#}", pairing.ids[0], pairing.ids[1]));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    if !failures.is_empty() {
        bail!("{} pairing(s) of the batch not played: {}", failures.len(), failures.join("; "));
    }
    Ok(())
}

/// Plays `pairing`'s games from `first` on (none if its batch's are all
/// played), appending each to `out`.
fn play_pairing(
    rules: &GameRules,
    pairing: &Pairing,
    first: u32,
    hosting: &Hosting,
    out: &Mutex<std::fs::File>,
) -> Result<()> {
    if first >= pairing.first + pairing.games {
        return Ok(());
    }
    let load = |i: usize| {
        load_player(&pairing.players[i], hosting)
            .map_err(|e| anyhow::anyhow!("submission {}: {e:#}", pairing.ids[i]))
    };
    let players = [load(0)?, load(1)?];
    let games = pairing.first + pairing.games - first;
    let mut written = Ok(());
    play_games(
        rules,
        [&players[0], &players[1]],
        (first, games),
        pairing.seed,
        (hosting, None),
        &mut |result| {
            if written.is_ok() {
                written = append_line(out, &PlayedGame { a: pairing.ids[0], b: pairing.ids[1], result });
            }
        },
    );
    written
}

/// Appends `game` as one line, synced before the next is written: the
/// server may read it at once, and a killed job loses no game it finished.
fn append_line(out: &Mutex<std::fs::File>, game: &PlayedGame) -> Result<()> {
    let mut line = serde_json::to_string(game)?;
    line.push('\n');
    let mut file = out.lock().unwrap_or_else(|e| e.into_inner());
    file.write_all(line.as_bytes())?;
    file.sync_data()?;
    Ok(())
}

/// Games per pairing already in `games` (a killed job's cut-off last line
/// is cut off the file first, so that the next line starts clean).
fn played_already(games: &Path) -> Result<HashMap<(i64, i64), u32>> {
    let text = match std::fs::read_to_string(games) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", games.display())),
    };
    let whole = text.rfind('\n').map_or(0, |at| at + 1);
    if whole < text.len() {
        let file = std::fs::OpenOptions::new().write(true).open(games)?;
        file.set_len(whole as u64)?;
    }
    let mut done = HashMap::new();
    for line in text[..whole].lines() {
        let game: PlayedGame = serde_json::from_str(line)
            .with_context(|| format!("{}: a line is not a game", games.display()))?;
        *done.entry((game.a, game.b)).or_insert(0) += 1;
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(a: i64, b: i64, index: usize) -> String {
        let result = GameResult {
            index,
            seed: 1,
            seats: [0, 1],
            winner: Some(0),
            turns: 3,
            reason: "win".into(),
            fault: None,
            clock: Default::default(),
            solo: None,
            replayed: 0,
            replay_left_out: false,
        };
        format!("{}\n", serde_json::to_string(&PlayedGame { a, b, result }).unwrap())
    }

    #[test]
    fn a_resumed_batch_counts_each_pairings_games_and_drops_a_cut_off_line() {
        let dir = tempfile::tempdir().unwrap();
        let games = dir.path().join("games.jsonl");
        let whole = [line(1, 2, 4), line(1, 3, 0), line(1, 2, 5)].concat();
        let cut = &line(1, 3, 1)[..20];
        std::fs::write(&games, format!("{whole}{cut}")).unwrap();
        let done = played_already(&games).unwrap();
        assert_eq!(done, HashMap::from([((1, 2), 2), ((1, 3), 1)]));
        // The next game appended starts on a line of its own.
        assert_eq!(std::fs::read_to_string(&games).unwrap(), whole);
        assert!(played_already(&dir.path().join("none.jsonl")).unwrap().is_empty());
    }
}
