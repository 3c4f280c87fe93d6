//! Python players as the course lays them out (test players in
//! `test_players/`, one folder below the course's `Grid.py`, `BaseAI.py`
//! and `Utils.py`, each class under its own name), and Python players run
//! by a virtual environment's interpreter (`ARENA_PYTHON`). Runs the arena
//! binary, sandboxed as it is by default. Needs python3 with numpy.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use crate::support::{self, arena, stderr, workspace_root};
use serde_json::Value;

/// The course's layout, with the arena's tests' own Grid.py, BaseAI.py,
/// Utils.py (and the students' empty PlayerAI.py) at its root.
fn course_root() -> PathBuf {
    workspace_root().join("arena/tests/python/course_layout")
}

fn test_player(file: &str) -> String {
    format!("python:{}", course_root().join("test_players").join(file).display())
}

/// The repository's arena_player, as every Python test here uses it.
fn package() -> String {
    workspace_root().join("players/python/src").display().to_string()
}

fn play(player: &str) -> Value {
    support::play_json(&[player, "easy", "--games", "2", "--seed", "5"], &[("PYTHONPATH", &package())])
}

/// Asserts player 0 is `name` and played both games to their end, without
/// a failure of its own.
fn assert_plays_as(doc: &Value, name: &str) {
    let me = &doc["players"][0];
    assert_eq!(me["name"], Value::from(name), "{me}");
    let failures = me["failures"].as_object().unwrap();
    assert!(failures.values().all(|n| n == 0), "{name}: {failures:?}");
    let games = doc["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    for game in games {
        let reason = game["reason"].as_str().unwrap();
        assert!(reason == "trapped" || reason == "boxed in", "{name}: {game}");
    }
}

/// Runs `arena play PLAYER easy` expecting a load error; returns its one line.
fn load_error(player: &str) -> String {
    let output = arena(&["play", player, "easy"], &[("PYTHONPATH", &package())]);
    assert_eq!(output.status.code(), Some(2), "{player}");
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with(&format!("error: cannot load player '{player}': ")), "{err}");
    err
}

#[test]
fn a_course_test_player_under_its_own_name_plays_on_the_courses_grid() {
    // SomeAI raises (and so loses) on any Grid but the course root's, which
    // the sandbox must let it read: clean games say it got that one.
    assert_plays_as(&play(&test_player("SomeAI.py")), "SomeAI");
}

#[test]
fn two_player_classes_in_a_file_are_listed_and_one_is_named_after_the_path() {
    let twins = test_player("Twins.py");
    let err = load_error(&twins);
    assert!(
        err.ends_with(
            "Twins.py defines several player classes (LeftAI, RightAI): name one after the path, as in python:.../Twins.py:LeftAI\n"
        ),
        "{err}"
    );
    assert_plays_as(&play(&format!("{twins}:RightAI")), "RightAI");
    let left = play(&format!("{twins}:LeftAI"));
    assert_plays_as(&left, "LeftAI");
    let right = play(&format!("{twins}:RightAI"));
    assert_ne!(left["games"], right["games"], "two classes, two ways of playing");

    let err = load_error(&format!("{twins}:MiddleAI"));
    assert!(
        err.ends_with("Twins.py has no class MiddleAI: its player classes are LeftAI, RightAI\n"),
        "{err}"
    );
}

/// A virtual environment without the system's site-packages, in `dir`,
/// with the repository's arena_player installed by a .pth file (offline).
/// Returns its python.
fn venv(dir: &Path) -> PathBuf {
    let python = support::python_venv(dir, "arena-test-venv");
    let ask = "import sysconfig; print(sysconfig.get_paths()['purelib'])";
    let out = Command::new(&python).args(["-c", ask]).output().unwrap();
    let site_packages = String::from_utf8(out.stdout).unwrap();
    std::fs::write(Path::new(site_packages.trim()).join("arena_player.pth"), package() + "\n").unwrap();
    python
}

#[test]
fn arena_python_may_be_a_virtual_environments_interpreter() {
    let dir = tempfile::tempdir().unwrap();
    let python = venv(dir.path());
    // The venv's python is a symlink to the base interpreter; run by that,
    // it would not be in the venv and (no PYTHONPATH) not find arena_player.
    let player = workspace_root().join("arena/tests/python/venv_player.py");
    let args = [&format!("python:{}", player.display()), "easy", "--games", "2", "--seed", "5"];
    let env = [("ARENA_PYTHON", python.to_str().unwrap()), ("PYTHONPATH", "")];
    let doc = support::play_json(&args, &env);
    // The player names itself after sys.prefix's folder: the venv's.
    assert_plays_as(&doc, "arena-test-venv");

    let output = arena(&["check", args[0]], &env);
    let text = support::stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    assert!(text.contains(&format!("runs        {} -m arena_player", python.display())), "{text}");
}
