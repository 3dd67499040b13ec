//! The engine's OS interface implemented over real descriptors: socketpair terminals with the
//! shim preloaded (or pseudo-terminals, per session), one signalfd for every child's exit
//! (`super::children`), the loop's epoll set, the shared terminal state file. A session costs
//! the server one descriptor, its terminal. Terminals whose events the engine wants at once
//! (`Watch::prompt`) are in the loop's set; the others are in a set the loop gathers from (see
//! `crate::server`), and a terminal moves between them when it is next watched.
//!
//! Tokens in the epoll sets carry what they belong to in their top byte: [`TOKEN_TERMINAL`] for a
//! program's terminal (with the engine's `IoId` below), [`TOKEN_EXIT`] for the SIGCHLD
//! signalfd, [`TOKEN_PIPE`] for a `pipe-pane` command, and the server's own kinds for its
//! listener and clients. When [`TOKEN_EXIT`] is ready, [`Children::collect`] (through
//! [`HostOs::children`]) names the programs that ended: terminals, closed terminals and
//! `pipe-pane` commands, each by its id, to be reported to the engine as `IoEvent::Exited`.
//!
//! A socket terminal's slot is its offset in the state file; a pseudo-terminal has no slot
//! there, so its slot is [`PTY_SLOT`] with its `IoId` below, and window size and foreground
//! group go to its master instead.
//!
//! Invariants: a terminal's descriptor is registered from spawn until `close`; every program
//! and `pipe-pane` command is watched from spawn until it is collected, and its status is kept
//! until the engine reaps it or closes its terminal; slots of closed terminals are reused.

use super::children::Children;
use super::fd::{self, set_nonblocking};
use super::poll::{Epoll, ONCE, READABLE, WRITABLE};
use super::process::{self, Launch, SlotInit};
use super::pty;
use super::shim::StateFile;
use super::sock_diag::SockDiag;
use crate::engine::os::{
    Backend, Clock, IoId, PipeId, Programs, SpawnRequest, Spawned, User, Watch,
};
use crate::engine::tty::{ENV_STATE, ENV_TOKEN, ENV_TTY};
use std::collections::HashMap;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Instant;

pub const TOKEN_TERMINAL: u64 = 1 << 56;
/// The SIGCHLD signalfd: some child ended (see [`Children::collect`]).
pub const TOKEN_EXIT: u64 = 2 << 56;
pub const TOKEN_KIND: u64 = 0xff << 56;
/// A `pipe-pane` command's socket (the engine's `PipeId` below).
pub const TOKEN_PIPE: u64 = 5 << 56;
/// Marks the slot of a pseudo-terminal (state file offsets never come near it).
pub const PTY_SLOT: u64 = 1 << 63;

/// The send buffer asked for on a program's end of its socket terminal: how far the program
/// may write ahead of the server before a write blocks. With the kernel's default (212,992
/// bytes, and each write is charged at least 766 of them whatever its length) a program
/// writing 5.4 MB was done after 11 ms; with this, doubled by the kernel to 2 MiB where
/// `net.core.wmem_max` allows, 4 ms; at the kernel's default cap (416 KiB) 17 and 6 ms
/// (`BASE=<build before> ROUNDS=5 bench/scale.sh bulk`, the second with
/// `sysctl -w net.core.wmem_max=212992`). The memory is the kernel's, taken only while output
/// waits to be read.
const PROGRAM_SEND_BUFFER: usize = 1 << 20;

struct Terminal {
    fd: OwnedFd,
    pid: i32,
    /// The state file slot (socket terminals only).
    slot_index: Option<usize>,
    /// What the epoll set watches for: a write that leaves nothing pending then costs no
    /// epoll_ctl (one per send-keys before; see BENCHMARKS.md, shell helpers).
    interest: u32,
    /// The epoll set watches it (its one-shot watch has not reported an event since it was
    /// last set, or its watch is steady).
    armed: bool,
    /// Its watch is level-triggered, not one-shot (see [`Watch::steady`]).
    steady: bool,
    /// It is in the loop's own set, reported at once, rather than in the set whose reports
    /// the loop gathers (see [`Watch::prompt`]).
    prompt: bool,
    /// The inode of the program's end of a socket terminal (for `output_fill`).
    program_end: Option<u32>,
}

pub struct HostOs {
    /// The loop's set: exits, `pipe-pane` commands and prompt terminals.
    epoll: Rc<Epoll>,
    /// The other terminals, reported when the loop gathers them.
    gathered: Rc<Epoll>,
    terminals: HashMap<IoId, Terminal>,
    children: Rc<Children>,
    /// Our ends of open `pipe-pane` commands' sockets, numbered from the same counter as
    /// terminals.
    pipes: HashMap<PipeId, OwnedFd>,
    next_io: IoId,
    state: StateFile,
    state_path: PathBuf,
    shim: PathBuf,
    free_slots: Vec<usize>,
    next_slot: usize,
    start: Instant,
    /// What [`Programs::read`] lends out.
    read_buf: Box<[u8]>,
    /// Asks the kernel how full programs' sockets are (`None` if it cannot be asked).
    diag: Option<SockDiag>,
}

impl HostOs {
    /// A host whose children report their exits through `epoll` (as [`TOKEN_EXIT`]), as do
    /// terminals whose events are wanted at once; the others' events go to `gathered`, which
    /// the loop takes in its own time. It blocks SIGCHLD in the calling thread (see
    /// `super::children`).
    pub fn new(
        epoll: Rc<Epoll>,
        gathered: Rc<Epoll>,
        state_path: PathBuf,
        shim: PathBuf,
    ) -> io::Result<HostOs> {
        let children = Rc::new(Children::new()?);
        epoll.add(children.raw_fd(), TOKEN_EXIT, READABLE)?;
        Ok(HostOs {
            epoll,
            gathered,
            terminals: HashMap::new(),
            children,
            pipes: HashMap::new(),
            next_io: 1,
            state: StateFile::create(&state_path)?,
            state_path,
            shim,
            free_slots: Vec::new(),
            next_slot: 0,
            start: Instant::now(),
            read_buf: vec![0; crate::engine::pane::READ_SIZE].into_boxed_slice(),
            diag: SockDiag::new().ok(),
        })
    }

    pub fn state_path(&self) -> &std::path::Path {
        &self.state_path
    }

    /// The exits of this host's children, for the loop to collect when [`TOKEN_EXIT`] is ready.
    pub fn children(&self) -> Rc<Children> {
        self.children.clone()
    }

    /// A socket terminal: the shim makes it look like a tty and shares its state through the
    /// state file.
    fn spawn_socket(&mut self, req: &SpawnRequest, io: IoId) -> io::Result<(Terminal, Spawned)> {
        let (ours, theirs) = super::socket::socketpair()?;
        set_nonblocking(ours.as_raw_fd(), true)?;
        super::socket::set_send_buffer(&theirs, PROGRAM_SEND_BUFFER)?;
        let (dev, ino) = fd::identity(&theirs)?;
        let slot_index = self.free_slots.pop().unwrap_or_else(|| {
            self.next_slot += 1;
            self.next_slot - 1
        });
        let offset = self.state.slot(slot_index)?;
        let token = random_token();
        let mut env = req.env.clone();
        let preload = match env.iter().find(|(k, _)| k == "LD_PRELOAD") {
            Some((_, v)) if !v.is_empty() => format!("{}:{v}", self.shim.display()),
            _ => self.shim.display().to_string(),
        };
        env.retain(|(k, _)| k != "LD_PRELOAD");
        env.push(("LD_PRELOAD".into(), preload));
        env.push((
            ENV_STATE.into(),
            format!("{}:{offset}", self.state_path.display()),
        ));
        env.push((ENV_TOKEN.into(), token.clone()));
        env.push((ENV_TTY.into(), format!("{dev}:{ino}")));
        let slot = SlotInit {
            fd: self.state.raw_fd(),
            offset,
            bytes: StateFile::slot_bytes(&req.termios, req.rows, req.cols),
        };
        let cwd = PathBuf::from(&req.cwd);
        let pid = process::launch(
            &Launch {
                argv: &req.argv,
                shell: &req.shell,
                cwd: &cwd,
                env: &env,
                controlling_tty: false,
            },
            theirs.as_raw_fd(),
            Some(&slot),
        )?;
        drop(theirs);
        let spawned = Spawned {
            io,
            pid,
            token,
            slot: offset,
            tty: String::new(),
            backend: Backend::Socket,
        };
        let terminal = Terminal {
            fd: ours,
            pid,
            slot_index: Some(slot_index),
            interest: READABLE,
            armed: true,
            steady: false,
            prompt: false,
            program_end: Some(ino as u32),
        };
        Ok((terminal, spawned))
    }

    /// The master of a pseudo-terminal, if `slot` names one.
    fn pty_master(&self, slot: u64) -> Option<RawFd> {
        if slot & PTY_SLOT == 0 {
            return None;
        }
        self.terminals
            .get(&(slot & !PTY_SLOT))
            .map(|t| t.fd.as_raw_fd())
    }

    fn terminal(&self, io: IoId) -> io::Result<&Terminal> {
        self.terminals
            .get(&io)
            .ok_or_else(|| io::Error::from_raw_os_error(libc::EBADF))
    }
}

/// 128 random bits as hex, from the kernel.
fn random_token() -> String {
    let mut b = [0u8; 16];
    // SAFETY: getrandom fills the buffer.
    let n = unsafe { libc::getrandom(b.as_mut_ptr().cast(), b.len(), 0) };
    if n != b.len() as isize {
        // Extremely unlikely; fall back to something process-unique.
        let t = Instant::now().elapsed().as_nanos() ^ std::process::id() as u128;
        b = t.to_le_bytes();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A pseudo-terminal: the program runs as it would under tmux, with no shim (it could not
/// reach this program anyway, and a real terminal needs none).
fn spawn_pty(req: &SpawnRequest, io: IoId, shim: &Path) -> io::Result<(Terminal, Spawned)> {
    let pty = pty::open(&req.termios, req.cols, req.rows)?;
    set_nonblocking(pty.master.as_raw_fd(), true)?;
    // An environment inherited from a socket session carries that session's shim settings;
    // they would point the shim at a terminal this program does not have.
    let mut env: Vec<(String, String)> = req
        .env
        .iter()
        .filter(|(k, _)| ![ENV_STATE, ENV_TOKEN, ENV_TTY].contains(&k.as_str()))
        .cloned()
        .collect();
    let shim = shim.to_string_lossy();
    for (k, v) in &mut env {
        if k == "LD_PRELOAD" {
            *v = v
                .split([':', ' '])
                .filter(|p| !p.is_empty() && *p != shim)
                .collect::<Vec<_>>()
                .join(":");
        }
    }
    env.retain(|(k, v)| k != "LD_PRELOAD" || !v.is_empty());
    let cwd = PathBuf::from(&req.cwd);
    let pid = process::launch(
        &Launch {
            argv: &req.argv,
            shell: &req.shell,
            cwd: &cwd,
            env: &env,
            controlling_tty: true,
        },
        pty.subsidiary.as_raw_fd(),
        None,
    )?;
    // Only the program holds the subsidiary side now, so the master reads end of file (EIO)
    // once the program and everything it started have let go of it.
    drop(pty.subsidiary);
    let spawned = Spawned {
        io,
        pid,
        token: String::new(),
        slot: PTY_SLOT | io,
        tty: pty.path,
        backend: Backend::Pty,
    };
    let terminal = Terminal {
        fd: pty.master,
        pid,
        slot_index: None,
        interest: READABLE,
        armed: true,
        steady: false,
        prompt: false,
        program_end: None,
    };
    Ok((terminal, spawned))
}

impl Clock for HostOs {
    fn now_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn wall_time(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    }
}

impl Programs for HostOs {
    fn spawn(&mut self, req: &SpawnRequest) -> io::Result<Spawned> {
        let io = self.next_io;
        let (terminal, spawned) = match req.backend {
            Backend::Socket => self.spawn_socket(req, io)?,
            Backend::Pty => spawn_pty(req, io, &self.shim)?,
        };
        self.next_io += 1;
        self.gathered.add(
            terminal.fd.as_raw_fd(),
            TOKEN_TERMINAL | io,
            READABLE | ONCE,
        )?;
        self.children.watch(terminal.pid, io, true);
        self.terminals.insert(io, terminal);
        Ok(spawned)
    }

    fn read(&mut self, io: IoId) -> io::Result<&[u8]> {
        let fd = self.terminal(io)?.fd.as_raw_fd();
        let n = fd::read(fd, &mut self.read_buf)?;
        Ok(&self.read_buf[..n])
    }

    fn write(&mut self, io: IoId, data: &[u8]) -> io::Result<usize> {
        fd::write(self.terminal(io)?.fd.as_raw_fd(), data)
    }

    fn pending_output(&self, io: IoId) -> usize {
        self.terminal(io)
            .map_or(0, |t| fd::readable_bytes(t.fd.as_raw_fd()))
    }

    fn output_fill(&self, io: IoId) -> Option<u32> {
        let ino = self.terminals.get(&io)?.program_end?;
        self.diag.as_ref()?.send_buffer_fill(ino)
    }

    fn watch(&mut self, io: IoId, want: Watch) {
        let interest =
            if want.readable { READABLE } else { 0 } | if want.writable { WRITABLE } else { 0 };
        let Some(t) = self.terminals.get_mut(&io) else {
            return;
        };
        let (fd, token) = (t.fd.as_raw_fd(), TOKEN_TERMINAL | io);
        // A steady watch stays armed after a report: a program whose frames are read as they
        // come cost an epoll_ctl a frame to watch again, one of the four system calls of each
        // (`SYSCALLS=1 bench/scale.sh redraw 200`).
        let steady = want.steady && interest == READABLE;
        let flags = if steady { interest } else { interest | ONCE };
        // A spent watch that is not wanted again costs nothing: a pane put off until the
        // batch boundary stops being watched by the event that reported it.
        let current = if t.armed {
            t.interest == interest && t.steady == steady
        } else {
            interest == 0
        };
        // A terminal changes sets when it is watched again, so a spent watch stays spent.
        let moves = t.prompt != want.prompt && (t.armed || interest != 0);
        let set = |prompt| set_of(&self.epoll, &self.gathered, prompt);
        if moves {
            set(t.prompt).remove(fd);
            let _ = set(want.prompt).add(fd, token, flags);
            t.prompt = want.prompt;
            (t.armed, t.steady) = (true, steady);
        } else if !current {
            let _ = set(t.prompt).modify(fd, token, flags);
            (t.armed, t.steady) = (true, steady);
        }
        t.interest = interest;
    }

    fn watch_fired(&mut self, io: IoId) {
        if let Some(t) = self.terminals.get_mut(&io) {
            t.armed = t.steady;
        }
    }

    fn close(&mut self, io: IoId) {
        if let Some(t) = self.terminals.remove(&io) {
            set_of(&self.epoll, &self.gathered, t.prompt).remove(t.fd.as_raw_fd());
            if let Some(i) = t.slot_index {
                self.free_slots.push(i);
            }
            // Its exit is still watched and reported, but nobody will ask for its status.
            self.children.closed(t.pid);
        }
    }

    /// Nothing to do: every child is collected when it ends, watched or not.
    fn release(&mut self, _io: IoId) {}

    fn reap(&mut self, pid: i32) -> Option<i32> {
        self.children.reap(pid)
    }

    fn signal_group(&mut self, pgrp: i32, signal: i32) {
        process::signal_group(pgrp, signal);
    }

    fn set_window_size(&mut self, slot: u64, cols: u16, rows: u16) {
        if slot & PTY_SLOT != 0 {
            if let Some(master) = self.pty_master(slot) {
                let _ = pty::set_window_size(master, cols, rows);
            }
            return;
        }
        let _ = self.state.write_winsize(slot, rows, cols);
    }

    fn foreground_group(&self, slot: u64) -> Option<i32> {
        if slot & PTY_SLOT != 0 {
            return self.pty_master(slot).and_then(pty::foreground_group);
        }
        self.state.read_pgrp(slot).ok().filter(|&p| p > 0)
    }

    fn process_cwd(&self, pid: i32) -> Option<String> {
        process::current_dir(pid)
    }

    fn process_name(&self, pid: i32) -> Option<String> {
        process::command_name(pid)
    }

    fn is_shell(&self, path: &str) -> bool {
        process::is_shell(path)
    }

    fn user_shell(&self, shell_variable: Option<&str>) -> String {
        process::user_shell(shell_variable)
    }

    fn host_name(&self) -> String {
        process::host_name()
    }

    fn user(&self) -> User {
        User {
            id: super::socket::my_uid(),
            name: process::user_name().unwrap_or_default(),
        }
    }

    fn read_file(&self, path: &str) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    fn write_file(&mut self, path: &str, data: &[u8], append: bool) -> io::Result<()> {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .append(append)
            .truncate(!append)
            .mode(0o644)
            .open(path)?
            .write_all(data)
    }

    fn spawn_pipe(
        &mut self,
        command: &str,
        cwd: &str,
        env: &[(String, String)],
        to_child: bool,
        from_child: bool,
    ) -> io::Result<PipeId> {
        let (ours, theirs) = super::socket::socketpair()?;
        set_nonblocking(ours.as_raw_fd(), true)?;
        let pid = process::launch_pipe(&process::PipeLaunch {
            command,
            cwd: Path::new(cwd),
            env,
            socket: theirs.as_raw_fd(),
            to_child,
            from_child,
        })?;
        drop(theirs);
        let id = self.next_io;
        self.next_io += 1;
        self.epoll
            .add(ours.as_raw_fd(), TOKEN_PIPE | id, READABLE)?;
        self.children.watch(pid, id, false);
        self.pipes.insert(id, ours);
        Ok(id)
    }

    fn pipe_read(&mut self, id: PipeId, buf: &mut [u8]) -> io::Result<usize> {
        let p = self.pipes.get(&id).ok_or(io::ErrorKind::NotFound)?;
        fd::read(p.as_raw_fd(), buf)
    }

    fn pipe_write(&mut self, id: PipeId, data: &[u8]) -> io::Result<usize> {
        let p = self.pipes.get(&id).ok_or(io::ErrorKind::NotFound)?;
        // MSG_NOSIGNAL: a command that has gone is an error here, not a SIGPIPE for a host
        // that embeds the engine without ignoring it.
        // SAFETY: data is readable for its length.
        let n = unsafe {
            libc::send(
                p.as_raw_fd(),
                data.as_ptr().cast(),
                data.len(),
                libc::MSG_NOSIGNAL | libc::MSG_DONTWAIT,
            )
        };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(n as usize)
    }

    fn pipe_watch(&mut self, id: PipeId, readable: bool, writable: bool) {
        if let Some(p) = self.pipes.get(&id) {
            let interest =
                if readable { READABLE } else { 0 } | if writable { WRITABLE } else { 0 };
            let _ = self.epoll.modify(p.as_raw_fd(), TOKEN_PIPE | id, interest);
        }
    }

    fn close_pipe(&mut self, id: PipeId) {
        // The command sees end of file and usually exits soon; it is collected when it does.
        if let Some(p) = self.pipes.remove(&id) {
            self.epoll.remove(p.as_raw_fd());
        }
    }

    fn start_job(
        &mut self,
        command: &str,
        cwd: &str,
        env: &[(String, String)],
    ) -> io::Result<(IoId, i32)> {
        let pid = launch_detached(command, cwd, env)?;
        let id = self.next_io;
        self.next_io += 1;
        self.children.watch(pid, id, true);
        Ok((id, pid))
    }

    fn regex_compiler(&self) -> Option<crate::engine::copy_mode::RegexCompiler> {
        Some(super::regex::compile)
    }

    fn spawn_shell(
        &mut self,
        command: &str,
        cwd: &str,
        env: &[(String, String)],
    ) -> io::Result<()> {
        // Nobody watches it: it is collected, as every child is, when it ends.
        launch_detached(command, cwd, env).map(drop)
    }
}

/// Starts `/bin/sh -c command` with nothing to read or write (/dev/null); its pid.
fn launch_detached(command: &str, cwd: &str, env: &[(String, String)]) -> io::Result<i32> {
    process::launch_pipe(&process::PipeLaunch {
        command,
        cwd: Path::new(cwd),
        env,
        socket: -1,
        to_child: false,
        from_child: false,
    })
}

/// The set a terminal is in: the loop's own if its events are wanted at once.
fn set_of<'a>(loop_set: &'a Epoll, gathered: &'a Epoll, prompt: bool) -> &'a Epoll {
    if prompt {
        loop_set
    } else {
        gathered
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tty::Termios;

    /// Reads the program's output until it contains `want` (or a few seconds pass).
    fn read_until(host: &mut HostOs, io: IoId, out: &mut Vec<u8>, want: &str) -> bool {
        let deadline = Instant::now() + std::time::Duration::from_secs(5);
        while Instant::now() < deadline {
            match host.read(io) {
                Ok(data) if !data.is_empty() => out.extend_from_slice(data),
                _ => std::thread::sleep(std::time::Duration::from_millis(10)),
            }
            if String::from_utf8_lossy(out).contains(want) {
                return true;
            }
        }
        false
    }

    fn pty_program(script: &str) -> SpawnRequest {
        SpawnRequest {
            argv: vec!["/bin/sh".into(), "-c".into(), script.into()],
            shell: "/bin/sh".into(),
            cwd: "/".into(),
            env: vec![("PATH".into(), "/usr/bin:/bin".into())],
            cols: 80,
            rows: 24,
            termios: Termios::pane_default(),
            backend: Backend::Pty,
        }
    }

    /// Which of the two sets reports the terminal `io` within two seconds: (loop's, gathered).
    /// Other reports are passed over: the loop's set also holds the SIGCHLD signalfd, which
    /// any test's child ending makes readable.
    fn reported_by(epoll: &Epoll, gathered: &Epoll, io: IoId) -> (bool, bool) {
        let has = |set: &Epoll| {
            let events = set.wait(Some(10)).unwrap();
            events.iter().any(|e| e.token == TOKEN_TERMINAL | io)
        };
        let deadline = Instant::now() + std::time::Duration::from_secs(2);
        while Instant::now() < deadline {
            let seen = (has(epoll), has(gathered));
            if seen != (false, false) {
                return seen;
            }
        }
        (false, false)
    }

    /// Output wanted at once, watched once.
    const READ_AT_ONCE: Watch = Watch {
        readable: true,
        writable: false,
        prompt: true,
        steady: false,
    };

    /// A host with a loop's set and a gathered set of its own, its state in a new directory
    /// named after `what`.
    fn host_with_two_sets(what: &str) -> (std::path::PathBuf, Rc<Epoll>, Rc<Epoll>, HostOs) {
        let dir = std::env::temp_dir().join(format!("zp-hostos-{what}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (epoll, gathered) = (
            Rc::new(Epoll::new().unwrap()),
            Rc::new(Epoll::new().unwrap()),
        );
        let (state, shim) = (dir.join("state"), dir.join("no-shim.so"));
        let host = HostOs::new(epoll.clone(), gathered.clone(), state, shim).unwrap();
        (dir, epoll, gathered, host)
    }

    #[test]
    fn terminals_wanted_at_once_are_reported_by_the_loops_set_and_others_by_the_gathered_one() {
        let (dir, epoll, gathered, mut host) = host_with_two_sets("sets");
        let req = pty_program("echo one; read line; echo two; read line; echo three; sleep 5");
        let s = host.spawn(&req).unwrap();
        let mut out = Vec::new();
        // A new terminal is gathered.
        assert_eq!(reported_by(&epoll, &gathered, s.io), (false, true));
        host.watch_fired(s.io);
        assert!(read_until(&mut host, s.io, &mut out, "one"));
        // Wanted at once: it moves to the loop's set when watched again.
        let prompt = READ_AT_ONCE;
        host.watch(s.io, prompt);
        host.write(s.io, b"\n").unwrap();
        assert_eq!(reported_by(&epoll, &gathered, s.io), (true, false));
        host.watch_fired(s.io);
        assert!(read_until(&mut host, s.io, &mut out, "two"));
        // And back.
        host.watch(
            s.io,
            Watch {
                prompt: false,
                ..prompt
            },
        );
        host.write(s.io, b"\n").unwrap();
        assert_eq!(reported_by(&epoll, &gathered, s.io), (false, true));
        assert!(read_until(&mut host, s.io, &mut out, "three"));
        host.close(s.io);
        process::signal_group(s.pid, libc::SIGKILL);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A steady watch reports output again without being renewed after a report; a one-shot
    /// watch reports once until it is renewed.
    #[test]
    fn a_steady_watch_stays_after_a_report_and_a_one_shot_watch_does_not() {
        let (dir, epoll, gathered, mut host) = host_with_two_sets("steady");
        let s = host
            .spawn(&pty_program("while read line; do echo got$line; done"))
            .unwrap();
        let steady = Watch {
            steady: true,
            ..READ_AT_ONCE
        };
        host.watch(s.io, steady);
        let mut out = Vec::new();
        for line in ["a", "b", "c"] {
            host.write(s.io, format!("{line}\n").as_bytes()).unwrap();
            assert_eq!(
                reported_by(&epoll, &gathered, s.io),
                (true, false),
                "{line}"
            );
            host.watch_fired(s.io);
            assert!(read_until(&mut host, s.io, &mut out, &format!("got{line}")));
        }
        let once = Watch {
            steady: false,
            ..steady
        };
        host.watch(s.io, once);
        host.write(s.io, b"d\n").unwrap();
        assert_eq!(reported_by(&epoll, &gathered, s.io), (true, false));
        host.watch_fired(s.io);
        assert!(read_until(&mut host, s.io, &mut out, "gotd"));
        host.write(s.io, b"e\n").unwrap();
        assert_eq!(reported_by(&epoll, &gathered, s.io), (false, false));
        host.watch(s.io, once);
        assert_eq!(reported_by(&epoll, &gathered, s.io), (true, false));
        host.close(s.io);
        process::signal_group(s.pid, libc::SIGKILL);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn pty_window_size_and_foreground_go_through_the_master() {
        let dir = std::env::temp_dir().join(format!("zp-hostos-pty-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let epoll = Rc::new(Epoll::new().unwrap());
        let gathered = Rc::new(Epoll::new().unwrap());
        // The PTY backend preloads nothing, so the shim path is never opened.
        let state = dir.join("state");
        let mut host = HostOs::new(epoll, gathered, state, dir.join("no-shim.so")).unwrap();
        let script = "trap 'stty size' WINCH; echo ready; while :; do sleep 0.05; done";
        let s = host.spawn(&pty_program(script)).unwrap();
        assert_eq!(s.backend, Backend::Pty);
        assert!(s.tty.starts_with("/dev/pts/"), "{}", s.tty);
        let mut out = Vec::new();
        assert!(read_until(&mut host, s.io, &mut out, "ready"));
        // The program is its session's leader and runs in the foreground of its terminal.
        assert_eq!(host.foreground_group(s.slot), Some(s.pid));
        host.set_window_size(s.slot, 91, 17);
        assert!(
            read_until(&mut host, s.io, &mut out, "17 91"),
            "{}",
            String::from_utf8_lossy(&out)
        );
        host.close(s.io);
        process::signal_group(s.pid, libc::SIGKILL);
        // A closed terminal's slot names nothing any more.
        assert_eq!(host.foreground_group(s.slot), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
