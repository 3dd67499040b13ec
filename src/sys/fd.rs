//! File descriptors: an owning handle and the few raw operations the rest of the program needs,
//! each returning `io::Result` with errno translated. Every descriptor is created close-on-exec.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// Turns a libc return value into `io::Result`.
pub fn cvt(ret: libc::c_int) -> io::Result<libc::c_int> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

fn cvt_size(ret: libc::ssize_t) -> io::Result<usize> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret as usize)
    }
}

/// Reads what is available (a non-blocking descriptor returns `WouldBlock` when nothing is).
pub fn read(fd: RawFd, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        // SAFETY: buf is valid for writes of buf.len() bytes.
        let r = cvt_size(unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) });
        match r {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            r => return r,
        }
    }
}

/// Writes what the descriptor accepts without blocking (possibly less than `data`).
pub fn write(fd: RawFd, data: &[u8]) -> io::Result<usize> {
    loop {
        // SAFETY: data is valid for reads of data.len() bytes. MSG_NOSIGNAL is not available for
        // write(), so SIGPIPE is ignored process-wide by the server.
        let r = cvt_size(unsafe { libc::write(fd, data.as_ptr().cast(), data.len()) });
        match r {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            r => return r,
        }
    }
}

/// Writes all of `data`, waiting as needed (for blocking descriptors: client sockets, stdout).
pub fn write_all(fd: RawFd, mut data: &[u8]) -> io::Result<()> {
    while !data.is_empty() {
        match write(fd, data) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => data = &data[n..],
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => wait_writable(fd)?,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

fn wait_writable(fd: RawFd) -> io::Result<()> {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: p is one valid pollfd.
    cvt(unsafe { libc::poll(&mut p, 1, -1) }).map(|_| ())
}

pub fn set_nonblocking(fd: RawFd, on: bool) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own.
    let flags = cvt(unsafe { libc::fcntl(fd, libc::F_GETFL) })?;
    let flags = if on {
        flags | libc::O_NONBLOCK
    } else {
        flags & !libc::O_NONBLOCK
    };
    // SAFETY: as above.
    cvt(unsafe { libc::fcntl(fd, libc::F_SETFL, flags) }).map(|_| ())
}

/// Closes every descriptor from 3 up but those in `keep`: a daemon keeps none of what its
/// starter happened to leave open without close-on-exec (a harness's pipe held open by the
/// server would never see its end), as tmux's server closes them.
pub fn close_inherited(keep: &[RawFd]) {
    let mut keep: Vec<u32> = keep
        .iter()
        .filter_map(|&fd| u32::try_from(fd).ok())
        .collect();
    keep.sort_unstable();
    let mut from = 3u32;
    for fd in keep.into_iter().filter(|&fd| fd >= 3) {
        if fd > from {
            // SAFETY: close_range takes plain integers; it closes descriptors nothing owns yet.
            unsafe { libc::syscall(libc::SYS_close_range, from, fd - 1, 0u32) };
        }
        from = from.max(fd + 1);
    }
    // SAFETY: as above.
    unsafe { libc::syscall(libc::SYS_close_range, from, u32::MAX, 0u32) };
}

/// Takes ownership of a descriptor handed over across exec (by number, in the environment):
/// marks it close-on-exec again, so the programs this process starts do not inherit it.
/// Fails if no descriptor has that number.
pub fn adopt_handed(fd: RawFd) -> io::Result<OwnedFd> {
    // SAFETY: fcntl reads and sets a flag of any descriptor number; a bad one fails.
    let flags = cvt(unsafe { libc::fcntl(fd, libc::F_GETFD) })?;
    // SAFETY: as above.
    cvt(unsafe { libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC) })?;
    // SAFETY: the descriptor exists and was handed to this process to own.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Bytes waiting to be read on a socket or pipe.
pub fn readable_bytes(fd: RawFd) -> usize {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int.
    if unsafe { libc::ioctl(fd, libc::FIONREAD, &mut n) } < 0 {
        0
    } else {
        n as usize
    }
}

/// Bytes this end has sent on a unix socket that the peer has not read yet.
pub fn unread_by_peer(fd: RawFd) -> usize {
    let mut n: libc::c_int = 0;
    // SAFETY: SIOCOUTQ (TIOCOUTQ) writes one int.
    if unsafe { libc::ioctl(fd, libc::TIOCOUTQ, &mut n) } < 0 {
        0
    } else {
        n as usize
    }
}

/// Wraps a raw descriptor returned by a successful libc call.
///
/// # Safety
/// `fd` must be an open descriptor that nothing else owns.
pub unsafe fn owned(fd: RawFd) -> OwnedFd {
    // SAFETY: guaranteed by the caller.
    unsafe { OwnedFd::from_raw_fd(fd) }
}

/// The (device, inode) identity of an open descriptor.
pub fn identity(fd: &impl AsRawFd) -> io::Result<(u64, u64)> {
    // SAFETY: stat is plain data, filled by fstat.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: st is valid for writes.
    cvt(unsafe { libc::fstat(fd.as_raw_fd(), &mut st) })?;
    Ok((st.st_dev, st.st_ino))
}

/// Duplicates `fd` onto `target` (clearing close-on-exec on the new descriptor).
pub fn dup_onto(fd: RawFd, target: RawFd) -> io::Result<()> {
    // SAFETY: dup2 on valid descriptors.
    cvt(unsafe { libc::dup2(fd, target) }).map(|_| ())
}
