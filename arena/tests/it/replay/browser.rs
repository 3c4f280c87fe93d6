//! The HTML replay viewer in a real browser: headless Chromium loads a
//! generated viewer from disk, a small script injected by this test clicks
//! through the turns (buttons, slider, keys, play), and the board drawn at
//! each step is checked against the replay file. Also a screenshot, kept
//! under target/ (never the repo).
//!
//! Without Chromium the test prints a notice and passes, unless
//! ARENA_REQUIRE_BROWSER=1 (set by .ci/run, which installs it).

use arena_core::play::solo::{self, SinglePlayerGame};
use arena_core::play::two_player::TwoPlayerGame;
use arena_core::replay::ReplayBody as _;
use std::path::Path;

use crate::support::{
    arena,
    browser::{chromium, run_chromium},
    stderr,
};
use arena_core::{
    games::replays::{Body, GameReplay},
    games::trap::replay::TrapBody,
    games::{
        hexapawn::referee::{self as hexapawn, HexapawnSettings},
        intuitive::record::IntuitiveSettings,
        magic_forest::record::ForestSettings,
        wumpus::record::WumpusSettings,
    },
    games::{hexapawn::Hexapawn, intuitive::IntuitiveAi, magic_forest::MagicForest, wumpus::Wumpus},
    players::agent::AbiPlayer,
    players::Level,
    replay::ReplayPlayer,
};
use serde_json::Value;

/// The test's driver: steps through the viewer with its own controls and
/// writes what is drawn after each step into <pre id="test-report">.
const DRIVER: &str = r##"<script>
(function () {
  const $ = (id) => document.getElementById(id);
  const report = [];
  const snap = (how) => report.push({
    how,
    counter: $("turn-counter").textContent,
    cells: Array.from(document.querySelectorAll("#board .cell")).map((c) =>
      [Number(c.dataset.row), Number(c.dataset.col), c.dataset.content, c.dataset.mark || ""]),
    result: $("result").textContent,
    slider: Number($("slider").value),
    info: $("turn-info").textContent,
  });
  snap("load");
  for (let i = 0; i < STEPS; i++) { $("next").click(); snap("next"); }
  $("prev").click(); snap("prev");
  $("last").click(); snap("last");
  $("next").click(); snap("next at the end");
  const slider = $("slider");
  slider.value = "2";
  slider.dispatchEvent(new Event("input"));
  snap("slider");
  document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" }));
  snap("key");
  $("first").click();
  $("play").click();
  setTimeout(() => {
    snap("played");
    const pre = document.createElement("pre");
    pre.id = "test-report";
    pre.textContent = JSON.stringify(report);
    document.body.appendChild(pre);
  }, 1600);
})();
</script>
</body>"##;

/// What frame `k` must show: the players, the traps, the throw's marks.
fn expected_cells(body: &TrapBody, k: usize) -> Vec<(i64, i64, String, String)> {
    let state = match k {
        0 => &body.start,
        k if k < body.turns.len() => &body.turns[k].state,
        _ => &body.final_state,
    };
    let throw = k.checked_sub(1).and_then(|i| body.turns[i].throw);
    let n = i64::from(state.size);
    let mut cells = Vec::new();
    for row in 0..n {
        for col in 0..n {
            let here = [row, col];
            let content = if state.players[0] == here {
                "p1"
            } else if state.players[1] == here {
                "p2"
            } else if state.traps.contains(&here) {
                "trap"
            } else {
                "empty"
            };
            let mark = match throw {
                Some(t) if t.landed == here && t.target == here => "hit",
                Some(t) if t.landed == here => "landed",
                Some(t) if t.target == here => "target",
                _ => "",
            };
            cells.push((row, col, content.to_string(), mark.to_string()));
        }
    }
    cells
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&")
}

#[test]
fn the_viewer_draws_every_turn_in_a_real_browser() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let output = arena(&["play", "easy", "hard", "--seed", "31", "--replay", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let replay = GameReplay::read(&file).unwrap();
    let Body::Trap(body) = &replay.body else { panic!("a Trap replay") };
    let turns = body.turns.len();
    assert!(turns >= 6, "a game long enough to step through ({turns} turns)");
    let page = dir.path().join("view.html");
    let output = arena(&["replay", file.to_str().unwrap(), "--html", page.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));

    let steps = 5;
    let html = std::fs::read_to_string(&page).unwrap();
    let driven = html.replacen("</body>", &DRIVER.replace("STEPS", &steps.to_string()), 1);
    let driven_path = dir.path().join("driven.html");
    std::fs::write(&driven_path, driven).unwrap();
    let url = format!("file://{}", driven_path.display());
    let output = run_chromium(&browser, &["--dump-dom".into(), "--virtual-time-budget=5000".into()], &url);
    let dom = String::from_utf8_lossy(&output.stdout);
    let report = dom
        .split("<pre id=\"test-report\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| {
            panic!("no report in the page: {}\n{dom}", String::from_utf8_lossy(&output.stderr))
        });
    let report: Vec<Value> = serde_json::from_str(&unescape(report)).unwrap();

    let check = |snap: &Value, k: usize| {
        let how = &snap["how"];
        let counter = snap["counter"].as_str().unwrap();
        let want = if k == 0 { format!("Start \u{b7} 0 / {turns}") } else { format!("Turn {k} / {turns}") };
        assert_eq!(counter, want, "{how}");
        assert_eq!(snap["slider"], k, "{how}");
        let cells: Vec<(i64, i64, String, String)> = serde_json::from_value(snap["cells"].clone()).unwrap();
        assert_eq!(cells, expected_cells(body, k), "{how}: the board at turn {k}");
        let result = snap["result"].as_str().unwrap();
        if k == turns {
            let winner = &replay.players[replay.result.winner.unwrap()].name;
            assert!(
                result.contains(&format!("{winner} (player")) && result.contains(&replay.result.reason),
                "{result}"
            );
        } else {
            assert_eq!(result, "", "{how}: no result before the end");
        }
        if k > 0 {
            let info = snap["info"].as_str().unwrap();
            let throw = body.turns[k - 1].throw.unwrap();
            let pct = format!("Hit probability{}%", (throw.hit_chance * 100.0).round());
            assert!(info.contains(&pct), "{how}: {info}");
            let landed = format!("Landed on({},{})", throw.landed[0], throw.landed[1]);
            assert!(info.contains(&landed) && info.contains("Time used"), "{how}: {info}");
        }
    };
    let mut expected = vec![0];
    expected.extend(1..=steps);
    expected.extend([steps - 1, turns, turns, 2, 3]);
    assert_eq!(report.len(), expected.len() + 1);
    for (snap, &k) in report.iter().zip(&expected) {
        check(snap, k);
    }
    // Playing at 2 turns a second for 1.6 s of (virtual) time.
    let played = report.last().unwrap();
    let at: usize = played["slider"].as_u64().unwrap() as usize;
    assert!((2..=4).contains(&at), "played to turn {at}");
    check(played, at);

    // A screenshot for people to look at, kept under target/.
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("replay-viewer.png");
    let _ = std::fs::remove_file(&shot);
    let url = format!("file://{}#turn=5", page.display());
    let output = run_chromium(
        &browser,
        &[format!("--screenshot={}", shot.display()), "--window-size=1280,900".into()],
        &url,
    );
    let png = std::fs::read(&shot)
        .unwrap_or_else(|_| panic!("no screenshot: {}", String::from_utf8_lossy(&output.stderr)));
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000, "a drawn page, {} bytes", png.len());
}

/// The driver for the new games: what every cell shows (its data
/// attributes) at the start, after `STEPS` clicks on next, and at the end.
const CELLS_DRIVER: &str = r##"<script>
(function () {
  const $ = (id) => document.getElementById(id);
  const report = [];
  const snap = () => report.push({
    counter: $("turn-counter").textContent,
    cells: Array.from(document.querySelectorAll("#board .cell")).map((c) => Object.assign({}, c.dataset)),
    forest: $("board").dataset.forest || "",
    result: $("result").textContent,
    info: $("turn-info").textContent,
  });
  snap();
  for (let i = 0; i < STEPS; i++) $("next").click();
  snap();
  $("last").click();
  snap();
  const pre = document.createElement("pre");
  pre.id = "test-report";
  pre.textContent = JSON.stringify(report);
  document.body.appendChild(pre);
})();
</script>
</body>"##;

/// Writes `replay`, makes its viewer with `arena replay --html`, drives it in
/// Chromium; the three snapshots (start, after `steps`, last).
fn drive(browser: &Path, replay: &GameReplay, steps: usize) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    replay.write(&file).unwrap();
    let page = dir.path().join("view.html");
    let output = arena(&["replay", file.to_str().unwrap(), "--html", page.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let html = std::fs::read_to_string(&page).unwrap();
    let driven = html.replacen("</body>", &CELLS_DRIVER.replace("STEPS", &steps.to_string()), 1);
    let driven_path = dir.path().join("driven.html");
    std::fs::write(&driven_path, driven).unwrap();
    let url = format!("file://{}", driven_path.display());
    let output = run_chromium(browser, &["--dump-dom".into(), "--virtual-time-budget=3000".into()], &url);
    let dom = String::from_utf8_lossy(&output.stdout);
    let report = dom
        .split("<pre id=\"test-report\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| {
            panic!(
                "{}: no report in the page: {}\n{dom}",
                replay.body.game(),
                String::from_utf8_lossy(&output.stderr)
            )
        });
    serde_json::from_str(&unescape(report)).unwrap()
}

fn named(name: &str) -> ReplayPlayer {
    ReplayPlayer { name: name.to_string(), source: name.to_string() }
}

/// The longest of a few games: room to step through.
fn longest(replays: impl Iterator<Item = GameReplay>) -> GameReplay {
    replays.max_by_key(|r| r.result.turns).unwrap()
}

/// The cells of a snapshot whose `key` attribute is `value`, as (a, b) by `keys`.
fn cells_where(snap: &Value, keys: [&str; 2], key: &str, value: &str) -> Vec<(u8, u8)> {
    let mut found: Vec<(u8, u8)> = snap["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c[key] == value)
        .map(|c| {
            (c[keys[0]].as_str().unwrap().parse().unwrap(), c[keys[1]].as_str().unwrap().parse().unwrap())
        })
        .collect();
    found.sort();
    found
}

fn sorted(cells: &[[u8; 2]]) -> Vec<(u8, u8)> {
    let mut list: Vec<(u8, u8)> = cells.iter().map(|c| (c[0], c[1])).collect();
    list.sort();
    list
}

/// The counter, the result and the step count shown in the three snapshots.
fn check_counters(report: &[Value], replay: &GameReplay, step_name: &str, steps: usize) {
    let total = replay.result.turns as usize;
    assert_eq!(report[0]["counter"], format!("Start \u{b7} 0 / {total}"));
    assert_eq!(report[1]["counter"], format!("{step_name} {steps} / {total}"));
    assert_eq!(report[2]["counter"], format!("{step_name} {total} / {total}"));
    assert_eq!(report[1]["result"], "", "no result before the end");
    let result = report[2]["result"].as_str().unwrap();
    assert!(result.contains(&replay.result.reason), "{}: {result}", replay.body.game());
    if let Some(score) = replay.result.score {
        assert!(result.contains(&format!("score {score}")), "{result}");
    }
}

#[test]
fn the_new_games_viewers_draw_their_boards_in_a_real_browser() {
    let Some(browser) = chromium() else { return };

    // Intuitive AI: the open cells of the view each frame shows.
    let replay = longest((0..12).map(|seed| {
        let record = solo::play::<IntuitiveAi>(
            &IntuitiveSettings::default(),
            seed,
            &mut AbiPlayer::<IntuitiveAi>::builtin(Level::Medium),
        );
        IntuitiveAi::replay(&record, &record.settings, named("medium"))
            .with_body(arena_core::games::replays::Body::IntuitiveAi)
    }));
    let Body::IntuitiveAi(body) = &replay.body else { panic!() };
    let steps = 2.min(body.reveals.len());
    let report = drive(&browser, &replay, steps);
    check_counters(&report, &replay, "Reveal", steps);
    assert_eq!(cells_where(&report[0], ["row", "col"], "content", "open"), sorted(&[body.world.start]));
    let view = body.reveals.get(steps).map_or(&body.reveals[steps - 1].view, |r| &r.view);
    let gold = view.gold.map(|g| (g[0], g[1]));
    let mut open: Vec<(u8, u8)> = sorted(&view.open).into_iter().filter(|c| Some(*c) != gold).collect();
    open.sort();
    assert_eq!(
        cells_where(&report[1], ["row", "col"], "content", "open"),
        open,
        "the open cells after {steps} reveals"
    );
    let last = body.reveals.last().unwrap();
    assert_eq!(cells_where(&report[2], ["row", "col"], "content", &last.shown), {
        // At the end the hidden hazards of the same kind show too.
        let mut all =
            if last.shown == "pit" { sorted(&body.world.pits) } else { sorted(&[body.world.monster]) };
        all.sort();
        all
    });
    assert_eq!(report[0]["cells"].as_array().unwrap().len(), 16);

    // Hexapawn: every pawn of every frame.
    let replay = longest((0..6).map(|seed| {
        let [mut w, mut b] = [Level::Medium, Level::Hard].map(AbiPlayer::<Hexapawn>::builtin);
        let record = hexapawn::play_agents(&HexapawnSettings::default(), seed, [&mut w, &mut b]);
        Hexapawn::replay(&record, [named("medium"), named("hard")])
            .with_body(arena_core::games::replays::Body::Hexapawn)
    }));
    let Body::Hexapawn(body) = &replay.body else { panic!() };
    let report = drive(&browser, &replay, 2);
    check_counters(&report, &replay, "Move", 2);
    let pawns = |rows: &[String], symbol: char| -> Vec<(u8, u8)> {
        let mut list = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, s) in row.chars().enumerate() {
                if s == symbol {
                    list.push((r as u8, c as u8));
                }
            }
        }
        list
    };
    for (snap, board) in report.iter().zip([&body.start, &body.plies[2].board, &body.final_board]) {
        assert_eq!(cells_where(snap, ["row", "col"], "content", "white"), pawns(&board.rows, 'W'));
        assert_eq!(cells_where(snap, ["row", "col"], "content", "black"), pawns(&board.rows, 'B'));
    }

    // Wumpus World: the agent where each frame puts it, facing its way.
    let replay = longest((0..6).map(|seed| {
        let settings = WumpusSettings::default();
        let game = solo::play::<Wumpus>(&settings, seed, &mut AbiPlayer::<Wumpus>::builtin(Level::Hard));
        Wumpus::replay(&game, &settings, named("hard")).with_body(arena_core::games::replays::Body::Wumpus)
    }));
    let Body::Wumpus(body) = &replay.body else { panic!() };
    let report = drive(&browser, &replay, 3);
    check_counters(&report, &replay, "Action", 3);
    for (snap, agent) in
        report.iter().zip([&body.steps[0].request, &body.steps[3].request, &body.final_state])
    {
        let cells = snap["cells"].as_array().unwrap();
        let here: Vec<&Value> =
            cells.iter().filter(|c| c["content"].as_str().unwrap().starts_with("agent")).collect();
        assert_eq!(here.len(), 1, "one agent");
        assert_eq!([&here[0]["x"], &here[0]["y"]], [&agent.at[0].to_string(), &agent.at[1].to_string()]);
        let pits = cells.iter().filter(|c| c["content"].as_str().unwrap().contains("pit")).count();
        assert_eq!(pits, body.world.pits.len());
        assert!(
            snap["info"].as_str().unwrap().contains(&format!("Score{}", agent.score)),
            "{}",
            snap["info"]
        );
    }

    // Magic Forest: the wanderer, the portal and the forest number.
    let replay = longest((0..6).map(|seed| {
        let mut settings = ForestSettings::default();
        settings.rules.largest = 4;
        let run =
            solo::play::<MagicForest>(&settings, seed, &mut AbiPlayer::<MagicForest>::builtin(Level::Hard));
        MagicForest::replay(&run, &settings, named("hard"))
            .with_body(arena_core::games::replays::Body::MagicForest)
    }));
    let Body::MagicForest(body) = &replay.body else { panic!() };
    let report = drive(&browser, &replay, 2);
    check_counters(&report, &replay, "Action", 2);
    for (snap, at) in report.iter().zip([&body.steps[0].request, &body.steps[2].request, &body.final_state]) {
        assert_eq!(snap["forest"], at.forest.to_string());
        assert_eq!(cells_where(snap, ["x", "y"], "content", "wanderer"), sorted(&[at.at]));
        let forest = &body.forests[at.forest as usize];
        assert_eq!(
            snap["cells"].as_array().unwrap().len(),
            usize::from(forest.size) * usize::from(forest.size)
        );
        let info = snap["info"].as_str().unwrap();
        assert!(info.contains(&format!("Forest{} of {}", at.forest + 1, body.forests.len())), "{info}");
    }
}

/// Players named to break the page that fills a viewer in: a placeholder
/// of its template, the end of its data's script, a comment's start, and
/// JavaScript's line separator. The viewer still draws every turn, and the
/// names reach the page as text.
#[test]
fn a_viewer_of_players_with_hostile_names_still_draws() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let output = arena(&["play", "easy", "hard", "--seed", "31", "--replay", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut replay = GameReplay::read(&file).unwrap();
    let scripts_ends = arena_core::replay::html::page(&replay).matches("</script>").count();
    let hostile = ["/*DATA*/ </script><script>document.title='ran'</script>", "/*SEED*/ <!-- a\u{2028}b"];
    for (player, name) in replay.players.iter_mut().zip(hostile) {
        *player = named(name);
    }
    let html = arena_core::replay::html::page(&replay);
    assert_eq!(html.matches("</script>").count(), scripts_ends, "the page's own scripts' ends, no more");
    let turns = replay.result.turns;
    let report = drive(&browser, &replay, 2);
    assert_eq!(report[1]["counter"], "Turn 2 / ".to_string() + &turns.to_string(), "{report:?}");
    assert_eq!(report[2]["counter"], format!("Turn {turns} / {turns}"), "{report:?}");
    let winner = hostile[replay.result.winner.expect("seed 31 has a winner")];
    let result = report[2]["result"].as_str().unwrap();
    assert!(result.contains(winner.split(' ').next().unwrap()), "the name as text: {result}");
}

#[test]
fn the_viewer_shows_each_players_time_control_and_the_bank_left_after_each_turn() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("odds.json");
    let args = ["play", "easy", "hard", "--seed", "31", "--tc1", "2s+50ms", "--tc2", "500ms"];
    let output = arena(&[&args[..], &["--replay", file.to_str().unwrap()]].concat(), &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let replay = GameReplay::read(&file).unwrap();
    let Body::Trap(body) = &replay.body else { panic!("a Trap replay") };
    let page = dir.path().join("view.html");
    let output = arena(&["replay", file.to_str().unwrap(), "--html", page.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let html = std::fs::read_to_string(&page).unwrap();
    let driven = dir.path().join("driven.html");
    std::fs::write(&driven, html.replacen("</body>", &DRIVER.replace("STEPS", "2"), 1)).unwrap();
    let url = format!("file://{}", driven.display());
    let output = run_chromium(&browser, &["--dump-dom".into(), "--virtual-time-budget=5000".into()], &url);
    let dom = unescape(&String::from_utf8_lossy(&output.stdout));
    assert!(dom.contains("a 2s+50ms time bank (player 1), 500ms per turn (player 2)"), "{dom}");
    let report = dom.split("<pre id=\"test-report\">").nth(1).and_then(|r| r.split("</pre>").next()).unwrap();
    let report: Vec<Value> = serde_json::from_str(report).unwrap();
    // Turn 1: easy, on its bank; turn 2: hard, 500 ms a turn.
    let first = report[1]["info"].as_str().unwrap();
    // 2 s less easy's first turn, plus 50 ms: as the viewer prints seconds.
    let left = format!("Bank left{:.2} s", body.turns[0].bank_left_us.unwrap() as f64 / 1e6);
    assert!(first.contains("a 2s+50ms time bank") && first.contains(&left), "{first} ({left})");
    let second = report[2]["info"].as_str().unwrap();
    assert!(second.contains("500ms per turn") && !second.contains("Bank left"), "{second}");
}
