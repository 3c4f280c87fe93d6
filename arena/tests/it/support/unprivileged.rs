//! What the tests that run processes as another user than root share
//! (they run only as root): a folder other users can enter, and a turn to
//! run them. Their processes run as `nobody`, or the user an unsandboxed
//! Gradescope grading runs players as, whose processes that grading ends
//! all of when it is done: one such test at a time.

use std::{
    path::{Path, PathBuf},
    sync::{Mutex, MutexGuard},
};

/// This test's turn to run processes as another user, until dropped.
pub fn turn() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether this process is root (else such tests say so and skip).
pub fn is_root() -> bool {
    // SAFETY: plain syscall.
    unsafe { libc::geteuid() == 0 }
}

/// A fresh 0755 folder in the temporary folder, or else in /tmp, on a path
/// whose every folder lets other users through; or why there is none.
pub fn folder_others_can_enter() -> Result<tempfile::TempDir, String> {
    let closed = |folder: &&Path| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(folder).map_or(true, |m| m.permissions().mode() & 0o001 == 0)
    };
    let mut refusals = Vec::new();
    for base in [std::env::temp_dir(), PathBuf::from("/tmp")] {
        match base.ancestors().find(closed) {
            Some(folder) => refusals.push(format!("{} is closed to other users", folder.display())),
            None => {
                let dir = tempfile::Builder::new()
                    .prefix("arena-nobody-")
                    .tempdir_in(&base)
                    .map_err(|e| format!("cannot make a folder in {}: {e}", base.display()))?;
                set_mode(dir.path(), 0o755)?;
                return Ok(dir);
            }
        }
    }
    Err(format!("no temporary folder is open to other users ({})", refusals.join(", ")))
}

pub fn set_mode(path: &Path, mode: u32) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|e| format!("cannot set the mode of {}: {e}", path.display()))
}
