//! How many lines each read of a recording scrolls into the history: what the room a grid's
//! row vector keeps for scrolled lines (`SCROLL_ROOM` in `src/term/grid.rs`) is measured against.
//!
//! usage: lines_scrolled [WxH] FILE...
//!
//! Feeds each cast's own chunks, read by read, into a fresh screen (220x80 unless given, as
//! `bench/scale.sh` runs its sessions) with 2000 lines of history, and prints per file how many
//! reads scrolled each number of lines:
//!
//!     target/release/examples/lines_scrolled ../shared/traces/*.cast
use zeropty::cast::Cast;
use zeropty::term::Terminal;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut size = (220, 80);
    if let Some((w, h)) = args.first().and_then(|a| a.split_once('x')) {
        if let (Ok(w), Ok(h)) = (w.parse(), h.parse()) {
            size = (w, h);
            args.remove(0);
        }
    }
    if args.is_empty() {
        eprintln!("usage: lines_scrolled [WxH] FILE...");
        std::process::exit(1);
    }
    for path in &args {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(path, &e.to_string()));
        let cast = Cast::parse(&text).unwrap_or_else(|e| fail(path, &e));
        let mut t = Terminal::new(size.0, size.1, 2000);
        let mut reads = std::collections::BTreeMap::<u32, u32>::new();
        for (_, bytes) in &cast.events {
            let before = t.screen().grid.hsize;
            t.feed(bytes);
            // A history at its limit drops a tenth at once, so such a read counts as scrolling
            // nothing (the traces' histories stay under the limit).
            let scrolled = t.screen().grid.hsize.saturating_sub(before);
            *reads.entry(scrolled).or_default() += 1;
        }
        let total: u32 = reads.values().sum();
        println!("{path}: {total} reads; lines scrolled: reads");
        for (lines, n) in reads {
            println!("  {lines:>5}: {n}");
        }
    }
}

fn fail(path: &str, why: &str) -> ! {
    eprintln!("lines_scrolled: {path}: {why}");
    std::process::exit(1);
}
