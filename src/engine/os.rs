//! What the engine needs from the operating system, as traits, so the engine itself stays
//! free of system calls and is unit-tested with a fake.
//!
//! [`Programs`] starts session programs and moves their bytes; [`Clock`] tells time. The host
//! (the server's loop or an embedding program) implements both over real descriptors
//! (`crate::sys::host_os`) and delivers readiness to the engine as [`IoEvent`]s.
//!
//! Invariant: an [`IoId`] names one program's terminal from spawn until `close`; the engine
//! never reuses one while the program's descriptors may still report events.

use std::io;

/// The engine's name for a program's terminal descriptor (and its exit notification).
pub type IoId = u64;

/// The engine's name for a `pipe-pane` command's descriptor (never equal to a live [`IoId`]).
pub type PipeId = u64;

/// What a program's terminal is made of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// One end of a socketpair that the preloaded shim makes look like a terminal; the engine
    /// runs the line discipline and output processing, and learns modes from in-band markers.
    #[default]
    Socket,
    /// A real pseudo-terminal, for programs the shim cannot reach (static binaries, Go,
    /// setuid programs): the kernel runs the line discipline and output processing.
    Pty,
}

impl Backend {
    /// The backend a user names (`socket` or `pty`).
    pub fn from_name(name: &str) -> Option<Backend> {
        match name {
            "socket" => Some(Backend::Socket),
            "pty" => Some(Backend::Pty),
            _ => None,
        }
    }
}

/// A program to start for a pane.
#[derive(Clone, Debug)]
pub struct SpawnRequest {
    /// Several words are exec'd directly; one is run with `shell -c`; none starts the shell
    /// as a login shell.
    pub argv: Vec<String>,
    pub shell: String,
    pub cwd: String,
    /// The program's whole environment.
    pub env: Vec<(String, String)>,
    pub cols: u16,
    pub rows: u16,
    /// Terminal settings the program starts with.
    pub termios: super::tty::Termios,
    pub backend: Backend,
}

/// A started program.
#[derive(Clone, Debug)]
pub struct Spawned {
    pub io: IoId,
    pub pid: i32,
    /// The random token its shim marks in-band messages with.
    pub token: String,
    /// Where its terminal state lives (for window size and foreground group); the host's
    /// handle, which the engine only passes back.
    pub slot: u64,
    /// The terminal device, for `#{pane_tty}` (empty on the socket backend).
    pub tty: String,
    pub backend: Backend,
}

/// Readiness the host reports for a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IoEvent {
    /// Output (or end of file) is waiting.
    Readable,
    /// The terminal accepts more input.
    Writable,
    /// The program (the process the pane started) exited.
    Exited,
}

/// A user, as the `uid` and `user` formats show it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct User {
    pub id: u32,
    /// Empty when the password database does not know the id.
    pub name: String,
}

pub trait Clock {
    /// Milliseconds on a monotonic clock.
    fn now_ms(&self) -> u64;
    /// Seconds since the Unix epoch.
    fn wall_time(&self) -> i64;
}

/// What the engine wants to hear of a program's terminal (see [`Programs::watch`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Watch {
    pub readable: bool,
    pub writable: bool,
    /// Someone waits on this terminal: an attached client shows it, its output is piped or
    /// read as fast as it comes (a busy writer), or input waits to be written. Its events are
    /// reported at once; a host may gather the others' over a short interval and report them
    /// together, since their output waits for a batch boundary anyway and every reader drains
    /// it first.
    pub prompt: bool,
    /// The engine reads the terminal's output whenever it reports it (a program whose frames
    /// are read as they come): with `readable` and without `writable`, the host may go on
    /// watching after a report instead of watching once, which saves renewing the watch at
    /// every frame.
    pub steady: bool,
}

pub trait Programs {
    fn spawn(&mut self, req: &SpawnRequest) -> io::Result<Spawned>;
    /// Reads available output into the host's own buffer and lends it: empty is end of file,
    /// `WouldBlock` means nothing waits. (One buffer kept by the host, rather than one the
    /// caller zeroes each time: zeroing 64 KiB per read was a tenth of a send-keys.)
    fn read(&mut self, io: IoId) -> io::Result<&[u8]>;
    /// Writes what the terminal accepts without blocking.
    fn write(&mut self, io: IoId, data: &[u8]) -> io::Result<usize>;
    /// Bytes of output waiting to be read.
    fn pending_output(&self, io: IoId) -> usize;
    /// How full the program's side of its terminal is, in percent of what it may queue before
    /// its writes block (small writes fill it long before their bytes add up); `None` when the
    /// host cannot tell.
    fn output_fill(&self, io: IoId) -> Option<u32> {
        let _ = io;
        None
    }
    /// What the engine wants to hear of the terminal. A host may watch once: after reporting
    /// an event it stops watching the terminal until [`Programs::watch`] is called again (the
    /// engine calls it after every event it is told of, and [`Programs::watch_fired`] first),
    /// except for a steady watch ([`Watch::steady`]), which stays until changed.
    fn watch(&mut self, io: IoId, want: Watch);
    /// The host reported an event of `io` to the engine: a host that watches once knows its
    /// watch is spent, and the next [`Programs::watch`] renews it if still wanted.
    fn watch_fired(&mut self, io: IoId) {
        let _ = io;
    }
    /// Closes the terminal. The program's exit is still reported (as for an unknown `io`) so
    /// the host can collect it; the engine then calls [`Programs::release`].
    fn close(&mut self, io: IoId);
    /// The engine is done with a closed terminal's program: collect it once it has exited.
    fn release(&mut self, io: IoId);
    /// Collects an exited process: its wait status, or `None` if it still runs.
    fn reap(&mut self, pid: i32) -> Option<i32>;
    fn signal_group(&mut self, pgrp: i32, signal: i32);
    /// Tells the program behind `slot` (see [`Spawned::slot`]) its new window size; on the
    /// PTY backend the kernel then sends SIGWINCH itself.
    fn set_window_size(&mut self, slot: u64, cols: u16, rows: u16);
    /// The foreground process group the programs set last (on the PTY backend, the kernel's).
    fn foreground_group(&self, slot: u64) -> Option<i32>;
    fn process_cwd(&self, pid: i32) -> Option<String>;
    /// argv[0] of a process.
    fn process_name(&self, pid: i32) -> Option<String>;
    /// Whether `path` can be a session's shell (tmux's checkshell: absolute, executable, not
    /// zeropty itself).
    fn is_shell(&self, path: &str) -> bool;
    /// The shell the server starts with (tmux's getshell): `shell_variable` (`SHELL`) when it
    /// is a shell, else the user's login shell when that is, else /bin/sh.
    fn user_shell(&self, shell_variable: Option<&str>) -> String;
    fn host_name(&self) -> String;
    /// The user the server runs as (every client is this user: peers are checked).
    fn user(&self) -> User;
    /// Reads a file for `source-file` and `-f`.
    fn read_file(&self, path: &str) -> io::Result<Vec<u8>>;
    /// Writes (or appends to) a file for `save-buffer`, creating it with mode 0644.
    fn write_file(&mut self, path: &str, data: &[u8], append: bool) -> io::Result<()> {
        let _ = (path, data, append);
        Err(io::ErrorKind::Unsupported.into())
    }
    /// Starts `/bin/sh -c command` for `pipe-pane`, connected to the engine by one
    /// non-blocking descriptor: the command's standard input when `to_child`, its standard
    /// output when `from_child` (the others are /dev/null). Readiness comes as pipe events;
    /// the host watches for readability until told otherwise.
    fn spawn_pipe(
        &mut self,
        command: &str,
        cwd: &str,
        env: &[(String, String)],
        to_child: bool,
        from_child: bool,
    ) -> io::Result<PipeId> {
        let _ = (command, cwd, env, to_child, from_child);
        Err(io::ErrorKind::Unsupported.into())
    }
    /// Reads what the pipe's command wrote; `Ok(0)` is end of file.
    fn pipe_read(&mut self, id: PipeId, buf: &mut [u8]) -> io::Result<usize> {
        let _ = (id, buf);
        Err(io::ErrorKind::Unsupported.into())
    }
    /// Writes what the pipe accepts without blocking.
    fn pipe_write(&mut self, id: PipeId, data: &[u8]) -> io::Result<usize> {
        let _ = (id, data);
        Err(io::ErrorKind::Unsupported.into())
    }
    /// Whether the engine wants to hear when the pipe is readable and writable.
    fn pipe_watch(&mut self, id: PipeId, readable: bool, writable: bool) {
        let _ = (id, readable, writable);
    }
    /// Closes the engine's end; the command is collected once it exits (its exit may be
    /// reported as for a closed terminal, see [`Programs::release`]).
    fn close_pipe(&mut self, id: PipeId) {
        let _ = id;
    }
    /// Starts `/bin/sh -c command` as a job a request waits for (`run-shell`, `if-shell`):
    /// its standard input and output are /dev/null. Returns the id its exit is reported as
    /// ([`IoEvent::Exited`]; never a live terminal's) and its pid, whose wait status
    /// [`Programs::reap`] then gives.
    fn start_job(
        &mut self,
        command: &str,
        cwd: &str,
        env: &[(String, String)],
    ) -> io::Result<(IoId, i32)> {
        let _ = (command, cwd, env);
        Err(io::ErrorKind::Unsupported.into())
    }
    /// Starts `/bin/sh -c command` and leaves it to run (`run-shell -b`): nothing is read from
    /// it and the host collects it when it exits.
    fn spawn_shell(
        &mut self,
        command: &str,
        cwd: &str,
        env: &[(String, String)],
    ) -> io::Result<()> {
        let _ = (command, cwd, env);
        Err(io::ErrorKind::Unsupported.into())
    }
    /// How the host compiles copy mode's regular expressions (the C library's, as tmux's);
    /// `None`: patterns are searched for as text.
    fn regex_compiler(&self) -> Option<crate::engine::copy_mode::RegexCompiler> {
        None
    }
}
