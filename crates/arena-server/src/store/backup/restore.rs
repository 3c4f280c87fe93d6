//! `arena serve restore`: a backup unpacked into a folder beside the
//! target, renamed into place only once all of it checked out: the tar's
//! end marker there and nothing after it, the compressed stream read to its
//! end (its CRC), no entry twice, every stored file (`files/<sha256>.*`)
//! hashing to its name, the database sound (`PRAGMA integrity_check`) and
//! holding what the manifest counted. Anything else refuses the restore in
//! one line naming the entry, and leaves nothing. Entries are streamed to
//! disk: memory stays small whatever an entry's size.

use std::{
    collections::HashSet,
    io::{BufRead, Read, Write},
    path::{Path, PathBuf},
};

use anyhow::{anyhow, bail, Context, Result};
use sha2::{Digest, Sha256};

use super::{count, folder_of, is_plain, scratch_in, Cleanup, Summary, COUNTED, MANIFEST};
use crate::store::{archive, db, files};

/// The most a manifest may hold (it is read whole).
const MAX_MANIFEST: u64 = 64 << 10;

/// Unpacks backup `from` into `dir`, a folder that does not exist yet (or
/// is empty): nothing of a folder in use is overwritten.
pub fn restore(from: &Path, dir: &Path) -> Result<Summary> {
    if dir.exists() && std::fs::read_dir(dir).map(|mut d| d.next().is_some()).unwrap_or(true) {
        bail!("{} is not empty: restore into a new folder (then serve it with --data)", dir.display());
    }
    let file =
        std::fs::File::open(from).with_context(|| format!("cannot read the backup {}", from.display()))?;
    let parent = folder_of(dir);
    std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    let staging = scratch_in(parent, ".restoring")?;
    let cleanup = Cleanup(staging.clone());
    let summary = unpack(file, &staging).map_err(|refusal| match refusal {
        Refusal::NotABackup => anyhow!(
            "{} is not a backup `arena serve backup` wrote (or its start is damaged): nothing was restored",
            from.display()
        ),
        Refusal::Entry(entry, what) => anyhow!(
            "{}: {entry}: {what}: the backup is damaged and nothing was restored (restore another backup)",
            from.display()
        ),
        Refusal::Io(e) => e,
    })?;
    if dir.exists() {
        std::fs::remove_dir(dir)?;
    }
    std::fs::rename(&staging, dir)
        .with_context(|| format!("cannot move the restored folder to {}", dir.display()))?;
    std::mem::forget(cleanup);
    Ok(summary)
}

/// Why a backup was not restored.
enum Refusal {
    NotABackup,
    /// The entry (or the part of the file) at fault, and what is wrong.
    Entry(String, String),
    /// The restore's own writing failed (the disk, permissions).
    Io(anyhow::Error),
}

impl From<std::io::Error> for Refusal {
    fn from(e: std::io::Error) -> Self {
        Refusal::Io(e.into())
    }
}

fn refuse(entry: &str, what: impl std::fmt::Display) -> Refusal {
    Refusal::Entry(entry.to_string(), what.to_string())
}

/// Unpacks and checks the backup in `file` into the folder `into`.
fn unpack(file: std::fs::File, into: &Path) -> Result<Summary, Refusal> {
    let gz = flate2::bufread::GzDecoder::new(std::io::BufReader::new(file));
    let mut archive = tar::Archive::new(EndSeen { inner: gz, ended: false });
    let mut summary = Summary { files: 0, bytes: 0, submissions: 0, removed: Vec::new() };
    let mut manifest: Option<serde_json::Value> = None;
    let mut seen = HashSet::new();
    // The entry last read, to name where a cut archive ends.
    let mut last = "the archive's start".to_string();
    let entries = archive.entries().map_err(|_| Refusal::NotABackup)?.raw(true);
    // The name a GNU long-name entry gives the entry after it.
    let mut long_name = None;
    for entry in entries {
        let mut entry = match entry {
            Ok(entry) => entry,
            Err(_) if manifest.is_none() => return Err(Refusal::NotABackup),
            Err(e) => return Err(refuse(&format!("after {last}"), format!("unreadable ({e})"))),
        };
        if let Some(name) = archive::metadata(&mut entry).map_err(|e| refuse(&format!("after {last}"), e))? {
            long_name = name.or(long_name);
            continue;
        }
        let name =
            long_name.take().unwrap_or_else(|| String::from_utf8_lossy(&entry.path_bytes()).into_owned());
        if manifest.is_none() && name != MANIFEST {
            return Err(Refusal::NotABackup);
        }
        let path = PathBuf::from(&name);
        if entry.header().entry_type() != tar::EntryType::Regular || !is_plain(&path) {
            return Err(refuse(&name, "not a plain file of a data folder"));
        }
        if !seen.insert(path.clone()) {
            return Err(refuse(&name, "in the backup twice (the second would replace the first)"));
        }
        let size = entry.header().size().map_err(|e| refuse(&name, e))?;
        let damaged = |e: std::io::Error| refuse(&name, format!("unreadable ({e})"));
        if name == MANIFEST {
            let mut text = Vec::new();
            entry.by_ref().take(MAX_MANIFEST).read_to_end(&mut text).map_err(damaged)?;
            let value: serde_json::Value = serde_json::from_slice(&text).map_err(|_| Refusal::NotABackup)?;
            if value["format"] != "arena-backup" {
                return Err(Refusal::NotABackup);
            }
            manifest = Some(value);
            last = name;
            continue;
        }
        let target = into.join(&path);
        if let Some(folder) = target.parent() {
            std::fs::create_dir_all(folder)?;
        }
        let expected = stored_hash(&path);
        let mut out = Hashed {
            inner: std::fs::File::create(&target)
                .with_context(|| format!("cannot write {}", target.display()))
                .map_err(Refusal::Io)?,
            hasher: expected.map(|_| Sha256::new()),
        };
        let copied = std::io::copy(&mut entry, &mut out).map_err(damaged)?;
        if copied != size {
            return Err(refuse(&name, format!("cut short: {copied} of its {size} bytes")));
        }
        if let (Some(expected), Some(hasher)) = (expected, out.hasher) {
            let actual = files::hex(&hasher.finalize());
            if actual != expected {
                return Err(refuse(
                    &name,
                    format!("its content does not match its name (its SHA-256 is {actual})"),
                ));
            }
        }
        if path != Path::new(db::FILE) {
            summary.files += 1;
            summary.bytes += copied;
        }
        last = name;
    }
    let mut rest = archive.into_inner();
    if rest.ended {
        return Err(refuse(&last, "the archive ends after it without tar's end marker: it was cut"));
    }
    // What follows the end marker is padding: zeros to the end of the
    // compressed stream, which is read to its end for its CRC.
    let mut buffer = vec![0; 64 << 10];
    loop {
        let read = rest.inner.read(&mut buffer).map_err(|e| refuse("the compressed stream", e))?;
        if read == 0 {
            break;
        }
        if buffer[..read].iter().any(|&b| b != 0) {
            return Err(refuse("after the archive's end marker", "more data (a backup ends there)"));
        }
    }
    if !rest.inner.into_inner().fill_buf()?.is_empty() {
        return Err(refuse("after the compressed stream", "more bytes (a backup ends there)"));
    }
    let manifest = manifest.ok_or(Refusal::NotABackup)?;
    if !seen.contains(Path::new(db::FILE)) {
        return Err(refuse(db::FILE, "missing"));
    }
    summary.submissions =
        check_database(&into.join(db::FILE), &manifest).map_err(|what| refuse(db::FILE, what))?;
    Ok(summary)
}

/// The hash a stored file's name says its content has (`files/<sha256>.so`,
/// `.zip`, `.tar.gz`), if it is one.
fn stored_hash(path: &Path) -> Option<&str> {
    let mut parts = path.components();
    let (Some(folder), Some(name), None) = (parts.next(), parts.next(), parts.next()) else { return None };
    let (stem, _) = name.as_os_str().to_str()?.split_once('.')?;
    let hex = stem.len() == 64 && stem.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    (folder.as_os_str() == files::FOLDER && hex).then_some(stem)
}

/// Checks the restored database at `path` against the manifest: sound, and
/// as many rows as it counted in each table it counted. Its submissions.
fn check_database(path: &Path, manifest: &serde_json::Value) -> Result<i64, String> {
    if std::fs::metadata(path).map_err(|e| e.to_string())?.len() == 0 {
        return Err("empty (the manifest says the database was backed up)".into());
    }
    let db = rusqlite::Connection::open(path).map_err(|e| format!("cannot be opened ({e})"))?;
    let verdict: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(|e| format!("is not a sound SQLite database ({e})"))?;
    if verdict != "ok" {
        // Its report spans lines: one line of it, for a one-line refusal.
        let verdict = verdict.split_whitespace().collect::<Vec<_>>().join(" ");
        return Err(format!("fails SQLite's integrity check ({verdict})"));
    }
    for table in COUNTED {
        let Some(counted) = manifest[table].as_i64() else { continue };
        let rows = count(&db, table).map_err(|e| format!("has no table of {table} ({e})"))?;
        if rows != counted {
            return Err(format!("holds {rows} {table} where the manifest counted {counted}"));
        }
    }
    count(&db, "submissions").map_err(|e| format!("has no table of submissions ({e})"))
}

/// A reader that notes when its stream ended: tar's reader takes an end
/// of stream where a header should be for the end of the archive, so a
/// tar cut at an entry's boundary would pass for a whole one.
struct EndSeen<R> {
    inner: R,
    ended: bool,
}

impl<R: Read> Read for EndSeen<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.ended |= read == 0 && !buf.is_empty();
        Ok(read)
    }
}

/// A writer that hashes what it writes, if asked to.
struct Hashed<W> {
    inner: W,
    hasher: Option<Sha256>,
}

impl<W: Write> Write for Hashed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let written = self.inner.write(buf)?;
        if let Some(hasher) = &mut self.hasher {
            hasher.update(&buf[..written]);
        }
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}
