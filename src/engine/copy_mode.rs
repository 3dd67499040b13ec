//! Copy mode: a cursor over a copy of a pane's history and screen, a selection, and what it
//! copies, as tmux 3.3a's `window-copy.c` has them. Also tmux's view mode: the same over
//! lines of output shown in a pane's place.
//!
//! A [`CopyMode`] owns its copy of the terminal (tmux's backing screen), taken when the mode
//! starts, so the program's new output does not move what is shown (a resize of the pane
//! reflows it, as tmux's `window_copy_resize` does); the view is `oy` lines
//! above the copy's bottom and the cursor is at `cx`,`cy` of the rows shown. Commands are
//! tmux's `send-keys -X` names with its arguments ([`CopyMode::command`]); those that copy
//! return what they copied for the host to store in a paste buffer or give to a command.
//! Cursor moves follow tmux's grid reader: lines that wrap are walked as one, padding cells
//! of wide characters are stepped over, and a cursor moved off the rows shown scrolls them.
//!
//! This module is pure: the engine gives it the options it reads (`mode-keys`,
//! `word-separators`) with each command.
//!
//! Invariants: `oy` is at most the copy's history size, `cy` is a row shown, and `cx` is at
//! most the width (the width itself only after a move to the end of a rectangle's line).
//! Selection coordinates are lines of the copy, counted from its oldest history line.

mod search;

pub use search::{Mark, Regex, RegexCompiler};

use crate::term::{Terminal, TextLine};

/// How often a drag held on the top or bottom row scrolls (tmux's
/// `WINDOW_COPY_DRAG_REPEAT_TIME`).
pub const DRAG_SCROLL_MS: u64 = 50;

/// The characters tmux's word moves treat as blank.
const WHITESPACE: &str = "\t ";

/// What a command leaves for the host to do.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The mode ends.
    pub cancel: bool,
    /// Text copied (empty when nothing was selected).
    pub copied: Option<Copied>,
}

/// Text a command copied and where it goes.
#[derive(Debug, PartialEq, Eq)]
pub struct Copied {
    pub text: String,
    /// The paste buffer's name prefix, unexpanded (`copy-selection PREFIX`).
    pub prefix: Option<String>,
    /// A command that gets the text on its input, unexpanded (`copy-pipe COMMAND`); `Some("")`
    /// means `copy-command`.
    pub pipe: Option<String>,
    /// Put into a buffer (false for `pipe` alone).
    pub store: bool,
    /// Added to the end of the newest buffer (`append-selection`).
    pub append: bool,
}

/// The options a command reads.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// `mode-keys vi`.
    pub vi: bool,
    pub separators: String,
    /// `wrap-search`: searches go round the copy's ends.
    pub wrap_search: bool,
    /// How the host compiles regular expressions; without one, patterns are searched for as
    /// text.
    pub regex: Option<RegexCompiler>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Drag {
    None,
    Start,
    End,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineSel {
    None,
    LeftRight,
    RightLeft,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SelKind {
    Char,
    Word,
    Line,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Jump {
    Forward,
    Backward,
    ToForward,
    ToBackward,
}

/// Where a selection is drawn, in rows shown (tmux's `screen_sel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    sx: u32,
    sy: u32,
    ex: u32,
    ey: u32,
    rect: bool,
    vi: bool,
}

/// One pane's copy mode or view mode.
#[derive(Debug)]
pub struct CopyMode {
    backing: Terminal,
    /// tmux's view mode: output shown in the pane's place.
    view: bool,
    /// View mode: a line has been added.
    written: bool,
    pub oy: u32,
    pub cx: u32,
    pub cy: u32,
    lastcx: u32,
    lastsx: u32,
    /// A selection is shown (tmux's `s->sel`).
    selecting: bool,
    selx: u32,
    sely: u32,
    endselx: u32,
    endsely: u32,
    selrx: u32,
    selry: u32,
    endselrx: u32,
    endselry: u32,
    dx: u32,
    dy: u32,
    drag: Drag,
    line_sel: LineSel,
    kind: SelKind,
    rect: bool,
    /// `mode-keys` when the mode started: how a selection's last cell is drawn.
    vi_at_start: bool,
    separators: String,
    jump: Option<(Jump, String)>,
    search: search::Search,
    /// The mark (`set-mark`): a cell, and whether it shows.
    mark: (u32, u32),
    shows_mark: bool,
    pub hide_position: bool,
    /// Scrolling down to the bottom ends the mode (`copy-mode -e`).
    pub scroll_exit: bool,
    /// The pane whose content the mode shows when not the client's own (`copy-mode -s`).
    pub source: Option<u32>,
}

impl CopyMode {
    /// Copy mode over `term` (a copy of the pane's terminal), the cursor where the pane's is.
    pub fn new(mut term: Terminal, vi: bool) -> CopyMode {
        term.expand_all();
        let (cx, cy) = term.cursor();
        let (cx, cy) = match cy < term.rows() {
            true => (cx.min(term.cols()), cy),
            false => (0, term.rows().saturating_sub(1)),
        };
        let mut mode = CopyMode::over(term, false, vi);
        mode.cx = cx;
        mode.cy = cy;
        mode.mark = (cx, mode.cursor_line());
        mode
    }

    /// View mode: an empty copy `cols` by `rows`, the cursor at its top left.
    pub fn view(cols: u32, rows: u32, vi: bool) -> CopyMode {
        CopyMode::over(Terminal::new(cols, rows, u32::MAX), true, vi)
    }

    fn over(backing: Terminal, view: bool, vi: bool) -> CopyMode {
        CopyMode {
            backing,
            view,
            written: false,
            oy: 0,
            cx: 0,
            cy: 0,
            lastcx: 0,
            lastsx: 0,
            selecting: false,
            selx: 0,
            sely: 0,
            endselx: 0,
            endsely: 0,
            selrx: 0,
            selry: 0,
            endselrx: 0,
            endselry: 0,
            dx: 0,
            dy: 0,
            drag: Drag::None,
            line_sel: LineSel::None,
            kind: SelKind::Char,
            rect: false,
            vi_at_start: vi,
            separators: String::new(),
            jump: None,
            search: search::Search::default(),
            mark: (0, 0),
            shows_mark: false,
            hide_position: false,
            scroll_exit: false,
            source: None,
        }
    }

    /// tmux's copy-mode format variables: `copy_cursor_x`, `copy_cursor_y`,
    /// `scroll_position`, `selection_present` and `selection_active`.
    pub fn format(&self, name: &str) -> String {
        match name {
            "copy_cursor_x" => self.cx.to_string(),
            "copy_cursor_y" => self.cy.to_string(),
            "scroll_position" => self.oy.to_string(),
            "selection_present" => u8::from(self.selecting).to_string(),
            "selection_active" => u8::from(self.drag != Drag::None).to_string(),
            _ => String::new(),
        }
    }

    /// The last search's text and whether it was a regular expression.
    pub fn last_search(&self) -> Option<(String, bool)> {
        Some((self.search.text.clone()?, self.search.regex))
    }

    /// Takes up a search made before in the pane: `search-again` looks for it upwards, as
    /// a new tmux copy mode does.
    pub fn resume_search(&mut self, text: String, regex: bool) {
        self.search.text = Some(text);
        self.search.regex = regex;
        self.search.again_down = Some(false);
    }

    pub fn is_view(&self) -> bool {
        self.view
    }

    pub fn backing(&self) -> &Terminal {
        &self.backing
    }

    pub fn hsize(&self) -> u32 {
        self.backing.history_size()
    }

    fn sx(&self) -> u32 {
        self.backing.cols()
    }

    fn sy(&self) -> u32 {
        self.backing.rows()
    }

    /// The copy's line shown on row `y`.
    pub fn line_of_row(&self, y: u32) -> u32 {
        self.hsize() - self.oy + y
    }

    fn cursor_line(&self) -> u32 {
        self.line_of_row(self.cy)
    }

    fn length(&self, y: u32) -> u32 {
        self.backing.text_line(y).length()
    }

    /// Adds a line of output below the others (view mode), as tmux's `window_copy_add`: the
    /// lines shown stay where they are as the history grows.
    pub fn add_line(&mut self, text: &str) {
        let old = self.hsize();
        let mut bytes = Vec::with_capacity(text.len() + 2);
        if std::mem::replace(&mut self.written, true) {
            bytes.extend_from_slice(b"\r\n");
        }
        bytes.extend(text.bytes().filter(|&b| b >= b' ' && b != 0x7f));
        self.backing.feed(&bytes);
        self.oy += self.hsize() - old;
    }

    // ---- commands ----

    /// Runs `send-keys -X` command `args[0]` with its arguments, `count` times where tmux
    /// repeats it. Unknown commands and wrong argument counts do nothing, as in tmux.
    pub fn command(&mut self, args: &[String], count: u32, set: &Settings) -> Outcome {
        let name = args.first().map_or("", String::as_str);
        let arg = |i: usize| args.get(i).cloned();
        let n = count.max(1);
        let mut out = Outcome::default();
        if self.search_command(name, args.get(1).map(String::as_str), n, set) {
            return out;
        }
        let mut known = true;
        match name {
            "append-selection" | "append-selection-and-cancel" => {
                out.copied = self.selection_text(set.vi).map(|text| Copied {
                    text,
                    prefix: None,
                    pipe: None,
                    store: true,
                    append: true,
                });
                self.clear_selection();
                out.cancel = name.ends_with("cancel");
            }
            "back-to-indentation" => self.move_reader_up(|r| r.back_to_indentation()),
            "begin-selection" => {
                self.line_sel = LineSel::None;
                self.kind = SelKind::Char;
                self.start_selection();
            }
            "stop-selection" => {
                self.drag = Drag::None;
                self.line_sel = LineSel::None;
                self.kind = SelKind::Char;
            }
            "bottom-line" | "middle-line" | "top-line" => {
                self.cx = 0;
                self.cy = match name {
                    "bottom-line" => self.sy() - 1,
                    "middle-line" => (self.sy() - 1) / 2,
                    _ => 0,
                };
                self.update_selection(false);
            }
            "cancel" => out.cancel = true,
            "clear-selection" => self.clear_selection(),
            "copy-end-of-line"
            | "copy-end-of-line-and-cancel"
            | "copy-pipe-end-of-line"
            | "copy-pipe-end-of-line-and-cancel"
            | "copy-line"
            | "copy-line-and-cancel"
            | "copy-pipe-line"
            | "copy-pipe-line-and-cancel" => {
                let pipe = name.starts_with("copy-pipe");
                let (prefix, command) = match pipe {
                    true => (arg(2), Some(arg(1).unwrap_or_default())),
                    false => (arg(1), None),
                };
                let whole = name.starts_with("copy-line") || name.starts_with("copy-pipe-line");
                out = self.copy_lines(whole, n, set.vi);
                if let Some(c) = &mut out.copied {
                    c.prefix = prefix;
                    c.pipe = command;
                }
                out.cancel = out.cancel && name.ends_with("cancel");
            }
            "copy-selection"
            | "copy-selection-and-cancel"
            | "copy-selection-no-clear"
            | "copy-pipe"
            | "copy-pipe-and-cancel"
            | "copy-pipe-no-clear"
            | "pipe"
            | "pipe-and-cancel"
            | "pipe-no-clear" => {
                let pipe = !name.starts_with("copy-selection");
                let (prefix, command) = match pipe {
                    true => (arg(2), Some(arg(1).unwrap_or_default())),
                    false => (arg(1), None),
                };
                out.copied = self.selection_text(set.vi).map(|text| Copied {
                    text,
                    prefix,
                    pipe: command,
                    store: name.starts_with("copy"),
                    append: false,
                });
                if !name.ends_with("no-clear") {
                    self.clear_selection();
                }
                out.cancel = name.ends_with("cancel");
            }
            "cursor-down" => (0..n).for_each(|_| self.cursor_down(false)),
            "cursor-down-and-cancel" => {
                let cy = self.cy;
                (0..n).for_each(|_| self.cursor_down(false));
                out.cancel = cy == self.cy && self.oy == 0;
            }
            "cursor-left" => (0..n).for_each(|_| self.move_reader_up(|r| r.left(true))),
            "cursor-right" => {
                let all = self.selecting && self.rect;
                (0..n).for_each(|_| self.move_reader_down(false, |r| r.right(true, all)));
            }
            "cursor-up" => (0..n).for_each(|_| self.cursor_up(false)),
            "end-of-line" => self.end_of_line(),
            "halfpage-down" | "halfpage-down-and-cancel" | "page-down" | "page-down-and-cancel" => {
                let half = name.starts_with("half");
                let exit = name.ends_with("cancel") || self.scroll_exit;
                out.cancel = (0..n).any(|_| self.page_down(half, exit));
            }
            "halfpage-up" | "page-up" => (0..n).for_each(|_| self.page_up(name == "halfpage-up")),
            "history-bottom" => {
                if self.line_sel == LineSel::RightLeft && self.cursor_line() == self.endsely {
                    self.other_end();
                }
                self.cy = self.sy() - 1;
                self.cx = self.length(self.hsize() + self.cy);
                self.oy = 0;
                self.refresh_marks();
                self.update_selection(false);
            }
            "history-top" => {
                if self.line_sel == LineSel::LeftRight && self.cursor_line() == self.sely {
                    self.other_end();
                }
                self.cy = 0;
                self.cx = 0;
                self.oy = self.hsize();
                self.refresh_marks();
                self.update_selection(false);
            }
            "goto-line" => {
                if let Some(Ok(line)) =
                    arg(1).map(|l| super::numbers::strtonum(&l, -1, i32::MAX.into()))
                {
                    self.oy = u32::try_from(line).map_or(self.hsize(), |l| l.min(self.hsize()));
                    self.update_selection(false);
                }
            }
            "jump-again" | "jump-reverse" => {
                if let Some((kind, _)) = self.jump {
                    let kind = match name == "jump-reverse" {
                        true => kind.reversed(),
                        false => kind,
                    };
                    (0..n).for_each(|_| self.jump_once(kind));
                }
            }
            "jump-backward" | "jump-forward" | "jump-to-backward" | "jump-to-forward" => {
                let kind = match name {
                    "jump-backward" => Jump::Backward,
                    "jump-forward" => Jump::Forward,
                    "jump-to-backward" => Jump::ToBackward,
                    _ => Jump::ToForward,
                };
                if let Some(c) = arg(1).filter(|c| !c.is_empty()) {
                    let first = c.chars().next().map(String::from).unwrap_or_default();
                    self.jump = Some((kind, first));
                    (0..n).for_each(|_| self.jump_once(kind));
                }
            }
            "next-space" | "next-word" => {
                let seps = if name == "next-word" {
                    set.separators.as_str()
                } else {
                    ""
                };
                (0..n).for_each(|_| self.move_reader_down(false, |r| r.next_word(seps)));
            }
            "next-space-end" | "next-word-end" => {
                let seps = if name == "next-word-end" {
                    set.separators.as_str()
                } else {
                    ""
                };
                (0..n).for_each(|_| self.next_word_end(seps, set.vi, false));
            }
            "other-end" => {
                self.kind = SelKind::Char;
                if !n.is_multiple_of(2) {
                    self.other_end();
                }
            }
            "previous-space" | "previous-word" => {
                let seps = if name == "previous-word" {
                    set.separators.as_str()
                } else {
                    ""
                };
                let eol = !set.vi;
                (0..n).for_each(|_| self.move_reader_up(|r| r.previous_word(seps, true, eol)));
            }
            "rectangle-on" | "rectangle-off" | "rectangle-toggle" => {
                self.line_sel = LineSel::None;
                let on = match name {
                    "rectangle-on" => true,
                    "rectangle-off" => false,
                    _ => !self.rect,
                };
                self.set_rectangle(on);
            }
            "scroll-down" | "scroll-down-and-cancel" => {
                (0..n).for_each(|_| self.cursor_down(true));
                out.cancel = (name.ends_with("cancel") || self.scroll_exit) && self.oy == 0;
            }
            "scroll-up" => (0..n).for_each(|_| self.cursor_up(true)),
            "select-line" => self.select_line(n),
            "select-word" => self.select_word(set),
            "start-of-line" => self.move_reader_up(|r| r.start_of_line(true)),
            "toggle-position" => self.hide_position = !self.hide_position,
            "set-mark" => {
                self.mark = (self.cx, self.cursor_line());
                self.shows_mark = true;
            }
            "jump-to-mark" => self.jump_to_mark(),
            "next-paragraph" => (0..n).for_each(|_| self.next_paragraph()),
            "previous-paragraph" => (0..n).for_each(|_| self.previous_paragraph()),
            _ => known = false,
        }
        self.after_command(name, known, set.vi);
        out
    }

    // ---- paragraphs and the mark ----

    /// To the end of the next paragraph: past blank lines, then past the lines with text.
    fn next_paragraph(&mut self) {
        let last = self.hsize() + self.sy() - 1;
        let mut y = self.cursor_line();
        while y < last && self.length(y) == 0 {
            y += 1;
        }
        while y < last && self.length(y) > 0 {
            y += 1;
        }
        self.scroll_to(self.length(y), y);
        self.refresh_marks();
    }

    /// To the blank line before this paragraph.
    fn previous_paragraph(&mut self) {
        let mut y = self.cursor_line();
        while y > 0 && self.length(y) == 0 {
            y -= 1;
        }
        while y > 0 && self.length(y) > 0 {
            y -= 1;
        }
        self.scroll_to(0, y);
        self.refresh_marks();
    }

    /// The cursor and the mark change places, as tmux's `window_copy_jump_to_mark`.
    fn jump_to_mark(&mut self) {
        let here = (self.cx, self.cursor_line());
        let (mx, my) = self.mark;
        self.cx = mx;
        if my < self.hsize() {
            self.cy = 0;
            self.oy = self.hsize() - my;
        } else {
            self.cy = (my - self.hsize()).min(self.sy() - 1);
            self.oy = 0;
        }
        self.mark = here;
        self.shows_mark = true;
        self.update_selection(false);
    }

    /// Where the mark is drawn, when it shows: its row among those shown and its column.
    pub fn shown_mark(&self) -> Option<(u32, u32)> {
        let top = self.hsize() - self.oy;
        let (mx, my) = self.mark;
        (self.shows_mark && my >= top && my < top + self.sy()).then(|| (mx, my - top))
    }

    /// Takes a new copy of the pane (`refresh-from-pane`): the selection and marks go, a
    /// search's matches are marked again, and the view and cursor stay where they were.
    pub fn refresh(&mut self, mut term: Terminal) {
        if self.view {
            return;
        }
        term.expand_all();
        self.backing = term;
        self.oy = self.oy.min(self.hsize());
        self.cy = self.cy.min(self.sy() - 1);
        self.clear_selection();
        self.refresh_marks_everywhere();
    }

    /// The pane is now `cols` by `rows` (tmux's `window_copy_resize`): the copy is reflowed to
    /// it, the cursor stays on its character, shown at the top when it is in the history;
    /// the selection and marks go and a search's matches are marked again.
    pub fn resize(&mut self, cols: u32, rows: u32) {
        if (cols, rows) == (self.sx(), self.sy()) {
            return;
        }
        let line = self.hsize() + self.cy - self.oy;
        let (cx, line) = self.backing.resize_copy(cols, rows, self.cx, line);
        self.cx = cx;
        let hsize = self.hsize();
        (self.cy, self.oy) = match line.checked_sub(hsize) {
            Some(cy) => (cy.min(self.sy() - 1), 0),
            None => (0, hsize - line),
        };
        self.clear_selection();
        self.refresh_marks_everywhere();
    }

    // ---- mouse drags ----

    /// A mouse binding's command runs with the mouse at cell `x`,`y` of the rows shown: the
    /// cursor goes there first (tmux's `window_copy_move_mouse`).
    pub fn move_mouse(&mut self, x: u32, y: u32) {
        if x < self.sx() && y < self.sy() {
            (self.cx, self.cy) = (x, y);
        }
    }

    /// A mouse drag starts at cell `x`,`y` of the rows shown (tmux's
    /// `window_copy_start_drag`): a selection of characters from there, or the word or line
    /// selected there before, widened as the drag goes.
    pub fn drag_start(&mut self, x: u32, y: u32) {
        if x >= self.sx() || y >= self.sy() {
            return;
        }
        let line = self.hsize() + y - self.oy;
        if x < self.selrx || x > self.endselrx || line != self.selry {
            self.kind = SelKind::Char;
        }
        match self.kind {
            SelKind::Word => {
                (self.cx, self.cy) = (x, y);
                let seps = self.separators.clone();
                let (px, py) = self.read(|r| r.previous_word(&seps, false, true));
                self.cx = px;
                self.cy = (py + self.oy).saturating_sub(self.hsize());
            }
            SelKind::Line => (self.cx, self.cy) = (0, y),
            SelKind::Char => {
                (self.cx, self.cy) = (x, y);
                self.start_selection();
            }
        }
    }

    /// The drag is at cell `x`,`y` (tmux's `window_copy_drag_update`): the cursor and the
    /// selection's end follow it; on the top or bottom row the view scrolls a line, and true
    /// says it goes on scrolling while the mouse stays there ([`CopyMode::drag_scroll`]).
    pub fn drag_to(&mut self, x: u32, y: u32) -> bool {
        if x >= self.sx() || y >= self.sy() {
            return false;
        }
        let (old_cx, old_cy) = (self.cx, self.cy);
        (self.cx, self.cy) = (x, y);
        self.update_selection(false);
        (old_cy != self.cy || old_cx == self.cx) && self.drag_scroll()
    }

    /// A drag held on the top or bottom row scrolls a line that way (tmux's
    /// `window_copy_scroll_timer`, every [`DRAG_SCROLL_MS`] while the mouse stays there);
    /// false when the cursor is on neither row.
    pub fn drag_scroll(&mut self) -> bool {
        if self.cy == 0 {
            self.cursor_up(true);
        } else if self.cy == self.sy() - 1 {
            self.cursor_down(true);
        } else {
            return false;
        }
        true
    }

    // ---- cursor moves ----

    /// Moves the cursor with a reader that may go up, scrolling up to keep it shown
    /// (tmux's `window_copy_acquire_cursor_up`).
    fn move_reader_up(&mut self, step: impl FnOnce(&mut Reader<'_>)) {
        let (px, py) = self.read(step);
        let top = self.hsize() - self.oy;
        let cy = match py < top {
            true => {
                (0..top - py).for_each(|_| self.cursor_up(true));
                0
            }
            false => py - top,
        };
        self.cx = px;
        self.cy = cy;
        self.update_selection(false);
    }

    /// As [`CopyMode::move_reader_up`], down (tmux's `window_copy_acquire_cursor_down`).
    fn move_reader_down(&mut self, no_reset: bool, step: impl FnOnce(&mut Reader<'_>)) {
        let (px, py) = self.read(step);
        let cy = (py + self.oy).saturating_sub(self.hsize());
        let last = self.sy() - 1;
        if cy > last {
            (0..cy - last).for_each(|_| self.cursor_down(true));
        }
        self.cx = px;
        self.cy = cy.min(last);
        self.update_selection(no_reset);
    }

    /// Where a reader started at the cursor ends.
    fn read(&self, step: impl FnOnce(&mut Reader<'_>)) -> (u32, u32) {
        let mut r = Reader::new(&self.backing, self.cx, self.cursor_line());
        step(&mut r);
        (r.cx, r.cy)
    }

    fn end_of_line(&mut self) {
        let all = self.selecting && self.rect;
        self.move_reader_down(false, |r| r.end_of_line(true, all));
    }

    /// Remembers the column a vertical move started from, unless at the line's end.
    fn keep_column(&mut self) -> bool {
        let keep = !self.selecting || !self.rect;
        let ox = self.length(self.cursor_line());
        if keep && self.cx != ox {
            self.lastcx = self.cx;
            self.lastsx = ox;
        }
        keep
    }

    /// After a vertical move: the cursor goes to the line's end when it was at the end of
    /// the line it left, or is past this one's.
    fn settle_column(&mut self) {
        let px = self.length(self.cursor_line());
        if (self.cx >= self.lastsx && self.cx != px) || self.cx > px {
            self.cx = px;
            self.update_selection(false);
        }
    }

    /// The cursor on a line selection's row goes to its start or end.
    fn settle_line_selection(&mut self) {
        match self.line_sel {
            LineSel::LeftRight => {
                self.cx = match self.rect {
                    true => self.sx(),
                    false => self.length(self.cursor_line()),
                };
                self.update_selection(false);
            }
            LineSel::RightLeft => {
                self.cx = 0;
                self.update_selection(false);
            }
            LineSel::None => {}
        }
    }

    fn cursor_up(&mut self, scroll_only: bool) {
        self.cursor_vertical(true, scroll_only);
    }

    fn cursor_down(&mut self, scroll_only: bool) {
        self.cursor_vertical(false, scroll_only);
    }

    /// A line up or down (tmux's `window_copy_cursor_up` and `_down`): the cursor keeps its
    /// column, scrolling the view at its edge (or, `scroll_only`, always); a line
    /// selection's dragged end crosses over at its other end.
    fn cursor_vertical(&mut self, up: bool, scroll_only: bool) {
        let keep = self.keep_column();
        let (crossing, other) = match up {
            true => (LineSel::LeftRight, self.sely),
            false => (LineSel::RightLeft, self.endsely),
        };
        if self.line_sel == crossing && self.cursor_line() == other {
            self.other_end();
        }
        if keep {
            self.cx = self.lastcx;
        }
        let edge = if up { 0 } else { self.sy() - 1 };
        // Scrolling updates the selection only when the view moved, as tmux's.
        match (scroll_only || self.cy == edge, up) {
            (true, true) => self.scroll_down(1),
            (true, false) => self.scroll_up(1),
            (false, true) => {
                self.cy -= 1;
                self.update_selection(false);
            }
            (false, false) => {
                self.cy += 1;
                self.update_selection(false);
            }
        }
        if keep {
            self.settle_column();
        }
        self.settle_line_selection();
    }

    /// The text moves up `ny` lines (towards the bottom of the copy).
    fn scroll_up(&mut self, ny: u32) {
        let ny = ny.min(self.oy);
        if ny > 0 {
            self.oy -= ny;
            self.refresh_marks();
            self.update_selection(false);
        }
    }

    /// The text moves down `ny` lines (into the history).
    fn scroll_down(&mut self, ny: u32) {
        let hsize = self.hsize();
        if ny > hsize {
            return;
        }
        let ny = ny.min(hsize - self.oy);
        if ny > 0 {
            self.oy += ny;
            self.refresh_marks();
            self.update_selection(false);
        }
    }

    /// How far a page moves: the rows less two (a half: half the rows).
    fn page(&self, half: bool) -> u32 {
        match (self.sy() > 2, half) {
            (false, _) => 1,
            (true, true) => self.sy() / 2,
            (true, false) => self.sy() - 2,
        }
    }

    fn page_up(&mut self, half: bool) {
        self.keep_column_for_page();
        let n = self.page(half);
        if self.oy + n > self.hsize() {
            self.oy = self.hsize();
            self.cy = self.cy.saturating_sub(n);
        } else {
            self.oy += n;
        }
        self.settle_page_column();
        self.refresh_marks();
        self.update_selection(false);
    }

    /// True when the mode ends (`exit` and at the bottom).
    fn page_down(&mut self, half: bool, exit: bool) -> bool {
        self.keep_column_for_page();
        let n = self.page(half);
        if self.oy < n {
            // As tmux's: the rows left to scroll are counted after the view reached the bottom,
            // so the cursor moves down a whole page.
            self.oy = 0;
            self.cy = (self.cy + n).min(self.sy() - 1);
        } else {
            self.oy -= n;
        }
        self.settle_page_column();
        if exit && self.oy == 0 {
            return true;
        }
        self.refresh_marks();
        self.update_selection(false);
        false
    }

    fn keep_column_for_page(&mut self) {
        let ox = self.length(self.cursor_line());
        if self.cx != ox {
            self.lastcx = self.cx;
            self.lastsx = ox;
        }
        self.cx = self.lastcx;
    }

    fn settle_page_column(&mut self) {
        if !self.selecting || !self.rect {
            let px = self.length(self.cursor_line());
            if (self.cx >= self.lastsx && self.cx != px) || self.cx > px {
                self.end_of_line();
            }
        }
    }

    fn next_word_end(&mut self, separators: &str, vi: bool, no_reset: bool) {
        self.move_reader_down(no_reset, |r| r.next_word_end_as(separators, vi));
    }

    fn jump_once(&mut self, kind: Jump) {
        let Some((_, c)) = self.jump.clone() else {
            return;
        };
        let (cx, line) = (self.cx, self.cursor_line());
        let mut r = Reader::new(&self.backing, cx, line);
        match kind {
            Jump::Forward | Jump::ToForward => {
                r.cx = cx + if kind == Jump::Forward { 1 } else { 2 };
                if r.jump(&c) {
                    if kind == Jump::ToForward {
                        r.left(true);
                    }
                    let (x, y) = (r.cx, r.cy);
                    self.move_reader_down(false, |r| (r.cx, r.cy) = (x, y));
                }
            }
            Jump::Backward | Jump::ToBackward => {
                r.left(false);
                if kind == Jump::ToBackward {
                    r.left(false);
                }
                if r.jump_back(&c) {
                    if kind == Jump::ToBackward {
                        r.right(true, false);
                    }
                    let (x, y) = (r.cx, r.cy);
                    self.move_reader_up(|r| (r.cx, r.cy) = (x, y));
                }
            }
        }
    }

    // ---- selection ----

    fn start_selection(&mut self) {
        self.selx = self.cx;
        self.sely = self.cursor_line();
        self.endselx = self.selx;
        self.endsely = self.sely;
        self.drag = Drag::End;
        self.selecting = true;
        self.update_selection(false);
    }

    fn clear_selection(&mut self) {
        self.selecting = false;
        self.drag = Drag::None;
        self.line_sel = LineSel::None;
        self.kind = SelKind::Char;
        let px = self.length(self.cursor_line());
        self.cx = self.cx.min(px);
    }

    fn set_rectangle(&mut self, on: bool) {
        self.rect = on;
        let px = self.length(self.cursor_line());
        self.cx = self.cx.min(px);
        self.update_selection(false);
    }

    /// Moves the dragged end of the selection to the cursor (tmux's
    /// `window_copy_synchronize_cursor`), widened to words or lines.
    fn update_selection(&mut self, no_reset: bool) {
        if !self.selecting && self.line_sel == LineSel::None {
            return;
        }
        let mut begin = match self.drag {
            Drag::None => return,
            Drag::Start => true,
            Drag::End => false,
        };
        let (mut xx, mut yy) = (self.cx, self.cursor_line());
        match self.kind {
            SelKind::Word if !no_reset => {
                begin = false;
                if self.dy > yy || (self.dy == yy && self.dx > xx) {
                    let seps = self.separators.clone();
                    (xx, yy) = self.read(|r| r.previous_word(&seps, false, true));
                    begin = true;
                    self.endselx = self.endselrx;
                    self.endsely = self.endselry;
                } else {
                    let line = self.backing.text_line(yy);
                    if xx >= line.length() || !in_set(&line, xx + 1, WHITESPACE) {
                        let seps = self.separators.clone();
                        (xx, yy) = self.read(|r| r.next_word_end_as(&seps, false));
                    }
                    self.selx = self.selrx;
                    self.sely = self.selry;
                }
            }
            SelKind::Line if !no_reset => {
                begin = false;
                if self.dy > yy {
                    xx = 0;
                    begin = true;
                    self.endselx = self.endselrx;
                    self.endsely = self.endselry;
                } else {
                    yy = yy.max(self.endselry);
                    xx = self.length(yy);
                    self.selx = self.selrx;
                    self.sely = self.selry;
                }
            }
            _ => {}
        }
        if begin {
            (self.selx, self.sely) = (xx, yy);
        } else {
            (self.endselx, self.endsely) = (xx, yy);
        }
    }

    fn other_end(&mut self) {
        if !self.selecting && self.line_sel == LineSel::None {
            return;
        }
        self.line_sel = match self.line_sel {
            LineSel::LeftRight => LineSel::RightLeft,
            LineSel::RightLeft => LineSel::LeftRight,
            LineSel::None => LineSel::None,
        };
        self.drag = match self.drag {
            Drag::End => Drag::Start,
            _ => Drag::End,
        };
        let (selx, sely) = match self.drag {
            Drag::Start => (self.selx, self.sely),
            _ => (self.endselx, self.endsely),
        };
        let (cy, yy) = (self.cy, self.cursor_line());
        self.cx = selx;
        let top = self.hsize() - self.oy;
        if sely < top {
            self.oy = self.hsize() - sely;
            self.cy = 0;
        } else if sely > top + self.sy() {
            self.oy = (self.hsize() + self.sy() - 1).saturating_sub(sely);
            self.cy = self.sy() - 1;
        } else {
            self.cy = (cy + sely).saturating_sub(yy);
        }
        self.update_selection(true);
    }

    fn select_line(&mut self, n: u32) {
        self.line_sel = LineSel::LeftRight;
        self.rect = false;
        self.kind = SelKind::Line;
        self.dx = self.cx;
        self.dy = self.cursor_line();
        self.move_reader_up(|r| r.start_of_line(true));
        self.selrx = self.cx;
        self.selry = self.cursor_line();
        self.endselry = self.selry;
        self.start_selection();
        self.end_of_line();
        self.endselry = self.cursor_line();
        self.endselrx = self.length(self.endselry);
        for _ in 1..n {
            self.cursor_down(false);
            self.end_of_line();
        }
    }

    fn select_word(&mut self, set: &Settings) {
        self.line_sel = LineSel::LeftRight;
        self.rect = false;
        self.kind = SelKind::Word;
        self.dx = self.cx;
        self.dy = self.cursor_line();
        self.separators = set.separators.clone();
        let seps = self.separators.clone();
        self.move_reader_up(|r| r.previous_word(&seps, false, !set.vi));
        let (px, py) = (self.cx, self.cursor_line());
        self.selrx = px;
        self.selry = py;
        self.start_selection();
        let line = self.backing.text_line(py);
        let (nx, ny) = match line.wrapped && px + 1 > self.sx() - 1 {
            true => (0, py + 1),
            false => (px + 1, py),
        };
        let next = self.backing.text_line(ny);
        if px >= line.length() || !in_set(&next, nx, WHITESPACE) {
            self.next_word_end(&seps, set.vi, true);
        } else {
            self.cx = px;
            self.update_selection(true);
        }
        self.endselrx = self.cx;
        self.endselry = self.cursor_line();
        if self.dy > self.endselry {
            self.dy = self.endselry;
            self.dx = self.endselrx;
        } else if self.dx > self.endselrx {
            self.dx = self.endselrx;
        }
    }

    /// copy-end-of-line and copy-line: the selection from the cursor (or its line's start)
    /// to the end of the line `n - 1` lines down, copied; the cursor and view come back
    /// unless the mode ends.
    fn copy_lines(&mut self, whole: bool, n: u32, vi: bool) -> Outcome {
        let (cx, cy, oy) = (self.cx, self.cy, self.oy);
        if whole {
            self.kind = SelKind::Char;
            self.move_reader_up(|r| r.start_of_line(true));
        }
        self.start_selection();
        for _ in 1..n {
            self.cursor_down(false);
        }
        self.end_of_line();
        let copied = self.selection_text(vi).map(|text| Copied {
            text,
            prefix: None,
            pipe: None,
            store: true,
            append: false,
        });
        self.clear_selection();
        (self.cx, self.cy, self.oy) = (cx, cy, oy);
        Outcome {
            cancel: true,
            copied,
        }
    }

    /// The selection's text as tmux's `window_copy_get_selection` makes it: with emacs keys
    /// the cell under the cursor at the end is left out, with vi it is kept; lines end with a
    /// newline unless they wrap, and the last one's is dropped. `None` with nothing selected.
    pub fn selection_text(&self, vi: bool) -> Option<String> {
        if !self.selecting && self.line_sel == LineSel::None {
            return None;
        }
        let (sx, sy, mut ex, ey) = {
            let (xx, yy) = (self.endselx, self.endsely);
            if yy < self.sely || (yy == self.sely && xx < self.selx) {
                (xx, yy, self.selx, self.sely)
            } else {
                (self.selx, self.sely, xx, yy)
            }
        };
        let ey_last = self.length(ey);
        ex = ex.min(ey_last);
        let (firstsx, restsx, lastex, restex) = if self.rect {
            let selx = match self.drag {
                Drag::End => self.selx,
                _ => self.endselx,
            };
            if selx < self.cx {
                let end = self.cx + u32::from(vi);
                (selx, selx, end, end)
            } else {
                (self.cx, self.cx, selx + 1, selx + 1)
            }
        } else {
            (sx, 0, ex + u32::from(vi), self.sx())
        };
        let mut text = String::new();
        for y in sy..=ey {
            let from = if y == sy { firstsx } else { restsx };
            let to = if y == ey { lastex } else { restex };
            self.copy_line(&mut text, y, from, to);
        }
        if text.is_empty() {
            return None;
        }
        if (!vi || lastex <= ey_last) && (!self.backing.text_line(ey).wrapped || lastex != ey_last)
        {
            text.pop();
        }
        Some(text)
    }

    /// Cells `sx..ex` of line `y` and a newline unless the line wraps on through its end.
    fn copy_line(&self, out: &mut String, y: u32, sx: u32, ex: u32) {
        if sx > ex {
            return;
        }
        let line = self.backing.text_line(y);
        let wrapped = line.wrapped && line.size() <= self.sx();
        let xx = if wrapped { line.size() } else { line.length() };
        let (sx, ex) = (sx.min(xx), ex.min(xx));
        if sx < ex {
            line.copy_text(sx, ex, out);
        }
        if !wrapped || ex != xx {
            out.push('\n');
        }
    }

    /// The selection as drawn on the rows shown, `None` when none shows (tmux's
    /// `window_copy_set_selection` and `screen_hide_selection`).
    pub fn shown_selection(&self) -> Option<Shown> {
        if !self.selecting {
            return None;
        }
        let (sx, sy, start) = self.adjust(self.selx, self.sely);
        let (ex, ey, end) = self.adjust(self.endselx, self.endsely);
        if start == end && start != 0 {
            return None;
        }
        Some(Shown {
            sx,
            sy,
            ex,
            ey,
            rect: self.rect,
            vi: self.vi_at_start,
        })
    }

    /// A selection end on the rows shown: clamped to them, and whether it was above (-1),
    /// on (0) or below (1) them.
    fn adjust(&self, x: u32, y: u32) -> (u32, u32, i8) {
        let top = self.hsize() - self.oy;
        if y < top {
            (if self.rect { x } else { 0 }, 0, -1)
        } else if y > top + self.sy() - 1 {
            let x = if self.rect { x } else { self.sx() - 1 };
            (x, self.sy() - 1, 1)
        } else {
            (x, y - top, 0)
        }
    }
}

impl Jump {
    fn reversed(self) -> Jump {
        match self {
            Jump::Forward => Jump::Backward,
            Jump::Backward => Jump::Forward,
            Jump::ToForward => Jump::ToBackward,
            Jump::ToBackward => Jump::ToForward,
        }
    }
}

impl Shown {
    /// Whether cell `px` of row `py` is drawn selected (tmux's `screen_check_selection`):
    /// with emacs keys the cell at the end is not, with vi it is.
    pub fn contains(&self, px: u32, py: u32) -> bool {
        let Shown {
            sx,
            sy,
            ex,
            ey,
            rect,
            vi,
        } = *self;
        if rect {
            let rows = if sy <= ey { sy..=ey } else { ey..=sy };
            let cols = if ex < sx { ex..=sx } else { sx..=ex };
            return rows.contains(&py) && cols.contains(&px);
        }
        if sy < ey {
            let last = if vi { ex } else { ex.saturating_sub(1) };
            (sy..=ey).contains(&py) && !(py == sy && px < sx) && !(py == ey && px > last)
        } else if sy > ey {
            (ey..=sy).contains(&py)
                && !(py == ey && px < ex)
                && !(py == sy && (sx == 0 || px > if vi { sx } else { sx - 1 }))
        } else if py != sy {
            false
        } else if ex < sx {
            let last = if vi { sx } else { sx - 1 };
            px <= last && px >= ex
        } else {
            let last = if vi { ex } else { ex.saturating_sub(1) };
            px >= sx && px <= last
        }
    }
}

/// Whether cell `x` of `line` is one of the characters of `set` (padding is not).
fn in_set(line: &TextLine, x: u32, set: &str) -> bool {
    if line.is_padding(x) {
        return false;
    }
    let mut chars = line.cell(x).chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if set.contains(c))
}

/// A position in a copy that moves as tmux's `grid_reader` moves.
struct Reader<'a> {
    lines: Lines<'a>,
    cx: u32,
    cy: u32,
}

/// A copy's lines as text, the last few kept: moves and searches read the same lines over
/// and over (a word move looks at the line above at each step, a search at the lines its
/// matches wrap onto).
struct Lines<'a> {
    term: &'a Terminal,
    kept: Vec<(u32, TextLine)>,
}

impl<'a> Lines<'a> {
    fn new(term: &'a Terminal) -> Lines<'a> {
        Lines {
            term,
            kept: Vec::new(),
        }
    }

    fn line(&mut self, y: u32) -> &TextLine {
        let at = match self.kept.iter().position(|(at, _)| *at == y) {
            Some(i) => i,
            None => {
                if self.kept.len() == 4 {
                    self.kept.remove(0);
                }
                self.kept.push((y, self.term.text_line(y)));
                self.kept.len() - 1
            }
        };
        &self.kept[at].1
    }

    fn last_line(&self) -> u32 {
        self.term.line_count() - 1
    }

    fn sx(&self) -> u32 {
        self.term.cols()
    }
}

impl<'a> Reader<'a> {
    fn new(term: &'a Terminal, cx: u32, cy: u32) -> Reader<'a> {
        Reader {
            lines: Lines::new(term),
            cx,
            cy,
        }
    }

    fn line(&mut self, y: u32) -> &TextLine {
        self.lines.line(y)
    }

    fn last_line(&self) -> u32 {
        self.lines.last_line()
    }

    fn sx(&self) -> u32 {
        self.lines.sx()
    }

    fn length(&mut self) -> u32 {
        let y = self.cy;
        self.line(y).length()
    }

    fn wraps(&mut self, y: u32) -> bool {
        self.line(y).wrapped
    }

    fn padding(&mut self) -> bool {
        let (x, y) = (self.cx, self.cy);
        self.line(y).is_padding(x)
    }

    fn in_set(&mut self, set: &str) -> bool {
        let (x, y) = (self.cx, self.cy);
        in_set(self.line(y), x, set)
    }

    fn cell_is(&mut self, x: u32, y: u32, c: &str) -> bool {
        let line = self.line(y);
        !line.is_padding(x) && line.cell(x) == c
    }

    /// Back off padding to the wide character's first cell.
    fn off_padding(&mut self) {
        while self.cx > 0 && self.padding() {
            self.cx -= 1;
        }
    }

    fn right(&mut self, wrap: bool, all: bool) {
        let px = if all { self.sx() } else { self.length() };
        if wrap && self.cx >= px && self.cy < self.last_line() {
            self.start_of_line(false);
            self.down();
        } else if self.cx < px {
            self.cx += 1;
            while self.cx < px && self.padding() {
                self.cx += 1;
            }
        }
    }

    fn left(&mut self, wrap: bool) {
        self.off_padding();
        if self.cx == 0 && self.cy > 0 && (wrap || self.wraps(self.cy - 1)) {
            self.up();
            self.end_of_line(false, false);
        } else if self.cx > 0 {
            self.cx -= 1;
        }
    }

    fn down(&mut self) {
        if self.cy < self.last_line() {
            self.cy += 1;
        }
        self.off_padding();
    }

    fn up(&mut self) {
        self.cy = self.cy.saturating_sub(1);
        self.off_padding();
    }

    fn start_of_line(&mut self, wrap: bool) {
        if wrap {
            while self.cy > 0 && self.wraps(self.cy - 1) {
                self.cy -= 1;
            }
        }
        self.cx = 0;
    }

    fn end_of_line(&mut self, wrap: bool, all: bool) {
        if wrap {
            let last = self.last_line();
            while self.cy < last && self.wraps(self.cy) {
                self.cy += 1;
            }
        }
        self.cx = if all { self.sx() } else { self.length() };
    }

    /// The end of the current line for word moves: a wrapped line goes on to the next.
    fn word_end_column(&mut self) -> u32 {
        match self.wraps(self.cy) {
            true => self.sx() - 1,
            false => self.length(),
        }
    }

    /// Keeps the cursor within its line, going on to the next lines as needed; false at the
    /// end of the copy (tmux's `grid_reader_handle_wrap`).
    fn handle_wrap(&mut self, xx: &mut u32, yy: u32) -> bool {
        while self.cx > *xx {
            if self.cy == yy {
                return false;
            }
            self.start_of_line(false);
            self.down();
            *xx = self.word_end_column();
        }
        true
    }

    /// Moves past the word the cursor is on: a run of separators, or of characters that are
    /// neither separators nor blank.
    fn skip_word(&mut self, separators: &str, xx: &mut u32, yy: u32) {
        let on_separator = self.in_set(separators);
        loop {
            self.cx += 1;
            if !self.handle_wrap(xx, yy) {
                return;
            }
            let same = match on_separator {
                true => self.in_set(separators) && !self.in_set(WHITESPACE),
                false => !(self.in_set(separators) || self.in_set(WHITESPACE)),
            };
            if !same {
                return;
            }
        }
    }

    fn next_word(&mut self, separators: &str) {
        let mut xx = self.word_end_column();
        let yy = self.last_line();
        if !self.handle_wrap(&mut xx, yy) {
            return;
        }
        if !self.in_set(WHITESPACE) {
            self.skip_word(separators, &mut xx, yy);
        }
        while self.handle_wrap(&mut xx, yy) && self.in_set(WHITESPACE) {
            self.cx += 1;
        }
    }

    fn next_word_end(&mut self, separators: &str) {
        let mut xx = self.word_end_column();
        let yy = self.last_line();
        while self.handle_wrap(&mut xx, yy) {
            if self.in_set(WHITESPACE) {
                self.cx += 1;
                continue;
            }
            self.skip_word(separators, &mut xx, yy);
            return;
        }
    }

    /// next-word-end as tmux moves it for each `mode-keys`: vi's stops on the word's last
    /// character, emacs' just after it.
    fn next_word_end_as(&mut self, separators: &str, vi: bool) {
        if vi {
            if !self.in_set(WHITESPACE) {
                self.right(false, false);
            }
            self.next_word_end(separators);
            self.left(true);
        } else {
            self.next_word_end(separators);
        }
    }

    fn previous_word(&mut self, separators: &str, already: bool, stop_at_eol: bool) {
        let word_is_letters;
        if already || self.in_set(WHITESPACE) {
            loop {
                if self.cx > 0 {
                    self.cx -= 1;
                    if !self.in_set(WHITESPACE) {
                        word_is_letters = !self.in_set(separators);
                        break;
                    }
                } else {
                    if self.cy == 0 {
                        return;
                    }
                    self.up();
                    self.end_of_line(false, false);
                    if stop_at_eol && self.cx > 0 {
                        self.cx -= 1;
                        let at_eol = self.in_set(WHITESPACE);
                        self.cx += 1;
                        if at_eol {
                            word_is_letters = false;
                            break;
                        }
                    }
                }
            }
        } else {
            word_is_letters = !self.in_set(separators);
        }
        loop {
            let (oldx, oldy) = (self.cx, self.cy);
            if self.cx == 0 {
                if self.cy == 0 || !self.wraps(self.cy - 1) {
                    break;
                }
                self.up();
                self.end_of_line(false, true);
            }
            if self.cx > 0 {
                self.cx -= 1;
            }
            if self.in_set(WHITESPACE) || word_is_letters == self.in_set(separators) {
                (self.cx, self.cy) = (oldx, oldy);
                return;
            }
        }
    }

    fn jump(&mut self, c: &str) -> bool {
        let last = self.last_line();
        let mut px = self.cx;
        for py in self.cy..=last {
            let xx = self.line(py).length();
            while px < xx {
                if self.cell_is(px, py, c) {
                    (self.cx, self.cy) = (px, py);
                    return true;
                }
                px += 1;
            }
            if py == last || !self.wraps(py) {
                return false;
            }
            px = 0;
        }
        false
    }

    fn jump_back(&mut self, c: &str) -> bool {
        let mut xx = self.cx + 1;
        let mut py = self.cy + 1;
        while py > 0 {
            for px in (1..=xx).rev() {
                if self.cell_is(px - 1, py - 1, c) {
                    (self.cx, self.cy) = (px - 1, py - 1);
                    return true;
                }
            }
            if py == 1 || !self.wraps(py - 2) {
                return false;
            }
            xx = self.line(py - 2).length();
            py -= 1;
        }
        false
    }

    fn back_to_indentation(&mut self) {
        let (oldx, oldy) = (self.cx, self.cy);
        self.start_of_line(true);
        let last = self.last_line();
        for py in self.cy..=last {
            let xx = self.line(py).length();
            for px in 0..xx {
                if self.line(py).cell(px) != " " {
                    (self.cx, self.cy) = (px, py);
                    return;
                }
            }
            if !self.wraps(py) {
                break;
            }
        }
        (self.cx, self.cy) = (oldx, oldy);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode_over(text: &str, vi: bool) -> CopyMode {
        let mut t = Terminal::new(20, 4, 100);
        t.feed(text.as_bytes());
        CopyMode::new(t, vi)
    }

    fn run(m: &mut CopyMode, commands: &[&str], vi: bool) -> Outcome {
        let set = Settings {
            vi,
            separators: "-".into(),
            wrap_search: true,
            regex: None,
        };
        let mut last = Outcome::default();
        for c in commands {
            let args: Vec<String> = c.split(' ').map(String::from).collect();
            last = m.command(&args, 1, &set);
        }
        last
    }

    #[test]
    fn a_resize_reflows_the_copy_and_keeps_the_cursor_on_its_character() {
        // Four rows of 20 columns: the second line wraps onto the third.
        let mut m = mode_over("one\r\n0123456789abcdefghijKLM\r\nend", true);
        (m.cx, m.cy) = (1, 2);
        let on_l = |m: &CopyMode| Lines::new(&m.backing).line(m.cursor_line()).cell(m.cx) == "L";
        assert!(on_l(&m));
        run(&mut m, &["begin-selection"], true);
        assert!(m.shown_selection().is_some());
        // Ten columns: the long line takes three rows, `one` goes into the history, and the
        // selection goes.
        m.resize(10, 4);
        assert!(on_l(&m));
        assert_eq!((m.cx, m.cy, m.oy, m.hsize()), (1, 2, 0, 1));
        assert!(m.shown_selection().is_none());
        // Forty by two: one row holds the line again; the rows that go are pushed into the
        // history, blank or not, and the cursor's line is shown at the top.
        m.resize(40, 2);
        assert!(on_l(&m));
        assert_eq!((m.cx, m.cy, m.oy, m.hsize()), (21, 0, 1, 2));
    }

    #[test]
    fn copies_leave_out_the_cursor_cell_with_emacs_and_keep_it_with_vi() {
        for vi in [false, true] {
            let mut m = mode_over("alpha beta-gamma\r\nsecond line\r\n", vi);
            // From an empty line, up goes to the end of the line above, as in tmux.
            run(&mut m, &["cursor-up", "cursor-up"], vi);
            assert_eq!((m.cx, m.cy), (16, 0));
            run(
                &mut m,
                &["start-of-line", "begin-selection", "next-word-end"],
                vi,
            );
            let out = run(&mut m, &["copy-selection-and-cancel"], vi);
            let copied = out.copied.expect("copied");
            assert_eq!(
                (copied.text.as_str(), out.cancel),
                ("alpha", true),
                "vi {vi}"
            );
        }
    }

    #[test]
    fn a_line_selection_copies_whole_lines_and_the_cursor_follows_its_end() {
        let mut m = mode_over("one two\r\n  three\r\nfour\r\n", true);
        run(&mut m, &["history-top", "select-line", "cursor-down"], true);
        assert_eq!((m.cx, m.cy), (7, 1));
        let out = run(&mut m, &["copy-selection piped"], true);
        let copied = out.copied.expect("copied");
        assert_eq!(copied.text, "one two\n  three\n");
        assert_eq!(
            (copied.prefix.as_deref(), out.cancel),
            (Some("piped"), false)
        );
        assert!(m.shown_selection().is_none());
    }

    #[test]
    fn searches_mark_count_and_go_round() {
        let mut m = mode_over("a cat\r\nCat b\r\ncatcat\r\n", true);
        run(&mut m, &["search-backward cat"], true);
        assert_eq!((m.cx, m.cy), (3, 2));
        assert_eq!(m.position_text(), "(4 results) [0/0]");
        assert_eq!(m.mark_at(3, 2, true), Some(Mark::Current));
        assert_eq!(m.mark_at(0, 2, true), Some(Mark::Match));
        assert_eq!(m.mark_at(0, 1, true), Some(Mark::Match));
        assert_eq!(m.mark_at(4, 1, true), None);
        run(
            &mut m,
            &["search-again", "search-again", "search-again"],
            true,
        );
        assert_eq!((m.cx, m.cy), (2, 0));
        run(&mut m, &["search-again"], true);
        assert_eq!((m.cx, m.cy), (3, 2), "round the top to the bottom");
        run(&mut m, &["search-backward Cat"], true);
        assert_eq!((m.cx, m.cy), (0, 1), "capitals match only capitals");
        run(&mut m, &["cursor-left"], false);
        assert_eq!(m.position_text(), "[0/0]", "emacs moves clear the marks");
    }

    #[test]
    fn a_rectangle_is_drawn_and_copied_by_columns() {
        let mut m = mode_over("abcdef\r\nghijkl\r\nmnopqr\r\n", true);
        let moves = [
            "history-top",
            "cursor-right",
            "begin-selection",
            "rectangle-toggle",
        ];
        run(&mut m, &moves, true);
        run(
            &mut m,
            &["cursor-right", "cursor-down", "cursor-down"],
            true,
        );
        let sel = m.shown_selection().expect("shown");
        assert!(sel.contains(1, 0) && sel.contains(2, 2) && !sel.contains(3, 1));
        let out = run(&mut m, &["copy-selection"], true);
        assert_eq!(out.copied.expect("copied").text, "bc\nhi\nno");
    }
}
