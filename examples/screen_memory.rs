//! Memory held by a screen: every heap byte, counted by a counting global allocator, beside what
//! `Terminal::heap_bytes()` reports; and the same for the `vt100` crate's parser.
//!
//! usage: screen_memory [--traces DIR] COLOUR_LOG
//!
//! Rows: a blank 220x80 screen; each marked screen of `DIR/screens/*/index.json` (default
//! `../shared/traces`, or `$ZEROPTY_SHARED/traces`), replayed from its cast up to `byte_offset`,
//! then the largest and the median per trace; a full 2000-line history (COLOUR_LOG, from
//! `gen_colour_log`, up to the line that fills the history, fed in 4095-byte reads).
//!
//! A figure is the allocator's live bytes (sizes as requested, not as rounded up by the
//! allocator) with the object alive, less the live bytes before it was created. The object itself
//! is on the stack and not included (its size is printed below the table). Columns: ours with
//! history-limit 2000 (as tmux's default), counted and as `heap_bytes()` reports it, and of the
//! latter the history rows and the style table (styles interned by the screen); ours with
//! history-limit 0; the vt100 crate's `Parser::new(rows, cols, 0)` (scrollback 2000 for the
//! history row, so that it can hold one); ours with history-limit 2000 after `freeze()`, counted
//! (the chunk plus what stays hot) and of it the chunk; then how long freezing and thawing that
//! screen take (the median of many rounds, each a `freeze()` then a `thaw()` of the same terminal).
//! Last, the heap a server's key tables take once built.
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::process::exit;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};
use zeropty::cast::Cast;
use zeropty::term::Terminal;

/// The system allocator, counting the bytes requested and not yet freed.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Relaxed);
            LIVE.fetch_add(new_size, Relaxed);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn live() -> usize {
    LIVE.load(Relaxed)
}

const COLS: u32 = 220;
const ROWS: u32 = 80;
const HISTORY: u32 = 2000;
/// A PTY read's size, as the recordings' chunks are.
const READ: usize = 4095;

/// Live bytes held by what `make` builds, with the figure `report` gives for it.
fn held<T, R>(make: impl FnOnce() -> T, report: impl Fn(&T) -> R) -> (usize, R) {
    let before = live();
    let object = make();
    let after = live();
    let reported = report(&object);
    drop(object);
    (after.saturating_sub(before), reported)
}

/// What our terminal reports: `heap_bytes()`, and of that the history rows and the style table.
#[derive(Clone, Copy, Default)]
struct Reported {
    total: usize,
    history: usize,
    palette: usize,
}

fn report(term: &Terminal) -> Reported {
    let grid = &term.screen().grid;
    Reported {
        total: term.heap_bytes(),
        // History lines held as rows (the newest; the others are frozen bytes).
        history: grid
            .rows()
            .range(..grid.rows().len().saturating_sub(term.rows() as usize))
            .map(|r| r.heap_bytes())
            .sum(),
        palette: term.screen().palette.heap_bytes(),
    }
}

fn fed(limit: u32, chunks: &[&[u8]]) -> Terminal {
    let mut term = Terminal::new(COLS, ROWS, limit);
    for c in chunks {
        term.feed(c);
    }
    term
}

fn ours(limit: u32, chunks: &[&[u8]]) -> (usize, Reported) {
    held(|| fed(limit, chunks), report)
}

/// Live bytes of the terminal frozen, with its `heap_bytes()` and `frozen_bytes()`.
fn frozen(chunks: &[&[u8]]) -> (usize, (usize, usize)) {
    held(
        || {
            let mut term = fed(HISTORY, chunks);
            term.freeze();
            term
        },
        |t| (t.heap_bytes(), t.frozen_bytes()),
    )
}

/// Rounds of freezing and thawing timed, after a few untimed ones.
const ROUNDS: usize = 301;

/// Median time of one `freeze()` and of one `thaw()` of the terminal `chunks` leave.
fn freeze_cost(chunks: &[&[u8]]) -> (Duration, Duration) {
    let mut term = fed(HISTORY, chunks);
    let (mut freezes, mut thaws) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS + 10 {
        let start = Instant::now();
        term.freeze();
        let frozen = Instant::now();
        term.thaw();
        let thawed = Instant::now();
        if round >= 10 {
            freezes.push(frozen - start);
            thaws.push(thawed - frozen);
        }
    }
    let median = |mut v: Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    (median(freezes), median(thaws))
}

fn vt100(scrollback: usize, chunks: &[&[u8]]) -> usize {
    held(
        || {
            let mut parser = vt100::Parser::new(ROWS as u16, COLS as u16, scrollback);
            for c in chunks {
                parser.process(c);
            }
            parser
        },
        |_| (),
    )
    .0
}

/// A cast's chunks up to `limit` bytes.
fn prefix(cast: &Cast, limit: usize) -> Vec<&[u8]> {
    let mut left = limit;
    let mut out = Vec::new();
    for (_, chunk) in &cast.events {
        if left == 0 {
            break;
        }
        let n = chunk.len().min(left);
        out.push(&chunk[..n]);
        left -= n;
    }
    out
}

struct Line {
    label: String,
    ours: usize,
    reported: Reported,
    ours_no_history: usize,
    vt100: usize,
    frozen: usize,
    chunk: usize,
    freeze: Duration,
    thaw: Duration,
}

fn measure(label: String, chunks: &[&[u8]], vt100_scrollback: usize) -> Line {
    let (ours_bytes, reported) = ours(HISTORY, chunks);
    let (frozen_bytes, (frozen_reported, chunk)) = frozen(chunks);
    if frozen_bytes != frozen_reported {
        fail(
            &label,
            format!("frozen: {frozen_bytes} bytes held, heap_bytes() says {frozen_reported}"),
        );
    }
    let (freeze, thaw) = freeze_cost(chunks);
    Line {
        label,
        ours: ours_bytes,
        reported,
        ours_no_history: ours(0, chunks).0,
        vt100: vt100(vt100_scrollback, chunks),
        frozen: frozen_bytes,
        chunk,
        freeze,
        thaw,
    }
}

fn fail(what: &str, e: impl std::fmt::Display) -> ! {
    eprintln!("screen_memory: {what}: {e}");
    exit(1)
}

fn usage() -> ! {
    eprintln!("usage: screen_memory [--traces DIR] COLOUR_LOG");
    exit(1)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut traces = std::env::var_os("ZEROPTY_SHARED")
        .map(|d| PathBuf::from(d).join("traces"))
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/traces"));
    let mut log_path = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--traces" => traces = PathBuf::from(args.next().unwrap_or_else(|| usage())),
            s if s.starts_with('-') => usage(),
            _ => log_path = Some(a),
        }
    }
    let Some(log_path) = log_path else { usage() };
    let log = std::fs::read(&log_path).unwrap_or_else(|e| fail(&log_path, e));

    // Warm up: anything built once per process (tables, thread-locals) is built here, outside
    // the measurements.
    measure(String::new(), &[b"warm \xe6\x97\xa5\x1b[31mx\x1b[m\r\n"], 0);

    let mut lines = vec![measure(format!("blank {COLS}x{ROWS}"), &[], 0)];

    let mut screen_dirs: Vec<PathBuf> = std::fs::read_dir(traces.join("screens"))
        .unwrap_or_else(|e| fail(&traces.display().to_string(), e))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("index.json").is_file())
        .collect();
    screen_dirs.sort();
    let mut summary = Vec::new();
    for dir in &screen_dirs {
        let index_path = dir.join("index.json");
        let index: serde_json::Value = std::fs::read_to_string(&index_path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
            .unwrap_or_else(|e| fail(&index_path.display().to_string(), e));
        let cast_name = index["cast"].as_str().unwrap_or_default();
        let cast_path = traces.join(cast_name);
        let cast = std::fs::read_to_string(&cast_path)
            .map_err(|e| e.to_string())
            .and_then(|t| Cast::parse(&t))
            .unwrap_or_else(|e| fail(&cast_path.display().to_string(), e));
        if (cast.width, cast.height) != (COLS, ROWS) {
            fail(cast_name, format!("not {COLS}x{ROWS}"));
        }
        let trace = cast_name.trim_end_matches(".cast");
        let mut these = Vec::new();
        // The marked screens are those with a `-p -e` capture (`final` repeats the last one).
        for s in index["screens"].as_array().into_iter().flatten() {
            let (Some(name), Some(offset), Some(_)) = (
                s["name"].as_str(),
                s["byte_offset"].as_u64(),
                s["ansi"].as_str(),
            ) else {
                continue;
            };
            these.push(measure(
                format!("{trace} {name}"),
                &prefix(&cast, offset as usize),
                0,
            ));
        }
        if these.is_empty() {
            continue;
        }
        let mut by_size: Vec<&Line> = these.iter().collect();
        by_size.sort_by_key(|l| l.ours);
        let pick = |l: &Line, what: &str| Line {
            label: format!(
                "{trace} {what} ({})",
                l.label.trim_start_matches(trace).trim()
            ),
            ..*l
        };
        summary.push(pick(by_size[by_size.len() - 1], "largest"));
        summary.push(pick(by_size[(by_size.len() - 1) / 2], "median"));
        lines.extend(these);
    }
    lines.extend(summary);

    // Full history: the log up to the line that brings the history to HISTORY lines, fed in
    // reads of READ bytes. (Once full, tmux drops a tenth of it at the next scroll.)
    let mut fed = 0;
    {
        let mut term = Terminal::new(COLS, ROWS, HISTORY);
        for line in log.split_inclusive(|&b| b == b'\n') {
            term.feed(line);
            fed += line.len();
            if term.history_size() >= HISTORY {
                break;
            }
        }
        if term.history_size() < HISTORY {
            fail(&log_path, "too short to fill the history");
        }
    }
    let chunks: Vec<&[u8]> = log[..fed].chunks(READ).collect();
    let mut check = Terminal::new(COLS, ROWS, HISTORY);
    chunks.iter().for_each(|c| check.feed(c));
    if check.history_size() != HISTORY {
        fail(&log_path, "history not full when replayed in reads");
    }
    drop(check);
    lines.push(measure(
        format!("{HISTORY}-line history ({fed} B of log)"),
        &chunks,
        HISTORY as usize,
    ));

    let head = [
        "screen",
        "zeropty (counted)",
        "heap_bytes()",
        "history rows",
        "styles",
        "zeropty hist 0",
        "vt100",
        "frozen",
        "chunk",
        "freeze us",
        "thaw us",
    ];
    const COLUMNS: usize = 11;
    let micros = |d: Duration| format!("{:.1}", d.as_secs_f64() * 1e6);
    let rows: Vec<[String; COLUMNS]> = lines
        .iter()
        .map(|l| {
            [
                l.label.clone(),
                l.ours.to_string(),
                l.reported.total.to_string(),
                l.reported.history.to_string(),
                l.reported.palette.to_string(),
                l.ours_no_history.to_string(),
                l.vt100.to_string(),
                l.frozen.to_string(),
                l.chunk.to_string(),
                micros(l.freeze),
                micros(l.thaw),
            ]
        })
        .collect();
    let widths: Vec<usize> = (0..COLUMNS)
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain([head[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let print = |cells: [&str; COLUMNS]| {
        let mut line = format!("{:<w$}", cells[0], w = widths[0]);
        for c in 1..COLUMNS {
            line += &format!("  {:>w$}", cells[c], w = widths[c]);
        }
        println!("{}", line.trim_end());
    };
    print(head);
    for r in &rows {
        print(std::array::from_fn(|c| r[c].as_str()));
    }
    println!();
    println!(
        "bytes; zeropty with history-limit {HISTORY} (hist 0: limit 0), of heap_bytes() the \
         history rows and the style table; vt100: Parser::new({ROWS}, {COLS}, 0), scrollback \
         {HISTORY} on the history row; frozen: limit {HISTORY} after freeze() (counted, the \
         chunk included); freeze/thaw: median microseconds of {ROUNDS} rounds"
    );
    println!(
        "not included, the objects themselves: Terminal {} B, vt100::Parser {} B",
        std::mem::size_of::<Terminal>(),
        std::mem::size_of::<vt100::Parser>()
    );
    println!(
        "and a server's key tables, built from tmux's defaults: {} B",
        key_tables_bytes()
    );
}

/// Heap bytes of the key tables once built (a key typed on a client builds them).
fn key_tables_bytes() -> usize {
    let mut tables = zeropty::engine::key_bindings::KeyTables::default();
    let before = live();
    tables.unbind(
        "prefix",
        zeropty::engine::keys::parse_key("F12").expect("a key"),
    );
    let built = live() - before;
    drop(tables);
    built
}
