//! `arena new NAME`: writes a ready-to-build player crate from the template
//! in `players/template`, with the `player-api` this arena speaks written
//! into it (`NAME/player-api/`): both are embedded in the binary, so a new
//! player builds anywhere, with nothing but cargo and the crate registry
//! (an arena handed to students, from a course's server or a release,
//! has no checkout beside it). `--api-path` depends on a folder instead
//! (developing the arena itself). `--python` writes a course-layout Python
//! player instead (`PlayerAI.py`, from `players/python/template`).

use std::{
    fs,
    path::{Path, PathBuf},
};

use anyhow::{bail, Context, Result};

const TEMPLATE_MANIFEST: &str = include_str!("../../../../players/template/Cargo.toml");
const TEMPLATE_LIB: &str = include_str!("../../../../players/template/src/lib.rs");
const TEMPLATE_NAME: &str = "template-player";
const TEMPLATE_API_PATH: &str = "../../player-api";
/// A course-layout Python player (`arena new NAME --python`).
const PYTHON_PLAYER: &str = include_str!("../../../../players/python/template/PlayerAI.py");

/// `player-api`'s sources as this arena was built with them, by their path
/// in its `src/` (listed by the build script, build.rs).
const PLAYER_API: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/player_api_files.rs"));

/// The manifest of the `player-api` written into a new crate: the
/// workspace's own inherits its version and dependencies, which a crate
/// on its own must name (a test keeps them the workspace's).
const PLAYER_API_MANIFEST: &str = r#"[package]
name = "player-api"
description = "Game rules and the stable player ABI of the arena that wrote this crate (arena new)."
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
abi_stable = { version = "0.11.3", default-features = false }
rand = { version = "0.9", default-features = false, features = ["std"] }

[target.'cfg(unix)'.dependencies]
libc = "0.2"
"#;

/// Which `player-api` a new player depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Api {
    /// This arena's own, written into the new crate (`NAME/player-api/`).
    Bundled,
    /// The `player-api` folder at this path (`--api-path`).
    At(PathBuf),
}

/// Writes the crate `name` into `dir/name`, depending on `api`. Returns
/// the crate's folder.
pub fn new_player(dir: &Path, name: &str, api: &Api) -> Result<PathBuf> {
    check_name(name, "crate name")?;
    let api_path = match api {
        Api::Bundled => "player-api".to_string(),
        Api::At(path) => path
            .canonicalize()
            .with_context(|| {
                format!(
                    "player-api not found at {}: pass --api-path with the path of the arena's player-api folder \
                     (or leave it out: the arena writes its own into the new crate)",
                    path.display()
                )
            })?
            .display()
            .to_string(),
    };
    let root = fresh(dir, name)?;
    let manifest = TEMPLATE_MANIFEST
        .replace(&format!("name = \"{TEMPLATE_NAME}\""), &format!("name = \"{name}\""))
        .replace(TEMPLATE_API_PATH, &api_path)
        // Standalone: not part of whatever workspace the folder sits in.
        + "\n[workspace]\n";
    let lib = TEMPLATE_LIB.replace(TEMPLATE_NAME, name);
    write(&root.join("Cargo.toml"), &manifest)?;
    write(&root.join("src/lib.rs"), &lib)?;
    write(&root.join(".gitignore"), "/target\n")?;
    if *api == Api::Bundled {
        let api = root.join("player-api");
        write(&api.join("Cargo.toml"), PLAYER_API_MANIFEST)?;
        for (file, text) in PLAYER_API {
            write(&api.join("src").join(file), text)?;
        }
    }
    Ok(root)
}

/// Writes a course-layout Python player into `dir/name` (`PlayerAI.py`,
/// the class the course's skeleton runs; `arena check python:DIR/NAME`).
/// Returns its folder.
pub fn new_python_player(dir: &Path, name: &str) -> Result<PathBuf> {
    check_name(name, "player name")?;
    let root = fresh(dir, name)?;
    write(&root.join("PlayerAI.py"), PYTHON_PLAYER)?;
    Ok(root)
}

/// A new player's name, as what it names takes it (`what`: "crate name",
/// "player name"): a crate's, which a folder can take too. Shown escaped:
/// it may hold a line break or a terminal's escape.
fn check_name(name: &str, what: &str) -> Result<()> {
    let valid = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !valid {
        bail!(
            "'{}' is not a usable {what}: use lowercase letters, digits, '-' and '_', starting with a letter",
            name.escape_debug()
        );
    }
    Ok(())
}

/// `dir/name`, which must not exist yet.
fn fresh(dir: &Path, name: &str) -> Result<PathBuf> {
    let root = dir.join(name);
    if root.exists() {
        bail!("{} already exists: choose another name or remove it", root.display());
    }
    Ok(root)
}

/// Writes `text` to `path`, making its folders.
fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_has_the_strings_the_scaffold_replaces() {
        assert!(TEMPLATE_MANIFEST.contains(&format!("name = \"{TEMPLATE_NAME}\"")));
        assert!(TEMPLATE_MANIFEST.contains(TEMPLATE_API_PATH));
        assert!(TEMPLATE_LIB.contains("export_player!"));
    }

    /// The workspace's `player-api` folder (this crate is two below the root).
    fn api_folder() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../player-api")
    }

    #[test]
    fn writes_a_crate_with_the_name_and_api_path() {
        let dir = tempfile::tempdir().unwrap();
        let root = new_player(dir.path(), "my-bot", &Api::At(api_folder())).unwrap();
        let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
        assert!(manifest.contains("name = \"my-bot\""));
        assert!(manifest.contains(&api_folder().canonicalize().unwrap().display().to_string()));
        assert!(manifest.contains("[workspace]"));
        assert!(!root.join("player-api").exists(), "with --api-path, none written");
        assert!(fs::read_to_string(root.join("src/lib.rs")).unwrap().contains("\"my-bot\""));
        let again = new_player(dir.path(), "my-bot", &Api::Bundled).unwrap_err();
        assert!(again.to_string().contains("already exists"));
        let missing = new_player(dir.path(), "other", &Api::At(dir.path().join("nowhere"))).unwrap_err();
        assert!(format!("{missing:#}").contains("pass --api-path"), "{missing:#}");
    }

    #[test]
    fn the_bundled_api_is_the_workspaces_whole_and_the_crate_names_it() {
        // Every file of player-api/src, as it is.
        let mut files = Vec::new();
        let src = api_folder().join("src");
        let mut folders = vec![src.clone()];
        while let Some(folder) = folders.pop() {
            for entry in fs::read_dir(&folder).unwrap().flatten() {
                match entry.path() {
                    path if path.is_dir() => folders.push(path),
                    path => files.push(path.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/")),
                }
            }
        }
        files.sort();
        let bundled: Vec<&str> = PLAYER_API.iter().map(|(file, _)| *file).collect();
        assert_eq!(bundled, files, "list every file of player-api/src in PLAYER_API");
        for (file, text) in PLAYER_API {
            assert_eq!(*text, fs::read_to_string(src.join(file)).unwrap(), "{file}");
        }
        // Its manifest: the workspace's version and dependencies.
        let workspace: toml::Table =
            fs::read_to_string(api_folder().join("../Cargo.toml")).unwrap().parse().unwrap();
        let ours: toml::Table = PLAYER_API_MANIFEST.parse().unwrap();
        assert_eq!(ours["package"]["version"], workspace["workspace"]["package"]["version"]);
        // Every dependency player-api's own manifest names, as the
        // workspace gives it (a new one must be written here too).
        let own: toml::Table = fs::read_to_string(api_folder().join("Cargo.toml")).unwrap().parse().unwrap();
        let unix = |t: &toml::Table| t.get("target").and_then(|t| t.get("cfg(unix)")).cloned();
        let deps = |t: Option<toml::Value>| {
            t.and_then(|t| t.get("dependencies").and_then(|d| d.as_table().cloned())).unwrap_or_default()
        };
        let pairs = [
            (deps(Some(ours.clone().into())), deps(Some(own.clone().into()))),
            (deps(unix(&ours)), deps(unix(&own))),
        ];
        for (written, theirs) in pairs {
            let names: Vec<&String> = theirs.keys().collect();
            assert_eq!(written.keys().collect::<Vec<_>>(), names, "player-api's dependencies");
            for dependency in names {
                let given = &workspace["workspace"]["dependencies"][dependency.as_str()];
                assert_eq!(&written[dependency.as_str()], given, "{dependency}");
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let root = new_player(dir.path(), "my-bot", &Api::Bundled).unwrap();
        let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
        assert!(manifest.contains("player-api = { path = \"player-api\" }"), "{manifest}");
        assert!(root.join("player-api/src/trap/state.rs").is_file());
    }

    #[test]
    fn writes_a_course_python_player() {
        let dir = tempfile::tempdir().unwrap();
        let root = new_python_player(dir.path(), "my-py").unwrap();
        assert_eq!(fs::read_to_string(root.join("PlayerAI.py")).unwrap(), PYTHON_PLAYER);
        assert!(PYTHON_PLAYER.contains("class PlayerAI(BaseAI)") && PYTHON_PLAYER.contains("def getTrap"));
        assert!(new_python_player(dir.path(), "my-py").unwrap_err().to_string().contains("already exists"));
    }

    #[test]
    fn rejects_bad_names() {
        let dir = tempfile::tempdir().unwrap();
        let err = new_player(dir.path(), "My Bot", &Api::Bundled).unwrap_err();
        assert!(err.to_string().contains("not a usable crate name"));
        // One line, whatever the name holds; a Python player has no crate.
        let err = new_python_player(dir.path(), "a\nb\x1b[2J").unwrap_err().to_string();
        assert_eq!(
            err,
            r"'a\nb\u{1b}[2J' is not a usable player name: use lowercase letters, digits, '-' and '_', starting with a letter"
        );
    }
}
