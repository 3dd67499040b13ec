//! Feeds a recording into a screen and prints what `capture-pane -p` would.
//!
//! usage: render [--size WxH] [--resize WxH] [--history N] [-e] [-J] [-N] [-C] [-S N] [-E N] FILE [BYTES]
//!
//! FILE is raw program output or an asciinema v2 `.cast` (whose own chunks are fed in order);
//! BYTES limits the input to its first BYTES bytes. The default size is the cast's, or 220x80.
use std::process::exit;
use zeropty::cast::Cast;
use zeropty::term::capture::{parse_line_spec, printable};
use zeropty::term::{CaptureOptions, Terminal, DEFAULT_HISTORY_LIMIT};

fn usage() -> ! {
    eprintln!(
        "usage: render [--size WxH] [--history N] [-e] [-J] [-N] [-C] [-S N] [-E N] FILE [BYTES]"
    );
    exit(1)
}

fn parse_size(arg: Option<String>) -> (u32, u32) {
    let v = arg.unwrap_or_else(|| usage());
    let (w, h) = v.split_once('x').unwrap_or_else(|| usage());
    (
        w.parse().unwrap_or_else(|_| usage()),
        h.parse().unwrap_or_else(|_| usage()),
    )
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut opts = CaptureOptions::default();
    let mut size: Option<(u32, u32)> = None;
    let mut resize: Option<(u32, u32)> = None;
    let mut history = DEFAULT_HISTORY_LIMIT;
    let mut positional = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--size" => size = Some(parse_size(args.next())),
            "--resize" => resize = Some(parse_size(args.next())),
            "--history" => {
                history = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| usage())
            }
            "-e" => opts.escapes = true,
            "-J" => opts.join = true,
            "-N" => opts.no_trim = true,
            "-C" => opts.escape_c0 = true,
            "-S" => opts.start = Some(parse_line_spec(&args.next().unwrap_or_else(|| usage()))),
            "-E" => opts.end = Some(parse_line_spec(&args.next().unwrap_or_else(|| usage()))),
            _ => positional.push(a),
        }
    }
    let Some(path) = positional.first() else {
        usage()
    };
    let limit: Option<usize> = positional
        .get(1)
        .map(|b| b.parse().unwrap_or_else(|_| usage()));
    let data = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("render: {path}: {e}");
        exit(1)
    });
    let (chunks, cast_size) = if path.ends_with(".cast") {
        let cast = Cast::parse(&String::from_utf8_lossy(&data)).unwrap_or_else(|e| {
            eprintln!("render: {path}: {e}");
            exit(1)
        });
        let size = (cast.width, cast.height);
        (
            cast.events.into_iter().map(|(_, d)| d).collect(),
            Some(size),
        )
    } else {
        (vec![data], None)
    };
    let (w, h) = size.or(cast_size).unwrap_or((220, 80));
    let mut term = Terminal::new(w, h, history);
    let mut left = limit.unwrap_or(usize::MAX);
    for chunk in &chunks {
        let n = chunk.len().min(left);
        term.feed(&chunk[..n]);
        left -= n;
        if left == 0 {
            break;
        }
    }
    if let Some((w, h)) = resize {
        term.resize(w, h);
    }
    if std::env::var_os("RENDER_CURSOR").is_some() {
        let (x, y) = term.cursor();
        eprintln!("cursor {x},{y} history {}", term.history_size());
    }
    let out = printable(term.capture(&opts));
    use std::io::Write;
    std::io::stdout().write_all(&out).ok();
}
