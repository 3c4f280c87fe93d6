//! The journal: every finished game appended as a JSON line and synced to
//! disk before it counts. A run on a folder with a journal resumes from it.
//!
//! The first line identifies the tournament (a fingerprint of everything
//! that decides the games); a journal from another tournament is refused.

use std::{
    collections::BTreeMap,
    fs::{File, OpenOptions},
    io::{BufRead, BufReader, Write},
    path::{Path, PathBuf},
};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::record::GameResult;

pub const FILE_NAME: &str = "journal.jsonl";

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Header {
    arena_journal: u32,
    fingerprint: String,
    tournament: String,
    games: usize,
}

/// Opens `folder/file_name` (made if missing) to read and append, locked
/// for one writer; `writer` names who else may hold it, for the error.
pub(crate) fn open_locked(folder: &Path, file_name: &str, writer: &str) -> Result<(File, PathBuf)> {
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create the output folder {}", folder.display()))?;
    let path = folder.join(file_name);
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .with_context(|| format!("cannot create {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            bail!("{} is being written by {writer}: wait until it ends, or stop it", path.display())
        }
        // A file system without locks: go on, as before locks.
        Err(std::fs::TryLockError::Error(e)) => tracing::warn!("cannot lock {}: {e}", path.display()),
    }
    Ok((file, path))
}

/// An open journal, positioned to append.
pub struct Journal {
    file: File,
    path: PathBuf,
    /// Holds the journal's lock while the journal is open.
    _lock: File,
}

impl Journal {
    /// Opens (or starts) the journal `file_name` (`FILE_NAME`, or a
    /// shard's) in `folder` for the tournament with `fingerprint`; returns
    /// it with the games already recorded.
    pub fn open(
        folder: &Path,
        file_name: &str,
        name: &str,
        fingerprint: &str,
        games: usize,
    ) -> Result<(Journal, BTreeMap<usize, GameResult>)> {
        // One writer per journal: a second run on the same folder (a shard
        // re-submitted while it still runs) would play its games twice.
        let (lock, path) = open_locked(folder, file_name, "another run (a shard still running?)")?;
        let mut done = BTreeMap::new();
        if lock.metadata()?.len() > 0 {
            let (header, results, good_len) = read(&path)?;
            header.check(&path, fingerprint, games)?;
            // A run killed mid-write leaves a partial last line: cut it off.
            lock.set_len(good_len)?;
            for result in results {
                done.entry(result.index).or_insert(result);
            }
        } else {
            let header =
                Header { arena_journal: 1, fingerprint: fingerprint.into(), tournament: name.into(), games };
            let mut file = &lock;
            let written =
                writeln!(file, "{}", serde_json::to_string(&header)?).and_then(|()| lock.sync_all());
            if let Err(e) = written {
                // A header cut short (a full disk) would refuse the journal
                // for good: none is kept, and the next run writes it again.
                let _ = lock.set_len(0);
                return Err(e).with_context(|| format!("cannot write {}", path.display()));
            }
        }
        let file = OpenOptions::new().append(true).open(&path)?;
        Ok((Journal { file, path, _lock: lock }, done))
    }

    /// Appends games and syncs them to disk: when this returns, they are kept.
    pub fn append(&mut self, results: &[GameResult]) -> Result<()> {
        let mut lines = String::new();
        for result in results {
            lines.push_str(&serde_json::to_string(result)?);
            lines.push('\n');
        }
        self.file
            .write_all(lines.as_bytes())
            .and_then(|()| self.file.sync_data())
            .with_context(|| format!("cannot write to {}", self.path.display()))
    }
}

/// Reads a journal: its header, its complete game lines, and the length of
/// the file up to the end of the last complete line.
pub fn read(path: &Path) -> Result<(JournalHeader, Vec<GameResult>, u64)> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut reader = BufReader::new(file);
    let mut line = String::new();
    let mut good_len = 0u64;
    reader.read_line(&mut line)?;
    let header: Header = serde_json::from_str(line.trim_end())
        .with_context(|| format!("{} is not an arena journal (bad first line)", path.display()))?;
    good_len += line.len() as u64;
    let mut results = Vec::new();
    loop {
        line.clear();
        let n = reader.read_line(&mut line)?;
        if n == 0 || !line.ends_with('\n') {
            break;
        }
        match serde_json::from_str::<GameResult>(line.trim_end()) {
            Ok(result) => results.push(result),
            Err(e) => bail!(
                "{}: line {} is damaged ({e}): move the file away to start over",
                path.display(),
                results.len() + 2
            ),
        }
        good_len += n as u64;
    }
    Ok((JournalHeader { fingerprint: header.fingerprint, games: header.games }, results, good_len))
}

/// What a journal says about its tournament.
#[derive(Debug, Clone, PartialEq)]
pub struct JournalHeader {
    pub fingerprint: String,
    pub games: usize,
}

impl JournalHeader {
    /// Refuses the journal at `path` unless it is of the schedule with
    /// `fingerprint` and `games` games.
    pub fn check(&self, path: &Path, fingerprint: &str, games: usize) -> Result<()> {
        if self.fingerprint != fingerprint || self.games != games {
            bail!(
                "{} belongs to a different schedule (the tournament file changed: players, format, seed or settings): \
                 resume with the original file, or choose a new output folder (or move that journal away)",
                path.display()
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_has_one_writer_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let (first, _) = Journal::open(dir.path(), FILE_NAME, "t", "f", 4).unwrap();
        let error = format!("{:#}", Journal::open(dir.path(), FILE_NAME, "t", "f", 4).err().unwrap());
        assert!(error.contains("is being written by another run"), "{error}");
        drop(first);
        assert!(Journal::open(dir.path(), FILE_NAME, "t", "f", 4).is_ok());
    }
}
