//! The ABI's compatibility matrix (player-api/src/abi/mod.rs has the
//! rule): a library built for each released ABI version, frozen with its
//! own copy of player-api as released (arena/tests/fixtures/abi-vN-player,
//! never the live player-api), loads and plays every game it plays, in
//! process and in a sandboxed worker. A library built today still carries
//! the root module arenas from before version probes load. A library of a
//! version this arena does not know, or of no arena at all, gets one line
//! saying what it is and what to do.

use std::{path::Path, time::Duration};

use abi_stable::library::{lib_header_from_path, RawLibrary};
use arena_core::{
    game::GameId,
    players::isolation::WorkerLimits,
    players::plugin::{LoadError, PlayerLibrary},
    players::{Hosting, Player, PlayerSpec},
};
use player_api::abi::{self, AbiVersion};

use crate::support::{abi_fixture_crate, abi_fixtures, arena, library, stderr, stdout, workspace_root};

/// What `arena check` says of a library's ABI version.
fn abi_line(version: AbiVersion) -> String {
    let lacks = version.lacks();
    let state = if lacks.is_empty() { "current".to_string() } else { format!("lacks: {}", lacks.join(", ")) };
    format!("\nabi         v{} ({state}", version.number())
}

#[test]
fn every_released_version_has_a_frozen_fixture_of_its_own() {
    let members = std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap();
    for &version in AbiVersion::ALL {
        let folder = abi_fixture_crate(version);
        let manifest = std::fs::read_to_string(folder.join("Cargo.toml")).unwrap_or_else(|e| {
            panic!(
                "ABI v{} has no fixture at {} ({e}): freeze one (player-api/src/abi/mod.rs)",
                version.number(),
                folder.display()
            )
        });
        // Its own workspace, its own lock file and player-api: what changes
        // in the arena's player-api cannot change what it was built with.
        assert!(manifest.contains("\n[workspace]\n"), "{}: not a workspace of its own", folder.display());
        assert!(manifest.contains("player-api = { path = \"player-api\" }"), "{manifest}");
        assert!(folder.join("Cargo.lock").is_file() && folder.join("player-api/src/lib.rs").is_file());
        let relative = folder.strip_prefix(workspace_root()).unwrap().display().to_string();
        assert!(!members.contains(&format!("\"{relative}\"")), "{relative} must not be a workspace member");
    }
}

#[test]
fn every_version_s_library_loads_and_plays_every_game_in_process_and_in_a_sandboxed_worker() {
    let every_game = GameId::ALL.map(|g| g.name()).join(", ");
    for (version, path) in abi_fixtures() {
        let library = PlayerLibrary::load(path).unwrap_or_else(|e| panic!("ABI v{}: {e}", version.number()));
        assert_eq!(library.abi_version(), *version);
        for in_process in [false, true] {
            let mut args = vec!["check", path.to_str().unwrap()];
            if in_process {
                args.push("--in-process");
            }
            let output = arena(&args, &[]);
            let text = stdout(&output);
            assert!(
                output.status.success(),
                "ABI v{} {args:?}:\n{text}{}",
                version.number(),
                stderr(&output)
            );
            for expected in [abi_line(*version), format!("\ngames       {every_game}\n"), "\nok".to_string()]
            {
                assert!(
                    text.contains(&expected),
                    "ABI v{} {args:?}: missing {expected:?} in:\n{text}",
                    version.number()
                );
            }
            let where_ = if in_process { "(in process)" } else { "(in a worker process)" };
            assert!(text.contains(where_), "{text}");
            if !in_process {
                assert!(text.contains("\nsandbox     on"), "the worker must be sandboxed:\n{text}");
            }
        }
    }
}

#[test]
fn v1_libraries_built_before_the_probe_have_none_and_load_as_v1() {
    let (version, path) = &abi_fixtures()[0];
    assert_eq!(*version, AbiVersion::V1);
    let raw = RawLibrary::load_at(path).unwrap();
    assert_eq!(abi::probe(&raw), None, "the v1 fixture is frozen from before probes");
    let isolated = Hosting::isolated(WorkerLimits::new().unwrap());
    let player =
        Player::load(&PlayerSpec::Library(path.clone()), &isolated, Duration::from_secs(10)).unwrap();
    assert!(matches!(player, Player::Isolated { .. }));
    assert_eq!(player.abi_version(), Some(AbiVersion::V1));
}

#[test]
fn a_library_built_today_names_its_version_and_loads_as_arenas_before_the_probe_load() {
    let path = library("easy");
    let raw = RawLibrary::load_at(&path).unwrap();
    assert_eq!(abi::probe(&raw), Some(AbiVersion::CURRENT.number()));
    // What an arena from before probes did: look up the root module and check
    // it against v1's layout. It holds while the current version is v1 (the
    // docs say so: player-api/src/abi/mod.rs).
    let old_arena = lib_header_from_path(&path).and_then(|h| h.init_root_module::<abi::v1::PlayerLibRef>());
    assert_eq!(
        old_arena.map(|module| module.name().to_string()).ok(),
        (AbiVersion::CURRENT == AbiVersion::V1).then(|| "easy".to_string())
    );
}

/// `arena check` of `path`, in a worker and in process: each fails with one
/// line holding `expected`.
fn assert_one_line_error(path: &Path, expected: &str) {
    for in_process in [false, true] {
        let mut args = vec!["check", path.to_str().unwrap()];
        if in_process {
            args.push("--in-process");
        }
        let output = arena(&args, &[]);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stdout(&output));
        let err = stderr(&output);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: ") && !err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains(&path.display().to_string()) && err.contains(expected), "{args:?}: {err}");
    }
}

#[test]
fn a_library_of_a_newer_abi_names_its_version_and_what_to_do() {
    let path = library("future-player");
    let err = PlayerLibrary::load(&path).err().expect("ABI v99 must not load");
    assert!(matches!(err, LoadError::UnknownAbi { number: 99, .. }), "{err}");
    let newest = AbiVersion::CURRENT.number();
    let expected = format!(
        "was built for ABI v99, newer than this arena (knows v1..v{newest}): update the arena, or rebuild the player against this arena's player-api {}",
        abi::API_VERSION
    );
    assert!(err.to_string().contains(&expected), "{err}");
    assert_one_line_error(&path, &expected);
}

#[test]
fn a_library_of_no_arena_says_it_is_not_a_player_and_what_to_do() {
    assert_one_line_error(
        &library("not-a-player"),
        "is a shared library but not an arena player (it exports no player module): add `player_api::export_player!` to it",
    );
}
