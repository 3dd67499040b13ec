//! Helpers shared by the integration tests: locating the reference data beside the checkout and
//! replaying recordings into a terminal.
#![allow(dead_code)]

pub mod outer;
pub mod zp;

use std::path::PathBuf;
use zeropty::cast::Cast;
use zeropty::term::Terminal;

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
