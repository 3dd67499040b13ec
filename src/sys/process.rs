//! Starting and ending session programs, and what `/proc` says about them.
//!
//! A session program starts in a new session and process group (setsid) with the terminal
//! descriptor on fds 0, 1 and 2 (a pseudo-terminal also becomes its controlling terminal) and
//! every other descriptor closed; its exit is reported through SIGCHLD
//! (`super::children`). Every child starts with no signal blocked, default signal actions
//! and the open-file limit the server was started with ([`raise_open_file_limit`]).
//!
//! Children start through `super::spawn`, sharing the server's memory until they exec:
//! everything a child needs is prepared before it starts, and it makes only async-signal-safe
//! calls, none of which allocates.

use super::fd::{cvt, owned};
use super::spawn::{self, LowFds};
use std::ffi::CString;
use std::io;
use std::os::fd::{OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::OnceLock;

/// How to start a session program: `argv` is exec'd directly when it has several words, run
/// with `shell -c` when it has one, and the shell is started as a login shell when it is empty.
pub struct Launch<'a> {
    pub argv: &'a [String],
    pub shell: &'a str,
    pub cwd: &'a Path,
    pub env: &'a [(String, String)],
    /// The terminal is a real one (the PTY backend): the child makes it its controlling
    /// terminal, so `/dev/tty`, job control and the kernel's signals work.
    pub controlling_tty: bool,
}

/// A terminal state slot the child writes, with its own pid as session and foreground group,
/// before it execs: the shim reads the slot as the program starts.
pub struct SlotInit {
    pub fd: RawFd,
    pub offset: u64,
    pub bytes: [u8; crate::engine::tty::SLOT_SIZE],
}

/// The open-file limit the server inherited, when it raised its own (see
/// [`raise_open_file_limit`]).
static INHERITED_NOFILE: OnceLock<libc::rlimit> = OnceLock::new();

/// Raises this process's soft open-file limit to its hard limit: each session holds one
/// descriptor in the server, so the soft limit (often 1024) would cap the sessions long before
/// the hard one. Children get the inherited limit back before they exec: it is what a user's
/// shell would have, and some programs depend on it staying small (select() cannot take a
/// descriptor past 1023; daemons that close every descriptor up to the limit take time in
/// proportion to it).
pub fn raise_open_file_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0
        || limit.rlim_cur >= limit.rlim_max
    {
        return;
    }
    let raised = libc::rlimit {
        rlim_cur: limit.rlim_max,
        rlim_max: limit.rlim_max,
    };
    // SAFETY: setrlimit reads the struct.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
        let _ = INHERITED_NOFILE.set(limit);
    }
}

/// In a new child: gives back the open-file limit the server inherited, if it raised it.
///
/// # Safety
/// Async-signal-safe: a load (the limit was set once, before any child started) and one
/// system call.
unsafe fn restore_open_file_limit() {
    if let Some(limit) = INHERITED_NOFILE.get() {
        // SAFETY: setrlimit reads the struct.
        unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, limit) };
    }
}

fn cstring(s: &[u8]) -> CString {
    CString::new(s.iter().copied().filter(|&b| b != 0).collect::<Vec<u8>>()).unwrap_or_default()
}

/// `NAME=value` strings for `execve`, prepared before `fork`.
fn environment(env: &[(String, String)]) -> Vec<CString> {
    env.iter()
        .map(|(k, v)| cstring(format!("{k}={v}").as_bytes()))
        .collect()
}

/// The pointer array `execve` wants (the strings must outlive it).
fn null_terminated(strings: &[CString]) -> Vec<*const libc::c_char> {
    strings
        .iter()
        .map(|s| s.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect()
}

fn basename(shell: &str) -> &str {
    match shell.rsplit_once('/') {
        Some((_, b)) if !b.is_empty() => b,
        _ => shell,
    }
}

/// Starts a program with `terminal` as its fds 0, 1 and 2; returns its pid.
pub fn launch(spec: &Launch<'_>, terminal: RawFd, slot: Option<&SlotInit>) -> io::Result<i32> {
    let (program, args): (CString, Vec<CString>) = match spec.argv {
        [] => {
            let argv0 = format!("-{}", basename(spec.shell));
            (
                cstring(spec.shell.as_bytes()),
                vec![cstring(argv0.as_bytes())],
            )
        }
        [cmd] => (
            cstring(spec.shell.as_bytes()),
            vec![
                cstring(basename(spec.shell).as_bytes()),
                cstring(b"-c"),
                cstring(cmd.as_bytes()),
            ],
        ),
        many => (
            cstring(many[0].as_bytes()),
            many.iter().map(|a| cstring(a.as_bytes())).collect(),
        ),
    };
    let search_path = spec.argv.len() > 1;
    let argv = null_terminated(&args);
    let env_strings = environment(spec.env);
    let envp = null_terminated(&env_strings);
    let cwd = cstring(spec.cwd.as_os_str().as_bytes());
    let path = std::env::var("PATH").unwrap_or_default();
    let path_in_env = spec
        .env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.clone())
        .unwrap_or(path);
    let candidates: Vec<CString> = if search_path && !many_has_slash(spec.argv) {
        path_in_env
            .split(':')
            .map(|d| {
                let d = if d.is_empty() { "." } else { d };
                cstring(format!("{d}/{}", spec.argv[0]).as_bytes())
            })
            .collect()
    } else {
        vec![program]
    };

    spawn::start_child(Some(terminal), |low| {
        // SAFETY: a new child, which makes async-signal-safe calls only, on memory prepared
        // before it started.
        unsafe {
            child(
                low,
                spec.controlling_tty,
                slot,
                &cwd,
                &candidates,
                &argv,
                &envp,
            )
        }
    })
}

fn many_has_slash(argv: &[String]) -> bool {
    argv.first().is_some_and(|a| a.contains('/'))
}

/// The child side of `launch`: never returns.
///
/// # Safety
/// Must only be called in a new child of [`spawn::start_child`].
unsafe fn child(
    low: LowFds,
    controlling_tty: bool,
    slot: Option<&SlotInit>,
    cwd: &CString,
    programs: &[CString],
    argv: &[*const libc::c_char],
    envp: &[*const libc::c_char],
) -> ! {
    // SAFETY: all calls are async-signal-safe and use memory prepared before the child started.
    unsafe {
        let pid = libc::setsid();
        if controlling_tty {
            // A new session leader takes the terminal as its controlling terminal; it was
            // opened with O_NOCTTY so that nothing else could have claimed it.
            libc::ioctl(low.handed, libc::TIOCSCTTY, 0);
        }
        if let Some(s) = slot {
            use crate::engine::tty::{SLOT_PGRP, SLOT_SID};
            let mut bytes = s.bytes;
            bytes[SLOT_PGRP..SLOT_PGRP + 4].copy_from_slice(&pid.to_ne_bytes());
            bytes[SLOT_SID..SLOT_SID + 4].copy_from_slice(&pid.to_ne_bytes());
            libc::pwrite(
                s.fd,
                bytes.as_ptr().cast(),
                bytes.len(),
                s.offset as libc::off_t,
            );
        }
        // The slot is written through the server's state file descriptor, which the
        // child's own table leaves out.
        spawn::own_descriptors(low);
        for fd in 0..3 {
            libc::dup2(low.handed, fd);
        }
        spawn::reset_signals();
        restore_open_file_limit();
        if libc::chdir(cwd.as_ptr()) != 0 {
            libc::chdir(c"/".as_ptr());
        }
        spawn::close_from_3();
        for p in programs {
            libc::execve(p.as_ptr(), argv.as_ptr(), envp.as_ptr());
        }
        libc::_exit(1)
    }
}

/// Collects any one ended child: `(pid, wait status)`, or `None` when none has ended (or there
/// are no children).
pub fn wait_any() -> Option<(i32, i32)> {
    let mut status = 0;
    // SAFETY: waitpid with WNOHANG writes status.
    let pid = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
    (pid > 0).then_some((pid, status))
}

/// Collects an exited child: `Some(status)` as waitpid reports it, `None` if still running.
pub fn try_wait(pid: i32) -> Option<i32> {
    let mut status = 0;
    // SAFETY: waitpid with WNOHANG writes status.
    let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
    if r == pid {
        Some(status)
    } else if r < 0 {
        // Already collected or not our child: report it gone.
        Some(0)
    } else {
        None
    }
}

/// Sends `sig` to every process in group `pgrp` (errors mean it is gone already).
pub fn signal_group(pgrp: i32, sig: i32) {
    if pgrp > 1 {
        // SAFETY: kill with a negative pid signals a process group.
        unsafe { libc::kill(-pgrp, sig) };
    }
}

pub fn signal_process(pid: i32, sig: i32) {
    if pid > 1 {
        // SAFETY: plain kill.
        unsafe { libc::kill(pid, sig) };
    }
}

/// A process's working directory.
pub fn current_dir(pid: i32) -> Option<String> {
    std::fs::read_link(format!("/proc/{pid}/cwd"))
        .ok()
        .map(|p| p.to_string_lossy().into_owned())
}

/// The first word of a process's command line (`/proc/PID/cmdline` up to the first NUL).
pub fn command_name(pid: i32) -> Option<String> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let first = raw.split(|&b| b == 0).next()?;
    Some(String::from_utf8_lossy(first).into_owned())
}

/// Whether `path` can be a session's shell, as tmux's checkshell decides: an absolute path
/// to something executable that is not this program itself (a shell of `zeropty` would start
/// sessions that start sessions).
pub fn is_shell(path: &str) -> bool {
    if !path.starts_with('/') || basename(path) == "zeropty" {
        return false;
    }
    let Ok(c) = CString::new(path) else {
        return false;
    };
    // SAFETY: c is a valid C string.
    unsafe { libc::access(c.as_ptr(), libc::X_OK) == 0 }
}

/// The user's login shell from the password database.
pub fn login_shell() -> Option<String> {
    own_password_field(|entry| entry.pw_shell)
}

/// The user's name from the password database.
pub fn user_name() -> Option<String> {
    own_password_field(|entry| entry.pw_name)
}

/// A field of this user's entry in the password database.
fn own_password_field(field: impl Fn(&libc::passwd) -> *const libc::c_char) -> Option<String> {
    // SAFETY: passwd is plain data; all zeros is a valid (empty) value.
    let mut pwd: libc::passwd = unsafe { std::mem::zeroed() };
    let mut buf = vec![0 as libc::c_char; 4096];
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call; the strings land in buf.
    let rc = unsafe {
        libc::getpwuid_r(
            libc::getuid(),
            &mut pwd,
            buf.as_mut_ptr(),
            buf.len(),
            &mut found,
        )
    };
    let value = field(&pwd);
    if rc != 0 || found.is_null() || value.is_null() {
        return None;
    }
    // SAFETY: the field points into buf, NUL-terminated by getpwuid_r.
    let value = unsafe { std::ffi::CStr::from_ptr(value) };
    Some(value.to_string_lossy().into_owned())
}

/// The shell tmux would choose (its getshell): `SHELL` when it is a usable shell, else the
/// login shell when that is, else /bin/sh.
pub fn user_shell(shell_variable: Option<&str>) -> String {
    shell_variable
        .map(str::to_string)
        .filter(|s| is_shell(s))
        .or_else(|| login_shell().filter(|s| is_shell(s)))
        .unwrap_or_else(|| "/bin/sh".into())
}

/// The machine's host name.
pub fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: buf is writable for its length.
    if unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } != 0 {
        return String::new();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// Ignores SIGPIPE (writes to closed sockets then fail with EPIPE instead of killing us).
pub fn ignore_sigpipe() {
    // SAFETY: setting a signal disposition.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
}

/// A pipe (read end, write end), both close-on-exec.
pub fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: fds has room for two descriptors.
    cvt(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
    // SAFETY: both are new and ours.
    Ok(unsafe { (owned(fds[0]), owned(fds[1])) })
}

/// Lets `fd` survive into the program `cmd` runs (clears close-on-exec in the child only).
pub fn keep_across_exec(cmd: &mut std::process::Command, fd: RawFd) {
    use std::os::unix::process::CommandExt;
    // SAFETY: fcntl is async-signal-safe.
    unsafe {
        cmd.pre_exec(move || {
            let flags = libc::fcntl(fd, libc::F_GETFD);
            libc::fcntl(fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC);
            Ok(())
        });
    }
}

/// How a `pipe-pane` command is connected: `socket` becomes its standard input (`to_child`)
/// and/or standard output (`from_child`); the rest, and standard error, are /dev/null.
pub struct PipeLaunch<'a> {
    pub command: &'a str,
    pub cwd: &'a Path,
    pub env: &'a [(String, String)],
    pub socket: RawFd,
    pub to_child: bool,
    pub from_child: bool,
}

/// Starts `/bin/sh -c command` for `pipe-pane`, as tmux does: in the server's process group
/// (it is not a session program), every other descriptor closed. Returns its pid.
pub fn launch_pipe(spec: &PipeLaunch<'_>) -> io::Result<i32> {
    let args = [
        cstring(b"sh"),
        cstring(b"-c"),
        cstring(spec.command.as_bytes()),
    ];
    let argv = null_terminated(&args);
    let env_strings = environment(spec.env);
    let envp = null_terminated(&env_strings);
    let cwd = cstring(spec.cwd.as_os_str().as_bytes());
    let socket = (spec.socket >= 0).then_some(spec.socket);
    spawn::start_child(socket, |low| {
        let stdin = if spec.to_child { low.handed } else { low.null };
        let stdout = if spec.from_child {
            low.handed
        } else {
            low.null
        };
        // SAFETY: as in `launch`: the child makes async-signal-safe calls only, on memory
        // prepared before it started.
        unsafe {
            spawn::own_descriptors(low);
            spawn::reset_signals();
            restore_open_file_limit();
            if libc::dup2(stdin, 0) < 0 || libc::dup2(stdout, 1) < 0 || libc::dup2(low.null, 2) < 0
            {
                libc::_exit(1);
            }
            if libc::chdir(cwd.as_ptr()) != 0 {
                libc::chdir(c"/".as_ptr());
            }
            spawn::close_from_3();
            libc::execve(c"/bin/sh".as_ptr(), argv.as_ptr(), envp.as_ptr());
            libc::_exit(1)
        }
    })
}
