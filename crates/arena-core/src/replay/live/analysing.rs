//! Live games judged as they are played (`Live::with_analyst`): one thread
//! per run, at nice 19, analyses the newest replay-so-far of each game whose
//! feed grew, and appends the judgements as an `analysis` event
//! (`{"turns", "final", "analysis"}`: the turns judged, whether it is the
//! game's last, the analysis as `arena analyse --json` gives it).
//!
//! Cost: the feeds' thread only flags the run as grown (a lock, a notify);
//! the referee hands on its turns as before, never waiting for an analysis.
//! Coalescing: a game is analysed at the position it has reached when the
//! thread gets to it, however many turns came meanwhile; nothing queues but
//! the games themselves, and the finished ones waiting for their final
//! analysis are bounded (`ENDS_WAITING`: the oldest is given up).
//!
//! The end of a run (`Live::finish_analyses`): nice 19 keeps the analysis
//! from slowing a game, but on a busy machine it also starves it, and the
//! pages watching would wait for the final analyses past the process's
//! end. With no game left to play, the closing thread finishes them at its
//! own priority; whichever thread gets a game's final in first wins, the
//! other's is dropped.

use std::{
    panic::{catch_unwind, AssertUnwindSafe},
    sync::{Arc, Condvar, Mutex, Weak},
    time::{Duration, Instant},
};

use serde_json::Value;

use super::{below_the_games, Feed};

/// What judges a game in progress: its replay so far (the file's layout, a
/// result in progress) and its previous analysis, if any (as the analyst
/// gave it, of fewer turns: only the new ones need judging), to its
/// analysis as JSON text; None if it cannot. A game's final analysis is
/// given no previous one: it is the file's, judged whole. The caller
/// names the games (the replay layer does not).
pub type Analyst = Arc<dyn Fn(&Value, Option<&Value>) -> Option<String> + Send + Sync>;

/// Finished games waiting for their final analysis before the oldest is
/// given up (its feed then ends without it): a run that ends games faster
/// than they are analysed queues no more than this.
const ENDS_WAITING: usize = 4;

/// A run's analysing thread's side: the games it follows, whether any grew.
pub(crate) struct Analysing {
    analyst: Analyst,
    pending: Mutex<Pending>,
    grown: Condvar,
}

#[derive(Default)]
struct Pending {
    /// Games not done (their final analysis not in), oldest first.
    feeds: Vec<Arc<Feed>>,
    /// A feed grew since the thread last looked.
    grown: bool,
}

impl Analysing {
    /// Starts the thread; it ends once the run is gone.
    pub(crate) fn start(analyst: Analyst) -> Arc<Analysing> {
        let analysing = Arc::new(Analysing { analyst, pending: Mutex::default(), grown: Condvar::new() });
        let run = Arc::downgrade(&analysing);
        std::thread::Builder::new()
            .name("live-analysis".into())
            .spawn(move || {
                below_the_games();
                while let Some(feed) = next(&run) {
                    let Some(analysing) = run.upgrade() else { return };
                    feed.analyse(&analysing.analyst);
                }
            })
            .expect("a thread starts");
        analysing
    }

    /// Follows a new game's feed.
    pub(crate) fn follow(&self, feed: &Arc<Feed>) {
        self.pending.lock().unwrap().feeds.push(feed.clone());
    }

    /// Finishes the final analyses of the games that are over, on the
    /// calling thread, until `until` (checked between games; at most
    /// `ENDS_WAITING` of them, as the analysing thread keeps).
    pub(crate) fn finish(&self, until: Instant) {
        while Instant::now() < until {
            let feed = {
                let mut pending = self.pending.lock().unwrap();
                let feeds = waiting(&mut pending);
                feeds.iter().find(|feed| feed.ended() && feed.changed()).cloned()
            };
            let Some(feed) = feed else { return };
            feed.analyse(&self.analyst);
        }
    }

    fn tell(&self) {
        self.pending.lock().unwrap().grown = true;
        self.grown.notify_one();
    }
}

/// Waits for a game to analyse: the first one, in turn (the one analysed
/// goes last), that changed since its last analysis; the finished ones
/// beyond `ENDS_WAITING` given up. None once the run is gone.
fn next(run: &Weak<Analysing>) -> Option<Arc<Feed>> {
    loop {
        let analysing = run.upgrade()?;
        let mut pending = analysing.pending.lock().unwrap();
        pending.grown = false;
        if let Some(i) = waiting(&mut pending).iter().position(|feed| feed.changed()) {
            let feed = pending.feeds.remove(i);
            pending.feeds.push(feed.clone());
            return Some(feed);
        }
        // Not forever: a run that is gone is noticed within a second.
        drop(analysing.grown.wait_timeout_while(pending, Duration::from_secs(1), |p| !p.grown).unwrap());
    }
}

/// The games still owed an analysis, oldest first: the done ones dropped,
/// the finished ones beyond `ENDS_WAITING` given up.
fn waiting(pending: &mut Pending) -> &[Arc<Feed>] {
    pending.feeds.retain(|feed| !feed.log.lock().unwrap().done);
    let ended: Vec<usize> =
        (pending.feeds.iter().enumerate()).filter(|(_, feed)| feed.ended()).map(|(i, _)| i).collect();
    for &i in ended.iter().take(ended.len().saturating_sub(ENDS_WAITING)).rev() {
        pending.feeds.remove(i).give_up();
    }
    &pending.feeds
}

/// A game as it stands, to be analysed.
struct Snapshot {
    /// Its events so far (the log's own), or its end's.
    events: Vec<Arc<str>>,
    turns: u32,
    last: bool,
    /// Its previous analysis, while it is in progress.
    earlier: Option<Arc<str>>,
}

impl Feed {
    /// Tells the run's analysing thread that the feed grew.
    pub(super) fn tell_analysing(&self) {
        if let Some(analysing) = self.analysing.as_ref().and_then(Weak::upgrade) {
            analysing.tell();
        }
    }

    /// Analyses the game as it stands, if it changed since its last
    /// analysis, and appends the `analysis` event; the final one ends the feed.
    fn analyse(&self, analyst: &Analyst) {
        let Some(snapshot) = self.snapshot() else { return };
        let earlier = snapshot.earlier.and_then(|text| serde_json::from_str::<Value>(&text).ok());
        let analysis = replay_so_far(&snapshot.events).and_then(|replay| {
            catch_unwind(AssertUnwindSafe(|| analyst(&replay, earlier.as_ref()))).ok().flatten()
        });
        let data = analysis.map(|a| {
            let data =
                format!("{{\"turns\":{},\"final\":{},\"analysis\":{a}}}", snapshot.turns, snapshot.last);
            (a, data)
        });
        {
            let mut log = self.log.lock().unwrap();
            // The game ended meanwhile: only the final analysis follows its
            // end; and only once (the closing thread may have put it in).
            if log.done || (!snapshot.last && log.end_at.is_some()) {
                return;
            }
            log.analysed = snapshot.turns;
            log.done |= snapshot.last;
            if let Some((analysis, data)) = data {
                log.analysis = Some(analysis.into());
                log.events.push(super::event("analysis", &data));
            }
        }
        self.wakers.wake();
    }

    /// Whether it has changed since its last analysis (and is not done).
    fn changed(&self) -> bool {
        let log = self.log.lock().unwrap();
        !log.done && (log.end_at.is_some() || log.turns > log.analysed)
    }

    /// The game's events, if it has changed since its last analysis: the
    /// end alone once it is over (the file holds it all).
    fn snapshot(&self) -> Option<Snapshot> {
        let log = self.log.lock().unwrap();
        match (log.done, log.end_at) {
            (true, _) => None,
            (false, Some(end)) => Some(Snapshot {
                events: vec![log.events[end].clone()],
                turns: log.turns,
                last: true,
                earlier: None,
            }),
            (false, None) if log.turns > log.analysed => Some(Snapshot {
                events: log.events.clone(),
                turns: log.turns,
                last: false,
                earlier: log.analysis.clone(),
            }),
            _ => None,
        }
    }

    /// Ends the feed without its final analysis (the thread is behind).
    fn give_up(&self) {
        self.log.lock().unwrap().done = true;
        self.wakers.wake();
    }
}

/// The data of a server-sent event of the log, and its name.
fn data_of(event: &str) -> (&str, String) {
    let mut name = "";
    let mut lines = Vec::new();
    for line in event.lines() {
        if let Some(n) = line.strip_prefix("event: ") {
            name = n;
        } else if let Some(data) = line.strip_prefix("data: ") {
            lines.push(data);
        }
    }
    (name, lines.join("\n"))
}

/// The replay that `events` make, as the viewer makes it: the start's,
/// each turn's record appended to its list and its fields set; or the end's
/// (the file). None if they make none (a feed that lagged may still).
fn replay_so_far(events: &[Arc<str>]) -> Option<Value> {
    let (mut replay, mut list) = (None::<Value>, String::new());
    for event in events {
        let (name, data) = data_of(event);
        let mut data: Value = serde_json::from_str(&data).ok()?;
        match name {
            "start" => {
                list = data["list"].as_str()?.to_string();
                replay = Some(data["replay"].take());
            }
            "turn" => {
                let replay = replay.as_mut()?;
                replay[&list].as_array_mut()?.push(data["record"].take());
                for (key, value) in data["set"].as_object_mut()?.iter_mut() {
                    replay[key] = value.take();
                }
                replay["result"]["turns"] = replay[&list].as_array()?.len().into();
            }
            "end" => replay = Some(data),
            _ => {}
        }
    }
    replay
}

#[cfg(test)]
mod tests {
    use std::{
        sync::mpsc::{sync_channel, Receiver},
        time::Instant,
    };

    use serde_json::json;

    use super::*;
    use crate::{
        games::hexapawn::Hexapawn,
        replay::{
            live::{Live, LiveTurn},
            Replay, ReplayResult,
        },
    };

    fn start() -> Replay<Value> {
        Replay::new(1, Vec::new(), ReplayResult::in_progress(), json!({"plies": []}))
    }

    /// An analyst that says how many plies it saw, and is held in each call
    /// until `release` sends; `calls` gets what it saw when called.
    fn held() -> (Analyst, std::sync::mpsc::SyncSender<()>, Receiver<usize>) {
        let (release, released) = sync_channel::<()>(0);
        let (seen, calls) = sync_channel::<usize>(100);
        let released = Mutex::new(released);
        let analyst: Analyst = Arc::new(move |replay: &Value, earlier: Option<&Value>| {
            let plies = replay["plies"].as_array().map_or(0, Vec::len);
            seen.send(plies).unwrap();
            released.lock().unwrap().recv().ok()?;
            Some(json!({ "plies": plies, "earlier": earlier.map(|e| e["plies"].clone()) }).to_string())
        });
        (analyst, release, calls)
    }

    fn analyses(live: &Live) -> Vec<Value> {
        let events = live.game(0).unwrap().read(0, false).events;
        let data = events.iter().map(|e| data_of(e)).filter(|(name, _)| *name == "analysis");
        data.map(|(_, d)| serde_json::from_str(&d).unwrap()).collect()
    }

    fn recv(calls: &Receiver<usize>) -> usize {
        calls.recv_timeout(Duration::from_secs(60)).expect("the analyst is called")
    }

    #[test]
    fn only_the_newest_position_is_analysed_and_the_final_one_ends_the_feed() {
        let (analyst, release, calls) = held();
        let live = Live::with_analyst(analyst);
        let tap = live.begin::<Hexapawn, _>("game 1".into(), start);
        tap.turn(|| LiveTurn::new(json!({ "ply": 0 }), Vec::new()));
        // The analyst is held on the first ply while 20 more are played.
        assert_eq!(recv(&calls), 1);
        let feed = live.game(0).unwrap();
        for ply in 1..=20 {
            tap.turn(move || LiveTurn::new(json!({ "ply": ply }), Vec::new()));
        }
        let until = Instant::now() + Duration::from_secs(60);
        while feed.turns() < 21 {
            assert!(Instant::now() < until, "the turns are fed while the analyst is busy");
            std::thread::sleep(Duration::from_millis(5));
        }
        release.send(()).unwrap();
        // The next analysis is of the newest position, not of each turn in between.
        assert_eq!(recv(&calls), 21);
        release.send(()).unwrap();
        assert!(!feed.read(0, false).ended, "the feed waits for the final analysis");
        tap.end(|| Replay { result: ReplayResult { turns: 21, ..ReplayResult::in_progress() }, ..start() });
        // The end's replay (the file) is analysed, then the feed ends.
        assert_eq!(recv(&calls), 0, "the end's replay is the one analysed");
        release.send(()).unwrap();
        while !feed.read(0, false).ended {
            assert!(Instant::now() < until, "the final analysis ends the feed");
            std::thread::sleep(Duration::from_millis(5));
        }
        let turns: Vec<(u64, bool)> =
            analyses(&live).iter().map(|a| (a["turns"].as_u64().unwrap(), a["final"] == true)).collect();
        assert_eq!(turns, [(1, false), (21, false), (21, true)], "two analyses while played, one at the end");
        // The second is given the first (it judges the 20 new plies only);
        // the final one is judged whole.
        let earlier: Vec<Value> = analyses(&live).iter().map(|a| a["analysis"]["earlier"].clone()).collect();
        assert_eq!(earlier, [Value::Null, json!(1), Value::Null], "each analysis is given the one before");
        let start: Value = serde_json::from_str(&data_of(&feed.read(0, false).events[0]).1).unwrap();
        assert_eq!(start["analysed"], true, "the start says analyses will come");
        assert!(calls.try_recv().is_err(), "nothing analysed twice");
    }

    /// A run that is over on a busy machine: the analysing thread is held
    /// (starved) in a game's final analysis; the closing thread puts the
    /// final in, and the held thread's own, when it comes, is dropped.
    #[test]
    fn the_closing_thread_finishes_a_final_analysis_the_analysing_thread_is_starved_in() {
        let (release, released) = sync_channel::<()>(0);
        let (seen, calls) = sync_channel::<(bool, usize)>(100);
        let released = Mutex::new(released);
        let analyst: Analyst = Arc::new(move |replay: &Value, _: Option<&Value>| {
            let plies = replay["plies"].as_array().map_or(0, Vec::len);
            let held = std::thread::current().name() == Some("live-analysis");
            seen.send((held, plies)).unwrap();
            if held {
                released.lock().unwrap().recv().ok()?;
            }
            Some(json!({ "plies": plies, "held": held }).to_string())
        });
        let live = Live::with_analyst(analyst);
        let tap = live.begin::<Hexapawn, _>("game 1".into(), start);
        tap.end(|| Replay { result: ReplayResult { turns: 0, ..ReplayResult::in_progress() }, ..start() });
        let got = calls.recv_timeout(Duration::from_secs(60)).expect("the analyst is called");
        assert_eq!(got, (true, 0), "the analysing thread is held in the final analysis");
        let feed = live.game(0).unwrap();
        assert!(!feed.read(0, false).ended, "the feed waits for the final analysis");
        live.finish_analyses(Instant::now() + Duration::from_secs(60));
        assert_eq!(calls.try_recv().ok(), Some((false, 0)), "the closing thread analyses the end");
        assert!(feed.read(0, false).ended, "its final analysis ends the feed");
        // The held thread's final comes later and is dropped: once it is
        // analysing a second game, it is done with the first.
        release.send(()).unwrap();
        let second = live.begin::<Hexapawn, _>("game 2".into(), start);
        second.turn(|| LiveTurn::new(json!({ "ply": 0 }), Vec::new()));
        assert_eq!(calls.recv_timeout(Duration::from_secs(60)).ok(), Some((true, 1)), "on to game 2");
        let finals: Vec<Value> = analyses(&live).into_iter().filter(|a| a["final"] == true).collect();
        assert_eq!(finals.len(), 1, "one final analysis: {finals:?}");
        assert_eq!(finals[0]["analysis"]["held"], false, "the closing thread's");
        drop(release);
    }

    #[test]
    fn finished_games_waiting_for_an_analysis_are_bounded() {
        let (analyst, release, calls) = held();
        let live = Live::with_analyst(analyst);
        let taps: Vec<_> = (0..8).map(|i| live.begin::<Hexapawn, _>(format!("game {i}"), start)).collect();
        taps[0].turn(|| LiveTurn::new(json!({ "ply": 0 }), Vec::new()));
        assert_eq!(recv(&calls), 1, "held in game 0's first analysis");
        for tap in taps {
            tap.end(start);
        }
        let until = Instant::now() + Duration::from_secs(60);
        while live.games().iter().any(|f| !f.ended()) {
            assert!(Instant::now() < until);
            std::thread::sleep(Duration::from_millis(5));
        }
        drop(release);
        // The analyst is let go: of the 8 ended games, the oldest beyond
        // ENDS_WAITING end without an analysis; every feed ends.
        while live.games().iter().any(|f| !f.read(0, false).ended) {
            assert!(Instant::now() < until, "every feed ends");
            std::thread::sleep(Duration::from_millis(5));
        }
        let finals = calls.try_iter().count();
        assert!(finals <= ENDS_WAITING, "{finals} final analyses attempted of 8 ended games");
    }
}
