//! `arena grade autograder`: the zip Gradescope builds an autograder
//! from (gradescope-autograders.readthedocs.io, "Autograder
//! Specifications"): `setup.sh` (run once, as root, when Gradescope builds
//! the image) and `run_autograder` (run for each submission, in
//! `/autograder`) at its root, and what they need: this arena binary, the
//! course file, the secret the grading seeds come from, and the Python
//! host of Python players. Gradescope unpacks the zip into
//! `/autograder/source`; `run_autograder` runs `arena grade --gradescope`
//! on `/autograder/submission`, which writes
//! `/autograder/results/results.json`.

use std::{
    io::Write,
    path::{Path, PathBuf},
};

use anyhow::{bail, Context, Result};
use zip::write::SimpleFileOptions;

use crate::{course::Course, store::secret::Secret};
use arena_core::{players::isolation::run_as::PLAYER_USER, sandbox::Sandbox};

/// The variable that moves the whole `/autograder` root (tests, a dry run
/// on a laptop): `run_autograder` and `arena grade --gradescope` read it.
pub const ROOT_ENV: &str = "ARENA_AUTOGRADER_ROOT";

/// Gradescope's root, where the variable does not move it.
pub const ROOT: &str = "/autograder";

/// The files of the zip, by name at its root (the Python host is a folder).
pub const BINARY: &str = "arena";
pub const COURSE: &str = "course.toml";
pub const SECRET: &str = "secret";
pub const PYTHON: &str = "python";

/// The autograder root: `ARENA_AUTOGRADER_ROOT`, or `/autograder`.
pub fn root() -> PathBuf {
    std::env::var_os(ROOT_ENV).filter(|r| !r.is_empty()).map_or_else(|| PathBuf::from(ROOT), PathBuf::from)
}

/// Where `results.json` goes under the autograder root `root`.
pub fn results_path(root: &Path) -> PathBuf {
    root.join("results").join("results.json")
}

/// What goes into an autograder zip.
pub struct Autograder<'a> {
    /// The course file, as written (checked: `course`).
    pub course_text: &'a str,
    pub course: &'a Course,
    /// The assignment it grades (one of the course's).
    pub assignment: &'a str,
    /// The arena binary to bundle (this one).
    pub binary: &'a Path,
    /// The `arena_player` package folder (the Python host).
    pub python_host: &'a Path,
    /// The seeds' secret: the same games for every submission, unknown
    /// to students (the zip is never shown to them).
    pub secret: &'a Secret,
    /// Whether `run_autograder` grades with the player's workers sandboxed.
    pub sandbox: Sandbox,
}

/// Writes the autograder zip to `out`.
pub fn write(autograder: &Autograder<'_>, out: &Path) -> Result<()> {
    autograder.course.pick(Some(autograder.assignment)).map_err(anyhow::Error::msg)?;
    let host_init = autograder.python_host.join("__main__.py");
    if !host_init.is_file() {
        bail!(
            "{} is not the arena_player package (no __main__.py): give --python-host the folder \
             players/python/src/arena_player of the arena's source",
            autograder.python_host.display()
        );
    }
    let file = std::fs::File::create(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut zip = zip::ZipWriter::new(file);
    let plain = SimpleFileOptions::default().unix_permissions(0o644);
    let executable = SimpleFileOptions::default().unix_permissions(0o755);
    let private = SimpleFileOptions::default().unix_permissions(0o600);
    zip.start_file("setup.sh", executable)?;
    zip.write_all(setup_script().as_bytes())?;
    zip.start_file("run_autograder", executable)?;
    zip.write_all(run_script(autograder.assignment, autograder.sandbox).as_bytes())?;
    zip.start_file(COURSE, plain)?;
    zip.write_all(autograder.course_text.as_bytes())?;
    zip.start_file(SECRET, private)?;
    zip.write_all(format!("{}\n", autograder.secret.hex()).as_bytes())?;
    let binary = std::fs::read(autograder.binary)
        .with_context(|| format!("cannot read the arena binary {}", autograder.binary.display()))?;
    zip.start_file(BINARY, executable.large_file(binary.len() as u64 >= u32::MAX as u64))?;
    zip.write_all(&binary)?;
    let package = Path::new(PYTHON).join("arena_player");
    for (path, inside) in python_files(autograder.python_host, &package)? {
        let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        zip.start_file(inside.to_string_lossy(), plain)?;
        zip.write_all(&bytes)?;
    }
    zip.finish().with_context(|| format!("cannot write {}", out.display()))?;
    Ok(())
}

/// The Python host's files (its `.py` files, caches left out), each with
/// its name in the zip under `inside`; sorted.
fn python_files(folder: &Path, inside: &Path) -> Result<Vec<(PathBuf, PathBuf)>> {
    let mut files = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(folder)
        .with_context(|| format!("cannot read {}", folder.display()))?
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap_or_default();
        if path.is_dir() && name != "__pycache__" {
            files.extend(python_files(&path, &inside.join(name))?);
        } else if path.extension().is_some_and(|e| e == "py") {
            files.push((path.clone(), inside.join(name)));
        }
    }
    Ok(files)
}

/// `setup.sh`: Python 3 and numpy (the course skeleton's `Grid` holds its
/// board in a numpy array) from the image's packages, and the user players
/// run as when the sandbox is off (`PLAYER_USER`: a user of their own, so
/// that ending all its processes ends only theirs); nothing else is
/// fetched: the arena is one static-enough binary.
fn setup_script() -> String {
    format!(
        "#!/usr/bin/env bash\n\
         # Made by `arena grade autograder`. Gradescope runs it once, as root,\n\
         # when it builds the autograder's image (Ubuntu).\n\
         set -euo pipefail\n\
         export DEBIAN_FRONTEND=noninteractive\n\
         # Python players: Python 3, and numpy for the course skeleton's Grid.\n\
         apt-get update -qq\n\
         apt-get install -y -qq --no-install-recommends python3 python3-numpy\n\
         # With the sandbox off, players run as this user, never as root.\n\
         id -u {PLAYER_USER} >/dev/null 2>&1 || \\\n\
         \x20   useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin {PLAYER_USER}\n\
         chmod +x /autograder/source/{BINARY} /autograder/source/run_autograder\n"
    )
}

/// `run_autograder`: grades the submission with the bundled arena, which
/// writes results.json. Only root may read the secret and the results'
/// folder (a player run unsandboxed, as another user, reaches neither; the
/// arena checks), and what the player runs is readable. A results.json
/// from before is removed first; unless the arena ends well having written
/// one, a results.json of the script's own says the grading failed (0
/// points, and how the arena ended): a grader killed midway never leaves
/// an earlier or a forged file to be read as its grade.
fn run_script(assignment: &str, sandbox: Sandbox) -> String {
    let sandbox = match sandbox {
        Sandbox::On => "on",
        Sandbox::Off => "off",
    };
    format!(
        "#!/usr/bin/env bash\n\
         # Made by `arena grade autograder`: grades the submission in\n\
         # $root/submission by the course file's assignment '{assignment}' and writes\n\
         # $root/results/results.json (root: {ROOT}, or ${ROOT_ENV}).\n\
         root=\"${{{ROOT_ENV}:-{ROOT}}}\"\n\
         source=\"$root/source\"\n\
         results=\"$root/results/results.json\"\n\
         # The secret and the results are root's alone; what the player runs is readable.\n\
         mkdir -p \"$root/results\"\n\
         chmod 700 \"$root/results\"\n\
         chmod 600 \"$source/{SECRET}\"\n\
         chmod a+x \"$root\"\n\
         chmod a+rx \"$source\" \"$source/{BINARY}\"\n\
         chmod -R a+rX \"$source/{PYTHON}\" \"$root/submission\"\n\
         # Only what this grading writes is handed back.\n\
         rm -f \"$results\"\n\
         # The Python host of Python players (arena_player), bundled.\n\
         export PYTHONPATH=\"$source/{PYTHON}${{PYTHONPATH:+:$PYTHONPATH}}\"\n\
         export {ROOT_ENV}=\"$root\"\n\
         \"$source/{BINARY}\" grade --gradescope --course \"$source/{COURSE}\" --assignment '{assignment}' \\\n\
         \x20   --secret \"$source/{SECRET}\" --sandbox {sandbox} --results \"$results\" \"$root/submission\"\n\
         status=$?\n\
         if [ \"$status\" -ne 0 ] || [ ! -s \"$results\" ]; then\n\
         \x20   if [ \"$status\" -gt 128 ]; then how=\"was killed by signal $((status - 128))\"; else how=\"exited with status $status\"; fi\n\
         \x20   printf '{{\"score\": 0, \"output\": \"Not graded: the autograder failed (the arena %s) before writing its results; the course staff can see why in its output.\"}}\\n' \"$how\" > \"$results.partial\"\n\
         \x20   mv -f \"$results.partial\" \"$results\"\n\
         fi\n\
         exit \"$status\"\n"
    )
}

/// The Python host to bundle: `given`, or the one this arena carries
/// (`players::python_host`: laid out from the binary, so a binary with no
/// checkout bundles it too), or, when `ARENA_PYTHON_HOST=installed` asks
/// for the interpreter's own, the `arena_player` package `python3` imports.
pub fn python_host(given: Option<&Path>) -> Result<PathBuf> {
    if let Some(given) = given {
        return Ok(given.to_path_buf());
    }
    if let Some(carried) = arena_core::players::python_host::folder().map_err(anyhow::Error::msg)? {
        return Ok(carried.join("arena_player"));
    }
    let python = arena_core::players::external::python();
    let asked = std::process::Command::new(&python)
        .args(["-c", "import arena_player, os; print(os.path.dirname(arena_player.__file__))"])
        .output();
    match asked {
        Ok(out) if out.status.success() => Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())),
        _ => bail!(
            "cannot find the Python host (arena_player) to bundle: give --python-host \
             PATH/players/python/src/arena_player, or install it (python3 -m pip install ./players/python)"
        ),
    }
}
