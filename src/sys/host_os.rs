//! The engine's OS interface implemented over real descriptors: socketpair terminals with the
//! shim preloaded, pidfds for exits, one epoll for everything, the shared terminal state file.
//!
//! Tokens in the epoll carry what they belong to in their top byte: [`TOKEN_TERMINAL`] and
//! [`TOKEN_EXIT`] for a program (with the engine's `IoId` below), and the server's own kinds
//! for its listener and clients.
//!
//! Invariants: a terminal's descriptor and pidfd are registered from spawn until `close`;
//! slots of closed terminals are reused.

use super::fd::{self, set_nonblocking};
use super::poll::{Epoll, READABLE, WRITABLE};
use super::process::{self, Launch, SlotInit};
use super::shim::StateFile;
use crate::engine::os::{Clock, IoId, Programs, SpawnRequest, Spawned};
use crate::engine::tty::{ENV_STATE, ENV_TOKEN, ENV_TTY};
use std::collections::HashMap;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Instant;

pub const TOKEN_TERMINAL: u64 = 1 << 56;
pub const TOKEN_EXIT: u64 = 2 << 56;
pub const TOKEN_KIND: u64 = 0xff << 56;

struct Terminal {
    fd: OwnedFd,
    pidfd: OwnedFd,
    pid: i32,
    slot_index: usize,
}

pub struct HostOs {
    epoll: Rc<Epoll>,
    terminals: HashMap<IoId, Terminal>,
    /// Programs whose terminal is closed, not yet collected: (pidfd, pid).
    dying: HashMap<IoId, (OwnedFd, i32)>,
    next_io: IoId,
    state: StateFile,
    state_path: PathBuf,
    shim: PathBuf,
    free_slots: Vec<usize>,
    next_slot: usize,
    start: Instant,
}

impl HostOs {
    pub fn new(epoll: Rc<Epoll>, state_path: PathBuf, shim: PathBuf) -> io::Result<HostOs> {
        Ok(HostOs {
            epoll,
            terminals: HashMap::new(),
            dying: HashMap::new(),
            next_io: 1,
            state: StateFile::create(&state_path)?,
            state_path,
            shim,
            free_slots: Vec::new(),
            next_slot: 0,
            start: Instant::now(),
        })
    }

    pub fn state_path(&self) -> &std::path::Path {
        &self.state_path
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
        let (ours, theirs) = super::socket::socketpair()?;
        set_nonblocking(ours.as_raw_fd(), true)?;
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
        let started = process::launch(
            &Launch {
                argv: &req.argv,
                shell: &req.shell,
                cwd: &cwd,
                env: &env,
            },
            theirs.as_raw_fd(),
            Some(&slot),
        )?;
        drop(theirs);
        let io = self.next_io;
        self.next_io += 1;
        self.epoll
            .add(ours.as_raw_fd(), TOKEN_TERMINAL | io, READABLE)?;
        self.epoll
            .add(started.pidfd.as_raw_fd(), TOKEN_EXIT | io, READABLE)?;
        self.terminals.insert(
            io,
            Terminal {
                fd: ours,
                pidfd: started.pidfd,
                pid: started.pid,
                slot_index,
            },
        );
        Ok(Spawned {
            io,
            pid: started.pid,
            token,
            slot: offset,
            tty: String::new(),
        })
    }

    fn read(&mut self, io: IoId, buf: &mut [u8]) -> io::Result<usize> {
        fd::read(self.terminal(io)?.fd.as_raw_fd(), buf)
    }

    fn write(&mut self, io: IoId, data: &[u8]) -> io::Result<usize> {
        fd::write(self.terminal(io)?.fd.as_raw_fd(), data)
    }

    fn pending_output(&self, io: IoId) -> usize {
        self.terminal(io)
            .map_or(0, |t| fd::readable_bytes(t.fd.as_raw_fd()))
    }

    fn watch(&mut self, io: IoId, readable: bool, writable: bool) {
        if let Ok(t) = self.terminal(io) {
            let interest =
                if readable { READABLE } else { 0 } | if writable { WRITABLE } else { 0 };
            let _ = self
                .epoll
                .modify(t.fd.as_raw_fd(), TOKEN_TERMINAL | io, interest);
        }
    }

    fn close(&mut self, io: IoId) {
        if let Some(t) = self.terminals.remove(&io) {
            self.epoll.remove(t.fd.as_raw_fd());
            self.free_slots.push(t.slot_index);
            // Keep watching for the exit so the process is collected, not left a zombie.
            self.dying.insert(io, (t.pidfd, t.pid));
            self.release(io);
        }
    }

    fn release(&mut self, io: IoId) {
        if let Some((_, pid)) = self.dying.get(&io) {
            if process::try_wait(*pid).is_some() {
                if let Some((pidfd, _)) = self.dying.remove(&io) {
                    self.epoll.remove(pidfd.as_raw_fd());
                }
            }
        }
    }

    fn reap(&mut self, pid: i32) -> Option<i32> {
        process::try_wait(pid)
    }

    fn signal_group(&mut self, pgrp: i32, signal: i32) {
        process::signal_group(pgrp, signal);
    }

    fn set_window_size(&mut self, slot: u64, cols: u16, rows: u16) {
        let _ = self.state.write_winsize(slot, rows, cols);
    }

    fn foreground_group(&self, slot: u64) -> Option<i32> {
        self.state.read_pgrp(slot).ok().filter(|&p| p > 0)
    }

    fn process_cwd(&self, pid: i32) -> Option<String> {
        process::current_dir(pid)
    }

    fn process_name(&self, pid: i32) -> Option<String> {
        process::command_name(pid)
    }

    fn host_name(&self) -> String {
        process::host_name()
    }

    fn read_file(&self, path: &str) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }
}
