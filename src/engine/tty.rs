//! The terminal a session's programs see on the socket backend, and the protocol the shim
//! (`shim/shim.c`, preloaded into every session program) speaks with the engine.
//!
//! A session's terminal is one end of a socketpair. Three things a PTY would hold live
//! elsewhere:
//!
//! - **The state slot.** One shared file per server (`<socket>.state`, in the private socket
//!   directory) holds a [`SLOT_SIZE`]-byte slot per session, at the offset given to the shim in
//!   `ZEROPTY_SHIM_STATE=PATH:OFFSET`. Layout (native endian):
//!
//!   | offset | size | field |
//!   |---|---|---|
//!   | 0 | 4 | magic [`SLOT_MAGIC`] |
//!   | 4 | 4 | writer lock (0 free, 1 held; taken with an atomic exchange) |
//!   | 8 | 8 | `struct winsize` (rows, cols, xpixel, ypixel as u16) — written by the engine |
//!   | 16 | 4 | foreground process group (`tcgetpgrp`) |
//!   | 20 | 4 | session id (`tcgetsid`) |
//!   | 24 | 60 | `struct termios` as glibc lays it out (x86_64/aarch64) |
//!   | 84 | 4 | generation, incremented by every termios or process-group write |
//!
//!   The shim reads the window size from the slot on every `TIOCGWINSZ`, so a resize is the
//!   engine writing the slot and then sending SIGWINCH to the foreground group.
//!
//! - **Mode changes, in band.** `tcsetattr` and `tcsetpgrp` write the slot *and* write a
//!   marker into the output stream, so the engine learns from which output byte on the new
//!   termios applies (output processing such as ONLCR is applied by the engine per byte):
//!   `ESC _ zeropty:TOKEN:T:HEX ESC \` carries the 60 termios bytes as 120 lowercase hex digits;
//!   `ESC _ zeropty:TOKEN:P:PGRP ESC \` carries the new foreground group in decimal. `TOKEN` is
//!   the session's random token (`ZEROPTY_SHIM_TOKEN`), so program output cannot forge a marker
//!   by accident; anything that is not a well-formed marker with the right token passes
//!   through to the screen unchanged.
//!
//! - **End of file, in band.** A socket cannot return one empty read and carry on, so when the
//!   line discipline sends EOF (C-d in canonical mode) the engine writes
//!   `ESC _ zeropty:TOKEN:EOF ESC \` to the program; the shim's `read` consumes it and returns 0.
//!   In canonical mode the shim's `read` returns at most one line, as a tty does.
//!
//! The shim knows its terminal by `ZEROPTY_SHIM_TTY=DEV:INO` (the socket's `st_dev:st_ino`):
//! only descriptors on that socket are terminals, in the session's processes and their children.
//!
//! This module is pure: marker scanning, termios decoding and the default terminal settings.

use memchr::memmem;
use std::sync::LazyLock;

/// Size of one session's slot in the state file.
pub const SLOT_SIZE: usize = 128;
pub const SLOT_MAGIC: u32 = 0x5a50_5459;
pub const SLOT_WINSIZE: usize = 8;
pub const SLOT_PGRP: usize = 16;
pub const SLOT_SID: usize = 20;
pub const SLOT_TERMIOS: usize = 24;
pub const SLOT_GENERATION: usize = 84;
/// `sizeof(struct termios)` with glibc on 64-bit Linux.
pub const TERMIOS_SIZE: usize = 60;

pub const ENV_STATE: &str = "ZEROPTY_SHIM_STATE";
pub const ENV_TOKEN: &str = "ZEROPTY_SHIM_TOKEN";
pub const ENV_TTY: &str = "ZEROPTY_SHIM_TTY";

const MARKER_PREFIX: &[u8] = b"\x1b_zeropty:";
/// Longest marker: prefix, 32-digit token, kind, 120 hex digits, terminator, with room.
const MARKER_MAX: usize = 200;
/// The search for [`MARKER_PREFIX`], built once: every pane's scanner shares it.
static MARKER_FINDER: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new(MARKER_PREFIX));

/// Termios fields the engine acts on (offsets follow glibc's `struct termios`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Termios {
    pub iflag: u32,
    pub oflag: u32,
    pub cflag: u32,
    pub lflag: u32,
    pub cc: [u8; 32],
}

/// Flag and control-character numbers as Linux defines them.
pub mod flags {
    pub const ICRNL: u32 = 0o400;
    pub const INLCR: u32 = 0o100;
    pub const IGNCR: u32 = 0o200;
    pub const IXON: u32 = 0o2000;
    pub const IUTF8: u32 = 0o40000;
    pub const ISTRIP: u32 = 0o40;
    pub const OPOST: u32 = 0o1;
    pub const ONLCR: u32 = 0o4;
    pub const OCRNL: u32 = 0o10;
    pub const ISIG: u32 = 0o1;
    pub const ICANON: u32 = 0o2;
    pub const ECHO: u32 = 0o10;
    pub const ECHOE: u32 = 0o20;
    pub const ECHOK: u32 = 0o40;
    pub const ECHONL: u32 = 0o100;
    pub const NOFLSH: u32 = 0o200;
    pub const ECHOCTL: u32 = 0o1000;
    pub const ECHOKE: u32 = 0o4000;
    pub const IEXTEN: u32 = 0o100000;
    pub const VINTR: usize = 0;
    pub const VQUIT: usize = 1;
    pub const VERASE: usize = 2;
    pub const VKILL: usize = 3;
    pub const VEOF: usize = 4;
    pub const VTIME: usize = 5;
    pub const VMIN: usize = 6;
    pub const VSTART: usize = 8;
    pub const VSTOP: usize = 9;
    pub const VSUSP: usize = 10;
    pub const VEOL: usize = 11;
    pub const VREPRINT: usize = 12;
    pub const VDISCARD: usize = 13;
    pub const VWERASE: usize = 14;
    pub const VLNEXT: usize = 15;
    pub const VEOL2: usize = 16;
}

impl Termios {
    /// What a new tmux pane starts with: Linux's default tty settings, IUTF8, and DEL as erase.
    pub fn pane_default() -> Termios {
        use flags::*;
        let mut cc = [0u8; 32];
        cc[VINTR] = 0x03;
        cc[VQUIT] = 0x1c;
        cc[VERASE] = 0x7f;
        cc[VKILL] = 0x15;
        cc[VEOF] = 0x04;
        cc[VMIN] = 1;
        cc[VSTART] = 0x11;
        cc[VSTOP] = 0x13;
        cc[VSUSP] = 0x1a;
        cc[VREPRINT] = 0x12;
        cc[VDISCARD] = 0x0f;
        cc[VWERASE] = 0x17;
        cc[VLNEXT] = 0x16;
        Termios {
            iflag: ICRNL | IXON | IUTF8,
            oflag: OPOST | ONLCR,
            // B38400 | CS8 | CREAD | HUPCL
            cflag: 0o17 | 0o60 | 0o200 | 0o2000,
            lflag: ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
            cc,
        }
    }

    /// Decodes glibc's `struct termios` bytes.
    pub fn from_bytes(b: &[u8; TERMIOS_SIZE]) -> Termios {
        let word = |o: usize| u32::from_ne_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let mut cc = [0u8; 32];
        cc.copy_from_slice(&b[17..49]);
        Termios {
            iflag: word(0),
            oflag: word(4),
            cflag: word(8),
            lflag: word(12),
            cc,
        }
    }

    /// Encodes as glibc's `struct termios` (line discipline 0, speeds B38400).
    pub fn to_bytes(&self) -> [u8; TERMIOS_SIZE] {
        let mut b = [0u8; TERMIOS_SIZE];
        b[0..4].copy_from_slice(&self.iflag.to_ne_bytes());
        b[4..8].copy_from_slice(&self.oflag.to_ne_bytes());
        b[8..12].copy_from_slice(&self.cflag.to_ne_bytes());
        b[12..16].copy_from_slice(&self.lflag.to_ne_bytes());
        b[17..49].copy_from_slice(&self.cc);
        b[52..56].copy_from_slice(&0o17u32.to_ne_bytes());
        b[56..60].copy_from_slice(&0o17u32.to_ne_bytes());
        b
    }

    pub fn has_l(&self, bit: u32) -> bool {
        self.lflag & bit != 0
    }

    pub fn has_i(&self, bit: u32) -> bool {
        self.iflag & bit != 0
    }

    /// Output processing turns LF into CR LF.
    pub fn onlcr(&self) -> bool {
        self.oflag & flags::OPOST != 0 && self.oflag & flags::ONLCR != 0
    }
}

/// An event the shim reported in band.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShimEvent {
    Termios(Termios),
    ForegroundGroup(i32),
}

/// One piece of a session's output stream: program bytes, or a shim event between them.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    Output(&'a [u8]),
    Event(ShimEvent),
}

/// The EOF marker the engine writes to a program for a canonical-mode C-d.
pub fn eof_marker(token: &str) -> Vec<u8> {
    format!("\x1b_zeropty:{token}:EOF\x1b\\").into_bytes()
}

/// Splits a session's output into program bytes and shim events.
///
/// A marker split across reads is held back until the rest arrives (at most [`MARKER_MAX`]
/// bytes); bytes that only look like the start of a marker are released as output once they
/// cannot be one.
#[derive(Clone, Debug)]
pub struct MarkerScanner {
    token: Box<[u8]>,
    carry: Vec<u8>,
}

impl MarkerScanner {
    pub fn new(token: &str) -> MarkerScanner {
        MarkerScanner {
            token: token.as_bytes().into(),
            carry: Vec::new(),
        }
    }

    /// Calls `f` for each piece of `input`, in order.
    pub fn scan(&mut self, input: &[u8], mut f: impl FnMut(Piece<'_>)) {
        let joined;
        let data: &[u8] = if self.carry.is_empty() {
            input
        } else {
            let mut v = std::mem::take(&mut self.carry);
            v.extend_from_slice(input);
            joined = v;
            &joined
        };
        let mut start = 0;
        let mut i = 0;
        loop {
            // Markers are rare and agent output has an escape every few bytes: searching for
            // the whole prefix at once keeps the scan off the per-escape path (a byte-wise
            // search for ESC and a comparison at each was 9% of the server's CPU under 400
            // agent replays, `perf` on `bench/scale.sh cast 400`).
            let at = match MARKER_FINDER.find(&data[i..]) {
                Some(off) => i + off,
                None => match partial_prefix_at(data, i) {
                    Some(at) => at,
                    None => break,
                },
            };
            match self.marker_at(&data[at..]) {
                MarkerMatch::No => i = at + 1,
                MarkerMatch::Partial => {
                    if at > start {
                        f(Piece::Output(&data[start..at]));
                    }
                    self.carry = data[at..].to_vec();
                    return;
                }
                MarkerMatch::Yes(len, event) => {
                    if at > start {
                        f(Piece::Output(&data[start..at]));
                    }
                    if let Some(e) = event {
                        f(Piece::Event(e));
                    }
                    start = at + len;
                    i = start;
                }
            }
        }
        if start < data.len() {
            f(Piece::Output(&data[start..]));
        }
    }

    fn marker_at(&self, d: &[u8]) -> MarkerMatch {
        let p = MARKER_PREFIX;
        let n = d.len().min(p.len());
        if d[..n] != p[..n] {
            return MarkerMatch::No;
        }
        if d.len() < p.len() {
            return MarkerMatch::Partial;
        }
        let body = &d[p.len()..];
        let Some(end) = find(body, b"\x1b\\") else {
            // Still incomplete if the only ESC is the last byte (the start of the terminator).
            let stray_esc = body
                .iter()
                .position(|&b| b == 0x1b)
                .is_some_and(|i| i + 1 < body.len());
            return if d.len() < MARKER_MAX && !stray_esc {
                MarkerMatch::Partial
            } else {
                MarkerMatch::No
            };
        };
        let content = &body[..end];
        let mut parts = content.splitn(3, |&b| b == b':');
        let (Some(token), Some(kind)) = (parts.next(), parts.next()) else {
            return MarkerMatch::No;
        };
        if token != &*self.token {
            return MarkerMatch::No;
        }
        let payload = parts.next().unwrap_or(b"");
        let event = match kind {
            b"T" => parse_termios_hex(payload).map(ShimEvent::Termios),
            b"P" => std::str::from_utf8(payload)
                .ok()
                .and_then(|s| s.parse().ok())
                .map(ShimEvent::ForegroundGroup),
            _ => None,
        };
        MarkerMatch::Yes(p.len() + end + 2, event)
    }

    /// Bytes held back waiting for the rest of a possible marker.
    pub fn held(&self) -> usize {
        self.carry.len()
    }

    /// Releases held-back bytes as output (when the program has gone quiet or exited).
    pub fn flush(&mut self, mut f: impl FnMut(&[u8])) {
        if !self.carry.is_empty() {
            f(&std::mem::take(&mut self.carry));
        }
    }
}

enum MarkerMatch {
    No,
    Partial,
    Yes(usize, Option<ShimEvent>),
}

/// Where, at or after `from`, the end of `data` holds the start of a marker's prefix cut
/// short (the rest may come with the next read).
fn partial_prefix_at(data: &[u8], from: usize) -> Option<usize> {
    let tail = data.len().saturating_sub(MARKER_PREFIX.len() - 1).max(from);
    (tail..data.len()).find(|&at| MARKER_PREFIX.starts_with(&data[at..]))
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn parse_termios_hex(hex: &[u8]) -> Option<Termios> {
    if hex.len() != 2 * TERMIOS_SIZE {
        return None;
    }
    let mut b = [0u8; TERMIOS_SIZE];
    for (i, pair) in hex.chunks(2).enumerate() {
        let s = std::str::from_utf8(pair).ok()?;
        b[i] = u8::from_str_radix(s, 16).ok()?;
    }
    Some(Termios::from_bytes(&b))
}

/// Formats a termios marker as the shim writes it (used by tests and by the engine's own
/// initial settings).
pub fn termios_marker(token: &str, t: &Termios) -> Vec<u8> {
    let hex: String = t.to_bytes().iter().map(|b| format!("{b:02x}")).collect();
    format!("\x1b_zeropty:{token}:T:{hex}\x1b\\").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(s: &mut MarkerScanner, input: &[u8]) -> (Vec<u8>, Vec<ShimEvent>) {
        let (mut out, mut events) = (Vec::new(), Vec::new());
        s.scan(input, |p| match p {
            Piece::Output(b) => out.extend_from_slice(b),
            Piece::Event(e) => events.push(e),
        });
        (out, events)
    }

    #[test]
    fn termios_round_trips_through_glibc_layout() {
        let t = Termios::pane_default();
        assert_eq!(Termios::from_bytes(&t.to_bytes()), t);
        assert_eq!(std::mem::size_of::<libc::termios>(), TERMIOS_SIZE);
    }

    #[test]
    fn markers_are_removed_and_reported_in_order() {
        let mut s = MarkerScanner::new("abc");
        let mut raw = Termios::pane_default();
        raw.lflag = 0;
        let mut input = b"before".to_vec();
        input.extend(termios_marker("abc", &raw));
        input.extend(b"after\x1b_zeropty:abc:P:42\x1b\\end");
        let (out, events) = pieces(&mut s, &input);
        assert_eq!(out, b"beforeafterend");
        assert_eq!(
            events,
            vec![ShimEvent::Termios(raw), ShimEvent::ForegroundGroup(42)]
        );
    }

    #[test]
    fn wrong_token_passes_through_as_output() {
        let mut s = MarkerScanner::new("abc");
        let input = b"x\x1b_zeropty:nope:P:1\x1b\\y";
        let (out, events) = pieces(&mut s, input);
        assert_eq!(out, input.to_vec());
        assert!(events.is_empty());
    }

    #[test]
    fn split_markers_are_reassembled() {
        let mut s = MarkerScanner::new("tok");
        let marker = b"\x1b_zeropty:tok:P:7\x1b\\";
        for cut in 1..marker.len() {
            let mut all_out = Vec::new();
            let mut all_events = Vec::new();
            // The cut marker both alone in a read and at the end of a longer one.
            let joined = [&b"a"[..], &marker[..cut]].concat();
            let parts = [&b"a"[..], &marker[..cut], &marker[cut..], b"b"];
            let joined_parts = [&joined[..], &marker[cut..], b"b"];
            for part in parts.into_iter().chain(joined_parts) {
                let (o, e) = pieces(&mut s, part);
                all_out.extend(o);
                all_events.extend(e);
            }
            assert_eq!(all_out, b"abab", "cut at {cut}");
            assert_eq!(all_events, vec![ShimEvent::ForegroundGroup(7); 2]);
        }
    }

    #[test]
    fn lookalike_prefix_is_released() {
        let mut s = MarkerScanner::new("tok");
        let (out, _) = pieces(&mut s, b"\x1b_zero");
        assert!(out.is_empty());
        assert_eq!(s.held(), 6);
        let (out, _) = pieces(&mut s, b"ing title\x1b\\");
        assert_eq!(out, b"\x1b_zeroing title\x1b\\");
    }
}
