//! Hostile program output: whatever bytes a program writes, in whatever pieces, at whatever
//! terminal size, the terminal must not panic, must keep its cursor on the screen, must print
//! the same screen however the bytes were split into reads, and must keep its memory within a
//! bound set by its size and history limit.
//!
//! `random_hostile_streams` runs randomized cases (sizes from 1x1 to 10000 columns, hostile
//! streams in random reads, resizes, captures with every option) for a few seconds, then
//! reports each kind of failure once, with the seed of a failing case and a minimized
//! reproduction. Environment:
//! - `ZEROPTY_FUZZ_SECONDS`: how long it runs (default 4; the seed then comes from the clock
//!   unless `ZEROPTY_FUZZ_SEED` is set);
//! - `ZEROPTY_FUZZ_SEED`: the seed of the sequence of cases (printed at the start);
//! - `ZEROPTY_FUZZ_CASE`: runs the one case with that seed and minimizes it if it fails.
//!
//! Cases also freeze the terminal under test between steps (and thaw it, leave it frozen for the
//! next step, or move its chunk out and back): nothing a reader sees may change, and the frozen
//! terminal must hold no more than its chunk and what stays hot.
//!
//! The other tests each feed one kind of hostile input and check an exact expectation; the
//! last ones pin down edge cases of resizes, overwrites and extreme sizes.
mod common;

use common::seen;
use std::time::{Duration, Instant};
// The fuzzer's generator: the same seed gives the same case.
use zeropty::rng::{parse_seed, SplitMix64 as Rng};
use zeropty::term::cell::{Graphemes, Palette, Style};
use zeropty::term::grid::Grid;
use zeropty::term::row::Row;
use zeropty::term::{CaptureOptions, LineSpec, Terminal, SEAL_BYTES};

const KIB: usize = 1 << 10;
const MIB: usize = 1 << 20;
/// The parser's longest kept OSC/APC string (`parser::STRING_LIMIT`).
const STRING_LIMIT: usize = MIB;
/// Bytes of an unfinished sequence kept for `capture-pane -P` (`parser::PENDING_LIMIT`).
const PENDING_LIMIT: usize = 64 * KIB;
/// Titles the XTWINOPS title stack keeps (`screen::TITLE_STACK_LIMIT`).
const TITLE_STACK_LIMIT: usize = 32;
/// Largest text one cell holds, in UTF-8 bytes (tmux's UTF8_SIZE).
const MAX_CELL_BYTES: usize = 21;

// ---- deterministic randomness ----

/// A length skewed towards small values but reaching `max`.
fn skewed_len(rng: &mut Rng, max: u64) -> usize {
    let bits = 64 - max.leading_zeros() as u64;
    let cap = (1u64 << rng.range(0, bits)).min(max);
    rng.range(0, cap) as usize
}

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    Some(parse_seed(&v).unwrap_or_else(|| panic!("{name}={v} is not a number")))
}

// ---- hostile byte streams ----

/// Numbers that probe every clamp and overflow in parameter handling.
const NUMBERS: &[&str] = &[
    "",
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "18",
    "22",
    "23",
    "25",
    "38",
    "48",
    "58",
    "47",
    "1047",
    "1049",
    "1000",
    "1002",
    "1006",
    "2004",
    "255",
    "256",
    "32767",
    "32768",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "99999999999999",
    "00000000000000000001",
    "-1",
];

const CSI_FINALS: &[u8] = b"@ABCDEFGHJKLMPSTXZ`bcdfghlmnqrstu";

/// Characters with interesting widths and combining behaviour.
const CHARS: &[&str] = &[
    "\u{e9}",
    "\u{fc}",
    "\u{4e2d}",
    "\u{6587}",
    "\u{d55c}",
    "\u{1f600}",
    "\u{1f44d}\u{1f3fd}",
    "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}",
    "\u{1f1fa}\u{1f1f8}",
    "e\u{301}",
    "\u{301}",
    "\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}\u{307}\u{308}\u{309}\u{30a}\u{30b}",
    "\u{200d}",
    "\u{fe0f}",
    "\u{200b}",
    "\u{ad}",
    "\u{1100}\u{1161}\u{11a8}",
    "\u{e01}\u{e34}",
    "\u{ffff}",
    "\u{10ffff}",
    "\u{e000}",
    "\u{2028}",
    "\u{85}",
    "\u{9b}",
    "\u{fffd}",
    "\u{ff21}",
    "\u{30000}",
    "\u{2500}",
    "\u{a0}",
];

/// Malformed UTF-8 of every shape: stray continuations, overlong forms, surrogates, code points
/// past U+10FFFF, bytes that never start a character, and sequences cut short.
const INVALID_UTF8: &[&[u8]] = &[
    b"\x80",
    b"\xbf",
    b"\x80\x80\x80\x80",
    b"\xc0\x80",
    b"\xc1\xbf",
    b"\xc2",
    b"\xc2\x41",
    b"\xc2\xc2\x80",
    b"\xdf",
    b"\xe0\x80\x80",
    b"\xe0\x9f\xbf",
    b"\xe0\xa0",
    b"\xe2\x82",
    b"\xe2\x28\xa1",
    b"\xed\xa0\x80",
    b"\xed\xbf\xbf",
    b"\xef\xbf",
    b"\xf0\x80\x80\x80",
    b"\xf0\x8f\xbf\xbf",
    b"\xf0\x9f\x98",
    b"\xf0\x9f",
    b"\xf4\x90\x80\x80",
    b"\xf4\x8f\xbf",
    b"\xf5\x80\x80\x80",
    b"\xf7\xbf\xbf\xbf",
    b"\xf8\x88\x80\x80\x80",
    b"\xfc\x84\x80\x80\x80\x80",
    b"\xfe",
    b"\xff",
    b"\xe2\x80\x8d\x80",
    b"\xf0\x9f\x98\x1b[m",
    b"\xe4\xb8\r\n",
];

fn push_number(rng: &mut Rng, out: &mut Vec<u8>) {
    if rng.chance(1, 4) {
        out.extend_from_slice(rng.below(300).to_string().as_bytes());
    } else {
        out.extend_from_slice(rng.pick(NUMBERS).as_bytes());
    }
}

fn push_params(rng: &mut Rng, out: &mut Vec<u8>) {
    let n = skewed_len(rng, 30);
    for i in 0..n {
        if i > 0 {
            out.push(if rng.chance(1, 12) { b':' } else { b';' });
        }
        push_number(rng, out);
    }
}

fn push_sgr(rng: &mut Rng, out: &mut Vec<u8>) {
    out.extend_from_slice(b"\x1b[");
    for i in 0..rng.range(1, 6) {
        if i > 0 {
            out.push(b';');
        }
        let code = match rng.below(12) {
            0 => format!("{}", rng.below(110)),
            1 => format!("38;5;{}", rng.below(300)),
            2 => format!("48;5;{}", rng.below(300)),
            3 => format!("38;2;{};{};{}", rng.byte(), rng.byte(), rng.byte()),
            4 => format!("48;2;{};{};{}", rng.byte(), rng.byte(), rng.byte()),
            5 => format!("58:2::{}:{}:{}", rng.byte(), rng.byte(), rng.byte()),
            6 => format!("38:2:{}:{}:{}", rng.byte(), rng.byte(), rng.byte()),
            7 => format!("4:{}", rng.below(7)),
            8 => format!("48:5:{}", rng.below(300)),
            9 => format!("38;2;{};{}", rng.below(300), rng.pick(NUMBERS)),
            10 => "38:2::1:2:3:4:5:6:7:8".to_string(),
            _ => rng
                .pick(&["0", "1", "7", "21", "27", "53", "59", "39", "49"])
                .to_string(),
        };
        out.extend_from_slice(code.as_bytes());
    }
    out.push(b'm');
}

fn push_text(rng: &mut Rng, out: &mut Vec<u8>, cols: u32) {
    let n = skewed_len(rng, u64::from(cols.min(4096)) * 2 + 8);
    for _ in 0..n {
        out.push(rng.range(0x20, 0x7e) as u8);
    }
}

fn push_random_char(rng: &mut Rng, out: &mut Vec<u8>) {
    let c = loop {
        let ranges: &[(u32, u32)] = &[
            (0xa0, 0x3ff),
            (0x300, 0x36f),
            (0x1100, 0x11ff),
            (0x2000, 0x2fff),
            (0x3000, 0x9fff),
            (0xac00, 0xd7a3),
            (0xfe00, 0xffff),
            (0x1f000, 0x1faff),
            (0xe0000, 0xe01ef),
            (0x80, 0x10ffff),
        ];
        let (lo, hi) = rng.pick(ranges);
        if let Some(c) = char::from_u32(rng.range(u64::from(lo), u64::from(hi)) as u32) {
            break c;
        }
    };
    let mut buf = [0u8; 4];
    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
}

fn push_string_body(rng: &mut Rng, out: &mut Vec<u8>) {
    let n = skewed_len(rng, 4096);
    match rng.below(4) {
        0 => (0..n).for_each(|_| out.push(rng.range(0x20, 0x7e) as u8)),
        1 => (0..n / 4).for_each(|_| push_random_char(rng, out)),
        2 => (0..n).for_each(|_| out.push(rng.byte())),
        _ => (0..n).for_each(|_| out.push(rng.range(0x80, 0xff) as u8)),
    }
}

fn push_string_end(rng: &mut Rng, out: &mut Vec<u8>) {
    let end: &[u8] = rng.pick(&[
        b"\x07".as_slice(),
        b"\x1b\\",
        b"\x1b\\",
        b"\x1bx",
        b"\x18",
        b"\x1a",
        b"\x9c",
        b"",
    ]);
    out.extend_from_slice(end);
}

/// One piece of a hostile stream: text, controls, or an escape sequence (possibly malformed).
fn push_token(rng: &mut Rng, out: &mut Vec<u8>, cols: u32, rows: u32) {
    match rng.below(30) {
        0..=3 => push_text(rng, out, cols),
        4 => out.extend_from_slice(rng.pick(CHARS).as_bytes()),
        5 => (0..rng.range(1, 20)).for_each(|_| push_random_char(rng, out)),
        6 => out.extend_from_slice(rng.pick(INVALID_UTF8)),
        7 => {
            let c: &[u8] = rng.pick(&[b"\r\n".as_slice(), b"\n", b"\r", b"\x08", b"\t", b"\x0b"]);
            out.extend_from_slice(c);
        }
        8 => out.push(rng.pick(&[0x00, 0x05, 0x07, 0x0c, 0x0e, 0x0f, 0x18, 0x1a, 0x7f, 0x1b])),
        9 => {
            let esc: &[u8] = rng.pick(&[
                b"c".as_slice(),
                b"D",
                b"E",
                b"H",
                b"M",
                b"7",
                b"8",
                b"#8",
                b"(0",
                b"(B",
                b")0",
                b")B",
                b"=",
                b">",
                b"N",
                b"Z",
                b"\\",
                b" F",
                b"%G",
                b"!!!!x",
            ]);
            out.push(0x1b);
            out.extend_from_slice(esc);
        }
        10..=13 => {
            // A CSI with arbitrary parameters.
            out.extend_from_slice(b"\x1b[");
            if rng.chance(1, 3) {
                out.push(rng.pick(b"?><="));
            }
            push_params(rng, out);
            if rng.chance(1, 8) {
                out.extend_from_slice(rng.pick(&[
                    b" ".as_slice(),
                    b"$",
                    b"!",
                    b"\"",
                    b"   ",
                    b"    ",
                ]));
            }
            if rng.chance(1, 20) {
                out.push(rng.byte());
            }
            out.push(if rng.chance(1, 8) {
                rng.range(0x40, 0x7e) as u8
            } else {
                rng.pick(CSI_FINALS)
            });
        }
        14..=15 => push_sgr(rng, out),
        16 => {
            let mode = rng.pick(&[
                "?1049", "?1047", "?47", "?6", "?7", "?3", "?25", "?1000", "?1006", "?2004", "4",
                "?12", "?1", "34",
            ]);
            let on = if rng.chance(1, 2) { 'h' } else { 'l' };
            out.extend_from_slice(format!("\x1b[{mode}{on}").as_bytes());
        }
        17 => {
            let t = rng.below(u64::from(rows) + 3);
            let b = rng.below(u64::from(rows) + 3);
            out.extend_from_slice(format!("\x1b[{t};{b}r").as_bytes());
        }
        18 => {
            let y = rng.below(u64::from(rows) + 3);
            let x = rng.below(u64::from(cols) + 3);
            out.extend_from_slice(format!("\x1b[{y};{x}H").as_bytes());
        }
        19 => {
            // REP after a printable character.
            out.push(rng.range(0x20, 0x7e) as u8);
            out.extend_from_slice(b"\x1b[");
            push_number(rng, out);
            out.push(b'b');
        }
        20 => {
            let q = rng.pick(&[
                "\x1b[5n",
                "\x1b[6n",
                "\x1b[c",
                "\x1b[0c",
                "\x1b[>c",
                "\x1b[>q",
                "\x1b[18t",
                "\x1b[18;18;18;18;18t",
                "\x1b[22;0t",
                "\x1b[23;0t",
                "\x1b[22;2t",
                "\x1b[8;1;1t",
                "\x1b[>4;1m",
                "\x1b[>4n",
                "\x1b[3 q",
            ]);
            out.extend_from_slice(q.as_bytes());
        }
        21..=22 => {
            // OSC: titles, the working directory, and ones whose text is dropped.
            out.extend_from_slice(b"\x1b]");
            let n = rng.pick(&[
                "0",
                "2",
                "7",
                "8",
                "52",
                "4",
                "112",
                "99999999999",
                "",
                "0x",
            ]);
            out.extend_from_slice(n.as_bytes());
            if rng.chance(3, 4) {
                out.push(b';');
            }
            push_string_body(rng, out);
            push_string_end(rng, out);
        }
        23 => {
            // DCS, with escapes inside that do not end it.
            out.extend_from_slice(b"\x1bP");
            push_params(rng, out);
            if rng.chance(1, 3) {
                out.extend_from_slice(rng.pick(&[b"$".as_slice(), b"+", b"????"]));
            }
            out.push(rng.pick(b"qp|{tz"));
            let n = skewed_len(rng, 2048);
            for _ in 0..n {
                out.push(if rng.chance(1, 40) { 0x1b } else { rng.byte() });
            }
            push_string_end(rng, out);
        }
        24 => {
            // APC (sets the title), rename (ESC k), SOS and PM (consumed).
            let start: &[u8] = rng.pick(&[b"\x1b_".as_slice(), b"\x1bk", b"\x1bX", b"\x1b^"]);
            out.extend_from_slice(start);
            push_string_body(rng, out);
            push_string_end(rng, out);
        }
        25 => {
            let e = rng.pick(&["J", "0J", "1J", "2J", "3J", "K", "1K", "2K", "3;0J"]);
            out.extend_from_slice(format!("\x1b[{e}").as_bytes());
        }
        26 => {
            // Line drawing, shifted in and out.
            out.extend_from_slice(rng.pick(&[b"\x1b(0lqqk\x1b(B".as_slice(), b"\x0eaxq\x0f"]));
        }
        27 => {
            // A sequence cut short by another one.
            out.extend_from_slice(rng.pick(&[
                b"\x1b[1;".as_slice(),
                b"\x1b]0;abc",
                b"\x1bP1",
                b"\x1b[?",
                b"\x1b(",
                b"\x1b",
                b"\x1b[38;2;1",
            ]));
        }
        28 => {
            // Wide characters around the right margin.
            let x = u64::from(cols).saturating_sub(rng.below(3));
            out.extend_from_slice(format!("\x1b[{x}G").as_bytes());
            out.extend_from_slice(rng.pick(CHARS).as_bytes());
        }
        _ => {
            for _ in 0..skewed_len(rng, 64) {
                out.push(rng.byte());
            }
        }
    }
}

/// A log as `cat` shows one: lines of text, styles and characters of every width, ended by CR
/// LF, LF or not at all (a long line wraps), with one line in `jolts` (on average) followed by
/// a sequence that moves the cursor up, sets a scroll region or switches screens. Long enough
/// to scroll several screens and histories away, which the parser skips writing (see
/// `src/term/doomed.rs`).
fn log_stream(rng: &mut Rng, cols: u32, lines: u64, jolts: u64) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..lines {
        for _ in 0..rng.range(0, 6) {
            match rng.below(10) {
                0..=4 => push_text(rng, &mut out, cols / 2),
                5..=6 => push_sgr(rng, &mut out),
                // Resets, and short sequences that look like them: styles set before the
                // last reset of a line do not matter after it, the others do.
                7 => {
                    let style: &[u8] = rng.pick(&[
                        b"\x1b[m".as_slice(),
                        b"\x1b[0m",
                        b"\x1b[00m",
                        b"\x1b[1m",
                        b"\x1b[01m",
                        b"\x1b[;1m",
                        b"\x1b[22m",
                    ]);
                    out.extend_from_slice(style);
                }
                // Joiners make reads split differently differ (the joiner state ends with a
                // read, see `execute`), so logs do without them.
                8 if rng.chance(1, 4) => out.extend_from_slice(rng.pick(INVALID_UTF8)),
                8 => {
                    let c = rng.pick(CHARS);
                    if !c.contains('\u{200d}') {
                        out.extend_from_slice(c.as_bytes());
                    }
                }
                _ => out.push(rng.pick(&[b'\t', 0x07, 0x0b, 0x0c, 0x0e, 0x0f])),
            }
        }
        if rng.chance(1, jolts) {
            let jolt: &[u8] = rng.pick(&[
                b"\x1b[3A".as_slice(),
                b"\x08",
                b"\x1b[2;4r",
                b"\x1b[r",
                b"\x1b[?1049h",
                b"\x1b[?1049l",
                b"\x1bM",
                b"\x1b[H\x1b[J",
            ]);
            out.extend_from_slice(jolt);
        }
        let end: &[u8] = rng.pick(&[b"\r\n".as_slice(), b"\r\n", b"\r\n", b"\n", b""]);
        out.extend_from_slice(end);
    }
    out
}

/// A hostile stream for a `cols` x `rows` terminal: random bytes, bytes biased towards the ones
/// the parser cares about, a soup of (possibly malformed) sequences, sometimes mutated, or a
/// long log.
fn hostile_stream(rng: &mut Rng, cols: u32, rows: u32) -> Vec<u8> {
    let mut out = Vec::new();
    match rng.below(9) {
        8 => {
            let lines = rng.range(1, 400);
            out = log_stream(rng, cols, lines, 60);
        }
        0 => (0..skewed_len(rng, 8192)).for_each(|_| out.push(rng.byte())),
        1 => {
            let special = b"\x1b\x1b\x1b[[]]P_^Xk\\;;:?>0123456789mHJKr\x07\x18\x1a\r\n\x08\x80\xbf\xc2\xe2\xf0\xff";
            for _ in 0..skewed_len(rng, 8192) {
                out.push(if rng.chance(1, 2) {
                    rng.pick(special)
                } else {
                    rng.byte()
                });
            }
        }
        _ => {
            for _ in 0..rng.range(1, 80) {
                push_token(rng, &mut out, cols, rows);
            }
            if rng.chance(1, 4) {
                mutate(rng, &mut out);
            }
        }
    }
    out
}

fn mutate(rng: &mut Rng, data: &mut Vec<u8>) {
    for _ in 0..rng.range(1, 8) {
        if data.is_empty() {
            return;
        }
        let at = rng.below(data.len() as u64) as usize;
        match rng.below(5) {
            0 => data[at] ^= 1 << rng.below(8),
            1 => data.insert(at, rng.byte()),
            2 => {
                data.remove(at);
            }
            3 => {
                let end = (at + skewed_len(rng, 64)).min(data.len());
                let copy = data[at..end].to_vec();
                let to = rng.below(data.len() as u64 + 1) as usize;
                data.splice(to..to, copy);
            }
            _ => data.truncate(at),
        }
    }
}

/// Splits `len` bytes into reads the way a pty might deliver them, or worse.
fn chunk_sizes(rng: &mut Rng, len: usize) -> Vec<usize> {
    let mode = rng.below(5);
    let mut sizes = Vec::new();
    let mut left = len;
    while left > 0 {
        let n = match mode {
            0 => left,
            1 => 1,
            2 => rng.range(1, 16) as usize,
            3 => rng.range(1, 4096) as usize,
            _ => skewed_len(rng, left as u64).max(1),
        }
        .min(left);
        sizes.push(n);
        left -= n;
    }
    sizes
}

// ---- invariants ----

/// Checks what must hold after every `feed` and `resize`: the documented screen invariants.
///
/// `overhang` is set after a resize until the cursor is seen on the screen again: tmux 3.3a's
/// resize leaves the cursor where it was when it does not reflow (on the alternate screen), a
/// reflow to one column puts it after a wide character (two columns), and a reflow puts it at
/// its place in its line, past the width when it stood beyond the line's last cell; so until
/// something moves it the cursor may be right of the screen.
fn check_screen(t: &Terminal, cols: u32, rows: u32, overhang: &mut bool) {
    assert_eq!((t.cols(), t.rows()), (cols, rows), "terminal size changed");
    let (x, y) = t.cursor();
    assert!(y < rows, "cursor ({x}, {y}) below a {cols}x{rows} screen");
    if x > cols {
        assert!(
            *overhang,
            "cursor ({x}, {y}) right of a {cols}x{rows} screen"
        );
    } else {
        *overhang = false;
    }
    let s = t.screen();
    if rows == 1 {
        assert_eq!(
            (s.rupper, s.rlower),
            (0, 0),
            "scroll region on a one-line screen"
        );
    } else {
        assert!(
            s.rupper < s.rlower && s.rlower < rows,
            "scroll region {}..={} on {rows} rows",
            s.rupper,
            s.rlower
        );
    }
    let g = &s.grid;
    assert_eq!(
        g.frozen_lines() + g.rows().len() as u32,
        g.hsize + g.sy,
        "grid rows != hsize + sy"
    );
    assert!(
        g.hscrolled <= g.hsize,
        "hscrolled {} > hsize {}",
        g.hscrolled,
        g.hsize
    );
    assert_eq!(s.saved_grid().is_some(), t.alternate_on());
}

/// The number of lines `capture` selects, computed from tmux's rules independently.
fn expected_lines(hsize: u32, sy: u32, opts: &CaptureOptions) -> usize {
    let (hsize, last) = (i64::from(hsize), i64::from(hsize + sy - 1));
    let resolve = |spec: Option<LineSpec>, fallback: i64, edge: i64| match spec {
        Some(LineSpec::Edge) => edge,
        None | Some(LineSpec::Invalid) => fallback,
        Some(LineSpec::Line(n)) if n < 0 && n.checked_neg().is_none_or(|m| m > hsize) => 0,
        Some(LineSpec::Line(n)) => (hsize + n).min(last),
    };
    let top = resolve(opts.start, hsize, 0);
    let bottom = resolve(opts.end, last, last);
    (top.max(bottom) - top.min(bottom) + 1) as usize
}

fn check_capture(out: &[u8], opts: &CaptureOptions, hsize: u32, sy: u32, max_cols: u32) {
    let text = std::str::from_utf8(out).unwrap_or_else(|e| panic!("capture is not UTF-8: {e}"));
    let lines = expected_lines(hsize, sy, opts);
    let newlines = out.iter().filter(|&&b| b == b'\n').count();
    if opts.join {
        assert!(
            newlines <= lines,
            "{newlines} lines captured, {lines} selected"
        );
    } else {
        assert_eq!(newlines, lines, "lines captured for {opts:?}");
    }
    for &b in out {
        let ok = match b {
            b'\n' => true,
            0x00..=0x1f | 0x7f if opts.escape_c0 => false,
            0x1b | 0x0e | 0x0f => opts.escapes,
            0x00..=0x1f | 0x7f => false,
            _ => true,
        };
        assert!(ok, "byte {b:#04x} in capture with {opts:?}");
    }
    if !opts.escapes && !opts.join {
        let widest = max_cols as usize * MAX_CELL_BYTES;
        for line in text.split('\n') {
            assert!(
                line.len() <= widest,
                "a {}-byte line on a {max_cols}-column screen",
                line.len()
            );
        }
    }
}

fn check_pending(t: &Terminal) {
    let raw = t.capture_pending(false);
    assert!(raw.len() <= PENDING_LIMIT, "{} pending bytes", raw.len());
    let escaped = t.capture_pending(true);
    // tmux escapes everything below a space, the backslash and every byte past 0x7f.
    assert!(
        escaped.iter().all(|b| (0x20..=0x7f).contains(b)),
        "-P -C left a raw byte"
    );
    assert!(escaped.len() <= raw.len() * 4);
}

/// Heap allowed for a palette at its capacity: the styles and the hash index over them.
fn palette_allowance() -> usize {
    Palette::CAPACITY * std::mem::size_of::<Style>()
        + 2 * Palette::CAPACITY * (std::mem::size_of::<(Style, u16)>() + 1)
}

/// Heap allowed for a grapheme table of `n` entries (each at most [`MAX_CELL_BYTES`] long,
/// stored twice), with room for a vector and a hash table that doubled.
fn grapheme_allowance(n: usize) -> usize {
    let entry = 2 * std::mem::size_of::<Box<str>>()
        + 2 * (std::mem::size_of::<(Box<str>, u32)>() + 1)
        + 2 * MAX_CELL_BYTES;
    (n + 8) * entry
}

/// What a terminal's memory is measured against over its life.
struct Watch {
    /// The widest the terminal has been.
    max_cols: u32,
    /// The farthest right the cursor has stood: a reflow puts the cursor at its place in its
    /// line, which may be past the width (and past the line's cells), and a combining
    /// character written there lands on the cell before it, as tmux 3.3a's does.
    max_cursor_x: u32,
    /// The tallest the terminal has been (a resize passes through both heights).
    max_rows: u32,
    hlimit: u32,
    /// The most rows the grid and the saved grid have been seen to hold (their vectors may
    /// keep the room); within a read the grid may also hold a full history and screen.
    grid_rows_hwm: usize,
    saved_rows_hwm: usize,
    /// Bytes fed so far (no string the program sets can be longer).
    fed: usize,
}

impl Watch {
    fn new(cols: u32, rows: u32, hlimit: u32) -> Watch {
        Watch {
            max_cols: cols.max(1),
            max_cursor_x: 0,
            max_rows: rows.max(1),
            hlimit,
            grid_rows_hwm: rows.max(1) as usize,
            saved_rows_hwm: 0,
            fed: 0,
        }
    }
}

impl Watch {
    /// The most cells a row may hold. On a one-column screen a wide character is written past
    /// the edge, as tmux does (its unsigned `sx - width` wraps), leaving padding that narrow
    /// characters written there keep after them, up to two cells each; a reflow counts padding
    /// cells as no width, so a row may hold up to three times the width (tmux 3.3a leaves the
    /// same rows). A combining character written at an overhanging cursor reaches the cursor.
    fn widest_row(&self) -> usize {
        (3 * self.max_cols as usize + 2).max(self.max_cursor_x as usize)
    }
}

/// Bytes a packed row of `cells` cells may take: the worst encoding is a one-cell raw run
/// (opcode, length, 6-byte cell) per cell.
fn packed_row_allowance(cells: usize) -> usize {
    8 * cells + 8
}

/// Bytes an expanded row of up to `cells` cells may take: a vector of 6-byte cells that
/// doubled.
fn expanded_row_allowance(cells: usize) -> usize {
    12 * cells + 24
}

/// Working buffers a grid may keep (for packing rows).
const GRID_BUFFERS: usize = 8 * KIB;

/// What sealed history lines may hold besides their own bytes, when these are at most
/// `lines_bytes` before compression: the dropped lines the first segment keeps until its last
/// line goes (under `2 * SEAL_BYTES` bytes before compression, src/term/frozen_lines.rs), and
/// for each segment (each but the first holds `SEAL_BYTES` of live lines or more) zstd's frame
/// and worst-case growth, its record and the `names` styles and graphemes it may name, four
/// bytes each.
fn sealed_slack(lines_bytes: usize, names: usize) -> usize {
    let segments = lines_bytes / SEAL_BYTES + 2;
    let compressed = |raw: usize| raw + raw / 256 + 64;
    compressed(2 * SEAL_BYTES) + lines_bytes / 256 + segments * (64 + 128 + 4 * names)
}

/// Checks a grid row by row: every row within the widest width and its own size, packed rows
/// within the packing's worst case, expanded rows within a doubled vector, sealed lines within
/// their worst case and [`sealed_slack`] (for segments naming up to `names` styles and
/// graphemes), and the room the row vector keeps.
fn check_grid_rows(g: &Grid, widest: usize, rows_hwm: usize, names: usize, what: &str) {
    let (mut rows_heap, mut frozen_allowance) = (0, 0);
    for (y, row) in g.all_lines().enumerate() {
        let stored = row.stored_len();
        assert!(
            stored <= widest,
            "{what} row {y}: {stored} cells, at most {widest} allowed"
        );
        assert!(
            stored <= row.size as usize,
            "{what} row {y}: {stored} cells past size {}",
            row.size
        );
        let heap = row.heap_bytes();
        if row.is_packed() {
            assert!(
                heap <= packed_row_allowance(stored),
                "{what} row {y}: {heap} bytes packed for {stored} cells"
            );
        } else {
            // An expanded row also keeps the packed bytes it was expanded from (every row of
            // a thawed screen comes back packed, the cursor's too).
            let allowed = expanded_row_allowance(widest) + packed_row_allowance(widest);
            assert!(heap <= allowed, "{what} row {y}: {heap} bytes");
        }
        rows_heap += heap;
        if y < g.frozen_lines() as usize {
            frozen_allowance += packed_row_allowance(stored) + 8;
        }
    }
    let sealed = g.sealed_bytes();
    let sealed_allowed = frozen_allowance + sealed_slack(frozen_allowance, names);
    assert!(
        sealed <= sealed_allowed,
        "{what}: {sealed} bytes sealed, allowed {sealed_allowed}"
    );
    // Frozen history lines may keep dead bytes (the part of a chunk before them, dropped
    // lines, room to append) up to as many as their own (src/term/frozen_lines.rs).
    let hot_heap: usize = g.rows().iter().map(Row::heap_bytes).sum();
    let frozen_slack = rows_heap - hot_heap;
    let room = (g.heap_bytes() - sealed).saturating_sub(rows_heap + GRID_BUFFERS + frozen_slack)
        / std::mem::size_of::<Row>();
    assert!(
        room <= 2 * rows_hwm + 8,
        "{what}: room for {room} rows, never more than {rows_hwm} held"
    );
}

/// The memory bound. Replies must have been taken (a caller writes them back after each read).
///
/// The grid may hold `rows * (12 * width + 24)` bytes: a row is at worst an expanded vector of
/// 6-byte cells that doubled (packed rows take at most 8 bytes a cell, ASCII text about one).
/// The palette and grapheme table may hold their capacities, and the rest (parser buffers,
/// title stack, path, tab stops) the parser's string and pending limits plus the titles it may
/// have been sent.
fn check_memory(t: &Terminal, w: &mut Watch, deep: bool) {
    let s = t.screen();
    let saved = s.saved_grid();
    let full = (w.hlimit + w.max_rows) as usize + 1;
    w.grid_rows_hwm = w.grid_rows_hwm.max(s.grid.total() as usize).max(full);
    w.saved_rows_hwm = w
        .saved_rows_hwm
        .max(saved.map_or(0, |g| g.total() as usize));
    let row_room = 2 * (w.grid_rows_hwm + w.saved_rows_hwm + w.max_rows as usize) + 16;
    let rows_now = (s.grid.total() + saved.map_or(0, Grid::total)) as usize;
    let names = s.palette.len() + s.graphemes.len();
    let grids = 1 + usize::from(saved.is_some());
    let grid_allow = row_room * std::mem::size_of::<Row>()
        + rows_now * expanded_row_allowance(w.widest_row())
        + grids * sealed_slack(rows_now * packed_row_allowance(w.widest_row()), names)
        + 2 * GRID_BUFFERS;
    let grid = s.grid.heap_bytes() + saved.map_or(0, Grid::heap_bytes);
    assert!(
        grid <= grid_allow,
        "grid holds {grid} bytes in {rows_now} rows, allowed {grid_allow} (room for {row_room})"
    );

    let palette = s.palette.heap_bytes();
    assert!(s.palette.len() <= Palette::CAPACITY);
    assert!(
        palette <= palette_allowance(),
        "palette holds {palette} bytes"
    );

    let graphemes = s.graphemes.heap_bytes();
    let n = s.graphemes.len();
    assert!(
        graphemes <= grapheme_allowance(n),
        "{n} graphemes hold {graphemes} bytes"
    );
    if n > Graphemes::CAPACITY || deep {
        // Past its capacity the table may only hold graphemes that cells still use.
        let mut interned = 0;
        for g in std::iter::once(&s.grid).chain(saved) {
            for row in g.all_lines() {
                row.for_each(|c| interned += usize::from(c.is_interned()));
            }
        }
        assert!(
            n <= Graphemes::CAPACITY.max(interned + 1),
            "{n} graphemes for {interned} cells"
        );
    }

    let strings = w.fed.min(STRING_LIMIT);
    let rest_allow = STRING_LIMIT
        + PENDING_LIMIT
        + 2 * w.max_cols as usize
        + (TITLE_STACK_LIMIT + 2) * (strings + std::mem::size_of::<String>())
        + 4 * KIB;
    let total = t.heap_bytes();
    let rest = total - grid - palette - graphemes;
    assert!(
        rest <= rest_allow,
        "parser and titles hold {rest} bytes, allowed {rest_allow}"
    );

    if deep {
        let most = w.grid_rows_hwm + w.max_rows as usize;
        check_grid_rows(&s.grid, w.widest_row(), most, names, "grid");
        if let Some(g) = saved {
            check_grid_rows(g, w.widest_row(), w.saved_rows_hwm, names, "saved grid");
        }
    }
}

// ---- the randomized test ----

/// Sizes every case starts from or resizes to; the last entries are picked at random.
const SIZES: &[(u32, u32)] = &[
    (1, 1),
    (2, 1),
    (1, 50),
    (500, 3),
    (80, 24),
    (0, 0),
    (3, 2),
    (10, 5),
    (132, 43),
    (40, 1),
];

fn random_size(rng: &mut Rng) -> (u32, u32) {
    if rng.chance(1, 2) {
        rng.pick(SIZES)
    } else {
        (rng.range(1, 300) as u32, rng.range(1, 60) as u32)
    }
}

fn random_line(rng: &mut Rng, hsize: u32, rows: u32) -> Option<LineSpec> {
    let (h, r) = (i64::from(hsize), i64::from(rows));
    match rng.below(7) {
        0 => None,
        1 => Some(LineSpec::Edge),
        2 => Some(LineSpec::Invalid),
        3 => Some(LineSpec::Line(
            rng.range(0, (h + r + 10) as u64) as i64 - h - 5,
        )),
        _ => Some(LineSpec::Line(rng.pick(&[
            i64::from(i32::MIN),
            i64::from(i32::MIN) + 1,
            -h - 1,
            -h,
            -1,
            0,
            1,
            r - 1,
            r,
            32767,
        ]))),
    }
}

fn random_options(rng: &mut Rng, hsize: u32, rows: u32) -> CaptureOptions {
    let flags = rng.below(16);
    CaptureOptions {
        start: random_line(rng, hsize, rows),
        end: random_line(rng, hsize, rows),
        escapes: flags & 1 != 0,
        escape_c0: flags & 2 != 0,
        join: flags & 4 != 0,
        no_trim: flags & 8 != 0,
    }
}

/// Bytes a frozen screen's chunk and its sealed history lines may take: each row as its
/// packing's worst case plus its flags and counts, each style as four varints, each grapheme
/// with its length, the tab stops, and [`sealed_slack`].
fn chunk_allowance(t: &Terminal) -> usize {
    let s = t.screen();
    let rows: usize = std::iter::once(&s.grid)
        .chain(s.saved_grid())
        .flat_map(Grid::all_lines)
        .map(|r| packed_row_allowance(r.stored_len()) + 8)
        .sum();
    let graphemes: usize = (0..s.graphemes.len() as u32)
        .map(|i| s.graphemes.get(i).len() + 5)
        .sum();
    let names = s.palette.len() + s.graphemes.len();
    rows + sealed_slack(rows, names)
        + 20 * s.palette.len()
        + graphemes
        + t.cols().div_ceil(64) as usize * 8
        + 16
}

/// Heap a hot terminal holds besides its rows and tables: what freezing must not add to.
fn heap_besides_rows(t: &Terminal) -> usize {
    let s = t.screen();
    t.heap_bytes()
        - s.grid.heap_bytes()
        - s.saved_grid().map_or(0, Grid::heap_bytes)
        - s.palette.heap_bytes()
        - s.graphemes.heap_bytes()
}

/// What a case does after freezing the terminal under test.
#[derive(Clone, Copy, Debug)]
enum Freeze {
    Thaw,
    /// Leave it frozen: the next step reads it through a copy or thaws it.
    Stay,
    /// Move its chunk out and give it back (it stays frozen).
    Cold,
}

/// A terminal under test, with the size it must have and what has been checked about it.
struct Subject {
    t: Terminal,
    cols: u32,
    rows: u32,
    /// The cursor may be right of the screen (see [`check_screen`]).
    overhang: bool,
    replies: Vec<u8>,
}

impl Subject {
    fn new(cols: u32, rows: u32, hlimit: u32) -> Subject {
        let mut s = Subject {
            t: Terminal::new(cols, rows, hlimit),
            cols: cols.max(1),
            rows: rows.max(1),
            overhang: false,
            replies: Vec::new(),
        };
        check_screen(&s.t, s.cols, s.rows, &mut s.overhang);
        s
    }

    /// Feeds `data` in reads of `sizes` bytes, checking the screen after each and taking the
    /// replies as a caller would.
    fn feed(&mut self, data: &[u8], sizes: &[usize], w: &mut Watch) {
        let mut at = 0;
        for &n in sizes {
            let t = &mut self.t;
            let alt_dims = t.screen().saved_grid().map(|g| (g.sx, g.sy));
            if alt_dims.is_some() {
                // Leaving the alternate screen within this read reflows the primary screen to
                // the width it was entered at and back: each row may split into as many rows
                // as it has cells, for a moment.
                let rows = t.screen().grid.total() as usize;
                w.grid_rows_hwm = w.grid_rows_hwm.max(rows * (2 * w.max_cols as usize + 3));
            }
            let hsize_before = t.history_size();
            let start = Instant::now();
            t.feed(&data[at..at + n]);
            let took = start.elapsed();
            assert!(
                took < Duration::from_secs(5),
                "a {n}-byte read took {took:?}"
            );
            check_screen(t, self.cols, self.rows, &mut self.overhang);
            // Program output alone never grows the history past its limit, except when leaving
            // an alternate screen entered at another size reflows the primary screen.
            let limit = t.history_limit().max(1).max(hsize_before);
            if alt_dims.is_none_or(|d| d == (self.cols, self.rows)) {
                assert!(
                    t.history_size() <= limit,
                    "history grew to {}",
                    t.history_size()
                );
            }
            let r = t.take_replies();
            assert!(
                r.len() <= 8 * n + 64,
                "{} reply bytes for a {n}-byte read",
                r.len()
            );
            assert!(
                r.first().is_none_or(|&b| b == 0x1b),
                "a reply that is not a sequence"
            );
            self.replies.extend_from_slice(&r);
            at += n;
        }
    }

    fn resize(&mut self, cols: u32, rows: u32) {
        self.t.resize(cols, rows);
        (self.cols, self.rows) = (cols.clamp(1, u32::from(u16::MAX)), rows.max(1));
        self.overhang = true;
        check_screen(&self.t, self.cols, self.rows, &mut self.overhang);
    }

    /// Freezes the terminal and checks that no reader can tell, that the chunk is within its
    /// allowance and that nothing else grew; then does what `how` says and checks again.
    fn freeze(&mut self, how: Freeze) {
        let t = &mut self.t;
        let before = seen(t);
        if t.is_frozen() {
            let chunk = t.frozen_bytes();
            t.freeze();
            assert_eq!(t.frozen_bytes(), chunk, "freezing twice changed the chunk");
        } else {
            let (allowed, besides) = (chunk_allowance(t), heap_besides_rows(t));
            t.freeze();
            // Sealed history lines stay with the grids, compressed.
            let (chunk, sealed) = (t.frozen_bytes(), t.sealed_bytes());
            assert!(
                chunk + sealed <= allowed,
                "a {chunk}-byte chunk and {sealed} sealed, allowed {allowed}"
            );
            let rest = t.heap_bytes() - chunk - sealed;
            assert!(
                rest <= besides,
                "frozen, {rest} bytes besides the chunk and sealed lines, hot {besides}"
            );
        }
        assert!(t.is_frozen());
        assert!(seen(t) == before, "freezing changed what is seen");
        match how {
            Freeze::Thaw => t.thaw(),
            Freeze::Stay => {}
            Freeze::Cold => {
                let frozen = t.heap_bytes();
                let chunk = t.take_frozen().expect("a frozen terminal gives its chunk");
                assert!(t.is_cold() && t.heap_bytes() + chunk.len() <= frozen);
                t.restore_frozen(chunk);
                assert!(t.is_frozen());
            }
        }
        assert!(
            seen(t) == before,
            "after freezing ({how:?}) what is seen changed"
        );
    }

    /// Captures with `opts` (and `-a`, `-P`) and checks the output's shape.
    fn capture(&self, opts: &CaptureOptions, max_cols: u32) -> Vec<u8> {
        let t = &self.t;
        let out = t.capture(opts);
        check_capture(&out, opts, t.history_size(), self.rows, max_cols);
        match t.capture_alternate(opts) {
            Ok(alt) => {
                let g = t.screen().saved_grid().expect("alternate screen on");
                check_capture(&alt, opts, g.hsize, g.sy, max_cols);
            }
            Err(_) => assert!(!t.alternate_on(), "-a failed with the alternate screen on"),
        }
        check_pending(t);
        let _ = t.cursor_character();
        out
    }
}

/// Where two captures first differ, for a short failure message.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let at = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let line = a[..at].iter().filter(|&&c| c == b'\n').count();
    let show = |s: &[u8]| {
        String::from_utf8_lossy(&s[at.min(s.len())..(at + 40).min(s.len())]).into_owned()
    };
    format!("line {line}, byte {at}: {:?} vs {:?}", show(a), show(b))
}

/// Two terminals fed the same stream in different pieces must end up the same, unless a zero
/// width joiner was written (it joins only within one read, as in tmux).
fn compare_twins(a: &Terminal, b: &Terminal, opts: &CaptureOptions) {
    let (x, y) = (a.capture(opts), b.capture(opts));
    assert!(
        x == y,
        "reads split differently capture differently\n  {opts:?}, {}",
        first_difference(&x, &y)
    );
    let (x, y) = (a.capture_alternate(opts), b.capture_alternate(opts));
    assert!(
        x == y,
        "reads split differently capture -a differently\n  {opts:?}"
    );
    assert!(
        a.capture_pending(false) == b.capture_pending(false),
        "reads split differently leave different -P"
    );
    assert!(
        a.cursor() == b.cursor(),
        "reads split differently leave the cursor elsewhere\n  {:?} vs {:?}",
        a.cursor(),
        b.cursor()
    );
    assert!(
        a.title() == b.title(),
        "reads split differently set different titles"
    );
    assert!(
        a.mode() == b.mode(),
        "reads split differently set different modes"
    );
    assert!(
        a.history_size() == b.history_size(),
        "reads split differently keep different history"
    );
    assert!(
        a.cursor_character() == b.cursor_character(),
        "reads split differently differ under the cursor"
    );
}

// ---- randomized cases ----

/// One step of a case.
#[derive(Clone, Debug)]
enum Op {
    /// Bytes the program writes, read in pieces of `a` bytes by the terminal under test and of
    /// `b` bytes by its twin.
    Feed {
        data: Vec<u8>,
        a: Vec<usize>,
        b: Vec<usize>,
    },
    Resize(u32, u32),
    /// The host's timer runs out (it gives up an unterminated string, if there is one).
    Timer,
    /// The user sets the title (`select-pane -T`).
    SetTitle(String),
    Capture(CaptureOptions),
    /// The host freezes the terminal under test (not its twin).
    Freeze(Freeze),
}

#[derive(Clone, Debug)]
struct Case {
    cols: u32,
    rows: u32,
    hlimit: u32,
    ops: Vec<Op>,
}

fn generate(seed: u64) -> Case {
    let mut rng = Rng(seed);
    let huge = rng.chance(1, 40);
    let (cols, rows) = if huge {
        (10_000, rng.range(1, 4) as u32)
    } else {
        random_size(&mut rng)
    };
    let hlimit = if huge {
        rng.pick(&[0, 1, 20])
    } else {
        rng.pick(&[0, 1, 2, 10, 100, 2000])
    };
    let (mut c, mut r) = (cols.max(1), rows.max(1));
    let mut ops = Vec::new();
    for _ in 0..if huge { 8 } else { rng.range(1, 40) } {
        ops.push(match rng.below(13) {
            0..=6 => {
                let data = hostile_stream(&mut rng, c, r);
                let a = chunk_sizes(&mut rng, data.len());
                let b = chunk_sizes(&mut rng, data.len());
                Op::Feed { data, a, b }
            }
            7 => {
                let (nc, nr) = if huge && rng.chance(1, 2) {
                    (10_000, rng.range(1, 4) as u32)
                } else {
                    random_size(&mut rng)
                };
                (c, r) = (nc.max(1), nr.max(1));
                Op::Resize(nc, nr)
            }
            8 if rng.chance(1, 2) => Op::Timer,
            8 => {
                let mut title = Vec::new();
                push_string_body(&mut rng, &mut title);
                Op::SetTitle(String::from_utf8_lossy(&title).into_owned())
            }
            _ => Op::Capture(random_options(&mut rng, hlimit, r)),
        });
    }
    // Freezes are drawn after the other steps, so that a seed gives the steps it gave before.
    let mut steps = Vec::with_capacity(ops.len());
    for op in ops {
        steps.push(op);
        if rng.chance(1, 4) {
            steps.push(Op::Freeze(rng.pick(&[
                Freeze::Thaw,
                Freeze::Stay,
                Freeze::Cold,
            ])));
        }
    }
    let ops = steps;
    Case {
        cols,
        rows,
        hlimit,
        ops,
    }
}

/// Runs a case, checking everything after every step; panics on the first failure.
fn execute(case: &Case) {
    let mut a = Subject::new(case.cols, case.rows, case.hlimit);
    let mut b = Subject::new(case.cols, case.rows, case.hlimit);
    // Reads split differently may differ after a zero width joiner (see `may_write_joiner`):
    // the twin stops being compared.
    let mut twins = true;
    let mut w = Watch::new(case.cols, case.rows, case.hlimit);
    let mut high: Vec<u8> = Vec::new();
    for (i, op) in case.ops.iter().enumerate() {
        match op {
            Op::Feed { data, a: sa, b: sb } => {
                w.fed += data.len();
                a.feed(data, sa, &mut w);
                high.extend(data.iter().filter(|&&b| b >= 0x80));
                twins &= !may_write_joiner(&high);
                high.drain(..high.len().saturating_sub(2));
                if twins {
                    b.feed(data, sb, &mut Watch::new(1, 1, 0));
                }
            }
            Op::Resize(c, r) => {
                a.resize(*c, *r);
                b.resize(*c, *r);
                w.max_cols = w.max_cols.max(a.cols);
                w.max_cursor_x = w.max_cursor_x.max(a.t.cursor().0);
                w.max_rows = w.max_rows.max(a.rows);
            }
            Op::Timer => {
                for s in [&mut a, &mut b] {
                    if s.t.in_string() {
                        s.t.abandon_string();
                        assert!(!s.t.in_string());
                    }
                }
            }
            Op::SetTitle(title) => {
                assert_eq!(a.t.set_title(title), b.t.set_title(title));
            }
            Op::Capture(opts) => {
                a.capture(opts, w.max_cols);
                if twins {
                    compare_twins(&a.t, &b.t, opts);
                }
            }
            Op::Freeze(how) => a.freeze(*how),
        }
        // A frozen terminal's memory was checked when it froze (its rows are in the chunk).
        if !a.t.is_frozen() {
            check_memory(&a.t, &mut w, i % 4 == 3 || i + 1 == case.ops.len());
        }
    }
    if twins {
        assert!(
            a.replies == b.replies,
            "reads split differently give different replies"
        );
        for opts in common::whole_captures() {
            a.capture(&opts, w.max_cols);
            compare_twins(&a.t, &b.t, &opts);
        }
    }
}

// ---- catching, minimizing and reporting failures ----

thread_local! {
    /// Set while this thread runs a case whose panic is caught and reported at the end.
    static CATCHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static LAST_PANIC: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Keeps panics of caught cases quiet (they are summarized), leaving other threads' alone.
fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !CATCHING.with(|c| c.get()) {
                return previous(info);
            }
            let payload = info.payload();
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let at = info
                .location()
                .map_or(String::new(), |l| format!("{}:{}", l.file(), l.line()));
            LAST_PANIC.with(|p| *p.borrow_mut() = format!("{msg} (at {at})"));
        }));
    });
}

/// A failure's kind: the first line of its message with the numbers taken out.
fn signature(msg: &str) -> String {
    let first = msg.lines().next().unwrap_or("");
    let mut out = String::new();
    for c in first.chars() {
        if !c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('#') {
            out.push('#');
        }
    }
    out
}

/// Runs a case, returning its panic message, if any.
fn try_case(case: &Case) -> Result<(), String> {
    install_panic_hook();
    CATCHING.with(|c| c.set(true));
    let result = std::panic::catch_unwind(|| execute(case));
    CATCHING.with(|c| c.set(false));
    result.map_err(|_| LAST_PANIC.with(|p| std::mem::take(&mut *p.borrow_mut())))
}

/// Shrinks a failing case while it fails the same way: fewer steps, reads in one piece or one
/// byte at a time, fewer bytes, a smaller terminal.
fn minimize(case: &Case, kind: &str, deadline: Instant) -> Case {
    let fails = |c: &Case| try_case(c).is_err_and(|m| signature(&m) == kind);
    let mut best = case.clone();
    let mut changed = true;
    while changed && Instant::now() < deadline {
        changed = false;
        let mut i = 0;
        while i < best.ops.len() {
            let mut c = best.clone();
            c.ops.remove(i);
            if fails(&c) {
                best = c;
                changed = true;
            } else {
                i += 1;
            }
        }
        for i in 0..best.ops.len() {
            let Op::Feed { data, a, b } = &best.ops[i] else {
                continue;
            };
            // Settle on whole reads or single bytes, then cut bytes out in halving blocks.
            let n = data.len();
            let mut split = None;
            for (x, y) in [(true, true), (true, false), (false, true), (false, false)] {
                let piece = |whole: bool| if whole { vec![n] } else { vec![1; n] };
                let mut c = best.clone();
                c.ops[i] = Op::Feed {
                    data: data.clone(),
                    a: piece(x),
                    b: piece(y),
                };
                if (a.len() > 1 || b.len() > 1 || !x || !y) && fails(&c) {
                    best = c;
                    split = Some((x, y));
                    changed = true;
                    break;
                }
            }
            let Some((x, y)) = split.or_else(|| match &best.ops[i] {
                Op::Feed { a, b, .. } if a.len() <= 1 && b.len() <= 1 => Some((true, true)),
                _ => None,
            }) else {
                continue;
            };
            let mut block = n / 2;
            while block > 0 && Instant::now() < deadline {
                let mut at = 0;
                loop {
                    let Op::Feed { data, .. } = &best.ops[i] else {
                        unreachable!()
                    };
                    if at >= data.len() {
                        break;
                    }
                    let mut d = data.clone();
                    d.drain(at..(at + block).min(d.len()));
                    let m = d.len();
                    let piece = |whole: bool| if whole { vec![m] } else { vec![1; m] };
                    let mut c = best.clone();
                    c.ops[i] = Op::Feed {
                        data: d,
                        a: piece(x),
                        b: piece(y),
                    };
                    if fails(&c) {
                        best = c;
                        changed = true;
                    } else {
                        at += block;
                    }
                }
                block /= 2;
            }
        }
        for (cols, rows, hlimit) in [
            (1, best.rows, best.hlimit),
            (best.cols, 1, best.hlimit),
            (best.cols, best.rows, 0),
            (best.cols, best.rows, 1),
            (best.cols.min(80), best.rows.min(24), best.hlimit.min(10)),
        ] {
            if (cols, rows, hlimit) != (best.cols, best.rows, best.hlimit) {
                let c = Case {
                    cols,
                    rows,
                    hlimit,
                    ..best.clone()
                };
                if fails(&c) {
                    best = c;
                    changed = true;
                }
            }
        }
    }
    best
}

/// A case as the calls that reproduce it.
fn describe(case: &Case) -> String {
    let mut out = format!(
        "Terminal::new({}, {}, {})",
        case.cols, case.rows, case.hlimit
    );
    for op in &case.ops {
        out.push_str("; ");
        match op {
            Op::Feed { data, a, b } => {
                let how = |s: &[usize]| match s.len() {
                    0 | 1 => "whole".to_string(),
                    n if n == data.len() => "bytewise".to_string(),
                    _ => format!("{s:?}"),
                };
                out.push_str(&format!(
                    "feed(b\"{}\") [{} / twin {}]",
                    data.escape_ascii(),
                    how(a),
                    how(b)
                ));
            }
            Op::Resize(c, r) => out.push_str(&format!("resize({c}, {r})")),
            Op::Timer => out.push_str("timer"),
            Op::SetTitle(t) => out.push_str(&format!("set_title({t:?})")),
            Op::Capture(o) => out.push_str(&format!("capture({o:?})")),
            Op::Freeze(how) => out.push_str(&format!("freeze({how:?})")),
        }
    }
    out
}

#[test]
fn random_hostile_streams() {
    let seconds = std::env::var("ZEROPTY_FUZZ_SECONDS").ok().map(|s| {
        s.parse::<f64>()
            .expect("ZEROPTY_FUZZ_SECONDS is a number of seconds")
    });
    if let Some(seed) = env_u64("ZEROPTY_FUZZ_CASE") {
        eprintln!("hostile_input: replaying case {seed:#x}");
        let case = generate(seed);
        if let Err(msg) = try_case(&case) {
            let budget = Duration::from_secs_f64(seconds.unwrap_or(60.0));
            let small = minimize(&case, &signature(&msg), Instant::now() + budget);
            panic!("{msg}\n  minimized: {}", describe(&small));
        }
        return;
    }
    let seed = env_u64("ZEROPTY_FUZZ_SEED").unwrap_or_else(|| {
        if seconds.is_some() {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        } else {
            // Short runs (CI) use a fixed seed so that a failure is the code's, not the draw's.
            0x5eed_0f2e_207e_1100
        }
    });
    let budget = Duration::from_secs_f64(seconds.unwrap_or(4.0));
    eprintln!("hostile_input: ZEROPTY_FUZZ_SEED={seed:#x}, running {budget:?}");
    let start = Instant::now();
    let mut master = Rng(seed);
    let mut cases = 0u64;
    let mut failures: Vec<(String, String, u64, u64)> = Vec::new();
    while cases == 0 || start.elapsed() < budget {
        let seed = master.next_u64();
        cases += 1;
        if let Err(msg) = try_case(&generate(seed)) {
            let kind = signature(&msg);
            match failures.iter_mut().find(|f| f.0 == kind) {
                Some(f) => f.3 += 1,
                None => failures.push((kind, msg, seed, 1)),
            }
        }
    }
    eprintln!("hostile_input: {cases} cases in {:?}", start.elapsed());
    if failures.is_empty() {
        return;
    }
    // Minimize each kind of failure (a few seconds each) so the report shows small inputs.
    let mut report = Vec::new();
    for (kind, msg, seed, n) in &failures {
        let small = minimize(
            &generate(*seed),
            kind,
            Instant::now() + Duration::from_secs(5),
        );
        report.push(format!(
            "{n} case(s): {msg}\n  replay: ZEROPTY_FUZZ_CASE={seed:#x}\n  minimized: {}",
            describe(&small)
        ));
    }
    panic!(
        "{} kinds of failure in {cases} cases:\n{}",
        failures.len(),
        report.join("\n")
    );
}

// ---- specific hostile inputs ----

/// The screen as `capture-pane -p -e -S - -E -` would print it (before `-p`'s final newline).
fn capture_all(t: &Terminal, escapes: bool) -> Vec<u8> {
    t.capture(&CaptureOptions {
        start: Some(LineSpec::Edge),
        end: Some(LineSpec::Edge),
        escapes,
        ..Default::default()
    })
}

/// Feeds `total` bytes of `pattern` (repeated) in 64 KiB reads, checking after each read that
/// the heap stays within `allowed` bytes over `base` and that the screen does not change.
fn feed_endless(
    t: &mut Terminal,
    pattern: &[u8],
    total: usize,
    base: usize,
    allowed: usize,
    what: &str,
) {
    let screen = capture_all(t, true);
    let cursor = t.cursor();
    let read: Vec<u8> = pattern.iter().copied().cycle().take(64 * KIB).collect();
    let mut fed = 0;
    while fed < total {
        t.feed(&read);
        fed += read.len();
        let grown = t.heap_bytes().saturating_sub(base);
        assert!(
            grown <= allowed,
            "{what}: heap grew {grown} bytes after {fed} bytes"
        );
        assert!(
            t.capture_pending(false).len() <= PENDING_LIMIT,
            "{what}: -P unbounded"
        );
    }
    assert_eq!(t.cursor(), cursor, "{what}: the cursor moved");
    assert!(capture_all(t, true) == screen, "{what}: the screen changed");
}

#[test]
fn endless_sequences_keep_memory_bounded() {
    // Strings (OSC, APC, ESC k) are kept up to 1 MiB and the unfinished sequence up to 64 KiB
    // for `-P`; everything else about an unfinished sequence is fixed-size.
    let strings = STRING_LIMIT + PENDING_LIMIT + 40 * KIB;
    let fixed = PENDING_LIMIT + 4 * KIB;
    let text: Vec<u8> = (0x20..0x7f).chain(0xa0..=0xff).collect();
    let dcs: Vec<u8> = (0..=0xff).filter(|&b| b != 0x1b).collect();
    // What, how it starts, what repeats, how many bytes, how much the heap may grow.
    type Endless<'a> = (&'a str, &'a [u8], &'a [u8], usize, usize);
    let cases: &[Endless] = &[
        ("OSC 0", b"\x1b]0;", &text, 10 * MIB, strings),
        ("OSC 2", b"\x1b]2;", &text, 3 * MIB, strings),
        ("OSC 7", b"\x1b]7;", &text, 3 * MIB, strings),
        ("OSC 52", b"\x1b]52;c;", &text, 3 * MIB, fixed),
        ("OSC 8", b"\x1b]8;;", &text, 3 * MIB, fixed),
        ("APC", b"\x1b_", &text, 3 * MIB, strings),
        ("ESC k", b"\x1bk", &text, 3 * MIB, strings),
        ("DCS", b"\x1bP1;2|", &dcs, 10 * MIB, fixed),
        (
            "DCS with escapes",
            b"\x1bPq",
            b"#0;2;0;0;0\x1bx~~",
            3 * MIB,
            fixed,
        ),
        ("SOS", b"\x1bX", &text, 3 * MIB, fixed),
        ("PM", b"\x1b^", &text, 3 * MIB, fixed),
        ("CSI parameters", b"\x1b[", b"1;", 10 * MIB, fixed),
        ("CSI colons", b"\x1b[38", b":2", 3 * MIB, fixed),
        ("CSI intermediates", b"\x1b[1", b" ", 3 * MIB, fixed),
        ("ESC intermediates", b"\x1b", b"!", 3 * MIB, fixed),
    ];
    for &(what, start, pattern, total, allowed) in cases {
        let mut t = Terminal::new(80, 24, 100);
        t.feed(b"\x1b]2;before\x07text\r\n");
        let base = t.heap_bytes();
        t.feed(start);
        feed_endless(&mut t, pattern, total, base, allowed, what);
        // The sequence ends (or, for CSI and ESC, ends being ignored); the buffers go.
        t.feed(b"\x07\x1b\\\x18ok");
        assert_eq!(
            t.title(),
            "before",
            "{what}: an over-long string was not discarded"
        );
        assert!(!t.in_string(), "{what}: still in a string");
        let text = String::from_utf8(capture_all(&t, false)).unwrap();
        assert!(text.starts_with("text\nok\n"), "{what}: {text:?}");
        let left = t.heap_bytes().saturating_sub(base);
        assert!(
            left <= 4 * KIB,
            "{what}: {left} bytes kept after the sequence ended"
        );
    }
}

#[test]
fn huge_numeric_parameters_are_clamped_or_ignored() {
    // Each sequence with a huge count must act exactly as with a count larger than any screen
    // (65535), or be ignored (numbers past 2^31 - 1 make tmux drop the sequence), and fast.
    const BIG: &str = "2147483647";
    let clamped: &[&str] = &[
        "A", "B", "C", "D", "E", "F", "G", "`", "d", "@", "P", "X", "L", "M", "S", "T", "Z", "b",
    ];
    let ignored: &[&[u8]] = &[
        b"\x1b[99999999999999A",
        b"\x1b[4294967296L",
        b"\x1b[2147483648b",
        b"\x1b[4294967297;4294967297H",
        b"\x1b[-1A",
    ];
    let fill = "\x1b[31mA tall screen of text\r\n".repeat(30) + "\x1b[2;2Hx";
    for (cols, rows, hlimit) in [(80, 24, 100), (1, 1, 0), (2, 1, 10), (10_000, 3, 10)] {
        let mut base = Terminal::new(cols, rows, hlimit);
        base.feed(fill.as_bytes());
        let check = |seq: &[u8], reference: &[u8]| {
            let (mut a, mut b) = (base.clone(), base.clone());
            let start = Instant::now();
            a.feed(seq);
            let took = start.elapsed();
            b.feed(reference);
            let what = String::from_utf8_lossy(seq).into_owned();
            assert!(
                took < Duration::from_secs(2),
                "{what:?} on {cols}x{rows} took {took:?}"
            );
            assert!(
                capture_all(&a, true) == capture_all(&b, true),
                "{what:?} on {cols}x{rows}"
            );
            assert_eq!(a.cursor(), b.cursor(), "{what:?} on {cols}x{rows}");
            let (x, y) = a.cursor();
            assert!(x <= a.cols() && y < a.rows());
            assert!(a.heap_bytes() <= base.heap_bytes() + 64 * KIB + 40 * cols as usize);
        };
        for f in clamped {
            check(
                format!("\x1b[{BIG}{f}").as_bytes(),
                format!("\x1b[65535{f}").as_bytes(),
            );
        }
        check(
            format!("\x1b[{BIG};{BIG}H").as_bytes(),
            b"\x1b[65535;65535H",
        );
        check(
            format!("\x1b[{BIG};{BIG}r").as_bytes(),
            b"\x1b[65535;65535r",
        );
        check(format!("\x1b[1;{BIG}r").as_bytes(), b"\x1b[1;65535r");
        for seq in ignored {
            check(seq, b"");
        }
        // Numbers that are only colours or modes: whatever they do, they stay cheap.
        for seq in [
            "\x1b[38;5;2147483647m",
            "\x1b[?2147483647h",
            "\x1b[2147483647J",
            "\x1b[2147483647 q",
        ] {
            check(seq.as_bytes(), seq.as_bytes());
        }
    }
}

#[test]
fn deep_title_stacks_stay_bounded() {
    let mut t = Terminal::new(80, 24, 100);
    t.feed(b"\x1b]0;t0\x07");
    let base = t.heap_bytes();
    let pushes = b"\x1b[22;0t".repeat(100_000);
    for read in pushes.chunks(64 * KIB) {
        t.feed(read);
    }
    let grown = t.heap_bytes() - base;
    let stack = TITLE_STACK_LIMIT * (std::mem::size_of::<String>() + 16);
    assert!(
        grown <= stack + KIB,
        "100k pushes of a short title grew the heap {grown} bytes"
    );
    for read in b"\x1b[23;0t".repeat(100_000).chunks(64 * KIB) {
        t.feed(read);
    }
    assert_eq!(t.title(), "t0");

    // The stack keeps the newest titles and pops them in reverse.
    for i in 0..100 {
        t.feed(format!("\x1b]2;t{i}\x07\x1b[22;0t").as_bytes());
    }
    t.feed(b"\x1b]2;last\x07");
    for i in 0..40 {
        t.feed(b"\x1b[23;0t");
        let want = format!("t{}", (99 - i).max(100 - TITLE_STACK_LIMIT));
        assert_eq!(t.title(), want, "pop {i}");
    }

    // The longest title a program can set, pushed over and over: bounded by the stack's depth.
    let mut t = Terminal::new(80, 24, 100);
    let base = t.heap_bytes();
    let long = vec![b'x'; STRING_LIMIT - 64];
    t.feed(b"\x1b]2;");
    t.feed(&long);
    t.feed(b"\x07");
    assert_eq!(
        t.title().len(),
        long.len(),
        "a string just under the limit sets the title"
    );
    for _ in 0..100 {
        t.feed(b"\x1b[22;2t");
    }
    let grown = t.heap_bytes() - base;
    let allowed = (TITLE_STACK_LIMIT + 1) * STRING_LIMIT + 64 * KIB;
    assert!(
        grown <= allowed,
        "a stack of long titles holds {grown} bytes"
    );
}

type Rgb = (u8, u8, u8);

/// The background colour of each cell of a `capture -e` line, in order.
fn cell_backgrounds(line: &str) -> Vec<(char, Option<Rgb>)> {
    let mut out = Vec::new();
    let mut bg = None;
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if let Some(seq) = rest.strip_prefix("\x1b[") {
            let end = seq.find('m').expect("an SGR sequence");
            let params: Vec<&str> = seq[..end].split(';').collect();
            let mut i = 0;
            while i < params.len() {
                match params[i] {
                    "0" | "49" => bg = None,
                    "48" if params.get(i + 1) == Some(&"2") => {
                        let n = |k: usize| params[i + k].parse::<u8>().unwrap();
                        bg = Some((n(2), n(3), n(4)));
                        i += 4;
                    }
                    _ => {}
                }
                i += 1;
            }
            rest = &seq[end + 1..];
            continue;
        }
        out.push((c, bg));
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The colour of the `i`th of the 70k cells.
fn nth_colour(i: u32) -> Rgb {
    let c = i + 1;
    ((c >> 16) as u8, (c >> 8) as u8, c as u8)
}

/// Writes 70k cells of distinct background colours on an 80-column screen, in small reads,
/// giving up (and failing) if that takes longer than `limit`.
fn write_distinct_colours(t: &mut Terminal, limit: Duration) {
    let mut data = Vec::new();
    for i in 0..70_000 {
        let (r, g, b) = nth_colour(i);
        data.extend_from_slice(format!("\x1b[48;2;{r};{g};{b}mx").as_bytes());
    }
    let start = Instant::now();
    for read in data.chunks(256) {
        t.feed(read);
        let took = start.elapsed();
        assert!(
            took < limit,
            "writing 70k colours took over {took:?} (compaction per cell?)"
        );
    }
}

/// Checks that the last `n` cells captured are the last `n` written, each in its own colour.
fn check_last_colours(t: &Terminal, n: usize) {
    let out = String::from_utf8(capture_all(t, true)).unwrap();
    let cells: Vec<_> = out.lines().flat_map(cell_backgrounds).collect();
    assert!(cells.len() >= n, "only {} cells captured", cells.len());
    let first = 70_000 - n as u32;
    for (k, &(ch, bg)) in cells[cells.len() - n..].iter().enumerate() {
        let i = first + k as u32;
        assert_eq!(ch, 'x');
        assert_eq!(
            bg,
            Some(nth_colour(i)),
            "cell {i} of 70000 shows the wrong colour"
        );
    }
}

#[test]
fn palette_compacts_under_70k_colours() {
    // 124 lines of 80 cells are kept: old colours fall out of use and the palette compacts.
    let mut t = Terminal::new(80, 24, 100);
    write_distinct_colours(&mut t, Duration::from_secs(5));
    let kept = (t.history_size() + 24) as usize * 80;
    check_last_colours(&t, kept.min(70_000) - 80);
    let s = t.screen();
    assert!(s.palette.len() <= Palette::CAPACITY);
    assert!(s.palette.heap_bytes() <= palette_allowance());
}

#[test]
fn palette_full_of_colours_in_use_keeps_the_newest_right() {
    // History and screen hold all 70k cells, more distinct colours than the palette's 65536
    // entries: compaction cannot free any, but the cells written last (the screen) must still
    // show their own colours, and writing must not slow to a crawl.
    let mut t = Terminal::new(80, 24, 2000);
    write_distinct_colours(&mut t, Duration::from_secs(5));
    check_last_colours(&t, 80 * 24);
    assert!(t.screen().palette.heap_bytes() <= palette_allowance());
}

/// The `i`th of 70k distinct combining sequences: a letter and two combining marks.
fn nth_grapheme(i: u32) -> String {
    let base = char::from(b'a' + (i % 26) as u8);
    let mark = |n: u32| char::from_u32(0x300 + n % 112).unwrap();
    [base, mark(i / 26), mark(i / 26 / 112)]
        .into_iter()
        .collect()
}

fn write_distinct_graphemes(t: &mut Terminal, limit: Duration) {
    let data: String = (0..70_000).map(nth_grapheme).collect();
    let start = Instant::now();
    // Reads end on character boundaries (a read boundary is also where a ZWJ sequence ends).
    let mut at = 0;
    let bytes = data.as_bytes();
    while at < bytes.len() {
        let mut end = (at + 16).min(bytes.len());
        while !data.is_char_boundary(end) {
            end -= 1;
        }
        t.feed(&bytes[at..end]);
        at = end;
        let took = start.elapsed();
        assert!(
            took < limit,
            "writing 70k graphemes took over {took:?} (compaction per cell?)"
        );
    }
}

fn check_last_graphemes(t: &Terminal, n: usize) {
    let out = String::from_utf8(capture_all(t, false)).unwrap();
    let text: String = out.lines().collect();
    let want: String = (70_000 - n as u32..70_000).map(nth_grapheme).collect();
    assert!(
        text.ends_with(&want),
        "the last {n} graphemes are not the ones written"
    );
}

#[test]
fn grapheme_table_compacts_under_70k_combining_sequences() {
    let mut t = Terminal::new(80, 24, 100);
    write_distinct_graphemes(&mut t, Duration::from_secs(5));
    check_last_graphemes(&t, 80 * 24);
    let g = &t.screen().graphemes;
    assert!(g.len() <= Graphemes::CAPACITY);
    assert!(g.heap_bytes() <= grapheme_allowance(Graphemes::CAPACITY));

    // A one-cell screen keeps one grapheme in use; the table still fills to its capacity
    // before compacting, and no further.
    let mut t = Terminal::new(1, 1, 0);
    write_distinct_graphemes(&mut t, Duration::from_secs(5));
    assert_eq!(
        capture_all(&t, false),
        format!("{}\n", nth_grapheme(69_999)).into_bytes()
    );
    let g = &t.screen().graphemes;
    assert!(g.len() <= Graphemes::CAPACITY);
    assert!(t.heap_bytes() <= grapheme_allowance(Graphemes::CAPACITY) + 64 * KIB);
}

#[test]
fn grapheme_table_full_of_graphemes_in_use_stays_fast() {
    // All 70k cells stay in history: the table cannot compact below what the cells use, and
    // must not rescan the whole history for every new grapheme.
    let mut t = Terminal::new(80, 24, 2000);
    write_distinct_graphemes(&mut t, Duration::from_secs(5));
    check_last_graphemes(&t, 70_000);
}

/// Whether `bytes` may write a zero width joiner, which joins what follows it within one read
/// only (tmux forgets it at the end of a read), so that reads split differently differ. Its
/// three bytes may be apart, with anything between them that leaves a UTF-8 character pending
/// (DEL, escape sequences, strings, as in tmux), so only the bytes with the top bit set count.
fn may_write_joiner(bytes: &[u8]) -> bool {
    let high: Vec<u8> = bytes.iter().copied().filter(|&b| b >= 0x80).collect();
    high.windows(3).any(|w| w == b"\xe2\x80\x8d")
}

/// Feeds `data` between two letters whole and one byte at a time; both must give the same
/// screen, a UTF-8 capture and a cursor on the screen.
fn check_split_invariant(data: &[u8], cols: u32) {
    let input = [b"A".as_slice(), data, b"B"].concat();
    if may_write_joiner(&input) {
        return;
    }
    let mut whole = Terminal::new(cols, 2, 0);
    whole.feed(&input);
    let mut bytewise = Terminal::new(cols, 2, 0);
    for b in &input {
        bytewise.feed(std::slice::from_ref(b));
    }
    let (a, b) = (capture_all(&whole, true), capture_all(&bytewise, true));
    assert!(
        a == b,
        "{:?}: {}",
        input.escape_ascii().to_string(),
        first_difference(&a, &b)
    );
    assert!(
        std::str::from_utf8(&a).is_ok(),
        "{:?} captured as invalid UTF-8",
        input
    );
    assert_eq!(
        whole.cursor(),
        bytewise.cursor(),
        "{:?}",
        input.escape_ascii().to_string()
    );
    let (x, y) = whole.cursor();
    assert!(x <= cols && y < 2);
}

#[test]
fn invalid_utf8_of_every_shape() {
    for shape in INVALID_UTF8 {
        for follow in [
            b"".as_slice(),
            b"x",
            b"\x1b[m",
            b"\r\n",
            b"\xc3\xa9",
            b"\xe4\xb8\xad",
            b"\x80",
        ] {
            for cols in [1, 2, 3, 80] {
                check_split_invariant(&[*shape, follow].concat(), cols);
            }
        }
    }
    // Every two-byte sequence starting with a byte that is not ASCII.
    for b1 in 0x80..=0xffu8 {
        for b2 in 0..=0xffu8 {
            check_split_invariant(&[b1, b2], 4);
        }
    }
    // Every three-byte sequence from a lead byte, for continuations and their near misses.
    let third = [0x80, 0xbf, 0x41, 0x1b, 0xc2, 0x0a, 0xe2];
    for b1 in 0xc0..=0xffu8 {
        for b2 in 0..=0xffu8 {
            for b3 in third {
                check_split_invariant(&[b1, b2, b3], 4);
            }
        }
    }
    // Four-byte leads (including the ones past U+10FFFF) with edge continuations.
    let edges = [0x7f, 0x80, 0x8f, 0x90, 0xbf, 0xc0];
    for b1 in 0xf0..=0xf7u8 {
        for b2 in edges {
            for b3 in edges {
                for b4 in [0x80, 0xbf, 0x41, 0x1b] {
                    check_split_invariant(&[b1, b2, b3, b4], 4);
                }
            }
        }
    }
}

#[test]
fn named_sizes_survive_hostile_streams() {
    // The sizes most likely to break arithmetic: one cell, one row, one column, very wide.
    for (cols, rows) in [(1, 1), (2, 1), (1, 50), (500, 3), (10_000, 3), (0, 0)] {
        for n in 0..if cols >= 10_000 { 3 } else { 25 } {
            let mut case = generate(0x5122_0000 + n);
            (case.cols, case.rows) = (cols, rows);
            case.hlimit = case.hlimit.min(if cols >= 10_000 { 20 } else { 2000 });
            if let Err(msg) = try_case(&case) {
                let small = minimize(
                    &case,
                    &signature(&msg),
                    Instant::now() + Duration::from_secs(5),
                );
                panic!("{cols}x{rows}: {msg}\n  minimized: {}", describe(&small));
            }
        }
    }
}

// ---- resizes, overwrites and extreme sizes ----

#[test]
fn resize_after_a_wrap_on_the_last_row() {
    // A wrap on a row that cannot scroll (below the scroll region, or the only row of a screen
    // without history) leaves the last row marked wrapped; the next reflow must not walk past
    // the last row looking for the end of the line.
    let mut t = Terminal::new(80, 24, 2000);
    t.feed(b"\x1b[1;23r\x1b[24H");
    t.feed(&[b'y'; 160]);
    t.resize(100, 24);
    assert_eq!(t.cursor().1, 23);

    let mut t = Terminal::new(80, 1, 0);
    t.feed(&[b'x'; 160]);
    t.resize(100, 1);
    assert_eq!(t.cursor().1, 0);
}

#[test]
fn combining_character_at_a_cursor_reflowed_past_the_width() {
    // A reflow puts the cursor at its place in its line, past the width when it stood beyond
    // the line's last cell: here column 41 of a 19-column screen. A combining character
    // written there joins the cell before the cursor, so the row holds 41 cells, and a wider
    // screen shows the mark in column 40 (the stream the fuzzer found; tmux 3.3a gives this
    // cursor and this line).
    let mut t = Terminal::new(9, 18, 2);
    t.feed(b"\x1b9;4Hh6;18;6;;9999999999004;18;7;FM.$SY\x1bY<tl(U\x1bH");
    t.feed(b"DiC-6J9x-{bpS!/A\xd2\xa9_w\xd4\xb2%:oxES5V/47N_E-kpgs\xda\xaaf\n?#\\<7KP}mGJ'PmV*");
    t.feed(b"\xe5\x89\xbdwpJ\x0cM]`dl8<a2<_[d8Gxg1&[O=\\W'fP_lo\"7F+m[}\x1b[H(axq\x1b[28BJ");
    t.resize(19, 41);
    assert_eq!(t.cursor(), (41, 6));
    t.feed(b"\x1b[P\xcc\x89");
    assert_eq!(t.screen().grid.row(6).stored_len(), 41);
    t.resize(60, 41);
    let screen = capture_all(&t, false);
    let line = screen.split(|&b| b == b'\n').nth(3).unwrap();
    let expected = format!("\u{527d}wpJ{}\u{309}", " ".repeat(36));
    assert_eq!(std::str::from_utf8(line).unwrap(), expected);
}

#[test]
fn narrow_characters_over_padding_left_on_one_column_reflow_as_in_tmux() {
    // On one column, wide characters are written past the edge; narrow ones written over what
    // they left keep its padding, and a reflow to three columns counts padding as no width:
    // the last row holds three characters with two padding cells each, and the cursor
    // stands past the width. tmux 3.3a shows this screen and this cursor.
    let mut t = Terminal::new(1, 24, 10);
    t.feed(
        "9999999999\u{ff1b}\u{1f9d4}\u{24df}\u{240d}\u{fe31}\u{fe60}\u{ffe8}\u{26cf}\u{1f379}\x1bG\u{4e2d}"
            .as_bytes(),
    );
    t.feed(b"+");
    t.resize(3, 2);
    assert_eq!(t.cursor(), (7, 1));
    let widest = t.screen().grid.all_lines().map(|r| r.stored_len()).max();
    assert_eq!(widest, Some(9));
    t.resize(30, 2);
    let screen = String::from_utf8(capture_all(&t, false)).unwrap();
    assert!(
        screen.ends_with("999999999\u{24df}\u{ffe8}+\n\n"),
        "{screen:?}"
    );
}

#[test]
fn joiner_split_by_bytes_that_leave_utf8_pending_joins_as_in_tmux() {
    // DEL, escape sequences and strings leave a UTF-8 character pending, so the joiner's bytes
    // around them still make a joiner, which joins the next character to the cell before; a
    // C0 control ends the character. What tmux 3.3a shows for each, in one read.
    for (between, line, cursor) in [
        (&b"\x7f"[..], "A\u{200d}\u{2084}B", 2),
        (b"\x1b[m", "A\u{200d}\u{2084}B", 2),
        (b"\x1b]0;x\x07", "A\u{200d}\u{2084}B", 2),
        (b"\x1b7", "A\u{200d}\u{2084}B", 2),
        (b"\x00", "A\u{2084}B", 3),
    ] {
        let input = [&b"A\xe2\x80"[..], between, b"\x8d\xe2\x82\x84B"].concat();
        assert!(may_write_joiner(&input));
        let mut t = Terminal::new(11, 2, 0);
        t.feed(&input);
        let screen = capture_all(&t, false);
        let first = screen.split(|&b| b == b'\n').next().unwrap();
        assert_eq!(std::str::from_utf8(first).unwrap(), line, "{between:?}");
        assert_eq!(t.cursor(), (cursor, 0), "{between:?}");
    }
}

#[test]
fn taller_resize_keeps_one_row_per_line() {
    // Growing the screen pulls lines back from history; the grid must not keep rows for them
    // twice (a later reflow would push the screen up by the extra rows).
    let mut t = Terminal::new(10, 3, 10);
    t.feed(b"a\r\nb\r\nc\r\nd\r\ne");
    t.resize(10, 6);
    let g = &t.screen().grid;
    assert_eq!(
        g.frozen_lines() + g.rows().len() as u32,
        g.hsize + g.sy,
        "rows kept for lines pulled back"
    );
    t.resize(9, 6);
    assert_eq!(t.history_size(), 0);
    assert_eq!(capture_all(&t, false), b"a\nb\nc\nd\ne\n\n");
}

#[test]
fn overwriting_half_a_wide_character_does_not_depend_on_reads() {
    // A one-column character written over the right half of a wide character in column 0
    // clears the wide character (tmux's screen_write_overwrite), whether the bytes arrive in
    // one read or several.
    check_split_invariant("\x1b[1G\u{4e2d}\x1b[2G\u{e9}".as_bytes(), 3);
    let mut t = Terminal::new(3, 2, 10);
    t.feed("\u{4e2d}\x1b[2G\u{e9}".as_bytes());
    assert_eq!(capture_all(&t, false), " \u{e9}\n\n".as_bytes());
}

#[test]
fn narrow_characters_over_stray_padding_do_not_depend_on_reads() {
    // EL 1 clears the first half of a wide character and leaves its padding. tmux writes
    // non-ASCII narrow characters one by one, and one written over a blank cell leaves the
    // padding after it alone, so `-N` prints no space for it; one written over the padding
    // itself clears back to the start of the padding, which is the character just written.
    let no_trim = |t: &Terminal| {
        t.capture(&CaptureOptions {
            no_trim: true,
            ..Default::default()
        })
    };
    let input = "\x1bG\u{ff21}\x1b[H\x1b[1K\u{e9}".as_bytes();
    let mut t = Terminal::new(80, 24, 2);
    t.feed(input);
    assert_eq!(&no_trim(&t)[..3], "\u{e9}\n".as_bytes());
    check_split_invariant(input, 80);

    let input = "\u{4e2d}\u{4e2d}\x1b[3G\x1b[1K\x1b[H\u{e9}\u{e9}\u{e9}\u{e9}".as_bytes();
    let mut t = Terminal::new(10, 3, 2);
    t.feed(input);
    assert_eq!(
        capture_all(&t, false),
        "\u{e9}\u{e9} \u{e9}\n\n\n".as_bytes()
    );
    check_split_invariant(input, 10);
    check_split_invariant("\u{4e2d}\u{4e2d}\u{4e2d}\x1b[2G\u{e9}\u{e9}".as_bytes(), 10);
}

#[test]
fn rows_are_packed_after_a_resize() {
    // Rows are packed when a write or resize ends, except the cursor's; reflowed rows pushed
    // into history by the height change must not stay expanded.
    let mut t = Terminal::new(10, 6, 100);
    t.feed(b"aaaaaaaaaaaaaaaaaaaaaaaaa\r\nbbbbbbbbbbbbbbbbbbbbbb\r\nccc\r\nddd");
    t.resize(5, 6);
    t.resize(4, 2);
    let expanded = t
        .screen()
        .grid
        .rows()
        .iter()
        .filter(|r| !r.is_packed())
        .count();
    assert!(expanded <= 1, "{expanded} rows left expanded");
}

#[test]
fn clearing_history_releases_its_rows() {
    // A reflow to one column turns each history line into hundreds of rows (as tmux does);
    // clearing the history must give that memory back.
    let mut t = Terminal::new(500, 3, 2000);
    let line = [vec![b'x'; 500], b"\r\n".to_vec()].concat();
    for _ in 0..2100 {
        t.feed(&line);
    }
    t.resize(1, 1);
    t.feed(b"\x1b[3J");
    assert_eq!(t.history_size(), 0);
    assert!(
        t.heap_bytes() < MIB,
        "{} bytes kept after clearing history",
        t.heap_bytes()
    );
}

#[test]
fn text_on_a_very_wide_terminal_is_captured_whole() {
    // Widths past 65535 do not fit a row's 16-bit counters: the terminal must clamp its width
    // (as resize does) rather than lose what is written.
    let mut t = Terminal::new(70_000, 2, 10);
    let text = vec![b'a'; 69_000];
    t.feed(&text);
    let out = t.capture(&CaptureOptions {
        join: true,
        ..Default::default()
    });
    let captured = out.iter().filter(|&&b| b == b'a').count();
    assert_eq!(captured, text.len());
}

#[test]
fn capture_accepts_any_line_number() {
    // `LineSpec::Line` holds an i64; numbers far outside the screen select its edges.
    let mut t = Terminal::new(10, 3, 10);
    t.feed(b"a\r\nb\r\nc\r\nd");
    for n in [i64::MIN, i64::MIN + 1, i64::MAX, -(1 << 40), 1 << 40] {
        for (start, end) in [
            (Some(LineSpec::Line(n)), None),
            (None, Some(LineSpec::Line(n))),
        ] {
            let opts = CaptureOptions {
                start,
                end,
                ..Default::default()
            };
            let out = t.capture(&opts);
            assert!(!out.is_empty(), "{opts:?}");
        }
    }
}

#[test]
fn long_logs_read_whole_or_a_line_at_a_time_leave_the_same_terminal() {
    // Read whole, most of each log scrolls away within the read and is not written; a line
    // at a time, every character is. How a line's text is cut into reads changes how far tmux
    // extends the line (its `cellsize`), so the reads here end only after line feeds, and
    // everything a reader can learn must be the same, down to each row's counts.
    // Histories of 100 lines or more are trimmed a tenth at a time, so their size at the end
    // tells whether the text that was not written wrapped and scrolled exactly as written.
    let mut sizes: Vec<(u32, u32, u32)> = Vec::new();
    let mut rng = Rng(0x5eed_1095);
    for _ in 0..40 {
        let hlimit = rng.pick(&[0, 1, 2, 10, 100, 300]);
        sizes.push((rng.range(1, 80) as u32, rng.range(1, 10) as u32, hlimit));
    }
    sizes.push((220, 80, 2000));
    for (i, (cols, rows, hlimit)) in sizes.into_iter().enumerate() {
        let lines = if hlimit == 2000 {
            4000
        } else {
            rng.range(300, 1500)
        };
        let mut log = log_stream(&mut rng, cols, lines, lines);
        // Lines that set no style show the pen the log left, however far it scrolled away.
        log.extend_from_slice(&b"plain\r\n".repeat((hlimit + 2 * rows + 1) as usize));
        let mut whole = Terminal::new(cols, rows, hlimit);
        let mut by_line = Terminal::new(cols, rows, hlimit);
        whole.feed(&log);
        for line in log.split_inclusive(|&b| b == b'\n') {
            by_line.feed(line);
        }
        // The pen and the last character (for REP) carry on.
        for t in [&mut whole, &mut by_line] {
            t.feed(b"Z\x1b[3b\r\nafter");
        }
        let (a, b) = (seen(&whole), seen(&by_line));
        assert!(
            a == b,
            "case {i} ({cols}x{rows}, history {hlimit}): {}",
            first_difference(a.as_bytes(), b.as_bytes())
        );
    }
}
