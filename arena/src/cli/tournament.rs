//! `arena tournament run` (a tournament from its file, or one shard of it,
//! with a progress bar, Ctrl-C to stop: the journal keeps finished games),
//! `tournament report` (standings from the journals) and `tournament plan`.

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
    time::Duration,
};

use anyhow::{bail, Result};
use arena_core::tournament::{
    self, config::Tournament, merge, plan, record::GameResult, shard::Shard, Part, RunOutcome,
};
use indicatif::{ProgressBar, ProgressStyle};

use super::{
    interrupt::{stop_on_interrupt, STOP},
    play::LAST_LOOK,
};
use arena_core::replay::live::Live;
use arena_server::http::live::serve_local;

/// What the command line sets over the tournament file's keys.
pub(crate) struct Overrides {
    pub concurrency: Option<usize>,
    pub pass_env: Vec<String>,
    pub memory: Option<PathBuf>,
}

pub(crate) fn run(
    file: &Path,
    json: bool,
    shard: Option<Shard>,
    overrides: Overrides,
    live: bool,
    patience: Duration,
) -> Result<ExitCode> {
    let Overrides { concurrency, pass_env, memory } = overrides;
    let mut tournament = Tournament::load(file)?;
    if memory.is_some() {
        tournament.memory = memory;
    }
    for why in &tournament.left_out {
        eprintln!("left out: {why}");
    }
    tournament.pass_env.extend(pass_env);
    if let Some(n) = concurrency {
        if n == 0 {
            bail!("--concurrency 0 runs nothing: use 1 or more");
        }
        tournament.concurrency = n;
    }
    stop_on_interrupt();
    arena_core::play::cores::one_core_per_game(tournament.concurrency);
    let mut progress = ProgressDisplay::new(!json);
    let server = live.then(|| serve_local(super::play::local_live())).transpose()?;
    if let Some(server) = &server {
        let address = server.address;
        eprintln!(
            "live: the games in progress at http://{address}/ (follow them all: http://{address}/follow)"
        );
        progress.live = Some(server.live());
    }
    let outcome = match shard {
        None => {
            let waits = tournament::postponed_waits(patience);
            tournament::run_until_played(tournament, &STOP, &mut progress, &waits)
        }
        Some(shard) => tournament::run_part(tournament, Part::Shard(shard), &STOP, &mut progress),
    };
    if let Some(server) = &server {
        server.close(LAST_LOOK);
    }
    let outcome = outcome?;
    progress.bar.finish_and_clear();
    for forfeit in &outcome.forfeits {
        eprintln!("forfeits its games: {forfeit}");
    }
    if outcome.interrupted {
        eprintln!(
            "interrupted after {} of {} games; the journal in {} keeps them: run the same command to resume",
            outcome.part_done,
            outcome.part_total,
            outcome.tournament.output.display()
        );
        return Ok(ExitCode::from(130));
    }
    if outcome.postponed > 0 {
        eprintln!(
            "{} game(s) postponed: the machine was overloaded (a player kept from a core past {}x its budget: \
             not the player's fault, so not counted); the journal in {} keeps the {} games played: \
             run the same command again when the machine is less busy",
            outcome.postponed,
            arena_core::play::clock::STARVATION_BOUND,
            outcome.tournament.output.display(),
            outcome.part_done
        );
        return Ok(ExitCode::from(tournament::POSTPONED_EXIT));
    }
    if let Some(shard) = shard {
        // A Swiss's shard plays the current round: the next is paired once it is whole.
        let rounds = if outcome.rounds_to_come {
            "; a Swiss's shards play a round at a time: run them again for the next round once this one is whole"
        } else {
            ""
        };
        eprintln!(
            "shard {shard}: {} games ({} played now) in {}; the tournament has {} of {} games: \
             `arena tournament report {}` writes the standings once every shard is done{rounds}",
            outcome.part_done,
            outcome.played_now,
            outcome.tournament.output.join(shard.journal_name()).display(),
            outcome.total - outcome.missing.len(),
            outcome.total,
            file.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    print_outcome(&outcome, json)
}

/// `arena tournament report`: the standings from every journal, playing nothing.
pub(crate) fn report(file: &Path, json: bool) -> Result<ExitCode> {
    let tournament = Tournament::load(file)?;
    let outcome = tournament::run_part(tournament, Part::Report, &STOP, &mut tournament::Quiet)?;
    if !outcome.missing.is_empty() {
        eprintln!(
            "{} of {} games are in no journal (games {}); journals read:",
            outcome.missing.len(),
            outcome.total,
            merge::ranges(&outcome.missing, 10)
        );
        for (path, games) in &outcome.journals {
            eprintln!("  {} ({games} games)", path.display());
        }
        eprintln!(
            "play them with `arena tournament run {0}` (here), or re-submit the shards \
             (`arena tournament slurm {0} --shards N --submit` plays only what is missing)",
            file.display()
        );
        return Ok(ExitCode::FAILURE);
    }
    print_outcome(&outcome, json)
}

/// The standings and the files written, as `run` and `report` show them.
fn print_outcome(outcome: &RunOutcome, json: bool) -> Result<ExitCode> {
    if json {
        arena_core::outln!("{}", serde_json::to_string_pretty(&outcome.standings.json())?);
    } else {
        arena_core::outln!("{}", outcome.standings.terminal());
        if let Some(grades) = &outcome.grades {
            arena_core::outln!("\n{}", arena_core::tournament::grade::markdown_summary(grades));
        }
        eprintln!("{} games ({} played now); written:", outcome.results.len(), outcome.played_now);
        for path in &outcome.written {
            eprintln!("  {}", path.display());
        }
    }
    if outcome.replays_left_out > 0 {
        eprintln!(
            "{} replay(s) left out: the run's replays reached replays.max_bytes ({})",
            outcome.replays_left_out,
            outcome.tournament.replays.max_bytes.map_or("?".into(), arena_core::report::units::bytes)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `arena tournament plan`: size, CPU time and a number of shards.
pub(crate) fn plan(file: &Path, calibrate: usize, within: Duration, cpus: usize) -> Result<ExitCode> {
    let tournament = Tournament::load(file)?;
    let budget = plan::turn_budget(&tournament);
    let plan = plan::plan(&tournament, calibrate)?;
    let pairings = if plan.pairings > 0 { format!(" ({} pairings)", plan.pairings) } else { String::new() };
    arena_core::outln!(
        "{}: {} games{pairings}, {} players, {} per turn",
        tournament.name,
        plan.games,
        plan.players,
        arena_core::report::units::short(budget)
    );
    if plan.units != plan.games {
        arena_core::outln!(
            "  {} units (a pairing of {} is played whole, on one machine: its players learn)",
            plan.units,
            tournament.game.name()
        );
    }
    let turns = match (&plan.sample, plan.turns_per_game) {
        (plan::Sample::Journal(n), Some(t)) => format!("{t:.1} turns a game (mean of {n} journaled games)"),
        (plan::Sample::Calibration(n), Some(t)) => {
            format!("{t:.1} turns a game (mean of {n} calibration games)")
        }
        _ => match plan.turn_cap {
            Some(cap) => format!("{cap} turns a game (the turn cap; nothing measured)"),
            None => "turns a game unknown (nothing measured)".into(),
        },
    };
    if let Some(worst) = plan.worst_case {
        arena_core::outln!(
            "  worst case: {} of CPU time (every turn uses its whole budget; {turns})",
            plan::long(worst)
        );
    } else {
        arena_core::outln!("  worst case: unknown ({turns})");
    }
    if let Some(expected) = plan.expected {
        arena_core::outln!("  expected:   {} of CPU time (the players' measured time)", plan::long(expected));
    }
    let shards = plan.suggested_shards(within, cpus);
    let per_shard = |total: Duration| plan::long(total.div_f64((shards * cpus.max(1)) as f64));
    let basis = if plan.expected.is_some() { "expected" } else { "worst case" };
    arena_core::outln!(
        "  suggested: {shards} shard{} of {cpus} CPU(s), about {} each ({basis}; --within {})",
        if shards == 1 { "" } else { "s" },
        plan.expected.or(plan.worst_case).map_or("?".into(), per_shard),
        plan::long(within)
    );
    if let Some(worst) = plan.worst_case {
        arena_core::outln!("  a shard's worst case: {} (set --time between the two)", per_shard(worst));
    }
    arena_core::outln!(
        "  arena tournament slurm {} --shards {shards} --cpus-per-task {cpus} --time HH:MM:SS --submit",
        file.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The tournament's progress bar (games done/total, rate, ETA, leader) and
/// its live lines (resuming, each failure).
struct ProgressDisplay {
    bar: ProgressBar,
    points: Vec<f64>,
    /// Where the games are fed, with `--live`.
    live: Option<Live>,
}

impl ProgressDisplay {
    fn new(visible: bool) -> ProgressDisplay {
        let bar = if visible { ProgressBar::new(0) } else { ProgressBar::hidden() };
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} games  {per_sec}  ETA {eta}  {msg}")
                .expect("a valid template"),
        );
        ProgressDisplay { bar, points: Vec::new(), live: None }
    }

    /// A live line above the bar; on stderr when the bar is hidden (not a
    /// terminal), since indicatif prints nothing for a hidden bar.
    fn say(&self, line: String) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    fn count(&mut self, result: &GameResult) {
        // A single-player game has its one player in both seats: count it once.
        let seats = if result.solo.is_some() { &result.seats[..1] } else { &result.seats[..] };
        for &id in seats {
            if self.points.len() <= id {
                self.points.resize(id + 1, 0.0);
            }
            self.points[id] += result.score_of(id);
        }
    }
}

impl tournament::Observer for ProgressDisplay {
    fn live(&self) -> Option<Live> {
        self.live.clone()
    }

    fn start(&mut self, total: usize, done: &[GameResult]) {
        self.bar.set_length(total as u64);
        self.bar.set_position(done.len() as u64);
        self.bar.reset_eta();
        done.iter().for_each(|r| self.count(r));
        if !done.is_empty() {
            self.say(format!("resuming: {} of {total} games already in the journal", done.len()));
        }
    }

    fn game(&mut self, result: &GameResult, names: &[String]) {
        self.count(result);
        if let Some(fault) = &result.fault {
            self.say(format!("game {}: {} lost: {}", result.index + 1, names[fault.player], result.reason));
        }
        let best = self.points.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1));
        if let Some((id, points)) = best {
            self.bar.set_message(format!("leader: {} ({points} pts)", names[id]));
        }
        self.bar.inc(1);
    }
}
