//! The environment a worker starts with. Not the arena's: that may hold
//! the server's or the user's secrets (tokens, passwords, keys), and a
//! player could print it into its error message. A worker's environment
//! is cleared, then given only what a program needs to run (the allow-list
//! below), its scratch folder as HOME and TMPDIR, PYTHONPATH filtered, and
//! the variables the user passes by name (`--pass-env NAME`, the tournament
//! file's `pass_env`). Library, `cmd:` and `python:` workers alike,
//! sandboxed or not.

use std::{
    ffi::{OsStr, OsString},
    path::{Path, PathBuf},
};

/// The arena's variables every worker keeps, each for a reason.
#[rustfmt::skip]
const KEPT: &[&str] = &[
    // Where programs are: a player that runs a helper (`sh`, `python3`),
    // and `#!/usr/bin/env python3` scripts run as `cmd:` players.
    "PATH",
    // The language and character set (with the LC_* variables below): how
    // Python decodes its files and encodes its output, the messages of the
    // system's tools.
    "LANG",
    "LANGUAGE",
    // The time zone, so a player's log lines show the arena's local time.
    "TZ",
];

/// Prefixes of the arena's variables every worker keeps: the locale's
/// categories (LC_ALL, LC_CTYPE, ...), as LANG above.
const KEPT_PREFIXES: &[&str] = &["LC_"];

/// Variables the arena sets itself, which cannot be passed by name.
const SET_BY_THE_ARENA: &[(&str, &str)] = &[
    ("HOME", "a worker's HOME is always its scratch folder: pass the folder you mean under another name"),
    ("TMPDIR", "a worker's TMPDIR is always its scratch folder: pass the folder you mean under another name"),
    (
        "PYTHONPATH",
        "PYTHONPATH is always passed, keeping the absolute folders that exist and hold neither the arena's working directory nor its home: name such folders in it",
    ),
];

/// The environment of a worker whose scratch folder is `scratch`, passing
/// the arena's variables named in `pass` (those that are set).
pub fn for_worker(scratch: &Path, pass: &[String]) -> Vec<(OsString, OsString)> {
    let private = private_folders();
    for_worker_from(std::env::vars_os(), pass, scratch, &private)
}

/// `for_worker` on the arena's environment `vars`, with the folders no
/// search path may expose.
fn for_worker_from(
    vars: impl Iterator<Item = (OsString, OsString)>,
    pass: &[String],
    scratch: &Path,
    private: &[PathBuf],
) -> Vec<(OsString, OsString)> {
    let mut env = Vec::new();
    for (name, value) in vars {
        let Some(text) = name.to_str() else { continue };
        if text == "PYTHONPATH" {
            if let Some(kept) = search_path(&value, private) {
                env.push((name, kept));
            }
        } else if is_kept(text) || pass.iter().any(|p| p == text) {
            env.push((name, value));
        }
    }
    // Last, so that nothing above can change them.
    env.push(("HOME".into(), scratch.into()));
    env.push(("TMPDIR".into(), scratch.into()));
    env
}

fn is_kept(name: &str) -> bool {
    KEPT.contains(&name) || KEPT_PREFIXES.iter().any(|prefix| name.starts_with(prefix))
}

/// Checks a name given to `--pass-env` or `pass_env`: a variable's name
/// (letters, digits and `_`, not starting with a digit), not one the arena
/// sets itself. The error is one line that names it and the fix.
pub fn check_pass_name(name: &str) -> Result<(), String> {
    if !player_api::params::is_identifier(name) {
        return Err(format!(
            "'{name}' is not a variable name: name one variable (letters, digits and _, not starting with a digit), e.g. MY_DATA_DIR, without '=' or '$'"
        ));
    }
    match SET_BY_THE_ARENA.iter().find(|(set, _)| *set == name) {
        Some((_, why)) => Err(format!("'{name}' cannot be passed: {why}")),
        None => Ok(()),
    }
}

/// A worker's PYTHONPATH with `first` before the entries it keeps of the
/// arena's own (as `for_worker` keeps them): the host of Python players
/// imported before any other `arena_player` (python_host.rs).
pub fn python_path_with(first: &Path) -> OsString {
    let kept = std::env::var_os("PYTHONPATH").and_then(|value| search_path(&value, &private_folders()));
    let rest = kept.iter().flat_map(std::env::split_paths);
    std::env::join_paths(std::iter::once(first.to_path_buf()).chain(rest)).unwrap_or_else(|_| first.into())
}

/// A PYTHONPATH as a worker gets it: only the entries `search_folder` keeps
/// (an empty entry, which Python reads as its working directory, is
/// dropped). None when nothing is left.
fn search_path(value: &OsStr, private: &[PathBuf]) -> Option<OsString> {
    let kept: Vec<PathBuf> =
        std::env::split_paths(value).filter_map(|p| search_folder(&p, private)).collect();
    if kept.is_empty() {
        return None;
    }
    std::env::join_paths(kept).ok()
}

/// The folders no search path handed to a worker may hold: the arena's
/// working directory (a tournament's or the server's folder: other
/// players' files, journals, the database) and the arena user's home.
pub fn private_folders() -> Vec<PathBuf> {
    let cwd = std::env::current_dir().ok();
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    cwd.into_iter().chain(home).filter_map(|p| p.canonicalize().ok()).collect()
}

/// An entry of a search path (PYTHONPATH, an interpreter's `sys.path`) as
/// a worker may be given it, to import from and, sandboxed, to read: an
/// absolute folder or file that exists (canonical), which is not `/` and
/// does not hold any of `private` (a folder below the home folder, such as
/// pyenv's, is fine). None: leave it out. A relative or empty entry is
/// left out too: Python resolves it against its working directory.
pub fn search_folder(entry: &Path, private: &[PathBuf]) -> Option<PathBuf> {
    if !entry.is_absolute() {
        return None;
    }
    let canonical = entry.canonicalize().ok()?;
    let exposes = canonical.parent().is_none() || private.iter().any(|p| p.starts_with(&canonical));
    (!exposes).then_some(canonical)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> impl Iterator<Item = (OsString, OsString)> {
        pairs.iter().map(|(k, v)| (OsString::from(k), OsString::from(v))).collect::<Vec<_>>().into_iter()
    }

    fn names(env: &[(OsString, OsString)]) -> Vec<&str> {
        env.iter().map(|(k, _)| k.to_str().unwrap()).collect()
    }

    #[test]
    fn a_worker_keeps_only_the_allow_list_and_what_is_passed() {
        let arena = vars(&[
            ("PATH", "/usr/bin:/bin"),
            ("LANG", "C.UTF-8"),
            ("LC_ALL", "C.UTF-8"),
            ("TZ", "Europe/Prague"),
            ("ARENA_TOKEN", "secret"),
            ("AWS_SECRET_ACCESS_KEY", "secret"),
            ("DATABASE_URL", "postgres://secret"),
            ("HOME", "/root"),
            ("TMPDIR", "/tmp"),
            ("RUST_LOG", "debug"),
            ("MY_DATA", "/data"),
        ]);
        let scratch = Path::new("/tmp/arena-scratch-0/1-1");
        let env = for_worker_from(arena, &["MY_DATA".into(), "UNSET".into()], scratch, &[]);
        assert_eq!(names(&env), ["PATH", "LANG", "LC_ALL", "TZ", "MY_DATA", "HOME", "TMPDIR"]);
        assert_eq!(env[4].1, "/data");
        assert_eq!(env[5].1, scratch.as_os_str());
        assert_eq!(env[6].1, scratch.as_os_str());
        let nothing_passed = for_worker_from(vars(&[("MY_DATA", "/data")]), &[], scratch, &[]);
        assert_eq!(names(&nothing_passed), ["HOME", "TMPDIR"]);
    }

    #[test]
    fn pythonpath_keeps_only_absolute_existing_folders_away_from_the_arenas_own() {
        let root = tempfile::tempdir().unwrap();
        let root = root.path().canonicalize().unwrap();
        let cwd = root.join("course");
        let home = root.join("home");
        let package = root.join("checkout/players/python/src");
        let pyenv = home.join(".pyenv/versions/3.12/lib");
        let inside = cwd.join("lib");
        for folder in [&cwd, &home, &package, &pyenv, &inside] {
            std::fs::create_dir_all(folder).unwrap();
        }
        let private = [cwd.clone(), home.clone()];
        let value = std::env::join_paths([
            PathBuf::new(), // "": Python's working directory
            PathBuf::from("relative/src"),
            package.clone(),
            root.join("missing"),
            cwd.clone(),
            root.clone(), // holds the working directory
            home.clone(),
            PathBuf::from("/"),
            pyenv.clone(),
            inside.clone(),
        ])
        .unwrap();
        let kept = search_path(&value, &private).unwrap();
        assert_eq!(std::env::split_paths(&kept).collect::<Vec<_>>(), [package, pyenv, inside]);
        // `export PYTHONPATH=$PYTHONPATH:/x` with PYTHONPATH unset, /x missing.
        assert_eq!(search_path(OsStr::new(":/no/such/folder"), &private), None);
        let env = for_worker_from(vars(&[("PYTHONPATH", ":relative")]), &[], Path::new("/s"), &private);
        assert_eq!(names(&env), ["HOME", "TMPDIR"]);
    }

    #[test]
    fn pass_names_are_variable_names_the_arena_does_not_set() {
        for good in ["MY_DATA", "_x", "RUST_BACKTRACE", "a1"] {
            assert_eq!(check_pass_name(good), Ok(()), "{good}");
        }
        for bad in ["", "1ABC", "A=B", "$HOME", "MY-DATA", "a b"] {
            let error = check_pass_name(bad).unwrap_err();
            assert!(error.contains(&format!("'{bad}' is not a variable name")), "{error}");
        }
        for set in ["HOME", "TMPDIR", "PYTHONPATH"] {
            let error = check_pass_name(set).unwrap_err();
            assert!(error.starts_with(&format!("'{set}' cannot be passed: ")), "{error}");
        }
    }
}
