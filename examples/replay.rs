//! Replays a recording into one parser, for counting instructions with callgrind.
//!
//! usage: replay (zeropty|vt100) FILE [TIMES]
//!
//! Feeds the cast's own chunks (or a raw file as one chunk) TIMES times (default 1) into a fresh
//! screen of the cast's size (220x80 for raw files) with 2000 lines of history. Instruction
//! counts are repeatable on a noisy machine, unlike times:
//!
//!     valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/replay zeropty FILE 4
//!
//! The per-replay cost is the difference between runs with TIMES 4 and TIMES 1, divided by 3.
use mimalloc::MiMalloc;
use zeropty::cast::Cast;
use zeropty::term::Terminal;

#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(which), Some(path)) = (args.first(), args.get(1)) else {
        eprintln!("usage: replay (zeropty|vt100) FILE [TIMES]");
        std::process::exit(1);
    };
    let times: usize = args.get(2).and_then(|t| t.parse().ok()).unwrap_or(1);
    let data = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("replay: {path}: {e}");
        std::process::exit(1)
    });
    let (chunks, w, h) = if path.ends_with(".cast") {
        let cast = Cast::parse(&String::from_utf8_lossy(&data)).unwrap_or_else(|e| {
            eprintln!("replay: {path}: {e}");
            std::process::exit(1)
        });
        let (w, h) = (cast.width, cast.height);
        (
            cast.events.into_iter().map(|(_, d)| d).collect::<Vec<_>>(),
            w,
            h,
        )
    } else {
        (vec![data], 220, 80)
    };
    for _ in 0..times {
        if which == "vt100" {
            let mut p = vt100::Parser::new(h as u16, w as u16, 2000);
            chunks.iter().for_each(|c| p.process(c));
            std::hint::black_box(&p);
        } else {
            let mut t = Terminal::new(w, h, 2000);
            chunks.iter().for_each(|c| t.feed(c));
            std::hint::black_box(&t);
        }
    }
}
