//! Uploaded files, content-addressed: `DIR/files/<sha256>.so`, written
//! whole and synced before the submission is recorded, so an accepted
//! submission is never lost and the same file is stored once.

use std::{
    io::Write,
    path::{Path, PathBuf},
    sync::atomic::{AtomicU64, Ordering},
};

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};

use crate::store::{archive, disk};

/// The folder of uploaded files inside the data folder.
pub const FOLDER: &str = "files";

/// The SHA-256 of `bytes`, in hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// `bytes` in hex (a hash's, as stored files are named).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `bytes` look like a player library: a 64-bit ELF shared object.
/// (Whether it is a player, and of this player-api, is for the check.)
pub fn check_library(bytes: &[u8]) -> Result<(), String> {
    const ELF: &[u8] = b"\x7fELF";
    const SHARED_OBJECT: u16 = 3;
    if bytes.len() < 64 || !bytes.starts_with(ELF) {
        return Err("not a player library (an ELF .so file) nor a .zip or .tar.gz of a Python player \
                    folder: build a Rust player with `cargo build --release` and upload \
                    target/release/lib<name>.so"
            .into());
    }
    if u16::from_le_bytes([bytes[16], bytes[17]]) != SHARED_OBJECT {
        return Err("an ELF file but not a shared library: upload the lib<name>.so that \
                    `cargo build --release` builds (crate-type = [\"cdylib\"])"
            .into());
    }
    Ok(())
}

/// The folder of unpacked Python players inside the data folder.
pub const PLAYERS: &str = "players";

/// A stored submission's player as a tournament file names it: the
/// library's path, or `python:` and the player's path in its unpacked
/// folder.
pub fn player_entry(dir: &Path, sha256: &str, player: Option<&str>) -> Result<String> {
    let (stored, python) = match player {
        None => (path(dir, sha256), false),
        Some(inside) => (dir.join(PLAYERS).join(sha256).join(inside), true),
    };
    let stored = std::fs::canonicalize(&stored)
        .with_context(|| format!("the stored player {} is missing", stored.display()))?;
    let stored = stored.to_string_lossy();
    Ok(if python { format!("python:{stored}") } else { stored.into_owned() })
}

/// A tournament file's entry of `player` (as [`player_entry`] gives it)
/// named `name` (its group): the name its standings, replays and live
/// feeds show, never its path (which holds the data folder and the
/// upload's hash), even when two players report the same name.
pub fn named_entry(player: &str, name: &str) -> toml::Value {
    let mut entry = toml::Table::new();
    entry.insert("player".into(), player.into());
    entry.insert("name".into(), name.into());
    entry.into()
}

/// Stores a Python player's archive: the file (once per content) and its
/// unpacked folder. The hash, and where the player is in the folder; a
/// refused archive (`Ok(Err(why))`) leaves nothing behind.
pub fn save_archive(
    dir: &Path,
    bytes: &[u8],
    kind: archive::Kind,
) -> Result<Result<(String, String), String>> {
    let sha256 = sha256_hex(bytes);
    let players = dir.join(PLAYERS);
    let unpacked = players.join(&sha256);
    let player = if unpacked.exists() {
        // Stored before: it was accepted then, so it has a player.
        archive::find_player(&unpacked)
    } else {
        std::fs::create_dir_all(&players).with_context(|| format!("cannot create {}", players.display()))?;
        static UNPACKS: AtomicU64 = AtomicU64::new(0);
        let partial = players.join(format!(".{sha256}.{}.partial", UNPACKS.fetch_add(1, Ordering::Relaxed)));
        if let Err(why) = archive::unpack(bytes, kind, &partial) {
            // A full disk fails an unpacking as a bad archive does: a probe
            // tells the server's fault from the archive's.
            return match disk::has_room(dir) {
                Err(e) if disk::io_is_full(&e) => Err(anyhow::Error::new(e))
                    .with_context(|| format!("cannot unpack an archive into {}", players.display())),
                _ => Ok(Err(why)),
            };
        }
        let player = archive::find_player(&partial);
        if player.is_err() || std::fs::rename(&partial, &unpacked).is_err() {
            // Refused, or unpacked at the same time by another upload of the same file.
            let _ = std::fs::remove_dir_all(&partial);
        }
        std::fs::File::open(&players)?.sync_all()?;
        player
    };
    let player = match player {
        Ok(player) => player.to_string_lossy().into_owned(),
        Err(why) => return Ok(Err(why)),
    };
    let file = dir.join(FOLDER).join(format!("{sha256}.{}", kind.extension()));
    if !file.exists() {
        write_synced(&file, bytes)?;
    }
    Ok(Ok((sha256, player)))
}

/// The group's contribution note in the unpacked archive `sha256` whose
/// player is at `player`: `<group>.txt` beside the player's folder or in
/// it (the course hands in the folder `tc1234_gd5678` with
/// `tc1234_gd5678.txt`). Its bytes, if there is one.
pub fn archived_note(dir: &Path, sha256: &str, player: &str, group: &str) -> Option<Vec<u8>> {
    let name = format!("{group}.txt");
    // A group name with a path in it names no file of the archive.
    if Path::new(&name).file_name() != Some(std::ffi::OsStr::new(&name)) {
        return None;
    }
    let unpacked = dir.join(PLAYERS).join(sha256);
    let at = unpacked.join(player);
    let folder =
        if at.is_dir() { at } else { at.parent().map_or_else(|| unpacked.clone(), Path::to_path_buf) };
    [unpacked.join(&name), folder.join(&name)]
        .into_iter()
        .find(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file()))
        .and_then(|p| std::fs::read(p).ok())
}

/// The path of the stored file with hash `sha256`.
pub fn path(dir: &Path, sha256: &str) -> PathBuf {
    dir.join(FOLDER).join(format!("{sha256}.so"))
}

/// Stores `bytes` (once per content); their hash.
pub fn save(dir: &Path, bytes: &[u8]) -> Result<String> {
    let sha256 = sha256_hex(bytes);
    let path = path(dir, &sha256);
    if !path.exists() {
        write_synced(&path, bytes)?;
    }
    Ok(sha256)
}

/// Writes `bytes` to `path` whole (under a name of its own first, then
/// renamed) and synced, its folder included.
fn write_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    let folder = path.parent().context("a stored file is in a folder")?;
    std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    // A name of its own: the same file may be uploaded twice at once.
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let partial = folder.join(format!(".{name}.{}.partial", WRITES.fetch_add(1, Ordering::Relaxed)));
    let written = std::fs::File::create(&partial).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    if let Err(e) = written {
        // (A full disk: what was written is given back.)
        let _ = std::fs::remove_file(&partial);
        return Err(e).with_context(|| format!("cannot write {}", partial.display()));
    }
    std::fs::rename(&partial, path).with_context(|| format!("cannot write {}", path.display()))?;
    std::fs::File::open(folder)?.sync_all()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_elf_shared_objects_pass_and_files_are_stored_once_by_content() {
        assert!(check_library(b"print('hello')").unwrap_err().contains("not a player library"));
        let mut executable = vec![0u8; 64];
        executable[..4].copy_from_slice(b"\x7fELF");
        executable[16] = 2;
        assert!(check_library(&executable).unwrap_err().contains("not a shared library"));
        let mut library = executable.clone();
        library[16] = 3;
        check_library(&library).unwrap();

        let dir = tempfile::tempdir().unwrap();
        let first = save(dir.path(), &library).unwrap();
        assert_eq!(first, save(dir.path(), &library).unwrap());
        assert_eq!(std::fs::read(path(dir.path(), &first)).unwrap(), library);
        assert_eq!(std::fs::read_dir(dir.path().join(FOLDER)).unwrap().count(), 1);
        // The same content from many uploads at once: stored once, no error.
        let other = tempfile::tempdir().unwrap();
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| save(other.path(), &library).unwrap());
            }
        });
        assert_eq!(std::fs::read_dir(other.path().join(FOLDER)).unwrap().count(), 1);
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
