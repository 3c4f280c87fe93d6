//! `--clock cpu`: a turn is charged the CPU time the player used, so a
//! player that sleeps is not charged (but is killed at the backstop,
//! max(3 x budget, budget + 10 s) of its own time) and one that spins is;
//! both times are in the output whatever the clock. Neither clock charges
//! a player for the time the machine kept it from a core, and a player the
//! machine starves is waited for up to 20 times its budget, then its game
//! is the machine's fault: never lost, and a tournament postpones it. Real workers (sandboxed and not) running the misbehaving
//! fixture library.

use std::time::{Duration, Instant};

use crate::support::{self, library, play_json, stderr, stdout};
use serde_json::Value;

/// `arena play bad-player easy` (2 games, 300 ms a turn) with the fixture in
/// `mode`, as JSON, and how long it took.
fn play_bad(mode: &str, sleep_ms: u64, extra: &[&str]) -> (Value, Duration) {
    let bad = library("bad-player");
    let sleep = sleep_ms.to_string();
    let mut args =
        vec![bad.to_str().unwrap(), "easy", "--games", "2", "--seed", "5", "--time-per-turn", "300ms"];
    args.extend_from_slice(extra);
    args.extend(support::pass_env(&support::BAD_PLAYER_ORDERS));
    let started = Instant::now();
    let doc = play_json(&args, &[("BAD_PLAYER_MODE", mode), ("BAD_PLAYER_SLEEP_MS", &sleep)]);
    (doc, started.elapsed())
}

fn reasons(doc: &Value) -> Vec<String> {
    doc["games"].as_array().unwrap().iter().map(|g| g["reason"].as_str().unwrap().to_string()).collect()
}

fn timeouts(doc: &Value) -> u64 {
    doc["players"][0]["failures"]["timeout"].as_u64().unwrap()
}

#[test]
fn a_sleeping_player_is_charged_on_the_wall_clock_only() {
    // Sleeps 600 ms (twice the budget) on its first move of each game.
    let (wall, _) = play_bad("sleep", 600, &["--clock", "wall"]);
    assert_eq!(timeouts(&wall), 2, "{:?}", reasons(&wall));
    for reason in reasons(&wall) {
        assert!(reason.starts_with("timeout: ") && !reason.contains("of CPU"), "{reason}");
    }
    for sandbox in ["on", "off"] {
        let (cpu, _) = play_bad("sleep", 600, &["--clock", "cpu", "--sandbox", sandbox]);
        assert_eq!(cpu["settings"]["clock"], "cpu");
        assert_eq!(timeouts(&cpu), 0, "sandbox {sandbox}: {:?}", reasons(&cpu));
        // Both times are recorded: the sleep on the wall clock, little CPU.
        let player = &cpu["players"][0];
        assert!(player["max_turn_ms"].as_f64().unwrap() >= 600.0, "{player}");
        assert!(player["max_turn_cpu_ms"].as_f64().unwrap() < 150.0, "{player}");
    }
}

#[test]
fn a_player_that_sleeps_forever_is_killed_at_the_backstop() {
    let (doc, took) = play_bad("sleep-forever", 0, &["--clock", "cpu"]);
    assert_eq!(timeouts(&doc), 2);
    for reason in reasons(&doc) {
        // Its own time past max(3 x 300 ms, 300 ms + 10 s).
        assert!(reason.contains("no answer: killed") && !reason.contains("of CPU"), "{reason}");
        let used: f64 = reason["timeout: ".len()..].split(' ').next().unwrap().parse().unwrap();
        assert!((10.3..11.5).contains(&used), "{reason}");
    }
    assert!(took >= Duration::from_millis(10_300), "each game killed at 10.3 s: {took:?}");
}

#[test]
fn a_player_kept_from_a_core_is_not_charged_for_the_wait() {
    // A busy loop shares core 0 with the player's first move, 200 ms of CPU
    // time: about 400 ms on the wall, over its 300 ms budget; the machine's
    // share of that is not the player's.
    let _load = support::BusyLoops::start(1, Some(0));
    let bad = library("bad-player");
    let mut args =
        vec![bad.to_str().unwrap(), "easy", "--games", "2", "--seed", "5", "--time-per-turn", "300ms"];
    args.extend(["--clock", "wall", "--sandbox", "off"]);
    args.extend(support::pass_env(&support::BAD_PLAYER_ORDERS));
    let doc = play_json(&args, &[("BAD_PLAYER_MODE", "crowded"), ("BAD_PLAYER_SPIN_MS", "200")]);
    assert_eq!(timeouts(&doc), 0, "{:?}", reasons(&doc));
    let player = &doc["players"][0];
    // It did wait: its longest turn took longer on the wall than its budget.
    assert!(player["max_turn_ms"].as_f64().unwrap() > 300.0, "{player}");
    assert!(player["max_turn_cpu_ms"].as_f64().unwrap() >= 200.0, "{player}");
}

#[test]
fn a_player_the_machine_starves_is_waited_for_then_its_game_counts_for_no_one() {
    // The player runs only when core 0 is idle, and a busy loop keeps it
    // busy: its first move waits for a core past the bound (20 x its
    // 100 ms budget and 100 ms grace). An idle-priority thread still gets a
    // sliver of a busy core (about 3% if the loop is niced, as the whole
    // suite may be), so it asks for two seconds of CPU that a sliver never
    // gives it within the bound.
    let _load = support::BusyLoops::start(1, Some(0));
    let bad = library("bad-player");
    let mut args =
        vec![bad.to_str().unwrap(), "easy", "--games", "1", "--seed", "5", "--time-per-turn", "100ms"];
    args.extend(["--clock", "wall", "--sandbox", "off"]);
    args.extend(support::pass_env(&support::BAD_PLAYER_ORDERS));
    let started = Instant::now();
    let doc = play_json(&args, &[("BAD_PLAYER_MODE", "starved"), ("BAD_PLAYER_SPIN_MS", "2000")]);
    let game = &doc["games"][0];
    assert!(game.get("replayed").is_none(), "not played again on a machine still overloaded: {game}");
    assert!(game["winner"].is_null(), "a draw, not the player's loss: {game}");
    let reason = game["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("the machine was overloaded: no answer in 4.")
            && reason.contains("not the player's fault"),
        "{reason}"
    );
    assert_eq!(doc["players"][0]["failures"]["machine"], 1, "{doc}");
    assert_eq!(doc["players"][0]["losses"], 0, "{doc}");
    // Waited for up to the bound, once.
    let took = started.elapsed();
    assert!(took >= Duration::from_secs(4) && took < Duration::from_secs(12), "{took:?}");
}

#[test]
fn a_spinning_player_is_charged_its_cpu_time_and_killed() {
    for sandbox in ["on", "off"] {
        let (doc, _) = play_bad("loop", 0, &["--clock", "cpu", "--sandbox", sandbox]);
        assert_eq!(timeouts(&doc), 2, "sandbox {sandbox}: {:?}", reasons(&doc));
        for reason in reasons(&doc) {
            assert!(reason.contains("of CPU > 0.30 s") && reason.contains("killed"), "{reason}");
        }
    }
}

#[test]
fn a_tournament_file_sets_the_clock_and_the_journal_keeps_both_times() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    let text = format!(
        "format = \"round-robin\"\nplayers = [\"easy\", \"{}\"]\ngames_per_pairing = 2\nseed = 3\n\
         output = \"out\"\n[settings]\ntime_per_turn = \"300ms\"\nclock = \"cpu\"\n",
        library("medium").display()
    );
    std::fs::write(&file, text).unwrap();
    let output = support::arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}{}", stdout(&output), stderr(&output));
    let journal = std::fs::read_to_string(dir.path().join("out/journal.jsonl")).unwrap();
    let games: Vec<Value> = journal
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v.get("clock").is_some())
        .collect();
    assert_eq!(games.len(), 2, "{journal}");
    for game in &games {
        for seat in game["clock"].as_array().unwrap() {
            assert!(seat["turns"].as_u64().unwrap() > 0, "{game}");
            assert!(seat.get("cpu_total_us").is_some() && seat.get("total_us").is_some(), "{game}");
        }
    }
    // The worker-hosted medium used CPU time, as measured from outside.
    assert!(games.iter().any(|g| g["clock"][1]["cpu_total_us"].as_u64().unwrap() > 0
        || g["clock"][0]["cpu_total_us"].as_u64().unwrap() > 0));

    std::fs::write(&file, std::fs::read_to_string(&file).unwrap().replace("\"cpu\"", "\"process\"")).unwrap();
    let output = support::arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains("line 8") && err.contains("`wall` or `cpu`"), "{err}");
}

#[test]
fn a_check_the_machine_spoils_is_not_judged_neither_passed_nor_failed() {
    let _load = support::BusyLoops::start(1, Some(0));
    let bad = library("bad-player");
    let mut args = vec!["check", bad.to_str().unwrap(), "--time-per-turn", "100ms", "--clock", "wall"];
    args.extend(["--sandbox", "off"]);
    args.extend(support::pass_env(&support::BAD_PLAYER_ORDERS));
    let out = support::arena(&args, &[("BAD_PLAYER_MODE", "starved"), ("BAD_PLAYER_SPIN_MS", "2000")]);
    let text = stdout(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("NOT JUDGED: the machine was overloaded") && !text.contains("FAILED"), "{text}");
    assert!(!text.contains("problem:"), "the machine's fault is not the player's problem: {text}");
    // Its first smoke game spoiled, the second is not played on the same
    // machine (said by the output, not by a time: the suite's load varies).
    let trap = text.split("smoke test  trap").nth(1).and_then(|t| t.split("smoke test").next()).unwrap_or("");
    assert!(trap.contains("game 1/2") && !trap.contains("game 2/2"), "{text}");
}

#[test]
fn a_player_its_own_processes_crowd_out_is_charged_not_the_machine() {
    // On its first move it starts 40 busy loops of its own on its core and
    // computes there: its main thread waits for that core, but the wait is
    // its own processes' doing. Without counting them it would look starved
    // by the machine, and a loser could postpone its game for ever.
    let bad = library("bad-player");
    let mut args =
        vec![bad.to_str().unwrap(), "easy", "--games", "1", "--seed", "5", "--time-per-turn", "100ms"];
    args.extend(["--clock", "wall", "--sandbox", "off"]);
    args.extend(support::pass_env(&support::BAD_PLAYER_ORDERS));
    let doc = play_json(&args, &[("BAD_PLAYER_MODE", "crowd-with-children"), ("BAD_PLAYER_SPIN_MS", "2000")]);
    let player = &doc["players"][0];
    assert_eq!(player["failures"]["timeout"], 1, "{doc}");
    assert!(player["failures"].get("machine").is_none_or(|m| m == 0), "{doc}");
    assert_eq!(player["losses"], 1, "{doc}");
}

/// In process under the wall clock a turn is judged on its wall time and
/// its CPU time only reported: read for a turn after a slow one, not after
/// a quick one (a thread's CPU clock is two system calls, half of a
/// built-in's game). The player's second turn, a 40 ms sleep after a quick
/// first, is then reported at its wall time, what it can have used at
/// most; under the CPU clock, which judges it, it is read.
#[test]
fn in_process_under_the_wall_clock_a_turn_after_a_quick_one_is_reported_at_its_wall_time() {
    let dir = tempfile::tempdir().unwrap();
    let bad = library("bad-player");
    for clock in ["wall", "cpu"] {
        let file = dir.path().join(format!("{clock}.json"));
        let mut args = vec!["play", bad.to_str().unwrap(), "easy", "--only-game", "1", "--seed", "5"];
        args.extend([
            "--in-process",
            "--time-per-turn",
            "1s",
            "--clock",
            clock,
            "--replay",
            file.to_str().unwrap(),
        ]);
        args.extend(support::pass_env(&support::BAD_PLAYER_ORDERS));
        let output =
            support::arena(&args, &[("BAD_PLAYER_MODE", "sleep-second"), ("BAD_PLAYER_SLEEP_MS", "40")]);
        assert!(output.status.success(), "{}", support::stderr(&output));
        let replay: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        let turns: Vec<&Value> =
            replay["turns"].as_array().unwrap().iter().filter(|t| t["seat"] == 1).collect();
        let (wall, cpu) = (turns[1]["time_us"].as_u64().unwrap(), turns[1]["cpu_us"].as_u64().unwrap());
        assert!(wall >= 40_000, "{clock}: {}", turns[1]);
        match clock {
            "wall" => assert_eq!(cpu, wall, "reported at its wall time: {}", turns[1]),
            _ => assert!(cpu < 20_000, "read: {}", turns[1]),
        }
    }
}
