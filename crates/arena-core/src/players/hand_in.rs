//! The player in a student's hand-in (a folder of their files): the
//! server's rule for an uploaded archive, `arena submit`'s check of a
//! folder before it is sent, `arena grade`'s submission and each
//! submission of a Gradescope export. A course folder (`PlayerAI.py`, at
//! the top or in its one subfolder), the only `.py` file, or, where the
//! hand-in may be a Rust player's (`arena grade`, an export), its one
//! library beside no Python.

use std::path::{Path, PathBuf};

use crate::players::external::COURSE_FILE;

/// The Python player in a hand-in folder `root`, relative to it: the folder holding
/// `PlayerAI.py` (the root, or its one subfolder: beside it, the root may
/// hold other files but no Python, as the course's hand-in has the group's
/// `<group>.txt`), or the only `.py` file.
pub fn find_player(root: &Path) -> Result<PathBuf, String> {
    choose_player("the archive", |dir| {
        std::fs::read_dir(root.join(dir))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| (PathBuf::from(e.file_name()), e.path().is_dir()))
            .collect()
    })
}

/// The player of an archive holding the files `files` (their paths in it,
/// its folders being those above them), by [`find_player`]'s rule:
/// `arena submit` checks a folder with it before packing it. `what` names
/// the archive in the refusal ("the folder players/mine").
pub fn player_among(files: &[PathBuf], what: &str) -> Result<PathBuf, String> {
    choose_player(what, |dir| {
        let mut entries: Vec<(PathBuf, bool)> = files
            .iter()
            .filter_map(|file| {
                let rest = file.strip_prefix(dir).ok()?;
                let mut parts = rest.components();
                let first = PathBuf::from(parts.next()?.as_os_str());
                Some((first, parts.next().is_some()))
            })
            .collect();
        entries.sort();
        entries.dedup();
        entries
    })
}

/// [`find_player`]'s rule on a listing: `list(dir)` gives the entries of
/// the archive's folder `dir` (relative to its root): each one's name and
/// whether it is a folder. `what` names the archive in a refusal.
fn choose_player(what: &str, list: impl Fn(&Path) -> Vec<(PathBuf, bool)>) -> Result<PathBuf, String> {
    let listed = |dir: &Path| {
        let mut entries = list(dir);
        entries.sort();
        entries
    };
    let is_python = |name: &PathBuf| name.extension().is_some_and(|e| e == "py");
    let mut base = PathBuf::new();
    let mut entries = listed(&base);
    // One folder at the top (an archive of the folder itself, perhaps with
    // a text file beside it): look inside.
    let folders: Vec<&PathBuf> = entries.iter().filter(|(_, dir)| *dir).map(|(name, _)| name).collect();
    let python_at_top = entries.iter().any(|(name, _)| is_python(name));
    if let ([only], false) = (folders.as_slice(), python_at_top) {
        base = (*only).clone();
        entries = listed(&base);
    }
    if entries.iter().any(|(name, _)| name.as_os_str() == COURSE_FILE) {
        return Ok(base);
    }
    let scripts: Vec<&PathBuf> =
        entries.iter().filter(|(name, _)| is_python(name)).map(|(name, _)| name).collect();
    match scripts.as_slice() {
        [one] => Ok(base.join(one)),
        [] => {
            Err(format!("{what} holds no Python player: a course folder with {COURSE_FILE}, or one .py file"))
        }
        _ => Err(format!(
            "{what} holds several .py files but no {COURSE_FILE}: which is the player? \
             (a course folder has {COURSE_FILE})"
        )),
    }
}

/// The one library (`.so`) at the top of `folder` when it holds no Python
/// file there (a Rust player handed in as its library); None otherwise.
pub fn only_library(folder: &Path) -> std::io::Result<Option<PathBuf>> {
    let mut libraries = Vec::new();
    for entry in std::fs::read_dir(folder)? {
        let path = entry?.path();
        match path.extension().and_then(|e| e.to_str()) {
            Some("py") => return Ok(None),
            Some("so") if path.is_file() => libraries.push(path),
            _ => {}
        }
    }
    Ok(match libraries.len() {
        1 => libraries.pop(),
        _ => None,
    })
}
