//! Live feeds: a game's replay as it is played, for the viewer to draw
//! turn by turn (docs/replays.md, "Watching live").
//!
//! A feed is the game's replay in pieces, as server-sent events: `start`
//! (the replay before its first turn: envelope, settings, world, an empty
//! list of turns), a `turn` per turn (the record the replay's list gets,
//! and the body's fields it changes, such as `final`), and `end` (the
//! replay file's text, whole). The viewer applies the pieces to the
//! replay it holds and draws it with the code that draws files, so a
//! live game shows the frames its file will.
//!
//! Cost: a referee only clones its turn and `try_send`s it (`GameTap`);
//! one thread per `Live` turns it into JSON and appends it to the game's
//! log, once, whoever watches: each event is one `Arc<str>` that every
//! watcher's read shares. Watchers read the log at their own pace (a late
//! one from its start) and are woken when it grows, once per batch the
//! thread takes in (not per event): a slow one slows no one. A full
//! channel drops the turn (the feed says `lagged`); the `end` event is
//! whole anyway.
//!
//! Analysis (`Live::with_analyst`, local runs): one more thread, at nice 19,
//! judges each game's newest replay-so-far and appends `analysis` events
//! (`analysing.rs`); the feed stays open after its `end` until the final
//! position's analysis is in, so a page on one game gets it.

use std::{
    collections::VecDeque,
    fmt,
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc::{sync_channel, SyncSender, TrySendError},
        Arc, Mutex, Weak,
    },
};

use serde::Serialize;
use serde_json::{json, value::RawValue, Value};

use super::{Replay, ReplayGame, ReplayPlayer, ReplayResult};

mod analysing;

use analysing::Analysing;
pub use analysing::Analyst;

/// One turn as a feed carries it: the record appended to the replay's list
/// of turns, and the body's fields that change with it (the position after
/// it: `final`; a run's counts). JSON text, its fields in the file's order.
#[derive(Debug)]
pub struct LiveTurn {
    pub record: Box<RawValue>,
    pub set: Vec<(&'static str, Box<RawValue>)>,
}

impl LiveTurn {
    /// `record` (any serialisable turn record) and the fields `set`.
    pub fn new(record: impl Serialize, set: Vec<(&'static str, Box<RawValue>)>) -> LiveTurn {
        LiveTurn { record: value(record), set }
    }
}

/// `value` as JSON text (for `LiveTurn::new`'s fields).
pub fn value(value: impl Serialize) -> Box<RawValue> {
    serde_json::value::to_raw_value(&value).expect("plain data serialises")
}

/// A `turn` event's data: `{"record": ..., "set": {...}}`.
impl Serialize for LiveTurn {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Set<'a>(&'a [(&'static str, Box<RawValue>)]);
        impl Serialize for Set<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
            }
        }
        use serde::ser::SerializeStruct;
        let mut event = serializer.serialize_struct("LiveTurn", 2)?;
        event.serialize_field("record", &self.record)?;
        event.serialize_field("set", &Set(&self.set))?;
        event.end()
    }
}

/// Turns in the channel before a referee drops one (the converting thread
/// takes them in microseconds: only a stalled machine fills it).
const QUEUE: usize = 4096;
/// How often the feeds' thread takes in what the referees handed on while
/// games are played: a watcher sees a turn at most this late.
const BATCH: std::time::Duration = std::time::Duration::from_millis(20);
/// Finished games kept for late watchers beside those in progress.
const FINISHED_KEPT: usize = 64;

/// The games of a run (a match, a bench, a tournament, a server) that can
/// be watched: their feeds, newest last, and the thread that fills them.
/// Cloning it shares it.
#[derive(Clone)]
pub struct Live(Arc<Shared>, Arc<str>);

struct Shared {
    feeds: Mutex<Feeds>,
    jobs: SyncSender<Job>,
    /// Woken when a game starts or ends.
    wakers: Wakers,
    /// How a server shows its games, if they are a server's.
    privacy: Option<Privacy>,
    /// What judges its games as they are played, if anything does.
    analysing: Option<Arc<Analysing>>,
}

/// A server's games: their seeds kept (every feed's), and what the public
/// may see of a replay (`public`, applied once per game to its start and
/// its end: a feed read as public gets those instead).
#[derive(Clone, Copy)]
pub struct Privacy {
    pub public: fn(&mut Value),
}

#[derive(Default)]
struct Feeds {
    list: VecDeque<Arc<Feed>>,
    next_id: u64,
    /// No more games will start (the run is over).
    closed: bool,
}

type Job = Box<dyn FnOnce() + Send>;

impl fmt::Debug for Live {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Live").field("games", &self.games().len()).finish()
    }
}

impl Default for Live {
    fn default() -> Live {
        Live::new()
    }
}

impl Live {
    /// No games yet; starts the thread that turns records into feeds.
    pub fn new() -> Live {
        Live::with_privacy(None)
    }

    /// A server's games (`Privacy`), or a local run's (None).
    pub fn with_privacy(privacy: Option<Privacy>) -> Live {
        Live::start(privacy, None)
    }

    /// A local run's games, each judged by `analyst` as it is played: the
    /// newest replay-so-far of each, on a thread of its own at nice 19
    /// (`analysing.rs`); its feed gets `analysis` events.
    pub fn with_analyst(analyst: Analyst) -> Live {
        Live::start(None, Some(analyst))
    }

    fn start(privacy: Option<Privacy>, analyst: Option<Analyst>) -> Live {
        let (jobs, queue) = sync_channel::<Job>(QUEUE);
        let analysing = analyst.map(Analysing::start);
        let wakers = Wakers::default();
        let shared = Arc::new(Shared { feeds: Mutex::default(), jobs, wakers, privacy, analysing });
        // Weak: the thread ends once the run and its taps are gone (the channel closes).
        let run = Arc::downgrade(&shared);
        std::thread::Builder::new()
            .name("live-feeds".into())
            .spawn(move || {
                below_the_games();
                // Woken by the first turn after a quiet while, then taking
                // what came every BATCH: while games are played, a referee's
                // try_send finds no one to wake (no system call). The
                // watchers of a feed that grew are woken once per batch.
                while let Ok(job) = queue.recv() {
                    job();
                    wake_grown(&run);
                    loop {
                        std::thread::sleep(BATCH);
                        let jobs: Vec<Job> = queue.try_iter().collect();
                        if jobs.is_empty() {
                            break;
                        }
                        jobs.into_iter().for_each(|job| job());
                        wake_grown(&run);
                    }
                }
            })
            .expect("a thread starts");
        Live(shared, "".into())
    }

    /// The same games, the ones begun through it marked `scope` (what
    /// a server's games are: whose they are, who may watch them).
    pub fn scoped(&self, scope: &str) -> Live {
        Live(self.0.clone(), scope.into())
    }

    /// A new game's feed, titled `title`; `start` makes its replay before
    /// the first turn (on the feeds' thread). Its tap is the referee's side.
    pub fn begin<G: ReplayGame, B: Serialize + 'static>(
        &self,
        title: String,
        start: impl FnOnce() -> Replay<B> + Send + 'static,
    ) -> GameTap {
        let feed = {
            let mut feeds = self.0.feeds.lock().unwrap();
            let analysing = self.0.analysing.as_ref().map(Arc::downgrade);
            let (id, scope, privacy) = (feeds.next_id, self.1.clone(), self.0.privacy);
            let feed = Arc::new(Feed::new(id, G::ID.name(), title, scope, privacy, analysing));
            if let Some(analysing) = &self.0.analysing {
                analysing.follow(&feed);
            }
            feeds.next_id += 1;
            feeds.list.push_back(feed.clone());
            while feeds.list.iter().filter(|f| f.ended()).count() > FINISHED_KEPT {
                let oldest = feeds.list.iter().position(|f| f.ended()).expect("one has ended");
                feeds.list.remove(oldest);
            }
            feed
        };
        self.0.wakers.wake();
        let tap = GameTap { feed, jobs: self.0.jobs.clone(), game: G::ID.name(), list: self.clone() };
        tap.job(move |feed, game| feed.push_start(game, G::TURNS, start()));
        tap
    }

    /// The games kept: in progress and recently finished, oldest first.
    pub fn games(&self) -> Vec<Arc<Feed>> {
        self.0.feeds.lock().unwrap().list.iter().cloned().collect()
    }

    /// The game `id`, if it is kept.
    pub fn game(&self, id: u64) -> Option<Arc<Feed>> {
        self.0.feeds.lock().unwrap().list.iter().find(|f| f.id == id).cloned()
    }

    /// The newest game in progress, or else the newest kept.
    pub fn newest(&self) -> Option<Arc<Feed>> {
        let feeds = self.0.feeds.lock().unwrap();
        feeds.list.iter().rev().find(|f| !f.ended()).or(feeds.list.back()).cloned()
    }

    /// No more games will start: followers stop waiting once the last
    /// ends. Waits (a second at most) for the feeds' thread to take in what
    /// was handed to it before: the last game's end.
    pub fn close(&self) {
        let (done, closed) = sync_channel::<()>(1);
        let shared = self.0.clone();
        let job: Job = Box::new(move || {
            shared.feeds.lock().unwrap().closed = true;
            shared.wakers.wake();
            let _ = done.send(());
        });
        // A full queue (a stalled machine): closed now, the last turns may come after.
        if let Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) = self.0.jobs.try_send(job) {
            self.0.feeds.lock().unwrap().closed = true;
            self.0.wakers.wake();
            return;
        }
        let _ = closed.recv_timeout(std::time::Duration::from_secs(1));
    }

    /// The run is over: finishes its games' final analyses on the calling
    /// thread, until `until` (`analysing.rs`: the analysing thread, at nice
    /// 19, may be starved by a busy machine while pages wait for them).
    pub fn finish_analyses(&self, until: std::time::Instant) {
        if let Some(analysing) = &self.0.analysing {
            analysing.finish(until);
        }
    }

    /// Whether `close` was called.
    pub fn closed(&self) -> bool {
        self.0.feeds.lock().unwrap().closed
    }

    /// Calls `waker` when a game starts or ends, while the caller keeps it.
    pub fn watch(&self, waker: &Arc<dyn Fn() + Send + Sync>) {
        self.0.wakers.add(waker);
    }
}

/// Wakes the watchers of the run's feeds that grew since the last call.
fn wake_grown(run: &Weak<Shared>) {
    let Some(run) = run.upgrade() else { return };
    let grown: Vec<Arc<Feed>> = {
        let feeds = run.feeds.lock().unwrap();
        feeds.list.iter().filter(|f| f.grown.swap(false, Ordering::SeqCst)).cloned().collect()
    };
    grown.iter().for_each(|feed| feed.wakers.wake());
}

/// The players of a run by index (the order given), and where its games
/// are fed: what a driver needs to feed each game it plays.
#[derive(Clone, Debug)]
pub struct LivePlayers {
    pub live: Live,
    pub players: Vec<ReplayPlayer>,
}

impl LivePlayers {
    /// The players `ids` seated in order, and the title of their game `index`.
    pub fn seated(&self, ids: &[usize], index: u32) -> (Vec<ReplayPlayer>, String) {
        let seated: Vec<ReplayPlayer> = ids.iter().map(|&id| self.players[id].clone()).collect();
        let names: Vec<&str> = seated.iter().map(|p| p.name.as_str()).collect();
        (seated.clone(), format!("game {}: {}", index + 1, names.join(" vs ")))
    }
}

/// The referee's side of a game's feed: each call hands a job to the
/// feeds' thread without waiting.
pub struct GameTap {
    feed: Arc<Feed>,
    jobs: SyncSender<Job>,
    game: &'static str,
    /// The run, woken when the game ends.
    list: Live,
}

impl GameTap {
    /// Hands on a turn: `turn` runs on the feeds' thread.
    pub fn turn(&self, turn: impl FnOnce() -> LiveTurn + Send + 'static) {
        self.job(move |feed, _| feed.push_turn(turn()));
    }

    /// Ends the feed with the game's replay, made by `replay` on the feeds' thread.
    pub fn end<B: Serialize>(self, replay: impl FnOnce() -> Replay<B> + Send + 'static) {
        let list = self.list.clone();
        self.job(move |feed, game| {
            feed.push_end(&file_text(game, &replay()));
            list.0.wakers.wake();
        });
    }

    fn job(&self, job: impl FnOnce(&Feed, &'static str) + Send + 'static) {
        let (feed, game) = (self.feed.clone(), self.game);
        match self.jobs.try_send(Box::new(move || job(&feed, game))) {
            Ok(()) => {}
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => self.feed.lag(),
        }
    }
}

/// A game's feed: its events so far (an append-only log, shared by every
/// watcher), and who to wake when it grows.
pub struct Feed {
    pub id: u64,
    /// The game's name ("trap").
    pub game: &'static str,
    /// "game 3: easy vs hard".
    pub title: String,
    /// Its run's mark (`Live::scoped`).
    pub scope: Arc<str>,
    privacy: Option<Privacy>,
    /// What judges it as it is played (it is told when the feed grows).
    analysing: Option<Weak<Analysing>>,
    log: Mutex<Log>,
    /// Events were appended since its watchers were last woken.
    grown: AtomicBool,
    wakers: Wakers,
}

#[derive(Default)]
struct Log {
    /// Server-sent events, each whole (`event: ...\ndata: ...\n\n`).
    events: Vec<Arc<str>>,
    turns: u32,
    /// The game is over (its `end` is in).
    ended: bool,
    /// No more events: the game is over and, if it is analysed, its final
    /// analysis is in (or was given up).
    done: bool,
    /// The index of the `end` event.
    end_at: Option<usize>,
    /// Turns the newest `analysis` judged (of a snapshot taken then).
    analysed: u32,
    /// The newest analysis of the game in progress (JSON text): the next
    /// one judges only the turns played since.
    analysis: Option<Arc<str>>,
    /// A turn was dropped (a full channel): the `end` event is whole anyway.
    lagged: bool,
    /// With `Privacy`: the start and the end as the public sees them.
    public_start: Option<Arc<str>>,
    public_end: Option<Arc<str>>,
}

/// What a watcher reads of a feed: the events from where it was, and
/// whether the feed has ended (then there are no more: the game is over
/// and its final analysis, if any, is in).
pub struct Read {
    pub events: Vec<Arc<str>>,
    pub ended: bool,
}

impl Feed {
    fn new(
        id: u64,
        game: &'static str,
        title: String,
        scope: Arc<str>,
        privacy: Option<Privacy>,
        analysing: Option<Weak<Analysing>>,
    ) -> Feed {
        let (log, grown, wakers) = (Mutex::default(), AtomicBool::new(false), Wakers::default());
        Feed { id, game, title, scope, privacy, analysing, log, grown, wakers }
    }

    /// The events from the `from`th on; as the public sees them, if `public`.
    /// The log's own events, shared, not copies: whoever reads them.
    pub fn read(&self, from: usize, public: bool) -> Read {
        let log = self.log.lock().unwrap();
        let mut events = log.events.get(from..).unwrap_or_default().to_vec();
        if public {
            if let (0, Some(start), Some(first)) = (from, &log.public_start, events.first_mut()) {
                *first = start.clone();
            }
            let end_event = log.end_at.and_then(|at| at.checked_sub(from)).and_then(|i| events.get_mut(i));
            if let (Some(end), Some(end_event)) = (&log.public_end, end_event) {
                *end_event = end.clone();
            }
        }
        Read { events, ended: log.done }
    }

    /// Turns fed so far.
    pub fn turns(&self) -> u32 {
        self.log.lock().unwrap().turns
    }

    pub fn ended(&self) -> bool {
        self.log.lock().unwrap().ended
    }

    pub fn lagged(&self) -> bool {
        self.log.lock().unwrap().lagged
    }

    /// Calls `waker` when the feed grows, while the caller keeps it.
    pub fn watch(&self, waker: &Arc<dyn Fn() + Send + Sync>) {
        self.wakers.add(waker);
    }

    /// The game listed for people: `{"id", "game", "title", "turns", "ended"}`.
    pub fn summary(&self) -> Value {
        let log = self.log.lock().unwrap();
        json!({"id": self.id, "game": self.game, "title": self.title, "turns": log.turns, "ended": log.ended})
    }

    fn push_start(&self, game: &'static str, list: &'static str, start: Replay<impl Serialize>) {
        let replay = Replay { result: ReplayResult::in_progress(), ..start };
        #[derive(Serialize)]
        struct Start<'a, B: Serialize> {
            id: u64,
            title: &'a str,
            list: &'static str,
            replay: Reordered<'a, B>,
            /// `analysis` events will come, the last after the `end`.
            #[serde(skip_serializing_if = "std::ops::Not::not")]
            analysed: bool,
        }
        let replay = Reordered { game, replay: &replay };
        let analysed = self.analysing.is_some();
        let start = Start { id: self.id, title: &self.title, list, replay, analysed };
        let text = serde_json::to_string(&start).expect("plain data serialises");
        let (text, public) = self.private_and_public("start", text, |start| &mut start["replay"]);
        self.push("start", &text, |log| log.public_start = public);
    }

    fn push_turn(&self, turn: LiveTurn) {
        let data = serde_json::to_string(&turn).expect("plain data serialises");
        self.push("turn", &data, |log| log.turns += 1);
        self.tell_analysing();
    }

    fn push_end(&self, text: &str) {
        let (text, public) = self.private_and_public("end", text.to_string(), |replay| replay);
        let analysed = self.analysing.is_some();
        self.push("end", &text, |log| {
            log.end_at = Some(log.events.len() - 1);
            log.ended = true;
            log.done = !analysed;
            log.public_end = public;
        });
        self.tell_analysing();
        // Now, not after the batch: an ended feed may leave the run's list
        // (`FINISHED_KEPT`) before `wake_grown` looks.
        self.grown.store(false, Ordering::SeqCst);
        self.wakers.wake();
    }

    /// A server's event data (`text`, whose replay `at` finds): its seed
    /// kept back, and the public's event. A local run's: as it is.
    fn private_and_public(
        &self,
        name: &str,
        text: String,
        at: impl Fn(&mut Value) -> &mut Value,
    ) -> (String, Option<Arc<str>>) {
        let Some(privacy) = self.privacy else { return (text, None) };
        let mut value: Value = serde_json::from_str(&text).expect("the feed's own JSON");
        at(&mut value)["seed"] = Value::Null;
        let own = value.to_string();
        (privacy.public)(at(&mut value));
        (own, Some(event(name, &value.to_string())))
    }

    fn lag(&self) {
        self.log.lock().unwrap().lagged = true;
    }

    /// Appends an event; its watchers are woken after the batch (`wake_grown`).
    fn push(&self, name: &str, data: &str, then: impl FnOnce(&mut Log)) {
        let text = event(name, data);
        let mut log = self.log.lock().unwrap();
        log.events.push(text);
        then(&mut log);
        self.grown.store(true, Ordering::SeqCst);
    }
}

/// The text of the replay file of `replay`, a game `game`'s.
pub fn file_text(game: &'static str, replay: &Replay<impl Serialize>) -> String {
    super::json_text(&Reordered { game, replay })
}

/// A server-sent event: its name, and a data line per line of `data` (the
/// watcher's data is the text, its line breaks kept).
fn event(name: &str, data: &str) -> Arc<str> {
    let mut text = format!("event: {name}\n");
    for line in data.strip_suffix('\n').unwrap_or(data).split('\n') {
        text.push_str("data: ");
        text.push_str(line);
        text.push('\n');
    }
    text.push('\n');
    text.into()
}

/// A replay as its file holds it: the envelope, the game's name, its body
/// (the layout of `games::replays::Body`, whose variants tag it so).
struct Reordered<'a, B: Serialize> {
    game: &'static str,
    replay: &'a Replay<B>,
}

impl<B: Serialize> Serialize for Reordered<'_, B> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Body<'a, B> {
            game: &'static str,
            #[serde(flatten)]
            body: &'a B,
        }
        let r = self.replay;
        let file = Replay {
            format: r.format.clone(),
            version: r.version,
            arena: r.arena.clone(),
            seed: r.seed,
            players: r.players.clone(),
            result: r.result.clone(),
            memory: r.memory.clone(),
            body: Body { game: self.game, body: &r.body },
            // A feed is public: a player's notes never go live.
            notes: Vec::new(),
        };
        file.serialize(serializer)
    }
}

/// Lowers the calling thread's CPU priority to the least (nice 19): what
/// feeds and serves live games runs on the time the games leave, never
/// on theirs.
pub fn below_the_games() {
    // SAFETY: plain system calls on the calling thread.
    unsafe {
        let thread = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, thread, 19);
    }
}

/// Callbacks held weakly: a watcher that is gone is forgotten at the next wake.
#[derive(Default)]
struct Wakers(Mutex<Vec<Weak<dyn Fn() + Send + Sync>>>);

impl Wakers {
    fn add(&self, waker: &Arc<dyn Fn() + Send + Sync>) {
        self.0.lock().unwrap().push(Arc::downgrade(waker));
    }

    fn wake(&self) {
        let live: Vec<Arc<dyn Fn() + Send + Sync>> = {
            let mut list = self.0.lock().unwrap();
            list.retain(|w| w.strong_count() > 0);
            list.iter().filter_map(Weak::upgrade).collect()
        };
        live.iter().for_each(|wake| wake());
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::games::hexapawn::Hexapawn;

    fn start() -> Replay<Value> {
        let result = ReplayResult::in_progress();
        Replay::new(1, Vec::new(), result, json!({"plies": []}))
    }

    /// Waits (a minute at most: only for the feeds' thread) until `done`.
    fn until(done: impl Fn() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !done() {
            assert!(Instant::now() < deadline, "the feeds' thread never got to it");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn every_watcher_reads_the_logs_one_copy_of_each_event() {
        let live = Live::new();
        let tap = live.begin::<Hexapawn, _>("game 1".into(), start);
        for ply in 0..10 {
            tap.turn(move || LiveTurn::new(json!({ "ply": ply }), Vec::new()));
        }
        let feed = live.game(0).expect("the game is kept");
        until(|| feed.turns() == 10);
        let watchers: Vec<Read> = (0..100).map(|_| feed.read(0, false)).collect();
        let log = feed.read(0, false);
        assert_eq!(log.events.len(), 11, "start and 10 turns");
        for read in &watchers {
            for (theirs, logs) in read.events.iter().zip(&log.events) {
                assert!(Arc::ptr_eq(theirs, logs), "a watcher's event is the log's, not a copy");
            }
        }
        // Held by the log, the 100 watchers and `log`: one text, counted.
        assert_eq!(Arc::strong_count(&log.events[5]), 102);
        drop(watchers);
        assert_eq!(Arc::strong_count(&log.events[5]), 2);
    }

    #[test]
    fn a_stalled_feeds_thread_never_blocks_the_referee_and_the_end_comes_whole() {
        let live = Live::new();
        let tap = live.begin::<Hexapawn, _>("game 1".into(), start);
        let feed = live.game(0).expect("the game is kept");
        // The feeds' thread held in the first turn (the channel empty) until released.
        let (holding, held) = sync_channel::<()>(1);
        let (release, released) = sync_channel::<()>(0);
        tap.turn(move || {
            holding.send(()).unwrap();
            let _ = released.recv();
            LiveTurn::new(json!({ "ply": 0 }), Vec::new())
        });
        held.recv().unwrap();
        // More turns than the channel holds: every hand-over returns, the
        // ones that found it full are dropped.
        for ply in 1..=(QUEUE as u32 + 100) {
            tap.turn(move || LiveTurn::new(json!({ "ply": ply }), Vec::new()));
        }
        assert!(feed.lagged(), "a full channel drops turns");
        release.send(()).unwrap();
        until(|| feed.turns() as usize == QUEUE + 1);
        tap.end(start);
        until(|| feed.ended());
        let read = feed.read(0, false);
        let end = read.events.last().expect("the end");
        assert!(end.starts_with("event: end\n"), "{end}");
        assert!(end.contains("\"plies\""), "the end is the whole replay: {end}");
    }

    #[test]
    fn watchers_are_woken_once_a_batch_not_once_an_event() {
        let live = Live::new();
        let tap = live.begin::<Hexapawn, _>("game 1".into(), start);
        let feed = live.game(0).expect("the game is kept");
        let woken = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let waker: Arc<dyn Fn() + Send + Sync> = {
            let woken = woken.clone();
            Arc::new(move || {
                woken.fetch_add(1, Ordering::SeqCst);
            })
        };
        feed.watch(&waker);
        // 200 turns handed over at once: taken in by a few batches.
        for ply in 0..200 {
            tap.turn(move || LiveTurn::new(json!({ "ply": ply }), Vec::new()));
        }
        until(|| feed.turns() == 200);
        until(|| woken.load(Ordering::SeqCst) > 0);
        let wakes = woken.load(Ordering::SeqCst);
        assert!(wakes < 20, "{wakes} wakes for 201 events");
    }
}
