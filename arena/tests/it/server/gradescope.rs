//! The arena as a Gradescope autograder: `arena grade` by a course file,
//! and `arena gradescope-autograder`'s zip unpacked into a scratch root
//! laid out as Gradescope's `/autograder` (source/, submission/,
//! results/), its `run_autograder` run for real on a Python player (with
//! a Python that has only the zip's own Python host), a Rust library and
//! broken submissions.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use serde_json::Value;

use super::TEST_SECRET;
use crate::support::{self, arena, stderr, stdout};

/// Two levels, 4 games each: the points the course file gives each.
pub(super) const COURSE: &str = r#"
name = "Gradescope test"
[[assignment]]
name = "trap"
title = "Trap"
game = "trap"
[assignment.settings]
time_per_turn = "1s"
[assignment.grading]
levels = ["easy", "medium"]
games = 4
wins_to_pass = [2, 1]
[assignment.points]
per_level = [60, 30]
share = 10
"#;

/// A native Python Trap player that beats Easy and Medium: it moves where
/// it keeps the most room and traps the opponent's roomiest way out. It
/// needs nothing but arena_player (no numpy).
const MOBILE: &str = "from arena_player import TrapPlayer\n\n\
class Mobile(TrapPlayer):\n\
\x20   name = \"mobile\"\n\n\
\x20   def room(self, state, cell):\n\
\x20       return len([n for n in state.neighbors(cell) if state.is_free(n)])\n\n\
\x20   def get_move(self, state):\n\
\x20       return max(state.legal_moves(), key=lambda c: self.room(state, c))\n\n\
\x20   def get_trap(self, state):\n\
\x20       free = [c for c in state.neighbors(state.opponent) if state.is_free(c)]\n\
\x20       return max(free, key=lambda c: self.room(state, c))\n";

/// A submission's files: each one's name and bytes.
pub(super) type Files<'a> = &'a [(&'a str, &'a [u8])];

/// The course file and the secret in `dir`.
pub(super) fn course_and_secret(dir: &Path) -> (PathBuf, PathBuf) {
    (support::write_file(dir, "course.toml", COURSE), support::write_file(dir, "secret", TEST_SECRET))
}

/// Unpacks `zip` into `into` as Gradescope does, keeping each file's unix
/// permissions.
pub(super) fn unzip(zip: &Path, into: &Path) {
    let mut archive = zip::ZipArchive::new(std::fs::File::open(zip).unwrap()).unwrap();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).unwrap();
        let path = into.join(entry.enclosed_name().unwrap());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut file = std::fs::File::create(&path).unwrap();
        std::io::copy(&mut entry, &mut file).unwrap();
        use std::os::unix::fs::PermissionsExt;
        let mode = entry.unix_mode().expect("the zip sets each file's permissions");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
}

/// Lays out a scratch `/autograder` for one submission: `source` (the
/// unpacked zip, shared), `submission/` holding `files` (name, bytes), an
/// empty `results/`.
pub(super) fn lay_out(root: &Path, source: &Path, files: Files) {
    std::fs::create_dir_all(root.join("submission")).unwrap();
    std::fs::create_dir_all(root.join("results")).unwrap();
    std::os::unix::fs::symlink(source, root.join("source")).unwrap();
    for (name, bytes) in files {
        std::fs::write(root.join("submission").join(name), bytes).unwrap();
    }
}

/// The `run_autograder` of the root laid out at `root`, to run with
/// `python` as the players' Python and no PYTHONPATH of the test's own.
pub(super) fn run_autograder_command(root: &Path, python: &Path) -> Command {
    let mut command = Command::new(root.join("source/run_autograder"));
    command
        .current_dir(root)
        .env("ARENA_AUTOGRADER_ROOT", root)
        .env("ARENA_PYTHON", python)
        .env_remove("PYTHONPATH");
    command
}

/// The results.json under `root`.
pub(super) fn results(root: &Path) -> Value {
    let text = std::fs::read_to_string(root.join("results/results.json")).expect("results.json is written");
    serde_json::from_str(&text).unwrap()
}

/// Lays out a root for `files` and runs its `run_autograder`, which must
/// succeed; the results.json.
fn run_autograder(root: &Path, source: &Path, files: Files, python: &Path) -> Value {
    lay_out(root, source, files);
    let out = run_autograder_command(root, python).output().expect("run_autograder runs (it is executable)");
    assert!(out.status.success(), "{}", stderr(&out));
    results(root)
}

pub(super) fn scores(results: &Value) -> Vec<(String, f64, f64, String)> {
    results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_string(),
                t["score"].as_f64().unwrap(),
                t["max_score"].as_f64().unwrap(),
                t["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn run_autograder_grades_a_python_player_and_a_library_and_gives_broken_ones_zero_with_the_cause() {
    let dir = tempfile::tempdir().unwrap();
    let (course, secret) = course_and_secret(dir.path());
    let zip = dir.path().join("autograder.zip");
    let out = arena(
        &[
            "gradescope-autograder",
            course.to_str().unwrap(),
            "--assignment",
            "trap",
            "-o",
            zip.to_str().unwrap(),
            "--secret",
            secret.to_str().unwrap(),
        ],
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("autograder.zip"), "{}", stdout(&out));
    let source = dir.path().join("source");
    unzip(&zip, &source);
    for executable in ["setup.sh", "run_autograder", "arena"] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(source.join(executable)).unwrap().permissions().mode();
        assert_eq!(mode & 0o111, 0o111, "{executable} is executable");
    }
    assert_eq!(std::fs::read_to_string(source.join("course.toml")).unwrap(), COURSE);
    assert!(std::fs::read_to_string(source.join("setup.sh")).unwrap().contains("apt-get install"));
    // The bundled Python host is what Python players get: a Python that
    // has no arena_player of its own (a bare venv) and no PYTHONPATH.
    let bare = support::python_venv(dir.path(), "bare");
    let no_host =
        Command::new(&bare).args(["-c", "import arena_player"]).env_remove("PYTHONPATH").output().unwrap();
    assert!(!no_host.status.success(), "the bare venv has no arena_player of its own");

    let python =
        run_autograder(&dir.path().join("python"), &source, &[("mobile.py", MOBILE.as_bytes())], &bare);
    assert_eq!(
        scores(&python),
        [
            ("easy (2 wins of 4 games to pass)".into(), 60.0, 60.0, "passed".into()),
            ("medium (1 win of 4 games to pass)".into(), 30.0, 30.0, "passed".into()),
        ],
        "{python:#}"
    );
    assert_eq!(python["score"], 90.0, "{python:#}");
    assert!(python["output"].as_str().unwrap().starts_with("Trap: PASS"), "{python:#}");
    let board = python["leaderboard"].as_array().unwrap();
    let entry =
        |name: &str| board.iter().find(|e| e["name"] == name).unwrap_or_else(|| panic!("{name}: {python:#}"));
    assert_eq!(entry("Levels passed")["value"], 2.0);
    assert_eq!(entry("Levels passed")["order"], "desc");
    assert!(entry("Mean time per move (ms)")["value"].as_f64().unwrap() > 0.0);
    assert_eq!(entry("Mean time per move (ms)")["order"], "asc");

    // A Rust player: its library, as a student uploads it.
    let library = std::fs::read(support::library("hard")).unwrap();
    let rust = run_autograder(&dir.path().join("rust"), &source, &[("libmy_bot.so", &library)], &bare);
    assert_eq!(rust["score"], 90.0, "{rust:#}");
    assert!(scores(&rust).iter().all(|(_, score, max, status)| score == max && status == "passed"));

    // Broken: each gets a results.json with 0 points and its cause first.
    let broken: [(&str, Files, &str); 3] = [
        (
            "syntax",
            &[("PlayerAI.py", b"class PlayerAI(:\n")],
            "Not graded: cannot load player 'python:",
        ),
        ("none", &[("notes.txt", b"we ran out of time")], "holds no Python player: a course folder with PlayerAI.py"),
        (
            "raises",
            &[(
                "crash.py",
                b"from arena_player import TrapPlayer\nclass Crash(TrapPlayer):\n    def get_move(self, state):\n        raise RuntimeError('my bug')\n",
            )],
            "Not graded: it made no legal move in its smoke games: Crash lost by a fault: panicked: RuntimeError: my bug",
        ),
    ];
    for (name, files, cause) in broken {
        let results = run_autograder(&dir.path().join(name), &source, files, &bare);
        assert_eq!(results["score"], 0.0, "{name}: {results:#}");
        let first = results["output"].as_str().unwrap().lines().next().unwrap().to_string();
        assert!(first.starts_with("Not graded: "), "{name}: {first}");
        assert!(first.contains(cause), "{name}: {first}");
        assert!(scores(&results).iter().all(|(_, score, _, status)| *score == 0.0 && status == "failed"));
    }
    let syntax = std::fs::read_to_string(dir.path().join("syntax/results/results.json")).unwrap();
    assert!(syntax.contains("syntax error"), "{syntax}");
}

#[test]
fn arena_grade_prints_the_verdict_and_points_and_refuses_bad_input_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let (course, secret) = course_and_secret(dir.path());
    std::fs::create_dir(dir.path().join("mobile")).unwrap();
    let player = support::write_file(&dir.path().join("mobile"), "mobile.py", MOBILE);
    let course = course.to_str().unwrap();
    let out = arena(
        &[
            "grade",
            "--course",
            course,
            "--secret",
            secret.to_str().unwrap(),
            player.parent().unwrap().to_str().unwrap(),
        ],
        &[("PYTHONPATH", &support::workspace_root().join("players/python/src").display().to_string())],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("easy") && lines[0].ends_with("passed (60 points)"), "{text}");
    assert!(lines[1].starts_with("medium") && lines[1].ends_with("passed (30 points)"), "{text}");
    assert!(text.contains("PASS\npoints: 90"), "{text}");
    // Graded under the assignment's settings, as the server grades: its
    // time per turn and clock, its levels and games (kept with --keep).
    let kept = dir.path().join("kept");
    let mut args = vec!["grade", "--course", course, "--keep", kept.to_str().unwrap()];
    args.push(player.parent().unwrap().to_str().unwrap());
    let out = arena(&args, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let run: toml::Table = std::fs::read_to_string(kept.join("run/grade.toml")).unwrap().parse().unwrap();
    assert_eq!(run["settings"]["time_per_turn"].as_str(), Some("1s"));
    assert_eq!(run["settings"]["clock"].as_str(), Some("cpu"), "the server's clock by default");
    assert_eq!(run["wins_to_pass"], toml::Value::Array(vec![2.into(), 1.into()]));
    assert_eq!(support::journal_games(&kept.join("run/out")).len(), 8, "4 games against each level");

    // A single-player assignment: passed on mean scores, against the
    // levels' on the same worlds; its leaderboard has the mean score.
    let solo = support::write_file(
        dir.path(),
        "solo.toml",
        "[[assignment]]\nname = \"wumpus\"\ngame = \"wumpus\"\n[assignment.grading]\nlevels = [\"easy\"]\n\
         games = 20\nscore_margin = [0]\n[assignment.points]\nper_level = [5]\n",
    );
    let results = dir.path().join("solo/results.json");
    let library = support::library("hard");
    let args = [
        "grade",
        "--course",
        solo.to_str().unwrap(),
        library.to_str().unwrap(),
        "--gradescope",
        "--results",
        results.to_str().unwrap(),
    ];
    let out = arena(&args, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(json["score"], 5.0, "Hard beats Easy's mean: {json:#}");
    assert_eq!(json["tests"][0]["name"], "easy (a mean score at least the level's, on the same 20 worlds)");
    assert!(json["tests"][0]["output"].as_str().unwrap().starts_with("Passed: mean score "), "{json:#}");
    assert!(json["leaderboard"].as_array().unwrap().iter().any(|e| e["name"] == "Mean score"), "{json:#}");

    let missing = dir.path().join("nowhere.toml");
    let zip = dir.path().join("autograder.zip");
    let zip = zip.to_str().unwrap();
    let nowhere = dir.path().join("no-host");
    let nowhere = nowhere.to_str().unwrap();
    let cases = [
        (vec!["grade", "--course", missing.to_str().unwrap(), "x.so"], "cannot read the course file"),
        (
            vec!["grade", "--course", course, "--assignment", "chess", "x.so"],
            "the course has no assignment 'chess' (it has trap)",
        ),
        (
            vec!["gradescope-autograder", course, "--assignment", "chess", "-o", zip],
            "the course has no assignment 'chess' (it has trap)",
        ),
        (
            vec!["gradescope-autograder", course, "-o", zip, "--python-host", nowhere],
            "is not the arena_player package (no __main__.py): give --python-host",
        ),
    ];
    for (args, expected) in cases {
        let out = arena(&args, &[]);
        assert!(!out.status.success());
        let error = stderr(&out);
        assert_eq!(error.trim().lines().count(), 1, "{error}");
        assert!(error.contains(expected), "{error}");
    }
    assert!(!Path::new(zip).exists(), "no zip is left behind by a refusal");
    // With --gradescope a misconfigured autograder still leaves a
    // results.json, where the autograder root says (no --results).
    let root = dir.path().join("root");
    let out = arena(
        &["grade", "--course", course, "--assignment", "chess", "x.so", "--gradescope"],
        &[("ARENA_AUTOGRADER_ROOT", root.to_str().unwrap())],
    );
    assert!(!out.status.success());
    let results = root.join("results/results.json");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(json["score"], 0);
    assert!(json["output"].as_str().unwrap().contains("no assignment 'chess'"), "{json}");
}
