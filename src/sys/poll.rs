//! An epoll set: what the loop waits on (client sockets, the listener, process exits through
//! one signalfd, timers as the wait's timeout) and, in a set of their own watched from it,
//! session terminals (see `crate::server`). Level-triggered, so a descriptor whose events are
//! not handled in one turn is reported again in the next; session terminals and the set of
//! them are watched [`ONCE`] and renewed by their owner after each event.

use super::fd::cvt;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

pub const READABLE: u32 = libc::EPOLLIN as u32;
pub const WRITABLE: u32 = libc::EPOLLOUT as u32;
/// Reports one event, then watches nothing until the descriptor is modified again: a pane
/// whose output waits for the batch boundary costs no epoll_ctl to stop watching it (one
/// per agent frame, a tenth of the server's system calls under 400 agent replays).
pub const ONCE: u32 = libc::EPOLLONESHOT as u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub token: u64,
    pub readable: bool,
    pub writable: bool,
    /// The peer hung up or the descriptor is in error (reading will say which).
    pub hangup: bool,
}

pub struct Epoll {
    fd: OwnedFd,
}

/// Most events taken from the kernel in one wait; more stay queued for the next.
const MAX_EVENTS: usize = 256;

impl Epoll {
    pub fn new() -> io::Result<Epoll> {
        // SAFETY: plain syscall.
        let fd = cvt(unsafe { libc::epoll_create1(libc::EPOLL_CLOEXEC) })?;
        Ok(Epoll {
            // SAFETY: fd was just created and is owned here.
            fd: unsafe { super::fd::owned(fd) },
        })
    }

    /// The set's own descriptor: readable while any of its descriptors is ready, so one set
    /// can be watched from another.
    pub fn raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }

    fn ctl(&self, op: libc::c_int, fd: RawFd, token: u64, interest: u32) -> io::Result<()> {
        let mut ev = libc::epoll_event {
            events: interest | libc::EPOLLRDHUP as u32,
            u64: token,
        };
        // SAFETY: ev is a valid epoll_event.
        cvt(unsafe { libc::epoll_ctl(self.fd.as_raw_fd(), op, fd, &mut ev) }).map(|_| ())
    }

    pub fn add(&self, fd: RawFd, token: u64, interest: u32) -> io::Result<()> {
        self.ctl(libc::EPOLL_CTL_ADD, fd, token, interest)
    }

    pub fn modify(&self, fd: RawFd, token: u64, interest: u32) -> io::Result<()> {
        self.ctl(libc::EPOLL_CTL_MOD, fd, token, interest)
    }

    pub fn remove(&self, fd: RawFd) {
        // Removal of a descriptor that is about to be closed cannot usefully fail.
        let _ = self.ctl(libc::EPOLL_CTL_DEL, fd, 0, 0);
    }

    /// Waits up to `timeout_ms` (`None`: forever) and returns the ready descriptors.
    pub fn wait(&self, timeout_ms: Option<u64>) -> io::Result<Vec<Event>> {
        let timeout = timeout_ms.map_or(-1, |t| t.min(i32::MAX as u64) as libc::c_int);
        let mut events = [libc::epoll_event { events: 0, u64: 0 }; MAX_EVENTS];
        // SAFETY: the buffer holds MAX_EVENTS entries.
        let n = unsafe {
            libc::epoll_wait(
                self.fd.as_raw_fd(),
                events.as_mut_ptr(),
                MAX_EVENTS as libc::c_int,
                timeout,
            )
        };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                return Ok(Vec::new());
            }
            return Err(e);
        }
        let hup = (libc::EPOLLHUP | libc::EPOLLERR | libc::EPOLLRDHUP) as u32;
        Ok(events[..n as usize]
            .iter()
            .map(|e| {
                let bits = e.events;
                Event {
                    token: e.u64,
                    readable: bits & READABLE != 0,
                    writable: bits & WRITABLE != 0,
                    hangup: bits & hup != 0,
                }
            })
            .collect())
    }
}
