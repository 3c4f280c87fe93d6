//! The data folder's disk: whether an error is a write that failed for
//! space ([`is_full`]: ENOSPC, EDQUOT, SQLite's SQLITE_FULL), and whether
//! the disk has room again ([`has_room`]: a probe write). Only what the
//! system and SQLite say counts, never an error's words: a player's output
//! may say "No space left on device" too.

use std::{
    io::{self, Write},
    path::Path,
};

/// The probe's file, in the data folder (removed after each probe).
pub const PROBE: &str = ".disk-probe";

/// The probe's size: room for this much is room for the work to go on (a
/// game's replay and journal lines, the database's pages).
const PROBE_BYTES: usize = 1 << 20;

/// Whether `error` (anywhere in its chain) is a write that failed for space.
pub fn is_full(error: &anyhow::Error) -> bool {
    error.chain().any(cause_is_full)
}

/// Whether `error` is the system's "no space" (or "over quota").
pub fn io_is_full(error: &io::Error) -> bool {
    match error.raw_os_error() {
        Some(code) => code == libc::ENOSPC || code == libc::EDQUOT,
        // A system error wrapped (`io::Error::new(kind, error)`).
        None => error.get_ref().is_some_and(|inner| cause_is_full(inner)),
    }
}

fn cause_is_full(cause: &(dyn std::error::Error + 'static)) -> bool {
    if let Some(error) = cause.downcast_ref::<io::Error>() {
        return io_is_full(error);
    }
    cause
        .downcast_ref::<rusqlite::Error>()
        .is_some_and(|e| e.sqlite_error_code() == Some(rusqlite::ErrorCode::DiskFull))
}

/// Whether data folder `dir`'s disk takes a write of [`PROBE_BYTES`] now
/// (written, synced, removed): `Err` with the system's error if not.
pub fn has_room(dir: &Path) -> io::Result<()> {
    let path = dir.join(PROBE);
    let written = std::fs::File::create(&path).and_then(|mut file| {
        file.write_all(&vec![0; PROBE_BYTES])?;
        file.sync_all()
    });
    let _ = std::fs::remove_file(&path);
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_systems_and_sqlites_words_for_space_are_a_full_disk() {
        let no_space = io::Error::from_raw_os_error(libc::ENOSPC);
        assert!(is_full(&anyhow::Error::new(no_space).context("cannot write x").context("a replay")));
        let quota = io::Error::from_raw_os_error(libc::EDQUOT);
        assert!(is_full(&anyhow::Error::new(io::Error::other(quota))));
        let sqlite = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_FULL),
            Some("database or disk is full".into()),
        );
        assert!(is_full(&anyhow::Error::new(sqlite)));
        // A player's output that says so is not the disk.
        assert!(!is_full(&anyhow::anyhow!("No space left on device (os error 28)")));
        assert!(!is_full(&anyhow::Error::new(io::Error::from_raw_os_error(libc::EACCES))));
        let busy =
            rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY), None);
        assert!(!is_full(&anyhow::Error::new(busy)));
    }

    #[test]
    fn a_probe_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        has_room(dir.path()).unwrap();
        assert!(!dir.path().join(PROBE).exists());
        let gone = dir.path().join("gone");
        assert!(has_room(&gone).is_err());
    }
}
