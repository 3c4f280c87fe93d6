//! A pids cgroup per worker: caps the processes and threads it may have,
//! which RLIMIT_NPROC cannot do for root. Cgroup v1's `pids` hierarchy or a
//! cgroup v2 subtree that has the pids controller, whichever this machine
//! mounts where the arena may write.

use std::{
    fs,
    io::ErrorKind,
    path::{Path, PathBuf},
};

/// The folder under which this process may make pids cgroups, if any.
pub fn parent() -> Option<PathBuf> {
    let mounts = fs::read_to_string("/proc/self/mountinfo").ok()?;
    let own = fs::read_to_string("/proc/self/cgroup").ok()?;
    // cgroup v1: a hierarchy with the pids controller.
    for line in mounts.lines() {
        let (fields, rest) = line.split_once(" - ")?;
        let mut rest = rest.split_whitespace();
        let (fstype, options) = (rest.next()?, rest.nth(1).unwrap_or(""));
        let point = fields.split_whitespace().nth(4)?;
        if fstype == "cgroup" && options.split(',').any(|o| o == "pids") {
            let path = own.lines().find_map(|l| {
                let mut parts = l.splitn(3, ':');
                let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
                controllers.split(',').any(|c| c == "pids").then(|| path.to_string())
            })?;
            return writable(Path::new(point).join(path.trim_start_matches('/')));
        }
    }
    // cgroup v2: our own cgroup, if it hands the pids controller down.
    let point = mounts.lines().find_map(|line| {
        let (fields, rest) = line.split_once(" - ")?;
        (rest.split_whitespace().next()? == "cgroup2")
            .then(|| fields.split_whitespace().nth(4).map(PathBuf::from))?
    })?;
    let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = point.join(path.trim_start_matches('/'));
    let control = fs::read_to_string(dir.join("cgroup.subtree_control")).ok()?;
    control.split_whitespace().any(|c| c == "pids").then_some(dir).and_then(writable)
}

fn writable(dir: PathBuf) -> Option<PathBuf> {
    let c = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()).ok()?;
    // SAFETY: access(2) on a valid C string.
    (unsafe { libc::access(c.as_ptr(), libc::W_OK) } == 0).then_some(dir)
}

/// Makes cgroup `name` under `parent` with at most `max` processes.
pub fn create(parent: &Path, name: &str, max: u64) -> Result<PathBuf, String> {
    let dir = parent.join(name);
    match fs::create_dir(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot make the pids cgroup {}: {e}", dir.display())),
    }
    fs::write(dir.join("pids.max"), max.to_string())
        .map_err(|e| format!("cannot cap the processes of the cgroup {}: {e}", dir.display()))?;
    Ok(dir)
}

/// Moves the calling process into cgroup `dir` (its children follow).
pub fn join(dir: &Path) -> Result<(), String> {
    fs::write(dir.join("cgroup.procs"), "0")
        .map_err(|e| format!("cannot join the cgroup {}: {e}", dir.display()))
}

/// Removes an empty cgroup; false while processes remain in it.
pub fn remove(dir: &Path) -> bool {
    match fs::remove_dir(dir) {
        Ok(()) => true,
        Err(e) => e.kind() == ErrorKind::NotFound,
    }
}

/// Its process cap, as the kernel keeps it.
pub fn max(dir: &Path) -> Option<u64> {
    fs::read_to_string(dir.join("pids.max")).ok()?.trim().parse().ok()
}
