//! `arena grade`: one submission graded by a course file's assignment on
//! this machine, as the server grades it (`grading.rs`), outside any
//! server: no data folder, no queue. What a submission is follows the
//! server's upload rule (`arena submit`'s checks, `archive::find_player`):
//! a player library, a Python player's folder (`PlayerAI.py`, or one `.py`
//! file), or a `.zip`/`.tar.gz` of one; and, as Gradescope hands a
//! submission in a folder of the student's files, a folder holding one
//! library and no Python.

use std::{
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    time::Instant,
};

use anyhow::{bail, Context, Result};

use crate::{
    client::checked_upload,
    course::Assignment,
    store::archive,
    work::grading::{self, Graded, Here},
};
use arena_core::{players::hand_in, tournament::Observer};

/// A submission graded, and how long it took.
pub struct Outcome {
    pub graded: Graded,
    pub seconds: u64,
}

/// Grades the submission at `path` as `assignment` says, in a scratch
/// folder of its own (removed after, unless `keep` names one to keep the
/// run in: its tournament file, journal, reports and lost games'
/// replays). An error says why it has no grade: the submission holds no
/// player, the player does not load, makes no legal move in its smoke
/// games, plays another game.
pub fn grade(
    path: &Path,
    assignment: &Assignment,
    how: &Here<'_>,
    keep: Option<&Path>,
    observer: &mut dyn Observer,
) -> Result<Outcome> {
    let started = Instant::now();
    let scratch = Scratch::new(keep)?;
    let (player, shown_as) = player_entry(path, &scratch.path.join("submission"))?;
    let run = scratch.path.join("run");
    // The grading run's file holds its seed: the arena's alone.
    std::fs::create_dir_all(&run)
        .and_then(|()| std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o700)))
        .with_context(|| format!("cannot create {}", run.display()))?;
    let graded = grading::grade_here(&run, assignment, &player, &shown_as, how, observer);
    if let Some(user) = how.run_as {
        // Nothing of the player's may run once its grade is known: a
        // process it left could still write where the grade goes.
        user.end_all_processes().map_err(anyhow::Error::msg)?;
    }
    Ok(Outcome { graded: graded?, seconds: started.elapsed().as_secs() })
}

/// The player entry (a library's path, `python:PATH`) of the submission
/// at `path`, and how errors show it (as handed in); an archive is
/// unpacked into `unpack_into`.
pub fn player_entry(path: &Path, unpack_into: &Path) -> Result<(String, String)> {
    let shown = path.display().to_string();
    if !path.exists() {
        bail!("{shown}: no such file or folder: give the submission (a player library .so, or a Python player's folder)");
    }
    let absolute = std::fs::canonicalize(path).with_context(|| format!("cannot read {shown}"))?;
    if absolute.is_dir() {
        let library = hand_in::only_library(&absolute).with_context(|| format!("cannot read {shown}"))?;
        if let Some(library) = library {
            let library_shown = library.strip_prefix(&absolute).unwrap_or(&library).display().to_string();
            return Ok((library.display().to_string(), library_shown));
        }
        // The server's checks of a folder (a player in it, at most so many
        // files and bytes), as `arena submit` makes them before sending.
        let upload = checked_upload(&absolute)?;
        let inside = upload.player.context("a folder's upload names its player")?;
        let player = absolute.join(inside);
        return Ok((format!("python:{}", player.display()), shown));
    }
    let bytes = std::fs::read(&absolute).with_context(|| format!("cannot read {shown}"))?;
    if let Some(kind) = archive::Kind::of(&bytes) {
        archive::unpack(&bytes, kind, unpack_into).map_err(|why| anyhow::anyhow!("{shown}: {why}"))?;
        let inside = archive::find_player(unpack_into).map_err(|why| anyhow::anyhow!("{shown}: {why}"))?;
        return Ok((format!("python:{}", unpack_into.join(inside).display()), shown));
    }
    if absolute.extension().is_some_and(|e| e == "py") {
        return Ok((format!("python:{}", absolute.display()), shown));
    }
    // A library must look like one, as the server checks an upload.
    crate::store::files::check_library(&bytes).map_err(|why| anyhow::anyhow!("{shown}: {why}"))?;
    Ok((absolute.display().to_string(), shown))
}

/// The folder a grading works in: kept where asked, else made in the
/// system's temporary folder and removed when dropped.
struct Scratch {
    path: PathBuf,
    remove: bool,
}

impl Scratch {
    fn new(keep: Option<&Path>) -> Result<Scratch> {
        let (path, remove) = match keep {
            Some(keep) => (keep.to_path_buf(), false),
            None => (std::env::temp_dir().join(format!("arena-grade-{}", std::process::id())), true),
        };
        if remove {
            let _ = std::fs::remove_dir_all(&path);
        }
        std::fs::create_dir_all(&path).with_context(|| format!("cannot create {}", path.display()))?;
        if remove {
            // A player run as another user reaches its unpacked submission
            // here, and lists nothing.
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o711))
                .with_context(|| format!("cannot set the permissions of {}", path.display()))?;
        }
        Ok(Scratch { path, remove })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if self.remove {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}
