//! What moving a quiet screen into the cold store and back costs: for each recording, its last
//! screen (the cast's size, with 2000 lines of history, fed as recorded) is frozen,
//! and its chunk is put into a `ColdStore` (in memory: the memfd's writes are not timed) and
//! taken back out; then what screens alike save, stored against each other.
//!
//! usage: cold_store FILE.cast...
//!
//! First table: the chunk's bytes, its bytes stored alone and stored against a reference (the
//! same screen put before, as in a fleet showing one program); a put like no screen before (the
//! sweep's zstd context kept, as the freezer does for every screen going cold in one tick), the
//! same alone (a sweep of one, so a fresh context each time), a put of a screen like one before
//! (compressed alone and against the reference), a take (decompression, alone). Times are
//! medians of 9 rounds, each the mean over as many operations as fill 20 ms.
//!
//! Second line: 40 screens of the recordings taking turns, each fed up to the point where the
//! `cast` workload of `bench/scale.sh` starts session i (i x 0.618 mod 1), 220x80: their bytes
//! stored alone, and in one store with the references it kept.
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
        "{:<16} {:>9} {:>9} {:>9} {:>14} {:>13} {:>11} {:>9}",
        "recording",
        "chunk B",
        "alone B",
        "alike B",
        "put, sweep us",
        "put alone us",
        "put alike us",
        "take us"
    );
    let casts: Vec<Cast> = paths.iter().map(|p| read_cast(p)).collect();
    for (path, cast) in paths.iter().zip(&casts) {
        let chunk = frozen(cast, cast.events.len(), cast.width, cast.height);
        let mut store = ColdStore::default();
        let stored = store.put(&chunk).expect("put").stored_bytes();
        // Forgetting a chunk stored alone forgets it as a candidate too: every put here is
        // of a screen like none before.
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
        let mut alike_store = ColdStore::default();
        alike_store.put(&chunk).expect("put");
        let alike = alike_store.put(&chunk).expect("put").stored_bytes();
        let put_alike = median_us(|| {
            let at = alike_store.put(&chunk).expect("put");
            alike_store.forget(at);
        });
        let name = std::path::Path::new(path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        println!(
            "{name:<16} {:>9} {stored:>9} {alike:>9} {in_sweep:>14.1} {alone:>13.1} \
             {put_alike:>11.1} {take:>9.1}",
            chunk.len()
        );
    }
    screens_taking_turns(&casts);
}

/// 40 screens of the recordings, taking turns, at the `cast` workload's starting points.
fn screens_taking_turns(casts: &[Cast]) {
    let mut store = ColdStore::default();
    let (mut raw, mut alone, mut stored) = (0, 0, 0);
    for i in 0..40 {
        let cast = &casts[i % casts.len()];
        let point = (i as f64 * 0.618).fract();
        let chunk = frozen(
            cast,
            (cast.events.len() as f64 * point) as usize + 1,
            220,
            80,
        );
        raw += chunk.len();
        alone += ColdStore::default()
            .put(&chunk)
            .expect("put")
            .stored_bytes();
        stored += store.put(&chunk).expect("put").stored_bytes();
    }
    println!(
        "40 screens taking turns: {raw} B, alone {alone} B, alike {stored} B + {} B of references",
        store.reference_bytes()
    );
}

fn read_cast(path: &str) -> Cast {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("cold_store: {path}: {e}");
        exit(1)
    });
    Cast::parse(&text).unwrap_or_else(|e| {
        eprintln!("cold_store: {path}: {e}");
        exit(1)
    })
}

/// The screen after the recording's first `events` events, frozen: its chunk.
fn frozen(cast: &Cast, events: usize, width: u32, height: u32) -> Box<[u8]> {
    let mut term = Terminal::new(width, height, 2000);
    for (_, data) in &cast.events[..events.min(cast.events.len())] {
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
