//! A data folder in one file, taken while the server runs, and put back:
//! `arena serve backup` copies the database with SQLite's online backup (a
//! consistent copy, whatever the server writes meanwhile) and every other
//! file of the folder (uploads, runs, replays, final results) into one
//! `.tar.gz`, outside the folder; `arena serve restore` (`restore.rs`)
//! unpacks it into a new folder, with the care an upload gets (no absolute
//! paths, no `..`, no links), and only once all of it checked out: the
//! compressed stream whole, every stored file its hash, the database
//! sound and as the manifest counted it. A server started on the restored
//! folder takes up what was under way, as after a crash: a grading or a
//! scrimmage from its journal, the league from its games (each stored
//! once: nothing is played or counted twice). Files are streamed both
//! ways: memory stays small whatever a file's size. What a killed backup
//! leaves is `scratch.rs`'s.

use std::{
    io::Read,
    path::{Component, Path, PathBuf},
    time::Duration,
};

use anyhow::{bail, Context, Result};

use crate::store::db;

mod restore;
mod scratch;

pub use restore::restore;
pub use scratch::remove_stale;

/// The manifest inside a backup, first: what wrote it, and what the
/// database held (a restore checks the database against it).
const MANIFEST: &str = "arena-backup.json";

/// The tables whose rows the manifest counts.
const COUNTED: [&str; 3] = ["submissions", "students", "groups"];

/// What a backup holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Files besides the database.
    pub files: usize,
    pub bytes: u64,
    pub submissions: i64,
    /// What killed backups had left, removed by this one.
    pub removed: Vec<PathBuf>,
}

/// Writes data folder `dir` to `to` (a `.tar.gz`, outside the folder),
/// while a server may be running on it. The file appears whole or not at
/// all.
pub fn backup(dir: &Path, to: &Path) -> Result<Summary> {
    if !dir.join(db::FILE).is_file() {
        bail!(
            "{} is no server's data folder (it has no {}): name the folder `arena serve --data` uses",
            dir.display(),
            db::FILE
        );
    }
    let root = dir.canonicalize().with_context(|| format!("cannot read {}", dir.display()))?;
    // The file itself if it is a link, else its folder resolved: through
    // `..` or a link, a backup must not land on (or in) what it backs up.
    let target = to.canonicalize().ok().or_else(|| resolved(to)).with_context(|| {
        format!("cannot write {}: its folder does not exist (create it first)", to.display())
    })?;
    if target.starts_with(&root) {
        bail!(
            "--to {} is inside the data folder {}: write the backup outside it (e.g. --to {}), where it \
             cannot overwrite the folder's files nor be backed up again",
            to.display(),
            dir.display(),
            root.parent().unwrap_or(&root).join(target.file_name().unwrap_or_default()).display()
        );
    }
    let mut removed = remove_stale(&root);
    removed.extend(remove_stale(folder_of(to)));
    let source = db::open(dir)?;
    let scratch = scratch_in(&root, scratch::SCRATCH)?;
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
    let mut manifest = serde_json::json!({
        "format": "arena-backup",
        "version": 1,
        "arena": env!("CARGO_PKG_VERSION"),
    });
    let copy = rusqlite::Connection::open(&copy_path)?;
    for table in COUNTED {
        manifest[table] = count(&copy, table)?.into();
    }
    drop(copy);
    let submissions = manifest["submissions"].as_i64().unwrap_or_default();
    let partial = scratch::partial(to);
    let written = (|| -> Result<Summary> {
        let file = std::fs::File::create(&partial)
            .with_context(|| format!("cannot create {}", partial.display()))?;
        let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(file, flate2::Compression::fast()));
        let text = manifest.to_string();
        append(&mut tar, Path::new(MANIFEST), text.len() as u64, text.as_bytes())?;
        append_file(&mut tar, Path::new(db::FILE), &copy_path)?
            .context("the copy of the database vanished")?;
        let mut summary = Summary { files: 0, bytes: 0, submissions, removed: Vec::new() };
        for path in files_under(&root)? {
            let relative = path.strip_prefix(&root).expect("under the folder");
            let top = relative.components().next().map(|c| c.as_os_str().to_string_lossy());
            // The live database is in the archive as its copy; a backup's
            // scratch folder (this one's, or another running) never.
            if top.is_some_and(|top| top.starts_with(db::FILE) || scratch::is_scratch(&top)) {
                continue;
            }
            // None: gone meanwhile (pruned).
            let Some(bytes) = append_file(&mut tar, relative, &path)? else { continue };
            summary.files += 1;
            summary.bytes += bytes;
        }
        let gz = tar.into_inner()?;
        let file = gz.finish()?;
        file.sync_all()?;
        Ok(summary)
    })();
    match written {
        Ok(summary) => {
            std::fs::rename(&partial, to).with_context(|| format!("cannot write {}", to.display()))?;
            Ok(Summary { removed, ..summary })
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(e.context(format!("the backup {} was not written", to.display())))
        }
    }
}

/// The rows of `table`.
fn count(db: &rusqlite::Connection, table: &str) -> rusqlite::Result<i64> {
    db.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// `path` with its folder resolved (it may not exist yet: the backup's file).
fn resolved(path: &Path) -> Option<PathBuf> {
    Some(folder_of(path).canonicalize().ok()?.join(path.file_name()?))
}

/// A path an archive may hold: relative, with no `..`, `.` or root.
fn is_plain(path: &Path) -> bool {
    !path.as_os_str().is_empty() && path.components().all(|c| matches!(c, Component::Normal(_)))
}

/// Appends `len` bytes read from `from` as the regular file `path`.
fn append<W: std::io::Write>(
    tar: &mut tar::Builder<W>,
    path: &Path,
    len: u64,
    from: impl Read,
) -> Result<()> {
    let mut header = tar::Header::new_gnu();
    header.set_size(len);
    header.set_mode(0o600);
    header.set_entry_type(tar::EntryType::Regular);
    tar.append_data(&mut header, path, from)?;
    Ok(())
}

/// Streams the file at `from` into the archive as `path`: its size, or
/// None if it is gone. Taken at its size when opened: a file the server
/// appends to meanwhile stops there, one cut short meanwhile ends in zeros
/// (its header, with the size, is written first, and the archive must stay
/// whole).
fn append_file<W: std::io::Write>(
    tar: &mut tar::Builder<W>,
    path: &Path,
    from: &Path,
) -> Result<Option<u64>> {
    let Ok(file) = std::fs::File::open(from) else { return Ok(None) };
    let len = file.metadata()?.len();
    append(tar, path, len, file.take(len).chain(std::io::repeat(0)).take(len))
        .with_context(|| format!("cannot back up {}", from.display()))?;
    Ok(Some(len))
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

/// Removes a scratch folder when dropped (a backup's copy of the database;
/// a restore that failed half-way).
struct Cleanup(PathBuf);

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests;
