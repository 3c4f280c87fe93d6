//! Replays: play -> replay file -> verify for every game on many seeds;
//! failures replayed and re-judged; tampered files caught at the first
//! difference; files of other versions and damaged files refused in one
//! line; the CLI (`play --replay`, `replay`, `--verify`, `--html`); a
//! tournament's replays and index, resumed without losing or doubling any;
//! a hand-made file's words shown plain (escapes.rs).

mod browser;
mod charts;
mod escapes;
mod games;
pub mod live;
mod notes;

use arena_core::play::time_control::TimeControl;
use std::{path::Path, time::Duration};

use crate::support::{arena, stderr, stdout};
use arena_core::{
    game::Agent,
    games::replays::GameReplay,
    games::trap::referee::TurnActions,
    games::trap::referee::{self as trap, TrapRecord, TrapSettings},
    games::trap::Trap,
    play::fault::Fault,
    play::two_player::{self, MatchConfig, TwoPlayerGame},
    players::agent::AbiPlayer,
    players::{Hosting, Level, Player},
    replay::{self, ReplayPlayer},
};
use player_api::{
    trap::{TrapGameInfo, TrapRequest, TrapState},
    GameOver, Seat,
};
use serde_json::Value;

fn players(names: [&str; 2]) -> [ReplayPlayer; 2] {
    names.map(|n| ReplayPlayer { name: n.to_string(), source: n.to_string() })
}

/// Plays a match of built-in levels in process; every game with its players.
fn trap_games(levels: [Level; 2], games: u32, seed: u64, size: u8) -> Vec<(TrapRecord, [ReplayPlayer; 2])> {
    let list = levels.map(Player::Builtin);
    let config = MatchConfig::<Trap> {
        settings: TrapSettings { size, ..TrapSettings::default() },
        games,
        seed,
        hosting: Hosting::in_process(),
        first_game: 0,
        concurrency: 1,
        controls: [None; 2],
        live: None,
    };
    let result = two_player::play([&list[0], &list[1]], &config, &mut |_| {}, None);
    result
        .games
        .into_iter()
        .map(|g| {
            let names = g.seats.map(|p| levels[p].name());
            (g.record, players(names))
        })
        .collect()
}

/// Writes, reads back and verifies one replay; returns the text.
fn round_trip(replay: &GameReplay) -> String {
    let json = replay.to_json();
    let back = GameReplay::parse(json.as_bytes()).unwrap_or_else(|e| panic!("{e:#}\n{json}"));
    assert_eq!(&back, replay, "a replay reads back as written");
    let packed = GameReplay::parse(&replay::gzip(json.as_bytes())).unwrap();
    assert_eq!(&packed, replay, "gzip replays read the same");
    back.verify().unwrap_or_else(|e| panic!("does not verify: {e}\n{json}"))
}

#[test]
fn every_game_round_trips_and_verifies_on_many_seeds() {
    for game in arena_core::game::GameId::ALL.map(|g| g.name()) {
        match game {
            "trap" => {
                let mut verified = 0;
                for (i, size) in [7u8, 7, 5, 3, 8, 6].into_iter().enumerate() {
                    let levels = [Level::ALL[i % 3], Level::ALL[(i + 1) % 3]];
                    for (record, seated) in trap_games(levels, 8, 1000 + i as u64, size) {
                        let line = round_trip(
                            &Trap::replay(&record, seated).with_body(arena_core::games::replays::Body::Trap),
                        );
                        assert!(line.starts_with("verified: "), "{line}");
                        verified += 1;
                    }
                }
                assert_eq!(verified, 48);
            }
            "intuitive-ai" => {
                let reasons = games::round_trip_all(&games::intuitive_replays(0..60));
                assert!(
                    reasons.contains("found the monster") && reasons.contains("fell into a pit"),
                    "{reasons:?}"
                );
            }
            "hexapawn" => {
                let reasons = games::round_trip_all(&games::hexapawn_replays(0..18));
                assert!(reasons.len() >= 2, "more than one way to win: {reasons:?}");
            }
            "wumpus" => {
                let reasons = games::round_trip_all(&games::wumpus_replays(0..40));
                assert!(reasons.contains("out with the gold"), "{reasons:?}");
                assert!(
                    reasons.iter().any(|r| r.starts_with("fell into a pit") || r.starts_with("eaten")),
                    "{reasons:?}"
                );
            }
            "magic-forest" => {
                let reasons = games::round_trip_all(&games::forest_replays(0..24));
                assert!(reasons.contains("every forest cleared"), "{reasons:?}");
            }
            other => panic!("no round-trip test for the game \"{other}\": add one here"),
        }
    }
}

#[test]
fn a_replay_records_every_request_target_and_landing() {
    let (record, seated) = trap_games([Level::Easy, Level::Hard], 1, 42, 7).remove(0);
    let doc: Value = serde_json::from_str(
        &Trap::replay(&record, seated).with_body(arena_core::games::replays::Body::Trap).to_json(),
    )
    .unwrap();
    assert_eq!(doc["format"], "arena-replay");
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["game"], "trap");
    assert_eq!(doc["seed"], record.seed);
    assert_eq!(doc["settings"]["board_size"], 7);
    assert_eq!(doc["players"][0]["name"], "easy");
    let turns = doc["turns"].as_array().unwrap();
    assert_eq!(turns.len(), record.turns.len());
    assert_eq!(doc["result"]["turns"], record.turns.len());
    assert_eq!(doc["start"]["players"], serde_json::json!([[0, 3], [6, 3]]));
    for (turn, json) in record.turns.iter().zip(turns) {
        assert_eq!(json["seat"], turn.seat.number());
        let shown = &json["state"];
        assert_eq!(
            shown["players"][0],
            serde_json::json!([turn.shown.position(Seat::One).row, turn.shown.position(Seat::One).col])
        );
        assert_eq!(shown["traps"].as_array().unwrap().len() as u32, turn.shown.traps().len());
        if let Some(throw) = turn.throw {
            assert_eq!(json["throw"]["target"], serde_json::json!([throw.target.row, throw.target.col]));
            assert_eq!(json["throw"]["landed"], serde_json::json!([throw.landed.row, throw.landed.col]));
            assert_eq!(json["throw"]["hit_chance"], throw.hit_chance);
        }
        assert!(json["time_us"].is_u64());
    }
}

#[test]
fn the_same_seed_and_actions_give_the_same_replay() {
    let strip = |games: Vec<(TrapRecord, [ReplayPlayer; 2])>| -> Vec<Value> {
        games
            .into_iter()
            .map(|(record, seated)| {
                let mut doc: Value = serde_json::from_str(
                    &Trap::replay(&record, seated)
                        .with_body(arena_core::games::replays::Body::Trap)
                        .to_json(),
                )
                .unwrap();
                for turn in doc["turns"].as_array_mut().unwrap() {
                    turn["time_us"] = Value::Null;
                    turn["cpu_us"] = Value::Null;
                }
                doc
            })
            .collect()
    };
    let a = strip(trap_games([Level::Medium, Level::Hard], 4, 9, 7));
    let b = strip(trap_games([Level::Medium, Level::Hard], 4, 9, 7));
    assert_eq!(a, b);
}

/// A player that plays its first legal move and throws far away, until
/// turn `fail_at`, where it fails as told.
struct Failing {
    fail_at: u32,
    how: Failure,
}

#[derive(Clone, Copy)]
enum Failure {
    IllegalMove,
    IllegalTrap,
    NoTrap,
    Crash,
    LateAnswer,
    StartUp,
}

impl Agent<Trap> for Failing {
    fn new_game(&mut self, _: TrapGameInfo, _: Duration) -> Result<(), Fault> {
        match self.how {
            Failure::StartUp if self.fail_at != u32::MAX => Err(Fault::Unavailable("no such file".into())),
            _ => Ok(()),
        }
    }

    fn act(&mut self, request: TrapRequest, budget: Duration) -> Result<TurnActions, Fault> {
        let step = request.state.legal_moves(request.seat).next().expect("a legal move");
        let mut after = request.state;
        after.move_player(request.seat, step);
        let target = after.free_cells().last().expect("a free cell");
        let cell = |p: player_api::trap::Pos| [i64::from(p.row), i64::from(p.col)];
        let fine = TurnActions { step: cell(step), trap: Some(cell(target)) };
        if request.turn / 2 < self.fail_at {
            return Ok(fine);
        }
        match self.how {
            Failure::IllegalMove => Ok(TurnActions { step: [-1, 3], trap: None }),
            Failure::IllegalTrap => Ok(TurnActions { trap: Some([9, 9]), ..fine }),
            Failure::NoTrap => Ok(TurnActions { trap: None, ..fine }),
            Failure::Crash => {
                Err(Fault::Crashed("killed by signal 11 (SIGSEGV, a segmentation fault)".into()))
            }
            Failure::LateAnswer => Err(Fault::Timeout {
                what: "turn",
                used: budget + Duration::from_millis(310),
                budget,
                grace: Duration::ZERO,
                killed: true,
                clock: arena_core::play::clock::Clock::Wall,
                backstop: false,
            }),
            Failure::StartUp => unreachable!(),
        }
    }

    fn game_over(&mut self, _: GameOver) {}
}

#[test]
fn games_lost_by_a_failure_verify_and_illegal_answers_are_rejudged() {
    let cases = [
        (Failure::IllegalMove, "illegal move (-1,3): off the board"),
        (Failure::IllegalTrap, "illegal trap (9,9): off the board"),
        (Failure::NoTrap, "garbage reply: the turn has a move but no trap"),
        (Failure::Crash, "crashed: killed by signal 11 (SIGSEGV, a segmentation fault)"),
        (Failure::LateAnswer, "timeout: 5.31 s of its own time > 5.00 s, no answer: killed"),
        (Failure::StartUp, "could not start: no such file"),
    ];
    for (how, reason) in cases {
        let mut good = Failing { fail_at: u32::MAX, how };
        let mut bad = Failing { fail_at: 3, how };
        let settings = TrapSettings::default();
        let record = trap::play(&settings, 5, [&mut good, &mut bad], &mut |_, _| {});
        assert_eq!(record.ending.to_string(), reason);
        let replay =
            Trap::replay(&record, players(["good", "bad"])).with_body(arena_core::games::replays::Body::Trap);
        assert_eq!(replay.result.fault.as_ref().map(|f| f.player), Some(1));
        round_trip(&replay);

        // An illegal answer is judged again: changing it changes the verdict.
        if matches!(how, Failure::IllegalMove) {
            let mut doc: Value = serde_json::from_str(&replay.to_json()).unwrap();
            assert_eq!(doc["failed_turn"]["seat"], 2);
            doc["failed_turn"]["reply"]["move"] = serde_json::json!([-2, 3]);
            let tampered = GameReplay::parse(doc.to_string().as_bytes()).unwrap();
            let error = tampered.verify().unwrap_err();
            assert!(error.contains("illegal move (-2,3)"), "{error}");
        }
    }
}

/// Answers its first legal move, after `delay`.
struct Slow {
    delay: Duration,
}

impl Agent<Trap> for Slow {
    fn new_game(&mut self, _: TrapGameInfo, _: Duration) -> Result<(), Fault> {
        Ok(())
    }

    fn act(&mut self, request: TrapRequest, _: Duration) -> Result<TurnActions, Fault> {
        std::thread::sleep(self.delay);
        let step = request.state.legal_moves(request.seat).next().expect("a legal move");
        Ok(TurnActions { step: [step.row.into(), step.col.into()], trap: Some([0, 0]) })
    }

    fn game_over(&mut self, _: GameOver) {}
}

#[test]
fn a_late_answer_is_recorded_as_given_loses_on_time_and_verifies() {
    let settings =
        TrapSettings { time: TimeControl::PerTurn(Duration::from_millis(20)), ..TrapSettings::default() };
    let mut late = Slow { delay: Duration::from_millis(60) };
    let mut quick = Slow { delay: Duration::ZERO };
    let record = trap::play(&settings, 9, [&mut late, &mut quick], &mut |_, _| {});
    assert!(record.ending.to_string().starts_with("timeout: "), "{}", record.ending);
    assert_eq!(record.ending.fault().map(|(seat, _)| seat), Some(Seat::One));
    let failed = record.failed.as_ref().expect("the turn it failed on");
    assert!(failed.reply.is_some(), "the late answer is kept as given");
    assert!(failed.time.wall >= Duration::from_millis(60), "{:?}", failed.time);
    let replay =
        Trap::replay(&record, players(["late", "quick"])).with_body(arena_core::games::replays::Body::Trap);
    let line = round_trip(&replay);
    assert!(line.starts_with("verified: 0 turns"), "{line}");
}

/// The replay of game 0 of easy vs medium (seed 11) as a JSON value.
fn sample() -> Value {
    let (record, seated) = trap_games([Level::Easy, Level::Medium], 1, 11, 7).remove(0);
    serde_json::from_str(
        &Trap::replay(&record, seated).with_body(arena_core::games::replays::Body::Trap).to_json(),
    )
    .unwrap()
}

fn verify_value(doc: &Value) -> Result<String, String> {
    GameReplay::parse(doc.to_string().as_bytes()).map_err(|e| format!("{e:#}"))?.verify()
}

#[test]
fn tampering_is_caught_at_the_first_difference() {
    let doc = sample();
    assert!(verify_value(&doc).is_ok());

    // Where a trap landed: the chance outcome the seed decides.
    let mut landed = doc.clone();
    let throw = &mut landed["turns"][4]["throw"];
    let target = throw["target"].clone();
    throw["landed"] = if throw["landed"] == target { serde_json::json!([0, 0]) } else { target };
    let error = verify_value(&landed).unwrap_err();
    assert!(error.starts_with("turn 5 (player 1): where the trap landed is"), "{error}");
    assert!(!error.contains('\n'), "one line: {error}");

    // The state a request showed.
    let mut shown = doc.clone();
    shown["turns"][7]["state"]["traps"].as_array_mut().unwrap().clear();
    let error = verify_value(&shown).unwrap_err();
    assert!(error.starts_with("turn 8 (player 2): the state shown is"), "{error}");

    // The seed: the first throw that may miss lands elsewhere, or the result differs.
    let mut seed = doc.clone();
    seed["seed"] = serde_json::json!(12345);
    assert!(verify_value(&seed).is_err());

    // The result.
    let mut result = doc.clone();
    result["result"]["reason"] = serde_json::json!("boxed in");
    let error = verify_value(&result).unwrap_err();
    assert!(error.starts_with("the result is \"boxed in\""), "{error}");

    // A turn cut off the end.
    let mut short = doc;
    short["turns"].as_array_mut().unwrap().pop();
    let n = short["turns"].as_array().unwrap().len();
    short["result"]["turns"] = serde_json::json!(n);
    assert!(verify_value(&short).is_err());
}

#[test]
fn other_versions_and_damaged_files_are_one_clear_error() {
    let doc = sample();
    let error = |value: &Value| format!("{:#}", GameReplay::parse(value.to_string().as_bytes()).unwrap_err());
    let mut old = doc.clone();
    old["version"] = serde_json::json!(0);
    let message = error(&old);
    assert!(message.contains("version 0 is older than the version this arena reads (1)"), "{message}");
    let mut new = doc.clone();
    new["version"] = serde_json::json!(2);
    assert!(error(&new).contains("version 2 is newer"), "{}", error(&new));
    let mut other = doc.clone();
    other["format"] = serde_json::json!("something-else");
    assert!(error(&other).contains("not a replay file"));
    let mut game = doc.clone();
    game["game"] = serde_json::json!("chess");
    assert!(error(&game).contains("game \"chess\" has no replay support"), "{}", error(&game));
    let mut damaged = doc.clone();
    damaged.as_object_mut().unwrap().remove("turns");
    assert!(error(&damaged).contains("damaged") && error(&damaged).contains("turns"), "{}", error(&damaged));
    let mut bad_cell = doc.clone();
    bad_cell["turns"][0]["state"]["players"][0] = serde_json::json!([40, 3]);
    assert!(error(&bad_cell).contains("turns[0].state"), "{}", error(&bad_cell));
    let mut count = doc.clone();
    count["result"]["turns"] = serde_json::json!(3);
    assert!(error(&count).contains("result.turns = 3"), "{}", error(&count));

    let text = GameReplay::parse(b"{ not json").unwrap_err();
    assert!(format!("{text:#}").contains("not JSON"));
    let packed = replay::gzip(doc.to_string().as_bytes());
    let cut = GameReplay::parse(&packed[..packed.len() / 2]).unwrap_err();
    assert!(format!("{cut:#}").contains("gzip data is damaged"), "{cut:#}");
}

fn write_json(dir: &Path, name: &str, doc: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, doc.to_string()).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn the_cli_refuses_bad_files_in_one_line_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let mut old = sample();
    old["version"] = serde_json::json!(0);
    let old = write_json(dir.path(), "old.json", &old);
    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, "\u{1f}\u{8b}garbage").unwrap();
    let missing = dir.path().join("missing.json");
    for file in [old.as_str(), garbage.to_str().unwrap(), missing.to_str().unwrap()] {
        for extra in [None, Some("--verify")] {
            let mut args = vec!["replay", file];
            args.extend(extra);
            let output = arena(&args, &[]);
            let err = stderr(&output);
            assert_eq!(output.status.code(), Some(2), "{err}");
            assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
            assert!(err.starts_with("error: ") && err.contains(file) && !err.contains("panicked"), "{err}");
        }
    }
}

#[test]
fn play_writes_replays_that_view_verify_and_render() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("games");
    let output = arena(
        &["play", "easy", "hard", "--games", "3", "--seed", "8", "--replay", folder.to_str().unwrap()],
        &[],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("3 replay(s) written to"), "{}", stderr(&output));
    let mut files: Vec<String> =
        std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    files.sort();
    assert_eq!(files, ["game-1-easy-vs-hard.json", "game-2-hard-vs-easy.json", "game-3-easy-vs-hard.json"]);
    let file = folder.join(&files[0]);
    let file = file.to_str().unwrap();
    let replay = GameReplay::read(Path::new(file)).unwrap();

    // Piped: every turn once, plain.
    let view = arena(&["replay", file], &[]);
    assert!(view.status.success(), "{}", stderr(&view));
    let text = stdout(&view);
    assert!(!text.contains('\x1b'), "no escape codes when not a terminal");
    assert_eq!(
        text.matches("\nturn ").count() + usize::from(text.starts_with("turn ")),
        replay.result.turns as usize
    );
    assert!(
        text.contains(&format!("turn 1/{}  player 1 (easy) moves (0,3) -> ", replay.result.turns)),
        "{text}"
    );
    assert!(text.contains(&format!("result: {}", replay.summary())), "{text}");
    let colour = stdout(&arena(&["replay", file, "--color", "always"], &[]));
    assert!(colour.contains("\x1b[1;97;44m1\x1b[0m"), "player 1 drawn in colour");

    let verify = arena(&["replay", file, "--verify"], &[]);
    assert!(verify.status.success(), "{}", stderr(&verify));
    assert!(stdout(&verify).contains("verified: "), "{}", stdout(&verify));

    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    doc["turns"][2]["move"] = serde_json::json!([3, 3]);
    let tampered = write_json(dir.path(), "tampered.json", &doc);
    let verify = arena(&["replay", &tampered, "--verify"], &[]);
    assert_eq!(verify.status.code(), Some(1));
    let err = stderr(&verify);
    assert!(err.contains("does not verify: turn 3 (player 1): ") && err.lines().count() == 1, "{err}");
    assert!(err.contains("illegal move (3,3)"), "the referee judged the changed move: {err}");

    let page = dir.path().join("game.html");
    let html = arena(&["replay", file, "--html", page.to_str().unwrap()], &[]);
    assert!(html.status.success(), "{}", stderr(&html));
    let page = std::fs::read_to_string(page).unwrap();
    assert!(page.contains("window.ArenaGames.trap") && page.contains("\"format\":\"arena-replay\""));
    assert!(
        !page.contains("http://") && !page.contains("https://") && !page.contains(" src="),
        "self-contained"
    );
    assert!(page.contains(&format!("data-seed=\"{}\"", replay.seed)));

    // One game into a file; a file for several games is refused.
    let one = dir.path().join("one.json.gz");
    let output = arena(
        &["play", "easy", "medium", "--only-game", "2", "--seed", "8", "--replay", one.to_str().unwrap()],
        &[],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(GameReplay::read(&one).unwrap().verify().is_ok());
    let output = arena(&["play", "easy", "medium", "--games", "2", "--replay", one.to_str().unwrap()], &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("a file holds one game"), "{}", stderr(&output));
}

fn tournament_file(dir: &Path, replays: &str) -> std::path::PathBuf {
    let path = dir.join("t.toml");
    let text = format!(
        "name = \"replays\"\nformat = \"round-robin\"\ngames_per_pairing = 4\nseed = 21\nconcurrency = 2\n\
         output = \"out\"\nplayers = [\"easy\", \"medium\", \"hard\"]\n{replays}"
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn replay_files(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .map(|d| d.map(|e| e.unwrap().file_name().into_string().unwrap()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_tournament_writes_its_replays_and_an_index_and_resumes_without_loss_or_doubles() {
    let dir = tempfile::tempdir().unwrap();
    let file = tournament_file(dir.path(), "[replays]\nsave = \"all\"\n");
    // One game at a time: the journal lists games in schedule order.
    let output = arena(&["tournament", "run", file.to_str().unwrap(), "--concurrency", "1"], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let folder = dir.path().join("out/replays");
    let first = replay_files(&folder);
    assert_eq!(first.iter().filter(|f| f.ends_with(".json")).count(), 12, "{first:?}");
    assert_eq!(first.iter().filter(|f| f.ends_with(".html")).count(), 12, "{first:?}");
    for name in first.iter().filter(|f| f.ends_with(".json")) {
        let replay = GameReplay::read(&folder.join(name)).unwrap();
        assert!(replay.verify().is_ok(), "{name}");
    }
    let index = std::fs::read_to_string(dir.path().join("out/index.html")).unwrap();
    assert_eq!(index.matches("<a href=\"replays/game-").count(), 12, "{index}");
    assert!(index.contains("id=\"standings\"") && index.contains("<td>hard</td>"), "{index}");

    // A run killed after writing game 8's replay but before journaling it
    // (and before playing games 9 to 12): the resumed run plays 8 to 12
    // again, overwriting game 8's files, never doubling them.
    let journal = dir.path().join("out/journal.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let kept: Vec<&str> = text.lines().take(1 + 7).collect();
    std::fs::write(&journal, format!("{}\n", kept.join("\n"))).unwrap();
    for name in
        first.iter().filter(|f| ["game-09", "game-10", "game-11", "game-12"].iter().any(|g| f.starts_with(g)))
    {
        std::fs::remove_file(folder.join(name)).unwrap();
    }
    let output = arena(&["tournament", "run", file.to_str().unwrap(), "--concurrency", "1"], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("12 games (5 played now)"), "{}", stderr(&output));
    assert_eq!(replay_files(&folder), first);
}

#[test]
fn a_tournament_keeps_only_the_losses_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let file =
        tournament_file(dir.path(), "[replays]\nsave = \"losses\"\nplayer = \"easy\"\nviewers = false\n");
    let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let folder = dir.path().join("out/replays");
    let files = replay_files(&folder);
    assert!(!files.is_empty() && files.iter().all(|f| f.ends_with(".json")), "{files:?}");
    for name in &files {
        let replay = GameReplay::read(&folder.join(name)).unwrap();
        let loser = replay.result.winner.map(|w| 1 - w).expect("a loss, not a draw");
        assert_eq!(replay.players[loser].name, "easy", "{name}");
    }
    let standings: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/standings.json")).unwrap())
            .unwrap();
    let easy = standings["rows"].as_array().unwrap().iter().find(|r| r["name"] == "easy").unwrap();
    assert_eq!(easy["losses"].as_u64().unwrap() as usize, files.len());

    let file = tournament_file(dir.path(), "[replays]\nsave = \"losses\"\nplayer = \"gandalf\"\n");
    let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("replays.player = \"gandalf\": no such player"), "{}", stderr(&output));
    let file = tournament_file(dir.path(), "[replays]\nsave = \"all\"\nplayer = \"easy\"\n");
    let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(stderr(&output).contains("line 10: replays.player"), "{}", stderr(&output));
}

#[test]
fn a_game_from_a_hand_made_position_verifies() {
    // Puzzles start elsewhere; the replay keeps the start and the first seat.
    let start = TrapState::from_parts(5, [(0, 0).into(), (4, 4).into()], [(2, 2).into()]);
    let mut one = AbiPlayer::<Trap>::builtin(Level::Hard);
    let mut two = AbiPlayer::<Trap>::builtin(Level::Easy);
    let record = trap::play_from(
        &TrapSettings { size: 5, ..TrapSettings::default() },
        [TimeControl::default(); 2],
        3,
        start,
        Seat::Two,
        [&mut one, &mut two],
        &mut |_, _| {},
    );
    let replay =
        Trap::replay(&record, players(["hard", "easy"])).with_body(arena_core::games::replays::Body::Trap);
    round_trip(&replay);
}

/// A server's grading games share their seeds, so their viewers keep the
/// seed back: not in the page's data, not in its text.
#[test]
fn a_viewer_can_keep_its_games_seed_back() {
    let seed = 987_654_321_987;
    let (record, seated) = trap_games([Level::Easy, Level::Medium], 1, seed, 7).remove(0);
    let replay = Trap::replay(&record, seated).with_body(arena_core::games::replays::Body::Trap);
    assert_eq!(replay.seed, arena_core::play::seeds::derive(seed, 0), "game 0's seed");
    let shown = arena_core::replay::html::page(&replay);
    assert!(shown.contains(&replay.seed.to_string()));
    let hidden = arena_core::replay::html::page_with(&replay, false);
    assert!(!hidden.contains(&replay.seed.to_string()), "the seed is nowhere in the page");
    assert!(hidden.contains(arena_core::replay::html::HIDDEN_SEED));
    assert!(hidden.contains("\"seed\":null"));
}
