//! The grid: history lines followed by the visible lines, and the line operations tmux's grid
//! performs on them.
//!
//! Rows are kept in one ring buffer (`VecDeque`): indices `0..hsize` are history (oldest first)
//! and `hsize..hsize + sy` the visible screen. A ring, because a full history drops its oldest
//! lines as new ones scroll in: removing them from the front of a `Vec` moved every other row,
//! 12% of the instructions parsing a 5.4 MB coloured log (callgrind, `examples/replay`).
//! Methods named `view_*` take visible coordinates; the others take absolute row indices.
//! Every operation follows tmux 3.3a's grid.c and grid-view.c closely, including what they do
//! to `used`/`size` and to wrap flags, because capture output (`-J`, `-N`, `-e`) depends on
//! those details.
//!
//! Counts are unsigned and wrap exactly where tmux's `u_int` arithmetic wraps (a region edit
//! can ask to clear a "negative" number of lines, which tmux's range checks then turn into
//! doing nothing but clearing a wrap flag); such spots use explicit wrapping operations.
//!
//! A grid keeps its history lines but the newest frozen after each write (`frozen`, see
//! `frozen_lines.rs`): `rows[0]` is then line `frozen.lines()`. Row accessors take absolute
//! line numbers and translate; an operation that would change a frozen line turns the lines
//! into rows first.
//!
//! Invariants: `frozen.lines() + rows.len() == hsize + sy`, except while the terminal is
//! frozen, when the rows live in the terminal's chunk, `rows` is empty and only sealed lines
//! are kept frozen here (the counts still describe them); frozen lines are history lines but
//! never the newest one (clearing the line under it may change its wrap flag), so
//! `frozen.lines() == 0` or `frozen.lines() < hsize`;
//! `hscrolled <= hsize`; a row never stores cells past its `size`. Background colours arrive
//! as palette indices of an erase style (0 = default).

use super::cell::{Cell, StyleId};
use super::frozen_lines::{Compressor, FrozenLines};
use super::row::Row;
use std::borrow::Cow;
use std::collections::VecDeque;
use std::ops::Range;

#[derive(Clone, Debug)]
pub struct Grid {
    /// The lines from `frozen.lines()` on.
    rows: VecDeque<Row>,
    /// The oldest history lines, still in their frozen form.
    frozen: FrozenLines,
    pub sx: u32,
    pub sy: u32,
    pub hsize: u32,
    pub hlimit: u32,
    /// History lines that were scrolled off the screen (rather than cleared into history); a
    /// taller resize pulls these back.
    pub hscrolled: u32,
    /// Lines that scroll off the top go into history (off on the alternate screen).
    pub history: bool,
    /// History rows, counted back from the newest, that have not been packed yet.
    pub unpacked_history: u32,
    /// Working space for packing rows, reused across writes.
    scratch: Vec<u8>,
}

impl Grid {
    pub fn new(sx: u32, sy: u32, hlimit: u32) -> Grid {
        Grid {
            rows: rows_with_room(sy as usize),
            frozen: FrozenLines::default(),
            sx,
            sy,
            hsize: 0,
            hlimit,
            hscrolled: 0,
            history: hlimit != 0,
            unpacked_history: 0,
            scratch: Vec::new(),
        }
    }

    /// Every line as a row, oldest first: frozen history lines are turned into rows first.
    pub fn rows_mut(&mut self) -> impl Iterator<Item = &mut Row> {
        self.thaw_history();
        self.rows.iter_mut()
    }

    /// The lines in `range` (absolute), frozen history lines decoded.
    pub fn lines(&self, range: Range<u32>) -> impl Iterator<Item = Cow<'_, Row>> {
        let frozen = self.frozen.lines();
        let hot = range.start.max(frozen)..range.end.max(frozen);
        let decoded = self
            .frozen
            .rows_from(range.start, self.sx)
            .take(range.end.min(frozen).saturating_sub(range.start) as usize);
        let hot = self
            .rows
            .range((hot.start - frozen) as usize..(hot.end - frozen) as usize);
        decoded.map(Cow::Owned).chain(hot.map(Cow::Borrowed))
    }

    /// Every line, oldest first, frozen history lines decoded.
    pub fn all_lines(&self) -> impl Iterator<Item = Cow<'_, Row>> {
        self.lines(0..self.total())
    }

    /// Calls `f` with cells that together name every style and grapheme the grid's cells name,
    /// frozen lines included, none decoded (see [`Row::frozen_names`]).
    pub fn for_each_name(&self, mut f: impl FnMut(Cell)) {
        self.frozen.for_each_name(&mut f);
        self.rows.iter().for_each(|row| row.for_each_name(&mut f));
    }

    /// The history lines kept frozen (the first line held as a row is this one).
    pub fn frozen_lines(&self) -> u32 {
        self.frozen.lines()
    }

    /// The lines held as rows: from [`Grid::frozen_lines`] on.
    pub fn rows(&self) -> &VecDeque<Row> {
        &self.rows
    }

    /// Index in `rows` of absolute line `y` (a line that is not frozen).
    #[inline]
    fn hot(&self, y: u32) -> usize {
        debug_assert!(y >= self.frozen.lines(), "line {y} is frozen");
        y.wrapping_sub(self.frozen.lines()) as usize
    }

    /// A line that is not frozen (a frozen line reads blank: readers of history go through
    /// [`Grid::lines`]).
    #[inline]
    pub fn row(&self, y: u32) -> &Row {
        static BLANK: std::sync::OnceLock<Row> = std::sync::OnceLock::new();
        self.rows
            .get(self.hot(y))
            .unwrap_or_else(|| BLANK.get_or_init(Row::new))
    }

    #[inline]
    pub fn row_mut(&mut self, y: u32) -> &mut Row {
        if y < self.frozen.lines() {
            self.thaw_history();
        }
        let i = self.hot(y);
        &mut self.rows[i]
    }

    /// Turns the frozen history lines into rows.
    pub fn thaw_history(&mut self) {
        if self.frozen.lines() == 0 {
            return;
        }
        let frozen = std::mem::take(&mut self.frozen);
        let mut rows = VecDeque::with_capacity(frozen.lines() as usize + self.rows.capacity());
        rows.extend(frozen.rows_from(0, self.sx));
        rows.append(&mut self.rows);
        self.rows = rows;
    }

    #[inline]
    pub fn view_row(&self, y: u32) -> &Row {
        self.row(self.hsize + y)
    }

    #[inline]
    pub fn view_row_mut(&mut self, y: u32) -> &mut Row {
        let h = self.hsize;
        self.row_mut(h + y)
    }

    pub fn total(&self) -> u32 {
        self.hsize + self.sy
    }

    fn in_range(&self, y: u32) -> bool {
        y < self.total()
    }

    /// Extends a line's `size` to cover `want` cells, rounding up as tmux does.
    fn expand_line(&mut self, y: u32, want: u32, bg: StyleId) {
        let sx = self.sx;
        let row = self.row_mut(y);
        let size = row.size as u32;
        if want <= size {
            return;
        }
        let n = rounded_size(want, sx);
        if bg != 0 {
            row.write(size as usize, blanks(bg, n - size));
        }
        row.size = n.min(u16::MAX as u32) as u16;
    }

    /// Empties a line; with a coloured background it is filled with that colour.
    pub fn empty_line(&mut self, y: u32, bg: StyleId) {
        self.row_mut(y).clear();
        if bg != 0 {
            let sx = self.sx;
            self.expand_line(y, sx, bg);
        }
    }

    #[inline]
    pub fn get_cell(&self, x: u32, y: u32) -> Cell {
        if !self.in_range(y) {
            return Cell::BLANK;
        }
        let row = self.row(y);
        if x >= row.size as u32 {
            Cell::BLANK
        } else {
            row.get(x as usize)
        }
    }

    /// Whether any of the `n` cells from `x` on line `y` is the padding of a wide character.
    pub fn has_padding(&self, x: u32, y: u32, n: u32) -> bool {
        if !self.in_range(y) {
            return false;
        }
        let row = self.row(y);
        if row.is_narrow() {
            return false;
        }
        let n = n.min((row.size as u32).saturating_sub(x));
        row.any_in(x as usize, n as usize, Cell::is_padding)
    }

    /// No cell of line `y` is wide or padding, so a write there cuts no wide character (false
    /// when that is not known).
    pub fn is_narrow(&self, y: u32) -> bool {
        !self.in_range(y) || self.row(y).is_narrow()
    }

    pub fn set_cell(&mut self, x: u32, y: u32, cell: Cell) {
        if !self.in_range(y) {
            return;
        }
        self.expand_line(y, x + 1, 0);
        let row = self.row_mut(y);
        if x + 1 > row.used as u32 {
            row.used = (x + 1) as u16;
        }
        row.set(x as usize, cell);
    }

    /// Writes a run of ASCII characters in one style (tmux's `grid_set_cells`).
    pub fn set_ascii(&mut self, x: u32, y: u32, style: StyleId, text: &[u8]) {
        let cells = text.iter().map(|&b| Cell::new(b as u32, style));
        self.write_cells(x, y, cells);
    }

    /// Writes `n` copies of one cell from `x`.
    pub fn fill(&mut self, x: u32, y: u32, cell: Cell, n: u32) {
        self.write_cells(x, y, std::iter::repeat_n(cell, n as usize));
    }

    fn write_cells(&mut self, x: u32, y: u32, cells: impl ExactSizeIterator<Item = Cell> + Clone) {
        if !self.in_range(y) || cells.len() == 0 {
            return;
        }
        let end = x + cells.len() as u32;
        self.expand_line(y, end, 0);
        let row = self.row_mut(y);
        if end > row.used as u32 {
            row.used = end as u16;
        }
        row.write(x as usize, cells);
    }

    fn clear_cell(&mut self, x: u32, y: u32, bg: StyleId) {
        self.row_mut(y).set(x as usize, Cell::blank(bg));
    }

    /// Clears a rectangle (absolute rows).
    pub fn clear(&mut self, px: u32, py: u32, nx: u32, ny: u32, bg: StyleId) {
        if nx == 0 || ny == 0 {
            return;
        }
        if px == 0 && nx == self.sx {
            self.clear_lines(py, ny, bg);
            return;
        }
        let end = py.wrapping_add(ny);
        if !self.in_range(py) || !self.in_range(end.wrapping_sub(1)) {
            return;
        }
        for y in py..end {
            let size = self.sx.min(self.row(y).size as u32);
            let mut ox = nx;
            if bg == 0 {
                if px > size {
                    continue;
                }
                if px.wrapping_add(nx) > size {
                    ox = size - px;
                }
            }
            let stop = px.wrapping_add(ox);
            self.expand_line(y, stop, 0);
            let row = self.row_mut(y);
            if bg == 0 && stop as usize >= row.stored_len() {
                // Default blanks to the end of the stored cells: the row ends at `px`. Agent
                // TUIs end every line they redraw so (`ESC [K`); comparing the blanks with the
                // packed line was most of the instructions `redraw`'s frames no longer take
                // (1.18x fewer; BENCHMARKS.md, "Parse cost").
                row.truncate(px as usize);
            } else if stop > px {
                // One write for the run: cell by cell, each compared with a packed row from
                // its start, a line's erase was a tenth of parsing an agent trace (callgrind).
                row.write(px as usize, blanks(bg, stop - px));
            }
        }
    }

    pub fn clear_lines(&mut self, py: u32, ny: u32, bg: StyleId) {
        let end = py.wrapping_add(ny);
        if ny == 0 || !self.in_range(py) || !self.in_range(end.wrapping_sub(1)) {
            return;
        }
        for y in py..end {
            self.empty_line(y, bg);
        }
        if py != 0 {
            self.row_mut(py - 1).wrapped = false;
        }
    }

    /// Moves `ny` lines from `py` to `dy`, emptying the lines left behind.
    pub fn move_lines(&mut self, dy: u32, py: u32, ny: u32, bg: StyleId) {
        if ny == 0 || py == dy {
            return;
        }
        if !self.in_range(py)
            || !self.in_range(py.wrapping_add(ny).wrapping_sub(1))
            || !self.in_range(dy)
            || !self.in_range(dy.wrapping_add(ny).wrapping_sub(1))
        {
            return;
        }
        if dy != 0 {
            self.row_mut(dy - 1).wrapped = false;
        }
        if py.min(dy) < self.frozen.lines() {
            self.thaw_history();
        }
        let (py_, dy_, ny_) = (self.hot(py), self.hot(dy), ny as usize);
        let rows = self.rows.make_contiguous();
        if dy < py {
            rows[dy_..py_ + ny_].rotate_left(py_ - dy_);
        } else {
            rows[py_..dy_ + ny_].rotate_right(dy_ - py_);
        }
        for y in py..py + ny {
            if y < dy || y >= dy + ny {
                self.empty_line(y, bg);
            }
        }
        if py != 0 && (py < dy || py >= dy + ny) {
            self.row_mut(py - 1).wrapped = false;
        }
    }

    /// Moves `nx` cells of a line from `px` to `dx`, clearing the cells left behind.
    pub fn move_cells(&mut self, dx: u32, px: u32, py: u32, nx: u32, bg: StyleId) {
        if nx == 0 || px == dx || !self.in_range(py) {
            return;
        }
        self.expand_line(py, px + nx, 0);
        self.expand_line(py, dx + nx, 0);
        let row = self.row_mut(py);
        let cells = row.cells_mut();
        let need = (px.max(dx) + nx) as usize;
        if cells.len() < need {
            cells.resize(need, Cell::BLANK);
        }
        cells.copy_within(px as usize..(px + nx) as usize, dx as usize);
        if dx + nx > row.used as u32 {
            row.used = (dx + nx) as u16;
        }
        for x in px..px + nx {
            if x < dx || x >= dx + nx {
                self.clear_cell(x, py, bg);
            }
        }
    }

    /// Drops the oldest tenth of the history when it is at its limit (tmux frees history in
    /// chunks, which decides how much `capture-pane -S -` shows).
    pub fn collect_history(&mut self) {
        if self.hsize == 0 || self.hsize < self.hlimit {
            return;
        }
        let ny = (self.hlimit / 10).max(1).min(self.hsize);
        let from_frozen = ny.min(self.frozen.lines());
        self.frozen.drop_oldest(from_frozen);
        self.rows.drain(..(ny - from_frozen) as usize);
        self.hsize -= ny;
        self.hscrolled = self.hscrolled.min(self.hsize);
        self.unpacked_history = self.unpacked_history.min(self.hsize);
    }

    /// Scrolls the whole screen up one line into the history.
    pub fn scroll_history(&mut self, bg: StyleId) {
        self.rows.push_back(Row::new());
        let y = self.total();
        self.empty_line(y, bg);
        self.hscrolled += 1;
        self.hsize += 1;
        self.unpacked_history += 1;
    }

    /// What `n` calls of [`Grid::view_scroll_region_up`] over the whole screen do, history on,
    /// in one step: the counts follow each scroll and each trim of the history, but only the
    /// lines that remain are touched (a line both added and trimmed within the `n` is never
    /// made). For line feeds over doomed text (`doomed.rs`): the 5.4 MB coloured log's 60,000
    /// line feeds cost 10M of its 134M instructions one at a time, 5M so (callgrind,
    /// `examples/replay`).
    pub fn scroll_screen_up(&mut self, n: u32, bg: StyleId) {
        debug_assert!(self.history);
        let (mut hsize, mut hscrolled, mut unpacked) =
            (self.hsize, self.hscrolled, self.unpacked_history);
        let mut trimmed = 0u64;
        for _ in 0..n {
            if hsize != 0 && hsize >= self.hlimit {
                let ny = (self.hlimit / 10).max(1).min(hsize);
                hsize -= ny;
                trimmed += u64::from(ny);
                hscrolled = hscrolled.min(hsize);
                unpacked = unpacked.min(hsize);
            }
            hsize += 1;
            hscrolled += 1;
            unpacked += 1;
        }
        let before = u64::from(self.total());
        let old_dropped = trimmed.min(before) as u32;
        let new_kept = n - (trimmed - u64::from(old_dropped)) as u32;
        let from_frozen = old_dropped.min(self.frozen.lines());
        self.frozen.drop_oldest(from_frozen);
        self.rows.drain(..(old_dropped - from_frozen) as usize);
        (self.hsize, self.hscrolled, self.unpacked_history) = (hsize, hscrolled, unpacked);
        let first_new = self.total() - new_kept;
        for y in first_new..self.total() {
            self.rows.push_back(Row::new());
            self.empty_line(y, bg);
        }
    }

    /// Scrolls a region up, moving its top line into the history.
    fn scroll_history_region(&mut self, upper: u32, lower: u32, bg: StyleId) {
        let line = self.rows.remove(self.hot(upper)).unwrap_or_default();
        self.rows.insert(self.hot(self.hsize), line);
        self.rows.insert(self.hot(lower) + 1, Row::new());
        self.hscrolled += 1;
        self.hsize += 1;
        self.unpacked_history += 1;
        self.empty_line(lower + 1, bg);
    }

    pub fn clear_history(&mut self) {
        self.rows.drain(..self.hot(self.hsize));
        self.frozen = FrozenLines::default();
        self.hscrolled = 0;
        self.hsize = 0;
        self.unpacked_history = 0;
        self.rows.shrink_to_fit();
    }

    /// Removes `ny` lines from the bottom of the history (the visible rows move up over them).
    pub fn remove_history(&mut self, ny: u32) {
        if ny > self.hsize {
            return;
        }
        self.thaw_history();
        let end = self.total() as usize;
        self.rows.truncate(end - ny as usize);
        self.hsize -= ny;
    }

    /// Resizes the row array to `hsize + sy` rows for a new height (rows added are empty).
    pub fn set_line_count(&mut self, n: u32) {
        self.thaw_history();
        self.rows.resize_with(n as usize, Row::new);
    }

    // ---- visible-coordinate operations (grid-view.c) ----

    pub fn view_clear(&mut self, px: u32, py: u32, nx: u32, ny: u32, bg: StyleId) {
        self.clear(px, self.hsize + py, nx, ny, bg);
    }

    /// Pushes the used part of the screen into history (a clear with scroll-on-clear).
    pub fn view_clear_history(&mut self, bg: StyleId) {
        let last = (0..self.sy)
            .filter(|&y| self.view_row(y).used != 0)
            .map(|y| y + 1)
            .max()
            .unwrap_or(0);
        if last == 0 {
            self.view_clear(0, 0, self.sx, self.sy, bg);
            return;
        }
        for _ in 0..last {
            self.collect_history();
            self.scroll_history(bg);
        }
        if last < self.sy {
            self.view_clear(0, 0, self.sx, self.sy - last, bg);
        }
        self.hscrolled = 0;
    }

    pub fn view_scroll_region_up(&mut self, rupper: u32, rlower: u32, bg: StyleId) {
        if self.history {
            self.collect_history();
            if rupper == 0 && rlower == self.sy - 1 {
                self.scroll_history(bg);
            } else {
                let h = self.hsize;
                self.scroll_history_region(h + rupper, h + rlower, bg);
            }
        } else {
            let h = self.hsize;
            self.move_lines(h + rupper, h + rupper + 1, rlower - rupper, bg);
        }
    }

    pub fn view_scroll_region_down(&mut self, rupper: u32, rlower: u32, bg: StyleId) {
        let h = self.hsize;
        self.move_lines(h + rupper + 1, h + rupper, rlower - rupper, bg);
    }

    pub fn view_insert_lines(&mut self, py: u32, ny: u32, bg: StyleId) {
        let h = self.hsize;
        let (py, sy) = (h + py, h + self.sy);
        self.move_lines(py + ny, py, sy - py - ny, bg);
    }

    pub fn view_insert_lines_region(&mut self, rlower: u32, py: u32, ny: u32, bg: StyleId) {
        let h = self.hsize;
        let (rlower, py) = (h + rlower, h + py);
        let ny2 = rlower + 1 - py - ny;
        self.move_lines(rlower + 1 - ny2, py, ny2, bg);
        self.clear(0, py + ny2, self.sx, ny.wrapping_sub(ny2), bg);
    }

    pub fn view_delete_lines(&mut self, py: u32, ny: u32, bg: StyleId) {
        let h = self.hsize;
        let (py, sy) = (h + py, h + self.sy);
        self.move_lines(py, py + ny, sy - py - ny, bg);
        let n = (py + ny).wrapping_sub(sy - ny);
        self.clear(0, sy - ny, self.sx, n, bg);
    }

    pub fn view_delete_lines_region(&mut self, rlower: u32, py: u32, ny: u32, bg: StyleId) {
        let h = self.hsize;
        let (rlower, py) = (h + rlower, h + py);
        let ny2 = rlower + 1 - py - ny;
        self.move_lines(py, py + ny, ny2, bg);
        self.clear(0, py + ny2, self.sx, ny.wrapping_sub(ny2), bg);
    }

    pub fn view_insert_cells(&mut self, px: u32, py: u32, nx: u32, bg: StyleId) {
        let (py, sx) = (self.hsize + py, self.sx);
        if px + 1 >= sx {
            self.clear(px, py, 1, 1, bg);
        } else {
            self.move_cells(px + nx, px, py, sx - px - nx, bg);
        }
    }

    pub fn view_delete_cells(&mut self, px: u32, py: u32, nx: u32, bg: StyleId) {
        let (py, sx) = (self.hsize + py, self.sx);
        self.move_cells(px, px + nx, py, sx - px - nx, bg);
        self.clear(sx - nx, py, (px + nx).wrapping_sub(sx - nx), 1, bg);
    }

    // ---- reflow (grid_reflow) ----

    /// Rewraps every line for a new width `sx` (already stored in `self.sx`), joining wrapped
    /// lines and splitting long ones exactly as tmux does.
    pub fn reflow(&mut self, sx: u32) {
        self.thaw_history();
        let mut src = Reflow {
            rows: std::mem::take(&mut self.rows).into(),
            dead: Vec::new(),
            target: Vec::new(),
            sx,
            hscrolled: self.hscrolled,
        };
        src.dead = vec![false; src.rows.len()];
        src.run();
        let mut target = src.target;
        if (target.len() as u32) < self.sy {
            target.resize_with(self.sy as usize, Row::new);
        }
        self.hsize = target.len() as u32 - self.sy;
        self.hscrolled = src.hscrolled.min(self.hsize);
        self.unpacked_history = self.hsize;
        self.rows = target.into();
    }

    /// Position of (px, py) counted in unwrapped lines (for keeping the cursor across reflow).
    ///
    /// `py` may lie past the last line: leaving the alternate screen restores a cursor saved on
    /// a taller screen before resizing, and tmux then reads past the end of its line array.
    /// What it reads there is undefined, but is most often zeroed memory (blank lines, not
    /// wrapped), so such lines count as that here.
    pub fn wrap_position(&self, px: u32, py: u32) -> (u32, u32) {
        let (mut ax, mut ay) = (0u32, 0u32);
        let line = |y: u32| self.in_range(y).then(|| self.row(y));
        let used = |y: u32| line(y).map_or(0, |r| r.used as u32);
        let wrapped = |y: u32| line(y).is_some_and(|r| r.wrapped);
        for y in 0..py {
            if wrapped(y) {
                ax = ax.wrapping_add(used(y));
            } else {
                ax = 0;
                ay += 1;
            }
        }
        if px >= used(py) {
            ax = u32::MAX;
        } else {
            ax = ax.wrapping_add(px);
        }
        (ax, ay)
    }

    pub fn unwrap_position(&self, wx: u32, wy: u32) -> (u32, u32) {
        let mut ay = 0;
        let mut y = 0;
        while y < self.total() - 1 {
            if ay == wy {
                break;
            }
            if !self.row(y).wrapped {
                ay += 1;
            }
            y += 1;
        }
        // tmux walks past the last line here when it is wrapped; stop at it instead.
        let last = self.total() - 1;
        let mut wx = wx;
        if wx == u32::MAX {
            while y < last && self.row(y).wrapped {
                y += 1;
            }
            wx = self.row(y).used as u32;
        } else {
            while y < last && self.row(y).wrapped {
                if wx < self.row(y).used as u32 {
                    break;
                }
                wx -= self.row(y).used as u32;
                y += 1;
            }
        }
        (wx, y)
    }

    /// Marks every history row for packing (after a resize moved rows in and out of history).
    pub fn mark_history_unpacked(&mut self) {
        self.unpacked_history = self.hsize;
        // A grid that shrank (smaller size, cleared history) gives its spare row slots back.
        if self.rows.capacity() > 2 * self.rows.len() + 64 {
            self.rows.shrink_to_fit();
        }
    }

    /// Packs every row, limiting the work to the visible rows and the history rows scrolled in
    /// since the last pack.
    pub fn pack_rows(&mut self) {
        self.freeze_old_history();
        let first = (self.hsize - self.unpacked_history.min(self.hsize)).max(self.frozen.lines());
        for y in first..self.total() {
            let i = self.hot(y);
            self.rows[i].pack(&mut self.scratch);
        }
        self.unpacked_history = 0;
        // The working space is only needed while packing; quiet screens should not keep it.
        self.scratch = Vec::new();
    }

    /// Appends every row's frozen form to `out` (history first) and lets go of the rows and
    /// working space: the grid is then frozen, its counts kept, its row vector empty, its
    /// sealed lines kept (see `frozen_lines.rs`), having sealed the history lines but the
    /// newest if they are enough.
    ///
    /// The history lines not sealed but the newest come first, after their length in bytes (8
    /// bytes, little endian), so that [`Grid::thaw`] can leave them frozen; lines still frozen
    /// here are copied as they are.
    pub fn freeze_into(&mut self, out: &mut Vec<u8>, scratch: &mut Vec<u8>) {
        self.freeze_old_history();
        self.frozen.seal(&mut Compressor::default());
        let unsealed = self.frozen.unsealed_bytes();
        out.extend_from_slice(&(unsealed.len() as u64).to_le_bytes());
        out.extend_from_slice(unsealed);
        for row in &self.rows {
            row.freeze_into(self.sx, out, scratch);
        }
        self.rows = VecDeque::new();
        self.frozen.keep_sealed();
        self.scratch = Vec::new();
        self.unpacked_history = 0;
    }

    /// Seals the frozen history lines once enough wait (see `frozen_lines.rs`).
    pub fn seal_history(&mut self, sealer: &mut Compressor) {
        self.frozen.seal(sealer);
    }

    /// Freezes the history lines but the newest that are still rows: nothing changes them
    /// any more (see `frozen_lines.rs`).
    fn freeze_old_history(&mut self) {
        let old = self.hot(self.hsize.saturating_sub(1));
        if old > 0 {
            self.frozen
                .append(self.rows.drain(..old), self.sx, &mut self.scratch);
            // A write that scrolled more than the room grew the vector (doubling it); the
            // lines it held have left, and so does the room they took.
            if self.rows.capacity() > self.rows.len() + 2 * SCROLL_ROOM {
                self.rows.shrink_to(self.rows.len() + SCROLL_ROOM);
            }
        }
    }

    /// About how many bytes [`Grid::freeze_into`] appends.
    pub fn frozen_len_hint(&self) -> usize {
        8 + self.frozen.unsealed_bytes().len()
            + self.rows.iter().map(Row::frozen_len_hint).sum::<usize>()
    }

    /// Reads back what [`Grid::freeze_into`] wrote at `at` in `chunk`: the rows (packed), but
    /// not the history lines before the newest, whose place in `chunk` is returned for
    /// [`Grid::keep_frozen`].
    pub fn thaw(&mut self, chunk: &[u8], at: &mut usize) -> Range<usize> {
        let length = chunk[*at..*at + 8]
            .try_into()
            .map_or(0, |b: [u8; 8]| u64::from_le_bytes(b) as usize);
        let history = *at + 8..*at + 8 + length;
        *at = history.end;
        let (sx, total) = (self.sx, self.total());
        let first = self.hsize.saturating_sub(1);
        self.rows = VecDeque::with_capacity((total - first) as usize + SCROLL_ROOM);
        self.rows
            .extend((first..total).map(|_| Row::thaw(chunk, at, sx)));
        history
    }

    /// Keeps the history lines [`Grid::thaw`] left in `chunk` at `history` frozen.
    pub fn keep_frozen(&mut self, chunk: Box<[u8]>, history: Range<usize>) {
        let unsealed = self.hsize.saturating_sub(1) - self.frozen.lines();
        self.frozen.adopt(chunk, history, unsealed);
    }

    /// Gives a frozen grid blank rows (what is read from a screen whose chunk is elsewhere),
    /// sealed lines too: their cells name styles of the palette in the chunk.
    pub fn thaw_blank(&mut self) {
        self.frozen = FrozenLines::default();
        self.set_line_count(self.total());
    }

    /// The part of [`Grid::heap_bytes`] that sealed history lines hold.
    pub fn sealed_bytes(&self) -> usize {
        self.frozen.sealed_bytes()
    }

    pub fn heap_bytes(&self) -> usize {
        self.frozen.heap_bytes()
            + self.rows.capacity() * std::mem::size_of::<Row>()
            + self.rows.iter().map(Row::heap_bytes).sum::<usize>()
            + self.scratch.capacity()
    }
}

/// Row slots a grid keeps beyond its visible rows and its newest history line: for the lines a
/// write scrolls into the history, which leave the row vector when it ends
/// ([`Grid::freeze_old_history`]). Without it the first line scrolled off doubles the vector
/// (an 80-row screen's from 2.5 to 5 KB), and a vector a write grew stays grown: a screen
/// cleared into its history every second kept 10 KB. Eight covers all but 4 of the 713 reads
/// of the Claude Code trace fed to a 220x80 screen (70 scroll, 16 lines at most) and every
/// read of the Gemini CLI trace (`examples/lines_scrolled`); a write that scrolls more grows
/// the vector and gives the growth back at its end.
const SCROLL_ROOM: usize = 8;

/// `n` blank rows, with room for the newest history line and [`SCROLL_ROOM`] more.
fn rows_with_room(n: usize) -> VecDeque<Row> {
    let mut rows = VecDeque::with_capacity(n + 1 + SCROLL_ROOM);
    rows.resize_with(n, Row::new);
    rows
}

/// How far tmux extends a line to hold `want` cells on a grid `sx` wide: a quarter, a half
/// or the whole width, whichever first covers it.
fn rounded_size(want: u32, sx: u32) -> u32 {
    if want < sx / 4 {
        sx / 4
    } else if want < sx / 2 {
        sx / 2
    } else {
        want.max(sx)
    }
}

/// `n` blank cells of background `bg`, for one [`Row::write`].
fn blanks(bg: StyleId, n: u32) -> impl ExactSizeIterator<Item = Cell> + Clone {
    std::iter::repeat_n(Cell::blank(bg), n as usize)
}

/// Working state of one reflow: source rows, which of them are consumed, and the new rows.
struct Reflow {
    rows: Vec<Row>,
    dead: Vec<bool>,
    target: Vec<Row>,
    sx: u32,
    hscrolled: u32,
}

impl Reflow {
    fn run(&mut self) {
        for y in 0..self.rows.len() {
            if self.dead[y] {
                continue;
            }
            let (at, width) = self.line_width(y);
            if width == self.sx {
                self.move_line(y);
            } else if width > self.sx {
                self.split(y, at);
            } else if self.rows[y].wrapped {
                self.join(y, width, false);
            } else {
                self.move_line(y);
            }
        }
    }

    /// (index where the width first exceeds sx, total width) of a source line.
    fn line_width(&mut self, y: usize) -> (u32, u32) {
        let row = &mut self.rows[y];
        let used = row.used as usize;
        // Reflow reads every cell of every line: expanded rows make that linear (the new
        // rows are packed again when the resize ends).
        let cells = row.cells_mut();
        let (mut at, mut width) = (0u32, 0u32);
        for i in 0..used as u32 {
            let w = cells
                .get(i as usize)
                .copied()
                .unwrap_or(Cell::BLANK)
                .width();
            if at == 0 && width + w > self.sx {
                at = i;
            }
            width += w;
        }
        (at, width)
    }

    fn move_line(&mut self, y: usize) {
        let row = std::mem::take(&mut self.rows[y]);
        self.dead[y] = true;
        self.target.push(row);
    }

    /// tmux's grid_set_cell on the target (whose width is the new width).
    fn target_set(&mut self, to: usize, x: u32, cell: Cell) {
        let sx = self.sx;
        let row = &mut self.target[to];
        if x + 1 > row.size as u32 {
            row.size = rounded_size(x + 1, sx).min(u16::MAX as u32) as u16;
        }
        if x + 1 > row.used as u32 {
            row.used = (x + 1) as u16;
        }
        row.set(x as usize, cell);
    }

    fn join(&mut self, y: usize, mut width: u32, already: bool) {
        let to = if already {
            self.target.len() - 1
        } else {
            self.move_line(y);
            self.target.len() - 1
        };
        let mut at = self.target[to].used as u32;
        let n = self.rows.len();
        let mut lines = 0usize;
        let mut from: Option<usize> = None;
        let mut want = 0u32;
        let mut wrapped = true;
        loop {
            if y + 1 + lines == n {
                break;
            }
            let line = y + 1 + lines;
            if !self.rows[line].wrapped {
                wrapped = false;
            }
            if self.rows[line].used == 0 {
                if !wrapped {
                    break;
                }
                lines += 1;
                continue;
            }
            self.rows[line].cells_mut();
            let first = self.rows[line].get(0);
            if width + first.width() > self.sx {
                break;
            }
            width += first.width();
            self.target_set(to, at, first);
            at += 1;
            from = Some(line);
            let used = self.rows[line].used as u32;
            want = 1;
            while want < used {
                let c = self.rows[line].get(want as usize);
                if width + c.width() > self.sx {
                    break;
                }
                width += c.width();
                self.target_set(to, at, c);
                at += 1;
                want += 1;
            }
            lines += 1;
            if !wrapped || want != used || width == self.sx {
                break;
            }
        }
        if lines == 0 {
            return;
        }
        let left = from.map_or(0, |f| self.rows[f].used as u32 - want);
        if let (Some(f), true) = (from, left != 0) {
            let row = &mut self.rows[f];
            let cells = row.cells_mut();
            let end = cells.len().min((want + left) as usize);
            let rest: Vec<Cell> = cells.get(want as usize..end).unwrap_or(&[]).to_vec();
            *cells = rest;
            row.used = left as u16;
            row.size = left as u16;
            lines -= 1;
        } else if !wrapped {
            self.target[to].wrapped = false;
        }
        for i in y + 1..y + 1 + lines {
            self.rows[i] = Row::new();
            self.dead[i] = true;
        }
        let (to, lines) = (to as u32, lines as u32);
        if self.hscrolled > to + lines {
            self.hscrolled -= lines;
        } else if self.hscrolled > to {
            self.hscrolled = to;
        }
    }

    fn split(&mut self, y: usize, at: u32) {
        let used = self.rows[y].used as u32;
        let was_wrapped = self.rows[y].wrapped;
        let mut lines = 2u32;
        let mut width = 0u32;
        for i in at..used {
            let w = self.rows[y].get(i as usize).width();
            if width + w > self.sx {
                lines += 1;
                width = 0;
            }
            width += w;
        }
        let first = self.target.len();
        self.target.extend((0..lines).map(|_| Row::new()));
        let mut line = first + 1;
        width = 0;
        let mut x = 0u32;
        for i in at..used {
            let c = self.rows[y].get(i as usize);
            if width + c.width() > self.sx {
                self.target[line].wrapped = true;
                line += 1;
                width = 0;
                x = 0;
            }
            width += c.width();
            self.target_set(line, x, c);
            x += 1;
        }
        if was_wrapped {
            self.target[line].wrapped = true;
        }
        let mut head = std::mem::take(&mut self.rows[y]);
        head.cells_mut().truncate(at as usize);
        head.used = at as u16;
        head.size = at as u16;
        head.wrapped = true;
        self.target[first] = head;
        self.dead[y] = true;
        if y as u32 <= self.hscrolled {
            self.hscrolled += lines - 1;
        }
        if width < self.sx && was_wrapped {
            self.join(y, width, true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::Terminal;

    /// What a screen 80 rows high keeps in its row vector: the rows, the newest history line
    /// and the room.
    const KEPT: usize = 80 + 1 + SCROLL_ROOM;

    #[test]
    fn lines_scrolled_within_the_room_do_not_grow_the_row_vector() {
        let mut g = Grid::new(220, 80, 2000);
        assert_eq!(g.rows.capacity(), KEPT);
        for _ in 0..3 {
            for _ in 0..SCROLL_ROOM {
                g.scroll_history(StyleId::default());
            }
            g.pack_rows();
            assert_eq!(g.rows.capacity(), KEPT);
        }
    }

    #[test]
    fn a_write_that_scrolls_far_gives_its_growth_back() {
        let mut g = Grid::new(220, 80, 2000);
        g.scroll_screen_up(300, StyleId::default());
        assert!(g.rows.capacity() > 300);
        g.pack_rows();
        assert_eq!((g.rows.len(), g.rows.capacity()), (81, KEPT));
    }

    #[test]
    fn a_thawed_screen_has_the_room_too() {
        let mut t = Terminal::new(220, 80, 2000);
        t.feed(&b"line\r\n".repeat(200));
        t.freeze();
        t.thaw();
        let rows = t.screen().grid.rows();
        assert_eq!((rows.len(), rows.capacity()), (81, KEPT));
    }
}
