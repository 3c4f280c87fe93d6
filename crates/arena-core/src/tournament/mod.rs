//! Tournaments: a TOML file -> a schedule of games -> games run in parallel,
//! each journaled as it finishes -> standings and reports.
//!
//! Results never depend on the order games finish in: a game's seed and
//! seats come from its place in the schedule, so a resumed run (or one
//! with another concurrency, or sharded) plays the same games. A game
//! counts (progress, standings) only once its batch of the journal is
//! synced. One sync per batch, not per game: `fdatasync` costs about 0.7 ms
//! here, so a sync per game would cap a run at ~1,400 games a second
//! (docs/benchmarks.md).

pub mod config;
pub mod grade;
pub mod index;
pub mod journal;
pub mod merge;
pub mod pairing;
pub mod plan;
pub mod record;
pub mod replays;
pub mod rounds;
pub mod runner;
pub mod schedule;
pub mod shard;
pub mod slurm;
pub mod solo_standings;
pub mod standings;
pub mod swiss;

use std::{
    collections::BTreeMap,
    path::PathBuf,
    sync::atomic::{AtomicBool, Ordering},
    time::Duration,
};

use anyhow::{bail, Result};

use crate::replay::{
    files::file_safe,
    live::{Live, LivePlayers},
};
use crate::{
    play::clock::DEFAULT_GRACE,
    play::two_player::{SettingsPrint, TwoPlayerGame},
    players::isolation::WorkerLimits,
    players::{Hosting, Player},
    with_rules,
};
use config::{format_name, Tournament};
use record::GameResult;
use record::ScheduledGame;
pub use rounds::total_games;
use shard::Shard;

/// How a run went.
pub struct RunOutcome {
    pub tournament: Tournament,
    /// The players that did not load and forfeit their games
    /// (`Tournament::may_forfeit`), each "name: why".
    pub forfeits: Vec<String>,
    pub entrants: Vec<standings::Entrant>,
    pub results: Vec<GameResult>,
    pub total: usize,
    /// Games this run played (the rest came from the journal).
    pub played_now: usize,
    pub interrupted: bool,
    /// The shard's games (all games when not sharded).
    pub part_total: usize,
    /// The part's games now in the journals.
    pub part_done: usize,
    /// Schedule indices of the tournament's games no journal holds yet.
    pub missing: Vec<usize>,
    /// Games the machine spoiled in this run (`GameResult::spoiled`): not
    /// journaled nor counted, among `missing`; the run paused at the
    /// first, and a resumed run plays them (`run_until_played`).
    pub postponed: usize,
    /// Whether shards must be run again for a round none of them has
    /// played yet (a Swiss's: paired, or to be paired once the current
    /// one is whole).
    pub rounds_to_come: bool,
    /// The journals read, with the games each holds.
    pub journals: Vec<(PathBuf, usize)>,
    /// Files written (standings, reports).
    pub written: Vec<PathBuf>,
    pub standings: Table,
    pub grades: Option<Vec<grade::GradeReport>>,
    /// Games whose replay was asked for but left out: the run's replays
    /// had reached `replays.max_bytes` (the journals say which).
    pub replays_left_out: usize,
}

/// The standings, by kind of game.
pub enum Table {
    /// Two-player games: points, Elo, crosstable.
    Duel(standings::Standings),
    /// Single-player games: mean scores on the same worlds.
    Solo {
        standings: solo_standings::SoloStandings,
        /// Display names by player id.
        names: Vec<String>,
    },
}

impl Table {
    pub fn terminal(&self) -> String {
        match self {
            Table::Duel(s) => s.terminal(),
            Table::Solo { standings, names } => standings.terminal(names),
        }
    }

    pub fn markdown(&self) -> String {
        match self {
            Table::Duel(s) => s.markdown(),
            Table::Solo { standings, names } => standings.markdown(names),
        }
    }

    pub fn csv(&self) -> String {
        match self {
            Table::Duel(s) => s.csv(),
            Table::Solo { standings, .. } => standings.csv(),
        }
    }

    pub fn json(&self) -> serde_json::Value {
        match self {
            Table::Duel(s) => s.json(),
            Table::Solo { standings, .. } => standings.json(),
        }
    }
}

/// Sees a run as it goes (progress bars, live lines); every method optional.
pub trait Observer {
    /// The players' display names (ids index them), before any game.
    fn names(&mut self, _names: &[String]) {}
    /// The number of games, and the games already done (from the journal).
    fn start(&mut self, _total: usize, _done: &[GameResult]) {}
    /// A game finished and is journaled.
    fn game(&mut self, _result: &GameResult, _names: &[String]) {}
    /// Where to feed the games as they are played, if they are watched live.
    fn live(&self) -> Option<Live> {
        None
    }
}

/// Shows nothing.
pub struct Quiet;

impl Observer for Quiet {}

/// A stable fingerprint of everything that decides the games: a journal
/// from a different fingerprint cannot be resumed.
pub fn fingerprint(tournament: &Tournament, schedule: &[ScheduledGame]) -> String {
    let print = with_rules!(&tournament.game, G, settings => G::settings_print(settings),
        solo => SettingsPrint { tail: format!("{}|", crate::play::solo::fingerprint::<G>(settings)), ..SettingsPrint::default() });
    let (size, turn_cap) = print.head;
    let budgets = &tournament.budgets;
    let mut text = format!(
        "{}|{}|{}|{}|{:?}|",
        format_name(tournament.format),
        tournament.seed,
        tournament.games_per_pairing,
        size,
        (budgets.turn, budgets.startup, turn_cap),
    );
    for player in &tournament.players {
        text.push_str(&format!("{player}|"));
    }
    // Own time controls and parameters only where given: older fingerprints stay the same.
    for (id, control) in tournament.controls.iter().enumerate() {
        if let Some(control) = control {
            text.push_str(&format!("tc{id}={control}|"));
        }
    }
    for (id, params) in tournament.params.iter().enumerate() {
        for (name, value) in params {
            text.push_str(&format!("param{id}.{name}={value}|"));
        }
    }
    // A grace other than the default, likewise.
    if budgets.grace != DEFAULT_GRACE {
        text.push_str(&format!("grace={:?}|", budgets.grace));
    }
    text.push_str(&print.tail);
    if let Some(grading) = &tournament.grading {
        text.push_str(&grading.print(tournament.games_per_pairing));
    }
    text.push_str(&rounds::print(tournament, schedule));
    // FNV-1a: stable across Rust versions, unlike std's hasher.
    let hash =
        text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    format!("{hash:016x}")
}

/// Games of `tournament` already in the journals of its output folder
/// (read as a resumed run reads them: a run elsewhere may be writing
/// them), and its games in all.
pub fn journaled(tournament: &Tournament) -> Result<(usize, usize)> {
    let schedule = schedule::schedule(tournament);
    let total = total_games(tournament, &schedule);
    let merged = merge::read_all(&tournament.output, &fingerprint(tournament, &schedule), total)?;
    Ok((merged.results.len(), total))
}

/// The games paired now (`rounds.rs`) and which of them are this part's:
/// a shard's are its share of the round being played.
fn known_games(
    tournament: &Tournament,
    part: Part,
    results: &BTreeMap<usize, GameResult>,
) -> Result<(rounds::Known, Vec<bool>)> {
    let known = rounds::known(tournament, results)?;
    let mut mine = vec![matches!(part, Part::All | Part::Report); known.games.len()];
    if let Part::Shard(shard) = part {
        let round = known.current.clone();
        if !round.is_empty() {
            let own = shard::games_of(tournament, &known.games[round.clone()], shard);
            mine[round].copy_from_slice(&own);
        }
    }
    Ok((known, mine))
}

/// Where players run for a tournament.
pub fn hosting(tournament: &Tournament) -> Result<Hosting> {
    if tournament.in_process && tournament.run_as.is_some() {
        // A library in the arena's process would run as the arena's user.
        bail!("players in process cannot run as another user: leave in_process off");
    }
    if tournament.in_process && !tournament.isolate_builtins {
        let pass_env = tournament.pass_env.clone();
        return Ok(Hosting::in_process().with_workers(
            tournament.sandbox,
            tournament.budgets.clock,
            tournament.budgets.grace,
            pass_env,
        ));
    }
    let mut limits = WorkerLimits::new().map_err(anyhow::Error::msg)?;
    if let Some(bytes) = tournament.memory_limit {
        limits.memory_bytes = bytes;
    }
    limits.sandbox = tournament.sandbox;
    limits.clock = tournament.budgets.clock;
    limits.grace = tournament.budgets.grace;
    limits.pass_env.extend(tournament.pass_env.iter().cloned());
    limits.run_as = tournament.run_as;
    Ok(Hosting {
        isolate_libraries: !tournament.in_process,
        isolate_builtins: tournament.isolate_builtins,
        limits: Some(limits),
    })
}

/// Loads every player before any game, reporting all that fail at once;
/// but a player the tournament lets forfeit (`may_forfeit`: a Gradescope
/// export's submission, whose author cannot fix it now) that fails is
/// kept as a `Player::Forfeit`, which loses each of its games, so that
/// the others play.
pub fn load_players(tournament: &Tournament, hosting: &Hosting) -> Result<Vec<Player>> {
    let mut players = Vec::new();
    let mut problems = Vec::new();
    for (id, spec) in tournament.players.iter().enumerate() {
        let params = tournament.params.get(id).map_or(&[][..], Vec::as_slice);
        let loaded = Player::load(spec, hosting, tournament.budgets.startup)
            .map_err(|e| e.to_string())
            .and_then(|player| if params.is_empty() { Ok(player) } else { player.with_params(params) });
        match loaded {
            Ok(player) => players.push(player),
            Err(e) if tournament.may_forfeit.contains(&id) => {
                let name = tournament.names.get(id).cloned().flatten().unwrap_or_else(|| spec.to_string());
                let why = format!("it does not load: {e}");
                players.push(Player::Forfeit { name, why: crate::play::fault::player_text(why) });
            }
            Err(e) => problems.push(format!("  {spec}: {e}")),
        }
    }
    if !problems.is_empty() {
        bail!(
            "{} player(s) cannot be loaded; fix or remove them, then run again (no game was played):\n{}",
            problems.len(),
            problems.join("\n")
        );
    }
    Ok(players)
}

/// What a run plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Every game the journals lack; then the standings.
    All,
    /// The shard's games the journals lack, into the shard's journal; no
    /// standings (they would be partial).
    Shard(Shard),
    /// Nothing: the standings from the journals, if they hold every game.
    Report,
}

/// Runs (or resumes) the tournament: plays what the journal lacks, then
/// writes the standings (and grade reports) into the output folder.
pub fn run(tournament: Tournament, stop: &AtomicBool, observer: &mut dyn Observer) -> Result<RunOutcome> {
    run_part(tournament, Part::All, stop, observer)
}

/// How long a run whose games the machine spoiled waits before each
/// resume (`run_until_played`): a machine busy for minutes (another
/// user's job) gets them; one still busy after that is told to the user.
pub const POSTPONED_WAITS: [Duration; 5] = [
    Duration::from_secs(10),
    Duration::from_secs(30),
    Duration::from_secs(60),
    Duration::from_secs(120),
    Duration::from_secs(300),
];

/// The waits of [`POSTPONED_WAITS`] that fit in `patience` in all (the
/// whole of it if not even the first fits): `arena tournament run
/// --patience`.
pub fn postponed_waits(patience: Duration) -> Vec<Duration> {
    let mut total = Duration::ZERO;
    let waits: Vec<Duration> = POSTPONED_WAITS
        .iter()
        .copied()
        .take_while(|&wait| {
            total += wait;
            total <= patience
        })
        .collect();
    if waits.is_empty() && !patience.is_zero() {
        vec![patience]
    } else {
        waits
    }
}

/// The exit status of `arena tournament run` when games are left postponed
/// (EX_TEMPFAIL: try again later): a Slurm job's follower tells it from a
/// failure, and postpones the grading rather than fail it.
pub const POSTPONED_EXIT: u8 = 75;

/// [`run`], resumed after each of `waits` while the machine spoiled some
/// of its games (`RunOutcome::postponed`): for a user who waits for the
/// result (the command line, `arena grade`); a server postpones instead.
/// The last outcome may still have postponed games: the caller says so.
pub fn run_until_played(
    tournament: Tournament,
    stop: &AtomicBool,
    observer: &mut dyn Observer,
    waits: &[Duration],
) -> Result<RunOutcome> {
    let mut outcome = run(tournament, stop, observer)?;
    for &wait in waits {
        if outcome.postponed == 0 || outcome.interrupted {
            break;
        }
        tracing::warn!(
            "the machine was overloaded: {} game(s) postponed (not counted); resuming in {} s",
            outcome.postponed,
            wait.as_secs()
        );
        pause(wait, stop);
        outcome = run(outcome.tournament, stop, observer)?;
    }
    Ok(outcome)
}

/// Sleeps `wait`, or until `stop` is set (Ctrl-C): the wait before a
/// postponed game's next try.
pub fn pause(wait: Duration, stop: &AtomicBool) {
    let until = std::time::Instant::now() + wait;
    while std::time::Instant::now() < until && !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(100).min(wait));
    }
}

/// Runs `part` of the tournament. Every journal in the output folder
/// counts (its own, other shards', a single run's): a game any of them
/// holds is not played again. Standings are written once every game is in
/// some journal, unless this is a shard.
pub fn run_part(
    tournament: Tournament,
    part: Part,
    stop: &AtomicBool,
    observer: &mut dyn Observer,
) -> Result<RunOutcome> {
    let schedule = schedule::schedule(&tournament);
    let fingerprint = fingerprint(&tournament, &schedule);
    let total = total_games(&tournament, &schedule);
    if part == Part::Report && merge::journal_files(&tournament.output)?.is_empty() {
        bail!(
            "no journal in {}: nothing was played yet (run `arena tournament run` or submit the shards first)",
            tournament.output.display()
        );
    }
    // Every journal is checked before a player is loaded or a game played.
    merge::read_all(&tournament.output, &fingerprint, total)?;
    let memory = remembering(&tournament, part)?;
    let hosting = hosting(&tournament)?;
    let players = load_players(&tournament, &hosting)?;
    let forfeits = players
        .iter()
        .filter_map(|p| match p {
            Player::Forfeit { name, why } => Some(format!("{name}: {why}")),
            _ => None,
        })
        .collect();
    let entrants: Vec<standings::Entrant> = players
        .iter()
        .zip(&tournament.players)
        .enumerate()
        .map(|(id, (p, spec))| standings::Entrant {
            name: tournament.names.get(id).cloned().flatten().unwrap_or_else(|| p.name().to_string()),
            source: spec.to_string(),
        })
        .collect();
    let names = unique_names(&entrants);
    observer.names(&names);
    let mut journal = match part {
        Part::Report => None,
        Part::All => Some(journal::FILE_NAME.to_string()),
        Part::Shard(shard) => Some(shard.journal_name()),
    }
    .map(|file| journal::Journal::open(&tournament.output, &file, &tournament.name, &fingerprint, total))
    .transpose()?
    .map(|(journal, _)| journal);
    // Read after opening: the own journal's cut-off last line is gone.
    let merged = merge::read_all(&tournament.output, &fingerprint, total)?;
    let done = merged.results;
    let (mut known, mut mine) = known_games(&tournament, part, &done)?;
    // A whole run counts every game, those of rounds not paired yet too.
    let (part_total, done_here): (usize, Vec<GameResult>) = if part == Part::All {
        (total, done.values().cloned().collect())
    } else {
        let mine_done = done.values().filter(|r| mine.get(r.index).copied().unwrap_or(false));
        (mine.iter().filter(|&&m| m).count(), mine_done.cloned().collect())
    };
    observer.start(part_total, &done_here);
    let mut part_done = done_here.len();
    let mut results: BTreeMap<usize, GameResult> = done;
    let mut played_now = 0;
    let mut postponed = 0;
    if let Some(journal) = journal.as_mut() {
        let sink = replays::ReplaySink::new(&tournament, total, &entrants, &names)?;
        let live = observer.live().map(|live| LivePlayers {
            live,
            players: replays::replay_players(&entrants, &names, tournament.replays.show_sources),
        });
        let plan = runner::RunPlan::of(&tournament, &players, &hosting, stop, sink.as_ref())
            .with_live(live.as_ref())
            .with_memory(memory.as_ref());
        loop {
            let jobs = jobs(&tournament, &known.games, |index| mine[index] && !results.contains_key(&index));
            runner::run(&plan, &jobs, |mut batch| {
                if batch.iter().any(lost_to_a_dying_worker) {
                    std::thread::sleep(SETTLE);
                    if stop.load(Ordering::SeqCst) {
                        batch.retain(|r| !lost_to_a_dying_worker(r));
                    }
                }
                // The machine's fault is no one's result: left for later.
                let before = batch.len();
                batch.retain(|r| !r.spoiled());
                postponed += before - batch.len();
                journal.append(&batch)?;
                for result in batch {
                    played_now += 1;
                    part_done += 1;
                    observer.game(&result, &names);
                    results.insert(result.index, result);
                }
                Ok(())
            })?;
            // The next round (a Swiss's), once this one is whole.
            if part != Part::All || stop.load(Ordering::SeqCst) || postponed > 0 {
                break;
            }
            let next = rounds::known(&tournament, &results)?;
            if next.games.len() == known.games.len() {
                break;
            }
            mine = vec![true; next.games.len()];
            known = next;
        }
    }
    let missing = merge::missing(total, &results);
    let known = rounds::known(&tournament, &results)?;
    let rounds_to_come = known.rounds_to_come(&results);
    let results: Vec<GameResult> = results.into_values().collect();
    let interrupted = stop.load(Ordering::SeqCst) && part_done < part_total;
    let game = tournament.game.id();
    let standings = if game.is_single_player() {
        // Every player: the entrants, and a grade's levels beside them.
        let players: Vec<(usize, standings::Entrant)> = entrants.iter().cloned().enumerate().collect();
        let standings = solo_standings::compute(game, &players, &results);
        Table::Solo { standings, names: names.clone() }
    } else {
        Table::Duel(known.standings(&tournament, &entrants, &results))
    };
    let mut written = Vec::new();
    let mut grades = None;
    if missing.is_empty() && !matches!(part, Part::Shard(_)) {
        let out = &tournament.output;
        let title = format!(
            "# {} ({}, {}, {} games)\n\n",
            tournament.name,
            tournament.game.name(),
            format_name(tournament.format),
            results.len()
        );
        write(out.join("standings.md"), format!("{title}{}", standings.markdown()), &mut written)?;
        write(out.join("standings.csv"), standings.csv(), &mut written)?;
        write(out.join("standings.json"), serde_json::to_string_pretty(&standings.json())?, &mut written)?;
        let page = index::page(&tournament.name, &standings, &results, &names, out);
        write(out.join("index.html"), page, &mut written)?;
        if let Some(grading) = &tournament.grading {
            let levels = grading.levels_of(&tournament.fixed);
            let reports = grade::reports(&entrants, &levels, &tournament.entrants(), &results);
            write(
                out.join("grades.md"),
                format!("# Grades: {}\n\n{}", tournament.name, grade::markdown_summary(&reports)),
                &mut written,
            )?;
            for report in &reports {
                let file = format!("grade-{}.md", file_safe(&names[report.student]));
                write(out.join(file), report.markdown(), &mut written)?;
            }
            grades = Some(reports);
        }
    }
    Ok(RunOutcome {
        forfeits,
        replays_left_out: results.iter().filter(|r| r.replay_left_out).count(),
        total,
        tournament,
        entrants,
        results,
        played_now,
        interrupted,
        part_total,
        part_done,
        missing,
        postponed,
        rounds_to_come,
        journals: merged.journals,
        written,
        standings,
        grades,
    })
}

/// How long a game lost to a dead worker waits before it is journaled.
/// A cancelled Slurm job (or a stopped systemd service) signals every
/// process of the run at once, workers included: the run's own SIGTERM
/// arrives within this time, and such a game is then not journaled but
/// played again on resume (a player that really crashes crashes again).
const SETTLE: std::time::Duration = std::time::Duration::from_millis(300);

/// Whether a player lost `result` because its worker died or vanished.
fn lost_to_a_dying_worker(result: &GameResult) -> bool {
    use crate::play::fault::FaultKind;
    let dying = [FaultKind::Crashed, FaultKind::Protocol, FaultKind::Unavailable].map(FaultKind::name);
    result.fault.as_ref().is_some_and(|f| dying.contains(&f.kind.as_str()))
}

/// The jobs of the games still to play (`pending(index)`): each unit
/// (a game; for a learning game a pairing, whole and in order) with a pending game.
fn jobs(
    tournament: &Tournament,
    schedule: &[ScheduledGame],
    pending: impl Fn(usize) -> bool,
) -> Vec<runner::Job> {
    shard::units(tournament, schedule)
        .into_iter()
        .map(|unit| &schedule[unit])
        .filter(|games| games.iter().any(|g| pending(g.index)))
        .map(|games| games.iter().map(|g| (*g, pending(g.index))).collect())
        .collect()
}

fn write(path: PathBuf, text: String, written: &mut Vec<PathBuf>) -> Result<()> {
    std::fs::write(&path, text).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    written.push(path);
    Ok(())
}

/// Names as shown: a player's own name; when several share one, they are
/// told apart by their source if it differs, else by a number.
pub fn unique_names(entrants: &[standings::Entrant]) -> Vec<String> {
    entrants
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let same_name = |o: &&standings::Entrant| o.name == e.name;
            if entrants.iter().filter(same_name).count() == 1 {
                e.name.clone()
            } else if entrants.iter().filter(same_name).filter(|o| o.source == e.source).count() == 1 {
                format!("{} ({})", e.name, e.source)
            } else {
                let nth = entrants[..=i].iter().filter(|o| o.name == e.name && o.source == e.source).count();
                if nth == 1 {
                    e.name.clone()
                } else {
                    format!("{}#{nth}", e.name)
                }
            }
        })
        .collect()
}

/// The players' memory stores (`memory`), if kept: only where pairings are
/// matches (a learner's game), and only in a run played whole on one
/// machine (a shard's stores would be its machine's).
fn remembering(tournament: &Tournament, part: Part) -> Result<Option<runner::Remembering>> {
    let Some(dir) = &tournament.memory else { return Ok(None) };
    if part == Part::Report {
        return Ok(None);
    }
    if !tournament.game.learns() {
        bail!(
            "memory: {}'s pairings are not matches a player learns from: keep a memory only for such a game (docs/tournaments.md, `memory`), or remove it",
            tournament.game.id()
        );
    }
    if matches!(part, Part::Shard(_)) {
        bail!(
            "memory: a shard keeps no memory (its pairings play on other machines): run the tournament whole"
        );
    }
    let stores = crate::players::memory::MemoryDir::open(dir, crate::players::memory::DEFAULT_BOUND)
        .map_err(anyhow::Error::msg)?;
    // The same spec twice: two players, two stores (`menace`, `menace-2`, as `arena play`'s).
    let bases: Vec<String> = tournament.players.iter().map(crate::players::memory::store_name).collect();
    let names = bases
        .iter()
        .enumerate()
        .map(|(id, base)| match bases[..id].iter().filter(|b| *b == base).count() {
            0 => base.clone(),
            n => format!("{base}-{}", n + 1),
        })
        .collect();
    Ok(Some(runner::Remembering { stores, names }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fingerprints the arena gave before a grade took its own levels,
    /// games and pass marks: the journals of such files still resume.
    #[test]
    fn the_fingerprints_of_files_without_the_new_grade_keys_are_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let files = [
            (
                "format = \"grade\"\nseed = 5\nplayers = [\"hard\", \"easy\"]\n[settings]\ntime_per_turn = \"1s\"\n",
                "95c60194b2ef43d2",
            ),
            ("game = \"wumpus\"\nseed = 5\ngames_per_player = 10\nplayers = [\"hard\", \"easy\"]\n", "537ab6f996c8568a"),
        ];
        for (text, print) in files {
            let path = dir.path().join("t.toml");
            std::fs::write(&path, text).unwrap();
            let tournament = Tournament::load(&path).unwrap();
            assert_eq!(fingerprint(&tournament, &schedule::schedule(&tournament)), print, "{text}");
        }
    }

    /// A Swiss's fingerprint holds its file (rounds too), not its pairings,
    /// which follow from the results.
    #[test]
    fn a_swiss_fingerprint_is_of_its_file_and_rounds() {
        let dir = tempfile::tempdir().unwrap();
        let print = |text: &str| {
            let path = dir.path().join("s.toml");
            std::fs::write(&path, text).unwrap();
            let tournament = Tournament::load(&path).unwrap();
            let schedule = schedule::schedule(&tournament);
            assert_eq!(total_games(&tournament, &schedule), tournament.rounds as usize * 2 * 2);
            fingerprint(&tournament, &schedule)
        };
        let file = |rounds: u32, seed: u64| {
            format!("format = \"swiss\"\nrounds = {rounds}\nseed = {seed}\nplayers = [\"easy\", \"medium\", \"hard\", \"easy\"]\n")
        };
        assert_eq!(print(&file(2, 1)), print(&file(2, 1)));
        assert_ne!(print(&file(2, 1)), print(&file(3, 1)));
        assert_ne!(print(&file(2, 1)), print(&file(2, 2)));
    }

    #[test]
    fn a_run_waits_for_the_machine_within_its_patience() {
        let s = Duration::from_secs;
        assert_eq!(postponed_waits(s(540)), POSTPONED_WAITS.to_vec(), "9 minutes: every wait");
        assert_eq!(postponed_waits(s(45)), [s(10), s(30)]);
        assert_eq!(postponed_waits(s(5)), [s(5)], "less than the first: the whole patience");
        assert!(postponed_waits(Duration::ZERO).is_empty());
    }
}
