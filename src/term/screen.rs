//! The screen: grid, cursor, scroll region, modes, tab stops, title and alternate screen, and
//! the editing operations a terminal performs on them.
//!
//! Each operation follows tmux 3.3a's screen-write.c and screen.c, because the point of this
//! module is that `capture-pane` prints what tmux prints. Where tmux has a quirk (ED 0 at the
//! home position pushes the screen into history; DECSTBM homes the cursor ignoring origin mode;
//! the alternate screen is a saved copy of the visible rows, not a second grid), it is kept.
//!
//! Invariants: `cx <= sx` (`cx == sx` is the pending-wrap position) except after a resize
//! without reflow (alternate screen), where tmux too leaves the cursor where it was until it
//! next moves; `cy < sy`;
//! `rupper < rlower < sy` (or both 0 on a one-line screen); `saved` is `Some` exactly while the
//! alternate screen is on. Colours passed in are tmux colour numbers; they are interned into the
//! palette here.
//!
//! A frozen screen ([`Screen::freeze`]) holds no rows, an empty palette and grapheme table and
//! no tab stops: they are in the chunk freezing returned, and nothing may edit or read the
//! screen's cells until [`Screen::thaw`] puts them back.

use super::cell::{colour, Cell, Graphemes, Palette, Style, StyleId};
use super::frozen_lines::Compressor;
use super::grid::Grid;
use super::row::{get_varint, put_varint};
use std::ops::Range;

/// Mode bits, numbered as tmux numbers them.
pub mod mode {
    pub const CURSOR: u32 = 0x1;
    pub const INSERT: u32 = 0x2;
    pub const KCURSOR: u32 = 0x4;
    pub const KKEYPAD: u32 = 0x8;
    pub const WRAP: u32 = 0x10;
    pub const MOUSE_STANDARD: u32 = 0x20;
    pub const MOUSE_BUTTON: u32 = 0x40;
    pub const CURSOR_BLINKING: u32 = 0x80;
    pub const MOUSE_UTF8: u32 = 0x100;
    pub const MOUSE_SGR: u32 = 0x200;
    pub const BRACKETPASTE: u32 = 0x400;
    pub const FOCUSON: u32 = 0x800;
    pub const MOUSE_ALL: u32 = 0x1000;
    pub const ORIGIN: u32 = 0x2000;
    pub const KEXTENDED: u32 = 0x8000;
    pub const CURSOR_VERY_VISIBLE: u32 = 0x10000;
    pub const CURSOR_BLINKING_SET: u32 = 0x20000;
    pub const ALL_MOUSE: u32 = MOUSE_STANDARD | MOUSE_BUTTON | MOUSE_ALL;
}

/// Largest combined character tmux keeps in one cell, in UTF-8 bytes (tmux's UTF8_SIZE).
const MAX_CELL_BYTES: usize = 21;

#[derive(Clone, Debug)]
pub struct Screen {
    pub grid: Grid,
    pub cx: u32,
    pub cy: u32,
    pub rupper: u32,
    pub rlower: u32,
    pub mode: u32,
    /// Tab stops, one bit a column.
    tabs: Vec<u64>,
    /// The primary screen's visible rows while the alternate screen is on. Boxed: most
    /// screens never have one, and a host holds a `Screen` in every pane (the engine keeps a
    /// window within its allocator's 1,792-byte class this way: see its tests).
    saved: Option<Box<Grid>>,
    saved_history: bool,
    saved_cx: u32,
    saved_cy: u32,
    saved_pen: Style,
    pub title: String,
    titles: Vec<String>,
    pub path: Option<String>,
    pub cursor_style: u8,
    pub palette: Palette,
    pub graphemes: Graphemes,
    /// A zero width joiner was written: the next character joins the previous cell.
    zwj: bool,
    pen_cache: Option<(Style, StyleId)>,
    /// The palette and grapheme table are compacted when a write leaves them this large.
    compact_at: usize,
    graphemes_compact_at: usize,
}

/// The words of the default tab stops on a screen `sx` wide: every eighth column but the first.
fn default_tabs(sx: u32) -> impl Iterator<Item = u64> {
    let sx = sx as usize;
    let words = sx.div_ceil(64);
    (0..words).map(move |i| {
        let mut w = 0x0101_0101_0101_0101u64;
        if i == 0 {
            w &= !1;
        }
        if i == words - 1 && !sx.is_multiple_of(64) {
            w &= (1u64 << (sx % 64)) - 1;
        }
        w
    })
}

/// Below this many styles the palette is never compacted for size (only when full).
const PALETTE_COMPACT_MIN: usize = 64;

/// A table of `len` ids of which only `live` are in use is renumbered: past a quarter the
/// released ids are reused soon enough, and renumbering rewrites every cell.
fn mostly_released(live: usize, len: usize) -> bool {
    len > PALETTE_COMPACT_MIN && 4 * live < len
}

/// How many titles the title stack keeps (XTWINOPS 22/23); the oldest are dropped past this.
const TITLE_STACK_LIMIT: usize = 32;

impl Screen {
    pub fn new(sx: u32, sy: u32, hlimit: u32) -> Screen {
        let (sx, sy) = (sx.clamp(1, u16::MAX as u32), sy.max(1));
        let mut s = Screen {
            grid: Grid::new(sx, sy, hlimit),
            cx: 0,
            cy: 0,
            rupper: 0,
            rlower: sy - 1,
            mode: mode::CURSOR | mode::WRAP,
            tabs: Vec::new(),
            saved: None,
            saved_history: true,
            saved_cx: u32::MAX,
            saved_cy: u32::MAX,
            saved_pen: Style::DEFAULT,
            title: String::new(),
            titles: Vec::new(),
            path: None,
            cursor_style: 0,
            palette: Palette::default(),
            graphemes: Graphemes::default(),
            zwj: false,
            pen_cache: None,
            compact_at: PALETTE_COMPACT_MIN,
            graphemes_compact_at: PALETTE_COMPACT_MIN,
        };
        s.reset_tabs();
        s
    }

    #[inline]
    pub fn sx(&self) -> u32 {
        self.grid.sx
    }

    #[inline]
    pub fn sy(&self) -> u32 {
        self.grid.sy
    }

    pub fn alternate_on(&self) -> bool {
        self.saved.is_some()
    }

    /// Where the cursor was when the alternate screen came on, to go back to when it goes off
    /// (`u32::MAX` for each before any alternate screen, as tmux).
    pub fn alternate_saved_cursor(&self) -> (u32, u32) {
        (self.saved_cx, self.saved_cy)
    }

    /// The primary screen saved while the alternate screen is on (`capture-pane -a`).
    pub fn saved_grid(&self) -> Option<&Grid> {
        self.saved.as_deref()
    }

    pub fn reset_tabs(&mut self) {
        self.tabs = default_tabs(self.sx()).collect();
    }

    pub fn set_tab(&mut self, on: bool) {
        let x = self.cx as usize;
        if let Some(w) = self.tabs.get_mut(x / 64) {
            if on {
                *w |= 1 << (x % 64);
            } else {
                *w &= !(1 << (x % 64));
            }
        }
    }

    pub fn clear_all_tabs(&mut self) {
        self.tabs.iter_mut().for_each(|w| *w = 0);
    }

    fn is_tab(&self, x: u32) -> bool {
        let x = x as usize;
        self.tabs
            .get(x / 64)
            .is_some_and(|w| w & (1 << (x % 64)) != 0)
    }

    /// Forgets the pending zero width joiner (each read from the program starts afresh).
    pub fn begin_write(&mut self) {
        self.zwj = false;
    }

    /// Packs the rows a write touched, the cursor's row too. Keeping that one expanded for the
    /// next write spared its expansion (3.4% and 3.8% of the instructions of feeding the agent
    /// traces a recorded write at a time, `examples/replay` under callgrind) but held up to
    /// 1.3 KB a 220-column screen until the next write: 400 agent replays took 7,755 KiB of
    /// PSS with it kept (packed only at batch boundaries) and 7,420 with it packed, hot screens
    /// 8.7 and 8.0 KB, the server's CPU the same (`BASE=<the build before> ROUNDS=3
    /// bench/scale.sh cast redraw 200 400`, BENCHMARKS.md "The cursor's row packed").
    pub fn end_write(&mut self) {
        self.grid.pack_rows();
        // Programs that draw gradients or change colours all the time leave styles behind that
        // no cell uses any more: release them once the styles held have doubled, which bounds
        // the palette to twice the styles in use at a cost that is linear in the cells (and
        // the frozen lines' bytes), amortised over the growth.
        if self.palette.live() >= self.compact_at
            || self.graphemes.live() >= self.graphemes_compact_at
        {
            self.compact_tables();
            self.compact_at = (2 * self.palette.live()).max(PALETTE_COMPACT_MIN);
            self.graphemes_compact_at = (2 * self.graphemes.live()).max(PALETTE_COMPACT_MIN);
        }
    }

    // ---- styles ----

    /// Palette index of `style`, compacting the palette if it is full.
    pub fn style_index(&mut self, style: &Style) -> StyleId {
        if let Some((s, i)) = self.pen_cache {
            if s == *style {
                return i;
            }
        }
        let i = match self.palette.intern(style) {
            Some(i) => i,
            None => {
                self.compact_tables();
                self.palette.intern(style).unwrap_or(0)
            }
        };
        self.pen_cache = Some((*style, i));
        i
    }

    fn erase_style(&mut self, bg: u32) -> StyleId {
        if bg == colour::DEFAULT {
            0
        } else {
            self.style_index(&Style::erased(bg))
        }
    }

    fn for_each_grid(&mut self, mut f: impl FnMut(&mut Grid)) {
        f(&mut self.grid);
        if let Some(saved) = &mut self.saved {
            f(saved);
        }
    }

    /// Releases the styles and graphemes no cell names any more, their ids going to the next
    /// new ones, and renumbers a table left mostly empty. Releasing reads the cells but changes
    /// none, frozen history lines included (their names are read without decoding them, sealed
    /// ones not at all): renumbering turned every history line into a row and back, a sixth of
    /// the server's time on 200 programs that clear their screen every second (`perf`,
    /// `PERF=dir bench/scale.sh clear 200`).
    pub fn compact_tables(&mut self) {
        let mut used_styles = vec![false; self.palette.len()];
        let mut used_graphemes = vec![false; self.graphemes.len()];
        let mut mark = |c: Cell| {
            used_styles[c.style() as usize] = true;
            if c.is_interned() {
                used_graphemes[c.value() as usize] = true;
            }
        };
        self.grid.for_each_name(&mut mark);
        if let Some(saved) = &self.saved {
            saved.for_each_name(&mut mark);
        }
        self.palette.release(&used_styles);
        self.graphemes.release(&used_graphemes);
        self.pen_cache = None;
        if mostly_released(self.palette.live(), self.palette.len())
            || mostly_released(self.graphemes.live(), self.graphemes.len())
        {
            self.renumber_tables(&used_styles, &used_graphemes);
        }
    }

    /// Renumbers the palette and grapheme table to the entries marked used, rewriting every
    /// cell: released ids stop costing their slots.
    fn renumber_tables(&mut self, used_styles: &[bool], used_graphemes: &[bool]) {
        let style_map = self.palette.retain(used_styles);
        let grapheme_map = self.graphemes.retain(used_graphemes);
        self.for_each_grid(|g| {
            for row in g.rows_mut() {
                row.map_cells(|c| {
                    let word = if c.is_interned() {
                        (c.word() & (Cell::WIDE | Cell::PADDING))
                            | Cell::INTERNED
                            | grapheme_map[c.value() as usize]
                    } else {
                        c.word()
                    };
                    Cell::new(word, style_map[c.style() as usize])
                });
            }
        });
    }

    fn is_default_style(&self, style: StyleId) -> bool {
        let s = self.palette.get(style);
        s.fg == colour::DEFAULT && s.bg == colour::DEFAULT && s.attr == 0
    }

    // ---- cursor ----

    /// Moves the cursor; `None` leaves a coordinate. x may be `sx` (pending wrap).
    pub fn set_cursor(&mut self, cx: Option<u32>, cy: Option<u32>) {
        if let Some(x) = cx {
            self.cx = if x > self.sx() { self.sx() - 1 } else { x };
        }
        if let Some(y) = cy {
            self.cy = y.min(self.sy() - 1);
        }
    }

    pub fn cursor_up(&mut self, ny: u32) {
        let (mut cx, cy) = (self.cx, self.cy);
        let mut ny = ny.max(1);
        if cy < self.rupper {
            ny = ny.min(cy);
        } else {
            ny = ny.min(cy - self.rupper);
        }
        if cx == self.sx() {
            cx -= 1;
        }
        self.set_cursor(Some(cx), Some(cy - ny));
    }

    pub fn cursor_down(&mut self, ny: u32) {
        let (mut cx, cy) = (self.cx, self.cy);
        let mut ny = ny.max(1);
        if cy > self.rlower {
            ny = ny.min(self.sy() - 1 - cy);
        } else {
            ny = ny.min(self.rlower - cy);
        }
        if cx == self.sx() {
            cx -= 1;
        } else if ny == 0 {
            return;
        }
        self.set_cursor(Some(cx), Some(cy + ny));
    }

    pub fn cursor_right(&mut self, nx: u32) {
        // At the pending-wrap position tmux's unsigned arithmetic leaves the count alone and
        // the move lands on the last column.
        let room = (self.sx() - 1).wrapping_sub(self.cx);
        let nx = nx.max(1).min(room);
        if nx == 0 {
            return;
        }
        self.set_cursor(Some(self.cx.saturating_add(nx)), None);
    }

    pub fn cursor_left(&mut self, nx: u32) {
        let nx = nx.max(1).min(self.cx);
        if nx == 0 {
            return;
        }
        self.set_cursor(Some(self.cx - nx), None);
    }

    pub fn backspace(&mut self) {
        let (mut cx, mut cy) = (self.cx, self.cy);
        if cx == 0 {
            if cy == 0 {
                return;
            }
            if self.grid.view_row(cy - 1).wrapped {
                cy -= 1;
                cx = self.sx() - 1;
            }
        } else {
            cx -= 1;
        }
        self.set_cursor(Some(cx), Some(cy));
    }

    pub fn tab(&mut self) {
        let sx = self.sx();
        if self.cx >= sx - 1 {
            return;
        }
        loop {
            self.cx += 1;
            if self.is_tab(self.cx) || self.cx >= sx - 1 {
                break;
            }
        }
    }

    pub fn back_tab(&mut self, n: u32) {
        let mut cx = self.cx.min(self.sx() - 1);
        let mut n = n;
        while cx > 0 && n > 0 {
            n -= 1;
            loop {
                cx -= 1;
                if cx == 0 || self.is_tab(cx) {
                    break;
                }
            }
        }
        self.cx = cx;
    }

    /// Absolute cursor move; `origin` makes y relative to the scroll region in origin mode.
    pub fn cursor_move(&mut self, px: Option<u32>, py: Option<u32>, origin: bool) {
        let mut py = py;
        if let (true, Some(y)) = (origin && self.mode & mode::ORIGIN != 0, py) {
            py = Some(if y > self.rlower - self.rupper {
                self.rlower
            } else {
                y + self.rupper
            });
        }
        let px = px.map(|x| x.min(self.sx() - 1));
        let py = py.map(|y| y.min(self.sy() - 1));
        self.set_cursor(px, py);
    }

    pub fn carriage_return(&mut self) {
        self.set_cursor(Some(0), None);
    }

    /// Whether a line feed now scrolls the whole screen into the history.
    pub fn scrolls_screen(&self) -> bool {
        self.cy == self.rlower
            && self.rupper == 0
            && self.rlower == self.sy() - 1
            && self.grid.history
    }

    /// `n` line feeds that each scroll the whole screen into the history (see
    /// [`Screen::scrolls_screen`]), at once: the lines they make are blank in `bg`.
    pub fn scroll_screen_up(&mut self, n: u32, bg: u32) {
        let bg = self.erase_style(bg);
        self.grid.scroll_screen_up(n, bg);
    }

    pub fn linefeed(&mut self, wrapped: bool, bg: u32) {
        let bg = self.erase_style(bg);
        self.linefeed_styled(wrapped, bg);
    }

    fn linefeed_styled(&mut self, wrapped: bool, bg: StyleId) {
        if wrapped {
            let cy = self.cy;
            self.grid.view_row_mut(cy).wrapped = true;
        }
        if self.cy == self.rlower {
            self.grid
                .view_scroll_region_up(self.rupper, self.rlower, bg);
        } else if self.cy < self.sy() - 1 {
            self.set_cursor(None, Some(self.cy + 1));
        }
    }

    pub fn reverse_index(&mut self, bg: u32) {
        if self.cy == self.rupper {
            let bg = self.erase_style(bg);
            self.grid
                .view_scroll_region_down(self.rupper, self.rlower, bg);
        } else if self.cy > 0 {
            self.set_cursor(None, Some(self.cy - 1));
        }
    }

    pub fn set_scroll_region(&mut self, rupper: u32, rlower: u32) {
        let last = self.sy() - 1;
        let (rupper, rlower) = (rupper.min(last), rlower.min(last));
        if rupper >= rlower {
            return;
        }
        self.set_cursor(Some(0), Some(0));
        self.rupper = rupper;
        self.rlower = rlower;
    }

    fn region_lines(&self, n: u32) -> u32 {
        if n == 0 {
            1
        } else {
            n.min(self.rlower - self.rupper + 1)
        }
    }

    pub fn scroll_up(&mut self, lines: u32, bg: u32) {
        let lines = self.region_lines(lines);
        let bg = self.erase_style(bg);
        for _ in 0..lines {
            self.grid
                .view_scroll_region_up(self.rupper, self.rlower, bg);
        }
    }

    pub fn scroll_down(&mut self, lines: u32, bg: u32) {
        let lines = self.region_lines(lines);
        let bg = self.erase_style(bg);
        for _ in 0..lines {
            self.grid
                .view_scroll_region_down(self.rupper, self.rlower, bg);
        }
    }

    // ---- editing ----

    /// Clamps a character count for ICH/DCH/ECH; `None` when nothing is to be done.
    fn char_count(&self, nx: u32) -> Option<u32> {
        let sx = self.sx();
        let nx = nx.max(1).min(sx - self.cx.min(sx));
        if nx == 0 || self.cx > sx - 1 {
            None
        } else {
            Some(nx)
        }
    }

    pub fn insert_characters(&mut self, nx: u32, bg: u32) {
        if let Some(nx) = self.char_count(nx) {
            let bg = self.erase_style(bg);
            self.grid.view_insert_cells(self.cx, self.cy, nx, bg);
        }
    }

    pub fn delete_characters(&mut self, nx: u32, bg: u32) {
        if let Some(nx) = self.char_count(nx) {
            let bg = self.erase_style(bg);
            self.grid.view_delete_cells(self.cx, self.cy, nx, bg);
        }
    }

    pub fn erase_characters(&mut self, nx: u32, bg: u32) {
        if let Some(nx) = self.char_count(nx) {
            let bg = self.erase_style(bg);
            self.grid.view_clear(self.cx, self.cy, nx, 1, bg);
        }
    }

    pub fn insert_lines(&mut self, ny: u32, bg: u32) {
        self.edit_lines(ny, bg, true);
    }

    pub fn delete_lines(&mut self, ny: u32, bg: u32) {
        self.edit_lines(ny, bg, false);
    }

    fn edit_lines(&mut self, ny: u32, bg: u32, insert: bool) {
        let (cy, sy) = (self.cy, self.sy());
        let ny = ny.max(1);
        let bg = self.erase_style(bg);
        if cy < self.rupper || cy > self.rlower {
            let ny = ny.min(sy - cy);
            if ny == 0 {
                return;
            }
            if insert {
                self.grid.view_insert_lines(cy, ny, bg);
            } else {
                self.grid.view_delete_lines(cy, ny, bg);
            }
            return;
        }
        let ny = ny.min(self.rlower + 1 - cy);
        if ny == 0 {
            return;
        }
        if insert {
            self.grid.view_insert_lines_region(self.rlower, cy, ny, bg);
        } else {
            self.grid.view_delete_lines_region(self.rlower, cy, ny, bg);
        }
    }

    pub fn clear_line(&mut self, bg: u32) {
        if self.grid.view_row(self.cy).size == 0 && colour::is_default(bg) {
            return;
        }
        let bg = self.erase_style(bg);
        self.grid.view_clear(0, self.cy, self.sx(), 1, bg);
    }

    pub fn clear_end_of_line(&mut self, bg: u32) {
        if self.cx == 0 {
            self.clear_line(bg);
            return;
        }
        let sx = self.sx();
        let size = self.grid.view_row(self.cy).size as u32;
        if self.cx > sx - 1 || (self.cx >= size && colour::is_default(bg)) {
            return;
        }
        let bg = self.erase_style(bg);
        self.grid.view_clear(self.cx, self.cy, sx - self.cx, 1, bg);
    }

    pub fn clear_start_of_line(&mut self, bg: u32) {
        let sx = self.sx();
        if self.cx >= sx - 1 {
            self.clear_line(bg);
            return;
        }
        let bg = self.erase_style(bg);
        self.grid.view_clear(0, self.cy, self.cx + 1, 1, bg);
    }

    pub fn clear_end_of_screen(&mut self, bg: u32) {
        let (sx, sy) = (self.sx(), self.sy());
        let bg = self.erase_style(bg);
        if self.cx == 0 && self.cy == 0 && self.grid.history {
            self.grid.view_clear_history(bg);
        } else {
            if self.cx < sx {
                self.grid.view_clear(self.cx, self.cy, sx - self.cx, 1, bg);
            }
            self.grid
                .view_clear(0, self.cy + 1, sx, sy - (self.cy + 1), bg);
        }
    }

    pub fn clear_start_of_screen(&mut self, bg: u32) {
        let sx = self.sx();
        let bg = self.erase_style(bg);
        if self.cy > 0 {
            self.grid.view_clear(0, 0, sx, self.cy, bg);
        }
        if self.cx > sx - 1 {
            self.grid.view_clear(0, self.cy, sx, 1, bg);
        } else {
            self.grid.view_clear(0, self.cy, self.cx + 1, 1, bg);
        }
    }

    pub fn clear_screen(&mut self, bg: u32) {
        let bg = self.erase_style(bg);
        if self.grid.history {
            self.grid.view_clear_history(bg);
        } else {
            let (sx, sy) = (self.sx(), self.sy());
            self.grid.view_clear(0, 0, sx, sy, bg);
        }
    }

    pub fn clear_history(&mut self) {
        self.grid.clear_history();
    }

    pub fn alignment_test(&mut self) {
        let e = Cell::new(b'E' as u32, 0);
        for y in 0..self.sy() {
            let h = self.grid.hsize;
            for x in 0..self.sx() {
                self.grid.set_cell(x, h + y, e);
            }
        }
        self.set_cursor(Some(0), Some(0));
        self.rupper = 0;
        self.rlower = self.sy() - 1;
    }

    /// RIS: tabs, region, modes and screen reset (the alternate screen and title are kept, as
    /// tmux keeps them).
    pub fn reset(&mut self) {
        self.reset_tabs();
        self.set_scroll_region(0, self.sy() - 1);
        self.mode = mode::CURSOR | mode::WRAP;
        self.clear_screen(colour::DEFAULT);
        self.set_cursor(Some(0), Some(0));
    }

    // ---- writing characters ----

    /// Writes printable ASCII in one style, as tmux's collected writes do (autowrap on, insert
    /// mode off, no DEC graphics).
    pub fn write_ascii(&mut self, style: StyleId, text: &[u8]) {
        self.ascii_by_line(text.len(), |screen, part| {
            screen.put_ascii_run(style, &text[part])
        });
    }

    /// Moves the cursor over `len` printable ASCII characters as [`Screen::write_ascii`] does,
    /// wrapping and scrolling the same, without writing them: for text that will scroll out of
    /// the grid before the write ends (see `doomed.rs`).
    #[inline]
    pub fn pass_over_ascii(&mut self, len: usize) {
        // Most runs end on the line they start on: cutting each of them by line was 8% of the
        // instructions parsing the coloured log (callgrind, examples/replay).
        if self.cx as usize + len < self.sx() as usize {
            self.cx += len as u32;
            return;
        }
        self.ascii_by_line(len, |screen, part| {
            screen.set_cursor(Some(screen.cx + part.len() as u32), None)
        });
    }

    /// Cuts `len` characters of collected ASCII where autowrap wraps them, and hands `put` each
    /// part (as a range of the characters) with the cursor where it starts.
    fn ascii_by_line(&mut self, len: usize, mut put: impl FnMut(&mut Self, Range<usize>)) {
        let sx = self.sx();
        let mut at = 0;
        while at < len {
            if self.cx > sx - 1 {
                self.linefeed_styled(true, 0);
                self.set_cursor(Some(0), None);
            }
            let n = ((sx - self.cx) as usize).min(len - at);
            put(self, at..at + n);
            at += n;
        }
    }

    /// Writes `n` copies of a narrow (width 1) character. With autowrap on and insert mode off
    /// this is exactly what writing them one by one does, as one fill per line.
    pub fn write_narrow(&mut self, ch: char, style: StyleId, n: usize) {
        if self.zwj || self.mode & mode::WRAP == 0 || self.mode & mode::INSERT != 0 {
            for _ in 0..n {
                self.write_cell(ch, 1, style);
            }
            return;
        }
        let cell = Cell::new(ch as u32, style);
        let sx = self.sx();
        let mut left = n;
        while left > 0 {
            if self.cx > sx - 1 {
                self.linefeed_styled(true, 0);
                self.set_cursor(Some(0), None);
            }
            let k = ((sx - self.cx) as usize).min(left);
            self.fill_narrow(ch, cell, k as u32);
            left -= k;
        }
    }

    /// Writes `k` copies of a narrow character that fit on the cursor's line. tmux writes them
    /// one by one (they are not collected like ASCII), and each write clears only the parts of
    /// wide characters under that one cell; so one fill is the same only where no padding is
    /// in the way, including just after the run.
    fn fill_narrow(&mut self, ch: char, cell: Cell, k: u32) {
        let (cx, y) = (self.cx, self.grid.hsize + self.cy);
        if self.grid.has_padding(cx, y, k + 1) {
            for _ in 0..k {
                self.write_cell(ch, 1, cell.style());
            }
            return;
        }
        self.grid.fill(cx, y, cell, k);
        self.set_cursor(Some(cx + k), None);
    }

    fn put_ascii_run(&mut self, style: StyleId, run: &[u8]) {
        let (cx, y) = (self.cx, self.grid.hsize + self.cy);
        self.clear_wide_left_of(cx, y);
        self.grid.set_ascii(cx, y, style, run);
        self.finish_run(cx + run.len() as u32, y);
    }

    /// Before a run is written at `cx`: a wide character it cuts in half loses its other half.
    fn clear_wide_left_of(&mut self, cx: u32, y: u32) {
        if cx == 0 || self.grid.is_narrow(y) {
            return;
        }
        let mut x = cx;
        let mut last = Cell::BLANK;
        while x > 0 {
            last = self.grid.get_cell(x, y);
            if !last.is_padding() {
                break;
            }
            self.grid.set_cell(x, y, Cell::BLANK);
            x -= 1;
        }
        if last.width() > 1 {
            self.grid.set_cell(x, y, Cell::BLANK);
        }
    }

    /// After a run: move the cursor past it and clear padding left behind by a wide character
    /// whose first half it overwrote.
    fn finish_run(&mut self, end: u32, y: u32) {
        self.set_cursor(Some(end), None);
        self.clear_padding_from(self.cx, y);
    }

    fn clear_padding_from(&mut self, from: u32, y: u32) {
        if self.grid.is_narrow(y) {
            return;
        }
        for x in from..self.sx() {
            if !self.grid.get_cell(x, y).is_padding() {
                break;
            }
            self.grid.set_cell(x, y, Cell::BLANK);
        }
    }

    /// Writes one character (tmux's `screen_write_cell`): a zero width character, or one after
    /// a zero width joiner, joins the previous cell; others take `width` (1 or 2) cells.
    pub fn write_cell(&mut self, ch: char, width: u32, style: StyleId) {
        if ch == '\u{200d}' {
            self.zwj = true;
            return;
        }
        if self.zwj {
            self.zwj = false;
            self.combine('\u{200d}');
            self.combine(ch);
            return;
        }
        if width == 0 {
            self.combine(ch);
            return;
        }
        let word = ch as u32;
        let (sx, sy) = (self.sx(), self.sy());
        let wrap = self.mode & mode::WRAP != 0;
        if !wrap && width > 1 && (width > sx || (self.cx != sx && self.cx > sx - width)) {
            return;
        }
        let insert = self.mode & mode::INSERT != 0;
        if insert {
            self.grid.view_insert_cells(self.cx, self.cy, width, 0);
        }
        if wrap && self.cx > sx.wrapping_sub(width) {
            self.linefeed_styled(true, 0);
            self.set_cursor(Some(0), None);
        }
        if self.cx > sx.wrapping_sub(width) || self.cy > sy - 1 {
            return;
        }
        let (cx, y) = (self.cx, self.grid.hsize + self.cy);
        // On a line with no wide characters there is nothing for the new one to cut.
        let overwrote = !self.grid.is_narrow(y) && self.overwrite(self.grid.get_cell(cx, y), width);
        for x in cx + 1..cx + width {
            self.grid.set_cell(x, y, Cell::PAD);
        }
        let unchanged = !insert && !overwrote && width == 1;
        // tmux skips writing a default blank past the line's allocated size, which leaves the
        // line's used length (and so `capture-pane -N`/`-J` output) unchanged.
        let default_blank = word == b' ' as u32 && self.is_default_style(style);
        if !(unchanged && default_blank && cx >= self.grid.row(y).size as u32) {
            let word = if width == 2 { word | Cell::WIDE } else { word };
            self.grid.set_cell(cx, y, Cell::new(word, style));
        }
        let last = u32::from(!wrap);
        if cx <= sx.wrapping_sub(last).wrapping_sub(width) {
            self.set_cursor(Some(cx + width), None);
        } else {
            self.set_cursor(Some(sx - last), None);
        }
    }

    /// Clears what remains of wide characters a new character of `width` partly covers.
    fn overwrite(&mut self, now: Cell, width: u32) -> bool {
        let (cx, y, sx) = (self.cx, self.grid.hsize + self.cy, self.sx());
        let mut done = false;
        if now.is_padding() {
            let mut x = cx;
            while x > 0 {
                if !self.grid.get_cell(x, y).is_padding() {
                    break;
                }
                self.grid.set_cell(x, y, Cell::BLANK);
                x -= 1;
            }
            self.grid.set_cell(x, y, Cell::BLANK);
            done = true;
        }
        if width != 1 || now.width() != 1 || now.is_padding() {
            let mut x = cx + width;
            while x < sx {
                if !self.grid.get_cell(x, y).is_padding() {
                    break;
                }
                self.grid.set_cell(x, y, Cell::BLANK);
                done = true;
                x += 1;
            }
        }
        done
    }

    fn combine(&mut self, ch: char) {
        let (cx, y) = (self.cx, self.grid.hsize + self.cy);
        if cx == 0 {
            return;
        }
        let mut n = 1;
        let mut prev = Cell::BLANK;
        while n <= cx {
            prev = self.grid.get_cell(cx - n, y);
            if !prev.is_padding() {
                break;
            }
            n += 1;
        }
        if n > cx {
            return;
        }
        let x = cx - n;
        let mut text = Vec::with_capacity(8);
        super::cell::push_cell_text(&mut text, prev, &self.graphemes);
        let mut buf = [0u8; 4];
        let add = ch.encode_utf8(&mut buf).as_bytes();
        if text.len() + add.len() > MAX_CELL_BYTES {
            return;
        }
        text.extend_from_slice(add);
        let text = String::from_utf8(text).unwrap_or_default();
        if self.graphemes.is_full() {
            self.compact_tables();
            // Renumbering may have given the cell's style another id.
            prev = self.grid.get_cell(x, y);
        }
        let index = self.graphemes.intern(&text);
        let word = Cell::INTERNED | index | (prev.word() & Cell::WIDE);
        self.grid.set_cell(x, y, Cell::new(word, prev.style()));
    }

    // ---- alternate screen, titles, resize ----

    pub fn enter_alternate(&mut self, pen: &Style, save_cursor: bool) {
        if self.saved.is_some() {
            return;
        }
        let (sx, sy) = (self.sx(), self.sy());
        let mut saved = Grid::new(sx, sy, 0);
        saved.history = false;
        let h = self.grid.hsize;
        for y in 0..sy {
            *saved.row_mut(y) = self.grid.row(h + y).clone();
        }
        self.saved = Some(Box::new(saved));
        if save_cursor {
            self.saved_cx = self.cx;
            self.saved_cy = self.cy;
        }
        self.saved_pen = *pen;
        self.grid.view_clear(0, 0, sx, sy, 0);
        self.saved_history = self.grid.history;
        self.grid.history = false;
    }

    pub fn leave_alternate(&mut self, pen: &mut Style, restore_cursor: bool) {
        let (sx, sy) = (self.sx(), self.sy());
        if let Some((ox, oy)) = self.saved.as_ref().map(|g| (g.sx, g.sy)) {
            self.resize(ox, oy, true);
        }
        if restore_cursor && self.saved_cx != u32::MAX && self.saved_cy != u32::MAX {
            self.cx = self.saved_cx;
            self.cy = self.saved_cy;
            *pen = self.saved_pen;
        }
        let Some(saved) = self.saved.take() else {
            self.clamp_cursor();
            return;
        };
        let h = self.grid.hsize;
        let n = saved.sy.min(self.grid.sy);
        for y in 0..n {
            *self.grid.row_mut(h + y) = saved.row(y).clone();
        }
        if self.saved_history {
            self.grid.history = true;
        }
        self.resize(sx, sy, true);
        self.clamp_cursor();
    }

    fn clamp_cursor(&mut self) {
        self.cx = self.cx.min(self.sx() - 1);
        self.cy = self.cy.min(self.sy() - 1);
    }

    /// Sets the title if it is printable UTF-8 (tmux ignores anything else).
    pub fn set_title(&mut self, title: &[u8]) -> bool {
        if !super::parser::is_printable_utf8(title) {
            return false;
        }
        self.title = String::from_utf8_lossy(title).into_owned();
        true
    }

    pub fn push_title(&mut self) {
        if self.titles.len() == TITLE_STACK_LIMIT {
            self.titles.remove(0);
        }
        self.titles.push(self.title.clone());
    }

    pub fn pop_title(&mut self) {
        if let Some(t) = self.titles.pop() {
            self.set_title(t.as_bytes());
        }
    }

    /// Resizes, reflowing wrapped lines when `reflow` (tmux reflows unless the alternate
    /// screen is on).
    pub fn resize(&mut self, sx: u32, sy: u32, reflow: bool) {
        self.resize_with(sx, sy, reflow, true);
    }

    /// Resizes a copy of a screen as tmux resizes copy mode's (`window_copy_resize`): wrapped
    /// lines reflowed, rows that go pushed into the history even when blank, and the point
    /// `x`,`line` (a line counted from the oldest in the history) followed through the reflow
    /// instead of the cursor. Returns where that point is now.
    pub fn resize_copy(&mut self, sx: u32, sy: u32, x: u32, line: u32) -> (u32, u32) {
        self.grid.thaw_history();
        let reflow = sx.clamp(1, u16::MAX as u32) != self.sx();
        let wrapped = reflow.then(|| self.grid.wrap_position(x, line));
        self.resize_with(sx, sy, true, false);
        match wrapped {
            Some((wx, wy)) => self.grid.unwrap_position(wx, wy),
            None => (x, line),
        }
    }

    /// tmux's `screen_resize_cursor`: a pane's screen (`for_pane`) first deletes blank rows
    /// below the cursor when it shrinks and keeps the cursor on its character through a
    /// reflow; a copy pushes every row into the history and leaves the cursor at the top left.
    fn resize_with(&mut self, sx: u32, sy: u32, reflow: bool, for_pane: bool) {
        // Lines move in and out of history and are rewrapped: all of them are needed as rows.
        self.grid.thaw_history();
        let (sx, sy) = (sx.clamp(1, u16::MAX as u32), sy.max(1));
        let mut cx = self.cx;
        let mut cy = self.grid.hsize + self.cy;
        let mut reflow = reflow;
        if sx != self.sx() {
            self.grid.sx = sx;
            self.reset_tabs();
        } else {
            reflow = false;
        }
        if sy != self.sy() {
            self.resize_y(sy, &mut cy, for_pane);
        }
        if reflow && for_pane {
            let (wx, wy) = self.grid.wrap_position(cx, cy);
            self.grid.reflow(sx);
            (cx, cy) = self.grid.unwrap_position(wx, wy);
        } else if reflow {
            self.grid.reflow(sx);
            (cx, cy) = (0, self.grid.hsize);
        }
        if cy >= self.grid.hsize {
            self.cx = cx;
            self.cy = cy - self.grid.hsize;
        } else {
            self.cx = 0;
            self.cy = 0;
        }
    }

    fn resize_y(&mut self, sy: u32, cy: &mut u32, eat_empty: bool) {
        let oldy = self.sy();
        let g = &mut self.grid;
        if sy < oldy {
            let mut needed = oldy - sy;
            // A cursor restored from a taller screen may be below the last line; tmux's
            // unsigned subtraction then makes every line below it available.
            let available = (oldy - 1).wrapping_sub(self.cy);
            if eat_empty && available > 0 {
                let available = available.min(needed);
                g.view_delete_lines(oldy - available, available, 0);
                needed -= available;
            }
            let available = self.cy;
            if g.history {
                g.hscrolled += needed;
                g.hsize += needed;
            } else if needed > 0 && available > 0 {
                let available = available.min(needed);
                g.view_delete_lines(0, available, 0);
                *cy -= available;
            }
        }
        g.set_line_count(g.hsize + sy);
        if sy > oldy {
            let mut needed = sy - oldy;
            let mut available = g.hscrolled;
            if g.history && available > 0 {
                available = available.min(needed);
                g.hscrolled -= available;
                g.hsize -= available;
            } else {
                available = 0;
            }
            needed -= available;
            // Rows pulled back from history leave as many unused rows at the end.
            g.set_line_count(g.hsize + sy);
            for y in g.hsize + sy - needed..g.hsize + sy {
                g.empty_line(y, 0);
            }
        }
        g.sy = sy;
        self.rupper = 0;
        self.rlower = sy - 1;
    }

    // ---- freezing ----

    /// Folds the rows of both grids, the palette, the grapheme table and the tab stops into one
    /// chunk: grid rows, saved grid rows, styles, graphemes, tab stops (a word count, 0 for the
    /// default stops, then the words in little endian). What stays is what readers of a frozen
    /// terminal need without thawing it: sizes, cursor, modes, titles.
    pub fn freeze(&mut self) -> Box<[u8]> {
        // Sized up front: grown by doubling, a screen with a long history was copied about
        // twice over and its buffers faulted in afresh each time (`perf`, dump workload).
        let mut grids = 0;
        self.for_each_grid(|g| grids += g.frozen_len_hint());
        let tables = 16 * self.palette.len() + 8 * self.tabs.len();
        let mut out = Vec::with_capacity(grids + tables);
        let mut scratch = Vec::new();
        self.for_each_grid(|g| g.freeze_into(&mut out, &mut scratch));
        self.palette.freeze_into(&mut out);
        self.graphemes.freeze_into(&mut out);
        self.freeze_tabs(&mut out);
        self.title.shrink_to_fit();
        self.titles.iter_mut().for_each(String::shrink_to_fit);
        self.titles.shrink_to_fit();
        if let Some(p) = &mut self.path {
            p.shrink_to_fit();
        }
        out.into_boxed_slice()
    }

    /// Seals the history lines frozen since the last seal once enough wait (a host calls this
    /// when the screen is quiet; see `frozen_lines.rs`).
    pub fn seal_history(&mut self, sealer: &mut Compressor) {
        self.for_each_grid(|grid| grid.seal_history(sealer));
    }

    /// Restores a frozen screen from the chunk [`Screen::freeze`] made of it; the oldest
    /// history lines stay frozen, in what is kept of the chunk (see `frozen_lines.rs`).
    pub fn thaw(&mut self, chunk: Box<[u8]>) {
        let mut at = 0;
        let history = self.grid.thaw(&chunk, &mut at);
        if let Some(saved) = &mut self.saved {
            saved.thaw(&chunk, &mut at);
        }
        self.palette.thaw(&chunk, &mut at);
        self.graphemes.thaw(&chunk, &mut at);
        self.thaw_tabs(&chunk, &mut at);
        self.grid.keep_frozen(chunk, history);
    }

    /// Gives a frozen screen blank rows and default tables, for reading a terminal whose chunk
    /// is somewhere else.
    pub fn thaw_blank(&mut self) {
        self.for_each_grid(Grid::thaw_blank);
        self.palette = Palette::default();
        self.graphemes = Graphemes::default();
        self.reset_tabs();
    }

    fn freeze_tabs(&mut self, out: &mut Vec<u8>) {
        if self.tabs.iter().copied().eq(default_tabs(self.sx())) {
            put_varint(out, 0);
        } else {
            put_varint(out, self.tabs.len());
            self.tabs
                .iter()
                .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        }
        self.tabs = Vec::new();
    }

    fn thaw_tabs(&mut self, chunk: &[u8], at: &mut usize) {
        let words = get_varint(chunk, at);
        if words == 0 {
            self.reset_tabs();
            return;
        }
        let bytes = &chunk[*at..*at + 8 * words];
        *at += bytes.len();
        self.tabs = bytes
            .chunks_exact(8)
            .map(|w| u64::from_le_bytes(w.try_into().unwrap_or_default()))
            .collect();
    }

    /// Heap bytes held by the screen: rows, cells, palette, graphemes, tabs, titles.
    pub fn heap_bytes(&self) -> usize {
        self.grid.heap_bytes()
            + self
                .saved
                .as_ref()
                .map_or(0, |g| std::mem::size_of::<Grid>() + g.heap_bytes())
            + self.palette.heap_bytes()
            + self.graphemes.heap_bytes()
            + self.tabs.capacity() * 8
            + self.title.capacity()
            + self.titles.iter().map(|t| t.capacity()).sum::<usize>()
            + self.titles.capacity() * std::mem::size_of::<String>()
            + self.path.as_ref().map_or(0, |p| p.capacity())
    }
}
