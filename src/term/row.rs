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
//! touched when the write ends, except the row under the cursor.
//!
//! Packed form: a varint count of cells, then segments, each an op byte and a varint length:
//! `ASCII n style text[n]`, `REPEAT n cell`, `RAW n cell[n]` (cells as 4-byte word + 2-byte
//! style, little endian).
//!
//! Invariants: a packed row never holds trailing blank cells; decoding a packed row yields
//! exactly the cells that were packed.

use super::cell::Cell;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Data {
    Cells(Vec<Cell>),
    Packed(Box<[u8]>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    data: Data,
    /// tmux's `cellused`: cells at or past this are not printed by capture.
    pub used: u16,
    /// tmux's `cellsize`: how far the line has been extended.
    pub size: u16,
    /// The line continues on the next one (it was wrapped, not ended by a newline).
    pub wrapped: bool,
}

impl Default for Row {
    fn default() -> Self {
        Row::new()
    }
}

const OP_ASCII: u8 = 0;
const OP_REPEAT: u8 = 1;
const OP_RAW: u8 = 2;

/// A run of equal ASCII cells shorter than this stays in an ASCII run (1 byte a cell) rather
/// than becoming a repeat op (1 + varint + 6 bytes).
const MIN_ASCII_REPEAT: usize = 9;

impl Row {
    pub fn new() -> Row {
        Row {
            data: Data::Packed(Box::new([])),
            used: 0,
            size: 0,
            wrapped: false,
        }
    }

    pub fn is_packed(&self) -> bool {
        matches!(self.data, Data::Packed(_))
    }

    /// Number of stored cells (cells past this are blank).
    pub fn stored_len(&self) -> usize {
        match &self.data {
            Data::Cells(v) => v.len(),
            Data::Packed(bytes) => packed_len(bytes),
        }
    }

    /// The cell at `x` (blank past the stored cells).
    pub fn get(&self, x: usize) -> Cell {
        match &self.data {
            Data::Cells(v) => v.get(x).copied().unwrap_or(Cell::BLANK),
            Data::Packed(bytes) => {
                let mut at = 0;
                for seg in Segments::new(bytes) {
                    let n = seg.len();
                    if x < at + n {
                        return seg.cell(x - at);
                    }
                    at += n;
                }
                Cell::BLANK
            }
        }
    }

    /// Appends the stored cells to `out`.
    pub fn read_into(&self, out: &mut Vec<Cell>) {
        match &self.data {
            Data::Cells(v) => out.extend_from_slice(v),
            Data::Packed(bytes) => {
                out.reserve(packed_len(bytes));
                Segments::new(bytes).for_each(|seg| seg.append_to(out));
            }
        }
    }

    /// The stored cells, expanding the row if it was packed.
    pub fn cells_mut(&mut self) -> &mut Vec<Cell> {
        if let Data::Packed(bytes) = &self.data {
            // The row is about to be written: room for a full line avoids regrowing it.
            let mut v = Vec::with_capacity(packed_len(bytes).max(self.size as usize));
            Segments::new(bytes).for_each(|seg| seg.append_to(&mut v));
            self.data = Data::Cells(v);
        }
        match &mut self.data {
            Data::Cells(v) => v,
            Data::Packed(_) => unreachable!(),
        }
    }

    /// Sets the cell at `x`, storing blanks before it as needed.
    #[inline]
    pub fn set(&mut self, x: usize, cell: Cell) {
        let v = self.cells_mut();
        if x >= v.len() {
            if cell == Cell::BLANK {
                return;
            }
            v.resize(x + 1, Cell::BLANK);
        }
        v[x] = cell;
    }

    /// Forgets every cell (the row reads as blank) and resets the counters.
    pub fn clear(&mut self) {
        *self = Row::new();
    }

    /// Packs the row into its compact byte form, using `scratch` as working space.
    pub fn pack(&mut self, scratch: &mut Vec<u8>) {
        let Data::Cells(v) = &self.data else { return };
        let end = v
            .iter()
            .rposition(|c| *c != Cell::BLANK)
            .map_or(0, |i| i + 1);
        scratch.clear();
        encode(&v[..end], scratch);
        self.data = Data::Packed(scratch.as_slice().into());
    }

    /// Heap bytes held by the row, spare capacity included.
    pub fn heap_bytes(&self) -> usize {
        match &self.data {
            Data::Cells(v) => v.capacity() * std::mem::size_of::<Cell>(),
            Data::Packed(b) => b.len(),
        }
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

    /// Calls `f` for each stored cell without expanding the row.
    pub fn for_each(&self, mut f: impl FnMut(Cell)) {
        match &self.data {
            Data::Cells(v) => v.iter().for_each(|c| f(*c)),
            Data::Packed(bytes) => {
                for seg in Segments::new(bytes) {
                    (0..seg.len()).for_each(|i| f(seg.cell(i)));
                }
            }
        }
    }
}

fn put_varint(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn get_varint(bytes: &[u8], at: &mut usize) -> usize {
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
    out.extend_from_slice(&c.word().to_le_bytes());
    out.extend_from_slice(&c.style().to_le_bytes());
}

fn get_cell(bytes: &[u8], at: usize) -> Cell {
    let word = u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let style = u16::from_le_bytes([bytes[at + 4], bytes[at + 5]]);
    Cell::new(word, style)
}

fn run_length(cells: &[Cell]) -> usize {
    let first = cells[0];
    cells.iter().take_while(|c| **c == first).count()
}

fn encode(cells: &[Cell], out: &mut Vec<u8>) {
    put_varint(out, cells.len());
    let mut i = 0;
    while i < cells.len() {
        let c = cells[i];
        let run = run_length(&cells[i..]);
        let ascii = c.ascii().is_some();
        if run >= MIN_ASCII_REPEAT || (!ascii && run >= 2) {
            out.push(OP_REPEAT);
            put_varint(out, run);
            put_cell(out, c);
            i += run;
        } else if ascii {
            // Extend over ASCII cells in the same style, stopping before a long repeat.
            let style = c.style();
            let mut j = i + run;
            while j < cells.len() && cells[j].ascii().is_some() && cells[j].style() == style {
                let r = run_length(&cells[j..]);
                if r >= MIN_ASCII_REPEAT {
                    break;
                }
                j += r;
            }
            out.push(OP_ASCII);
            put_varint(out, j - i);
            out.extend_from_slice(&style.to_le_bytes());
            out.extend(cells[i..j].iter().map(|c| c.word() as u8));
            i = j;
        } else {
            let mut j = i + 1;
            while j < cells.len() && cells[j].ascii().is_none() && cells[j] != cells[j - 1] {
                j += 1;
            }
            out.push(OP_RAW);
            put_varint(out, j - i);
            for c in &cells[i..j] {
                put_cell(out, *c);
            }
            i = j;
        }
    }
}

fn packed_len(bytes: &[u8]) -> usize {
    get_varint(bytes, &mut 0)
}

/// One segment of a packed row.
enum Segment<'a> {
    Ascii(u16, &'a [u8]),
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

    fn append_to(&self, out: &mut Vec<Cell>) {
        match self {
            Segment::Ascii(style, text) => {
                out.extend(text.iter().map(|&b| Cell::new(b as u32, *style)))
            }
            Segment::Repeat(c, n) => out.resize(out.len() + n, *c),
            Segment::Raw(raw) => out.extend(raw.chunks_exact(6).map(|c| get_cell(c, 0))),
        }
    }
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
        let op = *b.get(self.at)?;
        self.at += 1;
        let count = get_varint(b, &mut self.at);
        let at = self.at;
        Some(match op {
            OP_ASCII => {
                self.at += 2 + count;
                Segment::Ascii(
                    u16::from_le_bytes([b[at], b[at + 1]]),
                    &b[at + 2..at + 2 + count],
                )
            }
            OP_REPEAT => {
                self.at += 6;
                Segment::Repeat(get_cell(b, at), count)
            }
            _ => {
                self.at += 6 * count;
                Segment::Raw(&b[at..at + 6 * count])
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn writing_a_packed_row_expands_it() {
        let mut r = row_of(&[Cell::new(b'a' as u32, 0), Cell::new(b'b' as u32, 0)]);
        r.pack(&mut Vec::new());
        r.set(3, Cell::new(b'z' as u32, 2));
        assert!(!r.is_packed());
        assert_eq!(r.get(1), Cell::new(b'b' as u32, 0));
        assert_eq!(r.get(3), Cell::new(b'z' as u32, 2));
    }
}
