//! The seccomp filters a sandboxed bot runs under, compiled to classic BPF by `seccompiler` (the
//! crate Firecracker's jailer uses) and handed to bubblewrap (`--add-seccomp-fd`), which loads
//! them just before it starts the bot (with `no_new_privs` set).
//!
//! What no bot needs is refused with `EPERM`: mounting and unmounting, new namespaces (`unshare`,
//! `setns`, `clone` with a namespace flag), `ptrace` and the other processes' memory, the kernel
//! keyrings, `bpf`, `perf_event_open`, `io_uring`, typing into a terminal (`ioctl` `TIOCSTI`,
//! `TIOCLINUX`), kernel modules, `reboot`, `kexec`, swap, `chroot`, the clocks. `clone3` answers
//! `ENOSYS`: its flags are behind a pointer a filter cannot read, and the C library then falls
//! back to `clone`, whose flags it can. Everything else is allowed: the caps, the missing
//! capabilities and the minimal file system do the rest.

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};
use std::collections::BTreeMap;

/// The system calls refused outright (`EPERM`).
pub(crate) const REFUSED: &[(&str, i64)] = &[
    ("mount", libc::SYS_mount),
    ("umount2", libc::SYS_umount2),
    ("pivot_root", libc::SYS_pivot_root),
    ("chroot", libc::SYS_chroot),
    ("fsopen", libc::SYS_fsopen),
    ("fsconfig", libc::SYS_fsconfig),
    ("fsmount", libc::SYS_fsmount),
    ("fspick", libc::SYS_fspick),
    ("move_mount", libc::SYS_move_mount),
    ("open_tree", libc::SYS_open_tree),
    ("mount_setattr", libc::SYS_mount_setattr),
    ("unshare", libc::SYS_unshare),
    ("setns", libc::SYS_setns),
    ("ptrace", libc::SYS_ptrace),
    ("process_vm_readv", libc::SYS_process_vm_readv),
    ("process_vm_writev", libc::SYS_process_vm_writev),
    ("kcmp", libc::SYS_kcmp),
    ("keyctl", libc::SYS_keyctl),
    ("add_key", libc::SYS_add_key),
    ("request_key", libc::SYS_request_key),
    ("bpf", libc::SYS_bpf),
    ("perf_event_open", libc::SYS_perf_event_open),
    ("userfaultfd", libc::SYS_userfaultfd),
    ("io_uring_setup", libc::SYS_io_uring_setup),
    ("io_uring_enter", libc::SYS_io_uring_enter),
    ("io_uring_register", libc::SYS_io_uring_register),
    ("init_module", libc::SYS_init_module),
    ("finit_module", libc::SYS_finit_module),
    ("delete_module", libc::SYS_delete_module),
    ("reboot", libc::SYS_reboot),
    ("kexec_load", libc::SYS_kexec_load),
    ("kexec_file_load", libc::SYS_kexec_file_load),
    ("swapon", libc::SYS_swapon),
    ("swapoff", libc::SYS_swapoff),
    ("acct", libc::SYS_acct),
    ("quotactl", libc::SYS_quotactl),
    ("syslog", libc::SYS_syslog),
    ("vhangup", libc::SYS_vhangup),
    ("open_by_handle_at", libc::SYS_open_by_handle_at),
    ("name_to_handle_at", libc::SYS_name_to_handle_at),
    ("settimeofday", libc::SYS_settimeofday),
    ("clock_settime", libc::SYS_clock_settime),
    ("clock_adjtime", libc::SYS_clock_adjtime),
    ("adjtimex", libc::SYS_adjtimex),
    ("fanotify_init", libc::SYS_fanotify_init),
    #[cfg(target_arch = "x86_64")]
    ("iopl", libc::SYS_iopl),
    #[cfg(target_arch = "x86_64")]
    ("ioperm", libc::SYS_ioperm),
];

/// The `clone` flags that make a new namespace.
const NAMESPACE_FLAGS: [u64; 8] = [
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWCGROUP as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
    0x80, // CLONE_NEWTIME
];

/// The terminal `ioctl`s refused: typing into a terminal, and the Linux console's own.
#[allow(clippy::unnecessary_cast)] // c_ulong here, c_int with musl
const IOCTLS: [u64; 2] = [libc::TIOCSTI as u64, libc::TIOCLINUX as u64];

fn arch() -> Result<TargetArch, String> {
    TargetArch::try_from(std::env::consts::ARCH)
        .map_err(|_| format!("no seccomp filter for {}", std::env::consts::ARCH))
}

fn compile(rules: BTreeMap<i64, Vec<SeccompRule>>, errno: i32) -> Result<Vec<u8>, String> {
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(errno as u32),
        arch()?,
    )
    .map_err(|e| format!("seccomp filter: {e}"))?;
    let program: BpfProgram = filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| format!("seccomp filter: {e}"))?;
    // The kernel's `struct sock_filter`, as bwrap reads it: u16 code, u8 jt, u8 jf, u32 k.
    let mut bytes = Vec::with_capacity(program.len() * 8);
    for insn in &program {
        bytes.extend_from_slice(&insn.code.to_ne_bytes());
        bytes.push(insn.jt);
        bytes.push(insn.jf);
        bytes.extend_from_slice(&insn.k.to_ne_bytes());
    }
    Ok(bytes)
}

fn rule(
    index: u8,
    len: SeccompCmpArgLen,
    op: SeccompCmpOp,
    value: u64,
) -> Result<SeccompRule, String> {
    SeccompCondition::new(index, len, op, value)
        .and_then(|c| SeccompRule::new(vec![c]))
        .map_err(|e| format!("seccomp rule: {e}"))
}

/// The filter that answers `EPERM`, as BPF bytes.
pub(crate) fn refusing() -> Result<Vec<u8>, String> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        REFUSED.iter().map(|&(_, nr)| (nr, Vec::new())).collect();
    let clone = NAMESPACE_FLAGS
        .iter()
        .map(|&f| rule(0, SeccompCmpArgLen::Qword, SeccompCmpOp::MaskedEq(f), f))
        .collect::<Result<Vec<_>, _>>()?;
    rules.insert(libc::SYS_clone, clone);
    let ioctl = IOCTLS
        .iter()
        .map(|&r| rule(1, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, r))
        .collect::<Result<Vec<_>, _>>()?;
    rules.insert(libc::SYS_ioctl, ioctl);
    compile(rules, libc::EPERM)
}

/// The filter that answers `ENOSYS` to `clone3`, as BPF bytes.
pub(crate) fn no_clone3() -> Result<Vec<u8>, String> {
    compile(
        BTreeMap::from([(libc::SYS_clone3, Vec::new())]),
        libc::ENOSYS,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filters_compile_to_whole_bpf_instructions() {
        let refusing = refusing().unwrap();
        let clone3 = no_clone3().unwrap();
        assert_eq!(refusing.len() % 8, 0);
        assert_eq!(clone3.len() % 8, 0);
        // One jump at least for each refused call, and the clone and ioctl rules besides.
        assert!(refusing.len() / 8 > REFUSED.len() + NAMESPACE_FLAGS.len() + IOCTLS.len());
        assert!(clone3.len() < refusing.len());
    }
}
