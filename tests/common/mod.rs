//! Helpers shared by the integration tests: locating the reference data beside the checkout and
//! replaying recordings into a terminal.
#![allow(dead_code)]

pub mod outer;
pub mod zp;

use std::path::PathBuf;
use zeropty::cast::Cast;
use zeropty::term::{CaptureOptions, LineSpec, Terminal};

/// The project's shared reference data (`../shared` beside the checkout, or `$ZEROPTY_SHARED`).
/// Missing data is a test failure, not a skip.
pub fn shared_dir() -> PathBuf {
    let dir = std::env::var_os("ZEROPTY_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    assert!(
        dir.join("traces").is_dir(),
        "reference data not found at {} (set ZEROPTY_SHARED)",
        dir.display()
    );
    dir
}

pub fn load_cast(path: &std::path::Path) -> Cast {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Cast::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Feeds a cast's chunks, stopping after `limit` bytes.
pub fn replay(term: &mut Terminal, cast: &Cast, limit: usize) {
    let mut left = limit;
    for (_, chunk) in &cast.events {
        let n = chunk.len().min(left);
        term.feed(&chunk[..n]);
        left -= n;
        if left == 0 {
            break;
        }
    }
}

/// A readable account of where two captures differ.
pub fn first_difference(got: &[u8], want: &[u8]) -> String {
    let g: Vec<&[u8]> = got.split(|&b| b == b'\n').collect();
    let w: Vec<&[u8]> = want.split(|&b| b == b'\n').collect();
    for i in 0..g.len().max(w.len()) {
        let (a, b) = (g.get(i), w.get(i));
        if a != b {
            return format!(
                "line {i}:\n  got:  {:?}\n  want: {:?}",
                a.map(|l| String::from_utf8_lossy(l)),
                b.map(|l| String::from_utf8_lossy(l))
            );
        }
    }
    "identical".into()
}

/// Captures of the whole history, with every combination of `-e`, `-C`, `-J` and `-N`.
pub fn whole_captures() -> impl Iterator<Item = CaptureOptions> {
    (0..16).map(|flags| CaptureOptions {
        start: Some(LineSpec::Edge),
        end: Some(LineSpec::Edge),
        escapes: flags & 1 != 0,
        escape_c0: flags & 2 != 0,
        join: flags & 4 != 0,
        no_trim: flags & 8 != 0,
    })
}

/// Everything a reader can learn of a terminal, as text: the whole history captured with every
/// combination of `-e`, `-C`, `-J` and `-N`, the same with `-a`, the cursor and the character
/// under it, modes, title, history size and limit, an unfinished sequence (`-P`), and each row's
/// `used`, `size` and wrap flag (which decide later writes and captures).
pub fn seen(t: &Terminal) -> String {
    let mut out = format!(
        "cursor {:?} {:?}, mode {:#x}, title {:?}, history {} of {}, pending {:?}\n",
        t.cursor(),
        t.cursor_character(),
        t.mode(),
        t.title(),
        t.history_size(),
        t.history_limit(),
        t.capture_pending(false),
    );
    for opts in whole_captures() {
        out += &String::from_utf8_lossy(&t.capture(&opts));
        match t.capture_alternate(&opts) {
            Ok(alt) => out += &String::from_utf8_lossy(&alt),
            Err(e) => out += &format!("{e}\n"),
        }
    }
    let s = t.screen();
    for grid in std::iter::once(&s.grid).chain(s.saved_grid()) {
        for row in grid.all_lines() {
            out += &format!("{} {} {}\n", row.used, row.size, row.wrapped);
        }
    }
    out
}
