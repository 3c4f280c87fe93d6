//! Landlock: what a sandboxed worker may open. Reading (and executing)
//! the system's programs and libraries, its own files and an interpreter's
//! installation; writing one scratch folder; no TCP bind or connect; no
//! signals or abstract sockets outside its own domain.

use landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, CompatLevel, Compatible, RestrictionStatus, Ruleset,
    RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope, ABI,
};

use super::Spec;

/// The newest Landlock ABI whose rights the arena asks for (and is tested
/// with); older kernels enforce what they know (best effort), a kernel
/// without Landlock is refused.
const ABI_ASKED: ABI = ABI::V6;

/// What every program needs to start: the loader, shared libraries, the
/// system's interpreters and tools. Missing ones are skipped.
const SYSTEM: &[&str] = &[
    "/usr",
    "/lib",
    "/lib64",
    "/lib32",
    "/bin",
    "/sbin",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/sys/devices/system/cpu",
    "/dev/urandom",
    "/dev/random",
    "/dev/zero",
    // The worker's own /proc entry (resolved now, to this process).
    "/proc/self",
];

/// Applies the rules to the calling process (and so to every program it
/// runs). Returns the Landlock ABI the kernel has.
pub fn restrict(spec: &Spec) -> Result<i32, String> {
    let failed = |e: landlock::RulesetError| format!("cannot set up Landlock: {e}");
    let read = AccessFs::from_read(ABI_ASKED);
    // Everything in the scratch folder but device nodes.
    let scratch = AccessFs::from_all(ABI_ASKED) & !(AccessFs::MakeChar | AccessFs::MakeBlock);
    let status: RestrictionStatus = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(ABI_ASKED))
        .and_then(|r| r.handle_access(AccessNet::from_all(ABI_ASKED)))
        .and_then(|r| r.scope(Scope::from_all(ABI_ASKED)))
        .and_then(|r| r.create())
        .and_then(|r| r.add_rules(path_beneath_rules(SYSTEM, read)))
        .and_then(|r| r.add_rules(path_beneath_rules(&spec.read, read)))
        .and_then(|r| {
            r.add_rules(path_beneath_rules(["/dev/null"], AccessFs::ReadFile | AccessFs::WriteFile))
        })
        .and_then(|r| r.add_rules(path_beneath_rules([&spec.scratch], scratch)))
        .and_then(|r| r.restrict_self())
        .map_err(failed)?;
    if status.ruleset == RulesetStatus::NotEnforced {
        return Err("this kernel has no Landlock (Linux 5.13+ with lsm=landlock)".into());
    }
    Ok(kernel_abi())
}

/// The Landlock ABI version of the running kernel (0: none).
pub fn kernel_abi() -> i32 {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: the documented version query: no ruleset, size 0, the flag.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    v.max(0) as i32
}
