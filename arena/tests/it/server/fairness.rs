//! Fair verdicts: a grade says what it was made under (the budget, the
//! clock, the CPU clock by default, and a grace given), settings changed after grading are
//! found at start and graded again on request, and finalize under other
//! settings plays its class tournament afresh instead of failing.

use std::process::Stdio;

use serde_json::Value;

use super::{add_student, finished, get, submit, wait_for, Server};
use crate::support::{self, arena, library, stdout};

/// A quick Trap assignment at `budget` a turn, on `clock` (None: the server's default).
fn course(budget: &str, clock: Option<&str>) -> String {
    let clock = clock.map(|c| format!("clock = \"{c}\"\n")).unwrap_or_default();
    format!(
        "[[assignment]]\nname = \"trap\"\ngame = \"trap\"\n[assignment.settings]\ntime_per_turn = \"{budget}\"\n{clock}\
         [assignment.grading]\nlevels = [\"easy\"]\ngames = 2\nwins_to_pass = [0]\n[assignment.tournament]\ngames = 2\n"
    )
}

fn under(submission: &Value) -> (String, String) {
    let under = &submission["graded_under"];
    (under["time_per_turn"].as_str().unwrap_or("").into(), under["clock"].as_str().unwrap_or("").into())
}

#[test]
fn a_grade_says_what_it_was_made_under_and_a_change_of_settings_is_found_and_graded_again() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_str().unwrap();
    let (ann, bo) = (add_student(data.path(), "ann"), add_student(data.path(), "bo"));
    let first = support::write_file(data.path(), "first.toml", &course("2s", None));
    let server = Server::start(data.path(), &["--course", first.to_str().unwrap(), "--round-robin", "off"]);
    let send = |token: &str, level: &str| {
        let (code, accepted) = submit(&server, Some(token), "file", &std::fs::read(library(level)).unwrap());
        assert_eq!(code, 201, "{accepted}");
        accepted["id"].as_i64().unwrap()
    };
    let (a, b) = (send(&ann, "easy"), send(&bo, "hard"));
    for (token, id) in [(&ann, a), (&bo, b)] {
        let graded = wait_for(&server, token, id, finished);
        assert_eq!(graded["status"], "done", "{graded}");
        // The server's default clock is the CPU time.
        assert_eq!(under(&graded), ("2.00 s".into(), "cpu".into()), "{graded}");
    }
    let out = arena(&["serve", "finalize", "--data", dir], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let grades = std::fs::read_to_string(data.path().join("final/trap/grades.csv")).unwrap();
    assert!(grades.lines().next().unwrap().ends_with(",points,time_per_turn,clock"), "{grades}");
    assert!(grades.lines().skip(1).all(|l| l.ends_with(",2.00 s,cpu")), "{grades}");
    drop(server);

    // The course changes its budget and clock: the server says at start
    // which grades were made under other settings.
    let second = support::write_file(data.path(), "second.toml", &course("3s", Some("wall")));
    let log_path = data.path().join("server.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let server = Server::start_logging(
        data.path(),
        &["--course", second.to_str().unwrap(), "--round-robin", "off"],
        &[],
        Stdio::from(log),
    );
    let logged = std::fs::read_to_string(&log_path).unwrap();
    assert!(
        logged.contains("assignment trap: 2 group(s) were graded under other settings than its own now (3.00 s a turn, wall clock)")
            && logged.contains(&format!("{a} (ann), {b} (bo)"))
            && logged.contains("arena serve regrade --assignment trap --changed"),
        "{logged}"
    );
    // Nothing is graded again until staff say so.
    let (_, still) = get(&server, &format!("/api/submissions/{a}"), Some(&ann));
    assert_eq!(under(&still), ("2.00 s".into(), "cpu".into()), "{still}");

    let out = arena(&["serve", "regrade", "--data", dir, "--changed"], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    assert_eq!(stdout(&out), format!("{a},ann\n{b},bo\n"));
    for (token, id) in [(&ann, a), (&bo, b)] {
        let graded = wait_for(&server, token, id, |s| finished(s) && !s["graded_under"].is_null());
        assert_eq!(graded["status"], "done", "{graded}");
        assert_eq!(under(&graded), ("3.00 s".into(), "wall".into()), "{graded}");
    }
    // The earlier grading run is kept beside the new one.
    assert!(data.path().join(format!("runs/{a}.before-1/out/journal.jsonl")).is_file());
    // Every grade is current now: nothing to regrade.
    let out = arena(&["serve", "regrade", "--data", dir, "--changed"], &[]);
    assert_eq!(stdout(&out), "", "{}", support::stderr(&out));
    let out = arena(&["serve", "regrade", "--data", dir], &[]);
    assert!(support::stderr(&out).contains("--all") && !out.status.success(), "{}", support::stderr(&out));

    // Finalize under the new settings: a fresh class tournament, saying so.
    let out = arena(&["serve", "finalize", "--data", dir], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    assert!(support::stderr(&out).contains("a fresh one is played in"), "{}", support::stderr(&out));
    assert!(data.path().join("final/trap/round-robin-2/standings.csv").is_file());
    assert!(data.path().join("final/trap/round-robin/standings.csv").is_file(), "the earlier one is kept");
    let grades = std::fs::read_to_string(data.path().join("final/trap/grades.csv")).unwrap();
    assert!(grades.lines().skip(1).all(|l| l.ends_with(",3.00 s,wall")), "{grades}");
    // Run again: resumed, not played afresh again.
    let out = arena(&["serve", "finalize", "--data", dir], &[]);
    assert!(out.status.success() && !support::stderr(&out).contains("fresh"), "{}", support::stderr(&out));
    assert!(!data.path().join("final/trap/round-robin-3").exists());
}

#[test]
fn the_server_plays_no_more_games_than_its_cores_each_on_a_core_of_its_own_and_staff_hold_the_league() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_str().unwrap();
    let staff = {
        let out = arena(&["serve", "add-student", "boss", "--staff", "--data", dir], &[]);
        stdout(&out).trim().to_string()
    };
    let (ann, bo) = (add_student(data.path(), "ann"), add_student(data.path(), "bo"));
    let course = support::write_file(data.path(), "course.toml", &course("1s", None));
    // No analysis of lost games: on the one core it would hold the league's
    // thread (waiting for the core) from seeing the pause for as long as a
    // debug build's analysis of a game; its place in the pool's order is
    // the pool's unit test, its own run tests/it/server/analysis.rs.
    // A player that fails any move made on more than one core, and takes
    // 50 ms a move: a game lasts long enough for the polls below to see it.
    let one_core = [("BAD_PLAYER_MODE", "one-core"), ("BAD_PLAYER_SLEEP_MS", "50")];
    let server = Server::start_with(
        data.path(),
        &[
            "--course",
            course.to_str().unwrap(),
            "--cores",
            "1",
            "--grading-slots",
            "2",
            "--analysis-nodes",
            "0",
        ],
        &one_core,
    );
    let (code, pool) = get(&server, "/api/staff/cores", Some(&staff));
    assert_eq!((code, pool["pool"]["cores"].as_u64()), (200, Some(1)), "{pool}");
    assert_eq!(get(&server, "/api/staff/cores", Some(&ann)).0, 403);
    let bytes = std::fs::read(library("bad-player")).unwrap();
    let ids: Vec<i64> = [&ann, &bo]
        .iter()
        .map(|t| submit(&server, Some(t), "file", &bytes).1["id"].as_i64().unwrap())
        .collect();
    // Two grading slots, one core: one game at a time (the order of the
    // waiting ones is the pool's unit test); each game's workers on one core.
    let mut most = 0;
    loop {
        let (_, pool) = get(&server, "/api/staff/cores", Some(&staff));
        let running: u64 =
            pool["pool"]["running"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
        most = most.max(running);
        let done: Vec<bool> = [(&ann, ids[0]), (&bo, ids[1])]
            .iter()
            .map(|(t, id)| finished(&get(&server, &format!("/api/submissions/{id}"), Some(t)).1))
            .collect();
        if done.iter().all(|d| *d) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(most, 1, "never more games than cores");
    for (token, id) in [(&ann, ids[0]), (&bo, ids[1])] {
        let (_, graded) = get(&server, &format!("/api/submissions/{id}"), Some(token));
        assert_eq!(graded["status"], "done", "its smoke games each on one core: {graded}");
        assert_eq!(graded["grade"]["failures"]["panicked"], 0, "every game on one core: {graded}");
    }

    // Staff pause the league from the shell and resume it from the API.
    let out = arena(&["serve", "league", "pause", "--data", dir], &[]);
    assert_eq!(stdout(&out), "league: paused\n", "{}", support::stderr(&out));
    let started = std::time::Instant::now();
    loop {
        let (_, pool) = get(&server, "/api/staff/cores", Some(&staff));
        if pool["pool"]["league"] == "paused" && pool["pool"]["league_held"] == true {
            assert_eq!(pool["pool"]["running"]["league"], 0, "{pool}");
            break;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "{pool}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let resumed = super::agent()
        .post(format!("{}/api/staff/league", server.url))
        .header("Authorization", format!("Bearer {staff}"))
        .header("Content-Type", "application/json")
        .send(r#"{"state": "auto"}"#.as_bytes());
    let (code, said) = super::answer(resumed);
    assert_eq!((code, said["league"].as_str()), (200, Some("auto")), "{said}");
    let (_, pool) = get(&server, "/api/staff/cores", Some(&staff));
    assert_eq!(pool["pool"]["league"], "auto", "{pool}");
}

/// A course-style `PlayerAI.py` folder, packed, that plays the first free
/// cell (moves and traps alike: deterministic) and computes for `cpu`
/// seconds of CPU time a turn (half before its move, half before its trap).
fn computing_player(cpu: f64) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join(format!("computes_{}", (cpu * 1000.0) as u32));
    std::fs::create_dir(&folder).unwrap();
    support::write_file(
        &folder,
        "PlayerAI.py",
        &format!(
            "import time\nfrom BaseAI import BaseAI\n\n\
             def think():\n\
             \x20   start = time.process_time()\n\
             \x20   while time.process_time() - start < {half}:\n\
             \x20       pass\n\n\
             class PlayerAI(BaseAI):\n\
             \x20   def setPlayerNum(self, num):\n\
             \x20       self.num = num\n\
             \x20   def getMove(self, grid):\n\
             \x20       think()\n\
             \x20       return grid.get_neighbors(grid.find(self.num), only_available=True)[0]\n\
             \x20   def getTrap(self, grid):\n\
             \x20       think()\n\
             \x20       return grid.get_neighbors(grid.find(3 - self.num), only_available=True)[0]\n",
            half = cpu / 2.0
        ),
    );
    arena_server::client::pack(&folder).unwrap()
}

/// The games a grade lost, level by level: each one's index in the
/// schedule and the student's seat (not the reason, which names what was
/// measured).
fn games_lost(grade: &Value) -> Vec<Vec<(i64, i64)>> {
    let levels = grade["levels"].as_array().unwrap();
    let lost = |level: &Value| -> Vec<(i64, i64)> {
        let games = level["lost"].as_array().unwrap();
        games.iter().map(|g| (g["index"].as_i64().unwrap(), g["seat"].as_i64().unwrap())).collect()
    };
    levels.iter().map(lost).collect()
}

/// Grades the computing players spending `shares` of a `budget` a turn on
/// a fresh server (two grading slots on two cores; Trap on a 5x5 board, for
/// short games), with `load` busy loops beside it: each one's grade, in order.
fn grade_computing_players(budget: f64, shares: &[f64], load: usize) -> Vec<Value> {
    let data = tempfile::tempdir().unwrap();
    let text = course(&format!("{budget}s"), None)
        .replace("[assignment.grading]", "board_size = 5\n[assignment.grading]");
    let course = support::write_file(data.path(), "course.toml", &text);
    let _load = support::BusyLoops::start(load, None);
    let server = Server::start(
        data.path(),
        &[
            "--course",
            course.to_str().unwrap(),
            "--round-robin",
            "off",
            "--cores",
            "2",
            "--grading-slots",
            "2",
        ],
    );
    let students: Vec<(String, i64)> = shares
        .iter()
        .enumerate()
        .map(|(i, share)| {
            let token = add_student(data.path(), &format!("s{i}"));
            let (code, accepted) = submit(&server, Some(&token), "file", &computing_player(budget * share));
            assert_eq!(code, 201, "{accepted}");
            (token, accepted["id"].as_i64().unwrap())
        })
        .collect();
    let limit = std::time::Duration::from_secs(600);
    students.iter().map(|(token, id)| super::wait_within(limit, &server, token, *id, finished)).collect()
}

#[test]
fn course_style_python_players_are_graded_the_same_beside_busy_loops_as_on_an_idle_machine() {
    // 60, 80 and 95% of a second in CPU time a turn, as a real course
    // player spends of its budget, and 120%: graded idle, beside two busy
    // loops and beside four (the games at nice 0, the server's default).
    let shares = [0.6, 0.8, 0.95, 1.2];
    let idle = grade_computing_players(1.0, &shares, 0);
    for load in [2, 4] {
        let loaded = grade_computing_players(1.0, &shares, load);
        // Over its budget every turn: it never makes a move, and is refused
        // for it on every machine, its smoke games lost on time.
        for over in [&idle[3], &loaded[3]] {
            assert_eq!(over["status"], "failed", "{over}");
            let error = over["error"].as_str().unwrap();
            assert!(error.starts_with("it made no legal move in its smoke games:"), "{error}");
            let problems: Vec<&str> = error.lines().filter(|l| l.contains("lost by a fault")).collect();
            assert!(
                !problems.is_empty() && problems.iter().all(|l| l.contains("timeout")),
                "every smoke game lost on time: {error}"
            );
        }
        for (quiet, busy) in idle.iter().zip(&loaded).take(3) {
            assert_eq!(busy["status"], "done", "graded beside {load} loops, its check passed: {busy}");
            assert_eq!(quiet["status"], "done", "{quiet}");
            let grade = &busy["grade"];
            assert_eq!(grade["failures"]["timeout"], 0, "no game lost on time beside {load} loops: {grade}");
            assert!(grade["failures"].get("machine").is_none(), "{grade}");
            // The same games, the same results, game by game.
            assert_eq!(super::grade_summary(grade), super::grade_summary(&quiet["grade"]), "{grade}");
            assert_eq!(games_lost(grade), games_lost(&quiet["grade"]), "{grade}");
        }
    }
}

#[test]
fn a_course_files_grace_grades_a_slow_player_with_it_and_its_grade_says_so() {
    // A course-style player computes 1.3 x its 0.5 s budget of CPU time a
    // turn: past the budget, within the course's grace of 0.3 s (0.8 s).
    let data = tempfile::tempdir().unwrap();
    let text = course("0.5s", None)
        .replace("[assignment.grading]", "grace = \"300ms\"\nboard_size = 5\n[assignment.grading]");
    let course = support::write_file(data.path(), "course.toml", &text);
    let server = Server::start(data.path(), &["--course", course.to_str().unwrap(), "--round-robin", "off"]);
    let ann = add_student(data.path(), "ann");
    let (code, accepted) = submit(&server, Some(&ann), "file", &computing_player(0.65));
    assert_eq!(code, 201, "{accepted}");
    let graded = wait_for(&server, &ann, accepted["id"].as_i64().unwrap(), finished);
    assert_eq!(graded["status"], "done", "{graded}");
    assert_eq!(graded["grade"]["failures"]["timeout"], 0, "no game lost on time: {graded}");
    assert_eq!(graded["graded_under"]["grace"], "0.30 s", "{graded}");
    // Students are told it.
    let (_, assignments) = get(&server, "/api/assignments", None);
    assert_eq!(assignments["assignments"][0]["grace"], "0.30 s", "{assignments}");
}

#[test]
fn names_a_spreadsheet_would_run_are_written_as_text_in_every_csv() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_str().unwrap();
    // A roster as an instructor exports it, names and all.
    let roster = super::add_roster(data.path(), "=1+2,x\n@SUM(A1),x\n+1,x\n-1,x\n");
    let tokens: Vec<String> = roster.into_iter().map(|(_, token)| token).collect();
    let course = support::write_file(data.path(), "course.toml", &course("1s", None));
    let server = Server::start(data.path(), &["--course", course.to_str().unwrap(), "--round-robin", "off"]);
    let bytes = std::fs::read(library("easy")).unwrap();
    for token in &tokens {
        let (code, accepted) = submit(&server, Some(token), "file", &bytes);
        assert_eq!(code, 201, "{accepted}");
        wait_for(&server, token, accepted["id"].as_i64().unwrap(), finished);
    }
    drop(server);
    let out = arena(&["serve", "finalize", "--data", dir], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let grades = std::fs::read_to_string(data.path().join("final/trap/grades.csv")).unwrap();
    let gradebook = std::fs::read_to_string(data.path().join("final/gradebook.csv")).unwrap();
    let standings =
        std::fs::read_to_string(data.path().join("final/trap/round-robin/standings.csv")).unwrap();
    for text in [&grades, &gradebook, &standings] {
        // No line, and no field after a comma, begins with what a spreadsheet runs.
        for line in text.lines().skip(1) {
            for field in line.split(',') {
                let field = field.trim_start_matches('"');
                assert!(
                    !field.starts_with(['=', '+', '-', '@', '\t', '\r']),
                    "{field:?} in {line:?}\n{text}"
                );
            }
        }
    }
    // The gradebook's Name is the roster's full name: none given here.
    assert!(gradebook.contains("\n'=1+2,,") && gradebook.contains("\n'@SUM(A1),,"), "{gradebook}");
    assert!(grades.contains("'+1,'+1,") && grades.contains("'-1,'-1,"), "{grades}");
}

#[test]
fn a_grading_the_machine_starves_waits_is_never_failed_and_is_graded_once_the_machine_frees_up() {
    // The server's games at nice 19 beside four busy loops at nice 0: a
    // player gets under 1% of a core, so a turn of 475 ms of CPU (before
    // its move: 95% of a second a turn, the server's CPU clock) waits past
    // the bound (20 x 1.1 s): the machine's fault. The
    // machine then frees up: the loops stop and the server is started again
    // with its games at their default (nice 0: their share beside any other
    // load of the machine's).
    let Ok(load) = support::BusyLoops::at_nice(4, 0) else {
        eprintln!("skipped: busy loops at nice 0 need this test at nice 0, or root");
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let staff = {
        let out =
            arena(&["serve", "add-student", "boss", "--staff", "--data", data.path().to_str().unwrap()], &[]);
        stdout(&out).trim().to_string()
    };
    let (ann, bo) = (add_student(data.path(), "ann"), add_student(data.path(), "bo"));
    // A start-up of 2 s: a player the machine keeps from starting is given
    // up on (its check postponed) after 20 x 2 s, not 20 x 10 s, so the
    // wait below stays bounded however busy the rest of a run keeps the
    // machine (a check loads its player twice).
    let text = course("1s", None)
        .replace("[assignment.grading]", "board_size = 5\nstartup_time = \"2s\"\n[assignment.grading]");
    let course = support::write_file(data.path(), "course.toml", &text);
    let log_path = data.path().join("server.log");
    let server = Server::start_logging(
        data.path(),
        &["--course", course.to_str().unwrap(), "--round-robin", "off", "--cores", "2", "--games-nice", "19"],
        &[],
        Stdio::from(std::fs::File::create(&log_path).unwrap()),
    );
    let player = computing_player(0.95);
    let (code, accepted) = submit(&server, Some(&ann), "file", &player);
    assert_eq!(code, 201, "{accepted}");
    let id = accepted["id"].as_i64().unwrap();
    let limit = std::time::Duration::from_secs(300);
    // What the server did, should anything below fail.
    let _log = support::OnDrop(|| {
        if std::thread::panicking() {
            eprintln!("the server's log:\n{}", std::fs::read_to_string(&log_path).unwrap_or_default());
        }
    });
    let waiting = super::wait_within(limit, &server, &ann, id, |s| {
        s["status"] != "queued" && s["status"] != "checking" && s["status"] != "playing"
    });
    assert_eq!(waiting["status"], "waiting", "never failed for the machine: {waiting}");
    let why = waiting["waiting"].as_str().unwrap();
    assert!(why.starts_with("waiting for the machine: "), "{why}");
    // Its log line is written just after the wait is recorded, by a thread
    // at nice 19 beside the loops: killed before it, the server would not
    // have logged it. Waited for, bounded.
    let logged = std::time::Instant::now();
    while !std::fs::read_to_string(&log_path).unwrap().contains("waiting for the machine") {
        assert!(logged.elapsed() < limit, "the wait was never logged");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // Staff see it, and when it goes on.
    let (_, cores) = get(&server, "/api/staff/cores", Some(&staff));
    let postponed = cores["postponed"].as_array().unwrap();
    assert!(
        postponed.iter().any(|p| p["id"] == id && p["why"] == why && p["retry_at"].is_string()),
        "{cores}"
    );

    // The machine frees up: the grading goes on by itself, after its backoff.
    drop(load);
    drop(server);
    let second_log = data.path().join("server-2.log");
    let server = Server::start_logging(
        data.path(),
        &["--course", course.to_str().unwrap(), "--round-robin", "off", "--cores", "2"],
        &[],
        Stdio::from(std::fs::File::create(&second_log).unwrap()),
    );
    let graded = super::wait_within(limit, &server, &ann, id, finished);
    assert_eq!(graded["status"], "done", "{graded}");
    let grade = &graded["grade"];
    assert_eq!(grade["failures"]["timeout"], 0, "no game lost on time: {grade}");
    assert!(grade["failures"].get("machine").is_none(), "no spoiled game counted: {grade}");
    // The same as on a machine that was idle all along (the same seeds).
    let (code, accepted) = submit(&server, Some(&bo), "file", &player);
    assert_eq!(code, 201, "{accepted}");
    let idle = super::wait_within(limit, &server, &bo, accepted["id"].as_i64().unwrap(), finished);
    assert_eq!(super::grade_summary(grade), super::grade_summary(&idle["grade"]), "{idle}");
    assert_eq!(games_lost(grade), games_lost(&idle["grade"]), "{idle}");
    drop(server);
    let log = std::fs::read_to_string(&log_path).unwrap();
    let waits: Vec<&str> = log.lines().filter(|l| l.contains("waiting for the machine")).collect();
    // One line a wait, the first after the first backoff.
    assert!(waits.first().is_some_and(|l| l.contains("goes on in 30 s")), "{log}");
    let log = log + &std::fs::read_to_string(&second_log).unwrap();
    assert!(!log.contains("failed after"), "{log}");
}

/// The nice value of each thread of process `pid`, by the thread's name.
fn threads_nice(pid: u32) -> Vec<(String, i32)> {
    let mut threads = Vec::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap().flatten() {
        let name = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default().trim().to_string();
        let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
        // After the name's closing parenthesis: state is field 3, nice field 19.
        let Some((_, fields)) = stat.rsplit_once(") ") else { continue };
        let nice = fields.split_whitespace().nth(16).and_then(|n| n.parse().ok()).unwrap();
        threads.push((name, nice));
    }
    threads
}

#[test]
fn pages_run_at_pages_nice_and_games_at_games_nice_where_the_server_may_set_them() {
    // SAFETY: a plain syscall.
    let root = unsafe { libc::geteuid() } == 0;
    for (extra, pages_at, games_at) in
        [(&[][..], 0, 0), (&["--pages-nice", "-5", "--games-nice", "3"][..], -5, 3)]
    {
        let data = tempfile::tempdir().unwrap();
        let course = support::write_file(data.path(), "course.toml", &course("1s", None));
        let args = [&["--course", course.to_str().unwrap(), "--round-robin", "off"][..], extra].concat();
        let server = Server::start(data.path(), &args);
        assert_eq!(get(&server, "/api/leaderboard", None).0, 200);
        // The graders start beside the pages, and name their threads once
        // running: read the threads once both are there.
        let started = std::time::Instant::now();
        let (threads, pages, games) = loop {
            let threads = threads_nice(server.child.id());
            let of = |prefix: &str| -> Vec<i32> {
                threads.iter().filter(|(name, _)| name.starts_with(prefix)).map(|(_, nice)| *nice).collect()
            };
            let (pages, games) = (of("tokio-"), of("grader-"));
            if !pages.is_empty() && !games.is_empty() {
                break (threads, pages, games);
            }
            assert!(started.elapsed() < std::time::Duration::from_secs(30), "{threads:?}");
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        assert!(games.iter().all(|&n| n == games_at), "games at {games_at}: {threads:?}");
        // Without the right to raise a priority (a plain user), pages stay at the server's.
        let expected = if root { pages_at } else { 0 };
        assert!(pages.iter().all(|&n| n == expected), "pages at {expected}: {threads:?}");
    }
}

/// `scripts/measure-fairness.py`, the measure of fairness, run as its
/// docs give it (short turns here): the same submissions on two servers of
/// one secret, idle and beside two busy loops, their verdicts side by side.
#[test]
fn the_measure_of_fairness_grades_on_two_servers_of_one_secret_and_prints_the_verdicts_side_by_side() {
    let script = support::workspace_root().join("scripts/measure-fairness.py");
    let run = |args: &[&str]| {
        std::process::Command::new("python3")
            .arg(&script)
            .args(["--arena", env!("CARGO_BIN_EXE_arena")])
            .args(args)
            .output()
            .unwrap()
    };
    // 40% of its 0.4 s turn, and 150%: graded, and refused, both loads alike.
    let out = run(&["--loads", "0,2", "--shares", "40,150", "--budget", "400ms"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", support::stderr(&out));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[2].starts_with("0 | 1 | 1 | 0 | 0 | "), "idle: one graded, one refused: {text}");
    assert!(lines[3].starts_with("2 | 1 | 1 | 0 | 0 | "), "beside two loops, the same: {text}");
    assert!(lines.contains(&"computes_40: same") && lines.contains(&"computes_150: same"), "{text}");
    let graded: Vec<&&str> = lines.iter().filter(|l| l.contains("loops: easy ")).collect();
    assert_eq!(graded.len(), 2, "the graded one's games, under each load: {text}");
    assert_eq!(graded[0].split_once(": ").unwrap().1, graded[1].split_once(": ").unwrap().1, "{text}");
    let refused: Vec<&&str> =
        lines.iter().filter(|l| l.contains("loops: failed: it made no legal move")).collect();
    assert_eq!(refused.len(), 2, "{text}");

    // Bad input: one line, naming the fix, exit 2.
    for (args, says) in [
        (&["--loads", "two"][..], "--loads and --shares are comma-separated whole numbers"),
        (&["--loads", "65", "--shares", "40"], "--loads: 0 to 64"),
        (&["--shares", "0"], "--shares: percentages above 0"),
        (&["/no/such/player"], "no player at /no/such/player"),
        (&[], "give players (paths) or --shares"),
        (&["--shares", "40", "--budget", "soon"], "--budget 'soon' is not a duration"),
        (&["--shares", "40", "--secret", "abc"], "--secret: 64 hex digits"),
    ] {
        let out = run(args);
        let err = support::stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("measure-fairness: ") && err.contains(says), "{args:?}: {err}");
    }
}
