//! What moving a quiet screen into the cold store and back costs: for each recording, its last
//! screen (220x80 or the cast's size, with 2000 lines of history, fed as recorded) is frozen,
//! and its chunk is put into a `ColdStore` (in memory: the memfd's writes are not timed) and
//! taken back out.
//!
//! usage: cold_store FILE.cast...
//!
//! Columns: the chunk's bytes and compressed bytes; a put within a sweep (the sweep's zstd
//! context kept, as the freezer does for every screen going cold in one tick); a put alone (a
//! sweep of one, so a fresh context each time); a take (decompression). Times are medians of 9
//! rounds, each the mean over as many operations as fill 20 ms.
use std::hint::black_box;
use std::process::exit;
use std::time::{Duration, Instant};
use zeropty::cast::Cast;
use zeropty::engine::cold::ColdStore;
use zeropty::term::Terminal;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const ROUNDS: usize = 9;
const MIN_ROUND: Duration = Duration::from_millis(20);

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: cold_store FILE.cast...");
        exit(2);
    }
    println!(
        "{:<16} {:>9} {:>11} {:>14} {:>13} {:>9}",
        "recording", "chunk B", "stored B", "put, sweep us", "put alone us", "take us"
    );
    for path in &paths {
        let chunk = last_screen_frozen(path);
        let mut store = ColdStore::default();
        let stored = store.put(&chunk).expect("put").stored_bytes();
        let in_sweep = median_us(|| {
            let at = store.put(&chunk).expect("put");
            store.forget(at);
        });
        let alone = median_us(|| {
            let at = store.put(&chunk).expect("put");
            store.end_sweep();
            store.forget(at);
        });
        let take = median_us(|| {
            let at = store.put(&chunk).expect("put");
            black_box(store.take(at).expect("take"));
        }) - in_sweep;
        let name = std::path::Path::new(path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        println!(
            "{name:<16} {:>9} {stored:>11} {in_sweep:>14.1} {alone:>13.1} {take:>9.1}",
            chunk.len()
        );
    }
}

/// The recording's last screen, frozen: its chunk.
fn last_screen_frozen(path: &str) -> Box<[u8]> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("cold_store: {path}: {e}");
        exit(1)
    });
    let cast = Cast::parse(&text).unwrap_or_else(|e| {
        eprintln!("cold_store: {path}: {e}");
        exit(1)
    });
    let mut term = Terminal::new(cast.width, cast.height, 2000);
    for (_, data) in &cast.events {
        term.feed(data);
    }
    term.freeze();
    term.take_frozen().expect("a frozen terminal has a chunk")
}

/// The median over [`ROUNDS`] of the mean time of `op` in microseconds.
fn median_us(mut op: impl FnMut()) -> f64 {
    let mut rounds: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            let mut n = 0u32;
            while start.elapsed() < MIN_ROUND {
                op();
                n += 1;
            }
            start.elapsed().as_secs_f64() * 1e6 / f64::from(n)
        })
        .collect();
    rounds.sort_by(f64::total_cmp);
    rounds[ROUNDS / 2]
}
