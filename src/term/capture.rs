//! `capture-pane`: the screen and its history as text, with or without SGR codes.
//!
//! This follows tmux 3.3a's `cmd_capture_pane_history` and `grid_string_cells` byte for byte:
//! which lines `-S`/`-E` select, where a line stops (its used length, not its last non-blank),
//! trailing-blank trimming (not with `-J` or `-N`), joined wrapped lines, and the exact SGR
//! sequences `-e` writes (an attribute switched off restarts from `0`, after which colours are
//! written again; `-C` escapes them as octal).

use super::cell::{attr, colour, push_cell_text, Cell, Graphemes, Palette, Style};
use super::grid::Grid;

/// A `-S`/`-E` line as given on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineSpec {
    /// `-`: the start of history (for `-S`) or the end of the screen (for `-E`).
    Edge,
    /// A line number: 0 is the top of the screen, negative numbers reach into history.
    Line(i64),
    /// Not a number: tmux falls back to the top (`-S`) or bottom (`-E`) of the screen.
    Invalid,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaptureOptions {
    pub start: Option<LineSpec>,
    pub end: Option<LineSpec>,
    /// `-e`: include SGR sequences.
    pub escapes: bool,
    /// `-C`: escape non-printable characters as octal.
    pub escape_c0: bool,
    /// `-J`: join wrapped lines (and keep trailing spaces).
    pub join: bool,
    /// `-N`: keep trailing spaces.
    pub no_trim: bool,
}

/// tmux reads `-S`/`-E` with `strtonum(INT_MIN, SHRT_MAX)`.
pub fn parse_line_spec(s: &str) -> LineSpec {
    if s == "-" {
        return LineSpec::Edge;
    }
    match s.parse::<i64>() {
        Ok(n) if (i32::MIN as i64..=i16::MAX as i64).contains(&n) => LineSpec::Line(n),
        _ => LineSpec::Invalid,
    }
}

/// Captures `grid` (the screen's grid, or the saved primary grid for `-a`) `sx` cells wide.
pub fn capture(
    grid: &Grid,
    sx: u32,
    palette: &Palette,
    graphemes: &Graphemes,
    opts: &CaptureOptions,
) -> Vec<u8> {
    let (hsize, last) = (grid.hsize as i64, (grid.hsize + grid.sy - 1) as i64);
    let resolve = |spec: Option<LineSpec>, fallback: i64, edge: i64| -> i64 {
        match spec {
            Some(LineSpec::Edge) => edge,
            None | Some(LineSpec::Invalid) => fallback,
            Some(LineSpec::Line(n)) => {
                if n < 0 && n.unsigned_abs() > hsize as u64 {
                    0
                } else {
                    hsize.saturating_add(n).min(last)
                }
            }
        }
    };
    let mut top = resolve(opts.start, hsize, 0);
    let mut bottom = resolve(opts.end, last, last);
    if bottom < top {
        std::mem::swap(&mut top, &mut bottom);
    }
    let mut out = Vec::new();
    let mut writer = LineWriter {
        palette,
        graphemes,
        last: Style::DEFAULT,
        opts,
        cells: Vec::new(),
    };
    for row in grid.lines(top as u32..bottom as u32 + 1) {
        writer.line(&row, sx, &mut out);
        if !opts.join || !row.wrapped {
            out.push(b'\n');
        }
    }
    out
}

/// Formats `capture-pane -P`: the bytes of an unfinished escape sequence.
pub fn capture_pending(pending: &[u8], escape_c0: bool) -> Vec<u8> {
    if !escape_c0 {
        return pending.to_vec();
    }
    let mut out = Vec::with_capacity(pending.len() * 2);
    for &b in pending {
        if (b' '..0x80).contains(&b) && b != b'\\' {
            out.push(b);
        } else {
            out.extend_from_slice(format!("\\{b:03o}").as_bytes());
        }
    }
    out
}

/// What `capture-pane -p` prints for a capture buffer: one final newline, exactly.
pub fn printable(mut buf: Vec<u8>) -> Vec<u8> {
    if buf.last() == Some(&b'\n') {
        buf.pop();
    }
    buf.push(b'\n');
    buf
}

struct LineWriter<'a> {
    palette: &'a Palette,
    graphemes: &'a Graphemes,
    /// The style the previous cell was written in; carried across lines as tmux does.
    last: Style,
    opts: &'a CaptureOptions,
    cells: Vec<Cell>,
}

impl LineWriter<'_> {
    fn line(&mut self, row: &super::row::Row, sx: u32, out: &mut Vec<u8>) {
        let start = out.len();
        let used = (row.used as u32).min(sx) as usize;
        self.cells.clear();
        row.read_into(&mut self.cells);
        for x in 0..used {
            let cell = self.cells.get(x).copied().unwrap_or(Cell::BLANK);
            if cell.is_padding() {
                continue;
            }
            if self.opts.escapes {
                let style = *self.palette.get(cell.style());
                write_codes(&self.last, &style, self.opts.escape_c0, out);
                self.last = style;
            }
            if self.opts.escape_c0 && cell.ascii() == Some(b'\\') {
                out.extend_from_slice(b"\\\\");
            } else {
                push_cell_text(out, cell, self.graphemes);
            }
        }
        if !self.opts.join && !self.opts.no_trim {
            while out.len() > start && out[out.len() - 1] == b' ' {
                out.pop();
            }
        }
    }
}

/// SGR attribute codes in the order tmux writes them; two-digit codes are written `4:2` style.
const ATTR_CODES: [(u16, u32); 13] = [
    (attr::BRIGHT, 1),
    (attr::DIM, 2),
    (attr::ITALICS, 3),
    (attr::UNDERSCORE, 4),
    (attr::BLINK, 5),
    (attr::REVERSE, 7),
    (attr::HIDDEN, 8),
    (attr::STRIKETHROUGH, 9),
    (attr::UNDERSCORE_2, 42),
    (attr::UNDERSCORE_3, 43),
    (attr::UNDERSCORE_4, 44),
    (attr::UNDERSCORE_5, 45),
    (attr::OVERLINE, 53),
];

/// The parameters of one colour's SGR sequence (at most five numbers).
#[derive(Clone, Copy, Default)]
struct ColourCode {
    values: [u32; 5],
    len: usize,
}

impl ColourCode {
    fn of(values: &[u32]) -> ColourCode {
        let mut c = ColourCode::default();
        c.values[..values.len()].copy_from_slice(values);
        c.len = values.len();
        c
    }

    fn as_slice(&self) -> &[u32] {
        &self.values[..self.len]
    }

    /// `base` is 30 for the foreground and 40 for the background.
    fn colour(c: u32, base: u32) -> ColourCode {
        if c & colour::FLAG_256 != 0 {
            ColourCode::of(&[base + 8, 5, c & 0xff])
        } else if c & colour::FLAG_RGB != 0 {
            ColourCode::of(&[base + 8, 2, (c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff])
        } else {
            match c {
                0..=7 => ColourCode::of(&[base + c]),
                8 => ColourCode::of(&[base + 9]),
                90..=97 => ColourCode::of(&[c + base - 30]),
                _ => ColourCode::default(),
            }
        }
    }

    fn underline(c: u32) -> ColourCode {
        if c & (colour::FLAG_256 | colour::FLAG_RGB) == 0 {
            ColourCode::default()
        } else {
            let mut code = ColourCode::colour(c, 50);
            code.values[0] = 58;
            code
        }
    }
}

fn csi_start(escape_c0: bool, out: &mut Vec<u8>) {
    out.extend_from_slice(if escape_c0 { b"\\033[" } else { b"\x1b[" });
}

fn write_codes(last: &Style, now: &Style, escape_c0: bool, out: &mut Vec<u8>) {
    let (a, mut last_attr) = (now.attr, last.attr);
    let mut codes: Vec<u32> = Vec::with_capacity(ATTR_CODES.len() + 1);
    let removed = ATTR_CODES
        .iter()
        .any(|(mask, _)| a & mask == 0 && last_attr & mask != 0)
        || (last.us != 0 && now.us == 0);
    if removed {
        codes.push(0);
        last_attr &= attr::CHARSET;
    }
    for (mask, code) in ATTR_CODES {
        if a & mask != 0 && last_attr & mask == 0 {
            codes.push(code);
        }
    }
    if !codes.is_empty() {
        csi_start(escape_c0, out);
        for (i, c) in codes.iter().enumerate() {
            if i > 0 {
                out.push(b';');
            }
            if *c < 10 {
                out.extend_from_slice(c.to_string().as_bytes());
            } else {
                out.extend_from_slice(format!("{}:{}", c / 10, c % 10).as_bytes());
            }
        }
        out.push(b'm');
    }
    let reset = codes.first() == Some(&0);
    let changes = [
        (
            ColourCode::colour(now.fg, 30),
            ColourCode::colour(last.fg, 30),
        ),
        (
            ColourCode::colour(now.bg, 40),
            ColourCode::colour(last.bg, 40),
        ),
        (
            ColourCode::underline(now.us),
            ColourCode::underline(last.us),
        ),
    ];
    for (new, old) in changes {
        let (new, old) = (new.as_slice(), old.as_slice());
        if !new.is_empty() && (new != old || reset) {
            csi_start(escape_c0, out);
            for (i, v) in new.iter().enumerate() {
                if i > 0 {
                    out.push(b';');
                }
                out.extend_from_slice(v.to_string().as_bytes());
            }
            out.push(b'm');
        }
    }
    if a & attr::CHARSET != 0 && last_attr & attr::CHARSET == 0 {
        out.extend_from_slice(if escape_c0 { b"\\016" } else { b"\x0e" });
    }
    if a & attr::CHARSET == 0 && last_attr & attr::CHARSET != 0 {
        out.extend_from_slice(if escape_c0 { b"\\017" } else { b"\x0f" });
    }
}
