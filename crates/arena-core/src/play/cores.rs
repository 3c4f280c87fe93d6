//! One budget of cores for every game a process plays: the server's
//! grading, scrimmages, class tournament and league take their games from
//! one pool, so that no more games run at once than it has cores, and a
//! game's players get a core of their own whatever else is played.
//!
//! A thread that plays says what for (`Priority`, inherited by the threads
//! it starts for its games); each game then takes a slot (`take`), waiting
//! while none is free or a game of a higher priority waits: grading first,
//! then scrimmages, then the class tournament, then the league, the
//! analysis of graded games (not a game: a search) last. The league
//! is also held while a class tournament runs or waits (unless staff let it
//! run: `LeagueState::Running`) and while staff pause it.
//!
//! Back-pressure: a game the machine spoiled (its player kept from a core
//! past the bound, `clock::STARVATION_BOUND`) shows the machine has fewer
//! cores to give than the pool thinks: the pool then plays one game fewer
//! at once (down to one), and one more again after `RECOVERY` of games
//! played well; each change is one line in the log, not one per turn.
//!
//! A slot is a core: the thread that holds it, and so every worker it
//! starts and anything those fork, runs on that core only
//! (`sched_setaffinity`, inherited across fork; the sandbox forbids a
//! player to change it), and a worker started before (for an earlier game,
//! or to load its player) is moved onto its caller's core at its next
//! request. The command line makes a pool of its own concurrency
//! (`one_core_per_game`); a process without one plays unpinned.

use std::{
    cell::Cell,
    sync::{Arc, Condvar, Mutex, OnceLock},
    time::{Duration, Instant},
};

use serde::Serialize;

/// What a game is played for, in the order slots are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    Grading,
    Scrimmage,
    Final,
    League,
    /// Work that is not a game: the analysis of graded games (the server's
    /// `work/analysis.rs`), the lowest of all.
    Analysis,
}

impl Priority {
    pub const ALL: [Priority; 5] =
        [Priority::Grading, Priority::Scrimmage, Priority::Final, Priority::League, Priority::Analysis];

    pub fn name(self) -> &'static str {
        match self {
            Priority::Grading => "grading",
            Priority::Scrimmage => "scrimmage",
            Priority::Final => "final",
            Priority::League => "league",
            Priority::Analysis => "analysis",
        }
    }
}

/// Whether the league may take slots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LeagueState {
    /// It plays when nothing else waits, and not while a class tournament runs.
    #[default]
    Auto,
    /// Staff let it play even while a class tournament runs.
    Running,
    /// Staff paused it.
    Paused,
}

impl LeagueState {
    pub fn parse(text: &str) -> Option<LeagueState> {
        match text {
            "auto" => Some(LeagueState::Auto),
            "running" => Some(LeagueState::Running),
            "paused" => Some(LeagueState::Paused),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            LeagueState::Auto => "auto",
            LeagueState::Running => "running",
            LeagueState::Paused => "paused",
        }
    }
}

/// The pool.
pub struct Cores {
    /// The cores slots map onto, in order (slot k runs on `cpus[k % len]`).
    cpus: Vec<usize>,
    /// How long games play well before back-pressure gives a game back.
    recovery: Duration,
    state: Mutex<State>,
    freed: Condvar,
}

#[derive(Default)]
struct State {
    /// Which slots are taken.
    taken: Vec<bool>,
    running: [usize; 5],
    waiting: [usize; 5],
    league: LeagueState,
    /// Class tournaments run by other processes of the same data folder
    /// (`serve finalize` from a shell), as the league thread last saw.
    final_elsewhere: bool,
    /// Games played at once now: the slots, fewer while the machine
    /// starves the pool's games (back-pressure).
    at_once: usize,
    /// When the machine last spoiled a game, or the pool last grew back.
    strained: Option<Instant>,
}

/// What staff see of the pool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Usage {
    pub cores: usize,
    /// Games played at once now: `cores`, or fewer while the machine
    /// spoils games (back-pressure).
    pub at_once: usize,
    pub running: std::collections::BTreeMap<&'static str, usize>,
    pub waiting: std::collections::BTreeMap<&'static str, usize>,
    pub league: LeagueState,
    /// Whether the league is held now (paused, or a class tournament runs).
    pub league_held: bool,
}

static POOL: OnceLock<Arc<Cores>> = OnceLock::new();

thread_local! {
    static PRIORITY: Cell<Option<Priority>> = const { Cell::new(None) };
    /// The core this thread was last pinned to.
    static PINNED: Cell<Option<usize>> = const { Cell::new(None) };
}

impl Cores {
    /// A pool of `slots` games at once (at least one).
    pub fn new(slots: usize) -> Cores {
        let slots = slots.max(1);
        Cores {
            cpus: allowed_cpus(),
            recovery: RECOVERY,
            state: Mutex::new(State { taken: vec![false; slots], at_once: slots, ..State::default() }),
            freed: Condvar::new(),
        }
    }

    /// Makes `self` this process's pool (the first call decides); the pool.
    pub fn install(self) -> Arc<Cores> {
        POOL.get_or_init(|| Arc::new(self)).clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a game of `priority` may start now.
    fn may_start(state: &State, priority: Priority) -> bool {
        let taken = state.taken.iter().filter(|t| **t).count();
        let free = taken < state.at_once && taken < state.taken.len();
        let before =
            Priority::ALL.iter().take_while(|p| **p < priority).any(|p| state.waiting[*p as usize] > 0);
        free && !before && !(priority == Priority::League && Self::league_held(state))
    }

    fn league_held(state: &State) -> bool {
        let final_on = state.running[Priority::Final as usize] + state.waiting[Priority::Final as usize] > 0
            || state.final_elsewhere;
        match state.league {
            LeagueState::Paused => true,
            LeagueState::Auto => final_on,
            LeagueState::Running => false,
        }
    }

    /// Waits for a slot for a game of `priority`.
    pub fn take(self: &Arc<Self>, priority: Priority) -> Slot {
        let mut state = self.lock();
        state.waiting[priority as usize] += 1;
        while !Self::may_start(&state, priority) {
            state = self.freed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.waiting[priority as usize] -= 1;
        state.running[priority as usize] += 1;
        let index = state.taken.iter().position(|t| !t).expect("a free slot");
        state.taken[index] = true;
        drop(state);
        // Others of lower priority may have been waiting on this one's turn.
        self.freed.notify_all();
        let cpu = (!self.cpus.is_empty()).then(|| self.cpus[index % self.cpus.len()]);
        if let Some(cpu) = cpu {
            pin_thread(cpu);
        }
        Slot { cores: self.clone(), priority, index }
    }

    /// Sets whether the league may play.
    pub fn set_league(&self, league: LeagueState) {
        self.lock().league = league;
        self.freed.notify_all();
    }

    /// Tells whether another process runs a class tournament now.
    pub fn set_final_elsewhere(&self, on: bool) {
        self.lock().final_elsewhere = on;
        self.freed.notify_all();
    }

    /// Whether a league game would be held now.
    pub fn league_held_now(&self) -> bool {
        Self::league_held(&self.lock())
    }

    pub fn usage(&self) -> Usage {
        let state = self.lock();
        let by_kind =
            |counts: &[usize; 5]| Priority::ALL.iter().map(|p| (p.name(), counts[*p as usize])).collect();
        Usage {
            cores: state.taken.len(),
            at_once: state.at_once,
            running: by_kind(&state.running),
            waiting: by_kind(&state.waiting),
            league: state.league,
            league_held: Self::league_held(&state),
        }
    }
}

/// A game's place in the pool, given back when dropped.
pub struct Slot {
    cores: Arc<Cores>,
    priority: Priority,
    index: usize,
}

/// How long the pool plays well (no game spoiled) before it plays one more
/// game at once again, after back-pressure took one away.
pub const RECOVERY: Duration = Duration::from_secs(300);

impl Slot {
    /// Tells the pool how its game went: `spoiled` by the machine (one
    /// game fewer at once), or played well (one more, after `RECOVERY`).
    pub fn played(&self, spoiled: bool) {
        let cores = &self.cores;
        let mut state = cores.lock();
        let now = Instant::now();
        let slots = state.taken.len();
        if spoiled {
            state.strained = Some(now);
            if state.at_once > 1 {
                state.at_once -= 1;
                tracing::warn!(
                    "the machine is overloaded (a game's player was kept from a core past its bound): \
                     playing {} game(s) at once instead of {slots} until games play well again",
                    state.at_once
                );
            }
        } else if state.at_once < slots && state.strained.is_none_or(|at| now - at >= cores.recovery) {
            state.at_once += 1;
            state.strained = Some(now);
            tracing::info!("the machine gives cores again: playing {} game(s) at once", state.at_once);
            drop(state);
            cores.freed.notify_all();
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut state = self.cores.lock();
        state.taken[self.index] = false;
        state.running[self.priority as usize] -= 1;
        drop(state);
        self.cores.freed.notify_all();
    }
}

/// The cores this machine gives this process: the default pool.
pub fn of_machine() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A command's pool (`arena play`, `arena tournament`): `slots` games at
/// once, each game's thread and its workers on a core of their own, as the
/// server plays them. A worker's reply then hands the core straight back
/// to the arena's thread instead of waking another core, each way, every
/// turn: Python players' games play 1.3x-1.8x faster
/// (docs/benchmarks/hosting.md, "Python players against the course's
/// referee"), and a player at home is held to what the server holds it to.
pub fn one_core_per_game(slots: usize) {
    Cores::new(slots).install();
    set_priority(Priority::Grading);
}

/// This process's pool, if it has one.
pub fn pool() -> Option<Arc<Cores>> {
    POOL.get().cloned()
}

/// Says what the calling thread's games are played for.
pub fn set_priority(priority: Priority) {
    PRIORITY.with(|p| p.set(Some(priority)));
}

/// What the calling thread's games are played for, to hand on to the
/// threads it starts (`set_inherited`).
pub fn inherited() -> Option<Priority> {
    PRIORITY.with(Cell::get)
}

/// In a thread started to play another's games: plays them for the same.
pub fn set_inherited(priority: Option<Priority>) {
    PRIORITY.with(|p| p.set(priority));
}

/// A slot for one game of the calling thread, if this process has a pool
/// and the thread plays for something; held until dropped.
pub fn take() -> Option<Slot> {
    let priority = inherited()?;
    Some(pool()?.take(priority))
}

/// Plays one game in a slot of the pool (if this process has one), and
/// tells the pool whether the machine spoiled it (`Slot::played`).
pub fn play_in_slot<T>(play: impl FnOnce() -> T, spoiled: impl FnOnce(&T) -> bool) -> T {
    let slot = take();
    let played = play();
    if let Some(slot) = slot {
        slot.played(spoiled(&played));
    }
    played
}

/// The cores this process may run on.
fn allowed_cpus() -> Vec<usize> {
    // SAFETY: plain syscall writing one cpu_set_t.
    let set = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        set
    };
    // SAFETY: CPU_ISSET reads the set.
    (0..libc::CPU_SETSIZE as usize).filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) }).collect()
}

/// Runs the calling thread (and what it starts from now on) on `cpu` only,
/// and moves the workers it started before there too.
fn pin_thread(cpu: usize) {
    if PINNED.with(Cell::get) == Some(cpu) {
        return;
    }
    if let Err(e) = pin(0, cpu) {
        tracing::debug!("cannot pin a game's thread to core {cpu}: {e}");
        return;
    }
    PINNED.with(|p| p.set(Some(cpu)));
}

/// The core the calling thread was last pinned to by the pool, if any.
pub fn pinned() -> Option<usize> {
    PINNED.with(Cell::get)
}

/// Runs thread (or process) `tid` (0: the calling thread) on `cpu` only.
pub(crate) fn pin(tid: libc::pid_t, cpu: usize) -> std::io::Result<()> {
    // SAFETY: CPU_SET on a zeroed set; a plain syscall reading it.
    let done = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &set)
    };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn waiting_for(cores: &Arc<Cores>, priority: Priority, n: usize) {
        for _ in 0..500 {
            if cores.usage().waiting[priority.name()] == n {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        panic!("{:?}", cores.usage());
    }

    #[test]
    fn a_spoiled_game_takes_a_game_at_once_away_until_games_play_well_again() {
        let cores = Arc::new(Cores { recovery: Duration::ZERO, ..Cores::new(2) });
        let first = cores.take(Priority::Grading);
        first.played(true);
        assert_eq!(cores.usage().at_once, 1, "{:?}", cores.usage());
        // One game at once now: a second waits for the first, though a core is free.
        let second = {
            let cores = cores.clone();
            std::thread::spawn(move || {
                let slot = cores.take(Priority::Grading);
                slot.played(true);
                // Never fewer than one.
                assert_eq!(cores.usage().at_once, 1);
                slot.played(false);
            })
        };
        waiting_for(&cores, Priority::Grading, 1);
        drop(first);
        second.join().unwrap();
        assert_eq!(cores.usage().at_once, 2, "a game played well gives it back (recovery: none)");
        // With a recovery to wait for, a game played well at once does not.
        let patient = Cores::new(2);
        let slot = Arc::new(patient).take(Priority::Grading);
        slot.played(true);
        slot.played(false);
        assert_eq!(slot.cores.usage().at_once, 1);
    }

    #[test]
    fn slots_go_by_priority_and_never_past_the_pool() {
        let cores = Arc::new(Cores::new(1));
        let first = cores.take(Priority::League);
        let order = Arc::new(Mutex::new(Vec::new()));
        let started: Vec<_> = [Priority::Analysis, Priority::League, Priority::Scrimmage, Priority::Grading]
            .into_iter()
            .map(|priority| {
                let (pool, order) = (cores.clone(), order.clone());
                let handle = std::thread::spawn(move || {
                    let slot = pool.take(priority);
                    assert_eq!(pool.usage().running.values().sum::<usize>(), 1, "one at a time");
                    order.lock().unwrap().push(priority);
                    std::thread::sleep(Duration::from_millis(5));
                    drop(slot);
                });
                waiting_for(&cores, priority, 1);
                handle
            })
            .collect();
        assert_eq!(cores.usage().running["league"], 1);
        drop(first);
        started.into_iter().for_each(|h| h.join().unwrap());
        // The analysis of graded games, waiting first, goes last.
        let last_of_all = [Priority::Grading, Priority::Scrimmage, Priority::League, Priority::Analysis];
        assert_eq!(*order.lock().unwrap(), last_of_all);
    }

    #[test]
    fn the_league_is_held_while_a_final_runs_or_staff_pause_it() {
        let cores = Arc::new(Cores::new(2));
        let final_game = cores.take(Priority::Final);
        assert!(cores.league_held_now(), "auto: held while a class tournament runs");
        cores.set_league(LeagueState::Running);
        assert!(!cores.league_held_now(), "staff let it run");
        drop(cores.take(Priority::League));
        cores.set_league(LeagueState::Auto);
        let league = {
            let cores = cores.clone();
            std::thread::spawn(move || drop(cores.take(Priority::League)))
        };
        waiting_for(&cores, Priority::League, 1);
        drop(final_game);
        league.join().unwrap();
        cores.set_league(LeagueState::Paused);
        assert!(cores.league_held_now());
        cores.set_league(LeagueState::Auto);
        cores.set_final_elsewhere(true);
        assert!(cores.league_held_now(), "a finalize of another process holds it too");
        assert_eq!(cores.usage().cores, 2);
    }
}
