//! Differential test: the screen against the `vt100` crate, an independent terminal model.
//!
//! tmux 3.3a is the reference for this engine; `vt100` is a second opinion that catches mistakes
//! a test written from tmux's source would repeat. Both are fed the same output and compared:
//! the visible text cell by cell and as `capture-pane -p` prints it, per-cell colours and
//! attributes, the cursor, cursor visibility, the alternate screen flag and the title.
//!
//! Inputs: real recordings (agent casts, the `vt100` crate's own fixtures, its Crawl and
//! weechat recordings) and thousands of random streams weighted toward escape sequences.
//!
//! Where tmux and `vt100` legitimately disagree, tmux wins: [`KNOWN_DIFFERENCES`] lists every
//! such case with the way it is handled (the random generator avoids the construct, the input is
//! translated into what `vt100` needs to reach tmux's state, or the comparison ignores it). Each
//! entry was checked against tmux 3.3a itself. Every use of an entry goes through [`known`],
//! which counts it; the counts are printed.
//!
//! Both models are fed token by token (an escape sequence, a control, a run of ASCII or one
//! character), so that the state a token lands in can be inspected first. Recordings are split
//! into the same tokens; the engine is also fed their original chunks and must end up identical.

mod common;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use zeropty::rng::SplitMix64;
use zeropty::term::cell::{attr, colour, push_cell_text, Cell};
use zeropty::term::width_table::{char_width, tmux_discards};
use zeropty::term::{mode, CaptureOptions, Terminal};

/// Where tmux 3.3a and the `vt100` crate (0.15) differ, and how this test deals with it.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    // ---- not compared ----
    (
        "dim",
        "vt100 has no dim/faint attribute (SGR 2 is ignored), so dim is not compared",
    ),
    (
        "erased-cell-pen",
        "an erased cell keeps the whole pen in vt100 (colours, bold...) but only the background \
         in tmux, and a combining mark added to it keeps that: for cells vt100 shows as empty, \
         or as a space with combining marks, only the background is compared",
    ),
    (
        "osc-semicolon",
        "tmux takes everything after OSC 0; or 2; as the title, vte splits it at ';': only the \
         title up to its first ';' is compared",
    ),
    // ---- translated for vt100 ----
    (
        "vt100-lacks-sequence",
        "vt100 does not implement IND, NEL, HVP, HPA, CNL, CPL, SCOSC/SCORC (CSI s/u), DECCOLM or \
         DECALN: they are sent to vt100 as the equivalent CUP/CHA/CR/LF/ESC 7/ESC 8/ED/text",
    ),
    (
        "tab-stops",
        "vt100 has fixed tab stops every 8 columns, no HTS/TBC/CBT, and HT moves off a pending \
         wrap; tmux keeps settable stops and HT at the last column (or pending wrap) does \
         nothing: the test keeps tmux's tab stops and sends vt100 the resulting CHA",
    ),
    (
        "autowrap-off",
        "vt100 ignores DECAWM (?7l); tmux then overwrites the last column, drops wide characters \
         that do not fit and, on a one-column screen, leaves the cursor at x == 1 and drops the \
         rest: the test sends vt100 only what tmux writes, with a BS where tmux leaves the \
         cursor on the last column",
    ),
    (
        "rep",
        "vt100 does not implement REP (CSI b): the test sends the repeated character, which tmux \
         takes from the last ASCII character printed and repeats at most to the right margin",
    ),
    (
        "alternate-screen",
        "vt100's alternate screen has its own cursor, scroll region and origin mode, 47 does not \
         clear it and 1047 is unknown, 1049 uses ESC 7's saved cursor; tmux keeps one cursor \
         and region, clears on entry, and 1049 saves cursor and pen apart from ESC 7 (1049l \
         restores them even off the alternate screen; leaving also cancels a pending wrap): \
         vt100 is sent 47h/47l plus ED/CUP/SGR to match, and the generator switches only with a \
         full-screen region, origin mode off and no pending wrap",
    ),
    (
        "decstbm",
        "tmux ignores an empty or inverted region (vt100 resets it) and homes the cursor to the \
         top-left of the screen even in origin mode (vt100 to the region's top): vt100 gets only \
         valid regions followed by CUP, and in origin mode the generator emits only regions \
         starting at the first line",
    ),
    (
        "pending-wrap-motion",
        "with a wrap pending (x == width) tmux's CUU/CUD move the cursor to the last column, and \
         ESC 8 clamps a saved pending-wrap column to the last column; vt100 keeps x == width: \
         corrected with a BS",
    ),
    (
        "bce-new-lines",
        "tmux fills the cells made by scrolling (LF/IND/NEL/RI at a margin, SU, SD), IL, DL, ICH \
         and DCH with the current background; vt100 with the default: with a background set, \
         vt100 is then sent EL/ECH for those cells (positioned with VPA/CHA, which keep the \
         cursor's other coordinate)",
    ),
    (
        "selective-erase",
        "tmux ignores CSI ? Ps J and CSI ? Ps K (DECSED/DECSEL); vt100 erases: vt100 is sent \
         nothing",
    ),
    (
        "apc-title",
        "tmux sets the pane title from an APC string (ESC _ ... ST); vt100 ignores APC: vt100 \
         gets the same title as OSC 2",
    ),
    (
        "rename-string",
        "tmux consumes ESC k ... ST (screen's window name); vte prints the text: vt100 is sent \
         nothing",
    ),
    (
        "invalid-utf8",
        "tmux silently drops invalid UTF-8 (bad continuation, truncated, overlong, surrogates); \
         vte prints U+FFFD: vt100 is sent nothing, and only ASCII or a C0 control may follow \
         (tmux would also swallow the start of a following non-ASCII character, even after a \
         DEL)",
    ),
    // ---- avoided by the generator; in a recording, comparison stops there until a RIS ----
    (
        "char-width",
        "characters whose width differs between tmux (glibc's wcwidth, which also rejects \
         unassigned code points: tmux drops those) and vt100 (unicode-width) are not generated",
    ),
    (
        "zwj",
        "tmux joins the character after a ZERO WIDTH JOINER into the previous cell; vt100 \
         starts a new cell: U+200D is not generated",
    ),
    (
        "combining-limit",
        "vt100 keeps at most 6 code points per cell, tmux up to 21 bytes: no combining mark is \
         generated onto a cell that already has 6 code points",
    ),
    (
        "combining-line-start",
        "tmux drops a combining mark at column 0; vt100 adds it to the last cell of the previous \
         line when that line wrapped: not generated there",
    ),
    (
        "wide-one-column",
        "on a one-column screen tmux stores a wide character that cannot fit; vt100 panics \
         (u16 overflow) placing it: no wide characters on one-column screens",
    ),
    (
        "one-row-wrap",
        "vt100 panics (row index underflow) when a character wraps on a one-row screen: no \
         wrapping text on one-row screens",
    ),
    (
        "wide-orphan-pen",
        "overwriting half of a wide character blanks the other half: tmux with the default \
         style, vt100 with the current pen: not generated while the pen is not the default",
    ),
    (
        "wide-split",
        "tmux leaves the rest of a wide character in place when ED/EL/ECH/ICH/DCH cut through \
         it (an orphaned padding cell, or a wide character whose padding was blanked), and ASCII \
         written over the right half of a wide character in column 0 keeps that character; \
         vt100 blanks both halves: not generated there",
    ),
    (
        "ich-large-count",
        "tmux's ICH of n cells where n is more than half the cells from the cursor to the margin \
         moves the cells but blanks only (width - x - n) of them, none when n reaches the \
         margin; vt100 blanks n: not generated there",
    ),
    (
        "one-row-scroll",
        "on a one-row screen tmux's RI and SD, and LF/IND/NEL/SU without history (the \
         alternate screen), leave the line as it was; vt100 blanks it: not generated there",
    ),
    (
        "bs-reverse-wrap",
        "tmux's BS at column 0 moves to the end of the previous line if that line wrapped; vt100 \
         stays: not generated there",
    ),
    (
        "vertical-margins",
        "tmux's CUU/CPL stop at the top margin when starting below the region and CUD/CNL at the \
         bottom margin when starting above it; vt100 applies margins only inside the region: not \
         generated where the results differ",
    ),
    (
        "il-dl-outside-region",
        "tmux's IL/DL outside the scroll region act on the rest of the screen; vt100 moves lines \
         inside the region: not generated there",
    ),
    (
        "ri-above-region",
        "tmux's RI on the top line above the scroll region does nothing; vt100 scrolls the \
         region: not generated there",
    ),
    (
        "vpa-origin",
        "tmux's VPA is relative to the scroll region in origin mode; vt100's is absolute: VPA is \
         not generated in origin mode",
    ),
    (
        "saved-cursor",
        "vt100 keeps ESC 7's cursor per screen (primary and alternate) and forgets the saved \
         origin mode on RIS; tmux has one saved cursor and keeps the origin mode: ESC 8 / CSI u \
         are generated only on the screen of the last ESC 7 / CSI s",
    ),
    (
        "ris-alternate",
        "tmux's RIS stays on the alternate screen; vt100 returns to the primary one: RIS is not \
         generated on the alternate screen",
    ),
    (
        "insert-mode",
        "vt100 does not implement IRM (CSI 4 h): not generated",
    ),
    (
        "title-stack",
        "vt100 has no title stack or window operations (CSI t): not generated",
    ),
    (
        "title-unprintable",
        "tmux ignores a title containing DEL or a C1 control; vt100 takes it: not generated",
    ),
    (
        "csi-limits",
        "tmux discards a CSI with more than 63 parameter bytes or 24 or more parameters; vt100 \
         acts on it: not generated",
    ),
    (
        "styled-underline",
        "tmux has double/curly/dotted/dashed underlines (SGR 21, 4:2..4:5, and 4:0/4:1); vt100 \
         only plain SGR 4/24: the colon and SGR 21 forms are not generated",
    ),
    (
        "sgr-colon-colour",
        "tmux reads 38:2:<colour space>:r:g:b; vt100 only 38:2:r:g:b and 38:5:n: not generated",
    ),
];

/// Inputs on which the engine disagrees with both tmux 3.3a and vt100. The generator avoids
/// them until the engine is fixed; then the entry goes.
const OPEN_ENGINE_BUGS: &[(&str, &str)] = &[];

/// Names a known difference (or open engine bug) where it is applied and counts the use.
fn known(stats: &mut Stats, name: &'static str) -> &'static str {
    assert!(
        KNOWN_DIFFERENCES
            .iter()
            .chain(OPEN_ENGINE_BUGS)
            .any(|(n, _)| *n == name),
        "{name} is not in KNOWN_DIFFERENCES or OPEN_ENGINE_BUGS"
    );
    *stats.known.entry(name).or_default() += 1;
    name
}

#[derive(Default)]
struct Stats {
    streams: u64,
    tokens: u64,
    checkpoints: u64,
    cells: u64,
    rows: u64,
    cursors: u64,
    /// Recording checkpoints not compared because an earlier token was a known difference.
    skipped: u64,
    known: HashMap<&'static str, u64>,
}

impl Stats {
    fn report(&self, what: &str) {
        eprintln!(
            "{what}: {} streams, {} tokens; compared {} screens ({} cells, {} lines), {} \
             cursors; {} checkpoints skipped",
            self.streams,
            self.tokens,
            self.checkpoints,
            self.cells,
            self.rows,
            self.cursors,
            self.skipped
        );
        let mut known: Vec<_> = self.known.iter().collect();
        known.sort();
        for (name, n) in known {
            let what = if OPEN_ENGINE_BUGS.iter().any(|(b, _)| b == name) {
                "open engine bug avoided"
            } else {
                "known difference"
            };
            eprintln!("  {what} {name}: {n}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Comparison

/// Our colour in vt100's terms: 0-7 and 90-97 are indices 0-15, palette colours keep their index.
fn vt_colour(c: u32) -> vt100::Color {
    if c & colour::FLAG_256 != 0 {
        vt100::Color::Idx((c & 0xff) as u8)
    } else if c & colour::FLAG_RGB != 0 {
        vt100::Color::Rgb((c >> 16) as u8, (c >> 8) as u8, c as u8)
    } else {
        match c {
            0..=7 => vt100::Color::Idx(c as u8),
            90..=97 => vt100::Color::Idx((c - 82) as u8),
            _ => vt100::Color::Default,
        }
    }
}

fn cell_text(term: &Terminal, cell: Cell) -> String {
    let mut out = Vec::new();
    push_cell_text(&mut out, cell, &term.screen().graphemes);
    String::from_utf8(out).unwrap()
}

/// Compares the visible screens (and the title unless `title` is false); `Err` describes the
/// first difference.
fn compare(
    term: &Terminal,
    vt: &vt100::Screen,
    title: bool,
    stats: &mut Stats,
) -> Result<(), String> {
    let s = term.screen();
    let (sx, sy) = (s.sx(), s.sy());
    assert_eq!(vt.size(), (sy as u16, sx as u16));
    stats.checkpoints += 1;
    compare_cursor(term, vt, stats)?;
    let visible = term.mode() & mode::CURSOR != 0;
    if visible == vt.hide_cursor() {
        return Err(format!("cursor visible: ours {visible}"));
    }
    if term.alternate_on() != vt.alternate_screen() {
        return Err(format!("alternate screen: ours {}", term.alternate_on()));
    }
    let ours_title = term.title();
    if ours_title.contains(';') {
        known(stats, "osc-semicolon");
    }
    if title && ours_title.split(';').next() != Some(vt.title()) {
        return Err(format!(
            "title: ours {ours_title:?}, vt100 {:?}",
            vt.title()
        ));
    }
    let h = s.grid.hsize;
    for y in 0..sy {
        for x in 0..sx {
            compare_cell(term, s.grid.get_cell(x, h + y), vt, x, y, stats)
                .map_err(|e| format!("cell x={x} y={y}: {e}"))?;
        }
    }
    let capture = term.capture(&CaptureOptions::default());
    let lines: Vec<&[u8]> = capture.split(|&b| b == b'\n').collect();
    for (y, row) in vt.rows(0, sx as u16).enumerate() {
        stats.rows += 1;
        let want = row.trim_end_matches(' ');
        let got = String::from_utf8_lossy(lines[y]);
        if got != want {
            return Err(format!("capture line {y}: ours {got:?}, vt100 {want:?}"));
        }
    }
    Ok(())
}

fn compare_cursor(term: &Terminal, vt: &vt100::Screen, stats: &mut Stats) -> Result<(), String> {
    stats.cursors += 1;
    let (row, col) = vt.cursor_position();
    let (x, y) = term.cursor();
    if (x, y) != (col as u32, row as u32) {
        return Err(format!("cursor: ours x={x} y={y}, vt100 x={col} y={row}"));
    }
    Ok(())
}

fn compare_cell(
    term: &Terminal,
    ours: Cell,
    vt: &vt100::Screen,
    x: u32,
    y: u32,
    stats: &mut Stats,
) -> Result<(), String> {
    let theirs = vt.cell(y as u16, x as u16).unwrap();
    stats.cells += 1;
    if ours.is_padding() != theirs.is_wide_continuation() {
        return Err(format!(
            "ours padding {}, vt100 continuation {}",
            ours.is_padding(),
            theirs.is_wide_continuation()
        ));
    }
    if ours.is_padding() {
        return Ok(());
    }
    let text = cell_text(term, ours);
    let mut their_text = theirs.contents();
    if their_text.is_empty() {
        their_text.push(' ');
    }
    if text != their_text || ours.is_wide() != theirs.is_wide() {
        return Err(format!(
            "ours {text:?} (wide {}), vt100 {their_text:?} (wide {})",
            ours.is_wide(),
            theirs.is_wide()
        ));
    }
    let st = term.screen().palette.get(ours.style());
    let ours_attrs = (
        vt_colour(st.fg),
        vt_colour(st.bg),
        st.attr & attr::BRIGHT != 0,
        st.attr & attr::ITALICS != 0,
        st.attr & attr::ALL_UNDERSCORE != 0,
        st.attr & attr::REVERSE != 0,
    );
    let their_attrs = (
        theirs.fgcolor(),
        theirs.bgcolor(),
        theirs.bold(),
        theirs.italic(),
        theirs.underline(),
        theirs.inverse(),
    );
    let erased = !theirs.has_contents() || (text.starts_with(' ') && text.len() > 1);
    if erased {
        if ours_attrs.1 != their_attrs.1 {
            return Err(format!(
                "erased background ours {:?}, vt100 {:?}",
                ours_attrs.1, their_attrs.1
            ));
        }
        if ours_attrs != their_attrs {
            known(stats, "erased-cell-pen");
        }
        return Ok(());
    }
    if st.attr & attr::DIM != 0 {
        known(stats, "dim");
    }
    if ours_attrs != their_attrs {
        return Err(format!(
            "{text:?} (fg, bg, bold, italic, underline, inverse) ours {ours_attrs:?}, vt100 \
             {their_attrs:?}"
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Tokens

/// One unit of output: what both models are fed at a time.
#[derive(Clone, Debug)]
enum Tok {
    /// Printable ASCII, or exactly one non-ASCII character.
    Print(String),
    /// A C0 control or DEL.
    C0(u8),
    /// `CSI params final`, no private marker or intermediate.
    Csi(String, u8),
    /// `CSI ? params final`.
    Private(String, u8),
    /// `ESC` followed by these bytes.
    Esc(String),
    /// `OSC number ; text` with a BEL (or ST) terminator.
    Osc(u32, String, bool),
    /// `ESC _ text ESC \`.
    Apc(String),
    /// `ESC k text ESC \`.
    Rename(Vec<u8>),
    /// Bytes that are not valid UTF-8.
    BadUtf8(Vec<u8>),
    /// A sequence both parse the same way; true if tmux forgets the REP character after it.
    Raw(Vec<u8>, bool),
}

impl Tok {
    fn bytes(&self) -> Vec<u8> {
        match self {
            Tok::Print(s) => s.as_bytes().to_vec(),
            Tok::C0(b) => vec![*b],
            Tok::Csi(p, f) => format!("\x1b[{p}{}", *f as char).into_bytes(),
            Tok::Private(p, f) => format!("\x1b[?{p}{}", *f as char).into_bytes(),
            Tok::Esc(s) => format!("\x1b{s}").into_bytes(),
            Tok::Osc(n, text, bel) => {
                format!("\x1b]{n};{text}{}", if *bel { "\x07" } else { "\x1b\\" }).into_bytes()
            }
            Tok::Apc(text) => format!("\x1b_{text}\x1b\\").into_bytes(),
            Tok::Rename(b) => [b"\x1bk", &b[..], b"\x1b\\"].concat(),
            Tok::BadUtf8(b) | Tok::Raw(b, _) => b.clone(),
        }
    }
}

/// Parameters of a CSI as tmux reads them: `None` for a missing one.
fn params(p: &str) -> Vec<Option<u32>> {
    if p.is_empty() {
        return Vec::new();
    }
    p.split(';').map(|s| s.parse().ok()).collect()
}

/// tmux's `input_get(ictx, i, min, default)` for numeric parameters.
fn param(p: &[Option<u32>], i: usize, min: u32, default: u32) -> u32 {
    match p.get(i).copied().flatten() {
        None => default,
        Some(n) => n.max(min),
    }
}

/// Splits output into tokens the way both parsers see it. Controls inside a CSI take effect
/// where they are, so they come out as tokens before it.
fn tokenize(bytes: &[u8]) -> Vec<(Tok, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        let tok = match b {
            0x1b => {
                let (tok, end) = escape(bytes, i, &mut out);
                i = end;
                tok
            }
            0..=0x1f | 0x7f => {
                i += 1;
                Tok::C0(b)
            }
            0x20..=0x7e => {
                while i < bytes.len() && (0x20..=0x7e).contains(&bytes[i]) {
                    i += 1;
                }
                Tok::Print(String::from_utf8(bytes[start..i].to_vec()).unwrap())
            }
            _ => {
                let len = match b {
                    0xc2..=0xdf => 2,
                    0xe0..=0xef => 3,
                    0xf0..=0xf4 => 4,
                    _ => 1,
                };
                let end = (i + len).min(bytes.len());
                match std::str::from_utf8(&bytes[i..end]) {
                    Ok(s) => {
                        i = end;
                        Tok::Print(s.into())
                    }
                    Err(_) => {
                        i += 1;
                        while i < bytes.len() && bytes[i] >= 0x80 && bytes[i] < 0xc0 {
                            i += 1;
                        }
                        Tok::BadUtf8(bytes[start..i].to_vec())
                    }
                }
            }
        };
        out.push((tok, i));
    }
    out
}

/// The escape sequence at `bytes[i]` (an ESC) and where it ends.
fn escape(bytes: &[u8], i: usize, out: &mut Vec<(Tok, usize)>) -> (Tok, usize) {
    let Some(&next) = bytes.get(i + 1) else {
        return (Tok::Raw(bytes[i..].to_vec(), false), bytes.len());
    };
    let string_end = |from: usize| {
        let mut j = from;
        while j < bytes.len() {
            if bytes[j] == 0x07 && bytes[i + 1] == b']' {
                return (j, j + 1);
            }
            if bytes[j] == 0x1b {
                return (j, (j + 2).min(bytes.len()));
            }
            j += 1;
        }
        (j, j)
    };
    match next {
        b'[' => {
            let mut j = i + 2;
            let mut seq = b"\x1b[".to_vec();
            while j < bytes.len() {
                match bytes[j] {
                    0x18 | 0x1a | 0x1b => return (Tok::Raw(seq, false), j),
                    c @ (0..=0x1f) => out.push((Tok::C0(c), j + 1)),
                    c => {
                        seq.push(c);
                        if (0x40..=0x7e).contains(&c) {
                            return (csi_token(seq), j + 1);
                        }
                    }
                }
                j += 1;
            }
            (Tok::Raw(seq, false), j)
        }
        b']' | b'_' | b'k' | b'P' | b'X' | b'^' => {
            let (end, after) = string_end(i + 2);
            let body = &bytes[i + 2..end];
            let text = std::str::from_utf8(body).ok().filter(|t| {
                t.chars().all(|c| c >= ' ')
                    && (bytes.get(end) == Some(&0x07) || bytes.get(end + 1) == Some(&b'\\'))
            });
            let tok = match (next, text) {
                (b']', Some(t)) => match t.split_once(';') {
                    Some((n @ ("0" | "1" | "2"), t)) => {
                        Tok::Osc(n.parse().unwrap(), t.into(), bytes[end] == 0x07)
                    }
                    _ => Tok::Raw(bytes[i..after].to_vec(), true),
                },
                (b'_', Some(t)) => Tok::Apc(t.into()),
                (b'k', _) => Tok::Rename(body.to_vec()),
                _ => Tok::Raw(bytes[i..after].to_vec(), true),
            };
            (tok, after)
        }
        _ => {
            let mut j = i + 1;
            while j < bytes.len() && (0x20..=0x2f).contains(&bytes[j]) {
                j += 1;
            }
            let end = (j + 1).min(bytes.len());
            let text = String::from_utf8_lossy(&bytes[i + 1..end]).into_owned();
            (Tok::Esc(text), end)
        }
    }
}

fn csi_token(seq: Vec<u8>) -> Tok {
    let fin = *seq.last().unwrap();
    let body = &seq[2..seq.len() - 1];
    let numeric = |p: &[u8]| p.iter().all(|b| b.is_ascii_digit() || *b == b';');
    if numeric(body) || (fin == b'm' && body.iter().all(|b| b"0123456789;:".contains(b))) {
        Tok::Csi(String::from_utf8(body.to_vec()).unwrap(), fin)
    } else if body.first() == Some(&b'?') && numeric(&body[1..]) {
        Tok::Private(String::from_utf8(body[1..].to_vec()).unwrap(), fin)
    } else {
        let known = matches!(
            (body.first(), body.last(), fin),
            (Some(b'>'), _, b'c' | b'm' | b'n' | b'q') | (_, Some(b' '), b'q')
        );
        Tok::Raw(seq, known)
    }
}

// ---------------------------------------------------------------------------------------------
// Feeding vt100

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Width {
    Dropped,
    Zero,
    One,
    Two,
}

/// Character widths as tmux and as vt100 see them.
#[derive(Default)]
struct Widths(HashMap<char, (Width, Width)>);

impl Widths {
    fn get(&mut self, c: char) -> (Width, Width) {
        *self.0.entry(c).or_insert_with(|| {
            let ours = if tmux_discards(c) {
                Width::Dropped
            } else {
                match char_width(c) {
                    0 => Width::Zero,
                    1 => Width::One,
                    _ => Width::Two,
                }
            };
            let mut p = vt100::Parser::new(1, 4, 0);
            p.process(format!("a{c}").as_bytes());
            let theirs = match p.screen().cursor_position().1 {
                1 if p.screen().cell(0, 0).unwrap().contents().chars().count() > 1 => Width::Zero,
                1 => Width::Dropped,
                2 => Width::One,
                _ => Width::Two,
            };
            (ours, theirs)
        })
    }
}

/// The pen as vt100 reports it, to restore it after a translation.
#[derive(Clone, Copy, Default, PartialEq)]
struct Pen {
    fg: vt100::Color,
    bg: vt100::Color,
    bold: bool,
    italic: bool,
    underline: bool,
    inverse: bool,
}

impl Pen {
    fn of(s: &vt100::Screen) -> Pen {
        Pen {
            fg: s.fgcolor(),
            bg: s.bgcolor(),
            bold: s.bold(),
            italic: s.italic(),
            underline: s.underline(),
            inverse: s.inverse(),
        }
    }

    fn sgr(&self) -> String {
        let mut s = String::from("\x1b[0");
        for (on, code) in [
            (self.bold, 1),
            (self.italic, 3),
            (self.underline, 4),
            (self.inverse, 7),
        ] {
            if on {
                write!(s, ";{code}").unwrap();
            }
        }
        for (c, base) in [(self.fg, 38), (self.bg, 48)] {
            match c {
                vt100::Color::Default => {}
                vt100::Color::Idx(n) => write!(s, ";{base};5;{n}").unwrap(),
                vt100::Color::Rgb(r, g, b) => write!(s, ";{base};2;{r};{g};{b}").unwrap(),
            }
        }
        s.push('m');
        s
    }
}

/// Feeds vt100 what it needs to reach tmux's state, keeping the state vt100 lacks.
struct Shim {
    cols: u16,
    rows: u16,
    wrap: bool,
    tabs: Vec<bool>,
    /// tmux's scroll region (vt100 does not report its own).
    top: u16,
    bottom: u16,
    origin: bool,
    saved_origin: bool,
    /// Where the last ESC 7 was (on vt100's alternate grid or not): vt100 keeps a saved cursor
    /// per grid. `None` if there was none since the start or RIS.
    saved_on: Option<bool>,
    /// 1049h's saved cursor, and the pen saved by any switch to the alternate screen.
    alt_cursor: Option<(u16, u16)>,
    alt_pen: Pen,
    /// tmux's REP character.
    last: Option<char>,
    /// The previous token was invalid UTF-8.
    bad_utf8: bool,
}

impl Shim {
    fn new(cols: u16, rows: u16) -> Shim {
        Shim {
            cols,
            rows,
            wrap: true,
            tabs: (0..cols).map(|x| x != 0 && x % 8 == 0).collect(),
            top: 0,
            bottom: rows - 1,
            origin: false,
            saved_origin: false,
            saved_on: None,
            alt_cursor: None,
            alt_pen: Pen::default(),
            last: None,
            bad_utf8: false,
        }
    }

    /// Would ESC 8 restore the same in both? vt100 keeps the saved position per grid and forgets
    /// the saved origin mode on RIS.
    fn restore_matches(&self, vt: &vt100::Screen) -> bool {
        match self.saved_on {
            None => !self.saved_origin,
            Some(alt) => alt == vt.alternate_screen(),
        }
    }

    fn cursor(vt: &vt100::Parser) -> (u16, u16) {
        vt.screen().cursor_position()
    }

    fn cha(vt: &mut vt100::Parser, x: u16) {
        vt.process(format!("\x1b[{}G", x + 1).as_bytes());
    }

    fn cup(vt: &mut vt100::Parser, y: u16, x: u16) {
        vt.process(format!("\x1b[{};{}H", y + 1, x + 1).as_bytes());
    }

    fn print(&mut self, vt: &mut vt100::Parser, widths: &mut Widths, c: char, stats: &mut Stats) {
        let w = widths.get(c).0;
        let mut buf = [0; 4];
        let bytes = c.encode_utf8(&mut buf).as_bytes();
        if self.wrap || matches!(w, Width::Dropped | Width::Zero) {
            vt.process(bytes);
        } else {
            // Where tmux's screen_write_cell puts the character without autowrap (unsigned
            // arithmetic, as tmux's), and where it leaves the cursor.
            known(stats, "autowrap-off");
            let w: u32 = if w == Width::Two { 2 } else { 1 };
            let (sx, cx) = (self.cols as u32, Self::cursor(vt).1 as u32);
            let fits = !(w > 1 && (w > sx || (cx != sx && cx > sx.wrapping_sub(w))))
                && cx <= sx.wrapping_sub(w);
            if fits {
                vt.process(bytes);
                let after = if cx <= sx.wrapping_sub(1).wrapping_sub(w) {
                    cx + w
                } else {
                    sx - 1
                };
                for _ in after..cx + w {
                    vt.process(b"\x08");
                }
            }
        }
        self.last = c.is_ascii().then_some(c);
    }

    fn feed(&mut self, tok: &Tok, vt: &mut vt100::Parser, widths: &mut Widths, st: &mut Stats) {
        let bad_utf8 = std::mem::take(&mut self.bad_utf8);
        let resets_last = match tok {
            Tok::Print(s) => {
                for c in s.chars() {
                    self.print(vt, widths, c, st);
                }
                false
            }
            Tok::BadUtf8(_) => {
                known(st, "invalid-utf8");
                self.bad_utf8 = true;
                true
            }
            Tok::C0(b'\t') => {
                known(st, "tab-stops");
                let (_, col) = Self::cursor(vt);
                if col + 1 < self.cols {
                    let mut x = col + 1;
                    while x < self.cols - 1 && !self.tabs[x as usize] {
                        x += 1;
                    }
                    Self::cha(vt, x);
                }
                true
            }
            Tok::C0(b @ 10..=12) => {
                self.scroll_feed(vt, &[*b], st);
                true
            }
            Tok::C0(0x7f) => {
                // tmux ignores DEL without dispatching it (a UTF-8 character stays started).
                vt.process(b"\x7f");
                self.bad_utf8 = bad_utf8;
                false
            }
            Tok::C0(b) => {
                vt.process(&[*b]);
                true
            }
            Tok::Csi(p, f) => self.csi(p, *f, vt, widths, st),
            Tok::Private(p, f) => {
                if matches!(f, b'J' | b'K') {
                    known(st, "selective-erase");
                    false
                } else {
                    for n in params(p) {
                        self.private_mode(n, *f, vt, st);
                    }
                    matches!(f, b'h' | b'l')
                }
            }
            Tok::Esc(s) => self.esc(s, vt, st),
            Tok::Osc(..) => {
                vt.process(&tok.bytes());
                true
            }
            Tok::Apc(text) => {
                known(st, "apc-title");
                vt.process(format!("\x1b]2;{text}\x07").as_bytes());
                true
            }
            Tok::Rename(_) => {
                known(st, "rename-string");
                true
            }
            Tok::Raw(b, resets) => {
                vt.process(b);
                *resets
            }
        };
        if resets_last {
            self.last = None;
        }
    }

    /// Returns whether tmux knows the sequence (and so forgets the REP character).
    fn csi(
        &mut self,
        p: &str,
        f: u8,
        vt: &mut vt100::Parser,
        widths: &mut Widths,
        st: &mut Stats,
    ) -> bool {
        let n = params(p);
        let (_, col) = Self::cursor(vt);
        match f {
            b'f' | b'`' | b'E' | b'F' => {
                known(st, "vt100-lacks-sequence");
                let s = match f {
                    b'f' => format!("\x1b[{p}H"),
                    b'`' => format!("\x1b[{p}G"),
                    b'E' => format!("\r\x1b[{p}B"),
                    _ => format!("\r\x1b[{p}A"),
                };
                vt.process(s.as_bytes());
            }
            b'A' | b'B' => {
                vt.process(&Tok::Csi(p.into(), f).bytes());
                if Self::cursor(vt).1 == self.cols {
                    known(st, "pending-wrap-motion");
                    vt.process(b"\x08");
                }
            }
            b'b' => {
                known(st, "rep");
                let count = param(&n, 0, 1, 1).min((self.cols - col) as u32);
                if let Some(c) = self.last {
                    for _ in 0..count {
                        self.print(vt, widths, c, st);
                    }
                }
            }
            b'r' => {
                known(st, "decstbm");
                let rows = self.rows as u32;
                let top = (param(&n, 0, 1, 1) - 1).min(rows - 1);
                let bottom = (param(&n, 1, 1, rows) - 1).min(rows - 1);
                if top < bottom {
                    vt.process(format!("\x1b[{};{}r\x1b[H", top + 1, bottom + 1).as_bytes());
                    (self.top, self.bottom) = (top as u16, bottom as u16);
                }
            }
            b's' => {
                known(st, "vt100-lacks-sequence");
                self.esc("7", vt, st);
            }
            b'u' => {
                known(st, "vt100-lacks-sequence");
                self.esc("8", vt, st);
            }
            b'g' => {
                known(st, "tab-stops");
                match param(&n, 0, 0, 0) {
                    0 if col < self.cols => self.tabs[col as usize] = false,
                    3 => self.tabs.iter_mut().for_each(|t| *t = false),
                    _ => {}
                }
            }
            b'Z' => {
                known(st, "tab-stops");
                let mut count = param(&n, 0, 1, 1);
                let mut x = col.min(self.cols - 1);
                while x > 0 && count > 0 {
                    count -= 1;
                    loop {
                        x -= 1;
                        if x == 0 || self.tabs[x as usize] {
                            break;
                        }
                    }
                }
                Self::cha(vt, x);
            }
            b'S' | b'T' | b'L' | b'M' | b'@' | b'P' => {
                // vt100 loops once per line or cell: send at most what makes a difference.
                let limit = if matches!(f, b'@' | b'P') {
                    self.cols
                } else {
                    self.rows
                };
                let count = param(&n, 0, 1, 1).min(limit as u32);
                vt.process(format!("\x1b[{count}{}", f as char).as_bytes());
                self.fill_new_cells(f, count as u16, vt, st);
            }
            _ => vt.process(&Tok::Csi(p.into(), f).bytes()),
        }
        b"@ABCDEFGHJKLMPSTXZ`bcdfghlmnrstu".contains(&f)
    }

    /// LF, IND, NEL or RI; a line scrolled in gets the background as in tmux.
    fn scroll_feed(&mut self, vt: &mut vt100::Parser, bytes: &[u8], st: &mut Stats) {
        let (row, _) = Self::cursor(vt);
        let edge = if bytes == b"\x1bM" {
            self.top
        } else {
            self.bottom
        };
        vt.process(bytes);
        if row == edge && vt.screen().bgcolor() != vt100::Color::Default {
            known(st, "bce-new-lines");
            vt.process(b"\x1b[2K");
        }
    }

    /// After SU, SD, IL, DL, ICH or DCH of `n`: blank the new cells with the background.
    fn fill_new_cells(&mut self, f: u8, n: u16, vt: &mut vt100::Parser, st: &mut Stats) {
        if vt.screen().bgcolor() == vt100::Color::Default {
            return;
        }
        known(st, "bce-new-lines");
        let (row, col) = Self::cursor(vt);
        let (top, bottom, cols) = (self.top, self.bottom, self.cols);
        let lines = match f {
            b'S' => bottom + 1 - n.min(bottom - top + 1)..bottom + 1,
            b'T' => top..top + n.min(bottom - top + 1),
            b'L' => row..row + n.min((bottom + 1).saturating_sub(row)),
            b'M' => bottom + 1 - n.min((bottom + 1).saturating_sub(row))..bottom + 1,
            _ => {
                if col < cols {
                    let n = n.min(cols - col);
                    let s = if f == b'@' {
                        format!("\x1b[{n}X")
                    } else {
                        format!("\x1b[{}G\x1b[{n}X\x1b[{}G", cols - n + 1, col + 1)
                    };
                    vt.process(s.as_bytes());
                }
                return;
            }
        };
        for y in lines {
            vt.process(format!("\x1b[{}d\x1b[2K", y + 1).as_bytes());
        }
        vt.process(format!("\x1b[{}d", row + 1).as_bytes());
    }

    fn private_mode(&mut self, n: Option<u32>, f: u8, vt: &mut vt100::Parser, st: &mut Stats) {
        let Some(n) = n else { return };
        let on = f == b'h';
        match n {
            3 if matches!(f, b'h' | b'l') => {
                known(st, "vt100-lacks-sequence");
                vt.process(b"\x1b[H\x1b[2J");
            }
            6 if matches!(f, b'h' | b'l') => {
                self.origin = on;
                vt.process(&Tok::Private("6".into(), f).bytes());
            }
            7 if matches!(f, b'h' | b'l') => {
                known(st, "autowrap-off");
                self.wrap = on;
            }
            47 | 1047 | 1049 if matches!(f, b'h' | b'l') => {
                known(st, "alternate-screen");
                let (row, col) = Self::cursor(vt);
                let alt = vt.screen().alternate_screen();
                if on && !alt {
                    if n == 1049 {
                        self.alt_cursor = Some((row, col));
                    }
                    // vt100's alternate grid keeps what it had: clear it with the default pen
                    // (its region and origin mode were reset before it was left).
                    let pen = Pen::of(vt.screen());
                    self.alt_pen = pen;
                    vt.process(b"\x1b[?47h\x1b[0m\x1b[2J");
                    vt.process(pen.sgr().as_bytes());
                    Self::cup(vt, row, col);
                } else if !on {
                    if alt {
                        vt.process(b"\x1b[?47l");
                    }
                    Self::cup(vt, row, col.min(self.cols - 1));
                    if let (1049, Some((row, col))) = (n, self.alt_cursor) {
                        Self::cup(vt, row, col.min(self.cols - 1));
                        vt.process(self.alt_pen.sgr().as_bytes());
                    }
                }
            }
            _ => vt.process(&Tok::Private(n.to_string(), f).bytes()),
        }
    }

    /// Returns whether tmux knows the sequence.
    fn esc(&mut self, s: &str, vt: &mut vt100::Parser, st: &mut Stats) -> bool {
        match s {
            "7" => {
                vt.process(b"\x1b7");
                self.saved_origin = self.origin;
                self.saved_on = Some(vt.screen().alternate_screen());
            }
            "8" => {
                vt.process(b"\x1b8");
                self.origin = self.saved_origin;
                if Self::cursor(vt).1 == self.cols {
                    known(st, "pending-wrap-motion");
                    vt.process(b"\x08");
                }
            }
            "D" => {
                known(st, "vt100-lacks-sequence");
                self.scroll_feed(vt, b"\n", st);
            }
            "E" => {
                known(st, "vt100-lacks-sequence");
                self.scroll_feed(vt, b"\r\n", st);
            }
            "M" => self.scroll_feed(vt, b"\x1bM", st),
            "H" => {
                known(st, "tab-stops");
                let (_, col) = Self::cursor(vt);
                if col < self.cols {
                    self.tabs[col as usize] = true;
                }
            }
            "c" => {
                vt.process(b"\x1bc");
                // tmux forgets the saved cursor and pen, but not the saved origin mode.
                *self = Shim {
                    alt_cursor: self.alt_cursor,
                    alt_pen: self.alt_pen,
                    saved_origin: self.saved_origin,
                    ..Shim::new(self.cols, self.rows)
                };
            }
            "#8" => {
                known(st, "vt100-lacks-sequence");
                let pen = Pen::of(vt.screen());
                vt.process(b"\x1b[r\x1b[0m");
                (self.top, self.bottom) = (0, self.rows - 1);
                let line = "E".repeat(self.cols as usize);
                for y in 0..self.rows {
                    Self::cup(vt, y, 0);
                    vt.process(line.as_bytes());
                }
                vt.process(b"\x1b[H");
                vt.process(pen.sgr().as_bytes());
            }
            _ => vt.process(format!("\x1b{s}").as_bytes()),
        }
        matches!(
            s,
            "(0" | ")0"
                | "7"
                | "8"
                | "#8"
                | "="
                | ">"
                | "(B"
                | ")B"
                | "D"
                | "E"
                | "H"
                | "M"
                | "\\"
                | "c"
        )
    }
}

/// Does vt100 read this colon-separated SGR colour differently from tmux? vt100 takes only
/// `38:2:r:g:b` and `38:5:n` (and the same for 48).
fn sgr_colon_differs(part: &str) -> bool {
    let fields: Vec<&str> = part.split(':').collect();
    match fields[..] {
        [_] => false,
        ["38" | "48", "2", ..] => fields.len() != 5,
        ["38" | "48", "5", ..] => fields.len() != 3,
        ["38" | "48", ..] => true,
        _ => false,
    }
}

/// Would writing `width` columns of text at the cursor leave half of a wide character behind?
fn splits_wide(term: &Terminal, width: u32) -> bool {
    let s = term.screen();
    let (cx, cy, sx) = (s.cx, s.cy, s.sx());
    let row = |y: u32| s.grid.hsize + y;
    if cx >= sx || cx + width > sx {
        // The text wraps (or overwrites the last column): any wide character may be hit.
        return (0..s.sy()).any(|y| (0..sx).any(|x| s.grid.get_cell(x, row(y)).is_wide()));
    }
    s.grid.get_cell(cx, row(cy)).is_padding()
        || (cx + width < sx && s.grid.get_cell(cx + width, row(cy)).is_padding())
}

/// Why `tok` must not be fed in the current state, if it must not.
fn blocked(
    tok: &Tok,
    term: &Terminal,
    vt: &vt100::Screen,
    shim: &Shim,
    widths: &mut Widths,
    st: &mut Stats,
) -> Option<&'static str> {
    let s = term.screen();
    let (cx, cy, sx, sy) = (s.cx, s.cy, s.sx(), s.sy());
    let (top, bottom) = (s.rupper, s.rlower);
    let plain_pen = Pen::of(vt) == Pen::default();
    let wrap = s.mode & mode::WRAP != 0;
    let one_row_alt = sy == 1 && term.alternate_on();
    // A boundary at x cuts a wide character in two.
    let split_at = |x: u32| x < sx && s.grid.get_cell(x, s.grid.hsize + cy).is_padding();
    let name = match tok {
        _ if shim.bad_utf8
            && !matches!(tok, Tok::C0(_))
            && !matches!(tok, Tok::Print(t) if t.is_ascii()) =>
        {
            "invalid-utf8"
        }
        Tok::Print(text) => {
            let c = text.chars().next()?;
            if c.is_ascii() {
                let n = text.len() as u32;
                if sy == 1 && wrap && cx + n > sx {
                    "one-row-wrap"
                } else if cx == 1 && split_at(1) {
                    "wide-split"
                } else if !plain_pen && splits_wide(term, n) {
                    "wide-orphan-pen"
                } else {
                    return None;
                }
            } else {
                let (ours, theirs) = widths.get(c);
                let w = match ours {
                    Width::Two => 2,
                    Width::One => 1,
                    _ => 0,
                };
                if ours != theirs {
                    "char-width"
                } else if c == '\u{200d}' {
                    "zwj"
                } else if w == 2 && sx < 2 {
                    "wide-one-column"
                } else if w > 0 && sy == 1 && wrap && cx + w > sx {
                    "one-row-wrap"
                } else if w > 0 && !plain_pen && splits_wide(term, w) {
                    "wide-orphan-pen"
                } else if ours == Width::Zero && cx == 0 && cy > 0 && vt.row_wrapped(cy as u16 - 1)
                {
                    "combining-line-start"
                } else if ours == Width::Zero && cx > 0 {
                    let mut x = cx - 1;
                    while x > 0 && s.grid.get_cell(x, s.grid.hsize + cy).is_padding() {
                        x -= 1;
                    }
                    let cell = s.grid.get_cell(x, s.grid.hsize + cy);
                    if cell_text(term, cell).chars().count() >= 6 {
                        "combining-limit"
                    } else {
                        return None;
                    }
                } else {
                    return None;
                }
            }
        }
        Tok::C0(8) if cx == 0 && cy > 0 && s.grid.view_row(cy - 1).wrapped => "bs-reverse-wrap",
        Tok::C0(10..=12) if one_row_alt => "one-row-scroll",
        Tok::Esc(e) => match e.as_str() {
            "D" | "E" if one_row_alt => "one-row-scroll",
            "M" if sy == 1 => "one-row-scroll",
            "M" if cy == 0 && top > 0 => "ri-above-region",
            "8" if !shim.restore_matches(vt) => "saved-cursor",
            "c" if term.alternate_on() => "ris-alternate",
            _ => return None,
        },
        Tok::Csi(p, _) | Tok::Private(p, _) if p.len() > 63 || p.split(';').count() >= 24 => {
            "csi-limits"
        }
        Tok::Csi(p, f) => {
            let n = params(p);
            let count = param(&n, 0, 1, 1);
            match f {
                b'A' | b'F' => {
                    let ny = if cy < top {
                        count.min(cy)
                    } else {
                        count.min(cy - top)
                    };
                    let mut theirs = cy.saturating_sub(count);
                    if (top..=bottom).contains(&cy) {
                        theirs = theirs.max(top);
                    }
                    if cy - ny != theirs {
                        "vertical-margins"
                    } else {
                        return None;
                    }
                }
                b'B' | b'E' => {
                    let ny = if cy > bottom {
                        count.min(sy - 1 - cy)
                    } else {
                        count.min(bottom - cy)
                    };
                    let limit = if (top..=bottom).contains(&cy) {
                        bottom
                    } else {
                        sy - 1
                    };
                    if cy + ny != cy.saturating_add(count).min(limit) {
                        "vertical-margins"
                    } else {
                        return None;
                    }
                }
                b'L' | b'M' if cy < top || cy > bottom => "il-dl-outside-region",
                b'T' if sy == 1 => "one-row-scroll",
                b'S' if one_row_alt => "one-row-scroll",
                b'J' | b'K' if matches!(param(&n, 0, 0, 0), 0 | 1) => {
                    let from0 = param(&n, 0, 0, 0) == 0;
                    if split_at(if from0 { cx } else { cx + 1 }) {
                        "wide-split"
                    } else {
                        return None;
                    }
                }
                b'X' | b'@' | b'P' if cx < sx => {
                    let count = count.min(sx - cx);
                    let far = if *f == b'@' { sx - count } else { cx + count };
                    if split_at(cx) || split_at(far) {
                        "wide-split"
                    } else if *f == b'@' && 2 * count > sx - cx && cx < sx - 1 {
                        "ich-large-count"
                    } else {
                        return None;
                    }
                }
                b'b' if shim.last.is_some() && cx == 1 && split_at(1) => "wide-split",
                b'b' if !plain_pen && shim.last.is_some() && splits_wide(term, count) => {
                    "wide-orphan-pen"
                }
                b'd' if shim.origin => "vpa-origin",
                b'r' if shim.origin => {
                    let top = param(&n, 0, 1, 1) - 1;
                    let bottom = param(&n, 1, 1, sy) - 1;
                    if top.min(sy - 1) < bottom.min(sy - 1) && top > 0 {
                        "decstbm"
                    } else {
                        return None;
                    }
                }
                b'u' if !shim.restore_matches(vt) => "saved-cursor",
                b'h' if n.contains(&Some(4)) => "insert-mode",
                b't' => "title-stack",
                b'm' if n.contains(&Some(21)) || p.split(';').any(|p| p.starts_with("4:")) => {
                    "styled-underline"
                }
                b'm' if p.split(';').any(sgr_colon_differs) => "sgr-colon-colour",
                _ => return None,
            }
        }
        Tok::Private(p, b'h' | b'l') => {
            let n = params(p);
            let switch = n.iter().any(|n| matches!(n, Some(47 | 1047 | 1049)));
            let on = tok.bytes().ends_with(b"h");
            let full = top == 0 && bottom == sy - 1;
            if switch && (!full || shim.origin || (on && cx == sx) || n.len() > 1) {
                "alternate-screen"
            } else {
                return None;
            }
        }
        Tok::Osc(_, text, _) | Tok::Apc(text)
            if text.contains(|c: char| c == '\x7f' || ('\u{80}'..'\u{a0}').contains(&c)) =>
        {
            "title-unprintable"
        }
        _ => return None,
    };
    Some(known(st, name))
}

/// Both models fed with the same stream, token by token.
struct Run {
    term: Terminal,
    vt: vt100::Parser,
    shim: Shim,
}

impl Run {
    fn new(cols: u16, rows: u16) -> Run {
        Run {
            term: Terminal::new(cols as u32, rows as u32, 100),
            vt: vt100::Parser::new(rows, cols, 0),
            shim: Shim::new(cols, rows),
        }
    }

    fn blocked(&self, tok: &Tok, widths: &mut Widths, st: &mut Stats) -> Option<&'static str> {
        blocked(tok, &self.term, self.vt.screen(), &self.shim, widths, st)
    }

    /// Feeds one token; `Err` if vt100 panicked.
    fn feed(&mut self, tok: &Tok, widths: &mut Widths, st: &mut Stats) -> Result<(), String> {
        self.term.feed(&tok.bytes());
        st.tokens += 1;
        let (shim, vt) = (&mut self.shim, &mut self.vt);
        catch_unwind(AssertUnwindSafe(|| shim.feed(tok, vt, widths, st)))
            .map_err(|_| "vt100 panicked".to_string())
    }
}

// ---------------------------------------------------------------------------------------------
// Recordings

/// Feeds a recording (cumulative chunks) to both models; compares after every `every` chunks.
/// Once a token is a known difference the rest is not compared with vt100, but the engine fed
/// the raw chunks must still equal the engine fed token by token.
fn check_recording(
    name: &str,
    cols: u16,
    rows: u16,
    chunks: &[Vec<u8>],
    every: usize,
    widths: &mut Widths,
    st: &mut Stats,
) {
    let all: Vec<u8> = chunks.concat();
    let mut ends = Vec::new();
    let mut end = 0;
    for (i, c) in chunks.iter().enumerate() {
        end += c.len();
        if (i + 1).is_multiple_of(every) || i + 1 == chunks.len() {
            ends.push(end);
        }
    }
    let mut raw = Terminal::new(cols as u32, rows as u32, 100);
    let (mut fed, mut fed_chunks) = (0, 0);
    let mut run = Run::new(cols, rows);
    let mut diverged = None;
    let mut title_ok = true;
    let mut next = 0;
    st.streams += 1;
    for (tok, end) in tokenize(&all) {
        if diverged.is_some()
            && matches!(&tok, Tok::Esc(e) if e == "c")
            && !run.term.alternate_on()
            && !run.vt.screen().alternate_screen()
        {
            // RIS resets everything compared but the title.
            diverged = None;
        } else if diverged.is_none() {
            match run.blocked(&tok, widths, st) {
                Some("title-unprintable") => title_ok = false,
                Some(why) => {
                    eprintln!("{name}: not compared with vt100 after byte {end}: {why} ({tok:?})");
                    diverged = Some(why);
                }
                None => {}
            }
        }
        run.feed(&tok, widths, st)
            .unwrap_or_else(|e| panic!("{name}: {e} at byte {end}"));
        while next < ends.len() && ends[next] <= end {
            next += 1;
            if ends[next - 1] < end {
                // The chunk ended inside this token.
                continue;
            }
            while fed < end {
                raw.feed(&chunks[fed_chunks]);
                fed += chunks[fed_chunks].len();
                fed_chunks += 1;
            }
            let what = format!("{name} (after byte {end} of {})", all.len());
            let opts = CaptureOptions {
                escapes: true,
                ..Default::default()
            };
            assert_eq!(
                (raw.capture(&opts), raw.cursor(), raw.title()),
                (run.term.capture(&opts), run.term.cursor(), run.term.title()),
                "{what}: the engine fed the recording's chunks differs from the engine fed tokens"
            );
            if diverged.is_some() {
                st.skipped += 1;
            } else {
                compare(&run.term, run.vt.screen(), title_ok, st)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
            }
        }
    }
}

#[test]
fn recordings_match_vt100() {
    let shared = common::shared_dir();
    let mut st = Stats::default();
    let mut widths = Widths::default();
    for cast in ["claude-a", "gemini-a"] {
        let c = common::load_cast(&shared.join("traces").join(format!("{cast}.cast")));
        let chunks: Vec<Vec<u8>> = c.events.iter().map(|(_, d)| d.clone()).collect();
        let (w, h) = (c.width as u16, c.height as u16);
        check_recording(cast, w, h, &chunks, 25, &mut widths, &mut st);
    }
    let data = shared.join("peer/vt100-rust/data");
    let mut fixtures: Vec<_> = std::fs::read_dir(data.join("fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    fixtures.sort();
    assert!(fixtures.len() > 30, "{} fixtures", fixtures.len());
    for dir in &fixtures {
        let mut chunks = Vec::new();
        while let Ok(b) = std::fs::read(dir.join(format!("{}.typescript", chunks.len() + 1))) {
            chunks.push(b);
        }
        assert!(!chunks.is_empty(), "{}", dir.display());
        let name = dir.file_name().unwrap().to_string_lossy();
        check_recording(&name, 80, 24, &chunks, 1, &mut widths, &mut st);
    }
    let crawl: Vec<Vec<u8>> = (1..)
        .map_while(|i| std::fs::read(data.join(format!("crawl/crawl{i}"))).ok())
        .collect();
    assert_eq!(crawl.len(), 7625);
    check_recording("crawl", 80, 24, &crawl, 250, &mut widths, &mut st);
    let weechat = std::fs::read(data.join("weechat.typescript")).unwrap();
    check_recording("weechat", 80, 24, &[weechat], 1, &mut widths, &mut st);
    st.report("recordings");
    assert!(
        st.checkpoints > 300 && st.cells > 1_000_000,
        "too little compared"
    );
}

// ---------------------------------------------------------------------------------------------
// Random streams

/// The generator (the library's SplitMix64), drawn in `u32`s as the generator uses them.
struct Rng(SplitMix64);

impl Rng {
    fn below(&mut self, n: u32) -> u32 {
        self.0.below(n.into()) as u32
    }

    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        self.0.range(lo.into(), hi.into()) as u32
    }

    fn one_in(&mut self, n: u32) -> bool {
        self.0.chance(1, n.into())
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        self.0.pick(items)
    }

    /// An index into `weights`, chosen in proportion to them.
    fn weighted(&mut self, weights: &[u32]) -> usize {
        let mut n = self.below(weights.iter().sum());
        for (i, &w) in weights.iter().enumerate() {
            if n < w {
                return i;
            }
            n -= w;
        }
        unreachable!()
    }
}

/// Screen sizes (columns, rows) and how often each is used.
const SIZES: &[(u16, u16, u32)] = &[
    (80, 24, 6),
    (20, 5, 5),
    (10, 3, 3),
    (40, 12, 2),
    (132, 40, 1),
    (1, 1, 1),
    (2, 2, 1),
    (1, 6, 1),
    (12, 1, 1),
    (3, 2, 1),
];

/// A numeric parameter: missing, zero, small, within the screen, or large.
fn number(rng: &mut Rng, limit: u16) -> String {
    match rng.weighted(&[12, 8, 35, 35, 10]) {
        0 => String::new(),
        1 => "0".into(),
        2 => rng.range(1, 3).to_string(),
        3 => rng.range(1, limit as u32 + 2).to_string(),
        _ => rng.pick(&[100, 255, 999, 32767, 65535, 99999]).to_string(),
    }
}

fn random_char(rng: &mut Rng) -> char {
    let ranges: &[(u32, u32, u32)] = &[
        (0xa1, 0x17f, 6),      // Latin-1, Latin Extended-A
        (0x370, 0x3ff, 3),     // Greek
        (0x400, 0x4ff, 3),     // Cyrillic
        (0x2500, 0x257f, 3),   // box drawing
        (0x2190, 0x21ff, 2),   // arrows
        (0x4e00, 0x9fff, 8),   // CJK
        (0xac00, 0xd7a3, 4),   // Hangul
        (0x3040, 0x30ff, 3),   // kana
        (0xff01, 0xff60, 3),   // fullwidth forms
        (0x1f300, 0x1f64f, 6), // emoji
        (0x1f680, 0x1f6ff, 2), // transport symbols
        (0x1f900, 0x1f9ff, 2), // supplemental symbols
        (0x2600, 0x27bf, 3),   // miscellaneous symbols, dingbats (mixed widths)
        (0x300, 0x36f, 10),    // combining diacritics
        (0x20d0, 0x20f0, 2),   // combining marks for symbols
        (0xfe00, 0xfe0f, 2),   // variation selectors
        (0x200b, 0x200f, 1),   // zero width space, joiners, marks
        (0x80, 0x9f, 1),       // C1 controls
        (0x80, 0x10ffff, 4),   // anything
    ];
    let weights: Vec<u32> = ranges.iter().map(|r| r.2).collect();
    loop {
        let (lo, hi, _) = ranges[rng.weighted(&weights)];
        if let Some(c) = char::from_u32(rng.range(lo, hi)) {
            return c;
        }
    }
}

fn title_text(rng: &mut Rng) -> String {
    let len = rng.range(0, 12);
    (0..len)
        .map(|_| match rng.weighted(&[20, 2, 2, 1]) {
            0 => rng.range(0x20, 0x7e) as u8 as char,
            1 => rng.pick(&['é', '中', '✳', '🦀']),
            2 => rng.pick(&[';', '\t']),
            _ => rng.pick(&['\u{7f}', '\u{85}']),
        })
        .collect()
}

fn sgr_params(rng: &mut Rng) -> String {
    let n = if rng.one_in(30) {
        rng.range(5, 25)
    } else {
        rng.range(0, 4)
    };
    let mut parts = Vec::new();
    for _ in 0..n {
        let part = match rng.weighted(&[20, 14, 14, 6, 6, 4, 3]) {
            0 => rng
                .pick(&[
                    0, 1, 2, 3, 4, 5, 7, 8, 9, 21, 22, 23, 24, 25, 27, 28, 29, 53, 55,
                ])
                .to_string(),
            1 => (rng.pick(&[30u32, 40, 90, 100]) + rng.below(8)).to_string(),
            2 => rng.pick(&[39, 49, 0]).to_string(),
            3 => format!("{};5;{}", rng.pick(&[38, 48]), rng.below(256)),
            4 => format!(
                "{};2;{};{};{}",
                rng.pick(&[38, 48]),
                rng.below(256),
                rng.below(256),
                rng.below(256)
            ),
            5 => String::new(),
            _ => rng
                .pick(&[
                    "4:0",
                    "4:1",
                    "4:3",
                    "38:5:100",
                    "48:2::10:20:30",
                    "38:2:1:2:3",
                ])
                .into(),
        };
        parts.push(part);
    }
    parts.join(";")
}

/// Sequences both parsers treat alike, and whether tmux forgets the REP character after them.
const RAW: &[(&[u8], bool)] = &[
    (b"\x1b[2 q", true),
    (b"\x1b[>0c", true),
    (b"\x1b[5n", true),
    (b"\x1b[6n", true),
    (b"\x1b[c", true),
    (b"\x1b[>4;1m", true),
    (b"\x1b[!p", false),
    (b"\x1b[?2026$p", false),
    (b"\x1b[=1u", false),
    (b"\x1bP1$r\x1b\\", true),
    (b"\x1bPq#0;2;0;0;0#0~~\x1b\\", true),
    (b"\x1b^private\x1b\\", true),
    (b"\x1bXsos\x1b\\", true),
    (b"\x1b[12\x18", true),
    (b"\x1b[3;4\x1a", true),
    (b"\x1b]52;c;aGVsbG8=\x07", true),
    (b"\x1b]7;file://host/tmp\x1b\\", true),
    (b"\x1b%G", false),
    (b"\x1bZ", false),
    (b"\x1bn", false),
    (b"\x1b(A", false),
    (b"\x1b[5;5\x1b[H", true),
    (b"\x1b[3I", false),
];

const BAD_UTF8: &[&[u8]] = &[
    b"\x80",
    b"\xbf\xbf",
    b"\xc0\xaf",
    b"\xc3",
    b"\xe4\xb8",
    b"\xf0\x9f\x98",
    b"\xed\xa0\x80",
    b"\xe0\x80\xaf",
    b"\xf8\x88\x80\x80\x80",
    b"\xff",
];

/// The next token(s); invalid UTF-8 is followed by an ASCII character.
fn random_tokens(rng: &mut Rng, cols: u16, rows: u16) -> Vec<Tok> {
    let big = cols.max(rows);
    let tok = match rng.weighted(&[16, 10, 14, 12, 10, 8, 6, 5, 3, 2, 1, 2]) {
        0 => {
            let len = if rng.one_in(6) {
                rng.range(1, cols as u32 * 3)
            } else {
                rng.range(1, 12)
            };
            Tok::Print(
                (0..len)
                    .map(|_| rng.range(0x20, 0x7e) as u8 as char)
                    .collect(),
            )
        }
        1 if rng.one_in(8) => {
            // Combining marks piling up on one cell.
            let n = rng.range(2, 8);
            return (0..n)
                .map(|_| Tok::Print(char::from_u32(rng.range(0x300, 0x36f)).unwrap().into()))
                .collect();
        }
        1 => Tok::Print(random_char(rng).to_string()),
        2 => {
            let b = match rng.weighted(&[20, 14, 10, 10, 3, 3, 3, 2, 2, 1, 3]) {
                0 => b'\n',
                1 => b'\r',
                2 => b'\t',
                3 => 8,
                4 => 7,
                5 => 11,
                6 => 12,
                7 => 14,
                8 => 15,
                9 => 0,
                _ => rng.pick(&[1, 2, 5, 6, 0x10, 0x17, 0x18, 0x19, 0x1a, 0x1c, 0x1f, 0x7f]),
            };
            Tok::C0(b)
        }
        3 => {
            let f = rng.pick(b"ABCDEFGHf`dHGdH");
            let p = if matches!(f, b'H' | b'f') && !rng.one_in(5) {
                format!("{};{}", number(rng, rows), number(rng, cols))
            } else {
                number(rng, big)
            };
            Tok::Csi(p, f)
        }
        4 => {
            let f = rng.pick(b"JKJK@PXLMSTbbrgZIgZ");
            let p = match f {
                b'J' | b'K' => rng
                    .pick(&["", "0", "1", "2", "3", "0", "1", "2", "4"])
                    .into(),
                b'r' => match rng.below(4) {
                    0 => String::new(),
                    _ => format!("{};{}", number(rng, rows), number(rng, rows)),
                },
                b'g' => rng.pick(&["", "0", "3", "2"]).into(),
                _ => number(rng, big),
            };
            Tok::Csi(p, f)
        }
        5 => Tok::Csi(sgr_params(rng), b'm'),
        6 => {
            let modes = [1, 3, 6, 7, 12, 25, 47, 1047, 1049, 2004, 1000, 1006, 9999];
            let mut p = rng.pick(&modes).to_string();
            if rng.one_in(6) {
                write!(p, ";{}", rng.pick(&modes)).unwrap();
            }
            if rng.one_in(12) {
                Tok::Private(rng.pick(&["", "0", "1", "2"]).into(), rng.pick(b"JK"))
            } else {
                Tok::Private(p, if rng.one_in(2) { b'h' } else { b'l' })
            }
        }
        7 => Tok::Esc(
            rng.pick(&[
                "7", "8", "D", "E", "H", "M", "M", "(0", "(B", ")0", ")B", "=", ">", "\\",
            ])
            .into(),
        ),
        8 => match rng.below(7) {
            0 => Tok::Esc("c".into()),
            1 => Tok::Esc("#8".into()),
            2 => Tok::Csi(String::new(), rng.pick(b"su")),
            3 => Tok::Csi(rng.pick(&["4", "20", "4;20", "34"]).into(), rng.pick(b"hl")),
            4 => Tok::Csi(rng.pick(&["22;0", "23;0", "8;10;20"]).into(), b't'),
            5 => Tok::Rename(b"name".to_vec()),
            _ => Tok::Private("3".into(), b'h'),
        },
        9 => {
            if rng.one_in(4) {
                Tok::Apc(title_text(rng))
            } else {
                Tok::Osc(rng.pick(&[0, 1, 2, 2]), title_text(rng), rng.one_in(2))
            }
        }
        10 => {
            let ascii = (rng.range(0x21, 0x7e) as u8 as char).to_string();
            return vec![Tok::BadUtf8(rng.pick(BAD_UTF8).to_vec()), Tok::Print(ascii)];
        }
        _ => {
            let (b, r) = rng.pick(RAW);
            Tok::Raw(b.to_vec(), r)
        }
    };
    vec![tok]
}

/// Compare whole screens this often (tokens); the cursor is compared after every token.
const CHECK_EVERY: usize = 24;

/// Feeds `toks` (stopping at the first difference); `None` if some token is not allowed where
/// it lands.
fn replay(cols: u16, rows: u16, toks: &[Tok], widths: &mut Widths) -> Option<Result<(), String>> {
    let mut st = Stats::default();
    let mut run = Run::new(cols, rows);
    for (i, tok) in toks.iter().enumerate() {
        if run.blocked(tok, widths, &mut st).is_some() {
            return None;
        }
        let check = run
            .feed(tok, widths, &mut st)
            .and_then(|()| compare_cursor(&run.term, run.vt.screen(), &mut st))
            .and_then(|()| {
                if (i + 1).is_multiple_of(CHECK_EVERY) || i + 1 == toks.len() {
                    compare(&run.term, run.vt.screen(), true, &mut st)
                } else {
                    Ok(())
                }
            });
        if check.is_err() {
            return Some(check);
        }
    }
    Some(Ok(()))
}

/// Removes tokens while the streams still differ (delta debugging at token granularity).
fn shrink(cols: u16, rows: u16, mut toks: Vec<Tok>, widths: &mut Widths) -> (Vec<Tok>, String) {
    let fails = |t: &[Tok], w: &mut Widths| matches!(replay(cols, rows, t, w), Some(Err(_)));
    let mut chunk = toks.len().div_ceil(2).max(1);
    loop {
        let mut i = 0;
        let mut removed = false;
        while i < toks.len() {
            let mut candidate = toks.clone();
            candidate.drain(i..(i + chunk).min(toks.len()));
            if fails(&candidate, widths) {
                toks = candidate;
                removed = true;
            } else {
                i += chunk;
            }
        }
        if chunk == 1 && !removed {
            break;
        }
        chunk = (chunk / 2).max(1);
    }
    match replay(cols, rows, &toks, widths) {
        Some(Err(e)) => (toks, e),
        _ => unreachable!("the shrunk stream no longer fails"),
    }
}

/// `toks` as a printf(1) format string.
fn printf(toks: &[Tok]) -> String {
    let bytes: Vec<u8> = toks.iter().flat_map(Tok::bytes).collect();
    let mut s = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => s.push_str("\\\\"),
                '%' => s.push_str("%%"),
                '\'' => s.push_str("\\047"),
                c if (c as u32) < 0x20 || c == '\x7f' => write!(s, "\\{:03o}", c as u32).unwrap(),
                c => s.push(c),
            }
        }
        for b in chunk.invalid() {
            write!(s, "\\{b:03o}").unwrap();
        }
    }
    s
}

/// Generates a stream of about `len` tokens into `toks`, feeding and comparing as it goes.
fn generate(
    rng: &mut Rng,
    cols: u16,
    rows: u16,
    len: usize,
    toks: &mut Vec<Tok>,
    widths: &mut Widths,
    st: &mut Stats,
) -> Result<(), String> {
    let mut run = Run::new(cols, rows);
    let mut attempts = 0;
    while toks.len() < len && attempts < 20 * len {
        attempts += 1;
        for tok in random_tokens(rng, cols, rows) {
            if run.blocked(&tok, widths, st).is_some() {
                break;
            }
            toks.push(tok.clone());
            run.feed(&tok, widths, st)?;
            compare_cursor(&run.term, run.vt.screen(), st)?;
            if toks.len().is_multiple_of(CHECK_EVERY) {
                compare(&run.term, run.vt.screen(), true, st)?;
            }
        }
    }
    compare(&run.term, run.vt.screen(), true, st)
}

#[test]
fn random_streams_match_vt100() {
    let started = std::time::Instant::now();
    let mut st = Stats::default();
    let mut widths = Widths::default();
    let mut rng = Rng(SplitMix64(0x7a65_726f_7074_7931));
    let size_weights: Vec<u32> = SIZES.iter().map(|s| s.2).collect();
    let streams = 12_000;
    for stream in 0..streams {
        let (cols, rows, _) = SIZES[rng.weighted(&size_weights)];
        let len = rng.range(10, 160) as usize;
        let mut toks = Vec::with_capacity(len);
        st.streams += 1;
        let result = generate(&mut rng, cols, rows, len, &mut toks, &mut widths, &mut st);
        if let Err(e) = result {
            let (small, e2) = shrink(cols, rows, toks.clone(), &mut widths);
            panic!(
                "stream {stream} ({cols}x{rows}) differs after {} tokens: {e}\n\
                 shrunk to {} tokens: {e2}\n  printf '{}'\n  {small:?}",
                toks.len(),
                small.len(),
                printf(&small),
            );
        }
    }
    st.report("random streams");
    eprintln!("random streams: {:.1?}", started.elapsed());
    let unused: Vec<_> = KNOWN_DIFFERENCES
        .iter()
        .filter(|(name, _)| !st.known.contains_key(name))
        .map(|(name, _)| name)
        .collect();
    assert!(unused.is_empty(), "known differences never met: {unused:?}");
    assert!(st.streams >= 12_000 && st.tokens > 800_000 && st.cells > 20_000_000);
}
