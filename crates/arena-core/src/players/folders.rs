//! The players in a folder, a library or a course Python folder per
//! student group: what a tournament file's `player_folders` names (the
//! file's key is the tournament's to add to an error). Beside
//! `players/mod.rs`, which turns one name or path into a player.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use super::PlayerSpec;
use crate::players::external::{Program, COURSE_FILE};

/// Every player in `folder`: the libraries in it and in its subfolders (two
/// levels deep), and the subfolders holding a course `PlayerAI.py`; sorted
/// by path. A group folder with several players is an error.
pub fn scan(folder: &Path) -> Result<Vec<PlayerSpec>> {
    if !folder.is_dir() {
        bail!("{} is not a folder", folder.display());
    }
    let mut found = Vec::new();
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(folder)?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            let mut libraries: Vec<PathBuf> = walk_libraries(&entry, 2);
            libraries.sort();
            let course = entry.join(COURSE_FILE);
            if course.is_file() {
                if !libraries.is_empty() {
                    bail!(
                        "{} holds a library ({}) and a {COURSE_FILE}: keep one player per group folder",
                        entry.display(),
                        libraries[0].display()
                    );
                }
                found.push(PlayerSpec::Program(Program::Python(entry)));
                continue;
            }
            match libraries.len() {
                0 => {}
                1 => found.push(PlayerSpec::Library(libraries.remove(0))),
                n => bail!(
                    "{} holds {n} libraries ({}): keep one per group folder",
                    entry.display(),
                    libraries.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
                ),
            }
        } else if is_library(&entry) {
            found.push(PlayerSpec::Library(entry));
        }
    }
    if found.is_empty() {
        bail!("no player in {} (a library .so, or a group folder holding {COURSE_FILE})", folder.display());
    }
    Ok(found)
}

fn walk_libraries(dir: &Path, depth: u32) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out = Vec::new();
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.is_dir() && depth > 0 {
            out.extend(walk_libraries(&path, depth - 1));
        } else if is_library(&path) {
            out.push(path);
        }
    }
    out
}

fn is_library(path: &Path) -> bool {
    path.is_file() && path.extension().is_some_and(|e| e == "so")
}
