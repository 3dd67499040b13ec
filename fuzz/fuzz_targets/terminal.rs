//! Fuzzes the terminal emulator with program output split into reads, interleaved with resizes,
//! captures and the host's string timer.
//!
//! Input layout: three bytes choose the width, height and history limit; the rest is a list of
//! commands, each a command byte followed by its arguments:
//! - `0..=11`: a read of `n + 1` bytes, `n` being the next byte (cut short at the end of input);
//! - `12`: resize to the sizes the next two bytes choose;
//! - `13`: capture with the flags and line numbers the next three bytes choose (also `-a`);
//! - `14`: capture the pending sequence (`-P`, with and without `-C`);
//! - `15`: the host's timer: give up an unterminated string sequence.
//!
//! Checked after every command: no panic, the cursor below the last row never, captures are
//! UTF-8 with one line per selected row, replies stay proportional to input, and the heap
//! stays within a bound set by the size and history limit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zeropty::term::{CaptureOptions, LineSpec, Terminal};

const MIB: usize = 1 << 20;

fn width(b: u8) -> u32 {
    match b {
        0 => 0,
        1..=200 => u32::from(b),
        201..=250 => 80 + u32::from(b - 200) * 9,
        251 | 252 => 500,
        253 => 1000,
        254 => 10_000,
        255 => 70_000,
    }
}

fn height(b: u8) -> u32 {
    match b {
        0..=100 => u32::from(b),
        101..=250 => u32::from(b) % 60,
        _ => 500,
    }
}

fn line(b: u8, rows: u32, hsize: u32) -> Option<LineSpec> {
    let (r, h) = (i64::from(rows), i64::from(hsize));
    match b % 8 {
        0 => None,
        1 => Some(LineSpec::Edge),
        2 => Some(LineSpec::Invalid),
        3 => Some(LineSpec::Line(i64::from(i32::MIN))),
        4 => Some(LineSpec::Line(32767)),
        _ => Some(LineSpec::Line(i64::from(b / 8) - h.min(16) - 2 + r / 2)),
    }
}

struct State {
    t: Terminal,
    cols: u32,
    rows: u32,
    max_cols: usize,
    max_rows: usize,
    hlimit: usize,
}

impl State {
    fn check(&self) {
        let (_, y) = self.t.cursor();
        assert!(y < self.rows, "cursor below the screen");
        assert_eq!((self.t.cols(), self.t.rows()), (self.cols, self.rows));
        // Rows are at worst 12 bytes a cell (an expanded vector that doubled) plus their own
        // 32 bytes and room; a reflow may for a time hold a row per cell. The tables and the
        // parser's buffers are bounded by constants (palette ~4 MiB, graphemes ~10 MiB,
        // strings 1 MiB, title stack 33 MiB at most).
        let cells = (self.max_cols * 2 + 2) * (self.hlimit + self.max_rows + 1);
        let bound = cells * 12 + cells.min(8 * MIB) * 64 + 64 * MIB;
        let heap = self.t.heap_bytes();
        assert!(heap <= bound, "heap {heap} > {bound}");
    }

    fn capture(&self, opts: &CaptureOptions) {
        let out = self.t.capture(opts);
        let text = std::str::from_utf8(&out).expect("capture is UTF-8");
        if !opts.join {
            let hsize = self.t.history_size();
            let (h, last) = (i64::from(hsize), i64::from(hsize + self.rows - 1));
            let resolve = |s: Option<LineSpec>, fallback: i64, edge: i64| match s {
                Some(LineSpec::Edge) => edge,
                None | Some(LineSpec::Invalid) => fallback,
                Some(LineSpec::Line(n)) if n < 0 && -n > h => 0,
                Some(LineSpec::Line(n)) => (h + n).min(last),
            };
            let (a, b) = (resolve(opts.start, h, 0), resolve(opts.end, last, last));
            let lines = (a.max(b) - a.min(b) + 1) as usize;
            assert_eq!(text.matches('\n').count(), lines, "lines captured");
        }
        if let Ok(alt) = self.t.capture_alternate(opts) {
            std::str::from_utf8(&alt).expect("capture -a is UTF-8");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let (cols, rows) = (width(data[0]), height(data[1]));
    let hlimit = [0, 1, 2, 10, 100, 2000][usize::from(data[2] % 6)];
    // Keep the widest screens' history small so that one input stays fast.
    let hlimit = if cols >= 10_000 {
        hlimit.min(20)
    } else {
        hlimit
    };
    let mut s = State {
        t: Terminal::new(cols, rows, hlimit),
        cols: cols.max(1),
        rows: rows.max(1),
        max_cols: cols.max(1) as usize,
        max_rows: rows.max(1) as usize,
        hlimit: hlimit as usize,
    };
    s.check();
    let mut rest = &data[3..];
    while let Some((&cmd, args)) = rest.split_first() {
        rest = args;
        let mut arg = || {
            let (&b, tail) = rest.split_first().unwrap_or((&0, &[]));
            rest = tail;
            b
        };
        match cmd % 16 {
            0..=11 => {
                let n = (usize::from(arg()) + 1).min(rest.len());
                let (read, tail) = rest.split_at(n);
                rest = tail;
                s.t.feed(read);
                let replies = s.t.take_replies();
                assert!(
                    replies.len() <= 8 * read.len() + 64,
                    "replies out of proportion"
                );
            }
            12 => {
                let (c, r) = (width(arg()), height(arg()));
                let c = if c >= 10_000 && hlimit > 20 { 500 } else { c };
                s.t.resize(c, r);
                s.cols = c.clamp(1, u32::from(u16::MAX));
                s.rows = r.max(1);
                s.max_cols = s.max_cols.max(s.cols as usize);
                s.max_rows = s.max_rows.max(s.rows as usize);
            }
            13 => {
                let flags = arg();
                let (hsize, rows) = (s.t.history_size(), s.rows);
                let opts = CaptureOptions {
                    start: line(arg(), rows, hsize),
                    end: line(arg(), rows, hsize),
                    escapes: flags & 1 != 0,
                    escape_c0: flags & 2 != 0,
                    join: flags & 4 != 0,
                    no_trim: flags & 8 != 0,
                };
                s.capture(&opts);
            }
            14 => {
                assert!(s.t.capture_pending(false).len() <= 64 * 1024);
                let escaped = s.t.capture_pending(true);
                assert!(escaped.iter().all(|b| (0x20..=0x7f).contains(b)));
            }
            _ => {
                if s.t.in_string() {
                    s.t.abandon_string();
                }
            }
        }
        s.check();
    }
});
