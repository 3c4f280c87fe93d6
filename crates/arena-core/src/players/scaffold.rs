//! `arena new NAME`: writes a ready-to-build player crate from the template
//! in `players/template` (embedded in the binary, so it works anywhere).

use std::{
    fs,
    path::{Path, PathBuf},
};

use anyhow::{bail, Context, Result};

const TEMPLATE_MANIFEST: &str = include_str!("../../../../players/template/Cargo.toml");
const TEMPLATE_LIB: &str = include_str!("../../../../players/template/src/lib.rs");
const TEMPLATE_NAME: &str = "template-player";
const TEMPLATE_API_PATH: &str = "../../player-api";

/// Where this arena's `player-api` sources were when it was built.
pub fn default_api_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../player-api")
}

/// Writes the crate `name` into `dir/name`, depending on the `player-api`
/// at `api_path`. Returns the crate's folder.
pub fn new_player(dir: &Path, name: &str, api_path: &Path) -> Result<PathBuf> {
    let valid = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !valid {
        bail!("'{name}' is not a usable crate name: use lowercase letters, digits, '-' and '_', starting with a letter");
    }
    let api_path = api_path.canonicalize().with_context(|| {
        format!(
            "player-api not found at {}: pass --api-path with the path of the arena's player-api folder",
            api_path.display()
        )
    })?;
    let root = dir.join(name);
    if root.exists() {
        bail!("{} already exists: choose another name or remove it", root.display());
    }
    let manifest = TEMPLATE_MANIFEST
        .replace(&format!("name = \"{TEMPLATE_NAME}\""), &format!("name = \"{name}\""))
        .replace(TEMPLATE_API_PATH, &api_path.display().to_string())
        // Standalone: not part of whatever workspace the folder sits in.
        + "\n[workspace]\n";
    let lib = TEMPLATE_LIB.replace(TEMPLATE_NAME, name);
    fs::create_dir_all(root.join("src")).with_context(|| format!("cannot create {}", root.display()))?;
    fs::write(root.join("Cargo.toml"), manifest)?;
    fs::write(root.join("src/lib.rs"), lib)?;
    fs::write(root.join(".gitignore"), "/target\n")?;
    Ok(root)
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

    #[test]
    fn writes_a_crate_with_the_name_and_api_path() {
        let dir = tempfile::tempdir().unwrap();
        let root = new_player(dir.path(), "my-bot", &default_api_path()).unwrap();
        let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
        assert!(manifest.contains("name = \"my-bot\""));
        assert!(manifest.contains(&default_api_path().canonicalize().unwrap().display().to_string()));
        assert!(manifest.contains("[workspace]"));
        assert!(fs::read_to_string(root.join("src/lib.rs")).unwrap().contains("\"my-bot\""));
        let again = new_player(dir.path(), "my-bot", &default_api_path()).unwrap_err();
        assert!(again.to_string().contains("already exists"));
    }

    #[test]
    fn rejects_bad_names() {
        let dir = tempfile::tempdir().unwrap();
        let err = new_player(dir.path(), "My Bot", &default_api_path()).unwrap_err();
        assert!(err.to_string().contains("not a usable crate name"));
    }
}
