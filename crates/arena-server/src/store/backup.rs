//! A data folder in one file, taken while the server runs, and put back:
//! `arena serve backup` copies the database with SQLite's online backup (a
//! consistent copy, whatever the server writes meanwhile) and every other
//! file of the folder (uploads, runs, replays, final results) into one
//! `.tar.gz`; `arena serve restore` unpacks it into a new folder, with the
//! care an upload gets (no absolute paths, no `..`, no links). A server
//! started on the restored folder takes up what was under way, as after a
//! crash: a grading or a scrimmage from its journal, the league from its
//! games (each stored once: nothing is played or counted twice).

use std::{
    io::Read,
    path::{Component, Path, PathBuf},
    time::Duration,
};

use anyhow::{bail, Context, Result};

use crate::store::db;

/// The manifest inside a backup, first: what wrote it, and when.
const MANIFEST: &str = "arena-backup.json";

/// What a backup holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Files besides the database.
    pub files: usize,
    pub bytes: u64,
    pub submissions: i64,
}

/// Writes data folder `dir` to `to` (a `.tar.gz`), while a server may be
/// running on it. The file appears whole or not at all.
pub fn backup(dir: &Path, to: &Path) -> Result<Summary> {
    if !dir.join(db::FILE).is_file() {
        bail!(
            "{} is no server's data folder (it has no {}): name the folder `arena serve --data` uses",
            dir.display(),
            db::FILE
        );
    }
    let source = db::open(dir)?;
    let parent = to.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let scratch = scratch_in(parent, ".arena-backup")?;
    let _cleanup = Cleanup(scratch.clone());
    let copy_path = scratch.join(db::FILE);
    {
        let mut copy = rusqlite::Connection::open(&copy_path)
            .with_context(|| format!("cannot create {}", copy_path.display()))?;
        let backup = rusqlite::backup::Backup::new(&source, &mut copy)?;
        // A few pages at a time, so the server's writers wait little.
        backup
            .run_to_completion(256, Duration::from_millis(5), None)
            .context("the database's online backup")?;
    }
    let submissions: i64 =
        rusqlite::Connection::open(&copy_path)?
            .query_row("SELECT COUNT(*) FROM submissions", [], |r| r.get(0))?;
    let partial = to.with_extension("partial");
    let written = (|| -> Result<Summary> {
        let file = std::fs::File::create(&partial)
            .with_context(|| format!("cannot create {}", partial.display()))?;
        let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(file, flate2::Compression::fast()));
        let manifest = serde_json::json!({
            "format": "arena-backup",
            "version": 1,
            "arena": env!("CARGO_PKG_VERSION"),
            "submissions": submissions,
        });
        append(&mut tar, Path::new(MANIFEST), manifest.to_string().as_bytes())?;
        append(&mut tar, Path::new(db::FILE), &std::fs::read(&copy_path)?)?;
        let mut summary = Summary { files: 0, bytes: 0, submissions };
        // What the backup itself writes, when it writes inside the folder:
        // its file, the file being written, its scratch copy of the database.
        let own: Vec<PathBuf> = [to, &partial, &scratch].into_iter().filter_map(resolved).collect();
        let root = dir.canonicalize().with_context(|| format!("cannot read {}", dir.display()))?;
        for path in files_under(dir)? {
            let relative = path.strip_prefix(dir).expect("under the folder");
            let at = root.join(relative);
            if relative.to_string_lossy().starts_with(db::FILE) || own.iter().any(|o| at.starts_with(o)) {
                continue;
            }
            // Read whole: a file the server is writing is taken as it is now.
            let Ok(bytes) = std::fs::read(&path) else { continue }; // gone meanwhile (pruned)
            append(&mut tar, relative, &bytes)?;
            summary.files += 1;
            summary.bytes += bytes.len() as u64;
        }
        let gz = tar.into_inner()?;
        let file = gz.finish()?;
        file.sync_all()?;
        Ok(summary)
    })();
    match written {
        Ok(summary) => {
            std::fs::rename(&partial, to).with_context(|| format!("cannot write {}", to.display()))?;
            Ok(summary)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(e.context(format!("the backup {} was not written", to.display())))
        }
    }
}

/// Unpacks backup `from` into `dir`, a folder that does not exist yet (or
/// is empty): nothing of a folder in use is overwritten.
pub fn restore(from: &Path, dir: &Path) -> Result<Summary> {
    if dir.exists() && std::fs::read_dir(dir).map(|mut d| d.next().is_some()).unwrap_or(true) {
        bail!("{} is not empty: restore into a new folder (then serve it with --data)", dir.display());
    }
    let file =
        std::fs::File::open(from).with_context(|| format!("cannot read the backup {}", from.display()))?;
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    let staging = scratch_in(parent, ".restoring")?;
    let cleanup = Cleanup(staging.clone());
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut summary = Summary { files: 0, bytes: 0, submissions: 0 };
    let mut manifest = None;
    let not_a_backup = || anyhow::anyhow!("{} is not a backup `arena serve backup` wrote", from.display());
    for entry in archive.entries().map_err(|_| not_a_backup())? {
        let mut entry = entry.map_err(|e| not_a_backup().context(e))?;
        let path = entry.path()?.into_owned();
        if !entry.header().entry_type().is_file() || !is_plain(&path) {
            bail!("{}: {} is not a plain file of a data folder: refused", from.display(), path.display());
        }
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes)?;
        if path == Path::new(MANIFEST) {
            manifest = Some(serde_json::from_slice::<serde_json::Value>(&bytes).map_err(|_| not_a_backup())?);
            continue;
        }
        let target = staging.join(&path);
        if let Some(folder) = target.parent() {
            std::fs::create_dir_all(folder)?;
        }
        std::fs::write(&target, &bytes).with_context(|| format!("cannot write {}", target.display()))?;
        if path != Path::new(db::FILE) {
            summary.files += 1;
            summary.bytes += bytes.len() as u64;
        }
    }
    if manifest.is_none_or(|m| m["format"] != "arena-backup") || !staging.join(db::FILE).is_file() {
        return Err(not_a_backup());
    }
    summary.submissions =
        db::open(&staging)?.query_row("SELECT COUNT(*) FROM submissions", [], |r| r.get(0))?;
    if dir.exists() {
        std::fs::remove_dir(dir)?;
    }
    std::fs::rename(&staging, dir)
        .with_context(|| format!("cannot move the restored folder to {}", dir.display()))?;
    std::mem::forget(cleanup);
    Ok(summary)
}

/// `path` with its folder resolved (it may not exist yet: the backup's file).
fn resolved(path: &Path) -> Option<PathBuf> {
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Some(parent.canonicalize().ok()?.join(path.file_name()?))
}

/// A path an archive may hold: relative, with no `..`, `.` or root.
fn is_plain(path: &Path) -> bool {
    !path.as_os_str().is_empty() && path.components().all(|c| matches!(c, Component::Normal(_)))
}

fn append<W: std::io::Write>(tar: &mut tar::Builder<W>, path: &Path, bytes: &[u8]) -> Result<()> {
    let mut header = tar::Header::new_gnu();
    header.set_size(bytes.len() as u64);
    header.set_mode(0o600);
    header.set_entry_type(tar::EntryType::Regular);
    tar.append_data(&mut header, path, bytes)?;
    Ok(())
}

/// Every regular file under `dir` (links and other kinds left out).
fn files_under(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => folders.push(entry.path()),
                Ok(kind) if kind.is_file() => files.push(entry.path()),
                _ => {}
            }
        }
    }
    files.sort();
    Ok(files)
}

/// A new folder in `parent`, named `prefix-<pid>-<n>`.
fn scratch_in(parent: &Path, prefix: &str) -> Result<PathBuf> {
    for n in 0.. {
        let folder = parent.join(format!("{prefix}-{}-{n}", std::process::id()));
        match std::fs::create_dir(&folder) {
            Ok(()) => return Ok(folder),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(anyhow::anyhow!("cannot write in {}: {e}", parent.display())),
        }
    }
    unreachable!("a free name")
}

/// Removes a scratch folder when dropped (a restore that failed half-way).
struct Cleanup(PathBuf);

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_paths_are_restored() {
        assert!(is_plain(Path::new("files/ab/cd.so")));
        for bad in ["/etc/passwd", "../x", "a/../../x", "./x", ""] {
            assert!(!is_plain(Path::new(bad)), "{bad}");
        }
    }
}
