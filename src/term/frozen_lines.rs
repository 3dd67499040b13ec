//! A grid's history lines but the newest, in their frozen form, the oldest of them sealed.
//!
//! Output changes the visible rows and pushes lines onto the end of the history; nothing it
//! does reads or changes the older history lines. So the end of every write freezes the history
//! lines that scrolled in but the newest ([`Row::freeze_into`], appended here), a freeze writes
//! these bytes into the screen's chunk as they are, and a thaw brings back only the visible
//! rows and the newest history line as rows, leaving the rest in the chunk (cut after those
//! lines, so the rest of the chunk is given back). The few operations that read or change
//! every line (resize, renumbering a palette left mostly empty, clearing part of the history)
//! turn them into rows first; capture decodes the ones it prints. Before, a program that
//! re-sends a long transcript every few seconds had its 2,000 history lines allocated as rows
//! and written back into a chunk at every output: on 400 such sessions that was about 40% of
//! the server's CPU (`perf`, `PERF=dir bench/scale.sh dump 400`).
//!
//! *Sealed* lines go further: when the screen is quiet (its host says so) or freezes, with
//! [`SEAL_BYTES`] or more of frozen lines waiting, they are compressed (zstd) into a segment
//! that stays with the grid, hot, frozen or cold, until its lines are dropped or every line
//! must become a row. A program that clears its screen every second moves it into a full
//! history that it never stops writing to, so the screen never goes cold: 400 such sessions
//! held 71.5 KiB each beyond the first 200 with their history as rows between freezes, 27.1
//! to 32.4 KiB with it sealed (`bench/scale.sh clear 200 400`, two runs). Sealing waits for a
//! quiet moment because a program pouring out lines drops most of them from the history before
//! it pauses: sealing at the end of every write made the last line of a 5.4 MB log show at 32
//! ms against 25 (`BASE=<build before> ROUNDS=5 bench/scale.sh bulk`). Only readers of old
//! history lines pay for the decompression: a freeze writes sealed lines nowhere, and a thaw
//! leaves them as they are.
//!
//! Lines that waited long (a host that seals only when screens freeze) are sealed in segments
//! cut at the first line boundary past [`SEAL_BYTES`], so that the dropped lines a segment
//! keeps until its last line goes are fewer than `2 * SEAL_BYTES` bytes however long they
//! waited (as one segment, the 1,500 live lines of a screen with 42,000 behind them held all
//! 42,000 compressed).
//!
//! Dropping the oldest lines (history at its limit) drops sealed lines first, letting a segment
//! go once all its lines are dropped; then it moves a start offset; the bytes move to a buffer
//! of their own once the dropped part outweighs the rest, and so do lines adopted behind more
//! bytes of the chunk than they hold.
//!
//! Invariants: `bytes[start..]` holds exactly `lines` frozen rows, written for the width of the
//! grid that holds them (which does not change while it holds any: a resize turns them into
//! rows first); no lines means no bytes; the sealed lines are the oldest, `sealed_lines` of them
//! live: the segments' lines but the `sealed_dropped` oldest of the first segment, which is
//! fewer than its lines.

use super::cell::{Cell, StyleId};
use super::row::Row;
use std::collections::VecDeque;

/// Unsealed history lines, in frozen bytes, that a quiet moment or a freeze seals. Smaller
/// segments compress worse; larger ones leave more lines unsealed between seals.
pub const SEAL_BYTES: usize = 16 * 1024;

/// zstd's level for sealed lines and cold screens: agent screens compress to about a third
/// at level 1, and higher levels gained little on them for several times the time.
const ZSTD_LEVEL: i32 = 1;

/// A zstd compression context at level 1, made at the first compression and kept until the
/// owner lets it go: for the many compressions of one pass over the screens (their sealed
/// lines, the cold store's puts), which would otherwise each make one (`examples/cold_store`:
/// putting the Claude Code trace's last screen took 73.7 us within a sweep, 103.2 us alone).
#[derive(Default)]
pub struct Compressor {
    context: Option<zstd::bulk::Compressor<'static>>,
}

impl Compressor {
    /// `raw` compressed; fails only when memory does.
    pub fn compress(&mut self, raw: &[u8]) -> std::io::Result<Vec<u8>> {
        self.context()?.compress(raw)
    }

    fn context(&mut self) -> std::io::Result<&mut zstd::bulk::Compressor<'static>> {
        if self.context.is_none() {
            self.context = Some(zstd::bulk::Compressor::new(ZSTD_LEVEL)?);
        }
        Ok(self.context.as_mut().expect("made above"))
    }

    /// `raw` compressed against `reference`, whose bytes are content the compressed bytes may
    /// point back into, so what the two share costs almost nothing; [`decompress_against`]
    /// needs the same reference. Fails on a reference zstd would not read as content.
    pub fn compress_against(&mut self, raw: &[u8], reference: &[u8]) -> std::io::Result<Vec<u8>> {
        if !can_be_reference(reference) {
            return Err(std::io::ErrorKind::InvalidInput.into());
        }
        let context = self.context()?;
        let packed = context
            .set_dictionary(ZSTD_LEVEL, reference)
            .and_then(|()| context.compress(raw));
        if context.set_dictionary(ZSTD_LEVEL, &[]).is_err() {
            // Kept, the context would compress everything after against the reference.
            self.context = None;
        }
        packed
    }
}

/// zstd reads a dictionary that starts with these bytes as a trained one, not as content.
const TRAINED_DICTIONARY_MAGIC: [u8; 4] = 0xEC30_A437u32.to_le_bytes();

/// Whether `bytes` can be the reference of [`Compressor::compress_against`].
pub fn can_be_reference(bytes: &[u8]) -> bool {
    !bytes.starts_with(&TRAINED_DICTIONARY_MAGIC)
}

/// What [`Compressor::compress_against`] made from `raw_len` bytes against `reference`.
pub fn decompress_against(
    packed: &[u8],
    raw_len: usize,
    reference: &[u8],
) -> std::io::Result<Vec<u8>> {
    if !can_be_reference(reference) {
        return Err(std::io::ErrorKind::InvalidInput.into());
    }
    zstd::bulk::Decompressor::with_dictionary(reference)?.decompress(packed, raw_len)
}

#[derive(Clone, Debug, Default)]
pub struct FrozenLines {
    /// Segments of sealed lines, oldest first.
    sealed: VecDeque<Sealed>,
    /// Lines of the first segment already dropped.
    sealed_dropped: u32,
    /// Live sealed lines.
    sealed_lines: u32,
    bytes: Vec<u8>,
    start: usize,
    lines: u32,
}

/// Frozen rows compressed together.
#[derive(Clone, Debug)]
struct Sealed {
    compressed: Box<[u8]>,
    /// Their length before compression.
    len: usize,
    lines: u32,
    /// The styles their cells name, each once, in order.
    styles: Box<[StyleId]>,
    /// The graphemes their cells name, each once, in order.
    graphemes: Box<[u32]>,
}

impl FrozenLines {
    /// Keeps the `lines` frozen rows at `range` in a chunk, after the sealed lines, letting go
    /// of the chunk after them. The unsealed lines kept before are replaced.
    pub fn adopt(&mut self, chunk: Box<[u8]>, range: std::ops::Range<usize>, lines: u32) {
        self.lines = lines;
        self.start = 0;
        if lines == 0 {
            self.bytes = Vec::new();
            return;
        }
        // What comes before the lines (the rest of the screen's state) is dead: when it
        // outweighs them, as on a wide screen with little history, they move to a buffer of
        // their own, as when dropping lines does the same.
        if range.start > range.len() {
            self.bytes = chunk[range].into();
            return;
        }
        let mut bytes = Vec::from(chunk);
        // Shrinking in place: the allocator keeps the block when at least half of it stays,
        // which for a screen with much history is nearly all of it.
        bytes.truncate(range.end);
        bytes.shrink_to_fit();
        self.bytes = bytes;
        self.start = range.start;
    }

    /// Every frozen line, sealed or not.
    #[inline]
    pub fn lines(&self) -> u32 {
        self.sealed_lines + self.lines
    }

    /// The unsealed frozen rows, oldest first, as [`Row::freeze_into`] wrote them.
    pub fn unsealed_bytes(&self) -> &[u8] {
        &self.bytes[self.start..]
    }

    /// Lets go of the unsealed lines (written somewhere else), keeping the sealed ones.
    pub fn keep_sealed(&mut self) {
        self.bytes = Vec::new();
        self.start = 0;
        self.lines = 0;
    }

    /// Adds `rows`, history lines newer than every frozen one, as unsealed frozen lines.
    pub fn append(
        &mut self,
        rows: impl ExactSizeIterator<Item = Row>,
        sx: u32,
        scratch: &mut Vec<u8>,
    ) {
        self.lines += rows.len() as u32;
        rows.for_each(|row| row.freeze_into(sx, &mut self.bytes, scratch));
        // Growing a buffer that starts with dropped lines would double them too.
        if self.start > 0 {
            self.give_back_dead_bytes();
        }
    }

    /// Seals the unsealed lines once they are [`SEAL_BYTES`] or more; returns whether they
    /// were. Lines that do not compress cost a few bytes more sealed (zstd stores them as they
    /// are), so they are sealed all the same.
    pub fn seal(&mut self, sealer: &mut Compressor) -> bool {
        let mut sealed = false;
        while let Some((end, lines)) = self.next_segment() {
            // Compression fails only when memory does: the lines stay as they were.
            let Ok(compressed) = sealer.compress(&self.bytes[self.start..end]) else {
                break;
            };
            let (mut styles, mut graphemes) = (Vec::new(), Vec::new());
            for_each_frozen_name(&self.bytes, self.start, lines, |c| {
                styles.push(c.style());
                if c.is_interned() {
                    graphemes.push(c.value());
                }
            });
            self.sealed.push_back(Sealed {
                compressed: compressed.into_boxed_slice(),
                len: end - self.start,
                lines,
                styles: sorted_set(styles),
                graphemes: sorted_set(graphemes),
            });
            self.sealed_lines += lines;
            self.lines -= lines;
            self.start = end;
            sealed = true;
        }
        if self.lines == 0 {
            self.keep_sealed();
        }
        sealed
    }

    /// The end and line count of the next segment to seal: the unsealed lines up to the first
    /// line boundary at [`SEAL_BYTES`] or past it, or all of them when fewer than
    /// [`SEAL_BYTES`] would be left after it; none when fewer than [`SEAL_BYTES`] wait.
    fn next_segment(&self) -> Option<(usize, u32)> {
        let waiting = self.bytes.len() - self.start;
        if waiting < SEAL_BYTES {
            return None;
        }
        // The usual case (a quiet moment comes every few seconds) needs no walk over the lines.
        if waiting < 2 * SEAL_BYTES {
            return Some((self.bytes.len(), self.lines));
        }
        let mut at = self.start;
        for n in 1..self.lines {
            Row::skip_frozen(&self.bytes, &mut at);
            if at - self.start >= SEAL_BYTES {
                if self.bytes.len() - at < SEAL_BYTES {
                    break;
                }
                return Some((at, n));
            }
        }
        Some((self.bytes.len(), self.lines))
    }

    /// Forgets the `n` oldest lines (all of them if there are fewer).
    pub fn drop_oldest(&mut self, n: u32) {
        if n >= self.lines() {
            *self = FrozenLines::default();
            return;
        }
        let from_sealed = n.min(self.sealed_lines);
        self.sealed_lines -= from_sealed;
        self.sealed_dropped += from_sealed;
        while let Some(first) = self.sealed.front() {
            if self.sealed_dropped < first.lines {
                break;
            }
            self.sealed_dropped -= first.lines;
            self.sealed.pop_front();
        }
        for _ in from_sealed..n {
            Row::skip_frozen(&self.bytes, &mut self.start);
        }
        self.lines -= n - from_sealed;
        self.give_back_dead_bytes();
    }

    /// Dead bytes (dropped lines, room to append) outweighing the lines' own: the lines move to
    /// a buffer of their own.
    fn give_back_dead_bytes(&mut self) {
        let live = self.bytes.len() - self.start;
        if self.bytes.capacity() - live > live {
            self.bytes = self.unsealed_bytes().to_vec();
            self.start = 0;
        }
    }

    /// The lines from the `first` on, decoded into rows of a grid `sx` wide. Only the sealed
    /// segments holding such lines are decompressed, one at a time.
    pub fn rows_from(&self, first: u32, sx: u32) -> impl Iterator<Item = Row> + '_ {
        let mut seg_start = 0u32;
        let mut dropped = self.sealed_dropped;
        let sealed = self.sealed.iter().filter_map(move |seg| {
            let skip = std::mem::take(&mut dropped);
            let from = seg_start;
            seg_start += seg.lines - skip;
            (seg_start > first).then(|| seg.rows(skip + first.saturating_sub(from), sx))
        });
        let plain_first = first.saturating_sub(self.sealed_lines).min(self.lines);
        let mut at = self.start;
        for _ in 0..plain_first {
            Row::skip_frozen(&self.bytes, &mut at);
        }
        let plain = (plain_first..self.lines).map(move |_| Row::thaw(&self.bytes, &mut at, sx));
        sealed.flatten().chain(plain)
    }

    /// Calls `f` with cells that together name every style and grapheme the frozen lines' cells
    /// name (see [`Row::frozen_names`]), reading no sealed line: a segment's names were noted
    /// when it was sealed, and stay until the segment goes, its first lines dropped or not.
    pub fn for_each_name(&self, mut f: impl FnMut(Cell)) {
        for seg in &self.sealed {
            seg.styles.iter().for_each(|&s| f(Cell::blank(s)));
            let interned = |g| Cell::new(Cell::INTERNED | g, 0);
            seg.graphemes.iter().for_each(|&g| f(interned(g)));
        }
        self.for_each_unsealed_name(f);
    }

    fn for_each_unsealed_name(&self, f: impl FnMut(Cell)) {
        for_each_frozen_name(&self.bytes, self.start, self.lines, f);
    }

    pub fn heap_bytes(&self) -> usize {
        self.bytes.capacity() + self.sealed_bytes()
    }

    /// The part of [`FrozenLines::heap_bytes`] that sealed lines hold.
    pub fn sealed_bytes(&self) -> usize {
        self.sealed.capacity() * std::mem::size_of::<Sealed>()
            + self
                .sealed
                .iter()
                .map(|s| {
                    s.compressed.len()
                        + std::mem::size_of_val(&*s.styles)
                        + std::mem::size_of_val(&*s.graphemes)
                })
                .sum::<usize>()
    }
}

/// Calls `f` with cells naming what the `lines` frozen rows at `at` in `bytes` name.
fn for_each_frozen_name(bytes: &[u8], mut at: usize, lines: u32, mut f: impl FnMut(Cell)) {
    for _ in 0..lines {
        Row::frozen_names(bytes, &mut at, &mut f);
    }
}

fn sorted_set(mut ids: Vec<u32>) -> Box<[u32]> {
    ids.sort_unstable();
    ids.dedup();
    ids.into_boxed_slice()
}

impl Sealed {
    /// Its lines from the `first` on, as rows. Lines that cannot be decompressed (only when
    /// memory fails) come back blank, so the history keeps its length.
    fn rows(&self, first: u32, sx: u32) -> std::vec::IntoIter<Row> {
        let rows: Vec<Row> = match zstd::bulk::decompress(&self.compressed, self.len) {
            Ok(raw) => {
                let mut at = 0;
                for _ in 0..first {
                    Row::skip_frozen(&raw, &mut at);
                }
                (first..self.lines)
                    .map(|_| Row::thaw(&raw, &mut at, sx))
                    .collect()
            }
            Err(_) => (first..self.lines).map(|_| Row::new()).collect(),
        };
        rows.into_iter()
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
        let mut kept = FrozenLines::default();
        kept.adopt(chunk, 3..end, 10);
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
        assert_eq!(kept.unsealed_bytes(), &expect[3..expect.len() - 4]);
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
        let mut kept = FrozenLines::default();
        kept.adopt(chunk.into_boxed_slice(), range.clone(), 2);
        assert_eq!(kept.heap_bytes(), range.len());
        assert_eq!(kept.rows_from(0, 40).collect::<Vec<_>>(), rows);
    }

    #[test]
    fn lines_appended_behind_dropped_ones_do_not_grow_the_dead_bytes() {
        let rows = output_lines(0, 200);
        let mut kept = FrozenLines::default();
        append(&mut kept, &rows[..100]);
        kept.drop_oldest(30);
        for k in 100..200 {
            append(&mut kept, &rows[k..k + 1]);
            let live = kept.unsealed_bytes().len();
            assert!(
                kept.heap_bytes() <= 2 * live,
                "{} bytes for {live}",
                kept.heap_bytes()
            );
        }
        assert_eq!(kept.rows_from(0, 80).collect::<Vec<_>>(), rows[30..]);
    }

    #[test]
    fn no_lines_keep_no_bytes() {
        let mut kept = FrozenLines::default();
        kept.adopt(frozen(&lines(2), 40), 3..3, 0);
        assert_eq!((kept.lines(), kept.heap_bytes()), (0, 0));
    }

    /// `n` history lines of an agent's output: the same few shapes with numbers that change.
    fn output_lines(from: usize, n: usize) -> Vec<Row> {
        (from..from + n)
            .map(|i| {
                let mut row = Row::new();
                let text = format!("  {i:5} parse_config(\"fixtures\", {}) -> ok", i % 97);
                row.write(
                    0,
                    text.bytes()
                        .map(|b| super::super::cell::Cell::new(b as u32, (i % 3) as u32)),
                );
                row.used = text.len() as u16;
                row.size = 80;
                row.pack(&mut Vec::new());
                row
            })
            .collect()
    }

    /// Lines kept as `plain` frozen lines, then `hot` more rows appended and all sealed.
    fn sealed(plain: &[Row], hot: &[Row]) -> FrozenLines {
        let chunk = frozen(plain, 80);
        let mut kept = FrozenLines::default();
        kept.adopt(chunk.clone(), 3..chunk.len() - 4, plain.len() as u32);
        append(&mut kept, hot);
        assert!(
            kept.seal(&mut Compressor::default()),
            "enough lines to seal"
        );
        kept
    }

    fn append(kept: &mut FrozenLines, rows: &[Row]) {
        kept.append(rows.iter().cloned(), 80, &mut Vec::new());
    }

    #[test]
    fn sealed_lines_read_back_from_any_line_and_cost_a_fraction() {
        let rows = output_lines(0, 2000);
        let mut kept = sealed(&rows[..500], &rows[500..1000]);
        let unsealed_size = frozen(&rows[..1000], 80).len();
        assert!(
            kept.heap_bytes() * 4 < unsealed_size,
            "{} sealed bytes for {unsealed_size}",
            kept.heap_bytes()
        );
        assert_eq!(kept.lines(), 1000);
        assert!(kept.unsealed_bytes().is_empty());
        // Lines after the sealed ones, then a second segment.
        let chunk = frozen(&rows[1000..1100], 80);
        kept.adopt(chunk.clone(), 3..chunk.len() - 4, 100);
        assert_eq!(kept.lines(), 1100);
        assert_eq!(kept.rows_from(0, 80).collect::<Vec<_>>(), rows[..1100]);
        assert_eq!(kept.rows_from(777, 80).collect::<Vec<_>>(), rows[777..1100]);
        assert_eq!(
            kept.rows_from(1050, 80).collect::<Vec<_>>(),
            rows[1050..1100]
        );
        append(&mut kept, &rows[1100..]);
        assert_eq!(kept.rows_from(1050, 80).collect::<Vec<_>>(), rows[1050..]);
        assert!(kept.seal(&mut Compressor::default()));
        assert_eq!(kept.lines(), 2000);
        assert_eq!(kept.rows_from(999, 80).collect::<Vec<_>>(), rows[999..]);
    }

    #[test]
    fn dropping_the_oldest_lines_goes_through_sealed_segments_into_unsealed_lines() {
        let rows = output_lines(0, 1100);
        let mut kept = sealed(&rows[..300], &rows[300..600]);
        append(&mut kept, &rows[600..1000]);
        assert!(kept.seal(&mut Compressor::default()));
        assert_eq!(kept.sealed.len(), 2);
        let chunk = frozen(&rows[1000..], 80);
        kept.adopt(chunk.clone(), 3..chunk.len() - 4, 100);
        let full = kept.heap_bytes();
        kept.drop_oldest(250);
        assert_eq!(kept.rows_from(0, 80).collect::<Vec<_>>(), rows[250..]);
        assert_eq!(kept.rows_from(400, 80).collect::<Vec<_>>(), rows[650..]);
        assert_eq!(
            kept.heap_bytes(),
            full,
            "a segment stays while it has lines"
        );
        kept.drop_oldest(400);
        assert_eq!(kept.lines(), 450);
        assert_eq!(kept.rows_from(0, 80).collect::<Vec<_>>(), rows[650..]);
        assert!(
            kept.heap_bytes() < full,
            "a segment without lines is let go"
        );
        kept.drop_oldest(400);
        assert_eq!(kept.rows_from(0, 80).collect::<Vec<_>>(), rows[1050..]);
        kept.drop_oldest(50);
        assert_eq!((kept.lines(), kept.heap_bytes()), (0, 0));
    }

    #[test]
    fn lines_long_unsealed_are_sealed_in_segments_of_bounded_size() {
        // A host that seals only when screens freeze lets a busy screen's lines wait: sealed
        // as one segment, the dropped ones would stay until the newest of them goes.
        let rows = output_lines(0, 4000);
        let mut kept = FrozenLines::default();
        append(&mut kept, &rows);
        let waiting = kept.unsealed_bytes().len();
        assert!(kept.seal(&mut Compressor::default()));
        assert!(kept.unsealed_bytes().is_empty());
        assert_eq!(kept.sealed.iter().map(|s| s.len).sum::<usize>(), waiting);
        assert!(kept.sealed.len() >= waiting / (2 * SEAL_BYTES));
        for seg in &kept.sealed {
            assert!(
                (SEAL_BYTES..2 * SEAL_BYTES).contains(&seg.len),
                "a {}-byte segment",
                seg.len
            );
        }
        assert_eq!(kept.rows_from(0, 80).collect::<Vec<_>>(), rows);
        let first = kept.sealed[0].lines;
        let segments = kept.sealed.len();
        kept.drop_oldest(first - 1);
        assert_eq!(
            kept.rows_from(0, 80).collect::<Vec<_>>(),
            rows[first as usize - 1..]
        );
        kept.drop_oldest(1);
        assert_eq!(kept.sealed.len(), segments - 1);
        assert_eq!(
            kept.rows_from(0, 80).collect::<Vec<_>>(),
            rows[first as usize..]
        );
    }

    #[test]
    fn one_sealer_seals_many_screens_as_a_sealer_each_would() {
        let (mut shared, mut screens) = (Compressor::default(), Vec::new());
        for (first, n) in [(0, 900), (5000, 600), (90, 1200)] {
            let rows = output_lines(first, n);
            let (mut kept, mut alone) = (FrozenLines::default(), FrozenLines::default());
            append(&mut kept, &rows);
            append(&mut alone, &rows);
            assert!(kept.seal(&mut shared) && alone.seal(&mut Compressor::default()));
            assert_eq!(kept.sealed[0].compressed, alone.sealed[0].compressed);
            screens.push((kept, rows));
        }
        for (kept, rows) in &screens {
            assert_eq!(kept.rows_from(0, 80).collect::<Vec<_>>(), *rows);
        }
    }

    #[test]
    fn appended_lines_follow_the_adopted_ones_and_too_few_are_not_sealed() {
        let rows = output_lines(0, 20);
        let mut kept = FrozenLines::default();
        let chunk = frozen(&rows[..10], 80);
        kept.adopt(chunk.clone(), 3..chunk.len() - 4, 10);
        append(&mut kept, &rows[10..]);
        assert!(!kept.seal(&mut Compressor::default()));
        let all = frozen(&rows, 80);
        assert_eq!(kept.unsealed_bytes(), &all[3..all.len() - 4]);
        assert_eq!(kept.rows_from(0, 80).collect::<Vec<_>>(), rows);
    }
}
