//! Exits of the server's children, learned from one signalfd for SIGCHLD instead of one pidfd
//! per child: with thousands of sessions, a descriptor per program would double what each
//! session costs against the open-file limit.
//!
//! [`Children::new`] blocks SIGCHLD in the calling thread and opens a signalfd that becomes
//! readable when a child ends; the host polls it. [`Children::collect`] then takes every ended
//! child with `waitpid(-1, WNOHANG)` in a loop (signals coalesce: one readable signalfd may
//! stand for many exits) and returns the ids of the watched ones. Children nobody watches
//! (`run-shell -b`) are collected and forgotten, so none stays a zombie.
//!
//! Invariants:
//! - A watched pid names its id until the pid is collected, then is forgotten at once: a pid
//!   the kernel hands to a later child is never taken for an earlier one.
//! - A status is kept only while its owner may still ask for it ([`Children::reap`]); a
//!   closed terminal's program stops keeping one ([`Children::closed`]).
//! - Waiting for one child directly (`waitpid(pid)`, as `run-shell` does for its command) still
//!   works: a blocked SIGCHLD stays pending for the signalfd and stops no wait.
//! - Every thread of the process must block SIGCHLD, or the kernel may deliver it to one that
//!   does not and discard it (its default action is to ignore it). The server runs one thread;
//!   threads started after [`Children::new`] by the same thread inherit the mask.

use super::fd::{self, cvt, owned};
use super::process;
use std::cell::RefCell;
use std::collections::HashMap;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

/// A watched child: the id its exit is reported as, and whether its status is kept for
/// [`Children::reap`].
#[derive(Clone, Copy)]
struct Watch {
    id: u64,
    keep_status: bool,
}

#[derive(Default)]
struct Table {
    watched: HashMap<i32, Watch>,
    /// Collected statuses that an owner will ask for, by pid.
    statuses: HashMap<i32, i32>,
}

pub struct Children {
    signals: OwnedFd,
    /// Shared between the host, which starts and closes programs, and the loop, which
    /// collects: both hold the `Children` through an `Rc`.
    table: RefCell<Table>,
}

impl Children {
    /// Blocks SIGCHLD in this thread and opens the signalfd that reports it.
    pub fn new() -> io::Result<Children> {
        // SAFETY: sigset_t is plain data; sigemptyset initialises it.
        let mut set: libc::sigset_t = unsafe { std::mem::zeroed() };
        // SAFETY: set is a valid sigset_t; the calls only write it and this thread's mask.
        unsafe {
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGCHLD);
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        }
        // SAFETY: set is initialised; -1 asks for a new descriptor.
        let fd = cvt(unsafe { libc::signalfd(-1, &set, libc::SFD_NONBLOCK | libc::SFD_CLOEXEC) })?;
        Ok(Children {
            // SAFETY: fd is new and ours.
            signals: unsafe { owned(fd) },
            table: RefCell::default(),
        })
    }

    /// The descriptor to poll for readability.
    pub fn raw_fd(&self) -> RawFd {
        self.signals.as_raw_fd()
    }

    /// Reports `pid`'s exit as `id`; its status is kept for [`Children::reap`] when
    /// `keep_status`.
    pub fn watch(&self, pid: i32, id: u64, keep_status: bool) {
        self.table
            .borrow_mut()
            .watched
            .insert(pid, Watch { id, keep_status });
    }

    /// Nobody will ask for `pid`'s status any more; its exit is still reported.
    pub fn closed(&self, pid: i32) {
        let mut t = self.table.borrow_mut();
        t.statuses.remove(&pid);
        if let Some(w) = t.watched.get_mut(&pid) {
            w.keep_status = false;
        }
    }

    /// Collects every child that has ended; returns the ids of the watched ones.
    pub fn collect(&self) -> Vec<u64> {
        // The signal is consumed before waiting, so a child that ends during the loop raises
        // it again rather than being missed until some later exit.
        let mut info = [0u8; std::mem::size_of::<libc::signalfd_siginfo>()];
        let _ = fd::read(self.signals.as_raw_fd(), &mut info);
        let mut ended = Vec::new();
        let mut t = self.table.borrow_mut();
        while let Some((pid, status)) = process::wait_any() {
            if let Some(w) = t.watched.remove(&pid) {
                if w.keep_status {
                    t.statuses.insert(pid, status);
                }
                ended.push(w.id);
            }
        }
        ended
    }

    /// `pid`'s wait status once it has ended (`None` while it runs). A child that has ended but
    /// is not collected yet (its SIGCHLD waits in the signalfd) is collected here.
    pub fn reap(&self, pid: i32) -> Option<i32> {
        let mut t = self.table.borrow_mut();
        if let Some(status) = t.statuses.remove(&pid) {
            return Some(status);
        }
        let status = process::try_wait(pid)?;
        t.watched.remove(&pid);
        Some(status)
    }

    /// How many children are watched and how many statuses wait (for tests).
    #[cfg(test)]
    fn counts(&self) -> (usize, usize) {
        let t = self.table.borrow();
        (t.watched.len(), t.statuses.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// A child that exits with `code` at once.
    fn exiting(code: i32) -> i32 {
        // SAFETY: the child only calls _exit.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0);
        if pid == 0 {
            // SAFETY: ends the forked child without running the parent's destructors.
            unsafe { libc::_exit(code) };
        }
        pid
    }

    fn collect_until(children: &Children, want: usize) -> Vec<u64> {
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut got = Vec::new();
        while got.len() < want && Instant::now() < deadline {
            got.extend(children.collect());
            std::thread::sleep(Duration::from_millis(5));
        }
        got
    }

    // The collection takes every child of the test process, so this is the only unit test
    // that waits for children (the others' are collected here, or never).
    #[test]
    fn exits_are_reported_by_id_and_statuses_kept_only_for_open_terminals() {
        let children = Children::new().unwrap();
        let (a, b, c) = (exiting(3), exiting(4), exiting(5));
        children.watch(a, 10, true);
        children.watch(b, 11, true);
        children.closed(b);
        children.watch(c, 12, false);
        let _untracked = exiting(6);
        let mut got = collect_until(&children, 3);
        got.sort_unstable();
        assert_eq!(got, [10, 11, 12]);
        assert_eq!(children.reap(a).map(|s| s >> 8), Some(3));
        // Closed and pipe programs were collected without keeping a status.
        assert_eq!(children.counts(), (0, 0));
        // A child collected before its signal is read is reaped directly and not reported.
        let d = exiting(7);
        children.watch(d, 13, true);
        let deadline = Instant::now() + Duration::from_secs(5);
        let status = loop {
            if let Some(s) = children.reap(d) {
                break s;
            }
            assert!(Instant::now() < deadline);
            std::thread::sleep(Duration::from_millis(5));
        };
        assert_eq!(status >> 8, 7);
        assert!(children.collect().is_empty());
        assert_eq!(children.counts(), (0, 0));
    }
}
