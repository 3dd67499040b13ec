//! How full a program's side of its terminal socket is, asked of the kernel (sock_diag).
//!
//! A program writing to a unix socket blocks when the memory its queued writes are charged
//! (their bytes plus each write's buffer overhead) reaches its send buffer. The reading side
//! sees only the bytes (FIONREAD), which cannot tell 278 five-byte writes that fill the socket
//! from one 1,390-byte write that does not; Linux also gives no low-water wakeup for unix
//! sockets. The kernel's socket diagnostics report the writer's own charge and limit
//! (`UDIAG_SHOW_MEMINFO`, what `ss -x -m` prints as `t` and `tb`), by socket inode, in one
//! netlink round trip, so the engine can ask at the moments it decides whether to put a read
//! off.
//!
//! Invariant: one netlink socket per server, close-on-exec; a failure (no unix_diag in the
//! kernel, a socket gone) answers `None` and the caller falls back on byte counts.

use super::fd::cvt;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

const SOCK_DIAG_BY_FAMILY: u16 = 20;
const NLM_F_REQUEST: u16 = 1;
const NLMSG_ERROR: u16 = 2;
const UDIAG_SHOW_MEMINFO: u32 = 0x20;
const UNIX_DIAG_MEMINFO: u16 = 5;
const SK_MEMINFO_WMEM_ALLOC: usize = 2;
const SK_MEMINFO_SNDBUF: usize = 3;
const NLMSG_HEADER: usize = 16;
const UNIX_DIAG_MSG: usize = 16;

pub struct SockDiag {
    fd: OwnedFd,
}

impl SockDiag {
    pub fn new() -> io::Result<SockDiag> {
        // SAFETY: plain socket creation.
        let fd = cvt(unsafe {
            libc::socket(
                libc::AF_NETLINK,
                libc::SOCK_DGRAM | libc::SOCK_CLOEXEC,
                libc::NETLINK_SOCK_DIAG,
            )
        })?;
        // SAFETY: fd is new and ours.
        Ok(SockDiag {
            fd: unsafe { OwnedFd::from_raw_fd(fd) },
        })
    }

    /// How much of its send buffer the unix socket with inode `ino` has queued, in percent.
    pub fn send_buffer_fill(&self, ino: u32) -> Option<u32> {
        let request = meminfo_request(ino);
        // SAFETY: request is valid for reads of its length.
        let sent = unsafe {
            libc::send(
                self.fd.as_raw_fd(),
                request.as_ptr().cast(),
                request.len(),
                0,
            )
        };
        if sent != request.len() as isize {
            return None;
        }
        let mut reply = [0u8; 512];
        // SAFETY: reply is valid for writes of its length.
        let got = unsafe {
            libc::recv(
                self.fd.as_raw_fd(),
                reply.as_mut_ptr().cast(),
                reply.len(),
                0,
            )
        };
        let reply = reply.get(..usize::try_from(got).ok()?)?;
        let [wmem, sndbuf] = meminfo(reply)?;
        (sndbuf > 0).then(|| (u64::from(wmem) * 100 / u64::from(sndbuf)) as u32)
    }
}

/// A netlink request for one unix socket's memory counters.
fn meminfo_request(ino: u32) -> [u8; NLMSG_HEADER + 24] {
    let mut m = [0u8; NLMSG_HEADER + 24];
    m[0..4].copy_from_slice(&((NLMSG_HEADER + 24) as u32).to_ne_bytes());
    m[4..6].copy_from_slice(&SOCK_DIAG_BY_FAMILY.to_ne_bytes());
    m[6..8].copy_from_slice(&NLM_F_REQUEST.to_ne_bytes());
    // unix_diag_req: family, protocol, pad, states, ino, show, cookie (none: all ones).
    m[16] = libc::AF_UNIX as u8;
    m[20..24].copy_from_slice(&u32::MAX.to_ne_bytes());
    m[24..28].copy_from_slice(&ino.to_ne_bytes());
    m[28..32].copy_from_slice(&UDIAG_SHOW_MEMINFO.to_ne_bytes());
    m[32..40].fill(0xff);
    m
}

/// The writer's charge and send buffer from a reply, if it carries them.
fn meminfo(reply: &[u8]) -> Option<[u32; 2]> {
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_ne_bytes(reply.get(at..at + 4)?.try_into().ok()?))
    };
    let half = |at: usize| -> Option<u16> {
        Some(u16::from_ne_bytes(reply.get(at..at + 2)?.try_into().ok()?))
    };
    if half(4)? == NLMSG_ERROR {
        return None;
    }
    let end = (word(0)? as usize).min(reply.len());
    let mut at = NLMSG_HEADER + UNIX_DIAG_MSG;
    while at + 4 <= end {
        let (len, kind) = (half(at)? as usize, half(at + 2)?);
        if len < 4 {
            return None;
        }
        if kind == UNIX_DIAG_MEMINFO {
            let value = |i: usize| word(at + 4 + 4 * i);
            return Some([value(SK_MEMINFO_WMEM_ALLOC)?, value(SK_MEMINFO_SNDBUF)?]);
        }
        at += len.div_ceil(4) * 4;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sys::fd;

    #[test]
    fn a_writer_blocked_by_small_writes_shows_a_full_send_buffer() {
        let diag = SockDiag::new().unwrap();
        let (reader, writer) = crate::sys::socket::socketpair().unwrap();
        fd::set_nonblocking(writer.as_raw_fd(), true).unwrap();
        let (_, ino) = fd::identity(&writer).unwrap();
        assert_eq!(diag.send_buffer_fill(ino as u32), Some(0));
        // One write of a few KB leaves room.
        fd::write(writer.as_raw_fd(), &[b'x'; 4096]).unwrap();
        let after_one = diag.send_buffer_fill(ino as u32).unwrap();
        assert!(after_one < 10, "{after_one}%");
        // Five-byte writes until the socket refuses: full, though few bytes are queued.
        let mut writes = 0;
        while fd::write(writer.as_raw_fd(), b"1234\n").is_ok() {
            writes += 1;
        }
        let queued = fd::readable_bytes(reader.as_raw_fd());
        assert!(queued < 4096 + 5 * 1000, "{writes} writes, {queued} bytes");
        let full = diag.send_buffer_fill(ino as u32).unwrap();
        assert!(
            full >= 90,
            "{full}% after {writes} writes of {queued} bytes"
        );
        assert_eq!(diag.send_buffer_fill(u32::MAX - 7), None, "no such socket");
    }
}
