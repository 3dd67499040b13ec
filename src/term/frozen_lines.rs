//! The oldest history lines of a hot grid, left in their frozen form.
//!
//! Output changes the visible rows and pushes lines onto the end of the history; nothing it
//! does reads or changes the older history lines. So thawing a screen brings back its visible
//! rows and its newest history line as rows, and leaves the rest of the history where
//! [`Row::freeze_into`] wrote it, in the chunk the screen was frozen into (cut after those
//! lines, so the rest of the chunk is given back). Freezing the screen again copies these bytes
//! into the new chunk as they are. The few operations that read or change every line (resize,
//! renumbering the palette, clearing part of the history) turn them into rows first; capture
//! decodes the ones it prints. Before, a program that re-sends a long transcript every few
//! seconds had its 2,000 history lines allocated as rows and written back into a chunk at every
//! output: on 400 such sessions that was about 40% of the server's CPU (`perf`,
//! `PERF=dir bench/scale.sh dump 400`).
//!
//! Dropping the oldest lines (history at its limit) moves a start offset; the bytes move to a
//! buffer of their own once the dropped part outweighs the rest, and so do lines adopted
//! behind more bytes of the chunk than they hold.
//!
//! Invariants: `bytes[start..]` holds exactly `lines` frozen rows, written for the width of the
//! grid that holds them (which does not change while it holds any: a resize turns them into
//! rows first); no lines means no bytes.

use super::row::Row;

#[derive(Clone, Debug, Default)]
pub struct FrozenLines {
    bytes: Box<[u8]>,
    start: usize,
    lines: u32,
}

impl FrozenLines {
    /// Keeps the `lines` frozen rows at `range` in a chunk, letting go of the chunk after it.
    pub fn adopt(chunk: Box<[u8]>, range: std::ops::Range<usize>, lines: u32) -> FrozenLines {
        if lines == 0 {
            return FrozenLines::default();
        }
        // What comes before the lines (the rest of the screen's state) is dead: when it
        // outweighs them, as on a wide screen with little history, they move to a buffer of
        // their own, as when dropping lines does the same.
        if range.start > range.len() {
            return FrozenLines {
                bytes: chunk[range].into(),
                start: 0,
                lines,
            };
        }
        let mut bytes = Vec::from(chunk);
        // Shrinking in place: the allocator keeps the block when at least half of it stays,
        // which for a screen with much history is nearly all of it.
        bytes.truncate(range.end);
        FrozenLines {
            bytes: bytes.into_boxed_slice(),
            start: range.start,
            lines,
        }
    }

    pub fn lines(&self) -> u32 {
        self.lines
    }

    /// The frozen rows, oldest first, as [`Row::freeze_into`] wrote them.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[self.start..]
    }

    /// Forgets the `n` oldest lines (all of them if there are fewer).
    pub fn drop_oldest(&mut self, n: u32) {
        if n >= self.lines {
            *self = FrozenLines::default();
            return;
        }
        for _ in 0..n {
            Row::skip_frozen(&self.bytes, &mut self.start);
        }
        self.lines -= n;
        if self.start > self.bytes.len() - self.start {
            self.bytes = self.bytes().into();
            self.start = 0;
        }
    }

    /// The lines from the `first` on, decoded into rows of a grid `sx` wide.
    pub fn rows_from(&self, first: u32, sx: u32) -> impl Iterator<Item = Row> + '_ {
        let mut at = self.start;
        for _ in 0..first.min(self.lines) {
            Row::skip_frozen(&self.bytes, &mut at);
        }
        (first..self.lines).map(move |_| Row::thaw(&self.bytes, &mut at, sx))
    }

    pub fn heap_bytes(&self) -> usize {
        self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frozen(rows: &[Row], sx: u32) -> Box<[u8]> {
        let (mut out, mut scratch) = (vec![0xee; 3], Vec::new());
        rows.iter()
            .for_each(|r| r.freeze_into(sx, &mut out, &mut scratch));
        out.extend_from_slice(b"tail");
        out.into_boxed_slice()
    }

    fn lines(n: usize) -> Vec<Row> {
        (0..n)
            .map(|i| {
                let mut row = Row::new();
                let text = format!("line {i}").into_bytes();
                row.write(
                    0,
                    text.iter()
                        .map(|&b| super::super::cell::Cell::new(b as u32, 0)),
                );
                row.used = text.len() as u16;
                row.size = 40;
                row.pack(&mut Vec::new());
                row
            })
            .collect()
    }

    #[test]
    fn adopted_lines_decode_as_written_and_drop_from_the_oldest() {
        let rows = lines(10);
        let chunk = frozen(&rows, 40);
        let end = chunk.len() - 4;
        let mut kept = FrozenLines::adopt(chunk, 3..end, 10);
        assert_eq!(kept.heap_bytes(), end, "the chunk is cut after the lines");
        assert_eq!(kept.rows_from(0, 40).collect::<Vec<_>>(), rows);
        assert_eq!(kept.rows_from(7, 40).collect::<Vec<_>>(), rows[7..]);
        kept.drop_oldest(3);
        assert_eq!(kept.lines(), 7);
        assert_eq!(kept.rows_from(0, 40).collect::<Vec<_>>(), rows[3..]);
        kept.drop_oldest(3);
        assert!(
            kept.heap_bytes() < end / 2,
            "the dropped bytes are given back"
        );
        assert_eq!(kept.rows_from(0, 40).collect::<Vec<_>>(), rows[6..]);
        let expect = frozen(&rows[6..], 40);
        assert_eq!(kept.bytes(), &expect[3..expect.len() - 4]);
        kept.drop_oldest(9);
        assert_eq!((kept.lines(), kept.heap_bytes()), (0, 0));
    }

    #[test]
    fn lines_behind_more_of_their_chunk_than_they_hold_get_their_own_bytes() {
        let rows = lines(2);
        let mut chunk = vec![0xee; 500];
        let lines_bytes = frozen(&rows, 40);
        chunk.extend_from_slice(&lines_bytes[3..]);
        let range = 500..chunk.len() - 4;
        let kept = FrozenLines::adopt(chunk.into_boxed_slice(), range.clone(), 2);
        assert_eq!(kept.heap_bytes(), range.len());
        assert_eq!(kept.rows_from(0, 40).collect::<Vec<_>>(), rows);
    }

    #[test]
    fn no_lines_keep_no_bytes() {
        let kept = FrozenLines::adopt(frozen(&lines(2), 40), 3..3, 0);
        assert_eq!((kept.lines(), kept.heap_bytes()), (0, 0));
    }
}
