//! Python players uploaded as a `.zip` or `.tar.gz` of their folder:
//! unpacked with care (no absolute paths or `..`, no links or devices, at
//! most `MAX_FILES` files and `MAX_BYTES` unpacked, whatever the headers
//! claim), and the player found in it (`arena_core::players::hand_in`'s rule):
//! a course folder (`PlayerAI.py`), or a single `.py` file.

use std::{
    io::Read,
    path::{Component, Path, PathBuf},
};

/// Files an archive may hold.
pub const MAX_FILES: usize = 1000;
/// Bytes an archive may unpack to (a zip bomb stops here).
pub const MAX_BYTES: u64 = 64 << 20;

/// The kind of an uploaded archive, by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Zip,
    TarGz,
}

impl Kind {
    pub fn of(bytes: &[u8]) -> Option<Kind> {
        if bytes.starts_with(b"PK\x03\x04") {
            Some(Kind::Zip)
        } else if bytes.starts_with(&[0x1f, 0x8b]) {
            Some(Kind::TarGz)
        } else {
            None
        }
    }

    /// The extension its stored file gets.
    pub fn extension(self) -> &'static str {
        match self {
            Kind::Zip => "zip",
            Kind::TarGz => "tar.gz",
        }
    }
}

/// Unpacks `bytes` into the folder `into` (which must not exist), every
/// file and folder synced (an accepted submission survives a crash); on
/// any refusal nothing is left behind.
pub fn unpack(bytes: &[u8], kind: Kind, into: &Path) -> Result<(), String> {
    let result = match kind {
        Kind::Zip => unzip(bytes, into),
        Kind::TarGz => untar(bytes, into),
    }
    .and_then(|()| sync_folders(into));
    if result.is_err() {
        let _ = std::fs::remove_dir_all(into);
    }
    result
}

/// Where an entry named `name` goes under `root`, if it may go anywhere:
/// `./` steps are dropped (`tar -C folder .` writes `./PlayerAI.py`, and
/// `./` for the folder itself, which is `root`).
fn place(root: &Path, name: &str) -> Result<PathBuf, String> {
    let mut path = root.to_path_buf();
    for component in Path::new(name).components() {
        match component {
            Component::Normal(part) => path.push(part),
            Component::CurDir => {}
            _ => return Err(format!("the archive has an entry outside its folder ('{name}'): refused")),
        }
    }
    Ok(path)
}

/// A folder of the archive (entry `name`) at `path`, and the folders above it.
fn make_folder(path: &Path, name: &str) -> Result<(), String> {
    std::fs::create_dir_all(path).map_err(|e| format!("cannot unpack the entry '{name}': {e}"))
}

/// Copies at most what is left of the budget from `from` into a new file
/// at `path` (the archive's entry `name`).
fn write_file(path: &Path, name: &str, from: &mut dyn Read, budget: &mut u64) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        make_folder(parent, name)?;
    }
    let mut file =
        std::fs::File::create(path).map_err(|e| format!("cannot unpack the entry '{name}': {e}"))?;
    let mut limited = from.take(*budget + 1);
    let copied =
        std::io::copy(&mut limited, &mut file).map_err(|e| format!("the archive is damaged: {e}"))?;
    if copied > *budget {
        return Err(format!("the archive unpacks to more than {} MiB: refused", MAX_BYTES >> 20));
    }
    *budget -= copied;
    file.sync_all().map_err(|e| format!("cannot unpack: {e}"))
}

/// Syncs `root` and every folder below it (their entries; files sync
/// themselves as they are written).
fn sync_folders(root: &Path) -> Result<(), String> {
    let sync = |dir: &Path| std::fs::File::open(dir).and_then(|d| d.sync_all());
    let mut folders = vec![root.to_path_buf()];
    while let Some(dir) = folders.pop() {
        sync(&dir).map_err(|e| format!("cannot unpack: {e}"))?;
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("cannot unpack: {e}"))?;
        folders
            .extend(entries.flatten().filter(|e| e.file_type().is_ok_and(|t| t.is_dir())).map(|e| e.path()));
    }
    Ok(())
}

fn unzip(bytes: &[u8], into: &Path) -> Result<(), String> {
    let mut archive =
        zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| format!("not a readable .zip: {e}"))?;
    if archive.len() > MAX_FILES {
        return Err(format!("the archive has {} entries, more than {MAX_FILES}: refused", archive.len()));
    }
    let mut budget = MAX_BYTES;
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(|e| format!("the archive is damaged: {e}"))?;
        let name = entry.name().to_string();
        let path = place(into, &name)?;
        if entry.is_symlink() {
            return Err(format!("the archive has a symbolic link ('{name}'): refused"));
        }
        if entry.is_dir() {
            make_folder(&path, &name)?;
        } else {
            write_file(&path, &name, &mut entry, &mut budget)?;
        }
    }
    Ok(())
}

/// The most a tar's metadata entry (a GNU long name or link, a PAX record
/// set) may hold: real names are far shorter, and such an entry is read
/// whole into memory.
pub const MAX_METADATA: u64 = 4 << 10;

/// The most a `.tar.gz` may decompress to: the unpacked limit plus every
/// entry's headers and padding.
const MAX_TAR_STREAM: u64 = MAX_BYTES + 2 * MAX_FILES as u64 * (3 * 512 + MAX_METADATA) + (20 << 10);

/// A reader that fails once more than `left` bytes were asked of it (a cut
/// stream would pass for a shorter archive).
struct Capped<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            return Err(std::io::Error::other(format!(
                "it decompresses to more than {} MiB",
                MAX_TAR_STREAM >> 20
            )));
        }
        let wanted = buf.len().min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let read = self.inner.read(&mut buf[..wanted])?;
        self.left -= read as u64;
        Ok(read)
    }
}

/// If `entry` (read raw) is a metadata entry (a GNU long name or link, a
/// PAX record set): `Some` of the path it gives the entry after it, if it
/// gives one. It is checked against [`MAX_METADATA`] before it is read (the
/// tar crate would read a long name of any size whole).
pub(crate) fn metadata<R: Read>(entry: &mut tar::Entry<R>) -> Result<Option<Option<String>>, String> {
    let damaged = |e: std::io::Error| format!("the archive is damaged: {e}");
    let kind = entry.header().entry_type();
    if !(kind.is_gnu_longname()
        || kind.is_gnu_longlink()
        || kind.is_pax_local_extensions()
        || kind.is_pax_global_extensions())
    {
        return Ok(None);
    }
    let size = entry.header().size().map_err(damaged)?;
    if size > MAX_METADATA {
        return Err(format!(
            "the archive has a name or metadata entry over {} KiB (or too many of them): refused",
            MAX_METADATA >> 10
        ));
    }
    let mut text = Vec::with_capacity(size as usize);
    entry.read_to_end(&mut text).map_err(damaged)?;
    let mut path = None;
    if kind.is_gnu_longname() {
        let name = text.split(|&b| b == 0).next().unwrap_or_default();
        path = Some(String::from_utf8_lossy(name).into_owned());
    } else if kind.is_pax_local_extensions() {
        for record in tar::PaxExtensions::new(&text) {
            let record = record.map_err(damaged)?;
            if record.key() == Ok("path") {
                path = Some(String::from_utf8_lossy(record.value_bytes()).into_owned());
            }
        }
    }
    Ok(Some(path))
}

/// Reads a tar's entries raw, so that a metadata entry is checked before it
/// is read ([`metadata`]), and applies long names and PAX paths itself.
fn untar(bytes: &[u8], into: &Path) -> Result<(), String> {
    let stream = Capped { inner: flate2::read::GzDecoder::new(bytes), left: MAX_TAR_STREAM };
    let mut archive = tar::Archive::new(stream);
    let mut budget = MAX_BYTES;
    let entries = archive.entries().map_err(|e| format!("not a readable .tar.gz: {e}"))?.raw(true);
    let damaged = |e: std::io::Error| format!("the archive is damaged: {e}");
    let (mut files, mut metadata_entries) = (0, 0);
    // The name a GNU long-name or PAX entry gives the entry after it.
    let mut long_name: Option<String> = None;
    for entry in entries {
        let mut entry = entry.map_err(damaged)?;
        let kind = entry.header().entry_type();
        if let Some(name) = metadata(&mut entry)? {
            metadata_entries += 1;
            if metadata_entries > MAX_FILES {
                return Err(format!(
                    "the archive has a name or metadata entry over {} KiB (or too many of them): refused",
                    MAX_METADATA >> 10
                ));
            }
            long_name = name.or(long_name);
            continue;
        }
        files += 1;
        if files > MAX_FILES {
            return Err(format!("the archive has more than {MAX_FILES} entries: refused"));
        }
        let name = match long_name.take() {
            Some(name) => name,
            None => String::from_utf8_lossy(&entry.path_bytes()).into_owned(),
        };
        let path = place(into, &name)?;
        match kind {
            tar::EntryType::Directory => make_folder(&path, &name)?,
            tar::EntryType::Regular | tar::EntryType::Continuous => {
                write_file(&path, &name, &mut entry, &mut budget)?
            }
            tar::EntryType::Symlink | tar::EntryType::Link => {
                return Err(format!("the archive has a link ('{name}'): refused"))
            }
            other => return Err(format!("the archive has an entry of kind {other:?} ('{name}'): refused")),
        }
    }
    Ok(())
}

// The rule that finds the player in a hand-in is the core's (the server's
// uploads, `arena submit`'s checks, `arena grade` and a Gradescope export
// of submissions go by it).
pub use arena_core::players::hand_in::{find_player, player_among};

/// The file a course player's folder holds.
pub const COURSE_FILE: &str = arena_core::players::external::COURSE_FILE;

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = std::io::Cursor::new(Vec::new());
        let mut writer = zip::ZipWriter::new(&mut out);
        for (name, bytes) in entries {
            let options = zip::write::SimpleFileOptions::default();
            writer.start_file(*name, options).unwrap();
            writer.write_all(bytes).unwrap();
        }
        writer.finish().unwrap();
        out.into_inner()
    }

    fn tar_gz_of(build: impl FnOnce(&mut tar::Builder<Vec<u8>>)) -> Vec<u8> {
        let mut builder = tar::Builder::new(Vec::new());
        build(&mut builder);
        let tar = builder.into_inner().unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&tar).unwrap();
        gz.finish().unwrap()
    }

    #[test]
    fn a_course_folder_unpacks_and_its_player_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = zip_of(&[("mine/PlayerAI.py", b"class PlayerAI: pass\n"), ("mine/notes.txt", b"hi")]);
        assert_eq!(Kind::of(&bytes), Some(Kind::Zip));
        let into = dir.path().join("a");
        unpack(&bytes, Kind::Zip, &into).unwrap();
        assert_eq!(find_player(&into).unwrap(), PathBuf::from("mine"));
        assert_eq!(std::fs::read_to_string(into.join("mine/notes.txt")).unwrap(), "hi");

        // The course's hand-in: the folder and the group's note beside it.
        let hand_in =
            zip_of(&[("tc1_gd2/PlayerAI.py", b"class PlayerAI: pass\n"), ("tc1_gd2.txt", b"who did what")]);
        let into = dir.path().join("hand-in");
        unpack(&hand_in, Kind::Zip, &into).unwrap();
        assert_eq!(find_player(&into).unwrap(), PathBuf::from("tc1_gd2"));

        let single = zip_of(&[("bot.py", b"x = 1\n")]);
        let into = dir.path().join("b");
        unpack(&single, Kind::Zip, &into).unwrap();
        assert_eq!(find_player(&into).unwrap(), PathBuf::from("bot.py"));

        let none = zip_of(&[("README", b"x")]);
        let into = dir.path().join("c");
        unpack(&none, Kind::Zip, &into).unwrap();
        assert!(find_player(&into).unwrap_err().contains("no Python player"));
    }

    /// A tar entry named exactly `name` (the crate's own path setter would
    /// tidy it), a folder if `bytes` is None.
    fn raw_entry(builder: &mut tar::Builder<Vec<u8>>, name: &str, bytes: Option<&[u8]>) {
        let mut header = tar::Header::new_ustar();
        header.as_mut_bytes()[..name.len()].copy_from_slice(name.as_bytes());
        header.set_entry_type(if bytes.is_some() {
            tar::EntryType::Regular
        } else {
            tar::EntryType::Directory
        });
        header.set_mode(0o755);
        header.set_size(bytes.map_or(0, |b| b.len() as u64));
        header.set_cksum();
        builder.append(&header, bytes.unwrap_or_default()).unwrap();
    }

    #[test]
    fn a_folder_packed_from_inside_unpacks() {
        // `tar -czf p.tar.gz -C my_player .`: `./`, then `./PlayerAI.py`, `./lib/x.py`.
        let dir = tempfile::tempdir().unwrap();
        let bytes = tar_gz_of(|b| {
            raw_entry(b, "./", None);
            raw_entry(b, "./PlayerAI.py", Some(b"class PlayerAI: pass\n"));
            raw_entry(b, "./lib/", None);
            raw_entry(b, "./lib/x.py", Some(b"x = 1\n"));
        });
        let into = dir.path().join("a");
        unpack(&bytes, Kind::TarGz, &into).unwrap();
        assert_eq!(find_player(&into).unwrap(), PathBuf::new());
        assert_eq!(std::fs::read_to_string(into.join("lib/x.py")).unwrap(), "x = 1\n");
        // The same in a zip.
        let zip = zip_of(&[("./PlayerAI.py", b"class PlayerAI: pass\n"), ("./lib/x.py", b"x = 1\n")]);
        let into = dir.path().join("b");
        unpack(&zip, Kind::Zip, &into).unwrap();
        assert_eq!(find_player(&into).unwrap(), PathBuf::new());
        // A refused entry is named.
        let bad = tar_gz_of(|b| raw_entry(b, "./../x.py", Some(b"x")));
        let refused = unpack(&bad, Kind::TarGz, &dir.path().join("c")).unwrap_err();
        assert!(refused.contains("'./../x.py'") && refused.contains("outside its folder"), "{refused}");
    }

    #[test]
    fn traversal_links_and_bombs_are_refused_and_leave_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let into = dir.path().join("x");
        let escape = zip_of(&[("../evil.py", b"x")]);
        assert!(unpack(&escape, Kind::Zip, &into).unwrap_err().contains("outside its folder"));
        assert!(!into.exists() && !dir.path().join("evil.py").exists());

        let absolute = zip_of(&[("/tmp/evil.py", b"x")]);
        assert!(unpack(&absolute, Kind::Zip, &into).unwrap_err().contains("outside its folder"));

        // 100 MiB of zeros compress to about 100 KiB.
        let zeros = vec![0u8; 100 << 20];
        let bomb = zip_of(&[("PlayerAI.py", &zeros)]);
        assert!(bomb.len() < 1 << 20, "{}", bomb.len());
        assert!(unpack(&bomb, Kind::Zip, &into).unwrap_err().contains("more than 64 MiB"));
        assert!(!into.exists());

        let link = tar_gz_of(|b| {
            let mut header = tar::Header::new_gnu();
            header.set_entry_type(tar::EntryType::Symlink);
            header.set_size(0);
            b.append_link(&mut header, "PlayerAI.py", "/etc/passwd").unwrap();
        });
        assert_eq!(Kind::of(&link), Some(Kind::TarGz));
        assert!(unpack(&link, Kind::TarGz, &into).unwrap_err().contains("a link"));
        assert!(!into.exists());

        let many: Vec<(String, Vec<u8>)> = (0..=MAX_FILES).map(|i| (format!("f{i}.txt"), vec![])).collect();
        let refs: Vec<(&str, &[u8])> = many.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
        assert!(unpack(&zip_of(&refs), Kind::Zip, &into).unwrap_err().contains("more than 1000"));

        assert!(Kind::of(b"\x7fELF").is_none());
    }

    /// A tar whose first entry is a GNU long name of `size` bytes (zeros
    /// after a short prefix): it compresses to almost nothing.
    fn long_name_tar_gz(size: u64) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let mut header = tar::Header::new_gnu();
        header.as_gnu_mut().unwrap().name[..13].copy_from_slice(b"././@LongLink");
        header.set_entry_type(tar::EntryType::GNULongName);
        header.set_size(size);
        header.set_mode(0o644);
        header.set_cksum();
        gz.write_all(header.as_bytes()).unwrap();
        gz.write_all(b"PlayerAI.py").unwrap();
        let zeros = vec![0u8; 1 << 20];
        let mut left = size - 11;
        while left > 0 {
            let n = left.min(zeros.len() as u64);
            gz.write_all(&zeros[..n as usize]).unwrap();
            left -= n;
        }
        gz.finish().unwrap()
    }

    #[test]
    fn a_huge_long_name_is_refused_before_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let into = dir.path().join("x");
        // 256 MiB of name: the tar crate alone would read it all into memory.
        let bomb = long_name_tar_gz(256 << 20);
        assert!(bomb.len() < 2 << 20, "{}", bomb.len());
        let why = unpack(&bomb, Kind::TarGz, &into).unwrap_err();
        assert!(why.contains("over 4 KiB"), "{why}");
        assert!(!into.exists());
    }

    #[test]
    fn long_names_and_pax_paths_still_unpack() {
        let dir = tempfile::tempdir().unwrap();
        let deep = format!("{}/PlayerAI.py", "d".repeat(150));
        let bytes = tar_gz_of(|b| {
            // The GNU builder writes a long-name entry for a name over 100 bytes.
            let mut header = tar::Header::new_gnu();
            header.set_size(5);
            header.set_mode(0o644);
            b.append_data(&mut header, &deep, &b"x = 1"[..]).unwrap();
            // A PAX path record naming the next entry.
            let record = "29 path=pax/folder/notes.txt\n";
            let mut pax = tar::Header::new_ustar();
            pax.set_entry_type(tar::EntryType::XHeader);
            pax.set_size(record.len() as u64);
            pax.set_mode(0o644);
            pax.set_cksum();
            b.append(&pax, record.as_bytes()).unwrap();
            let mut header = tar::Header::new_ustar();
            header.set_size(2);
            header.set_mode(0o644);
            b.append_data(&mut header, "short.txt", &b"hi"[..]).unwrap();
        });
        let into = dir.path().join("ok");
        unpack(&bytes, Kind::TarGz, &into).unwrap();
        assert_eq!(std::fs::read_to_string(into.join(&deep)).unwrap(), "x = 1");
        assert_eq!(std::fs::read_to_string(into.join("pax/folder/notes.txt")).unwrap(), "hi");
        assert!(!into.join("short.txt").exists());
    }

    #[test]
    fn a_stream_past_its_cap_is_refused_not_cut() {
        let dir = tempfile::tempdir().unwrap();
        // A regular entry that claims more than the stream may hold.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let mut header = tar::Header::new_gnu();
        header.set_path("PlayerAI.py").unwrap();
        header.set_size(MAX_TAR_STREAM + (1 << 20));
        header.set_mode(0o644);
        header.set_cksum();
        gz.write_all(header.as_bytes()).unwrap();
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..((MAX_TAR_STREAM >> 20) + 2) {
            gz.write_all(&zeros).unwrap();
        }
        let why = unpack(&gz.finish().unwrap(), Kind::TarGz, &dir.path().join("x")).unwrap_err();
        assert!(why.contains("more than 64 MiB"), "{why}");
    }
}
