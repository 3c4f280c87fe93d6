//! Every journal in an output folder read as one: `journal.jsonl` and the
//! shards' `journal.shard-I-of-N.jsonl`, each checked against the
//! schedule's fingerprint. Standings come from the merged games, so a
//! sharded run writes the same files as a single one.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result};

use super::{journal, record::GameResult};

/// The games of every journal in a folder.
#[derive(Debug, Default)]
pub struct Merged {
    /// Each game once, by schedule index.
    pub results: BTreeMap<usize, GameResult>,
    /// The journals read, in name order, with the games each holds.
    pub journals: Vec<(PathBuf, usize)>,
    /// Games found in more than one journal (kept once: the first file's).
    pub duplicates: usize,
}

impl Merged {
    /// Schedule indices of the games no journal holds.
    pub fn missing(&self, total: usize) -> Vec<usize> {
        missing(total, &self.results)
    }
}

/// Schedule indices below `total` that `results` lacks.
pub fn missing(total: usize, results: &BTreeMap<usize, GameResult>) -> Vec<usize> {
    (0..total).filter(|i| !results.contains_key(i)).collect()
}

/// Whether `name` is a journal's file name.
pub fn is_journal(name: &str) -> bool {
    name == journal::FILE_NAME || (name.starts_with("journal.shard-") && name.ends_with(".jsonl"))
}

/// The journals in `folder`, in name order (none if it does not exist).
pub fn journal_files(folder: &Path) -> Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(e).with_context(|| format!("cannot read the output folder {}", folder.display()))
        }
    };
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read the output folder {}", folder.display()))?;
        if entry.file_name().to_str().is_some_and(is_journal) {
            files.push(entry.path());
        }
    }
    files.sort();
    Ok(files)
}

/// Reads every journal in `folder`, refusing any from another schedule
/// (`fingerprint`, `games`). A journal being written by a running shard
/// is read up to its last complete line; one just created (empty) is
/// skipped.
pub fn read_all(folder: &Path, fingerprint: &str, games: usize) -> Result<Merged> {
    let mut merged = Merged::default();
    for path in journal_files(folder)? {
        if std::fs::metadata(&path).is_ok_and(|m| m.len() == 0) {
            continue;
        }
        let (header, results, _) = journal::read(&path)?;
        header.check(&path, fingerprint, games)?;
        merged.journals.push((path, results.len()));
        for result in results {
            if result.index >= games {
                anyhow::bail!(
                    "a journal in {} holds game {} of a {games}-game schedule",
                    folder.display(),
                    result.index
                );
            }
            match merged.results.entry(result.index) {
                std::collections::btree_map::Entry::Occupied(_) => merged.duplicates += 1,
                std::collections::btree_map::Entry::Vacant(slot) => {
                    slot.insert(result);
                }
            }
        }
    }
    Ok(merged)
}

/// Schedule indices as short ranges: `3-7, 12, 40-41` (the first `limit`).
pub fn ranges(indices: &[usize], limit: usize) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < indices.len() && parts.len() < limit {
        let start = indices[i];
        while i + 1 < indices.len() && indices[i + 1] == indices[i] + 1 {
            i += 1;
        }
        // Shown counted from 1, as progress lines count games.
        parts.push(if indices[i] == start {
            format!("{}", start + 1)
        } else {
            format!("{}-{}", start + 1, indices[i] + 1)
        });
        i += 1;
    }
    if i < indices.len() {
        parts.push("...".into());
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{
        journal::Journal,
        record::{GameResult, SeatClock},
    };

    fn game(index: usize) -> GameResult {
        GameResult {
            index,
            seed: index as u64 * 31,
            seats: [index % 3, (index + 1) % 3],
            winner: Some(index % 3),
            turns: 10 + index as u32,
            reason: "trapped".into(),
            fault: None,
            clock: [SeatClock { turns: 5, total_us: 100, max_us: 30, ..SeatClock::default() }; 2],
            solo: None,
            replayed: 0,
            replay_left_out: false,
        }
    }

    fn write(folder: &Path, file: &str, fingerprint: &str, games: &[usize]) {
        let (mut journal, _) = Journal::open(folder, file, "t", fingerprint, 20).unwrap();
        journal.append(&games.iter().map(|&i| game(i)).collect::<Vec<_>>()).unwrap();
    }

    #[test]
    fn shard_journals_merge_to_the_single_journal() {
        let dir = tempfile::tempdir().unwrap();
        let (single, sharded) = (dir.path().join("single"), dir.path().join("sharded"));
        write(&single, journal::FILE_NAME, "f", &(0..20).collect::<Vec<_>>());
        write(&sharded, "journal.shard-1-of-3.jsonl", "f", &[0, 3, 6, 9, 12, 15, 18]);
        write(&sharded, "journal.shard-2-of-3.jsonl", "f", &[19, 1, 4, 7, 10, 13, 16]);
        write(&sharded, "journal.shard-3-of-3.jsonl", "f", &[2, 5, 8, 11, 14, 17]);
        std::fs::write(sharded.join("journal.jsonl.bak"), "not a journal").unwrap();
        let (a, b) = (read_all(&single, "f", 20).unwrap(), read_all(&sharded, "f", 20).unwrap());
        assert_eq!(a.results, b.results);
        assert_eq!(b.journals.len(), 3, "{:?}", b.journals);
        assert!(b.missing(20).is_empty() && b.duplicates == 0);
    }

    #[test]
    fn missing_and_doubled_games_are_found() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "journal.shard-1-of-2.jsonl", "f", &[0, 1, 2, 5]);
        write(dir.path(), "journal.shard-2-of-2.jsonl", "f", &[5, 6, 7]);
        let merged = read_all(dir.path(), "f", 20).unwrap();
        assert_eq!(merged.duplicates, 1);
        assert_eq!(merged.missing(10), vec![3, 4, 8, 9]);
        assert_eq!(ranges(&merged.missing(20), 3), "4-5, 9-20");
        assert_eq!(ranges(&[0, 2, 4, 6], 2), "1, 3, ...");
    }

    #[test]
    fn a_journal_of_another_schedule_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "journal.shard-1-of-2.jsonl", "f", &[0]);
        write(dir.path(), "journal.shard-2-of-2.jsonl", "other", &[1]);
        let error = format!("{:#}", read_all(dir.path(), "f", 20).unwrap_err());
        assert!(error.contains("journal.shard-2-of-2.jsonl belongs to a different schedule"), "{error}");
    }

    #[test]
    fn no_folder_is_no_games() {
        let dir = tempfile::tempdir().unwrap();
        let merged = read_all(&dir.path().join("nowhere"), "f", 5).unwrap();
        assert_eq!(merged.missing(5).len(), 5);
    }
}
