//! The plugin path for real: reference bots built as cdylibs, loaded from
//! disk through the ABI, playing each other; and every way a file can fail
//! to be a player.

use crate::support::{arena, library, stderr, stdout};
use arena_core::play::solo::{self, Budgets};
use arena_core::play::time_control::TimeControl;
use arena_core::{
    games::trap::referee::TrapSettings,
    play::clock::Clock,
    play::fault::Fault,
    play::two_player::{self, MatchConfig},
    players::isolation::WorkerLimits,
    players::plugin::{LoadError, PlayerLibrary},
    players::{Hosting, Level, Player, PlayerSpec},
};
use arena_core::{
    games::{
        hexapawn::Hexapawn, intuitive::IntuitiveAi, magic_forest::MagicForest, trap::Trap, wumpus::Wumpus,
    },
    players::agent::AbiPlayer,
};

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
    assert_eq!(hard.games(), arena_core::game::GameId::ALL);
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
        let config = MatchConfig {
            settings,
            games: 6,
            seed: 99,
            hosting,
            first_game: 0,
            concurrency: 1,
            controls: [None; 2],
            live: None,
        };
        two_player::play([&players[0], &players[1]], &config, &mut |_| {}, None)
    };
    let moves = |r: &two_player::MatchResult<Trap>| -> Vec<_> {
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
fn intuitive_levels_from_disk_play_like_the_built_in_bots() {
    use arena_core::games::intuitive::record::{IntuitiveRecord, IntuitiveSettings};
    let settings = IntuitiveSettings::default();
    for (name, built_in) in [
        ("easy", player_api::abi::intuitive_player_box(reference_bots::intuitive::Easy::default())),
        ("hard", player_api::abi::intuitive_player_box(reference_bots::intuitive::Hard)),
    ] {
        let mut built_in = AbiPlayer::<IntuitiveAi>(built_in);
        let mut from_disk = AbiPlayer::<IntuitiveAi>(
            PlayerLibrary::load(&library(name))
                .unwrap()
                .new_player::<IntuitiveAi>(&Default::default())
                .unwrap(),
        );
        for seed in 0..40 {
            let a = solo::play::<IntuitiveAi>(&settings, seed, &mut from_disk);
            let b = solo::play::<IntuitiveAi>(&settings, seed, &mut built_in);
            let cells = |r: &IntuitiveRecord| r.reveals.iter().map(|x| x.cell).collect::<Vec<_>>();
            assert_eq!(cells(&a), cells(&b), "{name} played seed {seed} differently through the ABI");
            assert_eq!((a.ending, a.score), (b.ending, b.score));
        }
    }
}

#[test]
fn hexapawn_hard_from_disk_beats_the_menace_library_at_first_then_the_learner_holds() {
    use arena_core::games::hexapawn::referee::{self as hexapawn, HexapawnEnding, HexapawnSettings};
    let settings = HexapawnSettings::default();
    let hard = PlayerLibrary::load(&library("hard")).unwrap();
    let menace = PlayerLibrary::load(&library("menace")).unwrap();
    assert_eq!(menace.games(), [arena_core::game::GameId::Hexapawn]);
    let no_trap = menace.new_player::<Trap>(&Default::default()).err().unwrap();
    assert!(no_trap.contains("does not play trap (`arena check"), "{no_trap}");
    // One learner instance for the whole match, as the arena keeps it.
    let mut learner = AbiPlayer::<Hexapawn>(menace.new_player::<Hexapawn>(&Default::default()).unwrap());
    let mut white = AbiPlayer::<Hexapawn>(hard.new_player::<Hexapawn>(&Default::default()).unwrap());
    let black_wins: Vec<bool> = (0..60)
        .map(|game| {
            let record = hexapawn::play_agents(&settings, game, [&mut white, &mut learner]);
            assert!(
                !matches!(record.ending, HexapawnEnding::Fault { .. } | HexapawnEnding::Illegal { .. }),
                "{:?}",
                record.ending
            );
            record.winner() == player_api::Seat::Two
        })
        .collect();
    // Perfect-play White cannot beat Black once Black has learned (Black wins
    // Hexapawn with perfect play); the learner starts knowing nothing.
    assert!(black_wins[..10].iter().any(|won| !won), "the learner should lose early on");
    assert!(
        black_wins[50..].iter().all(|&won| won),
        "the learner should have stopped losing: {black_wins:?}"
    );
}

/// Where a player of the newer games can run: built in, its library loaded
/// from disk into this process, that library in a worker, and the built-in
/// bot in a worker (`isolate_builtins`).
fn every_hosting(level: &str) -> Vec<(String, Player, Hosting)> {
    let startup = std::time::Duration::from_secs(10);
    let limits = WorkerLimits::new().unwrap();
    let isolated = Hosting::isolated(limits.clone());
    let spec = PlayerSpec::Library(library(level));
    let built_in: Level = level
        .parse::<PlayerSpec>()
        .map(|s| match s {
            PlayerSpec::Builtin(level) => level,
            other => panic!("{other} is not a level"),
        })
        .unwrap();
    let builtins_isolated = Hosting { isolate_builtins: true, ..isolated.clone() };
    vec![
        ("built in".into(), Player::Builtin(built_in), Hosting::in_process()),
        (
            "in process".into(),
            Player::load(&spec, &Hosting::in_process(), startup).unwrap(),
            Hosting::in_process(),
        ),
        ("isolated".into(), Player::load(&spec, &isolated, startup).unwrap(), isolated),
        ("built in, isolated".into(), Player::Builtin(built_in), builtins_isolated),
    ]
}

/// Asserts every hosting gave what the first gave.
fn assert_all_alike<T: PartialEq + std::fmt::Debug>(game: &str, results: Vec<(String, T)>) {
    let (first_name, first) = &results[0];
    for (name, result) in &results[1..] {
        assert_eq!(result, first, "{game}: {name} played differently from {first_name}");
    }
}

#[test]
fn intuitive_ai_plays_alike_built_in_from_disk_and_isolated() {
    use arena_core::games::intuitive::record::{IntuitiveEnding, IntuitiveSettings};
    let settings = IntuitiveSettings::default();
    let startup = settings.budgets.startup;
    let results = every_hosting("hard")
        .into_iter()
        .map(|(name, player, hosting)| {
            // One instance for every game, as a match keeps it.
            let mut agent = player.new_agent::<IntuitiveAi>(&hosting, startup).unwrap();
            let games: Vec<_> = (0..12)
                .map(|seed| {
                    let record = solo::play::<IntuitiveAi>(&settings, seed, agent.as_mut());
                    assert!(!matches!(record.ending, IntuitiveEnding::Fault(_)), "{name}: {}", record.ending);
                    (record.reveals.iter().map(|r| r.cell).collect::<Vec<_>>(), record.score)
                })
                .collect();
            (name, games)
        })
        .collect();
    assert_all_alike("intuitive-ai", results);
}

#[test]
fn hexapawn_plays_alike_built_in_from_disk_and_isolated() {
    use arena_core::games::hexapawn::referee::{self as hexapawn, HexapawnSettings};
    let settings = HexapawnSettings::default();
    let startup = settings.startup_budget;
    let opponents = every_hosting("easy");
    let results = every_hosting("medium")
        .into_iter()
        .zip(opponents)
        .map(|((name, white, hosting), (_, black, black_hosting))| {
            let mut white = white.new_agent::<Hexapawn>(&hosting, startup).unwrap();
            let mut black = black.new_agent::<Hexapawn>(&black_hosting, startup).unwrap();
            let games: Vec<_> = (0..12)
                .map(|seed| {
                    let record = hexapawn::play_agents(&settings, seed, [white.as_mut(), black.as_mut()]);
                    (record.plies.iter().map(|p| p.mv).collect::<Vec<_>>(), record.ending.to_string())
                })
                .collect();
            (name, games)
        })
        .collect();
    assert_all_alike("hexapawn", results);
}

#[test]
fn wumpus_world_plays_alike_built_in_from_disk_and_isolated() {
    use arena_core::games::wumpus::record::{Ending, WumpusSettings};
    for config in [player_api::wumpus::WumpusConfig::aima(), player_api::wumpus::WumpusConfig::project()] {
        let settings = WumpusSettings::new(config);
        let results = every_hosting("hard")
            .into_iter()
            .map(|(name, player, hosting)| {
                let mut agent = player.new_agent::<Wumpus>(&hosting, settings.budgets.startup).unwrap();
                let games: Vec<_> = (0..10)
                    .map(|seed| {
                        let game = solo::play::<Wumpus>(&settings, seed, agent.as_mut());
                        assert!(!matches!(game.ending, Ending::Fault(_)), "{name}: {}", game.ending);
                        (game.steps.iter().map(|s| s.action).collect::<Vec<_>>(), game.score)
                    })
                    .collect();
                (name, games)
            })
            .collect();
        assert_all_alike("wumpus", results);
    }
}

#[test]
fn magic_forest_plays_alike_built_in_from_disk_and_isolated() {
    use arena_core::games::magic_forest::record::{Ending, ForestSettings};
    let settings = ForestSettings::default();
    let results = every_hosting("hard")
        .into_iter()
        .map(|(name, player, hosting)| {
            let mut agent = player.new_agent::<MagicForest>(&hosting, settings.budgets.startup).unwrap();
            let runs: Vec<_> = (0..4)
                .map(|seed| {
                    let run = solo::play::<MagicForest>(&settings, seed, agent.as_mut());
                    assert!(!matches!(run.ending, Ending::Fault(_)), "{name}: {}", run.ending);
                    (run.steps.iter().map(|s| s.action).collect::<Vec<_>>(), run.score, run.cleared)
                })
                .collect();
            (name, runs)
        })
        .collect();
    assert_all_alike("magic-forest", results);
}

#[test]
fn a_hexapawn_only_library_loads_and_learns_in_a_worker() {
    use arena_core::games::hexapawn::referee::{self as hexapawn, HexapawnSettings};
    let settings = HexapawnSettings::default();
    let isolated = Hosting::isolated(WorkerLimits::new().unwrap());
    let spec = PlayerSpec::Library(library("menace"));
    let in_process = Player::load(&spec, &Hosting::in_process(), settings.startup_budget).unwrap();
    assert_eq!(in_process.games(), ["hexapawn"]);
    let menace = Player::load(&spec, &isolated, settings.startup_budget).unwrap();
    assert!(matches!(menace, Player::Isolated { .. }));
    assert_eq!((menace.name(), menace.games()), ("menace", vec!["hexapawn".to_string()]));
    let trap = menace.new_agent::<Trap>(&isolated, settings.startup_budget).err().unwrap();
    assert_eq!(trap.to_string(), Fault::Unavailable("menace does not play trap".into()).to_string());
    // One worker for the whole match: the learner keeps its memory in it.
    let hard = Player::Builtin(Level::Hard);
    let mut white = hard.new_agent::<Hexapawn>(&Hosting::in_process(), settings.startup_budget).unwrap();
    let mut learner = menace.new_agent::<Hexapawn>(&isolated, settings.startup_budget).unwrap();
    let black_wins: Vec<bool> = (0..60)
        .map(|game| {
            let record = hexapawn::play_agents(&settings, game, [white.as_mut(), learner.as_mut()]);
            record.winner() == player_api::Seat::Two
        })
        .collect();
    assert!(black_wins[..10].iter().any(|won| !won), "the learner should lose early on");
    assert!(
        black_wins[50..].iter().all(|&won| won),
        "the learner should have stopped losing: {black_wins:?}"
    );
}

/// Workers that judge and stop a player on the CPU clock, as the server's
/// do: the games' settings say how a turn is charged, the workers' limits
/// when one is killed. Killed on the wall clock beside busy loops, Expert
/// lost games at 0.26 s of its own time, charged on the CPU clock or not.
fn cpu_clocked_workers() -> Hosting {
    Hosting::isolated(WorkerLimits { clock: Clock::Cpu, ..WorkerLimits::new().unwrap() })
}

#[test]
fn expert_plays_from_its_library_in_a_worker() {
    // Charged on the CPU clock, as the server charges: a loaded machine
    // (other builds beside it) must not time Expert out of a 30 ms turn.
    let settings = TrapSettings {
        time: TimeControl::PerTurn(std::time::Duration::from_millis(30)),
        clock: Clock::Cpu,
        ..TrapSettings::default()
    };
    let isolated = cpu_clocked_workers();
    let expert =
        Player::load(&PlayerSpec::Library(library("expert")), &isolated, settings.startup_budget).unwrap();
    assert!(matches!(expert, Player::Isolated { .. }) && expert.name() == "expert");
    let easy = Player::Builtin(Level::Easy);
    let config = MatchConfig {
        settings,
        games: 4,
        seed: 8,
        hosting: isolated,
        first_game: 0,
        concurrency: 1,
        controls: [None; 2],
        live: None,
    };
    let result = two_player::play([&expert, &easy], &config, &mut |_| {}, None);
    assert!(result.games.iter().all(|g| g.fault().is_none()), "{:?}", result.tallies[0].failures);
    assert!(result.tallies[0].wins >= 3, "expert won {} of 4 against easy", result.tallies[0].wins);
}

#[test]
fn expert_plays_intuitive_ai_from_its_library_in_a_worker() {
    // The worker's Expert starts with an empty cache: its first reveals
    // cut the search short, and none may run past the budget (the worker
    // would be killed). Charged on the CPU clock, as the server charges:
    // on the wall clock a loaded machine stretched reveals past 100 ms.
    use arena_core::games::intuitive::record::{IntuitiveEnding, IntuitiveSettings};
    let budget = std::time::Duration::from_millis(100);
    let settings = IntuitiveSettings {
        budgets: Budgets { turn: TimeControl::PerTurn(budget), clock: Clock::Cpu, ..Budgets::default() },
        ..IntuitiveSettings::default()
    };
    let isolated = cpu_clocked_workers();
    let expert =
        Player::load(&PlayerSpec::Library(library("expert")), &isolated, settings.budgets.startup).unwrap();
    assert!(matches!(expert, Player::Isolated { .. }) && expert.name() == "expert");
    let mut agent = expert.new_agent::<IntuitiveAi>(&isolated, settings.budgets.startup).unwrap();
    let games = 60;
    let mut total = 0;
    for seed in 0..games {
        let record = solo::play::<IntuitiveAi>(&settings, seed, agent.as_mut());
        assert!(!matches!(record.ending, IntuitiveEnding::Fault(_)), "game {seed}: {}", record.ending);
        let slowest = record.reveals.iter().map(|r| r.time.cpu).max().unwrap_or_default();
        assert!(slowest <= budget, "game {seed}: a reveal used {slowest:?} of CPU time");
        total += i64::from(record.score);
    }
    // Random play scores -0.433, Hard 0.789: 60 games give about +-0.25.
    let mean = total as f64 / games as f64;
    assert!(mean > 0.3, "Expert's mean score in a worker was {mean}");
}
