//! A player's own notes (docs/replays.md): what a Python course player
//! prints and logs, and what a library writes to stderr and stdout, kept
//! beside the turns it was written on, cut at the bounds, shown by
//! `arena replay`; replays with notes, and ones from before notes, verify.

use std::path::Path;

use serde_json::Value;

use crate::players::python::python_env;
use crate::support::{arena, library, pass_env, stderr, stdout, workspace_root};
use arena_core::games::replays::GameReplay;

/// `arena play PLAYER easy --replay FILE` (one game), its replay as JSON,
/// and the seat (0 or 1) `PLAYER` sat in.
fn play_one(player: &str, extra: &[&str], env: &[(&str, &str)], file: &Path) -> (Value, usize) {
    let mut args = vec!["play", player, "easy", "--games", "1", "--seed", "5"];
    args.extend_from_slice(&["--replay", file.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let output = arena(&args, env);
    assert!(output.status.success(), "{}", stderr(&output));
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let seat = replay["players"].as_array().unwrap().iter().position(|p| p["source"] == player).unwrap();
    (replay, seat)
}

/// `arena replay --verify FILE` passes.
fn assert_verifies(file: &Path) {
    let output = arena(&["replay", "--verify", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}{}", stdout(&output), stderr(&output));
}

#[test]
fn a_python_course_players_prints_and_logs_are_its_notes_on_its_own_turns() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let folder = workspace_root().join("arena/tests/python/notes_player");
    let player = format!("python:{}", folder.display());
    let env = python_env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (replay, seat) = play_one(&player, &[], &env, &file);
    let turns = replay["turns"].as_array().unwrap();
    let notes = replay["notes"].as_array().unwrap();
    assert!(!notes.is_empty(), "{replay}");
    let mut moves = 0;
    for (index, turn) in turns.iter().enumerate() {
        let mine = turn["seat"].as_u64() == Some(seat as u64 + 1);
        let note = notes.iter().find(|n| n["turn"] == index);
        assert_eq!(note.is_some(), mine, "a note on each of its turns, none on the other's: turn {index}");
        let Some(note) = note else { continue };
        moves += 1;
        assert_eq!(note["seat"], seat);
        let text = note["text"].as_str().unwrap();
        let said = format!("player {}: my move {moves}\n", seat + 1);
        assert!(text.starts_with(&said), "turn {index}: {text}");
        assert!(text.contains(&format!("logged at move {moves}")), "logging is a note too: {text}");
        if moves == 2 || moves == 3 {
            // 3000 x's (40000 y's) and what came before: 1 KiB kept, the
            // rest counted, all of it this turn's (none left for the next).
            let (kept, cut) = text.split_once(" … [cut: ").unwrap_or_else(|| panic!("{text}"));
            assert_eq!(kept.len(), 1024, "{text}");
            let more: usize = cut.strip_suffix(" bytes more]").unwrap().replace(',', "").parse().unwrap();
            let (fill, long) = if moves == 2 { ('x', 3000) } else { ('y', 40000) };
            let head =
                format!("{said}WARNING:root:logged at move {moves}\n{}\n", fill.to_string().repeat(long));
            let trap = format!("player {}: my trap {moves}", seat + 1);
            // Its throw's line too, unless its move won.
            assert!([head.len() - 1, head.len() + trap.len()].contains(&(1024 + more)), "{more}: {text}");
        } else {
            assert!(!text.contains("[cut"), "{text}");
        }
    }
    assert!(moves >= 4, "{replay}");
    assert_eq!(notes.len(), moves, "{notes:?}");
    assert_verifies(&file);

    // `arena replay` shows each note under its turn, after its seat's number.
    let output = arena(&["replay", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let shown = stdout(&output);
    let line = format!("    {}| player {}: my move 1", seat + 1, seat + 1);
    assert!(shown.contains(&line), "{shown}");
    let first = notes[0]["turn"].as_u64().unwrap() as usize;
    let frames: Vec<&str> = shown.split("\n\n").collect();
    assert!(frames[first + 1].contains(&line), "under frame {}: {}", first + 1, frames[first + 1]);
}

#[test]
fn a_librarys_stdout_and_stderr_are_its_notes_on_its_own_turns() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let bad = library("bad-player");
    let bad = bad.to_str().unwrap();
    let (replay, seat) =
        play_one(bad, &pass_env(&["BAD_PLAYER_MODE"]), &[("BAD_PLAYER_MODE", "chatty")], &file);
    let turns = replay["turns"].as_array().unwrap();
    let notes = replay["notes"].as_array().unwrap();
    let own: Vec<usize> = (0..turns.len()).filter(|&t| turns[t]["seat"] == seat + 1).collect();
    let noted: Vec<usize> = notes.iter().map(|n| n["turn"].as_u64().unwrap() as usize).collect();
    assert_eq!(noted, own, "a note on each of its turns: {notes:?}");
    for note in notes {
        // The player says which turn it thinks about: the one its note is on.
        let turn = &note["turn"];
        let said = format!("thinking about turn {turn} on stdout\nthinking about turn {turn} on stderr");
        assert_eq!(note["text"], said);
        assert_eq!(note["seat"], seat);
    }
    assert_verifies(&file);

    // Played in process, a library shares the arena's stderr: no notes.
    let inside = dir.path().join("inside.json");
    let (replay, _) = play_one(bad, &["--in-process"], &[("BAD_PLAYER_MODE", "chatty")], &inside);
    assert!(replay.get("notes").is_none(), "{replay}");
}

#[test]
fn notes_take_no_part_in_verification_and_a_replay_from_before_notes_still_verifies() {
    // A replay written before notes were kept (the golden file of a Trap game).
    let golden =
        std::fs::read_to_string(workspace_root().join("arena/tests/golden/replays-trap.txt")).unwrap();
    let start = golden.find("=== file replays/game-1-").unwrap();
    let body = &golden[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    let json = &body[..body.find("\n===").unwrap()];
    // Times are masked in golden files: any time verifies.
    let old = json.replace("<T>", "0");
    let replay = GameReplay::parse(old.as_bytes()).unwrap();
    assert!(replay.notes.is_empty());
    replay.verify().unwrap();
    assert_eq!(replay.to_json().trim_end(), old.trim_end(), "a replay without notes is written as before");

    // The same game with notes verifies the same, and shows them.
    let mut noted: Value = serde_json::from_str(&old).unwrap();
    noted["notes"] = serde_json::json!([{"turn": 0, "seat": 0, "text": "<b>bold</b>"}]);
    let noted = GameReplay::parse(noted.to_string().as_bytes()).unwrap();
    assert_eq!(noted.verify(), replay.verify());
    assert_eq!(noted.notes[0].text, "<b>bold</b>");
    // A note of no player is damage.
    let mut bad: Value = serde_json::from_str(&old).unwrap();
    bad["notes"] = serde_json::json!([{"turn": 0, "seat": 2, "text": "x"}]);
    let error = GameReplay::parse(bad.to_string().as_bytes()).unwrap_err();
    assert!(format!("{error:#}").contains("a note's seat 2 is not a player index"), "{error:#}");
}

/// Clicks next `STEPS` times, then last, and reports the notes panel each
/// time: its text, whether it is hidden, and any element a note made.
const NOTES_DRIVER: &str = r##"<script>
(function () {
  const $ = (id) => document.getElementById(id);
  const report = [];
  const snap = () => report.push({
    counter: $("turn-counter").textContent,
    hidden: $("notes").hidden,
    text: $("notes").textContent,
    pres: Array.from(document.querySelectorAll("#notes pre")).map((p) => p.textContent),
    made: document.querySelectorAll("#notes img, #notes b").length,
    title: document.title,
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

#[test]
fn the_viewer_shows_the_turns_notes_as_text_in_a_real_browser() {
    let Some(browser) = crate::support::browser::chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let output = arena(&["play", "easy", "hard", "--seed", "31", "--replay", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let replay = GameReplay::read(&file).unwrap();
    let turns = replay.result.turns;
    let hostile = "<img src=x onerror=\"document.title='ran'\"><b>bold</b>\nsecond line";
    let notes = vec![
        arena_core::replay::notes::Note { turn: 1, seat: 1, text: hostile.into() },
        arena_core::replay::notes::Note { turn: turns, seat: 0, text: "last words".into() },
    ];
    let page = arena_core::replay::html::page(&replay.with_notes(notes));
    let driven = dir.path().join("driven.html");
    std::fs::write(&driven, page.replacen("</body>", &NOTES_DRIVER.replace("STEPS", "2"), 1)).unwrap();
    let url = format!("file://{}", driven.display());
    let output = crate::support::browser::run_chromium(
        &browser,
        &["--dump-dom".into(), "--virtual-time-budget=3000".into()],
        &url,
    );
    let dom = String::from_utf8_lossy(&output.stdout);
    let report = dom.split("<pre id=\"test-report\">").nth(1).and_then(|r| r.split("</pre>").next());
    let report =
        report.unwrap_or_else(|| panic!("no report: {}\n{dom}", String::from_utf8_lossy(&output.stderr)));
    let unescaped =
        report.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&");
    let report: Vec<Value> = serde_json::from_str(&unescaped).unwrap();
    assert_eq!(report[0]["hidden"], true, "no notes at the start: {report:?}");
    // Frame 2 is turn 1: seat 2's note, as text.
    assert_eq!(report[1]["hidden"], false, "{report:?}");
    assert_eq!(report[1]["pres"], serde_json::json!([hostile]), "{report:?}");
    assert_eq!(report[1]["made"], 0, "a note makes no element: {report:?}");
    assert!(report[1]["text"].as_str().unwrap().starts_with("Notes"), "{report:?}");
    // The note past the last turn is on the last frame.
    assert_eq!(report[2]["pres"], serde_json::json!(["last words"]), "{report:?}");
    assert!(report.iter().all(|r| r["title"] != "ran"), "{report:?}");
}

/// The replays a tournament file with `[replays] save = "all"` and `extra`
/// writes, of an Intuitive AI series of the chatty library and easy.
fn tournament_replays(dir: &Path, extra: &str) -> Vec<GameReplay> {
    let bad = library("bad-player");
    let text = format!(
        "game = \"intuitive-ai\"\ngames_per_player = 2\nseed = 4\noutput = \"out\"\n\
         players = [{:?}, \"easy\"]\n[replays]\nsave = \"all\"\n{extra}",
        bad.to_str().unwrap()
    );
    let file = crate::support::write_file(dir, "notes.toml", &text);
    let args = ["tournament", "run", file.to_str().unwrap(), "--pass-env", "BAD_PLAYER_MODE"];
    let output = arena(&args, &[("BAD_PLAYER_MODE", "chatty")]);
    assert!(output.status.success(), "{}", stderr(&output));
    let folder = dir.join("out/replays");
    let mut names: Vec<_> = std::fs::read_dir(&folder).unwrap().flatten().map(|e| e.path()).collect();
    names.sort();
    names
        .iter()
        .filter(|p| p.extension().is_none_or(|e| e != "html"))
        .map(|p| GameReplay::read(p).unwrap())
        .collect()
}

#[test]
fn a_tournament_keeps_a_single_player_games_notes_on_its_steps_unless_told_not_to() {
    let dir = tempfile::tempdir().unwrap();
    let replays = tournament_replays(dir.path(), "");
    assert_eq!(replays.len(), 4);
    let mut noted = 0;
    for replay in &replays {
        if replay.players[0].name == "easy" {
            assert!(replay.notes.is_empty(), "the built-in level writes nothing");
            continue;
        }
        noted += 1;
        let steps: Vec<u32> = replay.notes.iter().map(|n| n.turn).collect();
        assert_eq!(steps, (0..replay.result.turns).collect::<Vec<_>>(), "a note on each step");
        for note in &replay.notes {
            let said = format!("thinking about reveal {} on stderr", note.turn);
            assert!(note.text.ends_with(&said), "{note:?}");
        }
        replay.verify().unwrap();
    }
    assert_eq!(noted, 2);

    // `replays.notes = false` (a server's scrimmages): none kept.
    let other = tempfile::tempdir().unwrap();
    let replays = tournament_replays(other.path(), "notes = false\n");
    assert_eq!(replays.len(), 4);
    assert!(replays.iter().all(|r| r.notes.is_empty()));
}
