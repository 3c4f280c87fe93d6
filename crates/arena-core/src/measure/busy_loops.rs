//! Busy loops (`sh` spinning) at the caller's priority: the load of a
//! shared machine, for `arena measure server --busy-loops` and the tests
//! whose verdicts must not depend on the machine's load.

/// Busy loops, on one core or any, killed when dropped.
pub struct BusyLoops(Vec<std::process::Child>);

impl BusyLoops {
    /// `n` loops, each on `core` if given (else wherever the scheduler puts it).
    pub fn start(n: usize, core: Option<usize>) -> BusyLoops {
        Self::spawn(n, core, None).expect("sh starts")
    }

    /// `n` loops at nice value `nice` (an ordinary user's program at 0,
    /// whatever the caller's own): an error if this process may not give
    /// it (a niced process that is not root may not lower it).
    pub fn at_nice(n: usize, nice: i32) -> std::io::Result<BusyLoops> {
        Self::spawn(n, None, Some(nice))
    }

    fn spawn(n: usize, core: Option<usize>, nice: Option<i32>) -> std::io::Result<BusyLoops> {
        use std::os::unix::process::CommandExt;
        let mut loops = BusyLoops(Vec::new());
        for _ in 0..n {
            let mut command = std::process::Command::new("sh");
            command.args(["-c", "while :; do :; done"]);
            // SAFETY: async-signal-safe syscalls only, between fork and exec.
            unsafe {
                command.pre_exec(move || {
                    if let Some(core) = core {
                        let mut set: libc::cpu_set_t = std::mem::zeroed();
                        libc::CPU_SET(core, &mut set);
                        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                            return Err(std::io::Error::last_os_error());
                        }
                    }
                    if let Some(nice) = nice {
                        if libc::setpriority(libc::PRIO_PROCESS, 0, nice) != 0 {
                            return Err(std::io::Error::last_os_error());
                        }
                    }
                    Ok(())
                });
            }
            // Those started so far are killed if one fails (dropped).
            loops.0.push(command.spawn()?);
        }
        Ok(loops)
    }
}

impl Drop for BusyLoops {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
