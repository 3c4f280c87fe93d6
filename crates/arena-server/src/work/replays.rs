//! What the server's tournament runs (grading runs, scrimmages) keep of
//! their games: the `[replays]` table of their tournament files, and the
//! viewers in a run's replay folder. Depends on nothing else of the server.

use std::path::{Path, PathBuf};

/// The output folder of each of the server's tournament runs, inside the
/// run's own folder (its tournament file's `output`).
pub(crate) const OUTPUT: &str = "out";

/// The replay folder of the run whose folder is `run`.
pub(crate) fn folder_of(run: &Path) -> PathBuf {
    run.join(OUTPUT).join(arena_core::tournament::replays::FOLDER)
}

/// The most a grading run's (or a scrimmage's) replays may take on disk
/// (`replays.max_bytes`): a player that loses every game with a long
/// replay fills no more than this per upload.
pub const REPLAY_BYTES: u64 = 5 << 20;

/// The `[replays]` table of the server's tournament files: `save` ("losses",
/// "all") within [`REPLAY_BYTES`], no player's source named.
pub(crate) fn replays_table(save: &str) -> toml::Table {
    let mut replays = toml::Table::new();
    replays.insert("save".into(), save.into());
    replays.insert("max_bytes".into(), (REPLAY_BYTES as i64).into());
    // A player's source is a path in the data folder, with its upload's
    // hash: not for the groups who see the replays and feeds.
    replays.insert("show_sources".into(), false.into());
    replays
}

/// The games' viewers in a run's replay folder, by name, in game order.
pub(crate) fn viewers_in(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.strip_suffix(".html").map(str::to_string))
        .collect();
    names.sort();
    names
}

/// The viewer `name` in a run's replay folder, if there is one (a name of
/// plain characters: no path).
pub(crate) fn viewer_in(folder: &Path, name: &str) -> Option<String> {
    let plain =
        name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) && !name.starts_with('.');
    if !plain {
        return None;
    }
    std::fs::read_to_string(folder.join(format!("{name}.html"))).ok()
}
