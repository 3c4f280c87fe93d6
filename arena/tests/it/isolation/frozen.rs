//! A player runs only while it is asked to move (issue 67): between its
//! turns its worker is stopped, so a thread its import started uses no CPU
//! while the opponent thinks (arena/tests/python/busy_player).

use serde_json::Value;

use crate::players::python::python_env;
use crate::support::{arena, stderr, workspace_root};

/// The CPU and wall seconds a busy player's notes say passed between its
/// turns ("between turns: cpu X wall Y"), summed, and how many gaps.
fn between_turns<'a>(notes: impl Iterator<Item = &'a str>) -> (f64, f64, usize) {
    let mut sums = (0.0, 0.0, 0);
    for line in notes.flat_map(str::lines) {
        let Some(rest) = line.strip_prefix("between turns: cpu ") else { continue };
        let (cpu, wall) = rest.split_once(" wall ").unwrap_or_else(|| panic!("{line}"));
        sums.0 += cpu.parse::<f64>().unwrap();
        sums.1 += wall.parse::<f64>().unwrap();
        sums.2 += 1;
    }
    sums
}

#[test]
fn a_busy_threads_player_uses_no_cpu_while_its_opponent_thinks() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let python = workspace_root().join("arena/tests/python");
    let busy = format!("python:{}", python.join("busy_player").display());
    // The opponent sleeps 0.3 s before each move.
    let slow = format!("python:{}", python.join("bad_player").display());
    let base = python_env();
    let mut env: Vec<(&str, &str)> = base.iter().map(|(k, v)| (*k, v.as_str())).collect();
    env.extend([("BAD_PYTHON_MODE", "sleep"), ("BAD_PYTHON_SLEEP", "0.3")]);
    let pass = ["--pass-env", "BAD_PYTHON_MODE", "--pass-env", "BAD_PYTHON_SLEEP"];
    let mut args = vec!["play", &busy, &slow, "--games", "1", "--seed", "4"];
    args.extend(["--replay", file.to_str().unwrap()]);
    args.extend(pass);
    let output = arena(&args, &env);
    assert!(output.status.success(), "{}", stderr(&output));
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let seat =
        replay["players"].as_array().unwrap().iter().position(|p| p["source"] == busy.as_str()).unwrap();
    let notes = replay["notes"].as_array().unwrap().iter().filter(|n| n["seat"] == seat);
    let (cpu, wall, gaps) = between_turns(notes.filter_map(|n| n["text"].as_str()));
    assert!(gaps >= 2 && wall >= 0.3 * gaps as f64, "{gaps} gaps, {wall:.3} s: {}", replay["notes"]);
    // Unfrozen, its thread spins through the gaps: as much CPU as wall time
    // (two thirds of it beside two busy loops on two cores).
    assert!(cpu < 0.15 * wall, "{cpu:.3} s of CPU in {wall:.3} s between its {gaps} turns");
}
