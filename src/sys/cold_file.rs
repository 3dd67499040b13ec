//! The cold store's file: one unnamed memfd per server.
//!
//! Compressed screens are written and read with pwrite/pread, never mapped, so they stay out
//! of the server's address space; freed extents have their whole pages punched out and the
//! tail is truncated, so the file holds about the live chunks. Its pages are shared memory
//! (the kernel may swap them like any other): [`ColdFile::allocated_bytes`] reports them from
//! the file's block count, and the server's memory figures add them.
//!
//! Invariant: the descriptor is close-on-exec, so programs never inherit it.

use super::fd::cvt;
use crate::engine::cold::ColdFile;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

pub struct Memfd {
    fd: OwnedFd,
}

impl Memfd {
    pub fn new() -> io::Result<Memfd> {
        // SAFETY: the name is a valid C string; memfd_create returns a new descriptor.
        let fd = cvt(unsafe { libc::memfd_create(c"zeropty-cold".as_ptr(), libc::MFD_CLOEXEC) })?;
        // SAFETY: fd is new and ours.
        Ok(Memfd {
            fd: unsafe { OwnedFd::from_raw_fd(fd) },
        })
    }
}

impl ColdFile for Memfd {
    fn write_at(&mut self, offset: u64, data: &[u8]) -> io::Result<()> {
        let fd = self.fd.as_raw_fd();
        whole(data.len(), |done| {
            let rest = &data[done..];
            // SAFETY: rest is valid for reads of rest.len() bytes.
            unsafe {
                libc::pwrite(
                    fd,
                    rest.as_ptr().cast(),
                    rest.len(),
                    (offset + done as u64) as libc::off_t,
                )
            }
        })
    }

    fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        let fd = self.fd.as_raw_fd();
        let mut buf = vec![0u8; len];
        whole(len, |done| {
            let rest = &mut buf[done..];
            // SAFETY: rest is valid for writes of rest.len() bytes.
            unsafe {
                libc::pread(
                    fd,
                    rest.as_mut_ptr().cast(),
                    rest.len(),
                    (offset + done as u64) as libc::off_t,
                )
            }
        })?;
        Ok(buf)
    }

    fn discard(&mut self, offset: u64, len: u64) {
        const PAGE: u64 = 4096;
        let start = offset.div_ceil(PAGE) * PAGE;
        let end = (offset + len) / PAGE * PAGE;
        if end > start {
            // SAFETY: punching a hole in our own file; failure only leaves the pages held.
            unsafe {
                libc::fallocate(
                    self.fd.as_raw_fd(),
                    libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE,
                    start as libc::off_t,
                    (end - start) as libc::off_t,
                );
            }
        }
    }

    fn truncate(&mut self, len: u64) {
        // SAFETY: truncating our own file; failure only leaves the pages held.
        unsafe {
            libc::ftruncate(self.fd.as_raw_fd(), len as libc::off_t);
        }
    }

    fn allocated_bytes(&self) -> u64 {
        // SAFETY: st is written by fstat before it is read.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: fd is open; st is valid for writes.
        if unsafe { libc::fstat(self.fd.as_raw_fd(), &mut st) } != 0 {
            return 0;
        }
        st.st_blocks as u64 * 512
    }
}

/// Repeats `step` (a pread or pwrite from `done` bytes on, returning its count or -1) until
/// `len` bytes have moved.
fn whole(len: usize, mut step: impl FnMut(usize) -> libc::ssize_t) -> io::Result<()> {
    let mut done = 0;
    while done < len {
        match step(done) {
            n if n > 0 => done += n as usize,
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            _ => {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(e);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cold::ColdStore;

    #[test]
    fn chunks_round_trip_through_a_memfd_and_freed_pages_go_back() {
        let mut store = ColdStore::new(Box::new(Memfd::new().unwrap()));
        // Incompressible chunks, so their sizes in the file are known.
        let mut seed = 1u32;
        let mut noise = |len: usize| -> Vec<u8> {
            (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    (seed >> 16) as u8
                })
                .collect()
        };
        let chunks: Vec<Vec<u8>> = (0..8).map(|_| noise(20_000)).collect();
        let refs: Vec<_> = chunks.iter().map(|c| store.put(c).unwrap()).collect();
        assert!(store.file_bytes() >= 8 * 20_000, "{}", store.file_bytes());
        for (r, c) in refs.iter().zip(&chunks).skip(1) {
            assert_eq!(&*store.take(*r).unwrap(), &c[..]);
        }
        assert!(store.file_bytes() <= 24_576, "{}", store.file_bytes());
        assert_eq!(&*store.take(refs[0]).unwrap(), &chunks[0][..]);
        assert_eq!(store.file_bytes(), 0);
    }
}
