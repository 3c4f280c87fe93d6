//! An autograder that grades with the sandbox off (`--sandbox off`, where
//! Gradescope's container cannot make user namespaces): everything there
//! runs as root, so the player runs as an unprivileged user instead
//! (`arena_core::players::isolation::run_as`), and what it must not touch
//! is checked to be root's alone before any of it runs: the secret (else
//! it reads the seeds) and the results' folder (else it writes its own
//! grade). docs/gradescope.md, "The sandbox".

use std::{
    os::unix::fs::{DirBuilderExt, MetadataExt},
    path::Path,
};

use anyhow::{bail, Context, Result};
use arena_core::players::isolation::run_as::PlayerUser;

/// The user the player will run as, once the secret (if any) and the
/// folder of `results` are seen to be this user's (root's) alone; the
/// folder is made so if missing. Otherwise one line naming the file and
/// the fix: nothing is graded.
pub fn player_user(secret: Option<&Path>, results: &Path) -> Result<PlayerUser> {
    let user = PlayerUser::find().map_err(anyhow::Error::msg)?;
    let folder = results.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    let private = [(folder, "the results' folder", "write its own results.json", "chmod 700")];
    let secret = secret.map(|s| (s, "the secret", "read the grading seeds", "chmod 600"));
    for (path, what, could, fix) in private.into_iter().chain(secret) {
        let meta = std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
        // SAFETY: plain syscall.
        let me = unsafe { libc::geteuid() };
        if meta.uid() != me || meta.mode() & 0o077 != 0 {
            bail!(
                "{what} {} is open to other users (owner {}, mode {:o}): the player, run as `{}`, could \
                 {could}: {fix} it, owned by root (run_autograder does)",
                path.display(),
                meta.uid(),
                meta.mode() & 0o7777,
                user.name
            );
        }
    }
    Ok(user)
}
