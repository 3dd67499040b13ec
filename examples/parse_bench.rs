//! Parse throughput of the screen engine against the `vt100` crate, on the same input.
//!
//! usage: parse_bench [--rounds N] FILE...
//!
//! Each FILE is raw program output or an asciinema v2 `.cast`; a cast's own chunks are fed in
//! order at the cast's size, a raw file is fed as one chunk at 220x80. Both parsers get the same
//! chunks at the same size, with 2000 lines of history (scrollback). One measurement builds a
//! fresh parser and feeds it the whole input, repeated until the replays have taken over 50 ms
//! (the figure is their mean). The two parsers are measured alternately (zeropty, vt100,
//! zeropty, vt100...) for N rounds (default 9, at least 5), and the median of each is reported,
//! in MB/s (10^6 bytes per second). With several files every file gets its figures, then the
//! total (all files, one after another).
//!
//! The run also compares the final screens: our `capture-pane -p` against the vt100 crate's
//! screen text, row by row with trailing spaces trimmed. A difference is a note, not a failure:
//! the vt100 crate and tmux disagree on some sequences.
//!
//! Both parsers allocate through mimalloc, the allocator the zeropty program uses.
use mimalloc::MiMalloc;
use std::hint::black_box;
use std::process::exit;
use std::time::{Duration, Instant};
use zeropty::cast::Cast;

#[global_allocator]
static GLOBAL: MiMalloc = MiMalloc;
use zeropty::term::capture::printable;
use zeropty::term::{CaptureOptions, Terminal};

const HISTORY: u32 = 2000;
const MIN_MEASUREMENT: Duration = Duration::from_millis(50);

struct Input {
    name: String,
    cols: u32,
    rows: u32,
    chunks: Vec<Vec<u8>>,
    bytes: usize,
}

fn usage() -> ! {
    eprintln!("usage: parse_bench [--rounds N] FILE...");
    exit(1)
}

fn load(path: &str) -> Input {
    let data = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("parse_bench: {path}: {e}");
        exit(1)
    });
    let (chunks, (cols, rows)) = if path.ends_with(".cast") {
        let cast = Cast::parse(&String::from_utf8_lossy(&data)).unwrap_or_else(|e| {
            eprintln!("parse_bench: {path}: {e}");
            exit(1)
        });
        let size = (cast.width, cast.height);
        (cast.events.into_iter().map(|(_, d)| d).collect(), size)
    } else {
        (vec![data], (220, 80))
    };
    let bytes = chunks.iter().map(Vec::len).sum();
    Input {
        name: path.to_string(),
        cols,
        rows,
        chunks,
        bytes,
    }
}

fn run_zeropty(input: &Input) -> Terminal {
    let mut term = Terminal::new(input.cols, input.rows, HISTORY);
    for chunk in &input.chunks {
        term.feed(black_box(chunk));
    }
    term
}

fn run_vt100(input: &Input) -> vt100::Parser {
    let mut parser = vt100::Parser::new(input.rows as u16, input.cols as u16, HISTORY as usize);
    for chunk in &input.chunks {
        parser.process(black_box(chunk));
    }
    parser
}

/// Seconds per replay of the whole input, and the replays made: replays of the input, each
/// from a fresh parser, until they have taken over 50 ms. The timer covers building the parser
/// and feeding it; dropping it is outside.
fn measure<T>(run: impl Fn() -> T) -> (f64, u32) {
    let mut elapsed = Duration::ZERO;
    let mut replays = 0;
    while elapsed < MIN_MEASUREMENT {
        let start = Instant::now();
        let parsed = black_box(run());
        elapsed += start.elapsed();
        drop(parsed);
        replays += 1;
    }
    (elapsed.as_secs_f64() / replays as f64, replays)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn trimmed_rows(text: &str, rows: usize) -> Vec<String> {
    let mut out: Vec<String> = text.lines().map(|l| l.trim_end().to_string()).collect();
    out.resize(rows.max(out.len()), String::new());
    out
}

/// `None` if the final screens agree, else the first differing row.
fn screen_check(input: &Input) -> Option<String> {
    let ours = printable(run_zeropty(input).capture(&CaptureOptions::default()));
    let ours = trimmed_rows(&String::from_utf8_lossy(&ours), input.rows as usize);
    let parser = run_vt100(input);
    let theirs: Vec<String> = parser
        .screen()
        .rows(0, input.cols as u16)
        .map(|r| r.trim_end().to_string())
        .collect();
    let theirs = trimmed_rows(&theirs.join("\n"), input.rows as usize);
    (0..ours.len().max(theirs.len())).find_map(|y| {
        let (a, b) = (ours.get(y), theirs.get(y));
        (a != b).then(|| {
            format!(
                "row {y}\n  zeropty: {:?}\n  vt100:   {:?}",
                a.map_or("", String::as_str),
                b.map_or("", String::as_str)
            )
        })
    })
}

fn print_figures(bytes: f64, ours: f64, theirs: f64) {
    let (a, b) = (bytes / ours / 1e6, bytes / theirs / 1e6);
    println!("zeropty {a:.1} MB/s");
    println!("vt100 {b:.1} MB/s");
    println!("ratio zeropty/vt100 {:.2}x", a / b);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut rounds = 9;
    let mut paths = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| usage())
            }
            s if s.starts_with('-') => usage(),
            _ => paths.push(a),
        }
    }
    if paths.is_empty() || rounds < 5 {
        usage()
    }
    let inputs: Vec<Input> = paths.iter().map(|p| load(p)).collect();

    for input in &inputs {
        println!(
            "{}: {} bytes in {} chunks at {}x{}",
            input.name,
            input.bytes,
            input.chunks.len(),
            input.cols,
            input.rows
        );
        match screen_check(input) {
            None => println!("screen check: ok"),
            Some(d) => println!("screen check: note: final screens differ at {d}"),
        }
    }

    // Warm up both.
    for input in &inputs {
        measure(|| run_zeropty(input));
        measure(|| run_vt100(input));
    }
    // times[file][parser]: seconds per replay, one per round; replays[file][parser]: in all.
    let mut times = vec![[Vec::new(), Vec::new()]; inputs.len()];
    let mut replays = vec![[0u32; 2]; inputs.len()];
    for _ in 0..rounds {
        for (n, input) in inputs.iter().enumerate() {
            for p in 0..2 {
                let (t, r) = if p == 0 {
                    measure(|| run_zeropty(input))
                } else {
                    measure(|| run_vt100(input))
                };
                times[n][p].push(t);
                replays[n][p] += r;
            }
        }
    }

    for (n, input) in inputs.iter().enumerate() {
        println!();
        println!(
            "{}: {rounds} rounds, {:.1} / {:.1} replays per measurement",
            input.name,
            replays[n][0] as f64 / rounds as f64,
            replays[n][1] as f64 / rounds as f64
        );
        print_figures(
            input.bytes as f64,
            median(times[n][0].clone()),
            median(times[n][1].clone()),
        );
    }
    if inputs.len() > 1 {
        let total = |p: usize| {
            median(
                (0..rounds)
                    .map(|r| times.iter().map(|t| t[p][r]).sum())
                    .collect(),
            )
        };
        let bytes: usize = inputs.iter().map(|i| i.bytes).sum();
        println!();
        println!("total ({} files, {bytes} bytes)", inputs.len());
        print_figures(bytes as f64, total(0), total(1));
    }
}
