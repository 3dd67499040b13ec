//! One line of the grid, expanded for writing or packed for keeping.
//!
//! A row mirrors a tmux grid line: `used` is tmux's `cellused` (how far capture prints) and
//! `size` its `cellsize` (how far the line was allocated, which decides a few erase and write
//! corner cases). The cells themselves are stored only up to the last cell that differs from a
//! blank default cell; anything past the stored cells reads as [`Cell::BLANK`].
//!
//! A row is either expanded (a `Vec<Cell>`, cheap to write) or packed into bytes (cheap to
//! keep): runs of ASCII cells in one style take one byte per cell, runs of equal cells are
//! stored once, anything else is stored as raw 6-byte cells. The screen packs every row a write
//! touched when the write ends.
//!
//! Packed form: a varint count of cells, then segments. A segment starts with one byte holding
//! its kind in the top two bits and its length below (63 means a varint with the rest of the
//! length follows): `ASCII style text[n]`, `REPEAT word style`, `RAW cell[n]`, where style and
//! word are varints and raw cells are 6 bytes (word and style, little endian). Most segments
//! cost two bytes of framing; agent screens pack at about two bytes a used cell.
//!
//! A packed row being written is expanded beside its packed bytes, and a write that leaves a
//! cell as it was changes nothing: rewriting a line with the same text (what agent TUIs do on
//! every frame for most of their live region) neither expands it nor packs it again. Measured
//! on the Claude Code trace, packing and expanding were a third of the parser's time before.
//!
//! A row is expanded only up to where its writes start: the rest of its cells stay in the
//! packed bytes as its *tail*, read from there, and are decoded only when a write skips past
//! them or the row is packed with them. A line redrawn from its start and ended by an erase
//! (`ESC [K`), as agent TUIs redraw their live region, decodes none of the cells it replaces:
//! `redraw`'s frames take 1.13x fewer instructions (BENCHMARKS.md, "Parse cost"). Since a
//! write looks at the cells around it for halves of wide characters it cuts, and in a tail
//! each look walks the segments, a row knows when it holds no wide character (`narrow`, kept
//! by every write and found again by every pack and thaw) and is then spared the looks.
//!
//! A frozen terminal keeps no `Row`s at all: [`Row::freeze_into`] appends a row to the
//! terminal's chunk as a flags byte (wrapped, stores cells, how `size` and `used` are given),
//! the counts the flags cannot give, and the packed bytes unchanged: a blank row costs one byte
//! and a row with cells its packed bytes and one more (a few more for unusual counts), instead
//! of a 32-byte header and an allocation of its own. [`Row::thaw`] gives the row back packed.
//!
//! Invariants: a packed row never holds trailing blank cells; decoding a packed row yields
//! exactly the cells that were packed; while a row is expanded its cells, followed by the
//! packed cells past them when it has a tail, are the truth, and `changed` says whether they
//! still equal the packed bytes; a narrow row holds no wide or padding cell.

use std::ops::Range;

use super::cell::{Cell, StyleId};

/// The cells of a row open for writing.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Expanded {
    cells: Vec<Cell>,
    /// The cells differ from the packed bytes.
    changed: bool,
    /// The row goes on past `cells` with the packed bytes' cells from `cells.len()`: only the
    /// cells up to where writes start are decoded, so a line redrawn from its start and ended
    /// by an erase decodes nothing it replaces.
    tail: bool,
    /// A segment of the packed bytes at or before `cells.len()`, where walks over the tail
    /// start: decoding it piece by piece walks its segments once.
    tail_pos: SegmentPos,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    packed: Box<[u8]>,
    expanded: Option<Box<Expanded>>,
    /// tmux's `cellused`: cells at or past this are not printed by capture.
    pub used: u16,
    /// tmux's `cellsize`: how far the line has been extended.
    pub size: u16,
    /// The line continues on the next one (it was wrapped, not ended by a newline).
    pub wrapped: bool,
    /// No stored cell is wide or padding (false: not known). A write checks the cells around
    /// it for the halves of wide characters it cuts, which for a row whose tail is packed
    /// means walking its segments: a narrow row needs no look.
    narrow: bool,
}

impl Default for Row {
    fn default() -> Self {
        Row::new()
    }
}

// A frozen row is a flags byte, then `size` as a varint when no size code fits, then `used`
// as a varint when it is neither the stored cell count nor `size`, then the packed bytes when
// the row stores cells (they delimit themselves: a cell count, then segments covering it). A
// blank row is the single byte 0.
const FROZEN_WRAPPED: u8 = 1;
const FROZEN_CELLS: u8 = 2;
const SIZE_SHIFT: u8 = 2;
const SIZE_MASK: u8 = 7;
/// The sizes tmux's rounding gives lines (none, a quarter, half or all of the width), which
/// on the agent traces are every row's size; code `SIZE_CODES.len()` means a varint follows.
const SIZE_CODES: [fn(u32) -> usize; 4] = [
    |_| 0,
    |sx| sx as usize / 4,
    |sx| sx as usize / 2,
    |sx| sx as usize,
];
const USED_SHIFT: u8 = 5;
const USED_MASK: u8 = 3;
const USED_CELLS: u8 = 0;
const USED_SIZE: u8 = 1;
const USED_OTHER: u8 = 2;

const OP_ASCII: u8 = 0;
const OP_REPEAT: u8 = 1;
const OP_RAW: u8 = 2;

/// A run of equal ASCII cells shorter than this stays in an ASCII run (1 byte a cell) rather
/// than becoming a repeat op (1 + varint + 6 bytes).
const MIN_ASCII_REPEAT: usize = 9;

/// The flags and counts in front of a frozen row's packed bytes.
struct FrozenHead {
    flags: u8,
    size: usize,
    /// `None` when `used` is the stored cell count (read from the packed bytes).
    used: Option<usize>,
}

impl FrozenHead {
    fn read(bytes: &[u8], at: &mut usize, sx: u32) -> FrozenHead {
        let flags = bytes[*at];
        *at += 1;
        let size = match SIZE_CODES.get(((flags >> SIZE_SHIFT) & SIZE_MASK) as usize) {
            Some(f) => f(sx),
            None => get_varint(bytes, at),
        };
        let used = match (flags >> USED_SHIFT) & USED_MASK {
            USED_CELLS => None,
            USED_SIZE => Some(size),
            _ => Some(get_varint(bytes, at)),
        };
        FrozenHead { flags, size, used }
    }
}

impl Row {
    pub fn new() -> Row {
        Row {
            packed: Box::new([]),
            expanded: None,
            used: 0,
            size: 0,
            wrapped: false,
            narrow: true,
        }
    }

    pub fn is_packed(&self) -> bool {
        self.expanded.is_none()
    }

    /// No stored cell is wide or padding (false when that is not known).
    pub fn is_narrow(&self) -> bool {
        self.narrow
    }

    /// Number of stored cells (cells past this are blank).
    pub fn stored_len(&self) -> usize {
        match &self.expanded {
            Some(e) if e.tail => e.cells.len().max(packed_len(&self.packed)),
            Some(e) => e.cells.len(),
            None => packed_len(&self.packed),
        }
    }

    /// Where the packed bytes start to hold the row's cells (0 when the row is packed, the
    /// end of the decoded cells while its tail is packed, none once it is all decoded), and a
    /// segment at or before it to walk from.
    fn packed_from(&self) -> Option<(usize, SegmentPos)> {
        match &self.expanded {
            None => Some((0, SegmentPos::START)),
            Some(e) => e.tail.then_some((e.cells.len(), e.tail_pos)),
        }
    }

    /// The cell at `x` (blank past the stored cells).
    pub fn get(&self, x: usize) -> Cell {
        if let Some(c) = self.expanded.as_ref().and_then(|e| e.cells.get(x)) {
            return *c;
        }
        match self.packed_from() {
            Some((_, start)) => packed_cell(&self.packed, start, x),
            None => Cell::BLANK,
        }
    }

    /// Appends the stored cells to `out`.
    pub fn read_into(&self, out: &mut Vec<Cell>) {
        if let Some(e) = &self.expanded {
            out.extend_from_slice(&e.cells);
        }
        if let Some((from, start)) = self.packed_from() {
            append_packed(&self.packed, start, from, usize::MAX, out);
        }
    }

    /// Opens the row for writing with its cells decoded at least up to `x` (all of them when
    /// it stores no more): the rest stay in the packed bytes as its tail. A row opened here
    /// has room for `room` cells.
    fn expand_to(&mut self, x: usize, room: usize) -> &mut Expanded {
        let (packed, total) = (&self.packed, packed_len(&self.packed));
        let e = self
            .expanded
            .get_or_insert_with(|| opened(room, false, true));
        if e.tail {
            let have = e.cells.len();
            if x >= total {
                append_packed(packed, e.tail_pos, have, total, &mut e.cells);
                e.tail = false;
            } else if x > have {
                e.tail_pos = append_packed(packed, e.tail_pos, have, x, &mut e.cells);
            }
        }
        e
    }

    /// The stored cells for arbitrary editing (the row counts as changed).
    pub fn cells_mut(&mut self) -> &mut Vec<Cell> {
        self.narrow = false;
        let total = packed_len(&self.packed);
        let e = self.expand_to(usize::MAX, total);
        e.changed = true;
        &mut e.cells
    }

    /// Whether the cells from `x` already equal `want` (cells past the stored ones are blank).
    fn holds(&self, x: usize, want: impl Iterator<Item = Cell>) -> bool {
        match &self.expanded {
            Some(_) => want.enumerate().all(|(i, c)| self.get(x + i) == c),
            None => {
                let mut want = want.peekable();
                let mut at = 0;
                let mut x = x;
                for seg in Segments::new(&self.packed) {
                    let n = seg.len();
                    while x < at + n {
                        match want.next() {
                            None => return true,
                            Some(c) if c != seg.cell(x - at) => return false,
                            Some(_) => x += 1,
                        }
                    }
                    at += n;
                }
                want.all(|c| c == Cell::BLANK)
            }
        }
    }

    /// Writes `cells` from `x`, unless they are there already (a row already changed is
    /// written without looking: the look only spares a row its expansion and packing).
    pub fn write(&mut self, x: usize, cells: impl ExactSizeIterator<Item = Cell> + Clone) {
        let changed = self.expanded.as_ref().is_some_and(|e| e.changed);
        if !changed && self.holds(x, cells.clone()) {
            return;
        }
        if self.narrow && cells.clone().any(|c| c.width() != 1) {
            self.narrow = false;
        }
        // The grid has extended the line to tmux's rounded size (a quarter, half or all of the
        // width) before writing: growing the cells to it at once, not in doublings, took a
        // line of coloured text from about six reallocations to two or three.
        let size = self.size as usize;
        let packed_len = packed_len(&self.packed);
        let end = x + cells.len();
        let e = self.expand_to(x, end.max(size));
        e.changed = true;
        let v = &mut e.cells;
        if v.capacity() < end {
            v.reserve_exact(end.max(size) - v.len());
        }
        if v.len() <= x {
            // Past the stored cells, as on a line just begun: appended in one pass.
            v.resize(x, Cell::BLANK);
            v.extend(cells);
        } else {
            if v.len() < end {
                v.resize(end, Cell::BLANK);
            }
            for (slot, c) in v[x..end].iter_mut().zip(cells) {
                *slot = c;
            }
        }
        // Written past the packed cells: none of them is left to follow.
        if v.len() >= packed_len {
            e.tail = false;
        }
    }

    /// Makes every cell from `x` blank (in the default style), as writing default blanks over
    /// the rest of the stored cells would.
    pub fn truncate(&mut self, x: usize) {
        if x < self.stored_len() {
            let e = self.expand_to(x, x);
            e.cells.truncate(x);
            e.tail = false;
            e.changed = true;
        }
    }

    /// Sets the cell at `x`.
    #[inline]
    pub fn set(&mut self, x: usize, cell: Cell) {
        self.write(x, std::iter::once(cell));
    }

    /// Forgets every cell (the row reads as blank) and resets the counters. The packed bytes
    /// stay as the reference the next pack compares with: a line cleared and drawn again the
    /// same way is not encoded again.
    pub fn clear(&mut self) {
        if self.packed.is_empty() {
            *self = Row::new();
            return;
        }
        match &mut self.expanded {
            Some(e) => {
                e.cells.clear();
                e.changed = true;
                e.tail = false;
            }
            None => self.expanded = Some(opened(0, true, false)),
        }
        self.used = 0;
        self.size = 0;
        self.wrapped = false;
        self.narrow = true;
    }

    /// Packs the row into its compact byte form, using `scratch` as working space. A row whose
    /// cells did not change keeps its packed bytes without encoding them again.
    pub fn pack(&mut self, scratch: &mut Vec<u8>) {
        let Some(mut e) = self.expanded.take() else {
            return;
        };
        if !e.changed {
            return;
        }
        if e.tail {
            let from = e.cells.len();
            append_packed(&self.packed, e.tail_pos, from, usize::MAX, &mut e.cells);
        }
        let cells = without_trailing_blanks(&e.cells);
        if packed_len(&self.packed) == cells.len() && self.packed_holds(cells) {
            return;
        }
        scratch.clear();
        self.narrow = encode(cells, scratch);
        if self.packed.len() == scratch.len() {
            // A line redrawn with other text of the same length keeps its allocation.
            self.packed.copy_from_slice(scratch);
        } else {
            self.packed = scratch.as_slice().into();
        }
    }

    /// The row's cells in packed form without changing the row: its packed bytes, or the
    /// changed cells encoded into `scratch`.
    fn packed_now<'a>(&'a self, scratch: &'a mut Vec<u8>) -> &'a [u8] {
        match &self.expanded {
            Some(e) if e.changed => {
                let mut joined = Vec::new();
                let cells = if e.tail {
                    self.read_into(&mut joined);
                    &joined
                } else {
                    &e.cells
                };
                scratch.clear();
                encode(without_trailing_blanks(cells), scratch);
                scratch
            }
            _ => &self.packed,
        }
    }

    /// About how many bytes [`Row::freeze_into`] appends (exactly, for a packed row with usual
    /// counts; a row being written may pack to more or fewer).
    pub fn frozen_len_hint(&self) -> usize {
        1 + self.packed.len()
    }

    /// Appends the row's frozen form to `out` (described beside `FROZEN_WRAPPED`); `sx` is the
    /// width of the grid holding the row, against which `size` is encoded. The row is unchanged.
    pub fn freeze_into(&self, sx: u32, out: &mut Vec<u8>, scratch: &mut Vec<u8>) {
        let packed = self.packed_now(scratch);
        let cells = packed_len(packed);
        let (size, used) = (self.size as usize, self.used as usize);
        let size_code = SIZE_CODES
            .iter()
            .position(|f| f(sx) == size)
            .unwrap_or(SIZE_CODES.len());
        let used_code = if used == cells {
            USED_CELLS
        } else if used == size {
            USED_SIZE
        } else {
            USED_OTHER
        };
        let mut flags = (size_code as u8) << SIZE_SHIFT | used_code << USED_SHIFT;
        if self.wrapped {
            flags |= FROZEN_WRAPPED;
        }
        if cells > 0 {
            flags |= FROZEN_CELLS;
        }
        out.push(flags);
        if size_code == SIZE_CODES.len() {
            put_varint(out, size);
        }
        if used_code == USED_OTHER {
            put_varint(out, used);
        }
        if cells > 0 {
            out.extend_from_slice(packed);
        }
    }

    /// Reads a row written by [`Row::freeze_into`] from `bytes` at `at` (packed, as written).
    pub fn thaw(bytes: &[u8], at: &mut usize, sx: u32) -> Row {
        let head = FrozenHead::read(bytes, at, sx);
        let mut narrow = true;
        let packed: Box<[u8]> = if head.flags & FROZEN_CELLS != 0 {
            let start = *at;
            *at += packed_extent(&bytes[start..], |seg| narrow &= seg.is_narrow());
            bytes[start..*at].into()
        } else {
            Box::new([])
        };
        let used = head.used.unwrap_or_else(|| packed_len(&packed));
        Row {
            packed,
            expanded: None,
            used: used as u16,
            size: head.size as u16,
            wrapped: head.flags & FROZEN_WRAPPED != 0,
            narrow,
        }
    }

    /// Moves `at` past a row written by [`Row::freeze_into`] without reading its cells.
    pub fn skip_frozen(bytes: &[u8], at: &mut usize) {
        let head = FrozenHead::read(bytes, at, 0);
        if head.flags & FROZEN_CELLS != 0 {
            *at += packed_extent(&bytes[*at..], |_| {});
        }
    }

    /// Whether the packed bytes hold exactly `cells` (lengths already known equal).
    fn packed_holds(&self, cells: &[Cell]) -> bool {
        let mut at = 0;
        for seg in Segments::new(&self.packed) {
            let n = seg.len();
            let same = match seg {
                Segment::Repeat(c, _) => cells[at..at + n].iter().all(|x| *x == c),
                Segment::Ascii(style, text) => cells[at..at + n]
                    .iter()
                    .zip(text)
                    .all(|(x, &b)| *x == Cell::new(b as u32, style)),
                Segment::Raw(_) => (0..n).all(|k| cells[at + k] == seg.cell(k)),
            };
            if !same {
                return false;
            }
            at += n;
        }
        true
    }

    /// Heap bytes held by the row, spare capacity included.
    pub fn heap_bytes(&self) -> usize {
        self.packed.len()
            + self.expanded.as_ref().map_or(0, |e| {
                std::mem::size_of::<Expanded>() + e.cells.capacity() * std::mem::size_of::<Cell>()
            })
    }

    /// Rewrites every stored cell with `f` (used when the palette or grapheme table compacts).
    pub fn map_cells(&mut self, f: impl Fn(Cell) -> Cell) {
        let was_packed = self.is_packed();
        for c in self.cells_mut().iter_mut() {
            *c = f(*c);
        }
        if was_packed {
            self.pack(&mut Vec::new());
        }
    }

    /// Whether any stored cell in `x..x + n` satisfies `f`, without expanding the row.
    pub fn any_in(&self, x: usize, n: usize, f: impl Fn(Cell) -> bool) -> bool {
        let end = x + n;
        if let Some(e) = &self.expanded {
            let stop = end.min(e.cells.len());
            if e.cells
                .get(x..stop)
                .is_some_and(|c| c.iter().any(|&c| f(c)))
            {
                return true;
            }
        }
        let Some((from, start)) = self.packed_from() else {
            return false;
        };
        let mut found = false;
        for_packed(&self.packed, start, x.max(from), end, |seg, range| {
            found = match seg {
                // One cell, however long the run (a rule across the screen).
                Segment::Repeat(c, _) => f(*c),
                _ => range.clone().any(|k| f(seg.cell(k))),
            };
            !found
        });
        found
    }

    /// Calls `f` with cells that together name every style and grapheme the row's cells name
    /// (see [`Row::frozen_names`]), without expanding the row.
    pub fn for_each_name(&self, mut f: impl FnMut(Cell)) {
        if let Some(e) = &self.expanded {
            e.cells.iter().for_each(|c| f(*c));
        }
        if let Some((from, start)) = self.packed_from() {
            for_packed(&self.packed, start, from, usize::MAX, |seg, range| {
                seg.name_cells(range, &mut f);
                true
            });
        }
    }

    /// Calls `f` with cells that together name every style and grapheme the cells of the row
    /// [`Row::freeze_into`] wrote at `at` in `bytes` name, and moves `at` past the row. A run
    /// of ASCII text names one style and no grapheme, so it takes one call whatever its length:
    /// what a screen's tables still need is found without decoding its frozen history.
    pub fn frozen_names(bytes: &[u8], at: &mut usize, f: &mut impl FnMut(Cell)) {
        let head = FrozenHead::read(bytes, at, 0);
        if head.flags & FROZEN_CELLS != 0 {
            *at += packed_extent(&bytes[*at..], |seg| seg.name_cells(0..seg.len(), f));
        }
    }

    /// Calls `f` for each stored cell without expanding the row.
    pub fn for_each(&self, mut f: impl FnMut(Cell)) {
        if let Some(e) = &self.expanded {
            e.cells.iter().for_each(|c| f(*c));
        }
        if let Some((from, start)) = self.packed_from() {
            for_packed(&self.packed, start, from, usize::MAX, |seg, range| {
                range.for_each(|k| f(seg.cell(k)));
                true
            });
        }
    }
}

pub(super) fn put_varint(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

pub(super) fn get_varint(bytes: &[u8], at: &mut usize) -> usize {
    let mut n = 0usize;
    let mut shift = 0;
    while let Some(&b) = bytes.get(*at) {
        *at += 1;
        n |= ((b & 0x7f) as usize) << shift;
        if b & 0x80 == 0 {
            break;
        }
        shift += 7;
    }
    n
}

fn put_cell(out: &mut Vec<u8>, c: Cell) {
    let (raw, style_low) = c.raw();
    out.extend_from_slice(&raw.to_le_bytes());
    out.extend_from_slice(&style_low.to_le_bytes());
}

fn get_cell(bytes: &[u8], at: usize) -> Cell {
    let raw = u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let style_low = u16::from_le_bytes([bytes[at + 4], bytes[at + 5]]);
    Cell::from_raw(raw, style_low)
}

fn put_header(out: &mut Vec<u8>, op: u8, len: usize) {
    if len < 63 {
        out.push(op << 6 | len as u8);
    } else {
        out.push(op << 6 | 63);
        put_varint(out, len - 63);
    }
}

fn get_header(bytes: &[u8], at: &mut usize) -> (u8, usize) {
    let b = bytes[*at];
    *at += 1;
    let len = (b & 63) as usize;
    let len = if len == 63 {
        63 + get_varint(bytes, at)
    } else {
        len
    };
    (b >> 6, len)
}

fn run_length(cells: &[Cell]) -> usize {
    let first = cells[0];
    cells.iter().take_while(|c| **c == first).count()
}

/// Packs `cells` into `out`; returns whether they are all narrow (see `Row::narrow`).
fn encode(cells: &[Cell], out: &mut Vec<u8>) -> bool {
    put_varint(out, cells.len());
    let mut narrow = true;
    let mut i = 0;
    while i < cells.len() {
        let rest = &cells[i..];
        i += if rest[0].ascii().is_some() {
            put_ascii(rest, out)
        } else if rest.get(1) == Some(&rest[0]) {
            narrow &= rest[0].width() == 1;
            put_repeat(rest, out)
        } else {
            let n = put_raw(rest, out);
            narrow &= rest[..n].iter().all(|c| c.width() == 1);
            n
        };
    }
    narrow
}

/// Writes the ASCII segment at the start of `cells` (one style throughout), or the run of one
/// cell starting there when it is long enough to be a repeat; returns how many cells it took.
fn put_ascii(cells: &[Cell], out: &mut Vec<u8>) -> usize {
    let style = cells[0].style();
    let end = ascii_segment(cells, style);
    if end == 0 {
        return put_repeat(cells, out);
    }
    put_header(out, OP_ASCII, end);
    put_varint(out, style as usize);
    out.extend(cells[..end].iter().map(|c| c.raw().0 as u8));
    end
}

/// The length of the ASCII segment in `style` at the start of `cells`: up to the first cell
/// that is not ASCII in that style, or to where a run of [`MIN_ASCII_REPEAT`] equal cells
/// starts. Cells of one style are equal when their characters are, so the run is counted on
/// the bytes; a cell is tested with one comparison of each of its halves
/// ([`Cell::ascii_in`]): this loop and the one copying the bytes were most of the time spent
/// packing rows (callgrind on `redraw`'s frames: 3,000 instructions a row).
fn ascii_segment(cells: &[Cell], style: StyleId) -> usize {
    let (mut run, mut prev) = (0, u8::MAX);
    for (j, c) in cells.iter().enumerate() {
        let Some(b) = c.ascii_in(style) else {
            return j;
        };
        run = if b == prev { run + 1 } else { 1 };
        prev = b;
        if run == MIN_ASCII_REPEAT {
            return j + 1 - MIN_ASCII_REPEAT;
        }
    }
    cells.len()
}

/// Writes the raw cells at the start of `cells`: up to an ASCII cell or a run of one cell.
fn put_raw(cells: &[Cell], out: &mut Vec<u8>) -> usize {
    let mut j = 1;
    while j < cells.len() && cells[j].ascii().is_none() && cells.get(j + 1) != Some(&cells[j]) {
        j += 1;
    }
    put_header(out, OP_RAW, j);
    for c in &cells[..j] {
        put_cell(out, *c);
    }
    j
}

/// Writes the run of equal cells at the start of `cells`; returns its length.
fn put_repeat(cells: &[Cell], out: &mut Vec<u8>) -> usize {
    let run = run_length(cells);
    put_header(out, OP_REPEAT, run);
    put_varint(out, cells[0].word() as usize);
    put_varint(out, cells[0].style() as usize);
    run
}

fn packed_len(bytes: &[u8]) -> usize {
    get_varint(bytes, &mut 0)
}

/// How many bytes the packed row at the start of `bytes` takes: its segments up to its count,
/// each passed to `visit`.
fn packed_extent(bytes: &[u8], mut visit: impl FnMut(&Segment)) -> usize {
    let mut left = packed_len(bytes);
    let mut segments = Segments::new(bytes);
    while left > 0 {
        match segments.next() {
            Some(seg) => {
                visit(&seg);
                left = left.saturating_sub(seg.len());
            }
            None => break,
        }
    }
    segments.at
}

fn without_trailing_blanks(cells: &[Cell]) -> &[Cell] {
    let end = cells
        .iter()
        .rposition(|c| *c != Cell::BLANK)
        .map_or(0, |i| i + 1);
    &cells[..end]
}

/// One segment of a packed row.
enum Segment<'a> {
    Ascii(StyleId, &'a [u8]),
    Repeat(Cell, usize),
    Raw(&'a [u8]),
}

impl Segment<'_> {
    fn len(&self) -> usize {
        match self {
            Segment::Ascii(_, text) => text.len(),
            Segment::Repeat(_, n) => *n,
            Segment::Raw(raw) => raw.len() / 6,
        }
    }

    fn cell(&self, k: usize) -> Cell {
        match self {
            Segment::Ascii(style, text) => Cell::new(text[k] as u32, *style),
            Segment::Repeat(c, _) => *c,
            Segment::Raw(raw) => get_cell(raw, 6 * k),
        }
    }

    /// No cell of the segment is wide or padding.
    fn is_narrow(&self) -> bool {
        match self {
            Segment::Ascii(..) => true,
            Segment::Repeat(c, _) => c.width() == 1,
            Segment::Raw(_) => (0..self.len()).all(|k| self.cell(k).width() == 1),
        }
    }

    /// Appends the segment's cells in `range` (of its own cells) to `out`.
    fn append_to(&self, range: Range<usize>, out: &mut Vec<Cell>) {
        match self {
            Segment::Ascii(style, text) => {
                out.extend(text[range].iter().map(|&b| Cell::new(b as u32, *style)))
            }
            Segment::Repeat(c, _) => out.resize(out.len() + range.len(), *c),
            Segment::Raw(raw) => out.extend(
                raw[6 * range.start..6 * range.end]
                    .chunks_exact(6)
                    .map(|c| get_cell(c, 0)),
            ),
        }
    }

    /// Calls `f` with cells that together name every style and grapheme the segment's cells
    /// in `range` name (what [`Row::for_each_name`] is called with).
    fn name_cells(&self, range: Range<usize>, f: &mut impl FnMut(Cell)) {
        match self {
            Segment::Ascii(style, _) => f(Cell::new(b' ' as u32, *style)),
            Segment::Repeat(c, _) => f(*c),
            Segment::Raw(_) => range.for_each(|k| f(self.cell(k))),
        }
    }
}

/// An expanded row with no cells and room for `room`.
fn opened(room: usize, changed: bool, tail: bool) -> Box<Expanded> {
    Box::new(Expanded {
        cells: Vec::with_capacity(room),
        changed,
        tail,
        tail_pos: SegmentPos::START,
    })
}

/// A place in a packed row's segments: the byte where a segment starts and the index of its
/// first cell; [`SegmentPos::START`] is the first segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SegmentPos {
    byte: usize,
    cell: usize,
}

impl SegmentPos {
    const START: SegmentPos = SegmentPos { byte: 0, cell: 0 };
}

/// Calls `visit` with each segment of the packed row `packed` holding cells in `from..to`
/// and the range of its own cells that fall there, in order, while `visit` returns true;
/// walks from `start`, a segment at or before `from`. Returns the last segment it reached
/// that starts at or before `to`, where a later walk from there may start.
fn for_packed(
    packed: &[u8],
    start: SegmentPos,
    from: usize,
    to: usize,
    mut visit: impl FnMut(&Segment, Range<usize>) -> bool,
) -> SegmentPos {
    if from >= to {
        return start;
    }
    let mut segments = Segments::new(packed);
    if start.byte != 0 {
        segments.at = start.byte;
    }
    let mut at = start.cell;
    loop {
        let here = SegmentPos {
            byte: segments.at,
            cell: at,
        };
        let Some(seg) = segments.next() else {
            return here;
        };
        let len = seg.len();
        if at + len > from {
            let range = from.saturating_sub(at)..(to - at).min(len);
            if range.is_empty() || !visit(&seg, range) {
                return here;
            }
        }
        if at + len > to {
            return here;
        }
        at += len;
        if at == to {
            return SegmentPos {
                byte: segments.at,
                cell: at,
            };
        }
    }
}

/// Appends the packed row's cells in `from..to` (as far as it stores them) to `out`, walking
/// from `start` (see [`for_packed`], whose result it returns).
fn append_packed(
    packed: &[u8],
    start: SegmentPos,
    from: usize,
    to: usize,
    out: &mut Vec<Cell>,
) -> SegmentPos {
    for_packed(packed, start, from, to, |seg, range| {
        seg.append_to(range, out);
        true
    })
}

/// The packed row's cell at `x` (blank past its cells), walking from `start`.
fn packed_cell(packed: &[u8], start: SegmentPos, x: usize) -> Cell {
    let mut cell = Cell::BLANK;
    for_packed(packed, start, x, x + 1, |seg, range| {
        cell = seg.cell(range.start);
        false
    });
    cell
}

/// The segments of a packed row, in order.
struct Segments<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Segments<'a> {
    fn new(bytes: &'a [u8]) -> Segments<'a> {
        let mut at = 0;
        get_varint(bytes, &mut at);
        Segments { bytes, at }
    }
}

impl<'a> Iterator for Segments<'a> {
    type Item = Segment<'a>;

    fn next(&mut self) -> Option<Segment<'a>> {
        let b = self.bytes;
        if self.at >= b.len() {
            return None;
        }
        let (op, count) = get_header(b, &mut self.at);
        Some(match op {
            OP_ASCII => {
                let style = get_varint(b, &mut self.at) as StyleId;
                let at = self.at;
                self.at += count;
                Segment::Ascii(style, &b[at..at + count])
            }
            OP_REPEAT => {
                let word = get_varint(b, &mut self.at) as u32;
                let style = get_varint(b, &mut self.at) as StyleId;
                Segment::Repeat(Cell::new(word, style), count)
            }
            _ => {
                let at = self.at;
                self.at += 6 * count;
                Segment::Raw(&b[at..at + 6 * count])
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    fn row_of(cells: &[Cell]) -> Row {
        let mut r = Row::new();
        for (x, c) in cells.iter().enumerate() {
            r.set(x, *c);
        }
        r
    }

    fn cells(r: &Row) -> Vec<Cell> {
        let mut v = Vec::new();
        r.read_into(&mut v);
        v
    }

    #[test]
    fn packing_round_trips_mixed_content() {
        let mut src: Vec<Cell> = "hello, world"
            .bytes()
            .map(|b| Cell::new(b as u32, 3))
            .collect();
        src.extend(std::iter::repeat_n(Cell::new(0x2500, 5), 200));
        src.push(Cell::new(0xAC00 | Cell::WIDE, 0));
        src.push(Cell::PAD);
        src.extend(std::iter::repeat_n(Cell::new(b'-' as u32, 0), 30));
        src.push(Cell::new(b'x' as u32, 9));
        let mut r = row_of(&src);
        r.pack(&mut Vec::new());
        assert!(r.is_packed());
        assert_eq!(cells(&r), src);
        for (x, c) in src.iter().enumerate() {
            assert_eq!(r.get(x), *c);
        }
        assert!(r.heap_bytes() < 80, "packed into {} bytes", r.heap_bytes());
    }

    #[test]
    fn any_in_sees_the_same_cells_packed_or_expanded() {
        let mut src: Vec<Cell> = "ab".bytes().map(|b| Cell::new(b as u32, 0)).collect();
        src.extend(std::iter::repeat_n(Cell::new(0x2500, 5), 20));
        src.push(Cell::new(0x4E2D | Cell::WIDE, 0));
        src.push(Cell::PAD);
        src.push(Cell::new(b'c' as u32, 0));
        let expanded = row_of(&src);
        let mut packed = expanded.clone();
        packed.pack(&mut Vec::new());
        assert!(packed.is_packed());
        for r in [&expanded, &packed] {
            for x in 0..src.len() + 2 {
                for n in 0..src.len() + 2 - x {
                    let want = src.iter().skip(x).take(n).any(|c| c.is_padding());
                    assert_eq!(r.any_in(x, n, Cell::is_padding), want, "{x}+{n}");
                }
            }
        }
    }

    #[test]
    fn packing_drops_trailing_blanks_only() {
        let mut r = row_of(&[Cell::BLANK, Cell::new(b'a' as u32, 0), Cell::BLANK]);
        r.pack(&mut Vec::new());
        assert_eq!(cells(&r), vec![Cell::BLANK, Cell::new(b'a' as u32, 0)]);
        assert_eq!(r.get(5), Cell::BLANK);
    }

    #[test]
    fn ascii_text_costs_about_a_byte_a_cell() {
        let text = "The quick brown fox jumps over the lazy dog; 0123456789 and more text.";
        let src: Vec<Cell> = text.bytes().map(|b| Cell::new(b as u32, 1)).collect();
        let mut r = row_of(&src);
        r.pack(&mut Vec::new());
        assert!(r.heap_bytes() <= text.len() + 5);
        assert_eq!(cells(&r), src);
    }

    #[test]
    fn frozen_rows_come_back_with_their_counts_and_cells() {
        let sx = 40;
        let text: Vec<Cell> = "abc \u{4e2d}"
            .chars()
            .map(|c| Cell::new(c as u32, 2))
            .chain([Cell::PAD, Cell::BLANK])
            .collect();
        let packed = |mut r: Row| {
            r.pack(&mut Vec::new());
            r
        };
        let mut unchanged = packed(row_of(&text));
        unchanged.expand_to(usize::MAX, 0);
        let mut cleared = packed(row_of(&text));
        cleared.clear();
        let bodies = [
            Row::new(),
            packed(row_of(&text)),
            row_of(&text),
            unchanged,
            cleared,
        ];
        let mut rows = Vec::new();
        for body in bodies {
            for size in [0, sx / 4, sx / 2, sx, 7, 300] {
                for used in [0, 3, 6, size] {
                    for wrapped in [false, true] {
                        let mut r = body.clone();
                        (r.used, r.size, r.wrapped) = (used as u16, size as u16, wrapped);
                        rows.push(r);
                    }
                }
            }
        }
        let (mut out, mut scratch) = (Vec::new(), Vec::new());
        rows.iter()
            .for_each(|r| r.freeze_into(sx, &mut out, &mut scratch));
        let mut at = 0;
        for r in &rows {
            let back = Row::thaw(&out, &mut at, sx);
            assert!(back.is_packed());
            assert_eq!(
                (back.used, back.size, back.wrapped),
                (r.used, r.size, r.wrapped)
            );
            let mut want = cells(r);
            while want.last() == Some(&Cell::BLANK) {
                want.pop();
            }
            assert_eq!(cells(&back), want);
        }
        assert_eq!(at, out.len());
    }

    #[test]
    fn a_blank_row_freezes_into_one_byte() {
        let mut out = Vec::new();
        Row::new().freeze_into(80, &mut out, &mut Vec::new());
        assert_eq!(out, [0]);
    }

    #[test]
    fn truncating_ends_the_row_and_leaves_a_row_ending_there_packed() {
        let text: Vec<Cell> = "abc".bytes().map(|b| Cell::new(b as u32, 4)).collect();
        let mut r = row_of(&text);
        r.pack(&mut Vec::new());
        r.truncate(3);
        r.truncate(10);
        assert!(r.is_packed(), "nothing stored from there");
        r.truncate(1);
        assert_eq!(cells(&r), text[..1]);
        assert_eq!(r.get(2), Cell::BLANK);
        r.pack(&mut Vec::new());
        assert_eq!(cells(&r), text[..1]);
    }

    /// A random cell from a small set: ASCII in two styles, a narrow non-ASCII character, the
    /// halves of a wide one and the blank, so runs, repeats and raw segments all occur.
    fn random_cell(rng: &mut SplitMix64) -> Cell {
        match rng.below(6) {
            0 => Cell::new(0x2500, 5),
            1 => Cell::new(0x4E2D | Cell::WIDE, 0),
            2 => Cell::PAD,
            3 => Cell::BLANK,
            _ => Cell::new(
                rng.range(b'a' as u64, b'c' as u64) as u32,
                rng.below(2) as u32,
            ),
        }
    }

    /// Every way of changing a row, at random, on a row and on a plain vector of its cells,
    /// which must agree after each step however much of the row is decoded (writes from the
    /// start of a packed line, past its cells, into its packed tail; erases; packing;
    /// freezing), and a row that says it is narrow holds no wide character.
    #[test]
    fn rows_read_as_plain_cells_through_any_writes_erases_and_packs() {
        let mut rng = SplitMix64(11);
        let (mut scratch, mut frozen) = (Vec::new(), Vec::new());
        for _ in 0..3000 {
            let mut row = Row::new();
            let mut model: Vec<Cell> = Vec::new();
            for _ in 0..40 {
                match rng.below(8) {
                    0..=2 => {
                        let x = rng.below(30) as usize;
                        let n = rng.range(1, 12) as usize;
                        let run: Vec<Cell> = if rng.chance(1, 2) {
                            let style = rng.below(2) as u32;
                            (0..n)
                                .map(|_| Cell::new(rng.range(97, 99) as u32, style))
                                .collect()
                        } else {
                            (0..n).map(|_| random_cell(&mut rng)).collect()
                        };
                        row.write(x, run.iter().copied());
                        if model.len() < x + n {
                            model.resize(x + n, Cell::BLANK);
                        }
                        model[x..x + n].copy_from_slice(&run);
                    }
                    3 => {
                        let x = rng.below(40) as usize;
                        row.truncate(x);
                        model.truncate(x);
                    }
                    4 => row.pack(&mut scratch),
                    5 => {
                        frozen.clear();
                        row.freeze_into(80, &mut frozen, &mut scratch);
                        row = Row::thaw(&frozen, &mut 0, 80);
                    }
                    6 => {
                        row.clear();
                        model.clear();
                    }
                    _ => {
                        let (x, n) = (rng.below(40) as usize, rng.below(10) as usize);
                        let want = model.iter().skip(x).take(n).any(|c| c.is_padding());
                        assert_eq!(row.any_in(x, n, Cell::is_padding), want);
                    }
                }
                let mut read = cells(&row);
                let trim = |v: &mut Vec<Cell>| {
                    while v.last() == Some(&Cell::BLANK) {
                        v.pop();
                    }
                };
                let mut want = model.clone();
                trim(&mut read);
                trim(&mut want);
                assert_eq!(read, want);
                for (x, c) in want.iter().enumerate() {
                    assert_eq!(row.get(x), *c, "cell {x}");
                }
                let mut each = Vec::new();
                row.for_each(|c| each.push(c));
                trim(&mut each);
                assert_eq!(each, want);
                if row.is_narrow() {
                    assert!(model.iter().all(|c| c.width() == 1));
                }
            }
        }
    }

    #[test]
    fn writing_a_packed_row_expands_it() {
        let mut r = row_of(&[Cell::new(b'a' as u32, 0), Cell::new(b'b' as u32, 0)]);
        r.pack(&mut Vec::new());
        r.set(3, Cell::new(b'z' as u32, 2));
        assert!(!r.is_packed());
        assert_eq!(r.get(1), Cell::new(b'b' as u32, 0));
        assert_eq!(r.get(3), Cell::new(b'z' as u32, 2));
    }
}
