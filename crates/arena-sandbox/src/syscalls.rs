//! The seccomp filter: system calls no player needs answer EPERM (not a
//! kill, so the player sees an error it can report); `clone3`, whose flags
//! a filter cannot read, answers ENOSYS so that libc falls back to `clone`,
//! whose namespace flags the filter does read.

use std::collections::BTreeMap;

use seccompiler::{
    apply_filter, BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The calls denied outright: debugging other processes, mounting and
/// namespaces, kernel modules and kexec, eBPF, perf, keyrings, the clock,
/// swap and the like, io_uring (which would bypass this filter), and its
/// own scheduling (cores, policy, priority): a player keeps the cores and
/// priority its game was given, and cannot make itself wait for a core to
/// pass its waiting off as the machine's (the arena's `clock::machine_wait`).
const DENIED: &[libc::c_long] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_kcmp,
    libc::SYS_pidfd_getfd,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_reboot,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_syslog,
    libc::SYS_acct,
    libc::SYS_quotactl,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_clock_adjtime,
    libc::SYS_adjtimex,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    libc::SYS_fanotify_init,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_vhangup,
    libc::SYS_sethostname,
    libc::SYS_setdomainname,
    libc::SYS_sched_setaffinity,
    libc::SYS_sched_setscheduler,
    libc::SYS_sched_setparam,
    libc::SYS_sched_setattr,
    libc::SYS_setpriority,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_iopl,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_ioperm,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_modify_ldt,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_uselib,
];

/// `clone` flags that make a namespace.
const NAMESPACE_FLAGS: &[libc::c_int] = &[
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWNS,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWNET,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWCGROUP,
];

#[cfg(target_arch = "x86_64")]
const ARCH: TargetArch = TargetArch::x86_64;
#[cfg(target_arch = "aarch64")]
const ARCH: TargetArch = TargetArch::aarch64;

/// How many calls the filter denies (for `arena check`).
pub fn denied_count() -> usize {
    DENIED.len() + 2
}

/// Installs the filter on the calling thread (inherited by its children
/// and kept across exec). Needs no_new_privs.
pub fn install() -> Result<(), String> {
    let failed = |e: seccompiler::BackendError| format!("cannot build the seccomp filter: {e}");
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = DENIED.iter().map(|&call| (call, Vec::new())).collect();
    let namespace_rules = NAMESPACE_FLAGS
        .iter()
        .map(|&flag| {
            let flag = flag as u64;
            let condition =
                SeccompCondition::new(0, SeccompCmpArgLen::Qword, SeccompCmpOp::MaskedEq(flag), flag)?;
            SeccompRule::new(vec![condition])
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(failed)?;
    rules.insert(libc::SYS_clone, namespace_rules);
    let denied =
        SeccompFilter::new(rules, SeccompAction::Allow, SeccompAction::Errno(libc::EPERM as u32), ARCH)
            .map_err(failed)?;
    let clone3 = SeccompFilter::new(
        BTreeMap::from([(libc::SYS_clone3, Vec::new())]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        ARCH,
    )
    .map_err(failed)?;
    for filter in [denied, clone3] {
        let program: BpfProgram = filter
            .try_into()
            .map_err(|e: seccompiler::BackendError| format!("cannot compile the seccomp filter: {e}"))?;
        apply_filter(&program).map_err(|e| format!("cannot install the seccomp filter: {e}"))?;
    }
    Ok(())
}
