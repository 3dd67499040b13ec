//! Freezing: a quiet terminal folded into one byte chunk, and unfolded again when it is needed.
//!
//! A hot terminal keeps each row in an allocation of its own behind a 32-byte header, and tables
//! with indexes for fast writing (styles, graphemes) and tab stops. A screen that has
//! been quiet for a while is frozen by its host: the rows of the screen and its history, the rows
//! of the primary screen saved under the alternate screen, the palette, the grapheme table and
//! the tab stops are written one after another into a single `Box<[u8]>`, and everything they
//! held is freed. What stays hot is what readers use without looking at cells: the sizes and
//! counts of the grids, cursor, modes, scroll region, titles and the parser's state.
//!
//! States: hot (rows in the grids), frozen (the chunk is held here) and cold (the host moved the
//! chunk out with [`Terminal::take_frozen`] to keep it elsewhere, compressed; the terminal
//! remembers its length and takes back, with [`Terminal::restore_frozen`], only a chunk of that
//! length).
//!
//! Every `&mut` method that reads or changes rows thaws first, so a caller cannot edit a frozen
//! screen by mistake. `&self` readers of rows (`capture`, `capture_alternate`,
//! `cursor_character`, `screen`) read a frozen terminal through a decoded copy and give correct
//! results without changing it; `screen` returns a reference, so its copy is kept (and counted by
//! `heap_bytes`) until the terminal next changes. A cold terminal has no rows to give: thawing it
//! or reading its rows is a caller bug (a `debug_assert`); in release it stays cold, keeps its
//! place for the chunk, ignores the change (a `feed` is dropped) and its readers see blank rows.
//!
//! Chunk format (counts are LEB128 varints): the grid's rows, oldest history line first (their
//! number is not stored: the grid keeps `hsize` and `sy` while frozen), after the length in
//! bytes (8 bytes, little endian) of its history lines but the newest, which a thaw leaves
//! frozen in what it keeps of the chunk (`frozen_lines.rs`), and without the sealed ones, which
//! stay with the grid; the saved grid's rows, the same way, if the alternate screen is on; the
//! palette; the grapheme table; the tab stops. Rows are
//! written as described in `row.rs` (a blank row is one byte, a row with cells its flags and its
//! packed bytes), the tables in `cell.rs` and `screen.rs`. The chunk means something only to the
//! terminal that made it (cells index its palette), so it has no header or version.
//!
//! Measured with `examples/screen_memory.rs` (BENCHMARKS.md, "Memory of a screen"): the median
//! 220x80 agent screens with history go from 12,716 to 5,917 bytes (Claude Code) and from 6,865
//! to 2,246 (Gemini CLI); the largest, mostly history that was packed already, from 30,974 to
//! 20,269. Freezing it takes about 1.5 us and thawing 3 us, the median screens 1 to 2.3 us; a
//! full 2,000-line history 3.6 and 4.2 us, because a thaw leaves the history lines frozen
//! (`frozen_lines.rs`): 42.5 and 98.3 us when it gave every line a row.

use super::screen::Screen;
use super::{Compressor, ScreenData, Terminal};
use std::borrow::Cow;
use std::sync::OnceLock;

/// Where a terminal's rows are.
#[derive(Clone, Debug, Default)]
pub(super) enum Storage {
    /// In the grids.
    #[default]
    Hot,
    /// In this chunk.
    Frozen(Box<[u8]>),
    /// In a chunk of this length that the host holds.
    Cold(usize),
}

/// A frozen screen decoded for `&self` readers (see the module documentation).
pub(super) type Decoded = OnceLock<Box<Screen>>;

impl Terminal {
    /// Folds the rows, history, saved screen and tables into one chunk and frees what they held.
    /// Nothing visible changes; a frozen or cold terminal is left as it is.
    pub fn freeze(&mut self) {
        let _mark = ScreenData::mark();
        if matches!(self.storage, Storage::Hot) {
            let chunk = self.screen.freeze();
            self.parser.shrink();
            self.set_storage(Storage::Frozen(chunk));
        }
    }

    /// Seals the history lines that wait, if enough do (see `frozen_lines.rs`): for a host to
    /// call when a hot screen is quiet. Nothing changes that a reader can see; a frozen or cold
    /// terminal sealed its lines when it froze.
    pub fn seal_history(&mut self, sealer: &mut Compressor) {
        let _mark = ScreenData::mark();
        if matches!(self.storage, Storage::Hot) {
            self.screen.seal_history(sealer);
        }
    }

    /// Restores the rows and tables from the chunk (rows come back packed). A hot terminal is
    /// left as it is; a cold one cannot be thawed (see the module documentation).
    pub fn thaw(&mut self) {
        self.make_hot();
    }

    pub fn is_frozen(&self) -> bool {
        matches!(self.storage, Storage::Frozen(_))
    }

    /// The chunk has been taken away by [`Terminal::take_frozen`] and not given back.
    pub fn is_cold(&self) -> bool {
        matches!(self.storage, Storage::Cold(_))
    }

    /// Bytes of the chunk a frozen terminal holds (0 when hot or cold).
    pub fn frozen_bytes(&self) -> usize {
        match &self.storage {
            Storage::Frozen(chunk) => chunk.len(),
            _ => 0,
        }
    }

    /// Moves the chunk out of a frozen terminal, which becomes cold; `None` unless frozen.
    pub fn take_frozen(&mut self) -> Option<Box<[u8]>> {
        let Storage::Frozen(chunk) = &mut self.storage else {
            return None;
        };
        let chunk = std::mem::take(chunk);
        self.set_storage(Storage::Cold(chunk.len()));
        Some(chunk)
    }

    /// Gives a cold terminal its chunk back; it is frozen again. A chunk of another length, or
    /// a terminal that is not cold, is a caller bug: the chunk is dropped and nothing changes.
    pub fn restore_frozen(&mut self, chunk: Box<[u8]>) {
        match self.storage {
            Storage::Cold(len) if len == chunk.len() => self.set_storage(Storage::Frozen(chunk)),
            _ => debug_assert!(false, "restore_frozen: not cold, or not the chunk taken"),
        }
    }

    /// A cold terminal whose chunk cannot be had back (the host's store failed) goes on hot,
    /// with blank rows and default tables: a screen lost, but a terminal that works. Nothing
    /// changes unless cold.
    pub fn discard_cold(&mut self) {
        let _mark = ScreenData::mark();
        if self.is_cold() {
            self.screen.thaw_blank();
            self.set_storage(Storage::Hot);
        }
    }

    /// Makes the rows editable, thawing if frozen; false (and nothing changes) when cold.
    pub(super) fn make_hot(&mut self) -> bool {
        let _mark = ScreenData::mark();
        match std::mem::take(&mut self.storage) {
            Storage::Hot => true,
            Storage::Frozen(chunk) => {
                self.screen.thaw(chunk);
                self.set_storage(Storage::Hot);
                true
            }
            cold => {
                self.storage = cold;
                debug_assert!(false, "a cold terminal was thawed; restore its chunk first");
                false
            }
        }
    }

    /// The screen for changes that do not touch rows (a decoded copy would go stale).
    pub(super) fn screen_mut(&mut self) -> &mut Screen {
        self.decoded = Decoded::new();
        &mut self.screen
    }

    fn set_storage(&mut self, storage: Storage) {
        self.storage = storage;
        self.decoded = Decoded::new();
    }

    /// The screen as a reader sees it: itself when hot, else a decoded copy (kept or made).
    pub(super) fn view(&self) -> Cow<'_, Screen> {
        match (&self.storage, self.decoded.get()) {
            (Storage::Hot, _) => Cow::Borrowed(&self.screen),
            (_, Some(kept)) => Cow::Borrowed(kept),
            _ => Cow::Owned(self.decode()),
        }
    }

    /// As [`Terminal::view`], keeping the decoded copy so that a reference can be returned.
    pub(super) fn kept_view(&self) -> &Screen {
        match self.storage {
            Storage::Hot => &self.screen,
            _ => self.decoded.get_or_init(|| Box::new(self.decode())),
        }
    }

    /// A copy of the frozen screen with its rows and tables back (blank ones when cold).
    fn decode(&self) -> Screen {
        let _mark = ScreenData::mark();
        let mut copy = self.screen.clone();
        match &self.storage {
            Storage::Frozen(chunk) => copy.thaw(chunk.clone()),
            _ => {
                debug_assert!(!self.is_cold(), "the rows of a cold terminal were read");
                copy.thaw_blank();
            }
        }
        copy
    }

    /// Heap bytes of a decoded copy kept for `&self` readers.
    pub(super) fn decoded_bytes(&self) -> usize {
        self.decoded
            .get()
            .map_or(0, |s| std::mem::size_of::<Screen>() + s.heap_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::grid::Grid;
    use crate::term::row::Row;
    use crate::term::{CaptureOptions, LineSpec};

    /// A terminal with something of everything freezing must keep: history, wrapped lines,
    /// lines whose `used` and `size` differ from their cells, colours (more than the palette
    /// keeps without an index), combined and wide characters, odd tab stops, a coloured erase,
    /// and the alternate screen on over a saved primary screen.
    fn busy_terminal() -> Terminal {
        let mut t = Terminal::new(40, 6, 100);
        for i in 0..90u32 {
            t.feed(
                format!("\x1b[38;5;{i}mline {i} e\u{301} \u{4e2d}\u{6587}\x1b[m   \r\n").as_bytes(),
            );
        }
        t.feed(&[b'w'; 95]);
        t.feed(b"\r\n\x1b[3g\x1b[5G\x1bH\x1b[23G\x1bH\r\tx\ty\x1b[44m\x1b[K\x1b[m\r\n");
        t.resize(33, 6);
        t.feed(b"\x1b[?1049h\x1b[2;4r\x1b[3Halt \xf0\x9f\x98\x80\x1b[1;31mred");
        t
    }

    fn capture(t: &Terminal, escapes: bool) -> Vec<u8> {
        t.capture(&CaptureOptions {
            start: Some(LineSpec::Edge),
            escapes,
            no_trim: true,
            ..Default::default()
        })
    }

    /// Rows (counts and cells), styles and graphemes of two screens are the same.
    fn assert_same_cells(a: &Screen, b: &Screen) {
        let grids = |s: &Screen| -> Vec<Grid> {
            std::iter::once(&s.grid)
                .chain(s.saved_grid())
                .cloned()
                .collect()
        };
        let (ga, gb) = (grids(a), grids(b));
        assert_eq!(ga.len(), gb.len());
        for (x, y) in ga.iter().zip(&gb) {
            assert_eq!((x.hsize, x.sy, x.sx), (y.hsize, y.sy, y.sx));
            fn lines(g: &Grid) -> Vec<Cow<'_, Row>> {
                g.all_lines().collect()
            }
            let (lx, ly) = (lines(x), lines(y));
            assert_eq!(lx.len(), ly.len());
            for (i, (r, s)) in lx.iter().zip(&ly).enumerate() {
                let cells = |row: &Row| {
                    let mut v = Vec::new();
                    row.read_into(&mut v);
                    while v.last() == Some(&crate::term::cell::Cell::BLANK) {
                        v.pop();
                    }
                    v
                };
                assert_eq!(
                    (r.used, r.size, r.wrapped),
                    (s.used, s.size, s.wrapped),
                    "row {i}"
                );
                assert_eq!(cells(r), cells(s), "row {i}");
            }
        }
        assert_eq!(a.palette.len(), b.palette.len());
        for i in 0..a.palette.len() as u32 {
            assert_eq!(a.palette.get(i), b.palette.get(i));
        }
        assert_eq!(a.graphemes.len(), b.graphemes.len());
        for i in 0..a.graphemes.len() as u32 {
            assert_eq!(a.graphemes.get(i), b.graphemes.get(i));
        }
    }

    #[test]
    fn the_busy_terminal_has_what_it_should() {
        let t = busy_terminal();
        let s = t.screen();
        assert!(t.alternate_on() && t.history_size() > 50);
        assert!(s.palette.len() > 64 && !s.graphemes.is_empty());
        let saved = s.saved_grid().unwrap();
        let rows = s.grid.all_lines().chain(saved.all_lines());
        let odd = rows.filter(|r| ![0, 8, 16, 33].contains(&r.size)).count();
        assert!(odd > 0, "no row with a size the size codes miss");
    }

    #[test]
    fn freezing_and_thawing_gives_back_every_cell_count_and_table() {
        let mut t = busy_terminal();
        let twin = t.clone();
        t.freeze();
        assert!(t.is_frozen() && !t.is_cold());
        assert_eq!(t.screen.grid.heap_bytes(), t.screen.grid.sealed_bytes());
        assert_same_cells(t.screen(), twin.screen());
        t.thaw();
        assert!(!t.is_frozen());
        assert_same_cells(t.screen(), twin.screen());
        assert_eq!(t.cursor(), twin.cursor());
        // Tab stops, scroll region, the pen and the alternate screen act as before.
        let mut twin = twin;
        for term in [&mut t, &mut twin] {
            term.feed(b"\rA\tB\tC\x1b[4;1HD\r\n\r\nE\x1b[?1049lF\ttab");
        }
        assert_eq!(capture(&t, true), capture(&twin, true));
        assert_same_cells(t.screen(), twin.screen());
    }

    #[test]
    fn a_frozen_terminal_reads_as_before_and_holds_less() {
        let mut t = busy_terminal();
        let twin = t.clone();
        // The alternate screen is on: the saved grid's box stays, frozen or not.
        let boxed = std::mem::size_of::<crate::term::grid::Grid>();
        let hot = t.heap_bytes();
        t.freeze();
        let frozen = t.heap_bytes();
        assert!(
            t.frozen_bytes() > 0 && frozen - boxed < (hot - boxed) / 2,
            "{frozen} of {hot}"
        );
        let kept = frozen - t.frozen_bytes() - t.sealed_bytes();
        assert!(kept <= t.title().len() + 64 + boxed);
        for escapes in [false, true] {
            assert_eq!(capture(&t, escapes), capture(&twin, escapes));
            let opts = CaptureOptions {
                escapes,
                ..Default::default()
            };
            assert_eq!(t.capture_alternate(&opts), twin.capture_alternate(&opts));
        }
        assert_eq!(t.cursor_character(), twin.cursor_character());
        assert_eq!(t.heap_bytes(), frozen, "a capture keeps no copy");
        assert!(t.is_frozen());
        t.screen();
        assert!(
            t.heap_bytes() > frozen,
            "the copy screen() keeps is counted"
        );
        t.set_title("renamed");
        assert_eq!(
            t.screen().title,
            "renamed",
            "the kept copy follows the title"
        );
        t.thaw();
        assert_eq!(t.frozen_bytes(), 0);
    }

    #[test]
    fn freezing_twice_or_thawing_a_hot_terminal_changes_nothing() {
        let mut t = busy_terminal();
        t.thaw();
        assert!(!t.is_frozen());
        t.freeze();
        let chunk = match &t.storage {
            Storage::Frozen(c) => c.as_ptr(),
            _ => unreachable!(),
        };
        t.freeze();
        assert!(matches!(&t.storage, Storage::Frozen(c) if c.as_ptr() == chunk));
        t.thaw();
        t.thaw();
        assert!(!t.is_frozen());
    }

    #[test]
    fn changing_rows_thaws_first() {
        type Change = fn(&mut Terminal);
        let changes: [Change; 3] = [
            |t| t.feed(b"more\r\n"),
            |t| t.resize(50, 9),
            Terminal::clear_history,
        ];
        for change in changes {
            let mut t = busy_terminal();
            let mut twin = t.clone();
            t.freeze();
            change(&mut t);
            change(&mut twin);
            assert!(!t.is_frozen());
            assert_same_cells(t.screen(), twin.screen());
            assert_eq!(capture(&t, true), capture(&twin, true));
        }
    }

    /// A thaw leaves the history lines but the newest frozen: every change and reader must
    /// find them as if they had been thawed, with the history at its limit, across freezes.
    #[test]
    fn history_left_frozen_by_a_thaw_acts_as_thawed() {
        changes_act_on_frozen_history_as_on_rows(busy_terminal());
    }

    /// The same with a history long enough to be sealed at a freeze, and pushed past its limit
    /// through sealed segments.
    #[test]
    fn history_sealed_at_a_freeze_acts_as_thawed() {
        let mut t = Terminal::new(60, 8, 2000);
        for i in 0..1800u32 {
            let line = format!(
                "\x1b[38;5;{}m{i:5} tool e\u{301} \u{4e2d} -> ok\x1b[m\r\n",
                i % 200
            );
            t.feed(line.as_bytes());
        }
        t.feed(b"\x1b[?1049h\x1b[2;4r\x1b[3Halt \xf0\x9f\x98\x80\x1b[1;31mred");
        let mut probe = t.clone();
        probe.freeze();
        assert!(probe.sealed_bytes() > 0, "nothing was sealed");
        changes_act_on_frozen_history_as_on_rows(t);
    }

    fn changes_act_on_frozen_history_as_on_rows(mut t: Terminal) {
        type Change = fn(&mut Terminal);
        let changes: [Change; 12] = [
            |t| t.feed(b"\x1b[?1049l"),
            |t| (0..30).for_each(|i| t.feed(format!("more {i}\r\n").as_bytes())),
            |t| t.feed(b"\x1b[H\x1b[2K"),
            |t| t.feed(b"\x1b[2;5r\x1b[2H\x1b[L\x1b[M\x1b[r"),
            |t| t.feed(b"\x1b[1;4r\x1b[4H\n\n\x1b[r"),
            |t| t.feed(b"\x1b[2J"),
            |t| {
                (0..150).for_each(|i| {
                    t.feed(format!("\x1b[3{}mpast the limit {i}\r\n", i % 8).as_bytes())
                })
            },
            |t| (0..600).for_each(|i| t.feed(format!("\x1b[38;2;{i};1;1mX").as_bytes())),
            |t| t.resize(25, 9),
            |t| t.resize(60, 4),
            |t| t.feed(b"\x1b[?1049hx\x1b[?1049l"),
            Terminal::clear_history,
        ];
        let mut twin = t.clone();
        for (i, change) in changes.iter().enumerate() {
            t.freeze();
            for term in [&mut t, &mut twin] {
                change(term);
                change(term);
            }
            assert_same_cells(t.screen(), twin.screen());
            assert_eq!(capture(&t, true), capture(&twin, true), "change {i}");
            assert_eq!(t.history_bytes(), twin.history_bytes(), "change {i}");
            assert_eq!(t.history_size(), twin.history_size(), "change {i}");
        }
    }

    /// History lines but the newest are frozen at the end of each write, and sealed once
    /// enough wait when the host says the screen is quiet, or at a freeze: a long history
    /// costs a fraction of its rows, hot, frozen or thawed.
    #[test]
    fn history_is_kept_frozen_and_sealed_in_a_fraction_of_its_rows() {
        let mut t = Terminal::new(220, 80, 2000);
        (0..2100).for_each(|i| t.feed(format!("\x1b[3{}mline {i}\r\n", i % 8).as_bytes()));
        let grid = &t.screen.grid;
        let as_rows: usize = grid
            .all_lines()
            .map(|r| r.heap_bytes() + std::mem::size_of::<Row>())
            .sum();
        let frozen = grid.heap_bytes();
        assert!(grid.frozen_lines() == grid.hsize - 1 && grid.sealed_bytes() == 0);
        assert!(frozen < as_rows / 2, "{frozen} bytes for {as_rows} of rows");
        let mut twin = t.clone();
        t.seal_history(&mut Compressor::default());
        let sealed = t.screen.grid.heap_bytes();
        assert!(t.screen.grid.sealed_bytes() > 0);
        assert!(
            sealed < frozen / 4,
            "{sealed} bytes sealed, {frozen} frozen"
        );
        twin.freeze();
        assert!(twin.sealed_bytes() > 0, "a freeze seals too");
        for term in [&mut t, &mut twin] {
            term.feed(b"new\r\n");
        }
        assert!(capture(&t, true) == capture(&twin, true));
        assert!(t.screen.grid.heap_bytes() <= sealed + sealed / 8);
    }

    /// Styles no cell uses any more are released without touching the history: frozen and
    /// sealed lines keep their bytes and their styles' ids, new styles take the released ids.
    #[test]
    fn releasing_styles_leaves_frozen_and_sealed_history_alone() {
        let mut t = Terminal::new(80, 10, 2000);
        for i in 0..1500u32 {
            let line = format!("\x1b[38;2;{};{};7m{i:5} history\r\n", i % 256, i / 256);
            t.feed(line.as_bytes());
        }
        t.seal_history(&mut Compressor::default());
        let before = capture(&t, true);
        let (sealed, frozen) = (t.sealed_bytes(), t.screen.grid.frozen_lines());
        let history = t.history_size() as usize;
        assert!(sealed > 0 && frozen as usize == history - 1);
        // 4000 styles written one over the other: all but the last fall out of use.
        for k in 0..4000u32 {
            t.feed(format!("\x1b[H\x1b[38;2;1;{};{}mX", k % 256, k / 256).as_bytes());
        }
        let p = &t.screen.palette;
        assert!(
            p.live() < 3100 && p.len() < 3100,
            "{} styles held in {} ids",
            p.live(),
            p.len()
        );
        assert_eq!(t.sealed_bytes(), sealed, "the sealed lines were rewritten");
        assert_eq!(t.screen.grid.frozen_lines(), frozen);
        let after = capture(&t, true);
        let lines = |c: &[u8]| -> Vec<Vec<u8>> {
            c.split(|&b| b == b'\n')
                .take(history)
                .map(<[u8]>::to_vec)
                .collect()
        };
        assert!(lines(&before) == lines(&after), "the history changed");
        let screen = String::from_utf8_lossy(&after[after.len() - 2000..]).into_owned();
        assert!(screen.contains("\x1b[38;2;1;159;15mX"), "{screen:?}");
    }

    #[test]
    fn changes_that_leave_rows_alone_keep_the_terminal_frozen() {
        let mut t = busy_terminal();
        t.feed(b"\x1b[6n\x1b]0;unterminated");
        t.freeze();
        assert!(t.has_replies() && t.in_string());
        assert!(!t.take_replies().is_empty());
        t.abandon_string();
        t.set_title("x");
        assert!(t.is_frozen());
    }

    #[test]
    fn a_taken_chunk_comes_back() {
        let mut t = busy_terminal();
        let twin = t.clone();
        assert!(t.take_frozen().is_none(), "a hot terminal has no chunk");
        t.freeze();
        let frozen = t.heap_bytes();
        let chunk = t.take_frozen().expect("frozen");
        assert!(t.is_cold() && !t.is_frozen());
        assert_eq!(t.frozen_bytes(), 0);
        assert_eq!(t.heap_bytes(), frozen - chunk.len());
        assert!(t.take_frozen().is_none());
        t.restore_frozen(chunk);
        assert!(t.is_frozen());
        assert_eq!(t.heap_bytes(), frozen);
        t.feed(b"");
        assert_same_cells(t.screen(), twin.screen());
    }

    /// Thawing a cold terminal is the caller's mistake: debug builds stop on it; release builds
    /// keep the terminal cold and its chunk welcome, and show blank rows meanwhile.
    #[test]
    #[cfg_attr(debug_assertions, should_panic(expected = "cold terminal"))]
    fn a_cold_terminal_stays_cold_and_loses_nothing() {
        let mut t = busy_terminal();
        let twin = t.clone();
        t.freeze();
        let chunk = t.take_frozen().unwrap();
        t.feed(b"dropped");
        t.resize(10, 2);
        t.thaw();
        assert!(t.is_cold());
        assert_eq!(
            (t.cols(), t.rows(), t.history_size()),
            (33, 6, twin.history_size())
        );
        let lines = twin.history_size() as usize + 6;
        assert_eq!(
            capture(&t, true),
            vec![b'\n'; lines],
            "readers see blank rows"
        );
        t.restore_frozen(vec![0; 3].into_boxed_slice());
        assert!(t.is_cold(), "a chunk of another length is refused");
        t.restore_frozen(chunk);
        t.thaw();
        assert_same_cells(t.screen(), twin.screen());
    }

    #[test]
    fn a_blank_screen_freezes_into_a_byte_a_row() {
        let mut t = Terminal::new(220, 80, 2000);
        t.freeze();
        // The length of the history lines a thaw leaves frozen (none), 80 rows, then empty
        // palette and grapheme table and the default tab stops.
        assert_eq!(t.frozen_bytes(), 8 + 80 + 3);
    }
}
