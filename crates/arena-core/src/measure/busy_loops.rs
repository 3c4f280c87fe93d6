//! Busy loops (`sh` spinning) at the caller's priority: the load of a
//! shared machine, for `arena measure server --busy-loops` and the tests
//! whose verdicts must not depend on the machine's load.

/// Busy loops, on one core or any, killed when dropped.
pub struct BusyLoops(Vec<std::process::Child>);

impl BusyLoops {
    /// `n` loops, each on `core` if given (else wherever the scheduler puts it).
    pub fn start(n: usize, core: Option<usize>) -> BusyLoops {
        use std::os::unix::process::CommandExt;
        let children = (0..n)
            .map(|_| {
                let mut command = std::process::Command::new("sh");
                command.args(["-c", "while :; do :; done"]);
                if let Some(core) = core {
                    // SAFETY: one async-signal-safe syscall between fork and exec.
                    unsafe {
                        command.pre_exec(move || {
                            let mut set: libc::cpu_set_t = std::mem::zeroed();
                            libc::CPU_SET(core, &mut set);
                            if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                                return Err(std::io::Error::last_os_error());
                            }
                            Ok(())
                        });
                    }
                }
                command.spawn().expect("sh starts")
            })
            .collect();
        BusyLoops(children)
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
