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
}

/// A started program.
#[derive(Clone, Debug)]
pub struct Spawned {
    pub io: IoId,
    pub pid: i32,
    /// The random token its shim marks in-band messages with.
    pub token: String,
    /// Where its terminal state lives (for window size and foreground group).
    pub slot: u64,
    /// The terminal device, for `#{pane_tty}` (empty on the socket backend).
    pub tty: String,
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

pub trait Clock {
    /// Milliseconds on a monotonic clock.
    fn now_ms(&self) -> u64;
    /// Seconds since the Unix epoch.
    fn wall_time(&self) -> i64;
}

pub trait Programs {
    fn spawn(&mut self, req: &SpawnRequest) -> io::Result<Spawned>;
    /// Reads available output; `Ok(0)` is end of file, `WouldBlock` means nothing waits.
    fn read(&mut self, io: IoId, buf: &mut [u8]) -> io::Result<usize>;
    /// Writes what the terminal accepts without blocking.
    fn write(&mut self, io: IoId, data: &[u8]) -> io::Result<usize>;
    /// Bytes of output waiting to be read.
    fn pending_output(&self, io: IoId) -> usize;
    /// Whether the engine wants to hear when the terminal is readable and writable.
    fn watch(&mut self, io: IoId, readable: bool, writable: bool);
    /// Closes the terminal. The program's exit is still reported (as for an unknown `io`) so
    /// the host can collect it; the engine then calls [`Programs::release`].
    fn close(&mut self, io: IoId);
    /// The engine is done with a closed terminal's program: collect it once it has exited.
    fn release(&mut self, io: IoId);
    /// Collects an exited process: its wait status, or `None` if it still runs.
    fn reap(&mut self, pid: i32) -> Option<i32>;
    fn signal_group(&mut self, pgrp: i32, signal: i32);
    fn set_window_size(&mut self, slot: u64, cols: u16, rows: u16);
    /// The foreground process group the programs set last.
    fn foreground_group(&self, slot: u64) -> Option<i32>;
    fn process_cwd(&self, pid: i32) -> Option<String>;
    /// argv[0] of a process.
    fn process_name(&self, pid: i32) -> Option<String>;
    fn host_name(&self) -> String;
    /// Reads a file for `source-file` and `-f`.
    fn read_file(&self, path: &str) -> io::Result<Vec<u8>>;
}
