//! `arena analyse` (docs/analysis.md): the marks, accuracies and turning
//! point of fixed replays agree with the drops and Lichess's formulas; the
//! analysis is deterministic; Hexapawn's perfect player never drops; the
//! analysed viewer draws its chart and marks in a real browser; bad input
//! is one line, a replay that does not verify too (every game), and a
//! huge name is cut.

use std::path::{Path, PathBuf};

use arena_core::analysis::{game_accuracy, move_accuracy};
use serde_json::Value;

use crate::support::{
    arena,
    browser::{chromium, run_chromium},
    stderr, stdout,
};

/// Plays `args` into the replay `file`.
fn record(file: &Path, args: &[&str]) {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.extend(["--replay", file.to_str().unwrap()]);
    let output = arena(&all, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
}

/// `arena analyse FILE --json` (with `extra`), parsed.
fn analyse(file: &Path, extra: &[&str]) -> Value {
    let mut all = vec!["analyse", file.to_str().unwrap(), "--json"];
    all.extend_from_slice(extra);
    let output = arena(&all, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    serde_json::from_str(stdout(&output).trim()).unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

/// Every turn's drop, mark and accuracy, each player's accuracy and
/// counts, and the turning point, recomputed from the turns' values.
fn check_consistent(analysis: &Value, span: f64) {
    let turns = analysis["turns"].as_array().unwrap();
    assert!(!turns.is_empty());
    for t in turns {
        let drop = (f(&t["before"]) - f(&t["after"])).max(0.0);
        assert!((f(&t["drop"]) - drop).abs() < 1e-12, "{t}");
        let share = drop / span;
        let mark = match share {
            s if s >= 0.3 => "blunder",
            s if s >= 0.2 => "mistake",
            s if s >= 0.1 => "inaccuracy",
            _ => "",
        };
        assert_eq!(t["mark"].as_str().unwrap_or(""), mark, "{t}");
        assert!((f(&t["accuracy"]) - move_accuracy(share)).abs() < 1e-9, "{t}");
        assert!((f(&t["best_value"]) - f(&t["before"])).abs() < 1e-12, "{t}");
    }
    for (i, player) in analysis["players"].as_array().unwrap().iter().enumerate() {
        let own: Vec<&Value> = turns.iter().filter(|t| t["player"] == i).collect();
        let accuracies: Vec<(f64, f64)> = own.iter().map(|t| (f(&t["accuracy"]), f(&t["weight"]))).collect();
        assert!(accuracies.iter().all(|&(_, w)| (0.5..=12.0).contains(&w)), "{accuracies:?}");
        match game_accuracy(&accuracies) {
            Some(a) => assert!((f(&player["accuracy"]) - a).abs() < 1e-9, "{player}"),
            None => assert!(player["accuracy"].is_null()),
        }
        for (count, mark) in
            [("inaccuracies", "inaccuracy"), ("mistakes", "mistake"), ("blunders", "blunder")]
        {
            let n = own.iter().filter(|t| t["mark"] == mark).count();
            assert_eq!(player[count], n, "{player}");
        }
    }
}

#[test]
fn a_trap_replays_marks_accuracy_and_turning_point_follow_its_drops() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    record(&file, &["easy", "hard", "--seed", "31"]);
    let analysis = analyse(&file, &["--nodes", "5000"]);
    check_consistent(&analysis, 1.0);
    // The same replay and budget: the same analysis.
    assert_eq!(analysis, analyse(&file, &["--nodes", "5000"]));
    // The loser's turning point: its first blunder, else its largest drop.
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let loser = 1 - replay["result"]["winner"].as_u64().unwrap() as usize;
    let turns = analysis["turns"].as_array().unwrap();
    let own = || turns.iter().enumerate().filter(|(_, t)| t["player"] == loser);
    let expected = own().find(|(_, t)| t["mark"] == "blunder").map(|(i, _)| i).or_else(|| {
        own()
            .filter(|(_, t)| f(&t["drop"]) > 0.0)
            .max_by(|a, b| f(&a.1["drop"]).total_cmp(&f(&b.1["drop"])))
            .map(|(i, _)| i)
    });
    assert_eq!(analysis["turning_point"].as_u64().map(|i| i as usize), expected);
    // The table names it in one line.
    let output = arena(&["analyse", file.to_str().unwrap(), "--nodes", "5000"], &[]);
    let text = stdout(&output);
    let name = replay["players"][loser]["name"].as_str().unwrap();
    if let Some(i) = expected {
        let line = format!("turning point: {name}'s turn {}, ", turns[i]["turn"]);
        assert!(text.contains(&line), "{text}");
    }
    assert!(text.contains("accuracy"), "{text}");
}

#[test]
fn hexapawns_perfect_player_never_drops_and_every_mark_is_a_blunder() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("games");
    record(&folder, &["--game", "hexapawn", "hard", "easy", "--games", "4", "--seed", "3"]);
    let mut files: Vec<_> = std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 4);
    for file in files {
        let analysis = analyse(&file, &[]);
        check_consistent(&analysis, 1.0);
        let hard = analysis["players"].as_array().unwrap().iter().position(|p| p["name"] == "hard").unwrap();
        for t in analysis["turns"].as_array().unwrap() {
            assert!([0.0, 1.0].contains(&f(&t["before"])), "exact values: {t}");
            if t["player"] == hard {
                assert_eq!(f(&t["drop"]), 0.0, "perfect play drops nothing: {t}");
            }
            assert!(t["mark"].is_null() || t["mark"] == "blunder", "{t}");
        }
        assert!(f(&analysis["players"][hard]["accuracy"]) > 99.99, "{}", analysis["players"][hard]);
    }
}

#[test]
fn an_intuitive_ai_game_is_judged_in_expected_score() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    record(
        &file,
        &["--game", "intuitive-ai", "easy", "--board-size", "3", "--seed", "4", "--only-game", "1"],
    );
    let analysis = analyse(&file, &[]);
    assert_eq!(analysis["measure"]["kind"], "expected_score");
    let span = f(&analysis["measure"]["span"]);
    assert_eq!(span, 3.0);
    check_consistent(&analysis, span);
    for t in analysis["turns"].as_array().unwrap() {
        assert!((-1.0..=2.0).contains(&f(&t["after"])) && f(&t["after"]) <= f(&t["before"]), "{t}");
    }
}

#[test]
fn a_wumpus_world_game_is_judged_in_expected_score_by_rollouts() {
    let turns = rollout_analysis(&["--game", "wumpus", "medium", "--seed", "6", "--only-game", "1"], 2000.0);
    for t in &turns {
        // Between death at once and the gold, and the played never above the best.
        assert!((-1100.0..=1000.0).contains(&f(&t["after"])) && f(&t["after"]) <= f(&t["before"]), "{t}");
    }
}

/// A single-player game played with `args` and analysed with 20 rollouts:
/// in expected score over `span`, consistent, a turn judged per step, the
/// same when analysed again. Its turns.
fn rollout_analysis(args: &[&str], span: f64) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    record(&file, args);
    let analysis = analyse(&file, &["--rollouts", "20"]);
    assert_eq!(analysis["measure"]["kind"], "expected_score");
    assert_eq!(f(&analysis["measure"]["span"]), span);
    check_consistent(&analysis, span);
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let turns = analysis["turns"].as_array().unwrap().clone();
    assert_eq!(turns.len(), replay["steps"].as_array().unwrap().len());
    // The same replay and rollouts: the same analysis.
    assert_eq!(analysis, analyse(&file, &["--rollouts", "20"]));
    turns
}

#[test]
fn a_magic_forest_game_is_judged_in_expected_score_by_rollouts() {
    let args =
        ["--game", "magic-forest", "medium", "--seed", "3", "--only-game", "1", "--largest-forest", "4"];
    let turns = rollout_analysis(&args, 180.0);
    // The best a 3x3 and a 4x4 run can score: both portals (90 + 160), no step paid.
    for t in &turns {
        assert!(f(&t["after"]) <= f(&t["before"]) && f(&t["before"]) < 250.0, "{t}");
    }
}

/// A live game is analysed again as it grows, judging only its new turns
/// (`games::replays::live_analyst`, given its previous analysis): for each
/// game, the first turns taken from an analysis and the rest judged give
/// the analysis judged whole.
#[test]
fn an_analysis_continued_from_its_first_turns_is_the_analysis_judged_whole() {
    let dir = tempfile::tempdir().unwrap();
    let games: [&[&str]; 5] = [
        &["easy", "medium", "--seed", "2", "--only-game", "1"],
        &["--game", "hexapawn", "easy", "medium", "--seed", "2", "--games", "1"],
        &["--game", "intuitive-ai", "medium", "--seed", "2", "--only-game", "1"],
        &["--game", "wumpus", "medium", "--seed", "6", "--only-game", "1"],
        &["--game", "magic-forest", "medium", "--seed", "3", "--only-game", "1", "--largest-forest", "4"],
    ];
    let analyst = arena_core::games::replays::live_analyst(arena_core::analysis::Budget::QUICK);
    for (i, args) in games.into_iter().enumerate() {
        let file = dir.path().join(format!("game-{i}.json"));
        record(&file, args);
        let replay: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let whole: Value = serde_json::from_str(&analyst(&replay, None).expect("analysed")).unwrap();
        let turns = whole["turns"].as_array().unwrap().len();
        assert!(turns >= 3, "{args:?}: a game of a few turns: {whole}");
        for first in [1, turns / 2, turns] {
            let mut earlier = whole.clone();
            earlier["turns"].as_array_mut().unwrap().truncate(first);
            let continued: Value = serde_json::from_str(&analyst(&replay, Some(&earlier)).unwrap()).unwrap();
            assert_eq!(continued, whole, "{args:?}: continued after {first} of {turns} turns");
        }
        // An earlier analysis of more turns than the game has is not this game's.
        let mut longer = whole.clone();
        let extra = longer["turns"][0].clone();
        longer["turns"].as_array_mut().unwrap().push(extra);
        let judged: Value = serde_json::from_str(&analyst(&replay, Some(&longer)).unwrap()).unwrap();
        assert_eq!(judged, whole, "{args:?}: judged whole");
    }
}

#[test]
fn bad_input_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.json");
    let output = arena(&["analyse", missing.to_str().unwrap()], &[]);
    assert!(!output.status.success());
    let err = stderr(&output);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert_eq!(err.matches("missing.json").count(), 1, "the file named once: {err}");
    let forest = dir.path().join("forest.json");
    record(
        &forest,
        &["--game", "magic-forest", "easy", "--seed", "2", "--only-game", "1", "--largest-forest", "3"],
    );
    for (flag, named) in [("--nodes", "--nodes 0"), ("--rollouts", "--rollouts 0")] {
        let output = arena(&["analyse", forest.to_str().unwrap(), flag, "0"], &[]);
        assert!(!output.status.success());
        assert!(stderr(&output).contains(named), "{}", stderr(&output));
    }
    // A broken replay beside a good one: one line for it, the other analysed.
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{ not a replay").unwrap();
    let trap = dir.path().join("trap.json");
    record(&trap, &["easy", "hard", "--seed", "5"]);
    let output =
        arena(&["analyse", broken.to_str().unwrap(), trap.to_str().unwrap(), "--nodes", "2000"], &[]);
    assert!(!output.status.success());
    let err = stderr(&output);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("broken.json"), "{err}");
    assert!(stdout(&output).contains("turning point"), "{}", stdout(&output));
}

/// The replay in `from` as JSON, changed by `change`, written to `dir/name`.
fn tampered(from: &Path, dir: &Path, name: &str, change: impl FnOnce(&mut Value)) -> PathBuf {
    let mut replay: Value = serde_json::from_str(&std::fs::read_to_string(from).unwrap()).unwrap();
    change(&mut replay);
    let file = dir.join(name);
    std::fs::write(&file, replay.to_string()).unwrap();
    file
}

/// Whether Trap's cells `a` and `b` ([row, col]) are a king's step apart.
fn next_to(a: &Value, b: &Value) -> bool {
    let d = |i: usize| (a[i].as_i64().unwrap() - b[i].as_i64().unwrap()).abs();
    d(0).max(d(1)) == 1
}

#[test]
fn a_replay_its_referee_would_not_have_played_is_one_line_in_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let trap = d.join("trap.json");
    record(&trap, &["easy", "hard", "--seed", "5"]);
    let hexapawn = d.join("hexapawn.json");
    record(&hexapawn, &["--game", "hexapawn", "easy", "hard", "--seed", "3"]);
    let wumpus = d.join("wumpus.json");
    record(&wumpus, &["--game", "wumpus", "medium", "--seed", "6", "--only-game", "1"]);
    let intuitive = d.join("intuitive.json");
    record(
        &intuitive,
        &["--game", "intuitive-ai", "easy", "--board-size", "3", "--seed", "4", "--only-game", "1"],
    );
    let forest = d.join("forest.json");
    record(
        &forest,
        &["--game", "magic-forest", "easy", "--seed", "2", "--only-game", "1", "--largest-forest", "3"],
    );
    let files = [
        tampered(&trap, d, "trap-off-board.json", |r| {
            let size = r["settings"]["board_size"].clone();
            r["turns"][0]["move"] = serde_json::json!([r["turns"][0]["from"][0], size]);
        }),
        tampered(&trap, d, "trap-onto-a-trap.json", |r| {
            let turns = r["turns"].as_array_mut().unwrap();
            let (turn, trap) = (turns.iter_mut())
                .find_map(|t| {
                    let trap =
                        t["state"]["traps"].as_array().unwrap().iter().find(|c| next_to(c, &t["from"]))?;
                    let trap = trap.clone();
                    Some((t, trap))
                })
                .expect("a turn beside a trap");
            turn["move"] = trap;
        }),
        tampered(&trap, d, "trap-twice.json", |r| r["turns"][1]["seat"] = r["turns"][0]["seat"].clone()),
        tampered(&trap, d, "trap-over-its-cap.json", |r| {
            r["settings"]["turn_cap"] = (r["turns"].as_array().unwrap().len() - 2).into();
        }),
        tampered(&hexapawn, d, "hexapawn-leap.json", |r| {
            r["plies"][0]["move"] = serde_json::json!([[2, 1], [0, 1]])
        }),
        tampered(&hexapawn, d, "hexapawn-twice.json", |r| {
            r["plies"][1]["seat"] = r["plies"][0]["seat"].clone()
        }),
        tampered(&wumpus, d, "wumpus-over-its-cap.json", |r| {
            r["settings"]["config"]["action_cap"] = (r["steps"].as_array().unwrap().len() - 2).into();
        }),
        tampered(&intuitive, d, "intuitive-open-cell.json", |r| {
            r["reveals"][0]["cell"] = r["reveals"][0]["view"]["open"][0].clone();
        }),
        tampered(&forest, d, "forest-other-step.json", |r| {
            let step = &mut r["steps"][0]["action"];
            step["dir"] = if step["dir"] == "south" { "north" } else { "south" }.into();
        }),
    ];
    for file in files {
        let name = file.file_name().unwrap().to_str().unwrap().to_string();
        let output = arena(&["analyse", file.to_str().unwrap(), "--nodes", "2000", "--rollouts", "1"], &[]);
        let err = stderr(&output);
        assert!(!output.status.success(), "{name}: {}", stdout(&output));
        assert_eq!(err.trim().lines().count(), 1, "{name}: {err}");
        assert!(err.contains("does not verify"), "{name}: {err}");
        assert_eq!(err.matches(&name).count(), 1, "{name} named once: {err}");
        assert!(stdout(&output).is_empty(), "{name}: nothing judged: {}", stdout(&output));
    }
}

#[test]
fn a_players_huge_name_is_cut_and_made_plain_in_what_analyse_prints() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.json");
    record(&game, &["easy", "hard", "--seed", "5"]);
    let name = format!("\x1b]0;pwned\x07{}", "x".repeat(1 << 20));
    let file = tampered(&game, dir.path(), "named.json", |r| r["players"][0]["name"] = name.clone().into());
    let output = arena(&["analyse", file.to_str().unwrap(), "--nodes", "2000"], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    // A line per turn names its mover: cut, the name is a few KiB each time.
    assert!(text.len() < name.len(), "{} bytes printed for a name of {}", text.len(), name.len());
    assert!(!text.contains('\x1b') && !text.contains('\x07'), "no control character reaches the terminal");
    let analysis = analyse(&file, &["--nodes", "2000"]);
    for said in [&analysis["players"][0]["name"], &analysis["summary"]] {
        let said = said.as_str().unwrap();
        assert!(said.len() < 5 << 10 && said.contains("(cut: "), "{}", &said[..100]);
    }
}

/// Jumps with a click on the advantage chart's middle, and reports.
const DRIVER: &str = r##"<script>
window.addEventListener("load", () => setTimeout(() => {
  const box = document.getElementById("advantage"), r = box.getBoundingClientRect();
  const report = { hidden: box.hidden, lines: box.querySelectorAll("polyline").length,
    marks: box.querySelectorAll("circle.mark").length, before: document.body.dataset.turn,
    info: document.getElementById("turn-info").textContent };
  box.dispatchEvent(new MouseEvent("click", { clientX: r.left + r.width / 2, clientY: r.top + 5, bubbles: true }));
  report.after = document.body.dataset.turn;
  report.turns = document.body.dataset.turns;
  const pre = document.createElement("pre");
  pre.id = "test-report";
  pre.textContent = JSON.stringify(report);
  document.body.appendChild(pre);
}, 100));
</script></body>"##;

#[test]
fn the_analysed_viewer_draws_the_advantage_chart_and_the_marks_in_a_real_browser() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    record(&file, &["easy", "hard", "--seed", "31"]);
    let analysis = analyse(&file, &["--nodes", "5000"]);
    let page = dir.path().join("view.html");
    let output =
        arena(&["analyse", file.to_str().unwrap(), "--nodes", "5000", "--html", page.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    // Open it at the first marked turn.
    let turns = analysis["turns"].as_array().unwrap();
    let marked = turns.iter().find(|t| t["mark"] == "blunder").expect("easy blunders against hard");
    let html = std::fs::read_to_string(&page).unwrap().replacen("</body>", DRIVER, 1);
    let driven = dir.path().join("driven.html");
    std::fs::write(&driven, html).unwrap();
    let url = format!("file://{}#turn={}", driven.display(), marked["turn"]);
    let output = run_chromium(&browser, &["--dump-dom".into(), "--virtual-time-budget=5000".into()], &url);
    let dom = String::from_utf8_lossy(&output.stdout);
    let report = dom.split("<pre id=\"test-report\">").nth(1).and_then(|r| r.split("</pre>").next());
    let report: Value =
        serde_json::from_str(&report.unwrap_or_else(|| panic!("no report: {dom}")).replace("&quot;", "\""))
            .unwrap();
    assert_eq!(report["hidden"], false);
    assert_eq!(report["lines"], 1);
    let marks = turns.iter().filter(|t| !t["mark"].is_null()).count();
    assert_eq!(report["marks"], marks);
    assert_eq!(report["before"], marked["turn"].to_string());
    let info = report["info"].as_str().unwrap();
    assert!(
        info.contains("blunder") && info.contains(&format!("Best was{}", marked["best"].as_str().unwrap())),
        "{info}"
    );
    // The click on the middle of the chart jumps to the middle turn.
    let all: usize = report["turns"].as_str().unwrap().parse().unwrap();
    let after: usize = report["after"].as_str().unwrap().parse().unwrap();
    assert!(after.abs_diff(all / 2) <= 1, "clicked to {after} of {all}");
}
