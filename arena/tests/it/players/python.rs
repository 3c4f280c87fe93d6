//! Players in other languages: Python players hosted by the `arena_player`
//! package (course `PlayerAI.py` folders and native players) and a program
//! that speaks the protocol by hand, all run by the arena binary as program
//! players. Needs python3 with numpy (`.ci/run` installs it); the package
//! is the one the arena carries (players/python_host.rs), or with
//! `ARENA_PYTHON_HOST=installed` the repository's (PYTHONPATH).

use arena_core::games::{
    hexapawn::Hexapawn, intuitive::IntuitiveAi, magic_forest::MagicForest, wumpus::Wumpus,
};
use arena_core::play::solo;
use std::{
    path::{Path, PathBuf},
    process::Command,
    sync::OnceLock,
};

use crate::alone;
use crate::support::{self, arena, library, stderr, stdout, workspace_root};
use serde_json::Value;

fn examples() -> PathBuf {
    workspace_root().join("players/python/examples")
}

fn test_players() -> PathBuf {
    workspace_root().join("arena/tests/python")
}

/// The environment every run here gets: the repository's arena_player.
/// Checks once that python3 and numpy are there, with the fix if not.
pub(crate) fn python_env() -> Vec<(&'static str, String)> {
    static CHECKED: OnceLock<()> = OnceLock::new();
    let package = workspace_root().join("players/python/src").display().to_string();
    CHECKED.get_or_init(|| {
        let probe = Command::new("python3").args(["-c", "import numpy"]).output();
        let ok = probe.as_ref().is_ok_and(|o| o.status.success());
        assert!(ok, "these tests need python3 with numpy: run `python3 -m pip install numpy` (or .ci/run)");
    });
    vec![("PYTHONPATH", package)]
}

fn with<'a>(base: &'a [(&'static str, String)], extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut all: Vec<(&str, &str)> = base.iter().map(|(k, v)| (*k, v.as_str())).collect();
    all.extend_from_slice(extra);
    all
}

/// The variables the test players read (their orders): a worker gets them
/// only when the arena is told to pass them.
const PASS_ORDERS: [&str; 6] =
    ["--pass-env", "BAD_PYTHON_MODE", "--pass-env", "BAD_PYTHON_SLEEP", "--pass-env", "RAW_MODE"];

/// `arena play ARGS --json`, the test players' orders passed.
fn play(args: &[&str], extra_env: &[(&str, &str)]) -> Value {
    let base = python_env();
    support::play_json(&[args, &PASS_ORDERS].concat(), &with(&base, extra_env))
}

fn spec(prefix: &str, path: &Path) -> String {
    format!("{prefix}{}", path.display())
}

/// Asserts that player 0 played whole games: no failure of its own, every
/// game ended by the rules, and it moved in every game.
fn assert_clean_games(doc: &Value, what: &str) {
    let failures = doc["players"][0]["failures"].as_object().unwrap();
    assert!(failures.values().all(|n| n == 0), "{what}: {failures:?}");
    for game in doc["games"].as_array().unwrap() {
        let reason = game["reason"].as_str().unwrap();
        assert!(reason == "trapped" || reason == "boxed in", "{what}: {game}");
        assert!(game["turns"].as_u64().unwrap() >= 2, "{what}: {game}");
    }
}

#[test]
fn course_players_play_whole_games_against_every_reference_bot() {
    for folder in ["random_player", "greedy_player", "helper_player"] {
        let player = spec("python:", &examples().join("course").join(folder));
        for level in ["easy", "medium", "hard"] {
            let doc = play(&[&player, level, "--games", "2", "--seed", "11"], &[]);
            assert_eq!(doc["players"][0]["name"], Value::from(folder), "the folder names the player");
            assert_clean_games(&doc, &format!("{folder} vs {level}"));
        }
    }
}

#[test]
fn greedy_course_player_beats_easy_more_often_than_not() {
    // It searches one step; Easy plays at random. A broken grid (wrong
    // neighbours, wrong cell values) would make it no better than random.
    let greedy = spec("python:", &examples().join("course/greedy_player"));
    let doc = play(&[&greedy, "easy", "--games", "20", "--seed", "3"], &[]);
    assert_clean_games(&doc, "greedy vs easy");
    let wins = doc["players"][0]["wins"].as_u64().unwrap();
    assert!(wins >= 13, "greedy won {wins} of 20 against easy");
}

#[test]
fn a_bare_folder_or_py_path_is_a_python_player() {
    let folder = examples().join("course/greedy_player");
    let doc = play(&[folder.to_str().unwrap(), "easy", "--games", "2", "--seed", "1"], &[]);
    assert_eq!(doc["players"][0]["source"], Value::from(spec("python:", &folder)));
    let native = examples().join("native/first_legal.py");
    let doc = play(&[native.to_str().unwrap(), "easy", "--games", "2", "--seed", "1"], &[]);
    assert_eq!(doc["players"][0]["name"], Value::from("first-legal"));
    assert_clean_games(&doc, "first-legal");
}

#[test]
fn native_players_run_as_python_or_as_a_command_and_are_deterministic() {
    let file = examples().join("native/random_bot.py");
    let as_python = play(&[&spec("python:", &file), "medium", "--games", "4", "--seed", "9"], &[]);
    let command = format!("cmd:python3 {}", file.display());
    let as_command = play(&[&command, "medium", "--games", "4", "--seed", "9"], &[]);
    assert_clean_games(&as_python, "random-bot");
    // Same seed, same player: the same games, however it is started.
    assert_eq!(as_python["games"], as_command["games"]);
}

/// Every turn of the games `arena play ARGS --replay OUT` wrote (a folder's
/// files in game order, or one file), as (move, trap aimed): what the
/// players chose.
fn chosen_moves(args: &[&str], out: &Path) -> Vec<Vec<(Value, Value)>> {
    let base = python_env();
    let output = arena(&[&["play"], args, &["--replay", out.to_str().unwrap()]].concat(), &with(&base, &[]));
    assert!(output.status.success(), "{}", stderr(&output));
    let mut files: Vec<PathBuf> = match out.is_dir() {
        true => std::fs::read_dir(out).unwrap().map(|e| e.unwrap().path()).collect(),
        false => vec![out.to_path_buf()],
    };
    files.sort();
    let game = |file: &PathBuf| {
        let replay: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let turns = replay["turns"].as_array().unwrap().iter();
        turns.map(|t| (t["move"].clone(), t["throw"]["target"].clone())).collect()
    };
    files.iter().map(game).collect()
}

#[test]
fn a_python_players_own_luck_is_seeded_by_the_game() {
    // Its choices come from random, numpy's global generator and the hash
    // order of a set of strings, none of which it seeds itself.
    let player = spec("python:", &test_players().join("lucky_player"));
    let dir = tempfile::tempdir().unwrap();
    let match_args = [player.as_str(), "easy", "--games", "4", "--seed", "5"];
    let first = chosen_moves(&match_args, &dir.path().join("first"));
    assert_eq!(first.len(), 4);
    let again = chosen_moves(&match_args, &dir.path().join("again"));
    assert_eq!(first, again, "the same match, played again, is the same games, move by move");
    // Game 4 alone (the player in seat 2, in a process that played no game
    // before it) is game 4 of the match.
    let one = [player.as_str(), "easy", "--only-game", "4", "--seed", "5"];
    assert_eq!(chosen_moves(&one, &dir.path().join("four.json")), first[3..]);
}

#[test]
fn a_program_speaking_the_protocol_by_hand_plays() {
    let raw = format!("cmd:python3 {}", test_players().join("raw_protocol_player.py").display());
    let doc = play(&[&raw, "hard", "--games", "2", "--seed", "2"], &[]);
    assert_eq!(doc["players"][0]["name"], Value::from("raw"));
    assert_clean_games(&doc, "raw protocol player");
    // Text where frames go is a protocol fault that says what the bytes were.
    let doc = play(&[&raw, "hard", "--games", "2", "--seed", "2"], &[("RAW_MODE", "garbage")]);
    for game in doc["games"].as_array().unwrap() {
        let reason = game["reason"].as_str().unwrap();
        assert!(reason.starts_with("garbage reply: frame length"), "{reason}");
        assert!(reason.contains("its bytes read \"thin\""), "{reason}");
    }
}

/// Two games (one per seat) of the bad course player in `mode` against
/// Easy; asserts it lost both, by a failure of `kind`, and returns the reasons.
fn bad_reasons(mode: &str, kind: &str, extra: &[&str]) -> Vec<String> {
    let bad = spec("python:", &test_players().join("bad_player"));
    let mut args = vec![bad.as_str(), "easy", "--games", "2", "--seed", "4"];
    args.extend_from_slice(extra);
    let doc = play(&args, &[("BAD_PYTHON_MODE", mode)]);
    let games = doc["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{mode}: the arena goes on to the next game");
    for game in games {
        assert_eq!(game["winner"], Value::from(1), "{mode}: the bad player must lose {game}");
    }
    assert_eq!(doc["players"][0]["failures"][kind], Value::from(2), "{mode}: {}", doc["players"][0]);
    games.iter().map(|g| g["reason"].as_str().unwrap().to_string()).collect()
}

#[test]
fn an_exception_loses_with_its_type_message_and_line() {
    for reason in bad_reasons("raise", "panicked", &[]) {
        assert_eq!(
            reason,
            "panicked: ValueError: bad player raises on purpose (at PlayerAI.py:21, in getMove)"
        );
    }
}

#[test]
fn answers_that_are_not_cells_are_invalid_actions() {
    let fix = "must return a (row, col) tuple of integers";
    for reason in bad_reasons("none", "illegal", &[]) {
        assert_eq!(reason, format!("invalid action: getMove returned None: getMove {fix}"));
    }
    // Seat 1's first legal neighbour of (0,3) is (0,2); seat 2's of (6,3)
    // is (5,2) unless Easy's first trap took it.
    let lists = bad_reasons("list", "illegal", &[]);
    assert_eq!(lists[0], format!("invalid action: getMove returned a list ([0, 2]): getMove {fix}"));
    let seat_two = ["[5, 2]", "[5, 3]", "[5, 4]", "[6, 2]", "[6, 4]"]
        .map(|cell| format!("invalid action: getMove returned a list ({cell}): getMove {fix}"));
    assert!(seat_two.contains(&lists[1]), "a neighbour of (6,3): {}", lists[1]);
    let floats = bad_reasons("floats", "illegal", &[]);
    assert_eq!(
        floats[0],
        format!("invalid action: getMove returned (0.0, 2.0), which holds a float: getMove {fix}")
    );
    for reason in bad_reasons("trap-none", "illegal", &[]) {
        assert_eq!(reason, format!("invalid action: getTrap returned None: getTrap {fix}"));
    }
}

#[test]
fn an_off_board_tuple_is_an_illegal_move() {
    assert_eq!(bad_reasons("off-board", "illegal", &[]), ["illegal move (7,3): off the board"; 2]);
}

#[test]
fn sleeping_past_the_budget_is_killed() {
    for reason in bad_reasons("sleep", "timeout", &["--time-per-turn", "200ms"]) {
        assert!(
            reason.starts_with("timeout: 0.") && reason.ends_with("> 0.20 s, no answer: killed"),
            "{reason}"
        );
    }
}

#[test]
fn printing_is_logged_not_fatal_but_a_flood_loses() {
    let bad = spec("python:", &test_players().join("bad_player"));
    let base = python_env();
    let env = with(&base, &[("BAD_PYTHON_MODE", "print")]);
    let args = ["play", &bad, "easy", "--games", "2", "--seed", "4", "-v"];
    let output = arena(&[&args[..], &PASS_ORDERS].concat(), &env);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("no failures"), "{}", stdout(&output));
    // print() went to the logs, not into the protocol.
    assert!(stderr(&output).contains("thinking about ("), "{}", stderr(&output));
    for reason in bad_reasons("flood", "output", &[]) {
        assert_eq!(reason, "output flood: printed more than 1024 KiB in one game");
    }
}

#[test]
fn the_memory_cap_holds_for_python_players() {
    for reason in bad_reasons("memory", "panicked", &["--memory-limit", "512MiB"]) {
        assert!(reason.starts_with("panicked: MemoryError (at PlayerAI.py:"), "{reason}");
    }
}

#[test]
fn exiting_is_a_crash() {
    assert_eq!(bad_reasons("exit", "crashed", &[]), ["crashed: exited with status 3"; 2]);
}

/// Runs `arena play PLAYER easy` expecting a load error; returns its one line.
fn load_error(player: &str, env: &[(&str, &str)]) -> String {
    let base = python_env();
    let output = arena(&["play", player, "easy"], &with(&base, env));
    assert_eq!(output.status.code(), Some(2), "{player}: {}", stdout(&output));
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with(&format!("error: cannot load player '{player}': ")), "{err}");
    err
}

#[test]
fn start_up_problems_are_one_line_naming_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken");
    std::fs::create_dir(&broken).unwrap();
    std::fs::write(broken.join("PlayerAI.py"), "import helpers_we_forgot\n").unwrap();
    let err = load_error(&spec("python:", &broken), &[]);
    assert!(
        err.contains("PlayerAI.py cannot import 'helpers_we_forgot': put helpers_we_forgot.py in"),
        "{err}"
    );

    std::fs::write(broken.join("PlayerAI.py"), "def getMove(self:\n").unwrap();
    let err = load_error(&spec("python:", &broken), &[]);
    assert!(err.contains("PlayerAI.py has a syntax error at line 1"), "{err}");

    std::fs::write(broken.join("PlayerAI.py"), "class Player:\n    pass\n").unwrap();
    let err = load_error(&spec("python:", &broken), &[]);
    assert!(err.contains("defines neither a TrapPlayer subclass nor a class PlayerAI"), "{err}");

    let err = load_error(&spec("python:", &dir.path().join("nowhere")), &[]);
    assert!(
        err.contains("no Python player at") && err.contains("name a folder holding PlayerAI.py"),
        "{err}"
    );

    let err = load_error(&spec("python:", dir.path()), &[]);
    assert!(err.contains("holds no PlayerAI.py"), "{err}");

    let greedy = spec("python:", &examples().join("course/greedy_player"));
    let err = load_error(&greedy, &[("ARENA_PYTHON", "no-such-python")]);
    assert!(err.contains("cannot find no-such-python on PATH: install Python 3"), "{err}");

    // A Python without the package, asked to run its own: a virtual environment of its own.
    let bare = support::python_venv(dir.path(), "bare-venv");
    let own =
        [("ARENA_PYTHON", bare.to_str().unwrap()), ("PYTHONPATH", ""), ("ARENA_PYTHON_HOST", "installed")];
    let err = load_error(&greedy, &own);
    assert!(err.contains("cannot find the arena_player package, and ARENA_PYTHON_HOST=installed"), "{err}");
    assert!(
        err.contains("-m pip install ./players/python") && err.contains("unset ARENA_PYTHON_HOST"),
        "{err}"
    );
    // A Python older than the host needs (a stand-in that says it is 3.9).
    let old = dir.path().join("python3.9");
    let answers = "#!/bin/sh\ncase \"$2\" in *version_info*) printf '3.9\\n%s\\n/usr\\n' \"$0\";; *) echo \"$0\";; esac\n";
    std::fs::write(&old, answers).unwrap();
    std::fs::set_permissions(&old, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let err = load_error(&greedy, &[("ARENA_PYTHON", old.to_str().unwrap())]);
    assert!(err.contains("is Python 3.9: Python players need 3.10 or newer; set ARENA_PYTHON"), "{err}");
    let err = load_error(&greedy, &[("ARENA_PYTHON_HOST", "mine")]);
    assert!(err.contains("ARENA_PYTHON_HOST=\"mine\" is not a host: set it to `carried`"), "{err}");

    let err = load_error("cmd:echo hello", &[]);
    assert!(err.contains("it does not speak the protocol") && err.contains("\"hell\""), "{err}");
    let err = load_error("cmd:./no-such-bot", &[]);
    assert!(err.contains("no program at ./no-such-bot"), "{err}");
    let err = load_error("cmd:true", &[]);
    assert!(err.contains("it exited with status 0 before saying hello"), "{err}");
}

#[test]
fn check_reports_a_course_folder() {
    let base = python_env();
    let player = spec("python:", &examples().join("course/helper_player"));
    let output = arena(&["check", &player], &with(&base, &[]));
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    for expected in [
        "program     python:",
        "runs        ",
        "-m arena_player",
        "name        helper_player",
        "protocol    1",
        "\nok",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    let bad = spec("python:", &test_players().join("bad_player"));
    let output =
        arena(&[&["check", &bad][..], &PASS_ORDERS].concat(), &with(&base, &[("BAD_PYTHON_MODE", "none")]));
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).contains("problem: bad_player lost by a fault: invalid action"),
        "{}",
        stdout(&output)
    );
}

/// The shipped tournament file, with its library paths pointed at the
/// debug builds and its output into `dir`.
fn mixed_tournament(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(workspace_root().join("tournaments/mixed-languages.toml")).unwrap();
    let libraries = library("easy").parent().unwrap().display().to_string();
    let root = workspace_root().display().to_string();
    let text = text.replace("../target/release", &libraries).replace("../", &format!("{root}/"));
    let file = dir.join("mixed.toml");
    std::fs::write(&file, format!("output = \"{}\"\n{text}", dir.join("out").display())).unwrap();
    file
}

#[test]
fn a_tournament_mixes_libraries_and_python_players() {
    let dir = tempfile::tempdir().unwrap();
    let file = mixed_tournament(dir.path());
    let base = python_env();
    let output = arena(&["tournament", "run", file.to_str().unwrap(), "--json"], &with(&base, &[]));
    assert!(output.status.success(), "{}", stderr(&output));
    let standings: Value = serde_json::from_slice(&output.stdout).expect("JSON standings");
    let text = standings.to_string();
    for name in ["hard", "medium", "greedy_player", "helper_player", "random-bot", "first-legal"] {
        assert!(text.contains(&format!("\"{name}\"")), "{name} missing: {text}");
    }
    let journal = std::fs::read_to_string(dir.path().join("out/journal.jsonl")).unwrap();
    assert!(!journal.contains("\"fault\":{"), "no player failed:\n{journal}");
}

#[test]
fn player_folders_find_course_folders() {
    let dir = tempfile::tempdir().unwrap();
    for group in ["ab1234_cd5678", "ef9012"] {
        let folder = dir.path().join("submissions").join(group);
        std::fs::create_dir_all(&folder).unwrap();
        let source = examples().join("course/random_player/PlayerAI.py");
        std::fs::copy(source, folder.join("PlayerAI.py")).unwrap();
    }
    let text = "format = \"round-robin\"\nseed = 1\ngames_per_pairing = 2\noutput = \"out\"\nplayer_folders = [\"submissions\"]\nplayers = [\"easy\"]\n";
    let file = dir.path().join("t.toml");
    std::fs::write(&file, text).unwrap();
    let base = python_env();
    let output = arena(&["tournament", "run", file.to_str().unwrap(), "--json"], &with(&base, &[]));
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("\"ab1234_cd5678\"") && text.contains("\"ef9012\""), "{text}");
}

#[test]
fn the_python_package_unit_tests_pass() {
    let base = python_env();
    let package = workspace_root().join("players/python");
    let output = Command::new("python3")
        .args(["-m", "unittest", "discover", "-s", "tests", "-t", "."])
        .current_dir(&package)
        .envs(base.iter().map(|(k, v)| (*k, v.as_str())))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python3 runs");
    assert!(output.status.success(), "{}{}", stdout(&output), stderr(&output));
}

#[test]
fn measure_program_reports_round_trips_for_each_program() {
    let base = python_env();
    let native = spec("python:", &examples().join("native/first_legal.py"));
    let output = arena(&["measure", "program", &native, "--requests", "50"], &with(&base, &[]));
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("| arena worker, easy (Rust) |") && text.contains(&format!("| {native} |")),
        "{text}"
    );
    let not_a_program = arena(&["measure", "program", "easy"], &[]);
    assert!(stderr(&not_a_program).contains("easy is not a program"), "{}", stderr(&not_a_program));
}

/// A Python player of a newer game, as a program player of this process
/// (the package from the repository: PYTHONPATH, which the worker inherits).
/// The test runs alone with it in its process's environment
/// (`alone!(python_env())`), where no other test sees it.
fn python_player(file: &str) -> arena_core::players::Player {
    use arena_core::{
        players::external::Program,
        players::{Hosting, Player, PlayerSpec},
    };
    let package = python_env().into_iter().find(|(k, _)| *k == "PYTHONPATH").unwrap().1;
    assert_eq!(
        std::env::var("PYTHONPATH").ok(),
        Some(package),
        "a test that loads a Python player in process runs alone!(python_env())"
    );
    let spec = PlayerSpec::Program(Program::Python(examples().join("native").join(file)));
    Player::load(&spec, &Hosting::in_process(), std::time::Duration::from_secs(20)).unwrap()
}

fn startup() -> std::time::Duration {
    std::time::Duration::from_secs(20)
}

#[test]
fn a_python_intuitive_ai_player_plays_whole_games() {
    use arena_core::games::intuitive::record::{IntuitiveEnd, IntuitiveEnding, IntuitiveSettings};
    if !alone!(python_env()) {
        return;
    }
    let player = python_player("intuitive_cautious.py");
    assert_eq!((player.name(), player.games()), ("cautious", vec!["intuitive-ai".to_string()]));
    let hosting = arena_core::players::Hosting::in_process();
    let mut agent = player.new_agent::<IntuitiveAi>(&hosting, startup()).unwrap();
    let settings = IntuitiveSettings::default();
    let mut wins = 0;
    for seed in 0..20 {
        let record = solo::play::<IntuitiveAi>(&settings, seed, agent.as_mut());
        assert!(
            matches!(
                record.ending,
                IntuitiveEnding::Rules(IntuitiveEnd::Monster) | IntuitiveEnding::Rules(IntuitiveEnd::Pit)
            ),
            "{}",
            record.ending
        );
        wins += usize::from(record.ending == IntuitiveEnding::Rules(IntuitiveEnd::Monster));
    }
    assert!(wins > 0, "a cautious player finds the monster sometimes");
}

#[test]
fn a_python_hexapawn_player_plays_legal_moves_against_hard() {
    use arena_core::{
        games::hexapawn::referee::{self as hexapawn, HexapawnEnding, HexapawnSettings},
        players::{Hosting, Level, Player},
    };
    if !alone!(python_env()) {
        return;
    }
    let player = python_player("hexapawn_first_move.py");
    let settings = HexapawnSettings::default();
    let mut python = player.new_agent::<Hexapawn>(&Hosting::in_process(), startup()).unwrap();
    let mut hard =
        Player::Builtin(Level::Hard).new_agent::<Hexapawn>(&Hosting::in_process(), startup()).unwrap();
    for seed in 0..4 {
        let as_white = hexapawn::play_agents(&settings, seed, [python.as_mut(), hard.as_mut()]);
        let as_black = hexapawn::play_agents(&settings, seed, [hard.as_mut(), python.as_mut()]);
        for record in [as_white, as_black] {
            assert!(matches!(record.ending, HexapawnEnding::Won { .. }), "{}", record.ending);
        }
    }
}

#[test]
fn a_python_wumpus_world_player_plays_and_is_deterministic() {
    use arena_core::games::wumpus::record::WumpusSettings;
    if !alone!(python_env()) {
        return;
    }
    let player = python_player("wumpus_cautious.py");
    let hosting = arena_core::players::Hosting::in_process();
    let mut agent = player.new_agent::<Wumpus>(&hosting, startup()).unwrap();
    let settings = WumpusSettings::default();
    for seed in 0..10 {
        let game = solo::play::<Wumpus>(&settings, seed, agent.as_mut());
        // It climbs out at once: one action, score -1 (or grabs first when the gold is at the start).
        assert_eq!(game.steps.last().map(|s| s.action), Some(player_api::wumpus::WumpusAction::Climb));
        assert!(game.steps.len() <= 2 && !game.died(), "{}", game.ending);
    }
}

#[test]
fn a_python_magic_forest_player_walks_its_seeded_path() {
    use arena_core::games::magic_forest::record::{Ending, ForestSettings};
    if !alone!(python_env()) {
        return;
    }
    let player = python_player("forest_random.py");
    let hosting = arena_core::players::Hosting::in_process();
    let settings = ForestSettings::default();
    let runs: Vec<_> = (0..2)
        .map(|_| {
            let mut agent = player.new_agent::<MagicForest>(&hosting, startup()).unwrap();
            let run = solo::play::<MagicForest>(&settings, 5, agent.as_mut());
            assert!(matches!(run.ending, Ending::Rules(_)), "{}", run.ending);
            run.steps.iter().map(|s| s.action).collect::<Vec<_>>()
        })
        .collect();
    assert!(runs[0].len() > 5);
    assert_eq!(runs[0], runs[1], "same seed, same walk");
}

/// `arena new NAME --python` writes a course-layout player that the
/// arena checks and plays as it is, and says how in its next steps.
#[test]
fn new_python_writes_a_course_player_that_passes_check() {
    let base = python_env();
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    let output = arena(&["new", "my-py-bot", "--python", "--dir", folder], &with(&base, &[]));
    let said = stdout(&output);
    assert!(output.status.success(), "{said}{}", stderr(&output));
    let root = dir.path().join("my-py-bot");
    assert!(std::fs::read_to_string(root.join("PlayerAI.py")).unwrap().contains("class PlayerAI(BaseAI)"));
    let player = spec("python:", &root);
    assert!(said.contains(&format!(" check {player}")), "{said}");
    let output = arena(&["check", &player], &with(&base, &[]));
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    assert!(text.contains("name        my-py-bot") && text.ends_with("ok\n"), "{text}");
    // It plays whole games and beats Easy at least sometimes.
    let doc = play(&[&player, "easy", "--games", "10", "--seed", "3"], &[]);
    let failures = doc["players"][0]["failures"].as_object().unwrap();
    assert!(failures.values().all(|n| n == 0), "{doc}");
    assert!(doc["players"][0]["wins"].as_u64().unwrap() > 0, "{doc}");
    let again = arena(&["new", "my-py-bot", "--python", "--dir", folder], &[]);
    assert!(!again.status.success() && stderr(&again).contains("already exists"), "{}", stderr(&again));
}

/// An arena binary alone (copied into a folder with no checkout above it:
/// a virtual environment's bin/, as the wheel puts it) and that environment's
/// Python, with numpy and nothing else: the arena carries its Python host and
/// runs the Python beside it, so a course player is written, checked and
/// played with nothing installed or activated, and the host is laid out
/// read-only in the user's cache.
#[test]
fn a_bare_binary_hosts_python_players_with_nothing_installed() {
    let dir = tempfile::tempdir().unwrap();
    let python = support::python_venv_with_numpy(dir.path(), "numpy-only");
    let binary = python.with_file_name("arena");
    std::fs::copy(env!("CARGO_BIN_EXE_arena"), &binary).unwrap();
    let cache = dir.path().join("cache");
    let run = |args: &[&str]| {
        let output = Command::new(&binary)
            .args(args)
            .current_dir(dir.path())
            .env_remove("PYTHONPATH")
            .env_remove("ARENA_PYTHON_HOST")
            .env_remove("ARENA_PYTHON")
            .env("XDG_CACHE_HOME", &cache)
            .env("PATH", "/usr/bin:/bin")
            .output()
            .unwrap();
        assert!(output.status.success(), "arena {args:?}: {}{}", stdout(&output), stderr(&output));
        stdout(&output)
    };
    // The venv sees no arena_player of its own.
    let own = Command::new(&python).args(["-c", "import arena_player"]).output().unwrap();
    assert!(!own.status.success(), "the venv must not have the package");
    let said = run(&["new", "my-py", "--python"]);
    assert!(
        said.contains("check python:./my-py") && said.contains("Python 3 with numpy: the arena carries"),
        "{said}"
    );
    let checked = run(&["check", "python:my-py"]);
    assert!(checked.contains("name        my-py") && checked.ends_with("ok\n"), "{checked}");
    let runs = format!("runs        {}", python.with_file_name("python").display());
    assert!(checked.contains(&runs), "the Python beside the binary runs: {checked}");
    let played = run(&["play", "python:my-py", "hard", "--games", "2", "--seed", "1", "--json"]);
    let doc: Value = serde_json::from_str(&played).unwrap();
    let failures = doc["players"][0]["failures"].as_object().unwrap();
    assert!(failures.values().all(|n| n == 0), "{doc}");
    // The host as carried, read-only, in the user's cache.
    let hosts: Vec<_> = std::fs::read_dir(cache.join("arena")).unwrap().flatten().map(|e| e.path()).collect();
    assert_eq!(hosts.len(), 1, "{hosts:?}");
    let main = hosts[0].join("arena_player/__main__.py");
    let carried =
        std::fs::read_to_string(workspace_root().join("players/python/src/arena_player/__main__.py"));
    assert_eq!(std::fs::read_to_string(&main).unwrap(), carried.unwrap());
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(std::fs::metadata(&main).unwrap().permissions().mode() & 0o222, 0, "read-only");
}

/// An `arena_player` installed in the interpreter, of another version, is
/// never the one that runs: the one the arena carries is imported first.
#[test]
fn the_carried_host_wins_over_an_installed_one() {
    let dir = tempfile::tempdir().unwrap();
    let impostor = dir.path().join("site/arena_player");
    std::fs::create_dir_all(&impostor).unwrap();
    std::fs::write(impostor.join("__init__.py"), "").unwrap();
    std::fs::write(impostor.join("__main__.py"), "raise SystemExit('the installed arena_player ran')")
        .unwrap();
    let site = dir.path().join("site");
    let player = spec("python:", &examples().join("course/greedy_player"));
    let output = arena(
        &["check", &player],
        &[("PYTHONPATH", site.to_str().unwrap()), ("ARENA_PYTHON_HOST", "carried")],
    );
    assert!(output.status.success(), "{}{}", stdout(&output), stderr(&output));
    // Asked for, the installed one runs.
    let err =
        load_error(&player, &[("PYTHONPATH", site.to_str().unwrap()), ("ARENA_PYTHON_HOST", "installed")]);
    assert!(err.contains("the installed arena_player ran"), "{err}");
}

/// A Python player's start (an interpreter, numpy, its modules) is most of
/// a short match's: the worker that introduced it at its load plays its
/// first game, instead of being killed and another started. Two seats,
/// three games: two interpreters, each loaded once.
#[test]
fn the_worker_that_loaded_a_python_player_plays_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let started = dir.path().join("started");
    let player = support::write_file(
        dir.path(),
        "starts.py",
        &format!(
            "import os\nfrom arena_player import TrapPlayer\n\
             with open({started:?}, 'a') as log:\n    log.write(f'{{os.getpid()}}\\n')\n\n\
             class Starts(TrapPlayer):\n\
             \x20   def get_move(self, state):\n        return state.legal_moves()[0]\n\n\
             \x20   def get_trap(self, state):\n        return state.legal_moves(3 - state.seat)[0]\n",
            started = started.display().to_string()
        ),
    );
    let spec = spec("python:", &player);
    // Unsandboxed: the player writes where the test reads.
    let doc =
        play(&[&spec, &spec, "--games", "3", "--concurrency", "1", "--seed", "2", "--sandbox", "off"], &[]);
    assert_eq!(doc["games"].as_array().unwrap().len(), 3, "{doc}");
    let failures = doc["players"][0]["failures"].as_object().unwrap();
    assert!(failures.values().all(|n| n == 0), "{failures:?}");
    let log = std::fs::read_to_string(&started).unwrap();
    assert_eq!(log.lines().count(), 2, "interpreters started, one per line: {log}");
}
