//! Backups made by the real `backup`, restored, and damaged: each damage
//! refused in one line naming the entry, with no folder left behind.

use std::io::{Read, Write};

use sha2::Digest;

use super::*;
use crate::store::files;

#[test]
fn only_plain_relative_paths_are_restored() {
    assert!(is_plain(Path::new("files/ab/cd.so")));
    for bad in ["/etc/passwd", "../x", "a/../../x", "./x", ""] {
        assert!(!is_plain(Path::new(bad)), "{bad}");
    }
}

/// A data folder: 3 students in their groups, 6 submissions, 6 stored
/// files, a run's journal, a Python player at a path over tar's 100 bytes.
fn data_folder(dir: &Path) -> PathBuf {
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let db = db::open(&data).unwrap();
    for i in 0..3 {
        let name = format!("s{i}");
        let student =
            db::add_student(&db, &name, &format!("hash{i}"), false, db::Joining::Alone { compete: true })
                .unwrap();
        for j in 0..2 {
            let sha = files::save(&data, format!("library {i} {j}").as_bytes()).unwrap();
            db.execute(
                "INSERT INTO submissions (student, group_id, sha256, file_name, size, status, assignment)
                 VALUES (?1, ?2, ?3, 'lib.so', 9, 'done', 'trap')",
                rusqlite::params![student.id, student.group, sha],
            )
            .unwrap();
        }
    }
    let run = data.join("runs/1");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(run.join("journal.jsonl"), "{\"game\":1}\n".repeat(100)).unwrap();
    let deep = data.join("players").join("d".repeat(64)).join("a-folder-with-a-long-name/and-another-one");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("PlayerAI.py"), "class PlayerAI: pass\n").unwrap();
    data
}

/// A data folder and its backup, beside it.
fn backed_up(dir: &Path) -> (PathBuf, PathBuf) {
    let data = data_folder(dir);
    let to = dir.join("course.tar.gz");
    let summary = backup(&data, &to).unwrap();
    assert_eq!((summary.submissions, summary.files), (6, 8), "{summary:?}");
    (data, to)
}

/// The tar inside a `.tar.gz`.
fn tar_of(gz: &[u8]) -> Vec<u8> {
    let mut tar = Vec::new();
    flate2::read::GzDecoder::new(gz).read_to_end(&mut tar).unwrap();
    tar
}

fn gz_of(tar: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(tar).unwrap();
    gz.finish().unwrap()
}

/// The backup `gz` with its entries as `change` leaves them (name, bytes).
fn rebuilt(gz: &[u8], change: impl FnOnce(&mut Vec<(String, Vec<u8>)>)) -> Vec<u8> {
    let tar = tar_of(gz);
    let mut archive = tar::Archive::new(&tar[..]);
    let mut entries: Vec<(String, Vec<u8>)> = archive
        .entries()
        .unwrap()
        .map(|e| {
            let mut e = e.unwrap();
            let mut bytes = Vec::new();
            e.read_to_end(&mut bytes).unwrap();
            (e.path().unwrap().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    change(&mut entries);
    let mut builder = tar::Builder::new(Vec::new());
    for (name, bytes) in &entries {
        append(&mut builder, Path::new(name), bytes.len() as u64, &bytes[..]).unwrap();
    }
    gz_of(&builder.into_inner().unwrap())
}

/// `gz` with bit `bit` flipped in the first byte from `at` on where the flip
/// changes what the compressed stream holds: a deflate stream has bits no
/// decoder reads (seen: 5 in 3,200 bytes of a backup), and a backup with
/// one of those flipped is whole, and restored.
fn flipped(gz: &[u8], at: usize, bit: u8) -> Vec<u8> {
    let unpacked = |gz: &[u8]| {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(gz).read_to_end(&mut out).ok().map(|_| out)
    };
    let whole = unpacked(gz);
    let flip = |i: usize| [&gz[..i], &[gz[i] ^ (1 << bit)], &gz[i + 1..]].concat();
    (at..gz.len()).map(flip).find(|bytes| unpacked(bytes) != whole).expect("a flip that changes the stream")
}

/// Restoring `bytes` fails in one line holding `says`, leaving no folder.
fn refused(dir: &Path, bytes: &[u8], says: &str) -> String {
    let from = dir.join("damaged.tar.gz");
    std::fs::write(&from, bytes).unwrap();
    let into = dir.join("out/restored");
    let error = format!("{:#}", restore(&from, &into).unwrap_err());
    assert!(error.contains(says), "{error}");
    assert_eq!(error.lines().count(), 1, "{error}");
    assert!(!into.exists(), "a refused restore left {}", into.display());
    let left: Vec<_> = std::fs::read_dir(dir.join("out")).unwrap().flatten().map(|e| e.path()).collect();
    assert!(left.is_empty(), "a refused restore left {left:?}");
    error
}

#[test]
fn a_good_backup_restores_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (data, to) = backed_up(dir.path());
    let into = dir.path().join("restored");
    let summary = restore(&to, &into).unwrap();
    assert_eq!((summary.submissions, summary.files), (6, 8), "{summary:?}");
    for path in files_under(&data).unwrap() {
        let relative = path.strip_prefix(&data).unwrap();
        if !relative.to_string_lossy().starts_with(db::FILE) {
            assert_eq!(
                std::fs::read(&path).unwrap(),
                std::fs::read(into.join(relative)).unwrap(),
                "{path:?}"
            );
        }
    }
    let db = db::open(&into).unwrap();
    assert_eq!(count(&db, "students").unwrap(), 3);
    // Nothing of the backup's own is left, in the folder or beside the file.
    let names: Vec<_> = std::fs::read_dir(&data).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(!names.iter().any(|n| n.to_string_lossy().contains("arena-backup")), "{names:?}");
    let beside: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert!(!beside.iter().any(|n| n.to_string_lossy().contains("partial")), "{beside:?}");
}

#[test]
fn a_bit_flipped_anywhere_in_the_compressed_stream_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_, to) = backed_up(dir.path());
    let good = std::fs::read(&to).unwrap();
    let len = good.len();
    // Past the gzip header (its time and OS bytes carry no content): the
    // deflate stream at several places, the CRC, the length.
    for at in [12, len / 5, len / 3, len / 2, 2 * len / 3, 9 * len / 10, len - 6, len - 2] {
        for bit in [0, 5] {
            let bytes = flipped(&good, at, bit);
            let error = refused(dir.path(), &bytes, "nothing was restored");
            assert!(error.contains("damaged"), "byte {at}, bit {bit}: {error}");
        }
    }
    // Cut anywhere, or followed by more.
    refused(dir.path(), &good[..len - 1], "the compressed stream");
    refused(dir.path(), &good[..len / 2], "damaged");
    refused(dir.path(), &[&good[..], b"more"].concat(), "after the compressed stream");
}

#[test]
fn a_tar_cut_at_an_entry_boundary_is_refused_naming_the_last_entry() {
    let dir = tempfile::tempdir().unwrap();
    let (_, to) = backed_up(dir.path());
    let tar = tar_of(&std::fs::read(&to).unwrap());
    // Where the fourth entry ends (its header, its data padded to 512).
    let mut archive = tar::Archive::new(&tar[..]);
    let fourth = archive.entries().unwrap().nth(3).unwrap().unwrap();
    let name = fourth.path().unwrap().to_string_lossy().into_owned();
    let end = fourth.raw_file_position() + fourth.size().div_ceil(512) * 512;
    let error = refused(dir.path(), &gz_of(&tar[..end as usize]), "without tar's end marker");
    assert!(error.contains(&format!(": {name}: ")), "{error}");
    // An end marker followed by more entries.
    let mut more = tar.clone();
    more.extend_from_slice(&tar[..4096]);
    refused(dir.path(), &gz_of(&more), "after the archive's end marker");
}

#[test]
fn a_damaged_or_doubled_database_or_a_file_not_its_hash_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let (_, to) = backed_up(dir.path());
    let good = std::fs::read(&to).unwrap();
    let replace = |name: &str, bytes: Vec<u8>| {
        rebuilt(&good, |entries| entries.iter_mut().find(|(n, _)| n == name).unwrap().1 = bytes)
    };
    refused(dir.path(), &replace(db::FILE, Vec::new()), "arena.db: empty");
    // A good database followed by an empty one.
    let doubled = rebuilt(&good, |entries| entries.push((db::FILE.into(), Vec::new())));
    refused(dir.path(), &doubled, "arena.db: in the backup twice");
    // Another, sound, database: not the one the manifest counted.
    let other = dir.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    drop(db::open(&other).unwrap());
    let mut fresh = rusqlite::Connection::open_in_memory().unwrap();
    rusqlite::backup::Backup::new(&db::open(&other).unwrap(), &mut fresh).unwrap().step(-1).unwrap();
    let bytes = std::fs::read(other.join(db::FILE)).unwrap();
    refused(
        dir.path(),
        &replace(db::FILE, bytes),
        "arena.db: holds 0 submissions where the manifest counted 6",
    );
    // A page of the database overwritten.
    let tar = tar_of(&good);
    let mut archive = tar::Archive::new(&tar[..]);
    let mut database = Vec::new();
    archive.entries().unwrap().nth(1).unwrap().unwrap().read_to_end(&mut database).unwrap();
    // The second page (a table's) given a kind of page no b-tree has.
    let page = u16::from_be_bytes([database[16], database[17]]) as usize;
    database[page] = 0x0b;
    let error = refused(dir.path(), &replace(db::FILE, database), "arena.db: ");
    assert!(error.contains("integrity") || error.contains("not a sound SQLite database"), "{error}");
    // A stored file changed, its name kept.
    let stored = rebuilt(&good, |entries| {
        let (name, bytes) = entries.iter_mut().find(|(n, _)| n.starts_with("files/")).unwrap();
        bytes[0] ^= 1;
        assert!(name.ends_with(".so"));
    });
    refused(dir.path(), &stored, "its content does not match its name");
    let twice = rebuilt(&good, |entries| {
        let file = entries.iter().find(|(n, _)| n.starts_with("files/")).unwrap().clone();
        entries.push(file);
    });
    refused(dir.path(), &twice, "in the backup twice");
    // Not a backup: no manifest first.
    let headless = rebuilt(&good, |entries| drop(entries.remove(0)));
    refused(dir.path(), &headless, "is not a backup");
}

#[test]
fn a_backup_into_its_own_data_folder_is_refused_however_it_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let data = data_folder(dir.path());
    let before = std::fs::read(data.join(db::FILE)).unwrap();
    let outside = dir.path().join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&data, outside.join("link-to-data")).unwrap();
    std::os::unix::fs::symlink(data.join(db::FILE), outside.join("db-link.tar.gz")).unwrap();
    for to in [
        data.join(db::FILE),
        data.join("inside.tar.gz"),
        data.join("files/new.tar.gz"),
        outside.join("../data/arena.db"),
        outside.join("link-to-data/x.tar.gz"),
        outside.join("db-link.tar.gz"),
        data.clone(),
    ] {
        let error = format!("{:#}", backup(&data, &to).unwrap_err());
        assert!(
            error.contains("is inside the data folder") && error.contains("write the backup outside it"),
            "{error}"
        );
        assert_eq!(error.lines().count(), 1);
    }
    assert_eq!(std::fs::read(data.join(db::FILE)).unwrap(), before, "the database is untouched");
    assert!(std::fs::symlink_metadata(outside.join("db-link.tar.gz")).unwrap().file_type().is_symlink());
    let names: Vec<_> = files_under(&data).unwrap();
    assert!(!names.iter().any(|n| n.to_string_lossy().contains("tar.gz")), "{names:?}");
}

/// A process id no process has (one that ran and was waited for).
fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    child.wait().unwrap();
    child.id()
}

#[test]
fn what_killed_backups_left_is_removed_by_the_next_and_a_running_ones_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let data = data_folder(dir.path());
    let dead = dead_pid();
    let stale = data.join(format!(".arena-backup-{dead}-0"));
    std::fs::create_dir_all(&stale).unwrap();
    std::fs::write(stale.join(db::FILE), "a copy of the secret").unwrap();
    let running = data.join(format!(".arena-backup-{}-7", std::process::id()));
    std::fs::create_dir_all(&running).unwrap();
    std::fs::write(running.join(db::FILE), "being copied").unwrap();
    let partial = dir.path().join(format!("old.tar.gz.arena-backup-{dead}.partial"));
    std::fs::write(&partial, "half an archive").unwrap();
    let unrelated = dir.path().join("notes.partial");
    std::fs::write(&unrelated, "someone else's").unwrap();

    let summary = backup(&data, &dir.path().join("course.tar.gz")).unwrap();
    assert_eq!(summary.removed.len(), 2, "{:?}", summary.removed);
    assert!(!stale.exists() && !partial.exists());
    assert!(running.exists() && unrelated.exists());
    // The running backup's copy is not in this backup.
    assert_eq!(summary.files, 8, "{summary:?}");
}

/// Runs this test binary's test `name` alone in a child process (so that
/// its peak memory is its own, not that of tests running beside it); the
/// child's peak RSS in bytes.
// The child is waited for by wait4, for its own rusage (std's wait gives none).
#[allow(clippy::zombie_processes)]
fn child_peak(name: &str) -> u64 {
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env("ARENA_BACKUP_CHILD", "1")
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: rusage is plain data, filled in by wait4 for this child alone.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(waited, child.id() as i32);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "the child failed: {status}");
    usage.ru_maxrss as u64 * 1024
}

/// 256 MiB stored file, backed up and restored in a child process whose
/// peak memory stays far below the file's size; changed, refused as well.
#[test]
fn a_large_file_is_backed_up_and_restored_or_refused_in_little_memory() {
    const SIZE: u64 = 256 << 20;
    if std::env::var_os("ARENA_BACKUP_CHILD").is_none() {
        let peak = child_peak(
            "store::backup::tests::a_large_file_is_backed_up_and_restored_or_refused_in_little_memory",
        );
        eprintln!("peak memory backing up and restoring a {} MiB file: {} MiB", SIZE >> 20, peak >> 20);
        assert!(peak < 64 << 20, "peak memory {} MiB", peak >> 20);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let data = data_folder(dir.path());
    // Zeros: a sparse file, its hash streamed.
    let mut hasher = sha2::Sha256::new();
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..SIZE >> 20 {
        hasher.update(&zeros);
    }
    let big = data.join(files::FOLDER).join(format!("{}.so", files::hex(&hasher.finalize())));
    std::fs::File::create(&big).unwrap().set_len(SIZE).unwrap();
    let to = dir.path().join("big.tar.gz");
    backup(&data, &to).unwrap();
    let summary = restore(&to, &dir.path().join("restored")).unwrap();
    assert_eq!(summary.files, 9);
    assert_eq!(
        std::fs::metadata(dir.path().join("restored").join(big.strip_prefix(&data).unwrap())).unwrap().len(),
        SIZE
    );
    // Its last byte changed: the same size, refused by its hash.
    let mut file = std::fs::OpenOptions::new().write(true).open(&big).unwrap();
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(SIZE - 1)).unwrap();
    file.write_all(&[1]).unwrap();
    drop(file);
    backup(&data, &to).unwrap();
    let error = format!("{:#}", restore(&to, &dir.path().join("again")).unwrap_err());
    assert!(error.contains("its content does not match its name"), "{error}");
}
