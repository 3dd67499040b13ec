//! The attaching client's own terminal: whether a descriptor is one, its name and size, raw
//! mode (restored when dropped), and the signals an attached client follows (SIGWINCH for
//! resizes; SIGTERM and SIGHUP to restore the terminal before leaving) through a self-pipe.
//!
//! A self-pipe rather than a signalfd: a signalfd only sees signals blocked in every thread,
//! and the client may have a thread (the one that collects a server it started) that would
//! otherwise take SIGWINCH and discard it.

use super::fd::{cvt, owned};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicI32, Ordering};

pub fn is_terminal(fd: RawFd) -> bool {
    // SAFETY: isatty only inspects the descriptor.
    unsafe { libc::isatty(fd) == 1 }
}

/// The terminal device's path (`/dev/pts/3`), if `fd` is a terminal.
pub fn name(fd: RawFd) -> Option<String> {
    let mut buf = [0 as libc::c_char; 256];
    // SAFETY: buf is valid for buf.len() bytes and ttyname_r NUL-terminates on success.
    let r = unsafe { libc::ttyname_r(fd, buf.as_mut_ptr(), buf.len()) };
    if r != 0 {
        return None;
    }
    // SAFETY: NUL-terminated by ttyname_r.
    let s = unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) };
    Some(s.to_string_lossy().into_owned())
}

/// The terminal's size in columns and rows.
pub fn size(fd: RawFd) -> Option<(u16, u16)> {
    // SAFETY: winsize is plain data filled by the ioctl.
    let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
    // SAFETY: TIOCGWINSZ writes one winsize.
    if unsafe { libc::ioctl(fd, libc::TIOCGWINSZ, &mut ws) } < 0 || ws.ws_col == 0 {
        return None;
    }
    Some((ws.ws_col, ws.ws_row.max(1)))
}

/// A terminal in raw mode; its previous settings come back when this is dropped.
pub struct RawMode {
    fd: RawFd,
    saved: libc::termios,
}

impl RawMode {
    /// Raw mode as tmux sets it for a client's terminal: no line editing, echo, signals or
    /// output processing; reads return as soon as a byte is there.
    pub fn enter(fd: RawFd) -> io::Result<RawMode> {
        RawMode::with(fd, |raw| {
            raw.c_iflag &= !(libc::IXON
                | libc::IXOFF
                | libc::ICRNL
                | libc::INLCR
                | libc::IGNCR
                | libc::IMAXBEL
                | libc::ISTRIP);
            raw.c_iflag |= libc::IGNBRK;
            raw.c_oflag &= !(libc::OPOST | libc::ONLCR | libc::OCRNL | libc::ONLRET);
            raw.c_lflag &= !(libc::IEXTEN
                | libc::ICANON
                | libc::ECHO
                | libc::ECHOE
                | libc::ECHONL
                | libc::ECHOCTL
                | libc::ECHOPRT
                | libc::ECHOKE
                | libc::ISIG);
        })
    }

    /// The settings tmux's `-CC` client gives its terminal: raw, but carriage returns read as
    /// newlines and newlines written as CR LF, so lines cross either way.
    pub fn enter_control(fd: RawFd) -> io::Result<RawMode> {
        RawMode::with(fd, |raw| {
            // SAFETY: raw is a valid termios.
            unsafe { libc::cfmakeraw(raw) };
            raw.c_iflag = libc::ICRNL | libc::IXANY;
            raw.c_oflag = libc::OPOST | libc::ONLCR;
            raw.c_cflag = libc::CREAD | libc::CS8 | libc::HUPCL | (raw.c_cflag & libc::CBAUD);
        })
    }

    /// Reads the terminal's settings, changes them with `adjust` (reads wait for one byte, no
    /// timeout) and applies them; dropping the result restores them.
    fn with(fd: RawFd, adjust: impl FnOnce(&mut libc::termios)) -> io::Result<RawMode> {
        // SAFETY: termios is plain data filled by tcgetattr.
        let mut saved: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: saved is valid for writes.
        cvt(unsafe { libc::tcgetattr(fd, &mut saved) })?;
        let mut raw = saved;
        adjust(&mut raw);
        raw.c_cc[libc::VMIN] = 1;
        raw.c_cc[libc::VTIME] = 0;
        // SAFETY: raw is a valid termios.
        cvt(unsafe { libc::tcsetattr(fd, libc::TCSANOW, &raw) })?;
        Ok(RawMode { fd, saved })
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        // SAFETY: restores the settings read in `enter`.
        unsafe { libc::tcsetattr(self.fd, libc::TCSADRAIN, &self.saved) };
    }
}

static SIGNAL_PIPE: AtomicI32 = AtomicI32::new(-1);

extern "C" fn on_signal(sig: libc::c_int) {
    let fd = SIGNAL_PIPE.load(Ordering::Relaxed);
    if fd >= 0 {
        let b = sig as u8;
        // SAFETY: write is async-signal-safe; a full pipe just drops the byte (the reader
        // re-reads the terminal size anyway).
        unsafe { libc::write(fd, (&b as *const u8).cast(), 1) };
    }
}

/// Signals delivered as bytes on a pipe, so the client's poll loop sees them.
pub struct Signals {
    read: OwnedFd,
    _write: OwnedFd,
}

impl Signals {
    /// Catches `signals` from now on (one instance per process).
    pub fn catch(signals: &[i32]) -> io::Result<Signals> {
        let mut fds = [0; 2];
        // SAFETY: fds has room for two descriptors.
        cvt(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) })?;
        // SAFETY: both are new and ours.
        let (read, write) = unsafe { (owned(fds[0]), owned(fds[1])) };
        SIGNAL_PIPE.store(write.as_raw_fd(), Ordering::Relaxed);
        for &sig in signals {
            // SAFETY: sigaction is plain data; the handler only calls write.
            let mut sa: libc::sigaction = unsafe { std::mem::zeroed() };
            sa.sa_sigaction = on_signal as *const () as usize;
            sa.sa_flags = libc::SA_RESTART;
            // SAFETY: sa is a valid sigaction.
            cvt(unsafe { libc::sigaction(sig, &sa, std::ptr::null_mut()) })?;
        }
        Ok(Signals {
            read,
            _write: write,
        })
    }

    pub fn fd(&self) -> RawFd {
        self.read.as_raw_fd()
    }

    /// The signals caught since the last call.
    pub fn take(&self) -> Vec<i32> {
        let mut buf = [0u8; 64];
        let mut out = Vec::new();
        while let Ok(n) = super::fd::read(self.read.as_raw_fd(), &mut buf) {
            if n == 0 {
                break;
            }
            out.extend(buf[..n].iter().map(|&b| b as i32));
        }
        out
    }
}

impl Drop for Signals {
    fn drop(&mut self) {
        SIGNAL_PIPE.store(-1, Ordering::Relaxed);
    }
}

/// Waits until one of `fds` is readable (or hung up); returns which are.
pub fn wait_readable(fds: &[RawFd]) -> io::Result<Vec<bool>> {
    let mut polls: Vec<libc::pollfd> = fds
        .iter()
        .map(|&fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    loop {
        // SAFETY: polls holds fds.len() valid entries.
        let r = unsafe { libc::poll(polls.as_mut_ptr(), polls.len() as libc::nfds_t, -1) };
        if r >= 0 {
            break;
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    Ok(polls.iter().map(|p| p.revents != 0).collect())
}

/// `detach-client -P`: the client's parent (its shell) is sent SIGHUP, as tmux does.
pub fn hang_up_parent() {
    // SAFETY: getppid cannot fail; kill on a pid is harmless if it is gone.
    unsafe {
        let parent = libc::getppid();
        if parent > 1 {
            libc::kill(parent, libc::SIGHUP);
        }
    }
}

pub const SIGWINCH: i32 = libc::SIGWINCH;
pub const SIGTERM: i32 = libc::SIGTERM;
pub const SIGHUP: i32 = libc::SIGHUP;
