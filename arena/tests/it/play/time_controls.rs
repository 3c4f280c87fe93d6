//! Time controls: a time bank with an increment (charged each turn, told
//! to a program in its requests), each player's own control (`--tc1`,
//! `--tc2`, a tournament entry's `tc`), recorded in `--json` and replays.

use std::time::Duration;

use arena_core::{
    game::Agent,
    games::trap::{
        referee::{self, Ending, TrapRecord, TrapSettings, TurnActions},
        Trap,
    },
    play::clock::{thread_cpu, Clock},
    play::fault::Fault,
    play::time_control::{TimeBank, TimeControl},
    players::agent::AbiPlayer,
    players::Level,
};
use player_api::{
    trap::{TrapGameInfo, TrapRequest},
    GameOver, Seat,
};
use serde_json::Value;

use crate::support::{self, library, play_json};

/// Easy, computing for `think(turn)` of CPU time before each of its
/// answers, and keeping the banks it was told.
///
/// It computes rather than sleeps, and the games are charged on the CPU
/// clock: a turn costs what it computed whatever the machine's load. On
/// the wall clock, beside busy loops, a 40 ms turn of sleep took up to
/// 440 ms in process, and games were lost on time where none should be.
struct Thinking {
    easy: AbiPlayer<Trap>,
    think: fn(&TrapRequest, u32) -> Duration,
    turns: u32,
    told: Vec<TimeBank>,
}

impl Thinking {
    fn new(think: fn(&TrapRequest, u32) -> Duration) -> Thinking {
        Thinking { easy: AbiPlayer::builtin(Level::Easy), think, turns: 0, told: Vec::new() }
    }
}

impl Agent<Trap> for Thinking {
    fn new_game(&mut self, info: TrapGameInfo, budget: Duration) -> Result<(), Fault> {
        self.easy.new_game(info, budget)
    }

    fn act(&mut self, request: TrapRequest, budget: Duration) -> Result<TurnActions, Fault> {
        compute((self.think)(&request, self.turns));
        self.turns += 1;
        self.easy.act(request, budget)
    }

    fn time_bank(&mut self, bank: TimeBank) -> Result<(), Fault> {
        self.told.push(bank);
        Ok(())
    }

    fn game_over(&mut self, over: GameOver) {
        self.easy.game_over(over)
    }
}

/// Spins until this thread has used `time` more of CPU time.
fn compute(time: Duration) {
    let until = thread_cpu() + time;
    while thread_cpu() < until {
        std::hint::spin_loop();
    }
}

/// Seat 1 thinks as `think` under `control`; seat 2 is Easy under 5 s a
/// turn; both charged on the CPU clock.
fn game(control: &str, think: fn(&TrapRequest, u32) -> Duration) -> (TrapRecord, Vec<TimeBank>) {
    let mut thinking = Thinking::new(think);
    let mut easy = AbiPlayer::<Trap>::builtin(Level::Easy);
    let controls = [control.parse().unwrap(), TimeControl::default()];
    let record = referee::play_timed(
        &TrapSettings { clock: Clock::Cpu, ..TrapSettings::default() },
        controls,
        11,
        [&mut thinking, &mut easy],
        &mut |_, _| {},
    );
    (record, thinking.told)
}

fn timed_out(record: &TrapRecord, seat: Seat) -> bool {
    matches!(&record.ending, Ending::Fault { loser, fault: Fault::Timeout { .. } } if *loser == seat)
}

#[test]
fn a_player_that_spends_its_whole_bank_loses_on_time_on_its_next_turn() {
    // Its first turn spends all but 60 ms of the bank (as its request says);
    // its second thinks 200 ms, more than the 60 ms left (no increment).
    let (record, told) = game("1s+0s", |request, turn| match turn {
        0 => request.time_left().saturating_sub(Duration::from_millis(60)),
        _ => Duration::from_millis(200),
    });
    assert!(timed_out(&record, Seat::One), "{:?}", record.ending);
    let mine: Vec<_> = record.turns.iter().filter(|t| t.seat == Seat::One).collect();
    assert_eq!(mine.len(), 1, "it lost on its second turn");
    assert!(mine[0].bank_left.unwrap() < Duration::from_millis(70), "{:?}", mine[0].bank_left);
    // It was told the bank before each turn: full, then what was left.
    assert_eq!(told.len(), 2);
    assert_eq!(told[0].left_us, 1_000_000);
    assert_eq!(told[1].left_us, mine[0].bank_left.unwrap().as_micros() as u64);
    assert_eq!((told[0].increment_us, told[0].turn_cap_us), (0, 0));
}

#[test]
fn a_player_that_thinks_its_increment_never_runs_out() {
    // 40 ms a turn, with 40 ms gained each turn: the bank only loses the
    // overshoot of each turn's computing.
    let think = |_: &TrapRequest, _: u32| Duration::from_millis(40);
    let (record, _) = game("300ms+40ms", think);
    assert!(record.ending.fault().is_none(), "{:?}", record.ending);
    let mine: Vec<_> = record.turns.iter().filter(|t| t.seat == Seat::One).collect();
    assert!(mine.len() >= 5, "a game long enough to have run a bank out: {} turns", mine.len());
    let last = mine.last().unwrap().bank_left.unwrap();
    assert!(last > Duration::from_millis(150), "{last:?}");
    // The same thinking under a budget per turn below it loses at once.
    let (record, told) = game("30ms", think);
    assert!(timed_out(&record, Seat::One), "{:?}", record.ending);
    assert!(told.is_empty(), "nothing is told under a budget per turn");
}

#[test]
fn a_cap_limits_each_turn_of_a_bank() {
    // A bank of 10 s capped at 100 ms a turn: a 200 ms turn is late.
    let (record, told) = game("10s+0s,cap=100ms", |_, _| Duration::from_millis(200));
    assert!(timed_out(&record, Seat::One), "{:?}", record.ending);
    assert_eq!(told[0].turn_cap_us, 100_000);
    let Ending::Fault { fault: Fault::Timeout { budget, .. }, .. } = &record.ending else { unreachable!() };
    assert_eq!(*budget, Duration::from_millis(100));
}

fn seat_controls(replay: &Value) -> Vec<String> {
    let controls = &replay["settings"]["seat_time_controls"];
    controls.as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect()
}

#[test]
fn each_player_plays_under_its_own_control_recorded_in_the_json_and_the_replays() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let replays = dir.join("replays");
    let args = ["expert", "hard", "--games", "2", "--seed", "4", "--tc1", "20ms", "--tc2", "200ms"];
    let replays_arg = replays.to_str().unwrap();
    let doc = play_json(&[&args[..], &["--replay", replays_arg]].concat(), &[]);
    assert_eq!(doc["player_time_controls"], serde_json::json!(["20ms", "200ms"]));
    // Game 1: expert in seat 1; game 2: seats swapped, and so are the controls.
    let mut files: Vec<_> = std::fs::read_dir(&replays).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    let read =
        |path: &std::path::Path| -> Value { serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap() };
    let (one, two) = (read(&files[0]), read(&files[1]));
    assert_eq!(one["players"][0]["name"], "expert");
    assert_eq!(seat_controls(&one), ["20ms", "200ms"]);
    assert_eq!(two["players"][0]["name"], "hard");
    assert_eq!(seat_controls(&two), ["200ms", "20ms"]);
    // And the replays verify under the controls they record.
    for file in &files {
        let out = support::arena(&["replay", "--verify", file.to_str().unwrap()], &[]);
        assert!(out.status.success(), "{}", support::stderr(&out));
    }
}

#[test]
fn a_library_under_a_time_bank_is_charged_each_turn_though_told_only_its_limit() {
    // The library sleeps 150 ms a turn on a 580 ms bank with no increment:
    // 580 -> ~430 -> ~280 -> ~130, and its fourth turn is late. Stalls of
    // a loaded machine, which the wall clock may charge, may add 130 ms to
    // the first three (the sleeps are the point: the CPU clock would charge
    // none of them).
    let bad = library("bad-player");
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let mut args = vec![bad.to_str().unwrap(), "easy", "--games", "2", "--seed", "5", "--tc", "580ms+0s"];
    let replays = dir.join("replays");
    args.extend(["--replay", replays.to_str().unwrap()]);
    args.extend(support::pass_env(&support::BAD_PLAYER_ORDERS));
    let env = [("BAD_PLAYER_MODE", "sleep"), ("BAD_PLAYER_SLEEP_MS", "150")];
    let doc = play_json(&args, &env);
    assert_eq!(doc["settings"]["time_control"], "580ms+0s");
    assert_eq!(doc["players"][0]["failures"]["timeout"], 2, "{doc}");
    for entry in std::fs::read_dir(&replays).unwrap() {
        let replay: Value = serde_json::from_slice(&std::fs::read(entry.unwrap().path()).unwrap()).unwrap();
        let seat = if replay["players"][0]["name"] == "easy" { 2 } else { 1 };
        let left: Vec<u64> = replay["turns"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["seat"] == seat)
            .map(|t| t["bank_left_us"].as_u64().unwrap())
            .collect();
        assert_eq!(left.len(), 3, "three turns on time, then late: {left:?}");
        assert!(left.windows(2).all(|w| w[1] + 100_000 < w[0]), "charged each turn: {left:?}");
        assert!(left[2] < 150_000, "{left:?}");
    }
    // Under the course's 5 s a turn the same sleeps are on time.
    let mut per_turn = args.clone();
    let at = per_turn.iter().position(|a| *a == "580ms+0s").unwrap();
    per_turn[at] = "5s";
    let replays_at = per_turn.iter().position(|a| *a == "--replay").unwrap();
    per_turn.drain(replays_at..replays_at + 2);
    let doc = play_json(&per_turn, &env);
    assert_eq!(doc["players"][0]["failures"]["timeout"], 0, "{doc}");
}

#[test]
fn bad_time_controls_are_one_clear_line() {
    let out = support::arena(&["play", "easy", "hard", "--tc", "60s+"], &[]);
    assert!(!out.status.success());
    let err = support::stderr(&out);
    assert!(err.contains("60s+") && err.contains("60s+1s"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_tournament_entry_plays_under_its_own_control_kept_in_its_journal_and_replays() {
    let dir = tempfile::tempdir().unwrap();
    let text = "seed = 3\nformat = \"round-robin\"\ngames_per_pairing = 2\noutput = \"out\"\n\
                players = [{ player = \"easy\", tc = \"2s+100ms\" }, \"medium\"]\n\
                [settings]\ntime_per_turn = \"1s\"\n[replays]\nsave = \"all\"\n";
    let file = support::write_file(dir.path(), "odds.toml", text);
    let output = support::arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", support::stderr(&output));
    let journal = dir.path().join("out").join(arena_core::tournament::journal::FILE_NAME);
    let (_, games, _) = arena_core::tournament::journal::read(&journal).unwrap();
    assert_eq!(games.len(), 2);
    for game in &games {
        for (seat, &id) in game.seats.iter().enumerate() {
            let clock = &game.clock[seat];
            if id == 0 {
                assert_eq!(clock.time_control.map(|c| c.to_string()).as_deref(), Some("2s+100ms"));
                assert!(clock.bank_left_us.unwrap() > 1_900_000, "{clock:?}");
            } else {
                assert_eq!(
                    (clock.time_control, clock.bank_left_us),
                    (None, None),
                    "medium: the settings' 1s"
                );
            }
        }
    }
    let replays = dir.path().join("out").join("replays");
    let mut seen = 0;
    for entry in std::fs::read_dir(&replays).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let replay: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let easy_seat = if replay["players"][0]["name"] == "easy" { 0 } else { 1 };
        let controls = seat_controls(&replay);
        assert_eq!(controls[easy_seat], "2s+100ms");
        assert_eq!(controls[1 - easy_seat], "1s");
        seen += 1;
    }
    assert_eq!(seen, 2);
    // A bad control is one line naming the entry.
    let bad = support::write_file(dir.path(), "bad.toml", &text.replace("2s+100ms", "fast"));
    let output = support::arena(&["tournament", "run", bad.to_str().unwrap()], &[]);
    let err = support::stderr(&output);
    assert!(!output.status.success() && err.contains("players[0].tc") && err.contains("fast"), "{err}");
}

/// The score against Hard in a sweep's table, per row: "  1s  50% (..)  40% (..)  100% (..)".
fn scores_against_hard(table: &str) -> Vec<u32> {
    let rows = table.lines().skip_while(|l| !l.starts_with("time control")).skip(1);
    rows.take_while(|l| !l.trim().is_empty())
        .map(|row| {
            let cells: Vec<&str> = row.split('%').collect();
            cells[2].rsplit(')').next().unwrap().trim().parse().unwrap()
        })
        .collect()
}

#[test]
fn a_sweep_plays_the_ladder_at_each_of_the_players_controls_and_the_levels_at_theirs() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("sweep.html");
    let args = ["bench", "easy", "--tc-sweep", "1s,5s", "--games", "10", "--seed", "3"];
    let out = support::arena(&[&args[..], &["--tc2", "1us", "--html", page.to_str().unwrap()]].concat(), &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let odds = support::stdout(&out);
    assert!(odds.contains("the levels at 1us"), "{odds}");
    assert!(
        odds.contains("\n          1s ") && odds.contains("\n          5s "),
        "a row per control: {odds}"
    );
    // Hard at 1 us a turn answers late, game after game.
    let hard_at_odds = scores_against_hard(&odds);
    assert_eq!(hard_at_odds.len(), 2, "{odds}");
    assert!(hard_at_odds.iter().all(|&s| s >= 90), "{odds}");
    let out = support::arena(&args, &[]);
    let even = support::stdout(&out);
    assert!(even.contains("the levels at 5s"), "{even}");
    assert!(scores_against_hard(&even).iter().all(|&s| s <= 50), "easy against hard at 5 s: {even}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<svg") && html.contains("easy: what time buys"), "{html}");
    // A single-player game has no ladder to sweep, and says so.
    let out = support::arena(&["bench", "--game", "wumpus", "easy", "--tc-sweep", "1s"], &[]);
    let err = support::stderr(&out);
    assert!(!out.status.success() && err.contains("--tc-sweep") && err.contains("single-player"), "{err}");
}
