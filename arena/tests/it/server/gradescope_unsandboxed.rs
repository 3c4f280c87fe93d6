//! The Gradescope autograder with the sandbox off (`arena grade autograder
//! --sandbox off`, for containers without user namespaces), where
//! everything runs as root: the attacks of a trial that broke it, by real
//! Python players (arena/tests/python/grader_attacker.py) run by the real
//! `run_autograder`. The player runs as a user of its own, so it reads no
//! secret, writes no results, kills no grader, and nothing of it outlives
//! the grading; it gets its honest grade. A grader killed midway leaves the
//! script's own results.json, never one from before; an arena that cannot
//! run players as another user refuses to grade. These need root (CI runs
//! as root); elsewhere the test says so and skips.

use std::{
    path::{Path, PathBuf},
    process::Stdio,
    time::{Duration, Instant},
};

use serde_json::Value;

use super::{
    gradescope::{course_and_secret, lay_out, results, run_autograder_command, scores, unzip},
    TEST_SECRET,
};
use crate::support::{arena, stderr, unprivileged, workspace_root};
use arena_core::players::isolation::run_as::live_processes;

/// What a forger writes.
const FORGED: &str = "{\"score\": 1000, \"output\": \"forged\"}\n";

/// The players' Python: one every user may run (a pyenv Python under
/// root's home is not).
const PYTHON: &str = "/usr/bin/python3";

#[test]
fn unsandboxed_a_player_runs_as_a_user_of_its_own_and_never_forges_its_grade() {
    let skip = |why: &str| eprintln!("unsandboxed_a_player_runs_as_a_user_of_its_own...: skipped: {why}");
    if !unprivileged::is_root() {
        return skip("it needs root, as a Gradescope autograder runs");
    }
    if !Path::new(PYTHON).is_file() {
        return skip(&format!("{PYTHON} is missing (the players' Python, which any user can run)"));
    }
    let _turn = unprivileged::turn();
    let dir = match unprivileged::folder_others_can_enter() {
        Ok(dir) => dir,
        Err(why) => return skip(&why),
    };
    let autograder = Autograder::build(dir.path());
    autograder.attacks_fail_and_the_grade_is_honest();
    autograder.a_killed_grader_leaves_its_scripts_results();
    autograder.without_root_or_with_open_results_it_refuses();
}

/// An autograder zip made with `--sandbox off`, unpacked in a folder other
/// users can enter, as Gradescope unpacks it into /autograder/source.
struct Autograder {
    dir: PathBuf,
    source: PathBuf,
    /// Where players write their reports (anyone may).
    reports: PathBuf,
}

impl Autograder {
    fn build(dir: &Path) -> Autograder {
        let (course, secret) = course_and_secret(dir);
        let zip = dir.join("autograder.zip");
        let args = [
            "grade",
            "autograder",
            course.to_str().unwrap(),
            "-o",
            zip.to_str().unwrap(),
            "--secret",
            secret.to_str().unwrap(),
            "--sandbox",
            "off",
        ];
        let out = arena(&args, &[]);
        assert!(out.status.success(), "{}", stderr(&out));
        let source = dir.join("source");
        unzip(&zip, &source);
        let setup = std::fs::read_to_string(source.join("setup.sh")).unwrap();
        assert!(setup.contains("useradd --system") && setup.contains(" arena-player\n"), "{setup}");
        let reports = dir.join("reports");
        std::fs::create_dir(&reports).unwrap();
        unprivileged::set_mode(&reports, 0o777).unwrap();
        Autograder { dir: dir.to_path_buf(), source, reports }
    }

    /// Lays out a root for the attacker told `attack`; its root and report.
    fn attacker(&self, attack: &str) -> (PathBuf, PathBuf) {
        let root = self.dir.join(attack);
        let report = self.reports.join(attack);
        let player = std::fs::read(workspace_root().join("arena/tests/python/grader_attacker.py")).unwrap();
        let orders = format!("{attack} {}\n", report.display());
        lay_out(&root, &self.source, &[("attacker.py", &player), ("orders.txt", orders.as_bytes())]);
        (root, report)
    }

    /// The thief, the forger and the daemon: each attempt is refused, the
    /// player passes both levels as it plays, and once `run_autograder` is
    /// done nothing of the player's runs; the results stay its grade.
    fn attacks_fail_and_the_grade_is_honest(&self) {
        let mut graded = Vec::new();
        for attack in ["thief", "forger", "daemon"] {
            let (root, report) = self.attacker(attack);
            // The grader's scratch folder (the grading run, its seed) in /tmp, where the thief looks.
            let out = run_autograder_command(&root, Path::new(PYTHON)).env_remove("TMPDIR").output().unwrap();
            assert!(out.status.success(), "{attack}: {}", stderr(&out));
            let uid = player_uid(&report);
            assert_eq!(live_processes(uid), Vec::<i32>::new(), "{attack}: a process of the player's is left");
            let json = results(&root);
            assert_eq!(json["score"], 90.0, "{attack}: its honest grade: {json:#}");
            assert!(scores(&json).iter().all(|(_, score, max, _)| score == max), "{json:#}");
            let text = std::fs::read_to_string(&report).unwrap();
            assert!(!text.contains("SUCCEEDED"), "{attack}: {text}");
            let refused: &[&str] = match attack {
                "thief" => &[
                    "read the secret: Permission denied",
                    "read the grader's environment: Permission denied",
                    "read the grading run: Permission denied",
                    "list the results: Permission denied",
                ],
                "forger" => {
                    &["write the results: Permission denied", "kill the grader: Operation not permitted"]
                }
                _ => &[": started"],
            };
            for line in refused {
                assert!(text.contains(line), "{attack}: no '{line}' in its report:\n{text}");
            }
            assert!(!text.contains(TEST_SECRET) && !json.to_string().contains(TEST_SECRET), "{text}");
            assert!(
                !text.contains("outlived the grader"),
                "{attack}: a daemon outlived the grading:\n{text}"
            );
            graded.push((root, json));
        }
        // Later, when a daemon would have woken, each is still the grader's.
        std::thread::sleep(Duration::from_millis(500));
        for (root, json) in graded {
            assert_eq!(results(&root), json, "{}", root.display());
        }
        let daemon = std::fs::read_to_string(self.reports.join("daemon")).unwrap();
        assert!(!daemon.contains("outlived the grader"), "{daemon}");
    }

    /// A forged results.json from before, and the grader killed while it
    /// grades: `run_autograder` fails and leaves its own results.json (0
    /// points, how the arena ended); the player's workers die with it.
    fn a_killed_grader_leaves_its_scripts_results(&self) {
        let (root, report) = self.attacker("slow");
        std::fs::write(root.join("results/results.json"), FORGED).unwrap();
        let script = run_autograder_command(&root, Path::new(PYTHON))
            .env_remove("TMPDIR")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_for(Duration::from_secs(60), || {
            std::fs::read_to_string(&report).is_ok_and(|text| text.contains("slow: started"))
        });
        let pid = script.id();
        let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap();
        let grader: i32 = children.split_whitespace().next().expect("the grader runs").parse().unwrap();
        let command = std::fs::read_to_string(format!("/proc/{grader}/cmdline")).unwrap();
        assert!(command.contains("--gradescope"), "{command}");
        // SAFETY: plain syscall, on the arena this test started.
        assert_eq!(unsafe { libc::kill(grader, libc::SIGKILL) }, 0);
        let out = script.wait_with_output().unwrap();
        // Killed, it could not remove its scratch folder (TMPDIR unset: in /tmp).
        let _ = std::fs::remove_dir_all(format!("/tmp/arena-grade-{grader}"));
        assert_eq!(out.status.code(), Some(137), "{}", stderr(&out));
        let json: Value = results(&root);
        assert_eq!(json["score"], 0, "{json:#}");
        let output = json["output"].as_str().unwrap();
        assert!(
            output.starts_with("Not graded: the autograder failed (the arena was killed by signal 9)"),
            "{output}"
        );
        let uid = player_uid(&report);
        wait_for(Duration::from_secs(5), || live_processes(uid).is_empty());
    }

    /// Not root, it cannot run players as another user: it refuses in one
    /// line that says what to do. As root, a results' folder other users
    /// may enter is refused too, naming the fix.
    fn without_root_or_with_open_results_it_refuses(&self) {
        let open = self.dir.join("open");
        std::fs::create_dir(&open).unwrap();
        unprivileged::set_mode(&open, 0o777).unwrap();
        let results = open.join("results.json");
        let grade = |as_nobody: bool| {
            let mut command = std::process::Command::new(self.source.join("arena"));
            command
                .args(["grade", "--gradescope", "--sandbox", "off", "--course"])
                .arg(self.source.join("course.toml"))
                .arg("--secret")
                .arg(self.source.join("secret"))
                .arg("--results")
                .arg(&results)
                .arg(self.dir.join("thief/submission"));
            if as_nobody {
                std::os::unix::process::CommandExt::uid(&mut command, 65534);
                std::os::unix::process::CommandExt::gid(&mut command, 65534);
            }
            command.output().unwrap()
        };
        let refusals = [
            (true, "cannot run players as an unprivileged user: the arena runs as user 65534, not root: run the arena as root with the user `arena-player`"),
            (false, "is open to other users (owner 0, mode 777): the player, run as"),
        ];
        for (as_nobody, expected) in refusals {
            let out = grade(as_nobody);
            assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
            let said = stderr(&out);
            assert_eq!(said.trim().lines().count(), 1, "{said}");
            assert!(said.contains(expected), "{said}");
            let json: Value = serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
            assert_eq!(json["score"], 0);
            assert!(json["output"].as_str().unwrap().contains(expected), "{json}");
        }
    }
}

/// The user a report's player ran as (every process of it the same, not root).
fn player_uid(report: &Path) -> u32 {
    let text = std::fs::read_to_string(report).unwrap_or_else(|e| panic!("{}: {e}", report.display()));
    let uids: Vec<u32> = text
        .lines()
        .filter_map(|l| l.strip_prefix("uid ")?.split_whitespace().next()?.parse().ok())
        .collect();
    assert!(!uids.is_empty(), "the player reported no uid:\n{text}");
    assert!(uids.iter().all(|&uid| uid == uids[0] && uid != 0), "{uids:?}");
    uids[0]
}

/// Waits until `done`, at most `limit`.
fn wait_for(limit: Duration, done: impl Fn() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "not done within {limit:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}
