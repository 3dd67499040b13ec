//! A pane: one program, its terminal and its screen.
//!
//! Output from the program passes the shim-marker scanner (mode changes arrive in band, in
//! order with the output), then output processing as the program's termios asks (ONLCR), then
//! the screen. Keys for the program pass the line discipline, which may echo to the screen,
//! signal the foreground group or hold a line until it is complete; what it releases waits in
//! the pane's input queue until the terminal accepts it, so a program that never reads cannot
//! block the engine.
//!
//! A pane on the PTY backend has a real terminal: the kernel does the line discipline and
//! output processing and sends no markers, so its output goes straight to the screen and its
//! keys straight to the terminal (echo comes back as output).
//!
//! Output is read in one of three ways, chosen by the engine (see `Engine::io_event`):
//! [`Pane::drain_output`] reads and parses at once (a reader is waiting, or a batch boundary
//! came); a quiet pane's readiness is *deferred* to the next batch boundary (its readability is
//! not watched meanwhile, so it costs no wakeups); and a *busy* pane, whose program writes
//! faster than a batch holds, is read ahead into `backlog` without parsing
//! ([`Pane::read_ahead`]) so its writer never waits on the parser, and parsed once the writer
//! pauses ([`Pane::parse_backlog`]).
//!
//! Invariants: `input[input_sent..]` is exactly what the program has not been given yet; every
//! output byte read from the program is either in `backlog` or has been seen by the screen, in
//! order (nothing is parsed twice or dropped; the backlog is always parsed before newer bytes);
//! `bytes_read` counts them.

use super::ldisc::{LdAction, LineDiscipline};
use super::os::{Backend, IoId, Programs, Watch};
use super::pipe::PanePipe;
use super::tty::{eof_marker, MarkerScanner, Piece, ShimEvent, Termios};
use crate::term::Terminal;
use std::cell::RefCell;
use std::rc::Rc;

/// Most output read from one pane in one turn before others get theirs; the rest stays queued
/// in the socket (the program waits, nothing is lost).
pub const READ_LIMIT_PER_TURN: usize = 4 << 20;

/// The most one read returns (the host's buffer): a shorter read took all there was.
pub const READ_SIZE: usize = 65536;

/// A pane with this much output queued (at a wakeup) or read in one batch interval is busy:
/// its program would soon block on a full socket (a unix socket holds some tens of KB of
/// small writes), so it is read as soon as it writes rather than at the next boundary.
pub const BUSY_BYTES: usize = 16 << 10;

/// Most output a busy pane holds unparsed while its program keeps writing; past it the
/// backlog is parsed even though the writer has not paused, which bounds the memory.
pub const BACKLOG_LIMIT: usize = 8 << 20;

/// The panes whose programs wrote or ended since their engine last looked, shared by an engine
/// and its panes. The engine's sweeps around each command (automatic window names, reaping
/// ended panes) visit these instead of every pane: with 10,000 sessions, sweeping every pane
/// took half of the server's time for each `has-session`.
#[derive(Clone, Default)]
pub struct Arrivals(Rc<RefCell<Vec<u32>>>);

impl Arrivals {
    /// The panes listed since the last call; each pane is listed once until
    /// [`Pane::arrival_seen`].
    pub fn take(&self) -> Vec<u32> {
        std::mem::take(&mut *self.0.borrow_mut())
    }
}

pub struct Pane {
    pub id: u32,
    pub term: Terminal,
    /// The program's terminal, until it is closed.
    pub io: Option<IoId>,
    pub pid: i32,
    pub token: String,
    pub slot: u64,
    pub tty: String,
    /// What the terminal is; on [`Backend::Pty`] the kernel does what the scanner, the line
    /// discipline and output processing do here for a socket.
    pub backend: Backend,
    scanner: MarkerScanner,
    /// The program's terminal settings as of the last output byte read.
    pub termios: Termios,
    ldisc: LineDiscipline,
    /// The foreground process group (signals from C-c etc. go there).
    pub foreground: i32,
    input: Vec<u8>,
    input_sent: usize,
    pub start_command: String,
    pub start_cwd: String,
    /// The program exited (or its terminal closed) and the pane shows what it left.
    pub dead: bool,
    pub dead_status: Option<i32>,
    /// End of file was read from the terminal: no more output will come.
    pub eof: bool,
    pub bytes_read: u64,
    /// When an unterminated string sequence started (monotonic ms), for tmux's timeout.
    pub string_since: Option<u64>,
    /// Output stopped by the program's IXON (C-s): not read until C-q.
    output_stopped: bool,
    pending_signals: Vec<i32>,
    /// The terminal has input waiting for the program to accept it.
    waiting_writable: bool,
    /// `pipe-pane`'s command, if one is open (boxed: few panes have one).
    pub pipe: Option<Box<PanePipe>>,
    /// A copy of the output for control clients (`engine/control.rs`), kept while one on
    /// the pane's session wants it and emptied at the end of each turn.
    pub control_copy: Option<Vec<u8>>,
    /// Output read ahead and not parsed yet (a busy writer's; empty and unallocated otherwise).
    backlog: Vec<u8>,
    /// When output was last read ahead (monotonic ms).
    pub read_ahead_at: u64,
    /// Readiness was reported and the read put off to the next batch boundary; readability
    /// is not watched until then.
    pub deferred: bool,
    /// The program writes faster than a batch interval holds: read as soon as it writes.
    pub busy: bool,
    /// An attached client showed the pane when one last drew it or its output was last
    /// reported, so its events are wanted at once (see [`Watch::prompt`]).
    pub shown: bool,
    /// The last boundary read of this deferred pane found nothing: its program writes a frame
    /// and falls silent, so once a frame is read it may be watched again (see `engine::reads`).
    pub silent_after_frames: bool,
    /// When it was last watched again before its boundary (monotonic ms).
    pub watched_again_at: Option<u64>,
    /// Bytes read since the pane's batch interval began (decides `busy`).
    pub interval_bytes: usize,
    /// Bytes its last boundary read found, with what was read earlier in that interval: a
    /// pane that had next to nothing is asked about at a late look (see `engine::reads`).
    pub last_interval_bytes: usize,
    /// Whether the screen is hot, frozen or cold, and since when.
    pub fold: super::freezer::Fold,
    /// Where the pane lists itself when its program writes or ends (set by the engine that
    /// tracks it), and whether it is listed there now.
    arrivals: Option<Arrivals>,
    arrival_listed: bool,
}

pub struct NewPane {
    pub id: u32,
    pub cols: u32,
    pub rows: u32,
    pub history_limit: u32,
    pub spawned: super::os::Spawned,
    pub termios: Termios,
    pub start_command: String,
    pub start_cwd: String,
    pub title: String,
}

impl Pane {
    pub fn new(p: NewPane) -> Pane {
        let mut term = Terminal::new(p.cols, p.rows, p.history_limit);
        term.set_title(&p.title);
        Pane {
            id: p.id,
            term,
            io: Some(p.spawned.io),
            pid: p.spawned.pid,
            scanner: MarkerScanner::new(&p.spawned.token),
            token: p.spawned.token,
            slot: p.spawned.slot,
            tty: p.spawned.tty,
            backend: p.spawned.backend,
            termios: p.termios,
            ldisc: LineDiscipline::new(),
            foreground: p.spawned.pid,
            input: Vec::new(),
            input_sent: 0,
            start_command: p.start_command,
            start_cwd: p.start_cwd,
            dead: false,
            dead_status: None,
            eof: false,
            bytes_read: 0,
            string_since: None,
            output_stopped: false,
            pending_signals: Vec::new(),
            waiting_writable: false,
            pipe: None,
            control_copy: None,
            backlog: Vec::new(),
            read_ahead_at: 0,
            silent_after_frames: false,
            watched_again_at: None,
            deferred: false,
            busy: false,
            shown: false,
            interval_bytes: 0,
            last_interval_bytes: 0,
            fold: Default::default(),
            arrivals: None,
            arrival_listed: false,
        }
    }

    /// From now on the pane lists itself in `arrivals` when its program writes or ends.
    pub fn report_arrivals(&mut self, arrivals: Arrivals) {
        self.arrivals = Some(arrivals);
    }

    /// The engine has taken the pane's listing: the next output lists it again.
    pub fn arrival_seen(&mut self) {
        self.arrival_listed = false;
    }

    fn list_arrival(&mut self) {
        if let (false, Some(arrivals)) = (self.arrival_listed, &self.arrivals) {
            arrivals.0.borrow_mut().push(self.id);
            self.arrival_listed = true;
        }
    }

    /// Reads and parses what the program has written (up to [`READ_LIMIT_PER_TURN`]), after
    /// any backlog. Returns whether anything was parsed.
    /// A deferred pane's readability is watched again.
    pub fn drain_output(&mut self, os: &mut dyn Programs, now_ms: u64) -> bool {
        if self.deferred {
            self.deferred = false;
            self.update_watch(os);
        }
        self.take_pending(os, now_ms)
    }

    /// [`Pane::drain_output`] for a pane that stays deferred: what is queued is read and
    /// parsed, and readability stays unwatched until the boundary.
    pub fn take_pending(&mut self, os: &mut dyn Programs, now_ms: u64) -> bool {
        // Read whole, then parsed as one write: most of a long output scrolls away within it,
        // and the parser does not write what does (`term/doomed.rs`); parsed a read at a time,
        // 64 KiB of a coloured log never held enough lines to scroll anything away.
        self.read_with(os, READ_LIMIT_PER_TURN, |pane, data| {
            pane.backlog.extend_from_slice(data)
        });
        self.parse_read(os, now_ms)
    }

    /// Parses what was read into the backlog; returns whether there was any.
    fn parse_read(&mut self, os: &mut dyn Programs, now_ms: u64) -> bool {
        let parsed = self.parse_backlog(os, now_ms);
        // At end of file too: the scanner may hold the start of what looked like a marker.
        if !parsed && self.eof {
            self.end_output(os, now_ms);
        }
        parsed
    }

    /// Reads what one read takes (a frame, from a socket: a short read takes all there was)
    /// and parses it, unless it is [`BUSY_BYTES`] or more: a flood, left in the backlog for
    /// the busy pane's pace. Returns the bytes read.
    pub fn take_frame(&mut self, os: &mut dyn Programs, now_ms: u64) -> usize {
        let read = self.read_with(os, READ_SIZE, |pane, data| {
            pane.backlog.extend_from_slice(data)
        });
        if read < BUSY_BYTES {
            self.parse_read(os, now_ms);
        }
        read
    }

    /// Reads what the program has written into the backlog without parsing it, up to
    /// [`BACKLOG_LIMIT`]. Returns the bytes read.
    pub fn read_ahead(&mut self, os: &mut dyn Programs, now_ms: u64) -> usize {
        let room = BACKLOG_LIMIT.saturating_sub(self.backlog.len());
        let read = self.read_with(os, room, |pane, data| pane.backlog.extend_from_slice(data));
        if read > 0 {
            self.read_ahead_at = now_ms;
        }
        read
    }

    /// Ends the wait for the boundary early, for a program silent after its frames: its frame
    /// was read and nothing follows, so its next one is heard by its event (see
    /// `engine::reads`).
    pub fn watch_again(&mut self, os: &mut dyn Programs, now_ms: u64) {
        self.deferred = false;
        self.watched_again_at = Some(now_ms);
        self.update_watch(os);
    }

    /// Bytes the program has written that wait in its terminal to be read.
    pub fn queued_output(&self, os: &dyn Programs) -> usize {
        self.io.map_or(0, |io| os.pending_output(io))
    }

    /// Bytes read ahead and not parsed yet.
    pub fn backlog_len(&self) -> usize {
        self.backlog.len()
    }

    /// Parses the backlog. Returns whether there was any.
    pub fn parse_backlog(&mut self, os: &mut dyn Programs, now_ms: u64) -> bool {
        if self.backlog.is_empty() {
            return false;
        }
        // Taken, not cleared: a busy writer's backlog can be megabytes, and a pane that goes
        // quiet should not keep that much capacity.
        let backlog = std::mem::take(&mut self.backlog);
        self.take_output(&backlog);
        self.end_output(os, now_ms);
        true
    }

    /// After output was parsed: what a program that ended left held, the terminal's replies,
    /// the string timeout, the pipe's copy.
    fn end_output(&mut self, os: &mut dyn Programs, now_ms: u64) {
        if self.eof && self.backlog.is_empty() {
            self.flush_held();
        }
        self.after_output(os, now_ms);
        self.flush_pipe(os);
    }

    /// Reads until the terminal has nothing more (or `limit` bytes), handing each piece to
    /// `sink`. Returns the bytes read; end of file sets `eof`.
    fn read_with(
        &mut self,
        os: &mut dyn Programs,
        limit: usize,
        mut sink: impl FnMut(&mut Pane, &[u8]),
    ) -> usize {
        let Some(io) = self.io else { return 0 };
        if self.output_stopped || self.eof {
            return 0;
        }
        let mut total = 0;
        while total < limit {
            match os.read(io) {
                Ok([]) => {
                    self.eof = true;
                    break;
                }
                Ok(data) => {
                    let n = data.len();
                    total += n;
                    sink(self, data);
                    // A socket's short read took all there was (a PTY's may not: it hands
                    // out a few KB at a time); what comes later is reported again, so the
                    // read that would only say EAGAIN is saved.
                    if n < READ_SIZE && self.backend == Backend::Socket {
                        break;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(_) => {
                    self.eof = true;
                    break;
                }
            }
        }
        self.bytes_read += total as u64;
        if total > 0 || self.eof {
            self.list_arrival();
        }
        self.interval_bytes += total;
        total
    }

    /// Whether what the program writes is copied somewhere (a pipe, control clients): its
    /// output is then read as soon as it comes.
    pub fn copied(&self) -> bool {
        self.pipe.is_some() || self.control_copy.is_some()
    }

    fn copies(&mut self) -> Copies<'_> {
        Copies::of(&mut self.pipe, &mut self.control_copy)
    }

    fn take_output(&mut self, data: &[u8]) {
        if self.backend == Backend::Pty {
            self.copies().copy(data);
            self.term.feed(data);
            return;
        }
        let mut copies = Copies::of(&mut self.pipe, &mut self.control_copy);
        let term = &mut self.term;
        let termios = &mut self.termios;
        let foreground = &mut self.foreground;
        let ldisc = &mut self.ldisc;
        let mut scratch = Vec::new();
        let mut actions = Vec::new();
        self.scanner.scan(data, |piece| match piece {
            Piece::Output(bytes) => {
                // The line discipline follows the cursor column, as Linux does for tab erase.
                ldisc.program_output(termios, bytes);
                feed_processed(term, termios, bytes, &mut scratch, &mut copies)
            }
            Piece::Event(ShimEvent::Termios(t)) => {
                ldisc.set_termios(termios, &t, &mut actions);
                *termios = t;
            }
            Piece::Event(ShimEvent::ForegroundGroup(p)) => *foreground = p,
        });
        // A switch out of canonical mode may hand a pending line to the program.
        self.apply(actions);
    }

    fn flush_held(&mut self) {
        let term = &mut self.term;
        let termios = self.termios;
        let mut copies = Copies::of(&mut self.pipe, &mut self.control_copy);
        let mut scratch = Vec::new();
        self.scanner
            .flush(|b| feed_processed(term, &termios, b, &mut scratch, &mut copies));
    }

    fn after_output(&mut self, os: &mut dyn Programs, now_ms: u64) {
        let replies = self.term.take_replies();
        if !replies.is_empty() {
            self.keys(os, &replies);
        }
        if self.term.in_string() {
            self.string_since.get_or_insert(now_ms);
        } else {
            self.string_since = None;
        }
    }

    /// Sends keys to the program through the line discipline (the engine's on the socket
    /// backend, the kernel's on the PTY backend).
    pub fn keys(&mut self, os: &mut dyn Programs, keys: &[u8]) {
        self.queue_keys(os, keys);
        self.flush_input(os);
    }

    /// [`Pane::keys`], but what reaches the program waits for the next
    /// [`Pane::flush_input`]: commands queue their keys and the engine flushes them once the
    /// turn's replies are out (tmux too writes a pane's input from its event loop after the
    /// command), so a client hears its answer a write and a wakeup sooner: 42 to 37 us per
    /// send-keys from the bash builtin (bench/shell.sh).
    pub fn queue_keys(&mut self, os: &mut dyn Programs, keys: &[u8]) {
        if self.backend == Backend::Pty {
            self.input.extend_from_slice(keys);
            return;
        }
        let mut actions = Vec::new();
        self.ldisc.input(&self.termios, keys, &mut actions);
        self.apply(actions);
        self.signal_pending(os);
        // The echo, which a PTY would have sent as output.
        self.flush_pipe(os);
    }

    /// Bytes for the program exactly as given, bypassing the line discipline (`send-keys` to a
    /// program in raw mode gets the same; this is for pasting and replies).
    pub fn write_raw(&mut self, os: &mut dyn Programs, bytes: &[u8]) {
        self.input.extend_from_slice(bytes);
        self.flush_input(os);
    }

    /// Whether output is stopped (C-s under IXON): the engine then leaves it unread.
    pub fn output_stopped(&self) -> bool {
        self.output_stopped
    }

    /// Bytes queued for the program that it has not accepted yet.
    pub fn input_pending(&self) -> usize {
        self.input.len() - self.input_sent
    }

    /// Gives the program as much queued input as its terminal accepts.
    pub fn flush_input(&mut self, os: &mut dyn Programs) {
        let Some(io) = self.io else {
            self.input.clear();
            self.input_sent = 0;
            return;
        };
        while self.input_sent < self.input.len() {
            match os.write(io, &self.input[self.input_sent..]) {
                Ok(0) => break,
                Ok(n) => self.input_sent += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(_) => {
                    // The program is gone; what it did not take is dropped, as a PTY drops it.
                    self.input_sent = self.input.len();
                }
            }
        }
        if self.input_sent == self.input.len() {
            self.input.clear();
            self.input_sent = 0;
        }
        self.update_watch(os);
        if self.pipe.is_some() {
            self.resume_pipe(os);
        }
    }

    /// Asks the host for the events this pane needs now.
    pub fn update_watch(&mut self, os: &mut dyn Programs) {
        let Some(io) = self.io else { return };
        let writable = self.input_pending() > 0;
        let want = Watch {
            readable: !self.output_stopped && !self.eof && !self.deferred,
            writable,
            prompt: writable || self.busy || self.shown || self.copied(),
            steady: self.silent_after_frames && !self.busy,
        };
        os.watch(io, want);
        self.waiting_writable = writable;
    }

    fn signal_pending(&mut self, os: &mut dyn Programs) {
        if self.pending_signals.is_empty() {
            return;
        }
        let group = os.foreground_group(self.slot).unwrap_or(self.foreground);
        for sig in std::mem::take(&mut self.pending_signals) {
            os.signal_group(group, sig);
        }
    }

    /// Resizes the screen (reflowing it) and tells the program: the window size where its
    /// terminal reports it, and SIGWINCH on the socket backend (a PTY's kernel sends that
    /// itself). Output already written is parsed at the old size first.
    pub fn resize(&mut self, os: &mut dyn Programs, now_ms: u64, cols: u32, rows: u32) {
        self.drain_output(os, now_ms);
        if self.term.cols() == cols && self.term.rows() == rows {
            return;
        }
        self.term.resize(cols, rows);
        if self.io.is_some() {
            os.set_window_size(self.slot, cols as u16, rows as u16);
            if self.backend == super::os::Backend::Socket {
                let group = os.foreground_group(self.slot).unwrap_or(self.foreground);
                os.signal_group(group, super::libc_sig::SIGWINCH);
            }
        }
    }

    /// Closes the terminal: the pane keeps its screen but its program is gone.
    pub fn close(&mut self, os: &mut dyn Programs) {
        self.close_pipe(os);
        if let Some(io) = self.io.take() {
            os.close(io);
        }
        self.input.clear();
        self.input_sent = 0;
    }

    /// Heap bytes of the screen and the queues.
    pub fn heap_bytes(&self) -> usize {
        self.term.heap_bytes()
            + self.input.capacity()
            + self.scanner.held()
            + self.backlog.capacity()
    }

    fn apply(&mut self, actions: Vec<LdAction>) {
        for a in actions {
            match a {
                LdAction::ToProgram(b) => self.input.extend_from_slice(&b),
                LdAction::Echo(b) => {
                    self.copies().copy(&b);
                    self.term.feed(&b)
                }
                LdAction::Signal(sig) => self.pending_signals.push(sig),
                LdAction::Eof => {
                    let marker = eof_marker(&self.token);
                    self.input.extend_from_slice(&marker);
                }
                LdAction::StopOutput => self.output_stopped = true,
                LdAction::StartOutput => self.output_stopped = false,
            }
        }
    }
}

/// Where a pane's output is copied besides its screen: what a PTY would have given tmux.
struct Copies<'a> {
    pipe: Option<&'a mut PanePipe>,
    control: Option<&'a mut Vec<u8>>,
}

impl<'a> Copies<'a> {
    fn of(pipe: &'a mut Option<Box<PanePipe>>, control: &'a mut Option<Vec<u8>>) -> Self {
        Copies {
            pipe: pipe.as_deref_mut(),
            control: control.as_mut(),
        }
    }

    fn copy(&mut self, bytes: &[u8]) {
        if let Some(p) = self.pipe.as_deref_mut() {
            p.copy(bytes);
        }
        if let Some(c) = self.control.as_deref_mut() {
            c.extend_from_slice(bytes);
        }
    }
}

/// Output processing as the kernel does with OPOST|ONLCR, then the screen (and the copies).
fn feed_processed(
    term: &mut Terminal,
    termios: &Termios,
    bytes: &[u8],
    scratch: &mut Vec<u8>,
    copies: &mut Copies<'_>,
) {
    if !termios.onlcr() || !bytes.contains(&b'\n') {
        copies.copy(bytes);
        term.feed(bytes);
        return;
    }
    scratch.clear();
    for &b in bytes {
        if b == b'\n' {
            scratch.push(b'\r');
        }
        scratch.push(b);
    }
    copies.copy(scratch);
    term.feed(scratch);
}
