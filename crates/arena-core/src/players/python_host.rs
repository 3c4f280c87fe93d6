//! The host of Python players that goes with this binary: the
//! `arena_player` package (`players/python/src/arena_player`), embedded at
//! build time (build.rs) and laid out once in a folder of the user's cache,
//! which every `python:` worker imports first. So a `python:` player runs
//! with nothing installed but Python and its own imports, and always with
//! the host that speaks this arena's protocol: an `arena_player` installed
//! in the interpreter, of whatever version, is never the one that runs
//! (unless `ARENA_PYTHON_HOST=installed` asks for it).

use std::{
    collections::hash_map::DefaultHasher,
    fs,
    hash::{Hash, Hasher},
    io::Write,
    os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt},
    path::{Path, PathBuf},
    sync::OnceLock,
};

/// The package's files, by their path in `arena_player/` (build.rs).
const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/python_host_files.rs"));

/// The variable that picks the host: `carried` (the default: the one this
/// binary carries) or `installed` (the interpreter's own `arena_player`,
/// for developing the package itself).
pub const HOST_ENV: &str = "ARENA_PYTHON_HOST";

/// The folder a `python:` worker puts first on its `sys.path` (it holds
/// `arena_player/`), or None when the interpreter's own package is asked
/// for. Laid out once per process; the error is one line with the fix.
pub fn folder() -> Result<Option<PathBuf>, String> {
    match std::env::var(HOST_ENV).as_deref() {
        Err(_) | Ok("") | Ok("carried") => {}
        Ok("installed") => return Ok(None),
        Ok(other) => {
            return Err(format!(
                "{HOST_ENV}={other:?} is not a host: set it to `carried` (the arena_player this arena carries, the default) or `installed` (the interpreter's own)"
            ))
        }
    }
    static LAID: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    LAID.get_or_init(|| lay_out(&cache_root()?)).clone().map(Some)
}

/// The package's files as this binary carries them.
pub fn files() -> &'static [(&'static str, &'static str)] {
    FILES
}

/// Where hosts are laid out: `$XDG_CACHE_HOME/arena` or `~/.cache/arena`,
/// else a folder of the user's own in the temporary folder.
fn cache_root() -> Result<PathBuf, String> {
    let absolute = |name: &str| std::env::var_os(name).map(PathBuf::from).filter(|p| p.is_absolute());
    if let Some(cache) = absolute("XDG_CACHE_HOME").or_else(|| absolute("HOME").map(|h| h.join(".cache"))) {
        let root = cache.join("arena");
        if fs::create_dir_all(&root).is_ok() && is_private(&root) {
            return Ok(root);
        }
    }
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    let root = std::env::temp_dir().join(format!("arena-{uid}"));
    let _ = fs::DirBuilder::new().mode(0o700).create(&root);
    if is_private(&root) {
        Ok(root)
    } else {
        Err(format!(
            "cannot lay out the Python players' host: neither ~/.cache/arena nor {} is a folder of this user's that only it can write: set XDG_CACHE_HOME to one",
            root.display()
        ))
    }
}

/// Whether a folder is this user's own and no one else can write to it
/// (a host laid out there is what every Python player runs).
fn is_private(folder: &Path) -> bool {
    // SAFETY: geteuid cannot fail.
    let uid = unsafe { libc::geteuid() };
    fs::symlink_metadata(folder).is_ok_and(|m| m.is_dir() && m.uid() == uid && m.mode() & 0o022 == 0)
}

/// The host's folder in `root`, named by this binary's version and the
/// package's contents; laid out if missing or not as carried (written
/// aside, then renamed into place: processes laying it out at once each
/// end with a whole one).
fn lay_out(root: &Path) -> Result<PathBuf, String> {
    let mut hash = DefaultHasher::new();
    FILES.hash(&mut hash);
    let name = format!("python-host-{}-{:016x}", env!("CARGO_PKG_VERSION"), hash.finish());
    let folder = root.join(&name);
    if holds_the_host(&folder) {
        return Ok(folder);
    }
    let failed =
        |e: std::io::Error| format!("cannot lay out the Python players' host in {}: {e}", root.display());
    let aside = root.join(format!(".{name}.{}.partial", std::process::id()));
    let _ = fs::remove_dir_all(&aside);
    write_host(&aside).map_err(failed)?;
    if folder.exists() {
        // Not as carried (edited, or cut short): replaced whole.
        let stale = root.join(format!(".{name}.{}.stale", std::process::id()));
        if fs::rename(&folder, &stale).is_ok() {
            let _ = fs::remove_dir_all(&stale);
        }
    }
    if let Err(error) = fs::rename(&aside, &folder) {
        let _ = fs::remove_dir_all(&aside);
        // Another process laid it out first: theirs is as good.
        if !holds_the_host(&folder) {
            return Err(failed(error));
        }
    }
    Ok(folder)
}

/// Writes the package into `folder/arena_player/`, its files read-only
/// (folders only their owner writes to, whatever the umask).
fn write_host(folder: &Path) -> std::io::Result<()> {
    for (relative, contents) in FILES {
        let path = folder.join("arena_player").join(relative);
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o755)
            .create(path.parent().expect("a file has a folder"))?;
        let mut file = fs::File::create(&path)?;
        file.write_all(contents.as_bytes())?;
        file.set_permissions(fs::Permissions::from_mode(0o444))?;
    }
    Ok(())
}

/// Whether `folder` holds the package exactly as carried, and nothing but
/// its owner can change it.
fn holds_the_host(folder: &Path) -> bool {
    let package = folder.join("arena_player");
    is_private(folder)
        && is_private(&package)
        && FILES.iter().all(|(relative, contents)| {
            let path = package.join(relative);
            let own = path.parent().is_some_and(is_private);
            own && fs::read(&path).is_ok_and(|bytes| bytes == contents.as_bytes())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_package_is_carried_whole() {
        let names: Vec<&str> = FILES.iter().map(|(name, _)| *name).collect();
        for needed in ["__init__.py", "__main__.py", "serve.py", "wire.py", "skeleton/Grid.py"] {
            assert!(names.contains(&needed), "{needed} is carried: {names:?}");
        }
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../players/python/src/arena_player");
        for (name, contents) in FILES {
            assert_eq!(
                fs::read_to_string(source.join(name)).unwrap(),
                *contents,
                "{name} as in the repository"
            );
        }
    }

    #[test]
    fn a_host_is_laid_out_once_and_mended_when_changed() {
        let root = crate::sandbox::Scratch::new().unwrap();
        let root = root.path();
        let folder = lay_out(root).unwrap();
        assert!(holds_the_host(&folder));
        let main = folder.join("arena_player/__main__.py");
        assert_eq!(fs::metadata(&main).unwrap().mode() & 0o777, 0o444, "read-only");
        // Laid out again: the same folder, untouched.
        let written = fs::metadata(&main).unwrap().modified().unwrap();
        assert_eq!(lay_out(root).unwrap(), folder);
        assert_eq!(fs::metadata(&main).unwrap().modified().unwrap(), written);
        // A file changed behind its back: laid out anew.
        fs::set_permissions(&main, fs::Permissions::from_mode(0o644)).unwrap();
        fs::write(&main, "raise SystemExit('not the host')").unwrap();
        assert!(!holds_the_host(&folder));
        assert_eq!(lay_out(root).unwrap(), folder);
        assert!(holds_the_host(&folder));
        // Nothing left aside.
        let left: Vec<_> = fs::read_dir(root).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(left.len(), 1, "{left:?}");
    }

    #[test]
    fn a_folder_others_can_write_to_is_not_used() {
        let root = crate::sandbox::Scratch::new().unwrap();
        let folder = lay_out(root.path()).unwrap();
        fs::set_permissions(&folder, fs::Permissions::from_mode(0o777)).unwrap();
        assert!(!holds_the_host(&folder), "a world-writable host is not trusted");
        assert_eq!(lay_out(root.path()).unwrap(), folder);
        assert!(holds_the_host(&folder), "laid out anew, private");
    }
}
