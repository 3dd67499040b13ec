//! The line discipline: what Linux's `n_tty` does to the keys written to a terminal, for
//! sessions whose programs talk to a socket instead of a PTY.
//!
//! Responsibilities:
//!
//! - **Input processing**: ISTRIP, IUCLC (with IEXTEN), IGNCR, ICRNL, INLCR and PARMRK's
//!   doubling of 0xff, in the kernel's order.
//! - **Canonical mode** (ICANON): line editing with VERASE (a whole UTF-8 character under
//!   IUTF8), VKILL, VWERASE, VLNEXT and VREPRINT (the last three with IEXTEN); lines end at NL,
//!   VEOL, VEOL2 (IEXTEN) or VEOF. Every completed line is its own [`LdAction::ToProgram`],
//!   because a canonical read returns at most one line; VEOF ends a line without adding a byte,
//!   and on an empty line it is an [`LdAction::Eof`] (one read returning 0). A line holds at most
//!   4095 bytes (the kernel's 4096-byte buffer less one): past that every key still echoes, but
//!   each new byte replaces the line's last one, so a newline ends the line at 4095 bytes plus
//!   the newline.
//! - **Non-canonical mode**: bytes go to the program as soon as a write has been processed. With
//!   none of ISTRIP, IGNCR, ICRNL, INLCR, IXON, PARMRK, IUCLC, ICANON, ISIG and ECHO set, bytes
//!   pass through untouched.
//! - **Echo** (ECHO, ECHONL, ECHOE, ECHOK, ECHOKE, ECHOCTL, ECHOPRT), output-processed as the
//!   tty would (OPOST with ONLCR, OCRNL, ONOCR, ONLRET, OLCUC, XTABS). Erasing a tab backs up
//!   to the column the tab started at, which needs the cursor column: echoes move it, and so does
//!   program output, reported through [`LineDiscipline::program_output`].
//! - **Signals** (ISIG): VINTR, VQUIT and VSUSP send SIGINT, SIGQUIT and SIGTSTP. Unless NOFLSH is
//!   set they also flush: the line being edited, bytes and lines of the same write not yet
//!   handed over, and every echo of that write (the kernel flushes the echo buffer and the
//!   output tmux has not read yet, which in practice is all of it).
//! - **Flow control** (IXON, IXANY): VSTOP and VSTART stop and start output. While output is
//!   stopped echoes are held (and an ISIG flush drops them), as the tty holds them.
//!
//! Invariants:
//!
//! - One call of [`LineDiscipline::input`] is one write to the terminal: the kernel processes a
//!   write as one batch, and what a signal key flushes depends on it.
//! - Echo comes out once per call, as a single [`LdAction::Echo`] at the end; none is emitted
//!   while output is stopped.
//! - [`LdAction::StopOutput`] and [`LdAction::StartOutput`] are emitted only when the state
//!   changes, and alternate.
//! - Signals are emitted at the key that caused them, before the lines and echo of the call that
//!   follow it; lines completed before a signal that does not flush come before it.
//!
//! This module is pure: no I/O and no clock.

use super::tty::flags::*;
use super::tty::Termios;

/// Size of the kernel's read buffer (`N_TTY_BUF_SIZE`): a canonical line holds one byte less.
pub const N_TTY_BUF_SIZE: usize = 4096;
/// The longest canonical line, terminator excluded.
pub const MAX_CANON: usize = N_TTY_BUF_SIZE - 1;

// Flags not in `tty::flags` (Linux values).
const IUCLC: u32 = 0o1000;
const PARMRK: u32 = 0o10;
const IXANY: u32 = 0o4000;
const OLCUC: u32 = 0o2;
const ONOCR: u32 = 0o20;
const ONLRET: u32 = 0o40;
const TABDLY: u32 = 0o14000;
const XTABS: u32 = 0o14000;
const ECHOPRT: u32 = 0o2000;
const EXTPROC: u32 = 0o200000;

/// Held echo beyond this many buffer bytes is dropped, oldest first, while output is stopped.
const ECHO_DISCARD_WATERMARK: usize = N_TTY_BUF_SIZE - (256 + 32);

/// What the line discipline asks the engine to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LdAction {
    /// Bytes for the program; in canonical mode exactly one line (one read).
    ToProgram(Vec<u8>),
    /// Bytes to show on the screen, as the tty echoes them (already output-processed).
    Echo(Vec<u8>),
    /// A signal for the foreground process group.
    Signal(i32),
    /// One read returns 0 (VEOF on an empty canonical line).
    Eof,
    /// IXON stop: the program's output stops reaching the screen.
    StopOutput,
    /// Output flows again.
    StartOutput,
}

/// One entry of the echo queue, as the kernel's echo buffer holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EchoOp {
    /// A byte written through output processing.
    Byte(u8),
    /// 0xff, written as is.
    Ff,
    /// A control character shown as `^X` (ECHOCTL).
    Ctl(u8),
    /// The cursor column moves back one (after an ECHOPRT multi-byte character).
    MoveBackCol,
    /// The column where the line's echo starts is the current one.
    SetCanonCol,
    /// Back up over a tab: the columns before it on the line, modulo 8, and whether a tab
    /// precedes it (bit 7), in which case the line's start column does not count.
    EraseTab(u8),
}

impl EchoOp {
    /// Bytes the entry takes in the kernel's echo buffer.
    fn size(self) -> usize {
        match self {
            EchoOp::Byte(_) => 1,
            EchoOp::Ff | EchoOp::Ctl(_) | EchoOp::MoveBackCol | EchoOp::SetCanonCol => 2,
            EchoOp::EraseTab(_) => 3,
        }
    }

    /// Whether processing it writes anything (nothing can be written while output is stopped).
    fn needs_room(self) -> bool {
        !matches!(self, EchoOp::MoveBackCol | EchoOp::SetCanonCol)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Erase {
    Char,
    Word,
    Line,
}

/// Linux's line discipline state for one terminal.
#[derive(Clone, Debug, Default)]
pub struct LineDiscipline {
    /// Canonical mode, as of the last termios seen (`None` before the first).
    icanon: Option<bool>,
    /// The canonical line being edited.
    line: Vec<u8>,
    /// Non-canonical bytes of the current batch, not yet handed over.
    raw: Vec<u8>,
    /// Non-canonical mode: a byte was queued since the mode switch or the last flush.
    raw_queued: bool,
    /// Lines (and EOFs) completed in the current write, handed over at its end.
    ready: Vec<LdAction>,
    /// Echo entries not yet committed (the batch in progress).
    pending: Vec<EchoOp>,
    /// Committed echo entries waiting for output to start again.
    held: std::collections::VecDeque<EchoOp>,
    held_size: usize,
    /// Echo bytes produced during the current write.
    echo: Vec<u8>,
    /// The cursor column as the tty counts it, and the column the line's echo started at.
    column: u32,
    canon_column: u32,
    /// ECHOPRT: inside a `\...` erase sequence.
    erasing: bool,
    /// The next byte is literal (VLNEXT).
    lnext: bool,
    /// Output stopped by VSTOP.
    stopped: bool,
}

impl LineDiscipline {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether VSTOP has stopped output.
    pub fn output_stopped(&self) -> bool {
        self.stopped
    }

    /// The canonical line being edited (empty in non-canonical mode).
    pub fn pending_line(&self) -> &[u8] {
        &self.line
    }

    /// Processes keys written to the terminal (one write) with the program's current termios.
    pub fn input(&mut self, t: &Termios, keys: &[u8], out: &mut Vec<LdAction>) {
        self.sync_mode(t, out);
        let mut rest = keys;
        while !rest.is_empty() {
            let n = self.room(t).min(rest.len());
            let (now, later) = rest.split_at(n);
            self.receive(t, now, out);
            self.end_batch(t);
            rest = later;
        }
        self.finish(out);
    }

    /// Termios changed: a switch of ICANON (or EXTPROC) hands the pending line to the program,
    /// as Linux does, and turning IXON off restarts stopped output.
    pub fn set_termios(&mut self, old: &Termios, new: &Termios, out: &mut Vec<LdAction>) {
        let toggled = (old.lflag ^ new.lflag) & (ICANON | EXTPROC) != 0;
        if toggled || self.icanon != Some(new.has_l(ICANON)) {
            self.switch_mode(new, out);
        }
        if !new.has_i(IXON) && old.has_i(IXON) && self.stopped {
            self.start(out);
            self.process_echoes(new);
        }
        self.finish(out);
    }

    /// Output the program wrote: moves the column the tty tracks for tab erasure (only with
    /// OPOST, as the kernel counts columns only when it processes output).
    pub fn program_output(&mut self, t: &Termios, bytes: &[u8]) {
        if t.oflag & OPOST != 0 {
            for &c in bytes {
                self.output_char(t, c, None);
            }
        }
    }

    fn sync_mode(&mut self, t: &Termios, out: &mut Vec<LdAction>) {
        match self.icanon {
            None => self.icanon = Some(t.has_l(ICANON)),
            Some(c) if c != t.has_l(ICANON) => self.switch_mode(t, out),
            Some(_) => {}
        }
    }

    /// ICANON or EXTPROC changed: the bytes of the unfinished line become readable.
    fn switch_mode(&mut self, new: &Termios, out: &mut Vec<LdAction>) {
        let mut line = std::mem::take(&mut self.line);
        if !line.is_empty() {
            if new.has_l(ICANON) {
                // Still canonical (EXTPROC toggled): the last byte is taken as the line's end,
                // and an end byte of 0 is not copied, as VEOF's marker is not.
                if line.last() == Some(&0) {
                    line.pop();
                }
                out.push(if line.is_empty() {
                    LdAction::Eof
                } else {
                    LdAction::ToProgram(line)
                });
            } else {
                out.push(LdAction::ToProgram(line));
            }
        }
        self.icanon = Some(new.has_l(ICANON));
        self.raw_queued = false;
        self.erasing = false;
        self.lnext = false;
    }

    fn canonical(&self, t: &Termios) -> bool {
        self.icanon == Some(true) && !t.has_l(EXTPROC)
    }

    /// How many bytes the kernel takes in its next batch. A canonical line that fills the
    /// buffer keeps taking bytes one at a time, each overwriting the line's last byte.
    fn room(&mut self, t: &Termios) -> usize {
        let used = if self.canonical(t) {
            self.line.len()
        } else {
            0
        };
        let mut room = (N_TTY_BUF_SIZE - used.min(N_TTY_BUF_SIZE)) as isize;
        if t.has_i(PARMRK) {
            room = (room + 2) / 3;
        }
        room -= 1;
        if room <= 0 {
            if room < 0 {
                self.line.pop();
            }
            room = 1;
        }
        room as usize
    }

    /// Whether the tty treats input processing as a no-op and copies bytes straight through.
    fn is_raw(t: &Termios) -> bool {
        t.iflag & (ISTRIP | IUCLC | IGNCR | ICRNL | INLCR | IXON | PARMRK) == 0
            && t.lflag & (ICANON | ISIG | ECHO) == 0
    }

    fn receive(&mut self, t: &Termios, bytes: &[u8], out: &mut Vec<LdAction>) {
        let preops = t.has_i(ISTRIP) || (t.has_i(IUCLC) && t.has_l(IEXTEN));
        if Self::is_raw(t) || (t.has_l(EXTPROC) && !preops) {
            for &c in bytes {
                self.queue(t, c);
            }
            return;
        }
        for &b in bytes {
            let c = preprocess(t, b);
            if self.lnext {
                self.lnext = false;
                self.receive_char(t, c, out);
            } else if t.has_l(EXTPROC) {
                self.queue(t, c);
            } else if is_special(t, c) {
                self.receive_special(t, c, out);
            } else {
                self.receive_char(t, c, out);
            }
        }
    }

    /// An ordinary byte: echoed and queued.
    fn receive_char(&mut self, t: &Termios, c: u8, out: &mut Vec<LdAction>) {
        self.any_restarts(t, out);
        if t.has_l(ECHO) {
            self.finish_erasing();
            if self.line_empty() {
                self.pending.push(EchoOp::SetCanonCol);
            }
            self.echo_char(t, c);
        }
        self.queue_marked(t, c);
    }

    /// Queues a character for the program; with PARMRK a literal 0xff is doubled, as Linux
    /// marks it so it cannot be mistaken for a parity mark.
    fn queue_marked(&mut self, t: &Termios, c: u8) {
        if c == 0xff && t.has_i(PARMRK) {
            self.queue(t, c);
        }
        self.queue(t, c);
    }

    fn receive_special(&mut self, t: &Termios, c: u8, out: &mut Vec<LdAction>) {
        if t.has_i(IXON) && (c == t.cc[VSTART] || c == t.cc[VSTOP]) {
            if c == t.cc[VSTART] {
                self.start(out);
                self.process_echoes(t);
            } else {
                self.stop(out);
            }
            return;
        }
        if t.has_l(ISIG) {
            let sig = if c == t.cc[VINTR] {
                Some(libc::SIGINT)
            } else if c == t.cc[VQUIT] {
                Some(libc::SIGQUIT)
            } else if c == t.cc[VSUSP] {
                Some(libc::SIGTSTP)
            } else {
                None
            };
            if let Some(sig) = sig {
                self.signal_char(t, sig, c, out);
                return;
            }
        }
        self.any_restarts(t, out);
        let mut c = c;
        if c == b'\r' {
            if t.has_i(IGNCR) {
                return;
            }
            if t.has_i(ICRNL) {
                c = b'\n';
            }
        } else if c == b'\n' && t.has_i(INLCR) {
            c = b'\r';
        }
        if self.icanon == Some(true) && self.canon_char(t, c) {
            return;
        }
        if t.has_l(ECHO) {
            self.finish_erasing();
            if c == b'\n' {
                self.echo_raw(b'\n');
            } else {
                if self.line_empty() {
                    self.pending.push(EchoOp::SetCanonCol);
                }
                self.echo_char(t, c);
            }
        }
        self.queue_marked(t, c);
    }

    /// Canonical editing and line ends; false if `c` is an ordinary byte after all.
    fn canon_char(&mut self, t: &Termios, c: u8) -> bool {
        let iexten = t.has_l(IEXTEN);
        if c == t.cc[VERASE] || c == t.cc[VKILL] || (c == t.cc[VWERASE] && iexten) {
            self.eraser(t, c);
            return true;
        }
        if c == t.cc[VLNEXT] && iexten {
            self.lnext = true;
            if t.has_l(ECHO) {
                self.finish_erasing();
                if t.has_l(ECHOCTL) {
                    self.echo_raw(b'^');
                    self.echo_raw(8);
                }
            }
            return true;
        }
        if c == t.cc[VREPRINT] && t.has_l(ECHO) && iexten {
            self.finish_erasing();
            self.echo_char(t, c);
            self.echo_raw(b'\n');
            for i in 0..self.line.len() {
                let b = self.line[i];
                self.echo_char(t, b);
            }
            return true;
        }
        if c == b'\n' {
            if t.has_l(ECHO) || t.has_l(ECHONL) {
                self.echo_raw(b'\n');
            }
            self.line.push(c);
            self.complete_line(false);
            return true;
        }
        if c == t.cc[VEOF] {
            self.complete_line(true);
            return true;
        }
        if c == t.cc[VEOL] || (c == t.cc[VEOL2] && iexten) {
            if t.has_l(ECHO) {
                if self.line.is_empty() {
                    self.pending.push(EchoOp::SetCanonCol);
                }
                self.echo_char(t, c);
            }
            if c == 0xff && t.has_i(PARMRK) {
                self.line.push(c);
            }
            self.line.push(c);
            self.complete_line(false);
            return true;
        }
        false
    }

    fn complete_line(&mut self, eof: bool) {
        let line = std::mem::take(&mut self.line);
        self.ready.push(if eof && line.is_empty() {
            LdAction::Eof
        } else {
            LdAction::ToProgram(line)
        });
    }

    /// VERASE, VWERASE and VKILL.
    fn eraser(&mut self, t: &Termios, c: u8) {
        if self.line.is_empty() {
            return;
        }
        let kind = if c == t.cc[VERASE] {
            Erase::Char
        } else if c == t.cc[VWERASE] {
            Erase::Word
        } else {
            Erase::Line
        };
        let echo = t.has_l(ECHO);
        if kind == Erase::Line {
            if !echo {
                self.line.clear();
                return;
            }
            if !(t.has_l(ECHOK) && t.has_l(ECHOKE) && t.has_l(ECHOE)) {
                self.line.clear();
                self.finish_erasing();
                self.echo_char(t, t.cc[VKILL]);
                if t.has_l(ECHOK) {
                    self.echo_raw(b'\n');
                }
                return;
            }
        }
        let utf8 = t.has_i(IUTF8);
        let cont = |b: u8| utf8 && b & 0xc0 == 0x80;
        let mut seen_alnums = 0;
        while !self.line.is_empty() {
            // The start of the last character (its lead byte under IUTF8).
            let mut head = self.line.len();
            let mut c;
            loop {
                head -= 1;
                c = self.line[head];
                if !cont(c) || head == 0 {
                    break;
                }
            }
            if cont(c) {
                break;
            }
            if kind == Erase::Word {
                if is_alnum(c) || c == b'_' {
                    seen_alnums += 1;
                } else if seen_alnums > 0 {
                    break;
                }
            }
            let erased = self.line.split_off(head);
            if echo {
                if t.has_l(ECHOPRT) {
                    if !self.erasing {
                        self.echo_raw(b'\\');
                        self.erasing = true;
                    }
                    self.echo_char(t, c);
                    for &b in &erased[1..] {
                        self.echo_raw(b);
                        self.pending.push(EchoOp::MoveBackCol);
                    }
                } else if kind == Erase::Char && !t.has_l(ECHOE) {
                    self.echo_char(t, t.cc[VERASE]);
                } else if c == b'\t' {
                    let mut cols: u32 = 0;
                    let mut after_tab = false;
                    for &b in self.line.iter().rev() {
                        if b == b'\t' {
                            after_tab = true;
                            break;
                        } else if is_cntrl(b) {
                            if t.has_l(ECHOCTL) {
                                cols += 2;
                            }
                        } else if !cont(b) {
                            cols += 1;
                        }
                    }
                    let n = (cols & 7) as u8 | if after_tab { 0x80 } else { 0 };
                    self.pending.push(EchoOp::EraseTab(n));
                } else {
                    let ctl = is_cntrl(c);
                    let times = match (ctl, t.has_l(ECHOCTL)) {
                        (true, true) => 2,
                        (true, false) => 0,
                        (false, _) => 1,
                    };
                    for _ in 0..times {
                        self.echo_raw(8);
                        self.echo_raw(b' ');
                        self.echo_raw(8);
                    }
                }
            }
            if kind == Erase::Char {
                break;
            }
        }
        if self.line.is_empty() && echo {
            self.finish_erasing();
        }
    }

    fn signal_char(&mut self, t: &Termios, sig: i32, c: u8, out: &mut Vec<LdAction>) {
        if t.has_l(NOFLSH) {
            out.append(&mut self.ready);
            out.push(LdAction::Signal(sig));
        } else {
            out.push(LdAction::Signal(sig));
            self.flush();
        }
        if t.has_i(IXON) {
            self.start(out);
        }
        if t.has_l(ECHO) {
            self.echo_char(t, c);
        } else {
            self.process_echoes(t);
        }
    }

    /// The flush of a signal key: input not yet read and output not yet shown.
    fn flush(&mut self) {
        self.line.clear();
        self.raw.clear();
        self.raw_queued = false;
        self.ready.clear();
        self.pending.clear();
        self.held.clear();
        self.held_size = 0;
        self.echo.clear();
        self.erasing = false;
    }

    fn any_restarts(&mut self, t: &Termios, out: &mut Vec<LdAction>) {
        if self.stopped && t.has_i(IXON) && t.has_i(IXANY) {
            self.start(out);
            self.process_echoes(t);
        }
    }

    fn start(&mut self, out: &mut Vec<LdAction>) {
        if self.stopped {
            self.stopped = false;
            out.push(LdAction::StartOutput);
        }
    }

    fn stop(&mut self, out: &mut Vec<LdAction>) {
        if !self.stopped {
            self.stopped = true;
            out.push(LdAction::StopOutput);
        }
    }

    /// Whether the line is empty as the kernel sees it for echo purposes (the read position
    /// of the last line end equals the write position).
    fn line_empty(&self) -> bool {
        if self.icanon == Some(true) {
            self.line.is_empty()
        } else {
            !self.raw_queued
        }
    }

    fn queue(&mut self, t: &Termios, c: u8) {
        if self.canonical(t) {
            self.line.push(c);
        } else {
            self.raw.push(c);
            self.raw_queued = true;
        }
    }

    fn echo_raw(&mut self, c: u8) {
        self.pending.push(if c == 0xff {
            EchoOp::Ff
        } else {
            EchoOp::Byte(c)
        });
    }

    fn echo_char(&mut self, t: &Termios, c: u8) {
        if c == 0xff {
            self.pending.push(EchoOp::Ff);
        } else if t.has_l(ECHOCTL) && is_cntrl(c) && c != b'\t' {
            self.pending.push(EchoOp::Ctl(c));
        } else {
            self.pending.push(EchoOp::Byte(c));
        }
    }

    fn finish_erasing(&mut self) {
        if self.erasing {
            self.echo_raw(b'/');
            self.erasing = false;
        }
    }

    /// The end of one kernel batch: raw bytes become readable and echoes are written.
    fn end_batch(&mut self, t: &Termios) {
        if !self.raw.is_empty() {
            let raw = std::mem::take(&mut self.raw);
            self.ready.push(LdAction::ToProgram(raw));
        }
        if (t.has_l(ECHO) || t.has_l(ECHONL)) && !self.pending.is_empty() {
            self.process_echoes(t);
        }
    }

    /// Writes committed echoes, or holds them while output is stopped.
    fn process_echoes(&mut self, t: &Termios) {
        for op in self.pending.drain(..) {
            self.held_size += op.size();
            self.held.push_back(op);
        }
        while let Some(&op) = self.held.front() {
            if self.stopped && op.needs_room() {
                break;
            }
            self.held.pop_front();
            self.held_size -= op.size();
            self.render(t, op);
        }
        while self.held_size >= ECHO_DISCARD_WATERMARK {
            let Some(op) = self.held.pop_front() else {
                break;
            };
            self.held_size -= op.size();
        }
    }

    fn render(&mut self, t: &Termios, op: EchoOp) {
        match op {
            EchoOp::Byte(c) => {
                if t.oflag & OPOST != 0 {
                    let mut echo = std::mem::take(&mut self.echo);
                    self.output_char(t, c, Some(&mut echo));
                    self.echo = echo;
                } else {
                    self.echo.push(c);
                }
            }
            EchoOp::Ff => {
                self.echo.push(0xff);
                self.column += 1;
            }
            EchoOp::Ctl(c) => {
                self.echo.extend_from_slice(&[b'^', c ^ 0o100]);
                self.column += 2;
            }
            EchoOp::MoveBackCol => self.column = self.column.saturating_sub(1),
            EchoOp::SetCanonCol => self.canon_column = self.column,
            EchoOp::EraseTab(n) => {
                let mut n = n as u32;
                if n & 0x80 == 0 {
                    n += self.canon_column;
                }
                for _ in 0..8 - (n & 7) {
                    self.echo.push(8);
                    self.column = self.column.saturating_sub(1);
                }
            }
        }
    }

    /// Output processing of one byte (OPOST set), tracking the column; writes to `w` if given.
    fn output_char(&mut self, t: &Termios, c: u8, w: Option<&mut Vec<u8>>) {
        let o = t.oflag;
        let mut c = c;
        let mut bytes: &[u8] = &[];
        let spaces = [b' '; 8];
        let one;
        match c {
            b'\n' => {
                if o & ONLRET != 0 {
                    self.column = 0;
                }
                if o & ONLCR != 0 {
                    self.column = 0;
                    self.canon_column = 0;
                    bytes = b"\r\n";
                } else {
                    self.canon_column = self.column;
                }
            }
            b'\r' => {
                if o & ONOCR != 0 && self.column == 0 {
                    return;
                }
                if o & OCRNL != 0 {
                    c = b'\n';
                    if o & ONLRET != 0 {
                        self.column = 0;
                        self.canon_column = 0;
                    }
                } else {
                    self.column = 0;
                    self.canon_column = 0;
                }
            }
            b'\t' => {
                let n = 8 - (self.column & 7);
                self.column += n;
                if o & TABDLY == XTABS {
                    bytes = &spaces[..n as usize];
                }
            }
            8 => self.column = self.column.saturating_sub(1),
            _ => {
                if !is_cntrl(c) {
                    if o & OLCUC != 0 {
                        c = to_upper(c);
                    }
                    if !(t.has_i(IUTF8) && c & 0xc0 == 0x80) {
                        self.column += 1;
                    }
                }
            }
        }
        if let Some(w) = w {
            if bytes.is_empty() {
                one = [c];
                bytes = &one;
            }
            w.extend_from_slice(bytes);
        }
    }

    /// The end of a write: completed lines, readable bytes and echo go out.
    fn finish(&mut self, out: &mut Vec<LdAction>) {
        out.append(&mut self.ready);
        if !self.echo.is_empty() {
            out.push(LdAction::Echo(std::mem::take(&mut self.echo)));
        }
    }
}

/// ISTRIP, then IUCLC (with IEXTEN).
fn preprocess(t: &Termios, c: u8) -> u8 {
    let mut c = c;
    if t.has_i(ISTRIP) {
        c &= 0x7f;
    }
    if t.has_i(IUCLC) && t.has_l(IEXTEN) {
        c = to_lower(c);
    }
    c
}

/// Whether `c` needs more than echo-and-queue under `t` (the kernel's character map).
fn is_special(t: &Termios, c: u8) -> bool {
    if c == 0 {
        // The disabled-character value is never special.
        return false;
    }
    let cc = &t.cc;
    let is = |i: usize| c == cc[i];
    (c == b'\r' && (t.has_i(IGNCR) || t.has_i(ICRNL)))
        || (c == b'\n' && t.has_i(INLCR))
        || (t.has_l(ICANON)
            && (is(VERASE)
                || is(VKILL)
                || is(VEOF)
                || c == b'\n'
                || is(VEOL)
                || (t.has_l(IEXTEN)
                    && (is(VWERASE)
                        || is(VLNEXT)
                        || is(VEOL2)
                        || (t.has_l(ECHO) && is(VREPRINT))))))
        || (t.has_i(IXON) && (is(VSTART) || is(VSTOP)))
        || (t.has_l(ISIG) && (is(VINTR) || is(VQUIT) || is(VSUSP)))
}

// The kernel's character classes (lib/ctype.c: Latin-1, with 0x80-0x9f in no class).
const UPPER: u8 = 1;
const LOWER: u8 = 2;
const DIGIT: u8 = 4;
const CNTRL: u8 = 8;

fn ctype(c: u8) -> u8 {
    match c {
        0..=0x1f | 0x7f => CNTRL,
        b'0'..=b'9' => DIGIT,
        b'A'..=b'Z' | 0xc0..=0xd6 | 0xd8..=0xde => UPPER,
        b'a'..=b'z' | 0xdf..=0xf6 | 0xf8..=0xff => LOWER,
        _ => 0,
    }
}

fn is_cntrl(c: u8) -> bool {
    ctype(c) == CNTRL
}

fn is_alnum(c: u8) -> bool {
    ctype(c) & (UPPER | LOWER | DIGIT) != 0
}

fn to_upper(c: u8) -> u8 {
    if ctype(c) == LOWER {
        c - 32
    } else {
        c
    }
}

fn to_lower(c: u8) -> u8 {
    if ctype(c) == UPPER {
        c + 32
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(t: &Termios, writes: &[&[u8]]) -> (Vec<LdAction>, Vec<u8>) {
        let mut ld = LineDiscipline::new();
        let mut out = Vec::new();
        for w in writes {
            ld.input(t, w, &mut out);
        }
        let mut echo = Vec::new();
        let mut rest = Vec::new();
        for a in out {
            match a {
                LdAction::Echo(e) => echo.extend(e),
                a => rest.push(a),
            }
        }
        (rest, echo)
    }

    fn prog(b: &[u8]) -> LdAction {
        LdAction::ToProgram(b.to_vec())
    }

    #[test]
    fn lines_are_edited_and_delivered_one_per_read() {
        let t = Termios::pane_default();
        let (acts, echo) = run(&t, &[b"ab\x7fc\rxy\r"]);
        assert_eq!(acts, vec![prog(b"ac\n"), prog(b"xy\n")]);
        assert_eq!(echo, b"ab\x08 \x08c\r\nxy\r\n");
    }

    #[test]
    fn erase_takes_a_whole_utf8_character_and_two_columns_for_control() {
        let t = Termios::pane_default();
        let (acts, echo) = run(&t, &["é\x7f".as_bytes(), b"\x01\x7f\r"]);
        assert_eq!(acts, vec![prog(b"\n")]);
        assert_eq!(echo, "é\x08 \x08^A\x08 \x08\x08 \x08\r\n".as_bytes());
    }

    #[test]
    fn eof_at_line_start_is_a_zero_read_and_mid_line_delivers_without_newline() {
        let t = Termios::pane_default();
        let (acts, echo) = run(&t, &[b"\x04", b"ab\x04"]);
        assert_eq!(acts, vec![LdAction::Eof, prog(b"ab")]);
        assert_eq!(echo, b"ab");
    }

    #[test]
    fn signal_flushes_the_whole_write() {
        let t = Termios::pane_default();
        let (acts, echo) = run(&t, &[b"x\ryz\x03"]);
        assert_eq!(acts, vec![LdAction::Signal(libc::SIGINT)]);
        assert_eq!(echo, b"^C");
        let mut noflsh = t;
        noflsh.lflag |= NOFLSH;
        let (acts, echo) = run(&noflsh, &[b"x\ryz\x03"]);
        assert_eq!(acts, vec![prog(b"x\n"), LdAction::Signal(libc::SIGINT)]);
        assert_eq!(echo, b"x\r\nyz^C");
    }

    #[test]
    fn stopped_output_holds_echo_until_start() {
        let t = Termios::pane_default();
        let mut ld = LineDiscipline::new();
        let mut out = Vec::new();
        ld.input(&t, b"\x13", &mut out);
        ld.input(&t, b"ab", &mut out);
        assert!(ld.output_stopped());
        assert_eq!(out, vec![LdAction::StopOutput]);
        out.clear();
        ld.input(&t, b"\x11", &mut out);
        assert_eq!(
            out,
            vec![LdAction::StartOutput, LdAction::Echo(b"ab".to_vec())]
        );
        assert_eq!(ld.pending_line(), b"ab");
    }

    #[test]
    fn long_lines_keep_the_first_4095_bytes() {
        let t = Termios::pane_default();
        let mut keys = vec![b'a'; 4094];
        keys.extend_from_slice(b"bcdef\r");
        let (acts, echo) = run(&t, &[&keys]);
        let mut want = vec![b'a'; 4094];
        want.extend_from_slice(b"b\n");
        assert_eq!(acts, vec![LdAction::ToProgram(want)]);
        assert_eq!(echo.len(), 4094 + 5 + 2);
    }

    #[test]
    fn switching_to_raw_hands_over_the_pending_line() {
        let t = Termios::pane_default();
        let mut raw = t;
        raw.lflag &= !ICANON;
        let mut ld = LineDiscipline::new();
        let mut out = Vec::new();
        ld.input(&t, b"abc", &mut out);
        out.clear();
        ld.set_termios(&t, &raw, &mut out);
        assert_eq!(out, vec![prog(b"abc")]);
        assert!(ld.pending_line().is_empty());
    }

    #[test]
    fn tab_erase_backs_up_to_the_tab_start() {
        let t = Termios::pane_default();
        let mut ld = LineDiscipline::new();
        let mut out = Vec::new();
        ld.program_output(&t, b"$ ");
        ld.input(&t, b"ab\t\x7f", &mut out);
        assert_eq!(out, vec![LdAction::Echo(b"ab\t\x08\x08\x08\x08".to_vec())]);
    }
}
