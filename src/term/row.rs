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
            Data::Packed(_) => {
                let mut n = 0;
                decode(self.packed_bytes(), |_, count| n += count);
                n
            }
        }
    }

    fn packed_bytes(&self) -> &[u8] {
        match &self.data {
            Data::Packed(b) => b,
            Data::Cells(_) => &[],
        }
    }

    /// The cell at `x` (blank past the stored cells).
    pub fn get(&self, x: usize) -> Cell {
        match &self.data {
            Data::Cells(v) => v.get(x).copied().unwrap_or(Cell::BLANK),
            Data::Packed(bytes) => {
                let mut at = 0;
                let mut found = Cell::BLANK;
                let mut done = false;
                decode(bytes, |cell, count| {
                    if !done && x < at + count {
                        found = cell(x - at);
                        done = true;
                    }
                    at += count;
                });
                found
            }
        }
    }

    /// Appends the stored cells to `out`.
    pub fn read_into(&self, out: &mut Vec<Cell>) {
        match &self.data {
            Data::Cells(v) => out.extend_from_slice(v),
            Data::Packed(bytes) => decode(bytes, |cell, count| {
                out.extend((0..count).map(&cell));
            }),
        }
    }

    /// The stored cells, expanding the row if it was packed.
    pub fn cells_mut(&mut self) -> &mut Vec<Cell> {
        if let Data::Packed(bytes) = &self.data {
            let mut v = Vec::new();
            decode(bytes, |cell, count| v.extend((0..count).map(&cell)));
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

    /// Packs the row into its compact byte form.
    pub fn pack(&mut self) {
        let Data::Cells(v) = &self.data else { return };
        let end = v
            .iter()
            .rposition(|c| *c != Cell::BLANK)
            .map_or(0, |i| i + 1);
        let bytes = encode(&v[..end]);
        self.data = Data::Packed(bytes);
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
            self.pack();
        }
    }

    /// Calls `f` for each stored cell without expanding the row.
    pub fn for_each(&self, mut f: impl FnMut(Cell)) {
        match &self.data {
            Data::Cells(v) => v.iter().for_each(|c| f(*c)),
            Data::Packed(bytes) => decode(bytes, |cell, count| (0..count).for_each(|i| f(cell(i)))),
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

fn encode(cells: &[Cell]) -> Box<[u8]> {
    let mut out = Vec::with_capacity(cells.len() + 8);
    let mut i = 0;
    while i < cells.len() {
        let run = run_length(&cells[i..]);
        let c = cells[i];
        let ascii = c.ascii().is_some();
        if run >= MIN_ASCII_REPEAT || (!ascii && run >= 2) {
            out.push(OP_REPEAT);
            put_varint(&mut out, run);
            put_cell(&mut out, c);
            i += run;
        } else if ascii {
            let style = c.style();
            let mut j = i;
            while j < cells.len()
                && cells[j].ascii().is_some()
                && cells[j].style() == style
                && run_length(&cells[j..]) < MIN_ASCII_REPEAT
            {
                j += 1;
            }
            out.push(OP_ASCII);
            put_varint(&mut out, j - i);
            out.extend_from_slice(&style.to_le_bytes());
            out.extend(cells[i..j].iter().map(|c| c.word() as u8));
            i = j;
        } else {
            let mut j = i + 1;
            while j < cells.len() && cells[j].ascii().is_none() && cells[j] != cells[j - 1] {
                j += 1;
            }
            out.push(OP_RAW);
            put_varint(&mut out, j - i);
            for c in &cells[i..j] {
                put_cell(&mut out, *c);
            }
            i = j;
        }
    }
    out.into_boxed_slice()
}

/// Walks a packed row, calling `f(cell_at, count)` for each segment of `count` cells, where
/// `cell_at(k)` is the k-th cell of the segment.
fn decode(bytes: &[u8], mut f: impl FnMut(&dyn Fn(usize) -> Cell, usize)) {
    let mut at = 0;
    while at < bytes.len() {
        let op = bytes[at];
        at += 1;
        let count = get_varint(bytes, &mut at);
        match op {
            OP_ASCII => {
                let style = u16::from_le_bytes([bytes[at], bytes[at + 1]]);
                let text = &bytes[at + 2..at + 2 + count];
                f(&|k| Cell::new(text[k] as u32, style), count);
                at += 2 + count;
            }
            OP_REPEAT => {
                let c = get_cell(bytes, at);
                f(&|_| c, count);
                at += 6;
            }
            _ => {
                let raw = &bytes[at..at + 6 * count];
                f(&|k| get_cell(raw, 6 * k), count);
                at += 6 * count;
            }
        }
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
        r.pack();
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
        r.pack();
        assert_eq!(cells(&r), vec![Cell::BLANK, Cell::new(b'a' as u32, 0)]);
        assert_eq!(r.get(5), Cell::BLANK);
    }

    #[test]
    fn ascii_text_costs_about_a_byte_a_cell() {
        let text = "The quick brown fox jumps over the lazy dog; 0123456789 and more text.";
        let src: Vec<Cell> = text.bytes().map(|b| Cell::new(b as u32, 1)).collect();
        let mut r = row_of(&src);
        r.pack();
        assert!(r.heap_bytes() <= text.len() + 4);
        assert_eq!(cells(&r), src);
    }

    #[test]
    fn writing_a_packed_row_expands_it() {
        let mut r = row_of(&[Cell::new(b'a' as u32, 0), Cell::new(b'b' as u32, 0)]);
        r.pack();
        r.set(3, Cell::new(b'z' as u32, 2));
        assert!(!r.is_packed());
        assert_eq!(r.get(1), Cell::new(b'b' as u32, 0));
        assert_eq!(r.get(3), Cell::new(b'z' as u32, 2));
    }
}
