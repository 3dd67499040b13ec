//! Writes a deterministic coloured log: the bulk-output input of the parse benchmark and of the
//! full-history memory measurement.
//!
//! usage: gen_colour_log FILE
//!
//! 60,000 lines, 5.4 MB (5,400,000 bytes to within a line): a timestamp, a level in
//! colour (SGR 16 colours, bold), a component in one of the 256 colours, a message with
//! highlighted words, numbers and durations, and now and then wide characters (CJK, emoji).
//! Lines end in CR LF, as a program's bare LF arrives through a PTY with `ONLCR` on.
use std::process::exit;

/// Lines in the log.
pub const LINES: usize = 60_000;
/// Bytes the log aims at; each line is steered towards the running total, so it lands within a
/// line's length of this.
pub const TARGET_BYTES: usize = 5_400_000;

/// A small deterministic generator (xorshift64*), so the log is the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const LEVELS: [(&str, &str); 5] = [
    ("TRACE", "\x1b[90m"),
    ("DEBUG", "\x1b[36m"),
    ("INFO ", "\x1b[32m"),
    ("WARN ", "\x1b[1;33m"),
    ("ERROR", "\x1b[1;31m"),
];

const COMPONENTS: [&str; 12] = [
    "http",
    "db.pool",
    "scheduler",
    "auth",
    "cache",
    "worker",
    "grpc",
    "metrics",
    "fs.watch",
    "queue",
    "session",
    "router",
];

const WORDS: [&str; 40] = [
    "request",
    "completed",
    "connection",
    "opened",
    "closed",
    "retrying",
    "after",
    "timeout",
    "user",
    "token",
    "refreshed",
    "cache",
    "miss",
    "hit",
    "for",
    "key",
    "job",
    "queued",
    "started",
    "finished",
    "in",
    "with",
    "status",
    "bytes",
    "written",
    "to",
    "from",
    "upstream",
    "replica",
    "lag",
    "is",
    "within",
    "budget",
    "handler",
    "returned",
    "payload",
    "validated",
    "schema",
    "migration",
    "applied",
];

const WIDE: [&str; 6] = [
    "日本語",
    "完了",
    "사용자",
    "数据库",
    "\u{1f680}",
    "\u{2705}",
];

/// One line, aiming at `want` bytes (it ends at the first word boundary past `want`).
fn line(rng: &mut Rng, n: usize, want: usize, out: &mut Vec<u8>) {
    let start = out.len();
    let ms = n as u64 * 137 + rng.below(100) as u64;
    let (h, m, s, frac) = (
        9 + ms / 3_600_000 % 12,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000,
    );
    let (name, colour) = LEVELS[match rng.below(100) {
        0..=4 => 0,
        5..=24 => 1,
        25..=84 => 2,
        85..=95 => 3,
        _ => 4,
    }];
    let component = rng.pick(&COMPONENTS);
    let component_colour = 17 + rng.below(214);
    out.extend_from_slice(
        format!(
            "{h:02}:{m:02}:{s:02}.{frac:03} {colour}{name}\x1b[m \x1b[38;5;{component_colour}m{component}\x1b[m"
        )
        .as_bytes(),
    );
    while out.len() - start < want {
        out.push(b' ');
        match rng.below(40) {
            0..=2 => {
                out.extend_from_slice(format!("\x1b[1m{}\x1b[22m", rng.pick(&WORDS)).as_bytes())
            }
            3 | 4 => out.extend_from_slice(
                format!("\x1b[3{}m{}\x1b[39m", 1 + rng.below(6), rng.pick(&WORDS)).as_bytes(),
            ),
            5 => out.extend_from_slice(
                format!(
                    "\x1b[38;5;{}m{}ms\x1b[39m",
                    196 + rng.below(36),
                    rng.below(5000)
                )
                .as_bytes(),
            ),
            6 => out.extend_from_slice(format!("id={:08x}", rng.next() as u32).as_bytes()),
            7 => out.extend_from_slice(format!("n={}", rng.below(100_000)).as_bytes()),
            8 if rng.below(6) == 0 => out.extend_from_slice(rng.pick(&WIDE).as_bytes()),
            _ => out.extend_from_slice(rng.pick(&WORDS).as_bytes()),
        }
    }
    out.extend_from_slice(b"\r\n");
}

/// The whole log.
pub fn colour_log() -> Vec<u8> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::with_capacity(TARGET_BYTES + 4096);
    for n in 0..LINES {
        // Steer each line towards the running target so the total lands on TARGET_BYTES.
        let due = TARGET_BYTES * (n + 1) / LINES;
        let jitter = rng.below(81) as isize - 40;
        let want = (due as isize - out.len() as isize + jitter).clamp(50, 160) as usize;
        line(&mut rng, n, want - 2, &mut out);
    }
    out
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: gen_colour_log FILE");
        exit(1)
    };
    let log = colour_log();
    if let Err(e) = std::fs::write(&path, &log) {
        eprintln!("gen_colour_log: {path}: {e}");
        exit(1)
    }
    let lines = log.iter().filter(|&&b| b == b'\n').count();
    println!("{path}: {} bytes, {lines} lines", log.len());
}
