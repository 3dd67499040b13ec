//! Pseudo-terminals for the PTY backend: programs the shim cannot reach (static binaries, Go
//! programs, setuid programs such as sudo) get a real terminal, and the engine reads and writes
//! its master side.
//!
//! With a real terminal the kernel runs the line discipline and output processing, and it
//! knows the foreground process group and the window size, so both are asked of and told to
//! the master with ioctls; the kernel sends SIGWINCH itself when the size changes.
//!
//! Invariant: the subsidiary side is opened without becoming anyone's controlling terminal
//! (the child claims it with TIOCSCTTY after setsid) and every descriptor is close-on-exec.

use super::fd::{cvt, owned};
use crate::engine::tty::Termios;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

/// A new pseudo-terminal: the master the engine keeps, the subsidiary side the program gets.
pub struct Pty {
    pub master: OwnedFd,
    pub subsidiary: OwnedFd,
    /// The subsidiary's device path, `/dev/pts/N`.
    pub path: String,
}

/// Opens a pseudo-terminal with `termios` and a `cols` x `rows` window already set, so the
/// program sees both from its first instruction.
pub fn open(termios: &Termios, cols: u16, rows: u16) -> io::Result<Pty> {
    let flags = libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC;
    // SAFETY: posix_openpt takes flags and returns a new descriptor or -1.
    let master = unsafe { owned(cvt(libc::posix_openpt(flags))?) };
    // SAFETY: unlockpt on a master we own.
    cvt(unsafe { libc::unlockpt(master.as_raw_fd()) })?;
    let mut n: libc::c_uint = 0;
    // SAFETY: TIOCGPTN writes one unsigned int.
    cvt(unsafe { libc::ioctl(master.as_raw_fd(), libc::TIOCGPTN, &mut n) })?;
    // TIOCGPTPEER opens the subsidiary through the master itself, so it is the right device
    // even when /dev/pts is another mount than the one the master came from.
    // SAFETY: TIOCGPTPEER takes open flags and returns a new descriptor or -1.
    let subsidiary = unsafe {
        owned(cvt(libc::ioctl(
            master.as_raw_fd(),
            libc::TIOCGPTPEER,
            flags,
        ))?)
    };
    set_termios(subsidiary.as_raw_fd(), termios)?;
    set_window_size(master.as_raw_fd(), cols, rows)?;
    Ok(Pty {
        master,
        subsidiary,
        path: format!("/dev/pts/{n}"),
    })
}

fn set_termios(fd: RawFd, termios: &Termios) -> io::Result<()> {
    let bytes = termios.to_bytes();
    // SAFETY: `to_bytes` is glibc's `struct termios` layout, of the same size (tested in
    // engine::tty), and every bit pattern is a valid termios.
    let t: libc::termios = unsafe { std::ptr::read_unaligned(bytes.as_ptr().cast()) };
    // SAFETY: t is a valid termios.
    cvt(unsafe { libc::tcsetattr(fd, libc::TCSANOW, &t) }).map(|_| ())
}

/// Sets the window size on the master; the kernel signals the foreground group if it changed.
pub fn set_window_size(master: RawFd, cols: u16, rows: u16) -> io::Result<()> {
    let ws = libc::winsize {
        ws_row: rows,
        ws_col: cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCSWINSZ reads one winsize.
    cvt(unsafe { libc::ioctl(master, libc::TIOCSWINSZ, &ws) }).map(|_| ())
}

/// The terminal's foreground process group, as the kernel knows it.
pub fn foreground_group(master: RawFd) -> Option<i32> {
    let mut pgrp: libc::pid_t = 0;
    // SAFETY: TIOCGPGRP writes one pid_t; on a master it answers for the subsidiary side.
    let r = unsafe { libc::ioctl(master, libc::TIOCGPGRP, &mut pgrp) };
    (r == 0 && pgrp > 0).then_some(pgrp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_size_and_settings_reach_the_subsidiary() {
        let mut t = Termios::pane_default();
        t.lflag &= !crate::engine::tty::flags::ECHO;
        let p = open(&t, 123, 45).unwrap();
        assert!(p.path.starts_with("/dev/pts/"));
        let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
        // SAFETY: TIOCGWINSZ writes one winsize.
        unsafe { libc::ioctl(p.subsidiary.as_raw_fd(), libc::TIOCGWINSZ, &mut ws) };
        assert_eq!((ws.ws_col, ws.ws_row), (123, 45));
        set_window_size(p.master.as_raw_fd(), 100, 30).unwrap();
        // SAFETY: as above.
        unsafe { libc::ioctl(p.subsidiary.as_raw_fd(), libc::TIOCGWINSZ, &mut ws) };
        assert_eq!((ws.ws_col, ws.ws_row), (100, 30));
        // SAFETY: tcgetattr writes one termios.
        let mut got: libc::termios = unsafe { std::mem::zeroed() };
        unsafe { libc::tcgetattr(p.subsidiary.as_raw_fd(), &mut got) };
        assert_eq!(got.c_lflag & libc::ECHO, 0);
        assert_ne!(got.c_lflag & libc::ICANON, 0);
        assert_ne!(got.c_iflag & libc::IUTF8, 0);
        // Nobody has it as controlling terminal yet, so there is no foreground group.
        assert_eq!(foreground_group(p.master.as_raw_fd()), None);
    }
}
