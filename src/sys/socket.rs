//! Unix sockets: the server's private directory and listener, peer checks, client connections
//! and the socketpairs that serve as session terminals. Nothing here listens on a network.

use super::fd::{cvt, owned};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The directory sockets live in: `${ZEROPTY_TMPDIR:-${TMUX_TMPDIR:-/tmp}}/zeropty-UID`.
pub fn socket_dir() -> PathBuf {
    let base = std::env::var_os("ZEROPTY_TMPDIR")
        .filter(|v| !v.is_empty())
        .or_else(|| std::env::var_os("TMUX_TMPDIR").filter(|v| !v.is_empty()))
        .unwrap_or_else(|| "/tmp".into());
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    Path::new(&base).join(format!("zeropty-{uid}"))
}

/// Creates the socket directory if needed and refuses one that is not a directory private to
/// this user (mode 0700, owned by us). Errors are worded as tmux words them.
pub fn ensure_private_dir(dir: &Path) -> Result<(), String> {
    let shown = dir.display();
    match std::fs::create_dir(dir) {
        Ok(()) => {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| format!("couldn't create directory {shown} ({})", os_error(&e)))?;
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => {
            return Err(format!(
                "couldn't create directory {shown} ({})",
                os_error(&e)
            ))
        }
    }
    let meta = std::fs::symlink_metadata(dir)
        .map_err(|e| format!("couldn't read directory {shown} ({})", os_error(&e)))?;
    use std::os::unix::fs::MetadataExt;
    if !meta.is_dir() {
        return Err(format!("{shown} is not a directory"));
    }
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    if meta.uid() != uid || meta.mode() & 0o077 != 0 {
        return Err(format!("directory {shown} has unsafe permissions"));
    }
    Ok(())
}

/// The text of an OS error without Rust's " (os error N)" suffix, as C's strerror gives it.
pub fn os_error(e: &io::Error) -> String {
    match e.raw_os_error() {
        // SAFETY: strerror returns a valid C string for any errno value.
        Some(n) => unsafe { std::ffi::CStr::from_ptr(libc::strerror(n)) }
            .to_string_lossy()
            .into_owned(),
        None => e.to_string(),
    }
}

fn sockaddr(path: &Path) -> io::Result<(libc::sockaddr_un, libc::socklen_t)> {
    // SAFETY: sockaddr_un is plain data.
    let mut sa: libc::sockaddr_un = unsafe { std::mem::zeroed() };
    sa.sun_family = libc::AF_UNIX as libc::sa_family_t;
    let bytes = path.as_os_str().as_bytes();
    if bytes.len() >= sa.sun_path.len() {
        return Err(io::Error::from_raw_os_error(libc::ENAMETOOLONG));
    }
    for (d, s) in sa.sun_path.iter_mut().zip(bytes) {
        *d = *s as libc::c_char;
    }
    Ok((
        sa,
        std::mem::size_of::<libc::sockaddr_un>() as libc::socklen_t,
    ))
}

fn stream_socket() -> io::Result<OwnedFd> {
    // SAFETY: plain syscall.
    let fd =
        cvt(unsafe { libc::socket(libc::AF_UNIX, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0) })?;
    // SAFETY: fd is new and ours.
    Ok(unsafe { owned(fd) })
}

/// Connects to a server socket (blocking).
pub fn connect(path: &Path) -> io::Result<OwnedFd> {
    let fd = stream_socket()?;
    let (sa, len) = sockaddr(path)?;
    // SAFETY: sa is a valid sockaddr_un of length len.
    cvt(unsafe {
        libc::connect(
            fd.as_raw_fd(),
            (&sa as *const libc::sockaddr_un).cast(),
            len,
        )
    })?;
    Ok(fd)
}

/// Binds and listens at `path` with the socket readable only by this user.
pub fn listen(path: &Path) -> io::Result<OwnedFd> {
    let fd = stream_socket()?;
    let (sa, len) = sockaddr(path)?;
    // SAFETY: umask is process-wide but the server is single-threaded here.
    let old = unsafe { libc::umask(0o177) };
    // SAFETY: sa is a valid sockaddr_un of length len.
    let r = cvt(unsafe {
        libc::bind(
            fd.as_raw_fd(),
            (&sa as *const libc::sockaddr_un).cast(),
            len,
        )
    });
    // SAFETY: restores the previous mask.
    unsafe { libc::umask(old) };
    r?;
    // SAFETY: listen on a bound socket.
    cvt(unsafe { libc::listen(fd.as_raw_fd(), 128) })?;
    super::fd::set_nonblocking(fd.as_raw_fd(), true)?;
    Ok(fd)
}

/// Accepts one pending connection (non-blocking, close-on-exec); `None` when none is waiting.
pub fn accept(listener: RawFd) -> io::Result<Option<OwnedFd>> {
    // SAFETY: null address pointers are allowed.
    let fd = unsafe {
        libc::accept4(
            listener,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            libc::SOCK_CLOEXEC | libc::SOCK_NONBLOCK,
        )
    };
    if fd < 0 {
        let e = io::Error::last_os_error();
        return match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Ok(None),
            _ if e.raw_os_error() == Some(libc::ECONNABORTED) => Ok(None),
            _ => Err(e),
        };
    }
    // SAFETY: fd is new and ours.
    Ok(Some(unsafe { owned(fd) }))
}

/// The process at the other end of a connected unix socket, as it was when it connected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peer {
    pub uid: u32,
    pub pid: u32,
}

/// Who is at the other end of a connected unix socket (SO_PEERCRED).
pub fn peer(fd: RawFd) -> io::Result<Peer> {
    // SAFETY: ucred is plain data.
    let mut cred: libc::ucred = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: cred and len are valid for getsockopt to fill.
    cvt(unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        )
    })?;
    Ok(Peer {
        uid: cred.uid,
        pid: cred.pid as u32,
    })
}

pub fn my_uid() -> u32 {
    // SAFETY: getuid cannot fail.
    unsafe { libc::getuid() }
}

/// A connected pair of stream sockets, both close-on-exec.
pub fn socketpair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: fds has room for two descriptors.
    cvt(unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_STREAM | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    })?;
    // SAFETY: both are new and ours.
    Ok(unsafe { (owned(fds[0]), owned(fds[1])) })
}

/// Asks for a send buffer of `bytes` on a socket; the kernel caps the request at
/// `net.core.wmem_max` and doubles it for its own bookkeeping.
pub fn set_send_buffer(fd: &OwnedFd, bytes: usize) -> io::Result<()> {
    let value = libc::c_int::try_from(bytes).unwrap_or(libc::c_int::MAX);
    // SAFETY: value outlives the call and its size is given.
    cvt(unsafe {
        libc::setsockopt(
            fd.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_SNDBUF,
            (&value as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    })?;
    Ok(())
}

fn lock_file(path: &Path) -> io::Result<OwnedFd> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(libc::O_CLOEXEC)
        .open(path)?;
    Ok(file.into())
}

/// Takes an exclusive lock on `path` (created if needed), waiting for it: one client at a
/// time starts a server.
pub fn lock(path: &Path) -> io::Result<OwnedFd> {
    let fd = lock_file(path)?;
    // SAFETY: flock on an open descriptor.
    cvt(unsafe { libc::flock(fd.as_raw_fd(), libc::LOCK_EX) })?;
    Ok(fd)
}
