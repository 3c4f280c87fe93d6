//! Expert: the optimal policy, by expectimax over belief states, within
//! the arena's time budget.
//!
//! A belief state is what the player has seen (open cells, their hints, the
//! gold if found); given it, every consistent world is equally likely
//! (see `belief`). Its value is the best expected score still to come:
//! for each closed cell, the chances of a pit (-1, end), the monster (+1,
//! end), the gold (+1, go on) and each hint (go on), from exact world
//! counts. Each state's value and best cell are cached up to the board's
//! symmetries.
//!
//! One shortcut keeps the tree small and the result exact: a cell that can
//! hold neither a pit nor the monster is opened at once. Opening it costs
//! nothing and can only add information (and maybe the gold), so some
//! optimal policy opens it first.
//!
//! Time. The whole 4x4 tree (about 2.7 million states) takes seconds to
//! fill, more than one reveal may use. So a reveal searches until a share
//! of its `time_left_us` (`Limit::for_turn`) and, if the search does not
//! finish, answers as Hard would from the same exact posterior (the safest
//! cell). A search only ever caches values it finished, so the next reveal
//! picks up where this one stopped; once the states a game can reach are
//! cached, every answer is exact and costs one lookup. Until then Expert's
//! play depends on how fast the machine is, like any timed search; not on
//! how busy it is: its time is the game's clock (`player_api::thinking`),
//! its thread's CPU time where that is what the game charges.
//!
//! The cache is shared by every `Expert` in the process (one per board
//! size, behind a mutex), so new instances (a tournament's, or one the
//! arena makes after a fault) start warm; it is reserved at full size when
//! first used, so it never grows, and never rehashes, during a timed
//! reveal. `Expert::with_own_cache` gives an instance a cache of its own.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, TryLockError},
    thread,
    time::{Duration, Instant},
};

use player_api::{
    intuitive::{Cell, CellSet, Hint, IntuitiveGameInfo, IntuitivePlayer, IntuitiveRequest, IntuitiveView},
    thinking::Thinking,
};

use super::{
    belief::{posterior, Posterior},
    hard::{safest, Hard},
};

/// The largest board the exact search handles (4x4, the source's board);
/// on larger boards Expert plays as Hard.
pub const MAX_EXACT_CELLS: u8 = 16;

/// The widest board with an exact search.
const MAX_EXACT_SIDE: usize = 4;

/// The share of a reveal's time left that its search may use: past it, a
/// search only finishes the state it is expanding (one posterior) and
/// unwinds, and the answer still has to travel back to the referee.
const SEARCH_SHARE: f64 = 0.2;
/// Kept back whatever the budget: scheduling noise on a loaded machine.
const RESERVE: Duration = Duration::from_millis(2);

/// States a full search of the board caches (counted on a full fill), so
/// that the cache is allocated once.
fn expected_states(size: u8) -> usize {
    match size {
        4 => 2_672_775,
        3 => 1_978,
        _ => 0,
    }
}

/// When a search must give up: a time, and (for tests, which must not
/// depend on the machine's speed) a number of states it may expand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// Thinking since when, for how long.
    time: Option<(Thinking, Duration)>,
    expansions: Option<u64>,
}

impl Limit {
    /// No limit: the search runs to the end.
    pub const NONE: Limit = Limit { time: None, expansions: None };

    /// The search of a reveal whose budget has `time_left` remaining.
    pub fn for_turn(time_left: Duration) -> Limit {
        let usable = time_left.saturating_sub(RESERVE).mul_f64(SEARCH_SHARE);
        Limit { time: Some((Thinking::start(), usable)), expansions: None }
    }

    /// The same limit ending `time` earlier.
    fn ending_earlier_by(self, time: Duration) -> Limit {
        Limit { time: self.time.map(|(started, usable)| (started, usable.saturating_sub(time))), ..self }
    }

    /// The time thought so far (zero without a time limit).
    fn thought(&self) -> Duration {
        self.time.map_or(Duration::ZERO, |(started, _)| started.elapsed())
    }

    /// Whether its time is up.
    fn passed(&self) -> bool {
        self.time.is_some_and(|(started, usable)| started.elapsed() >= usable)
    }

    /// A search that may expand (compute the posterior of) `states` new states.
    pub fn expansions(states: u64) -> Limit {
        Limit { time: None, expansions: Some(states) }
    }
}

/// What Expert decided in one view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The cell number to open.
    pub cell: u8,
    /// Whether it is the optimal policy's choice; if not, the search ran out
    /// of its limit and this is Hard's choice.
    pub exact: bool,
}

/// The optimal player. See the module's documentation for its cache and clock.
pub struct Expert {
    /// Whether it uses the process's cache (else one of its own).
    shared: bool,
    /// The cache in use, and the board size it is for.
    table: Option<(u8, Arc<Mutex<Table>>)>,
    guesses: u64,
}

impl Default for Expert {
    /// An Expert using the cache shared by the process.
    fn default() -> Self {
        Expert { shared: true, table: None, guesses: 0 }
    }
}

impl Expert {
    /// An Expert with a cache of its own, empty (tests, measurements).
    pub fn with_own_cache() -> Expert {
        Expert { shared: false, ..Expert::default() }
    }

    /// Belief states whose value is cached (in the cache this Expert uses,
    /// for the board it last played).
    pub fn cached_states(&self) -> usize {
        self.table.as_ref().map_or(0, |(_, table)| lock(table, None).map_or(0, |t| t.states.len()))
    }

    /// Reveals answered with Hard's choice because the search ran out of time.
    pub fn guesses(&self) -> u64 {
        self.guesses
    }

    /// The best expected score still to come in `view` (the score so far
    /// not included), searched to the end however long it takes.
    pub fn value(&mut self, view: &IntuitiveView) -> f64 {
        let table = self.table(view.size());
        let mut table = lock(&table, None).expect("an unlimited lock waits");
        match Search::new(&mut table, Limit::NONE).value(view) {
            Ok(value) => value,
            Err(OutOfTime) => unreachable!("a search without a limit finishes"),
        }
    }

    /// The expected score still to come of opening closed cell `cell` in
    /// `view`, then playing optimally (analysis: a reveal's cost is its drop
    /// below `value`). Searched to the end however long it takes.
    pub fn value_of_opening(&mut self, view: &IntuitiveView, cell: u8) -> f64 {
        let table = self.table(view.size());
        let mut table = lock(&table, None).expect("an unlimited lock waits");
        let post = posterior(view, true);
        match Search::new(&mut table, Limit::NONE).opening(view, &post, cell) {
            Ok(value) => value,
            Err(OutOfTime) => unreachable!("a search without a limit finishes"),
        }
    }

    /// The optimal cell to open in `view` (the lowest-numbered of equals,
    /// in the cache's numbering), searched to the end.
    pub fn best_cell(&mut self, view: &IntuitiveView) -> u8 {
        self.decide(view, Limit::NONE).cell
    }

    /// The cell to open in `view`: the optimal one if the search finishes
    /// (or finds it cached) within `limit`, else Hard's. Boards larger than
    /// 4x4 always get Hard's choice.
    pub fn decide(&mut self, view: &IntuitiveView, limit: Limit) -> Decision {
        let decision = self
            .search(view, limit)
            .unwrap_or_else(|| Decision { cell: safest(view, &posterior(view, false)), exact: false });
        self.guesses += u64::from(!decision.exact);
        decision
    }

    /// The optimal decision, unless `limit` runs out (or the board is too large).
    fn search(&mut self, view: &IntuitiveView, limit: Limit) -> Option<Decision> {
        if view.size() * view.size() > MAX_EXACT_CELLS {
            return None;
        }
        let table = self.table(view.size());
        let mut table = lock(&table, limit.time.map(|(_, usable)| usable))?;
        let (key, symmetry) = table.key(view);
        if let Some(entry) = table.states.get(&key) {
            return Some(Decision { cell: table.own_cell(entry.best, symmetry), exact: true });
        }
        let before = limit.thought();
        let post = posterior(view, true);
        // No state below this one costs more to count (each knows more, so
        // it has fewer worlds): no expansion may start later than twice
        // this count (the count, then the children's keys) before the limit.
        let limit = limit.ending_earlier_by((limit.thought() - before) * 2);
        let canonical = table.canonical(view, symmetry);
        let canonical_post = post.renumbered(table.renumbering(symmetry));
        Some(match Search::new(&mut table, limit).expand(key, &canonical, &canonical_post) {
            Ok(choice) => Decision { cell: table.own_cell(choice.cell, symmetry), exact: true },
            // The search stopped: answer from the posterior already counted.
            Err(OutOfTime) => Decision { cell: safest(view, &post), exact: false },
        })
    }

    /// The cache for boards of side `size`.
    fn table(&mut self, size: u8) -> Arc<Mutex<Table>> {
        match &self.table {
            Some((cached, table)) if *cached == size => table.clone(),
            _ => {
                let table =
                    if self.shared { shared_table(size) } else { Arc::new(Mutex::new(Table::new(size))) };
                self.table = Some((size, table.clone()));
                table
            }
        }
    }
}

impl IntuitivePlayer for Expert {
    fn new_game(&mut self, _info: &IntuitiveGameInfo) {}

    fn reveal(&mut self, req: &IntuitiveRequest) -> Cell {
        let view = &req.view;
        if view.size() * view.size() > MAX_EXACT_CELLS {
            return Hard.reveal(req);
        }
        let decision = self.decide(view, Limit::for_turn(req.time_left()));
        Cell::from_index(decision.cell, view.size())
    }
}

/// The process's cache for boards of side `size` (at most `MAX_EXACT_SIDE`).
fn shared_table(size: u8) -> Arc<Mutex<Table>> {
    static SHARED: [OnceLock<Arc<Mutex<Table>>>; MAX_EXACT_SIDE + 1] = [const { OnceLock::new() }; 5];
    SHARED[size as usize].get_or_init(|| Arc::new(Mutex::new(Table::new(size)))).clone()
}

/// Locks `table`, waiting at most `patience` (another Expert of the
/// process may be searching). Waiting takes no CPU time, so it is bounded
/// on the wall, whatever the game's clock. A search that panicked left only
/// finished values behind, so a poisoned cache is still right.
fn lock(table: &Mutex<Table>, patience: Option<Duration>) -> Option<MutexGuard<'_, Table>> {
    let Some(patience) = patience else {
        return Some(table.lock().unwrap_or_else(PoisonError::into_inner));
    };
    let deadline = Instant::now() + patience;
    loop {
        match table.try_lock() {
            Ok(guard) => return Some(guard),
            Err(TryLockError::Poisoned(poisoned)) => return Some(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) if Instant::now() >= deadline => return None,
            Err(TryLockError::WouldBlock) => thread::sleep(Duration::from_micros(100)),
        }
    }
}

/// A cached state: its value and its best cell (in the key's numbering).
#[derive(Clone, Copy, Debug)]
struct Entry {
    value: f64,
    best: u8,
}

/// Cached states of one board size, each searched once, in its canonical
/// numbering (the key's), so that ties between equal cells break the same
/// way whichever game met the state first.
struct Table {
    /// Cells on the board.
    cells: usize,
    /// The cell permutations of the board's 8 symmetries.
    symmetries: [[u8; 16]; 8],
    states: HashMap<u128, Entry>,
}

/// Where a symmetry sends (row, col) on a board of side n.
type CellMap = fn(usize, usize, usize) -> (usize, usize);

impl Table {
    fn new(size: u8) -> Table {
        let n = size as usize;
        let maps: [CellMap; 8] = [
            |r, c, _| (r, c),
            |r, c, n| (c, n - 1 - r),
            |r, c, n| (n - 1 - r, n - 1 - c),
            |r, c, n| (n - 1 - c, r),
            |r, c, n| (r, n - 1 - c),
            |r, c, n| (n - 1 - r, c),
            |r, c, _| (c, r),
            |r, c, n| (n - 1 - c, n - 1 - r),
        ];
        let symmetries = maps.map(|map| {
            let mut perm = [0u8; 16];
            for r in 0..n {
                for c in 0..n {
                    let (r2, c2) = map(r, c, n);
                    perm[r * n + c] = (r2 * n + c2) as u8;
                }
            }
            perm
        });
        Table { cells: n * n, symmetries, states: HashMap::with_capacity(expected_states(size)) }
    }

    /// Where `symmetry` sends each cell of the board.
    fn renumbering(&self, symmetry: usize) -> &[u8] {
        &self.symmetries[symmetry][..self.cells]
    }

    /// The state's key, the smallest packing over the board's symmetries,
    /// and the symmetry that gives it.
    fn key(&self, view: &IntuitiveView) -> (u128, usize) {
        (0..8).map(|s| (pack(view, &self.symmetries[s]), s)).min().expect("eight symmetries")
    }

    /// `view` renumbered by `symmetry`.
    fn canonical(&self, view: &IntuitiveView, symmetry: usize) -> IntuitiveView {
        let perm = self.renumbering(symmetry);
        let moved = |set: CellSet| set.map(|i| perm[i as usize]).collect::<CellSet>();
        let sets = [view.breeze(), view.smell(), view.glitter()].map(moved);
        let gold = view.gold().map(|g| perm[g as usize]);
        IntuitiveView::from_parts(view.size(), view.score(), gold, moved(view.open()), sets)
            .expect("a view renumbered by a symmetry of its board is a view")
    }

    /// Cell `canonical` of a key made by `symmetry`, in the view's own numbering.
    fn own_cell(&self, canonical: u8, symmetry: usize) -> u8 {
        let perm = self.renumbering(symmetry);
        (0..self.cells as u8)
            .find(|&i| perm[i as usize] == canonical)
            .expect("the arena only asks while a cell is closed")
    }
}

/// A view as one number, its cells renumbered by `perm`.
fn pack(view: &IntuitiveView, perm: &[u8; 16]) -> u128 {
    let sets = [view.open(), view.breeze(), view.smell(), view.glitter()];
    let moved = |set: CellSet| set.fold(0u128, |acc, i| acc | 1 << perm[i as usize]);
    let gold = view.gold().map_or(0xff, |g| perm[g as usize] as u128);
    sets.iter().enumerate().fold(gold << 64, |acc, (k, &s)| acc | moved(s) << (16 * k))
}

/// A search stopped by its limit. Every value it finished is cached.
struct OutOfTime;

/// One move's worth: the expected score still to come if `cell` is opened.
struct Choice {
    cell: u8,
    value: f64,
}

/// One search over a cache, within a limit.
struct Search<'t> {
    table: &'t mut Table,
    limit: Limit,
    expanded: u64,
}

impl<'t> Search<'t> {
    fn new(table: &'t mut Table, limit: Limit) -> Search<'t> {
        Search { table, limit, expanded: 0 }
    }

    /// The value of `view`, cached or searched.
    fn value(&mut self, view: &IntuitiveView) -> Result<f64, OutOfTime> {
        let (key, symmetry) = self.table.key(view);
        if let Some(entry) = self.table.states.get(&key) {
            return Ok(entry.value);
        }
        let canonical = self.table.canonical(view, symmetry);
        let post = posterior(&canonical, true);
        self.expand(key, &canonical, &post).map(|choice| choice.value)
    }

    /// Searches state `key`, given in its canonical numbering with its
    /// posterior, for its best cell, and caches the result. The limit is
    /// checked here, once per state: a state costs a posterior, far more
    /// than reading the clock.
    fn expand(
        &mut self,
        key: u128,
        canonical: &IntuitiveView,
        post: &Posterior,
    ) -> Result<Choice, OutOfTime> {
        self.expanded += 1;
        let out_of_states = self.limit.expansions.is_some_and(|n| self.expanded > n);
        if out_of_states || self.limit.passed() {
            return Err(OutOfTime);
        }
        let choice = self.best(canonical, post)?;
        self.table.states.insert(key, Entry { value: choice.value, best: choice.cell });
        Ok(choice)
    }

    /// The expected score still to come of opening closed cell `c` in `view`
    /// and playing on optimally.
    fn opening(&mut self, view: &IntuitiveView, post: &Posterior, c: u8) -> Result<f64, OutOfTime> {
        let total = post.total as f64;
        let i = c as usize;
        let mut value = (post.monster[i] as f64 - post.pit[i] as f64) / total;
        if post.gold[i] > 0 {
            let mut next = *view;
            next.open_gold(c);
            value += post.gold[i] as f64 / total * (1.0 + self.value(&next)?);
        }
        for (code, &n) in post.hint[i].iter().enumerate() {
            if n > 0 {
                let mut next = *view;
                next.open_hint(c, Hint::from_code(code as u8));
                value += n as f64 / total * self.value(&next)?;
            }
        }
        Ok(value)
    }

    /// The best cell to open and its value; a free cell when there is one.
    fn best(&mut self, view: &IntuitiveView, post: &Posterior) -> Result<Choice, OutOfTime> {
        let closed = view.closed();
        // Free cells first: one of them decides the state.
        let free = closed.into_iter().find(|&c| post.pit[c as usize] == 0 && post.monster[c as usize] == 0);
        let candidates: CellSet = free.map_or(closed, CellSet::single);
        // No closed cell (no state a game reaches): nothing more to score.
        let mut best = Choice { cell: u8::MAX, value: 0.0 };
        for c in candidates {
            let value = self.opening(view, post, c)?;
            // Strictly better only: equal values keep the first cell.
            if best.cell == u8::MAX || value > best.value + 1e-12 {
                best = Choice { cell: c, value };
            }
        }
        Ok(best)
    }
}
