//! Starting a child cheaply from a server that holds thousands of descriptors and tens of MB:
//! what `super::process` starts runs through [`start_child`].
//!
//! A fork costs in proportion to the parent: it copies the page tables (and the parent then
//! takes a copy-on-write fault for every page it writes) and the descriptor table, whose
//! copy the program keeps for its whole life (beside 3,000 sessions, a new session's `sleep`
//! held a table for 4,096 descriptors, 32 KiB of kernel memory, for its three) and whose
//! descriptors exec must then close one by one. Here the child shares the server's memory
//! and descriptor table (CLONE_VM | CLONE_FILES | CLONE_VFORK; glibc's posix_spawn shares
//! the memory) while the server waits for its exec, and the first thing it does to
//! descriptors is take a private table that holds only the lowest few ([`LowFds`]): the one
//! descriptor it is handed (its terminal, or a pipe command's socket) was put there for it,
//! beside /dev/null.
//!
//! Invariants: the child changes no descriptor before it has its own table, so the server's
//! are never touched; every signal is blocked from before the child starts until it has reset
//! their actions, so no handler of the server runs on the server's memory in the child; the
//! handed slot holds /dev/null again when [`start_child`] returns, so the server keeps no
//! extra reference to the child's descriptor.

use super::fd::{cvt, owned};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::Mutex;

/// Where a child finds its descriptors before it execs: both low-numbered.
#[derive(Clone, Copy)]
pub struct LowFds {
    /// /dev/null.
    pub null: RawFd,
    /// The descriptor handed to the child (/dev/null when none is).
    pub handed: RawFd,
}

/// /dev/null and the handed slot, opened when the first child starts (the server then holds a
/// handful of descriptors, so their numbers are low) and kept for the process's life. The
/// lock keeps two threads from handing descriptors through the slot at once.
static LOW_FDS: Mutex<Option<(OwnedFd, OwnedFd)>> = Mutex::new(None);

/// What a child's own stack holds: the child's code and the libc calls it makes need a few
/// KiB.
const CHILD_STACK: usize = 64 * 1024;

fn open_null() -> io::Result<OwnedFd> {
    // SAFETY: open with a constant path.
    let fd = cvt(unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) })?;
    // SAFETY: fd is new and ours.
    Ok(unsafe { owned(fd) })
}

/// The numbers of /dev/null and the handed slot, opening them the first time.
fn low_fds(opened: &mut Option<(OwnedFd, OwnedFd)>) -> io::Result<LowFds> {
    if opened.is_none() {
        let null = open_null()?;
        *opened = Some((null, open_null()?));
    }
    let (null, slot) = opened
        .as_ref()
        .map_or((-1, -1), |(n, s)| (n.as_raw_fd(), s.as_raw_fd()));
    Ok(LowFds { null, handed: slot })
}

/// Puts `from` at descriptor number `to` (close-on-exec).
fn place(from: RawFd, to: RawFd) -> io::Result<()> {
    // SAFETY: dup3 takes plain descriptors; `to` is ours.
    cvt(unsafe { libc::dup3(from, to, libc::O_CLOEXEC) }).map(drop)
}

/// Starts a process that runs `f` (which must exec or `_exit`, and must call
/// [`own_descriptors`] before it changes any descriptor) with `handed` at `LowFds::handed`.
/// Returns its pid once it has exec'd or exited.
///
/// With 3,000 sessions held, the next 1,000 cost the server 780 ms of CPU with fork and
/// 270 ms with the memory shared, 1.7 s against 1.3 s in all (three runs each); sharing the
/// descriptor table as well leaves each program a table of 64 descriptors where it had one
/// of 4,096.
pub fn start_child<F: FnMut(LowFds)>(handed: Option<RawFd>, mut f: F) -> io::Result<i32> {
    let mut guard = LOW_FDS.lock().unwrap_or_else(|e| e.into_inner());
    let low = low_fds(&mut guard)?;
    place(handed.unwrap_or(low.null), low.handed)?;
    let pid = clone_waiting(move || f(low));
    // Let go of the handed descriptor: the child has its own reference now.
    let _ = place(low.null, low.handed);
    pid
}

/// Runs `f` in a new process sharing our memory and descriptor table, on a stack of its own;
/// returns once it has exec'd or exited.
fn clone_waiting<F: FnMut()>(mut f: F) -> io::Result<i32> {
    extern "C" fn trampoline<F: FnMut()>(arg: *mut libc::c_void) -> libc::c_int {
        // SAFETY: arg is the `f` of `clone_waiting`, alive while its caller waits for us.
        unsafe { (*arg.cast::<F>())() };
        // SAFETY: leaving without running anything of the parent's.
        unsafe { libc::_exit(127) }
    }
    let mut stack = vec![0u8; CHILD_STACK];
    let top = stack.as_mut_ptr().wrapping_add(CHILD_STACK);
    let top = top.wrapping_sub(top as usize % 16).cast();
    // SAFETY: sigset_t is plain data that sigfillset initialises.
    let mut all: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: as above; pthread_sigmask fills it.
    let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: changes only this thread's mask, restored below.
    unsafe {
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
    }
    // SAFETY: clone returns only once the child has exec'd or exited (CLONE_VFORK), so until
    // then the child alone uses its stack and `f`, both of which outlive that.
    let pid = unsafe {
        libc::clone(
            trampoline::<F>,
            top,
            libc::CLONE_VM | libc::CLONE_FILES | libc::CLONE_VFORK | libc::SIGCHLD,
            (&mut f as *mut F).cast(),
        )
    };
    let error = io::Error::last_os_error();
    // SAFETY: restores the mask saved above.
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut()) };
    drop(stack);
    if pid < 0 {
        return Err(error);
    }
    Ok(pid)
}

/// In a new child: takes a descriptor table of its own holding only the descriptors up to
/// `low`'s (the server's first few, /dev/null and the handed one). A child that cannot would
/// change the server's descriptors with its next call, so it exits instead.
///
/// # Safety
/// Only in a child of [`start_child`]; async-signal-safe.
pub unsafe fn own_descriptors(low: LowFds) {
    let keep_below = low.null.max(low.handed) as u32 + 1;
    // SAFETY: close_range takes plain integers; with CLOSE_RANGE_UNSHARE it first copies the
    // shared table, leaving out the range it closes.
    unsafe {
        if libc::syscall(
            libc::SYS_close_range,
            keep_below,
            u32::MAX,
            libc::CLOSE_RANGE_UNSHARE,
        ) != 0
        {
            libc::_exit(127);
        }
    }
}

/// In a new child with its own table: closes every descriptor from 3 up (a few, see
/// [`own_descriptors`]).
///
/// # Safety
/// Async-signal-safe: one system call.
pub unsafe fn close_from_3() {
    // SAFETY: close_range takes plain integers.
    unsafe { libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, 0u32) };
}

/// In a new child: every action the default, then no signal blocked (the server blocks
/// SIGCHLD, and [`start_child`] all of them), as a program expects to start. Actions first, so
/// no handler of the server runs in the child.
///
/// # Safety
/// Async-signal-safe calls only.
pub unsafe fn reset_signals() {
    // SAFETY: set is plain data initialised by sigemptyset; the calls change only this
    // process (its signal actions are its own: the child does not share them).
    unsafe {
        for sig in 1..32 {
            if sig != libc::SIGKILL && sig != libc::SIGSTOP {
                libc::signal(sig, libc::SIG_DFL);
            }
        }
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child started beside many descriptors holds a small table with only what it was
    /// handed, and the server's descriptors are as they were.
    #[test]
    fn a_child_gets_a_small_table_and_the_server_keeps_its_own() {
        // As in the server, the low descriptors are opened before the many.
        low_fds(&mut LOW_FDS.lock().unwrap()).unwrap();
        let many: Vec<OwnedFd> = (0..300).map(|_| open_null().unwrap()).collect();
        let (ours, theirs) = crate::sys::socket::socketpair().unwrap();
        let highest = many.last().unwrap().as_raw_fd();
        let script = c"grep FDSize /proc/self/status; ls /proc/self/fd";
        let pid = start_child(Some(theirs.as_raw_fd()), |low| {
            // SAFETY: async-signal-safe calls, on memory prepared before.
            unsafe {
                own_descriptors(low);
                reset_signals();
                libc::dup2(low.handed, 1);
                close_from_3();
                let argv = [
                    c"sh".as_ptr(),
                    c"-c".as_ptr(),
                    script.as_ptr(),
                    std::ptr::null(),
                ];
                let envp = [std::ptr::null()];
                libc::execve(c"/bin/sh".as_ptr(), argv.as_ptr(), envp.as_ptr());
                libc::_exit(1)
            }
        })
        .unwrap();
        drop(theirs);
        assert!(pid > 0);
        // The output ends when the child does (it is not waited for: the test of
        // `super::children` collects every child of the test process).
        let mut out = String::new();
        std::io::Read::read_to_string(&mut std::fs::File::from(ours), &mut out).unwrap();
        // The default table holds 64: nothing was copied for the 300 descriptors.
        assert!(out.starts_with("FDSize:\t64\n"), "{out}");
        let fds: Vec<&str> = out.lines().skip(1).collect();
        // 0 to 2, and the one `ls` opens to read the directory.
        assert_eq!(fds, ["0", "1", "2", "3"], "{out}");
        // SAFETY: F_GETFD only reads descriptor flags.
        assert!(unsafe { libc::fcntl(highest, libc::F_GETFD) } >= 0);
        drop(many);
    }
}
