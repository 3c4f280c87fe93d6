//! The sandbox every worker runs in (docs/security.md): its own network,
//! PID and IPC namespaces (and a user namespace when the arena is not
//! root), a pids cgroup that caps its processes, Landlock rules that let it
//! read only its own files and the system's libraries and write only a
//! scratch folder, no capabilities, and a seccomp filter that answers EPERM
//! to the calls no player needs.
//!
//! The host side (`host.rs`) prepares a worker's scratch folder and cgroup
//! and hands the worker a [`Spec`]; the worker side (`enter.rs`) applies it
//! in the worker process itself, before it loads a player or runs a
//! program, so no daemon or container runtime is involved.
//!
//! The sandbox knows no game. With `--sandbox on` (the default), a machine
//! that cannot sandbox refuses to start workers ([`require`]) rather than
//! run them unconfined.

mod cgroup;
mod enter;
mod filesystem;
mod host;
mod syscalls;

use std::{path::PathBuf, sync::OnceLock};

use serde::{Deserialize, Serialize};

pub use enter::{enter, main, Applied, SANDBOX_ARG};
pub use host::{cleanup, Confinement, Scratch};

/// Whether workers run sandboxed (`--sandbox on|off`, the tournament file's
/// `sandbox` key).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Sandbox {
    #[default]
    On,
    Off,
}

/// What one worker's sandbox allows: handed from the host to the worker.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Spec {
    /// Files and folders the player may read and execute (its library or
    /// folder, an interpreter's installation), besides the system's.
    pub read: Vec<PathBuf>,
    /// The one folder it may write: fresh for each worker, removed after.
    pub scratch: PathBuf,
    /// Where it starts (default: the scratch folder).
    pub dir: Option<PathBuf>,
    /// The pids cgroup it joins, which caps its processes and threads.
    pub cgroup: Option<PathBuf>,
}

impl Spec {
    /// The spec as one command-line argument.
    pub fn to_arg(&self) -> String {
        serde_json::to_string(self).expect("a spec is plain data")
    }

    pub fn from_arg(arg: &str) -> Result<Spec, String> {
        serde_json::from_str(arg).map_err(|e| format!("a malformed sandbox spec: {e}"))
    }
}

/// Whether the sandbox works here, and what it applies: found once per
/// process by entering it for real (`arena __sandbox SPEC --report`).
pub fn support(program: &std::path::Path) -> &'static Result<Applied, String> {
    static SUPPORT: OnceLock<Result<Applied, String>> = OnceLock::new();
    SUPPORT.get_or_init(|| host::probe(program))
}

/// The sandbox's one-line refusal when it cannot be had here, or Ok.
pub fn require(program: &std::path::Path) -> Result<(), String> {
    support(program).as_ref().map(|_| ()).map_err(|why| {
        format!("cannot sandbox players here: {why}; run with --sandbox off (players then run unconfined: trusted code only)")
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use clap::ValueEnum;

    use super::{Sandbox, Spec};

    #[test]
    fn a_spec_crosses_the_command_line_unchanged() {
        let spec = Spec {
            read: vec![PathBuf::from("/opt/player lib/libp.so"), PathBuf::from("/usr/lib/python3")],
            scratch: PathBuf::from("/tmp/arena-scratch-0/1-2"),
            dir: None,
            cgroup: Some(PathBuf::from("/sys/fs/cgroup/pids/arena-1-2")),
        };
        assert_eq!(Spec::from_arg(&spec.to_arg()), Ok(spec));
        let why = Spec::from_arg("{not json").unwrap_err();
        assert!(why.starts_with("a malformed sandbox spec: "), "{why}");
    }

    /// `--sandbox on|off` and the tournament file's `sandbox = "on"` spell
    /// the two settings alike.
    #[test]
    fn the_flag_and_the_file_name_the_settings_alike() {
        for setting in Sandbox::value_variants() {
            let flag = setting.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(serde_json::to_string(setting).unwrap(), format!("\"{flag}\""));
        }
        assert_eq!(Sandbox::default(), Sandbox::On);
    }
}
