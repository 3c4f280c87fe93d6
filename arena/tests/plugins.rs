//! The plugin path for real: reference bots built as cdylibs, loaded from
//! disk through the ABI, playing each other; and every way a file can fail
//! to be a player.

mod support;

use arena::{
    isolation::WorkerLimits,
    matches::{self, MatchConfig},
    players::{Hosting, Level, Player, PlayerSpec},
    plugin::{LoadError, PlayerLibrary},
    referee::trap::TrapSettings,
};
use support::{arena, library, stderr, stdout};

#[test]
fn reference_levels_load_as_distinct_libraries() {
    // Loading several libraries of the same interface must not return the
    // first one again (abi_stable's load_from_file would).
    let names: Vec<String> = ["easy", "medium", "hard", "expert"]
        .iter()
        .map(|n| PlayerLibrary::load(&library(n)).unwrap().name().to_string())
        .collect();
    assert_eq!(names, ["easy", "medium", "hard", "expert"]);
    let hard = PlayerLibrary::load(&library("hard")).unwrap();
    assert_eq!(hard.games(), ["trap"]);
    assert_eq!(hard.api_version(), player_api::abi::API_VERSION);
}

#[test]
fn library_players_play_the_same_games_in_process_isolated_and_built_in() {
    let settings = TrapSettings::default();
    let isolated = Hosting::isolated(WorkerLimits::new().unwrap());
    let load = |name: &str, hosting: &Hosting| {
        Player::load(&PlayerSpec::Library(library(name)), hosting, settings.startup_budget).unwrap()
    };
    let in_process = [load("medium", &Hosting::in_process()), load("hard", &Hosting::in_process())];
    let in_workers = [load("medium", &isolated), load("hard", &isolated)];
    assert!(matches!(in_workers[0], Player::Isolated { .. }));
    assert_eq!(in_workers[1].name(), "hard");
    let built_in = [Player::Builtin(Level::Medium), Player::Builtin(Level::Hard)];
    let run = |players: &[Player; 2], hosting: Hosting| {
        let config = MatchConfig { settings, games: 6, seed: 99, hosting, first_game: 0 };
        matches::play([&players[0], &players[1]], &config, &mut |_| {}, None)
    };
    let moves = |r: &matches::MatchResult| -> Vec<_> {
        r.games
            .iter()
            .flat_map(|g| g.record.turns.iter().map(|t| (t.to, t.throw.map(|x| x.landed))))
            .collect()
    };
    let a = run(&in_process, Hosting::in_process());
    let b = run(&in_workers, isolated.clone());
    let c = run(&built_in, Hosting::in_process());
    assert!(!moves(&a).is_empty());
    assert_eq!(moves(&a), moves(&b), "a bot must play the same in a worker as in process");
    assert_eq!(moves(&a), moves(&c), "a bot must play the same through the ABI as built in");
    assert!(b.games.iter().all(|g| g.fault().is_none()));
}

#[test]
fn check_reports_a_good_player() {
    let output = arena(&["check", library("hard").to_str().unwrap()], &[]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    for expected in ["name        hard", "games       trap", "player-api  0.1.0", "smoke test", "\nok"] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
}

#[test]
fn the_template_is_a_working_player() {
    let output = arena(&["check", library("template-player").to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}{}", stdout(&output), stderr(&output));
}

fn load_error(path: &std::path::Path) -> LoadError {
    match PlayerLibrary::load(path) {
        Ok(_) => panic!("{} loaded", path.display()),
        Err(e) => e,
    }
}

#[test]
fn a_missing_file_is_named() {
    let err = load_error(std::path::Path::new("/nowhere/libghost.so"));
    assert!(matches!(err, LoadError::Missing(_)));
    assert!(err.to_string().contains("/nowhere/libghost.so"));
}

#[test]
fn a_file_that_is_not_a_shared_library_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("libfake.so");
    std::fs::write(&fake, "def getMove(): pass\n").unwrap();
    let err = load_error(&fake);
    assert!(matches!(err, LoadError::NotALibrary { .. }), "{err}");
    assert!(err.to_string().contains("cdylib"));
}

#[test]
fn a_library_without_a_player_says_to_export_one() {
    let err = load_error(&library("not-a-player"));
    assert!(matches!(err, LoadError::NotAPlayer(_)), "{err}");
    assert!(err.to_string().contains("export_player!"));
}

#[test]
fn a_library_with_another_layout_is_incompatible() {
    let err = load_error(&library("incompatible-player"));
    assert!(matches!(err, LoadError::IncompatibleLayout { .. }), "{err}");
    assert!(err.to_string().contains("rebuild the player"));
}

#[test]
fn check_errors_are_one_line_without_a_backtrace() {
    for path in [library("not-a-player"), library("incompatible-player"), "/nowhere/x.so".into()] {
        let output = arena(&["check", path.to_str().unwrap()], &[]);
        assert_eq!(output.status.code(), Some(2));
        let err = stderr(&output);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: ") && !err.contains("panicked"), "{err}");
    }
}

#[test]
fn expert_plays_from_its_library_in_a_worker() {
    let settings =
        TrapSettings { turn_budget: std::time::Duration::from_millis(30), ..TrapSettings::default() };
    let isolated = Hosting::isolated(WorkerLimits::new().unwrap());
    let expert =
        Player::load(&PlayerSpec::Library(library("expert")), &isolated, settings.startup_budget).unwrap();
    assert!(matches!(expert, Player::Isolated { .. }) && expert.name() == "expert");
    let easy = Player::Builtin(Level::Easy);
    let config = MatchConfig { settings, games: 4, seed: 8, hosting: isolated, first_game: 0 };
    let result = matches::play([&expert, &easy], &config, &mut |_| {}, None);
    assert!(result.games.iter().all(|g| g.fault().is_none()), "{:?}", result.tallies[0].failures);
    assert!(result.tallies[0].wins >= 3, "expert won {} of 4 against easy", result.tallies[0].wins);
}
