//! Runs scheduled games on a few threads. Each thread keeps its own player
//! instances (worker processes) and hands finished games to the caller's
//! thread, which journals them in the order they finish.
//!
//! A job is one game (Trap, single-player games), or a whole Hexapawn
//! pairing: its games run in order on one thread with one instance per
//! player, so a learner learns across the match.

use std::{
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        mpsc,
    },
    thread,
};

use anyhow::Result;

use super::{
    config::GameRules,
    record::GameResult,
    record::ScheduledGame,
    replays::{ReplaySink, Saved},
};
use crate::{
    games::replays::TableGame,
    play::solo::SoloPool,
    play::time_control::TimeControl,
    play::two_player::{InstancePool, Kept, TwoPlayerGame},
    players::{memory::MemoryDir, Hosting, Player},
    replay::live::LivePlayers,
    with_rules,
};

/// What the runner needs to know.
pub struct RunPlan<'a> {
    pub players: &'a [Player],
    /// Each player's own time control, if any (by index in `players`).
    pub controls: &'a [Option<TimeControl>],
    pub hosting: &'a Hosting,
    pub game: &'a GameRules,
    pub concurrency: usize,
    /// Set to stop taking new games (games in progress finish).
    pub stop: &'a AtomicBool,
    /// Set once the machine spoiled a game: the run takes no new game
    /// (games in progress finish) and is resumed later, when the machine
    /// may have cores to give, rather than wasting more games now.
    pub paused: AtomicBool,
    /// Where wanted replays go (written before their game is handed on).
    pub replays: Option<&'a ReplaySink>,
    /// Where each game is fed as it is played, if watched live.
    pub live: Option<&'a LivePlayers>,
    /// The players' memories across their pairings (`memory`), if kept.
    pub memory: Option<&'a Remembering>,
}

/// A tournament's `memory` folder: each player's store (`memory::store_name`),
/// given back at the start of each of its pairings and replaced by what it
/// hands back at the end (a learner's pairings being matches). A pairing
/// stopped or spoiled midway keeps nothing: it is played again from its
/// start, from the same store.
pub struct Remembering {
    pub stores: MemoryDir,
    /// Each player's store, by id.
    pub names: Vec<String>,
}

impl Remembering {
    fn given(&self, id: usize) -> Option<Vec<u8>> {
        self.stores.load(&self.names[id]).unwrap_or_else(|why| {
            eprintln!("warning: {why}");
            None
        })
    }

    fn keep(&self, id: usize, kept: Kept) {
        let name = &self.names[id];
        let refused = match kept {
            Ok(Some(bytes)) => self.stores.keep(name, &bytes).err(),
            Ok(None) => None,
            Err(why) => Some(format!("the memory of {name} was not handed back: {why}")),
        };
        if let Some(why) = refused {
            eprintln!("warning: {why}");
        }
    }
}

impl<'a> RunPlan<'a> {
    /// The plan of `tournament`'s games.
    pub fn of(
        tournament: &'a super::config::Tournament,
        players: &'a [Player],
        hosting: &'a Hosting,
        stop: &'a AtomicBool,
        replays: Option<&'a ReplaySink>,
    ) -> RunPlan<'a> {
        RunPlan {
            players,
            controls: &tournament.controls,
            hosting,
            game: &tournament.game,
            concurrency: tournament.concurrency,
            stop,
            paused: AtomicBool::new(false),
            replays,
            live: None,
            memory: None,
        }
    }

    /// The plan keeping the players' memories in `memory`, if given.
    pub fn with_memory(self, memory: Option<&'a Remembering>) -> RunPlan<'a> {
        RunPlan { memory, ..self }
    }

    /// Whether it takes no new game: stopped, or paused for the machine.
    pub fn halted(&self) -> bool {
        self.stop.load(Ordering::SeqCst) || self.paused.load(Ordering::SeqCst)
    }

    /// The plan with its games fed to `live`, if given.
    pub fn with_live(self, live: Option<&'a LivePlayers>) -> RunPlan<'a> {
        RunPlan { live, ..self }
    }
}

/// Games played in order on one thread; those marked `true` are handed on
/// (the others were journaled before: a resumed Hexapawn pairing is played
/// again from its start so its learners relive it).
pub type Job = Vec<(ScheduledGame, bool)>;

/// Plays `jobs`, `plan.concurrency` at a time. `on_batch` runs on
/// the calling thread with the games that finished since its last call (a
/// group commit: one disk sync covers them all, so journaling keeps up with
/// fast games). If it fails, no new game starts and its error is returned
/// once the games in progress are done.
pub fn run(
    plan: &RunPlan,
    jobs: &[Job],
    mut on_batch: impl FnMut(Vec<GameResult>) -> Result<()>,
) -> Result<()> {
    let cursor = AtomicUsize::new(0);
    // Memories pass from pairing to pairing in the schedule's order.
    let threads = if plan.memory.is_some() { 1 } else { plan.concurrency.clamp(1, jobs.len().max(1)) };
    let (sender, receiver) = mpsc::channel::<Result<GameResult>>();
    let priority = crate::play::cores::inherited();
    thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let cursor = &cursor;
            // A worker process dies with the thread that started it
            // (PR_SET_PDEATHSIG): this thread lives until its last game is done.
            scope.spawn(move || {
                crate::play::cores::set_inherited(priority);
                with_rules!(plan.game, G, settings => {
                    let new_pool = || InstancePool::<G>::new(plan.players, plan.hosting.clone()).with_controls(plan.controls);
                    let mut pool = new_pool();
                    let mut whole = true;
                    work(plan, jobs, cursor, &sender, |game, sink, job_starts, job_ends| {
                        let memory = plan.memory.filter(|_| G::LEARNS);
                        if job_starts && G::LEARNS {
                            // A pairing's own instances: a learner starts each match knowing
                            // nothing, or what its store holds.
                            pool = new_pool();
                            whole = true;
                            for id in game.seats.into_iter().filter(|_| memory.is_some()) {
                                pool.give_memory(id, memory.and_then(|m| m.given(id)));
                            }
                        }
                        let result = play_two_player(&mut pool, game, settings, sink, plan.live);
                        whole &= result.as_ref().is_ok_and(|r| !r.spoiled());
                        if let Some(memory) = memory.filter(|_| job_ends && whole) {
                            for id in game.seats {
                                memory.keep(id, pool.memory_of(id, G::startup_budget(settings)));
                            }
                        }
                        result
                    })
                }, solo => {
                    let mut pool = SoloPool::<G>::new(plan.players, plan.hosting.clone()).with_controls(plan.controls);
                    work(plan, jobs, cursor, &sender, |game, sink, _, _| {
                        let (score, record) = pool.play_fed(plan.live, game.index as u32, game.seats[0], game.seed, settings);
                        let notes = pool.take_notes();
                        let result = GameResult::solo(game.index, game.seats[0], game.seed, score);
                        let sink = sink.filter(|_| !result.spoiled());
                        let saved = sink.map_or(Ok(Saved::NotWanted), |sink| sink.save_solo::<G>(game, &record, notes, settings))?;
                        Ok(GameResult { replay_left_out: saved == Saved::OverBudget, ..result })
                    })
                })
            });
        }
        drop(sender);
        let mut failure = None;
        let mut journal_failed = false;
        for first in receiver.iter() {
            let mut batch = Vec::new();
            for result in std::iter::once(first).chain(receiver.try_iter()) {
                match result {
                    Ok(result) => {
                        if result.spoiled() {
                            plan.paused.store(true, Ordering::SeqCst);
                        }
                        batch.push(result)
                    }
                    // A game whose replay could not be written is not
                    // journaled: a resumed run plays it again.
                    Err(e) if failure.is_none() => {
                        plan.stop.store(true, Ordering::SeqCst);
                        failure = Some(e);
                    }
                    Err(_) => {}
                }
            }
            // Games played well are journaled even after a replay failed;
            // after the journal failed, nothing more is.
            if !batch.is_empty() && !journal_failed {
                if let Err(e) = on_batch(batch) {
                    plan.stop.store(true, Ordering::SeqCst);
                    journal_failed = true;
                    failure.get_or_insert(e);
                }
            }
        }
        failure.map_or(Ok(()), Err)
    })
}

/// Plays schedule entry `game` of a two-player game with `pool`'s
/// instances; its replay, if `sink` wants it, is written first.
fn play_two_player<G: TwoPlayerGame + TableGame>(
    pool: &mut InstancePool<G>,
    game: &ScheduledGame,
    settings: &G::Settings,
    sink: Option<&ReplaySink>,
    live: Option<&LivePlayers>,
) -> Result<GameResult> {
    let record = pool.play_fed(live, game.index as u32, game.seats, game.seed, settings, &mut |_, _| {});
    let notes = pool.take_notes();
    let result = GameResult::two_player::<G>(game.index, game.seats, &record);
    // A postponed game leaves no replay: it is played again later.
    let sink = sink.filter(|_| !result.spoiled());
    let saved = sink.map_or(Ok(Saved::NotWanted), |sink| sink.save_two_player::<G>(game, &record, notes))?;
    Ok(GameResult { replay_left_out: saved == Saved::OverBudget, ..result })
}

/// One thread's share: takes jobs from `cursor` until none is left or the
/// plan stops, plays each game of a job with `play` (told when a job
/// starts, and when it ends) and sends the wanted ones' results on.
fn work(
    plan: &RunPlan,
    jobs: &[Job],
    cursor: &AtomicUsize,
    sender: &mpsc::Sender<Result<GameResult>>,
    mut play: impl FnMut(&ScheduledGame, Option<&ReplaySink>, bool, bool) -> Result<GameResult>,
) {
    while !plan.halted() {
        let Some(job) = jobs.get(cursor.fetch_add(1, Ordering::SeqCst)) else { return };
        for (i, (game, wanted)) in job.iter().enumerate() {
            if plan.halted() {
                return;
            }
            // The replay is on disk before its game is journaled; a game
            // journaled before (a resumed pairing's) keeps its file.
            let sink = plan.replays.filter(|_| *wanted);
            let result = play(game, sink, i == 0, i + 1 == job.len());
            if *wanted && sender.send(result).is_err() {
                return;
            }
        }
    }
}
