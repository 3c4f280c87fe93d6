//! `human` at the table, in a terminal: `arena play` driven through a pipe
//! as a person would type, question by question (issue 49). Every game is
//! played to its end through the terminal interface, with entries refused
//! (a typo never loses); the end of input is a resignation, never a hang;
//! `quit` keeps the match's results; a bot's result against a person is
//! verified from the replay.

use std::{
    io::{Read, Write},
    process::{Command, Stdio},
    sync::mpsc,
    time::{Duration, Instant},
};

use crate::support::{stderr, stdout};

/// What the person sees when asked: the text since the last answer, the
/// question's legal answers (the last list shown), and how many questions
/// came before.
struct Asked<'a> {
    text: &'a str,
    legal: &'a [String],
    number: usize,
}

/// What the arena printed: stdout (results), stderr (the person's table),
/// and whether it exited successfully.
struct Session {
    out: String,
    table: String,
    success: bool,
}

/// Runs `arena ARGS` with a person at its stdin: each time it asks (its
/// stderr ends in "> "), `answer` gives the line to type, or None to close
/// the input. Fails if the run takes over a minute.
fn play(args: &[&str], mut answer: impl FnMut(&Asked) -> Option<String>) -> Session {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (chunks, received) = mpsc::channel::<Vec<u8>>();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut buffer = [0u8; 1 << 16];
        while let Ok(n @ 1..) = err.read(&mut buffer) {
            if chunks.send(buffer[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut out = child.stdout.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut text = String::new();
        out.read_to_string(&mut text).unwrap();
        text
    });
    let mut input = child.stdin.take();
    let (mut table, mut pending, mut legal, mut number) = (String::new(), String::new(), Vec::new(), 0);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let chunk = match received.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(chunk) => chunk,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                child.kill().unwrap();
                panic!("the arena hung; its table so far:\n{table}{pending}");
            }
        };
        pending.push_str(&String::from_utf8_lossy(&chunk));
        if !pending.ends_with("> ") {
            continue;
        }
        if let Some(line) = pending.lines().rev().find_map(|l| l.strip_prefix("legal: ")) {
            legal = line.split(", ").map(str::to_string).collect();
        }
        let typed = answer(&Asked { text: &pending, legal: &legal, number });
        number += 1;
        table.push_str(&pending);
        pending.clear();
        match (typed, input.as_mut()) {
            (Some(line), Some(stdin)) => {
                table.push_str(&format!("{line}\n"));
                // The arena may have ended the game meanwhile: a closed pipe is fine.
                let _ = stdin.write_all(format!("{line}\n").as_bytes());
            }
            _ => drop(input.take()),
        }
    }
    table.push_str(&pending);
    drop(input);
    let status = child.wait().unwrap();
    reader.join().unwrap();
    Session { out: out_reader.join().unwrap(), table, success: status.success() }
}

/// A person who picks among the legal answers by a fixed sequence, after
/// typing `refused` lines (each must be refused) at the first question.
fn scripted(refused: &'static [&'static str]) -> impl FnMut(&Asked) -> Option<String> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    move |asked| {
        if let Some(line) = refused.get(asked.number) {
            return Some(line.to_string());
        }
        assert!(!asked.legal.is_empty(), "a question lists its legal answers:\n{}", asked.text);
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        Some(asked.legal[(state % asked.legal.len() as u64) as usize].clone())
    }
}

/// The game was played to its end by the person, with every line of
/// `refused` refused and asked again, and nothing given up.
fn played_through(session: &Session, refused: &[&str]) {
    assert!(session.success, "{}\n{}", session.out, session.table);
    assert_eq!(
        session.table.matches("refused: ").count(),
        refused.len(),
        "each bad line is refused once:\n{}",
        session.table
    );
    assert!(session.table.contains("game over: "), "{}", session.table);
    assert!(!session.table.contains("given up"), "{}", session.table);
    assert!(!session.out.contains("resigned"), "{}", session.out);
}

#[test]
fn trap_is_played_to_the_end_by_a_person_at_a_terminal_typos_and_all() {
    let refused = &["hello", "3 3", "(0,3)", "0 3 4", "-1 2"];
    let session = play(&["play", "human", "easy", "--seed", "7", "--in-process"], scripted(refused));
    played_through(&session, refused);
    assert!(
        session.table.contains("refused: a move to (3,3): not one king step from (0,3)"),
        "{}",
        session.table
    );
    assert!(session.table.contains("hit chance of a throw at each cell"), "{}", session.table);
    // The opponent's turns are told as they are played, aimed and landed.
    assert!(session.table.contains("player 2 (easy) moves"), "{}", session.table);
    assert!(session.out.contains("human (P1) vs easy (P2)"), "{}", session.out);
}

#[test]
fn hexapawn_is_played_to_the_end_by_a_person() {
    let refused = &["e2e4", "2 1 0 1", "0 1"];
    let args = ["play", "--game", "hexapawn", "hard", "human", "--seed", "3", "--in-process"];
    let session = play(&args, scripted(refused));
    played_through(&session, refused);
    assert!(session.table.contains("Black (B), moving down"), "{}", session.table);
    assert!(session.table.contains("White (hard) moves"), "{}", session.table);
    // Against a library in its sandboxed worker: the learner of the
    // Hexapawn seed document, over a match.
    let menace = crate::support::library("menace");
    let args =
        ["play", "--game", "hexapawn", "human", menace.to_str().unwrap(), "--games", "4", "--seed", "3"];
    let session = play(&args, scripted(&[]));
    assert!(session.success, "{}\n{}", session.out, session.table);
    assert_eq!(session.table.matches("game over: ").count(), 4, "{}", session.table);
    assert!(session.out.contains("4 games"), "{}", session.out);
}

#[test]
fn the_single_player_games_are_played_to_the_end_by_a_person() {
    let cases: [(&str, &[&str], &[&'static str]); 3] = [
        ("intuitive-ai", &[], &["9 9", "x y"]),
        ("wumpus", &[], &["jump", "grab", "shoot shoot"]),
        ("magic-forest", &["--largest-forest", "4"], &["fly", "throw far"]),
    ];
    for (game, options, refused) in cases {
        let mut args = vec!["play", "--game", game, "human", "--seed", "5", "--in-process"];
        args.extend(options);
        let session = play(&args, scripted(refused));
        played_through(&session, refused);
        assert!(session.out.contains("human"), "{game}: {}", session.out);
    }
}

#[test]
fn the_end_of_input_resigns_at_once_and_the_result_is_printed() {
    let started = Instant::now();
    let session = play(&["play", "human", "hard", "--seed", "1", "--in-process"], |_| None);
    assert!(started.elapsed() < Duration::from_secs(20), "no hang");
    assert!(session.success, "{}", session.table);
    assert!(session.table.contains("end of input: the game is given up"), "{}", session.table);
    assert!(session.out.contains("hard wins") && session.out.contains("(end of input)"), "{}", session.out);
    assert!(session.out.contains("1 resigned"), "{}", session.out);
    // Hexapawn resigns with its own action.
    let args = ["play", "--game", "hexapawn", "human", "hard", "--seed", "1", "--in-process", "--json"];
    let session = play(&args, |_| None);
    let json: serde_json::Value = serde_json::from_str(&session.out).unwrap();
    assert_eq!(json["players"][1]["wins"], 1, "{json}");
}

#[test]
fn quit_ends_the_match_and_keeps_the_games_played() {
    let mut games_started = 0;
    let session = play(
        &["play", "--game", "intuitive-ai", "human", "--games", "5", "--seed", "2", "--in-process"],
        |asked| {
            if asked.text.contains("reveal 1,") {
                games_started += 1;
            }
            if games_started == 3 {
                return Some("quit".into());
            }
            Some(asked.legal[0].clone())
        },
    );
    assert!(session.success, "{}", session.table);
    let lines: Vec<&str> = session.out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(lines.len(), 3, "two games played and the one quit:\n{}", session.out);
    assert!(lines[2].contains("quit"), "{}", session.out);
    assert!(session.out.contains("3 games"), "the summary counts what was played:\n{}", session.out);
}

#[test]
fn a_bots_result_against_a_person_is_verified_from_the_replay() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let file_arg = file.to_str().unwrap();
    let args = ["play", "human", "medium", "--seed", "11", "--in-process", "--replay", file_arg];
    let session = play(&args, scripted(&["nonsense"]));
    played_through(&session, &["nonsense"]);
    let replay: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(replay["players"][0]["source"], "human", "the seat is recorded as a person: {replay}");
    let verified = crate::support::arena(&["replay", "--verify", file_arg], &[]);
    assert!(verified.status.success(), "{}{}", stdout(&verified), stderr(&verified));
    assert!(stdout(&verified).contains("verified"), "{}", stdout(&verified));
    // A person who resigned is verified too.
    let resigned = dir.path().join("resigned.json");
    let args = ["play", "--game", "wumpus", "human", "--seed", "4", "--in-process", "--replay"];
    let mut args = args.to_vec();
    args.push(resigned.to_str().unwrap());
    let session = play(&args, |asked| (asked.number < 2).then(|| "left".to_string()));
    assert!(session.success, "{}", session.table);
    let verified = crate::support::arena(&["replay", "--verify", resigned.to_str().unwrap()], &[]);
    assert!(verified.status.success(), "{}{}", stdout(&verified), stderr(&verified));
}
