//! Replay files on disk: their names, and writing one game's replay (and
//! its HTML viewer) into a folder.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use serde::Serialize;

use super::{gzip, html, Replay, ReplayBody, ReplayPlayer};

/// Replays larger than this are written gzip-compressed (`.json.gz`).
pub const COMPRESS_OVER: usize = 64 << 10;

/// `game-007-easy-vs-hard`: the game's 1-based number, padded to the width
/// of `total`, and the players in seat order (file-safe); a one-player
/// game's is `game-007-hard`.
pub fn stem(number: usize, total: usize, names: &[&str]) -> String {
    let width = total.max(1).to_string().len();
    let players: Vec<String> = names.iter().map(|name| file_safe(name)).collect();
    format!("game-{number:0width$}-{}", players.join("-vs-"))
}

/// Writes `replay` into `folder` as `<stem>.json`, or `<stem>.json.gz` when
/// large (the other one is removed, so a game written again never leaves
/// two files); with `viewer`, also `<stem>.html`. Returns the files written.
pub fn save<B: ReplayBody + Serialize>(
    replay: &Replay<B>,
    folder: &Path,
    stem: &str,
    viewer: bool,
) -> Result<Vec<PathBuf>> {
    ReplayFiles::make(replay, folder, stem, viewer, true).write()
}

/// A game's replay files (as [`save`] writes them), made but not yet
/// written: their size can be weighed first (a run's replay budget).
pub struct ReplayFiles {
    /// Each file's path and bytes.
    files: Vec<(PathBuf, Vec<u8>)>,
    /// The replay's other name (`.json` beside `.json.gz`), removed once written.
    stale: PathBuf,
}

impl ReplayFiles {
    /// With `viewer`, its page shows the seed or not (`show_seed`: a
    /// server's grading games share their seeds).
    pub fn make<B: ReplayBody + Serialize>(
        replay: &Replay<B>,
        folder: &Path,
        stem: &str,
        viewer: bool,
        show_seed: bool,
    ) -> ReplayFiles {
        let json = replay.to_json();
        let plain = folder.join(format!("{stem}.json"));
        let packed = folder.join(format!("{stem}.json.gz"));
        let (path, bytes, stale) = if json.len() > COMPRESS_OVER {
            (packed, gzip(json.as_bytes()), plain)
        } else {
            (plain, json.into_bytes(), packed)
        };
        let mut files = vec![(path, bytes)];
        if viewer {
            files
                .push((folder.join(format!("{stem}.html")), html::page_with(replay, show_seed).into_bytes()));
        }
        ReplayFiles { files, stale }
    }

    /// The bytes they take.
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|(_, bytes)| bytes.len() as u64).sum()
    }

    /// The bytes files of the same names take on disk now (a game written
    /// before, being written again): what writing these frees.
    pub fn replaced(&self) -> u64 {
        let paths = self.files.iter().map(|(path, _)| path).chain([&self.stale]);
        paths.filter_map(|path| std::fs::metadata(path).ok()).map(|m| m.len()).sum()
    }

    /// Writes them (each synced); the files written.
    pub fn write(self) -> Result<Vec<PathBuf>> {
        for (path, bytes) in &self.files {
            write_synced(path, bytes)?;
        }
        if self.stale.exists() {
            std::fs::remove_file(&self.stale)
                .with_context(|| format!("cannot remove {}", self.stale.display()))?;
        }
        Ok(self.files.into_iter().map(|(path, _)| path).collect())
    }
}

/// Writes a file whole and syncs it: once a game's result is journaled,
/// its replay is on disk too.
pub(super) fn write_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut file =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_data())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// `arena play --replay`: each game's replay into a folder, or one game's
/// into a file. Works for every game: the caller makes each game's replay.
pub struct MatchReplays {
    path: PathBuf,
    into_folder: bool,
    /// Games in the whole match (for the width of the numbers).
    total: usize,
    players: Vec<ReplayPlayer>,
    written: usize,
    error: Option<anyhow::Error>,
}

impl MatchReplays {
    /// `path` is a file if it ends in `.json` or `.json.gz` (then the match
    /// must be one game), else a folder (created if missing). `names` and
    /// `sources` are the players' (one for a one-player game).
    pub fn new(
        path: PathBuf,
        games: u32,
        first_game: u32,
        names: &[String],
        sources: &[String],
    ) -> Result<MatchReplays> {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let into_folder = !(name.ends_with(".json") || name.ends_with(".json.gz"));
        if !into_folder && games != 1 {
            bail!("--replay {}: a file holds one game; give a folder to keep {games} games", path.display());
        }
        if into_folder {
            std::fs::create_dir_all(&path)
                .with_context(|| format!("--replay: cannot create the folder {}", path.display()))?;
        }
        let players = names
            .iter()
            .zip(sources)
            .map(|(name, source)| ReplayPlayer { name: name.clone(), source: source.clone() })
            .collect();
        Ok(MatchReplays {
            path,
            into_folder,
            total: (first_game + games) as usize,
            players,
            written: 0,
            error: None,
        })
    }

    /// The players, as replays name them (seat them by index).
    pub fn players(&self) -> &[ReplayPlayer] {
        &self.players
    }

    /// Writes `replay`, game `index` (from 0) of the match, named after its
    /// players in seat order (after a failure, nothing more).
    pub fn save_replay<B: ReplayBody + Serialize>(&mut self, index: u32, replay: &Replay<B>) {
        if self.error.is_some() {
            return;
        }
        let names: Vec<&str> = replay.players.iter().map(|p| p.name.as_str()).collect();
        let stem = stem(index as usize + 1, self.total, &names);
        let result = if self.into_folder {
            save(replay, &self.path, &stem, false).map(|_| ())
        } else {
            replay.write(&self.path)
        };
        match result {
            Ok(()) => self.written += 1,
            Err(e) => self.error = Some(e),
        }
    }

    /// A line saying where the replays went, or the first write error.
    pub fn finish(self) -> Result<String> {
        if let Some(error) = self.error {
            return Err(error.context("writing a replay failed (the games were played; their results stand)"));
        }
        Ok(match self.into_folder {
            true => format!("{} replay(s) written to {}", self.written, self.path.display()),
            false => format!("replay written to {}", self.path.display()),
        })
    }
}

/// The longest file-safe name kept whole: a player names itself (up to
/// 4 KiB), and a file name may not pass 255 bytes (a replay's holds two
/// names). Long enough for a name told apart by its library's path
/// (`easy (/home/.../libeasy.so)`).
const FILE_SAFE_MAX: usize = 100;

/// Letters, digits, '-' and '_' kept; anything else becomes '_'. A name
/// longer than [`FILE_SAFE_MAX`] keeps its start and gains a hash of the
/// whole, so that long names stay apart.
pub fn file_safe(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    if safe.len() <= FILE_SAFE_MAX {
        return safe;
    }
    use sha2::{Digest, Sha256};
    let hash: String = Sha256::digest(name.as_bytes())[..4].iter().map(|b| format!("{b:02x}")).collect();
    format!("{}-{hash}", &safe[..FILE_SAFE_MAX - 9])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_sort_in_game_order_and_are_file_safe() {
        assert_eq!(stem(7, 120, &["easy", "my bot/2"]), "game-007-easy-vs-my_bot_2");
        assert_eq!(stem(1, 1, &["a", "b"]), "game-1-a-vs-b");
        assert_eq!(stem(12, 300, &["hard (bots/x.so)"]), "game-012-hard__bots_x_so_");
    }

    #[test]
    fn a_long_name_is_cut_to_a_file_name_and_kept_apart() {
        let long = |c: char| format!("{}{c}", "x".repeat(4000));
        let (one, two) = (file_safe(&long('a')), file_safe(&long('b')));
        assert_eq!(one.len(), FILE_SAFE_MAX);
        assert_ne!(one, two, "names that differ past the cut stay apart");
        assert!(stem(1, 1000, &[&long('a'), &long('b')]).len() < 255);
        assert_eq!(
            file_safe(&"y".repeat(FILE_SAFE_MAX)),
            "y".repeat(FILE_SAFE_MAX),
            "a name that fits is kept"
        );
    }
}
