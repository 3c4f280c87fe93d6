//! The disk a student's player can fill: a player that raises a huge
//! message in every graded game leaves a run folder and database rows of a
//! bounded size, and its student sees the message cut; staff see each
//! group's bytes on disk; `serve prune` removes an old run's replays and
//! keeps the current one's, the grades, and a run still being played.

use std::path::{Path, PathBuf};

use super::{add_student, agent, finished, get, submit, wait_for, Server};
use crate::support::{self, arena, library, stderr, stdout, workspace_root};
use arena_core::play::fault::PLAYER_TEXT_LIMIT;
use serde_json::Value;

/// The bytes of the files under `path`.
fn bytes_under(path: &Path) -> u64 {
    let meta = std::fs::symlink_metadata(path).unwrap();
    if !meta.is_dir() {
        return meta.len();
    }
    std::fs::read_dir(path).unwrap().map(|e| bytes_under(&e.unwrap().path())).sum()
}

/// Every file under `path`, with its size, sorted.
fn files_under(path: &Path) -> Vec<(PathBuf, u64)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(path).into_iter().flatten() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(files_under(&path));
        } else {
            found.push((path.clone(), bytes_under(&path)));
        }
    }
    found.sort();
    found
}

/// A native Python Trap player, packed, that plays the first legal move
/// in the check's smoke games (told apart by their seeds: `arena check`'s
/// public ones) and in every other game raises an exception with a 400 KB
/// message (hex, so that it does not compress, after a 2-byte char).
fn loud_player() -> Vec<u8> {
    let check_seed = arena_core::players::check::SEED;
    let check =
        arena_core::games::trap::referee::player_seeds(arena_core::play::seeds::derive(check_seed, 0));
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("loud");
    std::fs::create_dir(&folder).unwrap();
    support::write_file(
        &folder,
        "loud.py",
        &format!(
            "import os\nfrom arena_player import TrapPlayer\n\n\
             class Loud(TrapPlayer):\n\
             \x20   name = \"loud\"\n\
             \x20   def new_game(self, info):\n\
             \x20       self.checked = info.seed in ({}, {})\n\
             \x20   def get_move(self, state):\n\
             \x20       if not self.checked:\n\
             \x20           raise ValueError(\"\\u00e9\" + os.urandom(200_000).hex())\n\
             \x20       return state.legal_moves()[0]\n\
             \x20   def get_trap(self, state):\n\
             \x20       return [c for c in state.neighbors(state.opponent) if state.is_free(c)][0]\n",
            check[0], check[1]
        ),
    );
    arena_server::client::pack(&folder).unwrap()
}

fn python_path() -> String {
    workspace_root().join("players/python/src").display().to_string()
}

fn add_staff(data: &Path) -> String {
    let out = arena(&["serve", "add-student", "boss", "--staff", "--data", data.to_str().unwrap()], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out).trim().to_string()
}

#[test]
fn a_player_raising_huge_messages_fills_a_bounded_run_and_its_student_sees_them_cut() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let staff = add_staff(data.path());
    // No analysis of the lost games: it rewrites their viewers in the
    // background, and the bytes below are compared as measured at two times.
    let server = Server::start_in(
        data.path(),
        &["--round-robin", "off", "--analysis-nodes", "0"],
        &[("PYTHONPATH", &python_path())],
    );
    let (code, accepted) = submit(&server, Some(&alice), "file", &loud_player());
    assert_eq!(code, 201, "{accepted}");
    let id = accepted["id"].as_i64().unwrap();
    let graded = wait_for(&server, &alice, id, finished);
    assert_eq!(graded["status"], "done", "it passed its smoke games: {graded}");

    // Every game lost by the message, which the student sees cut.
    let reasons = |grade: &Value| -> Vec<String> {
        let levels = grade["levels"].as_array().unwrap().iter();
        let lost = levels.flat_map(|l| l["lost"].as_array().unwrap());
        lost.map(|g| g["reason"].as_str().unwrap().to_string()).collect()
    };
    let shown = reasons(&graded["grade"]);
    assert_eq!(shown.len(), 30, "{}", graded["grade"]);
    for reason in &shown {
        assert!(reason.starts_with("panicked: ValueError: \u{e9}"), "{}", &reason[..80]);
        assert!(reason.contains(" cut"), "{}", &reason[reason.len() - 80..]);
    }
    // As kept: cut where the arena took it in.
    let db = arena_server::store::db::open(data.path()).unwrap();
    let (kept, error): (String, Option<String>) = db
        .query_row("SELECT grade, error FROM submissions WHERE id = ?1", [id], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .unwrap();
    eprintln!("grade {} bytes", kept.len());
    assert!(kept.len() < 200 << 10 && error.is_none(), "{}", kept.len());
    for reason in reasons(&serde_json::from_str(&kept).unwrap()) {
        let tail = &reason[reason.len() - 40..];
        assert!(reason.contains(" ... (cut: ") && tail.ends_with(" bytes)"), "{tail}");
        assert!(reason.len() < PLAYER_TEXT_LIMIT + 100, "{}", reason.len());
    }

    // Uncut, the run took over 100 MB and the grade 12 MB.
    let run = data.path().join(format!("runs/{id}"));
    let run_bytes = bytes_under(&run);
    let replays = bytes_under(&run.join("out/replays"));
    let journal = bytes_under(&run.join("out/journal.jsonl"));
    eprintln!("run {run_bytes} bytes: replays {replays}, journal {journal}");
    // The replays within their budget (viewers and their analysis), the rest small.
    assert!(replays <= arena_server::work::replays::REPLAY_BYTES, "{replays}");
    assert!(run_bytes - replays < 1 << 20, "{run_bytes}");
    assert!(journal < 200 << 10, "{journal}");

    // A lost game's viewer shows the cut message.
    let (code, listed) = get(&server, &format!("/api/submissions/{id}/replays"), Some(&alice));
    assert_eq!(code, 200, "{listed}");
    let first = listed["replays"][0]["url"].as_str().unwrap();
    let mut response = agent()
        .get(format!("{}{first}", server.url))
        .header("Authorization", format!("Bearer {alice}"))
        .call()
        .unwrap();
    let viewer = response.body_mut().read_to_string().unwrap();
    assert!(viewer.contains(" ... (cut: ") && viewer.len() < 64 << 10, "{}", viewer.len());

    // Staff see the group's bytes, measured in the background.
    let started = std::time::Instant::now();
    let storage = loop {
        let (code, groups) = get(&server, "/api/staff/groups", Some(&staff));
        assert_eq!(code, 200, "{groups}");
        let group =
            groups["groups"].as_array().unwrap().iter().find(|g| g["name"] == "alice").unwrap().clone();
        if !group["storage"].is_null() {
            assert!(groups["storage_at"].is_string(), "{groups}");
            break group["storage"].clone();
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "never measured: {groups}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(storage["runs"].as_u64(), Some(run_bytes), "{storage}");
    let uploads = bytes_under(&data.path().join("files")) + bytes_under(&data.path().join("players"));
    assert_eq!(storage["uploads"].as_u64(), Some(uploads), "{storage}");
    assert!(storage["database"].as_u64().unwrap() >= kept.len() as u64, "{storage}");
    let parts = ["uploads", "runs", "scrimmages", "database"].map(|k| storage[k].as_u64().unwrap());
    assert_eq!(storage["total"].as_u64(), Some(parts.iter().sum()), "{storage}");
}

/// `arena serve prune` on data folder `data` with `extra` options:
/// (stdout, stderr).
fn prune(data: &Path, extra: &[&str]) -> (String, String) {
    let out = arena(&[&["serve", "prune", "--data", data.to_str().unwrap()], extra].concat(), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    (stdout(&out), stderr(&out))
}

#[test]
fn serve_prune_removes_an_old_runs_replays_and_keeps_the_current_ones_the_grades_and_a_run_under_way() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    // The third submission plays 40 ms a move: still playing when the server is killed.
    let slow = [("BAD_PLAYER_MODE", "sleep"), ("BAD_PLAYER_SLEEP_MS", "40")];
    let server = Server::start_with(data.path(), &["--round-robin", "off"], &slow);
    let easy = std::fs::read(library("easy")).unwrap();
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (code, accepted) = submit(&server, Some(&alice), "file", &easy);
        assert_eq!(code, 201, "{accepted}");
        let id = accepted["id"].as_i64().unwrap();
        assert_eq!(wait_for(&server, &alice, id, finished)["status"], "done");
        ids.push(id);
    }
    let (code, accepted) =
        submit(&server, Some(&alice), "file", &std::fs::read(library("bad-player")).unwrap());
    assert_eq!(code, 201, "{accepted}");
    let playing = accepted["id"].as_i64().unwrap();
    wait_for(&server, &alice, playing, |s| s["status"] == "playing" && s["played"].as_i64() > Some(0));
    server.kill();

    let run = |id: i64| data.path().join(format!("runs/{id}"));
    let replays = |id: i64| run(id).join("out/replays");
    let (old, current) = (ids[0], ids[1]);
    let old_files = files_under(&replays(old));
    assert!(!old_files.is_empty(), "easy loses games, kept as replays");
    let current_files = files_under(&replays(current));
    let under_way = files_under(&run(playing));
    let old_bytes: u64 = old_files.iter().map(|(_, n)| n).sum();

    let (out, err) = prune(data.path(), &["--dry-run"]);
    let line = format!("{}: {} file(s)", replays(old).display(), old_files.len());
    assert!(out.contains(&line) && out.lines().count() == 1, "{out}");
    let freed = format!(
        "would remove {} file(s) of 1 grading run(s); would free {}",
        old_files.len(),
        arena_core::report::units::bytes(old_bytes)
    );
    assert!(err.contains(&freed), "{err}");
    assert_eq!(files_under(&replays(old)), old_files, "a dry run removes nothing");

    let (out, err) = prune(data.path(), &["--older-than", "1"]);
    assert!(out.is_empty() && err.contains("removed 0 file(s) of 0 grading run(s)"), "{out}{err}");

    let (out, err) = prune(data.path(), &[]);
    assert!(out.contains(&line), "{out}");
    assert!(err.contains(&format!("freed {}", arena_core::report::units::bytes(old_bytes))), "{err}");
    assert!(!replays(old).exists());
    assert!(run(old).join("out/journal.jsonl").is_file(), "the journal stays");
    assert_eq!(files_under(&replays(current)), current_files, "the current submission's are kept");
    assert_eq!(files_under(&run(playing)), under_way, "a run under way is not touched");
    let db = arena_server::store::db::open(data.path()).unwrap();
    for id in [old, current] {
        let grade: Option<String> =
            db.query_row("SELECT grade FROM submissions WHERE id = ?1", [id], |row| row.get(0)).unwrap();
        assert!(grade.is_some_and(|g| g.contains("verdict")), "submission {id} keeps its grade");
    }
    let (_, err) = prune(data.path(), &[]);
    assert!(err.contains("removed 0 file(s)"), "nothing left to remove: {err}");

    let help = stdout(&arena(&["serve", "prune", "--help"], &[]));
    for word in ["--keep", "--older-than", "--dry-run", "replays", "current"] {
        assert!(help.contains(word), "{word}: {help}");
    }
    let refused = arena(&["serve", "prune", "--data", data.path().to_str().unwrap(), "--keep", "0"], &[]);
    assert!(!refused.status.success() && stderr(&refused).contains("--keep 0"), "{}", stderr(&refused));
}
