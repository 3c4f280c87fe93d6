//! Live feeds (docs/replays.md, "Watching live"): for every game, the feed
//! of a game, its turns applied in order to its start, is the game's
//! replay, and its end is the replay file's text; over HTTP (`arena play
//! --live`), a watcher from the first turn and one that joined mid-game
//! both get every turn in order and the file; a watcher that goes away
//! changes nothing in the game.

use std::{
    io::{BufRead, BufReader},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use arena_core::{
    games::{
        hexapawn::{referee::HexapawnSettings, Hexapawn},
        intuitive::{record::IntuitiveSettings, IntuitiveAi},
        magic_forest::{record::ForestSettings, MagicForest},
        replays::TableGame,
        trap::{referee::TrapSettings, Trap},
        wumpus::{record::WumpusSettings, Wumpus},
    },
    play::solo::{self, SoloReferee, SoloSettings},
    play::two_player::{self, MatchConfig, TwoPlayerGame},
    players::{Hosting, Level, Player},
    replay::{
        live::{Live, LivePlayers},
        ReplayPlayer,
    },
};
use serde_json::Value;

use crate::support::{library, pass_env};

/// One server-sent event: its name and its data (lines joined).
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub name: String,
    pub data: String,
}

/// The events in `text` (the stream's bytes), comments left out.
pub fn parse_events(text: &str) -> Vec<Event> {
    let mut events = Vec::new();
    let (mut name, mut data): (String, Vec<&str>) = (String::new(), Vec::new());
    for line in text.split('\n') {
        if line.is_empty() {
            if !data.is_empty() {
                events.push(Event { name: std::mem::take(&mut name), data: data.join("\n") });
                data.clear();
            }
        } else if let Some(n) = line.strip_prefix("event: ") {
            name = n.to_string();
        } else if let Some(d) = line.strip_prefix("data: ") {
            data.push(d);
        }
    }
    events
}

/// What a viewer makes of one game's events: the replay as the turns
/// built it (before the end), the turns in order, the end's text, and the
/// analyses (a local run's: `{"turns", "final", "analysis"}`).
pub struct Watched {
    pub built: Value,
    pub turns: Vec<Value>,
    pub end: String,
    pub analyses: Vec<Value>,
}

/// Applies one game's events (`start`, `turn`s, `end`, `analysis`es) as the
/// viewer does.
pub fn watch(events: &[Event]) -> Watched {
    assert_eq!(events.first().map(|e| e.name.as_str()), Some("start"), "a feed begins with its start");
    let start: Value = serde_json::from_str(&events[0].data).unwrap();
    let list = start["list"].as_str().unwrap().to_string();
    let mut built = start["replay"].clone();
    assert_eq!(built[&list], Value::Array(vec![]), "the start lists no turn");
    let mut turns = Vec::new();
    let mut end = None;
    let mut analyses: Vec<Value> = Vec::new();
    for event in &events[1..] {
        assert!(analyses.last().is_none_or(|a| a["final"] == false), "nothing follows the final analysis");
        if event.name == "analysis" {
            let analysis: Value = serde_json::from_str(&event.data).unwrap();
            assert_eq!(analysis["final"], end.is_some(), "the final analysis, and only it, follows the end");
            analyses.push(analysis);
            continue;
        }
        assert!(end.is_none(), "only the final analysis follows a game's end: {event:?}");
        match event.name.as_str() {
            "turn" => {
                let turn: Value = serde_json::from_str(&event.data).unwrap();
                built[&list].as_array_mut().unwrap().push(turn["record"].clone());
                for (key, value) in turn["set"].as_object().unwrap() {
                    built[key] = value.clone();
                }
                turns.push(turn["record"].clone());
            }
            "end" => end = Some(format!("{}\n", event.data)),
            other => panic!("unexpected event {other}"),
        }
    }
    Watched { built, turns, end: end.expect("the feed ends"), analyses }
}

/// The checks every watched game must pass: its turns, in order, are the
/// file's; the replay they built is the file's but for what only the end
/// says (the result, a failed request); the end is the file, byte for byte.
pub fn assert_watched_is_file(watched: &Watched, file: &str) {
    assert_eq!(watched.end, file, "the feed's end is the replay file's text");
    let file: Value = serde_json::from_str(file).unwrap();
    let list = ["turns", "plies", "reveals", "steps"].into_iter().find(|k| file[k].is_array()).unwrap();
    assert_eq!(&watched.turns, file[list].as_array().unwrap(), "every turn, in order");
    for (key, value) in file.as_object().unwrap() {
        let built = &watched.built[key];
        match key.as_str() {
            "result" | "failed_turn" | "failed" => {}
            _ => assert_eq!(built, value, "the live replay's {key} is the file's"),
        }
    }
}

fn seated(names: &[&str]) -> Vec<ReplayPlayer> {
    names.iter().map(|n| ReplayPlayer { name: n.to_string(), source: n.to_string() }).collect()
}

/// A match of two built-in levels fed live; each game's feed against its file.
fn two_player_feeds<G: TwoPlayerGame + TableGame>(settings: G::Settings, games: u32) {
    let levels = [Level::Easy, Level::Medium];
    let list = levels.map(Player::Builtin);
    let live = Live::new();
    let config = MatchConfig::<G> {
        settings,
        games,
        seed: 11,
        hosting: Hosting::in_process(),
        first_game: 0,
        concurrency: 2,
        controls: [None; 2],
        live: Some(LivePlayers { live: live.clone(), players: seated(&["easy", "medium"]) }),
    };
    let result = two_player::play([&list[0], &list[1]], &config, &mut |_| {}, None);
    live.close();
    assert_eq!(live.games().len(), games as usize, "a feed per game");
    for game in &result.games {
        let players = game.seats.map(|p| seated(&[levels[p].name()]).remove(0));
        let file = G::any(G::replay(&game.record, players)).to_json();
        let feed =
            live.games().into_iter().find(|f| f.title.starts_with(&format!("game {}:", game.index + 1)));
        let events = parse_events(&feed.expect("the game's feed").read(0, false).events.concat());
        assert_watched_is_file(&watch(&events), &file);
    }
}

/// A series of a built-in level fed live; each game's feed against its file.
fn solo_feeds<G: SoloReferee + TableGame>(settings: SoloSettings<G>, games: u32) {
    let player = Player::Builtin(Level::Medium);
    let live = Live::new();
    let fed = LivePlayers { live: live.clone(), players: seated(&["medium"]) };
    let hosting = Hosting::in_process();
    let series =
        solo::play_series::<G>(&player, &settings, (0, games), 5, (&hosting, 2), Some(&fed), &mut |_| {});
    live.close();
    for game in &series.games {
        let file = G::any(G::replay(&game.record, &settings, seated(&["medium"]).remove(0))).to_json();
        let feed =
            live.games().into_iter().find(|f| f.title.starts_with(&format!("game {}:", game.index + 1)));
        let events = parse_events(&feed.expect("the game's feed").read(0, false).events.concat());
        assert_watched_is_file(&watch(&events), &file);
    }
}

#[test]
fn every_games_feed_builds_its_replay_turn_by_turn_and_ends_as_its_file() {
    two_player_feeds::<Trap>(TrapSettings::default(), 4);
    two_player_feeds::<Hexapawn>(HexapawnSettings::default(), 4);
    solo_feeds::<IntuitiveAi>(IntuitiveSettings::default(), 4);
    solo_feeds::<Wumpus>(WumpusSettings::default(), 4);
    solo_feeds::<MagicForest>(ForestSettings::default(), 2);
}

/// `arena play --live` of bad-player (sleeping `sleep_ms` a turn) against
/// easy on seed `seed`, its replay to `replay`; its address once printed.
pub fn live_play(sleep_ms: &str, seed: &str, replay: &std::path::Path) -> (Child, String) {
    let bad = library("bad-player");
    let args = [
        "play",
        bad.to_str().unwrap(),
        "easy",
        "--live",
        "--seed",
        seed,
        "--replay",
        replay.to_str().unwrap(),
    ];
    live_arena(&args, sleep_ms)
}

/// The arena run with `args` and `--pass-env` of bad-player's orders (it
/// sleeps `sleep_ms` a turn); its address once printed.
pub fn live_arena(args: &[&str], sleep_ms: &str) -> (Child, String) {
    let mut args = args.to_vec();
    args.extend(pass_env(&["BAD_PLAYER_MODE", "BAD_PLAYER_SLEEP_MS"]));
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(&args)
        .env("BAD_PLAYER_MODE", "sleep")
        .env("BAD_PLAYER_SLEEP_MS", sleep_ms)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read to its end: the arena writes more there, and a closed pipe would fail it.
    let (lines, first) = std::sync::mpsc::channel();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    std::thread::spawn(move || {
        let mut line = String::new();
        while stderr.read_line(&mut line).unwrap_or(0) > 0 {
            let _ = lines.send(std::mem::take(&mut line));
        }
    });
    let first = first.recv_timeout(Duration::from_secs(30)).expect("the arena prints its address");
    let address = first.split_whitespace().find(|w| w.starts_with("http://")).expect(&first);
    (child, address.trim_end_matches("/follow").trim_end_matches('/').to_string())
}

/// Reads `url`'s events until the stream ends (or `stop` says so of what came so far).
pub fn read_events(url: &str, stop: impl Fn(&[Event]) -> bool) -> Vec<Event> {
    let response = ureq::get(url).call().unwrap();
    let mut reader = BufReader::new(response.into_body().into_reader());
    let mut text = String::new();
    let mut line = String::new();
    while reader.read_line(&mut line).unwrap_or(0) > 0 {
        text.push_str(&line);
        line.clear();
        if text.ends_with("\n\n") && stop(&parse_events(&text)) {
            break;
        }
    }
    parse_events(&text)
}

/// The game list's entry for game 0, once it exists.
fn game_zero(base: &str) -> Value {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(game) = games(base).iter().find(|g| g["id"] == 0) {
            return game.clone();
        }
        assert!(Instant::now() < until, "no game started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The games listed at `base`.
fn games(base: &str) -> Vec<Value> {
    let text = ureq::get(&format!("{base}/games.json")).call().unwrap().body_mut().read_to_string().unwrap();
    serde_json::from_str::<Value>(&text).unwrap().as_array().unwrap().clone()
}

#[test]
fn watchers_from_the_first_turn_and_from_mid_game_get_every_turn_and_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let (mut child, base) = live_play("300", "3", &file);
    // The follower connects before the first turn is played (the slow player's takes 300 ms).
    let first = std::thread::spawn({
        let base = base.clone();
        move || read_events(&format!("{base}/follow/feed"), |_| false)
    });
    let until = Instant::now() + Duration::from_secs(30);
    while game_zero(&base)["turns"].as_u64().unwrap() < 4 {
        assert!(Instant::now() < until, "the game does not advance");
        std::thread::sleep(Duration::from_millis(20));
    }
    let joined = game_zero(&base);
    assert_eq!(joined["ended"], false, "joined while the game is played: {joined}");
    let late = read_events(&format!("{base}/game/0/feed"), |_| false);
    let first = first.join().unwrap();
    assert!(child.wait().unwrap().success());
    let file = std::fs::read_to_string(&file).unwrap();
    assert_eq!(first.last().map(|e| e.name.as_str()), Some("over"), "the follower is told the run is over");
    assert_watched_is_file(&watch(&first[..first.len() - 1]), &file);
    let late = watch(&late);
    assert_watched_is_file(&late, &file);
    // Analysed as played: the last analysis is the file's, whole.
    let replay: Value = serde_json::from_str(&file).unwrap();
    let last = late.analyses.last().expect("analysed");
    assert_eq!(last["final"], true, "the feed ends with the final analysis");
    let final_analysis = &last["analysis"];
    let turns = replay["turns"].as_array().unwrap().len();
    assert_eq!(final_analysis["turns"].as_array().unwrap().len(), turns, "every turn judged");
}

/// The replay's text without the times, which vary from run to run.
fn untimed(text: &str) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.retain(|k, _| !k.ends_with("_us") && k != "arena");
                map.values_mut().for_each(strip);
            }
            Value::Array(list) => list.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut value: Value = serde_json::from_str(text).unwrap();
    strip(&mut value);
    value
}

#[test]
fn a_watcher_that_goes_away_mid_game_changes_nothing_in_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let (watched, alone) = (dir.path().join("watched.json"), dir.path().join("alone.json"));
    let (mut child, base) = live_play("300", "8", &watched);
    // Reads three turns, then hangs up.
    let cut = read_events(&format!("{base}/follow/feed"), |events| {
        events.iter().filter(|e| e.name == "turn").count() >= 3
    });
    assert!(cut.iter().all(|e| e.name != "end"), "went away before the end");
    assert!(child.wait().unwrap().success());
    let (mut child, _) = live_play("300", "8", &alone);
    assert!(child.wait().unwrap().success());
    let [watched, alone] = [watched, alone].map(|f| std::fs::read_to_string(f).unwrap());
    assert_eq!(untimed(&watched), untimed(&alone), "the same game, watched or not");
}

/// In a real browser: the live page draws each turn as the slow player
/// plays it (the turn count grows while the game is live), the frames it
/// drew live are the file's, and at the end it shows the file's replay.
#[test]
fn the_live_page_shows_turns_appearing_while_a_slow_player_plays() {
    let Some(chromium) = crate::support::browser::chromium() else { return };
    let mut browser = crate::support::devtools::Browser::start(&chromium);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let (mut child, base) = live_play("350", "3", &file);
    browser.open(&format!("{base}/follow"));
    // Frames without `last` (the newest frame is the last only while live).
    let strip = "(fs) => fs.map((f) => { const c = Object.assign({}, f); delete c.last; return c; })";
    let mut seen = Vec::new();
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let now = browser.eval(&format!(
            "(() => {{ const b = document.body.dataset; if (b.state === 'live') window.snap = {{ k: Number(b.turns), \
             frames: JSON.stringify(({strip})(ArenaLive.frames())) }}; return [b.state || '', Number(b.turns || 0), \
             document.getElementById('result').textContent]; }})()"
        ));
        if seen.last() != Some(&now) {
            seen.push(now.clone());
        }
        if now[0] == "over" {
            break;
        }
        assert!(Instant::now() < until, "the game did not end on the page: {seen:?}");
        std::thread::sleep(Duration::from_millis(40));
    }
    assert!(child.wait().unwrap().success());
    let live: Vec<u64> = seen.iter().filter(|s| s[0] == "live").map(|s| s[1].as_u64().unwrap()).collect();
    assert!(live.len() >= 3, "turns appear one by one while the game is played: {seen:?}");
    assert!(live.windows(2).all(|w| w[0] < w[1]), "in order: {seen:?}");
    let text = std::fs::read_to_string(&file).unwrap();
    let replay: Value = serde_json::from_str(&text).unwrap();
    let turns = replay["turns"].as_array().unwrap().len() as u64;
    assert_eq!(seen.last().unwrap()[1], turns, "the page ends on the game's last turn");
    let result = seen.last().unwrap()[2].as_str().unwrap().to_string();
    assert!(result.contains(replay["result"]["reason"].as_str().unwrap()), "the result shown: {result}");
    let same = browser.eval(&format!(
        "(() => {{ const file = {text}; const all = ({strip})(ArenaGames.trap.frames(file)).slice(0, snap.k + 1); \
         return JSON.stringify(all) === snap.frames; }})()"
    ));
    assert_eq!(same, Value::Bool(true), "the frames drawn live are the file's");
}

/// `bench`, `sprt` and `tournament run` with `--live`: the page lists the
/// games in progress, and one picked from the list is fed whole (its
/// turns build the replay its end carries).
#[test]
fn bench_sprt_and_tournaments_list_their_games_live() {
    let bad = library("bad-player");
    let bad = bad.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    let toml = format!(
        "name = \"live\"\ngame = \"trap\"\nformat = \"round-robin\"\ngames_per_pairing = 2\nseed = 4\n\
         players = [\"easy\", \"{bad}\"]\noutput = \"{}\"\n[settings]\npass_env = [\"BAD_PLAYER_MODE\", \"BAD_PLAYER_SLEEP_MS\"]\n",
        dir.path().join("out").display()
    );
    std::fs::write(&file, toml).unwrap();
    let runs: [&[&str]; 3] = [
        &["bench", bad, "--games", "2", "--seed", "1", "--live"],
        &["sprt", bad, "easy", "--max-games", "2", "--seed", "1", "--live"],
        &["tournament", "run", file.to_str().unwrap(), "--live"],
    ];
    for args in runs {
        let (mut child, base) = live_arena(args, "300");
        let until = Instant::now() + Duration::from_secs(30);
        let picked = loop {
            if let Some(game) = games(&base).into_iter().find(|g| g["ended"] == false) {
                break game;
            }
            assert!(Instant::now() < until, "{args:?}: no game in progress listed");
            std::thread::sleep(Duration::from_millis(20));
        };
        let page = ureq::get(&base).call().unwrap().body_mut().read_to_string().unwrap();
        assert!(page.contains("Live games"), "{args:?}: the list page");
        let events = read_events(&format!("{base}/game/{}/feed", picked["id"]), |_| false);
        let watched = watch(&events);
        assert_watched_is_file(&watched, &watched.end.clone());
        assert!(child.wait().unwrap().success(), "{args:?}");
    }
}

/// In a real browser, `arena play --live` of a Trap game: the advantage
/// chart grows as the game is played (the analysis follows it, a point per
/// turn judged), and at the end it is the whole game's, as `arena analyse`
/// judges the file (the same turns, the same marks).
#[test]
fn the_live_pages_advantage_chart_grows_with_the_game_and_is_whole_at_the_end() {
    let Some(chromium) = crate::support::browser::chromium() else { return };
    let mut browser = crate::support::devtools::Browser::start(&chromium);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    // The analysis runs at nice 19: beside busy loops a turn's judgement
    // may wait most of a second for the CPU, so the game's turns are long
    // enough (1.2 s each of the slow player's) for it to keep growing.
    let (mut child, base) = live_play("1200", "5", &file);
    browser.open(&format!("{base}/follow"));
    // [state, turns shown, the chart's points (none while hidden), analysed].
    let read = "(() => { const b = document.body.dataset, box = document.getElementById('advantage'); \
                const line = box.querySelector('polyline'); \
                return [b.state || '', Number(b.turns || 0), box.hidden || !line ? 0 : \
                line.getAttribute('points').trim().split(' ').length, b.analysed || '']; })()";
    let mut seen: Vec<Value> = Vec::new();
    let until = Instant::now() + Duration::from_secs(90);
    loop {
        let now = browser.eval(read);
        if seen.last() != Some(&now) {
            seen.push(now.clone());
        }
        if now[3] == "final" {
            break;
        }
        assert!(Instant::now() < until, "no final analysis on the page: {seen:?}");
        std::thread::sleep(Duration::from_millis(40));
    }
    assert!(child.wait().unwrap().success());
    let live: Vec<(u64, u64)> = (seen.iter().filter(|s| s[0] == "live"))
        .map(|s| (s[1].as_u64().unwrap(), s[2].as_u64().unwrap()))
        .collect();
    let points: Vec<u64> = live.iter().map(|&(_, p)| p).filter(|&p| p > 0).collect();
    assert!(points.windows(2).all(|w| w[0] <= w[1]), "the chart only grows: {seen:?}");
    let mut distinct = points.clone();
    distinct.dedup();
    assert!(distinct.len() >= 3, "the chart grows while the game is played: {seen:?}");
    assert!(live.iter().all(|&(turns, p)| p <= turns + 1), "never ahead of the game: {seen:?}");
    // The whole game's analysis, as `arena analyse` gives it for the file.
    let output = crate::support::arena(&["analyse", "--json", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", crate::support::stderr(&output));
    let expected: Value = serde_json::from_slice(&output.stdout).unwrap();
    let judged = |turns: &Value| -> Vec<(Value, Value)> {
        turns.as_array().unwrap().iter().map(|t| (t["turn"].clone(), t["mark"].clone())).collect()
    };
    let shown = browser.eval("ArenaLive.replay().analysis.turns");
    assert_eq!(judged(&shown), judged(&expected["turns"]), "the final analysis is the file's");
    let last = seen.last().unwrap();
    assert_eq!(last[0], "over");
    assert_eq!(
        last[2].as_u64().unwrap(),
        expected["turns"].as_array().unwrap().len() as u64 + 1,
        "a point a turn"
    );
}
