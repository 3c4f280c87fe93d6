//! Memory across matches (issue 49): `arena play --memory DIR` gives each
//! player the memory it handed back at the end of its last match. Menace
//! (built in, and as a library in a sandboxed worker) continues from its
//! boxes; a library of ABI v2, a Python course player and a program each
//! get theirs back; a store is bounded, and an oversize memory is refused
//! in one line while the match is still played; so is what a Python
//! save_memory hands back that is not bytes; matches that share a folder
//! at once each write their store whole.

use std::path::Path;

use serde_json::Value;

use crate::support::{abi_fixtures, arena, library, play_json, stderr, stdout, workspace_root};

/// The games player 1 (the second named) won among the first `n` of `doc`.
fn wins_of_second(doc: &Value, n: usize) -> usize {
    doc["games"].as_array().unwrap().iter().take(n).filter(|g| g["winner"] == 1).count()
}

fn remembering(player: &str, opponent: &str, dir: &Path, extra: &[&str]) -> Value {
    let dir = dir.display().to_string();
    let args = [
        &["--game", "hexapawn", opponent, player, "--games", "8", "--seed", "5", "--memory", &dir][..],
        extra,
    ]
    .concat();
    play_json(&args, &[])
}

#[test]
fn menace_continues_from_its_boxes_and_wins_more_in_the_second_run() {
    let lib = library("menace").display().to_string();
    for (player, extra) in
        [("menace", &[][..]), (lib.as_str(), &[][..]), (lib.as_str(), &["--in-process"][..])]
    {
        let dir = tempfile::tempdir().unwrap();
        let first = remembering(player, "hard", dir.path(), extra);
        let second = remembering(player, "hard", dir.path(), extra);
        let (before, after) = (wins_of_second(&first, 6), wins_of_second(&second, 6));
        assert!(
            after > before,
            "{player} {extra:?}: {before} wins in the first run's first 6, {after} in the second's"
        );
        // --json shows its boxes: which moves still hold beads.
        let memory = &second["memory"][1];
        assert_eq!(memory["replaced"], true, "{memory}");
        let boxes = memory["content"]["boxes"].as_array().unwrap();
        assert!(!boxes.is_empty() && boxes.iter().all(|b| b["beads"].is_array() && b["board"].is_string()));
        assert!(
            boxes.iter().any(|b| b["beads"].as_array().unwrap().is_empty()),
            "a box it emptied by losing"
        );
    }
}

#[test]
fn a_v2_library_gets_its_memory_back_in_process_and_in_a_worker() {
    let library = abi_fixtures()[1].1.display().to_string();
    for extra in [&[][..], &["--in-process"][..]] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().display().to_string();
        for run in 1..=2u32 {
            let args = [&["--game", "hexapawn", "easy", &library, "--games", "3", "--memory", &d][..], extra]
                .concat();
            play_json(&args, &[]);
            let stores: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
            let store = stores.iter().find(|p| p.to_string_lossy().contains("libabi_v2_player-")).unwrap();
            // Its memory counts the games it played, in every match it remembers.
            assert_eq!(std::fs::read(store).unwrap(), (3 * run).to_le_bytes(), "{extra:?} run {run}");
        }
    }
}

fn python_env() -> Vec<(&'static str, String)> {
    vec![("PYTHONPATH", workspace_root().join("players/python/src").display().to_string())]
}

/// The one store in `dir` whose name starts with `stem`.
fn store(dir: &Path, stem: &str) -> String {
    let found: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(stem))
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    String::from_utf8(std::fs::read(&found[0]).unwrap()).unwrap()
}

#[test]
fn a_python_course_player_and_a_program_get_their_memory_back() {
    let base = python_env();
    let env: Vec<(&str, &str)> = base.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let course = format!("python:{}", workspace_root().join("arena/tests/python/params_course").display());
    let program =
        format!("cmd:python3 {}", workspace_root().join("arena/tests/python/params_program.py").display());
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    for run in 1..=2 {
        play_json(&[&course, "easy", "--games", "3", "--seed", "2", "--memory", &d], &env);
        // Each game's PlayerAI is handed the memory the last one saved: games played.
        assert_eq!(store(dir.path(), "params_course-"), (3 * run).to_string());
        play_json(&[&program, "easy", "--games", "2", "--seed", "2", "--memory", &d], &env);
        // A program's: the matches it finished.
        assert_eq!(store(dir.path(), "cmd-").trim(), run.to_string());
    }
    // What it was given reached it: a course player says so when told to.
    let doc = play_json(&[&course, "easy", "--seed", "2", "--memory", &d, "--param", "echo=1"], &env);
    assert!(doc["games"][0]["reason"].as_str().unwrap().contains("games 6"), "{doc}");
}

#[test]
fn an_oversize_memory_is_refused_in_one_line_and_the_match_still_counts() {
    let program =
        format!("cmd:python3 {}", workspace_root().join("arena/tests/python/params_program.py").display());
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    let run = |grow: &str| {
        arena(
            &["play", &program, "easy", "--games", "2", "--seed", "2", "--memory", &d, "--param", grow],
            &[],
        )
    };
    assert!(run("grow=0").status.success());
    assert_eq!(store(dir.path(), "cmd-"), "1");
    // 1100 KiB handed back: over the bound of 1 MiB.
    let output = run("grow=1100");
    assert!(output.status.success(), "the match is played: {}", stderr(&output));
    let err = stderr(&output);
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("memory")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(warnings[0].contains("over the bound of 1048576: not kept"), "{err}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("2 games"), "the results stand");
    assert_eq!(store(dir.path(), "cmd-"), "1", "the store keeps what it had");
    // A store over the bound (put there by hand) is not given: one line, and the match played.
    let path = std::fs::read_dir(dir.path()).unwrap().next().unwrap().unwrap().path();
    std::fs::write(&path, vec![b'1'; (1 << 20) + 1]).unwrap();
    let output = run("grow=0");
    assert!(output.status.success());
    assert!(stderr(&output).contains("over the bound of 1048576: not given"), "{}", stderr(&output));
}

#[test]
fn matches_that_share_a_memory_folder_at_once_each_keep_their_memory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    let args =
        ["play", "--game", "hexapawn", "easy", "menace", "--games", "2", "--seed", "4", "--memory", &d];
    // Three of the same match at once, so that they end (and keep menace's
    // store) at about the same moment; again, a few times.
    for round in 0..4 {
        let outputs: Vec<_> = std::thread::scope(|s| {
            let runs: Vec<_> = (0..3).map(|_| s.spawn(|| arena(&args, &[]))).collect();
            runs.into_iter().map(|run| run.join().unwrap()).collect()
        });
        for output in outputs {
            assert!(output.status.success(), "round {round}: {}", stderr(&output));
            assert!(!stderr(&output).contains("memory"), "round {round}: a write lost: {}", stderr(&output));
        }
    }
    let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(files, ["menace.memory"], "one store, no write's file left");
    let boxes = beads(&dir.path().join("menace.memory"));
    assert!(!boxes.is_empty(), "a match's boxes, whole");
}

#[test]
fn a_python_save_memory_that_hands_back_no_bytes_is_one_line_naming_memory() {
    let base = python_env();
    let env: Vec<(&str, &str)> = base.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let course =
        format!("python:{}", workspace_root().join("arena/tests/python/bad_memory_course").display());
    for (kind, said) in [
        ("kind=1", "save_memory returned int, not bytes: 5"),
        ("kind=2", "save_memory returned str, not bytes: 'five'"),
        ("kind=3", "save_memory returned dict, not bytes: {'five': 5}"),
        ("kind=4", "save_memory raised ValueError: no memory today (at PlayerAI.py:"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().display().to_string();
        let run = |kind: &str| {
            arena(
                &["play", &course, "easy", "--games", "2", "--seed", "2", "--memory", &d, "--param", kind],
                &env,
            )
        };
        assert!(run("kind=0").status.success());
        assert_eq!(store(dir.path(), "bad_memory_course-"), "kept");
        let output = run(kind);
        assert!(output.status.success(), "{kind}: {}", stderr(&output));
        let err = stderr(&output);
        let warnings: Vec<&str> = err.lines().filter(|l| l.contains("memory")).collect();
        assert_eq!(warnings.len(), 1, "{kind}: {err}");
        assert!(warnings[0].contains(said), "{kind}: {err}");
        assert!(stdout(&output).contains("2 games"), "{kind}: the results stand: {}", stdout(&output));
        assert_eq!(store(dir.path(), "bad_memory_course-"), "kept", "{kind}: the store keeps what it had");
    }
}

/// Every box's beads in a menace store, by position.
fn beads(store: &Path) -> std::collections::BTreeMap<String, usize> {
    let doc: Value = serde_json::from_slice(&std::fs::read(store).unwrap()).unwrap();
    let boxes = doc["boxes"].as_array().unwrap();
    boxes.iter().map(|b| (b["board"].to_string(), b["beads"].as_array().unwrap().len())).collect()
}

#[test]
fn bench_keeps_the_players_memory_from_run_to_run() {
    let (dir, fresh) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let bench = |dir: &Path| {
        let dir = dir.display().to_string();
        let out = arena(
            &["bench", "--game", "hexapawn", "menace", "--games", "6", "--seed", "3", "--memory", &dir],
            &[],
        );
        assert!(out.status.success(), "{}", stderr(&out));
    };
    bench(dir.path());
    let first = beads(&dir.path().join("menace.memory"));
    bench(fresh.path());
    assert_eq!(beads(&fresh.path().join("menace.memory")), first, "the same seed, the same boxes");
    // The second run starts from the first's boxes: it meets every one of
    // them again, and only ever takes beads away.
    bench(dir.path());
    let second = beads(&dir.path().join("menace.memory"));
    for (board, n) in &first {
        assert!(
            second.get(board).is_some_and(|m| m <= n),
            "{board}: {n} beads, then {:?}",
            second.get(board)
        );
    }
    assert_ne!(second, first, "it went on learning");
    // Only two-player matches keep a memory.
    let out =
        arena(&["bench", "--game", "wumpus", "easy", "--memory", &dir.path().display().to_string()], &[]);
    assert!(!out.status.success());
    let said = stderr(&out);
    assert!(said.contains("--memory") && said.trim().lines().count() == 1, "{said}");
}

#[test]
fn the_last_replay_of_a_remembering_match_holds_menaces_boxes_and_the_viewer_draws_them() {
    let dir = tempfile::tempdir().unwrap();
    let (mem, replays) = (dir.path().join("mem"), dir.path().join("replays"));
    let doc = play_json(
        &[
            "--game",
            "hexapawn",
            "hard",
            "menace",
            "--games",
            "4",
            "--seed",
            "5",
            "--memory",
            mem.to_str().unwrap(),
            "--replay",
            replays.to_str().unwrap(),
        ],
        &[],
    );
    let mut files: Vec<_> = std::fs::read_dir(&replays)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 4, "{files:?}");
    let read = |path: &Path| -> Value { serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap() };
    for earlier in &files[..3] {
        assert!(read(earlier).get("memory").is_none(), "only the match's last game: {earlier:?}");
    }
    let last = read(&files[3]);
    let seat = last["players"].as_array().unwrap().iter().position(|p| p["source"] == "menace").unwrap();
    // The boxes the match left, as --json shows them; hard's seat holds none.
    assert_eq!(last["memory"][seat], doc["memory"][1]["content"], "{last}");
    assert_eq!(last["memory"][1 - seat], Value::Null);
    let boxes = last["memory"][seat]["boxes"].as_array().unwrap();
    let beads: usize = boxes.iter().map(|b| b["beads"].as_array().unwrap().len()).sum();

    let Some(chromium) = crate::support::browser::chromium() else { return };
    let page = dir.path().join("last.html");
    let out = arena(&["replay", files[3].to_str().unwrap(), "--html", page.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut browser = crate::support::devtools::Browser::start(&chromium);
    browser.open(&format!("file://{}", page.display()));
    browser.wait_for("document.getElementById('slider') !== null", std::time::Duration::from_secs(20));
    // Before the last move: no boxes; at the end: Gardner's picture.
    assert_eq!(browser.eval("document.querySelectorAll('.menace-box').length"), 0);
    browser.eval(
        "const s = document.getElementById('slider'); s.value = s.max; s.dispatchEvent(new Event('input'))",
    );
    browser.wait_for("document.querySelector('.menace-boxes') !== null", std::time::Duration::from_secs(20));
    let said = browser.eval("document.querySelector('.menace-boxes').textContent");
    let said = said.as_str().unwrap();
    assert!(said.starts_with(&format!("{} boxes, {beads} beads left", boxes.len())), "{said}");
    assert_eq!(browser.eval("document.querySelectorAll('.menace-box').length"), boxes.len());
    let empty = boxes.iter().filter(|b| b["beads"].as_array().unwrap().is_empty()).count();
    assert_eq!(browser.eval("document.querySelectorAll('.menace-box.empty').length"), empty);
    let label = browser.eval("document.getElementById('turn-info').innerText");
    assert!(label.as_str().unwrap().contains("menace's boxes after the match"), "{label}");
}
