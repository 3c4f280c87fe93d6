//! What a backup writes besides its file, named by its process: its copy
//! of the database (`DIR/.arena-backup-<pid>-<n>/`, in the data folder, so
//! that this copy of the secret and the token hashes stays under the
//! folder's own permissions) and the archive being written
//! (`<file>.arena-backup-<pid>.partial`, beside the file). A killed backup
//! leaves them behind; the next backup, and the server's start, remove
//! those whose process is gone.

use std::path::{Path, PathBuf};

/// The prefix of a backup's scratch folder in the data folder.
pub(super) const SCRATCH: &str = ".arena-backup";

/// The mark of a backup's partial file.
const PARTIAL: &str = ".arena-backup-";

/// Whether `name`, at the top of a data folder, is a backup's scratch
/// folder (this backup's or one running at once: never backed up).
pub(super) fn is_scratch(name: &str) -> bool {
    name.starts_with(PARTIAL) && writer(name).is_some()
}

/// The file the archive for `to` is written to before it is renamed.
pub(super) fn partial(to: &Path) -> PathBuf {
    let name = to.file_name().unwrap_or_default().to_string_lossy();
    to.with_file_name(format!("{name}{PARTIAL}{}.partial", std::process::id()))
}

/// The process that wrote scratch entry `name`, if it is one:
/// `.arena-backup-<pid>-<n>` or `<file>.arena-backup-<pid>.partial`.
fn writer(name: &str) -> Option<i32> {
    let pid = match name.strip_prefix(PARTIAL) {
        Some(rest) => rest.split_once('-')?.0,
        None => name.strip_suffix(".partial")?.rsplit_once(PARTIAL)?.1,
    };
    pid.parse().ok().filter(|pid: &i32| *pid > 0)
}

/// Whether process `pid` still runs (one of another user's counts).
fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 sends nothing; it only asks whether the process exists.
    unsafe { libc::kill(pid, 0) == 0 || *libc::__errno_location() == libc::EPERM }
}

/// Removes what killed backups left in `folder` (a data folder: scratch
/// folders; where backups are written: partial files) whose process is
/// gone. The paths removed.
pub fn remove_stale(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        if writer(&name.to_string_lossy()).is_none_or(alive) {
            continue;
        }
        let path = entry.path();
        let gone = match entry.file_type() {
            Ok(kind) if kind.is_dir() => std::fs::remove_dir_all(&path),
            _ => std::fs::remove_file(&path),
        };
        if gone.is_ok() {
            removed.push(path);
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scratch_names_tell_their_process() {
        assert_eq!(writer(".arena-backup-123-0"), Some(123));
        assert_eq!(writer("course.tar.gz.arena-backup-77.partial"), Some(77));
        for other in ["arena.db", "files", ".arena-backup-x-0", "a.partial", "x.arena-backup-.partial"] {
            assert_eq!(writer(other), None, "{other}");
        }
        assert!(is_scratch(".arena-backup-9-1") && !is_scratch("course.tar.gz.arena-backup-9.partial"));
        assert!(alive(std::process::id() as i32));
    }
}
