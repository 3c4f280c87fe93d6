//! Replays of the four games of issue #5 (Intuitive AI, Hexapawn, Wumpus
//! World, Magic Forest): games played by the reference levels and by
//! failing players, written through each game's `replay`, read
//! back, verified, tampered with, and drawn in the terminal.

use arena_core::play::solo::{self, SinglePlayerGame};
use arena_core::play::two_player::TwoPlayerGame;
use std::time::Duration;

use arena_core::{
    game::Agent,
    games::replays::GameReplay,
    games::{
        hexapawn::referee::{self as hexapawn, HexapawnSettings},
        intuitive::record::{IntuitiveRules, IntuitiveSettings},
        magic_forest::record::ForestSettings,
        wumpus::record::WumpusSettings,
    },
    games::{hexapawn::Hexapawn, intuitive::IntuitiveAi, magic_forest::MagicForest, wumpus::Wumpus},
    play::fault::Fault,
    players::agent::AbiPlayer,
    players::Level,
    replay::{self, terminal::Paint, ReplayPlayer},
};
use player_api::{
    hexapawn::{HexMove, HexapawnAction, HexapawnGameInfo, HexapawnRequest, Square},
    intuitive::{Cell, IntuitiveGameInfo, IntuitiveGameOver, IntuitiveRequest},
    magic_forest::{ForestAction, ForestGameInfo, ForestOver, ForestRequest},
    wumpus::{WumpusAction, WumpusConfig, WumpusGameInfo, WumpusOver, WumpusRequest},
    GameOver,
};
use serde_json::{json, Value};

pub fn player(name: &str) -> ReplayPlayer {
    ReplayPlayer { name: name.to_string(), source: name.to_string() }
}

/// Intuitive AI games of every level on boards 3 to 6.
pub fn intuitive_replays(seeds: std::ops::Range<u64>) -> Vec<GameReplay> {
    let mut replays = Vec::new();
    for seed in seeds {
        let level = Level::ALL[seed as usize % 3];
        let settings = IntuitiveSettings::new(IntuitiveRules { size: 3 + (seed % 4) as u8 });
        let record =
            solo::play::<IntuitiveAi>(&settings, seed, &mut AbiPlayer::<IntuitiveAi>::builtin(level));
        replays.push(
            IntuitiveAi::replay(&record, &record.settings, player(level.name()))
                .with_body(arena_core::games::replays::Body::IntuitiveAi),
        );
    }
    replays
}

/// Hexapawn games between every pair of levels.
pub fn hexapawn_replays(seeds: std::ops::Range<u64>) -> Vec<GameReplay> {
    let mut replays = Vec::new();
    for seed in seeds {
        let levels = [Level::ALL[seed as usize % 3], Level::ALL[(seed / 3) as usize % 3]];
        let [mut white, mut black] = levels.map(AbiPlayer::<Hexapawn>::builtin);
        let record = hexapawn::play_agents(&HexapawnSettings::default(), seed, [&mut white, &mut black]);
        replays.push(
            Hexapawn::replay(&record, levels.map(|l| player(l.name())))
                .with_body(arena_core::games::replays::Body::Hexapawn),
        );
    }
    replays
}

/// Wumpus World games of every level, under both presets.
pub fn wumpus_replays(seeds: std::ops::Range<u64>) -> Vec<GameReplay> {
    let mut replays = Vec::new();
    for seed in seeds {
        let level = Level::ALL[seed as usize % 3];
        let config = if seed % 2 == 0 { WumpusConfig::aima() } else { WumpusConfig::project() };
        let settings = WumpusSettings::new(config);
        let game = solo::play::<Wumpus>(&settings, seed, &mut AbiPlayer::<Wumpus>::builtin(level));
        replays.push(
            Wumpus::replay(&game, &settings, player(level.name()))
                .with_body(arena_core::games::replays::Body::Wumpus),
        );
    }
    replays
}

/// Magic Forest runs of every level, up to 5x5 forests.
pub fn forest_replays(seeds: std::ops::Range<u64>) -> Vec<GameReplay> {
    let mut replays = Vec::new();
    for seed in seeds {
        let level = Level::ALL[seed as usize % 3];
        let mut settings = ForestSettings::default();
        settings.rules.largest = 3 + (seed % 3) as u8;
        let run = solo::play::<MagicForest>(&settings, seed, &mut AbiPlayer::<MagicForest>::builtin(level));
        replays.push(
            MagicForest::replay(&run, &settings, player(level.name()))
                .with_body(arena_core::games::replays::Body::MagicForest),
        );
    }
    replays
}

/// Writes, reads back (plain and gzip, and through a file) and verifies one
/// replay; returns the verification line.
pub fn round_trip(replay: &GameReplay) -> String {
    let json = replay.to_json();
    let back = GameReplay::parse(json.as_bytes()).unwrap_or_else(|e| panic!("{e:#}\n{json}"));
    assert_eq!(&back, replay, "a replay reads back as written");
    assert_eq!(&GameReplay::parse(&replay::gzip(json.as_bytes())).unwrap(), replay);
    let line = back.verify().unwrap_or_else(|e| panic!("does not verify: {e}\n{json}"));
    assert!(line.starts_with("verified: "), "{line}");
    line
}

/// Round-trips every replay and returns the reasons the games ended.
pub fn round_trip_all(replays: &[GameReplay]) -> std::collections::BTreeSet<String> {
    replays
        .iter()
        .map(|r| {
            round_trip(r);
            r.result.reason.clone()
        })
        .collect()
}

/// The replay with the most steps: room to tamper with.
fn longest(replays: Vec<GameReplay>) -> GameReplay {
    replays.into_iter().max_by_key(|r| r.result.turns).unwrap()
}

fn verify_value(doc: &Value) -> Result<String, String> {
    GameReplay::parse(doc.to_string().as_bytes()).map_err(|e| format!("{e:#}"))?.verify()
}

fn doc(replay: &GameReplay) -> Value {
    serde_json::from_str(&replay.to_json()).unwrap()
}

/// Changes `doc` with `change`; the replay must still read, and verifying
/// it must fail with one line starting with `expected`.
fn caught(doc: &Value, change: impl Fn(&mut Value), expected: &str) {
    let mut tampered = doc.clone();
    change(&mut tampered);
    let error = verify_value(&tampered).unwrap_err();
    assert!(error.starts_with(expected), "wanted \"{expected}...\", got: {error}");
    assert!(!error.contains('\n'), "one line: {error}");
}

// --- Failing players: each ends a game in a way levels never do. ---

/// Reveals the cell it stands on (already open): an illegal reveal; or panics.
struct BadRevealer {
    panic: bool,
}

impl Agent<IntuitiveAi> for BadRevealer {
    fn new_game(&mut self, _: IntuitiveGameInfo, _: Duration) -> Result<(), Fault> {
        Ok(())
    }
    fn act(&mut self, request: IntuitiveRequest, _: Duration) -> Result<Cell, Fault> {
        if self.panic {
            return Err(Fault::Panicked("boom at src/lib.rs:1:1".into()));
        }
        let open = request.view.open().next().unwrap();
        Ok(Cell::from_index(open, request.view.size()))
    }
    fn game_over(&mut self, _: IntuitiveGameOver) {}
}

/// Plays the first legal move until `at`, then resigns, moves illegally or crashes.
struct BadMover {
    at: u32,
    how: &'static str,
}

impl Agent<Hexapawn> for BadMover {
    fn new_game(&mut self, _: HexapawnGameInfo, _: Duration) -> Result<(), Fault> {
        Ok(())
    }
    fn act(&mut self, request: HexapawnRequest, _: Duration) -> Result<HexapawnAction, Fault> {
        if request.ply < self.at {
            return Ok(HexapawnAction::Move(request.board.legal_moves()[0]));
        }
        match self.how {
            "resign" => Ok(HexapawnAction::Resign),
            "illegal" => Ok(HexapawnAction::Move(HexMove::new(Square::new(1, 1), Square::new(0, 0)))),
            _ => Err(Fault::Crashed("killed by signal 11 (SIGSEGV, a segmentation fault)".into())),
        }
    }
    fn game_over(&mut self, _: GameOver) {}
}

/// Climbs in a game without a climb (invalid), or times out, at action `at`.
struct BadWalker {
    at: u32,
    invalid: bool,
}

impl Agent<Wumpus> for BadWalker {
    fn new_game(&mut self, _: WumpusGameInfo, _: Duration) -> Result<(), Fault> {
        Ok(())
    }
    fn act(&mut self, request: WumpusRequest, _: Duration) -> Result<WumpusAction, Fault> {
        match (request.actions < self.at, self.invalid) {
            (true, _) => Ok(WumpusAction::TurnLeft),
            (false, true) => Ok(WumpusAction::Climb),
            (false, false) => Err(Fault::Timeout {
                what: "turn",
                used: Duration::from_millis(5310),
                budget: Duration::from_secs(5),
                grace: Duration::ZERO,
                killed: true,
                clock: arena_core::play::clock::Clock::Wall,
                backstop: false,
            }),
        }
    }
    fn game_over(&mut self, _: WumpusOver) {}
}

/// Throws stones north, then fails with garbage at action `at`.
struct BadWanderer {
    at: u32,
    done: u32,
}

impl Agent<MagicForest> for BadWanderer {
    fn new_game(&mut self, _: ForestGameInfo, _: Duration) -> Result<(), Fault> {
        Ok(())
    }
    fn act(&mut self, _: ForestRequest, _: Duration) -> Result<ForestAction, Fault> {
        self.done += 1;
        if self.done > self.at {
            return Err(Fault::Protocol("the reply is not an action".into()));
        }
        Ok(ForestAction::throw(player_api::grid::Dir::North))
    }
    fn game_over(&mut self, _: ForestOver) {}
}

#[test]
fn failures_of_every_new_game_verify() {
    let settings = IntuitiveSettings::default();
    for panic in [false, true] {
        let record = solo::play::<IntuitiveAi>(&settings, 3, &mut BadRevealer { panic });
        let replay = IntuitiveAi::replay(&record, &record.settings, player("bad"))
            .with_body(arena_core::games::replays::Body::IntuitiveAi);
        round_trip(&replay);
        let reason = &replay.result.reason;
        assert!(reason.starts_with(if panic { "panicked: boom" } else { "illegal reveal" }), "{reason}");
        assert_eq!(replay.result.score, Some(-1));
        assert_eq!(replay.result.fault.is_some(), panic);
    }
    for (how, reason) in [
        ("resign", "resigned"),
        ("illegal", "illegal move (1,1)->(0,0)"),
        ("crash", "crashed: killed by signal 11"),
    ] {
        for at in [0, 1, 3] {
            let mut good = BadMover { at: u32::MAX, how };
            let mut bad = BadMover { at, how };
            let players = [player("good"), player("bad")];
            let (record, loser) = if at % 2 == 0 {
                (hexapawn::play_agents(&HexapawnSettings::default(), 4, [&mut bad, &mut good]), 0)
            } else {
                (hexapawn::play_agents(&HexapawnSettings::default(), 4, [&mut good, &mut bad]), 1)
            };
            let replay =
                Hexapawn::replay(&record, players).with_body(arena_core::games::replays::Body::Hexapawn);
            if !matches!(record.ending, hexapawn::HexapawnEnding::Won { .. }) {
                assert!(replay.result.reason.starts_with(reason), "{}", replay.result.reason);
                assert_eq!(replay.result.winner, Some(1 - loser));
            }
            round_trip(&replay);
        }
    }
    for invalid in [true, false] {
        let settings = WumpusSettings::new(WumpusConfig::project());
        let game = solo::play::<Wumpus>(&settings, 6, &mut BadWalker { at: 3, invalid });
        let replay = Wumpus::replay(&game, &settings, player("bad"))
            .with_body(arena_core::games::replays::Body::Wumpus);
        round_trip(&replay);
        let reason = &replay.result.reason;
        assert!(reason.starts_with(if invalid { "invalid action: climb" } else { "timeout" }), "{reason}");
        assert_eq!(replay.result.outcome.as_deref(), Some("loss"));
    }
    let settings = ForestSettings::default();
    let run = solo::play::<MagicForest>(&settings, 2, &mut BadWanderer { at: 4, done: 0 });
    let replay = MagicForest::replay(&run, &settings, player("bad"))
        .with_body(arena_core::games::replays::Body::MagicForest);
    round_trip(&replay);
    assert!(replay.result.reason.contains("the reply is not an action"), "{}", replay.result.reason);
    assert_eq!(replay.result.turns, 4);

    // A rejected answer is judged again: changing it changes the verdict.
    let record =
        solo::play::<IntuitiveAi>(&IntuitiveSettings::default(), 3, &mut BadRevealer { panic: false });
    let doc = doc(&IntuitiveAi::replay(&record, &record.settings, player("bad"))
        .with_body(arena_core::games::replays::Body::IntuitiveAi));
    caught(&doc, |d| d["failed"]["cell"] = json!([9, 9]), "the result: reason is \"illegal reveal (");
}

#[test]
fn intuitive_replays_record_the_world_views_and_reveals() {
    let replay = &intuitive_replays(9..10)[0];
    let doc = doc(replay);
    assert_eq!(doc["game"], "intuitive-ai");
    assert_eq!(doc["settings"]["board_size"], 4);
    assert_eq!(doc["world"]["pits"].as_array().unwrap().len(), 4, "as many pits as the board is wide");
    let reveals = doc["reveals"].as_array().unwrap();
    assert_eq!(reveals.len() as u32, replay.result.turns);
    assert_eq!(reveals[0]["view"]["open"], json!([doc["world"]["start"].clone()]), "only the start is open");
    for (i, reveal) in reveals.iter().enumerate() {
        assert_eq!(reveal["view"]["open"].as_array().unwrap().len(), i + 1, "one cell more per reveal");
        assert!(reveal["time_us"].is_u64());
    }
    let last = reveals.last().unwrap()["shown"].as_str().unwrap();
    assert!(["monster", "pit"].contains(&last), "the last reveal ends the game: {last}");
    assert_eq!(doc["result"]["outcome"], if last == "monster" { "win" } else { "loss" });
}

#[test]
fn tampering_with_a_new_game_is_caught_at_the_first_difference() {
    let doc = self::doc(&longest(intuitive_replays(0..12)));
    let swap_gold_and_a_pit = |d: &mut Value| {
        let gold = d["world"]["gold"].clone();
        d["world"]["gold"] = std::mem::replace(&mut d["world"]["pits"][0], gold);
    };
    caught(&doc, swap_gold_and_a_pit, "the world: gold is");
    let doc_ok = |d: &mut Value| {
        let open = d["reveals"][0]["view"]["open"].as_array_mut().unwrap();
        open.push(json!([3, 3]));
    };
    caught(&doc, doc_ok, "reveal 1: view.open is");
    caught(
        &doc,
        |d| d["reveals"][1]["shown"] = json!("gold"),
        "reveal 2: shown is \"gold\" in the replay but",
    );
    caught(&doc, |d| d["seed"] = json!(99), "the world: ");

    let doc = self::doc(&longest(hexapawn_replays(0..9)));
    caught(&doc, |d| d["plies"][1]["board"]["rows"][0] = json!("..."), "move 2: board.rows is");
    caught(
        &doc,
        |d| d["result"]["winner"] = json!(1 - d["result"]["winner"].as_u64().unwrap()),
        "the result: winner is",
    );
    caught(
        &doc,
        |d| d["final"]["to_move"] = json!(3 - d["final"]["to_move"].as_u64().unwrap()),
        "the final board: to_move",
    );

    let doc = self::doc(&longest(wumpus_replays(0..6)));
    caught(&doc, |d| d["steps"][2]["request"]["score"] = json!(12345), "action 3: request.score is 12345");
    caught(&doc, |d| d["world"]["gold"] = json!([0, 0]), "the cave: gold is [0,0]");
    caught(
        &doc,
        |d| d["steps"][0]["request"]["facing"] = json!("west"),
        "action 1: request.facing is \"west\"",
    );

    let doc = self::doc(&longest(forest_replays(0..6)));
    caught(
        &doc,
        |d| d["steps"][1]["event"] = json!({"type": "portal"}),
        "action 2: event.type is \"portal\"",
    );
    caught(
        &doc,
        |d| d["forests"][0]["portal"] = d["forests"][0]["start"].clone(),
        "forest 0 (3x3): portal is",
    );
    caught(&doc, |d| d["deaths"] = json!(77), "deaths is 77");
}

#[test]
fn damaged_new_game_replays_are_one_clear_error() {
    let error = |doc: &Value| format!("{:#}", GameReplay::parse(doc.to_string().as_bytes()).unwrap_err());
    let base = doc(&intuitive_replays(1..2)[0]);
    let mut d = base.clone();
    d["world"]["pits"].as_array_mut().unwrap().pop();
    assert!(error(&d).contains("world: 3 distinct pits, the board needs 4"), "{}", error(&d));
    let mut d = base.clone();
    d["players"].as_array_mut().unwrap().push(json!({"name": "x", "source": "x"}));
    assert!(error(&d).contains("2 players listed; a intuitive-ai game has 1"), "{}", error(&d));
    let mut d = base;
    d["result"].as_object_mut().unwrap().remove("score");
    assert!(error(&d).contains("needs its outcome and score"), "{}", error(&d));

    let mut d = doc(&hexapawn_replays(1..2)[0]);
    d["plies"][0]["board"]["rows"][1] = json!(".X.");
    assert!(error(&d).contains("plies[0].board: square (1,1) is 'X'"), "{}", error(&d));

    let mut d = doc(&wumpus_replays(1..2)[0]);
    d["settings"]["config"]["pit_chance"] = json!(1.5);
    assert!(error(&d).contains("settings.config: pit_chance 1.5 is not a probability"), "{}", error(&d));
    let mut d = doc(&wumpus_replays(1..2)[0]);
    d["steps"][0]["action"] = json!("jump");
    assert!(error(&d).contains("damaged") && error(&d).contains("jump"), "{}", error(&d));

    let mut d = doc(&forest_replays(1..2)[0]);
    d["forests"].as_array_mut().unwrap().pop();
    assert!(error(&d).contains("the run has forests of sizes"), "{}", error(&d));
}

#[test]
fn new_games_are_drawn_in_the_terminal_one_frame_per_step() {
    let plain = Paint { color: false };
    let replay = &intuitive_replays(9..10)[0];
    let frames = replay.frames(plain);
    assert_eq!(frames.len(), replay.result.turns as usize + 1);
    assert!(frames[0].contains("start: easy on a 4x4 board, seed 9"), "{}", frames[0]);
    assert_eq!(frames[0].matches('?').count(), 15, "all closed but the start: {}", frames[0]);
    assert!(
        frames[1].starts_with(&format!("reveal 1/{}  easy reveals (", replay.result.turns)),
        "{}",
        frames[1]
    );
    let last = frames.last().unwrap();
    assert!(
        last.contains(if replay.result.outcome.as_deref() == Some("win") { " M" } else { " P" }),
        "{last}"
    );
    assert!(last.ends_with(&format!("result: {}", replay.summary())), "{last}");

    let replay = &hexapawn_replays(0..1)[0];
    let frames = replay.frames(plain);
    assert_eq!(frames.len(), replay.result.turns as usize + 1);
    assert!(frames[0].ends_with("0 B B B\n  1 . . .\n  2 W W W"), "{}", frames[0]);
    assert!(frames[1].contains("(White) (2,") && frames[1].contains(" o"), "{}", frames[1]);

    let replay = &wumpus_replays(0..1)[0];
    let frames = replay.frames(plain);
    assert_eq!(frames.len(), replay.result.turns as usize + 1);
    assert!(frames[0].contains("in a 4x4 cave (aima rules)"), "{}", frames[0]);
    assert!(frames[0].contains("  0 >"), "the agent on (0,0) facing east: {}", frames[0]);
    assert!(frames[0].contains(" W") && frames[0].contains("senses: "), "{}", frames[0]);

    let replay = &forest_replays(2..3)[0];
    let frames = replay.frames(plain);
    assert_eq!(frames.len(), replay.result.turns as usize + 1);
    assert!(frames[0].contains("forest 1 of 3 (3x3)") && frames[0].contains('@'), "{}", frames[0]);
    if replay.result.outcome.as_deref() == Some("win") {
        assert!(frames.last().unwrap().contains("forest 3 of 3 (5x5)"));
    }
    let colour = replay.frames(Paint { color: true });
    assert!(colour[0].contains("\x1b[1;97;44m@\x1b[0m"), "the wanderer in colour");
}
