//! The arena's side: a fresh scratch folder for each worker and a pids
//! cgroup for each sandboxed one, removed when it is done; the probe that
//! finds out, once, whether the sandbox works here.

use std::{
    fs,
    os::unix::fs::DirBuilderExt,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::{
        atomic::{AtomicU64, Ordering},
        Mutex, Once,
    },
    time::Duration,
};

use super::{cgroup, Applied, Spec, SANDBOX_ARG};

/// Scratch folders made by this process, for unique names.
static NEXT: AtomicU64 = AtomicU64::new(0);
/// Cgroups whose processes had not all gone when their worker was dropped.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A worker's scratch folder: fresh, private to the arena's user, the one
/// folder a sandboxed worker may write, and every worker's HOME and TMPDIR;
/// dropping it removes it and all it holds.
#[derive(Debug)]
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    pub fn new() -> Result<Scratch, String> {
        sweep();
        let root = scratch_root();
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&root)
            .map_err(|e| format!("cannot make the scratch folder {}: {e}", root.display()))?;
        // This process's id (which `sweep` reads back), then a count.
        let path = root.join(format!("{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed)));
        fs::DirBuilder::new()
            .mode(0o700)
            .create(&path)
            .map_err(|e| format!("cannot make the scratch folder {}: {e}", path.display()))?;
        Ok(Scratch { path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Gives the folder to the user `uid` and group `gid`, for a worker
    /// that runs as them (unsandboxed, as an unprivileged user): the one
    /// folder it may write. The folder of all scratch folders becomes one
    /// it may pass through but not list, to reach its own.
    pub fn hand_to(&self, uid: u32, gid: u32) -> Result<(), String> {
        use std::os::unix::fs::PermissionsExt;
        let root = scratch_root();
        fs::set_permissions(&root, fs::Permissions::from_mode(0o711))
            .map_err(|e| format!("cannot open the scratch folder {} to workers: {e}", root.display()))?;
        std::os::unix::fs::chown(&self.path, Some(uid), Some(gid))
            .map_err(|e| format!("cannot give the scratch folder {} to user {uid}: {e}", self.path.display()))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

/// One worker's scratch folder and cgroup; dropping it removes both.
#[derive(Debug)]
pub struct Confinement {
    pub spec: Spec,
    /// Removed after the cgroup (fields drop in order, after `drop`).
    _scratch: Scratch,
}

impl Confinement {
    /// Prepares a sandbox that may read `read` and starts in `dir` (default:
    /// its scratch folder), with at most `processes` processes and threads.
    pub fn prepare(read: &[PathBuf], dir: Option<PathBuf>, processes: u64) -> Result<Confinement, String> {
        let scratch = Scratch::new()?;
        // Paths as the worker will open them, wherever it starts.
        let read = read.iter().filter_map(|p| p.canonicalize().ok()).collect();
        let spec = Spec { read, scratch: scratch.path.clone(), dir, cgroup: None };
        let mut confinement = Confinement { spec, _scratch: scratch };
        match cgroup::parent() {
            Some(parent) => {
                // Named as its scratch folder is.
                let name = format!("arena-{}", confinement.spec.scratch.file_name().unwrap_or_default().display());
                confinement.spec.cgroup = Some(cgroup::create(&parent, &name, processes)?)
            }
            // Root is exempt from RLIMIT_NPROC: without a cgroup nothing would cap a fork bomb.
            // SAFETY: plain syscall.
            None if unsafe { libc::geteuid() } == 0 => {
                return Err("running as root, the arena caps a worker's processes with a pids cgroup, and no pids cgroup is writable here (mount cgroup v1's pids hierarchy or delegate cgroup v2's pids controller), or run the arena as an unprivileged user".into())
            }
            None => {}
        }
        Ok(confinement)
    }
}

impl Drop for Confinement {
    fn drop(&mut self) {
        if let Some(cgroup) = self.spec.cgroup.take() {
            // The namespace's processes may take a moment to go.
            for _ in 0..20 {
                if cgroup::remove(&cgroup) {
                    return;
                }
                std::thread::sleep(Duration::from_micros(250));
            }
            PENDING.lock().unwrap_or_else(|e| e.into_inner()).push(cgroup);
        }
    }
}

/// Where scratch folders go: one folder per user under the temp folder.
fn scratch_root() -> PathBuf {
    // SAFETY: plain syscall.
    let uid = unsafe { libc::geteuid() };
    std::env::temp_dir().join(format!("arena-scratch-{uid}"))
}

/// Removes the cgroups left pending, and (once) what arenas that died left
/// behind: scratch folders and cgroups named after a process that is gone.
fn sweep() {
    PENDING.lock().unwrap_or_else(|e| e.into_inner()).retain(|cgroup| !cgroup::remove(cgroup));
    static STALE: Once = Once::new();
    STALE.call_once(|| {
        let dead = |name: &str| {
            let pid = name.trim_start_matches("arena-").split('-').next().and_then(|p| p.parse::<i32>().ok());
            // SAFETY: kill with signal 0 only checks that the process exists.
            pid.is_some_and(|pid| pid != std::process::id() as i32 && unsafe { libc::kill(pid, 0) } != 0)
        };
        let entries = |dir: &Path| fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path());
        for path in entries(&scratch_root()) {
            if path.file_name().and_then(|n| n.to_str()).is_some_and(dead) {
                let _ = fs::remove_dir_all(path);
            }
        }
        if let Some(parent) = cgroup::parent() {
            for path in entries(&parent) {
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
                if name.starts_with("arena-") && dead(name) {
                    cgroup::remove(&path);
                }
            }
        }
    });
}

/// Removes what workers left (their cgroups, once their last process is
/// gone): called when the arena is done.
pub fn cleanup() {
    for _ in 0..200 {
        sweep();
        if PENDING.lock().unwrap_or_else(|e| e.into_inner()).is_empty() {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Enters a sandbox for real and asks what it applied.
pub(super) fn probe(program: &Path) -> Result<Applied, String> {
    if program.as_os_str().is_empty() {
        return Err("the sandbox needs the arena program to start workers (set ARENA_BIN)".into());
    }
    let confinement = Confinement::prepare(&[], None, 64)?;
    let output = Command::new(program)
        .arg(SANDBOX_ARG)
        .arg(confinement.spec.to_arg())
        .arg("--report")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let said = String::from_utf8_lossy(&output.stderr);
    let why =
        said.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim_start_matches("arena sandbox: ");
    if !output.status.success() {
        return Err(if why.is_empty() {
            format!("the sandbox probe failed ({})", output.status)
        } else {
            why.to_string()
        });
    }
    serde_json::from_slice(&output.stdout).map_err(|e| format!("the sandbox probe answered garbage: {e}"))
}
