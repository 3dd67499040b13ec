//! The terminal: a parser and a screen that together turn a program's output into the screen
//! `capture-pane` prints, exactly as tmux 3.3a would.
//!
//! This module is pure: it performs no I/O, reads no clock and starts no thread. Bytes go in
//! through [`Terminal::feed`]; answers to the program's queries come out of
//! [`Terminal::take_replies`] for the caller to write back; text comes out of
//! [`Terminal::capture`].
//!
//! Memory: a cell is 6 bytes ([`cell::Cell`]); rows store cells only up to their last non-blank
//! cell and are packed into bytes when a write ends ([`row::Row`]), except the row under the
//! cursor; styles and multi-code-point characters are interned per screen. A quiet terminal is
//! frozen by its host ([`Terminal::freeze`], in `freeze.rs`): rows, history and tables folded
//! into one byte chunk, which the host may move out ([`Terminal::take_frozen`]) and give back.
//! Methods that make and free rows mark what they allocate as screen data
//! ([`allocating_screen_data`], `screen_data.rs`), for an allocator that keeps it apart.
//!
//! Invariant: while frozen or cold the screen's grids hold no rows and its tables are empty;
//! every method that changes rows thaws first and every reader of rows goes through
//! [`Terminal::screen`] or a decoded copy, so no code path sees the emptied screen.

pub mod capture;
pub mod cell;
mod doomed;
mod freeze;
mod frozen_lines;
pub mod grid;
pub mod parser;
pub mod row;
pub mod screen;
mod screen_data;
mod sgr;
pub mod text;
pub mod width;
pub mod width_table;

pub use capture::{CaptureOptions, LineSpec};
pub use frozen_lines::{can_be_reference, decompress_against, Compressor, SEAL_BYTES};
pub use screen::{mode, Screen};
pub use screen_data::allocating_screen_data;
pub use text::TextLine;

use freeze::{Decoded, Storage};
use parser::Parser;
use screen_data::ScreenData;

/// How long tmux waits for a string sequence's terminator before dropping it.
pub const STRING_TIMEOUT_MS: u64 = 5000;

/// tmux's default `history-limit`.
pub const DEFAULT_HISTORY_LIMIT: u32 = 2000;

/// The error `capture-pane -a` gives when the alternate screen is off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoAlternateScreen;

impl std::fmt::Display for NoAlternateScreen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no alternate screen")
    }
}

impl std::error::Error for NoAlternateScreen {}

/// A program's terminal: what it wrote, parsed into a screen with history.
#[derive(Clone, Debug)]
pub struct Terminal {
    parser: Parser,
    screen: Screen,
    storage: Storage,
    decoded: Decoded,
}

impl Terminal {
    pub fn new(cols: u32, rows: u32, history_limit: u32) -> Terminal {
        let _mark = ScreenData::mark();
        Terminal {
            parser: Parser::new(),
            screen: Screen::new(cols, rows, history_limit),
            storage: Storage::Hot,
            decoded: Decoded::new(),
        }
    }

    /// Parses program output. Rows the write touched are packed when it ends.
    pub fn feed(&mut self, bytes: &[u8]) {
        let _mark = ScreenData::mark();
        if !self.make_hot() {
            return;
        }
        self.screen.begin_write();
        self.parser.feed(&mut self.screen, bytes);
        self.screen.end_write();
    }

    /// Answers to the program's queries (DSR, DA, XTVERSION...) since the last call.
    pub fn take_replies(&mut self) -> Vec<u8> {
        self.parser.take_replies()
    }

    pub fn has_replies(&self) -> bool {
        !self.parser.replies().is_empty()
    }

    /// Resizes the screen; wrapped lines are reflowed unless the alternate screen is on.
    ///
    /// tmux's `resize-window` reaches the pane as a change of width and then a change of
    /// height, and the result differs from doing both at once (lines pulled back from history
    /// are counted after the reflow), so the width changes first here too.
    pub fn resize(&mut self, cols: u32, rows: u32) {
        let _mark = ScreenData::mark();
        if !self.make_hot() {
            return;
        }
        let reflow = !self.screen.alternate_on();
        let old_rows = self.screen.sy();
        self.screen.resize(cols, old_rows, reflow);
        self.screen.resize(cols, rows, reflow);
        self.screen.grid.mark_history_unpacked();
        self.screen.end_write();
    }

    /// Resizes a copy of a pane's terminal as tmux resizes copy mode's (see
    /// [`Screen::resize_copy`]), width first and then height as [`Terminal::resize`] does,
    /// following the point `x`,`line` (a line counted from the oldest in the history); returns
    /// where it is now.
    pub fn resize_copy(&mut self, cols: u32, rows: u32, x: u32, line: u32) -> (u32, u32) {
        let _mark = ScreenData::mark();
        if !self.make_hot() {
            return (x, line);
        }
        let old_rows = self.screen.sy();
        let (x, line) = self.screen.resize_copy(cols, old_rows, x, line);
        let at = self.screen.resize_copy(cols, rows, x, line);
        self.screen.grid.mark_history_unpacked();
        self.screen.end_write();
        at
    }

    /// Whether the program left a string sequence (OSC, DCS, APC...) unterminated; the host
    /// calls [`Terminal::abandon_string`] once that has lasted [`STRING_TIMEOUT_MS`].
    pub fn in_string(&self) -> bool {
        self.parser.in_string()
    }

    /// Gives up on an unterminated string sequence, as tmux does after five seconds.
    pub fn abandon_string(&mut self) {
        self.parser.abandon_string();
    }

    /// The lines `capture-pane` would produce (before `-p` adjusts the final newline).
    pub fn capture(&self, opts: &CaptureOptions) -> Vec<u8> {
        let s = self.view();
        capture::capture(&s.grid, s.sx(), &s.palette, &s.graphemes, opts)
    }

    /// `capture-pane -a`: the primary screen saved while the alternate screen is on.
    pub fn capture_alternate(&self, opts: &CaptureOptions) -> Result<Vec<u8>, NoAlternateScreen> {
        if !self.alternate_on() {
            return Err(NoAlternateScreen);
        }
        let s = self.view();
        let saved = s.saved_grid().ok_or(NoAlternateScreen)?;
        Ok(capture::capture(
            saved,
            s.sx(),
            &s.palette,
            &s.graphemes,
            opts,
        ))
    }

    /// `capture-pane -P`: an escape sequence the program has started but not finished.
    pub fn capture_pending(&self, escape_c0: bool) -> Vec<u8> {
        capture::capture_pending(self.parser.pending(), escape_c0)
    }

    /// The screen; a frozen terminal's is a decoded copy, kept until the terminal next changes.
    pub fn screen(&self) -> &Screen {
        self.kept_view()
    }

    pub fn cols(&self) -> u32 {
        self.screen.sx()
    }

    pub fn rows(&self) -> u32 {
        self.screen.sy()
    }

    /// Cursor position; x may equal the width when a wrap is pending, as tmux reports it.
    pub fn cursor(&self) -> (u32, u32) {
        (self.screen.cx, self.screen.cy)
    }

    /// Sets the title as `select-pane -T` does (tmux starts every pane titled with the host name).
    pub fn set_title(&mut self, title: &str) -> bool {
        self.screen_mut().set_title(title.as_bytes())
    }

    pub fn title(&self) -> &str {
        &self.screen.title
    }

    /// `clear-history`: forgets the lines scrolled off the top.
    pub fn clear_history(&mut self) {
        let _mark = ScreenData::mark();
        if self.make_hot() {
            self.screen.clear_history();
        }
    }

    pub fn history_size(&self) -> u32 {
        self.screen.grid.hsize
    }

    pub fn history_limit(&self) -> u32 {
        self.screen.grid.hlimit
    }

    pub fn alternate_on(&self) -> bool {
        self.screen.alternate_on()
    }

    /// See [`Screen::alternate_saved_cursor`].
    pub fn alternate_saved_cursor(&self) -> (u32, u32) {
        self.screen.alternate_saved_cursor()
    }

    /// The scroll region's first and last rows.
    pub fn scroll_region(&self) -> (u32, u32) {
        (self.screen.rupper, self.screen.rlower)
    }

    pub fn mode(&self) -> u32 {
        self.screen.mode
    }

    /// Bytes of cell storage tmux would report for this screen (`#{history_bytes}`): each
    /// line's cell array as far as it has been extended (5 bytes a cell) plus a 32-byte line
    /// record, over the history and the visible lines. Extended cells (wide, RGB...) are not
    /// counted. A frozen terminal is read through a copy that is not kept.
    pub fn history_bytes(&self) -> usize {
        let s = self.view();
        s.grid.all_lines().map(|r| r.size as usize * 5 + 32).sum()
    }

    /// The character under the cursor, as `#{cursor_character}` shows it.
    pub fn cursor_character(&self) -> String {
        let s = self.view();
        let cell = s.grid.get_cell(s.cx, s.grid.hsize + s.cy);
        let mut out = Vec::new();
        if !cell.is_padding() {
            cell::push_cell_text(&mut out, cell, &s.graphemes);
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Heap bytes held by this terminal: screen, history, tables and parser buffers when hot;
    /// the chunk and what stays hot when frozen; not the chunk when cold (the host holds it).
    pub fn heap_bytes(&self) -> usize {
        self.screen.heap_bytes()
            + self.parser.heap_bytes()
            + self.frozen_bytes()
            + self.decoded_bytes()
    }

    /// The part of [`Terminal::heap_bytes`] that sealed history lines hold (hot, frozen or
    /// cold: they stay with the grids).
    pub fn sealed_bytes(&self) -> usize {
        std::iter::once(&self.screen.grid)
            .chain(self.screen.saved_grid())
            .map(grid::Grid::sealed_bytes)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(term: &Terminal) -> String {
        String::from_utf8(capture::printable(term.capture(&CaptureOptions::default()))).unwrap()
    }

    #[test]
    fn abandoned_string_returns_to_ground_with_default_pen() {
        let mut t = Terminal::new(20, 3, 10);
        t.feed(b"\x1b[31m\x1b]2;unterminated");
        assert!(t.in_string());
        t.abandon_string();
        assert!(!t.in_string());
        t.feed(b"ok");
        assert_eq!(text(&t), "ok\n\n\n");
        let e = capture::printable(t.capture(&CaptureOptions {
            escapes: true,
            ..Default::default()
        }));
        assert_eq!(e, b"ok\n\n\n", "pen was reset, so no colour codes");
    }

    /// Erasing rows packed by an earlier write gives what erasing them while still being
    /// written gives (the packed and the expanded paths of a run's erase).
    #[test]
    fn erasing_a_packed_row_matches_erasing_it_in_the_same_write() {
        let drawn: &[u8] =
            b"\x1b[44mblue\x1b[m plain \xe2\x94\x80\xe2\x94\x80 wide \xe4\xb8\xad end\r\n\
            second line of text\r\nthird";
        let erases: [&[u8]; 6] = [
            b"\x1b[1;3H\x1b[K",
            b"\x1b[1;3H\x1b[41m\x1b[K",
            b"\x1b[2;6H\x1b[42m\x1b[1K",
            b"\x1b[1;16H\x1b[43m\x1b[4X",
            b"\x1b[1;21H\x1b[X",
            b"\x1b[3;2H\x1b[45m\x1b[K\x1b[2;30H\x1b[46m\x1b[K",
        ];
        let escapes = CaptureOptions {
            escapes: true,
            ..Default::default()
        };
        for erase in erases {
            let mut apart = Terminal::new(40, 4, 10);
            apart.feed(drawn);
            apart.feed(erase);
            let mut together = Terminal::new(40, 4, 10);
            together.feed(&[drawn, erase].concat());
            assert_eq!(
                capture::printable(apart.capture(&escapes)),
                capture::printable(together.capture(&escapes)),
                "{}",
                String::from_utf8_lossy(erase)
            );
        }
    }

    #[test]
    fn replies_are_collected_for_the_caller() {
        let mut t = Terminal::new(80, 24, 10);
        t.feed(b"ab\x1b[6n\x1b[c\x1b[>c\x1b[>q\x1b[5n");
        assert_eq!(
            t.take_replies(),
            b"\x1b[1;3R\x1b[?1;2c\x1b[>84;0;0c\x1bP>|tmux 3.3a\x1b\\\x1b[0n".to_vec()
        );
        assert!(!t.has_replies());
    }

    #[test]
    fn ignored_queries_produce_no_reply() {
        let mut t = Terminal::new(80, 24, 10);
        t.feed(b"\x1b[?2026$p\x1b]11;?\x07\x1b[?u\x1b[>1c");
        assert!(!t.has_replies());
    }

    #[test]
    fn a_write_leaves_every_row_packed_the_cursors_too() {
        let mut t = Terminal::new(80, 5, 100);
        t.feed(b"first line\r\nsecond line\r\nthird");
        let g = &t.screen().grid;
        assert!((0..3).all(|y| g.view_row(y).is_packed()));
    }

    #[test]
    fn the_packed_cursor_row_is_written_on() {
        let mut t = Terminal::new(220, 5, 100);
        t.feed(b"first line\r\n> typed text\x1b[220G|");
        assert!(t.screen().grid.view_row(1).is_packed());
        // What an expanded row of 220 cells holds, and more than the whole screen packed.
        assert!(t.heap_bytes() < 1320, "{}", t.heap_bytes());
        assert_eq!(
            text(&t).lines().nth(1),
            Some(format!("> typed text{}|", " ".repeat(207)).as_str())
        );
        t.feed(b"\r> more");
        assert_eq!(
            text(&t).lines().nth(1),
            Some(format!("> mored text{}|", " ".repeat(207)).as_str())
        );
        assert!(t.screen().grid.view_row(1).is_packed());
    }
}

#[cfg(test)]
mod hostile_regressions {
    use super::*;

    #[test]
    fn bare_delete_line_does_not_overflow() {
        let mut t = Terminal::new(80, 24, 2000);
        t.feed(b"\x1b[M\x1b[L");
        let mut t = Terminal::new(80, 24, 2000);
        t.feed(b"\xc8\x32\x4d\x3b\x3b\x1b\x5b\x4d");
        let mut t = Terminal::new(80, 24, 2000);
        t.feed(b"\x1b[?1049h\x1b[11Hhello");
        t.resize(80, 5);
    }

    fn lines(t: &Terminal) -> String {
        let opts = CaptureOptions {
            start: Some(LineSpec::Edge),
            end: Some(LineSpec::Edge),
            ..Default::default()
        };
        String::from_utf8(capture::printable(t.capture(&opts))).unwrap()
    }

    #[test]
    fn cursor_saved_on_a_taller_screen_is_restored_before_the_resize_back() {
        // ?47h does not save the cursor, so ?1049l restores the row saved by the first ?1049h
        // (8) onto the 3x2 screen saved by ?47h, then resizes to 80x24 with that row below the
        // last line. tmux reads past its lines there; with the memory blank, as it mostly is,
        // it shows 75 l's on the first line and the cursor at (0, 8).
        let mut t = Terminal::new(4, 24, 10);
        t.feed(b"\x1b[9H\x1b[?1049h");
        t.resize(3, 2);
        t.feed(b"\x1b[?47l");
        t.feed(b"\x1b[?47h");
        t.resize(80, 24);
        t.feed(b"l\x1b[256b-\x1b[?1049l");
        assert_eq!(lines(&t), format!("{}{}", "l".repeat(75), "\n".repeat(24)));
        assert_eq!(t.cursor(), (0, 8));
        assert_eq!(t.history_size(), 0);
    }

    #[test]
    fn cursor_saved_on_a_taller_screen_survives_a_shorter_resize_back() {
        // The same restore onto a screen shorter than the saved one: tmux deletes lines from
        // the bottom as if all were below the cursor and keeps "ab" on the one line. (Its
        // cursor there depends on memory it reads past its lines; here it stays on the screen.)
        let mut t = Terminal::new(4, 24, 10);
        t.feed(b"ab\r\ncd\x1b[9H\x1b[?1049h");
        t.resize(3, 2);
        t.feed(b"\x1b[?47l");
        t.feed(b"xy\x1b[?47h");
        t.resize(80, 1);
        t.feed(b"q\x1b[?1049l");
        assert_eq!(lines(&t), "ab\n");
        assert_eq!(t.history_size(), 0);
        let (x, y) = t.cursor();
        assert!(x < 80 && y == 0);
    }
}
